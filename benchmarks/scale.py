"""Fit time and peak memory of every learner on growing data.

Data: ``orangecontrib.oblique.core.datasets.oblique_parity`` -- uniform on [-1, 1]^d, the
class is the parity of the sides of three oblique hyperplanes through the origin (the GDT
paper's 10-dimensional set generalised to ``d`` features), with 5 % of the labels flipped so
that the trees keep growing below the true boundaries.  Seed 0 for every size.

Learners, all with their default settings (``random_state=0`` where they draw):

* GDT: ``GeometricTreeClassifier()``;
* OC1: ``OC1Classifier(random_state=0)`` -- twoing, 20 restarts, 5 jumps, 10 % pruning set;
* ODT-SVM: ``ODTSVMClassifier(random_state=0)``;
* Hedge: ``HedgeEnsembleClassifier(random_state=0, n_jobs=JOBS)`` -- 10 ODT-SVM trees on
  90 % each;
* Forest: ``ObliqueForestClassifier(random_state=0, n_jobs=JOBS)`` -- 100 SPORF trees with
  ``rerf``'s defaults (``d = ⌈√p⌉`` projections of 3 attributes on average a node);
* CART: scikit-learn's ``DecisionTreeClassifier(random_state=0)``, as a reference;
* RF: scikit-learn's ``RandomForestClassifier(random_state=0, n_jobs=JOBS)`` (100 trees), the
  forest's axis-parallel reference.

``JOBS`` is ``--jobs`` (default 2, the project machine's cores).

Sizes (rows × features): 1k×10, 10k×10, 10k×50, 20k×20, 100k×10, 100k×50, 50k×200; or the
one size ``--rows`` × ``--features``.  By default OC1 runs up to 1,000,000 cells (so up to
100k×10: one fit took 443 s wall clock, 272 s CPU, on a busy 2-core machine on 2026-11-23);
at a larger size its line gives its own estimate of the fit
(``OC1Classifier.estimated_fit_seconds``: 50k×200 about 20 minutes) instead; ``--all`` (or
sizes given with ``--sizes``, ``--rows``/``--features``) runs every chosen learner at every
chosen size.  To leave the long OC1 cells out, pick the learners, e.g.
``--learners GDT,ODT-SVM,CART``, or run OC1 alone at the size of interest,
``--learners OC1 --sizes 100000x10``.

Every (learner, size) is fitted in a fresh process (``multiprocessing`` spawn), one at a
time, with one BLAS/OpenMP thread (``--blas-threads``).  The child generates the data, runs
the garbage collector, notes its resident set size (RSS) and resets the kernel's peak-RSS
mark (``/proc/self/clear_refs``), fits, and reports:

* ``fit s``: wall-clock time of the fit call (``time.perf_counter``); ``CPU s``: the
  process's CPU time during the fit (``time.process_time``), less sensitive to a busy
  machine;
* ``peak ΔRSS``: peak RSS during the fit (``VmHWM``; where it cannot be reset,
  ``ru_maxrss``) minus the RSS before it, in MB -- everything the fit allocated at its worst
  moment, beyond the data;
* ``traced``: the peak of Python and numpy allocations during the fit seen by
  ``tracemalloc`` (numpy reports its buffers to it), measured in a *second* fresh process,
  because tracing slows the fit down; only for cells whose untraced fit took at most
  ``--trace-limit`` seconds;
* ``data MB``: ``X.nbytes + y.nbytes`` and the ratios ``ΔRSS / data`` and ``traced / data``:
  bounded ratios as the rows grow mean memory linear in the data.

Run ``python benchmarks/scale.py`` (more than an hour on a busy 2-core machine), ``--quick`` for
a smoke run (1k×10 and 5k×20, every chosen learner; ``--sizes`` is then ignored), or pick
cells, e.g. ``--learners GDT,ODT-SVM --sizes 100000x50``.
"""
import argparse
import gc
import multiprocessing
import os
import resource
import sys
import time
import warnings

# Orange's dependencies warn about their own deprecations on import; not ours to report.
warnings.filterwarnings("ignore", category=DeprecationWarning)

DATA_SEED = 0
LABEL_NOISE = 0.05
SIZES = ((1000, 10), (10000, 10), (10000, 50), (20000, 20), (100000, 10), (100000, 50),
         (50000, 200))
QUICK_SIZES = ((1000, 10), (5000, 20))
#: Learner → largest rows × features run by default (None: every size).
DEFAULT_CELL_LIMIT = {"GDT": None, "OC1": 1_000_000, "ODT-SVM": None, "Hedge": None,
                      "Forest": None, "CART": None, "RF": None}
LEARNERS = tuple(DEFAULT_CELL_LIMIT)
MB = 1024 ** 2


