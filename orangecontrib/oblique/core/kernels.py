"""Compiled kernels (numba) for the per-node work that numpy does in many small calls.

A line search of OC1 (:func:`~.impurity.best_step`, Eq. 2) at a node of a few hundred
rows costs ~100 µs in numpy, nearly all of it the overhead of some thirty array calls;
compiled, the same arithmetic takes a few µs.  The kernels repeat the numpy code's
operations in the same order (left-to-right products, sums over the classes from the
first class on), so that with whole-number weights -- Orange's default, and any data
without instance weights -- they give bit for bit the same scores and steps, and hence the
same trees.  With fractional weights, numpy's matrix products (``indicators @ mask``) may
add in another order: the results then agree to rounding, not to the bit.

GDT's split of a node (:func:`gdt_node_split`, Manwani & Sastry, Section II) is one kernel
call instead of dozens of numpy calls; it calls the numpy code's LAPACK and BLAS
routines on arrays of the same layouts, so its trees are the numpy code's to the bit.

numba is installed from the package registry as a wheel (no compiler); without it
:data:`AVAILABLE` is False and the numpy code runs.  Set the environment variable
``OBLIQUE_NO_NUMBA=1`` to use the numpy code (for comparisons).
"""
import os

import numpy as np

try:  # pragma: no cover - numba is a dependency; the numpy code is the fallback
    if os.environ.get("OBLIQUE_NO_NUMBA"):
        raise ImportError("OBLIQUE_NO_NUMBA is set")
    from numba import njit
    AVAILABLE = True
except ImportError:  # pragma: no cover
    AVAILABLE = False

    def njit(*_args, **_kwargs):
        """Without numba: leave the function as plain Python (it is not called)."""
        return lambda function: function

_TINY = float(np.finfo(float).tiny)

#: The measures of :data:`~.impurity.MEASURES`, numbered for the kernels.
MEASURE_CODES = {"twoing": 0, "information_gain": 1, "gini": 2, "max_minority": 3,
                 "sum_minority": 4, "sum_of_variances": 5}


@njit(cache=True, nogil=True)
def _side_entropy(counts, size):
    """``entropy(counts, size=size)`` of one candidate side (bits)."""
    total = 0.0
    scale = max(size, _TINY)
    for k in range(counts.shape[0]):
        p = counts[k] / scale
        total += p * np.log2(p if p > 0 else 1.0)
    return -total


@njit(cache=True, nogil=True)
def sum_of_squares(counts):
    """``Σ counts²``, added from the first class on (as numpy's ``(c ** 2).sum(axis=0)``)."""
    total = 0.0
    for k in range(counts.shape[0]):
        total += counts[k] * counts[k]
    return total


@njit(cache=True, nogil=True)
def _add_side_variance(variance, counts, size, rank):
    """``variance + Σ rank² · counts − (Σ rank · counts)² / size``: one side's term of
    the sum of variances added, in numpy's order."""
    first, second = 0.0, 0.0
    for k in range(counts.shape[0]):
        first += rank[k] * counts[k]
        second += rank[k] * rank[k] * counts[k]
    return variance + second - first * first / max(size, _TINY)


