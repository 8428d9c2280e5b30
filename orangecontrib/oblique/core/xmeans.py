"""X-means clustering (Pelleg & Moore, "X-means: Extending K-means with Efficient Estimation
of the Number of Clusters", ICML 2000), built on the k-means routines of scikit-learn's
:class:`~sklearn.cluster.KMeans`.

ODT-SVM's "SVM clustering split" (odt-svm.txt, Sections II-C-2 and III-C) clusters a node's
rows by their signed distances to the SVM hyperplane(s) -- one coordinate per hyperplane, so
usually a handful of columns and in the two-class case a single one -- and lets X-means choose
the number of clusters, each cluster becoming one branch.  X-means therefore runs at many
nodes; it is written to need few k-means runs: one k-means++ start (``n_init`` seedings) at
``min_clusters`` and afterwards only k-means runs started from given centres.

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
1. Improve-Params: k-means with ``K = min_clusters`` (k-means++ seeding, ``n_init`` starts).
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
"""
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster._k_means_common import _is_same_clustering
from sklearn.cluster._kmeans import _kmeans_single_lloyd, _tolerance
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from .kernels import AVAILABLE as COMPILED
from .kernels import njit
from .pass_kernels import PAIRWISE_BLOCK, block_sum, pairwise_sum
from .validation import store_parameters

#: :class:`XMeans` floors the pooled variance at this fraction of the training data's mean
#: per-coordinate variance, so a model whose clusters are sets of coincident points (the
#: right model for duplicated values) gets a large finite BIC instead of ``log 0``.
RELATIVE_VARIANCE_FLOOR = 1e-12


def _as_2d(X):
    """Validate ``X`` as finite float64; a 1-D array is one feature (a column)."""
    valid = (isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim in (1, 2)
             and X.size > 0 and np.isfinite(X).all())
    if not valid:      # the checks' own errors (X.size > 0 is also at least one feature)
        X = check_array(X, ensure_2d=False, dtype=np.float64, ensure_min_samples=1)
    if X.ndim == 1:
        X = X[:, np.newaxis]
    return X


def distinct_rows(X, limit):
    """``np.unique(X, axis=0)``, the distinct rows of ``X``, or None if its first column
    alone has more than ``limit`` distinct values (so ``X`` more than ``limit`` distinct
    rows): the sort of the rows costs several times that of one column."""
    if len(np.unique(X[:, 0])) > limit:
        return None
    return np.unique(X, axis=0)


def nearest_centre(X, centers, compiled=COMPILED):
    """Index of the nearest centre (Euclidean) of each row; the first one on ties.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    centers : ndarray of shape (n_clusters, n_features)
    compiled : bool
        Use the numba kernel (the same labels, bit for bit); default when numba is there.

    Returns
    -------
    labels : ndarray of shape (n_samples,), dtype intp
    """
    if compiled and X.shape[1] <= PAIRWISE_BLOCK:
        return _nearest_centre(X, centers, np.empty(X.shape[1]))
    # Differences rather than the |x|^2 - 2xc + |c|^2 expansion: exact for coincident points,
    # so that ties are real ties and argmin's "first one" rule decides them.
    distances = ((X[:, np.newaxis, :] - centers[np.newaxis, :, :]) ** 2).sum(axis=2)
    return np.argmin(distances, axis=1).astype(np.intp)


# ----- compiled kernels: numpy's arithmetic above, in numpy's order -----
# (its sums: pass_kernels.block_sum and pass_kernels.pairwise_sum, numpy's pairwise summation)
@njit(cache=True, nogil=True)
def _nearest_centre(X, centers, squares):
    """:func:`nearest_centre`'s labels; ``squares`` a buffer of ``X.shape[1]`` numbers,
    at most :data:`PAIRWISE_BLOCK`."""
    n_rows, n_dims = X.shape
    labels = np.empty(n_rows, dtype=np.intp)
    for i in range(n_rows):
        best, best_distance = 0, np.inf
        for k in range(centers.shape[0]):
            for j in range(n_dims):
                difference = X[i, j] - centers[k, j]
                squares[j] = difference * difference
            distance = block_sum(squares, 0, n_dims)
            if distance < best_distance:
                best, best_distance = k, distance
        labels[i] = best
    return labels


@njit(cache=True, nogil=True)
def _lloyd(X, centers, max_iter):
    """:func:`lloyd` compiled: ``(centers, labels)``, the labels those of the centres."""
    n_rows, n_dims = X.shape
    centers = centers.copy()
    squares = np.empty(n_dims)
    labels = np.full(n_rows, -1, dtype=np.intp)
    for _ in range(max_iter):
        new_labels = _nearest_centre(X, centers, squares)
        if np.array_equal(new_labels, labels):
            return centers, labels
        labels = new_labels
        counts = np.zeros(centers.shape[0], dtype=np.intp)
        sums = np.zeros(centers.shape)
        for i in range(n_rows):         # np.bincount's order: row by row
            counts[labels[i]] += 1
            for j in range(n_dims):
                sums[labels[i], j] += X[i, j]
        for k in range(centers.shape[0]):
            if counts[k] > 0:
                for j in range(n_dims):
                    centers[k, j] = sums[k, j] / counts[k]
    return centers, _nearest_centre(X, centers, squares)


@njit(cache=True, nogil=True)
def _squared_error(X, labels, centers):
    """``((X - centers[labels]) ** 2).sum()`` added in numpy's order."""
    n_rows, n_dims = X.shape
    squares = np.empty(n_rows * n_dims)
    for i in range(n_rows):
        for j in range(n_dims):
            difference = X[i, j] - centers[labels[i], j]
            squares[i * n_dims + j] = difference * difference
    return pairwise_sum(squares, 0, n_rows * n_dims)


