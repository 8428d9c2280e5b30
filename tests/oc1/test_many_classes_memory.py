"""Single trees of many classes (OC1, GDT) keep their class counts sparse as they grow
(``grow_tree(compact_counts=True)``, the ensembles' threshold
:data:`~.tree.class_counts.MANY_CLASSES`), and pruning reads them so (cost-complexity on
held-out rows, C4.5's collapse and error-based pruning): a fit's memory no longer grows
as nodes × classes (OC1 of 2,000 classes: a traced peak of 690 MB before, 89 MB now).
The trees, predictions and texts are those of dense counts."""
import pickle

import numpy as np
import pytest
from scipy import sparse

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier
from orangecontrib.oblique.core.geometric import classifier as gdt
from orangecontrib.oblique.core.oc1 import classifier as oc1
from orangecontrib.oblique.core.tree.class_counts import MANY_CLASSES
from orangecontrib.oblique.core.tree.pruning import (collapse, error_based_prune,
                                                     prune_with_holdout)

from tests.helpers.many_classes import counts_bytes, many_classes
from tests.helpers.memory_reference import MB, traced_peak


def separated_classes(n_classes=300, per_class=5, n_features=5, seed=0):
    """Classes around their own centres: pruning on held-out rows keeps a large tree."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), per_class)
    rng.shuffle(y)
    centres = 3 * rng.normal(size=(n_classes, n_features))
    return centres[y] + rng.normal(scale=0.5, size=(y.size, n_features)), y


def assert_same_model(compact, dense, X):
    assert sparse.issparse(compact.tree_.value) and sparse.issparse(compact.tree_.proba)
    assert isinstance(dense.tree_.value, np.ndarray)
    new = np.random.default_rng(5).normal(size=(400, X.shape[1]))
    for rows in (X, new):
        np.testing.assert_array_equal(compact.predict_proba(rows),
                                      dense.predict_proba(rows))
        np.testing.assert_array_equal(compact.apply(rows), dense.apply(rows))
    assert compact.export_text() == dense.export_text()
    nodes = np.arange(compact.tree_.node_count)
    np.testing.assert_array_equal(compact.tree_.node_proba(nodes), dense.tree_.proba)
    np.testing.assert_array_equal(compact.tree_.value.toarray(), dense.tree_.value)
    np.testing.assert_array_equal(compact.tree_.n_node_samples, dense.tree_.n_node_samples)
    np.testing.assert_allclose(compact.feature_importances_, dense.feature_importances_,
                               rtol=1e-12)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "whole-weights"])
def test_oc1_of_many_classes_grows_and_prunes_compact_counts_as_dense_ones(
        monkeypatch, weighted):
    X, y = many_classes()
    weights = (np.random.default_rng(2).integers(1, 4, len(y)).astype(float) if weighted
               else None)
    compact = OC1Classifier(random_state=0).fit(X, y, sample_weight=weights)
    tree = compact.tree_
    assert tree.node_count > 100   # pruned on the held-out rows, not to the root
    assert counts_bytes(tree) < 2 * tree.node_count * tree.n_classes * 8 / 4
    assert sparse.issparse(tree.grow_value)
    np.testing.assert_array_equal(np.asarray(tree.value.sum(axis=1)).ravel()[0],
                                  len(y) if weights is None else weights.sum())
    monkeypatch.setattr(oc1, "MANY_CLASSES", 10 ** 9)   # dense counts, as before
    dense = OC1Classifier(random_state=0).fit(X, y, sample_weight=weights)
    assert_same_model(compact, dense, X)
    np.testing.assert_array_equal(tree.grow_value.toarray(), dense.tree_.grow_value)
    restored = pickle.loads(pickle.dumps(compact))
    np.testing.assert_array_equal(restored.predict_proba(X), dense.predict_proba(X))


def test_gdt_of_many_classes_grows_compact_counts_as_dense_ones(monkeypatch):
    X, y = many_classes()
    compact = GeometricTreeClassifier(random_state=0).fit(X, y)
    assert compact.tree_.node_count > 100
    monkeypatch.setattr(gdt, "MANY_CLASSES", 10 ** 9)
    dense = GeometricTreeClassifier(random_state=0).fit(X, y)
    assert_same_model(compact, dense, X)


def test_trees_of_few_classes_keep_dense_counts():
    X, y = many_classes(n_classes=MANY_CLASSES - 1, per_class=6)
    for learner in (OC1Classifier(n_restarts=2, random_state=0),
                    GeometricTreeClassifier(random_state=0)):
        tree = learner.fit(X, y).tree_
        assert isinstance(tree.value, np.ndarray) and isinstance(tree.proba, np.ndarray)


def test_pruning_reads_compact_counts_as_dense_ones():
    """Cost-complexity pruning on held-out rows, J48's collapse and C4.5's error-based
    pruning of an unpruned OC1 tree of 300 classes: the same trees from its counts kept
    sparse as from the dense ones."""
    X, y = separated_classes()
    grown = OC1Classifier(pruning_portion=0, random_state=0).fit(X[:1200], y[:1200]).tree_
    assert sparse.issparse(grown.value) and grown.node_count > 200
    dense = grown.with_dense_class_counts()
    held_out, classes = X[1200:], y[1200:]
    for prune in (lambda tree: prune_with_holdout(tree, held_out, classes),
                  lambda tree: prune_with_holdout(tree, held_out, classes, se_rule=1.0),
                  collapse, error_based_prune,
                  lambda tree: error_based_prune(tree, confidence=0.05)):
        from_compact, from_dense = prune(grown), prune(dense)
        assert sparse.issparse(from_compact.value)
        assert 200 < from_compact.node_count <= grown.node_count
        assert from_compact.export_text() == from_dense.export_text()
        np.testing.assert_array_equal(from_compact.predict_proba(X),
                                      from_dense.predict_proba(X))


def test_orange_oc1_model_of_many_classes_shows_its_counts():
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

    from orangecontrib.oblique import OC1Learner
    X, y = separated_classes(n_classes=120)
    domain = Domain([ContinuousVariable(f"a{j}") for j in range(X.shape[1])],
                    DiscreteVariable("c", values=[f"k{i}" for i in range(120)]))
    data = Table.from_numpy(domain, X, y)
    model = OC1Learner(random_state=0)(data)
    assert sparse.issparse(model.estimator.tree_.value)
    np.testing.assert_array_equal(model.root.value,
                                  model.estimator.tree_.value[0].toarray().ravel())
    np.testing.assert_allclose(model(data, model.Probs).sum(axis=1), 1)
    assert "k" in model.print_tree()


@pytest.mark.slow
def test_oc1_fit_of_many_classes_holds_no_nodes_by_classes():
    """OC1 (its defaults) on 600 classes, 1,800 rows, a tree of 1,309 nodes: before, the
    dense counts of the grown tree and of its pruning made the traced peak 31 MB; now
    9 MB, the largest block a node's class-by-row matrix (600 × 1,620 numbers at the
    root, 7.8 MB)."""
    X, y = separated_classes(n_classes=600, per_class=3)
    OC1Classifier(random_state=0).fit(X[:60], y[:60] % 3)   # compiled kernels loaded
    model, peak = traced_peak(lambda: OC1Classifier(random_state=0).fit(X, y))
    root_matrix = 600 * int(0.9 * len(y)) * 8
    assert model.tree_.node_count > 100
    assert peak < 2.5 * root_matrix, peak / MB
