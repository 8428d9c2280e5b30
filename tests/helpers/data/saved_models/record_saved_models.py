"""Record saved models with an earlier version of the add-on (see README.md here).

    python record_saved_models.py <old worktree> <output folder> <date>-<commit>

run with PYTHONPATH=<old worktree>, so that the old copy of orangecontrib.oblique is
imported (checked): every learner fitted on iris and on every 8th row of titanic, each
model pickled as Orange's Save Model pickles it, and the models' probabilities on the
same table in <date>-<commit>-predictions.npz."""
import pickle, sys, os
import numpy as np
import orangecontrib.oblique as ob
root, out, tag = sys.argv[1], sys.argv[2], sys.argv[3]
assert os.path.realpath(ob.__file__).startswith(os.path.realpath(root)), ob.__file__
from Orange.data import Table
makers = {
    "geometric_tree": lambda: ob.GeometricTreeLearner(),
    "oc1": lambda: ob.OC1Learner(random_state=0),
    "odt_svm": lambda: ob.ODTSVMLearner(random_state=0),
    "hedge": lambda: ob.HedgeEnsembleLearner(n_estimators=3, random_state=0),
    "oblique_forest": lambda: ob.ObliqueForestLearner(n_estimators=5, random_state=0),
}
predictions = {}
for dataset in ("iris", "titanic"):
    data = Table(dataset) if dataset == "iris" else Table(dataset)[::8]
    for name, make in makers.items():
        model = make()(data)
        path = os.path.join(out, f"{tag}-{name}-{dataset}.pkl")
        with open(path, "wb") as file:   # as Orange's Save Model writes a model
            pickle.dump(model, file, protocol=pickle.HIGHEST_PROTOCOL)
        predictions[f"{name}-{dataset}"] = model(data, model.Probs)
        print(path, os.path.getsize(path), flush=True)
np.savez_compressed(os.path.join(out, f"{tag}-predictions.npz"), **predictions)
