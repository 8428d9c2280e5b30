"""Screenshot of a learner widget during the first fit of its learner in a session (the
widget's information message that the kernels load or compile), for ``speed.md``.

Runs offscreen, with an empty numba cache so that the first fit compiles::

    NUMBA_CACHE_DIR=$(mktemp -d) QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_compiling_screenshot.py

and writes ``doc/screenshots/first-fit-compiling.png``, taken while the fit runs.
"""
import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtWidgets import QApplication, QLayout
from orangewidget.utils.messagewidget import MessagesWidget

from Orange.data import Table

from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree

from make_robustness_screenshots import LEARNER_WIDTH  # pylint: disable=import-error
from screenshot_helpers import save, settle  # pylint: disable=import-error


def main():
    app = QApplication.instance() or QApplication([])
    widget = OWGeometricTree()
    widget.show()
    widget.set_data(Table("heart_disease"))
    widget.handleNewSignals()
    deadline = time.perf_counter() + 10
    while not widget.Information.compiling.is_shown() and time.perf_counter() < deadline:
        app.processEvents()
    assert widget.Information.compiling.is_shown(), "the first fit's message is not shown"
    # the widget has a fixed size and its status bar elides the message: widen it
    height = widget.height()
    bar = max((bar for bar in widget.findChildren(MessagesWidget) if bar.isVisible()),
              key=lambda bar: bar.sizeHint().width())
    width = widget.width() - bar.width() + bar.sizeHint().width() + 8
    widget.layout().setSizeConstraint(QLayout.SetDefaultConstraint)
    widget.setMinimumSize(0, 0)
    widget.setMaximumSize(16777215, 16777215)
    widget.resize(max(LEARNER_WIDTH, width), height)
    settle(app)
    save(app, widget, "first-fit-compiling.png")
    widget.shutdown()


if __name__ == "__main__":
    main()
