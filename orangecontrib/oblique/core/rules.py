"""Splits as readable rules, in raw feature units.

A hyperplane ``w·x + b >= 0`` is written with the bias moved to the right-hand side,
``0.82·petal length + 0.57·petal width ≥ 3.1``; a test on a single feature is divided by its
weight, ``petal length ≥ 2.45``.
"""
import numpy as np

from .tree import ARGMAX, EQUALITY, HYPERPLANE, NEAREST_CENTRE


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


def linear_terms(weights, feature_names, decimals=3, order=None, max_terms=None):
    """``w1·a + w2·b − w3·c`` for the non-zero weights; returns (text, n_omitted).

    ``order`` lists feature indices in the order to print them (default: feature order);
    with ``max_terms`` only the first terms are printed and the rest are counted.
    """
    weights = np.asarray(weights, dtype=float)
    if order is None:
        order = np.arange(weights.size)
    used = [int(j) for j in order if weights[j] != 0]
    shown = used if max_terms is None else used[:max_terms]
    text = ""
    for j in shown:
        magnitude = format_number(abs(weights[j]), decimals)
        term = feature_names[j] if magnitude == "1" else f"{magnitude}·{feature_names[j]}"
        if not text:
            text = term if weights[j] > 0 else f"−{term}"
        else:
            text += f" + {term}" if weights[j] > 0 else f" − {term}"
    return text or "0", len(used) - len(shown)


def hyperplane_sides(weights, bias, feature_names, decimals=3, order=None, max_terms=None):
    """(left, right) condition texts of the hyperplane split ``w·x + b >= 0``."""
    weights = np.asarray(weights, dtype=float)
    used = np.flatnonzero(weights)
    if used.size == 1:
        j = int(used[0])
        threshold = format_number(-bias / weights[j], decimals)
        if weights[j] > 0:
            return f"{feature_names[j]} < {threshold}", f"{feature_names[j]} ≥ {threshold}"
        return f"{feature_names[j]} > {threshold}", f"{feature_names[j]} ≤ {threshold}"
    lhs, omitted = linear_terms(weights, feature_names, decimals, order, max_terms)
    if omitted:
        lhs += f" + {omitted} more"
    rhs = format_number(-bias, decimals)
    return f"{lhs} < {rhs}", f"{lhs} ≥ {rhs}"


def branch_conditions(split, feature_names, decimals=3, order=None, max_terms=None):
    """One condition text per child of ``split``, in child order."""
    if split.rule == HYPERPLANE:
        return list(hyperplane_sides(split.weights[0], split.bias[0], feature_names,
                                     decimals, order, max_terms))
    if split.rule == EQUALITY:
        j = int(split.features_used[0])
        value = (split.child_labels[0] if split.child_labels
                 else format_number(-split.bias[0] / split.weights[0, j], decimals))
        return [f"{feature_names[j]} = {value}", f"{feature_names[j]} ≠ {value}"]
    labels = split.child_labels or [str(k + 1) for k in range(split.n_children)]
    if split.rule == ARGMAX:
        return [f"largest score: {label}" for label in labels]
    assert split.rule == NEAREST_CENTRE
    return [f"nearest centre: {label}" for label in labels]


def split_description(split, feature_names, decimals=3, order=None, max_terms=None):
    """The quantity a split tests, e.g. ``0.8·a − 0.6·b + 1.2`` or the feature name."""
    if split.rule in (HYPERPLANE, EQUALITY) and split.features_used.size == 1:
        return feature_names[int(split.features_used[0])]
    rows = []
    for weights, bias in zip(split.weights, split.bias):
        text, omitted = linear_terms(weights, feature_names, decimals, order, max_terms)
        if omitted:
            text += f" + {omitted} more"
        if bias != 0:
            text += (" + " if bias > 0 else " − ") + format_number(abs(bias), decimals)
        rows.append(text)
    return "; ".join(rows)
