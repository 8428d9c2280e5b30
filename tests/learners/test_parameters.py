"""The Orange learners take the parameters their core estimators declare: the same
names, order and defaults (but the few a learner states otherwise), checked by the
declaration when the learner fits, and listed in the learner's docstring."""
import inspect

import pytest
from Orange.data import Table

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
