"""The split explorer and the partition view: their numpy geometry and their Qt widgets."""
import unittest

import numpy as np

from AnyQt.QtGui import QColor
# the module, not its classes: pytest would collect an imported GuiTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.core import GeometricTreeClassifier, ObliqueTree, Split
from orangecontrib.oblique.core.datasets import checkerboard_4x4
from orangecontrib.oblique.core.tree.geometry import (
                                                      boundary_segments, explorer_coordinates, explorer_hyperplane, grid_centres, held_values,
                                                      node_regions, partition_image)
from orangecontrib.oblique.core.tree.rules import format_number
from orangecontrib.oblique.widgets.splitviews import (MAX_HELD, SELECT_NODE, PartitionView,
                                                      SplitExplorer)

COLORS = [QColor(220, 60, 60), (40, 110, 220)]


def fitted_4x4():
    X, y = checkerboard_4x4(n_samples=600, random_state=0)
    estimator = GeometricTreeClassifier().fit(X, y)
    return estimator, X, np.searchsorted(estimator.classes_, y).astype(float)


def fitted_5d():
    """A Geometric Decision Tree over five features (oblique splits)."""
    from sklearn.datasets import make_classification
    X, y = make_classification(400, n_features=5, n_informative=4, n_redundant=0,
                               random_state=3)
    return GeometricTreeClassifier().fit(X, y), X, y.astype(float)


def stump(weights, bias):
    """A tree of one hyperplane split with a class-0 left leaf and a class-1 right leaf."""
    return ObliqueTree(len(weights), 2, [Split.hyperplane(weights, bias), None, None],
                       [(1, 2), (), ()], [-1, 0, 0], [[3, 3], [3, 0], [0, 3]], [6, 3, 3])


class TestExplorerCoordinates(unittest.TestCase):
    def test_first_coordinate_is_signed_distance(self):
        split = Split.hyperplane([3.0, 4.0, 0.0], -5.0)      # ‖w‖ = 5
        X = np.array([[1.0, 0.5, 7.0], [0.0, 0.0, 0.0], [3.0, 4.0, -1.0]])
        np.testing.assert_allclose(explorer_coordinates(split, X)[:, 0],
                                   [0.0, -1.0, (9 + 16 - 5) / 5])

    def test_second_coordinate_is_largest_spread_orthogonal_to_normal(self):
        rng = np.random.default_rng(0)
        # The largest spread is along x1, which is the normal: it must be removed; of what
        # is left, x3 (std 5) dominates x2 (std 1).
        X = rng.normal(size=(500, 3)) * [20.0, 1.0, 5.0]
        split = Split.hyperplane([2.0, 0.0, 0.0], 1.0)
        second = explorer_coordinates(split, X)[:, 1]
        np.testing.assert_allclose(second, X[:, 2] - X[:, 2].mean(), atol=0.05 * 5)
        self.assertGreater(abs(np.corrcoef(second, X[:, 2])[0, 1]), 0.999)
        # orthogonal to the normal: the coordinate does not change along the normal
        shifted = X + np.array([10.0, 0.0, 0.0])
        np.testing.assert_allclose(explorer_coordinates(split, shifted)[:, 1], second)

    def test_oblique_plane(self):
        rng = np.random.default_rng(1)
        normal = np.array([1.0, 1.0]) / np.sqrt(2)
        along = np.array([1.0, -1.0]) / np.sqrt(2)
        X = np.outer(rng.normal(size=200), normal) + np.outer(rng.normal(size=200) * 3,
                                                              along)
        coordinates = explorer_coordinates(Split.hyperplane([1.0, 1.0], 0.0), X)
        np.testing.assert_allclose(coordinates[:, 0], X @ normal)
        np.testing.assert_allclose(np.abs(coordinates[:, 1]),
                                   np.abs((X - X.mean(axis=0)) @ along))

    def test_multiway_uses_boundary_of_busiest_branches(self):
        split = Split("argmax", np.eye(3), np.zeros(3))
        X = np.array([[2.0, 0, 0]] * 5 + [[0, 2.0, 0]] * 3 + [[0, 0, 2.0]])
        w, b, left, right = explorer_hyperplane(split, X)
        self.assertEqual((left, right), (0, 1))
        np.testing.assert_allclose(w, [-1, 1, 0])
        np.testing.assert_allclose(explorer_coordinates(split, X)[:, 0][[0, 5]],
                                   [-np.sqrt(2), np.sqrt(2)])

    def test_equality_has_no_hyperplane(self):
        with self.assertRaises(ValueError):
            explorer_coordinates(Split.equality(0, 1.0, 2), np.zeros((3, 2)))

    def test_one_feature_or_one_row(self):
        split = Split.hyperplane([2.0], -2.0)
        np.testing.assert_allclose(explorer_coordinates(split, np.array([[0.0], [3.0]])),
                                   [[-1, 0], [2, 0]])
        split = Split.hyperplane([1.0, 0.0], 0.0)
        np.testing.assert_allclose(explorer_coordinates(split, np.array([[1.0, 5.0]])),
                                   [[1, 0]])


