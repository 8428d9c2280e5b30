"""Names with line breaks or other control characters cannot forge lines:
the Orange model's node texts and the Oblique Tree Viewer's texts -- boxes, tooltips,
bars, the path of a row, the IF … THEN rules of the Rules tab, copied, saved and
reported -- have as many lines for such names as for plain ones, and show each name
escaped inside quotes, as :func:`printable_name` writes it."""
import os
import re
import tempfile

import numpy as np
import pytest

from AnyQt.QtWidgets import QApplication

from Orange.classification import TreeLearner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
# the module, not its class: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique import OC1Learner, ODTSVMLearner
from orangecontrib.oblique.core.tree.rules import printable_name
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer

#: characters that break a line (for ``str.splitlines`` or a text editor) or hide text
BREAKERS = ["\n", "\r", "\t", "\x0b", "\x0c", "\x85", "\u2028", "\u2029"]


def odd(name, breaker):
    """``name`` with ``breaker`` inside it (``None``: the plain name)."""
    return name if breaker is None else f"{name[:2]}{breaker}{name[2:]}"


def iris(breaker=None):
    """Iris with ``breaker`` in the name of every attribute and class value."""
    data = Table("iris")
    domain = Domain([ContinuousVariable(odd(a.name, breaker))
                     for a in data.domain.attributes],
                    DiscreteVariable(odd("iris", breaker), values=[
                        odd(v, breaker) for v in data.domain.class_var.values]))
    return Table.from_numpy(domain, data.X, data.Y)


def pets(breaker=None):
    """A table with a nominal attribute of three values and a numeric one, for Orange's
    own trees (its nominal tests)."""
    rng = np.random.default_rng(0)
    colour, width = rng.integers(0, 3, 200), rng.normal(0, 1, 200)
    y = ((colour == 1) | (width > 0.8)).astype(float)
    domain = Domain([DiscreteVariable(odd("colour", breaker), values=[
        odd(v, breaker) for v in ("crimson", "teal", "amber")]),
                     ContinuousVariable(odd("width", breaker))],
                    DiscreteVariable(odd("kind", breaker), values=[
                        odd(v, breaker) for v in ("alpaca", "llama")]))
    return Table.from_numpy(domain, np.column_stack([colour, width]), y)


#: the names of the tables, whole in every text that has them
IRIS_NAMES = ["sepal length", "sepal width", "petal length", "petal width", "Iris-setosa",
              "Iris-versicolor", "Iris-virginica"]
PETS_NAMES = ["colour", "crimson", "teal", "amber", "width", "alpaca", "llama"]


def model_texts(model):
    """Every text of the Orange model: node names (HTML) and texts, branch conditions and
    descriptions, rules, the printed tree."""
    texts = {}
    if hasattr(model, "print_tree"):
        texts["print_tree"] = model.print_tree()
    for k, node in enumerate(model._nodes() if hasattr(model, "_nodes") else []):
        if node.attr is not None:
            texts[f"{k} name"] = node.attr.name
            texts[f"{k} text"] = node.attr.text
        texts[f"{k} condition"] = node.condition
        texts[f"{k} description"] = node.description
        texts[f"{k} rule"] = " AND ".join(model.rule(node))
    return texts


