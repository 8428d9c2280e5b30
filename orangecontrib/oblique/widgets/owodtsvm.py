"""The ODT-SVM learner widget."""
from collections import OrderedDict

from AnyQt.QtCore import Qt

from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.widgetpreview import WidgetPreview

from orangecontrib.oblique.learners import ODTSVMLearner
from orangecontrib.oblique.widgets.modelsummary import ModelSummaryMixin
from orangecontrib.oblique.widgets.utils import (AttributesPerSplitMixin,
                                                 ClassValueChecksMixin,
                                                 ConcurrentLearnerWidgetMixin)


class OWODTSVM(ModelSummaryMixin, AttributesPerSplitMixin, ConcurrentLearnerWidgetMixin,
               ClassValueChecksMixin, OWBaseLearner):
    """ODT-SVM (Menkovski, Christou & Efremidis): a C4.5 tree whose candidate tests include
    linear-SVM hyperplanes and SVM clustering splits; nominal attributes are tested as
    ``attribute = value``.  Fits in a background thread."""
    name = "ODT-SVM"
    description = ("C4.5-style decision tree with embedded linear SVM splits (binary or one "
                   "branch per class), SVM clustering splits and nominal tests (ODT-SVM).")
    icon = "icons/ODTSVM.svg"
    priority = 30
    keywords = "odt-svm, odt svm, support vector machine, oblique tree, c4.5, j48, multiway"

    LEARNER = ODTSVMLearner

    C = Setting(1.0)
    clustering_split = Setting(True)
    max_clusters = Setting(5)
    axis_parallel_tests = Setting(True)
    mdl_penalty = Setting(True)
    min_samples_leaf = Setting(2)
    prune = Setting(True)
    confidence = Setting(0.25)
    replicable = Setting(True)
    seed = Setting(0)

    def add_main_layout(self):
        spin = dict(alignment=Qt.AlignRight, controlWidth=80, callback=self.settings_changed)

        box = gui.vBox(self.controlArea, "Candidate tests")
        gui.doubleSpin(
            box, self, "C", 0.001, 1000.0, step=0.1, decimals=3,
            label="SVM cost (C): ", **spin,
            tooltip="Penalty of the linear SVM on misclassified rows (WEKA's SMO "
                    "default: 1).")
        gui.checkBox(
            box, self, "clustering_split", "SVM clustering split",
            callback=self._clustering_changed,
            tooltip="Also try grouping the rows by their distances to the SVM "
                    "hyperplanes with X-means, one branch per cluster.")
        self.max_clusters_spin = gui.spin(
            gui.indentedBox(box), self, "max_clusters", 2, 20, label="Most clusters: ",
            **spin, tooltip="Largest number of clusters (branches) X-means may choose.")
        gui.checkBox(
            box, self, "axis_parallel_tests", "Single-attribute thresholds (J48)",
            callback=self.settings_changed,
            tooltip="Keep C4.5's tests 'attribute ≥ t' on numeric attributes among "
                    "the candidates.")
        gui.checkBox(
            box, self, "mdl_penalty", "MDL penalty",
            callback=self.settings_changed,
            tooltip="Subtract the coding cost of a test (the attributes and clusters it "
                    "uses) from its information gain.")
        self.add_attributes_per_split(box)

        box = gui.vBox(self.controlArea, "Stopping and pruning")
        gui.spin(
            box, self, "min_samples_leaf", 1, 1000, label="Minimal rows in a leaf: ", **spin,
            tooltip="A test needs at least two branches with this many rows (C4.5's "
                    "minimum number of objects).")
        gui.doubleSpin(
            box, self, "confidence", 0.01, 1.0, step=0.05, decimals=2,
            label="Prune, confidence: ", checked="prune",
            checkCallback=self.settings_changed, **spin,
            tooltip="C4.5's error-based pruning; a smaller confidence prunes more.")
        gui.spin(
            box, self, "seed", 0, 2 ** 31 - 1, label="Replicable training, seed: ",
            checked="replicable", checkCallback=self.settings_changed, **spin,
            tooltip="Fix the SVM solver and X-means, so that the same data always give "
                    "the same tree.")
        self._update_controls()

    def _clustering_changed(self):
        self._update_controls()
        self.settings_changed()

    def _update_controls(self):
        self.max_clusters_spin.setEnabled(self.clustering_split)

    def create_learner(self):
        return self.LEARNER(
            C=self.C,
            clustering_split=self.clustering_split,
            max_clusters=self.max_clusters,
            mdl_penalty=self.mdl_penalty,
            axis_parallel_tests=self.axis_parallel_tests,
            min_samples_leaf=self.min_samples_leaf,
            confidence=self.confidence if self.prune else None,
            random_state=self.seed if self.replicable else None,
            max_terms=self.max_terms_parameter(),
            preprocessors=self.preprocessors)

    def get_learner_parameters(self):
        return OrderedDict((
            ("SVM cost (C)", f"{self.C:g}"),
            ("SVM clustering split",
             f"Yes, at most {self.max_clusters} clusters" if self.clustering_split else "No"),
            ("Single-attribute thresholds", "Yes" if self.axis_parallel_tests else "No"),
            ("MDL penalty", "Yes" if self.mdl_penalty else "No"),
            self.attributes_per_split_report(),
            ("Minimal rows in a leaf", str(self.min_samples_leaf)),
            ("Pruning", f"confidence {self.confidence:.2f}" if self.prune else "none"),
            ("Replicable training", f"Yes (seed {self.seed})" if self.replicable else "No"),
        ))


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWODTSVM).run(Table("heart_disease"))
