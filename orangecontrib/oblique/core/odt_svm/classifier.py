"""ODT-SVM (Menkovski, Christou & Efremidis, "Oblique Decision Trees using embedded Support
Vector Machines in classifier ensembles", 2008): a C4.5 (J48) tree whose candidate tests at
a node are (Fig. 2 and Section II-C)

* for every nominal attribute: C4.5's test, one branch per value (J48's ``C45Split``; the
  paper's J48-SVM-ODT changes only J48's model selection, Section IV, and equals J48 on
  every all-nominal set of its Table I); ``x_k = a`` against the rest is the option
  ``nominal_tests="binary"`` (the pseudocode's reading, Fig. 2, step 2.1);
* J48's threshold tests ``x_k ≤ t`` on single continuous attributes, ``t`` the largest
  training value not above the best cut's midpoint (``axis_parallel_tests``);
* a linear SVM trained on the node's rows projected on the continuous attributes: one
  hyperplane and two children for two classes; for K classes, as WEKA's SMO, K(K−1)/2
  pairwise SVMs and one child per class by pairwise votes (``multiclass``; one-vs-rest
  is the option); the hinge-loss SVM of :mod:`.linear_svm`;
* the SVM clustering split: X-means (at most 4 clusters, WEKA's default) groups the rows
  by their signed distances to the SVM hyperplane(s); one child per cluster, a row going
  to the nearest cluster centre.

The test of highest MDL-corrected information gain wins (the paper's rule, Fig. 2, step
2.5; ``test_selection="gain_ratio"`` is J48's: among the valid tests whose (MDL-corrected)
information gain is at least the average gain of all valid tests minus 10⁻³, the one of
highest gain ratio).  The MDL correction subtracts the coding cost of the test, in bits per
training row, from its gain (Section II-C-3):

=================  =========================================================================
test               cost in bits (``N`` rows at the node)
=================  =========================================================================
nominal            none (J48)
``x_k ≤ t``        ``log2 c`` for the attribute's ``c`` admissible cut points (J48)
SVM split          ``log2(m + 1) + log2 C(m, a)`` -- which ``a`` of the ``m`` continuous
                   attributes have a non-zero weight in any hyperplane, coded as a subset
                   (Quinlan & Rivest 1989); ``svm_cost="indices"``: ``a · log2 m``
clustering split   the SVM split's cost ``+ log2(k_max − 1) + k · L · ½ log2 N`` -- which
                   number of clusters, and ``k`` centres of ``L`` coordinates at Rissanen's
                   ``½ log2 N`` bits per real parameter
``x_k = a``        ``log2 m`` (``m`` all attributes; the binary option)
=================  =========================================================================

so ``corrected gain = gain − cost / N`` and ``gain ratio = corrected gain / split info``.
As in J48, a test on continuous attributes whose corrected gain is not positive is not
valid, a nominal test is valid when two branches keep ``min_samples_leaf`` rows, and a cut
point is admissible when both sides keep at least
``max(min(0.1 · N / K, 25), min_samples_leaf)`` rows (``K`` classes).  Missing values (NaN)
are C4.5's: a test is scored on its rows of known value (their gain times their share, the
unknown rows one more branch of the split information) and a row of unknown value goes
down every branch with the branch's share of its weight, when growing, pruning and
predicting.  Growing stops as in J48 (pure node, fewer than ``2 · min_samples_leaf`` rows,
no valid test); the tree is then collapsed as J48 does and pruned by C4.5's error-based
pruning with confidence ``CF``.
"""
import collections
import functools
from numbers import Integral, Real
import warnings

import numpy as np
from numba import njit
from scipy.special import gammaln

from ..base import ObliqueTreeClassifierMixin
from ..tree.impurity import entropy
from .linear_svm import RANKING_TOLERANCE, TOLERANCE, DualStart, linear_svm
from ..preprocessing import Standardisation
from ..tree.pruning import collapse, error_based_prune
from ..tree.sparse import effective_max_terms, eliminate_terms
from ..tree.splits import (ARGMAX, HYPERPLANE, NEAREST_CENTRE, PAIRWISE_VOTE, Split,
                           pairwise_pairs, pairwise_votes)
from ..tree.structure import GrowthWarning, grow_tree
from ..validation import seen_codes
from ..parameters import (BOOLEAN, INDICES, MAX_DEPTH, MAX_TERMS, MIN_SAMPLES_LEAF, SEED,
                          Interval, Options, Parameter)
from .xmeans import XMeans

_TINY = float(np.finfo(float).tiny)
#: How a node's test is chosen (see :class:`ODTSVMClassifier`): the paper's, J48's.
TEST_SELECTIONS = ("gain", "gain_ratio")
#: A nominal attribute's test (see :class:`ODTSVMClassifier`): C4.5's, the pseudocode's.
NOMINAL_TESTS = ("multiway", "binary")
#: The code of the attributes an SVM split uses (:meth:`ODTSVMSplitter.attribute_code_lengths`).
SVM_COSTS = ("subset", "indices")
#: The SVM split of a node of K > 2 classes: WEKA's SMO (the paper's), one-vs-rest.
MULTICLASS = ("pairwise", "one_vs_rest")
#: Most classes at a node whose SVM split is pairwise (``multiclass="pairwise"``): 1,225
#: SVMs.  A node of more classes gets the one-vs-rest split (K SVMs): K(K−1)/2 pairwise
#: SVMs, their map of as many rows to route and the clustering split over as many
#: decision values grow as K² (2,000 classes: 1,999,000 SVMs), and a pair of such a node
#: has few rows (K classes of 3 rows: SVMs of 6 rows).
MAX_PAIRWISE_CLASSES = 50


