"""The partition of a plane through feature space: a tree over more than two features
restricted to two plotted features, the others held (core/tree/geometry.py)."""
import unittest

import numpy as np
from sklearn.datasets import make_classification

from orangecontrib.oblique.core import GeometricTreeClassifier, ObliqueTree, Split
from orangecontrib.oblique.core.tree.geometry import (
                                                      boundary_segments, embed, grid_centres, held_values, node_regions, partition_image,
                                                      plane_slice, plotted_features, split_importances)


def stump(split):
    """A tree of one split with a class-0 first leaf and a class-1 second leaf."""
    return ObliqueTree(split.n_features, 2, [split, None, None], [(1, 2), (), ()],
                       [-1, 0, 0], [[3, 3], [3, 0], [0, 3]], [6, 3, 3])


def nominal_then_hyperplane():
    """Root: x3 = 1 → leaf (class 0); else x1 ≥ 0.5 (class 1 right, class 0 left)."""
    return ObliqueTree(3, 2, [Split.equality(2, 1.0, 3), None,
                              Split.axis_parallel(0, 0.5, 3), None, None],
                       [(1, 2), (), (3, 4), (), ()], [-1, 0, 0, 2, 2],
                       [[4, 2], [2, 0], [2, 2], [2, 0], [0, 2]], [6, 2, 4, 2, 2])


def inside(polygon, point):
    """Whether a point lies in a counter-clockwise convex polygon (on the edge counts)."""
    edges = np.roll(polygon, -1, axis=0) - polygon
    cross = edges[:, 0] * (point[1] - polygon[:, 1]) - edges[:, 1] * (point[0] - polygon[:, 0])
    return bool(np.all(cross >= -1e-9))


