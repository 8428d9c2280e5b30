"""Compiled kernels (numba) of a hyperplane split: its value at a row, growing's step at it,
and the pass after growing a tree of hyperplanes.

A hyperplane split's value at a row is ``w·x + b`` computed one way everywhere
(:func:`hyperplane_values`): the products ``w_j·x_j`` of the non-zero weights added in
feature order, then ``b``.  :meth:`~.splits.Split.values` (so the model's routing at
predict time), :func:`~.tree.grow_tree`'s step at a hyperplane
(:func:`hyperplane_partition`) and the pass after growing (:func:`calibration_pass`) all
call :func:`_value`, whatever BLAS numpy uses.

A split that is its own printed rule (:attr:`~.splits.Split.reads_printed`: its numbers
the decimals its text shows) routes a row by that rule read exactly: the same value,
decided where it is farther from 0 than a bound on its rounding error
(:func:`_value_and_bound`, :func:`printed_sides`), the rare rows nearer left to exact
arithmetic (:func:`~.splits.printed_rule_holds`).

:func:`calibration_pass` is :meth:`~.tree.ObliqueTree.calibrate_text_and_scales` for a
tree whose every split is a hyperplane, in one call: the training rows reaching every
split, :meth:`~.splits.Split.drop_negligible_terms`,
:meth:`~.splits.Split.calibrate_digits` (numbers rounded as the rule text prints them,
:func:`round_as_text`, the fewest digits whose printed rule read exactly routes the rows
as grown, the split then taking those numbers; a number whose rounding, or a row whose
side, this arithmetic cannot decide leaves the split's search to
:meth:`~.splits.Split.calibrate_digits` from there on) and the weighted standard
deviations of the features every split uses.
"""
import numpy as np
from numba import njit

#: 10^0 .. 10^22, every one exactly a double.
_POWERS_OF_TEN = np.array([float(10 ** k) for k in range(23)])


@njit(cache=True, nogil=True)
def _value(X, row, w, used, b):
    """``w·x + b`` of row ``row`` of ``X``: ``w[j]·x[j]`` over the features ``used`` (the
    non-zero weights, ascending) added in that order, then ``b``."""
    total = 0.0
    for k in range(used.shape[0]):
        j = used[k]
        total += w[j] * X[row, j]
    return total + b


@njit(cache=True, nogil=True)
def hyperplane_values(X, w, b):
    """``w·x + b`` of every row of ``X`` (:func:`_value`): a hyperplane split's values,
    :meth:`~.splits.Split.values`."""
    used = np.flatnonzero(w)
    values = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        values[i] = _value(X, i, w, used, b)
    return values


#: Unit roundoff of a double, 2^-53.
_UNIT_ROUNDOFF = 2.0 ** -53
#: Below every absolute error of underflowing products and sums of a split's value.
_UNDERFLOW_ERROR = 1e-290


@njit(cache=True, nogil=True)
def _value_and_bound(X, row, w, used, b):
    """:func:`_value` of row ``row`` (the same operations in the same order) and a bound
    on its distance from the exact value of the printed rule the numbers are: ``Σ c_j·x_j −
    t`` with ``c_j``, ``t`` the decimals of the shortest texts of ``w_j``, ``−b`` (each
    within a unit roundoff ``u`` of the float) and ``x_j`` exact.  The products, the
    ``m`` additions and the decimals' distances add up to at most ``(m + 3)·u·S`` with
    ``S = Σ|w_j·x_j| + |b|``; the bound is ``4·(m + 2)·u·S`` (at least twice that) plus
    :data:`_UNDERFLOW_ERROR` for underflow."""
    total = 0.0
    size = 0.0
    for k in range(used.shape[0]):
        j = used[k]
        product = w[j] * X[row, j]
        total += product
        size += abs(product)
    bound = 4.0 * (used.shape[0] + 2) * _UNIT_ROUNDOFF * (size + abs(b)) + _UNDERFLOW_ERROR
    return total + b, bound


