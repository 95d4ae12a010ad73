"""Measured claims: four of the article's claims, each drawn beside what was measured.

NoPE with temperature tuning (Llama 4's query scale and a NoPE layer's entropy), the cost of
relative positions (``peapp cost``), attention sinks (``peapp probe streaming``) and the NoPE
ranking (``peapp lab --preset ranking``); the computation is :mod:`peapp.model_run.claims`.
"""

from __future__ import annotations

import html
import os

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from peapp.document import Document
from peapp.i18n import msg
from peapp.model_run.claims import CAPTIONS, MODES, ClaimsResult, MeasureCostRequest
from ui import i18n
from ui.docks._settings import SettingsDock
from ui.docks.base import readout_label
from ui.worker import ComputeWorker
from ui.plotting import draw_as_path, legend_above, plot_at, relax_title_width, set_axis_label, tick_lines

COLORS = ("#2471a3", "#e67e22", "#27ae60", "#c0392b", "#8e44ad", "#16a085", "#7f8c8d", "#d35400")
GUIDE = "#8a9597"
STYLES = {"solid": Qt.PenStyle.SolidLine, "dashed": Qt.PenStyle.DashLine, "dotted": Qt.PenStyle.DotLine}
MEASURE_CHANNEL = "claims:measure"
FIELDS = {"claims-temperature": ("length", "attn_scale", "floor_scale", "logn_s"), "claims-cost": ("cost_file",),
          "claims-sinks": ("sinks_file",), "claims-ranking": ("ranking_folder",)}


