"""Readable oblique splits: coefficients per standard deviation,
one order of terms per tree, no scientific notation, the same shortening in every text of
the Oblique Tree Viewer, node boxes of Orange's Tree Viewer wrapped at term boundaries,
and the viewer's split statistics."""
import os
import re
import tempfile

import numpy as np

from AnyQt.QtWidgets import QApplication

from Orange.classification import TreeLearner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph

from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner
from orangecontrib.oblique.core import Split
from orangecontrib.oblique.core.tree.rules import format_number
from orangecontrib.oblique.presentation import (BOX_LINE_CHARS, BOX_MAX_CHARS,
                                                SplitPresenter, wrapped)
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter


def heart_model(**params):
    heart = Table("heart_disease")
    model = GeometricTreeLearner(max_terms=3, random_state=0, **params)(heart)
    model.instances = heart
    return model, heart


def term_names(text, names):
    """Attribute names of the terms of a printed hyperplane, in the printed order."""
    lhs = re.split(r" [<≥>≤] ", text)[0]
    found = []
    for name in sorted(names, key=len, reverse=True):
        for match in re.finditer(re.escape(name), lhs):
            if not any(a <= match.start() < b for _, a, b in found):
                found.append((name, match.start(), match.end()))
    return [name for name, start, _ in sorted(found, key=lambda f: f[1])]


class HeartViewerTest(base.WidgetTest):
    """An Oblique Tree Viewer, and a GDT heart-disease tree of at most 3 terms a split."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.model, cls.heart = heart_model()

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)


class TestTreeOrder(HeartViewerTest):
    """Terms appear in one order per tree: by the attributes' importance in the tree."""

    def test_presenter_order_is_by_importance_then_name(self):
        variables = [ContinuousVariable(n) for n in ("b", "a", "c", "d")]
        presenter = SplitPresenter(variables, np.ones(4), importances=[0.2, 0.2, 0.6, 0.0])
        # c first; a and b tie, by name; d unused
        np.testing.assert_array_equal(presenter.order([[1, 1, 1, 1]]), [2, 1, 0, 3])
        np.testing.assert_array_equal(presenter.order([[5, 0, 0, 1]]), [2, 1, 0, 3])
        # without (usable) importances: each split by |w|·std, as before
        for importances in (None, [1.0, 2.0], [np.nan, 0, 0, 1]):
            presenter = SplitPresenter(variables, [1, 1, 1, 10], importances=importances)
            np.testing.assert_array_equal(presenter.order([[1, 3, 2, 0.5]]), [3, 1, 2, 0])

    def test_model_and_viewer_texts_follow_the_tree_order(self):
        model = self.model
        names = [a.name for a in model.domain.attributes]
        importances = model.feature_importances
        rank = {name: (-importances[j], name) for j, name in enumerate(names)}
        view = TreeAdapter.from_model(model)
        n_oblique = 0
        for node in model._nodes():
            if node.attr is None:
                continue
            found = term_names(node.attr.text, names)
            self.assertEqual(found, sorted(found, key=rank.get), node.attr.text)
            full = view.node_rule(node.node_id)[1]
            self.assertEqual(term_names(full, names), found)
            n_oblique += len(found) > 1
        self.assertGreaterEqual(n_oblique, 3)

    def test_no_scientific_notation(self):
        """Rounding noise is dropped at fit time and numbers are written out: no
        ``e-05``/``e+03`` in any text of the viewer, in either unit."""
        widget = self.widget
        self.send_signal(widget.Inputs.tree, self.model)
        for coefficients in (widget.RAW, widget.PER_SD):
            widget.coefficients = coefficients
            widget._units_changed()
            widget.full_rules = True
            widget._update_rules()
            texts = [widget.rules_text()] + [
                text for node in range(widget.view_tree.node_count)
                for text in widget.node_texts(node)]
            for row in range(0, len(self.heart), 37):
                texts += [s.condition + " " + s.words for s in widget.view_tree.row_path(
                    self.heart, row)]
            texts += [n.attr.name for n in self.model._nodes() if n.attr is not None]
            for text in texts:
                self.assertIsNone(re.search(r"\de[+−-]?\d", text), text)


