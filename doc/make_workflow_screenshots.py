"""Pictures of the example workflows as Orange Canvas draws them (nodes, links, labels).

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_workflow_screenshots.py

writes ``doc/screenshots/workflow-<name>.png`` for every ``.ows`` file of
``orangecontrib/oblique/tutorials``: the canvas scene of the workflow, without running it
(the workflow is read into a plain ``Scheme``, so no widget is created: no progress or
pending-signal marks that depend on timing), so that node titles and link labels can be
checked for overlaps.
"""
import glob
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pylint: disable=wrong-import-position
from AnyQt.QtCore import QRectF, Qt
from AnyQt.QtGui import QImage, QPainter
from AnyQt.QtWidgets import QApplication
from orangecanvas.scheme import Scheme

import orangecontrib.oblique.tutorials
from canvas_helpers import canvas_window

HERE = os.path.dirname(os.path.abspath(__file__))
SHOTS = os.path.join(HERE, "screenshots")
TUTORIALS = os.path.dirname(orangecontrib.oblique.tutorials.__file__)


def main():
    app = QApplication(sys.argv)
    win = canvas_window()
    document = win.current_document()
    for path in sorted(glob.glob(os.path.join(TUTORIALS, "*.ows"))):
        workflow = Scheme()
        with open(path, "rb") as f:
            workflow.load_from(f, registry=win.widget_registry)
        document.setScheme(workflow)
        for _ in range(20):
            app.processEvents()
        scene = document.scene()
        scene.clearSelection()
        rect = scene.itemsBoundingRect().adjusted(-30, -30, 30, 30)
        image = QImage(int(rect.width() * 1.5), int(rect.height() * 1.5),
                       QImage.Format_ARGB32)
        image.fill(Qt.white)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.Antialiasing)
        scene.render(painter, QRectF(image.rect()), rect)
        painter.end()
        name = os.path.splitext(os.path.basename(path))[0]
        out = os.path.join(SHOTS, f"workflow-{name}.png")
        image.save(out)
        print("wrote", out)
    document.setModified(False)  # else closing asks whether to save (and waits forever)
    win.close()


if __name__ == "__main__":
    sys.exit(main())
