"""Every core estimator declares its parameters once (``_parameter_constraints``), and
the declaration makes its constructor, the checks of a fit and the ``Parameters``
section of its docstring."""
import inspect
import re
import time
import warnings
from decimal import Decimal
from fractions import Fraction
from numbers import Integral
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.tree import DecisionTreeClassifier

from orangecontrib.oblique.core import (GeometricTreeClassifier, HedgeEnsembleClassifier,
                                        OC1Classifier, ObliqueForestClassifier,
                                        ODTSVMClassifier, SparseProjectionTreeClassifier,
                                        XMeans)
from orangecontrib.oblique.core.parameters import (BOOLEAN, DeclaredParameters, Interval,
                                                   Options, Parameter)

ESTIMATORS = [GeometricTreeClassifier, OC1Classifier, ODTSVMClassifier,
              HedgeEnsembleClassifier, ObliqueForestClassifier,
              SparseProjectionTreeClassifier, XMeans]

#: Values tried as ones outside a parameter's constraints: of no accepted type, or of an
#: accepted type but out of its range or options.
CANDIDATES = [object(), "no such option", -1, -0.5, 0, 0.0, 1.5, 1, 10 ** 9, 0.999999,
              True, None]


def declared(cls):
    return cls._parameter_constraints


def parameter_cases():
    for cls in ESTIMATORS:
        for name in declared(cls):
            yield pytest.param(cls, name, id=f"{cls.__name__}-{name}")


def refused_values(cls, name):
    """The values of ``CANDIDATES`` that no constraint of the parameter takes (the
    others at their defaults)."""
    parameter = declared(cls)[name]
    defaults = {n: p.default for n, p in declared(cls).items()}
    return [value for value in CANDIDATES
            if not any(c.holds(value, {**defaults, name: value})
                       for c in parameter.constraints)]


def data():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(30, 3))
    return X, (X[:, 0] > 0).astype(int)


def fit(estimator):
    X, y = data()
    return estimator.fit(X) if isinstance(estimator, XMeans) else estimator.fit(X, y)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda cls: cls.__name__)
def test_constructor_is_the_declaration(cls):
    """Names, order and defaults of ``__init__`` are the declared ones; the constructor
    only stores them (get_params gives them back, clone copies them)."""
    parameters = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in parameters] == list(declared(cls))
    assert [p.default for p in parameters] == [p.default for p in declared(cls).values()]
    assert all(p.kind == p.POSITIONAL_OR_KEYWORD for p in parameters)
    estimator = cls()
    assert estimator.get_params(deep=False) == {
        name: parameter.default for name, parameter in declared(cls).items()}
    assert vars(estimator) == estimator.get_params(deep=False)
    assert clone(estimator).get_params(deep=False) == estimator.get_params(deep=False)


def test_positional_arguments_in_the_declared_order():
    tree = DecisionTreeClassifier()
    ensemble = HedgeEnsembleClassifier(tree, 3)
    assert ensemble.estimator is tree and ensemble.n_estimators == 3
    assert XMeans(1, 5).max_clusters == 5
    with pytest.raises(TypeError):
        OC1Classifier(no_such_parameter=1)


@pytest.mark.parametrize("cls, name", list(parameter_cases()))
def test_a_value_outside_the_declaration_is_a_value_error_naming_it(cls, name):
    values = refused_values(cls, name)
    assert values, f"no candidate value is refused for {name}"
    for value in values:
        estimator = cls().set_params(**{name: value})
        with pytest.raises(ValueError, match=rf"^{name} must be "):
            fit(estimator)


def takes(cls, name, value):
    """Whether a constraint of the parameter takes ``value`` (the others at their
    defaults)."""
    defaults = {n: p.default for n, p in declared(cls).items()}
    return any(c.holds(value, {**defaults, name: value})
               for c in declared(cls)[name].constraints)


