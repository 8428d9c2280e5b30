"""Geometric Decision Tree (Manwani & Sastry): the split of Section II and the estimator."""
import copy
import warnings

import numpy as np
import pytest
import scipy.linalg
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import StratifiedKFold, cross_val_score

from orangecontrib.oblique.core import (GeometricTreeClassifier, OC1Classifier,
                                        ODTSVMClassifier)
from orangecontrib.oblique.core.datasets import (checkerboard_2x2, checkerboard_4x4,
                                                 synthetic_10d)
from orangecontrib.oblique.core.geometric.kernels import angle_bisectors, binary_gini
from orangecontrib.oblique.core.geometric.classifier import clustering_hyperplanes

from tests.helpers.invariants import (assert_identical_trees, assert_pickles,
                                      assert_refits_identically, assert_same_tree,
                                      assert_training_rows_consistent, assert_tree_invariants,
                                      route_by_hand)


# ----- helpers -----

def scatter_matrices(positive_rows, negative_rows):
    """``G = AᵀA / n+`` and ``H = BᵀB / n−`` for the augmented rows (Section II-A)."""
    A = np.hstack([positive_rows, np.ones((len(positive_rows), 1))])
    B = np.hstack([negative_rows, np.ones((len(negative_rows), 1))])
    return A.T @ A / len(A), B.T @ B / len(B)


def assert_parallel(u, v, atol=1e-6):
    """``u`` and ``v`` are the same direction up to sign and scale."""
    cosine = abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))
    assert cosine == pytest.approx(1, abs=atol), f"{u} is not parallel to {v}"


def assert_unit_normal(w):
    assert np.linalg.norm(w[:-1]) == pytest.approx(1)


def rayleigh(matrix, w):
    return w @ matrix @ w / (w @ w)


def expected_clustering_direction(G, H, rcond=1e-9):
    """w̃1 of Section II-B computed independently with scipy: within the range of G + H,
    the generalized eigenvector of the largest λ of ``H w = λ G w`` when G is definite
    there, otherwise the principal eigenvector of H restricted to null(G).

    Returns (w, max_value, in_null_space)."""
    R = scipy.linalg.orth(G + H, rcond=rcond)
    G_r, H_r = R.T @ G @ R, R.T @ H @ R
    N = scipy.linalg.null_space(G_r, rcond=rcond)
    if N.shape[1] == 0:
        values, vectors = scipy.linalg.eigh(H_r, G_r)
        return R @ vectors[:, -1], values[-1], False
    Q = R @ N
    values, vectors = scipy.linalg.eigh(Q.T @ H @ Q)
    return Q @ vectors[:, -1], values[-1], True


def gini_loop(goes_right, positive, weights):
    """Eq. (6), one candidate and one row at a time."""
    result = []
    total = sum(weights)
    for column in range(goes_right.shape[1]):
        gini = 0.0
        for side in (0, 1):
            n_side = n_pos = 0.0
            for row in range(len(weights)):
                if goes_right[row, column] == side:
                    n_side += weights[row]
                    n_pos += weights[row] * positive[row]
            if n_side > 0:
                p_pos, p_neg = n_pos / n_side, (n_side - n_pos) / n_side
                gini += n_side / total * (1 - p_pos ** 2 - p_neg ** 2)
        result.append(gini)
    return np.array(result)


def leaf_stop(counts, parent_counts, epsilon1, epsilon2):
    """Algorithm 2's leaf test, written out from the paper: η1 < ε1 with S+ (the parent's
    majority class) in the majority, or η2 ≥ ε2."""
    n = counts.sum()
    reference = np.argmax(counts if parent_counts is None else parent_counts)
    n_plus, n_minus = counts[reference], n - counts[reference]
    return (min(n_plus, n_minus) / n < epsilon1 and n_minus < n_plus
            or counts.max() / n >= epsilon2)


def parent_value(tree, node):
    return None if tree.parent[node] < 0 else tree.value[tree.parent[node]]


# ----- clustering hyperplanes (Eqs. 1-3) -----

