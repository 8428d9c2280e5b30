"""GDT as its paper means it: ε1 chosen in the paper's range."""
import numpy as np
import pytest
from sklearn.datasets import load_iris

from orangecontrib.oblique.core import GeometricTreeClassifier
from orangecontrib.oblique.core.geometric.classifier import AUTO_EPSILON1


# ----- GDT: ε1 chosen in the paper's range -----

class TestEpsilonAuto:
    def test_chosen_in_range_from_training_rows_only(self, monkeypatch):
        from orangecontrib.oblique.core.datasets import checkerboard_4x4
        X, y = checkerboard_4x4(n_samples=400, random_state=0)
        train = np.arange(300)
        seen = []
        fit = GeometricTreeClassifier.fit

        def spy(self, X_fit, y_fit, *args, **kwargs):
            seen.append((self.epsilon1, X_fit.copy()))
            return fit(self, X_fit, y_fit, *args, **kwargs)
        monkeypatch.setattr(GeometricTreeClassifier, "fit", spy)
        model = GeometricTreeClassifier(epsilon1="auto", random_state=0).fit(X[train],
                                                                             y[train])
        assert 0.1 <= model.epsilon1_ <= 0.2
        assert model.epsilon1_ in AUTO_EPSILON1
        assert sorted(model.epsilon1_scores_) == list(AUTO_EPSILON1)
        inner = [(e, rows) for e, rows in seen if e != "auto"]
        assert len(inner) == 5 * len(AUTO_EPSILON1)
        training = {tuple(row) for row in X[train]}
        for _, rows in inner:
            assert len(rows) < len(train)
            assert all(tuple(row) in training for row in rows)

    def test_fixed_epsilon_is_kept(self):
        X, y = load_iris(return_X_y=True)
        model = GeometricTreeClassifier(epsilon1=0.15).fit(X, y)
        assert model.epsilon1_ == 0.15 and model.epsilon1_scores_ is None

    def test_invalid(self):
        X, y = load_iris(return_X_y=True)
        with pytest.raises(ValueError, match="epsilon1"):
            GeometricTreeClassifier(epsilon1="best").fit(X, y)
