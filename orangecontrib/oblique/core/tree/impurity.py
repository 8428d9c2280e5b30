"""Impurity of binary splits (OC1, Appendix B) and the threshold searches, over numpy
arrays; the measures themselves are computed in one place, the compiled
:func:`.line_search.measure_value`.

Every measure scores a split from the (weighted) class counts on its two sides, **lower
is better**.  Goodness measures (the twoing rule, information gain) are turned into
impurities by taking their reciprocal, as OC1 does.  As in OC1, a split whose two sides
are both homogeneous has impurity 0; a split with an empty side has infinite impurity
(it separates nothing).  The measures (:data:`MEASURES`):

* ``twoing``: the reciprocal of the twoing value (Breiman et al.; OC1 Section 2.4),
  ``(|TL|/n)(|TR|/n)(Σ_i |L_i/|TL| − R_i/|TR||)² / 4``;
* ``information_gain``: the reciprocal of Quinlan's gain ``H(T) − Σ_side |side|/n ·
  H(side)``;
* ``gini``: ``(|TL|·Gini_L + |TR|·Gini_R) / n`` with ``Gini = 1 − Σ_i p_i²`` (also the
  GDT paper's Eq. 6);
* ``max_minority``: ``max(minority_L, minority_R)``, a side's minority the number of its
  rows not of its majority class (Heath, Kasif & Salzberg);
* ``sum_minority``: ``minority_L + minority_R``, the rows misclassified;
* ``sum_of_variances``: ``variance_L + variance_R`` with ``variance = Σ (cat − mean
  cat)²`` over a side, classes numbered 0, 1, ... by decreasing frequency at the node.

Counts are laid out class-major, shape (K, m).  :func:`best_threshold`,
:func:`best_axis_parallel` and :func:`best_thresholds` evaluate *all* thresholds of a
sorted one-dimensional projection from cumulative class counts (numpy, no Python loop
over thresholds) and score them with the kernel (:func:`evaluate_candidates`); they take
the rows' classes as a (K, n_rows) matrix from :func:`class_indicators`.  OC1's line
search along a direction (:func:`best_step`, Eq. 2) is a compiled kernel
(:mod:`.line_search`), with the same measures.
"""
import numpy as np

from . import line_search

_TINY = float(np.finfo(float).tiny)

#: The names of the measures (see the module docstring).
MEASURES = tuple(line_search.MEASURE_CODES)


def entropy(counts, axis=0, size=None):
    """Entropy in bits of (weighted) class counts along ``axis``; 0 for no rows (Quinlan
    1993, ch. 2: ``info(S) = −Σ_c p_c log2 p_c``).

    ``size`` holds the sums of ``counts`` along ``axis`` when the caller has them
    (broadcastable against ``counts``); by default they are summed here.
    """
    counts = np.asarray(counts, dtype=float)
    if size is None:
        size = counts.sum(axis=axis, keepdims=True)
    p = counts / np.maximum(size, _TINY)
    return -(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=axis)


def node_constants(total):
    """What the measures take from the node: its entropy (information gain) and its
    classes' ranks by decreasing frequency (sum of variances)."""
    total = np.asarray(total, dtype=float)
    rank = np.empty(total.size)
    rank[np.argsort(-total, kind="stable")] = np.arange(total.size)
    return float(entropy(total, size=np.sum(total))), rank


def measure_code(name):
    """The kernels' number of the measure called ``name`` (one of :data:`MEASURES`), or a
    clear ValueError."""
    try:
        return line_search.MEASURE_CODES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown impurity measure {name!r}; "
                         f"expected one of {sorted(MEASURES)}") from None


def class_indicators(y, sample_weight, n_classes):
    """Weighted class indicator matrix of shape (n_classes, n_rows)."""
    indicators = np.zeros((n_classes, len(y)))
    indicators[y, np.arange(len(y))] = sample_weight
    return indicators


def line_node(indicators, measure):
    """What :func:`.line_search.line_step` takes from a node of class indicator matrix
    ``indicators`` (:func:`class_indicators`): its ``node`` tuple (the rows' classes and
    weights, the class totals, the measure's code, the node's constants), each of the one
    type the kernels are compiled for."""
    code = measure_code(measure)
    indicators = np.ascontiguousarray(indicators, dtype=float)
    classes, weights = line_search.row_classes(indicators)
    total = indicators.sum(axis=1)
    parent_entropy, rank = node_constants(total)
    return classes, weights, total, code, parent_entropy, rank


def impurity(left, total, measure="twoing"):
    """Impurity of each candidate split by the named measure (see :data:`MEASURES`).

    ``left`` (m, K) holds the class counts left of each candidate, ``total`` (K,) those of
    the node.  Both sides homogeneous → 0; an empty side → ``inf``.
    """
    left = np.atleast_2d(np.asarray(left, dtype=float)).T
    return evaluate_candidates(measure_code(measure), left, total)


