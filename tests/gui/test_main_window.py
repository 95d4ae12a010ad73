"""The foundation end to end: window, parameters dock, worker, heatmap."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from peapp.encodings import sinusoidal
from tests.conftest import wait_idle


def test_window_opens_with_the_seed_figure(main_window):
    assert {"parametersDock", "heatmapDock"} <= set(main_window.docks)
    heat = main_window.docks["heatmapDock"]
    values = heat.image.image
    assert values.shape == (50, 128)
    np.testing.assert_allclose(values, sinusoidal.table(50, 128).numpy(), atol=1e-6)
    assert "Sinusoidal" in heat.caption.text()
    assert heat.colorbar.levels() == pytest.approx((-1.0, 1.0), abs=1e-3)
    for name, dock in main_window.docks.items():
        assert dock.objectName() == name
        assert dock.toggleViewAction() in main_window.view_menu.actions()


@pytest.fixture
def view_box_menus_made(monkeypatch):
    """How many pyqtgraph ViewBox menus are made from now on (a list: one entry each)."""
    import pyqtgraph  # noqa: F401 - loads the module below

    view_box_module = sys.modules["pyqtgraph.graphicsItems.ViewBox.ViewBox"]  # the package's name is the class
    made: list[object] = []
    real = view_box_module.ViewBoxMenu
    monkeypatch.setattr(view_box_module, "ViewBoxMenu", lambda view: made.append(view) or real(view))
    return made


@pytest.mark.all_docks
def test_no_plot_builds_pyqtgraph_s_own_context_menus(view_box_menus_made, main_window):
    """pyqtgraph's per-plot menus are off in every view; a plot made with them on builds one
    first (~8 ms a plot, of ~24), so every plot is made with them off."""
    import pyqtgraph as pg

    views = main_window.findChildren(pg.GraphicsView)
    items = [item for view in views for item in view.scene().items() if isinstance(item, pg.PlotItem)]
    assert len(items) > 40  # every dock's plots
    for item in items:
        assert not item.menuEnabled() and item.getViewBox().menu is None, item
    # pyqtgraph's ColorBarItem (a PlotItem) makes its menu and then disables it itself
    assert [v for v in view_box_menus_made if not isinstance(v.parentItem(), pg.ColorBarItem)] == []


def test_parameter_change_redraws(main_window, qtbot):
    form = main_window.docks["parametersDock"].forms["sinusoidal"]
    form.widgets["d_model"].setValue(64)
    wait_idle(qtbot, main_window)
    assert main_window.docks["heatmapDock"].image.image.shape == (50, 64)
    assert main_window.document_model.document.spec().d_model == 64
    main_window.document_model.undo_stack.undo()
    wait_idle(qtbot, main_window)
    assert main_window.docks["heatmapDock"].image.image.shape == (50, 128)
    assert form.widgets["d_model"].value() == 128


def test_rapid_changes_end_on_the_last_value_without_stale_frames(main_window, qtbot, monkeypatch):
    heat = main_window.docks["heatmapDock"]
    drawn: list[int] = []
    original = heat.show_result

    def record(result):
        drawn.append(dict(result.request.params)["n_positions"])
        original(result)

    monkeypatch.setattr(heat, "show_result", record)
    spin = main_window.docks["parametersDock"].forms["sinusoidal"].widgets["n_positions"]
    values = list(range(100, 300))
    for i, value in enumerate(values):
        spin.setValue(value)
        if i % 10 == 0:
            qtbot.wait(1)
    qtbot.waitUntil(lambda: bool(drawn) and drawn[-1] == values[-1], timeout=20_000)
    wait_idle(qtbot, main_window)
    # tables of up to 2,048 rows are always drawn whole, whatever the plot's pixel height
    assert drawn[-1] == 299 and heat.image.image.shape == (299, 128)
    assert drawn == sorted(drawn), "a stale frame was drawn after a newer one"
    assert len(drawn) < len(values), "throttling/latest-wins should have dropped intermediate values"
    assert main_window.document_model.document.spec().n_positions == 299


def test_invalid_value_shows_message_and_keeps_previous_image(main_window, qtbot):
    params = main_window.docks["parametersDock"]
    before = main_window.docks["heatmapDock"].image.image.copy()
    main_window.document_model.try_set_family("learned")
    wait_idle(qtbot, main_window)
    learned_image = main_window.docks["heatmapDock"].image.image.copy()
    assert learned_image.shape == (50, 128) and not np.allclose(learned_image, before)
    params.forms["learned"].widgets["n_positions"].setValue(4000)  # table has 2,048 rows
    error = params.forms["learned"].form.errors["n_positions"]  # said under the field it is about
    qtbot.waitUntil(lambda: "does not exist" in error.text(), timeout=5000)
    assert error.isVisibleTo(params) and params.message.text() == ""
    wait_idle(qtbot, main_window)
    np.testing.assert_array_equal(main_window.docks["heatmapDock"].image.image, learned_image)
    assert main_window.document_model.document.spec().n_positions == 50
    assert "does not exist" in main_window.statusBar().currentMessage()


def test_every_family_draws(main_window, qtbot):
    heat = main_window.docks["heatmapDock"]
    for name in ("sinusoidal", "learned", "rope", "alibi", "t5", "shaw", "nope"):
        assert main_window.document_model.try_set_family(name)
        wait_idle(qtbot, main_window)
        assert heat.last_result.request.family == name
        assert heat.image.image is not None and heat.caption.text()


def test_similarity_mode_hover_and_click(main_window, qtbot):
    heat = main_window.docks["heatmapDock"]
    heat.mode_combo.setCurrentIndex(1)
    wait_idle(qtbot, main_window)
    sim = heat.image.image
    assert sim.shape == (50, 50)
    np.testing.assert_allclose(np.diag(sim), 1.0, atol=1e-5)
    heat.mode_combo.setCurrentIndex(0)
    wait_idle(qtbot, main_window)
    text = heat.readout_at(10.5, 20.5)
    assert text.startswith("position 20, dimension 10")
    assert "wavelength" in text
    heat.select(20, 10)
    wait_idle(qtbot, main_window)
    x, y = heat.row_curve.getData()
    np.testing.assert_allclose(y, sinusoidal.table(21, 128)[20].numpy(), atol=1e-6)


def test_an_edit_redraws_the_selected_row_with_the_table(main_window, qtbot, monkeypatch):
    """The cross-section of the selected position comes back with the table (one request, one
    paint per edit); only a click asks for a row on its own."""
    heat = main_window.docks["heatmapDock"]
    heat.select(7, 3)
    wait_idle(qtbot, main_window)
    channels: list[str] = []
    submit = main_window.worker.submit
    monkeypatch.setattr(main_window.worker, "submit", lambda channel, request, **kw: channels.append(channel) or
                        submit(channel, request, **kw))
    assert main_window.document_model.try_set_params("sinusoidal", base=500.0)
    wait_idle(qtbot, main_window)
    assert "heatmapDock" in channels and "heatmapDock:row" not in channels
    _, y = heat.row_curve.getData()
    np.testing.assert_allclose(y, sinusoidal.table(8, 128, base=500.0)[7].numpy(), atol=1e-6)
    assert heat.row_plot.titleLabel.text.startswith("position 7:")
    heat.select(9, 3)  # a click: the row is fetched alone
    wait_idle(qtbot, main_window)
    assert channels[-1] == "heatmapDock:row"
    np.testing.assert_allclose(heat.row_curve.getData()[1], sinusoidal.table(10, 128, base=500.0)[9].numpy(),
                               atol=1e-6)


def test_axes_are_cached_unscaled_and_curves_drawn_as_segments(main_window, qtbot, tmp_path):
    """The drawing settings behind the heatmap's repaint speed (ui.plotting), and that an export
    paints without them (text stays text) and puts them back."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QGraphicsItem

    from ui import export

    heat = main_window.docks["heatmapDock"]
    assert main_window.document_model.try_set_params("sinusoidal", n_positions=4096, d_model=1024)
    wait_idle(qtbot, main_window)
    high = heat.colorbar.levels()[1]
    # the table's own range (strided rows are exact), within ±1, where pyqtgraph would relabel "(x0.001)"
    assert high == pytest.approx(1.0, abs=1e-3)
    assert heat.colorbar.axis.label.toPlainText().strip() == "value"
    axes = [item for item in heat.graphics.scene().items() if isinstance(item, pg.AxisItem)]
    curves = [item for item in heat.graphics.scene().items() if isinstance(item, pg.PlotCurveItem)]
    assert axes and all(a.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache for a in axes)
    assert curves and all(c.opts["segmentedLineMode"] == "on" for c in curves)
    spectrum = main_window.docks["spectrumDock"]
    assert spectrum.before_curve.curve.opts["segmentedLineMode"] == "off"  # dashed: one path
    export.export_figure(heat, tmp_path / "h.svg")
    assert all(a.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache for a in axes)
    assert all(c.opts["segmentedLineMode"] == "on" for c in curves)


