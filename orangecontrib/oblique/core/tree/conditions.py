"""What one branch of a split requires, as parts, and the words of each form of condition.

A split kind (:mod:`~orangecontrib.oblique.core.tree.splits`) describes every branch of a
split as a :class:`Condition` of one form -- :class:`Compare` (``quantity ≥ t``),
:class:`Equal` (``x = a``), :class:`Largest` (largest score), :class:`Nearest` (nearest
centre), :class:`Votes` (most pairwise votes) -- and each form renders its own words: its
whole text (:meth:`Condition.text`), the short label of its edge
(:meth:`Condition.edge_label`), the step of a row's path through it
(:meth:`Condition.path_step`) and the node's rule (:meth:`Condition.node_rule`).  Every
text of a split -- ``export_text``, the Orange model's nodes, the viewer -- is rendered by
these methods from the parts (through the number and name formats of
:mod:`~orangecontrib.oblique.core.tree.rules`), never cut out of another text, and no
renderer asks which form a condition is: a new form is a new class here.
"""
from dataclasses import dataclass

import numpy as np

from .rules import (DIGITS, MAX_SCORES_LISTED, Vocabulary, affine_text, format_number,
                    format_significant, printable_name, shown_terms)


@dataclass(frozen=True)
class Term:
    """``weight · x[feature]``."""
    feature: int
    weight: float


@dataclass(frozen=True)
class Affine:
    """``Σ terms + constant``: the non-zero terms in feature order."""
    terms: tuple
    constant: float = 0.0

    @classmethod
    def of(cls, weights, constant=0.0):
        weights = np.asarray(weights, dtype=float)
        return cls(tuple(Term(int(j), float(weights[j])) for j in np.flatnonzero(weights)),
                   float(constant))

    @property
    def features(self):
        return [term.feature for term in self.terms]


#: the words of a comparison's operator in a path
OPERATOR_WORDS = {"<": "less than", "≥": "at least", ">": "more than", "≤": "at most"}


