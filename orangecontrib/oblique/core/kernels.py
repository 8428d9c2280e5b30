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


# ----- GDT (Manwani & Sastry): a node's split -----
#
# Bit for bit the numpy code's results (the same trees, tested): the eigendecompositions are
# LAPACK's ``dsyev`` from scipy (``scipy.linalg.cython_lapack``) with the arguments
# ``scipy.linalg.lapack.dsyev`` gives it, and the matrix products are BLAS calls on arrays
# of the numpy code's memory layouts (numba calls scipy's BLAS, numpy its own build of the
# same OpenBLAS: the same kernels, so the same sums).  Only the class weights on each side
# of a candidate are added row after row; with fractional weights numpy's matrix product
# may add them in another order, and the Gini indices then agree to rounding.

if AVAILABLE:  # pragma: no cover - without numba nothing below is called
    from numba.extending import get_cython_function_address as _cython_function

    # external symbols (not ctypes pointers), so that the kernels can be cached
    _llvm.add_symbol("oblique_gdt_dsyev",
                     _cython_function("scipy.linalg.cython_lapack", "dsyev"))
    _llvm.add_symbol("oblique_gdt_dsyrk",
                     _cython_function("scipy.linalg.cython_blas", "dsyrk"))
    # dsyev's own steps (symmetric_eigen_first / symmetric_eigen_then)
    for _name in ("dsytrd", "dorgtr", "dsteqr", "dsterf"):
        _llvm.add_symbol("oblique_gdt_" + _name,
                         _cython_function("scipy.linalg.cython_lapack", _name))
    _dsyev = _types.ExternalFunction("oblique_gdt_dsyev", _types.void(*[_types.voidptr] * 9))
    _dsyrk = _types.ExternalFunction("oblique_gdt_dsyrk", _types.void(*[_types.voidptr] * 10))
    _dsytrd = _types.ExternalFunction("oblique_gdt_dsytrd",
                                      _types.void(*[_types.voidptr] * 10))
    _dorgtr = _types.ExternalFunction("oblique_gdt_dorgtr", _types.void(*[_types.voidptr] * 8))
    _dsteqr = _types.ExternalFunction("oblique_gdt_dsteqr", _types.void(*[_types.voidptr] * 8))
    _dsterf = _types.ExternalFunction("oblique_gdt_dsterf", _types.void(*[_types.voidptr] * 4))
else:  # pragma: no cover
    _dsyev = _dsyrk = _dsytrd = _dorgtr = _dsteqr = _dsterf = None

_UPPER = np.array([ord("U")], dtype=np.uint8)
_LOWER = np.array([ord("L")], dtype=np.uint8)
_NO_TRANSPOSE = np.array([ord("N")], dtype=np.uint8)
_JOBS = np.array([ord("N"), ord("V")], dtype=np.uint8)
_ONE_ZERO = np.array([1.0, 0.0])


@njit(cache=True, nogil=True)
def gram(A):
    """``A.T @ A`` as numpy computes it for a C-contiguous ``A``: BLAS ``dsyrk`` of one
    triangle (row-major upper, i.e. column-major lower), mirrored.  (Another layout is
    copied to C order first.)"""
    A = np.ascontiguousarray(A)
    k, n = A.shape
    result = np.zeros((n, n))
    size = np.array([n], dtype=np.int32)
    depth = np.array([k], dtype=np.int32)
    leading = np.array([max(n, 1)], dtype=np.int32)
    _dsyrk(_LOWER.ctypes, _NO_TRANSPOSE.ctypes, size.ctypes, depth.ctypes,
           _ONE_ZERO[:1].ctypes, A.ctypes, leading.ctypes, _ONE_ZERO[1:].ctypes,
           result.ctypes, leading.ctypes)
    for i in range(n):
        for j in range(i + 1, n):
            result[j, i] = result[i, j]
    return result


@njit(cache=True, nogil=True)
def symmetric_eigen(matrix, with_vectors):
    """``scipy.linalg.lapack.dsyev(matrix, compute_v=with_vectors)``: the eigenvalues
    (ascending), the eigenvectors as columns (when ``with_vectors``) and LAPACK's
    ``info``."""
    n = matrix.shape[0]
    work_size = max(3 * n - 1, 1)
    vectors = matrix.T.copy()  # column-major: the transpose's rows
    values = np.empty(n)
    work = np.empty(work_size)
    job = _JOBS[1:] if with_vectors else _JOBS[:1]
    size = np.array([n], dtype=np.int32)
    work_length = np.array([work_size], dtype=np.int32)
    info = np.zeros(1, dtype=np.int32)
    _dsyev(job.ctypes, _UPPER.ctypes, size.ctypes, vectors.ctypes, size.ctypes,
           values.ctypes, work.ctypes, work_length.ctypes, info.ctypes)
    return values, vectors.T, info[0]  # column-major, as scipy's


#: dsyev scales a matrix whose largest |entry| is outside [sqrt(smlnum), sqrt(bignum)]
#: (about 1e-146 and 1e146); well inside these bounds its steps are called one by one.
_UNSCALED_RANGE = (1e-140, 1e140)


@njit(cache=True, nogil=True)
def symmetric_eigen_first(matrix):
    """``dsyev(matrix, compute_v=0)``'s eigenvalues and ``info`` (as
    :func:`symmetric_eigen` without vectors, to the bit), and the state for
    :func:`symmetric_eigen_then`, which completes ``dsyev(matrix, compute_v=1)`` from the
    same tridiagonal reduction.

    dsyev is ``dsytrd`` (the reduction to tridiagonal form, the same with or without
    vectors), then ``dsterf`` (eigenvalues only) or ``dorgtr`` and ``dsteqr`` (with
    vectors), with dsyev's workspace split and lengths (``lwork = 3n − 1``): the same calls
    on the same numbers, so the same results.  A matrix dsyev would scale first (its
    largest entry outside :data:`_UNSCALED_RANGE`, or not finite) and ``n < 2`` go to
    :func:`symmetric_eigen` itself, twice."""
    n = matrix.shape[0]
    reduced = matrix.T.copy()  # column-major, as symmetric_eigen's
    work = np.empty(max(3 * n - 1, 1))
    diagonal = np.empty(n)
    largest = 0.0  # dlansy("M", "U"): the largest |entry| of the upper triangle
    finite = True
    for j in range(n):
        for i in range(j + 1):
            value = abs(matrix[i, j])
            if not value <= 1e308:
                finite = False
            largest = max(largest, value)
    direct = n >= 2 and finite and (largest == 0.0 or _UNSCALED_RANGE[0] <= largest
                                    <= _UNSCALED_RANGE[1])
    if not direct:
        values, _, info = symmetric_eigen(matrix, False)
        return values, info, reduced, diagonal, work, False
    size = np.array([n], dtype=np.int32)
    length = np.array([n - 1], dtype=np.int32)  # dsyev's llwork
    info = np.zeros(1, dtype=np.int32)
    # work = [e (n) | tau (n) | dsytrd's and dorgtr's workspace (n - 1)], as dsyev's
    _dsytrd(_UPPER.ctypes, size.ctypes, reduced.ctypes, size.ctypes, diagonal.ctypes,
            work.ctypes, work[n:].ctypes, work[2 * n:].ctypes, length.ctypes, info.ctypes)
    values = diagonal.copy()
    off_diagonal = work[:n].copy()
    _dsterf(size.ctypes, values.ctypes, off_diagonal.ctypes, info.ctypes)
    return values, info[0], reduced, diagonal, work, True


