"""The Oblique Data widget: the synthetic data sets of the GDT and OC1 papers."""
from typing import Callable, NamedTuple, Tuple

import numpy as np

from AnyQt.QtCore import Qt

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Msg, Output, OWWidget

from orangecontrib.oblique.core import datasets
from orangecontrib.oblique.widgets.utils import (SETTINGS_RESTORED,
                                                 clamp_settings_to_controls,
                                                 restore_mistyped_settings,
                                                 show_restored_settings)


class DataSet(NamedTuple):
    """One generator of :mod:`orangecontrib.oblique.core.datasets` as the widget offers it.

    ``generator`` returns ``(X, y)``; ``codes`` are the values ``y`` takes, in the order
    of ``values``, the class values of the output table.  ``angle`` is the paper's
    rotation in degrees, or ``None`` when the set is not rotated."""
    name: str
    generator: Callable
    codes: Tuple[int, ...]
    values: Tuple[str, ...]
    angle: "float | None"


GDT_CODES, GDT_VALUES = (-1, 1), ("-1", "+1")

#: The offered sets, in the order of the combo box (``set_index`` indexes this tuple).
DATA_SETS = (
    DataSet("Rotated 2×2 checkerboard (GDT)", datasets.checkerboard_2x2,
            GDT_CODES, GDT_VALUES, 30),
    DataSet("Rotated 4×4 checkerboard (GDT)", datasets.checkerboard_4x4,
            GDT_CODES, GDT_VALUES, 30),
    DataSet("10-dimensional, three hyperplanes (GDT)", datasets.synthetic_10d,
            GDT_CODES, GDT_VALUES, None),
    DataSet("Linearly separable, LS10 (OC1)", datasets.ls10,
            (0, 1), ("A", "B"), None),
    DataSet("Parallel oblique lines, POL (OC1)", datasets.parallel_oblique_lines,
            (0, 1), ("A", "B"), 45),
    DataSet("Rotated checkerboard, RCB (OC1)", datasets.rotated_checkerboard,
            tuple(range(8)), tuple("ABCDEFGH"), 30),
)


def flip_labels(y, n_values, share, rng):
    """Give ``round(share * len(y))`` rows, chosen at random, a *different* class drawn
    uniformly from the other ``n_values - 1`` values (``y`` holds value indices)."""
    y = y.copy()
    n_flipped = int(round(share * len(y)))
    if n_flipped == 0 or n_values < 2:
        return y
    rows = rng.choice(len(y), size=n_flipped, replace=False)
    y[rows] = (y[rows] + rng.integers(1, n_values, size=n_flipped)) % n_values
    return y


def make_table(data_set, n_rows, angle, noise_percent, seed):
    """The Orange table of ``data_set``: features ``x1 … xd``, class ``class``.

    ``angle`` (degrees) is used only by rotated sets; ``noise_percent`` of the rows get a
    different class (the noise has its own random stream, so the points do not change
    with the noise level)."""
    kwargs = dict(n_samples=n_rows, random_state=seed)
    if data_set.angle is not None:
        kwargs["angle"] = np.deg2rad(angle)
    X, y = data_set.generator(**kwargs)
    indices = np.searchsorted(data_set.codes, y)
    noise_rng = np.random.default_rng([seed, 1])
    indices = flip_labels(indices, len(data_set.codes), noise_percent / 100, noise_rng)
    domain = Domain(
        [ContinuousVariable(f"x{i}") for i in range(1, X.shape[1] + 1)],
        DiscreteVariable("class", values=data_set.values))
    table = Table.from_numpy(domain, X, indices.astype(float))
    table.name = data_set.name
    return table


