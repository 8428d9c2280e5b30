"""Hedge(β) ensemble of classifiers (Menkovski et al., ODT-SVM paper, Sections V–VI).

M members, each trained on a different random share (90 % in Section VI) of the rows, start
with equal weights.  A prediction is the weighted average of the members' class
distributions (Section V-A).  After each labelled example every member that
misclassified it has its weight multiplied by β (Freund & Schapire 1997, "A
decision-theoretic generalization of on-line learning and an application to boosting",
Section 2: Hedge(β) with 0/1 loss): in ``fit`` on the rows each member was not trained
on, online in ``partial_fit`` on every new labelled row; optionally, members whose weight
falls below a threshold are discarded and replaced by members trained on the most recent
examples (the extension of Section V-A).

The default β = 0.9.  The paper gives no value.  Freund & Schapire (1997, Section 2.2) tune
β as ``g(L̃ / ln N)`` with ``g(z) = 1 / (1 + sqrt(2 / z))``, where ``L̃`` bounds the loss of
the best of the ``N`` members; for ten members whose best one may make some 350 mistakes
over the stream this gives β ≈ 0.9.  It decays slowly: a member needs about 22 more
mistakes than another to fall to a tenth of its weight (0.9²² ≈ 0.1), so a few unlucky
errors do not silence it.  Their analysis allows β = 0; it is excluded here because a
member that errs once would get weight 0 for ever, and the weights of an ensemble that all
err would not normalise.
"""
from functools import partial
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, has_fit_parameter

from ..parallel import plan_jobs, run_fits, scaled_progress
from ..preprocessing import stratified_sample
from ..tree.structure import (ObliqueTree, SplitStatistics, member_stop_nodes,
                              name_member_trees)
from ..parameters import (BOOLEAN, CLASSIFIER, N_ESTIMATORS, N_JOBS, SEED, DeclaredParameters,
                          Derived, Interval, Parameter)
from ..validation import (MEMBER_BYTES, check_classification_labels, check_memory,
                          checked_sample_weight, map_row_chunks, normalised_sample_weight,
                          validate_prediction_data, validate_training_data)

_MAX_SEED = np.iinfo(np.int32).max
#: The average weight of a member, ``1 / n_estimators``: ``weight_threshold`` is below it.
AVERAGE_WEIGHT = Derived("1/n_estimators", lambda params: 1 / params["n_estimators"])


def stratified_subset(codes, size, random_state):
    """Indices (sorted) of ``size`` rows drawn without replacement, stratified by class.

    Each class gets its proportional share of ``size`` (largest remainders round it), and at
    least one row whenever ``size`` is at least the number of classes, so that a member
    trained on the subset sees every class if it can.

    Parameters
    ----------
    codes : ndarray of shape (n_samples,)
        Class codes 0 .. K-1; every code occurs at least once.
    size : int
        Number of rows to draw, 1 <= ``size`` <= ``n_samples``.
    random_state : numpy.random.RandomState
    """
    n_samples = len(codes)
    if size >= n_samples:
        return np.arange(n_samples)
    return stratified_sample(codes, size, random_state, one_per_class=True)


def _normalised_softmax(log_weights):
    """Column-wise ``exp(log w) / Σ exp(log w)``, safe when weights underflow."""
    shifted = np.exp(log_weights - log_weights.max(axis=0))
    return shifted / shifted.sum(axis=0)


def fit_member(member, X, y, sample_weight=None, progress_callback=None):
    """``member.fit``, with ``sample_weight`` if given and ``progress_callback`` if
    given and the member's ``fit`` accepts one; a tree of many classes then keeps its
    class counts sparse (:meth:`~.tree.ObliqueTree.compact_class_counts`)."""
    kwargs = {}
    if sample_weight is not None:
        kwargs["sample_weight"] = sample_weight
    if progress_callback is not None and has_fit_parameter(member, "progress_callback"):
        kwargs["progress_callback"] = progress_callback
    member = member.fit(X, y, **kwargs)
    if isinstance(getattr(member, "tree_", None), ObliqueTree):
        member.tree_.compact_class_counts()
    return member