class TestPartitionGeometry(unittest.TestCase):
    def test_partition_image_agrees_with_predict(self):
        estimator, _, _ = fitted_4x4()
        x_range, y_range = (-2.5, 4.0), (-0.5, 5.5)
        image = partition_image(estimator.tree_, x_range, y_range, (40, 30))
        self.assertEqual(image.shape, (30, 40))
        xs, ys = grid_centres(x_range, y_range, (40, 30))
        gx, gy = np.meshgrid(xs, ys)
        predicted = estimator.predict(np.column_stack([gx.ravel(), gy.ravel()]))
        np.testing.assert_array_equal(estimator.classes_[image.ravel()], predicted)

    def test_partition_image_of_stump(self):
        image = partition_image(stump([1.0, 0.0], -0.5), (0, 1), (0, 1), 4)
        np.testing.assert_array_equal(image, [[0, 0, 1, 1]] * 4)
        # row 0 is the bottom: y grows with the row index
        image = partition_image(stump([0.0, 1.0], -0.6), (0, 1), (0, 1), 4)
        np.testing.assert_array_equal(image[:, 0], [0, 0, 1, 1])

    def test_partition_image_accepts_probability_function(self):
        image = partition_image(lambda P: np.column_stack([P[:, 0], 1 - P[:, 0]]),
                                (0, 1), (0, 1), 2)
        np.testing.assert_array_equal(image, [[1, 0], [1, 0]])

    def test_regions_and_segments(self):
        estimator, _, _ = fitted_4x4()
        tree = estimator.tree_
        box = (-3.0, 5.0), (-1.0, 6.0)
        regions = node_regions(tree, *box)
        rng = np.random.default_rng(0)
        points = rng.uniform([-3, -1], [5, 6], size=(300, 2))
        leaves = tree.apply(points)
        for point, leaf in zip(points, leaves):
            polygon = regions[leaf]
            # inside the convex polygon (counter-clockwise): left of every edge
            edges = np.roll(polygon, -1, axis=0) - polygon
            cross = edges[:, 0] * (point[1] - polygon[:, 1]) \
                - edges[:, 1] * (point[0] - polygon[:, 0])
            self.assertTrue(np.all(cross >= -1e-9))
        for node, segment in boundary_segments(tree, *box):
            split = tree.splits[node]
            np.testing.assert_allclose(split.values(segment)[:, 0], 0, atol=1e-9)
        self.assertEqual(sum(node == 0 for node, _ in boundary_segments(tree, *box)), 1)

    def test_segment_of_stump_is_clipped_to_box(self):
        (node, segment), = boundary_segments(stump([1.0, -1.0], 0.0), (0, 2), (0, 1))
        self.assertEqual(node, 0)
        np.testing.assert_allclose(sorted(map(tuple, segment)), [(0, 0), (1, 1)])