@njit(cache=True, nogil=True)
def printed_sides(X, rows, w, b):
    """The side of each row ``rows[i]`` of ``X`` under a hyperplane that is its own
    printed rule (:meth:`~.splits.Split.route`): ``(right, undecided)``, ``right[i]`` True
    where ``w·x + b >= 0`` (:func:`_value`) and the value is farther from 0 than its
    bound (:func:`_value_and_bound`), so that the printed rule read exactly decides alike;
    ``undecided`` the positions ``i`` of the others (a value within its bound of 0, or
    not finite), for the caller to decide exactly."""
    used = np.flatnonzero(w)
    m = rows.shape[0]
    right = np.empty(m, dtype=np.bool_)
    undecided = np.empty(m, dtype=np.int64)
    n_undecided = 0
    for i in range(m):
        value, bound = _value_and_bound(X, rows[i], w, used, b)
        right[i] = value >= 0
        if not abs(value) > bound:  # also NaN
            undecided[n_undecided] = i
            n_undecided += 1
    return right, undecided[:n_undecided]


@njit(cache=True, nogil=True)
def partition_rows(rows, right_side, y, sample_weight, n_classes):
    """``rows`` (ascending) split by ``right_side`` into those that go left and right,
    and the children's class counts, row 0 the left's (every count its rows' weights
    added in ascending order, as ``np.bincount`` adds them)."""
    m = rows.shape[0]
    n_right = 0
    for i in range(m):
        n_right += right_side[i]
    left = np.empty(m - n_right, dtype=rows.dtype)
    right = np.empty(n_right, dtype=rows.dtype)
    counts = np.zeros((2, n_classes))
    n_left, n_right = 0, 0
    for i in range(m):
        row = rows[i]
        if right_side[i]:
            right[n_right] = row
            n_right += 1
            counts[1, y[row]] += sample_weight[row]
        else:
            left[n_left] = row
            n_left += 1
            counts[0, y[row]] += sample_weight[row]
    return left, right, counts


@njit(cache=True, nogil=True)
def hyperplane_partition(X, rows, w, b, y, sample_weight, n_classes):
    """:func:`~.tree.grow_tree`'s step at a node split by the hyperplane ``(w, b)`` whose
    digits are not yet set: :func:`partition_rows` by ``w·x + b >= 0`` (right,
    :func:`_value`)."""
    used = np.flatnonzero(w)
    m = rows.shape[0]
    right_side = np.empty(m, dtype=np.bool_)
    for i in range(m):
        right_side[i] = _value(X, rows[i], w, used, b) >= 0
    return partition_rows(rows, right_side, y, sample_weight, n_classes)


@njit(cache=True, nogil=True)
def finite_spread(X, rows, used):
    """The largest absolute value of every column ``used`` of ``X`` over ``rows``, its
    non-finite values counted as 0 (:meth:`~.splits.Split.restore_scale`'s spreads)."""
    spread = np.zeros(used.shape[0])
    for i in range(rows.shape[0]):
        row = rows[i]
        for k in range(used.shape[0]):
            x = abs(X[row, used[k]])
            if x > spread[k] and x < np.inf:
                spread[k] = x
    return spread


@njit(cache=True, nogil=True)
def round_as_text(value, digits):
    """``(float(f"{value:.{digits - 1}e}"), True)``: ``value`` rounded to ``digits``
    significant digits as the rule text prints it and reads back, or ``(value, False)``
    where this arithmetic cannot show that it is the same number.

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
    number).  Zeros, infinities and NaN are returned as they are."""
    if value == 0 or not np.isfinite(value):
        return value, True
    if digits > 15:
        return value, False
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
def rounded_as_text(values, digits):
    """:func:`round_as_text` of every number of ``values`` (1-d): ``(rounded, decided)``,
    ``decided[i]`` False where ``rounded[i]`` is ``values[i]`` unrounded."""
    rounded = np.empty_like(values)
    decided = np.empty(values.shape[0], dtype=np.bool_)
    for i in range(values.shape[0]):
        rounded[i], decided[i] = round_as_text(values[i], digits)
    return rounded, decided


