"""Splits as readable rules, in raw feature units, rendered from their structured parts.

Every text of a split -- the branch conditions of :func:`export_text`, the Orange model's
node texts and edge labels, the viewer's rules -- is rendered from the split's
:class:`~orangecontrib.oblique.core.tree.conditions.Condition` parts, never cut out of
another text: each form of condition renders its own words
(:mod:`~orangecontrib.oblique.core.tree.conditions`) in the formats of numbers and names
kept here; the functions here that take a condition hand it over to its form.

A hyperplane ``w·x + b >= 0`` is written with the bias moved to the right-hand side,
``0.82·petal length + 0.57·petal width ≥ 3.1``; a test on a single feature is divided by its
weight, ``petal length ≥ 2.45``.

The numbers of a rule have the split's own count of significant digits
(:attr:`Split.print_digits`, calibrated at fit time), never a fixed count of decimals: with
attributes of large magnitude a weight such as 0.000572 would otherwise print as 0.001 and
the printed rule would send rows to the other branch.  A printed rule routes every training
row exactly as the model does (:meth:`Split.printed`).

A name (of a feature, a value, a class or a branch) enters a text only through
:func:`printable_name`: a name with a control character, a line or paragraph separator or
a lone surrogate in it is written as Python writes it, escaped inside quotes, so that it
cannot break a line of a text, nor forge one, and every text can be written as UTF-8.
"""
import math
import re
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from . import kernels

#: Significant digits of the numbers in rule text, at the least (see ``Split.digits``).
DIGITS = 4
#: Significant digits that reproduce any float exactly.
MAX_DIGITS = 17


def round_significant(values, digits):
    """``values`` rounded to ``digits`` significant digits, as they are printed: the
    rounded numbers are exactly the floats the rule text reads as
    (``float(f"{v:.{digits - 1}e}")``).

    A split's few numbers go through the text itself; many at once through
    :func:`~.kernels.rounded_as_text` (the same numbers, shown so by its
    arithmetic), and the text where that arithmetic cannot decide."""
    values = np.asarray(values, dtype=float)
    if values.size <= 32:  # a split's few numbers: the text itself is faster
        return np.array([float(f"{v:.{digits - 1}e}") if math.isfinite(v) else v
                         for v in values.ravel().tolist()],
                        dtype=float).reshape(values.shape)
    rounded, decided = kernels.rounded_as_text(values.ravel(), digits)
    undecided = np.flatnonzero(~decided)
    rounded[undecided] = [float(f"{v:.{digits - 1}e}") for v in rounded[undecided].tolist()]
    return rounded.reshape(values.shape)


def format_number(value, decimals=3):
    """Round to ``decimals`` digits after the point, drop trailing zeros; never print a
    non-zero number as 0 (fall back to ``decimals`` significant digits).  A negative number
    starts with the minus sign U+2212, and a negative exponent has it too (``1e−13``).
    For counts and shares; rule numbers use :func:`format_significant`."""
    value = float(value)
    if value < 0:
        return "−" + format_number(-value, decimals)
    if value == 0 or not np.isfinite(value):  # also -0.0; inf, nan
        return "0" if value == 0 else str(value)
    text = f"{value:.{max(decimals, 0)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text == "0" and value != 0:  # an exponent's minus is U+2212 too: ``1.2e−13``
        text = f"{value:.{max(decimals, 1)}g}".replace("-", "−")
    return text


def format_significant(value, digits=DIGITS):
    """``value`` rounded to ``digits`` significant digits, written out without an exponent
    (``0.000572``, ``89.06``, ``123500``) unless it is astronomically large or small; the
    text reads back as exactly the rounded float.  Minus is U+2212, an exponent's too
    (``1.083e−16``)."""
    value = float(value)
    if value < 0:
        return "−" + format_significant(-value, digits)
    if value == 0 or not np.isfinite(value):
        return "0" if value == 0 else str(value)
    rounded = float(round_significant(value, digits))
    if 1e-12 <= rounded < 1e16:
        return np.format_float_positional(rounded, trim="-")
    return np.format_float_scientific(rounded, trim="-").replace("-", "−")


