"""Compiled kernels (numba) of GDT's node split (Manwani & Sastry, Section II)."""
import numpy as np

from .kernels import _TINY, AVAILABLE, njit

if AVAILABLE:  # pragma: no cover - without numba nothing below is called
    import llvmlite.binding as _llvm
    from numba import types as _types

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
    from numba.extending import get_cython_function_address as _cython_function

    # external symbols (not ctypes pointers), so that the kernels can be cached
    _llvm.add_symbol("oblique_gdt_dsyev",
                     _cython_function("scipy.linalg.cython_lapack", "dsyev"))
    _llvm.add_symbol("oblique_gdt_dsyrk",
                     _cython_function("scipy.linalg.cython_blas", "dsyrk"))
    # dsyev's own steps (symmetric_eigen_first / symmetric_eigen_then)
    for _name in ("dsytrd", "dorgtr", "dsteqr", "dsterf"):
        _llvm.add_symbol("oblique_gdt_" + _name,
                         _cython_function("scipy.linalg.cython_lapack", _name))
    _dsyev = _types.ExternalFunction("oblique_gdt_dsyev", _types.void(*[_types.voidptr] * 9))
    _dsyrk = _types.ExternalFunction("oblique_gdt_dsyrk", _types.void(*[_types.voidptr] * 10))
    _dsytrd = _types.ExternalFunction("oblique_gdt_dsytrd",
                                      _types.void(*[_types.voidptr] * 10))
    _dorgtr = _types.ExternalFunction("oblique_gdt_dorgtr", _types.void(*[_types.voidptr] * 8))
    _dsteqr = _types.ExternalFunction("oblique_gdt_dsteqr", _types.void(*[_types.voidptr] * 8))
    _dsterf = _types.ExternalFunction("oblique_gdt_dsterf", _types.void(*[_types.voidptr] * 4))
else:  # pragma: no cover
    _dsyev = _dsyrk = _dsytrd = _dorgtr = _dsteqr = _dsterf = None

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


#: dsyev scales a matrix whose largest |entry| is outside [sqrt(smlnum), sqrt(bignum)]
#: (about 1e-146 and 1e146); well inside these bounds its steps are called one by one.
_UNSCALED_RANGE = (1e-140, 1e140)


@njit(cache=True, nogil=True)
def symmetric_eigen_first(matrix):
    """``dsyev(matrix, compute_v=0)``'s eigenvalues and ``info`` (as
    :func:`symmetric_eigen` without vectors, to the bit), and the state for
    :func:`symmetric_eigen_then`, which completes ``dsyev(matrix, compute_v=1)`` from the
    same tridiagonal reduction.

    dsyev is ``dsytrd`` (the reduction to tridiagonal form, the same with or without
    vectors), then ``dsterf`` (eigenvalues only) or ``dorgtr`` and ``dsteqr`` (with
    vectors), with dsyev's workspace split and lengths (``lwork = 3n − 1``): the same calls
    on the same numbers, so the same results.  A matrix dsyev would scale first (its
    largest entry outside :data:`_UNSCALED_RANGE`, or not finite) and ``n < 2`` go to
    :func:`symmetric_eigen` itself, twice."""
    n = matrix.shape[0]
    reduced = matrix.T.copy()  # column-major, as symmetric_eigen's
    work = np.empty(max(3 * n - 1, 1))
    diagonal = np.empty(n)
    largest = 0.0  # dlansy("M", "U"): the largest |entry| of the upper triangle
    finite = True
    for j in range(n):
        for i in range(j + 1):
            value = abs(matrix[i, j])
            if not value <= 1e308:
                finite = False
            largest = max(largest, value)
    direct = n >= 2 and finite and (largest == 0.0 or _UNSCALED_RANGE[0] <= largest
                                    <= _UNSCALED_RANGE[1])
    if not direct:
        values, _, info = symmetric_eigen(matrix, False)
        return values, info, reduced, diagonal, work, False
    size = np.array([n], dtype=np.int32)
    length = np.array([n - 1], dtype=np.int32)  # dsyev's llwork
    info = np.zeros(1, dtype=np.int32)
    # work = [e (n) | tau (n) | dsytrd's and dorgtr's workspace (n - 1)], as dsyev's
    _dsytrd(_UPPER.ctypes, size.ctypes, reduced.ctypes, size.ctypes, diagonal.ctypes,
            work.ctypes, work[n:].ctypes, work[2 * n:].ctypes, length.ctypes, info.ctypes)
    values = diagonal.copy()
    off_diagonal = work[:n].copy()
    _dsterf(size.ctypes, values.ctypes, off_diagonal.ctypes, info.ctypes)
    return values, info[0], reduced, diagonal, work, True


