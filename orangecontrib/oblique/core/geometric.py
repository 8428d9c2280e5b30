"""Geometric Decision Tree (Manwani & Sastry, "Geometric Decision Tree", 2010/2012).

At each node the rows of the majority class (``S+``) and all other rows (``S−``) define the
matrices ``G`` and ``H`` (Section II-A); the two clustering hyperplanes solve the generalized
eigenvalue problem ``H w̃ = λ G w̃`` (Eq. 3); the split is the angle bisector of the two
(Eqs. 4-5) with the lower Gini index (Eq. 6).  Rank-deficient ``G`` or ``H`` are handled by
the null-space method of Section II-B -- at a node with fewer rows than features, within
the span of its rows (:func:`row_span_hyperplanes`); more than two classes by
majority-vs-rest (Algorithm 2).
"""
import math
import numbers

import numpy as np
from scipy.linalg.lapack import dsyev as _dsyev
from sklearn.base import clone

from . import gdt_kernels, kernels
from .base import ObliqueTreeClassifierMixin
from .impurity import MEASURES
from .preprocessing import Standardisation
from .sparse import limit_terms
from .tree import Split, grow_tree
from .validation import store_parameters

#: A direction is in the null space of a PSD matrix when its eigenvalue is below this
#: fraction of the largest one (Section II-B needs a rank test; never compare with 0).
RANK_TOLERANCE = 1e-9
#: Above this relative smallest eigenvalue G and H are of full rank in any coordinates that
#: are not absurdly scaled, and the generalized eigenproblem is solved directly.
WELL_CONDITIONED = 1e-6
_TINY = float(np.finfo(float).tiny)
#: ``epsilon1="auto"``: the values of ε1 tried, the paper's range 0.1-0.2 (Section IV).
AUTO_EPSILON1 = (0.10, 0.125, 0.15, 0.175, 0.20)
#: ``epsilon1="auto"``: folds of the stratified inner cross-validation.
AUTO_FOLDS = 5


def _is_null(eigenvalues, tolerance):
    """Mask of the eigenvalues (ascending) that count as zero."""
    return eigenvalues <= tolerance * max(float(eigenvalues[-1]), _TINY)


def _symmetric_eigen(matrix):
    """Eigenvalues (ascending) and eigenvectors of a small symmetric matrix.

    LAPACK's ``dsyev`` directly: for the (d+1)×(d+1) matrices of a node, numpy's ``eigh``
    costs several times more in call overhead than in arithmetic.
    """
    values, vectors, info = _dsyev(matrix)
    if info != 0:
        return np.linalg.eigh(matrix)
    return values, vectors


class RankHistory:
    """How often each of the two full-rank attempts of :func:`_clustering_directions`
    (0: in the given coordinates, 1: equilibrated) found G and H of full rank at a fit's
    nodes so far.  Where an attempt has failed at least as often as not (data with
    collinear columns, such as one-hot encoded attributes, or nodes with few rows of a
    class), G, and H whitened by G, are first screened by :func:`_clearly_rank_deficient`:
    the same hyperplanes, with fewer eigenvectors computed.  (Compiled, the screen and the
    decomposition with vectors share dsyev's reduction to tridiagonal form,
    :func:`.kernels.symmetric_eigen_first`.)"""

    #: Below this size eigenvectors cost about what eigenvalues alone do: no screening.
    SMALLEST_SCREENED = 8

    def __init__(self):
        # arrays, as the compiled node (gdt_kernels.gdt_node) reads them
        self.full_rank = np.zeros(2, dtype=np.int64)
        self.rank_deficient = np.zeros(2, dtype=np.int64)

    def screen(self, attempt, size):
        return (size >= self.SMALLEST_SCREENED
                and self.rank_deficient[attempt] >= self.full_rank[attempt])

    def record(self, attempt, full_rank):
        if full_rank:
            self.full_rank[attempt] += 1
        else:
            self.rank_deficient[attempt] += 1


def _clearly_rank_deficient(matrix, tolerance):
    """Whether ``matrix`` fails the full-rank test ``λ_min > tolerance · λ_max`` of
    :func:`_full_rank_directions` by a wide margin, from its eigenvalues alone.

    ``dsyev`` without eigenvectors costs 0.25-0.45 of ``dsyev`` with them (d+1 = 26-81)
    but rounds the eigenvalues differently, by some ``(d+1)·ε·λ_max`` (both are backward
    stable): far below half the tolerance (≥ 1e-9 · λ_max), so a matrix whose smallest
    eigenvalue here is below half the threshold also fails the test on the eigenvalues
    computed with eigenvectors, and the decision is the same.  Matrices near the threshold
    are left to the test itself (False)."""
    values, _, info = _dsyev(matrix, compute_v=0)
    return info == 0 and values[0] <= 0.5 * tolerance * max(float(values[-1]), _TINY)


