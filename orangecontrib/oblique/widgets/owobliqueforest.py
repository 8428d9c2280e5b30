"""The Oblique Forest learner widget."""
from collections import OrderedDict

from AnyQt.QtWidgets import QFormLayout

from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.widgetpreview import WidgetPreview

from orangecontrib.oblique.learners import ObliqueForestLearner
from orangecontrib.oblique.widgets.membertrees import MemberTreesMixin
from orangecontrib.oblique.widgets.modelsummary import ModelSummaryMixin
from orangecontrib.oblique.widgets.utils import (SPIN, ClassValueChecksMixin,
                                                 ConcurrentLearnerWidgetMixin,
                                                 LearnerControlsMixin, explanation_label)


class OWObliqueForest(ModelSummaryMixin, LearnerControlsMixin, MemberTreesMixin,
                      ConcurrentLearnerWidgetMixin, ClassValueChecksMixin, OWBaseLearner):
    """Oblique Forest (SPORF; Tomita et al. 2020): a forest of trees that split on the best
    of many random sparse projections of the attributes.  Fits in a background thread,
    the progress advancing tree by tree; one member tree at a time, chosen in the widget,
    goes to the "Member tree" output (for the Oblique Tree Viewer)."""
    name = "Oblique Forest"
    description = ("Forest of oblique trees whose splits are sparse random combinations of "
                   "a few attributes (SPORF).")
    icon = "icons/ObliqueForest.svg"
    priority = 50
    keywords = ("oblique forest, sporf, random forest, randomer forest, sparse projection, "
                "oblique tree, ensemble")

    LEARNER = ObliqueForestLearner

    Outputs = MemberTreesMixin.Outputs

    settings_version = 1

    n_estimators = Setting(100)
    #: projections per node: √p (SPORF's default) unless set
    set_projections = Setting(False)
    n_projections = Setting(10)
    #: attributes per projection on average: 3 for p ≥ 10, else 1 (SPORF's) unless set
    set_combinations = Setting(False)
    feature_combinations = Setting(3.0)
    bootstrap = Setting(True)
    oob_score = Setting(True)
    # SPORF grows its trees until their leaves are pure
    limit_depth = Setting(False)
    max_depth = Setting(20)

    def add_main_layout(self):
        spin = dict(callback=self.settings_changed, **SPIN)
        checked = dict(checkCallback=self.settings_changed, **spin)

        grid = QFormLayout()
        gui.widgetBox(self.controlArea, "Trees", orientation=grid)
        grid.addRow("Number of trees:", gui.spin(
            None, self, "n_estimators", 1, 1000, **spin,
            tooltip="Number of trees in the forest."))
        row = gui.hBox(None)
        gui.spin(
            row, self, "n_projections", 1, 10000, label="Projections per node: ",
            checked="set_projections", **checked,
            tooltip="Unchecked: the square root of the number of attributes (SPORF's "
                    "default). Checked: this many random projections are compared at "
                    "every node.")
        grid.addRow(row)
        row = gui.hBox(None)
        gui.doubleSpin(
            row, self, "feature_combinations", 1.0, 100.0, step=0.5, decimals=1,
            label="Attributes per projection: ", checked="set_combinations", **checked,
            tooltip="How many attributes a random projection combines on average. "
                    "Unchecked: 3 with 10 or more attributes, else 1 (SPORF's default).")
        grid.addRow(row)
        grid.addRow(explanation_label(
            "Every node of every tree splits on the best of several random combinations "
            "of a few attributes, each weighted +1 or −1 (in standard deviations)."))

        box = gui.vBox(self.controlArea, "Sampling and growing")
        gui.checkBox(box, self, "bootstrap", "Bootstrap samples",
                     callback=self._bootstrap_changed,
                     tooltip="Train every tree on instances drawn at random with "
                             "replacement (as a random forest does); unchecked, every "
                             "tree sees all instances.")
        self.oob_box = gui.checkBox(
            gui.indentedBox(box), self, "oob_score", "Estimate accuracy out of the bags",
            callback=self.settings_changed,
            tooltip="Predict every instance by the trees whose sample left it out and "
                    "show the accuracy of these predictions (the out-of-bag estimate).")
        self.oob_box.setEnabled(self.bootstrap)
        self.add_depth_limit(box)
        self.add_replicable_training(
            box, "Fix the trees' samples and projections, so that the same data always "
                 "give the same forest.")

        self.add_member_trees_box(1000)

    def _bootstrap_changed(self):
        self.oob_box.setEnabled(self.bootstrap)
        self.settings_changed()

    def create_learner(self):
        return self.LEARNER(
            n_estimators=self.n_estimators,
            max_features=self.n_projections if self.set_projections else "sqrt",
            feature_combinations=(self.feature_combinations if self.set_combinations
                                  else "auto"),
            bootstrap=self.bootstrap,
            oob_score=self.bootstrap and self.oob_score,
            max_depth=self.max_depth_parameter(),
            random_state=self.random_state_parameter(),
            preprocessors=self.preprocessors)

    def model_sent(self):
        super().model_sent()
        accuracy = getattr(self.model, "oob_accuracy", None)
        if self.task is None and accuracy is not None:
            self.model_summary.setText(f"{self.model_summary.text()}; out-of-bag accuracy "
                                       f"{accuracy:.3f}")
        used = getattr(getattr(self.model, "estimator", None), "n_jobs_used_", None)
        if self.task is None and used is not None:  # the widget fits in one process
            self.model_summary.setText(f"{self.model_summary.text()}; trees grown in "
                                       + ("one process" if used == 1
                                          else f"{used} processes"))

    def get_learner_parameters(self):
        return OrderedDict((
            ("Number of trees", str(self.n_estimators)),
            ("Projections per node", str(self.n_projections) if self.set_projections
             else "√ of the attributes"),
            ("Attributes per projection", f"{self.feature_combinations:.1f}"
             if self.set_combinations else "3 (10 or more attributes), else 1"),
            ("Bootstrap samples", "Yes" if self.bootstrap else "No"),
            ("Out-of-bag estimate", "Yes" if self.bootstrap and self.oob_score else "No"),
            self.depth_report(),
            self.replicable_report(),
        ))


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWObliqueForest).run(Table("heart_disease"))
