"""The RoPE frequency spectrum: what a scaling (PI, NTK, YaRN, Llama-3, LongRoPE) does to each pair.

Three plots over the RoPE spec of the Document (whatever family the heatmap shows):

* wavelength per pair before and after scaling (log scale), with the original and extended
  context as lines, pairs coloured keep / blend / divide, the YaRN ramp or the Llama-3 bands
  shaded;
* the scale each pair's wavelength gets (after / before), with LongRoPE's short and long
  factors shaded;
* the RoFormer long-term-decay bound against distance, with and without the scaling.

A ``config.json`` can be loaded here ("Load config.json…"): it fills the RoPE spec, so what a
model's scaling does is one action.  A bad file leaves everything as it was and says why.
"""

from __future__ import annotations

import math

import os

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from peapp.i18n import msg
from peapp.analysis.rope_scaling import KINDS, ScalingFacts, SpectrumRequest
from peapp.document import Document
from peapp.encodings import rope
from peapp.errors import PeappError
from peapp.jobs import frozen_params
from peapp.views.rotation import RotationView
from peapp.views.spectrum import ROPE_CONTROLS
from ui.context import AppContext
from ui import i18n
from ui.docks.base import ViewDock, error_label, readout_label
from ui.forms import Combo, Form, Spin
from ui.plotting import draw_as_path, legend_above, plot_at, pow10

KIND_COLOURS = {"keep": "#27ae60", "blend": "#f39c12", "divide": "#c0392b"}
#: what each kind of pair is called in legends and read-outs
KIND_NAMES = {"keep": msg("Spectrum", "keep"), "blend": msg("Spectrum", "blend"), "divide": msg("Spectrum", "divide")}
BEFORE = "#7f8c8d"
AFTER = "#2e86de"
ORIGINAL = "#e67e22"
EXTENDED = "#8e44ad"


def apply_rope_config(ctx: AppContext, path: str, reading: rope.HfRopeReading) -> None:
    """Fill the Document's RoPE spec from a config.json already read (one undo step) and show RoPE.

    Raises ParameterError (the Document unchanged) if the values do not make a RoPE spec."""
    document = ctx.document.with_params("rope", **reading.spec.to_dict()).with_family("rope")
    ctx.document_model.set_document(document, f"Load {os.path.basename(path)}")


def _log10(x: float) -> float:
    return float(np.log10(max(x, 1e-300)))


