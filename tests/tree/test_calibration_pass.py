"""The pass after growing (:meth:`~orangecontrib.oblique.core.tree.structure.ObliqueTree.
calibrate_text_and_scales`) and growing's step at a hyperplane: their results' properties.

Every printed rule routes every training row reaching its split exactly as the model
does, with the fewest digits that do; dropping negligible terms never moves a row; the
class counts grown are those of the training rows routed at predict time; the scales are
the weighted standard deviations of the rows at each split; rounding is the rule text's.
"""
import copy

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ObliqueForestClassifier,
                                        ODTSVMClassifier)
from orangecontrib.oblique.core.tree import kernels as pass_kernels
from orangecontrib.oblique.core.datasets import rotated_checkerboard
from orangecontrib.oblique.core.tree.splits import DIGITS, Split, round_significant
from orangecontrib.oblique.core.tree.structure import ObliqueTree

from tests.helpers.invariants import assert_tree_invariants


def trees_of(estimator):
    """The fitted trees of an estimator (one, or an ensemble's)."""
    if hasattr(estimator, "tree_"):
        return [estimator.tree_]
    return [member.tree_ for member in estimator.estimators_ if hasattr(member, "tree_")]


def assert_printed_rules_route_as_the_model(tree, X, calibrated=True, grown=None):
    """At every split, for the rows of ``X`` reaching it: the printed split
    (:meth:`Split.printed`, the numbers the text reads back as) sends every row where the
    split does, and (``calibrated``) one digit fewer would not have done for the split as
    grown (``grown``, the tree before calibration: a calibrated hyperplane takes its
    printed numbers, so rounding those again says nothing), unless the split has the
    least digits."""
    reached, _ = tree.route(X)
    checked = 0
    for node, split in enumerate(tree.splits):
        if split is None or not split.kind.prints_numbers:
            continue
        block = X[reached[node]]
        position = split.route(block)
        assert np.array_equal(split.printed().route(block), position), (
            f"node {node}: the printed rule routes a row elsewhere")
        digits = split.print_digits
        if calibrated and grown is not None and block.shape[0] and DIGITS < digits:
            before = grown.splits[node]   # as grown, less the terms calibration dropped
            before = before.copy(weights=np.where(split.weights == 0, 0.0, before.weights))
            fewer = before.printed(digits - 1)
            assert not np.array_equal(fewer.route(block), position), (
                f"node {node}: {digits - 1} digits would do")
        checked += block.shape[0]
    return checked


def assert_scales_are_the_rows_deviations(tree, X, sample_weight):
    """``feature_scales``: the weighted standard deviation, over the rows reaching a
    split, of every feature the split uses; 0 elsewhere."""
    reached, _ = tree.route(X)
    expected = np.zeros((tree.node_count, tree.n_features))
    for node, split in enumerate(tree.splits):
        rows = reached[node]
        if split is None or rows.size == 0 or sample_weight[rows].sum() <= 0:
            continue
        used = split.features_used
        mean = np.average(X[np.ix_(rows, used)], axis=0, weights=sample_weight[rows])
        variance = np.average((X[np.ix_(rows, used)] - mean) ** 2, axis=0,
                              weights=sample_weight[rows])
        expected[node, used] = np.sqrt(variance)
    np.testing.assert_allclose(tree.feature_scales, expected, rtol=1e-9, atol=1e-12)


# ----- whole fits -----

def data_sets():
    iris, wine, cancer = (loader(return_X_y=True)
                          for loader in (load_iris, load_wine, load_breast_cancer))
    weights = np.random.default_rng(1).uniform(0.1, 3, len(wine[1]))
    return {"iris": (*iris, None), "wine weighted": (*wine, weights),
            "breast cancer": (*cancer, None),
            "rotated checkerboard": (*rotated_checkerboard(n_samples=600, random_state=1),
                                     None)}


