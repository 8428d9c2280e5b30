"""Sparse Orange tables in the learners: densified up to
``validation.MAX_DENSE_BYTES`` (and fitted as the dense table), refused above it before any
preprocessing, after the user's own preprocessors (which may shrink the table); models
predict sparse rows in blocks.  The cases of ``tests/hostile_inputs/test_table.py`` ("sparse table",
"sparse table too large to densify") cover the outcome; these tests cover the order and
the blocks.
"""
import numpy as np
import pytest
import scipy.sparse as sp

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.preprocess import RemoveNaNColumns

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner, OC1Learner,
                                   ODTSVMLearner)
from orangecontrib.oblique.core import validation

LEARNERS = {
    "GDT": lambda **kw: GeometricTreeLearner(**kw),
    "OC1": lambda **kw: OC1Learner(n_restarts=5, random_state=0, **kw),
    "ODT-SVM": lambda **kw: ODTSVMLearner(random_state=0, **kw),
    "Hedge": lambda **kw: HedgeEnsembleLearner(n_estimators=3, **kw),
}


def text_like_table(n_rows=2000, n_columns=20000, n_values=80000):
    """0.2 % of the cells are counts; the class is whether the row's first attribute is
    (a third of the rows, and a few by chance)."""
    rng = np.random.default_rng(0)
    marked = np.arange(0, n_rows, 3)
    rows = np.r_[rng.integers(0, n_rows, n_values), marked]
    columns = np.r_[rng.integers(0, n_columns, n_values), np.zeros(len(marked), int)]
    values = np.r_[rng.integers(1, 5, n_values), np.full(len(marked), 2)].astype(float)
    X = sp.csr_matrix((values, (rows, columns)), shape=(n_rows, n_columns))
    y = (X[:, 0].toarray().ravel() > 0).astype(float)
    domain = Domain([ContinuousVariable(f"w{i}") for i in range(n_columns)],
                    DiscreteVariable("y", values=["no", "yes"]))
    return Table.from_numpy(domain, X, y)


class FirstColumns:
    """A user's preprocessor that keeps the first ``count`` attributes (as Select Columns
    or Rank would)."""

    def __init__(self, count):
        self.count = count

    def __call__(self, data):
        domain = data.domain
        return data.transform(Domain(domain.attributes[:self.count], domain.class_vars))


@pytest.fixture(scope="module")
def text_table():
    return text_like_table()


@pytest.mark.parametrize("name", list(LEARNERS))
def test_refused_before_the_learners_preprocessing(name, text_table, monkeypatch):
    """The learner's own preprocessing would densify the table (17 s and 1 GB for
    ODT-SVM's): the table is refused before it runs."""
    def densifying(*_):
        raise AssertionError("the default preprocessing ran")

    monkeypatch.setattr(RemoveNaNColumns, "__call__", densifying)
    with pytest.raises(ValueError, match="this sparse table would take 320 MB"):
        LEARNERS[name]()(text_table)


@pytest.mark.parametrize("name", list(LEARNERS))
def test_users_preprocessors_may_shrink_a_sparse_table_first(name, text_table):
    model = LEARNERS[name](preprocessors=[FirstColumns(20)])(text_table)
    assert len(model.domain.attributes) == 20
    assert np.mean(model(text_table) == text_table.Y) > 0.9


@pytest.mark.parametrize("name", list(LEARNERS))
def test_models_predict_sparse_rows_in_blocks(name, monkeypatch):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 3))
    X[np.abs(X) < 0.5] = 0
    y = (X[:, 0] - X[:, 2] > 0).astype(float)
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(3)],
                    DiscreteVariable("y", values=["a", "b"]))
    dense = Table.from_numpy(domain, X, y)
    sparse = Table.from_numpy(domain, sp.csr_matrix(X), y)
    model = LEARNERS[name]()(sparse)
    np.testing.assert_array_equal(model(dense), LEARNERS[name]()(dense)(dense))
    monkeypatch.setattr(validation, "PREDICTION_BLOCK_BYTES", 8 * 3 * 10)   # 10 rows
    np.testing.assert_array_equal(model.predict(sp.csr_matrix(X)), model.predict(X))
