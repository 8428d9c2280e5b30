"""The split search of SPORF (Tomita et al., "Sparse Projection Oblique Randomer Forests",
JMLR 21(104), 2020): the best of many random *sparse* projections of a node's rows.

At every node SPORF draws a random ``p × d`` matrix ``A`` whose non-zero entries are
``+1`` or ``−1`` with equal probability, projects the node's rows onto its ``d`` columns
and splits on the best of the ``d`` projections by the ordinary threshold search of a
decision tree (Section 3 of the paper; a random forest is the special case of one
non-zero, of weight 1, per column).  As in the authors' implementation (R package
``rerf``, function ``RandMatBinary``), ``round(λ·p·d)`` cells of ``A`` are drawn without
replacement, so a projection has ``λ·p`` attributes on average (some none: they are
skipped, some several).

Here the ``±1`` weights apply to the attributes *standardised* by their standard
deviation over the tree's training rows, so that a projection does not depend on the
units of its attributes; in raw units an attribute's weight is ``±1/s_j``, rounded to
:data:`~orangecontrib.oblique.core.tree.splits.DIGITS` significant digits so that a printed
rule shows the weights the split uses.  A projection of one attribute gets weight ``+1``
(a split ``x_j ≥ t`` in the attribute's own units: the sign of a lone weight changes no
partition).  The matrix is drawn over all ``p`` attributes at every node, as ``rerf``
draws it, also where some are constant over the node's rows; a non-zero on such an
attribute only adds a constant to its projection, so it is left out of the split (which
then names no attribute that does not vary at its node), and a projection with none of the
others is no candidate.  A node none of whose candidates separates its rows is a leaf, as
in ``rerf``.

The search over the ``d`` projections (:func:`search_projections`: numba kernels around
numpy's sorts) is the ordinary threshold search of a decision tree with the Gini index
(the criterion of a random forest) on every projection.
"""
from numbers import Integral, Real

import numpy as np
from numba import njit
from scipy import sparse

from ..parameters import Interval, Options, check_value
from ..tree.splits import DIGITS, MAX_DIGITS, Split, round_significant

__all__ = ["SparseProjectionSplitter", "n_projections", "mean_nonzeros", "varying_features",
           "projection_matrix", "readable_threshold", "search_projections",
           "projection_values", "best_cut", "node_classes"]

_TINY = float(np.finfo(float).tiny)
#: Gini impurities closer than this are equal (the first cut of them is kept): the sums
#: of :func:`search_projections`, updated row by row, round the same class counts
#: differently when they are reached in another order.
_EQUAL_SCORES = 1e-12

#: ``feature_combinations="auto"``: the mean number of attributes per projection, ``λ·p``,
#: of the authors' R package ``rerf`` (``defaults()``: ``sparsity = 3/p`` for ``p ≥ 10``
#: attributes, ``1/p`` below).
AUTO_COMBINATIONS_MANY, AUTO_COMBINATIONS_FEW, AUTO_COMBINATIONS_LIMIT = 3.0, 1.0, 10
#: The values ``max_features`` takes (:func:`n_projections`).
MAX_FEATURES = (Options("sqrt", "log2"), None, Interval(Integral, 1, None),
                Interval(Real, 0, 1, closed="right"))
#: The values ``feature_combinations`` takes (:func:`mean_nonzeros`).
FEATURE_COMBINATIONS = (Options("auto"), Interval(Real, 1, None))


#: :func:`drawn_cells` without keys, or without cells.
_NO_KEYS = np.zeros(0)
_NO_CELLS = np.zeros(0, dtype=np.intp)
_NO_SIGNS = np.zeros(0, dtype=np.bool_)

#: Nodes of at most this many rows are searched in one kernel call, their projections
#: sorted there (:func:`search_small_node`); larger ones by numpy's faster sort, between
#: two kernels.  Most nodes of a tree grown until its leaves are pure are small.
SORTED_IN_KERNEL = 128

#: Nodes whose matrix has at most this many cells (``p_node × d``) draw its non-zeros as
#: the smallest of as many random keys: one call to the generator, faster than its
#: ``choice`` for the small matrices of most nodes.
KEYED_CELLS = 4096


