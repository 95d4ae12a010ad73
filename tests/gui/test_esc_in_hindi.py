"""Esc stops what the status bar shows, in Hindi too (issue 30): a model run on text and a
training grid, each stopped by a real Esc key event sent to the window after the language was
switched to Hindi.  (Before, the status bar's Cancel lost Esc when its text was set again.)"""

from __future__ import annotations

import re
import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from tests.conftest import wait_idle
from tests.gui.test_lab_dock import TINY
from tests.gui.test_run_dock import _open, _run, tiny_llama  # noqa: F401  (a fixture)

DEVANAGARI = re.compile("[\u0900-\u097f]")


def test_esc_in_hindi_stops_a_run_on_text(main_window, qtbot, tiny_llama, monkeypatch):  # noqa: F811
    import peapp.model_run as model_run
    from ui import i18n

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    before = dock.result
    real_run = model_run.run_model
    stopped_at: list[float] = []

    def slow_run(*args, progress=None, **kwargs):  # a long run that reports progress, where a cancel lands
        try:
            while True:
                progress(0.1)
                time.sleep(0.01)
        finally:
            stopped_at.append(time.monotonic())
        return real_run(*args, progress=progress, **kwargs)

    monkeypatch.setattr(model_run, "run_model", slow_run)
    i18n.set_language("hi")
    try:
        # (a Layer change is served from the kept run: the Run button runs the model again)
        QTest.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=60_000)
        assert DEVANAGARI.search(main_window.cancel_button.text())
        assert "Esc" in main_window.cancel_button.toolTip()
        qtbot.keyClick(main_window, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: bool(stopped_at), timeout=30_000)  # the job itself stopped, not only the bar
        wait_idle(qtbot, main_window, 60_000)
        assert dock.result is before and not main_window.cancel_button.isVisible()
        assert not dock.progress.isVisible()
        assert dock.message.text() == i18n.translate("Run", "Run cancelled; the previous result stays.")
        assert DEVANAGARI.search(dock.message.text())
    finally:
        i18n.set_language("en")


def test_esc_in_hindi_stops_a_training_grid(main_window, qtbot, tmp_path, monkeypatch):
    from ui import i18n

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    dock = main_window.docks["labDock"]
    dock.show()
    dock.raise_()
    dock.set_setting(results=str(tmp_path / "long"), **{**TINY, "steps": 50_000, "encodings": "alibi"})
    qtbot.waitUntil(lambda: main_window.document_model.document.view("lab", "steps") == 50_000, timeout=10_000)
    steps = []
    dock.trainer.partialReady.connect(lambda c, g, e: steps.append(e) if e["type"] == "step" else None)
    i18n.set_language("hi")
    try:
        dock.start_button.click()
        qtbot.waitUntil(lambda: bool(steps) and main_window.cancel_button.isVisible(), timeout=300_000)
        qtbot.keyClick(main_window, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not dock.training(), timeout=120_000)
        wait_idle(qtbot, main_window, 60_000)  # (the grid's last figure is drawn on the shared worker)
        assert not dock.trainer.is_busy() and not main_window.cancel_button.isVisible()
        assert dock.status_label.text() == i18n.translate(
            "Lab", "Cancelled; the runs that finished are kept in the folder (Start again skips them).")
        assert DEVANAGARI.search(dock.status_label.text())
    finally:
        i18n.set_language("en")
