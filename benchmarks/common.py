"""Helpers shared by the benchmark scripts (run as ``python benchmarks/<name>.py``): the
command line, the preamble, the cross-validation table, the count of warnings, the core
estimators with their benchmark settings and a plain aligned table."""
import argparse
import os
import platform
import time
import warnings
from contextlib import contextmanager

import numpy as np

#: Every benchmark uses stratified 10-fold cross-validation.
N_FOLDS = 10


def timed_fit(fit, clock=time.perf_counter):
    """``(model, seconds)``: ``fit()`` timed with ``clock`` (default ``time.perf_counter``,
    the wall clock; ``time.process_time`` for the process's CPU time) and nothing else."""
    start = clock()
    model = fit()
    return model, clock() - start


#: The core estimators as the benchmarks fit them: their defaults, ``random_state=0`` where
#: they draw; scikit-learn's CART as the axis-parallel reference.
CORE_LEARNERS = ("GDT", "OC1", "ODT-SVM", "Hedge", "Forest", "CART", "RF")


def core_learner(name, random_state=0, n_jobs=None):
    """A fresh, unfitted estimator named in :data:`CORE_LEARNERS` (imported here, so that a
    spawned child that only imports a benchmark's module stays light): "Forest" is the
    Oblique Forest (SPORF, 100 trees), "RF" scikit-learn's random forest (100 trees) as
    its axis-parallel reference; ``n_jobs`` goes to the ensembles (Hedge, Forest, RF)."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                            OC1Classifier, ObliqueForestClassifier,
                                            ODTSVMClassifier)
    return {
        "GDT": lambda: GeometricTreeClassifier(),
        "OC1": lambda: OC1Classifier(random_state=random_state),
        "ODT-SVM": lambda: ODTSVMClassifier(random_state=random_state),
        "Hedge": lambda: HedgeEnsembleClassifier(random_state=random_state, n_jobs=n_jobs),
        "Forest": lambda: ObliqueForestClassifier(random_state=random_state, n_jobs=n_jobs),
        "CART": lambda: DecisionTreeClassifier(random_state=random_state),
        "RF": lambda: RandomForestClassifier(random_state=random_state, n_jobs=n_jobs),
    }[name]()


def comma_separated(choices, what="names"):
    """An argparse ``type``: a comma-separated subset of ``choices`` as a tuple, in the order
    given; an unknown name is a usage error that lists the choices."""
    def parse(text):
        names = tuple(name.strip() for name in text.split(",") if name.strip())
        unknown = [name for name in names if name not in choices]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {unknown or text!r}; choose from {', '.join(choices)}")
        return names
    return parse


def environment_line(blas_threads):
    """Versions, CPU count and threading of the run, printed at the top of every table."""
    import Orange
    import sklearn
    return (f"Python {platform.python_version()}, numpy {np.__version__}, "
            f"scikit-learn {sklearn.__version__}, Orange {Orange.__version__}; "
            f"{os.cpu_count()} CPUs; fits run sequentially, BLAS threads = {blas_threads}")


def kernels_line():
    """The numba that compiles the core's kernels (the core's fit times depend on it);
    with numba's ``NUMBA_DISABLE_JIT=1`` they run as Python."""
    import numba
    if numba.config.DISABLE_JIT:
        return "Compiled kernels: off (NUMBA_DISABLE_JIT=1), the kernels run as Python."
    return f"Compiled kernels: on (numba {numba.__version__})."


def mean_sd(percentages):
    """``"mean ± sd"`` of a few percentages (sd with ddof=1, ``n/a`` for one value)."""
    percentages = np.asarray(percentages, dtype=float)
    sd = f"{np.std(percentages, ddof=1):5.2f}" if len(percentages) > 1 else "  n/a"
    return f"{np.mean(percentages):>8.2f} ± {sd}"


def argument_parser(doc, quick_help=None):
    """A benchmark's command line, described by the first line of its docstring ``doc``;
    with ``--quick`` (a smoke run) if ``quick_help`` says what it runs."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    if quick_help is not None:
        parser.add_argument("--quick", action="store_true", help=quick_help)
    return parser


def add_repeats(parser, default, help_text="repetitions of stratified 10-fold CV"):
    parser.add_argument("--repeats", type=int, default=default,
                        help=f"{help_text} (default {default})")


def add_blas_threads(parser, what="BLAS threads while fitting"):
    parser.add_argument("--blas-threads", type=int, default=1, help=f"{what} (default 1)")


def require_positive(parser, options, *values):
    """Stop with a usage error naming ``options`` unless every value is at least 1."""
    if min(values) < 1:
        parser.error(f"{options} must be at least 1")


def print_preamble(blas_threads, accuracy, leaves="mean over all fitted folds"):
    """The environment and what the columns of the cross-validation tables mean."""
    print(environment_line(blas_threads))
    print(f"Accuracy: {accuracy}.")
    print(f"Leaves, depth: {leaves}.  Fit time: median over all folds, fit call only.")


def repetitions(repeats):
    """``"3 repetitions"``, ``"1 repetition"``."""
    return f"{repeats} repetition{'s' * (repeats > 1)}"


def fold_records(names):
    """Per learner, the lists of its folds' leaves, depths and fit seconds."""
    return {name: {"leaves": [], "depth": [], "seconds": []} for name in names}


def print_cv_table(accuracy, per_fold, name_width=13):
    """A row per learner of ``accuracy`` (in its order): accuracy % (mean ± sd), mean leaves
    and depth (``-`` where none were recorded) and median fit milliseconds."""
    header = (f"  {'learner':<{name_width}} {'accuracy %':>16} {'leaves':>8} {'depth':>7} "
              f"{'fit ms (median)':>16}")
    print(header)
    print("  " + "-" * (len(header) - 2))
    for name in accuracy:
        folds = per_fold[name]
        if folds["leaves"]:
            leaves = f"{np.mean(folds['leaves']):>8.1f}"
            depth = f"{np.mean(folds['depth']):>7.1f}"
        else:
            leaves, depth = f"{'-':>8}", f"{'-':>7}"
        print(f"  {name:<{name_width}} {mean_sd(100 * np.asarray(accuracy[name]))} {leaves} "
              f"{depth} {1000 * np.median(folds['seconds']):>16.2f}")


def print_aligned(header, rows, left=1, indent="  "):
    """A plain-text table: the first ``left`` columns left-aligned, the others right-aligned,
    every column as wide as its widest cell, a rule under the header."""
    widths = [max(len(str(row[j])) for row in (header, *rows)) for j in range(len(header))]

    def line(cells):
        return indent + " ".join(f"{cell:<{width}}" if j < left else f"{cell:>{width}}"
                                 for j, (cell, width) in enumerate(zip(map(str, cells),
                                                                       widths)))
    print(line(header))
    print(indent + "-" * (sum(widths) + len(widths) - 1))
    for row in rows:
        print(line(row))


@contextmanager
def counted_warnings(counts, prefix=""):
    """Count every warning raised in the block in ``counts`` (``prefix`` + category and
    message → count)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for warning in caught:
        message = f"{prefix}{warning.category.__name__}: {warning.message}"
        counts[message] = counts.get(message, 0) + 1


def print_total_time(start):
    print(f"\nTotal run time: {time.perf_counter() - start:.1f} s")
