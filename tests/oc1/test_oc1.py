"""OC1 (Murthy, Kasif & Salzberg 1994): the hyperplane search of Section 2 and the estimator."""
import pickle

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier

from tests.helpers.invariants import axis_parallel
from orangecontrib.oblique.core import OC1Classifier
from orangecontrib.oblique.core.datasets import (ls10, parallel_oblique_lines,
                                                 rotated_checkerboard)
from orangecontrib.oblique.core.oc1.classifier import (COEFFICIENT_ORDERS, SPLIT_MODES,
                                                       NodeSearch, OC1Splitter,
                                                       SearchSettings)
from orangecontrib.oblique.core.tree.impurity import (MEASURES, best_axis_parallel,
                                                      class_indicators)

from tests.helpers.invariants import (assert_same_tree, assert_training_rows_consistent,
                                      assert_tree_invariants, route_by_hand)


# ----- helpers -----

def internal_splits(model):
    return [split for split in model.tree_.splits if split is not None]


def held_out(make, n_train=2000, n_test=2000):
    """A training draw (seed 0) and an independent test draw (seed 1) of a synthetic set."""
    X, y = make(n_samples=n_train, random_state=0)
    X_test, y_test = make(n_samples=n_test, random_state=1)
    return X, y, X_test, y_test


def noisy_pol(n_samples=400, noise=0.1, seed=0):
    """POL with a share ``noise`` of the labels flipped: an unpruned tree overfits it."""
    X, y = parallel_oblique_lines(n_samples=n_samples, random_state=seed)
    flip = np.random.RandomState(seed + 100).rand(len(y)) < noise
    return X, np.where(flip, 1 - y, y)


def splitter(X, y, order="sequential", n_random_jumps=5, seed=0, measure="twoing"):
    """An :class:`OC1Splitter` built by hand, as ``OC1Classifier._build_tree`` builds it."""
    settings = SearchSettings(measure, 1, n_random_jumps, order, 1.0, 2.0,
                              "oblique_and_axis_parallel")
    return OC1Splitter(X, y, np.ones(len(y)), int(y.max()) + 1, settings,
                       np.random.RandomState(seed))


def augmented(X):
    return np.hstack([X, np.ones((len(X), 1))])


@pytest.fixture(scope="module")
def ls10_data():
    return held_out(ls10)


@pytest.fixture(scope="module")
def pol_data():
    return held_out(parallel_oblique_lines)


# ----- the perturbation step and the local search (Section 2.2-2.3) -----

