"""Orange3-Oblique: oblique decision trees (GDT, OC1, ODT-SVM) for Orange."""
from setuptools import find_namespace_packages, setup

setup(
    name="Orange3-Oblique",
    version="0.1.0",
    description="Oblique decision trees (Geometric Decision Tree, OC1, ODT-SVM) for Orange",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    license="GPL-3.0-or-later",
    python_requires=">=3.11",
    # help/ holds no modules: its built pages are package data of orangecontrib.oblique
    packages=find_namespace_packages(include=["orangecontrib.*"],
                                     exclude=["orangecontrib.oblique.help*"]),
    package_data={
        "orangecontrib.oblique.widgets": ["icons/*.svg"],
        "orangecontrib.oblique.tutorials": ["*.ows"],
        # the widgets' F1 help: the documentation built by doc/build_help.py
        "orangecontrib.oblique": ["help/html/*", "help/html/**/*"],
    },
    install_requires=[
        "Orange3>=3.40,<3.41",
        "numpy<2.4",
        "scipy",
        # ODT-SVM calls scikit-learn's liblinear and k-means routines directly, without
        # LinearSVC's and KMeans' per-call checks (private functions, tested bit for bit
        # against the public estimators): raise the bound once the tests pass on a release
        "scikit-learn>=1.9,<1.10",
        # compiled per-node kernels (core/kernels.py); a wheel, no compiler needed
        "numba",
        "PyQt5",
        "PyQtWebEngine",
    ],
    extras_require={"test": ["pytest", "hypothesis", "sphinx", "myst-parser",
                             "dask[distributed]"],
                    "benchmark": ["stree"]},
    entry_points={
        "orange.widgets": ["Oblique Trees = orangecontrib.oblique.widgets"],
        "orange.canvas.help": ["html-index = orangecontrib.oblique.widgets:WIDGET_HELP_PATH"],
        "orange.widgets.tutorials": ["obliquetutorials = orangecontrib.oblique.tutorials"],
    },
    keywords=["orange3 add-on", "decision tree", "oblique tree"],
    classifiers=["Programming Language :: Python :: 3", "Framework :: Orange"],
)
