"""The encoding heatmap: positions × dimensions of the chosen family, or position × position
similarity, with a colour bar, hover read-out, and cross-sections of a clicked cell.

Large tables never reach the screen whole: the worker returns a level-of-detail reduction
sized to the plot's pixel height (``peapp.analysis.heatmap``).  Zooming in asks for the
visible rows again at full resolution and draws them over the overview.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget
from superqt.utils import qthrottled

from peapp.i18n import msg
from peapp import encodings
from peapp.encodings.base import axis_plural
from peapp.analysis.heatmap import LEVEL_SHARE
from peapp.document import Document
from peapp.analysis.heatmap import AnsweredRowRequest, ColumnRequest, TableRequest, TableResult, stride_text
from peapp.views.heatmap import HeatmapView, pixel_cols, pixel_rows, table_request
from ui import i18n
from ui.docks.base import ViewDock, readout_label, viewport_of
from ui.forms import Combo, Form
from ui.plotting import fit_colorbar_axis, set_axis_label, set_curve, set_title
from ui.settings import colormap_name

HOVER_HINT = msg("Heatmap", "Hover over the heatmap for values; click to select a position and a dimension.")
DIVERGING = "CET-D1A"
SEQUENTIAL = "viridis"
class HeatmapDock(ViewDock):
    object_name = "heatmapDock"
    view_id = "heatmap"
    title = msg("Panels", "Encoding heatmap")
    tab_title = msg("Panels", "Heatmap")
    order = 10
    shortcut = "Ctrl+1"
    view_names = ("heatmap", "similarity")

    def build(self) -> None:  # ViewDock.__init__ calls it (a front panel: never built later)
        self._result: TableResult | None = None
        self._detail: TableResult | None = None
        self._selected: tuple[int, int] | None = None  # (position, column)
        self._request_key = None
        self._cmap_name = DIVERGING
        self._exact: ColumnRequest | None = None  # the column request whose values the column plot shows
        self._y_ranges: dict[int, tuple[float, float]] = {}  # cross-section plot → the y range set (_fit_y)
        self._x_ranges: dict[int, tuple[float, float]] = {}  # cross-section plot → the x range set (_fit_x)
        self._hover_pos = None  # the last pointer position over the scene: the read-out follows every result
        self._spec = None  # the validated spec of the drawn table (titles name its columns)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.form = Form(HeatmapView, lambda name, value: self.set_view(**{name: value}), parent=self,
                         hints={"mode": Combo(), "similarity": Combo()},
                         object_names={"mode": "heatmapMode", "similarity": "similarityKind"})
        self.mode_combo = self.form.widgets["mode"]
        self.sim_combo = self.form.widgets["similarity"]
        reset = i18n.keep_text(QPushButton(), msg("Heatmap", "Reset zoom"))
        i18n.keep_tooltip(reset, msg("Heatmap", "Show the whole table again (double-click the plot does the same)"))
        reset.clicked.connect(self.reset_zoom)
        bar.addWidget(i18n.keep_text(QLabel(), msg("Heatmap", "Show")))
        bar.addWidget(self.mode_combo)
        bar.addWidget(self.sim_combo)
        bar.addStretch(1)
        bar.addWidget(reset)
        layout.addLayout(bar)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("heatmapGraphics")
        self.plot = self.graphics.addPlot(enableMenu=False, row=0, col=0, colspan=2)
        self.plot.invertY(True)
        self.plot.showGrid(x=False, y=False)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.detail_image = pg.ImageItem(axisOrder="row-major")
        self.detail_image.setZValue(1)
        self.plot.addItem(self.image)
        self.plot.addItem(self.detail_image)
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get(DIVERGING), interactive=False, width=14)
        self.colorbar.setImageItem([self.image, self.detail_image], insert_in=self.plot)
        fit_colorbar_axis(self.colorbar)
        self.row_line = pg.InfiniteLine(angle=0, pen=pg.mkPen("#f1c40f", width=1))
        self.col_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#f1c40f", width=1))
        for line in (self.row_line, self.col_line):
            line.setVisible(False)
            line.setZValue(2)
            self.plot.addItem(line, ignoreBounds=True)

        self.row_plot = self.graphics.addPlot(enableMenu=False, row=1, col=0)
        self.col_plot = self.graphics.addPlot(enableMenu=False, row=1, col=1)
        for p in (self.row_plot, self.col_plot):
            p.showGrid(x=True, y=True, alpha=0.2)
        self.row_curve = self.row_plot.plot(pen=pg.mkPen("#2e86de", width=1.5))
        self.col_curve = self.col_plot.plot(pen=pg.mkPen("#e67e22", width=1.5))
        # an exact column can have 10^6 points: drawn as per-pixel min/max, only what is in view
        self.col_curve.setDownsampling(auto=True, method="peak")
        self.col_curve.setClipToView(True)
        self.graphics.ci.layout.setRowStretchFactor(0, 3)
        self.graphics.ci.layout.setRowStretchFactor(1, 1)
        layout.addWidget(self.graphics, 1)

        self.readout = readout_label("heatmapReadout", i18n.shown(HOVER_HINT))
        layout.addWidget(self.readout)
        self.set_body(body)

        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.graphics.scene().sigMouseClicked.connect(self._click)
        self._range_changed = qthrottled(self._request_detail, timeout=150, parent=self)
        self.plot.getViewBox().sigRangeChangedManually.connect(lambda *_: self._range_changed())
        toggle = QShortcut(QKeySequence("T"), self, context=Qt.ShortcutContext.ApplicationShortcut)
        i18n.keep(toggle.setWhatsThis, msg("Heatmap", "Switch the heatmap between the encoding table and position "
                                               "similarity"), toggle)
        toggle.activated.connect(lambda: self.mode_combo.setCurrentIndex(1 - self.mode_combo.currentIndex()))
        self._sync_controls(self.ctx.document)

    # ---- requests ---------------------------------------------------------------------------
    def viewport(self):
        """The image plot's size: a large table is computed at this many rows."""
        return viewport_of(self.plot.getViewBox())

    def make_request(self, document: Document) -> TableRequest:
        return table_request(document, self.viewport(), self._selected[0] if self._selected is not None else None)

    def on_document_changed(self, document: Document) -> None:
        self._sync_controls(document)
        try:
            request = self.make_request(document)
        except Exception as exc:
            self.ctx.status(f"{i18n.shown(self.title)}: {exc}")
            return
        key = (request.family, request.params, request.mode, request.similarity)
        if key == self._request_key:
            return  # a change that does not affect this view
        self._request_key = key
        self._detail = None
        self.refresh(request)

    def _sync_controls(self, document: Document) -> None:
        view = self.view_spec(document)
        self.form.sync(view)
        self.sim_combo.setEnabled(view.mode == "similarity")

    def _request_detail(self) -> None:
        """After a zoom/pan: recompute the visible rows at full resolution if the overview is coarse."""
        result = self._result
        if result is None or result.request.mode != "encoding":
            return
        view = result.view
        (x0, x1), (y0, y1) = self.plot.getViewBox().viewRange()
        lo, hi = max(view.row_start, int(np.floor(y0))), min(view.row_stop, int(np.ceil(y1)) + 1)
        left, right = max(view.col_start, int(np.floor(x0))), min(view.column_stop, int(np.ceil(x1)) + 1)
        pixels = pixel_rows(self.viewport())
        col_pixels = pixel_cols(self.viewport())
        rows_coarse = view.bin_size > max(1.0, (hi - lo) / pixels) * 1.5
        cols_coarse = view.col_bin_size > max(1.0, (right - left) / col_pixels) * 1.5
        if hi - lo <= 0 or right - left <= 0 or not (rows_coarse or cols_coarse):
            self.detail_image.setVisible(False)
            return
        span = hi - lo
        lo, hi = max(view.row_start, lo - span // 4), min(view.row_stop, hi + span // 4)
        cols = {}
        if result.request.max_cols is not None:  # a pooled-width table: the visible columns too
            width = right - left
            cols = dict(col_start=max(view.col_start, left - width // 4),
                        col_stop=min(view.column_stop, right + width // 4), max_cols=col_pixels * 3 // 2)
        request = TableRequest(family=result.request.family, params=result.request.params, mode="encoding",
                               row_start=lo, row_stop=hi, max_rows=pixels * 3 // 2, **cols)
        self.submit_side("detail", request)

    def zoom_rows(self, start: float, stop: float) -> None:
        """Show rows start … stop, as a zoom would, and ask for them at full resolution if the
        overview drawn there is coarser."""
        self.zoom_to(rows=(start, stop))

    def zoom_to(self, rows: tuple[float, float], cols: tuple[float, float] | None = None) -> None:
        """Show that region, as a zoom would, and ask for it at full resolution if coarser."""
        box = self.plot.getViewBox()
        if cols is None:
            box.setYRange(*rows, padding=0)
        else:
            box.setRange(xRange=cols, yRange=rows, padding=0)
        self._request_detail()

    @property
    def detail_result(self) -> TableResult | None:
        """The full-resolution rows drawn over the overview after a zoom (None when none is drawn)."""
        return self._detail if self.detail_image.isVisible() else None

    def reset_zoom(self) -> None:
        self.detail_image.setVisible(False)
        self.plot.getViewBox().autoRange(padding=0)

    # ---- drawing ------------------------------------------------------------------------------
    def show_result(self, result: TableResult) -> None:
        previous_mode = self._result.request.mode if self._result is not None else None
        first = self._result is None or self._result.request.mode != result.request.mode or \
            self._result.view.total_rows != result.view.total_rows or \
            self._result.view.column_stop != result.view.column_stop
        self._result = result
        self._spec = encodings.get(result.request.family).make_spec(dict(result.request.params))
        view = result.view
        values = view.values
        levels = result.levels
        cmap_name = colormap_name(result.symmetric)  # the user's choice (Edit > Preferences)
        if cmap_name != self._cmap_name:  # colour-map changes re-render the bar: only when needed
            self._cmap_name = cmap_name
            self.colorbar.setColorMap(pg.colormap.get(cmap_name))
        self.image.setImage(values, autoLevels=False)
        if tuple(levels) != tuple(self.colorbar.levels()):  # unchanged levels: no colour-bar re-layout
            self.colorbar.setLevels(levels)
            fit_colorbar_axis(self.colorbar)
        if result.request.mode == "similarity":
            self.image.setRect(QRectF(view.row_start, view.row_start, view.row_stop - view.row_start,
                                      view.row_stop - view.row_start))
            set_axis_label(self.plot.getAxis("bottom"), i18n.shown(result.row_axis))
        else:
            self.image.setRect(QRectF(view.col_start, view.row_start, view.column_stop - view.col_start,
                                      view.row_stop - view.row_start))
            set_axis_label(self.plot.getAxis("bottom"), i18n.shown(result.col_axis))
        set_axis_label(self.plot.getAxis("left"), i18n.shown(result.row_axis))
        set_title(self.plot, self.export_title())
        set_axis_label(self.colorbar.axis, result.value_label)
        self.detail_image.setVisible(False)
        if first:
            self.reset_zoom()
            if previous_mode != result.request.mode:
                self._selected = None  # (position, dimension) means nothing in the similarity view
            if self._selected is None:
                # start with a meaningful cross-section: a position a fifth of the way down, and
                # dimension 0 (table) or the first position (similarity)
                self._selected = (view.row_start + (view.row_stop - view.row_start) // 5,
                                  0 if result.request.mode == "encoding" else view.row_start)
        else:
            self._request_detail()
        reduction = "" if view.reduction == "full" else i18n.translate(
            "Heatmap", " Drawn as a level-of-detail view ({how}){aliasing}; zoom in for full resolution.").format(
            how=view.reduction, aliasing=self._aliasing(result))
        if result.saturated:
            low, high = result.value_range
            reduction += i18n.translate(
                "Heatmap", " Colours span {low:.3g} … {high:.3g}, where {share:.1%} of the values lie; the rest "
                "(down to {lowest:.3g}, up to {highest:.3g}) take the end colours — hover for exact values.").format(
                low=levels[0], high=levels[1], share=LEVEL_SHARE, lowest=low, highest=high)
        if result.request.mode == "encoding":
            self.set_caption(result.caption + reduction)
        else:
            sampled = "" if view.reduction == "full" else i18n.translate("Heatmap", " Sampled: {how}.").format(
                how=view.reduction)
            self.set_caption(i18n.translate(
                "Heatmap", "{similarity} of every position's encoding with every other: bright diagonal = a position "
                "matches itself; how fast it fades shows how well nearby positions are told apart.{sampled}").format(
                similarity=result.value_label[:1].upper() + result.value_label[1:], sampled=sampled))
        self._update_cross_sections()
        self._refresh_hover()

    @staticmethod
    def _aliasing(result: TableResult) -> str:
        """Which columns a strided view draws aliased: those turning in under two strides."""
        view, wavelengths = result.view, result.wavelengths
        if view.method != "sample" or view.bin_size <= 1 or wavelengths is None:
            return ""
        fast = np.flatnonzero(np.asarray(wavelengths)[:view.values.shape[1]] < 2 * view.bin_size)
        if fast.size == 0:
            return ""
        return i18n.translate("Heatmap", "; {fast:,} of {total:,} {columns} turn in under two strides ({span:,.0f} "
                              "positions), so their stripes here are aliased, not their own").format(
            fast=fast.size, total=len(wavelengths), columns=axis_plural(result.col_axis), span=2 * view.bin_size)

    def show_side_result(self, name: str, result) -> None:
        if name == "detail" and self._result is not None and result.request.params == self._result.request.params:
            view = result.view
            self._detail = result
            self.detail_image.setImage(view.values, autoLevels=False)
            self.detail_image.setLevels(self.colorbar.levels())
            self.detail_image.setRect(QRectF(view.col_start, view.row_start, view.column_stop - view.col_start,
                                             view.row_stop - view.row_start))
            self.detail_image.setVisible(True)
            self._refresh_hover()
        elif name == "row":
            request, values = result
            if self._current_cross_section(request, position=request.position):
                self._show_row(request.position, values)
        elif name == "column" and result is not None:
            request = result.request
            view = self._result.view if self._result is not None else None
            if self._current_cross_section(request, column=request.column) and view.bin_size > 1 and \
                    (request.row_start, request.row_stop) == (view.row_start, view.row_stop):
                self._exact = request
                set_curve(self.col_curve, result.positions, result.values)
                self._fit_y(self.col_plot, result.values)
                set_title(self.col_plot, i18n.translate("Heatmap", "{column} across {rows} (exact)").format(
                    column=self._column_name(request.column), rows=axis_plural(self._result.row_axis)))

    def _current_cross_section(self, request, position: int | None = None, column: int | None = None) -> bool:
        """Whether a cross-section that arrives on its own still belongs to what is drawn: the
        same table, the encoding view, the selected position (row) or column (column).  Without
        this, one asked for before an edit, a mode switch or a tab change could land after it."""
        current, selected = self._result, self._selected
        if current is None or selected is None or current.request.mode != "encoding":
            return False
        if (request.family, request.params) != (current.request.family, current.request.params):
            return False
        return (position is None or position == selected[0]) and (column is None or column == selected[1])

    def _fit_y(self, plot: pg.PlotItem, values: np.ndarray) -> None:
        """A cross-section's y range: the table's value range and the curve's own, kept while the
        data still fills most of it.  An edit then keeps the axis, which needs no new ticks and
        no second paint (autorange re-ticked it, and redrew a dense curve, after every edit)."""
        result = self._result
        clipped = result is not None and result.saturated
        if clipped:
            # a few outliers (a trained table's) would flatten every curve: the colours' robust
            # range, the outliers run off the plot (hover or the exported data give them exactly)
            lo, hi = result.levels
        else:
            lo, hi = result.value_range if result is not None else (0.0, 0.0)
            finite = values[np.isfinite(values)]
            if finite.size:
                lo, hi = min(lo, float(finite.min())), max(hi, float(finite.max()))
        if hi <= lo:
            lo, hi = lo - 0.5, hi + 0.5
        current = self._y_ranges.get(id(plot))
        if current is not None and current[0] <= lo and hi <= current[1] and hi - lo >= 0.6 * (current[1] - current[0]):
            return  # still fits, and still fills most of it
        pad = 0.05 * (hi - lo)
        target = (lo - pad, hi + pad)
        if current != target:
            self._y_ranges[id(plot)] = target
            plot.setYRange(*target, padding=0)

    def _fit_x(self, plot: pg.PlotItem, lo: float, hi: float) -> None:
        """A cross-section's x range: the table's extent, set on every new table (autorange
        with clip-to-view kept a shrunk table's curve at the old ±50,000)."""
        target = (float(lo), float(max(hi, lo + 1)))
        if self._x_ranges.get(id(plot)) != target:
            self._x_ranges[id(plot)] = target
            plot.setXRange(*target, padding=0.01)

    def _column_name(self, column: int) -> str:
        if self._result is None or self._spec is None:
            return i18n.translate("Heatmap", "column {n:,}").format(n=column)
        return encodings.get(self._result.request.family).column_name(self._spec, column)

    def _y_note(self) -> str:
        if self._result is not None and self._result.saturated:
            return i18n.translate("Heatmap", " · y clipped as the colours")
        return ""

    def _auto_y(self, plot: pg.PlotItem) -> None:
        self._y_ranges.pop(id(plot), None)
        plot.enableAutoRange(axis="y")

    def _show_pooled_column(self, result: TableResult, column: int) -> None:
        view = result.view
        values = view.values[:, view.col_index(column)]
        set_curve(self.col_curve, view.row_positions, values)
        self._fit_y(self.col_plot, values)
        how = i18n.translate("Heatmap", "every {nth} position").format(nth=stride_text(view.bin_size)) \
            if view.method == "sample" else \
            i18n.translate("Heatmap", "means of ~{n:,.0f} positions").format(n=view.bin_size)
        set_title(self.col_plot, i18n.translate("Heatmap", "{column} across {rows} ({how})").format(
            column=self._column_name(column), rows=axis_plural(result.row_axis), how=how) + self._y_note())

    def _show_row(self, position: int, values: np.ndarray) -> None:
        set_curve(self.row_curve, np.arange(len(values)), values)
        self._fit_y(self.row_plot, values)
        self._fit_x(self.row_plot, 0, len(values))
        title = encodings.get(self._result.request.family).row_title(self._spec, position) \
            if self._result is not None and self._spec is not None else \
            i18n.translate("Heatmap", "position {n:,}").format(n=position)
        set_title(self.row_plot, title + self._y_note())

    # ---- interaction ----------------------------------------------------------------------------
    def _cell_at(self, scene_pos) -> tuple[int, int, float, TableResult] | None:
        """(position, column, value, the result read) under a scene point, from the finest data
        drawn there (a zoomed detail over the overview).  In a strided view the position and
        column are the ones whose exact value the cell shows."""
        if self._result is None or not self.plot.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.plot.getViewBox().mapSceneToView(scene_pos)
        x, y = point.x(), point.y()
        for result in (self._detail if self.detail_image.isVisible() else None, self._result):
            if result is None:
                continue
            view = result.view
            if not (view.row_start <= y < view.row_stop):
                continue
            row = min(int((y - view.row_start) / view.bin_size), view.values.shape[0] - 1)
            if result.request.mode == "similarity":
                col = min(int((x - view.row_start) / view.bin_size), view.values.shape[1] - 1)
            else:
                col = int(np.floor(x))
                if not view.col_start <= col < view.column_stop:
                    continue  # beside a zoomed detail: the overview may hold it
                index = view.col_index(col)
                value = float(view.values[row, index])
                if view.method == "sample":  # the cell shows the entry at its stride's first row/column
                    return int(view.row_positions[row]), int(view.col_positions[index]), value, result
                return int(np.floor(y)), col, value, result
            if not 0 <= col < view.values.shape[1]:
                return None
            return int(np.floor(y)), col, float(view.values[row, col]), result
        return None

    def _refresh_hover(self) -> None:
        """Read the cell under the pointer again from what is drawn now (a new table, a new
        detail): a read-out from before an edit or an undo would name values no longer shown."""
        if self._hover_pos is None:  # never hovered: the hint (in the current language)
            self.readout.setText(i18n.shown(HOVER_HINT))
            return
        if self._cell_at(self._hover_pos) is None:
            self.readout.setText(i18n.shown(HOVER_HINT))
        else:
            self._hover(self._hover_pos)

    def _hover(self, scene_pos) -> None:
        self._hover_pos = scene_pos
        cell = self._cell_at(scene_pos)
        if cell is None or self._result is None:
            return
        position, col, value, result = cell
        view = result.view
        if result.request.mode == "similarity":
            other = int(view.row_start + col * view.bin_size)
            self.readout.setText(i18n.translate(
                "Heatmap", "positions {a:,} and {b:,} (distance {distance:,}): {what} {value:+.4f}").format(
                a=position, b=other, distance=abs(position - other), what=result.value_label, value=value))
            return
        pooled = ""
        if view.method == "sample":
            pooled = i18n.translate("Heatmap", " (exact; drawn: {how})").format(how=view.reduction.split(",")[0])
        elif view.method == "mean":
            pooled = i18n.translate("Heatmap", " (mean over ~{n:,.0f} positions)").format(n=view.bin_size)
            if view.col_bin_size > 1:
                pooled = i18n.translate("Heatmap", " (mean over ~{rows:,.0f} × {cols:,.0f} cells)").format(
                    rows=view.bin_size, cols=view.col_bin_size)
        text = i18n.translate("Heatmap", "{axis} {n:,}, {column}: {what} {value:+.4f}{pooled}").format(
            axis=i18n.shown(result.row_axis), n=position, column=self._column_name(col), what=result.value_label,
            value=value, pooled=pooled)
        if result.wavelengths is not None and col < len(result.wavelengths):
            text += i18n.translate("Heatmap", " — wavelength {n:,.1f} positions").format(n=result.wavelengths[col])
        self.readout.setText(text)

    def _click(self, event) -> None:
        if event.double():
            self.reset_zoom()
            return
        cell = self._cell_at(event.scenePos())
        if cell is None:
            return
        position, col, _value, _result = cell
        self.select(position, col)

    def select(self, position: int, column: int) -> None:
        """Select a position (row cross-section) and a column (column cross-section)."""
        self._selected = (position, column)
        self._update_cross_sections()

    def _update_cross_sections(self) -> None:
        result = self._result
        similarity = result is not None and result.request.mode == "similarity"
        if similarity:
            self._show_distance_profile(result)
        if result is None or self._selected is None:
            for line in (self.row_line, self.col_line):
                line.setVisible(False)
            self.row_curve.setData([], [])
            self.row_plot.setTitle("")
            if not similarity:
                self._exact = None
                self.col_curve.setData([], [])
                self.col_plot.setTitle("")
            return
        position, column = self._selected
        view = result.view
        # a smaller table (100,000 → 50 positions): the selection moves to its nearest cell
        # rather than leaving both cross-sections (and their titles, and exports) blank
        last_column = (view.row_stop if similarity else view.column_stop) - 1
        position = min(max(position, view.row_start), view.row_stop - 1)
        column = min(max(column, view.row_start if similarity else view.col_start), last_column)
        self._selected = (position, column)
        self.row_line.setPos(position + 0.5)
        self.col_line.setPos(column + 0.5)
        for line in (self.row_line, self.col_line):
            line.setVisible(True)
        if not similarity:
            self._fit_x(self.col_plot, view.row_start, view.row_stop)
            if result.selected_row is not None and result.request.selected_row == position:
                self._show_row(position, result.selected_row)  # came with the table: one paint
            else:
                self.submit_side("row", AnsweredRowRequest(result.request.family, result.request.params, position))
            if view.bin_size > 1 and encodings.get(result.request.family).column_at is not None:
                # Bin means of a fast column shrink towards 0: the exact column follows.  Until it
                # does, an exact curve of this column (before the edit) stays rather than flicker
                # to the means; with none yet, the means are shown and labelled as such.
                request = ColumnRequest(result.request.family, result.request.params, column,
                                        view.row_start, view.row_stop)
                if request != self._exact:
                    if self._exact is None or self._exact.column != column:
                        self._show_pooled_column(result, column)
                    self.submit_side("column", request)
            elif view.bin_size > 1:  # no cheap exact column (ALiBi, T5 bias rows): the means, labelled
                self._exact = None
                self._show_pooled_column(result, column)
            else:
                self._exact = None
                values = view.values[:, view.col_index(column)]
                set_curve(self.col_curve, view.row_positions, values)
                self._fit_y(self.col_plot, values)
                set_title(self.col_plot, i18n.translate("Heatmap", "{column} across {rows}").format(
                    column=self._column_name(column), rows=axis_plural(result.row_axis)) + self._y_note())
        else:
            row = min(int((position - view.row_start) / view.bin_size), view.values.shape[0] - 1)
            set_curve(self.row_curve, view.row_positions, view.values[row])
            self._auto_y(self.row_plot)
            self._fit_x(self.row_plot, view.row_start, view.row_stop)
            set_title(self.row_plot, i18n.translate("Heatmap", "similarity of position {n:,} to every position").format(
                n=position))

    def _show_distance_profile(self, result: TableResult) -> None:
        """Similarity view: the mean over each diagonal, i.e. how similarity fades with distance."""
        self._exact = None  # the column plot shows the profile now
        values = result.view.values
        n = values.shape[0]
        profile = np.array([np.nanmean(np.diagonal(values, k)) for k in range(n)])
        set_curve(self.col_curve, np.arange(n) * result.view.bin_size, profile)
        self._auto_y(self.col_plot)
        self._fit_x(self.col_plot, 0, n * result.view.bin_size)
        set_title(self.col_plot, i18n.translate("Heatmap", "mean similarity by distance (positions)"))

    # ---- export hooks ---------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        if self._result is None:
            return {}
        view = self._result.view
        return {"values": view.values, "row_positions": view.row_positions}

    def export_title(self) -> str:
        if self._result is None:
            return i18n.shown(self.title)
        label = i18n.shown(encodings.get(self._result.request.family).label)
        what = i18n.translate("Heatmap", "similarity") if self._result.request.mode == "similarity" else \
            i18n.translate("Heatmap", "table")
        return f"{label} — {what}"


DOCK = HeatmapDock
