"""Grid maps label their cells at the cells' centres, one convention for all of them (issue 35,
item 9: head classes and sink shares put pyqtgraph's ticks on the cells' edges, "head 0 … 9" for
nine heads, "layer 0 … 30" for thirty; the head grid centred them)."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage, QPainter

from tests.conftest import wait_idle
from tests.gui.test_run_dock import _open, _run, _tokenizer

LAYERS, HEADS = 30, 9


@pytest.fixture(scope="module")
def thirty_layers(tmp_path_factory):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=32, hidden_size=72, intermediate_size=32, num_hidden_layers=LAYERS,
                      num_attention_heads=HEADS, num_key_value_heads=HEADS, max_position_embeddings=128)
    folder = str(tmp_path_factory.mktemp("llama30"))
    LlamaForCausalLM(cfg).eval().save_pretrained(folder)
    _tokenizer(folder)
    return folder


def drawn_labels(axis: pg.AxisItem) -> list[tuple[float, str]]:
    """The tick labels the axis paints now, each with its centre in the data's coordinates."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    view = axis.linkedView()
    out = []
    for rect, _, text in specs[2]:
        centre = view.mapSceneToView(axis.mapToScene(rect.center()))
        out.append((centre.x() if axis.orientation == "bottom" else centre.y(), text))
    return out


def _cells(labels: list[tuple[float, str]]) -> list[int]:
    return sorted(int(text.split(" ")[0]) for _, text in labels)


@pytest.mark.parametrize("size", [(1366, 728), (1600, 960)])
def test_every_grid_map_labels_its_cells_at_their_centres(main_window, qtbot, thirty_layers, size):
    dock = main_window.docks["runDock"]
    main_window.resize(*size)
    _open(main_window, thirty_layers)
    _run(qtbot, main_window, dock)
    maps = {"run-grid": [dock.view.grid_plot], "run-distance": [dock.view.class_plot],
            "run-sinks": dock.view.sink_plots, "run-rope": [dock.view.rope_heat_plot]}
    pairs = dock.result.run.rope_usage.shape[-1]
    for mode, plots in maps.items():
        dock.set_settings(mode=mode)
        wait_idle(qtbot, main_window)
        qtbot.wait(50)
        for plot in plots:
            for side, n in (("bottom", pairs if mode == "run-rope" else HEADS), ("left", LAYERS)):
                axis = plot.getAxis(side)
                labels = drawn_labels(axis)
                where = (mode, side, [text for _, text in labels])
                cells = _cells(labels)
                # every label names a cell and sits on its centre: none past the last cell
                assert cells and cells[0] == 0 and cells[-1] < n, where
                for centre, text in labels:
                    assert abs(centre - (int(text.split(" ")[0]) + 0.5)) < 0.02, where
                if side == "bottom":  # nine heads (and the RoPE pairs) have room for every label
                    assert cells == list(range(n)), where


def test_cell_labels_thin_out_without_overlapping_where_there_is_no_room(qtbot):
    from ui.plotting import cell_ticks

    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    plot = widget.addPlot()
    plot.invertY(True)
    plot.setRange(xRange=(0, HEADS), yRange=(0, LAYERS), padding=0)
    cell_ticks(plot.getAxis("left"), LAYERS)
    cell_ticks(plot.getAxis("bottom"), HEADS)
    widget.resize(300, 220)
    widget.show()
    qtbot.waitExposed(widget)
    left = drawn_labels(plot.getAxis("left"))
    assert _cells(left) == [0, 5, 10, 15, 20, 25]  # under 200 px for thirty rows: the round ones
    assert _cells(drawn_labels(plot.getAxis("bottom"))) == list(range(HEADS))
    widget.resize(300, 700)
    qtbot.waitUntil(lambda: _cells(drawn_labels(plot.getAxis("left"))) == list(range(LAYERS)), timeout=3000)


def test_hovering_a_head_grid_tile_reads_statistic_equals_value_on_square_tiles(main_window, qtbot, thirty_layers):
    """The hover read "weight on token 0 0.01" (the statistic's name ran into its value) and tiles
    were stretched to the plot's shape; a real mouse move over a tile, at 1366 × 768."""
    from PySide6.QtCore import QPointF

    from peapp.model_run import text_run as T

    dock = main_window.docks["runDock"]
    main_window.resize(1366, 728)
    _open(main_window, thirty_layers)
    _run(qtbot, main_window, dock)
    dock.set_settings(mode="run-grid", grid_statistic="sink_first", sort_grid=False)
    wait_idle(qtbot, main_window)
    figure, box = dock.figures["run-grid"], dock.view.grid_plot.getViewBox()
    corner, far = (figure.mapFromScene(box.mapViewToScene(QPointF(x, y))) for x, y in ((3, 7), (4, 8)))
    assert abs(abs(far.x() - corner.x()) - abs(far.y() - corner.y())) <= 1  # a square tile
    qtbot.mouseMove(figure.viewport(), figure.mapFromScene(box.mapViewToScene(QPointF(3.5, 7.5))))
    run = dock.result.run
    statistic = T.grid_statistic(run, "sink_first")[7, 3]
    qtbot.waitUntil(lambda: dock.readout.text().startswith("layer 7, head 3:"), timeout=3000)
    assert f"weight on token 0 = {statistic:.4g}" in dock.readout.text()
