"""The project's linear SVM (dual coordinate descent, Hsieh et al., ICML 2008) against
scikit-learn's ``LinearSVC(loss="hinge", dual=True)`` (liblinear's L2R_L1LOSS_SVC_DUAL) on
the objective both minimise, and the optimality (KKT) conditions of its own solutions."""
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from orangecontrib.oblique.core.odt_svm.linear_svm import (MAX_ITER, TOLERANCE, DualStart,
                                                         hinge_svm_dual, linear_svm)


def primal_objective(X, signs, C_i, w, b):
    """½ (|w|² + b²) + Σ C_i max(0, 1 − y_i (w·x_i + b)): the bias regularised, as
    liblinear's constant feature of value 1 makes it."""
    return 0.5 * (w @ w + b * b) + np.sum(C_i * np.maximum(0.0, 1.0 - signs * (X @ w + b)))


def dual_objective(X, signs, alpha):
    """Σ α_i − ½ |Σ α_i y_i (x_i, 1)|² (the negated dual of Hsieh et al.'s eq. 4)."""
    v = (alpha * signs) @ np.column_stack([X, np.ones(len(X))])
    return alpha.sum() - 0.5 * v @ v


def library_svm(X, y, weights, C, tol=1e-8, max_iter=200_000):
    svm = LinearSVC(loss="hinge", dual=True, C=C, tol=tol, max_iter=max_iter, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        svm.fit(X, y, sample_weight=weights)
    return svm.classes_, svm.coef_, svm.intercept_


def signs_of(y, classes, model):
    """The ±1 labels of hyperplane ``model``: class 1 for two classes, class ``model``
    against the rest otherwise."""
    positive = classes[1] if len(classes) == 2 else classes[model]
    return np.where(y == positive, 1.0, -1.0)


def problems():
    """(name, X, y, weights, C): the data sets the solver meets at a tree's nodes."""
    rng = np.random.RandomState(0)
    X, y = make_blobs(80, centers=[[-2, -2], [2, 2]], cluster_std=0.6, random_state=1)
    yield "separable", X, y, np.ones(80), 1.0
    X, y = make_classification(150, 5, n_informative=3, n_redundant=0, flip_y=0.15,
                               class_sep=0.7, random_state=2)
    yield "overlapping", X, y, np.ones(150), 1.0
    yield "overlapping C=0.05", X, y, np.ones(150), 0.05
    yield "weighted", X, y, rng.uniform(0.1, 3.0, 150), 1.0
    X, y = make_classification(200, 4, n_informative=2, n_redundant=0, weights=[0.95, 0.05],
                               flip_y=0.02, random_state=3)
    yield "imbalanced", X, y, np.ones(200), 1.0
    x = np.r_[rng.normal(-1, 1, 60), rng.normal(1, 1, 60)]
    yield "one feature", x[:, None], np.repeat([0, 1], 60), np.ones(120), 1.0
    X, y = make_classification(40, 3, n_informative=2, n_redundant=0, random_state=4)
    yield "duplicated rows", np.repeat(X, 3, axis=0), np.repeat(y, 3), np.ones(120), 1.0
    X, y = make_blobs(120, centers=3, cluster_std=1.5, random_state=5)
    yield "three classes", X, y + 4, rng.uniform(0.5, 2.0, 120), 1.0


PROBLEMS = list(problems())
IDS = [name for name, *_ in PROBLEMS]


@pytest.mark.parametrize("name, X, y, weights, C", PROBLEMS, ids=IDS)
def test_reaches_linear_svcs_objective(name, X, y, weights, C):
    classes, coef, intercept = linear_svm(X, y, weights, C, seed=1, tolerance=1e-8,
                                          max_iter=200_000)
    library_classes, library_coef, library_intercept = library_svm(X, y, weights, C)
    np.testing.assert_array_equal(classes, library_classes)
    assert coef.shape == library_coef.shape and intercept.shape == library_intercept.shape
    for model in range(coef.shape[0]):
        signs = signs_of(y, classes, model)
        ours = primal_objective(X, signs, C * weights, coef[model], intercept[model])
        theirs = primal_objective(X, signs, C * weights, library_coef[model],
                                  library_intercept[model])
        assert ours == pytest.approx(theirs, rel=1e-5)
        # the same classifier on (nearly) every row: where the optimum is not unique
        # (duplicated rows, one feature) rows on the margin may differ
        agree = np.mean((X @ coef[model] + intercept[model] >= 0)
                        == (X @ library_coef[model] + library_intercept[model] >= 0))
        assert agree >= 0.97, agree


@pytest.mark.parametrize("name, X, y, weights, C", PROBLEMS, ids=IDS)
def test_default_tolerance_reaches_nearly_the_optimum(name, X, y, weights, C):
    """With ODT-SVM's settings (LinearSVC's tol=1e-4, max_iter=2000) the objective is
    within 10⁻³ of the optimum that LinearSVC reaches at a tight tolerance."""
    classes, coef, intercept = linear_svm(X, y, weights, C, seed=3)
    _, library_coef, library_intercept = library_svm(X, y, weights, C)
    for model in range(coef.shape[0]):
        signs = signs_of(y, classes, model)
        ours = primal_objective(X, signs, C * weights, coef[model], intercept[model])
        best = primal_objective(X, signs, C * weights, library_coef[model],
                                library_intercept[model])
        assert best * (1 - 1e-6) <= ours <= best * (1 + 1e-3)


@pytest.mark.parametrize("name, X, y, weights, C", PROBLEMS, ids=IDS)
def test_kkt_conditions_and_no_duality_gap(name, X, y, weights, C):
    """At the solution: w = Σ α_i y_i x_i (and b = Σ α_i y_i), 0 ≤ α_i ≤ C_i, and with
    G_i = y_i f(x_i) − 1: G_i ≥ −ε where α_i = 0, G_i ≤ ε where α_i = C_i, |G_i| ≤ ε in
    between (Hsieh et al., eq. 8); primal and dual objectives meet."""
    classes = np.unique(y)
    tolerance = 1e-6
    upper_bounds = C * weights
    for model in range(1 if len(classes) == 2 else len(classes)):
        signs = signs_of(y, classes, model)
        w, b, alpha, passes = hinge_svm_dual(np.ascontiguousarray(X, dtype=float), signs,
                                             upper_bounds, tolerance, 100_000,
                                             np.array([7], dtype=np.uint64),
                                             np.zeros(len(y)))
        assert passes < 100_000
        np.testing.assert_allclose(w, (alpha * signs) @ X, atol=1e-9)
        assert b == pytest.approx(np.sum(alpha * signs), abs=1e-9)
        assert np.all(alpha >= 0) and np.all(alpha <= upper_bounds)
        gradient = signs * (X @ w + b) - 1
        at_zero, at_bound = alpha == 0, alpha == upper_bounds
        slack = 2 * tolerance
        assert np.all(gradient[at_zero] >= -slack)
        assert np.all(gradient[at_bound] <= slack)
        assert np.all(np.abs(gradient[~at_zero & ~at_bound]) <= slack)
        primal = primal_objective(X, signs, upper_bounds, w, b)
        dual = dual_objective(X, signs, alpha)
        assert dual <= primal * (1 + 1e-12)
        assert primal - dual <= 1e-4 * max(primal, 1.0)


def test_separable_set_gets_the_maximum_margin_hyperplane():
    """Two points per class symmetric about x1 + x2 = 0: with a large C the hard-margin
    SVM, w ∝ (1, 1) through the origin, every point on the margin."""
    X = np.array([[1.0, 1.0], [2.0, 0.0], [-1.0, -1.0], [0.0, -2.0]])
    y = np.array([1, 1, 0, 0])
    _, coef, intercept = linear_svm(X, y, np.ones(4), 1e4, seed=0, tolerance=1e-10,
                                    max_iter=100_000)
    w, b = coef[0], intercept[0]
    assert abs(w @ [1, 1]) / np.linalg.norm(w) / np.sqrt(2) == pytest.approx(1, abs=1e-6)
    assert b == pytest.approx(0, abs=1e-6)
    np.testing.assert_allclose(np.where(y == 1, 1, -1) * (X @ w + b), 1, atol=1e-6)


def test_binary_hyperplane_is_positive_for_the_second_class():
    X, y = make_blobs(60, centers=[[3, 0], [-3, 0]], random_state=0)
    labels = np.array(["b", "a"])[y]                      # "a" on the left
    classes, coef, intercept = linear_svm(X, labels, np.ones(60), 1.0, seed=0)
    assert classes.tolist() == ["a", "b"] and coef.shape == (1, 2)
    assert coef[0, 0] > 0                                # positive for "b", on the right
    np.testing.assert_array_equal(X @ coef[0] + intercept[0] >= 0, labels == "b")


def test_weights_are_row_penalties():
    """A weight is a row's share of C: integer weights give the SVM of repeated rows, and
    a weight of 0 the SVM without the row."""
    _, X, y, _, _ = PROBLEMS[1]
    weights = np.random.RandomState(1).randint(0, 4, len(y)).astype(float)
    solution = linear_svm(X, y, weights, 0.5, seed=2, tolerance=1e-9, max_iter=100_000)
    repeated = linear_svm(np.repeat(X, weights.astype(int), axis=0),
                          np.repeat(y, weights.astype(int)), np.ones(int(weights.sum())),
                          0.5, seed=2, tolerance=1e-9, max_iter=100_000)
    kept = weights > 0
    dropped = linear_svm(X[kept], y[kept], weights[kept], 0.5, seed=2, tolerance=1e-9,
                         max_iter=100_000)
    signs = signs_of(y, solution[0], 0)
    objectives = [primal_objective(X, signs, 0.5 * weights, coef[0], intercept[0])
                  for _, coef, intercept in (solution, repeated, dropped)]
    np.testing.assert_allclose(objectives, objectives[0], rtol=1e-6)
    np.testing.assert_allclose(solution[1], repeated[1], atol=1e-3)


def test_same_seed_same_solution_and_any_seed_the_same_optimum():
    _, X, y, weights, C = PROBLEMS[3]
    first = linear_svm(X, y, weights, C, seed=11)
    again = linear_svm(X, y, weights, C, seed=11)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    other = linear_svm(X, y, weights, C, seed=12)
    assert not np.array_equal(first[1], other[1])       # another order of the rows
    signs = signs_of(y, first[0], 0)
    objectives = [primal_objective(X, signs, C * weights, coef[0], intercept[0])
                  for _, coef, intercept in (first, other)]
    assert objectives[1] == pytest.approx(objectives[0], rel=1e-3)


def test_stops_after_max_iter_passes():
    rng = np.random.RandomState(0)
    X, y = rng.normal(size=(200, 30)), rng.randint(0, 2, 200)   # noise: slow to converge
    signs = np.where(y == 1, 1.0, -1.0)
    state = np.array([12345], dtype=np.uint64)
    *_, passes = hinge_svm_dual(X, signs, np.ones(200), TOLERANCE, 7, state, np.zeros(200))
    assert passes == 7
    *_, passes = hinge_svm_dual(X, signs, np.ones(200), TOLERANCE, MAX_ITER, state,
                                np.zeros(200))
    assert 7 < passes <= MAX_ITER


def test_prints_nothing(capfd):
    _, X, y, weights, C = PROBLEMS[1]
    linear_svm(X, y, weights, C, seed=0, max_iter=3)
    assert capfd.readouterr() == ("", "")


def test_a_warm_start_from_the_solution_is_the_solution():
    """A fit started from the dual variables of a fit on the same rows is a
    feasible point of the same dual; from the optimum itself one pass meets the
    tolerance and the hyperplane stays."""
    _, X, y, weights, C = PROBLEMS[1]
    start = DualStart()
    first = linear_svm(X, y, weights, C, seed=0, tolerance=1e-6, max_iter=100_000,
                       dual_start=start)
    assert start.n_iter > 1 and start.alphas.shape == (1, len(y))
    again = linear_svm(X, y, weights, C, seed=0, tolerance=1e-6, max_iter=100_000,
                       dual_start=start)
    assert start.n_iter == 1
    np.testing.assert_allclose(again[1], first[1], atol=1e-5)  # its steps: within the tolerance
    cold = linear_svm(X, y, weights, C, seed=0, tolerance=1e-6, max_iter=100_000,
                      dual_start=DualStart())
    for a, b in zip(cold, first):                # an empty DualStart: a cold start
        np.testing.assert_array_equal(a, b)


def test_a_warm_start_on_fewer_columns_meets_the_same_optimum():
    """The dual variables of the SVM on all columns start the SVM on some of them: the
    same optimum as a cold start (the primal objective)."""
    _, X, y, weights, C = PROBLEMS[7]                   # three classes: three SVMs
    start = DualStart()
    linear_svm(X, y, weights, C, seed=0, dual_start=start)
    warm = linear_svm(X[:, :1], y, weights, C, seed=0, tolerance=1e-8, max_iter=100_000,
                      dual_start=start)
    cold = linear_svm(X[:, :1], y, weights, C, seed=0, tolerance=1e-8, max_iter=100_000)
    classes = np.unique(y)
    for model in range(3):
        signs = signs_of(y, classes, model)
        objectives = [primal_objective(X[:, :1], signs, C * weights, coef[model],
                                       intercept[model]) for _, coef, intercept in (warm, cold)]
        assert objectives[0] == pytest.approx(objectives[1], rel=1e-6)


def test_a_dual_start_of_other_rows_is_a_clear_error():
    _, X, y, weights, C = PROBLEMS[1]
    start = DualStart()
    linear_svm(X, y, weights, C, seed=0, dual_start=start)
    with pytest.raises(ValueError, match="dual_start"):
        linear_svm(X[:-1], y[:-1], weights[:-1], C, seed=0, dual_start=start)