def singular_by_rows(positive, weights, size):
    """Whether G or H has fewer rows of positive weight than its ``size``: then it is
    singular, ``rank(G) ≤`` the rows of S+ (``positive``) and ``rank(H) ≤`` those of S−,
    and :func:`_clustering_directions` goes to Section II-B's null-space method without
    its two full-rank attempts, which could only find G or H deficient: an exact zero
    eigenvalue comes out of dsyev as some ``(d+1)·ε·λ_max``, far below their thresholds
    of ``1e-6`` and ``1e-9 · λ_max``.  So the hyperplanes are the attempts' (the same
    trees on every recorded fit), without their decompositions; had rounding noise ever
    passed a threshold, the null-space method is the paper's answer for a singular
    matrix."""
    if weights is None:
        rows_positive, rows = int(np.count_nonzero(positive)), len(positive)
    else:
        present = weights > 0
        rows_positive, rows = int(np.count_nonzero(positive & present)), int(
            np.count_nonzero(present))
    return min(rows_positive, rows - rows_positive) < size


def _maximise_ratio_with_nullity(numerator, denominator, nullity, eigen=None):
    """``argmax w̃ᵀNw̃ / w̃ᵀDw̃`` when ``D`` has ``nullity`` null directions (decided by the
    caller; ``eigen``: ``D``'s :func:`_symmetric_eigen`, if the caller has it).
    ``nullity == 0``: whiten ``D`` (``D = F Fᵀ``, Section II-A) and take the principal
    eigenvector.  Otherwise (Section II-B) the ratio is unbounded on null(D): the principal
    eigenvector of ``QQᵀ N QQᵀ`` with ``Q`` an orthonormal basis of null(D)."""
    values, vectors = _symmetric_eigen(denominator) if eigen is None else eigen
    if nullity > 0:
        null_basis = vectors[:, :nullity]
        return null_basis @ _symmetric_eigen(null_basis.T @ numerator @ null_basis)[1][:, -1]
    whitening = vectors / np.sqrt(np.maximum(values, _TINY))
    return whitening @ _symmetric_eigen(whitening.T @ numerator @ whitening)[1][:, -1]


def _rank(matrix, tolerance):
    return _rank_of(_symmetric_eigen(matrix)[0], tolerance)


def _rank_of(eigenvalues, tolerance):
    """The number of ``eigenvalues`` (ascending) that do not count as zero."""
    return int(np.count_nonzero(~_is_null(eigenvalues, tolerance)))


def maximise_ratio(numerator, denominator, tolerance=RANK_TOLERANCE):
    """``argmax w̃ᵀ N w̃ / w̃ᵀ D w̃`` for symmetric PSD ``N`` and ``D`` with ``N + D`` > 0.

    With ``D`` of full rank this is the eigenvector of the largest eigenvalue of
    ``N w̃ = λ D w̃``, computed as in Section II-A by whitening ``D``.  With ``D`` rank
    deficient (Section II-B) the ratio is unbounded on null(``D``): with ``Q`` an orthonormal
    basis of null(``D``) the answer is the principal eigenvector of ``QQᵀ N QQᵀ``.
    """
    nullity = len(denominator) - _rank(denominator, tolerance)
    return _maximise_ratio_with_nullity(numerator, denominator, nullity)


def clustering_hyperplanes(G, H, tolerance=RANK_TOLERANCE, history=None, singular=False):
    """The two clustering hyperplanes ``w̃1``, ``w̃2`` of Eqs. (1)-(3).

    ``w̃1`` minimises ``w̃ᵀGw̃ / w̃ᵀHw̃`` (close to S+, far from S−): the eigenvector of the
    largest ``λ`` of ``H w̃ = λ G w̃``; ``w̃2`` the one of the smallest ``λ``, i.e. the
    maximiser of ``w̃ᵀGw̃ / w̃ᵀHw̃``.  A rank-deficient ``G`` (or ``H``) is handled by the
    null-space method of Section II-B (:func:`maximise_ratio`), for each hyperplane
    symmetrically.  Directions in which both ``G`` and ``H`` vanish (fewer rows than
    features, a feature constant at the node, collinear features) carry no information, so
    both problems are solved within the range of ``G + H``.

    Rank is decided after an invertible change of coordinates ``x̃' = A x̃`` that centres
    and scales the features by the mean and spread of the two classes together (read off
    ``(G + H) / 2``): the solutions are covariant (``w̃ = Aᵀ w̃'``), so the hyperplanes do
    not depend on it, but a relative rank test then no longer depends on feature units.
    Each hyperplane is scaled so that its non-bias part has unit norm; ``None`` when it has
    no non-bias part.  ``history``: the fit's :class:`RankHistory`, if any; ``singular``:
    G or H is known to be singular (:func:`singular_by_rows`), no full-rank attempt.
    """
    directions = _clustering_directions(G, H, tolerance, lambda: _equilibration(G, H),
                                        history, singular)
    return _unit_normal(directions[0]), _unit_normal(directions[1])


