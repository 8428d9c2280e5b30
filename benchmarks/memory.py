"""Peak memory and time of the memory cases (OC1, GDT, deep trees), one fresh process per case.

Cases (data generated in the child with seed 0; every learner with ``random_state=0``):

* **D3** -- OC1 with many classes: ``make_classification`` with 4,000 rows, 1,000 features
  (20 informative) and 40 classes, 32 MB of data.  ``d3-axis``: the root's axis-parallel
  split search (``OC1Classifier(split_mode="axis_parallel", max_depth=1)``); ``d3-oblique``:
  the root split with one restart of the oblique search (``max_depth=1, n_restarts=1``).
* **D4** -- GDT with far fewer rows than attributes: 100 rows of two Gaussian classes
  (means 0 and 0.3 in every attribute).  ``d4-2000`` and ``d4-8000``: the root split
  (``GeometricTreeClassifier(max_depth=1)``) with 2,000 and 8,000 attributes;
  ``d4-tree-2000``: the whole tree with the defaults.
* **D6** -- a tree that is a chain: 5,001 rows on a line (``x = 0, 1, ...``) of alternating
  classes; OC1's axis-parallel search (``split_mode="axis_parallel", max_depth=None,
  pruning_portion=0``) peels one row off at every node, a tree of depth 5,000.
  ``d6-grow``: the fit; ``d6-path``: ``decision_path`` of the deepest row;
  ``d6-recount``: ``tree_.recounted`` of all rows (as after pruning); the two last fit the
  chain first, outside the measurement.

The child notes its resident set size (RSS), resets the kernel's peak-RSS mark and runs the
measured call; ``peak ΔRSS`` is the peak RSS during the call minus the RSS before it (see
``benchmarks/scale.py``), ``s`` its wall-clock time; with ``--trace`` a second child
measures the ``tracemalloc`` peak of the same call.  A case that does not finish within
``--timeout`` seconds (default 120) is stopped and reported as such.

Run ``python benchmarks/memory.py`` (every case) or ``--cases d4-2000,d6-path``.
"""
import gc
import json
import os
import subprocess
import sys
import time
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

MB = 1024 ** 2
CHAIN_ROWS = 5001


def _many_classes():
    from sklearn.datasets import make_classification
    X, y = make_classification(n_samples=4000, n_features=1000, n_informative=20,
                               n_redundant=0, n_classes=40, n_clusters_per_class=1,
                               random_state=0)
    return X, y


def _few_rows(n_features):
    import numpy as np
    rng = np.random.RandomState(0)
    y = np.arange(100) % 2
    return rng.normal(size=(100, n_features)) + 0.3 * y[:, None], y


def _chain():
    import numpy as np
    return np.arange(CHAIN_ROWS, dtype=float)[:, None], np.arange(CHAIN_ROWS) % 2


def _chain_model(X, y):
    from orangecontrib.oblique.core import OC1Classifier
    return OC1Classifier(split_mode="axis_parallel", max_depth=None, pruning_portion=0,
                         random_state=0).fit(X, y)


def _fit(learner):
    """The measured call ``learner.fit(X, y)`` and its description (depth, leaves)."""
    def call(X, y):
        model = learner().fit(X, y)
        return f"depth {model.get_depth()}, {model.get_n_leaves()} leaves"
    return call


def _oc1(**parameters):
    from orangecontrib.oblique.core import OC1Classifier
    return lambda: OC1Classifier(random_state=0, **parameters)


def _gdt(**parameters):
    from orangecontrib.oblique.core import GeometricTreeClassifier
    return lambda: GeometricTreeClassifier(random_state=0, **parameters)


def case_d3_axis():
    return _many_classes(), _fit(_oc1(split_mode="axis_parallel", max_depth=1))


def case_d3_oblique():
    return _many_classes(), _fit(_oc1(max_depth=1, n_restarts=1))


def case_d4_2000():
    return _few_rows(2000), _fit(_gdt(max_depth=1))


def case_d4_8000():
    return _few_rows(8000), _fit(_gdt(max_depth=1))


def case_d4_tree_2000():
    return _few_rows(2000), _fit(_gdt())


