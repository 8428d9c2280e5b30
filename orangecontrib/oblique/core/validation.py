"""Input checks shared by the core estimators (and the Orange learners): the data,
instance weights and sparse data.  (The parameters are checked against their
declarations: :mod:`~orangecontrib.oblique.core.parameters`.)

* :func:`normalised_sample_weight` -- weights rescaled to sum to the number of rows of
  positive weight, so that only their ratios matter; a ValueError for weights whose sum
  overflows or that spread beyond double precision (:data:`MAX_WEIGHT_RATIO`).
* :func:`densified` and :func:`map_row_chunks` -- sparse input: densified for fitting up
  to :data:`MAX_DENSE_BYTES`, refused above it; predicted on in blocks of rows.
* :func:`check_classification_labels` -- scikit-learn's check of class labels, answered
  at once for labels that are plainly classes; :func:`validate_training_data` and
  :func:`validate_prediction_data` -- a fit's and a prediction's data checked through
  scikit-learn's public ``check_X_y`` / ``check_array``, with ``n_features_in_`` and
  ``feature_names_in_`` set and compared as scikit-learn's estimators do (its
  ``validate_data`` is public only from scikit-learn 1.6); :func:`checked_sample_weight`
  -- a fit's instance weights.
* :func:`seen_codes` and :func:`unseen_codes_as_missing` -- nominal attributes given as
  codes: a code that no training row had is a missing value (NaN) in prediction.
* :func:`check_memory` -- a size a parameter asks for (members of an ensemble,
  projections of a node, k-means starts) refused at the start of the fit when it needs
  more memory than the machine has (:func:`machine_memory`), not a MemoryError later.
"""
import ctypes
import inspect
import numbers
import os
import sys
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_array, check_X_y
from sklearn.utils.multiclass import check_classification_targets

__all__ = ["normalised_sample_weight", "checked_sample_weight", "MAX_WEIGHT_RATIO",
           "MAX_DENSE_BYTES", "densified", "dense_size_error", "map_row_chunks",
           "check_classification_labels", "validate_training_data",
           "validate_prediction_data", "seen_codes", "unseen_codes_as_missing",
           "machine_memory", "check_memory", "MEMBER_BYTES"]


# ----- class labels, at a small fit's cost -----

#: Floats up to this magnitude are whole numbers exactly when ``astype(int)`` keeps them.
_EXACT_INTEGERS = 2.0 ** 52


def check_classification_labels(y):
    """scikit-learn's ``check_classification_targets(y)`` for the 1-d, finite ``y`` that
    :func:`validate_training_data` returns: labels of an integer or bool type, or floats that are
    whole numbers of at most 2⁵² (which ``type_of_target`` calls binary or multiclass),
    pass without it (it costs some 0.25 ms, a twentieth of a small fit); any other ``y``
    goes to it, and so meets its own error."""
    if y.ndim == 1 and (y.dtype.kind in "biu" or (
            y.dtype.kind == "f" and y.size
            and float(np.max(np.abs(y))) <= _EXACT_INTEGERS
            and bool(np.all(y == np.floor(y))))):
        return
    check_classification_targets(y)


def _finite_sum(X):
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(np.sum(X)))


# ----- the data of a fit and of a prediction -----

def _feature_names(X):
    """The column names of a data frame (pandas, or any with the data frame interchange
    protocol) when they are all strings, as an object array; None for other data or other
    names.  Names of strings mixed with other types are a TypeError (scikit-learn's
    rule and message)."""
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(X, pandas.DataFrame):
        names = np.asarray(X.columns, dtype=object)
    elif hasattr(X, "__dataframe__") and not sp.issparse(X):
        names = np.asarray(list(X.__dataframe__().column_names()), dtype=object)
    else:
        return None
    if len(names) == 0:
        return None
    types = sorted(t.__qualname__ for t in {type(name) for name in names})
    if len(types) > 1 and "str" in types:
        raise TypeError(
            f"Feature names are only supported if all input features have string names, "
            f"but your input has {types} as feature name / column name types. If you want "
            f"feature names to be stored and validated, you must convert them all to "
            f"strings, by using X.columns = X.columns.astype(str) for example. Otherwise "
            f"you can remove feature / column names from your input data, or convert them "
            f"all to a non-string data type.")
    return names if types == ["str"] else None