@njit(cache=True, nogil=True)
def symmetric_eigen_then(matrix, reduced, diagonal, work, direct):
    """``dsyev(matrix, compute_v=1)`` (:func:`symmetric_eigen` with vectors, to the bit)
    after :func:`symmetric_eigen_first` (its last four results): dsyev's ``dorgtr`` and
    ``dsteqr`` on the reduction already made."""
    if not direct:
        return symmetric_eigen(matrix, True)
    n = matrix.shape[0]
    size = np.array([n], dtype=np.int32)
    length = np.array([n - 1], dtype=np.int32)
    info = np.zeros(1, dtype=np.int32)
    _dorgtr(_UPPER.ctypes, size.ctypes, reduced.ctypes, size.ctypes, work[n:].ctypes,
            work[2 * n:].ctypes, length.ctypes, info.ctypes)
    _dsteqr(_JOBS[1:].ctypes, size.ctypes, diagonal.ctypes, work.ctypes, reduced.ctypes,
            size.ctypes, work[n:].ctypes, info.ctypes)
    return diagonal, reduced.T, info[0]


@njit(cache=True, nogil=True)
def _screened_eigen(matrix, tolerance, screen):
    """``(deficient, values, vectors, info)``: with ``screen``, the eigenvalues alone
    first (:func:`symmetric_eigen_first`), and ``deficient`` True without vectors where
    they show the matrix clearly rank deficient at ``tolerance``
    (:func:`~.geometric._clearly_rank_deficient`); otherwise dsyev with vectors (the
    reduction shared with the screen)."""
    if not screen:
        values, vectors, info = symmetric_eigen(matrix, True)
        return False, values, vectors, info
    values, info, reduced, diagonal, work, direct = symmetric_eigen_first(matrix)
    if info == 0 and values[0] <= 0.5 * tolerance * max(values[values.shape[0] - 1], _TINY):
        return True, values, np.empty((0, 0)).T, info  # (F-ordered, as dsyev's)
    values, vectors, info = symmetric_eigen_then(matrix, reduced, diagonal, work, direct)
    return False, values, vectors, info


@njit(cache=True, nogil=True)
def _clear_null_count(values, info, tolerance):
    """:func:`_null_count` from dsyev's eigenvalues without vectors where no eigenvalue is
    near the threshold (none within a factor of 2 of ``tolerance · λ_max``): then the
    eigenvalues with vectors, which differ by some (d+1)·ε·λ_max, give the same count;
    −1 where that is not clear (or LAPACK failed)."""
    if info != 0:
        return -1
    threshold = tolerance * max(values[values.shape[0] - 1], _TINY)
    count = 0
    for value in values:
        if value <= 0.5 * threshold:
            count += 1
        elif not value > 2.0 * threshold:
            return -1
    return count


@njit(cache=True, nogil=True)
def _unit_normal(w):
    """:func:`~.geometric._unit_normal`: ``w`` scaled to a unit non-bias part; ``found``
    False when it has none."""
    head = np.ascontiguousarray(w[:-1])
    norm = np.sqrt(np.dot(head, head))
    if norm <= 1e-12 * np.sqrt(np.dot(w, w)):
        return w, False
    return w / norm, True


@njit(cache=True, nogil=True)
def _full_rank_directions(G, H, tolerance, screen):
    """:func:`~.geometric._full_rank_directions`: ``(status, w̃1, w̃2)``, status 1 when G
    and H are of full rank at ``tolerance``, 0 when not (``screen``:
    :func:`~.geometric._clearly_rank_deficient` first), 3 when LAPACK failed."""
    size = G.shape[0]
    empty = np.empty(0)
    deficient, g_values, g_vectors, info = _screened_eigen(G, tolerance, screen)
    if deficient:
        return 0, empty, empty
    if info != 0:
        return 3, empty, empty
    if not g_values[0] > tolerance * max(g_values[size - 1], _TINY):
        return 0, empty, empty
    # g_vectors / sqrt(g_values), column-major as numpy's: the same BLAS calls below
    whitening = (g_vectors.T / np.sqrt(g_values)[:, None]).T
    deficient, m_values, m_vectors, info = _screened_eigen(whitening.T @ H @ whitening,
                                                           tolerance, screen)
    if deficient:
        return 0, empty, empty
    if info != 0:
        return 3, empty, empty
    if not m_values[0] > tolerance * max(m_values[size - 1], _TINY):
        return 0, empty, empty
    return (1, whitening @ np.ascontiguousarray(m_vectors[:, size - 1]),
            whitening @ np.ascontiguousarray(m_vectors[:, 0]))


@njit(cache=True, nogil=True)
def _equilibration_moments(diagonal, last_column):
    """:func:`~.geometric._equilibration_moments`: ``(found, mean, spread)``."""
    size = diagonal.shape[0]
    weight = last_column[size - 1]
    if not weight > 0:
        return False, diagonal[:0], diagonal[:0]
    mean = last_column[:-1] / weight
    second_moment = diagonal[:-1] / weight
    spread = np.sqrt(np.maximum(second_moment - mean * mean, 0.0))
    for j in range(size - 1):
        if (spread[j] <= 1e-12 * max(abs(mean[j]), 1.0)
                or spread[j] <= 1e-6 * np.sqrt(second_moment[j])):
            spread[j] = 1.0
    return True, mean, spread


@njit(cache=True, nogil=True)
def _equilibration(G, H):
    """:func:`~.geometric._equilibration`: ``A`` with ``A x̃ = [(x − m) / s, 1]``."""
    mixture = (G + H) / 2
    size = mixture.shape[0]
    A = np.eye(size)
    found, mean, spread = _equilibration_moments(np.diag(mixture).copy(),
                                                 np.ascontiguousarray(mixture[:, size - 1]))
    if found:
        for j in range(size - 1):
            A[j, j] = 1.0 / spread[j]
            A[j, size - 1] = -mean[j] / spread[j]
    return A


