"""Two plain Qt views of an oblique tree, for embedding in a viewer widget.

:class:`SplitExplorer` shows the rows at one node against the node's hyperplane;
:class:`PartitionView` shows how a tree partitions the plane of two chosen features (the
others held at their medians).
Both are ordinary ``QWidget`` subclasses drawn with pyqtgraph, not Orange widgets, so
the module can live in the widgets package without being discovered as a widget.
The geometry behind them is pure numpy, in :mod:`orangecontrib.oblique.core.tree.geometry`.

All coordinates are in the tree's raw feature units: the ``X`` a view receives is what
the tree routes (``ObliqueTree.apply``), without missing values.
"""
import re

import numpy as np
import pyqtgraph as pg

from AnyQt.QtCore import QRectF, Qt
from AnyQt.QtGui import QColor
from AnyQt.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout,
                             QWidget)

from Orange.widgets.utils.combobox import ComboBox

from orangecontrib.oblique.core.tree.geometry import (
                                                      boundary_segments, explorer_coordinates, explorer_hyperplane, held_values,
                                                      partition_image, plane_slice, plotted_features, split_importances)
from orangecontrib.oblique.core.tree.rules import Vocabulary, branch_conditions, format_number
from orangecontrib.oblique.core.tree.structure import ObliqueTree
from orangecontrib.oblique.widgets.viewertexts import rows_text

__all__ = ["SplitExplorer", "PartitionView"]

#: Colour of rows whose class is unknown.
UNKNOWN_COLOR = QColor(160, 160, 160)
#: Fraction of white mixed into a class colour for the regions of the partition.
REGION_LIGHTNESS = 0.65
#: The view pads the data range by this fraction on every side.
MARGIN = 0.05
#: Longest weight list printed in a branch condition; the rest is counted.
MAX_TERMS = 4
#: The units of the split explorer's axes: distances in the space of the tree's features
UNITS = "attributes' raw units"
#: Characters per line of a condition label in the split explorer.
LABEL_WIDTH = 36
#: Held attributes named on screen under the partition; the rest are counted.
MAX_HELD = 6
#: What the split explorer says when it has no node to show.
SELECT_NODE = "Select an internal node in the Tree tab to see how its split divides the rows."
#: What the partition view says when it has no tree to show.
NO_PARTITION = ("No partition to show: it needs a tree from Geometric Tree, OC1 or ODT-SVM "
                "and rows to show (its training data or a Data table).")
#: What the partition view says of a tree without splits.
SINGLE_LEAF = ("The tree is a single leaf: it predicts one class everywhere, so there is "
               "no partition to show.")
#: Rows on a binary or nominal axis are spread up to this far (in codes) around their
#: value, so that rows at one value can be told apart.
JITTER = 0.15


def _qcolor(color):
    if isinstance(color, QColor):
        return QColor(color)
    return QColor(*[int(round(float(v))) for v in color])


def _lighter(color, amount=REGION_LIGHTNESS):
    color = _qcolor(color)
    return [round(v + (255 - v) * amount) for v in (color.red(), color.green(), color.blue())]


def _wrapped(text, width=LABEL_WIDTH):
    """A condition broken into lines of about ``width`` characters before its ``+`` and
    ``−`` signs (between terms), so that a long hyperplane fits beside the line."""
    lines = []
    for piece in re.split(r" (?=[+−] )", text):
        if lines and len(lines[-1]) + 1 + len(piece) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(piece)
    return "\n".join(lines)


