"""What three attributes can say: the accuracy of one linear SVM on all attributes against
one on the best three, beside ODT-SVM's dense trees and its trees at ``max_terms=3``.

For the sets of ``benchmarks/sparse.py`` on which ODT-SVM's SVM splits use more than three
attributes (iris, breast cancer, wine: numeric attributes only), 10-fold stratified
cross-validation (``StratifiedKFold(10, shuffle=True, random_state=0 .. R−1)``, pooled):

* *SVM, all*: scikit-learn's ``SVC(kernel="linear", C=1)`` (LIBSVM; pairwise for more than
  two classes, as ODT-SVM's split) on the attributes standardised on the training rows;
* *SVM, best 3*: the same SVM on the three attributes whose SVM is most accurate on the
  training rows, among every triple (an exhaustive search; the triple is chosen on the
  training rows alone);
* *ODT-SVM, dense* and *ODT-SVM, k=3*: ``ODTSVMClassifier(random_state=0)`` and with
  ``max_terms=3``.

No selection of three attributes can do better than the best triple on the training rows
by much; the gap between the first two columns is what a split of three attributes gives
up against one of all, before any tree is grown.  Run ``python benchmarks/three_attributes.py``
(``--repeats R`` for R shuffles of the folds).
"""
import itertools
import time
import warnings

import numpy as np
import Orange
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from common import N_FOLDS, add_blas_threads, argument_parser, environment_line, \
    print_total_time

from orangecontrib.oblique.core import ODTSVMClassifier

COLUMNS = ("SVM, all", "SVM, best 3", "ODT-SVM, dense", "ODT-SVM, k=3")


def datasets():
    iris = Orange.data.Table("iris")
    yield "iris", iris.X, iris.Y.astype(int)
    for name, load in (("breast_cancer", load_breast_cancer), ("wine", load_wine)):
        X, y = load(return_X_y=True)
        yield name, X, y


def linear_svm():
    return SVC(kernel="linear", C=1.0)


def best_triple(X, y):
    """The three columns of ``X`` whose linear SVM is most accurate on ``X, y`` (the first
    such triple in lexicographic order)."""
    return max(itertools.combinations(range(X.shape[1]), 3),
               key=lambda columns: linear_svm().fit(X[:, columns], y).score(X[:, columns], y))


def evaluate(X, y, repeats):
    """Per column of :data:`COLUMNS`, the accuracy pooled over all folds."""
    correct = dict.fromkeys(COLUMNS, 0)
    for seed in range(repeats):
        for train, test in StratifiedKFold(N_FOLDS, shuffle=True,
                                           random_state=seed).split(X, y):
            scaler = StandardScaler().fit(X[train])
            Z_train, Z_test = scaler.transform(X[train]), scaler.transform(X[test])
            triple = list(best_triple(Z_train, y[train]))
            predictions = {
                "SVM, all": linear_svm().fit(Z_train, y[train]).predict(Z_test),
                "SVM, best 3": linear_svm().fit(Z_train[:, triple], y[train]).predict(
                    Z_test[:, triple]),
                "ODT-SVM, dense": ODTSVMClassifier(random_state=0).fit(
                    X[train], y[train]).predict(X[test]),
                "ODT-SVM, k=3": ODTSVMClassifier(max_terms=3, random_state=0).fit(
                    X[train], y[train]).predict(X[test]),
            }
            for column, predicted in predictions.items():
                correct[column] += int(np.sum(predicted == y[test]))
    return {column: 100 * count / (len(y) * repeats) for column, count in correct.items()}


def main():
    parser = argument_parser(__doc__)
    parser.add_argument("--repeats", type=int, default=1,
                        help="cross-validations with different shuffles (default 1)")
    add_blas_threads(parser)
    options = parser.parse_args()
    start = time.perf_counter()
    print(environment_line(options.blas_threads))
    print("Accuracy %, pooled over the folds.")
    print(f"  {'data set':<16}" + "".join(f"{column:>16}" for column in COLUMNS)
          + f"{'all − best 3':>14}{'dense − k=3':>13}")
    with threadpool_limits(options.blas_threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, X, y in datasets():
            result = evaluate(X, y, options.repeats)
            print(f"  {name:<16}" + "".join(f"{result[column]:16.2f}" for column in COLUMNS)
                  + f"{result['SVM, all'] - result['SVM, best 3']:14.2f}"
                  + f"{result['ODT-SVM, dense'] - result['ODT-SVM, k=3']:13.2f}", flush=True)
    print_total_time(start)


if __name__ == "__main__":
    main()
