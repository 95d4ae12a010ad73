"""Start-up timing probe: with ``PEAPP_STARTUP_PROBE=1`` the app prints wall-clock stamps and quits.

Lines on stdout: ``peapp-probe <event> <unix time>`` for ``main`` (entered ``ui.app.main``),
``window-visible`` (first paint of the main window) and ``backend-ready`` (torch loaded and the
docks built); then the window closes.  tests/bench/bench_startup.py reads them and subtracts
the moment it started the process.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QTimer

ENV = "PEAPP_STARTUP_PROBE"


def stamp(event: str) -> None:
    if event == "main":
        import faulthandler

        faulthandler.enable()  # a crash during start-up prints every thread's stack
    print(f"peapp-probe {event} {time.time():.6f}", flush=True)


class _FirstPaint(QObject):
    def __init__(self, window):
        super().__init__(window)
        self._seen = False

    def eventFilter(self, obj, event) -> bool:  # Qt override
        if not self._seen and event.type() == QEvent.Type.Paint:
            self._seen = True
            stamp("window-visible")
        return False


def install(window) -> None:
    """Stamp the first paint and the backend being ready, then close the window."""
    window.installEventFilter(_FirstPaint(window))

    def ready() -> None:
        stamp("backend-ready")
        # how long the compute thread spent importing torch and the panels (a duration, not a time)
        print(f"peapp-probe backend-seconds {window.backend_seconds or 0.0:.6f}", flush=True)
        # let the docks' first views arrive, so quitting does not cancel work mid-way
        QTimer.singleShot(0, window.close)

    window.backendReady.connect(ready)
