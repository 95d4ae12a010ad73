"""The attention inspector's views that hold no state of the panel: its token and decade axes,
the reflowing strip of plots, the matrix's size hint, colour levels, and the captions of the
received-attention plot."""

from __future__ import annotations

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import (QGridLayout, QWidget)

from peapp.i18n import translate
from peapp.analysis import attention as A
from peapp.analysis.levels import colour_levels
from ui.plotting import let_end_labels_reach


# The strip of plots below the matrix: each plot at least this wide and high; they wrap onto more rows
# when the panel is narrower than all of them side by side (at 1366 px the 4th and 5th were cut off).
STRIP_PLOT_WIDTH, STRIP_PLOT_HEIGHT = 200, 150


def _shown(values: np.ndarray, kind: str, log: bool) -> np.ndarray:
    """What the image draws: the values, or log₁₀ of attention weights (0 drawn at the floor)."""
    if kind == "softmax" and log:
        return np.log10(np.maximum(values, 1e-30))
    return values


def _levels(values: np.ndarray, kind: str, unit: bool = False, log: bool = False) -> tuple[tuple[float, float], bool]:
    """Colour levels and whether they are diverging, by the app's one policy
    (``peapp.analysis.levels``): weights on the "weights" scale (0 … 1 or 0 … the largest, or
    LOG_DECADES decades on a log scale), logits and position terms "signed" — exact ranges, not
    clipped: the extremes of a matrix are what it is read for.  ``values`` are the data, not the log."""
    shown = colour_levels(values, "weights" if kind == "softmax" else "signed", robust=False, unit=unit, log=log)
    return shown.levels, shown.diverging


