"""OC1's cost: the estimate of a fit's seconds from its dominant work (the line searches
of every node's restarts), documented in the estimator's docstring, and a progress that
moves during the restarts of a node."""
import numpy as np

from orangecontrib.oblique.core import OC1Classifier
from orangecontrib.oblique.core.datasets import oblique_parity
from orangecontrib.oblique.core.oc1.classifier import search_work


def test_docstring_gives_the_cost_per_node_and_what_dominates():
    doc = OC1Classifier.__doc__
    assert "O(R · (J + 1) · P · d · n log n)" in doc
    assert "line searches dominate" in doc


def test_estimate_grows_with_rows_features_restarts_and_jumps():
    base = OC1Classifier().estimated_fit_seconds(10000, 20)
    assert OC1Classifier().estimated_fit_seconds(20000, 20) > 2 * base
    assert OC1Classifier().estimated_fit_seconds(10000, 40) > 1.5 * base
    assert np.isclose(OC1Classifier(n_restarts=2).estimated_fit_seconds(10000, 20), base / 10)
    assert np.isclose(OC1Classifier(n_random_jumps=0).estimated_fit_seconds(10000, 20),
                      base / 6)
    assert OC1Classifier(split_mode="axis_parallel").estimated_fit_seconds(10000, 20) == 0
    # the large tables of the hostile-input round: hours, not seconds
    assert OC1Classifier().estimated_fit_seconds(50000, 200) > 600
    assert search_work(10000, 20, 20, 5, 0.1) < search_work(10000, 20, 20, 5)


def test_progress_moves_during_the_restarts_of_the_root():
    X, y = oblique_parity(600, 5, random_state=0)
    fractions = []
    OC1Classifier(random_state=0).fit(X, y, progress_callback=fractions.append)
    assert np.all(np.diff(fractions) >= 0) and fractions[-1] == 1.0
    # before every restart of the root's search (20), each a step further
    assert np.all(np.diff(fractions[1:21]) > 0)