@njit(cache=True, nogil=True)
def best_step(current, direction, indicators, total, code, parent_entropy, rank):
    """:func:`~.impurity.best_step` (OC1's Eq. 2 line search) compiled: the best ``t``
    for ``current + t·direction >= 0`` and its impurity by measure ``code`` (OC1,
    Appendix B, as :data:`~.impurity.MEASURES` computes them); ``(inf, nan)`` when no
    row can move.

    ``parent_entropy`` (information gain) and ``rank`` (sum of variances) are the node's,
    computed once by the caller.
    """
    K, n = indicators.shape
    fixed_right = np.zeros(K)
    negative_sum = np.zeros(K)
    moving = np.empty(n, dtype=np.int64)
    n_moving = 0
    for j in range(n):
        if direction[j] != 0:
            moving[n_moving] = j
            n_moving += 1
        elif current[j] >= 0:
            for k in range(K):
                fixed_right[k] += indicators[k, j]
    if n_moving == 0:
        return np.inf, np.nan
    u = np.empty(n_moving)
    any_negative = False
    for i in range(n_moving):
        j = moving[i]
        u[i] = -current[j] / direction[j]
        if direction[j] < 0:
            any_negative = True
            for k in range(K):
                negative_sum[k] += indicators[k, j]
    order = np.argsort(u)
    # right of t just above the i-th crossing: (d > 0 rows among the first i + 1) +
    # (d < 0 rows after): the cumulative signed counts plus this constant term
    offset = fixed_right.copy()
    if any_negative:
        for k in range(K):
            offset[k] = negative_sum[k] + fixed_right[k]
    cumulative = np.zeros(K)
    left = np.empty(K)
    right = np.empty(K)
    best_score, best_position = np.inf, -1
    for i in range(n_moving - 1):
        j = moving[order[i]]
        if direction[j] < 0:
            for k in range(K):
                cumulative[k] -= indicators[k, j]
        else:
            for k in range(K):
                cumulative[k] += indicators[k, j]
        if not u[order[i + 1]] > u[order[i]]:
            continue  # not between distinct crossing points: no candidate
        n_left, n_right = 0.0, 0.0
        largest_left, largest_right = -np.inf, -np.inf
        for k in range(K):
            left[k] = max(total[k] - (cumulative[k] + offset[k]), 0.0)
            n_left += left[k]
            largest_left = max(largest_left, left[k])
        for k in range(K):
            right[k] = max(total[k] - left[k], 0.0)
            n_right += right[k]
            largest_right = max(largest_right, right[k])
        if n_left <= 0 or n_right <= 0:
            score = np.inf  # an empty side separates nothing
        elif largest_left >= n_left and largest_right >= n_right:
            score = 0.0  # both sides homogeneous
        elif code == 0:  # twoing
            n_all = n_left + n_right
            scale_left, scale_right = max(n_left, _TINY), max(n_right, _TINY)
            difference = 0.0
            for k in range(K):
                difference += abs(left[k] / scale_left - right[k] / scale_right)
            value = (n_left / n_all) * (n_right / n_all) * (difference * difference) / 4
            score = 1.0 / max(value, _TINY)
        elif code == 1:  # information gain
            gain = parent_entropy - (n_left * _side_entropy(left, n_left)
                                     + n_right * _side_entropy(right, n_right)) / (
                                         n_left + n_right)
            score = 1.0 / max(gain, _TINY) if gain > 1e-12 else np.inf
        elif code == 2:  # Gini
            score = ((n_left - sum_of_squares(left) / max(n_left, _TINY))
                     + (n_right - sum_of_squares(right) / max(n_right, _TINY))) / (
                         n_left + n_right)
        elif code == 3:  # max minority
            score = max(n_left - largest_left, n_right - largest_right)
        elif code == 4:  # sum minority
            score = (n_left - largest_left) + (n_right - largest_right)
        else:  # sum of variances, classes numbered by decreasing frequency (rank)
            score = max(_add_side_variance(_add_side_variance(0.0, left, n_left, rank),
                                           right, n_right, rank), 0.0)
        if best_position < 0 or score < best_score:
            best_score, best_position = score, i
    if best_position < 0:
        return np.inf, np.nan
    return best_score, (u[order[best_position]] + u[order[best_position + 1]]) / 2


# ----- GDT (Manwani & Sastry): a node's split -----
#
# Bit for bit the numpy code's results (the same trees, tested): the eigendecompositions are
# LAPACK's ``dsyev`` from scipy (``scipy.linalg.cython_lapack``) with the arguments
# ``scipy.linalg.lapack.dsyev`` gives it, and the matrix products are BLAS calls on arrays
# of the numpy code's memory layouts (numba calls scipy's BLAS, numpy its own build of the
# same OpenBLAS: the same kernels, so the same sums).  Only the class weights on each side
# of a candidate are added row after row; with fractional weights numpy's matrix product
# may add them in another order, and the Gini indices then agree to rounding.

if AVAILABLE:  # pragma: no cover - without numba nothing below is called
    import llvmlite.binding as _llvm
    from numba import types as _types
    from numba.extending import get_cython_function_address as _cython_function

    # external symbols (not ctypes pointers), so that the kernels can be cached
    _llvm.add_symbol("oblique_gdt_dsyev",
                     _cython_function("scipy.linalg.cython_lapack", "dsyev"))
    _llvm.add_symbol("oblique_gdt_dsyrk",
                     _cython_function("scipy.linalg.cython_blas", "dsyrk"))
    _dsyev = _types.ExternalFunction("oblique_gdt_dsyev", _types.void(*[_types.voidptr] * 9))
    _dsyrk = _types.ExternalFunction("oblique_gdt_dsyrk", _types.void(*[_types.voidptr] * 10))
