"""RoPE as rotations: a pair's 2D vector turning with position, and what that buys.

* Small multiples: the same example vector in pairs from the fastest to the slowest, each
  turning by position·θ_i with a fading trail — the multi-scale idea at a glance.
* Relative property: a query at m and a key at n (both shifted by the current position):
  the angle between them is (m − n)·θ_i whatever the shift, so q·k stays constant.
* Additive vs rotary: the same token vector plus the sinusoidal encoding changes length and
  direction; rotated by RoPE it keeps its length.

The frequencies come from the worker (``RotationRequest``, the RoPE spec of the Document);
the animation only turns a handful of 2D points on the GUI thread.  Its timer is single-shot
and re-armed after each frame is drawn, so a slow frame delays the next one instead of
queueing ticks: the animation can never pile up work.
"""

from __future__ import annotations

import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import (QGraphicsSimpleTextItem, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSizePolicy,
                               QVBoxLayout, QWidget)
from superqt import QLabeledSlider
from superqt.utils import signals_blocked

from peapp.i18n import msg
from peapp.analysis import rotation
from peapp.analysis.rotation import RotationFacts, RotationRequest
from peapp.document import Document
from peapp.errors import PeappError
from peapp.jobs import frozen_params
from peapp.views.rotation import RotationView
from ui import i18n
from ui.docks.base import ViewDock, readout_label
from ui.forms import Combo, Form, Spin
from ui.plotting import draw_as_path, in_axis_cell, plot_at

N_MULTIPLES = 5
TRAIL = 24  # positions shown behind the current one, fading
Q_COLOUR, K_COLOUR = "#2e86de", "#e67e22"
X_COLOUR, ADD_COLOUR, ROT_COLOUR = "#95a5a6", "#c0392b", "#27ae60"


def _arrow(plot: pg.PlotItem, colour: str, width: float = 2.5, style=Qt.PenStyle.SolidLine) -> pg.PlotCurveItem:
    """A vector from the origin (a plain curve: cheap to move every frame)."""
    item = pg.PlotCurveItem(pen=pg.mkPen(colour, width=width, style=style))
    if style != Qt.PenStyle.SolidLine:
        draw_as_path(item)
    plot.addItem(item)
    return item


def _set_arrow(item: pg.PlotCurveItem, tip: np.ndarray) -> None:
    item.setData(np.array([0.0, float(tip[0])]), np.array([0.0, float(tip[1])]))


class LineUnder(pg.GraphicsWidget):
    """A line of text centred under a plot's view box, in the row of its (hidden) bottom axis.

    The "N turns" label was a text item in the view box under the circle: the layout kept no
    room for it, so in a small export (or a short panel) the figure's edge cut it.  Here the
    layout keeps one line for it at every size.  Its height is one line of the shown language's
    glyphs and its width asks for nothing, so the text changing every frame of the
    animation never re-lays the figure out."""

    def __init__(self, colour: str, point_size: float = 8.0) -> None:
        super().__init__()
        self.label = QGraphicsSimpleTextItem(self)
        font = self.label.font()
        font.setPointSizeF(point_size)
        self.label.setFont(font)
        self.label.setBrush(pg.mkBrush(colour))
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(0)
        self._line_height = QFontMetricsF(font).height()
        self._fit_height(self._line_height)

    def _fit_height(self, height: float) -> None:
        self.setMinimumHeight(height)
        self.setMaximumHeight(height)

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:
        self.label.setText(text)
        rect = self.label.boundingRect()
        # a line's height, taller where a language's glyphs are (Devanagari), and back again after a
        # switch back: the figure then looks as it did.  Constant within a language, so the text
        # changing every frame never re-lays the figure out.
        height = max(self._line_height, rect.height())
        if abs(height - self.maximumHeight()) > 0.01:
            self._fit_height(height)
        self._centre()

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        self._centre()

    def _centre(self) -> None:
        rect = self.label.boundingRect()
        self.label.setPos((self.size().width() - rect.width()) / 2, (self.size().height() - rect.height()) / 2)


def under_plot(plot: pg.PlotItem, colour: str) -> LineUnder:
    """A :class:`LineUnder` in ``plot``'s bottom-axis row (that axis is hidden in these plots)."""
    line = LineUnder(colour)
    in_axis_cell(plot, "bottom", line)
    return line


