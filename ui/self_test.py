"""``peapp --self-test`` (``python main.py --self-test``, ``dist/peapp/peapp --self-test``).

A smoke test of an installed or bundled app: open the main window offscreen, compute one view
of every dock synchronously, export one PNG, print the timings, exit 0.  Any failure exits 1
with a one-line reason on stderr.  It never touches the user's settings (a throw-away INI file
is used) and needs no display.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

FLAG = "--self-test"


def run_self_test(out_dir: str | os.PathLike | None = None) -> int:
    """Run the smoke test; returns the process exit code.  ``out_dir`` keeps the PNG there."""
    # Must be set before the QApplication exists; the self-test needs no display.
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    started = time.perf_counter()
    timings: list[tuple[str, float]] = []
    windows: list = []  # closed on failure too, so no compute thread outlives the test
    previous_handler = _quiet_offscreen_warnings()
    try:
        with tempfile.TemporaryDirectory(prefix="peapp-self-test-") as tmp:
            _run(Path(tmp), Path(out_dir) if out_dir else Path(tmp), started, timings, windows)
    except Exception as exc:  # the one-line reason is the point of a smoke test
        reason = str(exc).splitlines()[0] if str(exc) else ""
        print(f"peapp self-test FAILED: {type(exc).__name__}: {reason}", file=sys.stderr)
        return 1
    finally:
        import shiboken6

        for window in windows:
            window.close()
            shiboken6.delete(window)  # now, not at interpreter shutdown (see ui/app.py main)
        from PySide6.QtCore import qInstallMessageHandler

        qInstallMessageHandler(previous_handler)
    for name, seconds in timings:
        print(f"  {name:<40} {seconds * 1000:8.1f} ms")
    print(f"peapp self-test passed in {time.perf_counter() - started:.2f} s")
    return 0


def _run(tmp: Path, out_dir: Path, started: float, timings: list, windows: list) -> None:
    from PySide6.QtCore import QSettings

    from ui.application import create_application

    def lap(name: str, since: float) -> float:
        now = time.perf_counter()
        timings.append((name, now - since))
        return now

    app = create_application([sys.argv[0]])
    t = lap("Qt application", started)
    from ui.main_window import MainWindow

    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(load_backend="now", settings=settings, restore_layout=False)
    windows.append(window)
    window.resize(1366, 768)
    window.show()
    app.processEvents()
    t = lap("main window + backend", t)
    if not window.docks:
        raise RuntimeError("no docks were discovered (ui.docks submodules missing from the bundle?)")
    window.wait_until_idle(app.processEvents)  # the docks' own first requests
    computed = 0
    for name, dock in window.docks.items():
        result = dock.compute_now()
        computed += result is not None
        t = lap(f"dock {name}", t)
    if computed == 0:
        raise RuntimeError("no dock computed a view")
    checkpoint_dock = window.docks.get("checkpointDock")
    if checkpoint_dock is not None:  # also exercises the safetensors reader inside a bundle
        _open_tiny_checkpoint(window, checkpoint_dock, tmp, app.processEvents)
        t = lap("open a tiny safetensors checkpoint", t)
    app.processEvents()
    png = _export_png(window, out_dir)
    t = lap(f"export {png.name}", t)
    window.close()
    app.processEvents()
    if window.worker._thread.isRunning():
        raise RuntimeError("the compute thread did not stop when the window closed")
    print(f"peapp self-test: {computed} of {len(window.docks)} docks computed a view; exported {png}")


def _open_tiny_checkpoint(window, dock, tmp: Path, process_events) -> None:
    """Write a GPT-2-shaped folder (a 40 × 12 learned position table) and open it in the dock."""
    import json

    import numpy as np
    from safetensors.numpy import save_file

    folder = tmp / "tiny-gpt2"
    folder.mkdir()
    table = np.cumsum(np.random.default_rng(0).standard_normal((40, 12)), axis=0).astype(np.float32)
    save_file({"transformer.wpe.weight": table}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"model_type": "gpt2", "n_positions": 40, "n_embd": 12,
                                                    "n_head": 2, "architectures": ["GPT2LMHeadModel"]}))
    dock.open_path(str(folder))
    window.wait_until_idle(process_events)
    report = getattr(dock, "report", None)
    if report is None:
        raise RuntimeError(f"the checkpoint panel could not open a tiny safetensors model: {dock.caption.text()}")


def _export_png(window, out_dir: Path) -> Path:
    """Export the first dock that has something to draw, as File > Export does, and read it back."""
    from PySide6.QtGui import QImage

    from ui import export

    dock = next((d for d in window.docks.values()
                 if getattr(d, "last_result", None) is not None and export.is_exportable(d)), None)
    if dock is None:
        raise RuntimeError("no dock has a view to export")
    path = out_dir / f"peapp-self-test-{dock.objectName()}.png"
    export.export_figure(dock, path, export.FigureOptions(), overwrite=True)
    image = QImage(str(path))
    if image.isNull() or image.width() < 50 or image.height() < 50:
        raise RuntimeError(f"the exported PNG {path} is empty or unreadable")
    return path


def _quiet_offscreen_warnings():
    """The offscreen platform warns about window hints it cannot honour; everything else is shown.
    Returns the previous handler (restored afterwards, e.g. pytest-qt's)."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(mode, context, message: str) -> None:
        if "This plugin does not support" not in message:
            print(f"Qt: {message}", file=sys.stderr)

    return qInstallMessageHandler(handler)