@pytest.mark.parametrize("cls, name", list(parameter_cases()))
def test_ranges_end_where_declared(cls, name):
    """Checked without fitting: a closed bound of a range is valid, an open one and a
    step beyond either are not (unless another constraint takes them)."""
    for constraint in declared(cls)[name].constraints:
        if not isinstance(constraint, Interval):
            continue
        step = 1 if constraint.integral else 1e-9
        for bound, closed, beyond in ((constraint.left, constraint.left_closed, -step),
                                      (constraint.right, constraint.right_closed, step)):
            if not isinstance(bound, (int, float)):
                continue  # unbounded, or a bound from another parameter
            for value, valid in ((bound, closed), (bound + beyond, False)):
                estimator = cls().set_params(**{name: value})
                if valid or takes(cls, name, value):
                    estimator._validate_params()
                else:
                    with pytest.raises(ValueError, match=rf"^{name} must be "):
                        estimator._validate_params()


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda cls: cls.__name__)
def test_no_estimator_checks_its_parameters_by_hand(cls):
    """The fit's checks are the declaration's (no method of the estimator's own)."""
    assert issubclass(cls, DeclaredParameters)
    assert cls._validate_params is DeclaredParameters._validate_params


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda cls: cls.__name__)
def test_docstring_lists_the_declared_parameters(cls):
    """Every declared parameter, in order, with what it accepts and its default, then
    what it means."""
    doc = inspect.getdoc(cls)
    section = doc[doc.index("Parameters\n----------\n"):]
    assert re.findall(r"^(\w+) : ", section, flags=re.M)[:len(declared(cls))] == list(
        declared(cls))
    for name, parameter in declared(cls).items():
        entry = f"\n{name} : {parameter.describe()}, default {parameter.default!r}\n"
        meaning = "".join(f"    {line}\n" if line else "\n"
                          for line in cls._parameter_meanings.get(name, []))
        assert entry + meaning in doc + "\n"


def test_documenting_an_undeclared_parameter_is_an_error():
    with pytest.raises(TypeError, match=r"documents parameters it does not declare: "
                                        r"\['depth'\]"):
        class Misdocumented(GeometricTreeClassifier):  # pylint: disable=unused-variable
            """A tree.

            Parameters
            ----------
            depth
                Not a parameter of the tree.
            """
            _parameter_constraints = GeometricTreeClassifier._parameter_constraints


def test_relations_between_parameters():
    X, y = data()
    with pytest.raises(ValueError, match="oob_score needs bootstrap=True"):
        ObliqueForestClassifier(oob_score=True, bootstrap=False).fit(X, y)
    with pytest.raises(ValueError, match="oob_grid_search needs"):
        ObliqueForestClassifier(oob_grid_search=True, estimator=OC1Classifier()).fit(X, y)
    with pytest.raises(ValueError, match=r"weight_threshold .* = \[0, 0.25\), got 0.3"):
        HedgeEnsembleClassifier(n_estimators=4, weight_threshold=0.3).fit(X, y)
    HedgeEnsembleClassifier(n_estimators=2, weight_threshold=0.3)._validate_params()
    with pytest.raises(ValueError, match=r"max_clusters .* at least min_clusters \(5\)"):
        XMeans(min_clusters=5, max_clusters=4).fit(X)