class OWObliqueData(OWWidget):
    """Generate the synthetic data sets on which the GDT and OC1 papers test oblique
    trees: rotated checkerboards, a 10-dimensional set, LS10 and parallel oblique lines."""
    name = "Oblique Data"
    description = ("Synthetic data sets of the oblique tree papers (GDT, OC1): rotated "
                   "checkerboards, parallel oblique lines, LS10, a 10-D set.")
    icon = "icons/ObliqueData.svg"
    priority = 1
    keywords = "oblique data, synthetic data, checkerboard, generator, gdt, oc1"

    class Outputs:
        data = Output("Data", Table)

    class Error(OWWidget.Error):
        generation_failed = Msg("Could not generate the data: {}")

    class Warning(OWWidget.Warning):
        missing_classes = Msg("Only {} of the {} classes occur; increase the number of rows.")
        settings_restored = Msg(SETTINGS_RESTORED)

    want_main_area = False
    resizing_enabled = False

    set_index = Setting(1)
    n_rows = Setting(2000)
    #: Rotation in degrees per set name; a set not listed uses its paper's angle.
    angles = Setting({})
    #: an angle of ``angles`` is an integer number of degrees (the spin box's)
    setting_elements = {"angles": 0}
    noise_percent = Setting(0)
    seed = Setting(0)
    auto_apply = Setting(True)

    def __init__(self):
        super().__init__()
        # a workflow saved by another version
        restored = restore_mistyped_settings(self)
        self.angles = dict(self.angles)
        if not 0 <= self.set_index < len(DATA_SETS):
            self.set_index = 0
        self.angle = self._angle_of_set()

        box = gui.vBox(self.controlArea, "Data set")
        gui.comboBox(
            box, self, "set_index", items=[s.name for s in DATA_SETS],
            callback=self._set_changed)

        box = gui.vBox(self.controlArea, "Parameters")
        gui.spin(
            box, self, "n_rows", 10, 1_000_000, step=100, label="Number of rows: ",
            alignment=Qt.AlignRight, controlWidth=90, callback=self.commit.deferred)
        gui.spin(
            box, self, "angle", -180, 180, step=5, label="Rotation angle (°): ",
            alignment=Qt.AlignRight, controlWidth=90, callback=self._angle_changed,
            tooltip="Rotation of the set about the origin, anticlockwise; only the "
                    "rotated sets have one.")
        gui.spin(
            box, self, "noise_percent", 0, 100, label="Label noise (%): ",
            alignment=Qt.AlignRight, controlWidth=90, callback=self.commit.deferred,
            tooltip="Share of the rows whose class is changed to another, random class.")
        gui.spin(
            box, self, "seed", 0, 2 ** 31 - 1, label="Random seed: ",
            alignment=Qt.AlignRight, controlWidth=90, callback=self.commit.deferred)

        gui.auto_send(self.buttonsArea, self, "auto_apply")
        clamp_settings_to_controls(self)
        self._update_angle_control()
        show_restored_settings(self.Warning.settings_restored, restored)
        self.commit.now()

    @property
    def data_set(self):
        return DATA_SETS[self.set_index]

    def _angle_of_set(self):
        data_set = self.data_set
        if data_set.angle is None:
            return 0
        return min(max(self.angles.get(data_set.name, data_set.angle), -180), 180)

    def _update_angle_control(self):
        self.controls.angle.setEnabled(self.data_set.angle is not None)

    def _set_changed(self):
        self.angle = self._angle_of_set()
        self._update_angle_control()
        self.commit.deferred()

    def _angle_changed(self):
        if self.data_set.angle is not None:
            self.angles[self.data_set.name] = self.angle
        self.commit.deferred()

    @gui.deferred
    def commit(self):
        self.Error.clear()
        self.Warning.missing_classes.clear()
        try:
            table = make_table(self.data_set, self.n_rows, self.angle,
                               self.noise_percent, self.seed)
        except Exception as ex:  # pylint: disable=broad-except
            self.Error.generation_failed(str(ex) or type(ex).__name__)
            table = None
        if table is not None:
            n_present = len(np.unique(table.Y))
            n_values = len(table.domain.class_var.values)
            if n_present < n_values:
                self.Warning.missing_classes(n_present, n_values)
        self.Outputs.data.send(table)

    def send_report(self):
        data_set = self.data_set
        self.report_items("Settings", [
            ("Data set", data_set.name),
            ("Rows", str(self.n_rows)),
            ("Rotation", f"{self.angle}°" if data_set.angle is not None else "none"),
            ("Label noise", f"{self.noise_percent} %"),
            ("Random seed", str(self.seed)),
        ])


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWObliqueData).run()
