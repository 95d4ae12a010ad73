"""The Measured claims panel (issue 37): real key and mouse events, each claim drawn from its own
computation or saved result, reached from Help > Measured claims in two clicks."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.gui.article_helpers import host, settle
from ui.docks.claims import ClaimsDock


@pytest.fixture(scope="module")
def cost_file(tmp_path_factory):
    from peapp.analysis.cost import measure_cost

    result = measure_cost(("lab",), ("rope", "shaw"), {"lab": (256, 512)}, ("forward", "decode"), max_bytes=1 << 30)
    path = tmp_path_factory.mktemp("cost") / "cost.json"
    path.write_text(json.dumps(result.to_json()), encoding="utf-8")
    return str(path)


@pytest.fixture
def dock(qtbot, app_context):
    return host(qtbot, app_context, ClaimsDock)


def test_temperature_is_drawn_and_the_mode_combo_takes_keys(dock, qtbot, app_context, cost_file):
    from peapp.analysis.temperature import scale_curve

    result = dock.last_result
    assert result.mode == "claims-temperature"
    x, y = dock.plots[0].listDataItems()[0].getData()
    want = scale_curve(4096, 0.1, 512, 0.15)
    np.testing.assert_allclose(y, want.llama4)
    assert "steps at every multiple" in dock.lines.text()
    assert dock.readout_at(600, 1.05, dock.plots[0]).startswith("600:")
    app_context.document_model.set_view("claims", cost_file=cost_file)
    combo = dock.form.widgets["mode"]
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)  # → Cost of positions
    settle(qtbot, app_context)
    assert app_context.document.view("claims", "mode") == "claims-cost"
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.mode == "claims-cost")
    labels = [item.name() for item in dock.plots[0].listDataItems()]
    assert labels == ["Shaw relative (keys + values)", "RoPE"]  # the schemes by name, not their keys
    arrays = dock.shown_arrays()
    assert arrays["plot0_curve0_y"][-1] > arrays["plot0_curve1_y"][-1]  # Shaw's memory above RoPE's
    assert "Claim:" in dock.lines.text() and "Measured:" in dock.lines.text()
    assert not dock.form.widgets["floor_scale"].isVisible() and dock.form.widgets["cost_file"].isVisible()


def test_a_missing_file_is_one_line_and_no_other_claims_picture_stays(dock, qtbot, app_context):
    app_context.document_model.set_view("claims", mode="claims-sinks")
    settle(qtbot, app_context)
    qtbot.waitUntil(lambda: "peapp probe streaming" in dock.lines.text())
    assert not any(plot.isVisible() for plot in dock.plots) and dock.shown_arrays() == {}
    assert "Attention sinks" in dock.caption.text()
    assert app_context.document.view("claims", "mode") == "claims-sinks"


def test_help_menu_reaches_each_claim_in_two_clicks(qtbot, main_window):
    from tests.conftest import wait_idle

    menu = main_window.help_menu
    entry = next(a for a in menu.actions() if a.menu() is not None and a.menu().objectName() == "menuClaims")
    assert [a.text() for a in entry.menu().actions()] == ["NoPE temperature", "Cost of positions",
                                                           "Attention sinks",
                                                           "Attention sinks: run on the opened model (Probes)",
                                                           "NoPE ranking", "",
                                                           "NoPE temperature in Run on text",
                                                           "NoPE temperature in the attention inspector"]
    assert all(a.statusTip() for a in entry.menu().actions() if not a.isSeparator())
    main_window.menuBar().setNativeMenuBar(False)
    bar = main_window.menuBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(menu.menuAction()).center())  # click 1
    qtbot.waitUntil(menu.isVisible)
    QTest.mouseMove(menu, menu.actionGeometry(entry).center())  # hovering opens the submenu
    sub = entry.menu()
    qtbot.waitUntil(sub.isVisible)
    ranking = sub.actions()[4]
    QTest.mouseClick(sub, Qt.MouseButton.LeftButton, pos=sub.actionGeometry(ranking).center())  # click 2
    dock = main_window.docks["claimsDock"]
    qtbot.waitUntil(lambda: dock.isVisible() and main_window.document_model.document.view("claims", "mode")
                    == "claims-ranking")
    wait_idle(qtbot, main_window)


def test_the_cost_legends_sit_above_the_data_not_on_it(dock, qtbot, app_context, cost_file):
    """Each legend has its own row above its plot's view box: inside it, it covered the cost
    figure's points (the export too, PNG and SVG, which draw this scene)."""
    app_context.document_model.set_view("claims", mode="claims-cost", cost_file=cost_file)
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.mode == "claims-cost")
    dock.resize(900, 600)
    qtbot.waitUntil(lambda: all(plot.legend is not None and plot.legend.items for plot in dock.plots))
    for plot in dock.plots:
        legend = plot.legend
        box = plot.getViewBox().sceneBoundingRect()
        shown = legend.sceneBoundingRect()
        assert not shown.intersects(box), (shown, box)
        assert shown.bottom() <= box.top() and shown.width() > 20
        names = [label.text for _sample, label in legend.items]
        assert names == [item.name() for item in plot.listDataItems()]


