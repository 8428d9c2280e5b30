"""Feature importances (mean decrease in Gini impurity shared by |weight| · std) and how
oblique a tree is, on hand-built trees, scikit-learn's own trees and the fitted
estimators."""
import pickle

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from tests.helpers.invariants import axis_parallel
from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ODTSVMClassifier)
from orangecontrib.oblique.core.tree.splits import Split
from orangecontrib.oblique.core.tree.structure import ObliqueTree, SplitStatistics

ESTIMATORS = [
    GeometricTreeClassifier(),
    OC1Classifier(n_restarts=3, random_state=0),
    ODTSVMClassifier(random_state=0),
]


def gini_mass(counts):
    counts = np.asarray(counts, dtype=float)
    total = counts.sum()
    return total - (counts ** 2).sum() / total if total else 0.0


def counted(skeleton, X, y, sample_weight=None):
    """``skeleton``'s splits with the class counts of ``X, y`` and, as the estimators keep
    them, the per-node standard deviations of ``X``."""
    weights = np.ones(len(y)) if sample_weight is None else sample_weight
    tree = skeleton.recounted(X, y, weights)
    return tree.store_feature_scales(X, weights)


def skeleton(n_features, splits, children, parent):
    n_nodes = len(splits)
    return ObliqueTree(n_features, 2, splits, children, parent, np.ones((n_nodes, 2)),
                       np.ones(n_nodes, dtype=int))


def from_sklearn(classifier, n_features):
    """The ObliqueTree of a fitted DecisionTreeClassifier (axis-parallel splits, the same
    weighted class counts)."""
    source = classifier.tree_
    splits, children, parent = [], [], np.full(source.node_count, -1)
    for node in range(source.node_count):
        left, right = source.children_left[node], source.children_right[node]
        if left == -1:
            splits.append(None)
            children.append(())
        else:
            splits.append(Split.axis_parallel(source.feature[node], source.threshold[node],
                                              n_features))
            children.append((left, right))
            parent[[left, right]] = node
    fractions = source.value[:, 0, :] / source.value[:, 0, :].sum(axis=1, keepdims=True)
    value = fractions * source.weighted_n_node_samples[:, None]
    return ObliqueTree(n_features, source.value.shape[2], splits, children, parent, value,
                       source.n_node_samples)


# ----- the definition, on hand-built trees -----

def test_axis_parallel_stump_gives_everything_to_its_attribute():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(50, 3))
    y = (X[:, 1] > 0.2).astype(int)
    stump = counted(skeleton(3, [Split.axis_parallel(1, 0.2, 3), None, None],
                             [(1, 2), (), ()], [-1, 0, 0]), X, y)
    np.testing.assert_array_equal(stump.feature_importances(), [0, 1, 0])
    # whatever the scale: one attribute takes the whole decrease
    np.testing.assert_array_equal(stump.feature_importances(scale=[5.0, 1e-3, 2.0]),
                                  [0, 1, 0])


def test_oblique_split_shared_by_weight_times_node_std():
    rng = np.random.RandomState(1)
    X = np.column_stack([rng.normal(0, 1, 400), rng.normal(0, 4, 400), rng.normal(size=400)])
    y = (2 * X[:, 0] + X[:, 1] > 0).astype(int)
    tree = counted(skeleton(3, [Split.hyperplane([2.0, -1.0, 0.0], 0.0), None, None],
                            [(1, 2), (), ()], [-1, 0, 0]), X, y)
    std = X.std(axis=0)
    expected = np.array([2 * std[0], 1 * std[1], 0.0])
    np.testing.assert_allclose(tree.feature_importances(), expected / expected.sum())
    assert tree.feature_importances()[2] == 0  # never used


