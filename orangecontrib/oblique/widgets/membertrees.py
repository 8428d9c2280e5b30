"""The member trees of an ensemble's learner widget (not a widget module: no widget class
here).

:class:`MemberTreesMixin` gives the Hedge Ensemble and Oblique Forest widgets a "Member
trees" box: a spin box that chooses one of the fitted ensemble's trees, which goes to the
widget's "Member tree" output (e.g. to the Oblique Tree Viewer), with its number and
weight.
"""
from AnyQt.QtWidgets import QLabel

from Orange.base import Model
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.widget import Output

from orangecontrib.oblique.learners import ObliqueTreeModel
from orangecontrib.oblique.widgets.modelsummary import ModelSummaryMixin
from orangecontrib.oblique.widgets.utils import SPIN

__all__ = ["MemberTreesMixin"]


class MemberTreesMixin:
    """A "Member trees" box for an ensemble's learner widget that fits in the background
    (:class:`~orangecontrib.oblique.widgets.utils.ConcurrentLearnerWidgetMixin`) and
    whose model has ``estimator.estimators_``, ``member_weights`` and
    ``member_model(index, data)`` (the Hedge ensemble's and the forest's models).  Put it
    before the concurrent mixin among the bases, and give the widget these
    :class:`Outputs` (``Outputs = MemberTreesMixin.Outputs``: the model summary's mixin,
    first among the bases, has outputs of its own).

    The chosen tree is sent whenever the model is, as a tree model over the training
    table (``model.instances``); while a fit runs the output is pending.
    """

    class Outputs:  # not a subclass: a redefined signal would be a second one
        learner = OWBaseLearner.Outputs.learner
        # the default: Predictions takes the ensemble, not a member tree
        model = Output("Model", Model, dynamic=False, default=True,
                       replaces=["Classifier", "Predictor"])
        feature_importances = ModelSummaryMixin.Outputs.feature_importances
        member_tree = Output("Member tree", ObliqueTreeModel)

    #: the member tree sent to the "Member tree" output, from 1
    member_tree = Setting(1)

    def add_member_trees_box(self, maximum):
        """The box with the tree's number (1 to ``maximum`` before a model says how many
        trees it has) and a label that tells of how many and its weight."""
        box = gui.vBox(self.controlArea, "Member trees")
        row = gui.hBox(box)
        # pylint: disable=attribute-defined-outside-init
        self.member_spin = gui.spin(
            row, self, "member_tree", 1, maximum, label="Send tree: ",
            callback=self._send_member_tree, alignment=SPIN["alignment"], controlWidth=60,
            tooltip="The member tree sent to the \"Member tree\" output, e.g. to the "
                    "Oblique Tree Viewer.")
        self.member_label = QLabel()
        row.layout().addWidget(self.member_label)
        row.layout().addStretch(1)
        self._show_members()

    def _members(self):
        """The number of member trees of the current model (0 without one)."""
        estimator = getattr(self.model, "estimator", None)
        return len(getattr(estimator, "estimators_", ()))

    def _show_members(self):
        n_members = self._members()
        self.member_spin.setEnabled(n_members > 0)
        if not n_members:
            self.member_label.setText("of the fitted ensemble")
            return
        if self.member_tree > n_members:
            self.member_tree = n_members
        self.member_spin.setMaximum(n_members)
        weight = self.model.member_weights[self.member_tree - 1]
        self.member_label.setText(f"of {n_members}, weight {weight:.3f}")

    def _send_member_tree(self):
        self._show_members()
        tree = None
        if self._members() and self.model.instances is not None:
            tree = self.model.member_model(self.member_tree - 1, self.model.instances)
        self.Outputs.member_tree.send(tree)

    def update_model(self):
        super().update_model()
        if self.task is not None:  # the fit runs; on_done sends the model and its trees
            self.Outputs.member_tree.invalidate()

    def model_sent(self):
        super().model_sent()
        if self.task is None:
            self._send_member_tree()
