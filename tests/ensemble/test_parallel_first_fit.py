"""An ensemble's first fit is never slower than one process: work too small to
pay for starting worker processes is fitted here; once the workers are warm, smaller work
goes to them (``parallel.jobs_for``)."""
import os

import numpy as np
import pytest
from sklearn.datasets import load_wine

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        ObliqueForestClassifier)
from orangecontrib.oblique.core import parallel
from orangecontrib.oblique.core.parallel import jobs_for, run_fits


class ProcessRecordingTree(GeometricTreeClassifier):
    """GDT that records the process it was fitted in."""

    def fit(self, X, y, sample_weight=None):
        super().fit(X, y, sample_weight=sample_weight)
        self.fitted_in_ = os.getpid()
        return self


def break_even_cells(jobs, overhead):
    """The cells at which ``jobs`` jobs save as much as they cost."""
    return overhead / (parallel.SECONDS_PER_CELL * (1 - 1 / jobs))


def test_small_work_with_workers_asked_is_fitted_here():
    X, y = load_wine(return_X_y=True)
    model = HedgeEnsembleClassifier(estimator=ProcessRecordingTree(), n_estimators=3, n_jobs=2,
                                    random_state=0).fit(X, y)
    assert model.n_jobs_used_ == 1
    assert {member.fitted_in_ for member in model.estimators_} == {os.getpid()}
    forest = ObliqueForestClassifier(estimator=ProcessRecordingTree(), n_estimators=3,
                                     n_jobs=2, random_state=0).fit(X, y)
    assert forest.n_jobs_used_ == 1
    assert {tree.fitted_in_ for tree in forest.estimators_} == {os.getpid()}


def test_the_rule_pays_for_workers_only_when_they_save_more_than_they_cost():
    if parallel.workers_warm(2):
        pytest.skip("worker processes already warm in this test process")
    cold = break_even_cells(2, parallel.HAND_OVER_SECONDS + parallel.WORKER_START_SECONDS)
    warm = break_even_cells(2, parallel.HAND_OVER_SECONDS)
    assert jobs_for(0.9 * cold, 2) == 1 and jobs_for(1.1 * cold, 2) == 2
    # threads start at no cost: only the hand-over
    assert jobs_for(0.9 * warm, 2, "threads") == 1
    assert jobs_for(1.1 * warm, 2, "threads") == 2
    assert jobs_for(1.1 * warm, 2) == 1     # cold processes: not worth it
    assert jobs_for(1e12, 1) == 1
    assert jobs_for(1e12, -1) == os.cpu_count()
    assert jobs_for(0, None) == 1           # None: joblib's context decides


@pytest.mark.slow   # starts two worker processes (a few seconds)
def test_warm_workers_take_work_too_small_for_a_cold_start():
    X, y = load_wine(return_X_y=True)
    n_estimators = 60
    cells = n_estimators * round(0.9 * len(y)) * X.shape[1]
    assert break_even_cells(2, parallel.HAND_OVER_SECONDS) < cells < break_even_cells(
        2, parallel.HAND_OVER_SECONDS + parallel.WORKER_START_SECONDS)
    params = dict(estimator=ProcessRecordingTree(), n_estimators=n_estimators, n_jobs=2,
                  random_state=0)
    if not parallel.workers_warm(2):
        cold = HedgeEnsembleClassifier(**params).fit(X, y)
        assert cold.n_jobs_used_ == 1
    workers = set(run_fits([os.getpid] * 4, n_jobs=2))   # the workers start
    assert os.getpid() not in workers and parallel.workers_warm(2)
    warm = HedgeEnsembleClassifier(**params).fit(X, y)
    assert warm.n_jobs_used_ == 2
    fitted_in = {member.fitted_in_ for member in warm.estimators_}
    assert os.getpid() not in fitted_in
    reference = HedgeEnsembleClassifier(**{**params, "n_jobs": 1}).fit(X, y)
    np.testing.assert_array_equal(warm.predict_proba(X), reference.predict_proba(X))


@pytest.mark.slow   # starts two worker processes (a few seconds)
def test_a_fit_too_small_for_cold_workers_starts_them_for_the_next():
    """Work that cold workers would not pay for but warm ones would: the first fit is
    fitted here while the workers start in the background, and the next such fit goes
    to them (before, the workers were never started, so all such work stayed here)."""
    if parallel.workers_warm(2):
        pytest.skip("worker processes already warm in this test process")
    X, y = load_wine(return_X_y=True)
    params = dict(estimator=ProcessRecordingTree(), n_estimators=60, n_jobs=2,
                  random_state=0)
    first = HedgeEnsembleClassifier(**params).fit(X, y)
    assert first.n_jobs_used_ == 1
    assert {member.fitted_in_ for member in first.estimators_} == {os.getpid()}
    starting = parallel._starting["thread"]
    assert starting is not None
    starting.join(timeout=120)
    assert parallel.workers_warm(2)
    second = HedgeEnsembleClassifier(**params).fit(X, y)
    assert second.n_jobs_used_ == 2
    assert os.getpid() not in {member.fitted_in_ for member in second.estimators_}
    np.testing.assert_array_equal(first.predict_proba(X), second.predict_proba(X))


def test_the_work_of_a_kind_of_member_is_priced_as_measured():
    """A fit in this process measures its members' seconds per cell (not the first of a
    kind, which loads the kernels); the rule then prices such work by it (members slower
    than the default price pay for jobs sooner)."""
    kind = "a kind of member of this test"
    cells = 0.5 * parallel.HAND_OVER_SECONDS / parallel.SECONDS_PER_CELL
    assert jobs_for(cells, 2, "threads", kind=kind) == 1

    def slow_fit(progress_callback=None):
        start = __import__("time").process_time()
        while __import__("time").process_time() - start < 0.02:
            pass
        return True

    run_fits([slow_fit] * 3, n_jobs=1, work=(kind, 1000))   # the first: loads kernels
    assert jobs_for(cells, 2, "threads", kind=kind) == 1
    run_fits([slow_fit] * 3, n_jobs=1, work=(kind, 1000))   # 60 µs a cell
    assert jobs_for(cells, 2, "threads", kind=kind) == 2
    assert jobs_for(cells, 2, "threads") == 1               # other members: the default
