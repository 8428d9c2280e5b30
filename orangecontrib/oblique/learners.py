"""Orange learners and models for the oblique trees of :mod:`orangecontrib.oblique.core`.

:class:`ObliqueTreeLearner` turns an Orange :class:`~Orange.data.Table` into numbers and fits
a core estimator; :class:`ObliqueTreeModel` wraps the fitted estimator for Orange.  The model
is an :class:`Orange.tree.TreeModel`, so Orange's own Tree Viewer and Pythagorean Tree show
it: every internal node carries a :class:`SplitLabel` in place of Orange's split attribute,
with the node's test in raw feature units (a hyperplane), in the attribute's own values (a
nominal test ``x = a``) or as one branch per class or cluster (multiway splits).

:class:`HedgeEnsembleLearner` combines several trees of any of these learners by Hedge(β)
(:class:`~orangecontrib.oblique.core.ensemble.hedge.HedgeEnsembleClassifier`);
:class:`ObliqueForestLearner` grows a forest of them (SPORF,
:class:`~orangecontrib.oblique.core.forest.classifier.ObliqueForestClassifier`).
"""
import copy
import pickle
import warnings
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

import Orange.classification
import Orange.tree
from Orange.data import DiscreteVariable, Domain, Table, Variable
from Orange.preprocess.score import LearnerScorer
from Orange.preprocess import Continuize, Impute, RemoveNaNColumns
from Orange.preprocess.continuize import DomainContinuizer
from Orange.preprocess.transformation import Indicator
from Orange.util import dummy_callback, wrap_callback

from .core import GeometricTreeClassifier, OC1Classifier
from .core.ensemble.hedge import HedgeEnsembleClassifier
from .core.forest.classifier import ObliqueForestClassifier
from .core.odt_svm.classifier import ODTSVMClassifier
from .core.tree.rules import printable_name
from .core.tree.structure import GrowthWarning
from .core.parameters import InstanceOf, Parameter, constructor, with_declared_parameters
from .core.validation import (densified, dense_size_error, map_row_chunks,
                              unseen_codes_as_missing)
from .presentation import DisplayTree, SplitLabel, indicator_columns

__all__ = ["ObliqueTreeLearner", "ObliqueTreeModel", "GeometricTreeLearner", "OC1Learner",
           "ODTSVMLearner", "HedgeEnsembleLearner", "HedgeEnsembleModel", "SplitLabel",
           "ObliqueNode", "InputDataWarning", "FitMessage", "ObliqueForestLearner",
           "ObliqueForestModel"]

#: Digits after the decimal point of class counts in node texts.  (The numbers of a rule
#: have the split's own significant digits, with which the rule routes the training rows
#: exactly as the model: ``Split.print_digits``.)
DECIMALS = 3
#: The progress callback of the learner call running in this thread (or asyncio context).
#: Orange's ``Learner.__call__`` takes ``progress_callback`` but calls ``fit_storage(data)``
#: without it; a context variable carries it across without storing it on the learner,
#: which stays picklable, deep-copyable and safe to call from several threads at once.
_FIT_PROGRESS = ContextVar("oblique_fit_progress", default=None)
#: Orange's ``Learner.__call__`` reports 0.1 when preprocessing ends; the fit covers the rest.
_FIT_START = 0.1
#: What to do with a sparse table too large to densify (the end of the ValueError of
#: :func:`~orangecontrib.oblique.core.validation.dense_size_error`).
_SPARSE_TABLE_ADVICE = ("select fewer attributes (e.g. the best ones with Rank, or with "
                        "Select Columns) or fewer rows (Data Sampler)")


def unreadable_model_error(what):
    """The :class:`pickle.UnpicklingError` for a saved model (``what``: its class) that
    this version of the add-on cannot read: Orange's Load Model catches it and shows the
    message."""
    return pickle.UnpicklingError(
        f"This {what} of the Orange Oblique Trees add-on (orangecontrib.oblique) was saved "
        f"by a version whose model this version cannot read; fit the model again (refit) "
        f"and save it anew.")


