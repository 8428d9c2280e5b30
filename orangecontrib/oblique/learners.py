"""Orange learners and models for the oblique trees of :mod:`orangecontrib.oblique.core`.

:class:`ObliqueTreeLearner` turns an Orange :class:`~Orange.data.Table` into numbers and fits
a core estimator; :class:`ObliqueTreeModel` wraps the fitted estimator for Orange.  The model
is an :class:`Orange.tree.TreeModel`, so Orange's own Tree Viewer and Pythagorean Tree show
it: every internal node carries a :class:`SplitLabel` in place of Orange's split attribute,
with the node's hyperplane in raw feature units.
"""
from contextvars import ContextVar
from html import escape

import numpy as np
import scipy.sparse as sp

import Orange.classification
import Orange.tree
from Orange.preprocess import Continuize, Impute, RemoveNaNColumns
from Orange.util import wrap_callback

from .core import GeometricTreeClassifier, OC1Classifier
from .core.rules import branch_conditions, format_number, linear_terms, split_description
from .core.tree import ARGMAX, HYPERPLANE, NEAREST_CENTRE

__all__ = ["ObliqueTreeLearner", "ObliqueTreeModel", "GeometricTreeLearner", "OC1Learner",
           "SplitLabel", "ObliqueNode"]

#: Digits after the decimal point in node texts and rules.
DECIMALS = 3
#: A node box in Orange's Tree Viewer is at most 200 px wide and clips its text, so a
#: hyperplane shows only its largest terms, at most this many characters a line (longer
#: terms are cut with "…"; the tooltip has the whole rule).
BOX_TERMS = 4
BOX_LINE_CHARS = 22

#: The progress callback of the learner call running in this thread (or asyncio context).
#: Orange's ``Learner.__call__`` takes ``progress_callback`` but calls ``fit_storage(data)``
#: without it; a context variable carries it across without storing it on the learner,
#: which stays picklable, deep-copyable and safe to call from several threads at once.
_FIT_PROGRESS = ContextVar("oblique_fit_progress", default=None)
#: Orange's ``Learner.__call__`` reports 0.1 when preprocessing ends; the fit covers the rest.
_FIT_START = 0.1


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


class ObliqueNode(Orange.tree.Node):
    """A node of :class:`ObliqueTreeModel`, mirroring node ``node_id`` of the core tree.

    Besides Orange's ``attr`` (a :class:`SplitLabel`), ``value`` (class counts over all
    values of the class variable), ``children``, ``parent``, ``subset`` and
    ``description`` (the edge label, e.g. ``≥ 1.2``), it has ``condition``: the full
    plain-text test of the branch that leads to it (empty for the root).
    """

    def __init__(self, node_id, attr, value):
        super().__init__(attr, None, value)
        self.node_id = node_id
        self.parent = None
        self.condition = ""


def route(tree, X):
    """Rows reaching every node of an :class:`ObliqueTree`, and the node each row stops at.

    A row follows the routing rules of :mod:`orangecontrib.oblique.core.tree`; like in
    Orange's own trees, a row with a missing value (NaN) in a feature used by a split
    stops at that split's node.  Vectorised over rows: one step per node.

    Returns
    -------
    reached : list of ndarray
        ``reached[node]`` are the indices of the rows that pass through ``node``.
    stop : ndarray of int, shape (n_rows,)
        The node where each row stops: a leaf, or a node whose split it cannot evaluate.
    """
    X = np.asarray(X, dtype=float)
    reached = [np.empty(0, dtype=np.intp)] * tree.node_count
    stop = np.zeros(X.shape[0], dtype=np.intp)
    stack = [(0, np.arange(X.shape[0]))]
    while stack:
        node, rows = stack.pop()
        reached[node] = rows
        split = tree.splits[node]
        if split is None or rows.size == 0:
            stop[rows] = node
            continue
        block = X[rows]
        nan = np.isnan(block)
        missing = nan[:, split.features_used].any(axis=1)
        stop[rows[missing]] = node
        block = np.where(nan, 0.0, block)[~missing]  # NaNs left are in unused features
        rows = rows[~missing]
        position = split.route(block)
        for child_position, child in enumerate(tree.children[node]):
            stack.append((child, rows[position == child_position]))
    return reached, stop


