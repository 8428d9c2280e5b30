"""The shared tree structure: routing convention, invariants, prediction, pruning, rule text."""
import pickle

import numpy as np
import pytest

from tests.helpers.invariants import axis_parallel
from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.core.datasets import checkerboard_2x2, checkerboard_4x4
from orangecontrib.oblique.core.tree.rules import format_number
from orangecontrib.oblique.core.tree.structure import ObliqueTree, Split, grow_tree

from tests.helpers.invariants import assert_training_rows_consistent, assert_tree_invariants


# ----- hand-built trees -----

def binary_tree():
    """Axis-parallel root, oblique right child.

    ::

        0: a >= 2.5 ?
        ├── 1: leaf [3, 1]
        └── 2: 0.5·a − 2·b ≥ 1 ?
            ├── 3: leaf [0, 2]
            └── 4: leaf [1, 5]
    """
    splits = [Split.axis_parallel(0, 2.5, 2), None, Split.hyperplane([0.5, -2.0], -1.0),
              None, None]
    children = [(1, 2), (), (3, 4), (), ()]
    parent = [-1, 0, 0, 2, 2]
    value = [[4, 8], [3, 1], [1, 7], [0, 2], [1, 5]]
    return ObliqueTree(2, 2, splits, children, parent, value, [12, 4, 8, 2, 6])


def multiway_tree():
    """A three-way argmax root with one empty branch, an equality test, a nearest-centre
    split below the empty branch; node ids deliberately not in preorder.

    ::

        0: argmax(a, b, −a − b)
        ├── 1: leaf [2, 0, 0]
        ├── 2: a = 1 ?
        │   ├── 4: leaf [0, 3, 0]
        │   └── 5: leaf [0, 1, 1]
        └── 3: nearest centre of a + b among (0, 5)   (no training rows)
            ├── 6: leaf [0, 0, 0]
            └── 7: leaf [0, 0, 0]
    """
    splits = [Split("argmax", [[1, 0], [0, 1], [-1, -1]], [0, 0, 0]),
              None,
              Split.equality(0, 1.0, 2),
              Split("nearest_centre", [[1, 1]], [0], centres=[[0], [5]]),
              None, None, None, None]
    children = [(1, 2, 3), (), (4, 5), (6, 7), (), (), (), ()]
    parent = [-1, 0, 0, 0, 2, 2, 3, 3]
    value = [[2, 4, 1], [2, 0, 0], [0, 4, 1], [0, 0, 0],
             [0, 3, 0], [0, 1, 1], [0, 0, 0], [0, 0, 0]]
    return ObliqueTree(2, 3, splits, children, parent, value, [7, 2, 5, 0, 3, 2, 0, 0])


def lone_leaf(value=(5, 2)):
    return ObliqueTree(2, len(value), [None], [()], [-1], [value], [int(sum(value))])


@pytest.fixture(scope="module")
def fitted_trees():
    """Real GDT trees (with X, y they were grown on) to check the invariants on."""
    from sklearn.datasets import load_iris
    data = []
    for X, y in (checkerboard_2x2(600, random_state=0), checkerboard_4x4(600, random_state=1),
                 load_iris(return_X_y=True)):
        model = GeometricTreeClassifier().fit(X, y)
        data.append((model.tree_, X, np.searchsorted(model.classes_, y)))
    return data


# ----- routing convention of Split -----

