"""Splits and their kinds: the one place that knows what a kind of split means.

A :class:`Split` is plain data -- an affine map ``V = X @ weights.T + bias`` over the *raw*
(unstandardised) features and the name of its kind.  The kind (:class:`SplitKind`, one
instance per kind in :data:`KINDS`) knows everything that depends on it:

* how many children the split has and which child a row goes to (:meth:`SplitKind.route`);
  a row with a missing value (NaN or ±inf) in a feature the split uses goes to no child:
  it **stops at the node**, as in Orange's own trees (:meth:`Split.route_with_missing`);
* the geometry of its children's regions in feature space, as half-planes (for the 2-D
  views: :mod:`orangecontrib.oblique.core.tree.geometry`);
* its condition as structured parts (:class:`Condition`, :class:`Affine`, :class:`Term`),
  from which every text is rendered (:mod:`orangecontrib.oblique.core.tree.rules`, the Orange
  model's node texts and the viewer);
* its printed form: the split with the numbers its text shows (:meth:`Split.printed`).

The routing convention, stated once for the whole project:

==================  =======  ==========================================================
kind                columns  child position of a row with values ``v = W x + b``
==================  =======  ==========================================================
``hyperplane``      1        ``0`` (left) if ``v < 0``, ``1`` (right) if ``v >= 0``
``argmax``          k        ``argmax_j v_j`` (first maximum on ties); one child per column
``nearest_centre``  m        ``argmin_c ||v - centres[c]||`` (first on ties)
``equality``        1        ``0`` if ``v == 0`` (i.e. ``x_j = a``), ``1`` otherwise
``nominal``         1        ``k`` where ``v == branch_values[k]`` (``x_j`` is that value);
                             one child per value; a value not among them: no child
``pairwise_vote``   k(k−1)/2 the child with most pairwise wins (lowest position on ties);
                             row ``p`` of the map decides the ``p``-th pair ``(a, b)``,
                             ``a < b`` in lexicographic order: ``v_p >= 0`` is a win of
                             ``a``, ``v_p < 0`` one of ``b``
==================  =======  ==========================================================

An axis-parallel test ``x_j >= t`` is the hyperplane with weights ``e_j`` and bias ``-t``;
a nominal test ``x_j = a`` is the equality kind with weights ``e_j`` and bias ``-a``; C4.5's
test of a nominal attribute, one branch per value, is the nominal kind with weights
``e_j``, bias 0 and the value codes of its branches, ``branch_values`` (``Split.nominal``).

To add a kind: subclass :class:`SplitKind`, implement its methods (routing, growing's
partition, conditions of a form of :mod:`~orangecontrib.oblique.core.tree.conditions`, which
render its words), register an instance in :data:`KINDS`; nothing outside this module
compares the name of a kind.
"""
from fractions import Fraction

import numpy as np

from . import kernels, walk
from .conditions import (Affine, Compare, Condition, Equal, Largest, Nearest, Term,
                         Votes)
from .rules import (DIGITS, MAX_DIGITS, Vocabulary, affine_text, format_significant,
                    round_significant)

# the condition parts and the rules' names are imported from here too (the API
# documentation names Condition, Affine and Term here)
__all__ = ["HYPERPLANE", "ARGMAX", "NEAREST_CENTRE", "EQUALITY", "PAIRWISE_VOTE", "NOMINAL",
           "NEGLIGIBLE", "VANISHING", "ROUTE_BLOCK_VALUES", "printed_rule_holds",
           "SplitKind", "BinaryKind", "HyperplaneKind", "ArgmaxKind", "NearestCentreKind",
           "EqualityKind", "NominalKind", "PairwiseVoteKind", "pairwise_pairs",
           "pairwise_index", "pairwise_children", "pairwise_vote_counts", "pairwise_votes",
           "pairwise_runners_up", "KINDS", "KIND_NAMES", "kind_named", "Split",
           "Affine", "Compare", "Condition", "Equal", "Largest", "Nearest", "Term", "Votes",
           "DIGITS", "MAX_DIGITS", "Vocabulary", "affine_text", "format_significant",
           "round_significant"]

HYPERPLANE = "hyperplane"
ARGMAX = "argmax"
NEAREST_CENTRE = "nearest_centre"
EQUALITY = "equality"
PAIRWISE_VOTE = "pairwise_vote"
NOMINAL = "nominal"
#: A term below this fraction of a split's largest term is rounding noise (see
#: ``Split.drop_negligible_terms``).
NEGLIGIBLE = 1e-9
#: A split whose largest term is below this fraction of the scale of the node's rows has
#: vanishing weights, given ordinary numbers by a power of two (``Split.restore_scale``).
VANISHING = 1e-12
#: Most values of a split's map (rows × map rows) computed at once when routing rows
#: (8 MB of floats; see ``Split.route``).
ROUTE_BLOCK_VALUES = 1 << 20


def printed_rule_holds(X, weights, bias):
    """Whether ``Σ c_j·x_j ≥ t`` holds exactly for every row of ``X``: ``c_j`` and ``t``
    the decimals the rule text shows for ``weights`` and ``−bias`` (their shortest texts,
    ``repr``, which :func:`~.rules.format_significant` writes too), ``x_j`` the rows'
    floats, all as exact fractions.  For the few rows near a printed boundary
    (:meth:`Split.route`)."""
    used = np.flatnonzero(weights).tolist()
    coefficients = [Fraction(repr(float(weights[j]))) for j in used]
    threshold = Fraction(repr(float(-bias)))
    return np.array([sum(c * Fraction(x) for c, x in zip(coefficients, row)) >= threshold
                     for row in X[:, used].tolist()], dtype=bool)


# ----- the kinds -----

