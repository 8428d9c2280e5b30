"""The compiled walk (core/tree/walk.py): the nodes it gives are those of the routing
convention split by split (Split.route_with_missing), for every kind of split, rows on a
printed boundary, missing values and trees of many classes; a tree keeps its flat form;
an ensemble walks all its trees in one call."""
import pickle
import warnings

import numpy as np
import pytest

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        ObliqueForestClassifier, ODTSVMClassifier)
from orangecontrib.oblique.core.tree import walk
from orangecontrib.oblique.core.tree.splits import Split, printed_rule_holds
from orangecontrib.oblique.core.tree.structure import ObliqueTree, walk_top_down
from tests.helpers.many_classes import many_classes


def split_by_split(tree, X):
    """Where every row stops, split by split: every node's rows routed by its own
    ``Split.route_with_missing`` (the convention the walk compiles)."""
    stop = np.zeros(X.shape[0], dtype=np.intp)
    for _ in walk_top_down(X.shape[0], tree.children,
                           lambda node, rows: tree.splits[node].route_with_missing(X[rows]),
                           stop):
        pass
    return stop


def every_kind_tree():
    """A tree with a split of every kind: argmax (two score rows equal where x4 = 0:
    ties), nearest centre, pairwise vote, a printed hyperplane, an equality, a nominal
    test and an axis-parallel threshold."""
    rng = np.random.default_rng(7)
    argmax_weights = rng.normal(size=(3, 4))
    argmax_weights[1] = argmax_weights[0]
    argmax_weights[1, 3] += 1.0
    printed = Split.hyperplane([0.1, 0.2, 0.0, 0.0], -0.3)
    printed.digits = 4
    assert printed.reads_printed
    splits = [Split("argmax", argmax_weights, [0.0, 0.0, 0.5]),
              Split("nearest_centre", rng.normal(size=(2, 4)), [0.0, 0.1],
                    centres=rng.normal(size=(3, 2))),
              Split("pairwise_vote", rng.normal(size=(3, 4)), [0.1, -0.2, 0.0]),
              printed,
              Split.equality(0, 1.0, 4),
              Split.nominal(1, [0, 1, 2], 4),
              Split.axis_parallel(2, 0.25, 4)] + [None] * 12
    children = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11), (12, 13), (14, 15, 16),
                (17, 18)] + [()] * 12
    parent = [-1, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 5, 6, 6]
    value = rng.integers(1, 5, size=(19, 2)).astype(float)
    return ObliqueTree(4, 2, splits, children, parent, value, np.full(19, 4))


