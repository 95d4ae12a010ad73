"""The heatmap right after every edit (issue 18): cross-sections re-ranged and never blank after a
shrink, a hover read-out that follows every result, read-outs of the detail shown, titles that
read right per family, and a colour/y range that outliers cannot flatten."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch

from peapp.encodings import sinusoidal
from tests.conftest import wait_idle
from tests import samples


def _heat(main_window):
    return main_window.docks["heatmapDock"]


def _value_in(text: str) -> float:
    return float(re.search(r"(?:value|bias|bucket) ([+-]\d+\.\d+)", text)[1])


def test_a_shrunk_table_re_ranges_and_keeps_both_cross_sections(main_window, qtbot, tmp_path):
    doc = main_window.document_model
    heat = _heat(main_window)
    assert doc.try_set_params("sinusoidal", n_positions=100_000, d_model=128)
    wait_idle(qtbot, main_window)
    heat.select(60_000, 100)
    wait_idle(qtbot, main_window)
    assert doc.try_set_params("sinusoidal", n_positions=50)
    wait_idle(qtbot, main_window)
    x0, x1 = heat.col_plot.getViewBox().viewRange()[0]
    assert -1 <= x0 and x1 <= 51  # not ±50,000: the 50 positions fill the plot
    position, column = heat._selected
    assert position == 49 and column == 100  # the selection moved into the table
    _, col_y = heat.col_curve.getOriginalDataset()
    _, row_y = heat.row_curve.getOriginalDataset()
    np.testing.assert_allclose(col_y, sinusoidal.table(50, 128)[:, 100].numpy(), atol=1e-6)
    np.testing.assert_allclose(row_y, sinusoidal.table(50, 128)[49].numpy(), atol=1e-6)
    assert heat.row_plot.titleLabel.text.startswith("position 49:")
    assert heat.col_plot.titleLabel.text.startswith("dimension 100 across positions")
    from ui import export

    svg = (tmp_path / "h.svg")
    export.export_figure(heat, svg)
    text = svg.read_text()
    assert "position 49:" in text and "dimension 100 across positions" in text


def test_hover_read_out_follows_an_edit_and_its_undo(main_window, qtbot):
    """d_model 128 → 64 and Ctrl+Z: the read-out under the resting pointer is that of the table
    drawn now (value, dimension and wavelength), not the one before."""
    doc = main_window.document_model
    heat = _heat(main_window)
    text = heat.readout_at(40.5, 10.5)
    assert text.startswith("position 10, dimension 40:")
    assert _value_in(text) == pytest.approx(float(sinusoidal.table(50, 128)[10, 40]), abs=1e-4)

    def check(d_model: int) -> None:
        assert heat.image.image.shape == (50, d_model)
        text = heat.readout.text()
        point = heat.plot.getViewBox().mapSceneToView(heat._hover_pos)
        position, column = int(point.y()), int(point.x())
        assert text.startswith(f"position {position}, dimension {column}:")
        assert _value_in(text) == pytest.approx(float(sinusoidal.table(50, d_model)[position, column]), abs=1e-4)
        wavelength = 2 * np.pi * 10_000 ** ((column // 2 * 2) / d_model)
        assert f"wavelength {wavelength:,.1f}" in text

    main_window.docks["parametersDock"].forms["sinusoidal"].widgets["d_model"].setValue(64)
    wait_idle(qtbot, main_window)
    check(64)
    doc.undo_stack.undo()
    wait_idle(qtbot, main_window)
    check(128)


def test_hover_after_a_shrink_names_no_position_outside_the_table(main_window, qtbot):
    doc = main_window.document_model
    heat = _heat(main_window)
    assert doc.try_set_params("sinusoidal", n_positions=100_000)
    wait_idle(qtbot, main_window)
    heat.readout_at(5.5, 80_000.5)
    text = heat.readout.text()
    # the read-out names the drawn row under the pointer: within one stride of it (the stride follows the
    # plot's height in pixels, so it depends on the window's layout)
    stride = re.search(r"every ~([\d,]+)", text)
    near = int(stride.group(1).replace(",", "")) if stride else 1
    position = int(re.search(r"position ([\d,]+)", text).group(1).replace(",", ""))
    assert abs(position - 80_000) <= near, text
    assert doc.try_set_params("sinusoidal", n_positions=50)
    wait_idle(qtbot, main_window)
    text = heat.readout.text()
    named = [int(n.replace(",", "")) for n in re.findall(r"position ([\d,]+)", text)]
    assert all(n < 50 for n in named), text


def test_zoomed_deep_the_hover_reads_the_detail_shown(main_window, qtbot):
    doc = main_window.document_model
    heat = _heat(main_window)
    assert doc.try_set_params("sinusoidal", n_positions=100_000, d_model=1024)
    wait_idle(qtbot, main_window)
    overview = heat.readout_at(3.5, 50_010.5)
    assert "exact; drawn: every" in overview and "mean" not in overview
    shown = int(re.search(r"position ([\d,]+)", overview)[1].replace(",", ""))
    spec = sinusoidal.FAMILY.make_spec({"n_positions": 100_000, "d_model": 1024})
    assert _value_in(overview) == pytest.approx(float(sinusoidal.FAMILY.rows_at(spec, torch.tensor([shown]))[0, 3]),
                                                abs=1e-4)
    heat.zoom_rows(50_000, 50_100)
    qtbot.waitUntil(lambda: heat.detail_result is not None, timeout=20_000)
    text = heat.readout_at(3.5, 50_010.5)
    assert text.startswith("position 50,010, dimension 3:") and "(" not in text.split(" — ")[0]
    assert _value_in(text) == pytest.approx(float(sinusoidal.FAMILY.rows_at(spec, torch.tensor([50_010]))[0, 3]),
                                            abs=1e-4)


@pytest.mark.all_docks
def test_caption_says_what_was_drawn_and_which_dimensions_alias(main_window, qtbot):
    doc = main_window.document_model
    heat = _heat(main_window)
    assert doc.try_set_params("sinusoidal", n_positions=100_000, d_model=1024)
    wait_idle(qtbot, main_window)
    caption = heat.caption.text()
    view = heat.last_result.view
    assert f"every ~{view.bin_size:,.0f}th position, exact values at those" in caption
    assert "aliased" in caption
    values = heat.image.image
    assert np.abs(values[:, :200]).max() > 0.99  # fast dimensions are not averaged to 0
    assert heat.colorbar.levels() == pytest.approx((-1.0, 1.0), abs=1e-3)


@pytest.mark.parametrize("family, params, row_title, col_title", [
    ("rope", {"n_positions": 50, "head_dim": 64}, "position 10: cos and sin of every pair's angle",
     "cos of pair 3 across positions"),
    ("alibi", {"n_positions": 50}, "query position 10: its bias on every key", "key position 3 across query positions"),
    ("t5", {"n_positions": 50, "show": "bias"}, "query position 10: its bias on every key",
     "key position 3 across query positions"),
])
def test_cross_section_titles_read_right_per_family(main_window, qtbot, family, params, row_title, col_title):
    doc = main_window.document_model
    heat = _heat(main_window)
    assert doc.try_set_family(family) and doc.try_set_params(family, **params)
    wait_idle(qtbot, main_window)
    heat.select(10, 3)
    wait_idle(qtbot, main_window)
    assert heat.row_plot.titleLabel.text == row_title
    assert heat.col_plot.titleLabel.text == col_title
    if family == "t5":
        assert heat.last_result.value_label == "bias"


def test_minilm_cross_sections_use_the_robust_range(main_window, qtbot):
    from tests.gui.test_checkpoint_dock import _open

    path = samples.minilm()
    _open(qtbot, main_window, path)
    wait_idle(qtbot, main_window)
    heat = _heat(main_window)
    low, high = heat.colorbar.levels()
    heat.select(100, 5)
    wait_idle(qtbot, main_window)
    for plot in (heat.row_plot, heat.col_plot):
        y0, y1 = plot.getViewBox().viewRange()[1]
        assert y1 - y0 < 1.3 * (high - low), plot.titleLabel.text  # not the ±2 of a few outliers
        assert "y clipped as the colours" in plot.titleLabel.text


def test_colour_bar_of_alibi_at_100k_draws_every_label(main_window, qtbot):
    """pyqtgraph's 45 px colour-bar axis dropped every label wider than that: ALiBi at 100k
    showed "0" and "−5000" and nothing down to −50,000."""
    from PySide6.QtGui import QImage, QPainter

    doc = main_window.document_model
    heat = _heat(main_window)
    assert doc.try_set_family("alibi") and doc.try_set_params("alibi", n_positions=100_000)
    wait_idle(qtbot, main_window)
    low, high = heat.colorbar.levels()
    assert low < -40_000 and high == 0
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _, _, texts = heat.colorbar.axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    labels = [text for _, _, text in texts]
    assert len(labels) >= 5 and "\u221240k" in labels, labels
    assert all(len(label) <= 5 for label in labels), labels  # −45k, not −45000
