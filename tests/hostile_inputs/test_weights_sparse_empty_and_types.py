"""Hostile inputs in depth, on the core estimators (the table of ``test_table.py`` checks
predictions; these check the model itself):

* the scale of the instance weights: only their ratios matter, weights ``c·w`` give the
  tree of ``w`` for any ``c > 0``; weights whose sum overflows, or whose ratio is beyond
  double precision, are a clear ValueError;
* sparse input: densified up to ``validation.MAX_DENSE_BYTES``, refused above it with the
  dense size; prediction densifies blocks of rows;
* prediction on no rows is an empty result (the Hedge ensemble too);
* every parameter's type is checked: a yes/no parameter takes a bool only, a count an
  integer (not a bool), a number a number (not a bool or a string).
"""
import math

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from threadpoolctl import threadpool_limits

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ODTSVMClassifier)
from orangecontrib.oblique.core import validation
from orangecontrib.oblique.core.parameters import declared_kinds

ESTIMATORS = {
    "GDT": lambda: GeometricTreeClassifier(),
    "OC1": lambda: OC1Classifier(n_restarts=5, random_state=0),
    "ODT-SVM": lambda: ODTSVMClassifier(random_state=0),
    "Hedge": lambda: HedgeEnsembleClassifier(n_estimators=3, random_state=0),
}
#: The kinds of value of every parameter, from the estimators' declarations.
PARAMETER_TYPES = declared_kinds(GeometricTreeClassifier, OC1Classifier, ODTSVMClassifier,
                                 HedgeEnsembleClassifier)


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread():
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def separable(n=200, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.uniform(-1, 1, (n, 3))
    return X, (X @ [1.0, -2.0, 1.5] > 0.1).astype(int)


def three_classes(seed=1):
    return make_classification(240, 5, n_informative=3, n_redundant=0, n_classes=3,
                               n_clusters_per_class=1, random_state=seed)


def overlapping(seed=2):
    return make_classification(200, 4, n_informative=2, n_redundant=0, flip_y=0.15,
                               random_state=seed)


DATASETS = {"separable": separable, "three classes": three_classes,
            "overlapping": overlapping}


def trees(estimator):
    """The fitted trees of an estimator (the members of an ensemble)."""
    return [m.tree_ for m in getattr(estimator, "estimators_", [estimator])]


def assert_same_model(a, b, X, counts_ratio):
    """``a`` and ``b`` are the same model: the same splits, children and predicted
    distributions, their class counts in the ratio ``counts_ratio`` (b / a)."""
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-9, atol=1e-12)
    if hasattr(a, "weights_"):
        np.testing.assert_allclose(a.weights_, b.weights_, rtol=1e-12)
    for tree_a, tree_b in zip(trees(a), trees(b), strict=True):
        assert tree_a.children == tree_b.children
        assert len(tree_a.splits) == len(tree_b.splits)
        for split_a, split_b in zip(tree_a.splits, tree_b.splits):
            assert (split_a is None) == (split_b is None)
            if split_a is not None:
                assert split_a.kind.name == split_b.kind.name
                np.testing.assert_allclose(split_a.weights, split_b.weights, rtol=1e-9)
                np.testing.assert_allclose(split_a.bias, split_b.bias, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(tree_a.proba, tree_b.proba, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(tree_a.value * counts_ratio, tree_b.value, rtol=1e-9)


# ----- the scale of the weights -----

SCALES = [1e-6, "1/n", 1.0, 1e3, 1e6]


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("dataset", list(DATASETS))
def test_equal_weights_of_any_size_are_no_weights(name, dataset):
    """Weights c (every row) give the unweighted model, for c from 1e-6 to 1e6 and 1/n:
    the same splits and predictions (before, ODT-SVM and the ensemble grew a single leaf
    on weights 1/n: MDL cost per row, C4.5's error counts and the SVM's C are sums of
    weights)."""
    X, y = DATASETS[dataset]()
    unweighted = ESTIMATORS[name]().fit(X, y)
    for scale in SCALES:
        scale = 1 / len(y) if scale == "1/n" else scale
        weighted = ESTIMATORS[name]().fit(X, y, sample_weight=np.full(len(y), scale))
        assert_same_model(unweighted, weighted, X, scale)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_scaling_uneven_weights_changes_nothing(name):
    """Uneven weights (1, 2 or 3, some 0) times any positive constant: the same model."""
    X, y = three_classes()
    weights = np.random.default_rng(0).integers(0, 4, len(y)).astype(float)
    reference = ESTIMATORS[name]().fit(X, y, sample_weight=weights)
    for scale in SCALES:
        scale = 1 / len(y) if scale == "1/n" else scale
        scaled = ESTIMATORS[name]().fit(X, y, sample_weight=weights * scale)
        assert_same_model(reference, scaled, X, scale)


@pytest.mark.parametrize("name", ["GDT", "OC1", "ODT-SVM"])
def test_class_counts_are_in_the_given_weights(name):
    """The tree's counts are sums of the weights given (not of the rescaled ones)."""
    X, y = three_classes()
    weights = np.random.default_rng(1).uniform(0.1, 5, len(y)) * 1e-4
    tree = ESTIMATORS[name]().fit(X, y, sample_weight=weights).tree_
    np.testing.assert_allclose(tree.value[0], np.bincount(y, weights), rtol=1e-12)
    integer = np.random.default_rng(2).integers(1, 4, len(y))
    tree = ESTIMATORS[name]().fit(X, y, sample_weight=integer).tree_
    np.testing.assert_array_equal(tree.value[0], np.bincount(y, integer))


def test_normalised_weights_sum_to_the_rows_of_positive_weight():
    weights = np.array([0.0, 2e-7, 1e-7, 1e-7, 0.0])
    rescaled, unit = validation.normalised_sample_weight(weights)
    np.testing.assert_allclose(rescaled, [0, 1.5, 0.75, 0.75, 0])
    np.testing.assert_allclose(rescaled * unit, weights, rtol=1e-15)
    ones, unit = validation.normalised_sample_weight(np.full(7, 0.1))
    np.testing.assert_array_equal(ones, np.ones(7))    # exactly: equal weights are 1


# ----- weights near the float limit -----

@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("weights", [
    lambda n: np.full(n, 1e308),                        # the sum overflows
    lambda n: np.r_[np.full(n - 2, 1.0), 1.7e308, 1.7e308],
], ids=["all 1e308", "two of 1.7e308"])
def test_weights_whose_sum_overflows_are_refused(name, weights):
    X, y = separable(60)
    with pytest.raises(ValueError, match="sample_weight sums to more than the largest "
                                         "float.*divide them by a constant"):
        ESTIMATORS[name]().fit(X, y, sample_weight=weights(len(y)))


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_huge_weights_with_a_finite_sum_fit_as_unweighted(name):
    """Weights 1e300 (sum 6e301: representable) give the unweighted model."""
    X, y = separable(60)
    unweighted = ESTIMATORS[name]().fit(X, y)
    huge = ESTIMATORS[name]().fit(X, y, sample_weight=np.full(len(y), 1e300))
    assert_same_model(unweighted, huge, X, 1e300)


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("light, heavy", [(1.0, 1e17), (1.0, 1e300), (5e-324, 1.0),
                                          (1e-300, 1e-280)])
def test_weights_spread_beyond_double_precision_are_refused(name, light, heavy):
    """A heavy row among light ones, their ratio above 1/ε (4.5e15): refused (before,
    GDT failed in its eigensolver and OC1 in pruning, from ratios of 1e20 and 1e17)."""
    X, y = separable(60)
    weights = np.full(len(y), light)
    weights[[3, 5]] = heavy
    with pytest.raises(ValueError, match="sample_weight spans a ratio of .* between its "
                                         "largest and its smallest positive weight"):
        ESTIMATORS[name]().fit(X, y, sample_weight=weights)


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(
        strict=True, reason="known regression of the single OC1 line search: with two rows "
        "of weight 1e15, cost-complexity pruning now keeps only the root (3 nodes at "
        "9240fc7); open in the issue"))
    if name == "OC1" else name for name in ESTIMATORS])
