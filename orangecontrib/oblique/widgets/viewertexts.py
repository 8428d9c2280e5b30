"""What the Oblique Tree Viewer says about a tree, its nodes, its rules and a row's path.

Plain Python over a :class:`~orangecontrib.oblique.widgets.treeadapter.TreeAdapter` and the
:class:`~orangecontrib.oblique.widgets.treeadapter.Counts` of the rows the viewer counts
(``None``: the model's own training counts): the title, text and tooltip of a node box,
the summary of the tree's splits, the sentence on the units of the weights, the note of
the Rules tab, and a traced row's path in words.  No Qt: the widget and its panels show
these texts, and tests read them directly.
"""
from html import escape

import numpy as np

from orangecontrib.oblique.core.tree.rules import (format_number, format_significant,
                                                   printable_name)


def plural(count):
    """"s" unless ``count`` is 1."""
    return "" if count == 1 else "s"


def rows_text(count):
    """"1 row", "2 rows", "88.6 rows" (rows divided by a missing value counted with
    their shares)."""
    return f"{format_number(count)} row{plural(count)}"


# ----- node boxes -----
def node_value(tree, counts, node):
    """Class counts shown for ``node``: from ``counts``, else the model's."""
    if counts is not None:
        return counts.value[node]
    return tree.train_value[node]


def node_n(tree, counts, node):
    """Number of rows shown for ``node``: from ``counts``, else the model's (a row
    divided among branches by a missing value counted with its share there)."""
    if counts is not None:
        return float(counts.n[node])
    return float(tree.train_value[node].sum())


def node_texts(tree, counts, node, max_terms):
    """(title, text, tooltip) of the box of ``node``, hyperplanes shortened to
    ``max_terms`` terms: a leaf's title is its class and its text the class's share; an
    internal node's text is its test.  The tooltip adds the branch that leads to the node,
    the rows and their classes, and where to find the full rule if it is shortened."""
    value = node_value(tree, counts, node)
    total = value.sum()
    if tree.is_leaf(node):
        majority = int(np.argmax(value)) if total else int(tree.predicted[node])
        share = value[majority] / total if total else 0.0
        title = tree.class_values[majority]
        text = (f"{format_number(100 * share, 1)} % "
                f"({format_number(value[majority])}/{format_number(total)})")
        tooltip = f"{title}: {text}"
    else:
        short, full = tree.node_rule(node, max_terms)
        title, text, tooltip = "", short, tree.node_details(node, max_terms)
    tooltip = f"{tooltip}\n\n{distribution_text(tree, value, node_n(tree, counts, node))}"
    if node:
        branch = tree.condition(node, max_terms)
        tooltip = f"Branch: {branch}\n\n{tooltip}"
    shortened = (not tree.is_leaf(node) and short != full) or (
        node and branch != tree.conditions[node])
    if shortened:
        tooltip += (f"\n\nShortened to {max_terms} term{plural(max_terms)} per hyperplane: "
                    f"the Rules tab with \"Show full rules\" gives every term.")
    weights = None if tree.is_leaf(node) else tree.coefficients(node)
    if weights is not None:
        tooltip += f"\n\n{weights_text(weights)}"
    return title, text, tooltip


def weights_unit(coefficients):
    """"per unit" or "per SD": what the weights of the ``coefficients`` are."""
    return "per SD" if coefficients.per_sd else "per unit"


def weights_text(coefficients):
    """The weights of every term of a hyperplane in the units of its rule, as the node's
    tooltip lists them (its bars show the first)."""
    unit = ("per standard deviation of each attribute (z-scores)" if coefficients.per_sd
            else "per unit of each attribute (raw units)")
    return (f"Weights {unit}; the bars show the first, blue positive, red negative:\n"
            + "\n".join(f"  {name}: {text}"
                        for name, text in zip(coefficients.names, coefficients.texts)))


#: the most classes a node's tooltip lists (those with the most rows); the rest are counted
MAX_CLASSES_LISTED = 12


