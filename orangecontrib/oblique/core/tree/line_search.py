"""OC1's compiled kernels (numba): the line search of Eq. 2 and the local search around it.

A line search of OC1 (:func:`best_step`, Eq. 2) at a node of a few hundred rows is a sort
and one pass over the sorted crossings; written as some thirty numpy calls it costs
~100 µs, nearly all of it per-call overhead, compiled a few µs.  A restart of OC1's
hill climbing in any coefficient order (Section 2, Figure 2, and the random jumps of
Section 2.3) is one kernel call, :func:`local_search`.  The six impurity measures are
:func:`measure_value` (the line search's sweep writes them out in its loop: a call per
candidate would triple its time).

Every kernel argument has one dtype and layout for every caller, and no kernel passes
another a constant that numba would type as a literal (``np.int64(0)``,
``np.bool_(True)``): numba compiles one signature of each kernel.

All of OC1's kernels are in this module: numba keys a cached kernel on its own source
file only, so a kernel calls only kernels of its own module.  Debug them with numba's
``NUMBA_DISABLE_JIT=1``.
"""
import math

import numpy as np
from numba import njit

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
    """``Σ counts²`` (a side's term of the Gini index)."""
    total = 0.0
    for k in range(counts.shape[0]):
        total += counts[k] * counts[k]
    return total


@njit(cache=True, nogil=True)
def _gini(n_left, squares_left, n_right, squares_right):
    """OC1's Gini from the sides' sizes and their sums of squared class counts."""
    return ((n_left - squares_left / max(n_left, _TINY))
            + (n_right - squares_right / max(n_right, _TINY))) / (n_left + n_right)


@njit(cache=True, nogil=True)
def _minority(code, n_left, largest_left, n_right, largest_right):
    """Max minority (``code`` 3) or sum minority (4) from the sides' sizes and their
    largest class counts."""
    if code == 3:
        return max(n_left - largest_left, n_right - largest_right)
    return (n_left - largest_left) + (n_right - largest_right)


@njit(cache=True, nogil=True)
def _variances(first_left, second_left, n_left, first_right, second_right, n_right):
    """The sum of variances from each side's ``Σ rank · counts`` (first) and
    ``Σ rank² · counts`` (second): ``Σ_side second − first² / size``, at least 0."""
    variance = 0.0 + second_left - first_left * first_left / max(n_left, _TINY)
    variance = variance + second_right - first_right * first_right / max(n_right, _TINY)
    return max(variance, 0.0)


@njit(cache=True, nogil=True)
def _rank_sums(counts, rank):
    """``(Σ rank · counts, Σ rank² · counts)`` of one side."""
    first, second = 0.0, 0.0
    for k in range(counts.shape[0]):
        first += rank[k] * counts[k]
        second += rank[k] * rank[k] * counts[k]
    return first, second


@njit(cache=True, nogil=True)
def measure_value(left, right, n_left, n_right, largest_left, largest_right, code,
                  parent_entropy, rank):
    """The impurity by measure ``code`` (:data:`MEASURE_CODES`, OC1's Appendix B; lower
    is better) of the sides of class counts ``left`` and ``right`` (sizes ``n_left``,
    ``n_right``, largest counts ``largest_left``, ``largest_right``): the one
    implementation of the six measures.  Goodness measures (twoing, information gain)
    are turned into impurities by their reciprocal, as OC1 does.  ``parent_entropy``
    and ``rank`` are the node's (:func:`~.impurity.node_constants`).  No special case:
    :func:`split_score` adds OC1's (an empty side, both sides homogeneous)."""
    if code == 0:  # twoing
        n_all = n_left + n_right
        inverse_left, inverse_right = 1.0 / max(n_left, _TINY), 1.0 / max(n_right, _TINY)
        difference = 0.0
        for k in range(left.shape[0]):
            difference += abs(left[k] * inverse_left - right[k] * inverse_right)
        value = (n_left / n_all) * (n_right / n_all) * (difference * difference) / 4
        return 1.0 / max(value, _TINY)
    if code == 1:  # information gain
        gain = parent_entropy - (n_left * _side_entropy(left, n_left)
                                 + n_right * _side_entropy(right, n_right)) / (
                                     n_left + n_right)
        return 1.0 / max(gain, _TINY) if gain > 1e-12 else np.inf
    if code == 2:  # Gini
        return _gini(n_left, sum_of_squares(left), n_right, sum_of_squares(right))
    if code == 3 or code == 4:  # max minority, sum minority
        return _minority(code, n_left, largest_left, n_right, largest_right)
    # sum of variances, classes numbered by decreasing frequency (rank)
    first_left, second_left = _rank_sums(left, rank)
    first_right, second_right = _rank_sums(right, rank)
    return _variances(first_left, second_left, n_left, first_right, second_right, n_right)


@njit(cache=True, nogil=True)
def split_score(left, right, n_left, n_right, largest_left, largest_right, code,
                parent_entropy, rank):
    """:func:`measure_value` with OC1's special cases: a split with an empty side
    separates nothing (``inf``); one whose sides are both homogeneous has impurity 0."""
    if n_left <= 0 or n_right <= 0:
        return np.inf
    if largest_left >= n_left and largest_right >= n_right:
        return 0.0
    return measure_value(left, right, n_left, n_right, largest_left, largest_right, code,
                         parent_entropy, rank)


@njit(cache=True, nogil=True)
def improves(new, old):
    """Whether impurity ``new`` is lower than ``old`` by more than rounding; leaving a
    split that separates nothing (``old`` infinite) for one that does is an improvement."""
    if not math.isfinite(old):
        return math.isfinite(new)
    return new < old - 1e-12 * max(1.0, abs(old))


