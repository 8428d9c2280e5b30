"""Shared pruning: weakest-link sequence, holdout selection (OC1), C4.5 error-based pruning,
the minimum held-out set (below it the tree is not pruned)."""
import sys

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import LeaveOneOut, cross_val_score

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier
from orangecontrib.oblique.core.base import MIN_PRUNING_ROWS
from orangecontrib.oblique.core.datasets import checkerboard_2x2
from orangecontrib.oblique.core.tree.pruning import (
                                                     added_errors, c45_deviate, cost_complexity_sequence, error_based_prune, holdout_split,
                                                     prune_with_holdout)
from orangecontrib.oblique.core.tree.structure import ObliqueTree, Split, grow_tree

from tests.helpers.invariants import assert_training_rows_consistent, assert_tree_invariants


# ----- hand-built trees -----

def make_tree(n_features, splits, children, parent, value):
    value = np.asarray(value, dtype=float)
    return ObliqueTree(n_features, value.shape[1], splits, children, parent, value,
                       np.round(value.sum(axis=1)).astype(int))


def interval_tree(scale=1.0, node_5=(9, 5), node_6=(1, 25)):
    """One feature ``x``; R as errors / 100 in brackets::

        0: x >= 5 ?            [60, 40]  R = .40
        ├── 1: x >= 2 ?        [50, 10]  R = .10, g = (.10 − .07) / 1 = .03
        │   ├── 3: leaf        [45,  2]  (x < 2, class 0)
        │   └── 4: leaf        [ 5,  8]  (2 <= x < 5, class 1)
        └── 2: x >= 8 ?        [10, 30]  R = .10, g = (.10 − .06) / 1 = .04
            ├── 5: leaf        [ 9,  5]  (5 <= x < 8, class 0)
            └── 6: leaf        [ 1, 25]  (x >= 8, class 1)

    root: g = (.40 − .13) / 3 = .09.  Weakest links: node 1 at .03 (then the root's
    g = (.40 − .16) / 2 = .12), node 2 at .04 (root: (.40 − .20) / 1 = .20), root at .20.
    """
    splits = [Split.axis_parallel(0, 5, 1), Split.axis_parallel(0, 2, 1),
              Split.axis_parallel(0, 8, 1), None, None, None, None]
    value = [[60, 40], [50, 10], [10, 30], [45, 2], [5, 8], node_5, node_6]
    return make_tree(1, splits, [(1, 2), (3, 4), (5, 6), (), (), (), ()],
                     [-1, 0, 0, 1, 1, 2, 2], np.array(value) * scale)


def three_way_root_tree(node_4, node_5):
    """A three-way (argmax) root over [30, 30, 40] whose third child, node 3 [5, 27, 38],
    splits on ``a >= 0`` into leaves 4 and 5 with the class counts given."""
    return make_tree(2, [Split("argmax", [[1, 0], [0, 1], [-1, -1]], [0, 0, 0]), None,
                         None, Split.axis_parallel(0, 0, 2), None, None],
                     [(1, 2, 3), (), (), (4, 5), (), ()], [-1, 0, 0, 0, 3, 3],
                     [[30, 30, 40], [25, 3, 2], [0, 0, 0], [5, 27, 38], node_4, node_5])


def leaf_values(tree):
    """The class counts of the leaves, as a sorted list of tuples (identifies a subtree)."""
    return sorted(tuple(float(v) for v in tree.value[leaf]) for leaf in tree.leaves())


def lone_leaf():
    return make_tree(1, [None], [()], [-1], [[5, 2]])


# ----- cost-complexity sequence -----

