"""The compiled line search (:mod:`~orangecontrib.oblique.core.kernels`) gives bit for bit
the numpy line search's impurity and step on whole-number weights, for every measure."""
import numpy as np
import pytest

from orangecontrib.oblique.core import impurity, kernels
from orangecontrib.oblique.core.impurity import node_constants

pytestmark = pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")


def line_search_cases(n_cases, seed):
    """Random nodes: 2–80 rows, 1–6 classes, weights 1–3, values rounded to make ties,
    directions with zeros (rows that never move) and with one sign only."""
    rng = np.random.default_rng(seed)
    for case in range(n_cases):
        n, n_classes = int(rng.integers(2, 80)), int(rng.integers(1, 7))
        y = rng.integers(0, n_classes, n)
        weights = rng.integers(1, 4, n).astype(float)
        indicators = impurity.class_indicators(y, weights, n_classes)
        current = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        direction = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        if case % 3 == 0:
            direction[rng.random(n) < 0.3] = 0.0
        if case % 4 == 0:
            direction = np.abs(direction)
        yield current, direction, indicators


@pytest.mark.parametrize("measure", sorted(kernels.MEASURE_CODES))
def test_same_step_as_numpy(measure):
    mismatches = []
    for current, direction, indicators in line_search_cases(400, seed=len(measure)):
        total = indicators.sum(axis=1)
        expected = impurity.best_step(current, direction, indicators, measure, total,
                                      compiled=False)
        found = kernels.best_step(current, direction, indicators, total,
                                  kernels.MEASURE_CODES[measure], *node_constants(total))
        if not np.array_equal(expected, found, equal_nan=True):
            mismatches.append((expected, found))
    assert not mismatches, mismatches[:3]


def test_no_row_moves():
    indicators = impurity.class_indicators(np.array([0, 1, 1]), np.ones(3), 2)
    total = indicators.sum(axis=1)
    result = kernels.best_step(np.array([1.0, -1.0, 2.0]), np.zeros(3), indicators, total,
                               0, *node_constants(total))
    assert np.isinf(result[0]) and np.isnan(result[1])


