"""Orange learner and model of the oblique trees (orangecontrib.oblique.learners)."""
import inspect
import pickle
import unittest
import warnings
from copy import deepcopy
from html import escape
from unittest.mock import patch

import numpy as np

import Orange
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.evaluation import CA, CrossValidation
from Orange.preprocess import Impute

from Orange.classification import TreeLearner

from orangecontrib.oblique import (GeometricTreeLearner, HedgeEnsembleLearner,
                                   HedgeEnsembleModel, OC1Learner, ObliqueTreeModel,
                                   ODTSVMLearner, ObliqueForestLearner)
from orangecontrib.oblique.learners import ObliqueTreeLearner
from orangecontrib.oblique.learners import FitMessage, InputDataWarning
from orangecontrib.oblique.presentation import BOX_LINE_CHARS, BOX_MAX_CHARS, SplitPresenter
from orangecontrib.oblique.core import (GeometricTreeClassifier, OC1Classifier, ObliqueTree,
                                        Split)
from orangecontrib.oblique.core.ensemble.hedge import HedgeEnsembleClassifier
from orangecontrib.oblique.core.odt_svm.classifier import ODTSVMClassifier
from orangecontrib.oblique.core.tree.rules import branch_conditions
from orangecontrib.oblique.core.tree.splits import ARGMAX, EQUALITY, NEAREST_CENTRE, NOMINAL


def assert_defaults_are_the_core_defaults(test, learner_class, estimator_class, name,
                                          from_domain=()):
    """The Orange learner's parameters and defaults are the core estimator's (but those
    ``from_domain``), plus ``preprocessors``; it returns an :class:`ObliqueTreeModel`."""
    learner = learner_class()
    core = estimator_class().get_params()
    for parameter in from_domain:
        del core[parameter]
    test.assertEqual(learner.params, core)
    test.assertEqual(set(inspect.signature(learner_class).parameters),
                     set(core) | {"preprocessors"})
    test.assertEqual(learner.name, name)
    test.assertIs(learner_class.__returns__, ObliqueTreeModel)
    test.assertTrue(issubclass(learner_class, ObliqueTreeLearner))


def all_nodes(model):
    stack = [model.root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in node.children if c is not None)


def with_missing_class(data, rows):
    data = data.copy()
    with data.unlocked(data.Y):
        data.Y[rows] = np.nan
    return data


class FittedTree:
    """A fitted core estimator made by hand: what ObliqueTreeModel needs (tree_, classes_)."""

    def __init__(self, tree, classes):
        self.tree_ = tree
        self.classes_ = np.asarray(classes)


