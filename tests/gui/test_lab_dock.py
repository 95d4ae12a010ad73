"""The Training lab dock: Start measures, trains in background processes and draws the folder's
results (curves, "cannot", table); Cancel stops and keeps the last picture; the form is the view spec."""

from __future__ import annotations

import pytest

from PySide6.QtWidgets import QMessageBox

from tests.gui.article_helpers import host, settle
from ui.docks.lab import LabDock

TINY = dict(encodings="learned,alibi", seeds=1, steps=3, train_length=3, eval_lengths="3,6", d_model=16,
            n_heads=2)


@pytest.fixture
def dock(qtbot, app_context, tmp_path):
    dock = host(qtbot, app_context, LabDock)
    yield dock
    dock.trainer.shutdown()
    assert not dock.trainer.thread_running()


def test_an_empty_folder_says_so_and_edits_are_the_documents(dock, qtbot, app_context, tmp_path):
    dock.set_setting(results=str(tmp_path / "empty"))
    settle(qtbot, app_context)
    assert dock.last_result is None and "nothing trained yet" in dock.caption.text()
    assert dock.export_arrays() == {} and not LabDock.has_content(app_context.document)
    dock.set_setting(encodings="bogus")  # refused inline, the Document keeps its last good value
    assert app_context.document.view("lab", "encodings") == "all"
    dock.form.widgets["seeds"].setValue(2)
    settle(qtbot, app_context)
    assert app_context.document.view("lab", "seeds") == 2


def test_start_trains_in_the_background_and_draws_the_results(dock, qtbot, app_context, tmp_path):
    dock.set_setting(results=str(tmp_path / "out"), **TINY)
    settle(qtbot, app_context)
    events = []
    dock._events.event.connect(events.append)
    dock.start_button.click()
    assert dock.training() and not dock.start_button.isEnabled() and dock.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not dock.training(), timeout=300_000)
    settle(qtbot, app_context)
    assert "Done" in dock.status_label.text(), dock.status_label.text()
    assert {e["type"] for e in events} >= {"step", "done"}  # live events reached the GUI thread
    result = dock.last_result
    assert result.runs == 2 and {c.variant for c in result.curves} == {"learned", "alibi"}
    names = [item.name() for item in dock.plot.listDataItems()]
    assert any(n and n.startswith("ALiBi") for n in names) and any(n and n.startswith("Learned") for n in names)
    cells = {dock.table.item(r, 0).text(): dock.table.item(r, 2).text() for r in range(dock.table.rowCount())}
    assert cells["Learned absolute"] == "cannot"  # said, not drawn as 0
    assert len(dock.loss_plot.listDataItems()) == 2
    (x0, x1), (y0, y1) = dock.plot.viewRange()
    assert x0 < 6 < x1
    assert dock.readout_at(6, (y0 + y1) / 2).startswith("length 6: Learned absolute cannot")
    arrays = dock.shown_arrays()
    assert list(arrays["lengths"]) == [3, 6] and arrays["alibi_mean_min_max"].shape == (3, 2)
    # Start again: both runs are already in the folder and are skipped
    dock.start_button.click()
    qtbot.waitUntil(lambda: not dock.training(), timeout=300_000)
    assert "0 trained, 2 already in the folder" in dock.status_label.text(), dock.status_label.text()
    # the CLI draws the same folder: `peapp render lab --results DIR -o fig.csv` holds the panel's numbers
    import os
    import subprocess
    import sys

    import numpy as np

    out = tmp_path / "fig.npz"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-m", "peapp", "render", "lab", "--results", str(tmp_path / "out"),
                           "-o", str(out)], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    with np.load(out) as saved:
        np.testing.assert_array_equal(saved["alibi_mean_min_max"], arrays["alibi_mean_min_max"])


def test_cancel_stops_training_and_keeps_the_picture(dock, qtbot, app_context, tmp_path, monkeypatch):
    asked = []  # a grid estimated past an hour asks first (on a loaded machine this one may be)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.Yes)
    dock.set_setting(results=str(tmp_path / "long"), **{**TINY, "steps": 50_000, "encodings": "alibi"})
    settle(qtbot, app_context)
    steps = []
    dock._events.event.connect(lambda e: steps.append(e) if e["type"] == "step" else None)
    dock.start_button.click()
    qtbot.waitUntil(lambda: bool(steps), timeout=300_000)
    # closing the window now would stop it: the window asks first with this
    assert "The Training lab is training (0 of 1 runs finished)" in dock.unfinished_work()
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: not dock.training(), timeout=120_000)
    assert "Cancelled" in dock.status_label.text() and dock.unfinished_work() is None
    assert dock.start_button.isEnabled() and not dock.cancel_button.isEnabled()
    settle(qtbot, app_context)
    assert dock.last_result is None  # nothing finished, nothing half-written counted


def test_a_grid_over_an_hour_asks_first_and_no_starts_nothing(dock, qtbot, app_context, tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    dock.set_setting(results=str(tmp_path / "huge"), **{**TINY, "steps": 200_000, "seeds": 10,
                                                          "encodings": "all", "d_model": 512, "n_heads": 8})
    settle(qtbot, app_context)
    dock.start_button.click()
    qtbot.waitUntil(lambda: not dock.training(), timeout=300_000)
    assert asked and "minutes" in asked[0] and dock.status_label.text() == "Not started."
    assert not (tmp_path / "huge").exists()  # nothing written