class TestSplitRouting:
    def test_hyperplane_left_below_zero_right_at_and_above_zero(self):
        split = Split.hyperplane([1.0, -1.0], 0.5)
        X = np.array([[0.0, 1.0],    # v = -0.5 -> left
                      [0.5, 1.0],    # v = 0 exactly -> right
                      [1.0, 1.0],    # v = 0.5 -> right
                      [-3.0, 0.0]])  # v = -2.5 -> left
        np.testing.assert_array_equal(split.values(X)[:, 0], [-0.5, 0.0, 0.5, -2.5])
        np.testing.assert_array_equal(split.route(X), [0, 1, 1, 0])

    def test_hyperplane_negative_zero_goes_right(self):
        split = Split.hyperplane([1.0], 0.0)
        np.testing.assert_array_equal(split.route(np.array([[-0.0], [-1e-300], [0.0]])),
                                      [1, 0, 1])

    def test_axis_parallel_threshold_goes_right(self):
        split = Split.axis_parallel(1, 2.5, 3)
        np.testing.assert_array_equal(split.weights, [[0, 1, 0]])
        np.testing.assert_array_equal(split.bias, [-2.5])
        X = np.array([[9, 2.4999, 9], [-9, 2.5, -9], [0, 2.5001, 0], [100, -100, 100]])
        np.testing.assert_array_equal(split.route(X), [0, 1, 1, 0])
        assert axis_parallel(split)
        np.testing.assert_array_equal(split.features_used, [1])

    def test_oblique_hyperplane_is_not_axis_parallel(self):
        split = Split.hyperplane([0.6, 0.0, -0.8], 1.0)
        assert not axis_parallel(split)
        np.testing.assert_array_equal(split.features_used, [0, 2])
        assert split.n_children == 2
        assert split.n_features == 3

    def test_argmax_picks_largest_and_first_on_ties(self):
        split = Split("argmax", [[1, 0], [0, 1], [0, 0]], [0, 0, 1])
        X = np.array([[2, 0],    # (2, 0, 1) -> 0
                      [0, 2],    # (0, 2, 1) -> 1
                      [0, 0],    # (0, 0, 1) -> 2
                      [1, 1],    # (1, 1, 1) three-way tie -> 0
                      [0, 1],    # (0, 1, 1) tie of 1 and 2 -> 1
                      [3, 3]])   # (3, 3, 1) tie of 0 and 1 -> 0
        np.testing.assert_array_equal(split.route(X), [0, 1, 2, 0, 1, 0])
        assert split.n_children == 3

    def test_nearest_centre_and_first_on_ties(self):
        split = Split("nearest_centre", [[1, 0], [0, 1]], [0, 0],
                      centres=[[0, 0], [2, 0], [0, 2]])
        X = np.array([[0.1, 0.1],   # -> centre 0
                      [1.9, 0.0],   # -> centre 1
                      [0.0, 5.0],   # -> centre 2
                      [1.0, 0.0],   # equidistant from 0 and 1 -> 0
                      [1.0, 1.0]])  # equidistant from all three -> 0
        np.testing.assert_array_equal(split.route(X), [0, 1, 2, 0, 0])
        assert split.n_children == 3

    def test_nearest_centre_uses_the_affine_values(self):
        # one value v = x1 - x2 + 1; centres at v = -2 and v = 2
        split = Split("nearest_centre", [[1, -1]], [1], centres=[[-2], [2]])
        X = np.array([[0, 3], [0, -3], [0, 1]])   # v = -2, 4, 0 (tie -> first)
        np.testing.assert_array_equal(split.route(X), [0, 1, 0])

    def test_equality(self):
        split = Split.equality(0, 2.0, 2)
        X = np.array([[2.0, 7], [2.0001, 7], [1.0, 2.0], [-2.0, 0]])
        np.testing.assert_array_equal(split.route(X), [0, 1, 1, 1])
        assert split.n_children == 2

    def test_route_returns_positions_for_every_row(self):
        split = Split.hyperplane([1.0], 0.0)
        assert split.route(np.empty((0, 1))).shape == (0,)

    def test_equality_of_splits(self):
        assert Split.hyperplane([1, 2], 3) == Split("hyperplane", [[1, 2]], [3])
        assert Split.hyperplane([1, 2], 3) != Split.hyperplane([1, 2], 3.5)
        assert Split.hyperplane([1, 0], 0) != Split.equality(0, 0, 2)
        a = Split("nearest_centre", [[1, 0]], [0], centres=[[0], [1]])
        b = Split("nearest_centre", [[1, 0]], [0], centres=[[0], [2]])
        assert a != b
        assert a == Split("nearest_centre", [[1, 0]], [0], centres=[[0], [1]])
        assert Split.equality(0, 1, 2, child_labels=["x", "y"]) != Split.equality(0, 1, 2)