def _status_kb(field):
    """``VmRSS`` / ``VmHWM`` of this process in kB, or None off Linux."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak():
    """Reset the kernel's peak-RSS mark (Linux ≥ 4.0); False if not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        return True
    except OSError:
        return False


def _maxrss_kb():
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # macOS reports bytes


def fit_cell(name, n_rows, n_features, blas_threads, trace, connection, n_jobs=None):
    """Child process: generate the data, fit once, send the measurements back."""
    try:
        from threadpoolctl import threadpool_limits

        from common import core_learner
        from orangecontrib.oblique.core.datasets import oblique_parity
        with threadpool_limits(limits=blas_threads):
            X, y = oblique_parity(n_rows, n_features, label_noise=LABEL_NOISE,
                                  random_state=DATA_SEED)
            learner = core_learner(name, n_jobs=n_jobs)
            result = {"data_mb": (X.nbytes + y.nbytes) / MB}
            gc.collect()
            if trace:
                import tracemalloc
                tracemalloc.start()
                start = time.perf_counter()
                model = learner.fit(X, y)
                result["traced_mb"] = tracemalloc.get_traced_memory()[1] / MB
                tracemalloc.stop()
                result["traced_seconds"] = time.perf_counter() - start
            else:
                rss_before = _status_kb("VmRSS")
                can_reset = rss_before is not None and _reset_peak()
                if not can_reset:
                    rss_before = _maxrss_kb()  # then only growth above the peak so far
                start, cpu_start = time.perf_counter(), time.process_time()
                model = learner.fit(X, y)
                result["seconds"] = time.perf_counter() - start
                result["cpu_seconds"] = time.process_time() - cpu_start
                peak = _status_kb("VmHWM") if can_reset else _maxrss_kb()
                result["peak_mb"] = max(peak - rss_before, 0) / 1024
                result["peak_source"] = "VmHWM" if can_reset else "ru_maxrss"
                if hasattr(model, "get_n_leaves"):  # a tree
                    result["leaves"] = model.get_n_leaves()
                    result["depth"] = model.get_depth()
                else:  # an ensemble: mean over its members
                    members = model.estimators_
                    result["leaves"] = sum(m.get_n_leaves() for m in members) / len(members)
                    result["depth"] = sum(m.get_depth() for m in members) / len(members)
                result["train_accuracy"] = float((model.predict(X) == y).mean())
        connection.send(result)
    except BaseException as error:  # report, never hang the parent
        connection.send({"error": f"{type(error).__name__}: {error}"})
    finally:
        connection.close()


