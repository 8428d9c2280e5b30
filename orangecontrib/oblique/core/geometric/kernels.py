"""The Geometric Decision Tree's node split (Manwani & Sastry, "Geometric Decision Tree",
Section II, Algorithm 2), compiled with numba: :func:`gdt_node` is the implementation of
a node, called by :class:`~.geometric.GeometricSplitter`.

Eigendecompositions are numba's ``np.linalg.eigh`` (LAPACK through scipy), products
numba's ``@``.  A LAPACK failure (or a matrix that overflowed to infinity) raises
``np.linalg.LinAlgError``; the splitter then makes the node a leaf.

Every helper is inlined into its caller (``inline="always"``): :func:`gdt_node` (and
:func:`clustering_hyperplanes`) compile as one kernel each, for one signature, instead of
a chain of kernels each compiling the code of all below it, some for several argument
types."""
import numpy as np
from numba import njit

#: A direction is in the null space of a PSD matrix when its eigenvalue is at most this
#: fraction of the largest one (Section II-B needs a rank test; never compare with 0).
RANK_TOLERANCE = 1e-9
#: Above this relative smallest eigenvalue G and H are of full rank in any coordinates that
#: are not absurdly scaled, and the generalized eigenproblem is solved directly.
WELL_CONDITIONED = 1e-6
_TINY = float(np.finfo(np.float64).tiny)
_EPSILON = float(np.finfo(np.float64).eps)


# ----- clustering hyperplanes (Eqs. 1-3, Section II-B) -----

@njit(cache=True, nogil=True, inline="always")
def _null_count(values, tolerance):
    """How many of the ascending eigenvalues ``values`` of a PSD matrix count as zero:
    at most ``tolerance`` times the largest."""
    threshold = tolerance * max(values[values.shape[0] - 1], _TINY)
    count = 0
    for value in values:
        if value <= threshold:
            count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def _column(matrix, j):
    return np.ascontiguousarray(matrix[:, j])


#: Below this size eigenvectors cost about what eigenvalues alone do: no screening.
SMALLEST_SCREENED = 8


@njit(cache=True, nogil=True, inline="always")
def _screen(history, attempt, size):
    """Whether a full-rank attempt (0: in the given coordinates, 1: equilibrated) first
    tests rank by eigenvalues alone: where it has failed at least as often as not at the
    fit's nodes so far (``history``: full-rank and rank-deficient counts, 2 × 2; data
    with collinear columns, such as one-hot encoded attributes, or nodes with few rows
    of a class).  Eigenvalues alone cost about half of a decomposition with vectors."""
    return size >= SMALLEST_SCREENED and history[1, attempt] >= history[0, attempt]


@njit(cache=True, nogil=True, inline="always")
def _decompose_if_full_rank(matrix, tolerance, screen):
    """``(True, values, vectors)`` of a PSD ``matrix`` of full rank at ``tolerance``;
    ``(False, …)`` when rank deficient, found by its eigenvalues alone when ``screen``."""
    if screen and _null_count(np.linalg.eigvalsh(matrix), tolerance):
        return False, np.empty(0), np.empty((0, 0))
    values, vectors = np.linalg.eigh(matrix)
    return _null_count(values, tolerance) == 0, values, vectors


@njit(cache=True, nogil=True, inline="always")
def _full_rank_directions(G, H, tolerance, screen):
    """Section II-A with G and H of full rank: whiten G (``G = F Fᵀ``); the eigenvectors
    of ``Wᵀ H W`` of the largest and the smallest eigenvalue give (unnormalised) ``w̃1``
    and ``w̃2`` of ``H w̃ = λ G w̃`` (Eq. 3).  ``(True, w̃1, w̃2)``, or ``(False, …)``
    when G, or H (the smallest λ ≈ 0), is rank deficient at ``tolerance``
    (``screen``: :func:`_decompose_if_full_rank`)."""
    empty = np.empty(0)
    full_rank, g_values, g_vectors = _decompose_if_full_rank(G, tolerance, screen)
    if not full_rank:
        return False, empty, empty
    whitening = g_vectors / np.sqrt(g_values)
    full_rank, _, m_vectors = _decompose_if_full_rank(whitening.T @ H @ whitening,
                                                      tolerance, screen)
    if not full_rank:
        return False, empty, empty
    size = G.shape[0]
    return (True, whitening @ _column(m_vectors, size - 1),
            whitening @ _column(m_vectors, 0))


