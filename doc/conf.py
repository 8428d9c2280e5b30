"""Sphinx configuration of the Orange Oblique Trees documentation.

Build (from the repository root)::

    .venv/bin/python -m sphinx -W --keep-going -b html doc doc/_build/html

The pages are markdown (MyST).  ``doc/build_help.py`` builds them into the package
(``orangecontrib/oblique/help/html``), where Orange Canvas reads ``index.html`` for the
widgets' F1 help (``WIDGET_HELP_PATH`` in ``orangecontrib/oblique/widgets/__init__.py``):
its section "Widgets" lists one link per widget, titled with the widget's name.
"""
import os
import sys

# the package is installed (pip install -e .); this also lets a plain checkout build
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
# autodoc imports Orange, which imports Qt: never open a window
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

project = "Orange Oblique Trees"
author = "Orange Oblique Trees contributors"
copyright = "2026, Orange Oblique Trees contributors"  # pylint: disable=redefined-builtin
release = version = "0.1.0"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# doc/ also holds the screenshot scripts and the screenshots themselves
# widgets/_*.md are included in the widget pages, not pages of their own
# pypi.md is the package's description on the package index (setup.py), not a help page
exclude_patterns = ["_build", "make_*.py", "widgets/_*.md", "pypi.md", "**/.ipynb_checkpoints"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# numpydoc-style docstrings of the core and of the learners
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_class_signature = "mixed"
autodoc_typehints = "none"
autodoc_inherit_docstrings = False

html_theme = "alabaster"
html_title = "Orange Oblique Trees"
html_static_path = []
html_show_sourcelink = False
html_copy_source = False  # the help installed with the package needs no markdown
# the help pages open inside Orange, offline: no web fonts, no search index needed there
html_theme_options = {"description": "Oblique decision trees for Orange",
                      "font_family": "sans-serif", "head_font_family": "sans-serif"}
language = "en"
smartquotes = False