@dataclass(frozen=True)
class Condition:
    """What one branch of a split requires; a subclass per form renders its words.

    ``label`` is a branch label given by hand (``Split.child_labels``), shown instead of
    the class or cluster; ``digits`` the significant digits of every printed number.
    The other fields belong to the forms that use them (see each form).  Every method
    that renders takes ``names``: the feature names or a
    :class:`~orangecontrib.oblique.core.tree.rules.Vocabulary`; ``order`` lists feature
    indices in the order to print terms, ``max_terms`` shortens a hyperplane to its first
    terms (``+ N more``).
    """
    quantity: Affine = None
    operator: str = ""
    threshold: float = 0.0
    feature: int = -1
    value: float = 0.0
    scores: tuple = ()
    pairs: tuple = ()
    branch: object = None
    label: str = None
    digits: int = DIGITS

    #: the form's name
    form = None
    #: whether its numbers are in the attributes' units (a nominal test reads the same
    #: over standardised attributes)
    has_units = True
    #: whether it is one branch of many, by scores (the node's map has one row per score)
    multiway = False
    #: whether ``export_text`` lists the scores that decide it with every branch
    lists_scores = False

    @property
    def features(self):
        """Features the condition reads."""
        return sorted({j for score in self.scores for j in score.features})

    @property
    def attribute(self):
        """The one attribute the condition tests as itself (``age ≥ 55``,
        ``pain = severe``), or None."""
        return None

    def in_units(self, names):
        """Whether its numbers, in the words of ``names``, are in the attributes' units
        (:attr:`has_units`; a test of an indicator column reads ``age = child``)."""
        return self.has_units

    def branch_name(self, names):
        """What the branch stands for: its label, class or number."""
        classes = Vocabulary.of(names).classes
        if self.label is not None:
            return printable_name(self.label)
        if self.branch is not None and classes is not None:
            return str(classes[self.branch])
        return str(self.branch)

    def text(self, names, order=None, max_terms=None, with_scores=False):
        """The whole condition, e.g. ``0.8·a − 0.6·b ≥ 1.2``."""
        raise NotImplementedError

    def listed_text(self, names, order=None, max_terms=None):
        """The branch's text in a listing of the tree (``export_text``): its
        :meth:`text`, with the scores that decide it where the form lists them."""
        return self.text(names, order, max_terms, with_scores=self.lists_scores)

    def edge_label(self, names):
        """The short label of the branch: ``≥ 1.2``, ``= red``, ``setosa``."""
        raise NotImplementedError

    def quantity_text(self, names, order=None, max_terms=None):
        """The quantity the split tests: an attribute, a left-hand side, score maps."""
        raise NotImplementedError

    def node_rule(self, conditions, names, order=None, max_terms=None):
        """(short, full) text of the test of the node whose branches are
        ``conditions``; short keeps ``max_terms`` terms."""
        raise NotImplementedError

    def node_details(self, conditions, names, order=None, max_terms=None):
        """What a node's tooltip says of its test: the short :meth:`node_rule`, unless
        the form has more to list (every pair of a pairwise-vote split)."""
        return self.node_rule(conditions, names, order, max_terms)[0]

    def box_lines(self, conditions, names, order, box):
        """The lines of the box of the node whose branches are ``conditions``, laid out
        by ``box`` (``box.terms(affine, order, digits, max_terms)``: the first terms of
        a map; ``box.words(text)``: a heading wrapped at its words; ``box.line(text)``:
        one line shortened; ``box.fits(text)``; ``box.rows_shown(count)``: how many rows
        of a map are listed).  Here: the quantity tested (an attribute)."""
        return [self.quantity_text(names, order)]

    def charted_terms(self):
        """The :class:`Affine` whose terms' weights a node's bar chart shows (a
        hyperplane of two or more terms), or None."""
        return None

    def scores_left_to_the_node(self):
        """Whether the branch's complete text leaves out score maps that decide it (a
        split of many scores, or pairwise votes): they are in the node's rule only."""
        return False

    def weighed_features(self):
        """The features the condition weighs with a printed weight (not a test of one
        attribute as itself): those whose weights a reader meets in its text."""
        return [] if self.attribute is not None else self.features

    def value_text(self, split, x, names, point="x"):
        """The value the split tests for the row ``x``, in words (``point`` names the
        row in the text: ``x``, or ``z`` over standardised attributes)."""
        values = split.values(np.nan_to_num(x)[None, :])[0]
        return f"{self.values_name} = [{', '.join(format_number(v) for v in values)}]"

    #: the name of the split's values in a text of a row's values
    values_name = "values"

    def path_step(self, split, x, position, names, order=None, max_terms=None):
        """What ``split`` finds for the row ``x`` and the branch ``position`` it takes
        (this condition's), in plain words, e.g. ``age = 54, less than 55.5 → left``."""
        raise NotImplementedError

    def branch_word(self, conditions, position, names):
        """How a path names branch ``position`` of the split whose branches are
        ``conditions``: ``left`` / ``right`` of a binary test, else the branch's name."""
        if len(conditions) == 2:
            return ("left", "right")[position]
        return conditions[position].branch_name(names)

    def _arrow(self, conditions, position, names):
        """`` → `` and the :meth:`branch_word` of branch ``position``."""
        return " → " + self.branch_word(conditions, position, names)


