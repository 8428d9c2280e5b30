"""Fitting the members of an ensemble (the Hedge ensemble's trees, the forest's trees) one
after the other or in parallel through joblib, with progress and cancel.

Each member's data and seeds are drawn by the caller before any member is fitted, so the
ensemble is the same for any number of jobs (up to rounding where BLAS runs more threads
in this process than in joblib's worker processes, which run one); under ``joblib.parallel_config(backend=
"dask")`` the fits run on a Dask cluster.

**When workers pay** (:func:`jobs_for`).  Worker processes are joblib's
(its default backend, loky): started on the first fit that hands them work -- never on
import -- and kept by joblib between fits, so a later fit finds them warm; a worker exits
after joblib's 300 s without work, and joblib shuts them all down at exit.  A cold start
costs each worker its imports and the kernels' loading from numba's cache
(:data:`WORKER_START_SECONDS`); a warm pool costs the hand-over of the rows and the trees
(:data:`HAND_OVER_SECONDS`).  The work of a fit is its cells, the rows times the features
each member is trained on, summed over the members; at :data:`SECONDS_PER_CELL` (the
cheapest member's cost measured) it takes ``t = cells · SECONDS_PER_CELL`` in one
process.  ``k`` jobs are used only when they save more than they cost,
``t · (1 − 1/k) > overhead`` (the start-up plus the hand-over on a cold pool, the
hand-over on a warm one or in threads); otherwise this process fits every member, so a
first fit is never slower than one process.  The rule applies to an ``n_jobs`` given to
the estimator; with ``n_jobs=None`` joblib's context (``parallel_config``) decides alone.
"""
import importlib
import threading
import time
import warnings

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs

#: Seconds for joblib to start its worker processes and for each to import the core and
#: load its kernels from numba's cache, before the first member is fitted; measured by
#: ``benchmarks/parallel.py`` on the project's 2-core machine (a first fit with 2 jobs
#: against 1, wine and breast cancer: 3.3-4.6 s while other work shared the cores).
WORKER_START_SECONDS = 3.0
#: Seconds for handing the members' rows to warm workers and their trees back, per fit
#: (a Hedge fit on wine, 30-50 ms, gains nothing from 2 jobs; see doc/speed.md).
HAND_OVER_SECONDS = 0.05
#: Seconds per cell (a row times a feature of a member's training data) of the cheapest
#: members measured: the Hedge ensemble's ODT-SVM trees on breast cancer, 164 ms of CPU for
#: 10 trees on 512 rows × 30 features (doc/speed.md); slower members (more rows, OC1)
#: cost more per cell, so the rule errs towards one process.
SECONDS_PER_CELL = 1e-6
#: Tasks a job gets in a fit of many members (:func:`batch_size`).
BATCHES_PER_JOB = 10
#: joblib's loky workers exit after this many seconds without work (its default).
IDLE_WORKER_SECONDS = 300

#: The worker processes this module last handed work to: how many, and until when
#: (``time.monotonic``) they stay warm.
_workers = {"count": 0, "warm_until": float("-inf")}
#: The thread starting workers in the background (:func:`start_workers`), if any.
_starting = {"thread": None}
_starting_lock = threading.Lock()
#: Seconds per cell measured on the last one-process fit of every kind of member
#: (:func:`run_fits`'s ``work``).
_seconds_per_cell = {}
#: The kinds of member fitted in this process at least once.
_fits_seen = set()


def workers_warm(n_workers):
    """True when ``n_workers`` worker processes were handed work by this module less than
    :data:`IDLE_WORKER_SECONDS` ago (so joblib still has them)."""
    return _workers["count"] >= n_workers and time.monotonic() < _workers["warm_until"]


def jobs_for(n_cells, n_jobs, prefer=None, kind=None):
    """The number of jobs that fit members of ``n_cells`` cells in all (the rows times the
    features each is trained on, summed): ``n_jobs`` as joblib reads it, or 1 when the
    work is too small to pay for them (the rule of the module docstring).  ``n_jobs=None``
    is joblib's context's number, the rule not applied; ``prefer="threads"``: threads,
    which start at no cost.  ``kind`` names the members (their class): the seconds per
    cell are the least measured on fits of such members in this process
    (:func:`run_fits`), else :data:`SECONDS_PER_CELL`."""
    jobs = effective_n_jobs(n_jobs)
    if jobs == 1 or n_jobs is None:
        return jobs
    overhead = HAND_OVER_SECONDS
    if prefer != "threads" and not workers_warm(jobs):
        overhead += WORKER_START_SECONDS
    return jobs if _saved_seconds(n_cells, jobs, kind) > overhead else 1