class TestSplitExplorer(base.GuiTest):
    def setUp(self):
        self.view = SplitExplorer()
        self.estimator, self.X, self.y = fitted_4x4()

    def test_root_of_gdt(self):
        tree = self.estimator.tree_
        self.view.set_node(tree, 0, self.X, self.y, COLORS, ["a", "b"], ["−1", "+1"])
        self.assertEqual(self.view.message, "")
        self.assertEqual(sum(len(item.data) for item in self.view.scatter_items),
                         len(self.X))
        shown = np.concatenate([np.column_stack(item.getData())
                                for item in self.view.scatter_items])
        expected = explorer_coordinates(tree.splits[0], self.X)
        np.testing.assert_allclose(np.sort(shown[:, 0]), np.sort(expected[:, 0]))
        self.assertEqual(self.view.plot.getAxis("bottom").labelText,
                         "signed distance to the hyperplane (attributes' raw units)")
        self.assertEqual(self.view.plot.getAxis("left").labelText,
                         "largest remaining spread (attributes' raw units)")

    def test_multiway_branch_labels_use_class_names(self):
        from sklearn.datasets import make_blobs
        from orangecontrib.oblique.core import ODTSVMClassifier
        X, y = make_blobs(300, n_features=4, centers=3, random_state=0)
        tree = ODTSVMClassifier(axis_parallel_tests=False, multiclass="one_vs_rest",
                                random_state=0).fit(X, y).tree_
        self.assertEqual(tree.splits[0].kind.name, "argmax")
        names = ["setosa", "versicolor", "virginica"]
        colors = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
        self.view.set_node(tree, 0, X, y.astype(float), colors, list("abcd"), names)
        texts = [item.toPlainText() for item in self.view.plot.items
                 if hasattr(item, "toPlainText")]
        labels = [text for text in texts if "largest score: " in text]
        self.assertEqual(len(labels), 2, texts)
        for text in labels:
            name = text.split("largest score: ")[1].strip(" ▶")
            self.assertIn(name, names)

    def test_inner_node_with_unknown_classes(self):
        tree = self.estimator.tree_
        node = tree.children[0][1]
        rows = tree.decision_path(self.X)[:, node].toarray().ravel().astype(bool)
        y = self.y[rows].copy()
        y[:3] = np.nan
        self.view.set_node(tree, node, self.X[rows], y, COLORS)
        self.assertEqual(sum(len(item.data) for item in self.view.scatter_items),
                         rows.sum())
        self.assertEqual(len(self.view.scatter_items), 3)

    def test_oc1_node(self):
        from orangecontrib.oblique.core import OC1Classifier
        X, y = checkerboard_4x4(n_samples=300, random_state=1)
        tree = OC1Classifier(random_state=0).fit(X, y).tree_
        self.view.set_node(tree, 0, X, (y > 0).astype(float), COLORS)
        self.assertEqual(sum(len(item.data) for item in self.view.scatter_items), 300)

    def test_leaf_and_equality_show_text(self):
        tree = self.estimator.tree_
        leaf = tree.leaves()[0]
        self.view.set_node(tree, leaf, self.X[:2], self.y[:2], COLORS)
        self.assertIn("is a leaf", self.view.message)
        self.assertIn(SELECT_NODE, self.view.message)  # what to do instead
        self.assertTrue(self.view.message_label.isVisibleTo(self.view))
        self.assertEqual(self.view.scatter_items, [])
        nominal = ObliqueTree(2, 2, [Split.equality(0, 1.0, 2), None, None],
                              [(1, 2), (), ()], [-1, 0, 0], [[1, 1], [1, 0], [0, 1]],
                              [2, 1, 1])
        self.view.set_node(nominal, 0, np.array([[1.0, 0], [2, 0]]), np.array([0, 1.0]),
                           COLORS)
        self.assertIn("nominal", self.view.message)
        self.assertIn("Select a node that splits by a hyperplane", self.view.message)
        self.view.set_node(tree, 0, np.empty((0, 2)), np.empty(0), COLORS)
        self.assertIn("No rows", self.view.message)
        self.assertIn("select another node", self.view.message)

    def test_clear(self):
        self.view.set_node(self.estimator.tree_, 0, self.X, self.y, COLORS)
        self.view.clear()
        self.assertEqual(self.view.scatter_items, [])
        self.assertFalse([item for item in self.view.plot.items])

    def test_no_node_selected_says_what_to_do(self):
        self.assertEqual(SplitExplorer().message, SELECT_NODE)  # a new view
        self.view.set_node(self.estimator.tree_, 0, self.X, self.y, COLORS)
        self.assertEqual(self.view.message, "")
        self.view.clear()
        self.assertEqual(self.view.message, SELECT_NODE)
        self.assertTrue(self.view.message_label.isVisibleTo(self.view))
        self.assertFalse(self.view.plot_widget.isVisibleTo(self.view))

    def test_no_stale_title(self):
        tree = self.estimator.tree_
        self.view.set_node(tree, 0, self.X, self.y, COLORS)
        self.assertEqual(self.view.title, f"Node 0: {len(self.X)} rows")
        self.view.clear()
        self.assertEqual(self.view.title, "")
        self.assertEqual(self.view.plot.titleLabel.text, "")
        self.view.set_node(tree, 0, self.X, self.y, COLORS)
        self.view.set_node(tree, tree.leaves()[0], self.X[:2], self.y[:2], COLORS)
        self.assertEqual(self.view.plot.titleLabel.text, "")
        self.assertFalse(self.view.plot.titleLabel.isVisible())

    def test_more_than_two_features(self):
        estimator, X, y = fitted_5d()
        tree = estimator.tree_
        for node in (0, tree.children[0][0]):
            rows = tree.decision_path(X)[:, node].toarray().ravel().astype(bool)
            self.view.set_node(tree, node, X[rows], y[rows], COLORS, list("abcde"))
            self.assertEqual(self.view.message, "")
            shown = np.concatenate([np.column_stack(item.getData())
                                    for item in self.view.scatter_items])
            expected = explorer_coordinates(tree.splits[node], X[rows])
            np.testing.assert_allclose(np.sort(shown[:, 0]), np.sort(expected[:, 0]))
            np.testing.assert_allclose(np.sort(shown[:, 1]), np.sort(expected[:, 1]))
            self.assertGreater(np.ptp(shown[:, 1]), 0)
            # the branch labels: the node's most important term first, in short lines
            split = tree.splits[node]
            first = "abcde"[np.argmax(np.abs(split.weights[0]) * X[rows].std(axis=0))]
            labels = [item.toPlainText() for item in self.view.plot.items
                      if hasattr(item, "toPlainText")]
            self.assertEqual(len(labels), 2)
            for text in labels:
                self.assertRegex(text.split("\n")[0], rf"^(◀ )?−?[0-9.]+·{first}\b")
                self.assertTrue(all(len(line) <= 40 for line in text.split("\n")), text)


