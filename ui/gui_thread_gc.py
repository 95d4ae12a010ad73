"""Python's cycle collector, run on the GUI thread only.

CPython collects reference cycles in whichever thread happens to allocate past its threshold:
here that is mostly a compute thread (torch, transformers and the statistics allocate far more
than the GUI does).  A cycle that holds a widget — a dock whose lambdas refer back to it, a
window dropped by a test — is then destroyed on that thread, and Qt objects may only be
destroyed on the thread that owns them; what follows is a rare crash, later, anywhere in the GUI
thread's event loop.

So automatic collection is switched off, and a timer on the GUI thread collects whenever the
counts pass the thresholds Python itself would have acted on.  (The workaround the PyQt mailing
list settled on in 2011; the ``qtpygc`` package wraps it, but brings QtPy and heapdict for what is
twenty lines here.)
"""

from __future__ import annotations

import gc
import time

import shiboken6
from PySide6.QtCore import QObject, QTimer

CHECK_INTERVAL_MS = 250  # garbage waits at most this long; a check that finds nothing costs ~1 µs
FULL_COLLECTION_EVERY_S = 10.0


class GuiThreadCollector(QObject):
    """Owns the cycle collector while it lives (on the GUI thread): install with :func:`install`."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self.collect_if_due)
        self._last_full = time.monotonic()
        self._held = False
        gc.disable()  # no collection in whatever thread allocates; this timer does it
        self._timer.start()
        self.destroyed.connect(_give_back)

    def collect_if_due(self) -> int:
        """Collect the oldest generation whose count passed its threshold; returns the generation
        collected, or -1.  A full collection (tens of ms once torch is in) at most every
        FULL_COLLECTION_EVERY_S: CPython also holds full ones back while the heap grows (its
        25 % rule), and torch's import would otherwise trigger one every few ticks."""
        if self._held:
            return -1
        counts, thresholds = gc.get_count(), gc.get_threshold()
        full_due = counts[2] > thresholds[2]
        if full_due and time.monotonic() - self._last_full >= FULL_COLLECTION_EVERY_S:
            self._last_full = time.monotonic()
            generation = 2
        elif full_due or counts[1] > thresholds[1]:
            generation = 1  # a full one held back: the younger generations still go
        elif counts[0] > thresholds[0]:
            generation = 0
        else:
            return -1
        gc.collect(generation)
        return generation


def _give_back(*_args) -> None:
    gc.enable()


_installed: GuiThreadCollector | None = None


def _live() -> GuiThreadCollector | None:
    return _installed if _installed is not None and shiboken6.isValid(_installed) else None


def collect_if_due() -> int:
    """What the timer does, for code that holds the GUI thread without running its event loop
    (the test suite between tests); -1 when no collector is installed or nothing was due."""
    collector = _live()
    return collector.collect_if_due() if collector is not None else -1


def hold() -> None:
    """No collections until :func:`release`: for the backend's import of torch, whose ~200,000
    objects all stay alive (collecting while it ran took 0.2 s of the GUI thread, measured, and
    freed nothing); the compute thread then freezes them (``peapp.backend.load``)."""
    collector = _live()
    if collector is not None:
        collector._held = True


def release() -> None:
    collector = _live()
    if collector is not None:
        collector._held = False


def install(app: QObject) -> GuiThreadCollector:
    """Collect cycles on ``app``'s (the GUI) thread from now on; once per process."""
    global _installed
    _installed = _live() or GuiThreadCollector(app)
    return _installed
