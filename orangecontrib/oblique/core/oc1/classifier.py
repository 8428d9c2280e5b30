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
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from ..tree import line_search
from ..base import ObliqueTreeClassifierMixin
from ..tree.impurity import (MEASURES, best_axis_parallel, class_indicators, leaf_impurity,
                             line_node)
from ..preprocessing import Standardisation
from ..tree.sparse import expand_split, limit_terms
from ..tree.structure import MANY_CLASSES, Split, grow_tree
from ..parameters import (MAX_DEPTH, MAX_TERMS, MIN_SAMPLES_SPLIT, PRUNING_PORTION, SE_RULE,
                          SEED, Interval, Options, Parameter)

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


#: Seconds per unit of :func:`search_work` (a row of a node's sort, per coefficient, per
#: restart and jump): OC1 with its defaults at 100,000 × 10 took 272 s of CPU on the
#: project's 2-core machine (``benchmarks/scale.py``, 2026-11-23), of 2.3·10^10 units (at
#: 2,000 × 10 and 5,000 × 20 it takes half of the estimate: an estimate errs long).
SECONDS_PER_SEARCH_UNIT = 1.2e-8


def search_work(n_samples, n_features, n_restarts, n_random_jumps, pruning_portion=0.0):
    """The dominant work of an OC1 fit, in units of one row of one line search: every node
    of ``n`` rows searched obliquely (``n > 2d``) runs ``R`` restarts, each of
    ``J + 1`` deterministic perturbations (after the start and after every random jump)
    of ``d + 1`` coefficients, each a line search that sorts the node's rows,
    ``O(n log n)``: ``O(R · (J + 1) · d · n log n)`` a node; a level of the tree holds
    about all ``N`` growing rows, and ``log2(N / 2d)`` levels are searched obliquely
    (below, nodes have ``n ≤ 2d`` rows and get axis-parallel splits only).  The number of
    passes over the coefficients until a local minimum is data-dependent; it is in
    :data:`SECONDS_PER_SEARCH_UNIT`."""
    rows = max(float(n_samples) * (1.0 - pruning_portion), 2.0)
    d = max(int(n_features), 1)
    levels = max(math.log2(rows / (2 * (d + 1))), 1.0)
    return n_restarts * (n_random_jumps + 1) * (d + 1) * rows * math.log2(rows) * levels


def node_impurity(total, measure):
    """The impurity of a node as a leaf, by ``measure``: the measure with every row on one
    side (sum and max minority: the node's minority; Gini: its Gini index; sum of
    variances: its variance; twoing and information gain, whose reciprocal of a zero
    goodness is infinite: ``inf``, so that any split that separates something lowers it)."""
    value = leaf_impurity(total, measure)
    return value if value < 1.0 / (2 * np.finfo(float).tiny) else np.inf


_improves = line_search.improves


#: Random words of a compiled local search: the first buffer holds this many per
#: coefficient (and is drawn again, four times larger, if the search needs more).
DRAWS_PER_COEFFICIENT = 128
#: Random words drawn at a time by :class:`_Draws`.
DRAW_BLOCK = 8192
#: The whole range of a 32-bit word: ``randint(0, WORD_RANGE, dtype=uint32)`` hands out
#: the generator's raw 32-bit outputs, one each.
WORD_RANGE = 1 << 32


