"""Split kinds own their behaviour: routing (missing values included), structured
conditions, geometry; every text renders from the parts."""
import numpy as np
import pytest

from orangecontrib.oblique.core import GeometricTreeClassifier, ObliqueTree
from orangecontrib.oblique.core.tree.rules import (Vocabulary, affine_text, branch_conditions,
                                                   condition_text, edge_text, quantity_text)
from orangecontrib.oblique.core.tree.splits import (KINDS, Affine, Compare, SplitKind, Split,
                                                    Term)
from orangecontrib.oblique.core.tree.structure import grow_tree


class TestConditionsAreParts:
    def test_oblique_hyperplane(self):
        split = Split.hyperplane([0.5, -2.0, 0.0], -1.0)
        left, right = split.conditions()
        assert left == Compare(quantity=Affine((Term(0, 0.5), Term(1, -2.0))),
                                 operator="<", threshold=1.0)
        assert right.operator == "≥" and right.quantity == left.quantity
        assert left.features == [0, 1]

    def test_single_feature_is_the_attribute_against_a_threshold(self):
        left, right = Split.hyperplane([0, -2.0], 3.0).conditions()
        assert left.quantity == Affine((Term(1, 1.0),))
        assert (left.operator, right.operator, left.threshold) == (">", "≤", 1.5)

    def test_equality_carries_the_value_code(self):
        left, right = Split.equality(2, 1.0, 3).conditions()
        assert (left.form, left.feature, left.value, left.operator) == ("equal", 2, 1.0, "=")
        assert right.operator == "≠"

    def test_argmax_branches_are_class_codes(self):
        split = Split("argmax", np.eye(3), [0, 0, 0], classes=[2, 0, 1])
        assert [c.branch for c in split.conditions()] == [2, 0, 1]
        assert all(len(c.scores) == 3 for c in split.conditions())
        vocabulary = Vocabulary(["a", "b", "c"], classes=["x", "y", "z"])
        assert [edge_text(c, vocabulary) for c in split.conditions()] == ["z", "x", "y"]

    def test_nearest_centre_branches_are_cluster_numbers(self):
        split = Split("nearest_centre", [[1, 1]], [0], centres=[[0], [5]])
        assert [c.branch for c in split.conditions()] == [1, 2]
        words = Vocabulary(["a", "b"], cluster="cluster {}")
        assert [edge_text(c, words) for c in split.conditions()] == ["cluster 1", "cluster 2"]

    def test_classes_only_for_argmax(self):
        with pytest.raises(ValueError):
            Split.equality(0, 1.0, 2).copy(classes=[0, 1])


class TestRenderingFromParts:
    def test_texts_of_a_hyperplane(self):
        split = Split.hyperplane([0.5, -2.0], -1.0)
        names = ["a", "b"]
        assert branch_conditions(split, names) == ["0.5·a − 2·b < 1", "0.5·a − 2·b ≥ 1"]
        assert quantity_text(split, names) == "0.5·a − 2·b"
        assert [edge_text(c, names) for c in split.conditions()] == ["< 1", "≥ 1"]

    def test_terms_in_a_given_order_and_shortened(self):
        condition = Split.hyperplane([0.5, -2.0, 3.0], -1.0).conditions()[1]
        assert condition_text(condition, ["a", "b", "c"], order=[2, 1, 0], max_terms=1) == (
            "3·c + 2 more ≥ 1")
        # as many terms as asked: "+ 1 more" for a single term left out
        assert condition_text(condition, ["a", "b", "c"], order=[2, 1, 0], max_terms=2) == (
            "3·c − 2·b + 1 more ≥ 1")

    def test_nominal_values_by_name(self):
        split = Split.equality(0, 1.0, 1)
        words = Vocabulary(["colour"], values=[["red", "green"]])
        assert branch_conditions(split, words) == ["colour = green", "colour ≠ green"]
        assert branch_conditions(split, ["colour"]) == ["colour = 1", "colour ≠ 1"]

    def test_multiway_with_scores(self):
        split = Split("argmax", [[1, 0], [0, 1]], [0, -1], classes=[1, 0])
        words = Vocabulary(["a", "b"], classes=["p", "q"])
        assert branch_conditions(split, words, with_scores=True) == [
            "largest score: q of [a; b − 1]", "largest score: p of [a; b − 1]"]

    def test_affine_constant(self):
        assert affine_text(Affine((Term(0, -1.0),), 2.5), ["a"]) == "−a + 2.5"
        assert affine_text(Affine((), 0.0), ["a"]) == "0"


