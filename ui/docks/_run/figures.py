"""Run on text's views: the seven figures (one tab each), what they draw from a run, and their
hover read-outs.  They hold no state of the run: they draw what :class:`RunController` holds
(the result, the zoom) with the settings the dock gives, and say what the pointer is over."""

import math
import os
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QTabWidget

from peapp.i18n import msg, shown, translate
from peapp.model_run import text_run as T
from peapp.analysis.levels import LOG_DECADES
from peapp.model_run.thresholds import CLASS_THRESHOLDS, LOCAL_WINDOW, SINK_SPAN
from peapp.views.run import MODES
from ui import i18n
from ui.plotting import cell_ticks, legend_above, let_end_labels_reach, relax_title_width

SEQUENTIAL = "viridis"
DIVERGING = "CET-D1A"
STATISTIC_MAP = "plasma"
# head classes (peapp.model_run.text_run.CLASS_LABELS names them)
CLASS_COLOURS = {"previous_token": "#e67e22", "sink": "#c0392b", "local": "#27ae60", "broad": "#2e86de"}
MASKED_RGBA = (205, 205, 205, 255)  # masked cells (future keys): light grey, never a colour of the map
MAX_TICK_LABELS = 40  # token labels per axis before they are thinned
TAB_OF_MODE = {mode: i for i, mode in enumerate(MODES)}
NOPE_WITHOUT, NOPE_WITH = "#2e86de", "#e67e22"  # the NoPE figure: without (solid) and with (dashed) the scale
HOVER_HINT = msg("Run", "Hover over a figure for its numbers; click a head in the grid to open it.")