def _clustering_directions(G, H, tolerance, equilibration, history=None, singular=False):
    """:func:`clustering_hyperplanes` before scaling: ``w̃1``, ``w̃2`` as computed;
    ``equilibration()`` gives ``A`` (:func:`_equilibration`, or its part within the
    coordinates of ``G`` and ``H``, see :func:`row_span_hyperplanes`); ``history``, a
    :class:`RankHistory` of the fit's nodes so far, if any; ``singular``, no full-rank
    attempt (:func:`singular_by_rows`; recorded in the history as two failed ones).
    (Compiled, with the same results: :func:`.kernels.gdt_node_split` and, after the
    first attempt, :func:`.kernels.gdt_rank_deficient_directions`.)"""
    # Clearly of full rank (the usual case at large nodes): no change of coordinates needed.
    directions = None if singular else _full_rank_directions(
        G, H, WELL_CONDITIONED, history is not None and history.screen(0, len(G)))
    if history is not None:
        history.record(0, directions is not None)
    if directions is not None:
        return directions
    A = equilibration()
    screen = history is not None and history.screen(1, len(G))
    if kernels.AVAILABLE:
        status, w1, w2 = gdt_kernels.gdt_rank_deficient_directions(G, H, A, tolerance, screen,
                                                               singular)
        if status:
            if history is not None:
                history.record(1, status == 1)
            return w1, w2
    G_equilibrated, H_equilibrated = A @ G @ A.T, A @ H @ A.T
    directions = None if singular else _full_rank_directions(
        G_equilibrated, H_equilibrated, tolerance, screen)
    if history is not None:
        history.record(1, directions is not None)
    if directions is not None:
        return A.T @ directions[0], A.T @ directions[1]
    # Rank deficient: ranks are counted in the equilibrated coordinates.  Where a
    # denominator is rank deficient, Section II-B's answer depends on the metric, so it is
    # taken in the given coordinates (range(G + H) spanned by its top rank(G + H)
    # eigenvectors, null spaces by the bottom eigenvectors); a generalized eigenproblem of
    # full rank is covariant and is solved in the better-conditioned equilibrated ones.
    both_values, both_vectors = _symmetric_eigen(G_equilibrated + H_equilibrated)
    skip = len(G) - _rank_of(both_values, tolerance)
    basis = _symmetric_eigen(G + H)[1][:, skip:]
    basis_equilibrated = both_vectors[:, skip:]
    directions = []
    for numerator, denominator, numerator_e, denominator_e in (
            (H, G, H_equilibrated, G_equilibrated), (G, H, G_equilibrated, H_equilibrated)):
        # nullity of the denominator within range(G + H), decided where it is well scaled
        within_e = basis_equilibrated.T @ denominator_e @ basis_equilibrated
        eigen_e = _symmetric_eigen(within_e)
        nullity = len(basis.T) - _rank_of(eigen_e[0], tolerance)
        if nullity > 0:
            w = basis @ _maximise_ratio_with_nullity(basis.T @ numerator @ basis,
                                                     basis.T @ denominator @ basis, nullity)
        else:
            w_equilibrated = basis_equilibrated @ _maximise_ratio_with_nullity(
                basis_equilibrated.T @ numerator_e @ basis_equilibrated, within_e, 0,
                eigen_e)
            w = basis @ (basis.T @ (A.T @ w_equilibrated))  # back, within range(G + H)
        directions.append(w)
    return directions[0], directions[1]


