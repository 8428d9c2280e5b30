"""Prediction time: ``predict_proba`` of 200,000 rows against scikit-learn's trees
(goals: every single tree at most 2x ``DecisionTreeClassifier``, the Oblique Forest at most
2x ``RandomForestClassifier(100)``, Hedge at most 15x ``DecisionTreeClassifier``).

    .venv/bin/python benchmarks/prediction.py [--rows 200000] [--repeats 3] [--learners ...]

Every learner is fitted with its benchmark settings (``common.core_learner``; the forests
with ``n_jobs=1``, one process, for a like-for-like comparison) on scikit-learn's breast
cancer data (569 rows, 30 attributes).  The rows predicted are ``--rows`` rows drawn from
it (seed 0) with Gaussian noise of a tenth of every attribute's standard deviation added:
30 columns, new rows near the training ones.  After one untimed warm-up call on 1,000 of
them (kernels loaded), the time is the median of ``--repeats`` calls of
``predict_proba`` on all rows, on the wall clock, BLAS with one thread.  The ratio is the
time over the reference's: CART for the single trees and Hedge, RF for the Oblique Forest.
"""
import os
import sys
import time

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# pylint: disable=wrong-import-position
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (CORE_LEARNERS, argument_parser, comma_separated,  # noqa: E402
                    core_learner, environment_line, kernels_line, print_aligned)

#: The goal of every learner: (its reference, the largest ratio of their times).
GOALS = {"GDT": ("CART", 2.0), "OC1": ("CART", 2.0), "ODT-SVM": ("CART", 2.0),
         "Hedge": ("CART", 15.0), "Forest": ("RF", 2.0)}


def prediction_rows(X, n_rows, seed=0):
    """``n_rows`` rows of ``X`` drawn with replacement, with Gaussian noise of a tenth of
    every column's standard deviation added."""
    rng = np.random.default_rng(seed)
    rows = X[rng.integers(0, X.shape[0], n_rows)]
    return rows + rng.normal(size=rows.shape) * (0.1 * X.std(axis=0))


def median_time(call, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main():
    parser = argument_parser(__doc__)
    parser.add_argument("--rows", type=int, default=200_000,
                        help="rows predicted (default 200000)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="timed calls of predict_proba (default 3)")
    parser.add_argument("--learners", type=comma_separated(CORE_LEARNERS),
                        default=CORE_LEARNERS, help="comma-separated, default all")
    options = parser.parse_args()
    if options.rows < 1 or options.repeats < 1:
        parser.error("--rows and --repeats must be at least 1")
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True)
    rows = prediction_rows(X, options.rows)
    names = list(options.learners)
    for reference in ("CART", "RF"):  # the references of the ratios
        if reference not in names:
            names.append(reference)
    seconds = {}
    for name in names:
        model = core_learner(name, n_jobs=1).fit(X, y)
        model.predict_proba(rows[:1000])  # warm-up: kernels loaded
        seconds[name] = median_time(lambda: model.predict_proba(rows), options.repeats)
    print(environment_line(1))
    print(kernels_line())
    print(f"predict_proba of {options.rows:,} rows x {rows.shape[1]} (breast cancer "
          f"with noise), median of {options.repeats} calls after a warm-up; forests "
          f"with n_jobs=1.")
    table = []
    for name in names:
        reference, goal = GOALS.get(name, (None, None))
        ratio = seconds[name] / seconds[reference] if reference else None
        table.append([name, f"{seconds[name]:.3f}",
                      "" if reference is None else f"{ratio:.2f}x {reference}",
                      "" if goal is None else f"<= {goal:g}x",
                      "" if goal is None else ("yes" if ratio <= goal else "NO")])
    print_aligned(["learner", "seconds", "ratio", "goal", "met"], table)


if __name__ == "__main__":
    main()