def n_projections(max_features, n_features):
    """The number ``d`` of candidate projections per node for ``max_features``:
    ``"sqrt"`` ``⌈√p⌉`` (the ``rerf`` package's default ``d = ceiling(sqrt(p))``),
    ``"log2"`` ``⌈log2 p⌉``, None ``p``, an integer itself up to ``p²`` (more than
    ``p`` is allowed: the paper tunes ``d`` up to ``p²``; a larger integer is taken as
    ``p²``), a float in (0, 1] that share of ``p``, at least 1."""
    max_features = check_value("max_features", max_features, MAX_FEATURES)
    p = max(int(n_features), 1)
    if max_features is None:
        return p
    if isinstance(max_features, str):
        return (int(np.ceil(np.sqrt(p))) if max_features == "sqrt"
                else max(1, int(np.ceil(np.log2(p)))))
    if isinstance(max_features, Integral):
        return min(max_features, p * p)
    return max(1, int(round(max_features * p)))


def mean_nonzeros(feature_combinations, n_features):
    """The mean number ``λ·p`` of attributes per projection for ``feature_combinations``:
    ``"auto"`` 3 for 10 or more attributes, else 1 (``rerf``'s ``λ = 3/p`` or ``1/p``);
    a number of at least 1 itself, at most ``p``."""
    feature_combinations = check_value("feature_combinations", feature_combinations,
                                       FEATURE_COMBINATIONS)
    p = max(int(n_features), 1)
    if isinstance(feature_combinations, str):  # "auto"
        value = (AUTO_COMBINATIONS_MANY if p >= AUTO_COMBINATIONS_LIMIT
                 else AUTO_COMBINATIONS_FEW)
    else:
        value = float(feature_combinations)
    return min(value, float(p))


def readable_threshold(low, high):
    """``(threshold, digits)``: the number of fewest significant digits strictly between
    ``low < high`` (the nearest to their midpoint among those, 0 if it is between them),
    and its digits; the midpoint and :data:`~.splits.MAX_DIGITS` when no shorter number
    lies between them.  Any threshold between the two values separates the rows alike;
    a short one is a rule that reads as it routes (``x ≥ 2.5``, not ``x ≥ 2.4999999``)."""
    if low < 0 < high:
        return 0.0, 1
    middle = (low + high) / 2
    for digits in range(1, MAX_DIGITS):
        candidate = float(f"{middle:.{digits - 1}e}")
        if low < candidate < high:
            return candidate, digits
    return middle, MAX_DIGITS


def varying_features(X, rows):
    """Indices of the columns of ``X`` that are not constant over ``rows`` (not empty)
    (:func:`varying_columns` of every column)."""
    return np.flatnonzero(varying_columns(X, rows, np.arange(X.shape[1], dtype=np.intp)))


@njit(cache=True, nogil=True)
def varying_columns(X, rows, columns):
    """Whether each of ``columns`` (attributes, repeats allowed) is not constant over
    ``rows``; the rows are read only until one differs from the first (all of them for a
    constant column).  Empty ``columns``: whether any attribute varies, one element."""
    if columns.shape[0] == 0:
        columns = np.arange(X.shape[1])
        any_column = True
    else:
        any_column = False
    varies = np.zeros(columns.shape[0], dtype=np.bool_)
    first = rows[0]
    for k in range(columns.shape[0]):
        j = columns[k]
        x0 = X[first, j]
        for i in range(1, rows.shape[0]):
            x = X[rows[i], j]
            if x < x0 or x > x0:
                varies[k] = True
                break
        if any_column and varies[k]:
            return varies[k:k + 1]
    return varies[:1] if any_column else varies


def projection_matrix(features, cells, negative, unit, n_columns):
    """The non-zeros ``(feature, projection, coefficient)`` of a ``p_node × d`` matrix
    ``A`` over the node's ``features`` from its drawn ``cells`` (sorted indices into
    ``A``, projection-major) and their signs (``negative``): coefficient ``∓unit[j]`` (±1
    on the standardised attribute), or ``+1`` for the only attribute of a projection.
    Ordered by projection, then attribute."""
    projection, column = np.divmod(cells, features.size)
    feature = features[column]
    coefficient = np.where(negative, -1.0, 1.0) * unit[feature]
    coefficient[np.bincount(projection, minlength=n_columns)[projection] == 1] = 1.0
    return feature, projection, coefficient


