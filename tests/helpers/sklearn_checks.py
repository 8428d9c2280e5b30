"""scikit-learn's ``parametrize_with_checks`` with expected failures on every supported
scikit-learn: its ``expected_failed_checks`` argument exists from 1.6; before it (1.5.1,
the oldest supported) the checks named there are marked ``xfail`` here, by name."""
import inspect

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

__all__ = ["parametrize_with_checks_expecting"]


def _check_name(check):
    while hasattr(check, "func"):
        check = check.func
    return check.__name__


def parametrize_with_checks_expecting(estimators, expected_failed_checks):
    """``parametrize_with_checks(estimators, expected_failed_checks=...)``:
    ``expected_failed_checks(estimator)`` is a dict of check names and the reasons they
    fail."""
    if "expected_failed_checks" in inspect.signature(parametrize_with_checks).parameters:
        return parametrize_with_checks(estimators,
                                       expected_failed_checks=expected_failed_checks)
    mark = parametrize_with_checks(estimators)
    names, cases = mark.args
    marked = []
    for case in cases:
        estimator, check = getattr(case, "values", case)
        reason = expected_failed_checks(estimator).get(_check_name(check))
        marked.append(case if reason is None else pytest.param(
            estimator, check, marks=pytest.mark.xfail(reason=reason)))
    return pytest.mark.parametrize(names, marked, **mark.kwargs)