class TestPartitionView(base.GuiTest):
    def setUp(self):
        self.view = PartitionView()
        self.estimator, self.X, self.y = fitted_4x4()

    def test_checkerboard(self):
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS, ["a", "b"],
                            ["−1", "+1"])
        self.assertEqual(self.view.message, "")
        image = self.view.image_item.image
        self.assertEqual(image.shape, (300, 300, 3))
        # both light class colours appear
        self.assertEqual(len(np.unique(image.reshape(-1, 3), axis=0)), 2)
        self.assertTrue(self.view.segments)
        self.assertEqual(sum(len(item.data) for item in self.view.scatter_items),
                         len(self.X))
        self.assertEqual(self.view.plot.getAxis("bottom").labelText, "a")
        self.assertEqual(self.view.plot.getAxis("left").labelText, "b")

    def test_follows_view_range(self):
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS)
        self.view.plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
        rect = self.view.image_item.mapRectToParent(self.view.image_item.boundingRect())
        x_range, y_range = self.view.plot.getViewBox().viewRange()
        self.assertAlmostEqual(rect.left(), x_range[0])
        self.assertAlmostEqual(rect.right(), x_range[1])
        self.assertAlmostEqual(rect.top(), y_range[0])

    def test_model_with_classes(self):
        class Fitted:  # an Orange model or estimator: tree_ plus the class values it saw
            tree_ = stump([1.0, 0.0], 0.0)
            classes_ = np.array([0, 2])

        colors = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
        X = np.array([[-1.0, 0.0], [1.0, 1.0]])
        self.view.set_model(Fitted(), X, np.array([0.0, 2.0]), colors)
        image = self.view.image_item.image
        self.assertEqual({tuple(c) for c in image.reshape(-1, 3)},
                         {(255, 166, 166), (166, 166, 255)})

    def test_data_does_not_fit(self):
        X = np.zeros((5, 3))
        self.view.set_model(self.estimator.tree_, X, np.zeros(5), COLORS)
        self.assertEqual(self.view.message, "The tree uses 2 attributes, but the data has 3.")
        self.assertIsNone(self.view.image_item)
        self.assertFalse(self.view.controls.isVisibleTo(self.view))
        self.view.set_model(lambda P: np.ones((len(P), 2)), np.zeros((5, 1)), np.zeros(5),
                            COLORS)
        self.assertIn("at least two attributes", self.view.message)
        self.view.set_model(self.estimator.tree_, self.X[:0], self.y[:0], COLORS)
        self.assertIn("no rows", self.view.message)
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS)
        self.assertEqual(self.view.message, "")

    def test_two_features_hold_nothing(self):
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS, ["a", "b"])
        self.assertEqual(self.view.features, (0, 1))
        self.assertEqual(self.view.held_text, "")
        # swapping the axes transposes the picture
        self.view.x_combo.setCurrentIndex(1)
        self.assertEqual(self.view.features, (1, 0))
        self.assertEqual(self.view.plot.getAxis("bottom").labelText, "b")
        self.assertTrue(self.view.segments)

    def test_clear(self):
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS)
        self.view.clear()
        self.assertIsNone(self.view.image_item)
        self.assertEqual(self.view.segments, [])
        self.assertFalse([item for item in self.view.plot.items])
        self.view.plot.setRange(xRange=(0, 1), yRange=(0, 1))  # no stale redraw


