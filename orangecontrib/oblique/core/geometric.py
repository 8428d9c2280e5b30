"""Geometric Decision Tree (Manwani & Sastry, "Geometric Decision Tree", 2010/2012).

At each node the rows of the majority class (``S+``) and all other rows (``S−``) define the
matrices ``G`` and ``H`` (Section II-A); the two clustering hyperplanes solve the generalized
eigenvalue problem ``H w̃ = λ G w̃`` (Eq. 3); the split is the angle bisector of the two
(Eqs. 4-5) with the lower Gini index (Eq. 6).  Rank-deficient ``G`` or ``H`` are handled by
the null-space method of Section II-B; more than two classes by majority-vs-rest
(Algorithm 2).
"""
import numbers

import numpy as np
from scipy.linalg.lapack import dsyev as _dsyev

from .base import ObliqueTreeClassifierMixin
from .impurity import MEASURES, evaluate_class_major
from .tree import Split, grow_tree

#: A direction is in the null space of a PSD matrix when its eigenvalue is below this
#: fraction of the largest one (Section II-B needs a rank test; never compare with 0).
RANK_TOLERANCE = 1e-9
_TINY = float(np.finfo(float).tiny)


def _is_null(eigenvalues, tolerance):
    """Mask of the eigenvalues (ascending) that count as zero."""
    return eigenvalues <= tolerance * max(eigenvalues[-1], _TINY)


def _symmetric_eigen(matrix):
    """Eigenvalues (ascending) and eigenvectors of a small symmetric matrix.

    LAPACK's ``dsyev`` directly: for the (d+1)×(d+1) matrices of a node, numpy's ``eigh``
    costs several times more in call overhead than in arithmetic.
    """
    values, vectors, info = _dsyev(matrix)
    if info != 0:
        return np.linalg.eigh(matrix)
    return values, vectors


def _maximise_ratios(numerators, denominators, tolerance):
    """:func:`maximise_ratio` for several pairs of matrices."""
    directions = []
    for numerator, denominator in zip(numerators, denominators):
        eigenvalues, eigenvectors = _symmetric_eigen(denominator)
        null = _is_null(eigenvalues, tolerance)
        if null.any():  # Section II-B: restrict to null(D), where the ratio is unbounded
            basis = eigenvectors[:, null]
        else:  # Section II-A: whiten D (D = F Fᵀ) and solve a symmetric eigenproblem
            basis = eigenvectors / np.sqrt(eigenvalues)
        principal = _symmetric_eigen(basis.T @ numerator @ basis)[1][:, -1]
        directions.append(basis @ principal)
    return directions


def maximise_ratio(numerator, denominator, tolerance=RANK_TOLERANCE):
    """``argmax w̃ᵀ N w̃ / w̃ᵀ D w̃`` for symmetric PSD ``N`` and ``D`` with ``N + D`` > 0.

    With ``D`` of full rank this is the eigenvector of the largest eigenvalue of
    ``N w̃ = λ D w̃``, computed as in Section II-A by whitening ``D``.  With ``D`` rank
    deficient (Section II-B) the ratio is unbounded on null(``D``): with ``Q`` an orthonormal
    basis of null(``D``) the answer is the principal eigenvector of ``QQᵀ N QQᵀ``.
    """
    return _maximise_ratios([numerator], [denominator], tolerance)[0]


def clustering_hyperplanes(G, H, tolerance=RANK_TOLERANCE):
    """The two clustering hyperplanes ``w̃1``, ``w̃2`` of Eqs. (1)-(3).

    ``w̃1`` minimises ``w̃ᵀGw̃ / w̃ᵀHw̃`` (close to S+, far from S−): the eigenvector of the
    largest ``λ`` of ``H w̃ = λ G w̃``; ``w̃2`` the one of the smallest ``λ``, i.e. the
    maximiser of ``w̃ᵀGw̃ / w̃ᵀHw̃``.  A rank-deficient ``G`` (or ``H``) is handled by the
    null-space method of Section II-B (:func:`maximise_ratio`), for each hyperplane
    symmetrically.  Directions in which both ``G`` and ``H`` vanish (fewer rows than
    features, a feature constant at the node, collinear features) carry no information, so
    both problems are solved within the range of ``G + H``.  Each hyperplane is scaled so
    that its non-bias part has unit norm; ``None`` when it has no non-bias part.
    """
    eigenvalues, eigenvectors = _symmetric_eigen(G + H)
    informative = ~_is_null(eigenvalues, tolerance)
    basis = None
    if not informative.all():
        basis = eigenvectors[:, informative]
        G, H = basis.T @ G @ basis, basis.T @ H @ basis
    w1, w2 = _maximise_ratios([H, G], [G, H], tolerance)
    if basis is not None:
        w1, w2 = basis @ w1, basis @ w2
    return _unit_normal(w1), _unit_normal(w2)


def _unit_normal(w):
    norm = np.sqrt(w[:-1] @ w[:-1])
    if norm <= 1e-12 * np.sqrt(w @ w):
        return None
    return w / norm


def angle_bisectors(w1, w2):
    """Angle bisectors ``w̃1 + w̃2`` and ``w̃1 − w̃2`` (Eqs. 4-5) of unit-normal hyperplanes.

    The signs are aligned first (``w1·w2 >= 0``).  When the two hyperplanes are parallel
    only ``w̃1 + w̃2`` remains: the hyperplane midway between them.
    """
    if w2[:-1] @ w1[:-1] < 0:
        w2 = -w2
    bisectors = [w1 + w2]
    difference = w1 - w2
    if np.linalg.norm(difference[:-1]) > 1e-8:
        bisectors.append(difference)
    return bisectors


