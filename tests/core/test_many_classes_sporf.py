"""The SPORF split search at many classes (issue 30, item 5): a node's search costs the
same whatever the number of classes of the data -- it takes the rows' class codes and
keeps counts for the classes present at the node only, not a classes x rows matrix."""
import tracemalloc

import numpy as np

from orangecontrib.oblique.core.sporf import (SparseProjectionSplitter, node_classes,
                                              search_projections, varying_features)


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
