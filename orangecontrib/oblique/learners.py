"""Orange learners and models for the oblique trees of :mod:`orangecontrib.oblique.core`.

:class:`ObliqueTreeLearner` turns an Orange :class:`~Orange.data.Table` into numbers and fits
a core estimator; :class:`ObliqueTreeModel` wraps the fitted estimator for Orange.  The model
is an :class:`Orange.tree.TreeModel`, so Orange's own Tree Viewer and Pythagorean Tree show
it: every internal node carries a :class:`SplitLabel` in place of Orange's split attribute,
with the node's test in raw feature units (a hyperplane), in the attribute's own values (a
nominal test ``x = a``) or as one branch per class or cluster (multiway splits).

:class:`HedgeEnsembleLearner` combines several trees of any of these learners by Hedge(β)
(:class:`~orangecontrib.oblique.core.ensemble.HedgeEnsembleClassifier`).
"""
import warnings
from contextvars import ContextVar
from html import escape
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

import Orange.classification
import Orange.tree
from Orange.data import DiscreteVariable, Table, Variable
from Orange.preprocess.score import LearnerScorer
from Orange.preprocess import Continuize, Impute, RemoveNaNColumns
from Orange.util import wrap_callback

from .core import GeometricTreeClassifier, OC1Classifier
from .core.ensemble import HedgeEnsembleClassifier
from .core.odt_svm import ODTSVMClassifier
from .core.rules import branch_conditions, format_significant, linear_terms, split_description
from .core.tree import ARGMAX, EQUALITY, HYPERPLANE, NEAREST_CENTRE, Split

__all__ = ["ObliqueTreeLearner", "ObliqueTreeModel", "GeometricTreeLearner", "OC1Learner",
           "ODTSVMLearner", "HedgeEnsembleLearner", "HedgeEnsembleModel", "SplitLabel",
           "ObliqueNode", "InputDataWarning", "FitMessage"]

