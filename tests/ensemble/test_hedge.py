"""Hedge(β) ensemble (ODT-SVM paper, Sections V–VI; Freund & Schapire 1997)."""
import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris, make_classification
from sklearn.exceptions import NotFittedError
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.core.ensemble.hedge import HedgeEnsembleClassifier, stratified_subset


# ----- helpers -----

def noisy_data(seed=0, n_samples=200, noise=0.2):
    return make_classification(n_samples, 5, n_informative=3, n_redundant=0,
                               flip_y=noise, random_state=seed)


def diagonal_concept(seed, n_samples, noise=0.0):
    """Two classes split by ``x0 + x1 = 0`` in the square [-1, 1]², with label noise."""
    rng = np.random.RandomState(seed)
    X = rng.uniform(-1, 1, (n_samples, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X, np.where(rng.rand(n_samples) < noise, 1 - y, y)


def member_labels(ensemble, X):
    """Each member's predicted labels, shape (n_members, n_samples)."""
    return np.stack([ensemble.classes_[member.predict(X)] for member in ensemble.estimators_])


def disagreeing_ensemble(seed=0, base=None, **params):
    """An ensemble of deep trees on random halves of noisy data: its members disagree on
    many rows, so a Hedge update treats them differently."""
    X, y = noisy_data(seed, noise=0.3)
    params = {"n_estimators": 5, "sample_fraction": 0.5, "random_state": seed, **params}
    base = DecisionTreeClassifier() if base is None else base
    return HedgeEnsembleClassifier(base, **params).fit(X, y), X, y


class RecordingTree(DecisionTreeClassifier):
    """A decision tree that keeps the rows and weights its ``fit`` was given."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        self.fitted_X_ = np.array(X)
        self.fitted_sample_weight_ = sample_weight
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


# ----- fit: subsets and initial weights -----

def test_without_held_out_rows_weights_are_equal_and_probabilities_average_the_members():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=4,
                                       sample_fraction=1.0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(ensemble.weights_, np.full(4, 0.25))
    average = np.mean([member.predict_proba(X) for member in ensemble.estimators_], axis=0)
    np.testing.assert_allclose(ensemble.predict_proba(X), average)
    np.testing.assert_array_equal(ensemble.predict(X),
                                  ensemble.classes_[np.argmax(average, axis=1)])
    assert ensemble.n_updates_ == 0 and ensemble.n_replaced_ == 0
    assert ensemble.n_features_in_ == 4


@pytest.mark.parametrize("beta", [0.5, 0.9])
def test_fit_weights_members_by_hedge_on_their_held_out_rows(beta):
    """Equal start, then β per mistake on the rows left out of the member's own subset."""
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(max_depth=2, random_state=0),
                                       n_estimators=6, sample_fraction=0.7, beta=beta,
                                       random_state=0).fit(X, y)
    mistakes = []
    for member, rows in zip(ensemble.estimators_, ensemble.subsets_):
        held_out = np.setdiff1d(np.arange(len(y)), rows)
        assert len(held_out) == 45
        mistakes.append(np.count_nonzero(member.predict(X[held_out]) != y[held_out]))
    expected = beta ** np.array(mistakes, dtype=float)
    assert len(set(mistakes)) > 1, "premise: members differ on their held-out rows"
    np.testing.assert_allclose(ensemble.weights_, expected / expected.sum())
    expected_proba = sum(weight * member.predict_proba(X)
                         for weight, member in zip(ensemble.weights_, ensemble.estimators_))
    np.testing.assert_allclose(ensemble.predict_proba(X), expected_proba)
    assert ensemble.n_updates_ == 0


def test_zero_weight_rows_do_not_judge_members():
    X, y = load_iris(return_X_y=True)
    weights = np.ones(len(y))
    weights[::3] = 0
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(max_depth=1, random_state=0),
                                       n_estimators=4, sample_fraction=0.7,
                                       random_state=0).fit(X, y, sample_weight=weights)
    mistakes = []
    for member, rows in zip(ensemble.estimators_, ensemble.subsets_):
        held_out = np.setdiff1d(np.flatnonzero(weights > 0), rows)
        mistakes.append(np.count_nonzero(member.predict(X[held_out]) != y[held_out]))
    expected = 0.9 ** np.array(mistakes, dtype=float)
    np.testing.assert_allclose(ensemble.weights_, expected / expected.sum())


