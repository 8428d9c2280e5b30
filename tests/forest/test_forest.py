"""Oblique Forest (SPORF; Tomita et al. 2020): the sparse projection splitter, its tree, the
forest and its contracts (determinism for any ``n_jobs`` and on a Dask cluster, out-of-bag
estimates, importances, hostile inputs; scikit-learn's checks are in
``tests/estimators/test_estimator_checks.py``)."""
import pickle
import warnings
from math import comb

import numpy as np
import pytest
from joblib import parallel_backend, parallel_config
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.exceptions import NotFittedError
from sklearn.neighbors import KNeighborsClassifier
from scipy import sparse

from orangecontrib.oblique.core import (GeometricTreeClassifier, OC1Classifier,
                                        ODTSVMClassifier)
from orangecontrib.oblique.core.datasets import rotated_checkerboard, synthetic_10d
from orangecontrib.oblique.core.forest.classifier import (ObliqueForestClassifier,
                                                          SparseProjectionTreeClassifier, bag_counts,
                                                          oob_search_grid)
from orangecontrib.oblique.core.tree.impurity import class_indicators
from orangecontrib.oblique.core.forest.sporf import (SparseProjectionSplitter, mean_nonzeros,
                                                     n_projections, projection_matrix,
                                                     readable_threshold, search_projections,
                                                     varying_features)
from orangecontrib.oblique.core.tree.splits import HYPERPLANE, MAX_DIGITS, Split
from orangecontrib.oblique.core.tree.structure import grow_tree

from tests.helpers.invariants import assert_tree_invariants
from tests.helpers.printed_rules import predict_by_export_text

# ----- the splitter -----


def test_defaults_are_the_rerf_packages():
    """d = ⌈√p⌉ projections; λ·p = 3 attributes per projection from p = 10 on, else 1."""
    assert [n_projections("sqrt", p) for p in (1, 4, 10, 22, 79)] == [1, 2, 4, 5, 9]
    assert [mean_nonzeros("auto", p) for p in (1, 4, 9, 10, 79)] == [1, 1, 1, 3, 3]
    assert n_projections(None, 7) == 7 and n_projections(30, 7) == 30
    assert n_projections(0.5, 7) == 4 and n_projections("log2", 8) == 3
    assert mean_nonzeros(2.5, 10) == 2.5 and mean_nonzeros(50, 10) == 10
    tree = SparseProjectionTreeClassifier()
    forest = ObliqueForestClassifier()
    assert (tree.max_features, tree.feature_combinations) == ("sqrt", "auto")
    assert (forest.n_estimators, forest.max_features, forest.feature_combinations,
            forest.bootstrap, forest.max_depth) == (100, "sqrt", "auto", True, None)


@pytest.mark.parametrize("bad", ["cube", 0, -1, 1.5, 0.0, True])
def test_max_features_out_of_range(bad):
    with pytest.raises(ValueError, match="max_features"):
        n_projections(bad, 5)


@pytest.mark.parametrize("bad", ["many", 0.5, 0, True, None])
def test_feature_combinations_out_of_range(bad):
    with pytest.raises(ValueError, match="feature_combinations"):
        mean_nonzeros(bad, 5)


def test_readable_threshold():
    assert readable_threshold(1.0, 3.0) == (2.0, 1)
    assert readable_threshold(-0.5, 0.25) == (0.0, 1)
    assert readable_threshold(2.44, 2.46) == (2.45, 3)
    assert readable_threshold(0.012344, 0.012346) == (0.012345, 5)
    low = 1.0
    high = np.nextafter(low, 2.0)
    threshold, digits = readable_threshold(low, high)  # no decimal between: the midpoint
    assert digits == MAX_DIGITS and low <= threshold <= high
    rng = np.random.default_rng(0)
    for _ in range(500):
        low, high = np.sort(rng.normal(size=2) * 10.0 ** rng.integers(-5, 5))
        if low == high:
            continue
        threshold, digits = readable_threshold(low, high)
        assert low < threshold < high
        assert float(f"{threshold:.{digits - 1}e}") == threshold


