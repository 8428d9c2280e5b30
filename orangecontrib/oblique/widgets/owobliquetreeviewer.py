"""Oblique Tree Viewer: hyperplane rules made readable and explorable.

The widget draws its own :class:`QGraphicsScene` rather than subclassing Orange's
``OWTreeViewer2D``: that base is built around Orange's ``TreeAdapter`` and HTML text boxes
of a fixed layout, while this viewer needs bar charts of coefficients, branch labels of
multiway nodes, collapsing, path highlighting and recounting by other data.  Everything
it shows comes from :class:`~orangecontrib.oblique.widgets.treeadapter.TreeAdapter`, which
knows the models.  As in Orange's tree viewer, the widget keeps the inputs, outputs,
settings and texts, and the drawing (nodes, edges, zoom, hover, collapse, selection) is
in :mod:`~orangecontrib.oblique.widgets.treescene`.
"""
import numpy as np

from AnyQt.QtCore import QSize, Qt
from AnyQt.QtWidgets import (QApplication, QFileDialog, QHBoxLayout, QLabel, QListWidget,
                             QPlainTextEdit, QPushButton, QSpinBox, QTabWidget, QVBoxLayout,
                             QWidget)

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
from orangecontrib.oblique.widgets.treeadapter import (DomainMismatchError, NotATreeError,
                                                       TreeAdapter, table_rows)
from orangecontrib.oblique.widgets.treescene import (EDGE_RELATIVE_TO_PARENT, TreeScene,
                                                     TreeView, class_colors)

try:  # the split explorer and the 2-D partition are optional views
    from orangecontrib.oblique.widgets import splitviews
except ImportError:  # pragma: no cover
    splitviews = None