class TestClusteringHyperplanes:
    @pytest.mark.parametrize("seed", range(5))
    def test_full_rank_matches_generalized_eigenproblem(self, seed):
        rng = np.random.default_rng(seed)
        d = rng.integers(2, 8)
        G, H = scatter_matrices(rng.normal(size=(50, d)),
                                rng.normal(loc=1.0, scale=2.0, size=(70, d)))
        values, vectors = scipy.linalg.eigh(H, G)   # ascending λ of H w = λ G w
        w1, w2 = clustering_hyperplanes(G, H)
        assert_parallel(w1, vectors[:, -1])
        assert_parallel(w2, vectors[:, 0])
        assert_unit_normal(w1)
        assert_unit_normal(w2)
        # w1 minimises wᵀGw / wᵀHw (Eq. 1), w2 maximises it (Eq. 2)
        assert w1 @ G @ w1 / (w1 @ H @ w1) == pytest.approx(1 / values[-1])
        assert w2 @ G @ w2 / (w2 @ H @ w2) == pytest.approx(1 / values[0])

    def test_fewer_positive_rows_than_features(self):
        """G rank deficient, H definite: w̃1 lies in null(G) and maximises wᵀHw there."""
        rng = np.random.default_rng(1)
        G, H = scatter_matrices(rng.normal(size=(3, 6)), rng.normal(size=(40, 6)))
        assert np.linalg.matrix_rank(G) == 3
        w1, w2 = clustering_hyperplanes(G, H)
        assert np.linalg.norm(G @ w1) < 1e-9 * np.linalg.norm(w1)
        expected, best, in_null = expected_clustering_direction(G, H)
        assert in_null
        assert rayleigh(H, w1) == pytest.approx(best, rel=1e-9)
        assert_parallel(w1, expected)
        # w̃2 maximises wᵀGw / wᵀHw with H definite: the largest μ of G w = μ H w
        values, vectors = scipy.linalg.eigh(G, H)
        assert_parallel(w2, vectors[:, -1])

    def test_fewer_negative_rows_than_features(self):
        """H rank deficient, G definite: the roles swap for w̃2."""
        rng = np.random.default_rng(2)
        G, H = scatter_matrices(rng.normal(size=(40, 5)), rng.normal(size=(2, 5)))
        w1, w2 = clustering_hyperplanes(G, H)
        assert np.linalg.norm(H @ w2) < 1e-9 * np.linalg.norm(w2)
        expected, best, in_null = expected_clustering_direction(H, G)
        assert in_null
        assert rayleigh(G, w2) == pytest.approx(best, rel=1e-9)
        values, vectors = scipy.linalg.eigh(H, G)
        assert_parallel(w1, vectors[:, -1])

    def test_both_rank_deficient(self):
        """Both G and H deficient (2 + 3 rows in 8 dimensions): w̃1 lies in null(G) within
        the range of G + H and maximises wᵀHw there."""
        rng = np.random.default_rng(3)
        G, H = scatter_matrices(rng.normal(size=(2, 8)), rng.normal(size=(3, 8)))
        w1, w2 = clustering_hyperplanes(G, H)
        R = scipy.linalg.orth(G + H)
        assert R.shape[1] == 5
        for w, own, other in ((w1, G, H), (w2, H, G)):
            assert np.all(np.isfinite(w))
            assert np.linalg.norm(own @ w) < 1e-9 * np.linalg.norm(w)
            assert np.linalg.norm(w - R @ (R.T @ w)) < 1e-9 * np.linalg.norm(w)
            expected, best, in_null = expected_clustering_direction(own, other)
            assert in_null
            assert rayleigh(other, w) == pytest.approx(best, rel=1e-9)

    @staticmethod
    def redundant_case(make_column, seed):
        """Two classes in 3 informative features plus one redundant column."""
        rng = np.random.default_rng(seed)
        P = rng.normal(size=(30, 3))
        N = rng.normal(loc=0.7, size=(45, 3))
        full = [np.column_stack([X, make_column(X)]) for X in (P, N)]
        return (P, N), full

    @pytest.mark.parametrize("make_column", [
        pytest.param(lambda X: X[:, 0], id="duplicated column"),
        pytest.param(lambda X: 2 * X[:, 0] - X[:, 1], id="collinear columns"),
        pytest.param(lambda X: 2 * X[:, 0] - X[:, 1] + 3, id="affine combination"),
        pytest.param(lambda X: np.full(len(X), 3.0), id="constant column"),
        pytest.param(lambda X: np.zeros(len(X)), id="zero column"),
    ])
    def test_redundant_column_gives_the_hyperplanes_of_the_reduced_problem(self, make_column):
        """A direction where G and H both vanish carries no information: the hyperplanes
        are those of the problem without the redundant column, as functions on the data."""
        (P, N), (P_full, N_full) = self.redundant_case(make_column, 4)
        G, H = scatter_matrices(P_full, N_full)
        assert np.linalg.matrix_rank(G) == np.linalg.matrix_rank(H) == 4
        reduced = clustering_hyperplanes(*scatter_matrices(P, N))
        full = clustering_hyperplanes(G, H)
        Z_full = np.hstack([np.vstack([P_full, N_full]), np.ones((75, 1))])
        Z = np.hstack([np.vstack([P, N]), np.ones((75, 1))])
        for w_full, w_reduced in zip(full, reduced):
            assert np.all(np.isfinite(w_full))
            assert_unit_normal(w_full)
            # no weight along the common null direction of G and H
            assert np.linalg.norm((G + H) @ w_full) > 1e-6
            assert_parallel(Z_full @ w_full, Z @ w_reduced)

    def test_duplicated_column_shares_the_weight(self):
        (P, N), (P_full, N_full) = self.redundant_case(lambda X: X[:, 0], 5)
        for w in clustering_hyperplanes(*scatter_matrices(P_full, N_full)):
            assert w[0] == pytest.approx(w[3])

    def test_no_non_bias_direction_gives_none(self):
        """All rows identical after centring: only the bias direction is informative."""
        G, H = scatter_matrices(np.zeros((5, 3)), np.zeros((4, 3)))
        assert clustering_hyperplanes(G, H) == (None, None)

    def test_relative_rank_tolerance(self):
        """Rank is judged relative to the size of the matrices, not against 0: scaling G
        and H by the same factor changes nothing."""
        rng = np.random.default_rng(6)
        G, H = scatter_matrices(rng.normal(size=(3, 4)), rng.normal(size=(30, 4)))
        reference = clustering_hyperplanes(G, H)
        for factor in (1e-12, 1e-6, 1e6, 1e12):
            for w, w_ref in zip(clustering_hyperplanes(G * factor, H * factor), reference):
                assert_parallel(w, w_ref, atol=1e-9)

    @pytest.mark.parametrize("scale, shift", [([1.0, 1.0], [0.0, 0.0]),
                                              ([10.0, 0.1], [0.0, 0.0]),
                                              ([1e3, 1e-3], [0.0, 0.0]),
                                              ([1.0, 1.0], [10.0, -10.0]),
                                              ([1.0, 1.0], [100.0, -100.0]),
                                              ([1.0, 1.0], [1000.0, -1000.0])])
    def test_feature_units_do_not_change_the_hyperplanes(self, scale, shift):
        """For full-rank G and H, ``H w = λ G w`` is covariant under a change of feature
        units ``x' = s x + t`` (``w = Dv`` with an invertible D): the clustering
        hyperplanes of rescaled or shifted features are the same hyperplanes."""
        rng = np.random.default_rng(8)
        P, N = rng.normal(size=(40, 2)), rng.normal(loc=0.5, scale=1.5, size=(50, 2))
        scale, shift = np.array(scale), np.array(shift)
        reference = clustering_hyperplanes(*scatter_matrices(P, N))
        G, H = scatter_matrices(P * scale + shift, N * scale + shift)
        assert np.linalg.matrix_rank(G) == np.linalg.matrix_rank(H) == 3
        Z = np.hstack([np.vstack([P, N]), np.ones((90, 1))])
        Z_moved = np.hstack([np.vstack([P, N]) * scale + shift, np.ones((90, 1))])
        for w, w_ref in zip(clustering_hyperplanes(G, H), reference):
            assert w is not None
            assert_parallel(Z_moved @ w, Z @ w_ref)


