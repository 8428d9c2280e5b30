"""Run every hostile-input case of ``tests/hostile_inputs/test_table.py`` on every
core estimator and Orange learner and print what happened, as the markdown tables of
``doc/robustness.md``.

Each cell is the outcome: ``model (acc …)`` (accuracy on the case's held-out rows if it has
them, else on its training rows; ``unscaled …`` is the accuracy of the same fit before the
data were rescaled, ``same as …`` that of the fit on equivalent data -- weights unscaled,
a dense array for a sparse one -- whose predictions it repeats), ``model (0 rows
predicted: empty)``, ``ValueError: …`` (the start of the message), or ``warning: …``
before the model.  A cell that differs from what the test asserts is marked ``MISMATCH``.

Then the probes beyond the table, each tried once and said what happens now: a deep
tree saved and copied, many classes in an ensemble and in OC1, a model loaded in a fresh process, a
model name in a report, a forest fitted on a data frame, rows on a printed boundary.

Run from the repository root: ``.venv/bin/python benchmarks/hostile_inputs.py`` (with
``--probes``: only the last table).  The cases are small; the whole run takes about two
minutes.
"""
import os
import re
import sys
import warnings
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# the cases and their expectations
from tests.hostile_inputs import test_table as hostile  # noqa: E402

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


# ----- the probes beyond the table -----

def deep_tree():
    """OC1 without a depth limit on 400 rows of alternating classes, saved and copied."""
    import copy
    import pickle

    from tests.learners.test_saved_models import alternating_labels

    from orangecontrib.oblique import OC1Learner
    model = OC1Learner(max_depth=None, pruning_portion=0.0, random_state=0)(
        alternating_labels(400))
    restored = pickle.loads(pickle.dumps(model))
    copied = copy.deepcopy(model)
    same = (restored.depth() == copied.depth() == model.depth()
            and restored.print_tree() == model.print_tree())
    return ("OC1Learner(max_depth=None), 400 rows of alternating classes; pickle, "
            "deepcopy", f"depth {model.depth()}; pickled and copied, "
            f"{'the same tree' if same else 'MISMATCH'}")


def two_thousand_classes():
    """6,000 random rows × 5 of 2,000 classes, 3 rows each."""
    import numpy as np
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(2000), 3)
    rng.shuffle(y)
    return rng.normal(size=(y.size, 5)), y


def many_classes():
    """An Oblique Forest of 2,000 classes (6,000 rows × 5): its trees' class counts."""
    import time

    from scipy import sparse

    from orangecontrib.oblique.core import ObliqueForestClassifier
    X, y = two_thousand_classes()
    start = time.perf_counter()
    forest = ObliqueForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    seconds = time.perf_counter() - start

    def size(matrix):
        return (matrix.data.nbytes + matrix.indices.nbytes + matrix.indptr.nbytes
                if sparse.issparse(matrix) else matrix.nbytes)
    trees = [member.tree_ for member in forest.estimators_]
    kept = sum(size(t.value) + size(t.proba) for t in trees) / len(trees)
    dense = sum(2 * t.node_count * t.n_classes * 8 for t in trees) / len(trees)
    return ("ObliqueForestClassifier(n_estimators=3), 2,000 classes, 6,000 rows × 5",
            f"{seconds / len(trees):.1f} s a tree; class counts {kept / 1e6:.1f} MB a tree "
            f"(sparse; dense {dense / 1e6:.0f} MB)")


def many_classes_oc1():
    """OC1 (its defaults) on 2,000 classes (6,000 rows × 5): CPU time and traced peak."""
    import time
    import tracemalloc


    from orangecontrib.oblique.core import OC1Classifier
    X, y = two_thousand_classes()
    OC1Classifier(random_state=0).fit(X[:60], y[:60] % 3)   # compiled kernels loaded
    tracemalloc.start()
    start = time.process_time()
    try:
        OC1Classifier(random_state=0).fit(X, y)
        seconds = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return ("OC1Classifier(), 2,000 classes, 6,000 rows × 5",
            f"{seconds:.0f} s CPU, traced peak {peak / 1e6:,.0f} MB")


