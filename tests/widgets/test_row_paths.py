"""A row's path in the Oblique Tree Viewer is the model's path in the row's own values.

For every kind of split (hyperplane, equality, nominal, argmax, nearest centre, pairwise
vote), on titanic, heart_disease and zoo, for single trees and ensemble members: every
step names the row's actual value of each attribute it mentions and the branch the model
takes (never "None"), the nodes are those of the core tree's ``decision_path``, and a row
with a missing value that C4.5's shares send down several branches is followed down all
of them, each node with the row's share, ending at the model's own prediction.
"""
import re
from functools import lru_cache

import numpy as np
import pytest
from Orange.data import Table
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner,
                                   OC1Learner, ObliqueForestLearner, ODTSVMLearner)
from orangecontrib.oblique.widgets import viewertexts
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter

#: (name, learner) of the single trees; the ODT-SVM variants between them grow every
#: kind of split
LEARNERS = {
    "ODT-SVM": lambda: ODTSVMLearner(),
    "ODT-SVM binary one-vs-rest": lambda: ODTSVMLearner(nominal_tests="binary",
                                                        multiclass="one_vs_rest"),
    "ODT-SVM clusters": lambda: ODTSVMLearner(mdl_penalty=False, max_clusters=5,
                                              random_state=0),
    "GDT": lambda: GeometricTreeLearner(),
    "OC1": lambda: OC1Learner(random_state=0),
}
#: iris (numeric, three classes) for the multiway kinds of ODT-SVM
DATA = ("titanic", "heart_disease", "zoo", "iris")


@lru_cache(maxsize=None)
def table(name):
    return Table(name)


@lru_cache(maxsize=None)
def adapter(learner, data_name):
    data = table(data_name)
    model = LEARNERS[learner]()(data)
    model.instances = data
    return TreeAdapter.from_model(model)


@lru_cache(maxsize=None)
def member_adapter(ensemble, data_name):
    data = table(data_name)
    learner = (HedgeEnsembleLearner(n_estimators=3, random_state=0) if ensemble == "Hedge"
               else ObliqueForestLearner(n_estimators=3, random_state=0))
    model = learner(data)
    model.instances = data
    return TreeAdapter.from_model(model.member_model(1, data))


def model_rows(tree, data):
    """The rows of ``data`` in the model's domain, dense."""
    return np.asarray(tree.transform(data).X, dtype=float)


def check_step_values(tree, x, step):
    """Every attribute the step's words mention is named with the row's own value."""
    vocabulary = tree.vocabulary
    assert "None" not in step.words, step.words
    if step.words == "leaf":
        return
    words = step.words
    if "(with " in words:  # a hyperplane: the row's values are listed in the brackets
        words = "(" + words.split("(with ", 1)[1].rsplit("), ", 1)[0] + ","
    for j in tree.features_of(step.node):
        name = vocabulary.features[j]
        attribute, value = (vocabulary.indicators or {}).get(j, (None, None))
        if attribute is not None and "(with " in step.words and x[j] == 1 \
                and name in step.words:
            # a hyperplane over 0/1 columns names the attribute's value of the row
            assert f"{attribute} = {value}" in words, words
            continue
        if attribute is not None and re.search(rf"(^|[ (·,]){re.escape(attribute)} is ",
                                               words):
            # a 0/1 column of a nominal value read as an equality: the row's value
            assert (f"{attribute} is {value}" if x[j] == 1 else
                    f"{attribute} is not {value}") in words, (x[j], words)
            continue
        if re.search(rf"(^|[ (·,]){re.escape(name)} (=|is) ", words):
            value = vocabulary.value_of(j, x[j])
            assert (f"{name} = {value}" in words
                    or f"{name} is {value}" in words), (name, value, words)


def check_paths(tree, data, rows):
    X = model_rows(tree, data)
    core = tree.tree
    kinds = set()
    for row in rows:
        x = X[row]
        steps = tree.row_path(data, row)
        assert [step.node for step in steps][0] == 0
        for step in steps:
            check_step_values(tree, x, step)
            split = core.splits[tree.core_node(step.node)]
            if split is not None:
                kinds.add(split.kind.name)
        finite = np.isfinite(x).all()
        if finite or not core.routes_by_weight:
            # one path: the nodes the model's decision_path passes (those shown)
            passed = core.decision_path(x[None, :]).indices
            core_of = [tree.display.core_node(n) for n in range(tree.node_count)]
            shown = [core_of[step.node] for step in steps]
            assert shown == [node for node in passed if node in core_of]
            assert all(step.share == 1 for step in steps)
        else:
            # divided by a missing value: the leaves' shares are the model's
            weights = core.stop_weights(x[None, :]).toarray()[0]
            leaves = {tree.core_node(s.node): s.share for s in steps if s.words == "leaf"}
            for node, share in leaves.items():
                assert share == pytest.approx(weights[node])
            assert sum(leaves.values()) == pytest.approx(weights.sum())
    return kinds