#: Digits after the decimal point of class counts in node texts.  (The numbers of a rule
#: have the split's own significant digits, with which the rule routes the training rows
#: exactly as the model: ``Split.print_digits``.)
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
    Orange's own trees, a row with a missing value (NaN, or ±inf) in a feature used by a
    split stops at that split's node.  Vectorised over rows: one step per node.

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
        nan = ~np.isfinite(block)  # ±inf, like NaN, is a missing value here
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
    hyperplane shortened to its first terms keeps the ones that matter.  Branches are
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
        Names of the class values; an argmax split whose branch labels are class value
        indices (as the core estimators fitted by the learners give them) is shown with
        these names.
    """

    def __init__(self, variables, feature_std, class_values=None):
        self.variables = list(variables)
        self.names = [variable.name for variable in self.variables]
        self.std = np.asarray(feature_std, dtype=float)
        self.class_values = None if class_values is None else list(class_values)

    def readable(self, split):
        """``split`` with branch labels in the domain's words (the routing is unchanged)."""
        if split.rule == EQUALITY:
            j = int(split.features_used[0])
            variable = self.variables[j]
            code = -split.bias[0] / split.weights[0, j]
            if (split.child_labels is None and variable.is_discrete
                    and code == round(code) and 0 <= code < len(variable.values)):
                value = variable.values[int(code)]
                return Split(EQUALITY, split.weights, split.bias,
                             child_labels=(value, f"≠ {value}"), digits=split.print_digits)
        elif split.rule == ARGMAX and split.child_labels is not None and self.class_values:
            labels = split.child_labels
            if all(label.isdigit() and int(label) < len(self.class_values)
                   for label in labels):
                return Split(ARGMAX, split.weights, split.bias,
                             child_labels=[self.class_values[int(label)] for label in labels],
                             digits=split.print_digits)
        elif split.rule == NEAREST_CENTRE:
            labels = split.child_labels or [str(k + 1) for k in range(split.n_children)]
            return Split(NEAREST_CENTRE, split.weights, split.bias, centres=split.centres,
                         child_labels=[f"cluster {label}" for label in labels],
                         digits=split.print_digits)
        return split

    def order(self, weights):
        importance = np.abs(weights).max(axis=0) * self.std
        return np.argsort(-importance, kind="stable")

    def conditions(self, split):
        """Full plain-text condition of every branch of ``split``."""
        split = self.readable(split)
        order = self.order(split.weights)
        conditions = branch_conditions(split, self.names, order=order)
        if split.rule in (ARGMAX, NEAREST_CENTRE):
            scores = split_description(split, self.names, order=order)
            conditions = [f"{condition} of [{scores}]" for condition in conditions]
        return conditions

    def edge_labels(self, split):
        """Short label of every branch: the right-hand side of its condition."""
        return self._edge_labels(self.readable(split))

    def _edge_labels(self, split):
        conditions = branch_conditions(split, self.names, order=self.order(split.weights))
        if split.n_children == 2 and split.rule not in (ARGMAX, NEAREST_CENTRE):
            # "lhs < rhs" / "lhs ≥ rhs", "x = a" / "x ≠ a": the texts agree up to the
            # operator
            prefix = _common_prefix(conditions)
            prefix = prefix[:prefix.rfind(" ") + 1]
            return [condition[len(prefix):] for condition in conditions]
        return [condition.partition(": ")[2] or condition for condition in conditions]

    def label(self, split):
        """The :class:`SplitLabel` of an internal node."""
        split = self.readable(split)
        order = self.order(split.weights)
        if split.rule in (ARGMAX, NEAREST_CENTRE):
            text = split_description(split, self.names, order=order)
        else:  # the left-hand side shared by the two branch conditions
            text = _common_prefix(branch_conditions(split, self.names, order=order))
            text = text[:text.rfind(" ")]
        if split.features_used.size == 1 and split.rule not in (ARGMAX, NEAREST_CENTRE):
            return SplitLabel(escape(text), text)
        if split.rule == HYPERPLANE:
            lines = self._wrapped_terms(split.weights[0], order, BOX_TERMS,
                                        digits=split.print_digits)
        else:
            # the largest term of every affine map: the branch's score (argmax) or a
            # coordinate of the space in which the nearest centre is sought; the map's
            # name shares the first line if both fit, else it has a line of its own
            if split.rule == ARGMAX:
                lines, row_names = ["largest score:"], self._edge_labels(split)
            else:
                lines = ["nearest centre in:"]
                row_names = [f"v{i + 1}" for i in range(split.weights.shape[0])]
            rows = list(zip(row_names, split.weights, split.bias))
            for row_name, weights, bias in rows[:BOX_TERMS]:
                terms = self._wrapped_terms(weights, order, 1, bias=bias,
                                            digits=split.print_digits)
                head = f"{row_name}: {terms[0]}"
                if len(head) <= BOX_LINE_CHARS:
                    lines += [head] + terms[1:]
                else:
                    lines += [_shortened(f"{row_name}:")] + terms
            if len(rows) > BOX_TERMS:
                lines.append(f"… {len(rows) - BOX_TERMS} more")
        return SplitLabel("<br/>".join(escape(line) for line in lines), text)

    def _wrapped_terms(self, weights, order, max_terms, bias=0.0, digits=None):
        """Lines of at most BOX_LINE_CHARS characters with the first ``max_terms`` terms."""
        used = [int(j) for j in order if weights[j] != 0]
        pieces = []
        for j in used[:max_terms]:
            term = linear_terms(weights, self.names, digits, order=[j])[0]
            if pieces:
                term = f"− {term[1:]}" if term.startswith("−") else f"+ {term}"
            pieces.append(term)
        if len(used) > max_terms:
            pieces.append(f"+ {len(used) - max_terms} more")
        if bias != 0:
            pieces.append(("+ " if bias > 0 else "− ") + format_significant(abs(bias), digits))
        lines = []
        for piece in pieces or ["0"]:
            if lines and len(lines[-1]) + 1 + len(piece) <= BOX_LINE_CHARS:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
        return [_shortened(line) for line in lines]


def _shortened(line):
    """``line`` cut to BOX_LINE_CHARS characters, ending with "…" if it was cut."""
    return line if len(line) <= BOX_LINE_CHARS else line[:BOX_LINE_CHARS - 1] + "…"


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


