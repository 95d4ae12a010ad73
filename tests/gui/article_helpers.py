"""Helpers for the article docks' GUI tests: one dock in a main window, driven through its controls."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow


def host(qtbot, app_context, dock_class):
    """Build the dock inside a QMainWindow (as the app does), show it, and wait for its first result."""
    window = QMainWindow()
    dock = dock_class(app_context, window)
    dock.host_window = window  # the window owns the dock: keep it alive as long as the test holds the dock
    window.addDockWidget(dock.default_area, dock)
    window.resize(1200, 800)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    dock.refresh()
    settle(qtbot, app_context)
    return dock


def settle(qtbot, app_context, timeout_ms: int = 20_000) -> None:
    """Wait for throttled edits to land and the worker and the file reader to deliver everything."""
    qtbot.wait(60)  # throttle interval of the controls
    # every compute thread: the shared one and those of docks with their own (Run, Probes, Claims)
    qtbot.waitUntil(lambda: not any(w.is_busy() for w in app_context.workers) and not app_context.reader.is_busy(),
                    timeout=timeout_ms)
    qtbot.wait(30)
