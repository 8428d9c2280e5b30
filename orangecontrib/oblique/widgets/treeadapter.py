"""Tree adapters: any classification tree model as one structure, for the Oblique Tree Viewer.

:class:`TreeAdapter` turns any tree model the viewer accepts into one uniform structure:
node ids ``0 .. n-1`` in preorder (the root is 0), ``parent``, ``children`` (in branch
order), the text of every branch, the training class counts and the predicted class of
every node.  Two adapters fill it:

* an :class:`~orangecontrib.oblique.learners.ObliqueTreeModel` (GDT, OC1, ODT-SVM, multiway
  nodes included) from its core tree ``model.tree_`` and its (preprocessed) domain; every
  node of the core tree is shown, also a branch that no training row reached;
* Orange's own :class:`Orange.tree.TreeModel` from its nodes (``attr``, ``threshold``,
  ``descend``), with axis-parallel rules; a branch without a node (``None`` among the
  children) is not shown, and a row that would take it stops at its parent, as Orange's
  prediction does.

Rows are routed the way the model predicts: a row with a missing value in a feature a
split uses stops at that split's node.

Texts come in two units (:meth:`TreeAdapter.set_units`): the attributes' own (the
default) or, for oblique trees, standardised attributes ``z(x) = (x − mean) / SD`` over the
model's training rows.  Every text method takes ``max_terms``: a hyperplane shortened to
its first terms (``+ N more``); ``None`` gives the complete condition.  Names of
attributes, values and classes are written as
:func:`~orangecontrib.oblique.core.tree.rules.printable_name` writes them (escaped, inside
quotes, if a line break or another control character is in them).  Everything here is
plain Python + numpy: no Qt, so the widget only draws what this module computes, and
tests can check the texts directly.
"""
import hashlib
import re
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

import Orange.tree
from orangecontrib.oblique.core.tree.rules import (format_number, format_significant,
                                                   printable_name)
from orangecontrib.oblique.core.tree.structure import route_top_down
from orangecontrib.oblique.learners import ObliqueTreeModel
from orangecontrib.oblique.presentation import DisplayTree

__all__ = ["TreeAdapter", "ObliqueTreeAdapter", "OrangeTreeAdapter", "Counts", "PathStep",
           "Rule",
           "NotATreeError", "DomainMismatchError", "table_rows"]


class NotATreeError(ValueError):
    """The input model is not a tree the viewer can show; ``info`` says what is on the
    input instead, for the viewer's info box."""

    def __init__(self, message, info):
        super().__init__(message)
        self.info = info


class DomainMismatchError(ValueError):
    """The data lacks attributes the model needs."""


def is_continuous(variable):
    """Whether ``variable`` (of a preprocessed domain) measures a continuous attribute:
    not a 0/1 indicator column of a nominal value (traced through ``compute_value``)."""
    while variable.is_continuous:
        origin = getattr(variable.compute_value, "variable", None)
        if origin is None:
            return True
        variable = origin
    return False


def _dense(X):
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)


class Counts:
    """Rows of one table routed through a :class:`TreeAdapter` as the model routes them.

    Attributes
    ----------
    reached : list of ndarray
        ``reached[node]``: indices of the rows that pass through ``node`` (a row sent down
        several branches by weight, C4.5's rule for a missing value, reaches all of them).
    stop : ndarray of int
        The node where every row stops (a leaf, or a node it cannot pass; for a row sent
        down several branches, the node where it was divided).
    value : ndarray, shape (node_count, n_classes)
        Class counts of the rows with a known class that reach each node, a row counted
        with its share there (the model's own counts on its training rows).
    n : ndarray of float
        Number of rows reaching each node (a missing class included), each with its share.
    """

    def __init__(self, reached, stop, y, n_classes, shares=None):
        self.reached = reached
        self.stop = stop
        if shares is None:
            shares = [np.ones(len(rows)) for rows in reached]
        self.n = np.array([weights.sum() for weights in shares], dtype=float)
        self.value = np.zeros((len(reached), n_classes))
        if y is not None:
            known = ~np.isnan(y)
            for node, (rows, weights) in enumerate(zip(reached, shares)):
                kept = known[rows]
                codes = y[rows][kept].astype(int)
                self.value[node] = np.bincount(codes, weights[kept],
                                               minlength=n_classes)[:n_classes]

    def rows_reaching(self, nodes):
        """The rows that pass through any of ``nodes``, ascending."""
        if not nodes:
            return np.empty(0, dtype=int)
        return np.unique(np.concatenate([self.reached[node] for node in nodes])).astype(int)