def test_weights_spread_within_double_precision_fit(name):
    """A ratio of 1e15 (within 1/ε) between the heaviest and lightest row: a model with
    finite probabilities that sum to 1; the heavy rows are predicted right."""
    X, y = separable(60)
    weights = np.ones(len(y))
    weights[[3, 5]] = 1e15
    model = ESTIMATORS[name]().fit(X, y, sample_weight=weights)
    proba = model.predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    np.testing.assert_array_equal(model.predict(X[[3, 5]]), y[[3, 5]])


# ----- sparse input -----

def text_like(n_rows=2000, n_columns=20000, n_values=80000):
    """A sparse matrix like a bag of words: 0.002 of its cells are counts."""
    rng = np.random.default_rng(0)
    X = sp.csr_matrix((rng.integers(1, 5, n_values).astype(float),
                       (rng.integers(0, n_rows, n_values),
                        rng.integers(0, n_columns, n_values))), shape=(n_rows, n_columns))
    return X, np.arange(n_rows) % 2


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("form", [sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.csr_array])
def test_small_sparse_input_is_fitted_as_dense(name, form):
    X, y = separable(120)
    X[np.abs(X) < 0.4] = 0
    dense = ESTIMATORS[name]().fit(X, y)
    sparse = ESTIMATORS[name]().fit(form(X), y)
    assert_same_model(dense, sparse, X, 1.0)
    np.testing.assert_array_equal(sparse.predict(form(X)), dense.predict(X))


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_sparse_input_too_large_to_densify_is_refused(name):
    """A 2,000 × 20,000 text-like matrix (0.6 MB stored) would be 320 MB dense: refused at
    once, with the dense size, before any work."""
    X, y = text_like()
    with pytest.raises(ValueError, match=r"this sparse input would take 320 MB as a dense "
                                         r"array \(2,000 rows × 20,000 columns\); the "
                                         r"oblique trees need dense data .* 100 MB"):
        ESTIMATORS[name]().fit(X, y)


