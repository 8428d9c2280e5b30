"""Hostile data into every learner widget and into the Oblique Tree Viewer.

Every table below must give either a model whose probabilities are finite and sum to one,
or a widget error that names the problem; never an uncaught exception (each test fails
on one, see :class:`NoUncaughtExceptions`) and never a stale model.
"""
import unittest
import warnings

import numpy as np
import scipy.sparse as sp

from Orange.classification import TreeLearner
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain, StringVariable,
                         Table)
from Orange.regression import TreeLearner as TreeRegressionLearner
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import HedgeEnsembleModel, ObliqueTreeModel, OC1Learner
from orangecontrib.oblique.learners import FitMessage
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from tests.helpers.widget_helpers import (HANG_GUARD_MS, IrisTreeViewer, NoUncaughtExceptions,
                                          PatientWaits)

#: Longest wait (ms) for a fit of one of the small tables below: a guard against a hang.
FIT_TIMEOUT = HANG_GUARD_MS


def table(X, y, n_classes=2, W=None):
    X = np.array(X, dtype=float)  # a copy: the table locks (and may edit) its arrays
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(X.shape[1])],
                    DiscreteVariable("y", values=[f"c{k}" for k in range(n_classes)]))
    return Table.from_numpy(domain, X, np.asarray(y, dtype=float), W=W)


def text_like_table(n_rows=2000, n_columns=20000, n_values=80000):
    """2,000 rows × 20,000 attributes, 0.2 % non-zero: 0.6 MB sparse, 320 MB dense."""
    rng = np.random.default_rng(0)
    X = sp.csr_matrix((rng.integers(1, 5, n_values).astype(float),
                       (rng.integers(0, n_rows, n_values),
                        rng.integers(0, n_columns, n_values))), shape=(n_rows, n_columns))
    domain = Domain([ContinuousVariable(f"w{i}") for i in range(n_columns)],
                    DiscreteVariable("y", values=["a", "b"]))
    return Table.from_numpy(domain, X, (np.arange(n_rows) % 2).astype(float))


