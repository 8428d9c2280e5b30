"""Every form of condition renders its own words (text, edge label, node rule, path step),
and every renderer -- the tree's text, the Orange model's and the viewer's texts -- takes
them from the form: a form or a kind unknown to the renderers reads in its own words."""
import pickle
from dataclasses import dataclass

import numpy as np
import pytest

from orangecontrib.oblique.core.tree.conditions import (Compare, Condition, Equal, Largest,
                                                        Nearest, Votes)
from orangecontrib.oblique.core.tree.rules import (Vocabulary, branch_conditions,
                                                   condition_text, edge_text)
from orangecontrib.oblique.core.tree.splits import KINDS, HyperplaneKind, SplitKind, Split
from orangecontrib.oblique.core.tree.structure import ObliqueTree, grow_tree

VOCABULARY = Vocabulary(["a", "b", "c"], classes=["x", "y", "z"],
                        values=[None, None, ["red", "green"]], cluster="cluster {}")


def kinds_and_steps():
    """(split, row, the form of its conditions, texts, edge labels, path step)."""
    return [
        (Split.hyperplane([0.5, -2.0, 0.0], -1.0), [4.0, 0.25, 0.0], Compare,
         ["0.5·a − 2·b < 1", "0.5·a − 2·b ≥ 1"], ["< 1", "≥ 1"],
         "0.5·a − 2·b = 1.5 (with a = 4, b = 0.25), at least 1 → right"),
        (Split.axis_parallel(1, 2.5, 3), [0.0, 1.0, 0.0], Compare,
         ["b < 2.5", "b ≥ 2.5"], ["< 2.5", "≥ 2.5"], "b = 1, less than 2.5 → left"),
        (Split.equality(2, 1.0, 3), [0.0, 0.0, 0.0], Equal,
         ["c = green", "c ≠ green"], ["= green", "≠ green"],
         "c is red, not green → right"),
        (Split.nominal(2, [0.0, 1.0], 3), [0.0, 0.0, 1.0], Equal,
         ["c = red", "c = green"], ["= red", "= green"], "c is green → green"),
        (Split("argmax", np.eye(3), [0, 0, 0], classes=[2, 0, 1]), [0.0, 3.0, 1.0], Largest,
         ["largest score: z", "largest score: x", "largest score: y"], ["z", "x", "y"],
         "largest score: x (z 0, x 3, y 1) → x"),
        (Split("nearest_centre", [[1, 1, 0]], [0], centres=[[0], [5]]), [2.0, 2.5, 0.0],
         Nearest, ["nearest centre: cluster 1", "nearest centre: cluster 2"],
         ["cluster 1", "cluster 2"], "nearest centre: cluster 2 (distance 0.5) → right"),
        (Split("pairwise_vote", [[1, -1, 0], [1, 0, -1], [0, 1, -1]], [0, 0, 0],
               classes=[0, 1, 2]), [0.0, 2.0, 1.0], Votes,
         ["wins most pairwise votes: x", "wins most pairwise votes: y",
          "wins most pairwise votes: z"],
         ["x", "y", "z"],
         "wins most pairwise votes: y (2 of 2 votes, ahead of z with 1; y vs z won by y) → y"),
    ]


@pytest.mark.parametrize("split, row, form, texts, edges, step", kinds_and_steps())
def test_every_form_renders_its_text_edge_label_and_path_step(split, row, form, texts,
                                                              edges, step):
    conditions = split.conditions()
    assert all(type(condition) is form for condition in conditions)
    assert [c.text(VOCABULARY) for c in conditions] == texts
    assert [c.edge_label(VOCABULARY) for c in conditions] == edges
    position = int(split.route(np.array([row]))[0])
    assert conditions[position].path_step(split, np.array(row), position, VOCABULARY) == step
    # the renderers of rules.py say what the forms say
    assert [condition_text(c, VOCABULARY) for c in conditions] == texts
    assert [edge_text(c, VOCABULARY) for c in conditions] == edges


