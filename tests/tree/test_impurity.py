"""The six impurity measures of OC1's Appendix B against direct, loop-based formulas."""
import math

import numpy as np
import pytest

from orangecontrib.oblique.core.tree import impurity as imp


def _loop_twoing(left, right):
    n_l, n_r = sum(left), sum(right)
    n = n_l + n_r
    total = sum(abs(l / n_l - r / n_r) for l, r in zip(left, right))
    return 1 / (n_l / n * n_r / n * total ** 2 / 4)


def _loop_entropy(counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c > 0)


def _loop_information_gain(left, right):
    n_l, n_r = sum(left), sum(right)
    n = n_l + n_r
    parent = [l + r for l, r in zip(left, right)]
    gain = _loop_entropy(parent) - n_l / n * _loop_entropy(left) - n_r / n * _loop_entropy(right)
    return 1 / gain


def _loop_gini(left, right):
    n_l, n_r = sum(left), sum(right)
    gini_l = 1 - sum((l / n_l) ** 2 for l in left)
    gini_r = 1 - sum((r / n_r) ** 2 for r in right)
    return (n_l * gini_l + n_r * gini_r) / (n_l + n_r)


def _loop_minorities(left, right):
    return sum(left) - max(left), sum(right) - max(right)


def _loop_sum_of_variances(left, right):
    parent = [l + r for l, r in zip(left, right)]
    # classes renumbered by decreasing frequency at the node (stable on ties)
    order = sorted(range(len(parent)), key=lambda k: -parent[k])
    category = {k: rank for rank, k in enumerate(order)}
    result = 0.0
    for side in (left, right):
        cats = [category[k] for k, count in enumerate(side) for _ in range(int(count))]
        mean = sum(cats) / len(cats)
        result += sum((c - mean) ** 2 for c in cats)
    return result


LOOP = {
    "twoing": _loop_twoing,
    "information_gain": _loop_information_gain,
    "gini": _loop_gini,
    "max_minority": lambda l, r: max(_loop_minorities(l, r)),
    "sum_minority": lambda l, r: sum(_loop_minorities(l, r)),
    "sum_of_variances": _loop_sum_of_variances,
}


def _random_cases(seed, n_cases=40):
    rng = np.random.default_rng(seed)
    for _ in range(n_cases):
        k = int(rng.integers(2, 5))
        left = rng.integers(0, 6, size=k)
        right = rng.integers(0, 6, size=k)
        if left.sum() == 0 or right.sum() == 0:
            continue
        yield left, right


@pytest.mark.parametrize("measure", sorted(imp.MEASURES))
def test_measure_matches_loop_formula(measure):
    checked = 0
    for seed in range(3):
        for left, right in _random_cases(seed):
            homogeneous = (np.count_nonzero(left) <= 1) and (np.count_nonzero(right) <= 1)
            got = imp.impurity(left[None, :], left + right, measure)[0]
            if homogeneous:
                assert got == 0
                continue
            expected = LOOP[measure](list(left), list(right))
            if math.isinf(expected) or expected > 1e12:
                assert got > 1e12
            else:
                assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("measure", sorted(imp.MEASURES))
def test_many_candidates_at_once(measure):
    rng = np.random.default_rng(7)
    total = np.array([9.0, 7.0, 4.0])
    left = np.array([[rng.integers(0, t + 1) for t in total] for _ in range(25)], dtype=float)
    batch = imp.impurity(left, total, measure)
    single = [imp.impurity(row[None, :], total, measure)[0] for row in left]
    np.testing.assert_array_equal(batch, single)


def test_empty_side_is_infinite_and_pure_split_is_zero():
    total = np.array([3.0, 2.0])
    for measure in imp.MEASURES:
        assert imp.impurity(np.array([[0.0, 0.0]]), total, measure)[0] == np.inf
        assert imp.impurity(np.array([[3.0, 0.0]]), total, measure)[0] == 0


def test_unknown_measure_raises():
    with pytest.raises(ValueError, match="unknown impurity measure"):
        imp.impurity(np.array([[1.0, 0.0]]), np.array([1.0, 1.0]), "entropy")


def test_sum_of_variances_renumbers_classes_by_frequency():
    # the same split with class labels swapped gives the same value: numbering is by
    # frequency at the node, not by label
    a = imp.impurity(np.array([[4.0, 1.0, 0.0]]), np.array([5.0, 2.0, 6.0]), "sum_of_variances")
    b = imp.impurity(np.array([[1.0, 4.0, 0.0]]), np.array([2.0, 5.0, 6.0]), "sum_of_variances")
    assert a[0] == pytest.approx(b[0])


def _brute_threshold(values, y, measure, k):
    best = (np.inf, None)
    distinct = np.unique(values)
    for lo, hi in zip(distinct[:-1], distinct[1:]):
        t = (lo + hi) / 2
        left = np.bincount(y[values < t], minlength=k).astype(float)
        total = np.bincount(y, minlength=k).astype(float)
        score = imp.impurity(left[None, :], total, measure)[0]
        if score < best[0]:
            best = (score, t)
    return best


@pytest.mark.parametrize("measure", sorted(imp.MEASURES))
def test_best_threshold_matches_brute_force(measure):
    rng = np.random.default_rng(3)
    for _ in range(20):
        n, k = 30, 3
        values = rng.integers(0, 12, size=n).astype(float)
        y = rng.integers(0, k, size=n)
        got = imp.best_threshold(values, imp.class_indicators(y, np.ones(n), k), measure)
        expected = _brute_threshold(values, y, measure, k)
        assert got[0] == pytest.approx(expected[0])
        assert got[1] == pytest.approx(expected[1])


def test_best_axis_parallel_finds_the_separating_feature():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = (X[:, 2] >= 0.3).astype(int)
    score, feature, threshold = imp.best_axis_parallel(X, imp.class_indicators(y, np.ones(200), 2))
    assert (score, feature) == (0.0, 2)
    assert ((X[:, 2] >= threshold) == y.astype(bool)).all()


def test_best_axis_parallel_all_constant():
    X = np.ones((5, 3))
    y = np.array([0, 1, 0, 1, 1])
    assert imp.best_axis_parallel(X, imp.class_indicators(y, np.ones(5), 2))[1] == -1


@pytest.mark.parametrize("measure", ["twoing", "gini", "sum_minority"])
def test_best_step_matches_brute_force_with_mixed_directions(measure):
    rng = np.random.default_rng(11)
    for _ in range(20):
        n, k = 25, 2
        current = rng.normal(size=n)
        direction = rng.normal(size=n)
        direction[rng.random(n) < 0.2] = 0.0     # rows that never move
        y = rng.integers(0, k, size=n)
        counts = imp.class_indicators(y, np.ones(n), k)
        score, step = imp.best_step(current, direction, counts, measure)
        # the returned step really produces the returned impurity
        right = current + step * direction >= 0
        total = counts.sum(axis=1)
        left = counts[:, ~right].sum(axis=1)
        assert imp.impurity(left[None, :], total, measure)[0] == pytest.approx(score)
        # and no midpoint between crossing points does better
        moving = direction != 0
        crossings = np.unique(-current[moving] / direction[moving])
        for lo, hi in zip(crossings[:-1], crossings[1:]):
            t = (lo + hi) / 2
            r = current + t * direction >= 0
            value = imp.impurity(counts[:, ~r].sum(axis=1)[None, :], total, measure)[0]
            assert value >= score - 1e-9