class TestLocalSearch:
    # Linearly separable in 3-D, the separating plane has a non-zero bias.
    rng = np.random.RandomState(0)
    X = rng.uniform(-1, 1, size=(200, 3))
    y = (X @ np.array([1.0, 0.5, -0.7]) > 0.1).astype(np.intp)

    def node(self, X=None, y=None, measure="twoing", n_classes=2):
        X, y = (self.X, self.y) if X is None else (X, y)
        return NodeSearch(augmented(X), class_indicators(y, np.ones(len(y)), n_classes),
                          measure)

    @pytest.mark.parametrize("order", COEFFICIENT_ORDERS)
    @pytest.mark.parametrize("seed", range(3))
    def test_bad_start_reaches_zero_impurity(self, order, seed):
        search, node = splitter(self.X, self.y, order, seed=seed), self.node()
        start = np.array([-0.5, 1.0, 0.3, 0.0])     # nearly perpendicular to the truth
        assert node.split_impurity(node.Z @ start) > 1000
        hyperplane, value = search.local_search(node, start.copy())
        if value > 0:
            # the paper's P_move lets one restart stall on a plateau: the
            # restarts of OC1's search (Section 2.3) then reach the separating plane
            search.n_restarts = 5
            hyperplane, value = search.search(node, start.copy())
        assert value == 0
        # the returned impurity is that of the returned hyperplane
        assert node.split_impurity(node.Z @ hyperplane) == 0
        right = node.Z @ hyperplane >= 0
        assert np.array_equal(right, self.y == 1) or np.array_equal(right, self.y == 0)

    @pytest.mark.parametrize("order", COEFFICIENT_ORDERS)
    def test_start_with_every_row_on_one_side(self, order):
        """An empty side has infinite impurity; the search must still leave it."""
        search, node = splitter(self.X, self.y, order), self.node()
        start = np.array([0.0, 0.0, 0.0, 1.0])
        assert node.split_impurity(node.Z @ start) == np.inf
        _, value = search.local_search(node, start.copy())
        assert value < np.inf
        if order != "sequential":   # the sequential order leaves the bias to the jumps
            assert value == 0

    def test_one_coefficient_perturbation_repairs_a_wrong_coefficient(self):
        """Figure 2 without random jumps: one coefficient is wrong; perturbing one
        coefficient at a time, in sequential order, reaches a pure split."""
        X = np.random.RandomState(1).uniform(-1, 1, size=(300, 2))
        y = (X[:, 0] + X[:, 1] >= 0).astype(np.intp)
        search, node = splitter(X, y, n_random_jumps=0), self.node(X, y)
        hyperplane = np.array([1.0, -1.0, 0.0])
        before = node.split_impurity(node.Z @ hyperplane)
        hyperplane, after = search.local_search(node, hyperplane)
        assert before > 0 and after == 0
        assert hyperplane[2] == 0.0     # sequential order never perturbs the bias
        right = node.Z @ hyperplane >= 0
        assert np.array_equal(right, y == 1) or np.array_equal(right, y == 0)

    @pytest.mark.parametrize("order", COEFFICIENT_ORDERS)
    @pytest.mark.parametrize("measure", sorted(MEASURES))
    @pytest.mark.parametrize("n_random_jumps", [0, 5])
    def test_perturbation_never_raises_the_impurity(self, order, measure, n_random_jumps):
        """From the best axis-parallel split (OC1's first restart) or a poor start, a
        local search ends no worse than it started, at the impurity of the hyperplane it
        returns."""
        X, y = rotated_checkerboard(n_samples=300, random_state=2)
        node = self.node(X, y, measure, 8)
        axis_impurity, feature, threshold = best_axis_parallel(X, node.class_counts, measure)
        axis_start = np.zeros(3)
        axis_start[feature], axis_start[2] = 1.0, -threshold
        for start in (axis_start, np.array([1.0, 0.2, -2.0])):
            search = splitter(X, y, order, n_random_jumps=n_random_jumps, measure=measure)
            before = node.split_impurity(node.Z @ start)
            hyperplane, after = search.local_search(node, start.copy())
            assert after <= before
            assert after == pytest.approx(node.split_impurity(node.Z @ hyperplane))
        assert before < np.inf and axis_impurity == pytest.approx(
            node.split_impurity(node.Z @ axis_start))


# ----- accuracy on the paper's sets (Section 4.1) -----

class TestAccuracy:
    @pytest.mark.parametrize("seed", [0, 2, 3])
    def test_ls10(self, ls10_data, seed):
        X, y, X_test, y_test = ls10_data
        model = OC1Classifier(random_state=seed).fit(X, y)
        assert model.score(X_test, y_test) >= 0.95
        assert model.get_n_leaves() <= 10

    @pytest.mark.parametrize("seed", range(2))
    def test_pol(self, pol_data, seed):
        X, y, X_test, y_test = pol_data
        model = OC1Classifier(random_state=seed).fit(X, y)
        assert model.score(X_test, y_test) >= 0.97
        assert model.get_n_leaves() <= 10

    @pytest.mark.parametrize("data", ["ls10_data", "pol_data"])
    def test_beats_cart_with_fewer_leaves(self, data, request):
        X, y, X_test, y_test = request.getfixturevalue(data)
        oc1 = OC1Classifier(random_state=0).fit(X, y)
        cart = DecisionTreeClassifier(random_state=0).fit(X, y)
        assert oc1.score(X_test, y_test) > cart.score(X_test, y_test)
        assert oc1.get_n_leaves() < cart.get_n_leaves()

    def test_rcb_multiclass(self):
        X, y, X_test, y_test = held_out(rotated_checkerboard, 1000, 1000)
        model = OC1Classifier(random_state=0).fit(X, y)
        assert model.score(X_test, y_test) >= 0.9
        assert_tree_invariants(model.tree_)