class _SplitSummaryMixin:
    """What a model of a fitted core estimator (in ``estimator``: a tree or a Hedge
    ensemble of trees) tells about its splits and the features they use.  Everything is
    computed from the estimator when asked, so models pickled before these properties
    existed have them too."""

    @property
    def feature_importances(self):
        """Importance of every attribute of the model's (preprocessed) ``domain``,
        non-negative and summing to 1 (all zeros for a tree that is a single leaf): the
        estimator's ``feature_importances_``, each split's weighted Gini decrease shared
        among its attributes by ``|weight| · standard deviation``; for an ensemble, the
        members' importances averaged with their Hedge weights."""
        return np.asarray(self.estimator.feature_importances_, dtype=float)

    @property
    def split_statistics(self):
        """:class:`~orangecontrib.oblique.core.tree.SplitStatistics` of the tree, or
        summed over the members of an ensemble."""
        return self.estimator.get_split_statistics()

    @property
    def n_splits(self):
        """Number of internal nodes (summed over the members of an ensemble)."""
        return self.split_statistics.n_splits

    @property
    def n_oblique_splits(self):
        """Number of splits that weigh two or more attributes together (summed over the
        members of an ensemble)."""
        return self.split_statistics.n_oblique_splits

    @property
    def mean_attributes_per_split(self):
        """Mean number of attributes (of non-zero weight) per split, over all splits (of
        all members); NaN for a model without splits."""
        return self.split_statistics.mean_attributes_per_split


class ObliqueTreeModel(_SplitSummaryMixin, Orange.tree.TreeModel, Orange.classification.Model):
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
        texts = _SplitTexts(data.domain.attributes, std, data.domain.class_var.values)
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


class InputDataWarning(UserWarning):
    """Warned by the learners of this module when they leave rows out of the fit (rows
    with a missing class value) or treat values as missing (±inf); the message gives the
    count.  The model keeps the same reports as data (:class:`FitMessage`, in its
    ``fit_messages``), which is what a widget shows."""


class FitMessage(NamedTuple):
    """Something a learner did to the data it was given, kept by the fitted model.

    A model fitted by the learners of this module has ``fit_messages``: a tuple of these,
    in the order they happened (empty if the data needed nothing).  The learner also warns
    each ``text`` as an :class:`InputDataWarning`.

    Attributes
    ----------
    kind : str
        ``"infinite_values"``: ``count`` of the ``total`` feature values were ±inf and were
        treated as missing (imputed); ``"skipped_rows"``: ``count`` of the ``total`` rows
        have a missing class value and were left out of the fit.
    count, total : int
    text : str
        The sentence the learner warns, e.g. "10 of 100 rows have a missing class value
        and were left out of the fit."
    """
    kind: str
    count: int
    total: int
    text: str


#: The :class:`FitMessage` list of the learner call running in this thread (or asyncio
#: context), filled by the preprocessing (±inf values) for ``fit_storage`` to give to the
#: model; None outside a call.
_FIT_MESSAGES = ContextVar("oblique_fit_messages", default=None)


def _report(kind, count, total, text, stacklevel):
    """Warn ``text`` as an :class:`InputDataWarning` (``stacklevel`` as the caller's own)
    and return it as a :class:`FitMessage`."""
    warnings.warn(text, InputDataWarning, stacklevel=stacklevel + 1)
    return FitMessage(kind, count, total, text)


class _Impute(Impute):
    """Orange's :class:`~Orange.preprocess.Impute` (means of numeric attributes, most
    frequent values of nominal ones), also for tables with instance weights: Orange 3.40's
    statistics fail on those (``Table._compute_basic_stats``), so the imputed values of a
    weighted table are computed without the weights."""

    def __call__(self, data):
        if not data.has_weights():
            return super().__call__(data)
        unweighted = Table.from_numpy(data.domain, data.X, data.Y, data.metas, ids=data.ids)
        return data.transform(super().__call__(unweighted).domain)


def _infinite_as_missing(data):
    """``data`` with ±inf feature values replaced by NaN (missing), with an
    :class:`InputDataWarning` giving their count (also recorded as a :class:`FitMessage` of
    the running learner call); ``data`` itself if it has none.  (Orange's
    ``Table.from_numpy`` does the same, but a table's arrays can be edited afterwards.)"""
    values = data.X.data if sp.issparse(data.X) else data.X
    if values.dtype.kind != "f":
        return data
    count = int(np.isinf(values).sum())
    if not count:
        return data
    message = _report("infinite_values", count, int(np.prod(data.X.shape)),
                      f"{count} infinite feature value{'s' if count > 1 else ''} (±inf) "
                      f"treated as missing and imputed.", stacklevel=4)
    recorded = _FIT_MESSAGES.get()
    if recorded is not None:
        recorded.append(message)
    data = data.copy()
    with data.unlocked(data.X):
        values = data.X.data if sp.issparse(data.X) else data.X
        values[np.isinf(values)] = np.nan
    return data


