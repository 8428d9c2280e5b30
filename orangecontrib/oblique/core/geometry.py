"""Plane geometry of oblique trees, for the 2-D views (numpy only, no Qt).

:func:`explorer_coordinates` places the rows of one node against the node's hyperplane;
:func:`partition_image`, :func:`node_regions` and :func:`boundary_segments` show how a
tree over two features partitions the plane.  What a split's children cover is asked of
the split's kind (:meth:`SplitKind.child_half_planes`, :meth:`SplitKind.pairwise_boundary`),
so every kind of split is drawn by the same code.

All coordinates are in the tree's raw feature units: the ``X`` a view receives is what
the tree routes (``ObliqueTree.apply``), without missing values.
"""
import numpy as np

from .tree import ObliqueTree

__all__ = ["explorer_coordinates", "explorer_hyperplane", "grid_centres", "partition_image",
           "node_regions", "boundary_segments"]


def explorer_hyperplane(split, X):
    """The hyperplane :func:`explorer_coordinates` measures distances to.

    Returns ``(w, b, left, right)``: rows with ``w·x + b < 0`` lie on the side of child
    position ``left``, the others on the side of child ``right``.  A binary hyperplane
    split is its own hyperplane; a multiway split has no single hyperplane, so we take the
    boundary between the two branches that receive the most rows of ``X`` (see
    :meth:`SplitKind.explorer_hyperplane`); a nominal test has none: :class:`ValueError`.
    """
    return split.kind.explorer_hyperplane(split, X)


def explorer_coordinates(split, X):
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
    w, b, _, _ = explorer_hyperplane(split, X)
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


def partition_image(tree, x_range, y_range, resolution=300):
    """Class index predicted at every pixel of the rectangle ``x_range × y_range``.

    Parameters
    ----------
    tree : ObliqueTree over two features, or a callable mapping an (n, 2) array to class
        probabilities (n, K)
    x_range, y_range : (low, high)
    resolution : int or (width, height)

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
    proba = tree.predict_proba(points) if isinstance(tree, ObliqueTree) else tree(points)
    return np.argmax(np.asarray(proba), axis=1).reshape(len(ys), len(xs))


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
    their parent's region.

    Returns a list with one (k, 2) array of polygon vertices per node (k may be 0).
    """
    regions = [None] * tree.node_count
    regions[0] = _box(x_range, y_range)
    for node in tree.preorder():
        split = tree.splits[node]
        if split is None:
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
    separates two of its children's regions; a nominal test nothing.
    """
    regions = node_regions(tree, x_range, y_range)
    segments = []
    for node in tree.preorder():
        split = tree.splits[node]
        if split is None or not split.kind.has_geometry:
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
