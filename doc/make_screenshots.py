"""Screenshots of the learner widgets and of their models in Orange's tree viewers.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_screenshots.py [GROUP ...]

and writes ``doc/screenshots/*.png``; GROUP is ``widgets`` (the four learner widgets),
``gdt-oc1`` or ``odt-svm`` (their trees in Orange's viewers; default: all).
"""
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QApplication

import numpy as np

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.visualize.owpythagorastree import OWPythagorasTree
from Orange.widgets.visualize.owtreeviewer import OWTreeGraph

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner, ODTSVMLearner
from orangecontrib.oblique.core.datasets import parallel_oblique_lines
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

from screenshot_helpers import OUT, save, settle, wait_for_fit  # pylint: disable=import-error


def as_table(X, y, class_name="class"):
    classes = np.unique(y)
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(X.shape[1])],
                    DiscreteVariable(class_name, values=[str(c) for c in classes]))
    return Table.from_numpy(domain, X, np.searchsorted(classes, y))


def show_tree(app, model, name, size=(1400, 900), spacing=None):
    """Orange's Tree Viewer with ``model``, the whole tree fitted into the view.

    ``spacing`` widens the gap between sibling subtrees (Orange's is 10 px): the viewer
    does not make room for edge labels, so long labels of neighbouring branches, such as
    ``≠ asymptomatic`` beside ``= asymptomatic``, would overlap.
    """
    viewer = OWTreeGraph()
    if spacing is not None:
        viewer.scene._HSPACING = spacing  # pylint: disable=protected-access
    viewer.max_node_width = 200
    viewer.zoom = 5
    viewer.ctree(model)
    viewer.toggle_node_size()
    viewer.toggle_zoom_slider()
    viewer.resize(*size)
    viewer.show()
    settle(app)
    bounds = viewer.scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
    viewer.scene_view.fitInView(bounds, Qt.KeepAspectRatio)
    save(app, viewer, name)
    return viewer


def fitted_widget(app, widget, data, name, timeout=60):
    """Save ``widget`` (a learner widget) after fitting ``data``."""
    widget.set_data(data)
    widget.handleNewSignals()
    wait_for_fit(app, widget, timeout)
    save(app, widget, name)
    return widget


def learner_widgets(app):
    """The four learner widgets with their default settings, fitted on heart disease."""
    heart = Table("heart_disease")
    gdt = fitted_widget(app, OWGeometricTree(), heart, "geometric-tree-widget.png")
    oc1 = fitted_widget(app, OWOC1(), heart, "oc1-widget.png")
    odt = fitted_widget(app, OWODTSVM(), heart, "odt-svm-widget.png")
    # a base learner connected to the Learner input, as from an ODT-SVM widget
    base = ODTSVMLearner(clustering_split=False, random_state=0)
    base.name = "ODT-SVM (no clustering)"
    hedge = OWHedgeEnsemble()
    hedge.set_base_learner(base)
    hedge.member_tree = 3
    fitted_widget(app, hedge, heart, "hedge-ensemble-widget.png", timeout=300)
    return gdt, oc1, odt, hedge


def gdt_and_oc1(app):
    """The GDT and OC1 trees in Orange's viewers, and a long GDT fit."""
    data = Table("heart_disease")

    # the top three levels, so that the whole tree is readable in one picture
    shallow = GeometricTreeLearner(max_depth=3)(data)
    shallow.instances = data  # as the learner widget does
    viewer = show_tree(app, shallow, "tree-viewer-heart-disease.png")

    model = GeometricTreeLearner()(data)
    model.instances = data
    pythagoras = OWPythagorasTree()
    pythagoras.set_tree(model)
    pythagoras.handleNewSignals()
    save(app, pythagoras, "pythagorean-tree-heart-disease.png", (1100, 800))

    # OC1's parallel oblique lines: four parallel hyperplanes separate five bands
    lines = as_table(*parallel_oblique_lines(2000, random_state=0))
    oc1_model = OC1Learner(random_state=0)(lines)
    oc1_model.instances = lines
    oc1_viewer = show_tree(app, oc1_model, "tree-viewer-oc1.png", (1240, 520))

    # a long fit runs in the background with a progress bar: random labels on many rows
    rng = np.random.default_rng(0)
    noise = as_table(rng.normal(size=(8000, 10)), rng.integers(0, 3, 8000))
    fitting = OWGeometricTree()
    fitting.show()
    fitting.set_data(noise)
    fitting.handleNewSignals()
    deadline = time.monotonic() + 30
    while fitting.progressBarValue < 40 and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    save(app, fitting, "geometric-tree-fitting.png")

    return viewer, pythagoras, oc1_viewer, fitting


def odt_svm(app):
    """ODT-SVM trees: a multiway root on iris and nominal tests on heart_disease."""
    heart = Table("heart_disease")

    # without J48's single-attribute thresholds the root of iris is the SVM's
    # one-vs-rest split, one branch per class
    iris = Table("iris")
    multiway = ODTSVMLearner(axis_parallel_tests=False, clustering_split=False,
                             random_state=0)(iris)
    multiway.instances = iris
    iris_viewer = show_tree(app, multiway, "tree-viewer-odt-svm-iris.png", (1300, 600))

    # the top levels of heart_disease: nominal tests "attribute = value"
    nominal = ODTSVMLearner(max_depth=3, random_state=0)(heart)
    nominal.instances = heart
    heart_viewer = show_tree(app, nominal, "tree-viewer-odt-svm-heart.png", (1600, 500),
                             spacing=60)
    return iris_viewer, heart_viewer


GROUPS = {"widgets": learner_widgets, "gdt-oc1": gdt_and_oc1, "odt-svm": odt_svm}


def main(groups=None):
    app = QApplication.instance() or QApplication(sys.argv)
    os.makedirs(OUT, exist_ok=True)
    for name in groups or GROUPS:
        for widget in GROUPS[name](app):
            widget.onDeleteWidget()


if __name__ == "__main__":
    main(sys.argv[1:])
