"""Read printed rule text back as numbers and apply it to rows, as a user would.

A test that a printed condition "routes every training row as the model does" must not use
the model's own numbers: this module parses the text (``0.0005724·income + age < 89.06``,
``petal length ≥ 2.45``, ``largest score: b of [0.5·x1 − 1.2; …]``) and evaluates it on
the rows with the parsed numbers only, exactly: the decimals of the text and the rows'
floats as exact fractions (:func:`condition_holds`), so that a row on a printed boundary
(``Σ c_j·x_j = t`` exactly) counts as on it.
"""
import re
from fractions import Fraction

import numpy as np

_COMPARISONS = (" < ", " ≥ ", " > ", " ≤ ", " = ", " ≠ ")


def parse_number(text):
    return float(text.strip().replace("−", "-"))


def parse_fraction(text):
    """The number ``text`` shows, exactly."""
    return Fraction(text.strip().replace("−", "-"))


def parse_affine(text, names, exact=False):
    """(weights, bias) of ``text``, a sum of ``coefficient·name`` terms, bare names and at
    most one bare number (the bias); ``names`` are the feature names in column order.
    With ``exact``, the numbers the text shows as fractions (a list and a ``Fraction``);
    else as floats."""
    if exact:
        number = parse_fraction
        weights, bias = [Fraction(0)] * len(names), Fraction(0)
    else:
        number = parse_number
        weights, bias = np.zeros(len(names)), 0.0
    index = {name: j for j, name in enumerate(names)}
    text = text.strip()
    sign = 1.0
    if text.startswith("−"):
        sign, text = -1.0, text[1:]
    # terms are separated by " + " or " − " (with spaces); a name may contain spaces but
    # not these separators
    pieces = re.split(r" ([+−]) ", text)
    terms = [(sign, pieces[0])] + [(1.0 if op == "+" else -1.0, term)
                                   for op, term in zip(pieces[1::2], pieces[2::2])]
    for term_sign, term in terms:
        coefficient, dot, name = term.partition("·")
        if not dot:
            if term in index:
                weights[index[term]] += int(term_sign)
            else:
                bias += int(term_sign) * number(term)
            continue
        if name not in index:
            raise ValueError(f"unknown name {name!r} in {text!r}")
        weights[index[name]] += int(term_sign) * number(coefficient)
    return weights, bias


def exact_values(X, weights, bias):
    """``Σ w_j·x_j + bias`` of every row of ``X`` as an exact ``Fraction`` (``weights``
    and ``bias`` fractions, the rows' floats taken exactly)."""
    used = [j for j, w in enumerate(weights) if w != 0]
    return [sum((weights[j] * Fraction(x) for j, x in zip(used, row)), bias)
            for row in np.asarray(X, dtype=float)[:, used].tolist()]


def holds_exactly(lhs, operator, rhs, names, X):
    """Boolean mask: rows of ``X`` for which ``lhs operator rhs`` (texts) holds with the
    text's decimals and the rows' values taken exactly.  Floating point decides the rows
    far from the boundary (farther than 1e-9 of the terms' size, a billion times the
    rounding error); exact fractions the others."""
    weights, bias = parse_affine(lhs, names)
    threshold = parse_number(rhs)
    values = X @ weights + bias - threshold
    size = np.abs(X) @ np.abs(weights) + abs(bias) + abs(threshold)
    near = np.flatnonzero(np.abs(values) <= 1e-9 * size)  # never a row with NaN
    compare = {"<": np.less, "≥": np.greater_equal, ">": np.greater,
               "≤": np.less_equal, "=": np.equal, "≠": np.not_equal}[operator]
    holds = compare(values, 0)
    if near.size:
        exact_weights, exact_bias = parse_affine(lhs, names, exact=True)
        exact_bias -= parse_fraction(rhs)
        differences = exact_values(X[near], exact_weights, exact_bias)
        holds[near] = [compare((d > 0) - (d < 0), 0) for d in differences]
    return holds


def condition_holds(condition, names, X):
    """Boolean mask: rows of ``X`` that satisfy the printed ``condition``, read exactly
    (:func:`holds_exactly`)."""
    for comparison in _COMPARISONS:
        lhs, found, rhs = condition.rpartition(comparison)
        if found:
            break
    else:
        raise ValueError(f"no comparison in {condition!r}")
    return holds_exactly(lhs, comparison.strip(), rhs, names, np.asarray(X, dtype=float))


def printed_position(conditions, names, X):
    """The branch each row of ``X`` takes by the printed binary ``conditions`` (one text
    per child); asserts that exactly one condition holds for every row."""
    holds = np.column_stack([condition_holds(c, names, X) for c in conditions])
    assert np.all(holds.sum(axis=1) == 1), "printed conditions overlap or leave rows out"
    return np.argmax(holds, axis=1)


