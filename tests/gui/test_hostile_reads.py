"""Files other people made are read off the GUI thread; Open Session is one undo step (issue 19).

The check is structural, not timed: every open of a file someone else named goes through
``peapp.safe_open.open_regular``, which the tests wrap to record the thread it runs on; none
may be the GUI thread.  (How long the GUI thread is blocked is measured, not asserted, in
tests/bench/bench_hostile_gui.py.)
"""

from __future__ import annotations

import os
import threading

import pytest

from peapp import safe_open
from peapp.document import Document
from tests.conftest import wait_idle
from tests.gui.hostile_files import make_cases, open_case


@pytest.fixture
def opened(monkeypatch):
    """(thread id, path) of every safe_open.open_regular call, from any thread."""
    calls: list[tuple[int, str]] = []
    real = safe_open.open_regular

    def recording(path, kind, error=safe_open.PeappError):
        calls.append((threading.get_ident(), os.fspath(path)))
        return real(path, kind, error)

    monkeypatch.setattr(safe_open, "open_regular", recording)
    return calls


@pytest.fixture
def quiet_errors(main_window, monkeypatch):
    """Error boxes become a list (a modal box would stop the test)."""
    errors: list[str] = []
    monkeypatch.setattr(main_window.export_actions, "show_error", lambda title, message: errors.append(message))
    return errors


@pytest.mark.all_docks
def test_every_hostile_file_is_opened_off_the_gui_thread(main_window, qtbot, tmp_path, opened, quiet_errors):
    gui = threading.get_ident()
    model = main_window.document_model
    for label, kind, path, named in make_cases(str(tmp_path)):
        before = len(opened)
        open_case(main_window, kind, path)
        wait_idle(qtbot, main_window)
        paths = {p for _, p in opened[before:]}
        assert path in paths or os.path.join(path, "config.json") in paths, f"{label}: never opened through safe_open"
        assert set(named) <= paths, f"{label}: the path it names was not opened through safe_open"
        on_gui = [p for ident, p in opened[before:] if ident == gui]
        assert not on_gui, f"{label}: opened on the GUI thread: {on_gui}"
        model.undo_stack.setIndex(0)  # back to the start for the next case (sessions that did open)
        wait_idle(qtbot, main_window)
    # the refusals were said, not swallowed
    assert any("named pipe" in e for e in quiet_errors) and any("nests" in e for e in quiet_errors)
    assert any("carries no peapp parameters" in e or "inflates to more than" in e for e in quiet_errors)
    assert main_window.worker.thread_running()  # the worker survived every case


def test_a_read_that_blocks_neither_freezes_the_gui_nor_stops_a_clean_close(main_window, qtbot, tmp_path,
                                                                              monkeypatch):
    """A FIFO read with no writer blocks for ever (safe_open refuses FIFOs; this simulates any read
    that hangs, e.g. a dead network mount): the GUI keeps running and the window still closes."""
    from peapp import export_data

    fifo = str(tmp_path / "stuck")
    os.mkfifo(fifo)
    entered = threading.Event()
    reading: list[threading.Thread] = []

    def blocking_read(path):
        reading.append(threading.current_thread())
        entered.set()
        with open(fifo, "rb") as fh:  # blocks until a writer opens the pipe
            fh.read()
        return Document()

    monkeypatch.setattr(export_data, "document_from_file", blocking_read)
    before = main_window.document_model.document
    main_window.export_actions.open_session(fifo)
    assert entered.wait(10)
    assert reading[0] is not threading.main_thread()
    ticks = []
    from PySide6.QtCore import QTimer

    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=10_000)  # the GUI thread runs its event loop meanwhile
    timer.stop()
    qtbot.waitUntil(lambda: main_window.reading_label.isVisible(), timeout=10_000)  # it says what it opens
    assert "stuck" in main_window.reading_label.text() and main_window.cancel_button.isVisible()
    assert main_window.reader.is_busy() and reading[0].is_alive()
    main_window.close()  # must not wait for the read
    assert not main_window.worker.thread_running()
    # unblock the reader: its result arrives after the close and is dropped
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    os.close(fd)
    reading[0].join(10)
    assert not reading[0].is_alive()
    qtbot.wait(50)
    assert main_window.document_model.document == before


def test_cancel_drops_a_slow_read(main_window, qtbot, tmp_path, monkeypatch):
    from peapp import export_data

    release = threading.Event()
    other = Document().with_family("rope")

    def slow_read(path):
        release.wait(10)
        return other

    monkeypatch.setattr(export_data, "document_from_file", slow_read)
    before = main_window.document_model.document
    main_window.export_actions.open_session(str(tmp_path / "slow.json"))
    qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=10_000)
    main_window.cancel_button.click()
    assert not main_window.reader.is_busy() and "nothing was opened" in main_window.statusBar().currentMessage()
    release.set()
    qtbot.wait(100)
    assert main_window.document_model.document == before


def test_open_session_is_one_undo_step_and_a_failed_one_changes_nothing(main_window, qtbot, tmp_path,
                                                                         quiet_errors):
    model = main_window.document_model
    assert model.try_set_family("rope") and model.try_set_params("rope", head_dim=32)
    wait_idle(qtbot, main_window)
    previous = model.document
    session = previous.with_family("alibi").with_view("heatmap", mode="similarity")
    path = tmp_path / "other.json"
    path.write_text(session.to_json(), encoding="utf-8")
    steps, index = model.undo_stack.count(), model.undo_stack.index()

    main_window.export_actions.open_session(str(path))
    wait_idle(qtbot, main_window)
    assert model.document == session
    assert model.undo_stack.count() == steps + 1 and "other.json" in model.undo_stack.undoText()
    model.undo_stack.undo()  # Ctrl+Z: the previous document is back, in one step
    wait_idle(qtbot, main_window)
    assert model.document == previous and model.undo_stack.index() == index
    assert main_window.docks["parametersDock"].forms["rope"].widgets["head_dim"].value() == 32
    model.undo_stack.redo()  # and Redo opens it again
    wait_idle(qtbot, main_window)
    assert model.document == session

    # a session that does not open leaves the document and the undo history alone
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    newer = session.to_dict()
    newer["version"] = 99
    (tmp_path / "newer.json").write_text(__import__("json").dumps(newer), encoding="utf-8")
    for bad in (fifo, str(tmp_path / "newer.json"), str(tmp_path / "missing.json")):
        count, index = model.undo_stack.count(), model.undo_stack.index()
        main_window.export_actions.open_session(bad)
        wait_idle(qtbot, main_window)
        assert quiet_errors and "unchanged" in quiet_errors[-1]
        assert model.document == session
        assert (model.undo_stack.count(), model.undo_stack.index()) == (count, index)


def test_latest_read_wins_per_key(qtbot):
    from ui.file_reader import FileReader

    reader = FileReader()
    gate = threading.Event()
    got: list[str] = []
    reader.read("k", lambda: gate.wait(10) and "old", got.append, got.append)
    reader.read("k", lambda: "new", got.append, got.append)
    reader.read("other", lambda: 1 / 0, got.append, lambda message: got.append("failed: " + message))
    qtbot.waitUntil(lambda: len(got) == 2, timeout=10_000)
    gate.set()
    qtbot.waitUntil(lambda: not reader.is_busy(), timeout=10_000)
    qtbot.wait(50)
    assert sorted(got) == ["failed: internal error while reading (ZeroDivisionError: division by zero)", "new"]
