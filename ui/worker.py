"""The one compute thread that owns all torch work.

Each view submits requests on its own *channel*; a new request supersedes a pending one on
the same channel (latest wins), and a running job whose generation is no longer the latest
stops at its next progress point.  Requests of panels nobody can see (behind a tab) are
*background* work: they run once no visible panel is waiting, so the panel being looked at is
never queued behind hidden ones, and while a slider is dragged the hidden panels' requests are
replaced, not computed.  Results come back as signals, delivered on the GUI thread
(the receivers are QObjects living there), tagged with (channel, generation) so views drop
stale ones.  Nothing here touches a widget.

Why not superqt's ``thread_worker``: it starts a QRunnable per call on the global pool, so
several torch jobs would run at once and finish out of order; the design wants one thread,
latest-wins per view, and cancellation of superseded work (napari's slicer, ndv's generations).
"""

from __future__ import annotations

import atexit
import itertools
import os
import sys
import threading
import time
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot

from peapp.errors import PeappError
from peapp.libraries import missing_library
from peapp.i18n import translate
from peapp.jobs import Cancelled, ProgressFn, Request


PROGRESS_DELAY_S = 0.2  # a job reports progress once it has run this long
SHUTDOWN_WAIT_MS = 2000  # how long closing the window waits for a running job to reach a progress point

# Compute threads still running a job that never returned when the window closed (a read that
# blocks, a job with no progress points).  They are kept referenced: destroying a running
# QThread aborts the process ("QThread: Destroyed while thread is still running").  The app
# then ends with os._exit (see ui.app.main), which does not wait for them.
_abandoned: list[QThread] = []


def abandoned_threads() -> bool:
    """True if a compute thread was still running when its window closed."""
    return any(t.isRunning() for t in _abandoned)


def _run_here(request: Request, progress: ProgressFn | None) -> Any:
    return request.run(progress)


class _Runner(QObject):
    """Lives on the compute thread; drains the pending requests one at a time."""

    def __init__(self, owner: "ComputeWorker"):
        super().__init__()
        self._owner = owner

    @Slot()
    def drain(self) -> None:
        while True:
            item = self._owner._take_next()
            if item is None:
                return
            channel, generation, request = item
            try:
                self._owner._run_one(channel, generation, request)
            except BaseException:
                traceback.print_exc(file=sys.stderr)