else:  # pragma: no cover
    _dsyev = _dsyrk = None

_UPPER = np.array([ord("U")], dtype=np.uint8)
_LOWER = np.array([ord("L")], dtype=np.uint8)
_NO_TRANSPOSE = np.array([ord("N")], dtype=np.uint8)
_JOBS = np.array([ord("N"), ord("V")], dtype=np.uint8)
_ONE_ZERO = np.array([1.0, 0.0])


@njit(cache=True, nogil=True)
def gram(A):
    """``A.T @ A`` as numpy computes it for a C-contiguous ``A``: BLAS ``dsyrk`` of one
    triangle (row-major upper, i.e. column-major lower), mirrored.  (Another layout is
    copied to C order first.)"""
    A = np.ascontiguousarray(A)
    k, n = A.shape
    result = np.zeros((n, n))
    size = np.array([n], dtype=np.int32)
    depth = np.array([k], dtype=np.int32)
    leading = np.array([max(n, 1)], dtype=np.int32)
    _dsyrk(_LOWER.ctypes, _NO_TRANSPOSE.ctypes, size.ctypes, depth.ctypes,
           _ONE_ZERO[:1].ctypes, A.ctypes, leading.ctypes, _ONE_ZERO[1:].ctypes,
           result.ctypes, leading.ctypes)
    for i in range(n):
        for j in range(i + 1, n):
            result[j, i] = result[i, j]
    return result


@njit(cache=True, nogil=True)
def symmetric_eigen(matrix, with_vectors):
    """``scipy.linalg.lapack.dsyev(matrix, compute_v=with_vectors)``: the eigenvalues
    (ascending), the eigenvectors as columns (when ``with_vectors``) and LAPACK's
    ``info``."""
    n = matrix.shape[0]
    work_size = max(3 * n - 1, 1)
    vectors = matrix.T.copy()  # column-major: the transpose's rows
    values = np.empty(n)
    work = np.empty(work_size)
    job = _JOBS[1:] if with_vectors else _JOBS[:1]
    size = np.array([n], dtype=np.int32)
    work_length = np.array([work_size], dtype=np.int32)
    info = np.zeros(1, dtype=np.int32)
    _dsyev(job.ctypes, _UPPER.ctypes, size.ctypes, vectors.ctypes, size.ctypes,
           values.ctypes, work.ctypes, work_length.ctypes, info.ctypes)
    return values, vectors.T, info[0]  # column-major, as scipy's


@njit(cache=True, nogil=True)
def _unit_normal(w):
    """:func:`~.geometric._unit_normal`: ``w`` scaled to a unit non-bias part; ``found``
    False when it has none."""
    head = np.ascontiguousarray(w[:-1])
    norm = np.sqrt(np.dot(head, head))
    if norm <= 1e-12 * np.sqrt(np.dot(w, w)):
        return w, False
    return w / norm, True


@njit(cache=True, nogil=True)
def _full_rank_directions(G, H, tolerance, screen):
    """:func:`~.geometric._full_rank_directions`: ``(status, w̃1, w̃2)``, status 1 when G
    and H are of full rank at ``tolerance``, 0 when not (``screen``:
    :func:`~.geometric._clearly_rank_deficient` first), 3 when LAPACK failed."""
    size = G.shape[0]
    empty = np.empty(0)
    if screen:
        values, _, info = symmetric_eigen(G, False)
        if info == 0 and values[0] <= 0.5 * tolerance * max(values[size - 1], _TINY):
            return 0, empty, empty
    g_values, g_vectors, info = symmetric_eigen(G, True)
    if info != 0:
        return 3, empty, empty
    if not g_values[0] > tolerance * max(g_values[size - 1], _TINY):
        return 0, empty, empty
    # g_vectors / sqrt(g_values), column-major as numpy's: the same BLAS calls below
    whitening = (g_vectors.T / np.sqrt(g_values)[:, None]).T
    m_values, m_vectors, info = symmetric_eigen(whitening.T @ H @ whitening, True)
    if info != 0:
        return 3, empty, empty
    if not m_values[0] > tolerance * max(m_values[size - 1], _TINY):
        return 0, empty, empty
    return (1, whitening @ np.ascontiguousarray(m_vectors[:, size - 1]),
            whitening @ np.ascontiguousarray(m_vectors[:, 0]))