def test_shares_use_the_std_at_the_node_not_over_all_rows():
    # the right child's rows (x0 >= 0) vary little in x1, a lot in x2
    rng = np.random.RandomState(2)
    X = rng.normal(size=(600, 3))
    X[X[:, 0] >= 0, 1] *= 0.1
    X[X[:, 0] >= 0, 2] *= 3.0
    y = ((X[:, 0] >= 0) & (X[:, 1] + X[:, 2] > 0)).astype(int)
    tree = counted(skeleton(3, [Split.axis_parallel(0, 0.0, 3), None,
                                Split.hyperplane([0.0, 1.0, 1.0], 0.0), None, None],
                            [(1, 2), (), (3, 4), (), ()], [-1, 0, 0, 2, 2]), X, y)
    rows = X[:, 0] >= 0
    np.testing.assert_allclose(tree.feature_scales[2, 1:], X[rows, 1:].std(axis=0))
    assert not tree.feature_scales[2, 0]  # an attribute the split does not use
    assert not tree.feature_scales[[1, 3, 4]].any()  # leaves
    # by hand: the root credits x0, node 2 shares by std of x1 and x2 at the node
    decrease = [gini_mass(tree.value[n]) - sum(gini_mass(tree.value[c])
                                               for c in tree.children[n]) for n in (0, 2)]
    s1, s2 = X[rows, 1].std(), X[rows, 2].std()
    expected = np.array([decrease[0], decrease[1] * s1 / (s1 + s2),
                         decrease[1] * s2 / (s1 + s2)])
    np.testing.assert_allclose(tree.feature_importances(), expected / expected.sum())


def test_units_do_not_matter():
    rng = np.random.RandomState(3)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] - 0.5 * X[:, 1] > 0).astype(int)
    tree = counted(skeleton(2, [Split.hyperplane([1.0, -0.5], 0.0), None, None],
                            [(1, 2), (), ()], [-1, 0, 0]), X, y)
    units = np.array([1000.0, 0.01])  # the same split in other units
    rescaled = counted(skeleton(2, [Split.hyperplane([1.0 / 1000, -0.5 / 0.01], 0.0), None,
                                    None], [(1, 2), (), ()], [-1, 0, 0]), X * units, y)
    np.testing.assert_allclose(rescaled.feature_importances(), tree.feature_importances())


def test_multirow_split_uses_largest_absolute_weight_per_attribute():
    X = np.array([[0, 0, 0], [1, 2, 0], [2, 0, 1], [3, 1, 1]], dtype=float)
    y = np.array([0, 1, 0, 1])
    weights = [[1.0, 0.0, -3.0], [-2.0, 0.5, 0.0]]
    tree = counted(skeleton(3, [Split("argmax", weights, [0.0, 0.0]), None, None],
                            [(1, 2), (), ()], [-1, 0, 0]), X, y)
    expected = np.array([2.0, 0.5, 3.0]) * X.std(axis=0)
    np.testing.assert_allclose(tree.feature_importances(), expected / expected.sum())


def test_gini_decreases_weigh_the_nodes():
    """Two axis-parallel splits: importances are their weighted Gini decreases."""
    splits = [Split.axis_parallel(0, 2.5, 2), None, Split.axis_parallel(1, 1.0, 2), None,
              None]
    value = [[4, 8], [3, 1], [1, 7], [0, 2], [1, 5]]
    tree = ObliqueTree(2, 2, splits, [(1, 2), (), (3, 4), (), ()], [-1, 0, 0, 2, 2],
                       value, [12, 4, 8, 2, 6])
    root = gini_mass([4, 8]) - gini_mass([3, 1]) - gini_mass([1, 7])
    node2 = gini_mass([1, 7]) - gini_mass([0, 2]) - gini_mass([1, 5])
    np.testing.assert_allclose(tree.feature_importances(), [root, node2] / (root + node2))


def test_single_leaf_has_zero_importances_and_no_splits():
    tree = ObliqueTree(3, 2, [None], [()], [-1], [[3, 4]], [7])
    np.testing.assert_array_equal(tree.feature_importances(), [0, 0, 0])
    statistics = tree.split_statistics()
    assert statistics == (0, 0, 0)
    assert np.isnan(statistics.mean_attributes_per_split)