# ----- split modes, bias, oblique_rows_per_feature -----

class TestSplitChoice:
    def test_default_root_of_ls10_is_oblique_over_all_features(self, ls10_data):
        X, y, _, _ = ls10_data
        root = OC1Classifier(random_state=0).fit(X, y).tree_.splits[0]
        assert not axis_parallel(root)
        assert root.features_used.size == X.shape[1]
        # x1..x5 on one side of x6..x10 (LS10's defining hyperplane)
        weights = root.weights[0]
        assert np.all(np.sign(weights[:5]) == -np.sign(weights[5:]))

    @pytest.mark.parametrize("make", [ls10, parallel_oblique_lines])
    def test_axis_parallel_mode(self, make):
        X, y = make(n_samples=600, random_state=0)
        model = OC1Classifier(split_mode="axis_parallel", random_state=0).fit(X, y)
        assert model.get_n_leaves() > 2
        assert all(axis_parallel(split) for split in internal_splits(model))

    def test_oblique_mode_root_of_ls10(self, ls10_data):
        X, y, X_test, y_test = ls10_data
        model = OC1Classifier(split_mode="oblique", random_state=0).fit(X, y)
        assert not axis_parallel(model.tree_.splits[0])
        assert model.score(X_test, y_test) >= 0.95

    def test_oblique_mode_searches_even_where_axis_parallel_is_pure(self):
        """Oblique-only mode skips the ``n > 2d`` and pure-axis-split shortcuts."""
        X = np.array([[0.0, 0.0], [1.0, 0.3], [2.0, 0.1], [3.0, 0.2]])
        y = np.array([0, 0, 1, 1])
        model = OC1Classifier(split_mode="oblique", pruning_portion=0,
                              random_state=0).fit(X, y)
        np.testing.assert_array_equal(model.predict(X), y)

    @pytest.mark.parametrize("make", [parallel_oblique_lines, rotated_checkerboard])
    def test_huge_axis_parallel_bias_keeps_only_pure_oblique_splits(self, make):
        """Step 5 as specified: the oblique split wins only if ``bias × its impurity`` is
        below the axis-parallel impurity.  With a huge bias that leaves only oblique splits
        of impurity 0 (``bias × 0 = 0``): both children homogeneous."""
        X, y = make(n_samples=400, random_state=0)
        # unpruned, so that the counts are those of the rows the splits were chosen on
        tree = OC1Classifier(axis_parallel_bias=1e6, pruning_portion=0,
                             random_state=0).fit(X, y).tree_
        oblique = [node for node, split in enumerate(tree.splits)
                   if split is not None and not axis_parallel(split)]
        default = OC1Classifier(random_state=0).fit(X, y).tree_
        assert not axis_parallel(default.splits[0])
        assert axis_parallel(tree.splits[0])        # the root's best split is impure
        for node in oblique:
            for kid in tree.children[node]:
                assert np.count_nonzero(tree.value[kid]) == 1

    def test_pure_oblique_split_beats_any_finite_bias(self, ls10_data):
        """LS10 is linearly separable: a pure oblique root split wins even against a bias
        of 1e6; only an infinite bias (``inf × 0`` is NaN, never below) rules it out."""
        X, y, _, _ = ls10_data
        root = OC1Classifier(axis_parallel_bias=1e6, random_state=0).fit(X, y).tree_.splits[0]
        assert not axis_parallel(root)
        X, y = ls10(n_samples=300, random_state=0)
        model = OC1Classifier(axis_parallel_bias=np.inf, n_restarts=2,
                              random_state=0).fit(X, y)
        assert len(internal_splits(model)) > 3
        assert all(axis_parallel(split) for split in internal_splits(model))

    @pytest.mark.parametrize("make", [ls10, parallel_oblique_lines])
    def test_huge_oblique_rows_per_feature_is_axis_parallel_mode(self, make):
        X, y = make(n_samples=600, random_state=0)
        model = OC1Classifier(oblique_rows_per_feature=1e9, random_state=0).fit(X, y)
        assert all(axis_parallel(split) for split in internal_splits(model))
        axis = OC1Classifier(split_mode="axis_parallel", random_state=0).fit(X, y)
        assert_same_tree(model.tree_, axis.tree_, rtol=0, atol=0)

    def test_oblique_rows_per_feature_boundary(self):
        """The search runs only when ``n > oblique_rows_per_feature · d``."""
        X, y = ls10(n_samples=200, random_state=0)      # n = 200, d = 10

        def root(rows_per_feature):
            return OC1Classifier(oblique_rows_per_feature=rows_per_feature, pruning_portion=0,
                                 random_state=0).fit(X, y).tree_.splits[0]

        assert axis_parallel(root(20.0))               # 200 <= 20 · 10
        assert not axis_parallel(root(19.9))           # 200 > 199


