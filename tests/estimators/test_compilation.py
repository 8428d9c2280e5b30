"""Nothing happens on import; the kernels compile on first use into numba's own cache, or
ahead of time when the user runs ``python -m orangecontrib.oblique.core.compilation``."""
import os
import subprocess
import sys

import pytest


#: Run in a new process: imports numba, scikit-learn and numpy, notes what an import of
#: the add-on could change (processes, threads, the environment, numba's configuration
#: and the classes of its cache module, scikit-learn's configuration, numpy's error and
#: print settings), imports the package, its core modules and its widgets, and prints
#: what differs.
_IMPORT_CHANGES_NOTHING = r"""
import importlib, os, pkgutil, threading
import numpy, numba, numba.core.caching, psutil, sklearn

def state():
    caching = {name: {key: list(value) if isinstance(value, list) else value
                      for key, value in vars(cls).items()}
               for name, cls in vars(numba.core.caching).items() if isinstance(cls, type)}
    return {"child processes": len(psutil.Process().children(recursive=True)),
            "threads": threading.active_count(),
            "environment": dict(os.environ),
            "numba.config": {key: value for key, value in vars(numba.config).items()
                             if key.isupper()},
            "numba.core.caching": caching,
            "sklearn.get_config": sklearn.get_config(),
            "numpy.geterr": numpy.geterr(),
            "numpy.get_printoptions": numpy.get_printoptions()}

before = state()
import orangecontrib.oblique, orangecontrib.oblique.core, orangecontrib.oblique.widgets
for package in (orangecontrib.oblique.core, orangecontrib.oblique.widgets):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
importlib.import_module("orangecontrib.oblique.learners")
after = state()
print("changed:", sorted(key for key in before if before[key] != after[key]))
"""


def _run(code, *arguments, **environment):
    return subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True,
                          text=True,
                          check=True, timeout=600,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen", **environment))


def test_importing_the_add_on_starts_nothing_and_changes_no_global_state():
    printed = _run(_IMPORT_CHANGES_NOTHING).stdout
    assert printed.strip().splitlines()[-1] == "changed: []", printed


def test_loading_the_widgets_package_loads_neither_numba_nor_scikit_learn():
    """What Orange Canvas imports at start-up stays light."""
    code = ("import sys, orangecontrib.oblique.widgets; "
            "print(sorted(m for m in ('numba', 'sklearn', 'Orange') if m in sys.modules))")
    assert _run(code).stdout.strip() == "[]"


#: Fits every learner once on iris in a new process (only OC1 when given "oc1") and prints
#: numba's cache misses (a kernel compiled) and hits (a kernel loaded from the cache) over
#: the numba functions of every core module.
_FIT_AND_COUNT = r"""
import importlib, pkgutil, sys, warnings
warnings.simplefilter("ignore")
from numba.core.registry import CPUDispatcher
from sklearn.datasets import load_iris
import orangecontrib.oblique.core as core
from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ODTSVMClassifier,
                                        ObliqueForestClassifier)
X, y = load_iris(return_X_y=True)
learners = [OC1Classifier(random_state=0)]
if sys.argv[1:] != ["oc1"]:
    learners += [GeometricTreeClassifier(), ODTSVMClassifier(random_state=0),
                 HedgeEnsembleClassifier(n_estimators=2, random_state=0),
                 ObliqueForestClassifier(n_estimators=3, random_state=0)]
for learner in learners:
    learner.fit(X, y).predict(X)
misses = hits = 0
for found in pkgutil.walk_packages(core.__path__, core.__name__ + "."):
    module = importlib.import_module(found.name)
    for value in vars(module).values():
        if isinstance(value, CPUDispatcher) and value.__module__ == module.__name__:
            misses += sum(value.stats.cache_misses.values())
            hits += sum(value.stats.cache_hits.values())
print("misses", misses, "hits", hits)
"""


def _misses_and_hits(cache, *which):
    printed = _run(_FIT_AND_COUNT, *which, NUMBA_CACHE_DIR=str(cache)).stdout.split()
    return int(printed[printed.index("misses") + 1]), int(printed[printed.index("hits") + 1])


@pytest.mark.slow
def test_the_warm_up_compiles_every_kernel_the_learners_use(tmp_path):
    """In an empty cache of its own, a first fit compiles kernels (misses); after
    ``python -m orangecontrib.oblique.core.compilation`` a new process's fits of every
    learner load them all from the cache (no miss)."""
    cold = tmp_path / "cold"
    misses, _ = _misses_and_hits(cold, "oc1")
    assert misses > 0
    warm = tmp_path / "warm"
    printed = subprocess.run(
        [sys.executable, "-m", "orangecontrib.oblique.core.compilation"],
        capture_output=True, text=True, check=True, timeout=1800,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(warm))).stdout
    assert "compiled and cached" in printed
    misses, hits = _misses_and_hits(warm)
    assert (misses, hits > 0) == (0, True)
