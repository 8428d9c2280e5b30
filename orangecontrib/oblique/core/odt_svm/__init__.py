"""ODT-SVM (Menkovski, Christou & Efremidis): the C4.5-style estimator and its tests
(:mod:`.classifier`), its linear SVM (:mod:`.linear_svm`) and X-means for the clustering
splits (:mod:`.xmeans`)."""
from .classifier import ODTSVMClassifier
from .xmeans import XMeans

__all__ = ["ODTSVMClassifier", "XMeans"]