class TestSplitValidation:
    def test_unknown_rule(self):
        with pytest.raises(ValueError, match="routing rule"):
            Split("oblique", [[1, 0]], [0])

    def test_bias_length_must_match_weight_rows(self):
        with pytest.raises(ValueError, match="bias"):
            Split("argmax", [[1, 0], [0, 1]], [0, 0, 0])
        with pytest.raises(ValueError, match="bias"):
            Split("hyperplane", [[1, 0]], [0, 1])

    @pytest.mark.parametrize("rule", ["hyperplane", "equality"])
    def test_binary_rules_have_one_row(self, rule):
        with pytest.raises(ValueError, match="exactly one row"):
            Split(rule, [[1, 0], [0, 1]], [0, 0])

    def test_nearest_centre_needs_centres(self):
        with pytest.raises(ValueError, match="needs centres"):
            Split("nearest_centre", [[1, 0]], [0])

    def test_centres_must_match_value_space(self):
        with pytest.raises(ValueError, match="centres"):
            Split("nearest_centre", [[1, 0], [0, 1]], [0, 0], centres=[[0], [1]])

    @pytest.mark.parametrize("rule", ["hyperplane", "argmax", "equality"])
    def test_only_nearest_centre_has_centres(self, rule):
        with pytest.raises(ValueError, match="only a nearest_centre"):
            Split(rule, [[1, 0]], [0], centres=[[0], [1]])

    def test_child_labels_one_per_child(self):
        with pytest.raises(ValueError, match="child_labels"):
            Split.equality(0, 1, 2, child_labels=["a", "b", "c"])
        with pytest.raises(ValueError, match="child_labels"):
            Split("argmax", [[1, 0], [0, 1], [1, 1]], [0, 0, 0], child_labels=["a", "b"])
        assert Split.equality(0, 1, 2, child_labels=["a", "b"]).child_labels == ("a", "b")


# ----- ObliqueTree construction and shape -----

class TestTreeShape:
    def test_per_node_arrays_must_have_the_same_length(self):
        with pytest.raises(ValueError, match="one entry per node"):
            ObliqueTree(1, 2, [None, None], [(), ()], [-1], [[1, 1], [1, 1]], [2, 2])

    def test_split_and_children_must_agree(self):
        with pytest.raises(ValueError, match="node 0"):
            ObliqueTree(1, 2, [Split.hyperplane([1], 0)], [()], [-1], [[1, 1]], [2])
        with pytest.raises(ValueError, match="node 0"):
            ObliqueTree(1, 2, [None, None], [(1,), ()], [-1, 0], [[1, 1], [1, 1]], [2, 2])
        with pytest.raises(ValueError, match="node 0"):   # argmax with 3 rows, 2 children
            ObliqueTree(1, 2, [Split("argmax", [[1], [2], [3]], [0, 0, 0]), None, None],
                        [(1, 2), (), ()], [-1, 0, 0], [[2, 2], [1, 1], [1, 1]], [4, 2, 2])

    def test_binary_tree_shape(self):
        tree = binary_tree()
        assert tree.node_count == 5
        assert tree.n_leaves == 3
        assert tree.depth == 2
        np.testing.assert_array_equal(tree.node_depth, [0, 1, 1, 2, 2])
        np.testing.assert_array_equal(tree.is_leaf, [False, True, False, True, True])
        assert list(tree.preorder()) == [0, 1, 2, 3, 4]
        assert tree.leaves() == [1, 3, 4]
        assert tree.leaves(2) == [3, 4]
        assert tree.path(4) == [0, 2, 4]
        assert tree.path(0) == [0]
        assert_tree_invariants(tree)

    def test_multiway_tree_shape(self):
        tree = multiway_tree()
        assert tree.node_count == 8
        assert tree.n_leaves == 5
        assert tree.depth == 2
        np.testing.assert_array_equal(tree.node_depth, [0, 1, 1, 1, 2, 2, 2, 2])
        assert list(tree.preorder()) == [0, 1, 2, 4, 5, 3, 6, 7]
        assert tree.leaves() == [1, 4, 5, 6, 7]
        assert tree.path(7) == [0, 3, 7]
        assert_tree_invariants(tree)

    def test_lone_leaf(self):
        tree = lone_leaf()
        assert (tree.node_count, tree.n_leaves, tree.depth) == (1, 1, 0)
        np.testing.assert_array_equal(tree.apply(np.zeros((3, 2))), [0, 0, 0])
        np.testing.assert_allclose(tree.predict_proba(np.zeros((1, 2))), [[5 / 7, 2 / 7]])
        assert tree.decision_path(np.zeros((2, 2))).toarray().tolist() == [[1], [1]]

    def test_fitted_tree_invariants(self, fitted_trees):
        for tree, X, y in fitted_trees:
            assert tree.node_count > 1
            assert_tree_invariants(tree)
            assert_training_rows_consistent(tree, X, y)