def search_cases(n_cases, seed):
    """Random nodes: ties (rounded values), fractional weights, 2–5 classes, projections
    with no, one or several attributes."""
    rng = np.random.default_rng(seed)
    for _ in range(n_cases):
        n, p, n_classes = rng.integers(2, 150), rng.integers(1, 12), rng.integers(2, 6)
        X = np.round(rng.normal(size=(n + 5, p)), rng.integers(0, 3))
        y = rng.integers(0, n_classes, n + 5)
        weights = rng.integers(1, 4, n + 5) / rng.integers(1, 4)
        rows = np.sort(rng.choice(n + 5, n, replace=False))
        features = varying_features(X, rows)
        if features.size == 0:
            continue
        d = int(rng.integers(1, 6))
        cells = features.size * d
        chosen = np.sort(rng.choice(cells, min(cells, int(rng.integers(1, 2 * d + 1))),
                                    replace=False))
        negative = rng.random(chosen.size) < 0.5
        unit = np.round(1 / (0.5 + rng.random(p)), 3)
        yield (X, rows, features, chosen, negative, unit, d, y[rows], weights[rows])


def gini_of_every_cut(values, indicators):
    """The Gini impurity of every cut of the rows between distinct neighbouring
    ``values``, by brute force: ``(low, high, impurity)`` for each."""
    cuts = []
    distinct = np.unique(values)
    for low, high in zip(distinct[:-1], distinct[1:]):
        left = indicators[:, values <= low].sum(axis=1)
        right = indicators[:, values >= high].sum(axis=1)
        n_left, n_right = left.sum(), right.sum()
        impurity = ((n_left - (left ** 2).sum() / n_left)
                    + (n_right - (right ** 2).sum() / n_right)) / (n_left + n_right)
        cuts.append((low, high, impurity))
    return cuts


def test_search_finds_the_lowest_gini_cut_of_the_projections():
    """The search's answer against every cut of every projection evaluated by brute
    force: the lowest Gini impurity (the first projection of it), a cut between
    distinct neighbouring values of that projection, the projection's weights and
    the weighted deviations of its attributes; no split where no projection varies."""
    checked = 0
    for case in search_cases(400, seed=1):
        X, rows, features, cells, negative, unit, d, codes, weights = case
        indicators = class_indicators(codes, weights, int(codes.max()) + 1)
        np.testing.assert_array_equal(
            varying_features(X, rows),
            np.flatnonzero(X[rows].max(axis=0) > X[rows].min(axis=0)))
        k, low, high, impurity, split_weights, scales = search_projections(*case)
        feature, projection, coefficient = projection_matrix(features, cells, negative,
                                                             unit, d)
        values = np.zeros((d, rows.size))
        for j, p, c in zip(feature, projection, coefficient):
            values[p] += c * X[rows, j]
        cuts = [gini_of_every_cut(values[p], indicators) if np.any(projection == p) else []
                for p in range(d)]
        best = [min((cut[2] for cut in p_cuts), default=np.inf) for p_cuts in cuts]
        if not np.isfinite(min(best)):
            assert k == -1 and not np.isfinite(impurity)
            continue
        lowest = min(best)
        assert impurity == pytest.approx(lowest, abs=1e-12)
        assert k == next(p for p in range(d) if best[p] <= lowest + 1e-12)
        assert any(low == cut[0] and high == cut[1] and cut[2] == pytest.approx(
            impurity, abs=1e-12) for cut in cuts[k])
        chosen = projection == k
        expected = np.zeros(X.shape[1])
        expected[feature[chosen]] = coefficient[chosen]
        np.testing.assert_array_equal(split_weights, expected)
        used = feature[chosen]
        mean = np.average(X[np.ix_(rows, used)], axis=0, weights=weights)
        deviation = np.sqrt(np.average((X[np.ix_(rows, used)] - mean) ** 2, axis=0,
                                       weights=weights))
        np.testing.assert_allclose(scales[used], deviation, rtol=1e-12, atol=1e-15)
        checked += 1
    assert checked > 300


def grown(X, y, weights, seed=0):
    splitter = SparseProjectionSplitter(X, y, weights, int(y.max()) + 1, 3, 2.0,
                                        np.random.default_rng(seed))
    return grow_tree(X, y, weights, int(y.max()) + 1, splitter), splitter


