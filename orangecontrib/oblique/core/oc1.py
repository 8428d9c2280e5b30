"""OC1 (Murthy, Kasif & Salzberg, "A System for Induction of Oblique Decision Trees",
JAIR 2, 1994).

At each node: the best axis-parallel split; then, when the node has enough rows and that
split is impure, a randomised hill-climbing search for an oblique hyperplane (Section 2):
deterministic perturbation of one coefficient at a time (Eq. 2, Figure 2), random jumps out
of local minima (Section 2.3) and restarts.  The oblique split is kept only if
``axis_parallel_bias × oblique impurity < axis-parallel impurity``.  As in the original
program, a node whose best split does not lower its own impurity (:func:`node_impurity`)
is a leaf.  The tree is then pruned by cost-complexity pruning on a held-out part of the
training data (Section 3); the held-out rows decide the pruning, the leaves keep the
classes of the rows they were grown on.
"""
import math
import numbers

import numpy as np

from . import kernels, pass_kernels
from .base import ObliqueTreeClassifierMixin
from .impurity import (MEASURES, best_axis_parallel, best_step, impurity, class_indicators,
                       evaluate_class_major, masked_row_sums, node_constants,
                       COMPILED_LINE_SEARCH_ROWS)
from .preprocessing import Standardisation
from .sparse import expand_split, limit_terms
from .tree import Split, grow_tree
from .validation import store_parameters

SPLIT_MODES = ("oblique_and_axis_parallel", "axis_parallel", "oblique")
COEFFICIENT_ORDERS = ("sequential", "best_first", "random")

#: The default of ``stagnation_step``: P_move falls by this after every perturbation that
#: finds an equal impurity (Figure 2: "else if impurity(H1) = impurity(H): a_m = a'_m with
#: probability P_move; P_move = P_move − step"), taken or not, and is reset to 1 on every
#: improvement (footnote: "P_stag decreases by a constant amount each time OC1 makes a
#: stagnant perturbation ... reset to 1 every time the global impurity measure is
#: improved"), so at most 10 stagnant perturbations follow each other -- the limit of the
#: original program's counter ("stagnant perturbations", Section 2.6).
STAGNATION_STEP = 0.1
#: Random order: coefficients perturbed per local search ("R-50" in the paper).
RANDOM_ORDER_PERTURBATIONS = 50
#: Safety bound on passes over the coefficients in one deterministic local search.
MAX_PERTURBATION_PASSES = 100
#: Sequential order: the line searches of ``BATCH_ELEMENTS // n`` coefficients (at least
#: 1, at most :data:`MAX_BATCH`) are done in one set of numpy calls on class counts
#: prepared once per node (:func:`_batched_best_steps`), since every coefficient before the
#: first one that moves sees the same hyperplane.  The moves, random draws and trees are
#: exactly those of one :func:`best_step` per coefficient; the per-call overhead, which
#: dominates at nodes of a few hundred rows, is shared.  0 switches this off.
BATCH_ELEMENTS = 1024
#: Most coefficients per batch (those after the first move are computed in vain).
MAX_BATCH = 4
#: A node's columns are prepared for batches only while ``K × n × (d + 1)`` is at most
#: this (sign-adjusted class counts of every column are kept during the node's search).
NODE_CACHE_ELEMENTS = 1 << 22
#: Measures whose scores are computed element by element (so a batch gives every
#: candidate bit for bit the score of a single search); sum of variances uses a product.
_BATCHED_MEASURES = frozenset({"twoing", "information_gain", "gini", "max_minority",
                               "sum_minority"})


def node_impurity(total, measure):
    """The impurity of a node as a leaf, by ``measure``: the measure with every row on one
    side (sum and max minority: the node's minority; Gini: its Gini index; sum of
    variances: its variance; twoing and information gain, whose reciprocal of a zero
    goodness is infinite: ``inf``, so that any split that separates something lowers it)."""
    total = np.asarray(total, dtype=float)
    n = total.sum()
    value = MEASURES[measure](np.zeros((total.size, 1)), total[:, None], np.zeros(1),
                              np.array([n]), total)
    value = float(np.asarray(value).reshape(-1)[0])
    return value if value < 1.0 / (2 * np.finfo(float).tiny) else np.inf


