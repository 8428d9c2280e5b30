"""ODT-SVM's fast steps give what the slow ones they replace give: the threshold tests'
kernel each column's first best cut of C4.5's gain (against a cut-by-cut count), and the
project's SVM solver the trees grown with scikit-learn's ``LinearSVC`` (to the solver's
tolerance); the solver's own generator lets fits run in threads."""
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from orangecontrib.oblique.core.odt_svm import classifier as odt_svm
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier, best_cuts

from tests.helpers.invariants import assert_identical_trees


def cut_blocks():
    """Sorted columns as the threshold tests scan them: equal values, fractional and whole
    weights, two to many classes."""
    rng = np.random.RandomState(0)
    for n_rows, n_columns, n_classes in [(10, 3, 2), (200, 7, 2), (300, 4, 3), (120, 3, 7),
                                         (150, 5, 9), (400, 2, 20)]:
        V = rng.normal(size=(n_rows, n_columns))
        V[:, ::2] = np.round(V[:, ::2], 1)                       # ties
        y = rng.randint(0, n_classes, n_rows)
        y[np.argsort(V[:, 0])[:n_rows // 3]] = 0                # a pure side: zero entropies
        for weights in (np.ones(n_rows), rng.uniform(0.1, 3.0, n_rows)):
            indicators = np.zeros((n_classes, n_rows))
            indicators[y, np.arange(n_rows)] = weights
            order = np.argsort(V, axis=0, kind="stable")
            for minimum in (2.0, 0.1 * n_rows / n_classes, n_rows / 2):
                yield (order, np.take_along_axis(V, order, axis=0), indicators,
                       indicators.sum(axis=1), minimum)


def test_best_cuts_are_each_columns_first_best_cut():
    checked = 0
    for order, sorted_values, indicators, total, minimum in cut_blocks():
        columns, cuts, n_cuts, gains, split_infos = best_cuts(
            order, sorted_values, indicators, total, minimum)
        assert np.all(np.diff(columns) > 0)
        n = len(order)
        for j in range(order.shape[1]):
            scores = []
            for i in range(n - 1):
                if (sorted_values[i + 1, j] > sorted_values[i, j] and i + 1 >= minimum
                        and n - i - 1 >= minimum):
                    left = indicators[:, order[:i + 1, j]].sum(axis=1)
                    gain, split_info = odt_svm.gain_and_split_info([[left, total - left]])
                    scores.append((float(gain[0]), float(split_info[0]), i))
            if not scores:
                assert j not in columns
                continue
            best = max(gain for gain, _, _ in scores)
            first = min(i for gain, _, i in scores if gain >= best - 1e-12)
            at = list(columns).index(j)
            assert cuts[at] == first
            assert n_cuts[at] == len(scores)    # J48's count of admissible cut points
            gain, split_info, _ = next(score for score in scores if score[2] == first)
            assert gains[at] == pytest.approx(gain, abs=1e-12)
            assert split_infos[at] == pytest.approx(split_info, abs=1e-12)
            checked += 1
    assert checked > 100


def library_linear_svm(Z, y, sample_weight, C, seed, tolerance=1e-4, dual_start=None):
    """:func:`odt_svm.linear_svm` as scikit-learn's LinearSVC with ODT-SVM's settings
    (LinearSVC starts every fit cold: ``dual_start`` is not used)."""
    svm = LinearSVC(C=C, loss="hinge", dual=True, tol=tolerance, max_iter=2000,
                    random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        svm.fit(Z, y, sample_weight=sample_weight)
    return svm.classes_, svm.coef_, svm.intercept_


def tree_sets():
    X, y = load_iris(return_X_y=True)
    yield "iris", X, y, None
    X, y = load_wine(return_X_y=True)
    yield "wine weighted", X, y, np.random.RandomState(1).uniform(0.2, 3.0, len(y))
    X, y = make_classification(400, 6, n_informative=4, n_classes=2, flip_y=0.1,
                               random_state=3)
    yield "two classes", X, y, None


@pytest.mark.parametrize("params", [{}, {"multiclass": "one_vs_rest"}, {"max_terms": 2}],
                         ids=str)
@pytest.mark.parametrize("name, X, y, weights", list(tree_sets()),
                         ids=[name for name, *_ in tree_sets()])
def test_trees_are_nearly_those_grown_with_linear_svc(name, X, y, weights, params,
                                                      monkeypatch):
    """Both solve the same problem to the same tolerance, in other row orders: the root
    is the same kind of test with nearly the same hyperplane, and the trees classify
    nearly every training row alike."""
    ours = ODTSVMClassifier(random_state=0, **params).fit(X, y, sample_weight=weights)
    monkeypatch.setattr(odt_svm, "linear_svm", library_linear_svm)
    library = ODTSVMClassifier(random_state=0, **params).fit(X, y, sample_weight=weights)
    root, library_root = ours.tree_.splits[0], library.tree_.splits[0]
    assert root.kind.name == library_root.kind.name
    for normal, library_normal in zip(root.weights, library_root.weights):
        cosine = normal @ library_normal / np.linalg.norm(normal) / np.linalg.norm(
            library_normal)
        assert cosine > 0.999
    assert np.mean(ours.predict(X) == library.predict(X)) >= 0.97
    assert abs(ours.get_n_leaves() - library.get_n_leaves()) <= max(
        2, library.get_n_leaves() // 4)


def test_fits_in_threads_are_fits_one_at_a_time():
    """The solver draws its row orders from its own generator, seeded from the fit's: no
    global generator shared by fits running at once."""
    sets = [(X, y, weights) for _, X, y, weights in tree_sets()] * 2

    def fit(data):
        X, y, weights = data
        return ODTSVMClassifier(random_state=0).fit(X, y, sample_weight=weights)

    one_at_a_time = [fit(data) for data in sets]
    with ThreadPoolExecutor(2) as pool:
        in_threads = list(pool.map(fit, sets))
    for a, b in zip(one_at_a_time, in_threads):
        assert_identical_trees(a.tree_, b.tree_)
