"""The Orange learners take the parameters their core estimators declare: the same
names, order and defaults (but the few a learner states otherwise), checked by the
declaration when the learner fits, and listed in the learner's docstring; their
``preprocessors`` checked when the learner is made."""
import inspect
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from Orange.data import Table
from Orange.preprocess import Normalize

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner,
                                   ObliqueForestLearner, OC1Learner, ODTSVMLearner)

LEARNERS = [GeometricTreeLearner, OC1Learner, ODTSVMLearner, HedgeEnsembleLearner,
            ObliqueForestLearner]

#: What each learner states otherwise: (own parameters, omitted ones, other defaults).
DIFFERENCES = {
    GeometricTreeLearner: ((), (), {}),
    OC1Learner: ((), (), {}),
    ODTSVMLearner: ((), ("categorical_features",), {}),
    HedgeEnsembleLearner: (("learner",), ("estimator", "weight_threshold",
                                          "replace_members", "window"),
                           {"random_state": 0}),
    ObliqueForestLearner: ((), (), {"random_state": 0}),
}


def estimator_declaration(learner_class):
    return learner_class.estimator_class._parameter_constraints


@pytest.fixture(scope="module")
def iris():
    return Table("iris")


@pytest.mark.parametrize("learner_class", LEARNERS, ids=lambda cls: cls.__name__)
def test_signature_is_the_estimators_declaration(learner_class):
    own, omitted, defaults = DIFFERENCES[learner_class]
    declared = {name: parameter.default
                for name, parameter in estimator_declaration(learner_class).items()
                if name not in omitted}
    expected = [*own, *declared, "preprocessors"]
    signature = inspect.signature(learner_class).parameters
    assert list(signature) == expected
    for name, default in declared.items():
        assert signature[name].default == defaults.get(name, default), name
    learner = learner_class()
    assert list(learner.params) == [*own, *declared]
    assert all(getattr(learner, name) is value for name, value in learner.params.items())


@pytest.mark.parametrize("learner_class", LEARNERS, ids=lambda cls: cls.__name__)
def test_the_learners_estimator_gets_its_parameters(learner_class):
    own, _, _ = DIFFERENCES[learner_class]
    changed = {"max_depth": 3} if "max_depth" in inspect.signature(learner_class).parameters \
        else {"n_estimators": 4, "beta": 0.5}
    learner = learner_class(**changed)
    estimator = learner.create_estimator()
    core = estimator.get_params(deep=False)
    for name, value in learner.params.items():
        if name not in own:
            assert core[name] == value, name
    for name, value in changed.items():
        assert core[name] == value


@pytest.mark.parametrize("learner_class", LEARNERS, ids=lambda cls: cls.__name__)
def test_docstring_lists_the_learners_parameters(learner_class):
    doc = inspect.getdoc(learner_class)
    for name, parameter in learner_class.declared_parameters().items():
        assert f"\n{name} : {parameter.describe()}, default {parameter.default!r}\n" in doc
    assert "\npreprocessors : " in doc


TREE_LEARNERS = [GeometricTreeLearner, OC1Learner, ODTSVMLearner]


def out_of_range(parameter):
    """A value of an accepted type outside every constraint of ``parameter``, or None."""
    for value in (-1, -0.5, 1e9, 1.5, "no such option"):
        if not any(c.holds(value, {}) for c in parameter.constraints) and any(
                c.is_type(value) for c in parameter.constraints):
            return value
    return None


@pytest.mark.parametrize("learner_class", TREE_LEARNERS, ids=lambda cls: cls.__name__)
def test_a_learner_refuses_a_value_outside_the_declaration(learner_class, iris):
    """The learner fits through the core estimator, whose declaration refuses the value
    with a ValueError that names the parameter."""
    checked = 0
    for name, parameter in learner_class.declared_parameters().items():
        value = out_of_range(parameter)
        if value is None:
            continue
        with pytest.raises(ValueError, match=rf"^{name} must be "):
            learner_class(**{name: value})(iris)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("learner_class", LEARNERS, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("preprocessors", ["x", 3, [Normalize(), "x"], Normalize, {}])
def test_a_learner_refuses_bad_preprocessors_when_made(learner_class, preprocessors):
    """Not None, one Orange preprocessor or a sequence of them: a TypeError naming
    ``preprocessors`` at construction ('x' failed at the fit with "'str' object is not
    callable")."""
    with pytest.raises(TypeError, match=r"^preprocessors must be "):
        learner_class(preprocessors=preprocessors)


@pytest.mark.parametrize("learner_class", LEARNERS, ids=lambda cls: cls.__name__)
def test_a_learner_takes_preprocessors_as_orange_does(learner_class, iris):
    normalize = Normalize()
    for given, kept in ((None, learner_class.preprocessors), (normalize, (normalize,)),
                        ([normalize], (normalize,)), ((p for p in [normalize]), (normalize,)),
                        ((), ())):
        assert tuple(learner_class(preprocessors=given).preprocessors) == tuple(kept)
    learner_class(preprocessors=[normalize])(iris[::5])


def test_a_learner_takes_numbers_of_any_type(iris):
    """numpy integers, Fraction and Decimal reach the estimator as the values they are
    (the declaration converts them when the estimator fits)."""
    typed = OC1Learner(n_restarts=np.int8(3), pruning_portion=Fraction(1, 5),
                       axis_parallel_bias=Decimal("1.5"), random_state=np.uint32(1))(iris)
    plain = OC1Learner(n_restarts=3, pruning_portion=0.2, axis_parallel_bias=1.5,
                       random_state=1)(iris)
    np.testing.assert_array_equal(typed(iris, typed.Probs), plain(iris, plain.Probs))
    with pytest.raises(ValueError, match=r"^n_random_jumps must be an integer of at most "
                                         r"2\*\*63 - 1"):
        OC1Learner(n_random_jumps=2 ** 64)(iris)
