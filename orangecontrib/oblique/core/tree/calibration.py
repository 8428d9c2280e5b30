"""Calibration of a fitted tree's printed rules, and the feature scales of its splits.

After growing, every split's rule text is made exact for the training rows that reach
it (:func:`calibrate_text`): terms that are rounding noise are dropped and the split gets
the fewest digits with which its printed rule routes those rows as the split does.  The
same pass may keep the scales of the features at every split
(:func:`store_feature_scales`, for :func:`~.importances.feature_importances`).  A tree
whose every split's kind gives a row to the compiled pass
(:meth:`~.splits.SplitKind.calibration_row`) is calibrated in one call of
:func:`~.kernels.calibration_pass`; other trees by the splits' own methods.
"""
import numpy as np

from . import kernels
from .rules import DIGITS, MAX_DIGITS
from .splits import NEGLIGIBLE


def calibrate_text(tree, X):
    """Make every split's rule text exact for the rows of ``X`` (the training rows)
    that reach it: terms that are rounding noise on those rows are dropped
    (:meth:`Split.drop_negligible_terms`, never changing where a row goes) and the
    split gets the digits with which its printed rule routes the rows exactly as the
    split does (:meth:`Split.calibrate_digits`), so that rule text never disagrees
    with the model on the data it was fitted to.  Returns ``tree``.

    A tree of hyperplanes on finite rows takes one call of
    :func:`~.kernels.calibration_pass` (:func:`hyperplane_pass`); other trees
    the splits' own methods, node by node."""
    if not hyperplane_pass(tree, X, None, calibrate=True):
        for _ in calibrated_nodes(tree, X):
            pass
    return tree


def calibrate_text_and_scales(tree, X, sample_weight):
    """:func:`calibrate_text` on the rows of ``X``, then :func:`store_feature_scales`
    of the same rows and weights, in one pass of the rows through the tree (a split's
    scales are taken after its negligible terms are dropped).  Returns ``tree``."""
    X = np.asarray(X, dtype=float)
    sample_weight = np.asarray(sample_weight, dtype=float)
    if hyperplane_pass(tree, X, sample_weight, calibrate=True):
        return tree
    scales = np.zeros((tree.node_count, tree.n_features))
    for node, rows, block, split in calibrated_nodes(tree, X):
        row_weights = sample_weight[rows]
        if row_weights.sum() > 0:
            used = split.features_used
            if used.size < X.shape[1]:  # else the node's rows as they are
                block = block[:, used]
            scales[node, used] = weighted_deviation(block, row_weights)
    tree.feature_scales = scales
    return tree


def calibrated_nodes(tree, X):
    """:func:`calibrate_text`'s pass for any tree: calibrates every split and yields
    ``(node, rows, X[rows], split)`` for it, ``rows`` the ascending indices of the
    rows reaching it (the caller may overwrite ``X[rows]``)."""
    X = np.asarray(X, dtype=float)
    stack = [(0, np.arange(X.shape[0]))]
    while stack:
        node, rows = stack.pop()
        split = tree.splits[node]
        if split is None:
            continue
        block = X[rows]
        position = split.route_with_missing(block)
        by_weight = rows[:0]
        if position.min(initial=0) < 0:
            # the split is calibrated on the rows of known values in its features;
            # the others stop here or go down every branch (missing_shares)
            known = position >= 0
            by_weight = split.rows_divided(rows, known)
            rows, block, position = rows[known], block[known], position[known]
            block[~np.isfinite(block)] = 0.0  # in features the split does not use
        split.drop_negligible_terms(block, position=position)
        split.calibrate_digits(block, position=position)
        yield node, rows, block, split
        for child_position, child in enumerate(tree.children[node]):
            if by_weight.size:
                stack.append((child, np.union1d(rows[position == child_position],
                                                by_weight)))
                continue
            stack.append((child, rows[position == child_position]))


