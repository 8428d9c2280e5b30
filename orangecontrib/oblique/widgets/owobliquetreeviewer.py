"""Oblique Tree Viewer: hyperplane rules made readable and explorable.

The widget draws its own :class:`QGraphicsScene` rather than subclassing Orange's
``OWTreeViewer2D``: that base is built around Orange's ``TreeAdapter`` and HTML text boxes
of a fixed layout, while this viewer needs bar charts of coefficients, branch labels of
multiway nodes, collapsing, path highlighting and recounting by other data.  Everything
it shows comes from :class:`~orangecontrib.oblique.widgets.treeadapter.TreeAdapter`, which
knows the models.  As in Orange's tree viewer, the widget keeps the inputs, outputs,
settings, messages and the report, and passes the work on:

* :mod:`~orangecontrib.oblique.widgets.treescene` draws the tree (nodes, edges, zoom,
  hover, collapse, selection, a traced path);
* :mod:`~orangecontrib.oblique.widgets.viewertexts` writes what the viewer says (node
  boxes and tooltips, the summary of the splits, the units, the rules' note, a path);
* :class:`~orangecontrib.oblique.widgets.rowpath.RowPathPanel` chooses a row and shows its
  path, :class:`~orangecontrib.oblique.widgets.rulespanel.RulesPanel` the rules, and
  :mod:`~orangecontrib.oblique.widgets.optionalviews` the split explorer and partition.
"""
import math
from html import escape

import numpy as np

from AnyQt.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from AnyQt.QtGui import QImage, QPainter
from AnyQt.QtWidgets import QLabel, QTabWidget

import Orange.tree
from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.annotated_data import (ANNOTATED_DATA_SIGNAL_NAME,
                                                 create_annotated_table)
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.oblique.widgets.optionalviews import (add_optional_views, show_partition,
                                                         show_split)
from orangecontrib.oblique.widgets.rowpath import RowPathPanel, with_path_below
from orangecontrib.oblique.widgets.rulespanel import RulesPanel
from orangecontrib.oblique.widgets.treeadapter import NotATreeError, TreeAdapter, table_rows
from orangecontrib.oblique.widgets.treescene import (EDGE_RELATIVE_TO_PARENT,
                                                     MIN_TEXT_PIXELS, TreeScene, TreeView,
                                                     ZoomControls, text_pixels)
from orangecontrib.oblique.widgets.utils import (SETTINGS_RESTORED,
                                                 clamp_settings_to_controls,
                                                 restore_mistyped_settings,
                                                 show_restored_settings)
