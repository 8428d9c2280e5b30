"""The "Attributes per split" control of the GDT, OC1 and ODT-SVM widgets (max_terms)."""
from Orange.data import Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from tests.helpers.widget_helpers import PatientWaits


class AttributesPerSplitChecks(PatientWaits):
    WIDGET = None
    #: The widget's default: None for all attributes (the paper), else k
    DEFAULT = None

    def setUp(self):
        self.widget = self.create_widget(self.WIDGET)

    def model_with(self, data, k):
        w = self.widget
        w.controls.limit_terms.setChecked(k is not None)
        if k is not None:
            w.controls.max_terms.setValue(k)
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished()
        return self.get_output(w.Outputs.model)

    def test_default(self):
        """All attributes as in the paper, or the k of benchmarks/sparse.py's rule."""
        self.assertEqual(self.widget.limit_terms, self.DEFAULT is not None)
        self.assertEqual(self.get_output(self.widget.Outputs.learner).max_terms, self.DEFAULT)
        report = dict(self.widget.get_learner_parameters())
        self.assertEqual(report["Attributes per split"],
                         "all (as in the paper)" if self.DEFAULT is None
                         else f"at most {self.DEFAULT}")

    def test_all_attributes_when_unchecked(self):
        self.widget.controls.limit_terms.setChecked(False)
        self.assertIsNone(self.get_output(self.widget.Outputs.learner).max_terms)

    def test_at_most_k_reaches_the_learner_and_the_model(self):
        model = self.model_with(Table("heart_disease"), 2)
        self.assertEqual(self.get_output(self.widget.Outputs.learner).max_terms, 2)
        used = [s.features_used.size for s in model.tree_.splits if s is not None]
        self.assertTrue(used)
        self.assertLessEqual(max(used), 2)
        self.assertEqual(dict(self.widget.get_learner_parameters())["Attributes per split"],
                         "at most 2")

    def test_control_is_clamped_and_a_large_k_caps_nothing(self):
        w = self.widget
        w.controls.max_terms.setValue(0)
        self.assertEqual(w.max_terms, 1)
        w.controls.max_terms.setValue(10 ** 6)
        self.assertEqual(w.max_terms, 100)
        model = self.model_with(Table("iris"), 100)  # iris has 4 attributes
        self.assertFalse(w.Error.active)
        self.assertIsNotNone(model)

    def test_setting_is_saved(self):
        self.model_with(Table("iris"), 3)
        settings = self.widget.settingsHandler.pack_data(self.widget)
        restored = self.create_widget(self.WIDGET, stored_settings=settings)
        self.assertTrue(restored.limit_terms)
        self.assertEqual(restored.max_terms, 3)


class TestGeometricTreeAttributesPerSplit(AttributesPerSplitChecks, base.WidgetTest):
    WIDGET = OWGeometricTree
    DEFAULT = 3

    def test_workflows_saved_before_the_limit_keep_dense_splits(self):
        old = {"epsilon1": 0.15, "max_depth": 7, "__version__": 1}
        widget = self.create_widget(OWGeometricTree, stored_settings=old)
        self.assertFalse(widget.limit_terms)
        self.assertEqual(widget.epsilon1, 0.15)
        self.assertIsNone(self.get_output(widget.Outputs.learner, widget=widget).max_terms)


class TestOC1AttributesPerSplit(AttributesPerSplitChecks, base.WidgetTest):
    WIDGET = OWOC1
    DEFAULT = 3


class TestODTSVMAttributesPerSplit(AttributesPerSplitChecks, base.WidgetTest):
    # benchmarks/sparse.py --repeats 5: no k within 0.5 point of all attributes
    WIDGET = OWODTSVM
    DEFAULT = None

    def test_checking_the_box_gives_at_most_5(self):
        """Checked, the limit starts at 5, the k nearest to all attributes."""
        self.widget.controls.limit_terms.setChecked(True)
        self.assertEqual(self.get_output(self.widget.Outputs.learner).max_terms, 5)
