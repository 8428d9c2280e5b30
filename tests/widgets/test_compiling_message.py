"""The learner widgets say when the kernels are still being compiled in the background
(``orangecontrib.oblique.core.compilation``), and stop saying it when that is done."""
from Orange.data import Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.core import compilation
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM


class Compiling:
    """A stand-in for the background process: running until ``done`` is set."""

    def __init__(self):
        self.done = False

    def poll(self):
        return 0 if self.done else None


class TestCompilingMessage(base.WidgetTest):
    def setUp(self):
        self.iris = Table("iris")
        self.process = Compiling()
        self.previous, compilation._started = compilation._started, self.process

    def tearDown(self):
        compilation._started = self.previous

    def test_shown_while_compiling_then_cleared(self):
        for widget_class in (OWGeometricTree, OWOC1, OWODTSVM, OWHedgeEnsemble,
                             OWObliqueForest):
            with self.subTest(widget_class.__name__):
                self.process.done = False
                widget = self.create_widget(widget_class)
                widget.COMPILING_POLL_MS = 10
                self.send_signal(widget.Inputs.data, self.iris)
                self.assertTrue(widget.Information.compiling.is_shown())
                self.assertIsNotNone(self.get_output(widget.Outputs.model, widget=widget, wait=30000))
                self.process.done = True
                # the widget's timer looks again and clears the message
                self.assertTrue(widget._compiling_timer is not None)
                widget._compiling_timer.timeout.emit()
                self.assertFalse(widget.Information.compiling.is_shown())
                self.assertIsNone(widget._compiling_timer)

    def test_not_shown_without_a_compilation(self):
        compilation._started = None
        widget = self.create_widget(OWOC1)
        self.send_signal(widget.Inputs.data, self.iris)
        self.assertFalse(widget.Information.compiling.is_shown())
        self.assertIsNone(widget._compiling_timer)

    def test_the_timer_stops_with_the_widget(self):
        widget = self.create_widget(OWOC1)
        self.send_signal(widget.Inputs.data, self.iris)
        timer = widget._compiling_timer
        self.assertTrue(timer.isActive())
        widget.onDeleteWidget()
        self.assertFalse(timer.isActive())
