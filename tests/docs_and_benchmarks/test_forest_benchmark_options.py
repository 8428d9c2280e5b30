"""``benchmarks/forest.py``'s ``--sets`` and its Oblique Forest with ``oob_grid_search``
(the paper's choice of ``d`` and ``λ`` by out-of-bag error), on a quick run."""

import pytest

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture
def forest():
    with benchmark_script("forest") as module:
        yield module


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