# ----- angle bisectors (Eqs. 4-5) -----

class TestAngleBisectors:
    def test_bisectors_halve_the_angle_and_pass_through_the_intersection(self):
        rng = np.random.default_rng(0)
        for _ in range(10):
            w1, w2 = rng.normal(size=3), rng.normal(size=3)
            w1, w2 = w1 / np.linalg.norm(w1[:2]), w2 / np.linalg.norm(w2[:2])
            bisectors = angle_bisectors(w1, w2)
            assert len(bisectors) == 2
            point = np.linalg.solve(np.array([w1[:2], w2[:2]]), -np.array([w1[2], w2[2]]))
            aligned = w2 if w1[:2] @ w2[:2] >= 0 else -w2
            np.testing.assert_allclose(bisectors[0], w1 + aligned)
            np.testing.assert_allclose(bisectors[1], w1 - aligned)
            for b in bisectors:
                assert b[:2] @ point + b[2] == pytest.approx(0, abs=1e-9)
                normal = b[:2] / np.linalg.norm(b[:2])
                assert abs(normal @ w1[:2]) == pytest.approx(abs(normal @ w2[:2]))
            # the two bisectors are perpendicular
            assert bisectors[0][:2] @ bisectors[1][:2] == pytest.approx(0, abs=1e-9)

    def test_sign_alignment(self):
        w1 = np.array([1.0, 0.0, 0.0])
        w2 = np.array([-np.sqrt(0.5), -np.sqrt(0.5), 0.2])   # w1·w2 < 0: flipped first
        first, second = angle_bisectors(w1, w2)
        np.testing.assert_allclose(first, w1 - w2)
        np.testing.assert_allclose(second, w1 + w2)

    @pytest.mark.parametrize("w2", [np.array([-1.0, 0.0, 3.0]),    # x = 3, opposite sign
                                    np.array([1.0, 0.0, -3.0])])   # x = 3, same sign
    def test_parallel_hyperplanes_give_only_the_midway_hyperplane(self, w2):
        w1 = np.array([1.0, 0.0, -1.0])                                # x = 1
        bisectors = angle_bisectors(w1, w2)
        assert len(bisectors) == 1
        assert_parallel(bisectors[0], np.array([1.0, 0.0, -2.0]))    # x = 2

    def test_identical_hyperplanes(self):
        w = np.array([0.6, 0.8, -0.5])
        bisectors = angle_bisectors(w, w.copy())
        assert len(bisectors) == 1
        assert_parallel(bisectors[0], w)


# ----- Gini index (Eq. 6) -----

def kernel_gini(goes_right, positive, weights):
    """The kernel's Gini index of the candidates (columns) of ``goes_right``: a row goes
    right when its value is at least ``-slack``."""
    values = np.where(goes_right > 0, 0.0, -1.0)
    gini, n_right = binary_gini(values, positive, weights, 1e-9)
    np.testing.assert_array_equal(n_right, goes_right.sum(axis=0))
    return gini


class TestBinaryGini:
    @pytest.mark.parametrize("seed", range(4))
    def test_matches_loop(self, seed):
        rng = np.random.default_rng(seed)
        n = 40
        goes_right = (rng.random((n, 5)) < [0.0, 0.3, 0.5, 0.9, 1.0]).astype(float)
        positive = rng.random(n) < 0.4
        weights = rng.uniform(0.1, 3.0, n) if seed % 2 else np.ones(n)
        np.testing.assert_allclose(kernel_gini(goes_right, positive, weights),
                                   gini_loop(goes_right, positive, weights))

    def test_known_values(self):
        positive = np.array([True, True, False, False])
        goes_right = np.array([[0, 1, 0], [0, 0, 0], [1, 1, 0], [1, 0, 0]], dtype=float)
        np.testing.assert_allclose(kernel_gini(goes_right, positive, np.ones(4)),
                                   [0.0, 0.5, 0.5])

    def test_rows_within_the_slack_go_right(self):
        values = np.array([[-1e-10], [-1e-8], [0.0], [2.0]])
        gini, n_right = binary_gini(values, np.array([True, False, True, True]), np.ones(4),
                                    1e-9)
        assert n_right[0] == 3
        assert gini[0] == pytest.approx(0.0)      # {−1e-8} | {−1e-10, 0, 2}: pure sides


# ----- the node's split: the better angle bisector (Section II, Algorithm 1) -----

def unit_bisectors(w1, w2):
    """The two angle bisectors of Eqs. 4-5, computed here: each clustering hyperplane
    scaled to a unit non-bias part, the signs aligned."""
    w1, w2 = w1 / np.linalg.norm(w1[:-1]), w2 / np.linalg.norm(w2[:-1])
    if w1[:-1] @ w2[:-1] < 0:
        w2 = -w2
    return w1 + w2, w1 - w2