#: The characters that break, or hide, the lines of a text: Unicode's control characters
#: (category Cc: ``\n``, ``\r``, ``\t``, ``\x0b``, ``\x0c``, ``\x85`` …) and the line and
#: paragraph separators (U+2028, U+2029).
LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: A lone surrogate, as a name read with ``errors="surrogateescape"`` holds for a byte that
#: is not UTF-8: no UTF-8 file, clipboard or report can hold it.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def printable_name(name):
    """``name`` as every text writes it: unchanged, unless it contains a character of
    :data:`LINE_BREAKING` or :data:`LONE_SURROGATE`; then as Python's ``repr`` writes it,
    inside quotes with Python's escapes (``'petal\\nlength'``, ``'x\\udc80'``), so that a
    name never breaks a line of a rule, a saved rule file or a tooltip, every text can be
    written as UTF-8, and the name reads back as the name it is."""
    name = str(name)
    return repr(name) if LINE_BREAKING.search(name) or LONE_SURROGATE.search(name) else name


@dataclass
class Vocabulary:
    """The words a rule is written in.

    Attributes
    ----------
    features : list of str
        Name of every feature (column).
    classes : list of str, optional
        Name of every class code, for the branches of an argmax split.
    values : list of (list of str or None), optional
        Per feature, the names of a nominal attribute's value codes (``None`` for a
        numeric feature), for equality tests.
    cluster : str
        Format of a cluster's name from its number (``"{}"``: ``1``; ``"cluster {}"``).
    indicators : dict, optional
        ``{j: (attribute name, value name)}``: feature ``j`` is the 0/1 indicator of that
        value of a nominal attribute (a one-hot column): a test of it alone then reads
        ``age = child`` and ``age ≠ child``, not ``age=child ≥ 0.5``.

    The names are kept as they are written (:func:`printable_name`).
    """
    features: list
    classes: list = None
    values: list = None
    cluster: str = "{}"
    indicators: dict = None

    def __post_init__(self):
        self.features = [printable_name(name) for name in self.features]
        if self.classes is not None:
            self.classes = [printable_name(name) for name in self.classes]
        if self.values is not None:
            self.values = [None if names is None else [printable_name(n) for n in names]
                           for names in self.values]
        if self.indicators is not None:
            self.indicators = {int(j): (printable_name(attribute), printable_name(value))
                               for j, (attribute, value) in self.indicators.items()}

    @classmethod
    def of(cls, names):
        return names if isinstance(names, Vocabulary) else cls(list(names))

    def value_of(self, feature, value):
        """A row's ``value`` of ``feature`` in words: a nominal value's name, a number,
        or ``missing`` (NaN, ±inf)."""
        value = float(value)
        if not np.isfinite(value):
            return "missing"
        names = self.values[feature] if self.values else None
        if names is not None and value.is_integer() and 0 <= value < len(names):
            return names[int(value)]
        return format_number(value)

    def values_of(self, features, x):
        """``a = 63, sex = male``: the row ``x``'s values of ``features``.  The 0/1
        columns of one nominal attribute (:attr:`indicators`) read as the attribute's
        value where one of them is 1 (``status = first``), else as the values it is not
        (``status ≠ crew, third``); a column of another value (imputed) as itself."""
        indicators = self.indicators or {}
        groups, items = {}, []  # attribute -> (values it is, values it is not)
        for j in features:
            attribute, value = indicators.get(j, (None, None))
            if attribute is None or x[j] not in (0, 1):
                items.append(f"{self.features[j]} = {self.value_of(j, x[j])}")
                continue
            if attribute not in groups:
                groups[attribute] = ([], [])
                items.append((attribute,))
            groups[attribute][int(x[j] == 0)].append(value)
        words = []
        for item in items:
            if isinstance(item, str):
                words.append(item)
                continue
            is_value, is_not = groups[item[0]]
            words.append(f"{item[0]} = {is_value[0]}" if is_value
                         else f"{item[0]} ≠ {', '.join(is_not)}")
        return ", ".join(words)