class ModelChecks:
    """Invariants of any fitted ObliqueTreeModel (a mixin of the learner test cases), and
    the tables they are checked on."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iris = Table("iris")
        cls.heart = Table("heart_disease")
        cls.titanic = Table("titanic")

    def check_model(self, model, data):
        tree = model.tree_
        self.assertIsInstance(model, ObliqueTreeModel)
        self.assertIsInstance(model, Orange.tree.TreeModel)
        self.assertIsInstance(model, Orange.classification.Model)
        # a branch no training row reached (a value of a nominal attribute absent at its
        # node, C4.5's multiway test) has no Orange node
        empty = np.flatnonzero(tree.value.sum(axis=1) <= 0)
        self.assertEqual(model.node_count(), tree.node_count - len(empty))
        self.assertEqual(model.leaf_count(), tree.n_leaves - len(empty))
        self.assertLessEqual(model.depth(), tree.depth)
        np.testing.assert_array_equal(model.root.subset, np.arange(len(data)))
        for node in all_nodes(model):
            kids = [c for c in node.children if c is not None]
            if kids:
                self.assertIsNotNone(node.attr)
                self.assertTrue(node.attr.name)
                np.testing.assert_allclose(sum(c.value for c in kids), node.value)
                every = np.concatenate([c.subset for c in kids])
                below, times = np.unique(every, return_counts=True)
                split = model.display.split(node.node_id)
                X = model.data_to_model_domain(data).X
                # the rest stop at the node: a missing value in the split's features;
                # with C4.5's fractional rows such a row goes down every branch
                stopped = np.setdiff1d(node.subset, below)
                np.testing.assert_array_equal(np.union1d(below, stopped), node.subset)
                self.assertEqual(len(below) + len(stopped), len(node.subset))
                shared = np.concatenate([stopped, below[times > 1]]).astype(int)
                self.assertTrue(np.isnan(X[np.ix_(shared, split.features_used)])
                                .any(axis=1).all())
                for kid in kids:
                    self.assertIs(kid.parent, node)
        probs = model(data, model.Probs)
        self.assertEqual(probs.shape, (len(data), len(data.domain.class_var.values)))
        np.testing.assert_allclose(probs.sum(axis=1), 1)


class TestGeometricTreeLearner(ModelChecks, unittest.TestCase):
    def test_iris(self):
        model = GeometricTreeLearner()(self.iris)
        self.check_model(model, self.iris)
        self.assertGreater(np.mean(model(self.iris) == self.iris.Y), 0.95)

    def test_heart_disease_categorical_and_missing_values(self):
        self.assertTrue(np.isnan(self.heart.X).any())
        model = GeometricTreeLearner()(self.heart)
        self.check_model(model, self.heart)
        self.assertGreater(np.mean(model(self.heart) == self.heart.Y), 0.8)
        names = " ".join(node.attr.text for node in all_nodes(model) if node.attr)
        self.assertIn("chest pain=", names)  # one-hot columns of a categorical feature

    def test_titanic(self):
        model = GeometricTreeLearner()(self.titanic)
        self.check_model(model, self.titanic)
        self.assertGreater(np.mean(model(self.titanic) == self.titanic.Y), 0.75)

    def test_cross_validation_heart_disease(self):
        results = CrossValidation(k=5, random_state=0)(self.heart, [GeometricTreeLearner()])
        self.assertGreater(CA(results)[0], 0.7)

    def test_probabilities_cover_absent_class_values(self):
        for data, absent in ((self.iris[50:], 0), (self.iris[:100], 2)):
            model = GeometricTreeLearner()(data)
            probs = model(self.iris, model.Probs)
            self.assertEqual(probs.shape, (150, 3))
            np.testing.assert_array_equal(probs[:, absent], 0)
            np.testing.assert_allclose(probs.sum(axis=1), 1)
            self.assertNotIn(absent, model(self.iris))
            np.testing.assert_array_equal(model.root.value[absent], 0)
            self.assertEqual(model.root.value.sum(), len(data))

    def test_rows_with_missing_class_are_skipped_but_indexed(self):
        missing = np.arange(0, len(self.heart), 7)
        data = with_missing_class(self.heart, missing)
        model = GeometricTreeLearner()(data)
        known = np.setdiff1d(np.arange(len(data)), missing)
        # the same fit as on the known rows alone; imputation uses the column means of
        # all rows, so the reference is fitted on the preprocessed table
        prepared = GeometricTreeLearner().preprocess(data)
        reference = GeometricTreeClassifier().fit(prepared.X[known],
                                                  prepared.Y[known].astype(int))
        self.assertEqual(model.tree_.node_count, reference.tree_.node_count)
        np.testing.assert_array_equal(model(data, model.Probs),
                                      reference.predict_proba(prepared.X))
        self.assertEqual(model.root.value.sum(), len(known))
        np.testing.assert_array_equal(model.root.subset, np.arange(len(data)))
        leaves = [n for n in all_nodes(model) if not n.children]
        np.testing.assert_array_equal(np.sort(np.concatenate([n.subset for n in leaves])),
                                      np.arange(len(data)))
        # a leaf's subset is exactly the rows (class known or not) that the tree routes there
        leaf_of_row = model.tree_.apply(model.data_to_model_domain(data).X)
        for leaf in leaves:
            np.testing.assert_array_equal(leaf.subset, np.flatnonzero(
                leaf_of_row == model.display.core_node(leaf.node_id)))

    def test_subsets_follow_decision_path(self):
        model = GeometricTreeLearner()(self.iris)
        path = model.tree_.decision_path(self.iris.X).toarray()
        for node in all_nodes(model):
            np.testing.assert_array_equal(node.subset, np.flatnonzero(
                path[:, model.display.core_node(node.node_id)]))

    def test_clear_errors(self):
        learner = GeometricTreeLearner()
        housing = Table("housing")
        with self.assertRaisesRegex(ValueError, "Categorical class"):
            learner(housing)
        no_class = self.iris.transform(Domain(self.iris.domain.attributes))
        with self.assertRaisesRegex(ValueError, "no target variable"):
            learner(no_class)
        no_features = self.iris.transform(Domain([], self.iris.domain.class_var))
        with self.assertRaisesRegex(ValueError, "no features"):
            learner(no_features)
        all_missing = with_missing_class(self.iris, slice(None))
        with self.assertRaisesRegex(ValueError, "Every class value is missing"):
            learner(all_missing)

    def test_features_removed_by_preprocessing(self):
        domain = Domain([ContinuousVariable("a")], DiscreteVariable("y", values=("0", "1")))
        data = Table.from_numpy(domain, np.full((4, 1), np.nan), np.array([0, 1, 0, 1]))
        with self.assertRaisesRegex(ValueError, "no features"):
            GeometricTreeLearner()(data)

    def test_single_class_gives_a_leaf(self):
        model = GeometricTreeLearner()(self.iris[:50])
        self.assertEqual(model.node_count(), 1)
        np.testing.assert_array_equal(model(self.iris, model.Probs)[:, 0], 1)

    def test_pickle_round_trip(self):
        model = GeometricTreeLearner()(self.heart)
        clone = pickle.loads(pickle.dumps(model))
        np.testing.assert_array_equal(clone(self.heart, clone.Probs),
                                      model(self.heart, model.Probs))
        self.assertEqual(clone.node_count(), model.node_count())
        self.assertEqual([n.attr.name for n in all_nodes(clone) if n.attr],
                         [n.attr.name for n in all_nodes(model) if n.attr])
        learner = pickle.loads(pickle.dumps(GeometricTreeLearner(max_depth=3)))
        self.assertEqual(learner.max_depth, 3)

    def test_parameters(self):
        learner = GeometricTreeLearner(epsilon1=0.2, epsilon2=0.9, max_depth=1,
                                       min_samples_split=5, standardize=False,
                                       pruning_portion=0.2, se_rule=1.0, random_state=3,
                                       max_terms=2, min_samples_leaf=4)
        expected = dict(epsilon1=0.2, epsilon2=0.9, max_depth=1, min_samples_split=5,
                        standardize=False, pruning_portion=0.2, se_rule=1.0, random_state=3,
                        max_terms=2, min_samples_leaf=4)
        self.assertEqual(learner.params, expected)
        for name, value in expected.items():
            self.assertEqual(getattr(learner, name), value)
        estimator = learner.create_estimator()
        self.assertIsInstance(estimator, GeometricTreeClassifier)
        self.assertEqual({k: estimator.get_params()[k] for k in expected}, expected)
        self.assertLessEqual(learner(self.iris).depth(), 1)
        self.assertEqual(learner.name, "Geometric Tree")
        self.assertIs(GeometricTreeLearner.__returns__, ObliqueTreeModel)
        self.assertTrue(issubclass(GeometricTreeLearner, ObliqueTreeLearner))

    def test_rule_lists_every_hyperplane_on_the_path(self):
        model = GeometricTreeLearner()(self.heart)
        tree = model.tree_
        names = [a.name for a in model.domain.attributes]
        deepest = max(all_nodes(model), key=lambda n: model.display.depth[n.node_id])
        rules = model.rule(deepest)
        path = tree.path(model.display.core_node(deepest.node_id))
        self.assertEqual(len(rules), len(path) - 1)
        self.assertGreaterEqual(len(rules), 3)
        for rule, parent, child in zip(rules, path, path[1:]):
            position = tree.children[parent].index(child)
            expected = branch_conditions(tree.splits[parent], names)[position]
            # the same condition, terms listed by importance instead of feature order
            lhs, op, rhs = rule.rsplit(" ", 2)
            expected_lhs, *expected_op_rhs = expected.rsplit(" ", 2)
            self.assertEqual([op, rhs], expected_op_rhs)
            self.assertEqual(sorted(lhs.replace(" − ", " + −").split(" + ")),
                             sorted(expected_lhs.replace(" − ", " + −").split(" + ")))
        self.assertEqual(model.rule(model.root), [])

    def test_node_texts(self):
        model = GeometricTreeLearner()(self.heart)
        root = model.root
        left, right = root.children
        self.assertTrue(left.description.startswith("< "))
        self.assertTrue(right.description.startswith("≥ "))
        self.assertEqual(left.description[2:], right.description[2:])
        self.assertEqual(model.rule(right)[0], f"{root.attr.text} {right.description}")
        lines = root.attr.name.split("<br/>")
        self.assertGreater(len(lines), 1)
        self.assertTrue(lines[-1].endswith("more"))
        # lines break between terms: a line of several terms fits BOX_LINE_CHARS; a term
        # longer than that has a line of its own, cut at its end ("…") only if it is
        # longer than the widest box
        self.assertTrue(all(len(line) <= BOX_MAX_CHARS for line in lines))
        for line in lines:
            if len(line) > BOX_LINE_CHARS or line.endswith("…"):
                self.assertNotRegex(line[1:], " [+−] ", line)  # a single term
            if line.endswith("…"):
                self.assertEqual(len(line), BOX_MAX_CHARS)
                self.assertIn(line[:-1], root.attr.text)
            elif not line.endswith("more"):
                self.assertIn(line, root.attr.text)  # whole terms
        for node in all_nodes(model):
            if node.attr is not None:
                self.assertNotIn(">", node.attr.name.replace("<br/>", ""))
                self.assertNotIn("<", node.attr.name.replace("<br/>", ""))

    def test_axis_parallel_text(self):
        domain = self.iris.domain
        tree = ObliqueTree(4, 3, [Split.axis_parallel(2, 2.45, 4), None, None],
                           [(1, 2), (), ()], [-1, 0, 0],
                           [[50, 50, 50], [50, 0, 0], [0, 50, 50]], [150, 50, 100])
        model = ObliqueTreeModel(self.iris, FittedTree(tree, [0, 1, 2]))
        self.assertEqual(model.root.attr.name, "petal length")
        self.assertEqual([c.description for c in model.root.children], ["< 2.45", "≥ 2.45"])
        self.assertEqual(model.rule(model.root.children[1]), ["petal length ≥ 2.45"])
        np.testing.assert_array_equal(model.root.children[0].subset, np.arange(50))
        self.assertEqual(domain, model.domain)


class TestGeometricTreePruning(unittest.TestCase):
    def test_pruning_gives_fewer_leaves(self):
        heart = Table("heart_disease")
        grown = GeometricTreeLearner(random_state=0)(heart)
        pruned = GeometricTreeLearner(pruning_portion=0.1, random_state=0)(heart)
        self.assertEqual(pruned.estimator.pruning_portion, 0.1)
        self.assertGreater(grown.leaf_count(), 10)
        self.assertLess(pruned.leaf_count(), grown.leaf_count() / 2)
        # the held-out rows are drawn from random_state: the same seed, the same tree
        again = GeometricTreeLearner(pruning_portion=0.1, random_state=0)(heart)
        self.assertEqual(again.tree_.export_text(), pruned.tree_.export_text())


class TestOC1Learner(ModelChecks, unittest.TestCase):
    def test_iris(self):
        model = OC1Learner(random_state=0)(self.iris)
        self.check_model(model, self.iris)
        self.assertIsInstance(model.estimator, OC1Classifier)
        self.assertEqual(model.name, "OC1")
        self.assertGreater(np.mean(model(self.iris) == self.iris.Y), 0.95)

    def test_heart_disease_with_missing_values(self):
        data = with_missing_class(self.heart, np.arange(0, len(self.heart), 9))
        model = OC1Learner(n_restarts=5, random_state=0)(data)
        self.check_model(model, data)
        # the pruned tree is recounted on all training rows (grown on 90 %, pruned on
        # the 10 % held out): every row with a class is counted
        self.assertEqual(model.root.value.sum(), np.sum(~np.isnan(data.Y)))
        unpruned = OC1Learner(n_restarts=5, pruning_portion=0, random_state=0)(data)
        self.check_model(unpruned, data)
        self.assertEqual(unpruned.root.value.sum(), np.sum(~np.isnan(data.Y)))

    def test_cross_validation(self):
        for data in (self.iris, self.heart):
            results = CrossValidation(k=3, random_state=0)(data, [OC1Learner(random_state=0)])
            self.assertGreater(CA(results)[0], 0.7, data.name)

    def test_defaults_are_the_core_defaults(self):
        assert_defaults_are_the_core_defaults(self, OC1Learner, OC1Classifier, "OC1")

    def test_parameters_reach_the_core_estimator(self):
        params = dict(impurity="gini", n_restarts=3, n_random_jumps=2,
                      coefficient_order="best_first", axis_parallel_bias=1.5,
                      oblique_rows_per_feature=3.0, split_mode="oblique",
                      pruning_portion=0.2, se_rule=1.0, max_depth=2, min_samples_split=4,
                      random_state=7, max_terms=3, stagnation_step=0.2)
        learner = OC1Learner(**params)
        self.assertEqual(learner.params, params)
        for name, value in params.items():
            self.assertEqual(getattr(learner, name), value)
        model = learner(self.iris)
        self.assertEqual(model.estimator.get_params(), params)
        self.assertLessEqual(model.depth(), 2)
        with patch.object(OC1Classifier, "fit", autospec=True,
                          side_effect=OC1Classifier.fit) as fit:
            OC1Learner(split_mode="axis_parallel", random_state=1)(self.iris)
        estimator = fit.call_args.args[0]
        self.assertEqual(estimator.split_mode, "axis_parallel")
        self.assertEqual(estimator.random_state, 1)

    def test_axis_parallel_mode(self):
        model = OC1Learner(split_mode="axis_parallel", random_state=0)(self.heart)
        for node in all_nodes(model):
            if node.attr is not None:
                self.assertEqual(model.display.split(node.node_id).features_used.size, 1)

    def test_same_random_state_same_tree(self):
        def tree(seed):
            model = OC1Learner(n_restarts=5, pruning_portion=0.2, random_state=seed)(self.heart)
            return model.tree_.export_text(), model(self.heart, model.Probs)

        text, probs = tree(3)
        again_text, again_probs = tree(3)
        self.assertEqual(text, again_text)
        np.testing.assert_array_equal(probs, again_probs)
        self.assertNotEqual(text, tree(4)[0])  # the seed matters (restarts, held-out rows)

    def test_pickle_and_deepcopy(self):
        learner = OC1Learner(n_restarts=4, random_state=2)
        model = learner(self.heart)
        clone = pickle.loads(pickle.dumps(model))
        np.testing.assert_array_equal(clone(self.heart, clone.Probs),
                                      model(self.heart, model.Probs))
        self.assertEqual(clone.tree_.export_text(), model.tree_.export_text())
        for copy in (pickle.loads(pickle.dumps(learner)), deepcopy(learner)):
            self.assertEqual(copy.params, learner.params)
            self.assertEqual(copy(self.heart).tree_.export_text(), model.tree_.export_text())


class TestProgressCallback(unittest.TestCase):
    """Orange's progress_callback reaches the core estimator's fit (and stays nowhere)."""

    def test_progress_reaches_the_fit(self):
        for learner in (OC1Learner(n_restarts=2, random_state=0), GeometricTreeLearner()):
            before = dict(vars(learner))
            values = []
            model = learner(Table("iris"), lambda value, *_: values.append(value))
            self.assertGreater(len(values), 5)  # Orange's own calls are only 0, 0.1 and 1
            fit_values = [v for v in values if 0.1 < v < 1]
            self.assertTrue(fit_values)
            self.assertEqual(fit_values, sorted(fit_values))
            self.assertEqual(values[-1], 1)
            # the lambda is kept on neither the learner nor the model
            self.assertEqual(vars(learner), before)
            pickle.dumps(model)
            deepcopy(learner)

    def test_exception_in_callback_aborts_the_fit(self):
        class Abort(Exception):
            pass

        calls = []

        def abort_in_fit(value, *_):
            calls.append(value)
            if value > 0.1:  # past preprocessing: raised from within the core's fit
                raise Abort

        for learner in (OC1Learner(random_state=0), GeometricTreeLearner()):
            calls.clear()
            with patch.object(learner.estimator_class, "fit", autospec=True,
                              side_effect=learner.estimator_class.fit) as fit:
                with self.assertRaises(Abort):
                    learner(Table("heart_disease"), abort_in_fit)
            fit.assert_called_once()
            self.assertLess(calls[-1], 1)
            # a later fit without a callback does not call the old one (it would raise)
            self.assertIsNotNone(learner(Table("iris")))


class TestFitMessages(unittest.TestCase):
    """What a learner did to the data travels with the model (``fit_messages``), and is
    also warned (``InputDataWarning``) for script users."""

    @classmethod
    def setUpClass(cls):
        iris = with_missing_class(Table("iris"), [0, 60, 120])
        with iris.unlocked(iris.X):  # Table.from_numpy would turn inf into NaN
            iris.X[5, 0], iris.X[70, 3] = np.inf, -np.inf
        cls.hostile = iris
        cls.expected = (
            FitMessage("infinite_values", 2, 600, "2 infinite feature values (±inf) treated "
                                                  "as missing and imputed."),
            FitMessage("skipped_rows", 3, 150, "3 of 150 rows have a missing class value "
                                               "and were left out of the fit."))

    def learners(self):
        return (GeometricTreeLearner(), OC1Learner(n_restarts=2, random_state=0),
                ODTSVMLearner(), HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=2))

    def test_messages_and_warnings(self):
        for learner in self.learners():
            with self.subTest(learner.name):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    model = learner(self.hostile)
                expected = self.expected
                if isinstance(learner, ODTSVMLearner):  # C4.5's missing values: kept
                    infinite, skipped = expected
                    expected = (infinite._replace(text=infinite.text.replace(
                        " and imputed", "")), skipped)
                self.assertEqual(model.fit_messages, expected)
                self.assertEqual(
                    [str(w.message) for w in caught
                     if issubclass(w.category, InputDataWarning)],
                    [message.text for message in expected])
                clone = pickle.loads(pickle.dumps(model))
                self.assertEqual(clone.fit_messages, expected)
                # the next fit has its own messages only
                self.assertEqual(learner(Table("iris")).fit_messages, ())

    def test_messages_without_warnings(self):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = OC1Learner(n_restarts=2)(self.hostile)
        self.assertEqual(model.fit_messages, self.expected)

    def test_fit_storage_called_directly(self):
        """Without ``__call__`` (no preprocessing), ``fit_storage`` tells its own."""
        data = with_missing_class(Table("iris"), np.arange(10))
        for learner in (GeometricTreeLearner(),
                        HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=2)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = learner.fit_storage(data)
            self.assertEqual([(m.kind, m.count, m.total) for m in model.fit_messages],
                             [("skipped_rows", 10, 150)])


class TestMultiwaySplits(unittest.TestCase):
    """Nodes of argmax, nearest-centre and equality splits (used by later learners)."""

    def setUp(self):
        self.domain = Domain([ContinuousVariable("a"), ContinuousVariable("b")],
                             DiscreteVariable("y", values=("p", "q", "r")))
        self.X = np.array([[0, 0], [3, 0], [0, 3], [3, 3], [1, 0]], dtype=float)
        self.data = Table.from_numpy(self.domain, self.X, np.array([0, 1, 2, 1, 0]))

    def model(self, splits, children, parent, value):
        tree = ObliqueTree(2, 3, splits, children, parent, value,
                           np.asarray(value).sum(axis=1))
        return ObliqueTreeModel(self.data, FittedTree(tree, [0, 1, 2]))

    def test_argmax_with_empty_branch(self):
        argmax = Split("argmax", [[1, 0], [0, 1], [-1, -1]], [0, 0, -10],
                       child_labels=["p", "q", "r"])
        model = self.model([argmax, None, None, None], [(1, 2, 3), (), (), ()],
                           [-1, 0, 0, 0], [[2, 2, 1], [2, 2, 0], [0, 0, 1], [0, 0, 0]])
        first, second, empty = model.root.children
        self.assertIsNone(empty)  # no training row: hidden, as in Orange's trees
        self.assertEqual([first.description, second.description], ["p", "q"])
        self.assertEqual(model.node_count(), 3)
        self.assertEqual(model.leaf_count(), 2)
        self.assertTrue(model.root.attr.name.startswith("largest score:"))
        self.assertIn("largest score: p", model.rule(first)[0])
        # ties go to the first maximum
        np.testing.assert_array_equal(first.subset, [0, 1, 3, 4])
        np.testing.assert_array_equal(second.subset, [2])

    def test_nearest_centre(self):
        split = Split("nearest_centre", [[1, 0], [0, 1]], [0, 0],
                      centres=[[0, 0], [3, 3]])
        model = self.model([split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                           [[2, 2, 1], [2, 1, 0], [0, 1, 1]])
        near, far = model.root.children
        self.assertEqual([near.description, far.description], ["cluster 1", "cluster 2"])
        self.assertTrue(model.rule(far)[0].startswith("nearest centre: cluster 2 of ["))
        # the heading wraps at its words to fit Orange's default box (150 px)
        self.assertTrue(model.root.attr.name.replace("<br/>", " ").startswith(
            "nearest centre in:"))
        np.testing.assert_array_equal(far.subset, [3])

    def test_equality(self):
        split = Split.equality(0, 3, 2, child_labels=["three", "other"])
        model = self.model([split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                           [[2, 2, 1], [0, 2, 0], [2, 0, 1]])
        self.assertEqual(model.root.attr.name, "a")
        self.assertEqual([c.description for c in model.root.children], ["= three", "≠ three"])
        self.assertEqual(model.rule(model.root.children[1]), ["a ≠ three"])

    def test_nan_stops_at_the_node(self):
        split = Split.hyperplane([1, 1], -3)
        model = self.model([split, None, None], [(1, 2), (), ()], [-1, 0, 0],
                           [[2, 2, 1], [2, 0, 0], [0, 2, 1]])
        probs = model.predict(np.array([[np.nan, 0], [0, 0], [5, 5]]))
        np.testing.assert_allclose(probs, [[0.4, 0.4, 0.2], [1, 0, 0], [0, 2 / 3, 1 / 3]])
        np.testing.assert_array_equal(model.get_values(np.array([[np.nan, 0]])), [[2, 2, 1]])
        # a NaN in a feature the split does not use does not stop the row
        axis = Split.axis_parallel(0, 2, 2)
        model = self.model([axis, None, None], [(1, 2), (), ()], [-1, 0, 0],
                           [[2, 2, 1], [2, 0, 0], [0, 2, 1]])
        np.testing.assert_allclose(model.predict(np.array([[0, np.nan]])), [[1, 0, 0]])


def splits_by_rule(model, rule):
    """The Orange nodes of ``model`` whose split follows ``rule``."""
    return [node for node in all_nodes(model)
            if node.attr is not None and model.display.split(node.node_id).kind.name == rule]


class TestODTSVMLearner(ModelChecks, unittest.TestCase):
    # The SVM clustering split runs X-means at every node, which makes a fit on
    # heart_disease take seconds; the heart_disease tests that are not about it leave it out.
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart_model = ODTSVMLearner(clustering_split=False, random_state=0)(cls.heart)

    def test_defaults_are_the_core_defaults(self):
        # categorical_features is taken from the domain
        assert_defaults_are_the_core_defaults(self, ODTSVMLearner, ODTSVMClassifier,
                                              "ODT-SVM", from_domain=("categorical_features",))

    def test_max_terms_above_the_columns_is_clamped(self):
        # iris has 4 columns: a cap of 10 caps nothing and is no error
        model = ODTSVMLearner(max_terms=10, random_state=0)(self.iris)
        self.assertEqual(model.estimator.max_terms, 4)
        model = GeometricTreeLearner(max_terms=2)(self.iris)
        self.assertLessEqual(max(s.features_used.size for s in model.tree_.splits
                                 if s is not None), 2)

    def test_parameters_reach_the_core_estimator(self):
        params = dict(C=0.5, clustering_split=False, max_clusters=3, mdl_penalty=False,
                      axis_parallel_tests=False, min_samples_leaf=4, confidence=0.1,
                      max_depth=2, random_state=7, max_terms=2, subtree_raising=False,
                      test_selection="gain_ratio", multiclass="one_vs_rest",
                      nominal_tests="binary", svm_cost="indices", collapse=False)
        learner = ODTSVMLearner(**params)
        self.assertEqual(learner.params, params)
        model = learner(self.heart)
        fitted = model.estimator.get_params()
        self.assertEqual({name: fitted[name] for name in params}, params)
        self.assertLessEqual(model.depth(), 2)

    def test_nominal_attributes_are_kept_and_passed_as_categorical(self):
        model = self.heart_model
        domain = model.domain
        # no one-hot columns: the model's attributes are the data's own
        self.assertEqual([a.name for a in domain.attributes],
                         [a.name for a in self.heart.domain.attributes])
        discrete = [j for j, a in enumerate(domain.attributes) if a.is_discrete]
        self.assertEqual(len(discrete), 7)
        self.assertEqual(list(model.estimator.categorical_features), discrete)
        # missing values stay missing (C4.5's fractional rows); known codes stay codes
        X = model.data_to_model_domain(self.heart).X
        self.assertTrue(np.isnan(X[:, discrete]).any())
        codes = X[:, discrete][np.isfinite(X[:, discrete])]
        np.testing.assert_array_equal(codes, np.round(codes))

    def test_nominal_splits_have_one_branch_per_value(self):
        """C4.5's test of a nominal attribute: one branch per value, ``= value``; every
        branch says its share of a row with a missing value where the node's training
        rows had missing values of the attribute, and only there."""
        model = self.heart_model
        tree = model.tree_
        nominal = splits_by_rule(model, NOMINAL)
        self.assertGreaterEqual(len(nominal), 3)
        for node in nominal:
            split = model.display.split(node.node_id)
            variable = model.domain.attributes[int(split.features_used[0])]
            self.assertTrue(variable.is_discrete)
            self.assertEqual(split.n_children, len(variable.values))
            self.assertEqual(node.attr.name, escape(variable.name))
            for kid, value in zip(node.children, variable.values):
                if kid is not None:
                    self.assertEqual(kid.description, f"= {value}")
                    shares = r" \(missing: .* %\)" if split.missing_in_training else ""
                    self.assertRegex(model.rule(kid)[-1],
                                     rf"^{variable.name} = {value}{shares}$")
        self.assertTrue(any(model.display.split(n.node_id).missing_in_training
                            for n in nominal))
        self.assertFalse(all(model.display.split(n.node_id).missing_in_training
                             for n in nominal))
        # hyperplanes and thresholds never use a nominal attribute
        for node in all_nodes(model):
            split = model.display.split(node.node_id)
            if split is not None and split.kind.name != NOMINAL:
                used = [model.domain.attributes[j] for j in split.features_used]
                self.assertTrue(all(v.is_continuous for v in used), node.attr.text)
        chest_pain = [n for n in nominal if n.attr.name == "chest pain"]
        self.assertTrue(chest_pain)
        self.assertIn("= asymptomatic", [c.description for n in chest_pain
                                         for c in n.children if c is not None])

    def test_node_rule_of_a_multiway_nominal_test_is_its_attribute(self):
        """The node's text names the attribute C4.5's test branches on (its branches
        name the values); a binary test reads ``a = v``."""
        domain = Domain([DiscreteVariable("pain", values=("none", "mild", "severe"))],
                        DiscreteVariable("y", values=("no", "yes")))
        texts = SplitPresenter(domain.attributes, [1.0], domain.class_var.values)
        nominal = Split.nominal(0, [0, 1, 2], 1).copy(missing_shares=[0.5, 0.25, 0.25],
                                                      missing_in_training=True)
        self.assertEqual(texts.node_rule(nominal), ("pain", "pain"))
        self.assertEqual(texts.edge_labels(nominal), ["= none", "= mild", "= severe"])
        self.assertEqual(texts.conditions(nominal),
                         ["pain = none (missing: 50 %)", "pain = mild (missing: 25 %)",
                          "pain = severe (missing: 25 %)"])
        self.assertEqual(texts.node_rule(Split.equality(0, 2, 1))[0], "pain = severe")

    def test_brown_selected_root_is_an_svm_split_under_the_subset_code(self):
        """brown-selected (79 attributes, 186 rows; imputed here): the
        SVM split over all 79 attributes costs log2 80 = 6.3 bits as a subset, and wins
        the root; coded index by index, 79 · log2 79 = 498 bits, more than any gain."""
        data = Table("brown-selected")
        imputed = [Impute()]
        subset = ODTSVMLearner(random_state=0, preprocessors=imputed)(data)
        root = subset.tree_.splits[0]
        self.assertTrue(root.is_oblique)
        self.assertEqual(root.features_used.size, 79)
        indices = ODTSVMLearner(random_state=0, svm_cost="indices",
                                preprocessors=imputed)(data)
        self.assertFalse(indices.tree_.splits[0].is_oblique)

    def test_binary_value_tests_stay_an_option(self):
        model = ODTSVMLearner(clustering_split=False, random_state=0,
                              nominal_tests="binary")(self.heart)
        nominal = splits_by_rule(model, EQUALITY)
        self.assertTrue(nominal)
        for node in nominal:
            split = model.display.split(node.node_id)
            variable = model.domain.attributes[int(split.features_used[0])]
            value = variable.values[int(-split.bias[0])]
            self.assertEqual([c.description for c in node.children if c is not None],
                             [d for d, c in zip((f"= {value}", f"≠ {value}"), node.children)
                              if c is not None])

    def test_edge_text_exact(self):
        domain = Domain([ContinuousVariable("age"),
                         DiscreteVariable("pain", values=("none", "mild", "severe"))],
                        DiscreteVariable("y", values=("no", "yes")))
        data = Table.from_numpy(domain, [[30, 0], [40, 2], [50, 2], [60, 1]], [0, 1, 1, 0])
        tree = ObliqueTree(2, 2, [Split.equality(1, 2, 2), None, None], [(1, 2), (), ()],
                           [-1, 0, 0], [[2, 2], [0, 2], [2, 0]], [4, 2, 2])
        model = ObliqueTreeModel(data, FittedTree(tree, [0, 1]))
        self.assertEqual(model.root.attr.name, "pain")
        self.assertEqual([c.description for c in model.root.children],
                         ["= severe", "≠ severe"])
        self.assertEqual(model.rule(model.root.children[0]), ["pain = severe"])
        self.assertEqual(model.rule(model.root.children[1]), ["pain ≠ severe"])
        np.testing.assert_array_equal(model.root.children[0].subset, [1, 2])

    def test_titanic_all_nominal(self):
        model = ODTSVMLearner(random_state=0)(self.titanic)
        self.check_model(model, self.titanic)
        self.assertGreater(np.mean(model(self.titanic) == self.titanic.Y), 0.77)
        root = model.root
        self.assertEqual(root.attr.name, "sex")
        self.assertEqual([c.description for c in root.children], ["= female", "= male"])
        self.assertEqual(len(splits_by_rule(model, NOMINAL)), model.node_count()
                         - model.leaf_count())

    def test_iris(self):
        model = ODTSVMLearner(random_state=0)(self.iris)
        self.check_model(model, self.iris)
        self.assertIsInstance(model.estimator, ODTSVMClassifier)
        self.assertEqual(list(model.estimator.categorical_features), [])
        self.assertEqual(model.name, "ODT-SVM")
        self.assertGreater(np.mean(model(self.iris) == self.iris.Y), 0.95)

    def test_heart_disease(self):
        data = with_missing_class(self.heart, np.arange(0, len(self.heart), 9))
        model = ODTSVMLearner(clustering_split=False, random_state=0)(data)
        self.check_model(model, data)
        self.assertEqual(model.root.value.sum(), np.sum(~np.isnan(data.Y)))
        self.assertGreater(np.mean(model(self.heart) == self.heart.Y), 0.8)

    def test_cross_validation(self):
        # the paper's Table I: iris 95.33 %, heart-c 80.2 %
        for data, learner, expected in (
                (self.iris, ODTSVMLearner(random_state=0), 0.93),
                (self.heart, ODTSVMLearner(clustering_split=False, random_state=0), 0.74),
                (self.titanic, ODTSVMLearner(random_state=0), 0.77)):
            results = CrossValidation(k=5, random_state=0)(data, [learner])
            self.assertGreater(CA(results)[0], expected, data.name)

    def test_argmax_branches_are_class_names(self):
        # without J48's thresholds the root of iris is the SVM's one-vs-rest split
        model = ODTSVMLearner(axis_parallel_tests=False, clustering_split=False,
                              multiclass="one_vs_rest", random_state=0)(self.iris)
        self.check_model(model, self.iris)
        root = model.root
        self.assertEqual(model.tree_.splits[0].kind.name, ARGMAX)
        # branches carry class codes as data, shown as the class's name
        self.assertEqual(model.tree_.splits[0].classes, (0, 1, 2))
        names = list(self.iris.domain.class_var.values)
        self.assertEqual([c.description for c in root.children], names)
        for child, name in zip(root.children, names):
            self.assertTrue(model.rule(child)[0].startswith(f"largest score: {name} of ["))
        lines = root.attr.name.split("<br/>")
        self.assertEqual(lines[0], "largest score:")
        # a class name on a line of its own when it and its largest term do not fit one
        self.assertEqual(lines[1:4], ["Iris-setosa:", "−1.146·", "petal width"])
        self.assertEqual([line for line in lines if line.endswith(":")],
                         ["largest score:"] + [f"{name}:" for name in names])
        self.assertTrue(all(len(line) <= BOX_LINE_CHARS for line in lines))
        # the children of a multiway node partition its rows
        self.assertEqual(sum(len(c.subset) for c in root.children), len(self.iris))

    def test_argmax_labels_of_class_values_seen(self):
        # class value 1 absent from training: the tree's class codes 0 and 1 stand for
        # class values 0 and 2, not for positions
        data = self.iris[np.r_[0:50, 100:150]]
        tree = ObliqueTree(4, 2, [Split(ARGMAX, np.eye(2, 4), [0, 0], classes=[0, 1]),
                                  None, None], [(1, 2), (), ()], [-1, 0, 0],
                           [[50, 50], [40, 10], [10, 40]], [100, 50, 50])
        model = ObliqueTreeModel(data, FittedTree(tree, [0, 2]))
        self.assertEqual([c.description for c in model.root.children],
                         ["Iris-setosa", "Iris-virginica"])

    def test_nearest_centre_branches_are_clusters(self):
        # without the MDL penalty, up to 5 clusters, the SVM clustering split wins the
        # root of iris
        model = ODTSVMLearner(mdl_penalty=False, max_clusters=5, random_state=0)(self.iris)
        self.check_model(model, self.iris)
        clustered = splits_by_rule(model, NEAREST_CENTRE)
        self.assertTrue(clustered)
        for node in clustered:
            k = model.display.split(node.node_id).n_children
            descriptions = [c.description for c in node.children if c is not None]
            self.assertTrue(set(descriptions) <= {f"cluster {i + 1}" for i in range(k)})
            self.assertTrue(node.attr.name.replace("<br/>", " ").startswith(
                "nearest centre in:"))

    def test_pickle_and_deepcopy(self):
        learner = ODTSVMLearner(clustering_split=False, random_state=2)
        model = self.heart_model
        clone = pickle.loads(pickle.dumps(model))
        # rows with missing values: mixes of the branches, equal to rounding
        np.testing.assert_allclose(clone(self.heart, clone.Probs),
                                   model(self.heart, model.Probs), rtol=0, atol=1e-12)
        self.assertEqual([n.attr.name for n in all_nodes(clone) if n.attr],
                         [n.attr.name for n in all_nodes(model) if n.attr])
        for copy in (pickle.loads(pickle.dumps(learner)), deepcopy(learner)):
            self.assertEqual(copy.params, learner.params)
            self.assertEqual(copy(self.heart).tree_.export_text(),
                             learner(self.heart).tree_.export_text())


class TestHedgeEnsembleLearner(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.iris = Table("iris")
        cls.heart = Table("heart_disease")

    def check_probabilities(self, model, data):
        self.assertIsInstance(model, HedgeEnsembleModel)
        probs = model(data, model.Probs)
        self.assertEqual(probs.shape, (len(data), len(data.domain.class_var.values)))
        np.testing.assert_allclose(probs.sum(axis=1), 1)
        return probs

    def test_default_base_learner_is_odt_svm(self):
        learner = HedgeEnsembleLearner(n_estimators=3)
        self.assertIsInstance(learner.learner, ODTSVMLearner)
        self.assertEqual(learner.name, "Hedge Ensemble")
        self.assertIs(HedgeEnsembleLearner.__returns__, HedgeEnsembleModel)
        self.assertEqual(
            {k: v for k, v in learner.params.items() if k != "learner"},
            dict(n_estimators=3, sample_fraction=0.9, beta=0.9, random_state=0,
                 n_jobs=None))
        model = learner(self.iris)
        ensemble = model.estimator
        self.assertIsInstance(ensemble, HedgeEnsembleClassifier)
        self.assertEqual(len(ensemble.estimators_), 3)
        for member, rows in zip(ensemble.estimators_, ensemble.subsets_):
            self.assertIsInstance(member, ODTSVMClassifier)  # the trees, unwrapped
            self.assertEqual(len(rows), 135)
        self.assertIsInstance(ensemble.estimator, ODTSVMClassifier)
        self.assertAlmostEqual(ensemble.weights_.sum(), 1)
        self.assertTrue(np.all(ensemble.weights_ > 0))
        self.check_probabilities(model, self.iris)
        self.assertGreater(np.mean(model(self.iris) == self.iris.Y), 0.95)

    def test_nominal_attributes_reach_the_members(self):
        learner = HedgeEnsembleLearner(ODTSVMLearner(clustering_split=False), n_estimators=2)
        model = learner(self.heart)
        discrete = [j for j, a in enumerate(model.domain.attributes) if a.is_discrete]
        self.assertEqual(len(discrete), 7)
        for member in model.estimator.estimators_:
            self.assertEqual(list(member.categorical_features), discrete)
        self.check_probabilities(model, self.heart)
        self.assertGreater(np.mean(model(self.heart) == self.heart.Y), 0.8)

    def test_any_learner_of_the_add_on(self):
        for base, core in ((GeometricTreeLearner(), GeometricTreeClassifier),
                           (OC1Learner(n_restarts=2), OC1Classifier)):
            model = HedgeEnsembleLearner(base, n_estimators=3, random_state=1)(self.heart)
            self.assertTrue(all(isinstance(m, core) for m in model.estimator.estimators_))
            # the base learner's preprocessing: one-hot columns for GDT and OC1
            self.assertIn("chest pain=asymptomatic",
                          [a.name for a in model.domain.attributes])
            self.check_probabilities(model, self.heart)
            self.assertGreater(np.mean(model(self.heart) == self.heart.Y), 0.75)

    def test_cross_validation(self):
        learner = HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=3)
        results = CrossValidation(k=5, random_state=0)(self.iris, [learner])
        self.assertGreater(CA(results)[0], 0.93)

    def test_probabilities_cover_absent_class_values(self):
        learner = HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=3)
        model = learner(self.iris[50:])
        probs = self.check_probabilities(model, self.iris)
        np.testing.assert_array_equal(probs[:, 0], 0)

    def test_rows_with_missing_class_are_skipped(self):
        data = with_missing_class(self.iris, np.arange(0, 150, 5))
        model = HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=2)(data)
        self.assertTrue(all(rows.max() < 120 for rows in model.estimator.subsets_))
        self.check_probabilities(model, data)

    def test_foreign_learner_is_a_clear_error(self):
        with self.assertRaisesRegex(ValueError, "oblique tree learner of this add-on.*Tree"):
            HedgeEnsembleLearner(TreeLearner())
        with self.assertRaisesRegex(ValueError, "oblique tree learner"):
            HedgeEnsembleLearner(ODTSVMClassifier())

    def test_same_seed_same_model(self):
        def probs(seed):
            model = HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=3,
                                         sample_fraction=0.5, random_state=seed)(self.heart)
            return model(self.heart, model.Probs)

        np.testing.assert_array_equal(probs(3), probs(3))
        self.assertFalse(np.array_equal(probs(3), probs(4)))

    def test_pickle_and_deepcopy(self):
        learner = HedgeEnsembleLearner(OC1Learner(n_restarts=2), n_estimators=2)
        model = learner(self.iris)
        clone = pickle.loads(pickle.dumps(model))
        np.testing.assert_array_equal(clone(self.iris, clone.Probs),
                                      model(self.iris, model.Probs))
        for copy in (pickle.loads(pickle.dumps(learner)), deepcopy(learner)):
            self.assertEqual(copy.n_estimators, 2)
            np.testing.assert_array_equal(copy(self.iris)(self.iris, model.Probs),
                                          model(self.iris, model.Probs))

    def test_progress_per_member_and_abort(self):
        learner = HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=4)
        values = []
        learner(self.iris, lambda value, *_: values.append(value))
        fit_values = [v for v in values if 0.1 < v < 1]
        self.assertEqual(fit_values, sorted(fit_values))
        # each member fills its quarter of the fit's progress while its tree grows
        for quarter in range(4):
            low, high = 0.1 + 0.9 * quarter / 4, 0.1 + 0.9 * (quarter + 1) / 4
            self.assertTrue(any(low < v < high for v in fit_values), quarter)
        self.assertEqual(values[-1], 1)

        class Abort(Exception):
            pass

        def abort_in_third_member(value, *_):
            if value > 0.1 + 0.9 * 2.5 / 4:
                raise Abort

        with patch.object(GeometricTreeClassifier, "fit", autospec=True,
                          side_effect=GeometricTreeClassifier.fit) as fit:
            with self.assertRaises(Abort):
                learner(self.iris, abort_in_third_member)
        self.assertEqual(fit.call_count, 3)
        self.assertIsNotNone(learner(self.iris))  # no callback left behind


class TestFeatureImportanceScorer(unittest.TestCase):
    """The learners are Orange feature scorers (Rank), their models say how oblique they
    are."""

    @classmethod
    def setUpClass(cls):
        cls.heart = Table("heart_disease")
        cls.learners = [GeometricTreeLearner(), OC1Learner(n_restarts=2, random_state=0),
                        ODTSVMLearner(random_state=0),
                        HedgeEnsembleLearner(GeometricTreeLearner(), n_estimators=3)]

    def test_learners_are_learner_scorers(self):
        from Orange.preprocess.score import LearnerScorer
        for learner in self.learners:
            with self.subTest(learner.name):
                self.assertIsInstance(learner, LearnerScorer)
                self.assertIs(learner.class_type, DiscreteVariable)
                importances, attributes = learner.score(self.heart)
                self.assertEqual(attributes, self.heart.domain.attributes)
                self.assertEqual(len(importances), len(attributes))
                self.assertAlmostEqual(float(np.sum(importances)), 1.0)
                self.assertTrue((np.asarray(importances) >= 0).all())

    def test_score_data_gives_one_score_per_original_attribute(self):
        for learner in self.learners:
            with self.subTest(learner.name):
                scores = learner.score_data(self.heart)
                self.assertEqual(scores.shape, (1, len(self.heart.domain.attributes)))
                model = learner(self.heart)
                # an attribute's score is the sum of its columns' (one-hot) importances
                by_origin = {}
                for attr, importance in zip(model.domain.attributes,
                                            model.feature_importances):
                    while attr not in self.heart.domain:
                        attr = attr.compute_value.variable
                    by_origin[attr.name] = by_origin.get(attr.name, 0) + importance
                expected = [by_origin.get(a.name, 0) for a in self.heart.domain.attributes]
                np.testing.assert_allclose(scores[0], expected, atol=1e-12)
                self.assertTrue(scores.any())
        # one-hot columns are mapped back: the model has more columns than the data
        model = GeometricTreeLearner()(self.heart)
        self.assertGreater(len(model.domain.attributes), len(self.heart.domain.attributes))

    def test_importances_name_the_tables_attributes_for_every_learner(self):
        """All five learners name the table's own attributes (zoo:
        "legs" has six values, one-hot in GDT, OC1 and the forest; codes in ODT-SVM), so
        they can be compared side by side; one-hot columns are summed back."""
        zoo = Table("zoo")
        names = [attr.name for attr in zoo.domain.attributes]
        for learner in (GeometricTreeLearner(), OC1Learner(n_restarts=2, random_state=0),
                        ODTSVMLearner(random_state=0),
                        HedgeEnsembleLearner(OC1Learner(n_restarts=2), n_estimators=3),
                        ObliqueForestLearner(n_estimators=5)):
            with self.subTest(learner.name):
                model = learner(zoo)
                importances, attributes = model.attribute_importances
                self.assertEqual([attr.name for attr in attributes], names)
                self.assertAlmostEqual(float(np.sum(importances)), 1.0)
                scored, scored_attributes = learner.score(zoo)
                self.assertEqual(scored_attributes, zoo.domain.attributes)
                legs = [j for j, attr in enumerate(model.domain.attributes)
                        if attr.name.startswith("legs")]
                self.assertAlmostEqual(importances[names.index("legs")],
                                       model.feature_importances[legs].sum())
                np.testing.assert_allclose(learner.score_data(zoo)[0], scored)

    def test_model_split_statistics(self):
        model = OC1Learner(n_restarts=2, random_state=0)(self.heart)
        tree = model.estimator.tree_
        splits = [s for s in tree.splits if s is not None]
        self.assertEqual(model.n_splits, len(splits))
        self.assertEqual(model.n_oblique_splits, sum(1 for s in splits if s.is_oblique))
        self.assertAlmostEqual(model.mean_attributes_per_split,
                               np.mean([s.features_used.size for s in splits]))
        np.testing.assert_allclose(model.feature_importances,
                                   model.estimator.feature_importances_)

    def test_ensemble_model_totals_over_members(self):
        model = HedgeEnsembleLearner(OC1Learner(n_restarts=2), n_estimators=3)(self.heart)
        members = [m.get_split_statistics() for m in model.estimator.estimators_]
        self.assertEqual(model.n_splits, sum(s.n_splits for s in members))
        self.assertEqual(model.n_oblique_splits, sum(s.n_oblique_splits for s in members))
        self.assertAlmostEqual(model.mean_attributes_per_split,
                               sum(s.n_attribute_uses for s in members) / model.n_splits)
        self.assertAlmostEqual(float(model.feature_importances.sum()), 1.0)

    def test_model_without_splits(self):
        model = GeometricTreeLearner(max_depth=0)(self.heart)
        self.assertEqual((model.n_splits, model.n_oblique_splits), (0, 0))
        self.assertTrue(np.isnan(model.mean_attributes_per_split))
        self.assertFalse(model.feature_importances.any())

    def test_model_pickled_before_scales_were_kept(self):
        model = GeometricTreeLearner(max_depth=3)(self.heart)
        del model.estimator.tree_.feature_scales  # as a model of an earlier version
        model = pickle.loads(pickle.dumps(model))
        importances = model.feature_importances
        self.assertAlmostEqual(float(importances.sum()), 1.0)
        self.assertEqual(model.n_splits, model.estimator.tree_.node_count
                         - model.estimator.tree_.n_leaves)


if __name__ == "__main__":
    unittest.main()


def test_the_base_learner_is_not_exported_and_says_what_to_use():
    import orangecontrib.oblique
    assert "ObliqueTreeLearner" not in orangecontrib.oblique.__all__
    with np.testing.assert_raises_regex(TypeError, "use GeometricTreeLearner"):
        ObliqueTreeLearner()