class TestPartitionViewOfManyFeatures(base.GuiTest):
    """A tree over five features, drawn on the plane of two of them."""

    def setUp(self):
        self.view = PartitionView(resolution=60)
        self.estimator, self.X, self.y = fitted_5d()
        self.names = ["age", "chol", "thalach", "oldpeak", "trestbps"]

    def shown_points(self):
        return np.concatenate([np.column_stack(item.getData())
                               for item in self.view.scatter_items])

    def test_defaults_to_the_two_most_important(self):
        # an estimator: its feature_importances_
        importances = self.estimator.feature_importances_
        self.view.set_model(self.estimator, self.X, self.y, COLORS, self.names)
        self.assertEqual(self.view.message, "")
        expected = tuple(int(j) for j in np.argsort(-importances)[:2])
        self.assertEqual(self.view.features, expected)
        self.assertEqual(self.view.x_combo.currentText(), self.names[expected[0]])
        self.assertEqual(self.view.y_combo.currentText(), self.names[expected[1]])
        self.assertEqual(self.view.plot.getAxis("bottom").labelText, self.names[expected[0]])
        self.assertEqual(self.view.plot.getAxis("left").labelText, self.names[expected[1]])
        # a bare tree: the sum over its splits of |w_j|·std_j
        tree = self.estimator.tree_
        scores = sum(np.abs(split.weights[0]) * self.X.std(axis=0)
                     for split in tree.splits if split is not None)
        self.view.set_model(tree, self.X, self.y, COLORS, self.names)
        self.assertEqual(self.view.features, tuple(int(j) for j in np.argsort(-scores)[:2]))
        # a model without a tree: the first two
        self.view.set_model(lambda P: np.column_stack([P[:, 0] > 0, P[:, 0] <= 0]),
                            self.X, self.y, COLORS, self.names)
        self.assertEqual(self.view.features, (0, 1))
        self.assertEqual(self.view.message, "")

    def test_orange_model_importances(self):
        from Orange.data import Table
        from orangecontrib.oblique.learners import GeometricTreeLearner
        data = Table("iris")
        model = GeometricTreeLearner()(data)
        self.view.set_model(model, data.X, data.Y, [(255, 0, 0), (0, 255, 0), (0, 0, 255)],
                            [var.name for var in data.domain.attributes])
        order = np.argsort(-model.feature_importances, kind="stable")
        self.assertEqual(self.view.features, tuple(int(j) for j in order[:2]))
        self.assertEqual(self.view.message, "")

    def test_partition_of_the_plane(self):
        self.view.set_model(self.estimator, self.X, self.y, COLORS, self.names,
                            features=(3, 1))
        np.testing.assert_array_equal(self.view.fixed, held_values(self.X))
        np.testing.assert_allclose(np.sort(self.shown_points(), axis=0),
                                   np.sort(self.X[:, [3, 1]], axis=0))
        image = self.view.image_item.image
        x_range, y_range = self.view.plot.getViewBox().viewRange()
        classes = partition_image(self.estimator.tree_, x_range, y_range, 60,
                                  features=(3, 1), fixed=self.view.fixed)
        np.testing.assert_array_equal(image, _lighten(classes))
        self.assertEqual(len(np.unique(image.reshape(-1, 3), axis=0)), 2)
        self.assertTrue(self.view.segments)
        for node, segment in self.view.segments:
            rows = np.tile(self.view.fixed, (2, 1))
            rows[:, [3, 1]] = segment
            np.testing.assert_allclose(
                self.estimator.tree_.splits[node].values(rows)[:, 0], 0, atol=1e-9)

    def test_held_values_are_stated(self):
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS, self.names,
                            features=(0, 2))
        text = self.view.held_text
        self.assertTrue(text.startswith("Other attributes held at their medians"), text)
        medians = held_values(self.X)
        for j in (1, 3, 4):
            self.assertIn(f"{self.names[j]} = {format_number(medians[j])}", text)
        for j in (0, 2):
            self.assertNotIn(self.names[j] + " =", text)
        self.assertIn("chol = ", self.view.held_label.toolTip())

    def test_long_list_is_shortened(self):
        X = np.random.default_rng(0).normal(size=(60, MAX_HELD + 5))
        y = (X[:, 0] + X[:, 1] > 0).astype(float)
        estimator = GeometricTreeClassifier().fit(X, y)
        names = [f"attribute{j}" for j in range(X.shape[1])]
        self.view.set_model(estimator, X, y, COLORS, names)
        text = self.view.held_text
        self.assertEqual(text.count(" = "), MAX_HELD)
        self.assertTrue(text.endswith(", … (3 more)"), text)
        self.assertEqual(self.view.held_label.toolTip().count(" = "), X.shape[1] - 2)

    def test_choosing_the_axes(self):
        self.view.set_model(self.estimator, self.X, self.y, COLORS, self.names,
                            features=(0, 1))
        self.view.x_combo.setCurrentIndex(4)
        self.assertEqual(self.view.features, (4, 1))
        self.assertEqual(self.view.plot.getAxis("bottom").labelText, "trestbps")
        np.testing.assert_allclose(np.sort(self.shown_points(), axis=0),
                                   np.sort(self.X[:, [4, 1]], axis=0))
        self.assertIn("age = ", self.view.held_text)
        self.assertNotIn("trestbps = ", self.view.held_text)
        self.view.y_combo.setCurrentIndex(2)
        self.assertEqual(self.view.features, (4, 2))
        self.assertEqual(self.view.plot.getAxis("left").labelText, "thalach")
        # the same attribute on both axes: the two swap
        self.view.y_combo.setCurrentIndex(4)
        self.assertEqual(self.view.features, (2, 4))
        self.assertEqual(self.view.x_combo.currentIndex(), 2)
        # zooming redraws the slice, not the whole plane
        self.view.plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
        self.assertEqual(self.view.features, (2, 4))

    def test_clear_says_so(self):
        self.view.set_model(self.estimator, self.X, self.y, COLORS, self.names)
        self.view.clear()
        self.assertIn("No partition to show", self.view.message)
        self.assertFalse(self.view.controls.isVisibleTo(self.view))
        self.assertEqual(self.view.held_text, "")
        self.view.plot.setRange(xRange=(0, 1), yRange=(0, 1))  # no stale redraw
        self.view.x_combo.setCurrentIndex(3)  # no stale redraw either
        self.assertIsNone(self.view.image_item)


def _lighten(classes):
    """The partition view's colours of ``COLORS`` (white mixed in) for class indices."""
    rgb = [QColor(c).getRgb()[:3] if isinstance(c, QColor) else c for c in COLORS]
    return np.array([[round(v + (255 - v) * 0.65) for v in c] for c in rgb])[classes]
