"""The old path of :mod:`orangecontrib.oblique.core.tree.splits` (and of the condition
parts now in :mod:`~orangecontrib.oblique.core.tree.conditions`), before ``core/`` was
arranged by algorithm: models saved then (Orange's Save Model) name their splits' classes
here, so that they load.  Nothing imports it but such a pickle."""
from .tree.conditions import Affine, Condition, Term
from .tree.splits import (ArgmaxKind, EqualityKind, HyperplaneKind, NearestCentreKind,
                          NominalKind, PairwiseVoteKind, Split, SplitKind)

__all__ = ["Term", "Affine", "Condition", "SplitKind", "HyperplaneKind", "ArgmaxKind",
           "NearestCentreKind", "EqualityKind", "NominalKind", "PairwiseVoteKind", "Split"]
