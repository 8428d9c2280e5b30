"""OC1's line search (:mod:`~orangecontrib.oblique.core.tree.line_search`, Eq. 2): it finds the
impurity-minimising step of a hyperplane along a direction, checked against brute force
over every cut point, and the six measures of OC1's Appendix B have their known values."""
import math

import numpy as np
import pytest

from orangecontrib.oblique.core.tree import impurity
from orangecontrib.oblique.core.tree import line_search as kernels
from orangecontrib.oblique.core.tree.impurity import class_indicators, node_constants

from .test_impurity import LOOP

MEASURES = sorted(kernels.MEASURE_CODES)


def line_search_cases(n_cases, seed):
    """Random nodes: 2–60 rows, 1–6 classes, weights 1–3 (or fractional), values rounded
    to make ties, directions with zeros (rows that never move) and of one sign only."""
    rng = np.random.default_rng(seed)
    for case in range(n_cases):
        n, n_classes = int(rng.integers(2, 60)), int(rng.integers(1, 7))
        y = rng.integers(0, n_classes, n)
        weights = (rng.integers(1, 4, n).astype(float) if case % 5
                   else rng.uniform(0.2, 3.0, n))
        indicators = class_indicators(y, weights, n_classes)
        current = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        direction = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        if case % 3 == 0:
            direction[rng.random(n) < 0.3] = 0.0
        if case % 4 == 0:
            direction = np.abs(direction)
        yield current, direction, indicators


def split_impurity(right, indicators, measure):
    """The impurity of the split with the rows ``right`` on the right, by OC1's measure."""
    total = indicators.sum(axis=1)
    left = indicators[:, ~right].sum(axis=1)
    return float(impurity.impurity(left[None, :], total, measure)[0])


