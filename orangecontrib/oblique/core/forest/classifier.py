"""Oblique Forest: a forest of oblique trees (SPORF; Tomita et al., "Sparse Projection
Oblique Randomer Forests", JMLR 21(104), 2020).

A random forest (Breiman 2001) whose trees split every node on the best of many random
*sparse* projections of the attributes instead of the best of a few attributes:
:class:`SparseProjectionTreeClassifier` grows one such tree with the project's shared
grower (:func:`~.tree.grow_tree`), the split search being
:class:`~.sporf.SparseProjectionSplitter`; :class:`ObliqueForestClassifier` grows many,
each on a bootstrap sample, and averages their class distributions.  Any of the three
papers' trees can be the forest's tree instead (``estimator``): each is then trained on a
bootstrap sample and a random subset of the attributes, as Odte does with STree
(Montañana et al.).

Defaults and where they come from (the paper tunes ``d`` and ``λ`` per data set; its
authors' software has these untuned defaults, read from the R package ``rerf``,
``defaults()`` and ``RerF()``):

* ``max_features="sqrt"``: ``d = ⌈√p⌉`` candidate projections per node;
* ``feature_combinations="auto"``: ``λ·p = 3`` attributes per projection on average when
  there are ``p ≥ 10`` attributes, 1 below (``λ = 3/p`` or ``1/p``);
* bootstrap samples of ``n`` rows drawn with replacement, stratified by class
  (``replacement = TRUE, stratify = TRUE``), trees grown until their leaves are pure
  (``min.parent = 1``, no depth limit), the Gini index;
* ``n_estimators=100``: the number of trees of scikit-learn's and Orange's random forests
  (``rerf`` grows 500; the accuracy of a forest levels off long before).
"""
import warnings
from functools import partial

from joblib import effective_n_jobs

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.metrics import roc_auc_score
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ..base import ObliqueTreeClassifierMixin
from ..parallel import batch_size, plan_jobs, run_fits, scaled_progress
from .sporf import (FEATURE_COMBINATIONS, MAX_FEATURES, SparseProjectionSplitter,
                    mean_nonzeros, n_projections)
from ..tree.structure import (MANY_CLASSES, ObliqueTree, SplitStatistics, grow_tree,
                              member_stop_nodes,
                              name_member_trees)
from ..parameters import (BOOLEAN, MAX_DEPTH, MIN_SAMPLES_SPLIT, N_ESTIMATORS, N_JOBS, SEED,
                          DeclaredParameters, InstanceOf, Parameter, Relation)
from ..validation import (MEMBER_BYTES, check_classification_labels, check_memory,
                          checked_sample_weight, map_row_chunks, normalised_sample_weight,
                          validate_prediction_data, validate_training_data)

__all__ = ["ObliqueForestClassifier", "SparseProjectionTreeClassifier", "bag_counts",
           "oob_search_grid"]

_MAX_SEED = np.iinfo(np.int32).max
#: The forest's ``estimator``: a tree of this package.
TREE_ESTIMATOR = InstanceOf(ObliqueTreeClassifierMixin, (
    "a tree estimator of this package (GeometricTreeClassifier, OC1Classifier, "
    "ODTSVMClassifier, SparseProjectionTreeClassifier)"))


