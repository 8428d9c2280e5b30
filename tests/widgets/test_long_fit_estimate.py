"""A learner widget whose fit is estimated to take long says so before and while it fits
(``Information.long_fit``), its progress moves during the long searches of the first
nodes, and a new input stops it."""
import concurrent.futures

import numpy as np
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.data import Table
from Orange.widgets.tests import base

from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.utils import FitInterrupted, duration_text

from tests.helpers.widget_helpers import HANG_GUARD_MS, as_table


def wide_table(n_rows=20000, n_features=60):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, n_features))
    y = (X[:, :3].sum(axis=1) + 0.5 * rng.normal(size=n_rows) > 0).astype(int)
    return as_table(X, y)


class TestOC1LongFitEstimate(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWOC1)

    def tearDown(self):
        self.widget.cancel()
        super().tearDown()

    def test_large_table_shows_the_estimate_before_and_during_the_fit(self):
        w = self.widget
        self.send_signal(w.Inputs.data, wide_table())
        state = w.task
        self.assertIsNotNone(state)
        self.assertTrue(w.Information.long_fit.is_shown())
        text = str(w.Information.long_fit)
        self.assertIn("20,000 rows × 60 columns", text)
        self.assertRegex(text, r"about \d+ (minutes|hours)")
        # the progress moves while the root's hyperplane is searched
        self.process_events(until=lambda: w.progressBarValue > 0 or state.future.done())
        self.assertFalse(state.future.done(), "the fit was too short to test this")
        self.assertGreater(w.progressBarValue, 0)
        self.assertTrue(w.Information.long_fit.is_shown())
        # new data stop it; the message goes with it
        self.send_signal(w.Inputs.data, Table("iris"))
        concurrent.futures.wait([state.future], timeout=HANG_GUARD_MS / 1000)
        self.assertTrue(state.future.done(), "the cancelled fit did not stop")
        self.assertIsInstance(state.future.exception(), FitInterrupted)
        self.assertFalse(w.Information.long_fit.is_shown())

    def test_fewer_restarts_shorten_the_estimate(self):
        w = self.widget
        self.send_signal(w.Inputs.data, wide_table())
        long = w.estimated_fit_seconds()[0]
        w.controls.n_restarts.setValue(2)
        self.assertAlmostEqual(w.estimated_fit_seconds()[0], long / 10)

    def test_small_table_shows_no_estimate(self):
        w = self.widget
        self.send_signal(w.Inputs.data, Table("iris"))
        self.assertFalse(w.Information.long_fit.is_shown())
        self.assertLess(w.estimated_fit_seconds()[0], w.LONG_FIT_SECONDS)
        self.send_signal(w.Inputs.data, None)
        self.assertIsNone(w.estimated_fit_seconds())


def test_duration_text():
    assert duration_text(20) == "about 20 seconds"
    assert duration_text(150) == "about 2 minutes"
    assert duration_text(3600) == "about 1 hour"
    assert duration_text(5 * 86400) == "about 5 days"