class TestMissingValues:
    def test_a_row_stops_where_a_used_feature_is_missing(self):
        split = Split.hyperplane([1.0, 0.0], -1.0)
        X = np.array([[2.0, np.nan], [np.nan, 0.0], [0.0, 0.0], [np.inf, 1.0]])
        assert split.route_with_missing(X).tolist() == [1, -1, 0, -1]

    def test_tree_route_and_apply_stop_at_the_node(self):
        splits = [Split.axis_parallel(0, 0.0, 2), None, Split.axis_parallel(1, 0.0, 2),
                  None, None]
        tree = ObliqueTree(2, 2, splits, [(1, 2), (), (3, 4), (), ()], [-1, 0, 0, 2, 2],
                           [[3, 3], [2, 0], [1, 3], [1, 0], [0, 3]], [6, 2, 4, 1, 3])
        X = np.array([[-1, np.nan], [1, np.nan], [np.nan, 1], [1, 1], [1, -1]])
        reached, stop = tree.route(X)
        assert stop.tolist() == [1, 2, 0, 4, 3]
        assert tree.apply(X).tolist() == [1, 2, 0, 4, 3]
        assert reached[2].tolist() == [1, 3, 4]
        np.testing.assert_allclose(tree.predict_proba(X)[2], [0.5, 0.5])  # the root's

    def test_fitted_tree_predicts_rows_with_missing_values(self):
        rng = np.random.default_rng(0)
        X = rng.normal(size=(200, 3))
        y = (X[:, 0] + X[:, 1] > 0).astype(int)
        tree = GeometricTreeClassifier().fit(X, y).tree_
        X_missing = X.copy()
        X_missing[::7, 0] = np.nan
        proba = tree.predict_proba(X_missing)
        assert np.isfinite(proba).all()
        np.testing.assert_allclose(proba[::7], tree.proba[tree.apply(X_missing)[::7]])
        assert np.array_equal(proba[1::7], tree.predict_proba(X[1::7]))


class TestKindRegistry:
    def test_every_kind_is_a_split_kind_with_its_own_name(self):
        assert set(KINDS) == {"hyperplane", "argmax", "nearest_centre", "equality",
                              "pairwise_vote", "nominal"}
        for name, kind in KINDS.items():
            assert isinstance(kind, SplitKind) and kind.name == name

    def test_half_planes_cover_the_children(self):
        """Every kind's child regions (half-planes) contain exactly its routed rows."""
        rng = np.random.default_rng(1)
        X = rng.normal(size=(500, 2))
        splits = [Split.hyperplane([1.0, -0.5], 0.2),
                  Split("argmax", [[1, 0], [0, 1], [-1, -1]], [0, 0, 0]),
                  Split("nearest_centre", [[1, 0], [0, 1]], [0, 0],
                        centres=[[0, 0], [2, 0], [0, 2]])]
        for split in splits:
            position = split.route(X)
            for child in range(split.n_children):
                inside = np.ones(len(X), dtype=bool)
                for a, c in split.kind.child_half_planes(split, child):
                    inside &= X @ a + c >= 0
                # ties aside (measure zero), the region is exactly the child's rows
                assert np.array_equal(inside, position == child)
        assert Split.equality(0, 1.0, 2).kind.child_half_planes(Split.equality(0, 1.0, 2),
                                                                0) == []

    def test_old_pickles_without_new_slots_load(self):
        import pickle
        split = Split.hyperplane([1.0, 2.0], 3.0)
        state = (None, {"rule": "hyperplane", "weights": split.weights, "bias": split.bias,
                        "centres": None, "child_labels": None})
        old = Split.__new__(Split)
        old.__setstate__(state)
        assert old.digits is None and old.classes is None
        assert pickle.loads(pickle.dumps(old)) == split


class TestNegligibleTerms:
    def test_rounding_noise_is_dropped_and_never_printed(self):
        rng = np.random.default_rng(3)
        X = rng.normal(size=(100, 3))
        split = Split("argmax", [[1.0, 0.0, 0.0], [-4.9e-15, 1.44e-14, 0.0], [0, 0, 1.0]],
                      [0.0, -1.0, 0.0])
        before = split.route(X)
        assert split.drop_negligible_terms(X) == 2
        assert np.array_equal(split.route(X), before)
        assert "e-" not in " ".join(branch_conditions(split, ["a", "b", "c"],
                                                      with_scores=True))
        assert "b" not in quantity_text(split, ["a", "b", "c"]).split(";")[1]

    def test_a_term_that_decides_a_row_is_kept(self):
        # the first row lies next to the plane; only the tiny b term sends it right
        X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]])
        split = Split.hyperplane([1.0, 1e-12], -1e-13)
        assert split.drop_negligible_terms(X) == 0
        assert split.weights[0, 1] == 1e-12

    def test_fitted_trees_have_no_noise_terms(self):
        rng = np.random.default_rng(4)
        X = np.column_stack([rng.normal(size=300), np.full(300, 5.0), rng.normal(size=300)])
        y = (X[:, 0] - X[:, 2] > 0).astype(int)
        model = GeometricTreeClassifier().fit(X, y)
        for split in model.tree_.splits:
            if split is not None:
                size = np.abs(split.weights) * np.abs(X).max(axis=0)
                assert np.all((size == 0) | (size >= 1e-9 * size.max()))


