"""The words of a pairwise-vote node that a reader can follow: a box of a few lines
whatever the number of classes, naming the pairs that decide the most training rows; the
full list of pairs in its tooltip; branches that name a class; a row's path step that
names its winner, its votes and the pair that decided it."""
import pickle
import re

import numpy as np
import pytest

from orangecontrib.oblique.core import ODTSVMClassifier
from orangecontrib.oblique.core.tree.conditions import VOTE_PAIRS_SHOWN
from orangecontrib.oblique.core.tree.rules import Vocabulary, branch_conditions
from orangecontrib.oblique.core.tree.splits import Split, pairwise_pairs

K = 10
N_FEATURES = 61
CLASSES = [f"digit {c}" for c in range(K)]
VOCABULARY = Vocabulary([f"pixel{j}" for j in range(N_FEATURES)], classes=CLASSES)


def votes_by_hand(values, k):
    """(winner, runner-up) of every row, counting the votes pair by pair."""
    votes = np.zeros((values.shape[0], k), dtype=int)
    for p, (a, b) in enumerate(pairwise_pairs(k)):
        votes[values[:, p] >= 0, a] += 1
        votes[values[:, p] < 0, b] += 1
    winner = np.argmax(votes, axis=1)
    others = votes.astype(float)
    others[np.arange(len(votes)), winner] = -np.inf
    return votes, winner, np.argmax(others, axis=1)


@pytest.fixture(scope="module")
def calibrated():
    """A pairwise-vote split of 10 classes (45 hyperplanes over 61 attributes) after the
    pass after growing, on its training rows."""
    rng = np.random.default_rng(0)
    pairs = K * (K - 1) // 2
    split = Split("pairwise_vote", rng.normal(size=(pairs, N_FEATURES)),
                  rng.normal(size=pairs), classes=range(K))
    X = rng.normal(size=(500, N_FEATURES))
    split.calibrate_digits(X)
    return split, X


def test_the_split_counts_the_rows_each_pair_decides(calibrated):
    split, X = calibrated
    _, winner, runner_up = votes_by_hand(split.values(X), K)
    expected = np.zeros(len(pairwise_pairs(K)), dtype=int)
    for a, b in zip(np.minimum(winner, runner_up), np.maximum(winner, runner_up)):
        expected[pairwise_pairs(K).index((a, b))] += 1
    assert split.decided_rows == tuple(expected)
    assert sum(split.decided_rows) == len(X)
    # kept by a copy (the viewer's standardised split) and a pickle
    assert split.copy(digits=None).decided_rows == split.decided_rows
    assert pickle.loads(pickle.dumps(split)).decided_rows == split.decided_rows


def test_the_box_is_a_few_lines_naming_the_pairs_that_decide_most_rows(calibrated):
    split, _ = calibrated
    conditions = split.conditions()
    short, full = conditions[0].node_rule(conditions, VOCABULARY, max_terms=3)
    lines = short.split("\n")
    assert len(lines) <= VOTE_PAIRS_SHOWN + 3
    assert lines[0] == "most pairwise votes of 45 hyperplanes over 10 classes"
    assert lines[-1] == f"… {45 - VOTE_PAIRS_SHOWN} more pairs"
    ranked = sorted(range(45), key=lambda p: (-split.decided_rows[p], p))[:VOTE_PAIRS_SHOWN]
    for line, p in zip(lines[2:-1], ranked):
        a, b = pairwise_pairs(K)[p]
        assert line == f"digit {a} vs digit {b}: {split.decided_rows[p]} rows"
    assert "·pixel" not in short
    # the full rule has every hyperplane with every term
    assert full.count(" vs ") == 45 and full.count("·pixel") == 45 * N_FEATURES


def test_the_box_stays_small_for_many_classes():
    k = 40
    rng = np.random.default_rng(1)
    pairs = k * (k - 1) // 2
    split = Split("pairwise_vote", rng.normal(size=(pairs, 3)), rng.normal(size=pairs))
    conditions = split.conditions()
    short, _ = conditions[0].node_rule(conditions, ["a", "b", "c"], max_terms=3)
    assert short.split("\n") == [f"most pairwise votes of {pairs} hyperplanes over 40 classes",
                                 "1 vs 2", "1 vs 3", "1 vs 4", f"… {pairs - 3} more pairs"]


