"""Time series: encodings of real, irregular timestamps.

Input is the built-in sensor sample or the user's CSV (timestamp column chosen here; rows that
cannot be read are listed, not silently dropped).  Views: the series, its encoding over time
(gaps in the data stay gaps), and the similarity of two timestamps against their gap.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import (QComboBox, QFileDialog, QGridLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                               QSizePolicy, QVBoxLayout, QWidget)
from superqt.utils import signals_blocked

from peapp.i18n import msg
from peapp.analysis import timeseries as ts
from peapp.analysis.heatmap import default_levels
from peapp.document import Document
from peapp.views.timeseries import NUMBER_UNIT_LABELS, TimeSeriesView
from ui import i18n
from ui.docks.base import error_label, readout_label
from ui.docks._settings import SettingsDock
from ui.forms import Combo, Spin, compact
from ui.plotting import plot_at, relax_title_width

DIVERGING = "CET-D1A"
NO_VALUE = ""  # value-column choice meaning "no value column"
CSV_SUFFIXES = (".csv", ".tsv", ".txt")


class TimeSeriesDock(SettingsDock):
    object_name = "timeSeriesDock"
    view_id = "timeseries"
    title = msg("Panels", "Time series")
    order = 90
    shortcut = "Ctrl+9"
    view_names = ("timeseries",)

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._result: ts.TimeSeriesResult | None = None
        self._header_path: str | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        grid = QGridLayout()

        self.source_label = QLabel()
        self.source_label.setObjectName("timeSeriesSource")
        self.source_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # a long path must not widen the dock: the label may shrink (its tooltip has the full text)
        self.source_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        open_button = i18n.keep_text(QPushButton(), msg("TimeSeries", "Open CSV…"))
        i18n.keep_tooltip(open_button, msg("TimeSeries", "Read your own series: a CSV with a header row and a timestamp "
                                                         "column (ISO 8601 dates or numbers). Dropping a .csv file on "
                                                         "this panel works too."))
        open_button.clicked.connect(self._choose_file)
        sample_button = i18n.keep_text(QPushButton(), msg("TimeSeries", "Sample"))
        i18n.keep_tooltip(sample_button, msg("TimeSeries", "Back to the built-in sensor sample (hourly readings with "
                                                           "missing hours)"))
        sample_button.clicked.connect(self.use_sample)
        # the columns a file has are known only once it is read: these two combos are the dock's own
        self.time_combo = compact(QComboBox())
        self.time_combo.setObjectName("timeSeriesTimeColumn")
        i18n.keep_updated(self.time_combo, lambda: self.time_combo.setToolTip(
            i18n.shown(TimeSeriesView.info("time_column").help)))
        self.time_combo.currentIndexChanged.connect(
            lambda i: i >= 0 and self.set_setting(time_column=self.time_combo.itemData(i)))
        self.value_combo = compact(QComboBox())
        self.value_combo.setObjectName("timeSeriesValueColumn")
        i18n.keep_updated(self.value_combo, lambda: self.value_combo.setToolTip(
            i18n.shown(TimeSeriesView.info("value_column").help)))
        self.value_combo.currentIndexChanged.connect(
            lambda i: i >= 0 and self.set_setting(value_column=self.value_combo.itemData(i)))
        form = self.make_form(
            ("number_unit", "kind", "unit", "d_model", "base", "k", "seed", "pick_a", "pick_b"),
            hints={"number_unit": Combo(chars=10), "kind": Combo(chars=10), "unit": Combo(chars=10), "d_model": Spin(),
                   "base": Spin(decimals=0, adaptive=True), "k": Spin(), "seed": Spin(), "pick_a": Spin(),
                   "pick_b": Spin()},
            object_names={"number_unit": "timeSeriesNumberUnit", "kind": "timeSeriesEncoding", "unit": "timeSeriesUnit",
                          "d_model": "timeSeriesDModel", "base": "timeSeriesBase", "k": "timeSeriesK",
                          "seed": "timeSeriesSeed", "pick_a": "timeSeriesPickA", "pick_b": "timeSeriesPickB"})
        self.number_combo, self.kind_combo, self.unit_combo = (form.widgets[k] for k in ("number_unit", "kind", "unit"))
        self.d_spin, self.base_spin, self.k_spin, self.seed_spin = (form.widgets[k] for k in ("d_model", "base", "k",
                                                                                             "seed"))
        self.pick_a, self.pick_b = form.widgets["pick_a"], form.widgets["pick_b"]

        # four compact rows, at most three label/control pairs each (fits a 1000 px window)
        source_row = QHBoxLayout()
        source_row.addWidget(i18n.keep_text(QLabel(), msg("TimeSeries", "Data")))
        source_row.addWidget(self.source_label, 1)
        source_row.addWidget(open_button)
        source_row.addWidget(sample_button)
        grid.addLayout(source_row, 0, 0, 1, 6)
        grid.addWidget(self._field_label("time_column"), 1, 0)
        grid.addWidget(self.time_combo, 1, 1)
        grid.addWidget(form.labels["number_unit"], 1, 2)
        grid.addWidget(self.number_combo, 1, 3)
        grid.addWidget(self._field_label("value_column"), 1, 4)
        grid.addWidget(self.value_combo, 1, 5)
        form.add_to_grid(grid, [("kind", "unit")], first_row=2)
        grid.addWidget(form.labels["pick_a"], 2, 4)  # one label ("compare") for the two samples
        pair = QHBoxLayout()
        pair.addWidget(self.pick_a)
        pair.addWidget(self.pick_b)
        grid.addLayout(pair, 2, 5)
        # sinusoid and Time2Vec settings share row 3: only the chosen encoding's are shown
        form.add_to_grid(grid, [("d_model", "base")], first_row=3)
        form.add_to_grid(grid, [("k", "seed")], first_row=3)
        for col in (1, 3, 5):
            grid.setColumnStretch(col, 1)
        layout.addLayout(grid)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("timeSeriesGraphics")
        self.series_plot = self.graphics.addPlot(enableMenu=False, row=0, col=0)
        self.heat_plot = self.graphics.addPlot(enableMenu=False, row=1, col=0)
        self.sim_plot = self.graphics.addPlot(enableMenu=False, row=0, col=2, rowspan=2)
        for plot in (self.series_plot, self.heat_plot, self.sim_plot):
            relax_title_width(plot)
        self.series_plot.showGrid(x=True, y=True, alpha=0.2)
        self.sim_plot.showGrid(x=True, y=True, alpha=0.2)
        self.heat_plot.setXLink(self.series_plot)
        self.heat_plot.invertY(True)
        self.series_curve = self.series_plot.plot([], [], pen=pg.mkPen("#2e86de", width=1.2), connect="finite",
                                                  symbol="o", symbolSize=3, symbolBrush="#2e86de", symbolPen=None)
        self.pick_lines = [pg.InfiniteLine(pen=pg.mkPen(c, width=1.5)) for c in ("#f1c40f", "#e67e22")]
        for line in self.pick_lines:
            self.series_plot.addItem(line, ignoreBounds=True)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.heat_plot.addItem(self.image)
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get(DIVERGING), interactive=False, width=12)
        self.colorbar.setImageItem(self.image)
        # the colour bar gets its own layout column, so the series and the heatmap share an x scale on screen
        self.graphics.addItem(self.colorbar, row=1, col=1)
        for plot in (self.series_plot, self.heat_plot):
            plot.getAxis("left").setWidth(70)
        # name every column when there are few (pyqtgraph thins labels out by default)
        self.heat_plot.getAxis("left").setStyle(textFillLimits=[(0, 0.95)])
        self.pair_scatter = pg.ScatterPlotItem(size=3, pen=None, brush=pg.mkBrush(142, 68, 173, 90))
        self.sim_plot.addItem(self.pair_scatter)
        self.sim_curve = self.sim_plot.plot([], [], pen=pg.mkPen("#27ae60", width=2))
        self.pick_point = pg.ScatterPlotItem(size=11, pen=pg.mkPen("#f1c40f", width=2), brush=None, symbol="o")
        self.sim_plot.addItem(self.pick_point)
        i18n.keep_updated(self.sim_plot, lambda: self.sim_plot.setLabel(
            "left", i18n.translate("TimeSeries", "cosine similarity")))
        self.graphics.ci.layout.setColumnStretchFactor(0, 3)
        self.graphics.ci.layout.setColumnStretchFactor(2, 2)
        self.graphics.ci.layout.setRowStretchFactor(0, 2)
        self.graphics.ci.layout.setRowStretchFactor(1, 3)
        layout.addWidget(self.graphics, 1)

        self.bad_rows = QPlainTextEdit()
        self.bad_rows.setObjectName("timeSeriesBadRows")
        self.bad_rows.setReadOnly(True)
        self.bad_rows.setMaximumHeight(64)
        i18n.keep_tooltip(self.bad_rows, msg("TimeSeries", "Rows of the file that could not be used, with the reason "
                                                          "(not silently dropped)"))
        layout.addWidget(self.bad_rows)
        self.error_label = error_label("timeSeriesError")
        layout.addWidget(self.error_label)
        self.readout = readout_label("timeSeriesReadout")
        i18n.keep(self.readout.setText, msg("TimeSeries", "Hover over a plot for its numbers."), self.readout)
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.setAcceptDrops(True)  # drop a CSV on the dock to read it
        self.sync_controls(self.ctx.document)

    @staticmethod
    def _field_label(name: str) -> QLabel:
        """A label for a field whose control is the dock's own, in the current language."""
        label = QLabel()
        i18n.keep_updated(label, lambda: label.setText(i18n.shown(TimeSeriesView.info(name).label)))
        return label

    # ---- data source ------------------------------------------------------------------------------
    @staticmethod
    def _dropped_csv(event) -> str | None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        paths = [u.toLocalFile() for u in urls if u.isLocalFile()]
        return next((p for p in paths if p.lower().endswith(CSV_SUFFIXES)), None)

    def dragEnterEvent(self, event) -> None:
        if self._dropped_csv(event):
            event.acceptProposedAction()
        else:
            event.ignore()  # not ours: the main window may take it (checkpoints, sessions)

    def dropEvent(self, event) -> None:
        path = self._dropped_csv(event)
        if path:
            event.acceptProposedAction()
            self.open_csv(path)
        else:
            event.ignore()

    def _choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, i18n.translate("TimeSeries", "Open a time series"), "",
                                              i18n.translate("TimeSeries", "CSV files (*.csv *.txt);;All files (*)"))
        if path:
            self.open_csv(path)

    def open_csv(self, path: str) -> None:
        """Use a CSV file: read its header off the GUI thread, guess the timestamp column and a value column."""
        path = os.path.abspath(path)
        self.ctx.reader.read(f"{self.object_name}:open", lambda: ts.peek_columns(path),
                             lambda columns: self._csv_opened(path, *columns),
                             lambda message: self._csv_failed(message), what=f"time series {path}")

    def _csv_opened(self, path: str, header: list[str], guess: int, value: str | None) -> None:
        self.error_label.setVisible(False)
        self.set_setting(path=path, time_column=header[guess], value_column=value or NO_VALUE, pick_a=0, pick_b=24)

    def _csv_failed(self, message: str) -> None:
        self.ctx.status(f"{i18n.shown(self.title)}: {message}")
        self.on_failed(message)

    def use_sample(self) -> None:
        self.error_label.setVisible(False)
        defaults = TimeSeriesView()
        self.set_setting(path="", time_column=defaults.time_column, value_column=defaults.value_column,
                         pick_a=defaults.pick_a, pick_b=defaults.pick_b)

    def _current_path(self, document: Document) -> str:
        return self.setting("path", document) or str(ts.sample_path())

    def retranslate(self, language: str = "") -> None:
        """The source line and the "(none)" column in the new language, then the view again."""
        index = self.value_combo.findData(NO_VALUE)
        if index >= 0:
            self.value_combo.setItemText(index, i18n.translate("TimeSeries", "(none)"))
        self.sync_controls(self.ctx.document)
        super().retranslate(language)

    def sync_controls(self, document: Document) -> None:
        super().sync_controls(document)
        path = self._current_path(document)
        if path != self._header_path:
            # the file's columns fill the two combos once its header is read (off the GUI thread)
            self._header_path = path
            self.ctx.reader.read(f"{self.object_name}:header", lambda: ts.peek(path)[0],
                                 lambda header: self._header_read(path, header),
                                 lambda message: self._header_read(path, [], message), what=f"time series {path}")
        self._select_columns(document)
        sample = not self.setting("path", document)
        self.source_label.setText(i18n.translate("TimeSeries", "built-in sample: {name} (hourly sensor readings, "
                                                               "missing hours, two corrupt rows)").format(
            name=ts.SAMPLE_NAME) if sample else path)
        self.source_label.setToolTip(self.source_label.text())
        kind = self.setting("kind", document)
        for name in ("d_model", "base"):
            self.form.set_row_visible(name, kind == "sinusoidal")
        for name in ("k", "seed"):
            self.form.set_row_visible(name, kind == "time2vec")
        self.unit_combo.setEnabled(kind != "calendar")

    def _header_read(self, path: str, header: list[str], failure: str | None = None) -> None:
        if path != self._header_path:
            return  # another file was chosen meanwhile
        if failure is not None:
            self.ctx.status(f"{i18n.shown(self.title)}: {failure}")
        for combo, extra in ((self.time_combo, False), (self.value_combo, True)):
            with signals_blocked(combo):
                combo.clear()
                if extra:
                    combo.addItem(i18n.translate("TimeSeries", "(none)"), NO_VALUE)
                for name in header:
                    combo.addItem(name, name)
        self._select_columns(self.ctx.document)

    def _select_columns(self, document: Document) -> None:
        for combo, key in ((self.time_combo, "time_column"), (self.value_combo, "value_column")):
            with signals_blocked(combo):
                combo.setCurrentIndex(max(0, combo.findData(self.setting(key, document) or NO_VALUE)))

    def make_request(self, document: Document) -> ts.TimeSeriesRequest:
        return self.view_spec(document).request()

    def on_failed(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(True)

    # ---- drawing -----------------------------------------------------------------------------------
    def show_result(self, result: ts.TimeSeriesResult) -> None:
        self._result = result
        self.error_label.setVisible(False)
        series, enc = result.series, result.encoding
        unit = enc.unit
        origin = self.format_time(float(series.times[0]))
        unit_name = i18n.shown(NUMBER_UNIT_LABELS.get(unit, unit))
        x_label = i18n.translate("TimeSeries", "{unit} since {origin}").format(unit=unit_name, origin=origin)
        # the series: a break in the line wherever a gap is longer than twice the usual spacing
        if series.values is not None:
            tau, values = result.tau, series.values
            usual = float(np.median(np.diff(tau))) if len(tau) > 1 else 1.0
            breaks = np.flatnonzero(np.diff(tau) > 2 * usual)
            x = np.insert(tau, breaks + 1, np.nan)
            y = np.insert(values, breaks + 1, np.nan)
            self.series_curve.setData(x, y)
            self.series_plot.setLabel("left", series.value_column)
        else:
            self.series_curve.setData(result.tau, np.zeros_like(result.tau))
            self.series_plot.setLabel("left", i18n.translate("TimeSeries", "samples"))
        self.series_plot.setTitle(i18n.translate("TimeSeries", "{source}: {n:,} samples").format(
            source=series.source, n=len(series)))
        a, b, gap, sim = result.pick
        for line, index in zip(self.pick_lines, (a, b)):
            line.setPos(float(result.tau[index]))
        # the encoding over time: one column per grid cell, blank where there was no sample
        cells, cols = result.matrix.shape
        step = float(result.grid_tau[1] - result.grid_tau[0]) if cells > 1 else 1.0
        self.image.setImage(result.matrix.T, autoLevels=False)
        self.image.setRect(QRectF(float(result.grid_tau[0]) - step / 2, 0, cells * step, cols))
        self.colorbar.setLevels(default_levels(result.matrix, symmetric=True))  # gaps (NaN) left out
        self.heat_plot.setLabel("bottom", x_label)

        self.heat_plot.setTitle(i18n.shown(ts.ENCODING_LABELS[enc.kind]))
        labels = _short_labels(result.labels)
        if len(labels) <= 16:  # few columns: name each (the ticks say what the axis is)
            self.heat_plot.getAxis("left").setTicks([[(i + 0.5, name) for i, name in enumerate(labels)]])
            self.heat_plot.getAxis("left").setLabel("")
            self.heat_plot.getAxis("left").showLabel(False)
        else:
            self.heat_plot.getAxis("left").setTicks(None)
            self.heat_plot.setLabel("left", i18n.translate("TimeSeries", "encoding column"))
        self.series_plot.setXRange(float(result.grid_tau[0]) - step, float(result.grid_tau[-1]) + step, padding=0)
        self.heat_plot.setYRange(0, cols, padding=0)
        # similarity against the gap
        self.sim_curve.setData(result.gaps, result.curve)
        self.pair_scatter.setData(result.pair_gaps, result.pair_sims)
        self.pick_point.setData([gap], [sim])
        self.sim_plot.setLabel("bottom", i18n.translate("TimeSeries", "gap ({unit})").format(unit=unit_name))
        self.sim_plot.setTitle(i18n.translate("TimeSeries", "similarity vs gap"))
        self.bad_rows.setPlainText(series.bad_report() if series.bad_count else
                                   i18n.translate("TimeSeries", "No bad rows: every data row was used."))
        note = i18n.translate("TimeSeries", " Rows were not in time order; they are shown sorted.") \
            if series.reordered else ""
        self.set_caption(result.caption + i18n.translate(
            "TimeSeries", " Curve: from sample {a} onwards; dots: random pairs of real samples; ring: the two chosen "
            "samples.").format(a=a) + note)

    def format_time(self, seconds: float) -> str:
        r = self._result
        if r is not None and r.series.calendar:
            return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        return f"t = {seconds:,.6g} s"

    # ---- hover -------------------------------------------------------------------------------------
    def _hover(self, scene_pos) -> None:
        r = self._result
        if r is None:
            return
        hit = plot_at(scene_pos, (("heat", self.heat_plot), ("series", self.series_plot),
                                  ("similarity", self.sim_plot)))
        if hit is not None:
            key, p = hit
            self.readout.setText(self.describe(key, p.x(), p.y()))

    def describe(self, key: str, x: float, y: float) -> str:
        r = self._result
        unit = i18n.shown(NUMBER_UNIT_LABELS.get(r.encoding.unit, r.encoding.unit))
        if key == "similarity":
            if not r.gaps[0] <= x <= r.gaps[-1]:
                return ""
            return i18n.translate("TimeSeries", "gap {gap:,.3f} {unit}: similarity {similarity:+.4f} (from sample "
                                                "{a})").format(gap=x, unit=unit, similarity=np.interp(x, r.gaps, r.curve),
                                                               a=r.pick[0])
        if key == "series":
            i = int(np.clip(np.searchsorted(r.tau, x), 0, len(r.tau) - 1))
            if i > 0 and abs(r.tau[i - 1] - x) < abs(r.tau[i] - x):
                i -= 1
            value = "" if r.series.values is None else f": {r.series.value_column} {r.series.values[i]:g}"
            return i18n.translate("TimeSeries", "sample {i} (line {line}), {time} = {tau:,.3f} {unit}{value}").format(
                i=i, line=r.series.lines[i], time=self.format_time(float(r.series.times[i])), tau=r.tau[i], unit=unit,
                value=value)
        cells = len(r.grid_tau)
        step = float(r.grid_tau[1] - r.grid_tau[0]) if cells > 1 else 1.0
        cell = int(round((x - r.grid_tau[0]) / step))
        col = int(np.floor(y))
        if not (0 <= cell < cells and 0 <= col < r.matrix.shape[1]):
            return ""
        sample = int(r.matrix_index[cell])
        if sample < 0:
            return i18n.translate("TimeSeries", "{tau:,.2f} {unit}: no sample here (a gap in the data)").format(
                tau=r.grid_tau[cell], unit=unit)
        return i18n.translate("TimeSeries", "sample {i}, {time} ({tau:,.3f} {unit}), {column}: {value:+.4f}").format(
            i=sample, time=self.format_time(float(r.series.times[sample])), tau=r.tau[sample], unit=unit,
            column=r.labels[col], value=r.matrix[cell, col])

    # ---- export (SettingsDock) ---------------------------------------------------------------------
    def result_arrays(self, r: ts.TimeSeriesResult) -> dict[str, np.ndarray]:
        out = {"times": r.series.times, "elapsed": r.tau, "grid_elapsed": r.grid_tau, "encoding": r.matrix,
               "gap": r.gaps, "similarity": r.curve, "pair_gap": r.pair_gaps, "pair_similarity": r.pair_sims}
        if r.series.values is not None:
            out["values"] = r.series.values
        return out

    def result_title(self, r: ts.TimeSeriesResult) -> str:
        return i18n.translate("TimeSeries", "Time series — {source}, {encoding}").format(
            source=r.series.source, encoding=i18n.shown(ts.ENCODING_LABELS[r.encoding.kind]))


def _short_labels(labels: list[str]) -> list[str]:
    """Axis-sized column names (the hover read-out gives the full ones)."""
    words = {"hour": "hour", "weekday": "wday", "day-of-year": "yday", "periodic": "p", "linear": "lin"}
    out = []
    for label in labels:
        head, _, tail = label.partition(" ")
        out.append(f"{words.get(head, head)}{'' if head == 'periodic' else ' '}{tail}".strip())
    return out


DOCK = TimeSeriesDock