def leaf_impurity(total, measure):
    """The measure with every row of a node of class counts ``total`` on one side
    (:func:`.line_search.leaf_impurity`)."""
    code = measure_code(measure)
    total = np.ascontiguousarray(total, dtype=float)
    return float(line_search.leaf_impurity(total, code, *node_constants(total)))


def evaluate_candidates(code, left, total, constants=None):
    """Impurities by measure ``code`` (:func:`measure_code`) of ``m`` candidates from the
    class counts of their left sides, laid out class-major (K, m), and the node's class
    counts ``total`` (K,): :func:`.line_search.candidate_impurities`.  ``constants``:
    :func:`node_constants` of ``total``, when the caller has them."""
    total = np.ascontiguousarray(total, dtype=float)
    parent_entropy, rank = node_constants(total) if constants is None else constants
    return line_search.candidate_impurities(np.ascontiguousarray(left, dtype=float), total,
                                            code, parent_entropy, rank)


def best_threshold(values, indicators, measure="twoing"):
    """Best split ``value >= threshold`` (right) of one-dimensional ``values``.

    ``indicators`` is the (K, n_rows) matrix of :func:`class_indicators`.  Every midpoint
    between consecutive distinct sorted values is a candidate.  Returns
    ``(impurity, threshold)``, or ``(inf, nan)`` when all values are equal.
    """
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    cumulative = np.cumsum(np.take(indicators, order, axis=1), axis=1)
    distinct = np.flatnonzero(sorted_values[1:] > sorted_values[:-1])
    if distinct.size == 0:
        return np.inf, np.nan
    scores = evaluate_candidates(measure_code(measure),
                                 np.take(cumulative, distinct, axis=1), cumulative[:, -1])
    best = int(np.argmin(scores))
    i = distinct[best]
    return float(scores[best]), float((sorted_values[i] + sorted_values[i + 1]) / 2)


#: The searches over many columns (:func:`best_axis_parallel`, :func:`best_thresholds`)
#: take the columns in blocks whose cumulative class counts (classes × columns × rows)
#: have at most this many cells, or one column when a column alone has more: their memory
#: is O(classes × rows) besides the input, not O(classes × rows × columns) (before,
#: 40 classes of 4,000 rows × 1,000 features held 6 GB at once).  Every candidate's score
#: is computed element by element as in one block, so the choice is the same.
BLOCK_CELLS = 1 << 18