# ----- impurity measures, coefficient orders, search budget -----

@pytest.fixture(scope="module")
def small_pol():
    X, y = parallel_oblique_lines(n_samples=400, random_state=0)
    X_test, y_test = parallel_oblique_lines(n_samples=2000, random_state=1)
    return X, y, X_test, y_test


class TestSearchOptions:
    def check_sensible(self, model, X, y, X_test, y_test):
        assert_tree_invariants(model.tree_)
        assert not axis_parallel(model.tree_.splits[0])
        assert model.score(X_test, y_test) >= 0.9
        assert model.get_n_leaves() <= 15

    @pytest.mark.parametrize("measure", sorted(MEASURES))
    def test_every_impurity_measure(self, small_pol, measure):
        X, y, X_test, y_test = small_pol
        model = OC1Classifier(impurity=measure, random_state=0).fit(X, y)
        self.check_sensible(model, X, y, X_test, y_test)

    @pytest.mark.parametrize("order", COEFFICIENT_ORDERS)
    def test_every_coefficient_order(self, small_pol, order):
        X, y, X_test, y_test = small_pol
        model = OC1Classifier(coefficient_order=order, random_state=0).fit(X, y)
        self.check_sensible(model, X, y, X_test, y_test)

    def test_one_restart_no_jumps(self, ls10_data):
        X, y, X_test, y_test = ls10_data
        model = OC1Classifier(n_restarts=1, n_random_jumps=0, random_state=0).fit(X, y)
        assert_tree_invariants(model.tree_)
        assert not axis_parallel(model.tree_.splits[0])
        assert model.score(X_test, y_test) >= 0.9

    def test_oblique_mode_when_no_split_has_positive_gain(self):
        """Information gain is infinite (reciprocal of 0) for every split of these rows
        (each point carries both classes), so every restart ends at ``inf``; oblique-only
        mode must still give a valid tree instead of failing on a missing hyperplane."""
        X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [0.0, 1.0], [0.0, 1.0]])
        y = np.array([0, 1, 0, 1, 0, 1])
        model = OC1Classifier(impurity="information_gain", split_mode="oblique",
                              pruning_portion=0, random_state=0).fit(X, y)
        assert_tree_invariants(model.tree_)
        np.testing.assert_allclose(model.predict_proba(X), 0.5)


# ----- randomness, pickling -----

