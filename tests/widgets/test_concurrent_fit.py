"""No frozen canvas: the learner widgets fit in a background thread, a new input or a new
setting cancels the running fit, and only the model of the latest inputs is sent.

Every wait is on a state or a signal (a fit's future done, the progress bar past a value,
the widget's outputs valid), with a timeout only against a hang (``HANG_GUARD_MS``): the
tests pass on a machine of any speed and load.  That a cancelled fit stopped *early* is
shown by where it stopped (its progress callback raised within the growing tree), not by
a clock."""
import concurrent.futures
import traceback
import unittest
from unittest.mock import Mock

import numpy as np
import pytest
from AnyQt.QtCore import QTimer
from AnyQt.QtTest import QTest

# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner
from orangecontrib.oblique.core.parallel import run_fits
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM
from orangecontrib.oblique.widgets.utils import FitInterrupted

from tests.helpers.widget_helpers import (HANG_GUARD_MS, LongFitWidget, checkerboard_table,
                                          random_labels_table)


#: widget concurrency: fits of seconds, cancelled and restarted (the slow tier)
pytestmark = pytest.mark.slow


class ConcurrentFitChecks(LongFitWidget):
    """The checks, run for every learner widget; a subclass names the widget, data whose
    fit takes seconds, and a setting change that makes that fit quick."""
    #: where a cancelled fit stops: within the growing tree
    INTERRUPTED_IN = "grow_tree"

    def make_fit_quick(self):
        """Change a setting through its control (which applies it) so the fit is short."""
        raise NotImplementedError

    def quick_fit_done(self, model):
        """Whether ``model`` was fitted with the setting of :meth:`make_fit_quick`."""
        raise NotImplementedError

    def setUp(self):
        super().setUp()
        # get_output would wait for a running fit: record what the widget sends instead
        outputs = self.widget.Outputs
        self.sent = Mock(side_effect=outputs.model.send)
        self.sent_learner = Mock(side_effect=outputs.learner.send)
        outputs.model.send, outputs.learner.send = self.sent, self.sent_learner

    def sent_models(self):
        return [call.args[0] for call in self.sent.call_args_list]

    def last_learner(self):
        return self.sent_learner.call_args.args[0]

    def start_long_fit(self):
        self.send_signal(self.widget.Inputs.data, self.big)
        state = self.widget.task
        # sending the data did not wait for the fit: it runs when send_signal returns
        self.assertIsNotNone(state, "no fit is running in the background")
        self.assertFalse(state.future.done(), "sending data waited for the fit")
        # Orange's learner reports 10 % when preprocessing ends; the next progress call
        # (where a cancelled fit stops) is then the core's, while the tree grows
        self.process_events(until=lambda: self.widget.progressBarValue >= 10
                            or state.future.done())
        self.assertFalse(state.future.done(), "the fit was too short to test this")
        return state

    def assert_interrupted(self, state):
        self.assertTrue(state.is_interruption_requested())
        concurrent.futures.wait([state.future], timeout=HANG_GUARD_MS / 1000)
        self.assertTrue(state.future.done(), "the cancelled fit did not stop")
        # the progress callback raised within the core's fit: the fit was abandoned while
        # the tree grew, not run to its end
        exception = state.future.exception()
        self.assertIsInstance(exception, FitInterrupted)
        functions = [frame.name for frame in traceback.extract_tb(exception.__traceback__)]
        expected = (self.INTERRUPTED_IN if isinstance(self.INTERRUPTED_IN, tuple)
                    else (self.INTERRUPTED_IN,))
        self.assertTrue(set(expected) & set(functions), functions)

    def test_fit_runs_in_background_with_progress(self):
        w = self.widget
        state = self.start_long_fit()
        self.assertTrue(w.isInvalidated())  # the canvas holds back downstream widgets
        # the learner is out; only the outputs of the fit are pending: the model, its
        # feature importances (and an ensemble's member tree)
        self.assertIs(self.signal_manager.outputs[(w, w.Outputs.learner.name)], w.learner)
        pending = {name for (widget, name), value in self.signal_manager.outputs.items()
                   if widget is w and value in self.signal_manager.invalidated_outputs(w)}
        fitted = {w.Outputs.model.name, w.Outputs.feature_importances.name}
        if hasattr(w.Outputs, "member_tree"):
            fitted.add(w.Outputs.member_tree.name)
        self.assertEqual(pending, fitted)
        self.assertEqual(self.sent.call_count, 0)
        # the GUI thread is free: timers fire and the progress bar moves while fitting
        ticks = []
        timer = QTimer(interval=20, timeout=lambda: ticks.append(w.progressBarValue))
        timer.start()
        # the first progress past preprocessing comes when the first tree is grown (with
        # two jobs: after the worker processes start), seconds on a busy machine
        self.process_events(until=lambda: len(ticks) >= 5 and ticks[-1] > 10.5
                            or state.future.done())
        timer.stop()
        self.assertFalse(state.future.done(), "the fit was too short to test this")
        self.assertGreater(len(ticks), 3)
        self.assertGreater(ticks[-1], 10.5)  # Orange reports 10 when preprocessing ends
        self.assertLess(ticks[-1], 100)
        # removing the data cancels the fit; no model is sent
        self.send_signal(w.Inputs.data, None)
        self.assertIsNone(w.task)
        self.assert_interrupted(state)
        QTest.qWait(50)
        self.assertFalse(w.isInvalidated())
        self.assertEqual(self.sent_models(), [None])
        self.assertIsNone(self.get_output(w.Outputs.model))

    def test_new_data_cancels_running_fit(self):
        w = self.widget
        state = self.start_long_fit()
        self.send_signal(w.Inputs.data, self.iris)
        self.assertIsNot(w.task, state)
        self.assert_interrupted(state)
        self.wait_until_finished()
        QTest.qWait(50)  # any queued signal of the cancelled fit would be handled now
        model = self.get_output(w.Outputs.model)
        self.assertIs(model.instances, self.iris)
        self.assertIs(model.original_data, self.iris)
        self.assertEqual(self.sent_models(), [model])
        self.assertFalse(w.isInvalidated())

    def test_setting_change_cancels_running_fit(self):
        w = self.widget
        state = self.start_long_fit()
        learner = self.widget.learner
        self.make_fit_quick()
        self.assertIsNot(self.last_learner(), learner)  # sent at once
        self.assertIsNot(w.task, state)
        self.assert_interrupted(state)
        self.wait_until_finished()
        QTest.qWait(50)
        model = self.get_output(w.Outputs.model)
        self.assertIs(model.instances, self.big)
        self.assertIs(model.original_data, self.big)
        self.assertTrue(self.quick_fit_done(model))
        self.assertEqual(self.sent_models(), [model])

    def test_several_changes_send_only_the_last_model(self):
        w = self.widget
        states = [self.start_long_fit()]
        for data in (self.iris[:100], self.big, self.iris):
            self.send_signal(w.Inputs.data, data)
            states.append(w.task)
        for state in states[:-1]:
            self.assertTrue(state.is_interruption_requested())
        self.wait_until_finished()
        concurrent.futures.wait([s.future for s in states], timeout=HANG_GUARD_MS / 1000)
        QTest.qWait(50)
        model = self.get_output(w.Outputs.model)
        self.assertIs(model.instances, self.iris)
        self.assertEqual(self.sent_models(), [model])

    def test_closing_the_widget_stops_the_fit(self):
        state = self.start_long_fit()
        self.widget.onDeleteWidget()
        # closing waited for the fit, which stopped at its cancellation (within the tree)
        self.assertTrue(state.future.done())
        self.assert_interrupted(state)
        self.assertEqual(self.sent.call_count, 0)

    def test_fitting_error_in_background(self):
        w = self.widget
        data = self.iris.copy()
        with data.unlocked(data.X):
            data.X[:] = np.nan  # every feature is removed by preprocessing
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished()
        self.assertTrue(w.Error.fitting_failed.is_shown())
        self.assertIn("no features", str(w.Error.fitting_failed))
        self.assertIsNone(self.get_output(w.Outputs.model))
        self.send_signal(w.Inputs.data, self.iris)
        self.wait_until_finished()
        self.assertFalse(w.Error.fitting_failed.is_shown())
        self.assertIsNotNone(self.get_output(w.Outputs.model))


