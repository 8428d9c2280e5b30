"""Issue 28: the analyst's first view -- the words of the viewer and the learner widgets
(the units sentence only for continuous terms, plurals), the viewer's opening view, the
partition on binary and nominal axes, the depth-limit warning of the learner widgets."""
import numpy as np

from AnyQt.QtGui import QFontMetricsF

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.model.owtree import OWTreeLearner
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner
from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.widgets import treescene, viewertexts
from orangecontrib.oblique.widgets.modelsummary import obliqueness_text
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter


def as_table(X, y):
    """An Orange table of continuous ``x1 .. xd`` and a 0/1 class."""
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(X.shape[1])],
                    DiscreteVariable("y", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


def fitted(learner, data):
    model = learner(data)
    model.instances = data
    return model


class TestWords(base.WidgetTest):
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


class TestDepthLimit(base.WidgetTest):
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
        self.wait_until_finished(widget)
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
        self.wait_until_finished(w)
        self.assertFalse(w.Warning.depth_limit.is_shown())
        # a tree that ends before the limit: no warning
        w.controls.prune.setChecked(False)
        w.controls.max_depth.setValue(40)
        self.wait_until_finished(w)
        self.assertLess(self.get_output(w.Outputs.model).estimator.tree_.depth, 40)
        self.assertFalse(w.Warning.depth_limit.is_shown())

    def test_odt_svm_without_pruning_warns(self):
        w = self.create_widget(OWODTSVM, stored_settings={
            "limit_depth": True, "max_depth": 2, "prune": False})
        self.fit(w)
        self.assertTrue(w.Warning.depth_limit.is_shown())
        self.assertIn("Prune with confidence", str(w.Warning.depth_limit))

    def test_hedge_ensemble_warns_for_its_members(self):
        w = self.create_widget(OWHedgeEnsemble, stored_settings={"n_estimators": 2})
        self.send_signal(w.Inputs.learner, GeometricTreeLearner(max_depth=2))
        self.fit(w)
        self.assertTrue(w.Warning.depth_limit.is_shown())
        self.assertIn("base learner's pruning", str(w.Warning.depth_limit))
        self.send_signal(w.Inputs.learner, GeometricTreeLearner(max_depth=2,
                                                                pruning_portion=0.1))
        self.wait_until_finished(w)
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


class TestViewerFirstView(base.WidgetTest):
    """Item 1: the viewer opens readable with the root and the next two levels in view;
    Fit never shrinks text below a readable size; bar labels readable and whole where
    there is room; the row-path panel collapsed until a row is chosen."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        heart = Table("heart_disease")
        cls.big = fitted(GeometricTreeLearner(max_terms=None, random_state=0), heart)
        iris = Table("iris")
        cls.small = fitted(GeometricTreeLearner(max_depth=2, random_state=0), iris)

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)
        self.widget.resize(self.widget.sizeHint())  # the size Orange opens it at
        self.widget.show()

    def tearDown(self):
        self.widget.hide()
        super().tearDown()

    def visible_rect(self):
        view = self.widget.view
        return view.mapToScene(view.viewport().rect()).boundingRect()

    def test_opens_with_the_top_levels_in_view_and_readable(self):
        w = self.widget
        self.assertGreater(self.big.node_count(), 40)
        self.send_signal(w.Inputs.tree, self.big)
        self.assertGreaterEqual(w.view.text_pixels(), 11 - 1e-9)
        tree = w.view_tree
        top = [node for node in range(tree.node_count) if tree.depth[node] <= 2]
        self.assertEqual(sorted(w.items), top)
        visible = self.visible_rect().adjusted(-1, -1, 1, 1)
        for node in top:
            self.assertTrue(visible.contains(w.items[node].sceneBoundingRect()), node)
        # the deeper nodes wait behind their collapsed parents, and Expand all shows them
        self.assertEqual(w.scene.collapsed, {node for node in top if tree.depth[node] == 2
                                             and tree.children[node]})
        w.scene.expand_all()
        self.assertEqual(len(w.items), tree.node_count)

    def test_a_small_tree_opens_whole(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.small)
        self.assertEqual(len(w.items), w.view_tree.node_count)
        self.assertFalse(w.scene.collapsed)
        self.assertTrue(self.visible_rect().contains(w.scene.itemsBoundingRect()))
        self.assertGreaterEqual(w.view.text_pixels(), 11 - 1e-9)
        self.assertTrue(w.zoom_controls.note.isHidden())

    def test_fit_never_shrinks_text_below_readable(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, self.big)
        w.scene.expand_all()
        w.fit_to_window()
        self.assertGreaterEqual(w.view.text_pixels(), 11 - 1e-9)
        self.assertFalse(w.zoom_controls.note.isHidden())
        self.assertIn("not readable in the window", w.zoom_controls.note.text())
        root = w.items[0].sceneBoundingRect()
        self.assertTrue(self.visible_rect().intersects(root))
        # a tree that fits readably: Fit shows all of it and says nothing
        self.send_signal(w.Inputs.tree, self.small)
        w.fit_to_window()
        self.assertTrue(w.zoom_controls.note.isHidden())
        self.assertTrue(self.visible_rect().contains(w.scene.itemsBoundingRect()))

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
        # slots: whole labels when they fit, only the widest cut when they do not
        slots = treescene.label_slots([150, 20, 160], 210)
        self.assertAlmostEqual(slots.sum(), 210)
        self.assertGreaterEqual(slots[1], 20)
        self.assertTrue((treescene.label_slots([100, 30], 200) >= [100, 30]).all())
        w.node_width = 420  # room for every name: each label whole
        w._redraw()
        item = w.items[0]
        metrics = QFontMetricsF(treescene.label_font(w.scene.font()))
        for (_, label), name in zip(item.bar_rects(item.bars_rect()), item.bar_names):
            self.assertGreaterEqual(label.width() - 2, metrics.horizontalAdvance(name), name)
        self.assertIn(item.bar_names[0], item.bar_tooltip(
            item.bar_rects(item.bars_rect())[0][0].center()))
