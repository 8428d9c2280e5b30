"""The Geometric Tree widget, and its models in Orange's Tree Viewer and Pythagorean Tree."""
import numpy as np

from Orange.data import Table
from Orange.widgets.utils import to_html
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph
from Orange.widgets.visualize.pythagorastreeviewer import SquareGraphicsItem

from orangecontrib.oblique import GeometricTreeLearner
from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree

from tests.helpers.widget_helpers import LearnerWidgetChecks, with_missing_class


class TestOWGeometricTree(LearnerWidgetChecks, base.WidgetTest):
    WIDGET = OWGeometricTree
    LEARNER = GeometricTreeLearner
    ESTIMATOR = GeometricTreeClassifier
    MODEL_NAME = "Geometric Tree"
    REPORTED_DEFAULTS = {
        "Minority fraction to stop (ε1)": "0.10",
        "Maximal depth": "20",
        "Min. number of instances in leaves": "2",
        "Do not split subsets smaller than": "5",
        "Standardize features": "Yes",
        "Pruning": "none",
        "Attributes per split": "at most 3",
        "Replicable training": "Yes (seed 0)",
    }
    REPORTED_CHANGES = {
        "Maximal depth": "unlimited",
        "Minority fraction to stop (ε1)": "0.10",
        "Standardize features": "Yes",
        "Pruning": "on 20 % held-out instances, 1.0-SE rule",
        "Replicable training": "No",
    }
    MISSING_CLASS_DATA = "heart_disease"
    MISSING_CLASS_ROWS = [0, 5, 9]

    def parameter_mappings(self, controls):
        return [
            base.ParameterMapping("epsilon1", controls.epsilon1),
            base.ParameterMapping("max_depth", controls.max_depth),
            base.ParameterMapping("min_samples_split", controls.min_samples_split),
            base.ParameterMapping("min_samples_leaf", controls.min_samples_leaf),
            base.ParameterMapping("se_rule", controls.se_rule),
            base.ParameterMapping("random_state", controls.seed, [0, 12345]),
        ]

    def default_params(self):
        # Orange's Tree widget's size rules (the core keeps 2 and 1)
        return dict(epsilon1=0.1, epsilon2=None, max_depth=20, min_samples_split=5,
                    standardize=True, pruning_portion=0.0, se_rule=0.0, random_state=0,
                    max_terms=3, min_samples_leaf=2)

    def change_reported_settings(self):
        controls = self.widget.controls
        self.widget.max_depth = 4
        controls.limit_depth.setChecked(False)
        controls.prune.setChecked(True)
        controls.pruning_percent.setValue(20)
        controls.se_rule.setValue(1.0)
        controls.replicable.setChecked(False)

    def test_settings_reach_learner(self):
        w = self.widget
        w.epsilon1 = 0.25
        w.max_depth = 3
        w.min_samples_split = 7
        w.standardize = False
        self.click_apply()
        learner = self.get_output(w.Outputs.learner)
        self.assertEqual(learner.params, dict(epsilon1=0.25, epsilon2=None, max_depth=3,
                                              min_samples_split=7, standardize=False,
                                              pruning_portion=0.0, se_rule=0.0,
                                              random_state=0, max_terms=3,
                                              min_samples_leaf=2))
        w.controls.limit_depth.setChecked(False)
        self.click_apply()
        self.assertIsNone(self.get_output(w.Outputs.learner).max_depth)
        w.controls.standardize.setChecked(True)
        self.click_apply()
        self.assertTrue(self.get_output(w.Outputs.learner).standardize)
        self.assertLessEqual(self.train(Table("iris")).depth(), 20)

    def test_epsilon1_chosen_by_cross_validation(self):
        """The check box sends ``epsilon1="auto"`` (the paper's range, inner CV) and
        disables the fixed ε1; the report says so."""
        w = self.widget
        self.assertTrue(w.epsilon1_spin.isEnabled())
        w.controls.auto_epsilon1.setChecked(True)
        self.assertFalse(w.epsilon1_spin.isEnabled())
        self.click_apply()
        learner = self.get_output(w.Outputs.learner)
        self.assertEqual(learner.epsilon1, "auto")
        self.assertIn(("Minority fraction to stop (ε1)", "chosen by cross-validation"),
                      w.get_learner_parameters().items())
        model = self.train(Table("iris"))
        self.assertIn(model.estimator.epsilon1_, (0.10, 0.125, 0.15, 0.175, 0.20))
        w.controls.auto_epsilon1.setChecked(False)
        self.assertTrue(w.epsilon1_spin.isEnabled())
        self.click_apply()
        self.assertEqual(self.get_output(w.Outputs.learner).epsilon1, 0.1)

    def test_pruning_and_seed(self):
        """Pruning is a check box with its share and tolerance; the held-out instances
        are drawn with the seed, or at random without replicable training."""
        w = self.widget
        self.assertFalse(w.se_rule_spin.isEnabled())
        w.controls.prune.setChecked(True)
        self.assertTrue(w.se_rule_spin.isEnabled())
        w.controls.pruning_percent.setValue(25)
        w.controls.seed.setValue(7)
        self.click_apply()
        learner = self.get_output(w.Outputs.learner)
        self.assertEqual((learner.pruning_portion, learner.random_state), (0.25, 7))
        w.controls.replicable.setChecked(False)
        w.controls.prune.setChecked(False)
        self.click_apply()
        learner = self.get_output(w.Outputs.learner)
        self.assertEqual((learner.pruning_portion, learner.random_state), (0.0, None))

    def test_max_depth_limits_model(self):
        self.widget.max_depth = 1
        self.assertLessEqual(self.train(Table("heart_disease")).depth(), 1)


