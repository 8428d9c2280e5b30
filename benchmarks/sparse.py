"""Readable splits: accuracy and attributes per split of GDT, OC1 and ODT-SVM at max_terms k.

For every classification set Orange bundles (iris, heart_disease, zoo, titanic,
brown-selected) and scikit-learn's breast cancer (WDBC) and wine, 10-fold stratified
cross-validation (``StratifiedKFold(10, shuffle=True, random_state=0)``; every setting of a
learner sees the same folds) of the Orange learners ``GeometricTreeLearner()``,
``OC1Learner(random_state=0)`` and ``ODTSVMLearner(random_state=0)`` with ``max_terms`` =
1, 2, 3, 5 and None (dense, the papers' split).  Columns: accuracy pooled over the folds,
and the mean number of attributes (non-zero weights) per split over all splits of all
folds' trees.

The widgets' default for "Attributes per split" follows a rule written down before this
benchmark was run: **the smallest k of 1, 2, 3, 5 whose mean accuracy over these
sets is within 0.5 point of dense; if none is, the widget keeps all attributes (as in the
paper).**  The script prints the k each learner's rule gives; the widgets' defaults
follow it on ``--repeats 5`` (doc/readable-splits.md).

Run ``python benchmarks/sparse.py`` (all three learners) or ``--learners GDT,ODT-SVM``;
``--oc1-restarts`` sets OC1's restarts (default 20, the paper's and the learner's);
``--repeats R`` repeats the cross-validation with R shuffles of the folds
(``random_state`` 0 .. R−1) and pools the accuracy over all of them.

The cost of a readable split: the column "k=3 / dense time" is the fitting and
predicting time of all folds at ``max_terms=3`` over the dense learner's on the same folds
(goal: at most 3 on every set); the script prints the largest ratio of each learner.  The
settings take turns fold by fold, and the time is the process's CPU time (``--clock
wall`` for the wall clock): other work on the machine changes neither much.
"""
import sys
import time
import warnings

import numpy as np
import Orange
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

from common import N_FOLDS, add_blas_threads, argument_parser, environment_line, \
    print_total_time

from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner, OC1Learner

SETTINGS = (1, 2, 3, 5, None)
#: A k is within reach of dense when its mean accuracy is at most this many points lower.
TOLERANCE = 0.5


def sklearn_table(load):
    bunch = load()
    classes = np.unique(bunch.target)
    domain = Orange.data.Domain(
        [Orange.data.ContinuousVariable(str(name)) for name in bunch.feature_names],
        Orange.data.DiscreteVariable("class", values=[str(bunch.target_names[c])
                                                      for c in classes]))
    return Orange.data.Table.from_numpy(domain, bunch.data.astype(float),
                                        np.searchsorted(classes, bunch.target).astype(float))


def datasets():
    for name in ("iris", "heart_disease", "zoo", "titanic", "brown-selected"):
        yield name, Orange.data.Table(name)
    yield "breast_cancer", sklearn_table(load_breast_cancer)
    yield "wine", sklearn_table(load_wine)


def learner_factories(oc1_restarts):
    return {
        "GDT": lambda k: GeometricTreeLearner(max_terms=k),
        "OC1": lambda k: OC1Learner(max_terms=k, n_restarts=oc1_restarts, random_state=0),
        "ODT-SVM": lambda k: ODTSVMLearner(max_terms=k, random_state=0),
    }


#: The goal: a fit at max_terms=3 within this many times the dense fit's time.
TIME_GOAL = 3.0


