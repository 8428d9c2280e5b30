"""Drawing of the Oblique Tree Viewer: node boxes, edges, zoom, hover, collapse, selection.

Plain Qt classes, not a widget (as Orange's ``OWTreeViewer2D`` keeps its scene and view
apart from the widget).  The positions come from
:func:`~orangecontrib.oblique.widgets.treelayout.layout`; what a node box says comes from
the widget through a ``describe(node)`` callback.  The scene reports what the user does
through the signals :attr:`TreeScene.nodes_selected` and :attr:`TreeScene.collapse_toggled`.
"""
import numpy as np

from AnyQt.QtCore import QPointF, QRectF, Qt, pyqtSignal as Signal
from AnyQt.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from AnyQt.QtWidgets import (QGraphicsItem, QGraphicsPathItem, QGraphicsScene,
                             QGraphicsSimpleTextItem, QGraphicsView)

from orangecontrib.oblique.core.rules import format_number
from orangecontrib.oblique.widgets.treelayout import layout

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
EMPTY_COLOR = QColor("#f4f4f4")

#: ``color_by`` values of :func:`node_fill`
COLOR_BY_CLASS, COLOR_BY_IMPURITY = 0, 1


def breakable(text):
    """``text`` as a box draws it: a term too long for the box may break between its
    coefficient and its name (after "·", by a zero-width space), not inside a number."""
    return text.replace("·", "·\u200b")


def _mix(color, white_share):
    """``color`` blended with white; ``white_share`` in [0, 1]."""
    w = min(max(white_share, 0.0), 1.0)
    return QColor(int(color.red() * (1 - w) + 255 * w), int(color.green() * (1 - w) + 255 * w),
                  int(color.blue() * (1 - w) + 255 * w))


def class_colors(tree):
    """The class colours of the model of ``tree`` as ``QColor``s."""
    colors = tree.model.domain.class_var.colors
    return [QColor(*map(int, color[:3])) for color in colors]


def node_fill(value, colors, color_by):
    """Fill of a node box of class counts ``value``: the majority class's colour, paler
    the less pure the node, or (``COLOR_BY_IMPURITY``) orange by the Gini impurity."""
    total = value.sum()
    if not total:
        return QColor(EMPTY_COLOR)
    if color_by == COLOR_BY_IMPURITY:
        p = value / total
        k = max(len(value), 2)
        impurity = (1 - (p ** 2).sum()) / (1 - 1 / k)
        return _mix(IMPURITY_COLOR, 1 - 0.8 * impurity)
    majority = int(np.argmax(value))
    return _mix(colors[majority], 1 - 0.55 * value[majority] / total)


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
                         Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap, breakable(self.text))
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
        self.scene().hover(self.node)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event):
        self.scene().hover(-1)
        super().hoverLeaveEvent(event)

    def mouseDoubleClickEvent(self, event):
        self.scene().toggle_collapse(self.node)
        event.accept()