class TestCostComplexitySequence:
    def test_hand_computed_sequence(self):
        tree = interval_tree()
        sequence = cost_complexity_sequence(tree)
        np.testing.assert_allclose([alpha for alpha, _ in sequence], [0, 0.03, 0.04, 0.20])
        assert [leaf_values(t) for _, t in sequence] == [
            leaf_values(tree),
            [(1, 25), (9, 5), (50, 10)],
            [(10, 30), (50, 10)],
            [(60, 40)]]
        assert sequence[0][1] is tree, "nothing has g = 0: the first tree is the input"
        for _, pruned in sequence:
            assert_tree_invariants(pruned)
        assert tree.node_count == 7, "the input tree is not modified"

    @pytest.mark.parametrize("scale", [1.0, 0.1, 1e3])
    def test_ties_collapse_together(self, scale):
        # node 2 now has g = (10 − (4 + 3)) / 100 = .03, the same as node 1
        tree = interval_tree(scale, node_5=(7, 4), node_6=(3, 26))
        sequence = cost_complexity_sequence(tree)
        np.testing.assert_allclose([alpha for alpha, _ in sequence], [0, 0.03, 0.20])
        assert [t.n_leaves for _, t in sequence] == [4, 2, 1]

    def test_splits_that_do_not_lower_the_risk_go_first_at_alpha_zero(self):
        # leaf 3 [45, 2] split into [40, 0] and [5, 2]: both predict class 0, g = 0
        base = interval_tree()
        splits = base.splits[:3] + [Split.axis_parallel(0, 1, 1)] + base.splits[4:] + [None,
                                                                                      None]
        children = base.children[:3] + [(7, 8)] + base.children[4:] + [(), ()]
        value = np.vstack([base.value, [[40, 0], [5, 2]]])
        tree = make_tree(1, splits, children, list(base.parent) + [3, 3], value)
        sequence = cost_complexity_sequence(tree)
        assert sequence[0][0] == 0
        assert tree.n_leaves == 5 and sequence[0][1].n_leaves == 4
        assert [leaf_values(t) for _, t in sequence] == [
            leaf_values(t) for _, t in cost_complexity_sequence(base)]

    def test_multiway_root_weaker_than_its_child(self):
        """::

            0: argmax(a, b, −a − b)  [30, 30, 40]  g = (60 − 15) / 3 = 15 -> .15
            ├── 1: leaf              [25,  3,  2]  errors 5
            ├── 2: leaf              [ 0,  0,  0]  no rows
            └── 3: a >= 0 ?          [ 5, 27, 38]  g = (32 − 10) / 1 = 22 -> .22
                ├── 4: leaf          [ 4, 25,  3]  errors 7
                └── 5: leaf          [ 1,  2, 35]  errors 3
        """
        tree = three_way_root_tree(node_4=[4, 25, 3], node_5=[1, 2, 35])
        sequence = cost_complexity_sequence(tree)
        np.testing.assert_allclose([alpha for alpha, _ in sequence], [0, 0.15])
        assert [t.n_leaves for _, t in sequence] == [4, 1]

    def test_multiway_child_pruned_first_updates_the_root(self):
        """Node 3's children [5, 14, 19] and [0, 13, 19] err 19 + 13 = 32 = R(3): g = 0.
        Then the root has leaves 1, 2, 3 with errors 5 + 0 + 32: g = (60 − 37) / 2 = .115.
        """
        tree = three_way_root_tree(node_4=[5, 14, 19], node_5=[0, 13, 19])
        sequence = cost_complexity_sequence(tree)
        np.testing.assert_allclose([alpha for alpha, _ in sequence], [0, 0.115])
        assert [t.n_leaves for _, t in sequence] == [3, 1]
        assert leaf_values(sequence[0][1]) == [(0, 0, 0), (5, 27, 38), (25, 3, 2)]

    def test_lone_leaf(self):
        tree = lone_leaf()
        assert cost_complexity_sequence(tree) == [(0.0, tree)]

    def test_fitted_trees_follow_breimans_theorem(self, noisy_fit):
        """Each T_k is the smallest subtree minimising R(T) + α|T| for α_k <= α < α_{k+1}
        (checked against dynamic programming), and R rises by α_k per removed leaf."""
        tree = noisy_fit["tree"]
        sequence = cost_complexity_sequence(tree)
        alphas = np.array([alpha for alpha, _ in sequence])
        n_leaves = np.array([t.n_leaves for _, t in sequence])
        assert len(sequence) > 5
        assert alphas[0] == 0 and np.all(np.diff(alphas) > 0)
        assert np.all(np.diff(n_leaves) < 0) and n_leaves[-1] == 1
        risks = np.array([training_risk(t) for _, t in sequence])
        np.testing.assert_allclose(np.diff(risks), -alphas[1:] * np.diff(n_leaves),
                                   atol=1e-12)
        upper = np.append(alphas[1:], 2 * alphas[-1] + 1)
        for (alpha, pruned), next_alpha in zip(sequence, upper):
            assert optimal_subtree_leaves(tree, (alpha + next_alpha) / 2) == pruned.n_leaves
            assert_tree_invariants(pruned)


