"""Benchmark: the vision-patch grid's full tile view for a 32×32 grid (1,024 patches).

    QT_QPA_PLATFORM=offscreen python -m tests.bench.bench_patch_grid

Prints the median over repeats of: computing the similarity matrices and mosaics (the worker's
part), drawing them into the dock (GUI thread), and painting the widget.  Target: the whole
view < 300 ms.  Numbers only — nothing is asserted.
"""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPEATS = 7


def main() -> None:
    from ui.application import create_application

    app = create_application()
    from peapp.document import Document
    from ui.context import AppContext
    from ui.docks.patch_grid import PatchGridDock
    from ui.document_model import DocumentModel
    from ui.worker import ComputeWorker

    cases = [
        ("2D sin-cos, one panel", dict(encoding="sincos_2d", second="none", dim=768)),
        ("2D sin-cos vs flattened 1D", dict(encoding="sincos_2d", second="flat_1d", dim=768)),
        ("learned 2D + resampled to 24×24", dict(encoding="learned_2d", second="resampled", dim=768,
                                                 resample_height=24, resample_width=24)),
        ("learned 2D + resampled to 48×48", dict(encoding="learned_2d", second="resampled", dim=768,
                                                 resample_height=48, resample_width=48)),
        ("axial 2D RoPE vs 2D sin-cos", dict(encoding="rope_2d", second="sincos_2d", dim=64)),
    ]
    import torch

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"torch threads {torch.get_num_threads()}, CPUs {os.cpu_count()}, load average {load:.1f} "
          f"(a busy machine inflates every number below)")
    worker = ComputeWorker()
    try:
        for name, values in cases:
            doc = Document().with_view("patch_grid", image_height=512, image_width=512, patch_height=16,
                                       patch_width=16, selected=528, **values)
            ctx = AppContext(DocumentModel(doc), worker)
            dock = PatchGridDock(ctx)
            dock.resize(1400, 900)
            dock.show()
            app.processEvents()
            request = dock.make_request(ctx.document)
            request.run()  # warm-up: first interpolate / matmul calls allocate
            from tests.bench import table as bench_table

            bench_table.start_case()
            compute, draw, paint = [], [], []
            for _ in range(REPEATS):
                t0 = time.perf_counter()
                result = request.run()
                t1 = time.perf_counter()
                dock.show_result(result)
                t2 = time.perf_counter()
                dock.graphics.grab()  # a full paint of the plots, off screen
                t3 = time.perf_counter()
                compute.append(t1 - t0)
                draw.append(t2 - t1)
                paint.append(t3 - t2)
            total = [a + b + c for a, b, c in zip(compute, draw, paint)]
            print(f"32×32 grid, {name:34s}: compute {1e3 * statistics.median(compute):6.1f} ms, "
                  f"draw {1e3 * statistics.median(draw):6.1f} ms, paint {1e3 * statistics.median(paint):6.1f} ms, "
                  f"total {1e3 * statistics.median(total):6.1f} ms (median of {REPEATS}; target < 300 ms)")
            bench_table.record(f"32×32 grid, {name}: compute + draw + paint", statistics.median(total),
                               note=f"median of {REPEATS}")
            # selecting another patch: no recompute, only the maps and overlay are redrawn
            times = []
            for i in range(REPEATS):
                t0 = time.perf_counter()
                ctx.document_model.set_view("patch_grid", selected=100 + 37 * i)
                dock.graphics.grab()
                times.append(time.perf_counter() - t0)
            print(f"    select a patch and repaint: {1e3 * statistics.median(times):6.1f} ms")
            dock.close()
            dock.deleteLater()
            app.processEvents()
    finally:
        worker.shutdown()


if __name__ == "__main__":
    main()
