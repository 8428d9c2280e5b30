"""Names in the printed trees: an ensemble's member trees fitted on a
data frame name its columns; ODT-SVM's printed tree names nominal values as its node texts
do; an argmax or pairwise-vote split's branches print the scores that decide them."""
import re

import numpy as np
import pandas as pd
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.oblique import ODTSVMLearner
from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        ObliqueForestClassifier, ODTSVMClassifier)
from orangecontrib.oblique.core.tree.rules import MAX_SCORES_LISTED
from orangecontrib.oblique.core.tree.splits import PAIRWISE_VOTE, Split
from orangecontrib.oblique.core.tree.structure import ObliqueTree

COLUMNS = ["alpha", "beta", "gamma"]


def frame(n=150, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 3)), columns=COLUMNS)
    y = np.digitize(X.alpha + 0.7 * X.beta, [-0.6, 0.6])
    return X, y


def assert_named(text):
    assert not re.search(r"\bx[123]\b", text), text
    assert any(name in text for name in COLUMNS), text


@pytest.mark.parametrize("estimator", [None, GeometricTreeClassifier()],
                         ids=["sporf", "gdt-on-subsets"])
def test_forest_members_print_the_column_names(estimator):
    X, y = frame()
    forest = ObliqueForestClassifier(n_estimators=3, estimator=estimator,
                                     random_state=0).fit(X, y)
    for member in forest.estimators_:
        assert_named(member.export_text())
    # the names given are still the ones printed
    assert "f1" in forest.estimators_[0].export_text(feature_names=["f1", "f2", "f3"])


def test_forest_fitted_on_arrays_prints_x_names():
    X, y = frame()
    forest = ObliqueForestClassifier(n_estimators=2, random_state=0).fit(X.to_numpy(), y)
    assert "x1" in forest.estimators_[0].export_text()
    # a refit on arrays forgets the names of an earlier fit on a data frame
    forest.fit(X, y).fit(X.to_numpy(), y)
    assert "alpha" not in forest.estimators_[0].export_text()


def test_hedge_members_print_the_column_names_also_after_replacement():
    X, y = frame()
    hedge = HedgeEnsembleClassifier(n_estimators=3, random_state=0, replace_members=True,
                                    weight_threshold=0.3, window=60).fit(X, y)
    for member in hedge.estimators_:
        assert_named(member.export_text())
    # a row where the members disagree, labelled as the odd one predicts it: the others
    # lose weight on it until they fall below the threshold and are replaced
    predictions = np.array([member.predict(X.to_numpy()) for member in hedge.estimators_])
    disagree = np.flatnonzero((predictions != predictions[0]).any(axis=0))
    assert disagree.size
    row = disagree[0]
    votes = predictions[:, row]
    odd_one = min(votes.tolist(), key=votes.tolist().count)
    for _ in range(10):
        hedge.partial_fit(X.iloc[[row]], [odd_one])
        if hedge.n_replaced_:
            break
    assert hedge.n_replaced_ > 0
    for member in hedge.estimators_:
        assert_named(member.export_text())


def three_class_odt_svm():
    X, y = frame()
    return ODTSVMClassifier(clustering_split=False, random_state=0).fit(X.to_numpy(), y)


def test_odt_svm_pairwise_vote_node_prints_its_hyperplanes_once():
    model = three_class_odt_svm()
    root = model.tree_.splits[0]
    assert root.kind.name == PAIRWISE_VOTE
    lines = model.export_text().splitlines()
    branches = [line for line in lines if "wins most pairwise votes" in line]
    assert len(branches) >= 3
    assert not any(" vs " in line for line in branches)     # the branches name a class
    scores = lines[0]                                       # above the root's branches
    assert scores.startswith("|    scores: ")
    for pair in ("0 vs 1: ", "0 vs 2: ", "1 vs 2: "):
        assert pair in scores
    assert "·x1" in scores or "·x2" in scores or "·x3" in scores


def test_many_pairwise_scores_are_listed_once_above_the_branches():
    k = 6                                       # 15 pairs: more than the listed maximum
    pairs = k * (k - 1) // 2
    assert pairs > MAX_SCORES_LISTED
    rng = np.random.default_rng(0)
    split = Split(PAIRWISE_VOTE, rng.normal(size=(pairs, 2)), rng.normal(size=pairs))
    tree = ObliqueTree(2, k, [split] + [None] * k, [list(range(1, k + 1))] + [[]] * k,
                       [-1] + [0] * k, np.vstack([np.ones(k), np.eye(k)]),
                       np.r_[k, np.ones(k)])
    lines = tree.export_text(["u", "v"]).splitlines()
    score_lines = [line for line in lines if "scores:" in line and "vs" in line]
    assert len(score_lines) == 1
    assert score_lines[0].count(" vs ") == pairs and "·u" in score_lines[0]
    assert lines.index(score_lines[0]) == 0     # above the branches
    assert sum("wins most pairwise votes" in line for line in lines) == k


