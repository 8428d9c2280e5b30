"""The Oblique Tree Viewer with real models of every learner and a hand-made tree."""
import os
import tempfile
from unittest.mock import patch

import numpy as np

from AnyQt.QtWidgets import QApplication

from Orange.classification import TreeLearner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.regression import TreeLearner as TreeRegressionLearner
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.utils.annotated_data import ANNOTATED_DATA_FEATURE_NAME

from orangecontrib.oblique import (GeometricTreeLearner, ObliqueTreeModel, OC1Learner,
                                   ODTSVMLearner)
from orangecontrib.oblique.core import ObliqueTree, Split
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer


class FittedTree:
    def __init__(self, tree, classes):
        self.tree_ = tree
        self.classes_ = np.asarray(classes)


def hand_model():
    """``0.82·petal length + 0.57·petal width + 0.1·sepal width ≥ 3.1``: left [3, 0],
    right [0, 2]; petal length varies most, sepal width least."""
    domain = Domain([ContinuousVariable("sepal width"), ContinuousVariable("petal length"),
                     ContinuousVariable("petal width")],
                    DiscreteVariable("iris", values=("setosa", "virginica")))
    X = np.array([[1.0, 1, 1], [1.1, 2, 1], [1.0, 4, 2], [1.1, 5, 3], [1.0, 0.5, 0.2]])
    data = Table.from_numpy(domain, X, np.array([0, 0, 1, 1, 0]))
    split = Split.hyperplane([0.1, 0.82, 0.57], -3.1)
    tree = ObliqueTree(3, 2, [split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                       [[3, 0], [3, 0], [0, 2]], [5, 3, 2])
    model = ObliqueTreeModel(data, FittedTree(tree, [0, 1]))
    model.instances = data
    return model, data


def fitted(learner, data):
    model = learner(data)
    model.instances = data
    return model


class TestOWObliqueTreeViewer(base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iris = Table("iris")
        cls.heart = Table("heart_disease")
        cls.gdt = fitted(GeometricTreeLearner(random_state=0), cls.heart)
        cls.oc1 = fitted(OC1Learner(random_state=0), cls.iris)
        cls.odt = fitted(ODTSVMLearner(axis_parallel_tests=False, clustering_split=False,
                                       multiclass="one_vs_rest",
                                       random_state=0), cls.iris)
        cls.orange = fitted(TreeLearner(), cls.heart)
        cls.hand, cls.hand_data = hand_model()

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)

    def all_models(self):
        return [(self.gdt, self.heart), (self.oc1, self.iris), (self.odt, self.iris),
                (self.orange, self.heart)]

    # ----- rule text -----
    def test_hand_rule_text(self):
        self.widget.max_terms = 1
        self.send_signal(self.widget.Inputs.tree, self.hand)
        w = self.widget
        title, text, tooltip = w.node_texts(0)
        self.assertEqual(text, "0.82·petal length + 2 more ≥ 3.1")
        # the tooltip shortens as the box does and says where the full rule is
        self.assertTrue(tooltip.startswith(text))
        self.assertIn('the Rules tab with "Show full rules" gives every term', tooltip)
        self.assertEqual(w.items[0].text, text)
        self.assertEqual([w.view_tree.edge_labels[c] for c in (1, 2)], ["< 3.1", "≥ 3.1"])
        self.assertEqual(w.node_texts(1)[:2], ("setosa", "100 % (3/3)"))
        self.assertEqual(w.node_texts(2)[:2], ("virginica", "100 % (2/2)"))
        coefficients = w.view_tree.coefficients(0)
        self.assertEqual(coefficients.names, ["petal length", "petal width", "sepal width"])
        np.testing.assert_allclose(coefficients.values, [0.82, 0.57, 0.1])  # raw, as the text
        w.controls.coefficients.setCurrentIndex(w.PER_SD)
        w.controls.coefficients.activated.emit(w.PER_SD)
        np.testing.assert_allclose(
            w.view_tree.coefficients(0).values,
            np.array([0.82, 0.57, 0.1]) * self.hand_data.X.std(axis=0)[[1, 2, 0]])
        w.controls.coefficients.setCurrentIndex(w.RAW)
        w.controls.coefficients.activated.emit(w.RAW)

        w.max_terms = 2  # as many terms as the control says, the third counted
        w._redraw()
        self.assertEqual(w.items[0].text,
                         "0.82·petal length + 0.57·petal width + 1 more ≥ 3.1")

    def test_every_learner_is_drawn(self):
        for model, _ in self.all_models():
            self.send_signal(self.widget.Inputs.tree, model)
            tree = self.widget.view_tree
            self.assertEqual(len(self.widget.items), tree.node_count)
            for node in range(tree.node_count):
                title, text, _ = self.widget.node_texts(node)
                self.assertTrue(title or text)
                self.assertNotIn("np.float", text)

    def test_multiway_and_orange_branch_labels(self):
        self.send_signal(self.widget.Inputs.tree, self.odt)
        tree = self.widget.view_tree
        root_labels = [tree.edge_labels[c] for c in tree.children[0]]
        self.assertEqual(sorted(root_labels), sorted(self.iris.domain.class_var.values))
        self.assertTrue(self.widget.node_texts(0)[1].startswith("largest score of:"))
        self.send_signal(self.widget.Inputs.tree, self.orange)
        tree = self.widget.view_tree
        self.assertEqual(self.widget.node_texts(0)[1], self.orange.root.attr.name)
        self.assertIn("=", tree.conditions[tree.children[0][0]])

    # ----- selection -----
    def test_selection_outputs_rows_of_nodes(self):
        for model, data in self.all_models():
            self.send_signal(self.widget.Inputs.tree, model)
            nodes = self.orange_nodes(model) if model is self.orange else {
                node.node_id: node for node in model._nodes()}
            chosen = [n for n in list(nodes)[1:4]]
            self.widget.select_nodes(set(chosen))
            expected = np.unique(np.concatenate([nodes[n].subset for n in chosen]))
            selected = self.get_output(self.widget.Outputs.selected_data)
            np.testing.assert_array_equal(selected.ids, data.ids[expected])
            annotated = self.get_output(self.widget.Outputs.annotated_data)
            column = annotated.get_column(ANNOTATED_DATA_FEATURE_NAME)
            np.testing.assert_array_equal(np.flatnonzero(column), expected)
        self.widget.select_nodes(set())
        self.assertIsNone(self.get_output(self.widget.Outputs.selected_data))

    def test_split_explorer_and_partition_get_the_rows(self):
        w = self.widget
        if w.split_explorer is None:
            self.skipTest("splitviews is not available")
        self.send_signal(w.Inputs.tree, self.oc1)
        with patch.object(w.split_explorer, "set_node") as set_node:
            w.select_nodes({2})
            (tree, node, X, y, *_), _ = set_node.call_args
            self.assertIs(tree, self.oc1.tree_)
            self.assertEqual(node, 2)
            rows = w.counts.reached[2]
            np.testing.assert_array_equal(X, self.iris.X[rows])
            np.testing.assert_array_equal(y, self.iris.Y[rows])
        two = self.iris[:, ["petal length", "petal width", "iris"]]
        with patch.object(w.partition_view, "set_model") as set_model:
            self.send_signal(w.Inputs.tree, fitted(OC1Learner(random_state=0), two))
            X = set_model.call_args[0][1]
            np.testing.assert_array_equal(X, two.X)

    def orange_nodes(self, model):
        """Orange's nodes by the viewer's ids (both are in preorder)."""
        return dict(enumerate(self.widget.view_tree.nodes))

    # ----- data input -----
    def test_data_recounts_nodes(self):
        test = self.heart[::3]
        self.send_signal(self.widget.Inputs.tree, self.gdt)
        self.send_signal(self.widget.Inputs.data, test)
        X = test.transform(self.gdt.domain).X
        leaves = self.gdt.tree_.apply(X)
        counts = self.widget.counts
        for leaf in self.widget.view_tree.leaves():
            self.assertEqual(counts.n[leaf], np.sum(leaves == leaf))
            self.assertEqual(self.widget.items[leaf].n, np.sum(leaves == leaf))
        self.assertEqual(counts.n[0], len(test))
        self.widget.select_nodes({1})
        selected = self.get_output(self.widget.Outputs.selected_data)
        self.assertEqual(len(selected), counts.n[1])
        self.assertTrue(set(selected.ids) <= set(test.ids))

    def test_path_matches_decision_path(self):
        self.send_signal(self.widget.Inputs.tree, self.oc1)
        self.send_signal(self.widget.Inputs.data, self.iris[::5])
        X = self.iris[::5].transform(self.oc1.domain).X
        for row in (0, 7, 25):
            self.widget.row_spin.setValue(row + 1)  # numbered from 1, as Orange does
            expected = self.oc1.tree_.decision_path(X[row:row + 1]).indices
            self.assertEqual(sorted(self.widget.scene.traced), sorted(expected.tolist()))
            self.assertTrue(all(self.widget.items[n].traced for n in expected))
        self.assertEqual(self.widget.path_list.count(), len(expected) + 1)  # "Row 26:"
        self.widget.row_spin.setValue(0)  # "(none)"
        self.assertEqual(self.widget.scene.traced, [])

    def test_path_values(self):
        self.send_signal(self.widget.Inputs.tree, self.hand)
        steps = self.widget.view_tree.row_path(self.hand_data, 2)
        self.assertEqual(steps[0].node, 0)
        self.assertEqual(steps[0].condition,
                         "0.82·petal length + 0.57·petal width + 0.1·sepal width ≥ 3.1")
        self.assertEqual(steps[0].words,
                         "0.82·petal length + 0.57·petal width + 0.1·sepal width = 4.52 "
                         "(with petal length = 4, petal width = 2, sepal width = 1), "
                         "at least 3.1 → right")
        self.assertEqual(steps[-1].node, 2)

    def test_domain_mismatch(self):
        self.send_signal(self.widget.Inputs.tree, self.oc1)
        self.send_signal(self.widget.Inputs.data, self.heart)
        self.assertTrue(self.widget.Error.data_mismatch.is_shown())
        self.assertIn("petal length", str(self.widget.Error.data_mismatch))
        self.send_signal(self.widget.Inputs.data, self.iris)
        self.assertFalse(self.widget.Error.data_mismatch.is_shown())

    def test_not_a_classification_tree(self):
        housing = Table("housing")
        self.send_signal(self.widget.Inputs.tree, TreeRegressionLearner()(housing))
        self.assertTrue(self.widget.Error.not_a_tree.is_shown())
        self.assertEqual(len(self.widget.items), 0)
        self.send_signal(self.widget.Inputs.tree, self.oc1)
        self.assertFalse(self.widget.Error.not_a_tree.is_shown())

    # ----- rules -----
    def test_rules_export(self):
        self.send_signal(self.widget.Inputs.tree, self.hand)
        self.assertEqual(
            self.widget.rules_text(),
            "IF 0.82·petal length + 0.57·petal width + 0.1·sepal width < 3.1 "
            "THEN class = setosa [support 3, confidence 1]\n"
            "IF 0.82·petal length + 0.57·petal width + 0.1·sepal width ≥ 3.1 "
            "THEN class = virginica [support 2, confidence 1]\n")
        for model, data in self.all_models():
            self.send_signal(self.widget.Inputs.tree, model)
            text = self.widget.rules_text()
            self.assertEqual(text.count("IF "), len(self.widget.view_tree.leaves()))
            supports = sum(rule.support for rule in self.widget.view_tree.rules(
                self.widget.counts))
            # rows with a missing value stop at an internal node of Orange's tree
            leaves = self.widget.view_tree.leaves()
            self.assertEqual(supports, np.isin(self.widget.counts.stop, leaves).sum())
            if model is not self.orange:
                self.assertEqual(supports, len(data))
        with tempfile.TemporaryDirectory() as directory:
            filename = os.path.join(directory, "rules.txt")
            self.widget.rules_panel.save(filename)
            with open(filename, encoding="utf-8") as file:
                self.assertEqual(file.read(), self.widget.rules_text())
        self.widget.rules_panel.copy()
        self.assertEqual(QApplication.clipboard().text(), self.widget.rules_text())
        self.assertEqual(self.widget.rules_panel.edit.toPlainText(), self.widget.rules_text())

    def test_rules_confidence_on_test_data(self):
        self.send_signal(self.widget.Inputs.tree, self.hand)
        test = self.hand_data.copy()
        with test.unlocked(test.Y):
            test.Y[0] = 1  # a virginica among the setosa leaf's rows
        self.send_signal(self.widget.Inputs.data, test)
        rules = self.widget.view_tree.rules(self.widget.counts)
        self.assertEqual((rules[0].support, rules[0].confidence), (3, 2 / 3))
        self.assertIn("class = setosa [support 3, confidence 0.667]",
                      self.widget.rules_text())

    def assert_save_fails(self, filename, reason):
        """Saving the rules to ``filename`` shows an error naming the file and
        ``reason``; a later successful save clears it."""
        w = self.widget
        self.send_signal(w.Inputs.tree, self.hand)
        w.rules_panel.save(filename)
        self.assertTrue(w.Error.rules_not_saved.is_shown())
        message = str(w.Error.rules_not_saved)
        self.assertIn(filename, message)
        self.assertIn(reason, message)
        with tempfile.TemporaryDirectory() as directory:
            w.rules_panel.save(os.path.join(directory, "rules.txt"))
        self.assertFalse(w.Error.rules_not_saved.is_shown())

    def test_save_rules_into_a_missing_folder(self):
        with tempfile.TemporaryDirectory() as directory:
            self.assert_save_fails(os.path.join(directory, "no such folder", "rules.txt"),
                                   "No such file or directory")

    def test_save_rules_onto_a_folder(self):
        with tempfile.TemporaryDirectory() as directory:
            self.assert_save_fails(directory, "Is a directory")

    def test_save_rules_to_an_unwritable_file(self):
        with tempfile.TemporaryDirectory() as directory:
            filename = os.path.join(directory, "rules.txt")
            with open(filename, "w", encoding="utf-8"):
                pass
            os.chmod(filename, 0o444)
            try:
                with open(filename, "a", encoding="utf-8"):
                    pass
            except PermissionError:  # as any user but root
                self.assert_save_fails(filename, "Permission denied")
                return
            # root writes a read-only file: opening it fails as it would for anyone else
            def open_as_a_user(name, *args, **kwargs):
                if name == filename:
                    raise PermissionError(13, "Permission denied", filename)
                return open(name, *args, **kwargs)  # pylint: disable=unspecified-encoding

            with patch("orangecontrib.oblique.widgets.rulespanel.open", create=True,
                       side_effect=open_as_a_user):
                self.assert_save_fails(filename, "Permission denied")

    def test_report(self):
        self.send_signal(self.widget.Inputs.tree, self.gdt)
        self.widget.send_report()
        self.assertIn("IF ", self.widget.report_html)
        self.assertIn("<img", self.widget.report_html)

    # ----- settings -----
    def test_settings_and_selection_restore(self):
        w = self.widget
        w.max_terms, w.node_width, w.color_by = 5, 300, 1
        self.send_signal(w.Inputs.tree, self.oc1)
        w.select_nodes({1, 2})
        w.scene.toggle_collapse(2)
        expected = self.get_output(w.Outputs.selected_data)
        stored = w.settingsHandler.pack_data(w)
        restored = self.create_widget(OWObliqueTreeViewer, stored_settings=stored)
        self.assertEqual((restored.max_terms, restored.node_width, restored.color_by),
                         (5, 300, 1))
        self.send_signal(restored.Inputs.tree, self.oc1, widget=restored)
        self.assertEqual(restored.selected, {1, 2})
        self.assertEqual(restored.scene.collapsed, {2})
        output = self.get_output(restored.Outputs.selected_data, widget=restored)
        np.testing.assert_array_equal(output.ids, expected.ids)
        # another tree does not inherit the selection
        self.send_signal(restored.Inputs.tree, self.odt, widget=restored)
        self.assertEqual(restored.selected, set())

    def test_display_controls(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.gdt)
        n_nodes = len(w.items)
        w.limit_depth, w.max_depth = True, 2
        w._redraw()
        self.assertTrue(all(w.view_tree.depth[n] <= 2 for n in w.items))
        self.assertLess(len(w.items), n_nodes)
        w.limit_depth = False
        w._redraw()  # as the check box's callback does
        w.scene.toggle_collapse(0)
        self.assertEqual(list(w.items), [0])
        w.scene.expand_all()
        self.assertEqual(len(w.items), n_nodes)
        w.scene.hover(3)
        self.assertTrue(all(w.items[n].hovered for n in w.view_tree.path(3)))
        w.scene.hover(-1)
        self.assertFalse(any(item.hovered for item in w.items.values()))
        w.view.zoom_by(2)
        w.fit_to_window()
