"""ODT-SVM leaves out the SVM work that cannot give a valid test: where the MDL
cost of the SVM split's attributes is at least the node's class entropy, neither the SVM
split nor the clustering split on its hyperplanes can have a positive corrected gain, so
the remaining pairwise SVMs and X-means are not run.  X-means draws from its own generator,
reseeded at every node from the fit's, so leaving it out changes no other node.  The trees
are the same as with every SVM fitted."""
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_wine, make_classification

from orangecontrib.oblique.core import HedgeEnsembleClassifier, ODTSVMClassifier
from orangecontrib.oblique.core.odt_svm import classifier as odt_svm
from orangecontrib.oblique.core.tree.impurity import entropy
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMSplitter, linear_svm
from orangecontrib.oblique.core.tree.splits import pairwise_pairs

from tests.helpers.invariants import assert_identical_trees


def rare_class_set():
    """Many attributes, few rows, a rare class: brown-selected's shape (79 attributes, a
    class of a handful of rows), where the SVM splits below the root cannot pay for their
    attributes and a pairwise SVM of one row against a hundred runs to the solver's
    iteration limit."""
    X, y = make_classification(180, 60, n_informative=8, n_redundant=0, n_classes=3,
                               n_clusters_per_class=1, weights=[0.04, 0.36, 0.6],
                               class_sep=2.0, random_state=3)
    return X, y


def data_sets():
    wine, cancer = load_wine(return_X_y=True), load_breast_cancer(return_X_y=True)
    rng = np.random.RandomState(0)
    yield "rare", (*rare_class_set(), None)
    yield "wine", (*wine, None)
    yield "wine weighted", (*wine, rng.uniform(0.2, 3.0, len(wine[1])))
    yield "breast cancer", (*cancer, None)
    yield "breast cancer whole weights", (*cancer, rng.randint(0, 4, len(cancer[1])) * 1.0)


SETTINGS = [{}, {"multiclass": "one_vs_rest"}, {"test_selection": "gain_ratio"},
            {"random_state": 5}, {"max_terms": 2}, {"mdl_penalty": False},
            {"svm_cost": "indices"}]


def never_hopeless(self, y, weights):
    return lambda attributes, at_most=None: False


def fit(X, y, weights, **settings):
    settings.setdefault("random_state", 0)
    return ODTSVMClassifier(**settings).fit(X, y, sample_weight=weights)


