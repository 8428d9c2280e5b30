"""OC1 with many classes: a line search over many classes with whole
class counts scores in full only the candidates that can win
(:func:`~.line_search._bounded_sweep`), and the best axis-parallel split likewise; the
choices are those of scoring every candidate, bit for bit, and the work no longer grows
as rows × classes."""
import numpy as np
import pytest

from orangecontrib.oblique.core import OC1Classifier
from orangecontrib.oblique.core.tree import impurity
from orangecontrib.oblique.core.tree import line_search as kernels
from orangecontrib.oblique.core.oc1 import classifier as oc1
from orangecontrib.oblique.core.tree.impurity import (MEASURES, best_axis_parallel,
                                                 class_indicators, measure_code)
from orangecontrib.oblique.core.oc1.classifier import NodeSearch

from tests.helpers.memory_reference import MB, record, traced_peak


def many_classes(n_classes, per_class=3, n_features=5, seed=0):
    """``n_classes`` classes of ``per_class`` rows each, normal features (as
    ``benchmarks/hostile_inputs.py``'s many-classes case)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), per_class)
    rng.shuffle(y)
    return rng.normal(size=(y.size, n_features)), y


def random_node(rng, n_classes, measure, whole_weights=True, rounded=False):
    n = int(rng.integers(n_classes, 4 * n_classes))
    y = rng.integers(0, n_classes, n)
    present, codes = np.unique(y, return_inverse=True)
    weights = (rng.integers(1, 4, n).astype(float) if whole_weights
               else rng.uniform(0.5, 2, n))
    Z = rng.normal(size=(n, 4))
    if rounded:
        Z = np.round(Z)   # many equal crossings
    Z = np.column_stack([Z, np.ones(n)])
    return NodeSearch(Z, class_indicators(codes.ravel(), weights, present.size), measure)


def every_candidate(node, measure, values, direction):
    """Each candidate of a line search in the order of the sweep, scored by
    :func:`~.impurity.impurity` (numpy, from the class counts left of it), and its
    step."""
    classes, weights, total = node.arguments[:3]
    moving = direction != 0
    crossings = -values[moving] / direction[moving]
    order = np.argsort(crossings, kind="stable")
    sorted_crossings = crossings[order]
    left_now = np.zeros(len(total))
    still = ~moving & (values < 0)
    np.add.at(left_now, classes[still], weights[still])
    going_right = moving & (direction > 0)     # left of the split before they cross
    np.add.at(left_now, classes[going_right], weights[going_right])
    moving_rows = np.flatnonzero(moving)[order]
    lefts, steps = [], []
    for i in range(len(order) - 1):
        row = moving_rows[i]
        left_now[classes[row]] += -weights[row] if direction[row] > 0 else weights[row]
        here, following = sorted_crossings[i], sorted_crossings[i + 1]
        if here < (here + following) / 2 < following:
            lefts.append(left_now.copy())
            steps.append((here + following) / 2)
    lefts = np.round(np.array(lefts), 9)   # whole counts: exact
    return impurity.impurity(lefts, total, measure), np.array(steps)


@pytest.mark.parametrize("measure", sorted(MEASURES))
def test_line_search_of_many_classes_chooses_as_scoring_every_candidate(measure):
    rng = np.random.default_rng(3)
    for trial in range(12):
        node = random_node(rng, int(rng.integers(kernels.BOUNDED_SWEEP_CLASSES, 150)),
                           measure, whole_weights=trial % 3 != 2, rounded=trial % 4 == 0)
        values = node.Z @ rng.uniform(-1, 1, node.Z.shape[1])
        for direction in (node.columns[trial % 4], node.Z @ rng.uniform(-1, 1, 5)):
            found = node.line_step(values, direction)
            assert kernels.line_step(values, direction, node.arguments, node.workspace,
                                     False) == found
            if trial % 3 != 2:   # whole counts: numpy's scores agree up to rounding
                scores, steps = every_candidate(node, measure, values, direction)
                assert found[0] == pytest.approx(scores.min(), rel=1e-9)
                assert found[1] in steps[scores <= scores.min() * (1 + 1e-9)]


@pytest.mark.parametrize("measure", sorted(MEASURES))
def test_bounds_hold_and_leave_few_candidates_to_score(measure):
    """Every twoing or information gain impurity lies at or above its bound, and of a
    node of 300 classes only a handful of candidates reach the lowest (the work of the
    line search: before, every candidate was scored, O(rows × classes)); the other
    measures' bounds are the impurities themselves."""
    X, y = many_classes(300)
    Z = np.column_stack([(X - X.mean(0)) / X.std(0), np.ones(len(y))])
    node = NodeSearch(Z, class_indicators(y, np.ones(len(y)), 300), measure)
    rng = np.random.default_rng(0)
    classes, weights, total, code, entropy, rank = node.arguments
    for _ in range(10):
        values = Z @ rng.uniform(-1, 1, 6)
        direction = Z @ rng.uniform(-1, 1, 6)
        scores, _ = every_candidate(node, measure, values, direction)
        crossings = -values / direction
        order = np.argsort(crossings, kind="stable")
        signed = np.where(direction < 0, -weights, weights)
        start = np.zeros(len(total))
        np.add.at(start, classes[direction < 0], weights[direction < 0])
        lower = np.full(len(y), np.inf)
        kernels._bounded_sweep(len(y), order, classes, signed, crossings[order], start,
                               total, code, entropy, rank, lower, True)
        sorted_crossings = crossings[order]
        middle = (sorted_crossings[:-1] + sorted_crossings[1:]) / 2
        candidate = (sorted_crossings[:-1] < middle) & (middle < sorted_crossings[1:])
        bounds = lower[:-1][candidate]
        assert len(scores) > 800
        if measure not in ("twoing", "information_gain"):   # the impurities, exactly
            np.testing.assert_array_equal(bounds, scores)
            continue
        assert np.all(bounds <= scores)
        near = np.count_nonzero(bounds <= scores.min() * (1 + 1e-9))
        assert 1 <= near <= 3, near


