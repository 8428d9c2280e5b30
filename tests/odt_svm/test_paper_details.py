"""ODT-SVM as its paper means it: the test choice of Fig. 2 (step 2.5), pairwise
multi-class SVM splits (the ``pairwise_vote`` split kind) and C4.5's subtree raising."""
import numpy as np
import pytest
from sklearn.datasets import load_iris

from tests.helpers.invariants import axis_parallel
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier
from orangecontrib.oblique.core.tree.pruning import error_based_prune
from orangecontrib.oblique.core.tree.rules import branch_conditions, scores_text
from orangecontrib.oblique.core.tree.splits import (PAIRWISE_VOTE, Split, pairwise_pairs,
                                                    pairwise_votes)
from orangecontrib.oblique.core.tree.structure import grow_tree

from tests.helpers.invariants import assert_training_rows_consistent, assert_tree_invariants


# ----- ODT-SVM: the paper's test choice (Fig. 2, step 2.5) -----

class TestTestSelection:
    def test_iris_root_is_the_svm_split(self):
        """The 3-way SVM split has the highest corrected gain at the iris root; J48's
        gain ratio preferred a threshold test."""
        X, y = load_iris(return_X_y=True)
        paper = ODTSVMClassifier(random_state=0).fit(X, y)
        assert paper.tree_.splits[0].kind.name == PAIRWISE_VOTE
        assert paper.tree_.splits[0].n_children == 3
        assert len(paper.tree_.splits[0].features_used) > 1
        j48 = ODTSVMClassifier(random_state=0, test_selection="gain_ratio").fit(X, y)
        assert axis_parallel(j48.tree_.splits[0])

    def test_one_vs_rest_is_an_option(self):
        X, y = load_iris(return_X_y=True)
        model = ODTSVMClassifier(random_state=0, multiclass="one_vs_rest").fit(X, y)
        assert model.tree_.splits[0].kind.name == "argmax"

    @pytest.mark.parametrize("name, value", [("test_selection", "ratio"),
                                             ("multiclass", "ovo")])
    def test_invalid_choices(self, name, value):
        X, y = load_iris(return_X_y=True)
        with pytest.raises(ValueError, match=name):
            ODTSVMClassifier(**{name: value}).fit(X, y)


# ----- the pairwise_vote split kind -----

def three_class_split():
    """Three classes around (0, 0), (4, 0), (0, 4): pair (a, b) decides by the
    perpendicular bisector of the two centres, ≥ 0 on a's side."""
    centres = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]])
    weights, bias = [], []
    for a, b in pairwise_pairs(3):
        w = centres[a] - centres[b]
        weights.append(w)
        bias.append(-w @ (centres[a] + centres[b]) / 2)
    return Split(PAIRWISE_VOTE, weights, bias, classes=[0, 1, 2])


