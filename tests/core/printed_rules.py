"""Read printed rule text back as numbers and apply it to rows, as a user would.

A test that a printed condition "routes every training row as the model does" must not use
the model's own numbers: this module parses the text (``0.0005724·income + age < 89.06``,
``petal length ≥ 2.45``, ``largest score: b of [0.5·x1 − 1.2; …]``) and evaluates it on
the rows with the parsed numbers only.
"""
import re

import numpy as np

_COMPARISONS = (" < ", " ≥ ", " > ", " ≤ ", " = ", " ≠ ")


def parse_number(text):
    return float(text.strip().replace("−", "-"))


def parse_affine(text, names):
    """(weights, bias) of ``text``, a sum of ``coefficient·name`` terms, bare names and at
    most one bare number (the bias); ``names`` are the feature names in column order."""
    index = {name: j for j, name in enumerate(names)}
    weights, bias = np.zeros(len(names)), 0.0
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
                weights[index[term]] += term_sign
            else:
                bias += term_sign * parse_number(term)
            continue
        if name not in index:
            raise ValueError(f"unknown name {name!r} in {text!r}")
        weights[index[name]] += term_sign * parse_number(coefficient)
    return weights, bias


def condition_holds(condition, names, X):
    """Boolean mask: rows of ``X`` that satisfy the printed ``condition``."""
    for comparison in _COMPARISONS:
        lhs, found, rhs = condition.rpartition(comparison)
        if found:
            break
    else:
        raise ValueError(f"no comparison in {condition!r}")
    weights, bias = parse_affine(lhs, names)
    values = X @ weights + bias
    operator = comparison.strip()
    threshold = parse_number(rhs)
    if operator in ("=", "≠"):
        return values == threshold if operator == "=" else values != threshold
    return {"<": values < threshold, "≥": values >= threshold,
            ">": values > threshold, "≤": values <= threshold}[operator]


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


def predict_by_export_text(text, names, X):
    """Class name of every row of ``X`` by following the printed tree of ``export_text``
    (binary numeric conditions only), without the model."""
    lines = text.splitlines()
    parsed = []
    for line in lines:
        level = line.count("|   ")
        parsed.append((level, line.split("|--- ", 1)[1]))

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
        position = printed_position(conditions, names, X[rows])
        for k, b in enumerate(branches):
            walk(b + 1, level + 1, rows[position == k], out)

    out = np.empty(X.shape[0], dtype=object)
    walk(0, 0, np.arange(X.shape[0]), out)
    return out


def branch_position(conditions, names, X):
    """The branch each row takes by the printed conditions of one node's branches: binary
    conditions, ``largest score: label of [s1; s2; …]`` (argmax) or ``most pairwise
    votes: label of [a vs b: s1; …]`` (pairwise votes); None for a
    nearest-centre split, whose centres are not printed."""
    if conditions[0].startswith("nearest centre"):
        return None
    if conditions[0].startswith("most pairwise votes: "):
        return vote_position(conditions, names, X)
    if conditions[0].startswith("largest score: "):
        scores = conditions[0].partition(" of [")[2]
        assert scores.endswith("]")
        return argmax_position(scores[:-1], names, X)
    return printed_position(conditions, names, X)


def vote_position(conditions, names, X):
    """The branch each row takes by printed pairwise votes: ``most pairwise votes: c of
    [a vs b: s_ab; …]`` — ``s_ab ≥ 0`` is a vote for ``a``, else for ``b``; the branch
    with most votes wins, ties to the first branch."""
    labels = [c[len("most pairwise votes: "):].partition(" of [")[0] for c in conditions]
    body = conditions[0].partition(" of [")[2]
    assert body.endswith("]")
    votes = np.zeros((X.shape[0], len(labels)), dtype=int)
    for part in body[:-1].split("; "):
        pair, _, expression = part.partition(": ")
        first, _, second = pair.partition(" vs ")
        weights, bias = parse_affine(expression, names)
        for_first = X @ weights + bias >= 0
        votes[for_first, labels.index(first)] += 1
        votes[~for_first, labels.index(second)] += 1
    return np.argmax(votes, axis=1)
