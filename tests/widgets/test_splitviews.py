"""The split explorer and the partition view: their numpy geometry and their Qt widgets."""
import unittest

import numpy as np

from AnyQt.QtGui import QColor
# the module, not its classes: pytest would collect an imported GuiTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.core import GeometricTreeClassifier, ObliqueTree, Split
from orangecontrib.oblique.core.datasets import checkerboard_4x4
from orangecontrib.oblique.core.geometry import (
    boundary_segments, explorer_coordinates, explorer_hyperplane, grid_centres, node_regions,
    partition_image)
from orangecontrib.oblique.widgets.splitviews import PartitionView, SplitExplorer

COLORS = [QColor(220, 60, 60), (40, 110, 220)]


def fitted_4x4():
    X, y = checkerboard_4x4(n_samples=600, random_state=0)
    estimator = GeometricTreeClassifier().fit(X, y)
    return estimator, X, np.searchsorted(estimator.classes_, y).astype(float)


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
                         "signed distance to the hyperplane")
        self.assertEqual(self.view.plot.getAxis("left").labelText,
                         "largest remaining spread")

    def test_multiway_branch_labels_use_class_names(self):
        from sklearn.datasets import make_blobs
        from orangecontrib.oblique.core import ODTSVMClassifier
        X, y = make_blobs(300, n_features=4, centers=3, random_state=0)
        tree = ODTSVMClassifier(axis_parallel_tests=False, random_state=0).fit(X, y).tree_
        self.assertEqual(tree.splits[0].rule, "argmax")
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
        self.assertIn("leaf", self.view.message)
        self.assertEqual(self.view.scatter_items, [])
        nominal = ObliqueTree(2, 2, [Split.equality(0, 1.0, 2), None, None],
                              [(1, 2), (), ()], [-1, 0, 0], [[1, 1], [1, 0], [0, 1]],
                              [2, 1, 1])
        self.view.set_node(nominal, 0, np.array([[1.0, 0], [2, 0]]), np.array([0, 1.0]),
                           COLORS)
        self.assertIn("nominal", self.view.message)

    def test_clear(self):
        self.view.set_node(self.estimator.tree_, 0, self.X, self.y, COLORS)
        self.view.clear()
        self.assertEqual(self.view.scatter_items, [])
        self.assertEqual(self.view.message, "")
        self.assertFalse([item for item in self.view.plot.items])


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

    def test_not_two_features(self):
        X = np.zeros((5, 3))
        self.view.set_model(self.estimator.tree_, X, np.zeros(5), COLORS)
        self.assertIn("exactly two features", self.view.message)
        self.assertIsNone(self.view.image_item)
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS)
        self.assertEqual(self.view.message, "")

    def test_clear(self):
        self.view.set_model(self.estimator.tree_, self.X, self.y, COLORS)
        self.view.clear()
        self.assertIsNone(self.view.image_item)
        self.assertEqual(self.view.segments, [])
        self.assertFalse([item for item in self.view.plot.items])
        self.view.plot.setRange(xRange=(0, 1), yRange=(0, 1))  # no stale redraw