def training_risk(tree):
    leaves = tree.leaves()
    return (tree.value[leaves].sum() - tree.value[leaves].max(axis=1).sum()) / (
        tree.value[0].sum())


def optimal_subtree_leaves(tree, alpha):
    """Leaves of the smallest subtree minimising R(T) + α|leaves(T)|, by recursion."""
    root_weight = tree.value[0].sum()

    def solve(node):
        as_leaf = (tree.value[node].sum() - tree.value[node].max()) / root_weight + alpha
        if tree.splits[node] is None:
            return as_leaf, 1
        parts = [solve(child) for child in tree.children[node]]
        cost = sum(c for c, _ in parts)
        return (as_leaf, 1) if as_leaf <= cost + 1e-12 else (cost, sum(n for _, n in parts))

    return solve(0)[1]


# ----- selection on held-out rows -----

def interval_holdout():
    """20 rows; errors of the sequence's trees (4, 3, 2, 1 leaves): 2, 3, 4, 10.

    x = 1: 7 × class 0 (always right); x = 3: 2 × class 0 (wrong for T0), 3 × class 1
    (wrong for T1, T2, T3); x = 6: 1 × class 0 (wrong for T2); x = 9: 7 × class 1 (wrong
    for the lone root).
    """
    x = [1] * 7 + [3] * 5 + [6] + [9] * 7
    y = [0] * 7 + [0, 0, 1, 1, 1] + [0] + [1] * 7
    return np.array(x, dtype=float)[:, None], np.array(y)