class _FitProgressMixin:
    """``__call__`` of a learner whose ``fit_storage`` reports progress (see
    ``_FIT_PROGRESS``) and gives the model the call's :class:`FitMessage` list (see
    ``_FIT_MESSAGES``), and whose model keeps its fitted core estimator in ``estimator``."""

    def preprocess(self, data, progress_callback=None):
        """Orange's preprocessing, after the checks no preprocessor can mend: a table
        without rows is a clear error, and ±inf feature values are treated as missing (so
        that they are imputed), with an :class:`InputDataWarning`."""
        if len(data) == 0:
            raise ValueError("Data has no rows; there is nothing to learn from.")
        return super().preprocess(_infinite_as_missing(data), progress_callback)

    def __call__(self, data, progress_callback=None):
        """Fit a model; ``progress_callback(fraction, ...)`` is called during the fit, and
        an exception it raises aborts the fit (a widget cancelling a background fit)."""
        token = _FIT_PROGRESS.set(progress_callback)
        messages_token = _FIT_MESSAGES.set([])
        try:
            # Orange's Learner.__call__ lists the class values seen as ``unique(Y)``, which
            # casts NaN (rows with a missing class) to an integer; list the fitted classes
            with np.errstate(invalid="ignore"):
                model = super().__call__(data, progress_callback)
        finally:
            _FIT_MESSAGES.reset(messages_token)
            _FIT_PROGRESS.reset(token)
        model.used_vals = [np.asarray(model.estimator.classes_).astype(int)]
        return model


def _training_rows(learner, data):
    """``(X, y, weights, messages)``: the rows with a known class, after the checks every
    learner of this module makes (clear errors for data it cannot learn from), and the
    :class:`FitMessage` tuple for the model (those of the preprocessing, then the rows left
    out)."""
    reason = learner.incompatibility_reason(data.domain)
    if reason is not None:
        raise ValueError(reason)
    if not data.domain.attributes:
        raise ValueError("Data has no features to learn from (after preprocessing).")
    X = _dense(data.X)
    y = np.asarray(data.Y, dtype=float).reshape(-1)
    known = ~np.isnan(y)
    if not known.any():
        raise ValueError("Every class value is missing; there is nothing to learn from.")
    messages = list(_FIT_MESSAGES.get() or ())
    if not known.all():
        count = len(y) - int(known.sum())
        messages.append(_report(
            "skipped_rows", count, len(y), f"{count} of {len(y)} rows have a missing class "
            f"value and were left out of the fit.", stacklevel=3))
    weights = data.W[known] if data.has_weights() else None
    # a preprocessing run twice (Orange retries one that raises TypeError) reports once
    return X[known], y[known].astype(int), weights, tuple(dict.fromkeys(messages))


def _fit_progress():
    """The progress callback of the running fit, scaled to the part after preprocessing."""
    progress_callback = _FIT_PROGRESS.get()
    if progress_callback is not None:
        progress_callback = wrap_callback(progress_callback, start=_FIT_START, end=1)
    return progress_callback


class _ImportanceScorerMixin(LearnerScorer):
    """Makes a learner a feature scorer, e.g. for Orange's Rank widget (as Orange's
    ``RandomForestLearner``): :meth:`score` fits a model and returns its
    ``feature_importances`` over the attributes of the preprocessed domain; Orange's
    ``LearnerScorer.score_data`` gives each original attribute the largest score of the
    columns derived from it (e.g. its one-hot columns)."""
    feature_type = Variable
    class_type = DiscreteVariable

    def score(self, data):
        model = self(data)
        return model.feature_importances, model.domain.attributes