def _column_blocks(V, indicators, code):
    """Every threshold candidate of every column of ``V``, a block of columns at a time
    (:data:`BLOCK_CELLS`): ``(first, sorted_values, column, row, scores)`` per block with
    a candidate, ``column`` counted from ``first``, ``row`` the candidate's position in
    the column's sorted values (the midpoint of ``row`` and ``row + 1``)."""
    n_rows, n_columns = V.shape
    total = indicators.sum(axis=1)
    constants = node_constants(total)
    width = max(1, BLOCK_CELLS // max(indicators.shape[0] * n_rows, 1))
    for first in range(0, n_columns, width):
        block = V[:, first:first + width]
        order = np.argsort(block, axis=0, kind="stable")
        sorted_values = np.take_along_axis(block, order, axis=0)
        cumulative = np.cumsum(np.take(indicators, order.T, axis=1), axis=2)  # (K, w, n)
        column, row = np.nonzero((sorted_values[1:] > sorted_values[:-1]).T)
        if column.size == 0:
            continue
        left = np.take(cumulative.reshape(cumulative.shape[0], -1), column * n_rows + row,
                       axis=1)
        del cumulative
        yield first, sorted_values, column, row, evaluate_candidates(code, left, total,
                                                                     constants)


def _bounded_axis_parallel(X, indicators, code):
    """:func:`best_axis_parallel` of many classes with whole class counts, or None when
    :func:`.line_search._bounds_apply` says no: per column, one sweep of
    :func:`.line_search._bounded_sweep` bounds every threshold's impurity in O(log n), and
    only the thresholds whose bound reaches the lowest of all columns are scored as
    :func:`_column_blocks` scores them: the same choice and impurity, in O(n log n) time
    and O(n) memory a column instead of O(n · classes)."""
    classes, weights = line_search.row_classes(indicators)
    total = indicators.sum(axis=1)
    if not line_search._bounds_apply(weights, total, code):
        return None
    n_rows, n_columns = X.shape
    parent_entropy, rank = node_constants(total)
    moved_left = -weights
    columns = []
    threshold = np.inf
    for j in range(n_columns):
        order = np.argsort(X[:, j], kind="stable")
        sorted_values = X[order, j]
        lower = np.full(n_rows, np.inf)
        _, _, _, upper = line_search._bounded_sweep(n_rows, order, classes, moved_left,
                                                sorted_values, total.copy(), total, code,
                                                parent_entropy, rank, lower, False)
        candidates = np.flatnonzero(sorted_values[1:] > sorted_values[:-1])
        columns.append((order, sorted_values, candidates, lower[candidates]))
        threshold = min(threshold, upper)
    if code == 1 and not threshold < np.finfo(float).max:
        return None   # no threshold surely gains information: score them all
    width = max(1, BLOCK_CELLS // max(indicators.shape[0] * n_rows, 1))
    best, found = (np.inf, -1, np.nan), False
    for first in range(0, n_columns, width):
        block = columns[first:first + width]
        in_block = sum(candidates.size for _, _, candidates, _ in block)
        chosen = []
        for j, (order, sorted_values, candidates, lower) in enumerate(block, first):
            near = candidates[lower <= threshold] if threshold < np.inf else candidates[:1]
            chosen.extend((j, row) for row in near)
        if not chosen:
            continue
        if code > 1 or not threshold < np.inf:
            # the bounds are the impurities themselves (Gini, minorities, variances),
            # or every candidate has an empty side: the first of the lowest
            chosen = chosen[:1]
        left = np.empty((indicators.shape[0], max(len(chosen), 1 + (in_block > 1))))
        for i, (j, row) in enumerate(chosen):
            rows = columns[j][0][:row + 1]
            left[:, i] = np.bincount(classes[rows], weights[rows],
                                     minlength=indicators.shape[0])
        left[:, len(chosen):] = left[:, :1]   # a block of several is summed in order
        scores = evaluate_candidates(code, left, total, (parent_entropy, rank))[:len(chosen)]
        i = int(np.argmin(scores))
        score = scores[i]
        if not found or score < best[0] or (np.isnan(score) and not np.isnan(best[0])):
            j, row = chosen[i]
            sorted_values = columns[j][1]
            best = (float(score), j,
                    float((sorted_values[row] + sorted_values[row + 1]) / 2))
            found = True
        if code > 1 or not threshold < np.inf:
            break
    return best


def best_axis_parallel(X, indicators, measure="twoing"):
    """Best split ``x_j >= threshold`` over all features and all midpoints.

    Returns ``(impurity, feature, threshold)``; ``(inf, -1, nan)`` if every feature is
    constant.  Ties go to the lowest feature index, then the lowest threshold.  Of many
    classes, the thresholds that cannot win are not scored (:func:`_bounded_axis_parallel`).
    """
    bounded = _bounded_axis_parallel(X, indicators, measure_code(measure))
    if bounded is not None:
        return bounded
    best = (np.inf, -1, np.nan)
    found = False
    for first, sorted_values, column, row, scores in _column_blocks(
            X, indicators, measure_code(measure)):
        i = int(np.argmin(scores))
        score = scores[i]
        # np.argmin over all blocks at once: the first lowest score (a NaN before all)
        if not found or score < best[0] or (np.isnan(score) and not np.isnan(best[0])):
            j, r = int(column[i]), int(row[i])
            best = (float(score), first + j,
                    float((sorted_values[r, j] + sorted_values[r + 1, j]) / 2))
            found = True
    return best


def best_thresholds(V, indicators, measure="twoing"):
    """Best split ``V[:, j] >= threshold`` of every column ``j`` on its own, all columns
    and midpoints at once.

    Returns ``(impurities, thresholds)``, each of shape (n_columns,): per column the
    lowest impurity and its threshold (the lowest of equal ones); ``(inf, nan)`` for a
    constant column.
    """
    n_columns = V.shape[1]
    impurities = np.full(n_columns, np.inf)
    thresholds = np.full(n_columns, np.nan)
    for first, sorted_values, column, row, scores in _column_blocks(
            V, indicators, measure_code(measure)):
        # per column, the first candidate of lowest score (candidates are in column order)
        by_score = np.lexsort((np.arange(scores.size), scores, column))
        chosen = by_score[np.r_[True, column[by_score][1:] != column[by_score][:-1]]]
        chosen_column, chosen_row = column[chosen], row[chosen]
        impurities[first + chosen_column] = scores[chosen]
        thresholds[first + chosen_column] = (sorted_values[chosen_row, chosen_column]
                                             + sorted_values[chosen_row + 1,
                                                             chosen_column]) / 2
    return impurities, thresholds


def best_step(current, direction, indicators, measure="twoing"):
    """Best ``t`` for the split ``current + t·direction >= 0`` (OC1's Eq. 2 line search,
    :func:`.line_search.line_step`).

    ``current`` holds every row's value of the present hyperplane, ``direction`` how that
    value changes per unit of ``t`` (a feature column when one coefficient is perturbed, or
    ``r·x̃`` for a random jump).  Row ``j`` changes side at ``U_j = −current_j /
    direction_j``; rows with ``direction_j = 0`` never move; every midpoint between
    distinct ``U_j`` is a candidate.  ``indicators`` is the (K, n_rows) matrix of
    :func:`class_indicators`.  Returns ``(impurity, t)``, or ``(inf, nan)`` when no row
    can move.
    """
    node = line_node(indicators, measure)
    current, direction = (np.ascontiguousarray(array, dtype=float)
                          for array in (current, direction))
    workspace = line_search.line_workspace(len(current), len(node[2]))
    return line_search.line_step(current, direction, node, workspace, True)
