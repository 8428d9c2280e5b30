"""Printed rules route every training row exactly as the model does.

Rule text used to round every number to three decimals: with attributes of large magnitude
``0.000572·income + age < 89.057`` printed as ``0.001·income + age < 89.057`` and sent 296 of
1,000 training rows to the other branch.  Here the printed text is parsed back into numbers
(:mod:`.printed_rules`) and applied to the rows, over many scales of the attributes.
"""
import numpy as np
import pytest

from orangecontrib.oblique.core import GeometricTreeClassifier, OC1Classifier
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier
from orangecontrib.oblique.core.tree.rules import (branch_conditions, format_number,
                                                   format_significant, scores_text)
from orangecontrib.oblique.core.tree.splits import ARGMAX, NEAREST_CENTRE, PAIRWISE_VOTE, Split

from tests.helpers.printed_rules import (argmax_position, branch_position, predict_by_export_text,
                                         printed_position)


def income_and_age(n=1000, seed=0):
    rng = np.random.default_rng(seed)
    X = np.c_[rng.uniform(2e4, 1.2e5, n), rng.uniform(18, 80, n)]
    y = (0.000572 * X[:, 0] + X[:, 1] + rng.normal(0, 5, n) > 89).astype(int)
    return X, y


def scaled_data(seed, scales, n_classes=2, n=300):
    """Oblique classes over columns of the given magnitudes (and offsets)."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, len(scales)))
    score = Z @ rng.normal(size=(len(scales), n_classes)) + rng.normal(0, 0.3, (n, n_classes))
    y = np.argmax(score, axis=1)
    scales = np.asarray(scales, dtype=float)
    X = Z * scales + scales * rng.uniform(-3, 3, len(scales))
    return X, y


SCALES = [
    (1.0, 1.0, 1.0),
    (1e5, 1.0, 30.0),
    (1e-4, 2e4, 1.0),
    (1e6, 1e-6, 1e3),
    (123.456, 0.0123, 98765.0),
]

ESTIMATORS = {
    "GDT": lambda: GeometricTreeClassifier(),
    "OC1": lambda: OC1Classifier(n_restarts=4, random_state=0),
    "ODT-SVM": lambda: ODTSVMClassifier(random_state=0),
}


def assert_printed_rules_route_as_the_tree(tree, X, names):
    """Every internal node: the branch each training row reaching it takes by the printed
    conditions is the branch the model sends it to."""
    stack = [(0, np.arange(X.shape[0]))]
    checked = 0
    while stack:
        node, rows = stack.pop()
        split = tree.splits[node]
        if split is None:
            continue
        position = split.route(X[rows])
        if split.kind.name == ARGMAX:
            printed = argmax_position(split.description(names), names, X[rows])
        elif split.kind.name == NEAREST_CENTRE:  # prints no centres: nothing to route by
            printed = position
        else:  # binary tests, pairwise votes (their scores printed once, for the node)
            scores = (scores_text(split.conditions()[0], names)
                      if split.kind.name == PAIRWISE_VOTE else None)
            printed = branch_position(branch_conditions(split, names, with_scores=True),
                                      names, X[rows], scores)
        mismatched = np.flatnonzero(printed != position)
        assert mismatched.size == 0, (
            f"node {node}: {mismatched.size} of {rows.size} rows take another branch by "
            f"the printed rule {branch_conditions(split, names)}")
        checked += rows.size
        for child_position, child in enumerate(tree.children[node]):
            stack.append((child, rows[position == child_position]))
    return checked


class TestTheIssueExample:
    def test_income_and_age_rule_routes_every_row_as_the_model(self):
        X, y = income_and_age()
        model = GeometricTreeClassifier(max_depth=1).fit(X, y)
        names = ["income", "age"]
        split = model.tree_.splits[0]
        condition = branch_conditions(split, names)[0]
        # the weight of income is printed with its significant digits, not as 0.001
        assert "0.001·income" not in condition
        assert condition.startswith("0.000")
        printed = printed_position(branch_conditions(split, names), names, X)
        assert np.array_equal(printed, split.route(X))
        predicted = predict_by_export_text(model.export_text(names), names, X)
        assert np.array_equal(predicted.astype(int), model.predict(X))

    def test_three_decimals_would_route_rows_differently(self):
        """The old format (three decimals, ``format_number``) fails on the same split:
        this is the defect."""
        X, _ = income_and_age()
        split = Split.hyperplane([0.000572, 1.0], -89.057)  # the issue's split

        def old(value):
            return float(format_number(value, 3).replace("−", "-"))

        weights = np.array([old(w) for w in split.weights[0]])
        old_route = (X @ weights >= old(-split.bias[0])).astype(int)
        assert np.count_nonzero(old_route != split.route(X)) > 200
        split.calibrate_digits(X)
        assert np.array_equal(split.printed().route(X), split.route(X))
        # the issue's own numbers: 0.000572 printed as 0.001
        assert old(0.000572) == 0.001


@pytest.mark.parametrize("scales", SCALES, ids=lambda s: "x".join(f"{v:g}" for v in s))
@pytest.mark.parametrize("learner", sorted(ESTIMATORS))
@pytest.mark.parametrize("n_classes", [2, 3])
def test_printed_rules_route_training_rows_as_the_model(learner, scales, n_classes):
    X, y = scaled_data(seed=len(scales) + n_classes, scales=scales, n_classes=n_classes)
    model = ESTIMATORS[learner]().fit(X, y)
    names = [f"x{j + 1}" for j in range(X.shape[1])]
    assert model.tree_.node_count > 1
    checked = assert_printed_rules_route_as_the_tree(model.tree_, X, names)
    assert checked >= X.shape[0]
    if not any(s is not None and s.kind.name == NEAREST_CENTRE
               for s in model.tree_.splits):     # export_text prints no centres
        predicted = predict_by_export_text(model.export_text(names), names, X)
        assert np.array_equal(predicted.astype(int), model.predict(X))


class TestDigits:
    def test_digits_grow_until_the_printed_rule_routes_exactly(self):
        # a row 5e-8 below the boundary: with four digits (x1 + x2 ≥ 3) it goes right
        X = np.array([[1.0, 2.0], [1.0, 2.00000005], [0.0, 0.0], [5.0, 5.0]])
        split = Split.hyperplane([1.0, 1.0], -3.0000001)
        assert split.printed(4).route(X)[1] != split.route(X)[1]
        split.calibrate_digits(X)
        assert split.digits > 4
        assert np.array_equal(split.printed().route(X), split.route(X))

    def test_uncalibrated_split_prints_four_significant_digits(self):
        split = Split.hyperplane([0.000572123, 1.0], -89.0571)
        assert split.digits is None
        assert branch_conditions(split, ["income", "age"])[0] == (
            "0.0005721·income + age < 89.06")

    def test_single_feature_printed_split_uses_the_printed_threshold(self):
        split = Split.hyperplane([0, -2.0], 3.00002)  # right: b ≤ 1.50001
        printed = split.printed(4)
        X = np.array([[0, 1.50001], [0, 1.5], [0, 1.6]])
        assert branch_conditions(split, ["a", "b"], 4) == ["b > 1.5", "b ≤ 1.5"]
        assert printed.route(X).tolist() == [0, 1, 0]  # b ≤ 1.5 misses the first row
        assert split.route(X).tolist() == [1, 1, 0]
        split.calibrate_digits(X)
        assert np.array_equal(split.printed().route(X), split.route(X))
        assert branch_conditions(split, ["a", "b"]) == ["b > 1.50001", "b ≤ 1.50001"]

    def test_digits_survive_pickling_and_old_pickles_print_four(self):
        import pickle
        X, y = income_and_age(200)
        model = GeometricTreeClassifier(max_depth=2).fit(X, y)
        copy = pickle.loads(pickle.dumps(model))
        assert [s.digits for s in copy.tree_.splits if s is not None] == [
            s.digits for s in model.tree_.splits if s is not None]
        split = Split.hyperplane([1.0, 2.0], 3.0)
        del split.digits  # a model pickled before the slot existed
        assert split.print_digits == 4


class TestFormatSignificant:
    @pytest.mark.parametrize("value, digits, expected", [
        (0.000572, 4, "0.000572"),
        (0.00057234567, 4, "0.0005723"),
        (89.0571, 4, "89.06"),
        (123456.7, 4, "123500"),
        (-2.5, 4, "−2.5"),
        (1.0, 4, "1"),
        (0, 4, "0"),
        (1.2345678901234567, 17, "1.2345678901234567"),
        (3e-20, 4, "3e−20"),
    ])
    def test_values(self, value, digits, expected):
        assert format_significant(value, digits) == expected

    @pytest.mark.parametrize("value", [1e-9, 0.1 + 0.2, 123.456789, 9.999999e7, 1e20])
    @pytest.mark.parametrize("digits", [1, 4, 9, 17])
    def test_text_reads_back_as_the_rounded_float(self, value, digits):
        text = format_significant(value, digits)
        assert float(text.replace("−", "-")) == float(f"{value:.{digits - 1}e}")
        assert "e" not in text or value >= 1e16


class TestRoundSignificant:
    @pytest.mark.parametrize("digits", [1, 4, 9, 12, 15, 17])
    def test_many_values_round_to_the_floats_their_text_reads_as(self, digits):
        from orangecontrib.oblique.core.tree.splits import round_significant
        rng = np.random.default_rng(digits)
        values = rng.normal(size=2000) * 10.0 ** rng.integers(-30, 30, 2000)
        rounded = round_significant(values, digits)            # the vectorised path
        texts = [format_significant(v, digits) for v in values[:300]]
        assert [float(t.replace("−", "-")) for t in texts] == list(rounded[:300])
        small = round_significant(values[:10], digits)          # the per-number path
        assert np.array_equal(small, rounded[:10]) or digits > 12
        if digits == 17:
            assert np.array_equal(rounded, values)


class TestOneMinusSign:
    """Every number of a text writes minus as U+2212, its exponent's too (``e−13``): no
    formatter mixes in an ASCII hyphen."""

    VALUES = [v * 10.0 ** e for e in range(-30, 31, 3) for v in (1.0, -1.0, 3.21, -7.654)]

    @pytest.mark.parametrize("decimals", [0, 1, 3, 6])
    def test_format_number(self, decimals):
        for value in self.VALUES:
            text = format_number(value, decimals)
            assert "-" not in text, text
            assert float(text.replace("−", "-")) == pytest.approx(value, rel=0.5)

    @pytest.mark.parametrize("digits", [1, 4, 17])
    def test_format_significant(self, digits):
        for value in self.VALUES:
            text = format_significant(value, digits)
            assert "-" not in text, text
            assert float(text.replace("−", "-")) == float(f"{value:.{digits - 1}e}")

    def test_rule_texts(self):
        from orangecontrib.oblique.core.tree.rules import affine_text
        from orangecontrib.oblique.core.tree.conditions import Affine
        split = Split.hyperplane([-1.462e-14, 3e-20, 1.0], 1.083e-16)
        texts = branch_conditions(split, ["a", "b", "c"]) + [
            split.description(["a", "b", "c"]),
            affine_text(Affine.of([-2e-13, 1.0], -4e-15), ["a", "b"])]
        assert all("-" not in text for text in texts), texts
        assert "e−14·a" in texts[0] and "e−16" in texts[0]
