"""Two plain Qt views of an oblique tree, for embedding in a viewer widget.

:class:`SplitExplorer` shows the rows at one node against the node's hyperplane;
:class:`PartitionView` shows how a tree over two features partitions the plane.
Both are ordinary ``QWidget`` subclasses drawn with pyqtgraph, not Orange widgets, so
the module can live in the widgets package without being discovered as a widget.
The geometry behind them (:func:`explorer_coordinates`, :func:`partition_image`,
:func:`node_regions`, :func:`boundary_segments`) is pure numpy and testable without Qt.

All coordinates are in the tree's raw feature units: the ``X`` a view receives is what
the tree routes (``ObliqueTree.apply``), without missing values.
"""
import numpy as np
import pyqtgraph as pg

from AnyQt.QtCore import QRectF, Qt
from AnyQt.QtGui import QColor
from AnyQt.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from orangecontrib.oblique.core.rules import branch_conditions
from orangecontrib.oblique.core.tree import (
    ARGMAX, EQUALITY, HYPERPLANE, NEAREST_CENTRE, ObliqueTree)

__all__ = ["SplitExplorer", "PartitionView", "explorer_coordinates", "explorer_hyperplane",
           "partition_image", "grid_centres", "node_regions", "boundary_segments"]

#: Colour of rows whose class is unknown.
UNKNOWN_COLOR = QColor(160, 160, 160)
#: Fraction of white mixed into a class colour for the regions of the partition.
REGION_LIGHTNESS = 0.65
#: The view pads the data range by this fraction on every side.
MARGIN = 0.05
#: Longest weight list printed in a branch condition; the rest is counted.
MAX_TERMS = 4


# ----- geometry (numpy only) -----

def _pairwise_hyperplane(split, first, second):
    """``(a, c)`` with ``a·x + c >= 0`` exactly where child ``second`` beats child
    ``first`` of a multiway split (ties aside)."""
    if split.rule == ARGMAX:
        # argmax_j v_j: child `second` wins over `first` where v_second - v_first >= 0.
        return (split.weights[second] - split.weights[first],
                float(split.bias[second] - split.bias[first]))
    # nearest_centre: ||v - c_f||² - ||v - c_s||² >= 0 with v = W x + b is affine in x:
    # 2 (c_s - c_f)·v + ||c_f||² - ||c_s||² >= 0.
    c_first, c_second = split.centres[first], split.centres[second]
    direction = 2.0 * (c_second - c_first)
    return (split.weights.T @ direction,
            float(split.bias @ direction + c_first @ c_first - c_second @ c_second))


def explorer_hyperplane(split, X):
    """The hyperplane :func:`explorer_coordinates` measures distances to.

    Returns ``(w, b, left, right)``: rows with ``w·x + b < 0`` lie on the side of child
    position ``left``, the others on the side of child ``right``.

    * ``hyperplane``: the split itself, ``left = 0``, ``right = 1``.
    * ``argmax`` and ``nearest_centre``: a multiway split has no single hyperplane; we take
      the boundary between the two branches that receive the most rows of ``X`` (ties to
      the lower position): ``v_right − v_left = 0`` for argmax, the perpendicular bisector
      of the two centres (mapped back to feature space) for nearest-centre, with ``left``
      the lower of the two positions.  Rows of other branches are shown all the same.
    * ``equality`` (a nominal test) has no geometry: :class:`ValueError`.
    """
    if split.rule == HYPERPLANE:
        return split.weights[0], float(split.bias[0]), 0, 1
    if split.rule == EQUALITY:
        raise ValueError("a nominal (equality) test has no hyperplane to measure against")
    counts = np.bincount(split.route(X), minlength=split.n_children) if len(X) else \
        np.zeros(split.n_children, dtype=int)
    busiest = np.argsort(-counts, kind="stable")[:2]
    left, right = int(busiest.min()), int(busiest.max())
    w, b = _pairwise_hyperplane(split, left, right)
    return w, b, left, right