def test_the_cost_axis_names_the_lengths_measured(dock, qtbot, app_context, cost_file):
    """A log axis over three lengths labelled every minor tick (4,000 5,000 … 10,000 ran together);
    the cost plots name the lengths measured instead."""
    app_context.document_model.set_view("claims", mode="claims-cost", cost_file=cost_file)
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.mode == "claims-cost")
    ticks = dock.plots[0].getAxis("bottom")._tickLevels
    assert ticks is not None and [name for _x, name in ticks[0]] == ["256", "512"]


def test_the_last_lengths_name_is_drawn_in_the_exported_cost_figure(dock, qtbot, app_context, cost_file, tmp_path):
    """pyqtgraph drops a tick label that would cross the axis's end: "16,384" was missing under the
    last points of the exported cost figure (1000×700). The axes leave room for it."""
    doc = json.loads(open(cost_file, encoding="utf-8").read())
    for case in doc["cases"]:
        case["length"] = {256: 4096, 512: 16384}[case["length"]]
    longer = tmp_path / "cost.json"
    longer.write_text(json.dumps(doc), encoding="utf-8")
    app_context.document_model.set_view("claims", mode="claims-cost", cost_file=str(longer))
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.mode == "claims-cost")
    from ui import export

    export.export(dock, str(tmp_path / "cost.svg"), export.FigureOptions(size=(1000, 700)))
    svg = (tmp_path / "cost.svg").read_text(encoding="utf-8")
    assert svg.count(">16,384<") == 2 and svg.count(">4,096<") == 2  # under both plots


def test_help_menu_opens_the_attention_sinks_probe_in_two_clicks(qtbot, main_window):
    """Issue 37: the streaming experiment run on the opened model is one entry of Help > Measured
    claims: the Probes panel comes forward on its Attention sinks tab, the entry's caption its tip."""
    from tests.conftest import wait_idle

    menu = main_window.help_menu
    entry = next(a for a in menu.actions() if a.menu() is not None and a.menu().objectName() == "menuClaims")
    sub = entry.menu()
    run = next(a for a in sub.actions() if a.objectName() == "action_probe_streaming")
    assert run.statusTip().startswith("StreamingLLM's experiment on the opened checkpoint") and run.toolTip()
    main_window.menuBar().setNativeMenuBar(False)
    bar = main_window.menuBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(menu.menuAction()).center())  # click 1
    qtbot.waitUntil(menu.isVisible)
    QTest.mouseMove(menu, menu.actionGeometry(entry).center())  # hovering opens the submenu
    # hovering opens the submenu: QMenu takes the pointer once it has moved (more than 6 motions, or away
    # from where the menu opened: after another menu test the pointer may rest there), so it arrives in steps
    centre = menu.actionGeometry(entry).center()
    for dx in range(-16, 1, 2):
        QTest.mouseMove(menu, centre + QPoint(dx, 0))
    qtbot.waitUntil(sub.isVisible)
    QTest.mouseClick(sub, Qt.MouseButton.LeftButton, pos=sub.actionGeometry(run).center())  # click 2
    dock = main_window.docks["probeDock"]
    qtbot.waitUntil(lambda: dock.isVisible() and main_window.document_model.document.view("probe", "mode")
                    == "probe-streaming")
    qtbot.waitUntil(lambda: dock.tabs.currentWidget() is dock.view.figures["probe-streaming"]
                    and dock.controls["sinks"].isVisible())
    assert "Attention sinks (streaming)" in dock.caption.text()
    wait_idle(qtbot, main_window)


