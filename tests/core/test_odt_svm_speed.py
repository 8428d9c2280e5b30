"""ODT-SVM's shortcuts (issue 16) give the results of the library calls they replace, bit
for bit: liblinear called directly against ``LinearSVC``, k-means++ against ``KMeans``,
and the trees grown with the shortcuts against trees grown with the library calls."""
import functools
import warnings

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from orangecontrib.oblique.core import odt_svm, xmeans
from orangecontrib.oblique.core.odt_svm import (ODTSVMClassifier, best_cuts, liblinear_seed,
                                                linear_svm)
from orangecontrib.oblique.core.pruning import _added_errors_of_one, added_errors
from orangecontrib.oblique.core.xmeans import (COMPILED, XMeans, bic, distinct_rows,
                                               kmeans_plus_plus, kmeans_plus_plus_seeds, lloyd,
                                               nearest_centre)

needs_numba = pytest.mark.skipif(not COMPILED, reason="numba is not installed or is off")


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
        ours = linear_svm(X, y, weights, C, liblinear_seed(seed, np.random.RandomState(7)))
        theirs = reference_linear_svm(X, y, weights, C, seed)
        for a, b in zip(ours, theirs):
            np.testing.assert_array_equal(a, b)


def test_liblinear_seed_is_the_first_draw_of_a_new_generator():
    generator = np.random.RandomState(3)
    for seed in (0, 1, 99, 123456789, 2 ** 31 - 2):
        expected = np.random.RandomState(seed).randint(np.iinfo(np.intc).max)
        assert liblinear_seed(seed, generator) == expected


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
    linear_svm(X, y, weights, 1.0, 0)
    assert capfd.readouterr().out == ""


def reference_kmeans(X, n_clusters, n_init, max_iter, random_state):
    """What :func:`kmeans_plus_plus` stands for: scikit-learn's KMeans on one thread."""
    with threadpool_limits(limits=1, user_api="openmp"):
        return KMeans(n_clusters, n_init=n_init, max_iter=max_iter,
                      random_state=random_state).fit(X).cluster_centers_


def clustering_sets():
    """Distances as ODT-SVM clusters them: one or a few columns, duplicates, outliers."""
    rng = np.random.RandomState(0)
    yield np.r_[rng.normal(-1, 0.7, 150), rng.normal(1.2, 0.5, 120)][:, None]
    yield np.r_[rng.normal(-1, 0.7, (80, 3)), rng.normal(1.2, 0.5, (60, 3))]
    yield np.round(rng.normal(size=(300, 1)), 1)                  # many equal values
    yield np.r_[rng.normal(size=(40, 2)), [[50.0, -50.0]]]         # an outlier
    yield rng.uniform(-3, 3, size=(2000, 6))                      # more than one chunk


@pytest.mark.parametrize("n_clusters, n_init", [(2, 1), (3, 1), (2, 3), (5, 2)])
def test_kmeans_plus_plus_is_kmeans_bit_for_bit(n_clusters, n_init):
    for X in clustering_sets():
        for seed in (0, 1, 17):
            ours = kmeans_plus_plus(X, n_clusters, n_init, 100, np.random.RandomState(seed))
            theirs = reference_kmeans(X, n_clusters, n_init, 100, np.random.RandomState(seed))
            np.testing.assert_array_equal(ours, theirs)


def test_seeds_are_kmeans_seeds():
    from sklearn.cluster._kmeans import _kmeans_plusplus
    from sklearn.utils.extmath import row_norms
    for X in clustering_sets():
        X = X - X.mean(axis=0)
        norms = row_norms(X, squared=True)
        for n_clusters in (2, 3, 5, 8):
            ours = kmeans_plus_plus_seeds(X, n_clusters, norms, np.random.RandomState(n_clusters))
            theirs, _ = _kmeans_plusplus(X, n_clusters, norms, np.ones(len(X)),
                                         np.random.RandomState(n_clusters))
            np.testing.assert_array_equal(ours, theirs)


