"""Data preparation shared by the learners: per-node standardisation of the features and
stratified sampling of rows.

* :class:`Standardisation` centres and scales the columns of a node's rows before a
  hyperplane is searched for (GDT's ``standardize``; OC1, Section 2.4; ODT-SVM, Fig. 2,
  step 2.3) and maps the hyperplane found back to raw units.
* :func:`stratified_sample` draws rows class by class in proportion to the class sizes:
  the held-out rows of cost-complexity pruning (OC1, Section 3) and the training subsets
  of the Hedge ensemble's members (ODT-SVM paper, Section VI).
"""
import numpy as np


class Standardisation:
    """Centring and scaling ``z = (x − mean) / scale`` of the columns of a node's rows,
    and the map of a hyperplane over ``z`` back to raw units.

    Made by :meth:`from_rows` (or :meth:`identity` for none).

    Attributes
    ----------
    mean, scale : ndarray of shape (n_features,)
    zero_columns : ndarray of bool, shape (n_features,)
        Columns that are 0 in every transformed row; :meth:`raw_weights` gives them
        weight 0.
    """

    def __init__(self, mean, scale, zero_columns):
        self.mean, self.scale, self.zero_columns = mean, scale, zero_columns

    @classmethod
    def from_rows(cls, X, weights=None):
        """Mean and standard deviation of the columns of ``X``.

        A column constant in ``X`` (exact test: a spread of 1e-12 is a scale, not noise)
        gets scale 1 and its value as mean -- the computed mean of equal values need not
        equal them -- so that it is exactly 0 after :meth:`transform`.  A hyperplane
        search would otherwise use its rounding noise (1e-15) as a second bias with a huge
        coefficient, which cancels against the bias in raw units to rounding noise.

        Parameters
        ----------
        X : ndarray of shape (n_rows, n_features)
        weights : ndarray of shape (n_rows,) or None
            Row weights of the mean and variance (:func:`numpy.average`: a row of weight 2
            acts as two copies); None for the plain ``X.mean`` and ``X.std``, which have
            the same values for equal weights but not always the same last bits.
        """
        if weights is None:
            mean, scale = X.mean(axis=0), X.std(axis=0)
        else:
            mean = np.average(X, axis=0, weights=weights)
            scale = np.sqrt(np.average((X - mean) ** 2, axis=0, weights=weights))
        # np.ptp(X, axis=0) on the columns as rows: the same numbers, several times faster
        # than numpy's reduction across the rows of a few columns
        columns = np.ascontiguousarray(X.T)
        constant = columns.max(axis=1) - columns.min(axis=1) == 0
        scale[~(scale > 0) | constant] = 1.0
        mean[constant] = X[0, constant]
        return cls(mean, scale, constant)

    @classmethod
    def identity(cls, X):
        """No centring or scaling; the zero columns are those that are 0 in every row of
        ``X``."""
        n_features = X.shape[1]
        return cls(np.zeros(n_features), np.ones(n_features), ~np.any(X, axis=0))

    def transform(self, X):
        """``(X − mean) / scale``."""
        return (X - self.mean) / self.scale

    def raw_weights(self, weights):
        """Weights (last axis: features) of a hyperplane over standardised features,
        in raw units; 0 on the zero columns, whose weight moves no row of the node."""
        raw = weights / self.scale
        raw[..., self.zero_columns] = 0.0
        return raw

    def raw_bias(self, raw_weights, bias):
        """The bias in raw units of the hyperplane ``w·z + bias = 0`` whose weights in
        raw units are ``raw_weights`` (from :meth:`raw_weights`)."""
        return bias - raw_weights @ self.mean


def stratified_sample(codes, size, random_state, one_per_class=False,
                      keep_one_per_class=False, random_ties=False,
                      shuffle_every_class=False):
    """Indices (sorted) of ``size`` rows drawn without replacement, stratified by class.

    Each class gets its proportional share ``size · n_k / n`` rounded down; the rows still
    missing go one each to the classes of largest remainder (Hamilton's method).  The
    flags keep the two callers' rules and their use of ``random_state``: the Hedge
    ensemble's subsets (:func:`~orangecontrib.oblique.core.ensemble.hedge.stratified_subset`)
    set ``one_per_class``, the held-out rows of pruning
    (:func:`~orangecontrib.oblique.core.tree.pruning.holdout_split`) set the other three.

    Parameters
    ----------
    codes : ndarray of int, shape (n_rows,)
        Class codes 0 .. K-1; every code occurs at least once.
    size : int
        Number of rows to draw, 1 <= ``size`` < ``n_rows``.
    random_state : numpy.random.RandomState or numpy.random.Generator
    one_per_class : bool, default False
        Every class gives at least one row whenever ``size >= K`` (shares are then taken
        back from the classes furthest above their quota).
    keep_one_per_class : bool, default False
        Every class keeps at least one row out of the sample (which then has fewer than
        ``size`` rows if ``size > n_rows − K``).
    random_ties : bool, default False
        Classes of equal remainder get rows in random order, else in the order of their
        codes.
    shuffle_every_class : bool, default False
        Shuffle the rows of every class, also of one that gives no rows, so that the
        numbers drawn from ``random_state`` do not depend on the shares.
    """
    counts = np.bincount(codes)
    quota = size * counts / len(codes)
    maximum = counts - 1 if keep_one_per_class else counts
    minimum = 1 if one_per_class and size >= len(counts) else 0
    take = np.clip(np.floor(quota).astype(np.intp), minimum, maximum)
    while take.sum() > size:
        surplus = np.where(take > minimum, take - quota, -np.inf)
        take[np.argmax(surplus)] -= 1
    order = random_state.permutation(len(counts)) if random_ties else np.arange(len(counts))
    remaining = size - take.sum()
    for code in order[np.argsort(take[order] - quota[order], kind="stable")]:
        if remaining and take[code] < maximum[code]:
            take[code] += 1
            remaining -= 1
    chosen = [random_state.permutation(np.flatnonzero(codes == code))[:count]
              for code, count in enumerate(take) if count or shuffle_every_class]
    return np.sort(np.concatenate(chosen))
