"""Pruning needs a minimum held-out set; below it the tree is not pruned."""
import numpy as np
from sklearn.datasets import load_iris
from sklearn.model_selection import LeaveOneOut, cross_val_score

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier
from orangecontrib.oblique.core.base import MIN_PRUNING_ROWS


def test_leave_one_out_on_fifteen_iris_rows():
    """14 training rows held out one row to prune, and ties pruned every tree to the root:
    leave-one-out scored 0 %."""
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:5, 50:55, 100:105]
    scores = cross_val_score(OC1Classifier(random_state=0), X[rows], y[rows],
                             cv=LeaveOneOut())
    assert scores.mean() > 0.6


def test_below_the_minimum_the_tree_is_grown_on_all_rows():
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:10, 50:10 + 50, 100:110]          # 30 rows: 3 held out at 10 %
    assert round(0.1 * len(rows)) < MIN_PRUNING_ROWS
    pruned = OC1Classifier(random_state=0).fit(X[rows], y[rows])
    unpruned = OC1Classifier(random_state=0, pruning_portion=0.0).fit(X[rows], y[rows])
    assert pruned.tree_.splits == unpruned.tree_.splits
    # at or above it, the held-out rows prune as before
    model = GeometricTreeClassifier(pruning_portion=0.1, random_state=0).fit(X, y)
    assert model.tree_.n_leaves >= 1


def test_two_rows_of_different_classes_are_told_apart():
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    model = OC1Classifier(random_state=0).fit(X, [0, 1])
    assert model.predict(X).tolist() == [0, 1]
