"""ODT-SVM's shortcuts (issue 16) give the results of the library calls they replace, bit
for bit: liblinear called directly against ``LinearSVC``, and the trees grown with the
shortcuts against trees grown with the library calls."""
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from orangecontrib.oblique.core import odt_svm
from orangecontrib.oblique.core.odt_svm import ODTSVMClassifier, liblinear_seed, linear_svm


def reference_linear_svm(Z, y, sample_weight, C, seed):
    """What :func:`linear_svm` stands for: scikit-learn's LinearSVC, ``seed`` being the
    seed LinearSVC(random_state) hands to liblinear."""
    svm = LinearSVC(C=C, loss="hinge", dual=True, max_iter=odt_svm.SVM_MAX_ITER,
                    random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        svm.fit(Z, y, sample_weight=sample_weight)
    return svm.classes_, svm.coef_, svm.intercept_


def problems():
    """Two- and multi-class problems, weighted and not, one that stops at max_iter."""
    rng = np.random.RandomState(0)
    for n_classes, n_rows, n_features in [(2, 60, 3), (3, 90, 5), (5, 40, 12), (2, 300, 8)]:
        X, y = make_classification(n_rows, n_features, n_informative=min(n_features, 3),
                                   n_redundant=0, n_classes=n_classes,
                                   n_clusters_per_class=1, flip_y=0.2, random_state=n_rows)
        yield X, y + 3, np.ones(n_rows)           # labels other than 0 .. K-1
        yield X, y, rng.uniform(0.1, 3.0, n_rows)
    X = rng.normal(size=(200, 30))
    yield X, (rng.uniform(size=200) < 0.5).astype(int), np.ones(200)  # noise: max_iter


@pytest.mark.parametrize("problem", list(problems()))
@pytest.mark.parametrize("C", [1.0, 0.05])
def test_linear_svm_is_linear_svc_bit_for_bit(problem, C):
    X, y, weights = problem
    for seed in (0, 12345, 2 ** 31 - 2):
        ours = linear_svm(X, y, weights, C, liblinear_seed(seed))
        theirs = reference_linear_svm(X, y, weights, C, seed)
        for a, b in zip(ours, theirs):
            np.testing.assert_array_equal(a, b)


def test_linear_svm_covers_a_fit_that_stops_at_max_iter():
    *_, (X, y, weights) = problems()
    svm = LinearSVC(loss="hinge", max_iter=odt_svm.SVM_MAX_ITER, random_state=0)
    with pytest.warns(ConvergenceWarning):
        svm.fit(X, y, sample_weight=weights)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_linear_svm_prints_nothing(capfd):
    X, y, weights = next(problems())
    LinearSVC(verbose=1, max_iter=5).fit(X, y)     # leaves liblinear's global switch on
    capfd.readouterr()
    linear_svm(X, y, weights, 1.0, liblinear_seed(0))
    assert capfd.readouterr().out == ""


def tree_sets():
    X, y = load_iris(return_X_y=True)
    yield X, y, None
    X, y = load_wine(return_X_y=True)
    yield X, y, np.random.RandomState(1).uniform(0.2, 3.0, len(y))
    X, y = make_classification(400, 6, n_informative=4, n_classes=2, flip_y=0.1,
                               random_state=3)
    yield X, y, None


@pytest.mark.parametrize("params", [{}, {"multiclass": "one_vs_rest"}, {"max_terms": 2},
                                    {"test_selection": "gain_ratio"}])
def test_trees_are_those_grown_with_the_library_calls(monkeypatch, params):
    for X, y, weights in tree_sets():
        fast = ODTSVMClassifier(random_state=0, **params).fit(X, y, sample_weight=weights)
        with monkeypatch.context() as patched:
            patched.setattr(odt_svm, "linear_svm", reference_linear_svm)
            patched.setattr(odt_svm, "liblinear_seed", lambda seed: seed)
            slow = ODTSVMClassifier(random_state=0, **params).fit(X, y,
                                                                  sample_weight=weights)
        assert fast.tree_.splits == slow.tree_.splits
        assert fast.tree_.children == slow.tree_.children
        np.testing.assert_array_equal(fast.tree_.value, slow.tree_.value)
