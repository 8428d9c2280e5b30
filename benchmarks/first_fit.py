"""The first fit of each learner with an empty kernel cache, and the ahead-compile of
every kernel (goals: a first fit on wine at most 10 s of CPU, the ahead-compile at most
60 s, on a 2-core machine).

    .venv/bin/python benchmarks/first_fit.py [--learners GDT,ODT-SVM] [--no-ahead]

Each learner gets a fresh Python process whose ``NUMBA_CACHE_DIR`` (numba's own setting,
set in that child process only) is a new empty temporary directory, so every kernel the
fit calls is compiled there.  The child imports the package, fits the learner (its
defaults, ``random_state=0`` where it draws) on scikit-learn's ``load_wine(return_X_y=True)``
and reports the fit's CPU time (``time.process_time``, the work whatever the load of the
machine) and wall time, and how many compiled specializations the package's kernels hold
after it (``len(kernel.signatures)`` summed over every numba dispatcher of
``orangecontrib.oblique``), with the kernels compiled for more than one.  The
ahead-compile is ``python -m orangecontrib.oblique.core.compilation`` in another fresh
process and empty cache (its CPU time is the child's, from ``os.wait4``).  BLAS gets one
thread.  Wall times depend on the load of the machine; CPU times much less.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

LEARNERS = {
    "GDT": "GeometricTreeClassifier()",
    "OC1": "OC1Classifier(random_state=0)",
    "ODT-SVM": "ODTSVMClassifier(random_state=0)",
    "Hedge": "HedgeEnsembleClassifier(random_state=0)",
    "Forest": "ObliqueForestClassifier(random_state=0)",
}

#: The child's program: fit one learner on wine, print the times and specializations.
CHILD = """
import json, sys, time
import numpy as np
from numba.core.registry import CPUDispatcher
from sklearn.datasets import load_wine
from orangecontrib.oblique.core import (GeometricTreeClassifier, OC1Classifier,
    ODTSVMClassifier, HedgeEnsembleClassifier, ObliqueForestClassifier)
X, y = load_wine(return_X_y=True)
estimator = {estimator}
cpu, wall = time.process_time(), time.perf_counter()
estimator.fit(X, y)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
several = {{}}
total = 0
for name, module in sorted(sys.modules.items()):
    if not name.startswith("orangecontrib.oblique"):
        continue
    for attribute, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
            total += len(value.signatures)
            if len(value.signatures) > 1:
                several[name.rsplit(".", 2)[-2] + "." + name.rsplit(".", 1)[-1]
                        + "." + attribute] = len(value.signatures)
print(json.dumps({{"cpu": cpu, "wall": wall, "specializations": total,
                  "several": several}}))
"""


def child_environment(cache):
    """This process's environment with an empty numba cache and one BLAS thread."""
    environment = dict(os.environ, NUMBA_CACHE_DIR=cache)
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        environment[variable] = "1"
    return environment


def first_fit(learner):
    """The child's report of the first fit of ``learner`` in an empty cache."""
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        result = subprocess.run(
            [sys.executable, "-c", CHILD.format(estimator=LEARNERS[learner])],
            env=child_environment(cache), capture_output=True, text=True, check=False)
    if result.returncode:
        raise RuntimeError(f"{learner}: the child failed\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def ahead_compile():
    """CPU and wall time of ``python -m orangecontrib.oblique.core.compilation`` in an
    empty cache."""
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        wall = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "orangecontrib.oblique.core.compilation"],
            env=child_environment(cache), stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - wall
    if status:
        raise RuntimeError("the ahead-compile failed")
    return usage.ru_utime + usage.ru_stime, wall


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", default=",".join(LEARNERS),
                        help="comma-separated, of " + ", ".join(LEARNERS))
    parser.add_argument("--no-ahead", action="store_true",
                        help="leave out the ahead-compile of every kernel")
    args = parser.parse_args(argv)
    learners = [name.strip() for name in args.learners.split(",") if name.strip()]
    unknown = [name for name in learners if name not in LEARNERS]
    if unknown:
        parser.error(f"unknown learners: {', '.join(unknown)}")
    print("First fit on wine (178 x 13) with an empty numba cache, a fresh process each")
    print(f"{'learner':<10}{'CPU s':>8}{'wall s':>9}{'specializations':>17}  "
          "kernels compiled for more than one")
    for learner in learners:
        report = first_fit(learner)
        several = ", ".join(f"{name} ({count})" for name, count
                            in sorted(report["several"].items())) or "none"
        print(f"{learner:<10}{report['cpu']:>8.1f}{report['wall']:>9.1f}"
              f"{report['specializations']:>17}  {several}", flush=True)
    if not args.no_ahead:
        cpu, wall = ahead_compile()
        print(f"Ahead-compile of every kernel (python -m "
              f"orangecontrib.oblique.core.compilation): CPU {cpu:.1f} s, wall {wall:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
