"""After Esc cancels a computation, a panel's previous picture no longer matches the settings:
it is dimmed and says "showing the previous result" until a new result arrives (issue 18).
The behaviour is the base dock's, so every panel that computes has it."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest
from PySide6.QtCore import Qt

from peapp.jobs import Request
from tests.conftest import wait_idle


@dataclass(frozen=True)
class _Slow(Request):
    """Runs until cancelled (its progress call raises Cancelled once it is superseded)."""

    seconds: float = 30.0

    def compute(self, progress):
        end = time.monotonic() + self.seconds
        while time.monotonic() < end:
            progress(0.5)
            time.sleep(0.01)
        return None


@pytest.mark.parametrize("name", ["heatmapDock", "timeSeriesDock", "spectrumDock", "extrapolationDock", "patchGridDock", "rotationDock"])
@pytest.mark.all_docks
def test_esc_marks_the_picture_stale_until_a_new_result(main_window, qtbot, name):
    dock = main_window.docks[name]
    if not dock.isVisible() or dock.visibleRegion().isEmpty():
        main_window.show_dock(name) if hasattr(main_window, "show_dock") else dock.raise_()
    assert not dock.is_stale
    dock.refresh(_Slow())
    qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=10_000)
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: dock.is_stale, timeout=5_000)
    assert dock.is_dimmed
    assert "Showing the previous result" in dock.stale_bar.findChild(type(dock.caption), "staleText").text()
    wait_idle(qtbot, main_window)
    dock.refresh()  # a new request (an edit, or the bar's Recompute) brings a matching picture
    wait_idle(qtbot, main_window)
    qtbot.waitUntil(lambda: not dock.is_stale, timeout=10_000)
    assert not dock.is_dimmed


def test_recompute_button_brings_the_current_picture(main_window, qtbot):
    dock = main_window.docks["heatmapDock"]
    dock.refresh(_Slow())
    qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=10_000)
    main_window.cancel_running()
    qtbot.waitUntil(lambda: dock.is_stale, timeout=5_000)
    dock.stale_bar.findChild(type(main_window.cancel_button), "staleRecompute").click()
    qtbot.waitUntil(lambda: not dock.is_stale, timeout=20_000)


def test_a_dock_that_cancels_to_submit_a_newer_request_is_not_stale(main_window, qtbot):
    dock = main_window.docks["heatmapDock"]
    dock.refresh(_Slow(seconds=2.0))
    main_window.worker.cancel(dock.object_name)
    dock.refresh()
    wait_idle(qtbot, main_window)
    qtbot.wait(50)
    assert not dock.is_stale


@pytest.mark.parametrize("languages", [("hi",), ("hi", "en")])
def test_esc_cancels_after_a_language_switch(main_window, qtbot, languages):
    """Setting Cancel's text again on a switch must not take Esc away (QAbstractButton.setText
    replaces a button's shortcut with the text's mnemonic: Esc stopped nothing in Hindi, nor
    after switching back)."""
    from ui import i18n

    dock = main_window.docks["heatmapDock"]
    try:
        for code in languages:
            i18n.set_language(code)
        dock.refresh(_Slow())
        qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=10_000)
        qtbot.keyClick(main_window, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: dock.is_stale, timeout=5_000)
        assert not main_window.cancel_button.isVisible()
    finally:
        i18n.set_language("en")
        wait_idle(qtbot, main_window)


def test_esc_stops_every_long_job_the_status_bar_showed(main_window, qtbot):
    """Two long jobs on two threads (the shared one and a dock's own): Esc stops both, not
    only the one that reported progress last."""
    from ui.worker import ComputeWorker

    own = ComputeWorker()
    main_window.ctx.add_worker(own)  # as the Run and Probes docks add theirs
    cancelled = []
    own.cancelled.connect(cancelled.append)
    main_window.worker.cancelled.connect(cancelled.append)
    try:
        main_window.worker.submit("first", _Slow())
        qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=10_000)
        own.submit("second", _Slow())
        qtbot.waitUntil(lambda: ("second" in {c for _, c in main_window._shown_jobs}), timeout=10_000)
        qtbot.keyClick(main_window, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: sorted(cancelled) == ["first", "second"], timeout=5_000)
        qtbot.waitUntil(lambda: not own.is_busy() and not main_window.worker.is_busy(), timeout=5_000)
    finally:
        own.shutdown()
