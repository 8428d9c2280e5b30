"""The Hedge(β) ensemble (Menkovski et al., Sections V-VI) over any of the trees
(:mod:`.hedge`)."""
from .hedge import HedgeEnsembleClassifier

__all__ = ["HedgeEnsembleClassifier"]
