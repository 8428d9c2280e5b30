"""numba's cache and the package's modules (:func:`~orangecontrib.oblique.core.kernels.
register_compiled_modules`): a cached function compiled with a kernel of another module is
compiled again when that module changes, as after a ``git pull`` in an editable install."""
import os
import subprocess
import sys
import textwrap

import pytest

from orangecontrib.oblique.core import kernels

pytestmark = pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")

CALLEE = """
from numba import njit

@njit(cache=True)
def kernel():
    return {value}
"""
CALLER = """
from numba import njit
from callee import kernel

@njit(cache=True)
def caller():
    return kernel()
"""


def run_caller(folder, register):
    """The cached ``caller()`` in a new process (numba's cache beside the modules), the
    two modules registered first if ``register``; its result and numba's cache log."""
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(folder)!r})
        from orangecontrib.oblique.core.kernels import register_compiled_modules
        if {register}:
            assert register_compiled_modules({str(folder)!r}, ("callee.py", "caller.py"))
        from caller import caller
        print(caller())
        """)
    environment = {key: value for key, value in os.environ.items()
                   if key != "NUMBA_CACHE_DIR"}
    environment["NUMBA_DEBUG_CACHE"] = "1"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=environment, timeout=300, check=True)
    return int(result.stdout.split()[-1]), result.stdout


@pytest.mark.parametrize("register", [False, True])
def test_a_changed_kernel_reaches_its_cached_callers(tmp_path, register):
    """Unregistered, numba runs the old kernel inside the cached caller (the hazard);
    registered, the new one."""
    (tmp_path / "callee.py").write_text(CALLEE.format(value=1))
    (tmp_path / "caller.py").write_text(CALLER)
    assert run_caller(tmp_path, register)[0] == 1
    value, log = run_caller(tmp_path, register)
    assert value == 1 and "caller.caller" in log and "data loaded" in log  # from the cache
    # another size, so that Python's own bytecode cache sees the change at once
    (tmp_path / "callee.py").write_text(CALLEE.format(value=22))
    assert run_caller(tmp_path, register)[0] == (22 if register else 1)


def test_the_package_registers_its_compiled_modules():
    folder = os.path.dirname(os.path.abspath(kernels.__file__))
    for name in kernels.COMPILED_MODULES:
        with open(os.path.join(folder, name)) as module:
            assert "cache=True" in module.read(), name
    assert folder in kernels._REGISTERED
    from numba.core import caching
    from orangecontrib.oblique.core import oc1
    # the package's functions use the package's locator, its stamp with the digest
    locator = oc1.sequential_local_search._cache._impl.locator
    assert hasattr(type(locator), "oblique_modules")
    assert locator.get_source_stamp()[1] == kernels.modules_digest(folder)
    # numba's own locators still serve every other file, after the package's
    classes = list(caching.CacheImpl._locator_classes)
    numbas = [cls for cls in classes if not hasattr(cls, "oblique_modules")]
    assert caching.InTreeCacheLocator in numbas and caching.UserWideCacheLocator in numbas
    assert kernels.register_compiled_modules(folder)     # once only
    assert classes == caching.CacheImpl._locator_classes


def test_a_missing_module_leaves_numba_as_it_is(tmp_path):
    assert not kernels.register_compiled_modules(str(tmp_path), ("missing.py",))
