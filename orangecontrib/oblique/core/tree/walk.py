"""One compiled walk of rows down trees: prediction and routing of every kind of split.

A tree's splits in flat arrays (:class:`FlatTrees`, made once per tree and cached on it,
:meth:`~.structure.ObliqueTree.flat`; an ensemble's trees concatenated, every tree its
root): per node the code of its kind (:data:`LEAF` .. :data:`PAIRWISE_VOTE`, given by the
kind, :meth:`~.splits.SplitKind.walk_form`), its children (a range of ``children``), the
rows of its map ``V = W x + b`` (a range of map rows, each a row of a CSR matrix of the
non-zero weights, ``indptr``, ``indices``, ``data``, and its ``bias``) and what else its
kind routes by (a range of ``extra``: a nearest-centre split's centres, row by row, or a
nominal split's branch values).

:func:`walk` sends every row from every start node down to the node where it stops, with
the routing convention of :mod:`~.splits` (:meth:`~.splits.Split.route_with_missing`): a
row with a missing value (NaN, ±inf) in a feature a split uses stops at the split's node,
as does a row whose value a nominal split has no branch for.  A map row's value is
computed one way, :func:`_map_value` (the products of the non-zero weights added in
feature order, then the bias: :mod:`~.kernels`' arithmetic), which
:meth:`~.splits.Split.values` uses too (:func:`map_values`).  A hyperplane that reads its
printed rule exactly (:data:`PRINTED`) decides where the value is farther from 0 than the
bound of :func:`~.kernels.printed_sides`; a row nearer stops with the code ``-1 - node``
and :func:`stop_nodes` decides it by exact arithmetic
(:func:`~.splits.printed_rule_holds`) and walks it on from the child.
"""
import math

import numpy as np
from numba import njit

__all__ = ["LEAF", "HYPERPLANE", "PRINTED", "ARGMAX", "NEAREST_CENTRE", "EQUALITY",
           "NOMINAL", "PAIRWISE_VOTE", "OTHER", "LANES", "FlatTrees", "walk", "map_values", "stop_nodes"]

#: The codes of the kinds in the walk; OTHER, a kind it does not know, leaves its rows to
#: the split's own routing (:meth:`~.splits.Split.route_with_missing`).
(LEAF, HYPERPLANE, PRINTED, ARGMAX, NEAREST_CENTRE, EQUALITY, NOMINAL, PAIRWISE_VOTE,
 OTHER) = range(9)

#: Unit roundoff of a double, 2^-53, and the underflow term of a printed rule's bound
#: (:func:`~.kernels._value_and_bound`).
_UNIT_ROUNDOFF = 2.0 ** -53
_UNDERFLOW_ERROR = 1e-290


@njit(cache=True, nogil=True)
def _map_value(X, row, p, indptr, indices, data, bias):
    """Value of map row ``p`` at row ``row`` of ``X``: the products of its non-zero
    weights (ascending features) added in order, then its bias."""
    total = 0.0
    for q in range(indptr[p], indptr[p + 1]):
        total += data[q] * X[row, indices[q]]
    return total + bias[p]


@njit(cache=True, nogil=True)
def map_values(X, indptr, indices, data, bias):
    """The values of every map row (a CSR matrix of weights and ``bias``) at every row of
    ``X``, shape (n_rows, n_map_rows): :meth:`~.splits.Split.values`."""
    values = np.empty((X.shape[0], bias.shape[0]))
    for i in range(X.shape[0]):
        for p in range(bias.shape[0]):
            values[i, p] = _map_value(X, i, p, indptr, indices, data, bias)
    return values


@njit(cache=True, nogil=True)
def _missing(X, row, first, last, indptr, indices):
    """Whether row ``row`` of ``X`` has a missing value (NaN, ±inf) in a feature of the
    map rows ``first .. last - 1``."""
    for q in range(indptr[first], indptr[last]):
        if not math.isfinite(X[row, indices[q]]):
            return True
    return False