class TestSplitIsTheBetterBisector:
    @staticmethod
    def two_classes(seed):
        """Two Gaussian classes in 3 dimensions with different covariances (G and H of
        full rank, two distinct clustering hyperplanes)."""
        rng = np.random.default_rng(seed)
        P = rng.normal(size=(120, 3)) @ rng.normal(size=(3, 3))
        N = rng.normal(loc=2.0, size=(90, 3)) @ rng.normal(size=(3, 3))
        X = np.vstack([P, N])
        y = np.r_[np.zeros(len(P), int), np.ones(len(N), int)]
        return X, y

    @pytest.mark.parametrize("seed", range(6))
    def test_root_split_is_the_bisector_of_lower_gini(self, seed):
        """The root split (raw units, no standardisation) is the angle bisector, of the
        two hyperplanes of ``H w̃ = λ G w̃`` (Eq. 3, solved here by scipy), with the lower
        Gini index (Eq. 6, written out here)."""
        X, y = self.two_classes(seed)
        Z = np.hstack([X, np.ones((len(X), 1))])
        positive = y == 0                                  # the majority class is S+
        G, H = scatter_matrices(X[positive], X[~positive])
        vectors = scipy.linalg.eigh(H, G)[1]
        bisectors = unit_bisectors(vectors[:, -1], vectors[:, 0])
        goes_right = np.column_stack([Z @ b >= 0 for b in bisectors]).astype(float)
        gini = gini_loop(goes_right, positive, np.ones(len(y)))
        assert abs(gini[0] - gini[1]) > 1e-3
        better, worse = np.argsort(gini)
        split = fit(X, y, standardize=False, max_depth=1).tree_.splits[0]
        chosen = np.append(split.weights[0], split.bias[0])
        assert_parallel(chosen, bisectors[better], atol=1e-8)
        routed = (Z @ chosen >= 0).astype(float)[:, None]
        assert gini_loop(routed, positive, np.ones(len(y)))[0] == pytest.approx(gini[better])
        assert gini[better] < gini[worse]

    def test_parallel_clustering_hyperplanes_give_the_midway_split(self):
        """Two classes in parallel slabs (the clustering hyperplanes are parallel): the
        split is the hyperplane midway between them, parallel to both."""
        rng = np.random.default_rng(3)
        x = np.r_[rng.uniform(-1, 1, 200), rng.uniform(-1, 1, 200)]
        X = np.column_stack([x, np.r_[np.full(200, 0.0), np.full(200, 1.0)]
                             + 0.01 * rng.normal(size=400)])
        y = np.r_[np.zeros(200, int), np.ones(200, int)]
        split = fit(X, y, standardize=False, max_depth=1).tree_.splits[0]
        assert abs(split.weights[0, 1]) == pytest.approx(1, abs=1e-2)
        assert -split.bias[0] / split.weights[0, 1] == pytest.approx(0.5, abs=0.05)

    def test_fewer_rows_than_features_give_a_bisector_split(self):
        """Section II-B at the root of 3 + 3 rows in 10 dimensions (G and H rank
        deficient, the node solved within the span of its rows): a finite split, an angle
        bisector of the null-space hyperplanes of the dense G and H."""
        rng = np.random.default_rng(4)
        X = rng.normal(size=(6, 10))
        y = np.array([0, 1, 0, 1, 0, 1])
        split = fit(X, y, standardize=False, max_depth=1).tree_.splits[0]
        assert split is not None
        chosen = np.append(split.weights[0], split.bias[0])
        assert np.all(np.isfinite(chosen))
        w1, w2 = clustering_hyperplanes(*scatter_matrices(X[y == 0], X[y == 1]))
        cosines = [abs(chosen @ b) / (np.linalg.norm(chosen) * np.linalg.norm(b))
                   for b in unit_bisectors(w1, w2)]
        assert max(cosines) == pytest.approx(1, abs=1e-6)

    def test_a_failing_eigendecomposition_makes_a_leaf(self):
        """Features so large that G overflows to infinity (LAPACK cannot decompose it): the
        node is a leaf, the fit does not fail."""
        X, y = checkerboard_2x2(200, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            model = fit(X * 1e200, y, standardize=False)
        assert model.tree_.node_count == 1
        np.testing.assert_array_equal(model.tree_.value[0], [np.sum(y == -1), np.sum(y == 1)])


# ----- the estimator -----

def fit(X, y, **params):
    return GeometricTreeClassifier(**params).fit(X, y)


class TestFit:
    @pytest.mark.parametrize("seed", range(5))
    def test_checkerboard_2x2(self, seed):
        """Stratified 10-fold CV on one draw of the paper's 2×2 set (2000 points)."""
        X, y = checkerboard_2x2(random_state=seed)
        accuracies, leaves = [], []
        for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, y):
            model = fit(X[train], y[train])
            accuracies.append(model.score(X[test], y[test]))
            leaves.append(model.get_n_leaves())
        assert np.mean(accuracies) >= 0.95
        assert np.mean(leaves) <= 8
        assert np.median(leaves) <= 8

    @pytest.mark.parametrize("loader, minimum", [(load_iris, 0.9), (load_wine, 0.88)])
    def test_multiclass(self, loader, minimum):
        X, y = loader(return_X_y=True)
        model = fit(X, y)
        assert model.n_classes_ == 3
        assert model.score(X, y) >= 0.95
        assert model.predict_proba(X).shape == (len(y), 3)
        assert set(model.predict(X)) == {0, 1, 2}
        assert_tree_invariants(model.tree_)
        assert_training_rows_consistent(model.tree_, X, y)
        cv = StratifiedKFold(5, shuffle=True, random_state=0)
        assert cross_val_score(GeometricTreeClassifier(), X, y, cv=cv).mean() >= minimum

    def test_multiclass_root_is_majority_versus_rest(self):
        """Algorithm 2: at a node, S+ is the majority class and S− all other rows, so the
        split is the binary one of majority-versus-rest."""
        X, y = load_wine(return_X_y=True)
        keep = np.flatnonzero(y != 0)[:100].tolist() + np.flatnonzero(y == 0)[:30].tolist()
        X, y = X[keep], y[keep]
        majority = np.argmax(np.bincount(y))
        assert majority == 1 and np.bincount(y)[0] > 0
        multi = fit(X, y, max_depth=1)
        binary = fit(X, (y == majority).astype(int), max_depth=1)
        assert multi.tree_.splits[0] == binary.tree_.splits[0]

    def test_iris_root_separates_setosa(self):
        X, y = load_iris(return_X_y=True)
        tree = fit(X, y, max_depth=1).tree_
        assert sorted(map(tuple, tree.value[1:].tolist())) == [(0, 50, 50), (50, 0, 0)]

    def test_fitted_tree_invariants_and_routing_on_raw_features(self):
        for X, y in (checkerboard_4x4(800, random_state=0), synthetic_10d(800, random_state=0)):
            model = fit(X, y)
            assert_tree_invariants(model.tree_)
            assert_training_rows_consistent(model.tree_, X, np.searchsorted(model.classes_, y))
            for split in model.tree_.splits:
                if split is not None:
                    assert split.kind.name == "hyperplane"
                    # unit length as found; the printed (rounded) numbers keep it closely
                    assert np.linalg.norm(split.weights) == pytest.approx(1, rel=1e-3)

    def test_estimator_methods_agree_with_tree(self):
        X, y = checkerboard_4x4(500, random_state=2)
        model = fit(X, y)
        tree = model.tree_
        np.testing.assert_array_equal(model.apply(X), tree.apply(X))
        assert (model.decision_path(X) != tree.decision_path(X)).nnz == 0
        assert model.get_depth() == tree.depth
        assert model.get_n_leaves() == tree.n_leaves
        np.testing.assert_array_equal(
            model.predict(X), model.classes_[np.argmax(tree.predict_proba(X), axis=1)])
        assert "class: -1" in model.export_text() and "class: 1" in model.export_text()


