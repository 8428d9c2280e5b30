"""One tree structure for every oblique learner.

A fitted tree is an :class:`ObliqueTree`: flat per-node arrays plus one
:class:`~orangecontrib.oblique.core.tree.splits.Split` per internal node.  What a split of each
kind means -- which child a row goes to (the routing convention), what its branches say,
its geometry -- is stated once, in :mod:`orangecontrib.oblique.core.tree.splits`.  Learners
only *propose* splits; growing (:func:`grow_tree`), routing (rows with missing values
included), prediction, rule text and pruning are shared.
"""
import numpy as np
from scipy import sparse

from . import calibration, class_counts, importances, rules, walk
from .class_counts import MANY_CLASSES
from .importances import SplitStatistics
from .splits import Split

# MANY_CLASSES, SplitStatistics and Split (the tree's splits) are imported from here too
__all__ = ["ObliqueTree", "GrowthWarning", "grow_tree", "route_top_down", "walk_top_down",
           "name_member_trees", "member_stop_nodes", "MANY_CLASSES", "SplitStatistics",
           "Split"]

_TINY = float(np.finfo(float).tiny)


class GrowthWarning(UserWarning):
    """Warned by a core estimator when its tree could not grow as the data might lead a
    user to expect (for example a single leaf for lack of rows); the Orange learners show
    it in the widget."""