def distribution_text(tree, value, n):
    """The class distribution of a node as Orange's Tree Viewer gives it: "Distribution
    of 'class'" and every class's count and share (with more than two classes only those
    the node has, at most :data:`MAX_CLASSES_LISTED`), after the number of rows ``n``."""
    total = value.sum()
    classes = [k for k in range(len(value)) if len(value) <= 2 or value[k] > 0]
    omitted = max(len(classes) - MAX_CLASSES_LISTED, 0)
    if omitted:
        largest = sorted(classes, key=lambda k: (-value[k], k))[:MAX_CLASSES_LISTED]
        classes = sorted(largest)
    lines = [f"Distribution of '{tree.class_name}' ({rows_text(n)}):"]
    for k in classes:
        share = f"{100 * value[k] / total:.1f} %" if total else "–"
        lines.append(f"  {tree.class_values[k]}: {format_number(value[k])} ({share})")
    if omitted:
        lines.append(f"  … {omitted} more class{'' if omitted == 1 else 'es'}")
    return "\n".join(lines)


def node_box(tree, counts, node, max_terms):
    """What the box of ``node`` shows: the :func:`node_texts` (title, text, tooltip),
    the class counts, the number of rows, and the bars: the weights of the terms its
    text shows (None for a leaf and a test without a hyperplane of several terms)."""
    bars = None if tree.is_leaf(node) else tree.coefficients(node, max_terms)
    return (*node_texts(tree, counts, node, max_terms), node_value(tree, counts, node),
            node_n(tree, counts, node), bars)


# ----- the tree -----
def split_summary(model, tree):
    """How oblique the tree is: "k of n splits oblique, m attributes per split on
    average", from the model's split statistics (else its core tree's); Orange's own
    trees test one attribute per split."""
    try:
        statistics = (int(model.n_splits), int(model.n_oblique_splits),
                      float(model.mean_attributes_per_split))
    except (AttributeError, TypeError, ValueError):
        core = getattr(tree, "tree", None)
        statistics = None
        if core is not None:
            stats = core.split_statistics()
            statistics = (stats.n_splits, stats.n_oblique_splits,
                          stats.mean_attributes_per_split)
    if statistics is None:  # Orange's own tree
        n_splits = tree.node_count - len(tree.leaves())
        return f"All {n_splits} split{plural(n_splits)} axis-parallel."
    n_splits, oblique, mean = statistics
    if not n_splits:
        return "No splits: the tree is a single leaf."
    return (f"{oblique} of {n_splits} split{plural(n_splits)} oblique, "
            f"{attributes_per_split(mean)} on average.")


def report_items(model, tree, coefficients, counts_from_input):
    """The report's table of the tree: (label, text) pairs, every text escaped (a model's
    name is the learner widget's Name field)."""
    return tuple((label, escape(str(value))) for label, value in (
        ("Model", printable_name(getattr(model, "name", type(model).__name__))),
        ("Nodes", tree.node_count), ("Leaves", len(tree.leaves())),
        ("Depth", max(tree.depth)), ("Splits", split_summary(model, tree)),
        ("Coefficients", coefficients),
        ("Counts from", "Data input" if counts_from_input else "training data")))


def attributes_per_split(mean):
    """"1 attribute per split", "3.4 attributes per split": the mean to one decimal (none
    if it is whole), the noun as the number printed asks."""
    number = format_number(mean, 1)
    return f"{number} attribute{'' if number == '1' else 's'} per split"


def tree_summary(model, tree, source):
    """Nodes, leaves, depth, :func:`split_summary` and where the counts come from
    (``source``, e.g. "the Data input")."""
    n_leaves = len(tree.leaves())
    return (f"{tree.node_count} node{plural(tree.node_count)}, {n_leaves} "
            f"lea{'f' if n_leaves == 1 else 'ves'}, depth {max(tree.depth)}.\n"
            f"{split_summary(model, tree)}\nCounts from {source}.")


def units_sentence(tree):
    """What the weights of the tree's texts are, in its current units, with an example
    of one of its continuous attributes; "" when no split has a term over a continuous
    attribute (nominal tests and 0/1 indicator columns have no units)."""
    name = tree.example_attribute()
    if name is None:
        return ""
    if tree.per_sd:
        return (f"Weights per standard deviation of each attribute: a term 0.8·z({name}) "
                f"means 0.8 per SD of {name}; z = (x − mean)/SD over the model's training "
                f"rows, and the thresholds are in these units too.")
    return (f"Weights in the attributes' own (raw) units: a term 0.8·{name} means 0.8 "
            f"per unit of {name}.")


