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
    dock.trainer.partialReady.connect(lambda channel, generation, event: events.append(event))
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
    for item in dock.loss_plot.listDataItems():  # 3 steps: too few points for a line, so they are dots
        assert len(item.xData) >= 1 and (item.opts["symbol"] == "o") == (len(item.xData) < 3)
    (x0, x1), (y0, y1) = dock.plot.viewRange()
    assert x0 < 6 < x1
    assert dock.readout_at(6, (y0 + y1) / 2).startswith("length 6: Learned absolute cannot")
    arrays = dock.shown_arrays()
    assert list(arrays["lengths"]) == [3, 6] and arrays["alibi_mean_min_max"].shape == (3, 2)
    # Start again: both runs are already in the folder and are skipped
    dock.start_button.click()
    qtbot.waitUntil(lambda: not dock.training(), timeout=300_000)
    assert "0 trained, 2 already in the folder" in dock.status_label.text(), dock.status_label.text()
    from ui import i18n

    try:  # the sentence ends as Hindi ends one (it ended with a Latin full stop)
        i18n.set_language("hi")
        settle(qtbot, app_context)
        assert dock.status_label.text().endswith("पहले से फ़ोल्डर में।"), dock.status_label.text()
    finally:
        i18n.set_language("en")
    settle(qtbot, app_context)
    assert dock.status_label.text().endswith("already in the folder."), dock.status_label.text()
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
    dock.trainer.partialReady.connect(lambda c, g, e: steps.append(e) if e["type"] == "step" else None)
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
    # the cancelled run's live loss curve stays drawn (nothing of it is saved) …
    curves = [item for item in dock.loss_plot.listDataItems() if item.getData()[0] is not None]
    assert len(curves) == 1 and len(curves[0].getData()[0]) >= 1
    # … until another results folder is shown
    dock.set_setting(results=str(tmp_path / "other"))
    settle(qtbot, app_context)
    assert dock.loss_plot.listDataItems() == []


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


@pytest.fixture(scope="module")
def lm_folder(tmp_path_factory):
    """A finished language-modelling grid (every encoding, 2 seeds, a few steps): its figure has the
    most legend entries (nine curves and the four Press et al. 2022 references)."""
    import os
    from dataclasses import replace

    from peapp.lab import grid as lab_grid
    from peapp.lab.train import TrainSettings

    folder = tmp_path_factory.mktemp("lab") / "lm"
    readme = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "README.md")
    spec = lab_grid.GridSpec(task="lm", train_length=8, eval_lengths=(8, 16), seeds=2, n_layers=1, d_model=16,
                             n_heads=2, train=replace(TrainSettings(), steps=2, eval_samples=2), nope_steps=2,
                             text=readme)
    lab_grid.run_grid(spec, str(folder), workers=1, mode="inline")
    return folder


@pytest.mark.parametrize("size", [(640, 480), (1366, 500)])
def test_the_legend_shows_every_name_whole_beside_the_curves(dock, qtbot, app_context, lm_folder, size):
    """Issue 16: in the exported PNG the legend sat inside the plot, which cut its last entries
    (the papers' references, the longest names) and covered the curves.  In a figure of the CLI's
    size and of a wide panel: every entry inside the legend, the legend inside the figure and off
    the plot, each name as wide as its text."""
    from PySide6.QtCore import QSizeF

    from ui import export

    dock.set_setting(results=str(lm_folder))
    settle(qtbot, app_context)
    result = dock.last_result
    assert result is not None and len(result.curves) == 9
    names = [label.text for _, label in dock.legend.items]
    assert len(names) == 9 + 4 and "Sinusoidal ▲ Press et al. 2022" in names
    assert dock.plot.titleLabel.text.endswith("2 seeds each")
    with export._widget_at_size(dock.export_widget(), QSizeF(*size), "light"):
        export._activate(dock.graphics.ci)
        shown = dock.graphics.mapToScene(dock.graphics.viewport().rect()).boundingRect()
        legend = dock.legend.sceneBoundingRect()
        assert shown.contains(legend), (shown, legend)
        assert not legend.intersects(dock.plot.getViewBox().sceneBoundingRect())
        assert not legend.intersects(dock.loss_plot.getViewBox().sceneBoundingRect())
        for _, label in dock.legend.items:
            box = label.sceneBoundingRect()
            assert legend.contains(box), (label.text, box, legend)
            width = label.item.document().idealWidth()  # the QGraphicsTextItem that draws the name, unwrapped
            assert label.boundingRect().width() >= width, (label.text, label.boundingRect().width(), width)
            assert label.item.document().lineCount() == 1, label.text