class TestDeterminism:
    @pytest.mark.parametrize("make", [ls10, rotated_checkerboard])
    def test_same_seed_same_tree(self, make):
        X, y = make(n_samples=400, random_state=3)
        a = OC1Classifier(random_state=7).fit(X, y)
        b = OC1Classifier(random_state=7).fit(X, y)
        assert a.tree_.splits == b.tree_.splits          # Split equality: exact arrays
        assert a.tree_.children == b.tree_.children
        np.testing.assert_array_equal(a.tree_.value, b.tree_.value)
        np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))

    def test_different_seeds_may_differ(self):
        X, y = parallel_oblique_lines(n_samples=400, random_state=3)
        roots = [OC1Classifier(random_state=seed).fit(X, y).tree_.splits[0]
                 for seed in range(3)]
        assert roots[0] != roots[1] or roots[0] != roots[2]

    def test_refit_with_same_seed_is_identical(self):
        X, y = ls10(n_samples=400, random_state=0)
        model = OC1Classifier(random_state=1)
        first = model.fit(X, y).tree_.splits
        assert model.fit(X, y).tree_.splits == first

    def test_pickle_round_trip(self, pol_data):
        X, y, X_test, _ = pol_data
        model = OC1Classifier(random_state=0).fit(X, y)
        copy = pickle.loads(pickle.dumps(model))
        assert copy.tree_.splits == model.tree_.splits
        np.testing.assert_array_equal(copy.predict_proba(X_test), model.predict_proba(X_test))
        np.testing.assert_array_equal(copy.apply(X_test), model.apply(X_test))
        assert copy.get_params() == model.get_params()


# ----- pruning and stopping -----

@pytest.fixture(scope="module")
def noisy():
    return noisy_pol()


class TestPruningAndDepth:
    def test_pruning_gives_fewer_leaves(self, noisy):
        X, y = noisy
        grown = OC1Classifier(pruning_portion=0.0, n_restarts=2, random_state=0).fit(X, y)
        pruned = OC1Classifier(pruning_portion=0.1, n_restarts=2, random_state=0).fit(X, y)
        assert pruned.get_n_leaves() <= grown.get_n_leaves()
        assert grown.get_n_leaves() > 20        # the flipped labels are fitted ...
        assert pruned.get_n_leaves() < 15       # ... and pruned away

    def test_unpruned_tree_fits_training_rows(self, noisy):
        X, y = noisy
        model = OC1Classifier(pruning_portion=0.0, n_restarts=2, random_state=0).fit(X, y)
        assert model.score(X, y) == 1.0
        assert_training_rows_consistent(model.tree_, X, y)

    def test_larger_se_rule_never_more_leaves(self, noisy):
        X, y = noisy
        leaves = [OC1Classifier(se_rule=k, n_restarts=2, random_state=0).fit(X, y)
                  .get_n_leaves() for k in (0.0, 0.5, 1.0, 2.0, 5.0)]
        assert leaves == sorted(leaves, reverse=True)
        assert leaves[-1] < leaves[0]

    @pytest.mark.parametrize("max_depth", [0, 1, 2, 3])
    def test_max_depth(self, noisy, max_depth):
        X, y = noisy
        model = OC1Classifier(max_depth=max_depth, pruning_portion=0, n_restarts=2,
                              random_state=0).fit(X, y)
        assert model.get_depth() == max_depth
        assert_tree_invariants(model.tree_)

    def test_max_depth_none(self, noisy):
        X, y = noisy
        model = OC1Classifier(max_depth=None, pruning_portion=0, n_restarts=2,
                              random_state=0).fit(X, y)
        assert model.score(X, y) == 1.0

    def test_min_samples_split(self, noisy):
        X, y = noisy
        model = OC1Classifier(min_samples_split=50, pruning_portion=0, n_restarts=2,
                              random_state=0).fit(X, y)
        tree = model.tree_
        assert np.all(tree.n_node_samples[~tree.is_leaf] >= 50)


