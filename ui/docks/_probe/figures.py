"""Probes' views: the perplexity, passkey and attention-sinks figures, the tables of numbers, their
captions (what was measured beside what the article or paper claims) and hover read-outs.  They hold no state
of the probes: they draw what :class:`ProbeController` holds with the settings the dock gives."""


from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import (QHeaderView, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from peapp import schemes
from peapp.i18n import msg, shown, translate
from peapp.model_run import text_run as T
from peapp.model_run.probe_run import VARIANTS
from peapp.views.probe import MODES
from ui import i18n
from ui.plotting import relax_title_width

CONFIRM_SECONDS = 600.0  # a probe estimated longer than this asks first (the lab asks past an hour)
HOLD_RATIO = 1.10  # past the trained context, a curve "holds" when its perplexity is within 10 % of before
TAB_OF_MODE = {mode: i for i, mode in enumerate(MODES)}
VARIANT_COLOURS = {"none": "#2c3e50", "linear": "#e67e22", "ntk": "#27ae60", "dynamic": "#8e44ad",
                   "yarn": "#c0392b", "llama3": "#2980b9"}
LENGTH_COLOURS = ("#2980b9", "#c0392b", "#27ae60", "#8e44ad", "#e67e22", "#16a085")
REFERENCE_COLOUR = "#7f8c8d"
CONTROLS = ("length", "window", "factor", "lengths", "depths", "variant", "attention_layer")
TABLE_COLUMNS = (msg("Probe", "variant"), msg("Probe", "factor"), msg("Probe", "perplexity"), msg("Probe", "≤ trained"),
                 msg("Probe", "> trained"), msg("Probe", "seconds"))
HOVER_HINT = msg("Probe", "Hover over a curve for its numbers.")
# the attention-sinks tab: one colour per curve (full context, KV window, window + sinks)
STREAMING_COLOURS = {"full": "#2c3e50", "window": "#c0392b", "window+sinks": "#27ae60"}
STREAMING_COLUMNS = (msg("Probe", "curve"), msg("Probe", "KV cache"), msg("Probe", "perplexity"),
                     msg("Probe", "first tokens in the window"), msg("Probe", "after they leave"),
                     msg("Probe", "seconds"))


def variant_name(variant: str) -> str:
    """A RoPE variant's name in the current language."""
    return shown(VARIANTS.get(variant, variant))


def _axis_label(plot: pg.PlotItem, side: str, text: Any) -> None:
    """An axis label kept in the interface's language."""
    i18n.keep(lambda shown_text: plot.setLabel(side, shown_text), text, owner=plot.getViewWidget())



def _is_perplexity(result: Any) -> bool:
    return hasattr(result, "curves")


def streaming_name(result: Any, curve: str) -> str:
    """An attention-sinks curve's name in the current language, with its W and K."""
    if curve == "full":
        return translate("Probe", "full context")
    if curve == "window":
        return translate("Probe", "window W = {w}").format(w=f"{result.window:,}")
    return translate("Probe", "window + {k} sinks").format(k=result.sinks)


def streaming_cache(result: Any, curve: str) -> str:
    """What the KV cache of ``curve`` holds, in words."""
    if curve == "full":
        return translate("Probe", "every earlier token")
    if curve == "window":
        return translate("Probe", "the last {w} tokens").format(w=f"{result.window:,}")
    return translate("Probe", "tokens 0…{last} + the last {w}").format(last=result.sinks - 1, w=f"{result.window:,}") \
        if result.sinks else translate("Probe", "the last {w} tokens").format(w=f"{result.window:,}")


def _log_ticks(low: float, high: float) -> list[list[tuple[float, str]]]:
    """A log axis's ticks from ``low`` to ``high``: 1, 2 and 5 × 10^k labelled, the other multiples
    unlabelled (pyqtgraph labels 20 … 90 too, which run together where the plot is short)."""
    labelled, plain = [], []
    for k in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1):
        for m in range(1, 10):
            value = m * 10.0 ** k
            if low / 1.2 <= value <= high * 1.2:
                (labelled if m in (1, 2, 5) else plain).append((math.log10(value), f"{value:,g}" if m in (1, 2, 5)
                                                               else ""))
    return [labelled, plain]


def _streaming_title(result: Any) -> str:
    if result is None:
        return translate("Probe", "Attention sinks: perplexity with a sliding KV window")
    return translate("Probe", "Attention sinks — {family}, {n} tokens, KV window {w}, {k} sinks").format(
        family=result.family, n=f"{result.n_tokens:,}", w=f"{result.window:,}", k=result.sinks)


def _perplexity_title(result: Any) -> str:
    if result is None:
        return translate("Probe", "Perplexity vs position")
    return translate("Probe", "Perplexity vs position — {family}, {n} tokens, factor {factor}").format(
        family=result.family, n=f"{result.n_measured:,}", factor=f"{result.factor:g}")