class ObliqueTreeLearner(_FitProgressMixin, Orange.classification.Learner,
                         _ImportanceScorerMixin):
    """Base of the Orange learners of oblique trees.

    A subclass names its core estimator in ``estimator_class`` and keeps the estimator's
    parameters as same-named attributes listed in ``params``.  By default features are
    continuized (one-hot for categorical ones; :class:`ODTSVMLearner` keeps them) and
    missing values (and ±inf) imputed; rows with a missing class are left out of the fit,
    with an :class:`InputDataWarning` giving their number, but stay in the model's node
    subsets.  A table without rows, features or a categorical class is a ValueError.

    The learner is also a feature scorer (a :class:`~Orange.preprocess.score.LearnerScorer`,
    for Orange's Rank widget): it scores attributes by the fitted tree's
    ``feature_importances``.
    """
    __returns__ = ObliqueTreeModel
    # Impute (column means, like SklImpute) also accepts a table left without features
    preprocessors = (RemoveNaNColumns(), Continuize(), _Impute())
    supports_weights = True
    #: The core estimator class; built from the parameters named in ``self.params``.
    estimator_class = None

    def _store_params(self, **params):
        """Keep every estimator parameter as a same-named attribute and in ``params``."""
        self.params = params
        for name, value in params.items():
            setattr(self, name, value)

    def create_estimator(self, domain=None):
        """The unfitted core estimator, with the learner's current parameters.

        ``domain`` is the preprocessed domain the estimator will be fitted on; a learner
        whose estimator treats some columns specially (:class:`ODTSVMLearner`: nominal
        attributes) reads them from it.
        """
        return self.estimator_class(**{name: getattr(self, name) for name in self.params})

    def incompatibility_reason(self, domain):
        if domain.class_var is None and not domain.class_vars:
            return "Data has no target variable; an oblique tree needs a categorical class."
        reason = super().incompatibility_reason(domain)
        if (reason is not None and domain.class_var is not None
                and domain.class_var.is_continuous):
            reason = (f"Categorical class variable expected: '{domain.class_var.name}' is "
                      f"numeric (a regression target), and an oblique tree is a classifier.")
        return reason

    def fit_storage(self, data):
        """The :class:`ObliqueTreeModel` of the core estimator fitted on the rows of
        ``data`` with a known class; its ``fit_messages`` (:class:`FitMessage`) tell what
        was done to the data."""
        X, y, weights, messages = _training_rows(self, data)
        estimator = self.create_estimator(data.domain)
        estimator.fit(X, y, sample_weight=weights, progress_callback=_fit_progress())
        model = ObliqueTreeModel(data, estimator)
        model.fit_messages = messages
        return model


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


class ODTSVMLearner(ObliqueTreeLearner):
    """ODT-SVM (Menkovski, Christou & Efremidis, 2008) for Orange.

    Parameters are those of :class:`~orangecontrib.oblique.core.odt_svm.ODTSVMClassifier`,
    with the same defaults, except ``categorical_features``: unlike the other learners,
    ODT-SVM keeps nominal attributes as they are (no one-hot encoding).  Missing values
    are imputed (Orange's ``Impute``: the mean of a numeric attribute, the most frequent
    value of a nominal one), and the columns of the preprocessed domain's
    :class:`~Orange.data.DiscreteVariable` attributes are passed to the estimator as
    ``categorical_features``, so that they get tests ``attribute = value`` and stay out of
    the SVM.
    """
    name = "ODT-SVM"
    estimator_class = ODTSVMClassifier
    # no Continuize: nominal attributes stay value codes 0 .. V-1
    preprocessors = (RemoveNaNColumns(), _Impute())

    def __init__(self, C=1.0, clustering_split=True, max_clusters=5, mdl_penalty=True,
                 axis_parallel_tests=True, min_samples_leaf=2, confidence=0.25,
                 max_depth=None, random_state=None, preprocessors=None):
        super().__init__(preprocessors=preprocessors)
        self._store_params(C=C, clustering_split=clustering_split, max_clusters=max_clusters,
                           mdl_penalty=mdl_penalty, axis_parallel_tests=axis_parallel_tests,
                           min_samples_leaf=min_samples_leaf, confidence=confidence,
                           max_depth=max_depth, random_state=random_state)

    def create_estimator(self, domain=None):
        estimator = super().create_estimator(domain)
        if domain is not None:
            estimator.set_params(categorical_features=[
                j for j, variable in enumerate(domain.attributes) if variable.is_discrete])
        return estimator


