"""Screenshots of readable oblique splits: a Geometric Decision Tree of at most three
attributes per split on *heart disease* in the Oblique Tree Viewer (the tree at the
default window size, the Rules tab, coefficients per standard deviation) and in Orange's
own Tree Viewer.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_readable_split_screenshots.py

and writes ``doc/screenshots/readable-splits-*.png``.
"""
import os

# first: it runs Qt offscreen unless QT_QPA_PLATFORM says otherwise
from make_viewer_screenshots import OUT, save, settle, viewer
from make_screenshots import show_tree

# pylint: disable=wrong-import-position,wrong-import-order
from AnyQt.QtWidgets import QApplication

from Orange.data import Table

from orangecontrib.oblique import GeometricTreeLearner


def main():
    app = QApplication.instance() or QApplication([])
    os.makedirs(OUT, exist_ok=True)
    heart = Table("heart_disease")
    model = GeometricTreeLearner(max_terms=3, random_state=0)(heart)
    model.instances = heart  # as the learner widget does

    widget = viewer(app, model, size=None, fit=False)
    widget.row_spin.setValue(4)
    save(app, widget, "readable-splits-viewer-tree.png")

    widget.tabs.setCurrentWidget(widget.rules_panel)
    save(app, widget, "readable-splits-viewer-rules.png")

    widget.tabs.setCurrentWidget(widget.view)
    widget.controls.coefficients.setCurrentIndex(widget.PER_SD)
    widget.controls.coefficients.activated.emit(widget.PER_SD)
    save(app, widget, "readable-splits-viewer-per-sd.png")
    widget.hide()

    # Orange's Tree Viewer with its boxes at their widest (200 px), the tree fitted
    show_tree(app, model, "readable-splits-orange-tree-viewer.png", size=(1400, 760))


if __name__ == "__main__":
    main()
