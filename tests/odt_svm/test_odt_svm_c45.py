"""ODT-SVM as C4.5/J48 and its paper mean it: nominal tests one branch per
value, J48's threshold tests (cost and placement), the SVM split's attributes coded as a
subset, J48's collapse."""
import numpy as np
import pytest
from sklearn.utils import check_random_state

from tests.helpers.invariants import axis_parallel
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier, ODTSVMSplitter
from orangecontrib.oblique.core.tree.pruning import collapse
from orangecontrib.oblique.core.tree.splits import NOMINAL, Split
from orangecontrib.oblique.core.tree.structure import ObliqueTree

from tests.helpers.invariants import assert_training_rows_consistent, assert_tree_invariants


def splitter(X, y, categorical=(), **params):
    estimator = ODTSVMClassifier(**params)
    estimator.classes_ = np.arange(int(y.max()) + 1)
    return ODTSVMSplitter(X, y, np.ones(len(y)), len(estimator.classes_),
                          np.asarray(categorical, dtype=np.intp), estimator,
                          check_random_state(0))


def four_valued():
    """400 rows: a nominal attribute of 4 values that decides the class (values 0 and 2:
    class 0; 1 and 3: class 1, with 5 % noise) and a continuous one of noise."""
    rng = np.random.default_rng(0)
    nominal = rng.integers(0, 4, 400)
    y = (nominal % 2 == 1) ^ (rng.random(400) < 0.05)
    return np.column_stack([nominal, rng.normal(size=400)]), y.astype(int)


class TestMultiwayNominalTests:
    def test_four_values_make_a_four_way_node(self):
        X, y = four_valued()
        model = ODTSVMClassifier(categorical_features=[0], random_state=0).fit(X, y)
        root = model.tree_.splits[0]
        assert root.kind.name == NOMINAL and root.n_children == 4
        np.testing.assert_array_equal(root.features_used, [0])
        for position, child in enumerate(model.tree_.children[0]):
            assert model.tree_.n_node_samples[child] == np.sum(X[:, 0] == position)
        assert [c.operator for c in root.conditions()] == ["="] * 4
        assert [c.value for c in root.conditions()] == [0, 1, 2, 3]
        assert_tree_invariants(model.tree_)
        assert_training_rows_consistent(model.tree_, X, y)

    def test_binary_value_tests_stay_an_option(self):
        X, y = four_valued()
        model = ODTSVMClassifier(categorical_features=[0], random_state=0,
                                 nominal_tests="binary").fit(X, y)
        assert model.tree_.splits[0].kind.name == "equality"

    def test_a_value_absent_at_the_node_gets_an_empty_branch(self):
        """C4.5 makes a branch for every value of the attribute; one without rows
        predicts its parent's distribution."""
        X, y = four_valued()
        model = ODTSVMClassifier(categorical_features=[0], random_state=0,
                                 confidence=None).fit(X[X[:, 0] != 2], y[X[:, 0] != 2])
        # the codes seen are 0, 1, 3: the attribute has values 0 .. 3
        root = model.tree_.splits[0]
        assert root.kind.name == NOMINAL and root.n_children == 4
        empty = model.tree_.children[0][2]
        assert model.tree_.n_node_samples[empty] == 0
        np.testing.assert_allclose(model.predict_proba([[2, 0.0]])[0], model.tree_.proba[0])


class TestJ48ThresholdTests:
    def test_threshold_is_a_training_value(self):
        """On a grid of 0.25 every midpoint of two values (x.125, x.375, ...) is not a
        value of the data; J48 takes the largest training value not above it."""
        rng = np.random.default_rng(1)
        X = rng.integers(0, 80, size=(300, 3)) * 0.25
        y = ((X[:, 0] > 7.1) ^ (X[:, 1] > 12.3)).astype(int)
        model = ODTSVMClassifier(random_state=0, clustering_split=False).fit(X, y)
        thresholds = 0
        for split in model.tree_.splits:
            if split is None or not axis_parallel(split):
                continue
            j = int(split.features_used[0])
            condition = split.conditions()[-1]
            assert condition.operator == "≤"
            assert condition.threshold in set(X[:, j].tolist())
            thresholds += 1
        assert thresholds >= 2

    def test_threshold_of_all_training_rows(self):
        """J48 (``C45Split.setSplitPoint``) looks for the value in all the training
        data, not only the node's rows."""
        X = np.column_stack([np.r_[np.arange(10.0), 4.2]])
        y = np.r_[np.zeros(5), np.ones(5), 0].astype(int)
        node = splitter(X, y, min_samples_leaf=1)
        rows = np.arange(10)                                   # without the row of 4.2
        (test,) = node.threshold_tests(X[rows], y[rows], np.ones(10), 10.0)
        # the node's cut is between 4 and 5 (midpoint 4.5); 4.2 is a training value
        assert test.split.conditions()[-1].threshold == 4.2

    def test_cost_is_log2_of_the_cut_points(self):
        """WEKA's C45Split: the gain less log2(number of admissible cut points) / N."""
        rng = np.random.default_rng(2)
        X = rng.normal(size=(200, 4))
        y = (X[:, 0] > 0.3).astype(int)
        n = 200.0
        minimum = 10              # min(0.1 · 200 / 2, 25) rows on each side
        with_cost = splitter(X, y).threshold_tests(X, y, np.ones(200), n)
        without = splitter(X, y, mdl_penalty=False).threshold_tests(X, y, np.ones(200), n)
        cut_points = n - 2 * minimum + 1                       # distinct values
        plain = {int(c.split.features_used[0]): c.gain for c in without}
        assert with_cost
        for candidate in with_cost:
            j = int(candidate.split.features_used[0])
            assert plain[j] - candidate.gain == pytest.approx(np.log2(cut_points) / n)