def test_a_recorded_tree():
    """The splitter's tree on a weighted rotated checkerboard (recorded; since exact ties
    of impurity keep the first projection, 75 nodes instead of 77, the same root)."""
    X, y = rotated_checkerboard(300, random_state=0)
    weights = np.random.default_rng(0).integers(1, 4, len(y)) / 3
    tree, _ = grown(X, y, weights)
    assert (tree.node_count, tree.n_leaves, tree.depth) == (75, 38, 9)
    np.testing.assert_array_equal(tree.splits[0].weights, [[0.8601, 0.8548]])
    np.testing.assert_array_equal(tree.splits[0].bias, [-2.8])
    assert_tree_invariants(tree)


def test_the_splitter_keeps_node_scales_as_store_feature_scales_computes_them():
    X, y = load_wine(return_X_y=True)
    weights = np.random.default_rng(0).integers(1, 4, len(y)).astype(float)
    tree, splitter = grown(X, y, weights)
    kept = splitter.feature_scales(tree)
    tree.store_feature_scales(X, weights)
    assert sparse.issparse(kept)  # the used attributes only
    np.testing.assert_allclose(kept.toarray(), tree.feature_scales, rtol=1e-12, atol=1e-12)


def test_projections_are_sparse_signed_and_skip_constant_attributes():
    """Weights ±round(1/s) on the standardised attributes (+1 alone); an attribute
    constant at a node is never in its split."""
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=400), rng.normal(size=400) * 100,
                         np.where(np.arange(400) < 200, 1.0, 5.0), rng.normal(size=400)])
    y = (X[:, 0] + X[:, 1] / 100 > 0).astype(int)
    tree, splitter = grown(X, y, np.ones(400))
    unit = splitter.unit
    np.testing.assert_allclose(unit, 1 / X.std(axis=0), rtol=1e-3)
    reached, _ = tree.route(X)
    for node, split in enumerate(tree.splits):
        if split is None:
            continue
        assert split.kind.name == HYPERPLANE
        used = split.features_used
        weights = split.weights[0, used]
        if used.size == 1:
            assert weights[0] == 1.0
        else:
            np.testing.assert_array_equal(np.abs(weights), unit[used])
        block = X[reached[node]]
        assert np.all(block[:, used].max(axis=0) > block[:, used].min(axis=0))


# ----- one tree -----

def test_tree_is_a_hyperplane_tree_with_pure_leaves():
    """Grown until its leaves are pure, where every attribute varies at every node."""
    X, y = make_classification(300, 4, n_informative=3, n_redundant=0, n_classes=3,
                               random_state=0)
    model = SparseProjectionTreeClassifier(random_state=0).fit(X, y)
    assert_tree_invariants(model.tree_)
    assert model.score(X, y) == 1.0
    assert model.n_projections_ == 2 and model.mean_nonzeros_ == 1
    leaves = model.tree_.is_leaf
    assert np.all(np.count_nonzero(model.tree_.value[leaves], axis=1) == 1)


def test_matrix_is_drawn_over_all_attributes_as_rerfs():
    """rerf's matrix: round(λ·p·d) of the p × d cells over all attributes, also those
    constant at the node; these are left out of the split, and a node whose candidates
    all miss the attributes that vary is a leaf (rerf's leaf when no candidate lowers
    the impurity).  Here 1 of 10 attributes varies: 12 non-zeros in 40 cells miss its 4
    with probability C(36, 12) / C(40, 12)."""
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=60), np.ones((60, 9))])
    y = (X[:, 0] > 0).astype(int)
    splitter = SparseProjectionSplitter(X, y, np.ones(60), 2, 4, 3.0,
                                        np.random.default_rng(1))
    rows = np.arange(60)
    splits = [splitter(rows, np.bincount(y), 0) for _ in range(600)]
    misses = np.mean([split is None for split in splits])
    assert abs(misses - comb(36, 12) / comb(40, 12)) < 0.06
    for split in splits:
        if split is not None:
            np.testing.assert_array_equal(split.weights[0], np.eye(10)[0])


def test_printed_rules_are_the_splits():
    """A split prints its own numbers: its printed form routes any row as it does, with
    the digits calibrate_text would give it."""
    X, y = synthetic_10d(500, random_state=0)
    model = SparseProjectionTreeClassifier(random_state=1).fit(X, y)
    for split in model.tree_.splits:
        if split is not None:
            assert split.printed() == split
    other = np.random.default_rng(1).uniform(-1, 1, (300, 10))
    names = [f"x{i + 1}" for i in range(10)]
    predicted = predict_by_export_text(model.export_text(), names, other)
    np.testing.assert_array_equal(predicted.astype(int), model.predict(other))