def _list_names(names, at_most=5):
    return "".join(f"- {name}\n" for name in names[:at_most]) + (
        "- ...\n" if len(names) > at_most else "")


def _check_feature_names(estimator, X):
    """Compare the column names of prediction data ``X`` with those of the fit
    (``feature_names_in_``), as scikit-learn's estimators do: a UserWarning when only one
    of them has names, a ValueError listing the differences when they differ."""
    fitted = getattr(estimator, "feature_names_in_", None)
    given = _feature_names(X)
    name = type(estimator).__name__
    if fitted is None and given is None:
        return
    if fitted is None:
        warnings.warn(f"X has feature names, but {name} was fitted without feature names",
                      UserWarning)
        return
    if given is None:
        warnings.warn(f"X does not have valid feature names, but {name} was fitted with "
                      f"feature names", UserWarning)
        return
    if len(fitted) == len(given) and np.all(fitted == given):
        return
    message = "The feature names should match those that were passed during fit.\n"
    unseen = sorted(set(given) - set(fitted))
    missing = sorted(set(fitted) - set(given))
    if unseen:
        message += "Feature names unseen at fit time:\n" + _list_names(unseen)
    if missing:
        message += "Feature names seen at fit time, yet now missing:\n" + _list_names(missing)
    if not unseen and not missing:
        message += "Feature names must be in the same order as they were in fit.\n"
    raise ValueError(message)


def _set_feature_names(estimator, X):
    names = _feature_names(X)
    if names is not None:
        estimator.feature_names_in_ = names
    elif hasattr(estimator, "feature_names_in_"):
        del estimator.feature_names_in_      # fitted before on named columns


def _check_n_features(estimator, X):
    expected = getattr(estimator, "n_features_in_", None)
    if expected is not None and X.shape[1] != expected:
        raise ValueError(f"X has {X.shape[1]} features, but {type(estimator).__name__} "
                         f"is expecting {expected} features as input.")


def validate_training_data(estimator, X, y, reset=True):
    """``X, y`` of a fit checked as scikit-learn's estimators check them (its public
    ``check_X_y``: finite float64 ``X`` of at least one row and column, a sparse ``X``
    densified first (:func:`densified`), ``y`` 1-d and as long), and ``n_features_in_``
    and ``feature_names_in_`` (a data frame's column names, when all are strings) set on
    ``estimator``; with ``reset=False`` (a later ``partial_fit``) compared with them
    instead, as :func:`validate_prediction_data` does.

    Data that plainly passes -- a 2-d float64 ``ndarray`` of at least one row and column
    and finite numbers, ``y`` a 1-d ``ndarray`` of integer or bool labels, one a row --
    is taken as it is without the checks (0.2 ms, of which most for data frames; a small
    fit takes 2-6 ms): such data has no feature names, and the checks would return the
    same two arrays.  (A finite sum of the numbers shows them all finite; a sum that
    overflows sends the data to the checks.)"""
    if reset:
        _set_feature_names(estimator, X)
    else:
        _check_feature_names(estimator, X)
    if not (type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2
            and X.shape[0] >= 1 and X.shape[1] >= 1
            and type(y) is np.ndarray and y.ndim == 1 and y.dtype.kind in "biu"
            and y.shape[0] == X.shape[0] and _finite_sum(X)):
        X, y = check_X_y(densified(X), y, dtype=np.float64, ensure_min_samples=1,
                         estimator=estimator, **_finiteness(estimator))
    if reset:
        estimator.n_features_in_ = X.shape[1]
    else:
        _check_n_features(estimator, X)
    return X, y


