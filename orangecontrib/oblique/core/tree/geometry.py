"""Plane geometry of oblique trees, for the 2-D views (numpy only, no Qt).

:func:`explorer_coordinates` places the rows of one node against the node's hyperplane;
:func:`partition_image`, :func:`node_regions` and :func:`boundary_segments` show how a
tree over two features partitions the plane.  What a split's children cover is asked of
the split's kind (:meth:`SplitKind.child_half_planes`, :meth:`SplitKind.pairwise_boundary`),
so every kind of split is drawn by the same code.

A tree over more features is drawn on a plane through feature space: two plotted
features vary, the others are held at fixed values (:func:`held_values`).  Every split
is an affine map ``V = X Wᵀ + b``; on the plane the held features' terms are constants,
so the split restricted to the plane is a split of the same kind over the two plotted
features with those terms moved into its bias (:func:`plane_slice`).  A test of a held
nominal attribute becomes a constant decision; one of a plotted attribute does not cut.

All coordinates are in the tree's raw feature units: the ``X`` a view receives is what
the tree routes (``ObliqueTree.apply``), without missing values.
"""
import numpy as np

from .structure import ObliqueTree

__all__ = ["explorer_coordinates", "explorer_hyperplane", "grid_centres", "partition_image",
           "node_regions", "boundary_segments", "held_values", "embed", "plane_slice",
           "plotted_features", "split_importances"]


#: The largest multiway split whose boundary lines are drawn (see boundary_segments).
MAX_BOUNDARY_CHILDREN = 12


def explorer_hyperplane(split, X, pair=None):
    """The hyperplane :func:`explorer_coordinates` measures distances to.

    Returns ``(w, b, left, right)``: rows with ``w·x + b < 0`` lie on the side of child
    position ``left``, the others on the side of child ``right``.  A binary hyperplane
    split is its own hyperplane; a multiway split has no single hyperplane, so we take the
    boundary between the two branches that receive the most rows of ``X`` (a pairwise-vote
    split: the hyperplane of the pair that decides the most of them; see
    :meth:`SplitKind.explorer_hyperplane`; ``pair``, two child positions, chooses
    another two); a nominal test has none: :class:`ValueError`.  The sides of a
    pairwise-vote split's pair are its two votes, not its branches
    (:meth:`SplitKind.explorer_labels`).
    """
    return split.kind.explorer_hyperplane(split, X, pair)


def explorer_coordinates(split, X, pair=None):
    """Coordinates of the rows ``X`` in the split explorer, shape (n_rows, 2).

    Column 0 is the signed distance to the hyperplane ``w·x + b = 0`` of
    :func:`explorer_hyperplane`, ``(w·x + b) / ‖w‖`` (positive on the right child's side).
    Column 1 is the coordinate, about the rows' mean, along the direction of largest spread
    that remains after the normal component is removed: the first principal component of
    the rows projected onto the hyperplane, a unit vector orthogonal to ``w`` and signed
    so that its largest entry is positive.  With one feature, fewer than two rows, or no
    spread left, column 1 is zero.
    """
    X = np.asarray(X, dtype=float)
    w, b, _, _ = explorer_hyperplane(split, X, pair)
    norm = float(np.linalg.norm(w))
    if norm == 0:
        raise ValueError("the split's hyperplane has a zero normal vector")
    normal = w / norm
    coordinates = np.zeros((X.shape[0], 2))
    coordinates[:, 0] = X @ normal + b / norm
    if X.shape[0] < 2 or X.shape[1] < 2:
        return coordinates
    centred = X - X.mean(axis=0)
    in_plane = centred - np.outer(centred @ normal, normal)
    _, singular, vt = np.linalg.svd(in_plane, full_matrices=False)
    if singular[0] <= 1e-12 * max(1.0, float(np.abs(X).max())):
        return coordinates
    direction = vt[0] - (vt[0] @ normal) * normal  # exactly orthogonal despite round-off
    direction /= np.linalg.norm(direction)
    if direction[np.argmax(np.abs(direction))] < 0:
        direction = -direction
    coordinates[:, 1] = centred @ direction
    return coordinates


def grid_centres(x_range, y_range, resolution):
    """Pixel centres of a ``resolution`` grid: ``(xs, ys)``, ``resolution`` is ``n`` (an
    ``n × n`` grid) or ``(width, height)``."""
    width, height = ((resolution, resolution) if np.isscalar(resolution)
                     else (int(resolution[0]), int(resolution[1])))
    (x0, x1), (y0, y1) = x_range, y_range
    xs = x0 + (np.arange(width) + 0.5) * (x1 - x0) / width
    ys = y0 + (np.arange(height) + 0.5) * (y1 - y0) / height
    return xs, ys


