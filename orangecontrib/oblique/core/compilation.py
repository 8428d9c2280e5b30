"""An explicit warm-up of the compiled kernels: ``python -m
orangecontrib.oblique.core.compilation``.

The kernels are numba functions (``@njit(cache=True)``): numba compiles each at its first
call and keeps the result in its own on-disk cache, from which a later process loads it
in well under a second.  So the first fit of each learner after installing (or after an
upgrade of the add-on or of numba) waits for its kernels to compile, about a minute for
all of them, once.  Running this module does that work ahead of time, when the user
chooses: it fits every learner of the package on small data in the ways the widgets and
scripts fit them (:func:`compile_kernels`), so that numba compiles and caches every
kernel those fits use.  A learner widget's first fit of a session does the same for its
own learner first (:func:`compile_kernels` of its estimator class), its progress bar
moving fit by fit.  Nothing runs it on import; numba's ``NUMBA_CACHE_DIR`` says where the
cache is, as for any numba code.
"""
import sys
import time


def _data(n_rows=120, n_classes=3, seed=0):
    """Rows of 4 continuous attributes, one with 3 values (nominal-like) and a constant
    one, and labels of ``n_classes`` classes."""
    import numpy as np
    generator = np.random.RandomState(seed)
    X = generator.normal(size=(n_rows, 6))
    y = np.arange(n_rows) % n_classes
    X[:, :2] += y[:, None]
    X[:, 4] = generator.randint(3, size=n_rows)
    X[:, 5] = 1.0
    return X, y


def _ways():
    """``(estimator class, keyword arguments)`` of every way the widgets and scripts fit
    the learners of the package."""
    from . import (GeometricTreeClassifier, HedgeEnsembleClassifier, OC1Classifier,
                   ODTSVMClassifier, ObliqueForestClassifier)
    return [
        (GeometricTreeClassifier, {}),
        (GeometricTreeClassifier, {"max_terms": 2}),
        (OC1Classifier, {"random_state": 0, "n_restarts": 2}),
        (OC1Classifier, {"random_state": 0, "n_restarts": 2, "max_terms": 2}),
        (ODTSVMClassifier, {"random_state": 0}),
        (ODTSVMClassifier, {"random_state": 0, "max_terms": 2}),
        (ODTSVMClassifier, {"random_state": 0, "categorical_features": [4]}),
        (HedgeEnsembleClassifier, {"n_estimators": 2, "random_state": 0}),
        (ObliqueForestClassifier, {"n_estimators": 3, "random_state": 0}),
    ]


def compile_kernels(estimator_class=None, progress=None):
    """Fit every learner of the package (or only ``estimator_class``) on small data in
    the ways the widgets and scripts fit them (two and three classes, with and without
    instance weights, rows in C and Fortran order, sparse splits, nominal attributes)
    and predict, so that numba compiles (or loads from its cache) every kernel those
    calls use.  ``progress(fraction)``, if given, is called after each fit."""
    import numpy as np
    ways = [(cls, keywords) for cls, keywords in _ways()
            if estimator_class is None or cls is estimator_class]
    fits = [(n_classes, order, weighted, way) for n_classes in (2, 3)
            for order in ("C", "F") for weighted in (False, True) for way in ways]
    for done, (n_classes, order, weighted, (cls, keywords)) in enumerate(fits, start=1):
        X, y = _data(n_classes=n_classes)
        data = np.asfortranarray(X) if order == "F" else X
        weights = np.linspace(0.5, 1.5, len(y)) if weighted else None
        cls(**keywords).fit(data, y, sample_weight=weights).predict_proba(data)
        if progress is not None:
            progress(done / len(fits))


def main():
    """Compile (or load) the kernels and say how long it took."""
    start = time.perf_counter()
    compile_kernels()
    print(f"Oblique Trees: the kernels are compiled and cached "
          f"({time.perf_counter() - start:.1f} s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