class ViewerChecks:
    """Selection outputs of Orange's viewer ``VIEWER`` with a GDT model
    (WidgetOutputsTestMixin)."""

    VIEWER = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        base.WidgetOutputsTestMixin.init(cls)  # iris
        cls.signal_name = cls.VIEWER.Inputs.tree
        cls.model = GeometricTreeLearner()(cls.data)
        cls.model.instances = cls.data
        cls.signal_data = cls.model
        heart = Table("heart_disease")
        cls.heart_raw = with_missing_class(heart, np.arange(0, len(heart), 10))
        cls.heart = GeometricTreeLearner()(cls.heart_raw)
        cls.heart.instances = cls.heart_raw  # as the learner widget does

    def setUp(self):
        self.widget = self.create_widget(self.VIEWER)


class TestTreeViewerWithObliqueTree(ViewerChecks, base.WidgetTest,
                                    base.WidgetOutputsTestMixin):
    VIEWER = OWTreeGraph

    def _select_data(self):
        node = self.widget.scene.nodes()[2]
        node.setSelected(True)
        return node.node_inst.subset

    def test_nodes_texts_and_selection(self):
        model = self.heart
        self.send_signal(self.widget.Inputs.tree, model)
        nodes = self.widget.scene.nodes()
        self.assertEqual(len(nodes), model.node_count())
        self.assertEqual(self.widget.tree_adapter.num_nodes, model.node_count())
        self.assertIn(f"{model.node_count()} nodes", self.widget.infolabel.text())
        by_inst = {id(n.node_inst): n for n in nodes}
        root_item = by_inst[id(model.root)]
        first_line = model.root.attr.name.split("<br/>")[0]
        self.assertIn(first_line.replace("&gt;", ">"), root_item.toPlainText())
        tooltip = self.widget.node_tooltip(by_inst[id(model.root.children[1])])
        self.assertIn(to_html(model.rule(model.root.children[1])[0]), tooltip)
        leaf = next(n for n in nodes if not n.node_inst.children
                    and n.node_inst.parent is not model.root)
        leaf.setSelected(True)
        selected = self.get_output(self.widget.Outputs.selected_data)
        expected = self.heart_raw[leaf.node_inst.subset]
        self.assertEqual(len(selected), len(leaf.node_inst.subset))
        np.testing.assert_array_equal(selected.ids, expected.ids)
        root_item.setSelected(True)
        leaf.setSelected(False)
        selected = self.get_output(self.widget.Outputs.selected_data)
        self.assertEqual(len(selected), len(self.heart_raw))  # missing-class rows too


class TestPythagoreanTreeWithObliqueTree(ViewerChecks, base.WidgetTest,
                                         base.WidgetOutputsTestMixin):
    VIEWER = OWPythagorasTree

    def squares(self):
        return [i for i in self.widget.scene.items() if isinstance(i, SquareGraphicsItem)]

    def _select_data(self):
        item = self.squares()[3]
        item.setSelected(True)
        return item.tree_node.label.subset

    def test_squares_tooltips_and_selection(self):
        model = self.heart
        self.send_signal(self.widget.Inputs.tree, model)
        squares = self.squares()
        self.assertEqual(len(squares), model.node_count())
        deepest = max(squares, key=lambda s: len(model.rule(s.tree_node.label)))
        node = deepest.tree_node.label
        tooltip = deepest.tree_node.tooltip
        for rule in model.rule(node):
            self.assertIn(to_html(rule), tooltip)
        internal = next(s for s in squares if s.tree_node.label.children)
        self.assertIn(internal.tree_node.label.attr.name, internal.tree_node.tooltip)
        deepest.setSelected(True)
        selected = self.get_output(self.widget.Outputs.selected_data)
        np.testing.assert_array_equal(selected.ids, self.heart_raw[node.subset].ids)
