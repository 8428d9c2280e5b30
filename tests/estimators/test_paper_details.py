"""The papers' own details -- ODT-SVM's test choice, pairwise multi-class SVM
splits and subtree raising; OC1's leaf rule, labels from the growing rows and stagnant
perturbations; GDT's ε1 chosen in the paper's range."""
import numpy as np
import pytest
from sklearn.datasets import load_iris

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier
from orangecontrib.oblique.core import base as base_module
from orangecontrib.oblique.core.geometric.classifier import AUTO_EPSILON1
from orangecontrib.oblique.core.oc1.classifier import OC1Splitter, node_impurity
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
        assert paper.tree_.splits[0].rule == PAIRWISE_VOTE
        assert paper.tree_.splits[0].n_children == 3
        assert len(paper.tree_.splits[0].features_used) > 1
        j48 = ODTSVMClassifier(random_state=0, test_selection="gain_ratio").fit(X, y)
        assert j48.tree_.splits[0].is_axis_parallel

    def test_one_vs_rest_is_an_option(self):
        X, y = load_iris(return_X_y=True)
        model = ODTSVMClassifier(random_state=0, multiclass="one_vs_rest").fit(X, y)
        assert model.tree_.splits[0].rule == "argmax"

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
        assert texts[0] == "most pairwise votes: 0"
        from orangecontrib.oblique.core.tree.rules import Vocabulary
        vocabulary = Vocabulary(["x", "y"], classes=["a", "b", "c"])
        assert branch_conditions(split, vocabulary)[2] == "most pairwise votes: c"
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
        assert root.rule == PAIRWISE_VOTE
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


# ----- OC1: a split must lower the node's impurity -----

def no_improvement_rows():
    """22 rows on a line, every third of class 1 between rows of class 0: no hyperplane
    lowers the node's minority (6), every side keeps class 0 as its majority."""
    x = np.arange(22, dtype=float)
    return np.column_stack([x, 2 * x + 1]), np.array([0, 0, 1] * 6 + [0, 0, 0, 0])


class TestOC1LeafRule:
    def test_node_impurity(self):
        total = np.array([16.0, 6.0])
        assert node_impurity(total, "sum_minority") == 6
        assert node_impurity(total, "max_minority") == 6
        assert node_impurity(total, "gini") == pytest.approx(1 - (16 / 22) ** 2 - (6 / 22) ** 2)
        assert node_impurity(total, "twoing") == np.inf

    def test_no_improvement_makes_one_leaf(self):
        X, y = no_improvement_rows()
        model = OC1Classifier(impurity="sum_minority", pruning_portion=0,
                              random_state=0).fit(X, y)
        assert model.tree_.n_leaves == 1
        np.testing.assert_array_equal(model.predict(X), 0)

    def test_a_split_that_lowers_the_impurity_is_kept(self):
        X, y = no_improvement_rows()
        y = y.copy()
        y[:3] = 1     # three rows of class 1 at one end: a threshold isolates them
        model = OC1Classifier(impurity="sum_minority", pruning_portion=0,
                              random_state=0).fit(X, y)
        assert model.tree_.n_leaves >= 2


# ----- held-out pruning rows do not relabel leaves -----

class TestPruningRowsDoNotRelabel:
    def test_leaf_keeps_the_class_of_its_growing_rows(self, monkeypatch):
        # left of 0: growing rows 3 × class 0 and 1 × class 1; the held-out rows there are
        # 3 × class 1, so all rows together have a class-1 majority on the left
        X = np.array([[-1.0]] * 7 + [[1.0]] * 4)
        y = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1])
        grow_rows, prune_rows = np.r_[0:4, 7:11], np.r_[4:7]
        monkeypatch.setattr(base_module, "holdout_split",
                            lambda y, portion, random_state: (grow_rows, prune_rows))
        monkeypatch.setattr(base_module, "MIN_PRUNING_ROWS", 1)  # 3 held-out rows prune here
        model = OC1Classifier(split_mode="axis_parallel", pruning_portion=0.1,
                              random_state=0).fit(X, y)
        tree = model.tree_
        assert tree.n_leaves == 2
        left = tree.apply(X[:1])[0]
        assert model.predict(X[:1])[0] == 0                   # from the growing rows
        np.testing.assert_array_equal(tree.value[left], [3, 4])   # counts of all rows
        np.testing.assert_array_equal(tree.grow_value[left], [3, 1])
        assert_tree_invariants(tree)
        assert_training_rows_consistent(tree, X, y)

    def test_gdt_pruning_shares_the_rule(self):
        rng = np.random.RandomState(0)
        X = rng.normal(size=(200, 2))
        y = (X[:, 0] + 0.3 * rng.normal(size=200) > 0).astype(int)
        model = GeometricTreeClassifier(pruning_portion=0.2, random_state=0).fit(X, y)
        assert hasattr(model.tree_, "grow_value")
        assert_tree_invariants(model.tree_)