def _circle(radius: float, n: int = 121) -> tuple[np.ndarray, np.ndarray]:
    t = np.linspace(0, 2 * np.pi, n)
    return radius * np.cos(t), radius * np.sin(t)


class RotationDock(ViewDock):
    object_name = "rotationDock"
    view_id = "rotation"
    title = msg("Panels", "RoPE rotations")
    tab_title = msg("Panels", "Rotations")
    order = 30
    shortcut = "Ctrl+2"
    frame_interval_ms = 40  # 25 frames/s; tests shorten it

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._facts: RotationFacts | None = None
        self._position = 0
        self.frames_drawn = 0  # counts animation frames (for tests and the benchmark of the view)
        self._static_key = None
        self._drawn_settings: dict | None = None  # this dock's view settings when last drawn
        self.last_frame_ms = 0.0

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)  # re-armed after each frame: never a backlog of ticks
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        # the position slider is the animation's, not a form control: the Document learns the
        # position when the user lets go (or pauses), never on every frame
        self.form = Form(RotationView, lambda name, value: self.set_view(**{name: value}), parent=self,
                         names=("pair", "speed", "m", "n"),
                         hints={"pair": Spin(tracking=True), "speed": Combo(), "m": Spin(tracking=True),
                                "n": Spin(tracking=True)},
                         object_names={"pair": "rotationPair", "speed": "rotationSpeed", "m": "rotation_m",
                                       "n": "rotation_n"})
        self.pair_spin, self.speed_combo = self.form.widgets["pair"], self.form.widgets["speed"]
        self.m_spin, self.n_spin = self.form.widgets["m"], self.form.widgets["n"]
        self.play_button = QPushButton()
        self.play_button.setObjectName("rotationPlay")
        self.play_button.setCheckable(True)
        i18n.keep_updated(self.play_button, self._name_play_button)
        i18n.keep_tooltip(self.play_button, msg("Rotations", "Advance the position continuously; pauses when the panel "
                                                "is hidden"))
        self.play_button.toggled.connect(self._on_play_toggled)
        self.position_slider = QLabeledSlider(Qt.Orientation.Horizontal)
        self.position_slider.setObjectName("rotationPosition")
        i18n.keep_updated(self.position_slider,
                          lambda: self.position_slider.setToolTip(i18n.shown(RotationView.info("position").help)))
        self.position_slider.valueChanged.connect(self._on_slider)
        self.position_slider.sliderReleased.connect(self._store_position)
        self.pair_info = QLabel()
        self.pair_info.setObjectName("rotationPairInfo")
        bar.addWidget(self.form.labels["pair"])
        bar.addWidget(self.pair_spin)
        bar.addWidget(self.pair_info)
        bar.addWidget(self.play_button)
        bar.addWidget(self.speed_combo)
        bar.addWidget(i18n.keep_text(QLabel(), msg("Rotations", "Position")))
        bar.addWidget(self.position_slider, 1)
        for name in ("m", "n"):
            bar.addWidget(self.form.labels[name])
            bar.addWidget(self.form.widgets[name])
        layout.addLayout(bar)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("rotationGraphics")
        self.multiples: list[dict] = []
        # fading trail, newest first; the newest point is the vector's tip (built once, reused every frame)
        self._trail_brushes = [pg.mkBrush(46, 134, 222, int(a)) for a in np.linspace(255, 20, TRAIL)]
        self._trail_sizes = [9] + [5] * (TRAIL - 1)
        for col in range(N_MULTIPLES):
            plot = self.graphics.addPlot(enableMenu=False, row=0, col=col)
            self._square(plot)
            circle = plot.plot(pen=pg.mkPen("#555", width=1))
            arrow = _arrow(plot, Q_COLOUR)
            trail = pg.ScatterPlotItem(pen=None)
            plot.addItem(trail)
            turns = under_plot(plot, "#888")  # how far it has turned; grey reads on a dark panel and on paper
            self.multiples.append(dict(plot=plot, circle=circle, trail=trail, arrow=arrow, turns=turns, pair=None))
        self.rel_plot = self.graphics.addPlot(enableMenu=False, row=1, col=0, colspan=N_MULTIPLES // 2 + 1)
        self.add_plot = self.graphics.addPlot(enableMenu=False, row=1, col=N_MULTIPLES // 2 + 1, colspan=N_MULTIPLES - N_MULTIPLES // 2 - 1)
        for plot in (self.rel_plot, self.add_plot):
            self._square(plot)
            plot.addLegend(offset=(4, 4), labelTextSize="8pt")
        self.rel_circle = self.rel_plot.plot(pen=pg.mkPen("#555", width=1))
        self.q_ref = _arrow(self.rel_plot, Q_COLOUR, 1.2, Qt.PenStyle.DashLine)
        self.k_ref = _arrow(self.rel_plot, K_COLOUR, 1.2, Qt.PenStyle.DashLine)
        self.q_arrow = _arrow(self.rel_plot, Q_COLOUR)
        self.k_arrow = _arrow(self.rel_plot, K_COLOUR)
        self.rel_arc = pg.PlotCurveItem(pen=pg.mkPen("#f1c40f", width=2))
        self.rel_plot.addItem(self.rel_arc)
        self.rel_tips = pg.ScatterPlotItem(pen=None, size=8)
        self._rel_brushes = [pg.mkBrush(c) for c in (Q_COLOUR, K_COLOUR, Q_COLOUR, K_COLOUR)]
        self.rel_plot.addItem(self.rel_tips)
        legend = self.rel_plot.legend
        self._legend(legend, self.q_arrow, msg("Rotations", "q at m + shift"))
        self._legend(legend, self.k_arrow, msg("Rotations", "k at n + shift"))
        self._legend(legend, self.q_ref, msg("Rotations", "q at m, k at n (no shift)"))
        self.x_circle = self.add_plot.plot(pen=pg.mkPen("#555", width=1))
        self.x_arrow = _arrow(self.add_plot, X_COLOUR)
        self.add_arrow = _arrow(self.add_plot, ADD_COLOUR)
        self.rot_arrow = _arrow(self.add_plot, ROT_COLOUR)
        self.pe_line = _arrow(self.add_plot, ADD_COLOUR, 1, Qt.PenStyle.DotLine)
        self.add_tips = pg.ScatterPlotItem(pen=None, size=8)
        self._add_brushes = [pg.mkBrush(c) for c in (X_COLOUR, ADD_COLOUR, ROT_COLOUR)]
        self.add_plot.addItem(self.add_tips)
        self._legend(self.add_plot.legend, self.x_arrow, msg("Rotations", "token x"))
        self._legend(self.add_plot.legend, self.add_arrow, msg("Rotations", "x + sinusoid PE(pos)"))
        self._legend(self.add_plot.legend, self.rot_arrow, msg("Rotations", "RoPE: R(pos)·x"))
        self.graphics.ci.layout.setRowStretchFactor(0, 2)
        self.graphics.ci.layout.setRowStretchFactor(1, 3)
        layout.addWidget(self.graphics, 1)

        numbers = QGridLayout()
        self.relative_label = QLabel()
        self.relative_label.setObjectName("rotationRelative")
        self.additive_label = QLabel()
        self.additive_label.setObjectName("rotationAdditive")
        for label in (self.relative_label, self.additive_label):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        numbers.addWidget(self.relative_label, 0, 0)
        numbers.addWidget(self.additive_label, 0, 1)
        layout.addLayout(numbers)
        self.readout = readout_label("rotationReadout")
        i18n.keep(self.readout.setText, msg("Rotations", "Hover over a plot for its numbers; click a small plot to show "
                                            "that pair below."), self.readout)
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.graphics.scene().sigMouseClicked.connect(self._click)
        self._sync_controls(self.ctx.document)

    def _legend(self, legend: pg.LegendItem, item, message) -> None:
        """A legend entry whose text follows the language: after a switch the legend is built again
        (a label given a shorter text keeps the longer one's size: the picture would not come back)."""
        entries = self.__dict__.setdefault("_legend_entries", {})
        first = legend not in entries
        entries.setdefault(legend, []).append((item, message))
        if first:  # kept while the dock lives (a connection of its own would outlive it)
            i18n.keep_updated(self, lambda: self._rebuild_legend(legend))
        else:
            legend.addItem(item, i18n.shown(message))

    def _rebuild_legend(self, legend: pg.LegendItem) -> None:
        legend.clear()
        for item, message in self._legend_entries[legend]:
            legend.addItem(item, i18n.shown(message))

    def _name_play_button(self) -> None:
        self.play_button.setText(i18n.translate("Rotations", "Pause") if self.play_button.isChecked()
                                 else i18n.translate("Rotations", "Play"))

    @staticmethod
    def _square(plot: pg.PlotItem) -> None:
        # No axes: they would be repainted every frame (the costliest part of a frame), and the
        # hover read-out gives coordinates.  Faint cross-hairs mark the origin instead.
        plot.setAspectLocked(True)
        plot.hideAxis("left")
        plot.hideAxis("bottom")
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        for angle in (0, 90):
            plot.addItem(pg.InfiniteLine(pos=0, angle=angle, pen=pg.mkPen("#444", width=1)), ignoreBounds=True)

    # ---- document ------------------------------------------------------------------------------
    def make_request(self, document: Document) -> RotationRequest:
        return RotationRequest(params=frozen_params(document.spec("rope").to_dict()))

    def on_document_changed(self, document: Document) -> None:
        self._sync_controls(document)
        settings = dict(document.views.get(self.view_id, {}))
        if self.refresh_if_changed(document):
            self._drawn_settings = settings
        elif settings != self._drawn_settings:
            self._drawn_settings = settings
            self._draw()  # a view setting of this dock changed: redraw from what we have

    def _sync_controls(self, document: Document) -> None:
        try:
            spec = document.spec("rope")
        except PeappError:
            return
        view = self.view_spec(document)
        last = max(spec.n_positions, spec.extended_context) - 1
        self.form.set_range("pair", 0, spec.n_pairs - 1)
        self.form.sync({"pair": min(view.pair, spec.n_pairs - 1), "speed": view.speed, "m": view.m, "n": view.n})
        with signals_blocked(self.position_slider):
            self.position_slider.setRange(0, max(last, 1))
        if not self.is_playing():
            self._position = min(view.position, self.position_slider.maximum())
            self._show_position_on_slider()

    # ---- animation -------------------------------------------------------------------------------
    def is_playing(self) -> bool:
        return self.play_button.isChecked()

    def play(self) -> None:
        self.play_button.setChecked(True)

    def pause(self) -> None:
        self.play_button.setChecked(False)

    def _on_play_toggled(self, playing: bool) -> None:
        self._name_play_button()
        if playing:
            self._timer.start(self.frame_interval_ms)
        else:
            self._timer.stop()
            self._draw()  # the read-outs for where it stopped
            self._store_position()

    def _tick(self) -> None:
        if not self.is_playing():
            return
        step = int(self.speed_combo.currentData() or 1)
        top = self.position_slider.maximum()
        self._position = (self._position + step) % (top + 1)
        self._show_position_on_slider()
        self._draw()
        self.frames_drawn += 1
        if self.is_playing():
            self._timer.start(self.frame_interval_ms)  # only now: the next frame waits for this one

    def has_pending_frame(self) -> bool:
        return self._timer.isActive()

    def _on_slider(self, value: int) -> None:
        self._position = int(value)
        self._draw()
        if not self.position_slider.isSliderDown():
            self._store_position()

    def _show_position_on_slider(self) -> None:
        with signals_blocked(self.position_slider):
            self.position_slider.setValue(self._position)

    def _store_position(self) -> None:
        # The Document learns the position when the user lets go, not on every animation frame.
        if not self.is_playing() and self.view_spec().position != self._position:
            self.set_view(position=self._position)

    def set_position(self, position: int) -> None:
        self.position_slider.setValue(position)

    @property
    def position(self) -> int:
        return self._position

    def hideEvent(self, event) -> None:
        if self.is_built():  # a dock not built yet has nothing to pause (asking would build it)
            self.pause()  # a hidden view does not animate
        super().hideEvent(event)

    def closeEvent(self, event) -> None:
        if self.is_built():
            self.pause()
        super().closeEvent(event)

    # ---- drawing ---------------------------------------------------------------------------------
    def show_result(self, facts: RotationFacts) -> None:
        self._facts = facts
        for cell, pair in zip(self.multiples, rotation.fast_to_slow(facts.spec.n_pairs, N_MULTIPLES)):
            cell["pair"] = int(pair)
        for cell in self.multiples[len(rotation.fast_to_slow(facts.spec.n_pairs, N_MULTIPLES)):]:
            cell["pair"] = None
        self._draw()

    def _draw(self) -> None:
        """Redraw for the current position; the parts that do not move are redone only when needed."""
        facts = self._facts
        if facts is None:
            return
        started = time.perf_counter()
        chosen = min(self.pair_spin.value(), facts.spec.n_pairs - 1)
        m, n = self.m_spin.value(), self.n_spin.value()
        key = (id(facts), chosen, m, n)
        if key != self._static_key:
            self._static_key = key
            self._draw_static(facts, chosen, m, n)
        self._draw_frame(facts, chosen, m, n)
        self.last_frame_ms = (time.perf_counter() - started) * 1000

    def _draw_static(self, facts: RotationFacts, chosen: int, m: int, n: int) -> None:
        """Titles, circles and ranges: fixed while only the position moves (rotation keeps lengths)."""
        attn = facts.attention_factor
        for cell in self.multiples:
            pair = cell["pair"]
            cell["plot"].setVisible(pair is not None)
            if pair is None:
                continue
            radius = float(np.linalg.norm(facts.q[pair])) * attn
            cell["circle"].setData(*_circle(radius))
            mark = " ◀" if pair == chosen else ""
            cell["plot"].setTitle(i18n.translate("Rotations", "pair {pair}{mark} · λ {wavelength:,.1f}").format(
                pair=pair, mark=mark, wavelength=facts.wavelengths[pair]), size="8pt")
            cell["plot"].setRange(xRange=(-1.15 * radius, 1.15 * radius), yRange=(-1.15 * radius, 1.15 * radius),
                                  padding=0)
        q_r, k_r = (float(np.linalg.norm(v[chosen])) * attn for v in (facts.q, facts.k))
        self.rel_circle.setData(*_circle(q_r))
        big = 1.2 * max(q_r, k_r)
        self.rel_plot.setRange(xRange=(-big, big), yRange=(-big, big), padding=0)
        self.rel_plot.setTitle(i18n.translate("Rotations", "Relative, pair {pair}: q at m = {m}, k at n = {n}, both "
                                              "shifted by the position").format(pair=chosen, m=m, n=n), size="9pt")
        x_r = float(np.linalg.norm(facts.x[chosen]))
        self.x_circle.setData(*_circle(x_r * attn))
        big = 1.2 * max(x_r + 1.0, x_r * attn)  # |x + PE| ≤ |x| + 1 in a pair
        self.add_plot.setRange(xRange=(-big, big), yRange=(-big, big), padding=0)
        self.add_plot.setTitle(i18n.translate("Rotations", "Additive vs rotary, pair {pair}: the same token x").format(
            pair=chosen), size="9pt")
        self.pair_info.setText(f"λ {facts.wavelengths[chosen]:,.1f}")
        self.pair_info.setToolTip(i18n.translate("Rotations", "Pair {pair} turns once every {wavelength:,.1f} positions "
                                                 "(θ = {theta:.6g} rad/position)").format(
            pair=chosen, wavelength=facts.wavelengths[chosen], theta=facts.inv_freq[chosen]))
        self.set_caption(self._caption(facts, chosen))

    def _draw_frame(self, facts: RotationFacts, chosen: int, m: int, n: int) -> None:
        inv, attn, p = facts.inv_freq, facts.attention_factor, float(self._position)
        step = int(self.speed_combo.currentData() or 1)
        behind = p - step * np.arange(TRAIL)
        behind = behind[behind >= 0]
        turns_text = i18n.translate("Rotations", "{turns:,.2f} turns")
        for cell in self.multiples:
            pair = cell["pair"]
            if pair is None:
                continue
            points = rotation.trail(facts.q[pair], inv[pair], behind, attn)
            k = len(points)
            cell["trail"].setData(pos=points, brush=self._trail_brushes[:k], size=self._trail_sizes[:k])
            _set_arrow(cell["arrow"], points[0])
            cell["turns"].setText(turns_text.format(turns=p * inv[pair] / (2 * np.pi)))

        # relative property: q at m + p, k at n + p; dashed: at m and n
        one = slice(chosen, chosen + 1)
        q_now, k_now, q_ref, k_ref = (rotation.rope_pairs(v[one], inv[one], at, attn)[0] for v, at in
                                      ((facts.q, m + p), (facts.k, n + p), (facts.q, m), (facts.k, n)))
        for item, tip in ((self.q_arrow, q_now), (self.k_arrow, k_now), (self.q_ref, q_ref), (self.k_ref, k_ref)):
            _set_arrow(item, tip)
        self.rel_tips.setData(pos=np.array([q_now, k_now, q_ref, k_ref]), brush=self._rel_brushes)
        rel = rotation.relative(facts.q, facts.k, inv, m, n, p, chosen, attn)
        a_k = np.arctan2(k_now[1], k_now[0])
        delta = np.radians(rotation.wrapped_degrees(np.arctan2(q_now[1], q_now[0]) - a_k))
        arc = a_k + np.linspace(0, delta, 40)
        rad = 0.35 * min(np.linalg.norm(q_now), np.linalg.norm(k_now))
        self.rel_arc.setData(rad * np.cos(arc), rad * np.sin(arc))
        self._relative = rel
        # While playing, the number read-outs change every 5th frame: nobody reads 25 numbers a
        # second, and re-laying-out rich text is most of a frame's cost.
        show_numbers = not self.is_playing() or self.frames_drawn % 5 == 0
        if show_numbers:
            self.relative_label.setText(i18n.translate(
                "Rotations", "<b>Relative</b> (pair {pair}): (m−n)·θ<sub>{pair}</sub> = {distance}·{theta:.4g} → "
                "{angle:+.1f}° between k and q, whatever the shift. Pair q·k = {pair_dot:+.4f}; full q·k at ({m}, {n}) "
                "= {dot:+.5f}, at ({m}+{p:,.0f}, {n}+{p:,.0f}) = {shifted:+.5f}.").format(
                pair=chosen, distance=m - n, theta=inv[chosen], angle=np.degrees(rel.angle), pair_dot=rel.pair_dot,
                m=m, n=n, dot=rel.dot, p=p, shifted=rel.dot_shifted))

        # additive sinusoid vs rotary, the same token vector x at position p
        add = rotation.additive_vs_rotary(facts.x, inv, p, chosen, attn)
        x2, added2, rot2 = facts.x[chosen], add.added[chosen], add.rotated[chosen]
        _set_arrow(self.x_arrow, x2)
        _set_arrow(self.add_arrow, added2)
        _set_arrow(self.rot_arrow, rot2)
        self.pe_line.setData(np.array([x2[0], added2[0]]), np.array([x2[1], added2[1]]))
        self.add_tips.setData(pos=np.array([x2, added2, rot2]), brush=self._add_brushes)
        self._additive = add
        if show_numbers:
            kept = i18n.translate("Rotations", " (= |x| × attention factor {factor:.4g})").format(factor=attn) \
                if attn != 1 else i18n.translate("Rotations", " (unchanged)")
            self.additive_label.setText(i18n.translate(
                "Rotations", "<b>Additive vs rotary</b> at position {p:,.0f}: |x| = {norm:.3f}; |x + PE| = "
                "{added:.3f} (length changed by {change:+.3f}, pair {pair} turned {turn_added:+.1f}°); |R·x| = "
                "{rotated:.3f}{kept}, pair {pair} turned {turn_rotated:+.1f}°.").format(
                p=p, norm=add.norm, added=add.norm_added, change=add.norm_added - add.norm, pair=chosen,
                turn_added=add.turn_added, rotated=add.norm_rotated, kept=kept, turn_rotated=add.turn_rotated))

    def _caption(self, facts: RotationFacts, chosen: int) -> str:
        spec = facts.spec
        kind = i18n.shown(type(spec).info("rope_type").label_of(spec.rope_type))
        scaling = "" if spec.rope_type == "default" else i18n.translate(
            "Rotations", " with {kind} scaling ×{factor:g}").format(kind=kind, factor=spec.factor)
        pairing = i18n.translate("Rotations", "i and i + {half}").format(half=spec.n_pairs) \
            if spec.layout == "half" else i18n.translate("Rotations", "2i and 2i + 1")
        return i18n.translate(
            "Rotations", "RoPE{scaling}, {pairs} pairs, base {base:g}: top, the query's pairs from fastest to "
            "slowest, turned by position·θ_i (trail: the last {trail} frames) — fast pairs spin, slow ones barely "
            "move. Bottom left: q and k turn together under a shared shift, so their angle and q·k stay fixed "
            "(dashed: no shift). Bottom right: adding a sinusoid changes a vector's length and direction; RoPE only "
            "turns it. A pair is dimensions {pairing} ({layout} layout); example vectors are random with a fixed "
            "seed.").format(scaling=scaling, pairs=spec.n_pairs, base=spec.base, trail=TRAIL, pairing=pairing,
                            layout=i18n.shown(type(spec).info("layout").label_of(spec.layout)))

    # ---- hover -----------------------------------------------------------------------------------
    def _hover(self, scene_pos) -> None:
        facts = self._facts
        if facts is None:
            return
        for cell in self.multiples:
            plot, pair = cell["plot"], cell["pair"]
            if pair is not None and plot.isVisible() and plot.sceneBoundingRect().contains(scene_pos):
                angle = self._position * facts.inv_freq[pair]
                self.readout.setText(i18n.translate(
                    "Rotations", "pair {pair}: θ = {theta:.6g} rad/position, wavelength {wavelength:,.1f} positions; "
                    "at position {position:,} it has turned {degrees:,.1f}° ({turns:,.2f} turns)").format(
                    pair=pair, theta=facts.inv_freq[pair], wavelength=facts.wavelengths[pair],
                    position=self._position, degrees=np.degrees(angle), turns=angle / (2 * np.pi)))
                return
        hit = plot_at(scene_pos, ((self._relative_hover, self.rel_plot), (self._additive_hover, self.add_plot)))
        if hit is not None:
            describe, point = hit
            self.readout.setText(describe(point.x(), point.y()))

    def _click(self, event) -> None:
        """Clicking a small multiple makes its pair the one shown below."""
        for cell in self.multiples:
            if cell["pair"] is not None and cell["plot"].sceneBoundingRect().contains(event.scenePos()):
                self.set_view(pair=int(cell["pair"]))
                return

    def _relative_hover(self, x: float, y: float) -> str:
        rel = getattr(self, "_relative", None)
        if rel is None:
            return ""
        return i18n.translate("Rotations", "({x:+.3f}, {y:+.3f}), radius {radius:.3f}, heading {heading:+.1f}° — "
                              "angle between q and k {angle:+.2f}°, pair q·k {pair_dot:+.4f}").format(
            x=x, y=y, radius=np.hypot(x, y), heading=np.degrees(np.arctan2(y, x)), angle=np.degrees(rel.angle),
            pair_dot=rel.pair_dot)

    def _additive_hover(self, x: float, y: float) -> str:
        add = getattr(self, "_additive", None)
        if add is None:
            return ""
        return i18n.translate("Rotations", "({x:+.3f}, {y:+.3f}), radius {radius:.3f} — full vectors: |x| {norm:.4f}, "
                              "|x + PE| {added:.4f}, |R·x| {rotated:.4f}").format(
            x=x, y=y, radius=np.hypot(x, y), norm=add.norm, added=add.norm_added, rotated=add.norm_rotated)

    # ---- export ----------------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        facts = self._facts
        if facts is None:
            return {}
        p = float(self._position)
        return {"inv_freq": facts.inv_freq, "wavelength": facts.wavelengths,
                "q_pairs_at_m": rotation.rope_pairs(facts.q, facts.inv_freq, self.m_spin.value() + p,
                                                    facts.attention_factor),
                "k_pairs_at_n": rotation.rope_pairs(facts.k, facts.inv_freq, self.n_spin.value() + p,
                                                    facts.attention_factor),
                "x_pairs": facts.x,
                "x_plus_sinusoid": rotation.additive_vs_rotary(facts.x, facts.inv_freq, p, 0).added,
                "x_rotated": rotation.rope_pairs(facts.x, facts.inv_freq, p, facts.attention_factor)}

    def export_title(self) -> str:
        return i18n.translate("Rotations", "RoPE rotations — position {position:,}").format(position=self._position)


DOCK = RotationDock
