"""ODT-SVM (Menkovski, Christou & Efremidis 2008): C4.5's scores, the candidate tests of
Fig. 2 and Section II-C, the MDL-corrected test selection, and the estimator."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_blobs
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import LinearSVC
from sklearn.utils import check_random_state

from tests.helpers.invariants import axis_parallel
from orangecontrib.oblique.core.datasets import (checkerboard_2x2, checkerboard_4x4,
                                                 rotated_checkerboard)
from orangecontrib.oblique.core.odt_svm.classifier import (ODTSVMClassifier, ODTSVMSplitter, _Candidate,
                                                           entropy, gain_and_split_info)
from orangecontrib.oblique.core.tree.pruning import error_based_prune
from orangecontrib.oblique.core.tree.splits import (ARGMAX, EQUALITY, HYPERPLANE,
                                                    NEAREST_CENTRE, NOMINAL, Split)

from tests.helpers.invariants import (assert_pickles, assert_refits_identically,
                                      assert_training_rows_consistent, assert_tree_invariants,
                                      route_by_hand)


# ----- helpers -----

def fit(X, y, sample_weight=None, **params):
    params.setdefault("random_state", 0)
    return ODTSVMClassifier(**params).fit(X, y, sample_weight=sample_weight)


def internal_splits(model):
    return [split for split in model.tree_.splits if split is not None]


def codes(model, y):
    return np.searchsorted(model.classes_, y)


def splitter(X, y, categorical=(), weights=None, classes=None, seed=0, **params):
    """An :class:`ODTSVMSplitter` built by hand, as ``ODTSVMClassifier._build_tree`` builds
    it (``y``: class codes)."""
    estimator = ODTSVMClassifier(**params)
    estimator.classes_ = np.arange(int(y.max()) + 1) if classes is None else classes
    weights = np.ones(len(y)) if weights is None else weights
    return ODTSVMSplitter(X, y, weights, len(estimator.classes_),
                          np.asarray(categorical, dtype=np.intp), estimator,
                          check_random_state(seed))


def oblique_separable(n=300, seed=0, margin=0.1):
    """Uniform on [-1, 1]², class 1 above the line x1 + x2 = 0 with a margin around it;
    no threshold on x1 or x2 alone separates the classes."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    X = X[np.abs(X.sum(axis=1)) > margin]
    return X, (X.sum(axis=1) > 0).astype(int)


def three_bands(seed=0, sizes=(120, 60, 30)):
    """Three bands across the direction (1, 1)/√2, classes A, B, A from the lower left:
    one hyperplane cannot separate them, but the rows' distances to the SVM hyperplane
    (which separates the big A band from B) fall into three pure groups."""
    rng = np.random.default_rng(seed)
    along = np.concatenate([rng.uniform(0, 3, sizes[0]), rng.uniform(4, 5, sizes[1]),
                            rng.uniform(6, 7, sizes[2])])
    across = rng.uniform(-3, 3, along.size)
    u, v = np.array([1.0, 1.0]) / np.sqrt(2), np.array([-1.0, 1.0]) / np.sqrt(2)
    return along[:, None] * u + across[:, None] * v, np.repeat(["A", "B", "A"], sizes)


