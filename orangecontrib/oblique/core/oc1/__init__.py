"""OC1 (Murthy, Kasif & Salzberg): the estimator and its randomised search
(:mod:`.classifier`); its line search is the shared tree's
(:mod:`~orangecontrib.oblique.core.tree.line_search`), which the axis-parallel splits of
every algorithm also use."""
from .classifier import OC1Classifier

__all__ = ["OC1Classifier"]
