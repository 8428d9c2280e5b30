"""Screenshot of a learner widget while the kernels compile in the background (the
widget's information message), for ``speed.md``.

Runs offscreen::

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_compiling_screenshot.py

and writes ``doc/screenshots/compiling-in-the-background.png``.  The compilation is the
real module's state with a process that is still running: a stand-in whose ``poll``
returns None, as :class:`subprocess.Popen`'s does until the process ends.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtWidgets import QApplication

from Orange.data import Table

from orangecontrib.oblique.core import compilation
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree

from make_robustness_screenshots import learner_widget, messages  # pylint: disable=import-error
from screenshot_helpers import save  # pylint: disable=import-error


class StillCompiling:
    """A background compilation that has not ended."""

    @staticmethod
    def poll():
        return None


def main():
    app = QApplication.instance() or QApplication([])
    compilation._started = StillCompiling()  # pylint: disable=protected-access
    widget = learner_widget(app, OWGeometricTree, Table("heart_disease"))
    assert widget.Information.compiling.is_shown(), messages(widget.Information)
    save(app, widget, "compiling-in-the-background.png")


if __name__ == "__main__":
    main()
