"""Hedge members trained in parallel: the same ensemble for any ``n_jobs``,
through joblib's processes and through a Dask cluster."""
import numpy as np
import pytest
from joblib import parallel_config
from sklearn.datasets import load_wine
from threadpoolctl import threadpool_limits

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier)


def assert_same_ensemble(a, b, X):
    assert len(a.estimators_) == len(b.estimators_)
    for member_a, member_b, rows_a, rows_b in zip(a.estimators_, b.estimators_,
                                                  a.subsets_, b.subsets_):
        np.testing.assert_array_equal(rows_a, rows_b)
        assert member_a.tree_.splits == member_b.tree_.splits
    np.testing.assert_array_equal(a.weights_, b.weights_)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


@pytest.mark.slow   # worker processes that load the kernels (about 10 s)
@pytest.mark.parametrize("estimator", [None, OC1Classifier(n_restarts=2),
                                       GeometricTreeClassifier()])
def test_same_ensemble_for_any_n_jobs(wine, estimator):
    X, y = wine
    params = dict(estimator=estimator, n_estimators=4, random_state=3)
    # one BLAS thread here as in joblib's worker processes: with two, the eigensolver of
    # GDT's nodes rounded the last bits otherwise (scipy 1.10's OpenBLAS)
    # n_jobs from joblib's context: workers used however small the work (a given n_jobs
    # would fit these few small trees in this process, parallel.jobs_for)
    with threadpool_limits(limits=1, user_api="blas"):
        one = HedgeEnsembleClassifier(**params, n_jobs=1).fit(X, y)
        for n_jobs in (2, -1):
            with parallel_config(n_jobs=n_jobs):
                assert_same_ensemble(one, HedgeEnsembleClassifier(**params).fit(X, y), X)


def test_progress_after_every_member_and_cancel(wine):
    X, y = wine
    reported = []
    with parallel_config(n_jobs=2):
        HedgeEnsembleClassifier(n_estimators=3, random_state=0).fit(
            X, y, progress_callback=reported.append)
    assert reported == pytest.approx([1 / 3, 2 / 3, 1])

    def cancel(fraction):
        raise KeyboardInterrupt("cancelled")

    with pytest.raises(KeyboardInterrupt), parallel_config(n_jobs=2):
        HedgeEnsembleClassifier(n_estimators=3, random_state=0).fit(
            X, y, progress_callback=cancel)


@pytest.mark.slow  # worker processes started
def test_n_jobs_from_a_joblib_context(wine):
    """``n_jobs=None`` follows ``joblib.parallel_config``, as scikit-learn's do."""
    X, y = wine
    one = HedgeEnsembleClassifier(n_estimators=3, random_state=1).fit(X, y)
    with parallel_config(n_jobs=2):
        assert_same_ensemble(one, HedgeEnsembleClassifier(n_estimators=3,
                                                          random_state=1).fit(X, y), X)


@pytest.mark.parametrize("n_jobs", [0, 1.5, True, "2"])
def test_bad_n_jobs(wine, n_jobs):
    X, y = wine
    with pytest.raises(ValueError, match="n_jobs"):
        HedgeEnsembleClassifier(n_estimators=2, n_jobs=n_jobs).fit(X, y)


@pytest.mark.slow   # a cluster of worker processes (about 13 s)
def test_on_a_dask_cluster(wine):
    """Under joblib's Dask backend the members are trained by a Dask cluster's workers:
    the same ensemble, with no code of the project's own for Dask."""
    distributed = pytest.importorskip("distributed")
    X, y = wine
    one = HedgeEnsembleClassifier(n_estimators=3, random_state=2).fit(X, y)
    # worker processes, as the ensemble uses for the papers' trees
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with parallel_config(backend="dask"):
            on_dask = HedgeEnsembleClassifier(n_estimators=3, random_state=2).fit(X, y)
        assert client.run(lambda: True)  # the workers were there
    assert_same_ensemble(one, on_dask, X)