class ObliqueNode(Orange.tree.Node):
    """A node of :class:`ObliqueTreeModel`: node ``node_id`` of its display tree
    (:class:`~orangecontrib.oblique.presentation.DisplayTree`), as the viewer numbers it.

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


def _origin(column, attributes):
    """The attribute of ``attributes`` that ``column`` (of a preprocessed domain) was made
    from, following each ``compute_value.variable``; None if it cannot be traced."""
    while column not in attributes:
        column = getattr(column.compute_value, "variable", None)
        if column is None:
            return None
    return column


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
    def attribute_importances(self):
        """(importances, attributes): :attr:`feature_importances` named by the attributes
        of the table the model was fitted on (``original_domain``), the same for every
        learner: the columns made from one attribute (its one-hot columns) summed back
        into it.  An attribute the preprocessing dropped scores 0; the importances still
        sum to 1 (0 for a single leaf)."""
        source = getattr(self, "original_domain", None)
        if source is None:
            source = self.domain
        attributes = source.attributes
        position = {attribute: index for index, attribute in enumerate(attributes)}
        summed = np.zeros(len(attributes))
        for column, importance in zip(self.domain.attributes, self.feature_importances):
            origin = _origin(column, position)
            if origin is not None:
                summed[position[origin]] += importance
        return summed, attributes

    @property
    def split_statistics(self):
        """:class:`~orangecontrib.oblique.core.tree.structure.SplitStatistics` of the tree, or
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
        Has ``tree_`` (an :class:`~orangecontrib.oblique.core.tree.structure.ObliqueTree`) and
        ``classes_`` (the class value indices seen in training).
    """

    def __init__(self, data, estimator, X=None):
        self.estimator = estimator
        # TreeModel's own constructor compiles its nodes for its own prediction; this
        # model predicts through ``tree_``: the model and the nodes are set up here
        Orange.tree.TreeModelInterface.__init__(self, data.domain)
        self.instances = data
        if X is None:
            X = _dense(data.X)
        known = ~np.isnan(np.asarray(data.Y, dtype=float).reshape(-1))
        # the one display tree, of the rows the estimator was fitted on: the Orange
        # nodes below and the Oblique Tree Viewer show it
        self.display = display = DisplayTree(
            # the counts of a tree of many classes, kept sparse, as arrays for the views
            estimator.tree_.with_dense_class_counts(), estimator.classes_, data.domain,
            getattr(estimator, "feature_importances_", None), X[known])
        self._counts, self._proba = display.core_value, display.core_proba
        display.count_training(self._tree_rows(X), data.Y)
        self.root = self._build_nodes(display)
        self._link_parents()

    @property
    def tree_(self):
        """The fitted :class:`~orangecontrib.oblique.core.tree.structure.ObliqueTree`."""
        return self.estimator.tree_

    @staticmethod
    def _build_nodes(display):
        """Orange's nodes of the :class:`DisplayTree` ``display``, numbered as it numbers
        them; a node's ``subset`` holds the training rows that reach it
        (:meth:`DisplayTree.count_training`)."""
        reached = display.training[0]
        nodes = [ObliqueNode(node, display.label(node), display.value[node])
                 for node in range(display.node_count)]
        for node, rows in zip(nodes, reached):
            node.subset = rows
        for node_id, node in enumerate(nodes):
            node.children = [None if child is None else nodes[child]
                             for child in display.branches(node_id)]
        for node, condition, label in zip(nodes[1:], *(texts[1:] for texts in
                                                       display.branch_texts())):
            node.condition, node.description = condition, label
        return nodes[0]

    # ----- pickling and copying at any depth -----
    def __getstate__(self):
        """The node structure flat: every node without its links, and its children by
        index, so that a tree of any depth pickles and copies without deep recursion
        (Orange's nodes link to their children and parents)."""
        state = dict(super().__getstate__())
        nodes = list(self._nodes())
        position = {id(node): i for i, node in enumerate(nodes)}
        flat = []
        for node in nodes:
            fields = {key: value for key, value in vars(node).items()
                      if key not in ("children", "parent")}
            flat.append((type(node), fields, [None if child is None else position[id(child)]
                                              for child in node.children]))
        state["root"] = flat
        return state

    def __setstate__(self, state):
        """The flat node structure of :meth:`__getstate__`, or the state of a model saved
        before it (up to 2026-11-28: the root with its linked nodes, as Orange pickles
        its trees); another state is a :class:`pickle.UnpicklingError` (which Orange's
        Load Model shows) saying to fit the model again."""
        flat = state.get("root") if isinstance(state, dict) else None
        if isinstance(flat, Orange.tree.Node):
            self.__dict__.update(state)     # the nodes were pickled with their links
            return
        if not isinstance(flat, list) or not flat or "estimator" not in state:
            raise unreadable_model_error(type(self).__name__)
        nodes = []
        for node_class, fields, _ in flat:
            node = node_class.__new__(node_class)
            node.__dict__.update(fields)
            nodes.append(node)
        nodes[0].parent = None
        for node, (_, _, children) in zip(nodes, flat):
            node.children = [None if child is None else nodes[child] for child in children]
            for child in node.children:
                if child is not None:
                    child.parent = node
        self.__dict__.update(state)
        self.root = nodes[0]

    # ----- Orange's TreeModel interface -----
    def _link_parents(self):
        """Every node's ``parent`` (descriptions are set when the nodes are built)."""
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
        """Class counts (over all class values) of the node where each row stops (a row
        sent down several branches by weight: the weighted mix of theirs)."""
        if self.tree_.routes_by_weight:
            return self._mixed(X, self._counts)
        return self._counts[self._stops(X)]

    def predict(self, X):
        """Class probabilities over all values of the class variable (a row sent down
        several branches by weight, C4.5's missing values: the weighted mix of theirs)."""
        if self.tree_.routes_by_weight:
            return self._mixed(X, self._proba)
        return self._proba[self._stops(X)]

    def _mixed(self, X, per_node):
        """Every row's mix of ``per_node`` over the nodes where its shares end
        (:meth:`~orangecontrib.oblique.core.tree.structure.ObliqueTree.stop_weights`)."""
        _check_width(X, self.domain)
        return map_row_chunks(
            lambda rows: np.asarray(self.tree_.stop_weights(self._tree_rows(rows))
                                    @ per_node), X)

    def _stops(self, X):
        """The node where each row stops (a sparse ``X`` densified in blocks of rows)."""
        _check_width(X, self.domain)
        return map_row_chunks(lambda rows: self.tree_.apply(self._tree_rows(rows)), X)

    def _tree_rows(self, X):
        """Rows of the model's domain as the tree takes them: dense, a nominal value no
        training row had as a missing value (:func:`_unseen_as_missing`)."""
        return _unseen_as_missing(self.estimator, _dense(X))

    def rule(self, node):
        """Conditions of every branch on the path from the root to ``node``, root first."""
        return [n.condition for n in reversed(list(self.climb(node))) if n.parent is not None]

    def node_count(self):
        return sum(1 for _ in self._nodes())

    def leaf_count(self):
        return sum(1 for node in self._nodes() if not any(node.children))

    def depth(self):
        return max(DisplayTree.of_model(self).depth)

    def print_tree(self, node=None, level=0):
        values = self.domain.class_var.values
        attributes = self.domain.attributes
        return self.tree_.export_text(
            [attr.name for attr in attributes],
            [values[int(c)] for c in self.estimator.classes_], DECIMALS,
            value_names=[list(attr.values) if attr.is_discrete else None
                         for attr in attributes],
            indicators=indicator_columns(attributes))


def _check_width(X, domain):
    """A ValueError naming both numbers when ``X`` (the model domain's columns) does not
    have one column per attribute of ``domain``."""
    if X.ndim != 2 or X.shape[1] != len(domain.attributes):
        raise ValueError(f"X has {X.shape[-1] if X.ndim else 0} columns, but the model "
                         f"expects {len(domain.attributes)}: one for each of its "
                         f"attributes ({', '.join(a.name for a in domain.attributes[:5])}"
                         f"{', …' if len(domain.attributes) > 5 else ''})")


def _dense(X):
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)