def test_predict_proba_is_the_weighted_average_after_updates():
    ensemble, X, y = disagreeing_ensemble()
    ensemble.partial_fit(X[:40], y[:40])
    assert not np.allclose(ensemble.weights_, ensemble.weights_[0])
    expected = sum(weight * member.predict_proba(X)
                   for weight, member in zip(ensemble.weights_, ensemble.estimators_))
    np.testing.assert_allclose(ensemble.predict_proba(X), expected)


@pytest.mark.parametrize("replace_members", [False, True])
def test_predict_proba_rows_sum_to_one(replace_members):
    ensemble, X, y = disagreeing_ensemble(replace_members=replace_members, beta=0.5,
                                          weight_threshold=0.1)
    np.testing.assert_allclose(ensemble.predict_proba(X).sum(axis=1), 1)
    ensemble.partial_fit(X[::-1], 1 - y[::-1])
    assert ensemble.weights_.sum() == pytest.approx(1)
    probabilities = ensemble.predict_proba(X)
    assert probabilities.min() >= 0
    np.testing.assert_allclose(probabilities.sum(axis=1), 1)
    assert (ensemble.n_replaced_ > 0) == replace_members


def test_each_member_is_trained_on_a_different_90_percent_subset():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(RecordingTree(), n_estimators=10,
                                       random_state=0).fit(X, y)
    subsets = ensemble.subsets_
    assert len(subsets) == 10
    for rows, member in zip(subsets, ensemble.estimators_):
        assert len(rows) == 135 and len(np.unique(rows)) == 135      # 90 %, no repeats
        np.testing.assert_array_equal(member.fitted_X_, X[rows])     # what the member saw
        # Stratified: 45 of each of the three classes of 50.
        np.testing.assert_array_equal(np.bincount(y[rows]), [45, 45, 45])
    assert len({tuple(rows) for rows in subsets}) == 10


def test_members_get_distinct_seeds_drawn_from_random_state():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(random_state=0),
                                       n_estimators=5, random_state=0).fit(X, y)
    seeds = [member.random_state for member in ensemble.estimators_]
    assert len(set(seeds)) == 5
    assert ensemble.estimator_.random_state == 0                     # the base is untouched


def test_stratified_subset_gives_every_class_a_proportional_share():
    codes = np.repeat([0, 1, 2], [80, 15, 5])
    rows = stratified_subset(codes, 50, np.random.RandomState(0))
    assert len(rows) == 50 and len(np.unique(rows)) == 50
    counts = np.bincount(codes[rows], minlength=3)
    assert abs(counts - np.array([40, 7.5, 2.5])).max() <= 1
    # A class too small for its proportional share still gets a row.
    rows = stratified_subset(np.repeat([0, 1], [99, 1]), 10, np.random.RandomState(0))
    np.testing.assert_array_equal(np.bincount(np.repeat([0, 1], [99, 1])[rows]), [9, 1])


def test_stratified_subset_edge_sizes():
    codes = np.repeat([0, 1, 2], [4, 4, 4])
    np.testing.assert_array_equal(stratified_subset(codes, 12, np.random.RandomState(0)),
                                  np.arange(12))
    rows = stratified_subset(codes, 2, np.random.RandomState(0))     # fewer rows than classes
    assert len(rows) == 2 and len(np.unique(codes[rows])) == 2


# ----- Hedge(β) update -----

def test_hedge_multiplies_exactly_the_misclassifying_members_by_beta():
    ensemble, X, y = disagreeing_ensemble(beta=0.7)
    predictions = member_labels(ensemble, X)
    wrong = predictions != y
    # A row some members get right and others wrong.
    row = np.flatnonzero(wrong.any(axis=0) & ~wrong.all(axis=0))[0]
    before = ensemble.weights_.copy()
    ensemble.partial_fit(X[row:row + 1], y[row:row + 1])
    expected = before * np.where(wrong[:, row], 0.7, 1.0)
    np.testing.assert_allclose(ensemble.weights_, expected / expected.sum())
    assert ensemble.n_updates_ == 1