def test_the_limit_is_one_constant(monkeypatch):
    X, y = separable(100)
    monkeypatch.setattr(validation, "MAX_DENSE_BYTES", 8 * 100 * 3 - 1)
    for make in ESTIMATORS.values():
        with pytest.raises(ValueError, match="2,400 bytes|0.0024 MB"):
            make().fit(sp.csr_matrix(X), y)
        make().fit(X, y)                                # dense data of any size are taken
    monkeypatch.setattr(validation, "MAX_DENSE_BYTES", 8 * 100 * 3)
    ESTIMATORS["GDT"]().fit(sp.csr_matrix(X), y)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_prediction_densifies_blocks_of_sparse_rows(name, monkeypatch):
    X, y = separable(150)
    model = ESTIMATORS[name]().fit(X, y)
    monkeypatch.setattr(validation, "PREDICTION_BLOCK_BYTES", 8 * 3 * 7)   # 7 rows a block
    sparse = sp.csr_matrix(X)
    np.testing.assert_array_equal(model.predict_proba(sparse), model.predict_proba(X))
    np.testing.assert_array_equal(model.predict(sparse), model.predict(X))
    if hasattr(model, "apply"):
        np.testing.assert_array_equal(model.apply(sparse), model.apply(X))
        assert (model.decision_path(sparse) != model.decision_path(X)).nnz == 0


# ----- no rows to predict -----

@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_no_rows_give_empty_predictions(name):
    X, y = three_classes()
    model = ESTIMATORS[name]().fit(X, y)
    for empty in (np.empty((0, X.shape[1])), sp.csr_matrix((0, X.shape[1]))):
        assert model.predict(empty).shape == (0,)
        assert model.predict_proba(empty).shape == (0, 3)
        if hasattr(model, "apply"):
            assert model.apply(empty).shape == (0,)
            assert model.decision_path(empty).shape == (0, model.tree_.node_count)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.empty((0, X.shape[1] + 1)))


# ----- parameter types -----

#: Values of the wrong type for each kind of parameter (validation._KINDS).
WRONG = {
    "bool": ["False", "off", "", 0, 1, 1.0, np.int64(1)],
    "int": [True, False, np.True_, 2.0, "3", np.float64(2.0)],
    "float": [True, np.False_, "0.5", "nan", math.nan, [0.5]],
    "str": [1, ["gini"], b"gini", True],
    "auto": [],
    "random_state": [True, "0", 1.5],
    "indices": ["a", True, 3, {0: 1}],
    "estimator": ["odt", 3, ODTSVMClassifier],
}
#: Values of the right type from numpy, which must be accepted.
NUMPY_VALUES = {"bool": np.False_, "int": np.int64(3), "float": np.float32(0.25)}


def wrong_values(name):
    kinds = PARAMETER_TYPES[name]
    values = [value for kind in kinds if kind != "none" for value in WRONG[kind]]
    return values + ([] if "none" in kinds else [None])


def parameter_cases():
    for family, make in ESTIMATORS.items():
        for name in make().get_params(deep=False):
            for value in wrong_values(name):
                yield pytest.param(family, name, value, id=f"{family}-{name}={value!r}")


def test_every_parameter_has_a_type():
    for family, make in ESTIMATORS.items():
        missing = set(make().get_params(deep=False)) - set(PARAMETER_TYPES)
        assert not missing, f"{family}: {missing}"


@pytest.mark.parametrize("family, name, value", list(parameter_cases()))
def test_wrong_parameter_type_is_refused(family, name, value):
    X, y = separable(30)
    estimator = ESTIMATORS[family]().set_params(**{name: value})
    with pytest.raises(ValueError, match=rf"^{name} must be .*, got "):
        estimator.fit(X, y)


@pytest.mark.parametrize("family", list(ESTIMATORS))
def test_numpy_values_of_the_right_type_are_accepted(family):
    """np.bool_ for a yes/no parameter, np.int64 for a count, np.float32 for a number."""
    X, y = separable(40)
    estimator = ESTIMATORS[family]()
    params = {name: type(NUMPY_VALUES[PARAMETER_TYPES[name][0]])(value)
              for name, value in estimator.get_params(deep=False).items()
              if value is not None and PARAMETER_TYPES[name][0] in NUMPY_VALUES}
    assert params
    estimator.set_params(**params).fit(X, y)


def test_wrong_types_are_named_with_the_value_given():
    X, y = separable(30)
    for estimator, message in [
            (GeometricTreeClassifier(standardize="False"),
             r"standardize must be True or False, got 'False' \(of type str\)"),
            (ODTSVMClassifier(mdl_penalty="off"), "mdl_penalty must be True or False"),
            (OC1Classifier(max_depth=True), "max_depth must be an integer or None, got True"),
            (ODTSVMClassifier(C=True), "C must be a number, got True"),
            (HedgeEnsembleClassifier(replace_members=1), "replace_members must be True or "
                                                         "False, got 1")]:
        with pytest.raises(ValueError, match=message):
            estimator.fit(X, y)