class ComputeWorker(QObject):
    resultReady = Signal(str, int, object)  # channel, generation, result
    failed = Signal(str, int, str)  # channel, generation, message for the user
    progressed = Signal(str, int, float)  # channel, generation, fraction done
    busyChanged = Signal(bool)
    cancelled = Signal(str)  # channel whose queued or running work cancel() stopped
    _wake = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        # How a request is run, here and for compute_now: in this process, or by
        # ``peapp render`` in a second one (peapp.request_process.RequestProcess.run)
        self.run_request: Callable[[Request, ProgressFn | None], Any] = _run_here
        self._lock = threading.Lock()
        self._pending: dict[str, tuple[int, Request, bool]] = {}  # channel → (generation, request, background)
        self._latest: dict[str, int] = {}
        self._counter = itertools.count(1)
        self._running: str | None = None
        self._thread = QThread()
        self._thread.setObjectName("peapp-compute")
        self._runner = _Runner(self)
        self._runner.moveToThread(self._thread)
        self._wake.connect(self._runner.drain)
        self._thread.start()
        # A window dropped without close() (a script, a test) must not leave the thread running.
        stop = self._stopper()
        self.destroyed.connect(stop)
        atexit.register(stop, at_exit=True)

    # ---- GUI thread API ------------------------------------------------------------------
    def submit(self, channel: str, request: Request, background: bool = False) -> int:
        """Queue ``request`` for ``channel``, replacing any pending one; returns its generation.
        ``background`` requests run after every foreground one that is waiting."""
        generation = next(self._counter)
        with self._lock:
            self._pending.pop(channel, None)
            self._pending[channel] = (generation, request, background)
            self._latest[channel] = generation
        self._wake.emit()
        return generation

    def cancel(self, channel: str | None = None) -> None:
        """Drop pending work and stop running work on ``channel`` (all channels if None).
        ``cancelled`` is then emitted for each channel that had work queued or running (its
        panel keeps the previous picture, which no longer matches the settings)."""
        with self._lock:
            channels = list(self._latest) if channel is None else [channel]
            stopped = [ch for ch in channels if ch in self._pending or ch == self._running]
            for ch in channels:
                self._pending.pop(ch, None)
                self._latest[ch] = next(self._counter)
        for ch in stopped:
            self._emit(self.cancelled, ch)

    def is_current(self, channel: str, generation: int) -> bool:
        with self._lock:
            return self._latest.get(channel) == generation

    def running_channel(self) -> str | None:
        """The channel whose request is computing now (None when idle)."""
        with self._lock:
            return self._running

    def thread_running(self) -> bool:
        """Whether the compute thread is still alive (False after a clean shutdown)."""
        return self._thread.isRunning()

    def is_busy(self) -> bool:
        with self._lock:
            return self._running is not None or bool(self._pending)

    def shutdown(self, timeout_ms: int = SHUTDOWN_WAIT_MS) -> bool:
        """Cancel everything and stop the thread (called when the window closes).

        Returns False if a job did not stop in time: the thread is then kept alive (never
        destroyed while running) and the app exits without waiting for it."""
        if not self._thread.isRunning():
            return True
        self.cancel()
        self._thread.quit()
        if self._thread.wait(timeout_ms):
            return True
        print(f"peapp: a computation on {self._running or 'the compute thread'} did not stop within "
              f"{timeout_ms / 1000:g} s; it is abandoned.", file=sys.stderr)
        self._thread.setParent(None)
        _abandoned.append(self._thread)
        return False

    def _stopper(self):
        """A callable that stops the thread without touching this (possibly deleted) QObject."""
        thread, lock, pending, latest, counter = self._thread, self._lock, self._pending, self._latest, self._counter

        def stop(*_, at_exit: bool = False):
            with lock:
                pending.clear()
                for ch in list(latest):
                    latest[ch] = next(counter)  # running jobs see they are stale and stop
            try:
                if thread.isRunning():
                    thread.quit()
                    if not thread.wait(SHUTDOWN_WAIT_MS) and thread not in _abandoned:
                        _abandoned.append(thread)  # never destroyed while running
            except RuntimeError:  # the QThread itself is already gone (interpreter exit)
                pass
            if at_exit and abandoned_threads():  # at interpreter exit a running QThread would abort the process
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(0)

        return stop

    def _emit(self, signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the receiver side is gone (window deleted): nobody is listening
            pass

    # ---- compute thread ------------------------------------------------------------------
    def _take_next(self) -> tuple[str, int, Request] | None:
        with self._lock:
            if not self._pending:
                self._running = None
                return None
            # the oldest foreground request, else the oldest background one
            channel = next((ch for ch, item in self._pending.items() if not item[2]), None) or \
                next(iter(self._pending))
            generation, request, _ = self._pending.pop(channel)
            self._running = channel
            return channel, generation, request

    def _run_one(self, channel: str, generation: int, request: Request) -> None:
        started = time.monotonic()
        last_emit = [0.0]

        def progress(fraction: float) -> None:
            if not self.is_current(channel, generation):
                raise Cancelled
            now = time.monotonic()
            # Only jobs that take a while report progress (no bar flashing up for a 2 ms job and
            # re-laying out the status bar on every edit), then at most 20 times a second.
            if now - started >= PROGRESS_DELAY_S and now - last_emit[0] > 0.05:
                last_emit[0] = now
                self._emit(self.progressed, channel, generation, float(fraction))

        self._emit(self.busyChanged, True)
        try:
            result: Any = self.run_request(request, progress)
            if self.is_current(channel, generation):
                self._emit(self.resultReady, channel, generation, result)
        except Cancelled:
            return
        except PeappError as exc:
            self._emit(self.failed, channel, generation, str(exc))
            return
        except MemoryError:
            self._emit(self.failed, channel, generation, translate("Worker", "out of memory: choose a smaller size"))
            return
        except BaseException as exc:  # a bug (a Rust panic passes `except Exception`): report it, app stays
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            missing = missing_library(exc)  # a trimmed install: which library, and how to get it
            if missing is not None:
                self._emit(self.failed, channel, generation, str(missing))
                return
            traceback.print_exc(file=sys.stderr)
            self._emit(self.failed, channel, generation,
                       translate("Worker", "internal error ({problem}); the previous view is kept")
                       .format(problem=f"{type(exc).__name__}: {exc}"))
            return
        finally:
            # Not running any more before busyChanged(False) is sent: its receiver asks is_busy()
            # at once, and a stale "running" would leave the progress bar up with nothing to do.
            with self._lock:
                self._running = None
            self._emit(self.busyChanged, False)