class _SplitTexts:
    """Node and edge texts of the splits of one tree over one domain.

    Terms are listed by importance, ``|w_j| · std(x_j)`` over the training rows, so that a
    hyperplane shortened to its first terms keeps the ones that matter.
    """

    def __init__(self, feature_names, feature_std):
        self.names = list(feature_names)
        self.std = np.asarray(feature_std, dtype=float)

    def order(self, weights):
        importance = np.abs(weights).max(axis=0) * self.std
        return np.argsort(-importance, kind="stable")

    def conditions(self, split):
        """Full plain-text condition of every branch of ``split``."""
        order = self.order(split.weights)
        conditions = branch_conditions(split, self.names, DECIMALS, order)
        if split.rule in (ARGMAX, NEAREST_CENTRE):
            scores = split_description(split, self.names, DECIMALS, order)
            conditions = [f"{condition} of [{scores}]" for condition in conditions]
        return conditions

    def edge_labels(self, split):
        """Short label of every branch: the right-hand side of its condition."""
        conditions = branch_conditions(split, self.names, DECIMALS, self.order(split.weights))
        if split.n_children == 2 and split.rule not in (ARGMAX, NEAREST_CENTRE):
            # "lhs < rhs" / "lhs ≥ rhs": the texts agree up to the operator
            prefix = _common_prefix(conditions)
            prefix = prefix[:prefix.rfind(" ") + 1]
            return [condition[len(prefix):] for condition in conditions]
        return [condition.partition(": ")[2] or condition for condition in conditions]

    def label(self, split):
        """The :class:`SplitLabel` of an internal node."""
        order = self.order(split.weights)
        if split.rule in (ARGMAX, NEAREST_CENTRE):
            text = split_description(split, self.names, DECIMALS, order)
        else:  # the left-hand side shared by the two branch conditions
            text = _common_prefix(branch_conditions(split, self.names, DECIMALS, order))
            text = text[:text.rfind(" ")]
        if split.features_used.size == 1 and split.rule not in (ARGMAX, NEAREST_CENTRE):
            return SplitLabel(escape(text), text)
        if split.rule == HYPERPLANE:
            lines = self._wrapped_terms(split.weights[0], order, BOX_TERMS)
        else:
            # one short line per affine map: the branch's score (argmax) or a coordinate
            # of the space in which the nearest centre is sought
            if split.rule == ARGMAX:
                lines, row_names = ["largest score:"], self.edge_labels(split)
            else:
                lines = ["nearest centre in:"]
                row_names = [f"v{i + 1}" for i in range(split.weights.shape[0])]
            for row_name, weights, bias in zip(row_names, split.weights, split.bias):
                terms = self._wrapped_terms(weights, order, 1, bias=bias)
                lines.append(f"{row_name}: " + " ".join(terms))
            if len(lines) > BOX_TERMS + 1:
                lines = lines[:BOX_TERMS + 1] + ["…"]
        return SplitLabel("<br/>".join(escape(line) for line in lines), text)

    def _wrapped_terms(self, weights, order, max_terms, bias=0.0):
        """Lines of at most BOX_LINE_CHARS characters with the first ``max_terms`` terms."""
        used = [int(j) for j in order if weights[j] != 0]
        pieces = []
        for j in used[:max_terms]:
            term = linear_terms(weights, self.names, DECIMALS, order=[j])[0]
            if pieces:
                term = f"− {term[1:]}" if term.startswith("−") else f"+ {term}"
            pieces.append(term)
        if len(used) > max_terms:
            pieces.append(f"+ {len(used) - max_terms} more")
        if bias != 0:
            pieces.append(("+ " if bias > 0 else "− ") + format_number(abs(bias), DECIMALS))
        lines = []
        for piece in pieces or ["0"]:
            if lines and len(lines[-1]) + 1 + len(piece) <= BOX_LINE_CHARS:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
        return [line if len(line) <= BOX_LINE_CHARS else line[:BOX_LINE_CHARS - 1] + "…"
                for line in lines]


def _common_prefix(texts):
    first, *rest = texts
    length = len(first)
    for text in rest:
        length = min(length, len(text))
        for i in range(length):
            if text[i] != first[i]:
                length = i
                break
    return first[:length]