class ObliqueTree:
    """A fitted classification tree; node 0 is the root.

    Attributes
    ----------
    n_features, n_classes : int
    splits : list of Split or None
        The split of every node; ``None`` for a leaf.
    children : list of tuple of int
        Child node ids in the order of the split's child positions; ``()`` for a leaf.
    parent : ndarray of int, shape (node_count,)
        Parent id, ``-1`` for the root.
    node_depth : ndarray of int, shape (node_count,)
    value : ndarray of float, shape (node_count, n_classes)
        (Weighted) class counts of the training rows that reached the node; the counts of
        the children of a node sum to the node's counts.
    n_node_samples : ndarray of int, shape (node_count,)
        Number of training rows that reached the node.
    proba : ndarray of float, shape (node_count, n_classes)
        Class distribution predicted at the node: ``value`` normalised, or, for a node
        that no training row reached, the distribution of its nearest non-empty ancestor.
    feature_names : list of str or None
        The names :meth:`export_text` writes by default (``None``: ``x1 .. xd``); an
        ensemble fitted on a data frame gives its member trees the column names.
    """

    def __init__(self, n_features, n_classes, splits, children, parent, value,
                 n_node_samples):
        self.feature_names = None
        self.n_features = int(n_features)
        self.n_classes = int(n_classes)
        self.splits = list(splits)
        self.children = [tuple(map(int, ch)) for ch in children]
        self.parent = np.asarray(parent, dtype=np.intp)
        # class counts kept sparse as grown (grow_tree's compact_counts): read as
        # compact_class_counts leaves them, or made dense where that would keep them so
        compact = sparse.issparse(value) and class_counts.compact_grown_counts(self, value)
        if not compact:
            value = value.toarray() if sparse.issparse(value) else value
            self.value = np.asarray(value, dtype=float).reshape(-1, self.n_classes)
        self.n_node_samples = np.asarray(n_node_samples, dtype=np.intp)
        node_count = len(self.splits)
        if not (len(self.children) == len(self.parent) == self.value.shape[0]
                == len(self.n_node_samples) == node_count):
            raise ValueError("per-node arrays must all have one entry per node")
        expected = [0 if split is None else split.children_expected
                    for split in self.splits]
        if expected != [len(kids) for kids in self.children]:
            node = next(node for node, (count, kids) in enumerate(zip(expected, self.children))
                        if count != len(kids))
            raise ValueError(f"node {node}: split and children do not agree")
        if np.any(self.parent[1:] >= np.arange(1, node_count)) or (
                node_count and self.parent[0] != -1):
            raise ValueError("node 0 must be the root and every parent id below its child's")
        # Parents precede children, so one pass in id order fills depth and proba.
        parent = self.parent.tolist()
        depth = [0] * node_count
        for node in range(1, node_count):
            depth[node] = depth[parent[node]] + 1
        self.node_depth = np.array(depth, dtype=np.intp)
        if compact:
            return
        totals = self.value.sum(axis=1, keepdims=True)
        self.proba = np.divide(self.value, totals, out=np.full_like(self.value, np.nan),
                               where=totals > 0)
        for node in np.flatnonzero(totals[:, 0] <= 0):
            self.proba[node] = (self.proba[parent[node]] if node > 0
                                else np.full(self.n_classes, 1.0 / self.n_classes))

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_flat", None)  # made again on first use (a tree of any version)
        return state

    def __setstate__(self, state):
        # a tree pickled before its splits kept whether their node's training rows had
        # missing values (Split.missing_in_training): such a row went down several
        # branches, so the children's rows outnumber the node's
        self.__dict__.update(state)
        for node, split in enumerate(self.splits):
            if split is not None and split.routes_by_weight:
                split.learn_missing_in_training(
                    self.n_node_samples[node],
                    self.n_node_samples[list(self.children[node])].sum())

    # ----- shape of the tree -----
    @property
    def node_count(self):
        return len(self.splits)

    @property
    def is_leaf(self):
        """Boolean array, True for the leaves."""
        return np.array([s is None for s in self.splits], dtype=bool)

    @property
    def n_leaves(self):
        return int(self.is_leaf.sum())

    @property
    def depth(self):
        """Length of the longest root-to-leaf path (0 for a lone root)."""
        return int(self.node_depth.max()) if self.node_count else 0

    def preorder(self, node=0):
        """Node ids, parents before children, children in branch order."""
        stack = [node]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(self.children[node]))

    def leaves(self, node=0):
        """Ids of the leaves of the subtree rooted at ``node``."""
        return [n for n in self.preorder(node) if self.splits[n] is None]

    def path(self, node):
        """Node ids from the root down to ``node``."""
        path = [node]
        while self.parent[path[-1]] >= 0:
            path.append(int(self.parent[path[-1]]))
        return path[::-1]

    # ----- routing -----
    @property
    def flat(self):
        """The tree in the compiled walk's flat arrays (:class:`.walk.FlatTrees`), made
        on first use and kept; made again only when a split has changed (calibration
        gives a split its printed numbers after growing)."""
        signature = [None if split is None else
                     (split, split.kind, split.weights, split.bias, split.centres,
                      split.branch_values, getattr(split, "digits", None))
                     for split in self.splits]
        kept = self.__dict__.get("_flat")
        if kept is None or len(kept[1]) != len(signature) or not all(
                old is new or (old is not None and new is not None
                               and all(a is b for a, b in zip(old, new)))
                for old, new in zip(kept[1], signature)):
            kept = (walk.FlatTrees.of_tree(self.splits, self.children), signature)
            self._flat = kept
        return kept[0]

    def route(self, X):
        """Rows reaching every node, and the node where each row stops.

        A row follows the routing convention of :mod:`~orangecontrib.oblique.core.tree.splits`
        down to a leaf; a row with a missing value (NaN or ±inf) in a feature that a split
        on its path uses stops at that split's node, as in Orange's own trees (the
        prediction there is the node's class distribution).  The rows' paths are those
        of :meth:`apply` (the compiled walk).

        Returns
        -------
        reached : list of ndarray
            ``reached[node]``: indices of the rows that pass through ``node``, ascending.
        stop : ndarray of int, shape (n_rows,)
            The node where each row stops: a leaf, or a node whose split it cannot
            evaluate.
        """
        stop = self.apply(X)
        reached = [np.empty(0, dtype=np.intp)] * self.node_count
        for node, rows in self._walk(X, stop):
            reached[node] = rows
        return reached, stop

    def _walk(self, X, stop=None):
        """``(node, rows)`` for every node, parents before children: the rows of ``X``
        that reach it, ascending -- those that stop in its subtree (:meth:`apply`, or
        ``stop`` if known).  Nothing is kept of a node once it is yielded: memory
        O(rows + nodes) at any depth."""
        stop = self.apply(X) if stop is None else stop
        order = list(self.preorder())
        first = np.empty(self.node_count, dtype=np.intp)  # a subtree: a preorder range
        first[order] = np.arange(len(order))
        size = np.ones(self.node_count, dtype=np.intp)
        for node in reversed(order):
            if self.parent[node] >= 0:
                size[self.parent[node]] += size[node]
        keys = first[stop]
        by_key = np.argsort(keys, kind="stable")
        keys = keys[by_key]
        for node in order:
            low, high = np.searchsorted(keys, [first[node], first[node] + size[node]])
            yield node, np.sort(by_key[low:high])

    def apply(self, X):
        """Node id where every row of ``X`` (shape (n_rows, n_features)) stops: its leaf,
        or for a row with a missing value the node that needs it (see :meth:`route`).
        One compiled walk of every row (:func:`.walk.stop_nodes`)."""
        X = X.toarray() if sparse.issparse(X) else X
        return np.asarray(walk.stop_nodes(self.flat, np.asarray(X, dtype=float))[0],
                          dtype=np.intp)

    def calibrate_text(self, X):
        """Make every split's rule text exact for the training rows ``X``; returns
        ``self`` (:func:`.calibration.calibrate_text`)."""
        return calibration.calibrate_text(self, X)

    def calibrate_text_and_scales(self, X, sample_weight):
        """:meth:`calibrate_text` and :meth:`store_feature_scales` in one pass
        (:func:`.calibration.calibrate_text_and_scales`)."""
        return calibration.calibrate_text_and_scales(self, X, sample_weight)

    def decision_path(self, X):
        """Sparse indicator matrix (n_rows, node_count): the nodes each row passes.

        Built from every row's own path (its stop node and the parents above it, node ids
        ascending from the root), so its size is the total length of the rows' paths."""
        return self._paths(self.apply(X))

    def _paths(self, stop):
        """:meth:`decision_path` of rows that stop at the nodes ``stop``."""
        length = self.node_depth[stop] + 1
        indptr = np.zeros(len(stop) + 1, dtype=np.intp)
        np.cumsum(length, out=indptr[1:])
        indices = np.empty(indptr[-1], dtype=np.intp)
        # one step up per level, for the rows whose path reaches that far
        nodes, slots = stop, indptr[1:] - 1
        while nodes.size:
            indices[slots] = nodes
            above = nodes > 0
            nodes, slots = self.parent[nodes[above]], slots[above] - 1
        return sparse.csr_matrix((np.ones(len(indices), dtype=np.intp), indices, indptr),
                                 shape=(len(stop), self.node_count))

    @property
    def routes_by_weight(self):
        """Whether a split sends rows with missing values down its branches by weight
        (:attr:`~.splits.Split.missing_shares`, C4.5's fractional routing)."""
        return any(split is not None and split.routes_by_weight for split in self.splits)

    def weighted_walk(self, X, sample_weight=None):
        """``(node, rows, weights, stopped)`` for every node reached, parents before
        children: the rows of ``X`` reaching it (ascending), their weights there (a row
        sent down every branch of a split by weight carries its share; ``sample_weight``
        at the root, default 1) and whether they end there (at a leaf, or stopped at a
        split that cannot route them, :meth:`~.splits.Split.route_by_weight`)."""
        X = np.asarray(X, dtype=float)
        weights = (np.ones(X.shape[0]) if sample_weight is None
                   else np.asarray(sample_weight, dtype=float))
        stack = [(0, np.arange(X.shape[0]), weights)]
        while stack:
            node, rows, weights = stack.pop()
            split = self.splits[node]
            if split is None:
                yield node, rows, weights, np.ones(rows.size, dtype=bool)
                continue
            parts, stopped = split.route_by_weight(X[rows], rows, weights)
            yield node, rows, weights, np.isin(rows, stopped)
            for child, (child_rows, child_weights) in reversed(
                    list(zip(self.children[node], parts))):
                if child_rows.size:
                    stack.append((child, child_rows, child_weights))

    def stop_weights(self, X):
        """Sparse (n_rows, node_count): the share of every row that ends at every node --
        one node per row (:meth:`apply`) unless a split sends rows with missing values
        down its branches by weight; every row's shares sum to 1."""
        X = np.asarray(X, dtype=float)
        if np.isfinite(X).all() or not self.routes_by_weight:
            stop = self.apply(X)
            return sparse.csr_matrix((np.ones(len(stop)), (np.arange(len(stop)), stop)),
                                     shape=(len(stop), self.node_count))
        rows, nodes, shares = [], [], []
        for node, reaching, weights, ends in self.weighted_walk(X):
            rows.append(reaching[ends])
            nodes.append(np.full(np.count_nonzero(ends), node))
            shares.append(weights[ends])
        return sparse.csr_matrix((np.concatenate(shares),
                                  (np.concatenate(rows), np.concatenate(nodes))),
                                 shape=(X.shape[0], self.node_count))

    def predict_proba(self, X, stop=None):
        """The class distribution of the node where each row ends; a row sent down
        several branches by weight gets the weighted mix of theirs (C4.5).  ``stop``:
        the rows' nodes if known (:meth:`apply`; an ensemble walks all its trees at
        once, :func:`member_stop_nodes`)."""
        X = X.toarray() if sparse.issparse(X) else np.asarray(X, dtype=float)
        stop = self.apply(X) if stop is None else stop
        proba = self.node_proba(stop)
        if self.routes_by_weight:
            # the rows of a missing value a split needs (they stop at a split) go down
            # by weight; one of a missing value no split on its path uses ends at its
            # leaf with all its weight
            at_split = np.flatnonzero(self.flat.kind[stop] != walk.LEAF)
            missing = at_split[~np.isfinite(X[at_split]).all(axis=1)]
            if missing.size:
                proba[missing] = np.asarray(self.stop_weights(X[missing])
                                            @ self.node_proba(np.arange(self.node_count)))
        return proba

    def node_proba(self, nodes):
        """The class distributions predicted at ``nodes`` (ids), one row each: rows of
        :attr:`proba`, also of a tree whose counts are kept sparse
        (:meth:`compact_class_counts`)."""
        if not sparse.issparse(self.proba):
            return np.take(self.proba, nodes, axis=0)  # (a gather faster than [nodes])
        source = getattr(self, "proba_source", None)
        return self.proba[nodes if source is None else source[nodes]].toarray()

    # ----- class counts of many classes -----
    def compact_class_counts(self):
        """Keep the class counts of a tree of many classes sparse
        (:func:`.class_counts.compact_class_counts`); returns ``self``."""
        return class_counts.compact_class_counts(self)

    def with_dense_class_counts(self):
        """``self``, or a shallow copy with dense class counts
        (:func:`.class_counts.with_dense_class_counts`)."""
        return class_counts.with_dense_class_counts(self)

    # ----- editing -----
    def recounted(self, X, y, sample_weight, n_classes=None):
        """A new tree with the same splits and the class counts of the rows ``X, y`` (class
        codes) routed through it, e.g. all training rows after pruning on held-out ones.
        One pass down the tree; memory O(rows + nodes)."""
        n_classes = self.n_classes if n_classes is None else n_classes
        y = np.asarray(y, dtype=np.intp)
        sample_weight = np.asarray(sample_weight, dtype=float)
        n_node_samples = np.zeros(self.node_count, dtype=np.intp)
        if sparse.issparse(self.value) and not self.routes_by_weight:
            return self._recounted_sparse(X, y, sample_weight, n_classes, n_node_samples)
        value = np.zeros((self.node_count, n_classes))
        if self.routes_by_weight:
            # C4.5's fractional rows; a split's shares become those of the known rows
            # now reaching it (J48 redistributes a raised subtree's rows so)
            X = np.asarray(X, dtype=float)
            splits = list(self.splits)
            stack = [(0, np.arange(X.shape[0]), sample_weight)]
            while stack:
                node, rows, weights = stack.pop()
                value[node] = np.bincount(y[rows], weights=weights, minlength=n_classes)
                n_node_samples[node] = rows.size
                split = splits[node]
                if split is None:
                    continue
                split = splits[node] = split.resharing(X[rows], weights)
                parts, _ = split.route_by_weight(X[rows], rows, weights)
                for child, (child_rows, child_weights) in zip(self.children[node], parts):
                    if child_rows.size:
                        stack.append((child, child_rows, child_weights))
            return ObliqueTree(self.n_features, n_classes, splits, self.children,
                               self.parent, value, n_node_samples)
        for node, rows in self._walk(X):
            # the rows in ascending order, as grow_tree counts them
            value[node] = np.bincount(y[rows], weights=sample_weight[rows],
                                      minlength=n_classes)
            n_node_samples[node] = rows.size
        return ObliqueTree(self.n_features, n_classes, self.splits, self.children,
                           self.parent, value, n_node_samples)

    def _recounted_sparse(self, X, y, sample_weight, n_classes, n_node_samples):
        """:meth:`recounted` of a tree whose counts are kept sparse (many classes): every
        node's counts of its classes present only (the same sums, row by row in
        ascending order), never nodes × classes numbers."""
        present = [np.zeros(0, dtype=np.intp)] * self.node_count
        counts = [np.zeros(0)] * self.node_count
        for node, rows in self._walk(X):
            classes, codes = np.unique(y[rows], return_inverse=True)
            present[node] = classes
            counts[node] = np.bincount(codes.ravel(), weights=sample_weight[rows],
                                       minlength=classes.size)
            n_node_samples[node] = rows.size
        indptr = np.zeros(self.node_count + 1, dtype=np.intp)
        indptr[1:] = np.cumsum([classes.size for classes in present])
        value = sparse.csr_matrix((np.concatenate(counts), np.concatenate(present), indptr),
                                  shape=(self.node_count, n_classes))
        return ObliqueTree(self.n_features, n_classes, self.splits, self.children,
                           self.parent, value, n_node_samples)

    def pruned(self, collapse):
        """A new tree in which every node in ``collapse`` becomes a leaf.

        Node ids are renumbered in preorder; the per-node statistics are kept.
        """
        collapse = set(int(c) for c in collapse)
        old_ids = []
        stack = [0]
        while stack:
            node = stack.pop()
            old_ids.append(node)
            if node not in collapse:
                stack.extend(reversed(self.children[node]))
        new_id = {old: new for new, old in enumerate(old_ids)}
        splits, children, parent = [], [], []
        for old in old_ids:
            if old in collapse or self.splits[old] is None:
                splits.append(None)
                children.append(())
            else:
                splits.append(self.splits[old])
                children.append(tuple(new_id[c] for c in self.children[old]))
            parent.append(new_id[self.parent[old]] if self.parent[old] >= 0 else -1)
        return ObliqueTree(self.n_features, self.n_classes, splits, children, parent,
                           self.value[old_ids], self.n_node_samples[old_ids])

    # ----- text -----
    def export_text(self, feature_names=None, class_names=None, decimals=3,
                    show_counts=True, value_names=None, indicators=None):
        """The tree as indented text, every branch with its test in raw feature units
        (:func:`.rules.export_text`)."""
        return rules.export_text(self, feature_names, class_names, decimals, show_counts,
                                 value_names, indicators)

    # ----- what the splits use -----
    def store_feature_scales(self, X, sample_weight=None):
        """Keep every split's feature scales over the rows ``X`` in
        :attr:`feature_scales` (:func:`.calibration.store_feature_scales`)."""
        return calibration.store_feature_scales(self, X, sample_weight)

    def feature_importances(self, scale=None):
        """Mean-decrease-in-impurity importance of every feature, summing to 1
        (:func:`.importances.feature_importances`)."""
        return importances.feature_importances(self, scale)

    def split_statistics(self):
        """How oblique the tree is (:func:`.importances.split_statistics`)."""
        return importances.split_statistics(self)


