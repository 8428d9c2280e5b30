"""Inputs and settings that change while a learner widget fits, and quick cancellation of
a large fit (the background fit itself: ``test_concurrent_fit.py``).

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

from Orange.preprocess import Normalize
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM
from orangecontrib.oblique.widgets.utils import FitInterrupted

from tests.helpers.widget_helpers import (HANG_GUARD_MS, LongFitWidget, NoUncaughtExceptions,
                                          as_table, random_labels_table)

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

    def setUp(self):
        super().setUp()
        # splits of at most 3 attributes: a node fits its SVM once per attribute removed,
        # a fit long enough to change things during it (the dense default fits this
        # oblique concept with one SVM, in a fraction of a second)
        self.widget.controls.limit_terms.setChecked(True)
        self.widget.controls.max_terms.setValue(3)
        self.sent.clear()

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


if __name__ == "__main__":
    unittest.main()