@njit(cache=True, nogil=True)
def symmetric_eigen_then(matrix, reduced, diagonal, work, direct):
    """``dsyev(matrix, compute_v=1)`` (:func:`symmetric_eigen` with vectors, to the bit)
    after :func:`symmetric_eigen_first` (its last four results): dsyev's ``dorgtr`` and
    ``dsteqr`` on the reduction already made."""
    if not direct:
        return symmetric_eigen(matrix, True)
    n = matrix.shape[0]
    size = np.array([n], dtype=np.int32)
    length = np.array([n - 1], dtype=np.int32)
    info = np.zeros(1, dtype=np.int32)
    _dorgtr(_UPPER.ctypes, size.ctypes, reduced.ctypes, size.ctypes, work[n:].ctypes,
            work[2 * n:].ctypes, length.ctypes, info.ctypes)
    _dsteqr(_JOBS[1:].ctypes, size.ctypes, diagonal.ctypes, work.ctypes, reduced.ctypes,
            size.ctypes, work[n:].ctypes, info.ctypes)
    return diagonal, reduced.T, info[0]


@njit(cache=True, nogil=True)
def _screened_eigen(matrix, tolerance, screen):
    """``(deficient, values, vectors, info)``: with ``screen``, the eigenvalues alone
    first (:func:`symmetric_eigen_first`), and ``deficient`` True without vectors where
    they show the matrix clearly rank deficient at ``tolerance``
    (:func:`~.geometric._clearly_rank_deficient`); otherwise dsyev with vectors (the
    reduction shared with the screen)."""
    if not screen:
        values, vectors, info = symmetric_eigen(matrix, True)
        return False, values, vectors, info
    values, info, reduced, diagonal, work, direct = symmetric_eigen_first(matrix)
    if info == 0 and values[0] <= 0.5 * tolerance * max(values[values.shape[0] - 1], _TINY):
        return True, values, np.empty((0, 0)).T, info  # (F-ordered, as dsyev's)
    values, vectors, info = symmetric_eigen_then(matrix, reduced, diagonal, work, direct)
    return False, values, vectors, info