@njit(cache=True, nogil=True)
def node_classes(codes, weights):
    """The node's classes present, numbered ``0 .. m-1`` in ascending order of their codes:
    every row's number, and every class's total weight (its rows' weights added in row
    order) and number of rows.  The codes are looked up in a table over their range when
    that is at most twice the node's ``n`` rows, else sorted: ``O(n log n)`` at most,
    whatever the number of classes of the data (absent classes take no time and no
    memory)."""
    n = codes.shape[0]
    row_class = np.empty(n, dtype=np.intp)
    low, high = codes[0], codes[0]
    for i in range(1, n):
        low, high = min(low, codes[i]), max(high, codes[i])
    n_present = 0
    if high - low < 2 * n:
        number = np.full(high - low + 1, -1, dtype=np.intp)
        for i in range(n):
            number[codes[i] - low] = 0
        for c in range(number.shape[0]):
            if number[c] == 0:
                number[c] = n_present
                n_present += 1
        for i in range(n):
            row_class[i] = number[codes[i] - low]
    else:
        by_class = np.argsort(codes, kind="mergesort")
        for i in range(n):
            if i == 0 or codes[by_class[i]] != codes[by_class[i - 1]]:
                n_present += 1
            row_class[by_class[i]] = n_present - 1
    total = np.zeros(n_present)
    total_rows = np.zeros(n_present, dtype=np.intp)
    for i in range(n):
        total[row_class[i]] += weights[i]
        total_rows[row_class[i]] += 1
    return row_class, total, total_rows


def search_projections(X, rows, features, cells, negative, unit, n_columns, codes,
                       weights):
    """The best split of the node's rows ``X[rows]`` over the projections of the drawn
    matrix (the non-zeros of :func:`projection_matrix`): every projection's values sorted,
    the Gini impurity of every cut between distinct neighbouring values from the class
    counts accumulated in that order, and the first projection of lowest impurity.

    Returns ``(k, low, high, impurity, split_weights, scales)``: the projection and the
    two neighbouring values of its best cut (the split is ``v_k >= threshold`` for any
    threshold in ``(low, high]``), ``(-1, nan, nan, inf)`` when no projection separates
    the rows; the projection's weights over all attributes, and the weighted standard
    deviations over the rows of the attributes it uses (0 elsewhere).  ``codes`` are the
    rows' class codes (integers), ``weights`` their weights: the class counts are kept
    for the classes present at the node only (:func:`node_classes`), so a node's search
    costs the same whatever the number of classes of the data.

    The cost of a node of ``n`` rows is the sorts, ``O(d · n log n)``: they are numpy's
    (``np.argsort``, whose quicksort is vectorised where the processor allows; several
    times faster than a compiled loop's mergesort), between two kernels, the projections'
    values (:func:`projection_values`) and the cuts (:func:`best_cut`).  The order of
    rows of equal value does not matter: cuts are only between distinct values, and the
    class counts left of a cut are then the same rows' whatever their order."""
    if rows.shape[0] <= SORTED_IN_KERNEL:
        return search_small_node(X, rows, features, cells, negative, unit, n_columns,
                                 codes, weights)
    values, projection, feature, coefficient, members = projection_values(
        X, rows, features, cells, negative, unit, n_columns)
    return _cut_sorted(X, rows, values, projection, feature, coefficient, members, codes,
                       weights)


def _cut_sorted(X, rows, values, projection, feature, coefficient, members, codes,
                weights):
    """:func:`best_cut` of the projections' ``values``, sorted by numpy."""
    searched = np.flatnonzero(members).astype(np.intp)
    orders = np.argsort(values[searched], axis=1)
    return best_cut(X, rows, values, orders, searched, projection, feature, coefficient,
                    codes, weights)