def route_top_down(n_rows, children, positions):
    """Send ``n_rows`` rows down a tree from node 0, one vectorised step per node
    (:func:`walk_top_down`), keeping the rows that reach every node.  Returns
    ``(reached, stop)`` as :meth:`ObliqueTree.route` does.  (The kept rows take the
    total length of the rows' paths: rows × depth on a deep tree.)
    """
    reached = [np.empty(0, dtype=np.intp)] * len(children)
    stop = np.zeros(n_rows, dtype=np.intp)
    for node, rows in walk_top_down(n_rows, children, positions, stop):
        reached[node] = rows
    return reached, stop


def walk_top_down(n_rows, children, positions, stop=None):
    """Send ``n_rows`` rows down a tree from node 0, one vectorised step per node, and
    yield ``(node, rows)`` for every node, parents before children: ``rows`` the
    ascending indices of the rows that reach it.

    ``children[node]`` are the node's children in branch order (empty for a leaf);
    ``positions(node, rows)`` gives, for the row indices ``rows`` reaching an internal
    node, the branch each takes, or ``-1`` for a row that stops at the node.  ``stop``
    (an int array of ``n_rows``), if given, receives the node where each row stops.
    Nothing is kept of a node once its children have their rows: the rows waiting
    below are disjoint, so memory is O(rows + nodes) at any depth.
    """
    stack = [(0, np.arange(n_rows))]
    while stack:
        node, rows = stack.pop()
        yield node, rows
        if not children[node] or rows.size == 0:
            if stop is not None:
                stop[rows] = node
            continue
        position = positions(node, rows)
        if stop is not None:
            stop[rows[position < 0]] = node
        for child_position, child in enumerate(children[node]):
            stack.append((child, rows[position == child_position]))


