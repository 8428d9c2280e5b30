"""Parameters declared once: every estimator lists its parameters in a class attribute
``_parameter_constraints`` (name → :class:`Parameter`: the default and the values it
accepts), as scikit-learn's estimators list theirs (whose declaration objects live in a
private module and accept ``True`` for an integer or a number, which these refuse).
From it come

* the constructor: :class:`DeclaredParameters` makes the class's ``__init__`` (one
  keyword per parameter, in the declared order, with its default; it only stores them, as
  scikit-learn's ``get_params``, ``set_params`` and ``clone`` need);
* the checks of a fit: :func:`validate_parameters` -- first every value's type, then its
  range or its options, then the few rules between parameters
  (``_parameter_relations``, :class:`Relation`), each a ValueError that names the
  parameter and says what it accepts; a value of any numeric type (numpy integers and
  floats of any width, Fraction, Decimal) is taken as the value it is and converted,
  there and once, to the int, float or bool the fit and the compiled kernels use; no
  integer is above :data:`LARGEST_INTEGER` (2**63 - 1);
* the documentation: each entry of the ``Parameters`` section of the class docstring
  says what the parameter accepts and its default (:func:`with_declared_parameters`;
  the docstring says what it means, and documents no parameter the class does not
  declare);

and, in ``orangecontrib.oblique.learners``, the Orange learners' signatures and docs.
"""
import decimal
import math
import numbers
import re
import textwrap
from numbers import Integral, Real

import numpy as np

__all__ = ["Parameter", "Interval", "Options", "Derived", "Relation", "InstanceOf",
           "BOOLEAN", "RANDOM_STATE", "INDICES", "CLASSIFIER", "NON_ZERO_INTEGER",
           "LARGEST_INTEGER", "DeclaredParameters", "validate_parameters",
           "checked_parameters", "check_value", "documented_parameters",
           "with_declared_parameters", "declared_kinds", "constructor"]


# ----- the kinds of value -----

#: The largest integer a parameter takes: numpy and the compiled kernels count in 64-bit
#: integers (a larger one would fail deep inside a fit, or ask for memory no machine has).
LARGEST_INTEGER = 2 ** 63 - 1
LARGEST_INTEGER_TEXT = "2**63 - 1"
#: The largest seed numpy's RandomState takes.
LARGEST_SEED = 2 ** 32 - 1

#: What a conversion returns for a value not of its type.
NOT_OF_TYPE = object()

# (a plain int or float is answered first: the abstract classes' checks cost more, and
# ODT-SVM checks an XMeans's parameters at every node)


def _is_bool(value):
    return value is True or value is False or isinstance(value, np.bool_)


def _is_int(value):
    """An integer of any type (int, a numpy integer of any width), not a bool."""
    return type(value) is int or (isinstance(value, numbers.Integral)
                                  and not _is_bool(value))


def _as_int(value):
    """``value`` as an int if it is an integer (:func:`_is_int`), else
    :data:`NOT_OF_TYPE`.  A float, Fraction or Decimal is not an integer, even when it is
    whole: the type tells a count from a share (``max_features=1`` is one feature,
    ``1.0`` all of them), as in scikit-learn."""
    if type(value) is int:
        return value
    return int(value) if _is_int(value) else NOT_OF_TYPE


def _as_float(value):
    """``value`` as a float if it is a finite real number of any type (int, float, a
    numpy integer or float of any width, Fraction, Decimal; not a bool, a string, NaN or
    ±inf, nor an integer too large for a float), else :data:`NOT_OF_TYPE`."""
    if type(value) is float:
        return value if math.isfinite(value) else NOT_OF_TYPE
    if _is_bool(value) or not isinstance(value, (numbers.Real, decimal.Decimal)):
        return NOT_OF_TYPE
    try:
        converted = float(value)
    except (OverflowError, ValueError, TypeError, ArithmeticError):
        return NOT_OF_TYPE  # 10**400, Decimal('sNaN')
    return converted if math.isfinite(converted) else NOT_OF_TYPE


def _is_number(value):
    return _as_float(value) is not NOT_OF_TYPE


def _is_seed(value):
    return _is_int(value) or isinstance(value, np.random.RandomState)


def _seed(value):
    """A seed as an int (a numpy integer too), a RandomState as itself."""
    if isinstance(value, np.random.RandomState):
        return value
    return _as_int(value)