def test_the_notes_are_never_drawn_over_the_table(dock, qtbot, app_context, lm_folder):
    """At 1366×768 the notes label (its minimum one line) was laid out over the table's rows."""
    dock.set_setting(results=str(lm_folder))
    settle(qtbot, app_context)
    dock.host_window.resize(1000, 600)
    qtbot.wait(100)
    assert dock.notes.text().startswith("Dotted ▲")
    from PySide6.QtCore import QPoint

    lower = dock.table.parentWidget()
    notes_top = dock.notes.mapTo(lower, QPoint(0, 0)).y()
    assert dock.table.geometry().bottom() < notes_top, (dock.table.geometry(), notes_top)
    shown = lower.height() - notes_top
    assert shown >= 3 * dock.notes.fontMetrics().height()  # readable, scrolling if it must


def test_an_untrained_grid_draws_a_share_axis_and_names_no_best(dock, qtbot, app_context, tmp_path):
    """Seen at 1600×1000: runs that got nothing right drew the exact-match axis from −1e-54 to 0,
    and the notes called NoPE "the best" at 0.00."""
    from dataclasses import replace

    import numpy as np

    from peapp.lab import grid as lab_grid
    from peapp.lab.train import TrainSettings

    folder = tmp_path / "copy"
    spec = lab_grid.GridSpec(task="copy", encodings=("nope", "alibi"), rope_scalings=(), train_length=4,
                             eval_lengths=(4, 12), seeds=1, n_layers=1, d_model=16, n_heads=2,
                             train=replace(TrainSettings(), steps=1, eval_samples=4), nope_steps=1)
    lab_grid.run_grid(spec, str(folder), workers=1, mode="inline")
    dock.set_setting(results=str(folder))
    settle(qtbot, app_context)
    result = dock.last_result
    assert result.metric == "exact_match"
    assert all(np.nan_to_num(c.mean[c.lengths > 4]).max() == 0 for c in result.curves)  # 1 step: nothing right
    (_, _), (low, high) = dock.plot.viewRange()
    assert -0.1 < low < 0 and 1 < high < 1.1
    assert "no encoding got a sequence right" in dock.notes.text() and "the best is" not in dock.notes.text()
    assert dock.plot.titleLabel.text.startswith("exact match — task copy")


def test_a_short_figure_puts_the_legend_in_more_columns(dock, qtbot, app_context, lm_folder):
    """With the Checkpoint panel open at 1366×768 the figure is ~190 px tall: thirteen entries in one
    column ran off its bottom."""
    dock.set_setting(results=str(lm_folder))
    settle(qtbot, app_context)
    dock.graphics.setFixedHeight(190)
    qtbot.wait(100)
    shown = dock.graphics.mapToScene(dock.graphics.viewport().rect()).boundingRect()
    for _, label in dock.legend.items:
        assert shown.contains(label.sceneBoundingRect()), label.text
    assert dock.legend.columnCount > 1
    dock.graphics.setMinimumHeight(200)
    dock.graphics.setMaximumHeight(16_777_215)
    dock.host_window.resize(1200, 1000)
    qtbot.wait(100)
    assert dock.graphics.height() > 400 and dock.legend.columnCount == 1  # tall again: one column


def test_the_training_length_is_named_off_the_curves(dock, qtbot, app_context, lm_folder):
    """Seen at 1366×768: "trained ≤ 16" at the foot of its line was drawn over learned's "cannot" at
    the next length (and, moved left of the line, cut by the plot's edge): the axis label names it."""
    import pyqtgraph as pg

    dock.set_setting(results=str(lm_folder))
    settle(qtbot, app_context)
    lines = [item for item in dock.plot.items if isinstance(item, pg.InfiniteLine)]
    cannot = [item for item in dock.plot.items if isinstance(item, pg.TextItem) and item.toPlainText() == "cannot"]
    assert len(lines) == 1 and lines[0].value() == 8 and cannot
    assert not hasattr(lines[0], "label")
    assert "dashed: trained ≤ 8" in dock.plot.getAxis("bottom").labelText