def test_a_declaration_makes_a_new_estimator():
    """A subclass that declares other parameters gets their constructor, checks and
    docs, with nothing else written."""
    class ShallowTree(GeometricTreeClassifier):
        """A geometric tree of at most ``max_depth`` 1 to 3.

        Parameters
        ----------
        flavour
            A name.
        """
        _parameter_constraints = {
            **GeometricTreeClassifier._parameter_constraints,
            "max_depth": Parameter(2, Interval(Integral, 1, 3)),
            "flavour": Parameter("plain", Options("plain", "fancy")),
        }

    assert list(inspect.signature(ShallowTree).parameters)[-1] == "flavour"
    tree = ShallowTree()
    assert (tree.max_depth, tree.flavour) == (2, "plain")
    assert fit(ShallowTree(max_depth=3)).get_depth() <= 3
    with pytest.raises(ValueError, match=r"^max_depth must be an integer in \[1, 3\], "
                                         r"got 4$"):
        fit(ShallowTree(max_depth=4))
    with pytest.raises(ValueError, match=r"^flavour must be 'plain' or 'fancy', got 'x'"):
        fit(ShallowTree(flavour="x"))
    assert "flavour : 'plain' or 'fancy', default 'plain'\n    A name." in ShallowTree.__doc__
    # what the other parameters mean is the base class's
    assert ("\nmax_depth : an integer in [1, 3], default 2\nmin_samples_split : an integer "
            "of at least 2, default 2\n    A node with fewer rows is a leaf.\n"
            in ShallowTree.__doc__)