class TestPairwiseVote:
    def test_pairs_in_lexicographic_order(self):
        assert pairwise_pairs(4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]

    def test_routes_by_most_wins(self):
        split = three_class_split()
        assert split.n_children == 3
        points = np.array([[0.1, 0.2], [3.5, 0.1], [0.3, 3.9], [-5, -5], [9, 0], [0, 9]])
        np.testing.assert_array_equal(split.route(points), [0, 1, 2, 0, 1, 2])

    def test_a_voting_cycle_goes_to_the_lowest_class(self):
        # values for the pairs (0,1), (0,2), (1,2): 0 beats 1, 2 beats 0, 1 beats 2
        values = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0]])
        np.testing.assert_array_equal(pairwise_votes(values, 3), [0, 0])
        # two wins decide
        assert pairwise_votes(np.array([[-1.0, 1.0, 1.0]]), 3)[0] == 1

    def test_conditions_and_text(self):
        split = three_class_split()
        conditions = split.conditions()
        assert [c.form for c in conditions] == ["votes"] * 3
        assert conditions[0].pairs == ((0, 1), (0, 2), (1, 2))
        texts = branch_conditions(split, ["x", "y"])
        assert texts[0] == "wins most pairwise votes: 0"
        from orangecontrib.oblique.core.tree.rules import Vocabulary
        vocabulary = Vocabulary(["x", "y"], classes=["a", "b", "c"])
        assert branch_conditions(split, vocabulary)[2] == "wins most pairwise votes: c"
        assert scores_text(conditions[0], vocabulary).startswith("a vs b: −4·x")

    def test_half_planes_are_the_outright_win_cells(self):
        split = three_class_split()
        assert not split.kind.regions_exact
        grid = np.random.RandomState(0).uniform(-6, 6, size=(2000, 2))
        position = split.route(grid)
        for child in range(3):
            inside = np.ones(len(grid), dtype=bool)
            for a, c in split.kind.child_half_planes(split, child):
                inside &= grid @ a + c >= 0
            # every point of a child's cell goes to that child
            assert np.all(position[inside] == child)
            assert inside.any()

    def test_printed_split_routes_as_the_split(self):
        split = three_class_split()
        X = np.random.RandomState(1).uniform(-6, 6, size=(300, 2))
        split.calibrate_digits(X)
        np.testing.assert_array_equal(split.printed().route(X), split.route(X))

    def test_wrong_number_of_rows(self):
        with pytest.raises(ValueError, match="k\\(k−1\\)/2"):
            Split(PAIRWISE_VOTE, np.ones((2, 2)), [0.0, 0.0])

    def test_odt_svm_three_blobs_one_child_per_class(self):
        rng = np.random.RandomState(0)
        centres = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]])
        X = np.vstack([c + rng.normal(0, 0.5, size=(40, 2)) for c in centres])
        y = np.repeat([0, 1, 2], 40)
        model = ODTSVMClassifier(random_state=0, clustering_split=False).fit(X, y)
        root = model.tree_.splits[0]
        assert root.kind.name == PAIRWISE_VOTE
        np.testing.assert_array_equal(root.route(centres), [0, 1, 2])
        assert model.score(X, y) == 1.0
        assert_tree_invariants(model.tree_)
        assert_training_rows_consistent(model.tree_, X, y)


# ----- C4.5's subtree raising -----

def raising_tree():
    """The root tests x0 and sends 3 rows (2 of class 0, 1 of class 1) left, where they
    stay a leaf; its large right branch tests x1, which separates every row."""
    rng = np.random.RandomState(0)
    X = np.column_stack([np.r_[-1.0, -1.0, -1.0, rng.uniform(0, 1, 40)],
                         np.r_[-1.0, -1.0, 1.0, rng.uniform(-1, 1, 40)]])
    y = (X[:, 1] >= 0).astype(np.intp)

    def propose(rows, counts, depth):
        if depth == 0:
            return Split.axis_parallel(0, -0.5, 2)
        return Split.axis_parallel(1, 0.0, 2) if len(rows) > 3 else None
    return grow_tree(X, y, np.ones(len(y)), 2, propose), X, y


class TestSubtreeRaising:
    def test_largest_branch_replaces_the_node(self):
        tree, X, y = raising_tree()
        assert tree.n_leaves == 3
        assert error_based_prune(tree, 0.25).n_leaves == 3    # replacement only
        raised = error_based_prune(tree, 0.25, subtree_raising=True, X=X, y=y)
        assert raised.n_leaves == 2
        assert raised.splits[0].features_used.tolist() == [1]
        assert_training_rows_consistent(raised, X, y)
        np.testing.assert_array_equal(np.argmax(raised.predict_proba(X), axis=1), y)

    def test_needs_the_rows(self):
        tree, _, _ = raising_tree()
        with pytest.raises(ValueError, match="training rows"):
            error_based_prune(tree, 0.25, subtree_raising=True)

    def test_without_anything_to_raise_as_replacement(self):
        X, y = load_iris(return_X_y=True)
        grown = ODTSVMClassifier(random_state=0, confidence=None).fit(X, y).tree_
        plain = error_based_prune(grown, 0.25)
        raised = error_based_prune(grown, 0.25, subtree_raising=True, X=X, y=y)
        assert raised.n_leaves <= plain.n_leaves

    def test_odt_svm_raises_by_default(self):
        assert ODTSVMClassifier().subtree_raising is True
