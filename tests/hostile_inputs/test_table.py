"""Hostile inputs: what every core estimator and every Orange learner does with them.

Each case is a small data set and an *expected outcome*, written down here and in
``doc/robustness.md`` (whose table is printed by ``benchmarks/hostile_inputs.py`` from the
cases below):

* :class:`Model` -- a model whose probabilities are finite, have one column per class and
  sum to 1 on every row, with the accuracy (or the probabilities) given;
* :class:`Raises` -- a ``ValueError`` whose message names the problem;
* :class:`LikeUnscaled` -- a model as accurate on held-out rows as the one fitted on the
  same data before rescaling;
* :class:`SameAs` -- a model that predicts every held-out row as the one fitted on
  equivalent data (the same weights unscaled, the dense array of a sparse one);
* :class:`EmptyPrediction` -- a model that predicts no rows as an empty result;
* a :class:`Model` with ``warns`` -- the model, and a warning saying what was left out.

Where an estimator behaves differently from the others on a case (e.g. OC1 holds out rows
for pruning), the case says so per estimator, with the reason in ``doc/robustness.md``.
A case may give the estimator or learner parameters per algorithm (``params``).
"""
import re
from dataclasses import dataclass
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from Orange.data import (ContinuousVariable, DiscreteVariable, Domain, StringVariable,
                         Table)

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner, OC1Learner,
                                   ODTSVMLearner)
from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ODTSVMClassifier,
                                        ObliqueForestClassifier)
