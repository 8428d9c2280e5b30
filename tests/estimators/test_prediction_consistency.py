"""A row's prediction does not depend on the rows predicted with it, nor on the array's
memory layout: a hyperplane's value is one sum in feature order (no BLAS call, whose
rounding depends on the batch and the alignment)."""
import numpy as np
import pytest

from orangecontrib.oblique.core import ObliqueForestClassifier


@pytest.mark.slow  # 3,000 single-row predictions, about 10 s
def test_a_row_is_predicted_alike_alone_and_in_a_batch():
    rng = np.random.RandomState(0)
    X = rng.randint(-3, 4, size=(3000, 8)).astype(float)   # integer values: rows on planes
    y = (X[:, 0] + X[:, 1] - X[:, 2] + rng.randint(0, 2, 3000) > 0).astype(int)
    forest = ObliqueForestClassifier(n_estimators=30, random_state=0).fit(X, y)
    together = forest.predict_proba(X)
    alone = np.vstack([forest.predict_proba(X[i:i + 1]) for i in range(len(X))])
    np.testing.assert_array_equal(alone, together)
    np.testing.assert_array_equal(forest.predict_proba(np.asfortranarray(X)), together)
    np.testing.assert_array_equal(forest.predict_proba(X[::-1])[::-1], together)
