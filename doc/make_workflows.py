"""Write the example workflows of ``orangecontrib/oblique/tutorials`` (Help → Examples).

The workflows are built with orange-canvas-core's scheme API from the widget registry that
Orange Canvas itself discovers, so every node and link is one the canvas accepts.

    .venv/bin/python doc/make_workflows.py
"""
import importlib
import logging
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from orangecanvas.registry import WidgetRegistry
from orangecanvas.scheme import Scheme, SchemeLink, SchemeNode
from orangecanvas.scheme.readwrite import scheme_to_ows_stream
from Orange.canvas.config import Config
from Orange.widgets.utils.filedialogs import RecentPath

import orangecontrib.oblique.tutorials

OUT_DIR = os.path.dirname(orangecontrib.oblique.tutorials.__file__)

FILE = "Orange.widgets.data.owfile.OWFile"
TABLE = "Orange.widgets.data.owtable.OWTable"
TREE = "Orange.widgets.model.owtree.OWTreeLearner"
RANDOM_FOREST = "Orange.widgets.model.owrandomforest.OWRandomForest"
TEST_SCORE = "Orange.widgets.evaluate.owtestandscore.OWTestAndScore"
CONFUSION = "Orange.widgets.evaluate.owconfusionmatrix.OWConfusionMatrix"
OBLIQUE = "orangecontrib.oblique.widgets."
OBLIQUE_DATA = OBLIQUE + "owobliquedata.OWObliqueData"
GDT = OBLIQUE + "owgeometrictree.OWGeometricTree"
OC1 = OBLIQUE + "owoc1.OWOC1"
ODT_SVM = OBLIQUE + "owodtsvm.OWODTSVM"
HEDGE = OBLIQUE + "owhedgeensemble.OWHedgeEnsemble"
FOREST = OBLIQUE + "owobliqueforest.OWObliqueForest"
OBLIQUE_VIEWER = OBLIQUE + "owobliquetreeviewer.OWObliqueTreeViewer"

#: Test & Score: 5-fold stratified cross-validation (``n_folds`` indexes [2, 3, 5, 10, 20]).
CROSS_VALIDATION = {"resampling": 0, "n_folds": 2, "cv_stratified": True}


def registry():
    discovery = Config.widget_discovery(WidgetRegistry())
    discovery.run(Config.widgets_entry_points())
    return discovery.registry


def file_properties(name):
    """Settings of a File widget that opens one of Orange's sample data sets."""
    path = RecentPath(abspath=name, prefix="sample-datasets", relpath=name, title="")
    return {"recent_paths": [path], "recent_urls": [], "source": 0, "url": "",
            "sheet_names": {}, "domain_editor": {}, "controlAreaVisible": True,
            "__version__": 1}


class Builder:
    """A scheme and the registry its nodes come from."""

    def __init__(self, reg, title, description):
        self.registry = reg
        self.scheme = Scheme(title=title, description=description)

    def node(self, qualified_name, position, title=None, properties=None):
        desc = self.registry.widget(qualified_name)
        properties = dict(properties or {})
        if qualified_name.startswith(OBLIQUE):
            # settings of the current version: the widget's defaults as a new widget has
            # them (without a version they would be migrated as an old workflow's)
            module, _, name = qualified_name.rpartition(".")
            widget_class = getattr(importlib.import_module(module), name)
            properties.setdefault("__version__", widget_class.settings_version)
        node = SchemeNode(desc, title=title or desc.name, position=position,
                          properties=properties)
        self.scheme.add_node(node)
        return node

    def link(self, source, source_channel, sink, sink_channel):
        self.scheme.add_link(SchemeLink(source, source_channel, sink, sink_channel))

    def write(self, filename):
        path = os.path.join(OUT_DIR, filename)
        with open(path, "wb") as f:
            scheme_to_ows_stream(self.scheme, f, pretty=True, pickle_fallback=True)
        print("wrote", path)


