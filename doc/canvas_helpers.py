"""Orange Canvas for the documentation scripts: a main window with the installed widgets."""
from orangecanvas import config
from orangecanvas.application.canvasmain import CanvasMainWindow
from orangecanvas.registry import WidgetRegistry
from orangecanvas.registry.qt import QtWidgetRegistry
from Orange.canvas.config import Config


def canvas_window():
    """A ``CanvasMainWindow`` with every installed widget (Orange's and the add-on's), as
    ``python -m Orange.canvas`` discovers them."""
    cfg = Config()
    cfg.init()
    config.set_default(cfg)
    reg = WidgetRegistry()
    cfg.widget_discovery(reg).run(cfg.widgets_entry_points())
    win = CanvasMainWindow()
    win.set_widget_registry(QtWidgetRegistry(reg))
    return win