def test_hedge_over_a_batch_multiplies_by_beta_per_mistake():
    ensemble, X, y = disagreeing_ensemble(beta=0.8)
    mistakes = (member_labels(ensemble, X[:60]) != y[:60]).sum(axis=1)
    assert len(np.unique(mistakes)) > 1
    start = ensemble.weights_.copy()          # fit's weights (held-out rows)
    ensemble.partial_fit(X[:60], y[:60])
    expected = start * 0.8 ** mistakes
    np.testing.assert_allclose(ensemble.weights_, expected / expected.sum())
    assert ensemble.n_updates_ == 60
    # A second batch continues from these weights.
    more = (member_labels(ensemble, X[60:100]) != y[60:100]).sum(axis=1)
    ensemble.partial_fit(X[60:100], y[60:100])
    expected = start * 0.8 ** (mistakes + more)
    np.testing.assert_allclose(ensemble.weights_, expected / expected.sum())
    assert ensemble.n_updates_ == 100


def test_a_row_every_member_misclassifies_leaves_the_weights_unchanged():
    ensemble, X, y = disagreeing_ensemble()
    ensemble.partial_fit(X[:30], y[:30])
    before = ensemble.weights_.copy()
    right = member_labels(ensemble, X) == y                # all wrong about the flipped row
    row = np.flatnonzero(right.all(axis=0))[0]
    ensemble.partial_fit(X[row:row + 1], 1 - y[row:row + 1])
    np.testing.assert_allclose(ensemble.weights_, before)


def test_long_streams_do_not_underflow_the_weights():
    ensemble, X, y = disagreeing_ensemble(beta=0.01)
    for _ in range(20):
        ensemble.partial_fit(X, 1 - y)
    assert np.isfinite(ensemble.weights_).all()
    assert ensemble.weights_.sum() == pytest.approx(1)


def test_replaced_member_is_trained_on_the_window_and_gets_the_average_weight():
    ensemble, X, y = disagreeing_ensemble(base=RecordingTree(), replace_members=True,
                                          weight_threshold=0.15, beta=0.5, window=30)
    ensemble.partial_fit(X[:100], y[:100])
    wrong = member_labels(ensemble, X) != y
    # A row exactly one member gets wrong; give that member a weight just above the
    # threshold, so that the update pushes it (and only it) below.
    alone = wrong & (wrong.sum(axis=0) == 1)
    member, row = np.argwhere(alone)[0]
    before = np.full(5, 0.21)
    before[member] = 0.16
    ensemble.weights_ = before.copy()
    replaced_so_far = ensemble.n_replaced_
    ensemble.partial_fit(X[row:row + 1], y[row:row + 1])
    after_update = before * np.where(wrong[:, row], 0.5, 1.0)
    after_update /= after_update.sum()
    assert after_update[member] < 0.15 < np.delete(after_update, member).min()
    assert ensemble.n_replaced_ == replaced_so_far + 1
    assert ensemble.subsets_[member] is None
    # The replacement is trained on the 30 most recent labelled rows, ending with this one,
    recent = np.vstack([X[71:100], X[row:row + 1]])
    np.testing.assert_array_equal(ensemble.recent_X_, recent)
    np.testing.assert_array_equal(ensemble.classes_[ensemble.recent_y_],
                                  np.append(y[71:100], y[row]))
    np.testing.assert_array_equal(ensemble.estimators_[member].fitted_X_, recent)
    # and gets the kept members' average weight; then all are normalised.
    expected = after_update.copy()
    expected[member] = np.delete(after_update, member).mean()
    np.testing.assert_allclose(ensemble.weights_, expected / expected.sum())