# ----- OC1: stagnant perturbations (Figure 2) -----

class TestStagnantPerturbations:
    @staticmethod
    def taken_moves(draws, monkeypatch):
        """Stagnant perturbations taken, with a step of 0.5, when every perturbation finds
        the same impurity one unit away and the random draws are ``draws`` (then 0.99)."""
        from orangecontrib.oblique.core.oc1 import classifier as oc1
        monkeypatch.setattr(oc1.NodeSearch, "line_step",
                            lambda self, values, direction: (1.0, 1.0))
        X = np.array([[0.0, 0.0], [1.0, 0.1], [0.1, 1.0], [1.0, 1.0]])
        y = np.array([0, 1, 0, 1])
        queue = list(draws)

        class Scripted(np.random.RandomState):
            def random_sample(self, *args):
                return queue.pop(0) if queue else 0.99

        splitter = OC1Splitter(X, y, np.ones(len(y)), 2, "sum_minority", 1, 0, "random",
                               1.0, 2.0, "oblique", Scripted(0), stagnation_step=0.5)
        Z = np.hstack([X, np.ones((len(X), 1))])
        counts = np.zeros((2, len(y)))
        counts[y, np.arange(len(y))] = 1
        hyperplane = np.zeros(3)
        node = oc1.NodeSearch(Z, counts, "sum_minority")
        splitter.perturb_coefficients(node, hyperplane, Z @ hyperplane, 1.0)
        return int(hyperplane.sum())       # every taken move adds 1 to a coefficient

    def test_p_move_falls_on_every_stagnant_perturbation(self, monkeypatch):
        """Figure 2: P_move falls after every stagnant perturbation, taken or not.  Draws
        0.7 (taken: P_move 1 → 0.5), 0.6 (not taken: 0.5 → 0), 0.4 (not taken, P_move is
        0); had P_move fallen only on taken moves, 0.4 < 0.5 would be taken."""
        assert self.taken_moves([0.7, 0.6, 0.4], monkeypatch) == 1
        assert self.taken_moves([0.7, 0.4], monkeypatch) == 2      # 0.4 < 0.5: taken

    def test_parameter(self):
        assert OC1Classifier().stagnation_step == 0.1
        X, y = no_improvement_rows()
        with pytest.raises(ValueError, match="stagnation_step"):
            OC1Classifier(stagnation_step=-1).fit(X, y)


# ----- GDT: ε1 chosen in the paper's range -----

class TestEpsilonAuto:
    def test_chosen_in_range_from_training_rows_only(self, monkeypatch):
        from orangecontrib.oblique.core.datasets import checkerboard_4x4
        X, y = checkerboard_4x4(n_samples=400, random_state=0)
        train = np.arange(300)
        seen = []
        fit = GeometricTreeClassifier.fit

        def spy(self, X_fit, y_fit, *args, **kwargs):
            seen.append((self.epsilon1, X_fit.copy()))
            return fit(self, X_fit, y_fit, *args, **kwargs)
        monkeypatch.setattr(GeometricTreeClassifier, "fit", spy)
        model = GeometricTreeClassifier(epsilon1="auto", random_state=0).fit(X[train],
                                                                             y[train])
        assert 0.1 <= model.epsilon1_ <= 0.2
        assert model.epsilon1_ in AUTO_EPSILON1
        assert sorted(model.epsilon1_scores_) == list(AUTO_EPSILON1)
        inner = [(e, rows) for e, rows in seen if e != "auto"]
        assert len(inner) == 5 * len(AUTO_EPSILON1)
        training = {tuple(row) for row in X[train]}
        for _, rows in inner:
            assert len(rows) < len(train)
            assert all(tuple(row) in training for row in rows)

    def test_fixed_epsilon_is_kept(self):
        X, y = load_iris(return_X_y=True)
        model = GeometricTreeClassifier(epsilon1=0.15).fit(X, y)
        assert model.epsilon1_ == 0.15 and model.epsilon1_scores_ is None

    def test_invalid(self):
        X, y = load_iris(return_X_y=True)
        with pytest.raises(ValueError, match="epsilon1"):
            GeometricTreeClassifier(epsilon1="best").fit(X, y)
