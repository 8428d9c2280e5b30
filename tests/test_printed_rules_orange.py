"""The conditions Orange shows (node texts, Tree Viewer rules, the Oblique Tree Viewer's
rules tab and saved rules) route every training row as the model does (robustness, D1)."""
import numpy as np
import pytest

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.oblique import GeometricTreeLearner, OC1Learner, ODTSVMLearner
from orangecontrib.oblique.widgets.treeadapter import TreeAdapter

from core.printed_rules import branch_position


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
        position = branch_position([child.condition for child in kids], names,
                                   X[node.subset])
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
