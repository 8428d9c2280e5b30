"""Errors that name the problem: an Orange model given raw arrays of the wrong width, a
forest's out-of-bag estimate on one row per class."""
import numpy as np
import pytest
from Orange.data import Table

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner,
                                   ObliqueForestLearner)
from orangecontrib.oblique.core import ObliqueForestClassifier


@pytest.mark.parametrize("learner", [GeometricTreeLearner, HedgeEnsembleLearner,
                                     ObliqueForestLearner])
@pytest.mark.parametrize("width", [2, 5])
def test_an_array_of_another_width_is_refused_with_both_numbers(learner, width):
    data = Table("iris")
    model = learner()(data)
    X = np.resize(data.X, (len(data), width))
    with pytest.raises(ValueError, match=f"X has {width} columns, but the model expects 4"):
        model(X)
    np.testing.assert_array_equal(model(data.X), model(data))   # the right width works


def test_out_of_bag_on_one_row_per_class_says_why():
    X, y = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]), np.array([0, 1, 2])
    with pytest.raises(ValueError, match="every class has one row"):
        ObliqueForestClassifier(oob_score=True, random_state=0).fit(X, y)
