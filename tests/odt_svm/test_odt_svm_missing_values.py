"""C4.5's missing values in ODT-SVM: a row with a missing value in a
test's attributes goes down every branch with its weight times the branch's share of the
known rows, when growing, pruning and predicting (Quinlan 1993, ch. 3; WEKA's J48)."""
import numpy as np
import pytest
from sklearn.base import BaseEstimator

from orangecontrib.oblique.core import HedgeEnsembleClassifier
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier, gain_with_unknown
from orangecontrib.oblique.core.odt_svm.classifier import gain_and_split_info
from orangecontrib.oblique.core.tree.impurity import entropy

from tests.helpers.invariants import assert_tree_invariants


def data(missing=0.15, seed=0):
    """400 rows: x0 continuous, x1 continuous noise, x2 nominal of 3 values; the class
    is (x0 > 0) xor (x2 = 1); ``missing`` of the values NaN."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=400), rng.normal(size=400),
                         rng.integers(0, 3, 400)])
    y = ((X[:, 0] > 0) ^ (X[:, 2] == 1)).astype(int)
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


def fit(X, y, **params):
    return ODTSVMClassifier(random_state=0, categorical_features=[2], **params).fit(X, y)


def test_the_estimator_takes_nan():
    X, y = data()
    model = fit(X, y)
    if hasattr(BaseEstimator, "__sklearn_tags__"):    # scikit-learn 1.6+
        assert model.__sklearn_tags__().input_tags.allow_nan
    assert model.score(X, y) > 0.8
    with pytest.raises(ValueError):
        fit(np.where(np.isnan(X), np.inf, X), y)          # ±inf is not a missing value


def test_a_row_with_a_missing_value_gets_the_weighted_mix_of_the_branches():
    X, y = data()
    tree = fit(X, y).tree_
    root = tree.splits[0]
    row = np.array(X[0])
    row[root.features_used] = np.nan              # unknown at the root's test
    shares = root.missing_shares
    assert shares is not None and shares.sum() == pytest.approx(1)
    expected = sum(share * _through(tree, child, row)
                   for share, child in zip(shares, tree.children[0]))
    np.testing.assert_allclose(tree.predict_proba(row[None, :])[0], expected)
    # the shares are those of the training rows of known value at the root
    known = np.all(np.isfinite(X[:, root.features_used]), axis=1)
    position = root.route_with_missing(X[known])
    np.testing.assert_allclose(shares, np.bincount(position, minlength=len(shares))
                               / known.sum())


def _through(tree, node, row):
    """The prediction of ``row`` from the subtree at ``node`` (by weight below too)."""
    while tree.splits[node] is not None:
        split = tree.splits[node]
        position = split.route_with_missing(row[None, :])[0]
        if position < 0:
            return sum(share * _through(tree, child, row)
                       for share, child in zip(split.missing_shares, tree.children[node]))
        node = tree.children[node][position]
    return tree.proba[node]


def test_growing_sends_rows_down_every_branch_by_weight():
    """Every node's class counts are the weights of its rows, a row with a missing value
    in the parent's test carrying the branch's share: the children's counts sum to the
    parent's, and the root holds every row's whole weight."""
    X, y = data()
    tree = fit(X, y, confidence=None).tree_
    np.testing.assert_allclose(tree.value[0], np.bincount(y))
    fractional = False
    for node in np.flatnonzero(~tree.is_leaf):
        kids = list(tree.children[node])
        np.testing.assert_allclose(tree.value[kids].sum(axis=0), tree.value[node])
        fractional |= tree.n_node_samples[kids].sum() > tree.n_node_samples[node]
    assert fractional, "some row went down several branches"
    assert np.any(tree.value % 1 > 1e-9)


def test_complete_rows_are_routed_as_before():
    """Without missing values every row reaches one leaf, as any tree routes it."""
    X, y = data(missing=0.0)
    model = fit(X, y)
    assert_tree_invariants(model.tree_)
    leaves = model.apply(X)
    np.testing.assert_array_equal(model.predict_proba(X), model.tree_.proba[leaves])


def test_c45_gain_with_unknown_rows():
    """Quinlan (1993), ch. 3, golf with one outlook unknown: 13 known rows (sunny 2/3,
    overcast 3/0, rain 3/2), gain = 13/14 · (0.961 − 0.747) = 0.199 bits, split info
    over the three values and the unknown: 1.809 bits."""
    gain, split_info = gain_with_unknown([[2, 3], [3, 0], [3, 2]], 14)
    assert gain == pytest.approx(0.199, abs=1e-3)
    assert split_info == pytest.approx(1.809, abs=1e-3)
    assert gain_with_unknown([[2, 3], [4, 0]], 9) == pytest.approx(
        tuple(map(float, gain_and_split_info([[2, 3], [4, 0]]))))
    assert split_info == pytest.approx(entropy([5, 3, 5, 1]))


def test_hedge_takes_nan_when_its_members_do():
    X, y = data()
    hedge = HedgeEnsembleClassifier(ODTSVMClassifier(categorical_features=[2]),
                                    n_estimators=3, random_state=0).fit(X, y)
    assert hedge.predict_proba(X).sum(axis=1) == pytest.approx(np.ones(len(y)))
    assert hedge.score(X, y) > 0.8


@pytest.mark.parametrize("confidence", [None, 0.25])
def test_texts_speak_of_missing_values_only_where_training_rows_had_them(confidence):
    """Every split keeps C4.5's shares to route a new row with a missing value, but its
    branches' texts print them (``(missing: 38.2 %)``) only where some of the node's
    training rows had a missing value in its attributes: never for complete data
    (``missing: 14 %`` on every branch of a tree of sklearn's digits before)."""
    from orangecontrib.oblique.core.tree.rules import export_text
    complete = fit(*data(missing=0.0), confidence=confidence).tree_
    assert all(split.missing_shares is not None and split.missing_in_training is False
               for split in complete.splits if split is not None)
    assert "missing:" not in export_text(complete)
    row = data(missing=0.0)[0][:1].copy()
    row[0, complete.splits[0].features_used] = np.nan   # still shared among the branches
    assert np.count_nonzero(complete.predict_proba(row)) >= 1
    X, y = data()
    tree = fit(X, y, confidence=confidence).tree_
    text = export_text(tree)
    assert "missing:" in text
    for node, split in enumerate(tree.splits):
        if split is None:
            continue
        # a row with a missing value went down several branches: more rows below
        kids = list(tree.children[node])
        shared = tree.n_node_samples[kids].sum() > tree.n_node_samples[node]
        assert split.missing_in_training == shared
        assert (split.missing_text(0) != "") == shared
    assert text.count("missing:") == sum(
        split.n_children for split in tree.splits
        if split is not None and split.missing_in_training)


def test_a_tree_pickled_before_the_splits_kept_it_reads_as_grown():
    """A tree pickled before its splits kept :attr:`missing_in_training` learns it on
    loading from its row counts (a row with a missing value went down several branches:
    the children's rows outnumber the node's), so its texts read as a new fit's."""
    import pickle
    from orangecontrib.oblique.core.tree.rules import export_text
    X, y = data(missing=0.0)
    X[::10, 2] = np.nan                                 # only the nominal x2 has any
    tree = fit(X, y, confidence=None).tree_
    expected = [None if split is None else split.missing_in_training
                for split in tree.splits]
    assert True in expected and False in expected
    text = export_text(tree)
    for split in tree.splits:
        if split is not None:
            split.missing_in_training = None      # as a pickle from before loads
    assert "missing:" not in export_text(tree)
    loaded = pickle.loads(pickle.dumps(tree))
    assert [None if split is None else split.missing_in_training
            for split in loaded.splits] == expected
    assert export_text(loaded) == text