def test_concept_change_is_followed_only_when_members_are_replaced():
    """Fit on one labelling, stream the opposite one: with replacement the accuracy on the
    new concept rises from near 0 to near 1; without, Hedge can only reweigh members that
    are all wrong, and it stays low."""
    X_old, y_old = diagonal_concept(0, 300, noise=0.2)
    X_stream, y_stream = diagonal_concept(1, 600)
    X_test, y_test = diagonal_concept(2, 500)
    y_stream, y_test = 1 - y_stream, 1 - y_test
    accuracies = {}
    for replace_members in (False, True):
        ensemble = HedgeEnsembleClassifier(
            DecisionTreeClassifier(), beta=0.5, weight_threshold=0.02, window=100,
            replace_members=replace_members, random_state=0).fit(X_old, y_old)
        curve = [np.mean(ensemble.predict(X_test) == y_test)]
        for start in range(0, 600, 100):
            ensemble.partial_fit(X_stream[start:start + 100], y_stream[start:start + 100])
            curve.append(np.mean(ensemble.predict(X_test) == y_test))
        accuracies[replace_members] = curve
    assert accuracies[True][0] < 0.3 and accuracies[False][0] < 0.3
    assert accuracies[True][-1] > 0.85
    assert accuracies[True][-1] > accuracies[True][0] + 0.5
    assert max(accuracies[False]) < 0.5


# ----- partial_fit conventions -----

def test_partial_fit_on_an_unfitted_ensemble_fits_it():
    X, y = load_iris(return_X_y=True)
    fitted = HedgeEnsembleClassifier(DecisionTreeClassifier(), n_estimators=3,
                                     random_state=0)
    online = clone(fitted).partial_fit(X, y)
    fitted.fit(X, y)
    np.testing.assert_array_equal(online.weights_, fitted.weights_)
    assert online.n_updates_ == 0
    np.testing.assert_array_equal(online.predict_proba(X), fitted.predict_proba(X))


def test_labels_unseen_at_fit_are_rejected():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(), n_estimators=2,
                                       random_state=0).fit(X[y < 2], y[y < 2])
    with pytest.raises(ValueError, match=r"labels \[2\] are not among the classes"):
        ensemble.partial_fit(X[y == 2], y[y == 2])
    with pytest.raises(ValueError, match="differ from the classes"):
        ensemble.partial_fit(X[:5], y[:5], classes=[0, 1, 2])


def test_classes_at_the_first_partial_fit_admit_later_labels():
    X, y = make_classification(300, 5, n_informative=3, n_redundant=0, n_classes=3,
                               flip_y=0.3, random_state=0)
    ensemble = HedgeEnsembleClassifier(
        DecisionTreeClassifier(), n_estimators=3, sample_fraction=0.5, replace_members=True,
        beta=0.5, weight_threshold=0.2, window=100, random_state=0)
    first = y < 2
    ensemble.partial_fit(X[first], y[first], classes=[0, 1, 2])
    np.testing.assert_array_equal(ensemble.classes_, [0, 1, 2])
    np.testing.assert_array_equal(ensemble.predict_proba(X)[:, 2], 0)   # no member saw 2
    ensemble.partial_fit(X, y)                         # the stream brings class 2
    assert ensemble.n_replaced_ > 0
    assert any(2 in member.classes_ for member in ensemble.estimators_)
    assert ensemble.predict_proba(X)[:, 2].max() > 0


def test_string_labels_and_members_that_never_saw_a_class():
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"], dtype=object)[y]
    # 2 rows per member: no member can see all three classes.
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(), n_estimators=6,
                                       sample_fraction=2 / 150, random_state=0)
    ensemble.fit(X, labels)
    np.testing.assert_array_equal(ensemble.classes_, ["setosa", "versicolor", "virginica"])
    assert all(len(member.classes_) == 2 for member in ensemble.estimators_)
    expected = np.zeros((len(X), 3))
    for weight, member in zip(ensemble.weights_, ensemble.estimators_):
        expected[:, member.classes_] += weight * member.predict_proba(X)  # unseen class: 0
    probabilities = ensemble.predict_proba(X)
    np.testing.assert_allclose(probabilities, expected)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1)
    assert set(ensemble.predict(X)) <= set(ensemble.classes_)
    ensemble.partial_fit(X[::10], labels[::10])
    assert ensemble.n_updates_ == 15