@njit(cache=True, nogil=True, inline="always")
def _principal_ratio_direction(numerator, denominator_values, denominator_vectors, nullity):
    """``argmax w̃ᵀNw̃ / w̃ᵀDw̃`` from D's eigendecomposition (ascending) when D has
    ``nullity`` null directions.  ``nullity == 0``: whiten D and take the principal
    eigenvector (Section II-A).  Otherwise (Section II-B) the ratio is unbounded on
    null(D): the principal eigenvector of ``QQᵀ N QQᵀ``, ``Q`` an orthonormal basis of
    null(D)."""
    if nullity > 0:
        basis = np.ascontiguousarray(denominator_vectors[:, :nullity])
    else:
        basis = denominator_vectors / np.sqrt(np.maximum(denominator_values, _TINY))
    vectors = np.linalg.eigh(basis.T @ numerator @ basis)[1]
    return basis @ _column(vectors, vectors.shape[1] - 1)


@njit(cache=True, nogil=True, inline="always")
def _equilibration_moments(diagonal, last_column):
    """The mean and spread of the equilibration from the diagonal and the last column of
    the mixture ``(G + H) / 2``: ``(found, mean, spread)``, ``found`` False when the
    mixture has no weight."""
    size = diagonal.shape[0]
    weight = last_column[size - 1]
    if not weight > 0:
        return False, diagonal[:0], diagonal[:0]
    mean = last_column[:-1] / weight
    second_moment = diagonal[:-1] / weight
    spread = np.sqrt(np.maximum(second_moment - mean * mean, 0.0))
    # E[x²] − E[x]² from summed moments carries a rounding error of some ε·E[x²], i.e. a
    # spread of about 1e-8 of the root mean square for a feature constant at the node:
    # below 1e-6 of it a spread is that noise, and scaling it up would make a direction
    # of no variance look like one of full rank.
    for j in range(size - 1):
        if (spread[j] <= 1e-12 * max(abs(mean[j]), 1.0)
                or spread[j] <= 1e-6 * np.sqrt(second_moment[j])):
            spread[j] = 1.0
    return True, mean, spread


@njit(cache=True, nogil=True, inline="always")
def _equilibration(G, H):
    """``A`` with ``A x̃ = [(x − m) / s, 1]`` for the mean ``m`` and standard deviation
    ``s`` of the equal mixture of the two classes (features with ``s ≈ 0`` only
    centred)."""
    mixture = (G + H) / 2
    size = mixture.shape[0]
    A = np.eye(size)
    found, mean, spread = _equilibration_moments(np.diag(mixture).copy(),
                                                 _column(mixture, size - 1))
    if found:
        for j in range(size - 1):
            A[j, j] = 1.0 / spread[j]
            A[j, size - 1] = -mean[j] / spread[j]
    return A


@njit(cache=True, nogil=True, inline="always")
def _row_span_equilibration(Z, share, basis):
    """The equilibration within the span of the rows ``Z`` (orthonormal ``basis`` U):
    the triangle ``R_A`` of ``A U = U_A R_A``, the mixture's moments from the rows
    weighted by their ``share`` of it."""
    n, size = Z.shape
    diagonal = np.zeros(size)
    for i in range(n):
        for j in range(size):
            diagonal[j] += share[i] * Z[i, j] * Z[i, j]
    found, mean, spread = _equilibration_moments(diagonal, share @ Z)
    in_basis = basis.copy()
    if found:
        for j in range(size - 1):
            for k in range(in_basis.shape[1]):
                in_basis[j, k] -= mean[j] * basis[size - 1, k]
                in_basis[j, k] /= spread[j]
    return np.ascontiguousarray(np.linalg.qr(in_basis)[1])


