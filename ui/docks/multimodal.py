"""Multimodal positions (M-RoPE): text, images and video in one sequence.

Three pictures of one block sequence (text N, image H×W, video F×H×W @S s, …), laid out by a
model's M-RoPE (a preset, or the open checkpoint's config) or a later design:

* the position ids per axis (t, h, w) over the tokens, each block's span shaded, the flattened
  token index dotted for comparison;
* which rotary pair carries which axis: 1D RoPE, sectioned (Qwen2/2.5-VL), interleaved
  (Qwen3-VL) and the chosen design, pairs fast → slow;
* the RoPE score from a query token to every visual key (positions only) as maps over the
  image and video patches, one per layout.

Click a token (on the ids or a map) to make it the query.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPen
from PySide6.QtWidgets import QComboBox, QGraphicsRectItem, QGridLayout, QLineEdit, QVBoxLayout, QWidget

from peapp.analysis.multimodal import AXIS_1D, AXIS_ZERO, MultimodalRequest, MultimodalResult
from peapp.document import Document
from peapp.encodings import multimodal as mm
from peapp.errors import PeappError
from peapp.i18n import msg
from peapp.views.multimodal import MultimodalView
from ui import i18n
from ui.docks.base import ViewDock, error_label, readout_label, scrolling
from ui.forms import Form, Line, Spin, compact
from ui.plotting import fit_title_height, plot_at, relax_title_width

AXIS_COLOURS = {0: (211, 84, 0), 1: (39, 174, 96), 2: (46, 134, 222), AXIS_1D: (127, 140, 141),
                AXIS_ZERO: (236, 240, 241)}
AXIS_NAMES = {0: msg("Multimodal", "t (time)"), 1: msg("Multimodal", "h (rows)"), 2: msg("Multimodal", "w (columns)"),
              AXIS_1D: msg("Multimodal", "1D position"), AXIS_ZERO: msg("Multimodal", "t, unrotated (θ = 0)")}
SPAN_BRUSH = {"image": (142, 68, 173, 40), "video": (241, 196, 15, 55), "timestamp": (127, 140, 141, 40)}
COLORMAP = "viridis"
MAX_MAPS = 4


def _rgb(colour: tuple[int, ...]) -> str:
    return "#%02x%02x%02x" % colour[:3]


class MultimodalDock(ViewDock):
    object_name = "multimodalDock"
    view_id = MultimodalView.view_id
    title = msg("Panels", "Multimodal positions (M-RoPE)")
    tab_title = msg("Panels", "M-RoPE")
    order = 95  # beside the Training lab: ties go by shortcut, so the View menu reads L, M, P, R
    shortcut = "Ctrl+Shift+M"  # Ctrl+0…9 are the article panels; M for M-RoPE

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._result: MultimodalResult | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._build_controls())
        # the figure keeps room for its three rows and scrolls where the panel is shorter (1366 × 768)
        layout.addWidget(scrolling(self._build_graphics(), "multimodalScroll"), 1)
        self.error_label = error_label("multimodalError")
        layout.addWidget(self.error_label)
        self.readout = readout_label("multimodalReadout", wrap=True)
        i18n.keep(self.readout.setText, msg("Multimodal", "Hover over the ids, the pairs or a map for values; click a "
                                                          "token or a patch to make it the query."), self.readout)
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.graphics.scene().sigMouseClicked.connect(self._click)
        self.form.sync(self.view_spec())

    # ---- controls ----------------------------------------------------------------------------
    _ROWS = (("style", "config_from"), ("design", "temporal_spacing", "v2pe_step"),
             ("blocks", "timestamp_tokens", "query"))

    def _build_controls(self) -> QWidget:
        names = [n for row in self._ROWS for n in row]
        self.form = Form(MultimodalView, self._edit, parent=self, names=names,
                         hints={"blocks": Line(), "timestamp_tokens": Spin(), "query": Spin(),
                                "temporal_spacing": Spin(decimals=4, adaptive=True),
                                "v2pe_step": Spin(decimals=4, adaptive=True)},
                         object_names={n: f"multimodal_{n}" for n in names})
        for widget in self.form.widgets.values():
            if isinstance(widget, QComboBox):
                compact(widget, 16)  # elided, not as wide as the longest choice: the dock fits 1366 px
            elif not isinstance(widget, QLineEdit):
                widget.setMaximumWidth(90)
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.form.add_to_grid(grid, self._ROWS)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(6, 1)
        return box

    def _edit(self, name: str, value: Any) -> None:
        """Validate the edited setting with the others; a refused value is said under the field."""
        try:
            self.ctx.document.with_view(self.view_id, **{name: value})
        except PeappError as exc:
            self.form.mark_invalid(name, str(exc))
            self.ctx.status(str(exc))
            return
        self.form.clear_invalid(name)
        self.set_view(**{name: value})

    def on_document_changed(self, document: Document) -> None:
        try:
            self.form.sync(document.view_spec(self.view_id))
        except PeappError:
            pass
        self.refresh_if_changed(document)

    # ---- plots ---------------------------------------------------------------------------------
    def _build_graphics(self) -> QWidget:
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("multimodalGraphics")
        self.graphics.setMinimumSize(420, 600)  # ids, pairs and maps each with room for their labels
        self.ids_plot = self.graphics.addPlot(row=0, col=0, enableMenu=False)
        self.ids_plot.showGrid(x=False, y=True, alpha=0.2)
        self.ids_plot.hideButtons()
        relax_title_width(self.ids_plot)  # a long title (with its legend) is clipped, never widens the dock
        self.flat_curve = self.ids_plot.plot(pen=pg.mkPen((120, 120, 120), width=1, style=Qt.PenStyle.DotLine))
        self.axis_curves = [self.ids_plot.plot(pen=pg.mkPen(AXIS_COLOURS[a], width=w), stepMode="center")
                            for a, w in ((0, 3.0), (1, 2.0), (2, 1.2))]
        self.query_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#c0392b", width=1.5))
        self.ids_plot.addItem(self.query_line, ignoreBounds=True)
        self._spans: list[Any] = []

        self.pairs_plot = self.graphics.addPlot(row=1, col=0, enableMenu=False)
        self.pairs_plot.hideButtons()
        relax_title_width(self.pairs_plot)
        self.pairs_plot.invertY(True)
        self.pairs_image = pg.ImageItem(axisOrder="row-major")
        self.pairs_plot.addItem(self.pairs_image)

        self.maps_layout = self.graphics.addLayout(row=2, col=0)
        self.maps: list[tuple[pg.PlotItem, pg.ImageItem, QGraphicsRectItem]] = []
        for k in range(MAX_MAPS):
            # two maps a row: a video's frames side by side make a wide mosaic, and wide plots show it larger
            plot = self.maps_layout.addPlot(row=k // 2, col=k % 2, enableMenu=False)
            plot.hideButtons()
            relax_title_width(plot)
            plot.invertY(True)
            plot.setAspectLocked(True)
            plot.hideAxis("left")
            plot.getAxis("bottom").setPen(None)  # only its tick labels: the frames' names
            image = pg.ImageItem(axisOrder="row-major")
            plot.addItem(image)
            marker = QGraphicsRectItem()
            pen = QPen(Qt.GlobalColor.red)
            pen.setWidthF(2.0)
            pen.setCosmetic(True)
            marker.setPen(pen)
            marker.setZValue(10)
            plot.addItem(marker, ignoreBounds=True)
            self.maps.append((plot, image, marker))
        self.colorbar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get(COLORMAP), interactive=False,
                                        width=12)
        self.colorbar.setImageItem([m[1] for m in self.maps])
        self.maps_layout.addItem(self.colorbar, row=0, col=2, rowspan=2)
        for row, stretch in ((0, 4), (1, 2), (2, 4)):
            self.graphics.ci.layout.setRowStretchFactor(row, stretch)
        i18n.keep_updated(self.graphics, self._name_static_texts)
        return self.graphics

    def _name_static_texts(self) -> None:
        self.ids_plot.setLabel("bottom", i18n.translate("Multimodal", "token"))
        self.ids_plot.setLabel("left", i18n.translate("Multimodal", "position id"))
        self.pairs_plot.setLabel("bottom", i18n.translate("Multimodal", "rotary pair i (fast → slow)"))
        self.colorbar.setLabel("right", i18n.translate("Multimodal", "score"))
        if self._result is not None:  # the titles hold the legends
            self._draw_ids(self._result)
            self._draw_pairs(self._result)

    # ---- requests ------------------------------------------------------------------------------
    def make_request(self, document: Document) -> MultimodalRequest:
        view = document.view_spec(self.view_id)
        return MultimodalRequest(settings=view.settings(),
                                 checkpoint=document.checkpoint if view.config_from == "auto" else None)

    def on_failed(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(True)

    # ---- drawing ------------------------------------------------------------------------------
    def show_result(self, result: MultimodalResult) -> None:
        self._result = result
        self.error_label.setVisible(False)
        self._draw_ids(result)
        self._draw_pairs(result)
        self._draw_maps(result)
        self.form.set_row_enabled("style", not result.from_checkpoint)  # the checkpoint's config rules
        self.set_caption(self._caption(result))

    def _draw_ids(self, r: MultimodalResult) -> None:
        n = r.seq.n
        edges = np.arange(n + 1) - 0.5
        for axis, curve in enumerate(self.axis_curves):
            curve.setData(edges, r.ids[axis], stepMode="center")
        self.flat_curve.setData(np.arange(n), np.arange(n))
        for item in self._spans:
            self.ids_plot.removeItem(item)
        self._spans = []
        # the ids' own range: the flattened index (dotted) runs off the top, which is the point
        top = float(r.ids.max()) if n else 1.0
        for span in r.seq.spans:
            if span.kind == "text":
                continue
            region = pg.LinearRegionItem((span.start - 0.5, span.stop - 0.5), movable=False,
                                         brush=pg.mkBrush(*SPAN_BRUSH[span.kind]), pen=pg.mkPen(None))
            region.setZValue(-10)
            self.ids_plot.addItem(region, ignoreBounds=True)
            self._spans.append(region)
            if span.kind != "timestamp" and span.frame <= 0:
                label = pg.TextItem(r.block_label(span.block) if span.frame < 0 else
                                    i18n.translate("Multimodal", "video {f}×{h}×{w}").format(
                                        f=span.grid[0], h=span.grid[1], w=span.grid[2]),
                                    color="#555", anchor=(0, 0))
                label.setPos(span.start - 0.5, top * 1.2 + 1)
                self.ids_plot.addItem(label, ignoreBounds=True)
                self._spans.append(label)
        self.query_line.setPos(r.query)
        self.ids_plot.setXRange(-0.5, n - 0.5, padding=0.01)
        self.ids_plot.setYRange(min(0.0, float(r.ids.min())), top * 1.2 + 1, padding=0)
        # the legend is in the title: a legend box inside the plot covered the block labels
        legend = " ".join(f'<span style="color:{_rgb(AXIS_COLOURS[a])}">━ {i18n.shown(AXIS_NAMES[a])}</span>'
                          for a in (0, 1, 2))
        legend += ' <span style="color:#787878">┈ ' + i18n.translate("Multimodal", "token index") + "</span>"
        self.ids_plot.setTitle(i18n.translate("Multimodal", "Position ids — {design}").format(
            design=i18n.shown(mm.DESIGN_LABELS[r.design])) + "<br>" + legend, size="10pt")
        fit_title_height(self.ids_plot)

    def _draw_pairs(self, r: MultimodalResult) -> None:
        rows, pairs = r.pair_axes.shape
        rgb = np.zeros((rows, pairs, 3), dtype=np.uint8)
        for code, colour in AXIS_COLOURS.items():
            rgb[r.pair_axes == code] = colour
        self.pairs_image.setImage(rgb, levels=(0, 255))
        self.pairs_image.setRect(QRectF(-0.5, -0.5, pairs, rows))
        labels = [(k, text + (" ★" if k == r.model_row else "")) for k, text in enumerate(r.pair_rows)]
        axis = self.pairs_plot.getAxis("left")
        axis.setTicks([labels, []])
        # one line of text a row: squeezed (a two-line title above, a short window) the Hindi row
        # names, taller than Latin ones, were drawn over each other
        metrics = QFontMetricsF(axis.style.get("tickFont") or axis.font())
        line = max((metrics.boundingRect(text).height() for _, text in labels), default=metrics.height())
        self.pairs_plot.getViewBox().setMinimumHeight(math.ceil(rows * line * 1.05))
        self.pairs_plot.setXRange(-0.5, pairs - 0.5, padding=0)
        self.pairs_plot.setYRange(-0.5, rows - 0.5, padding=0)
        s = r.mcfg.sections
        used = sorted({int(a) for a in np.unique(r.pair_axes)})
        legend = " ".join(f'<span style="color:{_rgb(AXIS_COLOURS[a])}">■</span> {i18n.shown(AXIS_NAMES[a])}'
                          for a in used)
        self.pairs_plot.setTitle(i18n.translate(
            "Multimodal", "Which rotary pair carries which axis (sections t {t} · h {h} · w {w}; ★ the model's)")
            .format(t=s[0], h=s[1], w=s[2]) + "<br>" + legend, size="10pt")
        fit_title_height(self.pairs_plot)

    def _draw_maps(self, r: MultimodalResult) -> None:
        mosaic = r.mosaic
        visual = mosaic >= 0
        values = [np.where(visual, s[np.clip(mosaic, 0, None)], np.nan) for s in r.scores]
        shown = np.concatenate([v[visual] for v in values]) if visual.any() else np.array([0.0, 1.0])
        lo, hi = float(np.nanmin(shown)), float(np.nanmax(shown))
        if hi - lo < 1e-9:
            lo, hi = lo - 0.5, hi + 0.5
        self.colorbar.setLevels((lo, hi))
        q = np.argwhere(mosaic == r.query)
        for k, (plot, image, marker) in enumerate(self.maps):
            used = k < len(values)
            plot.setVisible(used)
            if not used:
                continue
            image.setImage(values[k], levels=(lo, hi))
            image.setRect(QRectF(-0.5, -0.5, mosaic.shape[1], mosaic.shape[0]))
            plot.setTitle(r.map_labels[k], size="9pt")
            marker.setVisible(len(q) > 0)
            if len(q):
                marker.setRect(QRectF(q[0][1] - 0.5, q[0][0] - 0.5, 1, 1))
            # the frames' names as the bottom axis's ticks: an axis keeps room for its text in pixels,
            # where labels inside the plot took rows a small grid does not have
            plot.getAxis("bottom").setTicks([[(x + (width - 1) / 2, label) for x, width, label in r.mosaic_frames], []])
            plot.setXRange(-0.5, mosaic.shape[1] - 0.5, padding=0.02)
            plot.setYRange(-0.5, mosaic.shape[0] - 0.5, padding=0.02)

    def _caption(self, r: MultimodalResult) -> str:
        c, s = r.mcfg, r.mcfg.sections
        layout = (i18n.translate("Multimodal", "interleaved (Qwen3-VL: t, h, w take turns over the pairs)")
                  if c.interleaved else
                  i18n.translate("Multimodal", "sectioned (time on the highest frequencies)"))
        text = i18n.translate(
            "Multimodal", "{source}: {model}, head_dim {head} ({pairs} rotary pairs, base {base:g}), M-RoPE sections "
            "t {t} · h {h} · w {w}, {layout}. {n} tokens use ids 0 … {top} (delta {delta:+d}): a visual block "
            "advances the text by max(h, w), not by its tokens.").format(
            source=r.source, model=c.model_type, head=c.head_dim, pairs=c.pairs, base=c.rope_theta, t=s[0], h=s[1],
            w=s[2], layout=layout, n=r.seq.n, top=int(r.model_ids.max()) if r.seq.n else 0, delta=r.deltas)
        if r.overlap:
            text += i18n.translate(
                "Multimodal", " ⚠ {k} text token(s) after a video get ids at or below its largest t id "
                "(transformers 5.24 continues from start + max(h, w)).").format(k=r.overlap)
        if r.design != "mrope":
            text += " " + i18n.translate("Multimodal", "Drawn from the paper's formulas, not a library: {design}.").format(
                design=i18n.shown(mm.DESIGN_LABELS[r.design]))
        if r.notes:
            text += " " + " ".join(r.notes)
        return text

    # ---- hover and click ------------------------------------------------------------------------
    def _plots(self) -> list[tuple[Any, pg.PlotItem]]:
        return [("ids", self.ids_plot), ("pairs", self.pairs_plot)] + \
            [(k, plot) for k, (plot, _, _) in enumerate(self.maps) if plot.isVisible()]

    def _token_at(self, where: Any, point: Any) -> int | None:
        r = self._result
        if r is None:
            return None
        if where == "ids":
            k = int(round(point.x()))
            return k if 0 <= k < r.seq.n else None
        if isinstance(where, int):
            row, col = int(round(point.y())), int(round(point.x()))
            if 0 <= row < r.mosaic.shape[0] and 0 <= col < r.mosaic.shape[1] and r.mosaic[row, col] >= 0:
                return int(r.mosaic[row, col])
        return None

    def _hover(self, scene_pos) -> None:
        hit = plot_at(scene_pos, self._plots())
        if hit is None or self._result is None:
            return
        where, point = hit
        if where == "pairs":
            text = self.pair_text(int(round(point.x())))
        else:
            token = self._token_at(where, point)
            text = self.token_text(token, where if isinstance(where, int) else None) if token is not None else None
        if text:
            self.readout.setText(text)

    def _click(self, event) -> None:
        hit = plot_at(event.scenePos(), self._plots())
        if hit is None or event.button() != Qt.MouseButton.LeftButton:
            return
        token = self._token_at(*hit)
        if token is not None:
            self.set_view(query=token)

    def token_text(self, k: int, map_index: int | None = None) -> str:
        r = self._result
        assert r is not None
        b = int(r.seq.block_of[k])
        frame, row, col = (int(v) for v in r.seq.grid_pos[k])
        where = (i18n.translate("Multimodal", ", frame {f}, row {r}, column {c}").format(f=frame, r=row, c=col)
                 if row >= 0 else "")
        ids = "(" + ", ".join(f"{v:g}" for v in r.ids[:, k]) + ")"
        text = i18n.translate("Multimodal", "token {k} · block {b}: {block}{where} · (t, h, w) = {ids}").format(
            k=k, b=b, block=r.block_label(b), where=where, ids=ids)
        if r.design != "mrope":
            text += i18n.translate("Multimodal", " (the model's: {ids})").format(
                ids="(" + ", ".join(str(int(v)) for v in r.model_ids[:, k]) + ")")
        if map_index is not None:
            text += i18n.translate("Multimodal", " · score from query {q} in {layout}: {s:.4f}").format(
                q=r.query, layout=r.map_labels[map_index], s=float(r.scores[map_index, k]))
        return text

    def pair_text(self, i: int) -> str:
        r = self._result
        if r is None or not 0 <= i < r.pair_axes.shape[1]:
            return ""
        axes = "; ".join(f"{name}: {i18n.shown(AXIS_NAMES[int(r.pair_axes[row, i])])}"
                         for row, name in enumerate(r.pair_rows))
        return i18n.translate("Multimodal", "pair {i}: wavelength {wave:,.1f} positions · {axes}").format(
            i=i, wave=float(r.wavelengths[i]), axes=axes)

    # ---- probes and export ----------------------------------------------------------------------
    def readout_at(self, x: float, y: float, plot: Any = None) -> str:
        return super().readout_at(x, y, plot if plot is not None else self.ids_plot)

    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        r = self._result
        if r is None:
            return {}
        out: dict[str, np.ndarray] = {
            "token": np.arange(r.seq.n), "token_type": r.seq.token_types, "block": r.seq.block_of,
            "frame": r.seq.grid_pos[:, 0], "row": r.seq.grid_pos[:, 1], "column": r.seq.grid_pos[:, 2],
            "model_t": r.model_ids[0], "model_h": r.model_ids[1], "model_w": r.model_ids[2],
            "t": r.ids[0], "h": r.ids[1], "w": r.ids[2],
            "pair": np.arange(r.pair_axes.shape[1]), "pair_wavelength": r.wavelengths}
        for k, key in enumerate(["1d", "sectioned", "interleaved", r.design][:r.pair_axes.shape[0]]):
            out[f"pair_axis_{key}"] = r.pair_axes[k]  # 0 t, 1 h, 2 w, 3 one 1-D position, 4 unrotated
        for k, key in enumerate(["1d", "sectioned", "interleaved", r.design][:len(r.scores)]):
            out[f"score_{key}"] = r.scores[k]
        return out

    def export_title(self) -> str:
        r = self._result
        if r is None:
            return i18n.shown(self.title)
        return i18n.translate("Multimodal", "Multimodal positions — {source}, {design}").format(
            source=r.source, design=i18n.shown(mm.DESIGN_LABELS[r.design]))


DOCK = MultimodalDock