def _is_classifier(value):
    return not isinstance(value, type) and hasattr(value, "fit") and hasattr(value, "predict")


def _number(value):
    return f"{value:g}" if isinstance(value, numbers.Real) else str(value)


def _listed(items):
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


class Constraint:
    """A set of values a parameter may take.  ``kind`` names its type (``"bool"``,
    ``"int"``, ``"float"``, ``"str"``, ``"auto"``, ``"none"``, ``"random_state"``,
    ``"indices"``, ``"estimator"``); ``kind_text`` is how a message names the type;
    :meth:`converted` gives a value of its type as the one type the fit uses (an int, a
    float, a bool; :data:`NOT_OF_TYPE` for a value of another type), :meth:`contains`
    tests a converted value (``params``: all the estimator's values, converted, for a
    bound that depends on another parameter); :meth:`texts` says what it accepts (with
    ``params``, with such bounds' values; with ``value``, a refused one, what it exceeds)."""
    kind, kind_text = "", ""

    def converted(self, value):
        return value if self.is_type(value) else NOT_OF_TYPE

    def is_type(self, value):
        raise NotImplementedError

    def contains(self, value, params):
        return True

    def holds(self, value, params):
        """Whether ``value`` (of any type) is of its type and, converted, in it."""
        value = self.converted(value)
        return value is not NOT_OF_TYPE and self.contains(value, params)

    def texts(self, params=None, value=None):
        return [self.kind_text]


class _Kind(Constraint):
    """Every value of a type: ``True``/``False`` (not a number or a string: ``"False"``
    is a true value), an integer or a RandomState, None, a column list, a classifier;
    ``convert``: the value as the fit uses it (None: itself)."""

    def __init__(self, kind, kind_text, test, convert=None):
        self.kind, self.kind_text, self._test, self._convert = kind, kind_text, test, convert

    def is_type(self, value):
        return self._test(value)

    def converted(self, value):
        if not self._test(value):
            return NOT_OF_TYPE
        return value if self._convert is None else self._convert(value)

    def __repr__(self):
        return self.kind.upper()


class _Seed(_Kind):
    """An integer in [0, 2**32 - 1] (numpy's seeds) or a RandomState."""

    def __init__(self):
        super().__init__("random_state", "an integer, a numpy RandomState", _is_seed, _seed)

    def contains(self, value, params):
        return not isinstance(value, int) or 0 <= value <= LARGEST_SEED

    def texts(self, params=None, value=None):
        return ["an integer in [0, 2**32 - 1]", "a numpy RandomState"]


BOOLEAN = _Kind("bool", "True or False", _is_bool, bool)
RANDOM_STATE = _Seed()
INDICES = _Kind("indices", "a list of column indices or a boolean mask",
                lambda value: (not isinstance(value, (str, bytes, dict, set))
                               and not _is_bool(value) and np.ndim(value) == 1))
CLASSIFIER = _Kind("estimator", "a classifier with fit and predict (an instance, not a "
                                "class)", _is_classifier)
_NONE = _Kind("none", "None", lambda value: value is None)


class Derived:
    """A bound that depends on other parameters: ``text`` (as ``"1/n_estimators"``) and
    ``value(params)``."""

    def __init__(self, text, value):
        self.text, self.value = text, value


