"""Shared data preparation: per-node standardisation (GDT, OC1 Section 2.4, ODT-SVM Fig. 2)
and stratified sampling (OC1's held-out rows, the Hedge ensemble's subsets)."""
import numpy as np
import pytest

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier, ODTSVMClassifier
from orangecontrib.oblique.core.tree.impurity import entropy
from orangecontrib.oblique.core.preprocessing import Standardisation, stratified_sample


def rows_with_constant_column(seed=0, constant=3.7, n_rows=40):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n_rows, 3)) * [1.0, 100.0, 1e-3] + [0.0, 5.0, -2.0]
    return np.column_stack([X[:, :1], np.full(n_rows, constant), X[:, 1:]])


# ----- Standardisation -----

def test_standardised_columns_have_mean_0_and_variance_1():
    X = rows_with_constant_column()
    Z = Standardisation.from_rows(X).transform(X)
    varying = [0, 2, 3]
    np.testing.assert_allclose(Z[:, varying].mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(Z[:, varying].std(axis=0), 1)


def test_weights_act_as_copies_of_rows():
    X = rows_with_constant_column()
    weights = np.random.RandomState(1).randint(1, 4, len(X))
    weighted = Standardisation.from_rows(X, weights.astype(float))
    copies = Standardisation.from_rows(np.repeat(X, weights, axis=0))
    np.testing.assert_allclose(weighted.mean, copies.mean)
    np.testing.assert_allclose(weighted.scale, copies.scale)


def test_constant_column_is_exactly_zero_and_gets_no_weight():
    X = rows_with_constant_column(constant=0.1)
    standardisation = Standardisation.from_rows(X)
    assert standardisation.mean[1] == 0.1 and standardisation.scale[1] == 1
    np.testing.assert_array_equal(standardisation.zero_columns, [False, True, False, False])
    assert np.all(standardisation.transform(X)[:, 1] == 0)
    raw = standardisation.raw_weights(np.array([[1.0, 5.0, -2.0, 0.5], [0.0, 1.0, 1.0, 1.0]]))
    assert np.all(raw[:, 1] == 0)


def test_tiny_spread_is_a_scale_not_a_constant():
    X = np.column_stack([np.arange(6.0), 1.0 + 1e-12 * np.arange(6.0)])
    standardisation = Standardisation.from_rows(X)
    assert not standardisation.zero_columns.any()
    np.testing.assert_allclose(standardisation.transform(X).std(axis=0), 1)


def test_hyperplane_in_raw_units_routes_rows_as_in_standardised_units():
    X = rows_with_constant_column()
    standardisation = Standardisation.from_rows(X)
    Z = standardisation.transform(X)
    normals = np.random.RandomState(2).normal(size=(3, X.shape[1]))
    normals[:, 1] = 0.0     # a constant column's weight is dropped in raw units
    biases = np.array([0.3, -1.0, 0.0])
    raw = standardisation.raw_weights(normals)
    np.testing.assert_allclose(X @ raw.T + standardisation.raw_bias(raw, biases),
                               Z @ normals.T + biases, atol=1e-9)


def test_identity_keeps_rows_and_zeroes_only_all_zero_columns():
    X = np.column_stack([np.arange(4.0), np.full(4, 2.0), np.zeros(4)])
    identity = Standardisation.identity(X)
    np.testing.assert_array_equal(identity.transform(X), X)
    np.testing.assert_array_equal(identity.zero_columns, [False, False, True])
    np.testing.assert_array_equal(identity.raw_weights(np.array([1.0, 2.0, 3.0])), [1, 2, 0])
    assert identity.raw_bias(np.array([1.0, 2.0, 0.0]), 0.5) == 0.5


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.parametrize("learner", [GeometricTreeClassifier(), OC1Classifier(random_state=0),
                                     ODTSVMClassifier(random_state=0)],
                         ids=lambda learner: type(learner).__name__)
def test_learners_fit_a_constant_column_whose_computed_mean_overflows(learner):
    X = rows_with_constant_column(constant=1e307, n_rows=60)
    y = (X[:, 0] + X[:, 2] / 100 > 0.05).astype(int)
    learner.fit(X, y)
    for split in learner.tree_.splits:
        if split is not None:
            assert np.all(np.isfinite(split.weights)) and np.all(np.isfinite(split.bias))
    assert learner.score(X, y) > 0.9


# ----- stratified_sample -----

CODES = np.repeat([0, 1, 2], [80, 15, 5])


def test_every_class_gives_its_share_by_largest_remainders():
    for flags in ({}, dict(one_per_class=True),
                  dict(keep_one_per_class=True, random_ties=True, shuffle_every_class=True)):
        rows = stratified_sample(CODES, 30, np.random.RandomState(0), **flags)
        assert len(rows) == 30 and np.all(np.diff(rows) > 0)
        # shares 24, 4.5, 1.5: the two halves go to the classes of code order or at random
        assert np.bincount(CODES[rows], minlength=3)[0] == 24
        assert sorted(np.bincount(CODES[rows], minlength=3)[1:]) in ([1, 5], [2, 4])


def test_one_per_class_and_keep_one_per_class():
    codes = np.repeat([0, 1], [99, 1])
    assert np.bincount(codes[stratified_sample(codes, 10, np.random.RandomState(0))],
                       minlength=2)[1] == 0
    rows = stratified_sample(codes, 10, np.random.RandomState(0), one_per_class=True)
    np.testing.assert_array_equal(np.bincount(codes[rows]), [9, 1])
    codes = np.repeat([0, 1], [2, 8])
    rows = stratified_sample(codes, 8, np.random.RandomState(0), keep_one_per_class=True)
    np.testing.assert_array_equal(np.bincount(codes[rows]), [1, 7])
    # at most n − K rows then
    rows = stratified_sample(codes, 9, np.random.RandomState(0), keep_one_per_class=True)
    np.testing.assert_array_equal(np.bincount(codes[rows]), [1, 7])


def test_shuffle_every_class_draws_as_much_whatever_the_shares():
    codes = np.repeat([0, 1, 2], [10, 3, 3])
    for shuffle_every_class, same in ((True, True), (False, False)):
        states = []
        for size in (2, 8):   # class 2 gives no row at size 2
            rng = np.random.RandomState(0)
            stratified_sample(codes, size, rng, shuffle_every_class=shuffle_every_class)
            states.append(rng.randint(1 << 30))
        assert (states[0] == states[1]) == same


def test_same_seed_same_sample_for_both_kinds_of_generator():
    for make in (np.random.RandomState, np.random.default_rng):
        first = stratified_sample(CODES, 20, make(5), random_ties=True)
        np.testing.assert_array_equal(first, stratified_sample(CODES, 20, make(5),
                                                               random_ties=True))


# ----- entropy -----

def test_entropy_with_given_sizes_equals_summed_sizes():
    counts = np.array([[3.0, 0.0, 1.5], [1.0, 0.0, 1.5]])
    np.testing.assert_array_equal(entropy(counts, size=counts.sum(axis=0)), entropy(counts))
    np.testing.assert_allclose(entropy(counts), [np.log2(4) - 0.75 * np.log2(3), 0, 1])
