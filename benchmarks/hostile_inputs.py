"""Run every hostile-input case of ``tests/test_hostile_inputs.py`` on every core estimator
and Orange learner and print what happened, as the markdown tables of
``doc/robustness.md``.

Each cell is the outcome: ``model (acc …)`` (accuracy on the case's held-out rows if it has
them, else on its training rows; ``unscaled …`` is the accuracy of the same fit before the
data were rescaled, ``same as …`` that of the fit on equivalent data -- weights unscaled,
a dense array for a sparse one -- whose predictions it repeats), ``model (0 rows
predicted: empty)``, ``ValueError: …`` (the start of the message), or ``warning: …``
before the model.  A cell that differs from what the test asserts is marked ``MISMATCH``.

Run from the repository root: ``.venv/bin/python benchmarks/hostile_inputs.py``.  The cases
are small; the whole run takes about a minute.
"""
import os
import re
import sys
import warnings
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_hostile_inputs as hostile  # noqa: E402  (the cases and their expectations)

from common import environment_line  # noqa: E402

MESSAGE_CHARS = 60


def _short(message):
    message = str(message).splitlines()[0]
    if len(message) > MESSAGE_CHARS:
        message = message[:MESSAGE_CHARS - 1] + "…"
    return message.replace("|", "\\|")


def outcome(case, name, check, fit):
    """The cell of ``case`` for estimator or learner ``name``."""
    expected = case.expected(name)
    if isinstance(expected, hostile.Raises):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fit(case, name)
        except ValueError as error:
            cell = f"ValueError: {_short(error)}"
            return cell if re.search(expected.match, str(error)) else f"MISMATCH {cell}"
        except Exception as error:  # noqa: BLE001 -- shown in the table, not hidden
            return f"MISMATCH {type(error).__name__}: {_short(error)}"
        return "MISMATCH: no error"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = check(name, case, expected)
    except AssertionError as error:
        return f"MISMATCH: {_short(error) or 'assertion failed'}"
    except Exception as error:  # noqa: BLE001
        return f"MISMATCH {type(error).__name__}: {_short(error)}"
    if found["accuracy"] is None:
        cell = "model (0 rows predicted: empty)"
    else:
        cell = f"model (acc {found['accuracy']:.3f}"
        if found["reference"] is not None:
            label = ("unscaled" if found["reference_name"] == "unscaled"
                     else f"same as {found['reference_name']}")
            cell += f"; {label} {found['reference']:.3f}"
        cell += ")"
    if found["warnings"]:
        cell = f"warning: {_short(found['warnings'][0])}; {cell}"
    return cell


def _fit_core(case, name):
    return hostile.fit_core(name, case.make())


def _fit_orange(case, name):
    made = case.make()
    return hostile.orange_learner(name, made)(made["data"])


def table(cases, names, check, fit, short_names):
    lines = ["| case | " + " | ".join(short_names) + " |",
             "|---|" + "---|" * len(names)]
    for case in cases:
        cells = [outcome(case, name, check, fit) for name in names]
        lines.append(f"| {case.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def expected_text(case):
    """What the tests assert for ``case``, per algorithm where the algorithms differ."""
    if not isinstance(case.expect, dict):
        return case.expect.describe()
    parts = [f"{family}: {outcome.describe()}" for family, outcome in case.expect.items()
             if family != "*"]
    if "*" in case.expect:
        parts.append(f"others: {case.expect['*'].describe()}")
    return "; ".join(parts)


def expected_table(cases):
    lines = ["| case | data | expected (asserted by the tests) |", "|---|---|---|"]
    for case in cases:
        lines.append(f"| {case.name} | {case.description} | "
                     f"{expected_text(case).replace('|', chr(92) + '|')} |")
    return "\n".join(lines)


def main():
    print(environment_line(os.environ.get("OPENBLAS_NUM_THREADS")))
    print()
    print("Expected, core estimators:")
    print()
    print(expected_table(hostile.CORE_CASES))
    print()
    print("Expected, Orange learners:")
    print()
    print(expected_table(hostile.ORANGE_CASES))
    print()
    print("Outcome, core estimators (``orangecontrib.oblique.core``):")
    print()
    print(table(hostile.CORE_CASES, list(hostile.CORE_ESTIMATORS), hostile.check_core_model,
                _fit_core, ["GeometricTree", "OC1", "ODTSVM", "HedgeEnsemble",
                            "ObliqueForest"]))
    print()
    print("Outcome, Orange learners (``orangecontrib.oblique``):")
    print()
    print(table(hostile.ORANGE_CASES, list(hostile.ORANGE_LEARNERS),
                hostile.check_orange_model, _fit_orange,
                ["GeometricTreeLearner", "OC1Learner", "ODTSVMLearner",
                 "HedgeEnsembleLearner", "ObliqueForestLearner"]))


if __name__ == "__main__":
    main()
