"""Class counts of trees of many classes, kept sparse (a forest of thousands of classes
fits in memory so); every reader of a tree's counts reads either form."""
import copy

import numpy as np
from scipy import sparse

#: Trees of at least this many classes may keep their class counts sparse
#: (:func:`compact_class_counts`); trees of fewer never do.
MANY_CLASSES = 100
#: Nodes whose class counts :func:`compact_grown_counts` makes dense at once
#: to add them up.
TOTALS_BLOCK = 256


def compact_class_counts(tree):
    """Keep :attr:`value` and :attr:`proba` (and ``grow_value``) as scipy CSR
    matrices when the tree has at least :data:`MANY_CLASSES` classes and they take
    less than a quarter of their dense size so.  A node that no
    training row reached predicts its parent's distribution: its row of ``proba`` is
    left empty and ``proba_source`` names the ancestor whose row it is (a one-vs-rest
    split of 2,000 classes has hundreds of such children).  A forest tree of 8,400
    nodes and 2,000 classes (6,000 rows), whose nodes hold few classes each, then
    keeps 5 MB instead of 270 MB, and a forest of 100 such trees fits in memory.  An
    ensemble asks this of every member tree as soon as it is grown; trees of fewer
    classes are left as they are.  Prediction (:meth:`ObliqueTree.node_proba`), importances and
    text read either form; :func:`with_dense_class_counts` gives a tree in the dense
    form for the views.  Returns ``tree``."""
    if tree.n_classes < MANY_CLASSES or sparse.issparse(tree.value):
        return tree
    # a node without training rows whose distribution is its parent's: read there
    source = np.arange(tree.node_count)
    inherits = np.zeros(tree.node_count, dtype=bool)
    for node in np.flatnonzero(tree.value.sum(axis=1) <= 0):
        parent = tree.parent[node]
        if parent >= 0 and np.array_equal(tree.proba[node], tree.proba[parent]):
            source[node], inherits[node] = source[parent], True
    proba = tree.proba
    if inherits.any():
        proba = proba.copy()
        proba[inherits] = 0.0
    dense_cells = tree.value.size + proba.size
    stored = np.count_nonzero(tree.value) + np.count_nonzero(proba)
    if 6 * stored >= dense_cells:  # a CSR cell, value and index: 12 bytes against 8
        return tree
    tree.value, tree.proba = sparse.csr_matrix(tree.value), sparse.csr_matrix(proba)
    tree.proba_source = source if inherits.any() else None
    if getattr(tree, "grow_value", None) is not None:
        tree.grow_value = sparse.csr_matrix(tree.grow_value)
    return tree


def compact_grown_counts(tree, value):
    """Set :attr:`value`, :attr:`proba` and ``proba_source`` from class counts grown
    sparse (a CSR matrix of the classes present at each node), as
    :func:`compact_class_counts` would leave the tree's dense counts, without making
    them dense: every node's distribution its counts over their total, a node that no
    training row reached reading its parent's.  False (nothing set) where that method
    would keep them dense: a tree of few classes, a root without rows, or counts that
    take no less room sparse."""
    value = sparse.csr_matrix(value, dtype=float)
    node_count = value.shape[0]
    # every node's total added as over its dense row (the same rounding), a block of
    # nodes at a time
    totals = np.concatenate([
        value[start:start + TOTALS_BLOCK].toarray().sum(axis=1)
        for start in range(0, node_count, TOTALS_BLOCK)] or [np.zeros(0)])
    dense_cells = 2 * value.shape[0] * value.shape[1]
    if (tree.n_classes < MANY_CLASSES or node_count == 0 or totals[0] <= 0
            or 6 * 2 * value.nnz >= dense_cells):
        return False
    source = np.arange(node_count)
    empty = np.flatnonzero(totals <= 0)
    for node in empty:  # parents precede children
        source[node] = source[tree.parent[node]]
    proba = value.copy()
    proba.data = proba.data / np.repeat(totals, np.diff(proba.indptr))
    tree.value, tree.proba = value, proba
    tree.proba_source = source if empty.size else None
    return True


def with_dense_class_counts(tree):
    """``tree`` if its class counts are dense arrays, else a shallow copy whose
    :attr:`value`, :attr:`proba` (and ``grow_value``) are (see
    :func:`compact_class_counts`)."""
    if not sparse.issparse(tree.value):
        return tree
    tree = copy.copy(tree)
    tree.value = tree.value.toarray()
    tree.proba = tree.node_proba(np.arange(tree.node_count))
    tree.proba_source = None
    if getattr(tree, "grow_value", None) is not None:
        tree.grow_value = tree.grow_value.toarray()
    return tree


def node_totals(value):
    """Every node's total class count (a row sum of ``value``, dense or CSR), added as
    over its dense row (the same rounding), a block of nodes at a time."""
    if not sparse.issparse(value):
        return value.sum(axis=1)
    return np.concatenate([
        value[start:start + TOTALS_BLOCK].toarray().sum(axis=1)
        for start in range(0, value.shape[0], TOTALS_BLOCK)] or [np.zeros(0)])


def node_largest(value):
    """Every node's largest class count (counts are non-negative: 0 for a node
    without rows), of ``value`` dense or CSR."""
    if not sparse.issparse(value):
        return value.max(axis=1)
    return np.asarray(value.max(axis=1).toarray(), dtype=float).reshape(-1)


def predicted_classes(tree):
    """The class every node predicts, ``argmax`` of its row of :attr:`proba` (the first
    of equal ones), of counts dense or sparse (a node without stored probabilities
    reads its ``proba_source``)."""
    proba = tree.proba
    if not sparse.issparse(proba):
        return np.argmax(proba, axis=1)
    proba = sparse.csr_matrix(proba)
    proba.sort_indices()
    lengths = np.diff(proba.indptr)
    stored = np.flatnonzero(lengths)
    row_of = np.repeat(np.arange(proba.shape[0]), lengths)
    largest = np.zeros(proba.shape[0])
    largest[stored] = np.maximum.reduceat(proba.data, proba.indptr[:-1][stored])
    first = np.full(proba.shape[0], proba.shape[1], dtype=np.intp)
    at_max = proba.data == largest[row_of]
    np.minimum.at(first, row_of[at_max], proba.indices[at_max])
    # a node of no stored probability (all zero, or read from its source)
    first[first == proba.shape[1]] = 0
    source = getattr(tree, "proba_source", None)
    return first if source is None else first[source]
