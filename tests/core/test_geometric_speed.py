"""GDT's faster fit (issue 16) grows the same trees: the compiled split
(:func:`~orangecontrib.oblique.core.kernels.gdt_node_split` and, at a node with fewer rows
than columns, :func:`~orangecontrib.oblique.core.kernels.gdt_row_span_split`) bit for bit
as the numpy code, the eigenvalue screening of
:class:`~orangecontrib.oblique.core.geometric.RankHistory` without effect on the result,
and the one-pass calibration and feature scales of
:meth:`~orangecontrib.oblique.core.tree.ObliqueTree.calibrate_text_and_scales` as the two
passes."""
import copy

import numpy as np
import pytest
from scipy.linalg.lapack import dsyev
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from orangecontrib.oblique.core import (GeometricTreeClassifier, OC1Classifier,
                                        ODTSVMClassifier, gdt_kernels, kernels)
from orangecontrib.oblique.core.datasets import (checkerboard_4x4, rotated_checkerboard,
                                                 synthetic_10d)
from orangecontrib.oblique.core.geometric import (RankHistory, clustering_hyperplanes,
                                                  row_span_hyperplanes)

from .invariants import assert_identical_trees

needs_numba = pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")


def one_hot_set():
    """Every attribute one-hot encoded, as Orange's Continuize does: the columns of an
    attribute add up to the bias column, so G and H are rank deficient at every node
    (the path of Section II-B), and a few rows per class give nodes with fewer rows than
    columns (the row span)."""
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 4, size=(240, 5))
    X = np.hstack([np.eye(4)[codes[:, j]] for j in range(5)])
    y = (codes[:, 0] + codes[:, 1] + rng.integers(0, 2, 240)) % 3
    return X, y


def cases():
    """(name, X, y, sample_weight, parameters): every path of GDT's split."""
    iris, wine, cancer = (loader(return_X_y=True)
                          for loader in (load_iris, load_wine, load_breast_cancer))
    rng = np.random.default_rng(0)
    yield "iris", *iris, None, {}
    yield "wine weighted", *wine, rng.uniform(0.1, 3, len(wine[1])), {}
    yield "cancer whole-number weights", *cancer, rng.integers(0, 4, len(cancer[1])) * 1.0, {}
    yield "cancer max_terms=3", *cancer, None, {"max_terms": 3}
    yield "wine not standardised", *wine, None, {"standardize": False}
    yield "checkerboard 4x4", *checkerboard_4x4(n_samples=600, random_state=0), None, {}
    yield "10-d set", *synthetic_10d(n_samples=600, random_state=0), None, {}
    yield "rotated checkerboard", *rotated_checkerboard(n_samples=600, random_state=1), \
        None, {}
    yield "one-hot", *one_hot_set(), None, {}
    X = rng.normal(size=(40, 60))
    yield "wide", X, (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1), None, {}


CASES = list(cases())


def lapack_failed(*args):
    """gdt_kernels.gdt_node's answer when LAPACK fails: the splitter then takes the steps one
    by one."""
    return 3, np.empty(0), 0.0, False, -1


#: The other ways to the same trees: numpy's code, and the compiled steps one by one
#: instead of gdt_kernels.gdt_node's one call a node.
OTHER_PATHS = {"numpy": ("AVAILABLE", False), "steps": ("gdt_node", lapack_failed)}


@needs_numba
@pytest.mark.parametrize("path", sorted(OTHER_PATHS))
@pytest.mark.parametrize("name, X, y, sample_weight, parameters", CASES,
                         ids=[case[0] for case in CASES])
def test_compiled_fit_is_numpys_to_the_bit(monkeypatch, name, X, y, sample_weight,
                                           parameters, path):
    compiled = GeometricTreeClassifier(**parameters).fit(X, y, sample_weight)
    with monkeypatch.context() as patch:
        patch.setattr(kernels, *OTHER_PATHS[path])
        other = GeometricTreeClassifier(**parameters).fit(X, y, sample_weight)
    assert_identical_trees(compiled.tree_, other.tree_)


@needs_numba
def test_the_kernels_run(monkeypatch):
    """The comparison above compares something: the compiled paths are taken, in one
    kernel call per node (``gdt_node``), and one by one where that call reports LAPACK
    failing."""
    calls = []
    names = {"gdt_node", "gdt_node_split", "gdt_row_span", "gdt_row_span_split",
             "gdt_raw_hyperplane"}
    for name in names:
        kernel = getattr(kernels, name)
        monkeypatch.setattr(kernels, name,
                            lambda *args, kernel=kernel, name=name: (calls.append(name),
                                                                     kernel(*args))[1])
    for _, X, y, sample_weight, parameters in CASES:
        GeometricTreeClassifier(**parameters).fit(X, y, sample_weight)
    assert "gdt_node" in calls
    calls.clear()
    monkeypatch.setattr(kernels, "gdt_node", lapack_failed)
    for _, X, y, sample_weight, parameters in CASES:
        GeometricTreeClassifier(**parameters).fit(X, y, sample_weight)
    assert set(calls) == names - {"gdt_node"}


