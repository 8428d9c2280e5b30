"""OC1 against its axis-parallel variant, the Geometric Decision Tree and CART.

Data sets:

* the OC1 paper's synthetic sets (Section 4.1) -- LS10, POL and RCB, 2000 points each,
  drawn once with seed 0 by ``orangecontrib.oblique.core.datasets``;
* Orange's bundled ``iris`` and ``heart_disease``: the whole table is turned into numbers by
  Orange's own preprocessing, ``Orange.preprocess.Continuize()`` (a discrete attribute
  becomes indicator columns) and then ``Orange.preprocess.Impute()`` (a missing value
  becomes the attribute's average); ``y`` is the class's value index.  Preprocessing the
  whole table before cross-validation lets the test folds' values into the imputed
  averages -- the same for every learner, and it keeps every learner on the same numbers;
* scikit-learn's ``load_breast_cancer``.

Learners (``seed`` = the fold's seed, ``10 · repetition + fold``):

* OC1: ``OC1Classifier(random_state=seed)`` -- defaults: twoing rule, 20 restarts, 5 random
  jumps, 10 % of the training rows held out for cost-complexity pruning (0-SE);
* OC1-AP: ``OC1Classifier(split_mode="axis_parallel", random_state=seed)``;
* OC1 summin: ``OC1Classifier(impurity="sum_minority", random_state=seed)`` and OC1 sm
  nopr, the same with ``pruning_portion=0``: where a split that does not lower the node's
  own impurity makes a leaf shows most.  Run against the code before and after the
  papers' details (same script), the table compares them;
* GDT: ``GeometricTreeClassifier()`` (defaults, no pruning);
* GDT+prune: ``GeometricTreeClassifier(pruning_portion=0.1, random_state=seed)``;
* CART: ``sklearn.tree.DecisionTreeClassifier(random_state=seed)``.

``repeats`` repetitions of stratified 10-fold cross-validation (``StratifiedKFold(10,
shuffle=True, random_state=repetition)``); every learner is fitted on exactly the same
folds.  Accuracy of a repetition is pooled over its 10 folds; the table shows mean ± sd over
the repetitions.  Leaves and depth are means over all folds; fit time is measured with
``time.perf_counter`` around the fit call only and summarised as the median over all folds.
The last line repeats, on its own, the median time of one default OC1 fit on LS10's
training folds (1800 rows, 10 features).

Every fit runs sequentially in this one process and BLAS is limited to one thread while
fitting (``--blas-threads``), as in ``benchmarks/geometric.py``.

Run ``python benchmarks/oc1.py`` (several minutes) or ``--quick`` (one repetition, the
synthetic sets with 500 points).
"""
import sys
import time
import warnings

import numpy as np

# Orange's dependencies warn about their own deprecations on import; not ours to report.
warnings.filterwarnings("ignore", category=DeprecationWarning)

from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

import Orange.data
import Orange.preprocess

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier
from orangecontrib.oblique.core.datasets import (ls10, parallel_oblique_lines,
                                                 rotated_checkerboard)

from common import (N_FOLDS, add_blas_threads, add_repeats, argument_parser,
                    counted_warnings, fold_records, print_cv_table, print_preamble,
                    print_total_time, repetitions, require_positive, timed_fit)

DATA_SEED = 0
LEARNERS = {
    "OC1": lambda seed: OC1Classifier(random_state=seed),
    "OC1-AP": lambda seed: OC1Classifier(split_mode="axis_parallel", random_state=seed),
    "OC1 summin": lambda seed: OC1Classifier(impurity="sum_minority", random_state=seed),
    "OC1 sm nopr": lambda seed: OC1Classifier(impurity="sum_minority", pruning_portion=0,
                                              random_state=seed),
    "GDT": lambda seed: GeometricTreeClassifier(),
    "GDT+prune": lambda seed: GeometricTreeClassifier(pruning_portion=0.1, random_state=seed),
    "sklearn CART": lambda seed: DecisionTreeClassifier(random_state=seed),
}


