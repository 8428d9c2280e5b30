"""Issue 15, D4: GDT solves in the span of a node's rows when they are fewer than the
features -- the hyperplanes of the dense (d+1) × (d+1) problem at O(n² d) cost."""
import time

import numpy as np
import pytest

from orangecontrib.oblique.core import GeometricTreeClassifier, gdt_kernels, geometric
from orangecontrib.oblique.core.geometric import (GeometricSplitter, clustering_hyperplanes,
                                                  row_span_hyperplanes)

from .memory_reference import MB, traced_peak


def _few_rows(seed, n_rows, n_features, duplicates=False, collinear=False):
    rng = np.random.RandomState(seed)
    y = np.arange(n_rows) % 2
    X = rng.normal(size=(n_rows, n_features)) + 0.5 * y[:, None]
    X *= rng.choice([0.1, 1.0, 10.0], size=n_features)
    if collinear:
        X[:, 1::3] = 2 * X[:, ::3][:, :X[:, 1::3].shape[1]]
    if duplicates:
        X[2], y[2] = X[0], y[0]
        X[3], y[3] = X[1], 1 - y[1]   # the same point in both classes
    return X, y


def _dense_hyperplanes(Z, positive, weights, n_positive, n_negative, history=None):
    """The hyperplanes as GDT computed them before: from the (d+1) × (d+1) matrices."""
    weighted = Z * weights[:, None]
    G = weighted[positive].T @ Z[positive]
    return clustering_hyperplanes(G / n_positive, (weighted.T @ Z - G) / n_negative,
                                  history=history)


def _aligned(w, reference):
    return w * np.sign(w @ reference)


@pytest.mark.parametrize("duplicates", [False, True])
@pytest.mark.parametrize("collinear", [False, True])
def test_row_span_hyperplanes_are_those_of_the_dense_problem(duplicates, collinear):
    rng = np.random.RandomState(1)
    for seed, (n_rows, n_features) in enumerate([(30, 200), (8, 20), (25, 25), (5, 90)]):
        X, y = _few_rows(seed, n_rows, n_features, duplicates, collinear)
        Z = np.hstack([(X - X.mean(axis=0)) / X.std(axis=0), np.ones((n_rows, 1))])
        positive = y == 0
        for weights in (np.ones(n_rows), rng.uniform(0.5, 2.0, n_rows)):
            sizes = weights[positive].sum(), weights[~positive].sum()
            new = row_span_hyperplanes(Z, positive, weights, *sizes)
            old = _dense_hyperplanes(Z, positive, weights, *sizes)
            for w_new, w_old in zip(new, old):
                assert (w_new is None) == (w_old is None)
                if w_old is not None:
                    np.testing.assert_allclose(_aligned(w_new, w_old), w_old, atol=1e-8)


def test_gdt_trees_with_fewer_rows_than_features_are_those_of_the_dense_problem(
        monkeypatch):
    """Whole trees on 30 rows × 200 features (every node has fewer rows than features):
    the same shape, routing and predictions as with the dense computation, the same
    splits to rounding."""
    for seed in range(3):
        X, y = _few_rows(seed, 30, 200, duplicates=seed == 2)
        X_test, _ = _few_rows(seed + 10, 50, 200)
        make = lambda: GeometricTreeClassifier(epsilon1=0.0, max_depth=None)  # noqa: E731
        new = make().fit(X, y)
        with monkeypatch.context() as patch:
            patch.setattr(geometric, "row_span_hyperplanes", _dense_hyperplanes)
            old = make().fit(X, y)
        assert new.tree_.children == old.tree_.children
        assert new.tree_.n_leaves > 1
        np.testing.assert_array_equal(new.tree_.value, old.tree_.value)
        for X_rows in (X, X_test):
            np.testing.assert_array_equal(new.apply(X_rows), old.apply(X_rows))
            np.testing.assert_array_equal(new.predict_proba(X_rows),
                                          old.predict_proba(X_rows))
        for a, b in zip(new.tree_.splits, old.tree_.splits):
            if a is not None:
                np.testing.assert_allclose(a.weights, b.weights, atol=1e-9)
                np.testing.assert_allclose(a.bias, b.bias, atol=1e-9)


def test_gdt_root_of_100_rows_and_2000_features_is_quick_and_linear_in_memory():
    """Issue 15, D4: the root split took 30 s and (d+1)² matrices (32 MB each) before."""
    X, y = _few_rows(0, 100, 2000)
    learner = GeometricTreeClassifier(max_depth=1)
    start = time.perf_counter()
    learner.fit(X, y)
    seconds = time.perf_counter() - start
    assert learner.get_depth() == 1
    assert seconds < 5, seconds
    _, peak = traced_peak(lambda: GeometricTreeClassifier(max_depth=1).fit(X, y))
    assert peak < 16 * X.nbytes, peak / MB


def test_the_splitter_takes_the_row_span_only_with_fewer_rows_than_features(monkeypatch):
    calls = []
    original = geometric.row_span_hyperplanes
    monkeypatch.setattr(geometric, "row_span_hyperplanes",
                        lambda *args, **kwargs: calls.append(len(args[0]))
                        or original(*args, **kwargs))
    compiled = geometric.kernels.gdt_row_span  # the compiled splitter's row span
    monkeypatch.setattr(geometric.kernels, "gdt_row_span",
                        lambda *args: calls.append(len(args[0])) or compiled(*args))
    # the node's kernels one by one (gdt_kernels.gdt_node takes the same branch inside)
    monkeypatch.setattr(geometric.kernels, "gdt_node",
                        lambda *args: (3, np.empty(0), 0.0, False, -1))
    for n_rows in (10, 11, 12):
        X, y = _few_rows(0, n_rows, 10)
        augmented = np.hstack([X, np.ones((n_rows, 1))])
        splitter = GeometricSplitter(augmented, y, np.ones(n_rows),
                                     geometric.Standardisation.identity(X))
        splitter(np.arange(n_rows), np.bincount(y).astype(float), 0)
    assert calls == [10]