def large_checkerboard_table():
    """20,000 rows of the rotated checkerboard: OC1 with its 20 restarts takes about 3 s
    (3,000 rows: 0.35 s since its node search counts only the classes present)."""
    return checkerboard_table(20_000)


class TestOC1ConcurrentFit(ConcurrentFitChecks, base.WidgetTest):
    widget_class = OWOC1
    long_fit_data = staticmethod(large_checkerboard_table)

    def make_fit_quick(self):
        combo = self.widget.controls.split_mode_index
        combo.setCurrentIndex(1)
        combo.activated.emit(1)

    def quick_fit_done(self, model):
        return model.estimator.split_mode == "axis_parallel"


class TestGeometricTreeConcurrentFit(ConcurrentFitChecks, base.WidgetTest):
    widget_class = OWGeometricTree
    # random labels: GDT grows a tree of thousands of nodes, which takes seconds
    long_fit_data = staticmethod(random_labels_table)

    def make_fit_quick(self):
        self.widget.controls.max_depth.setValue(2)

    def quick_fit_done(self, model):
        return model.estimator.max_depth == 2 and model.depth() <= 2


class TestODTSVMConcurrentFit(ConcurrentFitChecks, base.WidgetTest):
    widget_class = OWODTSVM
    # random labels without the MDL penalty: a tree of about 2,000 nodes, each with its
    # SVMs and X-means (2-3 s; with J48's costs ODT-SVM rightly stops at 4 nodes on random
    # labels, and the checkerboard of the OC1 test takes it under half a second)
    long_fit_data = staticmethod(random_labels_table)

    def setUp(self):
        super().setUp()
        self.widget.controls.mdl_penalty.setChecked(False)
        self.assertFalse(self.widget.mdl_penalty)
        self.sent.reset_mock()  # what the change sent before any data
        self.sent_learner.reset_mock()

    def make_fit_quick(self):
        self.widget.controls.clustering_split.click()

    def quick_fit_done(self, model):
        return not model.estimator.clustering_split