#: The flags of a node's step in :func:`walk`: another kind than a hyperplane, a printed
#: rule, the end of a row's walk (a leaf).
_MULTIWAY, _PRINTED, _ENDS = 1, 2, 4
#: Trees a row walks side by side (independent steps that the processor overlaps).
LANES = 4


@njit(cache=True, nogil=True)
def _multiway_step(X, row, node, kind, child_start, children, map_start, indptr, indices,
                   data, bias, extra_start, extra, values, votes):
    """The child that row ``row`` of ``X`` goes to at ``node``, a split of a map of its
    own kind (not a hyperplane), or ``-2 - node`` where the row stops at the node."""
    code = kind[node]
    first, last = map_start[node], map_start[node + 1]
    m = last - first
    finite = True
    for p in range(m):
        values[p] = _map_value(X, row, first + p, indptr, indices, data, bias)
        finite = finite and math.isfinite(values[p])
    if not finite and _missing(X, row, first, last, indptr, indices):
        return -2 - node
    position = 0
    if code == EQUALITY:
        position = 0 if values[0] == 0 else 1
    elif code == NOMINAL:
        position = -1
        for k in range(extra_start[node], extra_start[node + 1]):
            if values[0] == extra[k]:
                position = k - extra_start[node]
    elif code == ARGMAX:
        for p in range(1, m):  # the first maximum; NaN is largest
            if math.isnan(values[position]):
                break
            if values[p] > values[position] or math.isnan(values[p]):
                position = p
    elif code == NEAREST_CENTRE:
        nearest = 0.0
        for c in range(child_start[node + 1] - child_start[node]):
            distance = 0.0
            centre = extra_start[node] + c * m
            for p in range(m):
                gap = values[p] - extra[centre + p]
                distance += gap * gap
            # the first of the least; NaN is least
            if c == 0 or (not math.isnan(nearest) and (
                    distance < nearest or math.isnan(distance))):
                nearest, position = distance, c
    else:  # PAIRWISE_VOTE
        n_children = child_start[node + 1] - child_start[node]
        votes[:n_children] = 0
        p = 0
        for a in range(n_children - 1):
            for b in range(a + 1, n_children):
                if values[p] >= 0:
                    votes[a] += 1
                else:
                    votes[b] += 1
                p += 1
        for c in range(1, n_children):
            if votes[c] > votes[position]:
                position = c
    if position < 0:
        return -2 - node
    return children[child_start[node] + position]


