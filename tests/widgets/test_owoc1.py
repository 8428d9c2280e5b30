"""The OC1 widget."""
import numpy as np

from Orange.data import Domain, Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph

from orangecontrib.oblique import OC1Learner, ObliqueTreeModel
from orangecontrib.oblique.core import OC1Classifier
from orangecontrib.oblique.widgets.owoc1 import OWOC1


def with_missing_class(data, rows):
    data = data.copy()
    with data.unlocked(data.Y):
        data.Y[rows] = np.nan
    return data


class TestOWOC1(base.WidgetTest, base.WidgetLearnerTestMixin):
    def setUp(self):
        self.widget = self.create_widget(OWOC1, stored_settings={"auto_apply": False})
        self.init()
        controls = self.widget.controls
        self.parameters = [
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
            base.ParameterMapping(
                "pruning_portion", controls.pruning_percent, [0.0, 0.25, 0.9],
                getter=lambda: controls.pruning_percent.value() / 100,
                setter=lambda value: controls.pruning_percent.setValue(round(100 * value))),
        ]

    def train(self, data):
        self.send_signal(self.widget.Inputs.data, data)
        self.click_apply()
        self.wait_until_finished()
        return self.get_output(self.widget.Outputs.model)

    def test_model_output_links_to_tree_viewers(self):
        model_type = self.widget.Outputs.model.type
        self.assertIs(model_type, ObliqueTreeModel)
        self.assertTrue(issubclass(model_type, OWTreeGraph.Inputs.tree.type))
        self.assertTrue(issubclass(model_type, OWPythagorasTree.Inputs.tree.type))
        self.assertIs(self.widget.Outputs.learner.type, OC1Learner)

    def test_default_settings(self):
        learner = self.get_output(self.widget.Outputs.learner)
        expected = OC1Classifier().get_params()
        expected["random_state"] = 0  # "Replicable training" is on by default
        self.assertEqual(learner.params, expected)
        self.assertEqual(learner.impurity, "twoing")
        self.assertEqual(learner.pruning_portion, 0.1)

    def test_combo_labels(self):
        controls = self.widget.controls
        impurities = [controls.impurity_index.itemText(i)
                      for i in range(controls.impurity_index.count())]
        self.assertEqual(impurities, ["Twoing rule", "Information gain", "Gini index",
                                      "Max minority", "Sum minority", "Sum of variances"])
        self.assertEqual(controls.split_mode_index.currentText(),
                         "Oblique and axis-parallel")
        self.assertEqual(controls.coefficient_order_index.currentText(), "Sequential")
        self.assertEqual(controls.pruning_percent.specialValueText(), "no pruning")

    def test_unchecked_boxes(self):
        w = self.widget
        w.controls.limit_depth.setChecked(False)
        w.controls.replicable.setChecked(False)
        w.controls.pruning_percent.setValue(0)
        self.click_apply()
        learner = self.get_output(w.Outputs.learner)
        self.assertIsNone(learner.max_depth)
        self.assertIsNone(learner.random_state)
        self.assertEqual(learner.pruning_portion, 0)

    def test_model_on_heart_disease(self):
        data = Table("heart_disease")
        self.widget.n_restarts = 3
        model = self.train(data)
        self.assertIsInstance(model, ObliqueTreeModel)
        self.assertIsInstance(model.estimator, OC1Classifier)
        self.assertEqual(model.estimator.n_restarts, 3)
        self.assertIs(model.instances, data)
        self.assertEqual(model.name, "OC1")
        self.assertFalse(self.widget.Error.active)
        self.assertGreater(np.mean(model(data) == data.Y), 0.75)

    def test_replicable_training(self):
        iris = Table("iris")
        first = self.train(iris).tree_.export_text()
        self.widget.controls.seed.setValue(0)
        self.send_signal(self.widget.Inputs.data, iris[::-1][::-1])
        self.click_apply()
        self.assertEqual(self.get_output(self.widget.Outputs.model).tree_.export_text(),
                         first)

    def test_report_parameters(self):
        w = self.widget
        params = dict(w.get_learner_parameters())
        self.assertEqual(params, {
            "Impurity measure": "Twoing rule",
            "Splits": "Oblique and axis-parallel",
            "Restarts": "20",
            "Random jumps": "5",
            "Coefficient order": "Sequential",
            "Pruning": "on 10 % held-out data, 0.0-SE rule",
            "Maximal depth": "50",
            "Replicable training": "Yes (seed 0)",
        })
        w.controls.limit_depth.setChecked(False)
        w.controls.replicable.setChecked(False)
        w.controls.pruning_percent.setValue(0)
        w.controls.impurity_index.setCurrentIndex(5)
        w.controls.impurity_index.activated.emit(5)
        params = dict(w.get_learner_parameters())
        self.assertEqual(params["Maximal depth"], "unlimited")
        self.assertEqual(params["Replicable training"], "No")
        self.assertEqual(params["Pruning"], "none")
        self.assertEqual(params["Impurity measure"], "Sum of variances")
        self.send_signal(w.Inputs.data, Table("iris"))
        w.send_report()

    def test_error_no_class(self):
        iris = Table("iris")
        self.assertIsNone(self.train(iris.transform(Domain(iris.domain.attributes))))
        self.assertTrue(self.widget.Error.data_error.is_shown())
        self.train(iris)
        self.assertFalse(self.widget.Error.data_error.is_shown())

    def test_error_numeric_class(self):
        self.assertIsNone(self.train(Table("housing")))
        self.assertIn("Categorical class", str(self.widget.Error.data_error))

    def test_error_single_class_value(self):
        iris = Table("iris")
        self.assertIsNone(self.train(with_missing_class(iris[:60], slice(50, 60))))
        self.assertTrue(self.widget.Error.single_class.is_shown())
        self.train(iris)
        self.assertFalse(self.widget.Error.single_class.is_shown())

    def test_error_every_class_missing(self):
        self.assertIsNone(self.train(with_missing_class(Table("iris"), slice(None))))
        self.assertTrue(self.widget.Error.no_class_values.is_shown())
        self.send_signal(self.widget.Inputs.data, None)
        self.assertFalse(self.widget.Error.no_class_values.is_shown())

    def test_warning_missing_class_rows(self):
        data = with_missing_class(Table("iris"), [0, 60])
        model = self.train(data)
        self.assertIsNotNone(model)
        self.assertIn("2 rows with a missing class are skipped",
                      str(self.widget.Warning.missing_class))
        np.testing.assert_array_equal(model.root.subset, np.arange(len(data)))

    def test_fitting_failure_is_shown(self):
        data = Table("iris").copy()
        with data.unlocked(data.X):
            data.X[:] = np.nan  # every feature is removed by preprocessing
        self.assertIsNone(self.train(data))
        self.assertTrue(self.widget.Error.fitting_failed.is_shown())
        self.assertIn("no features", str(self.widget.Error.fitting_failed))
        self.assertIsNotNone(self.train(Table("iris")))
        self.assertFalse(self.widget.Error.fitting_failed.is_shown())
