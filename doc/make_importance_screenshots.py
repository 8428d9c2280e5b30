"""Screenshots of the feature importances: a learner widget with its "Model" box after a
fit, and Orange's Rank widget with the Geometric Tree learner as a scorer.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_importance_screenshots.py

and writes ``doc/screenshots/feature-importances-geometric-tree.png`` and
``doc/screenshots/rank-geometric-tree.png``.
"""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QApplication

from Orange.data import Table
from Orange.widgets.data.owrank import OWRank

from orangecontrib.oblique import GeometricTreeLearner
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree

from screenshot_helpers import save, wait_until_done  # pylint: disable=import-error


def main():
    app = QApplication.instance() or QApplication(sys.argv)
    heart = Table("heart_disease")

    widget = OWGeometricTree()
    widget.set_data(heart)
    widget.handleNewSignals()
    widget.show()
    wait_until_done(app, lambda: widget.task is not None)
    widget.adjustSize()
    save(app, widget, "feature-importances-geometric-tree.png")
    print(widget.model_summary.text())

    rank = OWRank()
    rank.set_data(heart)
    rank.insert_learner(0, GeometricTreeLearner())
    rank.handleNewSignals()
    rank.resize(1000, 560)
    rank.show()
    wait_until_done(app, lambda: rank.task is not None)
    column = rank.ranksModel.columnCount() - 1  # the Geometric Tree's scores
    rank.ranksView.sortByColumn(column, Qt.DescendingOrder)
    rank.ranksView.resizeColumnToContents(column)
    rank.headerClick(column)  # as a click on the header: select the best ranked again
    save(app, rank, "rank-geometric-tree.png")
    widget.onDeleteWidget()
    rank.onDeleteWidget()


if __name__ == "__main__":
    main()
