"""Many classes: costs that grow gently with the number of classes K.

A pairwise_vote split's pair is found by formula, its votes are counted without a list of
the K(K−1)/2 pairs and its map is routed in blocks; ODT-SVM's pairwise SVM split stops at
MAX_PAIRWISE_CLASSES classes a node (one-vs-rest above) and its clustering split clusters
at most as many coordinates as there are attributes.  The tests count calls and array
sizes, not seconds."""
import tracemalloc
import warnings

import numpy as np
import pytest

from orangecontrib.oblique.core.tree import geometry
from orangecontrib.oblique.core.tree import splits
from orangecontrib.oblique.core.odt_svm import xmeans
from orangecontrib.oblique.core.odt_svm.classifier import (MAX_PAIRWISE_CLASSES, ODTSVMClassifier,
                                                           ODTSVMSplitter)
from orangecontrib.oblique.core.tree.splits import (ARGMAX, PAIRWISE_VOTE, ROUTE_BLOCK_VALUES,
                                                    Split, pairwise_index, pairwise_pairs,
                                                    pairwise_votes)
from orangecontrib.oblique.core.tree.structure import ObliqueTree


def no_list_of_pairs(monkeypatch):
    """Make any use of the list of all pairs fail."""
    def refused(n_children):
        raise AssertionError(f"the list of all {n_children * (n_children - 1) // 2} pairs")
    monkeypatch.setattr(splits, "pairwise_pairs", refused)


@pytest.mark.parametrize("k", [2, 3, 4, 7, 30])
def test_pairwise_index_is_the_row_of_the_pair(k):
    assert [pairwise_index(a, b, k) for a, b in pairwise_pairs(k)] == list(
        range(k * (k - 1) // 2))


def brute_force_votes(values, k):
    votes = np.zeros((values.shape[0], k), dtype=int)
    for p, (a, b) in enumerate(pairwise_pairs(k)):
        votes[:, a] += values[:, p] >= 0
        votes[:, b] += values[:, p] < 0
    return np.argmax(votes, axis=1)


@pytest.mark.parametrize("k", [2, 3, 5, 9])
def test_votes_without_the_list_of_pairs(monkeypatch, k):
    rng = np.random.default_rng(k)
    values = rng.normal(size=(300, k * (k - 1) // 2))
    values[rng.random(values.shape) < 0.1] = 0.0        # a value of 0 is a win of a
    expected = brute_force_votes(values, k)
    no_list_of_pairs(monkeypatch)
    np.testing.assert_array_equal(pairwise_votes(values, k), expected)


def many_children_split(k, n_features=2, seed=0):
    rng = np.random.default_rng(seed)
    pairs = k * (k - 1) // 2
    return Split(PAIRWISE_VOTE, rng.normal(size=(pairs, n_features)), rng.normal(size=pairs))


def test_the_viewer_regions_of_a_120_child_split_ask_no_list_of_pairs(monkeypatch):
    """node_regions asks every child's half-planes: 120 × 119 pairwise boundaries, each
    an O(1) look-up (was a search of the list of 7,140 pairs each: minutes)."""
    split = many_children_split(120)
    tree = ObliqueTree(2, 2, [split] + [None] * 120, [list(range(1, 121))] + [[]] * 120,
                       [-1] + [0] * 120, np.ones((121, 2)), np.full(121, 2))
    no_list_of_pairs(monkeypatch)
    regions = geometry.node_regions(tree, (-3, 3), (-3, 3))
    assert len(regions) == 121
    # a child's region is where it wins every vote
    for child in range(1, 121):
        if len(regions[child]) >= 3:
            centre = regions[child].mean(axis=0)
            assert split.route(centre[None, :])[0] == child - 1


def test_a_split_of_many_pairs_routes_in_blocks(monkeypatch):
    split = many_children_split(200)          # 19,900 pairs
    X = np.random.default_rng(1).normal(size=(300, 2))
    expected = brute_force_votes(X @ split.weights.T + split.bias, 200)
    sizes = []
    values = Split.values

    def recorded(self, rows):
        sizes.append(rows.shape[0] * self.weights.shape[0])
        return values(self, rows)
    monkeypatch.setattr(Split, "values", recorded)
    np.testing.assert_array_equal(split.route(X), expected)
    assert len(sizes) > 1 and max(sizes) <= ROUTE_BLOCK_VALUES


def many_class_data(n_classes, rows_per_class=3, n_features=4, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), rows_per_class)
    return rng.normal(size=(y.size, n_features)) + 0.01 * y[:, None], y


@pytest.mark.parametrize("n_classes", [MAX_PAIRWISE_CLASSES, MAX_PAIRWISE_CLASSES + 1])
def test_pairwise_svms_up_to_the_limit_one_vs_rest_above(n_classes):
    X, y = many_class_data(n_classes)
    splitter = ODTSVMSplitter(X, y, np.ones(len(y)), n_classes, np.array([], dtype=np.intp),
                              ODTSVMClassifier(mdl_penalty=False), np.random.RandomState(0))
    raw, _, classes, _ = splitter.svm_hyperplanes(X, y, np.ones(len(y)))
    pairwise = n_classes <= MAX_PAIRWISE_CLASSES
    assert raw.shape[0] == (n_classes * (n_classes - 1) // 2 if pairwise else n_classes)
    assert splitter.pairwise(n_classes) == pairwise
    np.testing.assert_array_equal(classes, np.arange(n_classes))


def test_a_root_of_many_classes_is_split_one_vs_rest_and_clustered_in_few_dimensions(
        monkeypatch):
    X, y = many_class_data(120, n_features=3)
    shapes = []
    fit_centres = xmeans.XMeans.fit_centres

    def recorded(self, distances):
        shapes.append(distances.shape)
        return fit_centres(self, distances)
    monkeypatch.setattr(xmeans.XMeans, "fit_centres", recorded)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = ODTSVMClassifier(random_state=0, confidence=None).fit(X, y)
    # every clustering split on at most as many coordinates as attributes (was up to
    # the 7,140 pairwise decision values of the root)
    assert shapes and max(columns for _, columns in shapes) <= X.shape[1]
    kinds = {split.kind.name for split in model.tree_.splits if split is not None}
    assert PAIRWISE_VOTE not in kinds or all(
        split.n_children <= MAX_PAIRWISE_CLASSES for split in model.tree_.splits
        if split is not None and split.kind.name == PAIRWISE_VOTE)
    assert np.mean(model.predict(X) == y) > 0.3


def test_400_classes_fit_in_little_memory():
    """400 classes of 3 rows: the pairwise split would fit 79,800 SVMs and route the
    1,200 rows through as many hyperplanes (766 MB of values); one-vs-rest: 400."""
    X, y = many_class_data(400)
    ODTSVMClassifier(random_state=0).fit(X[:30], y[:30] % 3)      # compiled before
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = ODTSVMClassifier(random_state=0).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 150 * 2 ** 20
    assert model.tree_.splits[0].kind.name in (ARGMAX, "nearest_centre", "hyperplane")
