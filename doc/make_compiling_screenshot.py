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
from AnyQt.QtWidgets import QApplication

from Orange.data import Table

from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree

from make_robustness_screenshots import widen_to_message  # pylint: disable=import-error
from screenshot_helpers import save  # pylint: disable=import-error


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
    widen_to_message(app, widget)
    save(app, widget, "first-fit-compiling.png")
    widget.shutdown()


if __name__ == "__main__":
    main()
