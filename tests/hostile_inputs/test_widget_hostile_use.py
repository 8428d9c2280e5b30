"""The widgets under hostile use: names with lone surrogates, HTML and control characters
through every input, text, file and report; the report of a tree of 500 leaves; hostile
stored settings (nested ones too); preprocessing that leaves no rows."""
import base64
import math
import os
import re
import tempfile
import unittest

import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtGui import QImage
from AnyQt.QtWidgets import QApplication

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.preprocess import RemoveNaNRows
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import OC1Learner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliquedata import DATA_SETS, OWObliqueData
from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest
from orangecontrib.oblique.widgets.owobliquetreeviewer import (REPORT_PICTURE_PIXELS,
                                                               REPORT_PICTURE_SIDE,
                                                               OWObliqueTreeViewer)
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from tests.helpers.widget_helpers import HANG_GUARD_MS, NoUncaughtExceptions, PatientWaits

#: what the tests look for in an HTML text: each must appear only escaped
RAW_HTML = ("<b>bold", "<script>", "<u>w", "<i>")
LEARNER_WIDGETS = ((OWGeometricTree, {}), (OWOC1, {"n_restarts": 2}), (OWODTSVM, {}),
                   (OWHedgeEnsemble, {"n_estimators": 2}),
                   (OWObliqueForest, {"n_estimators": 3}))


def hostile_names_table():
    """80 rows whose attribute, value, class and table names hold a lone surrogate (as a
    file decoded with ``surrogateescape`` gives), HTML and control characters."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(float)
    X = np.column_stack([X, rng.integers(0, 2, 80)])
    domain = Domain(
        [ContinuousVariable(name) for name in
         ("x\udc80", "<b>bold</b> & <script>", "tab\tnew\nline\x00\x1b")]
        + [DiscreteVariable("nom\udcff<i>", values=("v\udc81", "<u>w</u>"))],
        DiscreteVariable("cls\udc80<b>", values=("a\udc80<b>", "b\x00&amp;")))
    data = Table.from_numpy(domain, X, y)
    data.name = "data\udc80<b>"
    return data


def assert_safe_html(test, html, what):
    """``html`` can be written as UTF-8 and has the hostile names only escaped."""
    html.encode("utf-8")  # UnicodeEncodeError: a lone surrogate unescaped
    for raw in RAW_HTML:
        test.assertNotIn(raw, html, what)


class TestHostileNamesThroughEveryWidget(PatientWaits, NoUncaughtExceptions,
                                         base.WidgetTest):

    def test_every_learner_widget_and_the_viewer_of_its_tree(self):
        data = hostile_names_table()
        folder = tempfile.mkdtemp()
        for widget_class, settings in LEARNER_WIDGETS:
            with self.subTest(widget_class.name):
                w = self.create_widget(widget_class,
                                       stored_settings={"auto_apply": True, **settings})
                w.learner_name = "name\udc80<b>bold"
                self.send_signal(w.Inputs.data, data, widget=w)
                self.wait_until_finished(widget=w, timeout=HANG_GUARD_MS)
                self.assertFalse(w.Error.active, [str(m) for m in w.Error.active])
                w.send_report()
                assert_safe_html(self, w.report_html, "learner report")
                self.assertIn("name\\udc80&lt;b&gt;bold", w.report_html)
                outputs = w.Outputs
                tree = self.get_output(getattr(outputs, "member_tree", outputs.model),
                                       widget=w)
                viewer = self.create_widget(OWObliqueTreeViewer)
                self.send_signal(viewer.Inputs.tree, tree, widget=viewer)
                self.send_signal(viewer.Inputs.data, data, widget=viewer)
                self.assertFalse(viewer.Error.active)
                rules = viewer.rules_text()
                self.assertIn("'x\\udc80'", rules)  # escaped, as a control character is
                filename = os.path.join(folder, f"{widget_class.__name__}.txt")
                viewer.rules_panel.save(filename)
                self.assertFalse(viewer.Error.rules_not_saved.is_shown())
                with open(filename, encoding="utf-8") as file:
                    self.assertEqual(file.read(), rules)
                viewer.rules_panel.copy()
                self.assertEqual(QApplication.clipboard().text(), rules)
                viewer.row_spin.setValue(2)
                for item in viewer.items.values():
                    item.toolTip().encode("utf-8")
                # the line of the units names an attribute: shown as typed, not as HTML
                self.assertEqual(viewer.units_label.textFormat(), Qt.PlainText)
                viewer.send_report()
                assert_safe_html(self, viewer.report_html, "viewer report")

    def test_base_learner_name_in_the_hedge_widget(self):
        w = self.create_widget(OWHedgeEnsemble)
        learner = OC1Learner(n_restarts=2)
        learner.name = "<b>bold\udc80"
        self.send_signal(w.Inputs.learner, learner, widget=w)
        self.assertEqual(w.base_label.text(), "<b>bold\udc80")
        self.assertEqual(w.base_label.textFormat(), Qt.PlainText)  # as typed, not as HTML
        w.send_report()
        assert_safe_html(self, w.report_html, "Hedge report")
        self.assertIn("&lt;b&gt;bold\\udc80", w.report_html)


def many_leaves_tree():
    """An unpruned OC1 tree of random labels: over 500 leaves."""
    rng = np.random.default_rng(0)
    domain = Domain([ContinuousVariable(f"x{j + 1}") for j in range(3)],
                    DiscreteVariable("y", values=("a", "b")))
    data = Table.from_numpy(domain, rng.normal(size=(2200, 3)), rng.integers(0, 2, 2200))
    model = OC1Learner(n_restarts=1, n_random_jumps=0, pruning_portion=0.0,
                       max_depth=None, random_state=0)(data)
    model.instances = data
    return model


def report_images(html):
    """The images of a report's HTML, as QImages."""
    images = []
    for encoded in re.findall(r'src="data:image/png;base64,([^"]+)"', html):
        image = QImage()
        image.loadFromData(base64.b64decode(encoded), "PNG")
        images.append(image)
    return images