from orangecontrib.oblique.learners import InputDataWarning, ObliqueForestLearner


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread():
    """The cases are small: one BLAS thread is faster than threads competing for cores."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


# ----- the estimators and learners under test -----

CORE_ESTIMATORS = {
    "GeometricTreeClassifier": lambda **params: GeometricTreeClassifier(**params),
    "OC1Classifier": lambda **params: OC1Classifier(**{"random_state": 0, **params}),
    "ODTSVMClassifier": lambda **params: ODTSVMClassifier(**{"random_state": 0, **params}),
    "HedgeEnsembleClassifier": lambda **params: HedgeEnsembleClassifier(
        **{"n_estimators": 3, "random_state": 0, **params}),
    "ObliqueForestClassifier": lambda **params: ObliqueForestClassifier(
        **{"n_estimators": 10, "random_state": 0, **params}),
}

ORANGE_LEARNERS = {
    "GeometricTreeLearner": lambda **params: GeometricTreeLearner(**params),
    "OC1Learner": lambda **params: OC1Learner(**{"random_state": 0, **params}),
    "ODTSVMLearner": lambda **params: ODTSVMLearner(**{"random_state": 0, **params}),
    "HedgeEnsembleLearner": lambda **params: HedgeEnsembleLearner(
        **{"n_estimators": 3, **params}),
    "ObliqueForestLearner": lambda **params: ObliqueForestLearner(
        **{"n_estimators": 10, **params}),
}

GDT, OC1, ODT, HEDGE, FOREST = ("GeometricTree", "OC1", "ODTSVM", "HedgeEnsemble",
                                "ObliqueForest")


def family(name):
    """The algorithm behind an estimator or learner name (for per-algorithm outcomes)."""
    return next(f for f in (GDT, OC1, ODT, HEDGE, FOREST) if name.startswith(f))


# ----- expected outcomes -----

@dataclass
class Model:
    """A model: finite probabilities, one column per class, rows summing to 1.

    accuracy : float, optional
        Exact accuracy on the evaluation rows.
    min_accuracy : float, optional
        Lowest accepted accuracy on the evaluation rows.
    proba : array-like, optional
        The probabilities every evaluation row must get (e.g. a lone leaf).
    minority_recall : float, optional
        Exact share of the rows of class 1 predicted as class 1.
    warns : (category, regex), optional
        A warning that must be raised while fitting.
    """

    accuracy: float = None
    min_accuracy: float = None
    proba: object = None
    minority_recall: float = None
    warns: tuple = None

    def describe(self):
        parts = []
        if self.warns is not None:
            parts.append(f"{self.warns[0].__name__} \"{_plain(self.warns[1])}\"")
        if self.accuracy is not None:
            parts.append(f"model, accuracy {self.accuracy:g}")
        elif self.min_accuracy is not None:
            parts.append(f"model, accuracy ≥ {self.min_accuracy:g}")
        else:
            parts.append("model")
        if self.proba is not None:
            parts.append("probabilities " + "/".join(f"{p:.3g}" for p in self.proba))
        if self.minority_recall is not None:
            parts.append(f"minority recall {self.minority_recall:g}")
        return ", ".join(parts)


class LikeUnscaled(Model):
    """A model as accurate on held-out rows as the one fitted on the unscaled data
    (within ``tolerance``), and at least ``min_accuracy``."""

    def __init__(self, tolerance=0.02, min_accuracy=0.9):
        super().__init__(min_accuracy=min_accuracy)
        self.tolerance = tolerance

    def describe(self):
        return (f"model, held-out accuracy within {self.tolerance:g} of the unscaled fit "
                f"(and ≥ {self.min_accuracy:g})")


class SameAs(Model):
    """A model that predicts every evaluation row as the model fitted on the case's
    ``reference`` data (e.g. the same rows without weights, or the dense array of a
    sparse matrix) does, and has at least ``min_accuracy``."""

    def __init__(self, reference, min_accuracy=0.9):
        super().__init__(min_accuracy=min_accuracy)
        self.reference = reference

    def describe(self):
        return (f"model, the same predictions as the fit on {self.reference} "
                f"(and accuracy ≥ {self.min_accuracy:g})")


class EmptyPrediction(Model):
    """A model that, given no rows to predict, returns no predictions and probabilities
    of shape (0, n_classes)."""

    def describe(self):
        return "model; no rows predicted: empty predictions and probabilities (0 × classes)"


class Raises:
    """A ValueError whose message matches ``match`` (a regex)."""

    def __init__(self, match):
        self.match = match

    def describe(self):
        return f"ValueError \"{_plain(self.match)}\""


def _plain(regex):
    """A regex of this module (only escaped brackets) as the text it matches."""
    return regex.replace("\\", "")


class Case:
    """A hostile input: ``make()`` returns a dict with the data and, optionally, held-out
    rows for the accuracy and extra estimator parameters.  ``expect`` is an outcome, or a
    dict from an algorithm (``family``) to its outcome with ``"*"`` for the others."""

    def __init__(self, name, description, make, expect):
        self.name = name
        self.description = description
        self.make = make
        self.expect = expect

    def expected(self, name):
        if isinstance(self.expect, dict):
            return self.expect.get(family(name), self.expect.get("*"))
        return self.expect


# ----- data -----

WEIGHTS = np.array([1.0, -2.0, 1.5])


def separable(n=200, d=3, seed=0, margin=0.05):
    """Linearly separable rows in [-1, 1]^d with a margin around ``w·x = 0.1``."""
    rng = np.random.RandomState(seed)
    X = rng.uniform(-1, 1, (4 * n, d))
    score = X @ WEIGHTS[:d] - 0.1
    keep = np.flatnonzero(np.abs(score) > margin)[:n]
    return X[keep], (score[keep] > 0).astype(int)


def _separable_with_test(transform=lambda X: X):
    X, y = separable()
    X_test, y_test = separable(500, seed=1)
    return dict(X=transform(X), y=y, X_eval=transform(X_test), y_eval=y_test,
                unscaled=dict(X=X, y=y, X_eval=X_test, y_eval=y_test))


def _two_rows():
    return dict(X=np.array([[0.0, 0.0], [1.0, 1.0]]), y=np.array([0, 1]))


def _more_features_than_rows():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(10, 50))
    return dict(X=X, y=(X[:, 0] + X[:, 1] > 0).astype(int))


def _degenerate_columns():
    data = _separable_with_test()
    def add_columns(X):
        return np.column_stack([X, np.full(len(X), 3.0), X[:, 0], 2 * X[:, 0] - 3 * X[:, 1]])
    return dict(data, X=add_columns(data["X"]), X_eval=add_columns(data["X_eval"]))


def _identical_rows():
    return dict(X=np.ones((10, 3)), y=np.arange(10) % 2)


def _with_value(value, column):
    X, y = separable()
    X = X.copy()
    X[3, column] = value
    X[7, 1] = -value if np.isinf(value) else value
    return dict(X=X, y=y)


def _nan_class():
    X, y = separable()
    return dict(X=X, y=np.where(np.arange(len(y)) == 3, np.nan, y.astype(float)))


def _imbalanced():
    rng = np.random.RandomState(1)
    X = rng.normal(size=(2002, 2))
    y = np.zeros(2002, dtype=int)
    y[:2] = 1
    X[:2] += 6
    return dict(X=X, y=y)


def _many_classes():
    """101 classes, two rows each, on one feature (classes 10 units apart)."""
    rng = np.random.RandomState(2)
    y = np.arange(202) % 101
    return dict(X=(y * 10 + rng.normal(size=202))[:, None], y=y)


def _nominal_many_values():
    """A nominal attribute with 101 values (codes) and a noise column; the class is 1 for
    ten of the values."""
    rng = np.random.RandomState(3)
    codes = np.repeat(np.arange(101), 2)
    positive = rng.choice(101, 10, replace=False)
    return dict(X=np.column_stack([codes, rng.normal(size=len(codes))]).astype(float),
                y=np.isin(codes, positive).astype(int), categorical=[0])


def _string_features():
    return dict(X=np.array([["a", "1.0"], ["b", "2.0"], ["c", "3.0"]], dtype=object),
                y=np.array([0, 1, 0]))


def _string_labels():
    data = _separable_with_test()
    names = np.array(["no", "yes"])
    return dict(data, y=names[data["y"]], y_eval=names[data["y_eval"]])


def _zero_weight_rows():
    """Clean separable rows plus 60 copies with flipped labels that have weight 0."""
    data = _separable_with_test()
    X, y = data["X"], data["y"]
    flipped = np.arange(0, len(y), 3)[:60]
    return dict(data, X=np.vstack([X, X[flipped]]), y=np.concatenate([y, 1 - y[flipped]]),
                sample_weight=np.concatenate([np.ones(len(y)), np.zeros(len(flipped))]))


def _weights(kind):
    X, y = separable(50)
    weights = np.zeros(len(y)) if kind == "zero" else np.where(np.arange(len(y)) == 4, -1, 1)
    return dict(X=X, y=y, sample_weight=weights.astype(float))


def _numeric_target():
    X, _ = separable()
    return dict(X=X, y=1.5 * X[:, 0] + 0.25)


def _scaled_weights(scale, uneven=False):
    """The separable set with every weight ``scale`` (``"1/n"``: one over the number of
    rows), or uneven weights 1-3 times ``scale``; the reference is the same rows with
    weights 1 (or the uneven weights unscaled)."""
    data = _separable_with_test()
    n = len(data["y"])
    weights = (np.random.default_rng(0).integers(1, 4, n).astype(float) if uneven
               else np.ones(n))
    scale = 1 / n if scale == "1/n" else scale
    reference = {key: data[key] for key in ("X", "y", "X_eval", "y_eval")}
    if uneven:
        reference["sample_weight"] = weights
    return dict(data, sample_weight=weights * scale, reference=reference)


def _spread_weights(heavy, count=2):
    """Weights 1, except ``count`` rows of weight ``heavy``."""
    X, y = separable(50)
    weights = np.ones(len(y))
    weights[:count] = heavy
    return dict(X=X, y=y, sample_weight=weights)


def _sparse():
    """The separable set with small values set to 0, as a CSR matrix; the reference is the
    dense array."""
    data = _separable_with_test()
    X = np.where(np.abs(data["X"]) < 0.3, 0.0, data["X"])
    return dict(data, X=sp.csr_matrix(X), X_eval=sp.csr_matrix(data["X_eval"]),
                reference=dict(X=X, y=data["y"], X_eval=data["X_eval"],
                               y_eval=data["y_eval"]))


def _text_like(n_rows=2000, n_columns=20000, n_values=80000):
    """A 2,000 × 20,000 sparse matrix like a bag of words (0.002 of the cells are counts):
    0.6 MB stored, 320 MB dense."""
    rng = np.random.default_rng(0)
    X = sp.csr_matrix((rng.integers(1, 5, n_values).astype(float),
                       (rng.integers(0, n_rows, n_values),
                        rng.integers(0, n_columns, n_values))), shape=(n_rows, n_columns))
    return X, np.arange(n_rows) % 2


def _no_rows_to_predict():
    X, y = separable()
    return dict(X=X, y=y, X_eval=X[:0], y_eval=y[:0])


#: Parameters of the wrong type, per algorithm (OC1 has no yes/no parameter).
_STRING_FOR_YES_NO = {GDT: dict(standardize="False"), OC1: dict(max_depth="False"),
                      ODT: dict(mdl_penalty="off"), HEDGE: dict(replace_members="False"),
                      FOREST: dict(bootstrap="False")}
_BOOL_FOR_COUNT = {GDT: dict(max_depth=True), OC1: dict(max_depth=True),
                   ODT: dict(max_depth=True), HEDGE: dict(n_estimators=True),
                   FOREST: dict(n_estimators=True)}
_STRING_FOR_NUMBER = {GDT: dict(pruning_portion="0.1"), OC1: dict(pruning_portion="0.1"),
                      ODT: dict(C="1"), HEDGE: dict(beta="0.5"),
                      FOREST: dict(max_features="0.5")}


_STRING_FOR_YES_NO_RAISES = {
    GDT: Raises("standardize must be True or False, got 'False'"),
    OC1: Raises("max_depth must be an integer or None, got 'False'"),
    ODT: Raises("mdl_penalty must be True or False, got 'off'"),
    HEDGE: Raises("replace_members must be True or False, got 'False'"),
    FOREST: Raises("bootstrap must be True or False, got 'False'")}
_BOOL_FOR_COUNT_RAISES = {HEDGE: Raises("n_estimators must be an integer, got True"),
                          FOREST: Raises("n_estimators must be an integer, got True"),
                          "*": Raises("max_depth must be an integer or None, got True")}
_STRING_FOR_NUMBER_RAISES = {ODT: Raises("C must be a number, got '1'"),
                             HEDGE: Raises("beta must be a number, got '0.5'"),
                             FOREST: Raises(r"max_features must be 'sqrt', 'log2', None, an "
                                            r"integer of at least 1 or a number in \(0, 1\], "
                                            r"got '0.5'"),
                             "*": Raises("pruning_portion must be a number, got '0.1'")}


def _with_params(params):
    def make():
        X, y = separable(50)
        return dict(X=X, y=y, params=params)
    return make


CORE_CASES = [
    Case("empty", "no rows (0 × 3)",
         lambda: dict(X=np.empty((0, 3)), y=np.empty(0, dtype=int)),
         Raises(r"0 sample\(s\)")),
    Case("one row", "a single row",
         lambda: dict(X=np.array([[1.0, 2.0]]), y=np.array([7])),
         Model(accuracy=1, proba=[1])),
    Case("two rows, two classes", "two rows of different classes", _two_rows,
         {GDT: Model(accuracy=1),
          # too few rows to hold any out for pruning: OC1 tells the two apart
          OC1: Model(accuracy=1),
          # the trees whose sample holds both rows split them; the others predict theirs
          FOREST: Model(accuracy=1),
          "*": Model(accuracy=0.5, proba=[0.5, 0.5])}),
    Case("single class", "200 rows, all of one class",
         lambda: dict(X=separable()[0], y=np.full(200, 4)),
         Model(accuracy=1, proba=[1])),
    Case("more features than rows", "10 rows × 50 features", _more_features_than_rows,
         Model(min_accuracy=0.8)),
    Case("constant, duplicated, collinear columns",
         "separable set plus a constant column, a copy of x1 and 2·x1 − 3·x2",
         _degenerate_columns, Model(min_accuracy=0.93)),
    Case("identical rows, different labels", "10 equal rows, labels 0/1 alternating",
         _identical_rows, {HEDGE: Model(accuracy=0.5, proba=[5 / 9, 4 / 9]),
                           # the forest's bootstrap samples are stratified by class (as
                           # rerf's): every tree's leaf holds 5 rows of each class
                           # OC1 prunes no tree of 10 rows: a leaf of all 10
                           "*": Model(accuracy=0.5, proba=[0.5, 0.5])}),
    # ODT-SVM (and a Hedge of it) takes NaN as a missing value, as C4.5
    Case("NaN in features", "two NaN cells", lambda: _with_value(np.nan, 0),
         {ODT: Model(min_accuracy=0.95), HEDGE: Model(min_accuracy=0.95),
          "*": Raises("Input X contains NaN")}),
    Case("NaN in class", "one NaN label", _nan_class, Raises("Input y contains NaN")),
    Case("±inf in features", "+inf and −inf cells", lambda: _with_value(np.inf, 0),
         Raises("Input X contains infinity")),
    Case("scaled by 1e12", "separable set × 1e12",
         lambda: _separable_with_test(lambda X: X * 1e12), LikeUnscaled()),
    Case("scaled by 1e-12", "separable set × 1e-12",
         lambda: _separable_with_test(lambda X: X * 1e-12), LikeUnscaled()),
    Case("mixed scales", "columns × 1e-6, × 1e6, × 1",
         lambda: _separable_with_test(lambda X: X * np.array([1e-6, 1e6, 1.0])),
         LikeUnscaled()),
    Case("values around 1e12", "separable set + 1e12 (spread 1 around 1e12)",
         lambda: _separable_with_test(lambda X: X + 1e12), LikeUnscaled()),
    Case("imbalanced 1 : 1000", "2 rows of class 1, 2000 of class 0, separable",
         _imbalanced,
         {GDT: Model(min_accuracy=0.999), "*": Model(accuracy=1, minority_recall=1)}),
    Case("101 classes", "202 rows, 101 classes on one feature", _many_classes,
         Model(min_accuracy=0.8)),
    Case("nominal attribute, 101 values",
         "codes 0..100 (ODT-SVM: categorical_features=[0]) + a noise column",
         _nominal_many_values, Model(min_accuracy=0.9)),
    Case("string features", "an object array of strings", _string_features,
         Raises("could not convert string to float")),
    Case("string labels", "class labels 'no'/'yes'", _string_labels,
         Model(min_accuracy=0.93)),
    Case("sample_weight: zero-weight rows", "60 mislabelled copies with weight 0",
         _zero_weight_rows, Model(min_accuracy=0.93)),
    Case("sample_weight: all zero", "every weight 0", lambda: _weights("zero"),
         Raises("Sample weights must contain at least one non-zero number")),
    Case("sample_weight: negative", "one weight −1", lambda: _weights("negative"),
         Raises("Negative values in data passed to `sample_weight`")),
    Case("numeric target", "a continuous y (regression)", _numeric_target,
         Raises("Unknown label type: continuous")),
    Case("no features", "10 rows × 0 features",
         lambda: dict(X=np.empty((10, 0)), y=np.arange(10) % 2),
         Raises(r"0 feature\(s\)")),
    Case("weights × 1e-6", "the separable set, every weight 1e-6",
         lambda: _scaled_weights(1e-6), SameAs("weights 1")),
    Case("weights 1/n", "the separable set, every weight 1/200",
         lambda: _scaled_weights("1/n"), SameAs("weights 1")),
    Case("weights × 1e6", "the separable set, every weight 1e6",
         lambda: _scaled_weights(1e6), SameAs("weights 1")),
    Case("uneven weights × 1e-6", "weights 1, 2 or 3, times 1e-6",
         lambda: _scaled_weights(1e-6, uneven=True), SameAs("the weights unscaled")),
    Case("weights 1e300", "every weight 1e300 (their sum 2e302 is a float)",
         lambda: _scaled_weights(1e300), SameAs("weights 1")),
    Case("weights summing past the float limit", "every weight 1e308",
         lambda: dict(_weights("zero"), sample_weight=np.full(50, 1e308)),
         Raises("sample_weight sums to more than the largest float")),
    Case("weights spread beyond double precision", "weights 1 and two of 1e20",
         lambda: _spread_weights(1e20),
         Raises("sample_weight spans a ratio of 1e\\+20 between its largest and")),
    Case("sparse matrix", "the separable set as a CSR matrix (values below 0.3 are 0)",
         _sparse, SameAs("the dense array")),
    Case("sparse matrix too large to densify",
         "2,000 × 20,000 CSR matrix, 0.2 % non-zero (0.6 MB; 320 MB dense)",
         lambda: dict(zip(("X", "y"), _text_like())),
         Raises(r"this sparse input would take 320 MB as a dense array \(2,000 rows × "
                r"20,000 columns\)")),
    Case("no rows to predict", "a model of the separable set given 0 rows",
         _no_rows_to_predict, EmptyPrediction()),
    Case("a string for a yes/no parameter",
         "standardize='False' (GDT), mdl_penalty='off' (ODT-SVM), "
         "replace_members='False' (Hedge), bootstrap='False' (Forest); "
         "OC1: max_depth='False'",
         _with_params(_STRING_FOR_YES_NO), _STRING_FOR_YES_NO_RAISES),
    Case("a bool for a count", "max_depth=True (Hedge, Forest: n_estimators=True)",
         _with_params(_BOOL_FOR_COUNT), _BOOL_FOR_COUNT_RAISES),
    Case("a string for a number", "pruning_portion='0.1' (ODT-SVM: C='1', Hedge: beta='0.5', "
         "Forest: max_features='0.5')",
         _with_params(_STRING_FOR_NUMBER), _STRING_FOR_NUMBER_RAISES),
]


def core_estimator(name, data):
    estimator = CORE_ESTIMATORS[name](**data.get("params", {}).get(family(name), {}))
    categorical = data.get("categorical")
    if categorical is not None:
        if isinstance(estimator, ODTSVMClassifier):
            estimator.set_params(categorical_features=categorical)
        elif isinstance(estimator, HedgeEnsembleClassifier):
            estimator.set_params(estimator=ODTSVMClassifier(categorical_features=categorical))
    return estimator


def fit_core(name, data):
    estimator = core_estimator(name, data)
    kwargs = {}
    if "sample_weight" in data:
        kwargs["sample_weight"] = data["sample_weight"]
    return estimator.fit(data["X"], data["y"], **kwargs)


def core_accuracy(estimator, data):
    X, y = data.get("X_eval", data["X"]), data.get("y_eval", data["y"])
    return float(np.mean(estimator.predict(X) == y))


def check_core_model(name, case, expected):
    """Fit ``name`` on the case and assert ``expected``; return what was found: the
    accuracy (None without rows to predict), that of the reference fit (or None), the
    reference's name and the warnings."""
    data = case.make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimator = fit_core(name, data)
    if expected.warns is not None:
        assert any(issubclass(w.category, expected.warns[0])
                   and re.search(expected.warns[1], str(w.message)) for w in caught)
    X_eval = data.get("X_eval", data["X"])
    proba = estimator.predict_proba(X_eval)
    n_classes = len(np.unique(data["y"]))
    assert proba.shape == (X_eval.shape[0], n_classes)
    assert np.all(np.isfinite(proba)) and np.all(proba >= 0)
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    np.testing.assert_array_equal(estimator.classes_, np.unique(data["y"]))
    found = dict(accuracy=None, reference=None, reference_name="unscaled",
                 warnings=[str(w.message) for w in caught if expected.warns is not None
                           and issubclass(w.category, expected.warns[0])])
    if isinstance(expected, EmptyPrediction):
        assert X_eval.shape[0] == 0 and estimator.predict(X_eval).shape == (0,)
        return found
    accuracy = found["accuracy"] = core_accuracy(estimator, data)
    if expected.accuracy is not None:
        assert accuracy == pytest.approx(expected.accuracy)
    if expected.min_accuracy is not None:
        assert accuracy >= expected.min_accuracy
    if expected.proba is not None:
        np.testing.assert_allclose(proba, np.tile(expected.proba, (X_eval.shape[0], 1)))
    if expected.minority_recall is not None:
        minority = data["y"] == 1
        assert np.mean(estimator.predict(data["X"][minority]) == 1) == expected.minority_recall
    if isinstance(expected, LikeUnscaled):
        found["reference"] = core_accuracy(fit_core(name, data["unscaled"]), data["unscaled"])
        assert accuracy >= found["reference"] - expected.tolerance
    if isinstance(expected, SameAs):
        reference = fit_core(name, data["reference"])
        found["reference"] = core_accuracy(reference, data["reference"])
        found["reference_name"] = expected.reference
        np.testing.assert_array_equal(estimator.predict(X_eval),
                                      reference.predict(data["reference"]["X_eval"]))
    return found


