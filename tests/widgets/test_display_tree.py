"""One display tree: the Orange model's nodes and the Oblique Tree Viewer's nodes are made
from the same :class:`~orangecontrib.oblique.presentation.DisplayTree` (same nodes, texts,
counts), and its texts over standardised attributes hold for training rows with missing
values."""
import pickle
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
        """The model made its display tree once; the viewer's adapter is a view of that
        very object, and the Orange nodes are numbered as the viewer numbers them."""
        for model in self.models:
            display = model.display
            adapter = TreeAdapter.from_model(model)
            self.assertIs(adapter.display, display)
            self.assertIs(DisplayTree.of_model(model), display)
            nodes = model_nodes(model)
            conditions, edge_labels = display.branch_texts()
            self.assertEqual(sorted(nodes), list(range(display.node_count)))
            self.assertEqual(adapter.node_count, len(nodes))
            self.assertEqual(adapter.conditions, conditions)
            self.assertEqual(adapter.edge_labels, edge_labels)
            for shown in range(display.node_count):
                node = nodes[shown]
                np.testing.assert_array_equal(adapter.train_value[shown], node.value)
                np.testing.assert_array_equal(display.value[shown], node.value)
                self.assertEqual(adapter.conditions[shown], node.condition)
                if shown:
                    self.assertEqual(adapter.edge_labels[shown], node.description)
                kids = [child.node_id for child in node.children if child is not None]
                self.assertEqual(list(adapter.children[shown]), kids)
                self.assertEqual([None if c is None else c.node_id for c in node.children],
                                 display.branches(shown))
                label = display.label(shown)
                self.assertEqual(None if label is None else label.text,
                                 None if node.attr is None else node.attr.text)

    def test_the_display_tree_is_made_once_and_pickled_with_the_model(self):
        model = self.models[3]
        model.instances = Table("heart_disease")[:5]  # as a learner widget replaces it
        adapter = TreeAdapter.from_model(model)
        self.assertIs(adapter.display, model.display)
        self.assertEqual(len(adapter.display.rows), 303)  # the fit's rows, not instances
        copy = pickle.loads(pickle.dumps(model))
        self.assertEqual(TreeAdapter.from_model(copy).conditions, adapter.conditions)

    def test_a_branch_no_training_row_took_is_dropped_from_both(self):
        model = self.models[3]
        display = model.display
        dropped = [(node, position) for node in range(display.node_count)
                   for position, child in enumerate(display.branches(node))
                   if child is None]
        self.assertTrue(dropped)  # C4.5's nominal tests: values no row at a node has
        nodes = model_nodes(model)
        for node, position in dropped:
            self.assertIsNone(nodes[node].children[position])


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
        for node in range(adapter.node_count):
            split = adapter.display.split(node)
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


class TestTrainingCountsFromTheFit(unittest.TestCase):
    def test_the_viewer_counts_the_training_rows_as_the_fit_routed_them(self):
        """Without a Data input the viewer shows the counts of the fit's own routing of
        the training rows: no preprocessing is replayed on ``model.instances``."""
        data = Table("heart_disease")
        model = ODTSVMLearner(random_state=0)(data)
        model.instances = data  # as the learner widget sets it: the raw table
        adapter = TreeAdapter.from_model(model)
        table, counts, mismatch = adapter.counted(None)
        self.assertIs(table, data)
        self.assertIsNone(mismatch)
        again = adapter.recount(data)
        np.testing.assert_allclose(counts.value, again.value)
        np.testing.assert_allclose(counts.n, again.n)
        for mine, theirs, node in zip(counts.reached, again.reached, model._nodes()):
            np.testing.assert_array_equal(mine, theirs)
        # rows of the same number that cannot be put in the model's domain: still the
        # fit's counts, since nothing is transformed
        model.instances = Table("iris")[:len(data)] if len(Table("iris")) >= len(data) \
            else Table.concatenate([Table("iris")] * 3)[:len(data)]
        table, counts, _ = adapter.counted(None)
        np.testing.assert_allclose(counts.value, again.value)
