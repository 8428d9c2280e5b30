"""A nominal code that no training row had (ODT-SVM's ``categorical_features``: larger,
negative, not whole, or a code of 0 .. V−1 absent from the training rows) is a missing
value in prediction: predict_proba, predict, apply and decision_path give it exactly what
they give NaN, at C4.5's multiway tests and at ``x = a`` tests alike, also in a forest of
ODT-SVM trees."""
import numpy as np
import pytest
from scipy import sparse

from orangecontrib.oblique.core.forest.classifier import ObliqueForestClassifier
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier
from orangecontrib.oblique.core.tree.splits import EQUALITY, NOMINAL

#: codes of the 0 .. 2 attribute that no training row has
UNSEEN = [3.0, 5.0, -1.0, 0.5, 2.5, 1e9]


def data(n=300, seed=0, missing=0.0, values=(0, 1, 2)):
    """x0, x1 numeric, x2 nominal of ``values``; the class is (x0 > 0) xor (x2 = 1),
    with 10 % of the labels flipped so that the nominal test is not at a pure leaf;
    ``missing`` of the values NaN."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.normal(size=n),
                         rng.choice(values, size=n).astype(float)])
    y = ((X[:, 0] > 0) ^ (X[:, 2] == 1) ^ (rng.random(n) < 0.1)).astype(int)
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


def fit(X, y, **params):
    return ODTSVMClassifier(random_state=0, categorical_features=[2], **params).fit(X, y)


def with_code(X, code):
    changed = X.copy()
    changed[:, 2] = code
    return changed


def nominal_splits(model, kind):
    return [split for split in model.tree_.splits if split is not None
            and split.kind.name == kind and list(split.features_used) == [2]]


@pytest.mark.parametrize("params, kind", [(dict(), NOMINAL),
                                          (dict(nominal_tests="binary"), EQUALITY)])
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_an_unseen_code_is_predicted_exactly_as_a_missing_value(params, kind, missing):
    X, y = data(missing=missing)
    model = fit(X, y, **params)
    assert nominal_splits(model, kind), "the tree must test the nominal attribute"
    rows = data(60, seed=1)[0]
    as_missing = with_code(rows, np.nan)
    expected = model.predict_proba(as_missing)
    # the test is not empty: a missing value is predicted unlike the seen values
    assert not np.array_equal(expected, model.predict_proba(with_code(rows, 1.0)))
    for code in UNSEEN:
        unseen = with_code(rows, code)
        np.testing.assert_array_equal(model.predict_proba(unseen), expected, err_msg=code)
        np.testing.assert_array_equal(model.predict(unseen), model.predict(as_missing))
        np.testing.assert_array_equal(model.apply(unseen), model.apply(as_missing))
        assert (model.decision_path(unseen) != model.decision_path(as_missing)).nnz == 0


def test_unseen_codes_mixed_with_seen_ones_row_by_row():
    """Only the unseen codes change: in a batch of seen and unseen codes every row gets
    what it gets alone; the caller's array is left as it was."""
    X, y = data()
    model = fit(X, y)
    rows = data(60, seed=1)[0]
    rows[::3, 2] = 7
    given = rows.copy()
    proba = model.predict_proba(rows)
    np.testing.assert_array_equal(rows, given)
    expected = rows.copy()
    expected[::3, 2] = np.nan
    np.testing.assert_array_equal(proba, model.predict_proba(expected))
    seen = np.ones(len(rows), dtype=bool)
    seen[::3] = False
    np.testing.assert_array_equal(proba[seen], model.tree_.predict_proba(rows[seen]))


def test_a_code_within_the_range_absent_from_the_training_rows_is_missing():
    """Codes 0 and 2 only in training: 1 is as unknown as 3 (its empty branch of the
    multiway test is no knowledge)."""
    X, y = data(values=(0, 2))
    y = ((X[:, 0] > 0) ^ (X[:, 2] == 2)).astype(int)
    model = fit(X, y)
    assert nominal_splits(model, NOMINAL)
    rows = data(40, seed=1)[0]
    np.testing.assert_array_equal(model.predict_proba(with_code(rows, 1.0)),
                                  model.predict_proba(with_code(rows, np.nan)))
    np.testing.assert_array_equal(model.seen_codes_[2], [0, 2])


def test_sparse_rows_are_treated_as_dense_ones():
    """A sparse matrix's unstored zeros are code 0; where 0 is not a training code they
    are missing values too."""
    X, y = data(values=(1, 2, 3))
    y = ((X[:, 0] > 0) ^ (X[:, 2] == 2)).astype(int)
    model = fit(X, y)
    rows = data(40, seed=1)[0]
    rows[::2, 2] = 0          # not a training code: missing
    rows[1::4, 2] = 9         # nor this one
    np.testing.assert_array_equal(model.predict_proba(sparse.csr_matrix(rows)),
                                  model.predict_proba(rows))
    np.testing.assert_array_equal(model.predict_proba(rows[::2]),
                                  model.predict_proba(with_code(rows[::2], np.nan)))


def test_without_nominal_attributes_nothing_is_replaced():
    X, y = data()
    model = ODTSVMClassifier(random_state=0).fit(X, y)
    assert model.seen_codes_ == {}
    rows = with_code(data(20, seed=1)[0], 7.0)
    assert model.unseen_codes_as_missing(rows) is rows


def test_a_forest_of_odt_svm_trees_predicts_unseen_codes_as_missing_values():
    """The forest takes no NaN, but its ODT-SVM trees (each on its own attributes) give
    an unseen code exactly what they give a missing value."""
    X, y = data()
    forest = ObliqueForestClassifier(
        estimator=ODTSVMClassifier(random_state=0, categorical_features=[2]),
        n_estimators=4, max_features=2, random_state=0).fit(X, y)
    rows = data(40, seed=1)[0]
    as_missing = with_code(rows, np.nan)
    expected = np.mean([tree.tree_.predict_proba(as_missing)
                        for tree in forest.estimators_], axis=0)
    assert any(nominal_splits(tree, NOMINAL) for tree in forest.estimators_)
    for code in (3.0, -1.0, 0.5):
        unseen = with_code(rows, code)
        np.testing.assert_allclose(forest.predict_proba(unseen), expected, rtol=0,
                                   atol=1e-15)
        np.testing.assert_array_equal(
            forest.apply(unseen),
            np.column_stack([tree.tree_.apply(as_missing) for tree in forest.estimators_]))