def hostile_rows(n_rows=3000, seed=0):
    """Random rows with integer codes in the nominal columns (3 is unseen by the nominal
    test), rows on the printed hyperplane 0.1·x1 + 0.2·x2 = 0.3 and next to it, and NaN
    and ±inf here and there."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 4))
    X[:, 0] = rng.integers(0, 3, n_rows)
    X[:, 1] = rng.integers(0, 4, n_rows)
    X[:200, :2] = [1.0, 1.0]                              # on the printed boundary
    X[200:300, :2] = [1.0, np.nextafter(1.0, 0.0)]        # just below it
    X[300:400, :2] = [3.0, 0.0]                           # 0.1·3 = 0.30000000000000004
    X[400:700, 3] = 0.0                                   # argmax ties
    X[rng.integers(0, n_rows, 150), rng.integers(0, 4, 150)] = np.nan
    X[rng.integers(0, n_rows, 100), rng.integers(0, 4, 100)] = np.inf
    X[rng.integers(0, n_rows, 100), rng.integers(0, 4, 100)] = -np.inf
    return X


def test_every_kind_of_split_stops_rows_where_its_own_routing_does():
    tree = every_kind_tree()
    X = hostile_rows()
    stop = tree.apply(X)
    np.testing.assert_array_equal(stop, split_by_split(tree, X))
    # every node is reached, some rows stop at splits (missing values, an unseen code)
    assert set(stop.tolist()) >= set(range(7, 19))
    assert np.isin(stop, np.arange(7)).any()
    finite = np.isfinite(X).all(axis=1)
    np.testing.assert_array_equal(tree.apply(X[finite]), split_by_split(tree, X[finite]))
    # the decision paths and the rows reaching every node follow the same walk
    reached, route_stop = tree.route(X)
    np.testing.assert_array_equal(route_stop, stop)
    paths = tree.decision_path(X).toarray().astype(bool)
    for node in range(tree.node_count):
        np.testing.assert_array_equal(reached[node], np.flatnonzero(paths[:, node]))


def test_rows_on_a_printed_boundary_are_read_exactly():
    """Rows whose value is within rounding of 0 are decided by the printed rule read
    exactly (0.1 + 0.2 ≥ 0.3 holds exactly, 0.1·3 ≥ 0.3 too, 0.1 + 0.2·(1 − 2⁻⁵³) not)."""
    tree = every_kind_tree()
    split = tree.splits[3]
    X = np.array([[1.0, 1.0, 0, 0], [1.0, np.nextafter(1.0, 0.0), 0, 0], [3.0, 0.0, 0, 0]])
    holds = printed_rule_holds(X, split.weights[0], split.bias[0])
    assert holds.tolist() == [True, False, True]
    flat = walk.FlatTrees.of_tree([split, None, None], [(1, 2), (), ()])
    stop = walk.stop_nodes(flat, X)[0]
    np.testing.assert_array_equal(stop, np.where(holds, 2, 1))
    # the compiled step leaves every one of them to the exact reading
    assert (flat.walk(np.ascontiguousarray(X), np.arange(3), flat.roots) == -1).all()


def test_a_kind_unknown_to_the_walk_is_routed_by_its_own_split():
    class Halves(type(Split.hyperplane([1.0], 0.0).kind)):
        name = "halves"  # not registered: the walk knows nothing of it

        def walk_form(self, split):
            return walk.OTHER, ()

        def route(self, split, values):
            return (values[:, 0] >= 0.5).astype(np.intp)
    split = Split.hyperplane([1.0, 0.0], 0.0)
    split.kind = Halves()
    tree = ObliqueTree(2, 2, [split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                       np.ones((3, 2)), [2, 1, 1])
    X = np.array([[0.2, 0.0], [0.7, 1.0], [np.nan, 0.0], [0.5, 3.0]])
    assert tree.apply(X).tolist() == [1, 2, 0, 2]


@pytest.mark.parametrize("learner", [
    GeometricTreeClassifier(),
    ODTSVMClassifier(random_state=0),
    ODTSVMClassifier(random_state=0, categorical_features=[0]),
], ids=["gdt", "odt-svm", "odt-svm nominal"])
def test_fitted_trees_predict_as_their_splits_route(learner):
    X, y = many_classes(n_classes=4, per_class=30, n_features=4, seed=1)
    X[:, 0] = np.abs(np.round(X[:, 0]))
    if getattr(learner, "accepts_missing_values", False):
        X[::13, 2] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = learner.fit(X, y)
    rows = np.vstack([X, hostile_rows(500, seed=2)])
    rows = model.unseen_codes_as_missing(rows)
    tree = model.tree_
    np.testing.assert_array_equal(tree.apply(rows), split_by_split(tree, rows))
    expected = tree.node_proba(split_by_split(tree, rows))
    if tree.routes_by_weight:
        missing = ~np.isfinite(rows).all(axis=1)
        expected[missing] = tree.stop_weights(rows[missing]) @ tree.node_proba(
            np.arange(tree.node_count))
    np.testing.assert_array_equal(tree.predict_proba(rows), expected)


def test_a_tree_of_many_classes_predicts_its_sparse_distributions():
    X, y = many_classes(n_classes=300)
    forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    rows = np.vstack([X, hostile_rows(300, seed=4)[:, :1].repeat(5, axis=1)])
    rows = np.nan_to_num(rows, nan=0.0, posinf=1.0, neginf=-1.0)
    expected = np.zeros((rows.shape[0], len(forest.classes_)))
    for member in forest.estimators_:
        tree = member.tree_
        assert tree.value.__class__.__name__ == "csr_matrix"
        nodes = split_by_split(tree, rows)
        np.testing.assert_array_equal(tree.apply(rows), nodes)
        expected[:, member.classes_] += tree.node_proba(nodes)
    np.testing.assert_array_equal(forest.predict_proba(rows), expected / 3)


def test_a_tree_keeps_its_flat_form_until_a_split_changes():
    tree = every_kind_tree()
    flat = tree.flat
    assert tree.flat is flat
    X = np.array([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, -1.0]])
    before = tree.apply(X)
    # a split given new numbers (as calibration gives them) routes by them at once
    root = tree.splits[0]
    root.bias = root.bias + np.array([0.0, 0.0, -100.0])
    root.weights = root.weights.copy()
    root.weights[2] = 0.0
    assert tree.flat is not flat
    np.testing.assert_array_equal(tree.apply(X), split_by_split(tree, X))
    assert not np.array_equal(tree.apply(X), before)
    # the flat form is not pickled: a tree of any version makes it again
    copy = pickle.loads(pickle.dumps(tree))
    assert "_flat" not in pickle.loads(pickle.dumps(tree)).__dict__
    np.testing.assert_array_equal(copy.apply(X), tree.apply(X))


def calls_of_the_walk(monkeypatch):
    calls = []
    kernel = walk.walk

    def counted(X, rows, starts, *arrays):
        calls.append(starts.size)
        return kernel(X, rows, starts, *arrays)
    monkeypatch.setattr(walk, "walk", counted)
    return calls


def test_a_forest_walks_all_its_trees_in_one_call(monkeypatch):
    X, y = many_classes(n_classes=3, per_class=40, n_features=6, seed=5)
    forest = ObliqueForestClassifier(n_estimators=12, random_state=0).fit(X, y)
    rows = hostile_rows(400, seed=6)[:, :1].repeat(6, axis=1) + X[:400 % len(X)].mean()
    rows = np.nan_to_num(rows)
    expected = sum(member.tree_.predict_proba(rows) for member in forest.estimators_) / 12
    calls = calls_of_the_walk(monkeypatch)
    proba = forest.predict_proba(rows)
    assert calls[0] == 12 and all(starts == 1 for starts in calls[1:])
    np.testing.assert_array_equal(proba, expected)
    leaves = forest.apply(rows)
    assert leaves.shape == (400, 12)
    for t, member in enumerate(forest.estimators_):
        np.testing.assert_array_equal(leaves[:, t], split_by_split(member.tree_, rows))


def test_hedge_walks_all_its_members_in_one_call(monkeypatch):
    X, y = many_classes(n_classes=3, per_class=40, n_features=4, seed=7)
    X[::11, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hedge = HedgeEnsembleClassifier(
            ODTSVMClassifier(), n_estimators=4,
            random_state=0).fit(X, y)
    rows = np.vstack([X, hostile_rows(300, seed=8)])
    rows[~np.isfinite(rows)] = np.nan  # (±inf is an error for an estimator)
    expected = np.zeros((rows.shape[0], 3))
    for weight, member in zip(hedge.weights_ / hedge.weights_.sum(), hedge.estimators_):
        part = np.zeros_like(expected)
        part[:, member.classes_] = member.tree_.predict_proba(rows)
        expected += weight * part
    calls = calls_of_the_walk(monkeypatch)
    np.testing.assert_array_equal(hedge.predict_proba(rows), expected)
    assert calls[0] == 4 and all(starts == 1 for starts in calls[1:])
