"""Compiling the kernels before the first fit needs them, in a background process.

numba compiles the package's kernels (:mod:`.kernels` and the compiled functions of
``oc1.py``, ``odt_svm.py``, ``sporf.py`` and ``xmeans.py``) at their first call and caches
them on disk; a new process then loads them in well under a second.  The first compilation
takes about 70 s of one core, which, without this module, the analyst's first fit of each
learner waits for.  :func:`start_background_compile` starts ``python -m
orangecontrib.oblique.core.compilation`` in a detached process of low priority, which runs
small fits of every learner (:func:`compile_kernels`) so that numba compiles and caches
every kernel, then writes a stamp (:func:`stamp_path`) naming the code and versions it
compiled.  The Oblique Trees widgets call it when Orange Canvas loads them; with a current
stamp it starts nothing.

A fit that starts before the process is done compiles what it needs itself, as without
it; numba writes each cache file whole (a new file renamed into place), so the two
processes never see half a file.  The compiled kernels are the same either way, so
nothing but the wait changes.

Set the environment variable ``OBLIQUE_BACKGROUND_COMPILE=0`` to start nothing (the test
suite does, as it compiles in its own process).  This module imports neither numba nor
the kernels: the widgets can call it at start-up at no cost.
"""
import hashlib
import importlib.util
import os
import platform
import subprocess
import sys
import time

#: The package's modules with cached compiled functions: a cached function of one of them
#: holds the compiled code of the kernels it calls from the others.
COMPILED_MODULES = ("kernels.py", "gdt_kernels.py", "pass_kernels.py", "oc1.py", "odt_svm.py", "sporf.py", "xmeans.py")
#: The environment variable that turns the background compilation off ("0").
SWITCH = "OBLIQUE_BACKGROUND_COMPILE"
#: The name of the stamp a finished compilation writes.
STAMP_NAME = "oblique-kernels.stamp"
#: A compilation that started this many seconds ago and left its lock is taken as dead.
LOCK_SECONDS = 30 * 60

_FOLDER = os.path.dirname(os.path.abspath(__file__))
#: The process :func:`start_background_compile` started in this process, if any.
_started = None


def modules_digest(folder=_FOLDER, modules=COMPILED_MODULES):
    """The SHA-256 of the contents of ``modules`` (files in ``folder``), in order."""
    digest = hashlib.sha256()
    for name in modules:
        with open(os.path.join(folder, name), "rb") as source:
            digest.update(source.read())
    return digest.hexdigest()


def _version(package):
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(package)
    except PackageNotFoundError:
        return "none"


def stamp_key():
    """What the compiled kernels depend on: the compiled modules' digest, the versions of
    Python, numpy, numba and llvmlite, and the processor (numba compiles for the host)."""
    return "\n".join([modules_digest(), sys.version.split()[0], _version("numpy"),
                      _version("numba"), _version("llvmlite"), platform.machine(),
                      platform.processor(), sys.executable]) + "\n"


def _writable(folder):
    while not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return os.access(folder, os.W_OK)


def stamp_path():
    """Where the stamp is: in ``NUMBA_CACHE_DIR`` when it is set, else beside numba's cache
    of the package (its ``__pycache__`` folder) or, when that cannot be written, in the
    user's cache folder, as numba chooses for the kernels themselves."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.path.join(os.environ["NUMBA_CACHE_DIR"], STAMP_NAME)
    in_tree = os.path.join(_FOLDER, "__pycache__")
    if _writable(in_tree):
        return os.path.join(in_tree, STAMP_NAME)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "orange3-oblique", STAMP_NAME)


def is_compiled():
    """Whether a finished compilation's stamp names the present code and versions."""
    try:
        with open(stamp_path(), encoding="utf-8") as stamp:
            return stamp.read() == stamp_key()
    except OSError:
        return False


