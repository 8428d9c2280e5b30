"""The OC1 widget."""
from Orange.data import Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import OC1Learner
from orangecontrib.oblique.core import OC1Classifier
from orangecontrib.oblique.widgets.owoc1 import OWOC1

from tests.helpers.widget_helpers import LearnerWidgetChecks, percent_mapping


class TestOWOC1(LearnerWidgetChecks, base.WidgetTest):
    WIDGET = OWOC1
    LEARNER = OC1Learner
    ESTIMATOR = OC1Classifier
    MODEL_NAME = "OC1"
    MIN_TRAINING_ACCURACY = 0.75
    PINNED_DEFAULTS = {"impurity": "twoing", "pruning_portion": 0.1}
    REPORTED_DEFAULTS = {
        "Impurity measure": "Twoing rule",
        "Splits": "Oblique and axis-parallel",
        "Restarts": "20",
        "Random jumps": "5",
        "Coefficient order": "Sequential",
        "Pruning": "on 10 % held-out instances, 0.0-SE rule",
        "Maximal depth": "50",
        "Replicable training": "Yes (seed 0)",
        "Attributes per split": "at most 3",
    }
    REPORTED_CHANGES = {
        "Maximal depth": "unlimited",
        "Replicable training": "No",
        "Pruning": "none",
        "Impurity measure": "Sum of variances",
    }

    def change_reported_settings(self):
        controls = self.widget.controls
        controls.limit_depth.setChecked(False)
        controls.replicable.setChecked(False)
        controls.prune.setChecked(False)
        controls.impurity_index.setCurrentIndex(5)
        controls.impurity_index.activated.emit(5)

    def parameter_mappings(self, controls):
        return [
            base.ParameterMapping("impurity", controls.impurity_index,
                                  [key for key, _ in OWOC1.IMPURITIES]),
            base.ParameterMapping("split_mode", controls.split_mode_index,
                                  [key for key, _ in OWOC1.SPLIT_MODES]),
            base.ParameterMapping("coefficient_order", controls.coefficient_order_index,
                                  [key for key, _ in OWOC1.COEFFICIENT_ORDERS]),
            base.ParameterMapping("n_restarts", controls.n_restarts, [1, 3]),
            base.ParameterMapping("n_random_jumps", controls.n_random_jumps),
            base.ParameterMapping("se_rule", controls.se_rule),
            base.ParameterMapping("max_depth", controls.max_depth),
            base.ParameterMapping("random_state", controls.seed, [0, 12345]),
            percent_mapping("pruning_portion", controls.pruning_percent, [0.01, 0.25, 0.9]),
        ]

    def test_model_on_heart_disease(self):
        self.widget.n_restarts = 3
        model = self.fit_checked_model(Table("heart_disease"))
        self.assertEqual(model.estimator.n_restarts, 3)

    def test_combo_labels(self):
        controls = self.widget.controls
        impurities = [controls.impurity_index.itemText(i)
                      for i in range(controls.impurity_index.count())]
        self.assertEqual(impurities, ["Twoing rule", "Information gain", "Gini index",
                                      "Max minority", "Sum minority", "Sum of variances"])
        self.assertEqual(controls.split_mode_index.currentText(),
                         "Oblique and axis-parallel")
        self.assertEqual(controls.coefficient_order_index.currentText(), "Sequential")
        self.assertEqual(controls.pruning_percent.minimum(), 1)

    def test_unchecked_boxes(self):
        w = self.widget
        w.controls.limit_depth.setChecked(False)
        w.controls.replicable.setChecked(False)
        w.controls.prune.setChecked(False)
        self.assertFalse(w.se_rule_spin.isEnabled())
        self.click_apply()
        learner = self.get_output(w.Outputs.learner)
        self.assertIsNone(learner.max_depth)
        self.assertIsNone(learner.random_state)
        self.assertEqual(learner.pruning_portion, 0)