def base_data():
    """60 rows, 3 features, two classes split by x1 + x2 = 0."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    return X, (X[:, 0] + X[:, 1] > 0).astype(float)


class HostileInputChecks(PatientWaits, NoUncaughtExceptions):
    """The checks, run for every learner widget (a subclass names it and its settings)."""
    widget_class = None
    settings = {}
    #: whether the model is a single tree (shown by the Oblique Tree Viewer)
    is_tree = True

    def setUp(self):
        super().setUp()
        self.widget = self.create_widget(
            self.widget_class, stored_settings={"auto_apply": True, **self.settings})
        self.wait_until_finished(timeout=FIT_TIMEOUT)

    def fit(self, data):
        self.send_signal(self.widget.Inputs.data, data)
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        return self.get_output(self.widget.Outputs.model)

    def messages(self, group):
        return "\n".join(str(message) for message in group.active)

    def assert_model(self, data, model=None):
        """A model of ``data`` with sane probabilities, no error, shown by the viewer."""
        w = self.widget
        model = model or self.get_output(w.Outputs.model)
        self.assertFalse(w.Error.active, self.messages(w.Error))
        self.assertIsNotNone(model)
        self.assertIs(model.instances, data)
        probabilities = model(data, model.Probs)
        self.assertEqual(probabilities.shape, (len(data), len(data.domain.class_var.values)))
        self.assertTrue(np.isfinite(probabilities).all(), "NaN or inf probabilities")
        np.testing.assert_allclose(probabilities.sum(axis=1), 1, atol=1e-9)
        if self.is_tree:
            self.assertIsInstance(model, ObliqueTreeModel)
            viewer = self.create_widget(OWObliqueTreeViewer)
            self.send_signal(viewer.Inputs.tree, model, widget=viewer)
            self.send_signal(viewer.Inputs.data, data, widget=viewer)
            self.assertFalse(viewer.Error.active, self.messages(viewer.Error))
            self.assertEqual(len(viewer.items), viewer.view_tree.node_count)
            self.assertTrue(viewer.rules_text())
        else:
            self.assertIsInstance(model, HedgeEnsembleModel)
        return model

    def assert_error(self, message, text):
        """No model, and ``message`` (a widget Msg) shown with ``text`` in it."""
        w = self.widget
        self.assertIsNone(self.get_output(w.Outputs.model))
        self.assertIsNone(w.model)
        self.assertTrue(message.is_shown(), self.messages(w.Error) or "no error shown")
        self.assertIn(text.lower(), str(message).lower())
        self.assertFalse(w.isInvalidated())
        self.assertIsNone(w.task)

    # ----- too little to learn from -----
    def test_empty_table(self):
        X, y = base_data()
        self.fit(table(X[:0], y[:0]))
        self.assert_error(self.widget.Error.data_error, "empty")

    def test_one_row(self):
        self.fit(table([[1.0, 2.0, 3.0]], [0]))
        self.assert_error(self.widget.Error.single_class, "single class")

    def test_two_rows_of_different_classes(self):
        data = table([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]], [0, 1])
        model = self.assert_model(data, self.fit(data))
        # nothing else to learn from: the two rows are told apart or get equal odds
        probabilities = model(data, model.Probs)
        self.assertTrue(np.all(probabilities[[0, 1], [0, 1]] >= 0.5))

    def test_single_class(self):
        X, _ = base_data()
        self.fit(table(X, np.zeros(len(X))))
        self.assert_error(self.widget.Error.single_class, "single class")

    def test_every_class_missing(self):
        X, _ = base_data()
        self.fit(table(X, np.full(len(X), np.nan)))
        self.assert_error(self.widget.Error.no_class_values, "every class value is missing")

    def test_no_attributes(self):
        _, y = base_data()
        data = Table.from_numpy(Domain([], DiscreteVariable("y", values=["a", "b"])),
                                np.empty((len(y), 0)), y)
        self.fit(data)
        self.assert_error(self.widget.Error.data_error, "no features")

    def test_numeric_target(self):
        X, _ = base_data()
        domain = Domain([ContinuousVariable("x1"), ContinuousVariable("x2")],
                        ContinuousVariable("target"))
        self.fit(Table.from_numpy(domain, X[:, :2], 2 * X[:, 0]))
        self.assert_error(self.widget.Error.data_error, "categorical class variable expected")

    def test_no_target(self):
        X, _ = base_data()
        domain = Domain([ContinuousVariable(f"x{i}") for i in range(3)])
        self.fit(Table.from_numpy(domain, X))
        self.assert_error(self.widget.Error.data_error, "no target variable")

    # ----- awkward shapes and values -----
    def test_more_features_than_rows(self):
        rng = np.random.default_rng(1)
        X = rng.normal(size=(10, 50))
        data = table(X, (X[:, 0] > 0).astype(float))
        self.assert_model(data, self.fit(data))

    def test_constant_duplicated_and_collinear_columns(self):
        X, y = base_data()
        data = table(np.column_stack([X, np.ones(len(X)), X[:, 0], 2 * X[:, 0] - X[:, 1]]), y)
        model = self.assert_model(data, self.fit(data))
        self.assertGreater(np.mean(model(data) == y), 0.8)

    def test_identical_rows_labelled_differently(self):
        data = table(np.ones((20, 3)), np.arange(20) % 2)
        model = self.assert_model(data, self.fit(data))
        # rows that cannot be told apart get the same probabilities
        np.testing.assert_allclose(np.ptp(model(data, model.Probs), axis=0), 0)

    def test_nan_in_features_is_imputed(self):
        X, y = base_data()
        X = X.copy()
        X[np.random.default_rng(2).random(X.shape) < 0.2] = np.nan
        data = table(X, y)
        self.assert_model(data, self.fit(data))
        self.assertFalse(self.widget.Warning.active)

    def test_nan_in_class_skips_rows_with_warning(self):
        X, y = base_data()
        y = y.copy()
        y[:7] = np.nan
        data = table(X, y)
        model = self.assert_model(data, self.fit(data))
        w = self.widget
        self.assertTrue(w.Warning.missing_class.is_shown())
        self.assertIn("7 instances with a missing class are skipped",
                      str(w.Warning.missing_class))
        # the same count is not told twice (the learner may warn about it too)
        self.assertFalse(w.Warning.fit_warnings.is_shown(), str(w.Warning.fit_warnings))
        if self.is_tree:  # the rows stay in the model's table, and in its node subsets
            self.assertEqual(len(model.root.subset), len(data))
            self.assertEqual(model.root.value.sum(), 53)
        # a refit of the same data shows the warning again
        self.send_signal(w.Inputs.data, None)
        self.assertFalse(w.Warning.missing_class.is_shown())
        self.fit(data)
        self.assertTrue(w.Warning.missing_class.is_shown())

    def test_infinite_values(self):
        X, y = base_data()
        X = X.copy()
        X[0, 0], X[1, 1], X[2, 2] = np.inf, -np.inf, np.inf
        data = table(X, y)
        with data.unlocked(data.X):  # Table.from_numpy turns inf into NaN; a widget may not
            data.X[0, 0], data.X[1, 1], data.X[2, 2] = np.inf, -np.inf, np.inf
        model = self.fit(data)
        w = self.widget
        if model is None:  # a clear refusal is fine too
            self.assert_error(w.Error.fitting_failed, "inf")
        else:
            self.assert_model(data, model)
            # the learner's warning about them reaches the widget
            self.assertTrue(w.Warning.fit_warnings.is_shown())
            self.assertIn("3 infinite", str(w.Warning.fit_warnings))

    def test_huge_and_tiny_values(self):
        X, y = base_data()
        for scale in (1e12, 1e-12):
            data = table(X * scale, y)
            model = self.assert_model(data, self.fit(data))
            self.assertGreater(np.mean(model(data) == y), 0.8, f"scale {scale}")

    def test_imbalance_1_to_1000(self):
        rng = np.random.default_rng(3)
        X = rng.normal(size=(1001, 3))
        y = np.zeros(1001)
        y[0] = 1
        X[0] += 4
        data = table(X, y)
        model = self.assert_model(data, self.fit(data))
        self.assertGreater(np.mean(model(data) == y), 0.99)

    def test_120_classes(self):
        rng = np.random.default_rng(4)
        data = table(rng.normal(size=(240, 3)), np.arange(240) % 120, n_classes=120)
        self.assert_model(data, self.fit(data))
        # no library's warning (scikit-learn: "... could represent a regression problem")
        self.assertFalse(self.widget.Warning.active, self.messages(self.widget.Warning))

    def test_nominal_attribute_with_120_values(self):
        rng = np.random.default_rng(5)
        values = [f"v{i}" for i in range(120)]
        domain = Domain([DiscreteVariable("nominal", values=values), ContinuousVariable("x")],
                        DiscreteVariable("y", values=["a", "b"]))
        x = rng.normal(size=240)
        data = Table.from_numpy(domain, np.column_stack([np.arange(240) % 120, x]),
                                (x > 0).astype(float))
        model = self.assert_model(data, self.fit(data))
        self.assertGreater(np.mean(model(data) == data.Y), 0.9)

    def test_string_and_meta_columns(self):
        X, y = base_data()
        domain = Domain([ContinuousVariable("x1"), ContinuousVariable("x2")],
                        DiscreteVariable("y", values=["a", "b"]),
                        metas=[StringVariable("name"), ContinuousVariable("meta number")])
        metas = np.array([[f"row {i}", float(i)] for i in range(len(y))], dtype=object)
        data = Table.from_numpy(domain, X[:, :2], y, metas=metas)
        model = self.assert_model(data, self.fit(data))
        self.assertEqual([a.name for a in model.domain.attributes], ["x1", "x2"])

    def test_instance_weights(self):
        X, y = base_data()
        weights = np.random.default_rng(6).uniform(0.1, 5, size=len(y))
        data = table(X, y, W=weights)
        model = self.assert_model(data, self.fit(data))
        if self.is_tree:  # the class counts of the root are sums of weights
            self.assertAlmostEqual(model.root.value.sum(), weights.sum())

    def test_instance_weights_of_any_size(self):
        """Weights 1e-9 give the model of no weights (only their ratios matter); weights
        whose sum overflows are the widget's error."""
        X, y = base_data()
        data = table(X, y)
        unweighted = self.fit(data)
        tiny = table(X, y, W=np.full(len(y), 1e-9))
        weighted = self.assert_model(tiny, self.fit(tiny))
        np.testing.assert_array_equal(weighted(data), unweighted(data))
        self.fit(table(X, y, W=np.full(len(y), 1e308)))
        self.assert_error(self.widget.Error.fitting_failed,
                          "sample_weight sums to more than the largest float")

    def test_sparse_tables(self):
        """A sparse table is fitted as the dense one; one too large to densify is the
        widget's error, with its dense size."""
        X, y = base_data()
        X[np.abs(X) < 0.5] = 0
        dense = table(X, y)
        sparse = Table.from_numpy(dense.domain, sp.csr_matrix(X), y)
        model = self.assert_model(sparse, self.fit(sparse))
        np.testing.assert_array_equal(model(dense), self.fit(dense)(dense))
        self.fit(text_like_table())
        self.assert_error(self.widget.Error.fitting_failed,
                          "this sparse table would take 320 MB as a dense array (2,000 "
                          "rows × 20,000 columns)")
        self.assertIn("select fewer attributes", str(self.widget.Error.fitting_failed))

    def test_recovers_after_an_error(self):
        """A message of hostile data goes when good data come, and the other way."""
        w = self.widget
        X, y = base_data()
        good = table(X, y)
        self.fit(table(X, np.zeros(len(y))))
        self.assertTrue(w.Error.single_class.is_shown())
        self.assert_model(good, self.fit(good))
        self.assertFalse(w.Error.active)
        self.fit(table(X[:0], y[:0]))
        self.assertTrue(w.Error.data_error.is_shown())
        self.send_signal(w.Inputs.data, None)
        self.assertFalse(w.Error.active)
        self.assertIsNone(self.get_output(w.Outputs.model))