class TestRankDeficientFits:
    """Section II-B at work inside a whole fit: no crash, no NaN, no numpy warnings."""

    @staticmethod
    def cases():
        rng = np.random.default_rng(0)
        X = rng.normal(size=(60, 3))
        y = (X[:, 0] + X[:, 1] > 0).astype(int)
        yield "fewer rows than features", rng.normal(size=(6, 20)), np.array([0, 1] * 3)
        yield "duplicated column", np.column_stack([X, X[:, 0]]), y
        yield "collinear columns", np.column_stack([X, 2 * X[:, 0] - X[:, 1] + 3]), y
        yield "constant column", np.column_stack([np.full(60, 3.0), X]), y
        yield "zero column", np.column_stack([X, np.zeros(60)]), y
        yield "one row per class", rng.normal(size=(2, 5)), np.array([0, 1])

    @pytest.mark.parametrize("standardize", [True, False])
    def test_fit(self, standardize):
        for name, X, y in self.cases():
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                model = fit(X, y, standardize=standardize)
                proba = model.predict_proba(X)
            assert np.all(np.isfinite(proba)), name
            for split in model.tree_.splits:
                if split is not None:
                    assert np.all(np.isfinite(split.weights)), name
                    assert np.all(np.isfinite(split.bias)), name
            # a redundant column counts twice in the unit normal and so moves the angle
            # bisectors; the trees differ, but still learn the data
            assert model.score(X, y) >= 0.9, name
            assert_tree_invariants(model.tree_)
            assert_training_rows_consistent(model.tree_, X, y)

    def test_constant_column_gets_no_weight_when_standardised(self):
        rng = np.random.default_rng(1)
        X = np.column_stack([rng.normal(size=(80, 2)), np.full(80, 5.0)])
        y = (X[:, 0] > X[:, 1]).astype(int)
        for split in fit(X, y).tree_.splits:
            if split is not None:
                assert abs(split.weights[0, 2]) < 1e-9


class TestStopping:
    @staticmethod
    def data():
        return checkerboard_4x4(600, random_state=0)

    @pytest.mark.parametrize("params", [dict(), dict(epsilon1=0.2), dict(epsilon1=0.05),
                                        dict(epsilon1=0.1, epsilon2=0.7),
                                        dict(epsilon1=0.3, epsilon2=1.0)])
    def test_no_internal_node_meets_the_leaf_test(self, params):
        X, y = self.data()
        tree = fit(X, y, **params).tree_
        epsilon1 = params.get("epsilon1", 0.1)
        epsilon2 = params.get("epsilon2") or 1 - epsilon1
        assert tree.node_count > 1
        for node in np.flatnonzero(~tree.is_leaf):
            assert not leaf_stop(tree.value[node], parent_value(tree, node), epsilon1,
                                 epsilon2), node

    @pytest.mark.parametrize("small, large", [
        (dict(epsilon1=0.05, epsilon2=1.0), dict(epsilon1=0.2, epsilon2=1.0)),
        (dict(epsilon1=0.0, epsilon2=0.95), dict(epsilon1=0.0, epsilon2=0.7)),
        (dict(max_depth=None), dict(max_depth=3)),
        (dict(min_samples_split=2), dict(min_samples_split=60)),
        (dict(epsilon1=0.05), dict(epsilon1=0.2)),
    ])
    def test_stricter_stopping_gives_a_prefix_of_the_tree(self, small, large):
        """Splits depend only on a node's rows, so a stricter stopping rule yields the same
        tree with some subtrees replaced by leaves."""
        X, y = self.data()
        big, pruned = fit(X, y, **small).tree_, fit(X, y, **large).tree_
        assert pruned.n_leaves < big.n_leaves
        # map every node of the smaller tree onto the big one, comparing the splits
        stack = [(0, 0)]
        while stack:
            node_small, node_big = stack.pop()
            np.testing.assert_array_equal(pruned.value[node_small], big.value[node_big])
            if pruned.splits[node_small] is not None:
                assert pruned.splits[node_small] == big.splits[node_big]
                stack.extend(zip(pruned.children[node_small], big.children[node_big]))

    def test_epsilon1_alone(self):
        """With ε2 = 1 only the minority-fraction rule (and purity) stops growth."""
        X, y = self.data()
        leaves = [fit(X, y, epsilon1=e, epsilon2=1.0).get_n_leaves()
                  for e in (0.0, 0.05, 0.1, 0.2, 0.4)]
        assert leaves == sorted(leaves, reverse=True)
        assert leaves[0] > leaves[-1]

    def test_leaves_are_majority_dominated_under_default(self):
        X, y = self.data()
        tree = fit(X, y, max_depth=None, min_samples_split=2).tree_
        for leaf in tree.leaves():
            counts = tree.value[leaf]
            pure_enough = counts.max() / counts.sum() >= 0.9
            # a leaf is either nearly pure or could not be split (separates nothing)
            assert pure_enough or tree.n_node_samples[leaf] < 10

    def test_max_depth(self):
        X, y = self.data()
        for depth in (0, 1, 2, 5):
            tree = fit(X, y, max_depth=depth).tree_
            assert tree.depth <= depth
            assert tree.n_leaves <= 2 ** depth
        assert fit(X, y, max_depth=0).tree_.node_count == 1
        assert fit(X, y, max_depth=None).get_depth() > 5

    def test_min_samples_split(self):
        X, y = self.data()
        sizes = []
        for minimum in (2, 20, 100, 601):
            tree = fit(X, y, min_samples_split=minimum).tree_
            internal = ~tree.is_leaf
            assert (tree.n_node_samples[internal] >= minimum).all()
            sizes.append(tree.node_count)
        assert sizes == sorted(sizes, reverse=True)
        assert sizes[-1] == 1

    def test_split_that_separates_nothing_becomes_a_leaf(self):
        """Identical rows with different labels: no hyperplane separates them."""
        X = np.tile([[1.0, 2.0, -3.0]], (10, 1))
        y = np.array([0, 1] * 5)
        for standardize in (True, False):
            model = fit(X, y, standardize=standardize)
            assert model.tree_.node_count == 1
            np.testing.assert_array_equal(model.tree_.value, [[5, 5]])
            np.testing.assert_allclose(model.predict_proba(X), 0.5)

    def test_duplicated_conflicting_points_terminate(self):
        X = np.repeat([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], 4, axis=0)
        y = np.array([0, 1, 0, 1] * 3)
        tree = fit(X, y, max_depth=None).tree_
        assert_tree_invariants(tree)
        assert_training_rows_consistent(tree, X, y)
        for leaf in tree.leaves():   # no leaf can be purer than its single point
            assert tree.value[leaf][0] == tree.value[leaf][1]

    def test_single_class(self):
        X = np.random.default_rng(0).normal(size=(20, 3))
        model = fit(X, np.full(20, "only"))
        assert model.tree_.node_count == 1
        assert list(model.predict(X[:3])) == ["only"] * 3
        np.testing.assert_array_equal(model.predict_proba(X[:3]), [[1.0]] * 3)


