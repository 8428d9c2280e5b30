"""OC1's threshold searches hold O(classes × rows) at a time, not
O(classes × rows × features); and the trees of OC1 and GDT are those recorded before the
memory work."""
import numpy as np
import pytest
from sklearn.datasets import make_classification

from orangecontrib.oblique.core import OC1Classifier
from orangecontrib.oblique.core.tree import impurity
from orangecontrib.oblique.core.tree.impurity import (MEASURES, best_axis_parallel,
                                                      best_thresholds, class_indicators,
                                                      evaluate_candidates, measure_code)

from tests.helpers import memory_reference
from tests.helpers.memory_reference import MB, traced_peak


# ----- no tree changed -----

@pytest.fixture(scope="module")
def recorded():
    return np.load(memory_reference.PATH), memory_reference.records()


def test_trees_are_those_recorded_before_the_change(recorded):
    """OC1 and GDT on iris, wine and breast cancer: the same shape, class counts, leaves,
    probabilities and decision paths as recorded, exactly; the same splits to their printed
    rounding."""
    saved, now = recorded
    assert sorted(saved.files) == sorted(now)
    for key in saved.files:
        if key.endswith(("/weights", "/bias")):
            # recorded as found; a split now takes its printed numbers (at least four
            # significant digits): the same splits to that rounding
            np.testing.assert_allclose(now[key], saved[key], rtol=1e-3,
                                       atol=1e-3 * np.abs(saved[key]).max(), err_msg=key)
        else:
            np.testing.assert_array_equal(now[key], saved[key], err_msg=key)


def _old_best_axis_parallel(X, indicators, measure="twoing"):
    """:func:`best_axis_parallel` as it was: every column at once."""
    order = np.argsort(X, axis=0, kind="stable")
    sorted_values = np.take_along_axis(X, order, axis=0)
    cumulative = np.cumsum(np.take(indicators, order.T, axis=1), axis=2)
    feature_index, row_index = np.nonzero((sorted_values[1:] > sorted_values[:-1]).T)
    if feature_index.size == 0:
        return np.inf, -1, np.nan
    flat = feature_index * cumulative.shape[2] + row_index
    left = np.take(cumulative.reshape(cumulative.shape[0], -1), flat, axis=1)
    scores = evaluate_candidates(measure_code(measure), left, indicators.sum(axis=1))
    best = int(np.argmin(scores))
    j, i = int(feature_index[best]), int(row_index[best])
    return float(scores[best]), j, float((sorted_values[i, j] + sorted_values[i + 1, j]) / 2)


def _old_best_thresholds(V, indicators, measure="twoing"):
    """:func:`best_thresholds` as it was: every column at once."""
    n_rows, n_columns = V.shape
    order = np.argsort(V, axis=0, kind="stable")
    sorted_values = np.take_along_axis(V, order, axis=0)
    cumulative = np.cumsum(np.take(indicators, order.T, axis=1), axis=2)
    column, row = np.nonzero((sorted_values[1:] > sorted_values[:-1]).T)
    impurities = np.full(n_columns, np.inf)
    thresholds = np.full(n_columns, np.nan)
    if column.size == 0:
        return impurities, thresholds
    left = np.take(cumulative.reshape(cumulative.shape[0], -1), column * n_rows + row, axis=1)
    scores = evaluate_candidates(measure_code(measure), left, indicators.sum(axis=1))
    by_score = np.lexsort((np.arange(scores.size), scores, column))
    first = by_score[np.r_[True, column[by_score][1:] != column[by_score][:-1]]]
    impurities[column[first]] = scores[first]
    thresholds[column[first]] = (sorted_values[row[first], column[first]]
                                 + sorted_values[row[first] + 1, column[first]]) / 2
    return impurities, thresholds


def _searched_data(seed, n_rows=60, n_columns=9, n_classes=4):
    """Columns with ties, a constant column and an exact duplicate (a tie of features),
    weighted rows of several classes."""
    rng = np.random.RandomState(seed)
    X = rng.randint(0, 6, size=(n_rows, n_columns)).astype(float)
    X[:, 2] = 1.5
    X[:, 5] = X[:, 3]
    X[:, -1] = rng.normal(size=n_rows)
    y = rng.randint(n_classes, size=n_rows)
    return X, class_indicators(y, rng.uniform(0.5, 2.0, n_rows), n_classes)


@pytest.mark.parametrize("measure", sorted(MEASURES))
@pytest.mark.parametrize("block_cells", [1, 100, 700, 10 ** 9])
def test_searches_by_blocks_choose_as_all_columns_at_once(monkeypatch, measure,
                                                          block_cells):
    monkeypatch.setattr(impurity, "BLOCK_CELLS", block_cells)
    for seed in range(4):
        X, indicators = _searched_data(seed)
        assert best_axis_parallel(X, indicators, measure) == _old_best_axis_parallel(
            X, indicators, measure)
        new, old = best_thresholds(X, indicators, measure), _old_best_thresholds(
            X, indicators, measure)
        np.testing.assert_array_equal(new[0], old[0])
        np.testing.assert_array_equal(new[1], old[1])
    constant = np.ones((5, 3))
    indicators = class_indicators(np.array([0, 1, 0, 1, 1]), np.ones(5), 2)
    assert best_axis_parallel(constant, indicators, measure)[1] == -1
    assert np.isinf(best_thresholds(constant, indicators, measure)[0]).all()


def _many_classes(n_rows=1000, n_features=300, n_classes=30):
    X, y = make_classification(n_samples=n_rows, n_features=n_features, n_informative=10,
                               n_redundant=0, n_classes=n_classes, n_clusters_per_class=1,
                               random_state=0)
    return X, y


def test_axis_parallel_search_memory_does_not_grow_with_classes_times_features():
    X, y = _many_classes()
    n_classes = int(y.max()) + 1
    indicators = class_indicators(y, np.ones(len(y)), n_classes)
    _, peak = traced_peak(lambda: best_axis_parallel(X, indicators))
    # before: (classes, features, rows) cumulative counts, several times over (~400 MB)
    per_block = 8 * max(n_classes * len(y), impurity.BLOCK_CELLS)
    assert peak < 2 * X.nbytes + 12 * per_block, peak / MB


def test_oc1_root_split_with_many_classes_holds_its_data_a_few_times():
    """The same at a modest size: 30 classes, 1,000 rows × 300 features (2.4 MB).
    Before: ~400 MB."""
    X, y = _many_classes()
    n_classes = int(y.max()) + 1
    learner = OC1Classifier(max_depth=1, n_restarts=1, n_random_jumps=1, random_state=0)
    model, peak = traced_peak(lambda: learner.fit(X, y))
    assert model.get_depth() == 1
    per_block = 8 * max(n_classes * len(y), impurity.BLOCK_CELLS)
    assert peak < 4 * X.nbytes + 12 * per_block, peak / MB
