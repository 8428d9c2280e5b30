"""The Geometric Tree widget, and its models in Orange's Tree Viewer and Pythagorean Tree."""
import numpy as np

from Orange.data import Domain, Table
from Orange.widgets.utils import to_html
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph
from Orange.widgets.visualize.pythagorastreeviewer import SquareGraphicsItem

from orangecontrib.oblique import GeometricTreeLearner, ObliqueTreeModel
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree


def with_missing_class(data, rows):
    data = data.copy()
    with data.unlocked(data.Y):
        data.Y[rows] = np.nan
    return data


class TestOWGeometricTree(base.WidgetTest, base.WidgetLearnerTestMixin):
    def setUp(self):
        self.widget = self.create_widget(OWGeometricTree,
                                         stored_settings={"auto_apply": False})
        self.init()
        controls = self.widget.controls
        self.parameters = [
            base.ParameterMapping("epsilon1", controls.epsilon1),
            base.ParameterMapping("max_depth", controls.max_depth),
            base.ParameterMapping("min_samples_split", controls.min_samples_split),
        ]

    def train(self, data):
        self.send_signal(self.widget.Inputs.data, data)
        self.click_apply()
        self.wait_until_stop_blocking()
        return self.get_output(self.widget.Outputs.model)

    def test_model_output_links_to_tree_viewers(self):
        model_type = self.widget.Outputs.model.type
        self.assertIs(model_type, ObliqueTreeModel)
        self.assertTrue(issubclass(model_type, OWTreeGraph.Inputs.tree.type))
        self.assertTrue(issubclass(model_type, OWPythagorasTree.Inputs.tree.type))

    def test_model_on_heart_disease(self):
        data = Table("heart_disease")
        model = self.train(data)
        self.assertIsInstance(model, ObliqueTreeModel)
        self.assertIs(model.instances, data)
        self.assertFalse(self.widget.Error.active)
        self.assertGreater(np.mean(model(data) == data.Y), 0.8)

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
                                              random_state=0))
        w.controls.limit_depth.setChecked(False)
        self.click_apply()
        self.assertIsNone(self.get_output(w.Outputs.learner).max_depth)
        w.controls.standardize.setChecked(True)
        self.click_apply()
        self.assertTrue(self.get_output(w.Outputs.learner).standardize)
        self.assertLessEqual(self.train(Table("iris")).depth(), 20)

    def test_default_settings(self):
        learner = self.get_output(self.widget.Outputs.learner)
        self.assertEqual(learner.params, dict(epsilon1=0.1, epsilon2=None, max_depth=20,
                                              min_samples_split=2, standardize=True,
                                              pruning_portion=0.0, se_rule=0.0,
                                              random_state=0))

    def test_max_depth_limits_model(self):
        self.widget.max_depth = 1
        self.assertLessEqual(self.train(Table("heart_disease")).depth(), 1)

    def test_report_parameters(self):
        self.widget.max_depth = 4
        self.widget.controls.limit_depth.setChecked(False)
        params = dict(self.widget.get_learner_parameters())
        self.assertEqual(params["Maximal depth"], "unlimited")
        self.assertEqual(params["Minority fraction to stop (ε1)"], "0.10")
        self.assertEqual(params["Standardize features"], "Yes")
        self.widget.send_report()

    def test_error_no_class(self):
        iris = Table("iris")
        self.assertIsNone(self.train(iris.transform(Domain(iris.domain.attributes))))
        self.assertTrue(self.widget.Error.data_error.is_shown())
        self.assertIn("no target variable", str(self.widget.Error.data_error))
        self.train(iris)
        self.assertFalse(self.widget.Error.data_error.is_shown())

    def test_error_numeric_class(self):
        self.assertIsNone(self.train(Table("housing")))
        self.assertIn("Categorical class", str(self.widget.Error.data_error))

    def test_error_single_class_value(self):
        iris = Table("iris")
        self.assertIsNone(self.train(iris[:50]))
        self.assertTrue(self.widget.Error.single_class.is_shown())
        # with missing class values too (Orange's own check counts NaN as a value)
        self.assertIsNone(self.train(with_missing_class(iris[:60], slice(50, 60))))
        self.assertTrue(self.widget.Error.single_class.is_shown())
        self.assertFalse(self.widget.Error.data_error.is_shown())
        self.train(iris)
        self.assertFalse(self.widget.Error.single_class.is_shown())

    def test_error_no_features(self):
        iris = Table("iris")
        self.assertIsNone(self.train(iris.transform(Domain([], iris.domain.class_var))))
        self.assertIn("no features", str(self.widget.Error.data_error))

    def test_error_every_class_missing(self):
        self.assertIsNone(self.train(with_missing_class(Table("iris"), slice(None))))
        self.assertTrue(self.widget.Error.no_class_values.is_shown())
        self.assertFalse(self.widget.Error.data_error.is_shown())
        self.send_signal(self.widget.Inputs.data, None)
        self.assertFalse(self.widget.Error.no_class_values.is_shown())

    def test_warning_missing_class_rows(self):
        data = with_missing_class(Table("heart_disease"), [0, 5, 9])
        model = self.train(data)
        self.assertIsNotNone(model)
        self.assertTrue(self.widget.Warning.missing_class.is_shown())
        self.assertIn("3 rows with a missing class are skipped",
                      str(self.widget.Warning.missing_class))
        np.testing.assert_array_equal(model.root.subset, np.arange(len(data)))
        self.assertEqual(model.root.value.sum(), len(data) - 3)
        self.train(Table("heart_disease"))
        self.assertFalse(self.widget.Warning.missing_class.is_shown())

    def test_fitting_failure_is_shown(self):
        # every feature is removed by preprocessing (a column of NaNs)
        iris = Table("iris")
        data = iris.copy()
        with data.unlocked(data.X):
            data.X[:] = np.nan
        self.assertIsNone(self.train(data))
        self.assertTrue(self.widget.Error.fitting_failed.is_shown())
        self.assertIn("no features", str(self.widget.Error.fitting_failed))


class ViewerChecks:
    """Selection outputs of Orange's viewers with a GDT model (WidgetOutputsTestMixin)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        base.WidgetOutputsTestMixin.init(cls)  # iris
        cls.model = GeometricTreeLearner()(cls.data)
        cls.model.instances = cls.data
        cls.signal_data = cls.model
        heart = Table("heart_disease")
        cls.heart_raw = with_missing_class(heart, np.arange(0, len(heart), 10))
        cls.heart = GeometricTreeLearner()(cls.heart_raw)
        cls.heart.instances = cls.heart_raw  # as the learner widget does


class TestTreeViewerWithObliqueTree(ViewerChecks, base.WidgetTest,
                                    base.WidgetOutputsTestMixin):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.signal_name = OWTreeGraph.Inputs.tree

    def setUp(self):
        self.widget = self.create_widget(OWTreeGraph)

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
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.signal_name = OWPythagorasTree.Inputs.tree

    def setUp(self):
        self.widget = self.create_widget(OWPythagorasTree)

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
