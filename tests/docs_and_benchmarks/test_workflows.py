"""The example workflows open in Orange Canvas's own scheme machinery and produce results.

Each ``.ows`` of ``orangecontrib/oblique/tutorials`` is loaded into a ``WidgetsScheme``
with the widget registry that Orange Canvas discovers from the installed entry points
(as ``Orange/widgets/tests/test_workflows.py`` does), its signals run to the end — learner
widgets and Test and Score work in background threads, so the test waits until every
widget is idle — and the outcome is checked in the widgets themselves.
"""
import ast
import importlib
import os
import re
import time
import unittest
from xml.etree import ElementTree

import numpy as np
import pytest
from AnyQt.QtTest import QTest

from orangecanvas.registry import WidgetRegistry
from orangewidget.tests.base import GuiTest
from orangewidget.workflow.widgetsscheme import WidgetsScheme

from Orange.canvas.config import Config
from Orange.evaluation import CA
from Orange.widgets.tests.utils import excepthook_catch

import orangecontrib.oblique.tutorials
from orangecontrib.oblique import ObliqueTreeModel
from tests.helpers.benchmark_scripts import BENCHMARKS, benchmark_script

TUTORIALS = os.path.dirname(orangecontrib.oblique.tutorials.__file__)
README = os.path.join(os.path.dirname(BENCHMARKS), "README.md")
#: Seconds a workflow may run before the test gives up: a guard against a hang only (each
#: runs in a few seconds; the test waits on the workflow's state, not on a clock)
TIMEOUT = 300


def registry():
    discovery = Config.widget_discovery(WidgetRegistry())
    discovery.run(Config.widgets_entry_points())
    return discovery.registry


