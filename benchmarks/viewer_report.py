"""How long the Oblique Tree Viewer's report of a tree of over 500 leaves takes, and how
large its picture is.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/viewer_report.py

Grows the unpruned OC1 tree of random labels of
``tests/hostile_inputs/test_widget_hostile_use.py`` (2,200 rows, over 500 leaves), then
times the viewer's report of it drawn whole (Expand all) and of its top three and six
levels, with the size of the scene and of the report's picture (or "left out").
"""
import os
import re
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# pylint: disable=wrong-import-position
from AnyQt.QtWidgets import QApplication  # noqa: E402


def main():
    app = QApplication.instance() or QApplication([])
    # widget modules import Qt widgets: import them after the application exists
    from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
    from tests.hostile_inputs.test_widget_hostile_use import (many_leaves_tree,
                                                              report_images)

    model = many_leaves_tree()
    print(f"tree: {model.tree_.node_count} nodes, {model.tree_.n_leaves} leaves, "
          f"depth {model.tree_.depth}")
    widget = OWObliqueTreeViewer()
    widget.set_tree(model)
    widget.handleNewSignals()
    for levels in (None, 3, 6):
        widget.scene.expand_all()
        if levels is not None:
            widget.scene.open_top_levels(levels)
        rect = widget.scene.sceneRect()
        widget.report_html = ""
        start = time.perf_counter()
        widget.send_report()
        seconds = time.perf_counter() - start
        images = report_images(widget.report_html)
        picture = (f"{images[0].width()} × {images[0].height()} px" if images else
                   "left out" if re.search("picture of the tree is left out",
                                           widget.report_html) else "none")
        shown = "whole tree" if levels is None else f"top {levels} levels"
        print(f"{shown:14s} scene {rect.width():9,.0f} × {rect.height():6,.0f}   "
              f"report {seconds:6.2f} s   picture {picture}")
    widget.deleteLater()
    app.processEvents()


if __name__ == "__main__":
    main()