def test_splits_without_any_decrease_count_equally():
    # both splits leave the class distribution as it was: nothing to weigh them by
    splits = [Split.axis_parallel(0, 0.0, 2), Split.axis_parallel(1, 0.0, 2), None, None,
              None]
    value = [[4, 4], [2, 2], [1, 1], [1, 1], [2, 2]]
    tree = ObliqueTree(2, 2, splits, [(1, 4), (2, 3), (), (), ()], [-1, 0, 1, 1, 0],
                       value, [8, 4, 2, 2, 4])
    np.testing.assert_allclose(tree.feature_importances(), [0.5, 0.5])


def test_constant_features_of_a_split_share_equally():
    tree = ObliqueTree(3, 2, [Split.hyperplane([1.0, 4.0, 0.0], 0.0), None, None],
                       [(1, 2), (), ()], [-1, 0, 0], [[2, 2], [2, 0], [0, 2]], [4, 2, 2])
    np.testing.assert_allclose(tree.feature_importances(scale=np.zeros(3)), [0.5, 0.5, 0])


def test_tree_without_kept_scales_uses_unit_scale():
    """A tree pickled before the scales were kept (or built by hand): shares by |w|."""
    tree = ObliqueTree(2, 2, [Split.hyperplane([1.0, -3.0], 0.0), None, None],
                       [(1, 2), (), ()], [-1, 0, 0], [[2, 2], [2, 0], [0, 2]], [4, 2, 2])
    assert not hasattr(tree, "feature_scales")
    np.testing.assert_allclose(tree.feature_importances(), [0.25, 0.75])


@pytest.mark.parametrize("weighted", [False, True])
def test_equals_scikit_learn_on_its_own_axis_parallel_trees(weighted):
    X, y = load_wine(return_X_y=True)
    sample_weight = np.random.RandomState(4).uniform(0.1, 3, len(y)) if weighted else None
    classifier = DecisionTreeClassifier(random_state=0, max_depth=5).fit(
        X, y, sample_weight=sample_weight)
    tree = from_sklearn(classifier, X.shape[1])
    assert all(s is None or axis_parallel(s) for s in tree.splits)
    np.testing.assert_allclose(tree.feature_importances(), classifier.feature_importances_,
                               atol=1e-12)
    # the scales of the data do not change it either
    counted_tree = tree.store_feature_scales(X, sample_weight)
    np.testing.assert_allclose(counted_tree.feature_importances(),
                               classifier.feature_importances_, atol=1e-12)


def test_split_statistics_count_oblique_splits_and_attributes():
    splits = [Split.hyperplane([1.0, 2.0, 0.0], 0.0), Split.axis_parallel(2, 1.0, 3),
              Split.equality(1, 2.0, 3), None, None, None, None]
    tree = ObliqueTree(3, 2, splits, [(1, 2), (3, 4), (5, 6), (), (), (), ()],
                       [-1, 0, 0, 1, 1, 2, 2], np.ones((7, 2)), np.ones(7, dtype=int))
    statistics = tree.split_statistics()
    assert statistics == SplitStatistics(3, 1, 4)
    assert statistics.mean_attributes_per_split == pytest.approx(4 / 3)
    assert statistics + statistics == SplitStatistics(6, 2, 8)


# ----- the estimators -----

@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_estimators_importances_sum_to_one_and_skip_unused(estimator):
    X, y = load_wine(return_X_y=True)
    fitted = pickle.loads(pickle.dumps(estimator)).fit(X, y)
    importances = fitted.feature_importances_
    assert importances.shape == (X.shape[1],)
    assert (importances >= 0).all()
    assert importances.sum() == pytest.approx(1)
    used = np.zeros(X.shape[1], dtype=bool)
    for split in fitted.tree_.splits:
        if split is not None:
            used[split.features_used] = True
    assert not importances[~used].any()
    # kept at fit time, one standard deviation per node and attribute a split uses
    assert fitted.tree_.feature_scales.shape == (fitted.tree_.node_count, X.shape[1])
    statistics = fitted.get_split_statistics()
    assert statistics.n_splits == fitted.tree_.node_count - fitted.tree_.n_leaves
    assert statistics.n_oblique_splits == sum(
        1 for s in fitted.tree_.splits if s is not None and s.is_oblique)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_unfitted_estimator_has_no_importances(estimator):
    assert not hasattr(estimator, "feature_importances_")


