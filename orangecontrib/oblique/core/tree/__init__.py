"""The tree every algorithm shares: its structure and growing (:mod:`.structure`), the
kinds of split and how each routes rows (:mod:`.splits`), their words (:mod:`.rules`),
pruning (:mod:`.pruning`), impurity and its line search (:mod:`.impurity`,
:mod:`.line_search`), geometry (:mod:`.geometry`), readable splits of few terms
(:mod:`.sparse`) and the compiled routing and calibration pass (:mod:`.kernels`).

An algorithm only proposes splits; everything here is the same for all of them.
"""
from .splits import Split
from .structure import ObliqueTree

__all__ = ["ObliqueTree", "Split"]
