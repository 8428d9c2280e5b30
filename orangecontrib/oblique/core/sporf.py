"""The old path of :mod:`orangecontrib.oblique.core.forest.sporf`, before ``core/`` was
arranged by algorithm: a pickle saved then names :class:`SparseProjectionSplitter` here.
Nothing imports it but such a pickle."""
from .forest.sporf import SparseProjectionSplitter

__all__ = ["SparseProjectionSplitter"]
