"""The figures of the example workflow *Oblique vs. axis-parallel trees* (README, Help →
Examples): every learner's classification accuracy (CA) in its Test and Score.

The script reads the workflow (``orangecontrib/oblique/tutorials/oblique-vs-axis-parallel.ows``,
written by ``doc/make_workflows.py``), makes its data as its Oblique Data widget does and
its learners as its learner widgets do (each widget made with the workflow's stored
settings, offscreen), and runs the cross-validation of its Test and Score widget: Orange's
``CrossValidation`` with the widget's number of folds and stratification and Test and
Score's own seed of the folds, 42 (``rstate`` in Orange's ``owtestandscore.py``).  So it
prints what the workflow's Test and Score shows (``tests/docs_and_benchmarks/
test_workflows.py`` checks that, and that the README quotes these figures).

    .venv/bin/python benchmarks/showcase.py

``--checkerboards`` measures ODT-SVM alone (``ODTSVMClassifier(random_state=0)``, its
defaults) on rotated 4×4 checkerboards of several sizes and seeds (``checkerboard_4x4``,
30°, ``random_state`` 0–4; 5-fold ``StratifiedKFold(shuffle=True, random_state=42)``),
so that a figure is not one lucky draw; it imports ``orangecontrib.oblique`` from the
path, so ``PYTHONPATH=<a checkout of an earlier commit>`` measures that commit's code.
"""
import ast
import importlib
import os
import sys
import time
from xml.etree import ElementTree

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOW = os.path.join(ROOT, "orangecontrib", "oblique", "tutorials",
                        "oblique-vs-axis-parallel.ows")
#: Test and Score's seed of the folds (Orange's ``owtestandscore.py``: ``rstate = 42``)
TEST_AND_SCORE_SEED = 42
TEST_AND_SCORE = "Orange.widgets.evaluate.owtestandscore.OWTestAndScore"
OBLIQUE_DATA = "orangecontrib.oblique.widgets.owobliquedata.OWObliqueData"
#: The Qt application the widgets live in, kept for the life of the script
_APPLICATION = None


def workflow_nodes(path=WORKFLOW):
    """``(nodes, links)`` of a workflow file: nodes by id as ``(title, qualified name,
    stored settings)``, links as ``(source id, source channel, sink id, sink channel)`` in
    the file's order."""
    root = ElementTree.parse(path).getroot()
    properties = {element.get("node_id"): ast.literal_eval(element.text)
                  for element in root.iter("properties")}
    nodes = {node.get("id"): (node.get("title"), node.get("qualified_name"),
                              properties.get(node.get("id"), {}))
             for node in root.iter("node")}
    links = [(link.get("source_node_id"), link.get("source_channel"),
              link.get("sink_node_id"), link.get("sink_channel"))
             for link in root.iter("link")]
    return nodes, links


def make_widget(qualified_name, settings):
    """The widget of ``qualified_name`` with the stored ``settings``, as the canvas makes
    it from a workflow."""
    module, _, name = qualified_name.rpartition(".")
    widget_class = getattr(importlib.import_module(module), name)
    widget = widget_class.__new__(widget_class, stored_settings=dict(settings))
    widget.__init__()
    return widget


def accuracies(path=WORKFLOW):
    """CA of every learner of the workflow's Test and Score, by learner name, in the
    order of its Learner links."""
    from AnyQt.QtWidgets import QApplication
    from Orange.evaluation import CA, CrossValidation
    from orangecontrib.oblique.widgets.owobliquedata import make_table

    global _APPLICATION
    _APPLICATION = QApplication.instance() or QApplication([])   # the widgets need one
    nodes, links = workflow_nodes(path)
    (test_id,) = [i for i, (_, name, _) in nodes.items() if name == TEST_AND_SCORE]
    (data_id,) = [i for i, (_, name, _) in nodes.items() if name == OBLIQUE_DATA]
    data = make_widget(OBLIQUE_DATA, nodes[data_id][2])
    table = make_table(data.data_set, data.n_rows, data.angle, data.noise_percent,
                       data.seed)
    learners = []
    for source, _, sink, channel in links:
        if sink == test_id and channel == "Learner":
            title, name, settings = nodes[source]
            widget = make_widget(name, settings)
            widget.setCaption(title)
            widget.update_learner()
            learners.append(widget.learner)
    test_and_score = make_widget(TEST_AND_SCORE, nodes[test_id][2])
    sampler = CrossValidation(k=test_and_score.NFolds[test_and_score.n_folds],
                              stratified=test_and_score.cv_stratified,
                              random_state=TEST_AND_SCORE_SEED)
    results = sampler(table, learners)
    return {learner.name: float(ca) for learner, ca in zip(learners, CA(results))}


def checkerboards(sizes=(500, 1000, 2000), seeds=range(5), **parameters):
    """ODT-SVM's CA on rotated 4×4 checkerboards (module docstring): ``{size: [CA per
    seed]}`` and the mean number of leaves per size."""
    import numpy as np
    from sklearn.model_selection import StratifiedKFold
    from orangecontrib.oblique.core import ODTSVMClassifier
    from orangecontrib.oblique.core.datasets import checkerboard_4x4

    scores, leaves = {}, {}
    for size in sizes:
        scores[size], counts = [], []
        for seed in seeds:
            X, y = checkerboard_4x4(n_samples=size, angle=np.deg2rad(30),
                                    random_state=seed)
            correct = 0
            folds = StratifiedKFold(5, shuffle=True, random_state=TEST_AND_SCORE_SEED)
            for train, test in folds.split(X, y):
                model = ODTSVMClassifier(random_state=0, **parameters).fit(X[train],
                                                                           y[train])
                correct += int(np.count_nonzero(model.predict(X[test]) == y[test]))
                counts.append(model.tree_.n_leaves)
            scores[size].append(correct / size)
        leaves[size] = float(np.mean(counts))
    return scores, leaves


def main():
    start = time.perf_counter()
    if "--checkerboards" in sys.argv[1:]:
        import orangecontrib.oblique
        print(f"ODT-SVM on rotated 4×4 checkerboards ({orangecontrib.oblique.__file__})")
        scores, leaves = checkerboards()
        for size, values in scores.items():
            print(f"  {size:>5} rows: " + " ".join(f"{v:.3f}" for v in values)
                  + f"  mean {sum(values) / len(values):.3f}  leaves {leaves[size]:.1f}")
        print(f"({time.perf_counter() - start:.0f} s)")
        return
    scores = accuracies()
    print("Oblique vs. axis-parallel trees: CA in Test and Score (5-fold stratified "
          "cross-validation, rotated 4×4 checkerboard, 1,000 rows)")
    for name, accuracy in scores.items():
        print(f"  {name:<15} {accuracy:.3f}")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