class Interval(Constraint):
    """Integers or numbers between ``left`` and ``right`` (None: unbounded; a
    :class:`Derived` bound: from other parameters); ``closed``: ``"both"``, ``"left"``,
    ``"right"`` or ``"neither"``.

    ``Integral``: a value of an integer type (int, a numpy integer of any width; not a
    bool, nor a whole float, Fraction or Decimal), taken as an int; never above
    :data:`LARGEST_INTEGER` (2**63 - 1), whatever ``right`` says.  ``Real``: a finite
    real number of any type (int, float, numpy integer or float of any width, Fraction,
    Decimal; not a bool, a string, NaN or ±inf), taken as a float."""

    def __init__(self, type_, left, right, closed="both", infinite=False):
        self.integral = type_ is Integral
        #: whether +inf is a value (a number without upper bound whose infinity means
        #: something, e.g. OC1's ``axis_parallel_bias``: axis-parallel splits only)
        self.infinite = infinite and right is None and not self.integral
        self.left, self.right, self.closed = left, right, closed
        self.left_closed = closed in ("both", "left")
        self.right_closed = closed in ("both", "right")
        self.kind, self.kind_text = ("int", "an integer") if self.integral else (
            "float", "a number")

    def is_type(self, value):
        return self.converted(value) is not NOT_OF_TYPE

    def converted(self, value):
        if self.integral:
            return _as_int(value)
        if (self.infinite and isinstance(value, numbers.Real) and not _is_bool(value)
                and value == math.inf):
            return math.inf
        return _as_float(value)

    @staticmethod
    def _bound(bound, params):
        return bound.value(params) if isinstance(bound, Derived) else bound

    def contains(self, value, params):
        if self.integral and value > LARGEST_INTEGER:
            return False
        left, right = self.left, self.right
        if left is not None:
            if type(left) is Derived:
                left = left.value(params)
            if value < left or (value == left and not self.left_closed):
                return False
        if right is not None:
            if type(right) is Derived:
                right = right.value(params)
            if value > right or (value == right and not self.right_closed):
                return False
        return True

    def texts(self, params=None, value=None):
        if (self.integral and value is not None and self.is_type(value)
                and self.converted(value) > LARGEST_INTEGER):
            return [f"{self.kind_text} of at most {LARGEST_INTEGER_TEXT} (numpy and the "
                    f"compiled kernels count in 64-bit integers)"]

        def shown(bound, with_value):
            if not isinstance(bound, Derived):
                return _number(bound)
            if with_value and params is not None:
                return f"{bound.text} ({_number(bound.value(params))})"
            return bound.text

        if self.right is None:
            if not self.integral and self.left == 0 and not self.left_closed:
                return ["a positive number"]
            above = "at least" if self.left_closed else "above"
            return [f"{self.kind_text} of {above} {shown(self.left, True)}"]
        opening = "[" if self.left_closed else "("
        closing = "]" if self.right_closed else ")"
        text = f"{self.kind_text} in {opening}{shown(self.left, False)}, " \
               f"{shown(self.right, False)}{closing}"
        if params is not None and any(isinstance(b, Derived) for b in (self.left, self.right)):
            text += (f" = {opening}{_number(self._bound(self.left, params))}, "
                     f"{_number(self._bound(self.right, params))}{closing}")
        return [text]


class Options(Constraint):
    """One of the strings ``values`` (in the order given, for the messages and docs)."""

    def __init__(self, *values):
        self.values = values
        self.kind, self.kind_text = ("auto", "'auto'") if values == ("auto",) else (
            "str", "a string")

    def is_type(self, value):
        if self.kind == "auto":
            return isinstance(value, str) and value == "auto"
        return isinstance(value, str)

    def converted(self, value):
        return str(value) if self.is_type(value) else NOT_OF_TYPE

    def contains(self, value, params):
        return value in self.values

    def texts(self, params=None, value=None):
        return [repr(value) for value in self.values]


class InstanceOf(Constraint):
    """A classifier (an instance with fit and predict) of class ``cls``, named ``text``."""
    kind, kind_text = CLASSIFIER.kind, CLASSIFIER.kind_text

    def __init__(self, cls, text):
        self.cls, self.text = cls, text

    def is_type(self, value):
        return _is_classifier(value)

    def contains(self, value, params):
        return isinstance(value, self.cls)

    def texts(self, params=None, value=None):
        return [self.text]


class _NonZeroInteger(Constraint):
    kind, kind_text = "int", "an integer"

    def is_type(self, value):
        return _is_int(value)

    def converted(self, value):
        return _as_int(value)

    def contains(self, value, params):
        return value != 0 and abs(value) <= LARGEST_INTEGER

    def texts(self, params=None, value=None):
        return ["a non-zero integer (-1: all cores)"]


#: A number of jobs: any integer but 0 (-1: all cores, as joblib counts them).
NON_ZERO_INTEGER = _NonZeroInteger()


def _constraint(constraint):
    return _NONE if constraint is None else constraint


