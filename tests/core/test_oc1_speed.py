"""OC1's local search compiled (issue 16): one kernel call per restart
(:func:`~orangecontrib.oblique.core.oc1.sequential_local_search`) gives the same trees,
moves and random draws as the search step by step in Python."""
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from orangecontrib.oblique.core import OC1Classifier, kernels, oc1, pass_kernels
from orangecontrib.oblique.core.datasets import ls10, rotated_checkerboard

from .invariants import assert_identical_trees

pytestmark = pytest.mark.skipif(not (kernels.AVAILABLE and pass_kernels.PASS_AVAILABLE),
                                reason="numba or numpy's BLAS symbols are not available")


def fitted(monkeypatch, compiled, X, y, sample_weight=None, **parameters):
    monkeypatch.setattr(oc1, "COMPILED_LOCAL_SEARCH", compiled)
    calls = []
    original = oc1.sequential_local_search

    def counting(*arguments):
        calls.append(1)
        return original(*arguments)

    monkeypatch.setattr(oc1, "sequential_local_search", counting)
    estimator = OC1Classifier(**parameters).fit(X, y, sample_weight=sample_weight)
    return estimator, len(calls)


def assert_same_trees(first, second, X):
    assert_identical_trees(first.tree_, second.tree_)
    assert np.array_equal(first.predict_proba(X), second.predict_proba(X))
    assert first.export_text() == second.export_text()


def data_sets():
    iris, wine, cancer = (load(return_X_y=True) for load in (load_iris, load_wine,
                                                             load_breast_cancer))
    rng = np.random.RandomState(5)
    ties = np.round(rng.normal(size=(300, 5)), 1)
    yield "iris", iris, {}
    yield "wine", wine, {"random_state": 3}
    yield "cancer", cancer, {"n_restarts": 5}
    yield "ls10", ls10(600, random_state=1), {}
    yield "checkerboard", rotated_checkerboard(500, random_state=2), {"random_state": 7}
    yield "ties", (ties, rng.randint(0, 3, 300)), {"impurity": "sum_minority"}
    for measure in ("information_gain", "gini", "max_minority", "sum_of_variances"):
        yield "iris " + measure, iris, {"impurity": measure, "random_state": 2}
    yield "wine, slow stagnation", wine, {"stagnation_step": 0.01}
    yield "wine, no jumps", wine, {"n_random_jumps": 0}
    yield "wine, oblique only", wine, {"split_mode": "oblique", "pruning_portion": 0}
    yield "iris, 3 terms", iris, {"max_terms": 2}


@pytest.mark.parametrize("name, data, parameters", list(data_sets()),
                         ids=[name for name, _, _ in data_sets()])
def test_compiled_local_search_grows_the_same_tree(monkeypatch, name, data, parameters):
    X, y = data
    parameters.setdefault("random_state", 0)
    python, python_calls = fitted(monkeypatch, False, X, y, **parameters)
    compiled, compiled_calls = fitted(monkeypatch, True, X, y, **parameters)
    assert python_calls == 0 and compiled_calls > 0
    assert_same_trees(python, compiled, X)


@pytest.mark.parametrize("weights", ["whole", "fractional"])
def test_compiled_local_search_with_weights(monkeypatch, weights):
    X, y = load_wine(return_X_y=True)
    rng = np.random.RandomState(1)
    w = (rng.randint(0, 4, len(y)).astype(float) if weights == "whole"
         else rng.uniform(0.1, 3, len(y)))
    python, _ = fitted(monkeypatch, False, X, y, w, random_state=1)
    compiled, _ = fitted(monkeypatch, True, X, y, w, random_state=1)
    assert_same_trees(python, compiled, X)


def test_the_generator_ends_where_the_python_search_leaves_it(monkeypatch):
    """After a fit the estimator's generator has drawn exactly as many numbers either way
    (the kernel's buffer is given back), including when the first buffer is too small."""
    X, y = load_iris(return_X_y=True)
    states = []
    for compiled, per_coefficient, block in ((False, 64, 4096), (True, 64, 4096),
                                             (True, 1, 1), (False, 1, 3)):
        monkeypatch.setattr(oc1, "DRAWS_PER_COEFFICIENT", per_coefficient)
        monkeypatch.setattr(oc1, "DRAW_BLOCK", block)
        monkeypatch.setattr(oc1, "COMPILED_LOCAL_SEARCH", compiled)
        generator = np.random.RandomState(11)
        OC1Classifier(random_state=generator, pruning_portion=0).fit(X, y)
        states.append(generator.random_sample(3))
    for state in states[1:]:
        assert np.array_equal(states[0], state)


@pytest.mark.parametrize("order", ["sequential", "best_first", "random"])
def test_draws_are_those_of_the_generator_one_at_a_time(monkeypatch, order):
    """Tiny blocks (every draw a refill; the kernel out of numbers again and again) and
    the usual blocks grow the same tree and leave the generator in the same state."""
    X, y = load_wine(return_X_y=True)
    results = []
    for block, per_coefficient in ((4096, 64), (1, 1), (7, 2)):
        monkeypatch.setattr(oc1, "DRAW_BLOCK", block)
        monkeypatch.setattr(oc1, "DRAWS_PER_COEFFICIENT", per_coefficient)
        generator = np.random.RandomState(4)
        estimator = OC1Classifier(random_state=generator, coefficient_order=order,
                                  n_restarts=4).fit(X, y)
        results.append((estimator, generator.random_sample(2)))
    for estimator, after in results[1:]:
        assert_same_trees(results[0][0], estimator, X)
        assert np.array_equal(results[0][1], after)


def test_kernel_stops_when_its_draws_run_out():
    X, y = load_iris(return_X_y=True)
    Z = np.column_stack([(X - X.mean(0)) / X.std(0), np.ones(len(X))])
    classes, weights = y.astype(np.int64), np.ones(len(y))
    total = np.bincount(y).astype(float)
    hyperplane = np.array([1.0, 0, 0, 0, -0.5])
    values = Z @ hyperplane
    arguments = (Z, np.ascontiguousarray(Z.T), classes, weights, total, 0, 0.0, np.zeros(3),
                 *kernels.line_workspace(len(y), 3), hyperplane.copy(), values.copy(),
                 np.inf, 5, 0.1, 100)
    impurity, position = oc1.sequential_local_search(*arguments, np.zeros(0), 0)
    assert position == -1
    impurity, position = oc1.sequential_local_search(*arguments, np.full(10_000, 0.5), 3)
    assert 3 <= position <= 10_000 and np.isfinite(impurity)