class TestNamesWithLineBreaks(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)

    def viewer_texts(self, model, data):
        """Every text the viewer shows of ``model`` (with ``data``), by where it is."""
        w = self.widget
        self.send_signal(w.Inputs.tree, model)
        self.send_signal(w.Inputs.data, data)
        tree = w.view_tree
        texts = {"rules": w.rules_text(), "rules tab": w.rules_panel.edit.toPlainText(),
                 "units": w.units_label.text(), "info": w.info_label.text()}
        w.rules_panel.copy()
        texts["copied"] = QApplication.clipboard().text()
        with tempfile.TemporaryDirectory() as directory:
            filename = os.path.join(directory, "rules.txt")
            w.rules_panel.save(filename)
            with open(filename, encoding="utf-8", newline="") as file:
                texts["saved"] = file.read()
        w.create_report_html()
        texts["report"] = re.search("<pre[^>]*>(.*)</pre>", w.report_html, re.S).group(1)
        for node in range(tree.node_count):
            for what, text in zip(("title", "text", "tooltip"), w.node_texts(node)):
                texts[f"{node} {what}"] = text
            texts[f"{node} edge"] = tree.edge_labels[node]
            item = w.items.get(node)
            for k, name in enumerate(getattr(item, "bar_names", None) or []):
                texts[f"{node} bar {k}"] = name
        for row in range(0, len(w.data), 23):
            w.row_spin.setValue(row + 1)
            for k in range(w.path_list.count()):
                texts[f"row {row} step {k}"] = w.path_list.item(k).text()
        return texts

    def assert_same_lines(self, plain, escaped, breaker, names=IRIS_NAMES):
        """The texts have as many lines for escaped names as for plain ones, and every
        plain name in a text is there, written by :func:`printable_name` (but in the HTML
        of the boxes of Orange's Tree Viewer, which shortens long names with "…")."""
        self.assertEqual(plain.keys(), escaped.keys())
        for key, text in plain.items():
            self.assertEqual(len(escaped[key].splitlines()), len(text.splitlines()),
                             (key, escaped[key]))
            for name in names if not key.endswith(" name") else ():
                if name in text:
                    self.assertIn(printable_name(odd(name, breaker)), escaped[key], key)

    @pytest.mark.slow  # fits every learner, about 4 s
    def test_oblique_trees(self):
        plain_data = iris()
        for learner in (OC1Learner(random_state=0),
                        ODTSVMLearner(axis_parallel_tests=False, random_state=0)):
            plain_model = learner(plain_data)
            plain_model.instances = plain_data
            plain = {**model_texts(plain_model), **self.viewer_texts(plain_model, None)}
            for breaker in BREAKERS:
                data = iris(breaker)
                model = learner(data)
                model.instances = data
                texts = {**model_texts(model), **self.viewer_texts(model, None)}
                with self.subTest(learner=learner.name, breaker=breaker):
                    self.assert_same_lines(plain, texts, breaker)

    def test_per_standard_deviation(self):
        plain_data = iris()
        learner = OC1Learner(random_state=0)
        self.widget.coefficients = self.widget.PER_SD
        plain_model = learner(plain_data)
        plain_model.instances = plain_data
        plain = self.viewer_texts(plain_model, plain_data)
        self.assertTrue(self.widget.view_tree.per_sd)
        for breaker in ("\n", "\u2028"):
            data = iris(breaker)
            model = learner(data)
            model.instances = data
            with self.subTest(breaker=breaker):
                self.assert_same_lines(plain, self.viewer_texts(model, data), breaker)

    def test_orange_trees(self):
        plain_data = pets()
        for learner in (TreeLearner(max_depth=3), TreeLearner(max_depth=3, binarize=True)):
            plain = self.viewer_texts(learner(plain_data), plain_data)
            self.assertTrue(any("crimson" in text for text in plain.values()))
            for breaker in BREAKERS:
                data = pets(breaker)
                with self.subTest(binarize=learner.binarize, breaker=breaker):
                    self.assert_same_lines(plain, self.viewer_texts(learner(data), data),
                                           breaker, PETS_NAMES)


def test_regression_target_message_escapes_the_class_name():
    """The learners' message about a numeric class writes its name escaped (one line)."""
    from Orange.data import ContinuousVariable, Domain

    from orangecontrib.oblique import GeometricTreeLearner
    domain = Domain([ContinuousVariable("x")], ContinuousVariable("price\nin euros"))
    reason = GeometricTreeLearner().incompatibility_reason(domain)
    assert "\n" not in reason and "'price\\nin euros' is numeric" in reason


class TestReportEscapesNames(base.WidgetTest):
    """A model's name (the learner widget's Name field) is HTML in no report."""
    NAME = "<img src=1 onerror=alert(1)>"

    def test_viewer_report(self):
        widget = self.create_widget(OWObliqueTreeViewer)
        model = OC1Learner(random_state=0)(iris())
        model.name = self.NAME
        self.send_signal(widget.Inputs.tree, model)
        widget.create_report_html()
        self.assertNotIn(self.NAME, widget.report_html)
        self.assertIn("&lt;img src=1 onerror=alert(1)&gt;", widget.report_html)