@njit(cache=True, nogil=True)
def equal(new, old):
    """Whether the finite impurities ``new`` and ``old`` are equal up to rounding (a
    stagnant perturbation, Figure 2)."""
    if not (math.isfinite(new) and math.isfinite(old)):
        return False
    return abs(new - old) <= 1e-12 * max(1.0, abs(old))


# ----- sorting the crossings -----
#
# A line search's time is mostly its sort.  :func:`sort_crossings` sorts a line search's
# crossings by their top bits first: each float64 is mapped to an unsigned integer of the
# same order (negative numbers: all bits flipped; others: the sign bit set), its top
# :data:`_RADIX_TOP_BITS` bits (sign, exponent and 12 bits of mantissa) are kept and the
# row's number is packed into the bits below, and these keys are sorted by a
# least-significant-digit radix sort, 8 bits a pass (a pass whose digit is the same for
# all keys is skipped): O(n) a pass and no branch that the processor mispredicts.  Rows
# whose crossings share the top bits (ties, and values within about 2^-12 of each other)
# are then next to each other, in the order of their rows, and are sorted among
# themselves by their true values: an insertion sort for a few, :func:`sort_pairs` (an
# introsort) for more.  Below :data:`RADIX_SORT_SIZE` crossings the introsort alone is
# faster.  Times per sort of a node's crossings (breast cancer's 569 rows: 4.5 µs, the
# introsort 23 µs, numba's ``np.argsort`` 25 µs, numpy's own with AVX-512 6 µs; 2,000
# normal rows: 17, 30, 106 and 22 µs).

_INSERTION_SIZE = 16


@njit(cache=True, nogil=True)
def _insertion_sort(values, order, low, high):
    """Sort ``values[low:high]`` ascending, carrying ``order`` along."""
    for i in range(low + 1, high):
        value, row = values[i], order[i]
        j = i - 1
        while j >= low and values[j] > value:
            values[j + 1], order[j + 1] = values[j], order[j]
            j -= 1
        values[j + 1], order[j + 1] = value, row


