"""A nominal value that the training domain lacks is predicted as the missing value, by
every learner: a table of another domain whose attribute of the same name has one more
value ('violet'; Orange passes its table on unchanged, the domains being equal by name,
so ODT-SVM's estimator gets code 3), and a table of the training domain whose codes are
none of the attribute's values (larger, negative, not whole; the one-hot learners' indicator
columns then gave all zeros, not the imputed missing value)."""
import os
import re

import numpy as np
import pytest

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner, OC1Learner,
                                   ObliqueForestLearner, ODTSVMLearner)

COLOURS = ("red", "green", "blue")
SIZES = ("small", "large")
CLASS = DiscreteVariable("y", values=("no", "yes"))

LEARNERS = {
    "ODT-SVM": lambda: ODTSVMLearner(random_state=0),
    "GDT": lambda: GeometricTreeLearner(),
    "OC1": lambda: OC1Learner(n_restarts=2, random_state=0),
    "Hedge of ODT-SVM": lambda: HedgeEnsembleLearner(n_estimators=3),
    "Hedge of GDT": lambda: HedgeEnsembleLearner(learner=GeometricTreeLearner(),
                                                 n_estimators=2),
    "Oblique Forest": lambda: ObliqueForestLearner(n_estimators=5),
}


def domain(colours=COLOURS, sizes=SIZES):
    return Domain([ContinuousVariable("x"), DiscreteVariable("colour", values=colours),
                   DiscreteVariable("size", values=sizes)], CLASS)


def training_table(n=240, seed=0):
    """The class depends on x, on colour (green) and on size (large), 10 % flipped."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    colour = rng.integers(0, 3, n)
    size = rng.integers(0, 2, n)
    y = ((x + 1.5 * (colour == 1) + 0.8 * (size == 1) > 0.9) ^ (rng.random(n) < 0.1))
    return Table.from_numpy(domain(), np.column_stack([x, colour, size]), y.astype(float))


@pytest.fixture(scope="module", params=list(LEARNERS))
def model(request):
    return LEARNERS[request.param]()(TRAINING)


TRAINING = training_table()


def rows(colour, size, table_domain=TRAINING.domain, n=40):
    """``n`` rows of x from -2 to 2 and the given codes, in the training table's domain
    (its own variables) unless told."""
    x = np.linspace(-2, 2, n)
    X = np.column_stack([x, np.full(n, colour, dtype=float), np.full(n, size, dtype=float)])
    return Table.from_numpy(table_domain, X, np.zeros(n))


def probabilities(model, table):
    return model(table, model.Probs)


def test_the_attributes_matter(model):
    """The comparisons below are not empty: a missing colour (of a small thing) and a
    missing size (of a blue thing) are predicted unlike some value of them."""
    missing = probabilities(model, rows(np.nan, 0))
    assert any(not np.array_equal(missing, probabilities(model, rows(colour, 0)))
               for colour in range(3)), model.name
    missing = probabilities(model, rows(2, np.nan))
    assert any(not np.array_equal(missing, probabilities(model, rows(2, size)))
               for size in range(2)), model.name


@pytest.mark.parametrize("size", [0, 1, np.nan])
def test_a_value_of_a_test_domain_the_training_domain_lacks_is_missing(model, size):
    test_domain = domain(colours=COLOURS + ("violet",))
    violet = rows(3, size, test_domain)
    assert violet.domain.attributes[1].values[3] == "violet"
    np.testing.assert_array_equal(probabilities(model, violet),
                                  probabilities(model, rows(np.nan, size)))


@pytest.mark.parametrize("code", [3, 7, -1, 0.5])
def test_a_code_that_is_none_of_the_values_is_missing(model, code):
    np.testing.assert_array_equal(probabilities(model, rows(code, 0)),
                                  probabilities(model, rows(np.nan, 0)))
    np.testing.assert_array_equal(probabilities(model, rows(2, code)),
                                  probabilities(model, rows(2, np.nan)))


def test_known_values_are_predicted_as_before(model):
    """Only the unknown codes change: a batch of known and unknown codes gives every row
    what it gets alone."""
    mixed = rows(0, 0)
    with mixed.unlocked(mixed.X):
        mixed.X[::2, 1] = 5
    expected = probabilities(model, rows(0, 0))
    expected[::2] = probabilities(model, rows(np.nan, 0))[::2]
    np.testing.assert_array_equal(probabilities(model, mixed), expected)


@pytest.mark.parametrize("page", ["widgets/geometric-tree.md", "widgets/oc1.md",
                                  "widgets/odt-svm.md", "widgets/hedge-ensemble.md",
                                  "widgets/oblique-forest.md", "algorithms/odt-svm.md"])
def test_every_learners_page_says_what_an_unseen_value_gets(page):
    """What the tests above check is on the learners' pages: a sentence that says an
    unknown value (the example's violet, a value the training data lacks, one that no
    training row had) is a missing value."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "doc", page)
    with open(path, encoding="utf-8") as file:
        text = " ".join(re.sub(r"[*`]", "", file.read()).split())
    sentences = re.split(r"(?<=[.:])\s", text)
    assert any("as a missing value" in sentence or "is a missing value" in sentence
               for sentence in sentences
               if re.search(r"violet|data lacks|no training (row|instance) had", sentence)), page
