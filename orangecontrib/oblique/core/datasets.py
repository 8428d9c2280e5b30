"""Generators of the papers' synthetic data sets (numpy only; nothing is downloaded).

Every generator returns ``(X, y)`` with ``y`` in ``{-1, +1}`` (GDT sets) or ``0 .. K-1``
and takes ``n_samples``, ``random_state`` and, where the paper rotates, ``angle``.
"""
import numpy as np
from sklearn.utils import check_random_state


def _rotate(X, angle):
    """Rotate 2-D points anticlockwise by ``angle`` radians about the origin."""
    c, s = np.cos(angle), np.sin(angle)
    return X @ np.array([[c, s], [-s, c]])


def _hyperplane_sides(X, hyperplanes):
    """``w̃ᵀx̃ >= 0`` for every row and every augmented hyperplane ``w̃ = [w, b]``."""
    hyperplanes = np.asarray(hyperplanes, dtype=float)
    return X @ hyperplanes[:, :-1].T + hyperplanes[:, -1] >= 0


def checkerboard_2x2(n_samples=2000, angle=np.pi / 6, random_state=None):
    """GDT paper, Section IV, dataset 1: uniform on [-1, 1]², label +1 when the lines
    ``x1 + x2 = 0`` and ``x1 − x2 = 0`` put the point on equal sides, then rotated by
    ``angle`` (π/6 in the paper)."""
    rng = check_random_state(random_state)
    X = rng.uniform(-1, 1, size=(n_samples, 2))
    sides = _hyperplane_sides(X, [[1, 1, 0], [1, -1, 0]])
    y = np.where(sides[:, 0] == sides[:, 1], 1, -1)
    return _rotate(X, angle), y


def checkerboard_4x4(n_samples=2000, angle=np.pi / 6, random_state=None):
    """GDT paper, Section IV, dataset 2: uniform on [0, 4]², unit squares indexed 1..4 on
    each axis, label +1 when the two indices sum to an even number, then rotated."""
    rng = check_random_state(random_state)
    X = rng.uniform(0, 4, size=(n_samples, 2))
    index = np.minimum(np.floor(X), 3).astype(int) + 1
    y = np.where(index.sum(axis=1) % 2 == 0, 1, -1)
    return _rotate(X, angle), y


#: The three hyperplanes ``w̃ = [w, b]`` of the GDT paper's 10-dimensional set.
SYNTHETIC_10D_HYPERPLANES = np.array([
    [1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0],
    [1, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0],
    [0, 1, -1, 0, -1, 0, 1, 1, -1, 1, 0],
], dtype=float)


def synthetic_10d(n_samples=2000, random_state=None):
    """GDT paper, Section IV, dataset 3: uniform on [-1, 1]¹⁰, label +1 in the four of the
    eight sign patterns of the three hyperplanes that the paper lists ((+,+,+), (−,−,+),
    (−,+,−), (+,−,−)), i.e. where an even number of them are negative.  The paper writes
    ``≥``/``≤`` on both sides; a point exactly on a hyperplane has probability zero."""
    rng = check_random_state(random_state)
    X = rng.uniform(-1, 1, size=(n_samples, 10))
    sides = _hyperplane_sides(X, SYNTHETIC_10D_HYPERPLANES)
    y = np.where((~sides).sum(axis=1) % 2 == 0, 1, -1)
    return X, y


def ls10(n_samples=2000, random_state=None):
    """OC1 paper, Section 4.1, LS10: uniform on [0, 1]¹⁰, class 1 when
    ``x1 + … + x5 < x6 + … + x10`` (linearly separable by one 10-D hyperplane), else 0."""
    rng = check_random_state(random_state)
    X = rng.uniform(0, 1, size=(n_samples, 10))
    y = (X[:, :5].sum(axis=1) < X[:, 5:].sum(axis=1)).astype(int)
    return X, y


def parallel_oblique_lines(n_samples=2000, angle=np.pi / 4, random_state=None):
    """OC1 paper, Section 4.1, POL: uniform on [0, 1]², four parallel oblique lines cut the
    square into five bands of equal width along the direction ``(cos angle, sin angle)``;
    the bands alternate between class 0 and class 1 (0, 1, 0, 1, 0).  The paper gives no
    coordinates for its lines; this is our generator."""
    rng = check_random_state(random_state)
    X = rng.uniform(0, 1, size=(n_samples, 2))
    direction = np.array([np.cos(angle), np.sin(angle)])
    corners = np.array([[0, 0], [1, 0], [0, 1], [1, 1]]) @ direction
    position = (X @ direction - corners.min()) / (corners.max() - corners.min())
    band = np.minimum((position * 5).astype(int), 4)
    return X, band % 2


def rotated_checkerboard(n_samples=2000, angle=np.pi / 6, random_state=None):
    """OC1 paper, Section 4.1, RCB (our generator; the paper shows only a figure): uniform
    on [0, 4]², cell ``(i, j)`` (0-based column and row of the 4×4 grid) has class
    ``(i + 4 j) mod 8``, so each of the 8 classes holds two cells, two rows apart, and no
    single line separates out a class; then rotated by ``angle`` about the origin."""
    rng = check_random_state(random_state)
    X = rng.uniform(0, 4, size=(n_samples, 2))
    cell = np.minimum(np.floor(X), 3).astype(int)
    y = (cell[:, 0] + 4 * cell[:, 1]) % 8
    return _rotate(X, angle), y


def oblique_parity(n_samples=2000, n_features=10, n_hyperplanes=3, label_noise=0.05,
                   random_state=None):
    """A ``d``-dimensional generalisation of :func:`synthetic_10d`, for scaling studies:
    uniform on [-1, 1]^d, label +1 where an even number of ``n_hyperplanes`` hyperplanes
    through the origin put the point on their negative side, else -1; then every label is
    flipped with probability ``label_noise``, so that a tree keeps splitting below the
    true boundaries.

    The hyperplanes do not depend on ``random_state``: their normals are drawn once from
    ``RandomState(n_features)`` with coefficients in {-1, 0, 1}, like the GDT paper's, and at
    least two non-zero coefficients each (so that no boundary is axis-parallel).  Samples
    of different sizes with the same ``n_features`` therefore come from one problem.
    """
    if n_features < 2:
        raise ValueError(f"n_features must be at least 2, got {n_features!r}")
    if not 0 <= label_noise <= 0.5:
        raise ValueError(f"label_noise must be in [0, 0.5], got {label_noise!r}")
    hyperplanes = oblique_parity_hyperplanes(n_features, n_hyperplanes)
    rng = check_random_state(random_state)
    X = rng.uniform(-1, 1, size=(n_samples, n_features))
    sides = _hyperplane_sides(X, hyperplanes)
    y = np.where((~sides).sum(axis=1) % 2 == 0, 1, -1)
    flip = rng.uniform(size=n_samples) < label_noise
    return X, np.where(flip, -y, y)


def oblique_parity_hyperplanes(n_features, n_hyperplanes=3):
    """The augmented hyperplanes ``[w, 0]`` of :func:`oblique_parity` (one per row)."""
    rng = np.random.RandomState(n_features)
    hyperplanes = np.zeros((n_hyperplanes, n_features + 1))
    for row in hyperplanes:
        while np.count_nonzero(row[:-1]) < 2:
            row[:-1] = rng.randint(-1, 2, size=n_features)
    return hyperplanes