# ----- the forest -----

@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


def test_trees_are_sporf_trees_on_bootstrap_samples(wine):
    X, y = wine
    forest = ObliqueForestClassifier(n_estimators=6, random_state=0).fit(X, y)
    assert len(forest.estimators_) == 6 and len(set(forest.seeds_)) == 6
    samples = forest.estimators_samples_
    for tree, seed, rows in zip(forest.estimators_, forest.seeds_, samples):
        assert isinstance(tree, SparseProjectionTreeClassifier)
        assert tree.random_state == seed
        assert_tree_invariants(tree.tree_)
        counts = bag_counts(seed, y)
        assert counts.sum() == len(y) and len(rows) == len(y)
        np.testing.assert_array_equal(np.bincount(rows, minlength=len(y)), counts)
        # the tree's class counts are those of its sample
        np.testing.assert_allclose(tree.tree_.value[0],
                                   np.bincount(y[rows], minlength=3))
    mean = np.mean([tree.predict_proba(X) for tree in forest.estimators_], axis=0)
    np.testing.assert_allclose(forest.predict_proba(X), mean)
    np.testing.assert_array_equal(forest.predict(X), np.argmax(mean, axis=1))
    assert forest.apply(X).shape == (len(y), 6)


def test_bootstrap_samples_are_stratified_by_class():
    """rerf's default bootstrap (stratify = TRUE): every sample draws each class as often
    as it has rows, with replacement, and the draws are the seed's alone."""
    y = np.repeat([2, 0, 1], [40, 7, 3])[np.random.default_rng(0).permutation(50)]
    for seed in range(20):
        counts = bag_counts(seed, y)
        np.testing.assert_array_equal(np.bincount(y, weights=counts), [7, 3, 40])
        assert (counts == 0).any() and counts.max() > 1  # with replacement
        np.testing.assert_array_equal(counts, bag_counts(seed, y))
    assert not np.array_equal(bag_counts(0, y), bag_counts(1, y))
    np.testing.assert_array_equal(bag_counts(0, y, bootstrap=False), np.ones(50))
    X, labels = load_iris(return_X_y=True)
    forest = ObliqueForestClassifier(n_estimators=5, random_state=0).fit(X, labels)
    for tree in forest.estimators_:  # every tree's root has the data's class counts
        np.testing.assert_array_equal(tree.tree_.value[0], [50, 50, 50])


def test_labels_of_any_type_and_absent_classes_in_a_sample():
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    forest = ObliqueForestClassifier(n_estimators=5, random_state=0).fit(X, labels)
    assert list(forest.classes_) == list(labels[[0, 50, 100]])
    assert (forest.predict(X) == labels).mean() > 0.95
    # a class of one row: in every (stratified) sample, once
    rare = labels.copy()
    rare[7] = "rare"
    with pytest.warns(UserWarning, match="1 the only row of its class, which every "
                                         "stratified sample draws$"):
        forest = ObliqueForestClassifier(n_estimators=40, oob_score=True,
                                         random_state=0).fit(X, rare)
    assert forest.predict_proba(X).shape == (150, 4)
    np.testing.assert_allclose(forest.predict_proba(X).sum(axis=1), 1)
    assert np.isnan(forest.oob_decision_function_[7]).all()


def test_same_forest_for_any_n_jobs(wine):
    X, y = wine
    reference = ObliqueForestClassifier(n_estimators=8, random_state=3).fit(X, y)
    for n_jobs in (2, -1):
        forest = ObliqueForestClassifier(n_estimators=8, random_state=3,
                                         n_jobs=n_jobs).fit(X, y)
        for a, b in zip(reference.estimators_, forest.estimators_):
            assert a.tree_.splits == b.tree_.splits
        np.testing.assert_array_equal(forest.predict_proba(X), reference.predict_proba(X))
    with parallel_backend("loky", n_jobs=2):
        forest = ObliqueForestClassifier(n_estimators=8, random_state=3).fit(X, y)
    np.testing.assert_array_equal(forest.predict_proba(X), reference.predict_proba(X))


