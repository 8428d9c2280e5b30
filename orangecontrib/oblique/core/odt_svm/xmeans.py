"""X-means clustering (Pelleg & Moore, "X-means: Extending K-means with Efficient Estimation
of the Number of Clusters", ICML 2000), on k-means of the project's own in numba.

ODT-SVM's "SVM clustering split" (odt-svm.txt, Sections II-C-2 and III-C) clusters a node's
rows by their signed distances to the SVM hyperplane(s) -- one coordinate per hyperplane, so
usually a handful of columns and in the two-class case a single one -- and lets X-means choose
the number of clusters, each cluster becoming one branch.  X-means therefore runs at many
nodes, on a few hundred or thousand rows each: a whole fit is one call of the kernel
:func:`_xmeans` (a call of scikit-learn's ``KMeans`` costs more in its checks than such a
clustering in arithmetic).

The model and its score (Pelleg & Moore, Section 3.2 "BIC scoring")
--------------------------------------------------------------------
A clustering of ``R`` points in ``M`` dimensions into ``K`` clusters with centres
``mu_1 .. mu_K`` and sizes ``R_1 .. R_K`` is read as a mixture of ``K`` spherical Gaussians
with one shared variance (the paper's "identical spherical Gaussian assumption"); ``(i)``
below is the cluster of point ``x_i``.  With ``SS = sum_i ||x_i - mu_(i)||^2``:

* pooled unbiased variance per coordinate::

      sigma^2 = SS / (M * (R - K))

* maximised log-likelihood (mixing weights ``R_n / R``)::

      l = sum_n R_n * log(R_n / R) - (R * M / 2) * log(2 * pi * sigma^2) - SS / (2 * sigma^2)
        = sum_n (R_n log R_n - R_n log R) - (R * M / 2) * log(2 * pi * sigma^2) - M * (R - K) / 2

* number of free parameters: ``K - 1`` mixing weights, ``M * K`` centre coordinates and one
  variance::

      p = (K - 1) + M * K + 1

* the Schwarz criterion (the paper's ``BIC(M_j) = l_j(D) - p_j / 2 * log R``, after Kass &
  Wasserman)::

      BIC = l - (p / 2) * log R

  larger is better.

For ``M = 1`` and ``K = 1`` -- the paper's parent model in a region -- ``l`` is exactly the
paper's region log-likelihood
``l(D_n) = -R_n/2 log(2 pi) - R_n M/2 log(sigma^2) - (R_n - K)/2 + R_n log R_n - R_n log R``.
In general the printed formula differs from the likelihood of its own model in two known ways,
which are corrected here: the paper's ``sigma^2 = SS / (R - K)`` is a total over the ``M``
coordinates, yet its density uses ``sigma^M`` as if it were per coordinate (so ``2 pi`` and
``sigma^2`` are raised to ``R M / 2`` here, and ``SS / (2 sigma^2)`` becomes ``M (R - K) / 2``);
and summing the per-region ``(R_n - K) / 2`` over the ``K`` regions gives ``(R - K^2) / 2``
instead of the ``(R - K) / 2`` of the derivation, so the residual term is counted once for
the whole model here.

The model is spherical: every coordinate is charged the same variance.  Coordinates on very
different scales -- or a constant one -- make it misspecified, and it then tends to cut
elongated clusters into more pieces; scale the columns first if that matters.

Two guards make the score defined on degenerate data: ``sigma^2`` is raised to
``min_variance`` (in :class:`XMeans`: ``1e-12`` times the mean per-coordinate variance of the
training data), so clusters of coincident points score high but finitely; and a model with
``R <= K`` has no variance estimate and scores ``-inf``.

The search (Pelleg & Moore, Section 3 and Figure 1)
---------------------------------------------------
1. Improve-Params: k-means with ``K = min_clusters`` (k-means++ seeding, ``n_init`` starts,
   the one of least squared error kept).
2. Improve-Structure: in the region of every centre (the points nearest to it) compare the
   BIC of the region as one cluster (its mean) with the BIC of the region split by 2-means;
   both scores are computed on the region's points alone (``R = R_n``).  The split is kept if
   the children's BIC is larger.  Regions with fewer than two distinct points are not split.
   If keeping every such split would exceed ``max_clusters``, only the splits with the
   largest BIC gain are kept.
3. Improve-Params: k-means started from all current centres.
4. Repeat 2-3 until no region splits or ``max_clusters`` centres are reached.
5. Of all models visited (after each Improve-Params) return the one with the largest BIC on
   the whole data; the first visited (that is, the smallest) wins ties.

The 2-means of step 2 starts from ``mu +- sqrt(2 lambda / pi) e``, where ``lambda`` and ``e``
are the largest eigenvalue and its eigenvector of the region's covariance (as in Hamerly &
Elkan's G-means), instead of the paper's random direction: in one dimension this is exactly
the two half-Gaussian means, and it needs one k-means run instead of random restarts.

k-means
-------
Seeding is greedy k-means++ (Arthur & Vassilvitskii 2007, Section 2.2): every further centre
is the best, by the resulting squared error, of ``2 + floor(ln K)`` rows drawn with
probability proportional to their squared distance to the nearest centre so far (the number
of trials scikit-learn's ``KMeans`` uses).  Lloyd's iterations then alternate the nearest
centre of every row (the first on ties) and the mean of every cluster (a cluster that loses
all its rows keeps its centre) until no row changes cluster or, as in ``KMeans``, the
squared shift of the centres totals at most ``tol`` times the mean variance of the data's
columns (``tol = 1e-4``, ``KMeans``' default); the rows are then labelled by the final
centres.  The random numbers are drawn in Python from the estimator's generator, so a seed
makes a fit reproducible.
"""
from numbers import Integral

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from ..parameters import SEED, DeclaredParameters, Derived, Interval, Parameter
from ..validation import check_memory