# ----- prediction -----

class TestPrediction:
    def test_apply_binary(self):
        X = np.array([[1, 0],      # a < 2.5 -> 1
                      [2.5, 0],    # a = 2.5 -> right; 0.5·2.5 − 0 − 1 = 0.25 -> 4
                      [3, 1],      # 1.5 − 2 − 1 < 0 -> 3
                      [4, 0.5]])   # 2 − 1 − 1 = 0 exactly -> 4
        np.testing.assert_array_equal(binary_tree().apply(X), [1, 4, 3, 4])

    def test_apply_multiway(self):
        X = np.array([[3, 0],     # scores (3, 0, -3) -> 1
                      [1, 4],     # (1, 4, -5) -> 2; a = 1 -> 4
                      [0, 4],     # (0, 4, -4) -> 2; a ≠ 1 -> 5
                      [-2, -3],   # (-2, -3, 5) -> 3; a + b = -5 nearer 0 -> 6
                      [-9, 20],   # (-9, 20, -11) -> 2 -> 5
                      [-4, -4.5]])  # (-4, -4.5, 8.5) -> 3; a + b = -8.5 -> 6
        np.testing.assert_array_equal(multiway_tree().apply(X), [1, 4, 5, 6, 5, 6])
        # the third score wins only when a + b < 0, which is always nearer the centre 0
        # than the centre 5: node 7 is unreachable by design
        assert 7 not in multiway_tree().apply(np.random.default_rng(0).normal(size=(500, 2)))

    def test_apply_no_rows(self):
        assert binary_tree().apply(np.empty((0, 2))).shape == (0,)

    @pytest.mark.parametrize("make_tree", [binary_tree, multiway_tree])
    def test_decision_path_is_the_path_to_the_leaf(self, make_tree):
        tree = make_tree()
        X = np.random.default_rng(1).normal(scale=4, size=(300, 2))
        leaf = tree.apply(X)
        indicator = tree.decision_path(X)
        assert indicator.shape == (300, tree.node_count)
        dense = indicator.toarray()
        assert set(np.unique(dense)) <= {0, 1}
        for row, leaf_id in enumerate(leaf):
            assert set(np.flatnonzero(dense[row])) == set(tree.path(leaf_id))

    def test_decision_path_on_fitted_trees(self, fitted_trees):
        for tree, X, _ in fitted_trees:
            dense = tree.decision_path(X).toarray()
            # every training row passes the root, one node per level, and exactly the path
            np.testing.assert_array_equal(dense.sum(axis=0), tree.n_node_samples)
            leaf = tree.apply(X)
            np.testing.assert_array_equal(dense.sum(axis=1), tree.node_depth[leaf] + 1)
            for row in range(0, len(X), 7):
                assert set(np.flatnonzero(dense[row])) == set(tree.path(leaf[row]))

    @pytest.mark.parametrize("make_tree", [binary_tree, multiway_tree])
    def test_predict_proba_rows_sum_to_one(self, make_tree):
        tree = make_tree()
        X = np.random.default_rng(2).normal(scale=4, size=(200, 2))
        proba = tree.predict_proba(X)
        assert proba.shape == (200, tree.n_classes)
        np.testing.assert_allclose(proba.sum(axis=1), 1)
        assert (proba >= 0).all()

    def test_predict_proba_is_normalised_leaf_value(self):
        tree = binary_tree()
        np.testing.assert_allclose(tree.predict_proba(np.array([[1, 0], [3, 1], [4, 0.5]])),
                                   [[0.75, 0.25], [0, 1], [1 / 6, 5 / 6]])

    def test_empty_nodes_get_the_nearest_non_empty_ancestors_distribution(self):
        tree = multiway_tree()
        root = np.array([2, 4, 1]) / 7
        for node in (3, 6, 7):   # 3 is empty; 6 and 7 are empty children of an empty node
            np.testing.assert_allclose(tree.proba[node], root)
        np.testing.assert_allclose(tree.predict_proba(np.array([[-2, -3]])), [root])
        np.testing.assert_allclose(tree.proba[2], [0, 0.8, 0.2])

    def test_empty_root_is_uniform(self):
        tree = lone_leaf((0, 0, 0, 0))
        np.testing.assert_allclose(tree.proba, [[0.25] * 4])

    def test_fitted_predict_proba_rows_sum_to_one(self, fitted_trees):
        for tree, X, _ in fitted_trees:
            np.testing.assert_allclose(tree.predict_proba(X).sum(axis=1), 1)

    def test_pickle_round_trip(self):
        tree = multiway_tree()
        clone = pickle.loads(pickle.dumps(tree))
        assert clone.splits == tree.splits
        assert clone.export_text() == tree.export_text()
        X = np.random.default_rng(3).normal(size=(50, 2))
        np.testing.assert_array_equal(clone.apply(X), tree.apply(X))


