"""Orange3-Oblique: oblique decision trees (GDT, OC1, ODT-SVM) for Orange."""
from setuptools import find_namespace_packages, setup

# The package index's page: doc/pypi.md, not README.md, whose images are files of the
# repository that the index cannot show.
with open("doc/pypi.md", encoding="utf-8") as file:
    LONG_DESCRIPTION = file.read()

# A release fills these in (the package index shows them on the project's page): the
# maintainers' names and address, and the repository's and issue tracker's addresses
# ("Source", "Issues") once they are public.
MAINTAINER = "Orange Oblique Trees contributors"
MAINTAINER_EMAIL = None
PROJECT_URLS = {
    "Orange": "https://orangedatamining.com",
    "Changelog": None,  # the address of CHANGELOG.md in the public repository
}

setup(
    name="Orange3-Oblique",
    version="0.1.0",
    description="Oblique decision trees (Geometric Decision Tree, OC1, ODT-SVM) for Orange",
    long_description=LONG_DESCRIPTION,
    long_description_content_type="text/markdown",
    author=MAINTAINER,
    maintainer=MAINTAINER,
    maintainer_email=MAINTAINER_EMAIL,
    project_urls={name: url for name, url in PROJECT_URLS.items() if url},
    license="GPL-3.0-or-later",
    license_files=["LICENSE"],
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
    # 3.40 on Python 3.11 to 3.13, each with the numpy, scipy and scikit-learn it brings).
    # No Qt binding, not even in "test": the user's Orange has one (PyQt6 as Orange advises,
    # or PyQt5), and a second would clash with it; the README's commands and .ci/run name
    # the binding they install. constraints/oldest.txt pins the oldest supported stack,
    # which CI tests beside the newest.
    install_requires=[
        "Orange3>=3.38",
        "numpy>=1.26",
        "scipy>=1.10",
        "scikit-learn>=1.5.1",
        # compiled per-node kernels; a wheel on every platform Orange supports
        "numba>=0.59",
    ],
    # pyflakes: .ci/run lints orangecontrib/ with it
    extras_require={"test": ["pytest", "pytest-xdist", "hypothesis", "sphinx", "myst-parser",
                             "dask[distributed]", "pyflakes"],
                    "benchmark": ["stree"]},
    entry_points={
        "orange.widgets": ["Oblique Trees = orangecontrib.oblique.widgets"],
        "orange.canvas.help": ["html-index = orangecontrib.oblique.widgets:WIDGET_HELP_PATH"],
        "orange.widgets.tutorials": ["obliquetutorials = orangecontrib.oblique.tutorials"],
    },
    keywords=["orange3 add-on", "decision tree", "oblique tree"],
    classifiers=["Programming Language :: Python :: 3",
                 "Programming Language :: Python :: 3.11",
                 "Programming Language :: Python :: 3.12",
                 "Programming Language :: Python :: 3.13",
                 "Intended Audience :: Science/Research",
                 "Topic :: Scientific/Engineering :: Artificial Intelligence"],
)
