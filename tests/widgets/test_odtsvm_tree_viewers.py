"""ODT-SVM trees (multiway and nominal splits) in Orange's Tree Viewer and Pythagorean Tree."""
import numpy as np

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.utils import to_html
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph
from Orange.widgets.visualize.pythagorastreeviewer import SquareGraphicsItem

from orangecontrib.oblique import ObliqueTreeModel, ODTSVMLearner
from orangecontrib.oblique.core import ObliqueTree, Split


class FittedTree:
    def __init__(self, tree, classes):
        self.tree_ = tree
        self.classes_ = np.asarray(classes)


def models():
    """(iris with a multiway argmax root, heart_disease with nominal tests, a hand-made
    tree whose argmax root has an empty branch), each with ``instances`` set as the
    learner widget sets it."""
    iris = Table("iris")
    # one-vs-rest: an argmax root, one branch per class by the largest score
    multiway = ODTSVMLearner(axis_parallel_tests=False, clustering_split=False,
                             multiclass="one_vs_rest", random_state=0)(iris)
    multiway.instances = iris
    heart = Table("heart_disease")
    nominal = ODTSVMLearner(clustering_split=False, random_state=0)(heart)
    nominal.instances = heart
    domain = Domain([ContinuousVariable("a"), ContinuousVariable("b")],
                    DiscreteVariable("y", values=("p", "q", "r")))
    data = Table.from_numpy(domain, np.array([[0, 0], [3, 0], [0, 3], [3, 3], [1, 0]]),
                            np.array([0, 1, 2, 1, 0]))
    argmax = Split("argmax", [[1, 0], [0, 1], [-1, -1]], [0, 0, -10], classes=[0, 1, 2])
    tree = ObliqueTree(2, 3, [argmax, None, None, None], [(1, 2, 3), (), (), ()],
                       [-1, 0, 0, 0], [[2, 2, 1], [2, 2, 0], [0, 0, 1], [0, 0, 0]],
                       [5, 4, 1, 0])
    empty_branch = ObliqueTreeModel(data, FittedTree(tree, [0, 1, 2]))
    empty_branch.instances = data
    return multiway, nominal, empty_branch


class ODTSVMModelsTest(base.WidgetTest):
    """A widget test with the three models of :func:`models`."""
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.multiway, cls.nominal, cls.empty_branch = models()


class TestTreeViewer(ODTSVMModelsTest):
    def setUp(self):
        self.widget = self.create_widget(OWTreeGraph)

    def items(self, model):
        self.send_signal(self.widget.Inputs.tree, model)
        nodes = self.widget.scene.nodes()
        self.assertEqual(len(nodes), model.node_count())
        self.assertEqual(self.widget.tree_adapter.num_nodes, model.node_count())
        self.assertIn(f"{model.node_count()} nodes", self.widget.infolabel.text())
        return {id(n.node_inst): n for n in nodes}

    def test_multiway_root(self):
        model = self.multiway
        items = self.items(model)
        root = model.root
        self.assertEqual(len(root.children), 3)
        self.assertIn("largest score:", items[id(root)].toPlainText())
        self.assertIn("Iris-setosa:", items[id(root)].toPlainText())
        adapter = self.widget.tree_adapter
        self.assertEqual([adapter.short_rule(c) for c in adapter.children(root)],
                         ["Iris-setosa", "Iris-versicolor", "Iris-virginica"])
        # three edges leave the root
        self.assertEqual(len(items[id(root)].branches), 3)
        child = root.children[2]
        tooltip = self.widget.node_tooltip(items[id(child)])
        self.assertIn(to_html(model.rule(child)[0]), tooltip)
        items[id(child)].setSelected(True)
        selected = self.get_output(self.widget.Outputs.selected_data)
        np.testing.assert_array_equal(selected.ids, model.instances[child.subset].ids)

    def test_nominal_tests(self):
        model = self.nominal
        items = self.items(model)
        adapter = self.widget.tree_adapter
        nodes = [item.node_inst for item in items.values()]
        texts = [items[id(n)].toPlainText() for n in nodes if adapter.attribute(n) is not None]
        self.assertIn("chest pain", " ".join(texts))
        labels = [adapter.short_rule(n) for n in nodes if n.parent is not None]
        # C4.5's test: one branch per value
        for value in ("= asymptomatic", "= atypical ang", "= non-anginal", "= typical ang"):
            self.assertIn(value, labels)

    def test_empty_branch_is_not_drawn(self):
        model = self.empty_branch
        items = self.items(model)
        self.assertEqual(model.node_count(), 3)
        self.assertEqual(len(items[id(model.root)].branches), 2)
        self.assertEqual([self.widget.tree_adapter.short_rule(c)
                          for c in self.widget.tree_adapter.children(model.root)],
                         ["p", "q"])


class TestPythagoreanTree(ODTSVMModelsTest):
    def setUp(self):
        self.widget = self.create_widget(OWPythagorasTree)

    def squares(self, model):
        self.send_signal(self.widget.Inputs.tree, model)
        squares = [i for i in self.widget.scene.items() if isinstance(i, SquareGraphicsItem)]
        self.assertEqual(len(squares), model.node_count())
        return squares

    def test_models(self):
        for model in (self.multiway, self.nominal, self.empty_branch):
            squares = self.squares(model)
            self.assertFalse(self.widget.Error.active)
            deepest = max(squares, key=lambda s: len(model.rule(s.tree_node.label)))
            for rule in model.rule(deepest.tree_node.label):
                self.assertIn(to_html(rule), deepest.tree_node.tooltip)
            deepest.setSelected(True)
            selected = self.get_output(self.widget.Outputs.selected_data)
            node = deepest.tree_node.label
            np.testing.assert_array_equal(selected.ids, model.instances[node.subset].ids)

    def test_multiway_root_has_three_children(self):
        squares = self.squares(self.multiway)
        root = next(s for s in squares if s.tree_node.label is self.multiway.root)
        self.assertEqual(len(root.tree_node.children), 3)
        self.assertIn("largest score:", root.tree_node.tooltip)

    def test_nominal_tooltips(self):
        squares = self.squares(self.nominal)
        tooltips = " ".join(s.tree_node.tooltip for s in squares)
        self.assertIn(to_html("chest pain = asymptomatic"), tooltips)
