"""Widgets of the Oblique Trees category."""
import sysconfig

NAME = "Oblique Trees"
DESCRIPTION = ("Oblique decision trees: Geometric Decision Tree, OC1, ODT-SVM, and a "
               "Hedge ensemble of them.")
BACKGROUND = "#b5d3f1"
ICON = "icons/category.svg"
PRIORITY = 6100

WIDGET_HELP_PATH = (
    # Development documentation (built with Sphinx into doc/_build/html)
    ("{DEVELOP_ROOT}/doc/_build/html/index.html", None),
    # Documentation included in the installed package
    ("{}/help/orange3-oblique/index.html".format(sysconfig.get_path("data")), None),
)
