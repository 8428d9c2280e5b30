"""Screenshots of the analyst's first view, every widget at the size Orange
opens it (its ``sizeHint``):

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_first_view_screenshots.py

writes ``doc/screenshots/first-view-*.png``: the Oblique Tree Viewer as it opens a tree of
Geometric Tree's defaults on heart disease, after *Fit* of the whole (expanded) tree, with
a row's path; the partition on an indicator and on a nominal axis; Geometric Tree's
depth-limit warning on noisy data; the feature importances of GDT and ODT-SVM side by
side (the table's own attributes); the Oblique Forest example workflow run.
"""
import os
import sys
import warnings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
import numpy as np
from AnyQt.QtWidgets import QApplication

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from screenshot_helpers import save, settle, wait_for_fit


def viewer_on(app, model):
    """The Oblique Tree Viewer on ``model``, at its default size, as a new tree opens."""
    from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
    widget = OWObliqueTreeViewer()
    widget.resize(widget.sizeHint())
    widget.show()
    settle(app)
    widget.set_tree(model)
    widget.set_data(None)
    widget.handleNewSignals()
    settle(app)
    return widget


def fitted_widget(app, widget_class, data, **settings):
    """A learner widget (default settings but ``settings``) after fitting ``data``."""
    widget = widget_class()
    for name, value in settings.items():
        setattr(widget, name, value)
    widget.resize(widget.sizeHint())
    widget.set_data(data)
    widget.handleNewSignals()
    wait_for_fit(app, widget)
    return widget


def noisy_table(n_rows=10000, seed=0):
    """A 10,000-row table of 14 attributes (10 numeric, 4 nominal) whose class is noisy:
    a tree grown without pruning reaches the depth limit."""
    rng = np.random.default_rng(seed)
    numeric = rng.normal(size=(n_rows, 10))
    nominal = rng.integers(0, 3, size=(n_rows, 4))
    score = numeric[:, 0] + 0.5 * numeric[:, 1] - 0.7 * (nominal[:, 0] == 1)
    y = (score + rng.normal(scale=1.0, size=n_rows) > 0).astype(int)
    domain = Domain([ContinuousVariable(f"x{j + 1}") for j in range(10)]
                    + [DiscreteVariable(f"c{j + 1}", values=("a", "b", "c"))
                       for j in range(4)],
                    DiscreteVariable("class", values=("no", "yes")))
    return Table.from_numpy(domain, np.hstack([numeric, nominal]).astype(float), y)


def main():
    from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
    from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM
    warnings.simplefilter("ignore")
    app = QApplication.instance() or QApplication(sys.argv)
    heart = Table("heart_disease")

    # the viewer on a tree of Geometric Tree's widget defaults
    gdt = fitted_widget(app, OWGeometricTree, heart)
    model = gdt.model
    viewer = viewer_on(app, model)
    save(app, viewer, "first-view-viewer-opens.png")
    viewer.scene.expand_all()
    viewer.fit_to_window()
    save(app, viewer, "first-view-viewer-fit.png")
    viewer.row_spin.setValue(5)
    save(app, viewer, "first-view-viewer-row-path.png")

    # the partition: indicator axes (GDT) and a nominal axis (ODT-SVM)
    viewer = viewer_on(app, model)
    viewer.tabs.setCurrentWidget(viewer.partition_view)
    save(app, viewer, "first-view-partition-gdt-heart.png")
    odt = fitted_widget(app, OWODTSVM, heart)
    viewer = viewer_on(app, odt.model)
    viewer.tabs.setCurrentWidget(viewer.partition_view)
    save(app, viewer, "first-view-partition-odt-svm-heart.png")

    # Geometric Tree stops at the depth limit on noisy data: the warning
    save(app, fitted_widget(app, OWGeometricTree, noisy_table()),
         "first-view-geometric-tree-depth-limit.png")
    # the importances of GDT and ODT-SVM name the same attributes
    save(app, gdt, "first-view-geometric-tree-widget.png")
    importances(app, gdt, odt)
    return 0


def importances(app, *widgets):
    """The "Feature importances" outputs of ``widgets`` in Data Tables, side by side."""
    from AnyQt.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget
    from Orange.widgets.data.owtable import OWTable
    from orangecontrib.oblique.widgets.modelsummary import importance_table
    window = QWidget()
    row = QHBoxLayout(window)
    tables = []
    for widget in widgets:
        column = QVBoxLayout()
        column.addWidget(QLabel(f"<b>{widget.name}</b>: Feature importances"))
        table = OWTable()
        table.set_dataset(importance_table(widget.model))
        table.handleNewSignals()
        table.controlArea.hide()
        column.addWidget(table.mainArea)
        row.addLayout(column)
        tables.append(table)
    save(app, window, "first-view-importances-gdt-odt-svm.png", size=(900, 560))


if __name__ == "__main__":
    sys.exit(main())