@njit(cache=True, nogil=True, inline="always")
def _rank_deficient_directions(G, H, A, tolerance, singular, history):
    """The clustering directions where G or H is rank deficient in the given
    coordinates: the full-rank attempt again after the change of coordinates ``A``
    (none when ``singular``), then Section II-B's null-space method.

    Ranks are counted in the equilibrated coordinates.  Where a denominator is rank
    deficient, Section II-B's answer depends on the metric, so it is taken in the given
    coordinates (range(G + H) spanned by its top rank(G + H) eigenvectors, null spaces by
    the bottom eigenvectors); a generalized eigenproblem of full rank is covariant and is
    solved in the better-conditioned equilibrated ones.  Directions in which both G and H
    vanish carry no information, so both problems are solved within range(G + H).
    ``singular``: G or H has fewer rows than its size, neither can be of full rank."""
    G_e = A @ G @ A.T
    H_e = A @ H @ A.T
    if not singular:
        full_rank, w1, w2 = _full_rank_directions(G_e, H_e, tolerance,
                                                  _screen(history, 1, G.shape[0]))
        history[0 if full_rank else 1, 1] += 1
        if full_rank:
            return A.T @ w1, A.T @ w2
    both_values, both_vectors = np.linalg.eigh(G_e + H_e)
    all_vectors = np.linalg.eigh(G + H)[1]
    skip = _null_count(both_values, tolerance)
    basis = np.ascontiguousarray(all_vectors[:, skip:])
    basis_e = np.ascontiguousarray(both_vectors[:, skip:])
    if not singular:
        # both of full rank within range(G + H) (collinear columns, such as one-hot
        # encoded attributes): Section II-A there, in the equilibrated coordinates
        full_rank, w1_e, w2_e = _full_rank_directions(
            basis_e.T @ G_e @ basis_e, basis_e.T @ H_e @ basis_e, tolerance, False)
        if full_rank:
            return (basis @ (basis.T @ (A.T @ (basis_e @ w1_e))),
                    basis @ (basis.T @ (A.T @ (basis_e @ w2_e))))
    w1 = np.empty(0)
    for pair in range(2):
        numerator, denominator = (H, G) if pair == 0 else (G, H)
        numerator_e, denominator_e = (H_e, G_e) if pair == 0 else (G_e, H_e)
        # nullity of the denominator within range(G + H), decided where it is well scaled
        within_e = basis_e.T @ denominator_e @ basis_e
        nullity = _null_count(np.linalg.eigvalsh(within_e), tolerance)
        if nullity > 0:
            d_values, d_vectors = np.linalg.eigh(basis.T @ denominator @ basis)
            w = basis @ _principal_ratio_direction(basis.T @ numerator @ basis, d_values,
                                                   d_vectors, nullity)
        else:  # of full rank: whitened in the equilibrated coordinates
            e_values, e_vectors = np.linalg.eigh(within_e)
            w_e = basis_e @ _principal_ratio_direction(basis_e.T @ numerator_e @ basis_e,
                                                       e_values, e_vectors, 0)
            w = basis @ (basis.T @ (A.T @ w_e))  # back, within range(G + H)
        if pair == 0:
            w1 = w
        else:
            return w1, w
    return w1, w1  # not reached


@njit(cache=True, nogil=True, inline="always")
def _clustering_directions(G, H, A, singular, history):
    """``w̃1`` (minimises ``w̃ᵀGw̃ / w̃ᵀHw̃``: the eigenvector of the largest ``λ`` of
    ``H w̃ = λ G w̃``) and ``w̃2`` (the smallest ``λ``), unnormalised (Eqs. 1-3).

    Clearly of full rank (relative smallest eigenvalues above :data:`WELL_CONDITIONED`,
    the usual case at large nodes): directly.  Otherwise rank is decided after the
    invertible change of coordinates ``A`` (``x̃' = A x̃``, centring and scaling the
    features by the mean and spread of the two classes together; ``A`` empty: made
    from G and H): the solutions are covariant (``w̃ = Aᵀ w̃'``), so the hyperplanes do
    not depend on it, but a relative rank test then does not depend on feature units.
    ``singular``: G or H is known to be singular (fewer rows than its size), no
    full-rank attempt.  ``history``: the fit's counts of full-rank attempts that found
    G and H of full rank (row 0) and not (row 1), in the given coordinates (column 0) and
    equilibrated (column 1), updated (:func:`_screen`)."""
    if not singular:
        full_rank, w1, w2 = _full_rank_directions(G, H, WELL_CONDITIONED,
                                                  _screen(history, 0, G.shape[0]))
        history[0 if full_rank else 1, 0] += 1
        if full_rank:
            return w1, w2
    if A.shape[0] == 0:
        A = _equilibration(G, H)
    return _rank_deficient_directions(G, H, A, RANK_TOLERANCE, singular, history)


