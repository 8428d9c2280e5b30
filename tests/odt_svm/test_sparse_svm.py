"""ODT-SVM's sparse splits: the SVM retrained during the backward elimination (SVM-RFE,
Guyon et al. 2002), so that correlated attributes do not lead the elimination astray."""
import itertools
import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer
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
    def refit(columns):
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
                                refit=lambda columns: (np.zeros((1, 4)), np.zeros(1)))
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
