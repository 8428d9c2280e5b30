"""How long the Oblique Tree Viewer takes to draw a tree of about 300 nodes.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/viewer.py

Grows an unpruned Geometric Decision Tree on a noisy 10-D synthetic set (20 % of the
labels flipped, so the tree keeps splitting), then times, in the widget: the adapter
(:class:`TreeAdapter`), counting the training rows, building the scene, and rendering the
whole scene into an image.
"""
import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
import numpy as np
from AnyQt.QtGui import QImage, QPainter
from AnyQt.QtWidgets import QApplication

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.oblique import GeometricTreeLearner


def noisy_table(n_rows=900, n_features=10, flip=0.2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, n_features))
    y = (X @ rng.normal(size=n_features) > 0).astype(int)
    y[rng.random(n_rows) < flip] ^= 1
    domain = Domain([ContinuousVariable(f"x{j + 1}") for j in range(n_features)],
                    DiscreteVariable("y", values=("a", "b")))
    return Table.from_numpy(domain, X, y)


def main():
    app = QApplication.instance() or QApplication([])
    # a widget module imports Qt widgets: import it after the application exists
    from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
    from orangecontrib.oblique.widgets.treeadapter import TreeAdapter

    data = noisy_table()
    model = GeometricTreeLearner(epsilon1=0.0, max_depth=12, random_state=0)(data)
    model.instances = data
    print(f"tree: {model.tree_.node_count} nodes, {model.tree_.n_leaves} leaves, "
          f"depth {model.tree_.depth}")

    widget = OWObliqueTreeViewer()
    widget.resize(1200, 800)
    timings = {}
    start = time.perf_counter()
    TreeAdapter.from_model(model)
    timings["adapter (TreeAdapter)"] = time.perf_counter() - start

    start = time.perf_counter()
    widget.set_tree(model)
    widget.handleNewSignals()          # adapter + counts + scene + rules text
    timings["input → scene ready"] = time.perf_counter() - start

    start = time.perf_counter()
    widget._redraw()                   # scene only (a setting changed)
    timings["scene rebuild"] = time.perf_counter() - start

    start = time.perf_counter()
    rect = widget.scene.sceneRect()
    image = QImage(int(rect.width() * 0.5), int(rect.height() * 0.5),
                   QImage.Format_ARGB32)
    image.fill(0xffffffff)
    painter = QPainter(image)
    widget.scene.render(painter)
    painter.end()
    timings["render whole scene"] = time.perf_counter() - start
    for name, seconds in timings.items():
        print(f"{name:24s} {seconds * 1000:8.1f} ms")
    total = timings["input → scene ready"] + timings["render whole scene"]
    print(f"{'draw (input + render)':24s} {total * 1000:8.1f} ms  "
          f"({len(widget.items)} node items)")
    widget.deleteLater()
    app.processEvents()


if __name__ == "__main__":
    main()