# ----- progress callback -----

class TestProgress:
    def test_fractions_rise_to_one(self):
        X, y = rotated_checkerboard(n_samples=400, random_state=0)
        fractions = []
        OC1Classifier(random_state=0).fit(X, y, progress_callback=fractions.append)
        assert len(fractions) > 3
        assert np.all(np.diff(fractions) >= 0)
        assert 0 <= fractions[0] and fractions[-1] == 1.0

    def test_exception_in_callback_aborts_fit(self):
        X, y = rotated_checkerboard(n_samples=400, random_state=0)
        calls = []

        class Cancelled(Exception):
            pass

        def cancel(fraction):
            calls.append(fraction)
            if len(calls) == 3:
                raise Cancelled

        model = OC1Classifier(random_state=0)
        with pytest.raises(Cancelled):
            model.fit(X, y, progress_callback=cancel)
        assert len(calls) == 3
        assert not hasattr(model, "tree_")
        with pytest.raises(NotFittedError):
            model.predict(X)


# ----- hyperplanes in raw units -----

class TestRawUnits:
    def test_routing_by_stored_weights_equals_apply(self, pol_data):
        X, y, X_test, _ = pol_data
        tree = OC1Classifier(random_state=0).fit(X, y).tree_
        leaves = tree.apply(X_test[:300])
        assert [route_by_hand(tree, x) for x in X_test[:300]] == leaves.tolist()

    @pytest.mark.parametrize("make", [ls10, rotated_checkerboard])
    def test_training_rows_reproduce_node_counts(self, make):
        X, y = make(n_samples=500, random_state=0)
        model = OC1Classifier(pruning_portion=0, random_state=0).fit(X, y)
        assert_training_rows_consistent(model.tree_, X, y)
        assert_tree_invariants(model.tree_)

    @pytest.mark.parametrize("seed", range(3))
    def test_scaling_a_feature_changes_nothing(self, ls10_data, seed):
        """Per-node standardisation makes the search blind to units; the stored weight of
        the rescaled feature shrinks by the factor (up to the printed rounding and rare
        ties)."""
        X, y, X_test, _ = ls10_data
        factor = np.ones(X.shape[1])
        factor[3] = 1000.0
        shift = np.zeros(X.shape[1])
        shift[7] = -50.0
        plain = OC1Classifier(random_state=seed).fit(X, y)
        scaled = OC1Classifier(random_state=seed).fit(X * factor + shift, y)
        # Every training row alike.  The model is its printed rules, each with the fewest
        # digits that route its training rows as found: a new row in the gap next to a
        # boundary may change side (at most 1 of 2,000 here).
        np.testing.assert_array_equal(plain.predict(X), scaled.predict(X * factor + shift))
        assert np.sum(plain.predict(X_test) != scaled.predict(X_test * factor + shift)) <= 2
        # the same partition of the training rows at every node ...
        assert plain.tree_.children == scaled.tree_.children
        np.testing.assert_array_equal(plain.tree_.value, scaled.tree_.value)
        # ... by the same root hyperplane, mapped to the rescaled units, as far as its
        # printed digits tell.  (Deeper down the search may stop at another hyperplane with
        # the same partition: rounding of the standardised values can reorder tied
        # candidates of a line search.)
        root_plain, root_scaled = plain.tree_.splits[0], scaled.tree_.splits[0]
        weights = root_plain.weights[0] / factor
        bias = root_plain.bias[0] - weights @ shift
        norm = np.linalg.norm(weights)
        digits = min(root_plain.digits, root_scaled.digits)
        tolerance = 10.0 ** (1 - digits)
        np.testing.assert_allclose(root_scaled.weights[0], weights / norm, rtol=tolerance,
                                   atol=tolerance * np.abs(weights / norm).max())
        assert root_scaled.bias[0] == pytest.approx(bias / norm, rel=tolerance, abs=tolerance)


# ----- sample weights -----