class ClaimsDock(SettingsDock):
    """Measured claims: the article's claims on NoPE's temperature, the cost of relative positions,
    attention sinks and the NoPE ranking, each beside what was measured."""

    object_name = "claimsDock"
    view_id = "claims"
    title = msg("Panels", "Measured claims")
    tab_title = msg("Panels", "Claims")
    order = 94  # the View menu goes in key order: Ctrl+Shift+C before the lab's L
    shortcut = "Ctrl+Shift+C"
    starts_closed = True
    view_names = tuple(MODES)  # `peapp render --view claims-cost`, File > Export (the `mode` setting)

    def build(self) -> None:
        self._result: ClaimsResult | None = None
        self._measure_worker: ComputeWorker | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        form = self.make_form(object_names={name: f"claims_{name}" for name in (
            "mode", "length", "attn_scale", "floor_scale", "logn_s", "cost_file", "sinks_file", "ranking_folder")})
        self.grid = QGridLayout()
        form.add_to_grid(self.grid, [("mode",), ("length", "attn_scale"), ("floor_scale", "logn_s"), ("cost_file",),
                                     ("sinks_file",), ("ranking_folder",)])
        layout.addLayout(self.grid)
        self.measure_button = i18n.keep_text(QPushButton(), msg("Claims", "Measure here"))
        self.measure_button.setObjectName("claimsMeasure")
        i18n.keep_tooltip(self.measure_button, msg(
            "Claims", "Measure the cost of every scheme on this machine, as `peapp cost` does (the lab's model at "
                      "1,024–16,384 tokens and a larger one at 1,024; a minute or two, each case in its own process; "
                      "Esc cancels). The numbers are saved in the cache folder and the figure is drawn from them."))
        self.measure_button.clicked.connect(self.measure_cost)
        self.grid.addWidget(self.measure_button, self.grid.rowCount(), 0, 1, 2)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("claimsGraphics")
        self.graphics.setMinimumHeight(300)
        self.plots = [self.graphics.addPlot(row=0, col=0, enableMenu=False),
                      self.graphics.addPlot(row=0, col=1, enableMenu=False)]
        # each legend in its own row above its plot's data: inside the view box it sat over the
        # cost figure's points (which fill every corner at one length or another)
        self.legends = [legend_above(plot, 2) for plot in self.plots]
        for plot in self.plots:
            relax_title_width(plot)
            plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot = self.plots[0]
        layout.addWidget(self.graphics, 1)
        self.lines = QLabel()
        self.lines.setObjectName("claimsLines")
        self.lines.setWordWrap(True)
        self.lines.setTextFormat(Qt.TextFormat.RichText)
        self.lines.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.lines)
        self.readout = readout_label("claimsReadout")
        i18n.keep(self.readout.setText, msg("Claims", "Hover over a plot for its numbers."), self.readout)
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.sync_controls(self.ctx.document)

    def sync_controls(self, document: Document) -> None:
        super().sync_controls(document)
        if self.form is None:
            return
        mode = self.view_spec(document).mode
        for name in ("length", "attn_scale", "floor_scale", "logn_s", "cost_file", "sinks_file", "ranking_folder"):
            shown = name in FIELDS.get(mode, ())
            self.form.widgets[name].setVisible(shown)
            self.form.labels[name].setVisible(shown)
        self.measure_button.setVisible(mode == "claims-cost")

    # ---- measuring the cost here --------------------------------------------------------------------
    def measure_cost(self) -> None:
        """``peapp cost``'s default run on a compute thread of its own (a minute or two: the panels
        keep computing on theirs); its file becomes the Cost file."""
        from peapp.model_run.loading import default_cache_dir

        self.measure_button.setEnabled(False)
        self.ctx.status(i18n.translate("Claims", "Measured claims: measuring the cost of each scheme (a minute or "
                                                 "two; Esc cancels)…"))
        self._measurer().submit(MEASURE_CHANNEL, MeasureCostRequest(folder=os.path.join(default_cache_dir(), "claims")))

    def _measurer(self) -> ComputeWorker:
        """The measuring thread, made on the first Measure here (a window that never measures has none
        to stop when it closes); the window's status bar shows its progress and Esc stops it."""
        if self._measure_worker is None:
            worker = self._measure_worker = ComputeWorker(self, name="peapp-cost")
            worker.resultReady.connect(self._on_measured)
            worker.failed.connect(self._on_measure_failed)
            worker.cancelled.connect(lambda *_: self.measure_button.setEnabled(True))
            self.ctx.add_worker(worker)
            app = QApplication.instance()
            if app is not None:
                app.aboutToQuit.connect(worker.shutdown)
        return self._measure_worker

    def _on_measure_failed(self, channel: str, generation: int, message: str) -> None:
        self.measure_button.setEnabled(True)
        self.ctx.status(f"{i18n.shown(self.title)}: {message}")

    def _on_measured(self, channel: str, generation: int, path: str) -> None:
        self.measure_button.setEnabled(True)
        self.set_view(mode="claims-cost", cost_file=path)  # an edit: Ctrl+Z gives the previous file back

    @staticmethod
    def has_content(document: Document) -> bool:
        """Whether the Document names what the claim shown is drawn from (`peapp render --all`
        skips a claim whose saved result is not given, as it skips a run view without a model)."""
        view = document.views.get("claims", {})
        mode = view.get("mode", "claims-temperature")
        key = {"claims-cost": "cost_file", "claims-sinks": "sinks_file", "claims-ranking": "ranking_folder"}.get(mode)
        return key is None or bool(view.get(key))

    def make_request(self, document: Document):
        return self.view_spec(document).request(document.checkpoint)

    def current_view_name(self) -> str:
        return self.view_spec().mode

    # ---- drawing ------------------------------------------------------------------------------------
    def show_result(self, result: ClaimsResult) -> None:
        self._result = result
        for index, plot in enumerate(self.plots):
            plot.clear()
            legend = self.legends[index]
            legend.clear()
            if index >= len(result.plots):
                plot.setVisible(False)
                continue
            spec = result.plots[index]
            plot.setVisible(True)
            plot.setTitle(html.escape(spec.title), size="9pt")
            set_axis_label(plot.getAxis("bottom"), spec.xlabel)
            set_axis_label(plot.getAxis("left"), spec.ylabel)
            plot.setLogMode(x=spec.log_x, y=spec.log_y)
            names = list(dict.fromkeys(curve.label for curve in spec.curves))
            legend.setColumnCount(1 if len(names) <= 1 else 2)  # two columns: Hindi names are long
            for mark in spec.marks:
                plot.addItem(pg.InfiniteLine(np.log10(mark) if spec.log_x and mark > 0 else mark, angle=90,
                                             pen=pg.mkPen(GUIDE, width=1, style=Qt.PenStyle.DotLine)))
            keys: list[str] = []
            for k, curve in enumerate(spec.curves):
                key = curve.color or str(k)
                if key not in keys:
                    keys.append(key)
                color = COLORS[keys.index(key) % len(COLORS)]
                if curve.style == "points":
                    item = plot.plot(curve.x, curve.y, pen=None, symbol="o", symbolSize=7, symbolBrush=color,
                                     symbolPen=color, name=curve.label)
                else:
                    item = plot.plot(curve.x, curve.y, pen=pg.mkPen(color, width=2, style=STYLES[curve.style]),
                                     name=curve.label, symbol="o" if len(curve.x) <= 12 else None, symbolSize=5,
                                     symbolBrush=color, symbolPen=color)
                    draw_as_path(item)
            axis = plot.getAxis("bottom")
            measured = sorted({float(x) for curve in spec.curves for x in curve.x if np.isfinite(x) and x > 0})
            tick_lines(axis, max((name.count("\n") + 1 for _x, name in spec.xticks), default=1))
            if spec.xticks:
                axis.setTicks([spec.xticks])
            elif spec.log_x and 0 < len(measured) <= 8:  # the lengths measured, not a log axis's crowded minor labels
                axis.setTicks([[(float(np.log10(x)), f"{x:,.0f}") for x in measured]])
            else:
                axis.setTicks(None)
            plot.enableAutoRange()
            if spec.xticks:  # room for the first and last names
                plot.setXRange(-0.6, len(spec.xticks) - 0.4, padding=0)
            elif spec.log_x and 1 < len(measured) <= 8:  # room for the last length's name: pyqtgraph drops a
                # tick label that would cross the axis's end ("16,384" was missing from the cost figure)
                low, high = float(np.log10(measured[0])), float(np.log10(measured[-1]))
                margin = 0.08 * (high - low)
                plot.setXRange(low - margin, high + margin, padding=0)
        self.lines.setText("<br>".join(html.escape(line) for line in result.lines))
        self.set_caption(i18n.shown(CAPTIONS[result.mode]))

    def on_failed(self, message: str) -> None:
        """One line saying what to do.  A picture of another claim is not left under it (it would
        read as this claim's); the same claim's last picture stays."""
        mode = self.view_spec().mode
        if self._result is None or self._result.mode != mode:  # nor empty axes where nothing was drawn yet
            self._result = None
            for plot in self.plots:
                plot.clear()
                plot.setVisible(False)
        self.set_caption(i18n.shown(CAPTIONS.get(mode, "")))
        self.lines.setText(html.escape(message))

    def _hover(self, pos) -> None:
        if self._result is None:
            return
        hit = plot_at(pos, list(enumerate(self.plots)))
        if hit is None:
            return
        index, point = hit
        spec = self._result.plots[index]
        x = 10 ** point.x() if spec.log_x else point.x()
        best = None
        for curve in spec.curves:
            if not len(curve.x):
                continue
            i = int(np.argmin(np.abs(curve.x - x)))
            if best is None or abs(curve.x[i] - x) < abs(best[1] - x):
                best = (curve.label, float(curve.x[i]), curve)
        if best is None:
            return
        label, at, _ = best
        values = "; ".join(f"{c.label}: {float(c.y[np.argmin(np.abs(c.x - at))]):.4g}" for c in spec.curves
                           if len(c.x) and np.min(np.abs(c.x - at)) < 1e-9 + 1e-6 * abs(at))
        tick = dict(spec.xticks).get(at) if spec.xticks else None
        self.readout.setText(i18n.translate("Claims", "{x}: {values}").format(x=tick or f"{at:,.6g}", values=values))

    # ---- export -------------------------------------------------------------------------------------
    def result_arrays(self, result: ClaimsResult) -> dict[str, np.ndarray]:
        out = {}
        for index, spec in enumerate(result.plots):
            for k, curve in enumerate(spec.curves):
                out[f"plot{index}_curve{k}_x"] = np.asarray(curve.x, dtype=np.float64)
                out[f"plot{index}_curve{k}_y"] = np.asarray(curve.y, dtype=np.float64)
        return out

    def result_title(self, result: ClaimsResult) -> str:
        return i18n.shown(MODES[result.mode])

    def retranslate(self, language: str = "") -> None:
        self.refresh()


DOCK = ClaimsDock
