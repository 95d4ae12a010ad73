"""Every plot's axes stay in its layout, so the window's scenes tear down without Python code.

An axis taken out of its plot's layout (to give its cell to a legend or a line of text) became a
free child of the plot.  When the scene was torn down at interpreter exit it resized itself to its
size hint, and its Python ``resizeEvent`` ran on a half-finalised interpreter: the process died
with SIGSEGV after the window closed, in about 7 of 10 runs of test_worker_guard's script mode.
A hidden axis kept in the layout takes no room and is never resized by itself."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QGraphicsView


def _plots(window) -> list[pg.PlotItem]:
    plots = []
    for view in window.findChildren(QGraphicsView):
        scene = view.scene()
        if scene is not None:
            plots += [item for item in scene.items() if isinstance(item, pg.PlotItem)]
    return plots


def _layout_items(layout) -> list:
    return [layout.itemAt(i) for i in range(layout.count())]


@pytest.mark.all_docks
def test_every_axis_of_every_plot_is_in_its_layout(main_window):
    plots = _plots(main_window)
    assert len(plots) > 20  # every panel was built
    loose = []
    for plot in plots:
        laid_out = _layout_items(plot.layout)
        for side, entry in plot.axes.items():
            if not any(item is entry["item"] for item in laid_out):
                loose.append((plot.titleLabel.text, side))
    assert not loose, f"axes outside their plot's layout: {loose}"


def test_a_legend_above_shares_the_hidden_top_axis_cell(qtbot):
    from ui.plotting import legend_above

    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    plot = widget.addPlot()
    legend = legend_above(plot, 2)
    top = plot.getAxis("top")
    assert not top.isVisible()
    assert any(item is top for item in _layout_items(plot.layout))
    assert any(item is legend for item in _layout_items(plot.layout))
