"""Oblique Forest (SPORF) against Orange's Random Forest, the Hedge ensemble and the single trees.

Data sets: those of ``benchmarks/odt_svm.py`` (its ``datasets``): every classification set
Orange bundles (iris, heart_disease, zoo, titanic, brown-selected) and scikit-learn's breast
cancer (WDBC) and wine -- the 7 *real* sets -- and the GDT paper's synthetic sets
(``checkerboard_2x2``, ``checkerboard_4x4``, ``synthetic_10d`` of
``orangecontrib.oblique.core.datasets``, 2000 rows drawn once with seed 0).  Orange tables
are used as they are; every learner applies its own preprocessors.

Learners (Orange learners, fitted on Orange tables):

* Oblique Forest: ``ObliqueForestLearner(oob_score=True)`` -- 100 trees, the defaults of
  SPORF's authors (``⌈√p⌉`` projections per node, 3 attributes per projection from 10
  attributes on, else 1), ``random_state=0``;
* Random Forest: Orange's ``RandomForestLearner(n_estimators=100, oob_score=True,
  random_state=0)`` (scikit-learn's forest: ``√p`` attributes per node, Gini, bootstrap);
* Hedge: ``HedgeEnsembleLearner(random_state=0)`` -- 10 ODT-SVM trees, each on 90 %;
* ODT-SVM, GDT, OC1: the single trees, ``ODTSVMLearner(random_state=0)``,
  ``GeometricTreeLearner()``, ``OC1Learner(random_state=0)`` with ``n_restarts=5`` by
  default (its default and the paper's are 20; ``--oc1-restarts 20``).

One stratified 10-fold cross-validation per set (``StratifiedKFold(10, shuffle=True,
random_state=0)``), the same folds for every learner.  Accuracy is pooled over the folds;
fit time is measured around the learner's call on the training fold only (both forests
fit their trees one after the other, ``n_jobs=1``, unless ``--jobs``) and summarised as the
median over the folds; the out-of-bag error of the two forests is the mean over the folds
of ``1 − oob_score_`` on the training fold.  Before any timing a small forest is fitted,
so that loading the compiled kernels (numba's cache) is not counted in the first fold.

The goal checks printed at the end:

* the Oblique Forest's mean accuracy over the 7 real sets is at least the Random Forest's
  + 1 point, and it is ahead on most of them;
* it is far ahead on oblique structure: at least 5 points above the Random Forest on
  ``synthetic_10d`` (the GDT paper: a random forest 66 %, one GDT tree 75 %);
* its fit time is at most 5 × the Random Forest's with the same number of trees and jobs
  (the ratio of the median fit times, on every set).

Run ``python benchmarks/forest.py``; ``--learners "Oblique Forest,Random Forest"`` for the
two forests only; ``--sets iris,wine`` for some of the sets; ``--quick`` for a smoke run
(synthetic sets of 300 rows, 10 trees).  ``--learners "Oblique Forest (OOB grid),..."`` adds
the forest with ``oob_grid_search=True``, the paper's choice of ``d`` and ``λ`` by
out-of-bag error (not in the default run: up to 25 forests per fit).
"""
import sys
import time
import warnings

import numpy as np

# Orange's dependencies warn about their own deprecations on import; not ours to report.
warnings.filterwarnings("ignore", category=DeprecationWarning)

from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

from Orange.classification import RandomForestLearner

from orangecontrib.oblique.learners import (GeometricTreeLearner, HedgeEnsembleLearner,
                                            OC1Learner, ObliqueForestLearner, ODTSVMLearner)

from common import (N_FOLDS, add_blas_threads, argument_parser, comma_separated,
                    counted_warnings, kernels_line, mean_sd, print_aligned, print_preamble,
                    print_total_time, require_positive, timed_fit)
from odt_svm import datasets, describe

FOREST, RANDOM_FOREST = "Oblique Forest", "Random Forest"
#: the Oblique Forest with ``oob_grid_search=True``: not run unless named (a forest for
#: each of up to 25 pairs of the paper's grid, up to p² projections per node)
OOB_GRID = "Oblique Forest (OOB grid)"
LEARNERS = (FOREST, RANDOM_FOREST, "Hedge", "ODT-SVM", "GDT", "OC1")
FORESTS = (FOREST, RANDOM_FOREST)
#: the sets by the first word of their titles (``--sets``)
SETS = ("iris", "heart_disease", "zoo", "titanic", "brown-selected", "breast_cancer", "wine",
        "checkerboard_2x2", "checkerboard_4x4", "synthetic_10d")
#: The goals the forest is checked against (printed at the end).
MIN_GAIN_REAL, MIN_GAIN_OBLIQUE, MAX_TIME_RATIO = 1.0, 5.0, 5.0
OBLIQUE_SET = "synthetic_10d"


class OOBGridForestLearner(ObliqueForestLearner):
    """The Orange learner of the Oblique Forest with ``oob_grid_search=True`` (the core
    forest's option; the learner does not pass it)."""
    name = OOB_GRID

    def create_estimator(self, domain=None):
        return super().create_estimator(domain).set_params(oob_grid_search=True)


