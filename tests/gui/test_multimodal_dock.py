"""The multimodal positions (M-RoPE) panel: hover, click, designs, bad input, a checkpoint opened."""

from __future__ import annotations

import math
import numpy as np
import pyqtgraph as pg
import pytest
import torch
import transformers
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QScrollArea

from peapp.encodings import multimodal as mm
from tests.conftest import wait_idle
from tests.gui.article_helpers import host, settle
from tests.gui.test_log_ticks import _drawn
from ui.docks.multimodal import MultimodalDock

TEXT = dict(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37, vocab_size=99, head_dim=16)
VISION = dict(depth=1, hidden_size=32, num_heads=2, out_hidden_size=32, intermediate_size=37)


@pytest.fixture
def dock(qtbot, app_context):
    return host(qtbot, app_context, MultimodalDock)


def _click_view(qtbot, dock, plot, x, y):
    scene = plot.getViewBox().mapViewToScene(QPointF(x, y))
    at = dock.graphics.mapFromScene(scene)
    QTest.mouseMove(dock.graphics.viewport(), at)
    QTest.mouseClick(dock.graphics.viewport(), Qt.MouseButton.LeftButton, pos=at)


def test_default_sequence_ids_hover_and_click(dock, qtbot, app_context):
    r = dock.last_result
    assert r.seq.n == 84 and r.mcfg.model_type == "qwen2_5_vl"
    np.testing.assert_array_equal(r.model_ids, mm.model_positions(r.seq, mm.PRESETS["qwen2_5_vl"]))
    text = dock.readout_at(10, 5)
    assert text.startswith("token 10 · block 1: image 4×6, frame 0, row 0, column 4 · (t, h, w) = (6, 6, 10)"), text
    pair = dock.readout_at(3, 1, dock.pairs_plot)
    assert pair.startswith("pair 3: wavelength") and "sectioned (Qwen2/2.5-VL): t (time)" in pair, pair
    assert "interleaved (Qwen3-VL): t (time)" in pair  # pair 3 = 0 mod 3
    # a click on a patch of the first map makes it the query
    plot = dock.maps[0][0]
    _click_view(qtbot, dock, plot, 1, 2)  # the image's row 2, column 1
    settle(qtbot, app_context)
    q = dock.last_result.query
    assert dock.view_spec().query == q and tuple(dock.last_result.seq.grid_pos[q]) == (0, 2, 1)
    assert dock.last_result.scores[:, q] == pytest.approx(1.0)
    # the export has the ids and a score per map
    arrays = dock.shown_arrays()
    assert {"model_t", "model_h", "model_w", "score_1d", "score_sectioned", "pair_axis_interleaved"} <= set(arrays)


def test_designs_switch_and_a_bad_sequence_keeps_the_picture(dock, qtbot, app_context):
    combo = dock.form.widgets["design"]
    combo.setCurrentIndex(combo.findData("videorope"))
    settle(qtbot, app_context)
    r = dock.last_result
    assert r.design == "videorope" and r.pair_axes.shape[0] == 4 and len(r.map_labels) == 4
    assert "VideoRoPE" in dock.ids_plot.titleLabel.text and "paper" in dock.caption.text()
    before = dock.last_result
    line = dock.form.widgets["blocks"]
    line.setFocus()
    line.selectAll()
    QTest.keyClicks(line, "text 3, sound 2")
    QTest.keyClick(line, Qt.Key.Key_Return)
    settle(qtbot, app_context)
    assert "cannot read block" in dock.form.invalid_fields()["blocks"]
    assert dock.last_result is before and dock.view_spec().blocks == before.request.settings.blocks


