"""Helpers shared by the benchmark scripts (run as ``python benchmarks/<name>.py``)."""
import os
import platform
import time

import numpy as np

#: Every benchmark uses stratified 10-fold cross-validation.
N_FOLDS = 10


def timed_fit(fit):
    """``(model, seconds)``: ``fit()`` timed with ``time.perf_counter`` and nothing else."""
    start = time.perf_counter()
    model = fit()
    return model, time.perf_counter() - start


def environment_line(blas_threads):
    """Versions, CPU count and threading of the run, printed at the top of every table."""
    import Orange
    import sklearn
    return (f"Python {platform.python_version()}, numpy {np.__version__}, "
            f"scikit-learn {sklearn.__version__}, Orange {Orange.__version__}; "
            f"{os.cpu_count()} CPUs; fits run sequentially, BLAS threads = {blas_threads}")


def mean_sd(percentages):
    """``"mean ± sd"`` of a few percentages (sd with ddof=1, ``n/a`` for one value)."""
    percentages = np.asarray(percentages, dtype=float)
    sd = f"{np.std(percentages, ddof=1):5.2f}" if len(percentages) > 1 else "  n/a"
    return f"{np.mean(percentages):>8.2f} ± {sd}"