def test_best_step_uses_the_kernel_and_agrees():
    """``impurity.best_step`` calls the kernel by default: the same result as without."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 60)
    indicators = impurity.class_indicators(y, np.ones(60), 3)
    current, direction = rng.normal(size=60), rng.normal(size=60)
    for measure in kernels.MEASURE_CODES:
        assert impurity.best_step(current, direction, indicators, measure) == \
            impurity.best_step(current, direction, indicators, measure, compiled=False)


@pytest.mark.parametrize("impurity_name", ["twoing", "information_gain", "sum_of_variances"])
def test_oc1_grows_the_same_tree_compiled_or_not(monkeypatch, impurity_name):
    """Whole OC1 fits: the compiled line search changes no split (the numpy code runs
    with ``kernels.AVAILABLE`` off)."""
    from sklearn.datasets import load_wine
    from orangecontrib.oblique.core import OC1Classifier
    from orangecontrib.oblique.core.datasets import checkerboard_4x4
    for X, y in (load_wine(return_X_y=True), checkerboard_4x4(600, random_state=0)):
        params = dict(impurity=impurity_name, n_restarts=5, random_state=0)
        compiled = OC1Classifier(**params).fit(X, y)
        monkeypatch.setattr(kernels, "AVAILABLE", False)
        plain = OC1Classifier(**params).fit(X, y)
        monkeypatch.setattr(kernels, "AVAILABLE", True)
        assert compiled.export_text() == plain.export_text()
        assert compiled.tree_.splits == plain.tree_.splits


# ----- numpy's argsort in the line search (issue 16) -----

def test_the_line_search_sorts_with_numpy_argsort():
    """numpy 2's float64 argsorts are found in its C API table (numba's quicksort took
    70 % of a line search) and order values, ties, infinities and NaN as ``np.argsort``
    (the quicksort) and ``np.argsort(kind="stable")``."""
    import numba
    assert kernels.NUMPY_ARGSORT, "numpy's argsort slot was not found"
    assert kernels.NUMPY_STABLE_ARGSORT, "numpy's stable argsort slot was not found"

    @numba.njit
    def numpy_argsort(values):
        order = np.arange(values.shape[0])
        kernels._numpy_argsort(values.ctypes, order.ctypes, values.shape[0], values.ctypes)
        return order

    rng = np.random.default_rng(3)
    for case in range(300):
        n = int(rng.integers(1, 700))
        values = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        if case % 4 == 0:
            values[rng.random(n) < 0.1] = -np.inf
        if case % 5 == 0:
            values[rng.random(n) < 0.1] = np.nan
        assert np.array_equal(numpy_argsort(values), np.argsort(values))
        order = np.empty(n, dtype=np.intp)
        kernels.stable_argsort(values, order)
        assert np.array_equal(order, np.argsort(values, kind="stable"))


@pytest.mark.parametrize("measure", sorted(kernels.MEASURE_CODES))
def test_side_impurity_is_the_numpy_impurity(measure):
    """The starting impurity of a compiled local search is ``split_impurity``'s number,
    to the bit, with whole-number weights and fewer than 8 classes."""
    from orangecontrib.oblique.core.oc1 import OC1Splitter
    splitter = OC1Splitter.__new__(OC1Splitter)
    splitter.measure = measure
    mismatches = []
    for current, _, indicators in line_search_cases(300, seed=7 + len(measure)):
        total = indicators.sum(axis=1)
        classes, weights = kernels.row_classes(indicators)
        expected = splitter.split_impurity(current, indicators)
        found = kernels.side_impurity(current, classes, weights, total,
                                      kernels.MEASURE_CODES[measure],
                                      *node_constants(total),
                                      *kernels.line_workspace(len(current), len(total)))
        if not (expected == found or (np.isinf(expected) and np.isinf(found))):
            mismatches.append((expected, found))
    assert not mismatches, mismatches[:3]


def test_numbas_sort_stands_in_with_the_same_trees(tmp_path):
    """Without numpy's argsorts (``OBLIQUE_NUMBA_ARGSORT=1``) numba's sorts run through
    the same symbols: the same OC1 trees (whole-number weights) and forest trees."""
    import os
    import subprocess
    import sys
    from sklearn.datasets import load_wine
    from orangecontrib.oblique.core import OC1Classifier, ObliqueForestClassifier
    script = (
        "import sys, numpy as np\n"
        "from sklearn.datasets import load_wine\n"
        "from orangecontrib.oblique.core import (OC1Classifier, ObliqueForestClassifier,\n"
        "                                        kernels)\n"
        "X, y = load_wine(return_X_y=True)\n"
        "tree = OC1Classifier(random_state=2).fit(X, y).tree_\n"
        "forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)\n"
        "np.save(sys.argv[1], np.concatenate(\n"
        "    [[kernels.NUMPY_ARGSORT, kernels.NUMPY_STABLE_ARGSORT]]\n"
        "    + [np.append(s.weights.ravel(), s.bias) for t in [tree] + [\n"
        "       e.tree_ for e in forest.estimators_] for s in t.splits if s is not None]))\n")
    output = tmp_path / "splits.npy"
    environment = dict(os.environ, OBLIQUE_NUMBA_ARGSORT="1")
    subprocess.run([sys.executable, "-c", script, str(output)], env=environment,
                   check=True, timeout=600)
    found = np.load(output)
    X, y = load_wine(return_X_y=True)
    tree = OC1Classifier(random_state=2).fit(X, y).tree_
    forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    expected = np.concatenate([np.append(s.weights.ravel(), s.bias) for t in
                               [tree] + [e.tree_ for e in forest.estimators_]
                               for s in t.splits if s is not None])
    assert list(found[:2]) == [0.0, 0.0]       # numba's sorts ran in the subprocess
    assert np.array_equal(found[2:], expected)
