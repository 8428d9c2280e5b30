"""Positions of a tree's nodes for drawing (no Qt): leaves left to right, parents centred.

Layout is kept apart from drawing (:mod:`~orangecontrib.oblique.widgets.treescene`) and
from the tree's contents (:mod:`~orangecontrib.oblique.widgets.treeadapter`), as in
scikit-learn's exporters.
"""

__all__ = ["layout"]


def layout(tree, visible_children, node_width, gap=16):
    """x (centre) and level of every visible node: leaves of the visible tree take
    consecutive slots left to right, a parent is centred over its children.

    ``visible_children[node]`` are the children drawn (empty for a collapsed node or at
    the depth limit); returns {node: x}.
    """
    xs = {}
    next_slot = 0.0
    step = node_width + gap
    stack = [(0, False)]
    while stack:  # post-order without recursion (deep trees)
        node, done = stack.pop()
        kids = visible_children[node]
        if not kids:
            xs[node] = next_slot
            next_slot += step
        elif done:
            xs[node] = (xs[kids[0]] + xs[kids[-1]]) / 2
        else:
            stack.append((node, True))
            stack.extend((kid, False) for kid in reversed(kids))
    return xs
