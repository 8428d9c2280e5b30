"""The conditions Orange shows (node texts, Tree Viewer rules, the Oblique Tree Viewer's
rules tab and saved rules, in raw units or over z-scores) route every training row as the
model does."""
import numpy as np
import pytest

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner, ODTSVMLearner
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter

from tests.helpers.printed_rules import VOTES, branch_position, condition_holds


def income_table(n_classes, seed=0, n=400):
    rng = np.random.default_rng(seed)
    income = rng.uniform(2e4, 1.2e5, n)
    age = rng.uniform(18, 80, n)
    hours = rng.uniform(0.001, 0.05, n)
    score = 0.000572 * income + age - 400 * hours + rng.normal(0, 4, n)
    cuts = [89] if n_classes == 2 else [75, 100]
    y = np.searchsorted(cuts, score)
    domain = Domain([ContinuousVariable("annual income"), ContinuousVariable("age"),
                     ContinuousVariable("hours (k)")],
                    DiscreteVariable("class", values=[f"c{k}" for k in range(n_classes)]))
    return Table.from_numpy(domain, np.c_[income, age, hours], y.astype(float))


LEARNERS = {"GDT": GeometricTreeLearner, "OC1": lambda: OC1Learner(n_restarts=4,
                                                                   random_state=0),
            "ODT-SVM": lambda: ODTSVMLearner(random_state=0)}


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_orange_node_conditions_route_as_the_model(learner, n_classes):
    data = income_table(n_classes)
    model = LEARNERS[learner]()(data)
    X = data.transform(model.domain).X
    names = [attr.name for attr in model.domain.attributes]
    n_checked = 0
    for node in model._nodes():
        kids = [child for child in node.children if child is not None]
        if not kids:
            continue
        assert len(kids) == len(node.children)  # every branch reached by training rows
        # a pairwise-vote node's scores: the quantity its label states
        position = branch_position([child.condition for child in kids], names,
                                   X[node.subset], node.attr.text)
        if position is None:
            continue
        for k, child in enumerate(kids):
            assert np.array_equal(node.subset[position == k], np.sort(child.subset)), (
                f"{learner}: the printed {child.condition!r} routes rows differently")
        n_checked += 1
    assert n_checked >= 1


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_viewer_rules_route_as_the_model(learner):
    """Every leaf's IF … THEN rule of the viewer (rules tab, copy, save, report) holds for
    exactly the training rows the model sends to that leaf."""
    data = income_table(2, seed=3)
    model = LEARNERS[learner]()(data)
    view = TreeAdapter.from_model(model)
    X = data.transform(model.domain).X
    names = [attr.name for attr in model.domain.attributes]
    leaf_of_row = model.estimator.tree_.apply(X)
    for rule in view.rules():
        assert "IF " + " AND ".join(rule.conditions) in view.rules_text()
        holds = np.ones(len(X), dtype=bool)
        for node, condition in zip(view.path(rule.leaf)[1:], rule.conditions):
            parent = view.parent[node]
            siblings = [view.conditions[c] for c in view.children[parent]]
            position = branch_position(siblings, names, X)
            holds &= position == view.children[parent].index(node)
        assert np.array_equal(np.flatnonzero(holds), np.flatnonzero(leaf_of_row == rule.leaf))


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_texts_list_terms_in_the_trees_order(learner):
    """The exactness above holds with the terms in one order per tree (by importance),
    which the model's and the viewer's texts use."""
    model = LEARNERS[learner]()(income_table(2))
    view = TreeAdapter.from_model(model)
    importances = model.feature_importances
    names = [attr.name for attr in model.domain.attributes]
    assert view.texts.tree_order is not None
    assert [names[j] for j in view.texts.tree_order] == sorted(
        names, key=lambda name: (-importances[names.index(name)], name))


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_standardised_conditions_route_as_the_model(learner, n_classes):
    """Complete conditions over z-scores (the viewer's "per standard deviation"), applied
    to ``z = (x − mean) / SD`` of the training rows, route them as the model does."""
    data = income_table(n_classes, seed=5)
    model = LEARNERS[learner]()(data)
    model.instances = data
    view = TreeAdapter.from_model(model)
    view.set_units(True)
    assert view.per_sd
    X = data.transform(model.domain).X
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    names = view.texts.z_vocabulary.features
    reached, _ = view.route(X)
    n_checked = 0
    for node, kids in enumerate(view.children):
        if not kids:
            continue
        rows = reached[node]
        # a pairwise-vote node's branches name classes; its scores are the node's
        scores = view.texts.quantity(view._split(node), per_sd=True)
        assert "z(" in scores
        assert all("z(" in view.conditions[kid] or view.conditions[kid].startswith(VOTES)
                   for kid in kids)
        position = branch_position([view.conditions[kid] for kid in kids], names, Z[rows],
                                   scores)
        if position is None:
            continue
        for k, kid in enumerate(kids):
            assert np.array_equal(np.sort(rows[position == k]), np.sort(reached[kid])), (
                f"{learner}: the printed {view.conditions[kid]!r} routes rows differently")
        n_checked += 1
    assert n_checked >= 1


class TestFullRulesOfTheRulesTab(base.WidgetTest):
    """The Rules tab with "Show full rules": every IF … condition, read back from the
    tab's text, holds for exactly the training rows of its leaf."""

    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)

    def test_rules_tab(self):
        data = income_table(2, seed=3)
        widget = self.widget
        widget.max_terms = 1
        widget.controls.full_rules.click()
        assert widget.full_rules
        for learner in ("GDT", "OC1"):  # binary splits: every condition stands alone
            model = LEARNERS[learner]()(data)
            model.instances = data
            self.send_signal(widget.Inputs.tree, model)
            text = widget.rules_panel.edit.toPlainText()
            assert " more" not in text
            X = data.transform(model.domain).X
            names = [attr.name for attr in model.domain.attributes]
            leaf_of_row = model.estimator.tree_.apply(X)
            lines = text.splitlines()
            leaves = widget.view_tree.leaves()
            assert len(lines) == len(leaves)
            for line, leaf in zip(lines, leaves):
                conditions = line[len("IF "):line.index(" THEN ")].split(" AND ")
                holds = np.ones(len(X), dtype=bool)
                for condition in conditions:
                    holds &= condition_holds(condition, names, X)
                assert np.array_equal(holds, leaf_of_row == leaf), line
