"""Fit time of GDT, OC1, ODT-SVM and Hedge against scikit-learn's CART and STree.

Data sets (everything loads offline):

* real: the classification sets Orange bundles -- ``iris``, ``heart_disease``, ``zoo``,
  ``titanic``, ``brown-selected`` -- turned into numbers by Orange's own preprocessing
  (``Continuize`` then ``Impute`` on the whole table, as in ``benchmarks/oc1.py``), and
  scikit-learn's ``load_breast_cancer`` (UCI WDBC, 569 × 30) and ``load_wine``;
* synthetic, drawn once with seed 0 by ``orangecontrib.oblique.core.datasets`` (2000 rows):
  the GDT paper's ``checkerboard_2x2``, ``checkerboard_4x4`` and ``synthetic_10d`` and the
  OC1 paper's ``LS10``, ``POL`` (parallel oblique lines) and ``RCB`` (rotated checkerboard).

Every learner sees the same numbers.

Learners, with their defaults (``random_state=0`` where they draw):

* CART: ``sklearn.tree.DecisionTreeClassifier(random_state=0)``, the reference of every
  ratio (always run);
* GDT: ``GeometricTreeClassifier()``; OC1: ``OC1Classifier(random_state=0)`` (twoing, 20
  restarts, 5 jumps, 10 % pruning set); ODT-SVM: ``ODTSVMClassifier(random_state=0)``;
  Hedge: ``HedgeEnsembleClassifier(random_state=0)`` (10 ODT-SVM trees);
* STree: ``stree.Stree(random_state=0)`` (linear SVM nodes, C = 1), the published oblique
  SVM tree ODT-SVM is measured against.  It gets the columns standardised (a
  ``StandardScaler`` fitted on the training rows, outside the timing), as its documentation
  advises.  STree is only in the ``benchmark`` extra (``pip install .[benchmark]`` or
  ``pip install stree``); without it its column and its goal check are left out, with a
  note.

Method: one stratified split per set, 90 % training and 10 % held-out rows
(``StratifiedShuffleSplit(test_size=0.1, random_state=0)``); every learner is fitted
``--repeats`` times (default 5; Hedge ``--hedge-repeats``, default 3) on the same training
rows, and its fit time is the **median** of those fits, timed around the fit call only
(``time.perf_counter``, or the process's CPU time with ``--clock cpu``).  The fits run one
after another in this one process, learner after learner within each repetition (so that
a change in the machine's load falls on every learner alike), after one untimed warm-up fit
of each learner (which also compiles the core's numba kernels, when they are on: the
script prints whether they are); BLAS and OpenMP are limited to one thread
(``--blas-threads``).
Accuracy is that of the first fit on the held-out 10 % (the fits are deterministic).

The script ends with the goal checks -- GDT at most 3 × CART's fit time on
every set, ODT-SVM at most STree's on every real set -- PASS or FAIL per set, and our OC1
fit time beside the original OC1 C program's quoted CPU times, where we
have the set.

Run ``python benchmarks/speed.py`` (5 minutes on a busy 2-core machine, 2026-11-23; the
figures and their reading are in ``doc/speed.md``), choose with ``--sets`` and
``--learners``, or ``--quick`` for a smoke run (one fit each, iris and a 200-row
checkerboard_2x2 unless ``--sets`` names others, synthetic sets of 200 rows).
"""
import gc
import sys
import time
import warnings

import numpy as np

# Orange's dependencies warn about their own deprecations on import; not ours to report.
warnings.filterwarnings("ignore", category=DeprecationWarning)

from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from orangecontrib.oblique.core import datasets as generators

from common import (add_blas_threads, add_repeats, argument_parser, comma_separated,
                    core_learner, counted_warnings, environment_line, kernels_line,
                    print_aligned, print_total_time, require_positive, timed_fit)
from oc1 import orange_numeric