@pytest.mark.parametrize("name", list(CORE_ESTIMATORS))
@pytest.mark.parametrize("case", CORE_CASES, ids=[c.name for c in CORE_CASES])
def test_core_estimator(case, name):
    expected = case.expected(name)
    if isinstance(expected, Raises):
        data = case.make()
        with pytest.raises(ValueError, match=expected.match):
            fit_core(name, data)
    else:
        check_core_model(name, case, expected)


@pytest.mark.parametrize("estimator", [OC1Classifier(pruning_portion=0, random_state=0),
                                       ODTSVMClassifier(min_samples_leaf=1, random_state=0)],
                         ids=["OC1 without pruning", "ODT-SVM min_samples_leaf=1"])
def test_two_rows_separated_without_the_size_rules(estimator):
    """OC1 and ODT-SVM leave two rows in one leaf only because of their defaults (OC1
    holds out a row for pruning, ODT-SVM wants two rows in a leaf)."""
    data = _two_rows()
    estimator.fit(data["X"], data["y"])
    np.testing.assert_array_equal(estimator.predict(data["X"]), data["y"])


def test_gdt_finds_the_minority_with_a_lower_epsilon1():
    data = _imbalanced()
    tree = GeometricTreeClassifier(epsilon1=1e-4).fit(data["X"], data["y"])
    np.testing.assert_array_equal(tree.predict(data["X"]), data["y"])


