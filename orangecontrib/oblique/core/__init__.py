"""Pure numpy/scipy/scikit-learn core of Orange Oblique Trees: no Orange, no Qt.

Estimators (scikit-learn API): :class:`GeometricTreeClassifier` (Manwani & Sastry),
:class:`OC1Classifier` (Murthy, Kasif & Salzberg), :class:`ODTSVMClassifier` (Menkovski,
Christou & Efremidis), :class:`HedgeEnsembleClassifier` (Hedge(β) over any of them) and
:class:`ObliqueForestClassifier` (a forest of sparse oblique trees, SPORF: Tomita et al.).

They are imported on first use (PEP 562): ``import orangecontrib.oblique.core`` loads
neither scikit-learn nor numba.  The numba kernels compile at their first call into
numba's own cache; ``python -m orangecontrib.oblique.core.compilation`` compiles them
ahead of time.
"""
import importlib

#: Every public name and the subpackage that defines it.
_MODULES = {"GeometricTreeClassifier": "geometric", "OC1Classifier": "oc1",
            "ODTSVMClassifier": "odt_svm", "HedgeEnsembleClassifier": "ensemble",
            "ObliqueForestClassifier": "forest", "SparseProjectionTreeClassifier": "forest",
            "XMeans": "odt_svm", "ObliqueTree": "tree", "Split": "tree"}

__all__ = list(_MODULES)


def __getattr__(name):
    if name in _MODULES:
        return getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