def _improves(new, old):
    if not math.isfinite(old):  # leaving a split that separates nothing
        return math.isfinite(new)
    return new < old - 1e-12 * max(1.0, abs(old))


def _equal(new, old):
    if not (math.isfinite(new) and math.isfinite(old)):
        return False
    return abs(new - old) <= 1e-12 * max(1.0, abs(old))


class _NodeColumns:
    """What a node's line searches along its columns share: the columns contiguous, which
    columns have no zero (only those are batched) and, per column, the class counts of the
    rows with a negative entry (the constant term of :func:`best_step`'s counts)."""

    def __init__(self, Z, class_counts):
        self.Z, self.class_counts = Z, class_counts
        n, n_columns = Z.shape
        self.columns = np.ascontiguousarray(Z.T)
        self.all_moving = np.all(self.columns != 0, axis=1)
        negative = self.columns < 0
        self.offsets = np.empty((class_counts.shape[0], n_columns))
        for m, column_negative in enumerate(negative):
            # exactly best_step's ``masked_row_sums(counts, negative)[:, None] + fixed_right``
            self.offsets[:, m] = (masked_row_sums(class_counts, column_negative) + 0.0
                                  if column_negative.any() else 0.0)
        # counts with the sign of the column's direction, column after column (K, d·n)
        self.signed_counts = np.where(negative, -class_counts[:, None, :],
                                      class_counts[:, None, :]).reshape(len(class_counts), -1)
        self.starts = (np.arange(n_columns) * n)[:, None]


def _batched_best_steps(values, node, first, size, function, total):
    """:func:`best_step` of ``values`` along columns ``first .. first + size − 1`` of the
    node (all without zeros), bit for bit, as a list of ``(impurity, t)``.

    Every column's candidates are evaluated at all ``n − 1`` sorted positions at once;
    positions between tied ``U_j`` (not candidates of :func:`best_step`) are then masked.
    """
    directions = node.columns[first:first + size]
    u = -values / directions
    order = np.argsort(u, axis=1)
    order += node.starts[:size]                     # flat indices into u, row by row
    sorted_u = u.ravel()[order]
    distinct = sorted_u[:, 1:] > sorted_u[:, :-1]
    order += node.starts[first]                     # ... and into the signed counts
    right = np.cumsum(node.signed_counts[:, order], axis=2)[:, :, :-1]   # (K, size, n-1)
    right += node.offsets[:, first:first + size, None]
    shape = right.shape
    left = np.subtract(total[:, None, None], right, out=np.empty(shape))  # contiguous
    np.maximum(left, 0.0, out=left)
    scores = evaluate_class_major(function, left.reshape(shape[0], -1), total)
    scores = np.where(distinct, scores.reshape(shape[1:]), np.inf)
    best = np.argmin(scores, axis=1).tolist()
    results = []
    for b, i in enumerate(best):
        if not distinct[b, i]:  # every candidate scores inf: best_step returns the first
            candidates = np.flatnonzero(distinct[b])
            if candidates.size == 0:
                results.append((np.inf, np.nan))
                continue
            i = int(candidates[0])
        results.append((float(scores[b, i]),
                        float((sorted_u[b, i] + sorted_u[b, i + 1]) / 2)))
    return results


#: Sequential order: each restart's local search is one compiled call
#: (:func:`sequential_local_search`) where the compiled line search is used; False runs
#: the same search step by step in Python (the same moves, draws and trees).
COMPILED_LOCAL_SEARCH = True
#: Random draws of a compiled local search: the first buffer holds this many per
#: coefficient (and is drawn again, four times larger, if the search needs more).
DRAWS_PER_COEFFICIENT = 64
#: Random numbers drawn at a time by :class:`_Draws`.
DRAW_BLOCK = 4096


