"""Geometric Decision Tree (Manwani & Sastry, "Geometric Decision Tree", 2010/2012).

At each node the rows of the majority class (``S+``) and all other rows (``S−``) define the
matrices ``G`` and ``H`` (Section II-A); the two clustering hyperplanes solve the generalized
eigenvalue problem ``H w̃ = λ G w̃`` (Eq. 3); the split is the angle bisector of the two
(Eqs. 4-5) with the lower Gini index (Eq. 6).  Rank-deficient ``G`` or ``H`` are handled by
the null-space method of Section II-B -- at a node with fewer rows than features, within
the span of its rows (:func:`.kernels.node_hyperplanes`); more than two classes by
majority-vs-rest (Algorithm 2).
"""
from numbers import Real

import numpy as np
from sklearn.base import clone

from . import kernels
from ..base import ObliqueTreeClassifierMixin
from ..preprocessing import Standardisation
from ..tree.sparse import limit_terms
from ..tree.structure import MANY_CLASSES, Split, grow_tree
from ..parameters import (BOOLEAN, MAX_DEPTH, MAX_TERMS, MIN_SAMPLES_LEAF, MIN_SAMPLES_SPLIT,
                          PRUNING_PORTION, SE_RULE, SEED, Interval, Options, Parameter)

#: ``epsilon1="auto"``: the values of ε1 tried, the paper's range 0.1-0.2 (Section IV).
AUTO_EPSILON1 = (0.10, 0.125, 0.15, 0.175, 0.20)
#: ``epsilon1="auto"``: folds of the stratified inner cross-validation.
AUTO_FOLDS = 5


def clustering_hyperplanes(G, H):
    """The two clustering hyperplanes ``w̃1``, ``w̃2`` of Eqs. (1)-(3) of the symmetric PSD
    matrices ``G`` and ``H`` (Section II-A): ``w̃1`` minimises ``w̃ᵀGw̃ / w̃ᵀHw̃`` (the
    eigenvector of the largest ``λ`` of ``H w̃ = λ G w̃``), ``w̃2`` maximises it.
    Rank-deficient ones by the null-space method of Section II-B, within the range of
    ``G + H``; ranks decided relative to the largest eigenvalue, after centring and
    scaling the features by the two classes' mean and spread
    (:func:`.kernels.clustering_hyperplanes`).  Each is scaled to a unit non-bias part;
    ``None`` when it has none."""
    w1, found1, w2, found2 = kernels.clustering_hyperplanes(
        np.ascontiguousarray(G, dtype=float), np.ascontiguousarray(H, dtype=float))
    return (w1 if found1 else None), (w2 if found2 else None)


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
    """Proposes the GDT split of a node (Algorithm 2, one node): one call of
    :func:`.kernels.gdt_node`.

    Works on the standardised, augmented rows ``[z, 1]`` (``z`` is ``x`` transformed by
    ``standardisation``, a :class:`~.preprocessing.Standardisation`); returns the chosen
    bisector as a :class:`Split` in raw units.
    """

    def __init__(self, augmented, y, sample_weight, standardisation):
        self.augmented = np.ascontiguousarray(augmented, dtype=float)
        self.y = np.ascontiguousarray(y)
        self.sample_weight = np.ascontiguousarray(sample_weight, dtype=float)
        #: Its zero columns (constant features, standardised) have rounding noise as their
        #: weight in an eigenvector, which is dropped.
        self.standardisation = standardisation
        #: Largest ‖[z, 1]‖ of a row, for the rounding slack of ``z·w`` (≤ ‖z‖·‖w‖).
        self.largest_row_norm = float(np.sqrt(np.einsum("ij,ij->i", augmented,
                                                        augmented).max(initial=1.0)))
        self.all_columns = np.arange(augmented.shape[1])
        #: How often the full-rank attempts at the fit's nodes so far found G and H of full
        #: rank and not (:func:`.kernels._clustering_directions`).
        self.rank_history = np.zeros((2, 2), dtype=np.int64)

    def __call__(self, rows, counts, depth, features=None):
        """The split of the node of ``rows``; with ``features``, a split over those
        features only (the others get weight 0).  ``None`` when no bisector sends rows to
        both sides, or when LAPACK fails at the node (it is then a leaf)."""
        columns = self.all_columns if features is None else np.append(
            np.asarray(features, dtype=self.all_columns.dtype), self.all_columns[-1])
        standardisation = self.standardisation
        try:
            found, weights, bias = kernels.gdt_node(
                self.augmented, self.y, self.sample_weight, np.asarray(rows), columns,
                int(np.argmax(counts)), self.largest_row_norm, standardisation.mean,
                standardisation.scale, standardisation.zero_columns, self.rank_history)
        except np.linalg.LinAlgError:
            return None
        return Split.hyperplane(weights, bias) if found else None