class TestSubsetCode:
    def node(self, m=6):
        rng = np.random.default_rng(3)
        X = rng.normal(size=(300, m))
        y = (X.sum(axis=1) > 0).astype(int)
        return X, y

    @pytest.mark.parametrize("m", [1, 6, 79])
    def test_all_attributes_cost_log2_m_plus_1(self, m):
        X, y = self.node(m)
        bits = splitter(X, y).svm_bits
        assert bits[m] == pytest.approx(np.log2(m + 1))
        assert bits[1] == pytest.approx(np.log2(m + 1) + np.log2(m))
        assert np.all(bits <= np.log2(m + 1) + np.log2(2.0) * m + 1e-9)

    def test_svm_split_is_charged_the_subset_code(self):
        X, y = self.node()
        n = float(len(y))
        charged, free = (splitter(X, y, mdl_penalty=penalty) for penalty in (True, False))
        svm = charged.svm_hyperplanes(X, y, np.ones(len(y)))
        assert np.count_nonzero(svm[0]) == 6
        hyperplane, clustering = charged.svm_tests(X, y, np.ones(len(y)), n, *svm)
        plain, plain_clustering = free.svm_tests(X, y, np.ones(len(y)), n, *svm)
        assert plain.gain - hyperplane.gain == pytest.approx(np.log2(7) / n)
        k, dimensions = clustering.split.centres.shape
        cost = np.log2(7) + np.log2(4 - 1) + k * dimensions * 0.5 * np.log2(n)
        assert plain_clustering.gain - clustering.gain == pytest.approx(cost / n)

    def test_indices_stay_an_option(self):
        X, y = self.node()
        bits = splitter(X, y, svm_cost="indices").svm_bits
        np.testing.assert_allclose(bits, np.arange(7) * np.log2(6))

    def test_many_attributes_few_rows_root_is_an_svm_split(self):
        """brown-selected's shape: 79 attributes, 167 rows, 3 classes.  Coded one by one
        the attributes cost 79 · log2 79 = 498 bits, more than any gain of 167 rows
        (at most 167 · log2 3 = 265 bits); as a subset log2 80 = 6.3 bits."""
        rng = np.random.default_rng(4)
        centres = rng.normal(scale=0.45, size=(3, 79))
        y = np.repeat([0, 1, 2], [30, 27, 110])
        X = centres[y] + rng.normal(size=(167, 79))
        assert 79 * np.log2(79) > 167 * np.log2(3)
        subset = ODTSVMClassifier(random_state=0).fit(X, y)
        assert subset.tree_.splits[0].is_oblique
        indices = ODTSVMClassifier(random_state=0, svm_cost="indices").fit(X, y)
        assert not any(split.is_oblique for split in indices.tree_.splits
                       if split is not None)


class TestCollapse:
    def tree(self, right_counts):
        """A root split into a leaf [6, 0] and a node [2, 4] split into ``right_counts``."""
        split = Split.hyperplane([1.0], -0.5)
        value = [[8, 4], [6, 0], [2, 4], *right_counts]
        return ObliqueTree(1, 2, [split, None, split, None, None], [(1, 2), (), (3, 4), (),
                                                                    ()],
                           [-1, 0, 0, 2, 2], value, [12, 6, 6, 3, 3])

    def test_a_subtree_that_fits_no_better_collapses(self):
        tree = self.tree([[1, 2], [1, 2]])                     # 2 errors, as the node
        collapsed = collapse(tree)
        assert collapsed.node_count == 3
        np.testing.assert_array_equal(collapsed.value, [[8, 4], [6, 0], [2, 4]])

    def test_a_subtree_that_fits_better_stays(self):
        tree = self.tree([[2, 0], [0, 4]])                     # 0 errors, the node 2
        assert collapse(tree) is tree

    def test_the_whole_tree_collapses_from_the_root(self):
        split = Split.hyperplane([1.0], -0.5)
        tree = ObliqueTree(1, 2, [split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                           [[4, 2], [2, 1], [2, 1]], [6, 3, 3])
        assert collapse(tree).node_count == 1

    def test_the_estimator_collapses(self):
        """Grown without the MDL correction on noisy labels, the tree keeps subtrees that
        fit the training rows no better than their root (``collapse=False``); collapsed,
        it keeps none, with or without pruning."""
        rng = np.random.default_rng(5)
        X = rng.normal(size=(300, 3))
        y = ((X[:, 0] > 0) ^ (rng.random(300) < 0.3)).astype(int)

        def no_better(tree):
            errors = tree.value.sum(axis=1) - tree.value.max(axis=1)
            return [node for node in np.flatnonzero(~tree.is_leaf)
                    if errors[tree.leaves(node)].sum() >= errors[node] - 1e-3]

        def grown(**params):
            return ODTSVMClassifier(random_state=0, mdl_penalty=False, **params).fit(X, y)

        assert no_better(grown(confidence=None, collapse=False).tree_)
        assert not no_better(grown(confidence=None).tree_)
        assert not no_better(grown().tree_)