@njit(cache=True, nogil=True, inline="always")
def _unit_normal(w):
    """``(w / ‖w[:-1]‖, True)``; ``(w, False)`` when ``w`` has no non-bias part."""
    head = np.ascontiguousarray(w[:-1])
    norm = np.sqrt(np.dot(head, head))
    if norm <= 1e-12 * np.sqrt(np.dot(w, w)):
        return w, False
    return w / norm, True


@njit(cache=True, nogil=True)
def clustering_hyperplanes(G, H):
    """The two clustering hyperplanes ``w̃1``, ``w̃2`` of Eqs. (1)-(3) of the matrices
    ``G`` and ``H`` (Section II-A), rank-deficient ones by the null-space method of
    Section II-B, each scaled to a unit non-bias part: ``(w̃1, found1, w̃2, found2)``
    (``found`` False: no non-bias part)."""
    w1, w2 = _clustering_directions(G, H, np.empty((0, 0)), False,
                                    np.zeros((2, 2), dtype=np.int64))
    w1, found1 = _unit_normal(w1)
    w2, found2 = _unit_normal(w2)
    return w1, found1, w2, found2


@njit(cache=True, nogil=True, inline="always")
def _scatter_matrices(Z, positive, weights):
    """``Σ_{S+} w_i z̃_i z̃_iᵀ`` and ``Σ_{S−} w_i z̃_i z̃_iᵀ`` (``G`` and ``H`` before the
    division by the classes' weights, Section II-A) of the rows ``Z``."""
    weighted = Z * weights.reshape(-1, 1)
    negative = ~positive
    G = np.ascontiguousarray(weighted[positive]).T @ np.ascontiguousarray(Z[positive])
    H = np.ascontiguousarray(weighted[negative]).T @ np.ascontiguousarray(Z[negative])
    return G, H


@njit(cache=True, nogil=True, inline="always")
def _singular_by_rows(positive, weights, size):
    """Whether G or H has fewer rows of positive weight than its ``size``: then it is
    singular (``rank(G) ≤`` the rows of S+, ``rank(H) ≤`` those of S−), and the
    full-rank attempts, which could only find it so, are not made."""
    rows_positive, rows = 0, 0
    for i in range(positive.shape[0]):
        if weights[i] > 0:
            rows += 1
            if positive[i]:
                rows_positive += 1
    return min(rows_positive, rows - rows_positive) < size


@njit(cache=True, nogil=True, inline="always")
def node_hyperplanes(Z, positive, weights, n_positive, n_negative, in_row_span, history):
    """The clustering hyperplanes (as :func:`clustering_hyperplanes`) of a node's
    augmented rows ``Z`` (S+ the rows in ``positive``; row weights ``weights`` summing to
    ``n_positive`` on S+ and ``n_negative`` on S−): ``G = Σ_{S+} w_i z̃_i z̃_iᵀ / n+``,
    ``H`` the same over S− (Section II-A).

    ``in_row_span`` (the node takes it with fewer rows than columns): G and H vanish
    outside the span of the rows, so everything is computed within it.  The span gets an
    orthonormal basis ``U`` (the right singular vectors of ``Z`` whose singular values
    are not rounding noise), the rows' coordinates are ``Z U``, G and H become r × r
    (r ≤ n) and the change of coordinates of the rank tests becomes its part within the
    span, the triangle ``R_A`` of ``A U = U_A R_A``.  An orthonormal basis keeps lengths
    and angles, so every step (ranks, null spaces, ratios) is that of the dense problem
    and ``w̃ = U w̃_U``: the same hyperplanes up to rounding, at O(n² d) time and O(n d)
    memory instead of O((d+1)³) and O((d+1)²).  ``history``: the fit's rank history
    (:func:`_clustering_directions`)."""
    if in_row_span:
        _, singular_values, right = np.linalg.svd(Z, full_matrices=False)
        keep = singular_values > (singular_values[0] * max(Z.shape[0], Z.shape[1])
                                  * _EPSILON)
        basis = np.ascontiguousarray(np.ascontiguousarray(right[keep]).T)
        G, H = _scatter_matrices(Z @ basis, positive, weights)
    else:
        basis = np.empty((Z.shape[1], 0))
        G, H = _scatter_matrices(Z, positive, weights)
    G /= n_positive
    H /= n_negative
    singular = _singular_by_rows(positive, weights, G.shape[0])
    if in_row_span:  # the change of coordinates of the rank tests, within the span
        A = _row_span_equilibration(Z, _shares(positive, weights, n_positive, n_negative),
                                    basis)
    else:  # made from G and H where needed
        A = np.empty((0, 0))
    w1, w2 = _clustering_directions(G, H, A, singular, history)
    if in_row_span:
        w1, w2 = basis @ w1, basis @ w2
    w1, found1 = _unit_normal(w1)
    w2, found2 = _unit_normal(w2)
    return w1, found1, w2, found2