def hyperplane_pass(tree, X, sample_weight, calibrate):
    """:func:`calibrate_text` (``calibrate``) and, with ``sample_weight``, the feature
    scales kept in :attr:`feature_scales`, of a tree whose every split is a
    hyperplane, on finite rows, in one call of :func:`~.kernels.calibration_pass`;
    False, with nothing done, for any other tree or rows, or when a row reaches a
    split that :attr:`~.splits.Split.reads_printed` so near its boundary that only
    exact arithmetic can tell its side (then the splits' own methods run).  Every
    split takes its printed numbers (:meth:`Split.calibrate_digits`); one whose digits
    the kernel leaves undecided (a rounding its arithmetic cannot show to be the
    text's, or a row near the printed boundary) gets them from
    :meth:`Split.calibrate_digits`, the search continued from there."""
    splits = tree.splits
    internal = [node for node, split in enumerate(splits) if split is not None]
    planes = [splits[node].kind.calibration_row(splits[node]) for node in internal]
    if not internal or any(plane is None for plane in planes):
        return False
    X = np.ascontiguousarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != tree.n_features or not np.isfinite(X).all():
        return False
    node_count = tree.node_count
    weights = np.zeros((node_count, tree.n_features))
    weights[internal] = [w for w, _ in planes]
    bias = np.zeros(node_count)
    bias[internal] = [b for _, b in planes]
    if not (np.isfinite(weights).all() and np.isfinite(bias).all()):
        return False
    with_scales = sample_weight is not None
    sample_weight = (np.ascontiguousarray(sample_weight, dtype=float) if with_scales
                     else np.zeros(0))
    children = np.full((node_count, 2), -1, dtype=np.int64)
    children[internal] = [tree.children[node] for node in internal]
    printed_rule = np.zeros(node_count, dtype=bool)
    printed_rule[internal] = [splits[node].reads_printed for node in internal]
    (new_weights, dropped, digits, resume, scales, order, start, end, new_bias,
     complete) = kernels.calibration_pass(
        X, sample_weight, calibrate, with_scales, weights, bias, printed_rule,
        children[:, 0].copy(), children[:, 1].copy(), NEGLIGIBLE, DIGITS, MAX_DIGITS)
    if not complete:  # a row that only the exact reading of a printed rule can route
        return False
    if calibrate:
        for node in internal:
            split = splits[node]
            split.weights = new_weights[node:node + 1].copy()
            if resume[node]:  # the search continued by the split, as grown
                split.calibrate_digits(X[order[start[node]:end[node]]],
                                       minimum=int(resume[node]))
            else:  # its printed numbers
                split.bias = new_bias[node:node + 1].copy()
                split.digits = int(digits[node])
    if with_scales:
        tree.feature_scales = scales
    return True


def store_feature_scales(tree, X, sample_weight=None):
    """Keep in :attr:`feature_scales` the (weighted) standard deviation of every
    feature a split uses over the rows of ``X`` (the training rows) that reach the
    split's node, for :func:`~.importances.feature_importances`.  Leaves and unused features get 0;
    the array has shape (node_count, n_features).  One pass over the rows, as
    :meth:`ObliqueTree.route` (one kernel call for a tree of hyperplanes, as
    :func:`calibrate_text`).  Returns ``tree``."""
    X = np.asarray(X, dtype=float)
    weights = (np.ones(X.shape[0]) if sample_weight is None
               else np.asarray(sample_weight, dtype=float))
    if hyperplane_pass(tree, X, weights, calibrate=False):
        return tree
    scales = np.zeros((tree.node_count, tree.n_features))
    for node, rows in tree._walk(X):
        split = tree.splits[node]
        if split is None or rows.size == 0 or weights[rows].sum() <= 0:
            continue
        used = split.features_used
        scales[node, used] = weighted_deviation(X[np.ix_(rows, used)], weights[rows])
    tree.feature_scales = scales
    return tree


def weighted_deviation(block, row_weights):
    """The weighted standard deviation of every column of ``block`` (overwritten), rows
    weighted by ``row_weights`` (of positive sum), for
    :meth:`ObliqueTree.store_feature_scales`."""
    # np.average's arithmetic, without its per-call checks (a node costs ~µs)
    total = row_weights.sum()
    mean = (row_weights @ block) / total
    block -= mean
    np.square(block, out=block)
    return np.sqrt((row_weights @ block) / total)