def _padded(values):
    """The range of the finite ``values`` with a margin (a value at ±inf or missing is
    drawn off the plot; no finite value: the range around 0)."""
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    low, high = (float(np.min(finite)), float(np.max(finite))) if finite.size else (0.0, 0.0)
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

    @property
    def title(self):
        """The plot's title, or "" when it has none (or the plot is not shown)."""
        label = self.plot.titleLabel
        return label.text if label.isVisible() and not self.message else ""

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
        self.plot.setTitle(None)
        self.plot.titleLabel.setText("")
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
    split, the boundary of two branches for a multiway split, the two busiest or those
    chosen in "Boundary between", see :func:`explorer_hyperplane`), vertically the
    coordinate along the largest spread remaining in the hyperplane
    (:func:`explorer_coordinates`).  The hyperplane is the
    vertical line ``x = 0``, labelled with the conditions of the branches on either side.
    Without a node (:meth:`clear`), and for leaves, nominal tests and nodes without rows,
    the view says so and what to do instead of showing empty axes.
    """

    def __init__(self, parent=None):
        self.scatter_items = []
        self._shown = None
        #: the two children whose boundary is shown (positions), None for a binary split
        self.pair = None
        super().__init__(parent)
        # a multiway split: which two branches' boundary to show
        self.pair_combo = QComboBox()
        self.pair_combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.pair_combo.setMinimumContentsLength(16)
        self.pair_combo.currentIndexChanged.connect(self._on_pair_chosen)
        controls = QHBoxLayout()
        controls.setContentsMargins(6, 4, 6, 0)
        controls.addWidget(QLabel("Boundary between:"))
        controls.addWidget(self.pair_combo)
        controls.addStretch(1)
        self.pair_controls = QWidget()
        self.pair_controls.setLayout(controls)
        self.pair_controls.hide()
        self.layout().insertWidget(0, self.pair_controls)

    def clear(self):
        """Show no node: the view asks for an internal node to be selected."""
        self.scatter_items = []
        self._shown, self.pair = None, None
        if hasattr(self, "pair_controls"):
            self.pair_controls.hide()
        super().clear()
        self.show_message(SELECT_NODE)

    def _on_pair_chosen(self, index):
        if self._shown is not None and index >= 0:
            self.set_node(*self._shown, pair=self.pair_combo.itemData(index))

    def _show_pairs(self, conditions, vocabulary, pair):
        """The choice of the two branches of a multiway split, ``pair`` chosen."""
        count = len(conditions)
        pairs = [(a, b) for a in range(count) for b in range(a + 1, count)]
        names = [condition.edge_label(vocabulary) for condition in conditions]
        self.pair_combo.blockSignals(True)
        self.pair_combo.clear()
        for a, b in pairs:
            self.pair_combo.addItem(f"{names[a]} and {names[b]}", (a, b))
        self.pair_combo.setCurrentIndex(pairs.index(pair))
        self.pair_combo.blockSignals(False)
        self.pair_controls.show()

    def set_node(self, tree, node_id, X, y, class_colors, feature_names=None,
                 class_names=None, pair=None, n_missing=0):
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
        pair : (int, int), optional
            For a multiway split, the two children (positions) whose boundary is shown;
            default the two that receive the most rows, for a pairwise-vote split the
            pair that decides the most rows (:meth:`SplitKind.explorer_hyperplane`).  The
            view's "Boundary between" list chooses them too.  A pairwise-vote split's
            boundary is the hyperplane of the pair, its sides labelled with the pair's two
            votes (:meth:`SplitKind.explorer_labels`).
        n_missing : int
            The rows that reach the node but are not in ``X`` for a missing value (the
            title says how many).
        """
        shown = (tree, node_id, X, y, class_colors, feature_names, class_names)
        self.clear()
        split = tree.splits[node_id]
        if feature_names is None:
            feature_names = [f"x{j + 1}" for j in range(tree.n_features)]
        if split is None:
            self.show_message(f"Node {node_id} is a leaf: it does not split its rows, so "
                              f"there is no hyperplane to show. {SELECT_NODE}")
            return
        if not isinstance(feature_names, Vocabulary):
            feature_names = Vocabulary(list(feature_names), classes=(
                None if class_names is None else list(class_names)))
        if not split.has_geometry:
            condition = branch_conditions(split, feature_names)[0]
            self.show_message(f"Node {node_id} tests a nominal value ({condition}): rows "
                              "are not separated by a hyperplane, so there is no "
                              "distance to show. Select a node that splits by a "
                              "hyperplane to see how it divides the rows.")
            return
        X = np.asarray(X, dtype=float)
        if X.shape[0] == 0:
            self.show_message(f"No rows (without missing values) reach node {node_id}, so "
                              "there is nothing to plot. Connect data to the viewer's Data "
                              "input, or select another node.")
            return
        w, _, left, right = explorer_hyperplane(split, X, pair)
        conditions = split.conditions()
        if len(conditions) > 2:
            self._shown, self.pair = shown, (left, right)
            self._show_pairs(conditions, feature_names, self.pair)
        if not np.any(w):
            self.show_message(f"The two {'chosen' if pair else 'largest'} branches of "
                              f"node {node_id} are separated by no hyperplane.")
            return
        coordinates = explorer_coordinates(split, X, (left, right))
        self._show_plot()
        self.scatter_items = self._scatter_by_class(coordinates, y, class_colors,
                                                    class_names)
        self.plot.addItem(pg.InfiniteLine(pos=0, angle=90, movable=False,
                                          pen=pg.mkPen(QColor(40, 40, 40), width=2)))
        # the terms that matter most at this node first, as in the tree's node boxes
        order = np.argsort(-np.abs(split.weights).max(axis=0) * X.std(axis=0),
                           kind="stable")
        # the two sides' words: the branches' conditions, or a pair's votes
        words = split.kind.explorer_labels(split, feature_names, left, right, order=order,
                                           max_terms=MAX_TERMS)
        sides = {left: _wrapped(words[0]), right: _wrapped(words[1])}
        lines = max(text.count("\n") + 1 for text in sides.values())
        # the hyperplane in the middle: each side has half the width for its label
        reach = np.abs(coordinates[:, 0]).max()
        x_range = _padded([-reach, reach])
        y_range = _padded(coordinates[:, 1])
        # Room above the points for the two condition labels.
        y_range = (y_range[0], y_range[1] + 0.06 * (lines + 1) * (y_range[1] - y_range[0]))
        for position, anchor in ((left, (1.0, 0.0)), (right, (0.0, 0.0))):
            arrow = "◀ " if anchor[0] else ""
            arrow_after = "" if anchor[0] else " ▶"
            label = pg.TextItem(f"{arrow}{sides[position]}{arrow_after}",
                                color=QColor(20, 20, 20), anchor=anchor,
                                fill=pg.mkBrush(255, 255, 255, 210))
            label.setPos(0, y_range[1])
            self.plot.addItem(label)
        self.plot.setLabel("bottom", f"signed distance to the hyperplane ({UNITS})")
        self.plot.setLabel("left", f"largest remaining spread ({UNITS})")
        title = f"Node {node_id}: {rows_text(X.shape[0])}"
        if n_missing:
            title += f"; {rows_text(n_missing)} with a missing value not shown"
        self.plot.setTitle(title, color="#333")
        self.plot.setRange(xRange=x_range, yRange=y_range, padding=0)


