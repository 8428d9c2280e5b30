"""The Oblique Tree Viewer's scene and view on their own: drawing, collapse, selection,
path highlighting, colours and zoom, and the signals the widget listens to."""
import inspect
import unittest

import numpy as np

from AnyQt.QtGui import QColor, QFontMetricsF
from Orange.data import Table
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from orangewidget.widget import OWBaseWidget

from orangecontrib.oblique import OC1Learner
from orangecontrib.oblique.widgets import treescene
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.treescene import (COLOR_BY_IMPURITY, TreeScene, TreeView,
                                                     node_fill)


class TestTreeScene(base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        iris = Table("iris")
        cls.model = OC1Learner(random_state=0)(iris)
        cls.model.instances = iris

    def setUp(self):
        # the widget only supplies the tree the scene draws
        self.widget = self.create_widget(OWObliqueTreeViewer)
        self.send_signal(self.widget.Inputs.tree, self.model)
        self.tree = self.widget.view_tree
        self.scene = TreeScene()
        self.view = TreeView(self.scene)
        self.described = []
        self.selections, self.toggles = [], []
        self.scene.nodes_selected.connect(lambda: self.selections.append(
            set(self.scene.selected)))
        self.scene.collapse_toggled.connect(lambda: self.toggles.append(
            set(self.scene.collapsed)))
        self.scene.draw(self.tree, self.describe, 200, None, 0)

    def describe(self, node):
        self.described.append(node)
        value = self.tree.train_value[node]
        bars = None if self.tree.is_leaf(node) else self.tree.coefficients(node, 3)
        return (f"title {node}", f"text {node}", f"tip {node}", value, int(value.sum()),
                bars)

    def internal(self):
        return [n for n in range(self.tree.node_count) if not self.tree.is_leaf(n)]

    def test_not_a_widget(self):
        self.assertFalse([cls for _, cls in inspect.getmembers(treescene, inspect.isclass)
                          if issubclass(cls, OWBaseWidget)])

    def test_draws_every_node_with_its_description(self):
        tree, items = self.tree, self.scene.node_items
        self.assertEqual(sorted(items), list(range(tree.node_count)))
        self.assertEqual(sorted(self.described), list(range(tree.node_count)))
        self.assertEqual(sorted(self.scene.edges), list(range(1, tree.node_count)))
        self.assertEqual(items[0].text, "text 0")
        self.assertTrue(items[0].toolTip().startswith("tip 0"))
        for node in self.internal():
            weights = tree.coefficients(node, 3)
            self.assertEqual(weights is None, items[node].coefficients is None)
            self.assertEqual(items[node].toolTip(), f"tip {node}")
        self.assertTrue(any(items[n].coefficients is not None for n in self.internal()))
        leaf = tree.leaves()[0]
        self.assertIsNone(items[leaf].coefficients)
        self.assertEqual(items[leaf].toolTip(), f"tip {leaf}")
        for node in range(1, tree.node_count):  # children below their parents
            parent = next(p for p in range(tree.node_count) if node in tree.children[p])
            self.assertGreater(items[node].pos().y(), items[parent].pos().y())
        self.scene.draw(None, self.describe, 200, None, 0)
        self.assertEqual(self.scene.node_items, {})
        self.assertTrue(self.scene.sceneRect().isEmpty())

    def test_depth_limit(self):
        self.scene.draw(self.tree, self.describe, 200, 1, 0)
        self.assertEqual(sorted(self.scene.node_items),
                         [0] + sorted(self.tree.children[0]))

    def test_top_levels_measured_and_opened(self):
        """``drawn_size(levels)`` is the size of the scene that ``open_top_levels(levels)``
        draws (its branch labels aside); nodes the depth limit hides are not collapsed."""
        scene, tree = self.scene, self.tree
        deepest = max(tree.depth)
        self.assertGreaterEqual(deepest, 2)
        for levels in range(deepest):
            scene.expand_all()
            width, height = scene.drawn_size(levels)
            self.assertTrue(scene.open_top_levels(levels))
            self.assertEqual(scene.deepest_drawn_level(), levels)
            rect = scene.sceneRect()
            boxes = scene.levels_rect()
            self.assertAlmostEqual(height, rect.height())
            self.assertAlmostEqual(width, boxes.width() + 2 * treescene.SCENE_MARGIN)
            self.assertLessEqual(width, rect.width() + 1e-9)
        # at the depth limit nothing is collapsed: the limit hides those nodes' children
        scene.expand_all()
        scene.draw(self.tree, self.describe, 200, 1, 0)
        self.assertFalse(scene.open_top_levels(1))
        self.assertEqual(scene.collapsed, set())
        self.assertTrue(scene.open_top_levels(0))
        self.assertEqual(scene.collapsed, {0})

    def test_collapse_and_expand(self):
        node = self.internal()[-1]
        self.scene.toggle_collapse(node)
        self.assertEqual(self.toggles, [{node}])
        self.assertTrue(self.scene.node_items[node].collapsed)
        hidden = set(range(self.tree.node_count)) - set(self.scene.node_items)
        self.assertTrue(hidden)
        self.assertTrue(all(node in self.tree.path(n) for n in hidden))
        self.scene.toggle_collapse(self.tree.leaves()[0])  # a leaf: nothing happens
        self.assertEqual(len(self.toggles), 1)
        self.scene.expand_all()
        self.assertEqual(self.toggles[-1], set())
        self.assertEqual(len(self.scene.node_items), self.tree.node_count)

    def test_selection_survives_collapse(self):
        leaf = self.tree.leaves()[-1]
        self.scene.select({0, leaf})
        self.assertEqual(self.selections, [{0, leaf}])
        self.scene.toggle_collapse(0)  # redrawing does not report a selection
        self.assertEqual(len(self.selections), 1)
        self.assertNotIn(leaf, self.scene.node_items)
        self.assertTrue(self.scene.node_items[0].isSelected())
        self.scene.node_items[0].setSelected(False)  # as a click elsewhere does
        self.assertEqual(self.selections[-1], {leaf})  # the hidden node stays selected
        self.scene.expand_all()
        self.assertTrue(self.scene.node_items[leaf].isSelected())

    def test_trace_hover_and_recolor(self):
        leaf = self.tree.leaves()[-1]
        path = self.tree.path(leaf)
        self.assertEqual(self.scene.trace(path), set())
        self.assertTrue(all(self.scene.node_items[n].traced == (n in path)
                            for n in self.scene.node_items))
        self.scene.toggle_collapse(0)
        # hidden by the collapse: drawn while traced, the collapse stays
        self.assertEqual(self.scene.trace(path), set(path[1:]))
        self.assertEqual(self.scene.collapsed, {0})
        self.assertTrue(all(self.scene.node_items[n].traced for n in path))
        self.scene.trace([])
        self.assertEqual(list(self.scene.node_items), [0])
        self.scene.toggle_collapse(0)
        self.scene.trace(path)
        self.scene.hover(leaf)
        self.assertEqual({n for n, item in self.scene.node_items.items() if item.hovered},
                         set(path))
        self.scene.hover(-1)
        self.assertFalse(any(item.hovered for item in self.scene.node_items.values()))
        item = self.scene.node_items[0]
        self.scene.recolor(COLOR_BY_IMPURITY)
        self.assertEqual(item.fill, node_fill(item.value, item.colors, COLOR_BY_IMPURITY))
        self.scene.redraw()
        self.assertEqual(self.scene.node_items[0].fill, item.fill)

    def test_lines_break_between_terms(self):
        """A box's text breaks only between terms (never inside a name such as "slope
        peak exc ST=flat", nor inside a number); a term wider than the box breaks after
        its coefficient."""
        text = "0.08311·z(gender=male) + 0.02143·z(slope peak exc ST=flat) ≥ 0.07211"
        metrics = QFontMetricsF(self.scene.font())
        width = metrics.horizontalAdvance("0.08311·z(gender=male)") + 4
        lines = treescene.box_lines(text, metrics, width)
        self.assertEqual(lines, ["0.08311·z(gender=male)", "+ 0.02143·",
                                 "z(slope peak exc ST=flat)", "≥ 0.07211"])
        self.assertEqual(treescene.box_lines(text, metrics, 2000), [text])
        wide = metrics.horizontalAdvance(text) - 1
        self.assertEqual(treescene.box_lines(text, metrics, wide),
                         ["0.08311·z(gender=male) + 0.02143·z(slope peak exc ST=flat)",
                          "≥ 0.07211"])

    def test_node_fill(self):
        colors = [QColor("#ff0000"), QColor("#0000ff")]
        self.assertEqual(node_fill(np.array([0.0, 0]), colors, 0), QColor("#f4f4f4"))
        self.assertEqual(node_fill(np.array([4.0, 0]), colors, 0),
                         treescene._mix(colors[0], 1 - 0.55))  # pure: saturated
        pure = node_fill(np.array([4.0, 0]), colors, COLOR_BY_IMPURITY)
        mixed = node_fill(np.array([2.0, 2]), colors, COLOR_BY_IMPURITY)
        self.assertGreater(pure.lightness(), mixed.lightness())

    def test_zoom(self):
        self.view.fit_to_window()
        self.assertLessEqual(self.view.zoom, 1.5)
        zoom = self.view.zoom
        self.view.zoom_by(2)
        self.assertAlmostEqual(self.view.transform().m11(), min(2 * zoom, 5.0))
        for _ in range(40):
            self.view.zoom_by(0.5)
        self.assertEqual(self.view.zoom, 0.05)
        self.view.show_new_tree()
        self.assertGreaterEqual(self.view.zoom, 0.45 - 1e-9)


if __name__ == "__main__":
    unittest.main()