class SparseProjectionTreeClassifier(ObliqueTreeClassifierMixin):
    """One tree of SPORF: every node split on the best of ``d`` random sparse projections
    of its rows by the Gini index (:mod:`~orangecontrib.oblique.core.forest.sporf`), grown until
    its leaves are pure.

    The member tree of :class:`ObliqueForestClassifier` (which gives every tree a
    bootstrap sample), usable on its own.

    Parameters
    ----------
    max_features
        ``d``, candidate projections per node: ``⌈√p⌉``, ``⌈log2 p⌉``, ``p``, the number
        itself (at most ``p²``, the paper's largest; a larger number is taken as ``p²``),
        or that share of ``p`` (:func:`~.sporf.n_projections`).  A ``d`` whose values
        at the root (``8·d·n`` bytes for ``n`` rows) need more than the machine's memory
        is a ValueError at the start of the fit.
    feature_combinations
        ``λ·p``, attributes per projection on average: 3 for ``p ≥ 10``, else 1
        (:func:`~.sporf.mean_nonzeros`).
    max_depth
    min_samples_split
    random_state
        Seeds the projections drawn at every node.

    Attributes
    ----------
    tree_ : ObliqueTree
    classes_, n_classes_, n_features_in_
    n_projections_ : int
        ``d`` for the fitted data.
    mean_nonzeros_ : float
        ``λ·p`` for the fitted data.
    """

    _parameter_constraints = {
        "max_features": Parameter("sqrt", *MAX_FEATURES),
        "feature_combinations": Parameter("auto", *FEATURE_COMBINATIONS),
        "max_depth": MAX_DEPTH,
        "min_samples_split": MIN_SAMPLES_SPLIT,
        "random_state": SEED,
    }

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback,
                    compact_counts=False):
        n_features = X.shape[1]
        self.n_projections_ = n_projections(self.max_features, n_features)
        # the projections' values of the root's rows, d x n floats
        check_memory("max_features", self.max_features, 8 * self.n_projections_ * X.shape[0],
                     f"{self.n_projections_:,} projections of {X.shape[0]:,} rows at the root")
        self.mean_nonzeros_ = mean_nonzeros(self.feature_combinations, n_features)
        splitter = SparseProjectionSplitter(
            X, y, sample_weight, len(self.classes_), self.n_projections_,
            self.mean_nonzeros_, np.random.default_rng(random_state.randint(_MAX_SEED)))
        tree = grow_tree(X, y, sample_weight, len(self.classes_), splitter, None,
                         self.max_depth, self.min_samples_split, progress_callback,
                         compact_counts=compact_counts)
        tree.feature_scales = splitter.feature_scales(tree)
        return tree

    def _fit_in_forest(self, X, codes, n_classes, sample_weight, progress_callback=None):
        """Fit on rows the forest has validated, as ``fit`` does without its checks
        (scikit-learn's forests fit their trees with ``check_input=False`` likewise):
        ``codes`` are the forest's class codes (the tree's ``classes_`` are all of them,
        also those absent from its sample), ``sample_weight`` the tree's bootstrap
        weights, 0 for the rows out of its bag.

        Unlike ``fit`` it does not calibrate the printed rules afterwards
        (:meth:`~.tree.ObliqueTree.calibrate_text`, a pass of all rows through the tree
        that costs as much as growing it): every split of the SPORF splitter is its own
        printed rule (weights of 4 significant digits, a threshold of the fewest digits
        that separates the node's rows, :func:`~.sporf.readable_threshold`), so it routes
        any row as printed; nor does it drop negligible terms (none of its ±1 terms is
        rounding noise).  Its class counts are kept sparse as they are grown where
        :meth:`~.tree.ObliqueTree.compact_class_counts` would keep them so (many
        classes: ``grow_tree``'s ``compact_counts``)."""
        self.classes_ = np.arange(n_classes)
        self.n_classes_ = n_classes
        self.n_features_in_ = X.shape[1]
        keep = sample_weight > 0
        self.tree_ = self._build_tree(X[keep], codes[keep], sample_weight[keep],
                                      check_random_state(self.random_state),
                                      progress_callback,
                                      compact_counts=n_classes >= MANY_CLASSES)
        return self