class _Draws:
    """The random numbers of a splitter's search (restarts, jumps, stagnant moves, the
    random order's coefficients): the generator's raw 32-bit outputs, drawn from its
    RandomState in blocks and handed out in order, as int64, so that the compiled local
    search (:func:`~.line_search.local_search`) takes them from an array and turns them
    into the very ``random_sample()`` and ``randint(n)`` numbers numpy would draw one
    call at a time.  :meth:`give_back` leaves the generator where drawing only the
    numbers used would have left it (a RandomState's state is costly to save and
    restore: once per fit)."""

    def __init__(self, random_state, block=DRAW_BLOCK):
        self.random_state, self.block = random_state, block
        self.buffer, self.position = np.empty(0, dtype=np.int64), 0
        self.state, self.used_before = None, 0   # the state before the first block

    def _words(self, count):
        return self.random_state.randint(0, WORD_RANGE, size=count,
                                         dtype=np.uint32).astype(np.int64)

    def ensure(self, count):
        """At least ``count`` words from :attr:`position` on in :attr:`buffer`."""
        remaining = len(self.buffer) - self.position
        if remaining >= count:
            return
        if self.state is None:
            self.state = self.random_state.get_state()
        self.used_before += self.position
        new = self._words(max(self.block, count - remaining))
        self.buffer = np.concatenate([self.buffer[self.position:], new])
        self.position = 0

    def uniform(self, count):
        """``random_state.uniform(-1, 1, count)``: ``-1 + 2 u``, as numpy computes it,
        ``u`` numpy's ``random_sample`` of two words."""
        self.ensure(2 * count)
        words = self.buffer[self.position:self.position + 2 * count]
        self.position += 2 * count
        u = ((words[0::2] >> 5) * 67108864.0 + (words[1::2] >> 6)) / 9007199254740992.0
        return -1.0 + 2.0 * u

    def give_back(self):
        """Set the generator to the state after the words used, dropping the rest."""
        if self.state is None:
            return
        if self.position < len(self.buffer):
            self.random_state.set_state(self.state)
            # in blocks: a long fit may have used millions of words
            left = self.used_before + self.position
            while left > 0:
                self._words(min(left, 1 << 20))
                left -= 1 << 20
        self.buffer, self.position = np.empty(0, dtype=np.int64), 0
        self.state, self.used_before = None, 0


class NodeSearch:
    """What the line searches of one node share, made once for its restarts:
    ``arguments`` (the rows' classes and weights, the node's class
    totals, the measure's code and the node's constants: :func:`~.line_search.line_step`'s
    ``node``, :func:`~.impurity.line_node`), a ``workspace``
    (:func:`~.line_search.line_workspace`) and ``columns``, the node's columns contiguous
    (the directions of the coefficients' line searches).

    ``bounded``: whether a line search over many classes scores only the candidates that
    can win (:func:`~.line_search._bounded_sweep`: the same choice, in O(n log n) instead of
    O(n · classes)); False scores every candidate."""

    bounded = True

    def __init__(self, Z, class_counts, measure):
        self.Z, self.class_counts = Z, class_counts
        self.arguments = line_node(class_counts, measure)
        self.workspace = line_search.line_workspace(class_counts.shape[1],
                                                    class_counts.shape[0])
        self.columns = np.ascontiguousarray(Z.T)

    def line_step(self, values, direction):
        """:func:`~.line_search.line_step`: the best step along ``direction`` (Eq. 2)."""
        return line_search.line_step(values, direction, self.arguments, self.workspace,
                                     bool(self.bounded))

    def split_impurity(self, values):
        """The impurity of the split ``values >= 0``."""
        return line_search.side_impurity(values, self.arguments, self.workspace)


class SearchSettings(NamedTuple):
    """How :class:`OC1Splitter` searches a node; see :class:`OC1Classifier` for each."""
    measure: str
    n_restarts: int
    n_random_jumps: int
    coefficient_order: str
    axis_parallel_bias: float
    oblique_rows_per_feature: float
    split_mode: str
    stagnation_step: float = STAGNATION_STEP