@njit(cache=True, nogil=True)
def walk(X, rows, starts, kind, child_start, children, map_start, indptr, indices, data,
         bias, extra_start, extra):
    """``stop[s, i]``: the node where row ``rows[i]`` of ``X`` stops when it starts at
    node ``starts[s]``, or ``-1 - node`` for a row a printed rule at ``node`` leaves to
    exact arithmetic or that reaches a split of a kind the walk does not know
    (:data:`OTHER`; see the module docstring).

    A row walks :data:`LANES` starts at a time, a step in each per round; a hyperplane's
    step is written out (its children, non-zero weights and bias gathered per node
    first; a leaf, and an idle lane's extra node, step to themselves).  A value that is
    not finite is where a missing value would show: only then are the row's features
    looked at for one."""
    n = kind.shape[0]
    idle = n  # the node of a lane whose row has stopped
    # a node's step in one record: its non-zero weights (a range), left and right
    # child (itself at a leaf), flags
    record = np.zeros((n + 1, 5), dtype=np.int64)
    offset = np.ones(n + 1)
    record[idle, 2] = record[idle, 3] = idle
    record[idle, 4] = _ENDS
    widest = 1
    for node in range(n):
        code = kind[node]
        widest = max(widest, map_start[node + 1] - map_start[node],
                     child_start[node + 1] - child_start[node])
        if code == LEAF:
            record[node, 2] = record[node, 3] = node
            record[node, 4] = _ENDS
        elif code == HYPERPLANE or code == PRINTED:
            first = map_start[node]
            record[node, 0], record[node, 1] = indptr[first], indptr[first + 1]
            record[node, 2] = children[child_start[node]]
            record[node, 3] = children[child_start[node] + 1]
            record[node, 4] = _PRINTED if code == PRINTED else 0
            offset[node] = bias[first]
        else:
            record[node, 4] = _MULTIWAY
    values = np.empty(widest)
    votes = np.empty(widest, dtype=np.int64)
    stop = np.empty((starts.shape[0], rows.shape[0]), dtype=np.int64)
    lanes = np.empty(LANES, dtype=np.int64)
    ended = np.empty(LANES, dtype=np.int64)
    for i in range(rows.shape[0]):
        row = rows[i]
        for group in range(0, starts.shape[0], LANES):
            for k in range(LANES):
                lanes[k] = starts[group + k] if group + k < starts.shape[0] else idle
            while True:
                done = True
                for k in range(LANES):
                    done = done and record[lanes[k], 4] == _ENDS
                if done:
                    break
                for k in range(LANES):
                    node = lanes[k]
                    flags = record[node, 4]
                    if flags == _MULTIWAY:
                        if kind[node] == OTHER:
                            ended[k], lanes[k] = -1 - node, idle
                            continue
                        step = _multiway_step(X, row, node, kind, child_start, children,
                                              map_start, indptr, indices, data, bias,
                                              extra_start, extra, values, votes)
                        if step < 0:
                            ended[k], lanes[k] = -2 - step, idle
                        else:
                            lanes[k] = step
                        continue
                    total = 0.0
                    size = 0.0
                    low, high = record[node, 0], record[node, 1]
                    for q in range(low, high):
                        product = data[q] * X[row, indices[q]]
                        total += product
                        size += abs(product)
                    b = offset[node]
                    value = total + b
                    if not math.isfinite(value) and _missing(
                            X, row, map_start[node], map_start[node] + 1, indptr, indices):
                        ended[k], lanes[k] = node, idle
                        continue
                    if flags == _PRINTED and not abs(value) > (
                            4.0 * (high - low + 2) * _UNIT_ROUNDOFF
                            * (size + abs(b)) + _UNDERFLOW_ERROR):  # also NaN
                        ended[k], lanes[k] = -1 - node, idle
                        continue
                    lanes[k] = record[node, 3] if value >= 0 else record[node, 2]
            for k in range(min(LANES, starts.shape[0] - group)):
                stop[group + k, i] = ended[k] if lanes[k] == idle else lanes[k]
    return stop


def _starts(counts):
    """The start of every range of ``counts`` entries, and the end of the last."""
    starts = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return starts