def partition_image(tree, x_range, y_range, resolution=300, features=None, fixed=None):
    """Class index predicted at every pixel of the rectangle ``x_range × y_range``.

    Parameters
    ----------
    tree : ObliqueTree, or a callable mapping an (n, d) array to class probabilities (n, K)
    x_range, y_range : (low, high)
    resolution : int or (width, height)
    features, fixed : optional, for a tree over more than two features
        The plotted features ``(horizontal, vertical)`` and the values of all features
        (the plotted ones are ignored): every pixel is the row :func:`embed` makes of it,
        routed by the tree itself.  Default: the plane of a tree over two features.

    Returns
    -------
    ndarray of int, shape (height, width)
        ``image[i, j]`` is the class (the tree's class index, the argmax of the leaf's
        distribution) at ``(xs[j], ys[i])`` of :func:`grid_centres`; ``y`` grows with the
        row index, so row 0 is the bottom of the plot.
    """
    xs, ys = grid_centres(x_range, y_range, resolution)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    if features is not None:
        points = embed(points, features, fixed)
    proba = tree.predict_proba(points) if isinstance(tree, ObliqueTree) else tree(points)
    return np.argmax(np.asarray(proba), axis=1).reshape(len(ys), len(xs))


def _is_constant(split):
    """Whether the split sends every point to the same child (no feature weighs)."""
    return not np.any(split.weights)


def _clip_polygon(polygon, a, c):
    """Sutherland–Hodgman: the part of a convex polygon (k, 2) with ``a·x + c >= 0``."""
    if len(polygon) == 0:
        return polygon
    values = polygon @ a + c
    kept = []
    for i in range(len(polygon)):
        j = (i + 1) % len(polygon)
        if values[i] >= 0:
            kept.append(polygon[i])
        if (values[i] >= 0) != (values[j] >= 0):
            t = values[i] / (values[i] - values[j])
            kept.append(polygon[i] + t * (polygon[j] - polygon[i]))
    return np.array(kept).reshape(-1, 2)


def _box(x_range, y_range):
    (x0, x1), (y0, y1) = x_range, y_range
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float)


def node_regions(tree, x_range, y_range):
    """The region of every node of a tree over two features, within the bounding box.

    Every split of a tree cuts its node's region along half-planes (a hyperplane split
    into two, an argmax or nearest-centre split into the cells where one branch wins all
    its pairwise comparisons; both are affine in ``x``), so every region is the box clipped
    by the half-planes of the node's ancestors: a convex polygon, computed by
    Sutherland–Hodgman clipping.  A nominal (equality) test does not cut: its children keep
    their parent's region.  A split that does not depend on the plane (all its weights 0,
    as a test of a held feature on a :func:`plane_slice`) is a constant decision: the child
    it sends every point to keeps the region, the others get none.

    Returns a list with one (k, 2) array of polygon vertices per node (k may be 0).
    """
    regions = [None] * tree.node_count
    regions[0] = _box(x_range, y_range)
    for node in tree.preorder():
        split = tree.splits[node]
        if split is None:
            continue
        if _is_constant(split):
            chosen = split.route(np.zeros((1, split.n_features)))[0]
            for position, child in enumerate(tree.children[node]):
                regions[child] = regions[node] if position == chosen else np.empty((0, 2))
            continue
        for position, child in enumerate(tree.children[node]):
            polygon = regions[node]
            for a, c in split.kind.child_half_planes(split, position):
                polygon = _clip_polygon(polygon, np.asarray(a, dtype=float), c)
            regions[child] = polygon
    return regions


def _line_in_polygon(polygon, a, c):
    """The segment (2, 2) of the line ``a·x + c = 0`` inside a convex polygon, or None."""
    if len(polygon) < 3 or not np.any(a):
        return None
    values = polygon @ a + c
    points = [p for p, v in zip(polygon, values) if v == 0]
    for i in range(len(polygon)):
        j = (i + 1) % len(polygon)
        if values[i] * values[j] < 0:
            t = values[i] / (values[i] - values[j])
            points.append(polygon[i] + t * (polygon[j] - polygon[i]))
    if len(points) < 2:
        return None
    points = np.array(points)
    along = points @ np.array([-a[1], a[0]])
    segment = points[[np.argmin(along), np.argmax(along)]]
    return segment if not np.allclose(segment[0], segment[1]) else None


