"""Start-up timing probe: with ``PEAPP_STARTUP_PROBE=1`` the app prints wall-clock stamps and quits.

Lines on stdout: ``peapp-probe <event> <unix time>`` for ``main`` (entered ``ui.app.main``),
``window-visible`` (first paint of the main window), ``panels-present`` (the first paint after
the docks were built, stamped only when every dock exists, each saying the backend is loading), ``backend-ready`` (torch and the core loaded on the compute thread) and
``heatmap-drawn`` (the first paint of the heatmap's plot after its first picture arrived); then
``backend-seconds`` (how long the compute thread spent importing, a duration) and the window
closes.  tests/bench/bench_startup.py reads them and subtracts the moment it started the process.
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


def panels_present(window) -> bool:
    """Every dock exists, is placed in the window (not floating, not closed — the checkpoint
    strip, closed until something is opened, excepted) and says the backend is loading."""
    import ui.docks

    expected = {cls.object_name for cls in ui.docks.dock_classes()}
    if set(window.docks) != expected:
        return False
    return all(dock.is_loading() and not dock.isFloating() for dock in window.docks.values())


class _FirstPaint(QObject):
    def __init__(self, window, then):
        super().__init__(window)
        self._window = window
        self._then = then

    def eventFilter(self, obj, event) -> bool:  # Qt override
        if self._then is not None and event.type() == QEvent.Type.Paint:
            then, self._then = self._then, None
            then()
        return False


def install(window) -> None:
    """Stamp the first paint, the backend being ready and the heatmap drawn, then close the window."""

    done: dict[str, bool] = {}

    def panels_painted() -> None:
        if panels_present(window):
            stamp("panels-present")

    def docks_built() -> None:
        window.installEventFilter(_FirstPaint(window, panels_painted))  # the paint that shows them
        heatmap = window.docks["heatmapDock"]

        def result(channel: str, generation: int, value) -> None:
            if channel == heatmap.object_name and "armed" not in done:
                done["armed"] = True  # the next paint of the plot shows the first picture
                view = heatmap.graphics.viewport()
                view.installEventFilter(_FirstPaint(view, drawn))
                view.update()

        # connected after the dock's own slot (made at its construction): the image is set first
        window.worker.resultReady.connect(result)

    window.installEventFilter(_FirstPaint(window, lambda: stamp("window-visible")))
    if window.docks:
        docks_built()
    else:
        window.docksBuilt.connect(docks_built)

    def finish() -> None:
        if done.get("ready") and done.get("heatmap") and not done.get("closed"):
            done["closed"] = True
            # how long the compute thread spent importing torch and the core (a duration, not a time)
            print(f"peapp-probe backend-seconds {window.backend_seconds or 0.0:.6f}", flush=True)
            QTimer.singleShot(0, window.close)

    def ready() -> None:
        stamp("backend-ready")
        done["ready"] = True
        finish()

    def drawn() -> None:
        stamp("heatmap-drawn")
        done["heatmap"] = True
        finish()

    window.backendReady.connect(ready)
