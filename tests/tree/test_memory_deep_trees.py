"""A deep tree costs memory linear in its nodes -- growing, fitting,
``apply``, ``decision_path`` and the recount after pruning of a chain of depth 2,000 --
and the decision paths and recounts are those of before."""
import numpy as np
import pytest
from scipy import sparse

from orangecontrib.oblique.core import OC1Classifier
from orangecontrib.oblique.core.tree.structure import Split, grow_tree

from tests.helpers.memory_reference import MB, traced_peak


CHAIN_ROWS = 2001


def _chain(n_rows=CHAIN_ROWS, weights=None):
    """A tree that is a chain (grown by the shared ``grow_tree``): every split peels the
    lowest row of a line off, so its depth is ``n_rows − 1``."""
    X = np.arange(n_rows, dtype=float)[:, None]
    y = np.arange(n_rows) % 2
    weights = np.ones(n_rows) if weights is None else weights

    def peel(rows, counts, depth):
        return Split.axis_parallel(0, X[rows, 0].min() + 0.5, 1)

    return grow_tree(X, y, weights, 2, peel, max_depth=None), X, y


def _old_paths(tree, X):
    """The decision paths as they were computed: every node's whole path, then a row each."""
    rows, columns = [], []
    for node in range(tree.node_count):
        path = tree.path(node)
        rows.extend([node] * len(path))
        columns.extend(path)
    paths = sparse.csr_matrix((np.ones(len(rows), dtype=np.intp), (rows, columns)),
                              shape=(tree.node_count, tree.node_count))
    return paths[tree.apply(X)]


def _old_recount(tree, X, y, sample_weight):
    paths = _old_paths(tree, X)
    by_class = np.zeros((len(y), tree.n_classes))
    by_class[np.arange(len(y)), y] = sample_weight
    return np.asarray(paths.T @ by_class), np.asarray(paths.sum(axis=0)).ravel()


def test_growing_a_chain_is_linear_in_its_nodes():
    (tree, _, _), peak = traced_peak(lambda: _chain())
    assert tree.depth == CHAIN_ROWS - 1 and tree.node_count == 2 * CHAIN_ROWS - 1
    assert peak < 2000 * tree.node_count, peak / MB


def test_decision_path_of_a_deep_row_is_linear_in_nodes():
    """One row's path of a depth-5,000 chain took 2 GB."""
    tree, X, _ = _chain()
    path, peak = traced_peak(lambda: tree.decision_path(X[-1:]))
    assert path.shape == (1, tree.node_count) and path.nnz == CHAIN_ROWS
    # before: every node's path, about 2,000² Python integers (~300 MB)
    assert peak < 1000 * tree.node_count, peak / MB


def test_recount_of_a_chain_is_linear_in_rows_and_nodes():
    tree, X, y = _chain()
    recounted, peak = traced_peak(lambda: tree.recounted(X, y, np.ones(len(y))))
    np.testing.assert_array_equal(recounted.n_node_samples[tree.children[0][1]],
                                  CHAIN_ROWS - 1)
    assert peak < 1000 * tree.node_count, peak / MB


def test_fitting_and_applying_a_chain_is_linear_in_nodes():
    """OC1's fit of a depth-2,000 chain (its feature scales and printed digits pass the
    rows down the tree) and ``apply`` of every row: no per-node list of rows is kept."""
    X = np.arange(CHAIN_ROWS, dtype=float)[:, None]
    y = np.arange(CHAIN_ROWS) % 2
    learner = OC1Classifier(split_mode="axis_parallel", max_depth=None, pruning_portion=0,
                            random_state=0)
    model, peak = traced_peak(lambda: learner.fit(X, y))
    assert model.get_depth() == CHAIN_ROWS - 1
    # before: the rows reaching every node, 2,000²/2 indices (16 MB) and more
    assert peak < 2000 * model.tree_.node_count, peak / MB
    leaves, peak = traced_peak(lambda: model.apply(X))
    assert all(model.tree_.splits[leaf] is None for leaf in leaves)
    assert peak < 500 * model.tree_.node_count, peak / MB


@pytest.mark.parametrize("make", ["chain", "weighted chain", "iris"])
def test_decision_paths_and_recounts_are_those_of_before(make):
    rng = np.random.RandomState(0)
    if make == "iris":
        from sklearn.datasets import load_iris
        X, y = load_iris(return_X_y=True)
        tree = OC1Classifier(random_state=0).fit(X, y).tree_
        weights = rng.uniform(0.1, 3.0, len(y))
    else:
        weights = rng.uniform(0.1, 3.0, 300) if make == "weighted chain" else None
        tree, X, y = _chain(300, weights)
        weights = rng.uniform(0.1, 3.0, 300)
    X = X.copy()
    X[::7, 0] = np.nan  # rows that stop at the first split that needs the value
    new, old = tree.decision_path(X), _old_paths(tree, X)
    assert new.shape == old.shape
    np.testing.assert_array_equal(new.indptr, old.indptr)
    np.testing.assert_array_equal(new.indices, old.indices)
    np.testing.assert_array_equal(new.toarray(), old.toarray())
    recounted = tree.recounted(X, y, weights)
    value, n_node_samples = _old_recount(tree, X, y, weights)
    np.testing.assert_array_equal(recounted.value, value)
    np.testing.assert_array_equal(recounted.n_node_samples, n_node_samples)
