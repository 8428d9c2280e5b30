"""How a split reads in an Orange domain: the texts of the Orange model and of the viewer.

:class:`SplitPresenter` renders one tree's splits in the words of a domain -- attribute
names, nominal value names, class names, clusters -- from the splits' structured
conditions (:meth:`Split.conditions`), through the renderers of
:mod:`orangecontrib.oblique.core.tree.rules`.  The Orange model
(:class:`~orangecontrib.oblique.learners.ObliqueTreeModel`) builds its node texts with it
and the Oblique Tree Viewer its rules, paths and tooltips, so both always say the same.
The terms of every hyperplane of one tree are listed in one order, by the attributes'
importance in the tree, so that nodes can be compared.  The viewer may also show a split
over standardised attributes (``z(age) = (age − mean) / SD``, weights per standard
deviation); the Orange model's texts are always in raw units.  Names are written as
:func:`~orangecontrib.oblique.core.tree.rules.printable_name` writes them (a name with a line
break in it escaped, inside quotes).  No Qt here.
"""
import re
from html import escape
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from Orange.preprocess.impute import ReplaceUnknowns
from Orange.preprocess.transformation import Identity, Indicator

from .core.tree.rules import (Vocabulary, condition_text, edge_text, format_significant,
                              quantity_text, term_texts, with_missing)
from .core.tree.splits import DIGITS

__all__ = ["DisplayTree", "SplitPresenter", "SplitLabel", "Coefficients", "BOX_TERMS",
           "BOX_LINE_CHARS", "BOX_MAX_CHARS"]

#: A node box in Orange's Tree Viewer is 150 px wide by default (its *Width* slider, 50 to
#: 200 px) and clips its text, so a hyperplane shows only its first terms, wrapped at term
#: boundaries onto lines of at most BOX_LINE_CHARS characters; a term longer than that has
#: a line of its own, a term longer than the default box (BOX_MAX_CHARS, about 150 px of
#: the viewer's font) breaks after its coefficient (``0.2194·`` / ``major vessels…``), and
#: only a name or coefficient longer than that is shortened, at its end, with "…".  The
#: tooltip has the whole rule.
BOX_TERMS = 4
BOX_LINE_CHARS = 16
BOX_MAX_CHARS = 17


class SplitLabel:
    """What an internal node tests; stands in for the split attribute of Orange's nodes.

    Attributes
    ----------
    name : str
        HTML shown in the node box: the largest terms of the hyperplane, wrapped onto
        several lines with ``<br/>``.
    text : str
        The same quantity as plain text with every term.
    """

    def __init__(self, name, text):
        self.name = name
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"SplitLabel({self.text!r})"


class Coefficients(NamedTuple):
    """The weights of a hyperplane's terms, by importance, in the units of its text."""
    #: the attributes' names
    names: list
    #: the weights: per unit of each attribute, or per standard deviation (``per_sd``)
    values: np.ndarray
    #: the weights as the rule prints them
    texts: list
    per_sd: bool


