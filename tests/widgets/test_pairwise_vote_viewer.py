"""A pairwise-vote node of ODT-SVM on the ten digits in the Oblique Tree Viewer and the
Orange model: a box of a few lines, the full list of pairs in its tooltip, branches that
name a class, a row's path step that names its winner and the pair that decided it."""
import re

import numpy as np
import pytest
from sklearn.datasets import load_digits

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.oblique import ODTSVMLearner
from orangecontrib.oblique.core.tree.conditions import VOTE_PAIRS_SHOWN
from orangecontrib.oblique.core.tree.splits import pairwise_pairs
from orangecontrib.oblique.widgets import viewertexts
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter

DIGITS = [f"digit {c}" for c in range(10)]


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    domain = Domain([ContinuousVariable(f"pixel {j}") for j in range(64)],
                    DiscreteVariable("digit", values=DIGITS))
    data = Table.from_numpy(domain, X, y)
    model = ODTSVMLearner(random_state=0)(data)
    model.instances = data
    assert model.estimator.tree_.splits[0].kind.name == "pairwise_vote"
    return data, model, TreeAdapter.from_model(model)


def test_the_box_is_a_few_lines_and_the_tooltip_lists_every_pair(digits):
    _, _, view = digits
    _, text, tooltip = viewertexts.node_texts(view, None, 0, 3)
    lines = text.split("\n")
    assert len(lines) <= VOTE_PAIRS_SHOWN + 3
    assert lines[0] == "most pairwise votes of 45 hyperplanes over 10 classes"
    assert lines[-1] == f"… {45 - VOTE_PAIRS_SHOWN} more pairs"
    assert all(re.fullmatch(r"digit \d vs digit \d: \d+ rows?", line)
               for line in lines[2:-1]), lines
    for a, b in pairwise_pairs(10):
        assert f"\ndigit {a} vs digit {b}: " in tooltip


def test_the_branches_name_their_class(digits):
    _, _, view = digits
    for kid in view.children[0]:
        condition = view.condition(kid, 3)
        assert re.fullmatch(r"wins most pairwise votes: digit \d( \(missing: [^()]*\))?",
                            condition), condition
        assert condition == view.conditions[kid]


def test_the_orange_models_box_is_folded(digits):
    _, model, _ = digits
    name = model.root.attr.name
    assert name.count("<br/>") <= 12
    assert name.endswith(f"… {45 - VOTE_PAIRS_SHOWN} more pairs")


def test_a_rows_path_names_its_winner_and_the_pair_that_decided_it(digits):
    data, model, view = digits
    predicted = model(data[:30])
    for row in range(30):
        step = view.row_path(data, row, 3)[0]
        node, condition, words = step.node, step.condition, step.words
        assert node == 0
        winner = condition.split(": ", 1)[1].split(" (")[0]
        assert words.startswith(f"wins most pairwise votes: {winner} (")
        assert re.search(r"\(\d of 9 votes, (ahead of|tied)", words)
        assert re.search(rf"{winner} vs digit \d won by|digit \d vs {winner} won by", words)
        if view.is_leaf(view.children[0][0]):  # the root's children are leaves here
            assert winner == DIGITS[int(np.asarray(predicted)[row])]