@njit(cache=True, nogil=True)
def _printed_routes_alike(block, position, w, b, digits, printed):
    """Whether the hyperplane ``(w, b)`` printed with ``digits`` significant digits
    (:meth:`~.splits.HyperplaneKind.printed`, its numbers written into ``printed`` and
    the returned bias) sends every row of ``block`` to the same side as ``position``
    (True: right) under the model's rule for it (:meth:`~.splits.Split.route`):
    ``(1, bias)`` yes, ``(0, bias)`` no, ``(-1, bias)`` not decided here (a number whose
    rounding, or a row whose side in the printed rule read exactly, is left to
    :meth:`~.splits.Split.calibrate_digits`)."""
    d = w.shape[0]
    used = np.flatnonzero(w)
    if used.shape[0] == 1:  # x ≥ t evaluated as x − t ≥ 0 (t − x ≥ 0 for a weight < 0)
        last = used[0]
        threshold, exact = round_as_text(-b / w[last], digits)
        if not exact:
            return -1, 0.0
        sign = 1.0 if w[last] > 0 else -1.0
        printed[:] = 0.0
        printed[last] = sign
        printed_bias = -sign * threshold
        for i in range(block.shape[0]):  # exactly the printed comparison
            if (_value(block, i, printed, used, printed_bias) >= 0) != position[i]:
                return 0, printed_bias
        return 1, printed_bias
    for j in range(d):
        printed[j], exact = round_as_text(w[j], digits)
        if not exact:
            return -1, 0.0
    negated, exact = round_as_text(-b, digits)
    if not exact:
        return -1, 0.0
    printed_bias = -negated
    printed_used = np.flatnonzero(printed)
    undecided = False
    for i in range(block.shape[0]):
        value, bound = _value_and_bound(block, i, printed, printed_used, printed_bias)
        if not abs(value) > bound:
            undecided = True  # the printed rule read exactly may decide either way
        elif (value >= 0) != position[i]:
            return 0, printed_bias
    return (-1 if undecided else 1), printed_bias


@njit(cache=True, nogil=True)
def _copy_into(target, source):
    """``target[:] = source`` of two vectors of one length, as a loop (a slice
    assignment compiles a shape check with its error message, seconds of compiling)."""
    for j in range(target.shape[0]):
        target[j] = source[j]


