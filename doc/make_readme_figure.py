"""The README's picture: an axis-parallel tree and an oblique tree on the same data.

Run ``python doc/make_readme_figure.py``; writes ``doc/images/oblique-vs-axis-parallel.png``.
Data: the GDT paper's rotated 2×2 checkerboard (``core.datasets.checkerboard_2x2``, 1000 rows,
seed 0).  Left: scikit-learn's CART (axis-parallel); right: the Geometric Decision Tree.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from orangecontrib.oblique.core import GeometricTreeClassifier  # noqa: E402
from orangecontrib.oblique.core.datasets import checkerboard_2x2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    X, y = checkerboard_2x2(n_samples=1000, random_state=0)
    X_test, y_test = checkerboard_2x2(n_samples=5000, random_state=1)
    models = [("Axis-parallel tree (CART)", DecisionTreeClassifier(random_state=0)),
              ("Oblique tree (Geometric Decision Tree)", GeometricTreeClassifier())]
    grid = np.linspace(X.min() - 0.05, X.max() + 0.05, 400)
    xx, yy = np.meshgrid(grid, grid)
    points = np.column_stack([xx.ravel(), yy.ravel()])
    background = ListedColormap(["#cfe2f3", "#f4cccc"])
    figure, axes = plt.subplots(1, 2, figsize=(10, 5), constrained_layout=True)
    for axis, (title, model) in zip(axes, models):
        model.fit(X, y)
        leaves = model.get_n_leaves()
        accuracy = 100 * np.mean(model.predict(X_test) == y_test)
        axis.contourf(xx, yy, model.predict(points).reshape(xx.shape), levels=1,
                      cmap=background)
        axis.scatter(X[:, 0], X[:, 1], c=np.where(y == y.min(), "#1f77b4", "#d62728"), s=6)
        axis.set_title(f"{title}\n{leaves} leaves, {accuracy:.1f} % on new data")
        axis.set_aspect("equal")
        axis.set_xticks([])
        axis.set_yticks([])
    figure.suptitle("Rotated 2×2 checkerboard (1000 training rows)")
    path = os.path.join(HERE, "images", "oblique-vs-axis-parallel.png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    figure.savefig(path, dpi=80)
    print(path)


if __name__ == "__main__":
    main()
