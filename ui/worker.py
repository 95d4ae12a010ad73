"""The Qt side of the core's executor (``peapp.jobs.Executor``): it only delivers on the GUI thread.

Each view submits requests on its own *channel*; the executor keeps latest-wins per channel
and the generation counter, runs the jobs on its one thread (foreground before background: the
requests of panels nobody can see wait until no visible panel does, and while a slider is dragged
they are replaced, not computed) and stops a superseded job at its next progress point.  This
class turns the executor's callbacks into Qt signals received on the GUI thread, where a result,
failure or partial result of a job that is no longer the channel's latest is dropped — once, here,
so docks need not compare generations to avoid drawing an old picture over a newer one.  Nothing
here touches a widget.

Why not superqt's ``thread_worker``: it starts a QRunnable per call on the global pool, so
several torch jobs would run at once and finish out of order; the design wants one thread,
latest-wins per view, and cancellation of superseded work (napari's slicer, ndv's generations).
"""

from __future__ import annotations

import sys
import time
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal, Slot

from peapp.errors import PeappError
from peapp.libraries import missing_library
from peapp.i18n import translate
from peapp import jobs
from peapp.jobs import Executor, Handle, Request


PROGRESS_DELAY_S = 0.2  # a job reports progress once it has run this long
PROGRESS_INTERVAL_S = 0.05  # then at most this often
SHUTDOWN_WAIT_S = 2.0  # how long closing the window waits for a running job to reach a progress point

# Executors whose job never returned when the window closed (a read that blocks, a job with no
# progress points).  Their threads are daemon threads, so the process does not wait for them; the
# app still ends with os._exit (see ui.app.main) rather than tear torch down under a running job.
_abandoned: list[Executor] = []


def abandoned_threads() -> bool:
    """True if a compute thread was still running a job when its window closed."""
    return any(e.thread_alive() and e.is_busy() for e in _abandoned)


def _generation() -> int:
    handle = jobs.current()  # the job whose callback this is, on the executor's thread
    return handle.generation if handle is not None else 0


def describe_failure(exc: BaseException) -> str:
    """One line for the user about a job that raised ``exc`` (a bug is also printed, for a report)."""
    if isinstance(exc, PeappError):
        return str(exc)
    if isinstance(exc, MemoryError):
        return translate("Worker", "out of memory: choose a smaller size")
    missing = missing_library(exc)  # a trimmed install: which library, and how to get it
    if missing is not None:
        return str(missing)
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    return translate("Worker", "internal error ({problem}); the previous view is kept").format(
        problem=f"{type(exc).__name__}: {exc}")


