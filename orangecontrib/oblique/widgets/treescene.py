"""Drawing of the Oblique Tree Viewer: node boxes, edges, zoom, hover, collapse, selection;
the controls of the zoom (:class:`ZoomControls`).

Plain Qt classes, not a widget (as Orange's ``OWTreeViewer2D`` keeps its scene and view
apart from the widget).  The positions come from
:func:`~orangecontrib.oblique.widgets.treelayout.layout`; what a node box says comes from
the widget through a ``describe(node)`` callback.  The scene reports what the user does
through the signals :attr:`TreeScene.nodes_selected` and :attr:`TreeScene.collapse_toggled`.
"""
import math

import numpy as np

from AnyQt.QtCore import QPointF, QRectF, Qt, pyqtSignal as Signal
from AnyQt.QtGui import (QBrush, QColor, QFont, QFontInfo, QFontMetricsF, QPainter,
                         QPainterPath, QPen)
from AnyQt.QtWidgets import (QGraphicsItem, QGraphicsPathItem, QGraphicsScene,
                             QGraphicsSimpleTextItem, QGraphicsView, QHBoxLayout, QLabel,
                             QPushButton, QSlider, QVBoxLayout, QWidget)

from orangecontrib.oblique.core.tree.rules import format_number
from orangecontrib.oblique.widgets.notes import style_note
from orangecontrib.oblique.widgets.treelayout import layout
from orangecontrib.oblique.widgets.viewertexts import rows_text

PAD = 5
LEVEL_GAP = 46
#: the height of a bar's label at zoom 1 (its font: :func:`label_font`)
BAR_LABEL_HEIGHT = 16
BAR_CHART_HEIGHT = 26 + BAR_LABEL_HEIGHT
DIST_BAR_HEIGHT = 7
MAX_BARS = 12
#: the narrowest slot of a bar with its label (three or four letters of it)
MIN_BAR_STEP = 44
HOVER_COLOR = QColor("#e6750a")
PATH_COLOR = QColor("#1a9850")
SELECT_COLOR = QColor("#1f5fbf")
POSITIVE_COLOR = QColor("#2b6cb0")
NEGATIVE_COLOR = QColor("#c0392b")
IMPURITY_COLOR = QColor("#e6550d")
EMPTY_COLOR = QColor("#f4f4f4")
EDGE_COLOR = QColor("#8c8c8c")
SUBSET_COLOR = QColor("#7b3294")
FADED_EDGE_COLOR = QColor("#d0d0d0")
#: opacity of a node that no row of the Data input reaches
FADED_OPACITY = 0.4
#: node text is at least this many pixels high on screen when a tree opens and after
#: *Fit* (Orange's own Tree Viewer writes about 16 px)
MIN_TEXT_PIXELS = 11
#: the labels under the coefficient bars are at least this many pixels high on screen
#: whenever node text is at least MIN_TEXT_PIXELS high
MIN_LABEL_PIXELS = 9
#: the levels a tree opens with when the whole of it is not readable in the window: the
#: root and the next two
OPEN_LEVELS = 2
LABEL_GAP = 4

#: ``color_by`` values of :func:`node_fill`
COLOR_BY_CLASS, COLOR_BY_IMPURITY = 0, 1
#: ``edge_width`` values (Orange's Tree Viewer's "Edge width"): fixed, proportional to the
#: instances relative to the root's, or to the parent's
EDGE_FIXED, EDGE_RELATIVE_TO_ROOT, EDGE_RELATIVE_TO_PARENT = 0, 1, 2


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


def node_fill(value, colors, color_by, target=None):
    """Fill of a node box of class counts ``value``: the majority class's colour, paler
    the less pure the node; with a ``target`` class (an index), that class's colour,
    paler the smaller its share (as Orange's Tree Viewer's "Target class"); or
    (``COLOR_BY_IMPURITY``) orange by the Gini impurity."""
    total = value.sum()
    if not total:
        return QColor(EMPTY_COLOR)
    if color_by == COLOR_BY_IMPURITY:
        p = value / total
        k = max(len(value), 2)
        impurity = (1 - (p ** 2).sum()) / (1 - 1 / k)
        return _mix(IMPURITY_COLOR, 1 - 0.8 * impurity)
    if target is not None and 0 <= target < len(value):
        return _mix(colors[target], 1 - 0.85 * value[target] / total)
    majority = int(np.argmax(value))
    return _mix(colors[majority], 1 - 0.55 * value[majority] / total)