@njit(cache=True, nogil=True)
def _equilibration_moments(diagonal, last_column):
    """:func:`~.geometric._equilibration_moments`: ``(found, mean, spread)``."""
    size = diagonal.shape[0]
    weight = last_column[size - 1]
    if not weight > 0:
        return False, diagonal[:0], diagonal[:0]
    mean = last_column[:-1] / weight
    second_moment = diagonal[:-1] / weight
    spread = np.sqrt(np.maximum(second_moment - mean * mean, 0.0))
    for j in range(size - 1):
        if (spread[j] <= 1e-12 * max(abs(mean[j]), 1.0)
                or spread[j] <= 1e-6 * np.sqrt(second_moment[j])):
            spread[j] = 1.0
    return True, mean, spread


@njit(cache=True, nogil=True)
def _equilibration(G, H):
    """:func:`~.geometric._equilibration`: ``A`` with ``A x̃ = [(x − m) / s, 1]``."""
    mixture = (G + H) / 2
    size = mixture.shape[0]
    A = np.eye(size)
    found, mean, spread = _equilibration_moments(np.diag(mixture).copy(),
                                                 np.ascontiguousarray(mixture[:, size - 1]))
    if found:
        for j in range(size - 1):
            A[j, j] = 1.0 / spread[j]
            A[j, size - 1] = -mean[j] / spread[j]
    return A


@njit(cache=True, nogil=True)
def gdt_node_split(Z, positive, weights, unit_weights, n_positive, n_negative,
                   well_conditioned, rank_tolerance, screen_direct, screen_equilibrated,
                   largest_row_norm):
    """A GDT node's split (Algorithm 2, one node) from its augmented rows ``Z`` (S+ the
    rows in ``positive``, row weights ``weights``, all 1 when ``unit_weights``): the numpy
    code's ``G`` and ``H`` (``/ n_positive``, ``/ n_negative``), the clustering
    hyperplanes of :func:`~.geometric._clustering_directions` (the direct attempt at
    ``well_conditioned``, then the equilibrated one and Section II-B's null-space method
    at ``rank_tolerance``; ``screen_*``: :func:`~.geometric._clearly_rank_deficient`
    first), scaled to unit normals, and :func:`gdt_best_bisector`.

    Returns ``(status, w, G, H, direct, equilibrated)``: status 1, ``w`` the chosen
    bisector (standardised, augmented); 2, no split; 3, LAPACK failed (the caller solves
    it in numpy from ``G`` and ``H``).  ``direct``: whether the direct attempt found G and
    H of full rank; ``equilibrated``: the same for the equilibrated attempt (-1: not
    made), for the :class:`~.geometric.RankHistory`.
    """
    if unit_weights:
        G = gram(np.ascontiguousarray(Z[positive]))
        H = gram(Z) - G
    else:
        weighted = Z * weights.reshape(-1, 1)
        G = np.ascontiguousarray(weighted[positive]).T @ np.ascontiguousarray(Z[positive])
        H = weighted.T @ Z - G
    G /= n_positive
    H /= n_negative
    status, w, direct, equilibrated = _split_of(
        Z, positive, weights, G, H, np.eye(0), Z[:0], np.empty(0), well_conditioned,
        rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm)
    return status, w, G, H, direct, equilibrated


@njit(cache=True, nogil=True)
def gdt_row_span_split(Z, positive, weights, share, basis, G, H, well_conditioned,
                       rank_tolerance, screen_direct, screen_equilibrated,
                       largest_row_norm):
    """:func:`gdt_node_split` for a node with fewer rows than columns, from
    :func:`gdt_row_span`'s ``basis`` and its scaled ``G`` and ``H`` (the equilibration
    of :func:`gdt_row_span_equilibration`, from the rows' ``share``s).  Returns
    ``(status, w, direct, equilibrated)`` as :func:`gdt_node_split`."""
    return _split_of(Z, positive, weights, G, H, basis, Z, share, well_conditioned,
                     rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm)