def count_calls(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.parametrize("settings", SETTINGS, ids=str)
@pytest.mark.parametrize("name, data", list(data_sets()), ids=[n for n, _ in data_sets()])
def test_the_same_trees_as_with_every_svm_fitted(name, data, settings, monkeypatch):
    X, y, weights = data
    skipping = fit(X, y, weights, **settings)
    monkeypatch.setattr(ODTSVMSplitter, "hopeless_svm_tests", never_hopeless)
    every_svm = fit(X, y, weights, **settings)
    assert_identical_trees(skipping.tree_, every_svm.tree_)


def test_the_same_hedge_ensemble(monkeypatch):
    X, y = rare_class_set()
    skipping = HedgeEnsembleClassifier(n_estimators=4, random_state=0).fit(X, y)
    monkeypatch.setattr(ODTSVMSplitter, "hopeless_svm_tests", never_hopeless)
    every_svm = HedgeEnsembleClassifier(n_estimators=4, random_state=0).fit(X, y)
    np.testing.assert_array_equal(skipping.weights_, every_svm.weights_)
    for a, b in zip(skipping.estimators_, every_svm.estimators_):
        assert_identical_trees(a.tree_, b.tree_)


def test_fewer_svms_and_x_means_runs_where_they_cannot_win(monkeypatch):
    X, y = rare_class_set()
    svms = count_calls(monkeypatch, odt_svm, "linear_svm")
    clusterings = count_calls(monkeypatch, ODTSVMSplitter, "clustering_test")
    fit(X, y, None, svm_cost="indices")
    skipping = len(svms), len(clusterings)
    svms.clear(), clusterings.clear()
    monkeypatch.setattr(ODTSVMSplitter, "hopeless_svm_tests", never_hopeless)
    fit(X, y, None, svm_cost="indices")
    every_svm = len(svms), len(clusterings)
    assert skipping[0] < every_svm[0]
    assert skipping[1] < every_svm[1]


def test_hopeless_is_the_mdl_bound():
    """``svm_cost="indices"``: ``a · log2 m`` bits, growing with ``a``."""
    X, y = rare_class_set()
    splitter = ODTSVMSplitter(X, y, np.ones(len(y)), 3, np.array([], dtype=np.intp),
                              ODTSVMClassifier(svm_cost="indices"),
                              np.random.RandomState(0))
    rows = np.flatnonzero(y != 0)[:40]
    weights = np.linspace(0.5, 2.0, len(rows))
    hopeless = splitter.hopeless_svm_tests(y[rows], weights)
    bound = entropy(np.bincount(y[rows], weights, 3)) * weights.sum() / np.log2(60)
    assert 1 < bound < 60 and bound != np.floor(bound)
    assert not hopeless(int(np.floor(bound)))       # cost below the entropy
    assert hopeless(int(np.floor(bound)) + 1)       # cost above it
    # a pure node: no test can be valid, whatever it uses
    pure = splitter.hopeless_svm_tests(np.zeros(10, dtype=int), np.ones(10))
    assert pure(1)
    # without the MDL penalty, nothing is hopeless
    splitter.estimator = ODTSVMClassifier(mdl_penalty=False)
    assert not splitter.hopeless_svm_tests(y[rows], weights)(60)


def test_hopeless_under_the_subset_code():
    """The subset code, ``log2(m + 1) + log2 C(m, a)`` bits, is least for ``a = m``:
    no SVM split is hopeless unless one of all ``m`` attributes is, ``log2(m + 1)`` bits
    at least the node's entropy times N, whatever the attributes fitted so far."""
    X, y = rare_class_set()                                  # m = 60
    splitter = ODTSVMSplitter(X, y, np.ones(len(y)), 3, np.array([], dtype=np.intp),
                              ODTSVMClassifier(), np.random.RandomState(0))
    for rows in (np.flatnonzero(y != 0)[:40], np.flatnonzero(y != 0)[:3],
                 np.r_[np.flatnonzero(y == 0)[:1], np.flatnonzero(y != 0)[:30]]):
        counts = np.bincount(y[rows], minlength=3)
        expected = np.log2(61) >= entropy(counts) * len(rows)
        hopeless = splitter.hopeless_svm_tests(y[rows], np.ones(len(rows)))
        assert [hopeless(a) for a in (1, 30, 60)] == [expected] * 3


def test_no_svm_at_a_node_too_small_for_one_attribute(monkeypatch):
    # 6 rows of 2 classes, 64 attributes: log2 64 / 6 = 1 bit a row, the entropy 0.65
    rng = np.random.RandomState(1)
    X, y = rng.normal(size=(6, 64)), np.array([0, 0, 0, 0, 0, 1])
    splitter = ODTSVMSplitter(X, y, np.ones(6), 2, np.array([], dtype=np.intp),
                              ODTSVMClassifier(), np.random.RandomState(0))
    svms = count_calls(monkeypatch, odt_svm, "linear_svm")
    assert splitter.svm_hyperplanes(X, y, np.ones(6)) is None
    assert not svms
    monkeypatch.setattr(ODTSVMSplitter, "hopeless_svm_tests", never_hopeless)
    assert splitter.svm_hyperplanes(X, y, np.ones(6)) is not None
    assert len(svms) == 1


def test_pairwise_svms_fitted_smallest_first_are_those_in_pair_order(monkeypatch):
    X, y = rare_class_set()
    monkeypatch.setattr(ODTSVMSplitter, "hopeless_svm_tests", never_hopeless)
    splitter = ODTSVMSplitter(X, y, np.ones(len(y)), 3, np.array([], dtype=np.intp),
                              ODTSVMClassifier(), np.random.RandomState(0))
    sizes = count_calls(monkeypatch, odt_svm, "linear_svm")
    raw, raw_bias, classes, _ = splitter.svm_hyperplanes(X, y, np.ones(len(y)))
    assert [len(call[1]) for call in sizes] == sorted(len(call[1]) for call in sizes)
    # the same hyperplanes, fitted one pair after the other in pair order
    seed = np.random.RandomState(0).randint(np.iinfo(np.int32).max)
    mean, scale = X.mean(axis=0), X.std(axis=0)
    for row, (a, b) in enumerate(pairwise_pairs(3)):
        rows = (y == a) | (y == b)
        _, coef, intercept = linear_svm((X[rows] - mean) / scale, y[rows], np.ones(rows.sum()),
                                        1.0, seed)
        np.testing.assert_allclose(raw[row], -coef[0] / scale, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("settings", [{}, {"mdl_penalty": False}], ids=str)
def test_x_means_draws_from_its_own_generator(settings, monkeypatch):
    """X-means drawing more than it does, after its clustering, changes no SVM seed of
    a later node and no tree: the fit's generator gives a node that fits an SVM two
    numbers (the SVM's seed, X-means' seed), whatever X-means draws."""
    X, y = load_breast_cancer(return_X_y=True)
    seeds = count_calls(monkeypatch, odt_svm, "linear_svm")
    first = fit(X, y, None, **settings)
    first_seeds = [call[4] for call in seeds]
    seeds.clear()
    original = ODTSVMSplitter.clustering_test
    runs = []

    def greedy(self, *args, **kwargs):
        test = original(self, *args, **kwargs)
        self.xmeans.random_state.random_sample(1000)
        runs.append(test)
        return test

    monkeypatch.setattr(ODTSVMSplitter, "clustering_test", greedy)
    second = fit(X, y, None, **settings)
    assert len(runs) >= 1 and len(set(first_seeds)) >= 3
    assert [call[4] for call in seeds] == first_seeds
    assert_identical_trees(first.tree_, second.tree_)


# ----- the one threshold test the paper's rule can choose -----

def nodes_for_thresholds():
    rng = np.random.RandomState(4)
    cancer = load_breast_cancer(return_X_y=True)
    yield cancer[0], cancer[1], np.ones(len(cancer[1]))
    yield cancer[0], cancer[1], rng.uniform(0.1, 2.0, len(cancer[1]))
    X, y = rare_class_set()
    yield X, y, np.ones(len(y))
    # equal gains: duplicated columns, and columns rounded to few values
    yield np.hstack([X[:, :5], X[:, :5]]), y, np.ones(len(y))
    yield np.round(X[:, :12]), y, rng.randint(1, 3, len(y)) * 1.0
    yield X[:9, :4], y[:9], np.ones(9)                       # few rows: few or no cuts


@pytest.mark.parametrize("index", range(len(list(nodes_for_thresholds()))))
def test_only_best_threshold_is_the_one_the_gain_rule_chooses(index):
    X, y, weights = list(nodes_for_thresholds())[index]
    n_classes = int(y.max()) + 1
    splitter = ODTSVMSplitter(X, y, weights, n_classes, np.array([], dtype=np.intp),
                              ODTSVMClassifier(min_samples_leaf=1),
                              np.random.RandomState(0))
    n = float(weights.sum())
    every = [c for c in splitter.threshold_tests(X, y, weights, n) if np.isfinite(c.ratio)]
    best = splitter.threshold_tests(X, y, weights, n, only_best=True)
    if not every:
        assert best == []
        return
    expected = max(every, key=lambda c: c.gain)        # the first of highest gain
    assert len(best) == 1
    assert best[0].gain == expected.gain and best[0].ratio == expected.ratio
    assert best[0].split.weights.tolist() == expected.split.weights.tolist()
    assert best[0].split.bias.tolist() == expected.split.bias.tolist()
    if index == 3:   # duplicated columns: the tie goes to the first column
        assert np.flatnonzero(best[0].split.weights[0])[0] < 5


@pytest.mark.parametrize("settings", [{}, {"random_state": 3}, {"max_terms": 2}], ids=str)
@pytest.mark.parametrize("name, data", list(data_sets()), ids=[n for n, _ in data_sets()])
def test_the_same_trees_as_with_every_threshold_test(name, data, settings, monkeypatch):
    X, y, weights = data
    one = fit(X, y, weights, **settings)
    original = ODTSVMSplitter.threshold_tests
    monkeypatch.setattr(ODTSVMSplitter, "threshold_tests",
                        lambda self, X, y, w, n, only_best=False: original(self, X, y, w, n))
    every = fit(X, y, weights, **settings)
    assert_identical_trees(one.tree_, every.tree_)
