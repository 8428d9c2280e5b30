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
from sklearn.utils.extmath import row_norms
from sklearn.utils.validation import check_array, check_is_fitted

from .kernels import AVAILABLE as COMPILED
from .kernels import njit
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
#: numpy adds a contiguous run of more than this many numbers as two halves (pairwise).
#: The kernels' sums over a row's coordinates (or a cut's classes) are of at most this many
#: numbers (:func:`block_sum`): a kernel that may reach :func:`pairwise_sum`'s stack runs
#: several times slower, so more coordinates take the numpy code.
PAIRWISE_BLOCK = 128


@njit(cache=True, nogil=True)
def block_sum(values, start, count):
    """numpy's sum of at most 128 contiguous float64 numbers: one after the other below
    eight, else eight running sums added pairwise, then the rest one after the other."""
    if count < 8:
        total = 0.0
        for i in range(start, start + count):
            total += values[i]
        return total
    r0, r1, r2, r3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    r4, r5, r6, r7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    i = 8
    while i < count - count % 8:
        j = start + i
        r0 += values[j]
        r1 += values[j + 1]
        r2 += values[j + 2]
        r3 += values[j + 3]
        r4 += values[j + 4]
        r5 += values[j + 5]
        r6 += values[j + 6]
        r7 += values[j + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for j in range(start + i, start + count):
        total += values[j]
    return total


@njit(cache=True, nogil=True)
def pairwise_sum(values, start, count):
    """``values[start:start + count].sum()`` added as numpy adds a contiguous float64 run,
    so the very same number: numpy's pairwise summation splits a run of more than 128
    numbers into two halves (the first a multiple of 8) and adds their sums.  The halving
    is walked with an explicit stack (numba caches no recursive function)."""
    if count <= PAIRWISE_BLOCK:
        return block_sum(values, start, count)
    depth = 64                       # halving 2**63 numbers down to 128 takes 57 levels
    starts = np.empty(depth, dtype=np.intp)
    counts = np.empty(depth, dtype=np.intp)
    halves = np.empty(depth, dtype=np.intp)
    first_halves = np.empty(depth)   # a level's first half's sum, once added
    on_second = np.zeros(depth, dtype=np.bool_)
    level = 0
    starts[0], counts[0] = start, count
    while True:
        if counts[level] > PAIRWISE_BLOCK:         # descend into the first half
            half = counts[level] // 2
            half -= half % 8
            halves[level], on_second[level] = half, False
            starts[level + 1], counts[level + 1] = starts[level], half
            level += 1
            continue
        total = block_sum(values, starts[level], counts[level])
        while True:                                  # return the sum up the levels
            if level == 0:
                return total
            level -= 1
            if not on_second[level]:                # first half done: the second next
                first_halves[level], on_second[level] = total, True
                starts[level + 1] = starts[level] + halves[level]
                counts[level + 1] = counts[level] - halves[level]
                level += 1
                break
            total = first_halves[level] + total


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


def kmeans_plus_plus_seeds(X, n_clusters, squared_norms, random_state):
    """k-means++ seeding with ``2 + ⌊ln k⌋`` greedy trials per centre (Arthur &
    Vassilvitskii 2007), step by step as scikit-learn's ``KMeans`` seeds rows of equal
    weight -- the same draws from ``random_state`` and the same numpy operations, so the
    same centres -- without its checks and array-API dispatch (half its cost on a node's
    rows).  ``squared_norms``: the rows' squared norms (``row_norms(X, squared=True)``)."""
    n_rows = len(X)
    weights = np.ones(n_rows)
    trials = 2 + int(np.log(n_clusters))

    def squared_distances(centres):
        distances = -2 * (centres @ X.T)
        distances += row_norms(centres, squared=True)[:, np.newaxis]
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
    squared_norms = row_norms(X, squared=True)
    sample_weight = np.ones(len(X))
    tolerance = _tolerance(X, KMEANS_TOLERANCE)
    best = None
    for _ in range(n_init):
        init = kmeans_plus_plus_seeds(X, n_clusters, squared_norms, random_state)
        labels, inertia, centers, _ = _kmeans_single_lloyd(
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
            if not isinstance(value, numbers.Integral) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if (not isinstance(self.max_clusters, numbers.Integral)
                or self.max_clusters < self.min_clusters):
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
        self._validate_parameters()
        random_state = check_random_state(self.random_state)
        self.n_features_in_ = X.shape[1]
        min_variance = RELATIVE_VARIANCE_FLOOR * float(X.var(axis=0).mean())
        distinct = distinct_rows(X, self.max_clusters)   # None: more than max_clusters
        if distinct is not None and len(distinct) <= self.min_clusters:
            # Every distinct row is its own cluster: k-means cannot find more clusters than
            # distinct rows, and with exactly min_clusters of them this is its optimum.
            centers = distinct
        else:
            most = self.max_clusters if distinct is None else min(self.max_clusters,
                                                                  len(distinct))
            centers = self._search(X, most, min_variance, random_state)
        self.cluster_centers_ = centers
        self.n_clusters_ = len(centers)
        self.labels_ = nearest_centre(X, centers)
        self.bic_ = bic(X, self.labels_, centers, min_variance)
        return self

    def _search(self, X, max_clusters, min_variance, random_state):
        """Improve-Params / Improve-Structure until no split or ``max_clusters`` centres;
        return the centres of the visited model with the best BIC (first on ties)."""
        if self.min_clusters == 1:
            centers = X.mean(axis=0, keepdims=True)
        else:
            centers = kmeans_plus_plus(X, self.min_clusters, self.n_init, self.max_iter,
                                       random_state)
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
