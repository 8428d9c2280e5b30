"""No code outside ``core/tree/splits.py`` and ``core/tree/conditions.py`` reads a split
kind's or a condition form's flags or fields to decide what to do or say: it asks the
split or the form (a method), so that a new kind or form needs no change elsewhere."""
import ast
import pathlib

import orangecontrib.oblique

PACKAGE = pathlib.Path(orangecontrib.oblique.__file__).parent
OWNERS = {PACKAGE / "core" / "tree" / "splits.py", PACKAGE / "core" / "tree" / "conditions.py"}

#: the flags of the kinds and forms, and the fields of the conditions and splits whose
#: meaning depends on the kind or form
FLAGS = {"multiway", "has_units", "lists_scores", "prints_numbers", "has_threshold",
         "fixed_children", "takes_branch_values", "one_row", "form", "missing_shares",
         "missing_in_training", "decided_rows", "operator", "values_name",
         "branch_scores_listed"}


def reads_of_flags(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in FLAGS]


def test_no_code_outside_the_kinds_and_forms_reads_their_flags():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in OWNERS:
            continue
        reads = reads_of_flags(path)
        if reads:
            found[str(path.relative_to(PACKAGE))] = reads
    assert not found, found


def test_the_check_finds_a_read_of_a_flag(tmp_path):
    path = tmp_path / "reader.py"
    path.write_text("def label(condition):\n    return 'x' if condition.multiway else 'y'\n")
    assert reads_of_flags(path) == [(2, "multiway")]
