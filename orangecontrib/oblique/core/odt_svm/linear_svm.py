"""The linear SVM of ODT-SVM's nodes: the L2-regularised L1-loss (hinge) SVM with a bias,
solved in its dual by coordinate descent (Hsieh, Chang, Lin, Keerthi & Sundararajan, "A
Dual Coordinate Descent Method for Large-scale Linear SVM", ICML 2008, Algorithm 1 with the
random order of Section 3.1 and the shrinking of Section 3.2), as liblinear's
``L2R_L1LOSS_SVC_DUAL`` solves it for ``LinearSVC(loss="hinge", dual=True)``.

The problem (the paper's eq. 1 with the L1 loss, each row's penalty its own)::

    min_w  ½ wᵀw + Σ_i C_i max(0, 1 − y_i wᵀx_i),     y_i = ±1,  C_i = C · weight_i,

where a row ``x_i`` carries an extra constant feature of value 1 whose weight is the bias
``b`` (liblinear's ``-B 1``, LinearSVC's ``intercept_scaling=1``): the bias is regularised
with ``w``.  Its dual (eq. 4) is::

    min_α  f(α) = ½ αᵀQα − Σ_i α_i,   0 ≤ α_i ≤ C_i,   Q_ij = y_i y_j x_iᵀx_j,

with ``w = Σ_i y_i α_i x_i``.  A pass visits the rows in a random order and minimises
``f`` over one ``α_i`` at a time (eq. 7-9): with the gradient ``G = y_i wᵀx_i − 1``,
``α_i ← min(max(α_i − G / Q_ii, 0), C_i)`` and ``w ← w + (α_i,new − α_i,old) y_i x_i``.  The
projected gradient ``PG`` (eq. 8) is 0 at a bound the gradient pushes against; the passes
stop when ``max PG − min PG`` over a pass is at most ``tolerance`` (liblinear's ``eps``,
LinearSVC's ``tol``), or after ``max_iter`` passes.  Shrinking leaves out of the next pass a
row at a bound whose gradient is beyond the previous pass's extreme projected gradients
(eq. 15-16); once the shrunk problem meets the tolerance, every row is visited again.

Rows of weight 0 have ``C_i = 0``: their ``α_i`` stays 0 and they are never visited.

A fit may start from given dual variables (a warm start, as liblinear's dual solvers can):
any ``0 ≤ α_i ≤ C_i`` is a feasible point of the dual, ``w = Σ_i y_i α_i x_i`` and ``b`` are
computed from it, and the same passes run from there to the same tolerance.  ODT-SVM's
backward elimination (:mod:`.sparse`) refits a node's SVM on fewer and fewer of its
attributes, each refit from the dual variables of the last (:class:`DualStart`).
"""
import numpy as np
from numba import njit

#: LinearSVC's stopping tolerance and iteration limit (passes over the rows).
TOLERANCE, MAX_ITER = 1e-4, 2000

#: liblinear's own default stopping tolerance of its dual solvers (``-e 0.1`` for
#: L2R_L1LOSS_SVC_DUAL; Fan, Chang, Hsieh, Wang & Lin, "LIBLINEAR: A Library for Large
#: Linear Classification", JMLR 2008, and liblinear's README), for the SVMs that only rank
#: the attributes of a backward elimination (:mod:`.sparse`); the SVM of a split that is
#: kept is solved to :data:`TOLERANCE`.
RANKING_TOLERANCE = 0.1

#: Mixed into a seed to make the generator's state (it must not be 0).
_SEED_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def _random_below(state, bound):
    """A random integer in ``[0, bound)`` from the generator ``state`` (one non-zero uint64,
    advanced): Marsaglia's xorshift64 ("Xorshift RNGs", J. Stat. Softw. 2003, shifts 13, 7,
    17).  The solver's own generator: no global state of numpy or numba is read or changed,
    so fits in threads do not share one; shifts and exclusive ors only, so numpy's scalars
    (``NUMBA_DISABLE_JIT=1``) give the same numbers without overflow warnings."""
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return np.intp(x % np.uint64(bound))


