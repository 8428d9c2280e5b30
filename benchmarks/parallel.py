"""Hedge ensemble fit time with 1 and 2 parallel jobs (issue 16: at least 1.7x faster with
2 jobs on a 2-core machine), and that both give the same ensemble.

    .venv/bin/python benchmarks/parallel.py [--repeats 3] [--quick]

The median of ``--repeats`` fits of ``HedgeEnsembleClassifier(random_state=0)`` (10
ODT-SVM members) per set and ``n_jobs``; the joblib worker processes are started by one
untimed fit first, as they are once per session.  BLAS gets one thread.
"""
import os
import sys

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# pylint: disable=wrong-import-position
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import argument_parser, print_aligned, timed_fit  # noqa: E402

GOAL = 1.7


def sets(quick):
    from sklearn.datasets import load_breast_cancer, load_wine
    from orangecontrib.oblique.core.datasets import checkerboard_4x4, synthetic_10d
    if quick:
        return {"wine": load_wine(return_X_y=True)}
    return {"breast_cancer": load_breast_cancer(return_X_y=True),
            "wine": load_wine(return_X_y=True),
            "checkerboard_4x4": checkerboard_4x4(2000, random_state=0),
            "synthetic_10d": synthetic_10d(2000, random_state=0)}


def main(argv=None):
    parser = argument_parser(__doc__, quick_help="one small set, 3 members")
    parser.add_argument("--repeats", type=int, default=3, help="fits per set and n_jobs")
    options = parser.parse_args(argv)
    from orangecontrib.oblique.core import HedgeEnsembleClassifier
    n_estimators = 3 if options.quick else 10
    data = sets(options.quick)
    first = next(iter(data.values()))
    HedgeEnsembleClassifier(n_estimators=2, n_jobs=2, random_state=0).fit(*first)
    print(f"{os.cpu_count()} cores; Hedge ensemble of {n_estimators} ODT-SVM trees; "
          f"median of {options.repeats} fits")
    rows, passed = [], True
    for name, (X, y) in data.items():
        medians, models = {}, {}
        for n_jobs in (1, 2):
            times = []
            for _ in range(options.repeats):
                model, seconds = timed_fit(lambda: HedgeEnsembleClassifier(
                    n_estimators=n_estimators, random_state=0, n_jobs=n_jobs).fit(X, y))
                times.append(seconds)
            medians[n_jobs], models[n_jobs] = float(np.median(times)), model
        same = np.array_equal(models[1].predict_proba(X), models[2].predict_proba(X))
        speedup = medians[1] / medians[2]
        ok = speedup >= GOAL and same
        passed &= ok
        rows.append((name, f"{X.shape[0]}×{X.shape[1]}", f"{medians[1]:.2f}",
                     f"{medians[2]:.2f}", f"{speedup:.2f}", "yes" if same else "NO",
                     "PASS" if ok else "FAIL"))
    print_aligned(("set", "rows×cols", "1 job s", "2 jobs s", "speed-up", "same", "goal"),
                  rows, left=2)
    print(f"goal: 2 jobs at least {GOAL}× faster than 1, the same ensemble: "
          f"{'PASS' if passed else 'FAIL'}")


if __name__ == "__main__":
    main()
