"""Screenshots of the Oblique Tree Viewer on real data, at the widget's
default window size.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_viewer_fix_screenshots.py

and writes ``doc/screenshots/viewer-*.png`` and ``orange-tree-viewer-150px.png``.
"""
import os
import sys
import warnings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]

# pylint: disable=wrong-import-position
import numpy as np

from AnyQt.QtWidgets import QApplication

from Orange.data import Table

from make_viewer_screenshots import OUT, save, settle, viewer as _viewer
from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner
# the 8-class table of the tests, on which ODT-SVM's multiway splits have empty branches
from tests.widgets.test_viewer_real_data import eight_classes


def viewer(app, model, data=None, **settings):
    """The viewer at its default window size, opened on ``model`` as a user would."""
    return _viewer(app, model, data, size=None, fit=False, **settings)


def main():
    app = QApplication.instance() or QApplication([])
    os.makedirs(OUT, exist_ok=True)
    heart = Table("heart_disease")
    big = GeometricTreeLearner(max_terms=None, random_state=0)(heart)
    big.instances = heart

    # 1. opening zoom: readable text, the root at the top; zoom slider, Fit to width,
    # target class, edge widths by instances
    widget = viewer(app, big, target_class="1")
    save(app, widget, "viewer-opening-heart.png")

    # 4. a traced row below the depth limit: the settings stay, the path is on screen
    widget = viewer(app, big, limit_depth=True, max_depth=2)
    tree = widget.view_tree
    deep = [leaf for leaf in tree.leaves() if tree.depth[leaf] > 3][0]
    row = int(np.flatnonzero(widget.counts.stop == deep)[0])
    widget.row_spin.setValue(row + 1)
    save(app, widget, "viewer-trace-below-depth-limit.png")

    # 4. a Data subset: its rows' paths highlighted
    widget = viewer(app, big, heart[[3, 10, 40]], max_terms=2)
    save(app, widget, "viewer-data-subset-paths.png")

    # 3. a multiway tree: the model's nodes, no empty leaves
    data = eight_classes()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        odt = ODTSVMLearner(random_state=0)(data)
    odt.instances = data
    widget = viewer(app, odt)
    save(app, widget, "viewer-multiway-8-classes.png")

    # 9. Orange's own Tree Viewer at its default box width (150 px)
    from Orange.widgets.visualize.owtreeviewer import OWTreeGraph
    orange = OWTreeGraph()
    orange.resize(1000, 700)
    orange.show()
    orange.ctree(big)
    settle(app)
    save(app, orange, "orange-tree-viewer-150px.png")


if __name__ == "__main__":
    main()
