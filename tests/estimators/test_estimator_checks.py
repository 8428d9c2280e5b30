"""scikit-learn's estimator contract, run on every core estimator.

Nothing is inapplicable to a tree classifier (``allow_nan`` is off, so the NaN checks expect
the ValueError the estimator raises).  One check is an expected failure, for the OC1
estimators that prune (``pruning_portion > 0``, OC1's default):

* ``check_sample_weight_equivalence_on_dense_data`` fits once with integer weights (some
  0) and once with every row repeated that many times, and expects the same
  ``predict_proba``.  OC1 holds out ``round(pruning_portion · n)`` *rows* for pruning,
  drawn at random without regard to weight: with 15 weighted rows it holds out 1 or 2 of
  them, each with all its weight, while the repeated data has about 30 rows and
  holds out 3 of them, where copies of one row may land on both sides.  The grown trees
  and the pruning data differ, so weight 2 cannot equal two copies.  Without the
  hold-out (``pruning_portion=0``) the check passes (tested below): on these 15 rows × 30
  features no node has more than ``2·d`` rows, so every split is axis-parallel and exact
  under weights.
"""
import pytest
from sklearn.utils import estimator_checks

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier

from tests.helpers.sklearn_checks import parametrize_with_checks_expecting

_HOLDOUT_IS_BY_ROW = (
    "OC1 holds out round(pruning_portion * n) rows for pruning, drawn without regard to "
    "weight, so a row of weight k is held out (or kept) whole while its k repeated copies "
    "are drawn separately and the number held out changes: the grown and pruned trees "
    "differ.  The check passes with pruning_portion=0.")


def _expected_failed_checks(estimator):
    if isinstance(estimator, OC1Classifier) and estimator.pruning_portion > 0:
        # the same on sparse input, which is densified (validation.MAX_DENSE_BYTES)
        return {"check_sample_weight_equivalence_on_dense_data": _HOLDOUT_IS_BY_ROW,
                "check_sample_weight_equivalence_on_sparse_data": _HOLDOUT_IS_BY_ROW}
    return {}


@parametrize_with_checks_expecting(
    [GeometricTreeClassifier(),
     OC1Classifier(random_state=0),
     OC1Classifier(split_mode="axis_parallel", random_state=0)],
    _expected_failed_checks)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_oc1_weights_equal_repeats_without_the_holdout():
    """The expected failure above is due to the hold-out alone (the check is
    scikit-learn's from 1.6)."""
    if not hasattr(estimator_checks, "check_sample_weight_equivalence_on_dense_data"):
        pytest.skip("scikit-learn before 1.6 has no check_sample_weight_equivalence")
    for split_mode in ("oblique_and_axis_parallel", "axis_parallel"):
        estimator_checks.check_sample_weight_equivalence_on_dense_data(
            "OC1Classifier", OC1Classifier(split_mode=split_mode, pruning_portion=0.0))