class TestGeometricTreeHostileInputs(HostileInputChecks, base.WidgetTest):
    widget_class = OWGeometricTree


class TestOC1HostileInputs(HostileInputChecks, base.WidgetTest):
    widget_class = OWOC1
    settings = {"n_restarts": 5}


class TestODTSVMHostileInputs(HostileInputChecks, base.WidgetTest):
    widget_class = OWODTSVM


class TestHedgeEnsembleHostileInputs(HostileInputChecks, base.WidgetTest):
    widget_class = OWHedgeEnsemble
    settings = {"n_estimators": 3}
    is_tree = False


class TestLearnerWarningsInWidget(PatientWaits, NoUncaughtExceptions, base.WidgetTest):
    """What the learner did to the data (the model's ``fit_messages``) becomes a widget
    warning."""

    def setUp(self):
        super().setUp()
        self.widget = self.create_widget(OWOC1, stored_settings={"n_restarts": 2})

    def test_learner_warning_is_shown_and_cleared(self):
        w = self.widget
        X, y = base_data()
        data = table(X, y)
        with data.unlocked(data.X):
            data.X[:4, 0] = np.inf
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        if self.get_output(w.Outputs.model) is None:
            self.skipTest("the learner refuses ±inf rather than warning")
        self.assertTrue(w.Warning.fit_warnings.is_shown(), "the learner's warning is lost")
        self.assertIn("4", str(w.Warning.fit_warnings))
        self.assertIn("inf", str(w.Warning.fit_warnings))
        # the same data again (the "default" warning filter would show it only once)
        self.send_signal(w.Inputs.data, None)
        self.assertFalse(w.Warning.fit_warnings.is_shown())
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        self.assertTrue(w.Warning.fit_warnings.is_shown())
        self.send_signal(w.Inputs.data, table(X, y))
        self.wait_until_finished(timeout=FIT_TIMEOUT)
        self.assertFalse(w.Warning.fit_warnings.is_shown())
        self.assertIsNotNone(self.get_output(w.Outputs.model))


    def test_messages_travel_with_the_model_not_through_warnings(self):
        """The widget shows the model's messages even when Python's warnings are ignored,
        and leaves ``warnings.showwarning`` alone."""
        w = self.widget
        X, y = base_data()
        data = table(X, y)
        with data.unlocked(data.X):
            data.X[:2, 1] = -np.inf
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            handler = warnings.showwarning
            self.send_signal(w.Inputs.data, data)
            self.wait_until_finished(timeout=FIT_TIMEOUT)
            self.assertIs(warnings.showwarning, handler)
        model = self.get_output(w.Outputs.model)
        self.assertEqual([(m.kind, m.count) for m in model.fit_messages],
                         [("infinite_values", 2)])
        self.assertEqual(str(w.Warning.fit_warnings),
                         "2 infinite feature values (±inf) treated as missing and imputed.")

    def test_skipped_rows_are_told_once_by_the_missing_class_warning(self):
        w = self.widget
        skipped = FitMessage("skipped_rows", 3, 10, "3 of 10 rows have a missing class "
                                                    "value and were left out of the fit.")
        infinite = FitMessage("infinite_values", 1, 40, "1 infinite feature value (±inf) "
                                                        "treated as missing and imputed.")
        w.show_fit_messages((infinite, skipped, infinite))
        self.assertTrue(w.Warning.missing_class.is_shown())
        self.assertEqual(str(w.Warning.missing_class),
                         "3 instances with a missing class are skipped in training.")
        self.assertEqual(str(w.Warning.fit_warnings), infinite.text)
        # shown already (by the check of the data before the fit): not changed
        w.Warning.missing_class("1 instance", "is")
        w.show_fit_messages((skipped,))
        self.assertIn("1 instance with a missing class is", str(w.Warning.missing_class))
        self.assertFalse(w.Warning.fit_warnings.is_shown())