class SplitPresenter:
    """Texts of the splits of one tree over one domain.

    Terms are listed in one order for the whole tree, by the attributes' importance in the
    tree (``importances``, e.g. the estimator's ``feature_importances_``; ties and unused
    attributes by name), so that the hyperplanes of different nodes can be compared term
    by term and a hyperplane shortened to its first terms keeps the ones that matter.
    Without importances (a model pickled before they existed) every split lists its terms
    by ``|w_j| · std(x_j)`` over the training rows.  Branches are
    named in the domain's own words: a nominal test reads ``chest pain = asymptomatic``
    and ``chest pain ≠ asymptomatic`` (value names, not codes), the branches of an argmax
    split carry class names, and those of a nearest-centre split read ``cluster 1`` ..
    ``cluster k``.

    Parameters
    ----------
    variables : sequence of Orange variables
        The attributes of the (preprocessed) domain, one per column of the tree's features.
    feature_std : array of float
        Standard deviation of every column over the training rows.
    class_values : sequence of str, optional
        Names of the class variable's values.
    tree_classes : sequence of int, optional
        The class value index of every class code of the tree (the estimator's
        ``classes_``; default: the identity).
    importances : array of float, optional
        Importance of every column in the tree: the order of the terms of every split.
    feature_mean : array of float, optional
        Mean of every column over the training rows, for the texts over standardised
        attributes (``per_sd``).
    rows : array, optional
        The training rows (raw units, one column per feature): the numbers of a split over
        standardised attributes get the fewest significant digits with which its printed
        condition, applied to ``z = (x − mean) / SD`` of these rows, routes every one of
        them as the model does.

    Every text method takes ``per_sd``: ``False`` writes the split in the attributes' own
    units; ``True`` over standardised attributes, ``Σ (w_j·sd_j)·z(x_j) ≥ t − Σ w_j·mean_j``,
    each attribute written ``z(name)``.  A nominal test (``= value``) reads the same in
    both; an attribute that is constant on the training rows (``sd = 0``) joins the
    constant.
    """

    def __init__(self, variables, feature_std, class_values=None, tree_classes=None,
                 importances=None, feature_mean=None, rows=None):
        self.variables = list(variables)
        self.names = [variable.name for variable in self.variables]
        self.std = np.asarray(feature_std, dtype=float)
        self.mean = (np.zeros(len(self.names)) if feature_mean is None
                     else np.nan_to_num(np.asarray(feature_mean, dtype=float)))
        self.tree_order = self._tree_order(importances)
        classes = None
        if class_values is not None:
            codes = (range(len(class_values)) if tree_classes is None
                     else [int(c) for c in tree_classes])
            classes = [class_values[c] for c in codes]
        values = [list(v.values) if v.is_discrete else None for v in self.variables]
        self.vocabulary = Vocabulary(self.names, classes=classes, cluster="cluster {}",
                                     values=values,
                                     indicators=indicator_columns(self.variables))
        self.z_vocabulary = Vocabulary([f"z({name})" for name in self.vocabulary.features],
                                       classes=classes, cluster="cluster {}", values=values)
        self.rows = None if rows is None else np.asarray(rows, dtype=float)
        self._standardised = {}

    def without_cache(self):
        """A copy without the standardised splits made so far (for pickling)."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, _standardised={})
        return copy

    def _tree_order(self, importances):
        """Feature indices by importance in the tree, ties by name; None without usable
        importances."""
        if importances is None:
            return None
        importances = np.asarray(importances, dtype=float).reshape(-1)
        if importances.shape != (len(self.names),) or not np.all(np.isfinite(importances)):
            return None
        return np.array(sorted(range(len(self.names)),
                               key=lambda j: (-importances[j], self.names[j], j)), dtype=int)

    def order(self, weights):
        """Feature indices in the order in which a split with these weights lists its
        terms: the tree's order, else by importance in the split."""
        if self.tree_order is not None:
            return self.tree_order
        importance = np.abs(np.atleast_2d(weights)).max(axis=0) * self.std
        return np.argsort(-importance, kind="stable")

    # ----- standardised attributes -----
    def _scale(self):
        """Per column: the standard deviation a z-score divides by, 0 for a column that
        is constant (or unknown) on the training rows."""
        if self.std.shape != (len(self.names),):
            return np.zeros(len(self.names))
        return np.where(np.isfinite(self.std) & (self.std > 0), self.std, 0.0)

    def z_scores(self, X):
        """``(x − mean) / SD`` of the rows ``X`` (0 in a constant column)."""
        scale = self._scale()
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return np.divide(X - self.mean, scale, out=np.zeros_like(X), where=scale > 0)

    def standardised(self, split):
        """``split`` over standardised attributes: weights ``w_j·sd_j`` and bias
        ``b + Σ w_j·mean_j``; the same values on every row, so the same routing.  With
        training ``rows``, its printed digits route all of them as ``split`` does."""
        key = id(split)
        if key not in self._standardised:
            scale = self._scale()
            z_split = split.copy(weights=split.weights * scale,
                                 bias=split.bias + split.weights @ self.mean, digits=None)
            digits = max(DIGITS, split.print_digits)
            if self.rows is not None and len(self.rows):
                # rows with a missing value in the split's features stop at its node
                expected = split.route_with_missing(self.rows)
                known = expected >= 0
                digits = z_split.fewest_digits_routing(self.z_scores(self.rows[known]),
                                                       expected[known], digits)
            z_split.digits = digits
            self._standardised[key] = (split, z_split)  # keeps ``split`` (and its id) alive
        return self._standardised[key][1]

    def _view(self, split, per_sd):
        """(split, vocabulary) a text of ``split`` is rendered from."""
        if not per_sd or not split.conditions()[0].in_units(self.vocabulary):
            return split, self.vocabulary
        return self.standardised(split), self.z_vocabulary

    # ----- texts -----
    def conditions(self, split, max_terms=None, per_sd=False):
        """Plain-text condition of every branch of ``split`` (a multiway branch with the
        scores it compares); complete unless ``max_terms`` shortens it."""
        split, vocabulary = self._view(split, per_sd)
        order = self.order(split.weights)
        return with_missing(split, [condition_text(condition, vocabulary, order, max_terms,
                                                   with_scores=True)
                                    for condition in split.conditions()])

    def edge_labels(self, split, per_sd=False):
        """Short label of every branch: ``≥ 1.2``, ``= typical``, a class, a cluster."""
        split, vocabulary = self._view(split, per_sd)
        return [edge_text(condition, vocabulary) for condition in split.conditions()]

    def quantity(self, split, max_terms=None, per_sd=False):
        """What the split tests, in full: the attribute, the hyperplane's left-hand side,
        or the score maps of a multiway split."""
        split, vocabulary = self._view(split, per_sd)
        return quantity_text(split, vocabulary, self.order(split.weights), max_terms)

    def label(self, split):
        """The :class:`SplitLabel` of an internal node: the lines its form gives for a
        box (:meth:`~orangecontrib.oblique.core.tree.conditions.Condition.box_lines`)
        laid out in Orange's box by :class:`BoxLayout`."""
        conditions = split.conditions()
        lines = conditions[0].box_lines(conditions, self.vocabulary,
                                        self.order(split.weights), BoxLayout(self))
        return SplitLabel("<br/>".join(escape(line) for line in lines),
                          self.quantity(split))

    def node_rule(self, split, max_terms=None, per_sd=False):
        """(short, full) text of a node's test; short keeps ``max_terms`` terms."""
        split, vocabulary = self._view(split, per_sd)
        order = self.order(split.weights)
        conditions = split.conditions()
        return conditions[0].node_rule(conditions, vocabulary, order, max_terms)

    def node_details(self, split, max_terms=None, per_sd=False):
        """What a node's tooltip says of its test (:meth:`Condition.node_details`: the
        short :meth:`node_rule`, or every pair of a pairwise-vote split)."""
        split, vocabulary = self._view(split, per_sd)
        conditions = split.conditions()
        return conditions[0].node_details(conditions, vocabulary, self.order(split.weights),
                                          max_terms)

    def path_step(self, split, x, max_terms=None, per_sd=False):
        """What ``split`` finds for the row ``x`` and where the row goes, in plain words
        (:meth:`~orangecontrib.oblique.core.tree.conditions.Condition.path_step`); with
        ``per_sd`` over standardised attributes where the test has units."""
        position = int(split.route(np.nan_to_num(x)[None, :])[0])
        view, vocabulary = self._view(split, per_sd)
        if view is not split:
            x = self.z_scores(x)[0]
        return view.conditions()[position].path_step(view, x, position, vocabulary,
                                                     self.order(view.weights), max_terms)

    def coefficients(self, split, max_terms=None, per_sd=False):
        """The :class:`Coefficients` of an oblique hyperplane's first ``max_terms`` terms
        (None: all) as its text gives them (``per_sd``: over standardised attributes),
        or None (a test of one attribute or a multiway split)."""
        if split.conditions()[0].charted_terms() is None:
            return None
        view, _ = self._view(split, per_sd)
        first = view.conditions()[0]
        weights = view.weights[0]
        order = [j for j in self.order(split.weights) if weights[j] != 0][:max_terms]
        return Coefficients([self.vocabulary.features[j] for j in order], weights[order],
                            [format_significant(weights[j], first.digits) for j in order],
                            view is not split)

    def value_text(self, split, x, per_sd=False):
        """The value the split tests for the row ``x`` (in the model's domain; with
        ``per_sd``, of its standardised attributes ``z``)."""
        view, vocabulary = self._view(split, per_sd)
        x, point = (x, "x") if view is split else (self.z_scores(x)[0], "z")
        return view.conditions()[0].value_text(view, x, vocabulary, point)

    def wrapped_terms(self, affine, order, max_terms, digits):
        """Lines with the first ``max_terms`` terms (``+ N more`` for the rest, never
        "+ 1 more": a box of Orange's viewer has room for that term as well) and the
        constant, see :func:`wrapped`."""
        if sum(term.weight != 0 for term in affine.terms) == max_terms + 1:
            max_terms += 1
        pieces, omitted = term_texts(affine, self.vocabulary, digits, order, max_terms)
        if omitted:
            pieces.append(f"+ {omitted} more")
        if affine.constant != 0:
            pieces.append(("+ " if affine.constant > 0 else "− ")
                          + format_significant(abs(affine.constant), digits))
        return wrapped(pieces or ["0"])


