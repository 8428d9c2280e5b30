"""scikit-learn's estimator contract, run on every core estimator.

No check is listed as an expected failure: none is inapplicable to a tree classifier
(``allow_nan`` is off, so the NaN checks expect the ValueError the estimator raises).
"""
from sklearn.utils.estimator_checks import parametrize_with_checks

from orangecontrib.oblique.core import GeometricTreeClassifier


@parametrize_with_checks([GeometricTreeClassifier()])
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