def row_span_hyperplanes(Z, positive, weights, n_positive, n_negative,
                         tolerance=RANK_TOLERANCE, history=None, singular=None):
    """:func:`clustering_hyperplanes` of the node's augmented rows ``Z`` (n × (d+1), with
    ``n < d + 1``), ``S+`` the rows in ``positive``, computed within the span of the rows.

    ``G = Σ_{S+} w_i x̃_i x̃_iᵀ / n+`` and ``H`` (the same over ``S−``, ``/ n−``) vanish
    outside the span of the rows, so with fewer rows than features both are rank
    deficient (Section II-B) and :func:`clustering_hyperplanes` solves within
    range(``G + H``), a subspace of that span.  Here the span gets an orthonormal
    basis ``U`` first (the right singular vectors of ``Z`` whose singular values are
    not rounding noise, so that duplicate rows add no direction outside the span): the
    rows' coordinates are ``Z U``, ``G`` and ``H`` become r × r (``UᵀGU``, ``UᵀHU``,
    r ≤ n), and the change of coordinates ``A`` of the rank tests becomes its part
    within the span, the triangle ``R_A`` of ``A U = U_A R_A`` (QR; ``U_A`` spans
    ``A·span``, so ``A G Aᵀ = U_A R_A (UᵀGU) R_Aᵀ U_Aᵀ``).  Every step of
    :func:`clustering_hyperplanes` -- eigenvalues, ranks, null spaces, ratios -- is the
    same in these coordinates (an orthonormal basis keeps lengths and angles, so the
    metric of the null-space method is kept), and ``w̃ = U w̃_U``: the same hyperplanes
    up to rounding, at a cost of O(n² d) and memory O(n d) instead of O((d+1)³) and
    O((d+1)²) (100 rows × 2,000 attributes took 30 s at the root, issue 15, D4).
    ``singular``: as in :func:`clustering_hyperplanes`; None decides it by
    :func:`singular_by_rows` in the basis's r coordinates.
    """
    # each row's share of the mixture (G + H) / 2 of the equilibration
    share = weights * np.where(positive, 0.5 / n_positive, 0.5 / n_negative)
    if kernels.AVAILABLE and Z.flags.c_contiguous:  # the same steps compiled
        basis, G, H = gdt_kernels.gdt_row_span(Z, positive, weights)
        if singular is None:
            singular = singular_by_rows(positive, weights, basis.shape[1])
        directions = _clustering_directions(
            G / n_positive, H / n_negative, tolerance,
            lambda: gdt_kernels.gdt_row_span_equilibration(Z, share, basis), history, singular)
        return _unit_normal(basis @ directions[0]), _unit_normal(basis @ directions[1])
    _, singular_values, right = np.linalg.svd(Z, full_matrices=False)
    keep = singular_values > singular_values[0] * max(Z.shape) * np.finfo(float).eps
    basis = right[keep].T                          # (d + 1, r), orthonormal
    coordinates = Z @ basis                        # the rows in that basis
    weighted = coordinates * weights[:, None]
    scatter = weighted.T @ coordinates
    G = weighted[positive].T @ coordinates[positive]
    H = scatter - G

    def equilibration():
        # from the diagonal and the last column of the mixture
        mean, spread = _equilibration_moments(np.einsum("i,ij,ij->j", share, Z, Z),
                                              share @ Z)
        in_basis = basis.copy()
        if mean is not None:
            in_basis[:-1] -= mean[:, None] * basis[-1]
            in_basis[:-1] /= spread[:, None]
        return np.linalg.qr(in_basis, mode="r")

    if singular is None:
        singular = singular_by_rows(positive, weights, basis.shape[1])
    directions = _clustering_directions(G / n_positive, H / n_negative, tolerance,
                                        equilibration, history, singular)
    return _unit_normal(basis @ directions[0]), _unit_normal(basis @ directions[1])


def _full_rank_directions(G, H, tolerance, screen=False):
    """Both of full rank: whiten G once; the eigenvectors of Wᵀ H W of the largest and the
    smallest eigenvalue give (unnormalised) w̃1 and w̃2 (Section II-A).  ``None`` when G,
    or H (the smallest λ ≈ 0), is rank deficient at this tolerance.  ``screen``: first
    :func:`_clearly_rank_deficient` on G, and on Wᵀ H W (the same answer)."""
    if screen and _clearly_rank_deficient(G, tolerance):
        return None
    g_values, g_vectors = _symmetric_eigen(G)
    if g_values[0] > tolerance * max(g_values[-1], _TINY):
        whitening = g_vectors / np.sqrt(g_values)
        whitened = whitening.T @ H @ whitening
        if screen and _clearly_rank_deficient(whitened, tolerance):
            return None
        m_values, m_vectors = _symmetric_eigen(whitened)
        if m_values[0] > tolerance * max(m_values[-1], _TINY):
            return whitening @ m_vectors[:, -1], whitening @ m_vectors[:, 0]
    return None


def _equilibration(G, H):
    """``A`` with ``A x̃ = [(x − m) / s, 1]`` for the mean ``m`` and standard deviation ``s``
    of the equal mixture of the two classes (features with ``s ≈ 0`` are only centred)."""
    mixture = (G + H) / 2
    size = len(mixture)
    A = np.eye(size)
    mean, spread = _equilibration_moments(np.diagonal(mixture), mixture[:, -1])
    if mean is None:
        return A
    A[np.arange(size - 1), np.arange(size - 1)] = 1.0 / spread
    A[:-1, -1] = -mean / spread
    return A


def _equilibration_moments(diagonal, last_column):
    """The mean and spread of :func:`_equilibration` from the diagonal and the last
    column of the mixture ``(G + H) / 2``; ``(None, None)`` when it has no weight."""
    weight = last_column[-1]
    if not weight > 0:
        return None, None
    mean = last_column[:-1] / weight
    second_moment = diagonal[:-1] / weight
    spread = np.sqrt(np.maximum(second_moment - mean ** 2, 0.0))
    # E[x²] − E[x]² from summed moments carries a rounding error of some ε·E[x²], i.e. a
    # spread of about 1e-8 of the root mean square for a feature constant at the node:
    # below 1e-6 of it a spread is that noise, and scaling it up would make a direction
    # of no variance look like one of full rank.
    spread[(spread <= 1e-12 * np.maximum(np.abs(mean), 1.0))
           | (spread <= 1e-6 * np.sqrt(second_moment))] = 1.0
    return mean, spread


