"""Geometric Decision Tree (Manwani & Sastry): the estimator (:mod:`.classifier`) and its
node in numba (:mod:`.kernels`)."""
from .classifier import GeometricTreeClassifier

__all__ = ["GeometricTreeClassifier"]