#: :class:`XMeans` floors the pooled variance at this fraction of the training data's mean
#: per-coordinate variance, so a model whose clusters are sets of coincident points (the
#: right model for duplicated values) gets a large finite BIC instead of ``log 0``.
RELATIVE_VARIANCE_FLOOR = 1e-12

#: Lloyd's iterations stop when the centres' squared shift totals at most this fraction of
#: the data's mean column variance (scikit-learn's ``KMeans`` default ``tol``).
KMEANS_TOLERANCE = 1e-4


def _as_2d(X):
    """Validate ``X`` as finite float64, C-contiguous; a 1-D array is one feature (a
    column)."""
    valid = (isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim in (1, 2)
             and X.size > 0 and np.isfinite(X).all())
    if not valid:      # the checks' own errors (X.size > 0 is also at least one feature)
        X = check_array(X, ensure_2d=False, dtype=np.float64, ensure_min_samples=1)
    if X.ndim == 1:
        X = X[:, np.newaxis]
    return np.ascontiguousarray(X)


def _n_trials(n_clusters):
    """Greedy k-means++'s candidates per centre: ``2 + floor(ln K)``."""
    return 2 + int(np.log(n_clusters))


def _n_draws(n_clusters, n_init):
    """Uniform numbers that ``n_init`` k-means++ seedings of ``n_clusters`` centres take."""
    return n_init * (1 + (n_clusters - 1) * _n_trials(n_clusters))


# ----- kernels -----

@njit(cache=True, nogil=True, inline="always")
def _copy_row(target, i, source, k):
    """``target[i] = source[k]`` as a loop (a row assignment compiles a shape check with
    its error message, seconds of compiling)."""
    for j in range(target.shape[1]):
        target[i, j] = source[k, j]


@njit(cache=True, nogil=True, inline="always")
def _squared_distance(X, i, centers, k):
    """``||X[i] - centers[k]||^2``."""
    total = 0.0
    for j in range(X.shape[1]):
        difference = X[i, j] - centers[k, j]
        total += difference * difference
    return total


@njit(cache=True, nogil=True)
def _nearest_centre(X, centers):
    """Index of the nearest centre of every row, the first one on ties.  Differences rather
    than the ``|x|^2 - 2 x.c + |c|^2`` expansion: exact for coincident points, so that ties
    are real ties."""
    labels = np.empty(X.shape[0], dtype=np.intp)
    for i in range(X.shape[0]):
        best, best_distance = 0, np.inf
        for k in range(centers.shape[0]):
            distance = _squared_distance(X, i, centers, k)
            if distance < best_distance:
                best, best_distance = k, distance
        labels[i] = best
    return labels