class TokenAxis(pg.AxisItem):
    """An axis labelled with the tokens, centred on their cells, thinned to what fits the axis's
    length as it is now (zooming in shows more of them); a pooled cell is labelled with its first
    token and position."""

    def __init__(self, orientation: str, **kwargs: Any):
        super().__init__(orientation, **kwargs)
        self.tokens: list[str] = []
        self.start, self.stop, self.cell = 0, 0, 1.0

    def set_cells(self, tokens: list[str], start: int, stop: int, cell: float) -> None:
        self.tokens, self.start, self.stop, self.cell = tokens, start, stop, float(cell)
        if tokens:
            let_end_labels_reach(self, self.tickStrings([start + 0.5 * self.cell], 1, 1)[0])
        self.picture = None
        self.update()

    def tickValues(self, minVal, maxVal, size):  # Qt/pyqtgraph override
        if not self.tokens:
            return super().tickValues(minVal, maxVal, size)
        lo, hi = sorted((minVal, maxVal))
        first = max(0, int(math.floor((lo - self.start) / self.cell)))
        last = min(int(math.ceil((self.stop - self.start) / self.cell)), int(math.ceil((hi - self.start) / self.cell)))
        cells = np.arange(first, max(first, last))
        if self.orientation in ("left", "right"):
            spacing = 14.0  # pixels a label needs: a line of text
        else:  # the widest label as drawn (pooled cells say their position too), from a sample of them
            sample = cells[::max(1, cells.size // 200)]
            metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
            spacing = max((metrics.horizontalAdvance(s) for s in
                           self.tickStrings([self.start + (c + 0.5) * self.cell for c in sample], 1, 1)),
                          default=40.0) + 12  # 7 px a character was ~50 % wider than the font: labels were skipped
        fit = max(1, min(MAX_TICK_LABELS, int(size / spacing)))
        if cells.size > fit:
            cells = cells[::int(math.ceil(cells.size / fit))]
        return [(self.cell, [self.start + (c + 0.5) * self.cell for c in cells])]

    def tickStrings(self, values, scale, spacing):  # Qt/pyqtgraph override
        if not self.tokens:
            return super().tickStrings(values, scale, spacing)
        out = []
        for v in values:
            index = int(self.start + math.floor((v - self.start) / self.cell) * self.cell)
            label = T.display_token(self.tokens[index])[:12] if 0 <= index < len(self.tokens) else ""
            out.append(label if self.cell <= 1 else f"{index:,} {label}")
        return out


def _plot(layout: pg.GraphicsLayoutWidget, row: int, col: int, title: Any = "", invert: bool = False,
          tokens: bool = False, **fields: Any) -> pg.PlotItem:
    """A plot of a figure; ``title`` (a marked message, formatted with ``fields``) is kept translated."""
    axes = {"left": TokenAxis("left"), "bottom": TokenAxis("bottom")} if tokens else None
    plot = layout.addPlot(enableMenu=False, row=row, col=col, axisItems=axes)
    if title:
        i18n.keep(plot.setTitle, title, owner=layout, **fields)
    if invert:
        plot.invertY(True)
    return plot


def _axis_label(plot: pg.PlotItem, side: str, text: Any) -> None:
    """An axis label kept in the interface's language."""
    i18n.keep(lambda shown_text: plot.setLabel(side, shown_text), text, owner=plot.getViewWidget())


def _masked_layer(plot: pg.PlotItem) -> pg.ImageItem:
    """A grey image under a map: where the map is NaN (masked) it shows through."""
    item = pg.ImageItem(axisOrder="row-major")
    item.setZValue(-1)
    plot.addItem(item)
    return item


def _set_masked(item: pg.ImageItem, values: np.ndarray, rect: QRectF) -> None:
    mask = ~np.isfinite(values)
    rgba = np.zeros((*values.shape, 4), dtype=np.uint8)
    rgba[mask] = MASKED_RGBA
    item.setImage(rgba, autoLevels=False, levels=(0, 255))
    item.setRect(rect)



class RunFigures:
    """The seven figures of Run on text in a tab widget (``tabs``), drawn from ``controller``'s
    result with ``settings()``; hover read-outs go to ``readout``; ``set_caption`` takes the
    caption of what is drawn; ``open_head(layer, head)`` is called when a grid tile is clicked."""

    def __init__(self, controller, settings, readout, set_caption, open_head, zoom_changed, owner):
        self.c, self.settings, self.readout = controller, settings, readout
        self.set_caption, self.open_head, self.owner = set_caption, open_head, owner
        self._grid_layout: tuple[int, int, int] | None = None  # (layers, heads, tile) of the drawn grid
        self._grid_order: np.ndarray | None = None
        self._map_key: tuple | None = None  # (run, layer, full map?) last framed: redraws keep the user's zoom
        self._last_hover: tuple[str, Any] | None = None  # (figure, scene position) of the pointer, to refresh the read-out
        self.tabs = QTabWidget()
        self.tabs.setObjectName("runTabs")
        self._zoom_changed = zoom_changed
        self.build()

    def build(self) -> None:
        self.figures: dict[str, pg.GraphicsLayoutWidget] = {}
        for mode, label in MODES.items():
            widget = pg.GraphicsLayoutWidget()
            widget.setObjectName(f"runFigure_{mode}")
            self.figures[mode] = widget
            self.tabs.addTab(widget, shown(label))
            widget.scene().sigMouseMoved.connect(lambda pos, m=mode: self._hover(m, pos))
        i18n.keep_updated(self.tabs, lambda: [self.tabs.setTabText(i, shown(label))
                                              for i, label in enumerate(MODES.values())])
        # (1) attention map
        g = self.figures["run-attention"]
        self.map_plot = _plot(g, 0, 0, invert=True, tokens=True)
        _axis_label(self.map_plot, "left", msg("Run", "query token"))
        _axis_label(self.map_plot, "bottom", msg("Run", "key token"))
        self.map_masked = _masked_layer(self.map_plot)
        self.map_image = pg.ImageItem(axisOrder="row-major")
        self.map_plot.addItem(self.map_image)
        self.zoom_masked = _masked_layer(self.map_plot)
        self.zoom_image = pg.ImageItem(axisOrder="row-major")
        for z, item in ((2, self.zoom_masked), (3, self.zoom_image)):  # drawn over the pooled map where zoomed
            item.setZValue(z)
            item.setVisible(False)
        self.map_plot.addItem(self.zoom_image)
        self.map_bar = pg.ColorBarItem(colorMap=pg.colormap.get(SEQUENTIAL), interactive=False, width=14)
        self.map_bar.setImageItem([self.map_image, self.zoom_image], insert_in=self.map_plot)
        self.map_plot.getViewBox().sigRangeChangedManually.connect(lambda *_: self._zoom_changed())
        # (2) head grid
        g = self.figures["run-grid"]
        self.grid_plot = _plot(g, 0, 0, invert=True)
        self.grid_plot.getViewBox().setAspectLocked(True)  # square tiles: a head's map is square, not squashed
        _axis_label(self.grid_plot, "left", msg("Run", "layer"))
        _axis_label(self.grid_plot, "bottom", msg("Run", "head (per layer; sorted by the statistic when Sort is on)"))
        self.grid_frames = pg.ImageItem(axisOrder="row-major")
        self.grid_thumbs = pg.ImageItem(axisOrder="row-major")
        self.grid_thumbs.setZValue(1)
        self.grid_plot.addItem(self.grid_frames)
        self.grid_plot.addItem(self.grid_thumbs)
        self.grid_bar = pg.ColorBarItem(colorMap=pg.colormap.get(STATISTIC_MAP), interactive=False, width=14)
        self.grid_bar.setImageItem(self.grid_frames, insert_in=self.grid_plot)
        g.scene().sigMouseClicked.connect(self._grid_clicked)
        # (3) distance profiles and classes
        g = self.figures["run-distance"]
        self.distance_plot = _plot(g, 0, 0, msg("Run", "Mean attention by distance, heads of the chosen layer"))
        self.distance_plot.setLogMode(x=True, y=True)
        _axis_label(self.distance_plot, "bottom", msg("Run", "distance (tokens)"))
        _axis_label(self.distance_plot, "left", msg("Run", "mean weight"))
        self.distance_plot.showGrid(x=True, y=True, alpha=0.2)
        self.distance_curves: list[pg.PlotDataItem] = []
        self.class_plot = _plot(g, 0, 1, msg("Run", "Head class"), invert=True)
        _axis_label(self.class_plot, "left", msg("Run", "layer"))
        _axis_label(self.class_plot, "bottom", msg("Run", "head"))
        self.class_image = pg.ImageItem(axisOrder="row-major")
        self.class_plot.addItem(self.class_image)
        g.ci.layout.setColumnStretchFactor(0, 3)
        g.ci.layout.setColumnStretchFactor(1, 2)
        # (4) sinks
        g = self.figures["run-sinks"]
        self.sink_plots, self.sink_images = [], []
        for col, title in enumerate((msg("Run", "Share of attention on token 0"), msg("Run", "… on the first {n} tokens"))):
            plot = _plot(g, 0, col, title, invert=True, n=SINK_SPAN)
            _axis_label(plot, "left", msg("Run", "layer"))
            _axis_label(plot, "bottom", msg("Run", "head"))
            image = pg.ImageItem(axisOrder="row-major")
            plot.addItem(image)
            self.sink_plots.append(plot)
            self.sink_images.append(image)
        self.sink_bar = pg.ColorBarItem(values=(0, 1), colorMap=pg.colormap.get(SEQUENTIAL), interactive=False, width=14)
        self.sink_bar.setImageItem(self.sink_images, insert_in=self.sink_plots[1])
        # (5) RoPE frequency usage
        g = self.figures["run-rope"]
        self.rope_plot = _plot(g, 0, 0, msg("Run", "|q|·|k| share per rotary pair"))
        self.rope_plot.setLogMode(x=True, y=False)
        _axis_label(self.rope_plot, "bottom", msg("Run", "wavelength 2π/θ (tokens)"))
        _axis_label(self.rope_plot, "left", msg("Run", "share of the layer's |q|·|k|"))
        self.rope_plot.showGrid(x=True, y=True, alpha=0.2)
        self.rope_layer_curves: list[pg.PlotDataItem] = []
        self.rope_chosen = self.rope_plot.plot(pen=pg.mkPen("#e67e22", width=2), symbol="o", symbolSize=4,
                                               symbolBrush="#e67e22")
        self.rope_chosen.setZValue(3)
        self.rope_context = pg.InfiniteLine(angle=90, pen=pg.mkPen("#c0392b", style=Qt.PenStyle.DashLine))
        self.rope_run_length = pg.InfiniteLine(angle=90, pen=pg.mkPen("#27ae60", style=Qt.PenStyle.DotLine))
        self.rope_plot.addItem(self.rope_context)
        self.rope_plot.addItem(self.rope_run_length)
        self.rope_heat_plot = _plot(g, 0, 1, msg("Run", "Share per pair and layer"), invert=True)
        _axis_label(self.rope_heat_plot, "left", msg("Run", "layer"))
        _axis_label(self.rope_heat_plot, "bottom", msg("Run", "pair (shortest wavelength left)"))
        self.rope_heat = pg.ImageItem(axisOrder="row-major")
        self.rope_heat_plot.addItem(self.rope_heat)
        self.rope_bar = pg.ColorBarItem(colorMap=pg.colormap.get(SEQUENTIAL), interactive=False, width=14)
        self.rope_bar.setImageItem(self.rope_heat, insert_in=self.rope_heat_plot)
        # (6) position vs content
        g = self.figures["run-terms"]
        self.term_plots, self.term_images, self.term_masked = [], [], []
        for col in range(2):
            plot = _plot(g, 0, col, invert=True, tokens=True)
            _axis_label(plot, "left", msg("Run", "query token"))
            _axis_label(plot, "bottom", msg("Run", "key token"))
            self.term_masked.append(_masked_layer(plot))
            image = pg.ImageItem(axisOrder="row-major")
            plot.addItem(image)
            self.term_plots.append(plot)
            self.term_images.append(image)
        # one colour bar each: the two terms' spreads can differ a hundredfold (the caption gives both)
        self.term_bars = []
        for plot, image in zip(self.term_plots, self.term_images):
            bar = pg.ColorBarItem(colorMap=pg.colormap.get(DIVERGING), interactive=False, width=12)
            bar.setImageItem(image, insert_in=plot)
            self.term_bars.append(bar)
        self.term_plots[1].setXLink(self.term_plots[0])
        self.term_plots[1].setYLink(self.term_plots[0])
        # (7) NoPE temperature: a NoPE layer's entropy with and without Llama 4's scale, and the scale
        g = self.figures["run-nope"]
        self.nope_plot = _plot(g, 0, 0)
        relax_title_width(self.nope_plot)
        _axis_label(self.nope_plot, "bottom", msg("Run", "query position"))
        _axis_label(self.nope_plot, "left", msg("Run", "attention entropy (nats)"))
        self.nope_plot.showGrid(x=True, y=True, alpha=0.2)
        self.nope_legend = legend_above(self.nope_plot, 3)
        self.nope_without = self.nope_plot.plot(pen=pg.mkPen(NOPE_WITHOUT, width=2))
        self.nope_with = self.nope_plot.plot(pen=pg.mkPen(NOPE_WITH, width=2, style=Qt.PenStyle.DashLine))
        self.nope_uniform = self.nope_plot.plot(pen=pg.mkPen("#888", width=1, style=Qt.PenStyle.DotLine))
        self.nope_step = pg.InfiniteLine(angle=90, pen=pg.mkPen("#c0392b", style=Qt.PenStyle.DashDotLine))
        self.nope_trained = pg.InfiniteLine(angle=90, pen=pg.mkPen("#27ae60", style=Qt.PenStyle.DotLine))
        for line in (self.nope_step, self.nope_trained):
            self.nope_plot.addItem(line)
        self.nope_scale_plot = _plot(g, 1, 0)
        relax_title_width(self.nope_scale_plot)
        _axis_label(self.nope_scale_plot, "bottom", msg("Run", "query position"))
        _axis_label(self.nope_scale_plot, "left", msg("Run", "q multiplier"))
        self.nope_scale_plot.showGrid(x=True, y=True, alpha=0.2)
        self.nope_scale_curve = self.nope_scale_plot.plot(pen=pg.mkPen(NOPE_WITH, width=2))
        self.nope_scale_plot.setXLink(self.nope_plot)
        g.ci.layout.setRowStretchFactor(0, 3)
        g.ci.layout.setRowStretchFactor(1, 1)

    def draw(self) -> None:
        """Draw every figure from the controller's result (nothing without one)."""
        if self.c.result is None:
            return
        run = self.c.result.run
        layer, head = self.c.chosen(self.settings())
        self._draw_map(run, layer, head)
        self._draw_grid(run, layer, head)
        self._draw_distance(run, layer, head)
        self._draw_sinks(run)
        self._draw_rope(run, layer)
        self._draw_terms(run, layer, head)
        self.draw_nope()
        self.set_caption(self._caption(run, layer, head))
        self.refresh_readout()

    def draw_map_of_chosen(self) -> None:
        """Redraw the attention map (a zoom came back)."""
        if self.c.result is not None:
            self._draw_map(self.c.result.run, *self.c.chosen(self.settings()))

    def reframe(self) -> None:
        """Frame the whole map again (Reset zoom) and redraw."""
        self._map_key = None
        self.draw()

    def readout_at(self, x: float, y: float, plot: Any = None) -> str:
        """The hover read-out with the pointer at data point (x, y) of ``plot`` (default: the map)."""
        plot = plot if plot is not None else self.map_plot
        mode = next(m for m, w in self.figures.items() if w.scene() is plot.scene())
        self._hover(mode, plot.getViewBox().mapViewToScene(QPointF(x, y)))
        return self.readout.text()

    def weights_shown(self, values: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
        finite = values[np.isfinite(values)]
        top = float(finite.max()) if finite.size else 1.0
        if self.settings()["log_colours"]:
            floor = top * 10.0 ** -LOG_DECADES
            drawn = np.log10(np.maximum(values, floor)) if finite.size else values
            return np.where(np.isfinite(values), drawn, np.nan), (math.log10(max(floor, 1e-300)), math.log10(max(top, 1e-300)))
        return values, (0.0, top if top > 0 else 1.0)

    def _token_ticks(self, plot: pg.PlotItem, region: tuple[int, int, int, int], cell: tuple[float, float]) -> None:
        """Token labels on both axes of ``plot`` for the cells drawn (see :class:`TokenAxis`)."""
        tokens = self.c.result.run.tokens
        plot.getAxis("left").set_cells(tokens, region[0], region[1], cell[0])
        plot.getAxis("bottom").set_cells(tokens, region[2], region[3], cell[1])

    def _draw_map(self, run, layer: int, head: int) -> None:
        values, region, cell, full = self.c.map_of(run, layer, head)
        drawn, levels = self.weights_shown(values)
        r0, r1, c0, c1 = region
        rect = QRectF(c0, r0, c1 - c0, r1 - r0)
        self.map_image.setImage(drawn, autoLevels=False, levels=levels)
        self.map_image.setRect(rect)
        _set_masked(self.map_masked, values, rect)
        self.map_bar.setLevels(levels)
        self.map_bar.axis.setLabel(self._weight_label(cell))
        note = "" if full else translate("Run", " — {rows}×{cols} thumbnail until layer {layer} is run").format(
            rows=values.shape[0], cols=values.shape[1], layer=layer)
        self.map_plot.setTitle(translate("Run", "layer {layer}, head {head}: {kind}").format(
            layer=layer, head=head, kind=shown(T.CLASS_LABELS[run.head_class[layer][head]])) + note)
        key = (id(run), layer, full)
        if key != self._map_key:  # a new run or layer is framed whole; other redraws keep the user's zoom
            self._map_key = key
            self.c.zoom = None
            self.map_plot.getViewBox().setRange(xRange=(c0, c1), yRange=(r0, r1), padding=0)
        self._token_ticks(self.map_plot, region, cell)
        self._draw_zoom(head, levels)

    # ---- zoom: the visible region recomputed exactly from the map layer's kept q and k ---------------
    def _shown_zoom(self, head: int) -> np.ndarray | None:
        """The zoomed values of ``head`` when the zoom belongs to the map on screen, else None."""
        if self.c.result is None:
            return None
        return self.c.shown_zoom(self.c.chosen(self.settings())[0], head)

    def _draw_zoom(self, head: int, levels: tuple[float, float]) -> None:
        values = self._shown_zoom(head)
        for item in (self.zoom_image, self.zoom_masked):
            item.setVisible(values is not None)
        if values is None:
            return
        drawn, zoom_levels = self.weights_shown(values)
        r0, r1, c0, c1 = self.c.zoom.region
        rect = QRectF(c0, r0, c1 - c0, r1 - r0)
        # single-token weights reach higher than pooled means: the colours follow the zoom
        self.zoom_image.setImage(drawn, autoLevels=False, levels=zoom_levels)
        self.zoom_image.setRect(rect)
        self.map_image.setLevels(zoom_levels)
        self.map_bar.setLevels(zoom_levels)
        _set_masked(self.zoom_masked, values, rect)
        cell = self.c.zoom.cell
        self.map_bar.axis.setLabel(self._weight_label(cell))
        self._token_ticks(self.map_plot, self.c.zoom.region, cell)
        self.set_caption(self._caption(self.c.result.run, *self.c.chosen(self.settings())))
        self.refresh_readout()

    def _weight_label(self, cell) -> str:
        """The colour bar's label of an attention map with cells of ``cell`` tokens."""
        label = ("log₁₀ " if self.settings()["log_colours"] else "") + translate("Run", "attention weight")
        return label + ("" if cell == (1, 1) else translate("Run", " (mean per cell)"))

    def _draw_grid(self, run, layer: int, head: int) -> None:
        values = self.settings()
        if run.thumbnails is None:
            return
        stat = T.grid_statistic(run, values["grid_statistic"])
        order = T.grid_order(stat, values["sort_grid"])
        L, H, t, _ = run.thumbnails.shape
        frame = max(2, t // 8)
        tile = t + 2 * frame
        frames = np.full((L * tile, H * tile), np.nan)
        thumbs = np.zeros((L * tile, H * tile, 4), dtype=np.uint8)
        lut = pg.colormap.get("CET-L1").getLookupTable(nPts=256)  # greys for the maps themselves
        for l_ in range(L):
            for col in range(H):
                h = int(order[l_, col])
                y, x = l_ * tile, col * tile
                frames[y:y + tile, x:x + tile] = stat[l_, h]
                thumb = run.thumbnails[l_, h]
                finite = np.isfinite(thumb)
                top = float(thumb[finite].max()) if finite.any() else 1.0
                # each thumbnail on its own log scale (3 decades): the shape is what a grid is read for
                level = np.log10(np.maximum(np.where(finite, thumb, 0), top * 1e-3) / max(top, 1e-300)) / 3 + 1
                rgba = lut[np.clip((level * 255).astype(int), 0, 255)]
                inner = np.dstack([rgba, np.full(thumb.shape, 255, np.uint8)])
                inner[~finite] = MASKED_RGBA
                thumbs[y + frame:y + frame + t, x + frame:x + frame + t] = inner
                frames[y + frame:y + frame + t, x + frame:x + frame + t] = np.nan
        finite_stat = stat[np.isfinite(stat)]
        lo, hi = (float(finite_stat.min()), float(finite_stat.max())) if finite_stat.size else (0.0, 1.0)
        if hi <= lo:
            hi = lo + 1e-9
        self.grid_frames.setImage(frames, autoLevels=False, levels=(lo, hi))
        self.grid_frames.setRect(QRectF(0, 0, H, L))
        self.grid_thumbs.setImage(thumbs, autoLevels=False, levels=(0, 255))
        self.grid_thumbs.setRect(QRectF(0, 0, H, L))
        self.grid_bar.setLevels((lo, hi))
        self.grid_bar.axis.setLabel(translate("Run", "frame: {statistic}").format(
            statistic=shown(T.GRID_STATISTICS_LABELS[values["grid_statistic"]])))
        self._grid_layout, self._grid_order = (L, H, tile), order
        self.grid_plot.getViewBox().setRange(xRange=(0, H), yRange=(0, L), padding=0.01)
        self._label_layers(self.grid_plot, run)  # a model mixing layer kinds (Gemma 3) names each row's
        cell_ticks(self.grid_plot.getAxis("bottom"), H, [f"#{i + 1}" for i in range(H)] if values["sort_grid"] else None)
        col = int(np.nonzero(order[layer] == head)[0][0])
        if not hasattr(self, "_grid_mark"):
            self._grid_mark = pg.QtWidgets.QGraphicsRectItem(0, 0, 1, 1)
            self._grid_mark.setPen(pg.mkPen("#e67e22", width=3, cosmetic=True))
            self._grid_mark.setZValue(5)
            self.grid_plot.addItem(self._grid_mark)
        self._grid_mark.setRect(QRectF(col, layer, 1, 1))
        # short: a plot title's text sets the figure's minimum width (a long one pushes the grid off the panel)
        self.grid_plot.setTitle(translate("Run", "Every layer × head ({layers} × {heads}); orange box: the Attention "
                                               "tab's head").format(layers=L, heads=H))

    def _draw_distance(self, run, layer: int, head: int) -> None:
        n = run.n_tokens
        d = np.arange(1, n)
        if len(self.distance_curves) != run.heads:
            self.distance_plot.clear()
            self.distance_curves = [self.distance_plot.plot() for _ in range(run.heads)]
        for h, curve in enumerate(self.distance_curves):
            y = run.distance_profile[layer, h, 1:]
            keep = np.isfinite(y) & (y > 0)  # a log axis has no place for 0
            curve.setData(d[keep], y[keep])
            chosen = h == head
            colour = CLASS_COLOURS[run.head_class[layer][h]]
            curve.setPen(pg.mkPen(colour, width=3 if chosen else 1))
            curve.setZValue(2 if chosen else 1)
        kinds = T.layer_labels(run)
        self.distance_plot.setTitle(translate("Run", "Layer {layer}: mean weight by distance (thick: head {head})").format(
            layer=layer, head=head) + (f" — {kinds[layer]}" if kinds else ""))
        self._label_layers(self.class_plot, run)
        cell_ticks(self.class_plot.getAxis("bottom"), run.heads)
        codes = {name: i for i, name in enumerate(CLASS_COLOURS)}
        classes = np.array([[codes[c] for c in row] for row in run.head_class])
        colours = np.array([pg.mkColor(c).getRgb() for c in CLASS_COLOURS.values()], dtype=np.uint8)
        self.class_image.setImage(colours[classes], autoLevels=False, levels=(0, 255))
        self.class_image.setRect(QRectF(0, 0, run.heads, run.layers))
        legend = " ".join(f"<span style='color:{CLASS_COLOURS[k]}'>■ {shown(v)}</span>"
                          for k, v in T.CLASS_LABELS.items())
        self.class_plot.setTitle(legend, size="8pt")

    @staticmethod
    def _label_layers(plot, run) -> None:
        """Layer rows numbered at their centres, and named by their kind where the model mixes kinds
        (Gemma 3)."""
        kinds = T.layer_labels(run)
        cell_ticks(plot.getAxis("left"), run.layers, [f"{i} · {kind}" for i, kind in enumerate(kinds)] if kinds else None)

    def _draw_sinks(self, run) -> None:
        for image, values in zip(self.sink_images, (run.sink_first, run.sink_span)):
            image.setImage(values, autoLevels=False, levels=(0, 1))
            image.setRect(QRectF(0, 0, run.heads, run.layers))
        for plot in self.sink_plots:
            self._label_layers(plot, run)
            cell_ticks(plot.getAxis("bottom"), run.heads)

    def _draw_rope(self, run, layer: int) -> None:
        usage = run.rope_usage
        for curve in self.rope_layer_curves:
            self.rope_plot.removeItem(curve)
        self.rope_layer_curves = []
        if usage is None:
            self.rope_chosen.setData([], [])
            self.rope_heat.clear()
            self.rope_plot.setTitle(translate("Run", "No rotary pairs: this model's position scheme is {scheme}").format(
                scheme=run.scheme))
            self.rope_context.setVisible(False)
            self.rope_run_length.setVisible(False)
            return
        share = self._rope_share(run)  # [L, pairs], each layer's pairs by its own wavelength
        for l_ in range(run.layers):
            if l_ != layer and l_ in run.layer_wavelengths:  # NoPE layers have no pairs
                curve = self.rope_plot.plot(self._layer_waves(run, l_), share[l_],
                                            pen=pg.mkPen((150, 150, 150, 70), width=1))
                self.rope_layer_curves.append(curve)
        if layer in run.layer_wavelengths:
            self.rope_chosen.setData(self._layer_waves(run, layer), share[layer])
        else:
            self.rope_chosen.setData([], [])
        self.rope_plot.setTitle(translate("Run", "Layer {layer} (orange): |q|·|k| share per pair").format(layer=layer))
        if run.trained_context:
            self.rope_context.setValue(math.log10(run.trained_context))
            self.rope_context.setVisible(True)
        else:
            self.rope_context.setVisible(False)
        self.rope_run_length.setValue(math.log10(max(run.n_tokens, 1)))
        self.rope_run_length.setVisible(True)
        top = float(np.nanmax(share)) if share.size else 1.0
        self.rope_heat.setImage(share, autoLevels=False, levels=(0, top or 1.0))
        self.rope_heat.setRect(QRectF(0, 0, share.shape[1], run.layers))
        self._label_layers(self.rope_heat_plot, run)
        cell_ticks(self.rope_heat_plot.getAxis("bottom"), share.shape[1])
        self.rope_bar.setLevels((0, top or 1.0))

    @staticmethod
    def _layer_waves(run, layer: int) -> np.ndarray:
        """A RoPE layer's pair wavelengths, sorted (Gemma 3's local and global layers differ)."""
        return np.sort(run.layer_wavelengths.get(layer, run.rope_wavelengths))

    @staticmethod
    def _rope_share(run) -> np.ndarray:
        """[L, pairs]: each pair's share of the layer's Σ |q|·|k| (mean over heads), each layer's pairs
        by its own wavelength; NaN rows on NoPE layers."""
        usage = run.rope_usage.mean(1)
        share = np.full(usage.shape, np.nan)
        for layer in range(usage.shape[0]):
            waves = run.layer_wavelengths.get(layer)
            if waves is None or not np.isfinite(usage[layer]).all():
                continue
            total = usage[layer].sum()
            share[layer, :len(waves)] = (usage[layer] / (total if total > 0 else 1))[np.argsort(waves)]
        return share

    def _draw_terms(self, run, layer: int, head: int) -> None:
        if run.logit_map is None or run.term_map is None or self.c.result.layer != layer or self.c.result.head != head:
            waiting = run.logit_map is not None
            for image, masked in zip(self.term_images, self.term_masked):
                image.clear()
                masked.clear()
            ran_here = self.c.result.layer == layer and self.c.result.head == head
            if waiting and ran_here and run.term_map is None:  # this layer has no term (NoPE, hooks route)
                waiting = False
            nope = bool(run.layer_schemes) and run.layer_schemes[layer].get("position") == "nope"
            self.term_plots[0].setTitle(translate("Run", "running for this head…") if waiting and self.c.running else
                                        (translate("Run", "Run for this layer and head to compare its terms") if waiting
                                         else translate("Run", "Layer {layer} has no position encoding of its own "
                                                             "(NoPE): there is no rotation to remove.").format(
                                             layer=layer) if nope
                                         else translate("Run", "No position term to separate for a {scheme} "
                                                             "model").format(scheme=run.scheme)))
            self.term_plots[1].setTitle("")
            return
        r0, r1, c0, c1 = run.map_region
        rect = QRectF(c0, r0, c1 - c0, r1 - r0)
        for image, masked, bar, values in zip(self.term_images, self.term_masked, self.term_bars,
                                              (run.logit_map, run.term_map)):
            finite = values[np.isfinite(values)]
            top = float(np.abs(finite).max()) if finite.size else 1.0
            top = top if top > 0 else 1.0
            image.setImage(values, autoLevels=False, levels=(-top, top))
            image.setRect(rect)
            _set_masked(masked, values, rect)
            bar.setLevels((-top, top))
            bar.axis.setLabel(translate("Run", "logit q·k·scale")
                              + ("" if run.map_bin == (1, 1) else translate("Run", " (mean per cell)")))
        self.term_plots[0].setTitle(translate("Run", "real logits, layer {layer} head {head}").format(layer=layer, head=head))
        self.term_plots[1].setTitle(shown(T.TERM_KIND_LABELS.get(run.term_kind, run.term_kind)))
        self.term_plots[0].getViewBox().setRange(xRange=(c0, c1), yRange=(r0, r1), padding=0)
        for plot in self.term_plots:
            self._token_ticks(plot, run.map_region, run.map_bin)

    # ---- NoPE temperature ---------------------------------------------------------------------------
    def nope_state(self) -> tuple[int | None, Any]:
        """(the NoPE layer drawn or None, what the controller holds for it: an EntropyResult, a
        message, or None while it is computed)."""
        values = self.settings()
        return self.c.nope_layer(values), self.c.nope_shown(values)

    def draw_nope(self) -> None:
        """The NoPE figure from what the controller holds (its caption too when it is the mode shown)."""
        if self.c.result is None:
            return
        run = self.c.result.run
        layer, outcome = self.nope_state()
        self.nope_legend.clear()
        ready = outcome is not None and not isinstance(outcome, str)
        for item in (self.nope_without, self.nope_with, self.nope_uniform, self.nope_scale_curve):
            if not ready:
                item.setData([], [])
        self.nope_step.setVisible(False)
        self.nope_trained.setVisible(False)
        for plot in (self.nope_plot, self.nope_scale_plot):  # no empty axes (with another run's ranges) without curves
            for side in ("left", "bottom"):
                plot.showAxis(side, ready)
            plot.showGrid(x=ready, y=ready, alpha=0.2)
        if layer is None:
            self.nope_plot.setTitle(translate("Run", "No NoPE layer in this model: every layer has a position "
                                                   "encoding of its own"))
            self.nope_scale_plot.setTitle("")
            return
        if not ready:
            self.nope_plot.setTitle(outcome if isinstance(outcome, str) else translate(
                "Run", "Layer {layer} (NoPE): computing its entropy from the run's q and k…").format(layer=layer))
            self.nope_scale_plot.setTitle("")
            return
        result = outcome
        n = result.n_tokens
        p = np.arange(n)
        self.nope_without.setData(p, result.without_scale)
        self.nope_with.setData(p, result.with_scale)
        self.nope_uniform.setData(p, np.log(p + 1.0))
        for item, label in ((self.nope_without, translate("Run", "without the scale")),
                            (self.nope_with, translate("Run", "with the scale")),
                            (self.nope_uniform, translate("Run", "uniform: ln(p + 1)"))):
            self.nope_legend.addItem(item, label)
        step = result.first_step()
        if step is not None and step < n:
            self.nope_step.setValue(step)
            self.nope_step.setVisible(True)
        trained = run.trained_context
        if trained and trained < n:
            self.nope_trained.setValue(trained)
            self.nope_trained.setVisible(True)
        s = result.settings
        self.nope_plot.setTitle(translate("Run", "Layer {layer} (NoPE): entropy of each query's attention, mean over "
                                               "its {heads} heads").format(layer=layer, heads=run.heads))
        self.nope_scale_curve.setData(p, self._nope_scale(result))
        self.nope_scale_plot.setTitle(translate("Run", "the query's multiplier 1 + {a}·ln(1 + ⌊(p + 1)/{f}⌋)").format(
            a=f"{s.attn_scale:g}", f=f"{s.floor_scale:g}"))

    @staticmethod
    def _nope_scale(result) -> np.ndarray:
        from peapp.analysis.temperature import scale_curve

        return scale_curve(result.n_tokens, result.settings.attn_scale, result.settings.floor_scale).llama4

    def _nope_caption(self, run, head_line: str) -> str:
        layer, outcome = self.nope_state()
        if layer is None:
            kinds = ", ".join(f"{i} {info.get('position', '?')}" for i, info in enumerate(run.layer_schemes))
            return head_line + " " + translate(
                "Run", "NoPE layers: none here. The temperature (Llama 4's attn_temperature_tuning) acts on layers "
                     "without a position encoding of their own, in a model whose other layers rotate q and k (Llama "
                     "4, SmolLM3, Command R7B); this model's layers: {kinds}.").format(kinds=kinds or run.scheme)
        nope = ", ".join(map(str, self.c.nope_layers()))
        chosen = self.settings()["layer"]
        lead = (translate("Run", "Layer {chosen} has a position encoding of its own; showing NoPE layer {layer} (NoPE "
                                 "layers: {layers}).").format(chosen=chosen, layer=layer, layers=nope)
                if chosen != layer else translate("Run", "NoPE layers: {layers}.").format(layers=nope))
        if outcome is None:
            return f"{head_line} {lead} " + translate("Run", "Computing layer {layer}'s entropy from the q and k the run "
                                                           "kept…").format(layer=layer)
        if isinstance(outcome, str):
            return f"{head_line} {lead} {outcome}"
        s = outcome.settings
        where = (translate("Run", "this model applies it itself (attn_temperature_tuning): dashed is what it computed, "
                                  "solid divides the scale out") if s.tuning
                 else translate("Run", "this model applies no temperature: the scale is applied here to the q the run "
                                       "kept"))
        config = self.c.result.temperature_config
        origin = (translate("Run", "from its config") if "attn_scale" in config or "floor_scale" in config
                  else translate("Run", "Llama 4's defaults"))
        text = translate(
            "Run", "Entropy (nats) of each query's causal attention in layer {layer}, mean over its heads, computed from "
                 "the q and k this run kept (no second forward pass): solid without the temperature, dashed with "
                 "Llama 4's scale of the query, 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋), attn_scale {a}, "
                 "floor_scale {f} ({origin}); {where}. Dotted: uniform attention over the p + 1 keys a query sees; "
                 "red: where the scale first rises; green: the training length.").format(
            layer=layer, a=f"{s.attn_scale:g}", f=f"{s.floor_scale:g}", origin=origin, where=where)
        return " ".join((head_line, lead, text, outcome.verdict(run.trained_context)))

    def _caption(self, run, layer: int, head: int) -> str:
        res = self.c.result
        mode = self.settings()["mode"]
        model = _short_name(res.checkpoint)
        head_line = translate("Run", "{model} ({family}) on {text}: {n} tokens").format(
            model=model, family=res.family, text=T.shown_label(res.text_label), n=f"{run.n_tokens:,}")
        if res.context_cut:
            head_line += translate("Run", " (text cut at the model's context: its learned position table has {rows} "
                                          "rows)").format(rows=f"{res.context_cut:,}")
        elif res.truncated:
            head_line += translate("Run", " (text cut at Tokens)")
        if run.perplexity is not None:
            head_line += translate("Run", ", perplexity {perplexity}").format(perplexity=f"{run.perplexity:.2f}")
        # where and how it ran, as the run itself records it (auto resolved), not as it was asked
        head_line += translate("Run", "; run in {seconds} s on {device} in {dtype}.").format(
            seconds=f"{run.seconds:.1f}", device=run.device + (f" ({run.placement})" if run.placement else ""),
            dtype=run.dtype)
        if res.text_changed:
            head_line += translate("Run", " Note: the text's SHA-256 differs from the one this session recorded (the "
                                        "file changed).")
        if mode == "run-attention":
            cell = translate("Run", "one token per cell") if run.map_bin == (1, 1) else translate(
                "Run", "each cell the mean over {rows} × {cols} tokens").format(rows=run.map_bin[0], cols=run.map_bin[1])
            if self._shown_zoom(head) is not None:
                r0, r1, c0, c1 = self.c.zoom.region
                per = self.c.zoom.cell
                detail = translate("Run", "one token per cell") if per == (1, 1) else translate(
                    "Run", "{rows} × {cols} tokens per cell").format(rows=per[0], cols=per[1])
                cell = translate("Run", "zoomed to queries {first_query}–{last_query} × keys {first_key}–{last_key}, "
                                      "recomputed exactly from the layer's q and k at {detail} (outside it: {outside}; "
                                      "Reset zoom shows the whole map)").format(
                    first_query=f"{r0:,}", last_query=f"{r1 - 1:,}", first_key=f"{c0:,}", last_key=f"{c1 - 1:,}",
                    detail=detail, outside=cell)
            scale = (translate("Run", "log₁₀ colours, {decades} decades below the largest weight").format(
                decades=LOG_DECADES) if self.settings()["log_colours"]
                else translate("Run", "colours from 0 to the largest weight"))
            masked = (translate("Run", "grey cells are masked (a causal model's future keys), not weight 0") if run.causal
                      else translate("Run", "bidirectional: no cell is masked"))
            return head_line + " " + translate("Run", "Real attention weights of layer {layer}, head {head}; {cell}; "
                                                    "{scale}; {masked}.").format(layer=layer, head=head, cell=cell,
                                                                                 scale=scale, masked=masked) + (
                " " + self.c.browse_note()).rstrip()
        if mode == "run-grid":
            return head_line + " " + translate(
                "Run", "Every head's attention ({rows} × {cols} pooled cells), each on its own log scale (white = most "
                     "weight, 3 decades; light grey = masked), framed by {statistic}. Click a head to open it in the "
                     "Attention tab.").format(rows=run.thumbnails.shape[2], cols=run.thumbnails.shape[3],
                                              statistic=shown(T.GRID_STATISTICS_LABELS[self.settings()["grid_statistic"]]))
        if mode == "run-distance":
            text = translate("Run", "Left: mean weight at distance d = query − key over the queries that have a key "
                                  "there, one curve per head of the layer, coloured by the head's class (right)")
            text += "" if run.causal else translate("Run", " (both sides pooled: |i − j|)")
            text += translate("Run", "; distance 0 (the token itself) is off the log axis.")
            return f"{head_line} {text} " + T.class_caption(LOCAL_WINDOW, CLASS_THRESHOLDS)
        if mode == "run-sinks":
            return head_line + " " + translate(
                "Run", "Mean over queries of the weight on token 0 (left) and on tokens 0–{last} (right), per layer and "
                     "head; 1 = every query attends only there (an attention sink).").format(last=SINK_SPAN - 1)
        if mode == "run-rope":
            if run.rope_usage is None:
                return head_line + " " + translate("Run", "RoPE frequency usage needs a RoPE model; this one is "
                                                        "{scheme}.").format(scheme=run.scheme)
            return head_line + " " + translate(
                "Run", "Left: the chosen layer in orange, the other layers grey; right: every layer (rows) × pair "
                     "(columns, shortest wavelength left). For each rotary pair: mean over tokens of ‖q_pair‖ × mean "
                     "of ‖k_pair‖ (mean over heads), as a share of the layer's total — which frequencies carry the "
                     "q·k score (Barbero et al. 2024). Red dashed: trained context {context}; green dotted: this "
                     "run's {n} tokens. Pairs with wavelengths beyond the context barely rotate: semantic "
                     "channels.").format(context=f"{run.trained_context or 0:,}", n=f"{run.n_tokens:,}")
        if mode == "run-nope":
            return self._nope_caption(run, head_line)
        s = run.term_summary
        if run.term_kind is None:
            if run.layer_schemes and run.layer_schemes[layer].get("position") == "nope":
                return head_line + " " + translate("Run", "Layer {layer} has no position encoding of its own (NoPE): "
                                                        "there is no rotation to remove.").format(layer=layer)
            return head_line + " " + translate("Run", "This scheme ({scheme}) has no separable position term.").format(
                scheme=run.scheme)
        what = (translate("Run", "the same q and k with the rotation undone: what content alone scores")
                if run.scheme == "rope" else
                translate("Run", "the position table's rows through this head's W_q and W_k (no bias, no LayerNorm)"))
        extra = (translate("Run", ", rotation's own part std {std}").format(std=f"{s['rotation_std']:.3f}")
                 if "rotation_std" in s else "")
        return head_line + " " + translate(
            "Run", "Left: the real logits of layer {layer}, head {head}; right: {what}; each on its own symmetric colour "
                 "scale. Spread (std) {real_std} vs {term_std}, correlation {correlation}{extra}.").format(
            layer=layer, head=head, what=what, real_std=f"{s.get('real_std', float('nan')):.3f}",
            term_std=f"{s.get('term_std', float('nan')):.3f}", correlation=f"{s.get('correlation', float('nan')):.3f}",
            extra=extra)

    # ---- interaction ------------------------------------------------------------------------------
    def _hover(self, mode: str, scene_pos) -> None:
        self._last_hover = (mode, scene_pos)
        text = self.describe_at_scene(mode, scene_pos)
        if text:
            self.readout.setText(text)

    def refresh_readout(self) -> None:
        """After a redraw (another run, model or text, a zoom, another head): the read-out says what is
        under the pointer now, without waiting for the mouse to move; the hint when nothing is."""
        if self._last_hover is None:
            return
        mode, scene_pos = self._last_hover
        if self.figures[mode].scene() is not None and mode == self.settings()["mode"]:
            text = self.describe_at_scene(mode, scene_pos)
            self.readout.setText(text or shown(HOVER_HINT))

    def describe_at_scene(self, mode: str, scene_pos) -> str:
        if self.c.result is None:
            return ""
        run = self.c.result.run
        layer, head = self.c.chosen(self.settings())
        if mode == "run-attention" and self.map_plot.sceneBoundingRect().contains(scene_pos):
            p = self.map_plot.getViewBox().mapSceneToView(scene_pos)
            return self.describe_cell(p.y(), p.x())
        if mode == "run-grid" and self.grid_plot.sceneBoundingRect().contains(scene_pos):
            found = self._grid_head_at(scene_pos)
            if found is None:
                return ""
            l_, h = found
            stat = T.grid_statistic(run, self.settings()["grid_statistic"])[l_, h]
            return translate("Run", "layer {layer}, head {head}: {kind}; {statistic} = {value} (click to open)").format(
                layer=l_, head=h, kind=shown(T.CLASS_LABELS[run.head_class[l_][h]]),
                statistic=shown(T.GRID_STATISTICS_LABELS[self.settings()["grid_statistic"]]), value=f"{stat:.4g}")
        if mode == "run-distance":
            if self.class_plot.sceneBoundingRect().contains(scene_pos):
                p = self.class_plot.getViewBox().mapSceneToView(scene_pos)
                return self._describe_head(run, int(p.y()), int(p.x()))
            if self.distance_plot.sceneBoundingRect().contains(scene_pos):
                p = self.distance_plot.getViewBox().mapSceneToView(scene_pos)
                d = int(round(10 ** p.x()))
                if 1 <= d < run.n_tokens:
                    return translate("Run", "layer {layer}, head {head}: mean weight {value} at distance "
                                          "{distance}").format(layer=layer, head=head, distance=f"{d:,}",
                                                               value=f"{run.distance_profile[layer, head, d]:.4g}")
        if mode == "run-sinks":
            for plot in self.sink_plots:
                if plot.sceneBoundingRect().contains(scene_pos):
                    p = plot.getViewBox().mapSceneToView(scene_pos)
                    return self._describe_head(run, int(p.y()), int(p.x()))
        if mode == "run-rope" and run.rope_usage is not None and self.rope_heat_plot.sceneBoundingRect().contains(scene_pos):
            p = self.rope_heat_plot.getViewBox().mapSceneToView(scene_pos)
            l_, k = int(p.y()), int(p.x())
            share = self._rope_share(run)
            if 0 <= l_ < run.layers and 0 <= k < share.shape[1] and l_ in run.layer_wavelengths:
                wave = self._layer_waves(run, l_)[k]
                return translate("Run", "layer {layer}, pair {pair} by wavelength ({wavelength} tokens): share "
                                      "{share}").format(layer=l_, pair=k, wavelength=f"{wave:,.1f}",
                                                        share=f"{share[l_, k]:.4f}")
        if mode == "run-nope" and self.nope_plot.sceneBoundingRect().contains(scene_pos):
            return self.describe_nope(self.nope_plot.getViewBox().mapSceneToView(scene_pos).x())
        if mode == "run-terms" and run.logit_map is not None:
            for plot in self.term_plots:
                if plot.sceneBoundingRect().contains(scene_pos):
                    p = plot.getViewBox().mapSceneToView(scene_pos)
                    return self.describe_term(p.y(), p.x())
        return ""

    def describe_nope(self, x: float) -> str:
        """The NoPE figure's read-out at query position ``x``."""
        layer, result = self.nope_state()
        if layer is None or result is None or isinstance(result, str):
            return ""
        p = int(round(x))
        if not 0 <= p < result.n_tokens:
            return ""
        return translate("Run", "layer {layer}, query {position} '{token}': entropy {without} nats without the scale, "
                              "{with_} with it (×{scale}); uniform {uniform}").format(
            layer=layer, position=f"{p:,}", token=T.display_token(self.c.result.run.tokens[p]),
            without=f"{result.without_scale[p]:.4f}", with_=f"{result.with_scale[p]:.4f}",
            scale=f"{self._nope_scale(result)[p]:.4f}", uniform=f"{math.log(p + 1):.4f}")

    def _describe_head(self, run, l_: int, h: int) -> str:
        if not (0 <= l_ < run.layers and 0 <= h < run.heads):
            return ""
        return translate("Run", "layer {layer}, head {head}: {kind}; previous token {previous}, local (≤ {window}) "
                              "{local}, token 0 {first}, first {span} {first_span}, entropy {entropy} nats").format(
            layer=l_, head=h, kind=shown(T.CLASS_LABELS[run.head_class[l_][h]]),
            previous=f"{run.previous_token[l_, h]:.3f}", window=LOCAL_WINDOW, local=f"{run.local[l_, h]:.3f}",
            first=f"{run.sink_first[l_, h]:.3f}", span=SINK_SPAN, first_span=f"{run.sink_span[l_, h]:.3f}",
            entropy=f"{run.entropy[l_, h]:.3f}")

    def _cell(self, region, cell, shape, query: float, key: float) -> tuple[int, int] | None:
        r0, r1, c0, c1 = region
        if not (r0 <= query < r1 and c0 <= key < c1):
            return None
        row = min(int((query - r0) // cell[0]), shape[0] - 1)
        col = min(int((key - c0) // cell[1]), shape[1] - 1)
        return row, col

    def _token_range(self, start: int, size: float, index: int) -> tuple[int, int]:
        lo = int(round(start + index * size))
        return lo, max(lo + 1, int(round(start + (index + 1) * size)))

    def describe_cell(self, query: float, key: float) -> str:
        """The read-out of the attention map at (query, key) in token coordinates."""
        run = self.c.result.run
        layer, head = self.c.chosen(self.settings())
        values, region, cell, _ = self.c.map_of(run, layer, head)
        zoomed = self._shown_zoom(head)
        if zoomed is not None and self._cell(self.c.zoom.region, self.c.zoom.cell, zoomed.shape, query, key):
            values, region, cell = zoomed, self.c.zoom.region, self.c.zoom.cell  # read what is drawn there
        found = self._cell(region, cell, values.shape, query, key)
        if found is None:
            return ""
        row, col = found
        value = float(values[row, col])
        said = translate("Run", "masked (a future key)") if not np.isfinite(value) else f"{value:.4g}"
        q0, q1 = self._token_range(region[0], cell[0], row)
        k0, k1 = self._token_range(region[2], cell[1], col)
        tokens = run.tokens
        if q1 - q0 == 1 and k1 - k0 == 1:
            return translate("Run", "layer {layer}, head {head}: query {query} '{query_token}' → key {key} "
                                  "'{key_token}': weight {value}").format(
                layer=layer, head=head, query=f"{q0:,}", query_token=T.display_token(tokens[q0]), key=f"{k0:,}",
                key_token=T.display_token(tokens[k0]), value=said)
        return translate("Run", "layer {layer}, head {head}: queries {first_query}–{last_query} ('{query_token}' …) → "
                              "keys {first_key}–{last_key} ('{key_token}' …): mean weight {value}").format(
            layer=layer, head=head, first_query=f"{q0:,}", last_query=f"{q1 - 1:,}",
            query_token=T.display_token(tokens[q0]), first_key=f"{k0:,}", last_key=f"{k1 - 1:,}",
            key_token=T.display_token(tokens[k0]), value=said)

    def describe_term(self, query: float, key: float) -> str:
        run = self.c.result.run
        found = self._cell(run.map_region, run.map_bin, run.logit_map.shape, query, key)
        if found is None:
            return ""
        row, col = found
        real, term = float(run.logit_map[row, col]), float(run.term_map[row, col])
        if not np.isfinite(real):
            return translate("Run", "query cell {row}, key cell {col}: masked (a future key)").format(row=row, col=col)
        q0, _ = self._token_range(run.map_region[0], run.map_bin[0], row)
        k0, _ = self._token_range(run.map_region[2], run.map_bin[1], col)
        return translate("Run", "query {query} '{query_token}' → key {key} '{key_token}': real logit {real}, {kind} "
                              "{term}").format(query=f"{q0:,}", query_token=T.display_token(run.tokens[q0]),
                                               key=f"{k0:,}", key_token=T.display_token(run.tokens[k0]),
                                               real=f"{real:.4g}", term=f"{term:.4g}",
                                               kind=shown(T.TERM_KIND_LABELS.get(run.term_kind, run.term_kind)))

    def _grid_head_at(self, scene_pos) -> tuple[int, int] | None:
        if self._grid_layout is None or self._grid_order is None:
            return None
        p = self.grid_plot.getViewBox().mapSceneToView(scene_pos)
        L, H, _ = self._grid_layout
        l_, col = int(math.floor(p.y())), int(math.floor(p.x()))
        if not (0 <= l_ < L and 0 <= col < H):
            return None
        return l_, int(self._grid_order[l_, col])

    def click_grid(self, layer_row: int, column: int) -> None:
        """Click the grid tile at (row = layer, column) as a user would."""
        found = self._grid_head_at(self.grid_plot.getViewBox().mapViewToScene(QPointF(column + 0.5, layer_row + 0.5)))
        if found is not None:
            self.open_head(*found)

    def _grid_clicked(self, event) -> None:
        found = self._grid_head_at(event.scenePos())
        if found is not None:
            self.open_head(*found)

    def shown_arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for name, item in (("map", self.map_image), ("grid_frames", self.grid_frames), ("grid_thumbs", self.grid_thumbs),
                           ("classes", self.class_image), ("sink_first", self.sink_images[0]),
                           ("sink_span", self.sink_images[1]), ("rope_share", self.rope_heat),
                           ("real_logits", self.term_images[0]), ("term_logits", self.term_images[1])):
            if item.image is not None:
                out[name] = np.asarray(item.image)
        for h, curve in enumerate(self.distance_curves):
            if curve.yData is not None:
                out[f"distance_head{h}"] = np.asarray(curve.yData)
        for name, curve in (("nope_without_scale", self.nope_without), ("nope_with_scale", self.nope_with)):
            if curve.yData is not None and len(curve.yData):
                out[name] = np.asarray(curve.yData)
        return out

    def export_arrays(self) -> dict[str, np.ndarray]:
        if self.c.result is None:
            return {}
        run = self.c.result.run
        layer, head = self.c.chosen(self.settings())
        mode = self.settings()["mode"]
        if mode == "run-attention":
            values, region, _, _ = self.c.map_of(run, layer, head)
            return {"attention_weight": values, "region": np.asarray(region)}
        if mode == "run-grid":
            return {"thumbnails": run.thumbnails,
                    "statistic": T.grid_statistic(run, self.settings()["grid_statistic"])}
        if mode == "run-distance":
            return {"distance_profile": run.distance_profile, "previous_token": run.previous_token,
                    "local": run.local, "entropy": run.entropy}
        if mode == "run-sinks":
            return {"sink_first_token": run.sink_first, f"sink_first_{SINK_SPAN}_tokens": run.sink_span}
        if mode == "run-rope":
            if run.rope_usage is None:
                return {}
            per_layer = np.full(run.rope_usage.shape[::2], np.nan)  # [L, pairs]: NaN on NoPE layers
            for layer, waves in run.layer_wavelengths.items():
                per_layer[layer, :len(waves)] = waves
            return {"rope_usage": run.rope_usage, "rope_wavelengths": run.rope_wavelengths,
                    "rope_wavelengths_per_layer": per_layer}
        if mode == "run-nope":
            layer, result = self.nope_state()
            if result is None or isinstance(result, str):
                return {}
            return {"query_position": np.arange(result.n_tokens), "entropy_without_scale": result.without_scale,
                    "entropy_with_scale": result.with_scale, "scale": self._nope_scale(result),
                    "uniform": np.log(np.arange(result.n_tokens) + 1.0), "layer": np.asarray([layer])}
        if run.logit_map is None:
            return {}
        return {"real_logits": run.logit_map, "term_logits": run.term_map}



def _short_name(path: str) -> str:
    """A checkpoint's name for a caption: its file or folder name, with the parent folder when that
    name says little ("model", "checkpoint-500")."""
    parts = os.path.normpath(path).split(os.sep)
    name = parts[-1] if parts else path
    if len(parts) > 1 and (name in ("model", "models", "snapshot") or name.startswith("checkpoint")):
        return f"{parts[-2]}/{name}"
    return name

