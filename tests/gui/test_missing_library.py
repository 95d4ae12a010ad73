"""A trimmed install without a library a panel needs (issue 36): Run on text, Probes and the
Training lab say which one and how to get it, in one line, never "internal error"; the other
panels keep working, and the panel itself works again once the library is back.  The import is
blocked as Python does for a module that is not there (``sys.modules[name] = None``)."""

from __future__ import annotations

import sys

from peapp.checkpoints.samples import tiny_model_path
from tests.conftest import wait_idle


def block(monkeypatch, name: str) -> None:
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        monkeypatch.delitem(sys.modules, loaded)
    monkeypatch.setitem(sys.modules, name, None)


def _open_sample(window, qtbot) -> None:
    window.sample_menu.aboutToShow.emit()
    action = next(a for a in window.sample_menu.actions() if a.data() == tiny_model_path())
    action.trigger()
    wait_idle(qtbot, window, 60_000)


def _run_sample_text(window, qtbot, dock) -> None:
    dock.show()
    dock.raise_()
    dock.set_settings(max_tokens=64)
    dock.source_combo.setCurrentIndex(dock.source_combo.findData("sample"))
    dock.run_text()
    wait_idle(qtbot, window, 120_000)


def test_run_on_text_names_the_missing_library_and_works_once_it_is_back(main_window, qtbot, monkeypatch, tmp_path):
    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path / "cache"))
    from peapp.model_run.text_run import MODEL_CACHE

    MODEL_CACHE.clear()
    with monkeypatch.context() as blocked:
        block(blocked, "transformers")
        _open_sample(main_window, qtbot)
        dock = main_window.docks["runDock"]
        _run_sample_text(main_window, qtbot, dock)
        text = dock.message.text()
        assert dock.result is None
        assert text.startswith('the library transformers is not installed; install it: pip install "transformers==')
        assert "internal error" not in text and "\n" not in text
        assert main_window.statusBar().currentMessage().startswith("Run on text: the library transformers")
        # the checkpoint panel still reads the same model, and a view of another panel still computes
        assert main_window.docks["checkpointDock"].report is not None
        assert main_window.docks["heatmapDock"].compute_now() is not None
    _run_sample_text(main_window, qtbot, dock)  # the library is back: the same panel runs
    assert dock.result is not None and dock.result.run.n_tokens == 64, dock.message.text()
    MODEL_CACHE.clear()


def test_probes_name_the_missing_library(main_window, qtbot, monkeypatch, tmp_path):
    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path / "cache"))
    from peapp.model_run.text_run import MODEL_CACHE

    MODEL_CACHE.clear()
    block(monkeypatch, "tokenizers")
    _open_sample(main_window, qtbot)
    dock = main_window.docks["probeDock"]
    dock.show()
    dock.raise_()
    dock.set_settings(mode="probe-perplexity", text_source="sample", length=64, variants="none")
    dock.run_probe()
    wait_idle(qtbot, main_window, 120_000)
    text = dock.message.text()
    assert text.startswith('the library tokenizers is not installed; install it: pip install "tokenizers==0.23.3"')
    assert "internal error" not in text
    assert dock.controller.state == "idle"  # Run can be pressed again


def test_the_lab_names_the_missing_library(main_window, qtbot, monkeypatch, tmp_path):
    """The Lab's Train request on its own compute thread: the run trains in a worker process, and
    saving it here needs safetensors."""
    from peapp.analysis.lab import GridSettings, TrainRequest

    block(monkeypatch, "safetensors")
    dock = main_window.docks["labDock"]
    dock.ensure_built()
    failures: list[str] = []
    dock.trainer.failed.connect(lambda channel, generation, message: failures.append(message))
    settings = GridSettings(task="copy", encodings=("rope",), rope_scalings=(), train_length=8, eval_lengths=(8,),
                            seeds=1, n_layers=1, d_model=16, n_heads=2, steps=2)
    dock.trainer.submit("lab:train", TrainRequest(settings, str(tmp_path / "lab"), workers=1))
    qtbot.waitUntil(lambda: bool(failures), timeout=120_000)
    assert failures == ['the library safetensors is not installed; install it: pip install "safetensors==0.8.0"']


def test_a_file_read_that_meets_a_missing_module_says_which():
    from ui.file_reader import describe_failure

    text = describe_failure(ModuleNotFoundError("No module named 'gguf'", name="gguf"))
    assert text == 'the library gguf is not installed; install it: pip install "gguf==0.19.0"'