def right_of(current, direction, t):
    """The rows right of the hyperplane moved by ``t``: a moving row is right once ``t``
    has passed its crossing ``-current / direction`` in its direction (compared with the
    crossings themselves: ``current + t·direction`` may round across 0 between two
    crossings a rounding apart)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        crossing = -current / direction
    return np.where(direction > 0, t > crossing,
                    np.where(direction < 0, t < crossing, current >= 0))


def brute_force(current, direction, indicators, measure):
    """The lowest impurity over every cut point: each midpoint strictly between
    consecutive distinct crossings ``-current / direction`` of the moving rows."""
    moving = direction != 0
    crossings = np.unique(-current[moving] / direction[moving])
    best = np.inf
    for low, high in zip(crossings[:-1], crossings[1:]):
        if low < (low + high) / 2 < high:
            best = min(best, split_impurity(right_of(current, direction, (low + high) / 2),
                                            indicators, measure))
    return best


@pytest.mark.parametrize("measure", MEASURES)
def test_line_search_finds_the_best_cut_point(measure):
    """The step found gives the impurity returned, and no cut point gives a lower one."""
    for current, direction, indicators in line_search_cases(150, seed=len(measure)):
        score, step = impurity.best_step(current, direction, indicators, measure)
        expected = brute_force(current, direction, indicators, measure)
        if math.isinf(expected):
            assert math.isinf(score)
            continue
        assert score == pytest.approx(expected, rel=1e-9, abs=1e-9)
        assert split_impurity(right_of(current, direction, step), indicators, measure) == \
            pytest.approx(score, rel=1e-9, abs=1e-9)


def test_a_hand_made_line_search():
    """Four rows on a line, classes 0 0 1 1 in the order of their crossings: the pure cut
    lies between the second and third crossing, at their midpoint."""
    current = np.array([-1.0, -2.0, -3.0, -4.0])
    direction = np.ones(4)                   # crossings at 1, 2, 3, 4
    indicators = class_indicators(np.array([1, 1, 0, 0]), np.ones(4), 2)
    for measure in MEASURES:
        assert impurity.best_step(current, direction, indicators, measure) == (0.0, 2.5)
    # a row moving the other way (direction < 0) is right until its crossing: row 2
    # (3 − t) is right for t < 3; for t in (2, 3) rows 0-2 (class 0) are right, row 3
    # (class 1) left: both sides pure; (3, 4) and beyond are not
    current = np.array([-1.0, -2.0, 3.0, -4.0])
    direction = np.array([1.0, 1.0, -1.0, 1.0])    # crossings 1, 2, 3, 4
    indicators = class_indicators(np.array([0, 0, 0, 1]), np.ones(4), 2)
    assert impurity.best_step(current, direction, indicators, "sum_minority") == (0.0, 2.5)
    # class 1 in row 2 instead: t in (3, 4) puts rows 0, 1 right and rows 2, 3 left,
    # both pure
    indicators = class_indicators(np.array([0, 0, 1, 1]), np.ones(4), 2)
    assert impurity.best_step(current, direction, indicators, "sum_minority") == (0.0, 3.5)


def test_no_row_moves_or_no_cut_point():
    indicators = class_indicators(np.array([0, 1, 1]), np.ones(3), 2)
    result = impurity.best_step(np.array([1.0, -1.0, 2.0]), np.zeros(3), indicators)
    assert np.isinf(result[0]) and np.isnan(result[1])
    # every moving row crosses at the same point: no midpoint between distinct crossings
    result = impurity.best_step(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0]),
                                indicators)
    assert np.isinf(result[0]) and np.isnan(result[1])


def test_unknown_measure_is_a_clear_error():
    indicators = class_indicators(np.array([0, 1]), np.ones(2), 2)
    with pytest.raises(ValueError, match="unknown impurity measure"):
        impurity.best_step(np.ones(2), np.ones(2), indicators, "entropy")


@pytest.mark.parametrize("measure", MEASURES)
def test_side_impurity_has_the_measures_known_values(measure):
    """The impurity of a given split (the kernel's :func:`~.kernels.side_impurity`) is
    the loop formula of OC1's Appendix B; both sides pure: 0; an empty side: inf."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        n, n_classes = int(rng.integers(4, 30)), int(rng.integers(2, 5))
        y = rng.integers(0, n_classes, n)
        values = rng.normal(size=n)
        indicators = class_indicators(y, np.ones(n), n_classes)
        total = indicators.sum(axis=1)
        classes, weights = kernels.row_classes(indicators)
        node = (classes, weights, total, kernels.MEASURE_CODES[measure],
                *node_constants(total))
        found = kernels.side_impurity(values, node, kernels.line_workspace(n, n_classes))
        left = list(indicators[:, values < 0].sum(axis=1))
        right = list(indicators[:, values >= 0].sum(axis=1))
        if sum(left) == 0 or sum(right) == 0:
            assert found == np.inf
        elif max(left) == sum(left) and max(right) == sum(right):
            assert found == 0
        else:
            with np.errstate(divide="ignore"):
                expected = LOOP[measure](np.array(left), np.array(right))
            if not 0 <= expected < 1e300:   # no goodness (twoing, gain): no separation
                assert found > 1e300
            else:
                assert found == pytest.approx(expected, rel=1e-9)


def test_known_values_of_a_split():
    """Left (3, 1), right (1, 3): the measures' values worked by hand."""
    indicators = class_indicators(np.array([0, 0, 0, 1, 0, 1, 1, 1]), np.ones(8), 2)
    values = np.array([-1.0, -1, -1, -1, 1, 1, 1, 1])
    total = indicators.sum(axis=1)
    expected = {"twoing": 1 / (0.25 * 1.0 ** 2 / 4),        # (½·½·(½ + ½)²/4)⁻¹
                "information_gain": 1 / (1 - (-(0.75 * math.log2(0.75)
                                                + 0.25 * math.log2(0.25)))),
                "gini": (4 - 10 / 4 + 4 - 10 / 4) / 8,      # 0.375
                "max_minority": 1.0, "sum_minority": 2.0,
                "sum_of_variances": 2 * (1 - 1 / 4)}        # each side: Σ cat² − (Σ cat)²/n
    for measure, value in expected.items():
        node = (*kernels.row_classes(indicators), total, kernels.MEASURE_CODES[measure],
                *node_constants(total))
        found = kernels.side_impurity(values, node, kernels.line_workspace(8, 2))
        assert found == pytest.approx(value, rel=1e-12), measure


def sort_cases(n, rng):
    """Crossings a line search meets: random, ties, sorted, reversed, all tied, organ
    pipe, nearly sorted, values a rounding apart (the same top bits: sorted by their
    true values after the radix sort), one narrow cluster (every value in one radix
    bucket: the introsort's case), both signs and zeros, infinities."""
    yield rng.normal(size=n)
    yield np.round(rng.normal(size=n))
    yield np.arange(n, dtype=float)
    yield np.arange(n, 0, -1.0)
    yield np.zeros(n)
    yield np.tile([1.0, 0.0], n // 2 + 1)[:n]
    yield np.concatenate([np.arange(n // 2), np.arange(n // 2, 0, -1)]).astype(float)
    nearly = np.arange(n, dtype=float)
    swaps = rng.integers(0, max(n - 1, 1), n // 10)
    nearly[swaps], nearly[np.minimum(swaps + 1, max(n - 1, 0))] = (
        nearly[np.minimum(swaps + 1, max(n - 1, 0))], nearly[swaps])
    yield nearly
    yield 1.0 + rng.integers(0, 50, n) * np.finfo(float).eps
    yield 1.0 + rng.random(n) * 1e-6
    yield rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, n)
    yield np.where(rng.random(n) < 0.2, -0.0, rng.normal(size=n))
    yield np.where(rng.random(n) < 0.1, np.inf,
                   np.where(rng.random(n) < 0.1, -np.inf, rng.normal(size=n)))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 16, 17, 63, 64, 65, 100, 569, 1000, 2000,
                               20000])
def test_sort_crossings_sorts_and_gives_the_rows(n):
    """:func:`~.kernels.sort_crossings` (the introsort below 64 crossings, the radix
    sort of the top bits then the runs of equal top bits from there on) gives the sorted
    values and their rows, and leaves the values as they were."""
    rng = np.random.default_rng(n)
    keys, digit_counts = kernels.line_workspace(max(n, 1), 1)[3:]
    for values in sort_cases(n, rng):
        size = len(values)      # the organ pipe: n rounded down to even
        original = values.copy()
        sorted_values, order = np.full(size, np.nan), np.full(size, -1)
        kernels.sort_crossings(values, sorted_values, order, size, keys, digit_counts)
        assert np.array_equal(values, original)
        assert np.array_equal(sorted_values, np.sort(values))
        assert np.array_equal(values[order], sorted_values)
        assert np.array_equal(np.sort(order), np.arange(size))


def test_sort_crossings_sorts_a_prefix_with_a_nan():
    """Only ``values[:size]`` is sorted; a NaN leaves its neighbours' order undefined but
    every row is kept."""
    rng = np.random.default_rng(1)
    values = rng.normal(size=300)
    keys, digit_counts = kernels.line_workspace(300, 1)[3:]
    sorted_values, order = np.zeros(300), np.zeros(300, dtype=np.int64)
    kernels.sort_crossings(values, sorted_values, order, 200, keys, digit_counts)
    assert np.array_equal(sorted_values[:200], np.sort(values[:200]))
    assert np.array_equal(values[order[:200]], sorted_values[:200])
    values[17] = np.nan
    kernels.sort_crossings(values, sorted_values, order, 300, keys, digit_counts)
    assert np.array_equal(np.sort(order), np.arange(300))


@pytest.mark.parametrize("measure", ["twoing", "gini"])
def test_line_search_of_many_rows_finds_the_best_cut_point(measure):
    """Nodes of 100–1,500 rows (the radix sort's sizes), values rounded to make ties and
    crossings a rounding apart: the brute-force best impurity, and the step gives it."""
    rng = np.random.default_rng(7)
    for case in range(6):
        n = int(rng.integers(100, 1500))
        y = rng.integers(0, 3, n)
        indicators = class_indicators(y, np.ones(n), 3)
        current = np.round(rng.normal(size=n), case % 3 + 1)
        direction = np.round(rng.normal(size=n), case % 2 + 1)
        if case == 5:   # crossings 1 + k·eps: a rounding apart
            direction = np.ones(n)
            current = -(1.0 + rng.integers(0, 40, n) * np.finfo(float).eps)
        score, step = impurity.best_step(current, direction, indicators, measure)
        expected = brute_force(current, direction, indicators, measure)
        assert score == pytest.approx(expected, rel=1e-9, abs=1e-9)
        assert split_impurity(right_of(current, direction, step), indicators, measure) == \
            pytest.approx(score, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 16, 17, 100, 1000, 20000])
def test_sort_pairs_sorts_and_carries_the_rows(n):
    rng = np.random.default_rng(n)
    for values in (rng.normal(size=n), np.round(rng.normal(size=n)),   # ties
                   np.arange(n, dtype=float), np.arange(n, 0, -1.0),   # sorted, reversed
                   np.zeros(n), np.tile([1.0, 0.0], n // 2 + 1)[:n],   # all tied, organ
                   np.concatenate([np.arange(n // 2), np.arange(n // 2, 0, -1)]).astype(float)):
        keys, order = values.copy(), np.arange(len(values))
        kernels.sort_pairs(keys, order, 0, len(values))
        assert np.array_equal(keys, np.sort(values))
        assert np.array_equal(values[order], keys)
        assert np.array_equal(np.sort(order), np.arange(len(values)))


def test_sort_pairs_with_infinities_and_a_nan():
    values = np.array([3.0, -np.inf, 1.0, np.inf, 2.0, -1.0] * 5)
    keys, order = values.copy(), np.arange(len(values))
    kernels.sort_pairs(keys, order, 0, len(values))
    assert np.array_equal(keys, np.sort(values))
    with_nan = values.copy()
    with_nan[7] = np.nan
    keys, order = with_nan.copy(), np.arange(len(values))
    kernels.sort_pairs(keys, order, 0, len(values))     # ends, every row kept
    assert np.array_equal(np.sort(order), np.arange(len(values)))