# ----- pruning -----

class TestPruned:
    def test_collapse_internal_node(self):
        tree = binary_tree()
        pruned = tree.pruned([2])
        assert pruned is not tree
        assert pruned.node_count == 3
        assert pruned.n_leaves == 2
        assert pruned.depth == 1
        assert pruned.splits[0] == tree.splits[0]
        assert pruned.splits[2] is None
        np.testing.assert_array_equal(pruned.value, [[4, 8], [3, 1], [1, 7]])
        np.testing.assert_array_equal(pruned.n_node_samples, [12, 4, 8])
        np.testing.assert_array_equal(pruned.parent, [-1, 0, 0])
        assert_tree_invariants(pruned)
        # the original is untouched
        assert tree.node_count == 5 and tree.splits[2] is not None
        X = np.array([[1, 0], [3, 1], [4, 0.5]])
        np.testing.assert_array_equal(pruned.apply(X), [1, 2, 2])
        np.testing.assert_allclose(pruned.predict_proba(X)[1], [1 / 8, 7 / 8])

    def test_collapse_root(self):
        pruned = binary_tree().pruned([0])
        assert (pruned.node_count, pruned.n_leaves, pruned.depth) == (1, 1, 0)
        np.testing.assert_array_equal(pruned.value, [[4, 8]])

    def test_collapse_nothing_or_leaves_keeps_the_tree(self):
        tree = binary_tree()
        for collapse in ([], [1, 3, 4]):
            pruned = tree.pruned(collapse)
            assert pruned.splits == tree.splits
            assert pruned.children == tree.children
            np.testing.assert_array_equal(pruned.value, tree.value)

    def test_renumbers_in_preorder(self):
        tree = multiway_tree()
        pruned = tree.pruned([3])
        # preorder of the original: 0, 1, 2, 4, 5, 3 (6, 7 dropped)
        assert pruned.node_count == 6
        assert list(pruned.preorder()) == list(range(6))
        np.testing.assert_array_equal(pruned.value, tree.value[[0, 1, 2, 4, 5, 3]])
        assert pruned.children[0] == (1, 2, 5)
        assert pruned.children[2] == (3, 4)
        assert pruned.splits[5] is None
        np.testing.assert_allclose(pruned.proba[5], tree.proba[0])
        assert_tree_invariants(pruned)

    def test_collapsed_node_receives_its_subtrees_rows(self, fitted_trees):
        tree, X, y = fitted_trees[1]
        internal = [n for n in range(tree.node_count)
                    if tree.splits[n] is not None and n != 0]
        collapse = internal[: max(1, len(internal) // 3)]
        pruned = tree.pruned(collapse)
        assert pruned.n_leaves < tree.n_leaves
        assert_tree_invariants(pruned)
        assert_training_rows_consistent(pruned, X, y)
        # a row's new leaf has the statistics of its old leaf or of a collapsed ancestor
        old_paths = tree.decision_path(X).toarray().astype(bool)
        new_leaf = pruned.apply(X)
        collapsed = set(collapse)
        for row in range(0, len(X), 5):
            path = [n for n in tree.path(tree.apply(X[row:row + 1])[0])]
            first_collapsed = next((n for n in path if n in collapsed), path[-1])
            assert old_paths[row, first_collapsed]
            np.testing.assert_array_equal(pruned.value[new_leaf[row]],
                                          tree.value[first_collapsed])


# ----- grow_tree -----

class TestGrowTree:
    def test_split_that_separates_nothing_makes_a_leaf(self):
        X = np.array([[0.0], [1.0], [2.0], [3.0]])
        y = np.array([0, 1, 0, 1])
        tree = grow_tree(X, y, np.ones(4), 2, lambda rows, counts, depth:
                         Split.hyperplane([1.0], 10.0))   # everything >= 0: all right
        assert tree.node_count == 1
        np.testing.assert_array_equal(tree.value, [[2, 2]])

    def test_empty_child_becomes_leaf_with_parents_distribution(self):
        X = np.array([[2.0, 0.0], [3.0, 1.0], [0.0, 2.0], [1.0, 4.0]])
        y = np.array([0, 0, 1, 1])
        calls = []

        def propose(rows, counts, depth):
            calls.append(rows.tolist())
            # third score -x1 - x2 never wins on this data: an empty third child
            return Split("argmax", [[1, 0], [0, 1], [-1, -1]], [0, 0, 0])

        tree = grow_tree(X, y, np.ones(4), 2, propose)
        assert calls == [[0, 1, 2, 3]]   # the pure and the empty children are not split
        assert tree.children[0] == (1, 2, 3)
        np.testing.assert_array_equal(tree.n_node_samples, [4, 2, 2, 0])
        np.testing.assert_array_equal(tree.value[3], [0, 0])
        np.testing.assert_allclose(tree.proba[3], [0.5, 0.5])
        assert_tree_invariants(tree)

    def test_stopping_arguments(self):
        rng = np.random.default_rng(0)
        X = rng.normal(size=(64, 1))
        y = rng.integers(0, 2, 64)

        def median_split(rows, counts, depth):
            return Split.axis_parallel(0, np.median(X[rows, 0]) + 1e-12, 1)

        def grow(**kwargs):
            return grow_tree(X, y, np.ones(64), 2, median_split, **kwargs)

        assert grow(max_depth=0).node_count == 1
        assert grow(max_depth=2).depth <= 2
        tree = grow(min_samples_split=20)
        internal = ~tree.is_leaf
        assert (tree.n_node_samples[internal] >= 20).all()
        stopped = grow(should_stop=lambda counts, parent, depth: parent is not None)
        assert stopped.depth == 1
        seen = []
        grow(max_depth=1, should_stop=lambda c, p, d: seen.append((p is None, d)) or False)
        assert seen[0] == (True, 0)

    def test_weighted_counts(self):
        X = np.array([[0.0], [1.0], [2.0]])
        tree = grow_tree(X, np.array([0, 1, 1]), np.array([0.5, 2.0, 1.5]), 2,
                         lambda rows, counts, depth: Split.axis_parallel(0, 0.5, 1))
        np.testing.assert_allclose(tree.value, [[0.5, 3.5], [0.5, 0], [0, 3.5]])
        np.testing.assert_array_equal(tree.n_node_samples, [3, 1, 2])


# ----- rule text -----

class TestExportText:
    def test_binary_tree_default_names(self):
        assert binary_tree().export_text() == (
            "|--- x1 < 2.5\n"
            "|   |--- class: 0 [3, 1]\n"
            "|--- x1 ≥ 2.5\n"
            "|   |--- 0.5·x1 − 2·x2 < 1\n"
            "|   |   |--- class: 1 [0, 2]\n"
            "|   |--- 0.5·x1 − 2·x2 ≥ 1\n"
            "|   |   |--- class: 1 [1, 5]\n")

    def test_binary_tree_feature_and_class_names(self):
        text = binary_tree().export_text(feature_names=["a", "b"], class_names=["no", "yes"])
        assert text == (
            "|--- a < 2.5\n"
            "|   |--- class: no [3, 1]\n"
            "|--- a ≥ 2.5\n"
            "|   |--- 0.5·a − 2·b < 1\n"
            "|   |   |--- class: yes [0, 2]\n"
            "|   |--- 0.5·a − 2·b ≥ 1\n"
            "|   |   |--- class: yes [1, 5]\n")

    def test_without_counts(self):
        text = binary_tree().export_text(["a", "b"], show_counts=False)
        assert text.splitlines()[1] == "|   |--- class: 0"

    def test_wrong_number_of_names(self):
        with pytest.raises(ValueError, match="expected 2 names"):
            binary_tree().export_text(feature_names=["a"])
        with pytest.raises(ValueError, match="expected 2 names"):
            binary_tree().export_text(class_names=["a", "b", "c"])

    def test_lone_leaf(self):
        assert lone_leaf().export_text() == "|--- class: 0 [5, 2]\n"
        assert lone_leaf((1, 4)).export_text(class_names=["a", "b"]) == "|--- class: b [1, 4]\n"
        # a tie goes to the first class
        assert lone_leaf((3, 3)).export_text(class_names=["a", "b"]) == "|--- class: a [3, 3]\n"

    @staticmethod
    def stump(weights, bias, value=((1, 0), (0, 1)), decimals=3):
        split = Split.hyperplane(weights, bias)
        total = np.sum(value, axis=0)
        tree = ObliqueTree(len(weights), 2, [split, None, None], [(1, 2), (), ()],
                           [-1, 0, 0], [total, *value], [1, 1, 1])
        return tree.export_text(["a", "b"][:len(weights)], decimals=decimals)

    def test_oblique_text(self):
        assert self.stump([0.5, -2], -1) == (
            "|--- 0.5·a − 2·b < 1\n"
            "|   |--- class: 0 [1, 0]\n"
            "|--- 0.5·a − 2·b ≥ 1\n"
            "|   |--- class: 1 [0, 1]\n")

    def test_negative_leading_weight_and_negative_right_hand_side(self):
        assert self.stump([-1, 0.25], 0.5).splitlines()[::2] == [
            "|--- −a + 0.25·b < −0.5", "|--- −a + 0.25·b ≥ −0.5"]

    def test_zero_weights_are_omitted(self):
        assert self.stump([0, 3], 0).splitlines()[0] == "|--- b < 0"
        split_text = self.stump([2, -0.0], -1).splitlines()[0]
        assert split_text == "|--- a < 0.5"

    def test_single_negative_weight_flips_the_comparison(self):
        # −2·b + 3 < 0  <=>  b > 1.5
        assert self.stump([0, -2], 3).splitlines()[::2] == ["|--- b > 1.5", "|--- b ≤ 1.5"]

    def test_single_feature_threshold_is_divided_by_the_weight(self):
        # 4·a − 2 ≥ 0  <=>  a ≥ 0.5
        assert self.stump([4, 0], -2).splitlines()[::2] == ["|--- a < 0.5", "|--- a ≥ 0.5"]

    def test_numbers_have_significant_digits_not_decimals(self):
        """Rule numbers have the split's significant digits (four when not calibrated on
        training rows); ``decimals`` only sets the class counts."""
        weights, bias = [0.123456, -1.0], 2.71828
        assert self.stump(weights, bias).splitlines()[0] == "|--- 0.1235·a − b < −2.718"
        assert self.stump(weights, bias, decimals=1).splitlines()[0] == (
            "|--- 0.1235·a − b < −2.718")
        assert self.stump([0.00012, 1], 0).splitlines()[0] == "|--- 0.00012·a + b < 0"
        assert self.stump([0.000572345, 1], -89.0571).splitlines()[0] == (
            "|--- 0.0005723·a + b < 89.06")

    def test_weight_rounding_to_one_drops_the_coefficient(self):
        assert self.stump([0.99996, 1.5], -2).splitlines()[0] == "|--- a + 1.5·b < 2"

    def test_weighted_counts_use_decimals(self):
        text = self.stump([1, 0], 0, value=((1.5, 0.25), (0, 2 / 3)), decimals=2)
        assert text.splitlines()[1] == "|   |--- class: 0 [1.5, 0.25]"
        assert text.splitlines()[3] == "|   |--- class: 1 [0, 0.67]"

    def test_multiway_tree(self):
        text = multiway_tree().export_text(["a", "b"], ["p", "q", "r"])
        assert text == (
            "|--- largest score: 1 of [a; b; −a − b]\n"
            "|   |--- class: p [2, 0, 0]\n"
            "|--- largest score: 2 of [a; b; −a − b]\n"
            "|   |--- a = 1\n"
            "|   |   |--- class: q [0, 3, 0]\n"
            "|   |--- a ≠ 1\n"
            "|   |   |--- class: q [0, 1, 1]\n"
            "|--- largest score: 3 of [a; b; −a − b]\n"
            "|   |--- nearest centre: 1\n"
            "|   |   |--- class: q [0, 0, 0]\n"
            "|   |--- nearest centre: 2\n"
            "|   |   |--- class: q [0, 0, 0]\n")

    def test_child_labels(self):
        split = Split.equality(1, 2, 2, child_labels=["red", "other"])
        tree = ObliqueTree(2, 2, [split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                           [[1, 1], [1, 0], [0, 1]], [2, 1, 1])
        assert tree.export_text(["size", "colour"]).splitlines()[::2] == [
            "|--- colour = red", "|--- colour ≠ red"]

    def test_fitted_tree_text_has_one_line_per_branch_and_leaf(self, fitted_trees):
        tree = fitted_trees[0][0]
        lines = tree.export_text().splitlines()
        assert len(lines) == (tree.node_count - 1) + tree.n_leaves
        assert sum(line.lstrip("|- ").startswith("class:") for line in lines) == tree.n_leaves


# ----- format_number -----

class TestFormatNumber:
    @pytest.mark.parametrize("value, decimals, expected", [
        (0, 3, "0"),
        (-0.0, 3, "0"),
        (1.0, 3, "1"),
        (2.5, 3, "2.5"),
        (-2.5, 3, "−2.5"),
        (1234.5678, 3, "1234.568"),
        (1.9999, 3, "2"),
        (-1.9999, 3, "−2"),
        (0.0001, 3, "0.0001"),
        (-0.0001, 3, "−0.0001"),
        (0.00049, 3, "0.00049"),
        (0.123456, 1, "0.1"),
        (3.7, 0, "4"),
        (-2.71828, 0, "−3"),
        (0.3, 0, "0.3"),     # non-zero never printed as 0
        (7, 0, "7"),
        (5, -2, "5"),        # negative decimals behave as 0
        (1e20, 3, "100000000000000000000"),
        (np.float32(0.5), 3, "0.5"),
        (np.int64(-4), 3, "−4"),
        (float("inf"), 3, "inf"),
        (float("nan"), 3, "nan"),
    ])
    def test_values(self, value, decimals, expected):
        assert format_number(value, decimals) == expected

    def test_default_decimals_is_three(self):
        assert format_number(3.14159265) == "3.142"

    @pytest.mark.parametrize("value", [1e-10, 3.3e-7, 0.002, 12.5, 1e20])
    def test_tiny_values_are_not_zero_and_round_trip(self, value):
        text = format_number(value, 3)
        assert text != "0"
        assert float(text.replace("−", "-")) == pytest.approx(value, rel=1e-2)

    @pytest.mark.parametrize("value", [2.5, 0.0001, 0.00049, 1234.5678, 1e-10, 3.3e-7,
                                       float("inf")])
    def test_negative_is_minus_sign_and_the_positive_text(self, value):
        """``−x`` prints as U+2212 followed by the text of ``x``, never an ASCII hyphen."""
        assert format_number(-value, 3) == "−" + format_number(value, 3)


class TestRecounted:
    def test_counts_are_those_of_the_given_rows(self):
        from orangecontrib.oblique.core import GeometricTreeClassifier
        from orangecontrib.oblique.core.datasets import checkerboard_2x2
        X, y = checkerboard_2x2(600, random_state=1)
        codes = (y == 1).astype(int)
        tree = GeometricTreeClassifier().fit(X[:300], codes[:300]).tree_
        recounted = tree.recounted(X, codes, np.ones(len(X)))
        assert recounted.splits == tree.splits
        assert recounted.value[0].sum() == 600
        leaf = recounted.apply(X)
        for node in recounted.leaves():
            assert recounted.n_node_samples[node] == np.count_nonzero(leaf == node)
            np.testing.assert_array_equal(
                recounted.value[node], np.bincount(codes[leaf == node], minlength=2))
        for node in range(recounted.node_count):
            if recounted.children[node]:
                np.testing.assert_allclose(
                    recounted.value[list(recounted.children[node])].sum(axis=0),
                    recounted.value[node])


def test_pruned_estimator_counts_every_training_row():
    from orangecontrib.oblique.core import GeometricTreeClassifier
    from orangecontrib.oblique.core.datasets import checkerboard_4x4
    X, y = checkerboard_4x4(800, random_state=2)
    model = GeometricTreeClassifier(pruning_portion=0.2, random_state=0).fit(X, y)
    assert model.tree_.value[0].sum() == 800
    assert model.tree_.n_node_samples[0] == 800
