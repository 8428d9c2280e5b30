"""Oblique Tree Viewer: hyperplane rules made readable and explorable.

The widget draws its own :class:`QGraphicsScene` rather than subclassing Orange's
``OWTreeViewer2D``: that base is built around Orange's ``TreeAdapter`` and HTML text boxes
of a fixed layout, while this viewer needs bar charts of coefficients, branch labels of
multiway nodes, collapsing, path highlighting and recounting by other data.  Everything
it shows comes from :class:`~orangecontrib.oblique.widgets.treelayout.ViewTree`, which
knows the models; the widget only draws.
"""
import numpy as np

from AnyQt.QtCore import QPointF, QRectF, QSize, Qt, pyqtSignal as Signal
from AnyQt.QtGui import (QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath,
                         QPen)
from AnyQt.QtWidgets import (QApplication, QFileDialog, QGraphicsItem, QGraphicsPathItem,
                             QGraphicsScene, QGraphicsSimpleTextItem, QGraphicsView,
                             QHBoxLayout, QListWidget, QPlainTextEdit, QPushButton,
                             QSpinBox, QTabWidget, QVBoxLayout, QWidget)

import Orange.tree
from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.annotated_data import (ANNOTATED_DATA_SIGNAL_NAME,
                                                 create_annotated_table)
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.oblique.core.rules import format_number
from orangecontrib.oblique.widgets.utils import (clamp_settings_to_controls,
                                                 restore_mistyped_settings)
from orangecontrib.oblique.widgets.treelayout import (DomainMismatchError, NotATreeError,
                                                      ViewTree, layout, table_rows)

try:  # the split explorer and the 2-D partition are optional views
    from orangecontrib.oblique.widgets import splitviews
except ImportError:  # pragma: no cover
    splitviews = None

PAD = 5
LEVEL_GAP = 46
BAR_CHART_HEIGHT = 26
DIST_BAR_HEIGHT = 7
MAX_BARS = 12
HOVER_COLOR = QColor("#e6750a")
PATH_COLOR = QColor("#1a9850")
SELECT_COLOR = QColor("#1f5fbf")
POSITIVE_COLOR = QColor("#2b6cb0")
NEGATIVE_COLOR = QColor("#c0392b")
IMPURITY_COLOR = QColor("#e6550d")


def _mix(color, white_share):
    """``color`` blended with white; ``white_share`` in [0, 1]."""
    w = min(max(white_share, 0.0), 1.0)
    return QColor(int(color.red() * (1 - w) + 255 * w), int(color.green() * (1 - w) + 255 * w),
                  int(color.blue() * (1 - w) + 255 * w))


