"""OC1 (Murthy, Kasif & Salzberg, "A System for Induction of Oblique Decision Trees",
JAIR 2, 1994).

At each node: the best axis-parallel split; then, when the node has enough rows and that
split is impure, a randomised hill-climbing search for an oblique hyperplane (Section 2):
deterministic perturbation of one coefficient at a time (Eq. 2, Figure 2), random jumps out
of local minima (Section 2.3) and restarts.  The oblique split is kept only if
``axis_parallel_bias × oblique impurity < axis-parallel impurity``.  The tree is then pruned
by cost-complexity pruning on a held-out part of the training data (Section 3).
"""
import numbers

import numpy as np

from .base import ObliqueTreeClassifierMixin
from .impurity import MEASURES, best_axis_parallel, best_step, impurity, class_indicators
from .tree import Split, grow_tree

SPLIT_MODES = ("oblique_and_axis_parallel", "axis_parallel", "oblique")
COEFFICIENT_ORDERS = ("sequential", "best_first", "random")

#: P_move falls by this after every move that leaves the impurity unchanged and is reset to
#: 1 on every improvement (Section 2.2 and footnote 3), so at most 10 stagnant moves follow
#: each other -- the limit of the original program's counter.
STAGNATION_STEP = 0.1
#: Random order: coefficients perturbed per local search ("R-50" in the paper).
RANDOM_ORDER_PERTURBATIONS = 50
#: Safety bound on passes over the coefficients in one deterministic local search.
MAX_PERTURBATION_PASSES = 100


def _improves(new, old):
    if not np.isfinite(old):  # leaving a split that separates nothing
        return bool(np.isfinite(new))
    return new < old - 1e-12 * max(1.0, abs(old))


def _equal(new, old):
    if not (np.isfinite(new) and np.isfinite(old)):
        return False
    return abs(new - old) <= 1e-12 * max(1.0, abs(old))


