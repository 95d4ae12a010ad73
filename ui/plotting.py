"""Small pyqtgraph helpers shared by the docks (hover hit-testing, titles, log axes)."""

from __future__ import annotations

import math
from typing import Callable, Iterable, Sequence, TypeVar

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLayoutItem

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


def configure_axes() -> None:
    """Every pyqtgraph axis the app makes: cached as a pixmap, and no automatic SI scale.

    No SI scale: the app's values are unitless, and pyqtgraph relabels an axis whose values
    stay within ±1 as "value (x0.001)" with ticks −900…900 (seen on the heatmap's colour bar).

    Cached (Qt's DeviceCoordinateCache): an axis replays its tick labels (text) whenever any neighbouring item repaints, ~1.3 ms
    an axis; cached, it is redrawn only when its own ticks or label change.  Measured on the
    heatmap: edit → repaint 27–31 ms → 19–21 ms.  Exports switch the cache off while they paint
    (``ui.export``), so SVG/PDF axes stay text.  pyqtgraph has no option for this, hence the
    wrapped constructor (called once, from ui.docks.base).
    """
    if getattr(pg.AxisItem, "_peapp_configured", False):
        return
    original = pg.AxisItem.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.enableAutoSIPrefix(False)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    pg.AxisItem.__init__ = init
    original_log = pg.AxisItem.logTickStrings

    def log_tick_strings(self, values, scale, spacing):
        # plain numbers where they are short (20 … 60, 0.5, 1,000), pyqtgraph's 2·10¹ elsewhere
        texts = [plain_log_tick(10.0 ** float(v) * scale) or text
                 for v, text in zip(values, original_log(self, values, scale, spacing))]
        return _uncrowded_log_ticks(self, list(values), texts)

    pg.AxisItem.logTickStrings = log_tick_strings
    pg.AxisItem._peapp_configured = True


_MANTISSA_ORDER = (1, 2, 5, 3, 4, 6, 7, 8, 9)  # which minor log ticks keep their label first


def _uncrowded_log_ticks(axis: pg.AxisItem, values: list[float], texts: list[str]) -> list[str]:
    """A log axis's minor tick labels, blank where they would overlap a decade's or each other's.

    pyqtgraph draws a level of labels whole or not at all, judged by their total width; the
    short plain labels passed that test and, crowded at the top of each decade, were drawn over
    one another ("5060708090100").  Here the decades keep their labels (drawn or not by
    pyqtgraph as before) and a minor one is kept, 2 and 5 first, where it has room."""
    horizontal = axis.orientation in ("top", "bottom")
    length = axis.width() if horizontal else axis.height()
    lo, hi = sorted(float(v) for v in axis.range)
    if length <= 0 or hi <= lo or all(float(v).is_integer() for v in values):
        return texts
    from PySide6.QtGui import QFontMetricsF

    metrics = QFontMetricsF(axis.style.get("tickFont") or axis.font())
    gap = metrics.horizontalAdvance(" ") if horizontal else 0.0

    def extent(value: float, text: str) -> tuple[float, float]:
        centre = (value - lo) / (hi - lo) * length
        half = (metrics.horizontalAdvance(text) if horizontal else metrics.height() * 0.8) / 2 + gap
        return centre - half, centre + half

    taken = [extent(float(k), plain_log_tick(10.0 ** k) or "10") for k in range(math.ceil(lo), math.floor(hi) + 1)]
    kept = list(texts)
    order = sorted(range(len(values)), key=lambda i: (not float(values[i]).is_integer(),
                                                      _MANTISSA_ORDER.index(_mantissa(values[i]))))
    for i in order:
        if not texts[i]:
            continue
        span = extent(float(values[i]), texts[i])
        if float(values[i]).is_integer():
            continue  # a decade: its room is taken above
        if any(span[0] < b and a < span[1] for a, b in taken):
            kept[i] = ""
        else:
            taken.append(span)
    return kept


def _mantissa(value: float) -> int:
    """The leading digit 1 … 9 of 10**value."""
    digit = int(round(10.0 ** (float(value) - math.floor(float(value)))))
    return digit if 1 <= digit <= 9 else 1


