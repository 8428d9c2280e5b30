"""Two plain Qt views of an oblique tree, for embedding in a viewer widget.

:class:`SplitExplorer` shows the rows at one node against the node's hyperplane;
:class:`PartitionView` shows how a tree over two features partitions the plane.
Both are ordinary ``QWidget`` subclasses drawn with pyqtgraph, not Orange widgets, so
the module can live in the widgets package without being discovered as a widget.
The geometry behind them is pure numpy, in :mod:`orangecontrib.oblique.core.geometry`.

All coordinates are in the tree's raw feature units: the ``X`` a view receives is what
the tree routes (``ObliqueTree.apply``), without missing values.
"""
import numpy as np
import pyqtgraph as pg

from AnyQt.QtCore import QRectF, Qt
from AnyQt.QtGui import QColor
from AnyQt.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from orangecontrib.oblique.core.geometry import (boundary_segments, explorer_coordinates,
                                                 explorer_hyperplane, partition_image)
from orangecontrib.oblique.core.rules import Vocabulary, branch_conditions
from orangecontrib.oblique.core.tree import ObliqueTree

__all__ = ["SplitExplorer", "PartitionView"]

#: Colour of rows whose class is unknown.
UNKNOWN_COLOR = QColor(160, 160, 160)
#: Fraction of white mixed into a class colour for the regions of the partition.
REGION_LIGHTNESS = 0.65
#: The view pads the data range by this fraction on every side.
MARGIN = 0.05
#: Longest weight list printed in a branch condition; the rest is counted.
MAX_TERMS = 4


def _qcolor(color):
    if isinstance(color, QColor):
        return QColor(color)
    return QColor(*[int(round(float(v))) for v in color])


def _lighter(color, amount=REGION_LIGHTNESS):
    color = _qcolor(color)
    return [round(v + (255 - v) * amount) for v in (color.red(), color.green(), color.blue())]


def _padded(values):
    low, high = float(np.min(values)), float(np.max(values))
    pad = (high - low) * MARGIN or max(abs(low), 1.0) * MARGIN
    return low - pad, high + pad


class _PlotView(QWidget):
    """A pyqtgraph plot with a text message that replaces it when there is nothing to
    show."""

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.plot_widget = pg.PlotWidget(background="w")
        self.plot = self.plot_widget.getPlotItem()
        self.plot.showGrid(x=False, y=False)
        for name in ("left", "bottom"):
            axis = self.plot.getAxis(name)
            axis.setPen(pg.mkPen(QColor(80, 80, 80)))
            axis.setTextPen(pg.mkPen(QColor(40, 40, 40)))
        self.message_label = QLabel(alignment=Qt.AlignCenter, wordWrap=True)
        self.message_label.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.message_label.setStyleSheet("color: #555; font-size: 14px; padding: 20px;")
        layout.addWidget(self.plot_widget)
        layout.addWidget(self.message_label)
        self.legend = None
        self.clear()

    @property
    def message(self):
        """The text shown instead of the plot, or "" when the plot is shown."""
        return self.message_label.text() if self.message_label.isVisibleTo(self) else ""

    def show_message(self, text):
        self._clear_plot()
        self.message_label.setText(text)
        self.plot_widget.hide()
        self.message_label.show()

    def _show_plot(self):
        self.message_label.hide()
        self.plot_widget.show()

    def _clear_plot(self):
        self.plot.clear()
        if self.legend is not None:
            scene = self.legend.scene()
            if scene is not None:
                scene.removeItem(self.legend)
            self.legend = None

    def clear(self):
        """Remove everything and show an empty plot."""
        self._clear_plot()
        self.plot.setLabel("bottom", "")
        self.plot.setLabel("left", "")
        self.message_label.setText("")
        self._show_plot()

    def _add_legend(self, entries):
        """``entries``: (name, QColor) pairs shown as round symbols."""
        self.legend = pg.LegendItem(offset=(-10, 10), brush=pg.mkBrush(255, 255, 255, 220),
                                    pen=pg.mkPen(QColor(180, 180, 180)),
                                    labelTextColor=QColor(30, 30, 30))
        self.legend.setParentItem(self.plot.getViewBox())
        for name, color in entries:
            sample = pg.ScatterPlotItem(symbol="o", size=9, brush=pg.mkBrush(color),
                                        pen=pg.mkPen(color.darker(140)))
            self.legend.addItem(sample, name)

    def _scatter_by_class(self, points, y, class_colors, class_names, size=6):
        """One scatter item per class (and one for unknown classes), listed in the legend."""
        y = np.asarray(y, dtype=float)
        colors = [_qcolor(c) for c in class_colors]
        names = (list(class_names) if class_names is not None
                 else [f"class {k + 1}" for k in range(len(colors))])
        items, entries = [], []
        known = np.isfinite(y)
        groups = [(k, known & (y == k)) for k in range(len(colors))]
        groups.append((None, ~known))
        for k, mask in groups:
            if not mask.any():
                continue
            color = UNKNOWN_COLOR if k is None else colors[k]
            pen = pg.mkPen(color.darker(150), width=0.8)
            item = pg.ScatterPlotItem(points[mask, 0], points[mask, 1], size=size,
                                      brush=pg.mkBrush(color), pen=pen, symbol="o")
            self.plot.addItem(item)
            items.append(item)
            entries.append(("unknown" if k is None else names[k], color))
        self._add_legend(entries)
        return items


