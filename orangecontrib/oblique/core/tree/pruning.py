"""Post-pruning shared by every learner: a fitted tree in, a new, smaller tree out.

Two methods, both working only on the per-node class counts ``value`` of an
:class:`~orangecontrib.oblique.core.tree.structure.ObliqueTree`, so they apply to any kind of split,
to multiway nodes and to nodes that no training row reached:

* **Cost-complexity (weakest-link) pruning** (Breiman, Friedman, Olshen & Stone,
  *Classification and Regression Trees*, 1984, ch. 3), as OC1 uses it (Murthy, Kasif &
  Salzberg, "A system for induction of oblique decision trees", JAIR 2, 1994, §3 "Pruning"):
  :func:`cost_complexity_sequence` gives the nested sequence of subtrees,
  :func:`prune_with_holdout` picks one of them on held-out rows (``holdout_split`` sets those
  rows aside) with Breiman's k-SE rule.
* **Error-based pruning** of C4.5 (Quinlan, *C4.5: Programs for Machine Learning*, 1993,
  ch. 4): :func:`error_based_prune`, with the pessimistic error estimate :func:`added_errors`;
  J48's :func:`collapse` before it.

Each function returns a tree made with :meth:`ObliqueTree.pruned` (renumbered in preorder),
or the input tree itself when nothing is pruned; the input is never modified.
"""
import numbers
import sys

import numpy as np
from scipy import sparse
from sklearn.utils import check_random_state

from ..preprocessing import stratified_sample
from .class_counts import node_largest, node_totals, predicted_classes
from .structure import ObliqueTree

#: C4.5's table of confidence levels and normal deviates (``Val`` and ``Dev`` in C4.5's
#: ``stats.c``, from Documenta Geigy Scientific Tables, 6th ed., p. 185); C4.5 interpolates
#: linearly between the entries instead of using the exact normal quantile.
C45_CONFIDENCES = (0.0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00)
C45_DEVIATES = (4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00)


# ----- shared bookkeeping -----

def _accumulate_up(tree, amounts):
    """``amounts`` of every node plus those of all its descendants.

    Works level by level from the deepest nodes up; ``amounts`` has one row per node.
    """
    totals = np.array(amounts, dtype=float)
    for level in range(tree.depth, 0, -1):
        nodes = np.flatnonzero(tree.node_depth == level)
        np.add.at(totals, tree.parent[nodes], totals[nodes])
    return totals


def _collapsed(tree, nodes):
    """``tree`` with ``nodes`` turned into leaves; ``tree`` itself when there are none."""
    nodes = list(nodes)
    return tree.pruned(nodes) if nodes else tree


# ----- cost-complexity pruning -----