def _unseen_as_missing(estimator, X):
    """The dense rows ``X`` with every nominal code that no training row of the fitted
    ``estimator`` had as NaN (its ``seen_codes_``, ODT-SVM's nominal attributes; none for
    the other trees and for models saved before), as the estimator's own prediction
    takes them (:func:`~orangecontrib.oblique.core.validation.unseen_codes_as_missing`)."""
    return unseen_codes_as_missing(X, getattr(estimator, "seen_codes_", None))


def _check_sparse_size(data):
    """A ValueError when ``data.X`` is sparse and too large to densify
    (:data:`~orangecontrib.oblique.core.validation.MAX_DENSE_BYTES`)."""
    if sp.issparse(data.X):
        error = dense_size_error(data.X.shape, "this sparse table", _SPARSE_TABLE_ADVICE)
        if error is not None:
            raise error


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
        have a missing class value and were left out of the fit; ``"growth"``: what the
        core estimator warned about its tree's growth (a
        :class:`~orangecontrib.oblique.core.tree.structure.GrowthWarning`; ``count`` and ``total``
        are 0).
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


class _Continuize(Continuize):
    """Orange's one-hot encoding (:class:`~Orange.preprocess.Continuize` with indicator
    columns), except that a two-valued attribute becomes *one* 0/1 column, its second value
    against its first (Orange's first-value-as-base treatment): a split then has one term
    ``0.4·gender=male`` for it, not two equal and opposite ones.  Attributes with more
    values keep one column per value.  A code that is none of the attribute's values (a
    table of the domain may hold one) gives NaN in its columns, as a missing value does
    (:class:`_ValueIndicator`), and is then imputed as one."""

    def __call__(self, data):
        domain = DomainContinuizer(zero_based=self.zero_based,
                                   multinomial_treatment=self.multinomial_treatment)(data)
        attributes = [_with_value_indicator(variable) for variable in domain.attributes
                      if not _is_base_of_binary(variable)]
        return data.transform(Domain(attributes, domain.class_vars, domain.metas))


