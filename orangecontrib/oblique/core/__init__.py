"""Pure numpy/scipy/scikit-learn core of Orange Oblique Trees: no Orange, no Qt.

Estimators (scikit-learn API): :class:`GeometricTreeClassifier` (Manwani & Sastry),
:class:`OC1Classifier` (Murthy, Kasif & Salzberg), :class:`ODTSVMClassifier` (Menkovski,
Christou & Efremidis), :class:`HedgeEnsembleClassifier` (Hedge(β) over any of them) and
:class:`ObliqueForestClassifier` (a forest of sparse oblique trees, SPORF: Tomita et al.).
"""
from .ensemble import HedgeEnsembleClassifier
from .forest import ObliqueForestClassifier, SparseProjectionTreeClassifier
from .geometric import GeometricTreeClassifier
from .oc1 import OC1Classifier
from .odt_svm import ODTSVMClassifier
from .splits import Split
from .tree import ObliqueTree
from .xmeans import XMeans

__all__ = ["GeometricTreeClassifier", "OC1Classifier", "ODTSVMClassifier",
           "HedgeEnsembleClassifier", "ObliqueForestClassifier",
           "SparseProjectionTreeClassifier", "XMeans", "ObliqueTree", "Split"]