class SplitKind:
    """What a kind of split means; one instance per kind in :data:`KINDS`."""
    name = None
    #: Whether the split cuts feature space (a nominal test does not).
    has_geometry = True
    #: Whether its rule text prints numbers that route rows (see ``Split.printed``).
    prints_numbers = True
    #: Whether it is one affine value against a threshold (a binary hyperplane), whose
    #: threshold can be moved on its own.
    has_threshold = False
    #: Whether the kind takes exactly one row of weights (a binary test).
    one_row = False
    #: Whether :meth:`child_half_planes` gives every child's whole region (False: only a
    #: convex part of it; see :class:`PairwiseVoteKind`).
    regions_exact = True
    #: Whether a split of the kind has ``centres`` (``classes``, ``branch_values``).
    takes_centres = takes_classes = takes_branch_values = False
    #: The number of children of every split of the kind, if it is fixed.
    fixed_children = None

    def __reduce__(self):  # a pickled split's kind is the one registered under its name
        return kind_named, (self.name,)

    def check(self, split):
        """Raise ValueError if the arrays of ``split`` do not fit the kind."""
        if self.one_row and split.weights.shape[0] != 1:
            raise ValueError(f"a {self.name} split has exactly one row of weights")

    def n_children(self, split):
        return 2

    def values(self, split, X):
        """The split's affine map ``X @ weights.T + bias`` (see :meth:`Split.values`),
        every value as the compiled walk computes it (:func:`~.walk.map_values`: the
        products of the non-zero weights in feature order, then the bias)."""
        rows, columns = np.nonzero(split.weights)
        indptr = np.zeros(split.weights.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=split.weights.shape[0]), out=indptr[1:])
        return walk.map_values(np.ascontiguousarray(X, dtype=np.float64), indptr,
                               columns.astype(np.int64), split.weights[rows, columns],
                               np.ascontiguousarray(split.bias, dtype=np.float64))

    def walk_form(self, split):
        """``(code, extra)``: the code of the kind in the compiled walk
        (:data:`~.walk.HYPERPLANE` ..) and the numbers besides its map that it routes by
        (:class:`~.walk.FlatTrees`); a kind the walk does not know is
        :data:`~.walk.OTHER`, its rows routed by :meth:`Split.route_with_missing`."""
        return walk.OTHER, ()

    def reads_printed(self, split):
        """Whether ``split`` routes rows by its printed rule read exactly (see
        :attr:`Split.reads_printed`)."""
        return False

    def take_printed(self, split, digits):
        """Make the numbers that ``split`` prints with ``digits`` digits its own, where
        the kind routes by them (see :meth:`Split.calibrate_digits`)."""

    def note_training_rows(self, split, X):
        """Keep what the texts of ``split`` say of the training rows ``X`` that reach its
        node (:meth:`Split.calibrate_digits` passes them): nothing but for a
        pairwise-vote split."""

    def calibration_row(self, split):
        """``(weights, bias)`` of ``split`` as one hyperplane for the compiled pass that
        calibrates a tree's printed rules (:func:`~.kernels.calibration_pass`), or None if
        the pass cannot take the kind (the splits' own methods calibrate it then)."""
        return None

    def partition(self, split, X, rows, y, sample_weight, n_classes):
        """How growing divides the node's ``rows`` of ``X``: (the rows of every child,
        the children's weighted class counts, one row per child)."""
        position = split.route(X[rows])
        n_children = split.n_children
        if n_children == 2:
            goes_right = position.astype(bool)
            child_rows = [rows[~goes_right], rows[goes_right]]
        else:
            child_rows = [rows[position == p] for p in range(n_children)]
        child_counts = np.bincount(y[rows] + n_classes * position,
                                   weights=sample_weight[rows],
                                   minlength=n_children * n_classes)
        return child_rows, child_counts.reshape(n_children, n_classes)

    def route(self, split, values):
        """Child position of every row, from the split's values ``V`` (n_rows, m)."""
        raise NotImplementedError

    def conditions(self, split):
        """One :class:`Condition` per child, in child order."""
        raise NotImplementedError

    def quantity(self, split):
        """The quantities the split tests, one :class:`Affine` per row of the map."""
        return tuple(Affine.of(w, b) for w, b in zip(split.weights, split.bias))

    def printed(self, split, digits):
        """The split with the numbers of its text rounded to ``digits`` significant
        digits (see :meth:`Split.printed`)."""
        return split.copy(weights=round_significant(split.weights, digits),
                          bias=-round_significant(-split.bias, digits), digits=digits)

    def pairwise_boundary(self, split, first, second):
        """``(a, c)`` with ``a·x + c >= 0`` where child ``second`` beats child ``first``."""
        raise NotImplementedError

    def child_half_planes(self, split, position):
        """Half-planes ``(a, c)``, ``a·x + c >= 0``, whose intersection is the region of
        child ``position`` (empty for a split without geometry)."""
        return [self.pairwise_boundary(split, other, position)
                for other in range(self.n_children(split)) if other != position]

    def explorer_hyperplane(self, split, X, pair=None):
        """``(w, b, left, right)``: the hyperplane the split explorer measures distances
        to; rows with ``w·x + b < 0`` lie on child ``left``'s side, others on ``right``'s.

        A multiway split has no single hyperplane: the boundary between the two children
        ``pair`` (positions), by default the two that receive the most rows of ``X``
        (ties to the lower position), with ``left`` the lower of the two positions."""
        if pair is None:
            counts = (np.bincount(split.route(X), minlength=split.n_children) if len(X)
                      else np.zeros(split.n_children, dtype=int))
            pair = np.argsort(-counts, kind="stable")[:2]
        left, right = int(min(pair)), int(max(pair))
        if left == right or not 0 <= left < right < split.n_children:
            raise ValueError(f"no boundary between children {tuple(pair)} of a split of "
                             f"{split.n_children}")
        w, b = self.pairwise_boundary(split, left, right)
        return w, b, left, right

    def explorer_labels(self, split, names, left, right, order=None, max_terms=None):
        """The words of the two sides of :meth:`explorer_hyperplane`: (``left``'s side,
        ``right``'s side), the conditions of the two branches."""
        conditions = split.conditions()
        return tuple(conditions[p].text(names, order, max_terms) for p in (left, right))


class BinaryKind(SplitKind):
    """A test of one affine value, with two children."""
    one_row = True
    fixed_children = 2


