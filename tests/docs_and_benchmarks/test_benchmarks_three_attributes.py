"""``benchmarks/three_attributes.py``: the best triple is the one that separates, and the
comparison runs on iris (its accuracies themselves are not checked)."""
import numpy as np
import pytest

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture
def three_attributes():
    with benchmark_script("three_attributes") as module:
        yield module


def test_best_triple_is_the_separating_one(three_attributes):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    y = (X[:, 1] + X[:, 3] - X[:, 4] > 0).astype(int)   # only columns 1, 3 and 4 separate
    assert three_attributes.best_triple(X, y) == (1, 3, 4)


def test_iris_gives_every_column(three_attributes):
    name, X, y = next(three_attributes.datasets())
    assert name == "iris"
    result = three_attributes.evaluate(X, y, repeats=1)
    assert set(result) == set(three_attributes.COLUMNS)
    assert all(80 < accuracy <= 100 for accuracy in result.values())
