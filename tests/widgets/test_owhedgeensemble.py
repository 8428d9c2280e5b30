"""The Hedge Ensemble widget."""
import os

import numpy as np

from Orange.classification import KNNLearner
from Orange.data import Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from Orange.widgets.visualize.owtreeviewer import OWTreeGraph

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner,
                                   HedgeEnsembleModel, ObliqueTreeModel, OC1Learner,
                                   ODTSVMLearner)
from orangecontrib.oblique.learners import ObliqueTreeLearner
from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier)
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer

from tests.helpers.widget_helpers import LearnerWidgetChecks, percent_mapping


class TestOWHedgeEnsemble(LearnerWidgetChecks, base.WidgetTest):
    WIDGET = OWHedgeEnsemble
    LEARNER = HedgeEnsembleLearner
    MODEL = HedgeEnsembleModel
    ESTIMATOR = HedgeEnsembleClassifier
    MODEL_NAME = "Hedge Ensemble"
    REPORTED_DEFAULTS = {
        "Base learner": "ODT-SVM (default)",
        "Number of trees": "10",
        "Instances per tree": "90 %",
        "Hedge β": "0.90",
        "Processes, at most": str(os.cpu_count() or 1),
        "Replicable training": "Yes (seed 0)",
    }
    REPORTED_CHANGES = {"Base learner": "OC1", "Replicable training": "No"}

    def parameter_mappings(self, controls):
        return [
            base.ParameterMapping("n_estimators", controls.n_estimators, [1, 3]),
            base.ParameterMapping("beta", controls.beta, [0.01, 0.5, 0.99]),
            base.ParameterMapping("random_state", controls.seed, [0, 12345]),
            percent_mapping("sample_fraction", controls.sample_percent, [0.1, 0.5, 1.0]),
            base.ParameterMapping("n_jobs", controls.n_jobs, [1, os.cpu_count() or 1]),
        ]

    def change_reported_settings(self):
        self.send_signal(self.widget.Inputs.learner, OC1Learner())
        self.widget.controls.replicable.setChecked(False)
        self.click_apply()
        self.assertIsNone(self.get_output(self.widget.Outputs.learner).random_state)

    def test_default_settings(self):
        w = self.widget
        learner = self.get_output(w.Outputs.learner)
        self.assertIsInstance(learner, HedgeEnsembleLearner)
        self.assertIsInstance(learner.learner, ODTSVMLearner)
        self.assertEqual({k: v for k, v in learner.params.items() if k != "learner"},
                         dict(n_estimators=10, sample_fraction=0.9, beta=0.9, random_state=0,
                              n_jobs=os.cpu_count() or 1))
        self.assertEqual(w.base_label.text(), "ODT-SVM (default)")

    def test_trees_trained_at_once(self):
        """All cores by default; any number gives the same ensemble."""
        w = self.widget
        self.assertEqual(w.n_jobs, os.cpu_count() or 1)
        iris = Table("iris")
        w.controls.n_estimators.setValue(3)
        models = []
        for n_jobs in (1, 2):
            w.controls.n_jobs.setValue(n_jobs)
            self.click_apply()
            self.assertEqual(self.get_output(w.Outputs.learner).n_jobs,
                             min(n_jobs, os.cpu_count() or 1))
            models.append(self.train(iris))
        np.testing.assert_array_equal(models[0](iris, 1), models[1](iris, 1))

    def test_model_box_says_how_many_processes_trained_the_trees(self):
        """A first fit too small to pay for starting processes runs in one,
        whatever the setting, and the Model box says so."""
        w = self.widget
        w.controls.n_estimators.setValue(3)
        w.controls.n_jobs.setValue(max(os.cpu_count() or 1, 2))
        model = self.fit_checked_model(Table("iris"))
        self.assertEqual(model.estimator.n_jobs_used_, 1)
        summary = w.model_summary.text()
        self.assertTrue(summary.startswith("3 trees: "), summary)
        # the words agree with the control's: at most so many processes, one used
        allowed = max(os.cpu_count() or 1, 2)
        self.assertEqual(w.controls.n_jobs.value(), allowed)
        self.assertTrue(summary.endswith(
            f"; trained in one process (of at most {allowed}: too little work to pay for "
            f"starting more)"), summary)

    def test_learner_input(self):
        w = self.widget
        w.auto_apply = True
        w.controls.n_estimators.setValue(3)
        for base_learner, core in ((GeometricTreeLearner(), GeometricTreeClassifier),
                                   (OC1Learner(n_restarts=2), OC1Classifier)):
            base_learner.name = "my " + base_learner.name
            self.send_signal(w.Inputs.learner, base_learner)
            self.assertEqual(w.base_label.text(), base_learner.name)
            learner = self.get_output(w.Outputs.learner)
            self.assertIs(learner.learner, base_learner)
            model = self.train(Table("iris"))
            self.assertIsInstance(model, HedgeEnsembleModel)
            self.assertEqual(len(model.estimator.estimators_), 3)
            self.assertTrue(all(isinstance(m, core) for m in model.estimator.estimators_))
            self.assertEqual(model.name, "Hedge Ensemble")
        self.send_signal(w.Inputs.learner, None)
        self.assertEqual(w.base_label.text(), "ODT-SVM (default)")
        self.assertIsInstance(self.get_output(w.Outputs.learner).learner, ODTSVMLearner)

    def test_foreign_learner_is_an_error(self):
        """The canvas links no other learner (the input's type); one given from Python
        is an error."""
        w = self.widget
        self.send_signal(w.Inputs.data, Table("iris"))
        w.set_base_learner(KNNLearner())
        w.handleNewSignals()
        self.wait_until_finished()
        self.assertTrue(w.Error.foreign_learner.is_shown())
        self.assertIn("knn is not an oblique tree learner", str(w.Error.foreign_learner))
        self.assertEqual(w.base_label.text(), "invalid")
        self.assertIsNone(self.get_output(w.Outputs.learner))
        self.assertIsNone(self.get_output(w.Outputs.model))
        self.send_signal(w.Inputs.learner, GeometricTreeLearner())
        self.wait_until_finished()
        self.assertFalse(w.Error.foreign_learner.is_shown())
        self.assertIsNotNone(self.get_output(w.Outputs.model))
        w.set_base_learner(KNNLearner())
        self.send_signal(w.Inputs.learner, None)
        self.assertFalse(w.Error.foreign_learner.is_shown())

    def test_model_on_heart_disease(self):
        w = self.widget
        w.controls.n_estimators.setValue(2)
        self.send_signal(w.Inputs.learner, ODTSVMLearner(clustering_split=False))
        data = Table("heart_disease")
        model = self.fit_checked_model(data)
        self.assertTrue(all(isinstance(m, ODTSVMClassifier)
                            for m in model.estimator.estimators_))
        probs = model(data, model.Probs)
        np.testing.assert_allclose(probs.sum(axis=1), 1)

    def test_learner_input_takes_oblique_tree_learners_only(self):
        """The canvas links only the add-on's tree learners to the Learner input (Orange's
        Tree, kNN, ... are refused)."""
        self.assertIs(self.widget.Inputs.learner.type, ObliqueTreeLearner)

    def test_member_tree_output(self):
        """Each member tree, with its weight, goes to the "Member tree" output as a tree
        model over the ensemble's domain that the tree viewers take."""
        w = self.widget
        self.assertIs(w.Outputs.member_tree.type, ObliqueTreeModel)
        self.assertTrue(issubclass(ObliqueTreeModel, OWObliqueTreeViewer.Inputs.tree.type))
        self.assertTrue(issubclass(ObliqueTreeModel, OWTreeGraph.Inputs.tree.type))
        self.assertFalse(w.member_spin.isEnabled())
        w.controls.n_estimators.setValue(3)
        data = Table("heart_disease")
        self.send_signal(w.Inputs.learner, ODTSVMLearner(clustering_split=False))
        ensemble = self.train(data)
        weights = ensemble.member_weights
        self.assertEqual(w.member_spin.maximum(), 3)
        for k in (1, 2, 3):
            w.controls.member_tree.setValue(k)
            tree = self.get_output(w.Outputs.member_tree)
            self.assertIsInstance(tree, ObliqueTreeModel)
            self.assertIs(tree.estimator.tree_, ensemble.estimator.estimators_[k - 1].tree_)
            self.assertEqual(tree.domain, ensemble.domain)
            self.assertIs(tree.instances, data)
            self.assertEqual(tree.name, f"Hedge Ensemble, tree {k}")
            self.assertEqual(w.member_label.text(), f"of 3, weight {weights[k - 1]:.3f}")
            # the member's own predictions, on the raw table
            member = ensemble.estimator.estimators_[k - 1]
            codes = member.predict(ensemble.data_to_model_domain(data).X)
            expected = np.asarray(ensemble.estimator.classes_)[codes]
            np.testing.assert_array_equal(tree(data), expected)
            np.testing.assert_array_equal(tree.root.subset, np.arange(len(data)))
        # the trees' weighted distributions are the ensemble's
        probs = sum(weight * ensemble.member_model(k, data)(data, ensemble.Probs)
                    for k, weight in enumerate(weights))
        np.testing.assert_allclose(probs, ensemble(data, ensemble.Probs))
        # fewer trees: the choice follows; no data, no tree
        w.controls.n_estimators.setValue(2)
        self.click_apply()
        self.wait_until_finished()
        self.assertEqual(w.member_tree, 2)
        self.assertIn("of 2", w.member_label.text())
        self.send_signal(w.Inputs.data, None)
        self.assertIsNone(self.get_output(w.Outputs.member_tree))
        self.assertFalse(w.member_spin.isEnabled())

    def test_member_tree_in_oblique_tree_viewer(self):
        w = self.widget
        w.controls.n_estimators.setValue(2)
        iris = Table("iris")
        self.send_signal(w.Inputs.learner, GeometricTreeLearner())
        self.train(iris)
        tree = self.get_output(w.Outputs.member_tree)
        viewer = self.create_widget(OWObliqueTreeViewer)
        self.send_signal(viewer.Inputs.tree, tree, widget=viewer)
        self.assertFalse(viewer.Error.active)
        self.assertEqual(len(viewer.items), tree.node_count())
