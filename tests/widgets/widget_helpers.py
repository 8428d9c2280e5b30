"""Helpers shared by the widget tests (imported as ``widget_helpers``: pytest puts this
folder, which is no package, on ``sys.path``)."""
import sys
import traceback

import numpy as np
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table


def as_table(X, y):
    """An Orange table of continuous ``x1 .. xd`` and a discrete class ``y``."""
    classes = np.unique(y)
    domain = Domain([ContinuousVariable(f"x{i + 1}") for i in range(X.shape[1])],
                    DiscreteVariable("y", values=[str(c) for c in classes]))
    return Table.from_numpy(domain, X, np.searchsorted(classes, y))


def random_labels_table(n_rows=6000, n_features=10, n_classes=3):
    """Random labels: every tree grows deep on them, so an ensemble of ten Geometric Trees
    takes seconds to fit."""
    rng = np.random.default_rng(0)
    return as_table(rng.normal(size=(n_rows, n_features)), rng.integers(0, n_classes, n_rows))


class NoUncaughtExceptions:
    """Fail a test (instead of aborting the run, as PyQt does with Python's own hook) on
    an exception that escapes a Qt slot or event handler, e.g. a handler of a finished
    background fit."""

    def setUp(self):
        super().setUp()
        self.uncaught = []
        self._previous_hook = sys.excepthook
        sys.excepthook = lambda *exc_info: self.uncaught.append(
            "".join(traceback.format_exception(*exc_info)))

    def tearDown(self):
        sys.excepthook = self._previous_hook
        super().tearDown()
        self.assertEqual(self.uncaught, [], "uncaught exceptions in Qt handlers")