def _unit_normal(w):
    norm = np.sqrt(w[:-1] @ w[:-1])
    if norm <= 1e-12 * np.sqrt(w @ w):
        return None
    return w / norm


def angle_bisectors(w1, w2):
    """Angle bisectors ``w̃1 + w̃2`` and ``w̃1 − w̃2`` (Eqs. 4-5) of unit-normal hyperplanes,
    as the rows of an array.

    The signs are aligned first (``w1·w2 >= 0``).  When the two hyperplanes are parallel
    only ``w̃1 + w̃2`` remains: the hyperplane midway between them.
    """
    bisectors = np.empty((2, len(w1)))
    if w2[:-1] @ w1[:-1] < 0:
        w2 = -w2
    np.add(w1, w2, out=bisectors[0])
    np.subtract(w1, w2, out=bisectors[1])
    if bisectors[1, :-1] @ bisectors[1, :-1] > 1e-16:
        return bisectors
    return bisectors[:1]


def binary_gini(goes_right, positive, weights):
    """Weighted Gini index of Eq. (6) for each candidate split (columns of ``goes_right``),
    S+ (``positive``) against S−: the shared impurity module's Gini (OC1's Gini is the same
    formula) on the two-class counts.  (A candidate with an empty side gets the node's own
    Gini; the splitter rejects such a split anyway.)"""
    by_class = np.empty((2, len(weights)))
    np.multiply(weights, positive, out=by_class[0])
    np.subtract(weights, by_class[0], out=by_class[1])
    right = by_class @ goes_right                                    # (2, candidates)
    left = by_class.sum(axis=1)[:, None] - right
    return MEASURES["gini"](left, right, left[0] + left[1], right[0] + right[1], None)


def _canonical_order(X, y, sample_weight):
    """Row order by the features (first column first), then class, then weight: a single
    stable sort when the first column has no ties (continuous data), else ``lexsort``."""
    if X.shape[1]:
        order = np.argsort(X[:, 0], kind="stable")
        first = X[order, 0]
        if not np.any(first[1:] == first[:-1]):
            return order
    return np.lexsort(np.column_stack([X, y, sample_weight]).T[::-1])