class ComputeWorker(QObject):
    resultReady = Signal(str, int, object)  # channel, generation, result
    failed = Signal(str, int, str)  # channel, generation, message for the user
    progressed = Signal(str, int, float)  # channel, generation, fraction done
    partialReady = Signal(str, int, object)  # channel, generation, a partial result (Partial's value)
    busyChanged = Signal(bool)
    cancelled = Signal(str)  # channel whose queued or running work cancel() stopped
    _finished = Signal(object)  # a Handle, from the executor's thread to the GUI thread
    _partial = Signal(str, int, object)
    _progress = Signal(str, int, float)

    def __init__(self, parent: QObject | None = None, name: str = "peapp-compute"):
        super().__init__(parent)
        self.executor = Executor("serial", name=name, on_busy=self._emit_busy)
        self._finished.connect(self._deliver)  # queued: emitted on the executor's thread
        self._partial.connect(self._deliver_partial)
        self._progress.connect(self._deliver_progress)
        self._closed = False
        # A window dropped without close() (a script, a test) must not leave the thread running.
        executor = self.executor
        self.destroyed.connect(lambda *_: executor.shutdown(0))

    # ---- GUI thread API ------------------------------------------------------------------
    @property
    def run_request(self) -> Callable[[Request], Any] | None:
        """How a request becomes a job: its own ``steps()`` (None) or a second process's
        (``peapp render``: peapp.request_process.RequestProcess.steps)."""
        return self.executor.request_runner

    @run_request.setter
    def run_request(self, runner) -> None:
        self.executor.request_runner = runner

    def submit(self, channel: str, request: Request, background: bool = False) -> int:
        """Queue ``request`` for ``channel``, replacing any pending one; returns its generation.
        ``background`` requests run after every foreground one that is waiting."""
        started = [0.0, 0.0]  # when it first reported, when it last did

        def progress(fraction: float) -> None:
            now = time.monotonic()
            started[0] = started[0] or now
            # Only jobs that take a while report progress (no bar flashing up for a 2 ms job and
            # re-laying out the status bar on every edit), then at most 20 times a second.
            if now - started[0] >= PROGRESS_DELAY_S and now - started[1] >= PROGRESS_INTERVAL_S:
                started[1] = now
                self._emit(self._progress, channel, _generation(), float(fraction))

        handle = self.executor.submit(
            request, channel, background=background, on_progress=progress,
            on_partial=lambda value: self._emit(self._partial, channel, _generation(), value),
            on_done=lambda h: self._emit(self._finished, h))
        return handle.generation

    def run_now(self, request: Request) -> Any:
        """Compute ``request`` on this (the GUI) thread and return its result: the executor's own
        path waited on (``peapp render``, File > Export, tests)."""
        return self.executor.run(request)

    def cancel(self, channel: str | None = None) -> None:
        """Drop pending work and stop running work on ``channel`` (all channels if None).
        ``cancelled`` is then emitted for each channel that had work queued or running (its
        panel keeps the previous picture, which no longer matches the settings)."""
        for ch in self.executor.cancel(channel):
            self._emit(self.cancelled, ch)

    def is_current(self, channel: str, generation: int) -> bool:
        return self.executor.is_current(channel, generation)

    def running_channel(self) -> str | None:
        """The channel whose request is computing now (None when idle)."""
        return self.executor.running_channel()

    def thread_running(self) -> bool:
        """Whether the compute thread is still alive (False after a clean shutdown)."""
        return not self._closed or self.executor.thread_alive()

    def is_busy(self) -> bool:
        return self.executor.is_busy()

    def shutdown(self, timeout_s: float | None = None) -> bool:
        """Cancel everything and stop the thread (called when the window closes).

        Returns False if a job did not stop in time: its daemon thread is abandoned, and the app
        exits without waiting for it."""
        if self._closed:
            return True
        self._closed = True
        timeout_s = SHUTDOWN_WAIT_S if timeout_s is None else timeout_s
        running = self.executor.running_channel()
        if self.executor.shutdown(timeout_s):
            return True
        print(f"peapp: a computation on {running or 'the compute thread'} did not stop within "
              f"{timeout_s:g} s; it is abandoned.", file=sys.stderr)
        _abandoned.append(self.executor)
        return False

    def _emit(self, signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the receiver side is gone (window deleted): nobody is listening
            pass

    def _emit_busy(self, busy: bool) -> None:
        self._emit(self.busyChanged, busy)

    # ---- back on the GUI thread ------------------------------------------------------------------
    @Slot(object)
    def _deliver(self, handle: Handle) -> None:
        if self._closed or handle.state == "cancelled" or not self.is_current(handle.channel, handle.generation):
            return  # superseded or cancelled: a newer picture is coming, or the previous one stays
        if handle.state == "done":
            self.resultReady.emit(handle.channel, handle.generation, handle.result())
        elif handle.state == "failed":
            exc = handle.exception()
            assert exc is not None
            self.failed.emit(handle.channel, handle.generation, describe_failure(exc))

    @Slot(str, int, float)
    def _deliver_progress(self, channel: str, generation: int, fraction: float) -> None:
        # a cancelled job's last report, arriving after Esc, must not bring the status bar's Cancel back
        if not self._closed and self.is_current(channel, generation):
            self.progressed.emit(channel, generation, fraction)

    @Slot(str, int, object)
    def _deliver_partial(self, channel: str, generation: int, value: Any) -> None:
        if not self._closed and self.is_current(channel, generation):
            self.partialReady.emit(channel, generation, value)