def _plot(layout: pg.GraphicsLayoutWidget, row: int, col: int, title: Any) -> pg.PlotItem:
    plot = layout.addPlot(enableMenu=False, row=row, col=col)
    i18n.keep(plot.setTitle, title, owner=layout)
    plot.showGrid(x=True, y=True, alpha=0.2)
    return plot


class ProbeFigures:
    """The two tabs of Probes (``tabs``, ``figures``), drawn from ``controller``'s results with
    ``settings()``; hover read-outs go to ``readout``, captions to ``set_caption``."""

    def __init__(self, controller, settings, readout, set_caption, tabs, owner):
        self.c, self.settings, self.readout, self.set_caption = controller, settings, readout, set_caption
        self.tabs, self.owner = tabs, owner

    def fontMetrics(self):  # the table's row height follows the panel's font
        return self.owner.fontMetrics()

    def build(self, perplexity_row, passkey_row, streaming_row) -> None:
        self.figures: dict[str, QWidget] = {}
        # (1) perplexity vs position, with the table of numbers under it
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(2, 4, 2, 0)
        column.addLayout(perplexity_row)
        split = QSplitter(Qt.Orientation.Vertical)  # the user can give the table more room, or the curves
        split.setChildrenCollapsible(False)
        column.addWidget(split, 1)
        self.ppl_layout = pg.GraphicsLayoutWidget()
        self.ppl_layout.setObjectName("probeFigure_probe-perplexity")
        self.ppl_plot = _plot(self.ppl_layout, 0, 0, msg("Probe", "Perplexity vs position"))
        relax_title_width(self.ppl_plot)  # the whole figure title may be clipped, never push the plot
        self.ppl_plot.setLogMode(x=False, y=True)
        _axis_label(self.ppl_plot, "bottom", msg("Probe", "position (tokens; each point: a window's first position)"))
        _axis_label(self.ppl_plot, "left", msg("Probe", "perplexity (window)"))
        self.ppl_legend = pg.LegendItem(colCount=6)  # under the plot: over it, it hid the curves' ends
        self.ppl_layout.addItem(self.ppl_legend, row=1, col=0)
        self.ppl_curves: dict[str, pg.PlotDataItem] = {}
        self.trained_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#c0392b", width=1.5, style=Qt.PenStyle.DashLine),
                                            label=translate("Probe", "trained context"),
                                            labelOpts={"position": 0.92, "color": "#c0392b"})
        self.trained_line.setVisible(False)
        self.ppl_plot.addItem(self.trained_line)
        self.cannot_region = pg.LinearRegionItem(brush=pg.mkBrush(150, 150, 150, 70), movable=False)
        self.cannot_region.setVisible(False)
        self.ppl_plot.addItem(self.cannot_region)
        self.cannot_text = pg.TextItem(translate("Probe", "cannot: no position row"), color="#555555", anchor=(0, 0))
        self.cannot_text.setVisible(False)
        self.ppl_plot.addItem(self.cannot_text)
        self.ppl_layout.scene().sigMouseMoved.connect(self._hover_perplexity)
        split.addWidget(self.ppl_layout)
        self.table = QTableWidget(0, len(TABLE_COLUMNS))
        self.table.setObjectName("probeTable")
        i18n.keep_updated(self.table, lambda: self.table.setHorizontalHeaderLabels([shown(c) for c in TABLE_COLUMNS]))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        # a row as tall as Devanagari's vowel signs need (the Latin font's height cut their tops off)
        row = max(self.fontMetrics().height(), self.fontMetrics().boundingRect("ट्रेनिंग जैसा").height()) + 8
        self.table.verticalHeader().setDefaultSectionSize(row)
        self._table_row = row
        self.table.setMinimumHeight(3 * row)
        i18n.keep_tooltip(self.table, msg("Probe", "Perplexity over all measured positions, up to the trained context "
                                                   "and past it"))
        split.addWidget(self.table)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        self.figures["probe-perplexity"] = page
        self.tabs.addTab(page, shown(MODES["probe-perplexity"]))
        # (2) passkey by depth
        pk_page = QWidget()
        column = QVBoxLayout(pk_page)
        column.setContentsMargins(2, 4, 2, 0)
        column.addLayout(passkey_row)
        self.pk_layout = pg.GraphicsLayoutWidget()
        self.pk_layout.setObjectName("probeFigure_probe-passkey")
        column.addWidget(self.pk_layout, 1)
        self.logp_plot = _plot(self.pk_layout, 0, 0, msg("Probe", "log p(answer)"))
        _axis_label(self.logp_plot, "left", msg("Probe", "log p(answer tokens), nats"))
        self.acc_plot = _plot(self.pk_layout, 0, 1, msg("Probe", "Top-1 accuracy"))
        _axis_label(self.acc_plot, "left", msg("Probe", "answer tokens that are top-1"))
        self.acc_plot.setYRange(0, 1.05)
        self.att_plot = _plot(self.pk_layout, 0, 2, msg("Probe", "Attention on the needle"))
        _axis_label(self.att_plot, "left", msg("Probe", "weight on the needle"))
        self.pk_plots = (self.logp_plot, self.acc_plot, self.att_plot)
        for col in range(3):  # equal widths whatever the titles
            self.pk_layout.ci.layout.setColumnStretchFactor(col, 1)
        self.pk_legend = pg.LegendItem(colCount=2)  # one for the three plots: the lengths share their colours
        self.pk_layout.addItem(self.pk_legend, row=1, col=0, colspan=3)
        for p in self.pk_plots:
            _axis_label(p, "bottom", msg("Probe", "needle depth (0 start … 1 end)"))
            p.setXRange(-0.03, 1.03)
        self.pk_layout.scene().sigMouseMoved.connect(self._hover_passkey)
        self.figures["probe-passkey"] = pk_page
        self.tabs.addTab(pk_page, shown(MODES["probe-passkey"]))
        self._build_streaming(streaming_row)
        i18n.keep_updated(self.tabs, lambda: [self.tabs.setTabText(i, shown(label))
                                              for i, label in enumerate(MODES.values())])

    def _build_streaming(self, streaming_row) -> None:
        """(3) attention sinks: perplexity per window of positions for full context, a sliding KV window
        and the window + the first K tokens, the eviction marked, the numbers in a table under it."""
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(2, 4, 2, 0)
        column.addLayout(streaming_row)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        column.addWidget(split, 1)
        self.st_layout = pg.GraphicsLayoutWidget()
        self.st_layout.setObjectName("probeFigure_probe-streaming")
        self.st_plot = _plot(self.st_layout, 0, 0, msg("Probe", "Attention sinks: perplexity with a sliding KV window"))
        relax_title_width(self.st_plot)
        self.st_plot.setLogMode(x=False, y=True)
        # (not "window": here that is the KV cache's)
        _axis_label(self.st_plot, "bottom", msg("Probe", "position of the predicted token (each point: the first of "
                                                         "its group of positions)"))
        _axis_label(self.st_plot, "left", msg("Probe", "perplexity"))

        self.st_legend = pg.LegendItem(colCount=4)  # the three curves and the eviction marker in one row
        self.st_layout.addItem(self.st_legend, row=1, col=0)
        self.st_curves: dict[str, pg.PlotDataItem] = {}
        # The eviction marker is named in the legend row, not beside the line: there its words sat on the
        # window curve's peak, which comes right after the eviction. evict_sample is its legend entry's line.
        evict_pen = pg.mkPen("#7f8c8d", width=1.5, style=Qt.PenStyle.DashLine)
        self.evict_line = pg.InfiniteLine(angle=90, pen=evict_pen)
        self.evict_line.setVisible(False)
        self.st_plot.addItem(self.evict_line)
        self.evict_sample = pg.PlotDataItem(pen=evict_pen)
        self.st_layout.scene().sigMouseMoved.connect(self._hover_streaming)
        split.addWidget(self.st_layout)
        self.st_table = QTableWidget(0, len(STREAMING_COLUMNS))
        self.st_table.setObjectName("probeStreamingTable")
        i18n.keep_updated(self.st_table, lambda: self.st_table.setHorizontalHeaderLabels(
            [shown(c) for c in STREAMING_COLUMNS]))
        self.st_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.st_table.verticalHeader().setVisible(False)
        self.st_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.st_table.verticalHeader().setDefaultSectionSize(self._table_row)
        i18n.keep_tooltip(self.st_table, msg("Probe", "Perplexity over all measured positions, while token 0 is still "
                                                      "in the window (positions 1 … W) and after it has left"))
        split.addWidget(self.st_table)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        self.figures["probe-streaming"] = page
        self.tabs.addTab(page, shown(MODES["probe-streaming"]))

    # ---- drawing ----------------------------------------------------------------------------------
    def show_empty(self) -> None:
        self.set_caption(translate("Probe", "Probes: open a causal checkpoint (File > Open Sample), choose the tab's "
                                            "settings and press Run. Perplexity vs position applies each RoPE scaling "
                                            "to the real model; the passkey probe hides a number at each depth of a "
                                            "filler text and asks for it at the end.")
                         + " " + translate("Probe", "Attention sinks (streaming) measures perplexity with a KV cache "
                                                    "of the last W tokens, with and without the first K tokens kept "
                                                    "(Xiao et al. 2024, StreamingLLM)."))

    def shown_result(self, mode: str | None = None) -> Any:
        return self.c.shown_result(mode or self.settings()["mode"])

    def draw(self) -> None:
        self._draw_perplexity(self.shown_result("probe-perplexity"))
        self._draw_passkey(self.shown_result("probe-passkey"))
        self._draw_streaming(self.shown_result("probe-streaming"))
        mode = self.settings()["mode"]
        result = self.shown_result(mode)
        if result is None:
            self.show_empty()
        elif mode == "probe-perplexity":
            self.set_caption(self.perplexity_caption(result))
        elif mode == "probe-streaming":
            self.set_caption(self.streaming_caption(result))
        else:
            self.set_caption(self.passkey_caption(result))

    def _window(self) -> int:
        return int(self.settings()["window"])

    def _draw_perplexity(self, result: Any) -> None:
        # the plot's title is the figure's whole title (an export then draws no second one above it)
        self.ppl_plot.setTitle(_perplexity_title(result))
        _clear_curves(self.ppl_plot, self.ppl_curves, self.ppl_legend)
        if result is None:
            self.trained_line.setVisible(False)
            self.cannot_region.setVisible(False)
            self.cannot_text.setVisible(False)
            self.table.setRowCount(0)
            return
        window = self._window()
        for curve in result.curves:
            starts, _, ppl = curve.windowed(window)
            pen = pg.mkPen(VARIANT_COLOURS[curve.variant], width=2,
                           style=Qt.PenStyle.SolidLine if curve.complete else Qt.PenStyle.DotLine)
            label = variant_name(curve.variant) + ("" if curve.variant == "none" else f" ×{curve.factor:g}") \
                + ("" if curve.complete else translate("Probe", " (first positions, from the estimate)"))
            item = self.ppl_plot.plot(starts.astype(float), np.clip(ppl, 1e-3, 1e12), pen=pen, name=label,
                                      symbol="o", symbolSize=4, symbolBrush=VARIANT_COLOURS[curve.variant],
                                      symbolPen=None)
            self.ppl_curves[curve.variant] = item
            self.ppl_legend.addItem(item, label)
        trained = result.trained_context
        self.trained_line.setVisible(bool(trained))
        if trained:
            self.trained_line.setValue(trained)
            self.trained_line.label.setFormat(translate("Probe", "trained context {n}").format(n=f"{trained:,}"))
        limit = result.position_limit
        cannot = bool(result.cannot and limit)
        self.cannot_region.setVisible(cannot)
        self.cannot_text.setVisible(cannot)
        if cannot:
            self.cannot_region.setRegion((limit, result.n_tokens))
            self.cannot_text.setText(translate("Probe", "cannot: no position row past {limit}").format(
                limit=f"{limit:,}"))
            finite = [np.nanmax(c.windowed(window)[2]) for c in result.curves if c.nll.size]
            top = max(finite) if finite else 10.0
            self.cannot_text.setPos(limit, math.log10(max(top, 1.0)))
        self.ppl_plot.setXRange(0, max(result.n_tokens, 2), padding=0.02)
        self._fill_table(result)

    def _fill_table(self, result: Any) -> None:
        trained = result.trained_context
        past = bool(trained and result.n_measured > trained)
        self.table.setRowCount(len(result.curves))
        for row, c in enumerate(result.curves):
            cells = (variant_name(c.variant) + ("" if c.complete else translate("Probe", " (partial)")),
                     f"{c.factor:g}", f"{c.perplexity:,.2f}",
                     f"{c.perplexity_between(1, trained):,.2f}" if past else "—",
                     f"{c.perplexity_between(trained, result.n_measured):,.2f}" if past else "—",
                     f"{c.seconds:,.1f}")
            for col, text in enumerate(cells):
                self.table.setItem(row, col, QTableWidgetItem(text))
        # every row in view (up to the six variants; 3 of 6 showed at 1366 × 768): the curves take the rest
        rows = max(3, min(len(result.curves), len(VARIANTS)))
        self.table.setMinimumHeight(self.table.horizontalHeader().height() + rows * self._table_row
                                    + 2 * self.table.frameWidth())

    def perplexity_caption(self, result: Any) -> str:
        outcome = self.c.outcomes.get("probe-perplexity")
        model = translate("Probe", "{family} ({scheme} positions)").format(family=result.family,
                                                                           scheme=schemes.name(result.scheme))
        head = translate("Probe", "{model}: per-position loss on {n} tokens").format(model=model,
                                                                                  n=f"{result.n_measured:,}")
        if outcome is not None and outcome.text_label:
            head += translate("Probe", " of {text}").format(text=T.shown_label(outcome.text_label))
        head += translate("Probe", "; each point is exp(mean loss) over {window} positions.").format(
            window=f"{self._window():,}") + " " + self.where_measured(result)
        running = self.c.partial.get("probe-perplexity") is result
        if running:
            done = sum(c.complete for c in result.curves)
            head += (translate("Probe", " Running: {n} variant finished so far.") if done == 1 else
                     translate("Probe", " Running: {n} variants finished so far.")).format(n=done)
        parts = [head]
        if result.cannot:
            parts.append(self._cannot_sentence(result))
        parts += [translate("Probe", "{variant}: not run ({reason}).").format(variant=v, reason=self._why_not(result, why))
                  for v, why in result.not_applied.items()]
        parts.append(self.verdict(result))
        return " ".join(p for p in parts if p)

    @staticmethod
    def _cannot_sentence(result: Any) -> str:
        """``result.cannot`` (English, as saved) in the current language."""
        limit, n = result.position_limit, result.n_tokens
        english = (f"positions {limit:,} … {n - 1:,} cannot be read: this model's learned position table has "
                   f"{limit:,} rows and no row for a later position (no scaling exists for a learned table); "
                   f"loss is measured up to position {limit - 1:,}.")
        if not limit or result.cannot != english:
            return result.cannot[0].upper() + result.cannot[1:]
        return translate("Probe", "Positions {first} … {last} cannot be read: this model's learned position table has "
                                  "{rows} rows and no row for a later position (no scaling exists for a learned "
                                  "table); loss is measured up to position {measured}.").format(
            first=f"{limit:,}", last=f"{n - 1:,}", rows=f"{limit:,}", measured=f"{limit - 1:,}")

    @staticmethod
    def _why_not(result: Any, why: str) -> str:
        """Why a variant was not run (English, as saved) in the current language."""
        if why == f"not a RoPE model ({result.scheme.replace('_', ' ')} positions): nothing to scale":
            return translate("Probe", "not a RoPE model ({scheme} positions): nothing to scale").format(
                scheme=schemes.name(result.scheme))
        return why

    def verdict(self, result: Any) -> str:
        """What the measured numbers say about the article's claim, in words (agreeing or not)."""
        trained = result.trained_context
        curves = [c for c in result.curves if c.complete]
        if not trained:
            return translate("Probe", "The checkpoint does not say its trained context, so nothing is compared "
                                      "across it.")
        if result.n_measured <= trained:
            return translate("Probe", "The probe stays within the trained context ({n} tokens): choose a probe length "
                                      "past it to test whether the unscaled curve rises and the scaled ones "
                                      "hold.").format(n=f"{trained:,}")
        if not curves:
            return ""
        # compare past the trained context with the half just before it (early positions have less context,
        # so their perplexity is higher whatever the positions do)
        lo = trained // 2
        sentences = []
        reference = next((c for c in curves if c.variant == "none"), None)
        inside = reference.perplexity_between(lo, trained) if reference is not None else math.nan
        for c in curves:
            before, after = c.perplexity_between(lo, trained), c.perplexity_between(trained, result.n_measured)
            ratio = after / before if before and math.isfinite(before) and before > 0 else math.nan
            holds = math.isfinite(ratio) and ratio <= HOLD_RATIO
            name = variant_name(c.variant) + ("" if c.variant == "none" else f" ×{c.factor:g}")
            measured = f"{name}: {before:,.2f} → {after:,.2f} (×{ratio:.2f})"
            if c.variant == "none":
                sentences.append(f"{measured}: " + (
                    translate("Probe", "it rises past the trained context, as the article expects") if not holds
                    else translate("Probe", "it does not rise here, unlike the article's expectation")))
            else:
                sentence = f"{measured}: " + (translate("Probe", "it holds, as the article expects") if holds
                                              else translate("Probe", "it does not hold, unlike the article's claim"))
                if math.isfinite(inside) and before > inside * HOLD_RATIO:  # holding is not the whole story
                    sentence += translate("Probe", ", but inside the trained context it is worse than as trained "
                                                   "({perplexity})").format(perplexity=f"{inside:,.2f}")
                sentences.append(sentence)
        return translate("Probe", "Perplexity over positions {low}–{trained} → past {trained}: {measured}. ('Holds': "
                                  "within {tolerance}.)").format(low=f"{lo:,}", trained=f"{trained:,}",
                                                                 measured="; ".join(sentences),
                                                                 tolerance=f"{HOLD_RATIO - 1:.0%}")

    def _attention_of(self, result: Any, n_tokens: int) -> np.ndarray:
        per_layer = result.layer_attention(n_tokens)  # [layers, depths]
        if per_layer.size == 0:
            return np.full(len(result.depths), np.nan)
        layer = int(self.settings()["attention_layer"])
        if layer < 0:
            return per_layer.mean(axis=0)  # a depth not measured yet is NaN in every layer: stays NaN
        return per_layer[min(layer, per_layer.shape[0] - 1)]

    def _draw_passkey(self, result: Any) -> None:
        from peapp.model_run.references import LOST_IN_THE_MIDDLE as REF

        for plot in self.pk_plots:
            plot.clear()
        self.pk_legend.clear()
        if result is None:
            return
        depths = np.asarray(result.depths, dtype=float)
        logp, acc = result.table("logprob"), result.table("token_accuracy")
        uniform = result.table("uniform_share")
        for i, n in enumerate(result.lengths):
            colour = LENGTH_COLOURS[i % len(LENGTH_COLOURS)]
            style = dict(pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6, symbolBrush=colour, symbolPen=None,
                         name=translate("Probe", "{n} tokens").format(n=f"{n:,}"), connect="finite")
            if not np.isfinite(logp[i]).any():
                continue  # this length is not measured yet (a partial result)
            self.pk_legend.addItem(self.logp_plot.plot(depths, logp[i], **style), style["name"])
            self.acc_plot.plot(depths, acc[i], **style)
            self.att_plot.plot(depths, self._attention_of(result, n), **style)
            dotted = self.att_plot.plot(depths, uniform[i], pen=pg.mkPen(colour, width=1, style=Qt.PenStyle.DotLine),
                                        name=translate("Probe", "uniform attention, {n}").format(n=f"{n:,}"),
                                        connect="finite")
            self.pk_legend.addItem(dotted, translate("Probe", "uniform attention, {n}").format(n=f"{n:,}"))
        reference = self.acc_plot.plot(np.asarray(REF["depth"]), np.asarray(REF["accuracy_percent"]) / 100.0,
                           pen=pg.mkPen(REFERENCE_COLOUR, width=2, style=Qt.PenStyle.DashLine), symbol="s",
                           symbolSize=6, symbolBrush=REFERENCE_COLOUR, symbolPen=None,
                           name=translate("Probe", "Liu et al. 2023 (the paper's: GPT-3.5, 20-doc QA)"))
        self.pk_legend.addItem(reference, translate("Probe", "Liu et al. 2023: the paper's (GPT-3.5, 20-doc QA)"))
        closed = pg.InfiniteLine(pos=REF["closed_book_percent"] / 100.0, angle=0,
                                 pen=pg.mkPen(REFERENCE_COLOUR, width=1, style=Qt.PenStyle.DotLine),
                                 label=translate("Probe", "paper's closed-book"), labelOpts={"position": 0.5, "color": REFERENCE_COLOUR})
        self.acc_plot.addItem(closed)
        self.acc_plot.setYRange(0, 1.05)
        layer = int(self.settings()["attention_layer"])
        self.att_plot.setTitle(translate("Probe", "Attention on the needle, all layers") if layer < 0 else
                               translate("Probe", "Attention on the needle, layer {layer}").format(layer=layer))

    @staticmethod
    def where_measured(result: Any) -> str:
        """Where and how the probe ran, as its result records it (auto resolved; a saved result's own)."""
        return translate("Probe", "Measured on {device} in {dtype}.").format(device=result.device, dtype=result.dtype)

    def passkey_caption(self, result: Any) -> str:
        from peapp.model_run.references import LOST_IN_THE_MIDDLE as REF

        acc = result.table("token_accuracy")
        rope = variant_name(result.variant) + ("" if result.variant == "none" else f" ×{result.factor:g}")
        prompts = len(result.cells)
        running = self.c.partial.get("probe-passkey") is result
        parts = [translate("Probe", "{family}, RoPE {rope}: a pass key at each depth of a filler of {lengths} tokens, "
                                    "asked for at the end;").format(
            family=result.family, rope=rope, lengths=", ".join(f"{n:,}" for n in result.lengths))
            + " " + (translate("Probe", "{n} prompt so far (running).") if prompts == 1 and running else
                     translate("Probe", "{n} prompts so far (running).") if running else
                     translate("Probe", "{n} prompt.") if prompts == 1 else
                     translate("Probe", "{n} prompts.")).format(n=prompts) + " " + self.where_measured(result)]
        for i, n in enumerate(result.lengths):
            row = acc[i]
            if np.isfinite(row).sum() >= 3:
                ends = np.nanmean([row[0], row[-1]]) if np.isfinite(row[[0, -1]]).all() else math.nan
                middle = np.nanmean(row[1:-1])
                shape = (translate("Probe", "lower in the middle than at the ends (lost in the middle)")
                         if ends - middle > 0.05 else
                         translate("Probe", "not lower in the middle than at the ends (no lost-in-the-middle dip)"))
                parts.append(translate("Probe", "{n} tokens: accuracy {ends} at the ends, {middle} in the middle: "
                                                "{shape}.").format(n=f"{n:,}", ends=f"{ends:.0%}",
                                                                   middle=f"{middle:.0%}", shape=shape))
        parts.append(translate("Probe", "Grey dashed: the paper's numbers, Liu et al. 2023 (arXiv:2307.03172), "
                                        "GPT-3.5-Turbo on {documents}-document QA by the answer document's position — "
                                        "another model and task, drawn for the shape, not as a like-for-like "
                                        "comparison. Right: the answer rows' attention on the needle, mean over heads "
                                        "(and layers with Layer = all); dotted, its share if attention were "
                                        "uniform.").format(documents=REF["documents"]))
        return " ".join(parts)

    def _stream_bin(self) -> int:
        return int(self.settings()["stream_bin"])

    def _draw_streaming(self, result: Any) -> None:
        self.st_plot.setTitle(_streaming_title(result))
        _clear_curves(self.st_plot, self.st_curves, self.st_legend)
        if result is None:
            self.evict_line.setVisible(False)
            self.st_table.setRowCount(0)
            return
        width = self._stream_bin()
        for curve in result.curves:
            starts, _, ppl = curve.windowed(width)
            colour = STREAMING_COLOURS[curve.variant]
            label = streaming_name(result, curve.variant)
            item = self.st_plot.plot(starts.astype(float), np.clip(ppl, 1e-3, 1e12), pen=pg.mkPen(colour, width=2),
                                     name=label, symbol="o", symbolSize=4, symbolBrush=colour, symbolPen=None)
            self.st_curves[curve.variant] = item
            self.st_legend.addItem(item, label)
        values = np.concatenate([c.windowed(width)[2] for c in result.curves]) if result.curves else np.zeros(0)
        values = values[np.isfinite(values) & (values > 0)]
        self.st_plot.getAxis("left").setTicks(_log_ticks(values.min(), min(values.max(), 1e12)) if values.size else None)
        evicted = result.evicted_from() + 1  # the first position predicted from a cache without token 0
        self.evict_line.setVisible(evicted < result.n_tokens)
        self.evict_line.setValue(evicted)
        if evicted < result.n_tokens:
            self.st_legend.addItem(self.evict_sample, translate("Probe", "token 0 leaves the window ({position})").format(
                position=f"{evicted:,}"))
        self.st_plot.setXRange(0, max(result.n_tokens, 2), padding=0.02)
        self._fill_streaming_table(result)

    def _fill_streaming_table(self, result: Any) -> None:
        start = result.window + 1
        after = result.n_tokens > start
        self.st_table.setRowCount(len(result.curves))
        for row, c in enumerate(result.curves):
            cells = (streaming_name(result, c.variant), streaming_cache(result, c.variant), f"{c.perplexity:,.2f}",
                     f"{c.perplexity_between(1, start):,.2f}",
                     f"{c.perplexity_between(start, result.n_tokens):,.2f}" if after else "—", f"{c.seconds:,.1f}")
            for col, text in enumerate(cells):
                self.st_table.setItem(row, col, QTableWidgetItem(text))
        # the header's size hint, not its height: after a language switch the height is the old script's
        header = max(self.st_table.horizontalHeader().height(), self.st_table.horizontalHeader().sizeHint().height())
        self.st_table.setMinimumHeight(header + 3 * self._table_row + 2 * self.st_table.frameWidth() + 2)

    def streaming_caption(self, result: Any) -> str:
        """What was measured, the positions' convention and why, the verdict from the numbers, and Xiao
        et al.'s finding as the cited reference."""
        from peapp.model_run.streaming import REFERENCE as REF

        outcome = self.c.outcomes.get("probe-streaming")
        head = translate("Probe", "{family}: per-position loss on {n} tokens").format(
            family=result.family, n=f"{result.n_tokens:,}")
        if outcome is not None and outcome.text_label and outcome.result is result:
            head += translate("Probe", " of {text}").format(text=T.shown_label(outcome.text_label))
        head += translate("Probe", ": full context, a KV cache of the last {w}, and that window + the first {k}; a "
                                   "point is exp(mean loss) over {bin} positions.").format(
            w=f"{result.window:,}", k=result.sinks, bin=f"{self._stream_bin():,}")
        parts = [head, translate("Probe", "Positions as StreamingLLM numbers them inside the cache (sinks 0…K−1, window "
                                          "K…K+W−1): with the text's own, the sinks would drift past any trained "
                                          "distance and this would measure length extrapolation instead.")]
        if self.c.partial.get("probe-streaming") is result and len(result.curves) < 3:
            parts.append((translate("Probe", "Running: {n} of 3 curves finished so far.")).format(n=len(result.curves)))
        else:
            parts.append(translate("Probe", "Measured: {verdict}").format(verdict=result.verdict()))
        ppl = REF["perplexity"]
        parts.append(translate("Probe", "Reference: Xiao et al. 2024 (StreamingLLM), Llama-2-13B on PG19, cache 1,024: "
                                        "window alone {window} once the first tokens are evicted, 4 sinks + 1,020 "
                                        "{sinks}, dense {full} — another model and text.").format(
            window=f"{ppl['window']:,.2f}", sinks=f"{ppl['window+sinks']:.2f}", full=f"{ppl['full']:.2f}"))
        return " ".join(parts)

    # ---- hover read-outs --------------------------------------------------------------------------
    def _hover_perplexity(self, scene_pos) -> None:
        text = self.describe_perplexity_at_scene(scene_pos)
        if text:
            self.readout.setText(text)

    def describe_perplexity_at_scene(self, scene_pos) -> str:
        result = self.shown_result("probe-perplexity")
        if result is None or not result.curves or not self.ppl_plot.sceneBoundingRect().contains(scene_pos):
            return ""
        return self.describe_position(self.ppl_plot.getViewBox().mapSceneToView(scene_pos).x())

    def describe_position(self, position: float) -> str:
        """The read-out at a position: every variant's window perplexity there."""
        result = self.shown_result("probe-perplexity")
        window = self._window()
        if result.position_limit and position >= result.position_limit and result.cannot:
            return translate("Probe", "position {position}: cannot — the learned position table has {rows} rows, none "
                                      "for this position").format(position=f"{int(round(position)):,}",
                                                                  rows=f"{result.position_limit:,}")
        parts = []
        for c in result.curves:
            starts, stops, ppl = c.windowed(window)
            index = int(np.searchsorted(stops, position, side="right"))
            if 0 <= index < starts.size and starts[index] <= position:
                parts.append(f"{variant_name(c.variant)} {ppl[index]:,.2f}")
                first, last = int(starts[index]), int(stops[index]) - 1
        if not parts:
            return ""
        return translate("Probe", "positions {first}–{last}: perplexity {values}").format(
            first=f"{first:,}", last=f"{last:,}", values=", ".join(parts))

    def _hover_streaming(self, scene_pos) -> None:
        result = self.shown_result("probe-streaming")
        if result is None or not result.curves or not self.st_plot.sceneBoundingRect().contains(scene_pos):
            return
        text = self.describe_streaming(self.st_plot.getViewBox().mapSceneToView(scene_pos).x())
        if text:
            self.readout.setText(text)

    def describe_streaming(self, position: float) -> str:
        """The read-out at a position of the attention-sinks plot: each curve's window perplexity there."""
        result = self.shown_result("probe-streaming")
        width = self._stream_bin()
        parts = []
        for c in result.curves:
            starts, stops, ppl = c.windowed(width)
            index = int(np.searchsorted(stops, position, side="right"))
            if 0 <= index < starts.size and starts[index] <= position:
                parts.append(f"{streaming_name(result, c.variant)}: {ppl[index]:,.2f}")
                first, last = int(starts[index]), int(stops[index]) - 1
        if not parts:
            return ""
        where = (translate("Probe", "token 0 in the window") if last <= result.window else
                 translate("Probe", "token 0 evicted") if first > result.window else
                 translate("Probe", "token 0 leaves the window here"))
        return translate("Probe", "positions {first}–{last} ({where}), perplexity — {values}").format(
            first=f"{first:,}", last=f"{last:,}", where=where, values="; ".join(parts))

    def _hover_passkey(self, scene_pos) -> None:
        result = self.shown_result("probe-passkey")
        if result is None:
            return
        for plot in self.pk_plots:
            if plot.sceneBoundingRect().contains(scene_pos):
                text = self.describe_depth(plot.getViewBox().mapSceneToView(scene_pos).x())
                if text:
                    self.readout.setText(text)
                return

    def describe_depth(self, depth: float) -> str:
        """The read-out at the measured depth nearest ``depth``: every length's numbers there."""
        result = self.shown_result("probe-passkey")
        depths = np.asarray(result.depths, dtype=float)
        j = int(np.argmin(np.abs(depths - depth)))
        if abs(depths[j] - depth) > 0.06:
            return ""
        logp, acc = result.table("logprob"), result.table("token_accuracy")
        parts = []
        for i, n in enumerate(result.lengths):
            if np.isfinite(logp[i, j]):
                parts.append(translate("Probe", "{n} tokens: log p {logp}, top-1 {accuracy}, attention on the needle "
                                                "{attention}").format(n=f"{n:,}", logp=f"{logp[i, j]:.2f}",
                                                                      accuracy=f"{acc[i, j]:.0%}",
                                                                      attention=f"{self._attention_of(result, n)[j]:.4f}"))
        return translate("Probe", "depth {depth}: {values}").format(
            depth=f"{depths[j]:.0%}", values="; ".join(parts) if parts else translate("Probe", "not measured yet"))

    def readout_at(self, x: float, y: float, plot: Any = None) -> str:
        """The hover read-out with the pointer at data point (x, y) of ``plot`` (default: the perplexity plot;
        the read-outs depend on x only, so y is taken inside the visible range)."""
        if plot is None:
            plot = self.st_plot if self.settings()["mode"] == "probe-streaming" else self.ppl_plot
        low, high = plot.getViewBox().viewRange()[1]
        y = (low + high) / 2
        plot.scene().sigMouseMoved.emit(plot.getViewBox().mapViewToScene(QPointF(x, y)))
        return self.readout.text()

    def export_arrays(self) -> dict[str, np.ndarray]:
        mode = self.settings()["mode"]
        result = self.shown_result(mode)
        if result is None:
            return {}
        if mode == "probe-streaming":
            found: dict[str, np.ndarray] = {}
            for c in result.curves:
                starts, stops, ppl = c.windowed(self._stream_bin())
                found.setdefault("window_start", starts)
                found.setdefault("window_stop", stops)
                key = c.variant.replace("+", "_")
                found[f"perplexity_{key}"] = ppl
                found[f"nll_{key}"] = c.nll
            return found
        if mode == "probe-perplexity":
            out: dict[str, np.ndarray] = {}
            window = self._window()
            for c in result.curves:
                starts, stops, ppl = c.windowed(window)
                out.setdefault("window_start", starts)
                out[f"perplexity_{c.variant}"] = ppl
                out[f"nll_{c.variant}"] = c.nll
            return out
        out = {"depth": np.asarray(result.depths, dtype=float), "length": np.asarray(result.lengths)}
        for name in ("logprob", "token_accuracy", "needle_attention", "uniform_share"):
            out[name] = result.table(name)
        for n in result.lengths:
            out[f"needle_attention_per_layer_{n}"] = result.layer_attention(n)
        return out


def _clear_curves(plot, curves: dict, legend) -> None:
    """Take a probe plot's curves (one per variant) and their legend entries off before a redraw."""
    for item in curves.values():
        plot.removeItem(item)
    curves.clear()
    legend.clear()