@njit(cache=True, nogil=True)
def row_product(w, X, i):
    """``wᵀx_i``, summed in four interleaved partial sums (every fourth term each), then
    pairwise: independent sums the processor adds side by side, where one running sum
    waits for every addition before the next (most of a pass over many attributes)."""
    d = w.shape[0]
    whole = d - d % 4
    s0 = s1 = s2 = s3 = 0.0
    for j in range(0, whole, 4):
        s0 += w[j] * X[i, j]
        s1 += w[j + 1] * X[i, j + 1]
        s2 += w[j + 2] * X[i, j + 2]
        s3 += w[j + 3] * X[i, j + 3]
    for j in range(whole, d):
        s0 += w[j] * X[i, j]
    return (s0 + s1) + (s2 + s3)


@njit(cache=True, nogil=True)
def hinge_svm_dual(X, signs, upper_bounds, tolerance, max_iter, state, start):
    """Dual coordinate descent for one binary hinge-loss SVM with a regularised bias
    (the module docstring; Hsieh et al. 2008, Algorithm 1 with shrinking).

    ``X`` (n, d) float64, ``signs`` (n,) of ±1.0, ``upper_bounds`` (n,) the ``C_i``,
    ``state`` a uint64 array of one non-zero element, the random generator (advanced,
    :func:`_random_below`), ``start`` (n,) the dual variables to start from (zeros: a
    cold start; clipped to ``[0, C_i]``).  Returns ``(w, b, alpha, passes)``."""
    n, d = X.shape
    w = np.zeros(d)
    bias = 0.0
    alpha = np.zeros(n)
    diagonal = np.empty(n)                      # Q_ii = x_iᵀx_i + 1 (the bias feature)
    order = np.empty(n, dtype=np.intp)
    n_rows = 0
    for i in range(n):
        square = 1.0
        for j in range(d):
            square += X[i, j] * X[i, j]
        diagonal[i] = square
        if upper_bounds[i] > 0:
            order[n_rows] = i
            n_rows += 1
            alpha[i] = min(max(start[i], 0.0), upper_bounds[i])
            if alpha[i] != 0.0:                 # w = Σ y_i α_i x_i, b = Σ y_i α_i
                step = alpha[i] * signs[i]
                for j in range(d):
                    w[j] += step * X[i, j]
                bias += step
    active = n_rows
    largest_old, smallest_old = np.inf, -np.inf
    passes = 0
    while passes < max_iter:
        largest, smallest = -np.inf, np.inf
        for s in range(active):                 # a random order of the active rows
            t = s + _random_below(state, active - s)
            order[s], order[t] = order[t], order[s]
        s = 0
        while s < active:
            i = order[s]
            value = bias + row_product(w, X, i)
            gradient = signs[i] * value - 1.0
            bound = upper_bounds[i]
            projected = 0.0
            if alpha[i] == 0.0:
                if gradient > largest_old:      # shrink: stays at 0 (eq. 15)
                    active -= 1
                    order[s], order[active] = order[active], order[s]
                    continue
                if gradient < 0.0:
                    projected = gradient
            elif alpha[i] == bound:
                if gradient < smallest_old:     # shrink: stays at C_i (eq. 16)
                    active -= 1
                    order[s], order[active] = order[active], order[s]
                    continue
                if gradient > 0.0:
                    projected = gradient
            else:
                projected = gradient
            largest = max(largest, projected)
            smallest = min(smallest, projected)
            if abs(projected) > 1e-12:
                old = alpha[i]
                alpha[i] = min(max(old - gradient / diagonal[i], 0.0), bound)
                step = (alpha[i] - old) * signs[i]
                for j in range(d):
                    w[j] += step * X[i, j]
                bias += step
            s += 1
        passes += 1
        if largest - smallest <= tolerance:
            if active == n_rows:
                break
            active = n_rows                     # the shrunk problem is solved: all rows
            largest_old, smallest_old = np.inf, -np.inf
            continue
        largest_old = largest if largest > 0.0 else np.inf
        smallest_old = smallest if smallest < 0.0 else -np.inf
    return w, bias, alpha, passes