class ObliqueTreeModel(Orange.tree.TreeModel, Orange.classification.Model):
    """An oblique classification tree for Orange, wrapping any fitted core estimator.

    Prediction routes rows through ``estimator.tree_`` with numpy and returns probabilities
    over all values of the class variable (zero for values absent from training).  The
    Orange node structure (``root``, :class:`ObliqueNode`) exists for Orange's tree viewers
    and for selecting data: a node's ``subset`` holds the indices of all rows of the
    training table that reach it, rows with a missing class included.  A branch that no
    training row with a class reached has no node (``None`` among its parent's children),
    as in Orange's own trees; predictions for such branches use the parent's distribution.

    Parameters
    ----------
    data : Orange.data.Table
        The (preprocessed) table the estimator was fitted on, all rows.
    estimator : fitted core estimator
        Has ``tree_`` (an :class:`~orangecontrib.oblique.core.tree.ObliqueTree`) and
        ``classes_`` (the class value indices seen in training).
    """

    def __init__(self, data, estimator):
        self.estimator = estimator
        n_values = len(data.domain.class_var.values)
        tree = estimator.tree_
        classes = np.asarray(estimator.classes_).astype(int)
        self._counts = np.zeros((tree.node_count, n_values))
        self._counts[:, classes] = tree.value
        self._proba = np.zeros((tree.node_count, n_values))
        self._proba[:, classes] = tree.proba
        root = self._build_nodes(data)
        super().__init__(data, root)

    @property
    def tree_(self):
        """The fitted :class:`~orangecontrib.oblique.core.tree.ObliqueTree`."""
        return self.estimator.tree_

    def _build_nodes(self, data):
        tree = self.tree_
        X = _dense(data.X)
        reached, _ = route(tree, X)
        known = ~np.isnan(data.Y)
        std = np.nanstd(X[known] if known.any() else X, axis=0) if X.size else []
        texts = _SplitTexts([attr.name for attr in data.domain.attributes], std)
        nodes = []
        for node_id in range(tree.node_count):
            split = tree.splits[node_id]
            attr = None if split is None else texts.label(split)
            node = ObliqueNode(node_id, attr, self._counts[node_id])
            node.subset = reached[node_id]
            nodes.append(node)
        for node_id, node in enumerate(nodes):
            split = tree.splits[node_id]
            if split is None:
                continue
            node.children = [nodes[child] if self._counts[child].sum() > 0 else None
                             for child in tree.children[node_id]]
            for child, condition, label in zip(node.children, texts.conditions(split),
                                               texts.edge_labels(split)):
                if child is not None:
                    child.condition = condition
                    child.description = label
        return nodes[0]

    # ----- Orange's TreeModel interface -----
    def _compile(self):
        """Nothing to compile: prediction routes rows through ``tree_`` directly."""

    def _compute_descriptions(self):
        """Descriptions are set when the nodes are built; only link the parents."""
        self.root.parent = None
        for node in self._nodes():
            for child in node.children:
                if child is not None:
                    child.parent = node

    def _nodes(self):
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(child for child in reversed(node.children) if child is not None)

    def get_values(self, X):
        """Class counts (over all class values) of the node where each row stops."""
        return self._counts[route(self.tree_, _dense(X))[1]]

    def predict(self, X):
        """Class probabilities over all values of the class variable."""
        return self._proba[route(self.tree_, _dense(X))[1]]

    def rule(self, node):
        """Conditions of every branch on the path from the root to ``node``, root first."""
        return [n.condition for n in reversed(list(self.climb(node))) if n.parent is not None]

    def node_count(self):
        return sum(1 for _ in self._nodes())

    def leaf_count(self):
        return sum(1 for node in self._nodes() if not any(node.children))

    def depth(self):
        return max(int(self.tree_.node_depth[node.node_id]) for node in self._nodes())

    def print_tree(self, node=None, level=0):
        return self.tree_.export_text([attr.name for attr in self.domain.attributes],
                                      list(self.domain.class_var.values), DECIMALS)


def _dense(X):
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)


