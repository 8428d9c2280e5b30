"""Smoke test of ``benchmarks/speed.py``: its measurement, tables and goal checks
on tiny sets, with and without STree installed.  Timings themselves are not checked."""
import sys

import numpy as np
import pytest

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture(scope="module")
def speed():
    with benchmark_script("speed") as module:
        yield module


def test_measure_fits_every_learner_on_the_same_split(speed):
    X, y = speed.load_set("checkerboard_2x2", n_synthetic=120)
    train, test = speed.held_out_split(y)
    assert len(test) == 12 and len(np.intersect1d(train, test)) == 0
    assert np.bincount((y[test] > 0).astype(int)).min() >= 5   # stratified
    results = speed.measure(X, y, train, test, ("CART", "GDT", "Hedge"), repeats=3,
                            hedge_repeats=1)
    assert [len(results[name]["seconds"]) for name in ("CART", "GDT", "Hedge")] == [3, 3, 1]
    for result in results.values():
        assert 0 <= result["accuracy"] <= 1
        assert all(seconds >= 0 for seconds in result["seconds"])


def test_quick_run_prints_tables_goals_and_the_oc1_reference(speed, capsys):
    measured = speed.main(["--quick", "--sets", "iris,LS10"])
    out = capsys.readouterr().out
    assert list(measured) == ["iris", "LS10"]
    assert measured["LS10"]["shape"] == (speed.N_SYNTHETIC_QUICK, 10)
    for text in ("Fit time, seconds", "Accuracy on the held-out rows, %",
                 "Goal: GDT ≤ 3× CART on every set",
                 "OC1 beside the original OC1 C program's CPU seconds",
                 "Total run time"):
        assert text in out
    goal = out[out.index("Goal: GDT"):]
    assert goal.count("PASS") + goal.count("FAIL") >= 3   # two sets and the verdict
    assert "pima           C 0.23 s   not bundled" in out
    assert "ours" in out.split("iris           C 0.008 s")[1].splitlines()[0]
    if speed.stree_class() is not None:
        real = out[out.index("Goal: ODT-SVM ≤ STree"):]
        assert "iris" in real and "LS10" not in real.split("=>")[0]


def test_without_stree_its_column_and_check_are_left_out(speed, capsys, monkeypatch):
    monkeypatch.setattr(speed, "stree_class", lambda: None)
    measured = speed.main(["--quick", "--sets", "wine", "--learners", "GDT,ODT-SVM,STree"])
    out = capsys.readouterr().out
    assert "STree is not installed" in out
    assert "STree s" not in out and "Goal: ODT-SVM ≤ STree" not in out
    assert set(measured["wine"]["results"]) == {"CART", "GDT", "ODT-SVM"}


def test_unknown_set_is_a_usage_error(speed, capsys):
    with pytest.raises(SystemExit):
        speed.main(["--sets", "pima"])
    assert "unknown sets" in capsys.readouterr().err


@pytest.mark.slow  # processes started, about 4 s
def test_parallel_benchmark_quick(capsys):
    """``benchmarks/parallel.py --quick``: the table with both timings, the same-ensemble
    check and the goal line."""
    with benchmark_script("parallel") as parallel:
        parallel.main(["--quick", "--repeats", "1"])
    out = capsys.readouterr().out
    assert "wine" in out and " yes " in out
    assert "goal: 2 jobs at least 1.7× faster than 1" in out
    # the first fit of a fresh process and the later ones, for 1 and 2 jobs
    assert "first 2 jobs" in out and "later 2 jobs" in out


def test_parallel_benchmark_ceiling_fits_the_ensembles_members():
    """The "2 processes" ceiling fits the ensemble's own members: the same parameters,
    seeds and rows, so that fitted here they predict as the ensemble's members do; and
    two processes fit them in a positive time."""
    from sklearn.datasets import load_wine

    from orangecontrib.oblique.core import HedgeEnsembleClassifier
    X, y = load_wine(return_X_y=True)
    model = HedgeEnsembleClassifier(n_estimators=3, random_state=0).fit(X, y)
    with benchmark_script("parallel") as parallel:
        fits = parallel.member_fits(model, X, y)
        assert len(fits) == 3
        for (estimator, X_member, y_member), member in zip(fits, model.estimators_):
            estimator.fit(X_member, y_member)
            assert np.array_equal(estimator.predict(X), member.predict(X))
        fits = parallel.member_fits(model, X, y)
        assert parallel.two_processes(fits) > 0
        assert parallel.machine_ceiling(fits, repeats=1) > 0


@pytest.mark.slow  # processes started, about 4 s
def test_parallel_benchmark_prints_the_machine_ceiling(capsys):
    with benchmark_script("parallel") as parallel:
        parallel.main(["--quick", "--repeats", "1"])
    out = capsys.readouterr().out
    assert any("speed-up" in line and "2 processes" in line for line in out.splitlines())
    assert "joblib's hand-over); below the goal on:" in out