class ObliqueForestClassifier(DeclaredParameters, ClassifierMixin, MetaEstimatorMixin,
                              BaseEstimator):
    """A forest of oblique trees: SPORF (Tomita et al. 2020), or bagged trees of any of
    the papers' learners.

    Every tree is trained on its own bootstrap sample of the rows (``bootstrap``: every
    class drawn with replacement as many times as it has rows, :func:`bag_counts`, given
    to the tree as row weights: a row drawn twice weighs 2); the forest predicts the mean
    of the trees' class distributions.  The default tree,
    :class:`SparseProjectionTreeClassifier`, splits every node on the best of
    ``max_features`` random sparse projections with ``feature_combinations`` attributes
    each on average (see the module docstring for the defaults and their sources).

    Parameters
    ----------
    n_estimators
        Number of trees.  A number of trees the machine's memory cannot hold (at least
        1 KiB each) is a ValueError at the start of the fit.
    estimator
        None: SPORF trees with the forest's ``max_features``, ``feature_combinations``,
        ``max_depth`` and ``min_samples_split``.  Otherwise a
        :class:`~orangecontrib.oblique.core.GeometricTreeClassifier`,
        :class:`~orangecontrib.oblique.core.OC1Classifier` or
        :class:`~orangecontrib.oblique.core.odt_svm.classifier.ODTSVMClassifier` (with its own
        parameters), cloned for every tree: each clone is trained on a bootstrap sample
        and on a random subset of ``max_features`` attributes (bagging and random
        subspaces, as Odte does with STree); its splits are then written over all
        attributes, so the trees print, route and explain themselves like any other.
    max_features
        SPORF: ``d``, the candidate projections per node (``⌈√p⌉`` by default, the
        ``rerf`` package's; at most ``p²``, a larger number is taken as ``p²``); with
        ``estimator``: the attributes each tree sees (at most ``p``, a larger number is
        taken as ``p``).
    feature_combinations
        SPORF: ``λ·p``, the attributes per projection on average (``"auto"``: 3 for 10
        or more attributes, else 1, the ``rerf`` package's ``λ = 3/p`` or ``1/p``).
        Not used with ``estimator``.
    bootstrap
        Stratified bootstrap samples (``rerf``'s default); False: every tree on all rows.
    max_depth
        SPORF trees' depth limit (none: grown until their leaves are pure).
    min_samples_split
        SPORF: nodes with fewer rows are leaves.
    oob_score
        Estimate the accuracy from the out-of-bag rows (needs ``bootstrap``).
    oob_grid_search
        The paper's choice of ``max_features`` and ``feature_combinations`` (SPORF trees,
        with ``bootstrap``): a forest for every pair of :func:`oob_search_grid`, the one of
        the lowest out-of-bag error kept (up to 25 forests: a slow fit).  Ignores
        ``max_features`` and ``feature_combinations``.
    n_jobs
        Trees fitted in parallel by joblib (its worker processes, in batches of trees,
        unless a joblib backend is active, e.g. ``with joblib.parallel_backend("dask")``
        on a Dask cluster); None: 1, or the active backend's default.  The fitted forest
        does not depend on it.  A given ``n_jobs`` is a ceiling: work too small to pay
        for the jobs (worker processes to start) is fitted here, one tree after the
        other, while the workers start for the next fit (:func:`~.parallel.plan_jobs`).
    random_state
        Seeds every tree (its bootstrap sample and its own randomness); seeds are drawn
        before any tree is fitted, so a seed gives the same forest for any ``n_jobs``.

    Attributes
    ----------
    estimators_ : list of fitted tree estimators
        Trained on class codes (indices into ``classes_``).
    classes_, n_classes_, n_features_in_
    n_jobs_used_ : int
        How many jobs (threads for SPORF trees, else processes) fitted the trees.
    seeds_ : ndarray of int
        Every tree's seed (its ``random_state`` and its bootstrap sample's).
    features_ : list of ndarray or None
        With ``estimator``: the attributes each tree was trained on; None for SPORF trees
        (all attributes).
    oob_score_ : float
        Accuracy of the out-of-bag predictions over the rows that were out of at least
        one tree's bag (only with ``oob_score``).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Every training row's mean class distribution over the trees it was out of the
        bag of; NaN for a row in every bag (only with ``oob_score``).
    oob_grid_ : list of dict
        With ``oob_grid_search``: every pair of the grid (``max_features``,
        ``feature_combinations``) with its forest's ``oob_error`` and ``oob_auc``.
    best_params_ : dict
        With ``oob_grid_search``: the pair of the forest kept.
    """

    _parameter_constraints = {
        "n_estimators": N_ESTIMATORS.replace(default=100),
        "estimator": Parameter(None, TREE_ESTIMATOR, None),
        "max_features": Parameter("sqrt", *MAX_FEATURES),
        "feature_combinations": Parameter("auto", *FEATURE_COMBINATIONS),
        "bootstrap": Parameter(True, BOOLEAN),
        "max_depth": MAX_DEPTH,
        "min_samples_split": MIN_SAMPLES_SPLIT,
        "oob_score": Parameter(False, BOOLEAN),
        "oob_grid_search": Parameter(False, BOOLEAN),
        "n_jobs": N_JOBS,
        "random_state": SEED,
    }

    _parameter_relations = (
        Relation(lambda params: params["bootstrap"] or not params["oob_score"],
                 "oob_score needs bootstrap=True: without bootstrap samples no row is out "
                 "of a tree's bag"),
        Relation(lambda params: not params["oob_grid_search"] or (
            params["bootstrap"] and params["estimator"] is None),
                 "oob_grid_search needs bootstrap=True and SPORF trees (estimator=None): it "
                 "compares forests by their out-of-bag error over SPORF's max_features and "
                 "feature_combinations"))

    # ----- fitting -----

    def fit(self, X, y, sample_weight=None, progress_callback=None):
        """Grow ``n_estimators`` trees, each on its own bootstrap sample.

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n_samples, n_features), finite
            A sparse matrix is densified, up to
            :data:`~orangecontrib.oblique.core.validation.MAX_DENSE_BYTES`.
        y : array-like of shape (n_samples,), class labels of any hashable type
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative row weights; only their ratios matter (rescaled to sum to the
            number of rows of positive weight).  A tree weighs a row by its weight times
            the number of times its bootstrap sample drew it; rows of weight 0 are in no
            tree and out of the out-of-bag estimate.
        progress_callback : callable(fraction) or None
            Called with the fraction of the trees fitted (and, with one job, while each
            grows); an exception it raises aborts the fit.

        Returns
        -------
        self
        """
        self._validate_params()
        check_memory("n_estimators", self.n_estimators, self.n_estimators * MEMBER_BYTES,
                     f"{self.n_estimators:,} trees of at least {MEMBER_BYTES:,} bytes each")
        X, y = validate_training_data(self, X, y)
        check_classification_labels(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        codes = codes.astype(np.intp)
        sample_weight = checked_sample_weight(sample_weight, X.shape[0])
        sample_weight, _ = normalised_sample_weight(sample_weight)
        rng = check_random_state(self.random_state)
        self._classes_of_rows = codes  # the strata of the bootstrap samples
        self.seeds_ = rng.randint(_MAX_SEED, size=self.n_estimators)
        self.features_ = None if self.estimator is None else [
            self._tree_features(seed, X.shape[1]) for seed in self.seeds_]
        if self.oob_grid_search:
            self._fit_oob_grid(X, codes, sample_weight, progress_callback)
        else:
            self.estimators_ = self._fit_trees(X, codes, sample_weight, self.max_features,
                                               self.feature_combinations, progress_callback)
        name_member_trees(self)
        if self.oob_score:
            self._set_oob_score(X, codes, sample_weight)
        return self

    def _fit_trees(self, X, codes, sample_weight, max_features, feature_combinations,
                   progress_callback):
        """The trees of every seed, each on its bootstrap sample (SPORF trees with
        ``max_features`` and ``feature_combinations``)."""
        members = [(self._new_tree(seed, max_features, feature_combinations), seed,
                    None if self.features_ is None else self.features_[i])
                   for i, seed in enumerate(self.seeds_)]
        # every kind of tree in worker processes: the compiled search of a SPORF node
        # releases the GIL, but the Python around it (a few dozen calls a node, most of a
        # tree of small nodes) holds it, so threads gain nothing; one process when the
        # work is too small to pay for them (parallel.jobs_for)
        columns = (X.shape[1] * len(members) if self.features_ is None
                   else sum(features.size for features in self.features_))
        work = (type(members[0][0]).__name__, X.shape[0] * columns)
        self.n_jobs_used_ = plan_jobs(work[1], self.n_jobs, kind=work[0])
        jobs = self.n_jobs_used_ if self.n_jobs is not None else None
        size = batch_size(len(members), effective_n_jobs(jobs))
        fits = [partial(_fit_batch, members[start:start + size], X, codes, self.n_classes_,
                        sample_weight, self.bootstrap)
                for start in range(0, len(members), size)]
        return [tree for batch in run_fits(fits, jobs, progress_callback, work=work)
                for tree in batch]

    def _fit_oob_grid(self, X, codes, sample_weight, progress_callback):
        """The choice of ``d`` and ``λ`` of the paper's benchmark (the authors' scripts,
        ``RerFEval``): a forest for every pair of :func:`oob_search_grid`,
        all on the same bootstrap samples, and the one of the lowest out-of-bag error
        kept; ties go to the higher out-of-bag AUC, then to the first in the grid."""
        grid = oob_search_grid(X.shape[1])
        self.oob_grid_ = []
        best_key, best = None, None
        for i, (d, combinations) in enumerate(grid):
            report = None if progress_callback is None else (
                lambda fraction, i=i: progress_callback((i + fraction) / len(grid)))
            trees = self._fit_trees(X, codes, sample_weight, d, combinations, report)
            error, auc = _oob_error_and_auc(
                self._oob_decision_function(trees, X, codes, sample_weight), codes)
            self.oob_grid_.append({"max_features": d, "feature_combinations": combinations,
                                   "oob_error": error, "oob_auc": auc})
            if best_key is None or (error, -auc) < best_key:
                best_key, best = (error, -auc), (trees, d, combinations)
        self.estimators_, d, combinations = best
        self.best_params_ = {"max_features": d, "feature_combinations": combinations}

    def _new_tree(self, seed, max_features, feature_combinations):
        """An unfitted tree with ``seed`` for its ``random_state`` (nested ones too); a
        SPORF tree with ``max_features`` and ``feature_combinations``."""
        if self.estimator is None:
            return SparseProjectionTreeClassifier(
                max_features=max_features, feature_combinations=feature_combinations,
                max_depth=self.max_depth, min_samples_split=self.min_samples_split,
                random_state=int(seed))
        tree = clone(self.estimator)
        return tree.set_params(**{name: int(seed) for name in tree.get_params(deep=True)
                                  if name == "random_state"
                                  or name.endswith("__random_state")})

    def _tree_features(self, seed, n_features):
        """The attributes (sorted) of the tree of ``seed`` with ``estimator``: a random
        subset of ``max_features`` of them (all when that is at least ``n_features``)."""
        size = min(n_projections(self.max_features, n_features), n_features)
        chooser = np.random.default_rng([int(seed), 1])
        return np.sort(chooser.choice(n_features, size=size, replace=False))

    @property
    def estimators_samples_(self):
        """The rows (indices, with repeats as drawn) of every tree's bootstrap sample."""
        check_is_fitted(self, "estimators_")
        rows = np.arange(self._classes_of_rows.size)
        return [np.repeat(rows, bag_counts(seed, self._classes_of_rows,
                                           self.bootstrap).astype(np.intp))
                for seed in self.seeds_]

    def _oob_decision_function(self, trees, X, codes, sample_weight):
        """Every row's mean class distribution over the ``trees`` whose bootstrap sample
        left it out (NaN for a row in every bag); rows of weight 0 are no training rows:
        left out.  A ValueError when no row is out of any bag."""
        totals = np.zeros((X.shape[0], self.n_classes_))
        votes = np.zeros(X.shape[0])
        for tree, seed in zip(trees, self.seeds_):
            out = (bag_counts(seed, codes, self.bootstrap) == 0) & (sample_weight > 0)
            if out.any():
                totals[out] += _tree_proba(tree, X[out], self.n_classes_)
                votes[out] += 1
        scored = votes > 0
        if not scored.any():
            counts = np.bincount(codes[sample_weight > 0], minlength=self.n_classes_)
            if counts[counts > 0].max() == 1:
                reason = ("every class has one row, which every stratified bootstrap "
                          "sample draws: give more rows per class, or set "
                          "oob_score=False")
            else:
                reason = "use more trees for an out-of-bag estimate"
            raise ValueError(f"no row is out of any tree's bootstrap sample: {reason}")
        in_every_bag = ~scored & (sample_weight > 0)
        if in_every_bag.any():
            # every stratified sample draws the only row of a class
            alone = int((in_every_bag & (np.bincount(codes)[codes] == 1)).sum())
            reasons = ([f"{alone} the only row of its class, which every stratified "
                        f"sample draws"] if alone else []) + (
                ["use more trees"] if in_every_bag.sum() > alone else [])
            warnings.warn(f"rows in every tree's bootstrap sample have no out-of-bag "
                          f"prediction and are left out of the out-of-bag score: "
                          f"{int(in_every_bag.sum())} of {int((sample_weight > 0).sum())}; "
                          f"{'; '.join(reasons)}", UserWarning)
        proba = np.full_like(totals, np.nan)
        proba[scored] = totals[scored] / votes[scored, None]
        return proba

    def _set_oob_score(self, X, codes, sample_weight):
        """``oob_decision_function_`` and ``oob_score_`` from the trees' predictions on
        the rows out of their bags."""
        self.oob_decision_function_ = self._oob_decision_function(
            self.estimators_, X, codes, sample_weight)
        scored = ~np.isnan(self.oob_decision_function_[:, 0])
        predicted = np.argmax(self.oob_decision_function_[scored], axis=1)
        self.oob_score_ = float(np.mean(predicted == codes[scored]))

    # ----- prediction -----

    def predict_proba(self, X):
        """The mean of the trees' class distributions.

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n_samples, n_features), finite
            A sparse matrix is densified in blocks of rows.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), columns in the order of ``classes_``
        """
        check_is_fitted(self, "estimators_")
        X = validate_prediction_data(self, X)
        return map_row_chunks(self._mean_proba, X)

    def _mean_proba(self, X):
        # every tree's nodes from one compiled walk of all trees
        proba = np.zeros((X.shape[0], self.n_classes_))
        for tree, stop in zip(self.estimators_, member_stop_nodes(self.estimators_, X)):
            _add_tree_proba(proba, tree, X, stop)
        return proba / len(self.estimators_)

    def predict(self, X):
        """The class of the largest mean probability for each row."""
        probabilities = self.predict_proba(X)
        return self.classes_[np.argmax(probabilities, axis=1)]

    def apply(self, X):
        """The leaf of every row in every tree, shape (n_samples, n_estimators)."""
        check_is_fitted(self, "estimators_")
        X = validate_prediction_data(self, X)
        return map_row_chunks(
            lambda rows: np.column_stack(member_stop_nodes(self.estimators_, rows)), X)

    @property
    def weights_(self):
        """The trees' weights in the mean of ``predict_proba``: all ``1/n_estimators``
        (the weights of an ensemble whose trees count alike, as
        :class:`~orangecontrib.oblique.core.ensemble.hedge.HedgeEnsembleClassifier` has its
        Hedge weights)."""
        check_is_fitted(self, "estimators_")
        return np.full(len(self.estimators_), 1.0 / len(self.estimators_))

    # ----- what the trees use -----

    @property
    def feature_importances_(self):
        """The trees' ``feature_importances_`` averaged: non-negative, summing to 1 (all
        zeros if every tree is a single leaf).

        A tree's importances are its splits' weighted Gini decreases shared among the
        attributes each split uses in proportion to ``|w_j| · std_j`` at the node (see
        :meth:`~orangecontrib.oblique.core.ObliqueTree.feature_importances`); trees that
        are a single leaf are left out of the mean, as in scikit-learn's forests.
        """
        check_is_fitted(self, "estimators_")
        grown = [tree.feature_importances_ for tree in self.estimators_
                 if tree.tree_.node_count > 1]
        if not grown:
            return np.zeros(self.n_features_in_)
        importances = np.mean(grown, axis=0)
        total = importances.sum()
        return importances / total if total > 0 else importances

    def get_split_statistics(self):
        """How oblique the trees are: splits, oblique splits and attributes per split
        summed over the trees (:class:`~orangecontrib.oblique.core.tree.structure.SplitStatistics`)."""
        check_is_fitted(self, "estimators_")
        return sum((tree.get_split_statistics() for tree in self.estimators_),
                   SplitStatistics(0, 0, 0))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.input_tags.sparse = True  # densified up to validation.MAX_DENSE_BYTES
        return tags


def bag_counts(seed, classes, bootstrap=True):
    """How often the bootstrap sample of the tree of ``seed`` draws every row, for rows of
    class codes ``classes`` (all 1 without ``bootstrap``).

    The sample is *stratified*, as the bootstrap of the authors' R package (``RerF(...,
    replacement = TRUE, stratify = TRUE)``, its default, which the paper's experiments
    used): each class is drawn with replacement as many times as it has rows, so every
    sample has the class counts of the data.  The draws come from a generator of their
    own (not the tree's ``RandomState``), so that the sample and the tree's other random
    choices are independent."""
    classes = np.asarray(classes)
    if not bootstrap:
        return np.ones(classes.size)
    order = np.argsort(classes, kind="stable")  # the rows class by class
    sizes = np.bincount(classes)
    first = np.repeat(np.cumsum(sizes) - sizes, sizes)  # of every position's class block
    draws = first + np.random.default_rng(int(seed)).integers(0, np.repeat(sizes, sizes))
    return np.bincount(order[draws], minlength=classes.size).astype(float)


def oob_search_grid(n_features):
    """The pairs ``(d, λ·p)`` (``max_features``, ``feature_combinations``) among which
    the paper's benchmark chooses by out-of-bag error (the authors' script
    ``run_Benchmarks_2017_11_28.R``, repository ``tyler-tomita/RandomerForest``): ``d``
    in ``⌈p^(1/4)⌉, ⌈p^(1/2)⌉, ⌈p^(3/4)⌉, p, p²`` (``p^1.5`` instead of ``p²`` above 100
    attributes; ``1, …, p, p²`` below 5) and ``λ·p`` in ``1, …, min(p − 1, 5)`` (1 for one
    attribute), ``d`` varying fastest, as the script loops."""
    p = max(int(n_features), 1)
    if p < 5:
        projections = list(range(1, p + 1)) + [p * p]
    else:
        exponents = (0.25, 0.5, 0.75, 1.0, 2.0 if p <= 100 else 1.5)
        projections = [int(np.ceil(p ** e - 1e-9)) for e in exponents]
    projections = list(dict.fromkeys(projections))  # p = 1: 1 and 1² once
    return [(d, float(k)) for k in range(1, max(min(p - 1, 5), 1) + 1)
            for d in projections]


def _oob_error_and_auc(proba, codes):
    """The error of out-of-bag class distributions ``proba`` (NaN rows: no prediction,
    left out) on the classes ``codes``, and their AUC: one ROC curve over every row's
    score for every class, against whether it is the row's class (as the authors'
    script scores more than two classes; 0.5 for one class)."""
    scored = ~np.isnan(proba[:, 0])
    proba, codes = proba[scored], codes[scored]
    error = float(np.mean(np.argmax(proba, axis=1) != codes))
    truth = np.zeros(proba.shape, dtype=bool)
    truth[np.arange(codes.size), codes] = True
    auc = 0.5 if proba.shape[1] < 2 else float(roc_auc_score(truth.ravel(), proba.ravel()))
    return error, auc


def _fit_batch(members, X, codes, n_classes, sample_weight, bootstrap,
               progress_callback=None):
    """:func:`_fit_tree` of every ``(tree, seed, features)`` of ``members``, in order,
    each reporting its share of the progress."""
    fitted = []
    for index, (tree, seed, features) in enumerate(members):
        fitted.append(_fit_tree(tree, X, codes, n_classes, sample_weight, seed, bootstrap,
                                features, scaled_progress(progress_callback,
                                                          index / len(members),
                                                          (index + 1) / len(members))))
    return fitted


def _fit_tree(tree, X, codes, n_classes, sample_weight, seed, bootstrap, features,
              progress_callback=None):
    """Fit one tree of the forest on its bootstrap sample (row weights ``sample_weight``
    times the draws :func:`bag_counts` of ``seed``) and return it.  A SPORF tree is
    fitted without the checks the forest has made; another tree on the attributes
    ``features`` only, its splits then written over all attributes
    (:func:`_over_all_features`)."""
    sample_weight = sample_weight * bag_counts(seed, codes, bootstrap)
    if features is None:
        tree = tree._fit_in_forest(X, codes, n_classes, sample_weight, progress_callback)
        tree.tree_.compact_class_counts()  # many classes: kept sparse
        return tree
    keep = sample_weight > 0
    params = tree.get_params(deep=False)
    if params.get("max_terms") is not None:  # a cap above the tree's attributes caps nothing
        tree.set_params(max_terms=min(params["max_terms"], features.size))
    if params.get("categorical_features") is not None:
        tree.set_params(categorical_features=_subset_columns(
            params["categorical_features"], features, X.shape[1]))
    kwargs = {} if progress_callback is None else {"progress_callback": progress_callback}
    tree.fit(X[np.ix_(keep, features)], codes[keep], sample_weight=sample_weight[keep],
             **kwargs)
    tree = _over_all_features(tree, features, X.shape[1], X)
    tree.tree_.compact_class_counts()
    return tree


def _subset_columns(categorical, features, n_features):
    """ODT-SVM's ``categorical_features`` (indices or a mask over all attributes) as
    indices into the tree's ``features``."""
    mask = np.zeros(n_features, dtype=bool)
    mask[np.asarray(categorical)] = True
    return np.flatnonzero(mask[features]).tolist()


def _over_all_features(tree, features, n_features, X):
    """``tree``, fitted on the columns ``features`` of ``X``, with its splits written over
    all ``n_features`` attributes (weight 0 on the others): it then takes rows of all
    attributes and its printed rules, importances and statistics name them.  Its class
    codes and counts are unchanged; its printed rules are calibrated on all rows of
    ``X``."""
    old = tree.tree_
    splits = []
    for split in old.splits:
        if split is not None:
            weights = np.zeros((split.weights.shape[0], n_features))
            weights[:, features] = split.weights
            split = split.copy(weights=weights)
        splits.append(split)
    new = ObliqueTree(n_features, old.n_classes, splits, old.children, old.parent,
                      old.value, old.n_node_samples)
    new.proba = old.proba
    for name in ("grow_value",):
        if hasattr(old, name):
            setattr(new, name, getattr(old, name))
    if getattr(old, "feature_scales", None) is not None:
        new.feature_scales = np.zeros((old.node_count, n_features))
        new.feature_scales[:, features] = old.feature_scales
    tree.tree_ = new.calibrate_text(X)
    tree.n_features_in_ = n_features
    if getattr(tree, "seen_codes_", None):   # ODT-SVM's nominal columns, as all attributes'
        tree.seen_codes_ = {int(features[j]): codes for j, codes in tree.seen_codes_.items()}
    return tree


def _tree_proba(tree, X, n_classes):
    """The class distribution of ``tree`` (trained on class codes) over all ``n_classes``
    codes, for validated rows ``X`` (a nominal code the tree's rows did not have is a
    missing value, :meth:`~.base.ObliqueTreeClassifierMixin.unseen_codes_as_missing`)."""
    proba = np.zeros((X.shape[0], n_classes))
    _add_tree_proba(proba, tree, X)
    return proba


def _add_tree_proba(proba, tree, X, stop=None):
    """Add to ``proba`` (rows × the forest's classes) the class distribution of ``tree``
    at the rows ``X`` (:func:`_tree_proba`); ``stop``: the rows' nodes, if known."""
    tree_proba = tree.tree_.predict_proba(tree.unseen_codes_as_missing(X), stop)
    classes = np.asarray(tree.classes_, dtype=np.intp)
    if classes.size == proba.shape[1] and np.array_equal(classes, np.arange(classes.size)):
        proba += tree_proba
    else:  # the other classes' columns get 0
        proba[:, classes] += tree_proba
