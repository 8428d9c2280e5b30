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
    # Lower bounds only: the add-on installs into the Orange its users have (Orange3 3.38 to
    # 3.40 on Python 3.11, each with the numpy, scipy and scikit-learn it brings). Qt comes
    # with Orange, as for every Orange add-on. constraints/oldest.txt pins the oldest
    # supported stack, which CI tests beside the newest.
    install_requires=[
        "Orange3>=3.38",
        "numpy>=1.26",
        "scipy>=1.10",
        "scikit-learn>=1.5.1",
        # compiled per-node kernels; a wheel on every platform Orange supports
        "numba>=0.59",
    ],
    extras_require={"test": ["pytest", "pytest-xdist", "hypothesis", "sphinx", "myst-parser",
                             "dask[distributed]", "PyQt5", "PyQtWebEngine"],
                    "benchmark": ["stree"]},
    entry_points={
        "orange.widgets": ["Oblique Trees = orangecontrib.oblique.widgets"],
        "orange.canvas.help": ["html-index = orangecontrib.oblique.widgets:WIDGET_HELP_PATH"],
        "orange.widgets.tutorials": ["obliquetutorials = orangecontrib.oblique.tutorials"],
    },
    keywords=["orange3 add-on", "decision tree", "oblique tree"],
    classifiers=["Programming Language :: Python :: 3", "Framework :: Orange"],
)
