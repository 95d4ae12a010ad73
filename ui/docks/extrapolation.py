"""Length extrapolation, side by side: what each scheme does past its training length.

Four plots (learned rows, sinusoid phases, RoPE angles per pair with each scaling, ALiBi bias
per head) and one computed summary line per scheme (and per RoPE scaling).
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget
from superqt import QCollapsible

from peapp.i18n import msg
from peapp.analysis import extrapolation as ex
from peapp.document import Document
from ui import i18n
from ui.docks.base import FittedScroll, readout_label
from ui.docks._settings import SettingsDock
from ui.forms import Spin
from ui.plotting import draw_as_path, plot_at, pow10, relax_title_width, set_axis_label

VERDICT_COLORS = {"fits": "#7f8c8d", "extrapolates": "#2471a3", "interpolates": "#1e8449", "cannot": "#c0392b"}
SCALING_COLORS = {"none": "#e74c3c", "linear": "#f39c12", "ntk": "#9b59b6", "dynamic": "#e84393",
                  "yarn": "#1abc9c", "llama3": "#3498db"}
# Reference lines and their labels: a mid grey that reads on the dark screen and on a light export.
GUIDE = "#8a9597"
TRAINED_COLOR = "#8a9597"
# two rows of plots, each with ~100 px of data area under its title and above its axis
GRAPHICS_MIN_HEIGHT = 340
SHORT_NAMES = {"none": msg("Extrapolation", "unscaled"), "linear": "PI", "ntk": "NTK",
               "dynamic": msg("Extrapolation", "dyn. NTK"), "yarn": "YaRN", "llama3": "Llama-3"}


OBJECT_NAMES = {"train_len": "extrapTrain", "eval_len": "extrapEval", "factor": "extrapFactor",
                "d_model": "extrapDModel", "head_dim": "extrapHeadDim", "rope_base": "extrapRopeBase",
                "n_heads": "extrapHeads", "threshold": "extrapThreshold", "t5_buckets": "extrapT5Buckets",
                "t5_max_distance": "extrapT5MaxDistance"}


def _rich_lines(object_name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    return label


class ExtrapolationDock(SettingsDock):
    object_name = "extrapolationDock"
    view_id = "extrapolation"
    title = msg("Panels", "Length extrapolation")
    tab_title = msg("Panels", "Extrapolation")
    order = 80
    shortcut = "Ctrl+8"
    view_names = ("extrapolation",)

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._result: ex.ExtrapolationResult | None = None
        body = QWidget()
        layout = self._column = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        grid = QGridLayout()
        counts = Spin(adaptive=True, separators=True)
        form = self.make_form(hints={
            **{name: counts for name in ("train_len", "eval_len", "d_model", "head_dim", "n_heads", "t5_buckets",
                                         "t5_max_distance")},
            "factor": Spin(decimals=2, special="auto"), "rope_base": Spin(decimals=0, adaptive=True),
            "threshold": Spin(decimals=2)}, object_names=OBJECT_NAMES)
        (self.train_spin, self.eval_spin, self.factor_spin, self.d_spin, self.head_spin, self.base_spin,
         self.heads_spin, self.threshold_spin, self.t5_buckets_spin, self.t5_distance_spin) = (
            form.widgets[name] for name in OBJECT_NAMES)
        # the text shown at factor 0 (the form sets it once, in English)
        i18n.keep_updated(self.factor_spin, lambda: self.factor_spin.setSpecialValueText(
            i18n.translate("Extrapolation", "auto")))
        # the lengths and the factor up front; each scheme's own settings folded away below
        form.add_to_grid(grid, [("train_len", "eval_len", "factor")])
        layout.addLayout(grid)
        self.more = QCollapsible()
        i18n.keep(self.more.setText, msg("Extrapolation", "Scheme settings"), self.more)
        self.more.setObjectName("extrapolationMore")
        i18n.keep_tooltip(self.more, msg("Extrapolation", "Each scheme's own settings: RoPE base and head_dim, sinusoid "
                                                          "width, T5 buckets, ALiBi"))
        more_body = QWidget()
        more_grid = QGridLayout(more_body)
        more_grid.setContentsMargins(0, 0, 0, 0)
        form.add_to_grid(more_grid, [("rope_base", "head_dim", "d_model"), ("t5_buckets", "t5_max_distance", "n_heads"),
                                     ("threshold",)])
        self.more.addWidget(more_body)
        layout.addWidget(self.more)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("extrapolationGraphics")
        self.graphics.setMinimumHeight(GRAPHICS_MIN_HEIGHT)
        self.plots: dict[str, pg.PlotItem] = {}
        # four plots in a row above the RoPE plot, whose legend stands beside its curves inside the
        # RoPE plot's own layout: inside the view box it covered the curves, in a row under the plots
        # it took the height they need at 1366×768, and in a column of the outer grid it widened the
        # ALiBi column (the top plots' titles were clipped in a 640-px export)
        for key, (r, c, span) in (("learned", (0, 0, 1)), ("sinusoidal", (0, 1, 1)), ("t5", (0, 2, 1)),
                                  ("alibi", (0, 3, 1)), ("rope", (1, 0, 4))):
            plot = self.graphics.addPlot(enableMenu=False, row=r, col=c, colspan=span)
            relax_title_width(plot)
            plot.showGrid(x=True, y=True, alpha=0.2)
            self.plots[key] = plot
        for column in range(4):
            self.graphics.ci.layout.setColumnStretchFactor(column, 1)
        for row in range(2):  # the rows share the height alike (the legend made RoPE's ask for more)
            self.graphics.ci.layout.setRowStretchFactor(row, 1)
        self.rope_legend = pg.LegendItem(labelTextSize="8pt", colCount=3, verSpacing=-8)  # 3 rows: no taller than the plots above need
        rope_layout = self.plots["rope"].layout
        rope_layout.addItem(self.rope_legend, 2, 3)  # right of the view box (row 2, column 1) and its right axis
        rope_layout.setColumnSpacing(2, 8)  # a gap: the legend never touches the curves
        self.rope_legend.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        rope_layout.setAlignment(self.rope_legend, Qt.AlignmentFlag.AlignVCenter)
        # The verdicts are the point, so they always show whole: one line per scheme (what the
        # formula shows; what measurements found), two columns.  Why each verdict was reached is
        # a paragraph per scheme: behind "Reasons", in place of the lines, scrolling if it must.
        self.verdicts = QWidget()
        self.verdicts.setObjectName("extrapolationVerdicts")
        verdict_layout = QVBoxLayout(self.verdicts)
        verdict_layout.setContentsMargins(0, 0, 0, 0)
        verdict_layout.setSpacing(2)
        header = QHBoxLayout()
        header.addWidget(i18n.keep_text(QLabel(), msg(
            "Extrapolation", "<span style='font-size:9pt'>The formulas, computed; <span style='color:{guide}'><i>and "
            "what measurements found (Press et al. 2022)</i></span></span>"), guide=GUIDE), 1)
        self.reasons_button = QToolButton()
        self.reasons_button.setObjectName("extrapolationReasons")
        i18n.keep_text(self.reasons_button, msg("Extrapolation", "Reasons"))
        self.reasons_button.setCheckable(True)
        i18n.keep_tooltip(self.reasons_button, msg("Extrapolation", "Show why each verdict was reached, and the "
                                                                    "measurements in full"))
        self.reasons_button.toggled.connect(self._show_reasons)
        header.addWidget(self.reasons_button, 0)
        verdict_layout.addLayout(header)
        self.verdict_label = _rich_lines("extrapolationVerdictLines")
        self.verdict_area = FittedScroll(self.verdict_label, "extrapolationVerdictArea")
        verdict_layout.addWidget(self.verdict_area)
        self.summary_label = _rich_lines("extrapolationSummary")
        self.summary_area = FittedScroll(self.summary_label, "extrapolationSummaryArea")
        self.summary_area.setVisible(False)
        verdict_layout.addWidget(self.summary_area, 1)
        layout.addWidget(self.graphics, 1)
        layout.addWidget(self.verdicts, 0)
        self.readout = readout_label("extrapolationReadout")
        i18n.keep(self.readout.setText, msg("Extrapolation", "Hover over a plot for its numbers."), self.readout)
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.sync_controls(self.ctx.document)

    def _show_reasons(self, shown: bool) -> None:
        self.verdict_area.setVisible(not shown)
        self.summary_area.setVisible(shown)
        # the reasons may take the room the plots can spare (down to their minimum); the lines need no more than their own
        self._column.setStretchFactor(self.verdicts, 1 if shown else 0)

    def make_request(self, document: Document) -> ex.ExtrapolationRequest:
        return self.view_spec(document).request()

    # ---- drawing ------------------------------------------------------------------------------------
    def show_result(self, result: ex.ExtrapolationResult) -> None:
        self._result = result
        self._draw_learned(result)
        self._draw_sinusoidal(result)
        self._draw_rope(result)
        self._draw_alibi(result)
        self._draw_t5(result)
        past = result.eval_len > result.train_len
        lines, short = [], []
        for s in result.summaries:
            color = VERDICT_COLORS[s.verdict]
            verdict = (f"<b>{html.escape(i18n.shown(s.label))}</b>: <span style='color:{color}; font-weight:bold'>"
                       f"{html.escape(i18n.shown(ex.VERDICT_TEXT[s.verdict]))}</span>")
            measured = i18n.shown(ex.MEASURED[s.scheme]) if past and s.scheme in ex.MEASURED else None
            note = f" <span style='color:{GUIDE}'><i>{html.escape(measured)}.</i></span>" if measured else ""
            lines.append(f"{verdict} — {html.escape(s.reason.rstrip('.'))}.{note}")
            measured = i18n.shown(ex.MEASURED_SHORT[s.scheme]) if past and s.scheme in ex.MEASURED_SHORT else None
            short.append(verdict + (f" <span style='color:{GUIDE}'><i>— {html.escape(measured)}</i></span>"
                                    if measured else ""))
        self.verdict_label.setText(self._two_columns(result, short))
        self.summary_label.setText(self._two_columns(result, lines))
        self.verdict_area.fit()  # the lines' height changed with their text
        self.summary_area.fit()
        factor = result.rope.factor
        capped = i18n.translate("Extrapolation", " (the auto factor stops at {factor:g})").format(factor=ex.MAX_FACTOR) \
            if factor < result.eval_len / result.train_len and factor == ex.MAX_FACTOR else ""
        self.set_caption(i18n.translate(
            "Extrapolation", "Trained on {train:,} tokens, asked to read {eval:,}; RoPE scalings with factor "
            "{factor:g}{capped}, original length {train:,}. The verdicts read the plots: rows that exist, phases and "
            "angles seen in training, T5 buckets reached (decoder), each ALiBi head's reach (a dot: its bias crosses "
            "the dotted −{threshold:g}). Dashed: the training length.").format(
            train=result.train_len, eval=result.eval_len, factor=factor, capped=capped,
            threshold=result.alibi.threshold))

    @staticmethod
    def _two_columns(result: ex.ExtrapolationResult, lines: list[str]) -> str:
        """Absolute and bias schemes | RoPE and its scalings, side by side."""
        left = [line for s, line in zip(result.summaries, lines) if not s.scheme.startswith("rope")]
        right = [line for s, line in zip(result.summaries, lines) if s.scheme.startswith("rope")]
        cell = "<td width='50%' valign='top' style='padding-right:10px'>{}</td>"
        return ("<div style='font-size:9pt'><table width='100%' cellspacing='0'><tr>"
                + cell.format("<br>".join(left)) + cell.format("<br>".join(right)) + "</tr></table></div>")

    def _reset(self, key: str, title: str, x_label: str, y_label: str, log_y: bool = False) -> pg.PlotItem:
        plot = self.plots[key]
        plot.clear()
        if plot.legend is not None:
            plot.legend.clear()
        if key == "rope":
            self.rope_legend.clear()
        plot.setTitle(title, size="9pt")
        plot.setLabel("bottom", x_label)
        plot.setLabel("left", y_label)
        plot.setLogMode(x=False, y=log_y)
        return plot

    def _draw_learned(self, r: ex.ExtrapolationResult) -> None:
        s = r.summary("learned")
        plot = self._reset("learned", i18n.translate("Extrapolation", "Learned: {verdict}").format(
            verdict=i18n.shown(ex.VERDICT_SHORT[s.verdict])), i18n.translate("Extrapolation", "position"),
            i18n.translate("Extrapolation", "row exists"))
        end = max(r.eval_len, r.train_len)
        exists = pg.PlotDataItem([0, r.train_len], [1, 1], stepMode=None, pen=pg.mkPen("#27ae60", width=3),
                                 fillLevel=0, brush=pg.mkBrush(39, 174, 96, 90))
        plot.addItem(exists)
        if r.learned.missing:
            missing = pg.LinearRegionItem((r.train_len, r.eval_len), movable=False,
                                          brush=pg.mkBrush(192, 57, 43, 90), pen=pg.mkPen(None))
            plot.addItem(missing)
            text = pg.TextItem(i18n.translate("Extrapolation", "no rows\n({n:,})").format(n=r.learned.missing),
                               color="#e74c3c", anchor=(0.5, 0.5))
            text.setPos((r.train_len + r.eval_len) / 2, 0.5)
            plot.addItem(text)
        plot.addItem(pg.InfiniteLine(r.train_len, pen=pg.mkPen(GUIDE, style=Qt.PenStyle.DashLine)))
        plot.setXRange(0, end, padding=0.02)
        plot.setYRange(0, 1.2, padding=0)

    def _draw_sinusoidal(self, r: ex.ExtrapolationResult) -> None:
        sa = r.sinusoidal
        s = r.summary("sinusoidal")
        plot = self._reset("sinusoidal", i18n.translate("Extrapolation", "Sinusoidal: {verdict}").format(
            verdict=i18n.shown(ex.VERDICT_SHORT[s.verdict])), i18n.translate("Extrapolation", "sin/cos pair (fast → slow)"),
                           i18n.translate("Extrapolation", "unseen-phase share"))
        n = len(sa.unseen_fraction)
        x = np.arange(n)
        brushes = [pg.mkBrush("#e74c3c") if f > 0 else pg.mkBrush("#27ae60") for f in sa.unseen_fraction]
        shown = np.maximum(sa.unseen_fraction, 0.0)
        plot.addItem(pg.BarGraphItem(x=x, height=shown, width=0.8, brushes=brushes, pen=pg.mkPen(None)))
        wrapped = int(sa.angles.wrapped.sum())
        plot.addItem(pg.InfiniteLine(wrapped - 0.5, pen=pg.mkPen(GUIDE, style=Qt.PenStyle.DashLine)))
        plot.setLabel("bottom", i18n.translate("Extrapolation", "sin/cos pair (dashed: full turns ←)"))
        plot.setXRange(-0.5, n - 0.5, padding=0.02)
        plot.setYRange(0, 1.05, padding=0)

    def _draw_rope(self, r: ex.ExtrapolationResult) -> None:
        ra = r.rope
        plot = self._reset("rope", i18n.translate("Extrapolation", "RoPE: angle needed ÷ largest seen, factor "
                                                                   "{factor:g}").format(factor=ra.factor),
                           i18n.translate("Extrapolation", "pair i (fast → slow)"),
                           i18n.translate("Extrapolation", "needed / seen"))
        base = ra.variants["none"]
        n = len(base.inv_freq)
        x = np.arange(n)
        wrapped = int(base.wrapped.sum())
        if wrapped:  # these pairs turned a full circle in training: every angle was seen
            plot.addItem(pg.LinearRegionItem((-0.5, wrapped - 0.5), movable=False,
                                             brush=pg.mkBrush(127, 140, 141, 60), pen=pg.mkPen(None)))
            label = pg.TextItem(i18n.translate("Extrapolation", "full turn seen in training"), color=GUIDE, anchor=(0, 1))
            plot.addItem(label)
            label.setPos(0, 0.05)
        top = 1.0
        for kind, angles in ra.variants.items():
            ratio = angles.needed / angles.trained
            top = max(top, float(ratio.max()))
            style = Qt.PenStyle.SolidLine if kind == "none" else Qt.PenStyle.DashLine
            curve = plot.plot(x, ratio, pen=pg.mkPen(SCALING_COLORS[kind], width=2.5 if kind == "none" else 2,
                                                     style=style),
                              name=i18n.translate("Extrapolation", "{name}: {n} out").format(
                                  name=i18n.shown(SHORT_NAMES[kind]), n=angles.out_of_range))
            self.rope_legend.addItem(curve, curve.name())
            if style != Qt.PenStyle.SolidLine:
                draw_as_path(curve)
        # the guide line is named in the legend row, not on the plot, where a label sat on the curves
        guide_pen = pg.mkPen(TRAINED_COLOR, width=2.5)
        plot.addItem(pg.InfiniteLine(1.0, angle=0, pen=guide_pen))
        self.rope_legend.addItem(pg.PlotDataItem(pen=guide_pen), i18n.translate("Extrapolation", "1 = largest angle seen"))
        plot.setXRange(-0.5, n - 0.5, padding=0.02)
        plot.setYRange(0, top * 1.08, padding=0)

    def _draw_alibi(self, r: ex.ExtrapolationResult) -> None:
        aa = r.alibi
        s = r.summary("alibi")
        plot = self._reset("alibi", i18n.translate("Extrapolation", "ALiBi: {verdict}").format(
            verdict=i18n.shown(ex.VERDICT_SHORT[s.verdict])), i18n.translate("Extrapolation", "distance i − j (log)"),
            i18n.translate("Extrapolation", "bias per head"))
        plot.setLogMode(x=True, y=False)
        end = max(r.eval_len, r.train_len)
        distances = np.geomspace(1.0, end, 256)
        colors = [pg.intColor(i, hues=max(len(aa.slopes), 2), values=1, maxValue=230) for i in range(len(aa.slopes))]
        floor = -2 * aa.threshold
        for h, slope in enumerate(aa.slopes):
            plot.plot(distances, np.maximum(-slope * distances, floor * 1.2), pen=pg.mkPen(colors[h], width=1.5))
            if aa.reach[h] <= end:
                plot.plot([aa.reach[h]], [-aa.threshold], pen=None, symbol="o", symbolSize=7,
                          symbolBrush=colors[h], symbolPen=None)
        # the two guide lines are named in the axis label and the caption: a label inside the plot
        # always sat on one of the heads' curves, which fill it
        plot.addItem(pg.InfiniteLine(-aa.threshold, angle=0, pen=pg.mkPen(GUIDE, style=Qt.PenStyle.DotLine)))
        plot.addItem(pg.InfiniteLine(math.log10(r.train_len), pen=pg.mkPen(GUIDE, style=Qt.PenStyle.DashLine)))
        set_axis_label(plot.getAxis("left"), i18n.translate("Extrapolation", "bias (dotted: −{threshold:g})").format(
            threshold=aa.threshold))  # short: the plot is ~100 px tall at 1366×768
        plot.setXRange(0, math.log10(end), padding=0.02)
        plot.setYRange(floor, 0.5, padding=0)

    def _draw_t5(self, r: ex.ExtrapolationResult) -> None:
        t5 = r.t5
        s = r.summary("t5")
        plot = self._reset("t5", i18n.translate("Extrapolation", "T5 buckets: {verdict}").format(
            verdict=i18n.shown(ex.VERDICT_SHORT[s.verdict])), i18n.translate("Extrapolation", "distance i − j (log)"),
            i18n.translate("Extrapolation", "bucket (causal)"))
        plot.setLogMode(x=True, y=False)
        d = np.maximum(t5.distances, 1)  # distance 0 has no place on a log axis; it is bucket 0
        trained = t5.distances <= r.train_len - 1
        plot.plot(d[trained], t5.buckets[trained], pen=pg.mkPen("#27ae60", width=2.5), stepMode=None)
        plot.plot(d[~trained], t5.buckets[~trained], pen=pg.mkPen("#e74c3c", width=2.5))
        plot.addItem(pg.InfiniteLine(math.log10(max(r.train_len, 1)), pen=pg.mkPen(GUIDE, style=Qt.PenStyle.DashLine)))
        plot.addItem(pg.InfiniteLine(math.log10(t5.max_distance), pen=pg.mkPen(GUIDE, style=Qt.PenStyle.DotLine),
                                     label=f"max_distance\n{t5.max_distance:,}",  # two lines: one ran off a 1366-px plot
                                     labelOpts={"position": 0.2, "color": GUIDE, "anchors": [(0, 0.5), (0, 0.5)]}))
        if t5.eval_bucket > t5.train_bucket:
            plot.addItem(pg.LinearRegionItem((t5.train_bucket + 0.5, t5.eval_bucket + 0.5), orientation="horizontal",
                                             movable=False, brush=pg.mkBrush(192, 57, 43, 70), pen=pg.mkPen(None)))
        plot.setXRange(0, math.log10(max(r.eval_len, r.train_len)), padding=0.02)
        plot.setYRange(-0.5, t5.num_buckets - 0.5, padding=0.02)

    # ---- hover ----------------------------------------------------------------------------------------
    def _hover(self, scene_pos) -> None:
        r = self._result
        if r is None:
            return
        hit = plot_at(scene_pos, self.plots.items())
        if hit is not None:
            key, p = hit
            self.readout.setText(self.describe(key, p.x(), p.y()))

    def describe(self, key: str, x: float, y: float) -> str:
        """The hover read-out for a point in one of the four plots (data coordinates)."""
        r = self._result
        if key == "learned":
            pos = int(max(0, round(x)))
            if pos < r.train_len:
                return i18n.translate("Extrapolation", "position {pos:,}: row {pos:,} exists").format(pos=pos)
            return i18n.translate("Extrapolation", "position {pos:,}: no row — the table ends at {last:,}").format(
                pos=pos, last=r.train_len - 1)
        if key in ("sinusoidal", "rope"):
            angles = r.sinusoidal.angles if key == "sinusoidal" else r.rope.variants["none"]
            i = int(round(x))
            if not 0 <= i < len(angles.inv_freq):
                return ""
            wavelength = 2 * math.pi / angles.inv_freq[i]
            head = i18n.translate("Extrapolation", "pair {i}: wavelength {wavelength:,.1f} positions; largest angle "
                                                   "in training {angle:.4g} rad").format(
                i=i, wavelength=wavelength, angle=angles.trained[i])
            if angles.wrapped[i]:
                head += i18n.translate("Extrapolation", " (wrapped)")
            if key == "sinusoidal":
                return head + i18n.translate("Extrapolation", "; {share:.0%} of new positions meet an unseen phase").format(
                    share=r.sinusoidal.unseen_fraction[i])
            out = i18n.translate("Extrapolation", " (out)")
            needed = ", ".join(f"{kind} {v.needed[i]:.4g}{'' if v.in_range[i] else out}"
                               for kind, v in r.rope.variants.items())
            return head + i18n.translate("Extrapolation", "; needed at {n:,}: {needed}").format(
                n=r.eval_len - 1, needed=needed)
        if key == "t5":
            d = int(round(pow10(x)))  # logarithmic distance axis
            if not 0 <= d < max(r.eval_len, r.train_len):
                return ""
            from peapp.encodings.relative import t5_bucket
            import torch

            b = int(t5_bucket(torch.tensor([-d]), bidirectional=False, num_buckets=r.t5.num_buckets,
                              max_distance=r.t5.max_distance)[0])
            seen = i18n.translate("Extrapolation", "trained") if b <= r.t5.train_bucket else \
                i18n.translate("Extrapolation", "never trained (first reached past the training length)")
            return i18n.translate("Extrapolation", "distance {d:,}: bucket {b} of {n} — {seen}").format(
                d=d, b=b, n=r.t5.num_buckets, seen=seen)
        if key == "alibi":
            d = pow10(x)  # the distance axis is logarithmic
            biases = ", ".join(f"{-s * d:.2f}" for s in r.alibi.slopes[:8])
            more = "…" if len(r.alibi.slopes) > 8 else ""
            reach = ", ".join(f"{v:,.0f}" for v in r.alibi.reach[:8])
            return i18n.translate("Extrapolation", "distance {d:,.0f}: bias per head {biases}{more}; reach per head "
                                                   "{reach}{more}").format(d=d, biases=biases, more=more, reach=reach)
        return ""

    # ---- export (SettingsDock) ---------------------------------------------------------------------------
    def result_arrays(self, r: ex.ExtrapolationResult) -> dict[str, np.ndarray]:
        out = {"sinusoidal_unseen_fraction": r.sinusoidal.unseen_fraction,
               "sinusoidal_trained_angle": r.sinusoidal.angles.trained,
               "rope_trained_angle": r.rope.variants["none"].trained,
               "alibi_slopes": r.alibi.slopes, "alibi_reach": r.alibi.reach,
               "t5_distance": r.t5.distances, "t5_bucket": r.t5.buckets}
        for kind, angles in r.rope.variants.items():
            out[f"rope_needed_angle_{kind}"] = angles.needed
        return out

    def result_title(self, r: ex.ExtrapolationResult) -> str:
        return i18n.translate("Extrapolation", "Length extrapolation: trained on {train:,}, evaluated at "
                                               "{eval:,}").format(train=r.train_len, eval=r.eval_len)


DOCK = ExtrapolationDock