def sampled(data, count):
    """About ``count`` rows of ``data``, evenly spread."""
    return range(0, len(data), max(1, len(data) // count))


@lru_cache(maxsize=None)
def checked_kinds(learner, data_name):
    """Check the paths of ``learner``'s tree of ``data_name``: the kinds on them."""
    data = table(data_name)
    return frozenset(check_paths(adapter(learner, data_name), data, sampled(data, 40)))


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("data_name", DATA)
def test_every_step_in_the_rows_own_values(learner, data_name):
    checked_kinds(learner, data_name)


def test_every_kind_of_split_is_checked():
    kinds = set()
    for learner in LEARNERS:
        for data_name in DATA:
            kinds |= checked_kinds(learner, data_name)
    assert kinds == {"hyperplane", "equality", "nominal", "argmax", "nearest_centre",
                     "pairwise_vote"}


@pytest.mark.parametrize("ensemble", ["Hedge", "forest"])
@pytest.mark.parametrize("data_name", DATA)
def test_ensemble_members(ensemble, data_name):
    data = table(data_name)
    check_paths(member_adapter(ensemble, data_name), data, sampled(data, 30))


def test_titanic_first_row_reads_its_own_values():
    """Row 1 of titanic (first, adult, male): the path names first, adult and male, as
    the highlighted path takes them, and no branch is "None"."""
    tree = adapter("ODT-SVM", "titanic")
    data = table("titanic")
    words = " ".join(step.words for step in tree.row_path(data, 0))
    assert "sex is male" in words
    assert "female" not in words and "crew" not in words and "None" not in words


def test_zoo_aardvark_has_four_legs():
    tree = adapter("ODT-SVM", "zoo")
    data = table("zoo")
    steps = tree.row_path(data, 0)
    assert steps[0].words == "legs is 4 → 4"


def test_a_missing_value_divides_the_path_and_ends_at_the_models_prediction():
    """ODT-SVM shares a row with a missing value among the branches (C4.5): the path
    says which branches and how much, and ends with the model's own distribution."""
    tree = adapter("ODT-SVM", "heart_disease")
    data = table("heart_disease")
    X = model_rows(tree, data)
    missing = np.flatnonzero(~np.isfinite(X).all(axis=1))
    assert missing.size
    divided = 0
    for row in missing:
        steps = tree.row_path(data, row)
        distribution = tree.row_distribution(data, row)
        np.testing.assert_allclose(distribution, tree.model(data[row:row + 1],
                                                            tree.model.Probs)[0])
        leaves = [step for step in steps if step.words == "leaf"]
        mix = sum(step.share * tree.train_value[step.node]
                  / tree.train_value[step.node].sum() for step in leaves)
        if len(leaves) > 1:
            divided += 1
            assert any("is missing: the row goes down every branch" in step.words
                       for step in steps)
            lines = viewertexts.path_lines(tree, None, row, steps, None, distribution)
            assert lines[-1].startswith(f"Prediction: the mix of the {len(leaves)} leaves")
            assert any("% of the row)" in line for line in lines)
        np.testing.assert_allclose(mix, distribution, atol=1e-9)
    assert divided


def test_counts_are_the_models_with_fractional_rows():
    """Recounting the training rows gives the model's own counts, rows divided by a
    missing value included with their shares (not 65 / 88 / 67 of whole rows)."""
    tree = adapter("ODT-SVM", "heart_disease")
    counts = tree.recount(table("heart_disease"))
    np.testing.assert_allclose(counts.value, tree.train_value, atol=1e-9)
    np.testing.assert_allclose(counts.n, tree.train_value.sum(axis=1), atol=1e-9)
    assert not np.allclose(counts.n, np.round(counts.n))  # some shares are fractional


def test_orange_tree_paths_unchanged_in_shape():
    """Orange's own tree: one path, each step in the row's values."""
    from Orange.classification import TreeLearner
    data = table("titanic")
    tree = TreeAdapter.from_model(TreeLearner()(data))
    steps = tree.row_path(data, 0)
    assert steps[0].words.startswith("status is first") or "is" in steps[0].words
    assert steps[-1].words == "leaf"
    assert all("None" not in step.words for step in steps)


class TestViewerTracesADividedPath(WidgetTest):
    def test_every_branch_of_a_divided_path_is_traced(self):
        from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
        widget = self.create_widget(OWObliqueTreeViewer)
        tree = adapter("ODT-SVM", "heart_disease")
        data = table("heart_disease")
        self.send_signal(widget.Inputs.tree, tree.model)
        row = int(np.flatnonzero(np.isnan(model_rows(tree, data)).any(axis=1))[0])
        steps = tree.row_path(data, row)
        assert sum(step.words == "leaf" for step in steps) > 1
        widget.row_spin.setValue(row + 1)
        self.assertEqual(sorted(widget.scene.traced), sorted(s.node for s in steps))
        self.assertTrue(all(widget.items[s.node].traced for s in steps
                            if s.node in widget.items))
        last = widget.path_list.item(widget.path_list.count() - 1).text()
        self.assertTrue(last.startswith("Prediction: the mix of"), last)
