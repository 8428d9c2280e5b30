"""Helpers shared by the widget tests (imported as ``tests.helpers.widget_helpers``,
see :mod:`tests.helpers`)."""
import sys
import traceback

import numpy as np
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph

from orangecontrib.oblique import ObliqueTreeModel, OC1Learner
from orangecontrib.oblique.core.datasets import rotated_checkerboard
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer


#: The longest a widget test waits for a fit to end, an output or a state (ms): a guard
#: against a hang only, never a measure of speed, so that the tests pass on a machine of
#: any speed and load (on one at load 5, Orange's default of 5 s failed fits of seconds).
HANG_GUARD_MS = 300_000


class PatientWaits:
    """Orange's waits of a widget test -- ``wait_until_finished``, ``get_output``,
    ``commit_and_wait``, ``wait_until_stop_blocking``, ``process_events`` -- with
    :data:`HANG_GUARD_MS` for their default timeout instead of Orange's 5 s.  They all wait
    on a signal or a state (the widget's outputs valid, it stops blocking, a condition
    holds); the timeout only ends a test that would otherwise hang.  Mix it in before
    ``base.WidgetTest``."""

    def wait_until_finished(self, widget=None, timeout=HANG_GUARD_MS):
        super().wait_until_finished(widget, timeout)

    def get_output(self, output=None, widget=None, wait=HANG_GUARD_MS):
        return super().get_output(output, widget, wait)

    def commit_and_wait(self, widget=None, wait=HANG_GUARD_MS):
        super().commit_and_wait(widget, wait)

    def wait_until_stop_blocking(self, widget=None, wait=HANG_GUARD_MS):
        super().wait_until_stop_blocking(widget, wait)

    def process_events(self, until=None, timeout=HANG_GUARD_MS):
        return super().process_events(until, timeout)


class ShownViewer:
    """A shown Oblique Tree Viewer in ``self.widget`` at the size Orange opens it, for
    tests of what is in view; mix it in before ``base.WidgetTest``."""

    def setUp(self):
        super().setUp()
        self.widget = self.create_widget(OWObliqueTreeViewer)
        self.widget.resize(self.widget.sizeHint())  # the size Orange opens it at
        self.widget.show()

    def tearDown(self):
        self.widget.hide()
        super().tearDown()

    def visible_rect(self):
        """The part of the scene in the viewport."""
        view = self.widget.view
        return view.mapToScene(view.viewport().rect()).boundingRect()


def as_table(X, y):
    """An Orange table of continuous ``x1 .. xd`` and a discrete class ``y``."""
    classes = np.unique(y)
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(X.shape[1])],
                    DiscreteVariable("y", values=[str(c) for c in classes]))
    return Table.from_numpy(domain, X, np.searchsorted(classes, y))


def with_missing_class(data, rows):
    """A copy of ``data`` with the class of ``rows`` missing."""
    data = data.copy()
    with data.unlocked(data.Y):
        data.Y[rows] = np.nan
    return data


def random_labels_table(n_rows=6000, n_features=10, n_classes=3):
    """Random labels: every tree grows deep on them, so an ensemble of ten Geometric Trees
    takes seconds to fit."""
    rng = np.random.default_rng(0)
    return as_table(rng.normal(size=(n_rows, n_features)), rng.integers(0, n_classes, n_rows))


def checkerboard_table(n_rows=3000):
    """A rotated checkerboard: OC1 with its default 20 restarts takes seconds on it."""
    return as_table(*rotated_checkerboard(n_rows, random_state=0))


class LongFitWidget(PatientWaits):
    """A learner widget ``widget_class`` with auto apply, ``big`` data whose fit takes
    seconds and ``iris`` (:class:`PatientWaits`: waits that only guard against a hang)."""

    widget_class = None
    #: a function of no arguments that makes ``big`` (a ``staticmethod`` in the class)
    long_fit_data = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.big = cls.long_fit_data()
        cls.iris = Table("iris")

    def setUp(self):
        super().setUp()
        self.widget = self.create_widget(
            self.widget_class, stored_settings={"auto_apply": True,
                                                "__version__": self.widget_class.settings_version})
        self.wait_until_finished()