# ----- rules -----
def rules_are_complete(tree, full_rules, max_terms):
    """Whether the rules shown (every term with ``full_rules``, else ``max_terms`` terms
    per hyperplane) are the complete rules."""
    return full_rules or tree.rules_text(None, max_terms) == tree.rules_text(None)


def rules_note(tree, full_rules, max_terms):
    """What the rules of the Rules tab are: complete, or shortened (how many branches,
    how many terms left out), and where the score maps of nodes whose branches do not
    list them are."""
    if tree is None:
        return ""
    if full_rules:
        note = ("Full rules: every term of every hyperplane; each condition holds for "
                "exactly the training rows the model sends that way.")
    else:
        shortened, omitted = tree.shortened_branches(max_terms)
        if not shortened:
            note = (f"No hyperplane has more than {max_terms} term{plural(max_terms)}: "
                    f"these are the full conditions.")
        else:
            note = (f"{shortened} of {tree.node_count - 1} branch{plural_es(tree.node_count - 1)} "
                    f"shortened to {max_terms} term{plural(max_terms)} ({omitted} "
                    f"term{plural(omitted)} left out, \"+ n more\"), as in the tree; "
                    f"check \"Show full rules\" for complete conditions.")
    in_nodes = tree.scores_in_nodes_only()
    if in_nodes:
        note += (f" The branches of {in_nodes} multiway node{plural(in_nodes)} name their "
                 f"class; the hyperplanes that decide them are in "
                 f"{'its' if in_nodes == 1 else 'their'} node's tooltip.")
    return note


def plural_es(count):
    """"es" unless ``count`` is 1 ("branch", "branches")."""
    return "" if count == 1 else "es"


def rules_caption(tree, full_rules, max_terms):
    """The report's heading of the rules."""
    if rules_are_complete(tree, full_rules, max_terms):
        return "Rules (complete)"
    return f"Rules (hyperplanes shortened to {max_terms} term{plural(max_terms)})"


# ----- the path of a row -----
def node_name(tree, node):
    """"Root", "Leaf" or "Node at depth d": a node as a path names it."""
    if node == 0:
        return "Root"
    return "Leaf" if tree.is_leaf(node) else f"Node at depth {tree.depth[node]}"


def path_lines(tree, counts, row, steps, max_terms, distribution=None):
    """The path of ``row`` (an index from 0) in words, one line per node: "Row 5:",
    "Root: <what its test finds> → left", …, "Leaf: predicts <class> (<share>)".
    ``steps`` are the tree's :meth:`~TreeAdapter.row_path` of the row.  A path that a
    missing value divides among branches says each node's share of the row and ends with
    the model's prediction, the leaves' mix (``distribution``, over the classes)."""
    lines = [f"Row {row + 1}:"]
    divided = any(step.share < 1 for step in steps)
    for step in steps:
        name = node_name(tree, step.node)
        if divided and step.node:
            name += f" ({format_significant(100 * step.share, 3)} % of the row)"
        if step.words == "leaf":
            title, text, _ = node_texts(tree, counts, step.node, max_terms)
            lines.append(f"{name}: predicts {title} ({text})")
        else:
            lines.append(f"{name}: {step.words}")
    if divided and distribution is not None:
        mix = ", ".join(f"{value} {format_significant(100 * p, 3)} %"
                        for value, p in zip(tree.class_values, distribution))
        leaves = sum(step.words == "leaf" for step in steps)
        lines.append(f"Prediction: the mix of the {leaves} leaves reached, by the row's "
                     f"shares: {mix}")
    return lines


def revealed_note(tree, revealed, max_depth, collapsed):
    """Why the ``revealed`` nodes of a traced path are drawn only while it is traced:
    below the depth limit ``max_depth`` (None: no limit), inside the ``collapsed``
    subtrees, or both; "" if no node is revealed."""
    if not revealed:
        return ""
    reasons = []
    if max_depth is not None and any(tree.depth[n] > max_depth for n in revealed):
        reasons.append(f"below the depth limit ({max_depth})")
    if any(n in collapsed or any(a in collapsed for a in tree.path(n)[:-1])
           for n in revealed):
        reasons.append("into a collapsed subtree")
    return (f"The path goes {' and '.join(reasons) or 'beyond the drawn nodes'}: its "
            f"{len(revealed)} node{plural(len(revealed))} there "
            f"{'is' if len(revealed) == 1 else 'are'} drawn only while the row is traced.")