class TestPruneWithHoldout:
    @pytest.mark.parametrize("se_rule, n_leaves", [(0, 4), (0.5, 4), (1, 3), (2, 2), (6, 1)])
    def test_k_se_rule_picks_smaller_trees_as_k_grows(self, se_rule, n_leaves):
        # e = .10, .15, .20, .50; SE = sqrt(.1 · .9 / 20) = .0671
        X, y = interval_holdout()
        pruned = prune_with_holdout(interval_tree(), X, y, se_rule=se_rule)
        assert pruned.n_leaves == n_leaves
        assert_tree_invariants(pruned)

    def test_zero_se_prefers_the_smaller_tree_on_ties(self):
        # T0 and T1 both make one error (x = 3: one row of each class); T2 makes two
        X = np.array([[1.0], [3.0], [3.0], [6.0], [9.0]])
        y = np.array([0, 0, 1, 0, 1])
        pruned = prune_with_holdout(interval_tree(), X, y)
        assert leaf_values(pruned) == [(1, 25), (9, 5), (50, 10)]

    def test_weights_count(self):
        X, y = interval_holdout()
        weights = np.ones(len(y))
        weights[9:12] = 0  # the class-1 rows at x = 3: T1 now makes no error, T0 two
        assert prune_with_holdout(interval_tree(), X, y, weights).n_leaves == 3
        assert prune_with_holdout(interval_tree(), X, y, 2 * np.ones(len(y))).n_leaves == 4

    def test_trees_of_two_leaves_are_not_pruned(self):
        tree = make_tree(1, [Split.axis_parallel(0, 5, 1), None, None], [(1, 2), (), ()],
                         [-1, 0, 0], [[60, 40], [50, 30], [10, 10]])
        X, y = np.array([[1.0], [9.0]]), np.array([0, 0])  # the lone root would be right
        assert prune_with_holdout(tree, X, y) is tree
        three_leaves = interval_tree().pruned([1])
        assert prune_with_holdout(three_leaves, X, y).n_leaves == 1

    def test_without_holdout_rows_the_tree_is_kept(self):
        tree = interval_tree()
        assert prune_with_holdout(tree, np.empty((0, 1)), np.empty(0, dtype=int)) is tree

    def test_invalid_arguments(self):
        X, y = interval_holdout()
        with pytest.raises(ValueError, match="se_rule"):
            prune_with_holdout(interval_tree(), X, y, se_rule=-1)
        with pytest.raises(ValueError, match="class codes"):
            prune_with_holdout(interval_tree(), X, y + 1)

    @pytest.mark.parametrize("se_rule", [0, 1])
    def test_same_choice_as_evaluating_every_tree(self, noisy_fit, se_rule):
        tree, X, y = noisy_fit["tree"], noisy_fit["X_prune"], noisy_fit["y_prune"]
        sequence = cost_complexity_sequence(tree)
        errors = np.array([np.mean(np.argmax(t.predict_proba(X), axis=1) != y)
                           for _, t in sequence])
        e_min = errors.min()
        bound = e_min + se_rule * np.sqrt(e_min * (1 - e_min) / len(y))
        expected = sequence[np.flatnonzero(errors <= bound + 1e-12)[-1]][1]
        pruned = prune_with_holdout(tree, X, y, se_rule=se_rule)
        assert pruned.n_leaves == expected.n_leaves
        np.testing.assert_array_equal(pruned.predict_proba(noisy_fit["X_test"]),
                                      expected.predict_proba(noisy_fit["X_test"]))

    def test_noisy_fit_gets_far_smaller_and_not_worse(self, noisy_fit):
        tree, X_test, y_test = noisy_fit["tree"], noisy_fit["X_test"], noisy_fit["y_test"]
        pruned = prune_with_holdout(tree, noisy_fit["X_prune"], noisy_fit["y_prune"])
        assert pruned.n_leaves * 5 <= tree.n_leaves
        accuracy = np.mean(np.argmax(pruned.predict_proba(X_test), axis=1) == y_test)
        unpruned = np.mean(np.argmax(tree.predict_proba(X_test), axis=1) == y_test)
        assert accuracy >= unpruned - 0.02
        assert_training_rows_consistent(pruned, noisy_fit["X_grow"], noisy_fit["y_grow"])


@pytest.fixture(scope="module")
def noisy_fit():
    """An unpruned GDT tree on a 2×2 checkerboard with 15 % of the labels flipped."""
    X, y = checkerboard_2x2(2000, random_state=0)
    y = (y > 0).astype(np.intp)
    flip = np.random.default_rng(0).random(len(y)) < 0.15
    y[flip] = 1 - y[flip]
    train, test = holdout_split(y, 0.3, random_state=1)
    grow, prune = holdout_split(y[train], 0.1, random_state=2)
    grow, prune = train[grow], train[prune]
    model = GeometricTreeClassifier(epsilon1=0.0, epsilon2=1.0, max_depth=None)
    model.fit(X[grow], y[grow])
    return {"tree": model.tree_, "X_grow": X[grow], "y_grow": y[grow],
            "X_prune": X[prune], "y_prune": y[prune], "X_test": X[test], "y_test": y[test]}


# ----- holdout split -----

