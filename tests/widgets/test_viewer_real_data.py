"""The Oblique Tree Viewer on real data, the Orange way -- a readable
opening zoom, a zoom slider, Fit to width, target-class colours and edge widths by
instances; node counts equal to the model's on multiway trees; tracing a row without
side effects, in plain words, numbered from 1; a Data subset's paths highlighted; edge
labels beside their edges; bar labels; saved settings of version 1."""
import re
import warnings

import numpy as np

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter
from orangecontrib.oblique.widgets.treescene import (
                                                     EDGE_FIXED, EDGE_RELATIVE_TO_ROOT, FADED_OPACITY, MIN_TEXT_PIXELS, PATH_COLOR,
                                                     SUBSET_COLOR, node_fill)

from tests.helpers.widget_helpers import ShownViewer


def eight_classes(seed=0, n_rows=500, n_features=4):
    """A generated 8-class numeric table on which ODT-SVM makes multiway splits with
    branches that no training row reaches."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 2.0, (8, n_features))
    y = rng.integers(0, 8, n_rows)
    X = centres[y] + rng.normal(0, 1.5, (n_rows, n_features))
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(n_features)],
                    DiscreteVariable("class", values=tuple("ABCDEFGH")))
    return Table.from_numpy(domain, X, y)


class ViewerTest(ShownViewer, base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table("heart_disease")
        cls.big = GeometricTreeLearner(max_terms=None, random_state=0)(cls.heart)
        cls.big.instances = cls.heart


class TestOpeningZoom(ViewerTest):
    def test_opens_readable_at_the_root(self):
        w = self.widget
        self.assertGreater(self.big.node_count(), 40)
        self.send_signal(w.Inputs.tree, self.big)
        self.assertGreaterEqual(w.view.text_pixels(), MIN_TEXT_PIXELS - 1e-9)
        root = w.items[0].sceneBoundingRect()
        self.assertTrue(self.visible_rect().contains(root))
        self.assertLessEqual(self.visible_rect().top(), w.scene.sceneRect().top() + 3)
        # the zoom slider follows the view and moves it
        self.assertEqual(w.zoom_controls.slider.value(), int(round(w.view.zoom * 100)))
        w.zoom_controls.slider.setValue(150)
        self.assertAlmostEqual(w.view.zoom, 1.5)
        w.fit_to_width()
        self.assertLessEqual(w.scene.sceneRect().width() * w.view.zoom,
                             w.view.viewport().width())
        self.assertEqual(w.zoom_controls.slider.value(), int(round(w.view.zoom * 100)))

    def test_target_class_and_edge_widths(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        self.assertEqual([w.target_combo.itemText(i) for i in range(w.target_combo.count())],
                         ["None", "0", "1"])
        w.target_combo.setCurrentIndex(2)
        w.target_combo.activated.emit(2)
        self.assertEqual(w.target_class, "1")
        for item in w.items.values():
            self.assertEqual(item.fill, node_fill(item.value, item.colors, 0, 1))
        n = w.view_tree.train_value.sum(axis=1)
        # relative to the parent (Orange's default): the wider, the more instances
        kid_a, kid_b = w.view_tree.children[0]
        widths = [w.scene.edges[k].pen().widthF() for k in (kid_a, kid_b)]
        self.assertEqual(widths[0] > widths[1], n[kid_a] > n[kid_b])
        self.assertAlmostEqual(widths[0] - 0.6, 8 * n[kid_a] / n[0])
        w.controls.edge_width.setCurrentIndex(EDGE_FIXED)
        w.controls.edge_width.activated.emit(EDGE_FIXED)
        self.assertEqual(len({e.pen().widthF() for e in w.scene.edges.values()}), 1)
        w.edge_width = EDGE_RELATIVE_TO_ROOT
        w._edge_width_changed()
        w.scene.expand_all()  # the first leaf drawn, whatever levels the window opened with
        leaf = w.view_tree.leaves()[0]
        self.assertAlmostEqual(w.scene.edges[leaf].pen().widthF() - 0.6,
                               8 * n[leaf] / n[0])
        # a new tree with the same classes keeps the target class
        self.send_signal(w.Inputs.tree, GeometricTreeLearner(max_depth=2)(self.heart))
        self.assertEqual(w.target_combo.currentIndex(), 2)


class TestMultiwayNodeCount(ViewerTest):
    def test_viewer_nodes_are_the_models(self):
        data = eight_classes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = ODTSVMLearner(random_state=0)(data)
        model.instances = data
        core = model.tree_
        multiway = [s for s in core.splits if s is not None and s.n_children > 2]
        self.assertTrue(multiway)
        self.assertGreater(core.node_count, model.node_count())  # empty branches
        w = self.widget
        self.send_signal(w.Inputs.tree, model)
        w.scene.expand_all()  # it opens with its top levels
        tree = w.view_tree
        self.assertEqual(tree.node_count, model.node_count())
        self.assertEqual(len(tree.leaves()), model.leaf_count())
        self.assertEqual(len(w.items), model.node_count())
        self.assertIn(f"{model.node_count()} nodes, {model.leaf_count()} leaves",
                      w.info_label.text())
        # no empty boxes; the same nodes as the Orange model, in its order
        self.assertTrue((tree.train_value.sum(axis=1) > 0).all())
        orange_nodes = list(model._nodes())
        self.assertEqual(list(range(tree.node_count)),
                         sorted(node.node_id for node in orange_nodes))
        for node in orange_nodes:  # numbered alike
            np.testing.assert_array_equal(w.counts.reached[node.node_id], node.subset)
        # every training row stops at a drawn leaf
        self.assertTrue(np.isin(w.counts.stop, tree.leaves()).all())
        # no rounding noise in the boxes: no term prints as 0
        for node in range(tree.node_count):
            self.assertNotRegex(w.node_texts(node)[1], r"(?<![\d.])0·")

    def test_a_row_taking_an_empty_branch_stops_at_its_parent(self):
        data = eight_classes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = ODTSVMLearner(random_state=0)(data)
        tree = TreeAdapter.from_model(model)
        core = model.tree_
        empty = [c for c in range(core.node_count) if core.value[c].sum() == 0]
        self.assertTrue(empty)
        # a row the core tree routes into an empty branch stops at that branch's parent
        # (rows anywhere in the data's range: some take the branches no training row took)
        rng = np.random.default_rng(0)
        X = rng.uniform(np.nanmin(data.X, axis=0), np.nanmax(data.X, axis=0),
                        (5000, data.X.shape[1]))
        _, core_stop = core.route(X)
        _, stop = tree.route(X)
        into_empty = np.isin(core_stop, empty)
        self.assertTrue(into_empty.any())
        np.testing.assert_array_equal(
            [tree.display.core_node(node) for node in stop[into_empty]],
            core.parent[core_stop[into_empty]])
        np.testing.assert_array_equal(
            [tree.display.core_node(node) for node in stop[~into_empty]],
            core_stop[~into_empty])


class TestTracing(ViewerTest):
    def test_tracing_changes_no_setting(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        w.scene.expand_all()  # it opens with its top levels
        w.limit_depth, w.max_depth = True, 2
        w._redraw()
        tree = w.view_tree
        deep = [leaf for leaf in tree.leaves() if tree.depth[leaf] > 3]
        reached = w.counts.stop
        row = int(np.flatnonzero(reached == deep[0])[0])
        w.scene.toggle_collapse(0)
        w.row_spin.setValue(row + 1)
        self.assertEqual((w.limit_depth, w.max_depth), (True, 2))
        self.assertEqual(w.scene.collapsed, {0})
        path = tree.path(deep[0])
        self.assertEqual(w.scene.traced, path)
        self.assertTrue(all(n in w.items for n in path))
        self.assertTrue(w.path_note.isVisibleTo(w))
        self.assertIn("below the depth limit (2)", w.path_note.text())
        self.assertIn("collapsed", w.path_note.text())
        # the end of the path is on screen
        self.assertTrue(self.visible_rect().intersects(w.items[path[-1]].sceneBoundingRect()))
        # words, from 1
        self.assertEqual(w.path_list.item(0).text(), f"Row {row + 1}:")
        self.assertTrue(w.path_list.item(1).text().startswith("Root: "))
        self.assertRegex(w.path_list.item(1).text(),
                         r" = −?[\d.]+ \(with [^)]*\), (at least|less than) −?[\d.]+ → "
                         r"(left|right)$")
        self.assertTrue(w.path_list.item(w.path_list.count() - 1).text().startswith(
            "Leaf: predicts "))
        # untraced: the settings' drawing again
        w.row_spin.setValue(0)
        self.assertEqual(list(w.items), [0])
        self.assertFalse(w.path_note.isVisibleTo(w))
        self.assertEqual(w.row_spin.specialValueText(), "(none)")
        self.assertEqual(w.row_spin.maximum(), len(self.heart))

    def test_data_subset_highlights_its_paths(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        self.assertIsNone(w.scene.subset_n)
        subset = self.heart[[3, 10]]
        self.send_signal(w.Inputs.data, subset)
        tree = w.view_tree
        passed = set()
        for leaf in w.counts.stop:
            passed |= set(tree.path(int(leaf)))
        for node, item in w.items.items():
            self.assertEqual(item.opacity() == 1, node in passed, node)
            if node:
                color = w.scene.edges[node].pen().color()
                self.assertEqual(color == SUBSET_COLOR, node in passed)
        self.assertEqual(w.items[1].opacity() if 1 not in passed else FADED_OPACITY,
                         FADED_OPACITY)
        # a traced row's path is drawn over it
        w.row_spin.setValue(1)
        kid = w.scene.traced[1]
        self.assertEqual(w.scene.edges[kid].pen().color(), PATH_COLOR)
        self.send_signal(w.Inputs.data, None)
        self.assertIsNone(w.scene.subset_n)


class TestDrawingDetails(ViewerTest):
    def test_edge_labels_beside_their_edges(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        self.assertTrue(w.scene.labels)
        for kid, label in w.scene.labels.items():
            edge = w.scene.edges[kid]
            rect = label.mapRectToParent(label.boundingRect())
            self.assertFalse(edge.shape().intersects(rect), w.view_tree.edge_labels[kid])

    def test_bars_have_names(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        item = w.items[0]
        names = w.view_tree.coefficients(0).names
        self.assertEqual(item.bar_names, names[:w.max_terms])
        self.assertEqual(item.n_bars(), w.max_terms)
        bar, label = item.bar_rects(item.bars_rect())[0]
        tooltip = item.bar_tooltip(bar.center())
        self.assertTrue(tooltip.startswith(f"{names[0]}: "))
        self.assertIsNone(item.bar_tooltip(item.boundingRect().topLeft()))

    def test_terms_shown_as_the_control_says(self):
        """"Terms shown per rule: k" shows at most k terms of every hyperplane, in the
        boxes and the rules, "+ n more" counting the rest (also a single one)."""
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        tree = w.view_tree
        sizes = {len(tree.coefficients(node).names) for node in range(tree.node_count)
                 if not tree.is_leaf(node) and tree.coefficients(node) is not None}
        hyperplanes = 0
        # also one term fewer than a hyperplane has: "+ 1 more", not the term itself
        for max_terms in sorted({1, 2, 3, 5} | {size - 1 for size in sizes if size > 1}):
            w.max_terms = max_terms
            w._texts_changed()
            texts = [w.node_texts(node)[1] for node in range(w.view_tree.node_count)]
            texts += w.rules_text().split(" AND ")
            for text in texts:
                if "·" not in text:
                    continue
                hyperplanes += 1
                lhs = re.split(" [<≥] ", text)[0].split("IF ")[-1]
                pieces = re.split(" (?=[+−] )", lhs)
                more = [p for p in pieces if re.fullmatch(r"\+ \d+ more", p)]
                self.assertLessEqual(len(pieces) - len(more), max_terms, text)
                if more:
                    self.assertEqual(len(pieces) - 1, max_terms, text)
        self.assertGreater(hyperplanes, 0)


class TestSavedSettings(ViewerTest):
    def test_version_1_settings_keep_their_values(self):
        stored = {"max_terms": 5, "coefficients": 1, "full_rules": True,
                  "limit_depth": True, "max_depth": 3, "node_width": 300, "color_by": 1,
                  "__version__": 1}
        w = self.create_widget(OWObliqueTreeViewer, stored_settings=stored)
        self.assertEqual((w.max_terms, w.coefficients, w.full_rules, w.limit_depth,
                          w.max_depth, w.node_width, w.color_by),
                         (5, 1, True, True, 3, 300, 1))
        self.assertEqual((w.target_class, w.edge_width), ("", 2))
        self.assertEqual(OWObliqueTreeViewer.settings_version, 2)

    def test_new_settings_are_saved(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        w.target_combo.setCurrentIndex(1)
        w.target_combo.activated.emit(1)
        w.edge_width = EDGE_FIXED
        stored = w.settingsHandler.pack_data(w)
        restored = self.create_widget(OWObliqueTreeViewer, stored_settings=stored)
        self.assertEqual((restored.target_class, restored.edge_width), ("0", EDGE_FIXED))
        self.send_signal(restored.Inputs.tree, self.big, widget=restored)
        self.assertEqual(restored.target_combo.currentIndex(), 1)
