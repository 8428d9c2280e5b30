"""The path panel of the Oblique Tree Viewer: choose a row, read its path in words."""
from AnyQt.QtCore import Qt, pyqtSignal as Signal
from AnyQt.QtWidgets import (QHBoxLayout, QLabel, QListWidget, QSpinBox, QSplitter,
                             QVBoxLayout, QWidget)

#: the path panel's height once a row is chosen: the steps of a path of four or five
#: nodes, so that they are in sight at the viewer's default size (until then the panel
#: is collapsed to its heading)
PATH_PANEL_HEIGHT = 180


class RowPathPanel(QWidget):
    """"Path of a row": a spin box that chooses a row of the data, the steps of the row's
    path in words (:attr:`path_list`), and a note (:attr:`path_note`) when the path goes
    where the tree is not drawn.

    Rows are numbered from 1 in the spin box, as in Orange's Data Table; 0 is "(none)".
    Signal :attr:`row_chosen` gives the chosen row as an index from 0 (-1: none).  The
    path's list is hidden until there is a path to show (the panel is then only its
    heading); :attr:`expanded` says when it appears or goes.
    """

    row_chosen = Signal(int)
    expanded = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout_ = QVBoxLayout(self)
        layout_.setContentsMargins(0, 4, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(QLabel("<b>Path of a row</b> (from 1):"))
        self.row_spin = QSpinBox(minimum=0, maximum=0, value=0, toolTip=(
            "A row of the data, numbered from 1 as in Orange's Data Table: of the Data "
            "input, else of the training data."))
        self.row_spin.setSpecialValueText("(none)")
        self.row_spin.setMinimumWidth(90)
        self.row_spin.valueChanged.connect(lambda number: self.row_chosen.emit(number - 1))
        heading.addWidget(self.row_spin)
        heading.addStretch(1)
        layout_.addLayout(heading)
        self.path_note = QLabel(wordWrap=True)
        self.path_note.hide()
        layout_.addWidget(self.path_note)
        self.path_list = QListWidget()
        self.path_list.setWordWrap(True)
        self.path_list.hide()
        layout_.addWidget(self.path_list)

    def is_expanded(self):
        """Whether the path's list is shown (a row's path is there)."""
        return not self.path_list.isHidden()

    def row(self):
        """The chosen row, an index from 0 (-1: none)."""
        return self.row_spin.value() - 1

    def reset(self, n_rows):
        """Rows 1 to ``n_rows`` to choose from, none chosen, no path shown."""
        self.row_spin.blockSignals(True)
        self.row_spin.setMaximum(n_rows)
        self.row_spin.setValue(0)
        self.row_spin.blockSignals(False)
        self.show_path([])
        self.show_note("")

    def show_path(self, lines):
        """Show the path's ``lines`` (none: an empty list)."""
        self.path_list.clear()
        self.path_list.addItems(lines)
        if bool(lines) != self.is_expanded():
            self.path_list.setVisible(bool(lines))
            self.expanded.emit(bool(lines))

    def show_note(self, text):
        """Show the note ``text`` above the path; hide the note if it is ""."""
        self.path_note.setText(text)
        self.path_note.setVisible(bool(text))


def with_path_below(widgets, path_panel):
    """A vertical splitter: the ``widgets`` (the tree's tabs …) stacked on top, and the
    ``path_panel`` below them, only its heading until a row is chosen, then
    :data:`PATH_PANEL_HEIGHT` high; the widgets above take the height the window gains,
    and the user can drag the boundary while a path is shown."""
    above = QWidget()
    layout_ = QVBoxLayout(above)
    layout_.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout_.addWidget(widget)
    splitter = QSplitter(Qt.Vertical, childrenCollapsible=False)
    splitter.addWidget(above)
    splitter.addWidget(path_panel)
    splitter.setStretchFactor(0, 1)

    def fit_panel(expanded):
        total = sum(splitter.sizes()) or 680
        height = PATH_PANEL_HEIGHT if expanded else path_panel.sizeHint().height()
        path_panel.setMaximumHeight(16777215 if expanded else height)
        splitter.setSizes([max(total - height, 1), height])

    path_panel.expanded.connect(fit_panel)
    fit_panel(path_panel.is_expanded())
    return splitter
