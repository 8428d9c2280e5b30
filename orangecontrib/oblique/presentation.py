"""How a split reads in an Orange domain: the texts of the Orange model and of the viewer.

:class:`SplitPresenter` renders one tree's splits in the words of a domain -- attribute
names, nominal value names, class names, clusters -- from the splits' structured
conditions (:meth:`Split.conditions`), through the renderers of
:mod:`orangecontrib.oblique.core.rules`.  The Orange model
(:class:`~orangecontrib.oblique.learners.ObliqueTreeModel`) builds its node texts with it
and the Oblique Tree Viewer its rules, paths and tooltips, so both always say the same.
No Qt here.
"""
from html import escape

import numpy as np

from .core.rules import (Vocabulary, affine_text, condition_text, edge_text, format_number,
                         format_significant, quantity_text, term_texts, value_name)

__all__ = ["SplitPresenter", "SplitLabel", "BOX_TERMS", "BOX_LINE_CHARS"]

#: A node box in Orange's Tree Viewer is at most 200 px wide and clips its text, so a
#: hyperplane shows only its largest terms, at most this many characters a line (longer
#: terms are cut with "…"; the tooltip has the whole rule).
BOX_TERMS = 4
BOX_LINE_CHARS = 22


class SplitLabel:
    """What an internal node tests; stands in for the split attribute of Orange's nodes.

    Attributes
    ----------
    name : str
        HTML shown in the node box: the largest terms of the hyperplane, wrapped onto
        several lines with ``<br/>``.
    text : str
        The same quantity as plain text with every term.
    """

    def __init__(self, name, text):
        self.name = name
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"SplitLabel({self.text!r})"


def _is_multiway(split):
    return split.conditions()[0].form in ("largest", "nearest")


