"""One way to run work: jobs, requests and the executor that runs them (Qt-free).

**A job is a generator.**  It yields progress (a float in 0..1, or :class:`Progress`) and
partial results (:class:`Partial`) and *returns* its result; the executor advances it, and a job
that is no longer wanted is closed at its next yield (``GeneratorExit`` there, so ``finally``
blocks run).  This is superqt's ``GeneratorWorker`` protocol without Qt.

Code that cannot yield — a torch forward hook, the attention thread pool, a numpy chunk loop
three calls deep — asks for :class:`Hooks` instead: ``hooks = yield HOOKS``.  The executor sends
them in; ``hooks.progress(f)`` reports and raises :class:`Cancelled` once the job is not wanted,
``hooks.partial(value)`` hands a partial result over, ``hooks.cancelled()`` polls.  They report
through the same handle as a yield does, so there is one protocol with one escape hatch.

**A request** is an immutable description of one view's computation: a frozen dataclass with a
``channel`` (a neutral name of the view it feeds, never a widget's name) and ``steps()``, its
job.  Most requests only implement ``compute(progress)``; the default ``steps()`` adapts it.
Requests know nothing of threads or widgets, so the CLI runs them directly (``request.run()``).

**The executor** (:class:`Executor`) runs jobs: on one thread of its own in submission order,
foreground before background (``serial``); on a thread per job (``per_job``: reads that may
block must block nothing else); or, for :meth:`Executor.run`, on the calling thread — the same
code path, waited on.  Latest wins per channel: a new submission supersedes the pending one and
makes a running one stale, which stops at its next yield or hook.  The generation counter lives
here and nowhere else (napari's slicer and ndv's controller keep one per layer/view for the same
reason).  Submitting returns a :class:`Handle`: cancel, result or exception, done callbacks;
progress and partials go to the callbacks given to ``submit``, on the thread that runs the job
(``ui.worker`` delivers them on the GUI thread).
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generator, Literal

ProgressFn = Callable[[float], None]
#: a job: yields progress (float or Progress), Partial or HOOKS; returns the result
Job = Generator[Any, Any, Any]


class Cancelled(Exception):
    """A job stopped because it is no longer wanted (cancelled, superseded, or the executor shut down)."""


@dataclass(frozen=True)
class Progress:
    fraction: float


@dataclass(frozen=True)
class Partial:
    """A partial result: a finished variant of a probe, a finished run of a training grid."""
    value: Any


class _HooksWanted:
    def __repr__(self) -> str:
        return "HOOKS"


#: yielded by a job that reports from code that cannot yield; the executor sends :class:`Hooks` back
HOOKS = _HooksWanted()


class Hooks:
    """How a job reports from code that cannot yield (see the module docstring)."""

    def __init__(self, handle: "Handle"):
        self._handle = handle

    def progress(self, fraction: float) -> None:
        """Report ``fraction`` done; raises :class:`Cancelled` when the job is not wanted any more."""
        if self._handle.cancelled:
            raise Cancelled
        self._handle._report_progress(float(fraction))

    def partial(self, value: Any) -> None:
        self._handle._report_partial(value)

    def cancelled(self) -> bool:
        return self._handle.cancelled


@dataclass(frozen=True)
class Request:
    """Base of all requests.  Subclasses are frozen dataclasses that implement ``compute``
    (or ``steps``, a generator, when they yield partial results)."""

    channel: ClassVar[str] = "default"
    # False: computed only in the process that asks, never sent to another
    # (peapp.request_process): a model run, long and cancellable, whose result holds tensors
    travels: ClassVar[bool] = True

    def compute(self, progress: ProgressFn) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def steps(self) -> Job:
        """The request as a job.  Adapter for ``compute(progress)``: its progress is reported from
        inside the pure functions (chunk loops, forward hooks, thread pools), which cannot yield."""
        hooks = yield HOOKS
        return self.compute(hooks.progress)

    def run(self, progress: ProgressFn | None = None) -> Any:
        """Compute here and now (the CLI, tests): the executor's path, on this thread.
        ``progress`` may raise :class:`Cancelled` to stop the job."""
        return run_job(self.steps(), on_progress=progress)


def frozen_params(values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable, ordered form of a parameter dict for use inside frozen requests."""
    return tuple(sorted(values.items()))


# ---- handles ---------------------------------------------------------------------------------------
State = Literal["pending", "running", "done", "failed", "cancelled"]
DoneFn = Callable[["Handle"], None]


