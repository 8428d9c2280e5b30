"""Smoke test of ``benchmarks/forest.py``: the cross-validation of the forests,
their out-of-bag errors, the tables and the goal checks, on a quick run; its ``--sets`` and
its Oblique Forest with ``oob_grid_search`` (the paper's choice of ``d`` and ``λ`` by
out-of-bag error).  Accuracies and timings themselves are not checked."""

import numpy as np
import pytest
from Orange.data import Table

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture
def forest():
    with benchmark_script("forest") as module:
        yield module


def test_cross_validation_records_accuracy_times_and_oob(forest):
    learners = forest.make_learners(forest.FORESTS + ("GDT",), n_trees=5, oc1_restarts=1,
                                    jobs=1)
    record = forest.cross_validate(Table("iris"), learners)
    for name in learners:
        assert 0.8 < record[name]["accuracy"] <= 1
        assert len(record[name]["seconds"]) == forest.N_FOLDS
    for name in forest.FORESTS:
        assert len(record[name]["oob"]) == forest.N_FOLDS
        assert all(0 <= error <= 1 for error in record[name]["oob"])
    assert record["GDT"]["oob"] == []


@pytest.mark.slow  # a benchmark run, about 6 s
def test_quick_run_prints_every_set_and_the_goal_checks(forest, capsys):
    forest.main(["--quick", "--learners", "Oblique Forest,Random Forest"])
    out = capsys.readouterr().out
    for title in ("iris", "wine (sklearn)", "synthetic_10d"):
        assert f"\n{title}  (" in out
    assert "Goal checks:" in out
    for goal in ("≥ Random Forest + 1 point", "ahead on most real sets",
                 "far ahead on oblique structure (synthetic_10d)", "fit time ≤ 5 ×"):
        assert goal in out
    assert out.count("-> PASS") + out.count("-> FAIL") == 4
    ratios = [float(line.split()[-3]) for line in out.splitlines()
              if line.startswith("  synthetic_10d ") and len(line.split()) == 5]
    assert ratios and np.isfinite(ratios).all()


def test_sets_and_the_oob_grid_forest(forest, capsys):
    forest.main(["--quick", "--sets", "iris", "--learners",
                 f"{forest.FOREST},{forest.RANDOM_FOREST},{forest.OOB_GRID}"])
    out = capsys.readouterr().out
    assert "\niris  (" in out and "\nwine (sklearn)  (" not in out
    assert f"  {forest.OOB_GRID} " in out  # its row in the set's table
    assert f"\n{forest.OOB_GRID} against the Random Forest" in out
    assert "mean over the real sets:" in out


def test_oob_grid_forest_is_named_only(forest):
    assert forest.OOB_GRID not in forest.LEARNERS
    model = forest.make_learners([forest.OOB_GRID], 4, 1, 1)[forest.OOB_GRID]
    assert model.create_estimator().oob_grid_search


def test_synthetic_sets_only(forest, capsys):
    """No real set: no mean over the real sets and no goal on them."""
    forest.main(["--quick", "--sets", "checkerboard_2x2", "--learners",
                 f"{forest.FOREST},{forest.RANDOM_FOREST}"])
    out = capsys.readouterr().out
    assert "Mean accuracy" not in out and "real sets" not in out and "nan" not in out
    assert "fit time ≤ 5 ×" in out
