"""Pure numpy/scipy/scikit-learn core of Orange Oblique Trees: no Orange, no Qt."""
from .geometric import GeometricTreeClassifier
from .tree import ObliqueTree, Split

__all__ = ["GeometricTreeClassifier", "ObliqueTree", "Split"]
