"""Each kernel of GDT, ODT-SVM and the shared tree compiles for one signature: the
estimators convert their arguments once at the edge (float64, C order, ``np.intp``
indices), so that data of another dtype or layout compiles nothing more."""
import json
import os
import subprocess
import sys

import pytest

#: Modules whose kernels GDT's and ODT-SVM's fits call.
MODULES = ("orangecontrib.oblique.core.geometric.kernels",
           "orangecontrib.oblique.core.tree.kernels",
           "orangecontrib.oblique.core.odt_svm.classifier",
           "orangecontrib.oblique.core.odt_svm.linear_svm",
           "orangecontrib.oblique.core.odt_svm.xmeans")

#: Run in a new process (no other test's direct kernel calls): fit GDT and ODT-SVM on
#: wine as float64 (C and Fortran order, with and without weights), float32 and
#: integer-valued int64 rows, and print every kernel's number of signatures.
_FIT_AND_COUNT = r"""
import importlib, json, sys
import numpy as np
from numba.core.registry import CPUDispatcher
from sklearn.datasets import load_wine
from orangecontrib.oblique.core import GeometricTreeClassifier, ODTSVMClassifier
X, y = load_wine(return_X_y=True)
weights = np.linspace(0.5, 1.5, len(y))
for data in (X, np.asfortranarray(X), X.astype(np.float32), np.rint(X).astype(np.int64)):
    for make in (GeometricTreeClassifier, lambda: ODTSVMClassifier(random_state=0)):
        for sample_weight in (None, weights):
            make().fit(data, y, sample_weight=sample_weight).predict_proba(data)
counts = {}
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    for attribute, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
            counts[name.rsplit(".", 2)[-2] + "." + name.rsplit(".", 1)[-1] + "."
                   + attribute] = len(value.signatures)
print(json.dumps(counts))
"""


@pytest.mark.slow
def test_every_kernel_of_gdt_and_odt_svm_compiles_for_one_signature(tmp_path):
    """After fits of every dtype and layout, each kernel the fits compiled has exactly
    one signature; the others (helpers inlined into their callers) none.  In an empty
    cache of its own (``NUMBA_CACHE_DIR``): a kernel loaded from the cache does not
    register the kernels it calls, so only compiling shows them all (half a minute)."""
    printed = subprocess.run([sys.executable, "-c", _FIT_AND_COUNT, *MODULES],
                             capture_output=True, text=True, check=True, timeout=900,
                             env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))).stdout
    counts = json.loads(printed.strip().splitlines()[-1])
    several = {name: count for name, count in counts.items() if count > 1}
    assert several == {}
    compiled = {name for name, count in counts.items() if count == 1}
    assert {"geometric.kernels.gdt_node", "tree.kernels.hyperplane_partition",
            "tree.kernels.calibration_pass", "odt_svm.linear_svm._one_vs_rest",
            "odt_svm.xmeans._xmeans", "odt_svm.xmeans._kmeans_plus_plus",
            "odt_svm.classifier.best_cuts"} <= compiled