@dataclass(frozen=True)
class PathStep:
    """One node of a row's path: the node, the condition of the branch the row takes
    there ("" where it takes none: a leaf, a stop, or a split that sends it down every
    branch), what the node's test finds for the row and where the row goes (``"leaf"``
    at a leaf), and the share of the row that reaches the node (below 1 after a split
    that sends a row with a missing value down every branch by weight)."""
    node: int
    condition: str
    words: str
    share: float = 1.0


@dataclass
class Rule:
    """IF ``conditions`` THEN ``class_value``, for one leaf."""
    leaf: int
    conditions: list
    class_value: str
    support: float
    confidence: float

    def __str__(self):
        condition = " AND ".join(self.conditions) or "TRUE"
        confidence = ("–" if np.isnan(self.confidence)
                      else format_number(self.confidence, 3))
        return (f"IF {condition} THEN class = {self.class_value} "
                f"[support {self.support}, confidence {confidence}]")


class TreeAdapter:
    """The uniform tree the viewer draws; build it with :meth:`from_model`.

    Attributes
    ----------
    model : the input model
    class_values : list of str
        The names of the class values, as texts write them.
    class_name : str
        The name of the class variable, as texts write it.
    parent : list of int (``-1`` for the root)
    children : list of tuple of int, in branch order
    depth : list of int
    conditions : list of str
        Full plain-text condition of the branch that leads to each node ("" for the root),
        in the current units (:meth:`set_units`).
    edge_labels : list of str
        Short label of that branch (e.g. ``≥ 3.1``, ``setosa``, ``= typical``).
    per_sd : bool
        Whether the texts are over standardised attributes (:meth:`set_units`).
    train_value : ndarray (node_count, n_classes)
        Class counts of the training rows, as the model stores them.
    predicted : ndarray of int
        Class (index into ``class_values``) the model predicts at each node.
    """

    def __init__(self, model, class_values, parent, children, conditions, edge_labels,
                 train_value, predicted):
        self.model = model
        self.class_values = [printable_name(value) for value in class_values]
        #: the class variable's name, as texts write it
        self.class_name = printable_name(model.domain.class_var.name)
        self.parent = list(parent)
        self.children = [tuple(c) for c in children]
        self.conditions = list(conditions)
        self.edge_labels = list(edge_labels)
        self._identity = "|".join(f"{p}:{c}" for p, c in zip(self.parent, self.conditions))
        self.per_sd = False
        self.train_value = np.asarray(train_value, dtype=float)
        self.predicted = np.asarray(predicted, dtype=int)
        self.depth = [0] * len(self.parent)
        for node in range(1, len(self.parent)):
            self.depth[node] = self.depth[self.parent[node]] + 1

    # ----- construction -----
    @staticmethod
    def from_model(model):
        """A :class:`TreeAdapter` of ``model``; raises :class:`NotATreeError` otherwise."""
        if isinstance(model, ObliqueTreeModel):
            return ObliqueTreeAdapter(model)
        if isinstance(model, Orange.tree.TreeModel) and getattr(model, "root", None) \
                is not None:
            if model.domain.class_var is None or not model.domain.class_var.is_discrete:
                raise NotATreeError("Only classification trees can be shown.",
                                    "A regression tree is on input: it can't be shown, "
                                    "only classification trees can.")
            return OrangeTreeAdapter(model)
        name = getattr(model, 'name', type(model).__name__)
        raise NotATreeError(f"{name} is not a tree model.",
                            f"{name} is on input: it can't be shown, it is not a tree.")

    # ----- shape -----
    @property
    def node_count(self):
        return len(self.parent)

    def is_leaf(self, node):
        return not self.children[node]

    def leaves(self):
        return [node for node in range(self.node_count) if not self.children[node]]

    def path(self, node):
        """Node ids from the root down to ``node``."""
        path = [node]
        while self.parent[path[-1]] >= 0:
            path.append(self.parent[path[-1]])
        return path[::-1]

    def branch_path(self, node):
        """Child positions from the root to ``node``: a name of the node that survives
        a refit of the same tree (used to restore a saved selection)."""
        return tuple(self.children[p].index(c)
                     for p, c in zip(self.path(node), self.path(node)[1:]))

    def node_at(self, branch_path):
        """The node reached by following ``branch_path`` (None if there is none)."""
        node = 0
        for position in branch_path:
            if position >= len(self.children[node]):
                return None
            node = self.children[node][position]
        return node

    def branch_paths(self, nodes):
        """The :meth:`branch_path` of every node of ``nodes``, in the order of their ids,
        as lists (a setting keeps them)."""
        return [list(self.branch_path(node)) for node in sorted(nodes)]

    def nodes_at(self, branch_paths):
        """The set of nodes reached by ``branch_paths`` (those that lead to none left
        out).  Stored paths may come from another version: only lists of branch positions
        are followed."""
        nodes = (self.node_at(tuple(path)) for path in branch_paths
                 if isinstance(path, (list, tuple))
                 and all(isinstance(p, int) and p >= 0 for p in path))
        return {node for node in nodes if node is not None}

    def fingerprint(self):
        """A short hash of the tree's structure and rule texts (in raw units, whatever
        the units shown)."""
        return hashlib.sha1(self._identity.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    # ----- texts (overridden by the adapters) -----
    #: whether the tree's texts can be given over standardised attributes
    can_standardise = False
    #: why the texts stay in raw units when standardised ones are asked for
    raw_units_reason = "Orange's tree tests one attribute at a time"

    def set_units(self, per_sd):
        """Texts over standardised attributes (``per_sd``) or in raw units; a tree that
        cannot standardise (:attr:`can_standardise`) stays in raw units."""
        self.per_sd = bool(per_sd) and self.can_standardise

    def example_attribute(self):
        """The name of a continuous attribute a split weighs, to explain the units of
        the weights with; None if no split has a continuous term (Orange's own tree
        weighs nothing)."""
        return None

    def condition(self, node, max_terms=None):
        """The condition of the branch that leads to ``node`` ("" for the root), its
        hyperplane shortened to ``max_terms`` terms (``None``: complete)."""
        return self.conditions[node]

    def node_rule(self, node, max_terms=None):
        """(short, full) text of an internal node's test; short keeps ``max_terms``."""
        raise NotImplementedError

    def node_details(self, node, max_terms=None):
        """What the tooltip of an internal node says of its test: the short
        :meth:`node_rule`, or more where the test has more to list (every pair of a
        pairwise-vote split, with ``max_terms`` terms)."""
        return self.node_rule(node, max_terms)[0]

    def coefficients(self, node, max_terms=None):
        """The :class:`~orangecontrib.oblique.presentation.Coefficients` of the first
        ``max_terms`` terms (None: all) of an oblique node's hyperplane, in the units of
        the texts, or None (axis-parallel and multiway tests have no bar chart)."""
        return None

    def value_text(self, node, x):
        """The value an internal node tests for the row ``x`` (in the model's domain)."""
        raise NotImplementedError

    def step_text(self, node, x, max_terms=None):
        """What the test of internal ``node`` finds for the row ``x`` and where the row
        goes, in plain words: ``0.4·age − 0.3·chol = 12.4, at least 11.9 → right``."""
        raise NotImplementedError

    def core_node(self, node):
        """The id of ``node`` in the model's own tree (the same unless the adapter
        leaves nodes out)."""
        return node

    def _branch_word(self, node, position):
        """A branch as a path names it: ``left``/``right`` of a binary test, else its
        edge label."""
        kids = self.children[node]
        if len(kids) == 2:
            return ("left", "right")[position]
        return self.edge_labels[kids[position]]

    # ----- data -----
    def transform(self, data):
        """``data`` in the model's domain, or :class:`DomainMismatchError`."""
        source = getattr(self.model, "original_domain", None)
        if source is None:
            source = self.model.domain
        names = {var.name: var for var in data.domain.variables + data.domain.metas}
        missing = [var.name for var in source.attributes
                   if var.name not in names
                   or names[var.name].is_discrete != var.is_discrete]
        if missing:
            shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
            raise DomainMismatchError(
                f"Data does not match the model: it lacks {shown}.")
        return data.transform(self.model.domain)

    def counted(self, data):
        """(table, :class:`Counts`, mismatch) of the rows to show: ``data`` if it fits
        the model, else the model's training rows (``model.instances``) if it kept them,
        else (None, None); ``mismatch`` says why ``data`` does not fit (None if it does,
        or without ``data``)."""
        mismatch = None
        for table in (data, self.model.instances):
            if table is not None:
                try:
                    if table is not data:
                        counts = self.training_counts(table)
                        if counts is not None:
                            return table, counts, mismatch
                    return table, self.recount(table), mismatch
                except DomainMismatchError as error:
                    if table is data:
                        mismatch = str(error)
        return None, None, mismatch

    def training_counts(self, table):
        """:class:`Counts` of the model's training rows as the fit routed them, if
        ``table`` (the model's ``instances``) holds them; None: count ``table`` anew."""
        return None

    def recount(self, data):
        """:class:`Counts` of ``data`` (a Table in any compatible domain)."""
        data = self.transform(data)
        X = self.model_rows(data.X)
        y = None
        if data.domain.class_var is not None:
            y = np.asarray(data.Y, dtype=float).reshape(-1)
        reached, stop, shares = self.routed(X)
        return Counts(reached, stop, y, len(self.class_values), shares)

    def route(self, X):
        """(reached, stop) of the rows of ``X`` (model's domain); see :class:`Counts`."""
        raise NotImplementedError

    def routed(self, X):
        """(reached, stop, shares) of the rows of ``X``: :meth:`route`, and per node the
        share of each row of ``reached`` that reaches it (None: every row goes down one
        branch of every split, whole)."""
        return (*self.route(X), None)

    def row_path(self, data, row, max_terms=None):
        """The :class:`PathStep` of every node on the path of ``row`` (an index from 0),
        parents before children: what the node's test finds for the row and where it
        goes, in the row's own values (:meth:`path_steps`)."""
        data = self.transform(data[row:row + 1])
        return self.path_steps(self.model_rows(data.X)[0], max_terms)

    def model_rows(self, X):
        """The rows ``X`` of the model's domain as the model reads them, dense."""
        return _dense(X)

    def path_steps(self, x, max_terms=None):
        """The :class:`PathStep` of every node on the path of the row ``x`` (model's
        domain).  The last is where the row stops: a leaf, or a node it cannot pass (the
        words say why).  Conditions are shortened to ``max_terms`` terms (``None``:
        complete)."""
        _, stop = self.route(x[None, :])
        steps = []
        path = self.path(int(stop[0]))
        for node, child in zip(path, path[1:] + [None]):
            condition = "" if child is None else self.condition(child, max_terms)
            if child is not None:
                words = self.step_text(node, x, max_terms)
            elif self.is_leaf(node):
                words = "leaf"
            else:
                words = self.stop_words(node, x, max_terms)
            steps.append(PathStep(node, condition, words))
        return steps

    def stop_words(self, node, x, max_terms=None):
        """Why the row ``x`` stops at internal ``node``: the values its test needs are
        missing, or it goes down a branch that no training row took."""
        features = self.features_of(node)
        missing = [j for j in features if not np.isfinite(x[j])]
        if missing:
            return (f"stops here: {self.missing_words(missing)}; the prediction is this "
                    f"node's distribution")
        return ("stops here: " + self.step_text(node, x, max_terms).rpartition(" → ")[0]
                + "; no training row took that branch, so the prediction is this node's "
                  "distribution")

    def missing_words(self, features):
        """``thal is missing``, ``age and sex are missing``."""
        names = [self.feature_name(j) for j in features]
        if len(names) == 1:
            return f"{names[0]} is missing"
        return f"{', '.join(names[:-1])} and {names[-1]} are missing"

    def feature_name(self, j):
        """The name of feature ``j`` of the model's domain, as texts write it."""
        return printable_name(self.model.domain.attributes[j].name)

    def features_of(self, node):
        """Indices of the features (model's domain) the test of ``node`` reads."""
        raise NotImplementedError

    def row_distribution(self, data, row):
        """The model's class distribution for ``row`` (None if the adapter cannot say:
        the leaf's distribution is the prediction)."""
        return None

    # ----- rules -----
    def shortened_branches(self, max_terms):
        """(branches whose condition ``max_terms`` shortens, terms left out in all)."""
        shortened = omitted = 0
        for node in range(1, self.node_count):
            shown = self.condition(node, max_terms)
            if shown != self.conditions[node]:
                shortened += 1
                omitted += sum(int(n) for n in re.findall(r"\+ (\d+) more", shown))
        return shortened, omitted

    def scores_in_nodes_only(self):
        """The number of internal nodes whose branches' complete conditions leave the
        score maps that decide them to the node's rule (pairwise votes, many scores)."""
        return 0

    def rules(self, counts=None, max_terms=None):
        """One :class:`Rule` per leaf; support and confidence from ``counts`` (default:
        the training counts); hyperplanes shortened to ``max_terms`` terms (``None``:
        complete conditions, which route every training row as the model does)."""
        value = self.train_value if counts is None else counts.value
        n = value.sum(axis=1) if counts is None else counts.n
        rules = []
        for leaf in self.leaves():
            conditions = [self.condition(node, max_terms) for node in self.path(leaf)[1:]]
            predicted = self.predicted[leaf]
            total = value[leaf].sum()
            confidence = value[leaf, predicted] / total if total else np.nan
            rules.append(Rule(leaf, conditions, self.class_values[predicted],
                              int(round(n[leaf])), confidence))
        return rules

    def rules_text(self, counts=None, max_terms=None):
        """The :meth:`rules` as text, one line per leaf."""
        return "\n".join(str(rule) for rule in self.rules(counts, max_terms)) + "\n"


class ObliqueTreeAdapter(TreeAdapter):
    """Adapter of :class:`ObliqueTreeModel`: a view of the model's own display tree
    (:class:`~orangecontrib.oblique.presentation.DisplayTree`), in its numbering, which is
    the Orange model's too."""

    raw_units_reason = ("the model does not keep its training rows, over which the means "
                        "and standard deviations are taken")

    def __init__(self, model):
        #: the model's display tree, from which its own nodes were made too
        self.display = display = DisplayTree.of_model(model)
        self.tree = display.tree
        self.texts = display.texts
        self.vocabulary = self.texts.vocabulary
        self.std, self.mean = self.texts.std, self.texts.mean
        #: whether the model kept its training rows, over which the z-scores' means and
        #: deviations are taken (without them the texts stay in raw units)
        self.has_training_rows = display.rows is not None
        self.names = self.vocabulary.features
        super().__init__(model, list(model.domain.class_var.values), display.parent,
                         display.children, *display.branch_texts(False),
                         display.value, display.predicted)

    def core_node(self, node):
        return self.display.core_node(node)

    def training_counts(self, table):
        training = getattr(self.display, "training", None)
        if training is None or len(table) != len(training[3]):
            return None
        reached, stop, shares, y = training
        return Counts(reached, stop, y, len(self.class_values), shares)

    def model_rows(self, X):
        # a nominal value no training row had is a missing value, as the model reads it
        return self.model._tree_rows(X) if hasattr(self.model, "_tree_rows") else _dense(X)

    def _split(self, node):
        return self.display.split(node)

    @property
    def can_standardise(self):
        return self.has_training_rows

    def set_units(self, per_sd):
        super().set_units(per_sd)
        self.conditions, self.edge_labels = self.display.branch_texts(self.per_sd)

    def example_attribute(self):
        """The tree's most important continuous attribute (not a 0/1 indicator of a
        nominal value) that a split weighs with a printed weight (not a nominal test, nor
        a threshold on one attribute); None if there is none."""
        weighed = set()
        for node in range(self.node_count):
            split = self._split(node)
            if split is not None:
                weighed.update(int(j) for j in split.conditions()[0].weighed_features())
        for j in self.texts.order(np.ones((1, len(self.names)))):
            if j in weighed and is_continuous(self.texts.variables[j]):
                return self.names[j]
        return None

    def condition(self, node, max_terms=None):
        parent = self.parent[node]
        if parent < 0 or max_terms is None:
            return self.conditions[node]
        # the texts of all branches of a split at once, kept: a rule list asks for every
        # leaf's path, and a split of many classes has many branches and scores
        key = (parent, max_terms, self.per_sd)
        cache = self.__dict__.setdefault("_shortened_conditions", {})
        if key not in cache:
            cache[key] = self.texts.conditions(self._split(parent), max_terms, self.per_sd)
        return cache[key][self.display.position(node)]

    def node_rule(self, node, max_terms=None):
        return self.texts.node_rule(self._split(node), max_terms, self.per_sd)

    def scores_in_nodes_only(self):
        return sum(1 for node in range(self.node_count) if not self.is_leaf(node)
                   and self._split(node).conditions()[0].scores_left_to_the_node())

    def node_details(self, node, max_terms=None):
        return self.texts.node_details(self._split(node), max_terms, self.per_sd)

    def coefficients(self, node, max_terms=None):
        return self.texts.coefficients(self._split(node), max_terms, self.per_sd)

    def value_text(self, node, x):
        return self.texts.value_text(self._split(node), x, self.per_sd)

    def step_text(self, node, x, max_terms=None):
        return self.texts.path_step(self._split(node), x, max_terms, self.per_sd)

    def features_of(self, node):
        return self._split(node).conditions()[0].features

    def route(self, X):
        return self.display.route(X)[:2]

    def routed(self, X):
        return self.display.route(X)

    def path_steps(self, x, max_terms=None):
        """The model's path of the row ``x`` (:meth:`DisplayTree.path`): every node its
        prediction reads, parents before children; after a split that sends a row with a
        missing value down every branch by weight (C4.5), all of them, each with the
        row's share there."""
        steps = []
        for node, share, child, divided in self.display.path(x):
            condition = "" if child is None else self.condition(child, max_terms)
            if self.is_leaf(node):
                words = "leaf"
            elif child is not None:
                words = self.step_text(node, x, max_terms)
            elif divided:
                words = self.divided_words(node, x)
            else:
                words = self.stop_words(node, x, max_terms)
            steps.append(PathStep(node, condition, words, share))
        return steps

    def divided_words(self, node, x):
        """How a row with a missing value goes down every branch of ``node`` by the
        shares of the node's training rows (C4.5): ``thal is missing: the row goes down
        every branch with its share of the node's training rows, normal 55.2 %, …``."""
        missing = [j for j in self.features_of(node) if not np.isfinite(x[j])]
        return (f"{self.missing_words(missing)}: the row goes down every branch with its "
                f"share of the node's training rows, "
                f"{self._split(node).shares_text(self.vocabulary)}")

    def row_distribution(self, data, row):
        """The model's class distribution for ``row`` (over :attr:`class_values`)."""
        x = self.model_rows(self.transform(data[row:row + 1]).X)
        proba = np.zeros(len(self.class_values))
        proba[self.display.classes] = self.tree.predict_proba(x)[0]
        return proba


class OrangeTreeAdapter(TreeAdapter):
    """Adapter of Orange's own :class:`~Orange.tree.TreeModel` (axis-parallel rules)."""

    def __init__(self, model):
        class_values = list(model.domain.class_var.values)
        self.nodes, parent, children = [], [], []
        conditions, edge_labels = [], []
        stack = [(model.root, -1, "", "")]
        while stack:  # preorder, so that every parent precedes its children
            node, parent_id, condition, label = stack.pop()
            node_id = len(self.nodes)
            self.nodes.append(node)
            parent.append(parent_id)
            children.append([])
            conditions.append(condition)
            edge_labels.append(label)
            if parent_id >= 0:
                children[parent_id].append(node_id)
            texts = self._branch_texts(node)
            for child, (cond, lab) in reversed(list(zip(node.children, texts))):
                if child is not None:
                    stack.append((child, node_id, cond, lab))
        # positions of the existing children among the node's branches
        self.positions = [[i for i, c in enumerate(n.children) if c is not None]
                          for n in self.nodes]
        value = np.array([self._distribution(n, len(class_values)) for n in self.nodes])
        super().__init__(model, class_values, parent, children, conditions, edge_labels,
                         value, np.argmax(value, axis=1))

    @staticmethod
    def _distribution(node, n_classes):
        value = np.zeros(n_classes)
        given = np.asarray(node.value, dtype=float).reshape(-1)[:n_classes]
        value[:given.size] = given
        return value

    @staticmethod
    def _branch_texts(node):
        """(condition, edge label) of every branch of ``node``."""
        if isinstance(node, Orange.tree.NumericNode):
            # Orange's thresholds in full: the printed rule routes rows as the tree does
            name, threshold = attribute_name(node), format_significant(node.threshold, 17)
            return [(f"{name} ≤ {threshold}", f"≤ {threshold}"),
                    (f"{name} > {threshold}", f"> {threshold}")]
        if isinstance(node, Orange.tree.MappedDiscreteNode):
            name, values = attribute_name(node), value_names(node)
            texts = []
            for branch in range(len(node.children)):
                chosen = [v for v, b in zip(values, node.mapping) if b == branch]
                shown = ", ".join(chosen)
                texts.append((f"{name} ∈ {{{shown}}}" if len(chosen) > 1
                              else f"{name} = {shown}", shown))
            return texts
        if isinstance(node, Orange.tree.DiscreteNode):
            name = attribute_name(node)
            return [(f"{name} = {value}", value) for value in value_names(node)]
        return [(printable_name(child.description) if child is not None else "", "")
                for child in node.children]

    def node_rule(self, node, max_terms=None):
        orange_node = self.nodes[node]
        if isinstance(orange_node, Orange.tree.NumericNode):
            text = self._branch_texts(orange_node)[1][0]
            return text, text
        name = attribute_name(orange_node) if orange_node.attr is not None else ""
        return name, name

    def value_text(self, node, x):
        orange_node = self.nodes[node]
        value = x[orange_node.attr_idx]
        if orange_node.attr.is_discrete and not np.isnan(value):
            return (f"{attribute_name(orange_node)} = "
                    f"{value_names(orange_node)[int(value)]}")
        return f"{attribute_name(orange_node)} = {format_number(value)}"

    def features_of(self, node):
        return [self.nodes[node].attr_idx]

    def step_text(self, node, x, max_terms=None):
        orange_node = self.nodes[node]
        name, value = attribute_name(orange_node), x[orange_node.attr_idx]
        branch = orange_node.descend(x)
        if isinstance(orange_node, Orange.tree.NumericNode):
            words = "at most" if branch == 0 else "more than"
            text = (f"{name} = {format_number(value)}, {words} "
                    f"{format_significant(orange_node.threshold, 17)}")
        else:
            text = f"{name} is {value_names(orange_node)[int(value)]}"
        if np.isnan(branch) or int(branch) not in self.positions[node]:
            return text + " → no such branch"
        position = self.positions[node].index(int(branch))
        if not isinstance(orange_node, Orange.tree.NumericNode):
            return f"{text} → {self.edge_labels[self.children[node][position]]}"
        return f"{text} → {self._branch_word(node, position)}"

    def route(self, X):
        X = np.asarray(X, dtype=float)

        def positions(node, rows):
            # Orange's own descend: a branch index, NaN where the row stops; a branch
            # without a node (no training rows) stops the row too
            branch = np.array([self.nodes[node].descend(X[row]) for row in rows],
                              dtype=float)
            position = np.full(rows.size, -1, dtype=np.intp)
            for index, orange_branch in enumerate(self.positions[node]):
                position[branch == orange_branch] = index
            return position

        return route_top_down(X.shape[0], self.children, positions)


def attribute_name(node):
    """The name of the attribute an Orange tree node tests, as texts write it."""
    return printable_name(node.attr.name)


def value_names(node):
    """The names of the values of the nominal attribute an Orange tree node tests, as
    texts write them."""
    return [printable_name(value) for value in node.attr.values]


def table_rows(data, rows):
    """The rows ``rows`` of ``data`` (None if there are none)."""
    if data is None or len(rows) == 0:
        return None
    return data[np.sort(np.asarray(rows, dtype=int))]