# ----- Orange tables -----

def _domain(n_features, n_classes=2, metas=()):
    return Domain([ContinuousVariable(f"x{i + 1}") for i in range(n_features)],
                  DiscreteVariable("y", values=[f"c{i}" for i in range(n_classes)]),
                  metas=metas)


def _table(X, y, n_classes=2, **kwargs):
    X = np.asarray(X, dtype=float)
    return Table.from_numpy(_domain(X.shape[1], n_classes), X, np.asarray(y, dtype=float),
                            **kwargs)


def _orange(core_make, n_classes=2):
    """An Orange table (and held-out table) from a core case's arrays."""
    def make():
        data = core_make()
        result = dict(data=_table(data["X"], data["y"], n_classes))
        if "X_eval" in data:
            result["eval"] = _table(data["X_eval"], data["y_eval"], n_classes)
            unscaled = data["unscaled"]
            result["unscaled"] = dict(data=_table(unscaled["X"], unscaled["y"]),
                                      eval=_table(unscaled["X_eval"], unscaled["y_eval"]))
        return result
    return make


def _orange_missing_features():
    X, y = separable()
    X_test, y_test = separable(500, seed=1)
    X = X.copy()
    X[np.arange(0, len(y), 10), 0] = np.nan
    X[np.arange(5, len(y), 10), 2] = np.nan
    X_test = X_test.copy()
    X_test[::7, 1] = np.nan
    return dict(data=_table(X, y), eval=_table(X_test, y_test))