def nominal_and_continuous(n=300, seed=0):
    """Two nominal columns (1 and 3, codes 0..3) whose *codes* also carry a linear trend in
    the class, mixed with two continuous columns: if a nominal column leaked into the SVM
    it would get weight."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 4, n), rng.normal(size=n),
                         rng.integers(0, 4, n)]).astype(float)
    score = X[:, 0] - X[:, 2] + 0.8 * (X[:, 1] - 1.5) + 0.5 * (X[:, 3] - 1.5)
    return X, (score + 0.3 * rng.normal(size=n) > 0).astype(int)


#: Quinlan's golf/weather data (C4.5, 1993, ch. 2): outlook (0 sunny, 1 overcast, 2 rain),
#: temperature (0 hot, 1 mild, 2 cool), humidity (0 high, 1 normal), windy (0 false,
#: 1 true); class "play" (1 yes, 0 no).
GOLF = np.array([
    [0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [1, 0, 0, 0, 1], [2, 1, 0, 0, 1], [2, 2, 1, 0, 1],
    [2, 2, 1, 1, 0], [1, 2, 1, 1, 1], [0, 1, 0, 0, 0], [0, 2, 1, 0, 1], [2, 1, 1, 0, 1],
    [0, 1, 1, 1, 1], [1, 1, 0, 1, 1], [1, 0, 1, 0, 1], [2, 1, 0, 1, 0]])


# ----- C4.5's scores -----

class TestEntropyAndGain:
    def test_golf_outlook(self):
        """Quinlan (1993), ch. 2: gain(outlook) = 0.246 bits, split info 1.577, gain
        ratio 0.156 (sunny 2 yes 3 no, overcast 4 yes, rain 3 yes 2 no).  Quinlan rounds
        the intermediate 0.940 − 0.694; the exact gain is 0.2467."""
        gain, split_info = gain_and_split_info([[2, 3], [4, 0], [3, 2]])
        assert gain == pytest.approx(0.246, abs=1e-3)
        assert split_info == pytest.approx(1.577, abs=5e-4)
        assert gain / split_info == pytest.approx(0.156, abs=5e-4)

    def test_golf_info_and_windy(self):
        assert entropy([9, 5]) == pytest.approx(0.940, abs=5e-4)
        gain, split_info = gain_and_split_info([[6, 2], [3, 3]])
        assert gain == pytest.approx(0.048, abs=5e-4)
        assert split_info == pytest.approx(0.985, abs=5e-4)

    def test_golf_from_the_table(self):
        """The same numbers from the rows of the table, for every attribute at once
        (leading axes index candidate tests)."""
        expected_gain = {0: 0.246, 1: 0.029, 2: 0.151, 3: 0.048}
        branch_counts = np.zeros((4, 3, 2))
        for attribute in range(4):
            for row in GOLF:
                branch_counts[attribute, row[attribute], row[-1]] += 1
        gains, split_infos = gain_and_split_info(branch_counts)
        np.testing.assert_allclose(gains, [expected_gain[a] for a in range(4)], atol=1e-3)
        np.testing.assert_allclose(split_infos[0], 1.577, atol=5e-4)
        # an empty third branch of a two-valued attribute changes nothing
        np.testing.assert_allclose(split_infos[3], entropy([8, 6]))

    def test_entropy_edge_cases(self):
        assert entropy([0, 0]) == 0
        assert entropy([7]) == 0
        assert entropy([5, 0, 0]) == 0
        assert entropy([3, 3]) == pytest.approx(1)
        assert entropy([1, 1, 1, 1]) == pytest.approx(2)
        assert entropy([0.5, 0.5]) == pytest.approx(1), "weighted counts"
        assert entropy([2, 2]) == entropy([20, 20])
        np.testing.assert_allclose(entropy([[1, 1], [3, 0], [0, 0]], axis=1), [1, 0, 0])
        np.testing.assert_allclose(entropy([[1, 3], [1, 0]], axis=0), [1, 0])

    def test_gain_edge_cases(self):
        gain, split_info = gain_and_split_info([[4, 0], [0, 4]])      # perfect split
        assert (gain, split_info) == (pytest.approx(1), pytest.approx(1))
        gain, split_info = gain_and_split_info([[2, 2], [3, 3]])      # no information
        assert gain == pytest.approx(0, abs=1e-12)
        gain, split_info = gain_and_split_info([[3, 5], [0, 0]])      # one branch only
        assert gain == pytest.approx(0, abs=1e-12) and split_info == pytest.approx(0)
        gain, split_info = gain_and_split_info([[0, 0], [0, 0]])      # nothing at all
        assert gain == 0 and split_info == 0
        gain, _ = gain_and_split_info([[1.5, 0], [0, 0.5]])           # weighted counts
        assert gain == pytest.approx(entropy([1.5, 0.5]))


# ----- nominal attributes (Fig. 2, step 2.1) -----

class TestNominalAttributes:
    def test_determining_attribute_gives_equality_root(self):
        rng = np.random.default_rng(0)
        nominal = rng.integers(0, 3, 200)
        X = np.column_stack([rng.normal(size=200), nominal, rng.normal(size=200)])
        y = np.where(nominal == 1, "yes", "no")
        model = fit(X, y, categorical_features=[1], nominal_tests="binary")
        root = model.tree_.splits[0]
        assert root.kind.name == EQUALITY
        np.testing.assert_array_equal(root.features_used, [1])
        assert root.bias[0] == -1
        first = model.tree_.children[0][0]
        reaches_first = model.decision_path(X)[:, first].toarray().ravel().astype(bool)
        np.testing.assert_array_equal(reaches_first, nominal == 1)
        assert model.tree_.n_node_samples[first] == np.sum(nominal == 1)
        assert model.score(X, y) == 1
        assert_tree_invariants(model.tree_)
        assert_training_rows_consistent(model.tree_, X, codes(model, y))

    def test_boolean_mask_is_the_same_as_indices(self):
        X, y = nominal_and_continuous()
        by_index = fit(X, y, categorical_features=[1, 3])
        by_mask = fit(X, y, categorical_features=[False, True, False, True])
        assert by_index.tree_.splits == by_mask.tree_.splits
        np.testing.assert_array_equal(by_index.tree_.value, by_mask.tree_.value)

    def test_golf_root_is_outlook_overcast(self):
        """Discrete attributes only, binary ``x_k = a`` tests (``nominal_tests="binary"``):
        outlook = overcast has the largest gain (0.940 − 10/14 · 1 = 0.226 bits)."""
        model = fit(GOLF[:, :4], GOLF[:, 4], categorical_features=[0, 1, 2, 3],
                    min_samples_leaf=1, confidence=None, nominal_tests="binary")
        root = model.tree_.splits[0]
        assert root.kind.name == EQUALITY
        np.testing.assert_array_equal(root.features_used, [0])
        assert root.bias[0] == -1
        np.testing.assert_array_equal(model.tree_.value[model.tree_.children[0][0]], [0, 4])
        assert all(split.kind.name == EQUALITY for split in internal_splits(model))
        # without the MDL penalty nothing stops the tree before it fits the table
        model = fit(GOLF[:, :4], GOLF[:, 4], categorical_features=[0, 1, 2, 3],
                    min_samples_leaf=1, confidence=None, mdl_penalty=False,
                    nominal_tests="binary")
        assert model.score(GOLF[:, :4], GOLF[:, 4]) == 1

    @pytest.mark.parametrize("params", [dict(), dict(clustering_split=False),
                                        dict(axis_parallel_tests=False, mdl_penalty=False,
                                             confidence=None)])
    def test_nominal_columns_never_get_svm_weight(self, params):
        X, y = nominal_and_continuous()
        model = fit(X, y, categorical_features=[1, 3], **params)
        rules = {split.kind.name for split in internal_splits(model)}
        assert rules & {HYPERPLANE, ARGMAX, NEAREST_CENTRE}, "the SVM must be used somewhere"
        for split in internal_splits(model):
            if split.kind.name in (EQUALITY, NOMINAL):
                assert set(split.features_used) <= {1, 3}
            else:
                np.testing.assert_array_equal(split.weights[:, [1, 3]], 0)
        assert_training_rows_consistent(model.tree_, X, y)

    def test_nominal_column_alone_still_learns(self):
        """Without ``categorical_features`` the same columns are numeric and may be used
        by the SVM -- the contrast shows the test above is not vacuous."""
        X, y = nominal_and_continuous()
        model = fit(X, y)
        assert any(np.any(split.weights[:, [1, 3]] != 0) for split in internal_splits(model))

    def test_unseen_value_is_missing_at_an_equality_test(self):
        """A code beyond the training values is an unknown value, not ``≠ a``: it goes
        down both branches by their shares, as NaN does (tests/odt_svm/test_unseen_codes.py
        has the rest)."""
        rng = np.random.default_rng(1)
        nominal = rng.integers(0, 3, 100)
        X = np.column_stack([nominal, rng.normal(size=100)])
        model = fit(X, nominal == 2, categorical_features=[0], nominal_tests="binary")
        root = model.tree_.splits[0]
        assert root.kind.name == EQUALITY
        np.testing.assert_array_equal(model.predict([[2, 0.0]]), [True])
        np.testing.assert_array_equal(model.predict_proba([[7, 0.0]]),
                                      model.predict_proba([[np.nan, 0.0]]))
        expected = sum(share * model.tree_.proba[child]
                       for share, child in zip(root.missing_shares, model.tree_.children[0]))
        np.testing.assert_allclose(model.predict_proba([[7, 0.0]])[0], expected)

    def test_unseen_value_is_missing_at_a_multiway_node(self):
        """A code beyond the training values has no branch of C4.5's test: it is an
        unknown value, stopping there in ``apply`` and sent down every branch by its
        share in ``predict_proba``, as NaN."""
        rng = np.random.default_rng(1)
        nominal = rng.integers(0, 3, 100)
        X = np.column_stack([nominal, rng.normal(size=100)])
        model = fit(X, nominal == 2, categorical_features=[0])
        root = model.tree_.splits[0]
        assert root.kind.name == NOMINAL
        np.testing.assert_array_equal(model.apply([[7, 0.0]]), [0])
        expected = sum(share * model.tree_.proba[child]
                       for share, child in zip(root.missing_shares, model.tree_.children[0]))
        np.testing.assert_allclose(model.predict_proba([[7, 0.0]])[0], expected)
        np.testing.assert_array_equal(model.predict_proba([[7, 0.0]]),
                                      model.predict_proba([[np.nan, 0.0]]))

    @pytest.mark.parametrize("bad_value", [-1, 0.5, 1.25])
    def test_bad_codes(self, bad_value):
        X, y = nominal_and_continuous(60)
        X[5, 1] = bad_value
        with pytest.raises(ValueError, match="integer codes"):
            fit(X, y, categorical_features=[1])
        with pytest.raises(ValueError, match="integer codes"):
            fit(X, y, categorical_features=[False, True, False, False])

    @pytest.mark.parametrize("columns", [[4], [-1], [1, 9], [True, False], [True] * 5])
    def test_bad_columns(self, columns):
        X, y = nominal_and_continuous(60)
        with pytest.raises(ValueError, match="categorical_features"):
            fit(X, y, categorical_features=columns)

    def test_non_integer_column_index(self):
        """A column index of 1.5 is neither column 1 nor column 2; it must not be
        truncated silently to 1 (here column 1 holds valid codes, so nothing else
        catches it)."""
        X, y = nominal_and_continuous(60)
        with pytest.raises(ValueError, match="categorical_features"):
            fit(X, y, categorical_features=[1.5])


# ----- the linear SVM split (Fig. 2, steps 2.3-2.4) -----

class TestSVMSplit:
    def test_oblique_separable_gives_one_hyperplane(self):
        X, y = oblique_separable()
        model = fit(X, y, axis_parallel_tests=False)
        assert model.tree_.node_count == 3
        root = model.tree_.splits[0]
        assert root.kind.name == HYPERPLANE
        assert model.score(X, y) == 1
        # the normal points along (1, 1): x1 + x2 = 0 is the only separating direction
        w = root.weights[0]
        assert abs(w @ [1, 1]) / (np.linalg.norm(w) * np.sqrt(2)) > 0.99
        assert_tree_invariants(model.tree_)
        assert_training_rows_consistent(model.tree_, X, y)

    def test_no_threshold_is_good_there(self):
        """The premise of the test above: the best threshold tests score far below the
        hyperplane."""
        X, y = oblique_separable()
        node = splitter(X, y)
        thresholds = node.threshold_tests(X, y, np.ones(len(y)), float(len(y)))
        svm = node.svm_tests(X, y, np.ones(len(y)), float(len(y)),
                             *node.svm_hyperplanes(X, y, np.ones(len(y))))
        assert max(c.gain for c in thresholds) < 0.5 < svm[0].gain

    def test_stored_hyperplanes_route_raw_rows(self):
        X, y = checkerboard_4x4(500, random_state=2)
        X = X * [3.0, 0.01] + [100.0, -5.0]
        model = fit(X, y)
        assert any(not axis_parallel(split) for split in internal_splits(model))
        leaf = model.apply(X)
        np.testing.assert_array_equal([route_by_hand(model.tree_, x) for x in X], leaf)
        assert_training_rows_consistent(model.tree_, X, codes(model, y))

    @pytest.mark.parametrize("params", [dict(axis_parallel_tests=False), dict()])
    def test_scaling_a_feature_leaves_predictions_unchanged(self, params):
        X, y = checkerboard_2x2(400, random_state=0)
        X_test = checkerboard_2x2(1000, random_state=1)[0]
        scale = np.array([1000.0, 1.0])
        model = fit(X, y, **params)
        scaled = fit(X * scale, y, **params)
        assert model.tree_.node_count == scaled.tree_.node_count
        np.testing.assert_array_equal(model.predict(X_test), scaled.predict(X_test * scale))
        # the stored maps are in raw units: the same up to the scale of the feature (and,
        # for a threshold test, whose weight is 1, a positive factor)
        for a, b in zip(internal_splits(model), internal_splits(scaled)):
            assert a.kind.name == b.kind.name
            map_a = np.column_stack([a.weights, a.bias])
            map_b = np.column_stack([b.weights * scale, b.bias])
            if axis_parallel(a):
                map_a, map_b = (m / np.abs(m[:, :2]).max() for m in (map_a, map_b))
            np.testing.assert_allclose(map_b, map_a, rtol=1e-4, atol=1e-6)

    def test_three_classes_give_argmax_root(self):
        X, y = make_blobs(300, centers=[[0, 0], [5, 0], [0, 5]], cluster_std=0.5,
                          random_state=0)
        labels = np.array(["red", "green", "blue"])[y]
        model = fit(X, labels, axis_parallel_tests=False, multiclass="one_vs_rest")
        root = model.tree_.splits[0]
        assert root.kind.name == ARGMAX
        assert root.n_children == len(model.tree_.children[0]) == 3
        # the branches carry the class codes as data; the text names the classes
        assert root.classes == (0, 1, 2)
        # (each branch lists the scores, then says how a row with a missing value goes
        # down it, C4.5's share)
        assert [c.partition(": ")[2].partition(" of [")[0]
                for c in model.export_text().splitlines()
                if c.startswith("|--- largest")] == ["blue", "green", "red"]
        # child j holds the rows of class j
        for j, child in enumerate(model.tree_.children[0]):
            counts = model.tree_.value[child]
            assert counts[j] == counts.sum() > 0
        assert model.score(X, labels) == 1

    def test_iris_cross_validation(self):
        X, y = load_iris(return_X_y=True)
        cv = StratifiedKFold(10, shuffle=True, random_state=0)
        accuracy = cross_val_score(ODTSVMClassifier(random_state=0), X, y, cv=cv).mean()
        assert accuracy >= 0.93   # the paper's Table I: 95.33 %


# ----- the SVM clustering split (Section II-C-2) -----

class TestClusteringSplit:
    def test_bands_need_the_clustering_split(self):
        X, y = three_bands()
        model = fit(X, y, axis_parallel_tests=False)
        rules = [split.kind.name for split in internal_splits(model)]
        assert NEAREST_CENTRE in rules
        assert model.tree_.splits[0].kind.name == NEAREST_CENTRE
        assert model.score(X, y) == 1
        assert_training_rows_consistent(model.tree_, X, codes(model, y))

    @pytest.mark.parametrize("params", [dict(), dict(axis_parallel_tests=False),
                                        dict(mdl_penalty=False, confidence=None)])
    def test_switching_it_off_removes_every_clustering_split(self, params):
        X, y = three_bands()
        model = fit(X, y, clustering_split=False, **params)
        assert all(split.kind.name != NEAREST_CENTRE for split in internal_splits(model))
        X, y = checkerboard_4x4(400, random_state=0)
        model = fit(X, y, clustering_split=False, **params)
        assert all(split.kind.name != NEAREST_CENTRE for split in internal_splits(model))

    @pytest.mark.parametrize("max_clusters", [2, 3, 5])
    def test_centres_sorted_and_at_most_max_clusters(self, max_clusters):
        """8 classes: the distances live in up to 8 dimensions; centres are sorted
        lexicographically (first coordinate first).  Whether a clustering split wins a
        node depends on the SVM solver's row order (the random state): three trees."""
        X, y = rotated_checkerboard(400, random_state=0)
        clustering = []
        for random_state in range(3):
            model = fit(X, y, max_clusters=max_clusters, mdl_penalty=False, confidence=None,
                        multiclass="one_vs_rest", test_selection="gain_ratio",
                        random_state=random_state)
            clustering += [s for s in internal_splits(model) if s.kind.name == NEAREST_CENTRE]
            assert_tree_invariants(model.tree_)
        assert clustering, "the rotated checkerboard gets clustering splits"
        assert any(split.centres.shape[1] > 1 for split in clustering)
        for split in clustering:
            assert 2 <= split.n_children <= max_clusters
            order = np.lexsort(split.centres.T[::-1])
            np.testing.assert_array_equal(order, np.arange(split.n_children))
            assert [c.branch for c in split.conditions()] == list(range(1, split.n_children + 1))

    def test_distances_are_to_the_svm_hyperplane(self):
        """A clustering split's map is the SVM hyperplane scaled to unit normal in the
        node's standardised units: its value is the signed distance the paper clusters."""
        X, y = three_bands()
        node = splitter(X, codes(fit(X, y), y))
        raw, raw_bias, _, norms = node.svm_hyperplanes(X, node.y, np.ones(len(y)))
        candidates = node.svm_tests(X, node.y, np.ones(len(y)), float(len(y)),
                                    raw, raw_bias, _, norms)
        clustering = candidates[1].split
        assert clustering.kind.name == NEAREST_CENTRE
        np.testing.assert_allclose(clustering.weights * norms[:, None], raw)
        np.testing.assert_allclose(clustering.bias * norms, raw_bias)
        distances = (X @ raw[0] + raw_bias[0]) / norms[0]
        nearest = np.argmin(np.abs(distances[:, None] - clustering.centres[:, 0]), axis=1)
        np.testing.assert_array_equal(clustering.route(X), nearest)