class IrisTreeViewer:
    """The Oblique Tree Viewer and ``model``, an OC1 tree of ``iris`` (with its data)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iris = Table("iris")
        cls.model = OC1Learner(n_restarts=2, random_state=0)(cls.iris)
        cls.model.instances = cls.iris

    def setUp(self):
        super().setUp()
        self.widget = self.create_widget(OWObliqueTreeViewer)


class NoUncaughtExceptions:
    """Fail a test (instead of aborting the run, as PyQt does with Python's own hook) on
    an exception that escapes a Qt slot or event handler, e.g. a handler of a finished
    background fit."""

    def setUp(self):
        super().setUp()
        self.uncaught = []
        self._previous_hook = sys.excepthook
        sys.excepthook = lambda *exc_info: self.uncaught.append(
            "".join(traceback.format_exception(*exc_info)))

    def tearDown(self):
        sys.excepthook = self._previous_hook
        super().tearDown()
        self.assertEqual(self.uncaught, [], "uncaught exceptions in Qt handlers")


def percent_mapping(name, spin, values):
    """Orange's ``ParameterMapping`` of a fraction set by a spin box of percents."""
    return base.ParameterMapping(name, spin, values,
                                 getter=lambda: spin.value() / 100,
                                 setter=lambda value: spin.setValue(round(100 * value)))


class LearnerWidgetChecks(PatientWaits, base.WidgetLearnerTestMixin):
    """Orange's learner-widget checks and those every learner widget of the add-on shares
    (errors and warnings about the class column, outputs, defaults, report, a model on
    heart disease), parametrised by the class attributes below.  Mix it in before
    ``base.WidgetTest``; a plain class, so pytest does not collect it alone.  (Orange's
    mixin sets ``learner_class``, ``model_class`` and ``model_name`` of its own, hence the
    upper-case names here.)"""

    #: the widget, its learner, model (a tree unless said) and the model's core estimator
    WIDGET = None
    LEARNER = None
    MODEL = ObliqueTreeModel
    ESTIMATOR = None
    #: the model's name
    MODEL_NAME = None
    #: the lowest training accuracy of the model on heart disease
    MIN_TRAINING_ACCURACY = 0.8
    #: learner attributes whose default values the widget pins
    PINNED_DEFAULTS = {}
    #: the report with the default settings
    REPORTED_DEFAULTS = {}
    #: report lines after ``change_reported_settings``
    REPORTED_CHANGES = {}
    #: the data set and rows whose class is removed for the warning about skipped rows
    MISSING_CLASS_DATA = "iris"
    MISSING_CLASS_ROWS = [0, 60]

    def setUp(self):
        super().setUp()
        # settings of the current version: a widget as the canvas makes a new one
        self.widget = self.create_widget(
            self.WIDGET, stored_settings={"auto_apply": False,
                                          "__version__": self.WIDGET.settings_version})
        self.init()
        self.parameters = self.parameter_mappings(self.widget.controls)

    def parameter_mappings(self, controls):
        """Orange's ``ParameterMapping`` of every learner parameter set by a control."""
        raise NotImplementedError

    def default_params(self):
        """The learner's ``params`` with default settings: the estimator's defaults with
        ``random_state=0`` ("Replicable training" is on by default)."""
        params = self.ESTIMATOR().get_params()
        params["random_state"] = 0
        limit = getattr(self.WIDGET, "limit_terms", None)
        if "max_terms" in params and limit is not None and limit.default:
            params["max_terms"] = self.WIDGET.max_terms.default  # the readable default
        return params

    def change_reported_settings(self):
        """Change the settings that ``REPORTED_CHANGES`` reports."""

    def train(self, data):
        """The model output of the widget on ``data``."""
        self.send_signal(self.widget.Inputs.data, data)
        self.click_apply()
        self.wait_until_finished()
        return self.get_output(self.widget.Outputs.model)

    def fit_checked_model(self, data):
        """The widget's model on ``data``, checked for what every model promises."""
        model = self.train(data)
        self.assertIsInstance(model, self.MODEL)
        self.assertIsInstance(model.estimator, self.ESTIMATOR)
        self.assertIs(model.instances, data)
        self.assertEqual(model.name, self.MODEL_NAME)
        self.assertFalse(self.widget.Error.active)
        self.assertGreater(np.mean(model(data) == data.Y), self.MIN_TRAINING_ACCURACY)
        return model

    def test_output_types(self):
        """The outputs' types; a tree model goes to Orange's tree viewers."""
        model_type = self.widget.Outputs.model.type
        self.assertIs(model_type, self.MODEL)
        self.assertIs(self.widget.Outputs.learner.type, self.LEARNER)
        if issubclass(self.MODEL, ObliqueTreeModel):
            self.assertTrue(issubclass(model_type, OWTreeGraph.Inputs.tree.type))
            self.assertTrue(issubclass(model_type, OWPythagorasTree.Inputs.tree.type))

    def test_default_settings(self):
        learner = self.get_output(self.widget.Outputs.learner)
        self.assertIsInstance(learner, self.LEARNER)
        self.assertEqual(learner.params, self.default_params())
        for name, value in self.PINNED_DEFAULTS.items():
            self.assertEqual(getattr(learner, name), value, name)

    def test_model_on_heart_disease(self):
        self.fit_checked_model(Table("heart_disease"))

    def test_replicable_training(self):
        iris = Table("iris")
        first = self.train(iris)
        second = self.train(iris[::-1][::-1])
        self.assertEqual(self.model_text(second), self.model_text(first))

    @staticmethod
    def model_text(model):
        """A text that tells two models apart."""
        if isinstance(model, ObliqueTreeModel):
            return model.tree_.export_text()
        return "\n".join(tree.tree_.export_text() for tree in model.estimator.estimators_)

    def test_report_parameters(self):
        w = self.widget
        self.assertEqual(dict(w.get_learner_parameters()), self.REPORTED_DEFAULTS)
        self.change_reported_settings()
        params = dict(w.get_learner_parameters())
        self.assertEqual({name: params[name] for name in self.REPORTED_CHANGES},
                         self.REPORTED_CHANGES)
        self.send_signal(w.Inputs.data, Table("iris"))
        w.send_report()

    def test_error_no_class(self):
        iris = Table("iris")
        self.assertIsNone(self.train(iris.transform(Domain(iris.domain.attributes))))
        self.assertTrue(self.widget.Error.data_error.is_shown())
        self.assertIn("no target variable", str(self.widget.Error.data_error))
        self.train(iris)
        self.assertFalse(self.widget.Error.data_error.is_shown())

    def test_error_numeric_class(self):
        self.assertIsNone(self.train(Table("housing")))
        self.assertIn("Categorical class", str(self.widget.Error.data_error))

    def test_error_single_class_value(self):
        iris = Table("iris")
        self.assertIsNone(self.train(iris[:50]))
        self.assertTrue(self.widget.Error.single_class.is_shown())
        # with missing class values too (Orange's own check counts NaN as a value)
        self.assertIsNone(self.train(with_missing_class(iris[:60], slice(50, 60))))
        self.assertTrue(self.widget.Error.single_class.is_shown())
        self.assertFalse(self.widget.Error.data_error.is_shown())
        self.train(iris)
        self.assertFalse(self.widget.Error.single_class.is_shown())

    def test_error_no_features(self):
        iris = Table("iris")
        self.assertIsNone(self.train(iris.transform(Domain([], iris.domain.class_var))))
        self.assertIn("no features", str(self.widget.Error.data_error))

    def test_error_every_class_missing(self):
        self.assertIsNone(self.train(with_missing_class(Table("iris"), slice(None))))
        self.assertTrue(self.widget.Error.no_class_values.is_shown())
        self.assertFalse(self.widget.Error.data_error.is_shown())
        self.send_signal(self.widget.Inputs.data, None)
        self.assertFalse(self.widget.Error.no_class_values.is_shown())

    def test_warning_missing_class_rows(self):
        clean = Table(self.MISSING_CLASS_DATA)
        data = with_missing_class(clean, self.MISSING_CLASS_ROWS)
        n_missing = len(self.MISSING_CLASS_ROWS)
        model = self.train(data)
        self.assertIsNotNone(model)
        self.assertTrue(self.widget.Warning.missing_class.is_shown())
        self.assertIn(f"{n_missing} instances with a missing class are skipped",
                      str(self.widget.Warning.missing_class))
        if isinstance(model, ObliqueTreeModel):  # routes every row, counts those with a class
            np.testing.assert_array_equal(model.root.subset, np.arange(len(data)))
            self.assertEqual(model.root.value.sum(), len(data) - n_missing)
        self.train(clean)
        self.assertFalse(self.widget.Warning.missing_class.is_shown())

    def test_fitting_failure_is_shown(self):
        data = Table("iris").copy()
        with data.unlocked(data.X):
            data.X[:] = np.nan  # every feature is removed by preprocessing
        self.assertIsNone(self.train(data))
        self.assertTrue(self.widget.Error.fitting_failed.is_shown())
        self.assertIn("no features", str(self.widget.Error.fitting_failed))
        self.assertIsNotNone(self.train(Table("iris")))
        self.assertFalse(self.widget.Error.fitting_failed.is_shown())