def _orange_missing_column():
    X, y = separable()
    X = X.copy()
    X[:, 0] = np.nan
    y = (X[:, 1] < 0).astype(int)
    return dict(data=_table(X, y), removed="x1")


def _orange_missing_class(count):
    X, y = separable(100)
    y = y.astype(float)
    y[np.arange(count) * (len(y) // max(count, 1))] = np.nan
    return dict(data=_table(X, y))


def _orange_infinite_from_numpy():
    X, y = separable()
    X = X.copy()
    X[3, 0], X[7, 1] = np.inf, -np.inf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # Orange: "Array contains infinity."
        return dict(data=_table(X, y))


def _orange_infinite_edited():
    X, y = separable()
    data = _table(X, y)
    with data.unlocked(data.X):
        data.X[3, 0], data.X[7, 1] = np.inf, -np.inf
    return dict(data=data)


def _orange_single_value_class():
    X, _ = separable()
    return dict(data=_table(X, np.zeros(len(X)), n_classes=1))


def _orange_nominal_many_values():
    data = _nominal_many_values()
    domain = Domain([DiscreteVariable("a", values=[f"v{i}" for i in range(101)]),
                     ContinuousVariable("noise")],
                    DiscreteVariable("y", values=["c0", "c1"]))
    return dict(data=Table.from_numpy(domain, data["X"], data["y"]))


def _orange_string_and_metas():
    X, y = separable()
    domain = _domain(3, metas=[StringVariable("name"), ContinuousVariable("id")])
    metas = np.array([[f"row {i}", float(i)] for i in range(len(y))], dtype=object)
    return dict(data=Table.from_numpy(domain, X, y, metas=metas))


def _orange_weights():
    data = _zero_weight_rows()
    return dict(data=_table(data["X"], data["y"], W=data["sample_weight"]),
                eval=_table(data["X_eval"], data["y_eval"]))


def _orange_numeric_target():
    X, _ = separable()
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(3)],
                    ContinuousVariable("t"))
    return dict(data=Table.from_numpy(domain, X, 1.5 * X[:, 0]))


