"""Compiled kernels (numba) of the pass after growing a tree of hyperplanes."""
import numpy as np

from .kernels import AVAILABLE, njit

if AVAILABLE:  # pragma: no cover - without numba nothing below is called
    import llvmlite.binding as _llvm
    from numba import types as _types

# ----- The pass after growing (and growing's step) for a tree of hyperplanes -----
#
# :meth:`~.tree.ObliqueTree.calibrate_text_and_scales` (and ``calibrate_text``,
# ``store_feature_scales``) for a tree whose every split is a hyperplane (one row of
# weights) in one kernel call (:func:`calibration_pass`): the training rows reaching every
# split, :meth:`~.splits.Split.drop_negligible_terms`,
# :meth:`~.splits.Split.calibrate_digits` and the feature scales of
# :func:`~.tree._weighted_deviation`, with the Python code's results to the bit:
#
# * every matrix product is the call that numpy's ``matmul`` makes for the Python code's
#   C-ordered blocks, to numpy's own BLAS (its ``cblas_dgemv`` and ``cblas_ddot``, found
#   through numpy's extension module; numpy's arguments): the same routine on the same
#   numbers.  Sums over rows are numpy's pairwise summation (:func:`numpy_sum`), and all
#   else is one IEEE operation per element, as in numpy's ufuncs.
# * numbers are rounded to significant digits as :func:`~.splits.round_significant` rounds
#   them where the arithmetic is provably the same (:func:`round_as_text`,
#   :func:`round_as_numpy`); where it is not (a product on a halfway point, 16 or 17
#   digits, extreme magnitudes) the kernel leaves the split's digits from there on to the
#   Python code (``resume``).
#
# :func:`hyperplane_partition`, at the end, is :func:`~.tree.grow_tree`'s step at a
# hyperplane (the sides' rows and the children's class counts) by the same means.
#
# Without numpy's BLAS symbols (another build of numpy) :data:`PASS_AVAILABLE` is False
# and the Python code runs.

PASS_AVAILABLE = False
if AVAILABLE:  # pragma: no cover - without numba nothing below is called
    def _numpy_blas_address(names):
        """The address of the first of ``names`` that numpy's extension module (or a
        library it loaded, such as its OpenBLAS) exports, or None."""
        import ctypes
        from numpy._core import _multiarray_umath
        library = ctypes.CDLL(_multiarray_umath.__file__)
        for name in names:
            try:
                return ctypes.cast(getattr(library, name), ctypes.c_void_p).value
            except AttributeError:
                continue
        return None

    try:
        # ILP64 (64-bit integers): numpy's own wheels since numpy 2.0
        _gemv_address = _numpy_blas_address(("scipy_cblas_dgemv64_", "cblas_dgemv64_"))
        _dot_address = _numpy_blas_address(("scipy_cblas_ddot64_", "cblas_ddot64_"))
    except (ImportError, OSError):  # another build of numpy: the Python code
        _gemv_address = _dot_address = None
    if _gemv_address and _dot_address:
        _llvm.add_symbol("oblique_pass_numpy_dgemv", _gemv_address)
        _llvm.add_symbol("oblique_pass_numpy_ddot", _dot_address)
        _i32, _i64, _f64, _pointer = _types.int32, _types.int64, _types.float64, _types.voidptr
        _numpy_dgemv = _types.ExternalFunction(
            "oblique_pass_numpy_dgemv",
            _types.void(_i32, _i32, _i64, _i64, _f64, _pointer, _i64, _pointer, _i64, _f64,
                        _pointer, _i64))
        _numpy_ddot = _types.ExternalFunction(
            "oblique_pass_numpy_ddot", _f64(_i64, _pointer, _i64, _pointer, _i64))
        PASS_AVAILABLE = True

