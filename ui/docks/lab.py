"""Training lab: train small transformers that differ only in position encoding, then draw what
they measure past their training length (exact match or perplexity vs length, a band over seeds).

Training runs on the dock's own compute thread (``self.trainer``), not the shared worker: a grid
takes minutes, and every other panel must keep drawing meanwhile.  The figure is always drawn
from the results folder (``peapp.analysis.lab.load_results``), so a finished, cancelled or
reopened grid — or a folder from ``peapp lab -o`` — draws the same way, and ``peapp render lab``
draws what the panel shows.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (QApplication, QFileDialog, QGridLayout, QHBoxLayout, QLabel, QMessageBox,
                               QProgressBar, QPushButton, QSizePolicy, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from peapp.i18n import msg, shown, translate
from peapp.analysis import lab as lab_analysis
from peapp.document import Document
from peapp.lab.options import CONFIRM_SECONDS, LABELS
from peapp.lab.options import duration_text as _duration
from peapp.lab.time_left import TimeLeft
from ui import i18n
from ui.docks._settings import SettingsDock
from ui.docks.base import FittedScroll, error_label, readout_label, show_whole_rows
from ui.forms import Combo, Line, Spin
from ui.plotting import plot_at, pow10, relax_title_width, set_axis_label, tick_lines
from ui.worker import ComputeWorker

COLORS = {"nope": "#7f8c8d", "sinusoidal": "#e67e22", "learned": "#c0392b", "t5": "#8e44ad", "rope": "#2471a3",
          "alibi": "#1e8449", "rope-pi": "#5dade2", "rope-ntk": "#48c9b0", "rope-yarn": "#f1c40f"}
TRAINED_COLOR = "#8a9597"
METRIC_LABELS = {"exact_match": msg("Lab", "exact match (share of sequences)"), "perplexity": msg("Lab", "perplexity")}
METRIC_NAMES = {"exact_match": msg("Lab", "exact match"), "perplexity": msg("Lab", "perplexity")}


def variant_label(variant: str, fallback: str = "") -> str:
    """An encoding's name in the current language."""
    return shown(LABELS.get(variant, fallback or variant))


# the task as titles name it: its own short name in English ("task copy"), translated in another language
TASK_NAMES = {"copy": msg("Lab", "copy"), "reverse": msg("Lab", "reverse"), "recall": msg("Lab", "recall"),
              "lm": msg("Lab", "lm"), "sort": msg("Lab", "sort"), "addition": msg("Lab", "addition")}
# an encoding's name under a preset's points, short: ten of them share the plot's width
SHORT_NAMES = {"learned": msg("Lab", "absolute"), "sinusoidal": msg("Lab", "sinusoidal"), "t5": "T5", "rope": "RoPE",
               "alibi": "ALiBi", "nope": "NoPE"}


def task_label(task: str | None) -> str:
    return shown(TASK_NAMES.get(task or "", task or ""))
OBJECT_NAMES = {"task": "labTask", "encodings": "labEncodings", "train_length": "labTrainLength",
                "eval_lengths": "labEvalLengths", "seeds": "labSeeds", "n_layers": "labLayers", "d_model": "labDModel",
                "n_heads": "labHeads", "steps": "labSteps", "results": "labResults", "preset": "labPreset",
                "randomized": "labRandomized",
                "cluster": "labCluster"}