class SpectrumDock(ViewDock):
    object_name = "spectrumDock"
    view_id = "spectrum"
    title = msg("Panels", "RoPE spectrum")
    tab_title = msg("Panels", "Spectrum")
    order = 40
    shortcut = "Ctrl+3"

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._facts: ScalingFacts | None = None
        self._notes: tuple[str, ...] = ()  # from the last loaded config.json …
        self._notes_key = None  # … shown while the RoPE settings are still the ones it gave

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        # the RoPE family's own parameters (the same settings as in the Parameters panel)
        self.form = Form(rope.RopeSpec, lambda name, value: self._set_param(**{name: value}), parent=self,
                         names=ROPE_CONTROLS, hints={"rope_type": Combo(), "factor": Spin(decimals=3, adaptive=True)},
                         object_names={"rope_type": "spectrumRopeType", "factor": "spectrumFactor"})
        self.type_combo = self.form.widgets["rope_type"]
        self.factor_spin = self.form.widgets["factor"]
        load = i18n.keep_text(QPushButton(), msg("Spectrum", "Load config.json…"))
        load.setObjectName("loadRopeConfig")
        i18n.keep_tooltip(load, msg("Spectrum", "Fill the RoPE settings from a Hugging Face model's config.json"))
        load.clicked.connect(self._choose_config)
        bar.addWidget(i18n.keep_text(QLabel(), msg("Spectrum", "Scaling")))
        bar.addWidget(self.type_combo)
        bar.addWidget(i18n.keep_text(QLabel(), msg("Spectrum", "factor")))
        bar.addWidget(self.factor_spin)
        bar.addStretch(1)
        bar.addWidget(load)
        layout.addLayout(bar)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("spectrumGraphics")
        self.wave_plot = self.graphics.addPlot(enableMenu=False, row=0, col=0)
        self.ratio_plot = self.graphics.addPlot(enableMenu=False, row=1, col=0)
        self.decay_plot = self.graphics.addPlot(enableMenu=False, row=2, col=0)
        for plot in (self.wave_plot, self.ratio_plot, self.decay_plot):
            plot.showGrid(x=True, y=True, alpha=0.2)
        self.ratio_plot.setXLink(self.wave_plot)
        self.graphics.ci.layout.setRowStretchFactor(0, 3)
        self.graphics.ci.layout.setRowStretchFactor(1, 2)
        self.graphics.ci.layout.setRowStretchFactor(2, 2)

        # wavelength per pair
        self.wave_plot.setLogMode(x=False, y=True)
        # texts set once here are set again after a language switch (_name_static_texts)
        self._legend_names: list[tuple[pg.LegendItem, object, object]] = []
        legend = legend_above(self.wave_plot, columns=5)
        self.before_curve = draw_as_path(self.wave_plot.plot(
            pen=pg.mkPen(BEFORE, width=1.5, style=Qt.PenStyle.DashLine), name="before scaling"))
        self.after_curve = self.wave_plot.plot(pen=pg.mkPen(AFTER, width=2), name="after scaling")
        self._legend_names += [(legend, self.before_curve, msg("Spectrum", "before scaling")),
                               (legend, self.after_curve, msg("Spectrum", "after scaling"))]
        self.kind_points = self.wave_plot.plot(pen=None, symbol="o", symbolSize=6, symbolPen=None)
        for kind in KINDS:  # legend entries for the point colours
            marker = pg.ScatterPlotItem(brush=KIND_COLOURS[kind], pen=None, size=7)
            legend.addItem(marker, i18n.shown(KIND_NAMES[kind]))
            self._legend_names.append((legend, marker, KIND_NAMES[kind]))
        self.original_line = pg.InfiniteLine(angle=0, pen=pg.mkPen(ORIGINAL, width=1.5),
                                             label=" ", labelOpts=dict(position=0.72, color=ORIGINAL,
                                                                       anchors=[(1, 1), (1, 1)]))
        self.extended_line = pg.InfiniteLine(angle=0, pen=pg.mkPen(EXTENDED, width=1.5, style=Qt.PenStyle.DotLine),
                                             label=" ", labelOpts=dict(position=0.97, color=EXTENDED,
                                                                       anchors=[(1, 1), (1, 1)]))
        self.band = pg.LinearRegionItem(orientation="horizontal", movable=False,
                                        brush=pg.mkBrush(243, 156, 18, 45), pen=pg.mkPen(None))
        self.ramp = pg.LinearRegionItem(orientation="vertical", movable=False,
                                        brush=pg.mkBrush(243, 156, 18, 45), pen=pg.mkPen(None))
        self.shade_label = pg.TextItem(color="#b9770e", anchor=(0, 0))
        for item in (self.original_line, self.extended_line, self.band, self.ramp, self.shade_label):
            self.wave_plot.addItem(item, ignoreBounds=True)
        self.band.setZValue(-10)
        self.ramp.setZValue(-10)

        # scale per pair (after / before wavelength), LongRoPE factors
        self.ratio_plot.setLogMode(x=False, y=True)
        self.ratio_legend = legend_above(self.ratio_plot, columns=3)
        self.ratio_curve = self.ratio_plot.plot(pen=pg.mkPen(AFTER, width=2), name="scale at the extended length")
        self._legend_names.append((self.ratio_legend, self.ratio_curve, msg("Spectrum", "scale at the extended length")))
        self.short_curve = self.ratio_plot.plot(pen=pg.mkPen("#16a085", width=1.2))  # legend entry only for LongRoPE
        # shaded down to scale 1 (log10 = 0 in this log-y plot's view coordinates)
        self.long_curve = self.ratio_plot.plot(pen=pg.mkPen("#c0392b", width=1.2), fillLevel=0.0,
                                               brush=pg.mkBrush(192, 57, 43, 50))
        self.factor_line = pg.InfiniteLine(angle=0, pen=pg.mkPen("#555", width=1, style=Qt.PenStyle.DashLine),
                                           label=" ", labelOpts=dict(position=0.95, color="#555"))
        self.ratio_plot.addItem(self.factor_line, ignoreBounds=True)

        # long-term decay
        self.decay_plot.setLogMode(x=True, y=False)
        # label only the decades: pyqtgraph's minor log labels (2·10¹, 3·10¹ …) run into each other.
        # In log mode tick positions are log10 of the distance.
        decades = [(k, f"{10 ** k:,}") for k in range(0, 8)]
        minor = [(math.log10(m * 10 ** k), "") for k in range(0, 8) for m in range(2, 10)]
        self.decay_plot.getAxis("bottom").setTicks([decades, minor])
        decay_legend = legend_above(self.decay_plot, columns=2)
        self.decay_before = self.decay_plot.plot(pen=pg.mkPen(BEFORE, width=1.5), name="without scaling")
        self.decay_after = self.decay_plot.plot(pen=pg.mkPen(AFTER, width=1.5), name="with scaling")
        self._legend_names += [(decay_legend, self.decay_before, msg("Spectrum", "without scaling")),
                               (decay_legend, self.decay_after, msg("Spectrum", "with scaling"))]
        i18n.keep_updated(self, self._name_static_texts)
        self.decay_original = pg.InfiniteLine(angle=90, pen=pg.mkPen(ORIGINAL, width=1))
        self.decay_extended = pg.InfiniteLine(angle=90, pen=pg.mkPen(EXTENDED, width=1, style=Qt.PenStyle.DotLine))
        for item in (self.decay_original, self.decay_extended):
            self.decay_plot.addItem(item, ignoreBounds=True)
        layout.addWidget(self.graphics, 1)

        self.error_label = error_label("spectrumError")
        layout.addWidget(self.error_label)
        self.readout = readout_label("spectrumReadout", wrap=True)
        i18n.keep(self.readout.setText, msg("Spectrum", "Hover over a plot for the numbers of a pair or a distance; "
                                            "click a pair to see it turn in the rotation view."), self.readout)
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.graphics.scene().sigMouseClicked.connect(self._click)
        self._sync_controls(self.ctx.document)

    def _name_static_texts(self) -> None:
        """Axis labels and legend entries in the current language."""
        self.wave_plot.setLabel("bottom", i18n.translate("Spectrum", "pair i (fast → slow)"))
        self.wave_plot.setLabel("left", i18n.translate("Spectrum", "wavelength"))  # short: three plots share ~300 px at 1366×768
        self.ratio_plot.setLabel("bottom", i18n.translate("Spectrum", "pair i"))
        self.ratio_plot.setLabel("left", i18n.translate("Spectrum", "stretch ×"))
        self.decay_plot.setLabel("bottom", i18n.translate("Spectrum", "relative distance m − n (positions)"))
        self.decay_plot.setLabel("left", i18n.translate("Spectrum", "|q·k| bound"))
        # the legends are built again (a label given a shorter text keeps the longer one's size);
        # the ratio legend's LongRoPE entries come back with the next result
        legends: dict[pg.LegendItem, list] = {}
        for legend, item, name in self._legend_names:
            legends.setdefault(legend, []).append((item, name))
        for legend, entries in legends.items():
            legend.clear()  # removing entries one by one kept the legend as wide as its widest text
            for item, name in entries:
                legend.addItem(item, i18n.shown(name))
            legend.updateGeometry()  # its row in the plot's layout takes the new size

    def _kind_name(self, kind: str) -> str:
        return i18n.shown(type(self._facts.spec).info("rope_type").label_of(kind)) if self._facts else kind

    # ---- requests ------------------------------------------------------------------------------
    def make_request(self, document: Document) -> SpectrumRequest:
        return SpectrumRequest(params=frozen_params(document.spec("rope").to_dict()))

    def on_document_changed(self, document: Document) -> None:
        self._sync_controls(document)
        self.refresh_if_changed(document)  # nothing to do unless the RoPE spec changed

    def _set_param(self, **values) -> None:
        if self.ctx.document_model.try_set_params("rope", **values):
            self.error_label.setVisible(False)

    def _sync_controls(self, document: Document) -> None:
        try:
            spec = document.spec("rope")
        except PeappError:
            return
        self.form.sync({name: getattr(spec, name) for name in ROPE_CONTROLS})
        self.factor_spin.setEnabled(spec.rope_type != "default")

    # ---- config.json ---------------------------------------------------------------------------
    def _choose_config(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, i18n.translate("Spectrum", "Load a model's config.json"), "",
                                              i18n.translate("Spectrum", "Model config (config.json *.json);;All "
                                                                         "files (*)"))
        if path:
            self.load_config(path)

    def load_config(self, path: str) -> None:
        """Fill the RoPE spec from ``path``, read off the GUI thread; a bad file shows why and keeps
        everything."""
        self.ctx.reader.read(f"{self.object_name}:config", lambda: rope.read_config_file(path),
                             lambda reading: self._config_read(path, reading),
                             lambda message: self._config_failed(path, message), what=f"config {path}")

    def _config_read(self, path: str, reading: rope.HfRopeReading) -> None:
        try:
            apply_rope_config(self.ctx, path, reading)
        except PeappError as exc:
            self._config_failed(path, str(exc))
            return
        self.error_label.setVisible(False)
        self._notes = tuple(reading.notes)
        self._notes_key = frozen_params(reading.spec.to_dict())
        self.ctx.status(i18n.translate("Spectrum", "Loaded RoPE settings from {path}").format(path=path))
        if self._facts is not None:
            self.set_caption(self._caption(self._facts))

    def _config_failed(self, path: str, message: str) -> None:
        message = i18n.translate("Spectrum", "Could not load {path}: {message}").format(path=path, message=message)
        self.ctx.status(message)
        self.error_label.setText(message + i18n.translate("Spectrum", " The previous settings are kept."))
        self.error_label.setVisible(True)

    # ---- drawing --------------------------------------------------------------------------------
    def show_result(self, facts: ScalingFacts) -> None:
        self._facts = facts
        spec = facts.spec
        pairs = np.arange(len(facts.wavelength_before))
        self.before_curve.setData(pairs, facts.wavelength_before)
        self.after_curve.setData(pairs, facts.wavelength_after)
        self.kind_points.setData(pairs, facts.wavelength_after,
                                 symbolBrush=[pg.mkBrush(KIND_COLOURS[k]) for k in facts.kinds])
        self.original_line.setPos(_log10(facts.trained_context))
        self.original_line.label.setFormat(i18n.translate("Spectrum", "original context {n:,}").format(
            n=facts.trained_context))
        # visible first: a hidden line's label ignores format changes
        self.extended_line.setVisible(facts.extended_context != facts.trained_context)
        self.extended_line.setPos(_log10(facts.extended_context))
        self.extended_line.label.setFormat(i18n.translate("Spectrum", "extended context {n:,}").format(
            n=facts.extended_context))

        self.band.setVisible(facts.llama3_band is not None)
        self.ramp.setVisible(facts.yarn_ramp is not None)
        self.shade_label.setText("")
        if facts.llama3_band is not None:
            lo, hi = facts.llama3_band
            self.band.setRegion((_log10(lo), _log10(hi)))
            self.shade_label.setText(i18n.translate("Spectrum", "Llama-3 blend band: wavelengths {lo:,.0f} … "
                                                                "{hi:,.0f}").format(lo=lo, hi=hi))
            self.shade_label.setPos(0, _log10(hi))
        if facts.yarn_ramp is not None:
            lo, hi = facts.yarn_ramp
            self.ramp.setRegion((lo, hi))
            self.shade_label.setText(i18n.translate("Spectrum", "YaRN ramp: pairs {lo:g} … {hi:g}").format(lo=lo, hi=hi))
            self.shade_label.setPos(lo, _log10(float(facts.wavelength_after.max())))
        self.wave_plot.setTitle(self._wave_title(facts))

        self.ratio_curve.setData(pairs, facts.ratio)
        longrope = facts.longrope_long is not None
        for curve, values, name in ((self.short_curve, facts.longrope_short,
                                     i18n.translate("Spectrum", "LongRoPE short factors")),
                                    (self.long_curve, facts.longrope_long,
                                     i18n.translate("Spectrum", "LongRoPE long factors"))):
            self.ratio_legend.removeItem(curve)
            if values is None:
                curve.setData([], [])
            else:
                curve.setData(pairs, values)
                self.ratio_legend.addItem(curve, name)
        # readable ticks on the log axis: powers of two up to the largest scale
        top = max(float(np.max(facts.ratio)), spec.effective_factor(),
                  float(np.max(facts.longrope_long)) if longrope else 1.0)
        powers = [2.0 ** k for k in range(-1, int(np.ceil(np.log2(top))) + 1)]
        self.ratio_plot.getAxis("left").setTicks([[(np.log10(v), f"{v:g}") for v in powers], []])
        self.factor_line.setPos(_log10(spec.effective_factor()))
        self.factor_line.label.setFormat(i18n.translate("Spectrum", "factor {factor:g}").format(
            factor=spec.effective_factor()))
        self.ratio_plot.setTitle(i18n.translate("Spectrum", "How much each pair's wavelength is stretched (LongRoPE "
                                                            "factors shaded)") if longrope else
                                 i18n.translate("Spectrum", "How much each pair's wavelength is stretched"))

        self.decay_before.setData(facts.distances[1:], facts.decay_before[1:])
        self.decay_after.setData(facts.distances[1:], facts.decay_after[1:])
        self.decay_original.setPos(_log10(facts.trained_context))
        self.decay_extended.setPos(_log10(facts.extended_context))
        self.decay_plot.setTitle(i18n.translate("Spectrum", "RoFormer long-term decay bound (dim {dim}, base "
                                                            "{base:g})").format(dim=spec.rotary_dim, base=spec.base))
        self.set_caption(self._caption(facts))

    def _wave_title(self, facts: ScalingFacts) -> str:
        attn = facts.attention_factor
        extra = i18n.translate("Spectrum", " · attention factor {factor:.4g} (logits × {square:.4g})").format(
            factor=attn, square=attn * attn) if attn != 1.0 else ""
        return i18n.translate("Spectrum", "Wavelength per pair, {kind}{extra}").format(
            kind=self._kind_name(facts.spec.rope_type), extra=extra)

    def _caption(self, facts: ScalingFacts) -> str:
        text = facts.summary() + i18n.translate(
            "Spectrum", " Grey dashed: wavelengths before scaling; blue: after (for dynamic and LongRoPE, at the "
            "extended length). A pair whose wavelength exceeds the original context line never completed a turn "
            "in training.")
        if facts.mismatch:
            text += f" ⚠ {facts.mismatch}"
        notes = [n for n in self._notes if n != facts.mismatch]
        if notes and frozen_params(facts.spec.to_dict()) == self._notes_key:
            text += i18n.translate("Spectrum", " From config.json: ") + " ".join(notes)
        return text

    # ---- hover ----------------------------------------------------------------------------------
    def _hover(self, scene_pos) -> None:
        facts = self._facts
        if facts is None:
            return
        hit = plot_at(scene_pos, (("pair", self.wave_plot), ("pair", self.ratio_plot), ("decay", self.decay_plot)))
        if hit is None:
            return
        where, point = hit
        if where == "pair":
            i = int(round(point.x()))
            if 0 <= i < len(facts.wavelength_before):
                self.readout.setText(self.pair_text(i))
        else:
            distance = pow10(point.x())  # the decay plot's distance axis is logarithmic
            j = int(np.clip(np.searchsorted(facts.distances, distance), 1, len(facts.distances) - 1))
            self.readout.setText(i18n.translate(
                "Spectrum", "distance {distance:,.0f}: bound {before:.3f} without scaling, {after:.3f} with {kind} (at "
                "distance 0 both are {start:.1f})").format(
                distance=facts.distances[j], before=facts.decay_before[j], after=facts.decay_after[j],
                kind=self._kind_name(facts.spec.rope_type), start=facts.decay_before[0]))

    def _click(self, event) -> None:
        """Clicking a pair selects it in the rotation view too (a shared view setting) and brings that
        view to the front."""
        facts = self._facts
        if facts is None:
            return
        hit = plot_at(event.scenePos(), ((None, self.wave_plot), (None, self.ratio_plot)))
        if hit is not None:
            i = int(round(hit[1].x()))
            if 0 <= i < len(facts.wavelength_before):
                self.ctx.document_model.set_view(RotationView.view_id, pair=i)
                self.ctx.show_panel(RotationView.view_id)  # where the pair now turns: in front, not behind its tab
                self.readout.setText(self.pair_text(i) + i18n.translate("Spectrum", " — shown in the rotation view."))

    def pair_text(self, i: int) -> str:
        f = self._facts
        return i18n.translate(
            "Spectrum", "pair {pair}: wavelength {before:,.1f} → {after:,.1f} positions (×{ratio:.3g}, {kind}); turns "
            "{turns:,.2f} times in the original {trained:,} positions, {turns_extended:,.2f} times in the extended "
            "{extended:,}").format(pair=i, before=f.wavelength_before[i], after=f.wavelength_after[i], ratio=f.ratio[i],
                                   kind=i18n.shown(KIND_NAMES.get(str(f.kinds[i]), str(f.kinds[i]))),
                                   turns=f.rotations_original[i], trained=f.trained_context,
                                   turns_extended=f.rotations_extended[i], extended=f.extended_context)

    # ---- export ---------------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        f = self._facts
        if f is None:
            return {}
        return {"pair": np.arange(len(f.wavelength_before)), "wavelength_before": f.wavelength_before,
                "wavelength_after": f.wavelength_after, "scale": f.ratio,
                "rotations_original": f.rotations_original, "rotations_extended": f.rotations_extended,
                "distance": f.distances, "decay_without_scaling": f.decay_before,
                "decay_with_scaling": f.decay_after}

    def export_title(self) -> str:
        if self._facts is None:
            return i18n.shown(self.title)
        s = self._facts.spec
        return i18n.translate("Spectrum", "RoPE spectrum — {kind}").format(kind=self._kind_name(s.rope_type)) + \
            (f" ×{s.factor:g}" if s.rope_type != "default" else "")


DOCK = SpectrumDock