from orangecontrib.oblique.widgets import viewertexts


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
        rules_not_saved = Msg("The rules could not be saved to {}: {}.")

    class Warning(OWWidget.Warning):
        view_failed = Msg("The {} view could not be drawn: {}")
        no_rows = Msg("The model does not keep its training rows; connect Data to "
                      "select rows.")
        settings_restored = Msg(SETTINGS_RESTORED)

    class Information(OWWidget.Information):
        raw_units = Msg("Coefficients are shown in raw units: {}.")

    graph_name = "scene"
    #: 2: ``target_class`` and ``edge_width`` (new, with defaults); the depth limit and
    #: the collapsed nodes are no longer changed by tracing a row
    settings_version = 2

    max_terms = Setting(3)
    #: index into COEFFICIENTS: the units of the hyperplanes' weights
    coefficients = Setting(0)
    #: the Rules tab (and its copy, save and report) with every term of every hyperplane
    full_rules = Setting(False)
    limit_depth = Setting(False)
    max_depth = Setting(6)
    node_width = Setting(220)
    color_by = Setting(0)
    #: the class whose share colours the boxes (Orange's "Target class"); "" for none:
    #: the boxes then have the colour of their majority class
    target_class = Setting("")
    #: index into EDGE_WIDTHS: edge widths proportional to the instances (Orange's rule)
    edge_width = Setting(EDGE_RELATIVE_TO_PARENT)
    #: the selection and the collapsed nodes as branch paths; restored only for the tree
    #: with the same fingerprint
    selected_paths = Setting([], schema_only=True)
    collapsed_paths = Setting([], schema_only=True)
    tree_fingerprint = Setting("", schema_only=True)

    COLOR_BY = ("Class", "Impurity")
    EDGE_WIDTHS = ("Fixed", "Relative to root", "Relative to parent")
    COEFFICIENTS = ("raw units", "per standard deviation")
    RAW, PER_SD = 0, 1

    def __init__(self):
        super().__init__()
        # a workflow saved by another version
        restored = restore_mistyped_settings(self)
        self.model = self.view_tree = self.input_data = self.not_shown = None
        #: the node whose split chose the partition's axes (None: the root's)
        self._partition_shown_for = None
        # the table whose rows are counted (the Data input or the training rows), and how
        # its rows pass through the tree
        self.data = self.counts = None

        box = gui.vBox(self.controlArea, "Tree")
        self.info_label = gui.widgetLabel(box, "No tree on input.")
        self.info_label.setWordWrap(True)

        box = gui.vBox(self.controlArea, "Display")
        self.target_class_index = 0  # in the combo: 0 is "None", then the class values
        self.target_combo = _add_display_controls(self, box)
        # the drawing (in the Tree tab), here for the zoom controls that act on its view
        self.scene = TreeScene(self)
        self.scene.nodes_selected.connect(self._on_selection_changed)
        self.scene.collapse_toggled.connect(self._store_paths)
        self.view = TreeView(self.scene)
        self.zoom_controls = ZoomControls(self.view)
        box.layout().addWidget(self.zoom_controls)
        gui.button(box, self, "Expand all", callback=lambda: self.scene.expand_all())
        gui.widgetLabel(box, "Double-click a node to collapse or expand it.").setWordWrap(
            True)
        self.controlArea.layout().addStretch(1)

        self.tabs = QTabWidget()
        self.tabs.addTab(self.view, "Tree")
        full_rules = gui.checkBox(None, self, "full_rules", "Show full rules",
                                  callback=self._update_rules,
                                  tooltip="Every term of every hyperplane; else as many as "
                                          "'Terms shown per rule'. Copy and Save take the "
                                          "rules as shown.")
        self.rules_panel = RulesPanel(self.rules_text, options=[full_rules])
        self.rules_panel.save_failed.connect(self.Error.rules_not_saved)
        self.rules_panel.saved.connect(lambda _: self.Error.rules_not_saved.clear())
        self.tabs.addTab(self.rules_panel, "Rules")
        self.split_explorer, self.partition_view = add_optional_views(self.tabs)
        self.path_panel = RowPathPanel()
        self.path_panel.row_chosen.connect(self.trace_row)
        # the path panel's controls, as scripts and tests reach them
        self.row_spin, self.path_list, self.path_note = (
            self.path_panel.row_spin, self.path_panel.path_list, self.path_panel.path_note)
        # under the tabs: what the numbers of every rule are (for every tab)
        self.units_label = QLabel(wordWrap=True, textFormat=Qt.PlainText)  # names in it
        self.mainArea.layout().addWidget(
            with_path_below([self.tabs, self.units_label], self.path_panel))
        clamp_settings_to_controls(self)
        show_restored_settings(self.Warning.settings_restored, restored)

    @classmethod
    def migrate_settings(cls, settings, version):
        """Workflows saved by version 1 keep every value; the settings new in version 2
        (``target_class``, ``edge_width``) take their defaults."""
        if version is None or version < 2:
            settings.pop("target_class", None)
            settings.pop("edge_width", None)

    def sizeHint(self):
        return QSize(1100, 700)

    @property
    def items(self):
        """The drawn node boxes by node id."""
        return self.scene.node_items

    @property
    def selected(self):
        """Ids of the selected nodes (also those in a collapsed subtree)."""
        return self.scene.selected

    # ----- inputs -----
    @Inputs.tree
    def set_tree(self, model):
        self.Error.not_a_tree.clear()
        self.model = self.view_tree = None
        #: what the info box says of a model on the Tree input that cannot be shown
        self.not_shown = None
        if model is not None:
            try:
                self.view_tree = TreeAdapter.from_model(model)
                self.model = model
            except NotATreeError as error:
                self.Error.not_a_tree(str(error))
                self.not_shown = error.info
        self._set_units()
        self._fill_target_combo()

    def _fill_target_combo(self):
        """"None" and the class values of the tree; the stored target class chosen if the
        tree has it."""
        values = [] if self.view_tree is None else self.view_tree.class_values
        self.target_combo.clear()
        self.target_combo.addItems(["None"] + list(values))
        index = values.index(self.target_class) + 1 if self.target_class in values else 0
        self.target_class_index = index
        self.target_combo.setCurrentIndex(index)

    def _target(self):
        """The index of the target class, or None."""
        return self.target_class_index - 1 if self.target_class_index > 0 else None

    @Inputs.data
    def set_data(self, data):
        self.input_data = data

    def handleNewSignals(self):
        previous = self.tree_fingerprint
        scene = self.scene
        scene.selected, scene.collapsed = set(), set()
        if self.view_tree is not None:
            fingerprint = self.view_tree.fingerprint()
            if fingerprint == previous:  # the same tree again (or a restored workflow)
                scene.selected = self.view_tree.nodes_at(self.selected_paths)
                scene.collapsed = self.view_tree.nodes_at(self.collapsed_paths)
            self.tree_fingerprint = fingerprint
        new_tree = self.view_tree is not None and self.tree_fingerprint != previous
        self._count_rows()
        self._update_info()
        self._redraw()
        if new_tree:  # opens with its top levels; a restored one as it was saved
            self.view.start_new_tree()
        else:
            self.view.show_new_tree()
        self._update_rules()
        self._update_partition()
        self._store_paths()
        self.commit()

    def _count_rows(self):
        """Count the Data input's rows, else the model's training rows, if either fits."""
        self.Error.data_mismatch.clear()
        self.Warning.no_rows.clear()
        self.data = self.counts = None
        if self.view_tree is not None:
            self.data, self.counts, mismatch = self.view_tree.counted(self.input_data)
            if mismatch is not None:
                self.Error.data_mismatch(mismatch)
            if self.data is None and self.input_data is None:
                self.Warning.no_rows()
        self.path_panel.reset(0 if self.data is None else len(self.data))
        self.scene.traced = []

    def _counts_from_input(self):
        """Whether the rows counted are the Data input's."""
        return self.data is not None and self.data is self.input_data

    def _update_info(self):
        if self.view_tree is None:
            self.info_label.setText(self.not_shown or "No tree on input.")
            return
        source = ("the Data input" if self._counts_from_input()
                  else "the training data" if self.data is not None else "the model")
        self.info_label.setText(viewertexts.tree_summary(self.model, self.view_tree, source))

    # ----- units and shortening of the texts -----
    def _set_units(self):
        """Give the tree's texts the chosen units and say on screen what they are."""
        self.Information.raw_units.clear()
        tree = self.view_tree
        if tree is None:
            self.units_label.setText("")
            self.units_label.hide()
            return
        tree.set_units(self.coefficients == self.PER_SD)
        if self.coefficients == self.PER_SD and not tree.per_sd:
            self.Information.raw_units(tree.raw_units_reason)
        sentence = viewertexts.units_sentence(tree)
        self.units_label.setText(sentence)
        self.units_label.setVisible(bool(sentence))

    def _units_changed(self):
        self._set_units()
        self._texts_changed()

    def _texts_changed(self):
        """Redraw everything that shows a rule: boxes, tooltips, rules, the traced path."""
        self._redraw()
        self._update_rules()
        if self.path_panel.row() >= 0:
            self.trace_row(self.path_panel.row())

    def _update_rules(self):
        self.rules_panel.update_text(
            viewertexts.rules_note(self.view_tree, self.full_rules, self.max_terms))

    # ----- node statistics -----
    def node_n(self, node):
        """Number of rows shown for ``node``: of the counted data, else the model's."""
        return viewertexts.node_n(self.view_tree, self.counts, node)

    def node_texts(self, node):
        """(title, text, tooltip) of a node box."""
        return viewertexts.node_texts(self.view_tree, self.counts, node, self.max_terms)

    # ----- drawing -----
    def _depth_limit(self):
        return self.max_depth if self.limit_depth else None

    def _redraw(self):
        def describe(node):
            return viewertexts.node_box(self.view_tree, self.counts, node, self.max_terms)
        self.scene.draw(self.view_tree, describe, self.node_width, self._depth_limit(),
                        self.color_by, self._target(), self.edge_width, self._subset_n())
        self._note_revealed(self.scene.revealed)

    def _subset_n(self):
        """Rows of the Data input reaching every node (whose paths the tree highlights),
        or None without a Data input."""
        return self.counts.n if self._counts_from_input() else None

    def _recolor(self):
        self.scene.recolor(self.color_by, self._target())

    def _target_changed(self):
        target = self._target()
        self.target_class = "" if target is None else self.view_tree.class_values[target]
        self._recolor()

    def _edge_width_changed(self):
        self.scene.set_edge_width(self.edge_width)

    def showEvent(self, event):
        super().showEvent(event)
        self.view.show_new_tree()

    def fit_to_window(self):
        self.view.fit_to_window()

    def fit_to_width(self):
        self.view.fit_to_width()

    # ----- selection -----
    def _on_selection_changed(self):
        self._store_paths()
        self._update_split_explorer()
        if self._partition_node() != self._partition_shown_for:
            self._update_partition()
        self.commit()

    def select_nodes(self, nodes):
        """Select exactly ``nodes`` (ids of visible nodes) and send the outputs."""
        self.scene.select(nodes)

    def _store_paths(self):
        """Keep the selected and collapsed nodes in the settings, as branch paths."""
        if self.view_tree is not None:
            self.selected_paths = self.view_tree.branch_paths(self.selected)
            self.collapsed_paths = self.view_tree.branch_paths(self.scene.collapsed)

    def selected_rows(self):
        if self.counts is None:
            return np.empty(0, dtype=int)
        return self.counts.rows_reaching(self.selected)

    def commit(self):
        data = self.data
        rows = self.selected_rows()
        self.Outputs.selected_data.send(table_rows(data, rows))
        self.Outputs.annotated_data.send(
            None if data is None else create_annotated_table(data, rows))

    # ----- paths -----
    def trace_row(self, row):
        """Trace the row ``row`` (an index from 0; the spin box shows it from 1, as
        Orange's Data Table does; -1: none): its path in words, highlighted in the tree
        and scrolled into view.  The settings stay as they are: nodes of the path below
        the depth limit or in a collapsed subtree are drawn while it is traced, and the
        note says so."""
        lines, traced = [], []
        if row >= 0 and self.view_tree is not None and self.data is not None:
            steps = self.view_tree.row_path(self.data, row, self.max_terms)
            traced = [step.node for step in steps]
            lines = viewertexts.path_lines(self.view_tree, self.counts, row, steps,
                                           self.max_terms,
                                           self.view_tree.row_distribution(self.data, row))
        self.path_panel.show_path(lines)
        self._note_revealed(self.scene.trace(traced))
        if traced:
            self.view.show_path()

    def _note_revealed(self, revealed):
        """Say when the traced path goes where the settings would not draw it."""
        self.path_panel.show_note(viewertexts.revealed_note(
            self.view_tree, revealed, self._depth_limit(), self.scene.collapsed))

    # ----- rules -----
    def rules_text(self):
        """The rules as the Rules tab shows them (and Copy, Save and the report take)."""
        if self.view_tree is None:
            return ""
        return self.view_tree.rules_text(self.counts,
                                         None if self.full_rules else self.max_terms)

    # ----- split explorer and partition -----
    def _update_split_explorer(self):
        self._guarded("split explorer", show_split, self.split_explorer, self.view_tree,
                      self.counts, self.data, self.selected)

    def _partition_node(self):
        """The node whose split chooses the partition's axes: the one selected internal
        node, else None (the root)."""
        internal = [node for node in self.selected
                    if self.view_tree is not None and not self.view_tree.is_leaf(node)]
        return internal[0] if len(internal) == 1 else None

    def _update_partition(self):
        """The partition, its axes first those of the selected split (one selected
        internal node), else of the root's."""
        self._partition_shown_for = self._partition_node()
        self._guarded("partition", show_partition, self.partition_view, self.model,
                      self.view_tree, self.data, self._partition_shown_for)

    def _guarded(self, name, show, *args):
        """Draw an optional view; a failure there must not break the tree view."""
        self.Warning.view_failed.clear()
        try:
            show(*args)
        except Exception as error:  # pylint: disable=broad-except
            self.Warning.view_failed(name, error)

    # ----- report -----
    def send_report(self):
        if self.view_tree is None:
            return
        tree = self.view_tree
        self.report_items("Tree", viewertexts.report_items(
            self.model, tree, self.COEFFICIENTS[self.PER_SD if tree.per_sd else self.RAW],
            self._counts_from_input()))
        self.report_raw(report_picture(self.scene))
        self.report_caption(escape(viewertexts.rules_caption(tree, self.full_rules,
                                                             self.max_terms)))
        # one rule a paragraph, wrapped at the page's edge (a hyperplane's rule is long)
        self.report_raw('<pre style="white-space: pre-wrap">'
                        + escape(self.rules_text(), quote=False) + "</pre>")