@pytest.mark.parametrize("measure", ["twoing", "information_gain", "gini", "sum_minority"])
def test_tree_of_many_classes_is_that_of_scoring_every_candidate(monkeypatch, measure):
    X, y = many_classes(120, per_class=4)
    weights = np.random.default_rng(1).integers(1, 3, len(y)).astype(float)
    learner = OC1Classifier(impurity=measure, n_restarts=3, max_depth=8, pruning_portion=0,
                            random_state=0)
    fast = record(learner.fit(X, y, sample_weight=weights), X)
    assert len(fast["parent"]) > 20
    monkeypatch.setattr(oc1.NodeSearch, "bounded", False)
    monkeypatch.setattr(impurity, "_bounded_axis_parallel", lambda *arguments: None)
    slow = record(learner.fit(X, y, sample_weight=weights), X)
    for key, array in fast.items():
        np.testing.assert_array_equal(array, slow[key], err_msg=key)


def test_axis_parallel_of_many_classes_is_that_of_every_candidate_in_little_memory():
    """The best axis-parallel split of 400 classes (1,200 rows × 5 columns and a binary
    one): that of scoring every threshold (:func:`~.impurity._column_blocks`), holding
    O(rows) at a time instead of several (classes × rows) blocks (3.8 MB each)."""
    X, y = many_classes(400)
    X = np.column_stack([X, y % 2])
    indicators = class_indicators(y, np.ones(len(y)), 400)
    for measure in ("twoing", "information_gain", "max_minority"):
        scores = [(score, first, column[i], row[i], sorted_values)
                  for first, sorted_values, column, row, block_scores
                  in impurity._column_blocks(X, indicators, measure_code(measure))
                  for i, score in enumerate(block_scores)]
        best = min(range(len(scores)), key=lambda i: (scores[i][0], i))
        score, first, column, row, sorted_values = scores[best]
        expected = (score, first + column, (sorted_values[row, column]
                                            + sorted_values[row + 1, column]) / 2)
        best_axis_parallel(X[:100], indicators[:, :100], measure)   # compiled first
        found, peak = traced_peak(lambda: best_axis_parallel(X, indicators, measure))
        assert found == expected
        assert peak < 8 * 400 * len(y) / 4, peak / MB


def test_bounds_apply_to_many_classes_of_whole_weights_only():
    """Weights that are not whole numbers make counts inexact: every candidate is scored
    there, as before; and so at a node of few classes."""
    X, y = many_classes(40)
    weights = np.random.default_rng(0).uniform(0.5, 1.5, len(y))
    assert not kernels._bounds_apply(weights, np.bincount(y, weights), 0)
    whole = np.round(weights * 2)
    assert kernels._bounds_apply(whole, np.bincount(y, whole), 0)
    few = kernels.BOUNDED_SWEEP_CLASSES - 1
    assert not kernels._bounds_apply(np.ones(few), np.ones(few), 0)
    assert kernels._bounds_apply(np.ones(len(y)), np.bincount(y).astype(float), 1)