class Parameter:
    """A declared parameter: its ``default`` and the ``constraints`` its value must meet
    one of (None among them: None is allowed).  What it means is written in the
    ``Parameters`` section of the class docstring, under its name."""

    def __init__(self, default, *constraints):
        self.default = default
        self.constraints = tuple(_constraint(c) for c in constraints)

    def replace(self, default):
        """The same constraints with another ``default``."""
        return Parameter(default, *self.constraints)

    @property
    def kinds(self):
        """The kinds of value (:attr:`Constraint.kind`) it accepts, without repeats."""
        return tuple(dict.fromkeys(c.kind for c in self.constraints))

    def type_error(self, name, value, owner):
        """The message for a value of none of the accepted types."""
        allowed = _listed(dict.fromkeys(c.kind_text for c in self.constraints))
        reason, kinds = "", self.kinds
        if isinstance(value, (numbers.Number, decimal.Decimal)) and not _is_bool(value):
            if "float" in kinds:
                reason = "; NaN, ±inf and numbers too large for a float are not taken"
            elif "int" in kinds:
                reason = ("; an integer is of an integer type (int, numpy integers), not "
                          "a float, Fraction or Decimal, even a whole one")
        return (f"{name} must be {allowed}, got {shown_value(value)} (of type "
                f"{type(value).__name__}) in {owner}{reason}")

    def describe(self, params=None, value=None):
        """What it accepts, as the messages and the docs say it (``value``: a refused
        value, whose message may say what it exceeds)."""
        return _listed([text for c in self.constraints for text in c.texts(params, value)])


class Relation:
    """A rule between parameters: ``holds(params)`` is true for values that go together;
    ``message`` says what is wrong otherwise (formatted with the values)."""

    def __init__(self, holds, message):
        self.holds, self.message = holds, message


# ----- validation -----

def shown_value(value):
    """``repr(value)``, but an integer of more than 30 digits by its size."""
    text = repr(value)
    if _is_int(value) and len(text) > 30:
        return f"an integer of {len(str(abs(int(value))))} digits"
    return text


def _refusal(name, parameter, value, params):
    """The ValueError for ``value`` of an accepted type outside every constraint."""
    return ValueError(f"{name} must be {parameter.describe(params, value)}, "
                      f"got {shown_value(value)}")


def _first_of_type(parameter, value):
    """``value`` converted by the first constraint of its type, else NOT_OF_TYPE."""
    for constraint in parameter.constraints:
        converted = constraint.converted(value)
        if converted is not NOT_OF_TYPE:
            return converted
    return NOT_OF_TYPE


def _accepted(parameter, value, params):
    """``value`` converted by the first constraint that takes it, else NOT_OF_TYPE."""
    for constraint in parameter.constraints:
        converted = constraint.converted(value)
        if converted is not NOT_OF_TYPE and constraint.contains(converted, params):
            return converted
    return NOT_OF_TYPE


def check_value(name, value, constraints, params=None):
    """``value`` as the one type the fit uses (an int, a float, ...), or a ValueError
    unless it meets one of ``constraints`` (a parameter's constraints:
    :class:`Interval`, :class:`Options`, ..., None for None)."""
    parameter = Parameter(None, *constraints)
    converted = _accepted(parameter, value, params)
    if converted is NOT_OF_TYPE:
        raise _refusal(name, parameter, value, params)
    return converted


def checked_parameters(cls, params):
    """name → the value of each parameter ``cls`` declares, as the one type the fit uses
    (an integer of any type as an int, a number as a float, a numpy bool as a bool), or a
    ValueError for the first parameter of a type its declaration does not accept (by
    name), then for the first (in the declared order) outside its range or options, then
    for the first of the class's ``_parameter_relations`` that does not hold."""
    declared = cls._parameter_constraints
    try:  # every value taken (a bound from another parameter reads its given value)
        converted = {name: _accepted(parameter, params[name], params)
                     for name, parameter in declared.items()}
    except (TypeError, ValueError, ArithmeticError):
        converted = None
    if converted is not None and all(
            value is not NOT_OF_TYPE for value in converted.values()) and all(
            relation.holds(converted) for relation in cls._parameter_relations):
        return converted
    converted = {}
    for name, parameter in declared.items():
        value = _first_of_type(parameter, params[name])
        if value is NOT_OF_TYPE:
            for first in sorted(declared):  # the first by name, as the message promises
                if _first_of_type(declared[first], params[first]) is NOT_OF_TYPE:
                    raise ValueError(declared[first].type_error(first, params[first],
                                                                cls.__name__))
        converted[name] = value
    for name, parameter in declared.items():
        value = _accepted(parameter, params[name], converted)
        if value is NOT_OF_TYPE:
            raise _refusal(name, parameter, params[name], converted)
        converted[name] = value
    for relation in cls._parameter_relations:
        if not relation.holds(converted):
            raise ValueError(relation.message.format(**converted))
    return converted


