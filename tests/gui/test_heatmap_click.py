"""Clicking the encoding heatmap the way a mouse does: a press and a release on the plot's
viewport select the cell under the pointer, and both cross-sections follow it."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt

from peapp.encodings import sinusoidal
from tests.conftest import wait_idle


def _click_cell(qtbot, heat, x: float, y: float) -> None:
    """Press and release the left button on the viewport over data point (x, y)."""
    scene_point = heat.plot.getViewBox().mapViewToScene(QPointF(x, y))
    pos = heat.graphics.mapFromScene(scene_point)
    viewport = heat.graphics.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=pos)


@pytest.mark.parametrize("family", ["sinusoidal", "rope", "alibi"])
def test_a_mouse_click_on_the_heatmap_moves_both_cross_sections(main_window, qtbot, family):
    heat = main_window.docks["heatmapDock"]
    assert main_window.document_model.try_set_family(family)
    wait_idle(qtbot, main_window)
    errors: list[str] = []
    main_window.statusBar().messageChanged.connect(lambda text: errors.append(text) if "error" in text else None)
    view = heat.last_result.view
    position, column = view.row_start + 23, view.col_start + 9
    assert heat._selected != (position, column)
    _click_cell(qtbot, heat, column + 0.5, position + 0.5)
    qtbot.waitUntil(lambda: heat._selected == (position, column), timeout=3000)
    wait_idle(qtbot, main_window)
    assert errors == []
    assert heat.row_line.value() == pytest.approx(position + 0.5)
    assert heat.col_line.value() == pytest.approx(column + 0.5)
    assert heat.row_plot.titleLabel.text.startswith(f"position {position}") or str(position) in \
        heat.row_plot.titleLabel.text
    _, row = heat.row_curve.getData()
    np.testing.assert_allclose(row, view.values[position - view.row_start], atol=1e-5)
    _, col = heat.col_curve.getData()
    np.testing.assert_allclose(col, view.values[:, view.col_index(column)], atol=1e-5)


def test_the_clicked_row_is_the_exact_table_row(main_window, qtbot):
    heat = main_window.docks["heatmapDock"]
    wait_idle(qtbot, main_window)
    _click_cell(qtbot, heat, 40.5, 31.5)
    qtbot.waitUntil(lambda: heat._selected == (31, 40), timeout=3000)
    wait_idle(qtbot, main_window)
    np.testing.assert_allclose(heat.row_curve.getData()[1], sinusoidal.table(50, 128)[31].numpy(), atol=1e-6)
    np.testing.assert_allclose(heat.col_curve.getData()[1], sinusoidal.table(50, 128)[:, 40].numpy(), atol=1e-6)