class GeometricTreeClassifier(ObliqueTreeClassifierMixin):
    """Geometric Decision Tree (Manwani & Sastry), a scikit-learn classifier.

    Parameters
    ----------
    epsilon1
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
    epsilon2
        A child whose majority-class fraction reaches ε2 is a leaf (Algorithm 2); None:
        1 − ε1.
    max_depth
    min_samples_split
        A node with fewer rows is a leaf.
    min_samples_leaf
        A node whose chosen split leaves a child fewer rows is a leaf (the paper has no
        such rule: 1; Orange's Tree widget uses 2).
    standardize
        Standardise features (weighted mean 0, variance 1) before finding hyperplanes; the
        paper is silent, and the bisectors depend on scaling.  Hyperplanes are always
        stored and printed in raw units.
    pruning_portion
        Share of the training rows held out to prune the grown tree by cost-complexity
        pruning (the shared OC1 procedure); 0 (the paper's GDT) grows without pruning.
    se_rule
        k of the k-SE rule when choosing the pruned tree.
    random_state
        Only used to draw the held-out rows when ``pruning_portion > 0``.
    max_terms
        At most this many attributes with a non-zero weight in any split, found by
        backward elimination from the chosen angle bisector, its threshold re-optimised by the Gini index (:mod:`~orangecontrib.oblique.core.tree.sparse`,
        after CART's linear-combination splits, Breiman et al. 1984, §5.2): a readable
        split.  None keeps the paper's dense split.  At least the number of
        features: no limit, as None.

    Attributes
    ----------
    tree_ : ObliqueTree
    classes_ : ndarray
    """

    _parameter_constraints = {
        "epsilon1": Parameter(0.1, Interval(Real, 0, 1, closed="left"), Options("auto")),
        "epsilon2": Parameter(None, Interval(Real, 0, 1, closed="right"), None),
        "max_depth": MAX_DEPTH.replace(default=20),
        "min_samples_split": MIN_SAMPLES_SPLIT,
        "standardize": Parameter(True, BOOLEAN),
        "pruning_portion": PRUNING_PORTION,
        "se_rule": SE_RULE,
        "random_state": SEED,
        "max_terms": MAX_TERMS,
        "min_samples_leaf": MIN_SAMPLES_LEAF,
    }

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
        if self.min_samples_leaf > 1:
            propose_split = _leaf_size_rule(propose_split, X, self.min_samples_leaf)

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
                         progress_callback,
                         compact_counts=len(self.classes_) >= MANY_CLASSES)


def _leaf_size_rule(propose_split, X, min_samples_leaf):
    """``propose_split`` that makes a node a leaf when its split would leave a child
    fewer than ``min_samples_leaf`` rows (counted as rows, not weights)."""
    def propose(rows, counts, depth):
        split = propose_split(rows, counts, depth)
        if split is not None:
            sizes = np.bincount(split.route(X[rows]), minlength=split.n_children)
            if sizes.min() < min_samples_leaf:
                return None
        return split
    return propose