def term_texts(affine, names, digits=DIGITS, order=None, max_terms=None):
    """The terms of ``affine`` as pieces ``["0.5·a", "− 2·b", "+ c"]`` and the number of
    terms left out.  ``order`` lists feature indices in the order to print them (default:
    feature order); with ``max_terms`` only the first ``max_terms`` terms are printed, as
    many as asked (a text that says "3 terms" shows 3, and "+ 1 more" for a fourth).  A
    weight that prints as 1 is the bare name."""
    names = Vocabulary.of(names).features
    weight = {term.feature: term.weight for term in affine.terms}
    shown, omitted = shown_terms(affine, order, max_terms)
    pieces = []
    for j in shown:
        magnitude = format_significant(abs(weight[j]), digits)
        term = names[j] if magnitude == "1" else f"{magnitude}·{names[j]}"
        if not pieces:
            pieces.append(term if weight[j] > 0 else f"−{term}")
        else:
            pieces.append(f"+ {term}" if weight[j] > 0 else f"− {term}")
    return pieces, omitted


def shown_terms(affine, order=None, max_terms=None):
    """(features of the terms of ``affine`` that a text shows, in the order shown; the
    number left out): see :func:`term_texts`."""
    weight = {term.feature: term.weight for term in affine.terms}
    if order is None:
        order = sorted(weight)
    used = [int(j) for j in order if weight.get(int(j), 0) != 0]
    shown = used if max_terms is None else used[:max_terms]
    return shown, len(used) - len(shown)


def affine_text(affine, names, digits=DIGITS, order=None, max_terms=None):
    """``0.8·a − 0.6·b + 1.2``: the terms (``+ N more`` for those left out) and the
    constant."""
    pieces, omitted = term_texts(affine, names, digits, order, max_terms)
    text = " ".join(pieces) or "0"
    if omitted:
        text += f" + {omitted} more"
    if affine.constant != 0:
        text += (" + " if affine.constant > 0 else " − ") + format_significant(
            abs(affine.constant), digits)
    return text


def scores_text(condition, names, order=None, max_terms=None):
    """The score maps of a multiway condition, ``s1; s2; …`` (for pairwise votes each
    named by its pair, ``a vs b: s``)."""
    return condition.scores_text(names, order, max_terms)


#: A multiway branch's condition lists the split's scores up to this many of them.
MAX_SCORES_LISTED = 12


def condition_text(condition, names, order=None, max_terms=None, with_scores=False):
    """The whole condition of one branch, e.g. ``0.8·a − 0.6·b ≥ 1.2``, ``a = red``,
    ``largest score: setosa`` (``… of [s1; s2; s3]`` with ``with_scores``),
    ``wins most pairwise votes: setosa`` (never with its scores, which the node's rule
    lists: :meth:`.conditions.Votes.node_rule`): :meth:`.conditions.Condition.text`."""
    return condition.text(names, order, max_terms, with_scores)


def missing_text(split, position):
    """How a row with a missing value in the split's features goes down branch
    ``position``: ``"missing: 38.2 %"`` -- its weight times the branch's share, C4.5's
    fractional routing (:attr:`~.splits.Split.missing_shares`), where the node's
    training rows had missing values; ``""`` otherwise and for a split at which such a
    row stops (:meth:`~.splits.Split.missing_text`)."""
    return split.missing_text(position)


def with_missing(split, texts):
    """The branch ``texts`` of ``split``, each followed by `` (missing: 38.2 %)`` where
    the split says so (:func:`missing_text`)."""
    suffixes = [split.missing_text(position) for position in range(len(texts))]
    return [f"{text} ({suffix})" if suffix else text
            for text, suffix in zip(texts, suffixes)]


def edge_text(condition, names):
    """The short label of a branch: ``≥ 1.2``, ``= red``, ``≠ red``, ``setosa``."""
    return condition.edge_label(names)


def quantity_text(split, names, order=None, max_terms=None):
    """The quantity a split tests: the attribute's name for a test of one attribute, the
    left-hand side ``0.8·a − 0.6·b`` of a hyperplane, the score maps of a multiway split."""
    return split.conditions()[0].quantity_text(names, order, max_terms)