@dataclass(frozen=True)
class Compare(Condition):
    """``quantity operator threshold``, ``operator`` one of ``<``, ``≥``, ``>``, ``≤``;
    ``quantity`` an :class:`Affine` without constant (a single term of weight 1 is the
    attribute itself).

    A test of one 0/1 indicator column of a nominal value (the vocabulary's
    ``indicators``) against a threshold between 0 and 1 is an equality test and reads
    so: ``age = child`` on the side of 1, ``age ≠ child`` on the side of 0."""
    form = "compare"

    @property
    def features(self):
        return self.quantity.features

    @property
    def attribute(self):
        return self.quantity.terms[0].feature if len(self.quantity.terms) == 1 else None

    def indicated(self, names):
        """``(attribute, value, holds)`` when the condition tests a 0/1 indicator column
        of the nominal value ``value`` of ``attribute`` (``holds``: whether the value is
        the one the branch requires), else None."""
        indicators = Vocabulary.of(names).indicators
        terms = self.quantity.terms
        if (not indicators or len(terms) != 1 or terms[0].weight != 1
                or terms[0].feature not in indicators or not 0 < self.threshold < 1):
            return None
        attribute, value = indicators[terms[0].feature]
        return attribute, value, self.operator in ("≥", ">")

    def in_units(self, names):
        return self.indicated(names) is None

    def text(self, names, order=None, max_terms=None, with_scores=False):
        return f"{self.quantity_text(names, order, max_terms)} {self.edge_label(names)}"

    def edge_label(self, names):
        indicated = self.indicated(names)
        if indicated is not None:
            _, value, holds = indicated
            return f"{'=' if holds else '≠'} {value}"
        return f"{self.operator} {format_significant(self.threshold, self.digits)}"

    def quantity_text(self, names, order=None, max_terms=None):
        indicated = self.indicated(names)
        if indicated is not None:
            return indicated[0]
        return affine_text(self.quantity, names, self.digits, order, max_terms)

    def node_rule(self, conditions, names, order=None, max_terms=None):
        right = conditions[-1]  # the right branch, ``… ≥ t``
        indicated = right.indicated(names)
        if indicated is not None and not indicated[2]:
            right = conditions[0]  # ``age = child``, whichever side it is on
        return right.text(names, order, max_terms), right.text(names, order)

    def box_lines(self, conditions, names, order, box):
        if self.attribute is not None:
            return [self.quantity_text(names, order)]
        return box.terms(self.quantity, order, self.digits)

    def charted_terms(self):
        return self.quantity if len(self.quantity.terms) >= 2 else None

    def value_text(self, split, x, names, point="x"):
        vocabulary = Vocabulary.of(names)
        if self.attribute is not None:
            j = self.attribute
            if point == "x":
                return vocabulary.values_of([j], x)
            return f"{vocabulary.features[j]} = {format_number(x[j])}"
        values = split.values(np.nan_to_num(x)[None, :])[0]
        sign = "≥" if values[0] >= 0 else "<"
        return (f"w·{point} = {format_number(values[0] - split.bias[0])} {sign} "
                f"{format_significant(self.threshold, self.digits)} "
                f"(w·{point} + b = {format_number(values[0])})")

    def path_step(self, split, x, position, names, order=None, max_terms=None):
        vocabulary = Vocabulary.of(names)
        indicated = self.indicated(vocabulary)
        if indicated is not None:
            attribute, value, holds = indicated
            arrow = self._arrow(split.conditions(), position, vocabulary)
            return f"{attribute} is {'' if holds else 'not '}{value}{arrow}"
        terms = self.quantity.terms
        arrow = self._arrow(split.conditions(), position, vocabulary)
        threshold = (f"{OPERATOR_WORDS[self.operator]} "
                     f"{format_significant(self.threshold, self.digits)}{arrow}")
        if len(terms) == 1 and terms[0].weight == 1:
            j = terms[0].feature
            return f"{vocabulary.features[j]} = {vocabulary.value_of(j, x[j])}, {threshold}"
        lhs = affine_text(self.quantity, vocabulary, self.digits, order, max_terms)
        value = split.values(np.nan_to_num(x)[None, :])[0][0] - split.bias[0]
        shown, _ = shown_terms(self.quantity, order, max_terms)
        return (f"{lhs} = {format_number(value)} (with {vocabulary.values_of(shown, x)}), "
                f"{threshold}")


@dataclass(frozen=True)
class Equal(Condition):
    """``x[feature] operator value``, ``operator`` ``=`` or ``≠``; ``value`` is the
    nominal value's code (a text shows its name)."""
    form = "equal"
    has_units = False

    @property
    def features(self):
        return [self.feature]

    @property
    def attribute(self):
        return self.feature

    def value_name(self, names):
        """The nominal value the condition tests, by name where the vocabulary has it."""
        vocabulary = Vocabulary.of(names)
        if self.label is not None:
            return printable_name(self.label)
        code = self.value
        known = vocabulary.values[self.feature] if vocabulary.values else None
        if known is not None and float(code).is_integer() and 0 <= code < len(known):
            return str(known[int(code)])
        return format_significant(code, self.digits)

    def text(self, names, order=None, max_terms=None, with_scores=False):
        return f"{self.quantity_text(names)} {self.edge_label(names)}"

    def edge_label(self, names):
        return f"{self.operator} {self.value_name(names)}"

    def quantity_text(self, names, order=None, max_terms=None):
        return Vocabulary.of(names).features[self.feature]

    def node_rule(self, conditions, names, order=None, max_terms=None):
        # a binary test reads ``a = v``; C4.5's test, one branch per value, the attribute
        text = (self.text(names) if conditions[-1].operator == "≠"
                else self.quantity_text(names))
        return text, text

    def value_text(self, split, x, names, point="x"):
        return Vocabulary.of(names).values_of([self.feature], x)

    def branch_name(self, names):
        """A branch of C4.5's test of a nominal attribute stands for its value."""
        return self.value_name(names)

    def path_step(self, split, x, position, names, order=None, max_terms=None):
        vocabulary = Vocabulary.of(names)
        conditions = split.conditions()
        arrow = self._arrow(conditions, position, vocabulary)
        feature = vocabulary.features[self.feature]
        actual = vocabulary.value_of(self.feature, x[self.feature])
        if self.operator == "=":
            return f"{feature} is {actual}{arrow}"
        return f"{feature} is {actual}, not {conditions[0].value_name(vocabulary)}{arrow}"

    def branch_word(self, conditions, position, names):
        # C4.5's test, one branch per value: the branch is named by its value
        if all(condition.operator == "=" for condition in conditions):
            return conditions[position].branch_name(names)
        return super().branch_word(conditions, position, names)