class GeometricSplitter:
    """Proposes the GDT split of a node (Algorithm 2, one node).

    Works on the standardised, augmented rows ``[z, 1]`` (``z`` is ``x`` transformed by
    ``standardisation``, a :class:`~.preprocessing.Standardisation`); returns the chosen
    bisector as a :class:`Split` in raw units.  The per-node work is a few dozen numpy calls
    on small arrays, so it is written to keep their number low.
    """

    def __init__(self, augmented, y, sample_weight, standardisation):
        self.augmented = augmented
        self.y = y
        self.sample_weight = sample_weight
        self.unit_weights = bool(np.all(sample_weight == 1))
        #: Its zero columns (constant features, standardised) have rounding noise as their
        #: weight in an eigenvector, which is dropped.
        self.standardisation = standardisation
        #: Largest ‖[z, 1]‖ of a row, for the rounding slack of ``z·w`` (≤ ‖z‖·‖w‖).
        self.largest_row_norm = float(np.sqrt(np.einsum("ij,ij->i", augmented,
                                                        augmented).max(initial=1.0)))
        self.rank_history = RankHistory()
        #: Whether the node's split runs compiled (:mod:`.kernels`) where it can.
        self.compiled = kernels.AVAILABLE
        #: The unit row weights of any node (a view of the first rows), made once.
        self.ones = np.ones(len(y))

    def __call__(self, rows, counts, depth, features=None):
        """The split of the node of ``rows``; with ``features``, a split over those
        features only (the others get weight 0)."""
        if features is None and self.compiled:
            # the compiled steps below in one kernel call (gdt_kernels.gdt_node)
            majority = int(counts.argmax())
            n_positive, n_negative = self._class_weights(counts, majority)
            history = self.rank_history
            standardisation = self.standardisation
            status, weights, bias, direct, equilibrated = gdt_kernels.gdt_node(
                self.augmented, self.y, self.sample_weight, rows, majority,
                self.unit_weights, n_positive, n_negative, WELL_CONDITIONED,
                RANK_TOLERANCE, history.full_rank, history.rank_deficient,
                RankHistory.SMALLEST_SCREENED, self.largest_row_norm,
                standardisation.mean, standardisation.scale, standardisation.zero_columns)
            if status != 3:
                history.record(0, direct)
                if equilibrated >= 0:
                    history.record(1, equilibrated == 1)
                return Split.hyperplane(weights, bias) if status == 1 else None
            # LAPACK failed: the steps one by one, numpy's code standing in (below)
        return self._split_in_steps(rows, counts, features)

    @staticmethod
    def _class_weights(counts, majority):
        """The weights of S+ (class ``majority``) and S− in the node's class ``counts``,
        the total summed as numpy sums fewer than 8 numbers (in order)."""
        n_positive = float(counts[majority])
        if len(counts) < 8:  # counts.sum(): numpy adds fewer than 8 numbers in order
            total = 0.0
            for count in counts.tolist():
                total += count
        else:
            total = float(counts.sum())
        return n_positive, total - n_positive

    def _split_in_steps(self, rows, counts, features):
        """:meth:`__call__` step by step: the kernels one by one where they apply, else
        numpy's code."""
        Z = self.augmented[rows]
        if features is not None:
            Z = Z[:, np.append(features, Z.shape[1] - 1)]
        # the kernels repeat numpy's BLAS calls for the C-ordered rows (not the columns
        # picked by max_terms' refit, column-major: numpy's own code then)
        compiled = self.compiled and Z.flags.c_contiguous
        majority = int(counts.argmax())
        positive = self.y[rows] == majority
        weights = self.ones[:len(rows)] if self.unit_weights else self.sample_weight[rows]
        n_positive, n_negative = self._class_weights(counts, majority)
        history = self.rank_history
        row_weights = None if self.unit_weights else weights
        if len(rows) < Z.shape[1]:
            # fewer rows than features: G and H live in the span of the rows
            if compiled:
                share = weights * np.where(positive, 0.5 / n_positive, 0.5 / n_negative)
                basis, G, H = gdt_kernels.gdt_row_span(Z, positive, weights)
                G, H = G / n_positive, H / n_negative
                singular = singular_by_rows(positive, row_weights, len(G))
                status, w, direct, equilibrated = gdt_kernels.gdt_row_span_split(
                    Z, positive, weights, share, basis, G, H, WELL_CONDITIONED,
                    RANK_TOLERANCE, history.screen(0, len(G)), history.screen(1, len(G)),
                    self.largest_row_norm, singular)
                if status != 3:
                    return self._compiled_split(status, w, direct, equilibrated, features)
            # numpy's code (also where LAPACK failed: its eigh stands in)
            w1, w2 = row_span_hyperplanes(Z, positive, weights, n_positive, n_negative,
                                          history=history)
        elif compiled:
            singular = singular_by_rows(positive, row_weights, Z.shape[1])
            status, w, G, H, direct, equilibrated = gdt_kernels.gdt_node_split(
                Z, positive, weights, self.unit_weights, n_positive, n_negative,
                WELL_CONDITIONED, RANK_TOLERANCE, history.screen(0, Z.shape[1]),
                history.screen(1, Z.shape[1]), self.largest_row_norm, singular)
            if status != 3:
                return self._compiled_split(status, w, direct, equilibrated, features)
            # LAPACK failed: numpy's code, whose eigh stands in
            w1, w2 = clustering_hyperplanes(G, H, history=history, singular=singular)
        else:
            if self.unit_weights:
                positive_rows = Z[positive]
                G = positive_rows.T @ positive_rows
                H = Z.T @ Z - G
            else:
                weighted = Z * weights[:, None]
                G = weighted[positive].T @ Z[positive]
                H = weighted.T @ Z - G
            w1, w2 = clustering_hyperplanes(
                G / n_positive, H / n_negative, history=self.rank_history,
                singular=singular_by_rows(positive, row_weights, Z.shape[1]))
        if w1 is None and w2 is None:
            return None
        if compiled:
            both = w1 is not None and w2 is not None
            w, found = gdt_kernels.gdt_best_bisector(Z, positive, weights,
                                                 w2 if w1 is None else w1,
                                                 w1 if w2 is None else w2, both,
                                                 self.largest_row_norm)
        else:
            w, found = self.best_candidate(Z, positive, weights, w1, w2)
        return self.to_raw_units(w, features) if found else None

    def _compiled_split(self, status, w, direct, equilibrated, features):
        """The split from a compiled node's ``(status, w, direct, equilibrated)``
        (:func:`.kernels.gdt_node_split`), its attempts recorded in the history."""
        self.rank_history.record(0, direct)
        if equilibrated >= 0:
            self.rank_history.record(1, equilibrated == 1)
        return self.to_raw_units(w, features) if status == 1 else None

    def best_candidate(self, Z, positive, weights, w1, w2):
        """Of the angle bisectors of ``w1`` and ``w2`` (Eqs. 4-5; the one hyperplane when
        the other is None) the one of lowest Gini index (Eq. 6) on the node's augmented
        rows ``Z`` that sends rows to both sides: ``(w̃, True)``, or ``(…, False)`` when
        none does.  (The numpy code; :func:`.kernels.gdt_best_bisector` compiled.)"""
        if w1 is None or w2 is None:
            w = w1 if w2 is None else w2
            candidates = w[None, :]
            norm_bound = math.sqrt(1.0 + float(w[-1]) ** 2)
        else:
            candidates = angle_bisectors(w1, w2)
            # the non-bias parts are unit vectors: ‖w̃1 ± w̃2‖ ≤ ‖w̃1‖ + ‖w̃2‖
            norm_bound = (math.sqrt(1.0 + float(w1[-1]) ** 2)
                          + math.sqrt(1.0 + float(w2[-1]) ** 2))
        # Each candidate's largest coefficient positive: an eigenvector's sign is LAPACK's
        # (or the solver's) choice, and the side that rows on the plane join (below) must
        # not depend on it.
        largest = candidates[np.arange(len(candidates)),
                             np.argmax(np.abs(candidates[:, :-1]), axis=1)]
        candidates = np.where(largest[:, None] < 0, -candidates, candidates)
        values = Z @ candidates.T
        # A bisector can pass through rows (duplicates, symmetric or lattice data); the side
        # such a row is computed on then depends on rounding (raw or standardised units,
        # order of summation).  Rows within rounding of the plane count as on it, i.e.
        # right, and a chosen plane through rows is moved clear of them (below).
        slack = 1e-9 * self.largest_row_norm * norm_bound
        goes_right = (values >= -slack).astype(float)
        gini = binary_gini(goes_right, positive, weights)
        n_right = goes_right.sum(axis=0)
        for best in np.argsort(gini, kind="stable"):
            if 0 < n_right[best] < len(Z):
                w = candidates[best]
                if np.abs(values[:, best]).min() <= slack:
                    right = goes_right[:, best] > 0
                    w = w.copy()
                    w[-1] -= (values[~right, best].max() + values[right, best].min()) / 2
                return w, True
        return candidates[0], False

    def to_raw_units(self, w, features=None):
        """The hyperplane ``w̃`` over standardised features (``features`` only, if given)
        as a unit-normal raw split."""
        if features is not None:
            full = np.zeros(self.augmented.shape[1])
            full[features], full[-1] = w[:-1], w[-1]
            w = full
        if self.compiled:
            standardisation = self.standardisation
            return Split.hyperplane(*gdt_kernels.gdt_raw_hyperplane(
                w, standardisation.mean, standardisation.scale,
                standardisation.zero_columns))
        weights = self.standardisation.raw_weights(w[:-1])
        bias = self.standardisation.raw_bias(weights, w[-1])
        # Unit normal whose largest coefficient is positive: an eigenvector's sign is
        # LAPACK's choice, and fixing it makes trees reproducible across builds.
        norm = np.sqrt(weights @ weights) * np.sign(weights[np.argmax(np.abs(weights))])
        return Split.hyperplane(weights / norm, bias / norm)