def name_member_trees(ensemble):
    """Give the trees of ``ensemble``'s members (``estimators_``) the column names it was
    fitted on (its ``feature_names_in_``, a data frame's), for their texts
    (:attr:`ObliqueTree.feature_names`); without names, the default ``x1 .. xd``.  (The
    members keep no ``feature_names_in_``: the ensemble gives them validated arrays.)"""
    names = getattr(ensemble, "feature_names_in_", None)
    for member in ensemble.estimators_:
        tree = getattr(member, "tree_", None)
        if isinstance(tree, ObliqueTree):
            tree.feature_names = None if names is None else [str(n) for n in names]


def member_stop_nodes(members, X):
    """The node where every row of ``X`` (validated dense rows) stops in the tree of
    every member of an ensemble (``tree_``, an :class:`ObliqueTree`; None for a member
    without one), as its :meth:`ObliqueTree.apply` of its rows
    (``unseen_codes_as_missing``) gives it: the trees that take the rows as they are
    in one compiled walk (their flat arrays concatenated), the others one by one."""
    X = np.asarray(X, dtype=float)
    stops = [None] * len(members)
    together = []
    for index, member in enumerate(members):
        tree = getattr(member, "tree_", None)
        if not isinstance(tree, ObliqueTree):
            continue
        rows = member.unseen_codes_as_missing(X)
        if rows is X:
            together.append(index)
        else:
            stops[index] = tree.apply(rows)
    if together:
        flat = walk.FlatTrees.concatenated([members[i].tree_.flat for i in together])
        nodes = walk.stop_nodes(flat, X)
        for t, index in enumerate(together):  # every tree's own node ids
            stops[index] = np.asarray(nodes[t] - flat.roots[t], dtype=np.intp)
    return stops