class ObliqueTreeLearner(Orange.classification.Learner):
    """Base of the Orange learners of oblique trees.

    A subclass names its core estimator in ``estimator_class`` and keeps the estimator's
    parameters as same-named attributes listed in ``params``.  Features are continuized (one-hot for
    categorical ones) and missing values imputed; rows with a missing class are left out
    of the fit but stay in the model's node subsets.
    """
    __returns__ = ObliqueTreeModel
    # Impute (column means, like SklImpute) also accepts a table left without features
    preprocessors = (RemoveNaNColumns(), Continuize(), Impute())
    supports_weights = True
    #: The core estimator class; built from the parameters named in ``self.params``.
    estimator_class = None

    def _store_params(self, **params):
        """Keep every estimator parameter as a same-named attribute and in ``params``."""
        self.params = params
        for name, value in params.items():
            setattr(self, name, value)

    def create_estimator(self):
        """The unfitted core estimator, with the learner's current parameters."""
        return self.estimator_class(**{name: getattr(self, name) for name in self.params})

    def incompatibility_reason(self, domain):
        if domain.class_var is None and not domain.class_vars:
            return "Data has no target variable; an oblique tree needs a categorical class."
        return super().incompatibility_reason(domain)

    def __call__(self, data, progress_callback=None):
        """Fit a model; ``progress_callback(fraction, ...)`` is called while the tree grows,
        and an exception it raises aborts the fit (a widget cancelling a background fit)."""
        token = _FIT_PROGRESS.set(progress_callback)
        try:
            # Orange's Learner.__call__ lists the class values seen as ``unique(Y)``, which
            # casts NaN (rows with a missing class) to an integer; list the fitted classes
            with np.errstate(invalid="ignore"):
                model = super().__call__(data, progress_callback)
        finally:
            _FIT_PROGRESS.reset(token)
        model.used_vals = [np.asarray(model.estimator.classes_).astype(int)]
        return model

    def fit_storage(self, data):
        reason = self.incompatibility_reason(data.domain)
        if reason is not None:
            raise ValueError(reason)
        if not data.domain.attributes:
            raise ValueError("Data has no features to learn from (after preprocessing).")
        X = _dense(data.X)
        y = np.asarray(data.Y, dtype=float).reshape(-1)
        known = ~np.isnan(y)
        if not known.any():
            raise ValueError("Every class value is missing; there is nothing to learn from.")
        weights = data.W[known] if data.has_weights() else None
        progress_callback = _FIT_PROGRESS.get()
        if progress_callback is not None:
            progress_callback = wrap_callback(progress_callback, start=_FIT_START, end=1)
        estimator = self.create_estimator()
        estimator.fit(X[known], y[known].astype(int), sample_weight=weights,
                      progress_callback=progress_callback)
        return ObliqueTreeModel(data, estimator)


class GeometricTreeLearner(ObliqueTreeLearner):
    """Geometric Decision Tree (Manwani & Sastry, 2012) for Orange.

    Parameters are those of :class:`~orangecontrib.oblique.core.GeometricTreeClassifier`.
    """
    name = "Geometric Tree"
    estimator_class = GeometricTreeClassifier

    def __init__(self, epsilon1=0.1, epsilon2=None, max_depth=20, min_samples_split=2,
                 standardize=True, pruning_portion=0.0, se_rule=0.0, random_state=None,
                 preprocessors=None):
        super().__init__(preprocessors=preprocessors)
        self._store_params(epsilon1=epsilon1, epsilon2=epsilon2, max_depth=max_depth,
                           min_samples_split=min_samples_split, standardize=standardize,
                           pruning_portion=pruning_portion, se_rule=se_rule,
                           random_state=random_state)


class OC1Learner(ObliqueTreeLearner):
    """OC1 (Murthy, Kasif & Salzberg, 1994) for Orange.

    Parameters are those of :class:`~orangecontrib.oblique.core.OC1Classifier`, with the
    same defaults (twoing rule, 20 restarts, 5 random jumps, 10 % held out for pruning).
    """
    name = "OC1"
    estimator_class = OC1Classifier

    def __init__(self, impurity="twoing", n_restarts=20, n_random_jumps=5,
                 coefficient_order="sequential", axis_parallel_bias=1.0,
                 oblique_rows_per_feature=2.0, split_mode="oblique_and_axis_parallel",
                 pruning_portion=0.1, se_rule=0.0, max_depth=50, min_samples_split=2,
                 random_state=None, preprocessors=None):
        super().__init__(preprocessors=preprocessors)
        self._store_params(impurity=impurity, n_restarts=n_restarts,
                           n_random_jumps=n_random_jumps, coefficient_order=coefficient_order,
                           axis_parallel_bias=axis_parallel_bias,
                           oblique_rows_per_feature=oblique_rows_per_feature,
                           split_mode=split_mode, pruning_portion=pruning_portion,
                           se_rule=se_rule, max_depth=max_depth,
                           min_samples_split=min_samples_split, random_state=random_state)
