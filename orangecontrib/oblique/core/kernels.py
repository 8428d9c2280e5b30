"""Compiled kernels (numba) for the per-node work that numpy does in many small calls.

A line search of OC1 (:func:`~.impurity.best_step`, Eq. 2) at a node of a few hundred
rows costs ~100 µs in numpy, nearly all of it the overhead of some thirty array calls;
compiled, the same arithmetic takes a few µs.  The kernels repeat the numpy code's
operations in the same order (left-to-right products, sums over the classes from the
first class on), so that with whole-number weights -- Orange's default, and any data
without instance weights -- they give bit for bit the same scores and steps, and hence the
same trees.  With fractional weights, numpy's matrix products (``indicators @ mask``) may
add in another order: the results then agree to rounding, not to the bit.  The sorts are
numpy's own (``np.argsort``'s quicksort and stable sort, called through numpy's C API
table: :data:`NUMPY_ARGSORT`), several times faster than numba's on unsorted data and in
the very order numpy's code sorts.

GDT's split of a node (:func:`gdt_node_split`, Manwani & Sastry, Section II) is one kernel
call instead of dozens of numpy calls; it calls the numpy code's LAPACK and BLAS
routines on arrays of the same layouts, so its trees are the numpy code's to the bit.

numba is installed from the package registry as a wheel (no compiler); without it
:data:`AVAILABLE` is False and the numpy code runs.  Set the environment variable
``OBLIQUE_NO_NUMBA=1`` to use the numpy code (for comparisons).
"""
import os

import numpy as np

from .compilation import COMPILED_MODULES, modules_digest

try:  # pragma: no cover - numba is a dependency; the numpy code is the fallback
    if os.environ.get("OBLIQUE_NO_NUMBA"):
        raise ImportError("OBLIQUE_NO_NUMBA is set")
    import llvmlite.binding as _llvm   # external symbols: LAPACK, BLAS, numpy's argsorts
    from numba import carray as _carray, cfunc as _cfunc, njit, types as _types
    AVAILABLE = True
except ImportError:  # pragma: no cover
    AVAILABLE = False

    def njit(*_args, **_kwargs):
        """Without numba: leave the function as plain Python (it is not called)."""
        return lambda function: function

_TINY = float(np.finfo(float).tiny)

#: The folders whose compiled modules :func:`register_compiled_modules` has registered.
_REGISTERED = set()


def register_compiled_modules(folder, modules=COMPILED_MODULES):
    """Key numba's cache of every function of ``modules`` (files in ``folder``) on all of
    them together; returns whether that was done.

    numba keys a cached function on its own source file only, not on the functions it
    calls from other modules (its documentation: "changes in functions called by a cached
    function are not detected"): after an update that changes only ``kernels.py`` -- a
    ``git pull`` in the README's editable install -- a cached function of ``oc1.py`` would
    run the old kernels' code.  So each of numba's cache locators gets a subclass, first in
    its list (``numba.core.caching.CacheImpl._locator_classes``), that takes the
    functions of these files only, keeps them where numba would, and adds the digest of all
    of them (:func:`modules_digest`) to each function's source stamp: a change of any one
    compiles all of them again.  Must run before their functions are decorated.  Where
    numba's internals are not as expected (another numba) nothing is changed."""
    folder = os.path.abspath(folder)
    if folder in _REGISTERED:
        return True
    try:
        from numba.core import caching
        digest = modules_digest(folder, modules)
        paths = frozenset(os.path.normcase(os.path.join(folder, name)) for name in modules)
        implementation = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        locators = implementation._locator_classes

        def ours(base):
            class Locator(base):
                """numba's locator for the package's compiled modules only, its stamp
                with the digest of all of them."""

                @classmethod
                def from_function(cls, py_func, py_file):
                    if os.path.normcase(os.path.abspath(py_file)) not in paths:
                        return None
                    return super().from_function(py_func, py_file)

                def get_source_stamp(self):
                    return super().get_source_stamp(), digest

            Locator.__name__ = Locator.__qualname__ = "Oblique" + base.__name__
            Locator.oblique_modules = paths
            return Locator

        locators[:0] = [ours(base) for base in list(locators)
                        if not hasattr(base, "oblique_modules")]
    except (AttributeError, ImportError, OSError, TypeError):
        return False
    _REGISTERED.add(folder)
    return True


if AVAILABLE:  # before any cached function of the package is decorated
    register_compiled_modules(os.path.dirname(os.path.abspath(__file__)))

#: The measures of :data:`~.impurity.MEASURES`, numbered for the kernels.
MEASURE_CODES = {"twoing": 0, "information_gain": 1, "gini": 2, "max_minority": 3,
                 "sum_minority": 4, "sum_of_variances": 5}


