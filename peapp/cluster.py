"""Work spread over a Ray cluster (``--ray local`` or ``--ray ADDRESS``): the training lab's grid
and the probes' sweeps, one Ray task per run or cell.

Ray is an optional extra (``pip install -e ".[cluster]"``), imported only here and only when a
grid or probe is asked to run on Ray; the bundle leaves it out.  ``local`` starts a Ray on this
machine; an address (``ray://host:10001`` or ``host:6379``) joins the user's cluster, and peapp's
own package travels to the workers with the job (Ray's ``py_modules``).  What each task gets is
its settings (a small dict) and, for probes, the checkpoint's path (which must exist on the
workers); what comes back is each run's result, written by this process into the results
folder as the local grid writes it.  No scheduler of ours: Ray places the tasks, and
``ray.cancel`` stops them.  The work is a job (:mod:`peapp.jobs`): results are awaited with
``ray.wait`` in a loop that yields progress, and closing the job cancels the tasks still out.
"""

from __future__ import annotations

import os
import queue as queue_module
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from peapp.errors import ParameterError
from peapp.jobs import Job
from peapp.libraries import error_for

_lock = threading.Lock()
_connected: str | None = None
POLL_SECONDS = 0.2


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise error_for("ray", "running on a Ray cluster needs the cluster extra: pip install -e \".[cluster]\"") \
            from exc
    return ray


def available() -> bool:
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def connect(address: str, cpus: int | None = None) -> Any:
    """The ``ray`` module, connected: ``"local"`` starts a local Ray (``cpus`` CPUs, default all),
    anything else joins the cluster at that address.  Once per process: a second call with
    another address is refused (Ray holds one connection per process)."""
    global _connected
    if not address:
        raise ParameterError("--ray needs 'local' or a cluster address such as ray://head:10001.")
    ray = _ray()
    with _lock:
        if ray.is_initialized():
            if _connected not in (None, address):
                raise ParameterError(f"this process is already connected to Ray at {_connected!r}; restart to "
                                     f"use {address!r}.")
            return ray
        if address == "local":
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:  # peapp's code travels with the job; the workers need torch (and transformers for probes)
            import peapp

            ray.init(address=address, log_to_driver=False, configure_logging=False,
                     runtime_env={"py_modules": [os.path.dirname(peapp.__file__)]})
        _connected = address
    return ray


def shutdown() -> None:
    global _connected
    if available():
        import ray

        with _lock:
            if ray.is_initialized():
                ray.shutdown()
            _connected = None


class Events:
    """A queue the tasks put progress events on (a Ray actor); read here with :meth:`drain`."""

    def __init__(self, ray) -> None:
        from ray.util.queue import Queue

        self.queue = Queue(actor_options={"num_cpus": 0})

    def drain(self, emit: Callable[[dict], None]) -> None:
        from ray.util.queue import Empty

        while True:
            try:
                emit(self.queue.get_nowait())
            except (Empty, queue_module.Empty):
                return

    def close(self) -> None:
        try:
            self.queue.shutdown()
        except Exception:  # the actor is already gone with the cluster
            pass


def task_steps(address: str, function: Callable[..., Any], arguments: Sequence[tuple], *,
               on_done: Callable[[int, Any], None], on_error: Callable[[int, BaseException], None],
               report: Callable[[], Iterator[Any]] | None = None, should_stop: Callable[[], bool] = lambda: False,
               gpus: float = 0.0, emit: Callable[[dict], None] | None = None, cpus: int | None = None) -> Job:
    """Run ``function(*arguments[i], events)`` as one Ray task each (1 CPU, ``gpus`` GPUs each), as
    a job (:mod:`peapp.jobs`): ``on_done(i, value)`` / ``on_error(i, exc)`` in the job's thread as
    each finishes (in the order they finish), and between waits ``yield from report()`` (the
    job's progress and cancel points).  ``events`` is a
    queue the task may ``put`` progress dicts on (passed to ``emit`` here), or None without
    ``emit``.  Closing the job (a cancel) or any exception cancels every unfinished task
    (``ray.cancel``: a running task gets KeyboardInterrupt); finished ones were already reported.
    Once ``should_stop()`` (e.g. the results folder cannot be written), the unfinished tasks are
    cancelled too and the job returns when they are gone."""
    if gpus < 0:
        raise ParameterError("--ray-gpus must be 0 or more.")
    ray = connect(address, cpus)
    if not arguments:
        return
    events = Events(ray) if emit is not None else None
    remote = ray.remote(num_cpus=1, num_gpus=gpus, max_retries=0)(function)
    pending = {remote.remote(*args, None if events is None else events.queue): i for i, args in enumerate(arguments)}
    stopped = False
    try:
        while pending:
            if events is not None and emit is not None:
                events.drain(emit)
            if report is not None:
                yield from report()  # where a cancel (GeneratorExit) or Ctrl-C (KeyboardInterrupt) lands
            if not stopped and should_stop():
                stopped = True
                for ref in pending:
                    ray.cancel(ref)
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=POLL_SECONDS)
            for ref in ready:
                index = pending.pop(ref)
                try:
                    value = ray.get(ref)
                except ray.exceptions.TaskCancelledError:
                    continue
                except ray.exceptions.RayTaskError as exc:
                    if stopped:
                        continue  # interrupted by our cancel
                    cause = exc.cause if isinstance(getattr(exc, "cause", None), BaseException) else exc
                    on_error(index, cause)
                    continue
                on_done(index, value)
        if events is not None and emit is not None:
            events.drain(emit)
    except BaseException:  # cancelled (GeneratorExit), Ctrl-C, a failure here: stop the tasks still out
        for ref in pending:
            ray.cancel(ref)
        raise
    finally:
        if events is not None:
            events.close()


__all__ = ["available", "connect", "shutdown", "task_steps"]
