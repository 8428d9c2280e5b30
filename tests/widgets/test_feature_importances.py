"""The learner widgets' "Feature importances" output and their line on how oblique the
fitted model is; the learners as scorers in Orange's Rank widget."""
import pickle
import re

import numpy as np
from Orange.classification import TreeLearner
from Orange.data import Table
from Orange.widgets.data.owrank import OWRank
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner,
                                   OC1Learner)
from orangecontrib.oblique.widgets.modelsummary import (FITTING, NO_MODEL,
                                                        importance_table, obliqueness_text)
from orangecontrib.oblique.widgets import viewertexts
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from tests.helpers.widget_helpers import PatientWaits

TREE_LINE = re.compile(r"^\d+ of \d+ splits? oblique, \d+(\.\d)? attributes? per split on "
                       r"average$")
ENSEMBLE_LINE = re.compile(r"^\d+ trees?: \d+ of \d+ splits? oblique, \d+(\.\d)? attributes? "
                           r"per split on average(; trained in (one process|\d+ processes)"
                           r"( \(of at most \d+: too little work to pay for starting "
                           r"more\))?)?$")


class ImportancesOutputChecks(PatientWaits):
    """For a learner widget ``WIDGET``: after fitting on heart_disease the output has a
    row per attribute of the model's domain and the box says how oblique the model is."""
    WIDGET = None
    LINE = TREE_LINE
    #: settings that keep the fit short
    SETTINGS = {}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table("heart_disease")

    def setUp(self):
        self.widget = self.create_widget(self.WIDGET, stored_settings=dict(self.SETTINGS))

    def fitted(self):
        self.send_signal(self.widget.Inputs.data, self.heart)
        self.wait_until_finished()
        model = self.get_output(self.widget.Outputs.model)
        self.assertIsNotNone(model)
        return model

    def test_output_has_a_row_per_attribute_of_the_model(self):
        self.assertEqual(self.widget.model_summary.text(), NO_MODEL)
        model = self.fitted()
        table = self.get_output(self.widget.Outputs.feature_importances)
        self.assertIsNotNone(table)
        # the table's own attributes, one-hot columns summed back
        self.assertEqual([str(name) for name in table.metas[:, 0]],
                         [attr.name for attr in self.heart.domain.attributes])
        np.testing.assert_allclose(table.X[:, 0], model.attribute_importances[0])
        self.assertAlmostEqual(float(table.X.sum()), 1.0)
        self.assertEqual(self.widget.Outputs.feature_importances.name, "Feature importances")

    def test_summary_says_how_oblique(self):
        model = self.fitted()
        text = self.widget.model_summary.text()
        self.assertRegex(text, self.LINE)
        self.assertIn(f"{model.n_oblique_splits} of {model.n_splits} split", text)
        self.assertIn(viewertexts.attributes_per_split(model.mean_attributes_per_split),
                      text)

    def test_no_data_clears_the_output(self):
        self.fitted()
        self.send_signal(self.widget.Inputs.data, None)
        self.wait_until_finished()
        self.assertIsNone(self.get_output(self.widget.Outputs.feature_importances))
        self.assertEqual(self.widget.model_summary.text(), NO_MODEL)

    def test_summary_while_fitting(self):
        self.send_signal(self.widget.Inputs.data, self.heart)
        if self.widget.task is not None:  # the fit may already be done
            self.assertEqual(self.widget.model_summary.text(), FITTING)
        self.wait_until_finished()
        self.assertNotEqual(self.widget.model_summary.text(), FITTING)


