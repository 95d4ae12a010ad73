"""The time-series dock: sample and user CSVs, bad rows listed, encodings and similarity vs gap."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from peapp.analysis import timeseries as ts
from tests.gui.article_helpers import host, settle
from ui.docks.timeseries import TimeSeriesDock


@pytest.fixture
def dock(qtbot, app_context):
    return host(qtbot, app_context, TimeSeriesDock)


def test_sample_series_with_its_bad_rows(dock):
    assert dock.objectName() == "timeSeriesDock"
    r = dock.last_result
    assert r.series.source == ts.SAMPLE_NAME and r.series.bad_count == 2
    report = dock.bad_rows.toPlainText()
    assert "line 152" in report and "line 382: empty timestamp" in report
    cells, cols = r.matrix.shape
    assert dock.image.image.shape == (cols, cells) and cols == 32
    assert np.isnan(dock.image.image).any()  # outages stay blank
    assert [dock.time_combo.itemText(i) for i in range(dock.time_combo.count())] == \
        ["timestamp", "temperature_c", "humidity_pct"]
    assert "2 bad rows" in dock.caption.text()


def test_user_csv_with_numeric_times_and_bad_rows(dock, qtbot, app_context, tmp_path):
    path = tmp_path / "readings.csv"
    path.write_text("load,elapsed_s\n1.5,0\n2.5,60\noops,abc\n3.0,150.5\n4.0\n2.0,400\n", encoding="utf-8")
    dock.open_csv(str(path))  # the header is read off the GUI thread
    settle(qtbot, app_context)
    r = dock.last_result
    assert r.series.time_column == "elapsed_s" and r.series.value_column == "load"
    np.testing.assert_allclose(r.series.times, [0, 60, 150.5, 400])
    assert [b.line for b in r.series.bad_rows] == [4, 6]
    assert "line 4" in dock.bad_rows.toPlainText() and "line 6" in dock.bad_rows.toPlainText()
    # sinusoidal over real time: sample 2 sits at 150.5 s, not at position 2
    dock.unit_combo.setCurrentIndex(dock.unit_combo.findData("seconds"))
    settle(qtbot, app_context)
    expected = ts.sinusoidal_time(np.array([0.0, 60.0, 150.5, 400.0]), 32)
    r = dock.last_result
    present = r.matrix_index >= 0
    np.testing.assert_allclose(r.matrix[present], expected[r.matrix_index[present]], atol=1e-6)
    # calendar cycles need dates: a clear message, and the last picture stays
    shown = dock.image.image.copy()
    dock.kind_combo.setCurrentIndex(dock.kind_combo.findData("calendar"))
    settle(qtbot, app_context)
    assert dock.error_label.isVisible() and "unix_seconds" in dock.error_label.text()
    np.testing.assert_array_equal(dock.image.image, shown)
    dock.number_combo.setCurrentIndex(dock.number_combo.findData("unix_seconds"))
    settle(qtbot, app_context)
    assert not dock.error_label.isVisible() and dock.last_result.matrix.shape[1] == 6


def test_unreadable_file_keeps_the_previous_view(dock, qtbot, app_context, tmp_path):
    bad = tmp_path / "binary.csv"
    bad.write_bytes(b"\xff\xfe\x00\x01garbage\n")
    before = dock.last_result
    dock.open_csv(str(bad))
    settle(qtbot, app_context)
    assert dock.error_label.isVisible() and "UTF-8" in dock.error_label.text()
    assert app_context.document.view("timeseries", "path", "") == ""
    assert dock.last_result is before
    dock.use_sample()
    settle(qtbot, app_context)
    assert dock.last_result.series.source == ts.SAMPLE_NAME and not dock.error_label.isVisible()


def test_pick_two_samples_hover_and_export(dock, qtbot, app_context):
    dock.pick_b.setValue(30)
    settle(qtbot, app_context)
    r = dock.last_result
    a, b, gap, sim = r.pick
    assert (a, b) == (0, 30) and gap == pytest.approx(r.tau[30] - r.tau[0])
    x, y = dock.pick_point.getData()
    assert (x[0], y[0]) == pytest.approx((gap, sim))
    gap_cell = int(np.flatnonzero(r.matrix_index < 0)[0])
    assert "no sample here" in dock.describe("heat", float(r.grid_tau[gap_cell]), 0.5)
    first = dock.describe("heat", float(r.grid_tau[0]), 0.5)
    assert first.startswith("sample 0, 2024-03-04 01:02 UTC") and "sin 0" in first
    assert dock.readout_at(24.0, 0.5, dock.sim_plot).startswith("gap 24.")
    arrays = dock.shown_arrays()
    assert arrays["encoding"].shape == r.matrix.shape and len(arrays["values"]) == len(r.series)
    assert not dock.export_widget().grab().isNull()


def test_settings_live_in_the_document_and_restore_from_a_session(dock, qtbot, app_context):
    from peapp.document import Document

    dock.kind_combo.setCurrentIndex(dock.kind_combo.findData("time2vec"))
    dock.k_spin.setValue(8)
    settle(qtbot, app_context)
    saved = app_context.document.to_json()
    assert '"kind": "time2vec"' in saved and '"k": 8' in saved
    app_context.document_model.replace_without_undo(Document())
    settle(qtbot, app_context)
    assert dock.kind_combo.currentData() == "sinusoidal" and dock.last_result.encoding.kind == "sinusoidal"
    app_context.document_model.replace_without_undo(Document.from_json(saved))
    settle(qtbot, app_context)
    assert dock.kind_combo.currentData() == "time2vec" and dock.k_spin.value() == 8
    assert dock.last_result.encoding.k == 8 and dock.last_result.matrix.shape[1] == 8


def test_dropping_a_csv_on_the_dock_opens_it(dock, qtbot, app_context, tmp_path):
    from PySide6.QtCore import QMimeData, QPoint, QUrl
    from PySide6.QtGui import QDropEvent

    path = tmp_path / "dropped.csv"
    path.write_text("when,v\n2024-05-01T00:00:00Z,1\n2024-05-01T03:00:00Z,2\n", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    dock.dropEvent(event)
    settle(qtbot, app_context)
    assert event.isAccepted() and dock.last_result.series.source == "dropped.csv"
    assert app_context.document.view("timeseries", "time_column") == "when"
    other = QMimeData()
    other.setUrls([QUrl.fromLocalFile(str(tmp_path / "model.safetensors"))])
    ignored = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, other, Qt.MouseButton.NoButton,
                         Qt.KeyboardModifier.NoModifier)
    dock.dropEvent(ignored)
    assert not ignored.isAccepted()
