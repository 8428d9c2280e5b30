"""Widgets of the Oblique Trees category."""
import os
import sysconfig

NAME = "Oblique Trees"
DESCRIPTION = ("Oblique decision trees: Geometric Decision Tree, OC1, ODT-SVM, and a "
               "Hedge ensemble of them.")
BACKGROUND = "#b5d3f1"
ICON = "icons/category.svg"
PRIORITY = 6100

#: The checkout this package is imported from, when it runs from a source tree
#: (``pip install -e .``): orangecontrib/oblique/widgets/__init__.py is four levels down.
_SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

# Help pages for F1 in Orange Canvas (the "orange.canvas.help" entry point, read by
# orangecanvas.help.manager.create_html_inventory_provider): the first location that
# exists is used; its index.html lists the widgets in a section with id "widgets".
WIDGET_HELP_PATH = (
    # Development documentation (built with Sphinx into doc/_build/html)
    ("{DEVELOP_ROOT}/doc/_build/html/index.html", None),
    # The same, found from this package's own location: also when the distribution that
    # Python finds first is the checkout's Orange3_Oblique.egg-info (Orange Canvas started
    # from the repository root), for which Orange knows no DEVELOP_ROOT
    (os.path.join(_SOURCE_ROOT, "doc", "_build", "html", "index.html")
     .replace("{", "{{").replace("}", "}}"), None),
    # Documentation included in the installed package
    ("{}/help/orange3-oblique/index.html".format(sysconfig.get_path("data")), None),
)