def test_members_without_predict_proba_vote_with_their_predictions():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(LinearSVC(), n_estimators=3,
                                       random_state=0).fit(X, y)
    votes = np.zeros((len(X), 3))
    for weight, member in zip(ensemble.weights_, ensemble.estimators_):
        votes[np.arange(len(X)), member.predict(X)] += weight
    np.testing.assert_allclose(ensemble.predict_proba(X), votes)


# ----- sample weights -----

def test_sample_weight_is_passed_to_each_member_on_its_subset():
    X, y = load_iris(return_X_y=True)
    weights = np.random.RandomState(0).uniform(0.5, 2, len(y))
    ensemble = HedgeEnsembleClassifier(RecordingTree(), n_estimators=3,
                                       random_state=0).fit(X, y, sample_weight=weights)
    for rows, member in zip(ensemble.subsets_, ensemble.estimators_):
        np.testing.assert_array_equal(member.fitted_sample_weight_, weights[rows])


def test_sample_weight_with_a_base_that_cannot_take_it_is_an_error():
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(KNeighborsClassifier(), n_estimators=2)
    with pytest.raises(ValueError, match="does not accept sample_weight"):
        ensemble.fit(X, y, sample_weight=np.ones(len(y)))
    ensemble.fit(X, y)                                   # without weights it is fine


# ----- progress -----

class ProgressTree(DecisionTreeClassifier):
    """A decision tree whose ``fit`` reports progress 0, ½ and 1 and records that it ran."""

    def fit(self, X, y, sample_weight=None, progress_callback=None):
        for fraction in (0.0, 0.5, 1.0):
            if progress_callback is not None:
                progress_callback(fraction)
        self.fitted_ = True
        return super().fit(X, y, sample_weight=sample_weight)


class Abort(Exception):
    pass


def test_progress_is_split_into_equal_shares_one_per_member():
    X, y = load_iris(return_X_y=True)
    values = []
    ensemble = HedgeEnsembleClassifier(ProgressTree(), n_estimators=4, random_state=0)
    ensemble.fit(X, y, progress_callback=values.append)
    assert values == sorted(values)                       # monotone
    assert values[-1] == 1
    for member in range(4):                               # each member fills its share
        assert member / 4 + 1 / 8 in values
        assert (member + 1) / 4 in values


def test_progress_of_tree_members_while_they_grow():
    X, y = noisy_data(0)
    values = []
    HedgeEnsembleClassifier(GeometricTreeClassifier(), n_estimators=3, random_state=0).fit(
        X, y, progress_callback=values.append)
    assert values == sorted(values) and values[-1] == 1
    for member in range(3):
        assert any(member / 3 < value < (member + 1) / 3 for value in values), member


def test_progress_with_members_that_take_no_callback():
    X, y = load_iris(return_X_y=True)
    values = []
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(), n_estimators=4,
                                       random_state=0)
    ensemble.fit(X, y, progress_callback=values.append)
    assert values == [0.25, 0.5, 0.75, 1.0]               # one step per member


def test_progress_does_not_change_the_ensemble():
    X, y = noisy_data(1)
    fits = [HedgeEnsembleClassifier(GeometricTreeClassifier(), n_estimators=3,
                                    sample_fraction=0.6, random_state=2).fit(
                X, y, progress_callback=callback)
            for callback in (None, lambda fraction: None)]
    np.testing.assert_array_equal(fits[0].weights_, fits[1].weights_)
    for one, other in zip(fits[0].estimators_, fits[1].estimators_):
        assert one.tree_.export_text() == other.tree_.export_text()


def test_exception_from_the_progress_callback_aborts_the_fit_in_the_member():
    X, y = load_iris(return_X_y=True)
    started = []

    class CountingTree(ProgressTree):
        def fit(self, X, y, sample_weight=None, progress_callback=None):
            started.append(len(started))
            return super().fit(X, y, sample_weight, progress_callback)

    def abort_in_third_member(fraction):
        if fraction > 2.25 / 4:
            raise Abort

    ensemble = HedgeEnsembleClassifier(CountingTree(), n_estimators=4, random_state=0)
    with pytest.raises(Abort):
        ensemble.fit(X, y, progress_callback=abort_in_third_member)
    assert started == [0, 1, 2]
    assert not hasattr(ensemble, "weights_")