def validate_prediction_data(estimator, X):
    """``X`` of a prediction checked as scikit-learn's estimators check it (its public
    ``check_array``: finite float64, any number of rows, a sparse matrix kept as CSR) and
    against the fit: as many columns as ``n_features_in_`` and the same column names
    (:func:`_check_feature_names`), with scikit-learn's messages."""
    _check_feature_names(estimator, X)
    X = check_array(X, dtype=np.float64, accept_sparse="csr", ensure_min_samples=0,
                    estimator=estimator, input_name="X", **_finiteness(estimator))
    _check_n_features(estimator, X)
    return X


def seen_codes(X, columns):
    """Nominal column → the sorted codes that the rows of ``X`` have in it (missing values
    aside), for the nominal ``columns``: what prediction then knows
    (:func:`unseen_codes_as_missing`)."""
    return {int(j): np.unique(X[np.isfinite(X[:, j]), j]) for j in columns}


def unseen_codes_as_missing(X, codes):
    """The dense rows ``X`` with every value of a nominal column that is not among its
    ``codes`` (:func:`seen_codes`; a code no training row had: larger, negative,
    non-integer) replaced by NaN, a missing value; ``X`` itself when it has none, else a
    copy.  ``codes`` None or empty: ``X`` itself."""
    if not codes:
        return X
    replaced = X
    for column, known in codes.items():
        values = X[:, column]
        unseen = ~np.isin(values, known) & ~np.isnan(values)
        if unseen.any():
            if replaced is X:
                replaced = np.array(X, dtype=np.float64)
            replaced[unseen, column] = np.nan
    return replaced


def _finiteness(estimator):
    """The keyword of scikit-learn's ``check_array`` that lets NaN through for an
    estimator that takes missing values (``accepts_missing_values``, as scikit-learn's
    own trees take them; ±inf stays an error): ``ensure_all_finite`` (scikit-learn
    1.6+) or ``force_all_finite`` (1.5).  None for the others."""
    if not getattr(estimator, "accepts_missing_values", False):
        return {}
    name = ("ensure_all_finite" if "ensure_all_finite" in inspect.signature(
        check_array).parameters else "force_all_finite")
    return {name: "allow-nan"}


# ----- instance weights -----

#: The largest ratio of the largest to the smallest positive weight: ``1 / ε`` (2⁵², about
#: 4.5e15) of double precision.  A row lighter than ``ε`` times another is lost in the
#: rounding of any class count the two share, and the algorithms subtract such counts
#: (GDT's weight of the other classes, OC1's pruning errors): weights spread wider made
#: GDT fail in its eigensolver (from a ratio of about 1e20) and OC1 in pruning (1e17).
MAX_WEIGHT_RATIO = 1 / np.finfo(float).eps


def checked_sample_weight(sample_weight, n_samples):
    """The instance weights of a fit of ``n_samples`` rows as a float64 array of shape
    ``(n_samples,)``: None is weight 1 for every row, a number the same weight for every
    row; an array-like must hold one finite, non-negative weight a row, not all zero
    (scikit-learn's public ``check_array`` refuses NaN, infinities and what is not
    numbers).  Anything else is a ValueError that says what is wrong."""
    if sample_weight is None:
        return np.ones(n_samples)
    scalar = isinstance(sample_weight, numbers.Number)
    weights = check_array([sample_weight] if scalar else sample_weight,
                          ensure_2d=False, dtype=np.float64, order="C",
                          ensure_min_samples=0, input_name="sample_weight")
    if scalar:
        weights = np.full(n_samples, weights[0])
    if weights.ndim != 1:
        raise ValueError(f"sample_weight must be a number or a 1-d array of one weight per "
                         f"row, got an array of shape {weights.shape}")
    if weights.shape[0] != n_samples:
        raise ValueError(f"sample_weight has {weights.shape[0]} weights for {n_samples} "
                         f"rows: it must have one weight per row")
    negative = int(np.count_nonzero(weights < 0))
    if negative:
        raise ValueError(f"Negative values in data passed to `sample_weight`: {negative} "
                         f"of its {n_samples} weights; they must be non-negative")
    if not weights.any():
        raise ValueError("Sample weights must contain at least one non-zero number: "
                         "sample_weight is zero for every row, nothing to learn from")
    return weights


