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
