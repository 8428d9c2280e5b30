"""Fitting the members of an ensemble (the Hedge ensemble's trees, the forest's trees) one
after the other or in parallel through joblib, with progress and cancel.

Each member's data and seeds are drawn by the caller before any member is fitted, so the
ensemble is the same for any number of jobs (up to rounding where BLAS runs more threads
in this process than in joblib's worker processes, which run one); under ``joblib.parallel_config(backend=
"dask")`` the fits run on a Dask cluster.
"""
import warnings

from joblib import Parallel, delayed, effective_n_jobs


def scaled_progress(progress_callback, start, end):
    """``progress_callback`` for a part of the work: fraction ``f`` of the part is reported
    as ``start + f · (end - start)``; None without a callback."""
    if progress_callback is None:
        return None

    def report(fraction, *args, **kwargs):
        return progress_callback(start + fraction * (end - start), *args, **kwargs)

    return report


def run_fits(fits, n_jobs=None, progress_callback=None, prefer=None):
    """The results of ``fits``, in order: callables ``fit(progress_callback=None)``.

    With one job (``n_jobs`` as joblib reads it: None is 1 outside a joblib context) they
    run here one after the other, each reporting its share of the progress; otherwise
    through joblib (``prefer``: "threads" or "processes", or None for the backend's
    default), the progress advancing as each is done, in order.  An exception raised by
    ``progress_callback`` stops the fits left, in this thread.
    """
    n_fits = len(fits)
    results = []
    if effective_n_jobs(n_jobs) == 1:
        for index, fit in enumerate(fits):
            done = (index + 1) / n_fits
            results.append(fit(progress_callback=scaled_progress(
                progress_callback, index / n_fits, done)))
            if progress_callback is not None:
                progress_callback(done)
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
    return results