@njit(cache=True, nogil=True)
def _split_of(Z, positive, weights, G, H, basis, span_rows, share, well_conditioned,
              rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm):
    """The clustering hyperplanes of ``G`` and ``H`` (in the coordinates of ``basis``
    when it has columns, :func:`gdt_row_span`; its equilibration from ``span_rows`` and
    ``share``), as unit normals, and :func:`gdt_best_bisector`."""
    empty = np.empty(0)
    status, w1, w2 = _full_rank_directions(G, H, well_conditioned, screen_direct)
    direct, equilibrated = status == 1, -1
    if status == 0:
        if basis.shape[1]:
            A = gdt_row_span_equilibration(span_rows, share, basis)
        else:
            A = _equilibration(G, H)
        status, w1, w2 = gdt_rank_deficient_directions(G, H, A, rank_tolerance,
                                                       screen_equilibrated)
        equilibrated = 1 if status == 1 else 0
        status = 1 if status != 0 else 3
    if status == 3:
        return 3, empty, direct, equilibrated
    if basis.shape[1]:
        w1, w2 = basis @ w1, basis @ w2
    w1, found1 = _unit_normal(w1)
    w2, found2 = _unit_normal(w2)
    if not (found1 or found2):
        return 2, empty, direct, equilibrated
    w, found = gdt_best_bisector(Z, positive, weights, w1 if found1 else w2,
                                 w2 if found2 else w1, found1 and found2,
                                 largest_row_norm)
    return (1 if found else 2), w, direct, equilibrated


@njit(cache=True, nogil=True)
def gdt_best_bisector(Z, positive, weights, w1, w2, both, largest_row_norm):
    """:meth:`~.geometric.GeometricSplitter.best_candidate` compiled: of the angle
    bisectors ``w̃1 ± w̃2`` of the clustering hyperplanes (Eqs. 4-5; only ``w1`` when
    ``both`` is False) the one of lowest Gini index (Eq. 6) over the augmented rows ``Z``
    that sends rows to both sides, moved clear of rows it passes through.  Returns
    ``(w, found)``.

    The numpy code's operations in the same order (see the section's note on rounding).
    """
    n, size = Z.shape
    candidates = np.empty((2, size))
    if both:
        dot = 0.0
        for j in range(size - 1):
            dot += w2[j] * w1[j]
        sign = -1.0 if dot < 0 else 1.0
        spread = 0.0
        for j in range(size):
            candidates[0, j] = w1[j] + sign * w2[j]
            candidates[1, j] = w1[j] - sign * w2[j]
            if j < size - 1:
                spread += candidates[1, j] * candidates[1, j]
        m = 2 if spread > 1e-16 else 1
        # the non-bias parts are unit vectors: ‖w̃1 ± w̃2‖ ≤ ‖w̃1‖ + ‖w̃2‖
        norm_bound = (np.sqrt(1.0 + w1[size - 1] ** 2) + np.sqrt(1.0 + w2[size - 1] ** 2))
    else:
        for j in range(size):
            candidates[0, j] = w1[j]
        m = 1
        norm_bound = np.sqrt(1.0 + w1[size - 1] ** 2)
    for i in range(m):  # the largest coefficient positive
        largest = 0
        for j in range(1, size - 1):
            if abs(candidates[i, j]) > abs(candidates[i, largest]):
                largest = j
        if candidates[i, largest] < 0:
            for j in range(size):
                candidates[i, j] = -candidates[i, j]
    slack = 1e-9 * largest_row_norm * norm_bound
    # the numpy code's product, with the same layouts: the same BLAS call, the same values
    values = np.ascontiguousarray(Z) @ np.ascontiguousarray(candidates[:m]).T
    right = np.zeros((2, m))      # weight of S+ and S− on the right of each candidate
    n_right = np.zeros(m)
    total_positive, total_negative = 0.0, 0.0
    for r in range(n):
        positive_weight = weights[r] * positive[r]
        negative_weight = weights[r] - positive_weight
        total_positive += positive_weight
        total_negative += negative_weight
        for i in range(m):
            value = values[r, i]
            if value >= -slack:
                right[0, i] += positive_weight
                right[1, i] += negative_weight
                n_right[i] += 1
    gini = np.empty(m)
    for i in range(m):
        left_positive = total_positive - right[0, i]
        left_negative = total_negative - right[1, i]
        n_left, n_right_weight = left_positive + left_negative, right[0, i] + right[1, i]
        gini_left = n_left - (left_positive ** 2 + left_negative ** 2) / max(n_left, _TINY)
        gini_right = n_right_weight - (right[0, i] ** 2 + right[1, i] ** 2) / max(
            n_right_weight, _TINY)
        gini[i] = (gini_left + gini_right) / (n_left + n_right_weight)
    first = 1 if m == 2 and gini[1] < gini[0] else 0
    for best in (first, 1 - first):
        if best >= m or not 0 < n_right[best] < n:
            continue
        w = candidates[best].copy()
        closest, largest_left, smallest_right = np.inf, -np.inf, np.inf
        for r in range(n):
            value = values[r, best]
            closest = min(closest, abs(value))
            if value >= -slack:
                smallest_right = min(smallest_right, value)
            else:
                largest_left = max(largest_left, value)
        if closest <= slack:  # through rows: midway between the two sides' nearest rows
            w[size - 1] -= (largest_left + smallest_right) / 2
        return w, True
    return candidates[0].copy(), False


