"""The Oblique Forest widget."""
import numpy as np

from Orange.data import Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.core.forest.classifier import ObliqueForestClassifier
from orangecontrib.oblique.learners import ObliqueForestLearner, ObliqueForestModel
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer

from tests.helpers.widget_helpers import LearnerWidgetChecks, LongFitWidget, random_labels_table


class TestOWObliqueForest(LearnerWidgetChecks, base.WidgetTest):
    MODEL_NAME = "Oblique Forest"
    MIN_TRAINING_ACCURACY = 0.95  # a forest of trees grown until their leaves are pure
    WIDGET, LEARNER = OWObliqueForest, ObliqueForestLearner
    MODEL, ESTIMATOR = ObliqueForestModel, ObliqueForestClassifier
    REPORTED_DEFAULTS = {
        "Number of trees": "10",  # 100 by default; 10 in these tests (setUp)
        "Projections per node": "√ of the attributes",
        "Attributes per projection": "3 (10 or more attributes), else 1",
        "Bootstrap samples": "Yes",
        "Out-of-bag estimate": "Yes",
        "Maximal depth": "unlimited",
        "Replicable training": "Yes (seed 0)",
    }
    REPORTED_CHANGES = {
        "Projections per node": "10",
        "Attributes per projection": "3.0",
        "Bootstrap samples": "No",
        "Out-of-bag estimate": "No",
        "Maximal depth": "20",
        "Replicable training": "No",
    }

    def default_params(self):
        # the widget estimates the out-of-bag accuracy by default
        return {**super().default_params(), "oob_score": True}

    def parameter_mappings(self, controls):
        return [
            base.ParameterMapping("n_estimators", controls.n_estimators, [1, 3]),
            base.ParameterMapping("random_state", controls.seed, [0, 12345]),
        ]

    def change_reported_settings(self):
        controls = self.widget.controls
        controls.set_projections.setChecked(True)
        controls.set_combinations.setChecked(True)
        controls.bootstrap.setChecked(False)
        controls.limit_depth.setChecked(True)
        controls.replicable.setChecked(False)
        self.click_apply()
        learner = self.get_output(self.widget.Outputs.learner)
        self.assertEqual((learner.max_features, learner.feature_combinations,
                          learner.bootstrap, learner.oob_score, learner.max_depth,
                          learner.random_state), (10, 3.0, False, False, 20, None))

    def setUp(self):
        super().setUp()
        self.widget.controls.n_estimators.setValue(10)  # the checks fit many forests

    def test_model_on_heart_disease(self):
        model = self.fit_checked_model(Table("heart_disease"))
        self.assertEqual(len(model.estimator.estimators_), 10)
        self.assertTrue(0.6 < model.oob_accuracy < 1)
        summary = self.widget.model_summary.text()
        self.assertTrue(summary.startswith("10 trees: "), summary)
        self.assertIn(f"out-of-bag accuracy {model.oob_accuracy:.3f}", summary)
        self.assertTrue(summary.endswith("; trees grown in one process"), summary)
        # a forest whose trees two jobs fitted: in worker processes, not threads
        model.estimator.n_jobs_used_ = 2
        self.widget.model_sent()
        summary = self.widget.model_summary.text()
        self.assertTrue(summary.endswith("; trees grown in 2 processes"), summary)

    def test_default_settings(self):
        super().test_default_settings()
        self.assertEqual(self.widget.n_estimators, 10)  # set in setUp; the default is 100
        self.assertEqual(OWObliqueForest.n_estimators.default, 100)
        self.assertFalse(self.widget.limit_depth)

    def test_out_of_bag_needs_bootstrap(self):
        w = self.widget
        self.assertTrue(w.oob_box.isEnabled())
        w.controls.bootstrap.setChecked(False)
        self.assertFalse(w.oob_box.isEnabled())
        self.click_apply()
        self.assertFalse(self.get_output(w.Outputs.learner).oob_score)
        model = self.train(Table("iris"))
        self.assertIsNone(model.oob_accuracy)
        self.assertNotIn("out-of-bag", w.model_summary.text())

    def test_member_tree_output(self):
        """The outputs of the Hedge Ensemble widget (tested there); each tree of the
        forest, of weight 1/n, goes to "Member tree" as a tree model over the forest's
        domain."""
        w = self.widget
        self.assertEqual([signal.name for signal in OWObliqueForest.get_signals("outputs")],
                         [signal.name for signal in OWHedgeEnsemble.get_signals("outputs")])
        self.assertIs(w.Outputs.member_tree.type, OWHedgeEnsemble.Outputs.member_tree.type)
        w.controls.n_estimators.setValue(3)
        data = Table("heart_disease")
        forest = self.train(data)
        trees = []
        for k in (1, 2, 3):
            w.controls.member_tree.setValue(k)
            self.assertEqual(w.member_label.text(), "of 3, weight 0.333")
            trees.append(self.get_output(w.Outputs.member_tree))
        self.assertEqual([tree.name for tree in trees],
                         [f"Oblique Forest, tree {k}" for k in (1, 2, 3)])
        self.assertEqual([tree.estimator.tree_ for tree in trees],
                         [member.tree_ for member in forest.estimator.estimators_])
        mean = sum(tree(data, tree.Probs) for tree in trees) / 3
        np.testing.assert_allclose(mean, forest(data, forest.Probs))
        self.assertIsInstance(trees[0], OWObliqueTreeViewer.Inputs.tree.type)

    def test_feature_importances_output(self):
        self.train(Table("iris"))
        table = self.get_output(self.widget.Outputs.feature_importances)
        self.assertEqual(len(table), 4)
        self.assertAlmostEqual(float(table.X.sum()), 1.0)

    def test_rank_scores_original_attributes(self):
        """A scorer for Rank: one score per original attribute (one-hot columns are
        scored by their largest)."""
        data = Table("heart_disease")
        scores = ObliqueForestLearner(n_estimators=5).score_data(data)
        self.assertEqual(scores.shape, (1, len(data.domain.attributes)))
        self.assertTrue(np.all(scores >= 0))


class TestOWObliqueForestBackground(LongFitWidget, base.WidgetTest):
    """A forest that takes seconds to fit: progress and cancel."""
    widget_class = OWObliqueForest
    long_fit_data = staticmethod(lambda: random_labels_table(n_rows=3000))

    def test_progress_advances_and_new_data_cancels(self):
        w = self.widget
        self.send_signal(w.Inputs.data, self.big)
        self.assertIsNotNone(w.task)
        self.process_events(until=lambda: w.progressBarValue > 0)
        self.send_signal(w.Inputs.data, self.iris)  # cancels the running fit
        self.wait_until_finished()
        model = self.get_output(w.Outputs.model)
        self.assertIsInstance(model, ObliqueForestModel)
        self.assertIs(model.instances, self.iris)
        self.assertFalse(w.Error.active)
