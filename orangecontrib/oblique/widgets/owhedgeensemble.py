"""The Hedge Ensemble learner widget."""
from collections import OrderedDict

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QFormLayout, QLabel

from Orange.base import Learner
from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg

from orangecontrib.oblique.learners import (HedgeEnsembleLearner, ObliqueTreeLearner,
                                            ODTSVMLearner)
from orangecontrib.oblique.widgets.modelsummary import ModelSummaryMixin
from orangecontrib.oblique.widgets.utils import (ClassValueChecksMixin,
                                                 ConcurrentLearnerWidgetMixin)


class OWHedgeEnsemble(ModelSummaryMixin, ConcurrentLearnerWidgetMixin, ClassValueChecksMixin,
                      OWBaseLearner):
    """Hedge(β) ensemble of oblique trees (ODT-SVM paper, Sections V–VI): members trained
    on random subsets, predictions averaged with Hedge weights.  The base learner comes
    from the Learner input (ODT-SVM when nothing is connected), as in Orange's AdaBoost.
    Fits in a background thread, the progress advancing member by member."""
    name = "Hedge Ensemble"
    description = ("Ensemble of oblique trees, each trained on a random share of the data, "
                   "combined with Hedge(β) weights.")
    icon = "icons/HedgeEnsemble.svg"
    priority = 40
    keywords = "hedge, ensemble, odt-svm, oblique tree, weighted majority"

    LEARNER = HedgeEnsembleLearner

    class Inputs(OWBaseLearner.Inputs):
        learner = Input("Learner", Learner)

    class Error(ClassValueChecksMixin.Error):
        foreign_learner = Msg("{} is not an oblique tree learner; connect Geometric Tree, "
                              "OC1 or ODT-SVM as the base learner.")

    n_estimators = Setting(10)
    sample_percent = Setting(90)
    beta = Setting(0.9)
    replicable = Setting(True)
    seed = Setting(0)

    def add_main_layout(self):
        # called from OWBaseLearner.__init__; pylint: disable=attribute-defined-outside-init
        self.base_learner = ODTSVMLearner()
        self.base_is_default = True
        spin = dict(alignment=Qt.AlignRight, controlWidth=80, callback=self.settings_changed)

        grid = QFormLayout()
        gui.widgetBox(self.controlArea, "Members", orientation=grid)
        self.base_label = QLabel()
        grid.addRow("Base learner:", self.base_label)
        grid.addRow("Number of trees:", gui.spin(
            None, self, "n_estimators", 1, 500, **spin,
            tooltip="Number of trees M (the paper uses 10)."))
        grid.addRow("Rows per tree (%):", gui.spin(
            None, self, "sample_percent", 10, 100, **spin,
            tooltip="Share of the rows each tree is trained on, drawn at random for every "
                    "tree (the paper: 90 %)."))
        grid.addRow("Hedge β:", gui.doubleSpin(
            None, self, "beta", 0.01, 0.99, step=0.05, decimals=2, **spin,
            tooltip="Factor by which a tree's weight is multiplied when it misclassifies "
                    "a labelled row it was not trained on (the rows left out of its share)."))
        box = gui.vBox(self.controlArea, "Reproducibility")
        gui.spin(
            box, self, "seed", 0, 2 ** 31 - 1, label="Replicable training, seed: ",
            checked="replicable", checkCallback=self.settings_changed, **spin,
            tooltip="Fix the random subsets and the trees' own randomness.")
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
        else:
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
            random_state=self.seed if self.replicable else None,
            preprocessors=self.preprocessors)

    def get_learner_parameters(self):
        return OrderedDict((
            ("Base learner", self.base_label.text()),
            ("Number of trees", str(self.n_estimators)),
            ("Rows per tree", f"{self.sample_percent} %"),
            ("Hedge β", f"{self.beta:.2f}"),
            ("Replicable training", f"Yes (seed {self.seed})" if self.replicable else "No"),
        ))


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWHedgeEnsemble).run(Table("heart_disease"))
