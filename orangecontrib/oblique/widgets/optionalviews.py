"""The Oblique Tree Viewer's optional views: the split explorer and the 2-D partition.

Both need pyqtgraph (:mod:`~orangecontrib.oblique.widgets.splitviews`); without it the
viewer has no such tabs and these functions do nothing.  They draw only an oblique tree
(one with a core tree, :attr:`ObliqueTreeAdapter.tree`) and only rows the tree routes:
rows with a missing feature are left out.
"""
import numbers

import numpy as np

from orangecontrib.oblique.core.tree.rules import printable_name
from orangecontrib.oblique.widgets.treescene import class_colors

try:  # the split explorer and the 2-D partition are optional views
    from orangecontrib.oblique.widgets import splitviews
except ImportError:  # pragma: no cover
    splitviews = None


def add_optional_views(tabs):
    """Add the split explorer and the partition view to ``tabs``; return them, or
    (None, None) without :mod:`splitviews`."""
    if splitviews is None:  # pragma: no cover
        return None, None
    split_explorer, partition_view = splitviews.SplitExplorer(), splitviews.PartitionView()
    tabs.addTab(split_explorer, "Split explorer")
    tabs.addTab(partition_view, "Partition")
    return split_explorer, partition_view


def rows_without_nan(tree, data, rows=None):
    """Features (in the model's domain) and class indices of ``rows`` (default: all) of
    ``data``, rows with a missing feature left out (the views show what the tree
    routes)."""
    data = tree.transform(data)
    X = data.X.toarray() if hasattr(data.X, "toarray") else np.asarray(data.X, float)
    y = (np.full(len(data), np.nan) if data.domain.class_var is None
         else np.asarray(data.Y, float).reshape(-1))
    if rows is not None:
        X, y = X[rows], y[rows]
    known = ~np.isnan(X).any(axis=1)
    return X[known], y[known]


def show_split(split_explorer, tree, counts, data, selected):
    """Show in ``split_explorer`` the split of the one selected internal node of an
    oblique ``tree`` with the rows of ``data`` (counted in ``counts``) that reach it;
    clear it for any other selection."""
    if split_explorer is None:
        return
    core = getattr(tree, "tree", None)
    internal = [n for n in selected if not tree.is_leaf(n)] if tree is not None else []
    if core is None or counts is None or len(internal) != 1:
        split_explorer.clear()
        return
    node = internal[0]
    rows = counts.reached[node]
    X, y = rows_without_nan(tree, data, rows)
    split_explorer.set_node(core, tree.core_node(node), X, y, class_colors(tree),
                            tree.vocabulary, tree.class_values,
                            n_missing=len(rows) - len(X))


def categories(tree):
    """``{column: value names by code}`` of the binary and nominal columns of an oblique
    ``tree``'s domain: a nominal attribute kept as codes (ODT-SVM) has its values; a 0/1
    indicator column of a value, ``[the other value, the value]`` for a two-valued
    attribute and ``[not value, value]`` otherwise."""
    return {j: labels for j, (labels, _) in _category_words(tree).items()}


def held_words(tree):
    """``{column: words by code}`` of the binary and nominal columns of an oblique
    ``tree``'s domain, as the partition's line of held values says them:
    ``gender = female``, ``thal ≠ reversable defect``, ``thal = reversable defect``."""
    return {j: words for j, (_, words) in _category_words(tree).items()}


