"""Ensembles of many classes keep their member trees' class counts sparse:
a node holds few of the K classes, so K dense numbers a node (value and proba)
made a forest of 2,000 classes need ~270 MB a tree.  Trees of few classes are unchanged."""
import copy
import pickle

import numpy as np
import pytest
from scipy import sparse

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        ObliqueForestClassifier)

from tests.helpers.many_classes import counts_bytes, many_classes


def dense_bytes(tree):
    return 2 * tree.node_count * tree.n_classes * 8


@pytest.mark.parametrize("make", [
    lambda: ObliqueForestClassifier(n_estimators=4, random_state=0),
    lambda: ObliqueForestClassifier(n_estimators=2, estimator=GeometricTreeClassifier(),
                                    random_state=0),
    lambda: HedgeEnsembleClassifier(GeometricTreeClassifier(), n_estimators=2,
                                    random_state=0),
], ids=["forest", "forest-of-gdt", "hedge-of-gdt"])
def test_members_of_many_classes_keep_their_counts_small(make):
    X, y = many_classes(n_features=4)
    ensemble = make().fit(X, y)
    for member in ensemble.estimators_:
        tree = member.tree_
        assert tree.n_classes == 300 and tree.node_count > 100
        assert counts_bytes(tree) < dense_bytes(tree) / 4


def test_compact_counts_predict_print_and_weigh_as_the_dense_ones():
    X, y = many_classes(n_features=4)
    forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    dense = copy.copy(forest)
    dense.estimators_ = []
    for member in forest.estimators_:
        twin = copy.copy(member)
        twin.tree_ = copy.copy(member.tree_)
        twin.tree_.value, twin.tree_.proba = (np.asarray(sparse.csr_matrix(m).toarray())
                                              for m in (member.tree_.value,
                                                        member.tree_.proba))
        assert isinstance(twin.tree_.value, np.ndarray)
        assert twin.tree_.export_text() == member.tree_.export_text()
        dense.estimators_.append(twin)
    new = np.random.default_rng(1).normal(size=(200, X.shape[1]))
    new[:20, 1] = np.nan  # rows that stop at inner nodes
    finite = np.isfinite(new).all(axis=1)
    np.testing.assert_array_equal(forest.predict_proba(new[finite]),
                                  dense.predict_proba(new[finite]))
    for member, twin in zip(forest.estimators_, dense.estimators_):
        np.testing.assert_array_equal(member.tree_.predict_proba(new),
                                      twin.tree_.predict_proba(new))
    np.testing.assert_allclose(forest.feature_importances_, dense.feature_importances_,
                               rtol=1e-12)
    restored = pickle.loads(pickle.dumps(forest))
    np.testing.assert_array_equal(restored.predict_proba(X), forest.predict_proba(X))


def test_trees_of_few_classes_keep_dense_counts():
    from orangecontrib.oblique.core.tree.structure import MANY_CLASSES
    X, y = many_classes(n_features=4, n_classes=MANY_CLASSES - 1, per_class=6)
    forest = ObliqueForestClassifier(n_estimators=2, random_state=0).fit(X, y)
    for member in forest.estimators_:
        assert isinstance(member.tree_.value, np.ndarray)
        assert isinstance(member.tree_.proba, np.ndarray)


def test_orange_member_tree_of_many_classes():
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

    from orangecontrib.oblique import ObliqueForestLearner
    X, y = many_classes(n_features=4, n_classes=120, per_class=4)
    domain = Domain([ContinuousVariable(f"a{j}") for j in range(X.shape[1])],
                    DiscreteVariable("c", values=[f"k{i}" for i in range(120)]))
    data = Table.from_numpy(domain, X, y)
    model = ObliqueForestLearner(n_estimators=2, random_state=0)(data)
    assert sparse.issparse(model.estimator.estimators_[0].tree_.value)
    tree = model.member_model(0, data)
    assert tree.root.value.sum() > 0
    np.testing.assert_allclose(tree(data, tree.Probs).sum(axis=1), 1)
    assert "k" in tree.print_tree()


def test_a_compacted_tree_with_empty_children_predicts_as_the_dense_one():
    """ODT-SVM's one-vs-rest split of many classes has children no training row reached;
    they predict their parent's distribution, read from the parent's row once kept
    sparse."""
    from orangecontrib.oblique.core import ODTSVMClassifier
    X, y = many_classes(n_classes=150, per_class=4, n_features=3, seed=2)
    model = ODTSVMClassifier(random_state=0).fit(X, y)
    dense = model.tree_
    empty = np.flatnonzero(dense.value.sum(axis=1) == 0)
    assert empty.size > 0
    tree = copy.deepcopy(dense).compact_class_counts()
    assert sparse.issparse(tree.proba) and tree.proba_source is not None
    assert counts_bytes(tree) < dense_bytes(tree) / 4
    nodes = np.arange(dense.node_count)
    np.testing.assert_array_equal(tree.node_proba(nodes), dense.proba)
    new = np.random.default_rng(3).normal(size=(300, 3))
    np.testing.assert_array_equal(tree.predict_proba(new), dense.predict_proba(new))
    assert tree.export_text() == dense.export_text()
    np.testing.assert_array_equal(tree.feature_importances(), dense.feature_importances())
    again = tree.with_dense_class_counts()
    np.testing.assert_array_equal(again.proba, dense.proba)
    np.testing.assert_array_equal(again.value, dense.value)
    assert sparse.issparse(tree.proba)  # the copy, not the tree, is dense