class NodeItem(QGraphicsItem):
    """One node box: the rule (or the leaf's class), a bar chart of standardised
    coefficients, the number of rows and a class distribution bar.  Drawn in ``paint``
    from precomputed texts: no child items, so a tree of hundreds of nodes stays cheap."""

    def __init__(self, node, width, height, title, text, coefficients, value, n, fill,
                 colors, collapsed):
        super().__init__()
        self.node = node
        self.width, self.height = width, height
        self.title, self.text = title, text
        self.coefficients = coefficients
        self.value, self.n = value, n
        self.fill = fill
        self.colors = colors
        self.collapsed = collapsed
        self.hovered = False
        self.traced = False
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setAcceptHoverEvents(True)

    def boundingRect(self):
        return QRectF(-2, -2, self.width + 4, self.height + 4)

    def paint(self, painter, option, widget=None):
        painter.setRenderHint(QPainter.Antialiasing, True)
        if self.isSelected():
            pen = QPen(SELECT_COLOR, 3)
        elif self.hovered:
            pen = QPen(HOVER_COLOR, 2.5)
        elif self.traced:
            pen = QPen(PATH_COLOR, 3)
        else:
            pen = QPen(QColor("#777777"), 1)
        painter.setPen(pen)
        painter.setBrush(QBrush(self.fill))
        painter.drawRoundedRect(QRectF(0, 0, self.width, self.height), 4, 4)
        inner = self.width - 2 * PAD
        y = PAD
        painter.setPen(QColor("#202020"))
        font = painter.font()
        if self.title:
            bold = QFont(font)
            bold.setBold(True)
            painter.setFont(bold)
            painter.drawText(QRectF(PAD, y, inner, 16), Qt.AlignLeft | Qt.AlignVCenter,
                             self.title)
            painter.setFont(font)
            y += 16
        text_height = self.height - y - PAD - 14 - DIST_BAR_HEIGHT - (
            BAR_CHART_HEIGHT + 3 if self.coefficients is not None else 0)
        painter.drawText(QRectF(PAD, y, inner, text_height),
                         Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap, self.text)
        y += text_height
        if self.coefficients is not None:
            self._paint_bars(painter, QRectF(PAD, y, inner, BAR_CHART_HEIGHT))
            y += BAR_CHART_HEIGHT + 3
        painter.setPen(QColor("#404040"))
        count = f"{self.n} rows" + ("   ▸ collapsed" if self.collapsed else "")
        painter.drawText(QRectF(PAD, y, inner, 14), Qt.AlignLeft | Qt.AlignVCenter, count)
        y += 14
        self._paint_distribution(painter, QRectF(PAD, y, inner, DIST_BAR_HEIGHT - 2))

    def _paint_bars(self, painter, rect):
        weights = self.coefficients[:MAX_BARS]
        scale = np.abs(weights).max() or 1.0
        step = min(rect.width() / len(weights), 16.0)
        mid = rect.top() + rect.height() / 2
        painter.setPen(QPen(QColor("#999999"), 0.8))
        painter.drawLine(QPointF(rect.left(), mid),
                         QPointF(rect.left() + step * len(weights), mid))
        painter.setPen(Qt.NoPen)
        for i, weight in enumerate(weights):
            height = weight / scale * (rect.height() / 2 - 1)
            painter.setBrush(POSITIVE_COLOR if weight >= 0 else NEGATIVE_COLOR)
            painter.drawRect(QRectF(rect.left() + i * step + 1, mid - max(height, 0),
                                    step - 2, abs(height)))

    def _paint_distribution(self, painter, rect):
        total = self.value.sum()
        painter.setPen(Qt.NoPen)
        if not total:
            painter.setBrush(QColor("#dddddd"))
            painter.drawRect(rect)
            return
        x = rect.left()
        for share, color in zip(self.value / total, self.colors):
            painter.setBrush(color)
            painter.drawRect(QRectF(x, rect.top(), share * rect.width(), rect.height()))
            x += share * rect.width()

    def hoverEnterEvent(self, event):
        self.scene().node_hovered.emit(self.node)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event):
        self.scene().node_hovered.emit(-1)
        super().hoverLeaveEvent(event)

    def mouseDoubleClickEvent(self, event):
        self.scene().node_toggled.emit(self.node)
        event.accept()


class TreeScene(QGraphicsScene):
    node_hovered = Signal(int)
    node_toggled = Signal(int)