@njit(cache=True, nogil=True)
def gdt_raw_hyperplane(w, mean, scale, zero_columns):
    """:meth:`~.geometric.GeometricSplitter.to_raw_units`: the hyperplane ``w`` over the
    standardised features ``(x − mean) / scale`` in raw units, ``(weights, bias)`` with a
    unit normal whose largest coefficient is positive (zero columns get weight 0)."""
    weights = w[:-1] / scale
    for j in range(weights.shape[0]):
        if zero_columns[j]:
            weights[j] = 0.0
    bias = w[w.shape[0] - 1] - np.dot(weights, mean)
    norm = np.sqrt(np.dot(weights, weights)) * np.sign(weights[np.argmax(np.abs(weights))])
    return weights / norm, bias / norm


@njit(cache=True, nogil=True)
def _null_count(values, tolerance):
    """How many of the ascending ``values`` count as zero (:func:`~.geometric._is_null`)."""
    threshold = tolerance * max(values[values.shape[0] - 1], _TINY)
    count = 0
    for value in values:
        if value <= threshold:
            count += 1
    return count


@njit(cache=True, nogil=True)
def _principal(matrix):
    """The eigenvector of the largest eigenvalue of a symmetric ``matrix`` (dsyev);
    ``found`` False when LAPACK fails."""
    values, vectors, info = symmetric_eigen(matrix, True)
    return np.ascontiguousarray(vectors[:, vectors.shape[1] - 1]), info == 0


@njit(cache=True, nogil=True)
def _maximise_ratio_with_nullity(numerator, denominator_values, denominator_vectors,
                                 nullity):
    """:func:`~.geometric._maximise_ratio_with_nullity` from the denominator's
    eigendecomposition; ``found`` False when LAPACK fails."""
    if nullity > 0:
        null_basis = np.asfortranarray(denominator_vectors[:, :nullity])
        direction, found = _principal(null_basis.T @ numerator @ null_basis)
        return null_basis @ direction, found
    # vectors / sqrt(max(values, tiny)), column-major as numpy's
    whitening = (denominator_vectors.T
                 / np.sqrt(np.maximum(denominator_values, _TINY))[:, None]).T
    direction, found = _principal(whitening.T @ numerator @ whitening)
    return whitening @ direction, found