@njit(cache=True, nogil=True)
def gdt_node_split(Z, positive, weights, unit_weights, n_positive, n_negative,
                   well_conditioned, rank_tolerance, screen_direct, screen_equilibrated,
                   largest_row_norm, singular):
    """A GDT node's split (Algorithm 2, one node) from its augmented rows ``Z`` (S+ the
    rows in ``positive``, row weights ``weights``, all 1 when ``unit_weights``): the numpy
    code's ``G`` and ``H`` (``/ n_positive``, ``/ n_negative``), the clustering
    hyperplanes of :func:`~.geometric._clustering_directions` (the direct attempt at
    ``well_conditioned``, then the equilibrated one and Section II-B's null-space method
    at ``rank_tolerance``; ``screen_*``: :func:`~.geometric._clearly_rank_deficient`
    first; ``singular``: G or H has fewer rows than its size, so that neither attempt is
    made, :func:`~.geometric.singular_by_rows`), scaled to unit normals, and
    :func:`gdt_best_bisector`.

    Returns ``(status, w, G, H, direct, equilibrated)``: status 1, ``w`` the chosen
    bisector (standardised, augmented); 2, no split; 3, LAPACK failed (the caller solves
    it in numpy from ``G`` and ``H``).  ``direct``: whether the direct attempt found G and
    H of full rank; ``equilibrated``: the same for the equilibrated attempt (-1: not
    made), for the :class:`~.geometric.RankHistory`.
    """
    if unit_weights:
        G = gram(np.ascontiguousarray(Z[positive]))
        H = gram(Z) - G
    else:
        weighted = Z * weights.reshape(-1, 1)
        G = np.ascontiguousarray(weighted[positive]).T @ np.ascontiguousarray(Z[positive])
        H = weighted.T @ Z - G
    G /= n_positive
    H /= n_negative
    status, w, direct, equilibrated = _split_of(
        Z, positive, weights, G, H, np.eye(0), Z[:0], np.empty(0), well_conditioned,
        rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm, singular)
    return status, w, G, H, direct, equilibrated


@njit(cache=True, nogil=True)
def gdt_row_span_split(Z, positive, weights, share, basis, G, H, well_conditioned,
                       rank_tolerance, screen_direct, screen_equilibrated,
                       largest_row_norm, singular):
    """:func:`gdt_node_split` for a node with fewer rows than columns, from
    :func:`gdt_row_span`'s ``basis`` and its scaled ``G`` and ``H`` (the equilibration
    of :func:`gdt_row_span_equilibration`, from the rows' ``share``s).  Returns
    ``(status, w, direct, equilibrated)`` as :func:`gdt_node_split`."""
    return _split_of(Z, positive, weights, G, H, basis, Z, share, well_conditioned,
                     rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm,
                     singular)


@njit(cache=True, nogil=True)
def _split_of(Z, positive, weights, G, H, basis, span_rows, share, well_conditioned,
              rank_tolerance, screen_direct, screen_equilibrated, largest_row_norm,
              singular):
    """The clustering hyperplanes of ``G`` and ``H`` (in the coordinates of ``basis``
    when it has columns, :func:`gdt_row_span`; its equilibration from ``span_rows`` and
    ``share``), as unit normals, and :func:`gdt_best_bisector`; ``singular``: no
    full-rank attempt (:func:`~.geometric.singular_by_rows`)."""
    empty = np.empty(0)
    status, w1, w2 = 0, empty, empty
    if not singular:
        status, w1, w2 = _full_rank_directions(G, H, well_conditioned, screen_direct)
    direct, equilibrated = status == 1, -1
    if status == 0:
        if basis.shape[1]:
            A = gdt_row_span_equilibration(span_rows, share, basis)
        else:
            A = _equilibration(G, H)
        status, w1, w2 = gdt_rank_deficient_directions(G, H, A, rank_tolerance,
                                                       screen_equilibrated, singular)
        equilibrated = 1 if status == 1 else 0
        status = 1 if status != 0 else 3
    if status == 3:
        return 3, empty, direct, equilibrated
    if basis.shape[1]:
        w1, w2 = basis @ w1, basis @ w2
    w1, found1 = _unit_normal(w1)
    w2, found2 = _unit_normal(w2)
    if not (found1 or found2):
        return 2, empty, direct, equilibrated
    w, found = gdt_best_bisector(Z, positive, weights, w1 if found1 else w2,
                                 w2 if found2 else w1, found1 and found2,
                                 largest_row_norm)
    return (1 if found else 2), w, direct, equilibrated


@njit(cache=True, nogil=True)
def gdt_best_bisector(Z, positive, weights, w1, w2, both, largest_row_norm):
    """:meth:`~.geometric.GeometricSplitter.best_candidate` compiled: of the angle
    bisectors ``w̃1 ± w̃2`` of the clustering hyperplanes (Eqs. 4-5; only ``w1`` when
    ``both`` is False) the one of lowest Gini index (Eq. 6) over the augmented rows ``Z``
    that sends rows to both sides, moved clear of rows it passes through.  Returns
    ``(w, found)``.

    The numpy code's operations in the same order (see the section's note on rounding).
    """
    n, size = Z.shape
    candidates = np.empty((2, size))
    if both:
        dot = 0.0
        for j in range(size - 1):
            dot += w2[j] * w1[j]
        sign = -1.0 if dot < 0 else 1.0
        spread = 0.0
        for j in range(size):
            candidates[0, j] = w1[j] + sign * w2[j]
            candidates[1, j] = w1[j] - sign * w2[j]
            if j < size - 1:
                spread += candidates[1, j] * candidates[1, j]
        m = 2 if spread > 1e-16 else 1
        # the non-bias parts are unit vectors: ‖w̃1 ± w̃2‖ ≤ ‖w̃1‖ + ‖w̃2‖
        norm_bound = (np.sqrt(1.0 + w1[size - 1] ** 2) + np.sqrt(1.0 + w2[size - 1] ** 2))
    else:
        for j in range(size):
            candidates[0, j] = w1[j]
        m = 1
        norm_bound = np.sqrt(1.0 + w1[size - 1] ** 2)
    for i in range(m):  # the largest coefficient positive
        largest = 0
        for j in range(1, size - 1):
            if abs(candidates[i, j]) > abs(candidates[i, largest]):
                largest = j
        if candidates[i, largest] < 0:
            for j in range(size):
                candidates[i, j] = -candidates[i, j]
    slack = 1e-9 * largest_row_norm * norm_bound
    # the numpy code's product, with the same layouts: the same BLAS call, the same values
    values = np.ascontiguousarray(Z) @ np.ascontiguousarray(candidates[:m]).T
    right = np.zeros((2, m))      # weight of S+ and S− on the right of each candidate
    n_right = np.zeros(m)
    total_positive, total_negative = 0.0, 0.0
    for r in range(n):
        positive_weight = weights[r] * positive[r]
        negative_weight = weights[r] - positive_weight
        total_positive += positive_weight
        total_negative += negative_weight
        for i in range(m):
            value = values[r, i]
            if value >= -slack:
                right[0, i] += positive_weight
                right[1, i] += negative_weight
                n_right[i] += 1
    gini = np.empty(m)
    for i in range(m):
        left_positive = total_positive - right[0, i]
        left_negative = total_negative - right[1, i]
        n_left, n_right_weight = left_positive + left_negative, right[0, i] + right[1, i]
        gini_left = n_left - (left_positive ** 2 + left_negative ** 2) / max(n_left, _TINY)
        gini_right = n_right_weight - (right[0, i] ** 2 + right[1, i] ** 2) / max(
            n_right_weight, _TINY)
        gini[i] = (gini_left + gini_right) / (n_left + n_right_weight)
    first = 1 if m == 2 and gini[1] < gini[0] else 0
    for best in (first, 1 - first):
        if best >= m or not 0 < n_right[best] < n:
            continue
        w = candidates[best].copy()
        closest, largest_left, smallest_right = np.inf, -np.inf, np.inf
        for r in range(n):
            value = values[r, best]
            closest = min(closest, abs(value))
            if value >= -slack:
                smallest_right = min(smallest_right, value)
            else:
                largest_left = max(largest_left, value)
        if closest <= slack:  # through rows: midway between the two sides' nearest rows
            w[size - 1] -= (largest_left + smallest_right) / 2
        return w, True
    return candidates[0].copy(), False