def nominal_table():
    rng = np.random.default_rng(3)
    n = 120
    thal = rng.integers(0, 3, n)
    age = rng.normal(50, 10, n)
    y = (thal == 1).astype(float)
    domain = Domain([DiscreteVariable("thal", values=("fixed", "normal", "reversable")),
                     ContinuousVariable("age")],
                    DiscreteVariable("disease", values=("no", "yes")))
    return Table.from_numpy(domain, np.column_stack([thal, age]), y)


def test_odt_svm_print_tree_names_nominal_values_as_the_node_texts_do():
    data = nominal_table()
    model = ODTSVMLearner()(data)
    node_texts = [node.description for node in model._nodes() if node.parent is not None]
    assert any("normal" in text for text in node_texts)
    printed = model.print_tree()
    assert "thal = normal" in printed or "thal ≠ normal" in printed
    assert not re.search(r"thal [=≠] \d", printed), printed


def test_core_export_text_names_nominal_values_when_given():
    data = nominal_table()
    model = ODTSVMClassifier(categorical_features=[0], random_state=0).fit(data.X, data.Y)
    assert re.search(r"x1 [=≠] 1", model.export_text())
    named = model.export_text(feature_names=["thal", "age"],
                              value_names=[["fixed", "normal", "reversable"], None])
    assert re.search(r"thal [=≠] normal", named)
    with pytest.raises(ValueError, match="value names for 2 features"):
        model.export_text(value_names=[None])


@pytest.mark.parametrize("learner", ["gdt", "oc1"])
def test_a_test_of_one_indicator_column_reads_as_an_equality(learner):
    """titanic (nominal attributes only: 0/1 indicator columns) at the widgets' defaults
    of at most 3 attributes a split: a test of one indicator column read ``age=child ≥
    0.5``; it reads ``age = child`` / ``age ≠ child`` in the printed tree, the node
    texts (condition, edge label, node box) and the viewer's rules and path steps."""
    from orangecontrib.oblique import GeometricTreeLearner, OC1Learner
    from orangecontrib.oblique.presentation import DisplayTree, indicator_columns
    data = Table("titanic")
    if learner == "gdt":
        model = GeometricTreeLearner(max_terms=3, min_samples_split=5, min_samples_leaf=2,
                                     max_depth=20)(data)
    else:
        model = OC1Learner(max_terms=1, random_state=0)(data)
    attributes = model.domain.attributes
    indicators = indicator_columns(attributes)
    assert {attributes[j].name: value for j, value in indicators.items()} == {
        "status=crew": ("status", "crew"), "status=first": ("status", "first"),
        "status=second": ("status", "second"), "status=third": ("status", "third"),
        "age=child": ("age", "child"), "sex=male": ("sex", "male")}
    text = model.print_tree()
    assert not re.search(r"\|--- \w+=\w+ [<≥>≤] ", text), text
    display = DisplayTree.of_model(model)
    single = [node for node in range(display.node_count) if display.split(node) is not None
              and display.split(node).features_used.size == 1]
    assert single, "the tree tests one indicator column alone"
    conditions, labels = display.branch_texts()
    for node in single:
        split = display.split(node)
        attribute, value = indicators[int(split.features_used[0])]
        kids = display.children[node]
        assert {conditions[k] for k in kids} <= {f"{attribute} = {value}",
                                                 f"{attribute} ≠ {value}"}
        assert {labels[k] for k in kids} <= {f"= {value}", f"≠ {value}"}
        assert f"|--- {attribute} = {value}\n" in text
        assert display.label(node).text == attribute
        assert display.texts.node_rule(split)[1] == f"{attribute} = {value}"
        row = np.zeros(len(attributes))
        row[split.features_used[0]] = 1.0
        assert display.texts.path_step(split, row).startswith(f"{attribute} is {value} → ")
    nodes = [node for node in model._nodes() if node.parent is not None]
    assert any(node.description.startswith(("= ", "≠ ")) for node in nodes)