class Handle:
    """One submitted job: its channel and generation, cancel, result, done callbacks."""

    def __init__(self, executor: "Executor", job: Job, channel: str, generation: int, background: bool,
                 on_progress: ProgressFn | None, on_partial: Callable[[Any], None] | None):
        self.executor, self.job, self.channel, self.generation = executor, job, channel, generation
        self.background = background
        self.tracked = True  # False: run outside latest-wins (Executor.run without a channel)
        self._on_progress, self._on_partial = on_progress, on_partial
        self.state: State = "pending"
        self._cancel = False
        self._value: Any = None
        self._exception: BaseException | None = None
        self._finished = threading.Event()
        self._done_callbacks: list[DoneFn] = []
        self._lock = threading.Lock()

    # what the job's side sees
    @property
    def cancelled(self) -> bool:
        """Cancel was asked, or a newer job on the channel superseded this one."""
        return self._cancel or (self.tracked and not self.executor.is_current(self.channel, self.generation))

    def cancel(self) -> None:
        self._cancel = True

    def _report_progress(self, fraction: float) -> None:
        if self._on_progress is not None:
            self._on_progress(fraction)  # may raise Cancelled (a caller's own stop, e.g. Ctrl-C in the CLI)

    def _report_partial(self, value: Any) -> None:
        if self._on_partial is not None and not self.cancelled:
            self._on_partial(value)

    # what the caller's side sees
    def done(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    def result(self, timeout: float | None = None) -> Any:
        """The job's result; raises its exception (:class:`Cancelled` if it was stopped)."""
        if not self._finished.wait(timeout):
            raise TimeoutError(f"job on {self.channel!r} still running")
        if self._exception is not None:
            raise self._exception
        if self.state == "cancelled":
            raise Cancelled
        return self._value

    def exception(self) -> BaseException | None:
        self._finished.wait()
        return self._exception

    def add_done_callback(self, fn: DoneFn) -> None:
        """``fn(handle)`` once the job ends (at once if it has), on the thread that ended it."""
        with self._lock:
            if not self._finished.is_set():
                self._done_callbacks.append(fn)
                return
        fn(self)

    def _finish(self, state: State, value: Any = None, exception: BaseException | None = None) -> None:
        with self._lock:
            self.state, self._value, self._exception = state, value, exception
            self._finished.set()
            callbacks, self._done_callbacks = self._done_callbacks, []
        self.job = None  # type: ignore[assignment]  # the generator's frames (tensors) go now
        for fn in callbacks:
            fn(self)


_here = threading.local()


def current() -> Handle | None:
    """The handle of the job this thread is running (for a progress callback that needs its generation)."""
    return getattr(_here, "handle", None)


def _drive(handle: Handle) -> None:
    """Advance the job to its end on this thread: the one place a job runs, whatever the backend."""
    job, hooks, reply = handle.job, Hooks(handle), None
    handle.state = "running"
    outer, _here.handle = current(), handle
    try:
        while True:
            if handle.cancelled:
                job.close()  # GeneratorExit at the job's yield: its finally blocks run
                raise Cancelled
            event = job.send(reply)
            reply = None
            if event is HOOKS:
                reply = hooks
            elif isinstance(event, Partial):
                handle._report_partial(event.value)
            elif isinstance(event, Progress):
                handle._report_progress(event.fraction)
            elif isinstance(event, (int, float)):
                handle._report_progress(float(event))
            else:
                raise TypeError(f"a job yields progress, Partial or HOOKS, not {type(event).__name__}")
    except StopIteration as stop:
        handle._finish("done", stop.value)
    except Cancelled:
        handle._finish("cancelled")
    except BaseException as exc:  # delivered to whoever waits (Ctrl-C too: result() re-raises it there)
        handle._finish("failed", exception=exc)
    finally:
        _here.handle = outer
        job.close()


# ---- the executor ----------------------------------------------------------------------------------
Backend = Literal["serial", "per_job"]
#: how a Request becomes a job (peapp.request_process computes some in a second process)
RequestRunner = Callable[[Request], Job]


class Executor:
    """Runs jobs with latest-wins per channel; see the module docstring."""

    def __init__(self, backend: Backend = "serial", name: str = "peapp-compute",
                 on_busy: Callable[[bool], None] | None = None):
        self.backend, self.name = backend, name
        #: how a Request is turned into a job: its own steps(), or a second process (peapp render)
        self.request_runner: RequestRunner | None = None
        self._on_busy = on_busy
        self._lock = threading.Condition()
        self._counter = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._pending: dict[str, Handle] = {}  # serial: waiting, oldest first
        self._running: dict[int, Handle] = {}  # by generation
        self._thread: threading.Thread | None = None
        self._stopping = False

    # ---- submitting ----------------------------------------------------------------------------
    def job_of(self, work: Job | Request) -> Job:
        if isinstance(work, Request):
            return self.request_runner(work) if self.request_runner is not None else work.steps()
        return work

    def _new_handle(self, work: Job | Request, channel: str | None, background: bool,
                    on_progress: ProgressFn | None, on_partial: Callable[[Any], None] | None,
                    supersede: bool = True) -> Handle:
        if channel is None:
            channel = work.channel if isinstance(work, Request) else "default"
        generation = next(self._counter)
        handle = Handle(self, self.job_of(work), channel, generation, background, on_progress, on_partial)
        if not supersede:
            handle.tracked = False
            return handle
        with self._lock:
            superseded = self._pending.pop(channel, None)
            self._latest[channel] = generation
        if superseded is not None:
            superseded._finish("cancelled")
        return handle

    def submit(self, work: Job | Request, channel: str | None = None, *, background: bool = False,
               on_progress: ProgressFn | None = None, on_partial: Callable[[Any], None] | None = None,
               on_done: DoneFn | None = None) -> Handle:
        """Queue ``work`` on ``channel`` (a Request's own channel by default), superseding what is
        pending or running there.  ``background`` work runs after all waiting foreground work."""
        handle = self._new_handle(work, channel, background, on_progress, on_partial)
        if on_done is not None:
            handle.add_done_callback(on_done)
        if self._stopping:
            handle._finish("cancelled")
            return handle
        if self.backend == "per_job":
            with self._lock:
                self._running[handle.generation] = handle
            threading.Thread(target=self._run_one, args=(handle,), daemon=True,
                             name=f"{self.name}-{handle.channel}").start()
            return handle
        with self._lock:
            self._pending[handle.channel] = handle
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, daemon=True, name=self.name)
                self._thread.start()
            self._lock.notify()
        return handle

    def run(self, work: Job | Request, channel: str | None = None, *, on_progress: ProgressFn | None = None,
            on_partial: Callable[[Any], None] | None = None) -> Any:
        """Run ``work`` on this thread and return its result (raise its exception): the same path
        as :meth:`submit`, waited on.  With a channel it supersedes the work queued there; without
        one it supersedes nothing (and nothing supersedes it)."""
        handle = self._new_handle(work, channel, False, on_progress, on_partial, supersede=channel is not None)
        _drive(handle)
        return handle.result()

    # ---- asking and stopping -------------------------------------------------------------------
    def is_current(self, channel: str, generation: int) -> bool:
        with self._lock:
            latest = self._latest.get(channel)
        return latest is None or latest == generation

    def cancel(self, channel: str | None = None) -> list[str]:
        """Stop the work on ``channel`` (every channel if None): pending work is dropped, running
        work stops at its next yield.  Returns the channels that had work to stop."""
        with self._lock:
            channels = list(self._latest) if channel is None else [channel]
            busy = {h.channel for h in self._running.values()}
            stopped = [ch for ch in channels if ch in self._pending or ch in busy]
            dropped = [self._pending.pop(ch) for ch in channels if ch in self._pending]
            for ch in channels:
                self._latest[ch] = next(self._counter)
        for handle in dropped:
            handle._finish("cancelled")
        return stopped

    def running_channel(self) -> str | None:
        with self._lock:
            return next((h.channel for h in self._running.values()), None)

    def is_busy(self) -> bool:
        with self._lock:
            return bool(self._running) or bool(self._pending)

    def thread_alive(self) -> bool:
        """Serial: whether its thread runs (it starts with the first job). Per job: whether any does."""
        with self._lock:
            if self.backend == "per_job":
                return bool(self._running)
            return self._thread is not None and self._thread.is_alive()

    def shutdown(self, timeout: float = 2.0) -> bool:
        """Cancel everything and stop; False if a running job did not reach a yield in time (its
        daemon thread is left: the process does not wait for it)."""
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
            thread = self._thread
        self.cancel()
        if self.backend == "per_job":
            return True  # a read blocked in the kernel cannot be interrupted; nothing waits for it
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    # ---- the threads ---------------------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            with self._lock:
                while not self._pending and not self._stopping:
                    self._lock.wait()
                if self._stopping:
                    return
                # the oldest foreground job, else the oldest background one
                channel = next((ch for ch, h in self._pending.items() if not h.background), None) or \
                    next(iter(self._pending))
                handle = self._pending.pop(channel)
                self._running[handle.generation] = handle
            self._run_one(handle)

    def _run_one(self, handle: Handle) -> None:
        if self._on_busy is not None:
            self._on_busy(True)
        try:
            _drive(handle)
        finally:
            with self._lock:
                self._running.pop(handle.generation, None)
            if self._on_busy is not None:
                self._on_busy(False)


def run_job(job: Job | Request, on_progress: ProgressFn | None = None,
            on_partial: Callable[[Any], None] | None = None) -> Any:
    """Run a job to its end on this thread (the CLI, tests, a request's ``run``)."""
    return Executor(name="peapp-inline").run(job, on_progress=on_progress, on_partial=on_partial)


__all__ = ["Cancelled", "Executor", "current", "HOOKS", "Handle", "Hooks", "Job", "Partial", "Progress", "ProgressFn",
           "Request", "frozen_params", "run_job"]
