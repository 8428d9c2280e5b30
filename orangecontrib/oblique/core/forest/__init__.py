"""Oblique Forest (SPORF, Tomita et al.): the forest and its trees (:mod:`.classifier`) and
the search over sparse random projections (:mod:`.sporf`)."""
from .classifier import ObliqueForestClassifier, SparseProjectionTreeClassifier

__all__ = ["ObliqueForestClassifier", "SparseProjectionTreeClassifier"]