def class_codes(classes, y):
    """Codes of the labels ``y`` (indices into the sorted ``classes``); a ValueError for
    labels not among them."""
    codes = np.searchsorted(classes, y)
    known = codes < len(classes)
    known[known] = classes[codes[known]] == y[known]
    if not known.all():
        raise ValueError(f"labels {np.unique(y[~known]).tolist()} are not among the "
                         f"classes {classes.tolist()}; pass every label as "
                         f"`classes` at the first partial_fit call")
    return codes.astype(np.intp)


def held_out_hedge_weights(members, subsets, X, codes, sample_weight, beta):
    """Equal starting weights 1/M after the Hedge(β) update on the held-out rows.

    Every member is judged only on the rows left out of its own subset, which are labelled
    examples it has not seen: for each of them it misclassifies its weight is multiplied by
    β.  The update is multiplicative, so the order of the rows does not matter:
    ``w_m ∝ β^(mistakes of member m on its held-out rows)``, normalised.  All subsets have
    the same size, so every member is judged on equally many rows; with
    ``sample_fraction = 1`` there are none and the weights stay equal.
    """
    usable = np.ones(len(codes), dtype=bool) if sample_weight is None else sample_weight > 0
    mistakes = np.zeros(len(members))
    for index, (member, rows) in enumerate(zip(members, subsets)):
        held_out = usable.copy()
        held_out[rows] = False
        if held_out.any():
            mistakes[index] = np.count_nonzero(
                _predicted_codes(member, X[held_out]) != codes[held_out])
    return _normalised_softmax(np.log(beta) * mistakes[:, None])[:, 0]


def _predicted_codes(member, X):
    return np.asarray(member.predict(X), dtype=np.intp)


def member_distribution(member, X, n_classes, stop=None):
    """A member's class distribution over the ensemble's ``n_classes`` classes (a member
    trained on class codes; without ``predict_proba``, a one-hot of its prediction).
    ``stop``: where the validated rows ``X`` stop in the member's tree, if known
    (:func:`~.structure.member_stop_nodes`)."""
    proba = np.zeros((len(X), n_classes))
    if stop is not None:
        proba[:, np.asarray(member.classes_, dtype=np.intp)] = member.tree_.predict_proba(
            member.unseen_codes_as_missing(X), stop)
    elif hasattr(member, "predict_proba"):
        proba[:, np.asarray(member.classes_, dtype=np.intp)] = member.predict_proba(X)
    else:
        proba[np.arange(len(X)), _predicted_codes(member, X)] = 1.0
    return proba