class HedgeEnsembleModel(_SplitSummaryMixin, Orange.classification.Model):
    """A fitted Hedge(β) ensemble of oblique trees.

    ``estimator`` is the fitted
    :class:`~orangecontrib.oblique.core.ensemble.HedgeEnsembleClassifier`; its members
    (``estimator.estimators_``) are the core tree estimators and ``estimator.weights_``
    their Hedge weights.  Prediction is the weighted average of the members' class
    distributions, over all values of the class variable (zero for values absent from
    training).  ``fit_messages`` (:class:`FitMessage`) tell what the learner did to the
    data.
    """

    def __init__(self, domain, estimator, fit_messages=()):
        super().__init__(domain)
        self.estimator = estimator
        self.fit_messages = tuple(fit_messages)

    def predict(self, X):
        """Class probabilities over all values of the class variable.

        A row with a missing value (NaN or ±inf; a table's own rows are imputed before)
        stops, in every member, at the node whose split it cannot evaluate, as in
        :class:`ObliqueTreeModel`."""
        X = _dense(X)
        proba = np.zeros((X.shape[0], len(self.domain.class_var.values)))
        classes = np.asarray(self.estimator.classes_).astype(int)
        if np.isfinite(X).all():
            proba[:, classes] = self.estimator.predict_proba(X)
            return proba
        ensemble = self.estimator
        for weight, member in zip(ensemble.weights_ / ensemble.weights_.sum(),
                                  ensemble.estimators_):
            member_classes = classes[np.asarray(member.classes_, dtype=np.intp)]
            proba[:, member_classes] += weight * member.tree_.proba[route(member.tree_, X)[1]]
        return proba


class HedgeEnsembleLearner(_FitProgressMixin, Orange.classification.Learner,
                           _ImportanceScorerMixin):
    """Hedge(β) ensemble of oblique trees (ODT-SVM paper, Sections V–VI) for Orange.

    Trains ``n_estimators`` trees of ``learner``, each on a different random
    ``sample_fraction`` of the rows (stratified by class), weights them by Hedge(β) on the
    rows each tree was not trained on (from equal weights, a tree's weight is multiplied by
    ``beta`` for every one of its held-out rows it misclassifies, then the weights are
    normalised; with ``sample_fraction`` 1 they stay equal), and predicts the
    Hedge-weighted average of their class distributions; see
    :class:`~orangecontrib.oblique.core.ensemble.HedgeEnsembleClassifier`.

    Parameters
    ----------
    learner : ObliqueTreeLearner, default ``ODTSVMLearner()``
        The base learner: :class:`GeometricTreeLearner`, :class:`OC1Learner` or
        :class:`ODTSVMLearner` (the paper's choice).  Its core estimator
        (:meth:`ObliqueTreeLearner.create_estimator`) is the ensemble's base estimator, and
        its preprocessors are applied (after the ensemble's own ``preprocessors``).
    n_estimators : int, default 10
    sample_fraction : float in (0, 1], default 0.9
    beta : float in (0, 1), default 0.9
    random_state : int or None, default 0
        Seeds the subsets and the members' own ``random_state``.
    preprocessors : optional
        Applied before the base learner's preprocessors.

    Rows with a missing class are left out of the fit (the model's ``fit_messages`` say
    how many).  While fitting, the progress callback of ``__call__`` advances through equal
    shares, one per member, each filled as that member's tree grows; an exception raised
    by the callback aborts the fit.
    """
    name = "Hedge Ensemble"
    __returns__ = HedgeEnsembleModel
    supports_weights = True

    def __init__(self, learner=None, n_estimators=10, sample_fraction=0.9, beta=0.9,
                 random_state=0, preprocessors=None):
        if learner is None:
            learner = ODTSVMLearner()
        if not isinstance(learner, ObliqueTreeLearner):
            name = getattr(learner, "name", type(learner).__name__)
            raise ValueError(
                f"The base learner of a Hedge ensemble must be an oblique tree learner of "
                f"this add-on (Geometric Tree, OC1 or ODT-SVM), not {name}.")
        super().__init__(preprocessors=preprocessors)
        self.params = dict(learner=learner, n_estimators=n_estimators,
                           sample_fraction=sample_fraction, beta=beta,
                           random_state=random_state)
        for name, value in self.params.items():
            setattr(self, name, value)

    @property
    def active_preprocessors(self):
        yield from super().active_preprocessors
        yield from self.learner.active_preprocessors

    def incompatibility_reason(self, domain):
        return self.learner.incompatibility_reason(domain)

    def create_estimator(self, domain=None):
        """The unfitted core ensemble of the base learner's estimator for ``domain``."""
        return HedgeEnsembleClassifier(
            estimator=self.learner.create_estimator(domain), n_estimators=self.n_estimators,
            sample_fraction=self.sample_fraction, beta=self.beta,
            random_state=self.random_state)

    def fit_storage(self, data):
        X, y, weights, messages = _training_rows(self, data)
        ensemble = self.create_estimator(data.domain)
        ensemble.fit(X, y, sample_weight=weights, progress_callback=_fit_progress())
        return HedgeEnsembleModel(data.domain, ensemble, messages)