class _Draws:
    """The random numbers of a splitter's search (restarts, jumps, stagnant moves), drawn
    from its RandomState in blocks (``random_sample``) and handed out in order, so that a
    compiled local search can take them from an array; they are the numbers the search
    would draw one call at a time.  :meth:`give_back` leaves the generator where drawing
    only the numbers used would have left it (a RandomState's state is costly to save
    and restore: once per fit)."""

    def __init__(self, random_state, block=DRAW_BLOCK):
        self.random_state, self.block = random_state, block
        self.buffer, self.position = np.empty(0), 0
        self.state, self.used_before = None, 0   # the state before the first block

    def ensure(self, count):
        """At least ``count`` numbers from :attr:`position` on in :attr:`buffer`."""
        remaining = len(self.buffer) - self.position
        if remaining >= count:
            return
        if self.state is None:
            self.state = self.random_state.get_state()
        self.used_before += self.position
        new = self.random_state.random_sample(max(self.block, count - remaining))
        self.buffer = np.concatenate([self.buffer[self.position:], new])
        self.position = 0

    def take(self, count):
        self.ensure(count)
        numbers = self.buffer[self.position:self.position + count]
        self.position += count
        return numbers

    def uniform(self, count):
        """``random_state.uniform(-1, 1, count)``: ``-1 + 2 u``, as numpy computes it."""
        return -1.0 + 2.0 * self.take(count)

    def random_sample(self):
        return float(self.take(1)[0])

    def give_back(self):
        """Set the generator to the state after the numbers used, dropping the rest."""
        if self.state is None:
            return
        if self.position < len(self.buffer):
            self.random_state.set_state(self.state)
            # in blocks: a long fit may have used millions of numbers
            left = self.used_before + self.position
            while left > 0:
                self.random_state.random_sample(min(left, 1 << 20))
                left -= 1 << 20
        self.buffer, self.position = np.empty(0), 0
        self.state, self.used_before = None, 0


@kernels.njit(cache=True, nogil=True)
def _improves_compiled(new, old):
    """:func:`_improves`, compiled."""
    if not math.isfinite(old):
        return math.isfinite(new)
    return new < old - 1e-12 * max(1.0, abs(old))


@kernels.njit(cache=True, nogil=True)
def _equal_compiled(new, old):
    """:func:`_equal`, compiled."""
    if not (math.isfinite(new) and math.isfinite(old)):
        return False
    return abs(new - old) <= 1e-12 * max(1.0, abs(old))


@kernels.njit(cache=True, nogil=True)
def sequential_local_search(Z, columns, classes, weights, total, code, parent_entropy,
                            rank, classes_and_order, crossings_and_weights, counts,
                            hyperplane, values, current, n_random_jumps, stagnation_step,
                            max_passes, draws, start):
    """One restart of :meth:`OC1Splitter.local_search` with the sequential coefficient
    order, compiled: the deterministic perturbation of Figure 2 (every coefficient but the
    bias, in order, by :func:`~.kernels.line_step`; an equal impurity taken with
    probability ``P_move``), then up to J random jumps (Section 2.3), again after every
    jump that lowers the impurity.  ``hyperplane`` and ``values`` (``Z @ hyperplane``)
    change in place; returns ``(impurity, position)``, ``position`` the index in
    ``draws`` of the first number not used.

    The random numbers are ``draws[start:]``, drawn beforehand from the splitter's
    RandomState (:class:`_Draws`), used in the order in which the Python code draws them
    (a stagnant move: one; a jump's direction ``uniform(-1, 1, d + 1)``: ``d + 1``, as
    ``-1 + 2 u``); when they run out the search stops and returns position ``-1`` (the
    caller draws more and starts again).  A jump's ``Z @ direction`` is numpy's own
    product (:func:`~.kernels.numpy_matvec`: the BLAS call numpy's ``matmul`` makes).

    The rows' classes are ``classes`` and ``weights`` (:func:`~.kernels.row_classes`),
    ``classes_and_order, crossings_and_weights, counts`` the node's
    :func:`~.kernels.line_workspace`; a
    ``current`` impurity of NaN is computed here (:func:`~.kernels.side_impurity`)."""
    n, n_coefficients = Z.shape
    last = n_coefficients - 1
    used = start
    change = np.empty(n)
    if math.isnan(current):
        current = kernels.side_impurity(values, classes, weights, total, code,
                                        parent_entropy, rank, classes_and_order,
                                        crossings_and_weights, counts)
    while True:
        # deterministic perturbation (Figure 2)
        p_move = 1.0
        for _ in range(max_passes):
            moved = False
            for m in range(last):
                new, step = kernels.line_step(values, columns[m], classes, weights, total,
                                              code, parent_entropy, rank, classes_and_order,
                                              crossings_and_weights, counts)
                if not math.isfinite(new):
                    continue
                if _improves_compiled(new, current):
                    p_move = 1.0
                elif _equal_compiled(new, current):
                    if used >= draws.shape[0]:
                        return current, -1
                    taken = draws[used] < p_move
                    used += 1
                    p_move = max(p_move - stagnation_step, 0.0)
                    if not taken:
                        continue
                else:
                    continue
                hyperplane[m] += step
                column = columns[m]
                for j in range(n):
                    values[j] = values[j] + step * column[j]
                current = new
                moved = True
            if not moved:
                break
        # random jumps (Section 2.3)
        jumped = False
        for _ in range(n_random_jumps):
            if used + n_coefficients > draws.shape[0]:
                return current, -1
            direction = np.empty(n_coefficients)
            for m in range(n_coefficients):
                direction[m] = -1.0 + 2.0 * draws[used + m]
            used += n_coefficients
            pass_kernels.numpy_matvec(Z, direction, change)
            new, step = kernels.line_step(values, change, classes, weights, total, code,
                                          parent_entropy, rank, classes_and_order,
                                          crossings_and_weights, counts)
            if _improves_compiled(new, current):
                for m in range(n_coefficients):
                    hyperplane[m] += step * direction[m]
                for j in range(n):
                    values[j] = values[j] + step * change[j]
                current = new
                jumped = True
                break
        if not jumped:
            return current, used