@njit(cache=True, nogil=True)
def gdt_rank_deficient_directions(G, H, A, tolerance, screen):
    """:func:`~.geometric._clustering_directions` after its first attempt failed (G or H
    rank deficient in the given coordinates): the attempt in the coordinates of the
    equilibration ``A`` (``screen``: :func:`~.geometric._clearly_rank_deficient` first),
    then Section II-B's null-space method.

    Returns ``(status, w̃1, w̃2)`` unnormalised: status 1 when the equilibrated attempt
    found G and H of full rank, 2 when the null-space method was needed, 0 when LAPACK
    failed (the caller solves it again in numpy, whose ``eigh`` stands in).
    """
    size = G.shape[0]
    empty = np.empty(0)
    G_e = A @ G @ A.T
    H_e = A @ H @ A.T
    full_rank = True
    if screen:
        values, _, info = symmetric_eigen(G_e, False)
        full_rank = not (info == 0 and values[0] <= 0.5 * tolerance * max(
            values[size - 1], _TINY))
    if full_rank:
        g_values, g_vectors, info = symmetric_eigen(G_e, True)
        if info != 0:
            return 0, empty, empty
        full_rank = g_values[0] > tolerance * max(g_values[size - 1], _TINY)
    if full_rank:
        whitening = (g_vectors.T / np.sqrt(g_values)[:, None]).T
        m_values, m_vectors, info = symmetric_eigen(whitening.T @ H_e @ whitening, True)
        if info != 0:
            return 0, empty, empty
        if m_values[0] > tolerance * max(m_values[size - 1], _TINY):
            w1 = whitening @ np.ascontiguousarray(m_vectors[:, size - 1])
            w2 = whitening @ np.ascontiguousarray(m_vectors[:, 0])
            return 1, A.T @ w1, A.T @ w2
    both_values, both_vectors, info = symmetric_eigen(G_e + H_e, True)
    _, all_vectors, info_all = symmetric_eigen(G + H, True)
    if info != 0 or info_all != 0:
        return 0, empty, empty
    skip = _null_count(both_values, tolerance)
    basis = np.asfortranarray(all_vectors[:, skip:])
    basis_e = np.asfortranarray(both_vectors[:, skip:])
    directions = []
    for pair in range(2):
        numerator, denominator = (H, G) if pair == 0 else (G, H)
        numerator_e, denominator_e = (H_e, G_e) if pair == 0 else (G_e, H_e)
        within_e = basis_e.T @ denominator_e @ basis_e
        e_values, e_vectors, info = symmetric_eigen(within_e, True)
        if info != 0:
            return 0, empty, empty
        nullity = _null_count(e_values, tolerance)
        if nullity > 0:
            within = basis.T @ denominator @ basis
            d_values, d_vectors, info = symmetric_eigen(within, True)
            if info != 0:
                return 0, empty, empty
            inner, found = _maximise_ratio_with_nullity(basis.T @ numerator @ basis,
                                                        d_values, d_vectors, nullity)
            w = basis @ inner
        else:
            inner, found = _maximise_ratio_with_nullity(
                basis_e.T @ numerator_e @ basis_e, e_values, e_vectors, 0)
            w_e = basis_e @ inner
            w = basis @ (basis.T @ (A.T @ w_e))  # back, within range(G + H)
        if not found:
            return 0, empty, empty
        directions.append(w)
    return 2, directions[0], directions[1]


@njit(cache=True, nogil=True)
def gdt_row_span(Z, positive, weights):
    """The first steps of :func:`~.geometric.row_span_hyperplanes`: the orthonormal basis
    ``U`` of the span of the rows ``Z`` (right singular vectors above rounding noise) and
    the weighted scatter matrices of S+ (``positive``) and of S− in it, ``(U, G, H)``
    unscaled."""
    _, singular, right = np.linalg.svd(Z, full_matrices=False)
    keep = singular > singular[0] * max(Z.shape[0], Z.shape[1]) * np.finfo(np.float64).eps
    basis = np.ascontiguousarray(right[keep]).T
    coordinates = Z @ basis
    weighted = coordinates * weights.reshape(-1, 1)
    scatter = weighted.T @ coordinates
    G = np.ascontiguousarray(weighted[positive]).T @ np.ascontiguousarray(
        coordinates[positive])
    return basis, G, scatter - G


@njit(cache=True, nogil=True)
def gdt_row_span_equilibration(Z, share, basis):
    """The equilibration of :func:`~.geometric.row_span_hyperplanes` (the triangle
    ``R_A`` of ``A U = U_A R_A``), the rows ``Z`` weighted by ``share``."""
    n, size = Z.shape
    diagonal = np.zeros(size)
    for i in range(n):  # einsum("i,ij,ij->j", share, Z, Z), in its order
        for j in range(size):
            diagonal[j] += share[i] * Z[i, j] * Z[i, j]
    found, mean, spread = _equilibration_moments(diagonal, np.dot(share, Z))
    in_basis = np.ascontiguousarray(basis)
    if found:
        for j in range(size - 1):
            for k in range(in_basis.shape[1]):
                in_basis[j, k] -= mean[j] * basis[size - 1, k]
                in_basis[j, k] /= spread[j]
    return np.ascontiguousarray(np.linalg.qr(in_basis)[1])  # C, as numpy's