class OC1Splitter:
    """Proposes OC1's split of one node, searching as ``settings`` (:class:`SearchSettings`)
    say."""

    def __init__(self, X, y, sample_weight, n_classes, settings, random_state,
                 heartbeat=None):
        # ``heartbeat(n_rows)`` is called before every restart with the node's rows, so
        # that a long search at a large node can report progress and be cancelled (it
        # may raise)
        self.X, self.y, self.sample_weight, self.n_classes = X, y, sample_weight, n_classes
        self.random_state, self.heartbeat = random_state, heartbeat
        vars(self).update(settings._asdict())
        self._draws = _Draws(random_state)

    def give_back_draws(self):
        """Call when the tree is grown: the generator is left where the search, drawing
        one number at a time, would have left it."""
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
        # the classes present at the node only, in the order of their codes: an absent
        # class adds 0 to every one of the six measures (and ranks last for the sum of
        # variances), so the splits are those of all K, and a node's work grows with its
        # own classes, not with the data's (2,000 classes: the root's matrix alone 96 MB)
        present, codes = np.unique(self.y[rows], return_inverse=True)
        class_counts = class_indicators(codes.ravel(), self.sample_weight[rows], present.size)
        axis_impurity, feature, threshold = best_axis_parallel(augmented[:, :d], class_counts,
                                                               self.measure)
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
        hyperplane, oblique_impurity = self.search(
            NodeSearch(augmented, class_counts, self.measure), start)
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

    def search(self, node, axis_parallel_start):
        """Best hyperplane over the restarts at the node of ``node`` (:class:`NodeSearch`):
        the first from the best axis-parallel split, the others from random hyperplanes
        with coefficients in [-1, 1] (Section 2.3)."""
        best, best_impurity = None, np.inf
        for restart in range(self.n_restarts):
            if self.heartbeat is not None:
                self.heartbeat(node.Z.shape[0])
            start = (axis_parallel_start.copy() if restart == 0
                     else self._draws.uniform(node.Z.shape[1]))
            hyperplane, value = self.local_search(node, start)
            if value < best_impurity:
                best, best_impurity = hyperplane, value
            if best_impurity == 0:
                break
        return best, best_impurity

    def local_search(self, node, hyperplane):
        """One restart from ``hyperplane`` at the node of ``node`` (:class:`NodeSearch`):
        perturb coefficients to a local minimum, then try up to J random jumps; every
        successful jump starts the deterministic perturbation again (Section 2): one call
        of :func:`~.line_search.local_search`, in the splitter's coefficient order.  The
        kernel takes its random words from the splitter's :class:`_Draws`, at least
        :data:`DRAWS_PER_COEFFICIENT` per coefficient; if it runs out, the search runs
        again with four times as many."""
        values = node.Z @ hyperplane
        draws = self._draws
        search = (line_search.ORDER_CODES[self.coefficient_order], int(self.n_random_jumps),
                  float(self.stagnation_step), MAX_PERTURBATION_PASSES, bool(node.bounded),
                  RANDOM_ORDER_PERTURBATIONS)
        needed = DRAWS_PER_COEFFICIENT * node.Z.shape[1]
        while True:
            draws.ensure(needed)
            plane, rows = hyperplane.copy(), values.copy()
            impurity_found, position = line_search.local_search(
                node.Z, node.columns, node.arguments, node.workspace, plane, rows, np.nan,
                search, draws.buffer, draws.position)
            if position >= 0:
                break
            needed = 4 * (len(draws.buffer) - draws.position)
        draws.position = position
        hyperplane[:] = plane
        return hyperplane, impurity_found


