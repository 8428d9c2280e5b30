"""X-means (Pelleg & Moore 2000): the BIC of Section 3.2, the search for the number of
clusters, as used by ODT-SVM's clustering split, and the k-means under it (k-means++
seeding, Lloyd's iterations)."""
import math

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.exceptions import NotFittedError
from sklearn.metrics import adjusted_rand_score
from threadpoolctl import threadpool_limits

from orangecontrib.oblique.core.odt_svm.xmeans import XMeans, bic, kmeans, lloyd, nearest_centre


# ----- helpers -----

def separated_blobs(n_clusters, n_features, seed, n_samples=400, separation=8.0):
    """make_blobs around centres (unit spread) at least ``separation`` apart."""
    rng = np.random.RandomState(seed)
    half_width = max(30.0, separation * n_clusters)  # room enough for rejection sampling
    while True:
        centers = rng.uniform(-half_width, half_width, (n_clusters, n_features))
        gaps = np.linalg.norm(centers[:, None] - centers[None], axis=2)
        if n_clusters == 1 or gaps[~np.eye(n_clusters, dtype=bool)].min() >= separation:
            break
    return make_blobs(n_samples, centers=centers, cluster_std=1.0, random_state=seed)


def one_cluster_bic(X):
    return bic(X, np.zeros(len(X), dtype=np.intp), X.mean(axis=0, keepdims=True))


def kmeans_bic(X, n_clusters, seed=0):
    with threadpool_limits(limits=1, user_api="openmp"):  # as XMeans runs it: much faster
        centers = KMeans(n_clusters, n_init=3, random_state=seed).fit(X).cluster_centers_
    return bic(X, nearest_centre(X, centers), centers)


# ----- the BIC -----

def test_bic_by_hand_one_dimension_two_clusters():
    X = np.array([[0.0], [2.0], [10.0], [12.0]])
    labels = np.array([0, 0, 1, 1])
    centers = np.array([[1.0], [11.0]])
    # R = 4, M = 1, K = 2: SS = 4, sigma^2 = 4 / (1 * 2) = 2, p = 1 + 2 + 1 = 4
    log_likelihood = 2 * 2 * math.log(2 / 4) - 4 / 2 * math.log(2 * math.pi * 2) - 4 / (2 * 2)
    assert bic(X, labels, centers) == pytest.approx(log_likelihood - 4 / 2 * math.log(4))


def test_bic_by_hand_two_dimensions_one_cluster():
    X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    # R = 4, M = 2, K = 1, centre (1, 1): SS = 8, sigma^2 = 8 / (2 * 3) = 4/3, p = 0 + 2 + 1
    log_likelihood = 0.0 - 4 * 2 / 2 * math.log(2 * math.pi * 4 / 3) - 8 / (2 * 4 / 3)
    assert one_cluster_bic(X) == pytest.approx(log_likelihood - 3 / 2 * math.log(4))


def test_bic_by_hand_unequal_clusters_in_three_dimensions():
    X = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [5, 5, 5], [6, 5, 5.0]])
    labels = np.array([0, 0, 0, 1, 1])
    centers = np.array([[1 / 3, 1 / 3, 0], [5.5, 5, 5]])
    ss = (1 / 9 + 1 / 9) + (4 / 9 + 1 / 9) + (1 / 9 + 4 / 9) + 0.25 + 0.25
    variance = ss / (3 * (5 - 2))
    log_likelihood = (3 * math.log(3 / 5) + 2 * math.log(2 / 5)
                      - 5 * 3 / 2 * math.log(2 * math.pi * variance) - 3 * (5 - 2) / 2)
    n_parameters = 1 + 3 * 2 + 1
    assert bic(X, labels, centers) == pytest.approx(
        log_likelihood - n_parameters / 2 * math.log(5))


def test_bic_of_one_cluster_in_one_dimension_is_the_papers_region_formula():
    X = np.random.RandomState(0).normal(3.0, 2.0, (50, 1))
    r, m, k = 50, 1, 1
    variance = ((X - X.mean()) ** 2).sum() / (r - k)
    paper = (-r / 2 * math.log(2 * math.pi) - r * m / 2 * math.log(variance) - (r - k) / 2
             + r * math.log(r) - r * math.log(r))
    assert one_cluster_bic(X) == pytest.approx(paper - (k - 1 + m * k + 1) / 2 * math.log(r))