@njit(cache=True, nogil=True)
def search_small_node(X, rows, features, cells, negative, unit, n_columns, codes,
                      weights):
    """:func:`search_projections` of a node of at most :data:`SORTED_IN_KERNEL` rows in
    one call: the projections sorted by numba's ``np.argsort`` (slower than numpy's on
    long arrays, faster than a call out of the kernel on short ones)."""
    values, projection, feature, coefficient, members = projection_values(
        X, rows, features, cells, negative, unit, n_columns)
    searched = np.flatnonzero(members)
    orders = np.empty((searched.shape[0], rows.shape[0]), dtype=np.intp)
    for s in range(searched.shape[0]):
        orders[s] = np.argsort(values[searched[s]])
    return best_cut(X, rows, values, orders, searched, projection, feature, coefficient,
                    codes, weights)


@njit(cache=True, nogil=True)
def drawn_cells(X, rows, keys, chosen, negative, n_nonzero):
    """The node's matrix (:meth:`SparseProjectionSplitter._draw`) on the attributes that
    vary over its rows: ``(cells, negative)``.  With ``keys`` (``cells + n_nonzero`` uniform floats), the
    cells of the ``n_nonzero`` smallest of the first ``cells`` keys, in ascending order,
    and the signs ``keys[cells + t] < 0.5``; without (empty), the given ``chosen`` cells
    and signs ``negative``."""
    n_features = X.shape[1]
    if keys.shape[0]:
        cells = keys.shape[0] - n_nonzero
        # the n_nonzero smallest keys in one pass: a key below the largest kept replaces
        # it (n_nonzero ≪ cells: few do)
        chosen = np.arange(n_nonzero)
        largest = 0
        for t in range(1, n_nonzero):
            if keys[chosen[t]] > keys[chosen[largest]]:
                largest = t
        for c in range(n_nonzero, cells):
            if keys[c] < keys[chosen[largest]]:
                chosen[largest] = c
                largest = 0
                for t in range(1, n_nonzero):
                    if keys[chosen[t]] > keys[chosen[largest]]:
                        largest = t
        chosen = np.sort(chosen)
        negative = keys[cells:] < 0.5
    varies = varying_columns(X, rows, chosen % n_features)
    return chosen[varies], negative[varies]


@njit(cache=True, nogil=True)
def projection_values(X, rows, features, cells, negative, unit, n_columns):
    """The values of the node's rows on the drawn matrix's projections, shape
    ``(n_columns, n)``, with the non-zeros' projection, attribute and coefficient (see
    :func:`projection_matrix`) and every projection's number of non-zeros; row by row
    (the row's attributes read together)."""
    n = rows.shape[0]
    n_nonzero = cells.shape[0]
    projection = np.empty(n_nonzero, dtype=np.intp)
    feature = np.empty(n_nonzero, dtype=np.intp)
    coefficient = np.empty(n_nonzero)
    members = np.zeros(n_columns, dtype=np.intp)
    for t in range(n_nonzero):
        projection[t] = cells[t] // features.shape[0]
        feature[t] = features[cells[t] % features.shape[0]]
        coefficient[t] = (-1.0 if negative[t] else 1.0) * unit[feature[t]]
        members[projection[t]] += 1
    for t in range(n_nonzero):
        if members[projection[t]] == 1:
            coefficient[t] = 1.0
    values = np.zeros((n_columns, n))
    for i in range(n):
        row = rows[i]
        for t in range(n_nonzero):  # in the order of the non-zeros, as for every row
            values[projection[t], i] += coefficient[t] * X[row, feature[t]]
    return values, projection, feature, coefficient, members