class RulesPanel(QWidget):
    """The Rules tab: the IF … THEN rules given by ``rules_text()``, to copy or save
    exactly as shown; ``options`` (widgets, e.g. a check box) go left of the buttons and
    :attr:`note` says below the rules what they are."""

    def __init__(self, rules_text, parent=None, options=()):
        super().__init__(parent)
        self.rules_text = rules_text
        layout_ = QVBoxLayout(self)
        self.edit = QPlainTextEdit(readOnly=True)
        self.edit.setLineWrapMode(QPlainTextEdit.WidgetWidth)
        layout_.addWidget(self.edit)
        self.note = QLabel(wordWrap=True)
        layout_.addWidget(self.note)
        buttons = QHBoxLayout()
        for option in options:
            buttons.addWidget(option)
        for label, callback in (("Copy", self.copy), ("Save…", self.save)):
            button = QPushButton(label)
            button.clicked.connect(lambda _=False, c=callback: c())
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout_.addLayout(buttons)

    def update_text(self):
        self.edit.setPlainText(self.rules_text())

    def copy(self):
        QApplication.clipboard().setText(self.rules_text())

    def save(self, filename=None):
        if filename is None:
            filename, _ = QFileDialog.getSaveFileName(
                self, "Save rules", "rules.txt", "Text files (*.txt)")
            if not filename:
                return
        with open(filename, "w", encoding="utf-8") as file:
            file.write(self.rules_text())


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
        restore_mistyped_settings(self)  # a workflow saved by another version
        self.model = None
        self.view_tree = None
        self.input_data = None
        self.data = None          # the table whose rows are counted (input or training)
        self.counts = None

        box = gui.vBox(self.controlArea, "Tree")
        self.info_label = gui.widgetLabel(box, "No tree on input.")
        self.info_label.setWordWrap(True)

        box = gui.vBox(self.controlArea, "Display")
        gui.spin(box, self, "max_terms", 1, 20, label="Terms shown per rule: ",
                 callback=self._texts_changed, alignment=Qt.AlignRight, controlWidth=60)
        gui.comboBox(box, self, "coefficients", items=self.COEFFICIENTS,
                     label="Coefficients: ", orientation=Qt.Horizontal,
                     callback=self._units_changed)
        gui.spin(box, self, "max_depth", 1, 100, label="Limit the depth to: ",
                 checked="limit_depth", callback=self._redraw,
                 checkCallback=self._redraw, alignment=Qt.AlignRight, controlWidth=60)
        gui.hSlider(box, self, "node_width", minValue=120, maxValue=420, step=10,
                    label="Node width: ", callback=self._redraw, createLabel=False)
        gui.comboBox(box, self, "color_by", items=self.COLOR_BY, label="Colour by: ",
                     orientation=Qt.Horizontal, callback=self._recolor)
        self.target_class_index = 0  # in the combo: 0 is "None", then the class values
        self.target_combo = gui.comboBox(
            box, self, "target_class_index", items=["None"], label="Target class: ",
            orientation=Qt.Horizontal, callback=self._target_changed,
            tooltip="None: the colour of a node's majority class, paler the less pure; "
                    "a class: that class's colour, paler the smaller its share.")
        gui.comboBox(box, self, "edge_width", items=self.EDGE_WIDTHS, label="Edge width: ",
                     orientation=Qt.Horizontal, callback=self._edge_width_changed,
                     tooltip="Edge widths proportional to the training instances that "
                             "take the branch, relative to the root's or the parent's.")
        self.zoom_percent = 100
        self.zoom_slider = gui.hSlider(
            box, self, "zoom_percent", minValue=5, maxValue=300, step=5, label="Zoom: ",
            callback=self._zoom_slider_moved, createLabel=False)
        row = gui.hBox(box)
        gui.button(row, self, "−", callback=lambda: self.view.zoom_by(0.8), width=28,
                   tooltip="Zoom out")
        gui.button(row, self, "+", callback=lambda: self.view.zoom_by(1.25), width=28,
                   tooltip="Zoom in")
        gui.button(row, self, "Fit", callback=self.fit_to_window,
                   tooltip="The whole tree in the window")
        gui.button(row, self, "Fit to width", callback=self.fit_to_width,
                   tooltip="The tree's width in the window")
        gui.button(box, self, "Expand all", callback=lambda: self.scene.expand_all())
        gui.widgetLabel(box, "Double-click a node to collapse or expand it.").setWordWrap(
            True)

        box = gui.vBox(self.controlArea, "Path of a row")
        # rows are numbered from 1, as in Orange's Data Table; 0 is "(none)"
        self.row_spin = QSpinBox(minimum=0, maximum=0, value=0)
        self.row_spin.setSpecialValueText("(none)")
        self.row_spin.valueChanged.connect(lambda number: self.trace_row(number - 1))
        gui.widgetLabel(box, "Row of the data (from 1):")
        box.layout().addWidget(self.row_spin)
        self.path_note = gui.widgetLabel(box, "")
        self.path_note.setWordWrap(True)
        self.path_note.hide()
        self.path_list = QListWidget()
        self.path_list.setWordWrap(True)
        self.path_list.setMinimumHeight(140)
        box.layout().addWidget(self.path_list)
        self.controlArea.layout().addStretch(1)

        self.tabs = QTabWidget()
        self.mainArea.layout().addWidget(self.tabs)
        self.scene = TreeScene(self)
        self.scene.nodes_selected.connect(self._on_selection_changed)
        self.scene.collapse_toggled.connect(self._store_paths)
        self.view = TreeView(self.scene)
        self.view.zoom_changed.connect(self._zoom_changed)
        self.tabs.addTab(self.view, "Tree")

        full_rules = gui.checkBox(None, self, "full_rules", "Show full rules",
                                  callback=self._update_rules,
                                  tooltip="Every term of every hyperplane; else as many as "
                                          "'Terms shown per rule'. Copy and Save take the "
                                          "rules as shown.")
        self.rules_panel = RulesPanel(self.rules_text, options=[full_rules])
        self.tabs.addTab(self.rules_panel, "Rules")
        # what the numbers of every rule are: shown under every tab
        self.units_label = QLabel(wordWrap=True)
        self.mainArea.layout().addWidget(self.units_label)

        self.split_explorer = self.partition_view = None
        if splitviews is not None:
            self.split_explorer = splitviews.SplitExplorer()
            self.tabs.addTab(self.split_explorer, "Split explorer")
            self.partition_view = splitviews.PartitionView()
            self.tabs.addTab(self.partition_view, "Partition")
        clamp_settings_to_controls(self)

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
        if model is not None:
            try:
                self.view_tree = TreeAdapter.from_model(model)
                self.model = model
            except NotATreeError as error:
                self.Error.not_a_tree(str(error))
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
                scene.selected = self._nodes_at(self.selected_paths)
                scene.collapsed = self._nodes_at(self.collapsed_paths)
            self.tree_fingerprint = fingerprint
        self._count_rows()
        self._update_info()
        self._redraw()
        self.view.show_new_tree()
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
        self.row_spin.setMaximum(0 if self.data is None else len(self.data))
        self.row_spin.setValue(0)
        self.row_spin.blockSignals(False)
        self.scene.traced = []
        self.path_list.clear()
        self.path_note.hide()

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
            f"{self._split_summary()}\nCounts from {source}.")

    def _split_summary(self):
        """How oblique the tree is: "k of n splits oblique, m attributes per split on
        average", from the model's split statistics (else its core tree's); Orange's own
        trees test one attribute per split."""
        tree = self.view_tree
        try:
            statistics = (int(self.model.n_splits), int(self.model.n_oblique_splits),
                          float(self.model.mean_attributes_per_split))
        except (AttributeError, TypeError, ValueError):
            core = getattr(tree, "tree", None)
            statistics = None
            if core is not None:
                stats = core.split_statistics()
                statistics = (stats.n_splits, stats.n_oblique_splits,
                              stats.mean_attributes_per_split)
        if statistics is None:  # Orange's own tree
            n_splits = tree.node_count - len(tree.leaves())
            return f"All {n_splits} split{_s(n_splits)} axis-parallel."
        n_splits, oblique, mean = statistics
        if not n_splits:
            return "No splits: the tree is a single leaf."
        return (f"{oblique} of {n_splits} split{_s(n_splits)} oblique, "
                f"{format_number(mean, 1)} attributes per split on average.")

    # ----- units and shortening of the texts -----
    def _set_units(self):
        """Give the tree's texts the chosen units and say on screen what they are."""
        self.Information.raw_units.clear()
        tree = self.view_tree
        if tree is None:
            self.units_label.setText("")
            return
        tree.set_units(self.coefficients == self.PER_SD)
        if self.coefficients == self.PER_SD and not tree.per_sd:
            self.Information.raw_units(
                "Orange's tree tests one attribute at a time" if not hasattr(tree, "texts")
                else "the model does not keep its training rows, over which the means "
                     "and standard deviations are taken")
        name = tree.example_attribute()
        if tree.per_sd:
            self.units_label.setText(
                f"Weights per standard deviation of each attribute: a term 0.8·z({name}) "
                f"means 0.8 per SD of {name}; z = (x − mean)/SD over the model's training "
                f"rows, and the thresholds are in these units too.")
        else:
            self.units_label.setText(
                f"Weights in the attributes' own (raw) units: a term 0.8·{name} means 0.8 "
                f"per unit of {name}.")

    def _units_changed(self):
        self._set_units()
        self._texts_changed()

    def _texts_changed(self):
        """Redraw everything that shows a rule: boxes, tooltips, rules, the traced path."""
        self._redraw()
        self._update_rules()
        if self.row_spin.value() > 0:
            self.trace_row(self.row_spin.value() - 1)

    def _rules_max_terms(self):
        return None if self.full_rules else self.max_terms

    def _update_rules(self):
        self.rules_panel.update_text()
        self.rules_panel.note.setText(self._rules_note())

    def _rules_note(self):
        tree = self.view_tree
        if tree is not None and not self.full_rules and (
                tree.rules_text(None, self.max_terms) == tree.rules_text(None)):
            return (f"No hyperplane has more than {self.max_terms} term"
                    f"{'s' if self.max_terms != 1 else ''}: these are the full rules.")
        if self.full_rules:
            return ("Full rules: every term of every hyperplane; each condition holds for "
                    "exactly the training rows the model sends that way.")
        return (f"Hyperplanes shortened to {self.max_terms} term"
                f"{'s' if self.max_terms != 1 else ''} (\"+ n more\"), as in the tree; "
                f"check \"Show full rules\" for complete conditions.")

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
            title, text, tooltip = "", short, short
        distribution = ", ".join(f"{name}: {format_number(count)}"
                                 for name, count in zip(tree.class_values, value))
        tooltip = f"{tooltip}\n\n{self.node_n(node)} rows — {distribution}"
        if node:
            branch = tree.condition(node, self.max_terms)
            tooltip = f"Branch: {branch}\n\n{tooltip}"
        shortened = (not tree.is_leaf(node) and short != full) or (
            node and branch != tree.conditions[node])
        if shortened:
            tooltip += (f"\n\nShortened to {self.max_terms} terms per hyperplane: the Rules "
                        f"tab with \"Show full rules\" gives every term.")
        return title, text, tooltip

    def _describe(self, node):
        """What the box of ``node`` shows: title, text, tooltip, class counts, rows."""
        return (*self.node_texts(node), self.node_value(node), self.node_n(node))

    # ----- drawing -----
    def _redraw(self):
        self.scene.draw(self.view_tree, self._describe, self.node_width,
                        self.max_depth if self.limit_depth else None, self.color_by,
                        self._target(), self.edge_width, self._subset_n())
        self._note_revealed(self.scene.revealed)

    def _subset_n(self):
        """Rows of the Data input reaching every node (whose paths the tree highlights),
        or None without a Data input."""
        if self.counts is None or self.data is None or self.data is not self.input_data:
            return None
        return self.counts.n

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

    def _zoom_slider_moved(self):
        self.view.set_zoom(self.zoom_percent / 100)

    def _zoom_changed(self, zoom):
        self.zoom_percent = int(round(zoom * 100))

    # ----- selection -----
    def _on_selection_changed(self):
        self._store_paths()
        self._update_split_explorer()
        self.commit()

    def select_nodes(self, nodes):
        """Select exactly ``nodes`` (ids of visible nodes) and send the outputs."""
        self.scene.select(nodes)

    def _store_paths(self):
        tree = self.view_tree
        if tree is None:
            return
        self.selected_paths = [list(tree.branch_path(n)) for n in sorted(self.selected)]
        self.collapsed_paths = [list(tree.branch_path(n))
                                for n in sorted(self.scene.collapsed)]

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
        """Trace the row ``row`` (an index from 0; the spin box shows it from 1, as
        Orange's Data Table does; -1: none): its path in words, highlighted in the tree
        and scrolled into view.  The settings stay as they are: nodes of the path below
        the depth limit or in a collapsed subtree are drawn while it is traced, and the
        note says so."""
        self.path_list.clear()
        traced = []
        if row >= 0 and self.view_tree is not None and self.data is not None:
            steps = self.view_tree.row_path(self.data, row, self.max_terms)
            traced = [node for node, _, _ in steps]
            self.path_list.addItem(f"Row {row + 1}:")
            for node, _, words in steps:
                if words == "leaf":
                    title, text, _ = self.node_texts(node)
                    self.path_list.addItem(f"{self._node_name(node)}: predicts {title} "
                                           f"({text})")
                else:
                    self.path_list.addItem(f"{self._node_name(node)}: {words}")
        revealed = self.scene.trace(traced)
        self._note_revealed(revealed)
        if traced:
            self.view.show_path()

    def _node_name(self, node):
        return "Root" if node == 0 else (
            "Leaf" if self.view_tree.is_leaf(node) else f"Node at depth "
                                                        f"{self.view_tree.depth[node]}")

    def _note_revealed(self, revealed):
        """Say when the traced path goes where the settings would not draw it."""
        if not revealed:
            self.path_note.hide()
            return
        reasons = []
        depth = self.max_depth if self.limit_depth else None
        if depth is not None and any(self.view_tree.depth[n] > depth for n in revealed):
            reasons.append(f"below the depth limit ({depth})")
        if any(n in self.scene.collapsed or
               any(a in self.scene.collapsed for a in self.view_tree.path(n)[:-1])
               for n in revealed):
            reasons.append("into a collapsed subtree")
        self.path_note.setText(
            f"The path goes {' and '.join(reasons) or 'beyond the drawn nodes'}: its "
            f"{len(revealed)} node{_s(len(revealed))} there "
            f"{'is' if len(revealed) == 1 else 'are'} drawn only while the row is traced.")
        self.path_note.show()

    # ----- rules -----
    def rules_text(self):
        """The rules as the Rules tab shows them (and Copy, Save and the report take)."""
        if self.view_tree is None:
            return ""
        return self.view_tree.rules_text(self.counts, self._rules_max_terms())

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
        self.split_explorer.set_node(core, self.view_tree.core_node(node), X, y, class_colors(self.view_tree),
                                     self.view_tree.vocabulary, self.view_tree.class_values)

    def _show_partition(self):
        if self.partition_view is None:
            return
        core = self._core_tree()
        if core is None or self.data is None:
            self.partition_view.clear()
            return
        X, y = self._rows_without_nan()
        self.partition_view.set_model(self.model, X, y, class_colors(self.view_tree),
                                      self.view_tree.names, self.view_tree.class_values)

    # ----- report -----
    def send_report(self):
        if self.view_tree is None:
            return
        tree = self.view_tree
        self.report_items("Tree", (
            ("Model", getattr(self.model, "name", type(self.model).__name__)),
            ("Nodes", tree.node_count), ("Leaves", len(tree.leaves())),
            ("Depth", max(tree.depth)), ("Splits", self._split_summary()),
            ("Coefficients", self.COEFFICIENTS[self.PER_SD if tree.per_sd else self.RAW]),
            ("Counts from", "Data input" if self.data is not None
             and self.data is self.input_data else "training data")))
        self.report_plot()
        complete = self.full_rules or tree.rules_text(None, self.max_terms) == \
            tree.rules_text(None)
        self.report_caption("Rules (complete)" if complete else
                            f"Rules (hyperplanes shortened to {self.max_terms} "
                            f"term{_s(self.max_terms)})")
        self.report_raw("<pre>" + _escape(self.rules_text()) + "</pre>")


def _s(count):
    return "" if count == 1 else "s"


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.oblique.learners import GeometricTreeLearner
    iris = Table("iris")
    WidgetPreview(OWObliqueTreeViewer).run(set_tree=GeometricTreeLearner()(iris))
