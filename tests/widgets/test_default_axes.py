"""The partition's default axes: after the attributes of the selected split, the tree's
other attributes by importance."""
import numpy as np
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.oblique import GeometricTreeLearner
from orangecontrib.oblique.presentation import DisplayTree
from orangecontrib.oblique.widgets.optionalviews import default_axes


def test_the_second_axis_of_a_one_attribute_split_is_the_most_important_other_attribute():
    """The root tests a alone, its child d; b and c are noise: the second axis is d (the
    tree's importances break the tie of the attributes the split does not weigh), not b,
    the next column."""
    X = np.random.RandomState(0).uniform(-1, 1, (400, 4))
    y = ((X[:, 0] > 0) & (X[:, 3] > 0)).astype(float)
    domain = Domain([ContinuousVariable(name) for name in "abcd"],
                    DiscreteVariable("y", values=("0", "1")))
    model = GeometricTreeLearner(max_terms=1, max_depth=2)(Table.from_numpy(domain, X, y))
    importances = model.tree_.feature_importances()
    assert list(np.flatnonzero(model.tree_.splits[0].weights[0])) == [0]
    assert importances[3] > 0 and importances[1] == importances[2] == 0
    assert default_axes(DisplayTree.of_model(model), None, X, {}) == (0, 3)
