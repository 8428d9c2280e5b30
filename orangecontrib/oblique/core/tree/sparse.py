"""Sparse splits: at most ``max_terms`` attributes in any split, so that a split can be read.

Backward elimination of variables, as in CART's linear-combination splits (Breiman et al.
1984, §5.2): starting from the split an algorithm proposes, remove the attributes whose
removal raises the split's impurity least -- in rounds, see below -- until at most
``max_terms`` attributes are left.  The comparison is made in the node's standardised
units, so that an attribute's scale does not decide.  After every round

* a binary hyperplane gets the best threshold for its remaining weights (the threshold is
  re-optimised; the other weights keep their values);
* a multiway split (one branch per class, per cluster) holds the removed attribute at its
  mean over the node's rows (its term moves into the biases) and is scored by the weighted
  Gini index of the branches it makes.

GDT and OC1 then search their own split again on the chosen attributes alone (GDT's
clustering hyperplanes, OC1's perturbation search) and keep the better of the two
(:func:`limit_terms`).  ODT-SVM searches its split again after *every* removal (``refit``
of :func:`eliminate_terms`): the linear SVM is retrained on the attributes left and the
next removal is judged on the retrained hyperplanes, as SVM-RFE retrains its SVM after
every eliminated feature (Guyon et al. 2002, recursive feature elimination).  The SVM
spreads its weight over correlated attributes; once some of them are gone, the weights
of the rest no longer fit, and an elimination judged on the dense SVM's weights alone
keeps a poor set.  The attribute removed is still the one whose removal raises the
impurity least (CART's criterion, not SVM-RFE's smallest squared weight, which ignores
the split's impurity); the SVM split kept is the last refit, with the SVM's own bias.
A node then trains its SVM (all its pairwise SVMs) once more per round.  The SVMs that only
rank the next removals (``kept`` False) are solved to liblinear's own default tolerance
(0.1; Fan et al. 2008), the split kept to LinearSVC's (10⁻⁴), and every refit starts from
the dual variables of the node's previous SVM (a warm start, :class:`.linear_svm.DualStart`;
the attributes removed are the least useful, so the previous solution is near): so
a breast cancer fit at ``max_terms=3`` makes 6,000 passes over its nodes' rows instead of
101,000.  (The warm start alone, to LinearSVC's tolerance, saved only 4 %.)

Each round scores the removal of every remaining attribute (for a binary hyperplane: the
best threshold of the hyperplane without the attribute's term, found by OC1's compiled line
search, :func:`line_search.best_step`, along −1, where every row changes side at its value)
and removes the least harmful sixth of them, at least one
(:func:`removals_per_round`): from 12 attributes down the removals are one by one, as
CART's, and above that a few at a time, as Guyon et al. (2002) remove chunks of features
per SVM-RFE iteration for speed.  A node of ``d`` attributes costs about
``6·ln(d/12) + 12 − max_terms`` rounds (ODT-SVM: as many SVM fits) instead of
``d − max_terms`` (from 79 attributes to 3 in 20 rounds, not 76).  Halving the
attributes a round was tried and rejected: on breast cancer it kept pairs and triples of
lower information gain (the test ``test_two_attribute_svm_split_is_close_to_the_best_pair``).
``max_terms = None`` keeps every paper's dense split.
"""

import numpy as np

from . import line_search
from .impurity import best_threshold, class_indicators, impurity, node_constants
from ..preprocessing import Standardisation

__all__ = ["effective_max_terms", "eliminate_terms", "removal_scores", "sparse_split",
           "limit_terms", "expand_split", "split_impurity", "removals_per_round"]


def effective_max_terms(max_terms, n_features):
    """``max_terms`` as a limit on splits over ``n_features`` attributes: None (no limit)
    when it is None or at least ``n_features``."""
    if max_terms is None or max_terms >= n_features:
        return None
    return int(max_terms)


def _partition_gini(position, y, sample_weight, n_branches, n_classes):
    """The weighted Gini index of the branches ``position`` (n_rows,) of the rows."""
    return float(_partition_ginis(position[None], y, sample_weight, n_branches,
                                  n_classes)[0])