def _add_children(node, split, child_rows, child_counts, n_classes, splits, children,
                  parent, value, n_samples, stack, depth):
    """:func:`grow_tree`'s bookkeeping of a node split into ``child_rows`` (their class
    counts the rows of ``child_counts``): the children's entries, and the
    non-empty ones on the stack, the first child to be grown first."""
    first = len(splits)
    kids = tuple(range(first, first + len(child_rows)))
    for p, kid_rows in enumerate(child_rows):
        splits.append(None)
        children.append(())
        parent.append(node)
        value.append(child_counts[p])
        n_samples.append(kid_rows.size)
    splits[node] = split
    children[node] = kids
    for kid, kid_rows in zip(reversed(kids), reversed(child_rows)):
        if kid_rows.size:
            stack.append((kid, kid_rows, depth + 1))


def grow_tree(X, y, sample_weight, n_classes, propose_split, should_stop=None,
              max_depth=None, min_samples_split=2, progress_callback=None,
              missing_by_weight=False, compact_counts=False):
    """Grow a tree top-down; the learner supplies only ``propose_split``.

    Parameters
    ----------
    X : ndarray (n_rows, n_features), raw features
    y : ndarray of int codes in ``[0, n_classes)``
    sample_weight : ndarray (n_rows,), positive weights
    propose_split : callable(rows, counts, depth) -> Split or None
        ``rows`` indexes ``X`` (the node's training rows), ``counts`` their weighted class
        counts.  ``None`` makes the node a leaf.
    should_stop : callable(counts, parent_counts, depth) -> bool, optional
        A learner's own stopping rule; ``parent_counts`` is ``None`` at the root.
    max_depth : int or None
    min_samples_split : int
        A node with fewer rows is a leaf.
    progress_callback : callable(fraction) or None
        Called after every node with the fraction of rows that have reached a leaf; it may
        raise an exception to abandon the fit (a widget cancelling a background fit).
    compact_counts : bool
        Keep every node's class counts, once it is settled, as its classes present only,
        and give the tree a CSR matrix of them (:meth:`ObliqueTree.compact_class_counts`
        without the dense counts first): with thousands of classes, memory and time that
        grow with the nodes' classes present, not with nodes × classes.

    missing_by_weight : bool
        C4.5's handling of missing values (Quinlan 1993, ch. 3): ``X`` may hold NaN, every
        split gets :attr:`~.splits.Split.missing_shares` (the shares of its branches in
        the weight of the node's rows of known value), and a row with a missing value in
        a split's features goes down every branch with its weight times the branch's
        share; ``propose_split`` is then called as ``(rows, counts, depth, weights)``,
        ``weights`` the rows' weights at the node (see :func:`_grow_by_weight`).

    A node is a leaf when it is pure, too small, at ``max_depth``, when ``should_stop``
    says so, or when its proposed split leaves fewer than two non-empty children (a split
    that separates nothing; one of no weight on its rows).  A split of vanishing weights
    is given ordinary numbers first (:meth:`~.splits.Split.restore_scale`), whichever
    algorithm proposed it.
    """
    if missing_by_weight:
        return _grow_by_weight(X, y, sample_weight, n_classes, propose_split, should_stop,
                               max_depth, min_samples_split, progress_callback)
    splits, children, parent, value, n_samples = [], [], [], [], []
    n_rows = X.shape[0]
    smallest = max(min_samples_split, 2)
    # (a hyperplane's kind partitions the rows by the compiled kernels)
    rows_X = np.ascontiguousarray(X, dtype=float)
    codes = np.ascontiguousarray(y, dtype=np.intp)
    row_weights = np.ascontiguousarray(sample_weight, dtype=float)
    # the root's class counts; a split's children's come from one bincount of the node's
    # rows keyed by child and class: every count the sum of its rows' weights in
    # ascending order, as a bincount of the child's own rows adds them
    splits.append(None)
    children.append(())
    parent.append(-1)
    value.append(np.bincount(y, weights=sample_weight, minlength=n_classes))
    n_samples.append(n_rows)
    stack = [(0, np.arange(n_rows), 0)]
    settled = 0
    while stack:
        node, rows, depth = stack.pop()
        if progress_callback is not None:
            progress_callback(settled / n_rows)
        counts = value[node]
        if compact_counts:  # dense while on the stack only
            present = np.flatnonzero(counts)
            value[node] = (present, counts[present])
        settled += rows.size  # undone below when the node is split
        if (rows.size < smallest
                or np.count_nonzero(counts) < 2
                or (max_depth is not None and depth >= max_depth)
                or (should_stop is not None and should_stop(
                    counts, _dense_counts(value[parent[node]], n_classes)
                    if parent[node] >= 0 else None, depth))):
            continue
        split = propose_split(rows, counts, depth)
        if split is None or not split.restore_scale(rows_X, rows):
            continue  # (a split of no weight)
        child_rows, child_counts = split.kind.partition(split, rows_X, rows, codes,
                                                        row_weights, n_classes)
        if sum(1 for r in child_rows if r.size) < 2:
            continue  # a split that separates nothing
        settled -= rows.size
        if len(child_rows) == 2:  # _add_children of the two, written out
            first = len(splits)
            splits[node] = split
            children[node] = (first, first + 1)
            splits += (None, None)
            children += ((), ())
            parent += (node, node)
            value += (child_counts[0], child_counts[1])
            n_samples += (child_rows[0].size, child_rows[1].size)
            stack.append((first + 1, child_rows[1], depth + 1))
            stack.append((first, child_rows[0], depth + 1))
            continue
        _add_children(node, split, child_rows, child_counts, n_classes, splits, children,
                      parent, value, n_samples, stack, depth)
    if progress_callback is not None:
        progress_callback(1.0)
    if compact_counts:
        indptr = np.zeros(len(value) + 1, dtype=np.intp)
        indptr[1:] = np.cumsum([present.size for present, _ in value])
        value = sparse.csr_matrix(
            (np.concatenate([counts for _, counts in value]),
             np.concatenate([present for present, _ in value]), indptr),
            shape=(len(value), n_classes))
    return ObliqueTree(X.shape[1], n_classes, splits, children, parent, value, n_samples)