class TreeView(QGraphicsView):
    """Graphics view with Ctrl + wheel zoom."""
    zoomed = Signal(float)

    def wheelEvent(self, event):
        if event.modifiers() & Qt.ControlModifier:
            self.zoomed.emit(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
            event.accept()
        else:
            super().wheelEvent(event)


class OWObliqueTreeViewer(OWWidget):
    name = "Oblique Tree Viewer"
    description = ("Readable and explorable view of oblique (and Orange's own) trees: "
                   "hyperplane rules, paths of rows, IF … THEN rules.")
    icon = "icons/ObliqueTreeViewer.svg"
    priority = 50
    keywords = "oblique tree viewer, hyperplane, rules, decision tree, visualize"

    class Inputs:
        tree = Input("Tree", Orange.tree.TreeModel)
        data = Input("Data", Table)

    class Outputs:
        selected_data = Output("Selected Data", Table, default=True)
        annotated_data = Output(ANNOTATED_DATA_SIGNAL_NAME, Table)

    class Error(OWWidget.Error):
        not_a_tree = Msg("{}")
        data_mismatch = Msg("{}")

    class Warning(OWWidget.Warning):
        view_failed = Msg("The {} view could not be drawn: {}")
        no_rows = Msg("The model does not keep its training rows; connect Data to "
                      "select rows.")

    graph_name = "scene"
    settings_version = 1

    max_terms = Setting(3)
    limit_depth = Setting(False)
    max_depth = Setting(6)
    node_width = Setting(220)
    color_by = Setting(0)
    #: the selection and the collapsed nodes as branch paths; restored only for the tree
    #: with the same fingerprint
    selected_paths = Setting([], schema_only=True)
    collapsed_paths = Setting([], schema_only=True)
    tree_fingerprint = Setting("", schema_only=True)

    COLOR_BY = ("Class", "Impurity")

    def __init__(self):
        super().__init__()
        restore_mistyped_settings(self)  # a workflow saved by another version
        self.model = None
        self.view_tree = None
        self.input_data = None
        self.data = None          # the table whose rows are counted (input or training)
        self.counts = None
        self.selected = set()
        self.collapsed = set()
        self.traced = []
        self.items = {}
        self.edges = {}
        self._size_cache = {}
        self._zoom = 1.0

        box = gui.vBox(self.controlArea, "Tree")
        self.info_label = gui.widgetLabel(box, "No tree on input.")
        self.info_label.setWordWrap(True)

        box = gui.vBox(self.controlArea, "Display")
        gui.spin(box, self, "max_terms", 1, 20, label="Terms shown per rule: ",
                 callback=self._redraw, alignment=Qt.AlignRight, controlWidth=60)
        gui.spin(box, self, "max_depth", 1, 100, label="Limit the depth to: ",
                 checked="limit_depth", callback=self._redraw,
                 checkCallback=self._redraw, alignment=Qt.AlignRight, controlWidth=60)
        gui.hSlider(box, self, "node_width", minValue=120, maxValue=420, step=10,
                    label="Node width: ", callback=self._redraw, createLabel=False)
        gui.comboBox(box, self, "color_by", items=self.COLOR_BY, label="Colour by: ",
                     orientation=Qt.Horizontal, callback=self._recolor)
        row = gui.hBox(box)
        gui.button(row, self, "Zoom in", callback=lambda: self._zoom_by(1.25))
        gui.button(row, self, "Zoom out", callback=lambda: self._zoom_by(0.8))
        gui.button(row, self, "Fit", callback=self.fit_to_window)
        gui.button(box, self, "Expand all", callback=self.expand_all)
        gui.widgetLabel(box, "Double-click a node to collapse or expand it.")

        box = gui.vBox(self.controlArea, "Path of a row")
        self.row_spin = QSpinBox(minimum=-1, maximum=-1, value=-1)
        self.row_spin.setSpecialValueText("(none)")
        self.row_spin.valueChanged.connect(self.trace_row)
        gui.widgetLabel(box, "Row of the data:")
        box.layout().addWidget(self.row_spin)
        self.path_list = QListWidget()
        self.path_list.setWordWrap(True)
        self.path_list.setMinimumHeight(140)
        box.layout().addWidget(self.path_list)
        self.controlArea.layout().addStretch(1)

        self.tabs = QTabWidget()
        self.mainArea.layout().addWidget(self.tabs)
        self.scene = TreeScene(self)
        self.scene.node_hovered.connect(self._hover)
        self.scene.node_toggled.connect(self.toggle_collapse)
        self.scene.selectionChanged.connect(self._on_selection_changed)
        self.view = TreeView(self.scene)
        self.view.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.view.setDragMode(QGraphicsView.RubberBandDrag)
        self.view.setRubberBandSelectionMode(Qt.IntersectsItemShape)
        self.view.zoomed.connect(self._zoom_by)
        self.tabs.addTab(self.view, "Tree")

        rules = QWidget()
        layout_ = QVBoxLayout(rules)
        self.rules_edit = QPlainTextEdit(readOnly=True)
        self.rules_edit.setLineWrapMode(QPlainTextEdit.WidgetWidth)
        layout_.addWidget(self.rules_edit)
        buttons = QHBoxLayout()
        for label, callback in (("Copy", self.copy_rules), ("Save…", self.save_rules)):
            button = QPushButton(label)
            button.clicked.connect(lambda _=False, c=callback: c())
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout_.addLayout(buttons)
        self.tabs.addTab(rules, "Rules")

        self.split_explorer = self.partition_view = None
        if splitviews is not None:
            self.split_explorer = splitviews.SplitExplorer()
            self.tabs.addTab(self.split_explorer, "Split explorer")
            self.partition_view = splitviews.PartitionView()
            self.tabs.addTab(self.partition_view, "Partition")
        clamp_settings_to_controls(self)

    def sizeHint(self):
        return QSize(1100, 700)

    # ----- inputs -----
    @Inputs.tree
    def set_tree(self, model):
        self.Error.not_a_tree.clear()
        self.model = self.view_tree = None
        if model is not None:
            try:
                self.view_tree = ViewTree.from_model(model)
                self.model = model
            except NotATreeError as error:
                self.Error.not_a_tree(str(error))

    @Inputs.data
    def set_data(self, data):
        self.input_data = data

    def handleNewSignals(self):
        previous = self.tree_fingerprint
        self.selected, self.collapsed = set(), set()
        if self.view_tree is not None:
            fingerprint = self.view_tree.fingerprint()
            if fingerprint == previous:  # the same tree again (or a restored workflow)
                self.selected = self._nodes_at(self.selected_paths)
                self.collapsed = self._nodes_at(self.collapsed_paths)
            self.tree_fingerprint = fingerprint
        self._count_rows()
        self._update_info()
        self._redraw()
        self.show_new_tree()
        self._update_rules()
        self._update_partition()
        self._store_paths()
        self.commit()

    def _nodes_at(self, paths):
        # stored paths may come from another version: lists of branch positions only
        nodes = (self.view_tree.node_at(tuple(path)) for path in paths
                 if isinstance(path, (list, tuple))
                 and all(isinstance(p, int) and p >= 0 for p in path))
        return {node for node in nodes if node is not None}

    def _count_rows(self):
        self.Error.data_mismatch.clear()
        self.Warning.no_rows.clear()
        self.data = self.counts = None
        tree = self.view_tree
        if tree is not None:
            data = self.input_data
            if data is not None:
                try:
                    self.counts = tree.recount(data)
                    self.data = data
                except DomainMismatchError as error:
                    self.Error.data_mismatch(str(error))
            if self.counts is None and self.model.instances is not None:
                try:
                    self.counts = tree.recount(self.model.instances)
                    self.data = self.model.instances
                except DomainMismatchError:
                    pass
            if self.data is None and self.input_data is None:
                self.Warning.no_rows()
        self.row_spin.blockSignals(True)
        self.row_spin.setMaximum(-1 if self.data is None else len(self.data) - 1)
        self.row_spin.setValue(-1)
        self.row_spin.blockSignals(False)
        self.traced = []
        self.path_list.clear()

    def _update_info(self):
        tree = self.view_tree
        if tree is None:
            self.info_label.setText("No tree on input.")
            return
        depth = max(tree.depth)
        source = ("the Data input" if self.data is not None and self.data is self.input_data
                  else "the training data" if self.data is not None else "the model")
        self.info_label.setText(
            f"{tree.node_count} nodes, {len(tree.leaves())} leaves, depth {depth}.\n"
            f"Counts from {source}.")

    # ----- node statistics -----
    def node_value(self, node):
        """Class counts shown for ``node``: from the counted data, else the model's."""
        if self.counts is not None:
            return self.counts.value[node]
        return self.view_tree.train_value[node]

    def node_n(self, node):
        if self.counts is not None:
            return int(self.counts.n[node])
        return int(round(self.view_tree.train_value[node].sum()))

    def class_colors(self):
        colors = self.view_tree.model.domain.class_var.colors
        return [QColor(*map(int, color[:3])) for color in colors]

    def _fill(self, node):
        value = self.node_value(node)
        total = value.sum()
        if self.color_by == 1:
            if not total:
                return QColor("#f4f4f4")
            p = value / total
            k = max(len(value), 2)
            impurity = (1 - (p ** 2).sum()) / (1 - 1 / k)
            return _mix(IMPURITY_COLOR, 1 - 0.8 * impurity)
        if not total:
            return QColor("#f4f4f4")
        majority = int(np.argmax(value))
        return _mix(self.class_colors()[majority], 1 - 0.55 * value[majority] / total)

    def node_texts(self, node):
        """(title, text, tooltip) of a node box."""
        tree = self.view_tree
        value = self.node_value(node)
        total = value.sum()
        if tree.is_leaf(node):
            majority = int(np.argmax(value)) if total else int(tree.predicted[node])
            share = value[majority] / total if total else 0.0
            title = tree.class_values[majority]
            text = (f"{format_number(100 * share, 1)} % "
                    f"({format_number(value[majority])}/{format_number(total)})")
            tooltip = f"{title}: {text}"
        else:
            short, full = tree.node_rule(node, self.max_terms)
            title, text, tooltip = "", short, full
        distribution = ", ".join(f"{name}: {format_number(count)}"
                                 for name, count in zip(tree.class_values, value))
        tooltip = f"{tooltip}\n\n{self.node_n(node)} rows — {distribution}"
        if node:
            tooltip = f"Branch: {tree.conditions[node]}\n\n{tooltip}"
        return title, text, tooltip

    # ----- drawing -----
    def visible_children(self):
        tree = self.view_tree
        return [() if (node in self.collapsed
                       or (self.limit_depth and tree.depth[node] >= self.max_depth))
                else tree.children[node] for node in range(tree.node_count)]

    def _node_height(self, node, title, text, has_bars, metrics):
        key = (text, title != "", has_bars, self.node_width)
        if key not in self._size_cache:
            rect = metrics.boundingRect(QRectF(0, 0, self.node_width - 2 * PAD, 1000),
                                        Qt.TextWordWrap, text)
            self._size_cache[key] = (2 * PAD + (16 if title else 0) + rect.height() + 2
                                     + (BAR_CHART_HEIGHT + 3 if has_bars else 0)
                                     + 14 + DIST_BAR_HEIGHT)
        return self._size_cache[key]

    def _redraw(self):
        """Rebuild the scene: visible nodes, their edges and branch labels."""
        self.scene.blockSignals(True)  # the selection is rebuilt from self.selected
        try:
            self._build_scene()
        finally:
            self.scene.blockSignals(False)

    def _build_scene(self):
        self.scene.clear()
        self.items, self.edges = {}, {}
        tree = self.view_tree
        if tree is None:
            self.scene.setSceneRect(QRectF())
            return
        visible = self.visible_children()
        xs = layout(tree, visible, self.node_width)
        metrics = QFontMetricsF(self.scene.font())
        colors = self.class_colors()
        boxes = {}
        level_height = {}
        for node in xs:
            title, text, tooltip = self.node_texts(node)
            coefficients = None if tree.is_leaf(node) else tree.coefficients(node)
            height = self._node_height(node, title, text, coefficients is not None,
                                       metrics)
            boxes[node] = (title, text, tooltip, coefficients, height)
            level = tree.depth[node]
            level_height[level] = max(level_height.get(level, 0), height)
        level_y, y = {}, 0.0
        for level in sorted(level_height):
            level_y[level] = y
            y += level_height[level] + LEVEL_GAP
        for node, x in xs.items():
            title, text, tooltip, coefficients, height = boxes[node]
            item = NodeItem(node, self.node_width, height, title, text,
                            None if coefficients is None else coefficients[1],
                            self.node_value(node), self.node_n(node), self._fill(node),
                            colors, node in self.collapsed and bool(tree.children[node]))
            if coefficients is not None:
                tooltip += "\n\nStandardised coefficients (w·std):\n" + "\n".join(
                    f"  {name}: {format_number(w)}" for name, w in zip(*coefficients))
            item.setToolTip(tooltip)
            item.setPos(x - self.node_width / 2, level_y[tree.depth[node]])
            item.traced = node in self.traced
            self.scene.addItem(item)
            item.setSelected(node in self.selected)
            self.items[node] = item
        for node, kids in enumerate(visible):
            if node not in self.items:
                continue
            parent = self.items[node]
            start = parent.pos() + QPointF(self.node_width / 2, parent.height)
            for kid in kids:
                child = self.items[kid]
                end = child.pos() + QPointF(self.node_width / 2, 0)
                path = QPainterPath(start)
                mid = (start.y() + end.y()) / 2
                path.cubicTo(QPointF(start.x(), mid), QPointF(end.x(), mid), end)
                edge = QGraphicsPathItem(path)
                edge.setZValue(-1)
                self.scene.addItem(edge)
                label = QGraphicsSimpleTextItem(tree.edge_labels[kid], edge)
                width = label.boundingRect().width()
                label.setPos(end.x() - width / 2, end.y() - 17)
                label.setBrush(QColor("#303030"))
                self.edges[kid] = edge
        self._style_edges()
        self.scene.setSceneRect(self.scene.itemsBoundingRect().adjusted(-20, -20, 20, 20))

    def _style_edges(self, hovered=()):
        hovered = set(hovered)
        for node, edge in self.edges.items():
            if node in hovered:
                edge.setPen(QPen(HOVER_COLOR, 3))
            elif node in self.traced:
                edge.setPen(QPen(PATH_COLOR, 3.5))
            else:
                edge.setPen(QPen(QColor("#888888"), 1.3))

    def _recolor(self):
        for node, item in self.items.items():
            item.fill = self._fill(node)
            item.update()

    def _hover(self, node):
        path = self.view_tree.path(node) if node >= 0 and self.view_tree else []
        on_path = set(path)
        for other, item in self.items.items():
            hovered = other in on_path
            if item.hovered != hovered:
                item.hovered = hovered
                item.update()
        self._style_edges(path[1:])

    def toggle_collapse(self, node):
        if self.view_tree is None or self.view_tree.is_leaf(node):
            return
        self.collapsed ^= {node}
        self._store_paths()
        self._redraw()

    def expand_all(self):
        self.collapsed = set()
        self._store_paths()
        self._redraw()

    def _zoom_by(self, factor):
        self._zoom = min(max(self._zoom * factor, 0.05), 5.0)
        self.view.setTransform(self.view.transform().fromScale(self._zoom, self._zoom))

    def show_new_tree(self):
        """Fit the tree to the window, but never so small that rules are unreadable:
        a wide tree starts at its root and scrolls."""
        self.fit_to_window()
        if self._zoom < 0.45 and 0 in self.items:
            self._zoom_by(0.45 / self._zoom)
            root = self.items[0]
            self.view.centerOn(root.pos() + QPointF(self.node_width / 2, 200))

    def showEvent(self, event):
        super().showEvent(event)
        self.show_new_tree()

    def fit_to_window(self):
        rect = self.scene.sceneRect()
        if rect.isEmpty():
            return
        self.view.fitInView(rect, Qt.KeepAspectRatio)
        self._zoom = min(self.view.transform().m11(), 1.5)
        self.view.setTransform(self.view.transform().fromScale(self._zoom, self._zoom))

    # ----- selection -----
    def _on_selection_changed(self):
        hidden = {node for node in self.selected if node not in self.items}
        self.selected = hidden | {node for node, item in self.items.items()
                                  if item.isSelected()}
        self._store_paths()
        self._update_split_explorer()
        self.commit()

    def select_nodes(self, nodes):
        """Select exactly ``nodes`` (ids of visible nodes) and send the outputs."""
        self.scene.blockSignals(True)
        for node, item in self.items.items():
            item.setSelected(node in nodes)
        self.scene.blockSignals(False)
        self._on_selection_changed()

    def _store_paths(self):
        tree = self.view_tree
        if tree is None:
            return
        self.selected_paths = [list(tree.branch_path(n)) for n in sorted(self.selected)]
        self.collapsed_paths = [list(tree.branch_path(n)) for n in sorted(self.collapsed)]

    def selected_rows(self):
        if self.counts is None or not self.selected:
            return np.empty(0, dtype=int)
        rows = [self.counts.reached[node] for node in self.selected]
        return np.unique(np.concatenate(rows)).astype(int)

    def commit(self):
        data = self.data
        rows = self.selected_rows()
        self.Outputs.selected_data.send(table_rows(data, rows))
        self.Outputs.annotated_data.send(
            None if data is None else create_annotated_table(data, rows))

    # ----- paths -----
    def trace_row(self, row):
        self.path_list.clear()
        self.traced = []
        if row >= 0 and self.view_tree is not None and self.data is not None:
            steps = self.view_tree.row_path(self.data, row)
            self.traced = [node for node, _, _ in steps]
            for node, condition, value in steps:
                if condition:
                    self.path_list.addItem(f"node {node}: {value}\n  → {condition}")
                else:
                    value_text = self.node_texts(node)[0] or "—"
                    self.path_list.addItem(f"node {node}: {value} ({value_text})")
            hidden = [node for node in self.traced if node not in self.items]
            if hidden:  # show the whole path
                self.collapsed -= set(self.traced)
                if self.limit_depth and len(self.traced) > self.max_depth:
                    self.limit_depth = False
                self._redraw()
                return
        for node, item in self.items.items():
            item.traced = node in self.traced
            item.update()
        self._style_edges()

    # ----- rules -----
    def rules_text(self):
        if self.view_tree is None:
            return ""
        return self.view_tree.rules_text(self.counts)

    def _update_rules(self):
        self.rules_edit.setPlainText(self.rules_text())

    def copy_rules(self):
        QApplication.clipboard().setText(self.rules_text())

    def save_rules(self, filename=None):
        if filename is None:
            filename, _ = QFileDialog.getSaveFileName(
                self, "Save rules", "rules.txt", "Text files (*.txt)")
            if not filename:
                return
        with open(filename, "w", encoding="utf-8") as file:
            file.write(self.rules_text())

    # ----- split explorer and partition -----
    def _rows_without_nan(self, rows=None):
        """Features (model's domain) and class indices of ``rows`` of the counted data,
        rows with a missing feature left out (the views show what the tree routes)."""
        data = self.view_tree.transform(self.data)
        X = data.X.toarray() if hasattr(data.X, "toarray") else np.asarray(data.X, float)
        y = (np.full(len(data), np.nan) if data.domain.class_var is None
             else np.asarray(data.Y, float).reshape(-1))
        if rows is not None:
            X, y = X[rows], y[rows]
        known = ~np.isnan(X).any(axis=1)
        return X[known], y[known]

    def _core_tree(self):
        return getattr(self.view_tree, "tree", None)

    def _update_split_explorer(self):
        self._guarded("split explorer", self._show_split)

    def _update_partition(self):
        self._guarded("partition", self._show_partition)

    def _guarded(self, name, show):
        """Draw an optional view; a failure there must not break the tree view."""
        self.Warning.view_failed.clear()
        try:
            show()
        except Exception as error:  # pylint: disable=broad-except
            self.Warning.view_failed(name, error)

    def _show_split(self):
        if self.split_explorer is None:
            return
        core = self._core_tree()
        internal = [n for n in self.selected if not self.view_tree.is_leaf(n)] \
            if self.view_tree is not None else []
        if core is None or self.counts is None or len(internal) != 1:
            self.split_explorer.clear()
            return
        node = internal[0]
        X, y = self._rows_without_nan(self.counts.reached[node])
        self.split_explorer.set_node(core, node, X, y, self.class_colors(),
                                     self.view_tree.names, self.view_tree.class_values)

    def _show_partition(self):
        if self.partition_view is None:
            return
        core = self._core_tree()
        if core is None or self.data is None or core.n_features != 2:
            self.partition_view.clear()
            return
        X, y = self._rows_without_nan()
        self.partition_view.set_model(self.model, X, y, self.class_colors(),
                                      self.view_tree.names, self.view_tree.class_values)

    # ----- report -----
    def send_report(self):
        if self.view_tree is None:
            return
        tree = self.view_tree
        self.report_items("Tree", (
            ("Model", getattr(self.model, "name", type(self.model).__name__)),
            ("Nodes", tree.node_count), ("Leaves", len(tree.leaves())),
            ("Depth", max(tree.depth)),
            ("Counts from", "Data input" if self.data is not None
             and self.data is self.input_data else "training data")))
        self.report_plot()
        self.report_caption("Rules")
        self.report_raw("<pre>" + _escape(self.rules_text()) + "</pre>")


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.oblique.learners import GeometricTreeLearner
    iris = Table("iris")
    WidgetPreview(OWObliqueTreeViewer).run(set_tree=GeometricTreeLearner()(iris))