def bic(X, labels, centers, min_variance=0.0, compiled=COMPILED):
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
    compiled : bool
        Add ``SS`` by a numba kernel (the same number, bit for bit).

    Returns
    -------
    float
        The score (larger is better); ``-inf`` if ``R <= K`` (no variance estimate) and
        ``+inf`` if the variance is zero and ``min_variance`` is 0.
    """
    n_rows, n_dims = X.shape
    n_clusters = len(centers)
    if n_rows <= n_clusters:
        return -np.inf
    sizes = np.bincount(labels, minlength=n_clusters)
    sizes = sizes[sizes > 0]
    ss = (_squared_error(X, labels, centers) if compiled
          else float(((X - centers[labels]) ** 2).sum()))
    variance = max(ss / (n_dims * (n_rows - n_clusters)), min_variance)
    if variance == 0.0:
        return np.inf
    log_likelihood = (float(np.sum(sizes * np.log(sizes / n_rows)))
                      - n_rows * n_dims / 2 * np.log(2 * np.pi * variance)
                      - ss / (2 * variance))
    n_parameters = (n_clusters - 1) + n_dims * n_clusters + 1
    return log_likelihood - n_parameters / 2 * np.log(n_rows)


#: scikit-learn's ``KMeans`` default ``tol`` (a fraction of the data's mean variance).
KMEANS_TOLERANCE = 1e-4

#: Rows per ``dgemm`` call in scikit-learn's Lloyd routine (``_k_means_common.CHUNK_SIZE``).
LLOYD_CHUNK = 256

#: scikit-learn's Lloyd routine without its decorator (``threadpool_limits`` per call).
_kmeans_single_lloyd_unlimited = getattr(_kmeans_single_lloyd, "__wrapped__",
                                         _kmeans_single_lloyd)


def squared_row_norms(X):
    """scikit-learn's ``row_norms(X, squared=True)`` of a numpy array, without its array-API
    dispatch: the same ``np.einsum``."""
    return np.einsum("ij,ij->i", X, X)


def kmeans_plus_plus_seeds(X, n_clusters, squared_norms, random_state):
    """k-means++ seeding with ``2 + ⌊ln k⌋`` greedy trials per centre (Arthur &
    Vassilvitskii 2007), step by step as scikit-learn's ``KMeans`` seeds rows of equal
    weight -- the same draws from ``random_state`` and the same numpy operations, so the
    same centres -- without its checks and array-API dispatch (half its cost on a node's
    rows).  ``squared_norms``: the rows' squared norms (``row_norms(X, squared=True)``,
    which is :func:`squared_row_norms`)."""
    n_rows = len(X)
    weights = np.ones(n_rows)
    trials = 2 + int(np.log(n_clusters))

    def squared_distances(centres):
        distances = -2 * (centres @ X.T)
        distances += squared_row_norms(centres)[:, np.newaxis]
        distances += squared_norms[np.newaxis, :]
        return np.maximum(distances, 0, out=distances)

    centres = np.empty((n_clusters, X.shape[1]))
    centres[0] = X[random_state.choice(n_rows, p=weights / weights.sum())]
    closest = squared_distances(centres[0:1])
    potential = closest @ weights
    for c in range(1, n_clusters):
        draws = random_state.uniform(size=trials) * potential
        candidates = np.searchsorted(np.cumsum(weights * closest), draws)
        np.clip(candidates, None, closest.size - 1, out=candidates)
        to_candidates = squared_distances(X[candidates])
        np.minimum(closest, to_candidates, out=to_candidates)
        potentials = to_candidates @ weights.reshape(-1, 1)
        best = np.argmin(potentials)
        potential, closest = potentials[best], to_candidates[best]
        centres[c] = X[candidates[best]]
    return centres


def kmeans_plus_plus(X, n_clusters, n_init, max_iter, random_state):
    """The centres of ``KMeans(n_clusters, n_init=n_init, max_iter=max_iter,
    random_state=random_state).fit(X)`` run on one thread, bit for bit: k-means++ seeding
    (:func:`kmeans_plus_plus_seeds`) and Lloyd's iterations by scikit-learn's own routine,
    in the order ``KMeans.fit`` calls them (centred data, the best of ``n_init`` runs by
    inertia).  One thread: on a
    few thousand rows OpenMP's start-up and, on a busy machine, its waiting for cores cost
    more than it saves (ten times as much when measured).

    ``X`` is a finite float64 array of at least ``n_clusters`` rows.  Calling the routines
    directly leaves out the estimator's checks of its parameters and data, which cost more
    than the clustering itself on a node's few hundred distances (about 0.6 ms a call)."""
    mean = X.mean(axis=0)
    X = X - mean        # KMeans centres the data, for more accurate distances
    squared_norms = squared_row_norms(X)
    sample_weight = np.ones(len(X))
    tolerance = _tolerance(X, KMEANS_TOLERANCE)
    best = None
    # Without scikit-learn's wrapper limiting BLAS to one thread around every call (a tenth
    # of a millisecond a call) where its distances' products are too small for OpenBLAS to
    # use threads anyway (it uses them from 262,144 multiply-adds a call, in chunks of 256
    # rows; and threads would split the rows, not any row's sum)
    lloyd_routine = (_kmeans_single_lloyd_unlimited
                     if min(len(X), LLOYD_CHUNK) * n_clusters * X.shape[1] < 65536
                     else _kmeans_single_lloyd)
    for _ in range(n_init):
        init = kmeans_plus_plus_seeds(X, n_clusters, squared_norms, random_state)
        labels, inertia, centers, _ = lloyd_routine(
            X, sample_weight, init, max_iter=max_iter, tol=tolerance, n_threads=1)
        if best is None or (inertia < best[0]
                            and not _is_same_clustering(labels, best[1], n_clusters)):
            best = inertia, labels, centers
    return best[2] + mean


def lloyd(X, centers, max_iter=100, compiled=COMPILED):
    """k-means (Lloyd's iterations) from the given ``centers`` until no row changes cluster
    or ``max_iter`` rounds; a centre that loses all its rows stays where it was.  Returns
    the centres and the rows' labels by them (:func:`nearest_centre`).

    The seeded runs of X-means (Improve-Params and the 2-means of each region) start from
    known centres, and on a few thousand rows with k ≤ 8 plain numpy is several times
    cheaper than a call of scikit-learn's KMeans; compiled (``compiled``, the default when
    numba is there: bit for bit the same centres), some ten times cheaper again.
    """
    centers = np.array(centers, dtype=float)
    if compiled and X.shape[1] <= PAIRWISE_BLOCK:
        return _lloyd(X, centers, max_iter)
    labels = None
    for _ in range(max_iter):
        new_labels = nearest_centre(X, centers, compiled=False)
        if labels is not None and np.array_equal(new_labels, labels):
            return centers, labels
        labels = new_labels
        counts = np.bincount(labels, minlength=len(centers))
        sums = np.column_stack([np.bincount(labels, X[:, j], minlength=len(centers))
                                for j in range(X.shape[1])])
        filled = counts > 0
        centers[filled] = sums[filled] / counts[filled, None]
    return centers, nearest_centre(X, centers, compiled=False)


# ----- the compiled search (issue 16): a whole fit in numba kernels, numpy's numbers -----
# At a node of a few hundred rows X-means' arithmetic takes microseconds, and its Python and
# numpy calls (some 60 per fit: k-means++, scikit-learn's Lloyd routine and its thread-pool
# wrapper, a region's mean, covariance and eigenvectors, a BIC per candidate) about a
# millisecond.  The kernels below make the same fit in one or two calls, with the numpy
# code's numbers, bit for bit:
#
# * every sum is added in numpy's order: a column (or a run) pairwise (:func:`pairwise_sum`),
#   several columns row after row, the identity 0 first;
# * the matrix products are the BLAS and LAPACK routines the numpy code ends in, called
#   through scipy (as scikit-learn's own k-means calls ``dgemm``): ``ddot`` for a column's
#   sum of squares and a potential, ``dgemv`` for k-means++'s potentials, ``dsyrk`` and
#   ``dsyevd`` for a region's covariance and its eigenvectors, ``dgemm`` for Lloyd's
#   distances.  numpy calls its own build of OpenBLAS; :func:`blas_is_numpys` checks once
#   per process that scipy's gives numpy's numbers (it does with the same OpenBLAS, whose
#   threads -- used by ``ddot`` beyond 10,000 rows -- both libraries set alike: by default,
#   and threadpoolctl limits both), else the numpy code runs;
# * scikit-learn's Lloyd routine (``_kmeans_single_lloyd``: distances ``|c|^2 - 2 x.c`` by
#   ``dgemm`` in chunks of 256 rows, centres as running sums times ``1 / n``, the shift
#   test) is followed step by step.  In two or more columns it takes the centres' squared
#   norms from ``np.einsum``, whose order of additions depends on the CPU's vector width
#   (the rows' norms are numpy's, computed once): the kernel adds them in order, and takes
#   a row's label (and the shift test, and which start is best) only if it is the same
#   for any norm within the possible difference;
# * the random numbers are drawn in Python, from the same generator in the same order:
#   k-means++ draws one number for its first centre (``RandomState.choice`` with weights)
#   and ``2 + int(ln k)`` for each further one; the kernel turns them into rows as numpy
#   does (``cumsum``, ``searchsorted``);
# * the logarithms of the BIC are numba's, which differ from numpy's in the last bit now
#   and then.  A kernel's BIC therefore comes with a bound on its distance from numpy's
#   (:data:`BIC_TOLERANCE` times the size of its terms, thousands of times the largest
#   possible difference), and every decision the search takes on BICs -- a region split or
#   not, which splits are kept, a better model or not -- is taken only if it is the same
#   for every BIC within the bounds.  If one is not (a near tie; also for a Lloyd label
#   above), or a cluster empties in scikit-learn's Lloyd routine (which then moves a
#   centre by ``np.argpartition``), or LAPACK fails, the numpy code takes over (k-means++
#   again, with the same random numbers, or the search from its first centres).  ``bic_``
#   itself is :func:`bic`'s.
#
# Without numba, with ``OBLIQUE_NO_NUMBA=1``, with more than :data:`PAIRWISE_BLOCK`
# columns, values beyond :data:`LARGEST_COMPILED` or with :data:`SEARCH_COMPILED` False,
# the numpy code runs.

