"""Small pyqtgraph helpers shared by the docks (hover hit-testing, titles, log axes)."""

from __future__ import annotations

import math
from typing import Iterable, TypeVar

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt

K = TypeVar("K")

# 10**x overflows a float past ~308; hover positions on a zoomed-out log axis can get there.
_MAX_LOG10 = 300.0


def relax_title_width(plot: pg.PlotItem, justify: str | None = None) -> None:
    """Keep a plot's title from becoming its column's minimum width.

    pyqtgraph's LabelItem reports its text width as its minimum size (re-set on every text
    change and resize), so in a narrow dock long titles would push the plots past the right
    edge.  Here the title may be clipped instead.  ``justify="left"`` keeps the start of a
    clipped title readable (e.g. a panel letter).
    """
    label = plot.titleLabel
    update_min = label.updateMin

    def relaxed() -> None:
        update_min()
        label._sizeHint[Qt.SizeHint.MinimumSize] = (0, label._sizeHint[Qt.SizeHint.MinimumSize][1])
        label.setMinimumWidth(0)
        label.updateGeometry()

    label.updateMin = relaxed
    label.setFlag(label.GraphicsItemFlag.ItemClipsChildrenToShape, True)  # a clipped title never overlaps
    if justify is not None:
        label.opts["justify"] = justify
    relaxed()


def plot_at(scene_pos: QPointF, plots: Iterable[tuple[K, pg.PlotItem]]) -> tuple[K, QPointF] | None:
    """The first ``(key, plot)`` whose area holds ``scene_pos``: ``(key, point in its data
    coordinates)``, or None.  Hidden plots are skipped."""
    for key, plot in plots:
        if plot.isVisible() and plot.sceneBoundingRect().contains(scene_pos):
            return key, plot.getViewBox().mapSceneToView(scene_pos)
    return None


def pow10(x: float) -> float:
    """10**x for a log-axis coordinate, clamped so that a far zoom-out cannot overflow."""
    return math.pow(10.0, min(max(float(x), -_MAX_LOG10), _MAX_LOG10))
