"""The package is ready to publish and forces no Qt binding on its users: the licence is in
the repository and in what setup.py builds, the index's description shows no broken images
or links, no requirement names a Qt binding, and the README's commands and CI install the
binding they test (PyQt6, and PyQt5 on the oldest stack)."""
import ast
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QT_BINDING = re.compile(r"^(pyqt|pyside|qt[56]?$|qtpy$)", re.IGNORECASE)


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as file:
        return file.read()


def setup_arguments():
    """The literal keyword arguments of the ``setup(...)`` call in setup.py."""
    tree = ast.parse(read("setup.py"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "setup"]
    assert len(calls) == 1, "setup.py has one setup() call"
    arguments = {}
    for keyword in calls[0].keywords:
        try:
            arguments[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:  # not a literal (e.g. the long description read from a file)
            pass
    return arguments


def requirement_name(requirement):
    return re.match(r"[A-Za-z0-9._-]+", requirement).group()


def readme_commands():
    """The bash blocks of README.md that create .venv: command 1 and command 2."""
    blocks = re.findall(r"```bash\n(.*?)```", read("README.md"), re.DOTALL)
    return [block for block in blocks if block.startswith("python3 -m venv .venv &&")]


class TestLicence(unittest.TestCase):
    def test_licence_is_the_gpl_3_and_in_what_setup_builds(self):
        licence = read("LICENSE")
        self.assertIn("GNU GENERAL PUBLIC LICENSE", licence)
        self.assertIn("Version 3, 29 June 2007", licence)
        arguments = setup_arguments()
        self.assertEqual(arguments["license"], "GPL-3.0-or-later")
        self.assertIn("LICENSE", arguments["license_files"])
        manifest = read("MANIFEST.in").split()
        self.assertIn("LICENSE", manifest)

    def test_build_system_is_declared(self):
        pyproject = read("pyproject.toml")
        self.assertIn("[build-system]", pyproject)
        self.assertIn('build-backend = "setuptools.build_meta"', pyproject)

    def test_changelog_starts_at_the_first_release(self):
        versions = re.findall(r"^## (\d+\.\d+\.\d+)", read("CHANGELOG.md"), re.MULTILINE)
        self.assertEqual(versions[-1], "0.1.0")
        self.assertEqual(versions[0], setup_arguments()["version"])


class TestPackageIndexDescription(unittest.TestCase):
    def test_description_is_in_the_sdist_and_has_no_relative_images_or_links(self):
        source = re.search(r'open\("([^"]+)", encoding="utf-8"\)', read("setup.py")).group(1)
        self.assertIn(source, read("MANIFEST.in").split(),
                      "the sdist must carry the file setup.py reads the description from")
        description = read(source)
        self.assertNotIn("![", description, "the package index shows no repository images")
        for target in re.findall(r"\]\(([^)]+)\)", description):
            self.assertRegex(target, r"^https://", "a relative link is broken on the index")


class TestNoQtBindingRequired(unittest.TestCase):
    def test_no_requirement_names_a_qt_binding(self):
        arguments = setup_arguments()
        requirements = list(arguments["install_requires"])
        for extra in arguments["extras_require"].values():
            requirements += extra
        self.assertIn("test", arguments["extras_require"])
        for requirement in requirements:
            self.assertIsNone(QT_BINDING.match(requirement_name(requirement)), requirement)

    def test_readme_commands_install_pyqt6(self):
        commands = readme_commands()
        self.assertEqual(len(commands), 2, "command 1 (Orange Canvas) and command 2 (tests)")
        canvas, tests = commands
        self.assertIn("-m Orange.canvas", canvas)
        self.assertIn("-m pytest tests", tests)
        for command in commands:
            self.assertIn(" PyQt6 PyQt6-WebEngine ", command)
            self.assertNotIn("PyQt5", command)


class TestContinuousIntegration(unittest.TestCase):
    def test_ci_tests_pyqt6_on_python_3_12_and_pyqt5_on_the_oldest_stack(self):
        ci = read(".ci", "run")
        self.assertIn("-m pyflakes orangecontrib", ci)
        self.assertIn("pyflakes", setup_arguments()["extras_require"]["test"])
        self.assertIn("PyQt6 PyQt6-WebEngine", ci)
        self.assertIn("QT_API=pyqt6", ci)
        self.assertIn("pyqt6_fast_tier 3.12", ci, "a stack on Python 3.12")
        self.assertIn("pip\" show -q PyQt5", ci, "the PyQt6 stacks check they have no PyQt5")
        oldest = [line for line in ci.splitlines() if "constraints/oldest.txt" in line
                  and "pip install" in line]
        self.assertEqual(len(oldest), 1)
        self.assertIn("PyQt5 PyQtWebEngine", oldest[0])