def _grow_by_weight(X, y, sample_weight, n_classes, propose_split, should_stop, max_depth,
                    min_samples_split, progress_callback):
    """:func:`grow_tree` with C4.5's fractional rows: a node holds row indices and their
    weights there; a split's rows of known value go to their branches, the others to
    every branch with their weight times the branch's share of the known rows' weight
    (:meth:`~.splits.Split.route_by_weight`).  A node's class counts are its rows'
    weights, its ``n_node_samples`` the rows reaching it (fractional ones included)."""
    X = np.ascontiguousarray(X, dtype=float)  # one layout for the kernels
    y = np.asarray(y, dtype=np.intp)
    sample_weight = np.asarray(sample_weight, dtype=float)
    splits, children, parent, value, n_samples = [None], [()], [-1], [], [X.shape[0]]
    value.append(np.bincount(y, weights=sample_weight, minlength=n_classes))
    smallest = max(min_samples_split, 2)
    total_weight = max(float(sample_weight.sum()), _TINY)
    stack = [(0, np.arange(X.shape[0]), sample_weight, 0)]
    settled = 0.0
    while stack:
        node, rows, weights, depth = stack.pop()
        if progress_callback is not None:
            progress_callback(min(settled / total_weight, 1.0))
        counts = value[node]
        settled += float(weights.sum())
        if (rows.size < smallest or np.count_nonzero(counts) < 2
                or (max_depth is not None and depth >= max_depth)
                or (should_stop is not None and should_stop(
                    counts, value[parent[node]] if parent[node] >= 0 else None, depth))):
            continue
        split = propose_split(rows, counts, depth, weights)
        if split is None or not split.restore_scale(X, rows):
            continue  # (a split of no weight)
        block = X[rows]
        if split.share_missing(block, weights) < 2:
            continue  # a split that separates nothing
        parts, _ = split.route_by_weight(block, rows, weights)
        settled -= float(weights.sum())
        first = len(splits)
        for child_rows, child_weights in parts:
            splits.append(None)
            children.append(())
            parent.append(node)
            value.append(np.bincount(y[child_rows], weights=child_weights,
                                     minlength=n_classes))
            n_samples.append(child_rows.size)
        splits[node] = split
        children[node] = tuple(range(first, first + len(parts)))
        for kid, (child_rows, child_weights) in reversed(list(zip(children[node], parts))):
            if child_rows.size:
                stack.append((kid, child_rows, child_weights, depth + 1))
    if progress_callback is not None:
        progress_callback(1.0)
    return ObliqueTree(X.shape[1], n_classes, splits, children, parent, value, n_samples)


def _dense_counts(counts, n_classes):
    """A node's class counts as :func:`grow_tree` keeps them, dense."""
    if not isinstance(counts, tuple):
        return counts
    dense = np.zeros(n_classes)
    dense[counts[0]] = counts[1]
    return dense