class TestRawUnits:
    """Hyperplanes are found on standardised features but stored in raw units."""

    @pytest.mark.parametrize("make", [checkerboard_4x4, synthetic_10d])
    def test_uniform_scaling(self, make):
        X, y = make(500, random_state=0)
        X_test = make(1000, random_state=1)[0]
        raw, scaled = fit(X, y), fit(X * 1000, y)
        np.testing.assert_array_equal(raw.predict(X_test), scaled.predict(X_test * 1000))
        # same hyperplane: w'·(1000 x) + b' = 0  <=>  w·x + b = 0, both with ‖w‖ = 1
        assert_same_tree(raw.tree_, scaled.tree_, allow_flip=True, rtol=1e-6, atol=1e-8,
                         map_split=lambda s: (s.weights, s.bias * 1000))

    def test_per_feature_scale_and_shift(self):
        X, y = checkerboard_4x4(500, random_state=3)
        X_test = checkerboard_4x4(1000, random_state=4)[0]
        scale, shift = np.array([1e-3, 250.0]), np.array([7.0, -4000.0])
        raw, moved = fit(X, y), fit(X * scale + shift, y)
        # The same tree routes every training row alike.  A split takes the fewest printed
        # digits that route its training rows as found, so far from the origin (shift
        # -4000 at scale 250) its printed boundary may move within the gap between training
        # rows: a few new rows near it may change side.
        np.testing.assert_array_equal(raw.predict(X), moved.predict(X * scale + shift))
        differ = np.mean(raw.predict(X_test) != moved.predict(X_test * scale + shift))
        assert differ <= 0.03

        def map_split(split):   # w·x + b with x = (x' − shift) / scale, renormalised
            weights = split.weights / scale
            bias = split.bias - weights @ shift
            norm = np.linalg.norm(weights)
            return weights / norm, bias / norm

        # the same splits, mapped to the moved units, up to their printed rounding
        assert_same_tree(raw.tree_, moved.tree_, allow_flip=True, rtol=1e-3, atol=1e-4,
                         map_split=map_split)

    def test_stored_weights_reproduce_the_routing_on_raw_features(self):
        X, y = checkerboard_4x4(500, random_state=5)
        X = X * [1000.0, 0.01] + [5.0, -3.0]
        model = fit(X, y)
        leaf = model.apply(X)
        for row in range(len(X)):
            assert route_by_hand(model.tree_, X[row]) == leaf[row]
        assert_training_rows_consistent(model.tree_, X, np.searchsorted(model.classes_, y))
        assert model.score(X, y) > 0.9

    @pytest.mark.parametrize("scale, shift", [(1.0, 0.0), (100.0, 0.0), (1.0, 100.0),
                                              (1e3, 5e3), (1e-6, 0.0)])
    def test_without_standardisation(self, scale, shift):
        """standardize=False must still learn when features are far from the origin or on
        a small scale (e.g. a year, or lengths in metres of micrometre-sized things)."""
        X, y = checkerboard_2x2(1000, random_state=0)
        X = X * scale + shift
        model = fit(X, y, standardize=False)
        assert model.score(X, y) > 0.9
        assert_training_rows_consistent(model.tree_, X, np.searchsorted(model.classes_, y))


