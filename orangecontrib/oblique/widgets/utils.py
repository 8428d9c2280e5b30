"""Shared machinery of the learner widgets (not a widget module: no widget class here).

:class:`ConcurrentLearnerWidgetMixin` makes an :class:`OWBaseLearner` fit its model in a
background thread, so a long fit never freezes the canvas; :class:`ClassValueChecksMixin`
adds the checks of the class column that every oblique tree widget shares.
:func:`restore_mistyped_settings` and :func:`clamp_settings_to_controls` make a workflow
saved by another version of the add-on load with sensible settings.
"""
import math
import numbers
import threading
from contextlib import contextmanager
from html import escape

import numpy as np
from threadpoolctl import ThreadpoolController

from AnyQt.QtWidgets import QAbstractSlider, QComboBox, QDoubleSpinBox, QLabel, QSpinBox

from AnyQt.QtCore import Qt

from Orange.widgets import gui
from Orange.widgets.report import describe_data
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentMixin, ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.widget import Msg

from orangecontrib.oblique.widgets.notes import style_note

__all__ = ["AttributesPerSplitMixin", "ClassValueChecksMixin", "ConcurrentLearnerWidgetMixin",
           "FitInterrupted", "LearnerControlsMixin", "add_explanation", "duration_text",
           "explanation_label", "fit_model", "report_text",
           "restore_mistyped_settings", "clamp_settings_to_controls", "show_restored_settings",
           "single_blas_thread"]


#: Keyword arguments of every number control of the learner widgets.
SPIN = dict(alignment=Qt.AlignRight, controlWidth=80)

#: The words of Orange's Tree widget for the parameters our widgets share with it
MIN_LEAF_WORDS = "Min. number of instances in leaves"
MIN_SPLIT_WORDS = "Do not split subsets smaller than"


class FitInterrupted(Exception):
    """Raised from the progress callback to abandon a fit the widget no longer needs."""


# ----- one BLAS thread while fitting -----
# The trees do linear algebra on many small matrices (one per node), where a BLAS thread
# pool costs more than it gives; on a busy machine its spinning threads slowed a Geometric
# Tree fit (240 rows, 121 one-hot columns) from about 3 s to over a minute.  While any fit
# runs, BLAS gets one thread; the limit is process-wide (as BLAS's own setting is), so it
# is set by the first running fit and restored by the last one.
_blas_lock = threading.Lock()
_blas_users = 0
_blas_limiter = None
_blas_controller = None


@contextmanager
def single_blas_thread():
    """Limit BLAS to one thread while the context (of any thread) is active."""
    global _blas_users, _blas_limiter, _blas_controller  # pylint: disable=global-statement
    with _blas_lock:
        if _blas_users == 0:
            try:
                if _blas_controller is None:
                    _blas_controller = ThreadpoolController()
                _blas_limiter = _blas_controller.limit(limits=1, user_api="blas")
            except Exception:  # pylint: disable=broad-except
                _blas_limiter = None  # fitting with more threads is still right
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0 and _blas_limiter is not None:
                _blas_limiter.restore_original_limits()
                _blas_limiter = None


def report_text(text):
    """``text`` (a name or a list of names) as a report's HTML shows it: HTML escaped and
    a lone surrogate (a byte of a file that is not UTF-8) written as Python's escape
    (``\\udc80``), so that the report can be saved as UTF-8."""
    return escape(str(text).encode("utf-8", "backslashreplace").decode("utf-8"))


#: The status line of a learner widget while its first fit of the session compiles (or
#: loads from numba's cache) the learner's kernels, and then while it fits.
COMPILING_STATUS = "Compiling kernels (first fit only)…"
FITTING_STATUS = "Fitting…"
#: The part of the progress bar of a first fit that the kernels' warm-up takes.
WARM_UP_SHARE = 0.5


def fit_model(learner, data, state: TaskState):
    """Fit ``learner`` on ``data`` (in a worker thread), reporting progress to ``state``.

    The first fit of a learner in the session (:data:`_LEARNERS_FITTED`) first compiles
    or loads its kernels (:func:`~.core.compilation.compile_kernels` of its estimator
    class, on small data, fit by fit): the status line says so
    (:data:`COMPILING_STATUS`) and the progress bar moves through its first half
    (:data:`WARM_UP_SHARE`); the fit itself then takes the rest.

    The learner calls the progress callback while the tree grows; once the widget has
    requested interruption (new data, new settings, widget closed) the callback raises
    :class:`FitInterrupted`, which unwinds the fit.

    Returns the model; what the learner did to the data (rows left out, ±inf values) is
    in its ``fit_messages``.
    """
    def progress(fraction, *_):
        if state.is_interruption_requested():
            raise FitInterrupted
        state.set_progress_value(100 * fraction)

    with single_blas_thread():
        estimator_class = getattr(learner, "estimator_class", None)
        if type(learner) in _LEARNERS_FITTED or estimator_class is None:
            return learner(data, progress_callback=progress)
        # the first fit of the session: the kernels first, on small data, step by step
        from ..core.compilation import compile_kernels
        state.set_status(COMPILING_STATUS)
        compile_kernels(estimator_class,
                        lambda fraction: progress(WARM_UP_SHARE * fraction))
        state.set_status(FITTING_STATUS)
        return learner(data, progress_callback=lambda fraction, *_: progress(
            WARM_UP_SHARE + (1 - WARM_UP_SHARE) * fraction))


