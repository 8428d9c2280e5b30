"""A small fit's fixed costs: class labels and training data checked at once
where they are plainly classes and plain arrays, parameter names read once per class.
All give what scikit-learn's own code gives."""
import contextlib
import inspect
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils import check_X_y
from sklearn.utils.multiclass import check_classification_targets

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ObliqueForestClassifier,
                                        ODTSVMClassifier, SparseProjectionTreeClassifier)
from orangecontrib.oblique.core.validation import check_classification_labels

ESTIMATORS = (GeometricTreeClassifier, OC1Classifier, ODTSVMClassifier,
              HedgeEnsembleClassifier, ObliqueForestClassifier,
              SparseProjectionTreeClassifier)


def labels():
    rng = np.random.default_rng(0)
    yield rng.integers(0, 3, 20)
    yield rng.integers(-5, 5, 20).astype(np.int8)
    yield rng.integers(0, 2, 20).astype(bool)
    yield rng.integers(0, 4, 20).astype(np.uint16)
    yield rng.integers(0, 3, 20).astype(float)
    yield np.array([0.0, -0.0, 1.0])
    yield np.array([2.0 ** 52, 1.0])
    yield np.array([2.0 ** 53 + 2, 1.0])
    yield np.array([1e300, 0.0])
    yield np.array([0.5, 1.0, 1.0])
    yield rng.normal(size=20)
    yield np.array([1.0])
    yield np.array(["a", "b", "a"])
    yield np.array(["a", "b", "a"], dtype=object)
    yield np.array([1, "b"], dtype=object)
    yield np.array([0.0, 1.0], dtype=np.float32)
    yield np.array([0.25, 1.0], dtype=np.float32)


def outcome(check, y):
    try:
        with np.errstate(invalid="ignore"):
            check(y)
    except ValueError as error:
        return str(error)
    return None


@pytest.mark.parametrize("index", range(len(list(labels()))))
def test_labels_checked_as_scikit_learn_checks_them(index):
    y = list(labels())[index]
    assert outcome(check_classification_labels, y) == outcome(check_classification_targets, y)


def test_continuous_labels_still_refused_by_a_fit():
    X = np.random.default_rng(1).normal(size=(20, 2))
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        GeometricTreeClassifier().fit(X, X[:, 0])


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_parameter_names_are_the_constructors(estimator):
    """``get_params`` and ``clone`` name exactly the constructor's parameters."""
    expected = sorted(name for name in inspect.signature(estimator.__init__).parameters
                      if name != "self")
    model = estimator()
    assert sorted(model.get_params(deep=False)) == expected
    assert clone(model).get_params(deep=False) == model.get_params(deep=False)


# ----- the training data: validate_training_data -----

def training_data():
    """(X, y, whether the data plainly passes): the fast path's inputs and others."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 4))
    y = rng.integers(0, 3, 30)
    yield X, y, True
    yield np.asfortranarray(X), y.astype(np.uint8), True
    yield X[::2], (y[::2] > 0), True                       # strided rows, bool labels
    yield X[:, ::2], y.astype(np.int8), True               # strided columns
    read_only = X.copy()
    read_only.flags.writeable = False
    yield read_only, y, True
    yield X[:1], y[:1], True                               # one row
    yield X[:, :1], y, True                                # one column
    yield X.astype(np.float32), y, False                   # converted to float64
    yield X.tolist(), y, False
    yield X, y.tolist(), False
    yield X, y.astype(float), False
    yield X, np.array(["a", "b", "c"] * 10), False
    yield X, y[:, None], False                             # a column vector (warns)
    big = X.copy()
    big[:, 0] = 1e308                                      # finite, sum overflows
    yield big, y, False


def errors():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(10, 3)), rng.integers(0, 2, 10)
    with_nan, with_inf = X.copy(), X.copy()
    with_nan[3, 1], with_inf[0, 0] = np.nan, np.inf
    yield with_nan, y
    yield with_inf, y
    yield X[:0], y[:0]                                     # no rows
    yield X[:, :0], y                                      # no columns
    yield X[0], y                                          # 1-d X
    yield X, y[:-1]                                        # lengths differ
    yield X + 1j, y                                        # complex


def scikit_learns_check(estimator, X, y):
    """scikit-learn's own check of a fit's data: its ``validate_data`` (public from 1.6),
    else ``check_X_y`` with ``n_features_in_`` set."""
    try:
        from sklearn.utils.validation import validate_data
    except ImportError:
        X, y = check_X_y(X, y, dtype=np.float64, ensure_min_samples=1, estimator=estimator)
        estimator.n_features_in_ = X.shape[1]
        return X, y
    return validate_data(estimator, X, y, dtype=np.float64, ensure_min_samples=1)


@pytest.mark.parametrize("index", range(len(list(training_data()))))
def test_training_data_checked_as_scikit_learn_checks_it(index, monkeypatch):
    from orangecontrib.oblique.core import validation
    X, y, plain = list(training_data())[index]
    reference = GeometricTreeClassifier()
    with pytest.warns() if np.ndim(y) == 2 else contextlib.nullcontext():
        expected = scikit_learns_check(reference, X, y)
    calls = []
    monkeypatch.setattr(validation, "check_X_y",
                        lambda *args, **kwargs: calls.append(1) or check_X_y(*args, **kwargs))
    ours = GeometricTreeClassifier()
    with pytest.warns() if np.ndim(y) == 2 else contextlib.nullcontext():
        result = validation.validate_training_data(ours, X, y)
    assert (not calls) == plain
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)   # no overflow warning of ours
        validation.validate_training_data(GeometricTreeClassifier(), X, np.ravel(y))
    for a, b in zip(result, expected):
        assert a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
        np.testing.assert_array_equal(a, b)
    assert ours.n_features_in_ == reference.n_features_in_
    assert not hasattr(ours, "feature_names_in_")


@pytest.mark.parametrize("index", range(len(list(errors()))))
def test_bad_training_data_meets_scikit_learns_error(index):
    from orangecontrib.oblique.core.validation import validate_training_data
    X, y = list(errors())[index]
    with pytest.raises(ValueError) as expected:
        scikit_learns_check(GeometricTreeClassifier(), X, y)
    with pytest.raises(ValueError) as ours:
        validate_training_data(GeometricTreeClassifier(), X, y)
    assert str(ours.value) == str(expected.value)


def test_feature_names_forgotten_on_a_refit_without_them():
    pandas = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(40, 3)), rng.integers(0, 2, 40)
    for estimator in ESTIMATORS:
        model = estimator().fit(pandas.DataFrame(X, columns=["a", "b", "c"]), y)
        assert list(model.feature_names_in_) == ["a", "b", "c"]
        model.fit(X[:, :2], y)
        assert not hasattr(model, "feature_names_in_")
        assert model.n_features_in_ == 2
