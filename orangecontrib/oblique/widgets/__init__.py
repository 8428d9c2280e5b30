"""Widgets of the Oblique Trees category.

Importing this package (as Orange Canvas does when it starts) only defines the category:
it starts no process and loads neither numba nor scikit-learn.
"""
import os

NAME = "Oblique Trees"
DESCRIPTION = ("Oblique decision trees: Geometric Decision Tree, OC1, ODT-SVM, a Hedge "
               "ensemble of them, and an oblique forest (SPORF).")
BACKGROUND = "#b5d3f1"
ICON = "icons/category.svg"
PRIORITY = 6100

#: The built documentation inside the package (``orangecontrib/oblique/help/html``,
#: package data, rebuilt from ``doc/`` by ``doc/build_help.py``): there after any install,
#: editable or not.
HELP_INDEX = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "help", "html", "index.html")

# Help pages for F1 in Orange Canvas (the "orange.canvas.help" entry point, read by
# orangecanvas.help.manager.create_html_inventory_provider): the first location that
# exists is used; its index.html lists the widgets in a section with id "widgets".  The
# locations are format strings ({DEVELOP_ROOT}, ...): braces in the path are escaped.
WIDGET_HELP_PATH = (
    (HELP_INDEX.replace("{", "{{").replace("}", "}}"), None),
)
