"""Pure numpy/scipy/scikit-learn core of Orange Oblique Trees: no Orange, no Qt.

Estimators (scikit-learn API): :class:`GeometricTreeClassifier`, :class:`OC1Classifier`.
"""
from .geometric import GeometricTreeClassifier
from .oc1 import OC1Classifier
from .tree import ObliqueTree, Split

__all__ = ["GeometricTreeClassifier", "OC1Classifier", "ObliqueTree", "Split"]