def _orange_no_class():
    X, _ = separable()
    return dict(data=Table.from_numpy(Domain([ContinuousVariable(f"x{i + 1}")
                                              for i in range(3)]), X))


def _orange_two_targets():
    X, y = separable()
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(3)],
                    [DiscreteVariable("y", values=["c0", "c1"]),
                     DiscreteVariable("z", values=["c0", "c1"])])
    return dict(data=Table.from_numpy(domain, X, np.column_stack([y, 1 - y])))


def _orange_scaled_weights(scale, uneven=False):
    """The separable table with instance weights ``scale`` (or uneven weights 1-3 times
    ``scale``); the reference is the table without weights (or with the uneven ones)."""
    data = _scaled_weights(scale, uneven)
    reference = data["reference"]
    return dict(data=_table(data["X"], data["y"], W=data["sample_weight"]),
                eval=_table(data["X_eval"], data["y_eval"]),
                reference=dict(data=_table(reference["X"], reference["y"],
                                           W=reference.get("sample_weight")),
                               eval=_table(reference["X_eval"], reference["y_eval"])))


def _orange_odd_names():
    """The separable set with line breaks, a tab and a line separator in its names."""
    X, y = separable()
    domain = Domain([ContinuousVariable(name) for name in ("x\n1", "x\t2", "x\u2028 3")],
                    DiscreteVariable("y\nclass", values=("no\r", "yes\n")))
    return dict(data=Table.from_numpy(domain, X, y))


def _orange_weights_of(make):
    """The table of a core case with weights (``make()``: X, y, sample_weight)."""
    data = make()
    return dict(data=_table(data["X"], data["y"], W=data["sample_weight"]))


def _orange_sparse():
    data = _sparse()
    reference = data["reference"]
    return dict(data=Table.from_numpy(_domain(3), data["X"], data["y"].astype(float)),
                eval=_table(reference["X_eval"], reference["y_eval"]),
                reference=dict(data=_table(reference["X"], reference["y"]),
                               eval=_table(reference["X_eval"], reference["y_eval"])))


def _orange_text_like():
    X, y = _text_like()
    domain = Domain([ContinuousVariable(f"w{i}") for i in range(X.shape[1])],
                    DiscreteVariable("y", values=["c0", "c1"]))
    return dict(data=Table.from_numpy(domain, X, y.astype(float)))


def _orange_no_rows_to_predict():
    data = _table(*separable())
    return dict(data=data, eval=data[:0])


def _orange_with_params(params):
    def make():
        return dict(data=_table(*separable(50)), params=params)
    return make