def binary_gini(goes_right, positive, weights):
    """Weighted Gini index of Eq. (6) for each candidate split (columns of ``goes_right``),
    S+ (``positive``) against S−, from the shared impurity module (OC1's Gini is the same
    formula).  A candidate with an empty side scores ``inf``: it separates nothing."""
    by_class = np.stack([weights * positive, weights * ~positive])     # (2, n rows)
    left = by_class @ (1.0 - goes_right)                               # (2, candidates)
    return evaluate_class_major(MEASURES["gini"], left, by_class.sum(axis=1))


class GeometricSplitter:
    """Proposes the GDT split of a node (Algorithm 2, one node).

    Works on the standardised, augmented rows ``[z, 1]``; returns the chosen bisector as a
    :class:`Split` in raw units (``z = (x − mean) / scale``).
    """

    def __init__(self, augmented, y, sample_weight, mean, scale):
        self.augmented = augmented
        self.y = y
        self.sample_weight = sample_weight
        self.mean = mean
        self.scale = scale

    def __call__(self, rows, counts, depth):
        Z, weights = self.augmented[rows], self.sample_weight[rows]
        positive = self.y[rows] == np.argmax(counts)
        weighted = Z * weights[:, None]
        G = weighted[positive].T @ Z[positive]
        H = weighted.T @ Z - G
        n_positive = counts.max()
        w1, w2 = clustering_hyperplanes(G / n_positive, H / (counts.sum() - n_positive))
        valid = [w for w in (w1, w2) if w is not None]
        if not valid:
            return None
        candidates = np.array(angle_bisectors(*valid) if len(valid) == 2 else valid)
        goes_right = (Z @ candidates.T >= 0).astype(float)
        gini = binary_gini(goes_right, positive, weights)
        for best in np.argsort(gini, kind="stable"):
            n_right = goes_right[:, best].sum()
            if 0 < n_right < len(rows):
                return self.to_raw_units(candidates[best])
        return None

    def to_raw_units(self, w):
        """The hyperplane ``w̃`` over standardised features as a unit-normal raw split."""
        weights = w[:-1] / self.scale
        bias = w[-1] - weights @ self.mean
        norm = np.sqrt(weights @ weights)
        return Split.hyperplane(weights / norm, bias / norm)


class GeometricTreeClassifier(ObliqueTreeClassifierMixin):
    """Geometric Decision Tree (Manwani & Sastry), a scikit-learn classifier.

    Parameters
    ----------
    epsilon1 : float, default 0.1
        Minority-fraction threshold ε1 (Algorithm 2): a child whose fraction of rows not in
        the parent's majority class is below ε1, with that class still the majority, is a
        leaf.  The paper advises 0.1-0.2.
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

    Attributes
    ----------
    tree_ : ObliqueTree
    classes_ : ndarray
    """

    def __init__(self, epsilon1=0.1, epsilon2=None, max_depth=20, min_samples_split=2,
                 standardize=True, pruning_portion=0.0, se_rule=0.0, random_state=None):
        self.epsilon1 = epsilon1
        self.epsilon2 = epsilon2
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.standardize = standardize
        self.pruning_portion = pruning_portion
        self.se_rule = se_rule
        self.random_state = random_state

    def _validate_parameters(self):
        super()._validate_parameters()
        if not isinstance(self.epsilon1, numbers.Real) or not 0 <= self.epsilon1 < 1:
            raise ValueError(f"epsilon1 must be in [0, 1), got {self.epsilon1!r}")
        if self.epsilon2 is not None and (not isinstance(self.epsilon2, numbers.Real)
                                          or not 0 < self.epsilon2 <= 1):
            raise ValueError(f"epsilon2 must be in (0, 1] or None, got {self.epsilon2!r}")

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback):
        return self._grow_and_prune(
            X, y, sample_weight, random_state,
            lambda X, y, w: self._grow(X, y, w, progress_callback))

    def _grow(self, X, y, sample_weight, progress_callback):
        n_features = X.shape[1]
        if self.standardize:
            mean = np.average(X, axis=0, weights=sample_weight)
            scale = np.sqrt(np.average((X - mean) ** 2, axis=0, weights=sample_weight))
            scale[scale <= 1e-12 * np.maximum(np.abs(mean), 1)] = 1.0
        else:
            mean, scale = np.zeros(n_features), np.ones(n_features)
        augmented = np.hstack([(X - mean) / scale, np.ones((X.shape[0], 1))])
        epsilon1 = self.epsilon1
        epsilon2 = 1 - epsilon1 if self.epsilon2 is None else self.epsilon2
        propose_split = GeometricSplitter(augmented, y, sample_weight, mean, scale)

        def should_stop(counts, parent_counts, depth):
            """Algorithm 2: η1 < ε1 with the parent's majority still dominant, or
            η2 >= ε2."""
            n = counts.sum()
            reference = np.argmax(counts if parent_counts is None else parent_counts)
            n_plus = counts[reference]
            n_minus = n - n_plus
            if min(n_plus, n_minus) / n < epsilon1 and n_plus > n_minus:
                return True
            return counts.max() / n >= epsilon2

        return grow_tree(X, y, sample_weight, len(self.classes_), propose_split,
                         should_stop, self.max_depth, self.min_samples_split,
                         progress_callback)
