"""A forest of thousands of classes of one row each: every cut of such a node has the same
Gini impurity, and taking the first of them split one row off at a time (a chain of depth
k − 1 whose class counts, O(k²), stayed dense: 3.4 GB for 1,000 classes).  Of a
projection's cuts of equal impurity the search takes the most even one: trees of depth
about log2 k, in little memory."""
import tracemalloc

import numpy as np

from orangecontrib.oblique.core import ObliqueForestClassifier
from orangecontrib.oblique.core.forest.sporf import search_projections

from tests.helpers.many_classes import counts_bytes


def one_row_classes(n_classes, n_features=5, seed=0):
    return np.random.default_rng(seed).normal(size=(n_classes, n_features)), np.arange(n_classes)


def test_cuts_of_equal_impurity_give_the_most_even_one():
    X, y = one_row_classes(10, n_features=1)
    rows = np.arange(10)
    cells, negative = np.array([0]), np.array([False])
    k, low, high, _, _, _ = search_projections(X, rows, np.arange(1), cells, negative,
                                               np.ones(1), 1, y, np.ones(10))
    values = np.sort(X[:, 0])
    assert k == 0 and (low, high) == (values[4], values[5])   # 5 | 5, not 1 | 9


def test_of_unequal_impurities_the_lowest_still_wins():
    # two classes, separable at the third value: an uneven cut of impurity 0
    X = np.arange(10.0)[:, None]
    y = (np.arange(10) >= 3).astype(np.intp)
    k, low, high, impurity, _, _ = search_projections(
        X, np.arange(10), np.arange(1), np.array([0]), np.array([False]), np.ones(1), 1, y,
        np.ones(10))
    assert (low, high, impurity) == (2.0, 3.0, 0.0)


def test_forest_of_1000_one_row_classes_is_shallow_and_small():
    X, y = one_row_classes(1000)
    ObliqueForestClassifier(n_estimators=1, random_state=0).fit(X[:20], y[:20])  # compiled
    tracemalloc.start()
    try:
        forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    for member in forest.estimators_:
        assert member.get_depth() <= 2 * np.log2(1000)          # was 999: a chain
        assert counts_bytes(member.tree_) < 1_000_000             # was 32 MB, dense
    assert peak < 30_000_000                                      # was over 100 MB
    np.testing.assert_array_equal(forest.predict(X), y)
