"""Per-node invariants every :class:`ObliqueTree` must satisfy, shared by the core tests."""
import pickle

import numpy as np
from scipy import sparse
from sklearn.base import clone


def axis_parallel(split):
    """Whether ``split`` is a binary test of one attribute against a threshold."""
    return split.kind.has_threshold and split.features_used.size == 1


def assert_tree_invariants(tree):
    """Shape, parent/child, depth and count invariants of a tree (no data needed)."""
    n = tree.node_count
    assert len(tree.splits) == len(tree.children) == n
    assert tree.parent.shape == tree.node_depth.shape == tree.n_node_samples.shape == (n,)
    assert tree.value.shape == tree.proba.shape == (n, tree.n_classes)
    assert tree.parent[0] == -1
    assert sorted(tree.preorder()) == list(range(n)), "every node reached exactly once"
    for node in range(n):
        split, kids = tree.splits[node], tree.children[node]
        if split is None:
            assert kids == ()
            continue
        assert split.n_children == len(kids)
        assert split.n_features == tree.n_features
        for kid in kids:
            assert tree.parent[kid] == node
            assert tree.node_depth[kid] == tree.node_depth[node] + 1
        np.testing.assert_allclose(tree.value[list(kids)].sum(axis=0), tree.value[node],
                                   err_msg=f"class counts of node {node}'s children")
        assert tree.n_node_samples[list(kids)].sum() == tree.n_node_samples[node]
    for node in range(1, n):
        assert node in tree.children[tree.parent[node]]
    assert tree.n_leaves == sum(s is None for s in tree.splits)
    assert tree.depth == tree.node_depth.max()
    assert tree.depth == max(len(tree.path(leaf)) - 1 for leaf in tree.leaves())
    np.testing.assert_allclose(tree.proba.sum(axis=1), 1)
    # a tree pruned on held-out rows predicts from the counts of its growing rows
    value = getattr(tree, "grow_value", tree.value)
    reached = value.sum(axis=1) > 0
    np.testing.assert_allclose(tree.proba[reached],
                               value[reached] / value[reached].sum(axis=1)[:, None])


def route_by_hand(tree, x):
    """Leaf of one row, following each node's stored weights and the routing convention."""
    node = 0
    while tree.splits[node] is not None:
        split = tree.splits[node]
        v = split.weights @ x + split.bias
        if split.kind.name == "hyperplane":
            position = int(v[0] >= 0)
        elif split.kind.name == "equality":
            position = int(v[0] != 0)
        elif split.kind.name == "nominal":
            position = list(split.branch_values).index(int(v[0]))
        elif split.kind.name == "argmax":
            position = int(np.argmax(v))
        elif split.kind.name == "pairwise_vote":
            k = split.n_children
            votes = np.zeros(k, dtype=int)
            pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
            for value_p, (a, b) in zip(v, pairs):
                votes[a if value_p >= 0 else b] += 1
            position = int(np.argmax(votes))
        else:
            position = int(np.argmin(((split.centres - v) ** 2).sum(axis=1)))
        node = tree.children[node][position]
    return node


def assert_training_rows_consistent(tree, X, y, sample_weight=None):
    """The training rows, routed again, reproduce every node's counts."""
    if sample_weight is None:
        sample_weight = np.ones(len(y))
    leaf = tree.apply(X)
    assert tree.is_leaf[leaf].all()
    for node in range(tree.node_count):
        passes = np.isin(leaf, tree.leaves(node))
        assert passes.sum() == tree.n_node_samples[node], f"rows reaching node {node}"
        np.testing.assert_allclose(
            np.bincount(y[passes], weights=sample_weight[passes], minlength=tree.n_classes),
            tree.value[node], err_msg=f"class counts of node {node}")
    for row in range(0, len(y), max(1, len(y) // 50)):
        assert route_by_hand(tree, X[row]) == leaf[row]


def assert_same_tree(a, b, node_a=0, node_b=0, allow_flip=False, map_split=None,
                     rtol=1e-7, atol=1e-9):
    """``a`` and ``b`` have the same shape, node statistics and (up to tolerance) splits.

    With ``map_split`` each split of ``a`` is mapped to ``(weights, bias)`` before comparing
    (e.g. to account for rescaled features).  With ``allow_flip`` a hyperplane may come out
    with the opposite orientation (``−w, −b``), its two children then swapped.
    """
    np.testing.assert_allclose(a.value[node_a], b.value[node_b], rtol=rtol, atol=atol)
    split_a, split_b = a.splits[node_a], b.splits[node_b]
    assert (split_a is None) == (split_b is None), f"leaf in one tree only (node {node_a})"
    if split_a is None:
        return
    assert split_a.kind.name == split_b.kind.name
    weights, bias = (split_a.weights, split_a.bias) if map_split is None else map_split(split_a)
    kids_a, kids_b = a.children[node_a], b.children[node_b]
    same = (np.allclose(weights, split_b.weights, rtol, atol)
            and np.allclose(bias, split_b.bias, rtol, max(atol, rtol * np.abs(bias).max())))
    if not same and allow_flip and split_a.kind.name == "hyperplane":
        same = (np.allclose(-weights, split_b.weights, rtol, atol)
                and np.allclose(-bias, split_b.bias, rtol, max(atol, rtol * np.abs(bias).max())))
        kids_b = kids_b[::-1]
    assert same, f"node {node_a}: {split_a!r} vs node {node_b}: {split_b!r}"
    for kid_a, kid_b in zip(kids_a, kids_b):
        assert_same_tree(a, b, kid_a, kid_b, allow_flip, map_split, rtol, atol)


def assert_refits_identically(a, b, X, y):
    """``a`` and ``b``, fitted alike on ``X, y``, grew the same tree, and so does a clone
    of ``a`` fitted again."""
    assert a.tree_.splits == b.tree_.splits
    assert a.tree_.children == b.tree_.children
    np.testing.assert_array_equal(a.tree_.value, b.tree_.value)
    c = clone(a).fit(X, y)
    assert c.tree_.splits == a.tree_.splits
    assert a.export_text() == c.export_text()


def assert_pickles(model, X):
    """``model`` survives a pickle round trip: same tree, predictions, text and
    parameters."""
    restored = pickle.loads(pickle.dumps(model))
    assert restored.tree_.splits == model.tree_.splits
    np.testing.assert_array_equal(restored.predict(X), model.predict(X))
    np.testing.assert_array_equal(restored.predict_proba(X), model.predict_proba(X))
    assert restored.export_text() == model.export_text()
    assert restored.get_params() == model.get_params()


def assert_identical_trees(a, b):
    """The same nodes, splits (to the bit), printed digits, scales and rule text."""
    assert a.children == b.children
    np.testing.assert_array_equal(a.value, b.value)
    for split_a, split_b in zip(a.splits, b.splits):
        assert (split_a is None) == (split_b is None)
        if split_a is not None:
            assert split_a.kind.name == split_b.kind.name
            np.testing.assert_array_equal(split_a.weights, split_b.weights)
            np.testing.assert_array_equal(split_a.bias, split_b.bias)
            assert split_a.print_digits == split_b.print_digits
    scales_a = getattr(a, "feature_scales", None)
    scales_b = getattr(b, "feature_scales", None)
    assert (scales_a is None) == (scales_b is None)
    if scales_a is not None:
        dense = [s.toarray() if sparse.issparse(s) else s for s in (scales_a, scales_b)]
        np.testing.assert_array_equal(*dense)
    assert a.export_text() == b.export_text()
