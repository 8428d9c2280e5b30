"""Screenshots of the widgets' messages on hostile inputs, for ``widget-robustness.md``.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_robustness_screenshots.py

and writes ``doc/screenshots/robustness-*.png``.
"""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtWidgets import QApplication, QLayout

import numpy as np

from Orange.data import Table
from orangewidget.utils.messagewidget import MessagesWidget

from orangecontrib.oblique import GeometricTreeLearner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from screenshot_helpers import OUT, save, settle, wait_for_fit  # pylint: disable=import-error

#: Least width of a learner widget in a screenshot.
LEARNER_WIDTH = 900
VIEWER_SIZE = (1200, 800)


def messages(group):
    return "\n".join(str(message) for message in group.active)


def learner_widget(app, widget_class, data):
    """A learner widget of ``data``, its fit finished, wide enough for its message.

    The learner widgets have a fixed size, just fitting their controls, and the status
    bar elides a longer message; the screenshot keeps the height and widens the widget
    until the message fits (at least to ``LEARNER_WIDTH``).
    """
    widget = widget_class()
    widget.show()
    widget.set_data(data)
    widget.handleNewSignals()
    wait_for_fit(app, widget)
    widen_to_message(app, widget)
    return widget


def widen_to_message(app, widget):
    """Widen a fixed-size learner widget until its status bar shows its message whole."""
    height = widget.height()
    bar = max((bar for bar in widget.findChildren(MessagesWidget) if bar.isVisible()),
              key=lambda bar: bar.sizeHint().width())
    width = widget.width() - bar.width() + bar.sizeHint().width() + 8
    widget.layout().setSizeConstraint(QLayout.SetDefaultConstraint)
    widget.setMinimumSize(0, 0)
    widget.setMaximumSize(16777215, 16777215)  # QWIDGETSIZE_MAX
    widget.resize(max(LEARNER_WIDTH, width), height)
    settle(app)


def odt_svm_missing_class(app):
    """ODT-SVM on heart_disease with 30 rows of a missing class: a warning and a model."""
    heart = Table("heart_disease").copy()
    rows = np.random.default_rng(0).choice(len(heart), size=30, replace=False)
    with heart.unlocked(heart.Y):
        heart.Y[rows] = np.nan
    widget = learner_widget(app, OWODTSVM, heart)
    assert widget.Warning.missing_class.is_shown(), messages(widget.Warning)
    assert widget.model is not None, messages(widget.Error)
    save(app, widget, "robustness-odt-svm-missing-class.png")
    return widget


def geometric_tree_regression_target(app):
    """Geometric Tree on housing (a numeric target): an error and no model."""
    widget = learner_widget(app, OWGeometricTree, Table("housing"))
    assert widget.Error.data_error.is_shown(), messages(widget.Error)
    assert widget.model is None
    save(app, widget, "robustness-geometric-tree-regression-target.png")
    return widget


def viewer_domain_mismatch(app):
    """The viewer of an iris tree given heart_disease as Data: an error, the tree shown."""
    iris = Table("iris")
    model = GeometricTreeLearner(random_state=0)(iris)
    model.instances = iris
    widget = OWObliqueTreeViewer()
    widget.resize(*VIEWER_SIZE)
    widget.show()
    widget.set_tree(model)
    widget.set_data(Table("heart_disease"))
    widget.handleNewSignals()
    settle(app)
    widget.fit_to_window()
    settle(app)
    assert widget.Error.data_mismatch.is_shown(), messages(widget.Error)
    assert widget.items, "no tree drawn"
    save(app, widget, "robustness-viewer-domain-mismatch.png")
    return widget


def oc1_infinite_values(app):
    """OC1 on iris with ±inf in a few features: a warning and a model."""
    iris = Table("iris").copy()
    with iris.unlocked(iris.X):  # Table.from_numpy would turn inf into NaN
        iris.X[3, 0] = np.inf
        iris.X[50, 2] = -np.inf
        iris.X[120, 3] = np.inf
    widget = learner_widget(app, OWOC1, iris)
    assert widget.Warning.fit_warnings.is_shown(), messages(widget.Warning)
    assert widget.model is not None, messages(widget.Error)
    save(app, widget, "robustness-oc1-infinite-values.png")
    return widget


def main():
    app = QApplication.instance() or QApplication(sys.argv)
    os.makedirs(OUT, exist_ok=True)
    widgets = [make(app) for make in (odt_svm_missing_class,
                                      geometric_tree_regression_target,
                                      viewer_domain_mismatch,
                                      oc1_infinite_values)]
    for widget in widgets:
        widget.onDeleteWidget()


if __name__ == "__main__":
    main()