def plain_log_tick(x: float) -> str | None:
    """A log axis's tick value as people write it (20, 300, 0.05, 10,000) when that is short,
    else None: pyqtgraph wrote the minor ticks of 10 … 100 as "2·10¹ … 6·10¹"."""
    if not math.isfinite(x) or x <= 0 or not 1e-3 <= x < 1e6:
        return None
    if x >= 1 and abs(x - round(x)) <= 1e-6 * x:
        return f"{round(x):,}"
    return f"{x:.2g}" if x < 1 else f"{x:,.3g}"


def draw_as_path(item: pg.PlotDataItem | pg.PlotCurveItem) -> pg.PlotDataItem | pg.PlotCurveItem:
    """Draw a curve as one path: for dashed or dotted pens (separate segments, the app's default,
    would restart the dash pattern at every point) and translucent ones (where segments overlap,
    their ends would show as darker beads)."""
    curve = item.curve if isinstance(item, pg.PlotDataItem) else item
    curve.setSegmentedLineMode("off")
    return item


def set_axis_label(axis: pg.AxisItem, text: str) -> None:
    """Set an axis label only if it changed: every setLabel re-lays out the axis and repaints
    its whole plot (a third of the heatmap's redraw when done on every edit)."""
    if axis.labelText != text or not axis.label.isVisible():
        axis.setLabel(text)


def set_curve(item: pg.PlotDataItem, x: np.ndarray, y: np.ndarray) -> None:
    """Set a curve's data unless it already shows exactly these points: pyqtgraph redraws and
    re-ranges on every setData (a cross-section that an edit did not change cost ~4 ms a paint)."""
    old_x, old_y = item.getOriginalDataset()  # getData() is the downsampled display data
    if old_x is not None and np.array_equal(old_x, x) and np.array_equal(old_y, y):
        return
    item.setData(x, y)


def set_title(plot: pg.PlotItem, text: str) -> None:
    """Set a plot title only if it changed (see set_axis_label)."""
    if plot.titleLabel.text != text or not plot.titleLabel.isVisible():
        plot.setTitle(text)


def fit_title_height(plot: pg.PlotItem) -> None:
    """Give a plot's title row the title's height (at least pyqtgraph's 30 px).

    ``PlotItem.setTitle`` fixes that row, and the title's height, at 30 px: a two-line title
    (a legend line under it) was clipped at the top and bottom of the row, which in Hindi cut
    the vowel signs and nasal marks above the letters ("पोज़िशन" read "पाज़िशन", "ले" "ल")."""
    label = plot.titleLabel
    height = max(30.0, float(math.ceil(label.itemRect().height())))
    if label.maximumHeight() != height:
        label.setMaximumHeight(height)
        plot.layout.setRowFixedHeight(0, height)


def span_title(plot: pg.PlotItem) -> None:
    """Give a plot's title the plot's whole width (over its axes), not only the view box's: the
    patch grid's map titles ("A: patch (0,0) vs all") lost their last word at 1366 px.

    Not wrapped onto more lines: a title whose height follows its width fed back into
    :func:`fit_plots_to_aspect` (a wrap shrinks the view box, the fit widens it, the title unwraps,
    …) and the event loop never settled.  A title still too wide is clipped; its tooltip has it."""
    label = plot.titleLabel
    plot.layout.removeItem(label)
    plot.layout.addItem(label, 0, 0, 1, 3)


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


def compact_number(value: float, spacing: float, magnitude: float = 0.0) -> str:
    """A tick label that stays short at any magnitude: −50k, 22.5k, 1.5M, 0.003 (unicode minus);
    as many decimals as ticks ``spacing`` apart need to read distinct.  ``magnitude`` (the axis's
    largest value) keeps one style along an axis: −5k beside −45k, not −5000."""
    magnitude = max(abs(value), abs(spacing), abs(magnitude))
    # thousands from 10,000 on (four digits read at a glance), millions and billions from 1 of them
    scale, suffix = next(((scale, suffix) for scale, suffix, start in ((1e9, "G", 1e9), (1e6, "M", 1e6), (1e3, "k", 1e4))
                          if magnitude >= start), (1.0, ""))
    scaled, step = value / scale, abs(spacing) / scale
    text = f"{scaled:.0f}"
    for digits in range(0, 7):
        text = f"{scaled:.{digits}f}"
        if abs(float(text) - scaled) <= 1e-3 * step or step == 0:
            break
    if float(text) == 0:
        text = "0"
    return (text + suffix if text != "0" else text).replace("-", "\u2212")