@njit(cache=True, nogil=True)
def _singular_by_rows(positive, weights, unit_weights, size):
    """:func:`~.geometric.singular_by_rows` (``weights`` None: ``unit_weights``)."""
    rows_positive, rows = 0, 0
    for i in range(positive.shape[0]):
        if unit_weights or weights[i] > 0:
            rows += 1
            if positive[i]:
                rows_positive += 1
    return min(rows_positive, rows - rows_positive) < size


@njit(cache=True, nogil=True)
def _screen(attempt, size, full_rank, rank_deficient, smallest_screened):
    """:meth:`~.geometric.RankHistory.screen` from the history's counts."""
    return size >= smallest_screened and rank_deficient[attempt] >= full_rank[attempt]


@njit(cache=True, nogil=True)
def gdt_node(augmented, y, sample_weight, rows, majority, unit_weights, n_positive,
             n_negative, well_conditioned, rank_tolerance, full_rank, rank_deficient,
             smallest_screened, largest_row_norm, mean, scale, zero_columns):
    """:meth:`~.geometric.GeometricSplitter.__call__`'s compiled steps in one call, from
    the fit's augmented rows and the node's ``rows``: the node's rows ``Z``, S+ (class
    ``majority``) and weights gathered as numpy's indexing gathers them, then
    :func:`gdt_row_span` and :func:`gdt_row_span_split` (fewer rows than columns) or
    :func:`gdt_node_split`, the screens of the :class:`~.geometric.RankHistory` (its
    counts ``full_rank`` and ``rank_deficient``; matrices of at least
    ``smallest_screened`` rows) and :func:`gdt_raw_hyperplane`.

    Returns ``(status, raw_weights, raw_bias, direct, equilibrated)`` as
    :func:`gdt_node_split` (status 3: LAPACK failed, the caller takes the steps one by
    one, its numpy code standing in)."""
    n, size = rows.shape[0], augmented.shape[1]
    Z = np.empty((n, size))
    positive = np.empty(n, dtype=np.bool_)
    weights = np.empty(n)
    for i in range(n):
        row = rows[i]
        for j in range(size):
            Z[i, j] = augmented[row, j]
        positive[i] = y[row] == majority
        weights[i] = 1.0 if unit_weights else sample_weight[row]
    empty = np.empty(0)
    if n < size:
        # fewer rows than features: G and H live in the span of the rows
        positive_share, negative_share = 0.5 / n_positive, 0.5 / n_negative
        share = np.empty(n)
        for i in range(n):
            share[i] = weights[i] * (positive_share if positive[i] else negative_share)
        basis, G, H = gdt_row_span(Z, positive, weights)
        G, H = G / n_positive, H / n_negative
        m = G.shape[0]
        status, w, direct, equilibrated = gdt_row_span_split(
            Z, positive, weights, share, basis, G, H, well_conditioned, rank_tolerance,
            _screen(0, m, full_rank, rank_deficient, smallest_screened),
            _screen(1, m, full_rank, rank_deficient, smallest_screened),
            largest_row_norm, _singular_by_rows(positive, weights, unit_weights, m))
    else:
        status, w, _, _, direct, equilibrated = gdt_node_split(
            Z, positive, weights, unit_weights, n_positive, n_negative, well_conditioned,
            rank_tolerance, _screen(0, size, full_rank, rank_deficient, smallest_screened),
            _screen(1, size, full_rank, rank_deficient, smallest_screened),
            largest_row_norm, _singular_by_rows(positive, weights, unit_weights, size))
    if status != 1:
        return status, empty, 0.0, direct, equilibrated
    raw_weights, raw_bias = gdt_raw_hyperplane(w, mean, scale, zero_columns)
    return status, raw_weights, raw_bias, direct, equilibrated


@njit(cache=True, nogil=True)
def gdt_raw_hyperplane(w, mean, scale, zero_columns):
    """:meth:`~.geometric.GeometricSplitter.to_raw_units`: the hyperplane ``w`` over the
    standardised features ``(x − mean) / scale`` in raw units, ``(weights, bias)`` with a
    unit normal whose largest coefficient is positive (zero columns get weight 0)."""
    weights = w[:-1] / scale
    for j in range(weights.shape[0]):
        if zero_columns[j]:
            weights[j] = 0.0
    bias = w[w.shape[0] - 1] - np.dot(weights, mean)
    norm = np.sqrt(np.dot(weights, weights)) * np.sign(weights[np.argmax(np.abs(weights))])
    return weights / norm, bias / norm


@njit(cache=True, nogil=True)
def _null_count(values, tolerance):
    """How many of the ascending ``values`` count as zero (:func:`~.geometric._is_null`)."""
    threshold = tolerance * max(values[values.shape[0] - 1], _TINY)
    count = 0
    for value in values:
        if value <= threshold:
            count += 1
    return count


@njit(cache=True, nogil=True)
def _principal(matrix):
    """The eigenvector of the largest eigenvalue of a symmetric ``matrix`` (dsyev);
    ``found`` False when LAPACK fails."""
    values, vectors, info = symmetric_eigen(matrix, True)
    return np.ascontiguousarray(vectors[:, vectors.shape[1] - 1]), info == 0


@njit(cache=True, nogil=True)
def _maximise_ratio_with_nullity(numerator, denominator_values, denominator_vectors,
                                 nullity):
    """:func:`~.geometric._maximise_ratio_with_nullity` from the denominator's
    eigendecomposition; ``found`` False when LAPACK fails."""
    if nullity > 0:
        null_basis = np.asfortranarray(denominator_vectors[:, :nullity])
        direction, found = _principal(null_basis.T @ numerator @ null_basis)
        return null_basis @ direction, found
    # vectors / sqrt(max(values, tiny)), column-major as numpy's
    whitening = (denominator_vectors.T
                 / np.sqrt(np.maximum(denominator_values, _TINY))[:, None]).T
    direction, found = _principal(whitening.T @ numerator @ whitening)
    return whitening @ direction, found