def run_in_child(name, n_rows, n_features, blas_threads, trace, timeout, n_jobs=None):
    """``fit_cell`` in a fresh spawned process; a dict (``error`` on failure/timeout)."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=fit_cell, args=(name, n_rows, n_features, blas_threads,
                                                     trace, sender, n_jobs))
    process.start()
    sender.close()
    result = None
    if receiver.poll(timeout):
        try:
            result = receiver.recv()
        except EOFError:
            result = None
    if result is None:
        if process.is_alive():
            process.terminate()
            result = {"error": f"no result within {timeout:.0f} s (stopped)"}
        else:
            result = {"error": f"child exited with code {process.exitcode}"}
    # a child that has reported waits at its exit for joblib's idle worker processes
    # (they end after 300 s without work): stopped once it has had time to end itself
    process.join(timeout=10)
    if process.is_alive():
        process.terminate()
        process.join()
    return result


def estimated_seconds(name, n_rows, n_features):
    """The learner's own estimate of its fit (OC1's), or None."""
    if name != "OC1":
        return None
    from orangecontrib.oblique.core import OC1Classifier
    return OC1Classifier().estimated_fit_seconds(n_rows, n_features)


def parse_sizes(text):
    sizes = []
    for item in text.split(","):
        rows, _, features = item.strip().lower().partition("x")
        try:
            sizes.append((int(float(rows)), int(features)))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"sizes are ROWSxFEATURES separated by commas, got {item!r}") from None
    return tuple(sizes)


HEADER = (f"{'learner':<8} {'rows':>7} {'feat':>4} {'data MB':>8} {'fit s':>8} {'CPU s':>8} "
          f"{'peak ΔRSS MB':>12} {'ΔRSS/data':>9} {'traced MB':>9} {'traced/data':>11} "
          f"{'leaves':>7} {'depth':>5} {'train acc':>9}")


def format_row(name, n_rows, n_features, result):
    start = f"{name:<8} {n_rows:>7} {n_features:>4}"
    if "error" in result:
        return f"{start} {'':>8} {result['error']}"
    data = result["data_mb"]
    traced = result.get("traced_mb")
    traced_text = (f"{traced:>9.1f} {traced / data:>11.2f}" if traced is not None
                   else f"{'-':>9} {'-':>11}")
    return (f"{start} {data:>8.2f} {result['seconds']:>8.2f} {result['cpu_seconds']:>8.2f} "
            f"{result['peak_mb']:>12.1f} {result['peak_mb'] / data:>9.2f} {traced_text} "
            f"{result['leaves']:>7.0f} {result['depth']:>5.0f} "
            f"{100 * result['train_accuracy']:>8.1f}%")


def main(argv=None):
    # here, not at the top: a spawned child imports this module and must stay light
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from common import (add_blas_threads, argument_parser, comma_separated,
                        environment_line, print_total_time)

    parser = argument_parser(__doc__)
    parser.add_argument("--learners", type=comma_separated(LEARNERS, "learners"),
                        default=LEARNERS,
                        help=f"comma-separated subset of {','.join(LEARNERS)} (default all)")
    parser.add_argument("--sizes", type=parse_sizes, default=None,
                        help="comma-separated ROWSxFEATURES, e.g. 1000x10,100000x50 "
                             "(default: " + ",".join(f"{r}x{f}" for r, f in SIZES) + ")")
    parser.add_argument("--all", action="store_true",
                        help="every learner at every size (no default size limits)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: sizes 1000x10 and 5000x20, every learner")
    parser.add_argument("--rows", type=int, default=None,
                        help="one size: this many rows (with --features; default 50000)")
    parser.add_argument("--features", type=int, default=None,
                        help="one size: this many features (with --rows; default 200)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="n_jobs of the ensembles (Hedge, Forest, RF; default 2)")
    add_blas_threads(parser, "BLAS/OpenMP threads in the fitting process")
    parser.add_argument("--timeout", type=float, default=3600,
                        help="seconds to wait for one fit before stopping it (default 3600)")
    parser.add_argument("--trace-limit", type=float, default=60,
                        help="refit under tracemalloc when the fit took at most this many "
                             "seconds (default 60; 0 disables tracing)")
    args = parser.parse_args(argv)
    if args.rows is not None or args.features is not None:
        if args.sizes is not None:
            parser.error("--rows/--features or --sizes, not both")
        args.sizes = ((50000 if args.rows is None else args.rows,
                       200 if args.features is None else args.features),)
        if min(args.sizes[0]) < 1:
            parser.error("--rows and --features must be positive")
    explicit_sizes = args.sizes is not None
    sizes = QUICK_SIZES if args.quick else (args.sizes if explicit_sizes else SIZES)

    # Inherited by the spawned children before they import numpy.
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(args.blas_threads)

    print(environment_line(args.blas_threads))
    print(f"Data: oblique_parity (3 oblique hyperplanes, {100 * LABEL_NOISE:.0f} % label "
          f"noise, seed {DATA_SEED}); one fresh process per fit.")
    print("fit s: wall clock; CPU s: process CPU time; peak ΔRSS: peak resident memory during "
          "the fit above the RSS before it; traced: tracemalloc peak in a separate traced "
          "fit; data MB = X.nbytes + y.nbytes.")
    print(f"Ensembles (Hedge, Forest, RF) with n_jobs={args.jobs}.")
    print()
    print(HEADER)
    print("-" * len(HEADER))
    sys.stdout.flush()
    start = time.perf_counter()
    skipped = []
    for name in args.learners:
        limit = DEFAULT_CELL_LIMIT[name]
        for n_rows, n_features in sizes:
            if (limit is not None and n_rows * n_features > limit and not args.all
                    and not args.quick and not explicit_sizes):
                skipped.append(f"{name} {n_rows}x{n_features}")
                estimate = estimated_seconds(name, n_rows, n_features)
                if estimate is not None:
                    print(format_row(name, n_rows, n_features, {
                        "error": f"not run: estimated {estimate:,.0f} s "
                                 f"(OC1Classifier.estimated_fit_seconds)"}))
                continue
            result = run_in_child(name, n_rows, n_features, args.blas_threads, False,
                                  args.timeout, args.jobs)
            if "error" not in result and result["seconds"] <= args.trace_limit:
                traced = run_in_child(name, n_rows, n_features, args.blas_threads, True,
                                      args.timeout, args.jobs)
                if "error" not in traced:
                    result["traced_mb"] = traced["traced_mb"]
            print(format_row(name, n_rows, n_features, result))
            sys.stdout.flush()
    if skipped:
        print(f"\nNot run by default (beyond the learner's cell limit; --all runs them): "
              f"{', '.join(skipped)}")
    print_total_time(start)


if __name__ == "__main__":
    main()