DATA_SEED = 0
SPLIT_SEED = 0
TEST_SIZE = 0.1
N_SYNTHETIC, N_SYNTHETIC_QUICK = 2000, 200
ORANGE_SETS = ("iris", "heart_disease", "zoo", "titanic", "brown-selected")
SKLEARN_SETS = {"breast_cancer": load_breast_cancer, "wine": load_wine}
REAL_SETS = ORANGE_SETS + tuple(SKLEARN_SETS)
SYNTHETIC_SETS = {"checkerboard_2x2": generators.checkerboard_2x2,
                  "checkerboard_4x4": generators.checkerboard_4x4,
                  "synthetic_10d": generators.synthetic_10d,
                  "LS10": generators.ls10,
                  "POL": generators.parallel_oblique_lines,
                  "RCB": generators.rotated_checkerboard}
SETS = REAL_SETS + tuple(SYNTHETIC_SETS)
QUICK_SETS = ("iris", "checkerboard_2x2")
#: Learners measured against CART (which always runs), in the table's order.
LEARNERS = ("GDT", "OC1", "ODT-SVM", "STree", "Hedge")
#: The goal: GDT's fit at most this many times CART's.
GDT_GOAL = 3.0
#: The original OC1 C program's quoted CPU seconds, and our set for each
#: (None: not available offline).
OC1_C_SECONDS = {"pima": (0.23, None), "vehicle": (0.41, None),
                 "breast cancer": (0.15, "breast_cancer"), "bupa": (0.07, None),
                 "iris": (0.008, "iris")}
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def load_set(name, n_synthetic=N_SYNTHETIC):
    """``(X, y)`` of the set ``name`` (one of :data:`SETS`)."""
    if name in ORANGE_SETS:
        return orange_numeric(name)
    if name in SKLEARN_SETS:
        return SKLEARN_SETS[name](return_X_y=True)
    return SYNTHETIC_SETS[name](n_samples=n_synthetic, random_state=DATA_SEED)


def stree_class():
    """``stree.Stree``, or None when the benchmark extra is not installed."""
    try:
        from stree import Stree
    except ImportError:
        return None
    return Stree


def make_learner(name, stree=None):
    """A fresh estimator: STree from the class ``stree``, the others from ``common``."""
    return stree(random_state=0) if name == "STree" else core_learner(name)


def held_out_split(y):
    """``(train, test)`` row indices: the stratified 90 % / 10 % split of every set."""
    splitter = StratifiedShuffleSplit(n_splits=1, test_size=TEST_SIZE,
                                      random_state=SPLIT_SEED)
    return next(splitter.split(np.zeros(len(y)), y))


def measure(X, y, train, test, names, repeats, hedge_repeats=None, clock="wall",
            stree=None):
    """Fit every learner of ``names`` on the rows ``train``, ``repeats`` times each.

    Returns, per learner, ``{"seconds": [one per fit], "accuracy": accuracy of the first fit
    on the rows ``test``, "warnings": {message: count}}``.  Hedge is fitted
    ``hedge_repeats`` times (default ``repeats``); the learners take turns within each
    repetition.  STree (from the class ``stree``) gets the columns standardised.
    """
    y_train = y[train]
    scaler = StandardScaler().fit(X[train])
    data = {"raw": (X[train], X[test]),
            "standardised": (scaler.transform(X[train]), scaler.transform(X[test]))}
    counts = {name: (hedge_repeats or repeats) if name == "Hedge" else repeats
              for name in names}
    results = {name: {"seconds": [], "accuracy": None, "warnings": {}} for name in names}
    for repetition in range(max(counts.values())):
        for name in names:
            if repetition >= counts[name]:
                continue
            X_train, X_test = data["standardised" if name == "STree" else "raw"]
            learner = make_learner(name, stree)
            gc.collect()
            with counted_warnings(results[name]["warnings"]):
                model, seconds = timed_fit(lambda: learner.fit(X_train, y_train),
                                           CLOCKS[clock])
                if repetition == 0:
                    results[name]["accuracy"] = float(np.mean(model.predict(X_test)
                                                              == y[test]))
            results[name]["seconds"].append(seconds)
    return results


