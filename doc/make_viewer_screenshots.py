"""Screenshots of the Oblique Tree Viewer.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_viewer_screenshots.py

and writes ``doc/screenshots/oblique-viewer-*.png``.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtCore import QSize
from AnyQt.QtWidgets import QApplication

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner
from orangecontrib.oblique.core.datasets import checkerboard_4x4

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "screenshots")


def settle(app, rounds=20):
    for _ in range(rounds):
        app.processEvents()


def viewer(app, model, data=None, size=(1400, 860), fit=True, **settings):
    """The Oblique Tree Viewer on ``model`` (and ``data``): at ``size``, or at its default
    size for None, as a user opens it; ``fit`` zooms the whole tree into the window."""
    from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
    widget = OWObliqueTreeViewer()
    for name, value in settings.items():
        setattr(widget, name, value)
    widget.resize(widget.sizeHint() if size is None else QSize(*size))
    widget.show()
    settle(app)
    widget.set_tree(model)
    widget.set_data(data)
    widget.handleNewSignals()
    settle(app)
    if fit:
        widget.fit_to_window()
        settle(app)
    return widget


def save(app, widget, name):
    settle(app)
    path = os.path.join(OUT, name)
    widget.grab().save(path)
    print("wrote", path)


def checkerboard(n_rows=1000, seed=0):
    """The GDT paper's rotated 4×4 checkerboard."""
    X, y = checkerboard_4x4(n_rows, random_state=seed)
    y = (y > 0).astype(int)
    domain = Domain([ContinuousVariable("x1"), ContinuousVariable("x2")],
                    DiscreteVariable("class", values=("white", "black")))
    return Table.from_numpy(domain, X, y)


def main():
    app = QApplication.instance() or QApplication([])
    os.makedirs(OUT, exist_ok=True)

    heart = Table("heart_disease")
    gdt = GeometricTreeLearner(epsilon1=0.15, max_depth=4, random_state=0)(heart)
    gdt.instances = heart
    widget = viewer(app, gdt, heart[::2], max_terms=3, node_width=250)
    widget.select_nodes({1})
    widget.row_spin.setValue(4)
    save(app, widget, "oblique-viewer-gdt-heart.png")

    iris = Table("iris")
    odt = ODTSVMLearner(axis_parallel_tests=False, clustering_split=False,
                        random_state=0)(iris)
    odt.instances = iris
    widget = viewer(app, odt, size=(1300, 760), max_terms=2, node_width=240)
    save(app, widget, "oblique-viewer-odt-svm-iris.png")

    if widget.split_explorer is not None:
        widget.select_nodes({0})
        widget.tabs.setCurrentWidget(widget.split_explorer)
        save(app, widget, "oblique-viewer-split-explorer.png")

        board = checkerboard()
        tree = GeometricTreeLearner(epsilon1=0.05, random_state=0)(board)
        tree.instances = board
        widget = viewer(app, tree, size=(1300, 860))
        widget.tabs.setCurrentWidget(widget.partition_view)
        save(app, widget, "oblique-viewer-partition-4x4.png")


if __name__ == "__main__":
    main()
