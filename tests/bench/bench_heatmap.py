"""Benchmark: parameter change → repainted heatmap, at three sizes; peak memory.

Prints median and p95 latency (ms) from the Document edit to the end of the first paint of
the heatmap's view after the new result was drawn into it (a new base every edit, so every
edit really recomputes).  The app's settings apply (OpenMP threads sleep while they wait,
``ui.application.quiet_openmp``); the paint is the one Qt does by itself, not a forced repaint() —
a forced one would paint before the scene has processed its changes.  Targets (issue 2):
50×128 < 30 ms, 4,096×1,024 < 100 ms, 100,000×1,024 < 300 ms; peak RSS < 1.5 GB; then every
family at 100,000 positions (issue 20: each < 0.5 s; bias matrices are 100,000 × 100,000).
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.bench.bench_heatmap
"""

from __future__ import annotations

import os
import statistics
import time

from tests.bench import table as bench_table

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZES = [(50, 128), (4096, 1024), (100_000, 1024)]
REPEATS = 25
FAMILY_REPEATS = int(os.environ.get("PEAPP_BENCH_FAMILY_REPEATS", "5"))
N = 100_000
# (label, family, parameters set first, the i-th edit): every edit changes what is drawn
FAMILY_CASES = [
    ("sinusoidal, new base", "sinusoidal", {"n_positions": N, "d_model": 1024},
     lambda i: {"base": 9000.0 + i}),
    ("RoPE, new base", "rope", {"n_positions": N, "head_dim": 1024}, lambda i: {"base": 9000.0 + i}),
    ("NoPE, new length", "nope", {"n_positions": N, "d_model": 1024}, lambda i: {"n_positions": N - 1 - i % 2}),
    ("learned, new length (table kept)", "learned", {"max_positions": N, "n_positions": N, "d_model": 1024},
     lambda i: {"n_positions": N - 1 - i % 2}),
    ("learned, new seed (new 400 MB table)", "learned", {"max_positions": N, "n_positions": N, "d_model": 1024},
     lambda i: {"seed": 1 + i}),
    ("ALiBi causal, 64 heads, new head", "alibi", {"n_positions": N, "n_heads": 64, "causal": True},
     lambda i: {"head": 1 + i}),
    ("ALiBi both ways, new head", "alibi", {"n_positions": N, "n_heads": 64, "causal": False},
     lambda i: {"head": 10 + i}),
    ("T5 buckets, new max distance", "t5", {"n_positions": N, "show": "bucket"},
     lambda i: {"max_distance": 200 + i}),
    ("T5 bias, new head", "t5", {"n_positions": N, "show": "bias", "n_heads": 8}, lambda i: {"head": 1 + i % 7}),
    ("Shaw, new clip distance", "shaw", {"n_positions": N}, lambda i: {"max_distance": 17 + i}),
]


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

    def time_edits(family: str, base: dict, edit, repeats: int) -> list[float]:
        """Milliseconds from each edit to the end of the first paint showing it."""
        if model.document.family != family:
            model.try_set_family(family)
        model.try_set_params(family, **base)
        window.wait_until_idle(app.processEvents)
        times = []
        for i in range(repeats):
            done["t"], done["shown"] = None, False
            start = time.perf_counter()
            model.try_set_params(family, **edit(i))
            if done["t"] is None:
                loop.exec()
            times.append((done["t"] - start) * 1000)
        return sorted(times)

    print(f"{'size':>16} {'median ms':>10} {'p95 ms':>8} {'drawn rows':>10}   (load {bench_table.load():.1f})")
    edits = [0]

    def new_base(i: int) -> dict:
        edits[0] += 1  # a new base every time, so every edit really changes the table
        return {"base": 10000.0 + edits[0]}

    for n, d in SIZES:
        bench_table.start_case()
        times = time_edits("sinusoidal", {"n_positions": n, "d_model": d}, new_base, REPEATS)
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        print(f"{n:>8,}×{d:<7,} {statistics.median(times):>10.1f} {p95:>8.1f} {heat.image.image.shape[0]:>10}")
        bench_table.record(f"edit → painted, sinusoidal {n:,} × {d:,}", statistics.median(times) / 1000,
                           note=f"p95 {p95:.0f} ms")
    print(f"peak RSS after the largest size: {bench_table.peak_rss_mb():.0f} MB")
    print(f"\nevery family at 100,000 positions (× 1,024 dims, or 100,000 × 100,000 for bias matrices), "
          f"median of {FAMILY_REPEATS} edits, load {bench_table.load():.1f}")
    print(f"{'family':<34} {'median ms':>10} {'max ms':>8} {'drawn':>12} {'peak MB':>8}")
    for label, family, base, edit in FAMILY_CASES:
        bench_table.start_case()
        times = time_edits(family, base, edit, FAMILY_REPEATS)
        shape = "×".join(str(v) for v in heat.image.image.shape)
        print(f"{label:<34} {statistics.median(times):>10.1f} {times[-1]:>8.1f} {shape:>12} "
              f"{bench_table.peak_rss_mb():>8.0f}", flush=True)
        bench_table.record(f"edit → painted, {label}", statistics.median(times) / 1000,
                           note=f"max {times[-1]:.0f} ms, drawn {shape}")
    print(f"load {bench_table.load():.1f} at the end")
    window.close()


if __name__ == "__main__":
    main()