#: The largest picture of the tree in a report: at most this many pixels a side and in all.
REPORT_PICTURE_SIDE = 8000
REPORT_PICTURE_PIXELS = 16_000_000


def report_picture(scene):
    """The report's picture of the tree as drawn (collapsed nodes and the depth limit as
    the user set them): an ``<img>`` of the scene, scaled down to at most
    REPORT_PICTURE_SIDE pixels a side and REPORT_PICTURE_PIXELS in all; if the node text
    would then be too small to read (under MIN_TEXT_PIXELS), or the image cannot be made
    (too little memory), a sentence saying the picture was left out, and why."""
    rect = scene.sceneRect()
    if rect.isEmpty():
        return ""
    width, height = rect.width(), rect.height()
    scale = min(1.0, REPORT_PICTURE_SIDE / width, REPORT_PICTURE_SIDE / height,
                math.sqrt(REPORT_PICTURE_PIXELS / (width * height)))
    left_out = (f"<p>The picture of the tree is left out: drawn as it is in the viewer it "
                f"is {width:,.0f} × {height:,.0f} pixels, {{}}. Collapse nodes or limit the "
                f"depth for a picture; the rules below give every node.</p>")
    if scale * text_pixels(scene.font()) < MIN_TEXT_PIXELS:
        return left_out.format("too large to read in a report")
    image = QImage(max(1, math.floor(width * scale)), max(1, math.floor(height * scale)),
                   QImage.Format_ARGB32_Premultiplied)
    if image.isNull():
        return left_out.format("too large for the memory left")
    image.fill(Qt.white)
    painter = QPainter(image)
    painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, image.width(), image.height()), rect)
    painter.end()
    png = QByteArray()
    buffer = QBuffer(png)
    buffer.open(QIODevice.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return f'<img src="data:image/png;base64,{png.toBase64().data().decode("ascii")}"/>'


def _add_display_controls(widget, box):
    """The viewer's Display controls in ``box``; returns the target class combo."""
    # pylint: disable=protected-access  # (the widget's own callbacks)
    gui.spin(box, widget, "max_terms", 1, 20, label="Terms shown per rule: ",
             callback=widget._texts_changed, alignment=Qt.AlignRight, controlWidth=60)
    gui.comboBox(box, widget, "coefficients", items=widget.COEFFICIENTS,
                 label="Coefficients: ", orientation=Qt.Horizontal,
                 callback=widget._units_changed)
    gui.spin(box, widget, "max_depth", 1, 100, label="Limit the depth to: ",
             checked="limit_depth", callback=widget._redraw,
             checkCallback=widget._redraw, alignment=Qt.AlignRight, controlWidth=60)
    gui.hSlider(box, widget, "node_width", minValue=120, maxValue=420, step=10,
                label="Node width: ", callback=widget._redraw, createLabel=False)
    gui.comboBox(box, widget, "color_by", items=widget.COLOR_BY, label="Colour by: ",
                 orientation=Qt.Horizontal, callback=widget._recolor)
    target_combo = gui.comboBox(
        box, widget, "target_class_index", items=["None"], label="Target class: ",
        orientation=Qt.Horizontal, callback=widget._target_changed,
        tooltip="None: the colour of a node's majority class, paler the less pure; "
                "a class: that class's colour, paler the smaller its share.")
    gui.comboBox(box, widget, "edge_width", items=widget.EDGE_WIDTHS, label="Edge width: ",
                 orientation=Qt.Horizontal, callback=widget._edge_width_changed,
                 tooltip="Edge widths proportional to the training instances that "
                         "take the branch, relative to the root's or the parent's.")
    return target_combo


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.oblique.learners import GeometricTreeLearner
    iris = Table("iris")
    WidgetPreview(OWObliqueTreeViewer).run(set_tree=GeometricTreeLearner()(iris))
