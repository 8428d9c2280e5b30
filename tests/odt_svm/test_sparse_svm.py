"""ODT-SVM's sparse splits: the SVM retrained during the backward elimination (SVM-RFE,
Guyon et al. 2002), so that correlated attributes do not lead the elimination astray."""
import itertools
import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer, load_wine, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from orangecontrib.oblique.core import ODTSVMClassifier
from orangecontrib.oblique.core.odt_svm.classifier import gain_and_split_info
from orangecontrib.oblique.core.tree.sparse import eliminate_terms


def information_gain(position, y):
    counts = np.stack([np.bincount(y[position == b], minlength=y.max() + 1)
                       for b in np.unique(position)])
    return float(gain_and_split_info(counts)[0])


def least_squares_refit(Z, y):
    """A stand-in for an algorithm's own search: least squares of ±1 on the columns."""
    def refit(columns, kept=True):
        design = np.column_stack([Z[:, columns], np.ones(len(y))])
        solution = np.linalg.lstsq(design, 2.0 * y - 1, rcond=None)[0]
        weights = np.zeros((1, Z.shape[1]))
        weights[0, columns] = solution[:-1]
        calls.append(np.array(columns))
        return weights, solution[-1:]
    calls = []
    return refit, calls


class TestEliminationWithRefit:
    def test_refits_after_every_round_and_returns_the_last_refit(self):
        rng = np.random.default_rng(0)
        Z = rng.normal(size=(300, 9))
        y = (Z[:, 0] + Z[:, 1] > 0).astype(int)
        refit, calls = least_squares_refit(Z, y)
        weights, bias = eliminate_terms(Z, np.ones((1, 9)), np.zeros(1), y, np.ones(300), 2,
                                        max_terms=1, refit=refit)
        # one attribute a round, each refit on the attributes left after the removal
        assert [c.size for c in calls] == [8, 7, 6, 5, 4, 3, 2, 1]
        assert all(set(later) < set(earlier) for earlier, later in zip(calls, calls[1:]))
        last_weights, last_bias = refit(calls[-1])
        np.testing.assert_array_equal(weights, last_weights)
        np.testing.assert_array_equal(bias, last_bias)     # the refit's own bias
        assert np.flatnonzero(weights[0]).tolist() in ([0], [1])

    def test_many_attributes_go_a_sixth_at_a_time_then_one_by_one(self):
        """A node of d attributes costs about 6·ln(d/12) + 12 rounds (and refits),
        not d − max_terms; below 12 attributes the removals are one by one."""
        rng = np.random.default_rng(1)
        Z = rng.normal(size=(300, 30))
        y = (Z[:, 0] + Z[:, 1] > 0).astype(int)
        refit, calls = least_squares_refit(Z, y)
        eliminate_terms(Z, np.ones((1, 30)), np.zeros(1), y, np.ones(300), 2, max_terms=2,
                        refit=refit)
        sizes = [c.size for c in calls]
        assert sizes == [25, 21, 18, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]

    def test_a_refit_without_weights_is_no_split(self):
        Z = np.random.default_rng(2).normal(size=(50, 4))
        y = (Z[:, 0] > 0).astype(int)
        found = eliminate_terms(Z, np.ones((1, 4)), np.zeros(1), y, np.ones(50), 2,
                                max_terms=1,
                                refit=lambda columns, kept: (np.zeros((1, 4)), np.zeros(1)))
        assert found is None


def best_pair_gain(Z, y):
    """The information gain of the best linear SVM on any two of the columns of ``Z``."""
    best = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for pair in itertools.combinations(range(Z.shape[1]), 2):
            svm = LinearSVC(loss="hinge", dual=True, max_iter=2000, random_state=0)
            values = svm.fit(Z[:, pair], y).decision_function(Z[:, pair])
            best = max(best, information_gain((values >= 0).astype(int), y))
    return best


