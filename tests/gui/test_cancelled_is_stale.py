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