def gain_and_split_info(branch_counts):
    """Information gain and split information of a test (Quinlan 1993, ch. 2).

    ``branch_counts`` (..., branches, K) holds the class counts of every branch; leading
    axes index candidate tests.  Returns ``(gain, split_info)`` in bits per row.
    """
    branch_counts = np.asarray(branch_counts, dtype=float)
    total = branch_counts.sum(axis=-2)
    n = np.maximum(total.sum(axis=-1), _TINY)
    sizes = branch_counts.sum(axis=-1)
    remainder = (sizes * entropy(branch_counts, axis=-1)).sum(axis=-1) / n
    return entropy(total, axis=-1) - remainder, entropy(sizes, axis=-1)


def gain_with_unknown(branch_counts, total):
    """C4.5's gain and split information of a test whose rows of known value have the
    class counts ``branch_counts`` (branches, K), at a node of weight ``total``
    (Quinlan 1993, ch. 3; WEKA's ``InfoGainSplitCrit``, ``GainRatioSplitCrit``): the
    known rows' gain times their share of the node, and the split information of the
    branches and the unknown rows as one more branch.  Without unknown rows these are
    :func:`gain_and_split_info`'s."""
    branch_counts = np.asarray(branch_counts, dtype=float)
    gain, split_info = gain_and_split_info(branch_counts)
    known = float(branch_counts.sum())
    unknown = float(total) - known
    if unknown <= 1e-12 * max(float(total), 1.0):
        return float(gain), float(split_info)
    sizes = np.append(branch_counts.sum(axis=1), unknown)
    return float(gain) * known / float(total), float(entropy(sizes))


@njit(cache=True, nogil=True)
def _entropy_times_size(counts, size):
    """``size · info(counts)`` in bits (Quinlan 1993, ch. 2), ``size`` the counts' sum; 0
    for no rows (counts of rounding-level sign errors count as none)."""
    if size <= 0.0:
        return 0.0
    total = 0.0
    for count in counts:
        if count > 0.0:
            total -= count * np.log2(count / size)
    return total


@njit(cache=True, nogil=True)
def best_cuts(order, sorted_values, indicators, total, minimum):
    """Per column of ``sorted_values`` (rows sorted by ``order``, per column): its first
    admissible cut point of highest information gain -- ``i`` between sorted rows ``i``
    and ``i + 1``, of different values, each side keeping at least ``minimum`` rows --
    as ``(columns, cuts, n_cuts, gains, split_infos)``, columns in order, those without
    an admissible cut left out; ``n_cuts`` the column's number of admissible cut points
    (J48's ``C45Split``: its MDL correction is ``log2(n_cuts) / N``).  ``indicators`` (K, n) holds each row's weight in its
    class's row, ``total`` its sums.  Gain and split information are those of
    :func:`gain_and_split_info` (C4.5's, Quinlan 1993, ch. 2), the class counts left of
    a cut added row by row."""
    n, width = order.shape
    n_classes = indicators.shape[0]
    columns = np.empty(width, dtype=np.intp)
    cuts = np.empty(width, dtype=np.intp)
    n_cuts = np.empty(width, dtype=np.intp)
    gains = np.empty(width)
    split_infos = np.empty(width)
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    node_size = 0.0
    for k in range(n_classes):
        node_size += total[k]
    scale = max(node_size, _TINY)
    node_information = _entropy_times_size(total, node_size) / scale
    found = 0
    for j in range(width):
        left[:] = 0.0
        best = -1
        admissible = 0
        best_gain, best_split_info = -np.inf, 0.0
        for i in range(n - 1):
            row = order[i, j]
            for k in range(n_classes):
                left[k] += indicators[k, row]
            if not (sorted_values[i + 1, j] > sorted_values[i, j] and i + 1 >= minimum
                    and n - i - 1 >= minimum):
                continue
            admissible += 1
            left_size, right_size = 0.0, 0.0
            for k in range(n_classes):
                right[k] = total[k] - left[k]
                left_size += left[k]
                right_size += right[k]
            gain = node_information - (_entropy_times_size(left, left_size)
                                       + _entropy_times_size(right, right_size)) / scale
            if best < 0 or gain > best_gain:
                best, best_gain = i, gain
                shares = max(left_size + right_size, _TINY)
                best_split_info = 0.0
                for size in (left_size, right_size):
                    if size > 0.0:
                        best_split_info -= size / shares * np.log2(size / shares)
        if best >= 0:
            columns[found], cuts[found], n_cuts[found] = j, best, admissible
            gains[found], split_infos[found] = best_gain, best_split_info
            found += 1
    return columns[:found], cuts[:found], n_cuts[:found], gains[:found], split_infos[:found]


def at_most(feature, threshold, n_features):
    """J48's threshold test, ``x_feature ≤ threshold`` -- the hyperplane
    ``threshold − x_feature ≥ 0``: children ``x > t`` (0) and ``x ≤ t`` (1)."""
    weights = np.zeros(n_features)
    weights[feature] = -1.0
    return Split.hyperplane(weights, threshold)


class _Candidate:
    """A scored candidate test: the split (or a function that makes it, as most candidates
    never win), its corrected gain and its gain ratio; ``in_average``: whether its gain
    counts in J48's average gain (not so a nominal test of very many values)."""
    __slots__ = ("_split", "gain", "ratio", "in_average")

    def __init__(self, split, gain, split_info, in_average=True):
        self._split = split
        self.in_average = in_average
        self.gain = gain
        self.ratio = gain / split_info if split_info > 1e-12 else -np.inf

    @property
    def split(self):
        if callable(self._split):
            self._split = self._split()
        return self._split


