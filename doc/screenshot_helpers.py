"""What the screenshot scripts in ``doc/`` share: where the pictures go, letting Qt settle,
waiting for a widget's background fit, and saving a widget's picture."""
import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))
#: The folder of the screenshots the documentation shows.
OUT = os.path.join(HERE, "screenshots")


def settle(app, rounds=20):
    """Let Qt process pending events (layout, painting) a few times."""
    for _ in range(rounds):
        app.processEvents()


def wait_until_done(app, busy, timeout=120, what="the widget"):
    """Process events while ``busy()``, then settle; raise if still busy after ``timeout``
    seconds."""
    deadline = time.monotonic() + timeout
    while busy() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    if busy():
        raise RuntimeError(f"{what} did not finish in {timeout} s")
    settle(app)


def wait_for_fit(app, widget, timeout=120):
    """Let a learner widget's background fit finish."""
    wait_until_done(app, lambda: widget.task is not None, timeout,
                    f"{type(widget).__name__}'s fit")


def save(app, widget, name, size=None):
    """Show ``widget`` (at ``size`` if given) and write its picture to ``OUT/name``."""
    if size is not None:
        widget.resize(*size)
    widget.show()
    settle(app)
    path = os.path.join(OUT, name)
    if not widget.grab().save(path):
        raise RuntimeError(f"could not write {path}")
    print("wrote", path)