def test_partial_fit_reports_progress_and_can_be_aborted_in_a_replacement():
    ensemble, X, y = disagreeing_ensemble(base=ProgressTree(), replace_members=True,
                                          beta=0.5, weight_threshold=0.1, window=50)
    values = []
    ensemble.partial_fit(X, 1 - y, progress_callback=values.append)
    assert ensemble.n_replaced_ > 0
    assert values == sorted(values) and values[-1] == 1

    def abort(fraction):
        raise Abort

    ensemble, X, y = disagreeing_ensemble(base=ProgressTree(), replace_members=True,
                                          beta=0.5, weight_threshold=0.1, window=50)
    n_updates = ensemble.n_updates_
    with pytest.raises(Abort):
        ensemble.partial_fit(X, 1 - y, progress_callback=abort)
    assert ensemble.n_replaced_ == 0 and ensemble.n_updates_ > n_updates
    # at the first call, partial_fit fits the members with the callback, as fit does
    values = []
    HedgeEnsembleClassifier(ProgressTree(), n_estimators=2, random_state=0).partial_fit(
        X, y, progress_callback=values.append)
    # (each member's share ends once by its own report, once by the ensemble's)
    assert values == [0.0, 0.25, 0.5, 0.5, 0.5, 0.75, 1.0, 1.0]


# ----- reproducibility, pickling, accuracy -----

def _run(random_state):
    X, y = noisy_data(0, noise=0.3)
    ensemble = HedgeEnsembleClassifier(DecisionTreeClassifier(), n_estimators=5,
                                       replace_members=True, beta=0.5,
                                       weight_threshold=0.1, window=50,
                                       random_state=random_state).fit(X[:100], y[:100])
    ensemble.partial_fit(X[100:], 1 - y[100:])
    return ensemble, X


def test_random_state_makes_fit_and_updates_reproducible():
    first, X = _run(3)
    second, _ = _run(3)
    assert first.n_replaced_ > 0
    for rows, same_rows in zip(first.subsets_, second.subsets_):
        if rows is None:
            assert same_rows is None
        else:
            np.testing.assert_array_equal(rows, same_rows)
    np.testing.assert_array_equal(first.weights_, second.weights_)
    np.testing.assert_array_equal(first.predict_proba(X), second.predict_proba(X))
    X, y = noisy_data(0)
    base = HedgeEnsembleClassifier(DecisionTreeClassifier(), n_estimators=2)
    one = clone(base).set_params(random_state=3).fit(X, y)
    other = clone(base).set_params(random_state=4).fit(X, y)
    assert not np.array_equal(one.subsets_[0], other.subsets_[0])


def test_pickling_keeps_the_predictions_and_the_online_state():
    ensemble, X, y = disagreeing_ensemble(replace_members=True, beta=0.5,
                                          weight_threshold=0.1)
    ensemble.partial_fit(X[:50], y[:50])
    restored = pickle.loads(pickle.dumps(ensemble))
    np.testing.assert_array_equal(restored.predict_proba(X), ensemble.predict_proba(X))
    # The random generator travels too: both continue the stream identically.
    ensemble.partial_fit(X[50:], 1 - y[50:])
    restored.partial_fit(X[50:], 1 - y[50:])
    assert ensemble.n_replaced_ > 0
    np.testing.assert_array_equal(restored.weights_, ensemble.weights_)
    np.testing.assert_array_equal(restored.predict_proba(X), ensemble.predict_proba(X))


def test_ensemble_is_at_least_as_accurate_as_a_single_member_on_noisy_data():
    ensemble_accuracy, member_accuracy, single_accuracy = [], [], []
    for seed in range(4):
        X, y = make_classification(600, 6, n_informative=4, flip_y=0.2, random_state=seed)
        train, test = slice(0, 300), slice(300, None)
        ensemble = HedgeEnsembleClassifier(GeometricTreeClassifier(),
                                           random_state=seed).fit(X[train], y[train])
        ensemble_accuracy.append(np.mean(ensemble.predict(X[test]) == y[test]))
        member_accuracy.append(np.mean(member_labels(ensemble, X[test]) == y[test]))
        single = GeometricTreeClassifier().fit(X[train], y[train])
        single_accuracy.append(np.mean(single.predict(X[test]) == y[test]))
    # Tolerance: 4 seeds × 300 test rows; the ensemble is ~4 points ahead in practice.
    assert np.mean(ensemble_accuracy) >= np.mean(member_accuracy) - 0.01
    assert np.mean(ensemble_accuracy) >= np.mean(single_accuracy) - 0.01


