"""The ODT-SVM widget."""
import numpy as np

from Orange.data import Domain, Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph

from orangecontrib.oblique import ObliqueTreeModel, ODTSVMLearner
from orangecontrib.oblique.core.odt_svm import ODTSVMClassifier
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM


def with_missing_class(data, rows):
    data = data.copy()
    with data.unlocked(data.Y):
        data.Y[rows] = np.nan
    return data


class TestOWODTSVM(base.WidgetTest, base.WidgetLearnerTestMixin):
    def setUp(self):
        self.widget = self.create_widget(OWODTSVM, stored_settings={"auto_apply": False})
        self.init()
        controls = self.widget.controls
        self.parameters = [
            base.ParameterMapping("C", controls.C, [0.01, 1.0, 10.0]),
            base.ParameterMapping("max_clusters", controls.max_clusters, [2, 7]),
            base.ParameterMapping("min_samples_leaf", controls.min_samples_leaf, [1, 5]),
            base.ParameterMapping("confidence", controls.confidence, [0.05, 0.5]),
            base.ParameterMapping("random_state", controls.seed, [0, 12345]),
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
        self.assertIs(self.widget.Outputs.learner.type, ODTSVMLearner)

    def test_default_settings(self):
        learner = self.get_output(self.widget.Outputs.learner)
        expected = ODTSVMClassifier().get_params()
        del expected["categorical_features"]
        expected["random_state"] = 0  # "Replicable training" is on by default
        self.assertEqual(learner.params, expected)
        self.assertEqual(learner.confidence, 0.25)
        self.assertTrue(learner.clustering_split)

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

    def test_model_on_heart_disease(self):
        data = Table("heart_disease")
        self.widget.controls.clustering_split.click()  # quicker
        model = self.train(data)
        self.assertIsInstance(model, ObliqueTreeModel)
        self.assertIsInstance(model.estimator, ODTSVMClassifier)
        self.assertIs(model.instances, data)
        self.assertEqual(model.name, "ODT-SVM")
        self.assertFalse(self.widget.Error.active)
        self.assertGreater(np.mean(model(data) == data.Y), 0.8)
        names = [node.attr.name for node in model._nodes() if node.attr is not None]
        self.assertIn("chest pain", names)

    def test_replicable_training(self):
        iris = Table("iris")
        first = self.train(iris).tree_.export_text()
        self.send_signal(self.widget.Inputs.data, iris[::-1][::-1])
        self.click_apply()
        self.wait_until_finished()
        self.assertEqual(self.get_output(self.widget.Outputs.model).tree_.export_text(),
                         first)

    def test_report_parameters(self):
        w = self.widget
        self.assertEqual(dict(w.get_learner_parameters()), {
            "SVM cost (C)": "1",
            "SVM clustering split": "Yes, at most 5 clusters",
            "Single-attribute thresholds": "Yes",
            "MDL penalty": "Yes",
            "Minimal rows in a leaf": "2",
            "Pruning": "confidence 0.25",
            "Replicable training": "Yes (seed 0)",
        })
        w.controls.clustering_split.click()
        w.controls.mdl_penalty.click()
        w.controls.prune.setChecked(False)
        w.controls.replicable.setChecked(False)
        params = dict(w.get_learner_parameters())
        self.assertEqual(params["SVM clustering split"], "No")
        self.assertEqual(params["MDL penalty"], "No")
        self.assertEqual(params["Pruning"], "none")
        self.assertEqual(params["Replicable training"], "No")
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