class ODTSVMSplitter:
    """Proposes ODT-SVM's test at a node; see :class:`ODTSVMClassifier`."""

    def __init__(self, X, y, sample_weight, n_classes, categorical, estimator, random_state):
        self.X, self.y, self.sample_weight = X, y, sample_weight
        self.n_classes = n_classes
        self.categorical = categorical
        self.continuous = np.setdiff1d(np.arange(X.shape[1]), categorical)
        self.estimator = estimator
        self.random_state = random_state
        # X-means draws from its own generator, reseeded at every node from the fit's
        # generator (one draw a node, made whether X-means runs or not): a node whose SVM
        # tests cannot be valid skips X-means without changing any other node's draws
        # (making a generator costs 0.05 ms, reseeding one 5 µs).
        self.xmeans_draws = np.random.RandomState(0)
        # One k-means run per Improve-Params step, as in Pelleg & Moore's X-means; one
        # estimator refitted at every node (making one costs as much as a small fit)
        self.xmeans = XMeans(min_clusters=2, max_clusters=estimator.max_clusters, n_init=1,
                             random_state=self.xmeans_draws)
        self.log2_attributes = np.log2(max(X.shape[1], 2))
        # every continuous column's known training values, sorted: J48's thresholds
        self.sorted_columns = {int(j): np.sort(X[np.isfinite(X[:, j]), j])
                               for j in self.continuous}
        # every nominal attribute's values: codes 0 .. V−1, V from the training rows
        self.n_values = {int(j): int(np.nanmax(X[:, j])) + 1 if np.isfinite(X[:, j]).any()
                         else 0 for j in categorical}
        # J48 (C45ModelSelection): a nominal attribute of at least 0.3 · N values (N all
        # training rows) counts in the average gain only if every attribute is such
        many = [j for j, v in self.n_values.items() if v >= 0.3 * X.shape[0]]
        self.outside_average = set() if (len(many) == X.shape[1]) else set(many)
        self.svm_bits = self.attribute_code_lengths(self.continuous.size)

    def attribute_code_lengths(self, m):
        """Bits that code which ``a`` of the ``m`` continuous attributes a split uses, for
        ``a = 0 .. m`` (Section II-C-3: "the coding of all the attributes used in the
        split"; ``svm_cost``):

        * ``"subset"``: ``log2(m + 1) + log2 C(m, a)`` -- the subset's size, then which
          subset of that size (the two-part code of a subset; Quinlan & Rivest 1989);
        * ``"indices"``: ``a · log2 m`` -- every attribute's index on its own (``m`` here
          all attributes, nominal ones too)."""
        a = np.arange(m + 1, dtype=float)
        if self.estimator.svm_cost == "indices":
            return a * self.log2_attributes
        return (np.log2(m + 1) + (gammaln(m + 1) - gammaln(a + 1) - gammaln(m - a + 1))
                / np.log(2))

    def __call__(self, rows, counts, depth, weights=None):
        """The node's test; ``weights``: its rows' weights there (C4.5's fractional
        rows), by default their sample weights."""
        X, y = self.X[rows], self.y[rows]
        weights = self.sample_weight[rows] if weights is None else weights
        n = float(weights.sum())
        candidates = []
        for feature in self.categorical:
            candidates.extend(self.nominal_tests(X[:, feature], feature, y, weights, n))
        if self.continuous.size:
            if self.estimator.axis_parallel_tests:
                candidates.extend(self.threshold_tests(
                    X, y, weights, n, only_best=self.estimator.test_selection == "gain"))
            # the SVM learns from the rows of known value in every continuous attribute
            complete = np.isfinite(X[:, self.continuous]).all(axis=1)
            svm = (self.svm_hyperplanes(X, y, weights) if complete.all() else
                   self.svm_hyperplanes(X[complete], y[complete], weights[complete])
                   if np.count_nonzero(complete) >= 2 else None)
            if svm is not None:
                candidates.extend(self.svm_tests(X, y, weights, n, *svm))
        candidates = [c for c in candidates if c is not None and np.isfinite(c.ratio)]
        if not candidates:
            return None
        if self.estimator.test_selection == "gain":
            # the paper (Fig. 2, step 2.5; Section IV): the test of highest (MDL-corrected)
            # gain, if positive; on equal gains the first candidate (nominal, threshold,
            # SVM, clustering)
            best = max(candidates, key=lambda c: c.gain)
            return best.split if best.gain > 0 else None
        # J48 (C45ModelSelection): the average is over the valid tests, the winner has the
        # highest positive gain ratio among those of gain ≥ average − 10⁻³.
        average = np.mean([c.gain for c in candidates if c.in_average])
        eligible = [c for c in candidates if c.gain > 0 and c.gain >= average - 1e-3]
        if not eligible:
            return None
        return max(eligible, key=lambda c: c.ratio).split

    # ----- scoring -----
    def score(self, split, position, y, weights, n, bits):
        """A :class:`_Candidate`, or None if fewer than two branches hold
        ``min_samples_leaf`` rows.  ``position`` −1: a row of unknown value for the test
        (:func:`gain_with_unknown`)."""
        known = position >= 0
        if not known.all():
            position, y, weights = position[known], y[known], weights[known]
        branch_counts = np.bincount(position * self.n_classes + y, weights,
                                    split.n_children * self.n_classes)
        branch_counts = branch_counts.reshape(split.n_children, self.n_classes)
        if np.count_nonzero(np.bincount(position, minlength=split.n_children)
                            >= self.estimator.min_samples_leaf) < 2:
            return None
        gain, split_info = gain_with_unknown(branch_counts, n)
        gain = float(gain) - (bits / n if self.estimator.mdl_penalty else 0.0)
        if gain <= 0:      # as J48 treats an MDL-corrected test: not a valid test
            return None
        return _Candidate(split, gain, float(split_info))

    def nominal_tests(self, column, feature, y, weights, n):
        """The test of nominal attribute ``k`` (``nominal_tests``).  ``"multiway"``:
        C4.5's, one branch per value, valid when two branches keep ``min_samples_leaf``
        rows, without an MDL correction (WEKA's ``C45Split``; the paper's J48-SVM-ODT is
        J48 on nominal data, Section IV and Table I).  ``"binary"``: ``x_k = a`` for the
        best value ``a`` against the rest (the pseudocode's reading, Fig. 2, 2.1), its gain
        corrected by ``log2 m / N``.  Rows of unknown value count as C4.5 counts them
        (:func:`gain_with_unknown`)."""
        known = np.isfinite(column)
        if not known.all():
            column, y, weights = column[known], y[known], weights[known]
        codes = column.astype(np.intp)
        n_values = self.n_values[feature]
        table = np.bincount(codes * self.n_classes + y, weights,
                            n_values * self.n_classes).reshape(-1, self.n_classes)
        sizes = np.bincount(codes, minlength=n_values)
        if self.estimator.nominal_tests == "multiway":
            if np.count_nonzero(sizes >= self.estimator.min_samples_leaf) < 2:
                return []
            gain, split_info = gain_with_unknown(table, n)
            split = functools.partial(Split.nominal, feature, range(n_values),
                                      self.X.shape[1])
            return [_Candidate(split, float(gain), float(split_info),
                               in_average=feature not in self.outside_average)]
        values = np.flatnonzero(sizes)
        if values.size < 2:
            return []
        table, sizes = table[values], sizes[values]             # (V, K) present values
        total = table.sum(axis=0)
        branches = np.stack([table, total - table], axis=1)     # (V, 2, K): = a, ≠ a
        gains, split_infos = gain_and_split_info(branches)
        if not known.all():
            scored = [gain_with_unknown(b, n) for b in branches]
            gains = np.array([g for g, _ in scored])
            split_infos = np.array([i for _, i in scored])
        enough = (sizes >= self.estimator.min_samples_leaf) & (
            len(codes) - sizes >= self.estimator.min_samples_leaf)
        if not enough.any():
            return []
        best = int(np.argmax(np.where(enough, gains, -np.inf)))
        split = Split.equality(feature, values[best], self.X.shape[1])
        correction = self.log2_attributes / n if self.estimator.mdl_penalty else 0.0
        return [_Candidate(split, float(gains[best]) - correction, float(split_infos[best]))]

    def threshold_tests(self, X, y, weights, n, only_best=False):
        """J48's test on each continuous attribute (WEKA's ``C45Split``): the cut point of
        highest gain among those that leave at least
        ``max(min(0.1 · N / K, 25), min_samples_leaf)`` rows on both sides, its gain
        corrected by ``log2(c) / N`` for the attribute's ``c`` admissible cut points; a
        test whose corrected gain is not positive is not a candidate.  The threshold is
        J48's: the largest training value of the attribute not above the midpoint of the
        cut (``C45Split.setSplitPoint``), so a threshold is a value of the data, and the
        test is ``x_k ≤ t`` (branches ``x_k > t``, ``x_k ≤ t``).

        ``only_best``: only the one of these tests that the paper's rule (the highest
        gain, the first on equal gains) can choose -- the first of highest corrected gain
        among those of a finite gain ratio (the candidates :meth:`__call__` keeps) -- as
        a list of at most one.  J48's rule needs them all (their average gain)."""
        if self.continuous.size == 0 or len(y) < 2:
            return []
        V = X[:, self.continuous]
        known = np.isfinite(V)
        # columns of known values at every row in one call of best_cuts, the others
        # each on its rows of known value (C4.5: "only instances with known values are
        # relevant"; the gain scaled by their share, the unknown rows a branch of the
        # split information)
        complete = known.all(axis=0)
        groups = [(np.flatnonzero(complete), np.arange(len(y)))] if complete.any() else []
        groups += [(np.array([j]), np.flatnonzero(known[:, j]))
                   for j in np.flatnonzero(~complete)]
        found = []
        for columns, rows in groups:
            if len(rows) < 2:
                continue
            found.extend(self.best_threshold_tests(V[np.ix_(rows, columns)], columns,
                                                   y[rows], weights[rows], n))
        if not found:
            return []
        gains = np.array([gain for _, gain, _ in found])
        split_infos = np.array([split_info for _, _, split_info in found])
        valid = gains > 0
        if only_best:
            # _Candidate's gain ratio finite: __call__ keeps no other candidate
            with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
                valid &= (split_infos > 1e-12) & np.isfinite(
                    gains / np.where(split_infos > 1e-12, split_infos, 1.0))
            if valid.any():
                valid[:] = np.arange(len(gains)) == np.argmax(np.where(valid, gains, -np.inf))
        return [_Candidate(split, gain, split_info)
                for (split, gain, split_info), keep in zip(found, valid) if keep]

    def best_threshold_tests(self, V, columns, y, weights, n):
        """``(split, corrected gain, split info)`` of the best cut of every column of
        ``V`` (the continuous columns ``columns``, all values known) that has an
        admissible one, in column order (:meth:`threshold_tests`)."""
        minimum = max(min(0.1 * len(y) / self.n_classes, 25),   # rows, not weight
                      self.estimator.min_samples_leaf)
        indicators = np.zeros((self.n_classes, len(y)))
        indicators[y, np.arange(len(y))] = weights
        total = indicators.sum(axis=1)
        order = np.argsort(V, axis=0, kind="stable")
        sorted_values = np.take_along_axis(V, order, axis=0)
        found_columns, cuts, n_cuts, gains, split_infos = best_cuts(
            order, sorted_values, indicators, total, float(minimum))
        known = float(weights.sum())
        if known < n * (1 - 1e-12):      # C4.5's gain and split info with unknown rows
            left = np.array([weights[order[:i + 1, j]].sum()
                             for j, i in zip(found_columns, cuts)])
            gains = gains * known / n
            split_infos = np.array([float(entropy([a, known - a, n - known]))
                                    for a in left])
        if self.estimator.mdl_penalty:
            gains = gains - np.log2(np.maximum(n_cuts, 1)) / n
        found = []
        for j, i, gain, split_info in zip(found_columns, cuts, gains.tolist(),
                                          split_infos.tolist()):
            feature = int(self.continuous[columns[j]])
            threshold = self.training_value_below(
                feature, (sorted_values[i, j] + sorted_values[i + 1, j]) / 2)
            found.append((functools.partial(at_most, feature, threshold, self.X.shape[1]),
                          gain, split_info))
        return found

    def training_value_below(self, feature, midpoint):
        """The largest value of ``feature`` among all training rows not above
        ``midpoint`` (J48's ``C45Split.setSplitPoint``, over all the training data)."""
        column = self.sorted_columns[feature]
        return float(column[np.searchsorted(column, midpoint, side="right") - 1])

    def pairwise(self, n_classes):
        """Whether the SVM split of a node of ``n_classes`` classes is pairwise: more than
        two classes, at most :data:`MAX_PAIRWISE_CLASSES`, ``multiclass="pairwise"``."""
        return (self.estimator.multiclass == "pairwise"
                and 2 < n_classes <= MAX_PAIRWISE_CLASSES)

    def svm_hyperplanes(self, X, y, weights):
        """The linear SVM on the node's continuous attributes (standardised at the node;
        Fig. 2, 2.3): (weights over all columns in raw units, biases, SVM classes, norms of
        the standardised normals), or None."""
        continuous = X[:, self.continuous]
        # Unweighted statistics.  A constant column is exactly 0, not the rounding noise of
        # a mean of equal values: the SVM then gives it no weight, which would also count
        # in the test's MDL cost.
        standardisation = Standardisation.from_rows(continuous)
        Z = standardisation.transform(continuous)
        present = np.unique(y)
        if present.size < 2 or not np.any(Z.std(axis=0) > 0):
            return None
        seed = self.random_state.randint(np.iinfo(np.int32).max)     # the SVMs' row orders
        self.xmeans_draws.seed(self.random_state.randint(np.iinfo(np.int32).max))

        pairwise = self.pairwise(present.size)
        hopeless = self.hopeless_svm_tests(y, weights)
        # max_terms of at least the node's attributes limits nothing: the dense SVM split
        max_terms = effective_max_terms(self.estimator.max_terms, Z.shape[1])
        if hopeless(1, max_terms):
            return None

        # The elimination refits each SVM on fewer and fewer attributes, each refit from
        # the dual variables of the last (a warm start); a dense fit starts cold
        dual_starts = None if max_terms is None else collections.defaultdict(DualStart)

        def fit_one(columns, rows, tolerance, key=None):
            Z_rows, y_rows, weight_rows = rows
            classes, coef, intercept = linear_svm(
                Z_rows[:, columns], y_rows, weight_rows, self.estimator.C, seed,
                tolerance=tolerance,
                dual_start=None if dual_starts is None else dual_starts[key])
            normals = np.zeros((coef.shape[0], Z.shape[1]))
            normals[:, columns] = coef
            return classes, normals, intercept

        # WEKA's SMO: one binary SVM per pair of classes (a, b), a < b, each on the rows
        # of its two classes (taken once: the elimination refits them)
        if pairwise:
            class_rows = [np.flatnonzero(y == c) for c in present]
            pair_rows = [np.sort(np.concatenate((class_rows[a], class_rows[b])))
                         for a, b in pairwise_pairs(present.size)]
            pair_data = [(Z[rows], y[rows], weights[rows]) for rows in pair_rows]

        def fit_svm(columns, give_up=None, tolerance=TOLERANCE):
            if not pairwise:
                svm = fit_one(columns, (Z, y, weights), tolerance)
                return None if give_up is not None and give_up(svm[1]) else svm
            # The SVM's value is positive for b, so the sign is turned: v ≥ 0 is a vote
            # for a (the pairwise_vote kind's convention).  Every pair's SVM is its own
            # solver run (seeded alike), so they are fitted smallest first: ``give_up``
            # may end the node's SVM before the largest.
            normals = np.zeros((len(pair_rows), Z.shape[1]))
            biases = np.zeros(len(pair_rows))
            for pair in sorted(range(len(pair_rows)), key=lambda p: len(pair_rows[p])):
                _, normal, bias = fit_one(columns, pair_data[pair], tolerance, pair)
                normals[pair], biases[pair] = -normal[0], -bias[0]
                if give_up is not None and give_up(normals[pair]):
                    return None
            return present, normals, biases

        # The attributes of non-zero weight in any hyperplane so far: they only grow
        used = np.zeros(Z.shape[1], dtype=bool)

        def too_many_attributes(normals):
            used[:] |= np.any(standardisation.raw_weights(normals) != 0, axis=0)
            return hopeless(np.count_nonzero(used))

        give_up = too_many_attributes if max_terms is None else None
        svm = fit_svm(np.arange(Z.shape[1]), give_up,
                      TOLERANCE if max_terms is None else RANKING_TOLERANCE)
        if svm is None:
            return None
        svm_classes, normals, biases = svm
        if max_terms is not None:
            # Backward elimination from the SVM's hyperplanes, the SVM retrained on the
            # attributes left after every removal (as SVM-RFE, Guyon et al. 2002); the
            # SVMs that only rank the next removals solved to liblinear's tolerance, the
            # split kept to LinearSVC's
            sparse = eliminate_terms(
                Z, normals, biases, y, weights, self.n_classes, max_terms,
                "information_gain",
                None if normals.shape[0] == 1 else
                (lambda v: pairwise_votes(v, present.size)) if pairwise else
                (lambda v: np.argmax(v, axis=1)),
                refit=lambda columns, kept: fit_svm(
                    columns, tolerance=TOLERANCE if kept else RANKING_TOLERANCE)[1:])
            if sparse is None:
                return None
            normals, biases = sparse
        norms = np.sqrt((normals ** 2).sum(axis=1))
        if not np.all(norms > 0):
            return None
        raw = np.zeros((normals.shape[0], X.shape[1]))
        raw_continuous = standardisation.raw_weights(normals)
        raw[:, self.continuous] = raw_continuous
        raw_bias = standardisation.raw_bias(raw_continuous, biases)
        return raw, raw_bias, svm_classes, norms

    def hopeless_svm_tests(self, y, weights):
        """A function of a number of attributes ``a`` (and ``at_most``, None or a number):
        True when no SVM split using ``a`` or more attributes (and at most ``at_most``)
        can be a valid test at the node of rows ``y, weights``, and so neither can the
        clustering split on its hyperplanes (Section II-C-3).

        A test's information gain is at most the node's class entropy ``H`` (the
        remainder of :func:`gain_and_split_info` is a sum of non-negative terms), and the
        SVM split's MDL cost is its code length (:meth:`attribute_code_lengths`) over
        ``N`` -- the clustering split's more -- so with a cost of at least ``H`` for every
        number of attributes from ``a`` on (the SVM's attributes only grow while it is
        fitted) the corrected gain is not positive and :meth:`score` rejects both.  A
        sparse split (``max_terms``) has at most ``max_terms`` attributes, whatever the
        SVMs of its elimination use: ``at_most`` (so the many small nodes of a
        sparse tree, where one attribute costs more than the node's entropy, skip the
        elimination).  The comparison keeps a margin of 10⁻⁹ of ``H`` (and 10⁻¹²
        absolute) for the rounding of class totals summed in another order.  Never True
        without the MDL penalty."""
        if not self.estimator.mdl_penalty:
            return lambda attributes, at_most=None: False
        n = float(weights.sum())
        bound = float(entropy(np.bincount(y, weights, self.n_classes))) * (1 + 1e-9) + 1e-12
        # the least cost of a or more attributes
        least = np.minimum.accumulate(self.svm_bits[::-1])[::-1] / n

        def hopeless(attributes, at_most=None):
            if at_most is None:
                return least[min(attributes, least.size - 1)] >= bound
            return self.svm_bits[attributes:at_most + 1].min() / n >= bound
        return hopeless

    def svm_tests(self, X, y, weights, n, raw, raw_bias, svm_classes, norms):
        """The SVM split (Fig. 2, 2.3-2.4) and the SVM clustering split (Section II-C-2)."""
        bits = self.svm_bits[np.count_nonzero(np.any(raw != 0, axis=0))]
        if raw.shape[0] == 1:
            split = Split(HYPERPLANE, raw, raw_bias)
        elif self.pairwise(len(svm_classes)):
            split = Split(PAIRWISE_VOTE, raw, raw_bias, classes=svm_classes)
        else:
            split = Split(ARGMAX, raw, raw_bias, classes=svm_classes)
        candidates = [self.score(split, split.route_with_missing(X), y, weights, n, bits)]
        if self.estimator.clustering_split:
            candidates.append(self.clustering_test(X, y, weights, n, raw / norms[:, None],
                                                   raw_bias / norms, bits))
        return candidates

    def clustering_test(self, X, y, weights, n, weights_by_distance, bias_by_distance,
                        svm_bits):
        """The SVM clustering split (:func:`svm_clustering_split`) scored with its MDL cost:
        the SVM's attributes, the number of clusters and the centres' coordinates."""
        split = svm_clustering_split(X, self.continuous, weights_by_distance,
                                     bias_by_distance, self.xmeans)
        if split is None:
            return None
        k, dimensions = split.centres.shape
        bits = (svm_bits + np.log2(max(self.estimator.max_clusters - 1, 1))
                + k * dimensions * 0.5 * np.log2(max(n, 2)))
        return self.score(split, split.route_with_missing(X), y, weights, n, bits)