def branch_conditions(split, names, digits=None, order=None, max_terms=None,
                      with_scores=False):
    """One condition text per child of ``split``, in child order; numbers have ``digits``
    significant digits (default: the split's own :attr:`~Split.print_digits`).  ``names``
    are the feature names or a :class:`Vocabulary`."""
    if digits is not None:
        split = split.copy(digits=digits)
    return [condition_text(condition, names, order, max_terms, with_scores)
            for condition in split.conditions()]


def export_text(tree, feature_names=None, class_names=None, decimals=3,
                show_counts=True, value_names=None, indicators=None):
    """The tree as indented text; every branch carries its test in raw feature units.

    Parameters
    ----------
    feature_names : sequence of str, optional
        Default: the tree's own :attr:`feature_names` if it has them (an ensemble's
        member trees get the column names of the data frame the ensemble was fitted
        on), else ``x1 .. xd``.
    class_names : sequence of str, optional (default ``0 .. K-1``)
    decimals : int
        Digits after the decimal point for the class counts.  Weights and thresholds
        have each split's own significant digits (:attr:`Split.print_digits`), with
        which the printed rules route the training rows as the tree does.
    show_counts : bool
        Append the class counts of the training rows to every leaf.
    value_names : sequence of (sequence of str or None), optional
        Per feature, the names of a nominal attribute's value codes (``None`` for a
        numeric one): an equality test then reads ``thal = normal``, not ``thal = 0``.
    indicators : dict, optional
        ``{j: (attribute name, value name)}`` of the features that are 0/1 indicators of
        a nominal value (one-hot columns): a test of one of them alone then reads
        ``age = child`` (see :class:`Vocabulary`).

    Notes
    -----
    A branch of an argmax split (``largest score``) carries the scores that decide it,
    as the Orange model's node texts do; a split of more than
    :data:`~.rules.MAX_SCORES_LISTED` scores, and every pairwise-vote split (``wins
    most pairwise votes``), lists them once, in a line ``scores: …`` above its
    branches.
    """
    if feature_names is None:  # (trees pickled before they had names: None)
        feature_names = getattr(tree, "feature_names", None)
    feature_names = default_names(feature_names, tree.n_features, "x")
    class_names = default_names(class_names, tree.n_classes, None)
    if value_names is not None and len(value_names) != tree.n_features:
        raise ValueError(f"expected value names for {tree.n_features} features, "
                         f"got {len(value_names)}")
    vocabulary = Vocabulary(feature_names, classes=class_names,
                            values=None if value_names is None else list(value_names),
                            indicators=indicators)
    lines = []

    def leaf_text(node):
        proba = np.ravel(tree.node_proba([node]))
        text = f"class: {vocabulary.classes[int(np.argmax(proba))]}"
        if show_counts:
            counts = tree.value[node]  # dense, or CSR (compact_class_counts)
            if sparse.issparse(counts):
                counts = counts.toarray().ravel()
            counts = ", ".join(format_number(c, decimals) for c in counts)
            text += f" [{counts}]"
        return text

    stack = [(0, 0, None)]
    while stack:
        node, level, line = stack.pop()
        if line is not None:
            lines.append(line)
        elif tree.splits[node] is None:
            lines.append("|   " * level + "|--- " + leaf_text(node))
        else:
            split = tree.splits[node]
            conditions = split.conditions()
            texts = with_missing(split, [condition.listed_text(vocabulary)
                                         for condition in conditions])
            for condition, child in reversed(list(zip(texts, tree.children[node]))):
                stack.append((child, level + 1, None))
                stack.append((node, level, "|   " * level + "|--- " + condition))
            if split.lists_scores_once(conditions):
                stack.append((node, level, "|   " * level + "|    scores: "
                              + scores_text(conditions[0], vocabulary)))
    return "\n".join(lines) + "\n"


def default_names(names, count, prefix):
    """``names`` as strings, checked to be ``count``; default ``{prefix}1 ..`` (``0 ..``
    without a prefix)."""
    if names is None:
        return [f"{prefix}{i + 1}" if prefix else str(i) for i in range(count)]
    names = [str(n) for n in names]
    if len(names) != count:
        raise ValueError(f"expected {count} names, got {len(names)}")
    return names