@njit(cache=True, nogil=True)
def calibration_pass(X, sample_weight, calibrate, with_scales, weights, bias, printed_rule,
                     left, right, tolerance, minimum_digits, maximum_digits):
    """:meth:`~.tree.ObliqueTree.calibrate_text_and_scales` of a tree of hyperplanes:
    split ``node`` is ``weights[node] · x + bias[node] ≥ 0`` (right), its children
    ``left[node]`` and ``right[node]`` (-1 at a leaf); ``printed_rule[node]`` True where
    the split of two or more terms is already its own printed rule (its digits set: it
    routes by the printed rule read exactly, :meth:`~.splits.Split.route`), False where
    it routes by :func:`_value` (a split as grown).  For the rows of ``X`` (finite)
    reaching every split, in ascending order: when ``calibrate``,
    :meth:`~.splits.Split.drop_negligible_terms` at ``tolerance`` and
    :meth:`~.splits.Split.calibrate_digits` from ``minimum_digits`` to
    ``maximum_digits``; when ``with_scales``, the weighted standard deviation of the
    features the split uses (after the drop) by ``sample_weight``, where their sum is
    positive.

    Returns ``(weights, dropped, digits, resume, scales, order, start, end, bias,
    complete)``: the splits' weights (a copy): their printed ones where the digits are
    found, else those after the drop; whether a split dropped terms, its digits, and
    ``resume``, 0 where the digits are found, else the digits from which
    :meth:`~.splits.Split.calibrate_digits` is to continue the search (a rounding
    :func:`round_as_text` cannot decide, or a row near the printed boundary); ``scales``
    (node_count, n_features); the rows of node ``t`` are ``order[start[t]:end[t]]``;
    ``bias`` the splits' bias (a copy; the printed one where the digits are found);
    ``complete`` False if a row reached a split of ``printed_rule`` so near its boundary
    that only the printed rule read exactly can tell its side (then nothing else is
    valid: the caller takes the splits' own methods).
    """
    n, d = X.shape
    node_count = weights.shape[0]
    weights = weights.copy()
    bias = bias.copy()
    dropped = np.zeros(node_count, dtype=np.bool_)
    digits = np.zeros(node_count, dtype=np.int64)
    resume = np.zeros(node_count, dtype=np.int64)
    scales = np.zeros((node_count, d))
    order = np.arange(n)
    start = np.zeros(node_count, dtype=np.int64)
    end = np.zeros(node_count, dtype=np.int64)
    end[0] = n
    block_space = np.empty(n * d)
    position_space = np.empty(n, dtype=np.bool_)
    spare = np.empty(n, dtype=np.int64)
    candidate = np.empty(d)
    printed = np.empty(d)
    size = np.empty(d)
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
        used = np.flatnonzero(w)
        position = position_space[:m]
        exact_rule = printed_rule[node] and used.shape[0] >= 2
        for i in range(m):
            if exact_rule:
                value, bound = _value_and_bound(block, i, w, used, b)
                if not abs(value) > bound:
                    return (weights, dropped, digits, resume, scales, order, start, end,
                            bias, False)
                position[i] = value >= 0
            else:
                position[i] = _value(block, i, w, used, b) >= 0
        if calibrate:
            digits[node] = minimum_digits
            if m > 0 and used.shape[0] >= 2:  # Split.drop_negligible_terms
                largest = -np.inf
                for j in used:  # |w_j| times the largest |x_j| of the rows
                    size[j] = 0.0
                    for i in range(m):
                        size[j] = max(size[j], abs(block[i, j]))
                    size[j] = abs(w[j]) * size[j]
                    largest = max(largest, size[j])
                negligible = False
                _copy_into(candidate, w)
                for j in used:
                    if size[j] < tolerance * largest:
                        candidate[j] = 0.0
                        negligible = True
                if largest > 0 and negligible:
                    kept = np.flatnonzero(candidate)
                    alike = True
                    for i in range(m):
                        if exact_rule:  # decided sides only
                            value, bound = _value_and_bound(block, i, candidate, kept, b)
                            same = abs(value) > bound and (value >= 0) == position[i]
                        else:
                            same = (_value(block, i, candidate, kept, b) >= 0) == position[i]
                        if not same:
                            alike = False
                            break
                    if alike:
                        _copy_into(w, candidate)
                        used = kept
                        dropped[node] = True
            # Split.calibrate_digits: the split takes its printed numbers
            found = False
            for count in range(minimum_digits, maximum_digits + 1):
                alike, printed_bias = _printed_routes_alike(block, position, w, b, count,
                                                            printed)
                if alike < 0:
                    resume[node] = count
                    break
                if alike == 1:
                    digits[node] = count
                    found = True
                    break
            if found:
                _copy_into(w, printed)
                bias[node] = printed_bias
            elif resume[node] == 0:
                resume[node] = maximum_digits  # the splits' own methods decide
        if with_scales and m > 0:  # weighted standard deviations of the features used
            total = 0.0
            for i in range(m):
                total += sample_weight[order[first + i]]
            if total > 0:
                for j in used:
                    mean = 0.0
                    for i in range(m):
                        mean += sample_weight[order[first + i]] * block[i, j]
                    mean /= total
                    variance = 0.0
                    for i in range(m):
                        deviation = block[i, j] - mean
                        variance += sample_weight[order[first + i]] * (deviation * deviation)
                    scales[node, j] = np.sqrt(variance / total)
        # the children's rows, in ascending order
        n_left, n_right = 0, 0
        for i in range(m):
            row = order[first + i]
            if position[i]:
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
    return weights, dropped, digits, resume, scales, order, start, end, bias, True