class TestHedgeEnsembleConcurrentFit(ConcurrentFitChecks, base.WidgetTest):
    """Trees trained one at a time: the ensemble reports progress member by member and is
    cancelled within the growing tree of the member being fitted."""
    widget_class = OWHedgeEnsemble
    # ten GDT trees: each takes a second or more
    long_fit_data = staticmethod(random_labels_table)
    N_JOBS = 1
    #: a member's progress report, within its tree or between two members' fits
    INTERRUPTED_IN = ("grow_tree", "run_fits")

    def setUp(self):
        super().setUp()
        self.widget.controls.n_jobs.setValue(self.N_JOBS)
        self.send_signal(self.widget.Inputs.learner, GeometricTreeLearner())
        self.sent.reset_mock()  # the (empty) model sent on connecting the base learner

    def make_fit_quick(self):
        self.widget.controls.sample_percent.setValue(10)

    def quick_fit_done(self, model):
        return (model.estimator.sample_fraction == 0.1
                and all(len(rows) == 600 for rows in model.estimator.subsets_))


@pytest.mark.slow
class TestHedgeEnsembleParallelConcurrentFit(TestHedgeEnsembleConcurrentFit):
    """Trees trained two at a time (worker processes): progress after each member, and a
    cancel stops the fits left from the loop that collects them (the workers' fits are
    abandoned, not waited for).

    The two worker processes are started (and known warm) before every test: a fit hands
    its members to them when they save more than their hand-over
    (:func:`~orangecontrib.oblique.core.parallel.jobs_for`), as for a second fit in
    Orange; a cold pool's start-up would keep these fits in one process."""
    N_JOBS = 2
    INTERRUPTED_IN = "run_fits"

    def setUp(self):
        run_fits([int] * self.N_JOBS, n_jobs=self.N_JOBS)  # joblib's worker processes
        super().setUp()

    def test_members_fitted_by_two_worker_processes(self):
        self.send_signal(self.widget.Inputs.data, random_labels_table(3000))
        self.wait_until_finished()
        model = self.get_output(self.widget.Outputs.model)
        self.assertEqual(model.estimator.n_jobs_used_, 2)
        self.assertEqual(len(model.estimator.estimators_), 10)


if __name__ == "__main__":
    unittest.main()