class TestSampleWeights:
    def test_integer_weights_root_counts_equal_duplicated_rows(self):
        X, y = ls10(n_samples=300, random_state=0)
        weights = np.random.RandomState(0).randint(1, 4, size=len(y))
        weighted = OC1Classifier(pruning_portion=0, random_state=0).fit(X, y, weights)
        repeated = OC1Classifier(pruning_portion=0, random_state=0).fit(
            X.repeat(weights, axis=0), y.repeat(weights))
        np.testing.assert_allclose(weighted.tree_.value[0], repeated.tree_.value[0])
        np.testing.assert_allclose(weighted.tree_.value[0],
                                   np.bincount(y, weights=weights))

    @pytest.mark.parametrize("make", [ls10, parallel_oblique_lines])
    def test_integer_weights_equal_duplicated_rows_in_the_search(self, make):
        """"A row of weight 2 counts as two copies of the row" (``fit``'s docstring).
        Without pruning and with the ``n > 2d`` row-count rule switched off, weighted and
        repeated rows meet the same sequence of random draws, so the trees must agree up
        to rounding -- provided the per-node standardisation is weighted too.  The weights
        are rescaled to sum to the number of rows before the tree is grown (only their
        ratios matter); with weights 1, 2, 3 a hundred times each, of mean 2, that is an
        exact halving, so the weighted sums stay exact as the repeated counts are (with
        another mean the rescaled weights are rounded, and the search can take another
        step at a near tie)."""
        X, y = make(n_samples=300, random_state=0)
        weights = np.random.RandomState(0).permutation(np.repeat([1, 2, 3], 100))
        params = dict(pruning_portion=0, oblique_rows_per_feature=0, random_state=0)
        weighted = OC1Classifier(**params).fit(X, y, weights)
        repeated = OC1Classifier(**params).fit(X.repeat(weights, axis=0), y.repeat(weights))
        assert_same_tree(weighted.tree_, repeated.tree_, rtol=1e-6, atol=1e-9)
        X_test, _ = make(n_samples=1000, random_state=5)
        np.testing.assert_array_equal(weighted.predict(X_test), repeated.predict(X_test))
        assert weighted.get_n_leaves() == repeated.get_n_leaves()

    @pytest.mark.parametrize("pruning_portion", [0.0, 0.1])
    def test_zero_weights_equal_dropped_rows(self, pruning_portion):
        X, y = ls10(n_samples=400, random_state=0)
        weights = np.ones(len(y))
        weights[::7] = 0
        params = dict(pruning_portion=pruning_portion, random_state=0)
        weighted = OC1Classifier(**params).fit(X, y, weights)
        dropped = OC1Classifier(**params).fit(X[weights > 0], y[weights > 0])
        assert weighted.tree_.splits == dropped.tree_.splits
        np.testing.assert_array_equal(weighted.tree_.value, dropped.tree_.value)

    def test_uniformly_scaled_weights_give_the_same_tree(self):
        X, y = parallel_oblique_lines(n_samples=400, random_state=0)
        a = OC1Classifier(random_state=0).fit(X, y)
        b = OC1Classifier(random_state=0).fit(X, y, np.full(len(y), 2.5))
        assert a.tree_.splits == b.tree_.splits
        np.testing.assert_allclose(2.5 * a.tree_.value, b.tree_.value)


# ----- validation -----