class TestHoldoutSplit:
    def test_partition_and_size(self):
        y = np.repeat([0, 1], [70, 30])
        grow, prune = holdout_split(y, 0.1, random_state=0)
        assert len(prune) == 10 and len(grow) == 90
        np.testing.assert_array_equal(np.sort(np.concatenate([grow, prune])), np.arange(100))
        assert np.all(np.diff(grow) > 0) and np.all(np.diff(prune) > 0)

    def test_stratified(self):
        y = np.repeat(["a", "b", "c"], [50, 30, 20])
        _, prune = holdout_split(y, 0.1, random_state=0)
        np.testing.assert_array_equal(np.unique(y[prune], return_counts=True)[1], [5, 3, 2])

    def test_largest_remainders_spread_over_classes(self):
        y = np.repeat([0, 1, 2], 5)  # 1.5 -> 2 held-out rows, quota 0.5 per class
        for seed in range(10):
            _, prune = holdout_split(y, 0.1, random_state=seed)
            assert len(prune) == 2 and len(set(y[prune])) == 2

    def test_every_class_keeps_a_row_for_growing(self):
        y = np.repeat([0, 1], 2)
        grow, prune = holdout_split(y, 0.9, random_state=0)
        assert set(y[grow]) == {0, 1} and len(prune) >= 1

    def test_random_when_a_class_has_one_row(self):
        y = np.array([0] * 9 + [1])
        held_out_minority = 0
        for seed in range(40):
            grow, prune = holdout_split(y, 0.1, random_state=seed)
            assert len(prune) == 1 and len(grow) == 9
            held_out_minority += y[prune[0]] == 1
        assert 0 < held_out_minority < 40

    @pytest.mark.parametrize("n_rows, portion, n_prune", [
        (2, 0.1, 1), (3, 0.9, 2), (5, 0.01, 1), (1, 0.5, 0), (40, 0.0, 0), (0, 0.1, 0)])
    def test_sizes(self, n_rows, portion, n_prune):
        grow, prune = holdout_split(np.arange(n_rows) % 2, portion, random_state=0)
        assert len(prune) == n_prune and len(grow) == n_rows - n_prune

    def test_random_state_kinds(self):
        y = np.repeat([0, 1], 50)
        first = holdout_split(y, 0.1, random_state=3)[1]
        np.testing.assert_array_equal(first, holdout_split(y, 0.1, random_state=3)[1])
        np.testing.assert_array_equal(
            first, holdout_split(y, 0.1, np.random.RandomState(3))[1])
        from_generator = holdout_split(y, 0.1, np.random.default_rng(3))[1]
        np.testing.assert_array_equal(
            from_generator, holdout_split(y, 0.1, np.random.default_rng(3))[1])
        assert not np.array_equal(first, holdout_split(y, 0.1, random_state=4)[1])

    @pytest.mark.parametrize("portion", [-0.1, 1.0, "0.1"])
    def test_invalid_portion(self, portion):
        with pytest.raises(ValueError, match="portion"):
            holdout_split(np.arange(10), portion)


# ----- C4.5 error-based pruning -----

class TestC45Estimate:
    def test_deviates_interpolated_as_c45_does(self):
        assert c45_deviate(0.25) == pytest.approx(0.6925)
        assert c45_deviate(0.10) == pytest.approx(1.28)
        assert c45_deviate(0.001) == pytest.approx(3.09)
        with pytest.raises(ValueError, match="confidence"):
            c45_deviate(0)

    @pytest.mark.parametrize("n, errors, upper", [
        (6, 0, 0.206), (9, 0, 0.143), (1, 0, 0.750), (16, 1, 0.157)])
    def test_quinlans_upper_limits(self, n, errors, upper):
        # Quinlan (1993), §4.2: U_25%(0, 6) = 0.206, ..., U_25%(1, 16) = 0.157
        assert (errors + added_errors(n, errors)) / n == pytest.approx(upper, abs=5e-4)

    def test_normal_approximation_uses_c45s_deviate(self):
        def expected(n, e, z):
            upper = (e + 0.5 + z * z / 2 + z * np.sqrt(
                (e + 0.5) * (1 - (e + 0.5) / n) + z * z / 4)) / (n + z * z)
            return n * upper - e
        assert added_errors(16, 1) == pytest.approx(expected(16, 1, 0.6925), rel=1e-12)
        assert added_errors(40, 7.5, 0.1) == pytest.approx(expected(40, 7.5, 1.28),
                                                           rel=1e-12)
        assert abs(added_errors(16, 1) - expected(16, 1, 0.6745)) > 1e-3

    def test_special_cases(self):
        none = 10 * (1 - 0.25 ** (1 / 10))
        assert added_errors(10, 0) == pytest.approx(none)
        assert added_errors(10, 0.5) == pytest.approx(
            none + 0.5 * (added_errors(10, 1) - none))
        assert added_errors(3, 2.6) == pytest.approx(0.67 * 0.4)
        assert added_errors(1.2, 0.5) == pytest.approx(  # AddErrs(1.2, 1) = .67 (1.2 − 1)
            1.2 * (1 - 0.25 ** (1 / 1.2)) * 0.5 + 0.5 * 0.67 * 0.2)
        assert added_errors(0, 0) == 0
        np.testing.assert_allclose(added_errors([6, 16], [0, 1]),
                                   [added_errors(6, 0), added_errors(16, 1)])