class LabDock(SettingsDock):
    object_name = "labDock"
    view_id = "lab"
    title = msg("Panels", "Training lab")
    order = 95
    shortcut = "Ctrl+Shift+L"  # Ctrl+0…9 are the article panels

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._result: lab_analysis.LabResults | None = None
        self.trainer = ComputeWorker(self)
        self.trainer.resultReady.connect(self._on_trainer_result)
        self.trainer.failed.connect(self._on_trainer_failed)
        self.trainer.progressed.connect(self._on_trainer_progress)
        self.trainer.busyChanged.connect(self._on_trainer_busy)
        self.trainer.cancelled.connect(self._on_trainer_cancelled)
        # the window's status bar shows the grid's progress like every long job's, and Esc stops it
        self.ctx.add_worker(self.trainer)
        app = QApplication.instance()
        if app is not None:  # quitting stops the grid at its next step; finished runs are on disk
            app.aboutToQuit.connect(self.trainer.shutdown)
        self.trainer.partialReady.connect(self._on_event)  # the grid's events, on this thread
        self._live: dict[str, tuple[str, list[tuple[float, float]]]] = {}  # run_id → (encoding, loss points)
        self._live_items: dict[str, pg.PlotDataItem] = {}
        self._live_folder = ""  # the results folder the live curves were trained into
        self._started = 0.0
        self._time_left = TimeLeft()
        # what Start or Run preset asked for, trained once its estimate is measured
        self._pending_settings: lab_analysis.GridSettings | lab_analysis.PresetRequest | None = None
        self._preset: lab_analysis.PresetOutcome | None = None  # the last preset's results, ranked
        self._state = "idle"  # idle | estimating | training | cancelling
        self._runs_done = 0
        self._runs_total = 0
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setInterval(250)  # live loss curves at 4 Hz, not on every event
        self._redraw_timer.timeout.connect(self._draw_live)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        counts = Spin(adaptive=True, separators=True)
        form = self.make_form(hints={"train_length": counts, "steps": counts, "seeds": Spin(), "n_layers": Spin(),
                                     "d_model": Spin(), "n_heads": Spin(), "results": Line(), "cluster": Line(),
                                     "preset": Combo(chars=24)},
                              object_names=OBJECT_NAMES)
        grid = QGridLayout()
        form.add_to_grid(grid, [("task", "encodings", "seeds"), ("train_length", "eval_lengths", "steps"),
                                ("n_layers", "d_model", "n_heads")])
        layout.addLayout(grid)
        folder_row = QHBoxLayout()
        folder_row.addWidget(form.labels["results"])
        folder_row.addWidget(form.widgets["results"], 1)
        self.choose_button = i18n.keep_text(QPushButton(), msg("Lab", "Choose…"))
        i18n.keep_tooltip(self.choose_button, msg("Lab", "Choose the results folder (a folder from `peapp lab -o` "
                                                         "opens too)"))
        self.choose_button.clicked.connect(self._choose_folder)
        folder_row.addWidget(self.choose_button)
        folder_row.addWidget(form.labels["cluster"])
        folder_row.addWidget(form.widgets["cluster"])
        layout.addLayout(folder_row)
        # a published comparison (peapp.lab.presets), trained like the grid: estimate, progress, cancel
        preset_row = QHBoxLayout()
        preset_row.addWidget(form.labels["preset"])
        preset_row.addWidget(form.widgets["preset"], 1)
        preset_row.addWidget(form.labels["randomized"])
        preset_row.addWidget(form.widgets["randomized"])
        self.preset_button = i18n.keep_text(QPushButton(), msg("Lab", "Run &preset"))
        self.preset_button.setObjectName("labRunPreset")
        i18n.keep_tooltip(self.preset_button, msg("Lab", "Train the chosen preset (its own tasks, encodings and "
                                                         "lengths, not the grid above) into the results folder, a "
                                                         "subfolder per task, then rank the encodings beside the "
                                                         "paper's ranking (also in Measured claims)"))
        self.preset_button.clicked.connect(self.run_preset)
        preset_row.addWidget(self.preset_button)
        layout.addLayout(preset_row)

        controls = QHBoxLayout()
        self.start_button = i18n.keep_text(QPushButton(), msg("Lab", "&Start training"))
        self.start_button.setObjectName("labStart")
        i18n.keep_tooltip(self.start_button, msg("Lab", "Train every encoding × seed not yet finished in the results "
                                                        "folder, in background processes (the estimate is measured "
                                                        "first)"))
        self.start_button.clicked.connect(self.start)
        self.cancel_button = i18n.keep_text(QPushButton(), msg("Lab", "Cancel &training"))
        self.cancel_button.setObjectName("labCancel")
        i18n.keep_tooltip(self.cancel_button, msg("Lab", "Stop at the next step (Esc in the window too, while the "
                                                         "status bar shows the training); finished runs stay in the "
                                                         "folder and a new Start skips them"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setObjectName("labProgress")
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.status_label = QLabel()
        self.status_label.setObjectName("labStatus")
        self._set_status(lambda: translate("Lab", "Ready. Start trains the grid; the figure is drawn from the results "
                                                  "folder."))
        self.status_label.setWordWrap(True)
        controls.addWidget(self.start_button)
        controls.addWidget(self.cancel_button)
        controls.addWidget(self.progress, 1)
        layout.addLayout(controls)
        layout.addWidget(self.status_label)
        self.error = error_label("labError")
        layout.addWidget(self.error)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("labGraphics")
        self.graphics.setMinimumHeight(200)
        self.plot = self.graphics.addPlot(enableMenu=False, row=0, col=0)
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        relax_title_width(self.plot, justify="left")  # a long title never pushes the loss plot off the panel; its start shows
        # the legend in a column of its own between the two plots: inside the plot it covered the
        # curves and the plot's edge cut off its last entries (the papers' references) in exports
        self.legend = pg.LegendItem(labelTextSize="8pt", verSpacing=-6)
        self.legend.setObjectName("labLegend")
        self.graphics.addItem(self.legend, row=0, col=1)
        self.legend.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.graphics.ci.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignTop)
        self.graphics.installEventFilter(self)  # on resize: as many legend columns as its height needs
        self.loss_plot = self.graphics.addPlot(enableMenu=False, row=0, col=2)
        self.loss_plot.showGrid(x=True, y=True, alpha=0.2)
        self.loss_plot.setLogMode(y=True)
        relax_title_width(self.loss_plot, justify="left")
        # short: the panel may be narrow
        i18n.keep(self.loss_plot.setTitle, msg("Lab", "loss per run (live)"), owner=self.graphics)
        i18n.keep(lambda text: set_axis_label(self.loss_plot.getAxis("bottom"), text), msg("Lab", "step"),
                  owner=self.graphics)
        i18n.keep(lambda text: set_axis_label(self.loss_plot.getAxis("left"), text), msg("Lab", "loss"),
                  owner=self.graphics)
        self.graphics.ci.layout.setColumnStretchFactor(0, 3)
        self.graphics.ci.layout.setColumnStretchFactor(2, 2)
        self.table = QTableWidget()
        self.table.setObjectName("labTable")
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        show_whole_rows(self.table, 3)  # three variants whole; the rest scroll (the window must fit 768 px)
        self.notes = QLabel()
        self.notes.setObjectName("labNotes")
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.table, 1)
        # whole where there is room, scrolling where there is not: a bare label's minimum is one
        # line, so at 1366×768 the notes were drawn over the table
        self.notes_area = FittedScroll(self.notes, "labNotesArea")
        lower_layout.addWidget(self.notes_area)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.graphics)
        splitter.addWidget(lower)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        layout.addWidget(splitter, 1)
        self.readout = readout_label("labReadout")
        i18n.keep(self.readout.setText, msg("Lab", "Hover over the figure for its numbers."))
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.sync_controls(self.ctx.document)

    # ---- the figure, from the results folder --------------------------------------------------------
    def make_request(self, document: Document) -> lab_analysis.LabResultsRequest:
        return self.view_spec(document).request()

    def on_failed(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(True)

    @classmethod
    def has_content(cls, document: Document) -> bool:
        """Whether the results folder holds a finished run (`peapp render` skips the view otherwise)."""
        folder = Path(document.view_spec(cls.view_id).folder())
        return folder.is_dir() and (any(folder.glob(f"*/{lab_analysis.METRICS}"))
                                    or any(folder.glob(f"*/*/{lab_analysis.METRICS}")))  # a preset's

    def show_result(self, result: lab_analysis.LabResults | lab_analysis.PresetOutcome | None) -> None:
        if isinstance(result, lab_analysis.PresetOutcome):  # a preset's folder: its ranking in the table
            self._preset = result
            result = None
        self._result = result
        self.error.setVisible(False)
        self.plot.clear()
        self.legend.clear()
        self.plot.getAxis("bottom").setTicks(None)  # a preset's encoding names are not lengths
        tick_lines(self.plot.getAxis("bottom"), 1)
        if result is None and self._preset_shown():  # a preset's folder: a grid per task below it
            if isinstance(self._preset, lab_analysis.PresetOutcome) and not self._live:
                self._draw_loss_from(self._preset)  # its runs' saved curves, as a plain folder's are
            return
        if result is None:  # no finished run in the folder
            self.plot.setTitle(translate("Lab", "no finished runs in this folder yet"))
            self.set_caption(translate("Lab", "Results folder {folder}: nothing trained yet. Choose the grid above and "
                                              "press Start; each run is saved there as it finishes.").format(
                folder=self.view_spec().folder()))
            self.loss_plot.clear()
            self._live_items.clear()
            if self._live_here():  # a cancelled grid's curves: nothing of them is saved, so they stay drawn
                self._draw_live()
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            self.notes.setText("")
            self.notes_area.fit()
            return
        metric = result.metric
        if not result.empty:
            seeds = self._shared_seeds(result)
            runs = (translate("Lab", "{n} run") if result.runs == 1 else translate("Lab", "{n} runs")).format(
                n=result.runs)
            # the metric's short name: the axes say the rest ("share of sequences", "by length")
            title = translate("Lab", "{metric} — task {task}, {runs}").format(
                metric=shown(METRIC_NAMES.get(metric or "", (metric or "").replace("_", " "))),
                task=task_label(result.task), runs=runs)
            self.plot.setTitle(title + (translate("Lab", ", {n} seeds each").format(n=seeds) if seeds else ""))
            self._draw_curves(result)
        set_axis_label(self.plot.getAxis("bottom"),
                       translate("Lab", "evaluation length (tokens; dashed: trained ≤ {n})").format(
                           n=result.train_length) if result.train_length
                       else translate("Lab", "evaluation length (tokens)"))
        set_axis_label(self.plot.getAxis("left"), shown(METRIC_LABELS.get(metric or "", msg("Lab", "value"))))
        self.plot.setLogMode(y=metric == "perplexity")
        if metric == "exact_match":  # a share: 0 … 1 always (all-zero runs autoranged to ±1e-54)
            self.plot.setYRange(0.0, 1.0, padding=0.05)
        else:
            self.plot.enableAutoRange(axis="y")
        if self._state != "training":
            self._draw_loss_from(result)
        self._fit_legend()
        self._fill_table(result)
        self._fill_notes(result)

    def _preset_here(self) -> lab_analysis.PresetOutcome | None:
        """The preset held, when the results folder is its folder."""
        outcome = self._preset
        if outcome is None or os.path.abspath(outcome.folder) != os.path.abspath(self.view_spec().folder()):
            return None
        return outcome

    def _draw_preset(self, tasks: list[str], scores: dict[str, dict[str, float]], variants: list[str]) -> None:
        """Each task's score per encoding as points over the encodings (best mean rank first)."""
        from peapp.lab.options import RANDOMIZED, base_encoding

        self.plot.setLogMode(y=False)
        x = np.arange(len(variants), dtype=float)
        marks = ("o", "t", "s", "d", "+", "x")
        colors = ("#2471a3", "#e67e22", "#27ae60", "#c0392b", "#8e44ad", "#16a085")
        for i, task in enumerate(tasks):
            y = np.array([scores[task].get(v, np.nan) for v in variants])
            item = self.plot.plot(x, y, pen=None, symbol=marks[i % len(marks)], symbolSize=9,
                                  symbolBrush=colors[i % len(colors)], symbolPen=None, name=task_label(task))
            self.legend.addItem(item, task_label(task))
        # short names under the points: the scheme, "+rand" for randomised positions
        def short(v: str) -> str:
            base = base_encoding(v)
            name = shown(SHORT_NAMES[base]) if base in SHORT_NAMES else variant_label(base)
            return name + ("\n+rand" if v.endswith(RANDOMIZED) else "")  # two lines: ten names share the width

        self.plot.getAxis("bottom").setTicks([[(float(i), short(v)) for i, v in enumerate(variants)]])
        tick_lines(self.plot.getAxis("bottom"), 2 if any(v.endswith(RANDOMIZED) for v in variants) else 1)
        set_axis_label(self.plot.getAxis("bottom"), translate("Lab", "encoding (best mean rank first)"))
        set_axis_label(self.plot.getAxis("left"), translate("Lab", "exact match past the training length"))
        self.plot.setXRange(-0.6, len(variants) - 0.4, padding=0)
        self.plot.setYRange(0.0, 1.0, padding=0.05)
        self._fit_legend()

    def export_arrays(self) -> dict[str, np.ndarray]:
        preset = self._preset_here() if self._result is None else None
        return self.result_arrays(preset) if preset is not None else super().export_arrays()

    def export_title(self) -> str:
        preset = self._preset_here() if self._result is None else None
        return self.result_title(preset) if preset is not None else super().export_title()

    def _preset_shown(self) -> bool:
        """The last preset's ranking in the table and notes, when the results folder is its folder:
        per task, the exact match past the training length and the mean rank (peapp.lab.presets)."""
        from peapp.lab import presets

        outcome = self._preset_here()
        if outcome is None:
            return False
        ranking = presets.rank(outcome.summaries)
        chosen = presets.PRESETS[outcome.name]
        self.plot.setTitle(translate("Lab", "preset: exact match past the training length, per task"))
        self.set_caption(translate("Lab", "Preset {preset}, results folder {folder} (a subfolder per task: choose one "
                                          "to draw its curves).").format(preset=shown(chosen.label),
                                                                         folder=outcome.folder))
        # every task's scores, also of a task no encoding learned (it is left out of the ranks, said below)
        tasks = list(outcome.summaries)
        scores = {t: presets.scores(summary) for t, summary in outcome.summaries.items()}
        every = list(dict.fromkeys(v for values in scores.values() for v in values))
        variants = sorted(every, key=lambda v: (ranking.mean_rank.get(v, 99), -ranking.mean_score.get(v, 0.0)))
        self.table.clear()
        self.table.setColumnCount(len(tasks) + 2)
        self.table.setHorizontalHeaderLabels([translate("Lab", "encoding")] + [task_label(t) for t in tasks]
                                             + [translate("Lab", "mean rank")])
        self.table.setRowCount(len(variants))
        for r, variant in enumerate(variants):
            cells = [variant_label(variant)] + [
                f"{scores[t][variant]:.2f}" if variant in scores[t] else "—" for t in tasks]
            cells.append(f"{ranking.mean_rank[variant]:.2f}" if variant in ranking.mean_rank else "")
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self._draw_preset(tasks, scores, variants)
        if outcome.name == "temperature":  # NoPE with and without a scale: not the ranking's question
            verdict = presets.temperature_verdict(outcome.summaries)
            references = [translate("Lab", "References: {citations}").format(
                citations=" ".join(presets.TEMPERATURE_REFERENCES))]
        else:
            verdict = ranking.verdict()
            references = [translate("Lab", "Reference, at another scale and setting ({setting}): {citation}").format(
                setting=shown(presets.KAZEMNEJAD_2023["setting"]), citation=presets.KAZEMNEJAD_2023["citation"])]
        self.notes.setText("\n".join([
            translate("Lab", "Cells: exact match past the training length, the mean over those lengths."),
            verdict] + references))
        self.notes_area.fit()
        return True

    def eventFilter(self, watched, event) -> bool:  # Qt override
        if watched is self.graphics and event.type() == QEvent.Type.Resize:
            self._fit_legend()
        return super().eventFilter(watched, event)

    def _fit_legend(self) -> None:
        """One column where the plot is tall enough for every entry, more where it is not (thirteen
        entries did not fit a 150-px plot with the Checkpoint panel open at 1366×768)."""
        entries = len(self.legend.items)
        if not entries:
            return
        line = max(label.boundingRect().height() for _, label in self.legend.items) - 6  # verSpacing −6
        room = max(1.0, self.graphics.height() - 30.0)  # the legend's margins and the view's
        self.legend.setColumnCount(max(1, min(3, math.ceil(entries * line / room))))

    @staticmethod
    def _shared_seeds(result: lab_analysis.LabResults) -> int | None:
        """The number of seeds of every curve when they all have the same number (> 1)."""
        counts = {curve.seeds for curve in result.curves}
        return counts.pop() if len(counts) == 1 and min(counts) > 1 else None

    def _draw_curves(self, result: lab_analysis.LabResults) -> None:
        log_y = result.metric == "perplexity"
        seeds = self._shared_seeds(result)
        for curve in result.curves:
            color = COLORS.get(curve.variant, "#95a5a6")
            finite = np.isfinite(curve.mean)
            if curve.seeds > 1 and finite.any():
                # PlotCurveItems (not PlotDataItems): their path exists before they are drawn
                low = pg.PlotCurveItem(curve.lengths[finite], _y(curve.low[finite], log_y))
                high = pg.PlotCurveItem(curve.lengths[finite], _y(curve.high[finite], log_y))
                shade = pg.mkColor(color)
                shade.setAlpha(60)
                band = pg.FillBetweenItem(low, high, brush=pg.mkBrush(shade))
                self.plot.addItem(band)
            # the seed count in the title when every curve has the same (short legend entries)
            name = variant_label(curve.variant, curve.label) + (
                translate("Lab", " ({n} seeds)").format(n=curve.seeds) if curve.seeds > 1 and seeds is None else "")
            item = self.plot.plot(curve.lengths[finite], curve.mean[finite], pen=pg.mkPen(color, width=2), symbol="o",
                                  symbolSize=6, symbolBrush=color, symbolPen=None, name=name)
            self.legend.addItem(item, name)
            for length in curve.cannot:  # no row for this position: said, not drawn as a 0
                text = pg.TextItem(translate("Lab", "cannot"), color=color, anchor=(0.5, 1.0))
                text.setPos(length, _y(np.array([1.0 if log_y else 0.0]), log_y)[0])
                self.plot.addItem(text)
        if result.train_length:
            # named in the axis label: a label at the line sat on the "cannot" labels beside it, or was
            # cut by the plot's edge when the line stood near it
            line = pg.InfiniteLine(result.train_length, angle=90, pen=pg.mkPen(TRAINED_COLOR, style=Qt.PenStyle.DashLine))
            self.plot.addItem(line)
        for reference in result.references:  # the paper's numbers on the paper's relative lengths
            if "values" not in reference or not result.train_length:
                continue
            x = np.array(reference["lengths"], dtype=float) / reference["train_length"] * result.train_length
            for variant, values in reference["values"].items():
                keep = [i for i, v in enumerate(values) if v is not None]
                if not keep:
                    continue
                color = COLORS.get(variant, "#95a5a6")
                # ▲ ("t1"), as the notes under the figure name these points; the full citation is there too
                name = f"{variant_label(variant)} ▲ {reference['short']}"
                item = self.plot.plot(x[keep], [values[i] for i in keep],
                                      pen=pg.mkPen(color, width=1, style=Qt.PenStyle.DotLine),
                                      symbol="t1", symbolSize=7, symbolBrush=None, symbolPen=color, name=name)
                self.legend.addItem(item, name)

    def _draw_loss_from(self, result: lab_analysis.LabResults | lab_analysis.PresetOutcome) -> None:
        self.loss_plot.clear()
        self._live_items.clear()
        for encoding, _seed, curve in result.loss_curves.values():
            if len(curve):
                _set_loss(self._loss_item(encoding), curve, encoding)
        if self._live_here():  # runs of a cancelled grid that did not finish: their live curves, as they were
            saved = {key.rsplit("/", 1)[-1] for key in result.loss_curves}  # a preset's keys are TASK/RUN_ID
            for run_id, (encoding, points) in self._live.items():
                if run_id not in saved and points:
                    _set_loss(self._loss_item(encoding), np.asarray(points, dtype=float), encoding)

    def _loss_item(self, encoding: str) -> pg.PlotDataItem:
        """A new curve of the loss plot, in the encoding's colour."""
        return self.loss_plot.plot(pen=pg.mkPen(COLORS.get(encoding, "#95a5a6"), width=1))

    def _live_here(self) -> bool:
        """Whether live curves of the last training are held for the results folder shown."""
        return bool(self._live) and self._live_folder == os.path.abspath(self.view_spec().folder())

    def _fill_table(self, result: lab_analysis.LabResults) -> None:
        rows = result.table
        self.table.clear()
        if not rows or len(rows) == 1:
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            return
        header, body = rows[0], rows[1:]
        self.table.setColumnCount(len(header))
        self.table.setHorizontalHeaderLabels([_header_text(h) for h in header])
        self.table.setRowCount(len(body))
        cannot = translate("LabResults", "cannot")
        for r, row in enumerate(body):
            for c, text in enumerate(row):
                item = QTableWidgetItem(shown(text) if c == 0 else text)
                if text.startswith(cannot):
                    item.setToolTip(translate("Lab", "This scheme has no position for this length (a learned table is "
                                                     "as long as training): the run is not scored, not counted as 0."))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()

    def _fill_notes(self, result: lab_analysis.LabResults) -> None:
        parts = []
        for reference in result.references:
            if "values" in reference:
                parts.append(translate("Lab", "Dotted ▲: {citation} — {setting}; the paper's numbers at the paper's "
                                              "scale, placed at the same multiples of the training length, not a "
                                              "prediction for these tiny models.").format(
                    citation=reference["citation"], setting=shown(reference["setting"])))
            else:
                parts.append(translate("Lab", "{citation}: {finding} (a trend on their tasks, for comparison with what "
                                              "is measured here).").format(citation=reference["citation"],
                                                                           finding=shown(reference["finding"])))
        curves = {c.variant: c for c in result.curves}
        if result.metric == "exact_match" and result.train_length and curves:
            past = [c for c in result.curves if (c.lengths > result.train_length).any()]
            best = max(past, key=lambda c: np.nanmax(np.where(c.lengths > result.train_length, c.mean, np.nan))
                       if np.isfinite(c.mean[c.lengths > result.train_length]).any() else -1, default=None)
            if best is not None and np.isfinite(best.mean[best.lengths > result.train_length]).any():
                value = np.nanmax(best.mean[best.lengths > result.train_length])
                found = (translate("Lab", "the best is {encoding} ({value} exact match at best)").format(
                    encoding=variant_label(best.variant, best.label), value=f"{value:.2f}") if value > 0 else
                         translate("Lab", "no encoding got a sequence right"))  # not "the best is NoPE" among zeros
                parts.insert(0, translate("Lab", "Measured here: past the training length {found}. This is what these "
                                                 "runs measured, whatever the article or the papers say.").format(
                    found=found))
        parts += result.notes
        self.notes.setText("\n".join(parts))
        self.notes_area.fit()
        if not result.empty:
            self.set_caption(translate("Lab", "Results folder {folder}. Band: min–max over seeds; 'cannot': the "
                                              "scheme has no position there. Models are saved as checkpoints (File > "
                                              "Open a run's folder).").format(folder=result.folder))

    # ---- hover ------------------------------------------------------------------------------------
    def _hover(self, scene_pos) -> None:
        hit = plot_at(scene_pos, [("results", self.plot), ("loss", self.loss_plot)])
        if hit is None or self._result is None:
            return
        name, point = hit
        if name == "loss":
            loss = pow10(point.y())
            self.readout.setText(translate("Lab", "step {step}, loss {loss}").format(step=f"{point.x():,.0f}",
                                                                                    loss=f"{loss:.3g}"))
            return
        if not self._result.curves:
            return
        lengths = np.unique(np.concatenate([c.lengths for c in self._result.curves]))
        length = lengths[np.argmin(np.abs(lengths - point.x()))]
        values = []
        for curve in self._result.curves:
            idx = np.nonzero(curve.lengths == length)[0]
            if not len(idx):
                continue
            i = idx[0]
            name = variant_label(curve.variant, curve.label)
            if int(length) in curve.cannot:
                values.append(f"{name} " + translate("Lab", "cannot"))
            elif np.isfinite(curve.mean[i]):
                spread = f" [{curve.low[i]:.3g}–{curve.high[i]:.3g}]" if curve.seeds > 1 else ""
                values.append(f"{name} {curve.mean[i]:.3g}{spread}")
        self.readout.setText(translate("Lab", "length {length}: {values}").format(length=int(length),
                                                                                 values="; ".join(values)))

    # ---- training ---------------------------------------------------------------------------------
    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, translate("Lab", "Results folder"), self.view_spec().folder())
        if folder:
            self.set_setting(results=folder)

    def start(self) -> None:
        """Measure the estimate, ask if it is over an hour, then train (never on the GUI thread)."""
        if self._state != "idle":
            return
        try:
            settings = self.view_spec().grid_settings()
        except Exception as exc:
            self.on_failed(str(exc))
            return
        self._pending_settings = settings
        self._state = "estimating"
        self._set_running(True)
        self._set_status(lambda: translate("Lab", "Measuring a few training steps per encoding for the time "
                                                  "estimate…"))
        self.trainer.submit("lab:estimate", lab_analysis.EstimateRequest(settings, workers=_workers()))

    def run_preset(self) -> None:
        """Measure the chosen preset's estimate, ask if it is over an hour, then train it like a grid."""
        if self._state != "idle":
            return
        spec = self.view_spec()
        request = lab_analysis.PresetRequest(spec.preset, spec.randomized, spec.folder(), workers=_workers(),
                                             cluster=spec.cluster)
        self._pending_settings = request
        self._state = "estimating"
        self._set_running(True)
        self._set_status(lambda: translate("Lab", "Measuring a few training steps per encoding for the time "
                                                  "estimate…"))
        self.trainer.submit("lab:estimate", lab_analysis.PresetEstimateRequest(spec.preset, spec.randomized,
                                                                               workers=_workers()))

    def cancel(self) -> None:
        if self._state in ("estimating", "training"):
            self.trainer.cancel()  # → _on_trainer_cancelled, as for Esc (the window's cancel)

    def _on_trainer_cancelled(self, _channel: str) -> None:
        if self._state in ("estimating", "training"):
            self._state = "cancelling"
            self._set_status(lambda: translate("Lab", "Cancelling: the runs stop at their next step; finished runs "
                                                      "are kept."))
            if not self.trainer.is_busy():  # nothing was running: no busyChanged(False) will follow
                self._on_trainer_busy(False)

    def training(self) -> bool:
        return self._state != "idle"

    def unfinished_work(self) -> str | None:
        if self._state != "training":
            return None
        return translate("Lab", "The Training lab is training ({done} of {total} runs finished). Finished runs are "
                                "kept in the results folder; the runs in progress are lost.").format(
            done=self._runs_done, total=self._runs_total)

    def _train(self, settings: lab_analysis.GridSettings | lab_analysis.PresetRequest,
               estimate: float = math.nan) -> None:
        folder = self.view_spec().folder()
        self._state = "training"
        self._started = time.monotonic()
        self._time_left = TimeLeft(estimate)
        self._live.clear()
        self._live_items.clear()
        self._live_folder = os.path.abspath(folder)
        self.loss_plot.clear()
        self._runs_done = 0
        self._redraw_timer.start()
        if isinstance(settings, lab_analysis.PresetRequest):
            self._runs_total = settings.runs()
            self.trainer.submit("lab:train", settings)
            return
        self._runs_total = len(settings.encodings) * settings.seeds
        self.trainer.submit("lab:train", lab_analysis.TrainRequest(settings, folder, workers=_workers()))

    def _on_trainer_result(self, channel: str, generation: int, result: Any) -> None:
        if channel == "lab:estimate":
            settings = self._pending_settings
            if self._state != "estimating" or settings is None:
                return
            minutes = result / 60
            if result > CONFIRM_SECONDS:
                answer = QMessageBox.question(
                    self, shown(self.title), translate("Lab", "This grid is estimated to take {minutes} minutes on "
                                                              "this machine now. Train it anyway? (Fewer seeds, steps "
                                                              "or encodings make it shorter.)").format(
                        minutes=f"{minutes:,.0f}"))
                if answer != QMessageBox.StandardButton.Yes:
                    self._finish(lambda: translate("Lab", "Not started."))
                    return
            runs = (settings.runs() if isinstance(settings, lab_analysis.PresetRequest)
                    else len(settings.encodings) * settings.seeds)
            self._set_status(lambda: translate("Lab", "Training {runs} runs; estimated {duration}.").format(
                runs=runs, duration=_duration(result)))
            self._train(settings, estimate=result)
        elif channel == "lab:train" and isinstance(result, lab_analysis.PresetOutcome):
            preset_outcome: lab_analysis.PresetOutcome = result
            self._preset = preset_outcome
            if preset_outcome.name == "ranking":  # Measured claims draws it beside the paper's ranking
                self.ctx.document_model.set_view("claims", mode="claims-ranking", ranking_folder=preset_outcome.folder)
            self._finish(lambda: translate("Lab", "Preset done in {duration}: {runs} runs.").format(
                duration=_duration(preset_outcome.seconds), runs=self._runs_done))
        elif channel == "lab:train":
            outcome: lab_analysis.TrainOutcome = result
            def done() -> str:
                text = translate("Lab", "Done in {duration}: {finished} trained, {skipped} already in the "
                                        "folder").format(duration=_duration(outcome.seconds),
                                                         finished=outcome.finished, skipped=outcome.skipped)
                if outcome.failed:
                    text += translate("Lab", ", {n} failed ({reason})").format(n=len(outcome.failed),
                                                                              reason=outcome.failed[0][1])
                if outcome.write_error:
                    text += f". {outcome.write_error}"
                return translate("Lab", "{sentence}.").format(sentence=text)  # Hindi ends a sentence with ।

            self._finish(done)

    def _on_trainer_failed(self, channel: str, generation: int, message: str) -> None:
        self._finish(lambda: translate("Lab", "Stopped: {message}").format(message=message))
        self.on_failed(message)

    def _on_trainer_busy(self, busy: bool) -> None:
        if not busy and self._state == "cancelling":
            self._finish(lambda: translate("Lab", "Cancelled; the runs that finished are kept in the folder (Start "
                                                  "again skips them)."))

    def _on_trainer_progress(self, channel: str, generation: int, fraction: float) -> None:
        if channel != "lab:train":
            return
        self.progress.setValue(int(1000 * fraction))
        elapsed = time.monotonic() - self._started
        left = self._time_left.update(elapsed, fraction)
        done, total = self._runs_done, self._runs_total
        self._set_status(lambda: translate("Lab", "Training: {done} of {total} runs finished, {percent} % of all "
                                                  "steps").format(done=done, total=total,
                                                                  percent=f"{100 * fraction:.0f}")
                         + (translate("Lab", ", about {duration} left").format(duration=_duration(left))
                            if math.isfinite(left) else "") + ".")

    def _on_event(self, channel: str, generation: int, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "step":
            entry = self._live.setdefault(event["run_id"], (_encoding_of(event["run_id"]), []))
            entry[1].append((event["step"], event["loss"]))
        elif kind in ("done", "skipped"):
            self._runs_done += 1
            if kind == "done":
                self.refresh()  # the figure gains the run that just finished

    def _draw_live(self) -> None:
        for run_id, (encoding, points) in self._live.items():
            if not points:
                continue
            data = np.asarray(points, dtype=float)
            item = self._live_items.get(run_id)
            if item is None:
                item = self._live_items[run_id] = self._loss_item(encoding)
            _set_loss(item, data, encoding)

    def _finish(self, text_now) -> None:
        """Training stopped: ``text_now()`` says how (again after a language switch)."""
        self._state = "idle"
        self._pending_settings = None
        self._redraw_timer.stop()
        self._draw_live()
        self._set_running(False)
        self._set_status(text_now)
        self.refresh()

    def _set_status(self, text_now) -> None:
        """The status line from ``text_now()``, said again in a new language after a switch."""
        self._status_text = text_now
        self.status_label.setText(text_now())

    def retranslate(self, language: str = "") -> None:
        """After a language switch: the status line and the figure drawn from the results held (the folder is
        not read again, and training goes on untouched)."""
        self._set_status(self._status_text)
        if self._result is not None or self._last_request is not None:
            self.show_result(self._result)

    def _set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.preset_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        if self.form is not None:
            for widget in self.form.widgets.values():
                widget.setEnabled(not running)  # the grid being trained is the one shown
        self.choose_button.setEnabled(not running)
        if not running:
            self.progress.setValue(0)

    # ---- export -----------------------------------------------------------------------------------
    def result_arrays(self, result: lab_analysis.LabResults | lab_analysis.PresetOutcome) -> dict[str, np.ndarray]:
        if isinstance(result, lab_analysis.PresetOutcome):  # per task: each variant's score past training
            from peapp.lab import presets

            out = {}
            for task, summary in result.summaries.items():
                for variant, score in presets.scores(summary).items():
                    out[f"{task}_{variant}_exact_match_past_training"] = np.array([score])
            return out
        if result.empty:
            return {}
        lengths = np.unique(np.concatenate([c.lengths for c in result.curves]))
        out = {"lengths": lengths}
        for curve in result.curves:
            aligned = np.full((3, len(lengths)), np.nan)
            index = np.searchsorted(lengths, curve.lengths)
            aligned[0, index], aligned[1, index], aligned[2, index] = curve.mean, curve.low, curve.high
            out[f"{curve.variant}_mean_min_max"] = aligned
        return out

    def result_title(self, result: lab_analysis.LabResults | lab_analysis.PresetOutcome) -> str:
        if isinstance(result, lab_analysis.PresetOutcome):
            from peapp.lab import presets

            return translate("Lab", "Training lab: preset {preset}").format(
                preset=shown(presets.PRESETS[result.name].label))
        if result.empty:
            return translate("Lab", "Training lab (no runs)")
        return translate("Lab", "Training lab: {metric} vs length, task {task}, trained ≤ {trained}").format(
            metric=shown(METRIC_LABELS.get(result.metric or "", result.metric)), task=task_label(result.task),
            trained=result.train_length)


def _header_text(text: str) -> str:
    """A header of the results table (peapp.analysis.lab: "encoding", "length N") in the current language."""
    if text == "encoding":
        return translate("Lab", "encoding")
    if text.startswith("length ") and text[7:].isdigit():
        return translate("Lab", "length {n}").format(n=text[7:])
    return text


def _y(values: np.ndarray, log_y: bool) -> np.ndarray:
    """pyqtgraph's log mode maps data itself for plot curves, but a FillBetweenItem's curves and a
    TextItem's position are in view coordinates: log10 there."""
    return np.log10(np.maximum(values, 1e-12)) if log_y else values


def _encoding_of(run_id: str) -> str:
    """The encoding in a run id (``TASK-ENCODING-L20-seed0``, as peapp.lab.train.RunSpec names runs)."""
    parts = run_id.split("-")
    return parts[1] if len(parts) >= 4 else "?"


def _set_loss(item: pg.PlotDataItem, points: np.ndarray, encoding: str) -> None:
    """A run's loss curve; a line needs two points, so a run of a few steps is drawn as dots."""
    few = len(points) < 3
    item.setData(points[:, 0], points[:, 1], symbol="o" if few else None, symbolSize=5,
                 symbolBrush=COLORS.get(encoding, "#95a5a6"), symbolPen=None)


def _workers() -> int:
    """One single-thread training process per core (measured fastest: see peapp.lab.grid)."""
    return max(1, min(os.cpu_count() or 1, 8))



DOCK = LabDock
