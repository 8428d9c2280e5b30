"""The analyst's first view -- the words of the viewer and the learner widgets
(the units sentence only for continuous terms, plurals), the viewer's opening view, the
partition on binary and nominal axes, the depth-limit warning of the learner widgets."""
import functools

import numpy as np

from AnyQt.QtGui import QFont, QFontMetricsF
from AnyQt.QtWidgets import QApplication

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.model.owtree import OWTreeLearner
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner, ODTSVMLearner
from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.widgets import optionalviews, splitviews, treescene, viewertexts
from orangecontrib.oblique.widgets.modelsummary import obliqueness_text
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter
from orangecontrib.oblique.widgets.treescene import MIN_TEXT_PIXELS

from tests.helpers.widget_helpers import PatientWaits, ShownViewer


def as_table(X, y):
    """An Orange table of continuous ``x1 .. xd`` and a 0/1 class."""
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(X.shape[1])],
                    DiscreteVariable("y", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


def fitted(learner, data):
    model = learner(data)
    model.instances = data
    return model


class TestWords(PatientWaits, base.WidgetTest):
    """Item 6: the units sentence only when a split has a continuous term; plurals."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.zoo = Table("zoo")
        cls.heart = Table("heart_disease")

    def test_no_units_sentence_without_continuous_terms(self):
        # zoo: every attribute nominal, so every column a 0/1 indicator
        tree = TreeAdapter.from_model(fitted(GeometricTreeLearner(random_state=0), self.zoo))
        self.assertEqual(viewertexts.units_sentence(tree), "")
        viewer = self.create_widget(OWObliqueTreeViewer)
        self.send_signal(viewer.Inputs.tree, tree.model)
        self.assertEqual(viewer.units_label.text(), "")
        self.assertTrue(viewer.units_label.isHidden())

    def test_units_sentence_names_a_continuous_attribute(self):
        model = fitted(GeometricTreeLearner(max_depth=3, random_state=0), self.heart)
        tree = TreeAdapter.from_model(model)
        sentence = viewertexts.units_sentence(tree)
        name = tree.example_attribute()
        self.assertIn(f"per unit of {name}", sentence)
        self.assertTrue(self.heart.domain[name].is_continuous)

    def test_plurals(self):
        iris = Table("iris")
        model = GeometricTreeLearner(max_terms=1, random_state=0)(iris)
        self.assertEqual(model.mean_attributes_per_split, 1)
        tree = TreeAdapter.from_model(model)
        self.assertTrue(viewertexts.split_summary(model, tree).endswith(
            " oblique, 1 attribute per split on average."))
        self.assertTrue(obliqueness_text(model).endswith(
            " oblique, 1 attribute per split on average"))
        self.assertEqual(viewertexts.attributes_per_split(2.5),
                         "2.5 attributes per split")
        self.assertEqual(viewertexts.attributes_per_split(2),
                         "2 attributes per split")


#: seconds a fit may take (the first fit of a learner loads or compiles its kernels)
FIT_TIMEOUT = 120


class TestDepthLimit(PatientWaits, base.WidgetTest):
    """Item 3: a learner widget warns when its fit stopped at the depth limit, pointing
    to pruning; Geometric Tree's widget uses the size rules of Orange's Tree widget."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        rng = np.random.default_rng(0)
        X = rng.normal(size=(400, 4))
        y = (X[:, 0] + rng.normal(scale=1.5, size=400) > 0).astype(int)  # noisy labels
        cls.noisy = as_table(X, y)

    def fit(self, widget):
        self.widget = widget
        self.send_signal(widget.Inputs.data, self.noisy, widget=widget)
        self.wait_until_finished(widget, timeout=FIT_TIMEOUT * 1000)
        return self.get_output(widget.Outputs.model, widget=widget)

    def test_geometric_tree_warns_and_points_to_pruning(self):
        w = self.create_widget(OWGeometricTree, stored_settings={"max_depth": 3})
        model = self.fit(w)
        tree = model.estimator.tree_
        self.assertEqual(tree.depth, 3)
        self.assertTrue(w.Warning.depth_limit.is_shown())
        text = str(w.Warning.depth_limit)
        self.assertIn("depth limit (3)", text)
        self.assertIn("Prune on held-out instances", text)
        w.controls.prune.setChecked(True)
        self.wait_until_finished(w, timeout=FIT_TIMEOUT * 1000)
        self.assertFalse(w.Warning.depth_limit.is_shown())
        # a tree that ends before the limit: no warning
        w.controls.prune.setChecked(False)
        w.controls.max_depth.setValue(40)
        self.wait_until_finished(w, timeout=FIT_TIMEOUT * 1000)
        self.assertLess(self.get_output(w.Outputs.model).estimator.tree_.depth, 40)
        self.assertFalse(w.Warning.depth_limit.is_shown())

    def test_odt_svm_without_pruning_warns(self):
        # (on these noisy labels J48's costs stop the tree at depth 1 anyway)
        w = self.create_widget(OWODTSVM, stored_settings={
            "limit_depth": True, "max_depth": 1, "prune": False})
        self.fit(w)
        self.assertTrue(w.Warning.depth_limit.is_shown())
        self.assertIn("Prune with confidence", str(w.Warning.depth_limit))

    def test_hedge_ensemble_warns_for_its_members(self):
        w = self.create_widget(OWHedgeEnsemble, stored_settings={"n_estimators": 2,
                                                                 "n_jobs": 1})
        self.send_signal(w.Inputs.learner, GeometricTreeLearner(max_depth=2))
        self.fit(w)
        self.assertTrue(w.Warning.depth_limit.is_shown())
        self.assertIn("base learner's pruning", str(w.Warning.depth_limit))
        self.send_signal(w.Inputs.learner, GeometricTreeLearner(max_depth=2,
                                                                pruning_portion=0.1))
        self.wait_until_finished(w, timeout=FIT_TIMEOUT * 1000)
        self.assertFalse(w.Warning.depth_limit.is_shown())

    def test_geometric_tree_widget_uses_orange_tree_size_rules(self):
        orange_tree = self.create_widget(OWTreeLearner)
        w = self.create_widget(OWGeometricTree)
        learner = w.create_learner()
        self.assertEqual(learner.min_samples_leaf, orange_tree.min_leaf)
        self.assertEqual(learner.min_samples_split, orange_tree.min_internal)
        # the paper's majority limit is 1 − ε1; the core keeps the paper's rules
        self.assertEqual(learner.epsilon1, 0.1)
        core = GeometricTreeClassifier()
        self.assertEqual((core.min_samples_leaf, core.min_samples_split), (1, 2))

    def test_min_samples_leaf_is_kept(self):
        X, y = self.noisy.X, self.noisy.Y.astype(int)
        for leaf_size in (1, 15):
            tree = GeometricTreeClassifier(min_samples_leaf=leaf_size).fit(X, y).tree_
            sizes = tree.n_node_samples[tree.is_leaf]
            if leaf_size == 1:
                self.assertLess(sizes.min(), 15)
            else:
                self.assertGreaterEqual(sizes.min(), 15)
        with self.assertRaises(ValueError):
            GeometricTreeClassifier(min_samples_leaf=0).fit(X, y)


@functools.cache
def first_view_trees():
    """The trees of the first-view tests: ``big``, a Geometric Tree of every term on
    heart disease (more than 40 nodes); ``odt``, an ODT-SVM tree of its widget's
    defaults on heart disease (dense: its third level is too wide for the window);
    ``small``, a Geometric Tree of depth 2 on iris."""
    heart, iris = Table("heart_disease"), Table("iris")
    return {"big": fitted(GeometricTreeLearner(max_terms=None, random_state=0), heart),
            "odt": fitted(ODTSVMLearner(random_state=0), heart),  # the widget's defaults
            "small": fitted(GeometricTreeLearner(max_depth=2, random_state=0), iris)}


class ApplicationFont:
    """The application's font ``FONT_PIXELS`` pixels high while the tests of the class
    run (PyQt5 offscreen writes 17 px, PyQt6 12 px, an X display 13 px by default);
    mix it in before ``base.WidgetTest``."""
    FONT_PIXELS = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls._saved_font = QApplication.font()
        font = QFont(cls._saved_font)
        font.setPixelSize(cls.FONT_PIXELS)
        QApplication.setFont(font)

    @classmethod
    def tearDownClass(cls):
        QApplication.setFont(cls._saved_font)
        super().tearDownClass()


class ViewerFirstView(ApplicationFont, PatientWaits, ShownViewer):
    """Item 1: the viewer opens readable with the root, its children and as many further
    levels as fit in view, whatever the font's size; Fit never shrinks text below a
    readable size, nor shows the root alone, nor enlarges the drawing; Fit to width says
    when it makes text unreadable; bar labels readable and whole where there is room;
    the row-path panel collapsed until a row is chosen.  (A plain class: the test cases
    below run it at each font size.)"""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        trees = first_view_trees()
        cls.big, cls.odt, cls.small = trees["big"], trees["odt"], trees["small"]

    def test_the_font_is_the_one_set(self):
        self.assertEqual(treescene.text_pixels(self.widget.scene.font()), self.FONT_PIXELS)

    def assert_top_levels_readable_in_view(self):
        """Node text readable, not enlarged; the root and all its children drawn and
        inside the window."""
        w = self.widget
        self.assertGreaterEqual(w.view.text_pixels(), MIN_TEXT_PIXELS - 1e-9)
        tree = w.view_tree
        visible = self.visible_rect().adjusted(-1, -1, 1, 1)
        for node in (0, *tree.children[0]):
            self.assertIn(node, w.items)
            self.assertTrue(visible.contains(w.items[node].sceneBoundingRect()),
                            f"node {node} not in view")
        self.assertLessEqual(w.view.zoom, 1 + 1e-9)

    def assert_as_many_levels_as_fit(self):
        """The drawn levels are those of the tree down to the deepest collapsed nodes, and
        one more level would not be readable in the window."""
        w = self.widget
        tree, scene, view = w.view_tree, w.scene, w.view
        levels = scene.deepest_drawn_level()
        self.assertTrue(scene.collapsed)
        self.assertEqual(scene.collapsed, {node for node in w.items if tree.children[node]
                                           and tree.depth[node] == levels})
        self.assertEqual(sorted(w.items), [node for node in range(tree.node_count)
                                           if tree.depth[node] <= levels])
        scene.expand_all()
        scene.open_top_levels(levels + 1)  # drawn, one level more
        rect = scene.sceneRect()
        viewport = view.viewport()
        self.assertTrue(rect.width() * view.readable_zoom() > viewport.width() - 4
                        or rect.height() * view.readable_zoom() > viewport.height() - 4)

    def test_opens_with_the_top_levels_in_view_and_readable(self):
        w = self.widget
        self.assertGreater(self.big.node_count(), 40)
        for name in ("big", "odt"):
            with self.subTest(name):
                self.send_signal(w.Inputs.tree, getattr(self, name))
                self.assert_top_levels_readable_in_view()
                self.assert_as_many_levels_as_fit()
                # the deeper nodes wait behind their collapsed parents, and Expand all
                # shows them
                w.scene.expand_all()
                self.assertEqual(len(w.items), w.view_tree.node_count)

    def test_a_small_tree_opens_whole(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.small)
        self.assertEqual(len(w.items), w.view_tree.node_count)
        self.assertFalse(w.scene.collapsed)
        self.assertTrue(self.visible_rect().contains(w.scene.itemsBoundingRect()))
        self.assertGreaterEqual(w.view.text_pixels(), MIN_TEXT_PIXELS - 1e-9)
        self.assertLessEqual(w.view.zoom, 1 + 1e-9)
        self.assertTrue(w.zoom_controls.note.isHidden())

    def test_fit_after_expand_all_shows_the_top_levels_readable(self):
        w = self.widget
        for name in ("big", "odt"):
            with self.subTest(name):
                self.send_signal(w.Inputs.tree, getattr(self, name))
                w.scene.expand_all()
                w.view.set_zoom(0.3)
                w.fit_to_window()
                self.assert_top_levels_readable_in_view()
                self.assert_as_many_levels_as_fit()
                self.assertFalse(w.zoom_controls.note.isHidden())
                self.assertIn("not readable in the window", w.zoom_controls.note.text())
        # a tree that fits readably: Fit shows all of it and says nothing
        self.send_signal(w.Inputs.tree, self.small)
        w.fit_to_window()
        self.assertTrue(w.zoom_controls.note.isHidden())
        self.assertTrue(self.visible_rect().contains(w.scene.itemsBoundingRect()))

    def test_fit_to_width_says_when_text_is_unreadable(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.odt)
        w.scene.expand_all()
        w.fit_to_width()
        self.assertLessEqual(w.scene.sceneRect().width() * w.view.zoom,
                             w.view.viewport().width())
        self.assertLess(w.view.text_pixels(), MIN_TEXT_PIXELS)
        self.assertFalse(w.zoom_controls.note.isHidden())
        self.assertIn("too small to read", w.zoom_controls.note.text())
        self.assertIn(f"{w.view.text_pixels():.1f} pixels", w.zoom_controls.note.text())
        # a tree whose width fits readably: no note
        self.send_signal(w.Inputs.tree, self.small)
        w.fit_to_width()
        self.assertGreaterEqual(w.view.text_pixels(), MIN_TEXT_PIXELS - 1e-9)
        self.assertTrue(w.zoom_controls.note.isHidden())

    def test_path_panel_collapsed_until_a_row_is_chosen(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        panel = w.path_panel
        self.assertTrue(w.path_list.isHidden())
        self.assertLess(panel.height(), 60)
        w.row_spin.setValue(3)
        self.assertFalse(w.path_list.isHidden())
        self.assertGreaterEqual(panel.height(), 150)
        w.row_spin.setValue(0)
        self.assertTrue(w.path_list.isHidden())

    def test_bar_labels_readable_and_whole_where_there_is_room(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.small)
        view = w.view
        label_pixels = treescene.text_pixels(treescene.label_font(w.scene.font()))
        self.assertGreaterEqual(label_pixels * view.readable_zoom(), 9 - 1e-9)
        item = w.items[0]  # at the default width: each name has a line of its own
        metrics = QFontMetricsF(treescene.label_font(w.scene.font()))
        for (_, label), name in zip(item.bar_rects(item.bars_rect()), item.bar_names):
            self.assertGreaterEqual(label.width() - 2, metrics.horizontalAdvance(name), name)
        self.assertIn(item.bar_names[0], item.bar_tooltip(
            item.bar_rects(item.bars_rect())[0][0].center()))


class TestViewerFirstView12px(ViewerFirstView, base.WidgetTest):
    """PyQt6's default font."""
    FONT_PIXELS = 12


class TestViewerFirstView13px(ViewerFirstView, base.WidgetTest):
    """An X display's default font."""
    FONT_PIXELS = 13


class TestViewerFirstView17px(ViewerFirstView, base.WidgetTest):
    """PyQt5 offscreen's default font."""
    FONT_PIXELS = 17


class TestUnitsOfThresholdTrees(PatientWaits, base.WidgetTest):
    def test_no_units_sentence_for_tests_of_one_attribute(self):
        """Item 6: a tree of nominal tests (ODT-SVM on titanic, one branch per value) or
        of thresholds on single attributes (OC1's axis-parallel mode on heart_disease)
        prints no weights, so the units sentence is not shown."""
        for learner, data in ((ODTSVMLearner(random_state=0), "titanic"),
                              (OC1Learner(split_mode="axis_parallel", random_state=0),
                               "heart_disease")):
            model = fitted(learner, Table(data))
            tree = TreeAdapter.from_model(model)
            self.assertEqual(model.n_oblique_splits, 0)
            self.assertGreater(model.estimator.tree_.node_count, 1)
            self.assertEqual(viewertexts.units_sentence(tree), "")


def colour_and_numbers(n_rows=300, seed=0):
    """A nominal attribute of three values and a numeric one; the class depends on
    both (ODT-SVM tests the nominal one for equality)."""
    rng = np.random.default_rng(seed)
    colour = rng.integers(0, 3, n_rows)
    x = rng.normal(size=n_rows)
    y = ((colour == 1) ^ (x > 0.3)).astype(int)
    domain = Domain([DiscreteVariable("colour", values=("red", "green", "blue")),
                     ContinuousVariable("x")], DiscreteVariable("y", values=("no", "yes")))
    return Table.from_numpy(domain, np.column_stack([colour, x]).astype(float), y)


class TestPartitionOnCategories(PatientWaits, base.WidgetTest):
    """Item 2: value labels and jitter on binary and nominal axes, the default axes
    from the selected split, a sentence where the view cannot apply, and regions and
    points that agree with the model."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table("heart_disease")

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)

    def partition(self, model):
        self.send_signal(self.widget.Inputs.tree, model)
        view = self.widget.partition_view
        self.assertEqual(view.message, "")
        return view

    def region_colour_at(self, view, point):
        (x0, x1), (y0, y1) = view.image_extent
        image = view.image_item.image
        height, width = image.shape[:2]
        column = min(int((point[0] - x0) / (x1 - x0) * width), width - 1)
        row = min(int((point[1] - y0) / (y1 - y0) * height), height - 1)
        return tuple(int(v) for v in image[row, column])

    def test_regions_and_points_agree_with_the_model(self):
        data = colour_and_numbers()
        model = fitted(ODTSVMLearner(random_state=0), data)
        self.assertTrue(any(s is not None and s.conditions()[0].form == "equal"
                            for s in model.tree_.splits))
        view = self.partition(model)
        self.assertEqual(view.features, (0, 1))
        points = view.plotted_points()
        predicted = model(data).astype(int)
        colours = model.domain.class_var.colors
        lighter = [tuple(splitviews._lighter(c)) for c in colours]
        agree = [self.region_colour_at(view, point) == lighter[k]
                 for point, k in zip(points, predicted)]
        self.assertTrue(all(agree), f"{agree.count(False)} rows in a region of another class")

    def test_nominal_axis_has_value_labels_and_jitter(self):
        data = colour_and_numbers()
        view = self.partition(fitted(ODTSVMLearner(random_state=0), data))
        self.assertEqual(view.categories, {0: ["red", "green", "blue"]})
        ticks = view.plot.getAxis("bottom")._tickLevels
        self.assertEqual(ticks, [[(0, "red"), (1, "green"), (2, "blue")]])
        points = view.plotted_points()
        offsets = points[:, 0] - data.X[:, 0]
        self.assertLessEqual(np.abs(offsets).max(), splitviews.JITTER)
        self.assertGreater(np.unique(points[:, 0]).size, 100)  # coinciding rows spread
        np.testing.assert_array_equal(points[:, 1], data.X[:, 1])  # numeric: exact
        self.assertEqual(view.image_extent[0], (-0.5, 2.5))
        self.assertIn("colour has categories, not a scale", view.held_text)

    def test_indicator_columns_read_as_values(self):
        model = fitted(GeometricTreeLearner(max_depth=3, random_state=0), self.heart)
        kinds = optionalviews.categories(TreeAdapter.from_model(model))
        names = [attr.name for attr in model.domain.attributes]
        self.assertEqual(kinds[names.index("gender=male")], ["female", "male"])
        self.assertEqual(kinds[names.index("chest pain=asymptomatic")],
                         ["not asymptomatic", "asymptomatic"])
        self.assertNotIn(names.index("age"), kinds)

    def test_default_axes_are_the_numeric_attributes_of_the_selected_split(self):
        model = fitted(GeometricTreeLearner(max_terms=None, max_depth=3, random_state=0),
                       self.heart)
        w = self.widget
        view = self.partition(model)
        tree = w.view_tree
        kinds = view.categories
        X = view._shown["X"]
        for node in [0] + [n for n in tree.children[0] if not tree.is_leaf(n)]:
            w.select_nodes({node})
            split = model.tree_.splits[tree.core_node(node)]
            weight = np.abs(split.weights[0]) * X.std(axis=0)
            numeric = sorted((j for j in np.flatnonzero(split.weights[0])
                              if j not in kinds), key=lambda j: -weight[j])
            self.assertGreaterEqual(len(numeric), 2)
            self.assertEqual(view.features, tuple(numeric[:2]), node)

    def test_a_single_leaf_says_why_there_is_no_partition(self):
        model = fitted(GeometricTreeLearner(max_depth=0), self.heart)
        self.send_signal(self.widget.Inputs.tree, model)
        self.assertEqual(self.widget.partition_view.message, splitviews.SINGLE_LEAF)

    def test_held_binary_and_nominal_values_in_words(self):
        model = fitted(GeometricTreeLearner(max_depth=3, random_state=0), self.heart)
        view = self.partition(model)
        names = [attr.name for attr in model.domain.attributes]
        text = view.held_label.toolTip()
        fixed = dict(zip(names, view.fixed))
        for column, attribute, value in (("gender=male", "gender", "male"),
                                         ("thal=reversable defect", "thal",
                                          "reversable defect")):
            if names.index(column) in view.features:
                continue
            held = int(fixed[column])
            if attribute == "gender":
                words = f"gender = {value}" if held else "gender = female"
            else:  # a nominal of three values: held at the one a row has, by its name
                held_at = [name for name in names
                           if name.startswith(f"{attribute}=") and fixed[name] == 1]
                self.assertEqual(len(held_at), 1)
                words = f"{attribute} = {held_at[0].split('=', 1)[1]}"
            self.assertIn(words, text)
