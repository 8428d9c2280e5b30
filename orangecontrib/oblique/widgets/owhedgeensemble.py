"""The Hedge Ensemble learner widget."""
import os
from collections import OrderedDict

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QFormLayout, QLabel

from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg

from orangecontrib.oblique.learners import (HedgeEnsembleLearner, ObliqueTreeLearner,
                                            ODTSVMLearner)
from orangecontrib.oblique.widgets.membertrees import MemberTreesMixin
from orangecontrib.oblique.widgets.modelsummary import ModelSummaryMixin
from orangecontrib.oblique.widgets.utils import (SPIN, ClassValueChecksMixin,
                                                 ConcurrentLearnerWidgetMixin,
                                                 LearnerControlsMixin, explanation_label)


class OWHedgeEnsemble(ModelSummaryMixin, LearnerControlsMixin, MemberTreesMixin,
                      ConcurrentLearnerWidgetMixin, ClassValueChecksMixin, OWBaseLearner):
    """Hedge(β) ensemble of oblique trees (ODT-SVM paper, Sections V–VI): members trained
    on random subsets, predictions averaged with Hedge weights.  The base learner comes
    from the Learner input (ODT-SVM when nothing is connected), as in Orange's AdaBoost;
    the input takes only the add-on's tree learners.  One member tree at a time, chosen in
    the widget, goes to the "Member tree" output (for the Oblique Tree Viewer).
    Fits in a background thread, the progress advancing member by member."""
    name = "Hedge Ensemble"
    description = ("Ensemble of oblique trees, each trained on a random share of the data, "
                   "combined with Hedge(β) weights.")
    icon = "icons/HedgeEnsemble.svg"
    priority = 40
    keywords = "hedge, ensemble, odt-svm, oblique tree, weighted majority"

    LEARNER = HedgeEnsembleLearner
    PRUNING_HINT = ("Turn on the base learner's pruning for smaller trees that often "
                    "predict as well.")

    class Inputs(OWBaseLearner.Inputs):
        learner = Input("Learner", ObliqueTreeLearner)

    Outputs = MemberTreesMixin.Outputs

    class Error(ClassValueChecksMixin.Error):
        foreign_learner = Msg("{} is not an oblique tree learner; connect Geometric Tree, "
                              "OC1 or ODT-SVM as the base learner.")

    #: 2: "Member tree" (``member_tree``) added; labels say "instances"
    #: 3: "Trees trained at once" (``n_jobs``, now "Processes, at most") added, all cores
    #: by default
    settings_version = 3

    n_estimators = Setting(10)
    sample_percent = Setting(90)
    beta = Setting(0.9)
    #: trees trained at once (processes); the ensemble is the same for any number
    n_jobs = Setting(os.cpu_count() or 1)

    @classmethod
    def migrate_settings(cls, settings, version):
        if version is None or version < 2:
            settings.setdefault("member_tree", 1)

    def add_main_layout(self):
        # called from OWBaseLearner.__init__; pylint: disable=attribute-defined-outside-init
        self.base_learner = ODTSVMLearner()
        self.base_is_default = True
        spin = dict(callback=self.settings_changed, **SPIN)

        grid = QFormLayout()
        gui.widgetBox(self.controlArea, "Members", orientation=grid)
        self.base_label = QLabel(textFormat=Qt.PlainText)  # the learner's name, as typed
        grid.addRow("Base learner:", self.base_label)
        grid.addRow("Number of trees:", gui.spin(
            None, self, "n_estimators", 1, 500, **spin,
            tooltip="Number of trees M (the paper uses 10)."))
        grid.addRow("Instances per tree (%):", gui.spin(
            None, self, "sample_percent", 10, 100, **spin,
            tooltip="Share of the instances each tree is trained on, drawn at random for "
                    "every tree (the paper: 90 %)."))
        grid.addRow("Hedge β:", gui.doubleSpin(
            None, self, "beta", 0.01, 0.99, step=0.05, decimals=2, **spin,
            tooltip="Factor by which a tree's weight is multiplied when it misclassifies "
                    "an instance it was not trained on."))
        grid.addRow(explanation_label(
            "Each tree is weighted by how well it predicts the instances left out of "
            "its share: every error multiplies its weight by β (Hedge). The base "
            "learner comes from the Learner input (ODT-SVM if none)."))
        grid.addRow(f"{PROCESSES_WORDS}:", gui.spin(
            None, self, "n_jobs", 1, max(os.cpu_count() or 1, 1), **spin,
            tooltip="Trees are trained in parallel in up to this many processes, one "
                    "tree per process at a time (all cores by default); fewer when the "
                    "data are too small to pay for starting them (the Model box says "
                    "how many were used). The ensemble is the same for any number."))
        seed_row = gui.hBox(None)
        self.add_replicable_training(seed_row, "Fix the random subsets and the trees' own "
                                               "randomness.")
        grid.addRow(seed_row)

        self.add_member_trees_box(500)
        self._show_base_learner()

    def _show_base_learner(self):
        if self.base_learner is None:
            text = "invalid"
        else:
            text = self.base_learner.name
            if self.base_is_default:
                text += " (default)"
        self.base_label.setText(text)

    @Inputs.learner
    def set_base_learner(self, learner):
        # pylint: disable=attribute-defined-outside-init
        self.Error.foreign_learner.clear()
        self.base_is_default = learner is None
        if learner is None:
            self.base_learner = ODTSVMLearner()
        elif isinstance(learner, ObliqueTreeLearner):
            self.base_learner = learner
        else:  # only from Python: the canvas connects the add-on's tree learners only
            self.Error.foreign_learner(getattr(learner, "name", type(learner).__name__))
            self.base_learner = None
        self._show_base_learner()
        self.learner = self.model = None  # handleNewSignals renews them

    def create_learner(self):
        if self.base_learner is None:
            return None
        return self.LEARNER(
            learner=self.base_learner,
            n_estimators=self.n_estimators,
            sample_fraction=self.sample_percent / 100,
            beta=self.beta,
            random_state=self.random_state_parameter(),
            n_jobs=self.n_jobs,
            preprocessors=self.preprocessors)

    def model_sent(self):
        super().model_sent()
        estimator = getattr(self.model, "estimator", None)
        used = getattr(estimator, "n_jobs_used_", None)
        if self.task is None and used is not None:
            allowed = getattr(estimator, "n_jobs", None)
            allowed = allowed if isinstance(allowed, int) and allowed > 0 else used
            self.model_summary.setText(
                f"{self.model_summary.text()}; {processes_text(used, allowed)}")

    def get_learner_parameters(self):
        return OrderedDict((
            ("Base learner", self.base_label.text()),
            ("Number of trees", str(self.n_estimators)),
            ("Instances per tree", f"{self.sample_percent} %"),
            ("Hedge β", f"{self.beta:.2f}"),
            (PROCESSES_WORDS, str(self.n_jobs)),
            self.replicable_report(),
        ))


#: the words of the control of ``n_jobs``: a ceiling, which the Model box's words match
PROCESSES_WORDS = "Processes, at most"


def processes_text(n_processes, at_most):
    """"trained in 2 processes", or, with fewer than the ``at_most`` allowed, "trained in
    one process (of at most 2: too little work to pay for starting more)"."""
    text = ("trained in one process" if n_processes == 1
            else f"trained in {n_processes} processes")
    if n_processes < at_most:
        text += f" (of at most {at_most}: too little work to pay for starting more)"
    return text


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWHedgeEnsemble).run(Table("heart_disease"))