# ----- test selection: MDL correction and C4.5's average-gain rule -----

class TestSelection:
    def node(self):
        """400 rows, one nominal column (1), three informative continuous columns and a
        constant one (4), which the SVM cannot weight."""
        rng = np.random.default_rng(0)
        n = 400
        X = np.column_stack([rng.normal(size=n), rng.integers(0, 3, n), rng.normal(size=n),
                             rng.normal(size=n), np.full(n, 2.5)])
        y = ((X[:, 0] + X[:, 2] - 0.3 * X[:, 3] > 0) ^ (X[:, 1] == 2)).astype(np.intp)
        return X, y

    def candidates(self, mdl_penalty, weights=None):
        X, y = self.node()
        weights = np.ones(len(y)) if weights is None else weights
        n = float(weights.sum())
        node = splitter(X, y, categorical=[1], weights=weights, mdl_penalty=mdl_penalty,
                        min_samples_leaf=1, nominal_tests="binary", svm_cost="indices")
        svm = node.svm_hyperplanes(X, y, weights)
        return (node.nominal_tests(X[:, 1], 1, y, weights, n),
                node.threshold_tests(X, y, weights, n),
                node.svm_tests(X, y, weights, n, *svm), svm, n)

    @pytest.mark.parametrize("weights", [None, "integers"])
    def test_penalty_is_cost_over_n(self, weights):
        if weights == "integers":
            weights = np.random.default_rng(5).integers(1, 4, 400).astype(float)
        nominal, thresholds, svm, (raw, _, _, _), n = self.candidates(True, weights)
        nominal0, thresholds0, svm0, _, _ = self.candidates(False, weights)
        m = 5                                    # attributes in all
        used = np.count_nonzero(np.any(raw != 0, axis=0))
        assert used == 3, "not the nominal column, not the constant one"
        for with_mdl, without in zip(nominal, nominal0):
            assert with_mdl.split == without.split
            assert without.gain - with_mdl.gain == pytest.approx(np.log2(m) / n)
        # a threshold test whose corrected gain is not positive is dropped (J48)
        assert len(thresholds) >= 2
        # J48: log2 of the attribute's number of admissible cut points (both sides of at
        # least min(0.1 · 400 / 2, 25) = 20 rows, between different values)
        X, _ = self.node()
        uncorrected = {int(np.flatnonzero(c.split.weights[0])[0]): c for c in thresholds0}
        for with_mdl in thresholds:
            j = int(np.flatnonzero(with_mdl.split.weights[0])[0])
            without = uncorrected[j]
            values = np.sort(X[:, j])
            cuts = sum(1 for i in range(399) if values[i + 1] > values[i]
                       and i + 1 >= 20 and 399 - i >= 20)
            assert with_mdl.split == without.split
            assert without.gain - with_mdl.gain == pytest.approx(np.log2(cuts) / n)
        hyperplane, clustering = svm
        assert svm0[0].split == hyperplane.split
        assert svm0[0].gain - hyperplane.gain == pytest.approx(used * np.log2(m) / n)
        assert svm0[1].split == clustering.split
        k, dimensions = clustering.split.centres.shape
        max_clusters = 4                         # WEKA's XMeans
        cost = (used * np.log2(m) + np.log2(max_clusters - 1)
                + k * dimensions * 0.5 * np.log2(n))
        assert svm0[1].gain - clustering.gain == pytest.approx(cost / n)
        # ratios use the corrected gain and the unchanged split info
        for c, c0 in zip(nominal + svm, nominal0 + svm0):
            assert c.gain / c.ratio == pytest.approx(c0.gain / c0.ratio)
        for c in thresholds:
            c0 = uncorrected[int(np.flatnonzero(c.split.weights[0])[0])]
            assert c.gain / c.ratio == pytest.approx(c0.gain / c0.ratio)

    def test_uncorrected_gains_are_c45_gains(self):
        X, y = self.node()
        nominal, thresholds, svm, _, _ = self.candidates(False)
        for candidate in nominal + thresholds + svm:
            position = candidate.split.route(X)
            table = np.zeros((candidate.split.n_children, 2))
            np.add.at(table, (position, y), 1)
            gain, split_info = gain_and_split_info(table)
            assert candidate.gain == pytest.approx(gain)
            assert candidate.ratio == pytest.approx(gain / split_info)

    def test_multiway_nominal_test_has_no_mdl_cost(self):
        """C4.5/J48: one branch per value, its plain gain (WEKA's ``C45Split`` corrects
        only a threshold test)."""
        X, y = self.node()
        n = float(len(y))
        for mdl_penalty in (True, False):
            node = splitter(X, y, categorical=[1], mdl_penalty=mdl_penalty,
                            min_samples_leaf=1)
            (test,) = node.nominal_tests(X[:, 1], 1, y, np.ones(len(y)), n)
            table = np.zeros((3, 2))
            np.add.at(table, (X[:, 1].astype(int), y), 1)
            assert test.split == Split.nominal(1, [0, 1, 2], 5)
            assert test.gain == pytest.approx(gain_and_split_info(table)[0])

    def test_nominal_test_is_the_best_value(self):
        X, y = self.node()
        (best,), _, _, _, _ = self.candidates(False)
        gains = []
        for value in range(3):
            table = np.zeros((2, 2))
            np.add.at(table, ((X[:, 1] != value).astype(int), y), 1)
            gains.append(gain_and_split_info(table)[0])
        assert best.split == Split.equality(1, int(np.argmax(gains)), 5)
        assert best.gain == pytest.approx(max(gains))

    def average_gain_data(self):
        """100 rows, 50 per class, two nominal attributes:

        * A = 1 on 6 rows, all of class 0: gain 0.063, split info 0.327, ratio 0.19;
        * B = 1 on 50 rows, 35 of class 1: gain 0.119, split info 1, ratio 0.119.

        A has the highest gain ratio but a gain below the average of the two."""
        y = np.repeat([0, 1], 50)
        b = np.r_[np.zeros(35), np.ones(15), np.zeros(15), np.ones(35)]
        a = np.zeros(100)
        a[:6] = 1                                # rows of class 0 with B = 0
        return np.column_stack([a, b]), y.astype(np.intp)

    def test_highest_ratio_below_average_gain_is_not_chosen(self):
        X, y = self.average_gain_data()
        node = splitter(X, y, categorical=[0, 1])
        ones = np.ones(100)
        (a,) = node.nominal_tests(X[:, 0], 0, y, ones, 100.0)
        (b,) = node.nominal_tests(X[:, 1], 1, y, ones, 100.0)
        assert a.ratio > b.ratio and a.gain < (a.gain + b.gain) / 2 < b.gain   # premise
        assert node(np.arange(100), np.bincount(y), 0) == b.split
        model = fit(X, y, categorical_features=[0, 1], confidence=None)
        assert model.tree_.splits[0] == b.split

    def test_highest_ratio_wins_among_the_above_average(self):
        """With a useless third attribute lowering the average, both A and B are
        eligible, and A's higher gain ratio wins over B's higher gain."""
        X, y = self.average_gain_data()
        useless = np.tile([0.0, 1.0], 50)        # 25/25 of each class on both values
        X = np.column_stack([X, useless])
        node = splitter(X, y, categorical=[0, 1, 2], mdl_penalty=False,
                        test_selection="gain_ratio")
        candidates = [node.nominal_tests(X[:, k], k, y, np.ones(100), 100.0)[0]
                      for k in range(3)]
        average = np.mean([c.gain for c in candidates])
        assert candidates[0].gain >= average and candidates[1].gain >= average   # premise
        assert node(np.arange(100), np.bincount(y), 0) == candidates[0].split

    def test_no_positive_gain_gives_a_leaf(self):
        X = np.tile([[0.0], [1.0]], (20, 1))
        y = np.repeat([0, 1], 20).astype(np.intp)           # x says nothing about y
        node = splitter(X, y, categorical=[0])
        assert node(np.arange(40), np.bincount(y), 0) is None
        model = fit(X, y, categorical_features=[0], confidence=None)
        assert model.tree_.node_count == 1

    def test_candidate_ratio(self):
        assert _Candidate(None, 0.2, 0.5).ratio == pytest.approx(0.4)
        assert _Candidate(None, 0.2, 0.0).ratio == -np.inf