@njit(cache=True, nogil=True)
def _column_means(X):
    n_rows, n_dims = X.shape
    means = np.zeros(n_dims)
    for i in range(n_rows):
        for j in range(n_dims):
            means[j] += X[i, j]
    return means / n_rows


@njit(cache=True, nogil=True)
def _mean_variance(X):
    """``X.var(axis=0).mean()``: the mean variance of the columns."""
    n_rows, n_dims = X.shape
    means = _column_means(X)
    total = 0.0
    for i in range(n_rows):
        for j in range(n_dims):
            deviation = X[i, j] - means[j]
            total += deviation * deviation
    return total / (n_rows * n_dims)


@njit(cache=True, nogil=True)
def _lloyd(X, centers, max_iter, tolerance):
    """Lloyd's iterations from ``centers``: ``(centres, labels, squared error)``, the labels
    those of the returned centres.  Stops when no row changes cluster, when the centres'
    squared shift totals at most ``tolerance`` (absolute) or after ``max_iter`` updates of
    the centres; a centre that loses all its rows stays where it was."""
    n_rows, n_dims = X.shape
    n_clusters = centers.shape[0]
    centers = centers.copy()
    labels = _nearest_centre(X, centers)
    sums = np.empty((n_clusters, n_dims))
    counts = np.empty(n_clusters, dtype=np.intp)
    for _ in range(max_iter):
        sums[:] = 0.0
        counts[:] = 0
        for i in range(n_rows):
            counts[labels[i]] += 1
            for j in range(n_dims):
                sums[labels[i], j] += X[i, j]
        shift = 0.0
        for k in range(n_clusters):
            if counts[k] > 0:
                for j in range(n_dims):
                    mean = sums[k, j] / counts[k]
                    shift += (mean - centers[k, j]) ** 2
                    centers[k, j] = mean
        new_labels = _nearest_centre(X, centers)
        changed = False
        for i in range(n_rows):
            if new_labels[i] != labels[i]:
                changed = True
                break
        labels = new_labels
        if not changed or shift <= tolerance:
            break
    error = 0.0
    for i in range(n_rows):
        error += _squared_distance(X, i, centers, labels[i])
    return centers, labels, error


@njit(cache=True, nogil=True)
def _kmeans_plus_plus(X, n_clusters, draws, first):
    """Greedy k-means++ seeds (module docstring) from the uniform numbers ``draws[first:]``
    (``1 + (n_clusters - 1) * (2 + floor(ln n_clusters))`` of them)."""
    n_rows, n_dims = X.shape
    trials = 2 + int(np.log(n_clusters))
    centers = np.empty((n_clusters, n_dims))
    chosen = min(int(draws[first] * n_rows), n_rows - 1)
    _copy_row(centers, 0, X, chosen)
    closest = np.empty(n_rows)
    for i in range(n_rows):
        closest[i] = _squared_distance(X, i, centers, 0)
    trial_closest = np.empty(n_rows)
    best_closest = np.empty(n_rows)
    draw = first + 1
    for c in range(1, n_clusters):
        cumulative = np.cumsum(closest)
        potential = cumulative[n_rows - 1]
        best_error = np.inf
        for _ in range(trials):
            # a row of positive distance: the first whose cumulative sum exceeds the draw
            candidate = min(np.searchsorted(cumulative, draws[draw] * potential,
                                            side="right"), n_rows - 1)
            draw += 1
            _copy_row(centers, c, X, candidate)
            error = 0.0
            for i in range(n_rows):
                distance = min(closest[i], _squared_distance(X, i, centers, c))
                trial_closest[i] = distance
                error += distance
            if error < best_error:
                best_error, chosen = error, candidate
                trial_closest, best_closest = best_closest, trial_closest
        _copy_row(centers, c, X, chosen)
        closest, best_closest = best_closest, closest
    return centers


