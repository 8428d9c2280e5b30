"""Fits as an analyst makes them, in a new process; prints how many kernels numba had to
compile (its cache misses) and how many it loaded from its cache (hits).

    python compiled_fits.py all|oc1
"""
import importlib
import sys
import warnings

import numpy as np

SETS = ("iris", "heart_disease", "zoo", "titanic", "brown-selected")


def orange_fits():
    from Orange.data import Table
    from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner,
                                       OC1Learner, ODTSVMLearner, ObliqueForestLearner)
    learners = [GeometricTreeLearner(), OC1Learner(random_state=0),
                ODTSVMLearner(random_state=0), HedgeEnsembleLearner(random_state=0),
                ObliqueForestLearner(random_state=0)]
    for name in SETS:
        data = Table(name)
        for learner in learners:
            learner(data)(data)


def script_fits():
    from sklearn.datasets import load_breast_cancer, load_wine
    from orangecontrib.oblique import core
    for X, y in (load_wine(return_X_y=True), load_breast_cancer(return_X_y=True)):
        weights = np.random.RandomState(0).uniform(0.2, 2, len(y))
        for name in ("GeometricTreeClassifier", "OC1Classifier", "ODTSVMClassifier",
                     "ObliqueForestClassifier", "HedgeEnsembleClassifier"):
            for sample_weight in (None, weights):
                getattr(core, name)(random_state=0).fit(
                    X, y, sample_weight=sample_weight).predict(X)


def main(which):
    warnings.simplefilter("ignore")
    if which == "oc1":
        from sklearn.datasets import load_iris
        from orangecontrib.oblique.core import OC1Classifier
        OC1Classifier(random_state=0).fit(*load_iris(return_X_y=True))
    else:
        orange_fits()
        script_fits()
    from numba.core.registry import CPUDispatcher
    from orangecontrib.oblique.core.compilation import COMPILED_MODULES
    misses = hits = 0
    for file_name in COMPILED_MODULES:
        module = importlib.import_module("orangecontrib.oblique.core." + file_name[:-3])
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher):
                misses += sum(value.stats.cache_misses.values())
                hits += sum(value.stats.cache_hits.values())
    print(f"misses {misses} hits {hits}")


if __name__ == "__main__":
    main(sys.argv[1])