@pytest.mark.parametrize("kind", ["qwen2_vl", "qwen3_vl"])
def test_a_checkpoint_opened_in_the_window_sets_the_model(main_window, qtbot, tmp_path, kind):
    from ui import checkpoint_actions

    torch.manual_seed(0)
    rope = {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 3, 3]}
    if kind == "qwen2_vl":
        config = transformers.Qwen2VLConfig(text_config=dict(TEXT, rope_parameters=rope),
                                            vision_config=dict(depth=1, embed_dim=32, num_heads=2, hidden_size=32))
        model = transformers.Qwen2VLForConditionalGeneration(config)
    else:
        config = transformers.Qwen3VLConfig(text_config=dict(TEXT, rope_parameters=rope), vision_config=VISION)
        model = transformers.Qwen3VLForConditionalGeneration(config)
    path = tmp_path / f"tiny-{kind}"
    model.save_pretrained(path)
    checkpoint_actions.open_path(main_window, str(path))  # what File > Open does with the chosen folder
    qtbot.waitUntil(lambda: main_window.document_model.document.checkpoint == str(path), timeout=30_000)
    dock = main_window.docks["multimodalDock"]
    dock.show()
    dock.raise_()
    dock.ensure_built()
    wait_idle(qtbot, main_window)
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.mcfg.model_type == kind, timeout=30_000)
    r = dock.last_result
    assert not dock.form.widgets["style"].isEnabled() and r.from_checkpoint
    assert r.source == f"tiny-{kind}" and r.mcfg.pairs == 8 and r.mcfg.interleaved == (kind == "qwen3_vl")
    assert kind in dock.caption.text()


def test_two_line_titles_get_their_height(dock):
    """Issue 35 audit: pyqtgraph fixes a title row at 30 px; the ids and pairs titles (a legend
    line under each) were clipped at the top, cutting the Hindi vowel signs above the letters."""
    for plot in (dock.ids_plot, dock.pairs_plot):
        label = plot.titleLabel
        assert label.itemRect().height() > 30  # two lines
        assert label.maximumHeight() >= label.itemRect().height()
        assert plot.layout.rowMinimumHeight(0) >= label.itemRect().height()


def test_the_pair_rows_keep_a_line_each_in_a_short_window(dock, qtbot, app_context):
    """Issue 35 audit (1366×768, Hindi): squeezed under its two-line title, the rotary-pairs plot
    drew its three row names (1D RoPE, sectioned, interleaved) over each other."""
    from PySide6.QtGui import QFontMetricsF

    dock.host_window.resize(900, 520)
    settle(qtbot, app_context)
    qtbot.wait(50)
    axis = dock.pairs_plot.getAxis("left")
    metrics = QFontMetricsF(axis.style.get("tickFont") or axis.font())
    rows = dock.last_result.pair_axes.shape[0]
    labels = [text for _, text in axis._tickLevels[0]]
    line = max(metrics.boundingRect(text).height() for text in labels)
    assert dock.pairs_plot.getViewBox().height() >= rows * line


def test_a_short_panel_scrolls_instead_of_squeezing_the_ids(dock, qtbot, app_context):
    """Issue 35 audit (1366×768, Hindi): squeezed to ~25 px, the position-ids plot had one y tick
    and its block labels lay over the curves; the maps were strips.  The figure keeps room for
    its three rows and the panel scrolls."""
    dock.host_window.resize(900, 520)
    settle(qtbot, app_context)
    qtbot.wait(50)
    scroll = dock.findChild(QScrollArea, "multimodalScroll")
    assert scroll.verticalScrollBar().maximum() > 0  # shorter than the figure: it scrolls
    ids = dock.ids_plot.getViewBox()
    assert ids.height() >= 80
    assert len(_drawn(dock.ids_plot.getAxis("left"))) >= 2  # two labelled y ticks at least
    drawn_maps = [plot for plot, image, _ in dock.maps if plot.isVisible() and image.image is not None]
    assert drawn_maps and all(plot.getViewBox().height() >= 50 for plot in drawn_maps)
    # each block label lies above the curves under it
    id_rows = np.asarray(dock.last_result.ids).reshape(-1, len(dock.last_result.ids[0]))
    for label in (item for item in dock._spans if isinstance(item, pg.TextItem)):
        box = ids.mapSceneToView(label.mapToScene(label.boundingRect())).boundingRect()
        under = id_rows[:, max(0, math.floor(box.left())):math.ceil(box.right()) + 1]
        assert min(box.top(), box.bottom()) >= under.max(), (label.textItem.toPlainText(), box, under.max())