# ----- stopping and pruning -----

@pytest.fixture(scope="module")
def noisy():
    """A 4×4 checkerboard with 10 % of the labels flipped, and the tree grown on it
    without pruning."""
    X, y = checkerboard_4x4(400, random_state=0)
    flip = np.random.default_rng(0).random(len(y)) < 0.1
    y = np.where(flip, -y, y)
    return X, y, fit(X, y, confidence=None, mdl_penalty=False)


class TestStoppingAndPruning:
    # The checkerboards need deep trees; J48's threshold cost, log2 of ~360 cut points,
    # stops growing early on them, so these tests of stopping and pruning grow without
    # the MDL correction.
    @pytest.mark.parametrize("min_samples_leaf", [1, 3, 10, 40])
    def test_min_samples_leaf(self, min_samples_leaf):
        X, y = checkerboard_4x4(400, random_state=1)
        model = fit(X, y, min_samples_leaf=min_samples_leaf, confidence=None,
                    mdl_penalty=False)
        tree = model.tree_
        assert tree.node_count > 1
        for node in np.flatnonzero(~tree.is_leaf):
            sizes = tree.n_node_samples[list(tree.children[node])]
            assert np.count_nonzero(sizes >= min_samples_leaf) >= 2, (node, sizes)
            assert tree.n_node_samples[node] >= 2 * min_samples_leaf
        assert_tree_invariants(tree)

    def test_larger_min_samples_leaf_gives_no_larger_tree(self):
        X, y = checkerboard_4x4(400, random_state=1)
        leaves = [fit(X, y, min_samples_leaf=m, confidence=None).get_n_leaves()
                  for m in (1, 5, 20, 100)]
        assert leaves[-1] < leaves[0]
        assert fit(X, y, min_samples_leaf=201).tree_.node_count == 1

    def test_confidence_prunes_the_grown_tree(self, noisy):
        """``confidence`` prunes the tree ``confidence=None`` grows, by C4.5's rule."""
        X, y, unpruned = noisy
        pruned = fit(X, y, subtree_raising=False, mdl_penalty=False)
        expected = error_based_prune(unpruned.tree_, 0.25)
        assert pruned.tree_.splits == expected.splits
        np.testing.assert_array_equal(pruned.tree_.value, expected.value)
        assert unpruned.get_n_leaves() > pruned.get_n_leaves()
        assert_tree_invariants(pruned.tree_)
        assert_training_rows_consistent(pruned.tree_, X, codes(pruned, y))

    def test_smaller_confidence_gives_no_more_leaves(self, noisy):
        X, y, unpruned = noisy
        leaves = [error_based_prune(unpruned.tree_, c).n_leaves
                  for c in (1.0, 0.5, 0.25, 0.1, 0.01, 0.001)]
        assert unpruned.get_n_leaves() >= leaves[0]
        assert all(a >= b for a, b in zip(leaves, leaves[1:])), leaves
        assert leaves[-1] < leaves[2]
        assert fit(X, y, confidence=0.01, mdl_penalty=False).get_n_leaves() == leaves[4]

    @pytest.mark.parametrize("max_depth", [0, 1, 2, 4])
    def test_max_depth(self, max_depth):
        X, y = checkerboard_4x4(400, random_state=3)
        model = fit(X, y, max_depth=max_depth, confidence=None, mdl_penalty=False)
        assert model.get_depth() <= max_depth
        assert model.get_depth() == max_depth, "the checkerboard needs a deeper tree"

    def test_pure_node_is_a_leaf(self):
        X = np.random.default_rng(0).normal(size=(30, 2))
        model = fit(X, np.zeros(30))
        assert model.tree_.node_count == 1
        np.testing.assert_array_equal(model.predict(X), 0)


