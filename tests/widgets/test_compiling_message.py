"""The learner widgets say, while a learner's first fit of the session runs, that it loads
(or, once per installation, compiles) the learner's kernels, in words that fit the
widget, with a progress bar that moves while the kernels are prepared; later fits say
nothing."""
from Orange.data import Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.widgets import utils
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from tests.helpers.widget_helpers import PatientWaits

WIDGETS = (OWGeometricTree, OWOC1, OWODTSVM, OWHedgeEnsemble, OWObliqueForest)


class TestCompilingMessage(PatientWaits, base.WidgetTest):
    def setUp(self):
        self.iris = Table("iris")
        self.fitted_before = set(utils._LEARNERS_FITTED)
        utils._LEARNERS_FITTED.clear()

    def tearDown(self):
        utils._LEARNERS_FITTED.clear()
        utils._LEARNERS_FITTED.update(self.fitted_before)

    def fitted(self, widget):
        return self.get_output(widget.Outputs.model, widget=widget)

    def test_shown_during_the_first_fit_of_a_learner_only(self):
        for widget_class in WIDGETS:
            with self.subTest(widget_class.__name__):
                widget = self.create_widget(widget_class)
                self.send_signal(widget.Inputs.data, self.iris)
                self.assertTrue(widget.Information.compiling.is_shown())
                self.assertIsNotNone(self.fitted(widget))
                self.assertFalse(widget.Information.compiling.is_shown())
                # a second widget of the same learner: its kernels are ready
                other = self.create_widget(widget_class)
                self.send_signal(other.Inputs.data, self.iris, widget=other)
                self.assertFalse(other.Information.compiling.is_shown())
                self.assertIsNotNone(self.fitted(other))

    def test_cleared_when_the_data_goes(self):
        widget = self.create_widget(OWOC1)
        self.send_signal(widget.Inputs.data, self.iris)
        self.assertTrue(widget.Information.compiling.is_shown())
        self.send_signal(widget.Inputs.data, None)
        self.assertFalse(widget.Information.compiling.is_shown())

    def test_the_message_fits_the_widget(self):
        """The message is one short line (the issue: cut to "The fir…")."""
        widget = self.create_widget(OWGeometricTree)
        self.send_signal(widget.Inputs.data, self.iris)
        text = widget.Information.compiling.formatted
        self.assertLessEqual(len(text), 45)
        self.assertIn("kernels", text)
        self.assertIsNotNone(self.fitted(widget))

    def test_the_first_fit_prepares_the_kernels_step_by_step_with_moving_progress(self):
        """The status line says that the kernels are compiled while the progress bar moves
        through the warm-up fits, then that the widget fits; a later fit goes straight to
        its own progress."""
        for widget_class in (OWGeometricTree, OWODTSVM):
            with self.subTest(widget_class.__name__):
                widget = self.create_widget(widget_class)
                events = []
                widget.progressBarValueChanged.connect(
                    lambda value: events.append(("progress", value)))
                widget.statusMessageChanged.connect(
                    lambda text: events.append(("status", text)))
                self.send_signal(widget.Inputs.data, self.iris)
                self.assertIsNotNone(self.fitted(widget))
                statuses = [value for kind, value in events if kind == "status"]
                self.assertIn(utils.COMPILING_STATUS, statuses)
                self.assertIn(utils.FITTING_STATUS, statuses)
                compiling = events.index(("status", utils.COMPILING_STATUS))
                fitting = events.index(("status", utils.FITTING_STATUS))
                warm_up = [value for kind, value in events[compiling:fitting]
                           if kind == "progress"]
                # the bar moves fit by fit through its first half, and only forwards
                self.assertGreater(len(set(warm_up)), 4)
                self.assertEqual(warm_up, sorted(warm_up))
                self.assertAlmostEqual(max(warm_up), 100 * utils.WARM_UP_SHARE)
                # a second fit of the same learner: no warm-up
                events.clear()
                widget.apply()
                self.assertIsNotNone(self.fitted(widget))
                self.assertNotIn(("status", utils.COMPILING_STATUS), events)