class TestValidation:
    @pytest.mark.parametrize("params, name", [
        (dict(impurity="entropy"), "impurity"),
        (dict(impurity=None), "impurity"),
        (dict(coefficient_order="alphabetical"), "coefficient_order"),
        (dict(split_mode="diagonal"), "split_mode"),
        (dict(n_restarts=-1), "n_restarts"),
        (dict(n_restarts=0), "n_restarts"),
        (dict(n_restarts=2.5), "n_restarts"),
        (dict(n_random_jumps=-1), "n_random_jumps"),
        (dict(pruning_portion=-0.1), "pruning_portion"),
        (dict(pruning_portion=0.95), "pruning_portion"),
        (dict(pruning_portion=1.0), "pruning_portion"),
        (dict(pruning_portion="10%"), "pruning_portion"),
        (dict(se_rule=-1.0), "se_rule"),
        (dict(axis_parallel_bias=-0.5), "axis_parallel_bias"),
        (dict(oblique_rows_per_feature=-1), "oblique_rows_per_feature"),
        (dict(max_depth=-1), "max_depth"),
        (dict(max_depth=2.5), "max_depth"),
        (dict(min_samples_split=1), "min_samples_split"),
    ])
    def test_bad_parameters(self, params, name):
        X, y = ls10(n_samples=50, random_state=0)
        with pytest.raises(ValueError, match=name):
            OC1Classifier(**params).fit(X, y)

    @pytest.mark.parametrize("params", [dict(n_random_jumps=0), dict(pruning_portion=0.0),
                                        dict(pruning_portion=0.9), dict(axis_parallel_bias=0),
                                        dict(oblique_rows_per_feature=0), dict(max_depth=None),
                                        dict(se_rule=3)])
    def test_boundary_parameters_are_accepted(self, params):
        X, y = ls10(n_samples=50, random_state=0)
        OC1Classifier(random_state=0, **params).fit(X, y)

    def test_every_documented_mode_is_accepted(self):
        X, y = ls10(n_samples=50, random_state=0)
        for mode in SPLIT_MODES:
            OC1Classifier(split_mode=mode, random_state=0).fit(X, y)


# ----- the random numbers of the search -----

@pytest.mark.parametrize("order", COEFFICIENT_ORDERS)
def test_draws_do_not_depend_on_their_blocks(monkeypatch, order):
    """The splitter draws its random numbers in blocks (``oc1._Draws``); tiny blocks
    (every draw a refill, the sequential kernel out of numbers again and again) and the
    usual ones grow the same tree and leave the generator in the same state."""
    from sklearn.datasets import load_wine
    from orangecontrib.oblique.core.oc1 import classifier as oc1
    X, y = load_wine(return_X_y=True)
    results = []
    for block, per_coefficient in ((4096, 64), (1, 1), (7, 2)):
        monkeypatch.setattr(oc1, "DRAW_BLOCK", block)
        monkeypatch.setattr(oc1, "DRAWS_PER_COEFFICIENT", per_coefficient)
        generator = np.random.RandomState(4)
        estimator = OC1Classifier(random_state=generator, coefficient_order=order,
                                  n_restarts=4).fit(X, y)
        results.append((estimator, generator.random_sample(2)))
    for estimator, after in results[1:]:
        assert estimator.export_text() == results[0][0].export_text()
        assert np.array_equal(results[0][1], after)


def test_local_search_kernel_stops_when_its_draws_run_out():
    from sklearn.datasets import load_iris
    from orangecontrib.oblique.core.tree import line_search as kernels
    X, y = load_iris(return_X_y=True)
    Z = np.column_stack([(X - X.mean(0)) / X.std(0), np.ones(len(X))])
    node = NodeSearch(Z, class_indicators(y, np.ones(len(y)), 3), "twoing")
    hyperplane = np.array([1.0, 0, 0, 0, -0.5])
    for order in kernels.ORDER_CODES.values():
        arguments = (Z, node.columns, node.arguments, node.workspace, hyperplane.copy(),
                     Z @ hyperplane, np.inf, (order, 5, 0.1, 100, True, 50))
        _, position = kernels.local_search(*arguments, np.zeros(0, dtype=np.int64), 0)
        assert position == -1
        words = np.full(10_000, 1 << 31, dtype=np.int64)    # random_sample() 0.5
        impurity, position = kernels.local_search(*arguments, words, 3)
        assert 3 <= position <= 10_000 and np.isfinite(impurity)