def orange_numeric(name):
    """Orange's bundled table ``name`` as numbers: Continuize, then Impute, whole table."""
    data = Orange.data.Table(name)
    data = Orange.preprocess.Impute()(Orange.preprocess.Continuize()(data))
    return data.X.astype(float), data.Y.astype(int)


def datasets(n_synthetic):
    """``(title, X, y)`` of every set, in table order."""
    for title, generate in (("LS10", ls10), ("POL", parallel_oblique_lines),
                            ("RCB", rotated_checkerboard)):
        X, y = generate(n_samples=n_synthetic, random_state=DATA_SEED)
        yield title, X, y
    for name in ("iris", "heart_disease"):
        X, y = orange_numeric(name)
        yield name, X, y
    X, y = load_breast_cancer(return_X_y=True)
    yield "breast_cancer", X, y


def evaluate(X, y, repeats):
    """Per learner: per-repetition pooled accuracies, per-fold leaves, depth, seconds, and
    the warnings its fits raised (message → count)."""
    accuracy = {name: [] for name in LEARNERS}
    per_fold = fold_records(LEARNERS)
    raised = {name: {} for name in LEARNERS}
    for repetition in range(repeats):
        folds = StratifiedKFold(N_FOLDS, shuffle=True, random_state=repetition)
        correct = dict.fromkeys(LEARNERS, 0)
        for fold, (train, test) in enumerate(folds.split(X, y)):
            seed = N_FOLDS * repetition + fold
            for name, make in LEARNERS.items():
                learner = make(seed)
                with counted_warnings(raised[name]):
                    model, seconds = timed_fit(lambda: learner.fit(X[train], y[train]))
                correct[name] += int(np.sum(model.predict(X[test]) == y[test]))
                per_fold[name]["leaves"].append(model.get_n_leaves())
                per_fold[name]["depth"].append(model.get_depth())
                per_fold[name]["seconds"].append(seconds)
        for name in LEARNERS:
            accuracy[name].append(correct[name] / len(y))
    return accuracy, per_fold, raised


def print_table(title, X, y, accuracy, per_fold, raised, repeats):
    n_fits = len(per_fold["OC1"]["seconds"])
    print(f"\n{title}  ({X.shape[0]} rows, {X.shape[1]} features, {len(np.unique(y))} "
          f"classes; {repeats} × {N_FOLDS}-fold CV = {n_fits} fits per learner)")
    print_cv_table(accuracy, per_fold)
    for name in LEARNERS:
        for message, count in raised[name].items():
            print(f"  note: {name} fits raised {count} × {message}")


def main(argv=None):
    parser = argument_parser(__doc__, "smoke run: 1 repetition, synthetic sets of 500 points")
    add_repeats(parser, 3)
    add_blas_threads(parser)
    args = parser.parse_args(argv)
    repeats, n_synthetic = (1, 500) if args.quick else (args.repeats, 2000)
    require_positive(parser, "--repeats", repeats)

    start = time.perf_counter()
    print_preamble(args.blas_threads, f"mean ± sd over {repetitions(repeats)} of the "
                   f"accuracy pooled over {N_FOLDS} folds")
    ls10_seconds = None
    with threadpool_limits(limits=args.blas_threads):
        for title, X, y in datasets(n_synthetic):
            accuracy, per_fold, raised = evaluate(X, y, repeats)
            print_table(title, X, y, accuracy, per_fold, raised, repeats)
            if title == "LS10":
                ls10_seconds = per_fold["OC1"]["seconds"]
            sys.stdout.flush()
    print(f"\nMedian time of one default OC1 fit on LS10's training folds "
          f"({len(ls10_seconds)} fits, {int(0.9 * n_synthetic)} rows × 10 features): "
          f"{np.median(ls10_seconds):.3f} s")
    print_total_time(start)


if __name__ == "__main__":
    main()