@njit(cache=True, nogil=True)
def best_cut(X, rows, values, orders, searched, projection, feature, coefficient, codes,
             weights):
    """:func:`search_projections` after the sorts: ``orders[s]`` the rows' order on
    projection ``searched[s]``."""
    n, n_features = rows.shape[0], X.shape[1]
    n_nonzero = projection.shape[0]
    # Every row's class and the node's class totals (in weight and in rows), once: a
    # cut then costs O(1) whatever the number of classes -- the class counts left of
    # the cut and their sums of squares are updated by the one row that crosses it.
    row_class, total, total_rows = node_classes(codes, weights)
    n_classes = total.shape[0]
    node_weight = 0.0
    for i in range(n):
        node_weight += weights[i]
    total_squares = 0.0  # (this module's own loop: a cached kernel calls no other module's)
    for c in range(n_classes):
        total_squares += total[c] * total[c]
    total_classes = n_classes
    left = np.empty(n_classes)
    left_rows = np.empty(n_classes, dtype=np.intp)
    best_k, best_low, best_high, best_score = -1, np.nan, np.nan, np.inf
    for s in range(searched.shape[0]):
        k = searched[s]
        v = values[k]
        order = orders[s]
        left[:] = 0.0
        left_rows[:] = 0
        n_left, left_squares, right_squares = 0.0, 0.0, total_squares
        left_classes, right_classes = 0, total_classes
        cut_score, cut_imbalance, cut_low, cut_high = np.inf, np.inf, np.nan, np.nan
        for i in range(n - 1):
            row = order[i]
            c = row_class[row]
            w = weights[row]
            old_right = max(total[c] - left[c], 0.0)
            left_squares += w * (2.0 * left[c] + w)
            left[c] += w
            n_left += w
            new_right = max(total[c] - left[c], 0.0)
            right_squares += (new_right - old_right) * (new_right + old_right)
            if left_rows[c] == 0:
                left_classes += 1
            left_rows[c] += 1
            if left_rows[c] == total_rows[c]:
                right_classes -= 1
            if not v[order[i + 1]] > v[row]:
                continue  # not between distinct values: no candidate
            n_right = node_weight - n_left
            if n_left <= 0 or n_right <= 0:
                score = np.inf
            elif left_classes <= 1 and right_classes <= 1:
                score = 0.0  # both sides homogeneous
            else:
                score = ((n_left - left_squares / max(n_left, _TINY))
                         + (n_right - right_squares / max(n_right, _TINY))) / (
                             n_left + n_right)
            # of the projection's cuts of equal impurity, the most even one
            imbalance = abs(n_left - n_right)
            if score < cut_score - _EQUAL_SCORES or (
                    score <= cut_score + _EQUAL_SCORES and imbalance < cut_imbalance):
                cut_score, cut_imbalance = min(score, cut_score), imbalance
                cut_low, cut_high = v[row], v[order[i + 1]]
        if cut_score < best_score - _EQUAL_SCORES:  # the first projection of them
            best_k, best_score, best_low, best_high = k, cut_score, cut_low, cut_high
    split_weights, scales = np.zeros(n_features), np.zeros(n_features)
    if best_k < 0:
        return -1, np.nan, np.nan, np.inf, split_weights, scales
    weight_sum = 0.0
    for i in range(n):
        weight_sum += weights[i]
    for t in range(n_nonzero):
        if projection[t] != best_k:
            continue
        j = feature[t]
        split_weights[j] = coefficient[t]
        mean = 0.0
        for i in range(n):
            mean += weights[i] * X[rows[i], j]
        mean /= weight_sum
        variance = 0.0
        for i in range(n):
            deviation = X[rows[i], j] - mean
            variance += weights[i] * (deviation * deviation)
        scales[j] = np.sqrt(variance / weight_sum)
    return best_k, best_low, best_high, best_score, split_weights, scales