def warm_up(names, stree=None):
    """One untimed fit of every learner on iris, so that no timing pays for first imports
    or just-in-time compilation."""
    X, y = orange_numeric("iris")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            make_learner(name, stree).fit(X, y)


def median_seconds(results, name):
    return float(np.median(results[name]["seconds"])) if name in results else None


def seconds_text(seconds):
    return "-" if seconds is None else f"{seconds:.4f}" if seconds < 10 else f"{seconds:.2f}"


def ratio_text(numerator, denominator):
    if numerator is None or denominator is None or denominator <= 0:
        return "-"
    ratio = numerator / denominator
    return f"{ratio:.2f}" if ratio < 10 else f"{ratio:.0f}"


def time_table(measured, names):
    """Header and rows of the fit-time table: median seconds and ratios of every learner."""
    with_stree = "STree" in names
    header = ["set", "rows×cols", "CART s"]
    for name in names:
        header += [f"{name} s"] + (["×CART"] if name != "STree" else [])
        header += ["×STree"] if name == "ODT-SVM" and with_stree else []
    rows = []
    for title, entry in measured.items():
        results = entry["results"]
        cart = median_seconds(results, "CART")
        row = [title, "×".join(map(str, entry["shape"])), seconds_text(cart)]
        for name in names:
            own = median_seconds(results, name)
            row += [seconds_text(own)] + ([ratio_text(own, cart)] if name != "STree" else [])
            if name == "ODT-SVM" and with_stree:
                row.append(ratio_text(own, median_seconds(results, "STree")))
        rows.append(row)
    return header, rows


def accuracy_table(measured, names):
    """Header and rows of the held-out accuracy table (% of the held-out rows)."""
    header = ["set", "held-out rows"] + [f"{name} %" for name in ("CART", *names)]
    rows = [[title, entry["n_test"]] + [f"{100 * entry['results'][name]['accuracy']:.1f}"
                                        for name in ("CART", *names)]
            for title, entry in measured.items()]
    return header, rows


def goal_lines(measured, names):
    """The goal checks: a line per set and a verdict per goal."""
    checks = []
    if "GDT" in names:
        checks.append((f"GDT ≤ {GDT_GOAL:g}× CART on every set", "GDT", "CART", GDT_GOAL,
                       list(measured)))
    if "ODT-SVM" in names and "STree" in names:
        checks.append(("ODT-SVM ≤ STree on every bundled real set", "ODT-SVM", "STree", 1.0,
                       [title for title in measured if title in REAL_SETS]))
    lines = []
    for goal, name, reference, factor, titles in checks:
        lines.append(f"Goal: {goal}")
        passed = 0
        for title in titles:
            results = measured[title]["results"]
            own, other = median_seconds(results, name), median_seconds(results, reference)
            verdict = "PASS" if own <= factor * other else "FAIL"
            passed += verdict == "PASS"
            lines.append(f"  {title:<18} {name} {seconds_text(own)} s = "
                         f"{ratio_text(own, other)} × {reference} {seconds_text(other)} s"
                         f"  {verdict}")
        overall = "PASS" if titles and passed == len(titles) else "FAIL"
        lines.append(f"  => {overall} ({passed} of {len(titles)} sets)")
    return lines


def oc1_reference_lines(measured):
    """Our OC1 fit time beside the original C program's quoted CPU times."""
    lines = ["OC1 beside the original OC1 C program's CPU seconds as quoted "
             "(another machine and program; a reference, not a measurement here -- "
             "benchmarks/oc1_c.py runs the C program beside ours on the same folds):"]
    for title, (c_seconds, ours) in OC1_C_SECONDS.items():
        if ours is None:
            text = "not bundled (nothing is downloaded)"
        elif ours not in measured or "OC1" not in measured[ours]["results"]:
            text = "not run"
        else:
            entry = measured[ours]
            text = (f"ours {seconds_text(median_seconds(entry['results'], 'OC1'))} s on "
                    f"{ours} ({'×'.join(map(str, entry['shape']))}, fitted on "
                    f"{entry['n_train']} rows)")
        lines.append(f"  {title:<14} C {c_seconds:g} s   {text}")
    return lines