class TestLabelsAndWeights:
    @pytest.mark.parametrize("labels", [np.array(["no", "yes"]), np.array([-5, -1]),
                                        np.array([1.0, 10.0]), np.array([False, True])])
    def test_arbitrary_labels(self, labels):
        X, y = checkerboard_2x2(400, random_state=0)
        codes = (y == 1).astype(int)
        model = fit(X, labels[codes])
        reference = fit(X, codes)
        np.testing.assert_array_equal(model.classes_, labels)
        assert model.tree_.splits == reference.tree_.splits
        predicted = model.predict(X)
        assert predicted.dtype == labels.dtype
        np.testing.assert_array_equal(predicted, labels[reference.predict(X)])
        assert f"class: {labels[1]}" in model.export_text()

    def test_string_labels_multiclass_are_sorted(self):
        X, y = load_iris(return_X_y=True)
        names = np.array(["virginica", "setosa", "versicolor"], dtype=object)
        model = fit(X, names[y])
        assert list(model.classes_) == ["setosa", "versicolor", "virginica"]
        assert model.score(X, names[y]) >= 0.95

    @pytest.mark.parametrize("make", [checkerboard_2x2, checkerboard_4x4, synthetic_10d])
    def test_integer_weights_equal_duplicated_rows(self, make):
        X, y = make(300, random_state=3)
        weights = np.random.default_rng(1).integers(1, 4, len(y))
        weighted = GeometricTreeClassifier().fit(X, y, sample_weight=weights)
        repeated = fit(np.repeat(X, weights, axis=0), np.repeat(y, weights))
        # n_node_samples counts rows, so compare only the weighted counts and the splits;
        # a hyperplane may come out with the opposite orientation (eigenvector sign)
        assert_same_tree(weighted.tree_, repeated.tree_, allow_flip=True, rtol=1e-6,
                         atol=1e-8)
        X_test = make(1000, random_state=4)[0]
        np.testing.assert_array_equal(weighted.predict(X_test), repeated.predict(X_test))

    def test_zero_weight_equals_dropping_the_row(self):
        X, y = checkerboard_4x4(400, random_state=6)
        weights = np.ones(len(y))
        weights[::3] = 0
        weighted = GeometricTreeClassifier().fit(X, y, sample_weight=weights)
        dropped = fit(X[weights > 0], y[weights > 0])
        assert weighted.tree_.splits == dropped.tree_.splits
        np.testing.assert_array_equal(weighted.tree_.value, dropped.tree_.value)
        np.testing.assert_array_equal(weighted.tree_.n_node_samples,
                                      dropped.tree_.n_node_samples)

    def test_fractional_weights_scale_invariant(self):
        X, y = checkerboard_4x4(300, random_state=7)
        weights = np.random.default_rng(2).uniform(0.5, 2.0, len(y))
        a = GeometricTreeClassifier().fit(X, y, sample_weight=weights)
        b = GeometricTreeClassifier().fit(X, y, sample_weight=weights * 8)  # a power of 2
        assert a.tree_.splits == b.tree_.splits
        np.testing.assert_allclose(a.tree_.value * 8, b.tree_.value)


class TestDeterminismAndPickling:
    def test_same_data_same_tree(self):
        X, y = synthetic_10d(500, random_state=0)
        a, b = fit(X, y), fit(X, y)
        assert_refits_identically(a, b, X, y)

    def test_refit_replaces_the_tree(self):
        X, y = checkerboard_4x4(300, random_state=0)
        model = fit(X, y)
        model.fit(X[:, :1], np.where(y == 1, "a", "b"))
        assert model.n_features_in_ == 1
        assert list(model.classes_) == ["a", "b"]
        assert model.tree_.n_features == 1

    def test_pickle_round_trip(self):
        X, y = checkerboard_4x4(500, random_state=1)
        model = fit(X, np.where(y == 1, "white", "black"))
        assert_pickles(model, X)


class TestRecordedResults:
    """Accuracy and tree size of whole fits, recorded (ε1 = 0.1, standardised): the
    training accuracy and leaves of a fit on all rows, and the accuracy of stratified
    5-fold CV (shuffled, seed 0), within ranges around the recorded values that a broken
    step (a wrong eigenvector, bisector or rank decision) would leave."""

    @staticmethod
    def one_hot():
        """Every attribute one-hot encoded, as Orange's Continuize does: the columns of an
        attribute add up to the bias column, so G and H are rank deficient at every node
        (Section II-B, within range(G + H)), and nodes with few rows of a class."""
        rng = np.random.default_rng(3)
        codes = rng.integers(0, 4, size=(240, 5))
        X = np.hstack([np.eye(4)[codes[:, j]] for j in range(5)])
        return X, (codes[:, 0] + codes[:, 1] + rng.integers(0, 2, 240)) % 3

    @staticmethod
    def wide():
        """More columns than rows in S− at the root, the row span below it."""
        rng = np.random.default_rng(5)
        X = rng.normal(size=(70, 40))
        return X, (X[:, 0] + 0.5 * X[:, 1] > 0.4).astype(int)

    # name: (data, recorded training accuracy, leaves, CV accuracy; allowed leaves, CV)
    RECORDED = {
        "iris": (lambda: load_iris(return_X_y=True), 0.9733, 3, 0.9733, (3, 4), (0.94, 1)),
        "wine": (lambda: load_wine(return_X_y=True), 1.0, 7, 0.9665, (5, 9), (0.93, 1)),
        "breast cancer": (lambda: load_breast_cancer(return_X_y=True), 0.9455, 2, 0.9279,
                          (2, 4), (0.90, 0.96)),
        "2x2": (lambda: checkerboard_2x2(1000, random_state=0), 0.993, 4, 0.961, (4, 7),
                (0.94, 0.99)),
        "4x4": (lambda: checkerboard_4x4(1000, random_state=0), 0.972, 58, 0.919,
                (45, 75), (0.88, 0.95)),
        "10-d": (lambda: synthetic_10d(1000, random_state=0), 0.969, 127, 0.710,
                 (100, 160), (0.66, 0.76)),
        "one-hot": (one_hot.__func__, 0.9542, 74, 0.4875, (60, 90), (0.40, 0.58)),
        "wide": (wide.__func__, 0.9857, 6, 0.6286, (4, 9), (0.50, 0.75)),
    }

    @pytest.mark.parametrize("name", list(RECORDED))
    def test_within_the_recorded_ranges(self, name):
        make, accuracy, leaves, cv_accuracy, leaf_range, cv_range = self.RECORDED[name]
        X, y = make()
        model = fit(X, y)
        assert model.score(X, y) == pytest.approx(accuracy, abs=0.02)
        assert leaf_range[0] <= model.get_n_leaves() <= leaf_range[1]
        cv = StratifiedKFold(5, shuffle=True, random_state=0)
        score = cross_val_score(GeometricTreeClassifier(), X, y, cv=cv).mean()
        assert cv_range[0] <= score <= cv_range[1]