class FlatTrees:
    """The flat arrays of one or more trees that :func:`walk` reads (see the module
    docstring); ``roots`` the root of every tree, ``splits`` the split of every node
    (None at a leaf), for the exact reading of a printed rule."""

    ARRAYS = ("kind", "child_start", "children", "map_start", "indptr", "indices", "data",
              "bias", "extra_start", "extra")

    def __init__(self, roots, splits, **arrays):
        self.roots = np.asarray(roots, dtype=np.int64)
        self.splits = list(splits)
        for name in self.ARRAYS:
            setattr(self, name, np.ascontiguousarray(
                arrays[name], dtype=np.float64 if name in ("data", "bias", "extra")
                else np.int64))

    @classmethod
    def of_tree(cls, splits, children):
        """The flat form of one tree: its ``splits`` (None at a leaf) and ``children``
        (node ids per node, in child order)."""
        kind = np.zeros(len(splits), dtype=np.int64)
        n_map_rows = np.zeros(len(splits), dtype=np.int64)
        n_extra = np.zeros(len(splits), dtype=np.int64)
        maps, extra = [], []
        for node, split in enumerate(splits):
            if split is not None:
                kind[node], values = split.kind.walk_form(split)
                n_map_rows[node] = split.weights.shape[0]
                maps.append(split)
                if len(values):
                    values = np.asarray(values, dtype=float).reshape(-1)
                    n_extra[node] = values.size
                    extra.append(values)
        if maps:
            weights = np.vstack([split.weights for split in maps])
            bias = np.concatenate([split.bias for split in maps])
        else:
            weights, bias = np.zeros((0, 0)), np.zeros(0)
        rows, indices = np.nonzero(weights)  # row by row, ascending columns
        return cls([0], splits, kind=kind,
                   child_start=_starts([len(kids) for kids in children]),
                   children=np.fromiter((kid for kids in children for kid in kids),
                                        dtype=np.int64),
                   map_start=_starts(n_map_rows),
                   indptr=_starts(np.bincount(rows, minlength=weights.shape[0])),
                   indices=indices, data=weights[rows, indices], bias=bias,
                   extra_start=_starts(n_extra),
                   extra=np.concatenate(extra) if extra else np.zeros(0))

    @classmethod
    def concatenated(cls, flats):
        """The trees of ``flats`` as one: node ids and ranges shifted, every tree's
        root kept."""
        node_offset = np.cumsum([0] + [f.kind.size for f in flats])
        child_offset = np.cumsum([0] + [f.children.size for f in flats])
        map_offset = np.cumsum([0] + [f.bias.size for f in flats])
        value_offset = np.cumsum([0] + [f.data.size for f in flats])
        extra_offset = np.cumsum([0] + [f.extra.size for f in flats])

        def ranges(name, offsets):
            return np.concatenate([getattr(f, name)[:-1] + offsets[t]
                                   for t, f in enumerate(flats)] + [offsets[-1:]])

        return cls(np.concatenate([f.roots + node_offset[t] for t, f in enumerate(flats)]),
                   [split for f in flats for split in f.splits],
                   kind=np.concatenate([f.kind for f in flats]),
                   child_start=ranges("child_start", child_offset),
                   children=np.concatenate([f.children + node_offset[t]
                                            for t, f in enumerate(flats)]),
                   map_start=ranges("map_start", map_offset),
                   indptr=ranges("indptr", value_offset),
                   indices=np.concatenate([f.indices for f in flats]),
                   data=np.concatenate([f.data for f in flats]),
                   bias=np.concatenate([f.bias for f in flats]),
                   extra_start=ranges("extra_start", extra_offset),
                   extra=np.concatenate([f.extra for f in flats]))

    def walk(self, X, rows, starts):
        """:func:`walk` of these trees' arrays."""
        return walk(X, rows, starts, *(getattr(self, name) for name in self.ARRAYS))


def stop_nodes(flat, X):
    """The node where every row of ``X`` stops in every tree of ``flat`` (a
    :class:`FlatTrees`), shape (n_trees, n_rows): :func:`walk` from the roots; a row it
    leaves at a node (near a printed rule, decided by exact arithmetic,
    :func:`~.splits.printed_rule_holds`; at a kind it does not know, by the split's own
    :meth:`~.splits.Split.route_with_missing`) is routed there and walked on from its
    child."""
    from .splits import printed_rule_holds
    X = np.ascontiguousarray(X, dtype=np.float64)
    stop = flat.walk(X, np.arange(X.shape[0], dtype=np.int64), flat.roots)
    while stop.size and stop.min() < 0:  # rare: (tree, row) pairs left at a node
        undecided = np.argwhere(stop < 0)
        nodes = -1 - stop[undecided[:, 0], undecided[:, 1]]
        for node in np.unique(nodes).tolist():
            pairs = undecided[nodes == node]
            split = flat.splits[node]
            block = X[pairs[:, 1]]
            if flat.kind[node] == PRINTED:
                position = printed_rule_holds(block, split.weights[0],
                                              split.bias[0]).astype(np.intp)
            else:
                position = split.route_with_missing(block)
            stopped = pairs[position < 0]
            stop[stopped[:, 0], stopped[:, 1]] = node
            for child_position in np.unique(position[position >= 0]).tolist():
                chosen = pairs[position == child_position]
                child = flat.children[flat.child_start[node] + child_position]
                stop[chosen[:, 0], chosen[:, 1]] = flat.walk(
                    X, chosen[:, 1].astype(np.int64), np.array([child], dtype=np.int64))[0]
    return stop