@njit(cache=True, nogil=True, inline="always")
def _shares(positive, weights, n_positive, n_negative):
    """Each row's share of the equal mixture ``(G + H) / 2``."""
    share = np.empty(positive.shape[0])
    for i in range(positive.shape[0]):
        share[i] = weights[i] * 0.5 / (n_positive if positive[i] else n_negative)
    return share


# ----- the split: angle bisectors (Eqs. 4-5) and the Gini index (Eq. 6) -----

@njit(cache=True, nogil=True, inline="always")
def angle_bisectors(w1, w2):
    """The angle bisectors ``w̃1 + w̃2`` and ``w̃1 − w̃2`` (Eqs. 4-5) of unit-normal
    hyperplanes, as the rows of an array, the signs aligned first (``w1·w2 ≥ 0``).  When
    the two are parallel only ``w̃1 + w̃2`` remains: the hyperplane midway between them."""
    size = w1.shape[0]
    dot = 0.0
    for j in range(size - 1):
        dot += w1[j] * w2[j]
    sign = -1.0 if dot < 0 else 1.0
    bisectors = np.empty((2, size))
    spread = 0.0
    for j in range(size):
        bisectors[0, j] = w1[j] + sign * w2[j]
        bisectors[1, j] = w1[j] - sign * w2[j]
        if j < size - 1:
            spread += bisectors[1, j] ** 2
    return bisectors if spread > 1e-16 else bisectors[:1].copy()


@njit(cache=True, nogil=True, inline="always")
def binary_gini(values, positive, weights, slack):
    """The weighted Gini index (Eq. 6) of S+ (``positive``) against S− of each candidate
    split, a column of ``values`` (``z̃·w̃`` of every row; at least ``-slack`` goes right),
    and how many rows go right.  (A candidate with an empty side gets the node's own
    Gini.)"""
    n, m = values.shape
    right = np.zeros((2, m))      # weight of S+ and S− on the right of each candidate
    n_right = np.zeros(m, dtype=np.int64)
    total_positive, total_negative = 0.0, 0.0
    for r in range(n):
        positive_weight = weights[r] if positive[r] else 0.0
        negative_weight = weights[r] - positive_weight
        total_positive += positive_weight
        total_negative += negative_weight
        for i in range(m):
            if values[r, i] >= -slack:
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
    return gini, n_right