@pytest.mark.parametrize("estimator", [GeometricTreeClassifier(),
                                       OC1Classifier(random_state=0),
                                       ODTSVMClassifier(random_state=0)],
                         ids=["GDT", "OC1", "ODT-SVM"])
def test_one_pass_calibration_is_the_two_passes(estimator):
    """:meth:`~orangecontrib.oblique.core.tree.structure.ObliqueTree.calibrate_text_and_scales` is
    ``calibrate_text`` then ``store_feature_scales``."""
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


class TestValidation:
    @pytest.mark.parametrize("params", [
        dict(epsilon1=-0.1), dict(epsilon1=1.0), dict(epsilon1=1.5), dict(epsilon1="0.1"),
        dict(epsilon1=float("nan")), dict(epsilon1=None),
        dict(epsilon2=0.0), dict(epsilon2=1.01), dict(epsilon2=-1), dict(epsilon2="high"),
        dict(epsilon2=float("nan")),
        dict(max_depth=-1), dict(max_depth=2.5), dict(max_depth="3"),
        dict(min_samples_split=1), dict(min_samples_split=0), dict(min_samples_split=2.5),
        dict(min_samples_split=None),
    ])
    def test_bad_parameters(self, params):
        X, y = checkerboard_2x2(50, random_state=0)
        name = next(iter(params))
        with pytest.raises(ValueError, match=name):
            fit(X, y, **params)

    @pytest.mark.parametrize("params", [dict(epsilon1=0.0), dict(epsilon1=0.999),
                                        dict(epsilon2=1.0), dict(epsilon2=0.5),
                                        dict(max_depth=None), dict(max_depth=0),
                                        dict(max_depth=np.int64(3)),
                                        dict(min_samples_split=2)])
    def test_boundary_parameters_are_accepted(self, params):
        X, y = checkerboard_2x2(50, random_state=0)
        fit(X, y, **params)

    @pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
    def test_non_finite_features(self, bad):
        X, y = checkerboard_2x2(50, random_state=0)
        X[3, 1] = bad
        with pytest.raises(ValueError, match="NaN|infinity"):
            fit(X, y)
        model = fit(checkerboard_2x2(50, random_state=1)[0], y)
        for method in (model.predict, model.predict_proba, model.apply, model.decision_path):
            with pytest.raises(ValueError, match="NaN|infinity"):
                method(X)

    def test_bad_targets(self):
        X = np.random.default_rng(0).normal(size=(4, 2))
        with pytest.raises(ValueError, match="NaN"):
            fit(X, np.array([0.0, 1.0, np.nan, 1.0]))
        with pytest.raises(ValueError, match="Unknown label type"):
            fit(X, np.array([0.1, 1.2, 2.3, 3.4]))
        with pytest.raises(ValueError):
            fit(X, np.array([0, 1, 0]))

    @pytest.mark.parametrize("weights, message", [
        ([1, 1, np.nan, 1], "NaN"), ([1, 1, np.inf, 1], "infinity"),
        ([1, -1, 1, 1], "[Nn]egative"), ([0, 0, 0, 0], "non-zero|zero"),
        ([1, 1, 1], "sample_weight|samples"),
    ])
    def test_bad_sample_weight(self, weights, message):
        X = np.random.default_rng(0).normal(size=(4, 2))
        with pytest.raises(ValueError, match=message):
            GeometricTreeClassifier().fit(X, [0, 1, 0, 1], sample_weight=np.array(weights))

    def test_wrong_number_of_features_at_predict(self):
        X, y = checkerboard_2x2(50, random_state=0)
        model = fit(X, y)
        with pytest.raises(ValueError, match="features"):
            model.predict(np.zeros((2, 3)))

    @pytest.mark.parametrize("method", ["predict", "predict_proba", "apply", "decision_path"])
    def test_unfitted_raises_not_fitted_error(self, method):
        with pytest.raises(NotFittedError):
            getattr(GeometricTreeClassifier(), method)(np.zeros((2, 2)))

    @pytest.mark.parametrize("method", ["get_depth", "get_n_leaves", "export_text"])
    def test_unfitted_inspection_raises_not_fitted_error(self, method):
        with pytest.raises(NotFittedError):
            getattr(GeometricTreeClassifier(), method)()


class TestNoVanishingWeights:
    def test_digits_at_the_widgets_defaults_print_ordinary_numbers(self):
        """sklearn's digits with the GDT widget's defaults (at most 3 attributes a split):
        the backward elimination left splits of weights ~1e−16 (``4.922e−17·pixel_2_3 +
        9.002e−16·pixel_3_6 + … ≥ 5.631e−16``); they route as ordinary splits, and now
        print so: every split's largest term is of the size of its rows, no weight is
        below 1e−8 of its split's largest, and no printed number has an exponent."""
        from sklearn.datasets import load_digits
        from orangecontrib.oblique.core.tree.rules import export_text
        X, y = load_digits(return_X_y=True)
        model = GeometricTreeClassifier(max_terms=3, min_samples_split=5,
                                        min_samples_leaf=2, max_depth=20).fit(X, y)
        tree = model.tree_
        reached = tree.decision_path(X).toarray().astype(bool)
        for node, split in enumerate(tree.splits):
            if split is None:
                continue
            weights = np.abs(split.weights[0])
            used = weights > 0
            assert weights[used].min() >= 1e-8 * weights.max()
            rows = X[reached[:, node]]
            spread = np.abs(rows[:, used]).max(axis=0)
            assert (weights[used] * spread).max() >= 1e-6 * spread.max()
        assert "e−" not in export_text(tree) and "e-" not in export_text(tree)
        assert model.score(X, y) > 0.9