def boundary_segments(tree, x_range, y_range):
    """Line segments (node id, (2, 2) array) where the internal nodes split their regions.

    A hyperplane split contributes its line clipped to the node's region (see
    :func:`node_regions`); a multiway split the part of every pairwise boundary that
    separates two of its children's regions; a nominal test nothing.  A split of more than
    :data:`MAX_BOUNDARY_CHILDREN` children draws no lines (their search grows as the cube
    of the children: 120 classes would take minutes); its regions still show in
    :func:`partition_image`.
    """
    regions = node_regions(tree, x_range, y_range)
    segments = []
    for node in tree.preorder():
        split = tree.splits[node]
        if (split is None or not split.has_geometry or _is_constant(split)
                or split.n_children > MAX_BOUNDARY_CHILDREN):
            continue
        kind = split.kind
        for first in range(split.n_children):
            for second in range(first + 1, split.n_children):
                a, c = kind.pairwise_boundary(split, first, second)
                # The boundary of `first` and `second` lies in the part of the node's
                # region where both beat every other branch.
                polygon = regions[node]
                for other in range(split.n_children):
                    if other not in (first, second):
                        for winner in (first, second):
                            a2, c2 = kind.pairwise_boundary(split, other, winner)
                            polygon = _clip_polygon(polygon, np.asarray(a2, dtype=float), c2)
                segment = _line_in_polygon(polygon, np.asarray(a, dtype=float), c)
                if segment is not None:
                    segments.append((node, segment))
    return segments


# ----- a plane through feature space -----

def held_values(X):
    """The value every feature is held at on the plane: its median over the rows ``X``.

    For an even number of rows the lower of the two middle values, so that the value
    occurs in the data (0 or 1 for an indicator column, never 0.5).  Columns without rows
    are held at 0.
    """
    X = np.asarray(X, dtype=float)
    if X.shape[0] == 0:
        return np.zeros(X.shape[1])
    return np.quantile(X, 0.5, axis=0, method="inverted_cdf")


def embed(points, features, fixed):
    """Rows of feature space for points ``(n, 2)`` of the plane: every feature at its
    ``fixed`` value, the two plotted ``features`` at the points' coordinates."""
    points = np.asarray(points, dtype=float)
    rows = np.tile(np.asarray(fixed, dtype=float), (points.shape[0], 1))
    rows[:, list(features)] = points
    return rows


def plane_slice(tree, features, fixed):
    """The tree restricted to the plane of ``features`` (horizontal, vertical), every other
    feature held at its ``fixed`` value: an :class:`ObliqueTree` over the two plotted
    features that routes every point of the plane as the tree routes its :func:`embed`
    row.

    Each split keeps its kind, its plotted features' weights, and gets the held features'
    terms in its bias: ``b' = b + W[:, held] · fixed[held]``.  A split of held features
    only has no weights left: a constant decision (:func:`node_regions` gives its whole
    region to one child), also for a nominal test of a held attribute; a nominal test of
    a plotted attribute stays one and does not cut.  Pass the result to
    :func:`node_regions` and :func:`boundary_segments`.
    """
    features = [int(j) for j in features]
    if len(features) != 2 or features[0] == features[1]:
        raise ValueError("a plane needs two different features")
    fixed = np.asarray(fixed, dtype=float)
    held = np.ones(tree.n_features, dtype=bool)
    held[features] = False
    splits = [None if split is None else split.copy(
        weights=split.weights[:, features],
        bias=split.bias + split.weights[:, held] @ fixed[held]) for split in tree.splits]
    return ObliqueTree(2, tree.n_classes, splits, tree.children, tree.parent, tree.value,
                       tree.n_node_samples)


def split_importances(tree, X):
    """Importance of every feature to the tree's splits: the sum over the splits of
    ``|w_j| · std_j`` (``|w_j|`` the largest absolute weight of feature ``j`` in the
    split's map, ``std_j`` its standard deviation over the rows ``X``), so that it does
    not depend on the features' units."""
    X = np.asarray(X, dtype=float)
    spread = X.std(axis=0) if X.shape[0] else np.ones(tree.n_features)
    total = np.zeros(tree.n_features)
    for split in tree.splits:
        if split is not None:
            total += np.abs(split.weights).max(axis=0) * spread
    return total


def plotted_features(importances, n_features):
    """The two features to plot: the two most important (the more important horizontal),
    the first features in order where fewer than two have a positive importance."""
    importances = (np.zeros(n_features) if importances is None
                   else np.nan_to_num(np.asarray(importances, dtype=float)))
    order = np.argsort(-importances, kind="stable")
    chosen = [int(j) for j in order if importances[j] > 0][:2]
    chosen += [j for j in range(n_features) if j not in chosen][:2 - len(chosen)]
    return tuple(chosen)
