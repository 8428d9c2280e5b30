"""The documentation builds without warnings, the help in the package is that build, and
the widgets' F1 help opens its pages.

The docs (``doc/``, markdown with MyST, API pages by autodoc) are built with Sphinx in a
subprocess of this interpreter, ``python -m sphinx -W --keep-going -b html``.  The built
pages are committed in the package (``orangecontrib/oblique/help/html``, package data,
written by ``doc/build_help.py``), so that an install needs no Sphinx; the build test fails
when they are out of date with ``doc/`` (other pages, titles or texts, other images).
Orange Canvas finds a widget's help through the add-on's ``orange.canvas.help`` entry point
(``html-index = orangecontrib.oblique.widgets:WIDGET_HELP_PATH``): it reads the help's
``index.html`` and maps each widget name to the link of that name in the index's "Widgets"
section.  The last test resolves the help of every widget of the add-on with
orange-canvas-core's own ``HelpManager``, as F1 does.
"""
import html
import importlib.util
import os
import re
import tempfile
import unittest

import pytest
from AnyQt.QtCore import QUrl

from orangecanvas.help.manager import HelpManager
from orangecanvas.registry import WidgetRegistry
from orangecanvas.utils.pkgmeta import get_distribution

from Orange.canvas.config import Config

from orangewidget.utils.messages import UnboundMsg

import orangecontrib.oblique.core.odt_svm.classifier
import orangecontrib.oblique.widgets
from orangecontrib.oblique.widgets.owgeometrictree import OWGeometricTree
from orangecontrib.oblique.widgets.owhedgeensemble import OWHedgeEnsemble
from orangecontrib.oblique.widgets.owobliqueforest import OWObliqueForest
from orangecontrib.oblique.widgets.owobliquedata import OWObliqueData
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.owoc1 import OWOC1
from orangecontrib.oblique.widgets.owodtsvm import OWODTSVM

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "doc")
_spec = importlib.util.spec_from_file_location("build_help", os.path.join(DOC, "build_help.py"))
build_help = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_help)
#: The built help in the package, where ``WIDGET_HELP_PATH`` points.
HELP_HTML = os.path.dirname(orangecontrib.oblique.widgets.HELP_INDEX)
WIDGETS_PACKAGE = "orangecontrib.oblique.widgets"
DISTRIBUTION = "Orange3-Oblique"
#: The widgets of the add-on (name: class) and their pages (name: page).
WIDGET_CLASSES = {
    "Oblique Data": OWObliqueData,
    "Geometric Tree": OWGeometricTree,
    "OC1": OWOC1,
    "ODT-SVM": OWODTSVM,
    "Hedge Ensemble": OWHedgeEnsemble,
    "Oblique Forest": OWObliqueForest,
    "Oblique Tree Viewer": OWObliqueTreeViewer,
}
WIDGET_PAGES = {
    "Oblique Data": "widgets/oblique-data.html",
    "Geometric Tree": "widgets/geometric-tree.html",
    "OC1": "widgets/oc1.html",
    "ODT-SVM": "widgets/odt-svm.html",
    "Hedge Ensemble": "widgets/hedge-ensemble.html",
    "Oblique Forest": "widgets/oblique-forest.html",
    "Oblique Tree Viewer": "widgets/oblique-tree-viewer.html",
}
build_docs = build_help.build