def explorer_coordinates(split, X):
    """Coordinates of the rows ``X`` in the split explorer, shape (n_rows, 2).

    Column 0 is the signed distance to the hyperplane ``w·x + b = 0`` of
    :func:`explorer_hyperplane`, ``(w·x + b) / ‖w‖`` (positive on the right child's side).
    Column 1 is the coordinate, about the rows' mean, along the direction of largest spread
    that remains after the normal component is removed: the first principal component of
    the rows projected onto the hyperplane, a unit vector orthogonal to ``w`` and signed
    so that its largest entry is positive.  With one feature, fewer than two rows, or no
    spread left, column 1 is zero.
    """
    X = np.asarray(X, dtype=float)
    w, b, _, _ = explorer_hyperplane(split, X)
    norm = float(np.linalg.norm(w))
    if norm == 0:
        raise ValueError("the split's hyperplane has a zero normal vector")
    normal = w / norm
    coordinates = np.zeros((X.shape[0], 2))
    coordinates[:, 0] = X @ normal + b / norm
    if X.shape[0] < 2 or X.shape[1] < 2:
        return coordinates
    centred = X - X.mean(axis=0)
    in_plane = centred - np.outer(centred @ normal, normal)
    _, singular, vt = np.linalg.svd(in_plane, full_matrices=False)
    if singular[0] <= 1e-12 * max(1.0, float(np.abs(X).max())):
        return coordinates
    direction = vt[0] - (vt[0] @ normal) * normal  # exactly orthogonal despite round-off
    direction /= np.linalg.norm(direction)
    if direction[np.argmax(np.abs(direction))] < 0:
        direction = -direction
    coordinates[:, 1] = centred @ direction
    return coordinates


def grid_centres(x_range, y_range, resolution):
    """Pixel centres of a ``resolution`` grid: ``(xs, ys)``, ``resolution`` is ``n`` (an
    ``n × n`` grid) or ``(width, height)``."""
    width, height = ((resolution, resolution) if np.isscalar(resolution)
                     else (int(resolution[0]), int(resolution[1])))
    (x0, x1), (y0, y1) = x_range, y_range
    xs = x0 + (np.arange(width) + 0.5) * (x1 - x0) / width
    ys = y0 + (np.arange(height) + 0.5) * (y1 - y0) / height
    return xs, ys


def partition_image(tree, x_range, y_range, resolution=300):
    """Class index predicted at every pixel of the rectangle ``x_range × y_range``.

    Parameters
    ----------
    tree : ObliqueTree over two features, or a callable mapping an (n, 2) array to class
        probabilities (n, K)
    x_range, y_range : (low, high)
    resolution : int or (width, height)

    Returns
    -------
    ndarray of int, shape (height, width)
        ``image[i, j]`` is the class (the tree's class index, the argmax of the leaf's
        distribution) at ``(xs[j], ys[i])`` of :func:`grid_centres`; ``y`` grows with the
        row index, so row 0 is the bottom of the plot.
    """
    xs, ys = grid_centres(x_range, y_range, resolution)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    proba = tree.predict_proba(points) if isinstance(tree, ObliqueTree) else tree(points)
    return np.argmax(np.asarray(proba), axis=1).reshape(len(ys), len(xs))


def _child_half_planes(split, position):
    """Half-planes ``(a, c)``, ``a·x + c >= 0``, whose intersection is the region of child
    ``position`` of ``split`` (no constraint for a nominal test)."""
    if split.rule == HYPERPLANE:
        w, b = split.weights[0], float(split.bias[0])
        return [(-w, -b)] if position == 0 else [(w, b)]
    if split.rule == EQUALITY:
        return []
    return [_pairwise_hyperplane(split, other, position)
            for other in range(split.n_children) if other != position]


def _clip_polygon(polygon, a, c):
    """Sutherland–Hodgman: the part of a convex polygon (k, 2) with ``a·x + c >= 0``."""
    if len(polygon) == 0:
        return polygon
    values = polygon @ a + c
    kept = []
    for i in range(len(polygon)):
        j = (i + 1) % len(polygon)
        if values[i] >= 0:
            kept.append(polygon[i])
        if (values[i] >= 0) != (values[j] >= 0):
            t = values[i] / (values[i] - values[j])
            kept.append(polygon[i] + t * (polygon[j] - polygon[i]))
    return np.array(kept).reshape(-1, 2)


