"""The Oblique Forest at many classes: a node's split search costs the
same whatever the number of classes of the data -- it takes the rows' class codes and
keeps counts for the classes present at the node only, not a classes x rows matrix --
and a forest tree keeps its nodes' class counts compact as it grows them."""
import tracemalloc

import numpy as np
import pytest
from scipy import sparse

from orangecontrib.oblique.core.forest.classifier import ObliqueForestClassifier
from orangecontrib.oblique.core.forest.sporf import (SparseProjectionSplitter, node_classes,
                                                     search_projections, varying_features)
from orangecontrib.oblique.core.tree.structure import grow_tree


def node_of_50_rows(n_classes, seed=0):
    """A node of 50 rows of 5 classes (codes spread over ``n_classes``) among 200."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(200, 4))
    present = np.linspace(0, n_classes - 1, 5).astype(np.intp)
    y = present[rng.integers(0, 5, 200)]
    return X, y, np.sort(rng.choice(200, 50, replace=False))


def test_node_classes_numbers_the_classes_present_in_code_order():
    codes = np.array([7, 3, 7, 10 ** 9, 3, 7])
    weights = np.array([1.0, 2.0, 0.5, 1.0, 1.0, 3.0])
    row_class, total, total_rows = node_classes(codes, weights)
    np.testing.assert_array_equal(row_class, [1, 0, 1, 2, 0, 1])
    np.testing.assert_array_equal(total, [3.0, 4.5, 1.0])
    np.testing.assert_array_equal(total_rows, [2, 3, 1])


def test_search_is_the_same_for_classes_absent_from_the_node():
    """The same node searched with its classes numbered 0..4 or spread over 20,000
    codes (as at a node of a 20,000-class forest): the same split, the same impurity."""
    X, y, rows = node_of_50_rows(5)
    features = varying_features(X, rows)
    rng = np.random.default_rng(1)
    cells = np.sort(rng.choice(features.size * 3, 6, replace=False))
    negative = rng.random(6) < 0.5
    unit = np.ones(X.shape[1])
    weights = rng.integers(1, 4, rows.size) / 3
    few = search_projections(X, rows, features, cells, negative, unit, 3, y[rows], weights)
    spread = np.linspace(0, 19_999, 5).astype(np.intp)[y[rows]]
    many = search_projections(X, rows, features, cells, negative, unit, 3, spread, weights)
    assert few[0] >= 0
    for a, b in zip(few, many):
        np.testing.assert_array_equal(a, b)


def test_a_node_of_few_rows_takes_no_memory_for_absent_classes():
    """A node of 50 rows in data of 200,000 classes: the splitter allocates nothing of
    the number of classes (a classes x rows indicator matrix would be 80 MB) and
    proposes the split it proposes with 20 classes."""
    splits, peaks = [], []
    for n_classes in (20, 200_000):
        X, y, rows = node_of_50_rows(n_classes)
        splitter = SparseProjectionSplitter(X, y, np.ones(len(y)), n_classes, 3, 2.0,
                                            np.random.default_rng(0))
        counts = np.bincount(y[rows], minlength=n_classes).astype(float)
        splitter(rows, counts, 0)  # compiled kernels loaded before measuring
        splitter.rng = np.random.default_rng(0)
        tracemalloc.start()
        try:
            splits.append(splitter(rows, counts, 0))
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert splits[0] is not None
    np.testing.assert_array_equal(splits[0].weights, splits[1].weights)
    np.testing.assert_array_equal(splits[0].bias, splits[1].bias)
    assert peaks[1] < 100_000, peaks


def grown_both_ways(X, y, weights, n_classes):
    """A SPORF tree grown with dense class counts then compacted, and the same tree grown
    with compact counts."""
    trees = []
    for compact in (False, True):
        splitter = SparseProjectionSplitter(X, y, weights, n_classes, 3, 1.0,
                                            np.random.default_rng(0))
        trees.append(grow_tree(X, y, weights, n_classes, splitter, compact_counts=compact))
    trees[0].compact_class_counts()
    return trees


@pytest.mark.parametrize("n_classes", [3, 150, 600])
def test_counts_grown_compact_are_those_compacted_afterwards(n_classes):
    """Grown compact or dense then compacted: the same value, proba and proba source
    (dense where compacting keeps them dense, CSR elsewhere), bit for bit, also with
    weights that are not integers."""
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(3 * n_classes + 50, 3))
    y = np.arange(X.shape[0]) % n_classes
    weights = rng.uniform(0.2, 3.0, X.shape[0])
    dense, compact = grown_both_ways(X, y, weights, n_classes)
    assert compact.node_count == dense.node_count > 10
    assert sparse.issparse(compact.value) == sparse.issparse(dense.value) == (
        n_classes >= 100)
    for name in ("value", "proba"):
        a, b = getattr(dense, name), getattr(compact, name)
        if sparse.issparse(a):
            a, b = a.toarray(), b.toarray()
        np.testing.assert_array_equal(a, b)
    a, b = getattr(dense, "proba_source", None), getattr(compact, "proba_source", None)
    assert (a is None) == (b is None)
    if a is not None:
        np.testing.assert_array_equal(a, b)
    nodes = np.arange(dense.node_count)
    np.testing.assert_array_equal(dense.node_proba(nodes), compact.node_proba(nodes))


def test_a_forest_tree_of_2000_classes_grows_in_little_memory():
    """A tree of the forest on 6,000 rows of 2,000 classes (8,400 nodes): dense class
    counts while it grew took 400 MB (value, its stacked copy and proba); grown compact,
    a few MB."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(6000, 5)), np.arange(6000) % 2000
    ObliqueForestClassifier(n_estimators=1, random_state=0).fit(X[:100], y[:100] % 3)
    tracemalloc.start()
    try:
        forest = ObliqueForestClassifier(n_estimators=1, random_state=0).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert forest.estimators_[0].tree_.node_count > 8000
    assert peak < 50e6, peak


@pytest.mark.parametrize("spread", [1, 3, 1000])
def test_node_classes_by_table_or_by_sorting_agree(spread):
    """Codes of a narrow range (looked up in a table) or a wide one (sorted): numbered
    alike in the order of their codes."""
    rng = np.random.default_rng(spread)
    classes = rng.integers(0, 12, 40)
    row_class, total, total_rows = node_classes(classes * spread + 5, np.ones(40))
    present = np.unique(classes)
    np.testing.assert_array_equal(row_class, np.searchsorted(present, classes))
    np.testing.assert_array_equal(total_rows, np.bincount(classes)[present])
    np.testing.assert_array_equal(total, total_rows)