def page_content(path):
    """The title and the text (tags dropped, whitespace collapsed) of the main part of a
    built page: what a reader sees, not the theme's markup or Sphinx's version."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    title = re.search(r"<title>(.*?)</title>", text, re.S).group(1)
    body = re.search(r'<div class="body" role="main">(.*?)<div class="sphinxsidebar"',
                     text, re.S)
    body = body.group(1) if body else text
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return " ".join(title.split()), " ".join(body.split())


def read_bytes(path):
    with open(path, "rb") as file:
        return file.read()


class BuildMixin:
    def assert_built(self, process):
        output = process.stdout + process.stderr
        self.assertEqual(process.returncode, 0, output[-5000:])
        self.assertNotIn("WARNING", output)
        self.assertNotIn("ERROR", output)
        self.assertIn("build succeeded", output)


class TestDocumentationBuild(BuildMixin, unittest.TestCase):
    @pytest.mark.slow  # a Sphinx build, about 6 s
    def test_builds_without_warnings(self):
        with tempfile.TemporaryDirectory() as tmp:
            html = os.path.join(tmp, "html")
            self.assert_built(build_docs(html, os.path.join(tmp, "doctrees")))
            for page in ("index.html", "api.html", "algorithms/gdt.html",
                         "algorithms/oc1.html", "algorithms/odt-svm.html",
                         "algorithms/forest.html",
                         *WIDGET_PAGES.values()):
                self.assertTrue(os.path.isfile(os.path.join(html, page)), page)
            self.assert_help_is_up_to_date(html)
            with open(os.path.join(html, "api.html"), encoding="utf-8") as file:
                api = file.read()
            for name in ("GeometricTreeClassifier", "OC1Classifier", "ODTSVMClassifier",
                         "HedgeEnsembleClassifier", "ObliqueForestClassifier",
                         "SparseProjectionTreeClassifier", "XMeans", "ObliqueTree", "Split",
                         "GeometricTreeLearner", "OC1Learner", "ODTSVMLearner",
                         "HedgeEnsembleLearner", "ObliqueForestLearner"):
                self.assertRegex(api, rf'id="orangecontrib\.oblique\.(core\.)?{name}"')

    def assert_help_is_up_to_date(self, html):
        """The help in the package has the pages of the build ``html`` with the same
        titles and texts, and the same images."""
        stale = "the help in the package is out of date with doc/: run doc/build_help.py"
        built = build_help.help_files(html)
        committed = build_help.help_files(HELP_HTML)
        for chosen, content in ((lambda path: path.endswith(".html"), page_content),
                                (lambda path: path.startswith("_images/"), read_bytes)):
            paths = [path for path in built if chosen(path)]
            self.assertEqual(paths, [path for path in committed if chosen(path)], stale)
            for path in paths:
                self.assertEqual(content(os.path.join(HELP_HTML, path)),
                                 content(os.path.join(html, path)), f"{path}: {stale}")

    def test_odt_svm_page_quotes_the_test_selection(self):
        """The formula on the ODT-SVM page is the one the implementation documents."""
        docstring = " ".join(orangecontrib.oblique.core.odt_svm.classifier.__doc__.split())
        with open(os.path.join(DOC, "algorithms", "odt-svm.md"), encoding="utf-8") as file:
            # table cells run together; an escaped "\|" in a cell is a literal "|"
            page = re.sub(r"(?<!\\)\|", " ", file.read()).replace("\\|", "|")
            page = " ".join(page.split())
        for fragment in (
                "among the valid tests whose (MDL-corrected) information gain is at least "
                "the average gain of all valid tests minus 10⁻³, the one of highest gain "
                "ratio",
                "subtracts the coding cost of the test, in bits per training row, from its "
                "gain",
                "``log2 c``",
                "``log2(m + 1) + log2 C(m, a)``",
                "``+ log2(k_max − 1) + k · L · ½ log2 N``",
                "``max(min(0.1 · N / K, 25), min_samples_leaf)``",
                "``corrected gain = gain − cost / N``",
                "``gain ratio = corrected gain / split info``"):
            self.assertIn(fragment, docstring,
                          "the docstring of core/odt_svm/classifier.py changed: update the test "
                          "selection on doc/algorithms/odt-svm.md and here")
            in_markdown = re.sub(r"``(.*?)``", r"`\1`", fragment)
            if in_markdown.startswith("`corrected") or in_markdown.startswith("`gain ratio"):
                in_markdown = in_markdown.strip("`")  # in a code block on the page
                in_markdown = " ".join(in_markdown.split())
            self.assertIn(in_markdown, page, "doc/algorithms/odt-svm.md must quote the "
                          "test selection of core/odt_svm/classifier.py's docstring")


class TestWidgetPages(unittest.TestCase):
    """Every message the add-on's widgets define is on the widget's page."""

    @staticmethod
    def page_text(page):
        """The markdown of a widget page with its includes, as plain words."""
        path = os.path.join(DOC, page.replace(".html", ".md"))
        with open(path, encoding="utf-8") as file:
            text = file.read()
        for include in re.findall(r"```\{include\} (\S+)", text):
            with open(os.path.join(os.path.dirname(path), include), encoding="utf-8") as file:
                text += file.read()
        return " ".join(re.sub(r"[*`]", "", text).split())

    def test_every_message_is_documented(self):
        for name, page in WIDGET_PAGES.items():
            widget = WIDGET_CLASSES[name]
            text = self.page_text(page)
            for group in ("Error", "Warning", "Information"):
                for klass in getattr(widget, group).__mro__:
                    if not klass.__module__.startswith("orangecontrib."):
                        continue  # Orange's own messages: documented where they can show
                    for attr, message in vars(klass).items():
                        if not isinstance(message, UnboundMsg):
                            continue
                        for fragment in str(message).split("{}"):
                            fragment = " ".join(fragment.split())
                            if len(fragment) >= 8:
                                self.assertIn(fragment, text, f"{name}: {group}.{attr}")


class TestAttributesPerSplitDefaults(unittest.TestCase):
    """The default of "Attributes per split" is the same in each learner widget, on its
    page and in the rule's table of Readable splits."""
    #: learner of the rule's table: (widget, page)
    LEARNERS = {"GDT": (OWGeometricTree, "widgets/geometric-tree.md"),
                "OC1": (OWOC1, "widgets/oc1.md"),
                "ODT-SVM": (OWODTSVM, "widgets/odt-svm.md")}

    @staticmethod
    def words(default):
        return f"at most {default}" if default is not None else "all attributes"

    def test_widgets_pages_and_rule_agree(self):
        with open(os.path.join(DOC, "readable-splits.md"), encoding="utf-8") as file:
            rules = dict(re.findall(r"^\| (GDT|OC1|ODT-SVM) \|(?: [\d.]+ \|){5} ([^|]+?) \|$",
                                    file.read(), re.MULTILINE))
        self.assertEqual(set(rules), set(self.LEARNERS))
        for name, (widget, page) in self.LEARNERS.items():
            with self.subTest(name):
                default = (widget.max_terms.default if widget.limit_terms.default
                           else None)
                self.assertEqual(rules[name], self.words(default))
                with open(os.path.join(DOC, page), encoding="utf-8") as file:
                    row = next(line for line in file
                               if line.startswith("| **Attributes per split"))
                cell = row.rstrip().rstrip("|").rsplit("|", 1)[1].strip()
                self.assertTrue(cell.startswith(
                    f"checked, {default}" if default is not None else "unchecked"), cell)


