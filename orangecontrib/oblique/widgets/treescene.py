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
from orangecontrib.oblique.presentation import term_pieces, wrapped
from orangecontrib.oblique.widgets.notes import style_note
from orangecontrib.oblique.widgets.treelayout import layout
from orangecontrib.oblique.widgets.viewertexts import rows_text, weights_unit

PAD = 5
LEVEL_GAP = 46
#: the largest height of the bar chart's text at zoom 1 (its font: :func:`label_font`)
BAR_LABEL_HEIGHT = 16
DIST_BAR_HEIGHT = 7
#: the opacity of a coefficient's bar, drawn under its name and weight
BAR_OPACITY = 0.45
#: the most bars a box draws (the rule's terms; the tooltip lists every weight)
MAX_BARS = 12
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
LABEL_GAP = 4
#: the room around the drawn tree in the scene
SCENE_MARGIN = 20

#: ``color_by`` values of :func:`node_fill`
COLOR_BY_CLASS, COLOR_BY_IMPURITY = 0, 1
#: ``edge_width`` values (Orange's Tree Viewer's "Edge width"): fixed, proportional to the
#: instances relative to the root's, or to the parent's
EDGE_FIXED, EDGE_RELATIVE_TO_ROOT, EDGE_RELATIVE_TO_PARENT = 0, 1, 2


def box_lines(text, metrics, width):
    """The lines of a node box's ``text`` within ``width`` pixels (``metrics`` of its
    font): broken only between terms, never inside a name or a number
    (:func:`~orangecontrib.oblique.presentation.wrapped`); a term wider than the box
    breaks after its coefficient, and only a name wider than the box is elided."""
    def elided(piece, room):
        return metrics.elidedText(piece, Qt.ElideRight, room)

    def pieces(part):
        # a term too wide breaks after its coefficient (wrapped); prose too wide (a
        # heading, a pair of classes and its rows) at its words
        found = []
        for piece in term_pieces(part):
            if metrics.horizontalAdvance(piece) <= width or "·" in piece:
                found.append(piece)
            else:
                found += piece.split(" ")
        return found
    return [line for part in text.split("\n")
            for line in wrapped(pieces(part), width, width, metrics.horizontalAdvance,
                                elided)]


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


def bar_text_height(font):
    """The height of a line of the bar chart's text for node text in ``font``."""
    return math.ceil(QFontMetricsF(label_font(font)).height())


def bar_row_height(font):
    """The height of one bar of the bar chart -- a line with the attribute's name and
    its weight, over the bar -- for node text in ``font``."""
    return bar_text_height(font) + 1


def bar_chart_height(n_bars, font):
    """The height of the bar chart of ``n_bars`` bars and its scale."""
    return n_bars * bar_row_height(font) + bar_text_height(font) + 3


def _level_tops(level_height):
    """({level: top}, bottom of the last level) of levels of the heights
    ``level_height`` ({level: height}), LEVEL_GAP apart."""
    tops, y = {}, 0.0
    for level in sorted(level_height):
        tops[level] = y
        y += level_height[level] + LEVEL_GAP
    return tops, y - LEVEL_GAP