@njit(cache=True, nogil=True)
def _kmeans(X, n_clusters, n_init, max_iter, tolerance, draws):
    """k-means: ``n_init`` runs of k-means++ then Lloyd; ``(centres, labels, squared
    error)`` of the run of least squared error (the first on ties)."""
    per_start = draws.shape[0] // n_init
    # every start through one call site, so that the seeding compiles for one signature
    best_centers = np.empty((n_clusters, X.shape[1]))
    best_labels = np.empty(X.shape[0], dtype=np.intp)
    best_error = np.inf
    for start in range(n_init):
        centers, labels, error = _lloyd(
            X, _kmeans_plus_plus(X, n_clusters, draws, start * per_start), max_iter,
            tolerance)
        if start == 0 or error < best_error:
            best_centers, best_labels, best_error = centers, labels, error
    return best_centers, best_labels, best_error


@njit(cache=True, nogil=True)
def _bic(X, labels, centers, min_variance):
    """:func:`bic` (Section 3.2 of the paper; the module docstring)."""
    n_rows, n_dims = X.shape
    n_clusters = centers.shape[0]
    if n_rows <= n_clusters:
        return -np.inf
    sizes = np.zeros(n_clusters)
    ss = 0.0
    for i in range(n_rows):
        sizes[labels[i]] += 1.0
        ss += _squared_distance(X, i, centers, labels[i])
    variance = max(ss / (n_dims * (n_rows - n_clusters)), min_variance)
    if variance == 0.0:
        return np.inf
    mixing = 0.0
    for k in range(n_clusters):
        if sizes[k] > 0:
            mixing += sizes[k] * np.log(sizes[k] / n_rows)
    log_likelihood = (mixing - n_rows * n_dims / 2 * np.log(2 * np.pi * variance)
                      - ss / (2 * variance))
    n_parameters = (n_clusters - 1) + n_dims * n_clusters + 1
    return log_likelihood - n_parameters / 2 * np.log(n_rows)


@njit(cache=True, nogil=True)
def _split_region(region, min_variance, max_iter, tol):
    """Improve-Structure in one region: ``(BIC gain, two child centres)`` of 2-means started
    along the region's principal axis; the gain is ``-inf`` where the region cannot split
    (fewer than two rows, all rows coincide, or a child left empty)."""
    n_rows, n_dims = region.shape
    children = np.empty((2, n_dims))
    if n_rows < 2:
        return -np.inf, children
    mean = _column_means(region)
    covariance = np.zeros((n_dims, n_dims))
    for i in range(n_rows):
        for a in range(n_dims):
            deviation = region[i, a] - mean[a]
            for b in range(a + 1):
                covariance[a, b] += deviation * (region[i, b] - mean[b])
    for a in range(n_dims):
        for b in range(a + 1):
            covariance[a, b] /= n_rows
            covariance[b, a] = covariance[a, b]
    if n_dims == 1:
        largest = covariance[0, 0]
        direction = np.ones(1)
    else:
        values, vectors = np.linalg.eigh(covariance)
        largest = values[n_dims - 1]
        direction = vectors[:, n_dims - 1].copy()
    if not largest > 0.0:
        return -np.inf, children                   # all points coincide
    spread = np.sqrt(2.0 * largest / np.pi)
    for j in range(n_dims):
        children[0, j] = mean[j] - spread * direction[j]
        children[1, j] = mean[j] + spread * direction[j]
    tolerance = tol * np.trace(covariance) / n_dims  # KMeans' tolerance for this region
    children, labels, _ = _lloyd(region, children, max_iter, tolerance)
    n_first = 0
    for i in range(n_rows):
        n_first += labels[i] == 0
    if n_first == 0 or n_first == n_rows:
        return -np.inf, children
    whole = _bic(region, np.zeros(n_rows, dtype=np.intp), mean.reshape((1, n_dims)),
                 min_variance)
    return _bic(region, labels, children, min_variance) - whole, children


@njit(cache=True, nogil=True)
def _distinct_rows(X, limit):
    """The distinct rows of ``X`` in order of first appearance, at most ``limit + 1`` of
    them (more are not looked for)."""
    n_rows, n_dims = X.shape
    distinct = np.empty((limit + 1, n_dims))
    count = 0
    for i in range(n_rows):
        new = True
        for k in range(count):
            same = True
            for j in range(n_dims):
                if X[i, j] != distinct[k, j]:
                    same = False
                    break
            if same:
                new = False
                break
        if new:
            _copy_row(distinct, count, X, i)
            count += 1
            if count > limit:
                break
    return distinct[:count].copy()


