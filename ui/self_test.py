"""``peapp --self-test`` (``python main.py --self-test``, ``dist/peapp/peapp --self-test``).

A smoke test of an installed or bundled app: open the main window offscreen, compute one view
of every dock synchronously; then run a real model as a user would — File > Open Sample's tiny
Llama (``resources/models/tiny-llama``), Run on text on the bundled sample text (its head grid
drawn), a one-variant perplexity probe from the Probes panel, and the same weights as a GGUF file
(transformers' GGUF conversion: gguf, accelerate); train a one-run Training lab grid in a worker
process; switch to Hindi and back (the app's own Qt catalogues); export one PNG, print the timings, exit 0.  Any failure exits 1 with a one-line
reason on stderr — a library a panel cannot import is named, with how to get it.  It never
touches the user's settings (a throw-away INI file) or model cache (``PEAPP_CACHE_DIR`` points
into a temporary folder meanwhile) and needs no display.
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
    cache_before = os.environ.get("PEAPP_CACHE_DIR")
    try:
        with tempfile.TemporaryDirectory(prefix="peapp-self-test-") as tmp:
            os.environ["PEAPP_CACHE_DIR"] = str(Path(tmp) / "model-cache")  # a converted GGUF, probe results
            _run(Path(tmp), Path(out_dir) if out_dir else Path(tmp), started, timings, windows)
    except Exception as exc:  # the one-line reason is the point of a smoke test
        from peapp.libraries import missing_library

        exc = missing_library(exc) or exc  # a module the bundle left out: named, with how to get it
        reason = str(exc).splitlines()[0] if str(exc) else ""
        print(f"peapp self-test FAILED: {type(exc).__name__}: {reason}", file=sys.stderr)
        return 1
    finally:
        if cache_before is None:
            os.environ.pop("PEAPP_CACHE_DIR", None)
        else:
            os.environ["PEAPP_CACHE_DIR"] = cache_before
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
    run_dock, probe_dock = window.docks.get("runDock"), window.docks.get("probeDock")
    if run_dock is None or probe_dock is None:
        raise RuntimeError("the Run on text or Probes panel is missing")
    tokens = _run_tiny_model(window, run_dock, app.processEvents)
    t = lap(f"Run on text: tiny Llama, {tokens} tokens", t)
    variant = _probe_tiny_model(window, probe_dock, app.processEvents)
    t = lap(f"Probes: perplexity, variant {variant}", t)
    gguf_tokens = _run_tiny_gguf(window, run_dock, app.processEvents)
    t = lap(f"Run on text: the same as GGUF, {gguf_tokens} tokens", t)
    _train_tiny_grid(tmp)
    t = lap("Training lab: one run in a worker process", t)
    _switch_language(app)
    t = lap("Hindi and back", t)
    app.processEvents()
    png = _export_png(window, out_dir)
    t = lap(f"export {png.name}", t)
    window.close()
    app.processEvents()
    if window.worker.thread_running():
        raise RuntimeError("the compute thread did not stop when the window closed")
    print(f"peapp self-test: {computed} of {len(window.docks)} docks computed a view; the tiny Llama ran on "
          f"text ({tokens} tokens, folder and GGUF) and in a one-variant probe ({variant}); the Training lab "
          f"trained a run; exported {png}")


def _sample_action(window, path: str):
    """File > Open Sample's entry for ``path``."""
    window.sample_menu.aboutToShow.emit()  # the menu fills itself when it opens
    for action in window.sample_menu.actions():
        if action.data() == path:
            return action
    raise RuntimeError(f"File > Open Sample does not offer the tiny model {path}")


def _failure(dock, what: str) -> RuntimeError:
    return RuntimeError(f"{what}: {dock.message.text() or 'no result and no message'}")