def normalised_sample_weight(sample_weight):
    """``(weights, unit)``: ``sample_weight`` rescaled to sum to the number of rows of
    positive weight, and the caller's weight of one rescaled unit.

    Only the ratios of the weights matter to the estimators: a row of weight 2 counts as
    two rows of weight 1, and multiplying every weight by the same positive constant
    changes nothing.  Weights are therefore rescaled, once, before fitting, so that the
    rows count as many as they are (as WEKA's boosting does before it trains J48 on
    reweighted instances, and as weights 1 are no weights in scikit-learn): the parts of
    the algorithms that count rows -- ODT-SVM's MDL cost per row, C4.5's pessimistic error
    counts, the SVM's ``C`` (which a weight multiplies) -- then see equal weights of any
    size as unweighted rows.  The weights are first divided by their largest, so equal
    weights become exactly 1, and weights whose sum would overflow are still rescaled
    exactly.

    Parameters
    ----------
    sample_weight : ndarray of shape (n_samples,)
        Finite, non-negative, not all zero (as :func:`checked_sample_weight` returns
        them).

    Returns
    -------
    weights : ndarray of shape (n_samples,)
    unit : float
        ``sample_weight ≈ weights · unit``: class counts of rescaled weights times
        ``unit`` are counts in the caller's weights (1.0 for weights that are all 1).

    Raises
    ------
    ValueError
        When the weights sum to more than the largest float (the class counts of the
        fitted tree, in the caller's weights, could not be represented), or when the
        largest positive weight is more than :data:`MAX_WEIGHT_RATIO` times the smallest.
    """
    with np.errstate(over="ignore"):
        total = float(np.sum(sample_weight))
    if not np.isfinite(total):
        raise ValueError(
            f"sample_weight sums to more than the largest float "
            f"({np.finfo(float).max:.3g}), so the weighted class counts cannot be "
            f"represented; only the ratios of the weights matter: divide them by a "
            f"constant (e.g. their largest value)")
    top = float(np.max(sample_weight))
    relative = sample_weight / top
    positive = relative > 0
    smallest = float(np.min(sample_weight[sample_weight > 0])) / top
    if smallest * MAX_WEIGHT_RATIO < 1:
        ratio = f"{1 / smallest:.3g}" if smallest > 0 else "more than 1e308"
        raise ValueError(
            f"sample_weight spans a ratio of {ratio} between its largest and its smallest "
            f"positive weight, more than double precision can add up "
            f"({MAX_WEIGHT_RATIO:.3g}): the lightest rows would be lost in the rounding "
            f"of any class count they share with the heaviest; give negligible rows "
            f"weight 0, or bring the weights closer together")
    n_positive = np.count_nonzero(positive)
    relative_total = float(relative.sum())
    return relative * (n_positive / relative_total), top * relative_total / n_positive


# ----- sparse data -----

#: The largest dense array, in bytes (8 per float64 value), that a sparse input is turned
#: into.  None of the algorithms works on sparse data (they standardise and centre
#: columns, and OC1 and ODT-SVM search over all of them), so a sparse matrix or table is
#: densified to fit; a 2,000 × 20,000 text table of 0.6 MB, densified to 320 MB, took
#: ODT-SVM to a peak of 2.7 GB.  Above this size the fit is refused (a ValueError saying
#: the dense size), and the data should be reduced first (fewer attributes or rows).
#: Dense input is taken as it is, of any size: its memory is already the caller's choice.
#: Prediction densifies sparse rows in blocks (:data:`PREDICTION_BLOCK_BYTES`), so it
#: has no limit.
MAX_DENSE_BYTES = 100_000_000
#: The largest block of rows, in bytes when dense, that prediction densifies at a time.
PREDICTION_BLOCK_BYTES = 16_000_000


def _megabytes(n_bytes):
    return f"{n_bytes / 1e6:,.0f} MB" if n_bytes >= 1e6 else f"{n_bytes / 1e6:.2g} MB"