@njit(cache=True, nogil=True)
def gdt_rank_deficient_directions(G, H, A, tolerance, screen, singular):
    """:func:`~.geometric._clustering_directions` after its first attempt failed (G or H
    rank deficient in the given coordinates): the attempt in the coordinates of the
    equilibration ``A`` (``screen``: :func:`~.geometric._clearly_rank_deficient` first;
    none when ``singular``, :func:`~.geometric.singular_by_rows`), then Section II-B's
    null-space method.

    Returns ``(status, w̃1, w̃2)`` unnormalised: status 1 when the equilibrated attempt
    found G and H of full rank, 2 when the null-space method was needed, 0 when LAPACK
    failed (the caller solves it again in numpy, whose ``eigh`` stands in).
    """
    size = G.shape[0]
    empty = np.empty(0)
    G_e = A @ G @ A.T
    H_e = A @ H @ A.T
    if not singular:
        deficient, g_values, g_vectors, info = _screened_eigen(G_e, tolerance, screen)
        full_rank = not deficient
        if full_rank:
            if info != 0:
                return 0, empty, empty
            full_rank = g_values[0] > tolerance * max(g_values[size - 1], _TINY)
        if full_rank:
            whitening = (g_vectors.T / np.sqrt(g_values)[:, None]).T
            deficient, m_values, m_vectors, info = _screened_eigen(
                whitening.T @ H_e @ whitening, tolerance, screen)
            if not deficient and info != 0:
                return 0, empty, empty
            if not deficient and m_values[0] > tolerance * max(m_values[size - 1], _TINY):
                w1 = whitening @ np.ascontiguousarray(m_vectors[:, size - 1])
                w2 = whitening @ np.ascontiguousarray(m_vectors[:, 0])
                return 1, A.T @ w1, A.T @ w2
    both_values, both_vectors, info = symmetric_eigen(G_e + H_e, True)
    _, all_vectors, info_all = symmetric_eigen(G + H, True)
    if info != 0 or info_all != 0:
        return 0, empty, empty
    skip = _null_count(both_values, tolerance)
    basis = np.asfortranarray(all_vectors[:, skip:])
    basis_e = np.asfortranarray(both_vectors[:, skip:])
    directions = []
    for pair in range(2):
        numerator, denominator = (H, G) if pair == 0 else (G, H)
        numerator_e, denominator_e = (H_e, G_e) if pair == 0 else (G_e, H_e)
        within_e = basis_e.T @ denominator_e @ basis_e
        # its eigenvectors serve only where it is of full rank (nullity 0): the count
        # from the eigenvalues alone where it is clear and not 0, else dsyev with vectors
        values, info, reduced, diagonal, work, direct = symmetric_eigen_first(within_e)
        nullity = _clear_null_count(values, info, tolerance)
        e_values, e_vectors = values, np.empty((0, 0)).T
        if nullity <= 0:
            e_values, e_vectors, info = symmetric_eigen_then(within_e, reduced, diagonal,
                                                             work, direct)
            if info != 0:
                return 0, empty, empty
            nullity = _null_count(e_values, tolerance)
        if nullity > 0:
            within = basis.T @ denominator @ basis
            d_values, d_vectors, info = symmetric_eigen(within, True)
            if info != 0:
                return 0, empty, empty
            inner, found = _maximise_ratio_with_nullity(basis.T @ numerator @ basis,
                                                        d_values, d_vectors, nullity)
            w = basis @ inner
        else:
            inner, found = _maximise_ratio_with_nullity(
                basis_e.T @ numerator_e @ basis_e, e_values, e_vectors, 0)
            w_e = basis_e @ inner
            w = basis @ (basis.T @ (A.T @ w_e))  # back, within range(G + H)
        if not found:
            return 0, empty, empty
        directions.append(w)
    return 2, directions[0], directions[1]


@njit(cache=True, nogil=True)
def gdt_row_span(Z, positive, weights):
    """The first steps of :func:`~.geometric.row_span_hyperplanes`: the orthonormal basis
    ``U`` of the span of the rows ``Z`` (right singular vectors above rounding noise) and
    the weighted scatter matrices of S+ (``positive``) and of S− in it, ``(U, G, H)``
    unscaled."""
    _, singular, right = np.linalg.svd(Z, full_matrices=False)
    keep = singular > singular[0] * max(Z.shape[0], Z.shape[1]) * np.finfo(np.float64).eps
    basis = np.ascontiguousarray(right[keep]).T
    coordinates = Z @ basis
    weighted = coordinates * weights.reshape(-1, 1)
    scatter = weighted.T @ coordinates
    G = np.ascontiguousarray(weighted[positive]).T @ np.ascontiguousarray(
        coordinates[positive])
    return basis, G, scatter - G


@njit(cache=True, nogil=True)
def gdt_row_span_equilibration(Z, share, basis):
    """The equilibration of :func:`~.geometric.row_span_hyperplanes` (the triangle
    ``R_A`` of ``A U = U_A R_A``), the rows ``Z`` weighted by ``share``."""
    n, size = Z.shape
    diagonal = np.zeros(size)
    for i in range(n):  # einsum("i,ij,ij->j", share, Z, Z), in its order
        for j in range(size):
            diagonal[j] += share[i] * Z[i, j] * Z[i, j]
    found, mean, spread = _equilibration_moments(diagonal, np.dot(share, Z))
    in_basis = np.ascontiguousarray(basis)
    if found:
        for j in range(size - 1):
            for k in range(in_basis.shape[1]):
                in_basis[j, k] -= mean[j] * basis[size - 1, k]
                in_basis[j, k] /= spread[j]
    return np.ascontiguousarray(np.linalg.qr(in_basis)[1])  # C, as numpy's


# ----- The pass after growing (and growing's step) for a tree of hyperplanes -----
#
# :meth:`~.tree.ObliqueTree.calibrate_text_and_scales` (and ``calibrate_text``,
# ``store_feature_scales``) for a tree whose every split is a hyperplane (one row of
# weights) in one kernel call (:func:`calibration_pass`): the training rows reaching every
# split, :meth:`~.splits.Split.drop_negligible_terms`,
# :meth:`~.splits.Split.calibrate_digits` and the feature scales of
# :func:`~.tree._weighted_deviation`, with the Python code's results to the bit:
#
# * every matrix product is the call that numpy's ``matmul`` makes for the Python code's
#   C-ordered blocks, to numpy's own BLAS (its ``cblas_dgemv`` and ``cblas_ddot``, found
#   through numpy's extension module; numpy's arguments): the same routine on the same
#   numbers.  Sums over rows are numpy's pairwise summation (:func:`numpy_sum`), and all
#   else is one IEEE operation per element, as in numpy's ufuncs.
# * numbers are rounded to significant digits as :func:`~.splits.round_significant` rounds
#   them where the arithmetic is provably the same (:func:`round_as_text`,
#   :func:`round_as_numpy`); where it is not (a product on a halfway point, 16 or 17
#   digits, extreme magnitudes) the kernel leaves the split's digits from there on to the
#   Python code (``resume``).
#
# :func:`hyperplane_partition`, at the end, is :func:`~.tree.grow_tree`'s step at a
# hyperplane (the sides' rows and the children's class counts) by the same means.
#
# Without numpy's BLAS symbols (another build of numpy) :data:`PASS_AVAILABLE` is False
# and the Python code runs.

