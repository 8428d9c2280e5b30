"""The pass after growing compiled (issue 16): :func:`~orangecontrib.oblique.core.kernels.
calibration_pass` gives the Python pass's results to the bit -- the same dropped
weights, printed digits, feature scales and rule text -- on whole fits of every learner
and on trees built to reach its corners (negligible terms, halfway roundings, planes
through rows, nodes of no or one row, more than 32 features); its rounding is the rule
text's, and its matrix products and sums are numpy's."""
import copy
import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ObliqueForestClassifier,
                                        ODTSVMClassifier, kernels, pass_kernels)
from orangecontrib.oblique.core.datasets import rotated_checkerboard
from orangecontrib.oblique.core.splits import Split, round_significant
from orangecontrib.oblique.core.tree import ObliqueTree

from .invariants import assert_identical_trees

needs_pass = pytest.mark.skipif(not (kernels.AVAILABLE and pass_kernels.PASS_AVAILABLE),
                                reason="numba or numpy's BLAS symbols are not available")


def trees_of(estimator):
    """The fitted trees of an estimator (one, or an ensemble's)."""
    if hasattr(estimator, "tree_"):
        return [estimator.tree_]
    return [member.tree_ for member in estimator.estimators_ if hasattr(member, "tree_")]


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
    "GDT pruned": lambda: GeometricTreeClassifier(pruning_portion=0.2, random_state=0),
    "GDT max_terms=2": lambda: GeometricTreeClassifier(max_terms=2),
    "OC1": lambda: OC1Classifier(random_state=0),
    "ODT-SVM": lambda: ODTSVMClassifier(random_state=0),
    "ODT-SVM one-vs-rest": lambda: ODTSVMClassifier(multiclass="one_vs_rest",
                                                    random_state=0),
    "forest": lambda: ObliqueForestClassifier(n_estimators=5, random_state=0),
    "forest of GDT": lambda: ObliqueForestClassifier(estimator=GeometricTreeClassifier(),
                                                     n_estimators=3, random_state=0),
    "forest of OC1": lambda: ObliqueForestClassifier(
        estimator=OC1Classifier(random_state=0), n_estimators=2, random_state=0),
    "Hedge": lambda: HedgeEnsembleClassifier(n_estimators=3, random_state=0),
}
SLOW = {("forest of OC1", "breast cancer"), ("forest of OC1", "rotated checkerboard"),
        ("OC1", "breast cancer"), ("Hedge", "breast cancer"),
        ("Hedge", "rotated checkerboard")}
FITS = [(learner, data) for learner in LEARNERS for data in SETS
        if (learner, data) not in SLOW]


@needs_pass
@pytest.mark.parametrize("learner, data", FITS, ids=[f"{a}-{b}" for a, b in FITS])
def test_fits_are_the_python_passes(monkeypatch, learner, data):
    """Every learner's fit with the compiled pass, with the Python pass
    (``PASS_AVAILABLE`` off) and with no kernels at all (``AVAILABLE`` off, as with
    ``OBLIQUE_NO_NUMBA=1``): the same trees, text and probabilities."""
    X, y, sample_weight = SETS[data]
    fits = []
    for switch in (None, "PASS_AVAILABLE", "AVAILABLE"):
        with monkeypatch.context() as patch:
            if switch is not None:
                patch.setattr(kernels, switch, False)
            fits.append(LEARNERS[learner]().fit(X, y, sample_weight=sample_weight))
    for other in fits[1:]:
        trees, other_trees = trees_of(fits[0]), trees_of(other)
        assert len(trees) == len(other_trees)
        for tree, other_tree in zip(trees, other_trees):
            assert_identical_trees(tree, other_tree)
        np.testing.assert_array_equal(fits[0].predict_proba(X), other.predict_proba(X))
        if hasattr(other, "tree_"):
            assert fits[0].export_text() == other.export_text()


@needs_pass
def test_the_compiled_pass_runs(monkeypatch):
    """The comparisons above compare something: GDT's and OC1's fits (all hyperplanes)
    take the compiled pass."""
    calls = []
    kernel = pass_kernels.calibration_pass
    monkeypatch.setattr(kernels, "calibration_pass",
                        lambda *args: (calls.append(args[0].shape), kernel(*args))[1])
    X, y, _ = SETS["wine weighted"]
    GeometricTreeClassifier().fit(X, y)
    OC1Classifier(random_state=0).fit(X, y)
    assert len(calls) == 2


