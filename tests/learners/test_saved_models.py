"""Saved models: every model kind loads in a fresh Python process (as Load Model in a new
Orange session, without importing the add-on first) and predicts exactly as before saving;
Orange models of any depth pickle and copy; models saved by earlier versions (recorded in
``tests/helpers/data/saved_models``) load, predict as recorded and show in the viewer."""
import copy
import copyreg
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

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


# ----- models saved by earlier versions -----

SAVED = Path(__file__).parents[1] / "helpers" / "data" / "saved_models"
#: (path, the recording's date-commit, learner, data set) of every recorded model
RECORDED = [(path, *path.stem.rsplit("-", 2)) for path in sorted(SAVED.glob("*.pkl"))]


def recorded_data(name):
    """The table a recorded model was fitted and predicted on (titanic: every 8th row,
    to keep the files small)."""
    return Table("iris") if name == "iris" else Table("titanic")[::8]


#: The recorded models were pickled under numpy 2, whose arrays name ``numpy._core``;
#: numpy 1.x has no such module and cannot read them (numpy's own limit, for any pickle
#: of an array: a model saved in an Orange on numpy 2 loads only in one on numpy 2).
NUMPY_READS_THE_RECORDINGS = int(np.__version__.split(".")[0]) >= 2


@pytest.mark.skipif(not NUMPY_READS_THE_RECORDINGS,
                    reason="models pickled under numpy 2 need numpy 2 to load")
@pytest.mark.parametrize("path, recording, learner, dataset", RECORDED,
                         ids=[path.stem for path, *_ in RECORDED])
def test_a_model_saved_by_an_earlier_version_loads_predicts_and_shows(
        path, recording, learner, dataset):
    """Models pickled as Orange's Save Model does by the code of 2026-11-27 (nodes
    linked, modules before core/ was arranged by algorithm: "No module named
    'orangecontrib.oblique.core.splits'", then "'ObliqueNode' object is not iterable"),
    of 2026-11-28 before and after the move: each loads, predicts the probabilities
    recorded beside it, and the viewer's adapter shows it (an ensemble's first member)."""
    from orangecontrib.oblique.learners import HedgeEnsembleModel
    from orangecontrib.oblique.widgets.treeadapter import TreeAdapter
    with open(path, "rb") as file:
        model = pickle.load(file)
    data = recorded_data(dataset)
    recorded = np.load(SAVED / f"{recording}-predictions.npz")[f"{learner}-{dataset}"]
    probabilities = model(data, model.Probs)
    if isinstance(model, HedgeEnsembleModel):
        # the members' mean is summed in another order now: the last bit may differ
        np.testing.assert_allclose(probabilities, recorded, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(model(data), np.argmax(recorded, axis=1))
        tree_model = model.member_model(0, data)
    else:
        np.testing.assert_array_equal(probabilities, recorded)
        tree_model = model
    adapter = TreeAdapter.from_model(tree_model)
    assert adapter.node_count == tree_model.node_count() >= 1
    assert model.estimator.get_params()      # parameters declared since: their defaults


def test_every_era_of_saved_models_is_recorded():
    """Models of the nested node layout (2026-11-27), of the flat layout before the move
    of core/ (c0d9a6a) and after it (a4ee04f), of every learner on both tables."""
    recordings = {recording for _, recording, _, _ in RECORDED}
    assert {"2026-11-27-415c481", "2026-11-28-c0d9a6a", "2026-11-28-a4ee04f"} <= recordings
    for recording in recordings:
        kinds = {(learner, dataset) for _, rec, learner, dataset in RECORDED
                 if rec == recording}
        assert len(kinds) == 10, recording


class _UnknownLayout:
    """Pickles as an ObliqueTreeModel whose state is of no layout the model reads."""

    def __reduce__(self):
        from orangecontrib.oblique.learners import ObliqueTreeModel
        rebuild = copyreg._reconstructor  # pylint: disable=protected-access
        return rebuild, (ObliqueTreeModel, object, None), {"root": "no such layout"}


def test_a_model_that_cannot_be_read_is_an_unpickling_error_saying_to_refit():
    """Orange's Load Model catches pickle.UnpicklingError and shows its message."""
    with pytest.raises(pickle.UnpicklingError, match=r"Orange Oblique Trees add-on .* fit "
                                                     r"the model again"):
        pickle.loads(pickle.dumps(_UnknownLayout()))


def test_the_old_paths_load_nothing_until_a_pickle_asks():
    """The alias module of the old path is not imported with the package."""
    code = ("import sys, orangecontrib.oblique, orangecontrib.oblique.core; "
            "assert 'orangecontrib.oblique.core.splits' not in sys.modules; "
            "from orangecontrib.oblique.core.splits import Split; "
            "from orangecontrib.oblique.core.tree.splits import Split as New; "
            "assert Split is New")
    subprocess.run([sys.executable, "-c", code], check=True)