@njit(cache=True, nogil=True)
def _rows_by_label(labels, sizes):
    """The rows ordered by their label, in ascending order within a label (a stable
    sort of ``labels``, by counting: ``sizes[k]`` rows have label ``k``)."""
    start = np.empty(sizes.shape[0], dtype=np.intp)
    total = 0
    for k in range(sizes.shape[0]):
        start[k] = total
        total += sizes[k]
    order = np.empty(labels.shape[0], dtype=np.intp)
    for i in range(labels.shape[0]):
        order[start[labels[i]]] = i
        start[labels[i]] += 1
    return order


@njit(cache=True, nogil=True)
def _descending_order(values):
    """The positions of ``values`` from the largest value to the smallest, equal values
    in ascending position and NaN last (a stable sort of ``-values``, as numpy's), by
    insertion: a region's few gains."""
    order = np.empty(values.shape[0], dtype=np.intp)
    for i in range(values.shape[0]):
        key = -values[i]
        position = i
        while position > 0:
            previous = -values[order[position - 1]]
            if key < previous or (previous != previous and key == key):
                order[position] = order[position - 1]
                position -= 1
            else:
                break
        order[position] = i
    return order


@njit(cache=True, nogil=True)
def _xmeans(X, min_clusters, max_clusters, n_init, max_iter, tol, draws):
    """The search of the module docstring: ``(centres, min_variance, distinct)``; if
    ``distinct``, the centres are the data's distinct rows (there are at most
    ``min_clusters`` of them), in order of first appearance."""
    n_rows, n_dims = X.shape
    mean_variance = _mean_variance(X)
    min_variance = RELATIVE_VARIANCE_FLOOR * mean_variance
    tolerance = tol * mean_variance
    distinct = _distinct_rows(X, max_clusters)
    if distinct.shape[0] <= min_clusters:
        # k-means cannot find more clusters than distinct rows, and with exactly
        # min_clusters of them this is its optimum
        return distinct, min_variance, True
    max_clusters = min(max_clusters, distinct.shape[0])
    if min_clusters == 1:
        centers = _column_means(X).reshape((1, n_dims))
        labels = np.zeros(n_rows, dtype=np.intp)
    else:
        centers, labels, _ = _kmeans(X, min_clusters, n_init, max_iter, tolerance, draws)
    best_centers, best_bic = centers, _bic(X, labels, centers, min_variance)
    while centers.shape[0] < max_clusters:
        # Improve-Structure: every region's 2-means split and its BIC gain
        n_clusters = centers.shape[0]
        sizes = np.zeros(n_clusters, dtype=np.intp)
        for i in range(n_rows):
            sizes[labels[i]] += 1
        order = _rows_by_label(labels, sizes)             # the rows region by region
        gains = np.empty(n_clusters)
        children = np.empty((n_clusters, 2, n_dims))
        start = 0
        for k in range(n_clusters):
            region = np.empty((sizes[k], n_dims))
            for r in range(sizes[k]):
                _copy_row(region, r, X, order[start + r])
            start += sizes[k]
            gains[k], pair = _split_region(region, min_variance, max_iter, tol)
            _copy_row(children[k], 0, pair, 0)
            _copy_row(children[k], 1, pair, 1)
        # the largest gains first, as many as max_clusters leaves room for
        kept = np.zeros(n_clusters, dtype=np.bool_)
        n_kept = 0
        for k in _descending_order(gains)[:max_clusters - n_clusters]:
            if gains[k] > 0.0:
                kept[k] = True
                n_kept += 1
        if n_kept == 0:
            break
        new_centers = np.empty((n_clusters + n_kept, n_dims))
        row = 0
        for k in range(n_clusters):
            if kept[k]:
                _copy_row(new_centers, row, children[k], 0)
                _copy_row(new_centers, row + 1, children[k], 1)
                row += 2
            else:
                _copy_row(new_centers, row, centers, k)
                row += 1
        # Improve-Params
        centers, labels, _ = _lloyd(X, new_centers, max_iter, tolerance)
        score = _bic(X, labels, centers, min_variance)
        if score > best_bic:
            best_centers, best_bic = centers, score
    return best_centers, min_variance, False


