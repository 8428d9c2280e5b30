"""``benchmarks/showcase.py``: it reads the example workflow's learners and Test and Score
as the file has them, and its checkerboard measurement runs (its figures against the
workflow's own Test and Score and the README: ``test_workflows.py``)."""
import pytest

from tests.helpers.benchmark_scripts import benchmark_script


@pytest.fixture
def showcase():
    with benchmark_script("showcase") as module:
        yield module


def test_reads_the_workflows_learners_and_test_and_score(showcase):
    nodes, links = showcase.workflow_nodes()
    (test,) = [i for i, (_, name, _) in nodes.items() if name == showcase.TEST_AND_SCORE]
    learners = [nodes[source][0] for source, _, sink, channel in links
                if sink == test and channel == "Learner"]
    assert learners == ["Geometric Tree", "OC1", "ODT-SVM", "Tree"]
    assert nodes[test][2]["n_folds"] == 2           # Test and Score's 5 folds
    (data,) = [settings for _, name, settings in nodes.values()
               if name == showcase.OBLIQUE_DATA]
    assert (data["set_index"], data["n_rows"]) == (1, 1000)


def test_checkerboards_gives_a_ca_per_seed_and_size(showcase):
    scores, leaves = showcase.checkerboards(sizes=(120,), seeds=(0, 1))
    assert list(scores) == [120] and len(scores[120]) == 2
    assert all(0.3 < ca <= 1 for ca in scores[120])
    assert leaves[120] >= 1