@njit(cache=True, nogil=True)
def _side_entropy(counts, size):
    """``entropy(counts, size=size)`` of one candidate side (bits)."""
    total = 0.0
    scale = max(size, _TINY)
    for k in range(counts.shape[0]):
        p = counts[k] / scale
        total += p * np.log2(p if p > 0 else 1.0)
    return -total


@njit(cache=True, nogil=True)
def sum_of_squares(counts):
    """``Σ counts²``, added from the first class on (as numpy's ``(c ** 2).sum(axis=0)``)."""
    total = 0.0
    for k in range(counts.shape[0]):
        total += counts[k] * counts[k]
    return total


@njit(cache=True, nogil=True)
def _add_side_variance(variance, counts, size, rank):
    """``variance + Σ rank² · counts − (Σ rank · counts)² / size``: one side's term of
    the sum of variances added, in numpy's order."""
    first, second = 0.0, 0.0
    for k in range(counts.shape[0]):
        first += rank[k] * counts[k]
        second += rank[k] * rank[k] * counts[k]
    return variance + second - first * first / max(size, _TINY)


# ----- numpy's argsort, called from the kernels -----
#
# A line search's time is mostly its sort: numba's ``np.argsort`` takes 14 µs for 270
# numbers, numpy's (an AVX2/AVX-512 quicksort where the machine has one) 3 µs.  The kernels
# call numpy's own function -- the float64 dtype's ``argsort[quicksort]`` slot, read from
# numpy's C API table -- so they order every crossing exactly as ``np.argsort`` does (ties
# included).  The slot is checked against ``np.argsort`` when this module is imported;
# where it cannot be found or disagrees (or with the environment variable
# ``OBLIQUE_NUMBA_ARGSORT=1``), numba's quicksort stands in (a C-callable numba function of
# the same signature): the same sorted values, ties perhaps in another order, which with
# whole-number weights changes no count, impurity or step.

#: ``_PyDataType_GetArrFuncs``' place in numpy's C API table (``__multiarray_api.h``) and
#: the places of ``argsort[quicksort]`` and ``argsort[stable]`` in ``PyArray_ArrFuncs``
#: (21 casts, 12 functions, 3 sorts, then the 3 argsorts).
_ARRFUNCS_API_INDEX, _ARGSORT_SLOTS = 365, {"quicksort": 36, "stable": 38}


def _numpy_argsort_address(kind):
    """The address of numpy's float64 argsort of ``kind`` ("quicksort" or "stable"),
    ``int f(double *values, npy_intp *order, npy_intp n, void *unused)`` (``order``
    holding 0 .. n - 1 on entry), if it sorts as ``np.argsort(kind=kind)`` does; else
    None."""
    import ctypes
    slot = _ARGSORT_SLOTS[kind]
    if np.lib.NumpyVersion(np.__version__) < "2.0.0":
        return None   # the C API table's places above are numpy 2's
    try:
        from numpy._core import _multiarray_umath
        # a prototype of its own (ctypes.pythonapi's attributes are shared by everyone)
        get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
            ("PyCapsule_GetPointer", ctypes.pythonapi))
        table = (ctypes.c_void_p * (_ARRFUNCS_API_INDEX + 1)).from_address(
            get_pointer(_multiarray_umath._ARRAY_API, None))
        array_functions = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(
            table[_ARRFUNCS_API_INDEX])(id(np.dtype(np.float64)))
        address = (ctypes.c_void_p * (slot + 1)).from_address(array_functions)[slot]
        argsort = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                                   ctypes.c_ssize_t, ctypes.c_void_p)(address)
    except (AttributeError, ImportError, OSError, TypeError, ValueError):
        return None
    generator = np.random.RandomState(0)
    for n in (1, 2, 7, 16, 33, 300):   # ties, infinities and NaN among them
        values = np.round(generator.normal(size=n), 1)
        values[::5] = np.inf
        values[::7] = np.nan
        order = np.arange(n, dtype=np.intp)
        if argsort(values.ctypes.data, order.ctypes.data, n, values.ctypes.data) != 0 \
                or not np.array_equal(order, np.argsort(values, kind=kind)):
            return None
    return address