class TestVanishingWeights:
    """A split of weights that vanish against the node's rows (what a cancellation
    leaves, ``1e−16·a ≥ 5e−16``) gets ordinary numbers by a power of two, keeping every
    row's side; a split of no weight at all is refused."""

    def test_the_split_is_scaled_and_routes_every_row_as_before(self):
        rng = np.random.default_rng(5)
        X = rng.integers(0, 17, size=(200, 3)).astype(float)
        split = Split.hyperplane([4.922e-17, 9.002e-16, 1.462e-16], -5.631e-15)
        before = split.route(X)
        assert 0 < before.sum() < len(X)
        assert split.restore_scale(X, np.arange(len(X)))
        assert np.abs(split.weights).max() == pytest.approx(1, rel=1)
        assert np.array_equal(split.route(X), before)
        assert all("e−" not in text for text in branch_conditions(split, ["a", "b", "c"]))
        ordinary = Split.hyperplane([0.5, 1e-3, 0.0], -1.0)
        assert ordinary.restore_scale(X, np.arange(len(X)))
        assert np.array_equal(ordinary.weights, [[0.5, 1e-3, 0.0]])

    def test_a_split_of_no_weight_makes_a_leaf(self):
        X = np.random.default_rng(6).normal(size=(50, 2))
        y = (X[:, 0] > 0).astype(int)
        rows = np.arange(len(X))
        assert not Split.hyperplane([0.0, 0.0], 1.0).restore_scale(X, rows)
        # a weight on a column that is 0 on the node's rows is no weight there
        assert not Split.hyperplane([0.0, 1.0], 0.0).restore_scale(
            np.c_[X[:, 0], np.zeros(50)], rows)
        assert Split.equality(0, 1.0, 2).restore_scale(X, rows)   # no geometry: kept

        def tiny(rows, counts, depth):
            return Split.hyperplane([1e-300, 0.0], 0.0)
        tree = grow_tree(X, y, np.ones(len(X)), 2, tiny, max_depth=1)
        assert tree.node_count == 3 and tree.splits[0].weights[0, 0] > 1e-3
        tree = grow_tree(X, y, np.ones(len(X)), 2,
                         lambda rows, counts, depth: Split.hyperplane([0.0, 0.0], 0.0))
        assert tree.node_count == 1


class TestMissingSharesInTexts:
    """C4.5's shares route rows with a missing value at every split of a tree grown with
    them, but a branch's text speaks of them only where the node's training rows had
    missing values."""

    def test_shares_are_printed_only_where_training_rows_had_missing_values(self):
        X = np.array([[0.0, 1.0], [1.0, np.nan], [2.0, 3.0], [3.0, 4.0]])
        complete = Split.axis_parallel(0, 1.5, 2)
        assert complete.share_missing(X, np.ones(4)) == 2
        assert complete.missing_in_training is False
        np.testing.assert_allclose(complete.missing_shares, [0.5, 0.5])
        assert [complete.missing_text(p) for p in (0, 1)] == ["", ""]
        partial = Split.axis_parallel(1, 2.0, 2)
        assert partial.share_missing(X, np.ones(4)) == 2
        assert partial.missing_in_training is True
        assert [partial.missing_text(p) for p in (0, 1)] == ["missing: 33.3 %",
                                                             "missing: 66.7 %"]
        assert partial.copy().missing_in_training is True

    def test_a_pickle_from_before_loads_and_reads_without_shares(self):
        import pickle
        split = Split.axis_parallel(1, 2.0, 2).copy(missing_shares=[0.25, 0.75])
        state = {name: getattr(split, name) for name in Split.__slots__
                 if name != "missing_in_training"}
        old = Split.__new__(Split)
        old.__setstate__((None, state))
        old = pickle.loads(pickle.dumps(old))
        assert old.missing_in_training is None and old.missing_text(1) == ""
        parts, stopped = old.route_by_weight(np.array([[0.0, np.nan]]), np.array([0]),
                                             np.ones(1))
        assert [w.tolist() for _, w in parts] == [[0.25], [0.75]] and stopped.size == 0