#: CBLAS's codes of row-major, column-major and transposed.
_ROW_MAJOR, _COLUMN_MAJOR, _TRANSPOSED = 101, 102, 112
#: 10^0 .. 10^22, every one exactly a double.
_POWERS_OF_TEN = np.array([float(10 ** k) for k in range(23)])
#: Whether numpy's ``10.0 ** k`` is exact for |k| ≤ 22 (the scale of
#: ``round_significant``'s vectorised arithmetic); if not, :func:`round_as_numpy` leaves
#: every number to the Python code.
NUMPY_POWERS_EXACT = bool(np.array_equal(10.0 ** np.abs(np.arange(-22.0, 23.0)),
                                         np.concatenate([_POWERS_OF_TEN[:0:-1],
                                                         _POWERS_OF_TEN])))


@njit(cache=True, nogil=True)
def numpy_matvec(block, w, out):
    """``out[:] = block @ w`` as numpy's ``matmul`` computes ``X[rows] @ weights.T`` for a
    C-contiguous ``block`` (m, d) and a contiguous ``w`` (d,): one row, ``0 + ddot``; one
    column, ``0 + x·w`` per row; else ``dgemv`` (column-major, transposed)."""
    m, d = block.shape
    if m == 0:
        return
    if m == 1:
        out[0] = 0.0 + _numpy_ddot(d, block.ctypes, 1, w.ctypes, 1)
    elif d == 1:
        for i in range(m):
            out[i] = 0.0 + block[i, 0] * w[0]
    else:
        _numpy_dgemv(np.int32(_COLUMN_MAJOR), np.int32(_TRANSPOSED), d, m, 1.0, block.ctypes,
                     d, w.ctypes, 1, 0.0, out.ctypes, 1)


@njit(cache=True, nogil=True)
def numpy_vecmat(v, block, out):
    """``out[:] = v @ block`` as numpy's ``matmul`` computes ``row_weights @ block`` for a
    contiguous ``v`` (m,) and a C-contiguous ``block`` (m, u), m ≥ 1: one column,
    ``0 + ddot``; one row, ``0 + v·x`` per column; else ``dgemv`` (row-major,
    transposed)."""
    m, u = block.shape
    if u == 0:
        return
    if u == 1:
        out[0] = 0.0 + _numpy_ddot(m, v.ctypes, 1, block.ctypes, 1)
    elif m == 1:
        for j in range(u):
            out[j] = 0.0 + v[0] * block[0, j]
    else:
        _numpy_dgemv(np.int32(_ROW_MAJOR), np.int32(_TRANSPOSED), m, u, 1.0, block.ctypes, u,
                     v.ctypes, 1, 0.0, out.ctypes, 1)


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
def numpy_sum(a):
    """``a.sum()`` of a contiguous array of non-negative numbers, as numpy adds them."""
    return 0.0 + pairwise_sum(a, 0, a.shape[0])


@njit(cache=True, nogil=True)
def round_as_text(value, digits):
    """``(float(f"{value:.{digits - 1}e}"), True)``: ``value`` rounded to ``digits``
    significant digits as the rule text prints it and reads back, or ``(value, False)``
    where this arithmetic is not provably the same.

    With ``k`` such that ``x = |value|·10^k`` lies in [10^(digits−1), 10^digits]: the
    text's number is ``N·10^−k``, ``N`` the integer nearest to the exact ``x`` (ties to
    even), and the float read back is the one nearest to it.  For ``digits ≤ 15`` and
    ``|k| ≤ 22`` every power ``10^|k|``, every integer up to ``10^digits`` and every
    half-integer below it is a double, so: the computed ``x`` (one correctly rounded
    product or quotient) is on the same side of every half-integer as the exact ``x``
    unless it *is* one (then ``(value, False)``), so that ``rint`` gives ``N``; and
    ``N / 10^k`` (``N·10^|k|``) is one correctly rounded operation on exact operands, the
    double nearest to ``N·10^−k``.  ``k`` comes from ``log10`` and is corrected until the
    computed ``x`` lies in the interval (by monotony of rounding, the exact ``x`` is then
    in it too, or within rounding of an end, where both choices of ``k`` give the same
    number).  Zeros, infinities and NaN are returned as they are, as the Python code
    does."""
    if value == 0 or not np.isfinite(value) or digits > 15:
        return value, value == 0 or not np.isfinite(value)
    size = abs(value)
    exponent = int(np.floor(np.log10(size)))
    low, high = _POWERS_OF_TEN[digits - 1], _POWERS_OF_TEN[digits]
    for _ in range(3):
        k = digits - 1 - exponent
        if k > 22 or k < -22:
            return value, False
        x = size * _POWERS_OF_TEN[k] if k >= 0 else size / _POWERS_OF_TEN[-k]
        if x > high:
            exponent += 1
        elif x < low:
            exponent -= 1
        else:
            if x - np.floor(x) == 0.5:
                return value, False  # the exact x may lie on either side
            n = np.rint(x)
            rounded = n / _POWERS_OF_TEN[k] if k >= 0 else n * _POWERS_OF_TEN[-k]
            return (rounded if value > 0 else -rounded), True
    return value, False