class HyperplaneKind(BinaryKind):
    """Binary oblique (or axis-parallel) split: left if ``w·x + b < 0``, else right."""
    name = HYPERPLANE
    has_threshold = True

    def route(self, split, values):
        return (values[:, 0] >= 0).astype(np.intp)

    def values(self, split, X):
        # kernels.hyperplane_values: the arithmetic of growing and of calibration
        X = np.ascontiguousarray(X, dtype=float)
        return kernels.hyperplane_values(X, split.weights[0], split.bias[0])[:, None]

    def reads_printed(self, split):
        return (getattr(split, "digits", None) is not None
                and np.count_nonzero(split.weights) >= 2)

    def take_printed(self, split, digits):
        printed = split.printed(digits)
        split.weights, split.bias = printed.weights, printed.bias

    def calibration_row(self, split):
        return split.weights[0], float(split.bias[0])

    def walk_form(self, split):
        return (walk.PRINTED if self.reads_printed(split) else walk.HYPERPLANE), ()

    def partition(self, split, X, rows, y, sample_weight, n_classes):
        # the compiled steps: the printed rule read exactly (the forest's splits), or
        # kernels.hyperplane_partition, the routing of Split.values
        if split.reads_printed:
            right_side, undecided = kernels.printed_sides(X, rows, split.weights[0],
                                                          split.bias[0])
            if undecided.size:
                right_side[undecided] = printed_rule_holds(
                    X[rows[undecided]], split.weights[0], split.bias[0])
            left, right, counts = kernels.partition_rows(rows, right_side, y,
                                                         sample_weight, n_classes)
        else:
            left, right, counts = kernels.hyperplane_partition(
                X, rows, split.weights[0], split.bias[0], y, sample_weight, n_classes)
        return [left, right], counts

    def conditions(self, split):
        weights, bias, digits = split.weights[0], float(split.bias[0]), split.print_digits
        used = np.flatnonzero(weights)
        if used.size == 1:  # x_j ≥ t (or ≤ t for a negative weight)
            j = int(used[0])
            quantity = Affine((Term(j, 1.0),))
            threshold = -bias / weights[j]
            operators = ("<", "≥") if weights[j] > 0 else (">", "≤")
        else:
            quantity, threshold, operators = Affine.of(weights), -bias, ("<", "≥")
        return [Compare(quantity=quantity, operator=operator,
                        threshold=threshold, digits=digits) for operator in operators]

    def printed(self, split, digits):
        weights = split.weights[0]
        used = np.flatnonzero(weights)
        if used.size != 1:
            return super().printed(split, digits)
        # x ≥ t is evaluated as x − t ≥ 0 (t − x ≥ 0 for x ≤ t), which in floating point
        # decides exactly as the printed comparison
        j = int(used[0])
        threshold = round_significant(-split.bias[0] / weights[j], digits)
        sign = 1.0 if weights[j] > 0 else -1.0
        printed_weights = np.zeros_like(split.weights)
        printed_weights[0, j] = sign
        return split.copy(weights=printed_weights, bias=[-sign * threshold], digits=digits)

    def child_half_planes(self, split, position):
        w, b = split.weights[0], float(split.bias[0])
        return [(-w, -b)] if position == 0 else [(w, b)]

    def pairwise_boundary(self, split, first, second):
        w, b = split.weights[0], float(split.bias[0])
        return (w, b) if second > first else (-w, -b)

    def explorer_hyperplane(self, split, X, pair=None):
        return split.weights[0], float(split.bias[0]), 0, 1


class ArgmaxKind(SplitKind):
    """One child per row of the map: the row whose value is largest (first on ties)."""
    name = ARGMAX
    takes_classes = True

    def n_children(self, split):
        return split.weights.shape[0]

    def route(self, split, values):
        return np.argmax(values, axis=1)

    def walk_form(self, split):
        return walk.ARGMAX, ()

    def conditions(self, split):
        scores = self.quantity(split)
        classes = split.classes if split.classes is not None else [None] * len(scores)
        # a branch with neither a class nor a label given is named by its number
        labels = split.child_labels or [None if split.classes is not None else str(k + 1)
                                        for k in range(len(scores))]
        return [Largest(scores=scores, branch=branch, label=label,
                        digits=split.print_digits)
                for branch, label in zip(classes, labels)]

    def pairwise_boundary(self, split, first, second):
        # child `second` wins over `first` where v_second − v_first >= 0
        return (split.weights[second] - split.weights[first],
                float(split.bias[second] - split.bias[first]))


class NearestCentreKind(SplitKind):
    """One child per centre: the centre nearest to the row's values (first on ties)."""
    name = NEAREST_CENTRE
    takes_centres = True
    prints_numbers = False  # the text names the clusters; the centres are not printed

    def check(self, split):
        if split.centres is None:
            raise ValueError("a nearest_centre split needs centres")
        if split.centres.shape[1] != split.weights.shape[0]:
            raise ValueError("centres must live in the space of the split's values")

    def n_children(self, split):
        return split.centres.shape[0]

    def route(self, split, values):
        # the squares added in column order, as the compiled walk adds them
        distances = np.zeros((values.shape[0], split.centres.shape[0]))
        for column in range(values.shape[1]):
            distances += (values[:, column, None] - split.centres[None, :, column]) ** 2
        return np.argmin(distances, axis=1)

    def walk_form(self, split):
        return walk.NEAREST_CENTRE, split.centres

    def conditions(self, split):
        scores = self.quantity(split)
        labels = split.child_labels or [None] * self.n_children(split)
        return [Nearest(scores=scores, branch=k + 1, label=label,
                        digits=split.print_digits) for k, label in enumerate(labels)]

    def printed(self, split, digits):
        return split

    def pairwise_boundary(self, split, first, second):
        # ||v − c_f||² − ||v − c_s||² >= 0 with v = W x + b is affine in x:
        # 2 (c_s − c_f)·v + ||c_f||² − ||c_s||² >= 0
        c_first, c_second = split.centres[first], split.centres[second]
        direction = 2.0 * (c_second - c_first)
        return (split.weights.T @ direction,
                float(split.bias @ direction + c_first @ c_first - c_second @ c_second))


class EqualityKind(BinaryKind):
    """Nominal test: child 0 if ``x_j = a``, child 1 otherwise."""
    name = EQUALITY
    has_geometry = False

    def route(self, split, values):
        return (values[:, 0] != 0).astype(np.intp)

    def walk_form(self, split):
        return walk.EQUALITY, ()

    def conditions(self, split):
        j = int(split.features_used[0])
        value = -split.bias[0] / split.weights[0, j]
        # hand-given labels name the tested value first: both branches show it
        label = split.child_labels[0] if split.child_labels else None
        return [Equal(operator=operator, feature=j, value=value, label=label,
                      digits=split.print_digits) for operator in ("=", "≠")]

    def printed(self, split, digits):
        j = int(split.features_used[0])
        weights = np.zeros_like(split.weights)
        weights[0, j] = 1.0
        value = round_significant(-split.bias[0] / split.weights[0, j], digits)
        return split.copy(weights=weights, bias=[-value], digits=digits)

    def child_half_planes(self, split, position):
        return []

    def explorer_hyperplane(self, split, X, pair=None):
        raise ValueError("a nominal (equality) test has no hyperplane to measure against")