#: Whether the kernels sort with numpy's own argsort (:func:`_numpy_argsort_address`):
#: its quicksort, and its stable sort.
NUMPY_ARGSORT = NUMPY_STABLE_ARGSORT = False
if AVAILABLE:  # pragma: no cover - without numba nothing below is called
    _ARGSORT_SIGNATURE = _types.intc(_types.voidptr, _types.voidptr, _types.intp,
                                     _types.voidptr)
    _FALLBACK_SIGNATURE = _types.intc(_types.CPointer(_types.float64),
                                      _types.CPointer(_types.intp), _types.intp,
                                      _types.voidptr)

    def _argsort_symbol(kind):
        """numpy's argsort of ``kind`` as an external function of the kernels, or numba's
        sort of that kind in its signature; and whether it is numpy's.
        ``OBLIQUE_NUMBA_ARGSORT=1``: numba's (for comparisons)."""
        address = (None if os.environ.get("OBLIQUE_NUMBA_ARGSORT")
                   else _numpy_argsort_address(kind))
        found = address is not None
        if not found:
            numba_kind = "mergesort" if kind == "stable" else "quicksort"

            @_cfunc(_FALLBACK_SIGNATURE, cache=True, nogil=True)
            def _numba_argsort(values, order, n, _unused):
                """numba's sort of the kind, in the signature of numpy's argsort."""
                sorted_order = np.argsort(np.copy(_carray(values, (n,))), kind=numba_kind)
                for i in range(n):
                    order[i] = sorted_order[i]
                return 0

            address = _numba_argsort.address
        name = f"oblique_numpy_argsort_{kind}"
        _llvm.add_symbol(name, address)
        return _types.ExternalFunction(name, _ARGSORT_SIGNATURE), found

    _numpy_argsort, NUMPY_ARGSORT = _argsort_symbol("quicksort")
    _numpy_stable_argsort, NUMPY_STABLE_ARGSORT = _argsort_symbol("stable")
else:  # pragma: no cover
    _numpy_argsort = _numpy_stable_argsort = None


@njit(cache=True, nogil=True)
def stable_argsort(values, order):
    """``order[:] = np.argsort(values, kind="stable")`` by numpy's own stable sort (or
    numba's, :data:`NUMPY_STABLE_ARGSORT`): the one order of a stable sort."""
    for i in range(values.shape[0]):
        order[i] = i
    _numpy_stable_argsort(values.ctypes, order.ctypes, values.shape[0], values.ctypes)


#: Rows of a :func:`line_step` workspace's ``counts`` (K columns each).
_FIXED_RIGHT, _NEGATIVE_SUM, _CUMULATIVE, _LEFT, _RIGHT = range(5)


@njit(cache=True, nogil=True)
def line_workspace(n_rows, n_classes):
    """The arrays :func:`line_step` works in, made once for a node's line searches:
    ``(classes_and_order, crossings_and_weights, counts)`` -- per row that moves, its
    class and the sort order (2 × n whole numbers); its crossing point and its weight,
    negative for a row moving left (2 × n); and the class counts of a candidate (5 × K:
    rows right that never move, rows moving left, the cumulative moves, the two sides)."""
    return (np.empty((2, n_rows), dtype=np.int64), np.empty((2, n_rows)),
            np.empty((5, n_classes)))


@njit(cache=True, nogil=True)
def row_classes(indicators):
    """The class and the weight of every row of a class indicator matrix (K, n) of
    :func:`~.impurity.class_indicators` (one non-zero per column at most)."""
    K, n = indicators.shape
    classes = np.zeros(n, dtype=np.int64)
    weights = np.zeros(n)
    for j in range(n):
        for k in range(K):
            if indicators[k, j] != 0:
                classes[j], weights[j] = k, indicators[k, j]
                break
    return classes, weights


@njit(cache=True, nogil=True)
def best_step(current, direction, indicators, total, code, parent_entropy, rank):
    """:func:`~.impurity.best_step` (OC1's Eq. 2 line search) compiled: the best ``t``
    for ``current + t·direction >= 0`` and its impurity by measure ``code`` (OC1,
    Appendix B, as :data:`~.impurity.MEASURES` computes them); ``(inf, nan)`` when no
    row can move.  ``indicators``: :func:`~.impurity.class_indicators`' matrix.

    ``parent_entropy`` (information gain) and ``rank`` (sum of variances) are the node's,
    computed once by the caller.  (A node's many searches call :func:`line_step`.)
    """
    classes, weights = row_classes(indicators)
    return line_step(current, direction, classes, weights, total, code, parent_entropy,
                     rank, *line_workspace(current.shape[0], total.shape[0]))


