"""Workflows saved by other versions: the settings of the previous version of each learner
widget (non-default values) migrate to controls that give the learner the same
parameters; settings another version may have stored (values of the wrong type or out of
range, unknown keys, contexts of another domain) load as valid values, and the widget
works."""
import os

from Orange.data import Table
from Orange.widgets.settings import Context
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner, ODTSVMLearner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliquedata import OWObliqueData
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from tests.helpers.widget_helpers import HANG_GUARD_MS, NoUncaughtExceptions, PatientWaits

#: Longest wait (ms) for a short fit: a guard against a hang only.
FIT_TIMEOUT = HANG_GUARD_MS


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

    def test_version_3_workflows_keep_their_attributes_per_split(self):
        """Version 3 limited OC1's and ODT-SVM's splits to 5 attributes by default; a
        workflow saved then keeps its 5, whatever the default of today."""
        stored = dict(limit_terms=True, max_terms=5)
        for widget_class in (OWOC1, OWODTSVM):
            with self.subTest(widget_class.__name__):
                self.assertEqual(self.learner_params(widget_class, stored, 3)["max_terms"], 5)

    def test_hedge_ensemble_version_1(self):
        settings = dict(n_estimators=4, sample_percent=70, beta=0.5, replicable=True,
                        seed=9)
        self.assertEqual(self.learner_params(OWHedgeEnsemble, settings, 1),
                         # trees trained at once: all cores, for any older version
                         dict(n_estimators=4, sample_fraction=0.7, beta=0.5, random_state=9,
                              n_jobs=os.cpu_count() or 1))


# ----- workflows saved by other versions -----
#: Settings an older or newer version may have stored: values of the wrong type or out
#: of range, keys this version does not know, an older settings version and a context
#: (of another domain) although the widget has no context settings; the expected values.
OLD_SETTINGS = {
    OWGeometricTree: (
        {"__version__": 0, "epsilon1": 7.0, "max_depth": None, "min_samples_split": 1,
         "standardize": "yes", "removed_setting": 3},
        {"epsilon1": 0.5, "max_depth": 20, "min_samples_split": 2, "standardize": True,
         "prune": False}),
    OWOC1: (
        {"__version__": 0, "impurity_index": 17, "split_mode_index": -1,
         "coefficient_order_index": "best_first", "n_restarts": 0, "max_depth": 1e9,
         "se_rule": float("nan"), "old_option": [1, 2]},
        {"impurity_index": 0, "split_mode_index": 0, "coefficient_order_index": 0,
         "n_restarts": 1, "max_depth": 200, "se_rule": 0.0, "n_random_jumps": 5}),
    OWODTSVM: (
        {"C": -1.0, "max_clusters": 1, "confidence": 3.0, "min_samples_leaf": "2",
         "prune": 1},
        {"C": 0.001, "max_clusters": 2, "confidence": 1.0, "min_samples_leaf": 2,
         "prune": True, "clustering_split": True}),
    OWHedgeEnsemble: (
        {"n_estimators": 0, "sample_percent": 500, "beta": 2.0, "seed": -5},
        {"n_estimators": 1, "sample_percent": 100, "beta": 0.99, "seed": 0,
         "replicable": True}),
}