class SplitPresenter:
    """Texts of the splits of one tree over one domain.

    Terms are listed by importance, ``|w_j| · std(x_j)`` over the training rows, so that a
    hyperplane shortened to its first terms keeps the ones that matter.  Branches are
    named in the domain's own words: a nominal test reads ``chest pain = asymptomatic``
    and ``chest pain ≠ asymptomatic`` (value names, not codes), the branches of an argmax
    split carry class names, and those of a nearest-centre split read ``cluster 1`` ..
    ``cluster k``.

    Parameters
    ----------
    variables : sequence of Orange variables
        The attributes of the (preprocessed) domain, one per column of the tree's features.
    feature_std : array of float
        Standard deviation of every column over the training rows.
    class_values : sequence of str, optional
        Names of the class variable's values.
    tree_classes : sequence of int, optional
        The class value index of every class code of the tree (the estimator's
        ``classes_``; default: the identity).
    """

    def __init__(self, variables, feature_std, class_values=None, tree_classes=None):
        self.variables = list(variables)
        self.names = [variable.name for variable in self.variables]
        self.std = np.asarray(feature_std, dtype=float)
        classes = None
        if class_values is not None:
            codes = (range(len(class_values)) if tree_classes is None
                     else [int(c) for c in tree_classes])
            classes = [class_values[c] for c in codes]
        self.vocabulary = Vocabulary(
            self.names, classes=classes, cluster="cluster {}",
            values=[list(v.values) if v.is_discrete else None for v in self.variables])

    def order(self, weights):
        """Feature indices by importance in a split with these weights."""
        importance = np.abs(np.atleast_2d(weights)).max(axis=0) * self.std
        return np.argsort(-importance, kind="stable")

    def conditions(self, split):
        """Full plain-text condition of every branch of ``split`` (a multiway branch with
        the scores it compares)."""
        order = self.order(split.weights)
        return [condition_text(condition, self.vocabulary, order, with_scores=True)
                for condition in split.conditions()]

    def edge_labels(self, split):
        """Short label of every branch: ``≥ 1.2``, ``= typical``, a class, a cluster."""
        return [edge_text(condition, self.vocabulary) for condition in split.conditions()]

    def quantity(self, split, max_terms=None):
        """What the split tests, in full: the attribute, the hyperplane's left-hand side,
        or the score maps of a multiway split."""
        return quantity_text(split, self.vocabulary, self.order(split.weights), max_terms)

    def label(self, split):
        """The :class:`SplitLabel` of an internal node."""
        order = self.order(split.weights)
        text = self.quantity(split)
        first = split.conditions()[0]
        if not _is_multiway(split):
            if first.form == "equal" or len(first.quantity.terms) == 1:
                return SplitLabel(escape(text), text)
            lines = self._wrapped_terms(first.quantity, order, BOX_TERMS, first.digits)
            return SplitLabel("<br/>".join(escape(line) for line in lines), text)
        # the largest term of every affine map: the branch's score (argmax) or a
        # coordinate of the space in which the nearest centre is sought; the map's name
        # shares the first line if both fit, else it has a line of its own
        if first.form == "largest":
            lines, row_names = ["largest score:"], self.edge_labels(split)
        else:
            lines = ["nearest centre in:"]
            row_names = [f"v{i + 1}" for i in range(len(first.scores))]
        rows = list(zip(row_names, first.scores))
        for row_name, score in rows[:BOX_TERMS]:
            terms = self._wrapped_terms(score, order, 1, first.digits)
            head = f"{row_name}: {terms[0]}"
            if len(head) <= BOX_LINE_CHARS:
                lines += [head] + terms[1:]
            else:
                lines += [_shortened(f"{row_name}:")] + terms
        if len(rows) > BOX_TERMS:
            lines.append(f"… {len(rows) - BOX_TERMS} more")
        return SplitLabel("<br/>".join(escape(line) for line in lines), text)

    def node_rule(self, split, max_terms=None):
        """(short, full) text of a node's test; short keeps ``max_terms`` terms."""
        order = self.order(split.weights)
        conditions = split.conditions()
        first = conditions[0]
        if first.form == "compare":  # the right branch, ``… ≥ t``
            return (condition_text(conditions[-1], self.vocabulary, order, max_terms),
                    condition_text(conditions[-1], self.vocabulary, order))
        if first.form == "equal":
            text = condition_text(first, self.vocabulary)
            return text, text
        heading = "largest score of" if first.form == "largest" else "nearest centre in"
        full = f"{heading}: " + self.quantity(split)
        names = (self.edge_labels(split) if first.form == "largest"
                 else [f"v{i + 1}" for i in range(len(first.scores))])
        rows = [f"{name}: {affine_text(score, self.vocabulary, first.digits, order, max_terms)}"
                for name, score in zip(names, first.scores)]
        return f"{heading}:\n" + "\n".join(rows), full

    def coefficients(self, split):
        """(names, coefficients per standard deviation) of an oblique hyperplane's terms by
        importance, or None (a test of one attribute or a multiway split)."""
        first = split.conditions()[0]
        if first.form != "compare" or len(first.quantity.terms) < 2:
            return None
        standardised = split.weights[0] * self.std
        order = [j for j in self.order(split.weights) if split.weights[0, j] != 0]
        return [self.names[j] for j in order], standardised[order]

    def value_text(self, split, x):
        """The value the split tests for the row ``x`` (in the model's domain)."""
        first = split.conditions()[0]
        values = split.values(np.nan_to_num(x)[None, :])[0]
        if first.form == "equal" or (first.form == "compare"
                                     and len(first.quantity.terms) == 1):
            j = first.features[0]
            variable = self.variables[j]
            if variable.is_discrete and float(x[j]).is_integer():
                return f"{variable.name} = {variable.values[int(x[j])]}"
            return f"{variable.name} = {format_number(x[j])}"
        if first.form == "compare":
            lhs = format_number(values[0] - split.bias[0])
            sign = "≥" if values[0] >= 0 else "<"
            return (f"w·x = {lhs} {sign} {format_significant(first.threshold, first.digits)} "
                    f"(w·x + b = {format_number(values[0])})")
        texts = ", ".join(format_number(v) for v in values)
        return f"{'scores' if first.form == 'largest' else 'v'} = [{texts}]"

    def value_name(self, condition):
        """The name of the nominal value an equality condition tests."""
        return value_name(condition, self.vocabulary)

    def _wrapped_terms(self, affine, order, max_terms, digits):
        """Lines of at most BOX_LINE_CHARS characters with the first ``max_terms`` terms
        (``+ N more`` for the rest) and the constant."""
        pieces, omitted = term_texts(affine, self.vocabulary, digits, order, max_terms)
        if omitted:
            pieces.append(f"+ {omitted} more")
        if affine.constant != 0:
            pieces.append(("+ " if affine.constant > 0 else "− ")
                          + format_significant(abs(affine.constant), digits))
        lines = []
        for piece in pieces or ["0"]:
            if lines and len(lines[-1]) + 1 + len(piece) <= BOX_LINE_CHARS:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
        return [_shortened(line) for line in lines]


def _shortened(line):
    """``line`` cut to BOX_LINE_CHARS characters, ending with "…" if it was cut."""
    return line if len(line) <= BOX_LINE_CHARS else line[:BOX_LINE_CHARS - 1] + "…"