#: Use the compiled search when it applies (tests set it False for the numpy code).
SEARCH_COMPILED = COMPILED

#: Relative bound on the difference between a kernel's BIC and numpy's (per unit of the
#: sum of the magnitudes of the BIC's terms).  Only the logarithms differ, by a few units
#: in the last place (~1e-15): the bound is thousands of times larger.
BIC_TOLERANCE = 1e-11

#: The compiled search takes values of at most this size, whose squares and sums of squares
#: cannot overflow (numpy's order of comparisons with infinities is not followed).
LARGEST_COMPILED = 1e100

#: Outcomes of :func:`_xmeans_search` and :func:`_best_of_starts`.
DONE, UNSURE = 0, 1

if COMPILED:  # pragma: no cover - without numba nothing below is called
    import llvmlite.binding as _llvm
    from numba import types as _types
    from numba.extending import get_cython_function_address as _cython_function

    from .gdt_kernels import gram

    # external symbols (not ctypes pointers), so that the kernels can be cached
    for _routine, _library in (("ddot", "blas"), ("dgemv", "blas"), ("dgemm", "blas"),
                               ("dsyevd", "lapack")):
        _llvm.add_symbol(f"oblique_xmeans_{_routine}",
                         _cython_function(f"scipy.linalg.cython_{_library}", _routine))
    _POINTERS = [_types.voidptr] * 13
    _ddot = _types.ExternalFunction("oblique_xmeans_ddot", _types.float64(*_POINTERS[:5]))
    _dgemv = _types.ExternalFunction("oblique_xmeans_dgemv", _types.void(*_POINTERS[:11]))
    _dgemm = _types.ExternalFunction("oblique_xmeans_dgemm", _types.void(*_POINTERS))
    _dsyevd = _types.ExternalFunction("oblique_xmeans_dsyevd", _types.void(*_POINTERS[:11]))
else:  # pragma: no cover
    _ddot = _dgemv = _dgemm = _dsyevd = gram = None

# BLAS's character arguments: scikit-learn passes its lower-case 'n' and 't'
_CHARACTERS = np.array([ord("T"), ord("t"), ord("n"), ord("V"), ord("L")], dtype=np.uint8)


@njit(cache=True, nogil=True)
def _numpy_sum(values):
    """``values.sum()`` of a 1-D run as numpy adds it: the identity 0, then pairwise."""
    return 0.0 + pairwise_sum(values, 0, values.shape[0])


@njit(cache=True, nogil=True)
def _column_means(X):
    """``X.mean(axis=0)`` of a C-contiguous ``X`` as numpy computes it: one column added
    pairwise, several row after row (numpy's reduction iterates over the rows then)."""
    n_rows, n_dims = X.shape
    sums = np.zeros(n_dims)
    if n_dims == 1:
        sums[0] = _numpy_sum(X.reshape(n_rows))
    else:
        for i in range(n_rows):
            for j in range(n_dims):
                sums[j] += X[i, j]
    return sums / n_rows


@njit(cache=True, nogil=True)
def _mean_variance(X):
    """``np.mean(X.var(axis=0))``: numpy's ``_var`` (the mean, squared deviations, their
    mean) per column, then the mean of the variances."""
    return _mean_square(X - _column_means(X))


@njit(cache=True, nogil=True)
def _mean_square(deviations):
    """:func:`_mean_variance` from the deviations from the column means."""
    n_dims = deviations.shape[1]
    return _numpy_sum(_column_means(deviations * deviations)) / n_dims


@njit(cache=True, nogil=True)
def _prepare(X, limit):
    """``(n, distinct, min_variance_base, largest, mean, centred)``: the number of distinct
    values in the first column, counted up to ``limit + 1`` (more are not needed: then the
    rows have more than ``limit`` distinct values too), if at most ``limit`` those values
    in ascending order as a column (``np.unique(X, axis=0)`` of a one-column ``X``; empty
    if one of them is zero, which could be 0.0 or -0.0 there), ``np.mean(X.var(axis=0))``,
    the largest magnitude, ``X.mean(axis=0)`` and ``X - X.mean(axis=0)``."""
    n_rows = X.shape[0]
    seen = np.empty(limit + 1)
    count = 0
    for i in range(n_rows):
        value = X[i, 0]
        new = True
        for j in range(count):
            if seen[j] == value:
                new = False
                break
        if new:
            seen[count] = value
            count += 1
            if count > limit:
                break
    distinct = np.empty((count, 1))
    for j in range(count):                           # np.sort of a few values
        value, k = seen[j], j
        while k > 0 and distinct[k - 1, 0] > value:
            distinct[k, 0] = distinct[k - 1, 0]
            k -= 1
        distinct[k, 0] = value
    for j in range(count):
        if distinct[j, 0] == 0.0:
            distinct = distinct[:0]
            break
    largest = 0.0
    for i in range(n_rows):
        for j in range(X.shape[1]):
            largest = max(largest, abs(X[i, j]))
    mean = _column_means(X)
    centred = X - mean
    return count, distinct, _mean_square(centred), largest, mean, centred


@njit(cache=True, nogil=True)
def _blas_dot(x, y):
    """``x @ y`` of two contiguous vectors as numpy computes it: ``0 + ddot``."""
    size = np.array([x.shape[0]], dtype=np.int32)
    one = np.array([1], dtype=np.int32)
    return 0.0 + _ddot(size.ctypes, x.ctypes, one.ctypes, y.ctypes, one.ctypes)


@njit(cache=True, nogil=True)
def _blas_row_sums(A, x):
    """``A @ x.reshape(-1, 1)`` (as a vector) of a C-contiguous ``A`` as numpy computes it:
    ``dgemv`` of the column-major transpose (``ddot`` for one row)."""
    n_out, n_in = A.shape
    out = np.empty(n_out)
    if n_out == 1:
        out[0] = _blas_dot(A[0], x)
        return out
    sizes = np.array([n_in, n_out, 1], dtype=np.int32)
    scalars = np.array([1.0, 0.0])
    _dgemv(_CHARACTERS[:1].ctypes, sizes[:1].ctypes, sizes[1:2].ctypes, scalars[:1].ctypes,
           A.ctypes, sizes[:1].ctypes, x.ctypes, sizes[2:].ctypes, scalars[1:].ctypes,
           out.ctypes, sizes[2:].ctypes)
    return out


