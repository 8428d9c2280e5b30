"""Widget robustness: inputs and settings changing while a fit runs, workflows saved by
other versions, a viewer fed a model and data of different domains, and quick
cancellation of a large fit.

Every wait is on a state or a signal, with a timeout only against a hang
(``HANG_GUARD_MS``): the tests pass on a machine of any speed and load.  That a cancelled
fit stopped early is shown by where it stopped (its progress callback raised within the
search), not by a clock."""
import concurrent.futures
from functools import partial
import time
import traceback
import unittest

import numpy as np
import pytest
from AnyQt.QtCore import QTimer
from AnyQt.QtTest import QTest
from threadpoolctl import threadpool_info

from Orange.classification import TreeLearner
from Orange.data import Table
from Orange.preprocess import Normalize
from Orange.widgets.settings import Context
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliquedata import OWObliqueData
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM
from orangecontrib.oblique.widgets.utils import FitInterrupted

from tests.helpers.widget_helpers import (HANG_GUARD_MS, IrisTreeViewer, LongFitWidget,
                            NoUncaughtExceptions, PatientWaits, as_table,
                            random_labels_table)

#: Longest wait (ms) for a short fit: a guard against a hang only.
FIT_TIMEOUT = HANG_GUARD_MS


def large_table(n_rows=20000, n_features=20):
    """An oblique concept with noise: OC1 takes tens of seconds on it."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, n_features))
    y = (X[:, :3].sum(axis=1) + 0.5 * rng.normal(size=n_rows) > 0).astype(int)
    return as_table(X, y)


def blas_thread_counts():
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


class SentModels(LongFitWidget, NoUncaughtExceptions):
    """A widget with a long fit (:class:`LongFitWidget`) whose every sent model is
    recorded in ``sent`` (``get_output`` keeps only the last one); starting and
    cancelling its fits."""

    def setUp(self):
        super().setUp()
        self.sent = self.record_sent_models(self.widget)

    def record_sent_models(self, widget):
        sent = []
        send = widget.Outputs.model.send

        def recording_send(value, *args, **kwargs):
            sent.append(value)
            return send(value, *args, **kwargs)

        widget.Outputs.model.send = recording_send
        return sent

    def wait_for_stop(self, state):
        """Wait until the cancelled fit of ``state`` has stopped; it must have stopped by
        its own cancellation (not run to its end)."""
        self.assertTrue(state.is_interruption_requested())
        concurrent.futures.wait([state.future], timeout=HANG_GUARD_MS / 1000)
        self.assertTrue(state.future.done(), "the cancelled fit did not stop")
        self.assertIsInstance(state.future.exception(), FitInterrupted)

    def start_fit(self, widget, data, progress=10):
        """Send ``data`` and wait until its fit is past preprocessing (``progress`` %)."""
        self.send_signal(widget.Inputs.data, data, widget=widget)
        state = widget.task
        self.assertIsNotNone(state)
        self.process_events(until=lambda: widget.progressBarValue >= progress
                            or state.future.done())
        self.assertFalse(state.future.done(), "the fit was too short to test this")
        return state


class TestLargeFitCancellation(SentModels, base.WidgetTest):
    """OC1 on 20,000 × 20 rows: the canvas stays responsive and the fit stops soon after
    a new input (or none) arrives."""
    widget_class = OWOC1
    long_fit_data = staticmethod(large_table)

    def test_responsive_while_fitting_and_removing_data_cancels(self):
        w = self.widget
        state = self.start_fit(w, self.big)
        ticks = []
        timer = QTimer(interval=20, timeout=lambda: ticks.append(time.perf_counter()))
        timer.start()
        self.process_events(until=lambda: len(ticks) >= 15 or state.future.done())
        timer.stop()
        # the event loop ran while the fit ran: the timer ticked 15 times before its end
        self.assertFalse(state.future.done(), "the fit was too short to test this")
        self.assertGreaterEqual(len(ticks), 15)
        self.send_signal(w.Inputs.data, None)
        self.assertIsNone(w.task)
        self.assertFalse(w.isInvalidated())
        self.wait_for_stop(state)
        # it stopped within the search for the root's hyperplane (OC1 checks before every
        # restart), not only between nodes
        exception = state.future.exception()
        functions = [frame.name for frame in traceback.extract_tb(exception.__traceback__)]
        self.assertIn("heartbeat", functions)
        QTest.qWait(50)  # a result of the cancelled fit would be delivered now
        self.assertEqual(self.sent, [None])
        self.assertIsNone(self.get_output(w.Outputs.model))

    def test_new_data_cancels_and_is_fitted(self):
        w = self.widget
        blas_threads = blas_thread_counts()
        state = self.start_fit(w, self.big)
        # small matrices at every node: BLAS runs in one thread while the fit runs
        self.assertEqual(set(blas_thread_counts()), {1})
        self.send_signal(w.Inputs.data, self.iris)
        self.wait_for_stop(state)
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        QTest.qWait(50)
        model = self.get_output(w.Outputs.model)
        self.assertIs(model.instances, self.iris)
        self.assertEqual(self.sent, [model])
        self.assertEqual(blas_thread_counts(), blas_threads)  # restored

    def test_closing_cancels(self):
        state = self.start_fit(self.widget, self.big)
        self.widget.onDeleteWidget()  # waits for the fit to stop
        self.assertTrue(state.future.done())
        self.wait_for_stop(state)
        self.assertEqual(self.sent, [])


class MidFitChecks(SentModels):
    """Inputs and settings that change while a fit runs, for every learner widget."""

    def change_setting(self):
        """Change a setting through its control; returns a check of a fitted model."""
        raise NotImplementedError

    def test_data_replaced_by_hostile_data(self):
        """Empty data replace the data being fitted: an error, no model, ever."""
        w = self.widget
        state = self.start_fit(w, self.big)
        self.send_signal(w.Inputs.data, self.iris[:0])
        self.assertTrue(w.Error.data_error.is_shown())
        self.wait_for_stop(state)
        QTest.qWait(50)
        self.assertTrue(w.Error.data_error.is_shown())
        self.assertFalse(w.Error.fitting_failed.is_shown())
        self.assertEqual(self.sent, [None])
        self.assertIsNone(self.get_output(w.Outputs.model))

    def test_settings_and_preprocessor_change_mid_fit(self):
        """Two setting changes and a preprocessor during a fit: one model, of them all."""
        w = self.widget
        state = self.start_fit(w, self.big)
        self.send_signal(w.Inputs.data, self.iris)
        fitted_with_new_setting = self.change_setting()
        self.send_signal(w.Inputs.preprocessor, Normalize())
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        self.wait_for_stop(state)
        QTest.qWait(50)
        model = self.get_output(w.Outputs.model)
        self.assertEqual(self.sent, [model])
        self.assertIs(model.instances, self.iris)
        self.assertTrue(fitted_with_new_setting(model))
        # the preprocessor was applied: the model's attributes are normalized
        self.assertTrue(all(attr.compute_value is not None
                            for attr in model.domain.attributes))
        self.assertIs(self.get_output(w.Outputs.learner), w.learner)

    def test_setting_changed_without_auto_apply(self):
        """Without auto apply the running fit goes on, a warning says the settings are
        not applied, and Apply cancels it and fits with them."""
        w = self.widget
        w.auto_apply = False
        state = self.start_fit(w, self.big)  # new data are fitted even so
        fitted_with_new_setting = self.change_setting()
        self.assertIs(w.task, state)
        self.assertFalse(state.is_interruption_requested())
        self.assertTrue(w.Warning.outdated_learner.is_shown())
        w.apply_button.button.click()
        self.wait_for_stop(state)
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        QTest.qWait(50)
        model = self.get_output(w.Outputs.model)
        self.assertEqual(self.sent, [model])
        self.assertIs(model.instances, self.big)
        self.assertTrue(fitted_with_new_setting(model))
        self.assertFalse(w.Warning.outdated_learner.is_shown())


class TestOC1MidFit(MidFitChecks, base.WidgetTest):
    widget_class = OWOC1
    long_fit_data = staticmethod(partial(large_table, 6000, 10))

    def change_setting(self):
        combo = self.widget.controls.split_mode_index
        combo.setCurrentIndex(1)
        combo.activated.emit(1)
        self.widget.controls.n_restarts.setValue(3)
        return lambda model: (model.estimator.split_mode == "axis_parallel"
                              and model.estimator.n_restarts == 3)


class TestGeometricTreeMidFit(MidFitChecks, base.WidgetTest):
    widget_class = OWGeometricTree
    long_fit_data = staticmethod(random_labels_table)  # random labels: thousands of nodes

    def change_setting(self):
        self.widget.controls.max_depth.setValue(2)
        self.widget.controls.standardize.click()
        return lambda model: (model.estimator.max_depth == 2
                              and not model.estimator.standardize and model.depth() <= 2)


class TestODTSVMMidFit(MidFitChecks, base.WidgetTest):
    widget_class = OWODTSVM
    long_fit_data = staticmethod(partial(large_table, 4000, 8))

    def change_setting(self):
        self.widget.controls.clustering_split.click()
        self.widget.controls.min_samples_leaf.setValue(5)
        return lambda model: (not model.estimator.clustering_split
                              and model.estimator.min_samples_leaf == 5)


@pytest.mark.slow  # widget concurrency, seconds a test
class TestHedgeEnsembleMidFit(MidFitChecks, base.WidgetTest):
    widget_class = OWHedgeEnsemble
    # ten GDT trees: each takes a second or more
    long_fit_data = staticmethod(random_labels_table)

    def setUp(self):
        super().setUp()
        self.send_signal(self.widget.Inputs.learner, GeometricTreeLearner())
        self.sent.clear()

    def change_setting(self):
        self.widget.controls.n_estimators.setValue(2)
        return lambda model: len(model.estimator.estimators_) == 2

    def test_base_learner_replaced_mid_fit(self):
        w = self.widget
        state = self.start_fit(w, self.big, progress=11)
        self.send_signal(w.Inputs.learner, OC1Learner(n_restarts=2))
        self.send_signal(w.Inputs.data, self.iris)
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        self.wait_for_stop(state)
        QTest.qWait(50)
        model = self.get_output(w.Outputs.model)
        self.assertEqual(self.sent, [model])
        self.assertEqual(type(model.estimator.estimators_[0]).__name__, "OC1Classifier")


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


class TestViewerDomainMismatch(IrisTreeViewer, NoUncaughtExceptions, base.WidgetTest):
    """A model and Data of another domain arrive at the viewer together."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table("heart_disease")

    def assert_shows_model(self, model):
        w = self.widget
        self.assertEqual(len(w.items), w.view_tree.node_count)
        self.assertIs(w.model, model)
        self.assertTrue(w.rules_text())

    def test_model_and_data_of_other_domains_together(self):
        w = self.widget
        self.send_signals([(w.Inputs.tree, self.model), (w.Inputs.data, self.heart)])
        self.assertTrue(w.Error.data_mismatch.is_shown())
        self.assertIn("does not match the model", str(w.Error.data_mismatch))
        self.assertIn("petal length", str(w.Error.data_mismatch))
        self.assert_shows_model(self.model)
        # the counts and selections are of the training data
        self.assertIs(w.data, self.iris)
        self.assertIn("training data", w.info_label.text())
        w.select_nodes({0})
        self.assertEqual(len(self.get_output(w.Outputs.selected_data)), len(self.iris))
        # matching data mend it; a model of the other domain breaks it again
        self.send_signal(w.Inputs.data, self.iris[:30])
        self.assertFalse(w.Error.active)
        self.assertEqual(w.node_n(0), 30)
        heart_tree = TreeLearner()(self.heart)
        heart_tree.instances = self.heart
        self.send_signals([(w.Inputs.tree, heart_tree), (w.Inputs.data, self.iris)])
        self.assertTrue(w.Error.data_mismatch.is_shown())
        self.assert_shows_model(heart_tree)
        # no model: no message about data
        self.send_signal(w.Inputs.tree, None)
        self.assertFalse(w.Error.active)
        self.assertEqual(w.items, {})

    def test_model_without_training_rows_and_other_data(self):
        w = self.widget
        model = OC1Learner(n_restarts=2, random_state=0)(self.iris)
        model.instances = None  # e.g. a model loaded from a file
        self.send_signals([(w.Inputs.tree, model), (w.Inputs.data, self.heart)])
        self.assertTrue(w.Error.data_mismatch.is_shown())
        self.assert_shows_model(model)
        self.assertIsNone(w.data)
        self.assertEqual(w.node_n(0), len(self.iris))  # the model's own counts
        w.select_nodes({0})
        self.assertIsNone(self.get_output(w.Outputs.selected_data))


if __name__ == "__main__":
    unittest.main()
