"""The old path of :class:`orangecontrib.oblique.core.tree.splits.Split`, before ``core/``
was arranged by algorithm: models saved then (Orange's Save Model) name their splits'
class here, so that they load.  Nothing imports it but such a pickle."""
from .tree.splits import Split

__all__ = ["Split"]