def test_large_table_is_drawn_reduced_and_zoom_refines(main_window, qtbot):
    doc = main_window.document_model
    assert doc.try_set_params("sinusoidal", n_positions=100_000, d_model=1024)
    wait_idle(qtbot, main_window)
    heat = main_window.docks["heatmapDock"]
    shown = heat.image.image
    assert shown.shape[1] == 1024 and shown.shape[0] <= 4096
    assert "level-of-detail" in heat.caption.text()
    # the column cross-section is exact, not the bin means (which would shrink dimension 0 to ~0)
    heat.select(10, 0)
    wait_idle(qtbot, main_window)
    x, y = heat.col_curve.getOriginalDataset()
    assert len(y) == 100_000 and np.abs(y).max() > 0.99 and heat.col_plot.titleLabel.text.endswith("(exact)")
    np.testing.assert_allclose(y[:1000], sinusoidal.table(1000, 2)[:, 0].numpy(), atol=1e-5)
    heat.zoom_rows(50_000, 50_100)
    qtbot.waitUntil(lambda: heat.detail_result is not None, timeout=10_000)
    detail = heat.detail_result.view
    assert detail.bin_size == 1.0 and detail.row_start <= 50_000 and detail.row_stop >= 50_100


def test_bias_matrix_of_100k_keys_is_pooled_in_columns_and_zoom_refines_them(main_window, qtbot):
    doc = main_window.document_model
    assert doc.try_set_family("alibi")
    assert doc.try_set_params("alibi", n_positions=100_000, n_heads=64, head=5, causal=False)
    wait_idle(qtbot, main_window)
    heat = main_window.docks["heatmapDock"]
    view = heat.last_result.view
    assert view.values.shape[1] <= 4096 and view.col_bin_size > 1 and view.column_stop == 100_000
    assert heat.image.mapRectToParent(heat.image.boundingRect()).width() == pytest.approx(100_000)
    # the cell under a key reads the pooled block that holds it
    heat.select(60_000, 80_000)
    wait_idle(qtbot, main_window)
    y = heat.col_curve.getOriginalDataset()[1]
    np.testing.assert_array_equal(y, view.values[:, view.col_index(80_000)])
    heat.zoom_to(rows=(50_000, 50_100), cols=(30_000, 30_100))
    qtbot.waitUntil(lambda: heat.detail_result is not None, timeout=20_000)
    detail = heat.detail_result.view
    assert detail.bin_size == 1.0 and detail.col_bin_size == 1.0
    assert detail.col_start <= 30_000 and detail.column_stop >= 30_100
    slope = float(__import__("peapp.encodings.alibi", fromlist=["slopes"]).slopes(64)[5])
    i = detail.row_positions[0]
    j = detail.col_positions[0]
    assert detail.values[0, 0] == pytest.approx(-slope * abs(i - j), rel=1e-6)