def svm_clustering_split(X, continuous, weights_by_distance, bias_by_distance, xmeans):
    """The SVM clustering split (Section II-C-2): ``xmeans`` (an :class:`XMeans`) on the
    rows' signed distances ``weights_by_distance · x + bias_by_distance`` to the SVM
    hyperplane(s), one child per cluster, its centres in a readable order; None when it
    finds fewer than two clusters.  Rows of an unknown ``continuous`` attribute are left
    out of the clustering."""
    if weights_by_distance.shape[0] > weights_by_distance.shape[1]:
        # More hyperplanes than attributes (many classes): the rows' distances
        # ``W x + b`` lie in ``b`` + the span of W's columns, of at most as many
        # dimensions as attributes.  Cluster their coordinates in an orthonormal basis
        # of that span (an isometry of the rows: the same clusters, as below), not
        # K(K−1)/2 or K redundant coordinates (2,000 classes: 2,000 instead of 5).
        _, singular, vt = np.linalg.svd(weights_by_distance.T, full_matrices=False)
        basis = vt[singular > 1e-12 * max(singular[0], _TINY)]
        if not len(basis):
            return None
        weights_by_distance = basis @ weights_by_distance
        bias_by_distance = basis @ bias_by_distance
    complete = np.isfinite(X[:, continuous]).all(axis=1)
    # (a nominal column's NaN, of weight 0, must not make a distance NaN)
    rows_X = X if np.isfinite(X).all() else np.where(np.isfinite(X), X, 0.0)[complete]
    distances = rows_X @ weights_by_distance.T + bias_by_distance
    if distances.shape[1] >= len(distances):
        # More hyperplanes than rows (pairwise SVMs of many classes at a small node):
        # the rows' distances span at most n − 1 dimensions.  Cluster their coordinates
        # in that subspace (an isometry of the rows: the same clusters) -- the split
        # maps to those coordinates, and a row outside the subspace is as far from
        # every centre's subspace point, so it goes to the same nearest centre.
        mean = distances.mean(axis=0)
        _, singular, vt = np.linalg.svd(distances - mean, full_matrices=False)
        basis = vt[singular > 1e-12 * max(singular[0], _TINY)]
        if not len(basis):
            return None
        weights_by_distance = basis @ weights_by_distance
        bias_by_distance = basis @ (bias_by_distance - mean)
        distances = rows_X @ weights_by_distance.T + bias_by_distance
    centres = xmeans.fit_centres(distances)     # fit's cluster_centers_
    if centres.shape[0] < 2:
        return None
    centres = centres[np.lexsort(centres.T[::-1])]    # readable order: by coordinate
    return Split(NEAREST_CENTRE, weights_by_distance, bias_by_distance, centres=centres)