class OC1Classifier(ObliqueTreeClassifierMixin):
    """OC1 oblique decision tree (Murthy, Kasif & Salzberg 1994), a scikit-learn classifier.

    Cost: a node of ``n`` rows and ``d`` attributes searched obliquely costs
    ``O(R · (J + 1) · P · d · n log n)`` -- ``R`` restarts, ``J`` random jumps, ``P``
    passes over the ``d + 1`` coefficients until a local minimum, each coefficient's line
    search sorting the node's rows (Eq. 2).  The line searches dominate; the axis-parallel
    split (``O(d · n log n)``) and the partition (``O(n · d)``) are small beside them.
    A tree of ``N`` rows costs about ``log2(N / 2d)`` levels of ``N`` rows each
    (:func:`search_work`; :meth:`estimated_fit_seconds` turns it into seconds).  So
    OC1 with its defaults takes minutes on 100,000 × 10 and hours on 50,000 × 200: fewer
    restarts and jumps, ``max_terms`` or ``split_mode="axis_parallel"`` take less.

    Parameters
    ----------
    impurity
        One of "twoing" (OC1's default), "information_gain", "gini", "max_minority",
        "sum_minority", "sum_of_variances" (Appendix B).
    n_restarts
        Restarts R of the hyperplane search; the first starts at the best axis-parallel
        split.
    n_random_jumps
        Random jumps J tried at each local minimum.
    coefficient_order
    stagnation_step
        The paper's constant by which the probability ``P_move`` of taking an
        equal-impurity perturbation falls after every such (stagnant) perturbation, taken
        or not; ``P_move`` starts at 1 and is reset to 1 by every improvement (Figure 2
        and its footnote).  0.1 allows at most 10 stagnant perturbations in a row, the
        original program's limit; 1 takes the first and no more, larger than 1 none.
    axis_parallel_bias
        The oblique split is used only if ``bias × its impurity < axis-parallel impurity``.
    oblique_rows_per_feature
        Search oblique splits only at nodes with more than this many rows per feature
        (the original program: ``n > 2d``).
    split_mode
        Both (OC1), axis-parallel only (OC1-AP), or oblique only.
    pruning_portion
        Share of the training rows held out for cost-complexity pruning; 0 disables it.
    se_rule
        k of the k-SE rule when choosing the pruned tree (0-SE by default).
    max_depth
        The original program stops at depth 50.
    min_samples_split
    random_state
    max_terms
        At most this many attributes with a non-zero weight in any split, found by
        backward elimination from the split the search finds, its threshold re-optimised by ``impurity`` (:mod:`~orangecontrib.oblique.core.tree.sparse`,
        after CART's linear-combination splits, Breiman et al. 1984, §5.2): a readable
        split.  None keeps the paper's dense split.  At least the number of
        features: no limit, as None.
    """

    _parameter_constraints = {
        "impurity": Parameter("twoing", Options(*MEASURES)),
        "n_restarts": Parameter(20, Interval(Integral, 1, None)),
        "n_random_jumps": Parameter(5, Interval(Integral, 0, None)),
        "coefficient_order": Parameter("sequential", Options(*COEFFICIENT_ORDERS)),
        "axis_parallel_bias": Parameter(1.0, Interval(Real, 0, None, infinite=True)),
        "oblique_rows_per_feature": Parameter(2.0, Interval(Real, 0, None)),
        "split_mode": Parameter("oblique_and_axis_parallel", Options(*SPLIT_MODES)),
        "pruning_portion": PRUNING_PORTION.replace(default=0.1),
        "se_rule": SE_RULE,
        "max_depth": MAX_DEPTH.replace(default=50),
        "min_samples_split": MIN_SAMPLES_SPLIT,
        "random_state": SEED,
        "max_terms": MAX_TERMS,
        "stagnation_step": Parameter(STAGNATION_STEP, Interval(Real, 0, None)),
    }

    def estimated_fit_seconds(self, n_samples, n_features):
        """A rough estimate of the seconds a fit of ``n_samples`` rows of ``n_features``
        attributes takes with these parameters (:func:`search_work` times
        :data:`SECONDS_PER_SEARCH_UNIT`); 0 for axis-parallel splits only (a fit then
        costs about a decision tree's)."""
        if self.split_mode == "axis_parallel":
            return 0.0
        return SECONDS_PER_SEARCH_UNIT * search_work(
            n_samples, n_features, self.n_restarts, self.n_random_jumps,
            self.pruning_portion)

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback):
        # progress: the larger of the share of rows in leaves (grow_tree's) and the share
        # of the estimated search work done, so that it moves during the long searches
        # of the first nodes; below 1 until the tree is grown
        last_fraction = [0.0]
        budget = search_work(X.shape[0], X.shape[1], self.n_restarts, self.n_random_jumps)
        searched = [0.0]

        def report(fraction):
            last_fraction[0] = max(last_fraction[0], fraction)
            progress_callback(last_fraction[0])

        def heartbeat(n_rows):
            d = X.shape[1]
            searched[0] += (self.n_random_jumps + 1) * (d + 1) * n_rows * math.log2(
                max(n_rows, 2))
            report(min(searched[0] / budget, 0.99))

        def grow(X, y, sample_weight):
            settings = SearchSettings(
                self.impurity, self.n_restarts, self.n_random_jumps, self.coefficient_order,
                self.axis_parallel_bias, self.oblique_rows_per_feature, self.split_mode,
                self.stagnation_step)
            splitter = search = OC1Splitter(
                X, y, sample_weight, len(self.classes_), settings, random_state,
                heartbeat if progress_callback is not None else None)
            splitter = limit_terms(splitter, X, y, sample_weight, len(self.classes_),
                                   self.max_terms, self.impurity, refit=splitter)
            try:
                return grow_tree(X, y, sample_weight, len(self.classes_), splitter, None,
                                 self.max_depth, self.min_samples_split,
                                 report if progress_callback is not None else None,
                                 compact_counts=len(self.classes_) >= MANY_CLASSES)
            finally:
                search.give_back_draws()

        return self._grow_and_prune(X, y, sample_weight, random_state, grow)