@njit(cache=True, nogil=True)
def round_as_numpy(value, digits, powers_exact):
    """``round_significant``'s vectorised arithmetic for one number of an array of more
    than 32 (``digits ≤ 12``): ``rint(v·10^k) / 10^k`` (``rint(v / 10^−k)·10^−k`` for
    ``k < 0``) with ``k = digits − 1 − floor(log10 |v|)``, ``|k| ≤ 22``; ``(value,
    False)`` where the result may differ from numpy's: ``|v|`` within 1e-9 (relative) of
    a power of ten, where numpy's ``log10`` and this one might floor differently (both
    err by a few units in the last place), or numpy's powers of ten are not exact
    (``powers_exact``).  Zeros, infinities and NaN are returned as they are."""
    if value == 0 or not np.isfinite(value):
        return value, True
    if not powers_exact:
        return value, False
    size = abs(value)
    exponent = np.floor(np.log10(size))
    if not -22 <= exponent <= 22:
        return value, False
    e = int(exponent)
    ratio = size / _POWERS_OF_TEN[e] if e >= 0 else size * _POWERS_OF_TEN[-e]
    if not 1.0 + 1e-9 < ratio < 10.0 - 1e-8:
        return value, False
    k = digits - 1 - e
    if 0 <= k <= 22:
        scale = _POWERS_OF_TEN[k]
        return np.rint(value * scale) / scale, True
    if -22 <= k < 0:
        scale = _POWERS_OF_TEN[-k]
        return np.rint(value / scale) * scale, True
    return value, False


@njit(cache=True, nogil=True)
def _printed_routes_alike(block, position, w, b, digits, numpy_rounding, powers_exact,
                          printed, values):
    """Whether the hyperplane ``(w, b)`` printed with ``digits`` significant digits
    (:meth:`~.splits.HyperplaneKind.printed`) sends every row of ``block`` to the same
    side as ``position`` (True: right): 1 yes, 0 no, -1 not decided here (a number whose
    rounding is left to the Python code).  ``numpy_rounding``: the weights are rounded by
    ``round_significant``'s vectorised arithmetic (more than 32 of them)."""
    d = w.shape[0]
    m = block.shape[0]
    used, last = 0, -1
    for j in range(d):
        if w[j] != 0:
            used += 1
            last = j
    if used == 1:  # x ≥ t, evaluated as x − t ≥ 0 (t − x ≥ 0 for a negative weight)
        threshold, exact = round_as_text(-b / w[last], digits)
        if not exact:
            return -1
        sign = 1.0 if w[last] > 0 else -1.0
        printed[:] = 0.0
        printed[last] = sign
        printed_bias = -sign * threshold
    else:
        for j in range(d):
            if numpy_rounding and digits <= 12:
                printed[j], exact = round_as_numpy(w[j], digits, powers_exact)
            else:
                printed[j], exact = round_as_text(w[j], digits)
            if not exact:
                return -1
        negated, exact = round_as_text(-b, digits)
        if not exact:
            return -1
        printed_bias = -negated
    numpy_matvec(block, printed, values)
    for i in range(m):
        if (values[i] + printed_bias >= 0) != position[i]:
            return 0
    return 1