PASS_AVAILABLE = False
if AVAILABLE:  # pragma: no cover - without numba nothing below is called
    def _numpy_blas_address(names):
        """The address of the first of ``names`` that numpy's extension module (or a
        library it loaded, such as its OpenBLAS) exports, or None."""
        import ctypes
        from numpy._core import _multiarray_umath
        library = ctypes.CDLL(_multiarray_umath.__file__)
        for name in names:
            try:
                return ctypes.cast(getattr(library, name), ctypes.c_void_p).value
            except AttributeError:
                continue
        return None

    try:
        # ILP64 (64-bit integers): numpy's own wheels since numpy 2.0
        _gemv_address = _numpy_blas_address(("scipy_cblas_dgemv64_", "cblas_dgemv64_"))
        _dot_address = _numpy_blas_address(("scipy_cblas_ddot64_", "cblas_ddot64_"))
    except (ImportError, OSError):  # another build of numpy: the Python code
        _gemv_address = _dot_address = None
    if _gemv_address and _dot_address:
        _llvm.add_symbol("oblique_pass_numpy_dgemv", _gemv_address)
        _llvm.add_symbol("oblique_pass_numpy_ddot", _dot_address)
        _i32, _i64, _f64, _pointer = _types.int32, _types.int64, _types.float64, _types.voidptr
        _numpy_dgemv = _types.ExternalFunction(
            "oblique_pass_numpy_dgemv",
            _types.void(_i32, _i32, _i64, _i64, _f64, _pointer, _i64, _pointer, _i64, _f64,
                        _pointer, _i64))
        _numpy_ddot = _types.ExternalFunction(
            "oblique_pass_numpy_ddot", _f64(_i64, _pointer, _i64, _pointer, _i64))
        PASS_AVAILABLE = True

#: CBLAS's codes of row-major, column-major and transposed.
_ROW_MAJOR, _COLUMN_MAJOR, _TRANSPOSED = 101, 102, 112
#: 10^0 .. 10^22, every one exactly a double.
_POWERS_OF_TEN = np.array([float(10 ** k) for k in range(23)])
#: Whether numpy's ``10.0 ** k`` is exact for |k| ≤ 22 (the scale of
#: ``round_significant``'s vectorised arithmetic); if not, :func:`round_as_numpy` leaves
#: every number to the Python code.
NUMPY_POWERS_EXACT = bool(np.array_equal(10.0 ** np.abs(np.arange(-22.0, 23.0)),
                                         np.concatenate([_POWERS_OF_TEN[:0:-1],
                                                         _POWERS_OF_TEN])))


@njit(cache=True, nogil=True)
def numpy_matvec(block, w, out):
    """``out[:] = block @ w`` as numpy's ``matmul`` computes ``X[rows] @ weights.T`` for a
    C-contiguous ``block`` (m, d) and a contiguous ``w`` (d,): one row, ``0 + ddot``; one
    column, ``0 + x·w`` per row; else ``dgemv`` (column-major, transposed)."""
    m, d = block.shape
    if m == 0:
        return
    if m == 1:
        out[0] = 0.0 + _numpy_ddot(d, block.ctypes, 1, w.ctypes, 1)
    elif d == 1:
        for i in range(m):
            out[i] = 0.0 + block[i, 0] * w[0]
    else:
        _numpy_dgemv(np.int32(_COLUMN_MAJOR), np.int32(_TRANSPOSED), d, m, 1.0, block.ctypes,
                     d, w.ctypes, 1, 0.0, out.ctypes, 1)


@njit(cache=True, nogil=True)
def numpy_vecmat(v, block, out):
    """``out[:] = v @ block`` as numpy's ``matmul`` computes ``row_weights @ block`` for a
    contiguous ``v`` (m,) and a C-contiguous ``block`` (m, u), m ≥ 1: one column,
    ``0 + ddot``; one row, ``0 + v·x`` per column; else ``dgemv`` (row-major,
    transposed)."""
    m, u = block.shape
    if u == 0:
        return
    if u == 1:
        out[0] = 0.0 + _numpy_ddot(m, v.ctypes, 1, block.ctypes, 1)
    elif m == 1:
        for j in range(u):
            out[j] = 0.0 + v[0] * block[0, j]
    else:
        _numpy_dgemv(np.int32(_ROW_MAJOR), np.int32(_TRANSPOSED), m, u, 1.0, block.ctypes, u,
                     v.ctypes, 1, 0.0, out.ctypes, 1)


#: numpy adds a contiguous run of more than this many numbers as two halves (pairwise).
#: The kernels' sums over a row's coordinates (or a cut's classes) are of at most this many
#: numbers (:func:`block_sum`): a kernel that may reach :func:`pairwise_sum`'s stack runs
#: several times slower, so more coordinates take the numpy code.
PAIRWISE_BLOCK = 128