def _box(x_range, y_range):
    (x0, x1), (y0, y1) = x_range, y_range
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float)


def node_regions(tree, x_range, y_range):
    """The region of every node of a tree over two features, within the bounding box.

    Every split of a tree cuts its node's region along half-planes (a hyperplane split
    into two, an argmax or nearest-centre split into the cells where one branch wins all
    its pairwise comparisons; both are affine in ``x``), so every region is the box clipped
    by the half-planes of the node's ancestors: a convex polygon, computed by
    Sutherland–Hodgman clipping.  A nominal (equality) test does not cut: its children keep
    their parent's region.

    Returns a list with one (k, 2) array of polygon vertices per node (k may be 0).
    """
    regions = [None] * tree.node_count
    regions[0] = _box(x_range, y_range)
    for node in tree.preorder():
        split = tree.splits[node]
        if split is None:
            continue
        for position, child in enumerate(tree.children[node]):
            polygon = regions[node]
            for a, c in _child_half_planes(split, position):
                polygon = _clip_polygon(polygon, np.asarray(a, dtype=float), c)
            regions[child] = polygon
    return regions


def _line_in_polygon(polygon, a, c):
    """The segment (2, 2) of the line ``a·x + c = 0`` inside a convex polygon, or None."""
    if len(polygon) < 3 or not np.any(a):
        return None
    values = polygon @ a + c
    points = [p for p, v in zip(polygon, values) if v == 0]
    for i in range(len(polygon)):
        j = (i + 1) % len(polygon)
        if values[i] * values[j] < 0:
            t = values[i] / (values[i] - values[j])
            points.append(polygon[i] + t * (polygon[j] - polygon[i]))
    if len(points) < 2:
        return None
    points = np.array(points)
    along = points @ np.array([-a[1], a[0]])
    segment = points[[np.argmin(along), np.argmax(along)]]
    return segment if not np.allclose(segment[0], segment[1]) else None


def boundary_segments(tree, x_range, y_range):
    """Line segments (node id, (2, 2) array) where the internal nodes split their regions.

    A hyperplane split contributes its line clipped to the node's region (see
    :func:`node_regions`); a multiway split the part of every pairwise boundary that
    separates two of its children's regions; a nominal test nothing.
    """
    regions = node_regions(tree, x_range, y_range)
    segments = []
    for node in tree.preorder():
        split = tree.splits[node]
        if split is None or split.rule == EQUALITY:
            continue
        if split.rule == HYPERPLANE:
            segment = _line_in_polygon(regions[node], split.weights[0], float(split.bias[0]))
            if segment is not None:
                segments.append((node, segment))
            continue
        for first in range(split.n_children):
            for second in range(first + 1, split.n_children):
                a, c = _pairwise_hyperplane(split, first, second)
                # The boundary of `first` and `second` lies in the part of the node's
                # region where both beat every other branch.
                polygon = regions[node]
                for other in range(split.n_children):
                    if other not in (first, second):
                        for winner in (first, second):
                            a2, c2 = _pairwise_hyperplane(split, other, winner)
                            polygon = _clip_polygon(polygon, np.asarray(a2, dtype=float), c2)
                segment = _line_in_polygon(polygon, np.asarray(a, dtype=float), c)
                if segment is not None:
                    segments.append((node, segment))
    return segments


# ----- Qt views -----

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
        feature_names : sequence of str, optional (default ``x1 .. xd``)
        class_names : sequence of str, optional, for the legend
        """
        self.clear()
        split = tree.splits[node_id]
        if feature_names is None:
            feature_names = [f"x{j + 1}" for j in range(tree.n_features)]
        if split is None:
            self.show_message(f"Node {node_id} is a leaf: it does not split its rows, so "
                              "there is no hyperplane to show.")
            return
        if split.rule == EQUALITY:
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
        if split.rule == ARGMAX and split.child_labels and class_names is not None:
            # one branch per class: the core labels them by class index
            names = list(class_names)
            conditions = [f"largest score: {names[int(label)]}"
                          if label.isdigit() and int(label) < len(names) else condition
                          for label, condition in zip(split.child_labels, conditions)]
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
