"""The split explorer of a pairwise-vote node: the hyperplane of one pair of classes, each
side labelled with the pair's vote it stands for, and every pair can be chosen."""
import numpy as np
from sklearn.datasets import load_iris

# the module, not its classes: pytest would collect an imported GuiTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.core import ODTSVMClassifier
from orangecontrib.oblique.core.tree.splits import pairwise_index, pairwise_pairs
from orangecontrib.oblique.widgets.splitviews import SplitExplorer

NAMES = ["setosa", "versicolor", "virginica"]
COLORS = [(220, 60, 60), (60, 160, 60), (40, 110, 220)]
FEATURES = ["sepal length", "sepal width", "petal length", "petal width"]


class TestPairwiseVoteExplorer(base.GuiTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.X, cls.y = load_iris(return_X_y=True)
        cls.tree = ODTSVMClassifier(random_state=0).fit(cls.X, cls.y).tree_
        assert cls.tree.splits[0].kind.name == "pairwise_vote"

    def setUp(self):
        self.view = SplitExplorer()

    def sides(self):
        """(the class the left side's label names, the right side's), from the labels."""
        texts = [item.toPlainText() for item in self.view.plot.items
                 if hasattr(item, "toPlainText")]
        left = [t for t in texts if t.startswith("◀ ")]
        right = [t for t in texts if t.endswith(" ▶")]
        self.assertEqual((len(left), len(right)), (1, 1), texts)

        def named(text):
            found = [name for name in NAMES
                     if text.strip(" ▶").endswith(f" 0: a vote for {name}")]
            self.assertEqual(len(found), 1, text)
            return found[0]
        return named(left[0]), named(right[0])

    def distances(self):
        """The rows' horizontal coordinates, by class (the scatter items' order)."""
        return {NAMES[k]: item.getData()[0] for k, item in enumerate(self.view.scatter_items)}

    def test_each_class_of_the_pair_lies_on_the_side_labelled_with_it(self):
        split = self.tree.splits[0]
        for first, second in pairwise_pairs(3):
            self.view.set_node(self.tree, 0, self.X, self.y.astype(float), COLORS, FEATURES,
                               NAMES, pair=(first, second))
            self.assertEqual(self.view.message, "")
            left, right = self.sides()
            self.assertEqual({left, right}, {NAMES[split.classes[first]],
                                             NAMES[split.classes[second]]})
            distance = self.distances()
            self.assertGreater(np.mean(distance[left] < 0), 0.5, (left, right))
            self.assertGreater(np.mean(distance[right] >= 0), 0.5, (left, right))

    def test_a_side_holds_the_rows_whose_pair_votes_for_its_class(self):
        """Every row, of the pair's classes or another, lies on the side of the class its
        pair's hyperplane votes for (a row of a third class too)."""
        split = self.tree.splits[0]
        values = split.values(self.X)
        for first, second in pairwise_pairs(3):
            self.view.set_node(self.tree, 0, self.X, self.y.astype(float), COLORS, FEATURES,
                               NAMES, pair=(first, second))
            left, _ = self.sides()
            votes_first = values[:, pairwise_index(first, second, 3)] >= 0
            votes_left = votes_first == (NAMES[split.classes[first]] == left)
            shown = np.concatenate([item.getData()[0] for item in self.view.scatter_items])
            order = np.concatenate([np.flatnonzero(self.y == k) for k in range(3)])
            np.testing.assert_array_equal(shown < 0, votes_left[order])

    def test_the_view_offers_every_pair_and_shows_the_chosen_one(self):
        self.view.set_node(self.tree, 0, self.X, self.y.astype(float), COLORS, FEATURES,
                           NAMES)
        combo = self.view.pair_combo
        self.assertTrue(self.view.pair_controls.isVisibleTo(self.view))
        self.assertEqual(combo.count(), 3)
        self.assertEqual([combo.itemData(i) for i in range(3)], pairwise_pairs(3))
        # by default the pair that decides the most rows: the vote between the two
        # classes of most votes of most rows
        split = self.tree.splits[0]
        votes = np.zeros((len(self.X), 3), dtype=int)
        for p, (a, b) in enumerate(pairwise_pairs(3)):
            first = split.values(self.X)[:, p] >= 0
            votes[first, a] += 1
            votes[~first, b] += 1
        top_two = [tuple(sorted(np.argsort(-row, kind="stable")[:2].tolist())) for row in votes]
        deciding = max(pairwise_pairs(3), key=top_two.count)
        self.assertGreater(top_two.count(deciding), top_two.count((0, 2)))
        self.assertEqual(self.view.pair, deciding)
        self.assertEqual(combo.itemData(combo.currentIndex()), deciding)
        for index in range(3):
            combo.setCurrentIndex(index)
            self.assertEqual(self.view.pair, pairwise_pairs(3)[index])
            left, right = self.sides()
            a, b = pairwise_pairs(3)[index]
            self.assertEqual(combo.itemText(index), f"{NAMES[a]} and {NAMES[b]}")
            self.assertEqual({left, right}, {NAMES[a], NAMES[b]})
        self.view.clear()
        self.assertFalse(self.view.pair_controls.isVisibleTo(self.view))