def make_learners(names, n_trees, oc1_restarts, jobs):
    factories = {
        OOB_GRID: lambda: OOBGridForestLearner(n_estimators=n_trees, oob_score=True,
                                               n_jobs=jobs, random_state=0),
        FOREST: lambda: ObliqueForestLearner(n_estimators=n_trees, oob_score=True,
                                             n_jobs=jobs, random_state=0),
        RANDOM_FOREST: lambda: RandomForestLearner(n_estimators=n_trees, oob_score=True,
                                                   n_jobs=jobs, random_state=0),
        "Hedge": lambda: HedgeEnsembleLearner(random_state=0),
        "ODT-SVM": lambda: ODTSVMLearner(random_state=0),
        "GDT": lambda: GeometricTreeLearner(),
        "OC1": lambda: OC1Learner(n_restarts=oc1_restarts, random_state=0),
    }
    return {name: factories[name]() for name in names}


def oob_error(name, model):
    """``1 − oob_score_`` of a forest's model (None for the other learners)."""
    if name in (FOREST, OOB_GRID):
        return 1 - model.oob_accuracy
    if name == RANDOM_FOREST:
        return 1 - model.skl_model.oob_score_
    return None


def cross_validate(table, learners):
    """Per learner: the accuracy pooled over the folds, the fit seconds of every fold, the
    out-of-bag errors of every fold (forests) and the warnings (message → count)."""
    y = table.Y.astype(int)
    folds = StratifiedKFold(N_FOLDS, shuffle=True, random_state=0).split(np.zeros(len(y)), y)
    record = {name: dict(correct=0, seconds=[], oob=[], warned={}) for name in learners}
    for train, test in folds:
        train_table, test_table = table[train], table[test]  # outside the timing
        for name, learner in learners.items():
            entry = record[name]
            with counted_warnings(entry["warned"]):
                model, seconds = timed_fit(lambda: learner(train_table))
                entry["correct"] += int(np.sum(np.asarray(model(test_table)).astype(int)
                                               == y[test]))
            entry["seconds"].append(seconds)
            error = oob_error(name, model)
            if error is not None:
                entry["oob"].append(error)
    for entry in record.values():
        entry["accuracy"] = entry.pop("correct") / len(y)
    return record


def print_set(title, table, record):
    print(f"\n{title}  ({describe(table)})")
    rows = []
    for name, entry in record.items():
        oob = f"{100 * np.mean(entry['oob']):.2f}" if entry["oob"] else "-"
        rows.append((name, f"{100 * entry['accuracy']:.2f}",
                     f"{1000 * np.median(entry['seconds']):.1f}", oob))
    print_aligned(("learner", "accuracy %", "fit ms (median)", "OOB error %"), rows)
    for name, entry in record.items():
        for message, count in entry["warned"].items():
            print(f"  note: {name} warned {count} × {message}")


def print_summary(results, names):
    real = [title for title, (is_real, _) in results.items() if is_real]
    synthetic = [title for title, (is_real, _) in results.items() if not is_real]
    accuracy = {name: {title: 100 * record[name]["accuracy"]
                       for title, (_, record) in results.items()} for name in names}

    if real:
        print(f"\nMean accuracy over the {len(real)} real sets ({', '.join(real)}):")
        width = max(15, *(len(name) for name in names))
        for name in names:
            print(f"  {name:<{width}} {mean_sd([accuracy[name][t] for t in real])} %  "
                  f"(mean ± sd over the sets)")
    if FOREST not in names or RANDOM_FOREST not in names:
        return

    print("\nOblique Forest against the Random Forest, per set (accuracy points; median "
          "fit-time ratio; mean out-of-bag error %):")
    rows, ratios = [], {}
    for title, (_, record) in results.items():
        forest, other = record[FOREST], record[RANDOM_FOREST]
        ratios[title] = np.median(forest["seconds"]) / np.median(other["seconds"])
        rows.append((title, f"{accuracy[FOREST][title] - accuracy[RANDOM_FOREST][title]:+.2f}",
                     f"{ratios[title]:.2f}", f"{100 * np.mean(forest['oob']):.2f}",
                     f"{100 * np.mean(other['oob']):.2f}"))
    print_aligned(("set", "Δ accuracy", "time ratio", "OOB forest", "OOB RF"), rows)

    print("\nGoal checks:")
    if real:
        gain = (np.mean([accuracy[FOREST][t] for t in real])
                - np.mean([accuracy[RANDOM_FOREST][t] for t in real]))
        ahead = sum(accuracy[FOREST][t] > accuracy[RANDOM_FOREST][t] for t in real)
        behind = sum(accuracy[FOREST][t] < accuracy[RANDOM_FOREST][t] for t in real)
        print(f"  mean accuracy on the real sets ≥ Random Forest + {MIN_GAIN_REAL:g} point: "
              f"{gain:+.2f} points -> {'PASS' if gain >= MIN_GAIN_REAL else 'FAIL'}")
        print(f"  ahead on most real sets: ahead on {ahead}, behind on {behind}, level on "
              f"{len(real) - ahead - behind} of {len(real)} -> "
              f"{'PASS' if ahead > len(real) / 2 else 'FAIL'}")
    if OBLIQUE_SET in synthetic:
        oblique = accuracy[FOREST][OBLIQUE_SET] - accuracy[RANDOM_FOREST][OBLIQUE_SET]
        gdt = (f", one GDT tree {accuracy['GDT'][OBLIQUE_SET]:.2f} %"
               if "GDT" in names else "")
        print(f"  far ahead on oblique structure ({OBLIQUE_SET}): Oblique Forest "
              f"{accuracy[FOREST][OBLIQUE_SET]:.2f} %, Random Forest "
              f"{accuracy[RANDOM_FOREST][OBLIQUE_SET]:.2f} %{gdt}; "
              f"{oblique:+.2f} points (goal ≥ +{MIN_GAIN_OBLIQUE:g}) -> "
              f"{'PASS' if oblique >= MIN_GAIN_OBLIQUE else 'FAIL'}")
        for title in synthetic:
            print(f"    {title}: {accuracy[FOREST][title] - accuracy[RANDOM_FOREST][title]:+.2f}"
                  f" points")
    worst = max(ratios, key=ratios.get)
    geometric = float(np.exp(np.mean(np.log(list(ratios.values())))))
    print(f"  fit time ≤ {MAX_TIME_RATIO:g} × Random Forest (same trees and jobs): largest "
          f"ratio {ratios[worst]:.2f} ({worst}), geometric mean {geometric:.2f} -> "
          f"{'PASS' if ratios[worst] <= MAX_TIME_RATIO else 'FAIL'}")
    if OOB_GRID in names:
        print_oob_grid(results, accuracy, real)