SETS = data_sets()
LEARNERS = {
    "GDT": lambda: GeometricTreeClassifier(),
    "GDT max_terms=2": lambda: GeometricTreeClassifier(max_terms=2),
    "OC1": lambda: OC1Classifier(n_restarts=5, random_state=0),
    "ODT-SVM": lambda: ODTSVMClassifier(random_state=0),
    "ODT-SVM one-vs-rest": lambda: ODTSVMClassifier(multiclass="one_vs_rest",
                                                    random_state=0),
}
FITS = [(learner, data) for learner in LEARNERS for data in SETS]


@pytest.mark.parametrize("learner, data", FITS, ids=[f"{a}-{b}" for a, b in FITS])
def test_fitted_trees_print_rules_that_route_as_the_model(learner, data):
    """Every learner's tree: its printed rules route every training row as the model
    does, with the fewest digits; its class counts are those of the training rows
    routed by the model; its scales are the rows' weighted deviations."""
    X, y, sample_weight = SETS[data]
    model = LEARNERS[learner]().fit(X, y, sample_weight=sample_weight)
    weights = np.ones(len(y)) if sample_weight is None else sample_weight
    tree = model.tree_
    assert_tree_invariants(tree)
    assert assert_printed_rules_route_as_the_model(tree, X) >= len(y)
    codes = np.searchsorted(model.classes_, y)
    recounted = tree.recounted(X, codes, weights)
    np.testing.assert_array_equal(recounted.value, tree.value)
    np.testing.assert_array_equal(recounted.n_node_samples, tree.n_node_samples)
    assert_scales_are_the_rows_deviations(tree, X, weights)


@pytest.mark.parametrize("make", [
    lambda: ObliqueForestClassifier(n_estimators=5, random_state=0),
    lambda: ObliqueForestClassifier(estimator=GeometricTreeClassifier(), n_estimators=3,
                                    random_state=0),
    lambda: HedgeEnsembleClassifier(n_estimators=3, random_state=0)],
    ids=["forest", "forest of GDT", "Hedge"])
def test_ensembles_trees_print_rules_that_route_as_the_model(make):
    X, y, _ = SETS["wine weighted"]
    model = make().fit(X, y)
    for tree in trees_of(model):
        assert_tree_invariants(tree)
        # a SPORF tree's splits are their own printed rules (digits not minimised)
        assert_printed_rules_route_as_the_model(tree, X, calibrated=False)


def test_a_recorded_tree():
    """GDT on iris: the recorded rule text (a change in growing, in the pass or in the
    rounding shows here)."""
    X, y = load_iris(return_X_y=True)
    text = GeometricTreeClassifier(max_depth=2).fit(X, y).export_text()
    assert text == RECORDED_IRIS_TEXT, text


RECORDED_IRIS_TEXT = (
    "|--- −0.1116·x1 − 0.613·x2 + 0.6768·x3 + 0.3921·x4 < −0.1315\n"
    "|   |--- class: 0 [50, 0, 0]\n"
    "|--- −0.1116·x1 − 0.613·x2 + 0.6768·x3 + 0.3921·x4 ≥ −0.1315\n"
    "|   |--- −0.1735·x1 − 0.3003·x2 + 0.247·x3 + 0.9048·x4 < 0.7798\n"
    "|   |   |--- class: 1 [0, 48, 2]\n"
    "|   |--- −0.1735·x1 − 0.3003·x2 + 0.247·x3 + 0.9048·x4 ≥ 0.7798\n"
    "|   |   |--- class: 2 [0, 2, 48]\n")


# ----- trees built to reach the pass's corners -----

def corner_rows(rng, n, d):
    """Columns of many magnitudes; integer (lattice) and dyadic columns, whose values
    and thresholds sit on halfway points of the rounding; a constant column."""
    X = rng.normal(size=(n, d)) * 10.0 ** rng.integers(-6, 7, size=d)
    if d > 1:
        X[:, 1] = rng.integers(0, 4, n)
    if d > 2:
        X[:, 2] = rng.integers(0, 64, n) / 16.0 + 1.0
    if d > 3:
        X[:, 3] = 5.0
    return X