class TestPerStandardDeviation(HeartViewerTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.orange = TreeLearner(max_depth=3)(cls.heart)
        cls.orange.instances = cls.heart

    def test_hyperplane_over_standardised_attributes(self):
        """``Σ (w_j·sd_j)·z_j ≥ t − Σ w_j·mean_j`` with the means and SDs of the training
        rows, the attributes written ``z(name)``."""
        domain = Domain([ContinuousVariable("age"), ContinuousVariable("income")],
                        DiscreteVariable("y", values=("a", "b")))
        X = np.array([[20, 1000], [30, 3000], [40, 2000], [50, 6000]], dtype=float)
        split = Split.hyperplane([0.5, 0.01], -40.0)
        presenter = SplitPresenter(domain.attributes, X.std(axis=0), ["a", "b"],
                                   feature_mean=X.mean(axis=0), rows=X)
        mean, sd = X.mean(axis=0), X.std(axis=0)
        z_split = presenter.standardised(split)
        np.testing.assert_allclose(z_split.weights[0], [0.5, 0.01] * sd)
        np.testing.assert_allclose(z_split.bias[0], -40 + 0.5 * mean[0] + 0.01 * mean[1])
        # no importances: terms by |w|·sd; the row (40, 2000) lies on the plane, so the
        # z text needs a fifth digit to keep it on the side the model sends it to
        self.assertEqual(presenter.conditions(split),
                         ["0.01·income + 0.5·age < 40", "0.01·income + 0.5·age ≥ 40"])
        self.assertEqual(presenter.conditions(split, per_sd=True),
                         ["18.708·z(income) + 5.5902·z(age) < −7.5",
                          "18.708·z(income) + 5.5902·z(age) ≥ −7.5"])
        # as many terms as asked: the one term left out is counted
        self.assertEqual(presenter.conditions(split, max_terms=1, per_sd=True)[1],
                         "18.708·z(income) + 1 more ≥ −7.5")
        # the printed z condition sends every training row where the model does (even
        # the row on the plane, which the unrounded z split may send the other way)
        z = presenter.z_scores(X)
        np.testing.assert_array_equal(z_split.printed().route(z), split.route(X))
        self.assertEqual(presenter.value_text(split, X[3], per_sd=True).split(" (")[0],
                         f"w·z = {format_number(z_split.weights[0] @ z[3])} ≥ −7.5")
        # a single attribute: a threshold in z units; a nominal test reads the same
        single = Split.axis_parallel(0, 40.0, 2)
        self.assertEqual(presenter.conditions(single, per_sd=True), ["z(age) < 0.4472",
                                                                      "z(age) ≥ 0.4472"])
        self.assertEqual(presenter.value_text(single, X[0], per_sd=True), "z(age) = −1.342")
        nominal = Split.equality(0, 1.0, 2)
        self.assertEqual(presenter.conditions(nominal, per_sd=True),
                         presenter.conditions(nominal))

    def test_widget_switches_units_everywhere(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.model)
        self.assertIn("raw", w.units_label.text())
        raw_rules = w.rules_text()
        fingerprint = w.view_tree.fingerprint()
        w.row_spin.setValue(3)
        self.assertNotIn("z(", w.path_list.item(1).text())
        w.controls.coefficients.setCurrentIndex(w.PER_SD)
        w.controls.coefficients.activated.emit(w.PER_SD)
        self.assertEqual(w.coefficients, w.PER_SD)
        text = w.units_label.text()
        self.assertIn("per standard deviation", text)
        self.assertIn("z = (x − mean)/SD", text)
        _, box, tooltip = w.node_texts(0)
        self.assertIn("·z(", box)
        self.assertIn("·z(", tooltip)
        self.assertIn("·z(", w.items[0].text)
        self.assertIn("·z(", w.rules_text())
        self.assertIn("·z(", w.rules_panel.edit.toPlainText())
        self.assertIn("·z(", w.path_list.item(1).text())
        for kid in w.view_tree.children[0]:  # the branch labels of the drawn tree too
            self.assertIn("·z(", w.view_tree.conditions[kid])
            self.assertTrue(w.view_tree.conditions[kid].endswith(
                " " + w.view_tree.edge_labels[kid]))
        # the tree is the same tree: the selection survives the switch
        self.assertEqual(w.view_tree.fingerprint(), fingerprint)
        w.send_report()
        self.assertIn("per standard deviation", w.report_html)
        # back to raw units
        w.coefficients = w.RAW
        w._units_changed()
        self.assertEqual(w.rules_text(), raw_rules)
        # the Orange model's own texts never change units
        self.assertNotIn("z(", " ".join(n.attr.name for n in self.model._nodes()
                                        if n.attr is not None))

    def test_standardised_survives_a_new_tree_and_settings(self):
        w = self.widget
        w.coefficients = w.PER_SD
        self.send_signal(w.Inputs.tree, self.model)
        self.assertTrue(w.view_tree.per_sd)
        stored = w.settingsHandler.pack_data(w)
        restored = self.create_widget(OWObliqueTreeViewer, stored_settings=stored)
        self.send_signal(restored.Inputs.tree, self.model, widget=restored)
        self.assertIn("·z(", restored.node_texts(0)[1])

    def test_raw_units_when_it_cannot_standardise(self):
        w = self.widget
        w.coefficients = w.PER_SD
        self.send_signal(w.Inputs.tree, self.orange)
        self.assertTrue(w.Information.raw_units.is_shown())
        self.assertIn("one attribute at a time", str(w.Information.raw_units))
        self.assertNotIn("z(", w.rules_text())
        bare = GeometricTreeLearner(max_terms=3, random_state=0)(self.heart)
        bare.instances = None
        # the model keeps its display tree, with the rows it was fitted on
        self.send_signal(w.Inputs.tree, bare)
        self.assertFalse(w.Information.raw_units.is_shown())
        self.assertIn("z(", w.node_texts(0)[1])
        # a model saved before models kept their display tree, without its training
        # rows: the means and SDs are over the training rows
        del bare.display
        self.send_signal(w.Inputs.tree, bare)
        self.assertTrue(w.Information.raw_units.is_shown())
        self.assertIn("training rows", str(w.Information.raw_units))
        self.assertNotIn("z(", w.node_texts(0)[1])
        self.send_signal(w.Inputs.tree, self.model)
        self.assertFalse(w.Information.raw_units.is_shown())
        self.send_signal(w.Inputs.tree, None)
        self.assertFalse(w.Information.raw_units.is_shown())
        self.assertEqual(w.units_label.text(), "")


class TestShortening(HeartViewerTest):
    """Rules tab, path, report, copy, save and tooltip follow "Terms shown per rule"."""

    def setUp(self):
        super().setUp()
        self.widget.max_terms = 1
        self.send_signal(self.widget.Inputs.tree, self.model)

    def test_rules_tab_shortened_with_full_rules_one_click_away(self):
        w = self.widget
        tree = w.view_tree
        shown = w.rules_panel.edit.toPlainText()
        self.assertEqual(shown, tree.rules_text(w.counts, 1))
        self.assertIn("+ 2 more", shown)
        self.assertIn("shortened to 1 term", w.rules_panel.note.text())
        with tempfile.TemporaryDirectory() as directory:
            filename = os.path.join(directory, "rules.txt")
            w.rules_panel.save(filename)
            with open(filename, encoding="utf-8") as file:
                self.assertEqual(file.read(), shown)
        w.rules_panel.copy()
        self.assertEqual(QApplication.clipboard().text(), shown)
        w.send_report()
        self.assertIn("Rules (hyperplanes shortened to 1 term)", w.report_html)

        w.controls.full_rules.click()  # the check box in the Rules tab
        self.assertTrue(w.full_rules)
        full = w.rules_panel.edit.toPlainText()
        self.assertEqual(full, tree.rules_text(w.counts))
        self.assertNotIn(" more", full)
        self.assertIn("Full rules", w.rules_panel.note.text())
        w.rules_panel.copy()
        self.assertEqual(QApplication.clipboard().text(), full)
        w.send_report()
        self.assertIn("Rules (complete)", w.report_html)

        w.full_rules = False
        w.controls.max_terms.setValue(3)  # the spin box's callback updates the tab
        self.assertEqual(w.rules_panel.edit.toPlainText(), full)

    def test_path_and_tooltip_shortened(self):
        w = self.widget
        w.row_spin.setValue(1)  # rows from 1, as Orange's Data Table numbers them
        self.assertEqual(w.path_list.item(0).text(), "Row 1:")
        first = w.path_list.item(1).text()
        steps = w.view_tree.row_path(self.heart, 0, 1)
        # plain words from the split's parts: the shortened left-hand side, its value,
        # the threshold in words and the branch taken
        lhs = w.view_tree.node_rule(0, 1)[0].rpartition(" ≥ ")[0]
        self.assertTrue(first.startswith(f"Root: {lhs} = "), first)
        self.assertIn("+ 2 more", first)
        self.assertRegex(first, r", (at least|less than) \S+ → (left|right)$")
        self.assertEqual(first, f"Root: {steps[0].words}")
        kid = w.view_tree.children[0][1]
        _, _, tooltip = w.node_texts(kid)
        self.assertTrue(tooltip.startswith(f"Branch: {w.view_tree.condition(kid, 1)}"))
        self.assertIn("+ 2 more", tooltip)
        self.assertIn('"Show full rules" gives every term', tooltip)
        w.controls.max_terms.setValue(5)
        self.assertNotIn(" more", w.path_list.item(1).text())
        self.assertNotIn("Show full rules", w.node_texts(kid)[2])

    def test_complete_conditions_are_the_adapters(self):
        tree = self.widget.view_tree
        for node in range(1, tree.node_count):
            self.assertEqual(tree.condition(node), tree.conditions[node])
            self.assertEqual(tree.condition(node, 20), tree.conditions[node])
        self.assertEqual([r.conditions for r in tree.rules()],
                         [r.conditions for r in tree.rules(max_terms=None)])


class TestSplitSummary(HeartViewerTest):
    def test_info_box(self):
        model, heart = self.model, self.heart
        w = self.widget
        self.send_signal(w.Inputs.tree, model)
        text = w.info_label.text()
        self.assertIn(f"{model.n_oblique_splits} of {model.n_splits} splits oblique", text)
        self.assertIn(f"{format_number(model.mean_attributes_per_split, 1)} attributes "
                      f"per split on average", text)
        orange = TreeLearner(max_depth=2)(heart)
        self.send_signal(w.Inputs.tree, orange)
        n_splits = w.view_tree.node_count - len(w.view_tree.leaves())
        self.assertIn(f"All {n_splits} splits axis-parallel.", w.info_label.text())
        iris = Table("iris")
        odt = ODTSVMLearner(random_state=0)(iris)
        self.send_signal(w.Inputs.tree, odt)
        self.assertIn(f"of {odt.n_splits} split", w.info_label.text())


class TestOrangeTreeViewerBoxes(base.WidgetTest):
    """The node texts fit the boxes of Orange's own Tree Viewer."""

    def setUp(self):
        self.widget = self.create_widget(OWTreeGraph)

    def test_wrapped_at_term_boundaries(self):
        pieces = ["0.5·a", "+ 0.25·b", "− 3·c", "+ 0.7207·chest pain=asymptomatic",
                  "+ 0.1·name that is longer than any box could show", "+ 2 more"]
        lines = wrapped(pieces)
        self.assertEqual((BOX_LINE_CHARS, BOX_MAX_CHARS), (16, 17))
        # a term longer than the box breaks after its coefficient; only a name longer
        # than the box is shortened
        self.assertEqual(lines, ["0.5·a + 0.25·b", "− 3·c",
                                 "+ 0.7207·", "chest pain=asymp…",
                                 "+ 0.1·", "name that is lon…",
                                 "+ 2 more"])
        self.assertEqual(wrapped(["0.1234·chol", "+ 0.5·age"]), ["0.1234·chol", "+ 0.5·age"])
        # a term longer than a line but within the box keeps a line of its own, uncut
        term = "+ 0.00123·exerc i"
        self.assertTrue(BOX_LINE_CHARS < len(term) <= BOX_MAX_CHARS)
        self.assertEqual(wrapped(["1·a", term, "+ b"]), ["1·a", term, "+ b"])

    def test_rendered_boxes_are_not_clipped(self):
        """Orange's viewer at its default box width (150 px) shows every line whole, for
        hyperplanes of many terms with long names and for multiway splits."""
        viewer = self.widget
        self.assertEqual(viewer.max_node_width, 150)
        heart = Table("heart_disease")
        iris = Table("iris")
        models = [heart_model()[0],
                  GeometricTreeLearner(max_terms=None, random_state=0)(heart),
                  ODTSVMLearner(axis_parallel_tests=False, clustering_split=False,
                                random_state=0)(iris)]
        for model in models:
            self.send_signal(viewer.Inputs.tree, model, widget=viewer)
            nodes = [n for n in viewer.scene.nodes() if n.node_inst.attr is not None]
            self.assertEqual(len(nodes), model.n_splits)
            for item in nodes:
                text = item.toPlainText()
                self.assertIn(item.node_inst.attr.name.split("<br/>")[0]
                              .replace("&amp;", "&"), text)
                self.assertNotIn("+ 1 more", text)
                self.assertNotIn("… 1 more", text)
                if text in {attribute.name for attribute in model.domain.attributes}:
                    # a test of one attribute: its name, drawn by Orange's viewer as for
                    # its own trees (Orange 3.38 does not wrap a name: 156 px for "major
                    # vessels colored")
                    continue
                document = item.document()
                self.assertLessEqual(document.idealWidth() - document.documentMargin(),
                                     viewer.max_node_width, text)
