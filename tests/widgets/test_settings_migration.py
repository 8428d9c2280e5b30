"""Workflows saved by the previous version of each learner widget load with the same
learner: the settings of that version (non-default values) migrate to controls that give
the learner the same parameters."""
import os

# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner, ODTSVMLearner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM


class TestSettingsMigration(base.WidgetTest):
    def learner_params(self, widget_class, settings, version):
        """The learner's ``params`` of ``widget_class`` made from ``settings`` saved at
        ``version``."""
        widget = self.create_widget(
            widget_class, stored_settings=dict(settings, __version__=version))
        learner = self.get_output(widget.Outputs.learner, widget=widget)
        return {name: value for name, value in learner.params.items() if name != "learner"}

    def test_geometric_tree_version_2(self):
        """Version 2 had no seed (the held-out instances were drawn with seed 0) and no
        pruning tolerance (0-SE)."""
        settings = dict(limit_terms=True, max_terms=2, epsilon1=0.15, limit_depth=True,
                        max_depth=7, min_samples_split=4, standardize=False, prune=True,
                        pruning_percent=15)
        self.assertEqual(
            self.learner_params(OWGeometricTree, settings, 2),
            dict(GeometricTreeLearner().params, epsilon1=0.15, max_depth=7,
                 min_samples_split=4, standardize=False, pruning_portion=0.15, se_rule=0.0,
                 random_state=0, max_terms=2))
        unpruned = self.learner_params(OWGeometricTree, dict(settings, prune=False), 2)
        self.assertEqual((unpruned["pruning_portion"], unpruned["random_state"]), (0.0, 0))
        # version 1 (no attributes per split) still loads with dense splits
        self.assertIsNone(self.learner_params(OWGeometricTree, {"epsilon1": 0.2}, 1)
                          ["max_terms"])

    def test_oc1_version_1(self):
        """Version 1 had no "Prune" check box: a share of 0 % meant no pruning."""
        settings = dict(impurity_index=2, n_restarts=7, n_random_jumps=3,
                        coefficient_order_index=1, split_mode_index=2, se_rule=1.0,
                        limit_depth=False, max_depth=30, replicable=True, seed=5,
                        limit_terms=True, max_terms=2)
        expected = dict(OC1Learner().params, impurity="gini", n_restarts=7, n_random_jumps=3,
                        coefficient_order="best_first", split_mode="oblique", se_rule=1.0,
                        max_depth=None, random_state=5, max_terms=2)
        for percent, portion in ((0, 0.0), (25, 0.25)):
            params = self.learner_params(OWOC1, dict(settings, pruning_percent=percent), 1)
            self.assertEqual(params, dict(expected, pruning_portion=portion), percent)
        widget = self.create_widget(OWOC1, stored_settings={"pruning_percent": 0})
        self.assertFalse(widget.prune)
        self.assertEqual(widget.pruning_percent, 10)  # what checking "Prune" gives

    def test_odt_svm_version_1(self):
        """Version 1 had no depth limit."""
        settings = dict(C=2.5, clustering_split=False, max_clusters=4,
                        axis_parallel_tests=False, mdl_penalty=False, min_samples_leaf=3,
                        prune=True, confidence=0.1, replicable=False, seed=3)
        self.assertEqual(
            self.learner_params(OWODTSVM, settings, 1),
            dict(ODTSVMLearner().params, C=2.5, clustering_split=False, max_clusters=4,
                 axis_parallel_tests=False, mdl_penalty=False, min_samples_leaf=3,
                 confidence=0.1, max_depth=None, random_state=None))

    def test_hedge_ensemble_version_1(self):
        settings = dict(n_estimators=4, sample_percent=70, beta=0.5, replicable=True,
                        seed=9)
        self.assertEqual(self.learner_params(OWHedgeEnsemble, settings, 1),
                         # trees trained at once: all cores, for any older version
                         dict(n_estimators=4, sample_fraction=0.7, beta=0.5, random_state=9,
                              n_jobs=os.cpu_count() or 1))
