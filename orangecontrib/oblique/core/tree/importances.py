"""What a fitted tree's splits use: the importance of every feature and how oblique the
splits are."""
from typing import NamedTuple

import numpy as np
from scipy import sparse


def feature_importances(tree, scale=None):
    """Mean-decrease-in-impurity importance of every feature, summing to 1.

    Each internal node ``t`` contributes its weighted Gini decrease
    ``N_t·gini(t) − Σ_c N_c·gini(c)`` over the children ``c`` (``N``: the sum of the
    node's class counts :attr:`value`; ``gini = 1 − Σ_k p_k²``), as scikit-learn's
    ``feature_importances_``.  A node shares it among the features its split uses in
    proportion to ``|w_j| · s_j``: ``|w_j|`` the largest absolute weight of feature
    ``j`` over the rows of the split's map (one row for a hyperplane, several for an
    argmax or nearest-centre split), ``s_j`` the feature's scale at the node, so that
    the share does not depend on the units of the features.  A split on one feature
    gives it the whole decrease, whatever the scale: on a tree of axis-parallel
    splits this is scikit-learn's importance.  If every ``|w_j| · s_j`` of a split
    is 0 (its features are constant at the node), its features share equally.

    Parameters
    ----------
    scale : None, array of shape (n_features,) or (node_count, n_features), or a sparse
        matrix of that shape
        ``s_j`` for every node, or per node.  ``None``: the per-node standard
        deviations kept by :meth:`ObliqueTree.store_feature_scales` (the estimators keep them at
        fit time), or 1 for every feature on a tree without them (a tree pickled
        before they were kept, or built by hand): then the shares follow ``|w_j|``
        in the features' own units.

    Returns
    -------
    ndarray of shape (n_features,)
        Non-negative, summing to 1; all zeros for a tree that is a single leaf (as
        scikit-learn).  If no split decreases the Gini impurity (children with
        their parent's class distribution), every split counts equally instead.
    """
    if scale is None:
        scale = getattr(tree, "feature_scales", None)
    if sparse.issparse(scale):  # a forest's trees keep them so (0 where not stored)
        scale = sparse.csr_matrix(scale)
    else:
        scale = np.broadcast_to(np.ones(tree.n_features) if scale is None
                                else np.asarray(scale, float),
                                (tree.node_count, tree.n_features))
    if sparse.issparse(tree.value):  # compact_class_counts
        totals = np.asarray(tree.value.sum(axis=1)).ravel()
        squares = np.asarray(tree.proba.multiply(tree.proba).sum(axis=1)).ravel()
    else:
        totals = tree.value.sum(axis=1)
        squares = np.sum(tree.proba ** 2, axis=1)
    impurity = totals * (1.0 - squares)
    shares = np.zeros((tree.node_count, tree.n_features))
    decrease = np.zeros(tree.node_count)
    for node, split in enumerate(tree.splits):
        if split is None:
            continue
        kids = list(tree.children[node])
        decrease[node] = max(0.0, impurity[node] - impurity[kids].sum())
        used = split.features_used
        share = np.abs(split.weights[:, used]).max(axis=0) * np.abs(_node_scales(
            scale, node, used))
        shares[node, used] = share / share.sum() if share.sum() > 0 else 1.0 / used.size
    if decrease.sum() <= 0:  # no split, or none that separates the classes at all
        decrease = np.array([split is not None for split in tree.splits], dtype=float)
    importances = decrease @ shares
    total = importances.sum()
    return importances / total if total > 0 else importances


def _node_scales(scale, node, used):
    """The scales ``s_j`` of the features ``used`` at ``node``, of a dense or CSR
    ``scale``."""
    if not sparse.issparse(scale):
        return scale[node, used]
    start, end = scale.indptr[node], scale.indptr[node + 1]
    row = np.zeros(scale.shape[1])
    row[scale.indices[start:end]] = scale.data[start:end]
    return row[used]


def split_statistics(tree):
    """How oblique the tree is: a :class:`SplitStatistics` over its internal nodes
    (a split is oblique when it weighs two or more features, :attr:`Split.is_oblique`;
    its attributes are the features of non-zero weight, :attr:`Split.features_used`)."""
    splits = [split for split in tree.splits if split is not None]
    return SplitStatistics(len(splits), sum(bool(s.is_oblique) for s in splits),
                           sum(int(s.features_used.size) for s in splits))


class SplitStatistics(NamedTuple):
    """How oblique a tree (or an ensemble of trees) is: ``n_splits``, the number of
    internal nodes; ``n_oblique_splits``, how many of their splits weigh two or more
    attributes together; ``n_attribute_uses``, the attributes with a non-zero weight
    summed over the splits.  Adding two gives the statistics of both trees together."""
    n_splits: int
    n_oblique_splits: int
    n_attribute_uses: int

    @property
    def mean_attributes_per_split(self):
        """Mean number of attributes a split uses; NaN without splits."""
        return self.n_attribute_uses / self.n_splits if self.n_splits else float("nan")

    def __add__(self, other):
        """The statistics of both trees together (e.g. summed over an ensemble)."""
        return SplitStatistics(*(a + b for a, b in zip(self, other)))
