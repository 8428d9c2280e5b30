"""Orange Oblique Trees: oblique decision-tree learners for Orange.

The Orange learners live here; scikit-learn style estimators in
:mod:`orangecontrib.oblique.core`.  The learners are imported on first use (PEP 562), so
that ``import orangecontrib.oblique.core`` -- a script, or a worker process of a parallel
fit -- does not load Orange.
"""
__all__ = ["GeometricTreeLearner", "HedgeEnsembleLearner", "HedgeEnsembleModel",
           "OC1Learner", "ObliqueTreeModel", "ODTSVMLearner",
           "ObliqueForestLearner", "ObliqueForestModel"]


def __getattr__(name):
    if name in __all__:
        from . import learners  # pylint: disable=import-outside-toplevel
        return getattr(learners, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
