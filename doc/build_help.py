"""Build the widgets' help: the documentation as HTML inside the package.

Run from anywhere, with Sphinx and MyST installed (``pip install -e '.[test]'``)::

    .venv/bin/python doc/build_help.py

It builds ``doc/`` with Sphinx (``-W``: a warning fails the build) and replaces
``orangecontrib/oblique/help/html`` with the result.  That folder is committed and
installed with the package (package data in ``setup.py``), so F1 in Orange Canvas opens
these pages after any install, editable or not, with no build step and no Sphinx:
``WIDGET_HELP_PATH`` in ``orangecontrib/oblique/widgets/__init__.py`` points there.
``tests/test_docs.py`` fails when the committed pages are out of date with ``doc/``; then
run this script and commit the changes.
"""
import os
import shutil
import subprocess
import sys
import tempfile

DOC = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOC)
#: The built help inside the package.
HELP_HTML = os.path.join(ROOT, "orangecontrib", "oblique", "help", "html")
#: Files of a Sphinx build that the help does not need: the build's own bookkeeping and
#: the inventory for other projects' cross-references.
NOT_HELP = (".buildinfo", ".doctrees", "objects.inv")
BUILD_TIMEOUT = 300  # seconds; a build takes well under 30 on a quiet machine


def build(html_dir, doctree_dir):
    """Run ``sphinx-build -W --keep-going -b html doc html_dir``; the finished process."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONWARNINGS="ignore")
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
         "-d", doctree_dir, DOC, html_dir],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT,
        check=False)


def help_files(html_dir):
    """Paths (relative, with ``/``) of the files of a build that belong to the help."""
    files = []
    for folder, dirs, names in os.walk(html_dir):
        dirs[:] = sorted(d for d in dirs if d not in NOT_HELP)
        for name in sorted(names):
            if name not in NOT_HELP:
                path = os.path.relpath(os.path.join(folder, name), html_dir)
                files.append(path.replace(os.sep, "/"))
    return files


def main():
    with tempfile.TemporaryDirectory() as tmp:
        html = os.path.join(tmp, "html")
        process = build(html, os.path.join(tmp, "doctrees"))
        output = process.stdout + process.stderr
        if process.returncode != 0 or "WARNING" in output or "ERROR" in output:
            sys.stderr.write(output)
            sys.exit("The documentation did not build cleanly; the help is unchanged.")
        if os.path.isdir(HELP_HTML):
            shutil.rmtree(HELP_HTML)
        for path in help_files(html):
            target = os.path.join(HELP_HTML, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(html, path), target)
    print(f"Help written to {os.path.relpath(HELP_HTML, ROOT)} "
          f"({len(help_files(HELP_HTML))} files).")


if __name__ == "__main__":
    main()