def test_a_form_says_whether_it_tests_one_attribute_and_has_units():
    hyperplane = Split.hyperplane([0.5, -2.0, 0.0], -1.0).conditions()[0]
    threshold = Split.axis_parallel(1, 2.5, 3).conditions()[0]
    equal = Split.equality(2, 1.0, 3).conditions()[0]
    largest = Split("argmax", np.eye(3), [0, 0, 0]).conditions()[0]
    assert [c.attribute for c in (hyperplane, threshold, equal, largest)] == [None, 1, 2, None]
    assert [c.has_units for c in (hyperplane, threshold, equal, largest)] == [
        True, True, False, True]
    assert [c.multiway for c in (hyperplane, equal, largest)] == [False, False, True]


@dataclass(frozen=True)
class Band(Condition):
    """A form no renderer knows: ``|quantity − threshold| < width`` (inside the band) or
    outside it."""
    form = "band"
    width: float = 1.0

    def edge_label(self, names):
        where = "within" if self.operator == "in" else "beyond"
        return f"{where} {self.width:g} of {self.threshold:g}"

    def path_step(self, split, x, position, names, order=None, max_terms=None):
        return f"{x[self.feature]:g} is {self.edge_label(names)}"

    def quantity_text(self, names, order=None, max_terms=None):
        return Vocabulary.of(names).features[self.feature]

    def text(self, names, order=None, max_terms=None, with_scores=False):
        return f"{self.quantity_text(names)} {self.edge_label(names)}"

    def node_rule(self, conditions, names, order=None, max_terms=None):
        return (conditions[0].text(names),) * 2


class BandKind(SplitKind):
    """A kind no renderer knows: child 0 inside the band ``|x_j − t| < 1``, 1 outside."""
    name = "band"
    one_row = True

    def route(self, split, values):
        return (np.abs(values[:, 0]) >= 1).astype(np.intp)

    def conditions(self, split):
        j = int(split.features_used[0])
        return [Band(operator=operator, feature=j, threshold=-split.bias[0])
                for operator in ("in", "out")]

    def child_half_planes(self, split, position):
        return []


def band_split():
    return Split(BandKind(), [[0.0, 1.0, 0.0]], [-3.0])


