"""The attention inspector's figures: the large matrix and its mask, the caption, the small
multiples, the zoomed region, the plot strip (distance profile, entropy, received attention,
the NoPE temperature curve, ALiBi/T5), the shuffle verdict, hover read-outs and the arrays
shown.  :class:`AttentionFigures` makes these widgets and draws into them what the dock's
:class:`~ui.docks._attention.controller.AttentionController` holds (``view``, ``zoom``,
``shuffle``); it holds no state of the request cycle.  The dock (:class:`ui.docks.attention.AttentionDock`)
owns one (``self.figures``) and lays its widgets out."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from peapp.i18n import msg, shown, translate
from peapp.analysis import attention as A
from peapp.analysis.levels import LOG_DECADES
from peapp.views.attention import KIND_LABELS
from ui import i18n
from ui.docks._attention.controller import AttentionController
from ui.docks._attention.views import (CompactGraphics, DecadeAxis, ReflowStrip, TokenAxis, _levels, _shown,
                                       received_caption, received_short_caption)
from ui.plotting import draw_as_path, legend_above

VALUE_LABELS = {"softmax": msg("Attention", "attention weight"), "logits": msg("Attention", "logit"),
                "position": msg("Attention", "position term")}
DIVERGING = "CET-D1A"
SEQUENTIAL = "viridis"
MAX_SMALL_HEADS = 16  # small multiples drawn; more heads are reachable with the head box
TEMPERATURE_COLOUR = "#c0392b"  # the chosen head (orange) with the temperature: dashed red beside it
MASKED_RGBA = (128, 128, 128, 255)  # a neutral grey: in neither colour map, so never read as a weight of 0
STRIP_TITLE_SIZE = "9pt"  # the strip's plots are narrow: short titles, small type
RECEIVED_DECADES = 12  # the received-attention plot spans at most this many decades below its top


class AttentionFigures:
    """The attention dock's plots and their drawing and read-outs.  ``settings()`` gives the dock's
    settings now; ``readout`` is the hover line; ``set_caption`` says what the matrix shows; a
    click on a small matrix calls ``select_head(head)``, a double-click on the large one
    ``reset_zoom()``."""

    def __init__(self, controller: AttentionController, settings: Callable[[], dict[str, Any]], readout: QLabel,
                 set_caption: Callable[[str], None], select_head: Callable[[int], None],
                 reset_zoom: Callable[[], None]) -> None:
        self.controller, self.settings, self.readout, self.set_caption = controller, settings, readout, set_caption
        self.select_head, self.reset_zoom = select_head, reset_zoom
        self.matrices = self._build_matrices()
        self.plots = self._build_plots()
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.graphics.scene().sigMouseClicked.connect(self._click)

    # ---- construction ---------------------------------------------------------------------------
    def _build_matrices(self) -> QWidget:
        self.graphics = CompactGraphics()
        self.graphics.setObjectName("attentionGraphics")
        self.token_axes = {"left": TokenAxis("left"), "bottom": TokenAxis("bottom")}
        self.plot = self.graphics.addPlot(enableMenu=False, row=0, col=0, axisItems=self.token_axes)
        self.plot.invertY(True)
        self.plot.setAspectLocked(False)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.zoom_image = pg.ImageItem(axisOrder="row-major")
        self.zoom_image.setZValue(1)
        # masked cells (all their keys in the future) in grey over each image: no weight is not a weight of 0
        self.mask_image = pg.ImageItem(axisOrder="row-major")
        self.mask_image.setZValue(0.5)
        self.zoom_mask_image = pg.ImageItem(axisOrder="row-major")
        self.zoom_mask_image.setZValue(1.5)
        for item in (self.image, self.mask_image, self.zoom_image, self.zoom_mask_image):
            self.plot.addItem(item)
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get(SEQUENTIAL), interactive=False, width=14)
        self.colorbar.setImageItem([self.image, self.zoom_image], insert_in=self.plot)
        self.grid = self.graphics.addLayout(row=0, col=1)
        self.small: list[tuple[pg.ViewBox, pg.ImageItem, pg.LabelItem]] = []
        self.graphics.ci.layout.setColumnStretchFactor(0, 3)
        self.graphics.ci.layout.setColumnStretchFactor(1, 2)
        return self.graphics

    def _strip_plot(self, name: str, title: str | None = None, axis_items: dict | None = None) -> pg.PlotItem:
        widget = pg.PlotWidget(enableMenu=False, axisItems=axis_items)
        widget.setObjectName(name)
        self._strip_widgets.append(widget)
        plot = widget.getPlotItem()
        if title:
            i18n.keep(lambda text: plot.setTitle(text, size=STRIP_TITLE_SIZE), title, owner=widget)
        return plot

    @staticmethod
    def _axis_label(plot: pg.PlotItem, side: str, text: Any) -> None:
        """An axis label of a strip plot, kept in the interface's language."""
        i18n.keep(lambda shown_text: plot.setLabel(side, shown_text), text, owner=plot.getViewWidget())

    def _build_plots(self) -> QWidget:
        self._strip_widgets: list[pg.PlotWidget] = []
        self._profile_curves: list[pg.PlotDataItem] = []  # one per head (draw_plots)
        self._entropy_curves: list[pg.PlotDataItem] = []
        self.profile_plot = self._strip_plot("attentionProfilePlot", msg("Attention", "Mean weight by distance"))
        self._axis_label(self.profile_plot, "bottom", msg("Attention", "distance (query − key)"))
        self._axis_label(self.profile_plot, "left", msg("Attention", "mean weight"))
        self.entropy_plot = self._strip_plot("attentionEntropyPlot", msg("Attention", "Entropy of each query"))
        self._axis_label(self.entropy_plot, "bottom", msg("Attention", "query position"))
        self._axis_label(self.entropy_plot, "left", msg("Attention", "nats"))
        self.entropy_legend = legend_above(self.entropy_plot, 2)  # above the data, never over it
        self.entropy_legend.setVisible(False)
        self._temperature_curve: pg.PlotDataItem | None = None  # NoPE: the chosen head with the temperature
        self.received_plot = self._strip_plot("attentionReceivedPlot", msg("Attention", "Weight each key receives"),
                                              {"left": DecadeAxis("left")})
        self._axis_label(self.received_plot, "bottom", msg("Attention", "key position"))
        self._axis_label(self.received_plot, "left", msg("Attention", "weight (log)"))
        # log scale: the last query's weights span many decades under distance decay
        self.received_plot.setLogMode(y=True)
        self.received_mean = self.received_plot.plot(pen=pg.mkPen("#e67e22", width=2))
        self.received_last = self.received_plot.plot(pen=pg.mkPen("#2e86de", width=1))
        self.received_uniform = draw_as_path(self.received_plot.plot(pen=pg.mkPen("#aaa", style=Qt.PenStyle.DashLine)))
        for curve in (self.received_mean, self.received_last, self.received_uniform):
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
        self.scheme_plot = self._strip_plot("attentionSchemePlot")
        self.shuffle_plot = self._strip_plot("attentionShufflePlot", msg("Attention", "Shuffle: change per token"))
        self._axis_label(self.shuffle_plot, "bottom", msg("Attention", "position"))
        self._axis_label(self.shuffle_plot, "left", msg("Attention", "relative change"))
        for p in (self.profile_plot, self.entropy_plot, self.received_plot, self.scheme_plot, self.shuffle_plot):
            p.showGrid(x=True, y=True, alpha=0.2)
        self.shuffle_curve = self.shuffle_plot.plot(pen=None, symbol="o", symbolSize=4, symbolBrush="#c0392b")
        self.shuffle_label = QLabel(translate("Attention", "Shuffle tokens: press the button to test whether order "
                                              "reaches the outputs."))
        self.shuffle_label.setObjectName("attentionShuffleResult")
        self.shuffle_label.setWordWrap(True)
        self.strip = ReflowStrip(self._strip_widgets)
        self.strip.setObjectName("attentionPlots")
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.strip, 1)
        # the notes go below the splitter (the dock's build): inside it they were drawn over the plots' axes
        self.received_label = QLabel()
        self.received_label.setObjectName("attentionReceivedNote")
        self.received_label.setWordWrap(True)
        return box

    def _show_scheme_plot(self, shown: bool) -> None:
        self.scheme_plot.setVisible(shown)
        self.strip.set_shown(self._strip_widgets[3], shown)

    # ---- drawing ----------------------------------------------------------------------------------
    def _log(self) -> bool:
        return bool(self.settings()["log_scale"])

    def head(self) -> int:
        """The head drawn: the Head setting, at most the overview's last."""
        return self.controller.head(self.settings()["head"])

    def draw(self) -> None:
        view = self.controller.view
        if view is None:
            return
        head = self.head()
        values = view.values[head]
        unit, log = bool(self.settings()["unit_scale"]), self._log()
        levels, diverging = _levels(view.values if view.kind == "softmax" else values, view.kind, unit, log)
        self.colorbar.setColorMap(pg.colormap.get(DIVERGING if diverging else SEQUENTIAL))
        self.image.setImage(_shown(values, view.kind, log), autoLevels=False)
        self.colorbar.setLevels(levels)
        self.image.setRect(QRectF(view.col_start, view.row_start, view.col_stop - view.col_start,
                                  view.row_stop - view.row_start))
        self._set_mask(self.mask_image, view)
        for axis in self.token_axes.values():
            axis.set_view(view)
        self.plot.setLabel("left", translate("Attention", "query token") if view.words
                           else translate("Attention", "query position"))
        self.plot.setLabel("bottom", translate("Attention", "key token") if view.words
                           else translate("Attention", "key position"))
        label = ("log₁₀ " if log else "") + shown(VALUE_LABELS[view.kind])
        if not view.full_resolution:
            label += (translate("Attention", " (mean per cell)") if view.pooling == "mean"
                      else translate("Attention", " (max per cell)"))
        self.colorbar.axis.setLabel(label)
        self.plot.setTitle(translate("Attention", "head {head}: {kind}").format(
            head=head, kind=shown(KIND_LABELS[view.kind]).lower()))
        self.set_caption(self._caption(view, head))
        self._draw_small(view, head)
        self.draw_zoom()
        self._highlight_plots(head)

    @staticmethod
    def _set_mask(item: pg.ImageItem, view: A.AttentionView) -> None:
        """Grey where the causal mask hides a whole cell, transparent elsewhere, over ``view``'s cells."""
        masked = view.masked_cells()
        if not masked.any():
            item.setVisible(False)
            return
        rgba = np.zeros(masked.shape + (4,), np.uint8)
        rgba[masked] = MASKED_RGBA
        item.setImage(rgba, autoLevels=False, levels=(0, 255))
        item.setRect(QRectF(view.col_start, view.row_start, view.col_stop - view.col_start,
                            view.row_stop - view.row_start))
        item.setVisible(True)

    def _caption(self, view: A.AttentionView, head: int) -> str:
        text = A.caption(view)
        if view.spec.causal:
            text += translate("Attention", " Grey: masked (future keys get no weight at all — not a weight of 0).")
        if view.slopes is not None:
            slope = float(view.slopes[head])
            text += translate("Attention", " Head {head} subtracts {slope}·distance (1/{inverse}).").format(
                head=head, slope=f"{slope:.4g}", inverse=f"{1 / slope:.4g}")
        if view.spec.n_heads > MAX_SMALL_HEADS:
            text += translate("Attention", " The grid shows heads 0–{last}; choose any head with the Head box.").format(
                last=MAX_SMALL_HEADS - 1)
        text += self._temperature_caption(view, head)
        if view.kind == "softmax":
            top = "1" if self.settings()["unit_scale"] else translate("Attention", "the largest weight shown")
            text += (translate("Attention", " Colours: log₁₀ of the weight, from {decades} decades below {top} up to "
                               "it.").format(decades=LOG_DECADES, top=top) if self._log()
                     else translate("Attention", " Colours run from 0 to {top}.").format(top=top))
        return text

    def _temperature_caption(self, view: A.AttentionView, head: int) -> str:
        """What the dashed entropy curve is, and whether the temperature lowers the entropy (NoPE)."""
        settings = self.settings()
        if not settings["nope_temperature"]:
            return ""
        if view.spec.scheme != "nope":
            return translate("Attention", " NoPE temperature: for the NoPE scheme only (choose NoPE to draw it).")
        if view.temperature_entropy is None:
            return ""
        a, f = view.temperature
        text = translate("Attention", " NoPE with temperature (entropy plot): dashed red = head {head}'s entropy with each "
                                      "query multiplied by 1 + {a}·ln(1 + ⌊(p + 1)/{f}⌋), Llama 4's "
                                      "attn_temperature_tuning; solid orange = plain NoPE.").format(
            head=head, a=f"{a:g}", f=f"{f:g}")
        step = max(0, math.ceil(f) - 1)
        past = view.entropy_positions >= step
        if a <= 0 or not past.any():
            return text + " " + translate("Attention", "The multiplier is 1 at every position shown (it first rises "
                                                       "at position {step}): both curves are the same.").format(
                step=f"{step:,}")
        drop = view.entropy[head][past] - view.temperature_entropy[head][past]
        return text + " " + translate("Attention", "From position {step} on it lowers the entropy at {lowered} of "
                                                   "{total} query positions shown, by {mean} nats on average.").format(
            step=f"{step:,}", lowered=f"{int((drop > 1e-9).sum()):,}", total=f"{int(past.sum()):,}",
            mean=f"{float(drop.mean()):.4f}")

    def _draw_small(self, view: A.AttentionView, head: int) -> None:
        n = min(view.spec.n_heads, MAX_SMALL_HEADS)
        if len(self.small) != n:
            self.grid.clear()
            self.small = []
            cols = math.ceil(math.sqrt(n))
            for h in range(n):
                label = self.grid.addLabel(translate("Attention", "head {head}").format(head=h), row=2 * (h // cols), col=h % cols, size="8pt")
                box = self.grid.addViewBox(row=2 * (h // cols) + 1, col=h % cols, lockAspect=False,
                                           enableMouse=False, enableMenu=False, invertY=True)
                image = pg.ImageItem(axisOrder="row-major")
                box.addItem(image)
                self.small.append((box, image, label))
        log = self._log()
        levels, diverging = _levels(view.values, view.kind, bool(self.settings()["unit_scale"]), log)
        lut = pg.colormap.get(DIVERGING if diverging else SEQUENTIAL).getLookupTable(nPts=256)
        for h, (box, image, label) in enumerate(self.small):
            image.setImage(_shown(view.values[h], view.kind, log), autoLevels=False, levels=levels, lut=lut)
            box.autoRange(padding=0)
            bold = h == head
            name = translate("Attention", "head {head}").format(head=h)
            label.setText(f"<b>{name} ◀</b>" if bold else name, size="8pt")

    def draw_zoom(self) -> None:
        zoom, view = self.controller.zoom, self.controller.view
        if zoom is None or view is None:
            self.zoom_image.setVisible(False)
            self.zoom_mask_image.setVisible(False)
            return
        values = zoom.values[self.head()]
        self.zoom_image.setImage(_shown(values, zoom.kind, self._log()), autoLevels=False)
        # the zoomed region is finer than the overview (pooled means are smaller): rescale the colours to it
        levels, _ = _levels(values, zoom.kind, bool(self.settings()["unit_scale"]), self._log())
        self.colorbar.setLevels(levels)
        self.zoom_image.setRect(QRectF(zoom.col_start, zoom.row_start, zoom.col_stop - zoom.col_start,
                                       zoom.row_stop - zoom.row_start))
        self.zoom_image.setVisible(True)
        self._set_mask(self.zoom_mask_image, zoom)
        self.set_caption(self._caption(view, self.head()) + translate(
            "Attention", " Zoomed: queries {first_query}–{last_query} × keys {first_key}–{last_key} recomputed at "
            "{detail}; colours rescaled to this region.").format(
            first_query=f"{zoom.row_start:,}", last_query=f"{zoom.row_stop - 1:,}", first_key=f"{zoom.col_start:,}",
            last_key=f"{zoom.col_stop - 1:,}", detail=zoom.reduction))

    def draw_plots(self) -> None:
        view = self.controller.view
        self.scheme_plot.clear()
        if len(self._profile_curves) != view.spec.n_heads:
            # one curve per head, made when the head count changes and reused after: making
            # pyqtgraph items costs more than drawing them (60 ms a redraw at 8 heads)
            self.profile_plot.clear()
            self.entropy_plot.clear()
            self._profile_curves = [self._head_curve(self.profile_plot) for _ in range(view.spec.n_heads)]
            self._entropy_curves = [self._head_curve(self.entropy_plot) for _ in range(view.spec.n_heads)]
            self._entropy_uniform = draw_as_path(self.entropy_plot.plot(pen=pg.mkPen("#888", style=Qt.PenStyle.DashLine)))
            self._temperature_curve = self._head_curve(self.entropy_plot)
            self._temperature_curve.setPen(pg.mkPen(TEMPERATURE_COLOUR, width=2, style=Qt.PenStyle.DashLine))
            self._temperature_curve.setZValue(3)
        for h in range(view.spec.n_heads):
            self._profile_curves[h].setData(view.distances, view.profile[h])
            self._entropy_curves[h].setData(view.entropy_positions, view.entropy[h])
        # the most spread-out attention possible: uniform over the keys a query may see
        keys = (view.entropy_positions + 1) if view.spec.causal else np.full(len(view.entropy_positions), view.spec.seq_len)
        self._entropy_uniform.setData(view.entropy_positions, np.log(keys))
        if view.slopes is not None:
            self._show_scheme_plot(True)
            self.scheme_plot.setTitle(translate("Attention", "ALiBi slope per head (2^y)"), size=STRIP_TITLE_SIZE)
            self.scheme_plot.setLabel("bottom", translate("Attention", "head"))
            self.scheme_plot.setLabel("left", translate("Attention", "log₂ slope"))
            self._slope_bars = self.scheme_plot.plot(np.arange(len(view.slopes)), np.log2(view.slopes),
                                                     pen=pg.mkPen("#999"), symbol="o", symbolSize=8,
                                                     symbolBrush="#2e86de")
            self._slope_mark = self.scheme_plot.plot([], [], pen=None, symbol="o", symbolSize=11,
                                                     symbolBrush="#e67e22")
        elif view.t5_buckets is not None:
            self._slope_bars = None
            self._show_scheme_plot(True)
            self.scheme_plot.setTitle(translate("Attention", "T5 bucket of key − query"), size=STRIP_TITLE_SIZE)
            self.scheme_plot.setLabel("bottom", translate("Attention", "key − query"))
            self.scheme_plot.setLabel("left", translate("Attention", "bucket"))
            rel, buckets = view.t5_relative, view.t5_buckets
            self.scheme_plot.plot(np.append(rel, rel[-1] + 1), buckets, stepMode="center",
                                  pen=pg.mkPen("#2e86de", width=1.5))
        else:
            self._slope_bars = None
            self._show_scheme_plot(False)
        self._highlight_plots(self.head())

    @staticmethod
    def _head_curve(plot: pg.PlotItem) -> pg.PlotDataItem:
        curve = plot.plot()
        curve.setDownsampling(auto=True, method="peak")
        curve.setClipToView(True)
        return curve

    def _draw_received(self, head: int) -> None:
        """The attention each key receives, for the chosen head, and its careful caption."""
        view = self.controller.view
        if view is None or view.received.size == 0:
            return
        keys = np.arange(view.spec.seq_len)
        # weights that underflowed to 0 are drawn at 1e-30 (log axis); exported arrays keep the 0
        self.received_mean.setData(keys, np.maximum(view.received[head], 1e-30))
        self.received_last.setData(keys, np.maximum(view.last_query[head], 1e-30))
        if view.spec.causal:
            self.received_uniform.setData(keys, A.uniform_causal_received(view.spec.seq_len))
        else:
            self.received_uniform.setData([], [])
        # at most RECEIVED_DECADES decades below the top: a 1e-30 floor would squeeze every label together
        shown = np.concatenate([view.received[head], view.last_query[head]])
        positive = shown[shown > 0]
        if positive.size:
            top = math.log10(float(positive.max()))
            bottom = max(math.log10(float(positive.min())), top - RECEIVED_DECADES)
            self.received_plot.setYRange(bottom - 0.1, top + 0.1, padding=0)
        self.received_label.setText(received_short_caption(view, head))
        self.received_label.setToolTip(received_caption(view, head))
        self.received_plot.setToolTip(received_caption(view, head))

    def _draw_temperature(self, head: int) -> None:
        """NoPE with the temperature: the chosen head's entropy with the scale, dashed beside its plain
        curve, and the legend naming the three curves (hidden otherwise)."""
        view, curve = self.controller.view, self._temperature_curve
        self.entropy_legend.clear()
        shown_curve = view is not None and view.temperature_entropy is not None and curve is not None
        self.entropy_legend.setVisible(shown_curve)
        if curve is None:
            return
        if not shown_curve:
            curve.setData([], [])
            return
        curve.setData(view.entropy_positions, view.temperature_entropy[head])
        self.entropy_legend.addItem(self._entropy_curves[head], translate("Attention", "head {head}").format(head=head))
        self.entropy_legend.addItem(curve, translate("Attention", "with temperature"))
        self.entropy_legend.addItem(self._entropy_uniform, translate("Attention", "uniform"))

    def _highlight_plots(self, head: int) -> None:
        self._draw_received(head)
        self._draw_temperature(head)
        for curves in (self._profile_curves, self._entropy_curves):
            for h, curve in enumerate(curves):
                chosen = h == head
                curve.setPen(pg.mkPen("#e67e22", width=2) if chosen else pg.mkPen((150, 150, 150, 90), width=1))
                curve.curve.setSegmentedLineMode("on" if chosen else "off")  # translucent: one path
                curve.setZValue(2 if chosen else 1)
        view = self.controller.view
        if view is not None and view.slopes is not None and getattr(self, "_slope_bars", None) is not None:
            self._slope_mark.setData([head], [float(np.log2(view.slopes[head]))])

    def draw_shuffle(self) -> None:
        result = self.controller.shuffle
        if result is None:
            self.shuffle_curve.setData([], [])
            self.shuffle_label.setText(translate("Attention", "Shuffle tokens: press the button to test whether order "
                                                 "reaches the outputs."))
            return
        self.shuffle_curve.setData(np.arange(result.n_tokens), result.change)
        colour = "#27ae60" if result.equivariant else "#c0392b"
        self.shuffle_label.setText(f"<span style='color:{colour}'>{result.summary}</span>")

    # ---- interaction ------------------------------------------------------------------------------
    def _cell_at(self, scene_pos) -> tuple[A.AttentionView, int, int, float] | None:
        if self.controller.view is None or not self.plot.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.plot.getViewBox().mapSceneToView(scene_pos)
        x, y = point.x(), point.y()
        for view in (self.controller.zoom if self.zoom_image.isVisible() else None, self.controller.view):
            if view is None or not (view.row_start <= y < view.row_stop and view.col_start <= x < view.col_stop):
                continue
            row = min(int((y - view.row_start) // view.row_bin), view.values.shape[1] - 1)
            col = min(int((x - view.col_start) // view.col_bin), view.values.shape[2] - 1)
            return view, row, col, float(view.values[self.head(), row, col])
        return None

    def describe(self, view: A.AttentionView, row: int, col: int) -> str:
        """Read-out text for one displayed cell of the chosen head."""
        rows, cols = view.cell_ranges(row, col)
        value = float(view.values[self.head(), row, col])
        name = shown(VALUE_LABELS[view.kind])
        if view.row_bin == 1 and view.col_bin == 1:
            q, k = rows.start, cols.start
            words = ""
            if view.words:
                words = f" ('{view.token(q)}' → '{view.token(k)}')"
                if view.spec.embedding_source:  # which vectors came from the checkpoint
                    words = f" ('{view.token(q)}' [{view.token_source(q)}] → '{view.token(k)}' [{view.token_source(k)}])"
            masked = (view.spec.causal and k > q) or not np.isfinite(value)
            said = (translate("Attention", "masked (a future key: no weight at all, not a weight of 0)") if masked
                    else f"{name} {value:.4g}")
            return translate("Attention", "head {head}: query {query}, key {key}{words}, distance {distance}: "
                             "{value}").format(head=self.head(), query=f"{q:,}", key=f"{k:,}", words=words,
                                               distance=f"{q - k:,}", value=said)
        dmin, dmax = rows.start - (cols.stop - 1), (rows.stop - 1) - cols.start
        if view.masked_cells()[row, col] or not np.isfinite(value):
            said = translate("Attention", "all masked (future keys: no weight at all)")
        else:
            said = f"{value:.4g}"
            if view.partly_masked(row, col):
                said += (translate("Attention", " (partly masked: the masked entries count as 0 in the mean)")
                         if view.pooling == "mean" else translate("Attention", " (partly masked)"))
            pooled = (translate("Attention", "mean {value}") if view.pooling == "mean"
                      else translate("Attention", "max {value}"))
            said = pooled.format(value=f"{name} {said}")
        return translate("Attention", "head {head}: queries {first_query}–{last_query}, keys {first_key}–{last_key}, "
                         "distance {nearest} … {farthest}: {value}").format(
            head=self.head(), first_query=f"{rows.start:,}", last_query=f"{rows.stop - 1:,}",
            first_key=f"{cols.start:,}", last_key=f"{cols.stop - 1:,}", nearest=f"{dmin:,}", farthest=f"{dmax:,}",
            value=said)

    def _hover(self, scene_pos) -> None:
        cell = self._cell_at(scene_pos)
        if cell is not None:
            view, row, col, _ = cell
            self.readout.setText(self.describe(view, row, col))

    def _click(self, event) -> None:
        for h, (box, _, _) in enumerate(self.small):
            if box.sceneBoundingRect().contains(event.scenePos()):
                self.select_head(h)
                return
        if event.double() and self.plot.sceneBoundingRect().contains(event.scenePos()):
            self.reset_zoom()

    def readout_at(self, key: float, query: float) -> str:
        """The hover read-out at (key, query) of the large matrix, as the mouse there would give it."""
        self._hover(self.plot.getViewBox().mapViewToScene(QPointF(key, query)))
        return self.readout.text()

    @property
    def zoom_view(self) -> A.AttentionView | None:
        """The zoomed region drawn over the overview at finer resolution, or None."""
        return self.controller.zoom if self.zoom_image.isVisible() else None

    def shown_arrays(self) -> dict[str, np.ndarray]:
        """What the plots draw now (tests, scripts): the large matrix as drawn, each head's distance
        profile and entropy curve (rows = heads) with their x values, and ALiBi's log₂ slopes."""
        out: dict[str, np.ndarray] = {}
        if self.image.image is not None:
            out["matrix"] = np.asarray(self.image.image)
        if self._profile_curves:
            out["profile_distances"] = np.asarray(self._profile_curves[0].xData)
            out["profile"] = np.stack([np.asarray(c.yData) for c in self._profile_curves])
            out["entropy_positions"] = np.asarray(self._entropy_curves[0].xData)
            out["entropy"] = np.stack([np.asarray(c.yData) for c in self._entropy_curves])
        curve = self._temperature_curve
        if curve is not None and curve.yData is not None and len(curve.yData):
            out["temperature_entropy"] = np.asarray(curve.yData)
        if getattr(self, "_slope_bars", None) is not None and self.scheme_plot.isVisible():
            out["alibi_log2_slopes"] = np.asarray(self._slope_bars.yData)
        return out