def test_same_forest_on_a_dask_cluster(wine):
    distributed = pytest.importorskip("distributed")
    X, y = wine
    reference = ObliqueForestClassifier(n_estimators=6, random_state=0).fit(X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        with parallel_backend("dask"):
            forest = ObliqueForestClassifier(n_estimators=6, random_state=0).fit(X, y)
    for a, b in zip(reference.estimators_, forest.estimators_):
        assert a.tree_.splits == b.tree_.splits
    np.testing.assert_array_equal(forest.predict(X), reference.predict(X))
    np.testing.assert_array_equal(forest.predict_proba(X), reference.predict_proba(X))


def test_progress_and_cancel(wine):
    X, y = wine
    for n_jobs in (1, 2):
        reported = []
        with parallel_config(n_jobs=n_jobs):  # threads however small the work
            ObliqueForestClassifier(n_estimators=4, random_state=0).fit(
                X, y, progress_callback=reported.append)
        assert reported == sorted(reported) and reported[-1] == 1.0
        if n_jobs == 1:  # progress within every tree too
            assert len(reported) > 8
        else:
            assert reported == [0.25, 0.5, 0.75, 1.0]

    class Cancelled(Exception):
        pass

    def cancel(fraction):
        if fraction > 0.3:
            raise Cancelled

    for n_jobs in (1, 2):
        with pytest.raises(Cancelled), parallel_config(n_jobs=n_jobs):
            ObliqueForestClassifier(n_estimators=6, random_state=0).fit(
                X, y, progress_callback=cancel)


def test_out_of_bag_estimate(wine):
    X, y = wine
    forest = ObliqueForestClassifier(n_estimators=30, oob_score=True,
                                     random_state=0).fit(X, y)
    oob = forest.oob_decision_function_
    assert oob.shape == (len(y), 3) and not np.isnan(oob).any()
    np.testing.assert_allclose(oob.sum(axis=1), 1)
    assert forest.oob_score_ == np.mean(np.argmax(oob, axis=1) == y)
    assert 0.9 < forest.oob_score_ < 1.0  # an honest estimate: below the training accuracy
    # every row's out-of-bag distribution averages the trees it was out of
    row = 5
    out = [tree for tree, seed in zip(forest.estimators_, forest.seeds_)
           if bag_counts(seed, y)[row] == 0]
    np.testing.assert_allclose(oob[row], np.mean([t.predict_proba(X[[row]])[0]
                                                  for t in out], axis=0))


def test_out_of_bag_needs_bootstrap_and_warns_for_rows_in_every_bag(wine):
    X, y = wine
    with pytest.raises(ValueError, match="bootstrap"):
        ObliqueForestClassifier(oob_score=True, bootstrap=False).fit(X, y)
    with pytest.warns(UserWarning, match="no out-of-bag"):
        forest = ObliqueForestClassifier(n_estimators=2, oob_score=True,
                                         random_state=0).fit(X, y)
    assert np.isnan(forest.oob_decision_function_).any()
    assert 0 <= forest.oob_score_ <= 1


def test_oob_search_grid_is_the_papers():
    """The authors' benchmark script: d in ⌈p^(1/4, 1/2, 3/4, 1, 2)⌉ (p^1.5 above 100
    attributes, 1..p and p² below 5), λ·p in 1..min(p − 1, 5), d varying fastest."""
    grid = oob_search_grid(10)
    assert grid[:6] == [(2, 1.0), (4, 1.0), (6, 1.0), (10, 1.0), (100, 1.0), (2, 2.0)]
    assert len(grid) == 25 and grid[-1] == (100, 5.0)
    assert oob_search_grid(4) == [(d, float(k)) for k in (1, 2, 3)
                                  for d in (1, 2, 3, 4, 16)]
    assert [d for d, k in oob_search_grid(150) if k == 1] == [4, 13, 43, 150, 1838]
    assert oob_search_grid(1) == [(1, 1.0)] and oob_search_grid(2) == [(1, 1.0), (2, 1.0),
                                                                         (4, 1.0)]


def test_oob_grid_search_keeps_the_forest_of_the_lowest_out_of_bag_error():
    X, y = load_iris(return_X_y=True)
    forest = ObliqueForestClassifier(n_estimators=12, oob_grid_search=True, oob_score=True,
                                     random_state=0).fit(X, y)
    grid = forest.oob_grid_
    assert [(r["max_features"], r["feature_combinations"]) for r in grid] == \
        oob_search_grid(4)
    best = min(grid, key=lambda r: (r["oob_error"], -r["oob_auc"]))
    assert forest.best_params_ == {"max_features": best["max_features"],
                                   "feature_combinations": best["feature_combinations"]}
    assert len({r["oob_error"] for r in grid}) > 1  # the choice is a choice
    assert len(forest.estimators_) == 12
    for tree in forest.estimators_:
        assert (tree.max_features, tree.feature_combinations) == (
            best["max_features"], best["feature_combinations"])
    assert forest.oob_score_ == pytest.approx(1 - best["oob_error"])
    # the same forests, errors and choice for any n_jobs
    again = ObliqueForestClassifier(n_estimators=12, oob_grid_search=True, n_jobs=2,
                                    random_state=0).fit(X, y)
    assert again.oob_grid_ == grid
    np.testing.assert_array_equal(again.predict_proba(X), forest.predict_proba(X))


@pytest.mark.parametrize("params", [dict(oob_grid_search=1),
                                    dict(oob_grid_search=True, bootstrap=False),
                                    dict(oob_grid_search=True, estimator=OC1Classifier())])
def test_oob_grid_search_parameters(params):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="oob_grid_search"):
        ObliqueForestClassifier(n_estimators=3, **params).fit(X, y)


