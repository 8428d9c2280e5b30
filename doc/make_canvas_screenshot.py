"""Screenshot of Orange Canvas with the Oblique Trees category open and a workflow
File → Geometric Tree → Tree Viewer / Pythagorean Tree (the canvas accepts the links).

    QT_QPA_PLATFORM=offscreen .venv/bin/python doc/make_canvas_screenshot.py doc/screenshots/canvas.png
"""
import os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from AnyQt.QtWidgets import QApplication
from AnyQt.QtCore import QTimer
from orangecanvas.registry import WidgetRegistry
from orangecanvas.registry.qt import QtWidgetRegistry
from Orange.canvas.config import Config
from orangecanvas import config
from orangecanvas.application.canvasmain import CanvasMainWindow

app = QApplication(sys.argv)
cfg = Config()
cfg.init()
config.set_default(cfg)
reg = WidgetRegistry()
disc = cfg.widget_discovery(reg)
disc.run(cfg.widgets_entry_points())
qreg = QtWidgetRegistry(reg)
win = CanvasMainWindow()
win.set_widget_registry(qreg)
win.resize(1400, 900)
win.show()
for _ in range(30): app.processEvents()
# expand the Oblique Trees category in the toolbox
tb = win.widgets_tool_box
for i in range(tb.count()):
    action = tb.tabAction(i)
    action.setChecked(action.text() == "Oblique Trees")
# put widgets on the scheme: File -> Geometric Tree -> Tree Viewer
doc = win.current_document()
scheme = doc.scheme()
from orangecanvas.scheme import SchemeNode, SchemeLink
def node(qname, x, y):
    desc = reg.widget(qname)
    n = SchemeNode(desc, position=(x, y)); doc.addNode(n); return n
f = node("Orange.widgets.data.owfile.OWFile", 150, 250)
g = node("orangecontrib.oblique.widgets.owgeometrictree.OWGeometricTree", 400, 250)
t = node("Orange.widgets.visualize.owtreeviewer.OWTreeGraph", 650, 150)
p = node("Orange.widgets.visualize.owpythagorastree.OWPythagorasTree", 650, 350)
doc.addLink(SchemeLink(f, "data", g, "data"))
doc.addLink(SchemeLink(g, "model", t, "tree"))
doc.addLink(SchemeLink(g, "model", p, "tree"))
for _ in range(50): app.processEvents()
win.grab().save(sys.argv[1])
print("ok")