class BoxLayout:
    """How a node box of Orange's Tree Viewer lays out the lines a condition's form gives
    (:meth:`~orangecontrib.oblique.core.tree.conditions.Condition.box_lines`): the first
    :data:`BOX_TERMS` terms of an affine map wrapped at term boundaries, headings at
    their words, other lines shortened, at most :data:`BOX_TERMS` rows of a map listed
    (never "… 1 more": the row itself fits as well)."""

    def __init__(self, presenter):
        self.presenter = presenter

    def terms(self, affine, order, digits, max_terms=BOX_TERMS):
        """Lines of the first ``max_terms`` terms of ``affine`` and its constant."""
        return self.presenter.wrapped_terms(affine, order, max_terms, digits)

    @staticmethod
    def words(text):
        """``text`` wrapped at its words."""
        return wrapped(text.split(" "))

    @staticmethod
    def line(text):
        """``text`` on one line, shortened to the box."""
        return _shortened(text)

    @staticmethod
    def fits(text):
        """Whether ``text`` fits one line of the box."""
        return len(text) <= BOX_LINE_CHARS

    @staticmethod
    def rows_shown(count):
        """How many of ``count`` rows of a map a box lists."""
        return BOX_TERMS if count > BOX_TERMS + 1 else count


class DisplayTree:
    """The one display tree of a fitted model: what the Orange model's nodes
    (:class:`~orangecontrib.oblique.learners.ObliqueTreeModel`) and the Oblique Tree
    Viewer show, built once, when the model is made, from the rows it was fitted on.

    It pads the core tree's class counts and distributions to every value of the class
    variable, keeps the nodes that a training row with a class reached (a branch no such
    row took has no node, ``None`` among its parent's branches, as in Orange's own
    trees), and gives the texts of every kept branch through one :class:`SplitPresenter`
    over the training rows' means and deviations.  Kept nodes are numbered ``0 .. n-1``
    in the order of their core ids (node 0 is the root): the one numbering of the
    Orange model's nodes and of the viewer.  Rows are routed here as the model routes
    them (:meth:`route`, :meth:`path`), in that numbering; only :meth:`core_node` names
    a node of the core tree, for the geometry of its splits.

    Parameters
    ----------
    tree : :class:`~orangecontrib.oblique.core.tree.structure.ObliqueTree`
    classes : array of int
        The class value index of every class code of the tree (the estimator's
        ``classes_``).
    domain : Orange.data.Domain
        The (preprocessed) domain of the tree's columns.
    importances : array of float, optional
        The estimator's ``feature_importances_``: the order of every split's terms.
    rows : ndarray, optional
        The training rows with a class, dense, in ``domain``: the attributes' means and
        deviations (without them: 0 and 1, and no texts over standardised attributes).

    Attributes
    ----------
    texts : SplitPresenter
    parent, children : lists of the nodes (``children`` in branch order, kept ones)
    depth : list of int
    value : ndarray (node_count, n_values)
        Class counts of every node, over all values of the class variable.
    core_value, core_proba : ndarray (core node_count, n_values)
        The same for every core node, and its predicted distribution: the model's
        prediction reads them at the core node where a row stops.
    rows : ndarray or None
    """

    def __init__(self, tree, classes, domain, importances=None, rows=None):
        self.tree = tree
        class_values = list(domain.class_var.values)
        classes = np.asarray(classes).astype(int)
        self.core_value = np.zeros((tree.node_count, len(class_values)))
        self.core_value[:, classes] = tree.value
        self.core_proba = np.zeros((tree.node_count, len(class_values)))
        self.core_proba[:, classes] = tree.proba
        self.classes = classes
        self.rows = None if rows is None or not len(rows) else np.asarray(rows, dtype=float)
        std, mean = np.ones(tree.n_features), np.zeros(tree.n_features)
        if self.rows is not None:
            with np.errstate(invalid="ignore"):     # a column with ±inf: SD 1
                std = np.nan_to_num(np.nanstd(self.rows, axis=0), nan=1.0)
                mean = np.nan_to_num(np.nanmean(self.rows, axis=0))
        self.texts = SplitPresenter(domain.attributes, std, class_values, classes,
                                    importances, mean, self.rows)
        kept = np.zeros(tree.node_count, dtype=bool)
        kept[0] = True
        stack = [0]
        while stack:
            node = stack.pop()
            for child in tree.children[node]:
                kept[child] = self.core_value[child].sum() > 0
                if kept[child]:
                    stack.append(child)
        self._kept = kept
        self._core = np.flatnonzero(kept)
        self._index = np.full(tree.node_count, -1, dtype=int)
        self._index[self._core] = np.arange(self._core.size)
        # the node of every core node: itself if kept, else the node where a row that
        # takes the dropped branch stops (the parent of that branch)
        self._shown = self._index.copy()
        stack = [0]
        while stack:
            node = stack.pop()
            for child in tree.children[node]:
                if not kept[child]:
                    self._shown[child] = self._shown[node]
                stack.append(child)
        self.parent = [int(self._index[tree.parent[core]]) if core else -1
                       for core in self._core]
        self.children = [[int(self._index[c]) for c in tree.children[core] if kept[c]]
                         for core in self._core]
        self.depth = [int(tree.node_depth[core]) for core in self._core]
        self.value = self.core_value[self._core]

    @classmethod
    def of_model(cls, model):
        """The display tree of an ``ObliqueTreeModel``: the one it made when fitted; a
        model saved before models kept theirs gets one over its kept training rows,
        ``model.instances``, if it has them."""
        display = model.__dict__.get("display")
        if display is not None:
            return display
        estimator = model.estimator
        # the counts of a tree of many classes, kept sparse, as arrays for the views
        tree = estimator.tree_.with_dense_class_counts()
        return cls(tree, estimator.classes_, model.domain,
                   getattr(estimator, "feature_importances_", None),
                   _rows_with_class(model.instances, model.domain))

    def __getstate__(self):
        state = dict(self.__dict__)
        state["texts"] = self.texts.without_cache()
        return state

    @property
    def node_count(self):
        return len(self.parent)

    def count_training(self, X, y):
        """Route the training table's rows ``X`` (dense, in the domain; ``y`` their class
        codes, NaN where missing) once, at fit: :attr:`training` is then ``(reached,
        stop, shares, y)`` (:meth:`route`), the Orange nodes' subsets and the viewer's
        counts of the training rows, which no later step routes again."""
        self.training = (*self.route(X), np.asarray(y, dtype=float).reshape(-1))
        return self.training

    def core_node(self, node):
        """The core tree's id of ``node``, for the geometry of the core tree's splits."""
        return int(self._core[node])

    def split(self, node):
        """The :class:`~orangecontrib.oblique.core.tree.splits.Split` of ``node`` (None
        for a leaf)."""
        return self.tree.splits[self._core[node]]

    def position(self, node):
        """The branch of its parent's split that leads to ``node`` (branches no training
        row took counted too)."""
        parent = self._core[self.parent[node]]
        return self.tree.children[parent].index(self._core[node])

    def branches(self, node):
        """The node of every branch of the split of ``node``, in branch order (None for a
        branch no training row took)."""
        return [int(self._index[c]) if self._kept[c] else None
                for c in self.tree.children[self._core[node]]]

    def route(self, X):
        """``(reached, stop, shares)`` of the rows of ``X`` (dense, in the domain) as the
        model routes them: ``reached[node]`` the rows that reach ``node``; ``stop`` the
        node where each row stops (a leaf, a node whose test needs a missing value, the
        parent of a branch no training row took, or the node where a missing value sends
        the row down every branch); ``shares[node]`` the share of each of its rows there
        (None when every row goes down one branch of every split, whole, as without
        C4.5's shares or without a missing value)."""
        X = np.asarray(X, dtype=float)
        if np.isfinite(X).all() or not self.tree.routes_by_weight:
            reached, stop = self.tree.route(X)
            return [reached[core] for core in self._core], self._shown[stop], None
        reached = [np.empty(0, dtype=np.intp)] * self._core.size
        shares = [np.empty(0)] * self._core.size
        for core, rows, weights, _ in self.tree.weighted_walk(X):
            if self._kept[core]:
                reached[self._index[core]], shares[self._index[core]] = rows, weights
        return reached, self._shown[self.tree.apply(X)], shares

    def path(self, x):
        """The nodes that the model's prediction of the row ``x`` reads, parents before
        children: ``(node, share, child, divided)`` -- the share of the row that reaches
        ``node``; the child it goes to (None at a leaf, where it stops, or where it is
        ``divided`` among every branch by the shares of C4.5)."""
        steps = []
        for core, _, weights, ends in self.tree.weighted_walk(x[None, :]):
            if not self._kept[core]:
                continue  # a branch no training row took: the row stops at its parent
            split, child, divided = self.tree.splits[core], None, False
            if split is not None:
                position = int(split.route_with_missing(x[None, :])[0])
                if position >= 0 and self._kept[self.tree.children[core][position]]:
                    child = int(self._index[self.tree.children[core][position]])
                divided = position < 0 and not ends[0]
            steps.append((int(self._index[core]), float(weights[0]), child, divided))
        return steps

    def branch_texts(self, per_sd=False):
        """(complete condition, edge label) of the branch to every node (``""`` for the
        root), over standardised attributes with ``per_sd``; rendered once (the Orange
        model's nodes and the viewer read the same lists: copy before changing them)."""
        cache = self.__dict__.setdefault("_branch_texts", {})
        if per_sd not in cache:
            cache[per_sd] = self._render_branch_texts(per_sd)
        conditions, edge_labels = cache[per_sd]
        return list(conditions), list(edge_labels)

    def _render_branch_texts(self, per_sd):
        conditions, edge_labels = [""] * self.node_count, [""] * self.node_count
        for node in range(self.node_count):
            split = self.split(node)
            if split is None:
                continue
            for child, condition, label in zip(self.branches(node),
                                               self.texts.conditions(split, None, per_sd),
                                               self.texts.edge_labels(split, per_sd)):
                if child is not None:
                    conditions[child], edge_labels[child] = condition, label
        return conditions, edge_labels

    def label(self, node):
        """The :class:`SplitLabel` of ``node`` (None for a leaf)."""
        split = self.split(node)
        return None if split is None else self.texts.label(split)

    @property
    def predicted(self):
        """The class value (index) predicted at every node."""
        return np.argmax(self.core_proba, axis=1)[self._core]