@njit(cache=True, nogil=True)
def _blas_cross_products(A, B, out):
    """``A @ B.T`` of C-contiguous ``A`` and ``B`` (two or more rows and columns each) into
    ``out`` as numpy computes it: numpy's ``cblas_dgemm(RowMajor, NoTrans, Trans, ...)``,
    which is ``dgemm('T', 'N', ...)`` of the column-major layouts."""
    sizes = np.array([B.shape[0], A.shape[0], A.shape[1]], dtype=np.int32)
    scalars = np.array([1.0, 0.0])
    _dgemm(_CHARACTERS[:1].ctypes, _CHARACTERS[2:3].ctypes, sizes[:1].ctypes,
           sizes[1:2].ctypes, sizes[2:].ctypes, scalars[:1].ctypes, B.ctypes,
           sizes[2:].ctypes, A.ctypes, sizes[2:].ctypes, scalars[1:].ctypes, out.ctypes,
           sizes[:1].ctypes)


@njit(cache=True, nogil=True)
def _numpy_eigh(matrix):
    """``np.linalg.eigh(matrix)`` of a symmetric matrix: LAPACK's ``dsyevd`` ('V', 'L') on
    the matrix laid out as numpy lays it out, with the workspace LAPACK asks for.  Returns
    the eigenvalues (ascending), the eigenvector of the largest one and LAPACK's ``info``."""
    n = matrix.shape[0]
    a = np.ascontiguousarray(matrix.T)   # column-major: numpy's linearised copy
    values = np.empty(n)
    sizes = np.array([n, -1, -1], dtype=np.int32)     # n, lwork, liwork
    info = np.zeros(1, dtype=np.int32)
    work_query = np.empty(1)
    iwork_query = np.empty(1, dtype=np.int32)
    _dsyevd(_CHARACTERS[3:4].ctypes, _CHARACTERS[4:5].ctypes, sizes[:1].ctypes, a.ctypes,
            sizes[:1].ctypes, values.ctypes, work_query.ctypes, sizes[1:2].ctypes,
            iwork_query.ctypes, sizes[2:].ctypes, info.ctypes)
    if info[0] != 0:
        return values, values, info[0]
    sizes[1] = np.int32(int(work_query[0]))
    sizes[2] = iwork_query[0]
    work = np.empty(sizes[1])
    iwork = np.empty(sizes[2], dtype=np.int32)
    _dsyevd(_CHARACTERS[3:4].ctypes, _CHARACTERS[4:5].ctypes, sizes[:1].ctypes, a.ctypes,
            sizes[:1].ctypes, values.ctypes, work.ctypes, sizes[1:2].ctypes,
            iwork.ctypes, sizes[2:].ctypes, info.ctypes)
    return values, a[n - 1].copy(), info[0]   # a's row n - 1: the last column-major column


@njit(cache=True, nogil=True)
def _search_right(values, key):
    """``np.searchsorted(values, key, side="right")`` of a non-decreasing ``values``."""
    low, high = 0, values.shape[0]
    while low < high:
        middle = low + ((high - low) >> 1)
        if key < values[middle]:
            high = middle
        else:
            low = middle + 1
    return low


@njit(cache=True, nogil=True)
def _search_left(values, key):
    """``np.searchsorted(values, key)`` (side "left") of a non-decreasing ``values``."""
    low, high = 0, values.shape[0]
    while low < high:
        middle = low + ((high - low) >> 1)
        if values[middle] < key:
            low = middle + 1
        else:
            high = middle
    return low


@njit(cache=True, nogil=True)
def _squared_distances_one_column(x, centre, closest, out):
    """One row of ``kmeans_plus_plus_seeds``' ``squared_distances`` for one column:
    ``max(-2 (0 + c x) + c^2 + x^2, 0)`` (numpy multiplies a 1-column product without BLAS,
    starting from 0), then ``np.minimum(closest, ...)`` unless ``closest`` is empty."""
    square = centre * centre
    for i in range(x.shape[0]):
        distance = (-2.0 * (0.0 + centre * x[i]) + square) + x[i] * x[i]
        if not distance > 0.0:
            distance = 0.0
        if closest.shape[0] > 0 and closest[i] <= distance:
            distance = closest[i]
        out[i] = distance


@njit(cache=True, nogil=True)
def _first_seed(n_rows, draw, cumulative):
    """k-means++'s first centre, ``RandomState.choice(n_rows, p=weights / weights.sum())``
    for rows of weight 1 with the random number ``draw``: the probabilities' running sums
    (into ``cumulative``), normalised by the last, searched as numpy does."""
    share = 1.0 / n_rows                     # weights / weights.sum()
    total = share
    cumulative[0] = total
    for i in range(1, n_rows):
        total += share
        cumulative[i] = total
    last = cumulative[n_rows - 1]
    for i in range(n_rows):
        cumulative[i] /= last
    return _search_right(cumulative, draw)


@njit(cache=True, nogil=True)
def _running_sums(values, out):
    """``np.cumsum(values)`` into ``out``: added one after the other, as numpy does."""
    total = values[0]
    out[0] = total
    for i in range(1, values.shape[0]):
        total += values[i]
        out[i] = total


@njit(cache=True, nogil=True)
def _seeds_one_column(x, n_clusters, trials, draws, first):
    """:func:`kmeans_plus_plus_seeds` of the centred column ``x`` (rows of weight 1), the
    random numbers ``draws[first:]`` standing for the generator's: one for
    ``RandomState.choice(n, p=1/n)``, ``trials`` for each ``uniform(size=trials)``."""
    n_rows = x.shape[0]
    centres = np.empty((n_clusters, 1))
    cumulative = np.empty(n_rows)
    index = _first_seed(n_rows, draws[first], cumulative)
    centres[0, 0] = x[index]
    closest = np.empty(n_rows)
    _squared_distances_one_column(x, x[index], closest[:0], closest)
    ones = np.ones(n_rows)
    potential = _blas_dot(closest, ones)
    candidates = np.empty(trials, dtype=np.intp)
    to_candidates = np.empty((trials, n_rows))
    for c in range(1, n_clusters):
        _running_sums(closest, cumulative)
        for t in range(trials):
            draw = draws[first + 1 + (c - 1) * trials + t] * potential
            candidates[t] = min(_search_left(cumulative, draw), n_rows - 1)
            _squared_distances_one_column(x, x[candidates[t]], closest, to_candidates[t])
        potentials = _blas_row_sums(to_candidates, ones)
        best = np.argmin(potentials)
        potential = potentials[best]
        closest[:] = to_candidates[best]
        centres[c, 0] = x[candidates[best]]
    return centres


@njit(cache=True, nogil=True)
def _seeds_columns(X, squared_norms, n_clusters, trials, draws, first):
    """:func:`kmeans_plus_plus_seeds` of a centred ``X`` of two or more columns (rows of
    weight 1), ``squared_norms`` numpy's (``np.einsum`` adds a row's squares in an order
    of its own, the same for a row wherever it is), ``draws[first:]`` the random numbers:
    numpy's products are BLAS's, ``dgemv`` for one centre and ``dgemm`` for the
    candidates."""
    n_rows, n_dims = X.shape
    centres = np.empty((n_clusters, n_dims))
    cumulative = np.empty(n_rows)
    index = _first_seed(n_rows, draws[first], cumulative)
    centres[0] = X[index]
    products = _blas_row_sums(X, centres[0])             # centres[0:1] @ X.T
    closest = np.empty(n_rows)
    for i in range(n_rows):
        distance = (-2.0 * products[i] + squared_norms[index]) + squared_norms[i]
        closest[i] = distance if distance > 0.0 else 0.0
    ones = np.ones(n_rows)
    potential = _blas_dot(closest, ones)
    candidates = np.empty(trials, dtype=np.intp)
    rows = np.empty((trials, n_dims))
    to_candidates = np.empty((trials, n_rows))
    for c in range(1, n_clusters):
        _running_sums(closest, cumulative)
        for t in range(trials):
            draw = draws[first + 1 + (c - 1) * trials + t] * potential
            candidates[t] = min(_search_left(cumulative, draw), n_rows - 1)
            rows[t] = X[candidates[t]]
        _blas_cross_products(rows, X, to_candidates)             # X[candidates] @ X.T
        for t in range(trials):
            square = squared_norms[candidates[t]]
            for i in range(n_rows):
                distance = (-2.0 * to_candidates[t, i] + square) + squared_norms[i]
                if not distance > 0.0:
                    distance = 0.0
                to_candidates[t, i] = closest[i] if closest[i] <= distance else distance
        potentials = _blas_row_sums(to_candidates, ones)
        best = np.argmin(potentials)
        potential = potentials[best]
        closest[:] = to_candidates[best]
        centres[c] = X[candidates[best]]
    return centres


