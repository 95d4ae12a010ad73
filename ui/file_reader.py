"""Reading files other people made, off the GUI thread (issue 19).

Every file the GUI opens on the user's behalf — a session, a figure's embedded session, a
config.json, a CSV's header, an image, and every path named inside a session or figure — is read
by a Qt-free function (``peapp.safe_open`` underneath) run as a job of the core's executor
(``peapp.jobs.Executor``) with a daemon thread per job.  The result comes back to the GUI thread
as a queued signal and is handed to a callback there;
the GUI thread itself never opens such a file, so a slow disk, a big file or a read that blocks
cannot freeze it.  (Checkpoints are read by the checkpoint panel's own request on the compute
worker; time-series rows by the time-series request: both off the GUI thread already.)

Why not the compute worker's serial thread (``ui.worker``): it is one thread shared by every panel, so a read
stuck there queues every panel's computation behind it (issue 19 found exactly that with a FIFO
config.json), and closing the window would have to abandon it mid-read.  A daemon
thread per read costs nothing at the rate files are opened (a user action); a stuck one blocks
nothing else, and the process exits without waiting for it (it is not a QThread, so nothing
aborts at exit).  Latest wins per key (the executor's channel): a newer read on the same key
drops the older one's result.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal, Slot

from peapp.errors import PeappError
from peapp.libraries import missing_library
from peapp.i18n import translate
from peapp.jobs import Executor, Handle


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
    """Runs reads as jobs of a thread-per-job executor; delivers results to callbacks on the
    thread that owns it (the GUI thread)."""

    busyChanged = Signal(bool)
    _finished = Signal(object)  # a peapp.jobs.Handle, from the reading thread

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._executor = Executor("per_job", name="peapp-read")
        # generation → (key, done, failed, what): the reads whose result is still to be delivered
        self._waiting: dict[int, tuple[str, Callable[[Any], None], Callable[[str], None], str]] = {}
        self._closed = False
        self._finished.connect(self._deliver)  # queued: emitted on the reading thread

    def read(self, key: str, read: Callable[[], Any], done: Callable[[Any], None],
             failed: Callable[[str], None], what: str = "a file") -> int:
        """Run ``read()`` off this thread; then ``done(result)`` or ``failed(message)`` here.

        A later read with the same ``key`` supersedes this one (its callbacks are never called).
        Returns the read's generation."""
        def job():  # one blocking call: there is no point to yield at before it returns
            return read()
            yield  # (a generator, the executor's job protocol)

        was_busy = bool(self._waiting)
        self._forget(key)
        handle = self._executor.submit(job(), key, on_done=self._emit_finished)
        self._waiting[handle.generation] = (key, done, failed, what)
        if not was_busy:
            self.busyChanged.emit(True)
        return handle.generation

    def is_busy(self) -> bool:
        """Whether a read's result is still to be delivered."""
        return bool(self._waiting)

    def reading(self) -> str | None:
        """What the oldest read still under way reads ("session /path/x.json"), or None."""
        return next((self._waiting[g][3] for g in sorted(self._waiting)), None)

    def cancel(self, key: str | None = None) -> None:
        """Forget pending reads (all if ``key`` is None): their results are dropped on arrival.
        (A thread blocked in a read cannot be interrupted; it ends when the read returns.)"""
        self._executor.cancel(key)
        dropped = self._forget(key)
        if dropped and not self._waiting:
            self.busyChanged.emit(False)

    def shutdown(self) -> None:
        """The window closes: no callback runs any more; threads still reading are left to end alone."""
        self._closed = True
        self.cancel()
        self._executor.shutdown()

    def _forget(self, key: str | None) -> bool:
        gone = [g for g, (k, *_) in self._waiting.items() if key is None or k == key]
        for g in gone:
            del self._waiting[g]
        return bool(gone)

    # ---- reading thread ----------------------------------------------------------------------
    def _emit_finished(self, handle: Handle) -> None:
        if self._closed:
            return
        try:
            self._finished.emit(handle)
        except RuntimeError:  # the reader (window) was deleted meanwhile: nobody is listening
            pass

    # ---- back on the owning thread ---------------------------------------------------------------
    @Slot(object)
    def _deliver(self, handle: Handle) -> None:
        waiting = self._waiting.pop(handle.generation, None)
        try:
            if waiting is not None and not self._closed and handle.state in ("done", "failed"):
                _, done, failed, _ = waiting
                if handle.state == "done":
                    done(handle.result())
                else:
                    exc = handle.exception()
                    assert exc is not None
                    failed(describe_failure(exc))
        finally:
            if waiting is not None and not self.is_busy():  # (the callback may have started another read)
                self.busyChanged.emit(False)