def test_the_tooltip_lists_every_pair(calibrated):
    split, _ = calibrated
    conditions = split.conditions()
    details = conditions[0].node_details(conditions, VOCABULARY, max_terms=3)
    lines = details.split("\n")
    assert len(lines) == 1 + 45
    for line, (a, b), decided in zip(lines[1:], pairwise_pairs(K), split.decided_rows):
        assert line.startswith(f"digit {a} vs digit {b}: ")
        assert "+ 58 more" in line
        assert line.endswith(f"(decides {decided} row{'' if decided == 1 else 's'})")


def test_a_branch_names_its_class_without_the_scores(calibrated):
    split, _ = calibrated
    for with_scores in (False, True):
        assert branch_conditions(split, VOCABULARY, with_scores=with_scores) == [
            f"wins most pairwise votes: digit {c}" for c in range(K)]
    three = Split("pairwise_vote", [[1, -1], [1, 0], [0, 1]], [0, 0, 0], classes=[0, 1, 2])
    assert branch_conditions(three, Vocabulary(["u", "v"], classes=["x", "y", "z"]),
                             with_scores=True) == ["wins most pairwise votes: x",
                                                   "wins most pairwise votes: y",
                                                   "wins most pairwise votes: z"]


def test_the_path_step_names_the_winner_its_votes_and_the_deciding_pair(calibrated):
    split, X = calibrated
    conditions = split.conditions()
    values = split.values(X)
    votes, winner, runner_up = votes_by_hand(values, K)
    for row in range(20):
        w, r = winner[row], runner_up[row]
        step = conditions[w].path_step(split, X[row], w, VOCABULARY)
        assert step.startswith(f"wins most pairwise votes: digit {w} ({votes[row, w]} of 9 "
                               "votes, ")
        assert step.endswith(f" → digit {w}")
        a, b = min(w, r), max(w, r)
        pair_winner = a if values[row, pairwise_pairs(K).index((a, b))] >= 0 else b
        assert f"digit {a} vs digit {b} won by digit {pair_winner}" in step
        standing = "tied" if votes[row, r] == votes[row, w] else "ahead of"
        assert f"{standing}" in step and f"digit {r}" in step


def test_the_path_step_of_a_voting_cycle_says_the_first_class_wins_ties():
    # x beats y, y beats z, z beats x: one vote each, x wins as the first
    split = Split("pairwise_vote", [[1, 0], [-1, 0], [1, 0]], [0, 0, 0], classes=[0, 1, 2])
    names = Vocabulary(["u", "v"], classes=["x", "y", "z"])
    x = np.array([1.0, 0.0])
    assert split.route(x[None, :])[0] == 0
    assert split.conditions()[0].path_step(split, x, 0, names) == (
        "wins most pairwise votes: x (1 of 2 votes, tied (the first class wins ties) with "
        "y and z with 1 each; x vs y won by x, x vs z won by z) → x")


def test_odt_svm_on_digits_explains_its_pairwise_node():
    from sklearn.datasets import load_digits
    X, y = load_digits(return_X_y=True)
    tree = ODTSVMClassifier(random_state=0).fit(X, y).tree_
    split = tree.splits[0]
    assert split.kind.name == "pairwise_vote" and split.n_children == 10
    rows = np.isfinite(X).all(axis=1)
    assert sum(split.decided_rows) == rows.sum()
    conditions = split.conditions()
    short, _ = conditions[0].node_rule(conditions, [f"x{j}" for j in range(64)], max_terms=3)
    assert short.startswith("most pairwise votes of 45 hyperplanes over 10 classes\n")
    assert short.endswith("… 42 more pairs") and short.count("\n") == 5
    text = tree.export_text()
    assert "of 45 scores" not in text
    assert re.search(r"\|--- wins most pairwise votes: 0( \(missing: [^()]*\))?\n", text)