class NominalKind(SplitKind):
    """C4.5's test of a nominal attribute: one child per value, child ``k`` for the rows
    with ``x_j = branch_values[k]`` (Quinlan 1993, ch. 2), the value ``v = w·x + b`` of the
    split's map (``e_j`` and 0 as grown; a plane's view holding ``x_j`` fixed makes it a
    constant).  A row whose value is none of them (a value unseen in training) goes to no
    child: it is treated as a missing value."""
    name = NOMINAL
    takes_branch_values = True
    has_geometry = False
    prints_numbers = False  # the text names the values
    one_row = True

    def check(self, split):
        super().check(split)
        if split.branch_values is None or len(split.branch_values) < 2:
            raise ValueError("a nominal split needs the values of its two or more children")

    def n_children(self, split):
        return len(split.branch_values)

    def route(self, split, values):
        position = np.full(values.shape[0], -1, dtype=np.intp)
        for k, value in enumerate(split.branch_values):
            position[values[:, 0] == value] = k
        return position

    def walk_form(self, split):
        return walk.NOMINAL, split.branch_values

    def conditions(self, split):
        j = int(split.features_used[0])
        labels = split.child_labels or [None] * len(split.branch_values)
        return [Equal(operator="=", feature=j, value=value, label=label,
                      digits=split.print_digits)
                for value, label in zip(split.branch_values, labels)]

    def printed(self, split, digits):
        return split

    def child_half_planes(self, split, position):
        return []

    def explorer_hyperplane(self, split, X, pair=None):
        raise ValueError("a nominal test has no hyperplane to measure against")


def pairwise_pairs(n_children):
    """The pairs of child positions ``(a, b)``, ``a < b``, in lexicographic order: the
    order of the rows of a ``pairwise_vote`` split's map (pair ``(a, b)`` is row
    :func:`pairwise_index` ``(a, b, n_children)``)."""
    return [(a, b) for a in range(n_children) for b in range(a + 1, n_children)]


def pairwise_index(a, b, n_children):
    """The row of the pair ``(a, b)``, ``a < b``, in a ``pairwise_vote`` map of
    ``n_children`` children: the pairs before it are the ``a(2k − a − 1)/2`` of a smaller
    first position and the ``b − a − 1`` of first position ``a`` and a smaller second."""
    return a * (2 * n_children - a - 1) // 2 + (b - a - 1)


def pairwise_children(n_rows):
    """The number of children ``k`` of a ``pairwise_vote`` map with ``k(k−1)/2`` rows,
    or None if ``n_rows`` is not such a number."""
    k = int(round((1 + np.sqrt(1 + 8 * n_rows)) / 2))
    return k if k >= 2 and k * (k - 1) // 2 == n_rows else None


def pairwise_vote_counts(values, n_children):
    """The votes of every child for every row, shape (n_rows, k): row ``p`` of ``values``
    (n_rows, k(k−1)/2) decides the ``p``-th pair ``(a, b)`` of :func:`pairwise_pairs`,
    ``>= 0`` a win of ``a``, ``< 0`` one of ``b``.

    The votes are counted a first position at a time (the pairs ``(a, ·)`` are the
    contiguous columns from :func:`pairwise_index` ``(a, a + 1)``): O(n·k) memory besides
    ``values`` and no list of the pairs."""
    votes = np.zeros((values.shape[0], n_children), dtype=np.intp)
    for a in range(n_children - 1):
        start = pairwise_index(a, a + 1, n_children)
        first = values[:, start:start + n_children - a - 1] >= 0
        votes[:, a] += first.sum(axis=1)
        votes[:, a + 1:] += ~first
    return votes


def pairwise_votes(values, n_children):
    """Child position of every row by pairwise voting (:func:`pairwise_vote_counts`):
    the child with most wins, the lowest position on ties (LIBSVM's and WEKA's rule: the
    first class of largest vote)."""
    return np.argmax(pairwise_vote_counts(values, n_children), axis=1)


def pairwise_runners_up(votes, winners):
    """The runner-up of every row of ``votes`` (n_rows, k): the child with most votes
    besides the row's winner in ``winners``, the lowest position on ties."""
    others = votes.copy()
    others[np.arange(votes.shape[0]), winners] = -1
    return np.argmax(others, axis=1)