class _ValueIndicator(Indicator):
    """Orange's :class:`~Orange.preprocess.transformation.Indicator` (1 where the
    attribute has ``value``, 0 where it has another value, NaN where it is missing), with
    NaN also where its code is none of the attribute's values (larger, negative, not
    whole): a value the attribute does not have is a missing value.  (A table of another
    domain whose attribute of the same name has more values reaches the model through
    Orange's conversion by value names, which already makes such a value missing.)"""

    InheritEq = True   # equal as Orange's indicators: same attribute and value

    def transform(self, c):
        if sp.issparse(c) and self.value != 0:
            # Orange's transforms the stored values by this method; the zeros not stored
            # are the first value
            return super().transform(c)
        if sp.issparse(c):
            c = c.toarray().ravel()
        indicator = super().transform(c)
        values = np.arange(len(self.variable.values))
        if np.isscalar(c):
            return indicator if np.isnan(c) or c in values else np.nan
        indicator[~np.isin(c, values) & ~np.isnan(c)] = np.nan
        return indicator


def _with_value_indicator(variable):
    """``variable``, or, if it is an indicator column, the same column computed by
    :class:`_ValueIndicator`."""
    compute_value = variable.compute_value
    if type(compute_value) is not Indicator:   # pylint: disable=unidiomatic-typecheck
        return variable
    return variable.copy(compute_value=_ValueIndicator(compute_value.variable,
                                                       compute_value.value))


def _is_base_of_binary(variable):
    """The indicator column of the first value of a two-valued attribute."""
    compute_value = variable.compute_value
    return (isinstance(compute_value, Indicator) and compute_value.value == 0
            and len(compute_value.variable.values) == 2)


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


def _infinite_as_missing(data, imputed=True):
    """``data`` with ±inf feature values replaced by NaN (missing), with an
    :class:`InputDataWarning` giving their count (also recorded as a :class:`FitMessage` of
    the running learner call; ``imputed``: whether the learner then imputes them, which it
    says); ``data`` itself if it has none.  (Orange's ``Table.from_numpy`` does the same,
    but a table's arrays can be edited afterwards.)"""
    values = data.X.data if sp.issparse(data.X) else data.X
    if values.dtype.kind != "f":
        return data
    count = int(np.isinf(values).sum())
    if not count:
        return data
    message = _report("infinite_values", count, int(np.prod(data.X.shape)),
                      f"{count} infinite feature value{'s' if count > 1 else ''} (±inf) "
                      f"treated as missing{' and imputed' if imputed else ''}.",
                      stacklevel=4)
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
        """Orange's preprocessing (``active_preprocessors`` in turn), after the checks no
        preprocessor can mend: a table without rows is a clear error, and ±inf feature
        values are treated as missing (so that they are imputed), with an
        :class:`InputDataWarning`.  A step that leaves no rows (e.g. the user's
        ``RemoveNaNRows`` when every row has a missing value) is an error naming it.  A
        sparse table is densified by the learner's own preprocessors (continuization,
        imputation): before each of them, a table whose
        dense array would exceed
        :data:`~orangecontrib.oblique.core.validation.MAX_DENSE_BYTES` is refused (a
        ValueError giving the dense size).  The user's preprocessors run first and may
        shrink it (select attributes)."""
        if len(data) == 0:
            raise ValueError("Data has no rows; there is nothing to learn from.")
        data = _infinite_as_missing(data, imputed=any(
            isinstance(step, Impute) for step in self.active_preprocessors))
        if progress_callback is None:
            progress_callback = dummy_callback
        steps = list(self.active_preprocessors)
        own = self._default_preprocessors()
        for index, step in enumerate(steps):
            progress_callback(index / len(steps))
            if any(step is default for default in own):
                _check_sparse_size(data)
            n_rows = len(data)
            data = step(data)
            if len(data) == 0:
                raise ValueError(
                    f"The preprocessing left no rows: {_step_name(step)} removed all "
                    f"{n_rows:,} rows; there is nothing to learn from.")
        progress_callback(1)
        return data

    def _default_preprocessors(self):
        """The preprocessors the learner applies by default (its class's)."""
        return type(self).preprocessors

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


def _step_name(step):
    """A preprocessing step as a message names it: a function's name, else its class's."""
    return getattr(step, "__name__", type(step).__name__)


def _training_rows(learner, data):
    """``(X, known, y, weights, messages)``: every row, dense, which of them have a known
    class, and the classes and weights of those, after the checks every learner of this
    module makes (clear errors for data it cannot learn from), and the
    :class:`FitMessage` tuple for the model (those of the preprocessing, then the rows left
    out)."""
    reason = learner.incompatibility_reason(data.domain)
    if reason is not None:
        raise ValueError(reason)
    if not data.domain.attributes:
        raise ValueError("Data has no features to learn from (after preprocessing).")
    X = densified(data.X, "this sparse table", _SPARSE_TABLE_ADVICE)
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
    return X, known, y[known].astype(int), weights, tuple(dict.fromkeys(messages))