ORANGE_CASES = [
    Case("empty", "a table with 3 features and no rows",
         lambda: dict(data=_table(np.empty((0, 3)), np.empty(0))),
         Raises("Data has no rows")),
    Case("one row", "a single row", lambda: dict(data=_table([[1.0, 2.0]], [1])),
         Model(accuracy=1, proba=[0, 1])),
    Case("two rows, two classes", "two rows of different classes", _orange(_two_rows),
         {GDT: Model(accuracy=1), OC1: Model(accuracy=1), FOREST: Model(accuracy=1),
          "*": Model(accuracy=0.5, proba=[0.5, 0.5])}),
    Case("single class", "200 rows, all c0 (class variable c0/c1)",
         lambda: dict(data=_table(separable()[0], np.zeros(200))),
         Model(accuracy=1, proba=[1, 0])),
    Case("class variable with one value", "200 rows, class variable with values (c0,)",
         _orange_single_value_class, Model(accuracy=1, proba=[1])),
    Case("names with line breaks", "attributes 'x\\n1', 'x\\t2', 'x\\u2028 3', class "
         "'y\\nclass' with values 'no\\r' and 'yes\\n' (texts escape them)",
         _orange_odd_names, Model(min_accuracy=0.95)),
    Case("more features than rows", "10 rows × 50 features",
         _orange(_more_features_than_rows), Model(min_accuracy=0.8)),
    Case("constant, duplicated, collinear columns",
         "separable set plus a constant column, a copy of x1 and 2·x1 − 3·x2",
         _orange(_degenerate_columns), Model(min_accuracy=0.93)),
    Case("identical rows, different labels", "10 equal rows, labels 0/1 alternating",
         _orange(_identical_rows), {HEDGE: Model(accuracy=0.5, proba=[5 / 9, 4 / 9]),
                                    "*": Model(accuracy=0.5, proba=[0.5, 0.5])}),
    Case("NaN in features", "10 % missing in two columns (and in held-out rows)",
         _orange_missing_features, Model(min_accuracy=0.85)),
    Case("NaN column", "a column with every value missing (removed)",
         _orange_missing_column, Model(min_accuracy=0.95)),
    Case("NaN in class", "10 of 100 class values missing", lambda: _orange_missing_class(10),
         Model(min_accuracy=0.93, warns=(
             InputDataWarning, "10 of 100 rows have a missing class value and were left "
                               "out of the fit"))),
    Case("NaN in every class value", "all class values missing",
         lambda: _orange_missing_class(100), Raises("Every class value is missing")),
    Case("±inf in features (Table.from_numpy)",
         "+inf, −inf given to Table.from_numpy (Orange turns them into NaN)",
         _orange_infinite_from_numpy, Model(min_accuracy=0.95)),
    Case("±inf in features (edited table)", "+inf, −inf written into a table's X",
         _orange_infinite_edited, Model(min_accuracy=0.95, warns=(
             InputDataWarning, r"2 infinite feature values \(±inf\) treated as missing"))),
    Case("scaled by 1e12", "separable set × 1e12",
         _orange(lambda: _separable_with_test(lambda X: X * 1e12)), LikeUnscaled()),
    Case("scaled by 1e-12", "separable set × 1e-12",
         _orange(lambda: _separable_with_test(lambda X: X * 1e-12)), LikeUnscaled()),
    Case("mixed scales", "columns × 1e-6, × 1e6, × 1",
         _orange(lambda: _separable_with_test(lambda X: X * np.array([1e-6, 1e6, 1.0]))),
         LikeUnscaled()),
    Case("values around 1e12", "separable set + 1e12",
         _orange(lambda: _separable_with_test(lambda X: X + 1e12)), LikeUnscaled()),
    Case("imbalanced 1 : 1000", "2 rows of c1, 2000 of c0, separable",
         _orange(_imbalanced),
         {GDT: Model(min_accuracy=0.999), "*": Model(accuracy=1, minority_recall=1)}),
    Case("101 classes", "202 rows, class variable with 101 values",
         _orange(_many_classes, n_classes=101), Model(min_accuracy=0.8)),
    Case("nominal attribute, 101 values", "a DiscreteVariable with 101 values + noise",
         _orange_nominal_many_values, Model(min_accuracy=0.9)),
    Case("string and meta columns", "a StringVariable and a numeric meta",
         _orange_string_and_metas, Model(min_accuracy=0.93)),
    Case("instance weights", "60 mislabelled copies with weight W = 0",
         _orange_weights, Model(min_accuracy=0.93)),
    Case("numeric target", "a ContinuousVariable class (regression)",
         _orange_numeric_target,
         Raises("Categorical class variable expected: 't' is numeric")),
    Case("no target", "no class variable", _orange_no_class,
         Raises("Data has no target variable")),
    Case("two targets", "two class variables", _orange_two_targets,
         Raises("Too many target variables")),
    Case("no features", "10 rows, no attributes",
         lambda: dict(data=Table.from_numpy(_domain(0), np.empty((10, 0)),
                                            np.arange(10) % 2)),
         Raises("Data has no features")),
    Case("instance weights × 1e-6", "the separable set, every W = 1e-6",
         lambda: _orange_scaled_weights(1e-6), SameAs("the table without weights")),
    Case("instance weights 1/n", "the separable set, every W = 1/200",
         lambda: _orange_scaled_weights("1/n"), SameAs("the table without weights")),
    Case("uneven instance weights × 1e-6", "W = 1, 2 or 3, times 1e-6",
         lambda: _orange_scaled_weights(1e-6, uneven=True),
         SameAs("the weights unscaled")),
    Case("instance weights summing past the float limit", "every W = 1e308",
         lambda: _orange_weights_of(lambda: dict(_weights("zero"),
                                                 sample_weight=np.full(50, 1e308))),
         Raises("sample_weight sums to more than the largest float")),
    Case("instance weights spread beyond double precision", "W = 1 and two of 1e20",
         lambda: _orange_weights_of(lambda: _spread_weights(1e20)),
         Raises("sample_weight spans a ratio of 1e\\+20 between its largest and")),
    Case("sparse table", "the separable set with a sparse X (values below 0.3 are 0)",
         _orange_sparse, SameAs("the dense table")),
    Case("sparse table too large to densify",
         "2,000 rows × 20,000 attributes, sparse X, 0.2 % non-zero (320 MB dense)",
         _orange_text_like,
         Raises(r"this sparse table would take 320 MB as a dense array \(2,000 rows × "
                r"20,000 columns\)")),
    Case("no rows to predict", "a model of the separable set given a table of 0 rows",
         _orange_no_rows_to_predict, EmptyPrediction()),
    Case("a string for a yes/no parameter",
         "standardize='False' (GDT), mdl_penalty='off' (ODT-SVM), bootstrap='False' "
         "(Forest); OC1: max_depth='False'; Hedge: n_estimators='10'",
         _orange_with_params({**_STRING_FOR_YES_NO, HEDGE: dict(n_estimators="10")}),
         {**_STRING_FOR_YES_NO_RAISES,
          HEDGE: Raises("n_estimators must be an integer, got '10'")}),
    Case("a bool for a count", "max_depth=True (Hedge, Forest: n_estimators=True)",
         _orange_with_params(_BOOL_FOR_COUNT), _BOOL_FOR_COUNT_RAISES),
]


