"""Reading files other people made, off the GUI thread (issue 19).

Every file the GUI opens on the user's behalf — a session, a figure's embedded session, a
config.json, a CSV's header, an image, and every path named inside a session or figure — is read
by a Qt-free function (``peapp.safe_open`` underneath) run here on a short-lived daemon thread.
The result comes back to the GUI thread as a queued signal and is handed to a callback there;
the GUI thread itself never opens such a file, so a slow disk, a big file or a read that blocks
cannot freeze it.  (Checkpoints are read by the checkpoint panel's own request on the compute
worker; time-series rows by the time-series request: both off the GUI thread already.)

Why not the compute worker (``ui.worker``): it is one thread shared by every panel, so a read
stuck there queues every panel's computation behind it (issue 19 found exactly that with a FIFO
config.json), and closing the window would have to abandon a running QThread.  A plain daemon
thread per read costs nothing at the rate files are opened (a user action); a stuck one blocks
nothing else, and the process exits without waiting for it (it is not a QThread, so nothing
aborts at exit).  Latest wins per key: a newer read on the same key drops the older one's result.
"""

from __future__ import annotations

import itertools
import sys
import threading
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal, Slot

from peapp.errors import PeappError
from peapp.libraries import missing_library
from peapp.i18n import translate


def describe_failure(exc: BaseException) -> str:
    """One line for the user about a read that raised ``exc``."""
    if isinstance(exc, PeappError):
        return str(exc)
    if isinstance(exc, MemoryError):
        return translate("FileReader", "out of memory while reading the file: is it the right file?")
    if isinstance(exc, OSError):
        return translate("FileReader", "cannot read the file: {problem}.").format(problem=exc.strerror or exc)
    missing = missing_library(exc)  # a trimmed install: which library, and how to get it
    if missing is not None:
        return str(missing)
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)  # a bug: for a report
    return translate("FileReader", "internal error while reading ({problem})").format(
        problem=f"{type(exc).__name__}: {str(exc)[:200]}")


class FileReader(QObject):
    """Runs reads on daemon threads; delivers results to callbacks on the thread that owns it."""

    busyChanged = Signal(bool)
    _finished = Signal(str, int, object, object)  # key, generation, result, failure message (or None)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._callbacks: dict[int, tuple[Callable[[Any], None], Callable[[str], None]]] = {}
        self._what: dict[int, str] = {}
        self._closed = False
        self._finished.connect(self._deliver)  # queued: emitted on the reading thread

    def read(self, key: str, read: Callable[[], Any], done: Callable[[Any], None],
             failed: Callable[[str], None], what: str = "a file") -> int:
        """Run ``read()`` off this thread; then ``done(result)`` or ``failed(message)`` here.

        A later read with the same ``key`` supersedes this one (its callbacks are never called).
        Returns the read's generation."""
        generation = next(self._counter)
        with self._lock:
            was_busy = bool(self._callbacks)
            old = self._latest.get(key)
            if old is not None:
                self._callbacks.pop(old, None)
                self._what.pop(old, None)
            self._latest[key] = generation
            self._callbacks[generation] = (done, failed)
            self._what[generation] = what
        thread = threading.Thread(target=self._run, args=(key, generation, read), daemon=True,
                                  name=f"peapp-read-{key}")
        if not was_busy:
            self.busyChanged.emit(True)
        thread.start()
        return generation

    def is_busy(self) -> bool:
        """Whether a read's result is still to be delivered."""
        with self._lock:
            return bool(self._callbacks)

    def reading(self) -> str | None:
        """What the oldest read still under way reads ("session /path/x.json"), or None."""
        with self._lock:
            return next((self._what[g] for g in sorted(self._callbacks) if g in self._what), None)

    def cancel(self, key: str | None = None) -> None:
        """Forget pending reads (all if ``key`` is None): their results are dropped on arrival.
        (A thread blocked in a read cannot be interrupted; it ends when the read returns.)"""
        with self._lock:
            dropped = False
            for k in list(self._latest) if key is None else [key]:
                generation = self._latest.pop(k, None)
                if generation is not None:
                    dropped = self._callbacks.pop(generation, None) is not None or dropped
                    self._what.pop(generation, None)
            idle = not self._callbacks
        if dropped and idle:
            self.busyChanged.emit(False)

    def shutdown(self) -> None:
        """The window closes: no callback runs any more; threads still reading are left to end alone."""
        self._closed = True
        self.cancel()

    # ---- reading thread ----------------------------------------------------------------------
    def _run(self, key: str, generation: int, read: Callable[[], Any]) -> None:
        result, failure = None, None
        try:
            result = read()
        except BaseException as exc:  # everything (MemoryError, RecursionError, a bug) becomes one line
            failure = describe_failure(exc)
        if self._closed:
            return
        try:
            self._finished.emit(key, generation, result, failure)
        except RuntimeError:  # the reader (window) was deleted meanwhile: nobody is listening
            pass

    # ---- back on the owning thread ---------------------------------------------------------------
    @Slot(str, int, object, object)
    def _deliver(self, key: str, generation: int, result: Any, failure: str | None) -> None:
        with self._lock:
            callbacks = self._callbacks.pop(generation, None)
            self._what.pop(generation, None)
            if self._latest.get(key) == generation:
                del self._latest[key]
        try:
            if callbacks is not None and not self._closed:
                done, failed = callbacks
                if failure is None:
                    done(result)
                else:
                    failed(failure)
        finally:
            if callbacks is not None and not self.is_busy():  # (the callback may have started another read)
                self.busyChanged.emit(False)
