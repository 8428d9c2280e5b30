"""X-means' compiled search (issue 16) gives the numpy code's results bit for bit: its
pieces against the numpy and scikit-learn calls they stand for, whole X-means fits with and
without it on many inputs (also where it hands a fit back to the numpy code), and whole
ODT-SVM and Hedge fits."""
import numpy as np
import pytest
from sklearn.cluster._kmeans import _kmeans_single_lloyd
from sklearn.datasets import load_breast_cancer, load_iris, load_wine, make_classification

from orangecontrib.oblique.core import HedgeEnsembleClassifier, ODTSVMClassifier, xmeans
from orangecontrib.oblique.core.xmeans import (COMPILED, XMeans, kmeans_plus_plus,
                                               kmeans_plus_plus_seeds, squared_row_norms)

needs_numba = pytest.mark.skipif(not COMPILED, reason="numba is not installed or is off")


def same(a, b):
    """Bit for bit (signed zeros too), arrays or floats."""
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def inputs(seed=0):
    """Decision values as ODT-SVM clusters them (one column, or a few) and hostile sets:
    ties, duplicates, constant columns, outliers, tiny and huge scales, signed zeros,
    2 to 2000 rows (and more than one of scikit-learn's 256-row chunks)."""
    rng = np.random.RandomState(seed)
    for n in (2, 3, 4, 6, 9, 17, 40, 100, 255, 256, 257, 600, 2000):
        yield rng.normal(size=(n, 1))
        yield np.r_[rng.normal(-2, 1, (n // 2, 1)), rng.normal(3, 0.4, (n - n // 2, 1))]
        yield np.round(rng.normal(size=(n, 1)), 1)                    # ties
        yield rng.randint(0, 4, (n, 1)).astype(float)                # few distinct values
        yield rng.normal(size=(n, 3)) * rng.uniform(0.1, 10, 3)
        yield np.round(rng.normal(size=(n, 2)), 0)
        yield np.c_[np.full(n, 1.5), rng.normal(size=n)]            # a constant column
    for n in (30, 300):
        yield np.r_[rng.normal(size=(n, 1)), [[60.0]]]                # an outlier
        yield np.concatenate([rng.normal(c, 0.1, (n // 5, 1)) for c in range(5)])
        yield rng.normal(size=(n, 1)) * 1e-9
        yield rng.normal(size=(n, 1)) * 1e8 + 1e9
        yield np.where(rng.uniform(size=(n, 1)) < 0.5, -0.0, 0.0) + np.r_[
            np.zeros((n - 4, 1)), [[1.0], [2.0], [3.0], [-1.0]]]    # -0.0 and 0.0
        yield np.repeat(rng.normal(size=(n // 6, 2)), 6, axis=0)    # duplicated rows
        yield rng.normal(size=(n, 6)) @ rng.normal(size=(6, 6))
        yield rng.normal(size=(n, 21))


CONFIGS = [dict(min_clusters=2, max_clusters=5, n_init=1),        # ODT-SVM's
           dict(min_clusters=2, max_clusters=8, n_init=3),
           dict(min_clusters=3, max_clusters=6, n_init=2, max_iter=3),
           dict(min_clusters=1, max_clusters=4, n_init=1)]


def numpy_fit(monkeypatch, X, seed, config):
    with monkeypatch.context() as patched:
        patched.setattr(xmeans, "SEARCH_COMPILED", False)
        return fitted(X, seed, config)


def fitted(X, seed, config):
    state = np.random.RandomState(seed)
    model = XMeans(random_state=state, **config).fit(X)
    return model, state.randint(2 ** 31 - 1)       # the generator's next draw too


def assert_same_fit(a, b):
    (model_a, next_a), (model_b, next_b) = a, b
    assert same(model_a.cluster_centers_, model_b.cluster_centers_)
    assert same(model_a.labels_, model_b.labels_)
    assert model_a.n_clusters_ == model_b.n_clusters_
    assert same(model_a.bic_, model_b.bic_)
    assert next_a == next_b


@needs_numba
def test_scipys_blas_gives_numpys_numbers_here():
    """The compiled search needs it (else it is off); it holds with numpy's and scipy's
    OpenBLAS wheels."""
    assert xmeans.blas_is_numpys()


@needs_numba
@pytest.mark.parametrize("seed", [0, 1])
def test_compiled_xmeans_is_numpys(monkeypatch, seed):
    for X in inputs(seed):
        for config in CONFIGS:
            assert_same_fit(fitted(X, seed, config), numpy_fit(monkeypatch, X, seed, config))


@needs_numba
def test_compiled_xmeans_is_numpys_on_many_rows(monkeypatch):
    """More rows than OpenBLAS takes in one thread for ddot and dgemv."""
    rng = np.random.RandomState(5)
    X = np.r_[rng.normal(-1, 1, (7000, 1)), rng.normal(2, 0.5, (5001, 1))]
    config = CONFIGS[0]
    assert_same_fit(fitted(X, 3, config), numpy_fit(monkeypatch, X, 3, config))


@needs_numba
def test_fit_centres_are_fits(monkeypatch):
    for X in list(inputs())[::5]:
        for seed in (0, 4):
            ours = XMeans(random_state=seed, **CONFIGS[0]).fit_centres(X)
            assert same(ours, fitted(X, seed, CONFIGS[0])[0].cluster_centers_)
            with monkeypatch.context() as patched:
                patched.setattr(xmeans, "SEARCH_COMPILED", False)
                assert same(XMeans(random_state=seed, **CONFIGS[0]).fit_centres(X), ours)


def count_outcomes(monkeypatch):
    """Wrap the kernels that may hand a fit back to the numpy code; count their outcomes."""
    outcomes = []
    for name in ("_xmeans_search", "_best_of_starts"):
        kernel = getattr(xmeans, name)

        def counted(*args, kernel=kernel, name=name):
            result = kernel(*args)
            outcomes.append((name, result[0]))
            return result
        monkeypatch.setattr(xmeans, name, counted)
    return outcomes


@needs_numba
@pytest.mark.parametrize("tolerance", [1e6, 1e-4])
def test_decisions_too_close_to_call_go_to_numpy(monkeypatch, tolerance):
    """With wide bounds on the kernels' BICs their decisions are unsure (all of them, or
    some), and the numpy code finishes the fits: still the same results."""
    outcomes = count_outcomes(monkeypatch)
    monkeypatch.setattr(xmeans, "BIC_TOLERANCE", tolerance)
    for X in list(inputs(2))[::3]:
        for config in CONFIGS[:2]:
            assert_same_fit(fitted(X, 1, config), numpy_fit(monkeypatch, X, 1, config))
    searches = [outcome for name, outcome in outcomes if name == "_xmeans_search"]
    assert xmeans.UNSURE in searches
    if tolerance < 1:
        assert xmeans.DONE in searches


@needs_numba
def test_an_emptied_cluster_goes_to_numpy_with_the_same_draws(monkeypatch):
    """k-means++ on three near-equal values among well separated ones: two centres a few
    units in the last place apart, and scikit-learn's Lloyd routine empties one of them
    (and relocates it, which the kernel leaves to it); in two columns, the kernel cannot
    even tell these centres' labels apart."""
    outcomes = count_outcomes(monkeypatch)
    eps = np.finfo(float).eps
    config = dict(min_clusters=4, max_clusters=6, n_init=2)
    for copies in (1, 2, 3):
        X = np.array([0.0] * 5 + [5.0] * 5 + [1.0, 1 + eps, 1 + 2 * eps] * copies)[:, None]
        for data in (X, np.c_[X, 2 * X]):
            for seed in range(6):
                assert_same_fit(fitted(data, seed, config),
                                numpy_fit(monkeypatch, data, seed, config))
    assert ("_best_of_starts", xmeans.EMPTIED) in outcomes


@needs_numba
def test_unsure_labels_go_to_numpy_with_the_same_draws(monkeypatch):
    """Points of a grid, many of them as far from two centres: labels too close to call
    for numba's order of the centres' squared norms."""
    outcomes = count_outcomes(monkeypatch)
    grid = np.array([[x, y] for x in range(6) for y in range(5)], dtype=float)
    for data in (grid, np.repeat(grid, 3, axis=0), np.c_[grid, grid[:, :1]]):
        for seed in range(8):
            for config in CONFIGS[:3]:
                assert_same_fit(fitted(data, seed, config),
                                numpy_fit(monkeypatch, data, seed, config))
    assert ("_best_of_starts", xmeans.LABEL_UNSURE) in outcomes
    assert ("_best_of_starts", xmeans.DONE) in outcomes


def test_huge_values_take_the_numpy_code(monkeypatch):
    outcomes = count_outcomes(monkeypatch)
    X = np.random.RandomState(0).normal(size=(50, 1)) * 1e120
    assert_same_fit(fitted(X, 0, CONFIGS[0]), numpy_fit(monkeypatch, X, 0, CONFIGS[0]))
    assert outcomes == []


def test_replaced_numpy_functions_are_used(monkeypatch):
    """Replacing a function of the numpy code (as tests do with the library calls they
    stand for) turns the compiled search off, so that the replacement runs."""
    calls = []

    def recorded(*args):
        calls.append(1)
        return kmeans_plus_plus(*args)
    monkeypatch.setattr(xmeans, "kmeans_plus_plus", recorded)
    XMeans(random_state=0, **CONFIGS[0]).fit(np.arange(20.0)[:, None])
    assert calls


# ----- the pieces -----

@needs_numba
def test_prepare_is_numpys():
    for X in inputs(3):
        X = np.ascontiguousarray(X)
        for limit in (2, 5, 8):
            count, distinct, mean_variance, largest, mean, centred = xmeans._prepare(X, limit)
            assert same(mean_variance, float(X.var(axis=0).mean()))
            assert same(mean, X.mean(axis=0)) and same(centred, X - X.mean(axis=0))
            assert largest == np.abs(X).max()
            n_first = len(np.unique(X[:, 0]))
            assert count == min(n_first, limit + 1)
            if count <= limit and len(distinct):
                assert X.shape[1] > 1 or same(distinct, np.unique(X, axis=0))
                assert not (distinct == 0).any()


@needs_numba
def test_column_means_and_variances_are_numpys():
    rng = np.random.RandomState(4)
    for _ in range(300):
        n_rows, n_dims = rng.randint(1, 1200), rng.randint(1, 25)
        X = rng.normal(size=(n_rows, n_dims)) * 10.0 ** rng.randint(-6, 6, n_dims)
        X[rng.uniform(size=X.shape) < 0.1] = -0.0
        assert same(xmeans._column_means(X), X.mean(axis=0))
        assert same(xmeans._mean_variance(X), np.mean(np.var(X, axis=0)))


@needs_numba
def test_blas_calls_are_numpys():
    rng = np.random.RandomState(5)
    for n in list(range(1, 70)) + [127, 128, 129, 256, 1000, 4097, 10001]:
        a, b = rng.uniform(0, 2, n), rng.normal(size=n)
        column = rng.normal(size=(n, 1))
        assert same(xmeans._blas_dot(a, b), a @ b)
        assert same(xmeans._blas_dot(column[:, 0].copy(), column[:, 0].copy()),
                    (column.T @ column)[0, 0])
        A = rng.uniform(0, 2, (rng.randint(1, 4), n))
        assert same(xmeans._blas_row_sums(A, b), (A @ b.reshape(-1, 1))[:, 0])


@needs_numba
def test_eigenvectors_are_numpys():
    rng = np.random.RandomState(6)
    for n_dims in range(2, 25):
        for n_rows in (2, n_dims, 50, 400):
            region = rng.normal(size=(n_rows, n_dims)) * rng.uniform(0.01, 10, n_dims)
            if n_rows == 50:
                region = np.round(region, 0)
            centred = region - region.mean(axis=0)
            values, vectors = np.linalg.eigh(centred.T @ centred / n_rows)
            ours, direction, info = xmeans._numpy_eigh(xmeans.gram(centred) / n_rows)
            assert info == 0
            assert same(ours, values) and same(direction, vectors[:, -1])


def draw_counts(n_clusters, n_init=1):
    trials = 2 + int(np.log(n_clusters))
    return trials, n_init * (1 + (n_clusters - 1) * trials)


def test_the_draws_are_the_generators():
    """k-means++'s ``choice`` and ``uniform`` calls take the numbers ``random_sample``
    gives, in order; :class:`~xmeans._Replay` turns them into the same rows."""
    for n_clusters in (2, 3, 5, 8):
        for seed in (0, 1, 2):
            _, n_draws = draw_counts(n_clusters, 2)
            X = np.random.RandomState(seed).normal(size=(40, 2))
            theirs = np.random.RandomState(seed)
            expected = kmeans_plus_plus(X, n_clusters, 2, 100, theirs)
            ours = np.random.RandomState(seed)
            replay = xmeans._Replay(ours.random_sample(n_draws))
            assert same(kmeans_plus_plus(X, n_clusters, 2, 100, replay), expected)
            assert replay.taken == n_draws
            assert ours.randint(10 ** 9) == theirs.randint(10 ** 9)


@needs_numba
def test_seeds_of_one_column_are_numpys():
    for X in inputs(7):
        if X.shape[1] > 1 or len(np.unique(X)) < 9:
            continue
        centred = X - X.mean(axis=0)
        column = np.ascontiguousarray(centred[:, 0])
        for n_clusters in (2, 3, 5, 8):
            for seed in (0, 9):
                trials, n_draws = draw_counts(n_clusters)
                draws = np.random.RandomState(seed).random_sample(n_draws)
                expected = kmeans_plus_plus_seeds(centred, n_clusters,
                                                  squared_row_norms(centred),
                                                  np.random.RandomState(seed))
                assert same(xmeans._seeds_one_column(column, n_clusters, trials, draws, 0),
                            expected)


@needs_numba
def test_seeds_of_several_columns_are_numpys():
    for X in inputs(10):
        if X.shape[1] == 1 or len(np.unique(X, axis=0)) < 9:
            continue
        centred = X - X.mean(axis=0)
        for n_clusters in (2, 3, 5, 8):
            for seed in (0, 9):
                trials, n_draws = draw_counts(n_clusters)
                draws = np.random.RandomState(seed).random_sample(n_draws)
                norms = squared_row_norms(centred)
                expected = kmeans_plus_plus_seeds(centred, n_clusters, norms,
                                                  np.random.RandomState(seed))
                assert same(xmeans._seeds_columns(centred, norms, n_clusters, trials, draws,
                                                  0), expected)


@needs_numba
def test_lloyd_is_scikit_learns():
    """Labels, inertia and centres of scikit-learn's ``_kmeans_single_lloyd``, to the bit,
    from many starts: over several 256-row chunks, stopped by the iteration limit or the
    tolerance, with ties; in several columns where its labels are sure."""
    rng = np.random.RandomState(8)
    compared = {1: 0, 2: 0}
    for X in inputs(8):
        if len(np.unique(X, axis=0)) < 9:
            continue
        X = X - X.mean(axis=0)
        for n_clusters in (2, 3, 6):
            for max_iter, share in ((100, 0.0), (100, 1e-4), (1, 0.0), (2, 0.0), (100, 0.5)):
                tolerance = share * X.var(axis=0).mean()
                init = X[rng.choice(len(X), n_clusters, replace=False)]
                outcome, labels, inertia, centres = xmeans._kmeans_lloyd(X, init, max_iter,
                                                                         tolerance)
                if outcome != xmeans.DONE:
                    assert outcome != xmeans.LABEL_UNSURE or X.shape[1] > 1
                    continue
                theirs = _kmeans_single_lloyd.__wrapped__(X, np.ones(len(X)), init.copy(),
                                                          max_iter=max_iter, tol=tolerance,
                                                          n_threads=1)
                assert same(labels, theirs[0]) and same(centres, theirs[2])
                assert same(inertia, theirs[1])
                compared[min(X.shape[1], 2)] += 1
    assert compared[1] > 300 and compared[2] > 300


@needs_numba
@pytest.mark.parametrize("n_clusters, n_init", [(2, 1), (2, 3), (3, 2), (5, 1)])
def test_kmeans_plus_plus_is_numpys(n_clusters, n_init):
    done = 0
    for X in inputs(9):
        if len(np.unique(X, axis=0)) <= n_clusters:
            continue
        for seed in (0, 3):
            trials, n_draws = draw_counts(n_clusters, n_init)
            draws = np.random.RandomState(seed).random_sample(n_draws)
            centred = X - X.mean(axis=0)
            outcome, ours = xmeans._best_of_starts(centred, squared_row_norms(centred),
                                                   n_clusters, n_init, trials, 100, draws)
            ours = ours + X.mean(axis=0)
            if outcome == xmeans.DONE:
                assert same(ours, kmeans_plus_plus(X, n_clusters, n_init, 100,
                                                   np.random.RandomState(seed)))
                done += 1
    assert done > 100


# ----- whole trees -----

def tree_sets():
    X, y = load_iris(return_X_y=True)
    yield X, y, None
    X, y = load_wine(return_X_y=True)
    yield X, y, np.random.RandomState(1).uniform(0.2, 3.0, len(y))
    X, y = load_breast_cancer(return_X_y=True)
    yield X[::2], y[::2], None
    X, y = make_classification(500, 8, n_informative=5, n_classes=4, n_clusters_per_class=1,
                               flip_y=0.1, random_state=4)
    yield X, y, None


def assert_same_tree(a, b, X):
    assert a.tree_.splits == b.tree_.splits
    assert a.tree_.children == b.tree_.children
    assert same(a.tree_.value, b.tree_.value)
    assert same(a.predict_proba(X), b.predict_proba(X))
    assert a.export_text() == b.export_text()


@pytest.mark.parametrize("params", [{}, {"multiclass": "one_vs_rest"}, {"max_terms": 3},
                                    {"test_selection": "gain_ratio"}, {"max_clusters": 8}])
def test_odt_svm_trees_are_the_numpy_codes(monkeypatch, params):
    for X, y, weights in tree_sets():
        fast = ODTSVMClassifier(random_state=0, **params).fit(X, y, sample_weight=weights)
        with monkeypatch.context() as patched:
            patched.setattr(xmeans, "SEARCH_COMPILED", False)
            slow = ODTSVMClassifier(random_state=0, **params).fit(X, y,
                                                                  sample_weight=weights)
        assert_same_tree(fast, slow, X)


def test_hedge_ensembles_are_the_numpy_codes(monkeypatch):
    X, y = load_wine(return_X_y=True)
    fast = HedgeEnsembleClassifier(n_estimators=3, random_state=0).fit(X, y)
    with monkeypatch.context() as patched:
        patched.setattr(xmeans, "SEARCH_COMPILED", False)
        slow = HedgeEnsembleClassifier(n_estimators=3, random_state=0).fit(X, y)
    for a, b in zip(fast.estimators_, slow.estimators_):
        assert_same_tree(a, b, X)
    assert same(fast.predict_proba(X), slow.predict_proba(X))