def validate_parameters(estimator):
    """Check the parameters of ``estimator`` (:func:`checked_parameters`) and set each
    one of another type than the fit uses to its converted value (``np.int8(3)`` to
    ``3``, ``Fraction(1, 10)`` to ``0.1``), once, at the start of the fit: the fit and
    the compiled kernels see only ints, floats and bools.  Parameters not declared (a
    subclass's own) are not checked."""
    cls = type(estimator)
    params = {name: getattr(estimator, name) for name in cls._parameter_constraints}
    for name, value in checked_parameters(cls, params).items():
        if value is not params[name] and type(value) is not type(params[name]):
            setattr(estimator, name, value)


# ----- the constructor and the documentation -----

def constructor(names, defaults, qualname, body):
    """A function ``__init__(self, <names>=<defaults>)`` running the lines ``body``, made
    from source as the standard library's ``dataclasses`` makes constructors: a plain
    function with a plain signature (what scikit-learn's ``get_params`` and Orange's
    ``Reprable`` read with ``inspect.signature``), no ``**kwargs``."""
    for name in names:
        if not name.isidentifier():
            raise ValueError(f"{name!r} is not a parameter name")
    source = (f"def __init__(self, {', '.join(names)}):\n"
              + "".join(f"    {line}\n" for line in body or ["pass"]))
    namespace = {}
    exec(source, {}, namespace)  # pylint: disable=exec-used  # names checked above
    init = namespace["__init__"]
    init.__defaults__ = tuple(defaults)
    init.__qualname__ = f"{qualname}.__init__"
    return init


_HEADING = re.compile(r"^\S.*\n-{3,}$", re.M)


def _dedented(doc):
    first, _, rest = (doc or "").strip("\n").partition("\n")
    return first.strip() + ("\n" + textwrap.dedent(rest) if rest else "")


#: The first line of an entry of a numpydoc ``Parameters`` section.
_ENTRY = re.compile(r"^[A-Za-z_]\w*( : .*)?$")


def _section_body(doc, start):
    """The text of the ``Parameters`` section at ``start`` of ``doc``: up to the next
    section heading, or a line that is neither indented nor an entry's first line."""
    body = doc[start + len("Parameters\n----------\n"):]
    lines = body.splitlines()
    for i, line in enumerate(lines):
        if line and not line[0].isspace() and (
                not _ENTRY.match(line) or i + 1 < len(lines) and set(lines[i + 1]) == {"-"}):
            return "\n".join(lines[:i]).rstrip()
    return body.rstrip()


def documented_parameters(doc):
    """name → the lines (dedented) of what it means, from the numpydoc ``Parameters``
    section of the docstring ``doc`` (an entry's first line is its name, with or
    without ``: type``)."""
    doc = _dedented(doc)
    start = doc.find("Parameters\n----------\n")
    if start < 0:
        return {}
    entries, name = {}, None
    for line in _section_body(doc, start).splitlines():
        if line and not line[0].isspace():
            name = line.split(" : ")[0].strip()
            entries[name] = []
        elif name is not None:
            entries[name].append(line[4:] if line.startswith("    ") else line.strip())
    return {name: lines[:len(lines) - next((i for i, line in enumerate(reversed(lines))
                                            if line), len(lines))]
            for name, lines in entries.items()}


def with_declared_parameters(cls, declared, meanings=None, extra=None):
    """The docstring of ``cls`` with its ``Parameters`` section made from ``declared``
    (name → :class:`Parameter`, in order): an entry ``name : what it accepts, default
    value`` for each, followed by what the docstring says it means (else what
    ``meanings`` says, name → lines), then the entries ``extra`` (name → its first
    line; what it means, as for the others).  A TypeError for a parameter the docstring
    documents but ``cls`` does not declare."""
    extra = extra or {}
    doc = _dedented(cls.__doc__)
    documented = documented_parameters(doc)
    unknown = set(documented) - set(declared) - set(extra)
    if unknown:
        raise TypeError(f"{cls.__qualname__} documents parameters it does not declare: "
                        f"{sorted(unknown)}")
    lines = ["Parameters", "----------"]
    for name, parameter in declared.items():
        lines.append(f"{name} : {parameter.describe()}, default {parameter.default!r}")
        meaning = documented.get(name) or (meanings or {}).get(name, [])
        lines.extend(f"    {line}" if line else "" for line in meaning)
    for name, first_line in extra.items():
        lines.append(first_line)
        meaning = documented.get(name) or (meanings or {}).get(name, [])
        lines.extend(f"    {line}" if line else "" for line in meaning)
    section = "\n".join(lines)
    start = doc.find("Parameters\n----------\n")
    if start >= 0:
        end = start + len("Parameters\n----------\n") + len(_section_body(doc, start))
        rest = doc[end:].strip("\n")
        return doc[:start] + section + ("\n\n" + rest + "\n" if rest else "\n")
    end = _HEADING.search(doc)
    if end:
        return doc[:end.start()] + section + "\n\n" + doc[end.start():]
    return doc.rstrip() + "\n\n" + section + "\n"


