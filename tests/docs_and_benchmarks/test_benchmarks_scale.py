"""Smoke test of ``benchmarks/scale.py``: one small size by ``--rows``/``--features``, every
learner fitted in its own process and printed; OC1's own estimate where it is not run.
Timings themselves are not checked (the targets are the benchmark's, doc/speed.md)."""
import pytest

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture(scope="module")
def scale():
    with benchmark_script("scale") as module:
        yield module


def test_rows_and_features_make_one_size(scale, capsys):
    with pytest.raises(SystemExit):
        scale.main(["--rows", "300", "--sizes", "1000x10"])
    assert "not both" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        scale.main(["--rows", "0"])


def test_oc1_beyond_its_cell_limit_prints_its_estimate(scale):
    estimate = scale.estimated_seconds("OC1", 50000, 200)
    assert estimate > 600
    assert scale.estimated_seconds("Forest", 50000, 200) is None
    line = scale.format_row("OC1", 50000, 200, {"error": f"not run: estimated {estimate:,.0f} s"})
    assert line.startswith("OC1") and "not run: estimated" in line


@pytest.mark.slow
def test_small_run_prints_every_learner(scale, capsys):
    learners = "GDT,Forest,RF,Hedge"
    scale.main(["--rows", "300", "--features", "12", "--learners", learners,
                "--trace-limit", "0", "--jobs", "1"])
    out = capsys.readouterr().out
    assert "n_jobs=1" in out
    rows = [line.split() for line in out.splitlines()
            if line.split() and line.split()[0] in learners.split(",")]
    assert [row[0] for row in rows] == learners.split(",")
    for row in rows:
        assert row[1:3] == ["300", "12"]
        assert float(row[4]) >= 0   # fit s: a number, not an error
    assert "Total run time" in out