def dense_size_error(shape, what="this sparse input", advice=None):
    """The ValueError for densifying a sparse array of ``shape`` above
    :data:`MAX_DENSE_BYTES`, or None when it is within the limit."""
    n_rows, n_columns = shape
    size = 8 * n_rows * n_columns
    if size <= MAX_DENSE_BYTES:
        return None
    if advice is None:
        advice = ("select fewer features (e.g. sklearn.feature_selection.SelectKBest) or "
                  "reduce them (e.g. sklearn.decomposition.TruncatedSVD), or pass a dense "
                  "array if the memory is there")
    return ValueError(
        f"{what} would take {_megabytes(size)} as a dense array ({n_rows:,} rows × "
        f"{n_columns:,} columns); the oblique trees need dense data and densify sparse "
        f"data only up to {_megabytes(MAX_DENSE_BYTES)}: {advice}.")


def densified(X, what="this sparse input", advice=None):
    """``X`` itself when it is not a scipy sparse matrix or array, else ``X.toarray()``;
    a ValueError (:func:`dense_size_error`) when that would exceed
    :data:`MAX_DENSE_BYTES`."""
    if not sp.issparse(X):
        return X
    error = dense_size_error(X.shape, what, advice)
    if error is not None:
        raise error
    return X.toarray()


def map_row_chunks(function, X):
    """``function(X)`` for a dense ``X``; for a sparse one, ``function`` of blocks of its
    rows densified (at most :data:`PREDICTION_BLOCK_BYTES` each), the results stacked
    (sparse results with ``scipy.sparse.vstack``), so that prediction needs no dense copy
    of all rows."""
    if not sp.issparse(X):
        return function(X)
    X = sp.csr_matrix(X)
    step = max(1, PREDICTION_BLOCK_BYTES // (8 * max(X.shape[1], 1)))
    parts = [function(X[start:start + step].toarray())
             for start in range(0, max(X.shape[0], 1), step)]
    if sp.issparse(parts[0]):
        return sp.vstack(parts, format="csr")
    return np.concatenate(parts)


# ----- sizes a parameter asks for, against the machine's memory -----

#: The least memory a member of an ensemble takes: a fitted tree of a single leaf is
#: about 1 KiB pickled (its arrays and attributes), more in memory.
MEMBER_BYTES = 1024


def machine_memory():
    """The machine's physical memory in bytes (POSIX ``sysconf``, Windows'
    ``GlobalMemoryStatusEx``), None where neither tells it."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        pass
    if sys.platform == "win32":
        class MemoryStatus(ctypes.Structure):  # pylint: disable=too-few-public-methods
            _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong),
                        ("ullTotalPhys", ctypes.c_ulonglong),
                        ("ullAvailPhys", ctypes.c_ulonglong),
                        ("ullTotalPageFile", ctypes.c_ulonglong),
                        ("ullAvailPageFile", ctypes.c_ulonglong),
                        ("ullTotalVirtual", ctypes.c_ulonglong),
                        ("ullAvailVirtual", ctypes.c_ulonglong),
                        ("ullAvailExtendedVirtual", ctypes.c_ulonglong)]
        status = MemoryStatus()
        status.dwLength = ctypes.sizeof(MemoryStatus)
        if ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):
            return int(status.ullTotalPhys)
    return None


def _bytes_text(n_bytes):
    for unit, size in (("TiB", 2 ** 40), ("GiB", 2 ** 30), ("MiB", 2 ** 20)):
        if n_bytes >= size:
            return f"{n_bytes / size:,.1f} {unit}"
    return f"{n_bytes:,} bytes"


def check_memory(name, value, n_bytes, what):
    """A ValueError naming the parameter ``name`` (of value ``value``) when ``what`` (as
    ``"100 trees of at least 2 KiB each"``) would need ``n_bytes``, more than the
    machine's memory: raised at the start of a fit instead of a MemoryError (or an hour
    of swapping) later.  No check where the memory is unknown."""
    memory = machine_memory()
    if memory is not None and n_bytes > memory:
        raise ValueError(
            f"{name}={value} asks for {what}: at least {_bytes_text(n_bytes)}, more than "
            f"this machine's memory ({_bytes_text(memory)}); choose a smaller {name}")