class TestGeometricTreeImportances(ImportancesOutputChecks, base.WidgetTest):
    WIDGET = OWGeometricTree
    SETTINGS = {"max_depth": 4}

    def send_model(self, model):
        """The widget shows ``model`` as if it had just fitted it."""
        self.widget.model = model
        self.widget.send_model()

    def test_model_without_splits(self):
        self.fitted()
        self.send_model(GeometricTreeLearner(max_depth=0)(self.heart))
        self.assertEqual(self.widget.model_summary.text(),
                         "no splits: the tree is a single leaf")
        table = self.get_output(self.widget.Outputs.feature_importances)
        self.assertEqual(len(table), len(self.heart.domain.attributes))
        self.assertFalse(table.X.any())

    def test_model_pickled_by_an_earlier_version(self):
        model = self.fitted()
        del model.estimator.tree_.feature_scales  # not kept by earlier versions
        old = pickle.loads(pickle.dumps(model))
        self.send_model(old)
        self.assertRegex(self.widget.model_summary.text(), TREE_LINE)
        table = self.get_output(self.widget.Outputs.feature_importances)
        self.assertEqual(len(table), len(self.heart.domain.attributes))
        self.assertAlmostEqual(float(table.X.sum()), 1.0)

    def test_foreign_model_shows_nothing(self):
        tree = TreeLearner()(self.heart)
        self.assertEqual(obliqueness_text(tree), "")
        self.assertIsNone(importance_table(tree))
        self.assertIsNone(importance_table(None))


class TestOC1Importances(ImportancesOutputChecks, base.WidgetTest):
    """OC1: few restarts, a short fit."""
    WIDGET = OWOC1
    SETTINGS = {"n_restarts": 2}


class TestODTSVMImportances(ImportancesOutputChecks, base.WidgetTest):
    """ODT-SVM: nominal attributes stay one column each."""
    WIDGET = OWODTSVM


class TestHedgeEnsembleImportances(ImportancesOutputChecks, base.WidgetTest):
    """Hedge Ensemble: the line counts the trees."""
    WIDGET = OWHedgeEnsemble
    LINE = ENSEMBLE_LINE
    SETTINGS = {"n_estimators": 3}

    def test_summary_counts_every_tree(self):
        self.send_signal(self.widget.Inputs.learner, OC1Learner(n_restarts=2))
        model = self.fitted()
        self.assertTrue(self.widget.model_summary.text().startswith("3 trees: "))
        members = model.estimator.estimators_
        self.assertEqual(model.n_splits,
                         sum(m.get_split_statistics().n_splits for m in members))

    def test_every_tree_a_single_leaf(self):
        model = HedgeEnsembleLearner(GeometricTreeLearner(max_depth=0),
                                     n_estimators=2)(self.heart)
        self.assertEqual(obliqueness_text(model),
                         "2 trees: no splits: every tree is a single leaf")
        self.assertFalse(importance_table(model).X.any())


class TestObliqueForestImportances(ImportancesOutputChecks, base.WidgetTest):
    """Oblique Forest: one-hot columns summed back, as for the other learners."""
    WIDGET = OWObliqueForest
    LINE = re.compile(r"^\d+ trees?: \d+ of \d+ splits? oblique, \d+(\.\d)? attributes? per "
                      r"split on average; out-of-bag accuracy [\d.]+"
                      r"(; trees grown in (one process|\d+ processes))?$")
    SETTINGS = {"n_estimators": 5}


class TestRankWithObliqueScorer(PatientWaits, base.WidgetTest):
    def test_rank_scores_every_attribute(self):
        heart = Table("heart_disease")
        rank = self.widget = self.create_widget(OWRank)
        self.send_signal(rank.Inputs.data, heart)
        self.send_signal(rank.Inputs.scorer, GeometricTreeLearner(), 1)
        self.wait_until_finished()
        scores = self.get_output(rank.Outputs.scores)
        column = [var.name for var in scores.domain.attributes].index("Geometric Tree")
        values = scores.X[:, column]
        self.assertEqual(len(values), len(heart.domain.attributes))
        self.assertFalse(np.isnan(values).any())
        self.assertTrue((values > 0).any())
        expected = GeometricTreeLearner().score_data(heart)[0]
        by_name = dict(zip(scores.metas[:, 0], values))
        np.testing.assert_allclose([by_name[a.name] for a in heart.domain.attributes],
                                   expected)