class PairwiseVoteKind(SplitKind):
    """One child per class, by pairwise voting (one-vs-one; WEKA's SMO, LIBSVM).

    The map has one row per pair of children ``(a, b)``, ``a < b``, in lexicographic
    order (:func:`pairwise_pairs`); ``v ≥ 0`` is a vote for ``a``, ``v < 0`` one for
    ``b``, and a row goes to the child with most votes, the lowest position on ties (as
    LIBSVM and WEKA pick the first class of largest vote).

    **Geometry.**  The region of a child is not always convex: with three or more
    children a voting cycle (``a`` beats ``b``, ``b`` beats ``c``, ``c`` beats ``a``: one
    vote each) goes to the lowest of them, so the region of child 0 is its cell of
    outright wins *and* such cycle cells.  Exact half-planes are impossible, so
    :meth:`child_half_planes` gives each child only the cell where it wins *every*
    pairwise vote (a convex polygon; ``regions_exact`` is False) and
    :meth:`pairwise_boundary` the hyperplane of the pair.  The 2-D views then show: the
    partition image exactly (it routes every pixel through the tree); the boundaries
    between the outright-win cells; no boundary around a cycle cell, and no boundaries of
    the subtree below a child inside its cycle cells.  For two children the split is one
    hyperplane and everything is exact.
    """
    name = PAIRWISE_VOTE
    takes_classes = True
    regions_exact = False

    def check(self, split):
        if pairwise_children(split.weights.shape[0]) is None:
            raise ValueError("a pairwise_vote split has k(k−1)/2 rows of weights, one per "
                             "pair of its k children")

    def n_children(self, split):
        return pairwise_children(split.weights.shape[0])

    def route(self, split, values):
        return pairwise_votes(values, self.n_children(split))

    def walk_form(self, split):
        return walk.PAIRWISE_VOTE, ()

    def vote_counts(self, split, values):
        """The votes of every child for every row of the split's ``values``
        (:func:`pairwise_vote_counts`)."""
        return pairwise_vote_counts(values, self.n_children(split))

    def decided_rows(self, split, X):
        """How many of the rows ``X`` every pair decides (one count per row of the map):
        the rows whose winner and runner-up (:func:`pairwise_runners_up`) are the pair's
        two children, their vote being the one between the two.  The rows are counted in
        blocks, as :meth:`Split.route` takes them."""
        k = self.n_children(split)
        decided = np.zeros(split.weights.shape[0], dtype=np.intp)
        rows = max(1, ROUTE_BLOCK_VALUES // split.weights.shape[0])
        for start in range(0, X.shape[0], rows):
            votes = pairwise_vote_counts(split.values(X[start:start + rows]), k)
            winners = np.argmax(votes, axis=1)
            runners_up = pairwise_runners_up(votes, winners)
            first, second = np.minimum(winners, runners_up), np.maximum(winners, runners_up)
            decided += np.bincount(pairwise_index(first, second, k),
                                   minlength=decided.size)
        return decided

    def note_training_rows(self, split, X):
        """Keep in :attr:`Split.decided_rows` how many of the rows ``X`` (the node's
        training rows) every pair decides (:meth:`decided_rows`)."""
        split.decided_rows = tuple(int(count) for count in self.decided_rows(split, X))

    def explorer_hyperplane(self, split, X, pair=None):
        """As :meth:`SplitKind.explorer_hyperplane`, the default pair being the one that
        decides the most rows of ``X`` (:meth:`decided_rows`; the first on ties)."""
        if pair is None and len(X):
            pair = pairwise_pairs(self.n_children(split))[
                int(np.argmax(self.decided_rows(split, X)))]
        return super().explorer_hyperplane(split, X, pair)

    def conditions(self, split):
        scores = self.quantity(split)
        k = self.n_children(split)
        if split.classes is not None:
            names, branches = split.classes, split.classes
        else:
            names, branches = tuple(range(1, k + 1)), [None] * k
        pairs = tuple((names[a], names[b]) for a, b in pairwise_pairs(k))
        labels = split.child_labels or [None if split.classes is not None else str(c + 1)
                                        for c in range(k)]
        decided = getattr(split, "decided_rows", None)
        if decided is not None and len(decided) != len(scores):
            decided = None
        return [Votes(scores=scores, pairs=pairs, branch=branch, label=label,
                      digits=split.print_digits, decided=decided)
                for branch, label in zip(branches, labels)]

    def explorer_labels(self, split, names, left, right, order=None, max_terms=None):
        # the sides of the pair's hyperplane are its two votes, not the branches: a row
        # of a third class lies on one side too, and goes where most of its votes say
        conditions = split.conditions()
        return conditions[left].vote_sides(conditions, left, right, names, order,
                                           max_terms)

    def pairwise_boundary(self, split, first, second):
        # the pair's own hyperplane, oriented so that `second` wins where it is >= 0
        p = pairwise_index(min(first, second), max(first, second), self.n_children(split))
        w, b = split.weights[p], float(split.bias[p])
        return (w, b) if second < first else (-w, -b)


#: The kinds by name.
KINDS = {kind.name: kind for kind in (HyperplaneKind(), ArgmaxKind(), NearestCentreKind(),
                                      EqualityKind(), PairwiseVoteKind(), NominalKind())}
KIND_NAMES = tuple(KINDS)


def kind_named(name):
    """The registered kind of name ``name``."""
    return KINDS[name]


#: Splits of more weights than this pickle the non-zero ones only (when at most a quarter
#: are non-zero): :meth:`Split.__getstate__`.
SPARSE_PICKLE_SIZE = 16


class Split:
    """An affine map over the raw features and a kind (see the module docstring).

    Parameters
    ----------
    kind : str or SplitKind
        The kind's name, ``"hyperplane"``, ``"argmax"``, ``"nearest_centre"``,
        ``"equality"``, ``"pairwise_vote"``, ``"nominal"`` (or the kind itself); the
        split's :attr:`kind` is the :class:`SplitKind`, ``kind.name`` its name.
    weights : array of shape (m, n_features)
    bias : array of shape (m,)
    centres : array of shape (n_children, m), only for ``"nearest_centre"``
    child_labels : sequence of str, optional
        Branch labels given by hand, shown instead of the class or cluster of a branch.
    digits : int or None
        Significant digits of the numbers in the split's rule text; ``None`` (not yet
        calibrated) prints :data:`DIGITS`.  :meth:`calibrate_digits` sets it to the fewest
        digits with which the printed rule routes every training row as the split does.
    classes : sequence of int, optional
        Only for ``"argmax"`` and ``"pairwise_vote"``: the class code (index into the
        tree's classes) each branch stands for, shown as the class's name.
    branch_values : sequence of int, optional
        Only for ``"nominal"``: the value code each branch tests (``x_j = values[k]``).
    missing_shares : sequence of float, optional
        How a row with a missing value in a feature the split uses is routed: ``None``
        (the default), it stops at the node (:meth:`route_with_missing`); else it goes
        down every branch with its weight times the branch's share, C4.5's fractional
        routing (Quinlan 1993, ch. 3; WEKA's ``C45Split.weights``), the shares being
        those of the training rows of known value (:meth:`route_by_weight`).
    missing_in_training : bool, optional
        With ``missing_shares``: whether some of the node's training rows had a missing
        value in the split's features (:meth:`share_missing`); only then do the branches'
        texts print the shares (:meth:`missing_text`).  ``None``: not known (a split
        pickled before it was kept; a tree pickled so learns it from its row counts on
        loading), read as no.
    decided_rows : sequence of int, optional
        Only for ``"pairwise_vote"``, one count per pair (row of the map): how many of the
        node's training rows the pair decides, their winner and runner-up being its two
        children (:meth:`PairwiseVoteKind.note_training_rows`, at :meth:`calibrate_digits`);
        the node's texts name the pairs that decide the most rows.  ``None``: not known.
    """

    __slots__ = ("kind", "weights", "bias", "centres", "child_labels", "digits", "classes",
                 "branch_values", "missing_shares", "missing_in_training", "decided_rows")

    def __init__(self, kind, weights, bias, centres=None, child_labels=None, digits=None,
                 classes=None, branch_values=None, missing_shares=None,
                 missing_in_training=None, decided_rows=None):
        if not isinstance(kind, SplitKind):
            if kind not in KINDS:
                raise ValueError(f"unknown routing rule {kind!r}: a split's kind is one "
                                 f"of {KIND_NAMES}")
            kind = KINDS[kind]
        weights = np.atleast_2d(np.asarray(weights, dtype=float))
        bias = np.atleast_1d(np.asarray(bias, dtype=float))
        if bias.shape != (weights.shape[0],):
            raise ValueError("bias must have one entry per row of weights")
        if centres is not None:
            if not kind.takes_centres:
                raise ValueError("only a nearest_centre split has centres")
            centres = np.atleast_2d(np.asarray(centres, dtype=float))
        self.kind = kind
        self.weights = weights
        self.bias = bias
        self.centres = centres
        self.digits = digits
        self.classes = None if classes is None else tuple(int(c) for c in classes)
        if branch_values is not None and not kind.takes_branch_values:
            raise ValueError("only a nominal split has branch_values")
        self.branch_values = (None if branch_values is None
                              else tuple(int(v) for v in branch_values))
        self.missing_shares = (None if missing_shares is None
                               else np.asarray(missing_shares, dtype=float))
        self.missing_in_training = (None if missing_in_training is None
                                    else bool(missing_in_training))
        self.decided_rows = (None if decided_rows is None
                             else tuple(int(count) for count in decided_rows))
        self.child_labels = None if child_labels is None else tuple(child_labels)
        self.kind.check(self)
        if self.child_labels is not None and len(self.child_labels) != self.n_children:
            raise ValueError("child_labels needs one label per child")
        if self.classes is not None and (not kind.takes_classes
                                         or len(self.classes) != self.n_children):
            raise ValueError("classes are for argmax and pairwise_vote splits, one class "
                             "per child")

    @classmethod
    def hyperplane(cls, weights, bias):
        """Binary oblique split: left if ``w·x + b < 0``, right if ``w·x + b >= 0``."""
        split = object.__new__(cls)  # no validation needed: the shapes are fixed here
        split.kind, split.centres, split.child_labels = KINDS[HYPERPLANE], None, None
        split.digits = split.classes = split.branch_values = split.missing_shares = None
        split.missing_in_training = None
        split.decided_rows = None
        split.weights = np.array(weights, dtype=float).reshape(1, -1)
        split.bias = np.array([bias], dtype=float).reshape(1)
        return split

    @classmethod
    def axis_parallel(cls, feature, threshold, n_features):
        """Binary split on one attribute: left if ``x_feature < threshold``, else right."""
        weights = np.zeros((1, n_features))
        weights[0, feature] = 1.0
        return cls(HYPERPLANE, weights, [-float(threshold)])

    @classmethod
    def equality(cls, feature, value, n_features, child_labels=None):
        """Nominal test: child 0 if ``x_feature == value``, child 1 otherwise."""
        weights = np.zeros((1, n_features))
        weights[0, feature] = 1.0
        return cls(EQUALITY, weights, [-float(value)], child_labels=child_labels)

    @classmethod
    def nominal(cls, feature, values, n_features):
        """C4.5's nominal test: one child per value code in ``values``, child ``k`` for
        ``x_feature = values[k]``."""
        weights = np.zeros((1, n_features))
        weights[0, feature] = 1.0
        return cls(NOMINAL, weights, [0.0], branch_values=values)

    def copy(self, **changes):
        """A split with the same data except ``changes`` (keyword arguments of the
        constructor)."""
        fields = dict(kind=self.kind, weights=self.weights, bias=self.bias,
                      centres=self.centres, child_labels=self.child_labels,
                      digits=getattr(self, "digits", None),
                      classes=getattr(self, "classes", None),
                      branch_values=getattr(self, "branch_values", None),
                      missing_shares=getattr(self, "missing_shares", None),
                      missing_in_training=getattr(self, "missing_in_training", None),
                      decided_rows=getattr(self, "decided_rows", None))
        fields.update(changes)
        return Split(**fields)

    # ----- what the kind says -----
    @property
    def n_children(self):
        return self.kind.n_children(self)

    @property
    def n_features(self):
        return self.weights.shape[1]

    @property
    def features_used(self):
        """Indices of the features with a non-zero weight in any row."""
        if self.weights.shape[0] == 1:
            return np.flatnonzero(self.weights[0])
        return np.flatnonzero(np.any(self.weights != 0, axis=0))

    @property
    def is_oblique(self):
        """A test that weighs two or more attributes together."""
        return self.kind.has_geometry and self.features_used.size > 1

    def values(self, X):
        """The affine map ``X @ weights.T + bias``, shape (n_rows, m).  A hyperplane's
        one value is :func:`~.kernels.hyperplane_values`, the arithmetic of growing
        and of the pass that calibrates the printed rules, so that a row goes where the
        tree was grown and printed to send it."""
        return self.kind.values(self, X)

    @property
    def reads_printed(self):
        """Whether the split routes rows by its printed rule read exactly: a hyperplane of
        two or more terms whose digits are set (after :meth:`calibrate_digits`, or made
        so, as the forest's splits), whose numbers are then the ones its text prints."""
        return self.kind.reads_printed(self)

    def route(self, X):
        """Child position (0 .. n_children-1) of every row of ``X`` (finite values).  A
        map of many rows (a ``pairwise_vote`` split of many children) takes the rows in
        blocks of at most :data:`ROUTE_BLOCK_VALUES` values.

        A split that :attr:`reads_printed` sends a row right if and only if its printed
        rule ``Σ c_j·x_j ≥ t`` holds exactly, ``c_j`` and ``t`` the decimals its text
        shows (the shortest texts of its weights and of ``−bias``) and ``x_j`` the row's
        values: the floating-point value decides where it is farther from 0 than its
        rounding error can reach (:func:`~.kernels.printed_sides`), exact rational
        arithmetic the rare rows nearer (:func:`printed_rule_holds`).  A test of one
        attribute is evaluated ``x − t ≥ 0`` (``t − x ≥ 0``), exact in floating point."""
        if self.reads_printed:
            X = np.ascontiguousarray(X, dtype=float)
            right, undecided = kernels.printed_sides(
                X, np.arange(X.shape[0]), self.weights[0], self.bias[0])
            if undecided.size:
                right[undecided] = printed_rule_holds(X[undecided], self.weights[0],
                                                      self.bias[0])
            return right.astype(np.intp)
        rows = max(1, ROUTE_BLOCK_VALUES // self.weights.shape[0])
        if X.shape[0] <= rows:
            return self.kind.route(self, self.values(X))
        return np.concatenate([self.kind.route(self, self.values(X[start:start + rows]))
                               for start in range(0, X.shape[0], rows)])

    def route_with_missing(self, X):
        """Child position of every row of ``X``, or ``-1`` for a row that stops at the
        split's node: one with a missing value (NaN, ±inf) in a feature the split uses.
        Missing values in features the split does not use do not matter."""
        X = np.asarray(X, dtype=float)
        finite = np.isfinite(X)
        if finite.all():
            return self.route(X)
        missing = ~finite[:, self.features_used].all(axis=1)
        position = np.full(X.shape[0], -1, dtype=np.intp)
        position[~missing] = self.route(np.where(finite, X, 0.0)[~missing])
        return position

    def route_by_weight(self, X, rows, weights):
        """Where the rows ``rows`` (``X`` their values) of weights ``weights`` go: a list,
        per child, of ``(child_rows, child_weights)``, and the rows that stop at the node.
        A row of finite values in the split's features goes to its child with its weight;
        one with a missing value stops at the node, or, when the split has
        :attr:`missing_shares`, goes down every branch with its weight times the
        branch's share (C4.5's fractional routing).  Rows stay in ascending order."""
        position = self.route_with_missing(X)
        missing = position < 0
        if self.missing_shares is None or not missing.any():
            parts = [(rows[position == p], weights[position == p])
                     for p in range(self.n_children)]
            return parts, rows[missing]
        parts = []
        for p, share in enumerate(self.missing_shares.tolist()):
            reaching = (position == p) | (missing & (share > 0))
            parts.append((rows[reaching],
                          weights[reaching] * np.where(missing[reaching], share, 1.0)))
        return parts, rows[:0]

    def share_missing(self, X, weights):
        """C4.5's shares for the node's training rows ``X`` of weights ``weights``: set
        :attr:`missing_shares` to every branch's share of the weight of the rows of
        known value in the split's features, and :attr:`missing_in_training` to whether
        any row had a missing one.  Returns the number of branches that get weight
        (fewer than two: a split that separates nothing); with none, nothing changes."""
        position = self.route_with_missing(X)
        known = position >= 0
        shares = np.bincount(position[known], weights[known], self.n_children)
        if shares.sum() > 0:
            self.missing_shares = shares / shares.sum()
            self.missing_in_training = not known.all()
        return int(np.count_nonzero(shares > 0))

    @property
    def routes_by_weight(self):
        """Whether a row with a missing value in the split's features goes down every
        branch by :attr:`missing_shares` (C4.5), rather than stopping at the node."""
        return getattr(self, "missing_shares", None) is not None

    def resharing(self, X, weights):
        """This split, or, if it :attr:`routes_by_weight`, a copy whose shares are those
        of the rows ``X`` of weights ``weights`` now reaching it (:meth:`share_missing`;
        J48 redistributes a raised subtree's rows so)."""
        if not self.routes_by_weight:
            return self
        split = self.copy()
        split.share_missing(X, weights)
        return split

    def rows_divided(self, rows, known):
        """The ``rows`` that the split sends down every branch: those not ``known`` (a
        missing value in its features) if it :attr:`routes_by_weight`, else none (they
        stop at the node)."""
        return rows[~known] if self.routes_by_weight else rows[:0]

    def learn_missing_in_training(self, n_node, n_children):
        """For a split pickled before :attr:`missing_in_training` was kept: with shares,
        the node's training rows had a missing value if its children hold more rows
        (``n_children``, their sum) than it (``n_node``): such a row went down several
        branches."""
        if self.routes_by_weight and getattr(self, "missing_in_training", None) is None:
            self.missing_in_training = bool(n_children > n_node)

    @property
    def has_geometry(self):
        """Whether the split's branches are regions of the attributes' space bounded by
        hyperplanes (not a nominal test): it can be drawn, and shortened to fewer
        attributes."""
        return self.kind.has_geometry

    def description(self, names, order=None, max_terms=None):
        """The quantity the split tests, e.g. ``0.8·a − 0.6·b + 1.2``, or the attribute
        a test of one attribute reads; for a multiway split, the affine maps with their
        constants, separated by semicolons."""
        attribute = self.conditions()[0].attribute
        if attribute is not None:
            return Vocabulary.of(names).features[attribute]
        return "; ".join(affine_text(quantity, names, self.print_digits, order, max_terms)
                         for quantity in self.kind.quantity(self))

    def lists_scores_once(self, conditions):
        """Whether a text of the tree lists the split's score maps once, above its
        branches, rather than in every branch (many scores, or pairwise votes)."""
        first = conditions[0]
        return first.lists_scores and len(first.scores) > first.branch_scores_listed

    @property
    def children_expected(self):
        """How many children a tree gives the split's node: a kind's fixed number, else
        :attr:`n_children`."""
        return self.kind.fixed_children or self.n_children

    def value_router(self):
        """How a shortened split's map values route rows: None for a threshold on one
        value (a hyperplane), else the kind's routing of the values."""
        if self.kind.has_threshold:
            return None
        return lambda values: self.kind.route(self, values)

    def fewest_digits_routing(self, X, expected, minimum=DIGITS):
        """The fewest significant digits, from ``minimum`` up to :data:`MAX_DIGITS`, with
        which the printed split sends the rows ``X`` to the children ``expected``
        (``minimum`` for a kind that prints no numbers)."""
        digits = minimum
        if not self.kind.prints_numbers:
            return digits
        while digits < MAX_DIGITS and not np.array_equal(
                self.printed(digits).route_with_missing(X), expected):
            digits += 1
        return digits

    def shares_text(self, names):
        """``normal 55.2 %, reversable defect 38.9 %``: the branches that a row with a
        missing value goes down (:attr:`missing_shares`), named as a path names them."""
        conditions = self.conditions()
        return ", ".join(
            f"{condition.branch_word(conditions, k, names)} "
            f"{format_significant(100 * share, 3)} %"
            for k, (condition, share) in enumerate(zip(conditions,
                                                       self.missing_shares.tolist()))
            if share > 0)

    def missing_text(self, position):
        """How a row with a missing value in the split's features goes down branch
        ``position``, ``"missing: 38.2 %"`` (its weight times the branch's share, C4.5's
        fractional routing), where the node's training rows had such values
        (:attr:`missing_in_training`); else ``""``: the shares still route new rows with
        a missing value, but a text of a split that never met one does not speak of
        them."""
        if (getattr(self, "missing_shares", None) is None
                or not getattr(self, "missing_in_training", None)):
            return ""
        share = format_significant(100 * float(self.missing_shares[position]), 3)
        return f"missing: {share} %"

    def conditions(self):
        """One :class:`Condition` per child: the structured text of every branch."""
        return self.kind.conditions(self)

    # ----- printed form -----
    @property
    def print_digits(self):
        """Significant digits of the split's printed numbers (:data:`DIGITS` if not set)."""
        digits = getattr(self, "digits", None)  # models pickled before the slot existed
        return DIGITS if digits is None else digits

    def printed(self, digits=None):
        """The split as its rule text states it: a split of the same kind whose numbers are
        the ones the text prints, rounded to ``digits`` significant digits (default
        :attr:`print_digits`).

        A test on one feature is printed as ``x ≥ t`` (``x ≤ t`` for a negative weight)
        with ``t = −b / w`` rounded and evaluated as ``x − t ≥ 0`` (``t − x ≥ 0``); a
        hyperplane as ``w·x ≥ −b`` with every weight and ``−b`` rounded; an argmax split
        as its rounded score maps.  In floating point these decide exactly as the printed
        comparisons.  A nearest-centre split prints no centres and is returned unchanged.
        """
        return self.kind.printed(self, self.print_digits if digits is None else digits)

    def drop_negligible_terms(self, X, tolerance=NEGLIGIBLE, position=None):
        """Set to 0 the weights whose terms are rounding noise on the rows ``X`` (the
        node's training rows): ``|w_j| · spread_j`` below ``tolerance`` times the split's
        largest such term, where ``spread_j`` is feature ``j``'s largest absolute value
        over ``X``.  Only if every row of ``X`` still goes to the same child (a plane
        through rows may hinge on them; ``position``, the rows' children, if known);
        returns the number of weights dropped."""
        used = self.features_used
        if not self.kind.has_geometry or X.shape[0] == 0 or used.size < 2:
            return 0
        size = np.abs(self.weights[:, used]) * np.abs(X[:, used]).max(axis=0)
        largest = size.max()
        negligible = np.zeros_like(self.weights, dtype=bool)
        negligible[:, used] = (size < tolerance * largest) & (self.weights[:, used] != 0)
        if not largest > 0 or not negligible.any():
            return 0
        weights = np.where(negligible, 0.0, self.weights)
        position = self.route(X) if position is None else position
        if not np.array_equal(self.copy(weights=weights).route(X), position):
            return 0
        self.weights = weights
        return int(negligible.sum())

    def restore_scale(self, X, rows, tolerance=VANISHING):
        """Give a split of vanishing weights ordinary numbers, on the rows ``rows`` of
        ``X`` (the node's training rows); returns False for a split of no weight at all
        (every term 0 on the rows: growing makes the node a leaf), else True.

        The split's terms are ``|w_j| · spread_j``, ``spread_j`` the largest absolute value
        of feature ``j`` over the rows.  When the largest is below ``tolerance`` times the
        largest spread of its features (what is left of weights that cancelled, e.g. a
        backward elimination that kept three terms of ``1e−16``, ``1e−16·pixel_2_3 + … ≥
        5e−16``), the weights and bias are multiplied by the power of two that makes the
        largest term the size of that spread: the same split, every product and sum of
        its value scaled exactly, so every row keeps its side, and its text reads in
        ordinary numbers.  A split without geometry (a nominal test) is left as it is."""
        used = self.features_used
        if not self.kind.has_geometry or rows.size == 0:
            return True
        if used.size == 0:
            return False
        spread = kernels.finite_spread(X, np.asarray(rows, dtype=np.intp), used)
        largest = float((np.abs(self.weights[:, used]) * spread).max())
        scale = float(spread.max())
        if not largest > 0:
            return False
        if largest < tolerance * scale:
            exponent = int(np.round(np.log2(scale / largest)))
            self.weights = np.ldexp(self.weights, exponent)
            self.bias = np.ldexp(self.bias, exponent)
        return True

    def calibrate_digits(self, X, minimum=None, position=None):
        """Set :attr:`digits` to the fewest significant digits (at least ``minimum``,
        default :data:`DIGITS`) with which :meth:`printed` routes every row of ``X`` to
        the same child as the split; :data:`MAX_DIGITS` (a float's full precision) if
        none fewer does.  ``position``: the rows' children, if known.

        A hyperplane then takes its printed numbers as its own (its weights and bias
        become :meth:`printed`'s): the model is its printed rule, which routes every row
        as the text reads (:meth:`route`), and the rows of ``X`` as before."""
        minimum = DIGITS if minimum is None else minimum
        if not self.kind.prints_numbers or X.shape[0] == 0:
            digits = minimum
        else:
            position = self.route(X) if position is None else position
            for digits in range(minimum, MAX_DIGITS + 1):
                if np.array_equal(self.printed(digits).route(X), position):
                    break
        self.kind.take_printed(self, digits)
        self.kind.note_training_rows(self, X)
        self.digits = digits
        return digits

    def __eq__(self, other):
        if not isinstance(other, Split):
            return NotImplemented
        same_centres = (self.centres is None and other.centres is None) or (
            self.centres is not None and other.centres is not None
            and np.array_equal(self.centres, other.centres))
        return (self.kind is other.kind and np.array_equal(self.weights, other.weights)
                and np.array_equal(self.bias, other.bias) and same_centres
                and self.child_labels == other.child_labels
                and getattr(self, "classes", None) == getattr(other, "classes", None)
                and getattr(self, "branch_values", None)
                == getattr(other, "branch_values", None))

    __hash__ = None

    def __repr__(self):
        return (f"Split({self.kind.name!r}, weights={self.weights.tolist()}, "
                f"bias={self.bias.tolist()})")

    def __getstate__(self):
        """The slots; weights mostly 0 (a forest's split of 3 of 200 attributes) as their
        non-zeros only, so that a tree of thousands of such splits pickles -- to a worker
        process's parent, to a saved model -- in the size of its terms."""
        slots = {name: getattr(self, name, None) for name in self.__slots__}
        weights = slots["weights"]
        if weights is not None and weights.size > SPARSE_PICKLE_SIZE:
            nonzero = np.flatnonzero(weights)
            if nonzero.size * 4 <= weights.size:
                # Python numbers: a few of them pickle faster than arrays
                slots["weights"] = None
                slots["weight_terms"] = (weights.shape, nonzero.tolist(),
                                         weights.ravel()[nonzero].tolist())
                slots["bias"] = slots["bias"].tolist()
        return None, slots

    def __setstate__(self, state):
        # models pickled before a slot existed: set the missing ones to None; before the
        # kind was its own slot, its name was kept as "rule"
        _, slots = state if isinstance(state, tuple) else (None, state)
        slots = dict(slots or {})
        if "rule" in slots:
            slots["kind"] = KINDS[slots.pop("rule")]
        if "weight_terms" in slots:  # __getstate__'s non-zeros
            shape, nonzero, values = slots.pop("weight_terms")
            weights = np.zeros(shape)
            weights.ravel()[nonzero] = values
            slots["weights"] = weights
            slots["bias"] = np.array(slots["bias"], dtype=float)
        for name in self.__slots__:
            setattr(self, name, slots.get(name))
