"""Names with line breaks or other control characters cannot forge lines of a text:
every text rendered from a split's conditions, and ``export_text``, writes
such a name escaped inside quotes (:func:`printable_name`), so a text has as many lines as
with plain names and reads the same but for the names."""
import ast

import numpy as np
import pytest

from orangecontrib.oblique.core import ObliqueTree, Split
from orangecontrib.oblique.core.tree.rules import (LINE_BREAKING, Vocabulary, branch_conditions,
                                                   condition_text, edge_text, printable_name,
                                                   quantity_text)

#: characters that break a line (for ``str.splitlines`` or a text editor) or hide text
BREAKERS = ["\n", "\r", "\r\n", "\t", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85",
            "\u2028", "\u2029", "\x00", "\x7f"]

FEATURES = ["alpha", "beta", "gamma"]
CLASSES = ["setosa", "versicolor", "virginica"]
VALUES = [None, None, ["crimson", "teal"]]
LABELS = ["north", "south"]


def odd(name, breaker):
    """``name`` with ``breaker`` inside it."""
    return f"{name[:2]}{breaker}{name[2:]}"


def vocabulary(breaker=None):
    """The plain words (``breaker`` None) or the same words with ``breaker`` in each."""
    def words(names):
        return [name if breaker is None else odd(name, breaker) for name in names]
    return Vocabulary(words(FEATURES), classes=words(CLASSES),
                      values=[None if v is None else words(v) for v in VALUES])


def renamed(text, breaker):
    """``text`` of plain names with every name written as :func:`printable_name`
    writes it with ``breaker`` inside."""
    for name in FEATURES + CLASSES + VALUES[2] + LABELS:
        text = text.replace(name, printable_name(odd(name, breaker)))
    return text


def splits(breaker=None):
    """A split of every kind, the nearest-centre one with branch labels by hand."""
    labels = [name if breaker is None else odd(name, breaker) for name in LABELS]
    return {
        "hyperplane": Split.hyperplane([0.5, -2.0, 1.0], 1.5),
        "axis-parallel": Split.axis_parallel(1, 2.5, 3),
        "equality": Split.equality(2, 1, 3),
        "argmax": Split("argmax", np.eye(3), [0, 0, 0], classes=[2, 0, 1]),
        "pairwise votes": Split("pairwise_vote", [[1, -1, 0], [1, 0, -1], [0, 1, -1]],
                                [0, 0.5, 0], classes=[0, 1, 2]),
        "nearest centre": Split("nearest_centre", [[1, 1, 0]], [0], centres=[[0], [5]],
                                child_labels=labels),
    }


def texts(split, words):
    """Every text the rules module renders of ``split``."""
    conditions = split.conditions()
    return (branch_conditions(split, words)
            + branch_conditions(split, words, max_terms=1, with_scores=True)
            + [condition_text(c, words, with_scores=True) for c in conditions]
            + [edge_text(c, words) for c in conditions]
            + [split.description(words), quantity_text(split, words)])


def tree_of(split):
    """A tree of one split and its leaves, a class for every leaf."""
    n_children = split.n_children
    value = [[3, 2, 1]] + [np.roll([2, 1, 0], k) for k in range(n_children)]
    return ObliqueTree(3, 3, [split] + [None] * n_children, [tuple(range(1, n_children + 1))]
                       + [()] * n_children, [-1] + [0] * n_children, value,
                       [6] + [3] * n_children)


class TestPrintableName:
    @pytest.mark.parametrize("name", ["petal length", "größe", "a 'quoted' \"name\"",
                                      "back\\slash", "", "x\u00a0y", "日本"])
    def test_a_plain_name_is_unchanged(self, name):
        assert printable_name(name) == name

    @pytest.mark.parametrize("breaker", BREAKERS)
    def test_a_name_with_a_control_character_is_escaped_in_quotes(self, breaker):
        name = odd("petal length", breaker)
        written = printable_name(name)
        assert LINE_BREAKING.search(written) is None
        assert len(written.splitlines()) == 1
        assert written[0] == written[-1] and written[0] in "'\""
        assert ast.literal_eval(written) == name  # Python reads it back
        assert printable_name(written) == written  # escaped once, never again

    def test_not_a_string(self):
        assert printable_name(3) == "3"


@pytest.mark.parametrize("breaker", BREAKERS)
@pytest.mark.parametrize("kind", list(splits()))
def test_rule_texts_keep_their_lines(kind, breaker):
    plain = texts(splits()[kind], vocabulary())
    escaped = texts(splits(breaker)[kind], vocabulary(breaker))
    assert [len(text.splitlines()) for text in escaped] == [
        len(text.splitlines()) for text in plain]
    assert escaped == [renamed(text, breaker) for text in plain]


@pytest.mark.parametrize("breaker", BREAKERS)
@pytest.mark.parametrize("kind", list(splits()))
def test_export_text_keeps_its_lines(kind, breaker):
    plain = tree_of(splits()[kind]).export_text(FEATURES, CLASSES)
    escaped = tree_of(splits(breaker)[kind]).export_text(
        [odd(name, breaker) for name in FEATURES], [odd(name, breaker) for name in CLASSES])
    assert len(escaped.splitlines()) == len(plain.splitlines())
    assert escaped == renamed(plain, breaker)
    assert printable_name(odd("setosa", breaker)) in escaped