def quinlan_tree():
    """Quinlan (1993), §4.2, under a pure sibling::

        0: a >= 0 ?                        [15, 51]
        ├── 1: argmax(b, −b, a − 10)       [15,  1]  as a leaf 16 · .157 = 2.512
        │   ├── 3: leaf                    [ 6,  0]  6 · .206 = 1.238
        │   ├── 4: leaf                    [ 9,  0]  9 · .143 = 1.285
        │   └── 5: leaf                    [ 0,  1]  1 · .750 = .750     (sum 3.273)
        └── 2: leaf                        [ 0, 50]  50 · .027 = 1.36
    """
    splits = [Split.axis_parallel(0, 0, 2), Split("argmax", [[0, 1], [0, -1], [1, 0]],
                                                  [0, 0, -10]), None, None, None, None]
    return make_tree(2, splits, [(1, 2), (3, 4, 5), (), (), (), ()], [-1, 0, 0, 1, 1, 1],
                     [[15, 51], [15, 1], [0, 50], [6, 0], [9, 0], [0, 1]])


class TestErrorBasedPrune:
    def test_quinlans_example_is_replaced_bottom_up(self):
        tree = quinlan_tree()
        pruned = error_based_prune(tree)
        assert leaf_values(pruned) == [(0, 50), (15, 1)]
        assert pruned.node_count == 3
        assert_tree_invariants(pruned)
        assert tree.node_count == 6, "the input tree is not modified"

    def test_lower_confidence_prunes_more(self):
        assert error_based_prune(quinlan_tree(), confidence=0.25).n_leaves == 2
        tree = make_tree(1, [Split.axis_parallel(0, 0, 1), None, None], [(1, 2), (), ()],
                         [-1, 0, 0], [[12, 3], [10, 0], [2, 3]])
        assert error_based_prune(tree, confidence=0.25) is tree
        assert error_based_prune(tree, confidence=0.001).n_leaves == 1

    @pytest.mark.parametrize("children, kept", [(([5, 0], [5, 6]), False),
                                                (([2, 0], [2, 3]), True)])
    def test_margin_of_one_tenth(self, children, kept):
        value = np.array([np.add(*children), *children], dtype=float)
        errors = value.sum(axis=1) - value.max(axis=1)
        estimates = errors + added_errors(value.sum(axis=1), errors)
        difference = estimates[0] - estimates[1:].sum()
        assert (0 < difference <= 0.1) != kept  # the leaf is worse, by little or by more
        tree = make_tree(1, [Split.axis_parallel(0, 0, 1), None, None], [(1, 2), (), ()],
                         [-1, 0, 0], value)
        assert error_based_prune(tree).n_leaves == (2 if kept else 1)

    def test_a_kept_subtree_counts_with_its_leaves_estimates(self):
        """::

            0: [20, 25]  as a leaf 20 + AddErrs(45, 20) = 22.8
            ├── 1: [20, 20]  as a leaf 22.7; its subtree 2 · AddErrs(20, 0) = 2.69: kept
            │   ├── 3: [20, 0]
            │   └── 4: [0, 20]
            └── 2: [0, 5]    AddErrs(5, 0) = 1.24

        The root's subtree estimate is 2.69 + 1.24 = 3.93 (kept), not 22.7 + 1.24.
        """
        tree = make_tree(1, [Split.axis_parallel(0, 0, 1), Split.axis_parallel(0, -1, 1),
                             None, None, None], [(1, 2), (3, 4), (), (), ()],
                         [-1, 0, 0, 1, 1], [[20, 25], [20, 20], [0, 5], [20, 0], [0, 20]])
        assert error_based_prune(tree) is tree

    def test_empty_children_count_nothing(self):
        tree = make_tree(2, [Split("argmax", [[1, 0], [0, 1], [-1, -1]], [0, 0, 0]),
                             None, None, None],
                         [(1, 2, 3), (), (), ()], [-1, 0, 0, 0],
                         [[4, 3], [2, 0], [2, 3], [0, 0]])
        assert error_based_prune(tree) is tree  # as the two-way case above: kept

    def test_real_tree_is_a_fixed_point_and_smaller(self, noisy_fit):
        tree = noisy_fit["tree"]
        pruned = error_based_prune(tree)
        assert pruned.n_leaves * 5 <= tree.n_leaves
        again = error_based_prune(pruned)
        assert again is pruned
        assert_training_rows_consistent(pruned, noisy_fit["X_grow"], noisy_fit["y_grow"])
        X_test, y_test = noisy_fit["X_test"], noisy_fit["y_test"]
        accuracy = np.mean(np.argmax(pruned.predict_proba(X_test), axis=1) == y_test)
        unpruned = np.mean(np.argmax(tree.predict_proba(X_test), axis=1) == y_test)
        assert accuracy >= unpruned - 0.02