@njit(cache=True, nogil=True)
def _clear_null_count(values, info, tolerance):
    """:func:`_null_count` from dsyev's eigenvalues without vectors where no eigenvalue is
    near the threshold (none within a factor of 2 of ``tolerance · λ_max``): then the
    eigenvalues with vectors, which differ by some (d+1)·ε·λ_max, give the same count;
    −1 where that is not clear (or LAPACK failed)."""
    if info != 0:
        return -1
    threshold = tolerance * max(values[values.shape[0] - 1], _TINY)
    count = 0
    for value in values:
        if value <= 0.5 * threshold:
            count += 1
        elif not value > 2.0 * threshold:
            return -1
    return count


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
    deficient, g_values, g_vectors, info = _screened_eigen(G, tolerance, screen)
    if deficient:
        return 0, empty, empty
    if info != 0:
        return 3, empty, empty
    if not g_values[0] > tolerance * max(g_values[size - 1], _TINY):
        return 0, empty, empty
    # g_vectors / sqrt(g_values), column-major as numpy's: the same BLAS calls below
    whitening = (g_vectors.T / np.sqrt(g_values)[:, None]).T
    deficient, m_values, m_vectors, info = _screened_eigen(whitening.T @ H @ whitening,
                                                           tolerance, screen)
    if deficient:
        return 0, empty, empty
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
                   largest_row_norm, singular):
    """A GDT node's split (Algorithm 2, one node) from its augmented rows ``Z`` (S+ the
    rows in ``positive``, row weights ``weights``, all 1 when ``unit_weights``): the numpy
    code's ``G`` and ``H`` (``/ n_positive``, ``/ n_negative``), the clustering
    hyperplanes of :func:`~.geometric._clustering_directions` (the direct attempt at
    ``well_conditioned``, then the equilibrated one and Section II-B's null-space method
    at ``rank_tolerance``; ``screen_*``: :func:`~.geometric._clearly_rank_deficient`
    first; ``singular``: G or H has fewer rows than its size, so that neither attempt is
    made, :func:`~.geometric.singular_by_rows`), scaled to unit normals, and
    :func:`gdt_best_bisector`.

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
        rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm, singular)
    return status, w, G, H, direct, equilibrated


@njit(cache=True, nogil=True)
def gdt_row_span_split(Z, positive, weights, share, basis, G, H, well_conditioned,
                       rank_tolerance, screen_direct, screen_equilibrated,
                       largest_row_norm, singular):
    """:func:`gdt_node_split` for a node with fewer rows than columns, from
    :func:`gdt_row_span`'s ``basis`` and its scaled ``G`` and ``H`` (the equilibration
    of :func:`gdt_row_span_equilibration`, from the rows' ``share``s).  Returns
    ``(status, w, direct, equilibrated)`` as :func:`gdt_node_split`."""
    return _split_of(Z, positive, weights, G, H, basis, Z, share, well_conditioned,
                     rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm,
                     singular)


@njit(cache=True, nogil=True)
def _split_of(Z, positive, weights, G, H, basis, span_rows, share, well_conditioned,
              rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm,
              singular):
    """The clustering hyperplanes of ``G`` and ``H`` (in the coordinates of ``basis``
    when it has columns, :func:`gdt_row_span`; its equilibration from ``span_rows`` and
    ``share``), as unit normals, and :func:`gdt_best_bisector`; ``singular``: no
    full-rank attempt (:func:`~.geometric.singular_by_rows`)."""
    empty = np.empty(0)
    status, w1, w2 = 0, empty, empty
    if not singular:
        status, w1, w2 = _full_rank_directions(G, H, well_conditioned, screen_direct)
    direct, equilibrated = status == 1, -1
    if status == 0:
        if basis.shape[1]:
            A = gdt_row_span_equilibration(span_rows, share, basis)
        else:
            A = _equilibration(G, H)
        status, w1, w2 = gdt_rank_deficient_directions(G, H, A, rank_tolerance,
                                                       screen_equilibrated, singular)
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
def _singular_by_rows(positive, weights, unit_weights, size):
    """:func:`~.geometric.singular_by_rows` (``weights`` None: ``unit_weights``)."""
    rows_positive, rows = 0, 0
    for i in range(positive.shape[0]):
        if unit_weights or weights[i] > 0:
            rows += 1
            if positive[i]:
                rows_positive += 1
    return min(rows_positive, rows - rows_positive) < size


@njit(cache=True, nogil=True)
def _screen(attempt, size, full_rank, rank_deficient, smallest_screened):
    """:meth:`~.geometric.RankHistory.screen` from the history's counts."""
    return size >= smallest_screened and rank_deficient[attempt] >= full_rank[attempt]