def test_without_numba_semantics_in_a_new_process():
    """``OBLIQUE_NO_NUMBA=1`` (no kernels imported at all) prints the same rules and
    keeps the same scales as this process."""
    X, y = load_wine(return_X_y=True)
    expected = [(tree.export_text(), tree.feature_scales.tobytes().hex(),
                 [s.digits for s in tree.splits if s is not None])
                for tree in (GeometricTreeClassifier().fit(X, y).tree_,
                             OC1Classifier(random_state=0).fit(X, y).tree_)]
    script = ("import sys, pickle\n"
              "from sklearn.datasets import load_wine\n"
              "from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier,"
              " kernels\n"
              "assert not kernels.AVAILABLE\n"
              "X, y = load_wine(return_X_y=True)\n"
              "found = [(t.export_text(), t.feature_scales.tobytes().hex(),"
              " [s.digits for s in t.splits if s is not None]) for t in"
              " (GeometricTreeClassifier().fit(X, y).tree_,"
              " OC1Classifier(random_state=0).fit(X, y).tree_)]\n"
              "sys.stdout.write(repr(found))\n")
    environment = dict(os.environ, OBLIQUE_NO_NUMBA="1")
    output = subprocess.run([sys.executable, "-c", script], env=environment, check=True,
                            capture_output=True, text=True).stdout
    assert eval(output) == expected


# ----- trees built to reach the kernel's corners -----

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


