"""What the memory tests (OC1, GDT, deep trees) share: the peak of a call's
allocations, and trees recorded before the change, to check that it changed no split and
no prediction (``python tests/helpers/memory_reference.py`` wrote ``data/memory_reference.npz``
from the code as it was; :mod:`.test_memory_oc1` compares).

Peaks are measured with ``tracemalloc`` (numpy reports its buffers to it) on sizes that run
in a few seconds; the tests' bounds are far below what the code before the change held.
"""
import gc
import tracemalloc
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer, load_iris, load_wine

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier

PATH = Path(__file__).parent / "data" / "memory_reference.npz"
LEARNERS = {
    "oc1": lambda: OC1Classifier(random_state=0),
    "oc1_variances": lambda: OC1Classifier(impurity="sum_of_variances", n_restarts=3,
                                           random_state=0),
    "gdt": lambda: GeometricTreeClassifier(),
    "gdt_pure": lambda: GeometricTreeClassifier(epsilon1=0.0, max_depth=None),
    "gdt_raw_pruned": lambda: GeometricTreeClassifier(standardize=False, epsilon1=0.0,
                                                      pruning_portion=0.2, random_state=0),
}
DATASETS = {"iris": load_iris, "wine": load_wine, "breast_cancer": load_breast_cancer}
MB = 1024 ** 2


def traced_peak(call):
    """``(call(), peak bytes allocated while it ran)``."""
    gc.collect()
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def record(model, X):
    """What must not change: the tree's shape, every split's weights and bias, its class
    counts, and the leaves, probabilities and decision paths of the rows ``X``."""
    tree = model.tree_
    splits = [split for split in tree.splits if split is not None]
    path = model.decision_path(X).tocsr()
    counts = tree.with_dense_class_counts()  # (many classes: kept sparse)
    return {
        "parent": tree.parent, "value": counts.value, "proba": counts.proba,
        "weights": np.concatenate([split.weights.ravel() for split in splits]),
        "bias": np.concatenate([np.ravel(split.bias) for split in splits]),
        "apply": model.apply(X), "predict_proba": model.predict_proba(X),
        "path_indptr": path.indptr, "path_indices": path.indices,
    }


def records():
    """``{"learner/dataset/field": array}`` of every learner on every data set."""
    result = {}
    for data_name, load in DATASETS.items():
        X, y = load(return_X_y=True)
        for learner_name, make in LEARNERS.items():
            for field, array in record(make().fit(X, y), X).items():
                result[f"{learner_name}/{data_name}/{field}"] = np.asarray(array)
    return result


if __name__ == "__main__":
    np.savez_compressed(PATH, **records())