@njit(cache=True, nogil=True)
def block_sum(values, start, count):
    """numpy's sum of at most 128 contiguous float64 numbers: one after the other below
    eight, else eight running sums added pairwise, then the rest one after the other."""
    if count < 8:
        total = 0.0
        for i in range(start, start + count):
            total += values[i]
        return total
    r0, r1, r2, r3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    r4, r5, r6, r7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    i = 8
    while i < count - count % 8:
        j = start + i
        r0 += values[j]
        r1 += values[j + 1]
        r2 += values[j + 2]
        r3 += values[j + 3]
        r4 += values[j + 4]
        r5 += values[j + 5]
        r6 += values[j + 6]
        r7 += values[j + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for j in range(start + i, start + count):
        total += values[j]
    return total


@njit(cache=True, nogil=True)
def pairwise_sum(values, start, count):
    """``values[start:start + count].sum()`` added as numpy adds a contiguous float64 run,
    so the very same number: numpy's pairwise summation splits a run of more than 128
    numbers into two halves (the first a multiple of 8) and adds their sums.  The halving
    is walked with an explicit stack (numba caches no recursive function)."""
    if count <= PAIRWISE_BLOCK:
        return block_sum(values, start, count)
    depth = 64                       # halving 2**63 numbers down to 128 takes 57 levels
    starts = np.empty(depth, dtype=np.intp)
    counts = np.empty(depth, dtype=np.intp)
    halves = np.empty(depth, dtype=np.intp)
    first_halves = np.empty(depth)   # a level's first half's sum, once added
    on_second = np.zeros(depth, dtype=np.bool_)
    level = 0
    starts[0], counts[0] = start, count
    while True:
        if counts[level] > PAIRWISE_BLOCK:         # descend into the first half
            half = counts[level] // 2
            half -= half % 8
            halves[level], on_second[level] = half, False
            starts[level + 1], counts[level + 1] = starts[level], half
            level += 1
            continue
        total = block_sum(values, starts[level], counts[level])
        while True:                                  # return the sum up the levels
            if level == 0:
                return total
            level -= 1
            if not on_second[level]:                # first half done: the second next
                first_halves[level], on_second[level] = total, True
                starts[level + 1] = starts[level] + halves[level]
                counts[level + 1] = counts[level] - halves[level]
                level += 1
                break
            total = first_halves[level] + total


@njit(cache=True, nogil=True)
def numpy_sum(a):
    """``a.sum()`` of a contiguous array of non-negative numbers, as numpy adds them."""
    return 0.0 + pairwise_sum(a, 0, a.shape[0])


@njit(cache=True, nogil=True)
def round_as_text(value, digits):
    """``(float(f"{value:.{digits - 1}e}"), True)``: ``value`` rounded to ``digits``
    significant digits as the rule text prints it and reads back, or ``(value, False)``
    where this arithmetic is not provably the same.

    With ``k`` such that ``x = |value|·10^k`` lies in [10^(digits−1), 10^digits]: the
    text's number is ``N·10^−k``, ``N`` the integer nearest to the exact ``x`` (ties to
    even), and the float read back is the one nearest to it.  For ``digits ≤ 15`` and
    ``|k| ≤ 22`` every power ``10^|k|``, every integer up to ``10^digits`` and every
    half-integer below it is a double, so: the computed ``x`` (one correctly rounded
    product or quotient) is on the same side of every half-integer as the exact ``x``
    unless it *is* one (then ``(value, False)``), so that ``rint`` gives ``N``; and
    ``N / 10^k`` (``N·10^|k|``) is one correctly rounded operation on exact operands, the
    double nearest to ``N·10^−k``.  ``k`` comes from ``log10`` and is corrected until the
    computed ``x`` lies in the interval (by monotony of rounding, the exact ``x`` is then
    in it too, or within rounding of an end, where both choices of ``k`` give the same
    number).  Zeros, infinities and NaN are returned as they are, as the Python code
    does."""
    if value == 0 or not np.isfinite(value) or digits > 15:
        return value, value == 0 or not np.isfinite(value)
    size = abs(value)
    exponent = int(np.floor(np.log10(size)))
    low, high = _POWERS_OF_TEN[digits - 1], _POWERS_OF_TEN[digits]
    for _ in range(3):
        k = digits - 1 - exponent
        if k > 22 or k < -22:
            return value, False
        x = size * _POWERS_OF_TEN[k] if k >= 0 else size / _POWERS_OF_TEN[-k]
        if x > high:
            exponent += 1
        elif x < low:
            exponent -= 1
        else:
            if x - np.floor(x) == 0.5:
                return value, False  # the exact x may lie on either side
            n = np.rint(x)
            rounded = n / _POWERS_OF_TEN[k] if k >= 0 else n * _POWERS_OF_TEN[-k]
            return (rounded if value > 0 else -rounded), True
    return value, False


@njit(cache=True, nogil=True)
def round_as_numpy(value, digits, powers_exact):
    """``round_significant``'s vectorised arithmetic for one number of an array of more
    than 32 (``digits ≤ 12``): ``rint(v·10^k) / 10^k`` (``rint(v / 10^−k)·10^−k`` for
    ``k < 0``) with ``k = digits − 1 − floor(log10 |v|)``, ``|k| ≤ 22``; ``(value,
    False)`` where the result may differ from numpy's: ``|v|`` within 1e-9 (relative) of
    a power of ten, where numpy's ``log10`` and this one might floor differently (both
    err by a few units in the last place), or numpy's powers of ten are not exact
    (``powers_exact``).  Zeros, infinities and NaN are returned as they are."""
    if value == 0 or not np.isfinite(value):
        return value, True
    if not powers_exact:
        return value, False
    size = abs(value)
    exponent = np.floor(np.log10(size))
    if not -22 <= exponent <= 22:
        return value, False
    e = int(exponent)
    ratio = size / _POWERS_OF_TEN[e] if e >= 0 else size * _POWERS_OF_TEN[-e]
    if not 1.0 + 1e-9 < ratio < 10.0 - 1e-8:
        return value, False
    k = digits - 1 - e
    if 0 <= k <= 22:
        scale = _POWERS_OF_TEN[k]
        return np.rint(value * scale) / scale, True
    if -22 <= k < 0:
        scale = _POWERS_OF_TEN[-k]
        return np.rint(value / scale) * scale, True
    return value, False


@njit(cache=True, nogil=True)
def _printed_routes_alike(block, position, w, b, digits, numpy_rounding, powers_exact,
                          printed, values):
    """Whether the hyperplane ``(w, b)`` printed with ``digits`` significant digits
    (:meth:`~.splits.HyperplaneKind.printed`) sends every row of ``block`` to the same
    side as ``position`` (True: right): 1 yes, 0 no, -1 not decided here (a number whose
    rounding is left to the Python code).  ``numpy_rounding``: the weights are rounded by
    ``round_significant``'s vectorised arithmetic (more than 32 of them)."""
    d = w.shape[0]
    m = block.shape[0]
    used, last = 0, -1
    for j in range(d):
        if w[j] != 0:
            used += 1
            last = j
    if used == 1:  # x ≥ t, evaluated as x − t ≥ 0 (t − x ≥ 0 for a negative weight)
        threshold, exact = round_as_text(-b / w[last], digits)
        if not exact:
            return -1
        sign = 1.0 if w[last] > 0 else -1.0
        printed[:] = 0.0
        printed[last] = sign
        printed_bias = -sign * threshold
    else:
        for j in range(d):
            if numpy_rounding and digits <= 12:
                printed[j], exact = round_as_numpy(w[j], digits, powers_exact)
            else:
                printed[j], exact = round_as_text(w[j], digits)
            if not exact:
                return -1
        negated, exact = round_as_text(-b, digits)
        if not exact:
            return -1
        printed_bias = -negated
    numpy_matvec(block, printed, values)
    for i in range(m):
        if (values[i] + printed_bias >= 0) != position[i]:
            return 0
    return 1


@njit(cache=True, nogil=True)
def calibration_pass(X, sample_weight, calibrate, with_scales, weights, bias, left, right,
                     tolerance, minimum_digits, maximum_digits, powers_exact):
    """:meth:`~.tree.ObliqueTree.calibrate_text_and_scales` of a tree of hyperplanes:
    split ``node`` is ``weights[node] · x + bias[node] ≥ 0`` (right), its children
    ``left[node]`` and ``right[node]`` (-1 at a leaf).  For the rows of ``X`` (finite,
    C-contiguous) reaching every split, in ascending order: when ``calibrate``,
    :meth:`~.splits.Split.drop_negligible_terms` at ``tolerance`` and
    :meth:`~.splits.Split.calibrate_digits` from ``minimum_digits`` to
    ``maximum_digits``; when ``with_scales``, the weighted standard deviation of the
    features the split uses (after the drop) by ``sample_weight``, where their sum is
    positive (:func:`~.tree._weighted_deviation`).

    Returns ``(weights, dropped, digits, resume, scales, order, start, end)``: the
    weights after the drop (a copy), whether a split dropped terms, its digits, and
    ``resume``, 0 where the digits are found, else the digits from which the Python
    code is to continue the search (a rounding this kernel does not do); ``scales``
    (node_count, n_features); the rows of node ``t`` are ``order[start[t]:end[t]]``.
    """
    n, d = X.shape
    node_count = weights.shape[0]
    weights = weights.copy()
    dropped = np.zeros(node_count, dtype=np.bool_)
    digits = np.zeros(node_count, dtype=np.int64)
    resume = np.zeros(node_count, dtype=np.int64)
    scales = np.zeros((node_count, d))
    order = np.arange(n)
    start = np.zeros(node_count, dtype=np.int64)
    end = np.zeros(node_count, dtype=np.int64)
    end[0] = n
    block_space = np.empty(n * d)
    used_space = np.empty(n * d)
    values = np.empty(n)
    position = np.empty(n, dtype=np.bool_)
    spare = np.empty(n, dtype=np.int64)
    row_weights = np.empty(n)
    candidate = np.empty(d)
    printed = np.empty(d)
    size = np.empty(d)
    moments = np.empty(d)
    columns = np.empty(d, dtype=np.int64)
    numpy_rounding = d > 32
    stack = np.empty(node_count + 1, dtype=np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if left[node] < 0:
            continue
        first, m = start[node], end[node] - start[node]
        block = block_space[:m * d].reshape((m, d))
        for i in range(m):
            row = order[first + i]
            for j in range(d):
                block[i, j] = X[row, j]
        w = weights[node]
        b = bias[node]
        numpy_matvec(block, w, values)
        for i in range(m):
            position[i] = values[i] + b >= 0
        rows_position = position[:m]
        if calibrate:
            digits[node] = minimum_digits
            used = 0
            for j in range(d):
                if w[j] != 0:
                    used += 1
            if m > 0 and used >= 2:  # Split.drop_negligible_terms
                size[:] = 0.0  # first the largest |x_j| of the rows
                for i in range(m):
                    for j in range(d):
                        size[j] = max(size[j], abs(block[i, j]))
                largest = -np.inf
                for j in range(d):
                    if w[j] != 0:
                        size[j] = abs(w[j]) * size[j]
                        largest = max(largest, size[j])
                negligible = False
                for j in range(d):
                    candidate[j] = w[j]
                    if w[j] != 0 and size[j] < tolerance * largest:
                        candidate[j] = 0.0
                        negligible = True
                if largest > 0 and negligible:
                    numpy_matvec(block, candidate, values)
                    alike = True
                    for i in range(m):
                        if (values[i] + b >= 0) != rows_position[i]:
                            alike = False
                            break
                    if alike:
                        w[:] = candidate
                        dropped[node] = True
            if m > 0:  # Split.calibrate_digits
                found = False
                for count in range(minimum_digits, maximum_digits + 1):
                    alike = _printed_routes_alike(block, rows_position, w, b, count,
                                                  numpy_rounding, powers_exact, printed,
                                                  values)
                    if alike < 0:
                        resume[node] = count
                        break
                    if alike == 1:
                        digits[node] = count
                        found = True
                        break
                if not found and resume[node] == 0:
                    digits[node] = maximum_digits
        if with_scales and m > 0:  # _weighted_deviation of the features used
            for i in range(m):
                row_weights[i] = sample_weight[order[first + i]]
            weight_rows = row_weights[:m]
            total = numpy_sum(weight_rows)
            u = 0
            for j in range(d):
                if w[j] != 0:
                    columns[u] = j
                    u += 1
            if total > 0 and u > 0:
                if u == d:  # the block itself (its rows are not needed again)
                    part = block
                else:
                    part = used_space[:m * u].reshape((m, u))
                    for i in range(m):
                        for k in range(u):
                            part[i, k] = block[i, columns[k]]
                mean = moments[:u]
                numpy_vecmat(weight_rows, part, mean)
                for k in range(u):
                    mean[k] = mean[k] / total
                for i in range(m):
                    for k in range(u):
                        difference = part[i, k] - mean[k]
                        part[i, k] = difference * difference
                numpy_vecmat(weight_rows, part, mean)
                for k in range(u):
                    scales[node, columns[k]] = np.sqrt(mean[k] / total)
        # the children's rows, in ascending order
        n_left, n_right = 0, 0
        for i in range(m):
            row = order[first + i]
            if rows_position[i]:
                spare[n_right] = row
                n_right += 1
            else:
                order[first + n_left] = row
                n_left += 1
        for i in range(n_right):
            order[first + n_left + i] = spare[i]
        start[left[node]], end[left[node]] = first, first + n_left
        start[right[node]], end[right[node]] = first + n_left, first + m
        stack[top] = right[node]
        stack[top + 1] = left[node]
        top += 2
    return weights, dropped, digits, resume, scales, order, start, end


@njit(cache=True, nogil=True)
def hyperplane_partition(X, rows, w, b, y, sample_weight, n_classes):
    """:func:`~.tree.grow_tree`'s step at a node split by the hyperplane ``(w, b)``: its
    ``rows`` (ascending) that go left (``X[rows] @ w + b < 0``, numpy's product:
    :func:`numpy_matvec`) and right, and the children's class counts, row 0 the left's:
    every count the sum of its rows' weights in ascending order, as ``np.bincount`` adds
    them.  ``X`` C-contiguous."""
    m, d = rows.shape[0], X.shape[1]
    block = np.empty((m, d))
    for i in range(m):
        row = rows[i]
        for j in range(d):
            block[i, j] = X[row, j]
    values = np.empty(m)
    numpy_matvec(block, w, values)
    n_right = 0
    for i in range(m):
        if values[i] + b >= 0:
            n_right += 1
    left = np.empty(m - n_right, dtype=rows.dtype)
    right = np.empty(n_right, dtype=rows.dtype)
    counts = np.zeros((2, n_classes))
    n_left, n_right = 0, 0
    for i in range(m):
        row = rows[i]
        if values[i] + b >= 0:
            right[n_right] = row
            n_right += 1
            counts[1, y[row]] += sample_weight[row]
        else:
            left[n_left] = row
            n_left += 1
            counts[0, y[row]] += sample_weight[row]
    return left, right, counts
