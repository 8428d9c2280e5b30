"""Issue 28: the analyst's first view -- the words of the viewer and the learner widgets
(the units sentence only for continuous terms, plurals), the viewer's opening view, the
partition on binary and nominal axes, the depth-limit warning of the learner widgets."""
import numpy as np

from Orange.data import Table
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner
from orangecontrib.oblique.widgets import viewertexts
from orangecontrib.oblique.widgets.modelsummary import obliqueness_text
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter


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