def _fit_with_messages(estimator, X, y, weights, messages):
    """Fit ``estimator``; what it warns about its tree's growth
    (:class:`~orangecontrib.oblique.core.tree.structure.GrowthWarning`) is warned again and added to
    ``messages`` (a list of :class:`FitMessage`), which a widget shows."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", GrowthWarning)
        estimator.fit(X, y, sample_weight=weights, progress_callback=_fit_progress())
    for warning in caught:
        if issubclass(warning.category, GrowthWarning):
            text = str(warning.message)
            if all(message.text != text for message in messages):
                messages = list(messages) + [FitMessage("growth", 0, 0, text)]
        warnings.warn_explicit(warning.message, warning.category, warning.filename,
                               warning.lineno)
    return tuple(messages)


def _fit_progress():
    """The progress callback of the running fit, scaled to the part after preprocessing."""
    progress_callback = _FIT_PROGRESS.get()
    if progress_callback is not None:
        progress_callback = wrap_callback(progress_callback, start=_FIT_START, end=1)
    return progress_callback


class _ImportanceScorerMixin(LearnerScorer):
    """Makes a learner a feature scorer, e.g. for Orange's Rank widget (as Orange's
    ``RandomForestLearner``): :meth:`score` fits a model and returns its
    ``attribute_importances``: the importances of the table's own attributes (the
    columns derived from one, e.g. its one-hot columns, summed), alike for every
    learner."""
    feature_type = Variable
    class_type = DiscreteVariable

    def score(self, data):
        return self(data).attribute_importances


#: What every learner's ``preprocessors`` are, for its docstring.
PREPROCESSORS_MEANING = ("Run before the learner's own preprocessing: None, one Orange "
                         "preprocessor (a Preprocess or another callable of a table) or "
                         "a sequence of them; anything else is a TypeError when the "
                         "learner is made.")


def checked_preprocessors(preprocessors):
    """``preprocessors`` as Orange's ``Learner`` takes them (None, one callable of a
    table, e.g. a :class:`~Orange.preprocess.Preprocess`, or a sequence of them), or a
    TypeError naming ``preprocessors``: a string, a number or a sequence with something
    that cannot be called would fail only when the learner fits (``'str' object is not
    callable``)."""
    if preprocessors is None or (callable(preprocessors)
                                 and not isinstance(preprocessors, type)):
        return preprocessors
    if isinstance(preprocessors, Iterable) and not isinstance(
            preprocessors, (str, bytes, Mapping)):
        preprocessors = tuple(preprocessors)
        for index, step in enumerate(preprocessors):
            if not callable(step) or isinstance(step, type):
                raise TypeError(
                    f"preprocessors must be Orange preprocessors (instances that take a "
                    f"table): item {index} is {step!r} (of type {type(step).__name__})")
        return preprocessors
    raise TypeError(f"preprocessors must be None, an Orange preprocessor or a list of "
                    f"them, got {preprocessors!r} (of type {type(preprocessors).__name__})")


class _EstimatorParameters:
    """The parameters of a learner are those its core estimator declares
    (``estimator_class._parameter_constraints``, :mod:`~.core.parameters`): the
    learner's ``__init__`` is made from them (same names, order and defaults, but those
    in ``learner_defaults``; without those in ``omitted_parameters``; after the
    learner's ``own_parameters``), with ``preprocessors`` last, and so is the
    ``Parameters`` section of its docstring.  The values are kept as same-named
    attributes and in ``params``."""
    estimator_class = None
    #: The estimator's parameters the learner does not take.
    omitted_parameters = ()
    #: The learner's defaults that are not the estimator's.
    learner_defaults = {}
    #: The learner's parameters that are not the estimator's (name → Parameter).
    own_parameters = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.estimator_class is None or "__init__" in cls.__dict__:
            return
        declared = cls.declared_parameters()
        cls.__init__ = constructor(
            [*declared, "preprocessors"], [p.default for p in declared.values()] + [None],
            cls.__qualname__, ["self._set_parameters(preprocessors, {" + ", ".join(
                f"{name!r}: {name}" for name in declared) + "})"])
        cls.__init__.__module__ = cls.__module__
        cls.__doc__ = with_declared_parameters(
            cls, declared, {**cls.estimator_class._parameter_meanings,
                            "preprocessors": [PREPROCESSORS_MEANING]},
            {"preprocessors": "preprocessors : Orange preprocessors or None, default None"})

    @classmethod
    def declared_parameters(cls):
        """name → :class:`~.core.parameters.Parameter` of the learner's parameters (but
        ``preprocessors``), in its signature's order."""
        declared = {name: parameter.replace(
            default=cls.learner_defaults.get(name, parameter.default))
            for name, parameter in cls.estimator_class._parameter_constraints.items()
            if name not in cls.omitted_parameters}
        return {**cls.own_parameters, **declared}

    def _set_parameters(self, preprocessors, params):
        """The made ``__init__``'s work: Orange's ``Learner.__init__``, the default
        preprocessors after the user's, every parameter kept."""
        Orange.classification.Learner.__init__(
            self, preprocessors=checked_preprocessors(preprocessors))
        # A user's own preprocessors (e.g. Normalize from a Preprocess widget) run first;
        # the encoding and imputation the trees need always run after them.
        self.use_default_preprocessors = True
        self.params = dict(params)
        for name, value in params.items():
            setattr(self, name, value)


