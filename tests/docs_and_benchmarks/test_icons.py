"""The icons' sources are in the top-level ``icons/``; the package carries identical
copies of the category and widget icons (package data), and every widget finds its own."""
import importlib
import os
import re
import unittest

import orangecontrib.oblique.widgets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ICONS = os.path.join(ROOT, "icons")
PACKAGE = os.path.dirname(os.path.abspath(orangecontrib.oblique.widgets.__file__))
WIDGET_MODULES = ("owgeometrictree", "owoc1", "owodtsvm", "owhedgeensemble",
                  "owobliqueforest", "owobliquedata", "owobliquetreeviewer")


def read(path):
    with open(path, "rb") as file:
        return file.read()


class TestIcons(unittest.TestCase):
    def test_package_copies_are_identical_to_the_sources(self):
        sources = sorted(name for name in os.listdir(ICONS) if name.endswith(".svg"))
        copies = sorted(os.listdir(os.path.join(PACKAGE, "icons")))
        self.assertEqual(sorted(set(sources) - {"logo.svg"}), copies,
                         "icons/ and orangecontrib/oblique/widgets/icons/ differ: "
                         "run python icons/sync.py")
        for name in copies:
            self.assertEqual(read(os.path.join(ICONS, name)),
                             read(os.path.join(PACKAGE, "icons", name)),
                             f"{name} differs from icons/{name}: run python icons/sync.py")

    def test_every_widget_and_the_category_find_their_icon(self):
        icons = [orangecontrib.oblique.widgets.ICON]
        for module in WIDGET_MODULES:
            module = importlib.import_module(f"orangecontrib.oblique.widgets.{module}")
            icons += [obj.icon for obj in vars(module).values()
                      if isinstance(obj, type) and obj.__module__ == module.__name__
                      and getattr(obj, "icon", None)]
        self.assertEqual(len(icons), 1 + len(WIDGET_MODULES))
        for icon in icons:
            self.assertTrue(os.path.isfile(os.path.join(PACKAGE, icon)), icon)

    def test_logo_heads_readme_and_documentation(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as file:
            readme = file.read()
        self.assertRegex(readme.split("\n\n")[0] + readme.split("\n\n")[1],
                         r"icons/logo\.svg")
        with open(os.path.join(ROOT, "doc", "index.md"), encoding="utf-8") as file:
            index = file.read()
        self.assertTrue(re.search(r"\.\./icons/logo\.svg", index.split("\n\n")[1]))
