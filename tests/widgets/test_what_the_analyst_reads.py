"""What an analyst reads in the widgets, in Orange's own ways: singular and plural, the
class distribution in a node's tooltip, the words of shared controls, the viewer's info
box for a tree it cannot show, the report's rules wrapped at the page's edge."""
import re

import numpy as np
import pyqtgraph as pg

from AnyQt.QtGui import QColor, QFontMetricsF, QTextDocument
from AnyQt.QtWidgets import QApplication, QLabel, QStyle, QStyleOptionComboBox

from Orange.classification import TreeLearner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.regression import TreeLearner as TreeRegressionLearner
from Orange.widgets.model.owtree import OWTreeLearner
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, ObliqueTreeModel
from orangecontrib.oblique.core import ObliqueTree, Split
from orangecontrib.oblique.widgets import treescene
from orangecontrib.oblique.widgets.notes import (MIN_CONTRAST, contrast_ratio,
                                                 relative_luminance)
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble, processes_text
from orangecontrib.oblique.widgets.owobliquedata import OWObliqueData
from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM
from orangecontrib.oblique.widgets.splitviews import SplitExplorer

from tests.helpers.widget_helpers import PatientWaits
from tests.widgets.test_owobliquetreeviewer import FittedTree, hand_model


COLORS = [QColor(220, 60, 60), QColor(40, 110, 220)]


def labels_of(widget):
    """The texts of the widget's labels."""
    return [label.text() for label in widget.findChildren(QLabel)]


class TestViewerWords(PatientWaits, base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)
        self.hand, self.hand_data = hand_model()

    def test_one_row_is_a_row(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.hand)
        self.send_signal(w.Inputs.data, self.hand_data[:1])
        self.assertEqual(w.items[0].count_text(), "1 row")
        self.assertIn("(1 row):", w.node_texts(0)[2])
        self.send_signal(w.Inputs.data, self.hand_data)
        self.assertEqual(w.items[0].count_text(), "5 rows")
        w.max_terms = 1
        w._texts_changed()
        self.assertIn("Shortened to 1 term per hyperplane", w.node_texts(0)[2])

    def test_a_tree_of_one_leaf_has_one_node(self):
        _, data = hand_model()
        leaf = ObliqueTree(3, 2, [None], [()], [-1], [[3, 2]], [5])
        model = ObliqueTreeModel(data, FittedTree(leaf, [0, 1]))
        w = self.widget
        self.send_signal(w.Inputs.tree, model)
        self.assertTrue(w.info_label.text().startswith("1 node, 1 leaf, depth 0."))
        self.send_signal(w.Inputs.tree, self.hand)
        self.assertTrue(w.info_label.text().startswith("3 nodes, 2 leaves, depth 1."))

    def test_split_explorer_counts_rows_with_a_missing_value(self):
        w = self.widget
        data = self.hand_data.copy()
        with data.unlocked(data.X):
            data.X[1, 0] = np.nan
        self.send_signal(w.Inputs.tree, self.hand)
        self.send_signal(w.Inputs.data, data)
        w.select_nodes({0})
        self.assertEqual(w.split_explorer.title,
                         "Node 0: 4 rows; 1 row with a missing value not shown")

    def test_tooltip_gives_the_distribution_as_orange_does(self):
        """As Orange's Tree Viewer: "Distribution of 'class'" with every class's count
        and share."""
        w = self.widget
        self.send_signal(w.Inputs.tree, self.hand)
        tooltip = w.node_texts(0)[2]
        self.assertIn("Distribution of 'iris' (5 rows):\n  setosa: 3 (60.0 %)\n"
                      "  virginica: 2 (40.0 %)", tooltip)
        leaf = w.node_texts(2)[2]
        self.assertIn("Distribution of 'iris' (2 rows):\n  setosa: 0 (0.0 %)\n"
                      "  virginica: 2 (100.0 %)", leaf)

    def test_tooltip_of_many_classes_lists_those_a_node_has(self):
        """With more than two classes, as Orange's: only the classes the node has."""
        w = self.widget
        self.send_signal(w.Inputs.tree, TreeLearner()(Table("iris")))
        tree = w.view_tree
        leaf = next(n for n in tree.leaves() if np.count_nonzero(tree.train_value[n]) == 1)
        lines = w.node_texts(leaf)[2].split("Distribution of 'iris'")[1].split("\n")
        self.assertEqual(len([line for line in lines if line.startswith("  ")]), 1)

    def test_info_box_agrees_with_the_error_on_a_regression_tree(self):
        w = self.widget
        regression = TreeRegressionLearner()(Table("housing"))
        self.send_signal(w.Inputs.tree, regression)
        self.assertTrue(w.Error.not_a_tree.is_shown())
        self.assertEqual(w.info_label.text(), "A regression tree is on input: it can't be "
                                              "shown, only classification trees can.")
        self.send_signal(w.Inputs.tree, None)
        self.assertEqual(w.info_label.text(), "No tree on input.")

    def test_report_rules_wrap_at_the_page_edge(self):
        """The report's rules are a block that wraps: laid out on a page 300 px wide
        (Qt's rich text, as a report page is), no line is wider than the page."""
        w = self.widget
        self.send_signal(w.Inputs.tree, self.hand)
        w.max_terms = 3
        w.full_rules = True
        w._update_rules()
        w.send_report()
        rules = re.search(r"<pre[^>]*>.*?</pre>", w.report_html, re.S).group(0)
        document = QTextDocument()
        document.setHtml(rules)
        document.setTextWidth(300)
        self.assertLessEqual(document.idealWidth(), 300)
        self.assertIn("petal length", document.toPlainText())