def oblique_vs_axis_parallel(reg):
    b = Builder(
        reg, "Oblique vs. axis-parallel trees",
        "A rotated 4×4 checkerboard (the Geometric Decision Tree paper's second data "
        "set) has only oblique class boundaries. Orange's axis-parallel Tree can only "
        "approximate them with a staircase of many small splits; Geometric Tree follows "
        "them with oblique hyperplanes and is the most accurate. OC1 (5 restarts here, "
        "for speed) and ODT-SVM come out below Tree on this set. ODT-SVM is C4.5 with a "
        "linear SVM as one more test at each node: no single "
        "hyperplane separates a checkerboard, most of its splits are C4.5's thresholds, "
        "and C4.5's cost of a threshold (log2 of its cut points, over the node's rows) "
        "can exceed the best cut's gain at a node that spans many cells, which then "
        "stays a leaf (in two of the five folds one of over half the training "
        "rows). Compare the accuracies in "
        "Test and Score and the errors in Confusion Matrix; change the rotation angle, "
        "the number of rows or the label noise in Oblique Data (0° makes the set "
        "axis-parallel again).")
    data = b.node(OBLIQUE_DATA, (80, 255),
                  properties={"set_index": 1, "n_rows": 1000, "noise_percent": 0,
                              "seed": 0, "angles": {}, "auto_apply": True})
    learners = [
        b.node(GDT, (300, 30)),
        b.node(OC1, (300, 150), properties={"n_restarts": 5, "n_random_jumps": 2}),
        b.node(ODT_SVM, (300, 360)),
        b.node(TREE, (300, 480)),
    ]
    test = b.node(TEST_SCORE, (540, 255), properties=dict(CROSS_VALIDATION))
    confusion = b.node(CONFUSION, (760, 255))
    b.link(data, "Data", test, "Data")
    for learner in learners:
        b.link(data, "Data", learner, "Data")
        b.link(learner, "Learner", test, "Learner")
    b.link(test, "Evaluation Results", confusion, "Evaluation Results")
    b.write("oblique-vs-axis-parallel.ows")


def reading_an_oblique_tree(reg):
    b = Builder(
        reg, "Reading an oblique tree",
        "A Geometric Tree grown on the heart disease data, shown in the Oblique Tree "
        "Viewer: every internal node is a hyperplane over several features (a weighted "
        "sum compared with a threshold), drawn with its largest terms and a bar chart of "
        "its coefficients; the Rules tab lists the tree as IF ... THEN rules. Select a "
        "node in the viewer to see its patients in the Data Table.")
    data = b.node(FILE, (80, 200), properties=file_properties("heart_disease.tab"))
    tree = b.node(GDT, (280, 200))
    viewer = b.node(OBLIQUE_VIEWER, (480, 200))
    table = b.node(TABLE, (680, 200))
    b.link(data, "Data", tree, "Data")
    b.link(tree, "Model", viewer, "Tree")
    b.link(viewer, "Selected Data", table, "Data")
    b.write("reading-an-oblique-tree.ows")


def ensembles(reg):
    b = Builder(
        reg, "Ensembles of oblique trees",
        "Hedge Ensemble trains several ODT-SVM trees on random subsets of the iris "
        "data and weighs their votes. Test and Score compares the ensemble with the "
        "single ODT-SVM tree it is built from; connect another learner (Geometric "
        "Tree, OC1) to the ensemble's Learner input to change its members.")
    # no link crosses a node or its title: the ensemble above the single tree's link
    data = b.node(FILE, (80, 330), properties=file_properties("iris.tab"))
    odt = b.node(ODT_SVM, (280, 200))
    hedge = b.node(HEDGE, (500, 80))
    test = b.node(TEST_SCORE, (720, 330), properties=dict(CROSS_VALIDATION))
    b.link(odt, "Learner", hedge, "Learner")
    b.link(data, "Data", test, "Data")
    b.link(odt, "Learner", test, "Learner")
    b.link(hedge, "Learner", test, "Learner")
    b.write("ensembles.ows")


def oblique_forest(reg):
    b = Builder(
        reg, "Oblique Forest",
        "An Oblique Forest (SPORF: every split a sparse random combination of a few "
        "attributes) on the heart disease data, compared in Test and Score with Orange's "
        "Random Forest and a single Tree. The forest's member trees go, one at a time, "
        "to the Oblique Tree Viewer: choose which in the forest's \"Send tree\" box.")
    # no link crosses a node or its title: File's link to Test and Score runs between
    # the learners
    data = b.node(FILE, (80, 330), properties=file_properties("heart_disease.tab"))
    forest = b.node(FOREST, (300, 80))
    learners = [forest, b.node(RANDOM_FOREST, (300, 210)), b.node(TREE, (300, 460))]
    test = b.node(TEST_SCORE, (580, 330), properties=dict(CROSS_VALIDATION))
    viewer = b.node(OBLIQUE_VIEWER, (580, 80))
    b.link(data, "Data", test, "Data")
    for learner in learners:
        b.link(data, "Data", learner, "Data")
        b.link(learner, "Learner", test, "Learner")
    b.link(forest, "Member tree", viewer, "Tree")
    b.write("oblique-forest.ows")


def main():
    # File's recent paths are not Python literals; the pickle fallback is intended
    logging.getLogger("orangecanvas.scheme.readwrite").setLevel(logging.ERROR)
    reg = registry()
    oblique_vs_axis_parallel(reg)
    reading_an_oblique_tree(reg)
    ensembles(reg)
    oblique_forest(reg)


if __name__ == "__main__":
    sys.exit(main())
