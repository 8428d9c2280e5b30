"""The old path of :mod:`orangecontrib.oblique.core.odt_svm.xmeans`, before ``core/`` was
arranged by algorithm: a pickle saved then names :class:`XMeans` here.  Nothing imports
it but such a pickle."""
from .odt_svm.xmeans import XMeans

__all__ = ["XMeans"]
