"""Benchmark: parameter change → repainted heatmap, at three sizes; peak memory.

Prints median and p95 latency (ms) from the Document edit to the end of the first paint of
the heatmap's view after the new result was drawn into it (a new base every edit, so every
edit really recomputes).  The app's settings apply (OpenMP threads sleep while they wait,
``ui.application.quiet_openmp``); the paint is the one Qt does by itself, not a forced repaint() —
a forced one would paint before the scene has processed its changes.  Targets (issue 2):
50×128 < 30 ms, 4,096×1,024 < 100 ms, 100,000×1,024 < 300 ms; peak RSS < 1.5 GB.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.bench.bench_heatmap
"""

from __future__ import annotations

import os
import resource
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZES = [(50, 128), (4096, 1024), (100_000, 1024)]
REPEATS = 25


def main() -> None:
    from ui.application import create_application, quiet_openmp

    quiet_openmp()  # before torch is imported, as ui.app.main does
    from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer

    app = create_application()
    from ui.main_window import MainWindow

    window = MainWindow(load_backend="now", settings=None, restore_layout=False)
    window.resize(1600, 1000)
    window.show()
    window.wait_until_idle(app.processEvents)
    heat = window.docks["heatmapDock"]
    done = {"t": None, "shown": False}
    original = heat.show_result
    # Wait in a real event loop, as the app does: a busy processEvents() loop would hold the GIL
    # and starve the compute thread, measuring the benchmark instead of the app.
    loop = QEventLoop()

    def finished() -> None:
        done["t"] = time.perf_counter()
        loop.quit()

    def timed_show(result):
        original(result)
        done["shown"] = True

    class PaintWatcher(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and done["shown"]:
                done["shown"] = False
                QTimer.singleShot(0, finished)  # runs once this paint event has been handled
            return False

    watcher = PaintWatcher()
    heat.graphics.viewport().installEventFilter(watcher)
    heat.show_result = timed_show
    model = window.document_model
    print(f"{'size':>16} {'median ms':>10} {'p95 ms':>8} {'drawn rows':>10}")
    edits = 0
    for n, d in SIZES:
        model.try_set_params("sinusoidal", n_positions=n, d_model=d)
        window.wait_until_idle(app.processEvents)
        times = []
        for _ in range(REPEATS):
            done["t"], done["shown"] = None, False
            start = time.perf_counter()
            edits += 1  # a new base every time, so every edit really changes the table
            model.try_set_params("sinusoidal", base=10000.0 + edits)
            if done["t"] is None:
                loop.exec()
            times.append((done["t"] - start) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        print(f"{n:>8,}×{d:<7,} {statistics.median(times):>10.1f} {p95:>8.1f} {heat.image.image.shape[0]:>10}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS after the largest size: {peak_mb:.0f} MB")
    window.close()


if __name__ == "__main__":
    main()
