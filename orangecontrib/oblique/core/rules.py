"""Splits as readable rules, in raw feature units.

A hyperplane ``w·x + b >= 0`` is written with the bias moved to the right-hand side,
``0.82·petal length + 0.57·petal width ≥ 3.1``; a test on a single feature is divided by its
weight, ``petal length ≥ 2.45``.

The numbers of a rule have the split's own count of significant digits
(:attr:`Split.print_digits`, calibrated at fit time), never a fixed count of decimals: with
attributes of large magnitude a weight such as 0.000572 would otherwise print as 0.001 and
the printed rule would send rows to the other branch.  A printed rule routes every training
row exactly as the model does (:meth:`Split.printed`).
"""
import numpy as np

from .tree import ARGMAX, DIGITS, EQUALITY, HYPERPLANE, NEAREST_CENTRE, round_significant


def format_number(value, decimals=3):
    """Round to ``decimals`` digits after the point, drop trailing zeros; never print a
    non-zero number as 0 (fall back to ``decimals`` significant digits).  A negative number
    starts with the minus sign U+2212."""
    value = float(value)
    if value < 0:
        return "−" + format_number(-value, decimals)
    if value == 0 or not np.isfinite(value):  # also -0.0; inf, nan
        return "0" if value == 0 else str(value)
    text = f"{value:.{max(decimals, 0)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text == "0" and value != 0:
        text = f"{value:.{max(decimals, 1)}g}"
    return text


def format_significant(value, digits=DIGITS):
    """``value`` rounded to ``digits`` significant digits, written out without an exponent
    (``0.000572``, ``89.06``, ``123500``) unless it is astronomically large or small; the
    text reads back as exactly the rounded float.  Minus is U+2212."""
    value = float(value)
    if value < 0:
        return "−" + format_significant(-value, digits)
    if value == 0 or not np.isfinite(value):
        return "0" if value == 0 else str(value)
    rounded = float(round_significant(value, digits))
    if 1e-12 <= rounded < 1e16:
        return np.format_float_positional(rounded, trim="-")
    return np.format_float_scientific(rounded, trim="-").replace("-", "−")


def linear_terms(weights, feature_names, digits=DIGITS, order=None, max_terms=None):
    """``w1·a + w2·b − w3·c`` for the non-zero weights; returns (text, n_omitted).

    ``order`` lists feature indices in the order to print them (default: feature order);
    with ``max_terms`` only the first terms are printed and the rest are counted.  Weights
    have ``digits`` significant digits.
    """
    weights = np.asarray(weights, dtype=float)
    if order is None:
        order = np.arange(weights.size)
    used = [int(j) for j in order if weights[j] != 0]
    shown = used if max_terms is None else used[:max_terms]
    text = ""
    for j in shown:
        magnitude = format_significant(abs(weights[j]), digits)
        term = feature_names[j] if magnitude == "1" else f"{magnitude}·{feature_names[j]}"
        if not text:
            text = term if weights[j] > 0 else f"−{term}"
        else:
            text += f" + {term}" if weights[j] > 0 else f" − {term}"
    return text or "0", len(used) - len(shown)


def hyperplane_sides(weights, bias, feature_names, digits=DIGITS, order=None,
                     max_terms=None):
    """(left, right) condition texts of the hyperplane split ``w·x + b >= 0``."""
    weights = np.asarray(weights, dtype=float)
    used = np.flatnonzero(weights)
    if used.size == 1:
        j = int(used[0])
        threshold = format_significant(-bias / weights[j], digits)
        if weights[j] > 0:
            return f"{feature_names[j]} < {threshold}", f"{feature_names[j]} ≥ {threshold}"
        return f"{feature_names[j]} > {threshold}", f"{feature_names[j]} ≤ {threshold}"
    lhs, omitted = linear_terms(weights, feature_names, digits, order, max_terms)
    if omitted:
        lhs += f" + {omitted} more"
    rhs = format_significant(-bias, digits)
    return f"{lhs} < {rhs}", f"{lhs} ≥ {rhs}"


def branch_conditions(split, feature_names, digits=None, order=None, max_terms=None):
    """One condition text per child of ``split``, in child order; numbers have ``digits``
    significant digits (default: the split's own :attr:`~Split.print_digits`)."""
    digits = split.print_digits if digits is None else digits
    if split.rule == HYPERPLANE:
        return list(hyperplane_sides(split.weights[0], split.bias[0], feature_names,
                                     digits, order, max_terms))
    if split.rule == EQUALITY:
        j = int(split.features_used[0])
        value = (split.child_labels[0] if split.child_labels
                 else format_significant(-split.bias[0] / split.weights[0, j], digits))
        return [f"{feature_names[j]} = {value}", f"{feature_names[j]} ≠ {value}"]
    labels = split.child_labels or [str(k + 1) for k in range(split.n_children)]
    if split.rule == ARGMAX:
        return [f"largest score: {label}" for label in labels]
    assert split.rule == NEAREST_CENTRE
    return [f"nearest centre: {label}" for label in labels]


def split_description(split, feature_names, digits=None, order=None, max_terms=None):
    """The quantity a split tests, e.g. ``0.8·a − 0.6·b + 1.2`` or the feature name."""
    digits = split.print_digits if digits is None else digits
    if split.rule in (HYPERPLANE, EQUALITY) and split.features_used.size == 1:
        return feature_names[int(split.features_used[0])]
    rows = []
    for weights, bias in zip(split.weights, split.bias):
        text, omitted = linear_terms(weights, feature_names, digits, order, max_terms)
        if omitted:
            text += f" + {omitted} more"
        if bias != 0:
            text += (" + " if bias > 0 else " − ") + format_significant(abs(bias), digits)
        rows.append(text)
    return "; ".join(rows)