@njit(cache=True, nogil=True)
def gdt_node(augmented, y, sample_weight, rows, majority, unit_weights, n_positive,
             n_negative, well_conditioned, rank_tolerance, full_rank, rank_deficient,
             smallest_screened, largest_row_norm, mean, scale, zero_columns):
    """:meth:`~.geometric.GeometricSplitter.__call__`'s compiled steps in one call, from
    the fit's augmented rows and the node's ``rows``: the node's rows ``Z``, S+ (class
    ``majority``) and weights gathered as numpy's indexing gathers them, then
    :func:`gdt_row_span` and :func:`gdt_row_span_split` (fewer rows than columns) or
    :func:`gdt_node_split`, the screens of the :class:`~.geometric.RankHistory` (its
    counts ``full_rank`` and ``rank_deficient``; matrices of at least
    ``smallest_screened`` rows) and :func:`gdt_raw_hyperplane`.

    Returns ``(status, raw_weights, raw_bias, direct, equilibrated)`` as
    :func:`gdt_node_split` (status 3: LAPACK failed, the caller takes the steps one by
    one, its numpy code standing in)."""
    n, size = rows.shape[0], augmented.shape[1]
    Z = np.empty((n, size))
    positive = np.empty(n, dtype=np.bool_)
    weights = np.empty(n)
    for i in range(n):
        row = rows[i]
        for j in range(size):
            Z[i, j] = augmented[row, j]
        positive[i] = y[row] == majority
        weights[i] = 1.0 if unit_weights else sample_weight[row]
    empty = np.empty(0)
    if n < size:
        # fewer rows than features: G and H live in the span of the rows
        positive_share, negative_share = 0.5 / n_positive, 0.5 / n_negative
        share = np.empty(n)
        for i in range(n):
            share[i] = weights[i] * (positive_share if positive[i] else negative_share)
        basis, G, H = gdt_row_span(Z, positive, weights)
        G, H = G / n_positive, H / n_negative
        m = G.shape[0]
        status, w, direct, equilibrated = gdt_row_span_split(
            Z, positive, weights, share, basis, G, H, well_conditioned, rank_tolerance,
            _screen(0, m, full_rank, rank_deficient, smallest_screened),
            _screen(1, m, full_rank, rank_deficient, smallest_screened),
            largest_row_norm, _singular_by_rows(positive, weights, unit_weights, m))
    else:
        status, w, _, _, direct, equilibrated = gdt_node_split(
            Z, positive, weights, unit_weights, n_positive, n_negative, well_conditioned,
            rank_tolerance, _screen(0, size, full_rank, rank_deficient, smallest_screened),
            _screen(1, size, full_rank, rank_deficient, smallest_screened),
            largest_row_norm, _singular_by_rows(positive, weights, unit_weights, size))
    if status != 1:
        return status, empty, 0.0, direct, equilibrated
    raw_weights, raw_bias = gdt_raw_hyperplane(w, mean, scale, zero_columns)
    return status, raw_weights, raw_bias, direct, equilibrated


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
def gdt_rank_deficient_directions(G, H, A, tolerance, screen, singular):
    """:func:`~.geometric._clustering_directions` after its first attempt failed (G or H
    rank deficient in the given coordinates): the attempt in the coordinates of the
    equilibration ``A`` (``screen``: :func:`~.geometric._clearly_rank_deficient` first;
    none when ``singular``, :func:`~.geometric.singular_by_rows`), then Section II-B's
    null-space method.

    Returns ``(status, w̃1, w̃2)`` unnormalised: status 1 when the equilibrated attempt
    found G and H of full rank, 2 when the null-space method was needed, 0 when LAPACK
    failed (the caller solves it again in numpy, whose ``eigh`` stands in).
    """
    size = G.shape[0]
    empty = np.empty(0)
    G_e = A @ G @ A.T
    H_e = A @ H @ A.T
    if not singular:
        deficient, g_values, g_vectors, info = _screened_eigen(G_e, tolerance, screen)
        full_rank = not deficient
        if full_rank:
            if info != 0:
                return 0, empty, empty
            full_rank = g_values[0] > tolerance * max(g_values[size - 1], _TINY)
        if full_rank:
            whitening = (g_vectors.T / np.sqrt(g_values)[:, None]).T
            deficient, m_values, m_vectors, info = _screened_eigen(
                whitening.T @ H_e @ whitening, tolerance, screen)
            if not deficient and info != 0:
                return 0, empty, empty
            if not deficient and m_values[0] > tolerance * max(m_values[size - 1], _TINY):
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
        # its eigenvectors serve only where it is of full rank (nullity 0): the count
        # from the eigenvalues alone where it is clear and not 0, else dsyev with vectors
        values, info, reduced, diagonal, work, direct = symmetric_eigen_first(within_e)
        nullity = _clear_null_count(values, info, tolerance)
        e_values, e_vectors = values, np.empty((0, 0)).T
        if nullity <= 0:
            e_values, e_vectors, info = symmetric_eigen_then(within_e, reduced, diagonal,
                                                             work, direct)
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