def test_a_language_switch_redraws_the_results_held_without_reading_or_training(dock, qtbot, app_context, lm_folder,
                                                                               monkeypatch):
    """After a switch the figure, table, notes and status are said in the new language from the results
    held: the folder is not read again and nothing is trained."""
    from ui import i18n

    dock.set_setting(results=str(lm_folder))
    settle(qtbot, app_context)
    before = dock.last_result
    assert before is not None and before.runs
    submitted = []
    monkeypatch.setattr(dock, "refresh", lambda *a, **k: submitted.append(a))
    monkeypatch.setattr(dock.trainer, "submit", lambda *a, **k: submitted.append(a))
    try:
        i18n.set_language("hi")
        settle(qtbot, app_context)
        assert submitted == [] and dock.last_result is before
        assert dock.table.horizontalHeaderItem(0).text() == "एनकोडिंग"
        names = [item.name() for item in dock.plot.listDataItems()]
        assert "साइनुसॉइडल" in names and "ALiBi" in names
        assert "तैयार" in dock.status_label.text() and "नतीजों का फ़ोल्डर" in dock.caption.text()
        i18n.set_language("en")
        settle(qtbot, app_context)
        assert submitted == [] and dock.table.horizontalHeaderItem(0).text() == "encoding"
        assert "Sinusoidal" in [item.name() for item in dock.plot.listDataItems()]
    finally:
        i18n.set_language("en")


def test_the_status_bar_shows_a_grid_and_esc_to_the_window_stops_it(main_window, qtbot, tmp_path, monkeypatch):
    """The lab's progress is in the window's status bar like every long job's, and Esc stops it
    (issue 30: the lab never showed status-bar progress, so Esc cancelled nothing there)."""
    from PySide6.QtCore import Qt

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    dock = main_window.docks["labDock"]
    dock.show()
    dock.raise_()
    dock.set_setting(results=str(tmp_path / "long"), **{**TINY, "steps": 50_000, "encodings": "alibi"})
    qtbot.waitUntil(lambda: main_window.document_model.document.view("lab", "steps") == 50_000, timeout=10_000)
    steps = []
    dock.trainer.partialReady.connect(lambda c, g, e: steps.append(e) if e["type"] == "step" else None)
    dock.start_button.click()
    qtbot.waitUntil(lambda: bool(steps) and main_window.cancel_button.isVisible(), timeout=300_000)
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dock.training(), timeout=120_000)
    assert "Cancelled" in dock.status_label.text(), dock.status_label.text()
    assert dock.start_button.isEnabled() and not main_window.cancel_button.isVisible()


def _shown_lab(main_window):
    """The window's Training lab panel, shown in front and built."""
    dock = main_window.docks["labDock"]
    dock.show()
    dock.raise_()
    dock.ensure_built()
    return dock


def _tiny_ranking(monkeypatch):
    """The ranking preset at a size a test affords: one task, two encodings, a few steps."""
    from peapp.lab import presets
    from peapp.lab.options import TrainSettings

    tiny = presets.Preset("ranking", presets.PRESETS["ranking"].label, tasks=("copy",), encodings=("alibi", "nope"),
                          train_length=3, eval_lengths=(3, 5), train=TrainSettings(steps=3, eval_samples=8),
                          nope_steps=3)
    monkeypatch.setitem(presets.PRESETS, "ranking", tiny)


