"""Screenshots of the Oblique Data widget and of Orange Canvas with the first example
workflow open and the Oblique Trees category expanded.

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_example_screenshots.py
"""
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from AnyQt.QtWidgets import QApplication

import orangecontrib.oblique.tutorials
from orangecontrib.oblique.widgets.owobliquedata import OWObliqueData
from canvas_helpers import canvas_window

HERE = os.path.dirname(os.path.abspath(__file__))
SHOTS = os.path.join(HERE, "screenshots")
WORKFLOW = os.path.join(os.path.dirname(orangecontrib.oblique.tutorials.__file__),
                        "oblique-vs-axis-parallel.ows")


def wait(app, n=50):
    for _ in range(n):
        app.processEvents()


def widget_screenshot(app):
    widget = OWObliqueData()
    widget.controls.set_index.setCurrentIndex(5)
    widget.controls.set_index.activated.emit(5)
    widget.show()
    wait(app)
    widget.grab().save(os.path.join(SHOTS, "oblique-data-widget.png"))
    widget.close()


def canvas_screenshot(app):
    win = canvas_window()
    win.resize(1400, 900)
    win.show()
    wait(app)
    toolbox = win.widgets_tool_box
    for i in range(toolbox.count()):
        action = toolbox.tabAction(i)
        action.setChecked(action.text() == "Oblique Trees")
    win.load_scheme(WORKFLOW)
    # let the workflow run to the end (background fits, Test and Score)
    scheme = win.current_document().scheme()
    idle_checks, deadline = 0, time.monotonic() + 60
    while idle_checks < 5 and time.monotonic() < deadline:
        wait(app, 5)
        app.thread().msleep(50)
        busy = scheme.signal_manager.has_pending() or any(
            scheme.widget_manager.node_processing_state(node)
            or getattr(scheme.widget_for_node(node), "task", None) is not None
            for node in scheme.nodes)
        idle_checks = 0 if busy else idle_checks + 1
    win.current_document().scene().clearSelection()
    wait(app)
    win.grab().save(os.path.join(SHOTS, "canvas-example-workflow.png"))
    print("scheme:", win.current_document().scheme().title)


def main():
    app = QApplication(sys.argv)
    widget_screenshot(app)
    canvas_screenshot(app)


if __name__ == "__main__":
    sys.exit(main())
