"""Screenshots of the Partition and Split explorer tabs of the Oblique Tree Viewer for a
tree over many attributes: a Geometric Decision Tree on *heart disease*.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_partition_screenshots.py

and writes ``doc/screenshots/partition-heart-disease.png`` (the partition of the plane of
two chosen attributes, the others held at their medians, as the line under the plot
says) and ``doc/screenshots/split-explorer-heart-disease-root.png`` (the rows at the
root against its hyperplane).
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtWidgets import QApplication

from Orange.data import Table

from orangecontrib.oblique import GeometricTreeLearner
from orangecontrib.oblique.widgets.optionalviews import rows_without_nan
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.splitviews import NO_PARTITION
from orangecontrib.oblique.widgets.treescene import class_colors

from screenshot_helpers import OUT, save, settle  # pylint: disable=import-error

SIZE = (1200, 820)
#: The plotted attributes of the partition screenshot (chosen in the view's combo boxes).
PLOTTED = ("ST by exercise", "max HR")


def show_partition(widget):
    """Make sure the Partition tab shows the model.  A viewer that still asks for a tree
    over exactly two attributes leaves the view cleared; then hand the view what the
    viewer hands it for a two-attribute tree."""
    view = widget.partition_view
    if view.message == NO_PARTITION:
        print("note: the viewer left the Partition tab empty (a tree over more than two "
              "attributes); calling the view as the viewer does for two")
        tree = widget.view_tree
        X, y = rows_without_nan(tree, widget.data)
        view.set_model(widget.model, X, y, class_colors(tree), tree.names,
                       tree.class_values)


def main():
    app = QApplication.instance() or QApplication([])
    os.makedirs(OUT, exist_ok=True)
    heart = Table("heart_disease")
    model = GeometricTreeLearner()(heart)
    model.instances = heart  # as the learner widget sends it: with its training rows

    widget = OWObliqueTreeViewer()
    widget.resize(*SIZE)
    widget.show()
    widget.set_tree(model)  # the Tree input
    widget.handleNewSignals()
    settle(app)

    widget.tabs.setCurrentWidget(widget.partition_view)
    show_partition(widget)
    view = widget.partition_view
    names = widget.view_tree.names
    view.x_combo.setCurrentIndex(names.index(PLOTTED[0]))
    view.y_combo.setCurrentIndex(names.index(PLOTTED[1]))
    print(view.held_text)
    save(app, widget, "partition-heart-disease.png")

    widget.select_nodes({0})
    widget.tabs.setCurrentWidget(widget.split_explorer)
    save(app, widget, "split-explorer-heart-disease-root.png")
    widget.onDeleteWidget()
    widget.close()


if __name__ == "__main__":
    main()