def test_kmeans_plus_plus_draws_what_kmeans_draws():
    X = next(clustering_sets())
    ours, theirs = np.random.RandomState(5), np.random.RandomState(5)
    kmeans_plus_plus(X, 3, 2, 100, ours)
    reference_kmeans(X, 3, 2, 100, theirs)
    assert ours.randint(10 ** 9) == theirs.randint(10 ** 9)  # the next trees' draws too


def test_xmeans_is_that_of_kmeans(monkeypatch):
    for X in clustering_sets():
        fast = XMeans(max_clusters=6, n_init=2, random_state=3).fit(X)
        with monkeypatch.context() as patched:
            patched.setattr(xmeans, "kmeans_plus_plus", reference_kmeans)
            numpy_xmeans(patched)
            slow = XMeans(max_clusters=6, n_init=2, random_state=3).fit(X)
        np.testing.assert_array_equal(fast.cluster_centers_, slow.cluster_centers_)
        assert fast.bic_ == slow.bic_


def numpy_xmeans(patched):
    """X-means on its numpy code (``patched``: a monkeypatch context)."""
    for function in (lloyd, nearest_centre, bic):
        patched.setattr(xmeans, function.__name__, functools.partial(function, compiled=False))


@needs_numba
@pytest.mark.parametrize("n_dims", [1, 2, 7, 8, 9, 16, 23, 130, 300])
def test_compiled_kernels_are_numpys_arithmetic(n_dims):
    rng = np.random.RandomState(n_dims)
    for n_rows, n_centres in [(1, 1), (5, 2), (300, 3), (1500, 5)]:
        X = rng.standard_normal((n_rows, n_dims)) * 10.0 ** rng.randint(-3, 4, n_dims)
        X[n_rows // 2:] = np.round(X[n_rows // 2:], 1)          # coincident points: ties
        centres = X[rng.randint(0, n_rows, n_centres)] + rng.normal(0, 1e-3, (n_centres, 1))
        centres[-1] = centres[0]                                # two equal centres: ties
        labels = nearest_centre(X, centres, compiled=False)
        np.testing.assert_array_equal(nearest_centre(X, centres, compiled=True), labels)
        for a, b in zip(lloyd(X, centres, 100, compiled=True),
                        lloyd(X, centres, 100, compiled=False)):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(lloyd(X, centres, 1, compiled=True),    # stopped by max_iter
                        lloyd(X, centres, 1, compiled=False)):
            np.testing.assert_array_equal(a, b)
        assert bic(X, labels, centres, compiled=True) == bic(X, labels, centres,
                                                             compiled=False)


def test_lloyd_returns_the_labels_of_its_centres():
    for X in clustering_sets():
        for compiled in (False, True) if COMPILED else (False,):
            centres, labels = lloyd(X, X[:3], 3, compiled=compiled)
            np.testing.assert_array_equal(labels, nearest_centre(X, centres, compiled=False))


@needs_numba
def test_compiled_xmeans_is_numpys(monkeypatch):
    for X in clustering_sets():
        fast = XMeans(max_clusters=6, random_state=3).fit(X)
        with monkeypatch.context() as patched:
            numpy_xmeans(patched)
            slow = XMeans(max_clusters=6, random_state=3).fit(X)
        np.testing.assert_array_equal(fast.cluster_centers_, slow.cluster_centers_)
        assert fast.bic_ == slow.bic_


def test_a_refitted_xmeans_is_a_new_one():
    """ODT-SVM refits one XMeans at every node: as a new one drawing from the same
    generator."""
    reused = XMeans(max_clusters=5, n_init=1, random_state=np.random.RandomState(4))
    state = np.random.RandomState(4)
    for X in list(clustering_sets()) * 2:
        fresh = XMeans(max_clusters=5, n_init=1, random_state=state).fit(X)
        refitted = reused.fit(X)
        np.testing.assert_array_equal(refitted.cluster_centers_, fresh.cluster_centers_)
        np.testing.assert_array_equal(refitted.labels_, fresh.labels_)
        assert refitted.n_features_in_ == X.shape[1]


def test_distinct_rows_are_numpys_or_more_than_the_limit():
    rng = np.random.RandomState(0)
    for X in [np.repeat([[1.0, 2.0], [1.0, 3.0], [0.0, 2.0]], 5, axis=0),
              np.c_[np.zeros(50), rng.normal(size=50)],         # one value in column 0
              np.round(rng.normal(size=(60, 1)), 0), rng.normal(size=(40, 3))]:
        every = np.unique(X, axis=0)
        for limit in (1, 2, 3, 5, 8, 100):
            rows = distinct_rows(X, limit)
            if rows is None:
                assert len(every) > limit
            else:
                np.testing.assert_array_equal(rows, every)


@pytest.mark.parametrize("X", [[[0.0], [np.nan]], [[0.0], [np.inf]], np.empty((0, 2)),
                               np.empty((3, 0)), np.zeros((2, 2, 2)), [["a"], ["b"]]])
def test_xmeans_still_checks_its_input(X):
    with pytest.raises(ValueError):
        XMeans().fit(X)


def cut_blocks():
    """Blocks of sorted columns as the threshold tests scan them: equal values, fractional
    and whole weights, two to many classes."""
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
            for minimum in (2, 0.1 * n_rows / n_classes, n_rows / 2):
                yield (order, np.take_along_axis(V, order, axis=0), indicators,
                       indicators.sum(axis=1), minimum)


@needs_numba
def test_compiled_best_cuts_are_numpys():
    for block in cut_blocks():
        for a, b in zip(best_cuts(*block, compiled=True), best_cuts(*block, compiled=False)):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()   # signed zeros too


def test_best_cuts_are_each_columns_first_best_cut():
    for order, sorted_values, indicators, total, minimum in cut_blocks():
        columns, cuts, gains, split_infos = best_cuts(order, sorted_values, indicators, total,
                                                      minimum)
        n = len(order)
        for j in range(order.shape[1]):
            scores = []
            for i in range(n - 1):
                if (sorted_values[i + 1, j] > sorted_values[i, j] and i + 1 >= minimum
                        and n - i - 1 >= minimum):
                    left = indicators[:, order[:i + 1, j]].sum(axis=1)
                    gain, _ = odt_svm.gain_and_split_info([[left, total - left]])
                    scores.append((float(gain[0]), i))
            if not scores:
                assert j not in columns
                continue
            best = max(gain for gain, _ in scores)
            first = min(i for gain, i in scores if gain >= best - 1e-12)
            assert cuts[list(columns).index(j)] == first


@pytest.mark.parametrize("confidence", [0.25, 0.001, 0.1, 0.6, 1.0])
def test_added_errors_of_one_node_are_the_array_codes(confidence):
    rng = np.random.RandomState(0)
    sizes = np.r_[0.5, 1.0, 1.5, 2.0, 3.0, 7.0, 100.0, 1e5, rng.uniform(0.1, 500.0, 40)]
    for n in sizes:
        for errors in np.r_[0.0, 1e-7, 1e-6, 0.3, 0.9999, 1.0, n - 0.5, n - 0.4, n,
                            rng.uniform(0, n, 5), np.round(rng.uniform(0, n, 5))]:
            if 0 <= errors <= n:
                assert (_added_errors_of_one(float(n), float(errors), confidence)
                        == float(added_errors(n, errors, confidence)))


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
            patched.setattr(odt_svm, "liblinear_seed", lambda seed, generator: seed)
            patched.setattr(xmeans, "kmeans_plus_plus", reference_kmeans)
            numpy_xmeans(patched)
            slow = ODTSVMClassifier(random_state=0, **params).fit(X, y,
                                                                  sample_weight=weights)
        assert fast.tree_.splits == slow.tree_.splits
        assert fast.tree_.children == slow.tree_.children
        np.testing.assert_array_equal(fast.tree_.value, slow.tree_.value)