def plan_jobs(n_cells, n_jobs, prefer=None, kind=None):
    """:func:`jobs_for`, and when that is 1 only because the worker processes are not
    started yet (warm ones would pay for the work), their start in the background, in
    another thread, while this process fits the members: the next fit of such work finds
    them warm.  Only for an ``n_jobs`` given (a user's choice of parallel work), never on
    import."""
    jobs = jobs_for(n_cells, n_jobs, prefer, kind)
    wanted = effective_n_jobs(n_jobs)
    if (jobs == 1 and wanted > 1 and n_jobs is not None and prefer != "threads"
            and not workers_warm(wanted)
            and _saved_seconds(n_cells, wanted, kind) > HAND_OVER_SECONDS):
        start_workers(wanted)
    return jobs


def _note_seconds_per_cell(kind, seconds):
    """Keep the seconds per cell of a fit of ``kind`` in this process: the least measured,
    leaving out the first fit of each kind (it loads the kernels, which later fits do
    not pay), so that the rule errs towards one process."""
    if kind not in _fits_seen:
        _fits_seen.add(kind)
        return
    _seconds_per_cell[kind] = min(seconds, _seconds_per_cell.get(kind, np.inf))


def _saved_seconds(n_cells, jobs, kind):
    """What ``jobs`` jobs save on work of ``n_cells`` cells of members of ``kind``."""
    return n_cells * _seconds_per_cell.get(kind, SECONDS_PER_CELL) * (1 - 1 / jobs)


def _load_core():
    """A worker's start: the core's modules imported (what every member's fit needs)."""
    importlib.import_module(f"{__package__}.base")
    return True


def start_workers(n_workers):
    """Start ``n_workers`` of joblib's worker processes in a background thread (one task
    each, which imports the core); they count as warm once all have answered.  Returns
    the thread (already started), or None when a start is already under way."""
    with _starting_lock:
        if _starting["thread"] is not None and _starting["thread"].is_alive():
            return None

        def start():
            try:
                Parallel(n_jobs=n_workers)(delayed(_load_core)() for _ in range(n_workers))
            except Exception:   # pylint: disable=broad-except
                return          # (no workers: the next fit starts them itself)
            _workers.update(count=n_workers,
                            warm_until=time.monotonic() + IDLE_WORKER_SECONDS)

        thread = threading.Thread(target=start, name="oblique-worker-start", daemon=True)
        _starting["thread"] = thread
        thread.start()
        return thread


def batch_size(n_fits, n_jobs):
    """How many of ``n_fits`` members one task of ``n_jobs`` jobs fits: 1 in one job;
    else as many as makes :data:`BATCHES_PER_JOB` tasks a job, so that the rows handed
    to the workers (hashed and written once for a task by joblib) are handed over a few
    times, not once per member, while the jobs still end about together."""
    if n_jobs <= 1:
        return 1
    return max(1, -(-n_fits // (BATCHES_PER_JOB * n_jobs)))


def scaled_progress(progress_callback, start, end):
    """``progress_callback`` for a part of the work: fraction ``f`` of the part is reported
    as ``start + f · (end - start)``; None without a callback."""
    if progress_callback is None:
        return None

    def report(fraction, *args, **kwargs):
        return progress_callback(start + fraction * (end - start), *args, **kwargs)

    return report


def run_fits(fits, n_jobs=None, progress_callback=None, prefer=None, work=None):
    """The results of ``fits``, in order: callables ``fit(progress_callback=None)``.

    With one job (``n_jobs`` as joblib reads it: None is 1 outside a joblib context) they
    run here one after the other, each reporting its share of the progress; otherwise
    through joblib (``prefer``: "threads" or "processes", or None for the backend's
    default), the progress advancing as each is done, in order.  An exception raised by
    ``progress_callback`` stops the fits left, in this thread.  The caller chooses
    ``n_jobs`` with :func:`plan_jobs`.  ``work``, ``(kind, cells)``: the fits' members and
    their cells, whose seconds per cell a fit in this process measures for
    :func:`jobs_for`.
    """
    n_fits = len(fits)
    results = []
    jobs = effective_n_jobs(n_jobs)
    if jobs == 1:
        start = time.process_time()
        for index, fit in enumerate(fits):
            done = (index + 1) / n_fits
            results.append(fit(progress_callback=scaled_progress(
                progress_callback, index / n_fits, done)))
            if progress_callback is not None:
                progress_callback(done)
        if work is not None and work[1] > 0:
            _note_seconds_per_cell(work[0], (time.process_time() - start) / work[1])
        return results
    generator = Parallel(n_jobs=n_jobs, prefer=prefer, return_as="generator")(
        delayed(fit)() for fit in fits)
    try:
        for result in generator:
            results.append(result)
            if progress_callback is not None:
                progress_callback(len(results) / n_fits)  # may raise: stops the rest
    finally:
        # Stop the remaining fits now, in this thread: left to the garbage collector, the
        # generator's clean-up could run inside a later fit's submission to the shared
        # worker pool and wait for a lock that submission holds.  A cancelled fit drops
        # the members done; joblib's warning that it cancelled tasks says nothing new.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "(?s).*tasks .*(have|has) been", UserWarning)
            generator.close()
    if prefer != "threads" and len(results) == n_fits:
        _workers.update(count=jobs, warm_until=time.monotonic() + IDLE_WORKER_SECONDS)
    return results
