"""The pure parts of ``benchmarks/oc1_c.py`` (our OC1 beside the original OC1 C
program): OC1's data format, reading the program's output, and the error for a missing
program.  The C program itself is not part of the project, so nothing here runs it."""
import sys

import numpy as np
import pytest

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture(scope="module")
def oc1_c():
    with benchmark_script("oc1_c") as module:
        yield module


def test_data_lines_are_values_then_a_class_numbered_from_one(oc1_c, tmp_path):
    X = np.array([[0.5, -1.25, 0.0], [3.0, 1e-05, -7.0]])
    y = np.array([0, 2])
    lines = oc1_c.oc1_data_lines(X, y)
    assert lines == ["0.5\t-1.25\t0.0\t1\n", "3.0\t1e-05\t-7.0\t3\n"]
    for line, row, label in zip(lines, X, y):
        *values, last = line.split()       # load_data.c: blanks between numbers
        assert np.array_equal(np.array(values, dtype=float), row)   # exact round trip
        assert last == str(label + 1) and int(last) >= 1            # classes 1..K
        assert not any(c.isalpha() and c != "e" for c in line)      # no "nan"/"inf"

    path = tmp_path / "train"
    oc1_c.write_oc1_data(str(path), X, y)
    assert path.read_text() == "".join(lines)

    with pytest.raises(ValueError, match="finite"):
        oc1_c.oc1_data_lines(np.array([[np.nan, 1.0]]), np.array([0]))


def test_the_programs_accuracy_line_gives_the_count_and_leaves(oc1_c):
    output = ("Pruned decision tree written to train.dt.\n"
              "Unpruned decision tree written to train.dt.unpruned.\n"
              "accuracy = 90.91\t#leaves = 9.00\tmax depth = 4.00\n")
    assert oc1_c.parse_c_result(output, 11) == (10, 9.0)
    assert oc1_c.parse_c_result("No split could be found\n", 11) is None


def test_a_missing_program_is_a_clear_usage_error(oc1_c, tmp_path, capsys):
    missing = tmp_path / "mktree"
    with pytest.raises(SystemExit) as stop:
        oc1_c.main(["--oc1-program", str(missing), "--quick"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"--oc1-program {missing}: no such file" in err
    assert "OC1 3.0" in err


def test_repeats_fit_every_fold_again_with_new_seeds(oc1_c, tmp_path):
    """``--repeats R``: both programs fit every fold R times, fold k's repeat r seeded
    k + 10 r, and the accuracy is pooled over all R · n predictions."""
    seeds_file = tmp_path / "seeds"
    program = tmp_path / "mktree"
    # a stand-in for the C program: every test row right, its seed written down
    program.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "arguments = sys.argv[1:]\n"
        "rows = sum(1 for _ in open(arguments[arguments.index('-T') + 1]))\n"
        f"open({str(seeds_file)!r}, 'a').write(arguments[arguments.index('-s') + 1] + ' ')\n"
        "print('accuracy = 100.00\\t#leaves = 1.00\\tmax depth = 0.00')\n")
    program.chmod(0o755)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    record, _, no_tree = oc1_c.evaluate(str(program), X, y, repeats=2)
    assert sorted(map(int, seeds_file.read_text().split())) == list(range(20))
    assert len(record["C"]["cpu"]) == len(record["ours"]["cpu"]) == 20
    assert record["C"]["correct"] == 2 * len(y) and not no_tree
    row, _ = oc1_c.summary_row("toy", X, y, record, repeats=2)
    assert row[2] == "100.00"      # the stand-in's accuracy, pooled over both repeats
    assert 50.0 <= float(row[3]) <= 100.0

    with pytest.raises(SystemExit) as stop:
        oc1_c.main(["--oc1-program", str(program), "--repeats", "0"])
    assert stop.value.code == 2
