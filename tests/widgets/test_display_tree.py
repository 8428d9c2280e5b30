"""One display tree: the Orange model's nodes and the Oblique Tree Viewer's nodes are made
from the same :class:`~orangecontrib.oblique.presentation.DisplayTree` (same nodes, texts,
counts), and its texts over standardised attributes hold for training rows with missing
values."""
import unittest

import numpy as np

from Orange.data import Table

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner, ODTSVMLearner
from orangecontrib.oblique.presentation import DisplayTree
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter


def model_nodes(model):
    """The model's reachable nodes by core id."""
    return {node.node_id: node for node in model._nodes()}


class TestOneDisplayTree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.models = [
            GeometricTreeLearner(random_state=0)(Table("iris")),
            OC1Learner(random_state=0)(Table("heart_disease")),
            ODTSVMLearner(random_state=0)(Table("zoo")),  # nominal and multiway
            ODTSVMLearner(random_state=0)(Table("heart_disease")),  # dropped branches
        ]

    def test_model_and_viewer_show_the_nodes_of_one_display_tree(self):
        for model in self.models:
            display = DisplayTree.of_model(model)
            adapter = TreeAdapter.from_model(model)
            nodes = model_nodes(model)
            conditions, edge_labels = display.branch_texts()
            self.assertEqual(sorted(nodes), display.core_ids.tolist())
            self.assertEqual(adapter.node_count, len(nodes))
            self.assertEqual(adapter.conditions, conditions)
            self.assertEqual(adapter.edge_labels, edge_labels)
            for shown, core in enumerate(display.core_ids):
                node = nodes[core]
                self.assertEqual(adapter.core_node(shown), core)
                np.testing.assert_array_equal(adapter.train_value[shown], node.value)
                np.testing.assert_array_equal(display.value[core], node.value)
                self.assertEqual(adapter.conditions[shown], node.condition)
                if core:
                    self.assertEqual(adapter.edge_labels[shown], node.description)
                kids = [child.node_id for child in node.children if child is not None]
                self.assertEqual([adapter.core_node(c) for c in adapter.children[shown]],
                                 kids)
                label = display.label(core)
                self.assertEqual(None if label is None else label.text,
                                 None if node.attr is None else node.attr.text)

    def test_a_branch_no_training_row_took_is_dropped_from_both(self):
        model = self.models[3]
        display = DisplayTree.of_model(model)
        dropped = np.flatnonzero(~display.kept)
        self.assertTrue(dropped.size)  # C4.5's nominal tests: values no row at a node has
        nodes = model_nodes(model)
        for core in dropped:
            self.assertNotIn(core, nodes)
            parent = int(model.tree_.parent[core])
            self.assertEqual(display.shown[core], display.shown[parent])


class TestStandardisedTextsWithMissingValues(unittest.TestCase):
    def test_per_sd_texts_of_a_tree_fitted_on_rows_with_missing_values(self):
        data = Table("heart_disease")  # missing values in several attributes
        model = ODTSVMLearner(random_state=0)(data)
        adapter = TreeAdapter.from_model(model)
        adapter.set_units(True)
        self.assertTrue(adapter.per_sd)
        texts = adapter.texts
        rows = DisplayTree.of_model(model).rows
        self.assertTrue(np.isnan(rows).any())
        for core in adapter.core_ids:
            split = model.tree_.splits[core]
            if split is None or not split.conditions()[0].has_units:
                continue
            # the printed condition over z-scores routes every training row whose values
            # the split needs as the model does
            expected = split.route_with_missing(rows)
            known = expected >= 0
            z_split = texts.standardised(split)
            routed = z_split.printed().route_with_missing(texts.z_scores(rows[known]))
            np.testing.assert_array_equal(routed, expected[known])
        self.assertTrue(any("z(" in condition for condition in adapter.conditions))


if __name__ == "__main__":
    unittest.main()
