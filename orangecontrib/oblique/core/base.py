"""The scikit-learn side shared by every oblique tree estimator.

A subclass implements ``_build_tree(X, y, sample_weight, random_state)`` and returns an
:class:`~orangecontrib.oblique.core.tree.structure.ObliqueTree`; validation, label encoding,
prediction, ``apply``, ``decision_path`` and text export live here.
"""
import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .tree.pruning import holdout_split, prune_with_holdout
from .parameters import DeclaredParameters
from .validation import (check_classification_labels, checked_sample_weight, map_row_chunks,
                         normalised_sample_weight, unseen_codes_as_missing,
                         validate_prediction_data, validate_training_data)


#: Fewest held-out rows with which a tree is pruned (see ``_grow_and_prune``).
MIN_PRUNING_ROWS = 5


class ObliqueTreeClassifierMixin(DeclaredParameters, ClassifierMixin, BaseEstimator):
    """Fit/predict plumbing for tree classifiers built on :class:`ObliqueTree`; a
    subclass declares its parameters in ``_parameter_constraints``
    (:class:`~.parameters.DeclaredParameters`)."""

    def fit(self, X, y, sample_weight=None, progress_callback=None):
        """Grow (and, where the learner prunes, prune) the tree.

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n_samples, n_features), finite
            A sparse matrix is densified, up to
            :data:`~orangecontrib.oblique.core.validation.MAX_DENSE_BYTES` as a dense
            array; above that the fit is a ValueError that gives the dense size.
        y : array-like of shape (n_samples,), class labels of any hashable type
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; they scale the row's share of every class count (and so
            impurities, gains, hyperplanes and probabilities): a row of weight 2 counts as
            two copies of the row there.  Rows of weight 0 are ignored.  Only the ratios
            of the weights matter: they are rescaled to sum to the number of rows of
            positive weight before the tree is grown
            (:func:`~orangecontrib.oblique.core.validation.normalised_sample_weight`), so
            multiplying all weights by a positive constant gives the same tree, and equal
            weights give the unweighted tree.  The tree's class counts (``tree_.value``)
            are in the given weights.  Weights whose sum overflows, or whose largest is
            more than 1/ε ≈ 4.5e15 times their smallest positive one, are a ValueError.
            Minimum-size rules (``min_samples_split``, ``min_samples_leaf``) count rows,
            not weight.
        progress_callback : callable(fraction) or None
            Called while the tree grows with the fraction of training rows already in a
            leaf; an exception it raises aborts the fit.
        """
        self._validate_params()
        X, y = validate_training_data(self, X, y)
        check_classification_labels(y)
        sample_weight = checked_sample_weight(sample_weight, X.shape[0])
        given = sample_weight
        sample_weight, unit = normalised_sample_weight(given)
        keep = sample_weight > 0
        if keep.all():
            keep = slice(None)  # no copy of the data when every row counts
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        y_encoded = y_encoded.astype(np.intp)
        self.tree_ = self._build_tree(
            X[keep], y_encoded[keep], sample_weight[keep],
            check_random_state(getattr(self, "random_state", None)), progress_callback)
        if not np.array_equal(sample_weight, given):
            _count_given_weights(self.tree_, X[keep], y_encoded[keep], given[keep], unit)
        # printed rules route these rows as the tree does; the scales that
        # feature_importances_ shares each split's decrease by (one pass when the rows are
        # the same)
        if isinstance(keep, slice):
            self.tree_.calibrate_text_and_scales(X, sample_weight)
        else:
            self.tree_.calibrate_text(X)
            self.tree_.store_feature_scales(X[keep], sample_weight[keep])
        return self

    def _build_tree(self, X, y, sample_weight, random_state, progress_callback):
        """Return the fitted :class:`ObliqueTree` (``y``: class codes 0 .. K-1)."""
        raise NotImplementedError

    def _grow_and_prune(self, X, y, sample_weight, random_state, grow):
        """Hold out ``pruning_portion`` of the rows, ``grow(X, y, sample_weight)`` a tree on
        the rest and prune it by cost-complexity pruning on the held-out rows with the
        ``se_rule``-SE rule (OC1 Section 3; Breiman et al. 1984, ch. 3).

        The held-out rows decide the pruning only; they do not relabel the leaves (as in
        the original OC1 program, whose leaves keep the class of the rows they were grown
        on).  So the pruned tree's predictions, ``tree.proba`` (the Orange model's
        probabilities, the viewer's predicted class), are the class distributions of the
        *growing* rows, while its class counts ``tree.value`` (the counts the viewers
        show, ``n_node_samples``) are those of *all* training rows, so that every row a
        model was trained on is counted in the nodes it reaches, as the rows Orange's
        viewers select there.  A node where the two disagree shows counts whose majority
        is not its prediction.  The growing rows' counts are kept as ``tree.grow_value``.
        (Feature importances weigh each node's Gini index of ``proba`` by its count of
        all rows.)

        With fewer than :data:`MIN_PRUNING_ROWS` held-out rows (fewer than 50 training
        rows at OC1's 10 %) the tree is grown on all rows and not pruned: a held-out error
        that moves in steps of 20 % or more cannot tell pruned trees apart, and ties prune
        to the root (one held-out row of 14 made every leave-one-out fit a single leaf)."""
        grow_rows, prune_rows = holdout_split(y, self.pruning_portion, random_state)
        if len(prune_rows) < MIN_PRUNING_ROWS:
            # too few held-out rows to choose among pruned trees: grow on all rows, unpruned
            return grow(X, y, sample_weight)
        grown = grow(X[grow_rows], y[grow_rows], sample_weight[grow_rows])
        grown = prune_with_holdout(grown, X[prune_rows], y[prune_rows],
                                   sample_weight[prune_rows], self.se_rule)
        tree = grown.recounted(X, y, sample_weight)
        if sparse.issparse(tree.value) != sparse.issparse(grown.value):
            # many classes: both counts in the form the growing rows' took
            tree.value = (sparse.csr_matrix(tree.value) if sparse.issparse(grown.value)
                          else tree.value.toarray())
        # predictions from the growing rows (the same node ids); their counts are kept
        tree.proba, tree.grow_value = grown.proba, grown.value
        if sparse.issparse(grown.proba):  # the nodes whose rows of proba are their source's
            tree.proba_source = getattr(grown, "proba_source", None)
        return tree

    def _validated(self, X):
        """``X`` checked for prediction: finite, as many features as in ``fit``; a sparse
        matrix stays sparse (the methods densify blocks of its rows,
        :func:`~orangecontrib.oblique.core.validation.map_row_chunks`), and no rows are
        no predictions (an empty result)."""
        check_is_fitted(self, "tree_")
        return validate_prediction_data(self, X)

    def unseen_codes_as_missing(self, X):
        """The dense rows ``X`` with every code of a nominal attribute that no training
        row had (ODT-SVM's ``categorical_features``: a larger, negative or non-integer
        code) as NaN: such a value is a missing value, predicted exactly as NaN is.
        ``X`` itself when it has none (and for an estimator without nominal attributes).
        Every prediction passes its rows through this (and the Orange models, through
        :func:`~orangecontrib.oblique.core.validation.unseen_codes_as_missing`)."""
        return unseen_codes_as_missing(X, getattr(self, "seen_codes_", None))

    def _through_tree(self, method, X):
        """The method named ``method`` of ``tree_`` on the rows of ``X`` validated for
        prediction, with unseen nominal codes as missing values
        (:meth:`unseen_codes_as_missing`), a sparse ``X`` in blocks of rows."""
        X = self._validated(X)
        method = getattr(self.tree_, method)
        return map_row_chunks(lambda rows: method(self.unseen_codes_as_missing(rows)), X)

    def predict_proba(self, X):
        """Class probabilities: the class distribution of the leaf each row reaches."""
        return self._through_tree("predict_proba", X)

    def predict(self, X):
        probabilities = self.predict_proba(X)
        return self.classes_[np.argmax(probabilities, axis=1)]

    def apply(self, X):
        """Leaf node id of every row."""
        return self._through_tree("apply", X)

    def decision_path(self, X):
        """Sparse (n_samples, node_count) indicator of the nodes each row passes."""
        return self._through_tree("decision_path", X)

    def get_depth(self):
        check_is_fitted(self, "tree_")
        return self.tree_.depth

    def get_n_leaves(self):
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        """Impurity-based importance of every feature: non-negative, summing to 1.

        Every internal node contributes its weighted Gini decrease
        ``N_t·gini(t) − Σ_c N_c·gini(c)`` (over the weighted class counts of the training
        rows, ``tree_.value``), as scikit-learn's mean decrease in impurity; the node
        shares it among the features its split uses in proportion to ``|w_j| · std_j``,
        where ``|w_j|`` is the feature's largest absolute weight in the split (over the
        rows of an argmax or nearest-centre split's map) and ``std_j`` the (weighted)
        standard deviation of feature ``j`` over the training rows that reach the node.
        ``|w_j| · std_j`` is how much the feature moves the split's value among the rows
        the split actually separates: it does not depend on the feature's units, and a
        feature that hardly varies at the node gets little of its decrease however large
        its weight.  The per-node deviations are computed once, at the end of ``fit``
        (one pass of the training rows through the tree, only for the features each split
        uses) and kept on the tree
        (:meth:`~orangecontrib.oblique.core.ObliqueTree.store_feature_scales`); a tree
        pickled before they were kept uses ``std_j = 1``.  A split on one feature gives
        it the whole decrease, so a tree of axis-parallel splits gets exactly
        scikit-learn's importances.  See
        :meth:`~orangecontrib.oblique.core.ObliqueTree.feature_importances`.

        A tree that is a single leaf has no split to credit: all zeros, as in
        scikit-learn.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.feature_importances()

    def get_split_statistics(self):
        """How oblique the fitted tree is: its number of splits (internal nodes), how
        many weigh two or more features, and the mean number of features per split
        (:class:`~orangecontrib.oblique.core.tree.structure.SplitStatistics`)."""
        check_is_fitted(self, "tree_")
        return self.tree_.split_statistics()

    def export_text(self, feature_names=None, decimals=3, show_counts=True,
                    value_names=None):
        """The fitted tree as indented rules in the original feature units
        (:meth:`~.tree.ObliqueTree.export_text`); the features are named by
        ``feature_names``, else the data frame's columns of the fit, else the names an
        ensemble gave its member's tree, else ``x1 .. xd``.  ``value_names``: per
        feature, the names of a nominal attribute's value codes (``None`` for a numeric
        one), for ODT-SVM's tests ``x = value``."""
        check_is_fitted(self, "tree_")
        if feature_names is None and hasattr(self, "feature_names_in_"):
            feature_names = list(self.feature_names_in_)
        return self.tree_.export_text(feature_names, [str(c) for c in self.classes_],
                                      decimals, show_counts, value_names)

    def _more_tags(self):
        """The estimator tags as scikit-learn before 1.6 reads them (its documented way
        then; later versions read :meth:`__sklearn_tags__`)."""
        return {"allow_nan": bool(getattr(self, "accepts_missing_values", False))}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = bool(getattr(self, "accepts_missing_values", False))
        tags.input_tags.sparse = True  # densified up to validation.MAX_DENSE_BYTES
        return tags


def _count_given_weights(tree, X, y, sample_weight, unit):
    """Make the class counts of ``tree``, grown on weights rescaled by
    :func:`~orangecontrib.oblique.core.validation.normalised_sample_weight`, the sums of
    the weights the caller gave (``sample_weight``, of the rows ``X, y`` the tree was
    fitted on; ``unit``: the given weight of one rescaled unit): ``tree.value`` is
    recounted (integer weights give integer counts), the counts of the growing rows of a
    tree pruned on held-out rows (``grow_value``) are rescaled.  The predicted
    distributions (``tree.proba``) do not change."""
    value = tree.recounted(X, y, sample_weight).value
    # (many classes: in the form the tree keeps them, as its proba)
    tree.value = (sparse.csr_matrix(value) if sparse.issparse(tree.proba)
                  and not sparse.issparse(value) else value)
    if getattr(tree, "grow_value", None) is not None:
        tree.grow_value = tree.grow_value * unit
