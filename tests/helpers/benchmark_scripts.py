"""The scripts of ``benchmarks/`` as modules, for their tests: ``benchmarks/`` is no
package, and its scripts import ``common`` from their own folder."""
import contextlib
import importlib
import os
import sys

BENCHMARKS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "benchmarks")


@contextlib.contextmanager
def benchmark_script(name):
    """The script ``benchmarks/<name>.py`` as a module, with ``benchmarks/`` on the path
    while the context lasts."""
    sys.path.insert(0, BENCHMARKS)
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(BENCHMARKS)