class _CompiledNode:
    """What the compiled line searches of one node share, made once for its restarts:
    ``arguments`` (the rows' classes and weights, the node's class totals, the measure's
    code and the node's constants: :func:`~.kernels.line_step`'s arguments after the
    direction) and a ``workspace`` (:func:`~.kernels.line_workspace`)."""

    def __init__(self, class_counts, total, measure):
        classes, weights = kernels.row_classes(class_counts)
        code = kernels.MEASURE_CODES[measure]
        entropy, rank = node_constants(total)
        self.arguments = (classes, weights, total, code, entropy, rank)
        self.workspace = kernels.line_workspace(class_counts.shape[1], len(total))
        #: :func:`~.kernels.side_impurity` gives ``split_impurity``'s number: for
        #: whole-number weights (exact sums) and fewer than 8 classes
        self.side_impurity_compiled = bool(
            len(total) < 8 and np.all(weights == np.round(weights))
            and weights.sum() < 2.0 ** 52)


class OC1Splitter:
    """Proposes OC1's split of one node; see :class:`OC1Classifier` for the parameters."""

    def __init__(self, X, y, sample_weight, n_classes, measure, n_restarts, n_random_jumps,
                 coefficient_order, axis_parallel_bias, oblique_rows_per_feature, split_mode,
                 random_state, heartbeat=None, stagnation_step=STAGNATION_STEP):
        # ``heartbeat`` is called before every restart, so that a long search at a large
        # node can report progress and be cancelled (it may raise)
        store_parameters(self, locals())
        # the random order's draws are whole numbers: it draws from the generator itself
        self._draws = None if coefficient_order == "random" else _Draws(random_state)

    def _uniform(self, count):
        """``random_state.uniform(-1, 1, count)``, through :class:`_Draws` if used."""
        if self._draws is None:
            return self.random_state.uniform(-1, 1, count)
        return self._draws.uniform(count)

    def _random_sample(self):
        if self._draws is None:
            return self.random_state.random_sample()
        return self._draws.random_sample()

    def give_back_draws(self):
        """Call when the tree is grown: the generator is left where the search, drawing
        one number at a time, would have left it."""
        if self._draws is not None:
            self._draws.give_back()

    def __call__(self, rows, counts, depth, features=None):
        """OC1's split of the node of ``rows``; with ``features``, a split over those
        features only (the others get weight 0)."""
        split = self._propose(rows, features)
        if features is None or split is None:
            return split
        return expand_split(split, features, self.X.shape[1])

    def _standardised(self, rows, features):
        """The node's rows, standardised (Section 2.4: normalise the attributes at the
        node; weighted, so that a row of weight 2 acts as two copies; equal weights: the
        plain statistics, exactly), with a column of ones appended for the bias, and the
        :class:`Standardisation` that maps a hyperplane back.  The rows are copied once
        and the copy is dropped before the search: a node holds about its data once."""
        X = self.X[rows] if features is None else self.X[np.ix_(rows, features)]
        weights = self.sample_weight[rows]
        standardisation = Standardisation.from_rows(
            X, None if weights.min() == weights.max() else weights)
        n, d = X.shape
        augmented = np.empty((n, d + 1))
        # standardisation.transform(X), written into the augmented rows
        np.subtract(X, standardisation.mean, out=augmented[:, :d])
        np.divide(augmented[:, :d], standardisation.scale, out=augmented[:, :d])
        augmented[:, d] = 1.0
        return augmented, standardisation

    def _propose(self, rows, features):
        augmented, standardisation = self._standardised(rows, features)
        n, d = augmented.shape[0], augmented.shape[1] - 1
        Z = augmented[:, :d]
        class_counts = class_indicators(self.y[rows], self.sample_weight[rows], self.n_classes)
        axis_impurity, feature, threshold = best_axis_parallel(Z, class_counts, self.measure)
        if feature < 0:
            return None
        mean, scale = standardisation.mean[feature], standardisation.scale[feature]
        axis_split = Split.axis_parallel(feature, mean + scale * threshold, d)
        # The original program makes a leaf when the best split does not lower the node's
        # own impurity (e.g. sum minority: a split whose sides' minorities add up to the
        # node's minority misclassifies as many rows as the node as a leaf).
        own = node_impurity(class_counts.sum(axis=1), self.measure)
        if not _improves(axis_impurity, own):
            axis_split = None
        if self.split_mode == "axis_parallel" or (
                self.split_mode == "oblique_and_axis_parallel"
                and (axis_impurity == 0 or n <= self.oblique_rows_per_feature * d)):
            return axis_split
        start = np.zeros(d + 1)
        start[feature], start[d] = 1.0, -threshold
        hyperplane, oblique_impurity = self.search(augmented, class_counts, start)
        if hyperplane is None or not _improves(oblique_impurity, own):
            return axis_split  # no restart found a split that lowers the impurity
        if self.split_mode == "oblique" or (
                self.axis_parallel_bias * oblique_impurity < axis_impurity):
            # 0 on a constant column: it moves no row of the node (random restarts set it)
            weights = standardisation.raw_weights(hyperplane[:d])
            # Divided by the largest weight before squaring: along a feature whose values
            # are tiny (1e-290) the search takes huge steps, and weights @ weights overflows.
            largest = np.abs(weights).max()
            if 0 < largest < np.inf and np.isfinite(oblique_impurity):
                weights = weights / largest
                bias = standardisation.raw_bias(weights, hyperplane[d] / largest)
                norm = np.sqrt(weights @ weights)
                return Split.hyperplane(weights / norm, bias / norm)
        return axis_split

    def _node_columns(self, Z, class_counts):
        """The :class:`_NodeColumns` of ``Z`` (kept for the node's restarts)."""
        cached = getattr(self, "_columns_cache", None)
        if cached is None or cached.Z is not Z or cached.class_counts is not class_counts:
            cached = self._columns_cache = _NodeColumns(Z, class_counts)
        return cached

    def split_impurity(self, values, class_counts):
        left = class_counts[:, values < 0].sum(axis=1)
        return float(impurity(left[None, :], class_counts.sum(axis=1), self.measure)[0])

    def search(self, Z, class_counts, axis_parallel_start):
        """Best hyperplane over the restarts: the first from the best axis-parallel split,
        the others from random hyperplanes with coefficients in [-1, 1] (Section 2.3)."""
        best, best_impurity = None, np.inf
        for restart in range(self.n_restarts):
            if self.heartbeat is not None:
                self.heartbeat()
            start = (axis_parallel_start.copy() if restart == 0
                     else self._uniform(Z.shape[1]))
            hyperplane, value = self.local_search(Z, class_counts, start)
            if value < best_impurity:
                best, best_impurity = hyperplane, value
            if best_impurity == 0:
                break
        # the node's arrays are not kept after its search
        self._columns_cache = self._searcher_cache = None
        return best, best_impurity

    def _line_searcher(self, Z, class_counts):
        """``(search, columns, node)`` for the node of ``Z`` (kept for its restarts):
        ``search(values, direction)`` is
        :func:`~.impurity.best_step` by the node's measure (compiled below
        :data:`~.impurity.COMPILED_LINE_SEARCH_ROWS` rows, with the node's constants
        computed once), ``columns[m]`` the node's column ``m``, contiguous; ``node`` the
        compiled search's :class:`_CompiledNode` (None for numpy's)."""
        cached = getattr(self, "_searcher_cache", None)
        if cached is not None and cached[0] is Z and cached[1] is class_counts:
            return cached[2]
        total = class_counts.sum(axis=1)
        columns = np.ascontiguousarray(Z.T)
        node = None
        if kernels.AVAILABLE and len(Z) < COMPILED_LINE_SEARCH_ROWS:
            node = _CompiledNode(class_counts, total, self.measure)

            def search(values, direction):
                return kernels.line_step(values, direction, *node.arguments,
                                         *node.workspace)
        else:
            def search(values, direction):
                return best_step(values, direction, class_counts, self.measure, total,
                                 compiled=False)
        self._searcher_cache = (Z, class_counts, (search, columns, node))
        return search, columns, node

    def local_search(self, Z, class_counts, hyperplane):
        """One restart: perturb coefficients to a local minimum, then try up to J random
        jumps; every successful jump starts the deterministic perturbation again."""
        values = Z @ hyperplane
        if (COMPILED_LOCAL_SEARCH and kernels.AVAILABLE and pass_kernels.PASS_AVAILABLE
                and self.coefficient_order == "sequential"
                and len(Z) < COMPILED_LINE_SEARCH_ROWS):
            return self._compiled_local_search(Z, class_counts, hyperplane, values)
        current = self.split_impurity(values, class_counts)
        line_search, _, _ = self._line_searcher(Z, class_counts)
        while True:
            current = self.perturb_coefficients(Z, class_counts, hyperplane, values, current)
            for _ in range(self.n_random_jumps):
                direction = self._uniform(Z.shape[1])
                change = Z @ direction
                new, step = line_search(values, change)
                if _improves(new, current):
                    hyperplane += step * direction
                    values += step * change
                    current = new
                    break
            else:
                return hyperplane, current

    def _compiled_local_search(self, Z, class_counts, hyperplane, values):
        """:meth:`local_search` as one kernel call (:func:`sequential_local_search`), with
        the same moves, draws and result.  The kernel takes its random numbers from the
        splitter's :class:`_Draws`, at least :data:`DRAWS_PER_COEFFICIENT` per
        coefficient; if it runs out, the search runs again with four times as many."""
        _, columns, node = self._line_searcher(Z, class_counts)  # kept for the restarts
        # the starting impurity: computed by the kernel where it adds as numpy does
        current = (np.nan if node.side_impurity_compiled
                   else self.split_impurity(values, class_counts))
        draws = self._draws
        needed = DRAWS_PER_COEFFICIENT * Z.shape[1]
        while True:
            draws.ensure(needed)
            plane, rows = hyperplane.copy(), values.copy()
            impurity_found, position = sequential_local_search(
                Z, columns, *node.arguments, *node.workspace, plane, rows, current,
                self.n_random_jumps, self.stagnation_step, MAX_PERTURBATION_PASSES,
                draws.buffer, draws.position)
            if position >= 0:
                break
            needed = 4 * (len(draws.buffer) - draws.position)
        draws.position = position
        hyperplane[:] = plane
        return hyperplane, impurity_found

    def perturb_coefficients(self, Z, class_counts, hyperplane, values, current):
        """Deterministic perturbation (Figure 2) in the chosen coefficient order; changes
        ``hyperplane`` and ``values`` in place and returns the new impurity.

        Perturbing coefficient ``a_m`` by ``t`` moves row ``j`` across the hyperplane at
        ``U_j``: Eq. 2 solved by :func:`~.impurity.best_step` with direction ``x_m``.  A
        move that lowers the impurity is taken; one that leaves it unchanged (a stagnant
        perturbation) is taken with probability ``P_move``, and ``P_move`` falls by
        ``stagnation_step`` after every stagnant perturbation, taken or not (Figure 2); it
        is 1 at first and reset to 1 by an improvement; a rise is never taken.  In sequential order the
        bias is reached only through random jumps (as in the original program).
        """
        n_coefficients = Z.shape[1]
        total = class_counts.sum(axis=1)
        line_search, columns, _ = self._line_searcher(Z, class_counts)
        p_move = 1.0

        def try_move(m, new, step):
            nonlocal current, p_move
            if not math.isfinite(new):
                return False
            if _improves(new, current):
                p_move = 1.0
            elif _equal(new, current):
                taken = self._random_sample() < p_move
                p_move = max(p_move - self.stagnation_step, 0.0)
                if not taken:
                    return False
            else:
                return False
            hyperplane[m] += step
            np.add(values, step * Z[:, m], out=values)
            current = new
            return True

        if self.coefficient_order == "sequential":
            # Up to ``batch`` coefficients are searched at once (_batched_best_steps) and
            # offered to try_move in order until one moves: the same moves as one by one.
            node, batch = None, 0
            # a node small enough for the compiled line search needs no batches
            compiled = kernels.AVAILABLE and len(values) < COMPILED_LINE_SEARCH_ROWS
            if (BATCH_ELEMENTS > 0 and self.measure in _BATCHED_MEASURES and len(values) > 1
                    and not compiled
                    and class_counts.shape[0] * Z.size <= NODE_CACHE_ELEMENTS):
                node = self._node_columns(Z, class_counts)
                batch = max(1, min(MAX_BATCH, BATCH_ELEMENTS // len(values)))
            last = n_coefficients - 1
            for _ in range(MAX_PERTURBATION_PASSES):
                moved = False
                m = 0
                while m < last:
                    size = 0
                    if node is not None:
                        while (size < batch and m + size < last
                               and node.all_moving[m + size]):
                            size += 1
                    if size == 0:
                        moved |= try_move(m, *line_search(values, columns[m]))
                        m += 1
                        continue
                    for offset, result in enumerate(_batched_best_steps(
                            values, node, m, size, MEASURES[self.measure], total)):
                        if try_move(m + offset, *result):
                            moved = True
                            m += offset + 1
                            break
                    else:
                        m += size
                if not moved:
                    break
        elif self.coefficient_order == "best_first":
            for _ in range(MAX_PERTURBATION_PASSES * n_coefficients):
                candidates = [line_search(values, columns[m])
                              for m in range(n_coefficients)]
                m = int(np.argmin([new for new, _ in candidates]))
                if not try_move(m, *candidates[m]):
                    break
        else:
            for _ in range(RANDOM_ORDER_PERTURBATIONS):
                m = int(self.random_state.randint(n_coefficients))
                try_move(m, *line_search(values, columns[m]))
        return current


class OC1Classifier(ObliqueTreeClassifierMixin):
    """OC1 oblique decision tree (Murthy, Kasif & Salzberg 1994), a scikit-learn classifier.

    Parameters
    ----------
    impurity : str, default "twoing"
        One of "twoing" (OC1's default), "information_gain", "gini", "max_minority",
        "sum_minority", "sum_of_variances" (Appendix B).
    n_restarts : int, default 20
        Restarts R of the hyperplane search; the first starts at the best axis-parallel
        split.
    n_random_jumps : int, default 5
        Random jumps J tried at each local minimum.
    coefficient_order : {"sequential", "best_first", "random"}, default "sequential"
    stagnation_step : float, default 0.1
        The paper's constant by which the probability ``P_move`` of taking an
        equal-impurity perturbation falls after every such (stagnant) perturbation, taken
        or not; ``P_move`` starts at 1 and is reset to 1 by every improvement (Figure 2
        and its footnote).  0.1 allows at most 10 stagnant perturbations in a row, the
        original program's limit; 1 takes the first and no more, larger than 1 none.
    axis_parallel_bias : float, default 1.0
        The oblique split is used only if ``bias × its impurity < axis-parallel impurity``.
    oblique_rows_per_feature : float, default 2
        Search oblique splits only at nodes with more than this many rows per feature
        (the original program: ``n > 2d``).
    split_mode : {"oblique_and_axis_parallel", "axis_parallel", "oblique"}
        Both (OC1), axis-parallel only (OC1-AP), or oblique only.
    pruning_portion : float, default 0.1
        Share of the training rows held out for cost-complexity pruning; 0 disables it.
    se_rule : float, default 0.0
        k of the k-SE rule when choosing the pruned tree (0-SE by default).
    max_depth : int or None, default 50
        The original program stops at depth 50.
    min_samples_split : int, default 2
    random_state : int, RandomState or None
    max_terms : int or None, default None
        At most this many attributes with a non-zero weight in any split, found by
        backward elimination from the split the search finds, its threshold re-optimised by ``impurity`` (:mod:`~orangecontrib.oblique.core.sparse`,
        after CART's linear-combination splits, Breiman et al. 1984, §5.2): a readable
        split.  None keeps the paper's dense split.  Must not exceed the number of
        features.
    """

    def __init__(self, impurity="twoing", n_restarts=20, n_random_jumps=5,
                 coefficient_order="sequential", axis_parallel_bias=1.0,
                 oblique_rows_per_feature=2.0, split_mode="oblique_and_axis_parallel",
                 pruning_portion=0.1, se_rule=0.0, max_depth=50, min_samples_split=2,
                 random_state=None, max_terms=None, stagnation_step=STAGNATION_STEP):
        store_parameters(self, locals())

    def _validate_parameters(self):
        super()._validate_parameters()
        if self.impurity not in MEASURES:
            raise ValueError(f"impurity must be one of {sorted(MEASURES)}, "
                             f"got {self.impurity!r}")
        for name in ("n_restarts", "n_random_jumps"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Integral) or value < (name == "n_restarts"):
                raise ValueError(f"{name} must be an integer of at least "
                                 f"{int(name == 'n_restarts')}, got {value!r}")
        if self.coefficient_order not in COEFFICIENT_ORDERS:
            raise ValueError(f"coefficient_order must be one of {COEFFICIENT_ORDERS}, "
                             f"got {self.coefficient_order!r}")
        if self.split_mode not in SPLIT_MODES:
            raise ValueError(f"split_mode must be one of {SPLIT_MODES}, "
                             f"got {self.split_mode!r}")
        for name, low, high in (("axis_parallel_bias", 0, np.inf),
                                ("oblique_rows_per_feature", 0, np.inf),
                                ("stagnation_step", 0, np.inf)):
            value = getattr(self, name)
            if not isinstance(value, numbers.Real) or not low <= value <= high:
                raise ValueError(f"{name} must be a number in [{low}, {high}], "
                                 f"got {value!r}")

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback):
        last_fraction = [0.0]

        def report(fraction):
            last_fraction[0] = fraction
            progress_callback(fraction)

        def heartbeat():
            progress_callback(last_fraction[0])

        def grow(X, y, sample_weight):
            splitter = search = OC1Splitter(
                X, y, sample_weight, len(self.classes_), self.impurity, self.n_restarts,
                self.n_random_jumps, self.coefficient_order, self.axis_parallel_bias,
                self.oblique_rows_per_feature, self.split_mode, random_state,
                heartbeat if progress_callback is not None else None, self.stagnation_step)
            splitter = limit_terms(splitter, X, y, sample_weight, len(self.classes_),
                                   self.max_terms, self.impurity, refit=splitter)
            try:
                return grow_tree(X, y, sample_weight, len(self.classes_), splitter, None,
                                 self.max_depth, self.min_samples_split,
                                 report if progress_callback is not None else None)
            finally:
                search.give_back_draws()

        return self._grow_and_prune(X, y, sample_weight, random_state, grow)
