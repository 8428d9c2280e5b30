"""``benchmarks/prediction.py``: its rows (breast cancer rows with noise) and a smoke run
that prints every learner's ratio to its reference."""
import sys

import numpy as np
import pytest

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture(scope="module")
def prediction():
    with benchmark_script("prediction") as module:
        yield module


def test_the_rows_are_training_rows_with_a_tenth_of_their_spread_as_noise(prediction):
    X = np.array([[0.0, 0.0, 0.0], [1.0, 10.0, 100.0]])   # deviations 0.5, 5, 50
    rows = prediction.prediction_rows(X, 20000)
    assert rows.shape == (20000, 3)
    np.testing.assert_array_equal(rows, prediction.prediction_rows(X, 20000))
    # each row near one of X's (the first column tells which), the noise a tenth of
    # every column's deviation
    noise = rows - X[(rows[:, 0] > 0.5).astype(int)]
    np.testing.assert_allclose(noise.std(axis=0) / X.std(axis=0), 0.1, rtol=0.1)


def test_a_smoke_run_prints_the_ratios_and_the_goals(prediction, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["prediction.py", "--rows", "300", "--repeats", "1",
                                      "--learners", "OC1"])
    prediction.main()
    out = capsys.readouterr().out
    assert "n_jobs=1" in out
    line = next(line for line in out.splitlines() if line.strip().startswith("OC1"))
    assert "x CART" in line and "<= 2x" in line and line.split()[-1] in ("yes", "NO")
    assert any(line.strip().startswith("RF") for line in out.splitlines())
