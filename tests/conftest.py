"""Shared fixtures.  The Qt platform is forced offscreen before any QApplication exists."""

from __future__ import annotations

import os
import sys
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")  # transformers in tests must never reach a hub
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# the Training lab's default results folder: never the user's own runs
os.environ["PEAPP_CACHE_DIR"] = tempfile.mkdtemp(prefix="peapp-models-")  # converted GGUFs: never the user's cache
os.environ["PEAPP_LAB_DIR"] = os.path.join(tempfile.mkdtemp(prefix="peapp-lab-"), "lab")  # as the app does (ui.application.quiet_openmp)

import pytest

# PySide6's check of every imported module made linear before the tests import torch and
# transformers, as the app does (ui.application.import_qt)
from ui.application import import_qt

import_qt()


@pytest.fixture
def settings(tmp_path):
    """A QSettings in a temp INI file, so tests never touch the user's settings."""
    from PySide6.QtCore import QSettings

    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def main_window(qtbot, settings, request):
    """A main window (backend loaded synchronously), idle, shown offscreen.  The docks behind
    another tab make their widgets on first show or first use, as in the app (``hidden_docks``):
    a test pays for the panels it looks at; after touching a hidden one, ``wait_idle`` before
    reading its picture.  A test marked ``all_docks`` gets every dock built and drawn first.

    On teardown it is closed and its compute thread must have stopped.
    """
    from ui.main_window import MainWindow

    every = request.node.get_closest_marker("all_docks") is not None
    # Preferences > Precision: float32 unless a test stores another. Its default, auto, times a bf16
    # matrix product on this CPU (bf16 on some machines, float32 on others), and the model panels'
    # tests compare with float32 references (peapp.model_run.load_model's default)
    if not settings.contains("compute/dtype"):
        settings.setValue("compute/dtype", "float32")
    window = MainWindow(load_backend="now", settings=settings, hidden_docks="now" if every else "on-use")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    wait_idle(qtbot, window)
    yield window
    window.close()
    assert not any(w.thread_running() for w in window.ctx.workers), "compute thread left running"


def wait_idle(qtbot, window, timeout_ms: int = 20_000) -> None:
    """Wait until the worker and the file reader have finished everything queued, and their results
    are delivered.  Idle again after the results were delivered, or wait once more: a read's result
    may queue new work, and so may a dock shown just before, which builds (and asks for its first
    picture) on a later turn of the event loop."""
    def idle() -> bool:
        return not window.compute_busy() and not window.reader.is_busy()

    for _ in range(100):
        qtbot.waitUntil(idle, timeout=timeout_ms)
        qtbot.wait(20)
        if idle():
            return
    raise AssertionError("the window never stayed idle")


@pytest.fixture(autouse=True)
def _quit_without_asking(request):
    """Closing a window with work still running asks (a modal box) — in a test, a run still in
    flight at teardown would wait forever for an answer nobody gives.  Tests of the question
    patch their window's ``confirm_close`` themselves (the instance attribute wins)."""
    if "qtbot" not in request.fixturenames:
        yield
        return
    from ui.main_window import MainWindow

    saved = MainWindow.confirm_close
    MainWindow.confirm_close = lambda self, unfinished: True
    yield
    MainWindow.confirm_close = saved
    from ui import i18n

    if i18n.language() != "en":  # a test that switched to Hindi must not leave the next one in it
        i18n.set_language("en")


@pytest.fixture(autouse=True)
def _collect_cycles_here(request):
    """As the app does, cycles are collected on this (the GUI) thread, never a compute one: the
    first Qt test installs the collector, and automatic collection is off for the rest of this
    process, so what is due is collected after every test."""
    if "qtbot" in request.fixturenames:
        from ui import gui_thread_gc

        gui_thread_gc.install(request.getfixturevalue("qapp"))
    yield
    if "ui.gui_thread_gc" in sys.modules:
        sys.modules["ui.gui_thread_gc"].collect_if_due()


@pytest.fixture
def app_context(qtbot):
    """A DocumentModel + worker pair for testing a single dock; the worker is shut down after."""
    from ui.context import AppContext
    from ui.document_model import DocumentModel
    from ui.worker import ComputeWorker

    model = DocumentModel()
    worker = ComputeWorker()
    messages: list[str] = []
    ctx = AppContext(model, worker, messages.append)
    ctx.messages = messages  # type: ignore[attr-defined]
    yield ctx
    worker.shutdown()
    assert not worker.thread_running()