@pytest.mark.parametrize("name, dock_name", [("action_run_nope", "runDock"), ("action_attention_nope", "attentionDock")])
def test_help_menu_reaches_the_nope_temperature_figures_in_two_clicks(qtbot, main_window, name, dock_name):
    """Help > Measured claims > NoPE temperature in Run on text (its NoPE tab, and a caption saying
    what it draws), or in the attention inspector (NoPE with its temperature curve on)."""
    from tests.conftest import wait_idle

    menu = main_window.help_menu
    entry = next(a for a in menu.actions() if a.menu() is not None and a.menu().objectName() == "menuClaims")
    main_window.menuBar().setNativeMenuBar(False)
    bar = main_window.menuBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(menu.menuAction()).center())  # click 1
    qtbot.waitUntil(menu.isVisible)
    sub = entry.menu()
    centre = menu.actionGeometry(entry).center()  # the pointer arrives in steps: see the sinks test above
    for dx in range(-16, 1, 2):
        QTest.mouseMove(menu, centre + QPoint(dx, 0))
    qtbot.waitUntil(sub.isVisible)
    action = next(a for a in sub.actions() if a.objectName() == name)
    QTest.mouseClick(sub, Qt.MouseButton.LeftButton, pos=sub.actionGeometry(action).center())  # click 2
    dock = main_window.docks[dock_name]
    qtbot.waitUntil(dock.isVisible)
    wait_idle(qtbot, main_window)
    document = main_window.document_model.document
    if dock_name == "runDock":
        assert document.view("run", "mode") == "run-nope"
        assert dock.tabs.currentIndex() == list(dock.figures).index("run-nope")
        assert "this tab draws a NoPE layer's attention entropy" in dock.caption.text()
    else:
        assert document.view("attention", "scheme") == "nope"
        assert document.view("attention", "nope_temperature") is True

        # wait for the picture itself: the inspector asks for it on a later turn of the event loop
        # (a throttled refresh), which an idle window before that turn does not cover under load
        def drawn() -> bool:
            result = dock.last_result
            return result is not None and result.temperature_entropy is not None

        qtbot.waitUntil(drawn, timeout=60_000)
        qtbot.waitUntil(lambda: "NoPE with temperature (entropy plot)" in dock.caption.text(), timeout=60_000)


def test_cost_and_ranking_figures_are_drawn_headless_from_the_command_line(tmp_path):
    """`peapp cost -o FIG` draws the Measured claims panel's cost figure (numbers kept beside it as
    FIG.cost.json, named by the figure's session), and `peapp render claims-ranking --results DIR`
    draws a ranking preset's folder without a session file."""
    import os
    import subprocess
    import sys

    from peapp.export_data import document_from_file

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root, QT_QPA_PLATFORM="offscreen", OMP_NUM_THREADS="1")

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "peapp", *args], capture_output=True, text=True, timeout=300,
                              cwd=root, env=env)

    proc = cli("cost", "--models", "lab", "--lengths", "256", "--schemes", "rope,shaw", "--kinds", "forward,decode",
               "--quiet", "-o", str(tmp_path / "cost.svg"))
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "cost.svg").read_text(encoding="utf-8")
    assert "Peak memory of a full forward (lab model)" in svg and "Time per generated token" in svg
    saved = json.loads((tmp_path / "cost.cost.json").read_text(encoding="utf-8"))
    assert saved["measure"] == "cost" and {c["scheme"] for c in saved["cases"]} == {"rope", "shaw"}
    view = document_from_file(str(tmp_path / "cost.svg")).view_spec("claims")
    assert (view.mode, view.cost_file) == ("claims-cost", str(tmp_path / "cost.cost.json"))

    from peapp.lab import results
    from peapp.lab.options import TrainSettings
    from peapp.lab.train import RunSpec, train_run

    folder = tmp_path / "ranking"  # a preset's folder: a task per subfolder (two steps: nothing learned)
    for encoding in ("nope", "rope"):
        spec = RunSpec(task="copy", encoding=encoding, seed=0, train_length=3, eval_lengths=(3, 5),
                       train=TrainSettings(steps=2, batch_size=4, eval_samples=4, warmup_steps=1))
        results.save_run(folder / "copy", train_run(spec))
    proc = cli("render", "claims-ranking", "--results", str(folder), "-o", str(tmp_path / "rank.svg"))
    assert proc.returncode == 0, proc.stderr
    assert "Kazemnejad" in (tmp_path / "rank.svg").read_text(encoding="utf-8")


