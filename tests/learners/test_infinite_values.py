"""Rows with ±inf (which the learners treat as missing) shown without numpy warnings."""
import warnings

import numpy as np
from Orange.data import Table

from orangecontrib.oblique import HedgeEnsembleLearner


def test_a_member_tree_of_rows_with_infinities_is_made_without_numpy_warnings():
    """The member tree the Hedge widget sends is made on the widget's table, ±inf
    included: its display tree's SDs skip them (numpy warned of an invalid value)."""
    data = Table("iris")
    with data.unlocked(data.X):
        data.X[1::11, 3] = np.inf
        data.X[2::13, 0] = -np.inf
    model = HedgeEnsembleLearner(n_estimators=3, random_state=0)(data)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        member = model.member_model(0, data)
    assert member.node_count() >= 1
    assert np.isfinite(member.display.texts.std).all()