def fit_colorbar_axis(colorbar: pg.ColorBarItem) -> None:
    """Colour-bar labels that are all drawn: short (compact_number) and an axis wide enough for
    the widest.  pyqtgraph gives a colour bar a fixed 45 px axis and silently drops every label
    wider than that (ALiBi at 100k drew "0" and "−5000" and none of −10000 … −50000)."""
    axis = colorbar.axis
    if not getattr(axis, "_peapp_compact", False):
        def strings(values, scale, spacing):
            top = max(abs(v) for v in colorbar.levels())
            return [compact_number(v * scale, spacing * scale, top) for v in values]

        axis.tickStrings = strings
        axis._peapp_compact = True
    low, high = colorbar.levels()
    spacing = max(abs(high - low), 1e-12) / 4
    font = axis.style.get("tickFont") or axis.font()
    metrics = __import__("PySide6.QtGui", fromlist=["QFontMetrics"]).QFontMetrics(font)
    top = max(abs(low), abs(high))
    widest = max(metrics.horizontalAdvance(compact_number(v, spacing, top)) for v in (low, high, (low + high) / 2))
    width = int(widest + max(0, axis.style["tickLength"]) + axis.style["tickTextOffset"][0] + 10)
    if axis.width() != width:
        axis.setWidth(max(45, width))


def cell_ticks(axis: pg.AxisItem, n: int, labels: Sequence[str] | None = None, most: int = 8) -> None:
    """Label a grid map's ``n`` cells along ``axis`` at their centres (cell i spans i … i + 1, as the
    maps are drawn); ``labels[i]`` names cell i (default: its index).

    pyqtgraph's own ticks sat on the cells' edges and ran one past them ("head 0 … 9" for nine
    heads, "layer 0 … 30" for thirty).  Every cell whose label has room gets it: at most ``most``
    round-numbered cells (0, 5, 10, … for thirty layers) are always labelled, the others as a
    second tick level that pyqtgraph draws while all the labels take at most 80 % of the axis,
    so the labels thin out as the plot gets short, never overlap and never skip cells that fit.
    One convention for every grid map: head grid, head classes, sink shares, RoPE pairs."""
    names = list(labels) if labels is not None else [str(i) for i in range(n)]
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10**4, 10**9)
                if math.ceil(n / s) <= max(1, most))
    major = [(i + 0.5, names[i]) for i in range(0, n, step)]
    minor = [(i + 0.5, names[i]) for i in range(n) if i % step]
    axis.setTicks([major, minor])
    axis.setStyle(textFillLimits=[(0, 0.8)])


END_LABEL_REACH_MAX = 48  # px: no wider than a token axis beside it, so a label stays over the empty corner


def let_end_labels_reach(axis: pg.AxisItem, first_label: str) -> None:
    """Let a horizontal axis's end labels reach past its ends by half the first label's width.

    pyqtgraph drops a tick label that would extend past its axis, so on a token axis the first
    label (centred half a cell from the start) was dropped whenever it was wider than a cell,
    though the corner under the vertical axis is empty.  pyqtgraph's own ``hideOverlappingLabels``
    margin lets it reach into that corner (at both ends, by the same amount).  Called by the code
    that gives the axis its labels, not from an override of ``boundingRect``: Qt calls those while
    it destroys a scene, and Python code run there crashed the app at exit."""
    if axis.orientation not in ("top", "bottom"):  # a vertical one would reach into the title
        return
    metrics = QFontMetricsF(axis.style.get("tickFont") or axis.font())
    reach = min(END_LABEL_REACH_MAX, int(math.ceil(metrics.horizontalAdvance(first_label) / 2)) + 1)
    if axis.style["hideOverlappingLabels"] != reach:
        axis.prepareGeometryChange()  # the bounding rectangle grows by ``reach`` at both ends
        axis.setStyle(hideOverlappingLabels=reach)


def legend_above(plot: pg.PlotItem, columns: int) -> pg.LegendItem:
    """A legend in its own row between the plot's title and its data (the row of the unused top
    axis), entries side by side: a legend anchored inside the view box sat over the data (the
    spectrum's context line, its decay curves), more so in a small export.  Curves plotted
    with a ``name`` are added to it, as with ``PlotItem.addLegend``."""
    legend = pg.LegendItem(offset=None, labelTextSize="8pt", colCount=columns, verSpacing=-6)
    in_axis_cell(plot, "top", legend, Qt.AlignmentFlag.AlignLeft)  # that axis is unused in these plots
    plot.legend = legend
    return legend