def case_d6_grow():
    return _chain(), _fit(_oc1(split_mode="axis_parallel", max_depth=None,
                               pruning_portion=0))


def case_d6_path():
    X, y = _chain()
    model = _chain_model(X, y)

    def call(X, y):
        path = model.decision_path(X[-1:])
        return f"{path.nnz} nodes on the path of {model.tree_.node_count}"
    return (X, y), call


def case_d6_recount():
    import numpy as np
    X, y = _chain()
    tree = _chain_model(X, y).tree_

    def call(X, y):
        recounted = tree.recounted(X, y, np.ones(len(y)))
        return f"root count {recounted.n_node_samples[0]}, {recounted.node_count} nodes"
    return (X, y), call


CASES = {name[len("case_"):].replace("_", "-"): function
         for name, function in dict(globals()).items() if name.startswith("case_")}


def child(name, trace):
    """In a fresh process: set the case up, measure its call, print the result as JSON."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scale import _maxrss_kb, _reset_peak, _status_kb
    (X, y), call = CASES[name]()
    result = {"data_mb": (X.nbytes + y.nbytes) / MB}
    gc.collect()
    if trace:
        import tracemalloc
        tracemalloc.start()
        result["outcome"] = call(X, y)
        result["traced_mb"] = tracemalloc.get_traced_memory()[1] / MB
    else:
        rss_before = _status_kb("VmRSS")
        can_reset = rss_before is not None and _reset_peak()
        if not can_reset:
            rss_before = _maxrss_kb()
        start = time.perf_counter()
        result["outcome"] = call(X, y)
        result["seconds"] = time.perf_counter() - start
        peak = _status_kb("VmHWM") if can_reset else _maxrss_kb()
        result["peak_mb"] = max(peak - rss_before, 0) / 1024
    print(json.dumps(result))


def run(name, trace, timeout):
    """:func:`child` of case ``name`` in a new interpreter; its result, or ``error``."""
    command = [sys.executable, os.path.abspath(__file__), "--child", name]
    if trace:
        command.append("--trace")
    try:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"> {timeout:.0f} s (stopped)"}
    if finished.returncode != 0:
        last = (finished.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"failed (exit {finished.returncode}): {last[:80]}"}
    return json.loads(finished.stdout.strip().splitlines()[-1])


HEADER = ("case", "data MB", "s", "peak ΔRSS MB", "ΔRSS/data", "traced MB", "outcome")


def table_row(name, result, traced):
    """The cells of case ``name``; its error across the columns when it failed."""
    if "error" in result:
        return (name, "", result["error"], "", "", "", "")
    data = result["data_mb"]
    return (name, f"{data:.2f}", f"{result['seconds']:.2f}", f"{result['peak_mb']:.1f}",
            f"{result['peak_mb'] / data:.1f}",
            f"{traced['traced_mb']:.1f}" if "traced_mb" in traced else "-", result["outcome"])


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1], "--trace" in argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from common import (add_blas_threads, argument_parser, comma_separated,
                        environment_line, print_aligned, print_total_time)

    parser = argument_parser(__doc__)
    parser.add_argument("--cases", type=comma_separated(tuple(CASES), "cases"),
                        default=tuple(CASES),
                        help=f"comma-separated subset of {','.join(CASES)} (default all)")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds before a case is stopped (default 120)")
    parser.add_argument("--trace", action="store_true",
                        help="also measure the tracemalloc peak, in a second process")
    add_blas_threads(parser, "BLAS/OpenMP threads in the measuring process")
    args = parser.parse_args(argv)
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(args.blas_threads)
    start = time.perf_counter()
    rows = []
    for name in args.cases:
        result = run(name, False, args.timeout)
        traced = (run(name, True, args.timeout) if args.trace and "error" not in result
                  else {})
        rows.append(table_row(name, result, traced))
    print(environment_line(args.blas_threads))
    print("s: wall clock of the measured call; peak ΔRSS: peak resident memory during it "
          "above the RSS before it; traced: tracemalloc peak (--trace, a second process).\n")
    print_aligned(HEADER, rows, left=1, indent="")
    print_total_time(start)


if __name__ == "__main__":
    main()