def test_feature_importances_sum_to_one_and_find_the_informative_attributes():
    X, y = make_classification(400, 8, n_informative=2, n_redundant=0, shuffle=False,
                               random_state=0)
    forest = ObliqueForestClassifier(n_estimators=20, random_state=0).fit(X, y)
    importances = forest.feature_importances_
    assert importances.shape == (8,) and np.all(importances >= 0)
    assert importances.sum() == pytest.approx(1)
    assert set(np.argsort(importances)[-2:]) == {0, 1}
    mean = np.mean([tree.feature_importances_ for tree in forest.estimators_], axis=0)
    np.testing.assert_allclose(importances, mean / mean.sum())
    statistics = forest.get_split_statistics()
    assert statistics.n_splits == sum(t.tree_.n_leaves - 1 for t in forest.estimators_)


def test_member_trees_print_and_route_like_any_tree(wine):
    X, y = wine
    forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    names = [f"x{i + 1}" for i in range(X.shape[1])]
    for tree in forest.estimators_:
        text = tree.export_text()
        predicted = predict_by_export_text(text, names, X)  # out-of-bag rows too
        np.testing.assert_array_equal(predicted.astype(int), tree.predict(X))
        path = tree.decision_path(X)
        assert path.shape == (len(y), tree.tree_.node_count)
        np.testing.assert_array_equal(path[np.arange(len(y)), tree.apply(X)].A1, 1)


def test_a_papers_tree_as_the_forests_tree():
    X, y = load_iris(return_X_y=True)
    for estimator in (GeometricTreeClassifier(), OC1Classifier(n_restarts=2),
                      ODTSVMClassifier(clustering_split=False)):
        forest = ObliqueForestClassifier(n_estimators=4, estimator=estimator,
                                         random_state=0).fit(X, y)
        assert len(forest.features_) == 4
        for tree, features in zip(forest.estimators_, forest.features_):
            assert type(tree) is type(estimator)
            assert features.size == 2  # ⌈√4⌉ attributes per tree
            assert tree.tree_.n_features == tree.n_features_in_ == 4
            for split in tree.tree_.splits:
                if split is not None:
                    assert set(split.features_used) <= set(features)
            assert tree.export_text()  # over all four attributes
        assert forest.score(X, y) > 0.9
        assert forest.feature_importances_.sum() == pytest.approx(1)


def test_odt_svm_categorical_features_follow_the_tree_attributes():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=200), rng.integers(0, 3, 200),
                         rng.normal(size=200), rng.integers(0, 2, 200)]).astype(float)
    y = ((X[:, 0] > 0) ^ (X[:, 1] == 2)).astype(int)
    forest = ObliqueForestClassifier(
        n_estimators=5, max_features=None, random_state=0,
        estimator=ODTSVMClassifier(categorical_features=[1, 3], clustering_split=False,
                                   max_terms=4)).fit(X, y)
    assert forest.score(X, y) > 0.9