class ObliqueTreeLearner(_EstimatorParameters, _FitProgressMixin,
                         Orange.classification.Learner, _ImportanceScorerMixin):
    """Base of the Orange learners of oblique trees.

    A subclass names its core estimator in ``estimator_class`` and keeps the estimator's
    parameters as same-named attributes listed in ``params``.  By default features are
    continuized (one 0/1 column for a two-valued attribute, one per value otherwise;
    :class:`ODTSVMLearner` keeps them) and missing values (and ±inf) imputed, also after
    preprocessors the user gives (which run first); rows with a missing class are left out of the fit,
    with an :class:`InputDataWarning` giving their number, but stay in the model's node
    subsets.  A table without rows, features or a categorical class is a ValueError.

    The learner is also a feature scorer (a :class:`~Orange.preprocess.score.LearnerScorer`,
    for Orange's Rank widget): it scores attributes by the fitted tree's
    ``feature_importances``.
    """
    __returns__ = ObliqueTreeModel
    # Impute (column means, like SklImpute) also accepts a table left without features
    preprocessors = (RemoveNaNColumns(), _Continuize(), _Impute())
    supports_weights = True

    def __init__(self, preprocessors=None):
        if self.estimator_class is None:
            raise TypeError("ObliqueTreeLearner is the base of the add-on's tree learners; "
                            "use GeometricTreeLearner, OC1Learner or ODTSVMLearner")
        super().__init__(preprocessors=preprocessors)
        # A user's own preprocessors (e.g. Normalize from a Preprocess widget) run first;
        # the encoding and imputation the trees need always run after them.
        self.use_default_preprocessors = True

    def create_estimator(self, domain=None):
        """The unfitted core estimator, with the learner's current parameters.

        ``domain`` is the preprocessed domain the estimator will be fitted on; a learner
        whose estimator treats some columns specially (:class:`ODTSVMLearner`: nominal
        attributes) reads them from it.
        """
        params = {name: getattr(self, name) for name in self.params}
        if params.get("max_terms") is not None and domain is not None:
            # a cap above the preprocessed domain's columns caps nothing
            params["max_terms"] = min(params["max_terms"], max(len(domain.attributes), 1))
        return self.estimator_class(**params)

    def incompatibility_reason(self, domain):
        if domain.class_var is None and not domain.class_vars:
            return "Data has no target variable; an oblique tree needs a categorical class."
        reason = super().incompatibility_reason(domain)
        if (reason is not None and domain.class_var is not None
                and domain.class_var.is_continuous):
            name = domain.class_var.name
            shown = printable_name(name)  # quoted and escaped if it has a line break
            reason = (f"Categorical class variable expected: "
                      f"{shown if shown != name else repr(name)} is "
                      f"numeric (a regression target), and an oblique tree is a classifier.")
        return reason

    def fit_storage(self, data):
        """The :class:`ObliqueTreeModel` of the core estimator fitted on the rows of
        ``data`` with a known class; its ``fit_messages`` (:class:`FitMessage`) tell what
        was done to the data."""
        X, known, y, weights, messages = _training_rows(self, data)
        estimator = self.create_estimator(data.domain)
        messages = _fit_with_messages(estimator, X[known], y, weights, messages)
        model = ObliqueTreeModel(data, estimator, X)
        model.fit_messages = messages
        return model


class GeometricTreeLearner(ObliqueTreeLearner):
    """Geometric Decision Tree (Manwani & Sastry, 2012) for Orange.

    Parameters are those of :class:`~orangecontrib.oblique.core.GeometricTreeClassifier`;
    ``epsilon1="auto"`` chooses ε1 in the paper's range 0.1-0.2 by an inner 5-fold
    cross-validation on the training rows.
    """
    name = "Geometric Tree"
    estimator_class = GeometricTreeClassifier


class OC1Learner(ObliqueTreeLearner):
    """OC1 (Murthy, Kasif & Salzberg, 1994) for Orange.

    Parameters are those of :class:`~orangecontrib.oblique.core.OC1Classifier`, with the
    same defaults (twoing rule, 20 restarts, 5 random jumps, 10 % held out for pruning).
    """
    name = "OC1"
    estimator_class = OC1Classifier


