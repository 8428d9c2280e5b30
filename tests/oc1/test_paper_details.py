"""OC1 as its paper means it: a split must lower the node's impurity, leaves keep the
class of their growing rows (held-out pruning rows do not relabel them; GDT shares the
rule), and stagnant perturbations (Figure 2)."""
import numpy as np
import pytest

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier
from orangecontrib.oblique.core import base as base_module
from orangecontrib.oblique.core.oc1.classifier import OC1Splitter, SearchSettings, node_impurity

from tests.helpers.invariants import assert_training_rows_consistent, assert_tree_invariants


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
    def stagnant_search(draws):
        """A sequential local search (no jumps, ``stagnation_step`` 0.5) at a node where
        every split that separates something has the same sum minority (each point
        carries a row of each class), so every perturbation is stagnant; the random
        words make ``random_sample()`` give ``draws`` (then 0.99).  Returns the number of
        draws used and the coefficients moved."""
        from orangecontrib.oblique.core.tree import line_search
        from orangecontrib.oblique.core.oc1 import classifier as oc1
        points = np.array([[0.3, 1.2], [1.1, -0.4], [-0.7, 0.5], [0.9, 0.8]])
        Z = np.column_stack([np.repeat(points, 2, axis=0), np.ones(8)])
        y = np.tile([0, 1], 4)
        counts = np.zeros((2, len(y)))
        counts[y, np.arange(len(y))] = 1
        node = oc1.NodeSearch(Z, counts, "sum_minority")
        uniforms = list(draws) + [0.99] * 20
        words = np.zeros(2 * len(uniforms), dtype=np.int64)
        words[0::2] = (np.array(uniforms) * 2 ** 27).astype(np.int64) << 5
        hyperplane = np.array([1.0, 0.5, -0.2])
        values = Z @ hyperplane
        assert node.split_impurity(values) == 4
        plane = hyperplane.copy()
        impurity, position = line_search.local_search(
            Z, node.columns, node.arguments, node.workspace, plane, values, np.nan,
            (line_search.ORDER_CODES["sequential"], 0, 0.5, 100, True, 50), words, 0)
        assert impurity == 4
        return position // 2, int(np.count_nonzero(plane != hyperplane))

    def test_p_move_falls_on_every_stagnant_perturbation(self):
        """Figure 2: P_move falls after every stagnant perturbation, taken or not.  Draws
        0.7 (taken: P_move 1 → 0.5), 0.6 (not taken: 0.5 → 0), 0.4 (not taken, P_move is
        0); had P_move fallen only on taken moves, 0.4 < 0.5 would be taken."""
        # 0.7 taken (coefficient 0), 0.6 not (coefficient 1); the next pass: 0.4 and
        # 0.99 not taken, no move: the search ends after 4 draws (had 0.4 been taken,
        # a third pass would draw twice more)
        assert self.stagnant_search([0.7, 0.6, 0.4]) == (4, 1)
        # 0.7 and 0.4 (< 0.5) taken: both coefficients moved; then a pass of none
        assert self.stagnant_search([0.7, 0.4]) == (4, 2)

    def test_parameter(self):
        assert OC1Classifier().stagnation_step == 0.1
        X, y = no_improvement_rows()
        with pytest.raises(ValueError, match="stagnation_step"):
            OC1Classifier(stagnation_step=-1).fit(X, y)