def test_measure_here_saves_a_cost_file_and_draws_it(dock, qtbot, app_context, monkeypatch, tmp_path):
    """The cost claim without a saved file offers Measure here: a click (a real mouse event) runs
    `peapp cost`'s measurement on the panel's own thread, saves its JSON in the cache folder and draws
    it; Ctrl+Z gives the previous (empty) file back.  The measurement is made small here: the CLI's
    defaults take a minute or two."""
    import peapp.analysis.cost as cost

    real = cost.measure_cost
    asked = {}

    def small(models, schemes=cost.SCHEMES, lengths=None, kinds=("forward", "decode"), max_bytes=None, threads=1,
              progress=None, partial=None):
        asked.update(models=models, lengths=lengths, max_bytes=max_bytes)
        return real(("lab",), ("rope", "alibi"), {"lab": (64, 128)}, ("forward",), max_bytes=1 << 30,
                    progress=progress)

    monkeypatch.setattr(cost, "measure_cost", small)
    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path))
    app_context.document_model.set_view("claims", mode="claims-cost", cost_file="")
    settle(qtbot, app_context)
    qtbot.waitUntil(lambda: "Measure here" in dock.lines.text())  # the empty claim says what to do
    assert not any(plot.isVisible() for plot in dock.plots)  # and draws no empty axes
    button = dock.measure_button
    assert button.isVisible() and button.isEnabled()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: app_context.document.view("claims", "cost_file") != "", timeout=120_000)
    saved = app_context.document.view("claims", "cost_file")
    assert saved.startswith(str(tmp_path / "claims")) and saved.endswith(".json")
    assert json.loads(open(saved, encoding="utf-8").read())["measure"] == "cost"
    assert asked == {"models": tuple(cost.MODELS), "lengths": cost.DEFAULT_LENGTHS, "max_bytes": cost.DEFAULT_MAX_BYTES}
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.mode == "claims-cost"
                    and len(dock.plots[0].listDataItems()) == 2, timeout=60_000)
    assert button.isEnabled()
    app_context.document_model.undo_stack.undo()
    assert app_context.document.view("claims", "cost_file") == ""


def test_measure_here_is_offered_only_for_the_cost_claim(dock, qtbot, app_context):
    for mode, shown in (("claims-temperature", False), ("claims-cost", True), ("claims-sinks", False)):
        app_context.document_model.set_view("claims", mode=mode)
        settle(qtbot, app_context)
        assert dock.measure_button.isVisible() is shown, mode


def test_esc_in_the_window_stops_measure_here_and_keeps_the_claim(main_window, qtbot, monkeypatch, tmp_path):
    """Measure here reports in the window's status bar like every long job, and Esc (a real key event
    to the window) stops it between cases: no file is set, the button comes back."""
    import threading

    import peapp.analysis.cost as cost

    started = threading.Event()

    def endless(*args, progress=None, **kwargs):
        while True:  # a case after a case, until the job is not wanted (progress raises Cancelled)
            started.set()
            threading.Event().wait(0.05)
            progress(0.5)

    monkeypatch.setattr(cost, "measure_cost", endless)
    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path))
    dock = main_window.docks["claimsDock"]
    main_window.show_panel("claimsDock")
    main_window.document_model.set_view("claims", mode="claims-cost", cost_file="")
    qtbot.waitUntil(lambda: dock.measure_button.isVisible())
    QTest.mouseClick(dock.measure_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(started.is_set, timeout=60_000)
    qtbot.waitUntil(main_window.cancel_button.isVisible, timeout=60_000)  # the status bar shows the job
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: dock.measure_button.isEnabled() and not main_window.compute_busy(), timeout=60_000)
    assert main_window.document_model.document.view("claims", "cost_file") == ""