def orange_accuracy(model, table):
    known = ~np.isnan(table.Y)
    return float(np.mean(model(table)[known] == table.Y[known]))


def orange_learner(name, made):
    """Learner ``name`` with the parameters the case gives its algorithm."""
    return ORANGE_LEARNERS[name](**made.get("params", {}).get(family(name), {}))


def check_orange_model(name, case, expected):
    """Fit learner ``name`` on the case and assert ``expected``; return what was found: the
    accuracy (None without rows to predict), that of the reference fit (or None), the
    reference's name and the InputDataWarnings."""
    made = case.make()
    data = made["data"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = orange_learner(name, made)(data)
    if expected.warns is not None:
        messages = [str(w.message) for w in caught if issubclass(w.category, expected.warns[0])]
        assert any(re.search(expected.warns[1], m) for m in messages), messages
    else:
        assert not [w for w in caught if issubclass(w.category, InputDataWarning)]
    evaluation = made.get("eval", data)
    proba = model(evaluation, model.Probs)
    assert proba.shape == (len(evaluation), len(data.domain.class_var.values))
    assert np.all(np.isfinite(proba)) and np.all(proba >= 0)
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    found = dict(accuracy=None, reference=None, reference_name="unscaled",
                 warnings=[str(w.message) for w in caught
                           if issubclass(w.category, InputDataWarning)])
    if isinstance(expected, EmptyPrediction):
        assert len(evaluation) == 0 and model(evaluation).shape == (0,)
        return found
    accuracy = found["accuracy"] = orange_accuracy(model, evaluation)
    if expected.accuracy is not None:
        assert accuracy == pytest.approx(expected.accuracy)
    if expected.min_accuracy is not None:
        assert accuracy >= expected.min_accuracy
    if expected.proba is not None:
        np.testing.assert_allclose(proba, np.tile(expected.proba, (len(evaluation), 1)))
    if expected.minority_recall is not None:
        minority = data[data.Y == 1]
        assert np.mean(model(minority) == 1) == expected.minority_recall
    if isinstance(expected, LikeUnscaled):
        unscaled = made["unscaled"]
        found["reference"] = orange_accuracy(ORANGE_LEARNERS[name]()(unscaled["data"]),
                                             unscaled["eval"])
        assert accuracy >= found["reference"] - expected.tolerance
    if isinstance(expected, SameAs):
        reference = made["reference"]
        reference_model = ORANGE_LEARNERS[name]()(reference["data"])
        found["reference"] = orange_accuracy(reference_model, reference["eval"])
        found["reference_name"] = expected.reference
        np.testing.assert_array_equal(model(evaluation), reference_model(reference["eval"]))
    if "removed" in made:
        assert made["removed"] not in [a.name for a in model.domain.attributes]
    return found


@pytest.mark.parametrize("name", list(ORANGE_LEARNERS))
@pytest.mark.parametrize("case", ORANGE_CASES, ids=[c.name for c in ORANGE_CASES])
def test_orange_learner(case, name):
    expected = case.expected(name)
    if isinstance(expected, Raises):
        made = case.make()
        with pytest.raises(ValueError, match=expected.match):
            orange_learner(name, made)(made["data"])
    else:
        check_orange_model(name, case, expected)


@pytest.mark.parametrize("name", ["GeometricTreeLearner", "OC1Learner", "ODTSVMLearner"])
def test_instance_weights_reach_the_tree(name):
    """The class counts of a tree's root are the instance weights of its rows."""
    data = _orange_weights()["data"]
    model = ORANGE_LEARNERS[name]()(data)
    np.testing.assert_allclose(model.root.value.sum(), data.W.sum())
    np.testing.assert_allclose(model.root.value, np.bincount(data.Y.astype(int), data.W))


@pytest.mark.parametrize("name", list(ORANGE_LEARNERS))
def test_model_predicts_rows_with_nan_and_inf(name):
    """Rows given to a model as a numpy array (no imputation by the domain) with NaN or
    ±inf get finite probabilities that sum to 1."""
    X, y = separable()
    model = ORANGE_LEARNERS[name]()(_table(X, y))
    rows = X[:6].copy()
    rows[0, 0], rows[1, 1], rows[2, 2] = np.nan, np.inf, -np.inf
    proba = model(rows, model.Probs)
    assert np.all(np.isfinite(proba))
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    # complete rows get the same probabilities with or without incomplete ones beside them
    np.testing.assert_allclose(proba[3:], model(rows[3:], model.Probs))
    np.testing.assert_array_equal(model(rows[3:]), y[3:6])