class TestSharedControls(PatientWaits, base.WidgetTest):
    def test_orange_tree_widgets_words_for_the_least_instances_in_a_leaf(self):
        """The label Orange's Tree widget gives the same parameter, exactly."""
        orange_words = dict((setting, label) for label, _, setting, *_ in
                            OWTreeLearner.spin_boxes)
        for widget_class in (OWGeometricTree, OWODTSVM):
            widget = self.create_widget(widget_class)
            self.assertIn(orange_words["min_leaf"], labels_of(widget), widget_class.name)
        self.assertIn(orange_words["min_internal"],
                      labels_of(self.create_widget(OWGeometricTree)))

    def test_hedge_says_processes_as_the_control_does(self):
        widget = self.create_widget(OWHedgeEnsemble)
        self.assertIn("Processes, at most:", labels_of(widget))
        self.assertEqual(processes_text(1, 2), "trained in one process (of at most 2: "
                                               "too little work to pay for starting more)")
        self.assertEqual(processes_text(2, 2), "trained in 2 processes")


class TestReadableNotes(PatientWaits, base.WidgetTest):
    """Every label the add-on's widgets draw -- the grey notes and help lines too -- has a
    contrast of at least 4.5 : 1 against its background (WCAG's AA level for text)."""
    WIDGETS = (OWGeometricTree, OWOC1, OWODTSVM, OWHedgeEnsemble, OWObliqueForest,
               OWObliqueData, OWObliqueTreeViewer)

    def test_every_label_has_contrast(self):
        for widget_class in self.WIDGETS:
            widget = self.create_widget(widget_class)
            if widget_class is OWObliqueTreeViewer:  # the note Fit shows
                widget.zoom_controls.show_note("The whole tree is not readable.")
            labels = [label for label in widget.findChildren(QLabel) if label.text()]
            self.assertTrue(labels)
            for label in labels:
                label.ensurePolished()
                palette = label.palette()
                ratio = contrast_ratio(palette.color(label.foregroundRole()),
                                       palette.color(label.backgroundRole()))
                self.assertGreaterEqual(ratio, MIN_CONTRAST,
                                        f"{widget_class.name}: {label.text()}")

    def test_drawn_help_line_has_contrast(self):
        """Of the pixels drawn: the darkest of the text against the background."""
        widget = self.create_widget(OWGeometricTree)
        label = next(label for label in widget.findChildren(QLabel)
                     if label.text().startswith("Each split bisects"))
        label.resize(label.sizeHint())
        image = label.grab().toImage()
        colors = [QColor(image.pixel(x, y)) for x in range(image.width())
                  for y in range(image.height())]
        background = max(set(c.rgb() for c in colors), key=[c.rgb() for c in colors].count)
        darkest = min(colors, key=relative_luminance)
        self.assertGreaterEqual(contrast_ratio(darkest, QColor(background)), MIN_CONTRAST)


