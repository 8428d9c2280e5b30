"""Two rows of two classes: every learner either separates them or says why not."""
import warnings

import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.oblique import ODTSVMLearner, ObliqueForestLearner
from orangecontrib.oblique.core import ODTSVMClassifier, ObliqueForestClassifier
from orangecontrib.oblique.core.tree.structure import GrowthWarning
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

X = np.array([[0.0, 0.0], [1.0, 1.0]])
Y = np.array([0, 1])


def two_rows():
    domain = Domain([ContinuousVariable("a"), ContinuousVariable("b")],
                    DiscreteVariable("y", values=("p", "q")))
    return Table.from_numpy(domain, X, Y)


def test_odt_svm_says_why_it_grows_a_single_leaf():
    with pytest.warns(GrowthWarning, match="J48's minimum of 2 rows a leaf"):
        model = ODTSVMClassifier(random_state=0).fit(X, Y)
    assert model.tree_.node_count == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", GrowthWarning)   # the advice works, silently
        model = ODTSVMClassifier(min_samples_leaf=1, random_state=0).fit(X, Y)
    np.testing.assert_array_equal(model.predict(X), Y)


def test_odt_svm_learner_keeps_the_warning_for_the_widget():
    with pytest.warns(GrowthWarning):
        model = ODTSVMLearner(random_state=0)(two_rows())
    assert [m.kind for m in model.fit_messages] == ["growth"]
    assert "min_samples_leaf" in model.fit_messages[0].text


def test_the_forest_separates_two_rows():
    forest = ObliqueForestClassifier(random_state=0).fit(X, Y)
    np.testing.assert_array_equal(forest.predict(X), Y)
    model = ObliqueForestLearner(random_state=0)(two_rows())
    np.testing.assert_array_equal(model(two_rows()), Y)


class TestODTSVMWidgetOnTwoRows(WidgetTest):
    def test_the_widget_shows_why(self):
        widget = self.widget = self.create_widget(OWODTSVM)
        self.send_signal(widget.Inputs.data, two_rows())
        # the wait on the output's signal, its timeout only a guard against a hang
        model = self.get_output(widget.Outputs.model, wait=300_000)
        self.assertIsNotNone(model)
        self.assertTrue(widget.Warning.fit_warnings.is_shown())
        self.assertIn("min_samples_leaf", str(widget.Warning.fit_warnings.formatted))
