"""Compiled kernels (numba) for the per-node work that numpy does in many small calls.

A line search of OC1 (:func:`~.impurity.best_step`, Eq. 2) at a node of a few hundred
rows costs ~100 µs in numpy, nearly all of it the overhead of some thirty array calls;
compiled, the same arithmetic takes a few µs.  The kernels repeat the numpy code's
operations in the same order (left-to-right products, sums over the classes from the
first class on), so that with whole-number weights -- Orange's default, and any data
without instance weights -- they give bit for bit the same scores and steps, and hence the
same trees.  With fractional weights, numpy's matrix products (``indicators @ mask``) may
add in another order: the results then agree to rounding, not to the bit.

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
