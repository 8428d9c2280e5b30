"""Screenshots of the Geometric Tree widget and of a GDT model in Orange's tree viewers.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_screenshots.py

and writes ``doc/screenshots/*.png``.
"""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QApplication

from Orange.data import Table
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph

from orangecontrib.oblique import GeometricTreeLearner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "screenshots")


def settle(app, rounds=20):
    for _ in range(rounds):
        app.processEvents()


def save(app, widget, name, size=None):
    if size is not None:
        widget.resize(*size)
    widget.show()
    settle(app)
    path = os.path.join(OUT, name)
    widget.grab().save(path)
    print("wrote", path)
    widget.hide()


def main():
    app = QApplication.instance() or QApplication(sys.argv)
    os.makedirs(OUT, exist_ok=True)
    data = Table("heart_disease")

    learner_widget = OWGeometricTree()
    learner_widget.set_data(data)
    learner_widget.handleNewSignals()
    settle(app)
    save(app, learner_widget, "geometric-tree-widget.png")

    # the top three levels, so that the whole tree is readable in one picture
    shallow = GeometricTreeLearner(max_depth=3)(data)
    shallow.instances = data  # as the learner widget does
    viewer = OWTreeGraph()
    viewer.max_node_width = 200
    viewer.zoom = 5
    viewer.ctree(shallow)
    viewer.toggle_node_size()
    viewer.toggle_zoom_slider()
    viewer.resize(1400, 900)
    viewer.show()
    settle(app)
    bounds = viewer.scene.itemsBoundingRect().adjusted(-10, -10, 10, 10)
    viewer.scene_view.fitInView(bounds, Qt.KeepAspectRatio)
    save(app, viewer, "tree-viewer-heart-disease.png")

    model = GeometricTreeLearner()(data)
    model.instances = data
    pythagoras = OWPythagorasTree()
    pythagoras.set_tree(model)
    pythagoras.handleNewSignals()
    save(app, pythagoras, "pythagorean-tree-heart-disease.png", (1100, 800))
    for widget in (learner_widget, viewer, pythagoras):
        widget.onDeleteWidget()


if __name__ == "__main__":
    main()