def _run_tiny_model(window, dock, process_events) -> int:
    """File > Open Sample (the tiny Llama), then Run on text on the bundled sample, as a user does."""
    from peapp.checkpoints.samples import tiny_model_path

    _sample_action(window, tiny_model_path()).trigger()
    window.wait_until_idle(process_events)
    if window.document_model.document.checkpoint != tiny_model_path():
        raise RuntimeError("File > Open Sample did not open the tiny model")
    return _run_text(window, dock, process_events, "Run on text could not run the tiny model")


def _run_text(window, dock, process_events, what: str) -> int:
    dock.show()
    dock.raise_()
    dock.set_settings(max_tokens=256)
    dock.source_combo.setCurrentIndex(dock.source_combo.findData("sample"))
    dock.run_text()
    window.wait_until_idle(process_events, timeout_s=300)
    result = dock.result
    if result is None or result.checkpoint != window.document_model.document.checkpoint:
        raise _failure(dock, what)
    run = result.run
    if dock.shown_arrays().get("grid_thumbs", ()).size == 0 or run.thumbnails.shape[:2] != (run.layers, run.heads):
        raise RuntimeError(f"{what}: the head grid was not drawn")
    return run.n_tokens


def _probe_tiny_model(window, dock, process_events) -> str:
    """The Probes panel's Run: a perplexity probe with one variant on the open tiny model."""
    from peapp.model_run.probes import PerplexityResult

    variant = "linear"  # a RoPE rescaling: the probe changes the model's frequencies and restores them
    dock.show()
    dock.raise_()
    dock.set_settings(mode="probe-perplexity", text_source="sample", length=512, variants=variant, window=64)
    dock.run_probe()
    window.wait_until_idle(process_events, timeout_s=300)
    outcome = dock.controller.outcomes.get("probe-perplexity")
    if outcome is None or not isinstance(outcome.result, PerplexityResult):
        raise _failure(dock, "the Probes panel could not run a probe on the tiny model")
    curves = [curve.variant for curve in outcome.result.curves]
    if curves != [variant]:
        raise RuntimeError(f"the probe ran {curves}, not [{variant!r}] ({outcome.result.not_applied})")
    return variant


def _run_tiny_gguf(window, dock, process_events) -> int:
    """The same weights as a GGUF file (resources/models/tiny-llama.gguf), opened and run: the path
    every .gguf takes (converted once by transformers with gguf and accelerate, then cached)."""
    from peapp.resources import resource_path

    path = str(resource_path("models/tiny-llama.gguf"))
    model = window.document_model
    model.set_document(model.document.with_checkpoint(path))
    window.wait_until_idle(process_events)
    return _run_text(window, dock, process_events, "Run on text could not run the tiny GGUF model")


def _train_tiny_grid(tmp: Path) -> None:
    """The Training lab's request (the panel's Train) on a one-run grid of 2 steps: its worker is a
    separate process (multiprocessing's spawn), which a bundle starts from its own executable."""
    from peapp.analysis.lab import GridSettings, TrainRequest

    settings = GridSettings(task="copy", encodings=("rope",), rope_scalings=(), train_length=8, eval_lengths=(8,),
                            seeds=1, n_layers=1, d_model=16, n_heads=2, steps=2)
    outcome = TrainRequest(settings, str(tmp / "lab"), workers=1).run()
    if outcome.failed or outcome.finished != 1:
        raise RuntimeError(f"the Training lab could not train a run: {outcome.failed or outcome}")


def _switch_language(app) -> None:
    """Hindi and back: the app's catalogues (Qt's own are left out of the bundle; Qt has no Hindi)."""
    from PySide6.QtCore import QCoreApplication

    from ui import i18n

    i18n.set_language("hi")
    try:
        button = ("QPlatformTheme", "Cancel")  # in resources/i18n/qt_hi.ts (not a literal call: lupdate skips it)
        shown = QCoreApplication.translate(*button)
        if shown == "Cancel":
            raise RuntimeError("the Hindi catalogues did not load (resources/i18n/*_hi.qm missing?)")
    finally:
        i18n.set_language("en")


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