@njit(cache=True, nogil=True)
def _sift_down(values, order, low, root, end):
    """Restore the max-heap of ``values[low:low + end]`` below ``root`` (0-based)."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and values[low + child + 1] > values[low + child]:
            child += 1
        if not values[low + child] > values[low + root]:
            return
        a, b = low + root, low + child
        values[a], values[b] = values[b], values[a]
        order[a], order[b] = order[b], order[a]
        root = child


@njit(cache=True, nogil=True)
def _heap_sort(values, order, low, high):
    """Sort ``values[low:high]`` ascending by heapsort, carrying ``order`` along."""
    size = high - low
    for root in range(size // 2 - 1, -1, -1):
        _sift_down(values, order, low, root, size)
    for end in range(size - 1, 0, -1):
        values[low], values[low + end] = values[low + end], values[low]
        order[low], order[low + end] = order[low + end], order[low]
        _sift_down(values, order, low, np.int64(0), end)


@njit(cache=True, nogil=True)
def sort_pairs(values, order, start, size):
    """Sort ``values[start:size]`` ascending in place, carrying ``order[start:size]``
    along (a range, not a slice: one compiled signature for every caller): a
    quicksort (median of three) that hands ranges of at most 16 pairs to an insertion
    sort, and a heapsort when it goes too deep (an introsort: O(n log n) on any input).
    No allocation but its stack; ties are left in no particular order, and NaNs leave
    the order of their neighbours undefined."""
    stack = np.empty(3 * 64, dtype=np.int64)   # (low, high, depth budget) ranges
    depth = 2
    while (1 << (depth // 2)) <= size - start:     # 2 log2(n) + 2 levels of quicksort
        depth += 2
    stack[0], stack[1], stack[2] = start, size, depth
    top = 3
    while top > 0:
        top -= 3
        low, high, budget = stack[top], stack[top + 1], stack[top + 2]
        while high - low > _INSERTION_SIZE:
            if budget == 0:
                _heap_sort(values, order, low, high)
                low = high
                break
            budget -= 1
            middle = (low + high) >> 1
            a, b, c = values[low], values[middle], values[high - 1]
            if a > b:
                a, b = b, a
            if b > c:
                b = a if a > c else c
            pivot = b
            i, j = low, high - 1
            while i <= j:
                while values[i] < pivot:
                    i += 1
                while values[j] > pivot:
                    j -= 1
                if i <= j:
                    values[i], values[j] = values[j], values[i]
                    order[i], order[j] = order[j], order[i]
                    i += 1
                    j -= 1
            # the larger part waits on the stack, the smaller is sorted next
            if j + 1 - low < high - i:
                stack[top], stack[top + 1], stack[top + 2] = i, high, budget
                high = j + 1
            else:
                stack[top], stack[top + 1], stack[top + 2] = low, j + 1, budget
                low = i
            top += 3
        if high - low > 1:
            _insertion_sort(values, order, low, high)


#: From this many crossings on :func:`sort_crossings` sorts by radix.
RADIX_SORT_SIZE = 64
_RADIX_BITS = 8
_RADIX_BUCKETS = 1 << _RADIX_BITS
_RADIX_PASSES = 3
_RADIX_TOP_BITS = _RADIX_BITS * _RADIX_PASSES
_RADIX_SHIFT = 64 - _RADIX_TOP_BITS


@njit(cache=True, nogil=True)
def sort_crossings(values, sorted_values, order, size, keys, digit_counts):
    """Sort ``values[:size]`` ascending into ``sorted_values[:size]``, with ``order[:size]``
    their rows (``sorted_values[i] == values[order[i]]``); ``values`` is not changed.
    ``keys`` (2 × size, unsigned 64-bit) and ``digit_counts`` (3 × 256, whole numbers)
    are the radix sort's workspace (see the comment above :func:`sort_pairs`).  Ties are
    left in no particular order, and NaNs leave the order of their neighbours undefined."""
    if size < RADIX_SORT_SIZE:
        for i in range(size):
            sorted_values[i], order[i] = values[i], i
        sort_pairs(sorted_values, order, np.int64(0), size)
        return
    sign = np.uint64(1) << np.uint64(63)
    top_shift = np.uint64(_RADIX_SHIFT)
    digit_mask = np.uint64(_RADIX_BUCKETS - 1)
    row_mask = (np.uint64(1) << top_shift) - np.uint64(1)
    digit_counts[:, :] = 0
    bits = values[:size].view(np.uint64)
    source, target = keys[0], keys[1]
    for i in range(size):
        value_bits = bits[i]
        # negative (sign bit set): all bits flipped; otherwise the sign bit set
        key = value_bits ^ ((np.uint64(0) - (value_bits >> np.uint64(63))) | sign)
        key = ((key >> top_shift) << top_shift) | np.uint64(i)
        source[i] = key
        for p in range(_RADIX_PASSES):
            digit_counts[p, (key >> np.uint64(_RADIX_SHIFT + _RADIX_BITS * p))
                         & digit_mask] += 1
    for p in range(_RADIX_PASSES):
        shift = np.uint64(_RADIX_SHIFT + _RADIX_BITS * p)
        position = digit_counts[p]
        if position[(source[0] >> shift) & digit_mask] == size:
            continue   # one digit for all: this pass would move nothing
        running = 0
        for digit in range(_RADIX_BUCKETS):
            position[digit], running = running, running + position[digit]
        for i in range(size):
            key = source[i]
            digit = (key >> shift) & digit_mask
            target[position[digit]] = key
            position[digit] += 1
        source, target = target, source
    for i in range(size):
        row = np.int64(source[i] & row_mask)
        order[i], sorted_values[i] = row, values[row]
    # the rows of equal top bits, sorted by their values
    low = np.int64(0)
    while low < size:
        top = source[low] >> top_shift
        high = low + 1
        while high < size and source[high] >> top_shift == top:
            high += 1
        if high - low > _INSERTION_SIZE:
            in_order = True     # e.g. a run of ties
            for i in range(low + 1, high):
                if sorted_values[i] < sorted_values[i - 1]:
                    in_order = False
                    break
            if not in_order:
                sort_pairs(sorted_values, order, low, high)
        elif high - low > 1:
            _insertion_sort(sorted_values, order, low, high)
        low = high


#: Rows of a :func:`line_step` workspace's ``counts`` (K columns each).
_FIXED_RIGHT, _NEGATIVE_SUM, _CUMULATIVE, _LEFT, _RIGHT = range(5)


@njit(cache=True, nogil=True)
def line_workspace(n_rows, n_classes):
    """The arrays :func:`line_step` works in, made once for a node's line searches:
    ``(classes_and_order, crossings_and_weights, counts, sort_keys, digit_counts)`` --
    per row that moves, its class and the sort order (2 × n whole numbers); its crossing
    point, its weight, negative for a row moving left, and the sorted crossings (3 × n);
    the class counts of a candidate (5 × K: rows right that never move, rows moving
    left, the cumulative moves, the two sides); and :func:`sort_crossings`' workspace
    (2 × n keys, 3 × 256 digit counts)."""
    return (np.empty((2, n_rows), dtype=np.int64), np.empty((3, n_rows)),
            np.empty((5, n_classes)), np.empty((2, n_rows), dtype=np.uint64),
            np.empty((_RADIX_PASSES, _RADIX_BUCKETS), dtype=np.int64))


@njit(cache=True, nogil=True)
def row_classes(indicators):
    """The class and the weight of every row of a class indicator matrix (K, n) of
    :func:`~.impurity.class_indicators` (one non-zero per column at most)."""
    K, n = indicators.shape
    classes = np.zeros(n, dtype=np.int64)
    weights = np.zeros(n)
    for j in range(n):
        for k in range(K):
            if indicators[k, j] != 0:
                classes[j], weights[j] = k, indicators[k, j]
                break
    return classes, weights


@njit(cache=True, nogil=True)
def best_step(current, direction, indicators, total, code, parent_entropy, rank):
    """OC1's Eq. 2 line search: the best ``t`` for the split ``current + t·direction >=
    0`` and its impurity by measure ``code`` (:data:`MEASURE_CODES`, OC1's Appendix B);
    ``(inf, nan)`` when no row can move.  ``indicators``:
    :func:`~.impurity.class_indicators`' matrix, ``total`` its row sums.

    ``parent_entropy`` (information gain) and ``rank`` (sum of variances) are the node's
    (:func:`~.impurity.node_constants`).  A node's many searches call :func:`line_step`.
    """
    classes, weights = row_classes(indicators)
    node = (classes, weights, total, code, parent_entropy, rank)
    return line_step(current, direction, node,
                     line_workspace(current.shape[0], total.shape[0]), np.bool_(True))


# ----- line searches over many classes -----
#
# A candidate's impurity sums over the node's K classes, so scoring every candidate of a
# line search costs O(n · K): at the root of 6,000 rows of 2,000 classes, 12 million
# terms, for every coefficient, pass and restart.  When the class counts are whole
# numbers (whole weights; :func:`_bounds_apply`), :func:`_bounded_sweep` follows the sums
# the measures need as one row after another changes side, each in O(1) or O(log n).
# Gini's Σ L_k², the sum of variances' Σ rank·L_k and Σ rank²·L_k and the minorities'
# largest class (a tree of maxima) are exact integers in floats, so the impurity is the
# very number :func:`line_step` computes scoring the candidate in full.  Twoing's
# Σ_k |L_k/|TL| − R_k/|TR|| changes in every term when a row crosses; it is
# ``2G / (|TL| |TR|)`` with ``G = Σ_k max(N L_k − |TL| T_k, 0)``, a sum over the classes
# with ``L_k / T_k ≥ |TL| / N``: every value a class's ``L_k / T_k`` takes in the sweep is
# sorted once, and a Fenwick tree over them keeps ``Σ L_k`` and ``Σ T_k`` of the present
# values, so ``G`` is an exact integer in O(log n).  The full scoring rounds it (at most
# ~2K units in the last place of the sum), so the sweep keeps a bound on each candidate's
# impurity, and :func:`line_step` scores in full only the candidates whose bound reaches
# the lowest: the same choice, of the same first candidate on ties, in O(n log n + K ·
# (few)) instead of O(n · K).  Information gain likewise, from
# Σ_k L_k log2 L_k + R_k log2 R_k kept as rows cross, with a bound of its rounding.

#: From this many classes at a node on, a line search uses :func:`_bounded_sweep`.
BOUNDED_SWEEP_CLASSES = 32
#: Class counts are exact whole numbers, and their products too, up to this total.
_EXACT_TOTAL = float(1 << 26)
_UNIT = 2.0 ** -53   # the unit roundoff of float64
_LARGEST = float(np.finfo(float).max)


@njit(cache=True, nogil=True)
def _bounds_apply(weights, total, code):
    """Whether :func:`_bounded_sweep` finds the very candidate of scoring them all: many
    classes, whole non-negative weights and a total of at most :data:`_EXACT_TOTAL` (the
    sum of variances: ``K² · total``)."""
    K = total.shape[0]
    if K < BOUNDED_SWEEP_CLASSES:
        return False
    n_all = 0.0
    for k in range(K):
        n_all += total[k]
    if not n_all <= _EXACT_TOTAL or (code == 5 and not K * K * n_all <= _EXACT_TOTAL ** 2):
        return False
    for j in range(weights.shape[0]):
        weight = weights[j]
        if not (weight >= 0 and weight == math.floor(weight)):
            return False
    return True


@njit(cache=True, nogil=True)
def _x_log2_x(x):
    """``x · log2(x)``, 0 for 0."""
    return x * np.log2(x) if x > 0 else 0.0


@njit(cache=True, nogil=True)
def _fenwick_add(tree_left, tree_total, position, left, total):
    """Add ``left`` and ``total`` at ``position`` (0-based) of two Fenwick trees."""
    i = position + 1
    size = tree_left.shape[0]
    while i < size:
        tree_left[i] += left
        tree_total[i] += total
        i += i & -i


@njit(cache=True, nogil=True)
def _fenwick_prefix(tree_left, tree_total, count):
    """The sums of the first ``count`` positions of two Fenwick trees."""
    left, total = 0.0, 0.0
    i = count
    while i > 0:
        left += tree_left[i]
        total += tree_total[i]
        i -= i & -i
    return left, total


@njit(cache=True, nogil=True)
def _set_largest(tree, K, k, value):
    """Set leaf ``k`` of a tree of maxima over K leaves (``tree[1]`` the largest)."""
    i = K + k
    tree[i] = value
    i >>= 1
    while i >= 1:
        tree[i] = max(tree[2 * i], tree[2 * i + 1])
        i >>= 1


@njit(cache=True, nogil=True)
def _bounded_sweep(n_moving, order, moving_class, signed, u, cumulative, total, code,
                   parent_entropy, rank, lower, strict):
    """:func:`line_step`'s sweep over the sorted crossings with whole class counts
    (:func:`_bounds_apply`), each candidate in O(log n) (see the comment above).
    ``cumulative`` holds the sweep's start and is advanced to its end.

    A candidate lies between two consecutive crossings ``u`` with a number strictly
    between them (``strict``) or, as for the thresholds of
    :func:`~.impurity.best_axis_parallel`, between two distinct ones.  Returns ``(score,
    position, step, threshold)``: for Gini, the minorities and the sum of variances the
    chosen candidate; for twoing and information gain ``position`` -1 (twoing, when
    every candidate has an empty side: the first candidate, as :func:`line_step` chooses
    it).  ``lower[i]`` is a lower bound of candidate ``i``'s impurity (the impurity
    itself but for twoing and information gain), ``threshold`` the lowest upper bound
    (information gain, when no candidate surely gains: the largest float, so that the
    candidates that may gain are scored in full)."""
    K = total.shape[0]
    left, right = np.empty(K), np.empty(K)
    n_left, n_right = 0.0, 0.0
    filled_left, filled_right = 0, 0     # classes with rows on the side
    for k in range(K):
        on_left = max(total[k] - cumulative[k], 0.0)
        on_right = max(total[k] - on_left, 0.0)
        left[k], right[k] = on_left, on_right
        n_left += on_left
        n_right += on_right
        filled_left += int(on_left > 0)
        filled_right += int(on_right > 0)
    squares_left, squares_right = 0.0, 0.0     # Gini
    first_left, second_left, first_right, second_right = 0.0, 0.0, 0.0, 0.0
    largest = np.zeros((2, 2))
    # information gain: Σ_k L_k log2 L_k + R_k log2 R_k, and a bound of its rounding
    entropy_sum, entropy_error = 0.0, 0.0
    if code == 1:
        for k in range(K):
            entropy_sum += _x_log2_x(left[k]) + _x_log2_x(right[k])
        entropy_error = 4.0 * (K + 4) * _UNIT * entropy_sum
    elif code == 2:
        for k in range(K):
            squares_left += left[k] * left[k]
            squares_right += right[k] * right[k]
    elif code == 3 or code == 4:
        largest = np.zeros((2, 2 * K))    # trees of maxima, left and right
        for k in range(K):
            largest[0, K + k], largest[1, K + k] = left[k], right[k]
        for i in range(K - 1, 0, -1):
            largest[0, i] = max(largest[0, 2 * i], largest[0, 2 * i + 1])
            largest[1, i] = max(largest[1, 2 * i], largest[1, 2 * i + 1])
    elif code == 5:
        for k in range(K):
            first_left += rank[k] * left[k]
            second_left += rank[k] * rank[k] * left[k]
            first_right += rank[k] * right[k]
            second_right += rank[k] * rank[k] * right[k]
    # twoing: every state (L_k, T_k) of every class in the sweep, sorted by L_k / T_k
    n_steps = max(n_moving - 1, 0)
    state = np.zeros(1, dtype=np.int64)
    rank_of = np.zeros(1, dtype=np.int64)
    sorted_keys = np.zeros(1)
    tree_left, tree_total = np.zeros(1), np.zeros(1)
    state_left, state_total = np.zeros(1), np.zeros(1)
    if code == 0:
        n_states = K + n_steps
        state = np.empty(K, dtype=np.int64)       # each class's present state
        moves = np.zeros(K, dtype=np.int64)
        for i in range(n_steps):
            moves[moving_class[order[i]]] += 1
        start = 0
        for k in range(K):
            state[k] = start
            start += moves[k] + 1
        state_left, state_total = np.empty(n_states), np.empty(n_states)
        keys = np.empty(n_states)
        running = cumulative.copy()
        for k in range(K):
            state_left[state[k]], state_total[state[k]] = left[k], left[k] + right[k]
        following_state = state.copy()
        for i in range(n_steps):
            o = order[i]
            c = moving_class[o]
            running[c] += signed[o]
            on_left = max(total[c] - running[c], 0.0)
            following_state[c] += 1
            state_left[following_state[c]] = on_left
            state_total[following_state[c]] = on_left + max(total[c] - on_left, 0.0)
        for s in range(n_states):
            keys[s] = state_left[s] / state_total[s] if state_total[s] > 0 else 0.0
        by_key = np.empty(n_states, dtype=np.int64)
        sorted_keys = np.empty(n_states)
        sort_crossings(keys, sorted_keys, by_key, n_states,
                       np.empty((2, n_states), dtype=np.uint64),
                       np.empty((_RADIX_PASSES, _RADIX_BUCKETS), dtype=np.int64))
        # equal keys share a position (classes of equal size give few distinct keys)
        rank_of = np.empty(n_states, dtype=np.int64)
        n_keys = 0
        for r in range(n_states):
            if r == 0 or sorted_keys[r] != sorted_keys[n_keys - 1]:
                sorted_keys[n_keys] = sorted_keys[r]
                n_keys += 1
            rank_of[by_key[r]] = n_keys - 1
        sorted_keys = sorted_keys[:n_keys]
        tree_left, tree_total = np.zeros(n_keys + 1), np.zeros(n_keys + 1)
        for k in range(K):
            _fenwick_add(tree_left, tree_total, rank_of[state[k]], left[k],
                         left[k] + right[k])
    # bounds of twoing's rounding in the full scoring (see the comment above)
    difference_error = 8.0 * (K + 4) * _UNIT
    best_score, best_position, best_step = np.inf, -1, np.nan
    threshold = np.inf
    first_candidate, first_step = -1, np.nan
    following = u[0] if n_moving > 0 else 0.0
    for i in range(n_steps):
        o = order[i]
        c = moving_class[o]
        cumulative[c] += signed[o]
        on_left = max(total[c] - cumulative[c], 0.0)
        on_right = max(total[c] - on_left, 0.0)
        was_left, was_right = left[c], right[c]
        left[c], right[c] = on_left, on_right
        n_left += on_left - was_left
        n_right += on_right - was_right
        filled_left += int(on_left > 0) - int(was_left > 0)
        filled_right += int(on_right > 0) - int(was_right > 0)
        if code == 0:
            _fenwick_add(tree_left, tree_total, rank_of[state[c]], -was_left,
                         -(was_left + was_right))
            state[c] += 1
            _fenwick_add(tree_left, tree_total, rank_of[state[c]], on_left,
                         on_left + on_right)
        elif code == 1:
            added = _x_log2_x(on_left) + _x_log2_x(on_right)
            removed = _x_log2_x(was_left) + _x_log2_x(was_right)
            entropy_sum += added - removed
            entropy_error += 4 * _UNIT * (added + removed) + 2 * _UNIT * abs(entropy_sum)
        elif code == 2:
            squares_left += on_left * on_left - was_left * was_left
            squares_right += on_right * on_right - was_right * was_right
        elif code == 3 or code == 4:
            _set_largest(largest[0], K, c, on_left)
            _set_largest(largest[1], K, c, on_right)
        elif code == 5:
            first_left += rank[c] * (on_left - was_left)
            second_left += rank[c] * rank[c] * (on_left - was_left)
            first_right += rank[c] * (on_right - was_right)
            second_right += rank[c] * rank[c] * (on_right - was_right)
        here, following = following, u[i + 1]
        middle = (here + following) / 2
        if not (here < middle < following if strict else here < following):
            continue  # no candidate between these crossings
        if first_candidate < 0:
            first_candidate, first_step = i, middle
        if filled_left == 0 or filled_right == 0:
            score = np.inf  # an empty side separates nothing
        elif filled_left <= 1 and filled_right <= 1:
            score = 0.0  # both sides homogeneous
        elif code == 0:
            n_all = n_left + n_right
            below = np.searchsorted(sorted_keys, n_left / n_all)
            sum_left, sum_total = _fenwick_prefix(tree_left, tree_total, below)
            gap = n_left * sum_total - n_all * sum_left       # G, exact
            difference = 2.0 * gap / (n_left * n_right)
            low = max(difference - difference_error, 0.0)
            high = difference + difference_error
            share = (n_left / n_all) * (n_right / n_all)
            value_low = share * low * low / 4 * (1 - 32 * _UNIT)
            value_high = share * high * high / 4 * (1 + 32 * _UNIT)
            lower[i] = (1.0 / max(value_high, _TINY)) * (1 - 8 * _UNIT)
            threshold = min(threshold, (1.0 / max(value_low, _TINY)) * (1 + 8 * _UNIT))
            continue
        elif code == 1:
            # parent − (|TL| H_L + |TR| H_R) / N, with
            # |TL| H_L = |TL| log2 |TL| − Σ L_k log2 L_k;
            # the full formula's sides' entropies are off by at most ~(K + 4) units of
            # H + 2 (rounded shares, logarithms and the sum), H ≤ log2 N
            n_all = n_left + n_right
            sides = _x_log2_x(n_left) + _x_log2_x(n_right)
            weighted = (sides - entropy_sum) / n_all
            gain = parent_entropy - weighted
            error = (4.0 * (K + 8) * _UNIT * (np.log2(n_all) + 4)
                     + (entropy_error + 4 * _UNIT * (sides + abs(entropy_sum))) / n_all
                     + 4 * _UNIT * (abs(parent_entropy) + abs(weighted)))
            gain_high, gain_low = gain + error, gain - error
            lower[i] = ((1.0 / max(gain_high, _TINY)) * (1 - 4 * _UNIT)
                        if gain_high > 1e-12 else np.inf)
            if gain_low > 1e-12:
                threshold = min(threshold, (1.0 / max(gain_low, _TINY)) * (1 + 4 * _UNIT))
            continue
        elif code == 2:  # Gini
            score = _gini(n_left, squares_left, n_right, squares_right)
        elif code == 3 or code == 4:  # the minorities
            score = _minority(code, n_left, largest[0, 1], n_right, largest[1, 1])
        else:  # sum of variances
            score = _variances(first_left, second_left, n_left, first_right,
                               second_right, n_right)
        lower[i] = score
        threshold = min(threshold, score)
        if code > 1 and (best_position < 0 or score < best_score):
            best_score, best_position, best_step = score, i, middle
    if code == 0 and not threshold < np.inf and first_candidate >= 0:
        return np.inf, first_candidate, first_step, threshold
    if code == 1 and not threshold < np.inf:
        threshold = _LARGEST   # no candidate surely gains: score those that may
    return best_score, best_position, best_step, threshold


@njit(cache=True, nogil=True)
def line_step(current, direction, node, workspace, bounded):
    """:func:`best_step` at a node: ``node`` is ``(classes, weights, total, code,
    parent_entropy, rank)``, the rows' classes and weights (:func:`row_classes`), the
    class totals, the measure's code and the node's constants; ``workspace`` a
    :func:`line_workspace`.  Every argument has one type for every caller (numba
    compiles one signature).

    Row ``j`` changes side at ``U_j = −current_j / direction_j`` (Eq. 2); rows with
    ``direction_j = 0`` never move.  The crossings are sorted once; every midpoint between
    consecutive distinct crossings (strictly between them: not for two neighbouring
    numbers) is a candidate, its class counts the running sums of
    the rows passed (a row with a negative direction moves left, so it counts with its
    weight negated).  The first candidate of the lowest impurity wins.  ``bounded``: at
    a node of many classes with whole counts, score in full only the candidates that can
    win (:func:`_bounded_sweep`; the same result)."""
    classes, weights, total, code, parent_entropy, rank = node
    classes_and_order, crossings_and_weights, counts, sort_keys, digit_counts = workspace
    K, n = total.shape[0], current.shape[0]
    moving_class, order = classes_and_order[0], classes_and_order[1]
    crossings, signed = crossings_and_weights[0], crossings_and_weights[1]
    sorted_crossings = crossings_and_weights[2]
    fixed_right, negative_sum = counts[_FIXED_RIGHT], counts[_NEGATIVE_SUM]
    cumulative, left, right = counts[_CUMULATIVE], counts[_LEFT], counts[_RIGHT]
    for k in range(K):
        fixed_right[k], negative_sum[k], cumulative[k] = 0.0, 0.0, 0.0
    n_moving = np.int64(0)
    any_negative = False
    for j in range(n):
        if direction[j] != 0:
            moving_class[n_moving] = classes[j]
            crossings[n_moving] = -current[j] / direction[j]
            if direction[j] < 0:
                any_negative = True
                negative_sum[classes[j]] += weights[j]
                signed[n_moving] = -weights[j]
            else:
                signed[n_moving] = weights[j]
            n_moving += 1
        elif current[j] >= 0:
            fixed_right[classes[j]] += weights[j]
    if n_moving == 0:
        return np.inf, np.nan
    u = sorted_crossings
    sort_crossings(crossings, u, order, n_moving, sort_keys, digit_counts)
    # right of t just above the i-th crossing: (d > 0 rows among the first i + 1) +
    # (d < 0 rows after): the cumulative signed counts, started at this constant term
    for k in range(K):
        cumulative[k] = negative_sum[k] + fixed_right[k] if any_negative else fixed_right[k]
    if bounded and _bounds_apply(weights, total, code):
        lower = crossings   # free once sorted: the candidates' lower bounds
        best_score, best_position, best_step, threshold = _bounded_sweep(
            n_moving, order, moving_class, signed, u, cumulative, total, code,
            parent_entropy, rank, lower, np.bool_(True))
        if best_position >= 0 or not threshold < np.inf:
            return best_score, best_step   # found, or no candidate separates anything
        for k in range(K):   # the sweep again, scoring only the candidates that can win
            cumulative[k] = (negative_sum[k] + fixed_right[k] if any_negative
                             else fixed_right[k])
    else:
        lower, threshold = crossings, np.inf
    best_score, best_position, best_step = np.inf, -1, np.nan
    following = u[0]
    for i in range(n_moving - 1):
        o = order[i]
        cumulative[moving_class[o]] += signed[o]
        here, following = following, u[i + 1]
        middle = (here + following) / 2
        if not here < middle < following:
            continue  # no number strictly between these crossings: no candidate
        if threshold < np.inf and best_position >= 0 and lower[i] > threshold:
            continue  # its impurity is surely above the lowest
        n_left, n_right = 0.0, 0.0
        largest_left, largest_right = -np.inf, -np.inf
        for k in range(K):
            on_left = max(total[k] - cumulative[k], 0.0)
            on_right = max(total[k] - on_left, 0.0)
            left[k], right[k] = on_left, on_right
            n_left += on_left
            n_right += on_right
            largest_left = max(largest_left, on_left)
            largest_right = max(largest_right, on_right)
        # the measures of measure_value, written out in the sweep: a call per candidate
        # costs the sweep three times its time
        if n_left <= 0 or n_right <= 0:
            score = np.inf  # an empty side separates nothing
        elif largest_left >= n_left and largest_right >= n_right:
            score = 0.0  # both sides homogeneous
        elif code == 0:  # twoing
            n_all = n_left + n_right
            inverse_left, inverse_right = 1.0 / n_left, 1.0 / n_right
            difference = 0.0
            for k in range(K):
                difference += abs(left[k] * inverse_left - right[k] * inverse_right)
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
            first_left, second_left = _rank_sums(left, rank)
            first_right, second_right = _rank_sums(right, rank)
            score = _variances(first_left, second_left, n_left, first_right, second_right,
                               n_right)
        if best_position < 0 or score < best_score:
            best_score, best_position, best_step = score, i, middle
    if best_position < 0:
        return np.inf, np.nan
    return best_score, best_step


@njit(cache=True, nogil=True)
def side_impurity(values, node, workspace):
    """The impurity of the split ``values >= 0`` (right) by the measure of ``node`` (a
    :func:`line_step`'s node and workspace).

    It is the one candidate of a :func:`line_step` from ``-1`` (rows left of the split)
    and ``+1`` (right) along ``+1``: all crossings are at ``±1``, so the only candidate is
    ``t = 0``, with the rows right of the split on its right."""
    n = values.shape[0]
    sides = np.empty(n)
    for j in range(n):
        sides[j] = -1.0 if values[j] < 0 else 1.0
    score, _ = line_step(sides, np.ones(n), node, workspace, np.bool_(False))
    return score


@njit(cache=True, nogil=True)
def counts_impurity(left, total, code, parent_entropy, rank):
    """The impurity by measure ``code`` of the split with class counts ``left`` on its
    left side, ``total`` at the node (:func:`split_score`; the right side's counts
    ``total − left``, at least 0)."""
    K = total.shape[0]
    right = np.empty(K)
    n_left, n_right = 0.0, 0.0
    largest_left, largest_right = -np.inf, -np.inf
    for k in range(K):
        right[k] = max(total[k] - left[k], 0.0)
        n_left += left[k]
        n_right += right[k]
        largest_left = max(largest_left, left[k])
        largest_right = max(largest_right, right[k])
    return split_score(left, right, n_left, n_right, largest_left, largest_right, code,
                       parent_entropy, rank)


@njit(cache=True, nogil=True)
def candidate_impurities(left, total, code, parent_entropy, rank):
    """:func:`counts_impurity` of every column of ``left`` (K, m): ``m`` candidates'
    class counts on their left sides."""
    K, m = left.shape
    scores = np.empty(m)
    side = np.empty(K)
    for i in range(m):
        for k in range(K):
            side[k] = left[k, i]
        scores[i] = counts_impurity(side, total, code, parent_entropy, rank)
    return scores


@njit(cache=True, nogil=True)
def leaf_impurity(total, code, parent_entropy, rank):
    """The measure ``code`` with every row of the node (class counts ``total``) on one
    side (:func:`measure_value` without OC1's special cases)."""
    K = total.shape[0]
    n, largest = 0.0, 0.0
    for k in range(K):
        n += total[k]
        largest = max(largest, total[k])
    return measure_value(np.zeros(K), total, 0.0, n, 0.0, largest, code, parent_entropy,
                         rank)


#: The coefficient orders of :func:`local_search`, numbered for the kernel.
ORDER_CODES = {"sequential": 0, "best_first": 1, "random": 2}


@njit(cache=True, nogil=True)
def _uniform(words, used):
    """``RandomState.random_sample()`` from the generator's next two 32-bit outputs
    ``words[used:used + 2]`` (numpy's legacy ``random_sample``: 53 bits, the first
    word's top 27 and the second's top 26)."""
    return ((words[used] >> 5) * 67108864.0 + (words[used + 1] >> 6)) / 9007199254740992.0


@njit(cache=True, nogil=True)
def _random_index(words, used, n):
    """``RandomState.randint(n)`` from the generator's 32-bit outputs from
    ``words[used]`` on (numpy's legacy masked rejection sampling): ``(value, words
    used)``, value -1 when the words run out."""
    if n == 1:
        return 0, used    # numpy draws nothing for a range of one number
    mask = n - 1
    shift = 1
    while shift < 64:
        mask |= mask >> shift
        shift *= 2
    while used < words.shape[0]:
        value = words[used] & mask
        used += 1
        if value < n:
            return value, used
    return -1, used


@njit(cache=True, nogil=True)
def local_search(Z, columns, node, workspace, hyperplane, values, current, search, words,
                 start):
    """One restart of OC1's hill climbing (Section 2): the deterministic perturbation
    of Figure 2, then up to J random jumps (Section 2.3), the perturbation again after
    every jump that lowers the impurity.  Each perturbation of coefficient ``a_m`` by
    ``t`` is :func:`line_step` along its column of ``Z`` (Eq. 2).  A move that lowers
    the impurity is taken; one that leaves it unchanged (a stagnant perturbation) is
    taken with probability ``P_move``, which falls by ``stagnation_step`` after every
    stagnant perturbation, taken or not, and is reset to 1 by an improvement; a rise is
    never taken.  The coefficient order (:data:`ORDER_CODES`): sequential (every
    coefficient but the bias, in order, pass after pass until none moves), best first
    (of all the coefficients' best moves the lowest, while one is taken), random (R-50:
    ``random_order_moves`` coefficients drawn at random).

    ``hyperplane`` and ``values`` (``Z @ hyperplane``) change in place; returns
    ``(impurity, position)``, ``position`` the index in ``words`` of the first word not
    used.  The random numbers are the generator's 32-bit outputs ``words[start:]``
    (whole numbers, int64), used as numpy's ``RandomState`` would use them: a stagnant
    move takes a ``random_sample()``, a jump's direction ``d + 1`` of ``uniform(-1, 1)``,
    the random order a ``randint(d + 1)`` per move; when they run out the search stops
    and returns position ``-1`` (the caller draws more and starts again).  ``columns``
    is ``Z.T`` contiguous; ``node`` and ``workspace`` are :func:`line_step`'s;
    ``search`` is ``(order, n_random_jumps, stagnation_step, max_passes, bounded,
    random_order_moves)``; a ``current`` impurity of NaN is computed here
    (:func:`side_impurity`)."""
    order, n_random_jumps, stagnation_step, max_passes, bounded, random_order_moves = search
    n, n_coefficients = Z.shape
    used = start
    change = np.empty(n)
    direction = np.empty(n_coefficients)
    scores, steps = np.empty(n_coefficients), np.empty(n_coefficients)
    if math.isnan(current):
        current = side_impurity(values, node, workspace)
    while True:
        # deterministic perturbation (Figure 2)
        p_move = 1.0
        if order == 0:
            n_moves = max_passes * (n_coefficients - 1)
        elif order == 1:
            n_moves = max_passes * n_coefficients
        else:
            n_moves = random_order_moves
        moved_in_pass = False
        for move in range(n_moves):
            if order == 0:
                m = move % (n_coefficients - 1)
                if m == 0 and move > 0:
                    if not moved_in_pass:
                        break
                    moved_in_pass = False
                new, step = line_step(values, columns[m], node, workspace, bounded)
            elif order == 1:
                m = 0
                for k in range(n_coefficients):
                    scores[k], steps[k] = line_step(values, columns[k], node, workspace,
                                                    bounded)
                    if scores[k] < scores[m]:
                        m = k
                new, step = scores[m], steps[m]
            else:
                m, used = _random_index(words, used, n_coefficients)
                if m < 0:
                    return current, -1
                new, step = line_step(values, columns[m], node, workspace, bounded)
            taken = False
            if math.isfinite(new):
                if improves(new, current):
                    p_move = 1.0
                    taken = True
                elif equal(new, current):
                    if used + 2 > words.shape[0]:
                        return current, -1
                    taken = _uniform(words, used) < p_move
                    used += 2
                    p_move = max(p_move - stagnation_step, 0.0)
            if taken:
                hyperplane[m] += step
                column = columns[m]
                for j in range(n):
                    values[j] = values[j] + step * column[j]
                current = new
                moved_in_pass = True
            elif order == 1:
                break
        # random jumps (Section 2.3)
        jumped = False
        for _ in range(n_random_jumps):
            if used + 2 * n_coefficients > words.shape[0]:
                return current, -1
            for m in range(n_coefficients):
                direction[m] = -1.0 + 2.0 * _uniform(words, used + 2 * m)
            used += 2 * n_coefficients
            np.dot(Z, direction, change)
            new, step = line_step(values, change, node, workspace, bounded)
            if improves(new, current):
                for m in range(n_coefficients):
                    hyperplane[m] += step * direction[m]
                for j in range(n):
                    values[j] = values[j] + step * change[j]
                current = new
                jumped = True
                break
        if not jumped:
            return current, used
