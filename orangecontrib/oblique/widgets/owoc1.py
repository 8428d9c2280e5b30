"""The OC1 learner widget."""
from collections import OrderedDict

from AnyQt.QtCore import Qt

from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.widgetpreview import WidgetPreview

from orangecontrib.oblique.learners import OC1Learner
from orangecontrib.oblique.widgets.modelsummary import ModelSummaryMixin
from orangecontrib.oblique.widgets.utils import (AttributesPerSplitMixin,
                                                 ClassValueChecksMixin,
                                                 ConcurrentLearnerWidgetMixin)


class OWOC1(ModelSummaryMixin, AttributesPerSplitMixin, ConcurrentLearnerWidgetMixin,
            ClassValueChecksMixin, OWBaseLearner):
    """OC1 (Murthy, Kasif & Salzberg): oblique splits found by randomised hill climbing,
    pruned on held-out data.  Fits in a background thread."""
    name = "OC1"
    description = ("Oblique decision tree whose splits are found by perturbing hyperplane "
                   "coefficients with random restarts and jumps (OC1).")
    icon = "icons/OC1.svg"
    priority = 20
    keywords = "oc1, oblique classifier 1, oblique tree, classification tree, hyperplane"

    LEARNER = OC1Learner

    #: (learner value, label) of the choices of the combo boxes, in their order
    IMPURITIES = (
        ("twoing", "Twoing rule"),
        ("information_gain", "Information gain"),
        ("gini", "Gini index"),
        ("max_minority", "Max minority"),
        ("sum_minority", "Sum minority"),
        ("sum_of_variances", "Sum of variances"),
    )
    COEFFICIENT_ORDERS = (
        ("sequential", "Sequential"),
        ("best_first", "Best first"),
        ("random", "Random"),
    )
    SPLIT_MODES = (
        ("oblique_and_axis_parallel", "Oblique and axis-parallel"),
        ("axis_parallel", "Axis-parallel only"),
        ("oblique", "Oblique only"),
    )

    impurity_index = Setting(0)
    n_restarts = Setting(20)
    n_random_jumps = Setting(5)
    coefficient_order_index = Setting(0)
    split_mode_index = Setting(0)
    pruning_percent = Setting(10)
    se_rule = Setting(0.0)
    limit_depth = Setting(True)
    max_depth = Setting(50)
    replicable = Setting(True)
    seed = Setting(0)

    def add_main_layout(self):
        spin = dict(alignment=Qt.AlignRight, controlWidth=80, callback=self.settings_changed)
        combo = dict(orientation=Qt.Horizontal, callback=self.settings_changed)

        box = gui.vBox(self.controlArea, "Splits")
        gui.comboBox(
            box, self, "impurity_index", label="Impurity measure: ",
            items=[label for _, label in self.IMPURITIES], **combo,
            tooltip="How a candidate split is scored (OC1, Appendix B); "
                    "the twoing rule is OC1's default.")
        gui.comboBox(
            box, self, "split_mode_index", label="Splits: ",
            items=[label for _, label in self.SPLIT_MODES], **combo,
            tooltip="Oblique and axis-parallel: the oblique split is used when it is "
                    "better (OC1); axis-parallel only: OC1-AP.")
        self.add_attributes_per_split(box)

        box = gui.vBox(self.controlArea, "Hyperplane search")
        gui.spin(
            box, self, "n_restarts", 1, 500, label="Restarts: ", **spin,
            tooltip="The first search starts at the best axis-parallel split, "
                    "the others at random hyperplanes.")
        gui.spin(
            box, self, "n_random_jumps", 0, 100, label="Random jumps: ", **spin,
            tooltip="Random jumps tried at each local minimum.")
        gui.comboBox(
            box, self, "coefficient_order_index", label="Coefficient order: ",
            items=[label for _, label in self.COEFFICIENT_ORDERS], **combo,
            tooltip="Order in which the coefficients of the hyperplane are perturbed.")

        box = gui.vBox(self.controlArea, "Pruning and stopping")
        pruning = gui.spin(
            box, self, "pruning_percent", 0, 90, label="Hold out for pruning (%): ", **spin,
            tooltip="Share of the training rows held out for cost-complexity pruning; "
                    "0 grows the tree without pruning.")
        pruning.setSpecialValueText("no pruning")
        gui.doubleSpin(
            box, self, "se_rule", 0.0, 5.0, step=0.5, decimals=1,
            label="Standard-error rule (k-SE): ", **spin,
            tooltip="Choose the smallest pruned tree whose held-out error is within k "
                    "standard errors of the best one (0: the best one).")
        gui.spin(
            box, self, "max_depth", 1, 200, label="Limit the tree depth to: ",
            checked="limit_depth", checkCallback=self.settings_changed, **spin)
        gui.spin(
            box, self, "seed", 0, 2 ** 31 - 1, label="Replicable training, seed: ",
            checked="replicable", checkCallback=self.settings_changed, **spin,
            tooltip="Fix the random restarts, jumps and held-out rows, so that the same "
                    "data always give the same tree.")

    def create_learner(self):
        return self.LEARNER(
            impurity=self.IMPURITIES[self.impurity_index][0],
            n_restarts=self.n_restarts,
            n_random_jumps=self.n_random_jumps,
            coefficient_order=self.COEFFICIENT_ORDERS[self.coefficient_order_index][0],
            split_mode=self.SPLIT_MODES[self.split_mode_index][0],
            pruning_portion=self.pruning_percent / 100,
            se_rule=self.se_rule,
            max_depth=self.max_depth if self.limit_depth else None,
            random_state=self.seed if self.replicable else None,
            max_terms=self.max_terms_parameter(),
            preprocessors=self.preprocessors)

    def get_learner_parameters(self):
        return OrderedDict((
            ("Impurity measure", self.IMPURITIES[self.impurity_index][1]),
            ("Splits", self.SPLIT_MODES[self.split_mode_index][1]),
            self.attributes_per_split_report(),
            ("Restarts", str(self.n_restarts)),
            ("Random jumps", str(self.n_random_jumps)),
            ("Coefficient order", self.COEFFICIENT_ORDERS[self.coefficient_order_index][1]),
            ("Pruning", f"on {self.pruning_percent} % held-out data, "
                        f"{self.se_rule:.1f}-SE rule" if self.pruning_percent else "none"),
            ("Maximal depth", str(self.max_depth) if self.limit_depth else "unlimited"),
            ("Replicable training", f"Yes (seed {self.seed})" if self.replicable else "No"),
        ))


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWOC1).run(Table("heart_disease"))