class ODTSVMLearner(ObliqueTreeLearner):
    """ODT-SVM (Menkovski, Christou & Efremidis, 2008) for Orange.

    Parameters are those of :class:`~orangecontrib.oblique.core.odt_svm.classifier.ODTSVMClassifier`,
    with the same defaults (the paper's test choice, highest corrected gain; WEKA SMO's
    pairwise multi-class SVM split; J48's subtree raising), except ``categorical_features``: unlike the other learners,
    ODT-SVM keeps nominal attributes as they are (no one-hot encoding) and missing values
    as they are (no imputation): as C4.5, a row with a missing value goes down every
    branch of a test with a fraction of its weight, when growing, pruning and
    predicting.  The columns of the preprocessed domain's
    :class:`~Orange.data.DiscreteVariable` attributes are passed to the estimator as
    ``categorical_features``, so that they get C4.5's tests, one branch per value
    (``nominal_tests``), and stay out of the SVM.
    """
    name = "ODT-SVM"
    estimator_class = ODTSVMClassifier
    # no Continuize: nominal attributes stay value codes 0 .. V-1; no Impute: missing
    # values are C4.5's (fractional rows, ODTSVMClassifier)
    preprocessors = (RemoveNaNColumns(),)

    #: from the preprocessed domain (``create_estimator``)
    omitted_parameters = ("categorical_features",)

    def create_estimator(self, domain=None):
        estimator = super().create_estimator(domain)
        if domain is not None:
            estimator.set_params(categorical_features=[
                j for j, variable in enumerate(domain.attributes) if variable.is_discrete])
        return estimator


class HedgeEnsembleModel(_SplitSummaryMixin, Orange.classification.Model):
    """A fitted Hedge(β) ensemble of oblique trees.

    ``estimator`` is the fitted
    :class:`~orangecontrib.oblique.core.ensemble.hedge.HedgeEnsembleClassifier`; its members
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
        :class:`ObliqueTreeModel`.  No rows give an empty array; a sparse ``X`` is
        densified in blocks of rows."""
        _check_width(X, self.domain)
        return map_row_chunks(self._predict_dense, X)

    def _predict_dense(self, X):
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
            proba[:, member_classes] += weight * member.tree_.predict_proba(
                _unseen_as_missing(member, X))
        return proba

    @property
    def member_weights(self):
        """The members' Hedge weights, normalised to sum to 1, in the order of
        ``estimator.estimators_``."""
        weights = np.asarray(self.estimator.weights_, dtype=float)
        return weights / weights.sum()

    def member_model(self, index, data):
        """Member tree ``index`` (from 0) as an :class:`ObliqueTreeModel` over the
        ensemble's domain, for the tree viewers and for predictions of its own.

        ``data`` is the ensemble's training table (in the model's original domain, as the
        learner widget keeps it in ``instances``, or already in its domain): its rows are
        the nodes' subsets, as in a tree fitted on it, and it is the tree's ``instances``.
        The tree's class counts are those of the rows the member was trained on.
        """
        member = copy.copy(self.estimator.estimators_[index])
        # the counts of a tree of many classes, kept sparse, as arrays for the views
        member.tree_ = member.tree_.with_dense_class_counts()
        # a member's classes are codes of the ensemble's classes
        member.classes_ = np.asarray(self.estimator.classes_)[
            np.asarray(member.classes_, dtype=np.intp)]
        prepared = data if data.domain == self.domain else data.transform(self.domain)
        model = ObliqueTreeModel(prepared, member)
        model.original_domain = self.original_domain
        model.used_vals = self.used_vals
        model.name = f"{self.name}, tree {index + 1}"
        model.instances = data
        return model