@dataclass(frozen=True)
class Scores(Condition):
    """A branch of a multiway split chosen by its affine maps ``scores``; ``branch`` is
    the class code (or number) the branch stands for."""
    multiway = True
    #: the words of the condition's text before the branch's name
    heading = None
    #: the heading of the node's rule (default: that of :meth:`map_rows`)
    rule_heading = None
    #: the name of the split's values in a text of a row's values
    values_name = "scores"
    #: the most scores a branch's text lists (``with_scores``); a split of more lists
    #: them once, in the node's rule (and ``export_text`` above its branches)
    branch_scores_listed = MAX_SCORES_LISTED

    def text(self, names, order=None, max_terms=None, with_scores=False):
        text = f"{self.heading}: {self.branch_name(names)}"
        if with_scores and len(self.scores) <= self.branch_scores_listed:
            text += f" of [{self.scores_text(names, order, max_terms)}]"
        return text

    def edge_label(self, names):
        return self.branch_name(names)

    def scores_left_to_the_node(self):
        return len(self.scores) > self.branch_scores_listed

    def score_texts(self, names, order=None, max_terms=None):
        """The text of every score map."""
        return [affine_text(score, names, self.digits, order, max_terms)
                for score in self.scores]

    def scores_text(self, names, order=None, max_terms=None):
        """The score maps, ``s1; s2; …``."""
        return "; ".join(self.score_texts(names, order, max_terms))

    def quantity_text(self, names, order=None, max_terms=None):
        return self.scores_text(names, order, max_terms)

    def map_rows(self, conditions, names):
        """(heading, name of every row of the split's map) for the node's rule and box."""
        raise NotImplementedError

    def summary_lines(self, conditions, names):
        """The lines of the node's box, or None: the box lists the rows of the map
        (:meth:`map_rows`; ``SplitPresenter.label`` of
        :mod:`orangecontrib.oblique.presentation`)."""
        return None

    def box_lines(self, conditions, names, order, box):
        summary = self.summary_lines(conditions, names)
        if summary is not None:  # a few lines whatever the number of rows of the map
            # (pairwise votes): the headings wrapped, every other line shortened
            return box.words(summary[0]) + [
                piece for line in summary[1:]
                for piece in (box.words(line) if line.endswith(":") else [box.line(line)])]
        # the largest term of every affine map: the branch's score (argmax) or a
        # coordinate of the space in which the nearest centre is sought; the map's name
        # shares the first line if both fit, else it has a line of its own
        heading, row_names = self.map_rows(conditions, names)
        lines = box.words(f"{heading}:")
        rows = list(zip(row_names, self.scores))
        shown = box.rows_shown(len(rows))
        for row_name, score in rows[:shown]:
            terms = box.terms(score, order, self.digits, 1)
            head = f"{row_name}: {terms[0]}"
            if box.fits(head):
                lines += [head] + terms[1:]
            else:
                lines += [box.line(f"{row_name}:")] + terms
        if len(rows) > shown:
            lines.append(f"… {len(rows) - shown} more")
        return lines

    def node_rule(self, conditions, names, order=None, max_terms=None):
        heading, rows = self.map_rows(conditions, names)
        heading = self.rule_heading or heading
        full = f"{heading}: " + self.quantity_text(names, order)
        lines = [f"{name}: {affine_text(score, names, self.digits, order, max_terms)}"
                 for name, score in zip(rows[:MAX_SCORES_LISTED],
                                        self.scores[:MAX_SCORES_LISTED])]
        if len(self.scores) > MAX_SCORES_LISTED:
            lines.append(f"… {len(self.scores) - MAX_SCORES_LISTED} more scores")
        return f"{heading}:\n" + "\n".join(lines), full

    def path_step(self, split, x, position, names, order=None, max_terms=None):
        vocabulary = Vocabulary.of(names)
        conditions = split.conditions()
        values = split.values(np.nan_to_num(x)[None, :])[0]
        branch_names = [c.branch_name(vocabulary) for c in conditions]
        return (self._finding(split, values, position, branch_names)
                + self._arrow(conditions, position, vocabulary))

    def _finding(self, split, values, position, branch_names):
        """The words of :meth:`path_step` before the arrow."""
        raise NotImplementedError


