"""ui.worker delivers on the GUI thread only what is still the channel's latest (issue 30): a
progress report, partial result or result sent by a job just before Esc cancelled it never
reaches the window or the dock (a late progress report used to bring the status bar's Cancel
back after Esc).  No sleeps: the job and the test hand over with threading events."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from peapp.jobs import HOOKS, Partial, Request

WAIT = 30


@dataclass(frozen=True)
class _Reports(Request):
    sent: threading.Event = field(compare=False)
    release: threading.Event = field(compare=False)

    def steps(self):
        yield 0.5
        yield Partial("half")
        hooks = yield HOOKS
        hooks.progress(0.6)
        self.sent.set()  # everything above is queued for the GUI thread now
        assert self.release.wait(WAIT)
        return "done"


def test_what_a_cancelled_job_sent_before_the_cancel_is_not_delivered(qtbot, app_context, monkeypatch):
    import ui.worker

    monkeypatch.setattr(ui.worker, "PROGRESS_DELAY_S", 0.0)  # every report is sent at once
    monkeypatch.setattr(ui.worker, "PROGRESS_INTERVAL_S", 0.0)
    worker = app_context.worker
    got: list = []
    worker.progressed.connect(lambda c, g, f: got.append(("progress", f)))
    worker.partialReady.connect(lambda c, g, v: got.append(("partial", v)))
    worker.resultReady.connect(lambda c, g, v: got.append(("result", v)))
    sent, release = threading.Event(), threading.Event()
    worker.submit("view", _Reports(sent, release))
    assert sent.wait(WAIT)  # (the GUI thread has not run its event loop: nothing delivered yet)
    worker.cancel("view")  # Esc
    release.set()

    # the same job again, not cancelled: all of it arrives, in order.  Queued deliveries arrive in
    # the order they were sent, so once this one's result is here the cancelled job's are too
    sent, release = threading.Event(), threading.Event()
    release.set()
    worker.submit("view", _Reports(sent, release))
    qtbot.waitUntil(lambda: ("result", "done") in got, timeout=WAIT * 1000)
    assert got == [("progress", 0.5), ("partial", "half"), ("progress", 0.6), ("result", "done")]