def argmax_position(scores_text, names, X):
    """The branch each row takes by the printed scores ``s1; s2; …`` of an argmax split."""
    maps = [parse_affine(text, names) for text in scores_text.split("; ")]
    values = np.column_stack([X @ w + b for w, b in maps])
    return np.argmax(values, axis=1)


def without_missing_share(condition):
    """A printed condition without its branch's share of a row with a missing value,
    `` (missing: 38.2 %)`` (C4.5's fractional routing)."""
    return re.sub(r" \(missing: [^()]*%\)$", "", condition)


def predict_by_export_text(text, names, X):
    """Class name of every row of ``X`` by following the printed tree of ``export_text``
    (binary numeric conditions, argmax and pairwise-vote scores; no nearest centres),
    without the model.  A ``scores: …`` line above a node's branches (a pairwise-vote
    split, or many scores) is what they compare."""
    parsed, scores = [], None
    for line in text.splitlines():
        if "|    scores: " in line:
            scores = line.split("|    scores: ", 1)[1]
        elif "|--- " in line:
            level = line.count("|   ")
            parsed.append((level, without_missing_share(line.split("|--- ", 1)[1]), scores))
            scores = None

    def walk(start, level, rows, out):
        # the entries at ``level`` from ``start`` on are one node's branches or its leaf
        i = start
        if parsed[i][1].startswith("class: "):
            out[rows] = parsed[i][1][len("class: "):].split(" [")[0]
            return
        branches = []
        while i < len(parsed) and parsed[i][0] >= level:
            if parsed[i][0] == level:
                branches.append(i)
            i += 1
        conditions = [parsed[b][1] for b in branches]
        position = branch_position(conditions, names, X[rows], parsed[branches[0]][2])
        for k, b in enumerate(branches):
            walk(b + 1, level + 1, rows[position == k], out)

    out = np.empty(X.shape[0], dtype=object)
    walk(0, 0, np.arange(X.shape[0]), out)
    return out


VOTES = "wins most pairwise votes: "


def branch_position(conditions, names, X, scores=None):
    """The branch each row takes by the printed conditions of one node's branches: binary
    conditions, ``largest score: label of [s1; s2; …]`` (argmax) or ``wins most pairwise
    votes: label`` (pairwise votes) with the node's printed ``scores``, ``a vs b: s_ab;
    …`` (the scores of a split whose branches do not list them); None for a
    nearest-centre split, whose centres are not printed, and for pairwise votes without
    their scores."""
    conditions = [without_missing_share(condition) for condition in conditions]
    if conditions[0].startswith("nearest centre"):
        return None
    if conditions[0].startswith(VOTES):
        if scores is None:
            return None
        return vote_position([c[len(VOTES):] for c in conditions], scores, names, X)
    if conditions[0].startswith("largest score: "):
        listed = conditions[0].partition(" of [")[2]
        if listed:
            assert listed.endswith("]")
            scores = listed[:-1]
        return argmax_position(scores, names, X)
    return printed_position(conditions, names, X)


def vote_position(labels, scores, names, X):
    """The branch each row takes by printed pairwise votes: ``labels`` the branches'
    names, ``scores`` ``a vs b: s_ab; …`` — ``s_ab ≥ 0`` is a vote for ``a``, else for
    ``b``; the branch with most votes wins, ties to the first branch."""
    votes = np.zeros((X.shape[0], len(labels)), dtype=int)
    for part in scores.split("; "):
        pair, _, expression = part.partition(": ")
        first, _, second = pair.partition(" vs ")
        weights, bias = parse_affine(expression, names)
        for_first = X @ weights + bias >= 0
        votes[for_first, labels.index(first)] += 1
        votes[~for_first, labels.index(second)] += 1
    return np.argmax(votes, axis=1)


def boundary_rows(condition, names, X, rng, count):
    """Up to ``count`` integer rows on the boundary of the printed comparison
    ``condition`` (``Σ c_j·x_j = t`` exactly): rows of ``X`` with one coordinate solved
    for, kept where the solution is an integer."""
    for comparison in (" < ", " ≥ ", " > ", " ≤ "):
        lhs, found, rhs = condition.rpartition(comparison)
        if found:
            break
    weights, bias = parse_affine(lhs, names, exact=True)
    threshold = parse_fraction(rhs) - bias
    used = [j for j, w in enumerate(weights) if w != 0]
    found = []
    for row in X[rng.permutation(X.shape[0])[:50 * count]]:
        j = used[rng.integers(len(used))]
        rest = sum((weights[k] * Fraction(row[k]) for k in used if k != j), Fraction(0))
        value = (threshold - rest) / weights[j]
        if value.denominator == 1 and abs(value) < 1e6:
            new = row.copy()
            new[j] = float(value)
            found.append(new)
            if len(found) == count:
                break
    return np.array(found, dtype=float).reshape(-1, X.shape[1])