@njit(cache=True, nogil=True)
def line_step(current, direction, classes, weights, total, code, parent_entropy, rank,
              classes_and_order, crossings_and_weights, counts):
    """:func:`best_step` from the rows' ``classes`` and ``weights`` (:func:`row_classes`),
    in a :func:`line_workspace`: each row adds its weight to its own class's count only
    (the indicator matrix's zeros added nothing), with the same sums in the same order."""
    K, n = total.shape[0], current.shape[0]
    moving_class, order = classes_and_order[0], classes_and_order[1]
    crossings, signed = crossings_and_weights[0], crossings_and_weights[1]
    fixed_right, negative_sum = counts[_FIXED_RIGHT], counts[_NEGATIVE_SUM]
    cumulative, left, right = counts[_CUMULATIVE], counts[_LEFT], counts[_RIGHT]
    for k in range(K):
        fixed_right[k], negative_sum[k], cumulative[k] = 0.0, 0.0, 0.0
    n_moving = 0
    any_negative = False
    for j in range(n):
        if direction[j] != 0:
            moving_class[n_moving] = classes[j]
            crossings[n_moving] = -current[j] / direction[j]
            if direction[j] < 0:
                any_negative = True
                negative_sum[classes[j]] += weights[j]
                signed[n_moving] = -weights[j]
            else:
                signed[n_moving] = weights[j]
            n_moving += 1
        elif current[j] >= 0:
            fixed_right[classes[j]] += weights[j]
    if n_moving == 0:
        return np.inf, np.nan
    u = crossings[:n_moving]
    for i in range(n_moving):
        order[i] = i
    _numpy_argsort(u.ctypes, order.ctypes, n_moving, u.ctypes)
    # right of t just above the i-th crossing: (d > 0 rows among the first i + 1) +
    # (d < 0 rows after): the cumulative signed counts plus this constant term
    offset = fixed_right
    if any_negative:
        for k in range(K):
            offset[k] = negative_sum[k] + fixed_right[k]
    best_score, best_position = np.inf, -1
    following = u[order[0]]
    for i in range(n_moving - 1):
        o = order[i]
        cumulative[moving_class[o]] += signed[o]
        here, following = following, u[order[i + 1]]
        if not following > here:
            continue  # not between distinct crossing points: no candidate
        n_left, n_right = 0.0, 0.0
        largest_left, largest_right = -np.inf, -np.inf
        for k in range(K):
            left[k] = max(total[k] - (cumulative[k] + offset[k]), 0.0)
            n_left += left[k]
            largest_left = max(largest_left, left[k])
        for k in range(K):
            right[k] = max(total[k] - left[k], 0.0)
            n_right += right[k]
            largest_right = max(largest_right, right[k])
        if n_left <= 0 or n_right <= 0:
            score = np.inf  # an empty side separates nothing
        elif largest_left >= n_left and largest_right >= n_right:
            score = 0.0  # both sides homogeneous
        elif code == 0:  # twoing
            n_all = n_left + n_right
            scale_left, scale_right = max(n_left, _TINY), max(n_right, _TINY)
            difference = 0.0
            for k in range(K):
                difference += abs(left[k] / scale_left - right[k] / scale_right)
            value = (n_left / n_all) * (n_right / n_all) * (difference * difference) / 4
            score = 1.0 / max(value, _TINY)
        elif code == 1:  # information gain
            gain = parent_entropy - (n_left * _side_entropy(left, n_left)
                                     + n_right * _side_entropy(right, n_right)) / (
                                         n_left + n_right)
            score = 1.0 / max(gain, _TINY) if gain > 1e-12 else np.inf
        elif code == 2:  # Gini
            score = ((n_left - sum_of_squares(left) / max(n_left, _TINY))
                     + (n_right - sum_of_squares(right) / max(n_right, _TINY))) / (
                         n_left + n_right)
        elif code == 3:  # max minority
            score = max(n_left - largest_left, n_right - largest_right)
        elif code == 4:  # sum minority
            score = (n_left - largest_left) + (n_right - largest_right)
        else:  # sum of variances, classes numbered by decreasing frequency (rank)
            score = max(_add_side_variance(_add_side_variance(0.0, left, n_left, rank),
                                           right, n_right, rank), 0.0)
        if best_position < 0 or score < best_score:
            best_score, best_position = score, i
    if best_position < 0:
        return np.inf, np.nan
    return best_score, (u[order[best_position]] + u[order[best_position + 1]]) / 2


@njit(cache=True, nogil=True)
def side_impurity(values, classes, weights, total, code, parent_entropy, rank,
                  classes_and_order, crossings_and_weights, counts):
    """The impurity of the split ``values >= 0`` (right) by measure ``code``: numpy's
    ``impurity(left[None], total, measure)`` for the class counts ``left`` of the rows
    with ``values < 0``, to the bit for whole-number weights and fewer than 8 classes
    (numpy adds more classes pairwise).

    It is the one candidate of a :func:`line_step` from ``-1`` (rows left of the split)
    and ``+1`` (right) along ``+1``: all crossings are at ``±1``, so the only candidate is
    ``t = 0``, with the rows right of the split on its right; with whole-number weights
    its counts (the node's less those on the right) are the left rows' counts exactly."""
    n = values.shape[0]
    sides = np.empty(n)
    for j in range(n):
        sides[j] = -1.0 if values[j] < 0 else 1.0
    score, _ = line_step(sides, np.ones(n), classes, weights, total, code, parent_entropy,
                         rank, classes_and_order, crossings_and_weights, counts)
    return score