def print_oob_grid(results, accuracy, real):
    """The forest of the paper's choice of ``d`` and ``λ`` by out-of-bag error against
    the Random Forest and the Oblique Forest of the defaults."""
    print(f"\n{OOB_GRID} against the Random Forest and the Oblique Forest (accuracy "
          f"points; median fit-time ratio to the Random Forest):")
    rows = []
    for title, (_, record) in results.items():
        ratio = np.median(record[OOB_GRID]["seconds"]) / np.median(
            record[RANDOM_FOREST]["seconds"])
        rows.append((title,
                     f"{accuracy[OOB_GRID][title] - accuracy[RANDOM_FOREST][title]:+.2f}",
                     f"{accuracy[OOB_GRID][title] - accuracy[FOREST][title]:+.2f}",
                     f"{ratio:.1f}"))
    print_aligned(("set", "Δ vs RF", "Δ vs defaults", "time ratio"), rows)
    if real:
        gain = (np.mean([accuracy[OOB_GRID][t] for t in real])
                - np.mean([accuracy[RANDOM_FOREST][t] for t in real]))
        print(f"  mean over the real sets: {gain:+.2f} points against the Random Forest")


def main(argv=None):
    parser = argument_parser(__doc__, "smoke run: synthetic sets of 300 rows, 10 trees")
    parser.add_argument("--learners", type=comma_separated(LEARNERS + (OOB_GRID,),
                                                           "learners"),
                        default=LEARNERS, help=f"comma-separated (default: "
                                               f"{', '.join(LEARNERS)}; also "
                                               f"'{OOB_GRID}', slow)")
    parser.add_argument("--sets", type=comma_separated(SETS, "sets"), default=SETS,
                        help=f"comma-separated (default all: {', '.join(SETS)})")
    parser.add_argument("--trees", type=int, default=100,
                        help="trees of both forests (default 100)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="n_jobs of both forests (default 1)")
    parser.add_argument("--oc1-restarts", type=int, default=5,
                        help="OC1's n_restarts (default 5; the learner's default is 20)")
    add_blas_threads(parser)
    args = parser.parse_args(argv)
    n_synthetic, n_trees = (300, 10) if args.quick else (2000, args.trees)
    require_positive(parser, "--trees and --oc1-restarts", n_trees, args.oc1_restarts)

    start = time.perf_counter()
    print_preamble(args.blas_threads, f"pooled over one stratified {N_FOLDS}-fold "
                   f"cross-validation (the same folds for every learner)", leaves="-")
    print(kernels_line())
    print(f"Forests: {n_trees} trees, n_jobs={args.jobs}; OC1: "
          f"n_restarts={args.oc1_restarts}.")
    learners = make_learners(args.learners, n_trees, args.oc1_restarts, args.jobs)
    results = {}
    with threadpool_limits(limits=args.blas_threads):
        if FOREST in learners:  # load the compiled kernels before any timing
            iris = next(datasets(n_synthetic))[1]
            ObliqueForestLearner(n_estimators=2)(iris)
        for title, table, is_real in datasets(n_synthetic):
            if title.split()[0] not in args.sets:
                continue
            set_start = time.perf_counter()
            record = cross_validate(table, learners)
            print_set(title, table, record)
            print(f"  ({time.perf_counter() - set_start:.1f} s for this set)")
            results[title] = (is_real, record)
            sys.stdout.flush()
    print_summary(results, list(learners))
    print_total_time(start)


if __name__ == "__main__":
    main()