class TestSplitExplorerWords(base.GuiTest):
    """The split explorer: both condition labels inside the plot, axes with their unit,
    a title that counts the rows left out for a missing value."""

    def setUp(self):
        self.view = SplitExplorer()
        self.view.resize(700, 450)
        self.view.show()
        # every row far on the right side of ``x1 + x2 ≥ 1``
        rng = np.random.default_rng(0)
        self.X = rng.uniform(3, 6, size=(40, 2))
        self.tree = ObliqueTree(2, 2, [Split.hyperplane([1.0, 1.0], -1.0), None, None],
                                [(1, 2), (), ()], [-1, 0, 0], [[20, 20], [20, 0], [0, 20]],
                                [40, 20, 20])
        self.y = (np.arange(40) % 2).astype(float)

    def tearDown(self):
        self.view.hide()

    def test_condition_labels_inside_the_plot(self):
        self.view.set_node(self.tree, 0, self.X, self.y, COLORS, ["major vessels colored",
                                                                  "ST by exercise"])
        QApplication.processEvents()
        viewbox = self.view.plot.getViewBox()
        inside = viewbox.sceneBoundingRect()
        labels = [item for item in self.view.plot.items if isinstance(item, pg.TextItem)]
        self.assertEqual(len(labels), 2)
        for label in labels:
            rect = label.sceneBoundingRect()
            self.assertTrue(inside.contains(rect), (label.toPlainText(), rect, inside))

    def test_axes_have_units(self):
        self.view.set_node(self.tree, 0, self.X, self.y, COLORS)
        for side in ("left", "bottom"):
            self.assertTrue(self.view.plot.getAxis(side).labelText.endswith(
                "(attributes' raw units)"))

    def test_title_counts_rows_left_out(self):
        self.view.set_node(self.tree, 0, self.X[:1], self.y[:1], COLORS, n_missing=1)
        self.assertEqual(self.view.title, "Node 0: 1 row; 1 row with a missing value not "
                                          "shown")
        self.view.set_node(self.tree, 0, self.X, self.y, COLORS, n_missing=3)
        self.assertEqual(self.view.title, "Node 0: 40 rows; 3 rows with a missing value "
                                          "not shown")
        self.view.set_node(self.tree, 0, self.X, self.y, COLORS)
        self.assertEqual(self.view.title, "Node 0: 40 rows")