def warning_lines(measured):
    return [f"note: {title}: {name} fits raised {count} × {message}"
            for title, entry in measured.items()
            for name, result in entry["results"].items()
            for message, count in result["warnings"].items()]


def main(argv=None):
    parser = argument_parser(__doc__, "smoke run: one fit each; iris and checkerboard_2x2 "
                                      f"unless --sets; synthetic sets of {N_SYNTHETIC_QUICK} "
                                      "rows")
    parser.add_argument("--sets", type=comma_separated(SETS, "sets"), default=None,
                        help=f"comma-separated subset of {','.join(SETS)} (default all)")
    parser.add_argument("--learners", type=comma_separated(LEARNERS, "learners"),
                        default=LEARNERS, help=f"comma-separated subset of "
                        f"{','.join(LEARNERS)} (default all; CART always runs)")
    add_repeats(parser, 5, "fits per learner and set, the median is shown")
    parser.add_argument("--hedge-repeats", type=int, default=3,
                        help="fits of the Hedge ensemble per set (default 3)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall",
                        help="wall: time.perf_counter (default); cpu: time.process_time")
    add_blas_threads(parser)
    args = parser.parse_args(argv)
    if args.quick:
        repeats = hedge_repeats = 1
        sets, n_synthetic = args.sets or QUICK_SETS, N_SYNTHETIC_QUICK
    else:
        repeats, hedge_repeats = args.repeats, args.hedge_repeats
        sets, n_synthetic = args.sets or SETS, N_SYNTHETIC
    require_positive(parser, "--repeats and --hedge-repeats", repeats, hedge_repeats)

    names = tuple(name for name in LEARNERS if name in args.learners)
    stree = stree_class() if "STree" in names else None
    notes = []
    if "STree" in names and stree is None:
        names = tuple(name for name in names if name != "STree")
        notes.append("note: STree is not installed (pip install stree, or the add-on's "
                     "benchmark extra: pip install .[benchmark]); its column and the "
                     "ODT-SVM ≤ STree check are left out.")

    start = time.perf_counter()
    print(environment_line(args.blas_threads))
    print(kernels_line())
    hedge_note = f" ({hedge_repeats} for Hedge)" if "Hedge" in names else ""
    print(f"Fit time: median of {repeats} fit(s) per learner{hedge_note} "
          f"on the same stratified {100 - 100 * TEST_SIZE:.0f} % of the rows (seed "
          f"{SPLIT_SEED}), "
          f"{'wall clock' if args.clock == 'wall' else 'process CPU time'}, fit call only; "
          f"ratios are of the medians.  Accuracy: first fit, on the held-out "
          f"{100 * TEST_SIZE:.0f} %.  STree gets standardised columns.")
    for note in notes:
        print(note)
    sys.stdout.flush()
    measured = {}
    with threadpool_limits(limits=args.blas_threads):
        warm_up(("CART", *names), stree)
        for title in sets:
            X, y = load_set(title, n_synthetic)
            train, test = held_out_split(y)
            results = measure(X, y, train, test, ("CART", *names), repeats, hedge_repeats,
                              args.clock, stree)
            measured[title] = {"shape": X.shape, "n_train": len(train),
                               "n_test": len(test), "results": results}
            print(f"  {title}: {time.perf_counter() - start:.0f} s so far", file=sys.stderr)
    print("\nFit time, seconds (×CART, ×STree: ratio of the medians)")
    print_aligned(*time_table(measured, names))
    print("\nAccuracy on the held-out rows, %")
    print_aligned(*accuracy_table(measured, names))
    for block in (goal_lines(measured, names),
                  oc1_reference_lines(measured) if "OC1" in names else [],
                  warning_lines(measured)):
        if block:
            print("\n" + "\n".join(block))
    print_total_time(start)
    return measured


if __name__ == "__main__":
    main()