def fresh_process():
    """A Hedge model saved and loaded in a new Python that has not imported the add-on."""
    import pickle
    import subprocess
    import tempfile

    import numpy as np
    from Orange.data import Table

    from orangecontrib.oblique import HedgeEnsembleLearner
    data = Table("heart_disease")
    model = HedgeEnsembleLearner(n_estimators=4, random_state=0)(data)
    with tempfile.TemporaryDirectory() as folder:
        saved, out = Path(folder, "model.pkcls"), Path(folder, "proba.npy")
        saved.write_bytes(pickle.dumps(model))
        code = ("import pickle, sys, numpy as np; from Orange.data import Table; "
                "assert not any(m.startswith('orangecontrib.oblique') for m in sys.modules); "
                "m = pickle.loads(open(sys.argv[1], 'rb').read()); "
                "np.save(sys.argv[2], m(Table('heart_disease'), m.Probs))")
        subprocess.run([sys.executable, "-c", code, str(saved), str(out)], check=True)
        loaded = np.load(out)
    # a table as a new session loads it (Orange maps the class values of another table
    # to the model's, renormalising the probabilities: alike in both processes)
    table = Table("heart_disease")
    same = np.array_equal(loaded, model(table, model.Probs))
    return ("HedgeEnsembleLearner on heart_disease (nominal, missing values), pickled, "
            "loaded in a fresh process", "the same probabilities on every row" if same
            else "MISMATCH: other probabilities")


def report_name():
    """A model named ``<img src=1 onerror=…>`` in the Oblique Tree Viewer's report."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from AnyQt.QtWidgets import QApplication
    from Orange.data import Table

    from orangecontrib.oblique import OC1Learner
    from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
    app = QApplication.instance() or QApplication([])  # noqa: F841 (kept while used)
    name = "<img src=1 onerror=alert(1)>"
    model = OC1Learner(random_state=0)(Table("iris"))
    model.name = name
    viewer = OWObliqueTreeViewer()
    viewer.set_tree(model)
    viewer.handleNewSignals()
    viewer.create_report_html()
    escaped = name not in viewer.report_html and "&lt;img" in viewer.report_html
    viewer.onDeleteWidget()
    # in code spans: the table is markdown, whose raw HTML a page would run
    return (f"model name `{name}` in the viewer's report",
            "escaped: `&lt;img src=1 …&gt;` (shown as text)" if escaped
            else "MISMATCH: HTML in the report")


def frame_names():
    """A forest and a Hedge ensemble fitted on a data frame: their member trees' text."""
    import numpy as np
    import pandas as pd

    from orangecontrib.oblique.core import HedgeEnsembleClassifier, ObliqueForestClassifier
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(150, 3)), columns=["alpha", "beta", "gamma"])
    y = (X.alpha + X.beta > 0).astype(int)
    texts = [ObliqueForestClassifier(n_estimators=2, random_state=0).fit(X, y)
             .estimators_[0].export_text(),
             HedgeEnsembleClassifier(n_estimators=2, random_state=0).fit(X, y)
             .estimators_[0].export_text()]
    named = all("alpha" in text or "beta" in text for text in texts)
    return ("member trees of ObliqueForestClassifier and HedgeEnsembleClassifier fitted "
            "on a DataFrame", f"first rule: {texts[0].splitlines()[0].strip('|- ')}; "
            f"{'column names' if named else 'MISMATCH: x1, x2'}")


def boundary_rows():
    """Every printed rule of a forest on integer data, read exactly, against the model."""
    import numpy as np
    from tests.helpers.printed_rules import condition_holds
    from tests.tree.test_printed_boundary import NAMES, integer_data

    from orangecontrib.oblique.core import ObliqueForestClassifier
    from orangecontrib.oblique.core.tree.rules import branch_conditions
    X, y = integer_data(6000, seed=1)
    X_new, _ = integer_data(6000, seed=2)
    forest = ObliqueForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    differ = {"training": 0, "new": 0}
    checked = 0
    for member in forest.estimators_:
        for split in member.tree_.splits:
            if split is None or not split.is_oblique:
                continue
            condition = branch_conditions(split, NAMES)[1]
            checked += 1
            for label, rows in (("training", X), ("new", X_new)):
                differ[label] += int(np.count_nonzero(
                    split.route(rows) != condition_holds(condition, NAMES, rows)))
    return ("ObliqueForestClassifier(n_estimators=4) on 6,000 integer rows; every oblique "
            "split's printed rule read exactly (fractions)",
            f"{checked} rules × 6,000 training and 6,000 new rows: {differ['training']} "
            f"and {differ['new']} rows routed otherwise than printed")


PROBES = (deep_tree, many_classes, many_classes_oc1, fresh_process, report_name,
          frame_names, boundary_rows)


def probes_table():
    lines = ["| kind | tried | what happens now |", "|---|---|---|"]
    for probe in PROBES:
        try:
            tried, happens = probe()
        except Exception as error:  # noqa: BLE001 -- shown in the table, not hidden
            tried, happens = probe.__doc__, f"MISMATCH {type(error).__name__}: {_short(error)}"
        lines.append(f"| {probe.__name__.replace('_', ' ')} | {tried} | {happens} |")
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    print(environment_line(os.environ.get("OPENBLAS_NUM_THREADS")))
    if argv == ["--probes"]:  # only the last table
        print()
        print(probes_table())
        return
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
    print()
    print("Probes beyond the table:")
    print()
    print(probes_table())


if __name__ == "__main__":
    main()
