"""The Rules tab of the Oblique Tree Viewer: the IF … THEN rules, to copy or save."""
from AnyQt.QtCore import pyqtSignal as Signal
from AnyQt.QtWidgets import (QApplication, QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit,
                             QPushButton, QVBoxLayout, QWidget)


class RulesPanel(QWidget):
    """The Rules tab: the IF … THEN rules given by ``rules_text()``, to copy or save
    exactly as shown; ``options`` (widgets, e.g. a check box) go left of the buttons and
    :attr:`note` says below the rules what they are.

    Saving reports its outcome by signals, for the widget to show: :attr:`saved` (the
    file's name) or :attr:`save_failed` (the file's name and why it could not be written:
    a missing folder, a folder in the file's place, no permission …)."""

    saved = Signal(str)
    save_failed = Signal(str, str)

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

    def update_text(self, note):
        """Show the rules anew, and ``note`` below them."""
        self.edit.setPlainText(self.rules_text())
        self.note.setText(note)

    def copy(self):
        QApplication.clipboard().setText(self.rules_text())

    def save(self, filename=None):
        """Write the rules to ``filename`` (default: the one the user chooses) and emit
        :attr:`saved`, or :attr:`save_failed` if the file cannot be written."""
        if filename is None:
            filename, _ = QFileDialog.getSaveFileName(
                self, "Save rules", "rules.txt", "Text files (*.txt)")
            if not filename:
                return
        try:
            with open(filename, "w", encoding="utf-8") as file:
                file.write(self.rules_text())
        except OSError as error:
            self.save_failed.emit(filename, error.strerror or str(error))
        else:
            self.saved.emit(filename)
