"""The ODT-SVM widget."""
from Orange.data import Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import ODTSVMLearner
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from tests.helpers.widget_helpers import LearnerWidgetChecks


class TestOWODTSVM(LearnerWidgetChecks, base.WidgetTest):
    WIDGET = OWODTSVM
    LEARNER = ODTSVMLearner
    ESTIMATOR = ODTSVMClassifier
    MODEL_NAME = "ODT-SVM"
    PINNED_DEFAULTS = {"confidence": 0.25, "clustering_split": True}
    REPORTED_DEFAULTS = {
        "SVM cost (C)": "1",
        "SVM clustering splits": "Yes, at most 4 clusters",
        "Single-attribute tests": "Yes",
        "Penalty for tests on many attributes (MDL)": "Yes",
        "Min. number of instances in leaves": "2",
        "Maximal depth": "unlimited",
        "Pruning": "confidence 0.25",
        "Replicable training": "Yes (seed 0)",
        "Attributes per split": "all (as in the paper)",
    }
    REPORTED_CHANGES = {
        "SVM clustering splits": "No",
        "Penalty for tests on many attributes (MDL)": "No",
        "Maximal depth": "20",
        "Pruning": "none",
        "Replicable training": "No",
    }

    def change_reported_settings(self):
        controls = self.widget.controls
        controls.clustering_split.click()
        controls.mdl_penalty.click()
        controls.limit_depth.setChecked(True)
        controls.prune.setChecked(False)
        controls.replicable.setChecked(False)

    def parameter_mappings(self, controls):
        return [
            base.ParameterMapping("C", controls.C, [0.01, 1.0, 10.0]),
            base.ParameterMapping("max_clusters", controls.max_clusters, [2, 7]),
            base.ParameterMapping("min_samples_leaf", controls.min_samples_leaf, [1, 5]),
            base.ParameterMapping("confidence", controls.confidence, [0.05, 0.5]),
            base.ParameterMapping("random_state", controls.seed, [0, 12345]),
        ]

    def default_params(self):
        params = super().default_params()
        del params["categorical_features"]
        return params

    def test_checkboxes(self):
        w = self.widget
        for name in ("clustering_split", "mdl_penalty", "axis_parallel_tests"):
            getattr(w.controls, name).click()
            self.click_apply()
            self.assertFalse(getattr(self.get_output(w.Outputs.learner), name), name)
        self.assertFalse(w.max_clusters_spin.isEnabled())
        w.controls.prune.setChecked(False)
        w.controls.replicable.setChecked(False)
        self.click_apply()
        learner = self.get_output(w.Outputs.learner)
        self.assertIsNone(learner.confidence)
        self.assertIsNone(learner.random_state)
        w.controls.clustering_split.click()
        self.click_apply()
        self.assertTrue(w.max_clusters_spin.isEnabled())
        self.assertTrue(self.get_output(w.Outputs.learner).clustering_split)

    def test_depth_limit_off_by_default(self):
        """C4.5 has no depth limit; the check box sets one."""
        w = self.widget
        self.assertIsNone(self.get_output(w.Outputs.learner).max_depth)
        w.controls.limit_depth.setChecked(True)
        w.controls.max_depth.setValue(3)
        self.click_apply()
        self.assertEqual(self.get_output(w.Outputs.learner).max_depth, 3)
        self.assertLessEqual(self.train(Table("iris")).depth(), 3)

    def test_model_on_heart_disease(self):
        self.widget.controls.clustering_split.click()  # quicker
        model = self.fit_checked_model(Table("heart_disease"))
        names = [node.attr.name for node in model._nodes() if node.attr is not None]
        self.assertIn("chest pain", names)