def corner_split(rng, X, rows):
    """A hyperplane of one of several kinds, placed among the node's rows (or anywhere,
    for a node without rows)."""
    n, d = X.shape
    through = X[rng.choice(rows)] if len(rows) else X[rng.integers(n)]
    scale = 1.0 / (np.abs(X).max(axis=0) + 1.0)
    kind = rng.integers(6)
    if kind == 0:  # one feature, threshold on a halfway point or a row's value
        j = int(rng.integers(d))
        w = np.zeros(d)
        w[j] = rng.choice([1.0, -1.0, 0.37])
        threshold = rng.choice([1.0625, 1.03125, 2.5, 1000.5, through[j]])
        return Split.hyperplane(w, -w[j] * threshold)
    w = rng.normal(size=d) * scale
    if kind == 1 and d > 1:  # terms that are rounding noise on the node's rows
        w[rng.choice(d, max(1, d // 3), replace=False)] *= 1e-13
    if kind == 2 and d > 1:  # some features unused
        w[rng.choice(d, d // 2, replace=False)] = 0.0
    if kind == 3:  # weights on halfway points
        w = np.round(w * 16) / 16 + 1.0 / 32
    bias = -float(w @ through)
    if kind == 4:  # through a row: the printed rule needs all its digits
        return Split.hyperplane(w, bias)
    return Split.hyperplane(w, bias + rng.normal() * 1e-3 * abs(bias))


def corner_tree(rng, X, depth):
    """A tree of ``corner_split`` hyperplanes grown on the rows of ``X`` to ``depth``,
    with internal nodes that no row, or one row, reaches."""
    splits, children, parent = [], [], []

    def grow(rows, parent_id, level):
        node = len(splits)
        splits.append(None)
        children.append(())
        parent.append(parent_id)
        if level < depth and (len(rows) > 1 or rng.random() < 0.3):
            split = corner_split(rng, X, rows)
            position = split.route(X[rows]) if len(rows) else np.zeros(0, dtype=int)
            kids = [grow(rows[position == p], node, level + 1) for p in (0, 1)]
            splits[node], children[node] = split, tuple(kids)
        return node

    grow(np.arange(len(X)), -1, 0)
    count = len(splits)
    return ObliqueTree(X.shape[1], 2, splits, children, parent, np.ones((count, 2)),
                       np.zeros(count, dtype=int))


CORNERS = [(seed, n, d) for seed, (n, d) in enumerate(
    [(60, 1), (80, 2), (150, 3), (200, 5), (40, 12), (120, 33), (90, 40), (30, 70),
     (300, 4), (1, 3), (500, 2), (70, 6)] * 3)]


@pytest.mark.parametrize("seed, n, d", CORNERS)
def test_corner_trees_print_rules_that_route_as_the_model(seed, n, d):
    """Negligible terms, halfway points, planes through rows, nodes of no or one row,
    more than 32 weights: the printed rules route the rows as the model does with the
    fewest digits, the drop moves no row, the scales are the rows' deviations -- also
    calibrated on other rows than the tree's, and with the scales taken apart."""
    rng = np.random.default_rng(seed)
    X = corner_rows(rng, n, d)
    tree = corner_tree(rng, X, depth=int(rng.integers(1, 6)))
    weights = rng.uniform(0.1, 3, n) if seed % 2 else np.ones(n)
    before = tree.apply(X)
    one, two, three = (copy.deepcopy(tree) for _ in range(3))
    one.calibrate_text_and_scales(X, weights)
    two.calibrate_text(X).store_feature_scales(X, weights)
    for calibrated in (one, two):
        np.testing.assert_array_equal(calibrated.apply(X), before)
        assert_printed_rules_route_as_the_model(calibrated, X, grown=tree)
        assert_scales_are_the_rows_deviations(calibrated, X, weights)
    for split, other in zip(one.splits, two.splits):
        assert (split is None) == (other is None)
        if split is not None:
            np.testing.assert_array_equal(split.weights, other.weights)
            assert split.print_digits == other.print_digits
    three.calibrate_text(X[: n // 2])  # other rows than the tree's
    three.store_feature_scales(X[n // 2:])
    assert_printed_rules_route_as_the_model(three, X[: n // 2], grown=tree)
    np.testing.assert_array_equal(three.apply(X[: n // 2]), before[: n // 2])
    assert_scales_are_the_rows_deviations(three, X[n // 2:], np.ones(n - n // 2))


def test_corner_trees_reach_the_corners(monkeypatch):
    """The trees above drop terms, have more than 32 weights, need many digits (planes
    through rows) and leave roundings to :meth:`Split.calibrate_digits` (halfway
    points)."""
    seen = {"dropped": 0, "resumed": 0, "more than 32 weights": 0, "8 digits or more": 0}
    kernel = pass_kernels.calibration_pass

    def counting(*args):
        result = kernel(*args)
        seen["dropped"] += int(result[1].sum())
        seen["resumed"] += int(np.count_nonzero(result[3]))
        seen["more than 32 weights"] += args[0].shape[1] > 32
        return result

    monkeypatch.setattr(pass_kernels, "calibration_pass", counting)
    for seed, n, d in CORNERS:
        rng = np.random.default_rng(seed)
        X = corner_rows(rng, n, d)
        tree = corner_tree(rng, X, depth=int(rng.integers(1, 6))).calibrate_text(X)
        seen["8 digits or more"] += sum(split.print_digits >= 8
                                        for split in tree.splits if split is not None)
    assert all(seen.values()), seen


def test_a_tree_of_other_splits_is_calibrated_node_by_node():
    """A tree with a split that is not a hyperplane (an argmax) is calibrated by the
    splits' own methods: the same properties."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 3)) * [1e3, 1.0, 1e-3]
    argmax = Split("argmax", rng.normal(size=(3, 3)) / [1e3, 1.0, 1e-3], rng.normal(size=3))
    children = [(1, 2, 3)] + [()] * 3
    tree = ObliqueTree(3, 2, [argmax, None, None, None], children, [-1, 0, 0, 0],
                       np.ones((4, 2)), np.zeros(4, dtype=int))
    tree.calibrate_text_and_scales(X, np.ones(200))
    assert_printed_rules_route_as_the_model(tree, X)
    assert_scales_are_the_rows_deviations(tree, X, np.ones(200))


# ----- a hyperplane's values, growing's step and rounding -----

def test_hyperplane_values_are_the_affine_map():
    """:meth:`Split.values` of a hyperplane is ``X @ w + b`` up to rounding, and it
    routes as its values say (the one arithmetic of growing, the pass and prediction)."""
    rng = np.random.default_rng(5)
    for d in (1, 2, 3, 9, 40):
        X = rng.normal(size=(300, d)) * 10.0 ** rng.uniform(-3, 3, size=d)
        w = rng.normal(size=d)
        w[rng.random(d) < 0.3] = 0.0
        split = Split.hyperplane(w, rng.normal())
        values = split.values(X)[:, 0]
        magnitude = np.abs(X) @ np.abs(w) + abs(split.bias[0])
        assert np.all(np.abs(values - (X @ w + split.bias[0])) <= 1e-13 * magnitude)
        np.testing.assert_array_equal(split.route(X), (values >= 0).astype(int))
        np.testing.assert_array_equal(split.values(np.asfortranarray(X))[:, 0], values)


def test_hyperplane_partition_is_the_models_routing():
    """A node's sides (``grow_tree``'s step) are the rows :meth:`Split.route` sends left
    and right, in ascending order, and the children's counts are ``np.bincount``'s
    (fractional weights, many classes, one feature, planes through rows)."""
    rng = np.random.default_rng(4)
    for case in range(300):
        n, d, n_classes = (int(rng.integers(2, 400)), int(rng.integers(1, 12)),
                           int(rng.integers(1, 9)))
        X = np.round(rng.normal(size=(n, d)) * 10.0 ** rng.uniform(-3, 3, size=d),
                     int(rng.integers(0, 4)))
        y = rng.integers(0, n_classes, n)
        sample_weight = rng.uniform(0.1, 3, n) if case % 2 else np.ones(n)
        rows = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
        w = rng.normal(size=d)
        b = -float(X[rng.choice(rows)] @ w) if case % 3 == 0 else rng.normal()
        left, right, counts = pass_kernels.hyperplane_partition(X, rows, w, b, y,
                                                                sample_weight, n_classes)
        position = Split.hyperplane(w, b).route(X[rows]).astype(bool)
        np.testing.assert_array_equal(left, rows[~position])
        np.testing.assert_array_equal(right, rows[position])
        expected = np.bincount(y[rows] + n_classes * position, weights=sample_weight[rows],
                               minlength=2 * n_classes).reshape(2, n_classes)
        np.testing.assert_array_equal(counts, expected)


def rounding_cases(rng):
    """Random magnitudes, halfway points ``(N + ½)·10^k`` of every digit count, values
    at and beside every power of ten, zeros, infinities, NaN and subnormals."""
    yield rng.normal(size=4000) * 10.0 ** rng.uniform(-26, 26, 4000)
    for digits in range(4, 16):
        n = rng.integers(10 ** (digits - 1), 10 ** digits, 60).astype(float)
        for k in range(-4, 8, 3):
            yield (n + 0.5) / 10.0 ** k
            yield -(n + 0.5) * 10.0 ** k
    yield np.array([1.0625, 2.5, 0.125, 1234.5, 12345.0, 99995.0, 0.00012345, 1.00005,
                    9.9995, 0.99995, 999.95])
    for exponent in range(-25, 26):
        power = 10.0 ** exponent
        yield np.array([np.nextafter(power, 0), power, np.nextafter(power, np.inf),
                        -power] + [power * (1 + sign * 10.0 ** -j) for j in range(3, 17)
                                   for sign in (-1, 1)])
    yield np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1e-310, 1.7e308])


def same_floats(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return bool(np.all((np.isnan(a) & np.isnan(b))
                       | ((a == b) & (np.signbit(a) == np.signbit(b)))))


def test_rounding_is_the_printed_texts():
    """:func:`round_significant` of few numbers and of many (the kernel's arithmetic,
    :func:`~.pass_kernels.rounded_as_text`) is the float the printed text reads back as,
    ``float(f"{v:.{d-1}e}")``; the kernel decides most numbers itself and leaves the
    rest (halfway points, 16 or 17 digits) to the text."""
    rng = np.random.default_rng(0)
    decided = undecided = 0
    for values in rounding_cases(rng):
        for digits in (4, 5, 7, 9, 12, 13, 15, 16, 17):
            texts = [float(f"{v:.{digits - 1}e}") if np.isfinite(v) else v for v in values]
            padded = np.concatenate([values, np.ones(40)])  # many numbers at once
            assert same_floats(round_significant(padded, digits)[:len(values)], texts)
            assert same_floats(round_significant(values[:32], digits), texts[:32])
            rounded, exact = pass_kernels.rounded_as_text(values, digits)
            assert same_floats(rounded[exact], np.asarray(texts)[exact])
            decided += int(exact.sum())
            undecided += int((~exact).sum())
    assert decided > undecided > 0


def test_halfway_points_are_left_to_the_text():
    """A number whose scaled value is a half-integer is not rounded by the kernel (the
    exact product may lie on either side), nor are 16 or 17 digits."""
    assert pass_kernels.round_as_text(1.0625, 4) == (1.0625, False)  # 1062.5
    assert pass_kernels.round_as_text(0.1, 16)[1] is False
    assert pass_kernels.round_as_text(1.0625, 5) == (1.0625, True)
    assert pass_kernels.round_as_text(0.123456, 4) == (0.1235, True)
    assert pass_kernels.round_as_text(-0.0, 4)[0] == 0.0
    assert np.signbit(pass_kernels.round_as_text(-0.0, 4)[0])