class SplitExplorer(_PlotView):
    """The rows at one node, plotted against the node's hyperplane.

    Horizontally the signed distance to the hyperplane (the split's own for a hyperplane
    split, the boundary of the two busiest branches for a multiway split, see
    :func:`explorer_hyperplane`), vertically the coordinate along the largest spread
    remaining in the hyperplane (:func:`explorer_coordinates`).  The hyperplane is the
    vertical line ``x = 0``, labelled with the conditions of the branches on either side.
    Leaves and nominal tests get a short text instead.
    """

    def __init__(self, parent=None):
        self.scatter_items = []
        super().__init__(parent)

    def clear(self):
        self.scatter_items = []
        super().clear()

    def set_node(self, tree, node_id, X, y, class_colors, feature_names=None,
                 class_names=None):
        """Show node ``node_id`` of ``tree`` (an :class:`ObliqueTree`).

        Parameters
        ----------
        X : ndarray (n_rows, n_features), the rows that reach the node, raw features, no NaN
        y : ndarray (n_rows,), class index of every row into ``class_colors``; NaN = unknown
        class_colors : sequence of QColor or RGB triples, one per class
        feature_names : sequence of str or Vocabulary, optional (default ``x1 .. xd``)
            The words of the conditions; a :class:`Vocabulary` also names the classes
            of a one-branch-per-class split by the tree's class codes.
        class_names : sequence of str, optional, for the legend (and, with plain feature
            names, for the branches of a one-branch-per-class split)
        """
        self.clear()
        split = tree.splits[node_id]
        if feature_names is None:
            feature_names = [f"x{j + 1}" for j in range(tree.n_features)]
        if split is None:
            self.show_message(f"Node {node_id} is a leaf: it does not split its rows, so "
                              "there is no hyperplane to show.")
            return
        if not isinstance(feature_names, Vocabulary):
            feature_names = Vocabulary(list(feature_names), classes=(
                None if class_names is None else list(class_names)))
        if not split.kind.has_geometry:
            condition = branch_conditions(split, feature_names)[0]
            self.show_message(f"Node {node_id} tests a nominal value ({condition}): rows "
                              "are not separated by a hyperplane, so there is no "
                              "distance to show.")
            return
        X = np.asarray(X, dtype=float)
        if X.shape[0] == 0:
            self.show_message(f"No rows (without missing values) reach node {node_id}.")
            return
        w, _, left, right = explorer_hyperplane(split, X)
        if not np.any(w):
            self.show_message(f"The two largest branches of node {node_id} are separated "
                              "by no hyperplane.")
            return
        coordinates = explorer_coordinates(split, X)
        self._show_plot()
        self.scatter_items = self._scatter_by_class(coordinates, y, class_colors,
                                                    class_names)
        self.plot.addItem(pg.InfiniteLine(pos=0, angle=90, movable=False,
                                          pen=pg.mkPen(QColor(40, 40, 40), width=2)))
        conditions = branch_conditions(split, feature_names, max_terms=MAX_TERMS)
        x_range = _padded(np.append(coordinates[:, 0], 0.0))
        y_range = _padded(coordinates[:, 1])
        # Room above the points for the two condition labels.
        y_range = (y_range[0], y_range[1] + 0.12 * (y_range[1] - y_range[0]))
        for position, anchor in ((left, (1.0, 0.0)), (right, (0.0, 0.0))):
            arrow = "◀ " if anchor[0] else ""
            arrow_after = "" if anchor[0] else " ▶"
            label = pg.TextItem(f"{arrow}{conditions[position]}{arrow_after}",
                                color=QColor(20, 20, 20), anchor=anchor,
                                fill=pg.mkBrush(255, 255, 255, 210))
            label.setPos(0, y_range[1])
            self.plot.addItem(label)
        self.plot.setLabel("bottom", "signed distance to the hyperplane")
        self.plot.setLabel("left", "largest remaining spread")
        self.plot.setTitle(f"Node {node_id}: {X.shape[0]} rows", color="#333")
        self.plot.setRange(xRange=x_range, yRange=y_range, padding=0)