@njit(cache=True, nogil=True)
def calibration_pass(X, sample_weight, calibrate, with_scales, weights, bias, left, right,
                     tolerance, minimum_digits, maximum_digits, powers_exact):
    """:meth:`~.tree.ObliqueTree.calibrate_text_and_scales` of a tree of hyperplanes:
    split ``node`` is ``weights[node] · x + bias[node] ≥ 0`` (right), its children
    ``left[node]`` and ``right[node]`` (-1 at a leaf).  For the rows of ``X`` (finite,
    C-contiguous) reaching every split, in ascending order: when ``calibrate``,
    :meth:`~.splits.Split.drop_negligible_terms` at ``tolerance`` and
    :meth:`~.splits.Split.calibrate_digits` from ``minimum_digits`` to
    ``maximum_digits``; when ``with_scales``, the weighted standard deviation of the
    features the split uses (after the drop) by ``sample_weight``, where their sum is
    positive (:func:`~.tree._weighted_deviation`).

    Returns ``(weights, dropped, digits, resume, scales, order, start, end)``: the
    weights after the drop (a copy), whether a split dropped terms, its digits, and
    ``resume``, 0 where the digits are found, else the digits from which the Python
    code is to continue the search (a rounding this kernel does not do); ``scales``
    (node_count, n_features); the rows of node ``t`` are ``order[start[t]:end[t]]``.
    """
    n, d = X.shape
    node_count = weights.shape[0]
    weights = weights.copy()
    dropped = np.zeros(node_count, dtype=np.bool_)
    digits = np.zeros(node_count, dtype=np.int64)
    resume = np.zeros(node_count, dtype=np.int64)
    scales = np.zeros((node_count, d))
    order = np.arange(n)
    start = np.zeros(node_count, dtype=np.int64)
    end = np.zeros(node_count, dtype=np.int64)
    end[0] = n
    block_space = np.empty(n * d)
    used_space = np.empty(n * d)
    values = np.empty(n)
    position = np.empty(n, dtype=np.bool_)
    spare = np.empty(n, dtype=np.int64)
    row_weights = np.empty(n)
    candidate = np.empty(d)
    printed = np.empty(d)
    size = np.empty(d)
    moments = np.empty(d)
    columns = np.empty(d, dtype=np.int64)
    numpy_rounding = d > 32
    stack = np.empty(node_count + 1, dtype=np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if left[node] < 0:
            continue
        first, m = start[node], end[node] - start[node]
        block = block_space[:m * d].reshape((m, d))
        for i in range(m):
            row = order[first + i]
            for j in range(d):
                block[i, j] = X[row, j]
        w = weights[node]
        b = bias[node]
        numpy_matvec(block, w, values)
        for i in range(m):
            position[i] = values[i] + b >= 0
        rows_position = position[:m]
        if calibrate:
            digits[node] = minimum_digits
            used = 0
            for j in range(d):
                if w[j] != 0:
                    used += 1
            if m > 0 and used >= 2:  # Split.drop_negligible_terms
                size[:] = 0.0  # first the largest |x_j| of the rows
                for i in range(m):
                    for j in range(d):
                        size[j] = max(size[j], abs(block[i, j]))
                largest = -np.inf
                for j in range(d):
                    if w[j] != 0:
                        size[j] = abs(w[j]) * size[j]
                        largest = max(largest, size[j])
                negligible = False
                for j in range(d):
                    candidate[j] = w[j]
                    if w[j] != 0 and size[j] < tolerance * largest:
                        candidate[j] = 0.0
                        negligible = True
                if largest > 0 and negligible:
                    numpy_matvec(block, candidate, values)
                    alike = True
                    for i in range(m):
                        if (values[i] + b >= 0) != rows_position[i]:
                            alike = False
                            break
                    if alike:
                        w[:] = candidate
                        dropped[node] = True
            if m > 0:  # Split.calibrate_digits
                found = False
                for count in range(minimum_digits, maximum_digits + 1):
                    alike = _printed_routes_alike(block, rows_position, w, b, count,
                                                  numpy_rounding, powers_exact, printed,
                                                  values)
                    if alike < 0:
                        resume[node] = count
                        break
                    if alike == 1:
                        digits[node] = count
                        found = True
                        break
                if not found and resume[node] == 0:
                    digits[node] = maximum_digits
        if with_scales and m > 0:  # _weighted_deviation of the features used
            for i in range(m):
                row_weights[i] = sample_weight[order[first + i]]
            weight_rows = row_weights[:m]
            total = numpy_sum(weight_rows)
            u = 0
            for j in range(d):
                if w[j] != 0:
                    columns[u] = j
                    u += 1
            if total > 0 and u > 0:
                if u == d:  # the block itself (its rows are not needed again)
                    part = block
                else:
                    part = used_space[:m * u].reshape((m, u))
                    for i in range(m):
                        for k in range(u):
                            part[i, k] = block[i, columns[k]]
                mean = moments[:u]
                numpy_vecmat(weight_rows, part, mean)
                for k in range(u):
                    mean[k] = mean[k] / total
                for i in range(m):
                    for k in range(u):
                        difference = part[i, k] - mean[k]
                        part[i, k] = difference * difference
                numpy_vecmat(weight_rows, part, mean)
                for k in range(u):
                    scales[node, columns[k]] = np.sqrt(mean[k] / total)
        # the children's rows, in ascending order
        n_left, n_right = 0, 0
        for i in range(m):
            row = order[first + i]
            if rows_position[i]:
                spare[n_right] = row
                n_right += 1
            else:
                order[first + n_left] = row
                n_left += 1
        for i in range(n_right):
            order[first + n_left + i] = spare[i]
        start[left[node]], end[left[node]] = first, first + n_left
        start[right[node]], end[right[node]] = first + n_left, first + m
        stack[top] = right[node]
        stack[top + 1] = left[node]
        top += 2
    return weights, dropped, digits, resume, scales, order, start, end


@njit(cache=True, nogil=True)
def hyperplane_partition(X, rows, w, b, y, sample_weight, n_classes):
    """:func:`~.tree.grow_tree`'s step at a node split by the hyperplane ``(w, b)``: its
    ``rows`` (ascending) that go left (``X[rows] @ w + b < 0``, numpy's product:
    :func:`numpy_matvec`) and right, and the children's class counts, row 0 the left's:
    every count the sum of its rows' weights in ascending order, as ``np.bincount`` adds
    them.  ``X`` C-contiguous."""
    m, d = rows.shape[0], X.shape[1]
    block = np.empty((m, d))
    for i in range(m):
        row = rows[i]
        for j in range(d):
            block[i, j] = X[row, j]
    values = np.empty(m)
    numpy_matvec(block, w, values)
    n_right = 0
    for i in range(m):
        if values[i] + b >= 0:
            n_right += 1
    left = np.empty(m - n_right, dtype=rows.dtype)
    right = np.empty(n_right, dtype=rows.dtype)
    counts = np.zeros((2, n_classes))
    n_left, n_right = 0, 0
    for i in range(m):
        row = rows[i]
        if values[i] + b >= 0:
            right[n_right] = row
            n_right += 1
            counts[1, y[row]] += sample_weight[row]
        else:
            left[n_left] = row
            n_left += 1
            counts[0, y[row]] += sample_weight[row]
    return left, right, counts