class PartitionView(_PlotView):
    """The partition of a plane by a tree: two chosen features vary, the others are held.

    Two combo boxes above the plot choose the horizontal and the vertical feature (by
    default the tree's two most important, see :meth:`set_model`); every other feature is
    held at its median over the rows shown (:func:`held_values`), and a line under the
    plot states those values.  The plot is the tree's partition of that plane: the regions
    coloured (lightly) by the class the tree predicts for the rows of the plane, on a grid
    of ``resolution × resolution`` points over the data range plus a margin
    (:func:`partition_image`); every internal node's boundary restricted to the plane,
    clipped to the node's region (:func:`plane_slice`, :func:`boundary_segments`), the
    root's thicker; the rows on top at their two plotted values, coloured by class.  For
    a tree over two features nothing is held and this is the tree's whole partition.  The
    axes keep equal scales when the two ranges differ by less than a factor of ``3``, so
    that angles between hyperplanes are true.
    """

    def __init__(self, parent=None, resolution=300):
        self.resolution = resolution
        self._tree = None
        self._shown = None
        #: {feature: value names by code} of the binary and nominal features
        self.categories = {}
        self.held_words = {}
        #: {columns: (held combination of codes, its words)} of the 0/1 columns of one
        #: nominal attribute each, held together at a combination a row has
        self.value_groups = {}
        self.features = None
        #: the values every feature is held at: ``_held_alone``, except that the other
        #: columns of a nominal attribute one of whose columns is plotted are held at 0
        self.fixed = self._held_alone = None
        self.image_item = None
        self.scatter_items = []
        self.segments = []
        super().__init__(parent)
        self.x_combo, self.y_combo = ComboBox(), ComboBox()
        controls = QHBoxLayout()
        controls.setContentsMargins(6, 4, 6, 0)
        for text, combo in (("Horizontal:", self.x_combo), ("Vertical:", self.y_combo)):
            # as wide as the longest name, up to Orange's bound for its combo boxes (25
            # characters), so that a long name does not widen the viewer; the list and
            # the tooltip show every name whole
            combo.setSizeAdjustPolicy(QComboBox.AdjustToContents)
            combo.currentIndexChanged.connect(self._on_axis_chosen)
            controls.addWidget(QLabel(text))
            controls.addWidget(combo)
        controls.addStretch(1)
        self.controls = QWidget()
        self.controls.setLayout(controls)
        self.held_label = QLabel(wordWrap=True)
        self.held_label.setContentsMargins(6, 0, 6, 4)
        self.held_label.setStyleSheet("color: #333;")
        self.layout().insertWidget(0, self.controls)
        self.layout().addWidget(self.held_label)
        self._hide_controls()

    @property
    def held_text(self):
        """The line that states the held values, or "" when nothing is held."""
        return self.held_label.text() if self.held_label.isVisibleTo(self) else ""

    def _hide_controls(self):
        if not hasattr(self, "controls"):  # not yet during construction
            return
        self.controls.hide()
        self.held_label.setText("")
        self.held_label.setToolTip("")
        self.held_label.hide()

    def show_message(self, text):
        self._forget_tree()
        self._hide_controls()
        super().show_message(text)

    def clear(self):
        self._forget_tree()
        self._shown = None
        self.categories = {}
        self.value_groups = {}
        self.features = self.fixed = self._held_alone = None
        self._hide_controls()
        super().clear()
        self.show_message(NO_PARTITION)

    def _forget_tree(self):
        viewbox = self.plot.getViewBox()
        if self._tree is not None:
            viewbox.sigRangeChanged.disconnect(self._on_range_changed)
        self._tree = None
        self._boundary_items = []
        self.image_item = None
        self.scatter_items = []
        self.segments = []
        viewbox.setAspectLocked(False)

    def set_model(self, model, X, y, class_colors, feature_names=None, class_names=None,
                  tree_classes=None, features=None, categories=None, held_words=None,
                  value_groups=None):
        """Show the partition by ``model`` of the plane of two features, the rows ``X``
        on top.

        Parameters
        ----------
        model : ObliqueTree, an object with ``tree_`` (an Orange model or a fitted
            estimator), or a callable mapping (n, d) rows to class probabilities; only a
            tree has boundaries to draw
        X : ndarray (n_rows, d) in the tree's feature units, no NaN, ``d ≥ 2``
        y : ndarray (n_rows,), class index into ``class_colors``; NaN = unknown
        class_colors : sequence of QColor or RGB triples, one per class
        feature_names, class_names : sequences of str, optional
        tree_classes : sequence of int, optional
            Index into ``class_colors`` of every class of the model's probabilities (a
            tree trained on a subset of the class values).  Default: the estimator's
            ``classes_`` when ``model`` has them, else the identity.
        features : (int, int), optional
            The horizontal and the vertical feature.  Default: the two most important,
            by the model's ``feature_importances`` (an Orange model of this add-on) or
            its ``feature_importances_``, else by the sum over the tree's splits of
            ``|w_j| · std_j`` over ``X`` (:func:`split_importances`); the first two
            features of a model without a tree, and of data with only two.  The user
            can change them in the view.
        categories : dict, optional
            ``{feature: value names by code}`` of the binary and nominal features (a
            0/1 indicator column has two): on such an axis the ticks are the value
            names, the rows are spread a little (:data:`JITTER`) around their code, and
            the regions are the model's predictions at the codes themselves (a
            nominal test knows no values between them), without boundary lines.
        held_words : dict, optional
            ``{feature: words by code}``: how the line under the plot says that a held
            binary or nominal feature has a code (e.g. ``thal ≠ reversable defect`` for
            0 of the indicator column ``thal=reversable defect``); default
            ``name = value name``.
        value_groups : sequence of (columns, words), optional
            The 0/1 indicator columns of one nominal attribute each: while none of them
            is plotted they are held together at the combination of codes that most rows
            have (a value a row can have, not each column at its own commonest code),
            which ``words`` (``{combination: text}``) says, e.g. ``status = crew``.
        """
        self.clear()
        X = np.asarray(X, dtype=float)
        n_features = X.shape[1] if X.ndim == 2 else 1
        if n_features < 2:
            self.show_message("The partition of a plane needs at least two attributes; "
                              f"this data has {n_features}.")
            return
        if X.shape[0] == 0:
            self.show_message("There are no rows (without missing values) to show.")
            return
        tree = model
        if not isinstance(model, ObliqueTree) and hasattr(model, "tree_"):
            tree = model.tree_
            if tree_classes is None:
                classes = getattr(getattr(model, "estimator", model), "classes_", None)
                if classes is not None:
                    tree_classes = np.asarray(classes).astype(int)
        if isinstance(tree, ObliqueTree) and tree.n_features != n_features:
            self.show_message(f"The tree uses {tree.n_features} attributes, but the data "
                              f"has {n_features}.")
            return
        if isinstance(tree, ObliqueTree) and all(split is None for split in tree.splits):
            self.show_message(SINGLE_LEAF)
            return
        if feature_names is None:
            feature_names = [f"x{j + 1}" for j in range(n_features)]
        self.categories = {int(j): list(names) for j, names in (categories or {}).items()}
        self.held_words = {int(j): list(words) for j, words in (held_words or {}).items()}
        importances = _importances(model, tree, X)
        if features is None:  # two features stay in their order, as the tree has them
            features = (0, 1) if n_features == 2 else plotted_features(importances,
                                                                       n_features)
        self._shown = dict(
            tree=tree, X=X, y=y, colors=[_qcolor(c) for c in class_colors],
            names=list(feature_names), class_names=class_names,
            to_color=None if tree_classes is None else np.asarray(tree_classes, int),
            importances=np.zeros(n_features) if importances is None else importances)
        self._held_alone = held_values(X)
        for j, names in self.categories.items():  # codes have no median: the commonest
            codes = np.clip(np.round(X[:, j]), 0, len(names) - 1).astype(int)
            self._held_alone[j] = np.argmax(np.bincount(codes, minlength=len(names)))
        self.value_groups = {}
        for columns, words in value_groups or ():
            columns = tuple(int(j) for j in columns)
            codes = np.clip(np.round(X[:, list(columns)]), 0, 1).astype(int)
            self.value_groups[columns] = codes, dict(words)
        for combo in (self.x_combo, self.y_combo):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(self._shown["names"])
            for index, name in enumerate(self._shown["names"]):
                combo.setItemData(index, name, Qt.ToolTipRole)
            combo.blockSignals(False)
        self._set_features(features)

    def _set_features(self, features):
        self.features = tuple(int(j) for j in features)
        for combo, j in zip((self.x_combo, self.y_combo), self.features):
            combo.blockSignals(True)
            combo.setCurrentIndex(j)
            combo.setToolTip(combo.currentText())
            combo.blockSignals(False)
        self.fixed = self._held_alone.copy()
        for columns in self.value_groups:
            self.fixed[list(columns)] = self._group_held_at(columns)
        self._draw()

    def _group_held_at(self, columns):
        """The codes the columns of one nominal attribute are held at: the combination
        most rows have; with one of them plotted, that of the rows where it is 0 (where
        it is 1, :meth:`_predict_at_codes` sets the others to 0)."""
        codes, _ = self.value_groups[columns]
        plotted = [k for k, j in enumerate(columns) if j in self.features]
        if plotted:
            codes = codes[codes[:, plotted[0]] == 0]
        if not len(codes):
            return [0] * len(columns)
        combinations, counts = np.unique(codes, axis=0, return_counts=True)
        return [int(c) for c in combinations[np.argmax(counts)]]

    def _on_axis_chosen(self):
        if self._shown is None:
            return
        chosen = self.x_combo.currentIndex(), self.y_combo.currentIndex()
        if chosen[0] == chosen[1]:  # the same on both axes: swap instead
            changed = 0 if chosen[0] != self.features[0] else 1
            chosen = ((chosen[0], self.features[0]) if changed == 0
                      else (self.features[1], chosen[1]))
        self._set_features(chosen)

    def _draw(self):
        """The plot for the current pair of features."""
        shown = self._shown
        self._forget_tree()
        self._clear_plot()
        self._show_plot()
        self.controls.show()
        X, names, colors = shown["X"], shown["names"], shown["colors"]
        horizontal, vertical = self.features
        x_range, y_range = (self._axis_range(X, j) for j in self.features)
        self._set_held_text()

        self._palette = np.array([_lighter(c) for c in colors], dtype=np.uint8)
        self.image_item = pg.ImageItem(axisOrder="row-major")
        self.image_item.setZValue(-10)
        self.plot.addItem(self.image_item, ignoreBounds=True)
        tree = shown["tree"]
        self._tree = tree
        categorical = any(j in self.categories for j in self.features)
        self._slice = (plane_slice(tree, self.features, self.fixed)
                       if isinstance(tree, ObliqueTree) and not categorical else None)
        self._draw_partition(x_range, y_range)
        self.scatter_items = self._scatter_by_class(self.plotted_points(), shown["y"],
                                                    colors, shown["class_names"], size=5)
        for side, j in (("bottom", horizontal), ("left", vertical)):
            self.plot.setLabel(side, names[j])
            self.plot.getAxis(side).setTicks(
                [list(enumerate(self.categories[j]))] if j in self.categories else None)
        ratio = (x_range[1] - x_range[0]) / (y_range[1] - y_range[0])
        self.plot.getViewBox().setAspectLocked(not categorical and 1 / 3 < ratio < 3,
                                               ratio=1)
        self.plot.setRange(xRange=x_range, yRange=y_range, padding=0)
        self._draw_partition(*self.plot.getViewBox().viewRange())
        self.plot.getViewBox().sigRangeChanged.connect(self._on_range_changed)

    def _axis_range(self, X, feature):
        """The range shown of ``feature``: a code's cell of width 1 around every value
        of a binary or nominal feature, else the rows' range with a margin."""
        if feature in self.categories:
            return -0.5, len(self.categories[feature]) - 0.5
        return _padded(X[:, feature])

    def plotted_points(self):
        """Where the rows are drawn: their two plotted values, spread by at most
        :data:`JITTER` (the same every time) on a binary or nominal axis."""
        points = self._shown["X"][:, self.features].copy()
        rng = np.random.default_rng(0)
        for axis, j in enumerate(self.features):
            if j in self.categories:
                points[:, axis] += rng.uniform(-JITTER, JITTER, len(points))
        return points

    def _predict_at_codes(self, rows):
        """The tree's class probabilities for ``rows``, the binary and nominal features
        taken at their nearest code (a nominal test knows no values between codes)."""
        rows = np.array(rows, dtype=float)
        for j, names in self.categories.items():
            rows[:, j] = np.clip(np.round(rows[:, j]), 0, len(names) - 1)
        for columns in self.value_groups:  # a plotted value's column 1: the others 0
            for j in columns:
                if j in self.features:
                    others = [i for i in columns if i != j]
                    rows[np.ix_(rows[:, j] == 1, others)] = 0
        tree = self._tree
        return tree.predict_proba(rows) if isinstance(tree, ObliqueTree) else tree(rows)

    def _set_held_text(self):
        """State on screen the values the other features are held at, the most important
        first, at most :data:`MAX_HELD` of them; the tooltip lists them all."""
        names, importances = self._shown["names"], self._shown["importances"]
        held = [j for j in np.argsort(-importances, kind="stable") if j not in self.features]
        categorical = [names[j] for j in self.features if j in self.categories]
        note = ""
        if categorical:
            note = (f" {' and '.join(categorical)} "
                    f"{'has' if len(categorical) == 1 else 'have'} categories, not a "
                    f"scale: the rows are spread a little around each value so that rows "
                    f"at one value can be told apart, and the regions are the tree's "
                    f"predictions at the values themselves.")
        if not held:
            self.held_label.setText(note.strip())
            self.held_label.setVisible(bool(note))
            return
        values, said = [], set()
        for j in held:
            group = self._group_of(j)
            if group is None:
                values.append(self._held_value_text(j))
            elif group not in said:  # the attribute once, at a value a row can have
                said.add(group)
                values.append(self._held_group_text(group))
        shown = ", ".join(values[:MAX_HELD])
        if len(values) > MAX_HELD:
            shown += f", … ({len(values) - MAX_HELD} more)"
        self.held_label.setText(f"Other attributes held at their medians (nominal ones at "
                                f"their commonest value): {shown}"
                                + (f".{note}" if note else ""))
        self.held_label.setToolTip(
            "The regions and boundaries are the tree's predictions for rows with these "
            "values of the other attributes (their medians over the rows shown, the "
            "commonest value of a nominal one):\n"
            + "\n".join(values) + "\nEach row is drawn at its own two plotted values; its "
            "other values may put it in another region.")
        self.held_label.show()

    def _group_of(self, feature):
        """The columns of the nominal attribute of which ``feature`` is a column, or
        None."""
        return next((columns for columns in self.value_groups if feature in columns), None)

    def _held_group_text(self, columns):
        """How the held line says the value the columns of one nominal attribute are
        held at (``status = crew``; with a column plotted, ``status = crew where not
        third``): its words, else each column's own."""
        _, words = self.value_groups[columns]
        held = tuple(int(self.fixed[j]) for j in columns)
        text = words.get(held) or ", ".join(self._held_value_text(j)
                                            for j in columns if j not in self.features)
        for k, j in enumerate(columns):
            if j in self.features:
                plotted = words.get(tuple(int(i == k) for i in range(len(columns))), "")
                text += (f" where not {plotted.split(' = ', 1)[1]}" if " = " in plotted
                         else f" where {self._shown['names'][j]} = 0")
        return text

    def _held_value_text(self, feature):
        """"name = value" of a held feature, in its own words if it is binary or
        nominal."""
        value, name = self.fixed[feature], self._shown["names"][feature]
        if feature in self.held_words:
            return self.held_words[feature][int(value)]
        if feature in self.categories:
            return f"{name} = {self.categories[feature][int(value)]}"
        return f"{name} = {format_number(value)}"

    def _on_range_changed(self, *_):
        if self._tree is not None:
            self._draw_partition(*self.plot.getViewBox().viewRange())

    def _grid_size(self):
        """The grid's side: ``resolution``, smaller for a tree whose splits have very many
        score rows (pairwise votes of many classes: 120 classes have 7140), so that the
        values of the grid's points stay within about four million numbers."""
        tree = self._tree if isinstance(self._tree, ObliqueTree) else None
        rows = max((split.weights.shape[0] for split in getattr(tree, "splits", ())
                    if split is not None), default=1)
        return int(min(self.resolution, max(40, np.sqrt(4e6 / rows))))

    def _draw_partition(self, x_range, y_range):
        """Regions and boundaries over the rectangle in view (recomputed when it changes:
        a 300 × 300 grid costs milliseconds, and a zoomed view stays sharp)."""
        model = (self._predict_at_codes if any(j in self.categories for j in self.features)
                 else self._tree)
        classes = partition_image(model, x_range, y_range, self._grid_size(),
                                  features=self.features, fixed=self.fixed)
        to_color = self._shown["to_color"]
        if to_color is None:
            to_color = np.arange(classes.max() + 1)
        # Fixed levels: with automatic ones pyqtgraph would stretch the light colours.
        self.image_item.setImage(self._palette[to_color[classes]], levels=(0, 255))
        #: the rectangle the image covers, ((x low, x high), (y low, y high))
        self.image_extent = (tuple(x_range), tuple(y_range))
        self.image_item.setRect(QRectF(x_range[0], y_range[0], x_range[1] - x_range[0],
                                       y_range[1] - y_range[0]))
        for item in self._boundary_items:
            self.plot.removeItem(item)
        self._boundary_items = []
        if self._slice is None:
            self.segments = []
            return
        self.segments = boundary_segments(self._slice, x_range, y_range)
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


def _importances(model, tree, X):
    """Importance of every feature for choosing the plotted pair, or None: the model's
    own (``feature_importances`` of an Orange model of this add-on,
    ``feature_importances_`` of an estimator), else :func:`split_importances`."""
    for name in ("feature_importances", "feature_importances_"):
        if isinstance(model, ObliqueTree):
            break
        try:
            values = getattr(model, name, None)
        except (AttributeError, ValueError, TypeError):
            values = None
        if values is not None and not callable(values):
            values = np.asarray(values, dtype=float).ravel()
            if values.shape == (X.shape[1],):
                return values
    return split_importances(tree, X) if isinstance(tree, ObliqueTree) else None