@njit(cache=True, nogil=True)
def _squared_euclidean(a, b):
    """scikit-learn's ``_euclidean_dense_dense(a, b, squared=True)``: four squares at a
    time, the rest one by one."""
    n = a.shape[0]
    total = 0.0
    for block in range(n // 4):
        j = 4 * block
        d0, d1 = a[j] - b[j], a[j + 1] - b[j + 1]
        d2, d3 = a[j + 2] - b[j + 2], a[j + 3] - b[j + 3]
        total += ((d0 * d0 + d1 * d1) + d2 * d2) + d3 * d3
    for j in range(n - n % 4, n):
        total += (a[j] - b[j]) * (a[j] - b[j])
    return total


#: :func:`_lloyd_iteration`'s outcomes besides DONE: a cluster emptied, a label unsure.
EMPTIED, LABEL_UNSURE = 2, 3

#: Relative bound on the difference between two sums of the same ``m`` squares added in
#: different orders (at most ``2 m`` units of 2**-53 of the sum; this is some 450 times
#: more), per unit of ``m`` times the sum.
NORM_TOLERANCE = 1e-13


@njit(cache=True, nogil=True)
def _chunk_labels(X, start, end, centers, norms, labels, distances):
    """The labels of rows ``start:end`` as scikit-learn's ``_update_chunk_dense`` gives
    them (distances ``norms - 2 X C^T`` by its ``dgemm`` call, the first nearest centre):
    DONE, or LABEL_UNSURE in two or more columns where the centres' ``norms``, added in
    order, could decide otherwise in ``np.einsum``'s order (a difference of at most
    :data:`NORM_TOLERANCE` times the number of columns times the norm)."""
    n_dims = X.shape[1]
    n_clusters = centers.shape[0]
    rows = end - start
    for i in range(rows):
        for j in range(n_clusters):
            distances[i * n_clusters + j] = norms[j]
    sizes = np.array([n_clusters, rows, n_dims], dtype=np.int32)    # m, n (rows), k
    scalars = np.array([-2.0, 1.0])
    # scikit-learn's _gemm(RowMajor, NoTrans, Trans, rows, k, n_dims, -2, X, C, 1, D)
    _dgemm(_CHARACTERS[1:2].ctypes, _CHARACTERS[2:3].ctypes, sizes[:1].ctypes,
           sizes[1:2].ctypes, sizes[2:].ctypes, scalars[:1].ctypes, centers.ctypes,
           sizes[2:].ctypes, X[start:end].ctypes, sizes[2:].ctypes, scalars[1:].ctypes,
           distances.ctypes, sizes[:1].ctypes)
    for i in range(rows):
        first = i * n_clusters
        smallest = distances[first]
        label = 0
        for j in range(1, n_clusters):
            if distances[first + j] < smallest:
                smallest = distances[first + j]
                label = j
        if n_dims > 1:
            own = NORM_TOLERANCE * (n_dims * norms[label] + abs(smallest))
            for j in range(n_clusters):
                if j != label and (distances[first + j] - smallest
                                   <= own + NORM_TOLERANCE * (n_dims * norms[j]
                                                              + abs(distances[first + j]))):
                    return LABEL_UNSURE
        labels[start + i] = label
    return DONE


@njit(cache=True, nogil=True)
def _centre_norms(centers):
    """The centres' squared norms, added in order (in one column ``c * c``, numpy's)."""
    norms = np.zeros(centers.shape[0])
    for j in range(centers.shape[0]):
        for d in range(centers.shape[1]):
            norms[j] += centers[j, d] * centers[j, d]
    return norms


@njit(cache=True, nogil=True)
def _lloyd_labels(X, centers, labels, distances, chunk):
    """scikit-learn's ``lloyd_iter_chunked_dense(..., update_centers=False)`` on one
    thread: the labels by chunks of ``chunk`` rows (DONE or LABEL_UNSURE)."""
    n_rows = X.shape[0]
    norms = _centre_norms(centers)
    for start in range(0, n_rows, chunk):
        outcome = _chunk_labels(X, start, min(start + chunk, n_rows), centers, norms, labels,
                                distances)
        if outcome != DONE:
            return outcome
    return DONE


@njit(cache=True, nogil=True)
def _lloyd_iteration(X, centers_old, centers_new, weight_in_clusters, labels, center_shift,
                     distances, chunk):
    """scikit-learn's ``lloyd_iter_chunked_dense`` on one thread, unit weights: DONE, or
    EMPTIED if a cluster lost all its rows (scikit-learn then relocates a centre: left to
    it), or LABEL_UNSURE (see :func:`_chunk_labels`)."""
    n_rows, n_dims = X.shape
    n_clusters = centers_old.shape[0]
    norms = _centre_norms(centers_old)
    local_centers = np.zeros(n_clusters * n_dims)     # one thread's buffers, from 0
    local_weights = np.zeros(n_clusters)
    for start in range(0, n_rows, chunk):
        end = min(start + chunk, n_rows)
        outcome = _chunk_labels(X, start, end, centers_old, norms, labels, distances)
        if outcome != DONE:
            return outcome
        for i in range(start, end):                   # row after row, as the chunk's loop
            label = labels[i]
            local_weights[label] += 1.0
            for d in range(n_dims):
                local_centers[label * n_dims + d] += X[i, d] * 1.0
    centers_new[:] = 0.0
    weight_in_clusters[:] = 0.0
    for j in range(n_clusters):
        weight_in_clusters[j] += local_weights[j]
        for d in range(n_dims):
            centers_new[j, d] += local_centers[j * n_dims + d]
    for j in range(n_clusters):
        if weight_in_clusters[j] == 0.0:
            return EMPTIED
    for j in range(n_clusters):
        alpha = 1.0 / weight_in_clusters[j]
        for d in range(n_dims):
            centers_new[j, d] *= alpha
    for j in range(n_clusters):
        center_shift[j] = np.sqrt(_squared_euclidean(centers_new[j], centers_old[j]))
    return DONE


#: Relative margin a comparison of a Lloyd run's centre shift or inertia must clear in two
#: or more columns (scikit-learn's C code may fuse multiply-adds there; numba does not).
SHIFT_TOLERANCE = 1e-12


@njit(cache=True, nogil=True)
def _kmeans_lloyd(X, init, max_iter, tolerance):
    """scikit-learn's ``_kmeans_single_lloyd(X, ones, init, max_iter, tolerance,
    n_threads=1)``: ``(outcome, labels, inertia, centres)``, outcome DONE or that of
    :func:`_lloyd_iteration`, or UNSURE if the shift's test is too close to call (two or
    more columns)."""
    n_rows, n_dims = X.shape
    n_clusters = init.shape[0]
    centers = init.copy()
    centers_new = np.zeros_like(centers)
    labels = np.full(n_rows, -1, dtype=np.int32)
    labels_old = labels.copy()
    weight_in_clusters = np.zeros(n_clusters)
    center_shift = np.zeros(n_clusters)
    chunk = LLOYD_CHUNK if n_rows > LLOYD_CHUNK else n_rows
    distances = np.empty(chunk * n_clusters)
    strict_convergence = False
    for _ in range(max_iter):
        outcome = _lloyd_iteration(X, centers, centers_new, weight_in_clusters, labels,
                                   center_shift, distances, chunk)
        if outcome != DONE:
            return outcome, labels, 0.0, centers
        centers, centers_new = centers_new, centers
        changed = False                               # np.array_equal(labels, labels_old)
        for i in range(n_rows):
            if labels[i] != labels_old[i]:
                changed = True
                break
        if not changed:
            strict_convergence = True
            break
        shift = _numpy_sum(center_shift * center_shift)
        if n_dims > 1 and abs(shift - tolerance) <= SHIFT_TOLERANCE * (shift + tolerance):
            return UNSURE, labels, 0.0, centers
        if shift <= tolerance:
            break
        labels_old[:] = labels
    if not strict_convergence:
        outcome = _lloyd_labels(X, centers, labels, distances, chunk)
        if outcome != DONE:
            return outcome, labels, 0.0, centers
    inertia = 0.0       # _inertia_dense: a reduction from 0 on one thread, added to 0
    for i in range(n_rows):
        inertia += _squared_euclidean(X[i], centers[labels[i]]) * 1.0
    return DONE, labels, 0.0 + inertia, centers


@njit(cache=True, nogil=True)
def _same_clustering(labels1, labels2, n_clusters):
    """scikit-learn's ``_is_same_clustering``."""
    mapping = np.full(n_clusters, -1, dtype=np.int32)
    for i in range(labels1.shape[0]):
        if mapping[labels1[i]] == -1:
            mapping[labels1[i]] = labels2[i]
        elif mapping[labels1[i]] != labels2[i]:
            return False
    return True


@njit(cache=True, nogil=True)
def _best_of_starts(centred, squared_norms, n_clusters, n_init, trials, max_iter, draws):
    """:func:`kmeans_plus_plus`'s runs on the centred ``X`` (``squared_norms`` numpy's
    squared row norms, ignored in one column): ``(DONE, centres)`` without the mean, or
    another outcome if a run cannot be followed (see :func:`_kmeans_lloyd`)."""
    n_rows, n_dims = centred.shape
    tolerance = _mean_variance(centred) * KMEANS_TOLERANCE
    per_start = 1 + (n_clusters - 1) * trials
    best_inertia = np.inf
    best_labels = np.empty(n_rows, dtype=np.int32)
    best_centers = np.empty((n_clusters, n_dims))
    column = np.empty(n_rows)
    for i in range(n_rows):
        column[i] = centred[i, 0]
    for start in range(n_init):
        if n_dims == 1:                 # numpy's products of one column: no BLAS
            init = _seeds_one_column(column, n_clusters, trials, draws, start * per_start)
        else:
            init = _seeds_columns(centred, squared_norms, n_clusters, trials, draws,
                                  start * per_start)
        outcome, labels, inertia, centers = _kmeans_lloyd(centred, init, max_iter, tolerance)
        if outcome != DONE:
            return outcome, best_centers
        if start > 0 and _same_clustering(labels, best_labels, n_clusters):
            continue                              # not better, whatever the inertias
        if start > 0 and n_dims > 1 and (abs(inertia - best_inertia)
                                         <= SHIFT_TOLERANCE * (inertia + best_inertia)):
            return UNSURE, best_centers
        if start == 0 or inertia < best_inertia:
            best_inertia, best_labels, best_centers = inertia, labels, centers
    return DONE, best_centers


@njit(cache=True, nogil=True)
def _bic_with_bound(X, labels, centers, min_variance, tolerance):
    """:func:`bic` with numba's logarithms, and a bound on its distance from :func:`bic`'s
    value (``tolerance``, :data:`BIC_TOLERANCE`, times the magnitudes of its terms);
    infinite values are :func:`bic`'s, with bound 0."""
    n_rows, n_dims = X.shape
    n_clusters = centers.shape[0]
    if n_rows <= n_clusters:
        return -np.inf, 0.0
    sizes = np.zeros(n_clusters, dtype=np.intp)
    for i in range(n_rows):
        sizes[labels[i]] += 1
    ss = _squared_error(X, labels, centers)
    variance = ss / (n_dims * (n_rows - n_clusters))
    if min_variance > variance:                         # Python's max: the first on ties
        variance = min_variance
    if variance == 0.0:
        return np.inf, 0.0
    terms = np.empty(n_clusters)
    n_terms = 0
    magnitude = 0.0
    for j in range(n_clusters):
        if sizes[j] > 0:
            terms[n_terms] = sizes[j] * np.log(sizes[j] / n_rows)
            magnitude += abs(terms[n_terms])
            n_terms += 1
    mixing = 0.0 + pairwise_sum(terms, 0, n_terms)
    spread = n_rows * n_dims / 2 * np.log(2 * np.pi * variance)
    residual = ss / (2 * variance)
    penalty = ((n_clusters - 1) + n_dims * n_clusters + 1) / 2 * np.log(n_rows)
    score = mixing - spread - residual - penalty
    return score, tolerance * (magnitude + abs(spread) + residual + abs(penalty))


@njit(cache=True, nogil=True)
def _greater(a, a_bound, b, b_bound):
    """Is numpy's ``a > b``, for any values within the bounds of ``a`` and ``b``?  1 yes,
    0 no, -1 it depends (infinite values are exact)."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return 1 if a > b else 0
    if a - b > a_bound + b_bound:
        return 1
    if b - a >= a_bound + b_bound:
        return 0
    return -1


@njit(cache=True, nogil=True)
def _split_region(region, min_variance, max_iter, tolerance):
    """``XMeans._split_region`` compiled: ``(answer, gain, bound, child centres)``, answer
    1 (split), 0 (no split) or -1 (numpy's BICs decide: unsure here, or LAPACK failed)."""
    n_rows, n_dims = region.shape
    children = np.empty((2, n_dims))
    if n_rows < 2:
        return 0, 0.0, 0.0, children
    mean = _column_means(region)
    centred = region - mean
    if n_dims == 1:                       # numpy's eigh of a 1 x 1 matrix: itself, and 1
        column = centred.reshape(n_rows)
        largest = _blas_dot(column, column) / n_rows
        direction = np.ones(1)
    else:
        values, direction, info = _numpy_eigh(gram(centred) / n_rows)
        if info != 0:
            return -1, 0.0, 0.0, children
        largest = values[n_dims - 1]
    if largest <= 0:
        return 0, 0.0, 0.0, children      # all points coincide
    offset = np.sqrt(2 * largest / np.pi) * direction
    children[0] = mean - offset
    children[1] = mean + offset
    children, child_labels = _lloyd(region, children, max_iter)
    n_first = 0
    for i in range(n_rows):
        n_first += child_labels[i] == 0
    if n_first == 0 or n_first == n_rows:
        return 0, 0.0, 0.0, children
    split, split_bound = _bic_with_bound(region, child_labels, children, min_variance,
                                         tolerance)
    whole, whole_bound = _bic_with_bound(region, np.zeros(n_rows, dtype=np.intp),
                                         mean.reshape((1, n_dims)), min_variance, tolerance)
    gain = split - whole
    answer = _greater(split, split_bound, whole, whole_bound) if np.isfinite(gain) else (
        1 if gain > 0 else 0)
    return answer, gain, split_bound + whole_bound, children


@njit(cache=True, nogil=True)
def _xmeans_search(X, centers, max_clusters, min_variance, max_iter, tolerance):
    """``XMeans._search`` from the first centres ``centers`` (Improve-Params done):
    ``(DONE, best centres)``, or ``(UNSURE, _)`` if a decision on BICs is too close to call
    with numba's logarithms or LAPACK failed (then the numpy code decides)."""
    n_rows, n_dims = X.shape
    labels = _nearest_centre(X, centers, np.empty(n_dims))
    best_centers = centers
    best_bic, best_bound = _bic_with_bound(X, labels, centers, min_variance, tolerance)
    while centers.shape[0] < max_clusters:
        n_clusters = centers.shape[0]
        # Improve-Structure
        gains = np.empty(n_clusters)
        bounds = np.empty(n_clusters)
        split_clusters = np.empty(n_clusters, dtype=np.intp)
        children = np.empty((n_clusters, 2, n_dims))
        n_splits = 0
        sizes = np.zeros(n_clusters, dtype=np.intp)
        for i in range(n_rows):
            sizes[labels[i]] += 1
        for cluster in range(n_clusters):
            region = np.empty((sizes[cluster], n_dims))
            row = 0
            for i in range(n_rows):
                if labels[i] == cluster:
                    region[row] = X[i]
                    row += 1
            answer, gain, bound, pair = _split_region(region, min_variance, max_iter,
                                                      tolerance)
            if answer < 0:
                return UNSURE, best_centers
            if answer == 1:
                gains[n_splits], bounds[n_splits] = gain, bound
                split_clusters[n_splits] = cluster
                children[n_splits] = pair
                n_splits += 1
        if n_splits == 0:
            break
        kept = np.zeros(n_clusters, dtype=np.bool_)
        room = max_clusters - n_clusters
        order = np.empty(n_splits, dtype=np.intp)      # np.argsort(-gains, kind="stable")
        for a in range(n_splits):
            b = a
            while b > 0 and gains[order[b - 1]] < gains[a]:
                order[b] = order[b - 1]
                b -= 1
            order[b] = a
        for a in order[:room]:
            kept[split_clusters[a]] = True
            for b in order[room:]:       # numpy's order too, for any gains within the bounds
                tie = gains[a] == gains[b] and not np.isfinite(gains[a])   # exact: by index
                if not tie and _greater(gains[a], bounds[a], gains[b], bounds[b]) != 1:
                    return UNSURE, best_centers
        new_centers = np.empty((n_clusters + min(room, n_splits), n_dims))
        row = 0
        for cluster in range(n_clusters):
            if kept[cluster]:
                for s in range(n_splits):
                    if split_clusters[s] == cluster:
                        new_centers[row] = children[s, 0]
                        new_centers[row + 1] = children[s, 1]
                row += 2
            else:
                new_centers[row] = centers[cluster]
                row += 1
        # Improve-Params
        centers, labels = _lloyd(X, new_centers, max_iter)
        score, bound = _bic_with_bound(X, labels, centers, min_variance, tolerance)
        better = _greater(score, bound, best_bic, best_bound)
        if better < 0:
            return UNSURE, best_centers
        if better == 1:
            best_centers, best_bic, best_bound = centers, score, bound
    return DONE, best_centers


#: :func:`_best_of_starts`' row norms in one column (there ``c * c``, numpy's).
_NO_NORMS = np.empty(0)


class _Replay:
    """Draws ``RandomState.choice(n, p=p)`` and ``RandomState.uniform(size=k)`` from numbers
    drawn before by ``random_sample`` -- the numbers those calls take from the generator
    (``choice`` one for a single row, turned into a row as numpy does; ``uniform(0, 1)``
    is ``0 + 1 * u``, the number itself)."""

    def __init__(self, draws):
        self.draws, self.taken = draws, 0

    def _take(self, count):
        numbers = self.draws[self.taken:self.taken + count]
        self.taken += count
        return numbers

    def choice(self, n, p):
        cdf = p.cumsum()
        cdf /= cdf[-1]
        return cdf.searchsorted(self._take(1)[0], side="right")

    def uniform(self, size):
        return self._take(size).copy()


_BLAS_IS_NUMPYS = None


def blas_is_numpys():
    """Whether scipy's BLAS and LAPACK, which the kernels call, give numpy's numbers for
    the calls the numpy code makes (``ddot``, ``dgemv``, ``dgemm``; ``dsyrk`` and
    ``dsyevd`` through ``eigh(c.T @ c / n)``), and ``np.einsum`` a row's squared norm
    wherever the row is, checked once on a few hundred products and eigenproblems."""
    global _BLAS_IS_NUMPYS
    if _BLAS_IS_NUMPYS is None:
        _BLAS_IS_NUMPYS = COMPILED and _check_blas()
    return _BLAS_IS_NUMPYS


def _check_blas():
    rng = np.random.RandomState(0)
    for n in (1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 64, 100, 127, 128, 129, 255, 256, 257, 1000,
              4099):
        a, b = rng.uniform(0, 3, n), rng.normal(size=n)
        if _blas_dot(a, b) != a @ b:
            return False
        A = rng.uniform(0, 3, (3, n))
        if not np.array_equal(_blas_row_sums(A, b), (A @ b.reshape(-1, 1))[:, 0]):
            return False
    for n_dims in range(2, 30):
        X = rng.normal(size=(300, n_dims)) * rng.uniform(0.1, 10, n_dims)
        norms = squared_row_norms(X)                # one row's norm wherever the row is
        if (squared_row_norms(X[7:8])[0] != norms[7]
                or not np.array_equal(squared_row_norms(X[[3, 9, 3]]), norms[[3, 9, 3]])):
            return False
        out = np.empty((3, 300))
        _blas_cross_products(X[[3, 9, 3]], X, out)
        if not np.array_equal(out, X[[3, 9, 3]] @ X.T):
            return False
        if not np.array_equal(_blas_row_sums(X, X[5]), (X[5:6] @ X.T)[0]):
            return False
    for n_dims in range(2, 12):
        for n_rows in (n_dims, 40, 300):
            centred = rng.normal(size=(n_rows, n_dims)) * rng.uniform(0.1, 10, n_dims)
            centred -= centred.mean(axis=0)
            values, vectors = np.linalg.eigh(centred.T @ centred / n_rows)
            ours, direction, info = _numpy_eigh(gram(centred) / n_rows)
            if (info != 0 or not np.array_equal(ours, values)
                    or not np.array_equal(direction, vectors[:, -1])):
                return False
    return True


def _search_applies(X):
    """Whether :class:`XMeans` takes the compiled search for ``X``: numba on, at most
    :data:`PAIRWISE_BLOCK` columns, scipy's BLAS giving numpy's numbers, and the numpy
    code's functions not replaced (tests replace them by the library calls they stand for:
    then those run)."""
    return (SEARCH_COMPILED and X.shape[1] <= PAIRWISE_BLOCK
            and (kmeans_plus_plus, kmeans_plus_plus_seeds, lloyd, nearest_centre, bic)
            == _NUMPY_CODE and blas_is_numpys())


_NUMPY_CODE = (kmeans_plus_plus, kmeans_plus_plus_seeds, lloyd, nearest_centre, bic)


def _is_integer(value):
    """``isinstance(value, numbers.Integral)``, a plain int first (ODT-SVM refits one
    :class:`XMeans` at every node: the abstract class's check costs more than a fit's
    arithmetic)."""
    return type(value) is int or isinstance(value, numbers.Integral)


class XMeans(ClusterMixin, BaseEstimator):
    """X-means: k-means that chooses the number of clusters by BIC (Pelleg & Moore 2000).

    See the module docstring for the model, the score and the search.

    Parameters
    ----------
    min_clusters : int, default=2
        Smallest number of clusters; the search starts here.  If the data have fewer
        distinct rows, the result has one cluster per distinct row (at least 1) instead.
    max_clusters : int, default=8
        Largest number of clusters; never exceeded (nor is the number of distinct rows).
    n_init : int, default=3
        k-means++ seedings of the first k-means run (at ``min_clusters``).  Later runs start
        from the current centres and are run once.
    max_iter : int, default=100
        Iteration limit of every k-means run.
    random_state : int, RandomState instance or None, default=None
        Seeds k-means++; one :class:`~numpy.random.RandomState` is made in :meth:`fit` and
        passed to every k-means run, so an int makes the result reproducible.

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

    def __init__(self, min_clusters=2, max_clusters=8, n_init=3, max_iter=100,
                 random_state=None):
        store_parameters(self, locals())

    def _validate_parameters(self):
        for name in ("min_clusters", "n_init", "max_iter"):
            value = getattr(self, name)
            if not _is_integer(value) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not _is_integer(self.max_clusters) or self.max_clusters < self.min_clusters:
            raise ValueError(f"max_clusters must be an integer of at least min_clusters "
                             f"({self.min_clusters}), got {self.max_clusters!r}")

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
        self.labels_ = nearest_centre(X, centers)
        self.bic_ = bic(X, self.labels_, centers, min_variance)
        return self

    def fit_centres(self, X):
        """The centres :meth:`fit` finds (``cluster_centers_``), returned without fitting
        the estimator: the labels and the BIC of the model are not computed (ODT-SVM's
        clustering split needs only the centres; the BIC would cost a sixth of the fit).

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
        self._validate_parameters()
        random_state = check_random_state(self.random_state)
        compiled = _search_applies(X)
        if compiled:
            X = np.ascontiguousarray(X)
            n_first, distinct, mean_variance, largest, *centred = _prepare(X,
                                                                           self.max_clusters)
            compiled = largest <= LARGEST_COMPILED
        if compiled:
            min_variance = RELATIVE_VARIANCE_FLOOR * mean_variance
            if n_first > self.max_clusters:
                distinct = None
            elif X.shape[1] > 1 or not len(distinct):
                distinct = np.unique(X, axis=0)
        else:
            min_variance = RELATIVE_VARIANCE_FLOOR * float(X.var(axis=0).mean())
            distinct = distinct_rows(X, self.max_clusters)   # None: more than max_clusters
        if distinct is not None and len(distinct) <= self.min_clusters:
            # Every distinct row is its own cluster: k-means cannot find more clusters than
            # distinct rows, and with exactly min_clusters of them this is its optimum.
            return distinct, min_variance
        most = self.max_clusters if distinct is None else min(self.max_clusters, len(distinct))
        return self._search(X, most, min_variance, random_state,
                            centred if compiled else None), min_variance

    def _search(self, X, max_clusters, min_variance, random_state, centred=None):
        """Improve-Params / Improve-Structure until no split or ``max_clusters`` centres;
        return the centres of the visited model with the best BIC (first on ties).
        ``centred``: ``(X.mean(axis=0), X - X.mean(axis=0))`` to search by the kernels
        (:func:`_xmeans_search`; the numpy code where they cannot decide)."""
        compiled = centred is not None
        if self.min_clusters == 1:
            centers = X.mean(axis=0, keepdims=True)
        elif compiled:
            centers = self._kmeans_plus_plus(X, random_state, *centred)
        else:
            centers = kmeans_plus_plus(X, self.min_clusters, self.n_init, self.max_iter,
                                       random_state)
        if compiled:
            outcome, best_centers = _xmeans_search(X, centers, max_clusters, min_variance,
                                                   self.max_iter, BIC_TOLERANCE)
            if outcome == DONE:
                return best_centers
        return self._search_from(X, centers, max_clusters, min_variance, random_state)

    def _kmeans_plus_plus(self, X, random_state, mean, centred):
        """:func:`kmeans_plus_plus` by the kernel :func:`_best_of_starts`, its random
        numbers drawn here as k-means++ draws them; by
        the numpy code, with the same numbers, where the kernels cannot follow it (a
        cluster emptied, a decision too close to call)."""
        trials = 2 + int(np.log(self.min_clusters))
        per_start = 1 + (self.min_clusters - 1) * trials
        draws = random_state.random_sample(self.n_init * per_start)
        # as kmeans_plus_plus: the centred data (``mean``, ``centred``: numpy's, from
        # _prepare) and numpy's row norms (np.einsum's order)
        norms = squared_row_norms(centred) if X.shape[1] > 1 else _NO_NORMS
        outcome, centers = _best_of_starts(centred, norms, self.min_clusters, self.n_init,
                                           trials, self.max_iter, draws)
        if outcome == DONE:
            return centers + mean
        return kmeans_plus_plus(X, self.min_clusters, self.n_init, self.max_iter,
                                _Replay(draws))

    def _search_from(self, X, centers, max_clusters, min_variance, random_state):
        """The search of :meth:`_search` after its first k-means run (``centers``)."""
        labels = nearest_centre(X, centers)
        best_centers, best_bic = centers, bic(X, labels, centers, min_variance)
        while len(centers) < max_clusters:
            centers = self._improve_structure(X, labels, centers, max_clusters, min_variance,
                                              random_state)
            if centers is None:
                break
            centers, labels = lloyd(X, centers, self.max_iter)
            score = bic(X, labels, centers, min_variance)
            if score > best_bic:
                best_centers, best_bic = centers, score
        return best_centers

    def _improve_structure(self, X, labels, centers, max_clusters, min_variance,
                           random_state):
        """Centres after splitting every region whose 2-means children beat it by BIC (at
        most ``max_clusters`` in all, best gains first), or None if no region splits."""
        gains, children = [], []
        for cluster in range(len(centers)):
            split = self._split_region(X[labels == cluster], min_variance, random_state)
            if split is not None:
                gains.append(split[0])
                children.append((cluster, split[1]))
        if not gains:
            return None
        kept = np.argsort(-np.asarray(gains), kind="stable")[:max_clusters - len(centers)]
        new_centers = {cluster: pair for cluster, pair in (children[i] for i in kept)}
        return np.vstack([new_centers.get(cluster, centers[cluster:cluster + 1])
                          for cluster in range(len(centers))])

    def _split_region(self, region, min_variance, random_state):
        """``(BIC gain, two child centres)`` if 2-means splits ``region`` with a higher BIC
        than the region as one cluster, else None."""
        if len(region) < 2:
            return None
        mean = region.mean(axis=0)
        centred = region - mean
        eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred / len(region))
        if eigenvalues[-1] <= 0:
            return None  # all points coincide
        offset = np.sqrt(2 * eigenvalues[-1] / np.pi) * eigenvectors[:, -1]
        init = np.vstack([mean - offset, mean + offset])
        child_centers, child_labels = lloyd(region, init, self.max_iter)
        if np.bincount(child_labels, minlength=2).min() == 0:
            return None
        gain = (bic(region, child_labels, child_centers, min_variance)
                - bic(region, np.zeros(len(region), dtype=np.intp), mean[np.newaxis],
                      min_variance))
        return (gain, child_centers) if gain > 0 else None

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
        return nearest_centre(X, self.cluster_centers_)
