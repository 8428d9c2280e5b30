"""The old path of :mod:`orangecontrib.oblique.core.tree.rules`, before ``core/`` was
arranged by algorithm: a pickle saved then names :class:`Vocabulary` here.  Nothing
imports it but such a pickle."""
from .tree.rules import Vocabulary

__all__ = ["Vocabulary"]
