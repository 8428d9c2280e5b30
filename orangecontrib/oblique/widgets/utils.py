"""Shared machinery of the learner widgets (not a widget module: no widget class here).

:class:`ConcurrentLearnerWidgetMixin` makes an :class:`OWBaseLearner` fit its model in a
background thread, so a long fit never freezes the canvas; :class:`ClassValueChecksMixin`
adds the checks of the class column that every oblique tree widget shares.
"""
import numpy as np

from Orange.widgets.utils.concurrent import ConcurrentMixin, ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.widget import Msg

__all__ = ["ClassValueChecksMixin", "ConcurrentLearnerWidgetMixin", "FitInterrupted",
           "fit_model"]


class FitInterrupted(Exception):
    """Raised from the progress callback to abandon a fit the widget no longer needs."""


def fit_model(learner, data, state: TaskState):
    """Fit ``learner`` on ``data`` (in a worker thread), reporting progress to ``state``.

    The learner calls the progress callback while the tree grows; once the widget has
    requested interruption (new data, new settings, widget closed) the callback raises
    :class:`FitInterrupted`, which unwinds the fit.
    """
    def progress(fraction, *_):
        if state.is_interruption_requested():
            raise FitInterrupted
        state.set_progress_value(100 * fraction)

    return learner(data, progress_callback=progress)


class ConcurrentLearnerWidgetMixin(ConcurrentWidgetMixin):
    """Fit the model of an :class:`~Orange.widgets.utils.owlearnerwidget.OWBaseLearner`
    in a background thread, with a progress bar.

    Put it before ``OWBaseLearner`` among the bases.  The learner is still created and
    sent at once (it is cheap); :meth:`update_model` only starts the fit and marks the
    Model output as pending.  A new fit (new data, preprocessor or settings) cancels the
    running one, whose result is then dropped: only the model of the latest inputs is
    ever sent.  A failed fit shows ``Error.fitting_failed``, as in ``OWBaseLearner``.
    """

    def __init__(self, *args, **kwargs):
        ConcurrentWidgetMixin.__init__(self)
        # ConcurrentMixin.__init__ does not chain, so continue with the widget's __init__
        super(ConcurrentMixin, self).__init__(*args, **kwargs)

    def update_model(self):
        self.show_fitting_failed(None)
        self.model = None
        if self.check_data():
            self.start(fit_model, self.learner, self.data)
            self.Outputs.model.invalidate()
        else:
            self.cancel()
            self._send_model()

    def _send_model(self):
        if self.task is None:  # otherwise on_done or on_exception sends the fitted model
            super()._send_model()

    def on_done(self, result):
        self.model = result
        self.model.name = self.effective_learner_name()
        # any change of ``data`` restarts the fit, so this is the data it was fitted on
        self.model.instances = self.data
        self._send_model()

    def on_exception(self, ex):
        self.show_fitting_failed(ex)
        self.model = None
        self._send_model()

    def on_partial_result(self, result):
        """The fit reports no partial results."""

    def onDeleteWidget(self):
        self.shutdown()
        super().onDeleteWidget()


class ClassValueChecksMixin:
    """Checks of the class column for an ``OWBaseLearner`` of classification trees.

    Rows with a missing class are skipped in training (a warning says how many); Orange's
    own check counts NaN as a class value, so a single class with missing values and a
    column of missing values get their own errors.  Put it before ``OWBaseLearner``.
    """

    class Error(OWBaseLearner.Error):
        no_class_values = Msg("Every class value is missing; there is nothing to learn from.")
        single_class = Msg("Data contains a single class value; "
                           "a tree needs at least two classes.")

    class Warning(OWBaseLearner.Warning):
        missing_class = Msg("{} with a missing class {} skipped in training.")

    def check_data(self):
        self.Error.no_class_values.clear()
        self.Error.single_class.clear()
        self.Warning.missing_class.clear()
        data = self.data
        if (data is not None and self.learner is not None and len(data)
                and data.domain.has_discrete_class):
            classes = data.Y[~np.isnan(data.Y)]
            if classes.size == 0 or np.unique(classes).size < 2:
                self.Error.data_error.clear()
                if classes.size == 0:
                    self.Error.no_class_values()
                else:
                    self.Error.single_class()
                self.valid_data = False
                return False
        valid = super().check_data()
        if valid:
            n_missing = int(np.isnan(data.Y).sum())
            if n_missing:
                self.Warning.missing_class(
                    f"{n_missing} row" + "s" * (n_missing > 1),
                    "are" if n_missing > 1 else "is")
        return valid