def needs_compile():
    """Whether a background compilation would do anything: numba is installed, the
    compiled code is not switched off (``OBLIQUE_NO_NUMBA``, :data:`SWITCH`) and no
    current stamp is found."""
    return (importlib.util.find_spec("numba") is not None
            and not os.environ.get("OBLIQUE_NO_NUMBA")
            and os.environ.get(SWITCH, "1") != "0"
            and not is_compiled())


def start_background_compile():
    """Start compiling the kernels in a detached process of low priority, unless it is not
    needed (:func:`needs_compile`) or this process started one already; returns the
    process (:class:`subprocess.Popen`) or None.  Never raises: at worst the first fit
    compiles what it needs, as it would without this."""
    global _started  # pylint: disable=global-statement
    if _started is not None:
        return None
    try:
        if not needs_compile():
            return None
        environment = dict(os.environ)
        for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            environment.setdefault(variable, "1")
        options = {}
        if os.name == "posix":
            options["start_new_session"] = True   # outlives the canvas if it closes first
        else:  # pragma: no cover - Windows
            options["creationflags"] = (subprocess.CREATE_NO_WINDOW
                                        | subprocess.BELOW_NORMAL_PRIORITY_CLASS)
        _started = subprocess.Popen(  # pylint: disable=consider-using-with
            [sys.executable, "-m", __name__], env=environment, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True, **options)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    return _started


def running():
    """Whether the process :func:`start_background_compile` started is still compiling."""
    return _started is not None and _started.poll() is None


def _data(n_rows=120, n_classes=3, seed=0):
    """Rows of 4 continuous attributes, one with 3 values (nominal-like) and a constant
    one, and labels of ``n_classes`` classes."""
    import numpy as np
    generator = np.random.RandomState(seed)
    X = generator.normal(size=(n_rows, 6))
    y = np.arange(n_rows) % n_classes
    X[:, :2] += y[:, None]
    X[:, 4] = generator.randint(3, size=n_rows)
    X[:, 5] = 1.0
    return X, y


def compile_kernels():
    """Fit every learner of the package on small data in the ways the widgets and
    scripts fit them (two and three classes, with and without instance weights, rows in C
    and Fortran order, sparse splits, nominal attributes) and predict, so that numba
    compiles (or loads) every kernel those calls use."""
    import numpy as np
    from . import (GeometricTreeClassifier, HedgeEnsembleClassifier, OC1Classifier,
                   ODTSVMClassifier, ObliqueForestClassifier)
    learners = [
        lambda: GeometricTreeClassifier(),
        lambda: GeometricTreeClassifier(max_terms=2),
        lambda: OC1Classifier(random_state=0, n_restarts=2),
        lambda: OC1Classifier(random_state=0, n_restarts=2, max_terms=2),
        lambda: ODTSVMClassifier(random_state=0),
        lambda: ODTSVMClassifier(random_state=0, max_terms=2),
        lambda: ODTSVMClassifier(random_state=0, categorical_features=[4]),
        lambda: HedgeEnsembleClassifier(n_estimators=2, random_state=0),
        lambda: ObliqueForestClassifier(n_estimators=3, random_state=0),
    ]
    for n_classes in (2, 3):
        X, y = _data(n_classes=n_classes)
        weights = np.linspace(0.5, 1.5, len(y))
        for data in (X, np.asfortranarray(X)):
            for sample_weight in (None, weights):
                for make in learners:
                    model = make().fit(data, y, sample_weight=sample_weight)
                    model.predict_proba(data)


def main():
    """Compile, then write the stamp; a lock beside the stamp keeps a second process
    (another canvas started meanwhile) from doing the same work at the same time."""
    if hasattr(os, "nice"):
        os.nice(10)
    path = stamp_path()
    lock = path + ".lock"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        if time.time() - os.path.getmtime(lock) > LOCK_SECONDS:
            os.remove(lock)
    except OSError:
        pass
    try:
        os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return 0
    try:
        compile_kernels()
        temporary = f"{path}.{os.getpid()}"
        with open(temporary, "w", encoding="utf-8") as stamp:
            stamp.write(stamp_key())
        os.replace(temporary, path)
    finally:
        os.remove(lock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