class HedgeEnsembleClassifier(DeclaredParameters, ClassifierMixin, MetaEstimatorMixin,
                              BaseEstimator):
    """Hedge(β) ensemble of classifiers, updatable online (ODT-SVM paper, Sections V–VI).

    ``fit`` trains ``n_estimators`` clones of ``estimator``, each on a different random
    ``sample_fraction`` of the rows (Section VI: ten J48-SVM-ODT trees, each on a different
    90 % of the data), gives them equal weights 1/M ("weighted homogeneously",
    Section V-A) and applies the Hedge(β) update to the labelled rows each member has not
    seen: a member's weight is multiplied by β for every row held out of its subset that
    it misclassifies (so ``beta`` matters for a model that is only fitted, as in Orange).
    ``predict_proba`` is the weighted sum of the members' class distributions (Section
    V-A).  ``partial_fit`` applies the Hedge(β) update of
    Freund & Schapire (1997) to each labelled row in turn: every member that misclassifies
    it has its weight multiplied by β, and the weights are normalised to sum to 1.  With
    ``replace_members`` a member whose normalised weight falls below ``weight_threshold``
    is discarded and a new one, trained on the most recent ``window`` labelled rows, takes
    its place (the extension of Section V-A).

    Members are trained on class *codes* (indices into ``classes_``), so any base
    classifier works with any label type, and a member that saw only some classes has its
    distribution mapped onto the ensemble's columns (the other classes get 0).

    Parameters
    ----------
    estimator
        The base classifier, cloned for every member; ``None`` means
        :class:`~orangecontrib.oblique.core.odt_svm.classifier.ODTSVMClassifier` with its defaults (the
        paper's J48-SVM-ODT).  Members are combined by ``predict_proba`` when the base has
        one, otherwise by a one-hot of ``predict``.  Every ``random_state`` parameter of a
        member (nested ones included) is set to a seed drawn from this ensemble's
        ``random_state``, as :class:`sklearn.ensemble.BaggingClassifier` does, so that
        members differ and the ensemble is reproducible.
    n_estimators
        Number of members M (Section VI uses 10).
    sample_fraction
        Share of the rows each member is trained on, drawn without replacement (Section VI:
        90 %).  The draw is stratified by class, with at least one row of every class
        whenever the subset is at least as large as the number of classes.
    beta
        Hedge's β: the factor a member's weight is multiplied by for each misclassified
        row.  The paper gives no value; why 0.9 is in this module's docstring.
    weight_threshold
        A member whose normalised weight falls below this value is replaced in
        ``partial_fit`` when ``replace_members`` is on.  Must be below the average weight
        ``1 / n_estimators``: at or above it, equally good members would all be replaced.
    replace_members
        Whether ``partial_fit`` replaces low-weight members (Section V-A's extension).
    window
        A replacement member is trained on this many of the most recent labelled rows.
    random_state
        Seeds the subsets, the members' ``random_state`` parameters and those of the
        replacement members trained by later ``partial_fit`` calls.
    n_jobs
        How many members ``fit`` trains at once, through joblib (processes): ``None`` is 1
        unless a ``joblib.parallel_config`` (or ``parallel_backend``) context says
        otherwise, ``-1`` all cores.  Every member's subset and seeds are drawn before any
        is trained, so the ensemble is the same for any ``n_jobs`` (up to rounding in the
        last bits where BLAS runs more threads here than in joblib's worker processes,
        which run one: LAPACK's eigensolver, GDT's, may round otherwise).  Under
        ``joblib.parallel_config(backend="dask")`` the members are trained on a Dask
        cluster.  A given ``n_jobs`` is a ceiling: when the work is too small to pay for
        starting worker processes (or, once started, for handing the members to them),
        this process trains them one by one (:func:`~.parallel.jobs_for`).

    Attributes
    ----------
    estimator_ : estimator
        The unfitted base classifier the members are cloned from.
    estimators_ : list of estimators
        The fitted members.
    weights_ : ndarray of shape (n_estimators,)
        The members' normalised Hedge weights (they sum to 1).
    subsets_ : list of ndarray or None
        ``subsets_[m]`` are the indices of the ``fit`` rows member ``m`` was trained on;
        ``None`` for a member that replaced another in ``partial_fit`` (it was trained on
        the rows in ``recent_X_`` at that moment).
    classes_ : ndarray of shape (n_classes,)
    n_jobs_used_ : int
        How many processes ``fit`` trained the members in (1: this one).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` had feature names.
    n_updates_ : int
        Number of labelled rows ``partial_fit`` has applied the Hedge update for.
    n_replaced_ : int
        Number of members replaced by ``partial_fit`` so far.
    recent_X_, recent_y_ : ndarray
        The at most ``window`` most recent labelled rows (``recent_y_`` as class codes), the
        training set of the next replacement member.  ``fit``'s rows have no order in time,
        so ``fit`` starts the buffer with ``min(window, n_samples)`` of them drawn at
        random; rows given to ``partial_fit`` are then appended in order and push out the
        oldest.

    Notes
    -----
    Hedge's update is applied row by row, so a replacement happens right after the row
    that pushed a weight below the threshold, and the replacement is judged on the rows
    after it.  A new member gets the average weight of the members kept (equal weights if
    all are replaced), after which the weights are normalised again.
    """

    _parameter_constraints = {
        "estimator": Parameter(None, CLASSIFIER, None),
        "n_estimators": N_ESTIMATORS,
        "sample_fraction": Parameter(0.9, Interval(Real, 0, 1, closed="right")),
        "beta": Parameter(0.9, Interval(Real, 0, 1, closed="neither")),
        "weight_threshold": Parameter(0.01, Interval(Real, 0, AVERAGE_WEIGHT, closed="left")),
        "replace_members": Parameter(False, BOOLEAN),
        "window": Parameter(200, Interval(Integral, 1, None)),
        "random_state": SEED,
        "n_jobs": N_JOBS,
    }

    # ----- fitting -----

    def fit(self, X, y, sample_weight=None, progress_callback=None):
        """Train the members on random subsets, weight them by Hedge(β) on the rows each
        did not see (Sections V–VI).

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n_samples, n_features), finite
            A sparse matrix is densified, up to
            :data:`~orangecontrib.oblique.core.validation.MAX_DENSE_BYTES` as a dense
            array; above that the fit is a ValueError that gives the dense size.
        y : array-like of shape (n_samples,), class labels of any hashable type
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative row weights, passed (restricted to its subset) to every member's
            ``fit``; a ValueError if the base classifier's ``fit`` does not accept them,
            or if they sum to more than the largest float.  The ensemble itself uses only
            which weights are positive, and the tree estimators of this package rescale
            a member's weights to sum to its number of rows of positive weight
            (:func:`~orangecontrib.oblique.core.validation.normalised_sample_weight`): with
            them, multiplying all weights by a positive constant gives the same ensemble,
            and equal weights the unweighted one.
        progress_callback : callable(fraction) or None
            Called with the fraction of the fit done.  The progress is split into equal
            shares, one per member in the order they are trained: a member whose ``fit``
            takes a ``progress_callback`` (the tree estimators of this package) is passed
            one scaled to its share, and the share is complete when its fit returns.  An
            exception the callback raises aborts the fit (in the member being trained).

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = validate_training_data(self, X, y)
        return self._fit(X, y, sample_weight, None, progress_callback)

    def partial_fit(self, X, y, classes=None, progress_callback=None):
        """Hedge(β) update of the weights on labelled rows, in order (Section V-A).

        For each row, every member that misclassifies it has its weight multiplied by
        ``beta``; the weights are then normalised.  With ``replace_members``, members whose
        normalised weight falls below ``weight_threshold`` are replaced by new members
        trained on the ``window`` most recent labelled rows (see the class Notes).

        On an unfitted ensemble the first call fits it on the given rows, as ``fit`` does
        (members are weighted by their mistakes on the rows held out of their subsets
        only: their mistakes on the rows they were trained on say little about how they
        will do on new ones).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels; each must be in ``classes_``.
        classes : array-like or None
            All the labels the stream may have.  Only needed at the first call (on an
            unfitted ensemble) when later rows may carry labels absent from the first
            ones, as is scikit-learn's convention; at later calls it must equal
            ``classes_`` if given.
        progress_callback : callable(fraction) or None
            Called with the fraction of the work done: at the first call as in ``fit``,
            later with the fraction of the rows whose update has been applied (a
            replacement member is passed a callback that repeats the fraction reached, so
            that an exception the callback raises aborts the call inside its fit too).

        Returns
        -------
        self
        """
        first_call = not hasattr(self, "estimators_")
        self._validate_params()
        X, y = validate_training_data(self, X, y, reset=first_call)
        if first_call:
            return self._fit(X, y, None, classes, progress_callback)
        check_classification_labels(y)
        if classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes {np.unique(classes).tolist()} differ from the "
                             f"classes {self.classes_.tolist()} the ensemble was fitted with")
        self._hedge(X, class_codes(self.classes_, y), progress_callback)
        return self

    def _fit(self, X, y, sample_weight, classes, progress_callback=None):
        """Fit on validated ``X, y`` (the parameters are checked by the caller)."""
        check_classification_labels(y)
        self.estimator_ = self._resolved_estimator()
        if sample_weight is not None:
            if not has_fit_parameter(self.estimator_, "sample_weight"):
                raise ValueError(f"the base estimator {type(self.estimator_).__name__} "
                                 f"does not accept sample_weight in fit")
            sample_weight = checked_sample_weight(sample_weight, X.shape[0])
            # weights whose sum overflows are refused here, whatever each subset holds;
            # the members (trees of this package) rescale the weights of their subsets
            normalised_sample_weight(sample_weight)
        if classes is None:
            self.classes_ = np.unique(y)
        else:
            self.classes_ = np.unique(classes)
        codes = class_codes(self.classes_, y)
        self._rng = check_random_state(self.random_state)
        # Stratify over the classes present (``classes`` may name more).
        subset_codes = np.unique(codes, return_inverse=True)[1]
        size = max(1, int(np.floor(self.sample_fraction * len(codes) + 0.5)))
        check_memory("n_estimators", self.n_estimators,
                     self.n_estimators * (MEMBER_BYTES + 8 * size),
                     f"{self.n_estimators:,} members, each a tree of at least "
                     f"{MEMBER_BYTES:,} bytes and its subset of {size:,} rows")
        self.estimators_, self.subsets_ = [], []
        for _ in range(self.n_estimators):  # every draw before any fit: any n_jobs alike
            self.subsets_.append(stratified_subset(subset_codes, size, self._rng))
            self.estimators_.append(self._new_member())
        self.estimators_ = self._fit_members(X, codes, sample_weight, progress_callback)
        name_member_trees(self)
        self.weights_ = held_out_hedge_weights(self.estimators_, self.subsets_, X, codes,
                                               sample_weight, self.beta)
        self.n_updates_ = 0
        self.n_replaced_ = 0
        candidates = (np.arange(len(codes)) if sample_weight is None
                      else np.flatnonzero(sample_weight > 0))
        seed_rows = self._rng.permutation(candidates)[:self.window]
        self.recent_X_, self.recent_y_ = X[seed_rows], codes[seed_rows]
        return self

    def _fit_members(self, X, codes, sample_weight, progress_callback):
        """The members of ``estimators_`` fitted on their ``subsets_``, ``n_jobs`` at a
        time, or one by one when the work is too small to pay for workers
        (:func:`~.parallel.jobs_for`; their number in ``n_jobs_used_``)."""
        work = (type(self.estimators_[0]).__name__,
                sum(len(rows) for rows in self.subsets_) * X.shape[1])
        self.n_jobs_used_ = plan_jobs(work[1], self.n_jobs, kind=work[0])
        return run_fits([partial(fit_member, member, X[rows], codes[rows],
                                 None if sample_weight is None else sample_weight[rows])
                         for member, rows in zip(self.estimators_, self.subsets_)],
                        self.n_jobs_used_ if self.n_jobs is not None else None,
                        progress_callback, work=work)

    @property
    def accepts_missing_values(self):
        """Whether NaN in ``X`` is a missing value: when the members take them (ODT-SVM
        handles them as C4.5 does)."""
        return bool(getattr(self._resolved_estimator(), "accepts_missing_values", False))

    def _resolved_estimator(self):
        if self.estimator is None:
            # Imported here: the ODT-SVM module is heavier and only needed for the default.
            from ..odt_svm.classifier import ODTSVMClassifier
            return ODTSVMClassifier()
        return self.estimator

    def _new_member(self):
        """An unfitted clone of the base with fresh seeds for its ``random_state``s."""
        member = clone(self.estimator_)
        seeds = {name: int(self._rng.randint(_MAX_SEED))
                 for name in sorted(member.get_params(deep=True))
                 if name == "random_state" or name.endswith("__random_state")}
        return member.set_params(**seeds)

    # ----- Hedge(β) -----

    def _hedge(self, X, codes, progress_callback=None):
        """Apply the Hedge(β) update for each row of ``X`` in order.

        Between replacements the members are fixed, so the weights after each row are
        ``w · β^(mistakes so far)``, normalised: computed for all rows at once from the
        running mistake counts (in logarithms, so that long streams do not underflow).
        The first row after which a weight is below the threshold ends a segment; the
        low-weight members are replaced and the next segment starts after that row.
        """
        log_beta = np.log(self.beta)
        wrong = np.stack([_predicted_codes(member, X) != codes
                          for member in self.estimators_])
        start = 0
        while start < len(codes):
            with np.errstate(divide="ignore"):
                log_weights = np.log(self.weights_)[:, None]
            weights = _normalised_softmax(
                log_weights + log_beta * np.cumsum(wrong[:, start:], axis=1))
            stop = weights.shape[1] - 1
            low = np.zeros(len(self.estimators_), dtype=bool)
            if self.replace_members:
                below = weights < self.weight_threshold
                triggered = np.flatnonzero(below.any(axis=0))
                if len(triggered):
                    stop = triggered[0]
                    low = below[:, stop]
            self.weights_ = weights[:, stop]
            end = start + stop + 1
            self._remember(X[start:end], codes[start:end])
            self.n_updates_ += end - start
            done = end / len(codes)
            if low.any():
                self._replace(low, scaled_progress(progress_callback, done, done))
                if end < len(codes):
                    for member_index in np.flatnonzero(low):
                        wrong[member_index, end:] = _predicted_codes(
                            self.estimators_[member_index], X[end:]) != codes[end:]
            if progress_callback is not None:
                progress_callback(done)
            start = end

    def _remember(self, X, codes):
        self.recent_X_ = np.concatenate([self.recent_X_, X])[-self.window:]
        self.recent_y_ = np.concatenate([self.recent_y_, codes])[-self.window:]

    def _replace(self, low, progress_callback=None):
        """Retrain the members flagged in ``low`` on the recent rows (Section V-A)."""
        weights = self.weights_.copy()
        weights[low] = weights[~low].mean() if not low.all() else 1.0
        for member_index in np.flatnonzero(low):
            member = self._new_member()
            fit_member(member, self.recent_X_, self.recent_y_,
                             progress_callback=progress_callback)
            self.estimators_[member_index] = member
            self.subsets_[member_index] = None
        self.weights_ = weights / weights.sum()
        self.n_replaced_ += int(low.sum())
        name_member_trees(self)

    # ----- prediction -----

    def predict_proba(self, X):
        """Weighted average of the members' class distributions (Section V-A).

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n_samples, n_features)
            A sparse matrix is densified in blocks of rows; no rows give an empty result.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``; each row sums to 1.
        """
        check_is_fitted(self, "estimators_")
        X = validate_prediction_data(self, X)
        return map_row_chunks(self._weighted_proba, X)

    def _weighted_proba(self, X):
        weights = self.weights_ / self.weights_.sum()
        proba = np.zeros((X.shape[0], len(self.classes_)))
        # the members' trees in one compiled walk
        stops = member_stop_nodes(self.estimators_, X)
        for weight, member, stop in zip(weights, self.estimators_, stops):
            proba += weight * member_distribution(member, X, len(self.classes_), stop)
        return proba

    def predict(self, X):
        """The class of the largest ensemble probability for each row."""
        probabilities = self.predict_proba(X)
        return self.classes_[np.argmax(probabilities, axis=1)]

    # ----- what the members use -----

    @property
    def feature_importances_(self):
        """The members' ``feature_importances_`` averaged with their normalised Hedge
        weights ``weights_``: non-negative, summing to 1.

        For the tree estimators of this package a member's importances are its splits'
        weighted Gini decreases shared among the features each split uses (see
        :attr:`ObliqueTreeClassifierMixin.feature_importances_
        <orangecontrib.oblique.core.base.ObliqueTreeClassifierMixin.feature_importances_>`).
        A member that is a single leaf has all-zero importances and adds nothing; the
        average is normalised again to sum to 1 (all zeros only if every member is a
        single leaf).  An AttributeError if the base classifier has no
        ``feature_importances_``.
        """
        check_is_fitted(self, "estimators_")
        weights = self.weights_ / self.weights_.sum()
        importances = np.zeros(self.n_features_in_)
        for weight, member in zip(weights, self.estimators_):
            if not hasattr(member, "feature_importances_"):
                raise AttributeError(f"the base estimator {type(member).__name__} has no "
                                     f"feature_importances_")
            importances += weight * np.asarray(member.feature_importances_, dtype=float)
        total = importances.sum()
        return importances / total if total > 0 else importances

    def get_split_statistics(self):
        """How oblique the members are: the number of splits and oblique splits summed
        over the members, and the mean number of features per split over all of them
        (:class:`~orangecontrib.oblique.core.tree.structure.SplitStatistics`).  An AttributeError if
        the members are not tree estimators of this package."""
        check_is_fitted(self, "estimators_")
        statistics = SplitStatistics(0, 0, 0)
        for member in self.estimators_:
            statistics = statistics + member.get_split_statistics()
        return statistics

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.accepts_missing_values
        tags.input_tags.sparse = True  # densified up to validation.MAX_DENSE_BYTES
        return tags