@dataclass(frozen=True)
class Largest(Scores):
    """The branch's score is the largest of ``scores`` (one :class:`Affine` per branch);
    ``branch`` is the class code the branch stands for, or None."""
    form = "largest"
    heading = "largest score"
    rule_heading = "largest score of"
    lists_scores = True

    def map_rows(self, conditions, names):
        return "largest score", [condition.edge_label(names) for condition in conditions]

    def _finding(self, split, values, position, branch_names):
        scores = ", ".join(f"{name} {format_number(v)}"
                           for name, v in zip(branch_names, values))
        return f"largest score: {branch_names[position]} ({scores})"


@dataclass(frozen=True)
class Nearest(Scores):
    """The split's values ``scores`` are nearest to the branch's centre; ``branch`` is the
    cluster's number (from 1)."""
    form = "nearest"
    heading = "nearest centre"
    values_name = "v"

    def branch_name(self, names):
        if self.label is not None:
            return printable_name(self.label)
        return Vocabulary.of(names).cluster.format(self.branch)

    def map_rows(self, conditions, names):
        return "nearest centre in", [f"v{i + 1}" for i in range(len(self.scores))]

    def _finding(self, split, values, position, branch_names):
        if getattr(split, "centres", None) is None:
            return branch_names[position]
        distance = float(np.sqrt(((values - split.centres[position]) ** 2).sum()))
        return (f"nearest centre: {branch_names[position]} (distance "
                f"{format_number(distance)})")


#: The pairs a pairwise-vote node's box names, those that decide the most training rows;
#: the others are counted ("… 42 more pairs").
VOTE_PAIRS_SHOWN = 3