def test_a_kind_and_form_unknown_to_the_renderers_read_in_their_own_words():
    split = band_split()
    assert "band" not in KINDS
    assert branch_conditions(split, VOCABULARY) == ["b within 1 of 3", "b beyond 1 of 3"]
    tree = ObliqueTree(3, 2, [split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                       [[2, 2], [2, 0], [0, 2]], [4, 2, 2])
    text = tree.export_text(["a", "b", "c"], ["no", "yes"])
    assert "|--- b within 1 of 3\n" in text and "|--- b beyond 1 of 3\n" in text
    # grown by the kind's own routing (SplitKind.partition), not by a kind's name
    X = np.array([[0, 2.5, 0], [0, 3.5, 0], [0, 0.0, 0], [0, 9.0, 0]])
    grown = grow_tree(X, np.array([0, 0, 1, 1]), np.ones(4), 2,
                      lambda rows, counts, depth: band_split() if depth == 0 else None)
    assert grown.children[0] == (1, 2)
    assert grown.value[1].tolist() == [2, 0] and grown.value[2].tolist() == [0, 2]
    assert grown.apply(X).tolist() == [1, 1, 2, 2]


def test_the_split_kind_is_the_kind_itself_and_pickles_as_the_registered_one():
    split = Split("argmax", np.eye(3), [0, 0, 0])
    assert split.kind is KINDS["argmax"] and split.kind.name == "argmax"
    assert not hasattr(split, "rule")  # "rule" is a printed IF-THEN rule
    assert pickle.loads(pickle.dumps(split)).kind is KINDS["argmax"]
    assert Split(KINDS["hyperplane"], [[1.0, 0.0]], [0.0]) == Split.axis_parallel(0, 0.0, 2)
    assert isinstance(Split.hyperplane([1.0], 0.0).kind, HyperplaneKind)


# ----- a test of one 0/1 indicator column of a nominal value -----

INDICATED = Vocabulary(["status=crew", "age=child", "x"], classes=["no", "yes"],
                       indicators={0: ("status", "crew"), 1: ("age", "child")})


@pytest.mark.parametrize("weights, bias, texts, edges", [
    ([0.0, 1.0, 0.0], -0.5, ["age ≠ child", "age = child"], ["≠ child", "= child"]),
    ([0.0, -2.0, 0.0], 0.6, ["age = child", "age ≠ child"], ["= child", "≠ child"]),
])
def test_a_test_of_one_indicator_column_is_an_equality(weights, bias, texts, edges):
    """``age=child ≥ 0.5`` reads ``age = child``; a negative weight (``age=child ≤ 0.3``)
    turns the sides: the branch of the column's 1 is always ``=``."""
    split = Split.hyperplane(weights, bias)
    conditions = split.conditions()
    assert [c.text(INDICATED) for c in conditions] == texts
    assert [c.edge_label(INDICATED) for c in conditions] == edges
    assert branch_conditions(split, INDICATED) == texts
    assert conditions[0].node_rule(conditions, INDICATED) == ("age = child",) * 2
    assert conditions[0].quantity_text(INDICATED) == "age"
    assert not conditions[0].in_units(INDICATED)
    child, adult = np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 0.0])
    for row, word in ((child, "is"), (adult, "is not")):
        position = int(split.route(row[None, :])[0])
        assert conditions[position].text(INDICATED) == texts[position]
        arrow = ("left", "right")[position]
        assert (conditions[position].path_step(split, row, position, INDICATED)
                == f"age {word} child → {arrow}")


def test_other_tests_of_an_indicator_column_stay_comparisons():
    """A threshold outside (0, 1) (no row's side depends on the value), an oblique
    hyperplane over indicators and a column that is no indicator read as before."""
    outside = Split.hyperplane([0.0, 1.0, 0.0], -1.5).conditions()
    assert [c.text(INDICATED) for c in outside] == ["age=child < 1.5", "age=child ≥ 1.5"]
    oblique = Split.hyperplane([1.0, 1.0, 0.0], -0.5).conditions()
    assert oblique[1].text(INDICATED) == "status=crew + age=child ≥ 0.5"
    numeric = Split.hyperplane([0.0, 0.0, 1.0], -0.5).conditions()
    assert numeric[1].text(INDICATED) == "x ≥ 0.5" and numeric[1].in_units(INDICATED)
    # without the vocabulary's indicators, the column is a number
    plain = Split.hyperplane([0.0, 1.0, 0.0], -0.5).conditions()
    assert plain[1].text(["status=crew", "age=child", "x"]) == "age=child ≥ 0.5"


def test_a_rows_values_in_a_path_step_name_nominal_values():
    """The row's values in a hyperplane's path step: a code by its value's name, a 0/1
    column of a nominal value by the attribute's value (``status = first``, or the
    values it is not), a missing value as missing."""
    vocabulary = Vocabulary(["age", "status=first", "status=crew", "sex=male", "c"],
                            values=[None, None, None, None, ["red", "green"]],
                            indicators={1: ("status", "first"), 2: ("status", "crew"),
                                        3: ("sex", "male")})
    x = np.array([63.0, 1.0, 0.0, 0.0, 1.0])
    assert vocabulary.values_of(range(5), x) == ("age = 63, status = first, sex ≠ male, "
                                                 "c = green")
    x = np.array([np.nan, 0.0, 0.0, 0.25, 0.0])
    assert vocabulary.values_of(range(5), x) == ("age = missing, status ≠ first, crew, "
                                                 "sex=male = 0.25, c = red")