def test_run_preset_trains_the_ranking_and_ranks_it_in_the_table_and_claims(main_window, qtbot, tmp_path,
                                                                             monkeypatch):
    """Run preset (a real click) measures the estimate, shows its progress in the window's status bar
    like the grid's, trains every task's grid into a subfolder, and ranks the encodings in the table
    and notes; the Measured claims panel is pointed at the folder."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    _tiny_ranking(monkeypatch)
    dock = _shown_lab(main_window)
    folder = tmp_path / "ranking"
    dock.set_setting(results=str(folder), preset="ranking", randomized=True)
    model = main_window.document_model
    qtbot.waitUntil(lambda: model.document.view("lab", "randomized") is True, timeout=10_000)
    assert dock.form.widgets["randomized"].isChecked()
    seen_bar = []
    dock.trainer.progressed.connect(lambda c, g, f: seen_bar.append(main_window.cancel_button.isVisible()))
    QTest.mouseClick(dock.preset_button, Qt.MouseButton.LeftButton)
    assert dock.training() and not dock.preset_button.isEnabled() and dock.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not dock.training(), timeout=300_000)
    assert "Preset done" in dock.status_label.text(), dock.status_label.text()
    assert any(seen_bar)  # the status bar showed it, with its cancel
    # randomised positions trained beside each encoding, each task in its own subfolder
    assert sorted(p.name for p in (folder / "copy").iterdir() if p.is_dir()) == [
        "copy-alibi+rand-L3-seed0", "copy-alibi-L3-seed0", "copy-nope+rand-L3-seed0", "copy-nope-L3-seed0"]
    qtbot.waitUntil(lambda: dock.table.rowCount() == 4, timeout=60_000)
    names = {dock.table.item(r, 0).text() for r in range(dock.table.rowCount())}
    assert dock.table.columnCount() == 3 and len(names) == 4, names  # encoding, copy, mean rank
    assert dock.table.horizontalHeaderItem(2).text() == "mean rank"
    assert names == {"ALiBi", "NoPE", "ALiBi, randomised positions", "NoPE, randomised positions"}
    # three steps learn nothing: said, not ranked as if they had
    assert "Nothing to rank" in dock.notes.text() and "Kazemnejad" in dock.notes.text(), dock.notes.text()
    claims = model.document.view_spec("claims")
    assert claims.mode == "claims-ranking" and claims.ranking_folder == str(folder)


def test_cancel_stops_a_preset_and_the_next_run_skips_finished_runs(dock, qtbot, app_context, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from peapp.lab import presets
    from peapp.lab.options import TrainSettings

    monkeypatch.setitem(presets.PRESETS, "ranking", presets.Preset(
        "ranking", presets.PRESETS["ranking"].label, tasks=("copy", "reverse"), encodings=("alibi",), train_length=3,
        eval_lengths=(3,), train=TrainSettings(steps=50_000, eval_samples=8)))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    dock.set_setting(results=str(tmp_path / "long"))
    settle(qtbot, app_context)
    steps = []
    dock.trainer.partialReady.connect(lambda c, g, e: steps.append(e) if e["type"] == "step" else None)
    QTest.mouseClick(dock.preset_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(steps), timeout=300_000)
    assert "of 2 runs finished" in dock.unfinished_work()
    QTest.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.training(), timeout=120_000)
    assert "Cancelled" in dock.status_label.text() and dock.preset_button.isEnabled()
    assert not (tmp_path / "long" / "reverse").exists()  # the second task's grid never started


def test_a_presets_folder_from_the_cli_opens_as_its_ranking(dock, qtbot, app_context, tmp_path, monkeypatch):
    """A folder of `peapp lab --preset ranking -o DIR` (a grid per task below it) chosen as the
    results folder shows its ranking: it read as 'nothing trained yet' before."""
    from peapp.lab import presets

    _tiny_ranking(monkeypatch)
    folder = tmp_path / "cli"
    presets.run_preset(presets.preset("ranking"), str(folder), workers=1)
    assert (folder / presets.PRESET_FILE).is_file()
    dock.set_setting(results=str(folder))
    settle(qtbot, app_context)
    qtbot.waitUntil(lambda: dock.table.rowCount() == 2, timeout=60_000)
    assert {dock.table.item(r, 0).text() for r in range(2)} == {"ALiBi", "NoPE"}
    assert "Preset Length generalisation ranking" in dock.caption.text()
    (points,) = dock.plot.listDataItems()  # the one task's score over the encodings, named under them
    assert points.name() == "copy" and len(points.xData) == 2
    ticks = dock.plot.getAxis("bottom")._tickLevels[0]
    assert sorted(name for _x, name in ticks) == ["ALiBi", "NoPE"]
    assert LabDock.has_content(app_context.document)
    assert set(dock.export_arrays()) == {"copy_alibi_exact_match_past_training", "copy_nope_exact_match_past_training"}
    losses = dock.loss_plot.listDataItems()  # each run's saved loss curve, not an empty "live" plot
    assert len(losses) == 2 and all(len(item.xData) > 0 for item in losses)


def test_the_temperature_preset_ends_with_its_own_verdict_not_the_rankings(main_window, qtbot, tmp_path,
                                                                          monkeypatch):
    """Run preset with the temperature preset: the notes say whether a scale helps NoPE past the
    training length, citing Llama 4 and Nakanishi, not the ranking's Kazemnejad et al. verdict
    (which compares encodings, not NoPE with and without a scale); Measured claims is left alone."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from peapp.lab import presets
    from peapp.lab.options import TrainSettings

    tiny = presets.Preset("temperature", presets.PRESETS["temperature"].label, tasks=("copy",),
                          encodings=("nope", "nope-temp", "nope-logn"), train_length=3, eval_lengths=(3, 5),
                          train=TrainSettings(steps=3, eval_samples=8), nope_steps=3)
    monkeypatch.setitem(presets.PRESETS, "temperature", tiny)
    dock = _shown_lab(main_window)
    folder = tmp_path / "temperature"
    dock.set_setting(results=str(folder), preset="temperature", randomized=False)
    model = main_window.document_model
    qtbot.waitUntil(lambda: model.document.view("lab", "preset") == "temperature", timeout=10_000)
    QTest.mouseClick(dock.preset_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.training(), timeout=300_000)
    qtbot.waitUntil(lambda: dock.table.rowCount() == 3, timeout=60_000)
    notes = dock.notes.text()
    assert "Past the training length, mean exact match over copy: NoPE" in notes, notes
    assert "Nakanishi" in notes and "Kazemnejad" not in notes
    assert model.document.view_spec("claims").ranking_folder == ""