@needs_pass
@pytest.mark.parametrize("seed, n, d", CORNERS)
def test_corner_trees_are_the_python_passes(monkeypatch, seed, n, d):
    rng = np.random.default_rng(seed)
    X = corner_rows(rng, n, d)
    tree = corner_tree(rng, X, depth=int(rng.integers(1, 6)))
    weights = rng.uniform(0.1, 3, n) if seed % 2 else np.ones(n)
    results = []
    for compiled in (True, False):
        with monkeypatch.context() as patch:
            patch.setattr(kernels, "PASS_AVAILABLE", compiled)
            one, two, three = (copy.deepcopy(tree) for _ in range(3))
            one.calibrate_text_and_scales(X, weights)
            two.calibrate_text(X).store_feature_scales(X, weights)
            three.calibrate_text(X[: n // 2])  # other rows than the tree's
            three.store_feature_scales(X[n // 2:])
            results.append((one, two, three))
    for compiled, python in zip(*results):
        assert_identical_trees(compiled, python)


@needs_pass
def test_corner_trees_reach_the_corners(monkeypatch):
    """The trees above drop terms, leave digits to the Python code (halfway points, all
    17 digits) and round more than 32 weights the vectorised way."""
    seen = {"dropped": 0, "resumed": 0, "wide": 0}
    kernel = pass_kernels.calibration_pass

    def counting(*args):
        result = kernel(*args)
        seen["dropped"] += int(result[1].sum())
        seen["resumed"] += int(np.count_nonzero(result[3]))
        seen["wide"] += args[0].shape[1] > 32
        return result

    monkeypatch.setattr(kernels, "calibration_pass", counting)
    for seed, n, d in CORNERS:
        rng = np.random.default_rng(seed)
        X = corner_rows(rng, n, d)
        corner_tree(rng, X, depth=int(rng.integers(1, 6))).calibrate_text(X)
    assert all(seen.values()), seen


# ----- rounding, products and sums -----

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


def same_float(a, b):
    return (np.isnan(a) and np.isnan(b)) or (a == b and np.signbit(a) == np.signbit(b))


@needs_pass
def test_rounding_is_the_printed_texts():
    """Wherever :func:`~.kernels.round_as_text` rounds (it says so), the number is the
    float the printed text reads back as, ``float(f"{v:.{d-1}e}")``; wherever
    :func:`~.kernels.round_as_numpy` rounds, it is ``round_significant``'s vectorised
    result (more than 32 numbers).  Most numbers are rounded; the rest go to the Python
    code."""
    rng = np.random.default_rng(0)
    counts = {"text": 0, "text left": 0, "numpy": 0, "numpy left": 0}
    wrong = []
    for values in rounding_cases(rng):
        for digits in (4, 5, 7, 9, 12, 13, 15, 16, 17):
            texts = [float(f"{v:.{digits - 1}e}") if np.isfinite(v) else v for v in values]
            padded = np.concatenate([values, np.ones(40)])  # the vectorised path
            vectorised = round_significant(padded, digits)[:len(values)]
            for value, text, numpy_value in zip(values, texts, vectorised):
                rounded, exact = pass_kernels.round_as_text(value, digits)
                counts["text" if exact else "text left"] += 1
                if exact and not same_float(rounded, text):
                    wrong.append(("text", value, digits, rounded, text))
                if digits <= 12:
                    rounded, exact = pass_kernels.round_as_numpy(value, digits,
                                                            pass_kernels.NUMPY_POWERS_EXACT)
                    counts["numpy" if exact else "numpy left"] += 1
                    if exact and not same_float(rounded, numpy_value):
                        wrong.append(("numpy", value, digits, rounded, numpy_value))
    assert not wrong, wrong[:5]
    assert counts["text"] > counts["text left"]  # the halfway points and 16-17 digits left
    assert counts["numpy"] > counts["numpy left"]  # and powers of ten, beyond 10^±22


@needs_pass
def test_halfway_points_are_left_to_python():
    """A number whose scaled value is a half-integer is not rounded by the kernel (the
    exact product may lie on either side), nor are 16 or 17 digits."""
    assert pass_kernels.round_as_text(1.0625, 4) == (1.0625, False)  # 1062.5
    assert pass_kernels.round_as_text(0.1, 16)[1] is False
    assert pass_kernels.round_as_text(1.0625, 5) == (1.0625, True)
    assert pass_kernels.round_as_text(0.123456, 4) == (0.1235, True)
    assert pass_kernels.round_as_text(-0.0, 4)[0] == 0.0
    assert np.signbit(pass_kernels.round_as_text(-0.0, 4)[0])


@needs_pass
def test_products_and_sums_are_numpys():
    """``X[rows] @ w.T``, ``row_weights @ block`` and ``row_weights.sum()`` to the bit,
    for every shape the pass meets (one row, one column, blocks of BLAS kernels'
    sizes)."""
    rng = np.random.default_rng(2)
    for m in (1, 2, 3, 7, 8, 9, 16, 17, 127, 128, 129, 300, 1025, 2500):
        for d in (1, 2, 3, 4, 5, 9, 13, 33, 80):
            X = rng.normal(size=(m, d)) * 10.0 ** rng.uniform(-5, 5, size=d)
            w = rng.normal(size=(1, d)) * 10.0 ** rng.uniform(-3, 3, size=d)
            row_weights = rng.uniform(0.1, 3, m)
            out = np.empty(m)
            pass_kernels.numpy_matvec(X, w[0].copy(), out)
            np.testing.assert_array_equal(out, (X @ w.T)[:, 0])
            out = np.empty(d)
            pass_kernels.numpy_vecmat(row_weights, X, out)
            np.testing.assert_array_equal(out, row_weights @ X)
            assert pass_kernels.numpy_sum(row_weights) == row_weights.sum()
    for n in range(0, 1100, 7):
        values = rng.uniform(0, 1, n) * 10.0 ** rng.uniform(-8, 8, n)
        assert pass_kernels.numpy_sum(values) == values.sum()


@needs_pass
def test_hyperplane_partition_is_grow_trees_numpy_step():
    """A node's sides and its children's class counts (``grow_tree``'s compiled step):
    the rows of ``X[rows] @ w + b < 0`` and ``≥ 0`` in ascending order, and the counts
    ``np.bincount`` gives, to the bit (fractional weights, many classes, one feature,
    planes through rows)."""
    rng = np.random.default_rng(4)
    for case in range(300):
        n, d, n_classes = int(rng.integers(2, 400)), int(rng.integers(1, 12)), \
            int(rng.integers(1, 9))
        X = np.round(rng.normal(size=(n, d)) * 10.0 ** rng.uniform(-3, 3, size=d),
                     int(rng.integers(0, 4)))
        y = rng.integers(0, n_classes, n)
        sample_weight = rng.uniform(0.1, 3, n) if case % 2 else np.ones(n)
        rows = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
        w = rng.normal(size=d)
        b = -float(X[rng.choice(rows)] @ w) if case % 3 == 0 else rng.normal()
        left, right, counts = pass_kernels.hyperplane_partition(X, rows, w, b, y, sample_weight,
                                                          n_classes)
        position = X[rows] @ w + b >= 0
        np.testing.assert_array_equal(left, rows[~position])
        np.testing.assert_array_equal(right, rows[position])
        expected = np.bincount(y[rows] + n_classes * position, weights=sample_weight[rows],
                               minlength=2 * n_classes).reshape(2, n_classes)
        np.testing.assert_array_equal(counts, expected)