def crew_table(n=100):
    """Two numeric attributes (one of a long name) that decide the class, and a status
    of four values, none of them in half of the rows (crew in 40 %)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    status = rng.permutation(np.repeat([0, 1, 2, 3], np.array([40, 15, 13, 32]) * n // 100))
    domain = Domain([ContinuousVariable("major vessels colored"),
                     ContinuousVariable("age"),
                     DiscreteVariable("status", values=("crew", "first", "second", "third"))],
                    DiscreteVariable("survived", values=("no", "yes")))
    y = (X[:, 0] + 0.7 * X[:, 1] > 0).astype(float)
    return Table.from_numpy(domain, np.column_stack([X, status]), y)


class TestPartitionWords(PatientWaits, base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.data = crew_table()
        cls.model = GeometricTreeLearner(random_state=0)(cls.data)
        cls.model.instances = cls.data

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)
        self.widget.resize(self.widget.sizeHint())
        self.widget.show()
        self.send_signal(self.widget.Inputs.tree, self.model)
        self.view = self.widget.partition_view
        self.widget.tabs.setCurrentWidget(self.view)

    def tearDown(self):
        self.widget.hide()

    def test_axis_combos_fit_the_longest_name(self):
        name = "major vessels colored"
        for combo in (self.view.x_combo, self.view.y_combo):
            combo.setCurrentIndex(self.view._shown["names"].index(name))
            option = QStyleOptionComboBox()
            combo.initStyleOption(option)
            field = combo.style().subControlRect(QStyle.CC_ComboBox, option,
                                                 QStyle.SC_ComboBoxEditField, combo)
            self.assertGreaterEqual(field.width(), combo.fontMetrics().horizontalAdvance(name))
            self.assertEqual(combo.toolTip(), combo.currentText())

    def test_a_nominal_held_at_a_value_a_row_has(self):
        """Status held at crew, the commonest value: not at "≠ crew, ≠ first, …", each
        column at its own commonest code, which no row has."""
        view = self.view
        names = view._shown["names"]
        self.assertNotIn("status", names[view.features[0]] + names[view.features[1]])
        text = view.held_text
        self.assertIn("status = crew", text)
        self.assertNotIn("status ≠", text)
        columns = [names.index(f"status={value}") for value in ("crew", "first", "second",
                                                                 "third")]
        self.assertEqual(list(view.fixed[columns]), [1, 0, 0, 0])
        # with one of them plotted: where it is 0 the others at the rows' commonest
        # combination there (crew), where it is 1 the others 0
        view.x_combo.setCurrentIndex(columns[1])
        self.assertEqual(list(view.fixed[[columns[0], columns[2], columns[3]]]), [1, 0, 0])
        self.assertIn("status = crew where not first", view.held_text)
        first = view.fixed.copy()
        first[columns[1]] = 1
        alone = first.copy()
        alone[columns[0]] = 0
        np.testing.assert_array_equal(view._predict_at_codes([first]),
                                      self.model.tree_.predict_proba(np.array([alone])))


def named_hand_model(names):
    """:func:`hand_model`'s tree over attributes of the given ``names``: ``0.82·names[1]
    + 0.57·names[2] + 0.1·names[0] ≥ 3.1``."""
    model, data = hand_model()
    domain = Domain([ContinuousVariable(name) for name in names], data.domain.class_var)
    data = Table.from_numpy(domain, data.X, data.Y)
    model = ObliqueTreeModel(data, FittedTree(model.tree_, [0, 1]))
    model.instances = data
    return model, data


class TestNodeBoxes(PatientWaits, base.WidgetTest):
    """A node box: its text broken only between terms; its bars with their values, a
    scale and whole names, in the units of the text."""

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)

    def show(self, names=("sepal width", "major vessels colored", "ST by exercise")):
        model, data = named_hand_model(names)
        self.send_signal(self.widget.Inputs.tree, model)
        return self.widget.items[0], data

    def test_text_breaks_only_between_terms(self):
        item, _ = self.show()
        lines = item.lines()
        self.assertGreater(len(lines), 1)
        self.assertEqual(" ".join(lines).replace("· ", "·"), item.text)
        for previous, line in zip(lines, lines[1:]):
            self.assertTrue(line[:2] in ("+ ", "− ", "≥ ", "< ") or previous.endswith("·"),
                            lines)
        metrics = QFontMetricsF(self.widget.scene.font())
        self.assertTrue(all(metrics.horizontalAdvance(line) <= item.width - 10
                            for line in lines), lines)

    def test_bars_show_the_values_and_units_of_the_text(self):
        item, data = self.show()
        w = self.widget
        bars = item.coefficients
        self.assertEqual(bars.names, ["major vessels colored", "ST by exercise",
                                      "sepal width"])
        self.assertEqual(bars.texts, ["0.82", "0.57", "0.1"])  # as the rule prints them
        for name, text in zip(bars.names, bars.texts):
            self.assertIn(f"{text}·{name}", item.text)
        self.assertFalse(bars.per_sd)
        self.assertEqual(item.scale(), (0.0, 0.82))
        self.assertIn("per unit of major vessels colored", item.bar_tooltip(
            item.bar_rects(item.bars_rect())[0][0].center()))
        w.controls.coefficients.setCurrentIndex(w.PER_SD)
        w.controls.coefficients.activated.emit(w.PER_SD)
        item = w.items[0]
        self.assertTrue(item.coefficients.per_sd)
        sd = data.X.std(axis=0)[[1, 2, 0]]
        np.testing.assert_allclose(item.coefficients.values, np.array([0.82, 0.57, 0.1]) * sd)
        for name, text in zip(item.coefficients.names, item.coefficients.texts):
            self.assertIn(f"{text}·z({name})", item.text)  # the units of the text
        self.assertIn("per standard deviation of", item.bar_tooltip(
            item.bar_rects(item.bars_rect())[0][0].center()))

    def test_bars_as_many_as_the_terms_shown(self):
        w = self.widget
        w.max_terms = 2
        item, _ = self.show()
        self.assertEqual(item.n_bars(), 2)
        self.assertEqual(item.bar_names, ["major vessels colored", "ST by exercise"])
        self.assertIn("sepal width: 0.1", item.toolTip())  # the tooltip lists every weight

    def test_names_whole_and_elided_only_beyond_the_box(self):
        item, _ = self.show()
        metrics = QFontMetricsF(treescene.label_font(self.widget.scene.font()))
        for (_, label), name in zip(item.bar_rects(item.bars_rect()), item.bar_names):
            self.assertGreaterEqual(label.width(), metrics.horizontalAdvance(name), name)
        long_name = "number of major vessels colored by fluoroscopy, from 0 to 3"
        item, _ = self.show(("sepal width", long_name, "ST by exercise"))
        label = item.bar_rects(item.bars_rect())[0][1]
        self.assertLess(label.width(), metrics.horizontalAdvance(long_name))
        self.assertGreater(label.width(), item.width / 2)  # generous: more than half
        self.assertTrue(item.bar_tooltip(label.center()).startswith(f"{long_name}: 0.82"))