def test_forest_page_gives_the_declared_defaults():
    """The table of defaults of doc/algorithms/forest.md agrees with the declaration."""
    page = Path(__file__).parents[2] / "doc" / "algorithms" / "forest.md"
    rows = [line for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `") and "Default" not in line]
    checked = 0
    for row in rows:
        names = re.findall(r"`(\w+)`", row.split("|")[1])
        shown = row.split("|")[2]
        for name in names:
            parameter = ObliqueForestClassifier._parameter_constraints.get(name)
            if parameter is None:
                continue
            default = parameter.default
            text = f'"{default}"' if isinstance(default, str) else str(default)
            assert text in shown, (name, shown)
            checked += 1
    assert checked >= 5


# ----- values of every numeric type and size -----

class Meaning:
    """What a test value stands for: ``integer`` (an int, or None: not of an integer
    type), ``number`` (a float, or None: not a finite real number) and ``boolean``."""

    def __init__(self, value, integer=None, number=None, boolean=None):
        self.value, self.integer, self.number, self.boolean = value, integer, number, boolean

    def __repr__(self):
        return f"{type(self.value).__name__}({self.value!r})"


#: Values of every kind, each with what it is as a plain int, float or bool: a whole
#: Fraction, Decimal or float is no integer (the type tells a count from a share).
TYPED_VALUES = [
    Meaning(Fraction(1, 10), number=0.1),
    Meaning(Fraction(3, 1), number=3.0),
    Meaning(Decimal("0.25"), number=0.25),
    Meaning(Decimal("3"), number=3.0),
    Meaning(np.int8(3), integer=3, number=3.0),
    Meaning(np.uint64(3), integer=3, number=3.0),
    Meaning(np.uint64(2 ** 64 - 1), integer=2 ** 64 - 1, number=float(2 ** 64 - 1)),
    Meaning(np.float32(0.5), number=0.5),
    Meaning(True, boolean=True),
    Meaning(np.bool_(False), boolean=False),
    Meaning(2 ** 64, integer=2 ** 64, number=float(2 ** 64)),
    Meaning(10 ** 30, integer=10 ** 30, number=1e30),
    Meaning(10 ** 400, integer=10 ** 400),                  # no float holds it
    Meaning(float("nan")), Meaning(Decimal("NaN")), Meaning(float("inf")),
    Meaning(-float("inf")), Meaning("3"),
]

#: Integers are at most 2**63 - 1: numpy and the compiled kernels count in int64.
LARGEST = 2 ** 63 - 1
REFUSED = object()


def is_numeric_or_boolean(parameter):
    return any(isinstance(c, Interval) or c is BOOLEAN for c in parameter.constraints)


def typed_cases():
    for cls in ESTIMATORS:
        for name, parameter in declared(cls).items():
            if is_numeric_or_boolean(parameter):
                for meaning in TYPED_VALUES:
                    yield pytest.param(cls, name, meaning,
                                       id=f"{cls.__name__}-{name}-{meaning!r}")


def expected_value(cls, name, meaning):
    """The plain value the fit should see for ``meaning``, or REFUSED: the first
    constraint that takes the value as its type (an integer, a number, a bool)."""
    defaults = small(cls).get_params()
    for constraint in declared(cls)[name].constraints:
        if isinstance(constraint, Interval):
            plain = meaning.integer if constraint.integral else meaning.number
            if constraint.infinite and meaning.value == float("inf"):
                plain = float("inf")  # a number whose infinity means something
            if plain is None or (constraint.integral and plain > LARGEST):
                continue
            if constraint.holds(plain, {**defaults, name: plain}):
                return plain
        elif constraint is BOOLEAN and meaning.boolean is not None:
            return meaning.boolean
    return REFUSED


def small(cls, **params):
    """An estimator of ``cls`` of few members (an ensemble's), with ``params``."""
    base = {"n_estimators": 3} if "n_estimators" in declared(cls) else {}
    return cls(**{**base, **params})


@pytest.fixture(scope="module")
def compiled():
    """Every estimator fitted once (its kernels compiled) before the timed fits."""
    for cls in ESTIMATORS:
        fit(small(cls))


@pytest.mark.parametrize("cls, name, meaning", list(typed_cases()))
def test_a_value_of_any_numeric_type_is_taken_as_its_value_or_refused_naming_it(
        cls, name, meaning, compiled):
    """Every numeric (and boolean) parameter of every estimator, given a Fraction, a
    Decimal, numpy integers and floats of any width, a bool, 2**64, 10**30, 10**400,
    NaN, ±inf or a string: the fit sees the plain int, float or bool it stands for (and
    ``get_params`` gives it), or refuses it at once with a ValueError that names the
    parameter; never an error from deep inside (numpy's ``isnan``, numba's typing, an
    overflow, a negative dimension)."""
    expected = expected_value(cls, name, meaning)
    estimator = small(cls, **{name: meaning.value})
    start = time.perf_counter()
    if expected is REFUSED:
        with pytest.raises(ValueError, match=rf"^{name} must be "):
            fit(estimator)
        assert time.perf_counter() - start < 2
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # e.g. a growth warning of a tiny tree
        fit(estimator)
    assert time.perf_counter() - start < 20
    value = estimator.get_params()[name]
    assert value == expected and type(value) is type(expected)


def test_a_converted_value_fits_as_the_plain_value():
    """``np.uint64(3)``, ``Fraction(1, 10)``, ``Decimal``, ``np.float32``: the same
    tree as the int or float they stand for."""
    X, y = data()
    pairs = [(OC1Classifier(n_restarts=np.uint64(3), pruning_portion=Fraction(1, 5),
                            random_state=np.int16(4)),
              OC1Classifier(n_restarts=3, pruning_portion=0.2, random_state=4)),
             (GeometricTreeClassifier(epsilon1=Decimal("0.25"), max_depth=np.int8(2)),
              GeometricTreeClassifier(epsilon1=0.25, max_depth=2)),
             (ObliqueForestClassifier(n_estimators=np.uint8(4), max_features=np.float32(0.5),
                                      random_state=0),
              ObliqueForestClassifier(n_estimators=4, max_features=0.5, random_state=0))]
    for typed, plain in pairs:
        np.testing.assert_array_equal(typed.fit(X, y).predict_proba(X),
                                      plain.fit(X, y).predict_proba(X))
        assert typed.get_params() == plain.get_params()


def test_seeds_are_numpys():
    """A seed outside numpy's [0, 2**32 - 1] is refused naming random_state (not
    numpy's 'Seed must be between 0 and 2**32 - 1')."""
    for seed in (-1, 2 ** 32, 2 ** 64):
        with pytest.raises(ValueError, match=r"^random_state must be an integer in "
                                             r"\[0, 2\*\*32 - 1\]"):
            fit(OC1Classifier(random_state=seed))
    fit(OC1Classifier(random_state=2 ** 32 - 1))
