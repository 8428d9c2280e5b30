"""Saved models: every model kind loads in a fresh Python process (as Load Model in a new
Orange session, without importing the add-on first) and predicts exactly as before saving;
Orange models of any depth pickle and copy."""
import copy
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from Orange.data import Table

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner, OC1Learner,
                                   ODTSVMLearner, ObliqueForestLearner)

LEARNERS = {
    "Geometric Tree": lambda: GeometricTreeLearner(),
    "OC1": lambda: OC1Learner(random_state=0),
    "ODT-SVM": lambda: ODTSVMLearner(random_state=0),
    "Hedge": lambda: HedgeEnsembleLearner(n_estimators=4, random_state=0),
    "Oblique Forest": lambda: ObliqueForestLearner(n_estimators=10, random_state=0),
}

LOAD_AND_PREDICT = textwrap.dedent("""
    import pickle, sys
    import numpy as np
    from Orange.data import Table
    assert not any(name.startswith("orangecontrib.oblique") for name in sys.modules)
    with open(sys.argv[1], "rb") as file:
        models = pickle.load(file)
    data = Table("heart_disease")
    reverse = data[::-1]
    out = {}
    for name, model in models.items():
        out[name] = model(data, model.Probs)
        out[name + " reversed"] = model(reverse, model.Probs)[::-1]
        out[name + " one row"] = np.vstack([model(data[i:i + 1], model.Probs)
                                            for i in range(0, len(data), 37)])
    np.savez(sys.argv[2], **out)
""")


def weighted_heart_disease():
    """heart_disease (nominal attributes, missing values) with instance weights."""
    data = Table("heart_disease")
    with data.unlocked():
        data.W = np.random.RandomState(0).uniform(0.2, 2.0, len(data))
    return data


def test_every_model_predicts_the_same_after_loading_in_a_fresh_process(tmp_path):
    data = weighted_heart_disease()
    models = {name: make()(data) for name, make in LEARNERS.items()}
    # the table as a new session loads it (Orange maps the class values of another table
    # to the model's, which renormalises the probabilities: the same in both processes)
    table = Table("heart_disease")
    before = {name: model(table, model.Probs) for name, model in models.items()}
    saved, predicted = tmp_path / "models.pkcls", tmp_path / "predicted.npz"
    with open(saved, "wb") as file:   # as Orange's Save Model writes a model
        pickle.dump(models, file)
    subprocess.run([sys.executable, "-c", LOAD_AND_PREDICT, str(saved), str(predicted)],
                   check=True, cwd=tmp_path,
                   env=dict(os.environ, PYTHONWARNINGS="ignore"))
    after = np.load(predicted)
    for name, probabilities in before.items():
        np.testing.assert_array_equal(after[name], probabilities, err_msg=name)
        np.testing.assert_array_equal(after[name + " reversed"], probabilities, err_msg=name)
        np.testing.assert_array_equal(after[name + " one row"], probabilities[::37],
                                      err_msg=name)


def alternating_labels(n_rows=400):
    """One attribute, classes alternating along it: a tree without a depth limit that
    peels off rows one by one is as deep as the table is long."""
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain
    domain = Domain([ContinuousVariable("x")], DiscreteVariable("y", values=("a", "b")))
    x = np.arange(n_rows, dtype=float)[:, None]
    return Table.from_numpy(domain, x, np.arange(n_rows) % 2)


@pytest.mark.slow
def test_a_deep_tree_pickles_and_copies():
    data = alternating_labels()
    model = OC1Learner(max_depth=None, pruning_portion=0.0, random_state=0)(data)
    assert model.depth() >= 200       # deep enough that recursion would fail
    for copied in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model)):
        np.testing.assert_array_equal(copied(data, copied.Probs), model(data, model.Probs))
        assert copied.node_count() == model.node_count()
        assert copied.depth() == model.depth()
        assert copied.root.children[0].parent is copied.root
