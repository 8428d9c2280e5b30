"""Screenshots of the split explorer and the partition view on the 4×4 checkerboard.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_splitview_screenshots.py

and writes ``doc/screenshots/split-explorer-4x4-root.png`` (the rows at the root of a
Geometric Decision Tree against its hyperplane) and ``doc/screenshots/partition-4x4.png``
(the tree's partition of the plane, as in the figures of the GDT paper).
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtGui import QColor
from AnyQt.QtWidgets import QApplication

import numpy as np

from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.core.datasets import checkerboard_4x4
from orangecontrib.oblique.widgets.splitviews import PartitionView, SplitExplorer

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "screenshots")
COLORS = [QColor(214, 39, 40), QColor(31, 119, 180)]   # class −1, class +1
CLASS_NAMES = ["class −1", "class +1"]
SIZE = (900, 600)


def render(app, view, name):
    view.resize(*SIZE)
    view.show()
    for _ in range(10):
        app.processEvents()
    path = os.path.join(OUT, name)
    view.grab().save(path)
    view.close()
    print("wrote", path)


def main():
    app = QApplication.instance() or QApplication([])
    X, y = checkerboard_4x4(n_samples=2000, random_state=0)
    estimator = GeometricTreeClassifier().fit(X, y)
    tree = estimator.tree_
    y_index = np.searchsorted(estimator.classes_, y).astype(float)
    os.makedirs(OUT, exist_ok=True)

    explorer = SplitExplorer()
    explorer.set_node(tree, 0, X, y_index, COLORS, ["x1", "x2"], CLASS_NAMES)
    render(app, explorer, "split-explorer-4x4-root.png")

    partition = PartitionView()
    partition.set_model(tree, X, y_index, COLORS, ["x1", "x2"], CLASS_NAMES)
    render(app, partition, "partition-4x4.png")


if __name__ == "__main__":
    main()
