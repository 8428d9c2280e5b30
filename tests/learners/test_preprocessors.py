"""A user's preprocessors run first; the encoding and imputation the trees need always
follow."""
import numpy as np
import pytest

from Orange.data import Table
from Orange.preprocess import Normalize, Randomize

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner, OC1Learner,
                                   ODTSVMLearner)

LEARNERS = [GeometricTreeLearner, lambda **kw: OC1Learner(n_restarts=2, random_state=0, **kw),
            lambda **kw: ODTSVMLearner(random_state=0, **kw),
            lambda **kw: HedgeEnsembleLearner(n_estimators=2, **kw)]


@pytest.mark.parametrize("make", LEARNERS)
def test_normalize_alone_on_data_with_missing_values(make):
    """heart_disease has missing values and nominal attributes; Normalize neither imputes
    nor encodes, and Orange's own Tree works behind it: so must the oblique trees."""
    data = Table("heart_disease")
    assert np.isnan(data.X).any()
    model = make(preprocessors=[Normalize()])(data)
    predicted = model(data)
    assert len(predicted) == len(data)
    assert np.mean(predicted == data.Y) > 0.7


def test_the_users_preprocessors_come_first_then_the_learners_own():
    learner = GeometricTreeLearner(preprocessors=[Normalize()])
    steps = list(learner.active_preprocessors)
    assert isinstance(steps[0], Normalize)
    names = [type(step).__name__ for step in steps[1:]]
    assert names == ["RemoveNaNColumns", "_Continuize", "_Impute"]


def test_a_two_valued_attribute_is_one_column():
    model = GeometricTreeLearner()(Table("heart_disease"))
    names = [attribute.name for attribute in model.domain.attributes]
    assert "gender=male" in names and "gender=female" not in names
    assert "chest pain=asymptomatic" in names and "chest pain=typical ang" in names
    assert len(names) == 22


def test_no_preprocessors_use_the_defaults_once():
    learner = OC1Learner()
    assert [type(step).__name__ for step in learner.active_preprocessors] == [
        "RemoveNaNColumns", "_Continuize", "_Impute"]
    # a preprocessor that leaves the data as it was does no harm
    model = OC1Learner(preprocessors=[Randomize(rand_type=Randomize.RandomizeClasses,
                                                rand_seed=0)], n_restarts=1,
                       random_state=0)(Table("iris"))
    assert model.node_count() >= 1
