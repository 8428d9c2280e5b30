"""Sparse splits: ``max_terms`` caps the attributes of every split, for all three learners."""
import numpy as np
import pytest

from orangecontrib.oblique.core import (GeometricTreeClassifier, OC1Classifier,
                                        ODTSVMClassifier, Split)
from orangecontrib.oblique.core.tree.sparse import (eliminate_terms, expand_split, sparse_split,
                                                    split_impurity)

LEARNERS = {
    "GDT": lambda **kw: GeometricTreeClassifier(**kw),
    "OC1": lambda **kw: OC1Classifier(n_restarts=3, random_state=0, **kw),
    "ODT-SVM": lambda **kw: ODTSVMClassifier(random_state=0, **kw),
}


def two_informative(n=400, n_noise=6, n_classes=2, seed=0):
    """Classes decided by x0 + x1 (and x0 − x1 for a third class); the rest is noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2 + n_noise))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    if n_classes == 3:
        y[(X[:, 0] - X[:, 1] > 1)] = 2
    return X * rng.uniform(0.5, 50, X.shape[1]), y


@pytest.mark.parametrize("learner", sorted(LEARNERS))
@pytest.mark.parametrize("max_terms", [1, 2, 3])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_no_split_has_more_terms(learner, max_terms, n_classes):
    X, y = two_informative(n_classes=n_classes)
    model = LEARNERS[learner](max_terms=max_terms).fit(X, y)
    used = [s.features_used.size for s in model.tree_.splits if s is not None]
    assert used and max(used) <= max_terms
    assert model.score(X, y) > 0.8


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_dense_default_is_the_papers_split(learner):
    X, y = two_informative()
    dense = LEARNERS[learner]().fit(X, y)
    explicit = LEARNERS[learner](max_terms=None).fit(X, y)
    assert dense.tree_.splits == explicit.tree_.splits
    assert max(s.features_used.size for s in dense.tree_.splits if s is not None) > 3


@pytest.mark.parametrize("learner", ["GDT", "OC1"])
def test_two_terms_keep_the_two_informative_attributes(learner):
    X, y = two_informative(n=600)
    root = LEARNERS[learner](max_terms=2).fit(X, y).tree_.splits[0]
    assert set(root.features_used.tolist()) == {0, 1}


@pytest.mark.parametrize("learner", sorted(LEARNERS))
@pytest.mark.parametrize("bad", [0, -1, 2.5, "3", True])
def test_bad_max_terms_is_a_clear_value_error(learner, bad):
    X, y = two_informative(n=60)  # 8 features
    with pytest.raises(ValueError, match="max_terms"):
        LEARNERS[learner](max_terms=bad).fit(X, y)


def test_max_terms_equal_to_the_feature_count_is_allowed():
    X, y = two_informative(n=100)
    GeometricTreeClassifier(max_terms=X.shape[1]).fit(X, y)


@pytest.mark.parametrize("learner", sorted(LEARNERS))
@pytest.mark.parametrize("extra", [0, 1, 100])
def test_max_terms_beyond_the_feature_count_is_no_limit(learner, extra):
    """As the Orange learners clip it: a pipeline with max_terms=3 works on a table of 2
    attributes, and gives the dense tree there."""
    X, y = two_informative(n=200, n_noise=1)  # 3 features
    dense = LEARNERS[learner]().fit(X, y)
    unlimited = LEARNERS[learner](max_terms=X.shape[1] + extra).fit(X, y)
    assert unlimited.tree_.splits == dense.tree_.splits
    np.testing.assert_array_equal(unlimited.predict_proba(X), dense.predict_proba(X))
    two = X[:, :2]
    assert LEARNERS[learner](max_terms=3).fit(two, y).tree_.splits == \
        LEARNERS[learner]().fit(two, y).tree_.splits


class TestElimination:
    def test_eliminates_the_noise_and_reoptimises_the_threshold(self):
        rng = np.random.default_rng(1)
        Z = rng.normal(size=(300, 3))
        y = (Z[:, 0] > 0.5).astype(int)
        # a hyperplane that mostly uses the noise columns
        found = eliminate_terms(Z, np.array([[1.0, 0.8, -0.9]]), np.array([0.0]), y,
                                np.ones(300), 2, max_terms=1)
        weights, bias = found
        assert np.flatnonzero(weights[0]).tolist() == [0]
        assert -bias[0] / weights[0, 0] == pytest.approx(0.5, abs=0.1)

    def test_multiway_split_holds_removed_attributes_at_their_mean(self):
        rng = np.random.default_rng(2)
        X = rng.normal(size=(300, 3))
        y = np.argmax(X[:, :2] @ np.array([[1, 0, -1], [0, 1, -1]]), axis=1)
        split = Split("argmax", [[1, 0, 0.3], [0, 1, 0.3], [-1, -1, 0.3]], [0, 0, 0],
                      classes=[0, 1, 2])
        sparse = sparse_split(split, X, y, np.ones(300), 3, max_terms=2)
        assert sparse.features_used.tolist() == [0, 1]
        assert np.mean(sparse.route(X) == y) > 0.95
        assert split_impurity(sparse, X, y, np.ones(300), 3) <= split_impurity(
            split, X, y, np.ones(300), 3) + 0.02

    def test_expand_split(self):
        split = Split.hyperplane([2.0, -1.0], 0.5)
        full = expand_split(split, np.array([1, 3]), 5)
        assert full.weights.tolist() == [[0, 2.0, 0, -1.0, 0]]
        assert full.bias.tolist() == [0.5]


def test_removal_scores_are_the_best_thresholds_without_each_term():
    """The removal of every term scored by OC1's compiled line search along −1
    is the best threshold of the hyperplane without that term, as a sort of every
    candidate finds it (:func:`impurity.best_threshold`)."""
    from orangecontrib.oblique.core.tree.impurity import best_threshold, class_indicators
    from orangecontrib.oblique.core.tree.sparse import removal_scores
    rng = np.random.default_rng(0)
    for measure, n_classes in (("information_gain", 2), ("gini", 3), ("twoing", 3)):
        Z = rng.normal(size=(150, 7))
        Z[:, 3] = np.round(Z[:, 3])                    # ties
        weights = rng.normal(size=7)
        y = np.argmax(Z[:, :n_classes] + rng.normal(0, 0.5, (150, n_classes)), axis=1)
        indicators = class_indicators(y, rng.uniform(0.5, 2, 150), n_classes)
        values = Z @ weights
        scores = removal_scores(values, Z, weights, indicators, measure)
        expected = [best_threshold(values - Z[:, j] * weights[j], indicators, measure)[0]
                    for j in range(7)]
        np.testing.assert_allclose(scores, expected, rtol=1e-12)


def test_multiway_removals_are_scored_as_one_attribute_at_a_time():
    """The removals of a multiway split (each attribute held at its mean) scored all at
    once choose as scoring them one by one does."""
    from orangecontrib.oblique.core.tree.sparse import _partition_gini
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(240, 9))
    y = np.argmax(Z[:, :3] + rng.normal(0, 0.7, (240, 3)), axis=1)
    sample_weight = rng.uniform(0.5, 2, 240)
    weights, bias = rng.normal(size=(3, 9)), rng.normal(size=3)

    def route(values):
        return np.argmax(values, axis=1)

    mean = np.average(Z, axis=0, weights=sample_weight)
    active, kept = list(range(9)), (weights.copy(), bias.copy())
    while len(active) > 2:                     # one by one below 12 (removals_per_round)
        w, b = kept
        values = Z @ w.T + b
        scores = [_partition_gini(route(values - np.outer(Z[:, j] - mean[j], w[:, j])), y,
                                  sample_weight, 3, 3) for j in active]
        magnitude = np.abs(w[:, active]).max(axis=0)
        j = active[np.lexsort((magnitude, scores))[0]]
        kept = (w.copy(), b + w[:, j] * mean[j])
        kept[0][:, j] = 0.0
        active.remove(j)
    found = eliminate_terms(Z, weights, bias, y, sample_weight, 3, 2, route=route)
    np.testing.assert_array_equal(np.flatnonzero(np.any(found[0] != 0, axis=0)), active)
    np.testing.assert_allclose(found[1], kept[1])