def test_two_attribute_svm_split_is_close_to_the_best_pair_on_breast_cancer():
    # WDBC's 30 attributes come in correlated groups (radius, perimeter, area; mean, worst
    # value): the dense SVM's weights on them cancel each other, and an elimination judged
    # on those weights alone kept a pair of gain 0.54, the 111th best of the 435 pairs.
    X, y = load_breast_cancer(return_X_y=True)
    model = ODTSVMClassifier(max_terms=2, axis_parallel_tests=False, clustering_split=False,
                             max_depth=1, random_state=0).fit(X, y)
    root = model.tree_.splits[0]
    assert root.features_used.size == 2
    gain = information_gain(root.route(X), y)
    best = best_pair_gain((X - X.mean(axis=0)) / X.std(axis=0), y)
    assert gain >= 0.85 * best


class TestRankingAndKeptSplits:
    """The refits that only rank the next removals may be searched less exactly
    (ODT-SVM: liblinear's tolerance); the split kept is searched as the algorithm's own."""

    @staticmethod
    def flagged_refit(Z, y, lose_all_but=None):
        flags = []

        def refit(columns, kept):
            flags.append((len(columns), kept))
            design = np.column_stack([Z[:, columns], np.ones(len(y))])
            solution = np.linalg.lstsq(design, 2.0 * y - 1, rcond=None)[0]
            weights = np.zeros((1, Z.shape[1]))
            weights[0, columns] = solution[:-1]
            if lose_all_but is not None and not kept:    # a ranking split drops attributes
                weights[0, columns[lose_all_but:]] = 0.0
            return weights, solution[-1:]
        return refit, flags

    def test_only_the_last_refit_is_the_kept_split(self):
        rng = np.random.default_rng(3)
        Z = rng.normal(size=(200, 20))
        y = (Z[:, 0] - Z[:, 1] > 0).astype(int)
        refit, flags = self.flagged_refit(Z, y)
        eliminate_terms(Z, np.ones((1, 20)), np.zeros(1), y, np.ones(200), 2, max_terms=3,
                        refit=refit)
        assert [kept for _, kept in flags] == [False] * (len(flags) - 1) + [True]
        assert flags[-1][0] <= 3 and all(size > 3 for size, _ in flags[:-1])

    def test_a_ranking_split_that_drops_attributes_is_searched_again_as_kept(self):
        rng = np.random.default_rng(4)
        Z = rng.normal(size=(200, 20))
        y = (Z[:, 0] + Z[:, 2] > 0).astype(int)
        refit, flags = self.flagged_refit(Z, y, lose_all_but=2)
        weights, _ = eliminate_terms(Z, np.ones((1, 20)), np.zeros(1), y, np.ones(200), 2,
                                     max_terms=3, refit=refit)
        assert flags[-1] == (2, True) and not any(kept for _, kept in flags[:-1])
        assert np.count_nonzero(weights) == 2

    def test_a_given_split_within_the_limit_is_searched_again_as_kept(self):
        """The split an elimination starts from may be a ranking one (ODT-SVM's first SVM):
        when it already has at most ``max_terms`` attributes it is searched again."""
        rng = np.random.default_rng(5)
        Z = rng.normal(size=(100, 6))
        y = (Z[:, 0] > 0).astype(int)
        refit, flags = self.flagged_refit(Z, y)
        start = np.zeros((1, 6))
        start[0, [0, 4]] = 1.0
        eliminate_terms(Z, start, np.zeros(1), y, np.ones(100), 2, max_terms=3, refit=refit)
        assert flags == [(2, True)]