def _nice_step(minimum: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … that is at least ``minimum``."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= minimum:
                return step * factor
        step *= 10


class TokenAxis(pg.AxisItem):
    """An axis of the matrix: a tick at the centre of each token's cell (position p spans
    [p, p + 1)), labelled with its position — and with its word for sentence tokens — and
    thinned to every 2nd, 5th, 10th … token when the labels would overlap."""

    def __init__(self, orientation: str, **kwargs: Any) -> None:
        super().__init__(orientation, **kwargs)
        self.view: A.AttentionView | None = None

    def set_view(self, view: A.AttentionView | None) -> None:
        self.view = view
        if view is not None:  # the first label, as drawn when thinned (it then says its position too)
            let_end_labels_reach(self, self.label_for(0, 2))
        self.picture = None
        self.update()

    def step_for(self, size: float, span: float) -> int:
        """Tokens between labels for an axis ``size`` pixels long showing ``span`` positions."""
        view = self.view
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        if self.orientation in ("left", "right"):
            need = metrics.height() * 1.2
        else:
            widest = max((metrics.horizontalAdvance(self.label_for(p, 2)) for p in
                          ([view.spec.seq_len - 1] + [i for i in range(min(len(view.words), 64))])), default=20.0)
            need = widest + 10
        return _nice_step(need * span / max(size, 1.0))

    def label_for(self, position: int, step: int) -> str:
        view = self.view
        word = view.token(position) if view is not None and view.words else ""
        if not word:
            return f"{position:,}"
        return word if step == 1 else f"{position:,} {word}"  # thinned: say which position it is

    def tickValues(self, minVal: float, maxVal: float, size: float):
        view = self.view
        minVal, maxVal = min(minVal, maxVal), max(minVal, maxVal)  # an inverted axis gives them reversed
        if view is None or maxVal <= minVal:
            return super().tickValues(minVal, maxVal, size)
        first, last = max(0, math.floor(minVal - 0.5)), min(view.spec.seq_len - 1, math.ceil(maxVal))
        step = self.step_for(size, maxVal - minVal)
        start = -(-first // step) * step
        return [(float(step), [p + 0.5 for p in range(start, last + 1, step) if minVal <= p + 0.5 <= maxVal])]

    def tickStrings(self, values, scale, spacing):
        step = max(1, int(round(spacing)))
        return [self.label_for(int(math.floor(v)), step) for v in values]


def _superscript(n: int) -> str:
    return str(n).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


class DecadeAxis(pg.AxisItem):
    """A log axis labelled at whole decades only (1, 0.1, 0.01, 10⁻³ …), as many as fit: the
    default one labels 2 … 9 of every decade too, and on a short plot they stacked into a blob."""

    def logTickValues(self, minVal, maxVal, size, stdTicks):
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        decades = max(maxVal - minVal, 1e-9)
        fit = max(1.0, size / (metrics.height() * 1.6))
        step = _nice_step(decades / fit)
        start = math.ceil(minVal / step) * step
        return [(float(step), [float(v) for v in range(int(start), int(math.floor(maxVal)) + 1, step)])]

    def logTickStrings(self, values, scale, spacing):
        return [("1" if v == 0 else f"{10.0 ** v:g}" if v >= -2 else f"10{_superscript(int(v))}") for v in values]


class CompactGraphics(pg.GraphicsLayoutWidget):
    """A graphics view that asks for no more than its minimum size: in the panel's scroll area the
    preferred sizes set the scrolled height, so the matrix grows only into room that is there."""

    def sizeHint(self) -> QSize:
        return self.minimumSize()


class ReflowStrip(QWidget):
    """Plots side by side as long as each gets ``STRIP_PLOT_WIDTH``, wrapping onto more rows
    when the panel is narrower (the panel scrolls when they do not fit its height)."""

    def __init__(self, widgets: list[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.widgets = widgets
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(2)
        self._columns = 0
        self._placed: tuple[QWidget, ...] = ()
        self._left_out: set[int] = set()  # indices of the plots not shown now (set_shown)
        for widget in widgets:
            widget.setMinimumSize(STRIP_PLOT_WIDTH, STRIP_PLOT_HEIGHT)
        self.reflow()

    def visible_widgets(self) -> list[QWidget]:
        return [w for i, w in enumerate(self.widgets) if i not in self._left_out]

    def set_shown(self, widget: QWidget, shown: bool) -> None:
        """Show or leave out one plot; the others close the gap."""
        index = self.widgets.index(widget)
        (self._left_out.discard if shown else self._left_out.add)(index)
        widget.setVisible(shown)
        self.reflow()

    def columns_for(self, width: int) -> int:
        """Plots per row in a strip ``width`` pixels wide."""
        return max(1, min(len(self.visible_widgets()), (width + 2) // (STRIP_PLOT_WIDTH + 2)))

    def reflow(self, width: int | None = None) -> None:
        shown = self.visible_widgets()
        columns = self.columns_for(self.width() if width is None else width)
        if columns == self._columns and tuple(shown) == self._placed:
            return
        self._columns, self._placed = columns, tuple(shown)
        for widget in self.widgets:
            self.grid.removeWidget(widget)
        for i, widget in enumerate(shown):
            self.grid.addWidget(widget, i // columns, i % columns)
        for c in range(self.grid.columnCount()):
            self.grid.setColumnStretch(c, 1 if c < columns else 0)
        rows = -(-len(shown) // columns)
        self.setMinimumHeight(max(0, rows * STRIP_PLOT_HEIGHT + (rows - 1) * 2))

    def sizeHint(self) -> QSize:
        return QSize(STRIP_PLOT_WIDTH, self.minimumHeight())

    @property
    def rows(self) -> int:
        shown = self.visible_widgets()
        return -(-len(shown) // max(1, self._columns)) if shown else 0

    def resizeEvent(self, event) -> None:
        self.reflow(event.size().width())
        super().resizeEvent(event)


_VIEW_KINDS = {"attention": "softmax", "attention-logits": "logits", "attention-position": "position"}


def received_caption(view: A.AttentionView, head: int) -> str:
    """What the "attention each key receives" plot shows, and what it does not."""
    rows = len(view.entropy_positions)
    over = (translate("Attention", "all {n} queries") if rows == view.spec.seq_len
            else translate("Attention", "{n} evenly spaced queries")).format(n=f"{rows:,}")
    summary = A.received_summary(view.received[head])
    text = translate("Attention", "Attention each key receives, head {head} (log scale): orange = mean over "
                     "{over}").format(head=head, over=over)
    text += (f" ({summary})" if summary else "") + translate("Attention", "; blue = the last query")
    if view.spec.causal:
        text += translate("Attention", "; dashed = the causal mask alone, uniform attention: (1/L)·Σ_{i≥j} 1/(i+1). "
                          "The mask lets early keys collect weight from every later query (primacy)")
    text += translate("Attention", "; distance decay (ALiBi, RoPE's long-range decay) favours recent keys (recency): "
                      "a mechanism for a U shape, computed from the encoding alone in one seeded, untrained layer. The "
                      "U-shaped accuracy curve itself (a passage is used best at the start or end of a long prompt, "
                      "worst in the middle) is an empirical result of Liu et al. 2023 (\"Lost in the Middle\") on "
                      "trained models, not reproduced here.")
    return text


def received_short_caption(view: A.AttentionView, head: int) -> str:
    """Two lines under the plots; the full caption is the tooltip."""
    summary = A.received_summary(view.received[head])
    text = translate("Attention", "Attention each key receives, head {head}").format(head=head)
    text += f": {summary}" if summary else ""
    text += (translate("Attention", ". Orange: mean over queries; blue: last query. The primacy from the causal mask "
                       "and recency from distance decay are computed from the encoding alone; the U-shaped accuracy "
                       "curve is an empirical result of Liu et al. 2023 (\"Lost in the Middle\") on trained models, "
                       "not shown here. Hover for details.") if view.spec.causal else
             translate("Attention", ". Orange: mean over queries; blue: last query. The recency from distance decay "
                       "is computed from the encoding alone; the U-shaped accuracy curve is an empirical result of "
                       "Liu et al. 2023 (\"Lost in the Middle\") on trained models, not shown here. Hover for "
                       "details."))
    return text
