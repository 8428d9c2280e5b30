"""Smoke test of ``benchmarks/forest.py`` (issue 17): the cross-validation of the forests,
their out-of-bag errors, the tables and the goal checks, on a quick run.  Accuracies and
timings themselves are not checked."""

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
    assert "Goal checks (issue 17):" in out
    for goal in ("≥ Random Forest + 1 point", "ahead on most real sets",
                 "far ahead on oblique structure (synthetic_10d)", "fit time ≤ 5 ×"):
        assert goal in out
    assert out.count("-> PASS") + out.count("-> FAIL") == 4
    ratios = [float(line.split()[-3]) for line in out.splitlines()
              if line.startswith("  synthetic_10d ") and len(line.split()) == 5]
    assert ratios and np.isfinite(ratios).all()
