"""Each of OC1's kernels compiles one signature: every argument has one dtype and layout,
converted at the edge, and no kernel passes a constant that numba would type as a
literal, so a first fit compiles each kernel once."""
import os
import subprocess
import sys
import textwrap

import pytest

FITS_AND_SIGNATURES = textwrap.dedent("""
    import numba
    import numpy as np
    from sklearn.datasets import load_wine
    from orangecontrib.oblique.core import OC1Classifier
    from orangecontrib.oblique.core.tree import impurity, line_search
    X, y = load_wine(return_X_y=True)
    X, y = X[::3], y[::3]
    weights = np.linspace(0.5, 1.5, len(y))
    for measure in impurity.MEASURES:
        for data in (X, np.round(X).astype(np.int64), np.asfortranarray(X)):
            for order in ("sequential", "best_first", "random"):
                OC1Classifier(impurity=measure, coefficient_order=order, n_restarts=2,
                              random_state=0).fit(data, y)
        OC1Classifier(impurity=measure, n_restarts=2, max_terms=2,
                      random_state=0).fit(X, y, sample_weight=weights)
    for name in sorted(vars(line_search)):
        kernel = getattr(line_search, name)
        if isinstance(kernel, numba.core.registry.CPUDispatcher) and kernel.signatures:
            print(name, len(kernel.signatures))
""")


@pytest.mark.slow
def test_every_oc1_kernel_has_one_signature(tmp_path):
    # a process of its own (other tests call the kernels with other arguments) and an
    # empty cache: a kernel loaded from numba's cache does not list the kernels it calls
    output = subprocess.run([sys.executable, "-c", FITS_AND_SIGNATURES], check=True,
                            capture_output=True, text=True,
                            env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))).stdout
    counts = dict(line.split() for line in output.splitlines())
    assert {"line_step", "side_impurity", "sort_crossings", "sort_pairs"} <= set(counts)
    assert {name: count for name, count in counts.items() if count != "1"} == {}
