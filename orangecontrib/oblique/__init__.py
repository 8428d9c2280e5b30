"""Orange Oblique Trees: oblique decision-tree learners for Orange.

The Orange learners live here; scikit-learn style estimators in
:mod:`orangecontrib.oblique.core`.
"""
from .learners import (GeometricTreeLearner, HedgeEnsembleLearner, HedgeEnsembleModel,
                       OC1Learner, ObliqueTreeLearner, ObliqueTreeModel, ODTSVMLearner)

__all__ = ["GeometricTreeLearner", "HedgeEnsembleLearner", "HedgeEnsembleModel",
           "OC1Learner", "ObliqueTreeLearner", "ObliqueTreeModel", "ODTSVMLearner"]