def edge_pen_width(n, n_parent, n_root, mode):
    """Width of the edge into a node of ``n`` instances (Orange's Tree Viewer's rule):
    fixed, or proportional to ``n`` relative to the root's or the parent's."""
    if mode == EDGE_RELATIVE_TO_ROOT and n_root:
        return 0.6 + 8 * n / n_root
    if mode == EDGE_RELATIVE_TO_PARENT and n_parent:
        return 0.6 + 8 * n / n_parent
    return 1.3


def text_pixels(font):
    """Height in pixels of ``font`` at zoom 1 (its em)."""
    pixels = QFontInfo(font).pixelSize()
    return pixels if pixels > 0 else font.pointSizeF() * 96 / 72


def label_font(font):
    """The font of the bars' labels for node text in ``font``: as much smaller as keeps
    it MIN_LABEL_PIXELS high where node text is MIN_TEXT_PIXELS, within
    BAR_LABEL_HEIGHT."""
    small = QFont(font)
    small.setPixelSize(max(1, min(math.ceil(text_pixels(font) * MIN_LABEL_PIXELS
                                            / MIN_TEXT_PIXELS), BAR_LABEL_HEIGHT - 2)))
    return small


def label_slots(widths, room, narrowest=MIN_BAR_STEP):
    """Widths of the slots of labels whose whole widths are ``widths`` in ``room``
    pixels: every label whole if they fit (the room left shared equally); else the
    widest are cut to one common width, so that a label is shortened only where there
    is no room for it, and no slot is narrower than ``narrowest`` (or an equal share)."""
    widths = np.maximum(np.asarray(widths, dtype=float), 1.0)
    if widths.sum() <= room:
        return widths + (room - widths.sum()) / len(widths)
    floor = min(narrowest, room / len(widths))
    widths = np.maximum(widths, floor)
    order = np.sort(widths)
    for k, width in enumerate(order):  # water-filling: the cap under which all fit
        cap = (room - order[:k].sum()) / (len(order) - k)
        if cap <= width:
            break
    return np.minimum(widths, cap)