def test_no_display_prints_one_clear_line():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess.run([sys.executable, "main.py"], capture_output=True, text=True, env=env, timeout=60,
                          cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "xvfb-run" in proc.stderr


def test_keyboard_shortcuts_switch_family_and_mode(main_window, qtbot):
    params = main_window.docks["parametersDock"]
    params.step_family(1)
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document.family == "learned"
    params.step_family(-1)
    assert main_window.document_model.document.family == "sinusoidal"
    heat = main_window.docks["heatmapDock"]
    shortcuts = [s for s in heat.findChildren(__import__("PySide6.QtGui", fromlist=["QShortcut"]).QShortcut)]
    assert any(s.key().toString() == "T" for s in shortcuts)


def test_every_dock_has_a_unique_shortcut_and_view_toggle(main_window):
    shortcuts = [type(d).shortcut for d in main_window.docks.values() if type(d).shortcut]
    assert len(shortcuts) == len(set(shortcuts)), shortcuts
    titles = [a.text() for a in main_window.view_menu.actions()]
    for dock in main_window.docks.values():
        assert type(dock).title in titles  # the full name (the tab may carry a short one)


def test_worker_is_idle_when_it_says_busy_false(app_context, qtbot):
    """busyChanged(False) is read with is_busy() by the status bar: it must already be False,
    or the progress bar and Cancel button stay up with nothing running."""
    from PySide6.QtCore import Qt

    from peapp.analysis.heatmap import TableRequest
    from peapp.jobs import frozen_params

    worker = app_context.worker
    seen: list[tuple[bool, bool]] = []
    # Direct: runs on the compute thread at the moment of the emit, as a late GUI slot might see it
    worker.busyChanged.connect(lambda busy: seen.append((busy, worker.is_busy())),
                               Qt.ConnectionType.DirectConnection)
    results: list = []
    worker.resultReady.connect(lambda channel, generation, result: results.append(result))
    worker.submit("t", TableRequest(family="sinusoidal", params=frozen_params({"n_positions": 8, "d_model": 4})))
    qtbot.waitUntil(lambda: results and (False, False) in seen or (False, True) in seen, timeout=10_000)
    assert seen[0][0] is True and seen[-1] == (False, False), seen
    assert results and results[0].view.values.shape == (8, 4)


def test_every_control_in_every_dock_has_a_tooltip(main_window):
    """Controls say what they do on hover (the tooltip may sit on a container inside the dock)."""
    from PySide6.QtWidgets import QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit, QScrollBar

    missing = []
    for name, dock in main_window.docks.items():
        for cls in (QAbstractSpinBox, QComboBox, QAbstractButton, QAbstractSlider, QLineEdit):
            for widget in dock.findChildren(cls):
                if isinstance(widget, QScrollBar) or widget.objectName().startswith(("qt_", "Scroll")):
                    continue  # Qt's own parts (dock title buttons, spin box editors, scroll buttons)
                if widget.parentWidget() is not None and widget.parentWidget().inherits("QTabBar"):
                    continue
                owner = widget
                while owner is not None and owner is not dock and not owner.toolTip():
                    owner = owner.parentWidget()
                if owner is None or owner is dock:
                    missing.append(f"{name}: {type(widget).__name__} {widget.objectName()!r}")
    assert not missing, missing


def test_no_two_actions_share_a_shortcut(main_window):
    from collections import Counter

    from PySide6.QtGui import QAction, QShortcut

    keys = Counter(seq.toString() for action in main_window.findChildren(QAction) for seq in action.shortcuts()
                   if not seq.isEmpty())
    # window-wide QShortcuts (T, Ctrl+Up/Down) count too: a clash disables both
    keys.update(s.key().toString() for s in main_window.findChildren(QShortcut) if not s.key().isEmpty())
    assert [k for k, n in keys.items() if n > 1] == []
    assert {"Ctrl+Q", "Ctrl+Z", "Ctrl+Shift+Z"} <= set(keys)


def test_worker_runs_what_is_on_screen_before_background_work(app_context, qtbot):
    """A panel behind a tab submits background work: it runs only when no visible panel waits."""
    import threading

    from peapp.jobs import Request

    gate, order = threading.Event(), []

    class Job(Request):
        def __init__(self, name):
            object.__setattr__(self, "name", name)

        def compute(self, progress):
            if self.name == "first":
                gate.wait(10)  # hold the worker until everything else is queued
            order.append(self.name)
            return self.name

    worker = app_context.worker
    worker.submit("a", Job("first"))
    qtbot.waitUntil(lambda: worker.running_channel() == "a", timeout=5_000)
    worker.submit("hidden1", Job("hidden1"), background=True)
    worker.submit("shown1", Job("shown1"))
    worker.submit("hidden2", Job("hidden2"), background=True)
    worker.submit("hidden1", Job("hidden1-again"), background=True)  # latest wins; queued again at the end
    worker.submit("shown2", Job("shown2"))
    gate.set()
    qtbot.waitUntil(lambda: not worker.is_busy(), timeout=10_000)
    assert order == ["first", "shown1", "shown2", "hidden2", "hidden1-again"]


@pytest.mark.all_docks
def test_a_dock_behind_a_tab_submits_background_work(main_window, qtbot, monkeypatch):
    calls: list[tuple[str, bool]] = []
    submit = main_window.worker.submit
    monkeypatch.setattr(main_window.worker, "submit", lambda channel, request, background=False:
                        calls.append((channel, background)) or submit(channel, request, background))
    main_window.docks["heatmapDock"].raise_()
    assert main_window.document_model.try_set_family("rope")
    wait_idle(qtbot, main_window)
    calls.clear()
    assert main_window.document_model.try_set_params("rope", base=5000.0)
    wait_idle(qtbot, main_window)
    seen = dict(calls)
    assert seen["heatmapDock"] is False and seen["spectrumDock"] is True and seen["rotationDock"] is True
    calls.clear()
    main_window.docks["spectrumDock"].raise_()
    qtbot.wait(50)
    assert main_window.document_model.try_set_params("rope", base=20000.0)
    wait_idle(qtbot, main_window)
    seen = dict(calls)
    assert seen["spectrumDock"] is False and seen["heatmapDock"] is True


class _Gate:
    """A request that holds the worker until released, so the next ones queue up behind it."""

    def __init__(self, main_window, qtbot):
        import threading

        from peapp.jobs import Request

        self.event = threading.Event()
        event = self.event

        class Hold(Request):
            def compute(self, progress):
                event.wait(10)

        main_window.worker.submit("gate", Hold())
        qtbot.waitUntil(lambda: main_window.worker.running_channel() == "gate", timeout=5_000)


def test_a_cross_section_asked_for_before_a_mode_switch_or_edit_is_not_drawn_after_it(main_window, qtbot):
    """Cross-sections come on their own channels; one that belongs to a table no longer drawn
    (a click while the next table computes) must not land on the new one."""
    heat = main_window.docks["heatmapDock"]
    heat.raise_()
    model = main_window.document_model
    assert model.try_set_params("sinusoidal", n_positions=100_000, d_model=64)
    wait_idle(qtbot, main_window)
    gate = _Gate(main_window, qtbot)
    model.set_view("heatmap", mode="similarity")
    heat.select(10, 5)  # a click on the table still shown: its row and column queue after the switch
    gate.event.set()
    wait_idle(qtbot, main_window)
    assert heat.col_plot.titleLabel.text == "mean similarity by distance (positions)"
    model.set_view("heatmap", mode="encoding")
    wait_idle(qtbot, main_window)
    gate = _Gate(main_window, qtbot)
    assert model.try_set_params("sinusoidal", n_positions=1000)  # now drawn whole
    heat.select(10, 5)  # asks for the exact column of the 100,000-row table
    gate.event.set()
    wait_idle(qtbot, main_window)
    _, y = heat.col_curve.getOriginalDataset()
    assert len(y) == 1000 and not heat.col_plot.titleLabel.text.endswith("(exact)")
    np.testing.assert_allclose(y, sinusoidal.table(1000, 64)[:, 5].numpy(), atol=1e-6)


def test_a_row_asked_for_behind_a_tab_does_not_overwrite_a_newer_one(main_window, qtbot, monkeypatch):
    heat = main_window.docks["heatmapDock"]
    heat.raise_()
    heat.select(7, 3)
    wait_idle(qtbot, main_window)
    gate = _Gate(main_window, qtbot)
    monkeypatch.setattr(heat, "on_screen", lambda: False)
    heat.select(9, 3)  # background work, for the old base
    monkeypatch.setattr(heat, "on_screen", lambda: True)
    assert main_window.document_model.try_set_params("sinusoidal", base=500.0)  # foreground: runs first
    gate.event.set()
    wait_idle(qtbot, main_window)
    np.testing.assert_allclose(heat.row_curve.getData()[1], sinusoidal.table(10, 128, base=500.0)[9].numpy(),
                               atol=1e-6)


def test_dashed_and_translucent_curves_are_drawn_as_one_path(main_window, qtbot):
    """Curves are drawn as separate segments for speed; a dash pattern or a translucent pen would
    show every segment's start, so those curves must be drawn as paths (ui.plotting.draw_as_path)."""
    import pyqtgraph as pg
    from PySide6.QtCore import Qt

    wait_idle(qtbot, main_window)  # every panel has drawn (those behind tabs too)
    wrong = []
    for name, dock in main_window.docks.items():
        for view in dock.findChildren(pg.GraphicsView):
            for item in view.scene().items():
                if not isinstance(item, pg.PlotCurveItem) or item.opts["segmentedLineMode"] != "on":
                    continue
                pen = pg.mkPen(item.opts["pen"])
                if pen.style() != Qt.PenStyle.SolidLine or pen.color().alphaF() < 1.0:
                    wrong.append((name, pen.style(), pen.color().getRgb()))
    assert not wrong, wrong


def test_only_jobs_that_take_a_while_report_progress(app_context, qtbot):
    """A progress bar must not flash up (and re-lay out the status bar) for a job of a few ms."""
    import time as clock

    from peapp.jobs import Request
    from ui import worker as worker_module

    class Job(Request):
        def __init__(self, pause):
            object.__setattr__(self, "pause", pause)

        def compute(self, progress):
            for i in range(10):
                progress(i / 10)
            clock.sleep(self.pause)
            progress(1.0)
            return self.pause

    worker = app_context.worker
    reports: list[str] = []
    done: list[str] = []
    worker.progressed.connect(lambda channel, generation, fraction: reports.append(channel))
    worker.resultReady.connect(lambda channel, generation, result: done.append(channel))
    worker.submit("quick", Job(0.0))
    worker.submit("slow", Job(worker_module.PROGRESS_DELAY_S * 1.5))
    qtbot.waitUntil(lambda: len(done) == 2, timeout=10_000)
    qtbot.wait(20)
    assert "quick" not in reports and "slow" in reports


def test_cross_section_axes_stay_put_while_the_data_fits_them(main_window, qtbot):
    """An edit that keeps the values' range keeps the cross-section axes (no re-tick, no second
    paint); data that no longer fits, or fills too little of them, gets a new range."""
    heat = main_window.docks["heatmapDock"]
    model = main_window.document_model
    before = heat.row_plot.viewRange()[1]
    assert before[0] <= -1.0 and before[1] >= 1.0
    assert model.try_set_params("sinusoidal", base=777.0)
    wait_idle(qtbot, main_window)
    assert heat.row_plot.viewRange()[1] == before
    assert model.try_set_family("learned")  # seeded random rows, ~±0.09: the ±1 range would flatten them
    wait_idle(qtbot, main_window)
    _, y = heat.row_curve.getData()
    low, high = heat.row_plot.viewRange()[1]
    table_low, table_high = heat.last_result.value_range
    assert low <= min(y.min(), table_low) and max(y.max(), table_high) <= high
    assert high - low <= 1.2 * (table_high - table_low)


def test_a_window_built_with_the_backend_loaded_says_no_error(qtbot, settings):
    """Docks that made their widgets in ``__init__`` were asked for their first picture by the base
    class before those widgets existed: 'Encoding heatmap: … has no attribute plot' in the status bar."""
    from ui.main_window import MainWindow

    window = MainWindow(load_backend="now", settings=settings)
    qtbot.addWidget(window)
    assert window.statusBar().currentMessage() == ""
    assert window.docks["heatmapDock"].last_result is not None or window.compute_busy()