def value_groups(tree):
    """``[(columns, words)]``: the 0/1 indicator columns of each nominal attribute of
    more than two values in an oblique ``tree``'s domain, and ``{combination of codes:
    text}`` for every combination a row can have: ``status = crew`` where the column of
    crew is 1, and, where all are 0, the one value without a column (``status = third``)
    or the values without one (``status: none of crew, first``)."""
    columns = {}
    for j, variable in enumerate(tree.texts.variables):
        indicated = None if variable.is_discrete else _indicated(variable)
        if indicated is not None and len(indicated[0].values) > 2:
            columns.setdefault(indicated[0], []).append((j, indicated[1]))
    groups = []
    for origin, members in columns.items():
        if len(members) < 2:
            continue
        name = printable_name(origin.name)
        values = [printable_name(value) for value in origin.values]
        words = {}
        for k, (_, value) in enumerate(members):
            combination = tuple(int(i == k) for i in range(len(members)))
            words[combination] = f"{name} = {values[value]}"
        others = [values[v] for v in range(len(values)) if v not in {v for _, v in members}]
        if others:
            words[(0,) * len(members)] = (f"{name} = {others[0]}" if len(others) == 1 else
                                          f"{name}: none of "
                                          f"{', '.join(values[v] for _, v in members)}")
        groups.append(([j for j, _ in members], words))
    return groups


def _category_words(tree):
    """``{column: (labels by code, words by code)}`` of :func:`categories` and
    :func:`held_words`."""
    found = {}
    for j, variable in enumerate(tree.texts.variables):
        if variable.is_discrete:
            name = printable_name(variable.name)
            labels = [printable_name(value) for value in variable.values]
            found[j] = labels, [f"{name} = {label}" for label in labels]
            continue
        indicated = _indicated(variable)
        if indicated is not None:
            origin, value = indicated
            name, named = printable_name(origin.name), printable_name(origin.values[value])
            if len(origin.values) == 2:
                other = printable_name(origin.values[1 - value])
                found[j] = [other, named], [f"{name} = {other}", f"{name} = {named}"]
            else:
                found[j] = ([f"not {named}", named],
                            [f"{name} ≠ {named}", f"{name} = {named}"])
    return found


def _indicated(variable):
    """(nominal attribute, value index) of which ``variable`` is the 0/1 indicator,
    traced through the ``compute_value`` of the preprocessing (imputation …); None for
    a column of another kind."""
    while variable is not None:
        transformation = variable.compute_value
        origin = getattr(transformation, "variable", None)
        if origin is None or origin is variable:
            return None
        if origin.is_discrete:
            value = getattr(transformation, "value", None)
            if isinstance(value, numbers.Integral) and 0 <= value < len(origin.values):
                return origin, int(value)
            return None
        variable = origin
    return None


def default_axes(tree, node, X, kinds):
    """The two columns the partition plots first for the split of ``node`` (the root
    if ``node`` is None or a leaf): the numeric attributes that weigh most in it
    (``|w_j|·SD_j`` over ``X``), then its binary or nominal ones (``kinds``: the
    :func:`categories`), then the tree's other attributes by importance, numeric
    first."""
    core = tree.tree
    if node is None or tree.is_leaf(node):
        node = 0
    split = core.splits[tree.core_node(node)]
    n_features = X.shape[1]
    weights = (np.zeros(n_features) if split is None
               else np.abs(np.atleast_2d(split.weights)).max(axis=0))
    with np.errstate(invalid="ignore"):     # a column with ±inf has no SD: 0
        weighed = weights * np.nan_to_num(X.std(axis=0)) if len(X) else weights
    importances = np.nan_to_num(np.asarray(core.feature_importances(), dtype=float))

    def rank(j):
        return (2 * (weights[j] == 0) + (j in kinds), -weighed[j], -importances[j], j)
    return tuple(sorted(range(n_features), key=rank)[:2])


def show_partition(partition_view, model, tree, data, node=None):
    """Show in ``partition_view`` how an oblique ``tree`` (of ``model``) partitions the
    rows of ``data``, on the :func:`default_axes` of the split of ``node``, binary and
    nominal axes with their value names; clear it for another tree or without data."""
    if partition_view is None:
        return
    if getattr(tree, "tree", None) is None or data is None:
        partition_view.clear()
        return
    X, y = rows_without_nan(tree, data)
    kinds = categories(tree)
    features = default_axes(tree, node, X, kinds) if X.ndim == 2 and X.shape[1] > 2 else None
    partition_view.set_model(model, X, y, class_colors(tree), tree.names, tree.class_values,
                             features=features, categories=kinds,
                             held_words=held_words(tree), value_groups=value_groups(tree))