class SparseProjectionSplitter:
    """``propose_split(rows, counts, depth)`` of :func:`~.tree.grow_tree` for SPORF: the
    best of ``n_projections`` random sparse projections of the node's rows.

    Parameters
    ----------
    X : ndarray of shape (n_rows, n_features), the tree's training rows (raw units)
    y : ndarray of int, class codes
    sample_weight : ndarray of shape (n_rows,), positive
    n_classes : int
    n_projections : int
        ``d``, candidate projections per node (:func:`n_projections`).
    mean_nonzeros : float
        ``λ·p``, attributes per projection on average (:func:`mean_nonzeros`): the
        matrix has ``round(λ·p·d)`` non-zeros (at most one per cell).
    rng : numpy.random.Generator
        Draws every node's matrix.
    """

    def __init__(self, X, y, sample_weight, n_classes, n_projections, mean_nonzeros, rng):
        self.X = np.ascontiguousarray(X)
        self.y, self.sample_weight = y, sample_weight
        self.n_classes = n_classes
        self.n_projections = n_projections
        self.n_nonzero = max(1, int(round(mean_nonzeros * n_projections)))
        self.rng = rng
        total = sample_weight.sum()
        mean = sample_weight @ X / total
        scale = np.sqrt(sample_weight @ (X - mean) ** 2 / total)
        # ±1 on the standardised attribute is ±1/s in raw units, rounded to the digits
        # a rule prints
        unit = np.zeros(X.shape[1])
        varies = scale > 0
        unit[varies] = round_significant(1.0 / scale[varies], DIGITS)
        self.unit = unit
        self.all_features = np.arange(X.shape[1])
        # every split proposed and the scales of its attributes at its node (the splits
        # are kept, so that no id is reused)
        self._proposed = []

    def __call__(self, rows, counts, depth):
        # rerf's matrix over all p attributes; a non-zero on an attribute constant at the
        # node only shifts its projection by a constant: left out of the split (whether
        # an attribute varies is read for the drawn ones only: O(λp·d·n) at most, not
        # O(p·n))
        if not varying_columns(self.X, rows, _NO_CELLS)[0]:
            return None  # the rows are alike: nothing separates them
        cells = self.X.shape[1] * self.n_projections
        n_nonzero = min(self.n_nonzero, cells)
        if cells <= KEYED_CELLS:
            keys, chosen, negative = self.rng.random(cells + n_nonzero), _NO_CELLS, _NO_SIGNS
        else:
            keys = _NO_KEYS
            chosen, negative = self._draw(cells)
        chosen, negative = drawn_cells(self.X, rows, keys, chosen, negative, n_nonzero)
        k, low, high, _, split_weights, scales = search_projections(
            self.X, rows, self.all_features, chosen, negative, self.unit,
            self.n_projections, self.y[rows], self.sample_weight[rows])
        if k < 0:
            return None
        threshold, digits = readable_threshold(low, high)
        split = Split.hyperplane(split_weights, -threshold)
        # its weights have DIGITS significant digits and its threshold ``digits``: the
        # printed rule is the split itself (Split.printed), the fewest digits that route
        # the node's rows as the search separated them
        split.digits = max(DIGITS, digits)
        self._proposed.append((split, scales))
        return split

    def _draw(self, cells):
        """The non-zero cells of the node's matrix (sorted) and their signs (True for
        −1): ``rerf``'s ``RandMatBinary``, ``round(λ·p·d)`` of the ``cells`` drawn without
        replacement, each sign ±1 with equal probability.  Up to :data:`KEYED_CELLS`
        cells, those of the smallest of as many uniform random keys, one call to the
        generator for cells and signs (:func:`drawn_cells` picks them); above, Floyd's
        sampling, here."""
        n_nonzero = min(self.n_nonzero, cells)
        chosen = np.sort(self.rng.choice(cells, size=n_nonzero, replace=False))
        return chosen, self.rng.random(n_nonzero) < 0.5

    def feature_scales(self, tree):
        """What :meth:`~.tree.ObliqueTree.store_feature_scales` keeps for ``tree``, grown
        with this splitter on its rows: the (weighted) standard deviation of every
        attribute a split uses over the rows that reach the split's node, shape
        (node_count, n_features), 0 elsewhere -- computed for each split when it was
        proposed, from the node's rows at hand (the same statistic, without a second pass
        of the rows through the tree).  A CSR matrix of the split's attributes only: a
        forest's tree of thousands of nodes over hundreds of attributes would otherwise
        keep nodes × attributes numbers, almost all 0."""
        proposed = {id(split): values for split, values in self._proposed}
        rows, columns, data = [], [], []
        for node, split in enumerate(tree.splits):
            if split is not None:
                used = split.features_used
                rows.append(np.full(used.size, node))
                columns.append(used)
                data.append(proposed[id(split)][used])
        if not rows:
            return sparse.csr_matrix((tree.node_count, self.X.shape[1]))
        return sparse.csr_matrix(
            (np.concatenate(data), (np.concatenate(rows), np.concatenate(columns))),
            shape=(tree.node_count, self.X.shape[1]))