# ----- parameters -----

@pytest.mark.parametrize("params, message", [
    ({"n_estimators": 0}, "n_estimators must be an integer of at least 1"),
    ({"n_estimators": 2.5}, "n_estimators must be an integer, got 2.5"),
    ({"sample_fraction": 0}, r"sample_fraction must be a number in \(0, 1\]"),
    ({"sample_fraction": 1.5}, r"sample_fraction must be a number in \(0, 1\]"),
    ({"beta": 0}, r"beta must be a number in \(0, 1\)"),
    ({"beta": 1}, r"beta must be a number in \(0, 1\)"),
    ({"weight_threshold": -0.1}, r"weight_threshold must be a number in \[0, 1/n_est"),
    ({"weight_threshold": 0.1}, r"weight_threshold .* \[0, 0.1\)"),
    ({"replace_members": "yes"}, "replace_members must be True or False"),
    ({"window": 0}, "window must be an integer of at least 1"),
    ({"estimator": "tree"}, "estimator must be a classifier with fit and predict"),
])
def test_invalid_parameters_raise_clear_errors(params, message):
    X, y = load_iris(return_X_y=True)
    ensemble = HedgeEnsembleClassifier(**{"estimator": DecisionTreeClassifier(), **params})
    with pytest.raises(ValueError, match=message):
        ensemble.fit(X, y)


def test_unfitted_ensemble_cannot_predict():
    with pytest.raises(NotFittedError):
        HedgeEnsembleClassifier(DecisionTreeClassifier()).predict(np.zeros((1, 2)))


def test_default_estimator_is_odt_svm():
    odt_svm = pytest.importorskip(
        "orangecontrib.oblique.core.odt_svm.classifier",
        reason="orangecontrib.oblique.core.odt_svm.classifier (ODTSVMClassifier, the default base "
               "estimator) cannot be imported")
    ODTSVMClassifier = odt_svm.ODTSVMClassifier
    X, y = load_iris(return_X_y=True)
    rows = np.arange(0, 150, 3)
    ensemble = HedgeEnsembleClassifier(n_estimators=2, random_state=0).fit(X[rows], y[rows])
    assert ensemble.estimator is None
    assert isinstance(ensemble.estimator_, ODTSVMClassifier)
    assert all(isinstance(member, ODTSVMClassifier) for member in ensemble.estimators_)
    assert np.mean(ensemble.predict(X) == y) > 0.8


@pytest.mark.parametrize("partial", [False, True])
def test_a_nominal_code_unseen_in_training_is_predicted_as_a_missing_value(partial):
    """Members of ODT-SVM with a nominal column (``categorical_features``, given on with
    the base): a code no training row had, larger, negative or not whole, gets exactly
    the ensemble's probabilities of NaN, fitted at once or by ``partial_fit``."""
    from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=300), rng.integers(0, 3, 300)]).astype(float)
    y = ((X[:, 0] > 0) ^ (X[:, 1] == 1) ^ (rng.random(300) < 0.1)).astype(int)
    ensemble = HedgeEnsembleClassifier(
        ODTSVMClassifier(random_state=0, categorical_features=[1]), n_estimators=3,
        random_state=0)
    if partial:
        for start in range(0, 300, 100):
            ensemble.partial_fit(X[start:start + 100], y[start:start + 100], classes=[0, 1])
    else:
        ensemble.fit(X, y)
    rows = X[:50].copy()
    rows[:, 1] = np.nan
    expected = ensemble.predict_proba(rows)
    assert not np.array_equal(expected, ensemble.predict_proba(X[:50]))
    for code in (3.0, 5.0, -1.0, 0.5):
        rows[:, 1] = code
        np.testing.assert_array_equal(ensemble.predict_proba(rows), expected, err_msg=code)