class TestOldSettings(PatientWaits, NoUncaughtExceptions, base.WidgetTest):
    """Each widget is created from settings as another version would have stored them,
    loads with valid values (defaults for the missing and unusable ones) and works."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iris = Table("iris")

    def setUp(self):
        super().setUp()
        self.widget = self.create_widget(OWObliqueTreeViewer)  # for WidgetTest's own checks

    def foreign_context(self):
        heart = Table("heart_disease")
        return Context(attributes={v.name: 2 for v in heart.domain.attributes},
                       metas={}, values={"attr": ("chest pain", 101)})

    def test_learner_widgets(self):
        for widget_class, (stored, expected) in OLD_SETTINGS.items():
            with self.subTest(widget_class.name):
                stored = dict(stored, context_settings=[self.foreign_context()])
                w = self.create_widget(widget_class, stored_settings=stored)
                for name, value in expected.items():
                    self.assertEqual(getattr(w, name), value, name)
                    self.assertIs(type(getattr(w, name)), type(value), name)
                    control = getattr(w.controls, name)
                    shown = control.currentIndex() if hasattr(control, "currentIndex") \
                        else control.isChecked() if hasattr(control, "isChecked") \
                        else control.value()
                    self.assertEqual(shown, value, f"{name} in its control")
                self.assertFalse(hasattr(w, "removed_setting") or hasattr(w, "old_option"))
                learner = self.get_output(w.Outputs.learner, widget=w)
                self.assertIsNotNone(learner)
                self.send_signal(w.Inputs.data, self.iris, widget=w)
                self.wait_until_finished(w, timeout=FIT_TIMEOUT)
                self.assertFalse(w.Error.active, [str(m) for m in w.Error.active])
                self.assertIsNotNone(self.get_output(w.Outputs.model, widget=w))
                # and it saves what it shows
                packed = w.settingsHandler.pack_data(w)
                for name, value in expected.items():
                    self.assertEqual(packed[name], value)

    def test_learner_widgets_with_missing_keys(self):
        for widget_class in OLD_SETTINGS:
            with self.subTest(widget_class.name):
                w = self.create_widget(widget_class,
                                       stored_settings={"__version__": 0, "auto_apply": True})
                defaults = self.create_widget(widget_class)
                names = set(w.settingsHandler.provider.settings) - {
                    "savedWidgetGeometry", "controlAreaVisible"}
                # a workflow saved before "Attributes per split" existed keeps dense splits
                migrated = {"limit_terms": False} if widget_class.settings_version >= 2 \
                    and hasattr(widget_class, "limit_terms") else {}
                if widget_class is OWGeometricTree:  # the core's size rules, as before
                    migrated.update(min_samples_leaf=1, min_samples_split=2)
                for name in names:
                    self.assertEqual(getattr(w, name),
                                     migrated.get(name, getattr(defaults, name)), name)
                self.send_signal(w.Inputs.data, self.iris, widget=w)
                self.wait_until_finished(w, timeout=FIT_TIMEOUT)
                self.assertIsNotNone(self.get_output(w.Outputs.model, widget=w))

    def test_oblique_data(self):
        w = self.create_widget(OWObliqueData, stored_settings={
            "__version__": 0, "set_index": 99, "n_rows": 0, "angles": [30, 45],
            "noise_percent": None, "seed": -1, "unknown": 1,
            "context_settings": [self.foreign_context()]})
        self.assertEqual((w.set_index, w.n_rows, w.angles, w.noise_percent, w.seed),
                         (0, 10, {}, 0, 0))
        data = self.get_output(w.Outputs.data, widget=w)
        self.assertEqual(len(data), 10)
        self.assertFalse(w.Error.active)

    def test_viewer(self):
        iris = self.iris
        model = OC1Learner(n_restarts=2, random_state=0)(iris)
        model.instances = iris
        stored = {"__version__": 0, "max_terms": 0, "node_width": 9999, "color_by": 4,
                  "limit_depth": "no", "selected_paths": [[1], "garbage", [5, 5, 5], [-1]],
                  "collapsed_paths": None, "tree_fingerprint": "0123456789abcdef",
                  "context_settings": [self.foreign_context()]}
        w = self.create_widget(OWObliqueTreeViewer, stored_settings=stored)
        self.assertEqual((w.max_terms, w.node_width, w.color_by, w.limit_depth,
                          w.collapsed_paths), (1, 420, 0, False, []))
        # the stored selection is of another tree (fingerprint): it is not applied
        self.send_signal(w.Inputs.tree, model, widget=w)
        self.assertEqual(w.selected, set())
        self.assertIsNone(self.get_output(w.Outputs.selected_data, widget=w))
        # the same tree, with paths partly unusable: the usable one is restored
        stored.update(tree_fingerprint=w.view_tree.fingerprint())
        w = self.create_widget(OWObliqueTreeViewer, stored_settings=stored)
        self.send_signal(w.Inputs.tree, model, widget=w)
        self.assertEqual(w.selected, {w.view_tree.node_at((1,))})
        selected = self.get_output(w.Outputs.selected_data, widget=w)
        self.assertEqual(len(selected), w.node_n(w.view_tree.node_at((1,))))