#: The clocks of ``--clock``: the process's CPU time (the default: the work of the fits,
#: whatever else runs on the machine) or the wall clock.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def evaluate(table, make, repeats=1, clock=time.process_time):
    """Per setting: (pooled accuracy, mean attributes per split, seconds).  The settings
    take turns fold by fold, so that a change in the machine's load falls on all alike."""
    y = table.Y.astype(int)
    known = ~np.isnan(table.Y)
    folds = [fold for seed in range(repeats)
             for fold in StratifiedKFold(N_FOLDS, shuffle=True, random_state=seed).split(
                 np.zeros(known.sum()), y[known])]
    rows = np.flatnonzero(known)
    correct = dict.fromkeys(SETTINGS, 0)
    terms = {k: [] for k in SETTINGS}
    seconds = dict.fromkeys(SETTINGS, 0.0)
    for train, test in folds:
        for k in SETTINGS:
            start = clock()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = make(k)(table[rows[train]])
                predicted = np.asarray(model(table[rows[test]])).astype(int)
            seconds[k] += clock() - start
            correct[k] += int(np.sum(predicted == y[rows[test]]))
            terms[k].extend(split.features_used.size for split in model.tree_.splits
                            if split is not None)
    return {k: (correct[k] / (len(rows) * repeats),
                float(np.mean(terms[k])) if terms[k] else 0.0, seconds[k])
            for k in SETTINGS}


def main():
    parser = argument_parser(__doc__)
    parser.add_argument("--learners", default="GDT,OC1,ODT-SVM",
                        help="comma-separated, of GDT, OC1, ODT-SVM (default: all)")
    parser.add_argument("--oc1-restarts", type=int, default=20,
                        help="OC1's restarts (default 20)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="cross-validations with different shuffles (default 1)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="the time of the fits: the process's CPU time (default) or "
                             "the wall clock")
    add_blas_threads(parser)
    options = parser.parse_args()
    factories = learner_factories(options.oc1_restarts)
    chosen = [name.strip() for name in options.learners.split(",")]
    unknown = [name for name in chosen if name not in factories]
    if unknown:
        parser.error(f"unknown learners {unknown}; choose from {list(factories)}")
    start = time.perf_counter()
    print(environment_line(options.blas_threads))
    print("Accuracy %: pooled over 10 folds; terms: mean attributes per split over all "
          "folds' trees.")
    print(f"Times: {'process CPU time' if options.clock == 'cpu' else 'wall clock'} of "
          f"fitting and predicting, the settings taking turns fold by fold.")
    header = "  ".join(f"{'k=' + str(k) if k else 'dense':>16}" for k in SETTINGS)
    means = {name: {k: [] for k in SETTINGS} for name in chosen}
    with threadpool_limits(options.blas_threads):
        for name in chosen:
            print(f"\n{name}" + (f" (n_restarts={options.oc1_restarts})"
                                 if name == "OC1" else ""))
            print(f"  {'data set':<16}{header}   k=3 / dense time")
            ratios = []
            for title, table in datasets():
                results = evaluate(table, factories[name], options.repeats,
                                   CLOCKS[options.clock])
                cells = "  ".join(f"{100 * acc:6.2f} ({terms:5.2f})"
                                  for acc, terms, _ in (results[k] for k in SETTINGS))
                seconds = sum(r[2] for r in results.values())
                ratios.append(results[3][2] / results[None][2])
                print(f"  {title:<16}{cells}   {ratios[-1]:5.2f}  [{seconds:.0f} s]")
                sys.stdout.flush()
                for k in SETTINGS:
                    means[name][k].append(results[k][:2])
            averages = {k: np.mean(np.array(means[name][k]), axis=0) for k in SETTINGS}
            print(f"  {'mean':<16}" + "  ".join(
                f"{100 * acc:6.2f} ({terms:5.2f})"
                for acc, terms in (averages[k] for k in SETTINGS)))
            dense = averages[None][0]
            within = [k for k in SETTINGS[:-1] if 100 * (dense - averages[k][0]) <= TOLERANCE]
            print(f"  k within {TOLERANCE} point of dense: "
                  f"{within or 'none'} -> widget default: "
                  f"{'at most ' + str(min(within)) if within else 'all (as in the paper)'}")
            print("  k = 3 minus dense: "
                  f"{100 * (averages[3][0] - dense):+.2f} points")
            print(f"  k = 3 / dense time: largest {max(ratios):.2f}, median "
                  f"{np.median(ratios):.2f} (goal: at most {TIME_GOAL:g} on every set: "
                  f"{'PASS' if max(ratios) <= TIME_GOAL else 'FAIL'})")
    print_total_time(start)


if __name__ == "__main__":
    main()