def _weakest_links(tree):
    """Breiman's weakest-link cutting on the node ids of ``tree`` (CART §3.3).

    Returns
    -------
    alphas : ndarray of float, shape (n_steps,)
        Complexity parameter of every step; ``alphas[0] == 0``.
    collapse_step : ndarray of int, shape (node_count,)
        The step at which each internal node becomes a leaf, ``-1`` for the original leaves
        and ``n_steps`` for internal nodes that are removed with an ancestor instead.  The
        ``k``-th tree of the sequence collapses every internal node with
        ``collapse_step <= k``.
    """
    n_nodes = tree.node_count
    totals = node_totals(tree.value)  # (dense or sparse counts)
    root_weight = max(totals[0], np.finfo(float).tiny)
    # Risk R(t) in units of training weight; divided by the root's weight only for alpha.
    risk = totals - node_largest(tree.value)
    is_leaf = tree.is_leaf
    n_leaves = _accumulate_up(tree, is_leaf.astype(float))
    subtree_risk = _accumulate_up(tree, np.where(is_leaf, risk, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        strength = np.where(is_leaf, np.inf, (risk - subtree_risk) / (n_leaves - 1))
    # Links within a billionth of an average row's weight of each other are tied.
    tolerance = 1e-9 * root_weight / max(int(tree.n_node_samples[0]), 1)

    order = np.fromiter(tree.preorder(), dtype=np.intp, count=n_nodes)
    position = np.empty(n_nodes, dtype=np.intp)
    position[order] = np.arange(n_nodes)
    size = _accumulate_up(tree, np.ones(n_nodes)).astype(np.intp)
    parent = tree.parent.tolist()

    collapse_step = np.where(is_leaf, -1, np.iinfo(np.intp).max)
    alphas = []
    alpha = 0.0
    while True:
        step = len(alphas)
        # Ascending ids put ancestors first (a parent's id is below its children's), so a
        # tied node inside a subtree collapsed in this step is skipped (its strength is inf).
        for node in np.flatnonzero(strength <= alpha + tolerance):
            if not np.isfinite(strength[node]):
                continue
            collapse_step[node] = step
            removed_leaves = n_leaves[node] - 1
            added_risk = risk[node] - subtree_risk[node]
            strength[order[position[node]:position[node] + size[node]]] = np.inf
            ancestor = parent[node]
            while ancestor >= 0:
                n_leaves[ancestor] -= removed_leaves
                subtree_risk[ancestor] += added_risk
                strength[ancestor] = ((risk[ancestor] - subtree_risk[ancestor])
                                      / (n_leaves[ancestor] - 1))
                ancestor = parent[ancestor]
        alphas.append(alpha / root_weight)
        remaining = strength[np.isfinite(strength)]
        if remaining.size == 0:
            break
        # The weakest remaining link is never below the last alpha (CART §3.3); max() only
        # guards against rounding.
        alpha = max(alpha, float(remaining.min()))
    collapse_step[collapse_step == np.iinfo(np.intp).max] = len(alphas)
    return np.array(alphas), collapse_step


def cost_complexity_sequence(tree):
    """The nested sequence of subtrees of weakest-link (cost-complexity) pruning.

    Breiman et al. (1984), ch. 3.3, as used by OC1 (Murthy et al. 1994, §3).  The risk of a
    node ``t`` is ``R(t)``, the training weight it would misclassify as a leaf (its weight
    minus its largest class count, from ``tree.value``) divided by the root's weight; the
    risk of a subtree ``R(T_t)`` is the sum over its leaves.  Every internal node gets the
    strength of its link

        ``g(t) = (R(t) − R(T_t)) / (|leaves(T_t)| − 1)``

    and the node(s) with the smallest ``g`` -- every tie at once -- become leaves; repeating
    until only the root is left gives ``T_1 ⊃ T_2 ⊃ … ⊃ {root}`` with increasing
    ``α_1 = 0 < α_2 < …``, where ``T_k`` is the smallest subtree minimising
    ``R(T) + α |leaves(T)|`` for ``α_k <= α < α_{k+1}``.  ``T_1`` is the input tree without
    the splits that do not lower the training risk (the nodes with ``g(t) = 0``).

    Works for splits with any number of children; a child that no training row reached has
    risk 0.

    Parameters
    ----------
    tree : ObliqueTree

    Returns
    -------
    list of (float, ObliqueTree)
        ``(α_k, T_k)`` for every step, smallest ``α`` (largest tree) first; the last tree is
        the lone root.  Each ``T_k`` comes from ``tree.pruned``, or is ``tree`` itself when
        no node is collapsed (a first step that prunes nothing).
    """
    alphas, collapse_step = _weakest_links(tree)
    internal = np.flatnonzero(collapse_step >= 0)
    return [(float(alpha), _collapsed(tree, internal[collapse_step[internal] <= step]))
            for step, alpha in enumerate(alphas)]


def prune_with_holdout(tree, X, y, sample_weight=None, se_rule=0.0):
    """Choose a tree of the cost-complexity sequence by its error on held-out rows.

    OC1's pruning (Murthy et al. 1994, §3): every tree of :func:`cost_complexity_sequence`
    classifies the pruning rows; with ``e_min`` the smallest (weighted) error rate and
    ``SE = sqrt(e_min (1 − e_min) / N)`` its standard error (Breiman et al. 1984, §3.4.3,
    the k-SE rule) the smallest tree whose error is at most ``e_min + se_rule · SE`` wins.
    With ``se_rule = 0`` (the "0-SE" rule, OC1's default) that is the tree of least error,
    the smaller one on ties.  ``N`` is the number of pruning rows, or with weights Kish's
    effective number ``(Σw)² / Σw²``.

    Like the original OC1 program, a tree of at most two leaves is not pruned.

    Parameters
    ----------
    tree : ObliqueTree
        Grown on rows other than ``X``.
    X : array of shape (n_rows, n_features)
        Held-out rows, raw features.
    y : array of int, shape (n_rows,)
        Their class codes, ``0 .. n_classes − 1``.
    sample_weight : array of shape (n_rows,), optional
    se_rule : float, default 0
        ``k`` of the k-SE rule; larger values prefer smaller trees.

    Returns
    -------
    ObliqueTree
        The chosen tree; ``tree`` itself when it has at most two leaves, when there are no
        held-out rows (or they all weigh 0), or when the chosen tree is ``tree``.
    """
    if not isinstance(se_rule, numbers.Real) or not se_rule >= 0:
        raise ValueError(f"se_rule must be a non-negative number, got {se_rule!r}")
    X = np.asarray(X, dtype=float).reshape(-1, tree.n_features)
    y = np.asarray(y, dtype=np.intp).reshape(-1)
    if len(y) != len(X):
        raise ValueError("X and y must have the same number of rows")
    if np.any((y < 0) | (y >= tree.n_classes)):
        raise ValueError(f"class codes must lie in [0, {tree.n_classes})")
    weights = (np.ones(len(y)) if sample_weight is None
               else np.asarray(sample_weight, dtype=float).reshape(-1))
    if weights.shape != y.shape or np.any(weights < 0):
        raise ValueError("sample_weight needs one non-negative weight per row")
    total_weight = weights.sum()
    if tree.n_leaves <= 2 or total_weight <= 0:
        return tree

    alphas, collapse_step = _weakest_links(tree)
    n_steps = len(alphas)
    # Held-out weight of every class at every node of the full tree; a node predicts
    # argmax(proba), the same in every tree of the sequence that contains it.
    wrong = _held_out_errors(tree, X, y, weights)

    # A node is a leaf of T_k for first_leaf <= k < removed: from the step it is collapsed
    # (or from the start for an original leaf) until an ancestor is collapsed.
    first_leaf = np.maximum(collapse_step, 0)
    removed = np.full(tree.node_count, n_steps)
    for level in range(1, tree.depth + 1):
        nodes = np.flatnonzero(tree.node_depth == level)
        above = tree.parent[nodes]
        removed[nodes] = np.minimum(removed[above], first_leaf[above])
    is_ever_leaf = first_leaf < removed
    change = (np.bincount(first_leaf[is_ever_leaf], wrong[is_ever_leaf], n_steps + 1)
              - np.bincount(removed[is_ever_leaf], wrong[is_ever_leaf], n_steps + 1))
    # A running sum of fractional weights can end a hair below 0 where no held-out row is
    # misclassified (-1e-17): an error rate is in [0, 1], and a negative one would make
    # the standard error NaN and leave no tree to choose.
    error = np.clip(np.cumsum(change)[:n_steps] / total_weight, 0.0, 1.0)

    e_min = error.min()
    n_effective = total_weight ** 2 / (weights ** 2).sum()
    standard_error = np.sqrt(e_min * (1 - e_min) / n_effective)
    # The trees shrink along the sequence: the last acceptable one is the smallest.
    chosen = np.flatnonzero(error <= e_min + se_rule * standard_error + 1e-12)[-1]
    return _collapsed(tree, np.flatnonzero((collapse_step >= 0) & (collapse_step <= chosen)))


def _held_out_errors(tree, X, y, weights):
    """The held-out weight every node of ``tree`` misclassifies (the rows of ``X``
    passing through it whose class is not its prediction, argmax of its ``proba``; the
    same in every tree of the sequence that contains the node).  Dense counts: from the
    held-out weight of every class at every node; counts kept sparse (many classes,
    :func:`.class_counts.compact_class_counts`): from every row's path, memory O(rows ×
    depth + nodes) instead of nodes × classes."""
    predicted = predicted_classes(tree)
    if not sparse.issparse(tree.value):
        by_class = np.zeros((tree.node_count, tree.n_classes))
        np.add.at(by_class, (tree.apply(X), y), weights)
        by_class = _accumulate_up(tree, by_class)
        return by_class.sum(axis=1) - by_class[np.arange(tree.node_count), predicted]
    paths = tree.decision_path(X).tocsr()
    row_of = np.repeat(np.arange(len(y)), np.diff(paths.indptr))
    missed = (y[row_of] != predicted[paths.indices]) * weights[row_of]
    return np.bincount(paths.indices, missed, tree.node_count)


def holdout_split(y, portion=0.1, random_state=None):
    """Row indices to grow a tree on and rows held out to prune it (OC1: 10 %).

    ``round(portion · n)`` rows are held out, at least one and at most ``n − 1`` when
    ``portion > 0`` and ``n >= 2``.  When every class has at least two rows the split is
    stratified: each class contributes its share of the held-out rows (largest remainders
    first, ties in random order) and keeps at least one row for growing; otherwise the rows
    are drawn at random.

    Parameters
    ----------
    y : array of shape (n_rows,)
        Class labels (any values).
    portion : float in [0, 1), default 0.1
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator

    Returns
    -------
    grow_rows, prune_rows : ndarray of int
        Sorted, disjoint, together ``0 .. n − 1``; ``prune_rows`` is empty when
        ``portion == 0`` or ``n < 2``.
    """
    if not isinstance(portion, numbers.Real) or not 0 <= portion < 1:
        raise ValueError(f"portion must be in [0, 1), got {portion!r}")
    y = np.asarray(y).reshape(-1)
    n_rows = len(y)
    n_prune = 0
    if portion > 0 and n_rows >= 2:
        n_prune = min(max(int(np.floor(portion * n_rows + 0.5)), 1), n_rows - 1)
    if n_prune == 0:
        return np.arange(n_rows), np.array([], dtype=np.intp)
    rng = (random_state if isinstance(random_state, np.random.Generator)
           else check_random_state(random_state))
    _, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    if counts.min() >= 2:
        prune = stratified_sample(codes, n_prune, rng, keep_one_per_class=True,
                                  random_ties=True, shuffle_every_class=True)
    else:
        prune = rng.permutation(n_rows)[:n_prune]
    is_prune = np.zeros(n_rows, dtype=bool)
    is_prune[prune] = True
    return np.flatnonzero(~is_prune), np.flatnonzero(is_prune)


# ----- C4.5 error-based pruning -----

def c45_deviate(confidence):
    """The normal deviate ``z`` C4.5 uses for a confidence level ``CF``.

    C4.5 interpolates linearly in its table (:data:`C45_CONFIDENCES`,
    :data:`C45_DEVIATES`) rather than computing the normal quantile: for the default
    ``CF = 0.25``, ``z = 0.84 − 0.59 · 0.05 / 0.2 = 0.6925`` (the exact quantile is 0.6745).
    """
    if not isinstance(confidence, numbers.Real) or not 0 < confidence <= 1:
        raise ValueError(f"confidence must be in (0, 1], got {confidence!r}")
    return float(np.interp(confidence, C45_CONFIDENCES, C45_DEVIATES))


def added_errors(n, errors, confidence=0.25):
    """C4.5's ``AddErrs(N, E)``: the errors to add to ``E`` observed errors in ``N`` rows.

    Quinlan (1993), ch. 4: the predicted errors of a leaf are ``N · U_CF(E, N) = E +
    AddErrs(N, E)``, with ``U_CF`` the upper limit of the binomial confidence interval for
    the error rate at confidence ``CF``.  This reproduces C4.5's ``stats.c`` (in double
    precision), with ``z = c45_deviate(CF)``:

    * ``E < 1e-6``: the exact binomial limit, ``(1 − U)^N = CF``, so
      ``AddErrs = N (1 − CF^(1/N))``;
    * ``E < 0.9999``: linear interpolation between ``E = 0`` and ``E = 1``,
      ``AddErrs(N, 0) + E · (AddErrs(N, 1) − AddErrs(N, 0))``;
    * ``E + 0.5 >= N``: ``AddErrs = 0.67 (N − E)``;
    * otherwise the normal approximation with continuity correction,
      ``U = (E + 0.5 + z²/2 + z sqrt((E + 0.5)(1 − (E + 0.5)/N) + z²/4)) / (N + z²)`` and
      ``AddErrs = N U − E``.

    A node without rows (``N <= 0``) adds nothing, as C4.5 skips empty branches.

    Parameters
    ----------
    n, errors : float or array
        Training weight at the node and the weight it misclassifies; broadcast together.
    confidence : float in (0, 1], default 0.25

    Returns
    -------
    float or ndarray
    """
    coefficient = c45_deviate(confidence) ** 2
    n, errors = np.broadcast_arrays(np.asarray(n, dtype=float),
                                    np.asarray(errors, dtype=float))
    has_rows = n > 0
    safe_n = np.where(has_rows, n, 1.0)

    def above_one(e):
        near_all = e + 0.5 >= safe_n
        corrected = np.where(near_all, 0.5, e + 0.5)
        upper = (corrected + coefficient / 2 + np.sqrt(
            coefficient * (corrected * (1 - corrected / safe_n) + coefficient / 4))
        ) / (safe_n + coefficient)
        return np.where(near_all, 0.67 * (safe_n - e), safe_n * upper - e)

    none = safe_n * (1 - np.exp(np.log(confidence) / safe_n))
    added = np.where(errors < 1e-6, none,
                     np.where(errors < 0.9999, none + errors * (above_one(1.0) - none),
                              above_one(errors)))
    return np.where(has_rows, added, 0.0)[()]


def _added_errors_of_one(n, errors, confidence):
    """:func:`added_errors` of one node, ``n > 0`` (the same operations on Python floats,
    numpy's ``exp`` and ``log``: the same number, at a tenth of the array code's cost)."""
    coefficient = c45_deviate(confidence) ** 2
    none = n * (1 - np.exp(np.log(confidence) / n))

    def above_one(e):
        if e + 0.5 >= n:
            return 0.67 * (n - e)
        corrected = e + 0.5
        upper = (corrected + coefficient / 2 + np.sqrt(
            coefficient * (corrected * (1 - corrected / n) + coefficient / 4))
        ) / (n + coefficient)
        return n * upper - e

    if errors < 1e-6:
        return float(none)
    if errors < 0.9999:
        return float(none + errors * (above_one(1.0) - none))
    return float(above_one(errors))


def collapse(tree):
    """J48's collapse before pruning (WEKA's ``C45PruneableClassifierTree.collapse``):
    top down, an internal node whose subtree misclassifies at least as much training
    weight as the node would as a leaf, less 10⁻³, becomes a leaf (its subtree does not
    fit the training rows better).  Errors come from the class counts ``tree.value``: a
    node's are its weight less its majority class's, a subtree's the sum of its leaves'.

    Returns a new tree, or ``tree`` itself when nothing collapses."""
    errors = node_totals(tree.value) - node_largest(tree.value)
    subtree_errors = _accumulate_up(tree, np.where(tree.is_leaf, errors, 0.0))
    leaves, stack = [], [0]
    while stack:
        node = stack.pop()
        if tree.splits[node] is None:
            continue
        if subtree_errors[node] >= errors[node] - 1e-3:
            leaves.append(node)
        else:
            stack.extend(tree.children[node])
    return _collapsed(tree, sorted(leaves))


def error_based_prune(tree, confidence=0.25, subtree_raising=False, X=None, y=None,
                      sample_weight=None):
    """C4.5's pessimistic error-based pruning by subtree replacement (Quinlan 1993, ch. 4),
    and with ``subtree_raising`` also by subtree raising (:func:`_raise_subtrees`).

    Bottom up, every internal node ``t`` with ``N`` training weight and ``E`` of it
    misclassified as a leaf (from ``tree.value``) compares the predicted errors of a leaf,
    ``E + AddErrs(N, E)`` (:func:`added_errors`), with the predicted errors of its subtree,
    the sum over its children of their own estimates after their pruning; as in C4.5 the
    subtree is replaced by a leaf when the leaf's estimate is at most the subtree's plus
    0.1.  Children that no training row reached count 0.  Without subtree raising the
    result is a fixed point: pruning it again changes nothing.

    Parameters
    ----------
    tree : ObliqueTree
    confidence : float in (0, 1], default 0.25
        C4.5's ``CF``; smaller values prune more.
    subtree_raising : bool, default False
        Also consider replacing a node by its largest branch (C4.5's and J48's default;
        :func:`_raise_subtrees`).  Needs the training rows ``X``, ``y`` (class codes) and
        ``sample_weight``: raising sends all of a node's rows down the raised branch.
    X, y, sample_weight : arrays, only with ``subtree_raising``
        The rows ``tree`` was grown on.

    Returns
    -------
    ObliqueTree
        A new tree, or ``tree`` itself when nothing is pruned.
    """
    if subtree_raising:
        if X is None or y is None:
            raise ValueError("subtree raising needs the training rows X and y")
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight,
                                                                           dtype=float)
        return _raise_subtrees(tree, confidence, np.asarray(X, dtype=float),
                               np.asarray(y, dtype=np.intp), weights)
    totals = node_totals(tree.value)
    errors = totals - node_largest(tree.value)
    leaf_estimate = errors + added_errors(totals, errors, confidence)
    estimate = leaf_estimate.copy()
    from_children = np.zeros(tree.node_count)
    internal = ~tree.is_leaf
    replace = np.zeros(tree.node_count, dtype=bool)
    for level in range(tree.depth, -1, -1):
        nodes = np.flatnonzero(tree.node_depth == level)
        deciding = nodes[internal[nodes]]
        replace[deciding] = leaf_estimate[deciding] <= from_children[deciding] + 0.1
        estimate[deciding] = np.where(replace[deciding], leaf_estimate[deciding],
                                      from_children[deciding])
        if level:
            np.add.at(from_children, tree.parent[nodes], estimate[nodes])
    return _collapsed(tree, np.flatnonzero(replace))


def _raise_subtrees(tree, confidence, X, y, weights):
    """C4.5's error-based pruning with subtree raising, as WEKA's J48 does it
    (``C45PruneableClassifierTree.prune``; Quinlan 1993, ch. 4).

    Bottom up, after its children are pruned, a node compares three predicted errors
    (``E + AddErrs(N, E)`` summed over leaves, :func:`added_errors`): the subtree's (from
    its leaves' current rows), a leaf's (the node's rows), and its *largest branch's*
    (the child with most training weight, first on ties) when **all** the node's rows are
    sent down that branch's subtree, every leaf relabelled to the majority of the rows it
    then receives.  The node becomes a leaf if the leaf's estimate is at most both others
    plus 0.1; otherwise, if the largest branch's estimate is at most the subtree's plus
    0.1, the branch replaces the node (its subtree is *raised*: the rows of the other
    branches are redistributed in it) and the node is pruned again.  The returned tree
    holds the class counts of ``X, y`` routed through it.
    """
    splits = list(tree.splits)
    children = [list(c) for c in tree.children]
    n_classes = tree.n_classes
    leaf_counts = {}  # class counts of the rows at every current leaf

    def estimate(counts):
        total = counts.sum()
        if total <= 0:
            return 0.0
        errors = total - counts.max()
        return float(errors + _added_errors_of_one(float(total), float(errors), confidence))

    def routed(node, rows, row_weights):
        """``(rows, weights)`` of every child: a row with a missing value goes down
        every branch by weight where the split says so (C4.5's fractional rows)."""
        parts, _ = splits[node].route_by_weight(X[rows], rows, row_weights)
        return parts

    def added_rows(node, rows, row_weights):
        """How much the predicted errors of the subtree at ``node`` grow when ``rows``
        (of weights ``row_weights``) are sent down it besides its own rows (only the
        leaves they reach change)."""
        if not len(rows):
            return 0.0
        if splits[node] is None:
            own = leaf_counts[node]
            extra = np.bincount(y[rows], row_weights, n_classes)
            return estimate(own + extra) - estimate(own)
        # a loop, not sum() over a generator: the recursion stays in Python frames (no C
        # stack per level), adding the children's amounts in the same order
        total = 0
        for child, (child_rows, child_weights) in zip(children[node],
                                                      routed(node, rows, row_weights)):
            total += added_rows(child, child_rows, child_weights)
        return total

    def prune(node, rows, row_weights):
        """Prune the subtree at ``node`` holding ``rows`` of weights ``row_weights``;
        its predicted errors."""
        while True:
            if splits[node] is None:
                leaf_counts[node] = np.bincount(y[rows], row_weights, n_classes)
                return estimate(leaf_counts[node])
            parts = routed(node, rows, row_weights)
            branch_estimates = [prune(child, child_rows, child_weights)
                                for child, (child_rows, child_weights)
                                in zip(children[node], parts)]
            as_tree = sum(branch_estimates)
            as_leaf = estimate(np.bincount(y[rows], row_weights, n_classes))
            largest = int(np.argmax([w.sum() for _, w in parts]))
            others = [part for p, part in enumerate(parts) if p != largest]
            others_rows = np.concatenate([r for r, _ in others])
            others_weights = np.concatenate([w for _, w in others])
            raised = branch_estimates[largest] + added_rows(children[node][largest],
                                                            others_rows, others_weights)
            if as_leaf <= as_tree + 0.1 and as_leaf <= raised + 0.1:
                splits[node], children[node] = None, []
            elif raised <= as_tree + 0.1:
                branch = children[node][largest]
                # the branch replaces the node and is pruned again with all its rows
                splits[node], children[node] = splits[branch], children[branch]
            else:
                return as_tree

    # prune() and added_rows() recurse once per level of the tree: a few Python frames
    # per level, whatever the depth (a chain of thousands of levels included)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * tree.depth + 1000))
    try:
        prune(0, np.arange(len(y)), weights)
    finally:
        sys.setrecursionlimit(limit)
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(children[node]))
    new_id = {old: new for new, old in enumerate(order)}
    parent = np.full(len(order), -1, dtype=np.intp)
    for old in order:
        for child in children[old]:
            parent[new_id[child]] = new_id[old]
    pruned = ObliqueTree(tree.n_features, n_classes, [splits[old] for old in order],
                         [[new_id[c] for c in children[old]] for old in order], parent,
                         np.zeros((len(order), n_classes)), np.zeros(len(order)))
    return pruned.recounted(X, y, weights)