class ODTSVMClassifier(ObliqueTreeClassifierMixin):
    """ODT-SVM (Menkovski, Christou & Efremidis 2008), a scikit-learn classifier.

    Parameters
    ----------
    C
        Penalty of the linear SVM (WEKA's SMO default, which the paper used).  It
        multiplies every row's weight; the weights are first rescaled to sum to the
        number of rows of positive weight (``fit``), so ``C`` means the same for weights
        of any scale, as do the MDL cost per row and C4.5's error counts.
    clustering_split
        Also try the SVM clustering split (Section II-C-2).
    max_clusters
        Most clusters X-means may choose for a clustering split (at least 2); 4 is the
        default of WEKA's XMeans (``maxNumClusters``), the paper's tool, which does not
        say otherwise.  At a node of fewer rows, at most its number of rows.
    mdl_penalty
        Subtract the MDL coding cost of a test from its gain (module docstring).
    axis_parallel_tests
        Keep J48's single-attribute threshold tests among the candidates.
    min_samples_leaf
        C4.5's minimum number of rows in at least two branches of a test.
    confidence
        C4.5's pruning confidence ``CF``; None grows without pruning.  The estimate is
        C4.5's: its normal deviate interpolated in C4.5's table (``z = 0.6925`` for
        ``CF = 0.25``; J48 computes the exact quantile, 0.6745;
        :func:`~orangecontrib.oblique.core.tree.pruning.added_errors`).
    collapse
        J48's collapse before pruning (also without pruning, as J48): a subtree that
        misclassifies no less training weight than its root as a leaf becomes a leaf
        (:func:`~orangecontrib.oblique.core.tree.pruning.collapse`).
    subtree_raising
        C4.5's subtree raising in error-based pruning (a node may be replaced by its
        largest branch; :func:`~orangecontrib.oblique.core.tree.pruning.error_based_prune`).
        On by default: the paper's J48-SVM-ODT is "a slight modification of the J48
        class" that changes only the model selection, and J48 raises subtrees unless
        told not to (``-S``); the paper says nothing to the contrary.
    test_selection
        How the test of a node is chosen among the valid candidates.  ``"gain"``: the
        paper's rule, the highest MDL-corrected information gain (Fig. 2, step 2.5, "the
        test … leading to the highest impurity decrease"; Section IV: the model selector
        keeps the split that "brings most gain").  ``"gain_ratio"``: J48's rule, the
        highest gain ratio among the tests of at least average gain, which penalises the
        multiway SVM and clustering tests by their split information.
    multiclass
        The SVM split of a node with K > 2 classes.  ``"pairwise"``: WEKA's SMO, which
        the paper used: K(K−1)/2 binary SVMs, one per pair of classes, each on the rows of
        its two classes; a row goes to the class that wins most pairwise votes (ties: the
        lowest class index, as in LIBSVM and WEKA) -- one child per class (the
        ``pairwise_vote`` split kind); the clustering split then clusters the rows'
        K(K−1)/2 pairwise decision values.  A node of more than
        :data:`MAX_PAIRWISE_CLASSES` (50) classes gets the one-vs-rest split instead: its
        K(K−1)/2 SVMs would grow as K².  ``"one_vs_rest"``: K one-vs-rest SVMs, a row
        going to the class of largest decision value (the ``argmax`` kind).
    categorical_features
        Columns holding nominal attributes as integer codes ``0 .. V−1`` (``V`` from the
        training rows); they get nominal tests (``nominal_tests``) and are left out of
        the SVM.  In prediction, a code that no training row had in its column (larger,
        negative or not whole; the fitted ``seen_codes_`` list the codes seen, per
        column) is a missing value: predicted exactly as NaN, by C4.5's fractional
        rows, also at an ``x = a`` test (not as ``≠ a``).
    nominal_tests
        A nominal attribute's test.  ``"multiway"``: C4.5's and J48's, one branch per
        value (the ``nominal`` split kind), without an MDL correction -- the paper's
        J48-SVM-ODT only changes J48's model selection (Section IV) and equals J48 on
        every all-nominal set of its Table I.  ``"binary"``: ``x_k = a`` against the rest
        for the best value ``a``, corrected by ``log2 m / N`` bits a row (the reading of
        the pseudocode, Fig. 2, step 2.1).
    svm_cost
        The MDL cost of the attributes an SVM (or clustering) split uses, ``a`` of the
        ``m`` continuous ones: ``"subset"``, the two-part code of a subset,
        ``log2(m + 1) + log2 C(m, a)`` bits; ``"indices"``, ``a · log2 m`` bits (``m``
        all attributes), every index coded on its own (module docstring).
    max_depth
    random_state
        For the SVM solver and X-means.
    max_terms
        At most this many attributes with a non-zero weight in any split (all of a
        multi-class split's hyperplanes together), found by backward elimination from
        the SVM's hyperplanes (after CART's linear-combination splits, Breiman et al.
        1984, §5.2), the SVM retrained on the attributes left after every removal (as
        SVM-RFE, Guyon et al. 2002; :mod:`~orangecontrib.oblique.core.tree.sparse`); the
        clustering split then uses the sparse hyperplanes: a readable split.  None keeps
        the paper's dense split.  At least the number
        of features: no limit, as None.
    """

    #: NaN in ``X`` is a missing value, handled as C4.5 handles it (fractional rows)
    accepts_missing_values = True

    _parameter_constraints = {
        "C": Parameter(1.0, Interval(Real, 0, None, closed="neither")),
        "clustering_split": Parameter(True, BOOLEAN),
        "max_clusters": Parameter(4, Interval(Integral, 2, None)),
        "mdl_penalty": Parameter(True, BOOLEAN),
        "axis_parallel_tests": Parameter(True, BOOLEAN),
        "min_samples_leaf": MIN_SAMPLES_LEAF.replace(default=2),
        "confidence": Parameter(0.25, Interval(Real, 0, 1, closed="right"), None),
        "categorical_features": Parameter(None, INDICES, None),
        "max_depth": MAX_DEPTH,
        "random_state": SEED,
        "max_terms": MAX_TERMS,
        "subtree_raising": Parameter(True, BOOLEAN),
        "test_selection": Parameter("gain", Options(*TEST_SELECTIONS)),
        "multiclass": Parameter("pairwise", Options(*MULTICLASS)),
        "nominal_tests": Parameter("multiway", Options(*NOMINAL_TESTS)),
        "svm_cost": Parameter("subset", Options(*SVM_COSTS)),
        "collapse": Parameter(True, BOOLEAN),
    }

    def _categorical_columns(self, X):
        if self.categorical_features is None:
            return np.array([], dtype=np.intp)
        mask = np.asarray(self.categorical_features)
        if mask.dtype == bool:
            if mask.shape != (X.shape[1],):
                raise ValueError("a boolean categorical_features needs one entry per feature")
            columns = np.flatnonzero(mask)
        else:
            if mask.size and (not np.issubdtype(mask.dtype, np.number)
                              or np.any(mask != np.round(mask))):
                raise ValueError("categorical_features must be integer column indices "
                                 "or a boolean mask")
            columns = np.unique(mask.astype(np.intp))
            if columns.size and (columns[0] < 0 or columns[-1] >= X.shape[1]):
                raise ValueError(f"categorical_features must index the {X.shape[1]} features")
        values = X[:, columns]
        values = values[np.isfinite(values)]          # NaN: a missing value
        if np.any(values < 0) or np.any(values != np.round(values)):
            raise ValueError("categorical features must hold non-negative integer codes")
        return columns

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback):
        categorical = self._categorical_columns(X)
        self.seen_codes_ = seen_codes(X, categorical)   # prediction: the others are NaN
        splitter = ODTSVMSplitter(X, y, sample_weight, len(self.classes_), categorical, self,
                                  random_state)
        tree = grow_tree(X, y, sample_weight, len(self.classes_), splitter, None,
                         self.max_depth, 2 * self.min_samples_leaf, progress_callback,
                         missing_by_weight=True)
        n_rows = int(np.count_nonzero(sample_weight > 0))
        if tree.node_count == 1 and n_rows < 2 * self.min_samples_leaf and len(
                np.unique(y[sample_weight > 0])) > 1:
            warnings.warn(
                f"ODT-SVM grew a single leaf: J48's minimum of {self.min_samples_leaf} rows "
                f"a leaf (min_samples_leaf) allows no split of {n_rows} rows. Set "
                f"min_samples_leaf=1 to split so few rows.", GrowthWarning, stacklevel=3)
        if self.collapse:
            tree = collapse(tree)
        if self.confidence is not None:
            tree = error_based_prune(tree, self.confidence, bool(self.subtree_raising),
                                     X, y, sample_weight)
        return tree
