"""Orange Oblique Trees: oblique decision-tree learners for Orange.

The Orange learners live here; scikit-learn style estimators in
:mod:`orangecontrib.oblique.core`.
"""
from .learners import GeometricTreeLearner, OC1Learner, ObliqueTreeLearner, ObliqueTreeModel

__all__ = ["GeometricTreeLearner", "OC1Learner", "ObliqueTreeLearner", "ObliqueTreeModel"]
