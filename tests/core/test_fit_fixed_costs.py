"""A small fit's fixed costs (issue 16): class labels checked at once where they are
plainly classes, parameter names read once per class.  Both give what scikit-learn's own
code gives."""
import inspect

import numpy as np
import pytest
import sklearn.base
from sklearn.base import BaseEstimator, clone
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
def test_parameter_names_read_once_per_class(monkeypatch, estimator):
    """The names are scikit-learn's; after the first call no signature is read again (a
    ``get_params``, a ``clone`` and its constructor work with ``inspect.signature``
    broken)."""
    expected = BaseEstimator._get_param_names.__func__(estimator)
    assert estimator._get_param_names() == expected
    model = estimator()
    params = model.get_params()

    def broken(*args, **kwargs):
        raise AssertionError("signature read again")

    monkeypatch.setattr(sklearn.base.inspect, "signature", broken)
    assert inspect.signature is broken
    assert model.get_params() == params
    assert clone(model).get_params(deep=False) == model.get_params(deep=False)
