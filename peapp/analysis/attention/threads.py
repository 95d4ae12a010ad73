"""Guarded thread use for the block computations: worker threads, and one-thread torch ops while they run.

The views parallelise over independent blocks on worker threads instead of inside each torch op.
On a shared 2-core machine, two-thread ops (OpenMP, a barrier per op) measured 3–10× slower
whenever another process held a core: thousands of small ops each waited for the descheduled
thread.  Independent blocks do not wait for each other.

``torch.set_num_threads`` is not a per-computation setting: it sets the calling thread's count and
the default every thread takes at its first torch op (a GUI thread starting then would keep one
thread for good).  So lowering it is done only inside :func:`torch_threads`, which

* counts nested and concurrent users (two views on two threads): each user's thread gets its own
  count back when it ends, and torch's default for new threads is put back by the last one —
  never restored under a computation still running, never left lowered after the last one ends;
* restores on every exit: normal return, an error in a worker, a :class:`peapp.jobs.Cancelled`
  raised by a progress callback.

:func:`run_tasks` enters it for CPU work (one worker too: the same one-thread ops, so the same
numbers whatever the worker count); work on another device changes nothing process-wide.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TypeVar

import torch

ProgressFn = Callable[[float], None]
Task = TypeVar("Task")

# Worker threads of a view; None: as many as torch's intra-op threads (the cores).
WORKERS: int | None = None

_threads_lock = threading.Lock()
_threads_users = 0
_threads_default: int | None = None  # the count before the first of the current users lowered it


@contextmanager
def torch_threads(count: int) -> Iterator[None]:
    """torch ops on ``count`` intra-op threads inside the block; the previous count afterwards.

    torch (OpenMP) keeps a count per thread and a default that new threads take at their first
    op; ``torch.set_num_threads`` sets both, from whichever thread calls it.  So every user
    restores its own thread's count on exit, and the last user of overlapping ones (nested, or on
    other threads) also puts the default back to what it was before the first lowered it —
    whatever raised (an error, :class:`peapp.jobs.Cancelled`)."""
    global _threads_users, _threads_default
    with _threads_lock:
        mine = torch.get_num_threads()
        if _threads_users == 0:
            _threads_default = mine
        _threads_users += 1
        if mine != count:
            torch.set_num_threads(count)
    try:
        yield
    finally:
        with _threads_lock:
            _threads_users -= 1
            if torch.get_num_threads() != mine:
                torch.set_num_threads(mine)
            if _threads_users == 0:
                default, _threads_default = _threads_default, None
                # this thread may have started while another user held the count lowered (its
                # own count then began lowered): the default is the count recorded first
                if default is not None and default != mine:
                    torch.set_num_threads(default)


def _lower_this_thread(count: int) -> None:
    """A worker thread's own count while its run holds :func:`torch_threads` (a worker that
    starts after an overlapping user restored the default would otherwise take the default)."""
    with _threads_lock:
        if _threads_users and torch.get_num_threads() != count:
            torch.set_num_threads(count)


def threads_changed() -> bool:
    """True while some computation holds torch's thread count lowered (for tests and diagnostics)."""
    with _threads_lock:
        return _threads_users > 0


class Workspace:
    """One worker's reusable buffers: a block's logits, weights, bias and position term are
    written into the same memory block after block (a fresh allocation per block costs page
    faults that measured as much as the matrix product itself)."""

    def __init__(self, slot: int, device: torch.device | str = "cpu", dtype: torch.dtype = torch.float32):
        self.slot = slot
        self.device = torch.device(device)
        self.dtype = dtype
        self._buffers: dict[str, torch.Tensor] = {}

    def take(self, name: str, rows: int, cols: int) -> torch.Tensor:
        need = rows * cols
        buffer = self._buffers.get(name)
        if buffer is None or buffer.numel() < need:
            buffer = self._buffers[name] = torch.empty(max(need, 1), dtype=self.dtype, device=self.device)
        return buffer[:need].view(rows, cols)


def worker_count(device: torch.device | str = "cpu") -> int:
    """Threads a computation runs on: one per core torch would use on the CPU; one elsewhere
    (a GPU parallelises each op itself)."""
    if torch.device(device).type != "cpu":
        return 1
    return max(1, WORKERS or torch.get_num_threads())


def run_tasks(tasks: Sequence[Task], work: Callable[[Task, Workspace], None], progress: ProgressFn,
              start: float, stop: float, *, device: torch.device | str = "cpu",
              dtype: torch.dtype = torch.float32) -> None:
    """Run ``work(task, workspace)`` for every task on up to :func:`worker_count` threads.

    Tasks must be independent (each writes its own slots, or its worker's accumulators, found by
    ``workspace.slot``).  The calling thread works too and reports progress from ``start`` to
    ``stop`` after each of its tasks and while it waits for the others' last ones; when progress
    raises (Cancelled), the other workers stop after their current task and the exception
    propagates.  An exception in a worker stops all and is raised here.  Every thread is joined
    before returning, and torch's thread count is what it was (see :func:`torch_threads`)."""
    workers = min(worker_count(device), len(tasks))
    on_cpu = torch.device(device).type == "cpu"
    guard: AbstractContextManager[None] = torch_threads(1) if on_cpu else nullcontext()
    if workers <= 1:
        with guard:
            ws = Workspace(0, device, dtype)
            for i, task in enumerate(tasks):
                work(task, ws)
                progress(start + (stop - start) * (i + 1) / len(tasks))
        return
    lock = threading.Lock()
    state = {"next": 0, "done": 0}
    stop_event = threading.Event()
    errors: list[BaseException] = []

    def take() -> int | None:
        with lock:
            if stop_event.is_set() or state["next"] >= len(tasks):
                return None
            state["next"] += 1
            return state["next"] - 1

    def finished() -> None:
        with lock:
            state["done"] += 1

    def helper(slot: int) -> None:
        ws = Workspace(slot, device, dtype)
        if on_cpu:
            _lower_this_thread(1)
        try:
            while (index := take()) is not None:
                work(tasks[index], ws)
                finished()
        except BaseException as exc:  # noqa: BLE001 — any error (or Cancelled) is re-raised by the calling thread
            errors.append(exc)
            stop_event.set()

    with guard:
        threads = [threading.Thread(target=helper, args=(slot,), name=f"attention-worker-{slot}")
                   for slot in range(1, workers)]
        for thread in threads:
            thread.start()
        try:
            ws = Workspace(0, device, dtype)
            while (index := take()) is not None:
                work(tasks[index], ws)
                finished()
                progress(start + (stop - start) * state["done"] / len(tasks))
            while any(thread.is_alive() for thread in threads):  # the others' last tasks: stay cancellable
                threads[-1].join(timeout=0.05)
                threads.sort(key=lambda thread: thread.is_alive())
                progress(start + (stop - start) * state["done"] / len(tasks))
        except BaseException:
            stop_event.set()
            raise
        finally:
            for thread in threads:
                thread.join()
    if errors:
        raise errors[0]


__all__ = ["WORKERS", "Workspace", "run_tasks", "threads_changed", "torch_threads", "worker_count"]