class TestViewerHostileData(IrisTreeViewer, NoUncaughtExceptions, base.WidgetTest):
    """Hostile Data (in the model's domain) into the Oblique Tree Viewer of an iris tree."""

    def setUp(self):
        super().setUp()
        self.send_signal(self.widget.Inputs.tree, self.model)

    def show(self, data):
        w = self.widget
        self.send_signal(w.Inputs.data, data)
        self.assertFalse(w.Error.active, "\n".join(map(str, w.Error.active)))
        self.assertIs(w.data, data)  # counts are from the Data input
        self.assertEqual(len(w.items), w.view_tree.node_count)
        self.assertEqual(w.node_n(0), len(data))
        w.select_nodes(set(w.items))
        selected = self.get_output(w.Outputs.selected_data)
        self.assertEqual(0 if selected is None else len(selected), len(data))
        annotated = self.get_output(w.Outputs.annotated_data)
        self.assertEqual(len(annotated), len(data))
        return w

    def test_empty_data(self):
        w = self.show(self.iris[:0])
        self.assertTrue(all(w.node_n(node) == 0 for node in w.items))
        self.assertTrue(w.rules_text())

    def test_one_row(self):
        w = self.show(self.iris[:1])
        w.row_spin.setValue(1)  # rows are numbered from 1, as in Orange's Data Table
        self.assertGreater(w.path_list.count(), 0)

    def test_missing_and_infinite_values_and_classes(self):
        data = self.iris.copy()
        with data.unlocked():
            data.X[::7, 2] = np.nan
            data.X[1::11, 3] = np.inf
            data.X[2::13, 0] = -np.inf
            data.Y[::5] = np.nan
        w = self.show(data)
        for row in (1, 2, 3):  # numbered from 1
            w.row_spin.setValue(row)
            self.assertGreater(w.path_list.count(), 0)
        self.assertTrue(np.isfinite(w.counts.value).all())

    def test_infinite_values_are_drawn_without_numpy_warnings(self):
        """The partition's axes span the finite values: no ±inf range reaches the plane
        geometry (it warned of invalid values in its grid and clipping)."""
        data = self.iris.copy()
        with data.unlocked():
            data.X[1::11, 3] = np.inf
            data.X[2::13, 0] = -np.inf
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            w = self.show(data)
            for node in w.items:
                w.select_nodes({node})
                self.assertFalse(w.Warning.view_failed.is_shown(), str(w.Warning.view_failed))
        self.assertTrue(np.isfinite(w.counts.value).all())

    def test_data_without_class(self):
        data = self.iris.transform(Domain(self.iris.domain.attributes))
        self.show(data)

    def test_weights_duplicates_and_metas(self):
        domain = Domain(self.iris.domain.attributes, self.iris.domain.class_var,
                        metas=[StringVariable("name")])
        data = self.iris.transform(domain)[np.r_[0:150, 0:150]]
        with data.unlocked():
            data.metas[:, 0] = [f"row {i}" for i in range(len(data))]
            data.set_weights(np.linspace(0.5, 2, len(data)))
        self.show(data)

    def test_regression_tree(self):
        w = self.widget
        housing = Table("housing")
        self.send_signals([(w.Inputs.tree, TreeRegressionLearner()(housing)),
                           (w.Inputs.data, housing)])
        self.assertTrue(w.Error.not_a_tree.is_shown())
        self.assertIn("Only classification trees", str(w.Error.not_a_tree))
        self.assertFalse(w.Error.data_mismatch.is_shown())
        self.assertEqual(w.items, {})
        self.assertIsNone(self.get_output(w.Outputs.selected_data))
        self.send_signal(w.Inputs.tree, self.model)
        self.assertFalse(w.Error.not_a_tree.is_shown())
        self.assertTrue(w.Error.data_mismatch.is_shown())  # housing is not iris
        self.send_signal(w.Inputs.data, None)
        self.assertFalse(w.Error.active)

    def test_hostile_models(self):
        """Trees of one leaf, of 120 classes and of data with missing classes."""
        w = self.widget
        rng = np.random.default_rng(7)
        for data in (table(np.ones((20, 3)), np.arange(20) % 2),
                     table(rng.normal(size=(240, 3)), np.arange(240) % 120, n_classes=120),
                     table(rng.normal(size=(40, 2)), np.r_[np.nan, np.arange(39) % 2])):
            model = OC1Learner(n_restarts=2, random_state=0)(data)
            model.instances = data
            self.send_signal(w.Inputs.tree, model)
            self.send_signal(w.Inputs.data, None)
            self.assertFalse(w.Error.active)
            self.assertEqual(len(w.items), w.view_tree.node_count)
            w.color_by = 1
            w._recolor()  # pylint: disable=protected-access
            w.select_nodes({0})
            self.assertEqual(len(self.get_output(w.Outputs.selected_data)), len(data))


