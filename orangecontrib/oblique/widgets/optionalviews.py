"""The Oblique Tree Viewer's optional views: the split explorer and the 2-D partition.

Both need pyqtgraph (:mod:`~orangecontrib.oblique.widgets.splitviews`); without it the
viewer has no such tabs and these functions do nothing.  They draw only an oblique tree
(one with a core tree, :attr:`ObliqueTreeAdapter.tree`) and only rows the tree routes:
rows with a missing feature are left out.
"""
import numpy as np

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
    X, y = rows_without_nan(tree, data, counts.reached[node])
    split_explorer.set_node(core, tree.core_node(node), X, y, class_colors(tree),
                            tree.vocabulary, tree.class_values)


def show_partition(partition_view, model, tree, data):
    """Show in ``partition_view`` how an oblique ``tree`` (of ``model``) partitions the
    rows of ``data``; clear it for another tree or without data."""
    if partition_view is None:
        return
    if getattr(tree, "tree", None) is None or data is None:
        partition_view.clear()
        return
    X, y = rows_without_nan(tree, data)
    partition_view.set_model(model, X, y, class_colors(tree), tree.names, tree.class_values)