class TestExampleWorkflows(GuiTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.registry = registry()

    def setUp(self):
        self.scheme = None

    def tearDown(self):
        if self.scheme is not None:
            self.scheme.clear()
            self.scheme.deleteLater()
            self.scheme = None
            QTest.qWait(0)

    def load(self, filename):
        scheme = WidgetsScheme()
        manager = scheme.widget_manager
        manager.set_creation_policy(manager.Immediate)
        with open(os.path.join(TUTORIALS, filename), "rb") as f, \
                excepthook_catch(raise_on_exit=True):
            scheme.load_from(f, registry=self.registry)
        self.scheme = scheme
        return scheme

    def widget(self, title):
        node = next(n for n in self.scheme.nodes if n.title == title)
        return self.scheme.widget_for_node(node)

    def is_idle(self):
        scheme = self.scheme
        signals, widgets = scheme.signal_manager, scheme.widget_manager
        if signals.has_pending():
            return False
        for node in scheme.nodes:
            widget = scheme.widget_for_node(node)
            if widgets.node_processing_state(node) or signals.is_invalidated(node) \
                    or getattr(widget, "task", None) is not None:
                return False
        return True

    def run_to_end(self):
        """Process events until the workflow is idle three checks in a row."""
        deadline = time.monotonic() + TIMEOUT
        idle_checks = 0
        while idle_checks < 3:
            self.assertLess(time.monotonic(), deadline, "the workflow did not finish")
            QTest.qWait(50)
            idle_checks = idle_checks + 1 if self.is_idle() else 0

    def accuracies(self, test_and_score):
        """Classification accuracy of every learner in Test and Score, by learner name."""
        accuracies = {}
        for slot in test_and_score.learners.values():
            self.assertIsNotNone(slot.results, f"no results for {slot.learner.name}")
            self.assertTrue(slot.results.success,
                            f"{slot.learner.name} failed: {slot.results}")
            accuracies[slot.learner.name] = CA(slot.results.value)[0]
        return accuracies

    def test_tutorials_are_registered(self):
        examples = [ep for ep in Config.examples_entry_points()
                    if ep.value == "orangecontrib.oblique.tutorials"]
        self.assertEqual(len(examples), 1)
        self.assertEqual(sorted(f for f in os.listdir(TUTORIALS) if f.endswith(".ows")),
                         ["ensembles.ows", "oblique-forest.ows",
                          "oblique-vs-axis-parallel.ows", "reading-an-oblique-tree.ows"])

    def test_add_on_widgets_are_stored_in_their_current_settings_version(self):
        """An example opens with the defaults of today (doc/make_workflows.py writes the
        widgets' settings versions; an older one would be migrated as an old workflow)."""
        for filename in sorted(f for f in os.listdir(TUTORIALS) if f.endswith(".ows")):
            root = ElementTree.parse(os.path.join(TUTORIALS, filename)).getroot()
            properties = {element.get("node_id"): element.text
                          for element in root.iter("properties")}
            for node in root.iter("node"):
                module, _, name = node.get("qualified_name").rpartition(".")
                if not module.startswith("orangecontrib.oblique."):
                    continue
                widget_class = getattr(importlib.import_module(module), name)
                with self.subTest(filename, widget=name):
                    stored = ast.literal_eval(properties[node.get("id")])
                    self.assertEqual(stored["__version__"], widget_class.settings_version)

    def test_oblique_vs_axis_parallel(self):
        scheme = self.load("oblique-vs-axis-parallel.ows")
        self.assertTrue(scheme.title)
        self.assertTrue(scheme.description)
        self.run_to_end()
        data = self.widget("Oblique Data")
        self.assertEqual(data.set_index, 1)  # the 4×4 checkerboard
        self.assertEqual(self.widget("OC1").n_restarts, 5)
        accuracies = self.accuracies(self.widget("Test and Score"))
        self.assertEqual(list(accuracies), ["Geometric Tree", "OC1", "ODT-SVM", "Tree"])
        for name in ("Geometric Tree", "OC1", "ODT-SVM"):
            self.assertGreater(accuracies[name], 0.6, name)
        self.assertGreater(accuracies["Tree"], 0.5)
        confusion = self.widget("Confusion Matrix")
        self.assertIsNotNone(confusion.results)
        self.assertEqual(len(confusion.results.predicted), 4)
        self.assertEqual(confusion.results.actual.shape, (1000,))
        self.assertShowcaseFigures(accuracies)

    def assertShowcaseFigures(self, accuracies):
        """``benchmarks/showcase.py`` gives the CAs of the workflow's Test and Score, and
        the README quotes them, naming the command."""
        with benchmark_script("showcase") as showcase:
            self.assertEqual(showcase.accuracies(), accuracies)
        with open(README, encoding="utf-8") as f:
            readme = " ".join(f.read().split())
        self.assertTrue("python benchmarks/showcase.py" in readme,
                        "the README names the command of the showcase's figures")
        quoted = re.search(r"CA (\d\.\d{3}) Geometric Tree, (\d\.\d{3}) OC1, "
                           r"(\d\.\d{3}) ODT-SVM, (\d\.\d{3}) Orange's Tree", readme)
        self.assertIsNotNone(quoted, "the README's sentence of the showcase's figures")
        self.assertEqual([float(figure) for figure in quoted.groups()],
                         [round(accuracies[name], 3)
                          for name in ("Geometric Tree", "OC1", "ODT-SVM", "Tree")])

    def test_reading_an_oblique_tree(self):
        scheme = self.load("reading-an-oblique-tree.ows")
        self.assertTrue(scheme.title)
        self.run_to_end()
        self.assertEqual(len(self.widget("File").data), 303)
        viewer = self.widget("Oblique Tree Viewer")
        model = viewer.model
        self.assertIsInstance(model, ObliqueTreeModel)
        self.assertEqual(len(model.instances), 303)
        self.assertEqual(len(viewer.items), model.tree_.node_count)
        # select the root's first child; its rows reach the Data Table
        first_child = model.tree_.children[0][0]
        viewer.select_nodes({first_child})
        self.run_to_end()
        table = self.widget("Data Table")
        self.assertIsNotNone(table.input)
        expected = model.root.children[0].subset
        self.assertGreater(len(expected), 0)
        np.testing.assert_array_equal(table.input.table.ids, model.instances[expected].ids)

    def test_ensembles(self):
        scheme = self.load("ensembles.ows")
        self.assertTrue(scheme.description)
        self.run_to_end()
        hedge = self.widget("Hedge Ensemble")
        self.assertEqual(type(hedge.base_learner).__name__, "ODTSVMLearner")
        self.assertFalse(hedge.base_is_default)
        accuracies = self.accuracies(self.widget("Test and Score"))
        self.assertEqual(len(accuracies), 2)
        for name, accuracy in accuracies.items():
            self.assertGreater(accuracy, 0.8, name)

    @pytest.mark.slow  # a 100-tree forest in a workflow, about 4 s
    def test_oblique_forest(self):
        """The Oblique Forest against Random Forest and Tree, its member
        trees in the viewer."""
        scheme = self.load("oblique-forest.ows")
        self.assertTrue(scheme.description)
        self.run_to_end()
        forest = self.widget("Oblique Forest")
        self.assertIsNotNone(forest.model)
        accuracies = self.accuracies(self.widget("Test and Score"))
        self.assertEqual(list(accuracies), ["Oblique Forest", "Random Forest", "Tree"])
        for name, accuracy in accuracies.items():
            self.assertGreater(accuracy, 0.7, name)
        viewer = self.widget("Oblique Tree Viewer")
        self.assertIsInstance(viewer.model, ObliqueTreeModel)
        self.assertIs(viewer.model.tree_, forest.model.estimator.estimators_[0].tree_)
        self.assertTrue(viewer.items)


if __name__ == "__main__":
    unittest.main()