# ----- the public functions -----

def nearest_centre(X, centers):
    """Index of the nearest centre (Euclidean) of each row; the first one on ties.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    centers : ndarray of shape (n_clusters, n_features)

    Returns
    -------
    labels : ndarray of shape (n_samples,), dtype intp
    """
    return _nearest_centre(_as_2d(X), _as_2d(centers))


def bic(X, labels, centers, min_variance=0.0):
    """Pelleg & Moore's BIC of a hard clustering under the identical spherical Gaussian model.

    ``BIC = l - p / 2 * log R`` with ``sigma^2 = max(SS / (M (R - K)), min_variance)``,
    ``l = sum_n R_n log(R_n / R) - (R M / 2) log(2 pi sigma^2) - SS / (2 sigma^2)`` and
    ``p = (K - 1) + M K + 1``, where ``R, M = X.shape``, ``K = len(centers)``, ``R_n`` is
    the size of cluster ``n`` (``0 log 0 = 0``) and ``SS`` the sum of squared distances of
    the rows to their centres (X-means paper, Section 3.2; see the module docstring for the
    derivation and the two corrections to the printed formula).

    Parameters
    ----------
    X : ndarray of shape (R, M)
    labels : ndarray of shape (R,)
        Cluster of each row, in ``0 .. K - 1``.
    centers : ndarray of shape (K, M)
    min_variance : float, default=0.0
        Lower bound on ``sigma^2``.

    Returns
    -------
    float
        The score (larger is better); ``-inf`` if ``R <= K`` (no variance estimate) and
        ``+inf`` if the variance is zero and ``min_variance`` is 0.
    """
    X = _as_2d(X)
    centers = np.ascontiguousarray(centers, dtype=np.float64).reshape(-1, X.shape[1])
    return float(_bic(X, np.asarray(labels, dtype=np.intp), centers, float(min_variance)))


def lloyd(X, centers, max_iter=100, tol=KMEANS_TOLERANCE):
    """k-means by Lloyd's iterations from the given ``centers`` (module docstring): stops
    when no row changes cluster, when the centres' squared shift totals at most ``tol``
    times the mean variance of ``X``'s columns (``tol=0``: only the first) or after
    ``max_iter`` rounds.

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
    labels : ndarray of shape (n_samples,)
        The nearest of the returned centres of every row.
    """
    X = _as_2d(X)
    centers = np.array(centers, dtype=np.float64, order="C").reshape(-1, X.shape[1])
    centers, labels, _ = _lloyd(X, centers, max_iter, tol * _mean_variance(X))
    return centers, labels


def kmeans(X, n_clusters, n_init=1, max_iter=100, tol=KMEANS_TOLERANCE, random_state=None):
    """k-means with greedy k-means++ seeding and Lloyd's iterations (module docstring), the
    best of ``n_init`` starts; X-means' Improve-Params at ``min_clusters``.

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
    labels : ndarray of shape (n_samples,)
    inertia : float
        The squared error, the sum of the rows' squared distances to their centres.
    """
    X = _as_2d(X)
    if not 1 <= n_clusters <= len(X):
        raise ValueError(f"n_clusters must be in 1 .. {len(X)}, got {n_clusters!r}")
    draws = check_random_state(random_state).random_sample(_n_draws(n_clusters, n_init))
    centers, labels, inertia = _kmeans(X, n_clusters, n_init, max_iter,
                                       tol * _mean_variance(X), draws)
    return centers, labels, float(inertia)


#: ``max_clusters`` is at least ``min_clusters``.
MIN_CLUSTERS = Derived("min_clusters", lambda params: params["min_clusters"])