def indicator_columns(variables):
    """``{j: (attribute name, value name)}`` for every column ``j`` of ``variables`` (a
    preprocessed domain's attributes) that is the 0/1 indicator of a value of a nominal
    attribute, made by Orange's one-hot encoding (``Continuize``: an
    :class:`~Orange.preprocess.transformation.Indicator` ``compute_value``), traced
    through transformations that keep known values (imputation, identity)."""
    indicators = {}
    for j, variable in enumerate(variables):
        compute_value = variable.compute_value
        while isinstance(compute_value, (ReplaceUnknowns, Identity)):
            compute_value = getattr(compute_value.variable, "compute_value", None)
        if isinstance(compute_value, Indicator) and compute_value.variable.is_discrete:
            nominal, code = compute_value.variable, compute_value.value
            if float(code).is_integer() and 0 <= code < len(nominal.values):
                indicators[j] = (nominal.name, nominal.values[int(code)])
    return indicators


def _rows_with_class(table, domain):
    """The rows of ``table`` with a known class, dense, in ``domain``; None if there are
    none, or if ``table`` does not transform to ``domain``."""
    if table is None:
        return None
    try:
        data = table if table.domain == domain else table.transform(domain)
        X = data.X.toarray() if sp.issparse(data.X) else np.asarray(data.X, dtype=float)
        known = ~np.isnan(np.asarray(data.Y, dtype=float).reshape(-1))
    except Exception:  # pylint: disable=broad-except
        return None  # the names and the order of terms do not need them
    return X[known] if X.size and known.any() else None


