"""The worked-example dock: the article's numbers, RoPE keeping length, and the learned-table error."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QPushButton

from peapp.analysis import worked_example as we
from tests.gui.article_helpers import host, settle
from ui.docks.example import ExampleDock


def _table_row(dock, label):
    table = dock.table
    for r in range(table.rowCount()):
        if table.verticalHeaderItem(r).text() == label:
            return [float(table.item(r, c).toolTip()) for c in range(table.columnCount() - 1)]
    raise AssertionError(f"no row {label!r}")


@pytest.fixture
def dock(qtbot, app_context):
    return host(qtbot, app_context, ExampleDock)


def test_starts_at_the_article_case(dock):
    assert dock.objectName() == "exampleDock"
    np.testing.assert_allclose(_table_row(dock, "embedding"), [0.51, -0.22, 0.88, 0.14])
    np.testing.assert_allclose(_table_row(dock, "+ PE(0)"), [0, 1, 0, 1], atol=1e-6)
    np.testing.assert_allclose(_table_row(dock, "= input at 0"), [0.51, 0.78, 0.88, 1.14], atol=1e-6)
    heights = dock.bars["combined"].opts["height"]
    np.testing.assert_allclose(heights, [0.51, 0.78, 0.88, 1.14], atol=1e-6)
    assert "[0.51, 0.78, 0.88, 1.14]" in dock.caption.text()
    # the same word at position 5 is a different input
    np.testing.assert_allclose(_table_row(dock, "input at 5"),
                               np.array(we.ARTICLE_EMBEDDING) + we.positional_vector("sinusoidal", 5, 4), atol=1e-6)


def test_position_slider_and_rope_keep_length(dock, qtbot, app_context):
    dock.position_slider.setValue(5)
    settle(qtbot, app_context)
    assert app_context.document.view("example", "position") == 5
    np.testing.assert_allclose(_table_row(dock, "+ PE(5)"), we.positional_vector("sinusoidal", 5, 4), atol=1e-6)
    dock.scheme_combo.setCurrentIndex(dock.scheme_combo.findData("rope"))
    settle(qtbot, app_context)
    r = dock.last_result
    assert r.scheme == "rope"
    rotated = _table_row(dock, "rotated at 5")
    assert np.linalg.norm(rotated) == pytest.approx(np.linalg.norm(we.ARTICLE_EMBEDDING), rel=1e-5)
    assert "kept" in dock.pair_plot.titleLabel.text and "Length kept" in dock.caption.text()
    # the pair view draws the embedding and the rotated vector on one circle
    x, y = dock.pair_items["combined"].getData()
    assert np.hypot(x[1], y[1]) == pytest.approx(np.hypot(0.51, -0.22), rel=1e-5)


def test_learned_table_end_shows_the_models_error_and_keeps_the_picture(dock, qtbot, app_context):
    dock.scheme_combo.setCurrentIndex(dock.scheme_combo.findData("learned"))
    settle(qtbot, app_context)
    assert dock.rows_spin.isVisible()
    before = dock.bars["combined"].opts["height"].copy()
    dock.rows_spin.setValue(100)
    dock.position_slider.setValue(100)
    settle(qtbot, app_context)
    assert dock.error_label.isVisible()
    assert "position 100 does not exist" in dock.error_label.text()
    np.testing.assert_array_equal(dock.bars["combined"].opts["height"], before)
    dock.position_slider.setValue(99)
    settle(qtbot, app_context)
    assert not dock.error_label.isVisible() and dock.last_result.position == 99


def test_word_width_and_preset_stay_consistent(dock, qtbot, app_context):
    dock.word_edit.setText("attention")
    dock.word_edit.editingFinished.emit()
    settle(qtbot, app_context)
    assert app_context.document.view("example", "source") == "hashed"
    np.testing.assert_allclose(dock.last_result.embedding, we.semantic_embedding("attention", 4))
    dock.d_spin.setValue(12)
    settle(qtbot, app_context)
    assert dock.table.columnCount() == 13 and len(dock.last_result.embedding) == 12
    app_context.document_model.undo_stack.undo()
    settle(qtbot, app_context)
    assert len(dock.last_result.embedding) == 4 and dock.d_spin.value() == 4
    dock.findChild(QPushButton, "examplePreset").click()
    settle(qtbot, app_context)
    assert dock.word_edit.text() == "DataCamp" and dock.source_combo.currentData() == "article"
    np.testing.assert_allclose(dock.last_result.combined, [0.51, 0.78, 0.88, 1.14], atol=1e-6)


def test_hover_readout_and_export(dock):
    assert dock.readout_at(1.0, 0.5, dock.bars_plot).startswith("dim 1: embedding -0.2200 + PE +1.0000 = +0.7800")
    arrays = dock.shown_arrays()
    np.testing.assert_allclose(arrays["combined"], [0.51, 0.78, 0.88, 1.14], atol=1e-6)
    assert set(arrays) >= {"embedding", "positional", "combined", "other_combined"}
    assert not dock.export_widget().grab().isNull()
    assert "DataCamp" in dock.export_title()
