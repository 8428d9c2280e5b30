"""The Oblique Data widget: the papers' synthetic sets as Orange tables."""
import numpy as np

from Orange.data import ContinuousVariable, DiscreteVariable
# the module, not its classes: pytest would collect an imported WidgetTest as a test case
from Orange.widgets.tests import base

from orangecontrib.oblique.core import datasets
from orangecontrib.oblique.widgets.owobliquedata import DATA_SETS, OWObliqueData, flip_labels

#: name → (number of features, class values, paper's angle in degrees or None)
EXPECTED = {
    "Rotated 2×2 checkerboard (GDT)": (2, ("-1", "+1"), 30),
    "Rotated 4×4 checkerboard (GDT)": (2, ("-1", "+1"), 30),
    "10-dimensional, three hyperplanes (GDT)": (10, ("-1", "+1"), None),
    "Linearly separable, LS10 (OC1)": (10, ("A", "B"), None),
    "Parallel oblique lines, POL (OC1)": (2, ("A", "B"), 45),
    "Rotated checkerboard, RCB (OC1)": (2, tuple("ABCDEFGH"), 30),
}


class TestOWObliqueData(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWObliqueData)

    def output(self):
        return self.get_output(self.widget.Outputs.data)

    def select(self, index):
        self.widget.controls.set_index.setCurrentIndex(index)
        self.widget.controls.set_index.activated.emit(index)

    def set_spin(self, name, value):
        spin = getattr(self.widget.controls, name)
        spin.setValue(value)
        spin.editingFinished.emit()

    def test_default_output(self):
        data = self.output()
        self.assertEqual(data.name, "Rotated 4×4 checkerboard (GDT)")
        self.assertEqual(data.X.shape, (2000, 2))
        self.assertEqual(self.widget.angle, 30)
        X, y = datasets.checkerboard_4x4(2000, angle=np.pi / 6, random_state=0)
        np.testing.assert_allclose(data.X, X)
        np.testing.assert_array_equal(np.where(data.Y == 1, 1, -1), y)

    def test_every_set(self):
        self.assertEqual([s.name for s in DATA_SETS], list(EXPECTED))
        self.widget.n_rows = 300
        for index, (name, (n_features, values, angle)) in enumerate(EXPECTED.items()):
            self.select(index)
            data = self.output()
            self.assertEqual(data.name, name)
            self.assertEqual(data.X.shape, (300, n_features))
            domain = data.domain
            self.assertEqual([a.name for a in domain.attributes],
                             [f"x{i}" for i in range(1, n_features + 1)])
            self.assertTrue(all(isinstance(a, ContinuousVariable)
                                for a in domain.attributes))
            self.assertIsInstance(domain.class_var, DiscreteVariable)
            self.assertEqual(domain.class_var.name, "class")
            self.assertEqual(domain.class_var.values, values)
            # every class occurs (and no other)
            self.assertEqual(set(np.unique(data.Y)), set(range(len(values))))
            self.assertFalse(np.isnan(data.X).any())
            self.assertEqual(self.widget.controls.angle.isEnabled(), angle is not None)
            if angle is not None:
                self.assertEqual(self.widget.angle, angle)

    def test_class_values_follow_generator(self):
        self.select(4)  # POL: band parity; class "A" is code 0
        data = self.output()
        _, y = datasets.parallel_oblique_lines(2000, angle=np.pi / 4, random_state=0)
        np.testing.assert_array_equal(data.Y, y)

    def test_seed_reproducibility(self):
        first = self.output()
        self.set_spin("n_rows", 2000)  # a commit with the same settings
        np.testing.assert_array_equal(self.output().X, first.X)
        self.set_spin("seed", 5)
        other = self.output()
        self.assertFalse(np.allclose(other.X, first.X))
        self.set_spin("seed", 0)
        np.testing.assert_array_equal(self.output().X, first.X)
        np.testing.assert_array_equal(self.output().Y, first.Y)

    def test_noise_flips_requested_share(self):
        for index in (1, 5):
            self.select(index)
            self.set_spin("noise_percent", 0)
            clean = self.output()
            self.set_spin("noise_percent", 20)
            noisy = self.output()
            np.testing.assert_array_equal(noisy.X, clean.X)  # the points stay
            share = np.mean(noisy.Y != clean.Y)
            self.assertAlmostEqual(share, 0.2, delta=0.01)

    def test_flip_labels_always_changes_class(self):
        rng = np.random.default_rng(0)
        y = rng.integers(0, 8, size=1000)
        flipped = flip_labels(y, 8, 0.3, rng)
        self.assertEqual(np.sum(flipped != y), 300)
        self.assertTrue(set(np.unique(flipped)) <= set(range(8)))
        np.testing.assert_array_equal(flip_labels(y, 8, 0.0, rng), y)
        self.assertEqual(np.sum(flip_labels(y % 2, 2, 1.0, rng) == y % 2), 0)

    def test_angle_changes_rotated_sets(self):
        for index, (_, _, angle) in enumerate(EXPECTED.values()):
            self.select(index)
            before = self.output()
            if angle is None:
                self.assertFalse(self.widget.controls.angle.isEnabled())
                continue
            self.assertTrue(self.widget.controls.angle.isEnabled())
            self.set_spin("angle", angle + 15)
            after = self.output()
            self.assertFalse(np.allclose(after.X, before.X) and
                             np.array_equal(after.Y, before.Y))

    def test_angle_is_kept_per_set(self):
        self.select(0)
        self.set_spin("angle", 10)
        self.select(4)
        self.assertEqual(self.widget.angle, 45)
        self.select(0)
        self.assertEqual(self.widget.angle, 10)

    def test_settings_restore(self):
        w = self.widget
        self.select(5)
        self.set_spin("n_rows", 500)
        self.set_spin("angle", 60)
        self.set_spin("noise_percent", 7)
        self.set_spin("seed", 42)
        expected = self.output()
        settings = self.widget.settingsHandler.pack_data(w)
        w2 = self.create_widget(OWObliqueData, stored_settings=settings)
        self.assertEqual(w2.set_index, 5)
        self.assertEqual(w2.angle, 60)
        self.assertTrue(w2.controls.angle.isEnabled())
        data = self.get_output(w2.Outputs.data, widget=w2)
        np.testing.assert_array_equal(data.X, expected.X)
        np.testing.assert_array_equal(data.Y, expected.Y)
        self.assertEqual(len(data), 500)

    def test_no_auto_apply(self):
        w = self.create_widget(OWObliqueData, stored_settings={"auto_apply": False})
        first = self.get_output(w.Outputs.data, widget=w)
        self.assertEqual(len(first), 2000)  # the initial set is sent anyway
        w.controls.n_rows.setValue(100)
        w.controls.n_rows.editingFinished.emit()
        self.assertEqual(len(self.get_output(w.Outputs.data, widget=w)), 2000)
        w.commit.now()
        self.assertEqual(len(self.get_output(w.Outputs.data, widget=w)), 100)

    def test_messages(self):
        self.set_spin("n_rows", 10)
        self.set_spin("seed", 1)
        self.select(5)  # 8 classes in 10 rows: with this seed, 3 occur
        self.assertTrue(self.widget.Warning.missing_classes.is_shown())
        self.assertIn("Only 3 of the 8 classes", str(self.widget.Warning.missing_classes))
        self.assertEqual(len(self.output()), 10)
        self.select(0)
        self.set_spin("n_rows", 1000)
        self.assertFalse(self.widget.Warning.missing_classes.is_shown())

    def test_report(self):
        self.select(2)
        self.widget.send_report()
        self.select(4)
        self.widget.send_report()