class GeometricTreeClassifier(ObliqueTreeClassifierMixin):
    """Geometric Decision Tree (Manwani & Sastry), a scikit-learn classifier.

    Parameters
    ----------
    epsilon1 : float or "auto", default 0.1
        Minority-fraction threshold ε1 (Algorithm 2): a child whose fraction of rows not in
        the parent's majority class is below ε1, with that class still the majority, is a
        leaf.  The paper's protocol (Section IV: "for all our experiments we have chosen
        ε1 between .1 and .2") does not say how ε1 was chosen in that range; ``"auto"``
        chooses it on the training rows only, by stratified inner cross-validation:
        every ε1 of :data:`AUTO_EPSILON1` = {0.10, 0.125, 0.15, 0.175, 0.20} is scored
        by its (weighted) accuracy pooled over :data:`AUTO_FOLDS` = 5 folds (fewer when
        the smallest class has fewer rows; with a class of one row, 0.1), all other
        parameters as given; the best wins, ties to the larger ε1 (the smaller tree);
        the tree is then grown on all training rows.  The chosen value is
        ``epsilon1_``, the scores ``epsilon1_scores_``.  ε2 (when None) follows the
        chosen ε1.  A fit costs about 26 fits.

        Trees grown with ε1 = 0.1 are several times larger than Table II reports (4×4
        checkerboard ~70 leaves against 17.1, 10-d set ~170 against 33.3): see
        ``doc/algorithms/gdt.md`` ("Tree size") for the measurements; in short, ε1 is
        the only stopping rule besides purity and depth, and on sets whose classes
        overlap (the 10-d set) or whose boundaries are not met by one bisector (the
        checkerboards) the tree splits until every leaf is (1 − ε1)-pure, which needs
        many small leaves; a larger ε1 or pruning shrinks it.
    epsilon2 : float or None, default None (= 1 − ε1)
        A child whose majority-class fraction reaches ε2 is a leaf (Algorithm 2).
    max_depth : int or None, default 20
    min_samples_split : int, default 2
        A node with fewer rows is a leaf.
    standardize : bool, default True
        Standardise features (weighted mean 0, variance 1) before finding hyperplanes; the
        paper is silent, and the bisectors depend on scaling.  Hyperplanes are always
        stored and printed in raw units.
    pruning_portion : float, default 0.0
        Share of the training rows held out to prune the grown tree by cost-complexity
        pruning (the shared OC1 procedure); 0 (the paper's GDT) grows without pruning.
    se_rule : float, default 0.0
        k of the k-SE rule when choosing the pruned tree.
    random_state : int, RandomState or None
        Only used to draw the held-out rows when ``pruning_portion > 0``.
    max_terms : int or None, default None
        At most this many attributes with a non-zero weight in any split, found by
        backward elimination from the chosen angle bisector, its threshold re-optimised by the Gini index (:mod:`~orangecontrib.oblique.core.sparse`,
        after CART's linear-combination splits, Breiman et al. 1984, §5.2): a readable
        split.  None keeps the paper's dense split.  Must not exceed the number of
        features.

    Attributes
    ----------
    tree_ : ObliqueTree
    classes_ : ndarray
    """

    def __init__(self, epsilon1=0.1, epsilon2=None, max_depth=20, min_samples_split=2,
                 standardize=True, pruning_portion=0.0, se_rule=0.0, random_state=None,
                 max_terms=None):
        store_parameters(self, locals())

    def _validate_parameters(self):
        super()._validate_parameters()
        if not (isinstance(self.epsilon1, str) and self.epsilon1 == "auto") and (
                not isinstance(self.epsilon1, numbers.Real) or not 0 <= self.epsilon1 < 1):
            raise ValueError(f"epsilon1 must be in [0, 1) or 'auto', got {self.epsilon1!r}")
        if self.epsilon2 is not None and (not isinstance(self.epsilon2, numbers.Real)
                                          or not 0 < self.epsilon2 <= 1):
            raise ValueError(f"epsilon2 must be in (0, 1] or None, got {self.epsilon2!r}")

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback):
        if isinstance(self.epsilon1, str):
            self.epsilon1_, self.epsilon1_scores_ = self._choose_epsilon1(
                X, y, sample_weight, random_state)
        else:
            self.epsilon1_, self.epsilon1_scores_ = float(self.epsilon1), None
        return self._grow_and_prune(
            X, y, sample_weight, random_state,
            lambda X, y, w: self._grow(X, y, w, progress_callback))

    def _choose_epsilon1(self, X, y, sample_weight, random_state):
        """``epsilon1="auto"``: (chosen ε1, {ε1: inner-CV accuracy}) from the training
        rows ``X, y`` only (see the ``epsilon1`` parameter)."""
        from sklearn.model_selection import StratifiedKFold
        smallest = int(np.bincount(y).min()) if len(y) else 0
        n_folds = min(AUTO_FOLDS, smallest)
        if n_folds < 2:
            return AUTO_EPSILON1[0], None
        folds = list(StratifiedKFold(n_folds, shuffle=True, random_state=int(
            random_state.randint(np.iinfo(np.int32).max))).split(X, y))
        scores = {}
        for epsilon1 in AUTO_EPSILON1:
            inner = clone(self).set_params(epsilon1=epsilon1, random_state=int(
                random_state.randint(np.iinfo(np.int32).max)))
            correct = 0.0
            for train, test in folds:
                inner.fit(X[train], y[train], sample_weight[train])
                right = inner.predict(X[test]) == y[test]
                correct += float(sample_weight[test] @ right)
            scores[epsilon1] = correct / float(sample_weight.sum())
        best = max(scores.values())
        return max(e for e, score in scores.items() if score >= best - 1e-12), scores

    def _grow(self, X, y, sample_weight, progress_callback):
        # Rounding in the sums behind the means and G, H depends on the order of the rows,
        # and a last-bit change moves a hyperplane across rows or points that lie on it.
        # Growing on the rows in a canonical order (by features, then class and weight)
        # makes the tree independent of the order they were given in.
        order = _canonical_order(X, y, sample_weight)
        X, y, sample_weight = X[order], y[order], sample_weight[order]
        if self.standardize:
            standardisation = Standardisation.from_rows(X, sample_weight)
            Z = standardisation.transform(X)
        else:
            standardisation, Z = Standardisation.identity(X), X
        augmented = np.hstack([Z, np.ones((X.shape[0], 1))])
        epsilon1 = self.epsilon1_
        epsilon2 = 1 - epsilon1 if self.epsilon2 is None else self.epsilon2
        splitter = GeometricSplitter(augmented, y, sample_weight, standardisation)
        propose_split = limit_terms(splitter, X, y, sample_weight, len(self.classes_),
                                    self.max_terms, "gini", refit=splitter)

        def should_stop(counts, parent_counts, depth):
            """Algorithm 2: η1 < ε1 with the parent's majority still dominant, or
            η2 >= ε2."""
            if parent_counts is None:
                return False  # Algorithms 1-2 test the children; the root is always split
            counts = counts.tolist()  # a few classes: plain floats are faster
            n = sum(counts)
            n_plus = counts[parent_counts.argmax()]
            n_minus = n - n_plus
            if min(n_plus, n_minus) / n < epsilon1 and n_plus > n_minus:
                return True
            return max(counts) / n >= epsilon2

        return grow_tree(X, y, sample_weight, len(self.classes_), propose_split,
                         should_stop, self.max_depth, self.min_samples_split,
                         progress_callback)