class HedgeEnsembleLearner(_EstimatorParameters, _FitProgressMixin,
                           Orange.classification.Learner, _ImportanceScorerMixin):
    """Hedge(β) ensemble of oblique trees (ODT-SVM paper, Sections V–VI) for Orange.

    Trains ``n_estimators`` trees of ``learner``, each on a different random
    ``sample_fraction`` of the rows (stratified by class), weights them by Hedge(β) on the
    rows each tree was not trained on (from equal weights, a tree's weight is multiplied by
    ``beta`` for every one of its held-out rows it misclassifies, then the weights are
    normalised; with ``sample_fraction`` 1 they stay equal), and predicts the
    Hedge-weighted average of their class distributions; see
    :class:`~orangecontrib.oblique.core.ensemble.hedge.HedgeEnsembleClassifier`.

    The parameters are the estimator's (but those that only ``partial_fit`` uses), with
    ``learner`` for its ``estimator`` and ``random_state=0``.

    Parameters
    ----------
    learner
        The base learner: :class:`GeometricTreeLearner`, :class:`OC1Learner` or
        :class:`ODTSVMLearner` (the paper's choice; None: ``ODTSVMLearner()``).  Its core
        estimator (:meth:`ObliqueTreeLearner.create_estimator`) is the ensemble's base
        estimator, and its preprocessors are applied (after the ensemble's own
        ``preprocessors``).
    n_estimators
    sample_fraction
    beta
    random_state
        Seeds the subsets and the members' own ``random_state``.
    n_jobs
        Members trained at once (joblib processes; -1: all cores); the ensemble is the
        same for any value.
    preprocessors
        Applied before the base learner's preprocessors.

    Rows with a missing class are left out of the fit (the model's ``fit_messages`` say
    how many).  While fitting, the progress callback of ``__call__`` advances through equal
    shares, one per member, each filled as that member's tree grows; an exception raised
    by the callback aborts the fit.
    """
    name = "Hedge Ensemble"
    __returns__ = HedgeEnsembleModel
    supports_weights = True

    estimator_class = HedgeEnsembleClassifier
    own_parameters = {"learner": Parameter(None, InstanceOf(ObliqueTreeLearner, (
        "GeometricTreeLearner, OC1Learner, ODTSVMLearner")), None)}
    omitted_parameters = ("estimator", "weight_threshold", "replace_members", "window")
    learner_defaults = {"random_state": 0}

    def _set_parameters(self, preprocessors, params):
        learner = params["learner"]
        if learner is None:
            learner = ODTSVMLearner()
        if not isinstance(learner, ObliqueTreeLearner):
            name = getattr(learner, "name", type(learner).__name__)
            raise ValueError(
                f"The base learner of a Hedge ensemble must be an oblique tree learner of "
                f"this add-on (Geometric Tree, OC1 or ODT-SVM), not {name}.")
        super()._set_parameters(preprocessors, {**params, "learner": learner})
        # the base learner's preprocessors follow the ensemble's (active_preprocessors)
        self.use_default_preprocessors = False

    @property
    def active_preprocessors(self):
        yield from super().active_preprocessors
        yield from self.learner.active_preprocessors

    def _default_preprocessors(self):
        """The base learner's default preprocessors (the ensemble has none of its own)."""
        return self.learner._default_preprocessors()  # pylint: disable=protected-access

    def incompatibility_reason(self, domain):
        return self.learner.incompatibility_reason(domain)

    def create_estimator(self, domain=None):
        """The unfitted core ensemble of the base learner's estimator for ``domain``."""
        params = {name: getattr(self, name) for name in self.params if name != "learner"}
        return HedgeEnsembleClassifier(estimator=self.learner.create_estimator(domain),
                                       **params)

    def fit_storage(self, data):
        X, known, y, weights, messages = _training_rows(self, data)
        ensemble = self.create_estimator(data.domain)
        messages = _fit_with_messages(ensemble, X[known], y, weights, messages)
        return HedgeEnsembleModel(data.domain, ensemble, messages)


class ObliqueForestModel(HedgeEnsembleModel):
    """A fitted Oblique Forest: ``estimator`` is the fitted
    :class:`~orangecontrib.oblique.core.forest.classifier.ObliqueForestClassifier`, its trees
    (``estimator.estimators_``) the members, all of the same weight
    (``estimator.weights_``).  Prediction (rows with missing values included), the
    members' weights and the member trees as tree models (:meth:`member_model`) are those
    of the Hedge ensemble's model; ``oob_accuracy`` is the forest's out-of-bag estimate.
    """

    @property
    def oob_accuracy(self):
        """The out-of-bag accuracy of the forest (``oob_score_``), or None when the
        learner did not estimate it (``oob_score=False``)."""
        return getattr(self.estimator, "oob_score_", None)


class ObliqueForestLearner(_EstimatorParameters, _FitProgressMixin,
                           Orange.classification.Learner, _ImportanceScorerMixin):
    """Oblique Forest (SPORF: Tomita et al., "Sparse Projection Oblique Randomer
    Forests", JMLR 2020) for Orange: ``n_estimators`` oblique trees, each grown on a
    bootstrap sample, every node split on the best of ``max_features`` random sparse
    projections of the attributes with ``feature_combinations`` attributes each on
    average; the model predicts the mean of the trees' class distributions.

    Parameters are those of
    :class:`~orangecontrib.oblique.core.forest.classifier.ObliqueForestClassifier`, with the same
    defaults except ``random_state=0`` (replicable, as the other learners of this module).
    Attributes are continuized and missing values imputed as for the other trees
    (:class:`ObliqueTreeLearner`), also after preprocessors the user gives; rows with a
    missing class are left out of the fit (the model's ``fit_messages`` say how many).
    The learner is a feature scorer for Rank: the forest's ``feature_importances_``, each
    original attribute scored by the sum over the columns made from it.  While fitting,
    the progress callback of ``__call__`` advances tree by tree (and within each tree with
    one job); an exception it raises aborts the fit.
    """
    name = "Oblique Forest"
    __returns__ = ObliqueForestModel
    preprocessors = ObliqueTreeLearner.preprocessors
    supports_weights = True

    estimator_class = ObliqueForestClassifier
    learner_defaults = {"random_state": 0}

    def incompatibility_reason(self, domain):
        # the checks (and messages) of the trees it grows
        return GeometricTreeLearner().incompatibility_reason(domain)

    def create_estimator(self, domain=None):
        """The unfitted core forest with the learner's current parameters."""
        return ObliqueForestClassifier(**{name: getattr(self, name) for name in self.params})

    def fit_storage(self, data):
        X, known, y, weights, messages = _training_rows(self, data)
        forest = self.create_estimator(data.domain)
        messages = _fit_with_messages(forest, X[known], y, weights, messages)
        return ObliqueForestModel(data.domain, forest, messages)