# ----- settings stored by another version -----
#: What :func:`_conformed` returns for a value that cannot stand for the default.
_MISTYPED = object()

#: The warning of a widget whose stored settings had to be reset (``{}``: their names).
SETTINGS_RESTORED = ("Stored settings that could not be used were reset to their "
                     "defaults: {}.")


def _conformed(value, default):
    """``value`` as a value of the type of ``default`` (bools as bools, numbers as finite
    numbers, an integer setting as an int a spin box can show), or :data:`_MISTYPED`."""
    if isinstance(default, (bool, np.bool_)):
        if isinstance(value, (bool, np.bool_)) or (
                isinstance(value, numbers.Integral) and value in (0, 1)):
            return bool(value)
        return _MISTYPED
    if isinstance(default, numbers.Real):
        if (not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_))
                or not math.isfinite(value)):
            return _MISTYPED
        if isinstance(default, numbers.Integral):
            # a spin box of integers takes a (32-bit) int only
            if not -2 ** 31 <= value <= 2 ** 31 - 1:
                return _MISTYPED
            return value if isinstance(value, numbers.Integral) else int(round(value))
        return value
    if isinstance(default, (str, list, dict, tuple)):
        return value if isinstance(value, type(default)) else _MISTYPED
    return value


def _conformed_elements(value, element):
    """A list (or dict of string keys) ``value`` with only the elements (values) that can
    stand for ``element``, converted as :func:`_conformed` does; ``value`` itself if every
    element can."""
    if isinstance(value, dict):
        kept = {key: _conformed(item, element) for key, item in value.items()
                if isinstance(key, str)}
        kept = {key: item for key, item in kept.items() if item is not _MISTYPED}
        unchanged = len(kept) == len(value) and all(kept[key] is value[key] for key in kept)
    else:
        kept = [_conformed(item, element) for item in value]
        kept = type(value)(item for item in kept if item is not _MISTYPED)
        unchanged = len(kept) == len(value) and all(a is b for a, b in zip(kept, value))
    return value if unchanged else kept


def restore_mistyped_settings(widget):
    """Give every setting whose stored value has the wrong type (``None`` for a number, a
    string for a flag, NaN, ...) its default, and drop from a list or dict setting named
    in the widget's ``setting_elements`` ({name: an example element}) the elements that
    are not of the example's type.  Call before the controls are made: a spin box cannot
    show ``None``.  Returns the names of the settings reset or pruned, for the widget's
    warning (:data:`SETTINGS_RESTORED`)."""
    elements = getattr(widget, "setting_elements", {})
    restored = []
    for name, setting in widget.settingsHandler.provider.settings.items():
        if setting.default is None or not hasattr(widget, name):
            continue
        value = getattr(widget, name)
        conforming = _conformed(value, setting.default)
        if conforming is _MISTYPED:
            conforming = setting.default
            restored.append(name)
        elif name in elements:
            conforming = _conformed_elements(conforming, elements[name])
            if conforming is not value:
                restored.append(name)
        if conforming is not value:
            setattr(widget, name, conforming)
    return restored


def show_restored_settings(message, names):
    """Show the widget's ``message`` (of :data:`SETTINGS_RESTORED`) if ``names`` were
    reset by :func:`restore_mistyped_settings`."""
    if names:
        message(", ".join(names))