def test_odt_svm_kept_split_is_solved_to_linear_svc_tolerance():
    """The sparse root's SVM is the SVM of its attributes to LinearSVC's tolerance (its
    ranking SVMs were solved to liblinear's looser one): nearly LinearSVC's hyperplane."""
    X, y = load_breast_cancer(return_X_y=True)
    model = ODTSVMClassifier(max_terms=3, axis_parallel_tests=False, clustering_split=False,
                             max_depth=1, random_state=0).fit(X, y)
    root = model.tree_.splits[0]
    used = root.features_used
    Z = (X[:, used] - X[:, used].mean(axis=0)) / X[:, used].std(axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        svm = LinearSVC(loss="hinge", dual=True, tol=1e-8, max_iter=200_000,
                        random_state=0).fit(Z, y)
    normal = root.weights[0, used] * X[:, used].std(axis=0)      # standardised units
    cosine = normal @ svm.coef_[0] / np.linalg.norm(normal) / np.linalg.norm(svm.coef_[0])
    assert cosine > 1 - 1e-6      # (the ranking SVMs' tolerance: 1 − 4e-5 here)


def test_nodes_where_a_split_of_max_terms_attributes_cannot_win_fit_no_svm(monkeypatch):
    """A split of at most ``max_terms`` attributes costs at least the MDL code
    of its cheapest number of attributes up to ``max_terms`` (not of any number: the
    SVMs of the elimination may use them all); where that is above the node's entropy
    (small nodes of a sparse tree) neither SVM split can be a valid test, and the node's
    elimination (a dozen SVM fits) is skipped -- the same tree, fewer SVMs than with the
    bound of any number of attributes."""
    from orangecontrib.oblique.core.odt_svm import classifier as odt_svm
    from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMSplitter
    X, y = load_breast_cancer(return_X_y=True)
    calls = []
    original_svm = odt_svm.linear_svm

    def counted(*args, **kwargs):
        calls.append(len(args[1]))
        return original_svm(*args, **kwargs)

    monkeypatch.setattr(odt_svm, "linear_svm", counted)
    skipping = ODTSVMClassifier(max_terms=3, random_state=0).fit(X, y)
    fitted = len(calls)
    calls.clear()
    original_bound = ODTSVMSplitter.hopeless_svm_tests

    def any_number_of_attributes(self, y, weights):
        hopeless = original_bound(self, y, weights)
        return lambda attributes, at_most=None: hopeless(attributes)

    monkeypatch.setattr(ODTSVMSplitter, "hopeless_svm_tests", any_number_of_attributes)
    every = ODTSVMClassifier(max_terms=3, random_state=0).fit(X, y)
    assert fitted < len(calls)
    assert len(skipping.tree_.splits) == len(every.tree_.splits)
    for split, other in zip(skipping.tree_.splits, every.tree_.splits):
        assert (split is None) == (other is None)
        if split is not None:
            np.testing.assert_array_equal(split.weights, other.weights)
            np.testing.assert_array_equal(split.bias, other.bias)
    np.testing.assert_array_equal(skipping.predict_proba(X), every.predict_proba(X))


def test_the_elimination_refits_each_svm_from_the_last_one_in_fewer_passes(monkeypatch):
    """Every refit of the elimination starts from the dual variables of the
    node's previous SVM (a warm start); the SVMs of the elimination take fewer passes
    over the rows than the same fits started cold."""
    from orangecontrib.oblique.core.odt_svm import classifier as odt_svm
    from orangecontrib.oblique.core.odt_svm.linear_svm import DualStart
    original = odt_svm.linear_svm
    sets = [load_breast_cancer(return_X_y=True), load_wine(return_X_y=True),
            make_classification(400, 12, n_informative=6, n_redundant=3, random_state=2)]
    for X, y in sets:
        passes = {}
        for start in ("warm", "cold"):
            passes[start] = []

            def counted(*args, dual_start=None, **kwargs):
                assert dual_start is not None          # max_terms: every fit may start warm
                used = dual_start if start == "warm" else DualStart()
                result = original(*args, dual_start=used, **kwargs)
                passes[start].append(used.n_iter)
                return result

            monkeypatch.setattr(odt_svm, "linear_svm", counted)
            ODTSVMClassifier(max_terms=3, max_depth=1, axis_parallel_tests=False,
                             clustering_split=False, random_state=0).fit(X, y)
        assert len(passes["warm"]) == len(passes["cold"]) > 5
        assert sum(passes["warm"]) < 0.8 * sum(passes["cold"])
