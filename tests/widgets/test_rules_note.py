"""The Rules tab's note says what the rules show: how many branches are shortened and
how many terms are left out, counted from the rules themselves, and where the hyperplanes
of multiway nodes whose branches only name a class are."""
import re

from Orange.data import Table
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.oblique import GeometricTreeLearner, ODTSVMLearner
from orangecontrib.oblique.widgets.owobliquetreeviewer import OWObliqueTreeViewer


class TestRulesNote(WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWObliqueTreeViewer)

    def note(self):
        return self.widget.rules_panel.note.text()

    def test_shortened_branches_and_left_out_terms_are_counted(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, GeometricTreeLearner(random_state=0)(
            Table("heart_disease")))
        w.full_rules = False
        w.controls.max_terms.setValue(3)
        w._update_rules()
        rules = w.rules_panel.edit.toPlainText()
        left_out = sum(int(n) for n in re.findall(r"\+ (\d+) more", rules))
        self.assertGreater(left_out, 0)
        note = self.note()
        self.assertNotIn("No hyperplane has more than", note)
        shortened = int(re.match(r"(\d+) of \d+ branch", note).group(1))
        self.assertGreater(shortened, 0)
        # every shortened branch is a condition of at least one rule, and a rule lists
        # the branches of its path: the rules show at least the terms the note counts
        self.assertIn(f"({w.view_tree.shortened_branches(3)[1]} terms left out", note)
        self.assertGreaterEqual(left_out, w.view_tree.shortened_branches(3)[1])

    def test_complete_only_when_nothing_is_cut(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, GeometricTreeLearner(random_state=0)(
            Table("iris")))
        w.full_rules = False
        w.controls.max_terms.setValue(4)  # iris has four attributes
        w._update_rules()
        self.assertNotIn("more", w.rules_panel.edit.toPlainText())
        self.assertTrue(self.note().startswith("No hyperplane has more than 4 terms"))

    def test_pairwise_vote_nodes_send_the_reader_to_their_tooltips(self):
        w = self.widget
        self.send_signal(w.Inputs.tree, ODTSVMLearner(random_state=0)(Table("iris")))
        self.assertIn("hyperplanes that decide them are in", self.note())
        self.assertIn("tooltip", self.note())