def clamp_settings_to_controls(widget):
    """Bring every setting into the range of its control: a combo box index that does not
    exist gets the setting's default, a number outside a spin box's or slider's range its
    nearest bound (the control shows the bound; the learner must use the same).  Call
    after the controls are made."""
    defaults = {name: setting.default
                for name, setting in widget.settingsHandler.provider.settings.items()}
    for name, callfronts in list(widget.controlled_attributes.items()):
        if name not in defaults:
            continue
        control = callfronts[0].control
        value = getattr(widget, name)
        if isinstance(control, QComboBox):
            if not (isinstance(value, numbers.Integral) and 0 <= value < control.count()):
                setattr(widget, name, defaults[name])
        elif isinstance(control, (QSpinBox, QDoubleSpinBox, QAbstractSlider)):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                continue
            clamped = min(max(value, control.minimum()), control.maximum())
            if not isinstance(control, QDoubleSpinBox):
                clamped = int(round(clamped))
            if clamped != value or type(clamped) is not type(value):
                setattr(widget, name, clamped)


def duration_text(seconds):
    """A rough duration in words: "about 3 minutes", "about 2 hours", "more than a day"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = round(seconds / size)
            if unit == "day" and count > 1:
                return f"about {count} days"
            return f"about {count} {unit}" + "s" * (count != 1)
    return f"about {max(round(seconds), 1)} seconds"


#: The learner classes of which a fit has ended in this process: their kernels are
#: compiled (or loaded from numba's cache) by now.
_LEARNERS_FITTED = set()


class ConcurrentLearnerWidgetMixin(ConcurrentWidgetMixin):
    """Fit the model of an :class:`~Orange.widgets.utils.owlearnerwidget.OWBaseLearner`
    in a background thread, with a progress bar.

    Put it before ``OWBaseLearner`` among the bases (and :class:`ClassValueChecksMixin`,
    which shows the learner's warnings).  The learner is still created and sent at once
    (it is cheap); :meth:`update_model` only starts the fit and marks the Model output as
    pending.  A new fit (new data, preprocessor or settings) cancels the running one,
    whose result is then dropped: only the model of the latest inputs is ever sent.  A
    failed fit shows ``Error.fitting_failed``, as in ``OWBaseLearner``; what the learner
    did to the data (the fitted model's ``fit_messages``: rows left out, ±inf values) is
    shown as widget warnings.
    Settings stored by another version are brought to types and ranges the controls
    accept before the first fit.  While the first fit of a learner in the session runs
    (:data:`_LEARNERS_FITTED`), the widget shows ``Information.compiling``: numba loads
    the learner's kernels from its cache then, or compiles them when they are not cached
    yet (once per installation).
    """

    class Information(OWBaseLearner.Information):
        compiling = Msg("First fit: compiling or loading kernels.")
        long_fit = Msg("This fit may take {} ({}). The progress bar shows how far it "
                       "is; a new setting or new data stops it and starts another.")

    #: A fit estimated to take longer than this many seconds shows
    #: ``Information.long_fit`` before it starts and while it runs.
    LONG_FIT_SECONDS = 60

    def estimated_fit_seconds(self):
        """``(seconds, why)``: a rough estimate of the fit of :attr:`data` with the
        current settings and what it depends on, or None where the widget makes none."""
        return None

    def __init__(self, *args, **kwargs):
        ConcurrentWidgetMixin.__init__(self)
        restored = restore_mistyped_settings(self)
        # ConcurrentMixin.__init__ does not chain, so continue with the widget's __init__
        super(ConcurrentMixin, self).__init__(*args, **kwargs)
        # the first fit is scheduled (QTimer) by OWBaseLearner.__init__, after this
        clamp_settings_to_controls(self)
        show_restored_settings(self.Warning.settings_restored, restored)

    def send_report(self):
        """OWBaseLearner's report, every text (the name, a base learner's name, the data's
        names: they may hold HTML or a lone surrogate) written by :func:`report_text`."""
        self.report_items((("Name", report_text(self.effective_learner_name())),))
        parameters = self.get_learner_parameters()
        if parameters:
            self.report_items("Model parameters", [
                (label, report_text(value)) for label, value in dict(parameters).items()])
        if self.data:
            self.report_items("Data", [
                (label, value if value is False else report_text(value))
                for label, value in describe_data(self.data).items()])

    def update_model(self):
        self.show_fitting_failed(None)
        self.show_fit_messages(())
        self.model = None
        if self.check_data():
            self.Information.compiling(shown=type(self.learner) not in _LEARNERS_FITTED)
            self._show_long_fit()
            self.start(fit_model, self.learner, self.data)
            self.Outputs.model.invalidate()
        else:
            self.Information.compiling.clear()
            self.Information.long_fit.clear()
            self.cancel()
            self.send_model()

    def _show_long_fit(self):
        """``Information.long_fit`` when the fit about to start is estimated to take
        longer than :data:`LONG_FIT_SECONDS`."""
        estimate = self.estimated_fit_seconds()
        if estimate is None or estimate[0] <= self.LONG_FIT_SECONDS:
            self.Information.long_fit.clear()
        else:
            self.Information.long_fit(duration_text(estimate[0]), estimate[1])

    def send_model(self):
        """Send the model (None without one) and what the widget derives from it."""
        self.Outputs.model.send(self.model)
        self.model_sent()

    def model_sent(self):
        """Called after the model was sent: a widget sends what it derives from it."""

    def on_done(self, result):
        _LEARNERS_FITTED.add(type(self.learner))
        self.Information.compiling.clear()
        self.Information.long_fit.clear()
        self.model = result
        self.model.name = self.effective_learner_name()
        # any change of ``data`` restarts the fit, so this is the data it was fitted on
        self.model.instances = self.data
        self.show_fit_messages(getattr(self.model, "fit_messages", ()))
        self.send_model()

    def on_exception(self, ex):
        self.Information.compiling.clear()
        self.Information.long_fit.clear()
        self.show_fitting_failed(ex)
        self.model = None
        self.send_model()

    def show_fitting_failed(self, exc):
        """Show a failed fit; an exception without a text shows its type."""
        if exc is not None and not str(exc):
            exc = type(exc).__name__
        super().show_fitting_failed(exc)

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
    What the learner did to the data (the model's ``fit_messages``) is shown by
    :meth:`show_fit_messages`.
    """

    class Error(OWBaseLearner.Error):
        no_class_values = Msg("Every class value is missing; there is nothing to learn from.")
        single_class = Msg("Data contains a single class value; "
                           "a tree needs at least two classes.")

    class Warning(OWBaseLearner.Warning):
        missing_class = Msg("{} with a missing class {} skipped in training.")
        fit_warnings = Msg("{}")
        settings_restored = Msg(SETTINGS_RESTORED)

    def show_fit_messages(self, messages):
        """Show the learner's :class:`~orangecontrib.oblique.learners.FitMessage` list of
        the last fit: rows left out for a missing class in ``Warning.missing_class`` (which
        :meth:`check_data` shows already, before the fit), the others' texts, one a line,
        in ``Warning.fit_warnings``."""
        texts = []
        for message in messages:
            if message.kind == "skipped_rows":
                if not self.Warning.missing_class.is_shown():
                    self._show_missing_class(message.count)
            else:
                texts.append(message.text)
        texts = list(dict.fromkeys(texts))
        self.Warning.fit_warnings("\n".join(texts), shown=bool(texts))

    def _show_missing_class(self, count):
        self.Warning.missing_class(f"{count} instance" + "s" * (count > 1),
                                   "are" if count > 1 else "is")

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
                self._show_missing_class(n_missing)
        return valid


class AttributesPerSplitMixin:
    """The "Attributes per split" control of the GDT, OC1 and ODT-SVM widgets: all
    attributes, as in the papers, or at most k (``max_terms`` of the learners: sparse,
    readable splits found by backward elimination)."""
    #: Split on at most ``max_terms`` attributes; False: on all, as in the paper.
    limit_terms = Setting(False)
    max_terms = Setting(3)

    def add_attributes_per_split(self, box):
        """Add the control to ``box``."""
        gui.spin(
            box, self, "max_terms", 1, 100, label="Attributes per split, at most: ",
            checked="limit_terms", callback=self.settings_changed,
            checkCallback=self.settings_changed, **SPIN,
            tooltip="Unchecked: every split may weigh all attributes, as in the paper. "
                    "Checked: each split uses at most this many attributes (chosen by "
                    "backward elimination), which makes its rule readable; a number "
                    "above the data's attributes caps nothing.")

    @staticmethod
    def migrate_limit_terms(settings, version, since):
        """Workflows saved before settings version ``since``, which made the limit the
        default, keep all attributes, as they were."""
        if version is None or version < since:
            settings.setdefault("limit_terms", False)

    def max_terms_parameter(self):
        """The learner's ``max_terms``: None for all attributes."""
        return self.max_terms if self.limit_terms else None

    def attributes_per_split_report(self):
        """The report's line for the control."""
        return ("Attributes per split",
                f"at most {self.max_terms}" if self.limit_terms else "all (as in the paper)")


def explanation_label(text):
    """A label for a line that says in plain words what controls do, e.g. what a term of
    the papers means: wrapped, in a readable grey (:func:`~.notes.style_note`)."""
    return style_note(QLabel(text, wordWrap=True))


def add_explanation(box, text):
    """An :func:`explanation_label` under the controls of ``box``."""
    label = explanation_label(text)
    box.layout().addWidget(label)
    return label


class LearnerControlsMixin:
    """The controls the learner widgets share, with the same labels, ranges and report
    lines in every widget (as Orange's own Tree and Random Forest widgets):

    - "Limit the maximal tree depth to" (``limit_depth``, ``max_depth``),
    - "Min. number of instances in leaves" (``min_samples_leaf``) and "Do not split
      subsets smaller than" (``min_samples_split``), in Orange's Tree widget's words,
    - "Prune on held-out instances (%)" and its tolerance in standard errors (``prune``,
      ``pruning_percent``, ``se_rule``: cost-complexity pruning, as in OC1),
    - "Replicable training" with its seed (``replicable``, ``seed``).

    A widget declares the depth and pruning settings with its own defaults and adds the
    controls it needs; training is replicable with seed 0 in every widget.
    """
    replicable = Setting(True)
    seed = Setting(0)

    def add_depth_limit(self, box):
        """The check box "Limit the maximal tree depth to" and its number."""
        gui.spin(box, self, "max_depth", 1, 200, label="Limit the maximal tree depth to: ",
                 checked="limit_depth", callback=self.settings_changed,
                 checkCallback=self.settings_changed, **SPIN)

    def max_depth_parameter(self):
        """The learner's ``max_depth``: None without a limit."""
        return self.max_depth if self.limit_depth else None

    def depth_report(self):
        """The report's line for the depth limit."""
        return ("Maximal depth", str(self.max_depth) if self.limit_depth else "unlimited")

    def add_min_leaf(self, box, tooltip):
        """The number "Min. number of instances in leaves" (Orange's Tree widget's words)."""
        gui.spin(box, self, "min_samples_leaf", 1, 1000, label=f"{MIN_LEAF_WORDS}: ",
                 callback=self.settings_changed, tooltip=tooltip, **SPIN)

    def add_min_split(self, box):
        """The number "Do not split subsets smaller than" (Orange's Tree widget's words)."""
        gui.spin(box, self, "min_samples_split", 2, 1000, label=f"{MIN_SPLIT_WORDS}: ",
                 callback=self.settings_changed, **SPIN)

    def min_leaf_report(self):
        """The report's line for the least number of instances in a leaf."""
        return MIN_LEAF_WORDS, str(self.min_samples_leaf)

    def min_split_report(self):
        """The report's line for the least number of instances in a node that splits."""
        return MIN_SPLIT_WORDS, str(self.min_samples_split)

    def add_holdout_pruning(self, box):
        """The check box "Prune on held-out instances (%)" with the share held out, and the
        tolerance of the choice among the pruned trees, enabled while pruning."""
        gui.spin(box, self, "pruning_percent", 1, 90,
                 label="Prune on held-out instances (%): ", checked="prune",
                 callback=self.settings_changed, checkCallback=self._pruning_changed,
                 tooltip="Grow the tree on the other instances, then cut back the branches "
                         "that do not lower the error on this share of the data "
                         "(cost-complexity pruning).", **SPIN)
        # pylint: disable=attribute-defined-outside-init
        self.se_rule_spin = gui.doubleSpin(
            gui.indentedBox(box), self, "se_rule", 0.0, 5.0, step=0.5, decimals=1,
            label="Prefer smaller trees within (standard errors): ",
            callback=self.settings_changed,
            tooltip="Choose the smallest pruned tree whose held-out error is within this "
                    "many standard errors of the lowest one (the k-SE rule; 0: the tree "
                    "of lowest error).", **SPIN)
        self.se_rule_spin.setEnabled(self.prune)

    def _pruning_changed(self):
        self.se_rule_spin.setEnabled(self.prune)
        self.settings_changed()

    def holdout_pruning_parameters(self):
        """The learner's ``pruning_portion`` and ``se_rule``."""
        return dict(pruning_portion=self.pruning_percent / 100 if self.prune else 0.0,
                    se_rule=self.se_rule)

    def holdout_pruning_report(self):
        """The report's line for held-out pruning."""
        return ("Pruning", f"on {self.pruning_percent} % held-out instances, "
                           f"{self.se_rule:.1f}-SE rule" if self.prune else "none")

    def add_replicable_training(self, box, tooltip):
        """The check box "Replicable training" and its seed; ``tooltip`` says what is
        random."""
        gui.spin(box, self, "seed", 0, 2 ** 31 - 1, label="Replicable training, seed: ",
                 checked="replicable", callback=self.settings_changed,
                 checkCallback=self.settings_changed, tooltip=tooltip, **SPIN)

    def random_state_parameter(self):
        """The learner's ``random_state``: None unless training is replicable."""
        return self.seed if self.replicable else None

    def replicable_report(self):
        """The report's line for replicable training."""
        return ("Replicable training", f"Yes (seed {self.seed})" if self.replicable else "No")