class NodeItem(QGraphicsItem):
    """One node box: the rule (or the leaf's class), a bar chart of the weights of the
    terms the rule shows, the number of rows and a class distribution bar.  Drawn in
    ``paint`` from precomputed texts: no child items, so a tree of hundreds of nodes stays
    cheap.

    The bar chart has a row per term, as the rule lists them: a line with the
    attribute's name (elided only where it is wider than the box less the weight, the
    whole name in the bar's tooltip) and the weight as the rule prints it, over the bar
    (light, from a common zero); under them a scale from the smallest to the largest
    weight, in the rule's units ("per unit" or "per SD")."""

    def __init__(self, node, width, height, title, text, coefficients, value, n, fill,
                 colors, collapsed):
        super().__init__()
        self.node = node
        self.width, self.height = width, height
        self.title, self.text = title, text
        #: the :class:`~orangecontrib.oblique.presentation.Coefficients` of the bars
        self.coefficients = coefficients
        self.value, self.n = value, n
        self.fill = fill
        self.colors = colors
        self.collapsed = collapsed
        self._lines = None
        self.hovered = False
        self.traced = False
        self.node_tooltip = ""
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setAcceptHoverEvents(True)

    @property
    def bar_names(self):
        """The attribute of every bar (None without bars)."""
        return None if self.coefficients is None else self.coefficients.names[:MAX_BARS]

    def boundingRect(self):
        return QRectF(-2, -2, self.width + 4, self.height + 4)

    def _font(self):
        scene = self.scene()
        return scene.font() if scene is not None else QFont()

    def lines(self):
        """The lines of the node's text, as :func:`box_lines` breaks them (once: the box
        is drawn anew for another text, width or font)."""
        if self._lines is not None:
            return self._lines
        lines = box_lines(self.text, QFontMetricsF(self._font()), self.width - 2 * PAD)
        if self.scene() is not None:  # in the scene's font from now on
            self._lines = lines
        return lines

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
        font = self._font()
        painter.setFont(font)
        if self.title:
            bold = QFont(font)
            bold.setBold(True)
            painter.setFont(bold)
            painter.drawText(QRectF(PAD, y, inner, 16), Qt.AlignLeft | Qt.AlignVCenter,
                             self.title)
            painter.setFont(font)
            y += 16
        spacing = QFontMetricsF(font).lineSpacing()
        for k, line in enumerate(self.lines()):
            painter.drawText(QRectF(PAD, y + k * spacing, inner, spacing),
                             Qt.AlignLeft | Qt.AlignVCenter, line)
        if self.coefficients is not None:
            self._paint_bars(painter, self.bars_rect())
        y = self.height - PAD - 14 - DIST_BAR_HEIGHT
        painter.setPen(QColor("#404040"))
        painter.drawText(QRectF(PAD, y, inner, 14), Qt.AlignLeft | Qt.AlignVCenter,
                         self.count_text())
        y += 14
        self._paint_distribution(painter, QRectF(PAD, y, inner, DIST_BAR_HEIGHT - 2))

    def count_text(self):
        """The line under the text: "1 row", "303 rows", and what hides the children."""
        return rows_text(self.n) + (f"   ▸ {self.collapsed}" if self.collapsed else "")

    def n_bars(self):
        """How many terms have a bar: those the rule shows, at most MAX_BARS."""
        return 0 if self.coefficients is None else min(len(self.coefficients.names),
                                                       MAX_BARS)

    def bars_rect(self):
        """Where the bar chart of the coefficients is, in the item's coordinates."""
        height = bar_chart_height(self.n_bars(), self._font())
        return QRectF(PAD, self.height - PAD - 14 - DIST_BAR_HEIGHT - height - 3,
                      self.width - 2 * PAD, height)

    def bar_layout(self, rect):
        """Where the bar chart's parts go in ``rect``: (rows, zero, scale) -- per bar
        (its bar, its name's, its weight's rectangle): a line with the name, the weight
        at its right end, over the bar from the common zero; the x of zero; the
        rectangle of the scale under the bars."""
        metrics = QFontMetricsF(label_font(self._font()))
        line, row = bar_text_height(self._font()), bar_row_height(self._font())
        texts = self.coefficients.texts[:self.n_bars()]
        low, high = self.scale()
        zero = rect.left() + rect.width() * (-low / (high - low))
        rows = []
        for k, weight in enumerate(self.coefficients.values[:self.n_bars()]):
            top = rect.top() + k * row
            value_width = metrics.horizontalAdvance(texts[k]) + 4
            end = rect.left() + rect.width() * (weight - low) / (high - low)
            rows.append((QRectF(min(zero, end), top + 1, abs(end - zero), line - 1),
                         QRectF(rect.left(), top, rect.width() - value_width - 4, line),
                         QRectF(rect.right() - value_width, top, value_width, line)))
        scale = QRectF(rect.left(), rect.top() + len(rows) * row, rect.width(),
                       rect.bottom() - rect.top() - len(rows) * row)
        return rows, zero, scale

    def scale(self):
        """(low, high) of the bars' scale: from 0 or the most negative weight to 0 or
        the most positive, the two as far from 0 when the weights have both signs."""
        weights = np.asarray(self.coefficients.values[:self.n_bars()], dtype=float)
        largest = float(np.abs(weights).max()) or 1.0
        low = -largest if (weights < 0).any() else 0.0
        high = largest if (weights > 0).any() or low == 0 else 0.0
        return low, high

    def bar_rects(self, rect):
        """(rectangle of the bar, rectangle of its name) of every coefficient shown."""
        return [(bar, name) for bar, name, _ in self.bar_layout(rect)[0]]

    def bar_tooltip(self, pos):
        """The tooltip of the bar under ``pos`` (item coordinates), or None."""
        if self.coefficients is None:
            return None
        unit = ("per standard deviation of" if self.coefficients.per_sd
                else "per unit of")
        for k, (bar, name, value) in enumerate(self.bar_layout(self.bars_rect())[0]):
            row = QRectF(name.left(), name.top(), value.right() - name.left(),
                         bar.bottom() - name.top())
            if row.contains(pos):
                attribute = self.bar_names[k]
                return (f"{attribute}: {self.coefficients.texts[k]} {unit} {attribute} "
                        f"(bar {k + 1} of {self.n_bars()}; blue: positive, red: "
                        f"negative)")
        return None

    def hoverMoveEvent(self, event):
        tooltip = self.bar_tooltip(event.pos())
        self.setToolTip(tooltip if tooltip is not None else self.node_tooltip)
        super().hoverMoveEvent(event)

    def _paint_bars(self, painter, rect):
        painter.save()
        rows, zero, scale = self.bar_layout(rect)
        font = label_font(self._font())
        painter.setFont(font)
        metrics = QFontMetricsF(font)
        texts = self.coefficients.texts
        for k, (bar, name_rect, value_rect) in enumerate(rows):
            weight = self.coefficients.values[k]
            painter.setPen(Qt.NoPen)
            color = QColor(POSITIVE_COLOR if weight >= 0 else NEGATIVE_COLOR)
            color.setAlphaF(BAR_OPACITY)  # under the name and the weight, which stay legible
            painter.setBrush(color)
            painter.drawRect(bar)
            painter.setPen(QColor("#303030"))
            painter.drawText(name_rect, Qt.AlignLeft | Qt.AlignVCenter,
                             metrics.elidedText(self.bar_names[k], Qt.ElideRight,
                                                name_rect.width()))
            painter.drawText(value_rect, Qt.AlignRight | Qt.AlignVCenter, texts[k])
        # the scale: an axis under the bars with ticks at its ends and at zero, the
        # numbers at the ends, the unit after the number farther from zero
        axis = scale.top() + 1
        painter.setPen(QPen(QColor("#606060"), 0.8))
        painter.drawLine(QPointF(zero, rows[0][0].top()), QPointF(zero, axis))
        painter.drawLine(QPointF(scale.left(), axis), QPointF(scale.right(), axis))
        for x in (scale.left(), zero, scale.right()):
            painter.drawLine(QPointF(x, axis), QPointF(x, axis + 3))
        painter.setPen(QColor("#303030"))
        low, high = self.scale()
        unit = weights_unit(self.coefficients)
        numbers = QRectF(scale.left(), axis + 2, scale.width(), scale.bottom() - axis - 2)
        flags = Qt.AlignVCenter
        painter.drawText(numbers, Qt.AlignLeft | flags,
                         format_number(low) + (f" {unit}" if high == 0 else ""))
        painter.drawText(numbers, Qt.AlignRight | flags,
                         format_number(high) + (f" {unit}" if high != 0 else ""))
        if scale.left() < zero < scale.right():
            painter.drawText(QRectF(zero - 15, numbers.top(), 30, numbers.height()),
                             Qt.AlignHCenter | flags, "0")
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
        self.describe = None      # node -> (title, text, tooltip, class counts, n, bars)
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
        text, tooltip, class counts, number of rows and bars (the
        :class:`~orangecontrib.oblique.presentation.Coefficients` of the terms its text
        shows, or None) of a node box; nodes deeper than
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

    def _nodes_at(self, levels):
        """The nodes at depth ``levels`` that have children the depth limit does not
        hide."""
        tree = self.tree
        return set() if tree is None or (self.max_depth is not None
                                         and levels >= self.max_depth) else {
            node for node in range(tree.node_count)
            if tree.depth[node] == levels and tree.children[node]}

    def open_top_levels(self, levels):
        """Collapse the nodes at depth ``levels`` that have children, so that the root and
        the next ``levels`` levels are drawn and the rest waits behind "▸ collapsed";
        emits ``collapse_toggled``.  False (nothing done) if no node there is expanded."""
        deep = self._nodes_at(levels) - self.collapsed
        if not deep:
            return False
        self.collapsed |= deep
        self.collapse_toggled.emit()
        self.revealed = self._revealed()
        self.redraw()
        return True

    def drawn_size(self, levels):
        """(width, height) of the scene as :meth:`open_top_levels` would draw it with
        ``levels``, measured without drawing (the branch labels left out)."""
        tree = self.tree
        kids = self.visible_children(collapsed=self.collapsed | self._nodes_at(levels))
        xs = layout(tree, kids, self.node_width)
        metrics = QFontMetricsF(self.font())
        level_height = {}
        for node in xs:
            height = self._box_height(self.describe(node), metrics)
            level = tree.depth[node]
            level_height[level] = max(level_height.get(level, 0), height)
        _, bottom = _level_tops(level_height)
        return (max(xs.values()) - min(xs.values()) + self.node_width + 4 + 2 * SCENE_MARGIN,
                bottom + 4 + 2 * SCENE_MARGIN)

    def deepest_drawn_level(self):
        """The depth of the deepest node drawn."""
        return max((self.tree.depth[node] for node in self.node_items), default=0)

    def levels_rect(self, levels=None):
        """The scene rectangle of the drawn boxes of the root and the next ``levels``
        levels (None: of all drawn boxes)."""
        rect = QRectF()
        for node, item in self.node_items.items():
            if levels is None or self.tree.depth[node] <= levels:
                rect = rect.united(item.sceneBoundingRect())
        return rect

    def _hidden_below(self, node, collapsed=None):
        """Whether the user's settings (with ``collapsed`` nodes instead of theirs, if
        given) hide the children of ``node``."""
        return node in (self.collapsed if collapsed is None else collapsed) or (
            self.max_depth is not None and self.tree.depth[node] >= self.max_depth)

    def visible_children(self, reveal=True, collapsed=None):
        """The children drawn of every node: none below a collapsed node (of
        ``collapsed``, if given, else the user's) or the depth limit, except
        (``reveal``) the next node of the traced path."""
        tree = self.tree
        kids = [() if self._hidden_below(node, collapsed) else tree.children[node]
                for node in range(tree.node_count)]
        if reveal:  # a traced path may divide (a missing value sent down every branch)
            for child in self.traced[1:]:
                parent = tree.parent[child]
                if child not in kids[parent]:
                    kids[parent] = tuple(c for c in tree.children[parent]
                                         if c in kids[parent] or c == child)
        return kids

    def _revealed(self):
        """The traced nodes that the user's settings would hide."""
        if self.tree is None or not self.traced:
            return set()
        return {node for node in self.traced
                if any(self._hidden_below(above) for above in self.tree.path(node)[:-1])}

    def _box_height(self, box, metrics):
        """The height of the box of a node whose :attr:`describe` is ``box``: what is
        drawn and what :meth:`drawn_size` measures."""
        title, text, _, _, _, coefficients = box
        n_bars = 0 if coefficients is None else min(len(coefficients.names), MAX_BARS)
        return self._node_height(title, text, n_bars, metrics)

    def _node_height(self, title, text, n_bars, metrics):
        """The height of a box: its title, the lines of its text (:func:`box_lines`), a
        bar chart of ``n_bars`` bars (none: 0), the rows and the distribution."""
        key = (text, title != "", n_bars, self.node_width)
        if key not in self._size_cache:
            lines = box_lines(text, metrics, self.node_width - 2 * PAD)
            self._size_cache[key] = (
                2 * PAD + (16 if title else 0) + len(lines) * metrics.lineSpacing() + 2
                + (bar_chart_height(n_bars, self.font()) + 3 if n_bars else 0)
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
            box = self.describe(node)
            title, text, tooltip, value, n, coefficients = box
            self.node_n[node] = n
            height = self._box_height(box, metrics)
            boxes[node] = (title, text, tooltip, coefficients, value, n, height)
            level = tree.depth[node]
            level_height[level] = max(level_height.get(level, 0), height)
        level_y, _ = _level_tops(level_height)
        self._add_nodes(xs, boxes, level_y, visible)
        self._add_edges(visible)
        self._style_edges()
        self.setSceneRect(self.itemsBoundingRect().adjusted(-SCENE_MARGIN, -SCENE_MARGIN,
                                                            SCENE_MARGIN, SCENE_MARGIN))

    def _add_nodes(self, xs, boxes, level_y, visible):
        tree = self.tree
        colors = class_colors(tree)
        for node, x in xs.items():
            title, text, tooltip, coefficients, value, n, height = boxes[node]
            # what hides the node's children: "" if they are drawn (or it has none)
            hidden = "" if not tree.children[node] or visible[node] else (
                "collapsed" if node in self.collapsed else "depth limit")
            item = NodeItem(node, self.node_width, height, title, text, coefficients,
                            value, n, node_fill(value, colors, self.color_by, self.target),
                            colors, hidden)
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
    and *Fit to width* ("" when the whole tree is in the window readably, else what the
    view shows instead).

    A new tree (:meth:`show_new_tree`) opens as *Fit* shows it: readable, with the root,
    its children and as many further levels as fit in the window, whatever the font's
    size; *Fit* never makes node text smaller than MIN_TEXT_PIXELS."""
    zoom_changed = Signal(float)
    fit_note = Signal(str)
    MIN_ZOOM, MAX_ZOOM = 0.05, 5.0
    #: the largest zoom of *Fit*, *Fit to width* and a new tree: they never enlarge the
    #: drawing
    MAX_FIT_ZOOM = 1.0

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

    def _fitting_zoom(self, width, height):
        """The zoom at which a drawing of ``width`` × ``height`` fills the window (at most
        MAX_FIT_ZOOM)."""
        room_width, room_height = self._room()
        return min(room_width / width, room_height / height, self.MAX_FIT_ZOOM)

    def fit_to_window(self, collapse=True):
        """The whole tree in the window, if its text stays readable (MIN_TEXT_PIXELS);
        else the root and as many of the next levels as fit readably, at least the
        root's children, the nodes below them collapsed (``collapse``; else the tree
        stays as drawn), the top in view and the rest left to scrolling.
        ``fit_note`` says which."""
        scene = self.scene()
        rect = scene.sceneRect()
        if rect.isEmpty():
            self.fit_note.emit("")
            return
        readable = self.readable_zoom()
        whole = self._fitting_zoom(rect.width(), rect.height())
        if whole >= readable:
            self._show(rect, whole)
            self.fit_note.emit("")
            return
        note = ("The whole tree is not readable in the window: the view shows its top at a "
                "readable size; scroll for the rest, or press Fit.")
        if collapse:
            levels = 1
            while (levels + 1 < scene.deepest_drawn_level()
                   and self._fitting_zoom(*scene.drawn_size(levels + 1)) >= readable):
                levels += 1
            scene.open_top_levels(levels)
            rect = scene.sceneRect()
            note = (f"The whole tree is not readable in the window: Fit shows "
                    f"{_top_levels(levels)} at a readable size, the nodes below them "
                    f"collapsed (double-click one, or Expand all, to open it)")
            note += "." if self._fitting_zoom(rect.width(), rect.height()) >= readable \
                else "; scroll for the rest."
        self._show(rect, max(readable, self._fitting_zoom(rect.width(), rect.height())))
        self.fit_note.emit(note)

    def _show(self, rect, zoom):
        """Zoom to ``zoom`` and show the scene's ``rect``: all of it if it fits, else its
        top, the drawn boxes centred."""
        self.set_zoom(zoom)
        self.updateSceneRect(self.scene().sceneRect())  # the scroll range of a redrawn scene
        width, height = self._room()
        x = (rect.center().x() if rect.width() * self.zoom <= width
             else self.scene().levels_rect().center().x())
        y = (rect.center().y() if rect.height() * self.zoom <= height
             else rect.top() + height / (2 * self.zoom))
        self.centerOn(x, y)

    def fit_to_width(self):
        """The tree's width in the window (never enlarged beyond MAX_FIT_ZOOM), its top
        shown; ``fit_note`` says when node text is then smaller than MIN_TEXT_PIXELS."""
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            self.fit_note.emit("")
            return
        width, _ = self._room()
        self._show(rect, min(width / rect.width(), self.MAX_FIT_ZOOM))
        pixels = self.text_pixels()
        self.fit_note.emit(
            "" if pixels >= MIN_TEXT_PIXELS - 1e-9 else
            f"At this zoom node text is {pixels:.1f} pixels high, too small to read "
            f"(under {MIN_TEXT_PIXELS}); zoom in, or press Fit for the top levels at a "
            f"readable size.")

    def show_new_tree(self):
        """The view after new drawing: *Fit*, the tree left as drawn.  For a new tree
        (:meth:`start_new_tree`), once the view is shown (when its size is known), *Fit*
        as the button does: if the whole tree is not readable in the window, the root
        and as many levels as fit readably, the nodes below them collapsed."""
        opening = self.opening and self.isVisible() and bool(self.scene().node_items)
        if opening:
            self.opening = False
        self.fit_to_window(collapse=opening)

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


def _top_levels(levels):
    """The root and the next ``levels`` levels, in words."""
    return "the root and its children" if levels == 1 else \
        f"the root and the next {levels} levels"


class ZoomControls(QWidget):
    """The zoom of a :class:`TreeView`: a slider in percent (5 to 300) that follows the
    view's zoom, buttons to zoom out and in, *Fit* (the whole tree in the window, if it
    is readable there) and *Fit to width*; a note when *Fit* cannot show the whole tree
    readably or *Fit to width* makes its text too small to read."""

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
                        "root and as many levels as fit readably, the nodes below them "
                        "collapsed", view.fit_to_window),
                ("Fit to width", "The tree's width in the window; a note says when its "
                                 "text is then too small to read", view.fit_to_width)):
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
        """Show what *Fit* or *Fit to width* did (nothing for "")."""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def follow(self, zoom):
        """Show the view's ``zoom`` on the slider (without zooming again)."""
        self.slider.blockSignals(True)
        self.slider.setValue(int(round(zoom * 100)))
        self.slider.blockSignals(False)
