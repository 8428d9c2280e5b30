"""What a learner widget shows of the model it fitted (not a widget module: no widget
class here).

:class:`ModelSummaryMixin` gives an :class:`OWBaseLearner` of oblique trees a "Model" box
that says how oblique the fitted tree (or ensemble) is and shows the widget's errors and
warnings in full (wrapped), and a "Feature importances"
output: one row per attribute of the input table with its importance, as Logistic
Regression's "Coefficients" output does for its coefficients.
"""
import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QLabel

from Orange.data import ContinuousVariable, Domain, StringVariable, Table
from Orange.widgets import gui
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.signals import Output
from Orange.widgets.widget import Msg

from orangecontrib.oblique.widgets.utils import ClassValueChecksMixin
from orangecontrib.oblique.widgets.viewertexts import attributes_per_split

__all__ = ["ModelSummaryMixin", "obliqueness_text", "importance_table"]

NO_MODEL = "No model."
FITTING = "Fitting…"


def _plural(count, word):
    return f"{count} {word}" + ("s" if count != 1 else "")


def obliqueness_text(model):
    """One line on how oblique ``model``'s splits are, e.g. "12 of 15 splits oblique,
    3.4 attributes per split on average"; for a Hedge ensemble over all its trees.
    :data:`NO_MODEL` for ``None``; a model whose splits cannot be read (not a model of
    this add-on) gets an empty text."""
    if model is None:
        return NO_MODEL
    try:
        statistics = model.split_statistics
    except AttributeError:
        return ""
    members = getattr(model.estimator, "estimators_", None)
    prefix = "" if members is None else _plural(len(members), "tree") + ": "
    if not statistics.n_splits:
        return prefix + ("no splits: every tree is a single leaf" if members is not None
                         else "no splits: the tree is a single leaf")
    return (f"{prefix}{statistics.n_oblique_splits} of "
            f"{_plural(statistics.n_splits, 'split')} oblique, "
            f"{attributes_per_split(statistics.mean_attributes_per_split)} on average")


def importance_table(model):
    """A table with one row per attribute of the table ``model`` was fitted on: its name
    (a meta) and its importance (``model.attribute_importances``: one-hot columns summed
    back into their attribute, alike for every learner); ``None`` without a model or for
    one that has no importances."""
    if model is None:
        return None
    try:
        importances, attributes = model.attribute_importances
    except AttributeError:
        return None
    importances = np.asarray(importances, dtype=float)
    domain = Domain([ContinuousVariable("importance")],
                    metas=[StringVariable("attribute")])
    names = np.array([[attr.name] for attr in attributes], dtype=object).reshape(-1, 1)
    table = Table.from_numpy(domain, importances.reshape(-1, 1), metas=names)
    table.name = "feature importances"
    return table


def mixed_leaves_at_depth(model, max_depth):
    """How many leaves of ``model``'s trees (every member of an ensemble) stand at depth
    ``max_depth`` with training rows of more than one class: where growing stopped at the
    depth limit, not because the node was done.  0 without a limit or a model."""
    if model is None or max_depth is None:
        return 0
    estimator = getattr(model, "estimator", None)
    members = getattr(estimator, "estimators_", None)
    trees = [getattr(member, "tree_", None) for member in (
        members if members is not None else [estimator])]
    count = 0
    for tree in trees:
        if tree is None:
            continue
        at_limit = tree.is_leaf & (tree.node_depth == max_depth)
        count += int(((tree.value[at_limit] > 0).sum(axis=1) > 1).sum())
    return count


def depth_limit_and_pruning(learner):
    """(max_depth, prunes) of ``learner`` (for an ensemble, of its base learner); max_depth
    None when the learner has no depth limit or offers no pruning (the Oblique Forest's
    trees are grown deep and not pruned, as in SPORF)."""
    base = getattr(learner, "learner", learner)
    if base is None or not (hasattr(base, "pruning_portion") or hasattr(base, "confidence")):
        return None, False
    prunes = bool(getattr(base, "pruning_portion", 0)) or getattr(
        base, "confidence", None) is not None
    return getattr(base, "max_depth", None), prunes


class ModelSummaryMixin:
    """A "Model" box (under the settings) and a "Feature importances" output for an
    :class:`OWBaseLearner` that fits in the background
    (:class:`~orangecontrib.oblique.widgets.utils.ConcurrentLearnerWidgetMixin`).  Put it
    first among the bases.

    Whenever the widget sends its model, the box says how oblique it is
    (:func:`obliqueness_text`) and the output gets the model's importances
    (:func:`importance_table`); while a fit runs, the box says so and the output is
    pending.
    """

    class Outputs(OWBaseLearner.Outputs):
        feature_importances = Output("Feature importances", Table, explicit=True)

    class Warning(ClassValueChecksMixin.Warning):
        depth_limit = Msg("Growing stopped at the depth limit ({}) in {} that still "
                          "{} classes: the tree may fit noise. {}")

    def add_bottom_buttons(self):
        box = gui.vBox(self.controlArea, "Model")
        # pylint: disable=attribute-defined-outside-init
        self.model_summary = QLabel(NO_MODEL, wordWrap=True)
        box.layout().addWidget(self.model_summary)
        # the status bar elides a long message to what fits its width; here it wraps
        self.message_text = QLabel(wordWrap=True, visible=False)
        self.message_text.setTextFormat(Qt.PlainText)
        box.layout().addWidget(self.message_text)
        self.messageActivated.connect(self._show_messages)
        self.messageDeactivated.connect(self._show_messages)
        super().add_bottom_buttons()

    def _show_messages(self, *_):
        """Every error and warning shown, one a line, in full."""
        lines = [f"{kind}: {message.formatted}"
                 for kind, group in (("Error", self.Error), ("Warning", self.Warning))
                 for message in group.active]
        self.message_text.setText("\n".join(lines))
        self.message_text.setVisible(bool(lines))

    def update_model(self):
        super().update_model()
        if self.task is not None:  # the fit runs; on_done sends the model
            self.Warning.depth_limit.clear()
            self.model_summary.setText(FITTING)
            self.Outputs.feature_importances.invalidate()

    def model_sent(self):
        super().model_sent()
        if self.task is None:  # the model was sent (see ConcurrentLearnerWidgetMixin)
            self.model_summary.setText(obliqueness_text(self.model))
            self.Outputs.feature_importances.send(importance_table(self.model))
            self._warn_depth_limit()

    #: where the depth-limit warning points to
    PRUNING_HINT = ("Check \"Prune on held-out instances\" for a smaller tree that often "
                    "predicts as well.")

    def _warn_depth_limit(self):
        """Warn when the fit stopped at the depth limit in leaves that still mix classes
        and the tree is not pruned (noisy data grow to the limit)."""
        max_depth, prunes = depth_limit_and_pruning(self.learner)
        count = 0 if prunes else mixed_leaves_at_depth(self.model, max_depth)
        if count:
            self.Warning.depth_limit(max_depth, f"{count} lea{'f' if count == 1 else 'ves'}",
                                     "mixes" if count == 1 else "mix", self.PRUNING_HINT)
        else:
            self.Warning.depth_limit.clear()