class TestReportOfALargeTree(base.WidgetTest):
    """The report of a tree of 500 leaves: a picture of bounded size, or a sentence
    saying why it is left out (benchmarks/viewer_report.py times it)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.model = many_leaves_tree()

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)
        self.send_signal(self.widget.Inputs.tree, self.model)

    def assert_bounded(self, image):
        self.assertLessEqual(max(image.width(), image.height()), REPORT_PICTURE_SIDE)
        self.assertLessEqual(image.width() * image.height(), REPORT_PICTURE_PIXELS)

    def test_tree_of_500_leaves_drawn_whole(self):
        w = self.widget
        self.assertGreaterEqual(len(w.view_tree.leaves()), 500)
        w.scene.expand_all()
        rect = w.scene.sceneRect()
        self.assertGreater(rect.width(), 10 * REPORT_PICTURE_SIDE)
        w.send_report()
        for image in report_images(w.report_html):
            self.assert_bounded(image)
        self.assertIn("The picture of the tree is left out", w.report_html)
        self.assertIn(f"{rect.width():,.0f} × {rect.height():,.0f} pixels", w.report_html)
        self.assertIn("<pre", w.report_html)  # the rules are still there

    def test_top_levels_are_pictured_at_full_size(self):
        w = self.widget
        w.scene.expand_all()
        w.scene.open_top_levels(3)
        rect = w.scene.sceneRect()
        w.send_report()
        (image,) = report_images(w.report_html)
        self.assert_bounded(image)
        self.assertEqual((image.width(), image.height()),
                         (math.floor(rect.width()), math.floor(rect.height())))
        self.assertFalse(image.pixelColor(image.width() // 2, 30).name() == "#000000")

    def test_a_wide_readable_tree_is_scaled_to_the_bound(self):
        w = self.widget
        w.scene.expand_all()
        w.scene.open_top_levels(6)
        rect = w.scene.sceneRect()
        self.assertGreater(rect.width(), REPORT_PICTURE_SIDE)
        w.send_report()
        images = report_images(w.report_html)
        for image in images:
            self.assert_bounded(image)
        if images:  # else its text would be too small to read: the sentence says so
            self.assertEqual(images[0].width(), REPORT_PICTURE_SIDE)
        else:
            self.assertIn("The picture of the tree is left out", w.report_html)


class TestHostileStoredSettings(PatientWaits, NoUncaughtExceptions, base.WidgetTest):
    """Stored settings of another version, or forged: every widget opens with defaults
    and a warning naming them, nested settings (lists, dicts) included."""

    def setUp(self):
        super().setUp()
        self.widget = self.create_widget(OWObliqueTreeViewer)  # for WidgetTest's checks

    def test_oblique_data_angles(self):
        checkerboard = DATA_SETS[1]
        for angle in ("thirty", float("nan"), 1e308, float("inf"), None, [30], {"a": 1}):
            with self.subTest(angle=angle):
                w = self.create_widget(OWObliqueData, stored_settings={
                    "set_index": 1, "angles": {checkerboard.name: angle, 7: 10}})
                self.assertEqual(w.angle, checkerboard.angle)
                self.assertEqual(w.controls.angle.value(), checkerboard.angle)
                self.assertEqual(w.angles, {})
                self.assertTrue(w.Warning.settings_restored.is_shown())
                self.assertIn("angles", str(w.Warning.settings_restored))
                self.assertIsNotNone(self.get_output(w.Outputs.data, widget=w))
        # a usable angle is kept, as an int, and the warning stays through a commit
        w = self.create_widget(OWObliqueData, stored_settings={
            "set_index": 1, "angles": {checkerboard.name: 44.6, "other": "x"}})
        self.assertEqual(w.angles, {checkerboard.name: 45})
        self.assertEqual(w.angle, 45)
        w.commit.now()
        self.assertTrue(w.Warning.settings_restored.is_shown())
        w = self.create_widget(OWObliqueData, stored_settings={
            "set_index": 1, "angles": {checkerboard.name: 40}})
        self.assertFalse(w.Warning.settings_restored.is_shown())

    def test_oblique_data_angle_out_of_range(self):
        checkerboard = DATA_SETS[1]
        w = self.create_widget(OWObliqueData, stored_settings={
            "set_index": 1, "angles": {checkerboard.name: 100000}})
        self.assertEqual(w.angle, 180)

    def test_learner_widgets(self):
        data = Table("iris")
        hostile = {"seed": float("nan"), "replicable": "yes", "auto_apply": True}
        for widget_class, settings in LEARNER_WIDGETS:
            with self.subTest(widget_class.name):
                defaults = self.create_widget(widget_class)
                w = self.create_widget(widget_class,
                                       stored_settings={**settings, **hostile})
                for name in ("seed", "replicable"):
                    self.assertEqual(getattr(w, name), getattr(defaults, name), name)
                    self.assertIn(name, str(w.Warning.settings_restored))
                self.send_signal(w.Inputs.data, data, widget=w)
                self.wait_until_finished(widget=w, timeout=HANG_GUARD_MS)
                self.assertIsNotNone(self.get_output(w.Outputs.model, widget=w))
                self.assertTrue(w.Warning.settings_restored.is_shown())
                self.assertFalse(defaults.Warning.settings_restored.is_shown())

    def test_integer_too_large_for_a_spin_box(self):
        w = self.create_widget(OWOC1, stored_settings={"n_restarts": 1e308})
        self.assertEqual(w.n_restarts, 20)
        self.assertIn("n_restarts", str(w.Warning.settings_restored))

    def test_viewer(self):
        w = self.create_widget(OWObliqueTreeViewer, stored_settings={
            "max_terms": float("nan"), "selected_paths": {"a": [1]},
            "collapsed_paths": [[1e308], ["x"], None], "target_class": 5, "__version__": 2})
        self.assertEqual((w.max_terms, w.selected_paths, w.target_class), (3, [], ""))
        message = str(w.Warning.settings_restored)
        for name in ("max_terms", "selected_paths", "target_class"):
            self.assertIn(name, message)
        model = OC1Learner(n_restarts=2, random_state=0)(Table("iris"))
        self.send_signal(w.Inputs.tree, model, widget=w)
        self.assertEqual(w.scene.collapsed, set())
        self.assertTrue(w.Warning.settings_restored.is_shown())


class TestPreprocessingThatLeavesNoRows(PatientWaits, NoUncaughtExceptions,
                                        base.WidgetTest):

    def test_remove_nan_rows_of_a_table_with_a_missing_value_in_every_row(self):
        iris = Table("iris").copy()
        with iris.unlocked(iris.X):
            iris.X[:, 0] = np.nan
        for widget_class, settings in LEARNER_WIDGETS:
            with self.subTest(widget_class.name):
                w = self.create_widget(widget_class,
                                       stored_settings={"auto_apply": True, **settings})
                self.send_signal(w.Inputs.preprocessor, RemoveNaNRows(), widget=w)
                self.send_signal(w.Inputs.data, iris, widget=w)
                self.wait_until_finished(widget=w, timeout=HANG_GUARD_MS)
                self.assertIsNone(self.get_output(w.Outputs.model, widget=w))
                self.assertTrue(w.Error.fitting_failed.is_shown())
                self.assertIn("The preprocessing left no rows: RemoveNaNRows removed all "
                              "150 rows", str(w.Error.fitting_failed))


if __name__ == "__main__":
    unittest.main()