@needs_numba
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("data", ["one-hot", "wide", "cancer"])
def test_one_kernel_call_a_node_on_random_nodes(data, weighted):
    """At 60 random nodes (full and row span, screened or not): the same split and the
    same rank history as the steps."""
    from orangecontrib.oblique.core.geometric import GeometricSplitter
    from orangecontrib.oblique.core.preprocessing import Standardisation
    if data == "one-hot":
        X, y = one_hot_set()
    elif data == "wide":
        X = np.random.default_rng(1).normal(size=(40, 60))
        y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    else:
        X, y = load_breast_cancer(return_X_y=True)
    rng = np.random.default_rng(2)
    weights = rng.uniform(0.2, 3, len(y)) if weighted else np.ones(len(y))
    standardisation = Standardisation.from_rows(X, weights)
    augmented = np.hstack([standardisation.transform(X), np.ones((len(X), 1))])
    one_call = GeometricSplitter(augmented, y, weights, standardisation)
    steps = GeometricSplitter(augmented, y, weights, standardisation)
    for node in range(60):
        size = int(rng.integers(3, len(y) + 1))
        rows = np.sort(rng.choice(len(y), size, replace=False))
        counts = np.bincount(y[rows], weights[rows], minlength=y.max() + 1)
        if np.count_nonzero(counts) < 2:
            continue
        a = one_call(rows, counts, 0)
        b = steps._split_in_steps(rows, counts, None)
        assert (a is None) == (b is None), node
        if a is not None:
            np.testing.assert_array_equal(a.weights, b.weights)
            np.testing.assert_array_equal(a.bias, b.bias)
        np.testing.assert_array_equal(one_call.rank_history.full_rank,
                                      steps.rank_history.full_rank)
        np.testing.assert_array_equal(one_call.rank_history.rank_deficient,
                                      steps.rank_history.rank_deficient)


@needs_numba
@pytest.mark.parametrize("size", [1, 3, 9, 26])
def test_symmetric_eigen_is_scipys_dsyev(size):
    rng = np.random.default_rng(size)
    A = rng.normal(size=(size + 5, size))
    matrix = A.T @ A
    matrix[0, -1] += 1e-3  # not symmetric: both read the same (upper) triangle
    for with_vectors in (True, False):
        values, vectors, info = gdt_kernels.symmetric_eigen(matrix, with_vectors)
        expected_values, expected_vectors, expected_info = dsyev(matrix,
                                                                 compute_v=with_vectors)
        assert info == expected_info == 0
        np.testing.assert_array_equal(values, expected_values)
        if with_vectors:
            np.testing.assert_array_equal(vectors, expected_vectors)


@needs_numba
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (40, 3), (57, 26), (200, 11)])
def test_gram_is_numpys_product(shape):
    """``A.T @ A`` to the bit for C-ordered rows (numpy's dsyrk), and its value for
    column-major ones (max_terms' refit picks columns; numpy's code runs there)."""
    A = np.random.default_rng(shape[0]).normal(size=shape)
    np.testing.assert_array_equal(gdt_kernels.gram(A), A.T @ A)
    np.testing.assert_allclose(gdt_kernels.gram(np.asfortranarray(A)), A.T @ A, rtol=1e-12,
                               atol=1e-12 * shape[0])


@pytest.mark.parametrize("name, X, y, sample_weight, parameters",
                         [case for case in CASES if case[0] in ("one-hot", "10-d set",
                                                                 "wine weighted")],
                         ids=["wine weighted", "10-d set", "one-hot"])
def test_screening_by_eigenvalues_changes_nothing(monkeypatch, name, X, y, sample_weight,
                                                  parameters):
    """G screened by its eigenvalues alone at every node of size ≥ 1, and at none: the
    same trees (the screen only decides where the full test would fail anyway)."""
    fits = []
    for smallest in (1, 10 ** 6):
        monkeypatch.setattr(RankHistory, "SMALLEST_SCREENED", smallest)
        monkeypatch.setattr(RankHistory, "screen",
                            lambda self, attempt, size: size >= self.SMALLEST_SCREENED)
        fits.append(GeometricTreeClassifier(**parameters).fit(X, y, sample_weight))
    assert_identical_trees(fits[0].tree_, fits[1].tree_)


@pytest.mark.parametrize("estimator", [GeometricTreeClassifier(),
                                       OC1Classifier(random_state=0),
                                       ODTSVMClassifier(random_state=0)],
                         ids=["GDT", "OC1", "ODT-SVM"])
def test_one_pass_calibration_is_the_two_passes(estimator):
    X, y = load_wine(return_X_y=True)
    weights = np.random.default_rng(1).uniform(0.5, 2, len(y))
    tree = estimator.fit(X, y, weights).tree_
    for split in tree.splits:  # as grown, before the fit's calibration
        if split is not None:
            split.digits = None
    one, two = copy.deepcopy(tree), copy.deepcopy(tree)
    one.calibrate_text_and_scales(X, weights)
    two.calibrate_text(X).store_feature_scales(X, weights)
    assert_identical_trees(one, two)


@needs_numba
def test_public_solvers_compiled_are_numpys_to_the_bit(monkeypatch):
    """``clustering_hyperplanes`` and ``row_span_hyperplanes`` (outside a fit: the tests',
    and the splitter's where LAPACK fails) give numpy's hyperplanes when compiled."""
    X, y = one_hot_set()
    Z = np.hstack([X, np.ones((len(X), 1))])
    rows = np.arange(0, len(X), 13)  # 19 rows, 21 columns: the row span
    found = {}
    for compiled in (True, False):
        monkeypatch.setattr(kernels, "AVAILABLE", compiled)
        positive = y == 0
        G = Z[positive].T @ Z[positive] / positive.sum()
        H = Z[~positive].T @ Z[~positive] / (~positive).sum()
        span_positive = y[rows] == 0
        found[compiled] = (clustering_hyperplanes(G, H)
                           + row_span_hyperplanes(Z[rows], span_positive, np.ones(len(rows)),
                                                  float(span_positive.sum()),
                                                  float((~span_positive).sum())))
    for compiled_w, numpy_w in zip(found[True], found[False]):
        np.testing.assert_array_equal(compiled_w, numpy_w)