class OC1Splitter:
    """Proposes OC1's split of one node; see :class:`OC1Classifier` for the parameters."""

    def __init__(self, X, y, sample_weight, n_classes, measure, n_restarts, n_random_jumps,
                 coefficient_order, axis_parallel_bias, oblique_rows_per_feature, split_mode,
                 random_state, heartbeat=None):
        self.X, self.y, self.sample_weight = X, y, sample_weight
        self.n_classes = n_classes
        self.measure = measure
        self.n_restarts = n_restarts
        self.n_random_jumps = n_random_jumps
        self.coefficient_order = coefficient_order
        self.axis_parallel_bias = axis_parallel_bias
        self.oblique_rows_per_feature = oblique_rows_per_feature
        self.split_mode = split_mode
        self.random_state = random_state
        #: Called before every restart, so that a long search at a large node can report
        #: progress and be cancelled (it may raise).
        self.heartbeat = heartbeat

    def __call__(self, rows, counts, depth):
        X, weights = self.X[rows], self.sample_weight[rows]
        n, d = X.shape
        # Section 2.4: normalise the attributes at the node (weighted, so that a row of
        # weight 2 acts as two copies); map the hyperplane back afterwards.
        if weights.min() == weights.max():  # equal weights: the plain statistics, exactly
            mean, scale = X.mean(axis=0), X.std(axis=0)
        else:
            mean = np.average(X, axis=0, weights=weights)
            scale = np.sqrt(np.average((X - mean) ** 2, axis=0, weights=weights))
        scale[scale <= 1e-12 * np.maximum(np.abs(mean), 1)] = 1.0
        Z = (X - mean) / scale
        class_counts = class_indicators(self.y[rows], self.sample_weight[rows], self.n_classes)
        axis_impurity, feature, threshold = best_axis_parallel(Z, class_counts, self.measure)
        if feature < 0:
            return None
        axis_split = Split.axis_parallel(feature, mean[feature] + scale[feature] * threshold,
                                         d)
        if self.split_mode == "axis_parallel" or (
                self.split_mode == "oblique_and_axis_parallel"
                and (axis_impurity == 0 or n <= self.oblique_rows_per_feature * d)):
            return axis_split
        start = np.zeros(d + 1)
        start[feature], start[d] = 1.0, -threshold
        hyperplane, oblique_impurity = self.search(np.hstack([Z, np.ones((n, 1))]),
                                                   class_counts, start)
        if hyperplane is None:  # no restart found a split that separates anything
            return axis_split
        if self.split_mode == "oblique" or (
                self.axis_parallel_bias * oblique_impurity < axis_impurity):
            weights = hyperplane[:d] / scale
            bias = hyperplane[d] - weights @ mean
            norm = np.sqrt(weights @ weights)
            if norm > 0 and np.isfinite(oblique_impurity):
                return Split.hyperplane(weights / norm, bias / norm)
        return axis_split

    def split_impurity(self, values, class_counts):
        left = class_counts[:, values < 0].sum(axis=1)
        return float(impurity(left[None, :], class_counts.sum(axis=1), self.measure)[0])

    def search(self, Z, class_counts, axis_parallel_start):
        """Best hyperplane over the restarts: the first from the best axis-parallel split,
        the others from random hyperplanes with coefficients in [-1, 1] (Section 2.3)."""
        best, best_impurity = None, np.inf
        for restart in range(self.n_restarts):
            if self.heartbeat is not None:
                self.heartbeat()
            start = (axis_parallel_start.copy() if restart == 0
                     else self.random_state.uniform(-1, 1, Z.shape[1]))
            hyperplane, value = self.local_search(Z, class_counts, start)
            if value < best_impurity:
                best, best_impurity = hyperplane, value
            if best_impurity == 0:
                break
        return best, best_impurity

    def local_search(self, Z, class_counts, hyperplane):
        """One restart: perturb coefficients to a local minimum, then try up to J random
        jumps; every successful jump starts the deterministic perturbation again."""
        values = Z @ hyperplane
        current = self.split_impurity(values, class_counts)
        while True:
            current = self.perturb_coefficients(Z, class_counts, hyperplane, values, current)
            for _ in range(self.n_random_jumps):
                direction = self.random_state.uniform(-1, 1, Z.shape[1])
                change = Z @ direction
                new, step = best_step(values, change, class_counts, self.measure)
                if _improves(new, current):
                    hyperplane += step * direction
                    values += step * change
                    current = new
                    break
            else:
                return hyperplane, current

    def perturb_coefficients(self, Z, class_counts, hyperplane, values, current):
        """Deterministic perturbation (Figure 2) in the chosen coefficient order; changes
        ``hyperplane`` and ``values`` in place and returns the new impurity.

        Perturbing coefficient ``a_m`` by ``t`` moves row ``j`` across the hyperplane at
        ``U_j``: Eq. 2 solved by :func:`~.impurity.best_step` with direction ``x_m``.  A
        move that lowers the impurity is taken; one that leaves it unchanged is taken with
        probability ``P_move`` (1 at first, lowered by :data:`STAGNATION_STEP` after each
        such move, reset by an improvement); a rise is never taken.  In sequential order the
        bias is reached only through random jumps (as in the original program).
        """
        n_coefficients = Z.shape[1]
        total = class_counts.sum(axis=1)
        p_move = 1.0

        def try_move(m, new, step):
            nonlocal current, p_move
            if not np.isfinite(new):
                return False
            if _improves(new, current):
                p_move = 1.0
            elif _equal(new, current) and self.random_state.random_sample() < p_move:
                p_move = max(p_move - STAGNATION_STEP, 0.0)
            else:
                return False
            hyperplane[m] += step
            np.add(values, step * Z[:, m], out=values)
            current = new
            return True

        if self.coefficient_order == "sequential":
            for _ in range(MAX_PERTURBATION_PASSES):
                moved = False
                for m in range(n_coefficients - 1):
                    moved |= try_move(m, *best_step(values, Z[:, m], class_counts,
                                                    self.measure, total))
                if not moved:
                    break
        elif self.coefficient_order == "best_first":
            for _ in range(MAX_PERTURBATION_PASSES * n_coefficients):
                candidates = [best_step(values, Z[:, m], class_counts, self.measure, total)
                              for m in range(n_coefficients)]
                m = int(np.argmin([new for new, _ in candidates]))
                if not try_move(m, *candidates[m]):
                    break
        else:
            for _ in range(RANDOM_ORDER_PERTURBATIONS):
                m = int(self.random_state.randint(n_coefficients))
                try_move(m, *best_step(values, Z[:, m], class_counts, self.measure, total))
        return current


