"""GDT's eigendecompositions made once (issue 16): dsyev's steps called one by one
(:func:`~orangecontrib.oblique.core.kernels.symmetric_eigen_first` and
:func:`~orangecontrib.oblique.core.kernels.symmetric_eigen_then`) give scipy's ``dsyev``
to the bit, so that a screen by eigenvalues shares its reduction with the decomposition
with vectors; H whitened by G is screened as G is, and no eigenvectors are computed of a
matrix the screen shows rank deficient; the null-space method's nullity is read from the
eigenvalues alone only where the count is clear.  The trees are unchanged (and the same
in numpy's code, :mod:`test_geometric_speed`)."""
import inspect

import numpy as np
import pytest
from scipy.linalg.lapack import dsyev

from orangecontrib.oblique.core import GeometricTreeClassifier, gdt_kernels, kernels
from orangecontrib.oblique.core import geometric
from orangecontrib.oblique.core.geometric import RankHistory

from .test_geometric_speed import assert_identical_trees, one_hot_set

needs_numba = pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")


def matrices():
    """Symmetric matrices of several sizes: PSD, rank deficient (one-hot Gram), not
    symmetric (the upper triangle is read), zero, and scaled so that dsyev scales them
    (its own call then)."""
    rng = np.random.default_rng(7)
    for size in (1, 2, 3, 9, 26, 41):
        A = rng.normal(size=(size + 3, size))
        yield A.T @ A
        B = rng.normal(size=(max(size // 2, 1), size))
        yield B.T @ B  # rank deficient
        C = A.T @ A
        C[0, -1] += 0.5
        yield C
        yield np.zeros((size, size))
        yield A.T @ A * 1e-150
        yield A.T @ A * 1e150
    X, _ = one_hot_set()
    Z = np.hstack([X, np.ones((len(X), 1))])
    yield Z.T @ Z / len(Z)


@needs_numba
@pytest.mark.parametrize("index", range(len(list(matrices()))))
def test_dsyev_in_steps_is_scipys_dsyev(index):
    matrix = list(matrices())[index]
    values, info, reduced, diagonal, work, direct = gdt_kernels.symmetric_eigen_first(matrix)
    expected_values, _, expected_info = dsyev(matrix, compute_v=0)
    assert info == expected_info
    np.testing.assert_array_equal(values, expected_values)
    values, vectors, info = gdt_kernels.symmetric_eigen_then(matrix, reduced, diagonal, work,
                                                         direct)
    expected_values, expected_vectors, expected_info = dsyev(matrix)
    assert info == expected_info
    np.testing.assert_array_equal(values, expected_values)
    np.testing.assert_array_equal(vectors, expected_vectors)


@needs_numba
def test_screened_eigen_computes_no_vectors_of_a_deficient_matrix():
    rng = np.random.default_rng(1)
    B = rng.normal(size=(5, 12))
    deficient = B.T @ B
    deficient_found, _, vectors, _ = gdt_kernels._screened_eigen(deficient, 1e-6, True)
    assert deficient_found and vectors.shape == (0, 0)
    A = rng.normal(size=(30, 12))
    full = A.T @ A
    found, values, vectors, info = gdt_kernels._screened_eigen(full, 1e-6, True)
    expected_values, expected_vectors, _ = dsyev(full)
    assert not found and info == 0
    np.testing.assert_array_equal(values, expected_values)
    np.testing.assert_array_equal(vectors, expected_vectors)
    # unscreened: dsyev with vectors, also of a deficient matrix
    found, _, vectors, _ = gdt_kernels._screened_eigen(deficient, 1e-6, False)
    assert not found and vectors.shape == (12, 12)


@needs_numba
def test_clear_null_count_is_the_count_with_vectors():
    """Where the eigenvalues alone give a count, dsyev's eigenvalues with vectors give the
    same; near the threshold no count (-1)."""
    rng = np.random.default_rng(2)
    counted = 0
    for trial in range(200):
        size = int(rng.integers(2, 40))
        B = rng.normal(size=(int(rng.integers(1, size + 5)), size))
        matrix = B.T @ B
        values, _, info = dsyev(matrix, compute_v=0)
        count = gdt_kernels._clear_null_count(values, info, geometric.RANK_TOLERANCE)
        with_vectors = dsyev(matrix)[0]
        if count >= 0:
            counted += 1
            assert count == gdt_kernels._null_count(with_vectors, geometric.RANK_TOLERANCE)
    assert counted > 150
    values = np.array([1e-9 * 0.9, 0.5, 1.0])  # near 1e-9 · λ_max
    assert gdt_kernels._clear_null_count(values, 0, 1e-9) == -1
    assert gdt_kernels._clear_null_count(np.array([1e-20, 0.5, 1.0]), 0, 1e-9) == 1
    assert gdt_kernels._clear_null_count(np.array([1e-20, 0.5, 1.0]), 1, 1e-9) == -1


def test_no_vectors_of_a_clearly_deficient_matrix(monkeypatch):
    """numpy's code with the screen at every node: neither G nor H whitened by G is
    decomposed with eigenvectors in an attempt where its eigenvalues alone show it rank
    deficient (before issue 16's change H always was, one-hot data: at every node)."""
    decompositions = {"with vectors": 0, "wasted": 0}

    def counting(matrix, compute_v=1):
        if compute_v and inspect.stack()[1].function == "_symmetric_eigen" \
                and inspect.stack()[2].function == "_full_rank_directions":
            decompositions["with vectors"] += 1
            tolerance = inspect.stack()[2].frame.f_locals["tolerance"]
            values = dsyev(matrix, compute_v=0)[0]
            if values[0] <= 0.5 * tolerance * max(values[-1], geometric._TINY):
                decompositions["wasted"] += 1
        return dsyev(matrix, compute_v=compute_v)

    monkeypatch.setattr(kernels, "AVAILABLE", False)
    monkeypatch.setattr(geometric, "_dsyev", counting)
    monkeypatch.setattr(RankHistory, "screen", lambda self, attempt, size: True)
    X, y = one_hot_set()
    GeometricTreeClassifier().fit(X, y)
    assert decompositions["with vectors"] > 0
    assert decompositions["wasted"] == 0


@pytest.mark.parametrize("compiled", [True, False] if kernels.AVAILABLE else [False])
def test_screens_change_no_tree(monkeypatch, compiled):
    """The screens everywhere and nowhere (the compiled within-range nullity always
    screened): the same trees on the one-hot set, compiled and in numpy's code."""
    monkeypatch.setattr(kernels, "AVAILABLE", compiled)
    X, y = one_hot_set()
    rng = np.random.default_rng(4)
    Xw = rng.normal(size=(60, 90))  # the row span
    yw = (Xw[:, 0] > 0).astype(int) + (Xw[:, 1] > 0.5)
    for data in ((X, y), (Xw, yw)):
        fits = []
        for screen in (True, False):
            monkeypatch.setattr(RankHistory, "screen",
                                lambda self, attempt, size, screen=screen: screen)
            fits.append(GeometricTreeClassifier().fit(*data))
        assert_identical_trees(fits[0].tree_, fits[1].tree_)


def test_singular_by_rows_counts_the_rows_of_each_group():
    """G is singular when S+ has fewer rows of positive weight than its size, H when S−
    has."""
    positive = np.array([True, True, True, False, False])
    assert not geometric.singular_by_rows(positive, None, 2)
    assert geometric.singular_by_rows(positive, None, 3)        # S−: 2 rows < 3
    weights = np.array([1.0, 0.0, 2.0, 0.5, 3.0])
    assert geometric.singular_by_rows(positive, weights, 3)     # S+: 2 weighted rows
    assert not geometric.singular_by_rows(positive, weights, 2)
    assert geometric.singular_by_rows(positive, np.array([1.0, 1, 1, 0, 0]), 1)


def wide_set():
    """More columns than rows in S− (and the row span below the root): the full-rank
    attempts cannot succeed at any node."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(70, 40))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0.4).astype(int)
    return X, y


def load_breast_cancer_head():
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True)
    return X[:200], y[:200]


def test_no_full_rank_attempt_where_rows_are_too_few(monkeypatch):
    """numpy's code: where S+ or S− has fewer rows than G's size, neither full-rank attempt
    is made (before, both were, at every such node: two to four decompositions whose
    answer could only be "rank deficient"); elsewhere they are."""
    attempts, singular_nodes = [], []
    full_rank_directions = geometric._full_rank_directions
    singular_by_rows = geometric.singular_by_rows

    def recording_attempt(G, H, tolerance, screen=False):
        attempts.append(len(G))
        return full_rank_directions(G, H, tolerance, screen)

    def recording_count(positive, weights, size):
        singular_nodes.append(singular_by_rows(positive, weights, size))
        return singular_nodes[-1]

    monkeypatch.setattr(kernels, "AVAILABLE", False)
    monkeypatch.setattr(geometric, "_full_rank_directions", recording_attempt)
    monkeypatch.setattr(geometric, "singular_by_rows", recording_count)
    GeometricTreeClassifier().fit(*wide_set())
    assert len(singular_nodes) > 3 and all(singular_nodes)
    assert attempts == []
    X, y = load_breast_cancer_head()
    GeometricTreeClassifier().fit(X, y)
    assert not all(singular_nodes)
    assert len(attempts) >= singular_nodes.count(False)


@needs_numba
def test_compiled_row_count_is_singular_by_rows():
    """gdt_kernels._singular_by_rows, which gdt_kernels.gdt_node uses, is
    geometric.singular_by_rows: with unit weights and with weights, zeros among them."""
    rng = np.random.default_rng(8)
    for _ in range(300):
        n = int(rng.integers(1, 12))
        positive = rng.random(n) < rng.random()
        weights = rng.integers(0, 3, n) * rng.uniform(0.5, 2, n)
        for size in range(0, 8):
            assert (gdt_kernels._singular_by_rows(positive, np.ones(n), True, size)
                    == geometric.singular_by_rows(positive, None, size))
            assert (gdt_kernels._singular_by_rows(positive, weights, False, size)
                    == geometric.singular_by_rows(positive, weights, size))


@pytest.mark.parametrize("compiled", [True, False] if kernels.AVAILABLE else [False])
def test_skipping_the_attempts_changes_no_tree(monkeypatch, compiled):
    """With the attempts made at every node, as before (``singular_by_rows`` always
    False), and skipped where the rows are too few: the same trees to the bit, on the
    one-hot set, the wide set and breast cancer, with and without weights."""
    monkeypatch.setattr(kernels, "AVAILABLE", compiled)
    X_cancer, y_cancer = load_breast_cancer_head()
    for X, y in (one_hot_set(), wide_set(), (X_cancer, y_cancer)):
        weights = np.random.default_rng(6).uniform(0.5, 2.0, len(y))
        for sample_weight in (None, weights):
            skipping = GeometricTreeClassifier().fit(X, y, sample_weight=sample_weight)
            with monkeypatch.context() as always_attempting:
                always_attempting.setattr(geometric, "singular_by_rows",
                                          lambda positive, weights, size: False)
                # the node's steps one by one (gdt_kernels.gdt_node decides in the kernel)
                always_attempting.setattr(kernels, "gdt_node", lambda *args: (
                    3, np.empty(0), 0.0, False, -1))
                attempting = GeometricTreeClassifier().fit(X, y, sample_weight=sample_weight)
            assert_identical_trees(skipping.tree_, attempting.tree_)


@needs_numba
def test_compiled_split_without_attempts_is_the_same_split():
    """:func:`gdt_kernels.gdt_node_split` with ``singular`` True at nodes whose S− has fewer
    rows than columns: the split, G, H and the attempts' record as with the attempts made
    (they fail)."""
    rng = np.random.default_rng(8)
    checked = 0
    for trial in range(40):
        d = int(rng.integers(3, 30))
        n_negative = int(rng.integers(1, d + 1))
        n_positive = int(rng.integers(d + 2, 3 * d + 4))
        Z = np.hstack([rng.normal(size=(n_positive + n_negative, d)),
                       np.ones((n_positive + n_negative, 1))])
        positive = np.arange(len(Z)) < n_positive
        assert geometric.singular_by_rows(positive, None, d + 1)
        weights = np.ones(len(Z))
        results = [gdt_kernels.gdt_node_split(Z, positive, weights, True, float(n_positive),
                                          float(n_negative), geometric.WELL_CONDITIONED,
                                          geometric.RANK_TOLERANCE, False, False, 10.0,
                                          singular)
                   for singular in (True, False)]
        assert results[0][0] == results[1][0]
        for a, b in zip(results[0][1:4], results[1][1:4]):
            np.testing.assert_array_equal(a, b)
        assert results[0][4:] == results[1][4:] == (False, 0)
        checked += results[0][0] == 1
    assert checked > 20