def test_oc1_axis_parallel_tree_is_plain_mdi():
    X, y = load_iris(return_X_y=True)
    rng = np.random.RandomState(5)
    X = np.column_stack([X, rng.normal(size=len(y))])
    fitted = OC1Classifier(split_mode="axis_parallel", pruning_portion=0.0,
                           random_state=0).fit(X, y)
    tree = fitted.tree_
    expected = np.zeros(X.shape[1])
    for node, split in enumerate(tree.splits):
        if split is not None:
            assert axis_parallel(split)
            expected[split.features_used[0]] += gini_mass(tree.value[node]) - sum(
                gini_mass(tree.value[c]) for c in tree.children[node])
    np.testing.assert_allclose(fitted.feature_importances_, expected / expected.sum())
    assert fitted.get_split_statistics().n_oblique_splits == 0
    assert fitted.get_split_statistics().mean_attributes_per_split == 1


def test_single_leaf_estimator():
    X, y = load_iris(return_X_y=True)
    fitted = GeometricTreeClassifier(max_depth=0).fit(X, y)
    np.testing.assert_array_equal(fitted.feature_importances_, np.zeros(4))
    assert fitted.get_split_statistics().n_splits == 0


def test_ensemble_averages_members_by_hedge_weight():
    X, y = load_wine(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(OC1Classifier(n_restarts=2), n_estimators=4,
                                       sample_fraction=0.6, random_state=0).fit(X, y)
    members = np.array([m.feature_importances_ for m in ensemble.estimators_])
    weights = ensemble.weights_ / ensemble.weights_.sum()
    np.testing.assert_allclose(ensemble.feature_importances_, weights @ members)
    assert ensemble.feature_importances_.sum() == pytest.approx(1)
    # all the weight on one member: its importances
    ensemble.weights_ = np.array([0.0, 0.0, 1.0, 0.0])
    np.testing.assert_allclose(ensemble.feature_importances_, members[2])
    ensemble.weights_ = np.array([0.0, 3.0, 1.0, 0.0])  # normalised
    np.testing.assert_allclose(ensemble.feature_importances_,
                               0.75 * members[1] + 0.25 * members[2])
    statistics = ensemble.get_split_statistics()
    assert statistics.n_splits == sum(m.get_split_statistics().n_splits
                                      for m in ensemble.estimators_)


def test_ensemble_renormalises_over_single_leaf_members():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(GeometricTreeClassifier(), n_estimators=2,
                                       random_state=0).fit(X, y)
    leaf = GeometricTreeClassifier(max_depth=0).fit(X, y)
    tree = ensemble.estimators_[1]
    ensemble.estimators_[0] = leaf
    ensemble.weights_ = np.array([0.5, 0.5])
    np.testing.assert_allclose(ensemble.feature_importances_, tree.feature_importances_)
    ensemble.estimators_[1] = leaf
    np.testing.assert_array_equal(ensemble.feature_importances_, np.zeros(4))
    assert ensemble.get_split_statistics().n_splits == 0


def test_ensemble_of_a_classifier_without_importances():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(KNeighborsClassifier(), n_estimators=2,
                                       random_state=0).fit(X, y)
    assert not hasattr(ensemble, "feature_importances_")
    with pytest.raises(AttributeError, match="KNeighborsClassifier has no"):
        ensemble.feature_importances_  # pylint: disable=pointless-statement
    assert not hasattr(HedgeEnsembleClassifier(), "feature_importances_")