class DeclaredParameters:
    """Base of an estimator whose class declares ``_parameter_constraints``: its
    ``__init__`` (each parameter stored as an attribute of its name, nothing else) and
    the ``Parameters`` section of its docstring are made from the declaration, and
    :meth:`_validate_params` checks a fit's values against it."""
    _parameter_constraints = {}
    _parameter_relations = ()
    #: name → the lines of the docstring that say what it means
    _parameter_meanings = {}

    def __init_subclass__(cls, **kwargs):
        declared = cls.__dict__.get("_parameter_constraints")
        if declared is not None and "__init__" not in cls.__dict__:
            cls.__init__ = constructor(
                list(declared), [p.default for p in declared.values()], cls.__qualname__,
                [f"self.{name} = {name}" for name in declared])
            cls.__init__.__module__ = cls.__module__
            inherited = {name: lines for base in reversed(cls.__mro__[1:])
                         for name, lines in getattr(base, "_parameter_meanings", {}).items()}
            cls._parameter_meanings = {**inherited, **documented_parameters(cls.__doc__)}
            cls.__doc__ = with_declared_parameters(cls, declared, inherited)
        super().__init_subclass__(**kwargs)

    def _validate_params(self):
        """Raise ValueError for a parameter of the wrong type, out of its range or
        options, or at odds with another (:func:`validate_parameters`)."""
        validate_parameters(self)

    def __setstate__(self, state):
        """An estimator pickled before some of its parameters were declared (a model
        saved by an earlier version) gets them at their defaults: ``get_params``,
        ``clone`` and ``repr`` work; the fitted tree is as it was saved."""
        restore = getattr(super(), "__setstate__", None)
        if restore is not None:
            restore(state)
        else:
            self.__dict__.update(state)
        for name, parameter in type(self)._parameter_constraints.items():
            if name not in self.__dict__:
                self.__dict__[name] = parameter.default


def declared_kinds(*classes):
    """name → the kinds of value (:attr:`Parameter.kinds`) of every parameter the
    ``classes`` declare; a ValueError if two declare a name with different kinds."""
    kinds = {}
    for cls in classes:
        for name, parameter in cls._parameter_constraints.items():
            if kinds.setdefault(name, parameter.kinds) != parameter.kinds:
                raise ValueError(f"{name} has kinds {kinds[name]} and {parameter.kinds}")
    return kinds


# ----- parameters several estimators share (some with another default) -----

#: The depth limit of a tree; None: none.
MAX_DEPTH = Parameter(None, Interval(Integral, 0, None), None)
#: A node with fewer rows is a leaf.
MIN_SAMPLES_SPLIT = Parameter(2, Interval(Integral, 2, None))
#: The fewest rows a child of a split may have.
MIN_SAMPLES_LEAF = Parameter(1, Interval(Integral, 1, None))
#: The share of the training rows held out to prune the tree (OC1 Section 3).
PRUNING_PORTION = Parameter(0.0, Interval(Real, 0, 0.9))
#: k of the k-SE rule (Breiman et al. 1984, ch. 3).
SE_RULE = Parameter(0.0, Interval(Real, 0, None))
#: A seed: an integer, a numpy RandomState or None.
SEED = Parameter(None, RANDOM_STATE, None)
#: At most this many attributes a split (:mod:`~.tree.sparse`).
MAX_TERMS = Parameter(None, Interval(Integral, 1, None), None)
#: The number of members of an ensemble.
N_ESTIMATORS = Parameter(10, Interval(Integral, 1, None))
#: Jobs of joblib; None: 1, or the active backend's.
N_JOBS = Parameter(None, NON_ZERO_INTEGER, None)