def term_pieces(text):
    """The pieces of one line of a rule's text between which :func:`wrapped` may break
    it: before every `` + `` and `` − `` of a term and every comparison (``≥ 1.391``),
    never inside a name or a number."""
    return re.split(r" (?=[+−<>≤≥=≠] )", text)


def wrapped(pieces, line_width=BOX_LINE_CHARS, max_width=BOX_MAX_CHARS, width=len,
            shortened=None):
    """Lines of whole ``pieces`` (terms), joined while a line's ``width`` (default: its
    characters) stays within ``line_width``; a piece wider than that has a line of its
    own; a piece wider than ``max_width`` breaks after its coefficient (``+ 0.2194·`` and
    the name on the next line), and a part still wider than that is shortened at its end
    (``shortened(text, max_width)``, default: cut with "…").  A line never breaks inside
    a number or a name.  The boxes of Orange's viewer count characters; the Oblique Tree
    Viewer's boxes measure pixels."""
    shortened = shortened or _shortened
    lines = []
    for piece in pieces:
        if lines and width(f"{lines[-1]} {piece}") <= line_width:
            lines[-1] += " " + piece
        elif width(piece) > max_width and "·" in piece:
            coefficient, name = piece.split("·", 1)
            lines += [shortened(coefficient + "·", max_width), shortened(name, max_width)]
        else:
            lines.append(shortened(piece, max_width))
    return lines


def _shortened(line, max_chars=BOX_MAX_CHARS):
    """``line`` cut to ``max_chars`` characters, ending with "…" if it was cut."""
    return line if len(line) <= max_chars else line[:max_chars - 1] + "…"