class XMeans(DeclaredParameters, ClusterMixin, BaseEstimator):
    """X-means: k-means that chooses the number of clusters by BIC (Pelleg & Moore 2000).

    See the module docstring for the model, the score and the search.

    Parameters
    ----------
    min_clusters
        Smallest number of clusters; the search starts here.  If the data have fewer
        distinct rows, the result has one cluster per distinct row (at least 1) instead.
    max_clusters
        Largest number of clusters; never exceeded (nor is the number of distinct rows:
        a count above the number of rows is taken as the number of rows).
    n_init
        k-means++ seedings of the first k-means run (at ``min_clusters``).  Later runs start
        from the current centres and are run once.  So many that their random numbers
        need more than the machine's memory is a ValueError at the start of the fit.
    max_iter
        Iteration limit of every k-means run.
    random_state
        Seeds k-means++: the fit draws its uniform numbers from it at once, so an int makes
        the result reproducible.

    Attributes
    ----------
    cluster_centers_ : ndarray of shape ``(n_clusters_, n_features_in_)``
    labels_ : ndarray of shape (n_samples,)
        Index of the nearest centre of each training row (as :meth:`predict` gives it).
    n_clusters_ : int
    bic_ : float
        :func:`bic` of the returned model on the training data (``+inf`` for constant data,
        whose variance is 0, and ``-inf`` for a single row).
    n_features_in_ : int

    Notes
    -----
    A 1-D ``X`` is read as a single feature, as is usual for ODT-SVM's two-class case
    (signed distances to one hyperplane).
    """

    _parameter_constraints = {
        "min_clusters": Parameter(2, Interval(Integral, 1, None)),
        "max_clusters": Parameter(8, Interval(Integral, MIN_CLUSTERS, None)),
        "n_init": Parameter(3, Interval(Integral, 1, None)),
        "max_iter": Parameter(100, Interval(Integral, 1, None)),
        "random_state": SEED,
    }

    def fit(self, X, y=None):
        """Cluster ``X``, choosing the number of clusters in ``[min_clusters, max_clusters]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples,), finite numbers
        y : ignored

        Returns
        -------
        self
        """
        X = _as_2d(X)
        centers, min_variance = self._cluster(X)
        self.n_features_in_ = X.shape[1]
        self.cluster_centers_ = centers
        self.n_clusters_ = len(centers)
        self.labels_ = _nearest_centre(X, centers)
        self.bic_ = float(_bic(X, self.labels_, centers, min_variance))
        return self

    def fit_centres(self, X):
        """The centres :meth:`fit` finds (``cluster_centers_``), returned without fitting
        the estimator: the labels and the BIC of the model are not computed (ODT-SVM's
        clustering split needs only the centres).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples,), finite numbers

        Returns
        -------
        centres : ndarray of shape (n_clusters, n_features)
        """
        return self._cluster(_as_2d(X))[0]

    def _cluster(self, X):
        """``(centres, min_variance)`` of :meth:`fit` for a validated 2-D ``X``."""
        self._validate_params()
        # no more clusters than rows: a larger count is the number of rows (the distinct
        # rows are the clusters then), not an array of that size
        min_clusters = min(self.min_clusters, X.shape[0])
        max_clusters = min(self.max_clusters, X.shape[0])
        if min_clusters > 1:
            n_draws = _n_draws(min_clusters, self.n_init)
            check_memory("n_init", self.n_init, 8 * n_draws,
                         f"{n_draws:,} random numbers for its k-means++ seedings")
            draws = check_random_state(self.random_state).random_sample(n_draws)
        else:
            draws = np.empty(0)      # Improve-Params starts from the mean
        centers, min_variance, distinct = _xmeans(X, min_clusters, max_clusters,
                                                  self.n_init, self.max_iter,
                                                  KMEANS_TOLERANCE, draws)
        if distinct:
            centers = np.unique(centers, axis=0)      # one cluster per distinct row, sorted
        return centers, min_variance

    def predict(self, X):
        """Index of the nearest centre (Euclidean) of each row; the first one on ties.

        Parameters
        ----------
        X : array-like of shape ``(n_samples, n_features_in_)`` or (n_samples,) if
            ``n_features_in_`` is 1

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "cluster_centers_")
        X = _as_2d(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but XMeans was fitted with "
                             f"{self.n_features_in_}")
        return _nearest_centre(X, self.cluster_centers_)
