"""Run on text: the opened checkpoint run on the user's text, and what its attention does with position.

The user picks a text (:class:`ui.docks._text_source.TextSource`: typed or pasted, a ``.txt`` file,
or the bundled sample) and presses Run; the Document records the text (sample by name, file by
path, typed text itself, each with its SHA-256) beside ``Document.checkpoint``, so a session or an
exported figure reopens the same run.  The run is :class:`peapp.model_run.text_run.TextRunRequest`
on the panel's own worker (progress; Esc or Cancel stops it, the previous result stays).  It keeps
every head's map, so changing Layer or Head, or clicking the head grid, shows that head without
running the model again.  Seven figures, one tab each (``mode``): the chosen layer × head's real
attention; the head grid; attention by distance and head classes; sink shares; RoPE frequency
usage; the real logits beside the position or content term; a NoPE layer's attention entropy with
and without Llama 4's temperature, from the q and k the run kept (no second forward pass).

This module is the glue: :class:`ui.docks._run.controller.RunController` holds the requests and the
state, :class:`ui.docks._run.figures.RunFigures` the figures and their hover read-outs.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget
from superqt.utils import qthrottled, signals_blocked

from peapp.document import Document
from peapp.errors import PeappError
from peapp.i18n import msg, shown, translate
from peapp.model_run import text_run as T
from peapp.views.run import MODES, PRECISION_TIPS, RunView
from ui import i18n
from ui import settings as preferences
from ui.docks._run.controller import RunController
from ui.docks._run.figures import HOVER_HINT, RunFigures, TokenAxis, _short_name  # noqa: F401  (TokenAxis: tests)
from ui.docks._text_source import TextSource
from ui.docks.base import ViewDock, cancel_button, error_label, progress_bar, readout_label
from ui.forms import Check, Combo, Form, Spin

TAB_OF_MODE = {mode: i for i, mode in enumerate(MODES)}
CONTROLS = ("max_tokens", "dtype", "layer", "head", "grid_statistic", "sort_grid", "log_colours")


class RunDock(ViewDock):
    object_name = "runDock"
    view_id = RunView.view_id
    title = msg("Panels", "Run on text")
    order = 96  # after the article panels (Ctrl+0…9) and the Training lab: the View menu goes in key order
    shortcut = "Ctrl+Shift+R"
    uses_compute_device = True  # Preferences > Device: the model runs there
    uses_compute_dtype = True  # Preferences > Precision: what its Precision "auto" runs in
    own_worker = True  # a run takes minutes at 4,096 tokens: the other panels keep computing meanwhile
    view_names = tuple(MODES)  # `peapp render --view run-grid`, File > Export (the `mode` setting)

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self.controller = RunController()
        self._nope_asked: T.NopeEntropyRequest | None = None  # the NoPE figure's last request
        self._contexts: dict[str, int | None] = {}  # checkpoint → its learned table's positions (None: no limit)
        body = QWidget()
        outer = QVBoxLayout(body)
        outer.setContentsMargins(0, 0, 0, 0)
        self.text_source = TextSource("run", self._say, msg("Run", "What the checkpoint runs on; the choice is "
                                                                  "recorded in sessions and exports."))
        self.source_combo, self.text_edit = self.text_source.source_combo, self.text_source.editor
        self._build_run_row(self.text_source.row)
        outer.addWidget(self.text_source)
        outer.addLayout(self._build_view_row())
        self.message = error_label("runMessage")
        outer.addWidget(self.message)
        self.readout = readout_label("runReadout", wrap=True)
        i18n.keep(self.readout.setText, HOVER_HINT)
        self.view = RunFigures(self.controller, self.settings, self.readout, self.set_caption, self.open_head,
                               qthrottled(self._request_zoom, timeout=200, parent=self), owner=self)
        self.tabs, self.figures = self.view.tabs, self.view.figures
        self.map_plot, self.map_bar, self.zoom_image, self.grid_plot = (self.view.map_plot, self.view.map_bar,
                                                                        self.view.zoom_image, self.view.grid_plot)
        self.tabs.currentChanged.connect(self._tab_changed)
        outer.addWidget(self.tabs, 1)
        outer.addWidget(self.readout)
        self.set_body(body)
        self.worker.progressed.connect(self._on_progress)
        self.worker.busyChanged.connect(self._on_busy)
        self._sync_controls(self.ctx.document)
        self._show_empty()

    def _build_run_row(self, row: QHBoxLayout) -> None:
        self.form = Form(RunView, self._edit, parent=self, names=CONTROLS,
                         hints={"max_tokens": Spin(adaptive=True, separators=True), "dtype": Combo(chars=9, tips=PRECISION_TIPS),
                                "layer": Spin(), "head": Spin(),
                                "grid_statistic": Combo(chars=14), "sort_grid": Check(), "log_colours": Check()},
                         object_names={n: f"run_{n}" for n in CONTROLS})
        self.controls = self.form.widgets
        i18n.keep(self.form.labels["max_tokens"].setText, msg("Run", "Tokens"))
        row.addWidget(self.form.labels["max_tokens"])
        row.addWidget(self.controls["max_tokens"])
        row.addWidget(self.form.labels["dtype"])
        row.addWidget(self.controls["dtype"])
        self.run_button = i18n.keep_text(QPushButton(), msg("Run", "Run"))
        self.run_button.setObjectName("runButton")
        i18n.keep_tooltip(self.run_button, msg("Run", "Run the open checkpoint on this text (its own tokenizer)"))
        self.run_button.clicked.connect(self.run_text)
        row.addWidget(self.run_button)
        self.progress = progress_bar("runProgress")
        row.addWidget(self.progress)
        self.cancel_button = cancel_button("runCancel", msg("Run", "Cancel"), msg(
            "Run", "Stop the run (Esc stops every running computation); the previous result stays"), self.cancel)
        row.addWidget(self.cancel_button)
        row.addStretch(1)

    def _build_view_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for name in ("layer", "head", "grid_statistic"):
            row.addWidget(self.form.labels[name])
            row.addWidget(self.controls[name])
        for name in ("sort_grid", "log_colours"):
            i18n.keep(self.controls[name].setText, RunView.info(name).label)
            row.addWidget(self.controls[name])
        self.reset_zoom_button = i18n.keep_text(QPushButton(), msg("Run", "Reset zoom"))
        self.reset_zoom_button.setObjectName("runResetZoom")
        i18n.keep_tooltip(self.reset_zoom_button, msg("Run", "Show the whole attention map again (zoom with the mouse "
                                                           "wheel or a right-drag; the visible region is recomputed "
                                                           "exactly, token by token)"))
        self.reset_zoom_button.clicked.connect(self.reset_zoom)
        row.addWidget(self.reset_zoom_button)
        row.addStretch(1)
        return row

    # ---- settings and the Document ----------------------------------------------------------------
    def settings(self, document: Document | None = None) -> dict[str, Any]:
        return self.view_spec(document).to_dict()

    def _edit(self, name: str, value: Any) -> None:
        try:
            self.ctx.document.with_view(self.view_id, **{name: value})
        except PeappError as exc:
            self._say(str(exc))
            self._sync_controls(self.ctx.document)
            return
        self.set_view(**{name: value})

    def set_settings(self, **values: Any) -> None:
        """Change several settings at once (scripts, tests); raises ParameterError if invalid."""
        self.ctx.document.with_view(self.view_id, **values)
        self.set_view(**values)

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))
        if text:
            self.ctx.status(f"{shown(self.title)}: {text}")

    def _sync_controls(self, document: Document) -> None:
        values = self.settings(document)
        self.form.sync(values)
        self.text_source.show_values(values["text_source"], values["text"], values["text_file"])
        self._limit_tokens(document.checkpoint)
        with signals_blocked(self.tabs):
            self.tabs.setCurrentIndex(TAB_OF_MODE.get(values["mode"], 0))
        result = self.controller.result
        if result is not None:
            self.form.set_range("layer", 0, result.run.layers - 1)
            self.form.set_range("head", 0, result.run.heads - 1)
            self.form.sync({"layer": values["layer"], "head": values["head"]})

    def _limit_tokens(self, checkpoint: str) -> None:
        """A value typed into Tokens past the open model's context (a learned position table's rows) is refused
        in the field, saying so; one the Document already holds runs at the context (the caption says why)."""
        if checkpoint not in self._contexts:
            self._contexts[checkpoint] = T.learned_context(checkpoint) if checkpoint else None
        context = self._contexts[checkpoint]
        top = RunView.info("max_tokens").maximum
        self.form.set_range("max_tokens", 2, min(top, context) if context else top,
                            reason=(lambda value: self._past_context(value, context)) if context else None)

    @staticmethod
    def _past_context(value: Any, context: int) -> str:
        return translate("Run", "{value} tokens is past this model's context: its learned position table has {rows} "
                                "rows, so it reads at most {rows} tokens.").format(value=f"{int(value):,}",
                                                                                  rows=f"{context:,}")

    def use_file(self, path: str) -> None:
        """Show a .txt file in the editor (read through peapp.safe_open); Run runs it."""
        self.text_source.use_file(path)

    def use_sample(self) -> None:
        self.text_source.use_sample()

    def type_text(self, text: str) -> None:
        """Put ``text`` in the editor as typed text (as typing or pasting does)."""
        self.text_source.type_text(text)

    def run_text(self) -> None:
        """Run: record the chosen text in the Document (one undo step) and run the checkpoint on it."""
        refused = self.form.invalid_fields().get("max_tokens")
        if refused:  # never the previous value silently
            self._say(translate("Run", "Not run: Tokens holds a refused value ({why}). Correct it, then press Run.").format(
                why=refused.rstrip(".")))
            return
        try:
            values, _ = self.text_source.resolved()
            self.ctx.document.with_view(self.view_id, **values)
        except PeappError as exc:
            self._say(str(exc))
            return
        if not self.ctx.document.checkpoint:
            self._say(translate("Run", "no checkpoint is open: open one (File > Open, or File > Open Sample) first."))
            return
        self._say("")
        before = self.controller.request
        self.set_view(**values)
        if self.controller.request == before:  # nothing new to run (Run again, or a browsed head): run now
            self.refresh()

    # ---- requests ---------------------------------------------------------------------------------
    @classmethod
    def has_content(cls, document: Document) -> bool:
        """Whether ``document`` names something to run (`peapp render` skips the views otherwise)."""
        return bool(document.checkpoint) and document.view_spec(cls.view_id).text_source != "none"

    def make_request(self, document: Document) -> T.TextRunRequest | None:
        values = self.settings(document)
        return RunController.make_request(values, document.checkpoint, preferences.compute_device(),
                                          preferences.compute_dtype(values["dtype"]))

    def precision_changed(self) -> None:
        """Preferences > Precision changed: with Precision auto, the shown run runs again in it."""
        if self.is_built():
            self.on_document_changed(self.ctx.document)

    def on_document_changed(self, document: Document) -> None:
        self._sync_controls(document)
        if self.controller.result is None:
            self._show_empty()
        try:
            request = self.make_request(document)
        except PeappError as exc:
            self._say(str(exc))
            return
        if self.controller.needs_run(request):
            self.refresh(request)
        self.view.draw()  # the display settings, or a browsed head, show at once
        self._ask_nope()

    def refresh(self, request=None):
        if not self.can_compute():  # it runs once built and the backend is ready (ViewDock.refresh)
            return None
        if request is None:
            request = self.make_request(self.ctx.document)
        if request is None:
            return None
        generation = super().refresh(request)
        if generation is not None:
            self.controller.submitted(request)
            self._set_running(True)
        return generation

    def compute_now(self) -> Any:
        self.ensure_built()  # before reading what it ran: building submits its first run
        request = self.make_request(self.ctx.document)
        c = self.controller
        if request is not None and not c.running and (request == c.result_request or c.browsable(request)):
            c.request = request
            self.show_result(c.result, ran=False)  # already run (the window's first refresh): not twice
            self._ask_nope(now=True)
            return c.result
        c.request = request
        result = super().compute_now()
        self._ask_nope(now=True)
        return result

    def unfinished_work(self) -> str | None:
        if not self.controller.running:
            return None
        return translate("Run", "Run on text is running the model ({percent} % done); the run is lost.").format(
            percent=f"{self.progress.value() / 10:.0f}")

    def cancel(self) -> None:
        self.worker.cancel(self.object_name)
        self.worker.cancel(f"{self.object_name}:zoom")
        self.worker.cancel(f"{self.object_name}:nope")
        self.controller.request = None  # the same settings may be run again
        self._set_running(False)
        self._say_cancelled()

    def _say_cancelled(self) -> None:
        self._say(translate("Run", "Run cancelled; the previous result stays.") if self.controller.result
                  else translate("Run", "Run cancelled."))

    def _set_running(self, running: bool) -> None:
        self.controller.running = running
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        if running:
            self.progress.setValue(0)

    def _on_progress(self, channel: str, generation: int, fraction: float) -> None:
        if channel == self.object_name and generation == self._generation:
            self.progress.setValue(int(fraction * 1000))

    def _on_busy(self, busy: bool) -> None:
        # Esc (the main window's cancel) stops the run without a result or a failure: tidy up
        if self.controller.running and not self.worker.is_current(self.object_name, self._generation):
            self._set_running(False)
            self._say_cancelled()

    def on_failed(self, message: str) -> None:
        self._set_running(False)
        self._say(message + (translate("Run", " The previous result stays.") if self.controller.result else ""))
        self.controller.request = None  # the same settings may be run again (after opening the right file…)

    def show_result(self, result: T.TextRunResult, ran: bool = True) -> None:
        self._set_running(False)
        if ran:
            self.controller.finished(result)
        self._say(" ".join(result.notes))  # e.g. the GGUF cache was rebuilt, or could not be written
        self._sync_controls(self.ctx.document)
        self.view.draw()
        self._ask_nope()

    # ---- the NoPE temperature figure: its entropies from the run's kept q and k, on the worker -------
    def _ask_nope(self, now: bool = False) -> None:
        """With NoPE temperature shown: compute the NoPE layer's entropies from what the run kept
        (on the panel's worker; ``now``: here, for `peapp render` and scripts)."""
        c = self.controller
        values = self.settings()
        if values["mode"] != "run-nope" or c.result is None or c.running:
            return
        request = c.nope_request(values)
        if request is None:
            return
        pending = self._side_generations.get("nope")
        if not now and request == self._nope_asked and pending is not None and self.worker.is_current(
                f"{self.object_name}:nope", pending):  # asked already, still computing
            return
        self._nope_asked = request
        if not now:
            self.submit_side("nope", request)
            return
        self.worker.cancel(f"{self.object_name}:nope")  # computed here instead
        try:
            outcome = self.worker.run_now(request)
        except PeappError as exc:
            outcome = str(exc)
        self._nope_came(request, outcome)

    def _nope_came(self, request: T.NopeEntropyRequest, outcome: Any) -> None:
        if self.controller.nope_done(request, outcome):
            self.view.draw_nope()
            if self.settings()["mode"] == "run-nope":
                self.set_caption(self.view._caption(self.controller.result.run, *self.controller.chosen(self.settings())))
                self.view.refresh_readout()

    def on_side_failed(self, name: str, message: str) -> None:
        if name == "nope" and self._nope_asked is not None:
            self._nope_came(self._nope_asked, message)

    def retranslate(self, language: str = "") -> None:
        """After a language switch: redraw the last run's figures and captions from the result held —
        a run takes minutes, so it is never started again for a new language."""
        if self.controller.result is None:
            self._show_empty()
        else:
            self.view.draw()

    def _show_empty(self) -> None:
        checkpoint = self.ctx.document.checkpoint
        if checkpoint:
            first = translate("Run", "{model} is open: choose a text (type it, open a .txt, or the bundled sample) and "
                                   "press Run.").format(model=_short_name(checkpoint))
        else:
            first = translate("Run", "Run on text: open a checkpoint (File > Open Sample), choose a text (type it, open "
                                   "a .txt, or the bundled sample) and press Run.")
        second = translate("Run", "The model runs with its own tokenizer; every statistic is measured on its real "
                                  "attention.")
        if self.settings()["mode"] == "run-nope":
            second = translate("Run", "NoPE temperature: with a model that has NoPE layers (Llama 4, SmolLM3, Command "
                                      "R7B), this tab draws a NoPE layer's attention entropy per query position with "
                                      "and without Llama 4's temperature, from the q and k the run keeps.")
        self.set_caption(first + " " + second)

    def _tab_changed(self, index: int) -> None:
        mode = list(MODES)[index]
        if mode != self.settings()["mode"]:
            self.set_view(mode=mode)

    def current_view_name(self) -> str:
        return self.settings()["mode"]

    # ---- zoom: the visible region recomputed exactly from the layer's kept q and k -----------------
    def _request_zoom(self) -> None:
        """After a zoom or pan of the map: ask for the visible region cell by cell if the map is pooled."""
        c = self.controller
        if c.result is None:
            return
        layer, _ = c.chosen(self.settings())
        (x0, x1), (y0, y1) = self.map_plot.getViewBox().viewRange()
        rows, cols = (int(y0 // 1), -int(-y1 // 1)), (int(x0 // 1), -int(-x1 // 1))
        width = int(self.map_plot.getViewBox().width() * self.devicePixelRatioF())
        request = c.zoom_request(layer, rows, cols, width)
        if request is None:
            if c.zoom is not None:
                c.zoom = None
                self.view.draw()
            return
        self.submit_side("zoom", request)

    def show_side_result(self, name: str, result: Any) -> None:
        if name == "zoom" and self.controller.zoomed(result):
            self.view.draw_map_of_chosen()
        elif name == "nope" and self._nope_asked is not None:
            self._nope_came(self._nope_asked, result)

    def reset_zoom(self) -> None:
        if self.controller.result is None:
            return
        self.controller.zoom = None
        self.view.reframe()

    def zoom_to(self, rows: tuple[int, int], cols: tuple[int, int]) -> None:
        """Show a region of the map (as a mouse zoom would) and ask for it cell by cell."""
        self.map_plot.getViewBox().setRange(xRange=cols, yRange=rows, padding=0)
        self._request_zoom()

    def open_head(self, layer: int, head: int) -> None:
        """Show ``layer`` × ``head`` in the Attention tab (one Document edit; shown from what the run
        kept, or a new run of that layer if it could keep none)."""
        self.set_view(layer=int(layer), head=int(head), mode="run-attention")

    # ---- probes (tests, scripts) ------------------------------------------------------------------
    @property
    def result(self) -> T.TextRunResult | None:
        return self.controller.result

    def readout_at(self, x: float, y: float, plot: Any = None) -> str:
        """The hover read-out with the pointer at data point (x, y) of ``plot`` (default: the map)."""
        return self.view.readout_at(x, y, plot)

    def click_grid(self, layer_row: int, column: int) -> None:
        """Click the grid tile at (row = layer, column) as a user would."""
        self.view.click_grid(layer_row, column)

    def describe_cell(self, query: float, key: float) -> str:
        return self.view.describe_cell(query, key)

    def shown_arrays(self):
        return self.view.shown_arrays()

    # ---- export -----------------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.figures[self.settings()["mode"]]

    def export_arrays(self):
        return self.view.export_arrays()

    def export_title(self) -> str:
        res = self.controller.result
        if res is None:
            return shown(self.title)
        layer, head = self.controller.chosen(self.settings())
        text = T.shown_label(res.text_label).split(",")[0]  # the sample's title, a file name, "typed text"
        if self.settings()["mode"] == "run-nope":
            nope = self.controller.nope_layer(self.settings())
            return translate("Run", "{figure} — {model} on {text}, NoPE layer {layer}").format(
                figure=shown(MODES["run-nope"]), model=_short_name(res.checkpoint), text=text,
                layer=translate("Run", "none") if nope is None else nope)
        return translate("Run", "{figure} — {model} on {text}, layer {layer}, head {head}").format(
            figure=shown(MODES[self.settings()["mode"]]), model=_short_name(res.checkpoint), text=text, layer=layer,
            head=head)


DOCK = RunDock