class TestPlaneSlice(unittest.TestCase):
    def test_boundary_line_of_a_known_hyperplane(self):
        # x1 + 2·x2 + 3·x3 − 6 = 0 with x2 held at 1: x1 + 3·x3 = 4 on the (x1, x3) plane
        tree = stump(Split.hyperplane([1.0, 2.0, 3.0], -6.0))
        fixed = np.array([np.nan, 1.0, np.nan])  # plotted values are ignored
        plane = plane_slice(tree, (0, 2), fixed)
        self.assertEqual(plane.n_features, 2)
        np.testing.assert_allclose(plane.splits[0].weights, [[1.0, 3.0]])
        np.testing.assert_allclose(plane.splits[0].bias, [-4.0])
        (node, segment), = boundary_segments(plane, (0, 4), (0, 2))
        self.assertEqual(node, 0)
        np.testing.assert_allclose(sorted(map(tuple, segment)), [(0, 4 / 3), (4, 0)])
        # the vertical axis may be the first feature too
        (_, segment), = boundary_segments(plane_slice(tree, (2, 0), fixed), (0, 2), (0, 4))
        np.testing.assert_allclose(sorted(map(tuple, segment)), [(0, 4), (4 / 3, 0)])

    def test_regions_equal_direct_routing(self):
        X, y = make_classification(400, n_features=5, n_informative=4, n_redundant=0,
                                   random_state=3)
        estimator = GeometricTreeClassifier().fit(X, y)
        tree = estimator.tree_
        self.assertGreater(len(tree.leaves()), 2)
        features, fixed = (3, 1), held_values(X)
        x_range, y_range = (-4.0, 4.0), (-3.0, 5.0)
        image = partition_image(tree, x_range, y_range, (50, 40), features=features,
                                fixed=fixed)
        xs, ys = grid_centres(x_range, y_range, (50, 40))
        gx, gy = np.meshgrid(xs, ys)
        rows = embed(np.column_stack([gx.ravel(), gy.ravel()]), features, fixed)
        np.testing.assert_array_equal(rows[:, [0, 2, 4]],
                                      np.broadcast_to(fixed[[0, 2, 4]], (len(rows), 3)))
        np.testing.assert_array_equal(estimator.classes_[image.ravel()],
                                      estimator.predict(rows))
        # every point of the plane lies in the region of the leaf the tree sends it to
        plane = plane_slice(tree, features, fixed)
        regions = node_regions(plane, x_range, y_range)
        rng = np.random.default_rng(0)
        points = rng.uniform([-4, -3], [4, 5], size=(300, 2))
        leaves = tree.apply(embed(points, features, fixed))
        np.testing.assert_array_equal(plane.apply(points), leaves)
        for point, leaf in zip(points, leaves):
            self.assertTrue(inside(regions[leaf], point))
        segments = boundary_segments(plane, x_range, y_range)
        self.assertGreater(len(segments), 3)
        self.assertEqual(len(np.unique(image)), 2)
        for node, segment in segments:
            values = tree.splits[node].values(embed(segment, features, fixed))
            np.testing.assert_allclose(values[:, 0], 0, atol=1e-9)

    def test_nominal_test_of_a_held_attribute_is_a_constant_decision(self):
        tree = nominal_then_hyperplane()
        box = (0, 1), (0, 1)
        # x3 held at 1: every point goes to the first leaf; nothing is cut
        regions = node_regions(plane_slice(tree, (0, 1), [0, 0, 1.0]), *box)
        self.assertEqual(len(regions[1]), 4)
        self.assertEqual([len(regions[n]) for n in (2, 3, 4)], [0, 0, 0])
        self.assertEqual(boundary_segments(plane_slice(tree, (0, 1), [0, 0, 1.0]), *box), [])
        np.testing.assert_array_equal(
            partition_image(tree, *box, 4, features=(0, 1), fixed=[0, 0, 1.0]), 0)
        # x3 held at 0: every point goes on to the second child, cut at x1 = 0.5
        plane = plane_slice(tree, (0, 1), [0, 0, 0.0])
        regions = node_regions(plane, *box)
        self.assertEqual(len(regions[1]), 0)
        self.assertEqual(len(regions[2]), 4)
        (node, segment), = boundary_segments(plane, *box)
        self.assertEqual(node, 2)
        np.testing.assert_allclose(segment[:, 0], 0.5)
        np.testing.assert_array_equal(
            partition_image(tree, *box, 4, features=(0, 1), fixed=[0, 0, 0.0]),
            [[0, 0, 1, 1]] * 4)

    def test_nominal_test_of_a_plotted_attribute_does_not_cut(self):
        plane = plane_slice(nominal_then_hyperplane(), (2, 0), [0, 7.0, 0])
        regions = node_regions(plane, (0, 2), (0, 1))
        np.testing.assert_allclose(regions[1], regions[0])
        np.testing.assert_allclose(regions[2], regions[0])
        (node, segment), = boundary_segments(plane, (0, 2), (0, 1))
        self.assertEqual(node, 2)
        np.testing.assert_allclose(segment[:, 1], 0.5)  # x1 is the vertical axis

    def test_needs_two_different_features(self):
        with self.assertRaises(ValueError):
            plane_slice(nominal_then_hyperplane(), (1, 1), np.zeros(3))


class TestHeldValuesAndImportances(unittest.TestCase):
    def test_medians_occur_in_the_data(self):
        X = np.array([[1.0, 0, 10], [2, 1, 30], [3, 0, 20], [4, 1, 40]])
        np.testing.assert_array_equal(held_values(X), [2, 0, 20])
        np.testing.assert_array_equal(held_values(X[:3]), [2, 0, 20])
        np.testing.assert_array_equal(held_values(np.empty((0, 3))), [0, 0, 0])

    def test_split_importances(self):
        X = np.array([[0.0, 0, 0], [2, 10, 4]])  # standard deviations 1, 5, 2
        tree = ObliqueTree(3, 2, [Split.hyperplane([1.0, 0.0, -3.0], 0.0), None,
                                  Split.hyperplane([0.5, 0.1, 0.0], 1.0), None, None],
                           [(1, 2), (), (3, 4), (), ()], [-1, 0, 0, 2, 2],
                           [[2, 2], [1, 0], [1, 2], [1, 0], [0, 2]], [4, 1, 3, 1, 2])
        np.testing.assert_allclose(split_importances(tree, X), [1.5, 0.5, 6.0])

    def test_plotted_features(self):
        self.assertEqual(plotted_features([0.1, 0.5, 0.0, 0.4], 4), (1, 3))
        self.assertEqual(plotted_features([0.0, 0.0, 0.7], 3), (2, 0))
        self.assertEqual(plotted_features(None, 5), (0, 1))
        self.assertEqual(plotted_features([0.0, 0.0, 0.0], 3), (0, 1))


if __name__ == "__main__":
    unittest.main()
