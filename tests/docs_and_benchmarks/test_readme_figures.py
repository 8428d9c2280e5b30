"""Figures the README quotes stay true: no exact count of tests (it changes with every
test), and Orange Canvas's Help menu named as Orange names its entries."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
#: The pages a user reads about the add-on: the README and the documentation's sources
#: (the package index's description among them).
PAGES = [ROOT / "README.md", *sorted((ROOT / "doc").glob("**/*.md"))]


def prose(text):
    """``text`` without its code: fenced blocks and inline ``code``."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", text, flags=re.DOTALL))


def test_the_readme_quotes_no_exact_count_of_tests():
    counts = re.findall(r"\b\d[\d,]* tests\b", prose((ROOT / "README.md").read_text("utf-8")))
    assert not counts, counts


#: Prints the entries of Orange Canvas's Help menu as a JSON list.
HELP_MENU = """
import json
from AnyQt.QtWidgets import QApplication
from orangecanvas.application.canvasmain import CanvasMainWindow
app = QApplication([])
window = CanvasMainWindow()
print(json.dumps([action.text().rstrip(".") for action in window.help_menu.actions()]))
"""


def test_help_menu_entries_are_named_as_orange_canvas_names_them():
    """``Help → Example Workflows``: the entries of Orange Canvas's own Help menu."""
    # in a process of its own: a canvas window changes Orange Canvas's process-wide window
    # list, which the canvas tests of this process use after it
    entries = set(json.loads(subprocess.run(
        [sys.executable, "-c", HELP_MENU], check=True, capture_output=True, text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}).stdout.splitlines()[-1]))
    assert "Example Workflows" in entries
    for page in PAGES:
        text = re.sub(r"\s+", " ", page.read_text("utf-8"))
        for entry in re.findall(r"Help → ([A-Z]\w*(?: [A-Z]\w*)*)", text):
            assert entry in entries, (page.name, entry)