class TestViewerDomainMismatch(IrisTreeViewer, NoUncaughtExceptions, base.WidgetTest):
    """A model and Data of another domain arrive at the viewer together."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table("heart_disease")

    def assert_shows_model(self, model):
        w = self.widget
        self.assertEqual(len(w.items), w.view_tree.node_count)
        self.assertIs(w.model, model)
        self.assertTrue(w.rules_text())

    def test_model_and_data_of_other_domains_together(self):
        w = self.widget
        self.send_signals([(w.Inputs.tree, self.model), (w.Inputs.data, self.heart)])
        self.assertTrue(w.Error.data_mismatch.is_shown())
        self.assertIn("does not match the model", str(w.Error.data_mismatch))
        self.assertIn("petal length", str(w.Error.data_mismatch))
        self.assert_shows_model(self.model)
        # the counts and selections are of the training data
        self.assertIs(w.data, self.iris)
        self.assertIn("training data", w.info_label.text())
        w.select_nodes({0})
        self.assertEqual(len(self.get_output(w.Outputs.selected_data)), len(self.iris))
        # matching data mend it; a model of the other domain breaks it again
        self.send_signal(w.Inputs.data, self.iris[:30])
        self.assertFalse(w.Error.active)
        self.assertEqual(w.node_n(0), 30)
        heart_tree = TreeLearner()(self.heart)
        heart_tree.instances = self.heart
        self.send_signals([(w.Inputs.tree, heart_tree), (w.Inputs.data, self.iris)])
        self.assertTrue(w.Error.data_mismatch.is_shown())
        self.assert_shows_model(heart_tree)
        # no model: no message about data
        self.send_signal(w.Inputs.tree, None)
        self.assertFalse(w.Error.active)
        self.assertEqual(w.items, {})

    def test_model_without_training_rows_and_other_data(self):
        w = self.widget
        model = OC1Learner(n_restarts=2, random_state=0)(self.iris)
        model.instances = None  # e.g. a model loaded from a file
        self.send_signals([(w.Inputs.tree, model), (w.Inputs.data, self.heart)])
        self.assertTrue(w.Error.data_mismatch.is_shown())
        self.assert_shows_model(model)
        self.assertIsNone(w.data)
        self.assertEqual(w.node_n(0), len(self.iris))  # the model's own counts
        w.select_nodes({0})
        self.assertIsNone(self.get_output(w.Outputs.selected_data))


if __name__ == "__main__":
    unittest.main()