# ----- accuracy -----

class TestAccuracy:
    def test_checkerboard_4x4(self):
        """A 4×4 checkerboard needs many oblique splits: a single linear SVM is at chance
        while the tree reaches about 92 %."""
        X, y = checkerboard_4x4(2000, random_state=0)
        cv = StratifiedKFold(10, shuffle=True, random_state=0)
        tree = cross_val_score(ODTSVMClassifier(random_state=0), X, y, cv=cv).mean()
        linear = cross_val_score(LinearSVC(), X, y, cv=cv).mean()
        assert tree >= 0.90
        assert linear < 0.60


# ----- reproducibility, pickling, weights, validation -----

class TestEstimator:
    def test_same_random_state_same_tree(self):
        X, y = checkerboard_4x4(300, random_state=4)
        a, b = fit(X, y, random_state=3), fit(X, y, random_state=3)
        assert_refits_identically(a, b, X, y)
        rng = np.random.RandomState(3)
        d = ODTSVMClassifier(random_state=rng).fit(X, y)
        assert_tree_invariants(d.tree_)

    def test_pickle_round_trip(self):
        X, y = three_bands()
        model = fit(X, y)
        assert_pickles(model, X)

    def test_fitted_attributes_and_methods(self):
        X, y = make_blobs(150, centers=3, random_state=1)
        model = fit(X, y)
        assert model.n_features_in_ == 2 and model.n_classes_ == 3
        np.testing.assert_array_equal(model.classes_, [0, 1, 2])
        proba = model.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1)
        np.testing.assert_array_equal(model.predict(X), model.classes_[proba.argmax(axis=1)])
        assert model.get_n_leaves() == model.tree_.n_leaves
        assert model.get_depth() == model.tree_.depth

    def test_integer_weights_equal_duplicated_rows_at_the_root(self):
        X, y = checkerboard_4x4(300, random_state=5)
        weights = np.random.default_rng(1).integers(1, 4, len(y))
        weighted = fit(X, y, sample_weight=weights)
        repeated = fit(np.repeat(X, weights, axis=0), np.repeat(y, weights))
        np.testing.assert_array_equal(weighted.tree_.value[0], repeated.tree_.value[0])
        np.testing.assert_array_equal(weighted.tree_.value[0],
                                      np.bincount(codes(weighted, y), weights=weights))

    def test_weights_equal_repeats_with_one_row_leaves(self):
        """With ``min_samples_leaf=1`` no test is refused for having too few *rows*, and
        an oblique root found by the SVM on integer weights is the one on repeats once the
        SVM's ``C`` makes up for the rescaling of the weights: they are rescaled to sum
        to the number of rows, ``n``, while the repeats are ``Σw`` rows, and ``C``
        multiplies the weights."""
        X, y = oblique_separable(200, seed=3, margin=0.0)
        weights = np.random.default_rng(2).integers(1, 4, len(y))
        params = dict(min_samples_leaf=1, axis_parallel_tests=False, clustering_split=False)
        weighted = fit(X, y, sample_weight=weights, C=weights.sum() / len(y), **params)
        repeated = fit(np.repeat(X, weights, axis=0), np.repeat(y, weights), **params)
        np.testing.assert_array_equal(weighted.tree_.value[0], repeated.tree_.value[0])
        assert weighted.tree_.splits[0].kind.name == repeated.tree_.splits[0].kind.name == HYPERPLANE
        np.testing.assert_allclose(weighted.tree_.splits[0].weights,
                                   repeated.tree_.splits[0].weights, rtol=1e-2)

    def test_zero_weight_is_a_dropped_row(self):
        X, y = checkerboard_4x4(400, random_state=6)
        weights = np.ones(len(y))
        weights[::3] = 0
        weighted = fit(X, y, sample_weight=weights)
        dropped = fit(X[weights > 0], y[weights > 0])
        np.testing.assert_array_equal(weighted.tree_.value[0], dropped.tree_.value[0])
        assert weighted.tree_.n_node_samples[0] == dropped.tree_.n_node_samples[0]
        assert weighted.tree_.splits == dropped.tree_.splits
        np.testing.assert_array_equal(weighted.tree_.value, dropped.tree_.value)

    def test_fractional_weights_scale_invariant_counts(self):
        X, y = checkerboard_4x4(300, random_state=7)
        weights = np.random.default_rng(2).uniform(0.5, 2.0, len(y))
        a = fit(X, y, sample_weight=weights)
        b = fit(X, y, sample_weight=weights * 8)
        np.testing.assert_allclose(a.tree_.value[0] * 8, b.tree_.value[0])

    @pytest.mark.parametrize("params", [
        dict(C=0), dict(C=-1.0), dict(C=float("nan")), dict(C="1"), dict(C=None),
        dict(max_clusters=1), dict(max_clusters=0), dict(max_clusters=2.5),
        dict(max_clusters=None),
        dict(min_samples_leaf=0), dict(min_samples_leaf=-2), dict(min_samples_leaf=1.5),
        dict(min_samples_leaf=None),
        dict(confidence=0), dict(confidence=0.0), dict(confidence=-0.25),
        dict(confidence=1.01), dict(confidence=float("nan")), dict(confidence="0.25"),
        dict(max_depth=-1), dict(max_depth=1.5),
    ])
    def test_bad_parameters(self, params):
        X, y = checkerboard_2x2(50, random_state=0)
        name = next(iter(params))
        with pytest.raises(ValueError, match=name):
            fit(X, y, **params)

    @pytest.mark.parametrize("params", [
        dict(C=1e-3), dict(C=np.float64(10)), dict(max_clusters=2),
        dict(max_clusters=np.int64(4)), dict(min_samples_leaf=1), dict(confidence=1.0),
        dict(confidence=1e-4), dict(confidence=None), dict(max_depth=0)])
    def test_boundary_parameters_are_accepted(self, params):
        X, y = checkerboard_2x2(50, random_state=0)
        assert_tree_invariants(fit(X, y, **params).tree_)

    def test_wrong_number_of_features_at_predict(self):
        X, y = checkerboard_2x2(50, random_state=0)
        model = fit(X, y)
        with pytest.raises(ValueError, match="features"):
            model.predict(np.zeros((2, 3)))