class TestWidgetHelp(unittest.TestCase):
    """F1 on each widget opens its page of the built documentation."""

    def test_help_of_every_widget_resolves_to_its_page(self):
        """The help in the package (there after any install, editable or not): no build
        needed."""
        self.assertIsNotNone(get_distribution(DISTRIBUTION))
        self.assertTrue(os.path.isfile(orangecontrib.oblique.widgets.HELP_INDEX))

        discovery = Config.widget_discovery(WidgetRegistry())
        discovery.run([ep for ep in Config.widgets_entry_points()
                       if ep.value == WIDGETS_PACKAGE])
        registry = discovery.registry
        descriptions = {desc.name: desc for desc in registry.widgets()}
        self.assertEqual(set(descriptions), set(WIDGET_PAGES))

        manager = HelpManager()
        manager.set_registry(registry)
        for name, page in WIDGET_PAGES.items():
            desc = descriptions[name]
            self.assertEqual(desc.project_name, DISTRIBUTION)
            url = manager.search({"id": desc.qualified_name})
            self.assertIsInstance(url, QUrl)
            self.assertTrue(url.isLocalFile(), url.toString())
            path = url.toLocalFile()
            self.assertEqual(os.path.realpath(path),
                             os.path.realpath(os.path.join(HELP_HTML, page)), name)
            self.assertTrue(os.path.isfile(path), path)
            with open(path, encoding="utf-8") as file:
                self.assertRegex(file.read(), rf"<h1>{re.escape(name)}<a ")


if __name__ == "__main__":
    unittest.main()