@njit(cache=True, nogil=True, inline="always")
def best_bisector(Z, positive, weights, w1, w2, both, largest_row_norm):
    """Of the angle bisectors of the clustering hyperplanes ``w1`` and ``w2`` (only
    ``w1`` when ``both`` is False) the one of lower Gini index on the node's augmented
    rows ``Z`` that sends rows to both sides; the other when it does not: ``(w̃, True)``,
    or ``(…, False)`` when neither does.

    Each candidate's largest coefficient is made positive (an eigenvector's sign is
    LAPACK's choice, and the side that rows on the plane join must not depend on it).  A
    bisector can pass through rows (duplicates, symmetric or lattice data); the side
    such a row is computed on would depend on rounding, so rows within rounding of the
    plane count as on it, i.e. right, and a chosen plane through rows is moved midway
    between the nearest rows of the two sides."""
    n, size = Z.shape
    if both:
        candidates = angle_bisectors(w1, w2)
        # the non-bias parts are unit vectors: ‖w̃1 ± w̃2‖ ≤ ‖w̃1‖ + ‖w̃2‖
        norm_bound = np.sqrt(1.0 + w1[size - 1] ** 2) + np.sqrt(1.0 + w2[size - 1] ** 2)
    else:
        candidates = w1.copy().reshape(1, size)
        norm_bound = np.sqrt(1.0 + w1[size - 1] ** 2)
    m = candidates.shape[0]
    for i in range(m):
        largest = 0
        for j in range(1, size - 1):
            if abs(candidates[i, j]) > abs(candidates[i, largest]):
                largest = j
        if candidates[i, largest] < 0:
            for j in range(size):
                candidates[i, j] = -candidates[i, j]
    slack = 1e-9 * largest_row_norm * norm_bound
    values = Z @ np.ascontiguousarray(candidates.T)
    gini, n_right = binary_gini(values, positive, weights, slack)
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
        if closest <= slack:
            w[size - 1] -= (largest_left + smallest_right) / 2
        return w, True
    return candidates[0].copy(), False


# ----- a node -----

@njit(cache=True, nogil=True)
def gdt_node(augmented, y, sample_weight, rows, columns, majority, largest_row_norm,
             mean, scale, zero_columns, history):
    """A GDT node's split (Algorithm 2, one node) over the fit's standardised, augmented
    rows ``augmented``: the node's ``rows`` and ``columns`` (the last one the bias
    column), S+ the rows of class ``majority``, S− all others;
    :func:`node_hyperplanes` (in the span of the rows when they are fewer than the
    columns) and :func:`best_bisector`; the split in raw units
    (:func:`raw_hyperplane`, the standardisation's ``mean``, ``scale`` and
    ``zero_columns``; features not in ``columns`` get weight 0).  ``history``: the fit's
    rank history, 2 × 2 (:func:`_clustering_directions`), updated.

    Returns ``(found, raw_weights, raw_bias)``, ``found`` False when no bisector sends
    rows to both sides."""
    n, size = rows.shape[0], columns.shape[0]
    Z = np.empty((n, size))
    positive = np.empty(n, dtype=np.bool_)
    weights = np.empty(n)
    n_positive, n_negative = 0.0, 0.0
    for i in range(n):
        row = rows[i]
        for j in range(size):
            Z[i, j] = augmented[row, columns[j]]
        positive[i] = y[row] == majority
        weights[i] = sample_weight[row]
        if positive[i]:
            n_positive += weights[i]
        else:
            n_negative += weights[i]
    empty = np.empty(0)
    w1, found1, w2, found2 = node_hyperplanes(Z, positive, weights, n_positive,
                                              n_negative, n < size, history)
    if not (found1 or found2):
        return False, empty, 0.0
    w, found = best_bisector(Z, positive, weights, w1 if found1 else w2,
                             w2 if found2 else w1, found1 and found2, largest_row_norm)
    if not found:
        return False, empty, 0.0
    full = np.zeros(augmented.shape[1])
    for j in range(size):
        full[columns[j]] = w[j]
    raw_weights, raw_bias = raw_hyperplane(full, mean, scale, zero_columns)
    return True, raw_weights, raw_bias


@njit(cache=True, nogil=True, inline="always")
def raw_hyperplane(w, mean, scale, zero_columns):
    """The hyperplane ``w̃`` over the standardised features ``(x − mean) / scale`` in raw
    units, ``(weights, bias)`` with a unit normal whose largest coefficient is positive
    (an eigenvector's sign is LAPACK's choice; fixing it makes trees reproducible across
    builds).  Zero columns get weight 0 (their weight is rounding noise)."""
    weights = w[:-1] / scale
    for j in range(weights.shape[0]):
        if zero_columns[j]:
            weights[j] = 0.0
    bias = w[w.shape[0] - 1] - np.dot(weights, mean)
    norm = np.sqrt(np.dot(weights, weights)) * np.sign(weights[np.argmax(np.abs(weights))])
    return weights / norm, bias / norm