class TreeScene(QGraphicsScene):
    """The drawn tree: one :class:`NodeItem` per visible node, edges with branch labels.

    Keeps what the user did to the drawing: ``selected`` nodes (also those hidden in a
    collapsed subtree), ``collapsed`` nodes and the ``traced`` path of a row.  Signals:
    ``nodes_selected`` after the user changed the selection (``selected`` is updated),
    ``collapse_toggled`` after the user collapsed or expanded nodes.
    """
    nodes_selected = Signal()
    collapse_toggled = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tree = None
        self.describe = None      # node -> (title, text, tooltip, class counts, n)
        self.node_width = 220
        self.max_depth = None     # no limit
        self.color_by = COLOR_BY_CLASS
        self.selected = set()
        self.collapsed = set()
        self.traced = []
        self.node_items = {}
        self.edges = {}
        self._size_cache = {}
        self.selectionChanged.connect(self._on_selection_changed)

    # ----- drawing -----
    def draw(self, tree, describe, node_width, max_depth, color_by):
        """Draw ``tree`` (``None`` clears the scene); ``describe(node)`` gives the title,
        text, tooltip, class counts and number of rows of a node box; nodes deeper than
        ``max_depth`` (``None``: no limit) are not drawn."""
        self.tree, self.describe = tree, describe
        self.node_width, self.max_depth, self.color_by = node_width, max_depth, color_by
        self.redraw()

    def redraw(self):
        """Rebuild the scene: visible nodes, their edges and branch labels."""
        self.blockSignals(True)  # the selection is rebuilt from self.selected
        try:
            self._build()
        finally:
            self.blockSignals(False)

    def visible_children(self):
        tree = self.tree
        return [() if (node in self.collapsed
                       or (self.max_depth is not None and tree.depth[node] >= self.max_depth))
                else tree.children[node] for node in range(tree.node_count)]

    def _node_height(self, title, text, has_bars, metrics):
        key = (text, title != "", has_bars, self.node_width)
        if key not in self._size_cache:
            rect = metrics.boundingRect(QRectF(0, 0, self.node_width - 2 * PAD, 1000),
                                        Qt.TextWordWrap, breakable(text))
            self._size_cache[key] = (2 * PAD + (16 if title else 0) + rect.height() + 2
                                     + (BAR_CHART_HEIGHT + 3 if has_bars else 0)
                                     + 14 + DIST_BAR_HEIGHT)
        return self._size_cache[key]

    def _build(self):
        self.clear()
        self.node_items, self.edges = {}, {}
        tree = self.tree
        if tree is None:
            self.setSceneRect(QRectF())
            return
        visible = self.visible_children()
        xs = layout(tree, visible, self.node_width)
        metrics = QFontMetricsF(self.font())
        boxes, level_height = {}, {}
        for node in xs:
            title, text, tooltip, value, n = self.describe(node)
            coefficients = None if tree.is_leaf(node) else tree.coefficients(node)
            height = self._node_height(title, text, coefficients is not None, metrics)
            if coefficients is not None:
                tooltip += "\n\nStandardised coefficients (w·std):\n" + "\n".join(
                    f"  {name}: {format_number(w)}" for name, w in zip(*coefficients))
            boxes[node] = (title, text, tooltip, coefficients, value, n, height)
            level = tree.depth[node]
            level_height[level] = max(level_height.get(level, 0), height)
        level_y, y = {}, 0.0
        for level in sorted(level_height):
            level_y[level] = y
            y += level_height[level] + LEVEL_GAP
        self._add_nodes(xs, boxes, level_y)
        self._add_edges(visible)
        self._style_edges()
        self.setSceneRect(self.itemsBoundingRect().adjusted(-20, -20, 20, 20))

    def _add_nodes(self, xs, boxes, level_y):
        tree = self.tree
        colors = class_colors(tree)
        for node, x in xs.items():
            title, text, tooltip, coefficients, value, n, height = boxes[node]
            item = NodeItem(node, self.node_width, height, title, text,
                            None if coefficients is None else coefficients[1], value, n,
                            node_fill(value, colors, self.color_by), colors,
                            node in self.collapsed and bool(tree.children[node]))
            item.setToolTip(tooltip)
            item.setPos(x - self.node_width / 2, level_y[tree.depth[node]])
            item.traced = node in self.traced
            self.addItem(item)
            item.setSelected(node in self.selected)
            self.node_items[node] = item

    def _add_edges(self, visible):
        for node, kids in enumerate(visible):
            if node not in self.node_items:
                continue
            parent = self.node_items[node]
            start = parent.pos() + QPointF(self.node_width / 2, parent.height)
            for kid in kids:
                child = self.node_items[kid]
                end = child.pos() + QPointF(self.node_width / 2, 0)
                path = QPainterPath(start)
                mid = (start.y() + end.y()) / 2
                path.cubicTo(QPointF(start.x(), mid), QPointF(end.x(), mid), end)
                edge = QGraphicsPathItem(path)
                edge.setZValue(-1)
                self.addItem(edge)
                label = QGraphicsSimpleTextItem(self.tree.edge_labels[kid], edge)
                width = label.boundingRect().width()
                label.setPos(end.x() - width / 2, end.y() - 17)
                label.setBrush(QColor("#303030"))
                self.edges[kid] = edge

    def _style_edges(self, hovered=()):
        hovered = set(hovered)
        for node, edge in self.edges.items():
            if node in hovered:
                edge.setPen(QPen(HOVER_COLOR, 3))
            elif node in self.traced:
                edge.setPen(QPen(PATH_COLOR, 3.5))
            else:
                edge.setPen(QPen(QColor("#888888"), 1.3))

    def recolor(self, color_by):
        """Refill the node boxes by class (``COLOR_BY_CLASS``) or impurity."""
        self.color_by = color_by
        for item in self.node_items.values():
            item.fill = node_fill(item.value, item.colors, color_by)
            item.update()

    # ----- hover, path, collapse -----
    def hover(self, node):
        """Highlight the path from the root to ``node`` (-1: none)."""
        path = self.tree.path(node) if node >= 0 and self.tree else []
        on_path = set(path)
        for other, item in self.node_items.items():
            hovered = other in on_path
            if item.hovered != hovered:
                item.hovered = hovered
                item.update()
        self._style_edges(path[1:])

    def trace(self, nodes):
        """Highlight the path ``nodes`` of a row.  Returns ``False`` if some of them are
        not drawn: their collapsed ancestors are then expanded, and the caller redraws
        (after lifting a depth limit if needed)."""
        self.traced = list(nodes)
        if any(node not in self.node_items for node in self.traced):
            self.collapsed -= set(self.traced)
            return False
        for node, item in self.node_items.items():
            item.traced = node in self.traced
            item.update()
        self._style_edges()
        return True

    def toggle_collapse(self, node):
        """Collapse or expand the subtree of ``node`` (a leaf is left alone)."""
        if self.tree is None or self.tree.is_leaf(node):
            return
        self.collapsed ^= {node}
        self.collapse_toggled.emit()
        self.redraw()

    def expand_all(self):
        self.collapsed = set()
        self.collapse_toggled.emit()
        self.redraw()

    # ----- selection -----
    def _on_selection_changed(self):
        hidden = {node for node in self.selected if node not in self.node_items}
        self.selected = hidden | {node for node, item in self.node_items.items()
                                  if item.isSelected()}
        self.nodes_selected.emit()

    def select(self, nodes):
        """Select exactly ``nodes`` (ids of drawn nodes) and emit ``nodes_selected``."""
        self.blockSignals(True)
        for node, item in self.node_items.items():
            item.setSelected(node in nodes)
        self.blockSignals(False)
        self._on_selection_changed()


class TreeView(QGraphicsView):
    """The view of a :class:`TreeScene`: rubber-band selection, zoom (also Ctrl + wheel)."""

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.zoom = 1.0
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setDragMode(QGraphicsView.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.IntersectsItemShape)

    def wheelEvent(self, event):
        if event.modifiers() & Qt.ControlModifier:
            self.zoom_by(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
            event.accept()
        else:
            super().wheelEvent(event)

    def zoom_by(self, factor):
        self.zoom = min(max(self.zoom * factor, 0.05), 5.0)
        self.setTransform(self.transform().fromScale(self.zoom, self.zoom))

    def fit_to_window(self):
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.KeepAspectRatio)
        self.zoom = min(self.transform().m11(), 1.5)
        self.setTransform(self.transform().fromScale(self.zoom, self.zoom))

    def show_new_tree(self):
        """Fit the tree to the window, but never so small that rules are unreadable:
        a wide tree starts at its root and scrolls."""
        self.fit_to_window()
        scene = self.scene()
        if self.zoom < 0.45 and 0 in scene.node_items:
            self.zoom_by(0.45 / self.zoom)
            root = scene.node_items[0]
            self.centerOn(root.pos() + QPointF(scene.node_width / 2, 200))
