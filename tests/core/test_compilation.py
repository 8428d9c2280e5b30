"""Compiling the kernels ahead of the first fit, in a background process
(``orangecontrib.oblique.core.compilation``)."""
import importlib
import os
import subprocess
import sys

import pytest

from orangecontrib.oblique.core import compilation

FITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiled_fits.py")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty numba cache of its own, background compilation switched on."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(compilation.SWITCH, "1")
    monkeypatch.delenv("OBLIQUE_NO_NUMBA", raising=False)
    monkeypatch.setattr(compilation, "_started", None)
    return tmp_path


def fits_in_new_process(which):
    """Cache misses and hits of numba in a new process that fits as ``which`` says."""
    printed = subprocess.run([sys.executable, FITS, which], capture_output=True, text=True,
                             check=True, timeout=900).stdout.split()
    return int(printed[printed.index("misses") + 1]), int(printed[printed.index("hits") + 1])


def test_background_compile_leaves_nothing_for_the_first_fit_to_compile(cache):
    process = compilation.start_background_compile()
    assert process is not None
    assert process.wait(timeout=900) == 0
    assert compilation.is_compiled()
    assert not compilation.needs_compile()
    assert not os.path.exists(compilation.stamp_path() + ".lock")
    # Orange's learners on Orange's sets and the estimators on scikit-learn's, with and
    # without weights: every kernel they call is loaded from the cache, none compiled
    misses, hits = fits_in_new_process("all")
    assert (misses, hits > 0) == (0, True)


def test_the_check_sees_a_kernel_compiled_at_the_first_fit(cache):
    """The counterpart of the test above: without the background compilation, a first fit
    compiles (so that test's zero would show a missed kernel)."""
    misses, _ = fits_in_new_process("oc1")
    assert misses > 0


def test_the_stamp_names_the_code_and_versions(cache, monkeypatch):
    assert compilation.needs_compile()
    path = compilation.stamp_path()
    assert path == os.path.join(str(cache), compilation.STAMP_NAME)
    with open(path, "w", encoding="utf-8") as stamp:
        stamp.write(compilation.stamp_key())
    assert compilation.is_compiled() and not compilation.needs_compile()
    # a change of a compiled module (its digest) makes the stamp stale
    monkeypatch.setattr(compilation, "modules_digest", lambda *args: "0" * 64)
    assert not compilation.is_compiled() and compilation.needs_compile()


def test_switched_off_or_without_numba_nothing_starts(cache, monkeypatch):
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *args, **kwargs: started.append(args))
    monkeypatch.setenv(compilation.SWITCH, "0")
    assert not compilation.needs_compile()
    assert compilation.start_background_compile() is None
    monkeypatch.setenv(compilation.SWITCH, "1")
    monkeypatch.setenv("OBLIQUE_NO_NUMBA", "1")
    assert compilation.start_background_compile() is None
    assert started == []


def test_one_process_at_most_per_session(cache, monkeypatch):
    calls = []

    def popen(command, **options):
        calls.append((command, options))
        return "process"

    monkeypatch.setattr(subprocess, "Popen", popen)
    assert compilation.start_background_compile() == "process"
    assert compilation.start_background_compile() is None
    assert len(calls) == 1
    command, options = calls[0]
    assert command == [sys.executable, "-m", "orangecontrib.oblique.core.compilation"]
    assert options["stdout"] == options["stderr"] == subprocess.DEVNULL
    if os.name == "posix":
        assert options["start_new_session"]
    assert options["env"]["OPENBLAS_NUM_THREADS"] == os.environ.get("OPENBLAS_NUM_THREADS",
                                                                    "1")


def test_a_failure_to_start_is_no_error(cache, monkeypatch):
    def popen(*args, **kwargs):
        raise OSError("no such interpreter")

    monkeypatch.setattr(subprocess, "Popen", popen)
    assert compilation.start_background_compile() is None


def test_main_writes_the_stamp_and_removes_its_lock(cache, monkeypatch):
    compiled = []
    monkeypatch.setattr(compilation, "compile_kernels", lambda: compiled.append(True))
    monkeypatch.setattr(os, "nice", lambda increment: 0)
    assert compilation.main() == 0
    assert compiled == [True]
    assert compilation.is_compiled()
    assert sorted(os.listdir(cache)) == [compilation.STAMP_NAME]


def test_main_leaves_the_work_to_a_running_compilation(cache, monkeypatch):
    def compile_kernels():
        raise AssertionError("compiled while another process holds the lock")

    monkeypatch.setattr(compilation, "compile_kernels", compile_kernels)
    monkeypatch.setattr(os, "nice", lambda increment: 0)
    lock = compilation.stamp_path() + ".lock"
    open(lock, "w", encoding="utf-8").close()
    assert compilation.main() == 0
    assert os.path.exists(lock) and not compilation.is_compiled()
    # a lock left by a process that died long ago is taken over
    old = os.path.getmtime(lock) - compilation.LOCK_SECONDS - 1
    os.utime(lock, (old, old))
    monkeypatch.setattr(compilation, "compile_kernels", lambda: None)
    assert compilation.main() == 0
    assert compilation.is_compiled() and not os.path.exists(lock)


def test_a_failed_compilation_writes_no_stamp(cache, monkeypatch):
    def compile_kernels():
        raise RuntimeError("compilation failed")

    monkeypatch.setattr(compilation, "compile_kernels", compile_kernels)
    monkeypatch.setattr(os, "nice", lambda increment: 0)
    with pytest.raises(RuntimeError):
        compilation.main()
    assert os.listdir(cache) == []


def test_stamp_beside_the_package_or_in_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    folder = os.path.dirname(os.path.abspath(compilation.__file__))
    monkeypatch.setattr(compilation, "_writable", lambda path: True)
    assert compilation.stamp_path() == os.path.join(folder, "__pycache__",
                                                    compilation.STAMP_NAME)
    monkeypatch.setattr(compilation, "_writable", lambda path: False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compilation.stamp_path() == os.path.join(str(tmp_path), "orange3-oblique",
                                                    compilation.STAMP_NAME)


def test_the_widgets_start_it_when_the_canvas_loads_them(monkeypatch):
    import orangecontrib.oblique.widgets as widgets
    calls = []
    monkeypatch.setattr(compilation, "start_background_compile", lambda: calls.append(1))
    importlib.reload(widgets)
    assert calls == [1]


def test_loading_the_widgets_package_loads_neither_numba_nor_scikit_learn():
    code = ("import sys, orangecontrib.oblique.widgets; "
            "print(sorted(m for m in ('numba', 'sklearn', 'Orange') if m in sys.modules))")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=dict(os.environ, OBLIQUE_BACKGROUND_COMPILE="0"),
                             timeout=120).stdout
    assert printed.strip() == "[]"