def _partition_ginis(positions, y, sample_weight, n_branches, n_classes):
    """:func:`_partition_gini` of every row of ``positions`` (a, n_rows)."""
    cells = n_branches * n_classes
    index = (positions * n_classes + y) + cells * np.arange(len(positions))[:, None]
    counts = np.bincount(index.ravel(), np.tile(sample_weight, len(positions)),
                         cells * len(positions)).reshape(len(positions), n_branches, n_classes)
    sizes = counts.sum(axis=2)
    return ((sizes - (counts ** 2).sum(axis=2) / np.maximum(sizes, 1e-300)).sum(axis=1)
            / np.maximum(sizes.sum(axis=1), 1e-300))


def removals_per_round(n_active, max_terms):
    """How many of ``n_active`` attributes a round of :func:`eliminate_terms` removes: a
    sixth of them, at least one (one by one below 12), never below ``max_terms``."""
    return max(1, min(n_active - max_terms, n_active // 6))


def removal_scores(values, Z, weights, indicators, measure, constants=None):
    """The impurity, by ``measure``, of the best threshold of ``values − Z[:, j]·weights[j]``
    for every column ``j`` of ``Z``: a hyperplane's values without each of its terms.  The
    best threshold ``θ`` of ``v ≥ θ`` is the best step ``t`` of OC1's line search
    (:func:`line_search.best_step`) from ``v`` along ``−1`` (``v − t ≥ 0``): the same
    candidates, the midpoints between consecutive distinct values; inf when none is left.
    ``constants``: :func:`impurity.node_constants` of the indicators' row sums, when the
    caller has them."""
    total = indicators.sum(axis=1)
    if constants is None:
        constants = node_constants(total)
    code = line_search.MEASURE_CODES[measure]
    without = np.ascontiguousarray((values[:, None] - Z * weights).T)
    backwards = -np.ones(len(values))
    indicators = np.ascontiguousarray(indicators, dtype=float)
    return np.array([line_search.best_step(column, backwards, indicators, total, code,
                                           *constants)[0] for column in without])


def eliminate_terms(Z, weights, bias, y, sample_weight, n_classes, max_terms,
                    measure="gini", route=None, refit=None):
    """Backward elimination in standardised units (see the module docstring).

    Parameters
    ----------
    Z : ndarray (n_rows, u), the node's rows over the split's attributes, standardised
    weights : ndarray (m, u), bias : ndarray (m,)
        The split's affine map over ``Z``.
    route : callable(values (n_rows, m)) -> positions, or None
        None for a binary hyperplane (right where ``values >= 0``), whose threshold is
        re-optimised by ``measure``; else the routing of a multiway split, scored by the
        weighted Gini index.
    refit : callable(columns, kept) -> (weights (m, u), bias (m,)), or None
        The algorithm's own split searched again on the columns ``columns`` of ``Z`` alone
        (weight 0 on the others).  Given, it is called after every removal and the
        elimination goes on from the split it returns (recursive feature elimination,
        Guyon et al. 2002); the result is its split on the last attributes left, with its
        own bias.  ``kept`` is True for that last split (at most ``max_terms``
        attributes), False for a split that only ranks the next removals (an algorithm
        may search those less exactly; the split given as ``weights, bias`` is taken for
        one of them).

    Returns
    -------
    (weights, bias) with at most ``max_terms`` non-zero columns, or None when no threshold
    separates the node's rows any more (without ``refit``) or the refitted split has no
    attribute left (with it).
    """
    weights = np.array(weights, dtype=float)
    bias = np.array(bias, dtype=float)
    active = np.flatnonzero(np.any(weights != 0, axis=0))
    if active.size <= max_terms:
        if refit is None or active.size == 0:
            return (weights, bias) if refit is None else None
        kept = False        # the split given only ranks: the split kept is searched below
    indicators = class_indicators(y, sample_weight, n_classes)
    constants = node_constants(indicators.sum(axis=1))
    mean = np.average(Z, axis=0, weights=sample_weight)
    while active.size > max_terms:
        if route is None:
            columns, terms = Z[:, active], weights[0, active]
            scores = removal_scores(columns @ terms, columns, terms, indicators, measure,
                                    constants)
        else:
            # every attribute j held at its mean (its term moves into the biases), all
            # at once: values (a, n_rows, m), routed as one (a · n_rows, m)
            values = (Z @ weights.T + bias)[None] - (
                (Z[:, active] - mean[active]).T[:, :, None] * weights[:, active].T[:, None, :])
            position = route(values.reshape(-1, weights.shape[0])).reshape(active.size, -1)
            scores = _partition_ginis(position, y, sample_weight, weights.shape[0],
                                      n_classes)
        # the least harmful removals; among equals (e.g. all infinite) the smallest weight
        magnitude = np.abs(weights[:, active]).max(axis=0)
        drop = np.lexsort((magnitude, scores))[:removals_per_round(active.size, max_terms)]
        removed = active[drop]
        remaining = np.ones(active.size, dtype=bool)
        remaining[drop] = False
        active = active[remaining]
        if refit is None:
            bias = bias + weights[:, removed] @ mean[removed]
            weights[:, removed] = 0.0
            continue
        kept = active.size <= max_terms
        weights, bias = (np.array(part, dtype=float) for part in refit(active, kept))
        active = active[np.any(weights[:, active] != 0, axis=0)]
        if active.size == 0:
            return None
    if refit is not None:
        if not kept:        # the last split only ranks (it has lost attributes): again
            weights, bias = (np.array(part, dtype=float) for part in refit(active, True))
            if not np.any(weights[:, active] != 0):
                return None
        return weights, bias
    if route is None:
        _, threshold = best_threshold(Z[:, active] @ weights[0, active], indicators, measure)
        if not np.isfinite(threshold):
            return None
        bias = np.array([-threshold])
    return weights, bias


def sparse_split(split, X, y, sample_weight, n_classes, max_terms, measure="gini"):
    """``split`` with at most ``max_terms`` attributes, found by :func:`eliminate_terms`
    on the node's rows ``X`` (raw units; the result is in raw units too); ``split`` itself
    if it has no more, or has no geometry (a nominal test).  None if no threshold is
    left that separates the rows."""
    used = split.features_used
    if max_terms is None or used.size <= max_terms or not split.has_geometry:
        return split
    standardisation = Standardisation.from_rows(X[:, used], sample_weight)
    Z = standardisation.transform(X[:, used])
    weights = split.weights[:, used] * standardisation.scale
    bias = split.bias + split.weights[:, used] @ standardisation.mean
    route = split.value_router()
    found = eliminate_terms(Z, weights, bias, y, sample_weight, n_classes, max_terms,
                            measure, route)
    if found is None:
        return None
    raw_used = standardisation.raw_weights(found[0])
    raw = np.zeros_like(split.weights)
    raw[:, used] = raw_used
    return split.copy(weights=raw, bias=standardisation.raw_bias(raw_used, found[1]),
                      digits=None)


def expand_split(split, features, n_features):
    """``split`` over the columns ``features`` as a split over all ``n_features`` (weight 0
    on the others)."""
    weights = np.zeros((split.weights.shape[0], n_features))
    weights[:, features] = split.weights
    return split.copy(weights=weights)


def split_impurity(split, X, y, sample_weight, n_classes, measure="gini"):
    """Impurity of ``split`` on the rows ``X``: ``measure`` for a binary split, the
    weighted Gini index of its branches for a multiway one."""
    position = split.route(X)
    if split.n_children == 2:
        indicators = class_indicators(y, sample_weight, n_classes)
        left = indicators[:, position == 0].sum(axis=1)
        return float(impurity(left[None, :], indicators.sum(axis=1), measure)[0])
    return _partition_gini(position, y, sample_weight, split.n_children, n_classes)


def limit_terms(propose_split, X, y, sample_weight, n_classes, max_terms, measure="gini",
                refit=None):
    """A ``propose_split(rows, counts, depth)`` for :func:`grow_tree` whose splits have at
    most ``max_terms`` attributes (``propose_split`` itself for None).

    The attributes are chosen by :func:`sparse_split`.  With ``refit(rows, counts, depth,
    features)`` -- the algorithm's own split search restricted to ``features`` -- the
    algorithm then finds its split again on the chosen attributes alone, and the better
    of the two (lower impurity on the node's rows) is kept."""
    if max_terms is None:
        return propose_split

    def propose_sparse_split(rows, counts, depth):
        split = propose_split(rows, counts, depth)
        if split is None or split.features_used.size <= max_terms:
            return split
        node = X[rows], y[rows], sample_weight[rows]
        sparse = sparse_split(split, *node, n_classes, max_terms, measure)
        if refit is None or sparse is None:
            return sparse
        again = refit(rows, counts, depth, features=sparse.features_used)
        if again is None or again.features_used.size > max_terms:
            return sparse
        scores = [split_impurity(candidate, *node, n_classes, measure)
                  for candidate in (sparse, again)]
        return again if scores[1] < scores[0] else sparse

    return propose_sparse_split