def test_bic_degenerate_cases():
    X = np.array([[1.0], [1.0], [4.0], [4.0]])
    labels = np.array([0, 0, 1, 1])
    centers = np.array([[1.0], [4.0]])
    assert bic(X, labels, centers) == np.inf
    floored = bic(X, labels, centers, min_variance=1e-6)
    expected = (4 * math.log(1 / 2) - 4 / 2 * math.log(2 * math.pi * 1e-6)
                - 4 / 2 * math.log(4))
    assert floored == pytest.approx(expected)
    assert bic(X[:2], labels[:2], centers) == -np.inf  # R <= K: no variance estimate


# ----- the search -----

@pytest.mark.parametrize("n_features", [1, 2, 5])
@pytest.mark.parametrize("n_clusters", [2, 3, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finds_the_number_of_separated_blobs(n_clusters, n_features, seed):
    X, y = separated_blobs(n_clusters, n_features, seed)
    model = XMeans(random_state=seed).fit(X)
    assert model.n_clusters_ == n_clusters
    assert model.cluster_centers_.shape == (n_clusters, n_features)
    assert adjusted_rand_score(y, model.labels_) == 1.0


@pytest.mark.parametrize("n_features", [1, 2, 3])
@pytest.mark.parametrize("n_clusters", [1, 2, 3, 4])
def test_finds_one_to_four_blobs(n_clusters, n_features):
    # From one cluster up to three blobs; four start at two clusters: split in two halves
    # of two blobs each, four blobs in a row are as spread as a uniform stretch, whose hard
    # 2-means split gains nothing by BIC (log 4 / 2 per row from the halved deviations
    # against log 2 per row for the mixing weights), so X-means may stop at one cluster.
    for seed in range(4):
        X, y = separated_blobs(n_clusters, n_features, seed)
        model = XMeans(min_clusters=1 if n_clusters < 4 else 2, max_clusters=6,
                       random_state=0).fit(X)
        assert model.n_clusters_ == n_clusters
        assert adjusted_rand_score(y, model.labels_) == 1.0


def test_blobs_as_odt_svm_clusters_them():
    # ODT-SVM's X-means (n_init=1, at most 5 clusters) on signed distances to a hyperplane:
    # three groups of rows, one of them twice as wide
    rng = np.random.RandomState(0)
    distances = np.concatenate([rng.normal(-6, 1, 150), rng.normal(0, 0.5, 60),
                                rng.normal(5, 2, 90)])
    model = XMeans(min_clusters=2, max_clusters=5, n_init=1, random_state=rng)
    centres = np.sort(model.fit_centres(distances).ravel())
    np.testing.assert_allclose(centres, [-6, 0, 5], atol=0.5)


@pytest.mark.parametrize("min_clusters, max_clusters", [(1, 1), (1, 3), (2, 2), (2, 4),
                                                        (3, 8), (6, 10), (10, 12)])
@pytest.mark.parametrize("data", ["eight_blobs", "uniform"])
def test_never_leaves_the_allowed_range(min_clusters, max_clusters, data):
    if data == "eight_blobs":
        X, _ = separated_blobs(8, 2, 0)
    else:
        X = np.random.RandomState(0).uniform(size=(300, 2))
    model = XMeans(min_clusters, max_clusters, random_state=0).fit(X)
    assert min_clusters <= model.n_clusters_ <= max_clusters
    assert len(model.cluster_centers_) == model.n_clusters_
    assert set(np.unique(model.labels_)) <= set(range(model.n_clusters_))


def test_too_many_splits_keeps_the_best_and_stops_at_max_clusters():
    X, _ = separated_blobs(8, 1, 0, n_samples=800)
    assert XMeans(max_clusters=3, random_state=0).fit(X).n_clusters_ == 3
    assert XMeans(max_clusters=8, random_state=0).fit(X).n_clusters_ == 8


def test_one_gaussian_blob():
    X = np.random.RandomState(0).normal(size=(500, 2))
    assert XMeans(random_state=0).fit(X).n_clusters_ == 2  # min_clusters=2 is a floor
    model = XMeans(min_clusters=1, random_state=0).fit(X)
    assert model.n_clusters_ == 1
    assert model.bic_ == pytest.approx(one_cluster_bic(X))
    assert one_cluster_bic(X) > kmeans_bic(X, 2)


def test_two_blobs_with_min_clusters_one():
    X, _ = separated_blobs(2, 2, 0)
    model = XMeans(min_clusters=1, random_state=0).fit(X)
    assert model.n_clusters_ == 2
    assert kmeans_bic(X, 2) > one_cluster_bic(X)
    assert model.bic_ == pytest.approx(kmeans_bic(X, 2))


@pytest.mark.parametrize("seed", [0, 1])
def test_returns_the_best_visited_model(seed):
    X, _ = separated_blobs(4, 3, seed)
    model = XMeans(min_clusters=1, random_state=seed).fit(X)
    assert model.bic_ == pytest.approx(bic(X, model.labels_, model.cluster_centers_,
                                           1e-12 * X.var(axis=0).mean()))
    for k in (1, 2, 3, 5, 6):
        assert model.bic_ >= kmeans_bic(X, k, seed)


@pytest.mark.parametrize("seed", [0, 1])
def test_returns_the_best_visited_model_not_the_last(seed):
    # On skewed data the regions of the 2-cluster model split by their own BICs (Improve-
    # Structure) into models whose BIC on the whole data is lower (recorded: 3 and
    # 4 clusters); the first model is returned.
    X = np.random.RandomState(seed).exponential(size=(300, 1))
    model = XMeans(max_clusters=8, random_state=0).fit(X)
    assert model.n_clusters_ == 2
    assert model.bic_ == XMeans(max_clusters=2, random_state=0).fit(X).bic_
    assert model.bic_ > max(kmeans_bic(X, k) for k in (3, 4, 5))


@pytest.mark.parametrize("n_features", [1, 3])
def test_predict_agrees_with_labels(n_features):
    X, _ = separated_blobs(3, n_features, 0)
    X = np.vstack([X, np.random.RandomState(1).uniform(-30, 30, (100, n_features))])
    model = XMeans(random_state=0).fit(X)
    np.testing.assert_array_equal(model.predict(X), model.labels_)
    np.testing.assert_array_equal(model.fit_predict(X), model.labels_)


def test_predict_breaks_ties_towards_the_first_centre():
    model = XMeans(min_clusters=2, max_clusters=2).fit(np.array([[0.0], [2.0], [0.0], [2.0]]))
    np.testing.assert_array_equal(model.cluster_centers_, [[0.0], [2.0]])
    np.testing.assert_array_equal(model.predict([[1.0], [-1.0], [3.0]]), [0, 0, 1])


def test_fit_centres_are_the_fits_centres():
    X, _ = separated_blobs(4, 2, 1)
    np.testing.assert_array_equal(XMeans(random_state=3).fit_centres(X),
                                  XMeans(random_state=3).fit(X).cluster_centers_)


def test_a_reseeded_generator_repeats_the_fit():
    # as ODT-SVM uses it: one estimator, its generator reseeded at every node
    X = np.random.RandomState(0).uniform(size=(300, 2))
    state = np.random.RandomState()
    model = XMeans(max_clusters=6, n_init=1, random_state=state)
    state.seed(11)
    first = model.fit_centres(X)
    model.fit_centres(X[:100])                           # another node in between
    state.seed(11)
    np.testing.assert_array_equal(model.fit_centres(X), first)


def test_reproducible_with_a_fixed_random_state():
    X = np.random.RandomState(0).uniform(size=(400, 3))
    first = XMeans(max_clusters=10, random_state=7).fit(X)
    again = XMeans(max_clusters=10, random_state=7).fit(X)
    from_state = XMeans(max_clusters=10, random_state=np.random.RandomState(7)).fit(X)
    for other in (again, from_state):
        np.testing.assert_array_equal(first.cluster_centers_, other.cluster_centers_)
        np.testing.assert_array_equal(first.labels_, other.labels_)
        assert first.bic_ == other.bic_


# ----- degenerate data -----

def test_constant_data_is_one_cluster():
    X = np.full((20, 2), 3.5)
    model = XMeans(random_state=0).fit(X)
    assert model.n_clusters_ == 1
    np.testing.assert_array_equal(model.cluster_centers_, [[3.5, 3.5]])
    np.testing.assert_array_equal(model.labels_, 0)
    assert np.isfinite(model.bic_) or model.bic_ == np.inf


def test_fewer_distinct_rows_than_min_clusters():
    X = np.array([[2.0], [0.0], [2.0], [5.0], [0.0]])
    model = XMeans(min_clusters=4, max_clusters=6).fit(X)
    assert model.n_clusters_ == 3
    np.testing.assert_array_equal(model.cluster_centers_, [[0.0], [2.0], [5.0]])
    np.testing.assert_array_equal(model.labels_, [1, 0, 1, 2, 0])


@pytest.mark.parametrize("X, n_clusters", [([[1.0]], 1), ([[1.0], [1.0]], 1),
                                           ([[1.0], [2.0]], 2), ([[1.0], [2.0], [3.0]], 2)])
def test_a_few_rows(X, n_clusters):
    model = XMeans(random_state=0).fit(X)
    assert model.n_clusters_ == n_clusters
    np.testing.assert_array_equal(model.predict(X), model.labels_)


def test_duplicated_values_are_their_own_clusters():
    X = np.repeat([[0.0], [1.0], [5.0]], 50, axis=0)
    model = XMeans(random_state=0).fit(X)
    assert model.n_clusters_ == 3
    np.testing.assert_array_equal(np.sort(model.cluster_centers_.ravel()), [0.0, 1.0, 5.0])
    assert np.isfinite(model.bic_)


def test_duplicates_within_blobs():
    X, y = separated_blobs(3, 2, 0, n_samples=150)
    X, y = np.repeat(X, 4, axis=0), np.repeat(y, 4)
    model = XMeans(random_state=0).fit(X)
    assert model.n_clusters_ == 3
    assert adjusted_rand_score(y, model.labels_) == 1.0


def test_a_constant_column_only_refines_the_blobs():
    # The spherical model charges the constant column the variance of the other one, so
    # blobs may be cut further (see the module docstring), but never merged or crossed.
    X, y = separated_blobs(3, 1, 0)
    X = np.hstack([X, np.zeros_like(X)])
    model = XMeans(random_state=0).fit(X)
    assert 3 <= model.n_clusters_ <= 8
    assert all(len(np.unique(y[model.labels_ == cluster])) == 1
               for cluster in range(model.n_clusters_))


def test_single_outliers_do_not_crash():
    X, _ = separated_blobs(2, 1, 0, n_samples=200)
    X = np.vstack([X, [[500.0]], [[-500.0]]])
    model = XMeans(max_clusters=8, random_state=0).fit(X)
    assert 2 <= model.n_clusters_ <= 8
    assert np.isfinite(model.bic_)
    np.testing.assert_array_equal(model.predict(X), model.labels_)


def test_one_dimensional_array_is_one_feature():
    X, _ = separated_blobs(3, 1, 0)
    flat = XMeans(random_state=0).fit(X.ravel())
    column = XMeans(random_state=0).fit(X)
    assert flat.n_features_in_ == 1
    np.testing.assert_array_equal(flat.cluster_centers_, column.cluster_centers_)
    np.testing.assert_array_equal(flat.predict(X.ravel()), column.labels_)


# ----- validation -----

@pytest.mark.parametrize("params", [dict(min_clusters=0), dict(min_clusters=3, max_clusters=2),
                                    dict(n_init=0), dict(max_iter=0), dict(min_clusters=2.5)])
def test_invalid_parameters(params):
    with pytest.raises(ValueError):
        XMeans(**params).fit(np.arange(10.0))


def test_invalid_data():
    with pytest.raises(ValueError):
        XMeans().fit(np.empty((0, 2)))
    with pytest.raises(ValueError):
        XMeans().fit([[0.0], [np.nan]])
    model = XMeans(random_state=0).fit(np.random.RandomState(0).normal(size=(30, 2)))
    with pytest.raises(ValueError):
        model.predict(np.zeros((3, 3)))
    with pytest.raises(NotFittedError):
        XMeans().predict([[0.0]])


# ----- k-means: k-means++ seeding and Lloyd's iterations -----

def random_rows(seed, n_rows=300, n_features=2):
    return np.random.RandomState(seed).normal(size=(n_rows, n_features))


def assert_fixed_point(X, centers, labels):
    """Every row at its nearest centre, every centre the mean of its rows."""
    np.testing.assert_array_equal(labels, nearest_centre(X, centers))
    for cluster in np.unique(labels):
        np.testing.assert_allclose(centers[cluster], X[labels == cluster].mean(axis=0),
                                   rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n_features", [1, 2, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lloyd_without_tolerance_reaches_a_fixed_point(seed, n_features):
    X = random_rows(seed, n_features=n_features)
    init = X[np.random.RandomState(seed).choice(len(X), 4, replace=False)]
    centers, labels = lloyd(X, init, max_iter=1000, tol=0.0)
    assert_fixed_point(X, centers, labels)


def test_lloyd_stops_at_kmeans_tolerance():
    # KMeans' rule: stop once the centres' squared shift totals at most tol times the mean
    # column variance; the labels are then those of the returned centres
    X = random_rows(0)
    init = X[:3].copy()
    one_step = np.array([X[nearest_centre(X, init) == k].mean(axis=0) for k in range(3)])
    shift = ((one_step - init) ** 2).sum()
    tol = shift / X.var(axis=0).mean()
    centers, labels = lloyd(X, init, tol=tol * (1 + 1e-9))
    np.testing.assert_allclose(centers, one_step, rtol=1e-12)
    np.testing.assert_array_equal(labels, nearest_centre(X, centers))
    centers, _ = lloyd(X, init, tol=tol * (1 - 1e-9))       # goes on
    assert not np.allclose(centers, one_step)
    centers, _ = lloyd(X, init, max_iter=1, tol=0.0)         # max_iter counts the updates
    np.testing.assert_allclose(centers, one_step, rtol=1e-12)


def test_lloyd_keeps_a_centre_without_rows():
    X = np.array([[0.0], [1.0], [10.0], [11.0]])
    centers, labels = lloyd(X, [[0.0], [10.0], [100.0]])
    np.testing.assert_array_equal(centers, [[0.5], [10.5], [100.0]])
    np.testing.assert_array_equal(labels, [0, 0, 1, 1])


def test_kmeans_reaches_a_fixed_point_and_reports_its_error():
    X = random_rows(5, n_features=3)
    centers, labels, inertia = kmeans(X, 5, n_init=2, tol=0.0, random_state=0)
    assert_fixed_point(X, centers, labels)
    assert inertia == pytest.approx(((X - centers[labels]) ** 2).sum(), rel=1e-12)


def test_kmeans_plus_plus_seeds_are_distinct_rows():
    # k-means++ draws rows in proportion to their squared distance to the nearest seed so
    # far: never a row already covered (a duplicate of a seed), even with many duplicates
    X = np.repeat(random_rows(1, n_rows=8), 40, axis=0)
    for seed in range(20):
        seeds, _, _ = kmeans(X, 8, max_iter=0, random_state=seed)
        assert len(np.unique(seeds, axis=0)) == 8
        assert all((X == seed_row).all(axis=1).any() for seed_row in seeds)


@pytest.mark.parametrize("n_features", [1, 2, 5])
@pytest.mark.parametrize("true_clusters", [2, 3, 5])
def test_kmeans_error_is_scikit_learns_on_blobs(true_clusters, n_features):
    for seed in range(3):
        X, _ = separated_blobs(true_clusters, n_features, seed)
        for k in (max(true_clusters - 1, 1), true_clusters, true_clusters + 2):
            ours = kmeans(X, k, n_init=3, random_state=seed)[2]
            with threadpool_limits(limits=1, user_api="openmp"):
                theirs = KMeans(k, n_init=3, random_state=seed).fit(X).inertia_
            assert ours <= theirs * 1.01


def test_kmeans_with_a_seed_is_reproducible():
    X = random_rows(2)
    first = kmeans(X, 4, n_init=2, random_state=5)
    again = kmeans(X, 4, n_init=2, random_state=np.random.RandomState(5))
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


def test_kmeans_needs_as_many_rows_as_clusters():
    with pytest.raises(ValueError):
        kmeans(np.zeros((3, 2)), 4)
    centers, labels, inertia = kmeans(np.array([[1.0, 2.0]]), 1)
    np.testing.assert_array_equal(centers, [[1.0, 2.0]])
    assert inertia == 0.0


# ----- hostile inputs -----

def hostile_inputs():
    """Decision values as ODT-SVM clusters them (one column, or a few) and hostile sets:
    ties, duplicates, constant columns, outliers, tiny and huge scales, signed zeros."""
    rng = np.random.RandomState(0)
    for n in (2, 3, 4, 6, 9, 17, 40, 257):
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
        yield rng.normal(size=(n, 21))


@pytest.mark.parametrize("config", [dict(min_clusters=2, max_clusters=5, n_init=1),
                                    dict(min_clusters=3, max_clusters=6, n_init=2, max_iter=3),
                                    dict(min_clusters=1, max_clusters=4, n_init=1)])
def test_hostile_inputs_give_valid_models(config):
    for X in hostile_inputs():
        model = XMeans(random_state=0, **config).fit(X)
        n_distinct = len(np.unique(X, axis=0))
        assert min(config["min_clusters"], n_distinct) <= model.n_clusters_
        assert model.n_clusters_ <= min(config["max_clusters"], n_distinct)
        assert np.isfinite(model.cluster_centers_).all()
        assert len(np.unique(model.cluster_centers_, axis=0)) == model.n_clusters_
        np.testing.assert_array_equal(model.labels_, nearest_centre(X, model.cluster_centers_))
        assert not np.isnan(model.bic_)