def _plural(count, noun, plural=None):
    """``1 row``, ``3 rows`` (``plural``: the noun's plural if not ``noun + "s"``)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


@dataclass(frozen=True)
class Votes(Scores):
    """The branch wins the most pairwise votes (ties: the lowest branch); ``scores`` holds
    one :class:`Affine` per pair of branches and ``pairs`` the pair each decides,
    ``(a, b)``: ``score ≥ 0`` is a vote for ``a``, ``< 0`` one for ``b``.  ``branch`` and
    the entries of ``pairs`` are class codes (the split's ``classes``), or branch numbers
    from 1 when the split has none (``branch`` is then None).  ``decided``, if known, is
    per pair the number of the node's training rows it decides: rows whose two branches
    of most votes are the pair's (:attr:`~.splits.Split.decided_rows`).

    A branch reads ``wins most pairwise votes: setosa``, without the score maps, whatever
    the number of pairs: they are listed once, in the node's rule and tooltip."""
    form = "votes"
    heading = "wins most pairwise votes"
    lists_scores = True
    branch_scores_listed = 0
    decided: tuple = None

    def pair_names(self, names):
        """The pairs the scores decide, ``["setosa vs versicolor", …]`` (class names where
        the vocabulary has them, else branch numbers)."""
        classes = Vocabulary.of(names).classes

        def name(code):
            if self.branch is not None and classes is not None:
                return str(classes[code])
            return str(code)
        return [f"{name(a)} vs {name(b)}" for a, b in self.pairs]

    def score_texts(self, names, order=None, max_terms=None):
        return [f"{pair}: {text}" for pair, text in
                zip(self.pair_names(names), super().score_texts(names, order, max_terms))]

    def map_rows(self, conditions, names):
        return "most pairwise votes (≥ 0: first)", self.pair_names(names)

    def test_heading(self, conditions):
        """``most pairwise votes of 45 hyperplanes over 10 classes``."""
        return (f"most pairwise votes of {_plural(len(self.scores), 'hyperplane')} over "
                f"{_plural(len(conditions), 'class', 'classes')}")

    def summary_lines(self, conditions, names):
        """The lines of the node's box: :meth:`test_heading`, then the
        :data:`VOTE_PAIRS_SHOWN` pairs that decide the most training rows (the first
        pairs if that is not known) with their rows, the others counted, never more lines
        than that whatever the number of classes."""
        pair_names = self.pair_names(names)
        count = len(pair_names)
        if self.decided is not None:
            ranked = sorted(range(count), key=lambda p: (-self.decided[p], p))
        else:
            ranked = list(range(count))
        shown = ranked if count <= VOTE_PAIRS_SHOWN + 1 else ranked[:VOTE_PAIRS_SHOWN]
        lines = [self.test_heading(conditions)]
        if self.decided is not None:
            lines.append("pairs that decide most rows:")
            lines += [f"{pair_names[p]}: {_plural(self.decided[p], 'row')}" for p in shown]
        else:
            lines += [pair_names[p] for p in shown]
        if count > len(shown):
            lines.append(f"… {count - len(shown)} more pairs")
        return lines

    def node_rule(self, conditions, names, order=None, max_terms=None):
        _, full = super().node_rule(conditions, names, order, max_terms)
        return "\n".join(self.summary_lines(conditions, names)), full

    def node_details(self, conditions, names, order=None, max_terms=None):
        lines = [f"{self.test_heading(conditions)}: a row goes to the class that wins most "
                 f"of its pairs (a vs b: ≥ 0 a vote for a, < 0 one for b), the first class "
                 f"on ties."]
        if self.decided is not None:
            lines[0] += (" A pair decides the training rows whose two classes of most "
                         "votes are its own.")
        for p, (pair, score) in enumerate(zip(self.pair_names(names), self.scores)):
            line = f"{pair}: {affine_text(score, names, self.digits, order, max_terms)}"
            if self.decided is not None:
                line += f" (decides {_plural(self.decided[p], 'row')})"
            lines.append(line)
        return "\n".join(lines)

    def vote_sides(self, conditions, first, second, names, order=None, max_terms=None):
        """The words of the two sides of the hyperplane of the pair of branches ``first``
        and ``second`` (positions, first < second), e.g. ``("s ≥ 0: a vote for setosa",
        "s < 0: a vote for virginica")``, ``s`` the pair's score."""
        from .splits import pairwise_index  # splits imports this module
        score = affine_text(self.scores[pairwise_index(first, second, len(conditions))],
                            names, self.digits, order, max_terms)
        return tuple(f"{score} {sign} 0: a vote for {conditions[p].branch_name(names)}"
                     for p, sign in ((first, "≥"), (second, "<")))

    def _finding(self, split, values, position, branch_names):
        from .splits import pairwise_index  # splits imports this module
        k = len(branch_names)
        votes = split.kind.vote_counts(split, values[None, :])[0]
        others = [c for c in range(k) if c != position]
        most = max(votes[c] for c in others)
        runners_up = [c for c in others if votes[c] == most]
        shown = runners_up[:VOTE_PAIRS_SHOWN]
        named = [branch_names[c] for c in shown]
        if len(runners_up) > len(shown):
            named.append(f"{len(runners_up) - len(shown)} more")
        named = (", ".join(named[:-1]) + " and " if len(named) > 1 else "") + named[-1]
        standing = "tied with" if votes[position] == most else "ahead of"
        if standing == "tied with":
            standing = "tied (the first class wins ties) with"
        pairs = []
        for c in shown:
            a, b = min(position, c), max(position, c)
            winner = a if values[pairwise_index(a, b, k)] >= 0 else b
            pairs.append(f"{branch_names[a]} vs {branch_names[b]} won by "
                         f"{branch_names[winner]}")
        return (f"wins most pairwise votes: {branch_names[position]} "
                f"({votes[position]} of {_plural(k - 1, 'vote')}, {standing} {named} "
                f"with {most}{' each' if len(runners_up) > 1 else ''}; {', '.join(pairs)})")
