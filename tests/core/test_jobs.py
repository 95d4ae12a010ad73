"""peapp.jobs: the one executor — latest wins per channel, cancel mid-job, partial results, the
synchronous path equal to the asynchronous one, exceptions delivered.  No sleeps: jobs block on
events the test sets, and the test waits on handles."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import pytest

from peapp.jobs import HOOKS, Cancelled, Executor, Partial, Progress, Request, run_job

WAIT = 30  # seconds: only ever reached when something is broken


def _gated(gate: threading.Event, entered: threading.Event, log: list, name: str):
    entered.set()
    try:
        for i in range(1000):
            yield i / 1000
            if i == 1:
                assert gate.wait(WAIT)
        log.append(f"{name} finished")
        return name
    finally:
        log.append(f"{name} closed")


def test_a_newer_job_on_a_channel_stops_the_running_one_and_replaces_the_pending_one():
    executor = Executor("serial")
    gate, entered, log = threading.Event(), threading.Event(), []
    first = executor.submit(_gated(gate, entered, log, "first"), "view")
    assert entered.wait(WAIT)
    blocker = threading.Event()
    other = executor.submit(_gated(blocker, threading.Event(), log, "other"), "elsewhere")  # queued behind
    second = executor.submit(_gated(threading.Event(), threading.Event(), log, "second"), "view")
    third = executor.submit((x for x in [0.5]), "view")  # replaces `second` while it waits
    assert second.wait(WAIT) and second.state == "cancelled"
    gate.set()
    blocker.set()
    assert first.wait(WAIT) and first.state == "cancelled"  # stopped at its next yield, closed
    with pytest.raises(Cancelled):
        first.result()
    assert "first closed" in log and "first finished" not in log
    assert other.result(WAIT) == "other"
    assert third.result(WAIT) is None and third.state == "done"
    assert not executor.is_current("view", first.generation) and executor.is_current("view", third.generation)
    assert executor.shutdown()


def test_cancel_stops_a_job_mid_way_through_its_hooks():
    """A request whose compute() reports through progress(): the adapter's hook raises Cancelled."""
    reached = threading.Event()
    release = threading.Event()
    steps_done = []

    @dataclass(frozen=True)
    class Long(Request):
        def compute(self, progress):
            for i in range(100):
                progress(i / 100)
                steps_done.append(i)
                if i == 3:
                    reached.set()
                    assert release.wait(WAIT)
            return "all"

    executor = Executor("serial")
    handle = executor.submit(Long(), "long")
    assert reached.wait(WAIT)
    assert executor.cancel("long") == ["long"]
    release.set()
    assert handle.wait(WAIT) and handle.state == "cancelled"
    assert steps_done == [0, 1, 2, 3]  # the next progress point stopped it
    assert executor.cancel("long") == []  # nothing left to stop
    executor.shutdown()


def test_partials_and_progress_arrive_in_order_and_a_cancelled_job_sends_no_more():
    def job():
        hooks = yield HOOKS
        yield Progress(0.25)
        yield Partial("a")
        hooks.partial("b")  # from code that cannot yield
        hooks.progress(0.75)
        yield 1.0
        return "done"

    events: list = []
    handle = Executor("serial").submit(job(), "p", on_progress=lambda f: events.append(f),
                                       on_partial=lambda v: events.append(v))
    assert handle.result(WAIT) == "done"
    assert events == [0.25, "a", "b", 0.75, 1.0]

    gate = threading.Event()
    executor = Executor("serial")
    seen: list = []

    def stopped():
        yield Partial(1)
        assert gate.wait(WAIT)
        yield Partial(2)
        return "never"

    handle = executor.submit(stopped(), "q", on_partial=seen.append)
    while not seen:
        handle.wait(0.01)
    handle.cancel()
    gate.set()
    assert handle.wait(WAIT) and handle.state == "cancelled" and seen == [1]


@dataclass(frozen=True)
class _Table(Request):
    n: int

    def compute(self, progress):
        out = np.empty((self.n, 4))
        for i in range(self.n):
            progress(i / self.n)
            out[i] = np.sin(np.arange(4) * (i + 1) / 7)
        return out


def test_the_synchronous_path_gives_what_the_thread_gives():
    executor = Executor("serial")
    asynchronous = executor.submit(_Table(64), "t").result(WAIT)
    synchronous = executor.run(_Table(64))
    assert np.array_equal(asynchronous, synchronous)
    assert np.array_equal(_Table(64).run(), synchronous)  # a request's run(): the executor's path too
    fractions: list[float] = []
    run_job(_Table(8), on_progress=fractions.append)
    assert fractions == [i / 8 for i in range(8)]


def test_exceptions_are_delivered_and_the_thread_keeps_serving():
    class Boom(Exception):
        pass

    def broken():
        yield 0.1
        raise Boom("bad input")

    executor = Executor("serial")
    done: list = []
    handle = executor.submit(broken(), "b", on_done=done.append)
    assert isinstance(handle.exception(), Boom)
    with pytest.raises(Boom):
        handle.result()
    assert done == [handle] and handle.state == "failed"
    with pytest.raises(Boom):
        executor.run(broken())  # the synchronous path raises it where it is waited on
    with pytest.raises(TypeError):
        executor.run(x for x in ["not an event"])
    assert executor.submit(_Table(3), "after").result(WAIT).shape == (3, 4)  # the thread survived
    executor.shutdown()


def test_background_work_waits_for_foreground_work():
    executor = Executor("serial")
    gate, entered, order = threading.Event(), threading.Event(), []
    executor.submit(_gated(gate, entered, [], "busy"), "busy")
    assert entered.wait(WAIT)

    def note(name):
        order.append(name)
        return name
        yield  # a generator

    hidden = executor.submit(note("hidden"), "hidden", background=True)
    shown = executor.submit(note("shown"), "shown")
    gate.set()
    hidden.result(WAIT), shown.result(WAIT)
    assert order == ["shown", "hidden"]


def test_per_job_threads_leave_a_blocked_job_blocking_nothing_else():
    executor = Executor("per_job", name="peapp-read")
    never = threading.Event()

    def blocked():
        yield 0.0
        never.wait(WAIT)
        return "late"

    stuck = executor.submit(blocked(), "read:a")
    assert executor.submit((x for x in []), "read:b").result(WAIT) is None  # ran beside it
    executor.cancel("read:a")
    assert stuck.cancelled  # its result, when it comes, is not the latest any more
    never.set()
    stuck.wait(WAIT)


def test_ctrl_c_in_a_job_run_here_stops_it_and_reaches_the_caller(capsys):
    """The CLI runs its jobs here (peapp.commands.run_with_progress): Ctrl-C lands in the job,
    which tidies up (its finally, e.g. the lab stopping its worker processes) and re-raises."""
    from peapp.commands import run_with_progress

    tidied: list[str] = []

    def job():
        try:
            for i in range(10):
                yield i / 10
                if i == 3:
                    raise KeyboardInterrupt
        finally:
            tidied.append("stopped")
        return "never"

    with pytest.raises(KeyboardInterrupt):
        run_with_progress(job(), "test", every=0.0)
    assert tidied == ["stopped"]
    said = capsys.readouterr().err.splitlines()
    assert said[:4] == ["peapp test: 0 % done", "peapp test: 10 % done", "peapp test: 20 % done",
                        "peapp test: 30 % done"]
