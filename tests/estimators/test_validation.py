"""The project's own checks of a fit's weights and of a prediction's data
(``validation.checked_sample_weight``, ``validation.validate_prediction_data``): what
scikit-learn's estimators accept and refuse, on every supported scikit-learn; and sizes
a parameter asks for (``validation.check_memory``), clipped or refused at once."""
import time
import warnings

import numpy as np
import pytest

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ObliqueForestClassifier,
                                        ODTSVMClassifier, SparseProjectionTreeClassifier,
                                        XMeans, validation)
from orangecontrib.oblique.core.validation import checked_sample_weight

ESTIMATORS = (GeometricTreeClassifier, OC1Classifier, ODTSVMClassifier,
              HedgeEnsembleClassifier, ObliqueForestClassifier,
              SparseProjectionTreeClassifier)


# ----- instance weights -----

def test_weights_none_a_number_or_one_a_row():
    np.testing.assert_array_equal(checked_sample_weight(None, 3), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(checked_sample_weight(2, 3), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(checked_sample_weight(np.float32(0.5), 2), [0.5, 0.5])
    weights = checked_sample_weight([1, 0, 3], 3)
    assert weights.dtype == np.float64 and weights.shape == (3,)
    np.testing.assert_array_equal(weights, [1.0, 0.0, 3.0])
    given = np.array([0.5, 2.0])
    assert checked_sample_weight(given, 2) is given          # no copy of a float64 array


@pytest.mark.parametrize("weights, message", [
    ([1.0, np.nan, 1.0], "NaN"),
    ([1.0, np.inf, 1.0], "infinity"),
    ([1.0, -1.0, 1.0], "Negative values .* 1 of its 3 weights"),
    ([0.0, 0.0, 0.0], "zero for every row"),
    (0, "zero for every row"),
    (-2, "Negative"),
    ([1.0, 1.0], "2 weights for 3 rows"),
    (np.ones((3, 2)), r"1-d array .* shape \(3, 2\)"),
    (["a", "b", "c"], "could not convert|string"),
])
def test_bad_weights_are_a_value_error_that_says_why(weights, message):
    with pytest.raises(ValueError, match=message):
        checked_sample_weight(weights, 3)


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_every_estimator_checks_its_weights(estimator):
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.arange(20) % 2
    with pytest.raises(ValueError, match="zero for every row"):
        estimator().fit(X, y, sample_weight=np.zeros(20))
    with pytest.raises(ValueError, match="Negative"):
        estimator().fit(X, y, sample_weight=-np.ones(20))
    scalar = estimator(random_state=0).fit(X, y, sample_weight=3.0)
    unweighted = estimator(random_state=0).fit(X, y)
    np.testing.assert_array_equal(scalar.predict_proba(X), unweighted.predict_proba(X))


# ----- a prediction's data against the fit's -----

@pytest.fixture(scope="module")
def frames():
    pandas = pytest.importorskip("pandas")
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    return pandas, X, np.arange(30) % 2


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_prediction_checked_against_the_fit(estimator, frames):
    pandas, X, y = frames
    named = estimator(random_state=0).fit(pandas.DataFrame(X, columns=["a", "b", "c"]), y)
    np.testing.assert_array_equal(named.feature_names_in_, ["a", "b", "c"])
    assert named.n_features_in_ == 3
    with pytest.raises(ValueError, match="X has 2 features, but .* is expecting 3 features "
                                         "as input"), pytest.warns(UserWarning):
        named.predict(X[:, :2])
    with pytest.warns(UserWarning, match="X does not have valid feature names, but .* was "
                                         "fitted with feature names"):
        named.predict(X)
    with pytest.raises(ValueError, match="(?s)should match.*unseen at fit time:\n- d\n"
                                         ".*seen at fit time, yet now missing:\n- c\n"):
        named.predict(pandas.DataFrame(X, columns=["a", "b", "d"]))
    with pytest.raises(ValueError, match="must be in the same order"):
        named.predict(pandas.DataFrame(X, columns=["c", "b", "a"]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        named.predict(pandas.DataFrame(X, columns=["a", "b", "c"]))
    plain = estimator(random_state=0).fit(X, y)
    with pytest.warns(UserWarning, match="X has feature names, but .* was fitted without"):
        plain.predict(pandas.DataFrame(X, columns=["a", "b", "c"]))
    assert plain.predict(np.empty((0, 3))).shape == (0,)


def test_names_of_mixed_types_are_a_type_error(frames):
    pandas, X, y = frames
    with pytest.raises(TypeError, match="Feature names are only supported if all input "
                                        "features have string names"):
        GeometricTreeClassifier().fit(pandas.DataFrame(X, columns=["a", 1, "c"]), y)
    # names that are all not strings are no names
    model = GeometricTreeClassifier().fit(pandas.DataFrame(X), y)
    assert not hasattr(model, "feature_names_in_")


def test_a_later_partial_fit_is_checked_against_the_first(frames):
    pandas, X, y = frames
    ensemble = HedgeEnsembleClassifier(estimator=GeometricTreeClassifier(), n_estimators=2,
                                       random_state=0)
    ensemble.partial_fit(pandas.DataFrame(X, columns=["a", "b", "c"]), y)
    with pytest.raises(ValueError, match="X has 2 features, but HedgeEnsembleClassifier is "
                                         "expecting 3 features as input"), \
            pytest.warns(UserWarning, match="does not have valid feature names"):
        ensemble.partial_fit(X[:, :2], y)
    with pytest.raises(ValueError, match="same order"):
        ensemble.partial_fit(pandas.DataFrame(X, columns=["b", "a", "c"]), y)
    ensemble.partial_fit(pandas.DataFrame(X, columns=["a", "b", "c"]), y)
    assert ensemble.n_updates_ == len(y)      # the first call fitted, the last updated


# ----- sizes a parameter asks for -----

def small_data(n_rows=40, n_features=4):
    X = np.random.default_rng(2).normal(size=(n_rows, n_features))
    return X, (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("estimator, memory", [
    (ObliqueForestClassifier(n_estimators=10 ** 12),
     r"1,000,000,000,000 trees .* more than this machine's memory"),
    (HedgeEnsembleClassifier(n_estimators=10 ** 12, weight_threshold=0),
     r"1,000,000,000,000 members, .* more than this machine's memory"),
])
def test_more_members_than_the_memory_holds_are_refused_at_once(estimator, memory):
    """A forest of 10**12 trees asked 7.28 TiB deep inside numpy: refused before any
    work, naming n_estimators and the memory."""
    X, y = small_data()
    start = time.perf_counter()
    with pytest.raises(ValueError, match=rf"^n_estimators=1000000000000 asks for {memory}"):
        estimator.fit(X, y)
    assert time.perf_counter() - start < 2


def test_projections_beyond_p_squared_are_p_squared():
    """SPORF's d may exceed the p attributes (the paper tunes it up to p²); a larger
    max_features (10**8 ran 34 s into a MemoryError of 29.8 GiB) is taken as p²."""
    X, y = small_data()
    start = time.perf_counter()
    tree = SparseProjectionTreeClassifier(max_features=10 ** 8, random_state=0).fit(X, y)
    assert tree.n_projections_ == 16
    same = SparseProjectionTreeClassifier(max_features=16, random_state=0).fit(X, y)
    np.testing.assert_array_equal(tree.predict_proba(X), same.predict_proba(X))
    ObliqueForestClassifier(n_estimators=2, max_features=10 ** 8).fit(X, y)
    assert time.perf_counter() - start < 5


def test_projections_the_memory_cannot_hold_are_refused_at_once(monkeypatch):
    """The root's projected values (8·d·n bytes) checked against the machine's memory
    at the start of the fit (here a machine of 1 MiB)."""
    monkeypatch.setattr(validation, "machine_memory", lambda: 2 ** 20)
    X, y = small_data(n_rows=2000, n_features=10)
    with pytest.raises(ValueError, match=r"^max_features=100 asks for 100 projections of "
                                         r"2,000 rows at the root: at least 1.5 MiB, more "
                                         r"than this machine's memory \(1.0 MiB\)"):
        SparseProjectionTreeClassifier(max_features=100).fit(X, y)
    SparseProjectionTreeClassifier(max_features=5).fit(X, y)


def test_clusters_beyond_the_rows_are_the_rows():
    """ODT-SVM's max_clusters=2**63 - 1 (2**63 gave 'negative dimensions not allowed'
    after 23 s) and X-means' min and max_clusters: at most the number of rows."""
    X, y = small_data()
    start = time.perf_counter()
    tree = ODTSVMClassifier(max_clusters=2 ** 63 - 1, random_state=0).fit(X, y)
    assert tree.tree_.node_count >= 1
    clusters = XMeans(max_clusters=2 ** 62, random_state=0).fit(X[:12])
    assert 2 <= clusters.n_clusters_ <= 12
    everything = XMeans(min_clusters=2 ** 62, max_clusters=2 ** 62).fit(X[:12])
    assert everything.n_clusters_ == 12      # one cluster per distinct row
    assert time.perf_counter() - start < 10


def test_kmeans_starts_the_memory_cannot_hold_are_refused_at_once():
    X, _ = small_data()
    with pytest.raises(ValueError, match=r"^n_init=4611686018427387904 asks for .* random "
                                         r"numbers .* more than this machine's memory"):
        XMeans(n_init=2 ** 62).fit(X)