class OC1Classifier(ObliqueTreeClassifierMixin):
    """OC1 oblique decision tree (Murthy, Kasif & Salzberg 1994), a scikit-learn classifier.

    Parameters
    ----------
    impurity : str, default "twoing"
        One of "twoing" (OC1's default), "information_gain", "gini", "max_minority",
        "sum_minority", "sum_of_variances" (Appendix B).
    n_restarts : int, default 20
        Restarts R of the hyperplane search; the first starts at the best axis-parallel
        split.
    n_random_jumps : int, default 5
        Random jumps J tried at each local minimum.
    coefficient_order : {"sequential", "best_first", "random"}, default "sequential"
    axis_parallel_bias : float, default 1.0
        The oblique split is used only if ``bias × its impurity < axis-parallel impurity``.
    oblique_rows_per_feature : float, default 2
        Search oblique splits only at nodes with more than this many rows per feature
        (the original program: ``n > 2d``).
    split_mode : {"oblique_and_axis_parallel", "axis_parallel", "oblique"}
        Both (OC1), axis-parallel only (OC1-AP), or oblique only.
    pruning_portion : float, default 0.1
        Share of the training rows held out for cost-complexity pruning; 0 disables it.
    se_rule : float, default 0.0
        k of the k-SE rule when choosing the pruned tree (0-SE by default).
    max_depth : int or None, default 50
        The original program stops at depth 50.
    min_samples_split : int, default 2
    random_state : int, RandomState or None
    """

    def __init__(self, impurity="twoing", n_restarts=20, n_random_jumps=5,
                 coefficient_order="sequential", axis_parallel_bias=1.0,
                 oblique_rows_per_feature=2.0, split_mode="oblique_and_axis_parallel",
                 pruning_portion=0.1, se_rule=0.0, max_depth=50, min_samples_split=2,
                 random_state=None):
        self.impurity = impurity
        self.n_restarts = n_restarts
        self.n_random_jumps = n_random_jumps
        self.coefficient_order = coefficient_order
        self.axis_parallel_bias = axis_parallel_bias
        self.oblique_rows_per_feature = oblique_rows_per_feature
        self.split_mode = split_mode
        self.pruning_portion = pruning_portion
        self.se_rule = se_rule
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.random_state = random_state

    def _validate_parameters(self):
        super()._validate_parameters()
        if self.impurity not in MEASURES:
            raise ValueError(f"impurity must be one of {sorted(MEASURES)}, "
                             f"got {self.impurity!r}")
        for name in ("n_restarts", "n_random_jumps"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Integral) or value < (name == "n_restarts"):
                raise ValueError(f"{name} must be an integer of at least "
                                 f"{int(name == 'n_restarts')}, got {value!r}")
        if self.coefficient_order not in COEFFICIENT_ORDERS:
            raise ValueError(f"coefficient_order must be one of {COEFFICIENT_ORDERS}, "
                             f"got {self.coefficient_order!r}")
        if self.split_mode not in SPLIT_MODES:
            raise ValueError(f"split_mode must be one of {SPLIT_MODES}, "
                             f"got {self.split_mode!r}")
        for name, low, high in (("axis_parallel_bias", 0, np.inf),
                                ("oblique_rows_per_feature", 0, np.inf)):
            value = getattr(self, name)
            if not isinstance(value, numbers.Real) or not low <= value <= high:
                raise ValueError(f"{name} must be a number in [{low}, {high}], "
                                 f"got {value!r}")

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback):
        last_fraction = [0.0]

        def report(fraction):
            last_fraction[0] = fraction
            progress_callback(fraction)

        def heartbeat():
            progress_callback(last_fraction[0])

        def grow(X, y, sample_weight):
            splitter = OC1Splitter(
                X, y, sample_weight, len(self.classes_), self.impurity, self.n_restarts,
                self.n_random_jumps, self.coefficient_order, self.axis_parallel_bias,
                self.oblique_rows_per_feature, self.split_mode, random_state,
                heartbeat if progress_callback is not None else None)
            return grow_tree(X, y, sample_weight, len(self.classes_), splitter, None,
                             self.max_depth, self.min_samples_split,
                             report if progress_callback is not None else None)

        return self._grow_and_prune(X, y, sample_weight, random_state, grow)