class NodeItem(QGraphicsItem):
    """One node box: the rule (or the leaf's class), a bar chart of standardised
    coefficients, the number of rows and a class distribution bar.  Drawn in ``paint``
    from precomputed texts: no child items, so a tree of hundreds of nodes stays cheap."""

    def __init__(self, node, width, height, title, text, coefficients, value, n, fill,
                 colors, collapsed, bar_names=None):
        super().__init__()
        self.node = node
        self.width, self.height = width, height
        self.title, self.text = title, text
        self.coefficients = coefficients
        #: the attribute of every bar (its short name is written under the bar)
        self.bar_names = bar_names
        self.value, self.n = value, n
        self.fill = fill
        self.colors = colors
        self.collapsed = collapsed
        self._label_widths = None  # the bars' labels' whole widths, once measured
        self.hovered = False
        self.traced = False
        self.node_tooltip = ""
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
        painter.drawText(QRectF(PAD, y, inner, 14), Qt.AlignLeft | Qt.AlignVCenter,
                         self.count_text())
        y += 14
        self._paint_distribution(painter, QRectF(PAD, y, inner, DIST_BAR_HEIGHT - 2))

    def count_text(self):
        """The line under the text: "1 row", "303 rows", and what hides the children."""
        return rows_text(self.n) + (f"   ▸ {self.collapsed}" if self.collapsed else "")

    def label_widths(self):
        """The whole width of every bar's label in :func:`label_font` (item font)."""
        if self._label_widths is None:
            scene = self.scene()
            metrics = QFontMetricsF(label_font(scene.font() if scene is not None
                                               else QFont()))
            names = self.bar_names or [""] * len(self.coefficients)
            self._label_widths = [metrics.horizontalAdvance(name) + 6 for name in names]
        return self._label_widths

    def bar_rects(self, rect):
        """(rectangle of the bar, rectangle of its label) of every coefficient shown;
        each label's slot as wide as :func:`label_slots` gives it."""
        n_bars = self.n_bars()
        slots = label_slots(self.label_widths()[:n_bars], rect.width())
        chart = QRectF(rect.left(), rect.top(), rect.width(), rect.height() - BAR_LABEL_HEIGHT)
        rects, left = [], chart.left()
        for step in slots:
            bar_width = min(step - 2, 14.0)
            rects.append((QRectF(left + (step - bar_width) / 2, chart.top(), bar_width,
                                 chart.height()),
                          QRectF(left, chart.bottom(), step, BAR_LABEL_HEIGHT)))
            left += step
        return rects

    def n_bars(self):
        """How many coefficients get a bar: the most important first, as many as leave
        each label at least MIN_BAR_STEP (or its whole width, if less); the tooltip
        lists them all."""
        room = self.width - 2 * PAD
        widths = self.label_widths()
        count = 0
        for width in widths[:MAX_BARS]:
            if sum(min(w, MIN_BAR_STEP) for w in widths[:count + 1]) > room:
                break
            count += 1
        return max(1, count)

    def bars_rect(self):
        """Where the bar chart of the coefficients is, in the item's coordinates."""
        return QRectF(PAD, self.height - PAD - 14 - DIST_BAR_HEIGHT - BAR_CHART_HEIGHT - 3,
                      self.width - 2 * PAD, BAR_CHART_HEIGHT)

    def bar_tooltip(self, pos):
        """The tooltip of the bar under ``pos`` (item coordinates), or None."""
        if self.coefficients is None or not self.bar_names:
            return None
        for i, (bar, label) in enumerate(self.bar_rects(self.bars_rect())):
            if bar.united(label).adjusted(-1, 0, 1, 0).contains(pos):
                return (f"{self.bar_names[i]}: {format_number(self.coefficients[i])} "
                        f"per standard deviation (bar {i + 1} of "
                        f"{self.n_bars()}; blue: positive, red: "
                        f"negative)")
        return None

    def hoverMoveEvent(self, event):
        tooltip = self.bar_tooltip(event.pos())
        self.setToolTip(tooltip if tooltip is not None else self.node_tooltip)
        super().hoverMoveEvent(event)

    def _paint_bars(self, painter, rect):
        painter.save()
        weights = self.coefficients[:self.n_bars()]
        scale = np.abs(weights).max() or 1.0
        rects = self.bar_rects(rect)
        mid = rects[0][0].center().y()
        painter.setPen(QPen(QColor("#999999"), 0.8))
        painter.drawLine(QPointF(rect.left(), mid), QPointF(rect.right(), mid))
        font = label_font(painter.font())
        painter.setFont(font)
        metrics = QFontMetricsF(font)
        for weight, (bar, label_rect), name in zip(weights, rects, self.bar_names or
                                                   [""] * len(weights)):
            height = weight / scale * (bar.height() / 2 - 1)
            painter.setPen(Qt.NoPen)
            painter.setBrush(POSITIVE_COLOR if weight >= 0 else NEGATIVE_COLOR)
            painter.drawRect(QRectF(bar.left(), mid - max(height, 0), bar.width(),
                                    abs(height)))
            painter.setPen(QColor("#505050"))
            painter.drawText(label_rect, Qt.AlignHCenter | Qt.AlignTop,
                             metrics.elidedText(name, Qt.ElideRight, label_rect.width() - 2))
        painter.restore()

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
        self.target = None        # the target class's index, or None
        self.edge_width = EDGE_RELATIVE_TO_PARENT
        #: rows of the Data input reaching every node (None: no subset to highlight)
        self.subset_n = None
        self.selected = set()
        self.collapsed = set()
        self.traced = []
        #: nodes drawn only because the traced path passes them (below the depth limit
        #: or in a collapsed subtree); the user's settings stay as they are
        self.revealed = set()
        self.node_n = {}
        self.node_items = {}
        self.edges = {}
        self.labels = {}
        self._size_cache = {}
        self.selectionChanged.connect(self._on_selection_changed)

    # ----- drawing -----
    def draw(self, tree, describe, node_width, max_depth, color_by, target=None,
             edge_width=EDGE_RELATIVE_TO_PARENT, subset_n=None):
        """Draw ``tree`` (``None`` clears the scene); ``describe(node)`` gives the title,
        text, tooltip, class counts and number of rows of a node box; nodes deeper than
        ``max_depth`` (``None``: no limit) are not drawn.  ``target``: the class whose
        share colours the boxes (None: the majority class); ``edge_width``: an
        ``EDGE_*`` rule over the tree's training instances; ``subset_n``: the rows of a
        data subset reaching every node, whose paths are highlighted (None: none)."""
        self.tree, self.describe = tree, describe
        self.node_width, self.max_depth, self.color_by = node_width, max_depth, color_by
        self.target, self.edge_width, self.subset_n = target, edge_width, subset_n
        if tree is None or any(node >= tree.node_count for node in self.traced):
            self.traced = []
        self.revealed = self._revealed()
        self.redraw()

    def redraw(self):
        """Rebuild the scene: visible nodes, their edges and branch labels."""
        self.blockSignals(True)  # the selection is rebuilt from self.selected
        try:
            self._build()
        finally:
            self.blockSignals(False)

    def open_top_levels(self, levels=OPEN_LEVELS):
        """Collapse the nodes at depth ``levels`` that have children, so that the root and
        the next ``levels`` levels are drawn and the rest waits behind "▸ collapsed";
        emits ``collapse_toggled``.  False (nothing done) if the tree is not deeper."""
        tree = self.tree
        deep = set() if tree is None else {
            node for node in range(tree.node_count)
            if tree.depth[node] == levels and tree.children[node]}
        if not deep:
            return False
        self.collapsed |= deep
        self.collapse_toggled.emit()
        self.revealed = self._revealed()
        self.redraw()
        return True

    def levels_rect(self, levels=OPEN_LEVELS):
        """The scene rectangle of the drawn boxes of the root and the next ``levels``
        levels."""
        rect = QRectF()
        for node, item in self.node_items.items():
            if self.tree.depth[node] <= levels:
                rect = rect.united(item.sceneBoundingRect())
        return rect

    def _hidden_below(self, node):
        """Whether the user's settings hide the children of ``node``."""
        return node in self.collapsed or (
            self.max_depth is not None and self.tree.depth[node] >= self.max_depth)

    def visible_children(self, reveal=True):
        """The children drawn of every node: none below a collapsed node or the depth
        limit, except (``reveal``) the next node of the traced path."""
        tree = self.tree
        kids = [() if self._hidden_below(node) else tree.children[node]
                for node in range(tree.node_count)]
        if reveal:
            for node, child in zip(self.traced, self.traced[1:]):
                if not kids[node]:
                    kids[node] = (child,)
        return kids

    def _revealed(self):
        """The traced nodes that the user's settings would hide."""
        if self.tree is None or not self.traced:
            return set()
        hidden, shown = set(), True
        for node in self.traced:
            if not shown:
                hidden.add(node)
            shown = shown and not self._hidden_below(node)
        return hidden

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
        self.node_n = {}
        for node in xs:
            title, text, tooltip, value, n = self.describe(node)
            self.node_n[node] = n
            coefficients = None if tree.is_leaf(node) else tree.coefficients(node)
            height = self._node_height(title, text, coefficients is not None, metrics)
            if coefficients is not None:
                tooltip += ("\n\nBars: coefficients per standard deviation (w·SD), "
                            "blue positive, red negative:\n") + "\n".join(
                    f"  {name}: {format_number(w)}" for name, w in zip(*coefficients))
            boxes[node] = (title, text, tooltip, coefficients, value, n, height)
            level = tree.depth[node]
            level_height[level] = max(level_height.get(level, 0), height)
        level_y, y = {}, 0.0
        for level in sorted(level_height):
            level_y[level] = y
            y += level_height[level] + LEVEL_GAP
        self._add_nodes(xs, boxes, level_y, visible)
        self._add_edges(visible)
        self._style_edges()
        self.setSceneRect(self.itemsBoundingRect().adjusted(-20, -20, 20, 20))

    def _add_nodes(self, xs, boxes, level_y, visible):
        tree = self.tree
        colors = class_colors(tree)
        for node, x in xs.items():
            title, text, tooltip, coefficients, value, n, height = boxes[node]
            # what hides the node's children: "" if they are drawn (or it has none)
            hidden = "" if not tree.children[node] or visible[node] else (
                "collapsed" if node in self.collapsed else "depth limit")
            item = NodeItem(node, self.node_width, height, title, text,
                            None if coefficients is None else coefficients[1], value, n,
                            node_fill(value, colors, self.color_by, self.target), colors,
                            hidden, None if coefficients is None else coefficients[0])
            item.node_tooltip = tooltip
            item.setToolTip(tooltip)
            item.setPos(x - self.node_width / 2, level_y[tree.depth[node]])
            item.traced = node in self.traced
            if self.subset_n is not None and not self.subset_n[node]:
                item.setOpacity(FADED_OPACITY)
            self.addItem(item)
            item.setSelected(node in self.selected)
            self.node_items[node] = item

    def _add_edges(self, visible):
        self.labels = {}
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
                self.edges[kid] = edge
                self.labels[kid] = QGraphicsSimpleTextItem(self.tree.edge_labels[kid], edge)
                self.labels[kid].setBrush(QColor("#303030"))

    def _place_label(self, kid, pen_width):
        """Put the label of the edge into ``kid`` beside the edge's last stretch (which
        runs straight down into the box), on the side away from the parent, so that the
        edge never runs through its label."""
        label, edge = self.labels[kid], self.edges[kid]
        path = edge.path()
        start, end = path.elementAt(0), path.currentPosition()
        rect = label.boundingRect()
        gap = pen_width / 2 + LABEL_GAP
        x = end.x() - gap - rect.width() if end.x() < start.x - 0.5 else end.x() + gap
        label.setPos(x, end.y() - rect.height() - 2)

    def edge_pen(self, kid, hovered=()):
        """The pen of the edge into ``kid``: the hovered or traced path, the paths of a
        data subset, else grey; its width by the instances (``edge_width``)."""
        tree = self.tree
        parent = tree.parent[kid]
        n = tree.train_value.sum(axis=1)
        width = edge_pen_width(n[kid], n[parent], n[0], self.edge_width)
        if kid in hovered:
            return QPen(HOVER_COLOR, max(width, 3), Qt.SolidLine, Qt.RoundCap)
        if kid in self.traced:
            return QPen(PATH_COLOR, max(width, 3.5), Qt.SolidLine, Qt.RoundCap)
        if self.subset_n is not None:
            passed = self.subset_n[kid] > 0
            return QPen(SUBSET_COLOR if passed else FADED_EDGE_COLOR,
                        max(width, 2) if passed else width, Qt.SolidLine, Qt.RoundCap)
        return QPen(EDGE_COLOR, width, Qt.SolidLine, Qt.RoundCap)

    def _style_edges(self, hovered=()):
        hovered = set(hovered)
        for node, edge in self.edges.items():
            pen = self.edge_pen(node, hovered)
            edge.setPen(pen)
            self._place_label(node, pen.widthF())

    def recolor(self, color_by, target=None):
        """Refill the node boxes by class (``COLOR_BY_CLASS``; the share of the
        ``target`` class if one is given) or impurity."""
        self.color_by, self.target = color_by, target
        for item in self.node_items.values():
            item.fill = node_fill(item.value, item.colors, color_by, target)
            item.update()

    def set_edge_width(self, edge_width):
        """Edge widths by an ``EDGE_*`` rule."""
        self.edge_width = edge_width
        self._style_edges()

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
        """Highlight the path ``nodes`` of a row.  Nodes of the path that the depth limit
        or a collapsed node hides are drawn while the path is traced (and only those:
        :attr:`revealed`); the depth limit and the collapsed nodes stay as they are.
        Returns :attr:`revealed`."""
        self.traced = list(nodes)
        revealed = self._revealed()
        if revealed or self.revealed or any(node not in self.node_items
                                            for node in self.traced):
            self.revealed = revealed
            self.redraw()
            return revealed
        for node, item in self.node_items.items():
            item.traced = node in self.traced
            item.update()
        self._style_edges()
        return revealed

    def traced_rect(self):
        """The scene rectangle of the traced path's boxes (empty if none is drawn)."""
        rect = QRectF()
        for node in self.traced:
            if node in self.node_items:
                item = self.node_items[node]
                rect = rect.united(item.sceneBoundingRect())
        return rect

    def toggle_collapse(self, node):
        """Collapse or expand the subtree of ``node`` (a leaf is left alone)."""
        if self.tree is None or self.tree.is_leaf(node):
            return
        self.collapsed ^= {node}
        self.collapse_toggled.emit()
        self.revealed = self._revealed()
        self.redraw()

    def expand_all(self):
        self.collapsed = set()
        self.collapse_toggled.emit()
        self.revealed = self._revealed()
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
    """The view of a :class:`TreeScene`: rubber-band selection, zoom (also Ctrl + wheel);
    ``zoom_changed(zoom)`` after every change of the zoom; ``fit_note(text)`` after *Fit*
    ("" when the whole tree is in the window, else what it shows instead).

    A new tree (:meth:`show_new_tree`) opens readable, with the root and the next
    OPEN_LEVELS levels in view; *Fit* never makes node text smaller than
    MIN_TEXT_PIXELS."""
    zoom_changed = Signal(float)
    fit_note = Signal(str)
    MIN_ZOOM, MAX_ZOOM = 0.05, 5.0
    #: the largest zoom of *Fit* and of a new tree
    MAX_FIT_ZOOM = 1.5

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.zoom = 1.0
        #: a new tree waits for its first view (:meth:`show_new_tree`) while the view is
        #: not shown (its size is not known yet)
        self.opening = False
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setDragMode(QGraphicsView.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.IntersectsItemShape)

    def wheelEvent(self, event):
        if event.modifiers() & Qt.ControlModifier:
            self.zoom_by(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
            event.accept()
        else:
            super().wheelEvent(event)

    def set_zoom(self, zoom):
        """Scale the drawing by ``zoom`` (1: as drawn)."""
        self.zoom = min(max(zoom, self.MIN_ZOOM), self.MAX_ZOOM)
        self.setTransform(self.transform().fromScale(self.zoom, self.zoom))
        self.zoom_changed.emit(self.zoom)

    def zoom_by(self, factor):
        self.set_zoom(self.zoom * factor)

    def readable_zoom(self):
        """The smallest zoom at which node text is MIN_TEXT_PIXELS high on screen."""
        return MIN_TEXT_PIXELS / text_pixels(self.scene().font())

    def text_pixels(self):
        """How high node text is on screen at the current zoom."""
        return text_pixels(self.scene().font()) * self.zoom

    def _room(self):
        """(width, height) of the viewport in pixels."""
        viewport = self.viewport()
        return max(viewport.width() - 4, 1), max(viewport.height() - 4, 1)

    def fit_to_window(self):
        """The whole tree in the window (never enlarged beyond MAX_FIT_ZOOM), if its text
        stays readable (MIN_TEXT_PIXELS); else, at the smallest readable zoom or more,
        the width of the most top levels (the root and at most the next OPEN_LEVELS)
        that fit, their top in view, the rest left to scrolling; ``fit_note`` says
        which."""
        scene = self.scene()
        rect = scene.sceneRect()
        if rect.isEmpty():
            self.fit_note.emit("")
            return
        width, height = self._room()
        whole = min(width / rect.width(), height / rect.height(), self.MAX_FIT_ZOOM)
        readable = self.readable_zoom()
        if whole >= readable or not scene.node_items:
            self.set_zoom(whole)
            self.centerOn(rect.center())
            self.fit_note.emit("")
            return
        # the most top levels (at most the root's next OPEN_LEVELS) whose width fits
        # readably; the root alone if none does
        for levels in range(OPEN_LEVELS, -1, -1):
            top = scene.levels_rect(levels)
            if (top.width() + 20) * readable <= width:
                break
        self.set_zoom(max(readable, min(width / (top.width() + 20), self.MAX_FIT_ZOOM)))
        self.updateSceneRect(rect)
        self.centerOn(top.center().x(), rect.top() + height / (2 * self.zoom))
        self.fit_note.emit(
            "The whole tree is not readable in the window: Fit shows the top levels at a "
            "readable size; scroll for the rest, or collapse nodes (double-click).")

    def fit_to_width(self):
        """The tree's width in the window (never enlarged beyond 1.5), its top shown."""
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        width = self.viewport().width() - 4
        self.set_zoom(min(width / rect.width(), 1.5))
        self.centerOn(rect.center().x(), rect.top()
                      + self.viewport().height() / (2 * self.zoom))

    def show_new_tree(self):
        """The view after new drawing: *Fit*.  For a new tree (:meth:`start_new_tree`),
        once the view is shown (when its size is known), first its opening: if the whole
        tree is not readable in the window, the nodes at depth OPEN_LEVELS are collapsed,
        so that the root and the next OPEN_LEVELS levels are drawn and fitted."""
        scene = self.scene()
        if self.opening and self.isVisible() and scene.node_items:
            width, height = self._room()
            rect = scene.sceneRect()
            readable = self.readable_zoom()
            if min(width / rect.width(), height / rect.height()) < readable:
                scene.open_top_levels()
            self.opening = False
        self.fit_to_window()

    def start_new_tree(self):
        """A new tree was drawn: its first view comes with :meth:`show_new_tree`."""
        self.opening = True
        self.show_new_tree()

    def show_path(self):
        """Scroll so that the scene's traced path is visible: all of it if it fits in
        the window, else its end (the node where the row stops)."""
        scene = self.scene()
        rect = scene.traced_rect()
        if rect.isEmpty():
            return
        self.updateSceneRect(scene.sceneRect())  # the scroll range of a redrawn scene
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        if rect.width() > visible.width() or rect.height() > visible.height():
            rect = scene.node_items[scene.traced[-1]].sceneBoundingRect()
        self.ensureVisible(rect, 10, 10)


class ZoomControls(QWidget):
    """The zoom of a :class:`TreeView`: a slider in percent (5 to 300) that follows the
    view's zoom, buttons to zoom out and in, *Fit* (the whole tree in the window, if it
    is readable there) and *Fit to width*; a note when *Fit* cannot show the whole tree
    readably."""

    def __init__(self, view, parent=None):
        super().__init__(parent)
        layout_ = QVBoxLayout(self)
        layout_.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel("Zoom: "))
        self.slider = QSlider(Qt.Horizontal, minimum=5, maximum=300, value=100,
                              singleStep=5, pageStep=5, tickInterval=5)
        self.slider.valueChanged.connect(lambda percent: view.set_zoom(percent / 100))
        row.addWidget(self.slider)
        layout_.addLayout(row)
        buttons = QHBoxLayout()
        for text, tooltip, action in (
                ("−", "Zoom out", lambda: view.zoom_by(0.8)),
                ("+", "Zoom in", lambda: view.zoom_by(1.25)),
                ("Fit", "The whole tree in the window, if it is readable there; else the "
                        "top levels' width", view.fit_to_window),
                ("Fit to width", "The tree's width in the window", view.fit_to_width)):
            button = QPushButton(text, toolTip=tooltip, autoDefault=False)
            if len(text) == 1:
                button.setFixedWidth(28)
            button.clicked.connect(lambda _=False, a=action: a())
            buttons.addWidget(button)
        layout_.addLayout(buttons)
        self.note = style_note(QLabel(wordWrap=True, visible=False))
        layout_.addWidget(self.note)
        view.zoom_changed.connect(self.follow)
        view.fit_note.connect(self.show_note)

    def show_note(self, text):
        """Show what *Fit* did (nothing for "")."""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def follow(self, zoom):
        """Show the view's ``zoom`` on the slider (without zooming again)."""
        self.slider.blockSignals(True)
        self.slider.setValue(int(round(zoom * 100)))
        self.slider.blockSignals(False)
