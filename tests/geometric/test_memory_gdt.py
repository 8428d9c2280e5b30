"""GDT solves in the span of a node's rows when they are fewer than the
features -- the hyperplanes of the dense (d+1) × (d+1) problem at O(n² d) cost."""
import time

import numpy as np
import pytest

from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.core.geometric.kernels import node_hyperplanes

from tests.helpers.memory_reference import MB, traced_peak


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


def _hyperplanes(Z, positive, weights, n_positive, n_negative, in_row_span):
    w1, found1, w2, found2 = node_hyperplanes(Z, positive, weights, n_positive, n_negative,
                                              in_row_span, np.zeros((2, 2), dtype=np.int64))
    return (w1 if found1 else None), (w2 if found2 else None)


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
            new = _hyperplanes(Z, positive, weights, *sizes, True)    # in the row span
            old = _hyperplanes(Z, positive, weights, *sizes, False)   # (d+1) × (d+1)
            for w_new, w_old in zip(new, old):
                assert (w_new is None) == (w_old is None)
                if w_old is not None:
                    np.testing.assert_allclose(_aligned(w_new, w_old), w_old, atol=1e-8)


@pytest.mark.slow  # scale
def test_gdt_root_of_100_rows_and_2000_features_is_quick_and_linear_in_memory():
    """The root split took 30 s and (d+1)² matrices (32 MB each) before."""
    X, y = _few_rows(0, 100, 2000)
    learner = GeometricTreeClassifier(max_depth=1)
    start = time.perf_counter()
    learner.fit(X, y)
    seconds = time.perf_counter() - start
    assert learner.get_depth() == 1
    assert seconds < 5, seconds
    _, peak = traced_peak(lambda: GeometricTreeClassifier(max_depth=1).fit(X, y))
    assert peak < 16 * X.nbytes, peak / MB
