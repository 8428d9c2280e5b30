"""Screenshots of the Oblique Forest widget and of one of its trees in the Oblique Tree
Viewer.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_forest_screenshots.py

and writes ``doc/screenshots/oblique-forest-widget.png`` (the widget with its default
settings, fitted on heart disease, sending its third tree) and
``doc/screenshots/oblique-forest-member-tree.png`` (the top of that tree in the viewer).
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtWidgets import QApplication

from Orange.data import Table

from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest

from make_viewer_screenshots import viewer  # pylint: disable=import-error
from screenshot_helpers import save, wait_for_fit  # pylint: disable=import-error


def main():
    app = QApplication.instance() or QApplication([])
    heart = Table("heart_disease")
    forest = OWObliqueForest()
    forest.member_tree = 3
    forest.set_data(heart)
    forest.handleNewSignals()
    wait_for_fit(app, forest, timeout=300)
    save(app, forest, "oblique-forest-widget.png")

    tree = forest.model.member_model(forest.member_tree - 1, heart)
    shown = viewer(app, tree, heart, limit_depth=True, max_depth=3)
    save(app, shown, "oblique-forest-member-tree.png")
    return forest, shown


if __name__ == "__main__":
    main()