def test_pickles_and_predicts_alike(wine):
    X, y = wine
    forest = ObliqueForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    again = pickle.loads(pickle.dumps(forest))
    np.testing.assert_array_equal(again.predict_proba(X), forest.predict_proba(X))


def test_beats_a_random_forest_on_oblique_structure():
    """A sparse oblique projection fits a rotated checkerboard better than single
    attributes (the paper's motivation)."""
    from sklearn.ensemble import RandomForestClassifier
    X, y = rotated_checkerboard(1200, random_state=0)
    X_test, y_test = rotated_checkerboard(1200, random_state=1)
    forest = ObliqueForestClassifier(n_estimators=30, random_state=0).fit(X, y)
    axis = RandomForestClassifier(30, random_state=0).fit(X, y)
    assert forest.score(X_test, y_test) > axis.score(X_test, y_test)


# ----- hostile inputs -----

@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_missing_or_infinite_values_are_a_value_error(wine, value):
    X, y = wine
    X = X.copy()
    X[3, 2] = value
    with pytest.raises(ValueError):
        ObliqueForestClassifier(n_estimators=2).fit(X, y)
    forest = ObliqueForestClassifier(n_estimators=2, random_state=0).fit(*wine)
    with pytest.raises(ValueError):
        forest.predict(X)


def test_one_class_no_rows_and_zero_weights():
    X = np.random.default_rng(0).normal(size=(20, 3))
    forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, ["a"] * 20)
    assert list(forest.predict(X)) == ["a"] * 20
    np.testing.assert_array_equal(forest.feature_importances_, np.zeros(3))
    with pytest.raises(ValueError):
        ObliqueForestClassifier().fit(np.zeros((0, 3)), [])
    with pytest.raises(ValueError, match="non-zero"):
        ObliqueForestClassifier().fit(X, np.arange(20) % 2, sample_weight=np.zeros(20))
    with pytest.raises(NotFittedError):
        ObliqueForestClassifier().predict(X)


def test_sparse_input_and_identical_rows():
    X, y = load_iris(return_X_y=True)
    dense = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    sparse_forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(
        sparse.csr_matrix(X), y)
    np.testing.assert_array_equal(sparse_forest.predict_proba(sparse.csr_matrix(X)),
                                  dense.predict_proba(X))
    same = np.ones((10, 2))
    forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(
        same, np.arange(10) % 2)
    assert all(tree.tree_.node_count == 1 for tree in forest.estimators_)


@pytest.mark.parametrize("params, message", [
    ({"n_estimators": 0}, "n_estimators"),
    ({"n_estimators": True}, "n_estimators"),
    ({"bootstrap": "yes"}, "bootstrap"),
    ({"oob_score": 1}, "oob_score"),
    ({"n_jobs": 0}, "n_jobs"),
    ({"max_depth": -1}, "max_depth"),
    ({"min_samples_split": 1}, "min_samples_split"),
    ({"max_features": "all"}, "max_features"),
    ({"feature_combinations": 0}, "feature_combinations"),
    ({"random_state": "seed"}, "random_state"),
    ({"estimator": KNeighborsClassifier()}, "estimator"),
])
def test_parameters_out_of_range(wine, params, message):
    with pytest.raises(ValueError, match=message):
        ObliqueForestClassifier(**params).fit(*wine)


def test_no_warnings_on_ordinary_data(wine):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ObliqueForestClassifier(n_estimators=3, random_state=0).fit(*wine).predict(wine[0])


def test_a_split_of_few_terms_pickles_in_the_size_of_its_terms():
    """A forest's split weighs 3 of hundreds of attributes: pickled by its non-zero terms
    (a worker hands thousands of them back to the fitting process), loaded exactly."""
    weights = np.zeros(1000)
    weights[[3, 500, 999]] = [0.25, -1.5, 2.0]
    split = Split.hyperplane(weights, -0.125)
    split.digits = 5
    data = pickle.dumps(split)
    assert len(data) < 1000     # 8,000 bytes of weights dense
    loaded = pickle.loads(data)
    assert loaded == split and loaded.digits == 5 and loaded.weights.shape == (1, 1000)
    dense = Split.hyperplane(np.arange(1.0, 21.0), 1.0)
    assert pickle.loads(pickle.dumps(dense)) == dense