class PartitionView(_PlotView):
    """The partition of the plane by a tree over exactly two features.

    The regions are coloured (lightly) by the class predicted there, on a grid of
    ``resolution × resolution`` points over the data range plus a margin
    (:func:`partition_image`); every internal node's boundary is drawn as a segment
    clipped to the node's region (:func:`boundary_segments`), the root's thicker; the
    data points lie on top, coloured by class.  The axes keep equal scales when the two
    ranges differ by less than a factor of ``3``, so that angles between hyperplanes are
    true.
    """

    def __init__(self, parent=None, resolution=300):
        self.resolution = resolution
        self._tree = None
        self.image_item = None
        self.scatter_items = []
        self.segments = []
        super().__init__(parent)

    def clear(self):
        viewbox = self.plot.getViewBox()
        if self._tree is not None:
            viewbox.sigRangeChanged.disconnect(self._on_range_changed)
        self._tree = None
        self._boundary_items = []
        self.image_item = None
        self.scatter_items = []
        self.segments = []
        viewbox.setAspectLocked(False)
        super().clear()

    def set_model(self, model, X, y, class_colors, feature_names=None, class_names=None,
                  tree_classes=None):
        """Show the partition of the plane by ``model`` with the rows ``X`` on top.

        Parameters
        ----------
        model : ObliqueTree, an object with ``tree_`` (an Orange model or a fitted
            estimator), or a callable mapping (n, 2) rows to class probabilities; only a
            tree has boundaries to draw
        X : ndarray (n_rows, 2) in the tree's feature units, no NaN
        y : ndarray (n_rows,), class index into ``class_colors``; NaN = unknown
        class_colors : sequence of QColor or RGB triples, one per class
        feature_names, class_names : sequences of str, optional
        tree_classes : sequence of int, optional
            Index into ``class_colors`` of every class of the model's probabilities (a
            tree trained on a subset of the class values).  Default: the estimator's
            ``classes_`` when ``model`` has them, else the identity.
        """
        self.clear()
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != 2:
            n_features = X.shape[1] if X.ndim == 2 else 1
            self.show_message("The partition of the plane needs data with exactly two "
                              f"features; this data has {n_features}.")
            return
        if X.shape[0] == 0:
            self.show_message("There are no rows to show.")
            return
        tree = model
        if not isinstance(model, ObliqueTree) and hasattr(model, "tree_"):
            tree = model.tree_
            if tree_classes is None:
                classes = getattr(getattr(model, "estimator", model), "classes_", None)
                if classes is not None:
                    tree_classes = np.asarray(classes).astype(int)
        if isinstance(tree, ObliqueTree) and tree.n_features != 2:
            self.show_message("The partition of the plane needs a tree over exactly two "
                              f"features; this tree uses {tree.n_features}.")
            return
        if feature_names is None:
            feature_names = ["x1", "x2"]
        colors = [_qcolor(c) for c in class_colors]
        x_range, y_range = _padded(X[:, 0]), _padded(X[:, 1])
        self._show_plot()

        self._tree = tree
        self._to_color = None if tree_classes is None else np.asarray(tree_classes, int)
        self._palette = np.array([_lighter(c) for c in colors], dtype=np.uint8)
        self.image_item = pg.ImageItem(axisOrder="row-major")
        self.image_item.setZValue(-10)
        self.plot.addItem(self.image_item, ignoreBounds=True)
        self._boundary_items = []
        self._draw_partition(x_range, y_range)
        self.scatter_items = self._scatter_by_class(X, y, colors, class_names, size=5)
        self.plot.setLabel("bottom", feature_names[0])
        self.plot.setLabel("left", feature_names[1])
        ratio = (x_range[1] - x_range[0]) / (y_range[1] - y_range[0])
        self.plot.getViewBox().setAspectLocked(1 / 3 < ratio < 3, ratio=1)
        self.plot.setRange(xRange=x_range, yRange=y_range, padding=0)
        self._draw_partition(*self.plot.getViewBox().viewRange())
        self.plot.getViewBox().sigRangeChanged.connect(self._on_range_changed)

    def _on_range_changed(self, *_):
        if self._tree is not None:
            self._draw_partition(*self.plot.getViewBox().viewRange())

    def _draw_partition(self, x_range, y_range):
        """Regions and boundaries over the rectangle in view (recomputed when it changes:
        a 300 × 300 grid costs milliseconds, and a zoomed view stays sharp)."""
        classes = partition_image(self._tree, x_range, y_range, self.resolution)
        to_color = (np.arange(classes.max() + 1) if self._to_color is None
                    else self._to_color)
        # Fixed levels: with automatic ones pyqtgraph would stretch the light colours.
        self.image_item.setImage(self._palette[to_color[classes]], levels=(0, 255))
        self.image_item.setRect(QRectF(x_range[0], y_range[0], x_range[1] - x_range[0],
                                       y_range[1] - y_range[0]))
        for item in self._boundary_items:
            self.plot.removeItem(item)
        self._boundary_items = []
        if not isinstance(self._tree, ObliqueTree):
            self.segments = []
            return
        self.segments = boundary_segments(self._tree, x_range, y_range)
        root = [segment for node, segment in self.segments if node == 0]
        others = [segment for node, segment in self.segments if node != 0]
        for segments, width in ((others, 1.3), (root, 2.6)):
            if segments:
                xy = np.concatenate(segments)
                item = pg.PlotDataItem(xy[:, 0], xy[:, 1], connect="pairs",
                                       pen=pg.mkPen(QColor(45, 45, 45), width=width))
                item.setZValue(-5)
                self.plot.addItem(item, ignoreBounds=True)
                self._boundary_items.append(item)