def in_axis_cell(plot: pg.PlotItem, side: str, item: QGraphicsLayoutItem,
                 alignment: Qt.AlignmentFlag | None = None) -> None:
    """Hide ``plot``'s axis on ``side`` and lay ``item`` out in that axis's cell.

    The axis moves to a row of its own under the plot but stays in the layout, where a hidden
    item takes no room and is never resized by itself.  Taken out of the layout, it was a free
    child of the plot that resized itself to its size hint when the scene was torn down at exit,
    and its Python ``resizeEvent`` then ran on a half-finalised interpreter: a segmentation fault
    after the window closed (tests/gui/test_worker_guard.py, test_plot_teardown.py)."""
    axis = plot.getAxis(side)
    axis.hide()
    row, column = plot.axes[side]["pos"]
    plot.layout.removeItem(axis)
    parked = (max(plot.layout.rowCount(), row + 1), column)  # a grid cell holds one item
    plot.layout.addItem(axis, *parked)
    plot.axes[side]["pos"] = parked
    if alignment is None:  # the item fills the cell
        plot.layout.addItem(item, row, column)
    else:
        plot.layout.addItem(item, row, column, alignment=alignment)


def fit_plots_to_aspect(container: pg.GraphicsLayout,
                        plots: list[tuple[pg.PlotItem, Callable[[], float | None]]]) -> Callable[[], None]:
    """Shrink aspect-locked plots in their cells of ``container`` until each view box has its
    data's aspect (height / width, from the plot's function; None = leave it as laid out).

    A locked aspect in a cell of another shape widens the other axis instead: a 224 px image
    in a tall cell was labelled −150 … 350 px.  Every plot's maximum size is lifted, the layout
    settles, and each plot's surplus side is taken off; the spare room stays in the cell.  All
    plots are fitted together from the unconstrained layout, so the result depends on the
    container's size only (not on the order or on earlier sizes: a figure must not depend on the
    window).  It runs whenever the container's geometry or a plot's view box changes (a resize,
    an export at the figure size, axis labels in another language); call the returned function
    when a data shape changes.
    """
    busy = False

    def fit() -> None:
        nonlocal busy
        if busy:
            return
        busy = True
        try:
            for plot, _ in plots:
                plot.setMaximumSize(_UNBOUNDED, _UNBOUNDED)
            container.layout.activate()
            limits = []
            for plot, aspect in plots:
                ratio = aspect()
                box = plot.getViewBox().size()
                if ratio is None or ratio <= 0 or plot.parentLayoutItem() is None or min(box.width(), box.height()) < 1:
                    continue
                size = plot.size()
                if box.height() > box.width() * ratio:
                    limits.append((plot.setMaximumHeight, size.height() - (box.height() - box.width() * ratio)))
                elif box.width() > box.height() / ratio:
                    limits.append((plot.setMaximumWidth, size.width() - (box.width() - box.height() / ratio)))
            for set_limit, value in limits:
                set_limit(value)
            container.layout.activate()
        finally:
            busy = False

    container.geometryChanged.connect(fit)
    for plot, _ in plots:  # a relayout inside the container too (axis labels in another language)
        plot.getViewBox().sigResized.connect(lambda *_: fit())
    return fit


_UNBOUNDED = 16_777_215.0  # QWIDGETSIZE_MAX: no maximum


def tick_lines(axis: pg.AxisItem, lines: int) -> None:
    """Room for tick labels of ``lines`` lines under a bottom axis (``"ALiBi\\n+rand"``), reserved
    before the first paint: pyqtgraph widens the axis only after drawing once, so an export drew
    the second line under the axis label, and a panel clipped it.  One line: its own auto size."""
    from PySide6.QtGui import QFontMetricsF

    if lines <= 1:
        axis.setStyle(autoExpandTextSpace=True, tickTextHeight=18)
        return
    font = axis.style.get("tickFont") or axis.font()
    axis.setStyle(autoExpandTextSpace=False, tickTextHeight=int(QFontMetricsF(font).lineSpacing() * lines + 8))  # + the label's overlap