def test_subtree_raising_prunes_a_tree_deeper_than_the_recursion_limit():
    """C4.5's pruning with subtree raising recurses once per level: a chain of 1,499
    levels (each split peels off one row; classes alternate) is pruned, not a
    RecursionError (it was above about 450 levels), and the limit is restored."""
    n = 1500
    X = np.arange(n, dtype=float)[:, None]
    y = (np.arange(n) % 2).astype(np.intp)
    weights = np.ones(n)

    def peel_first_row(rows, counts, depth):
        return Split.hyperplane(np.array([1.0]), -(X[rows, 0].min() + 0.5))

    chain = grow_tree(X, y, weights, 2, peel_first_row)
    assert chain.depth == n - 1
    limit = sys.getrecursionlimit()
    pruned = error_based_prune(chain, subtree_raising=True, X=X, y=y, sample_weight=weights)
    assert sys.getrecursionlimit() == limit
    assert pruned.node_count < chain.node_count
    np.testing.assert_allclose(pruned.value.sum(axis=1)[0], n)


def test_holdout_pruning_with_fractional_weights_and_no_held_out_error():
    """The held-out error of the pruned trees is a running sum of fractional weights; where
    no held-out row is misclassified it can end a hair below 0, which made the standard
    error NaN and the choice of a tree an IndexError (OC1 on breast cancer, seed 112)."""
    from sklearn.datasets import load_breast_cancer
    from orangecontrib.oblique.core import OC1Classifier
    X, y = load_breast_cancer(return_X_y=True)
    weights = np.random.RandomState(0).uniform(0.2, 2, len(y))
    model = OC1Classifier(random_state=112).fit(X, y, sample_weight=weights)
    assert model.tree_.n_leaves >= 1
    assert model.score(X, y) > 0.9


# ----- a minimum held-out set -----

def test_leave_one_out_on_fifteen_iris_rows():
    """14 training rows held out one row to prune, and ties pruned every tree to the root:
    leave-one-out scored 0 %."""
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:5, 50:55, 100:105]
    scores = cross_val_score(OC1Classifier(random_state=0), X[rows], y[rows],
                             cv=LeaveOneOut())
    assert scores.mean() > 0.6


def test_below_the_minimum_the_tree_is_grown_on_all_rows():
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:10, 50:10 + 50, 100:110]          # 30 rows: 3 held out at 10 %
    assert round(0.1 * len(rows)) < MIN_PRUNING_ROWS
    pruned = OC1Classifier(random_state=0).fit(X[rows], y[rows])
    unpruned = OC1Classifier(random_state=0, pruning_portion=0.0).fit(X[rows], y[rows])
    assert pruned.tree_.splits == unpruned.tree_.splits
    # at or above it, the held-out rows prune as before
    model = GeometricTreeClassifier(pruning_portion=0.1, random_state=0).fit(X, y)
    assert model.tree_.n_leaves >= 1


def test_two_rows_of_different_classes_are_told_apart():
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    model = OC1Classifier(random_state=0).fit(X, [0, 1])
    assert model.predict(X).tolist() == [0, 1]