@njit(cache=True, nogil=True)
def _one_vs_rest(X, codes, n_classes, upper_bounds, tolerance, max_iter, seed, alphas):
    """One hinge SVM for two classes (class 1 positive), else one per class against the
    rest (class k positive), all drawing from one generator seeded by ``seed``, SVM ``k``
    starting from the dual variables ``alphas[k]`` and leaving its solution's there:
    ``(coef, intercept, passes)`` with the most passes of any of them.  ``seed`` is an
    integer in ``[0, 2⁶³)``."""
    state = np.full(1, np.uint64(seed) ^ _SEED_MIX)
    n_models = 1 if n_classes == 2 else n_classes
    coef = np.empty((n_models, X.shape[1]))
    intercept = np.empty(n_models)
    signs = np.empty(len(codes))
    most = 0
    for k in range(n_models):
        positive = 1 if n_classes == 2 else k
        for i in range(len(codes)):
            signs[i] = 1.0 if codes[i] == positive else -1.0
        w, bias, alpha, passes = hinge_svm_dual(X, signs, upper_bounds, tolerance,
                                                max_iter, state, alphas[k])
        for j in range(w.shape[0]):  # loops: a row assignment compiles a shape check
            coef[k, j] = w[j]
        intercept[k] = bias
        for i in range(alpha.shape[0]):
            alphas[k, i] = alpha[i]
        most = max(most, passes)
    return coef, intercept, most


class DualStart:
    """Where a fit of :func:`linear_svm` starts and what it leaves for the next fit on the
    same rows and classes (a warm start; the module docstring): ``alphas``, one row of
    dual variables per binary SVM (None: a cold start), and ``n_iter``, the passes over
    the rows the last fit took (the most of its binary SVMs, as LinearSVC's ``n_iter_``)."""

    def __init__(self):
        self.alphas = None
        self.n_iter = 0


def linear_svm(X, y, sample_weight, C, seed, tolerance=TOLERANCE, max_iter=MAX_ITER,
               dual_start=None):
    """``LinearSVC(C=C, loss="hinge", dual=True, tol=tolerance, max_iter=max_iter)`` fitted
    on ``X, y, sample_weight`` (finite, at least two classes, weights ≥ 0): ``(classes,
    coef, intercept)`` as LinearSVC's ``classes_``, ``coef_`` and ``intercept_`` -- the same
    problem solved to the same tolerance, not bit for bit the same numbers.  ``seed`` (an
    integer ≥ 0) makes the row orders, so a fit is repeatable.  A fit that reaches
    ``max_iter`` passes is kept, as LinearSVC keeps it.  ``dual_start``, a
    :class:`DualStart`, starts the fit from its dual variables (those of a fit on the same
    rows and classes, on any columns) and keeps the new fit's there."""
    classes = np.unique(y)
    codes = np.searchsorted(classes, np.ravel(y))         # (np.unique's return_inverse)
    alphas = np.zeros((1 if len(classes) == 2 else len(classes), len(codes)))
    if dual_start is not None and dual_start.alphas is not None:
        if dual_start.alphas.shape != alphas.shape:
            raise ValueError(f"dual_start holds the dual variables of "
                             f"{dual_start.alphas.shape[0]} SVMs of "
                             f"{dual_start.alphas.shape[1]} rows, not {alphas.shape[0]} "
                             f"of {alphas.shape[1]}")
        alphas[:] = dual_start.alphas
    coef, intercept, passes = _one_vs_rest(
        np.ascontiguousarray(X, dtype=np.float64), codes.astype(np.intp),
        len(classes), float(C) * np.ascontiguousarray(sample_weight, dtype=np.float64),
        float(tolerance), int(max_iter), int(seed), alphas)
    if dual_start is not None:
        dual_start.alphas, dual_start.n_iter = alphas, int(passes)
    return classes, coef, intercept
