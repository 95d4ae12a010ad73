"""Log axes label their ticks as plain numbers where those are short."""

from __future__ import annotations

import pyqtgraph as pg

from ui.plotting import configure_axes, plain_log_tick


def test_log_ticks_read_20_to_60_not_powers_of_ten(qapp):
    configure_axes()
    axis = pg.AxisItem("left")
    axis.setLogMode(True)
    values = [1.0 + __import__("math").log10(m) for m in range(2, 7)]  # 20 … 60
    assert axis.tickStrings(values, 1.0, 0.1) == ["20", "30", "40", "50", "60"]
    assert [plain_log_tick(x) for x in (0.05, 1000.0, 2.5)] == ["0.05", "1,000", "2.5"]
    assert plain_log_tick(1e8) is None  # long: pyqtgraph's own form


def _drawn(axis: pg.AxisItem) -> list:
    from PySide6.QtGui import QImage, QPainter

    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        return [(rect, text) for rect, _, text in axis.generateDrawSpecs(painter)[2] if text]
    finally:
        painter.end()


def test_log_tick_labels_never_overlap_where_a_decade_is_crowded(qtbot):
    """Run on text's distance axis at 1366 × 768 (0.9 … 600 in ~540 px) drew every minor label:
    "0.91", "5060708090100", "400500600".  The decades stay, minor labels only where they fit."""
    configure_axes()
    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    plot = widget.addPlot()
    plot.setLogMode(x=True, y=False)
    plot.plot([1, 10, 100, 511], [1, 2, 3, 4])
    plot.setXRange(__import__("math").log10(0.85), __import__("math").log10(650), padding=0)
    widget.resize(600, 300)
    widget.show()
    qtbot.waitExposed(widget)
    labels = _drawn(plot.getAxis("bottom"))
    texts = [text for _, text in labels]
    assert {"1", "10", "100", "2", "20"} <= set(texts), texts
    rects = sorted((rect for rect, _ in labels), key=lambda r: r.left())
    for a, b in zip(rects, rects[1:]):
        assert a.right() <= b.left(), texts
