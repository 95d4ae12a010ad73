"""Probes: context extension, "lost in the middle" and attention sinks, measured on the opened checkpoint.

Three tabs (``mode``), each drawn from a :class:`peapp.model_run.probe_run.ProbeRequest` run on the
panel's own compute thread (a probe takes minutes; the other panels keep drawing):

1. perplexity vs position (windowed), one curve per RoPE scaling variant, the trained context
   marked, a learned table's "cannot" region shaded, the measured numbers in a table and a sentence
   that says whether they agree with the article's claim (unscaled rises past the trained context,
   scaled holds);
2. passkey retrieval by needle depth: log p(answer) and top-1 accuracy for each context length,
   Liu et al. 2023's curve beside it as the paper's (another model and task), and the attention
   the answer rows give the needle (mean over heads; one layer or all);
3. attention sinks (issue 37, :mod:`peapp.model_run.streaming`): perplexity per window of positions
   with full context, a sliding KV window of W tokens and the window + the first K tokens, where
   token 0 leaves the window marked, a table before and after that, and a sentence from the numbers
   beside Xiao et al. 2024's finding (StreamingLLM).

Run first measures the time on two short prefixes (``phase="estimate"``), says it, and asks before
a run estimated over ``CONFIRM_SECONDS``; partial curves draw as each variant or passkey cell
finishes (the job's partial results, delivered by the worker's ``partialReady``).  A finished run is saved as JSON in the cache
folder and recorded in the view (``results_file`` / ``passkey_results_file`` /
``streaming_results_file``), so a session or an
exported figure reopens it without running again; ``peapp probe … -o FIG`` draws through here.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import numpy as np
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QMessageBox,
                               QPushButton, QTabWidget,
                               QVBoxLayout, QWidget)

from peapp.i18n import msg, shown, translate
from peapp.document import Document
from peapp.errors import PeappError
from peapp.model_run.probe_run import VARIANTS, ProbeOutcome, ProbeRequest
from peapp.views.probe import MODES, ProbeView
from peapp.views.run import PRECISION_TIPS
from ui import i18n
from ui import settings as preferences
from ui.docks._probe.controller import ProbeController, kind, mode_of
from ui.docks._probe.figures import (HOVER_HINT, VARIANT_COLOURS, ProbeFigures, _perplexity_title,  # noqa: F401
                                     _streaming_title, variant_name)  # (VARIANT_COLOURS: tests, scripts)
from ui.docks._text_source import TextSource
from ui.docks.base import ViewDock, cancel_button, error_label, progress_bar, readout_label
from ui.forms import Combo, Form, Line, Spin

CONFIRM_SECONDS = 600.0  # a probe estimated longer than this asks first (the lab asks past an hour)
TAB_OF_MODE = {mode: i for i, mode in enumerate(MODES)}
CONTROLS = ("length", "window", "factor", "dtype", "lengths", "depths", "variant", "attention_layer", "stream_length",
            "kv_window", "sinks", "stream_bin")
TEXT_MODES = ("probe-perplexity", "probe-streaming")  # the probes that read the chosen text


class ProbeDock(ViewDock):
    object_name = "probeDock"
    view_id = ProbeView.view_id
    title = msg("Panels", "Probes")
    order = 96  # beside Run on text (ties go by shortcut: the View menu is in key order, P before R)
    shortcut = "Ctrl+Shift+P"
    uses_compute_device = True
    own_worker = True  # a probe takes minutes: the other panels keep computing meanwhile
    view_names = tuple(MODES)  # `peapp render --view probe-passkey`, File > Export (the `mode` setting)

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self.controller = ProbeController()
        self.worker.partialReady.connect(self._on_partial)
        body = QWidget()
        outer = QVBoxLayout(body)
        outer.setContentsMargins(0, 0, 0, 0)
        self.form = Form(ProbeView, self._edit, parent=self, names=CONTROLS,
                         hints={"length": Spin(adaptive=True, separators=True), "window": Spin(separators=True),
                                "factor": Spin(decimals=2), "dtype": Combo(chars=9, tips=PRECISION_TIPS), "lengths": Line(min_width=110),
                                "depths": Line(min_width=150), "variant": Combo(chars=12),
                                "attention_layer": Spin(special="all"),
                                "stream_length": Spin(adaptive=True, separators=True),
                                "kv_window": Spin(adaptive=True, separators=True), "sinks": Spin(),
                                "stream_bin": Spin(separators=True)},
                         object_names={n: f"probe_{n}" for n in CONTROLS})
        self.controls = self.form.widgets
        outer.addWidget(self._build_run_row())
        self.message = error_label("probeMessage")
        outer.addWidget(self.message)
        self.status = QLabel()
        self.status.setObjectName("probeStatus")
        self.status.setWordWrap(True)
        outer.addWidget(self.status)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("probeTabs")
        self.readout = readout_label("probeReadout", i18n.text_of(HOVER_HINT), wrap=True)
        self.view = ProbeFigures(self.controller, self.settings, self.readout, self.set_caption, self.tabs, owner=self)
        self.view.build(self._build_perplexity_row(), self._build_passkey_row(), self._build_streaming_row())
        v = self.view  # the figures' items, as tests and scripts reach them
        self.st_plot, self.st_curves, self.st_table, self.evict_line = v.st_plot, v.st_curves, v.st_table, v.evict_line
        self.figures, self.table, self.ppl_plot, self.ppl_curves, self.trained_line = (
            v.figures, v.table, v.ppl_plot, v.ppl_curves, v.trained_line)
        self.cannot_region, self.logp_plot, self.acc_plot, self.att_plot = (v.cannot_region, v.logp_plot, v.acc_plot,
                                                                            v.att_plot)
        self.tabs.currentChanged.connect(self._tab_changed)
        outer.addWidget(self.tabs, 1)
        outer.addWidget(self.readout)
        self.set_body(body)
        self.worker.progressed.connect(self._on_progress)
        self.worker.busyChanged.connect(self._on_busy)
        self._sync_controls(self.ctx.document)
        self.view.show_empty()

    # ---- construction ---------------------------------------------------------------------------
    def _build_run_row(self) -> QWidget:
        # the text control Run on text has (typed, a .txt file, the sample); the editor shows for typed text
        self.text_source = TextSource("probe", self._say, msg("Probe", "What the perplexity and attention-sinks probes "
                                                                     "read (its start: Probe length or Length tokens); the "
                                                                     "passkey probe uses its own filler."), preview=False)
        self.source_combo, self.open_button = self.text_source.source_combo, self.text_source.open_button
        row = self.text_source.row
        row.addWidget(self.form.labels["factor"])
        row.addWidget(self.controls["factor"])
        row.addWidget(self.form.labels["dtype"])
        row.addWidget(self.controls["dtype"])
        self.run_button = i18n.keep_text(QPushButton(), msg("Probe", "Run"))
        self.run_button.setObjectName("probeRun")
        i18n.keep_tooltip(self.run_button, msg("Probe", "Run the probe of the shown tab on the open checkpoint (the "
                                                        "time is estimated first; a long run asks)"))
        self.run_button.clicked.connect(self.run_probe)
        row.addWidget(self.run_button)
        self.progress = progress_bar("probeProgress")
        row.addWidget(self.progress)
        self.cancel_button = cancel_button("probeCancel", msg("Probe", "Cancel"), msg(
            "Probe", "Stop the probe (Esc stops every running computation); the previous result stays"), self.cancel)
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        return self.text_source

    def _build_perplexity_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for name in ("length", "window"):
            row.addWidget(self.form.labels[name])
            row.addWidget(self.controls[name])
        row.addSpacing(8)
        row.addWidget(i18n.keep_text(QLabel(), msg("Probe", "Variants")))
        self.variant_checks: dict[str, QCheckBox] = {}
        for key in VARIANTS:
            box = QCheckBox()
            box.setObjectName(f"probeVariant_{key}")

            def name_box(box=box, key=key) -> None:
                box.setText(variant_name(key))
                box.setToolTip(translate("Probe", "Measure the model with {variant} RoPE frequencies (the perplexity "
                                                  "probe)").format(variant=variant_name(key)))

            i18n.keep_updated(box, name_box)
            box.toggled.connect(self._variants_toggled)
            self.variant_checks[key] = box
            row.addWidget(box)
        row.addStretch(1)
        return row

    def _build_passkey_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for name in ("lengths", "depths", "variant", "attention_layer"):
            row.addWidget(self.form.labels[name])
            row.addWidget(self.controls[name])
        i18n.keep(self.form.labels["variant"].setText, msg("Probe", "RoPE"))
        i18n.keep(self.form.labels["attention_layer"].setText, msg("Probe", "Layer"))
        row.addStretch(1)
        return row

    def _build_streaming_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for name in ("stream_length", "kv_window", "sinks", "stream_bin"):
            row.addWidget(self.form.labels[name])
            row.addWidget(self.controls[name])
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
        self._say("")
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
        chosen = set(values["variants"].split(","))
        for key, box in self.variant_checks.items():
            old = box.blockSignals(True)
            box.setChecked(key in chosen)
            box.blockSignals(old)
        self.text_source.show_values(values["text_source"], values["text"], values["text_file"])
        if self.tabs.currentIndex() != TAB_OF_MODE.get(values["mode"], 0):
            self.readout.setText(i18n.text_of(HOVER_HINT))  # not the other tab's numbers
        old = self.tabs.blockSignals(True)
        self.tabs.setCurrentIndex(TAB_OF_MODE.get(values["mode"], 0))
        self.tabs.blockSignals(old)
        scaled = values["mode"] != "probe-streaming"  # the attention-sinks probe runs the model as trained
        self.form.labels["factor"].setVisible(scaled)
        self.controls["factor"].setVisible(scaled)

    def _variants_toggled(self) -> None:
        chosen = [k for k, box in self.variant_checks.items() if box.isChecked()]
        if not chosen:
            self._say(translate("Probe", "choose at least one variant (as trained is the reference)."))
            self._sync_controls(self.ctx.document)
            return
        self._edit("variants", ",".join(chosen))

    def use_file(self, path: str) -> None:
        """Measure the perplexity probe on a .txt file (read through peapp.safe_open; recorded when run)."""
        self.text_source.use_file(path)

    def type_text(self, text: str) -> None:
        """Measure the perplexity probe on ``text`` (as typing or pasting it does; recorded when run)."""
        self.text_source.type_text(text)

    def use_sample(self) -> None:
        self.text_source.use_sample()

    def _tab_changed(self, index: int) -> None:
        self.readout.setText(i18n.text_of(HOVER_HINT))
        mode = list(MODES)[index]
        if mode != self.settings()["mode"]:
            self.set_view(mode=mode)

    def current_view_name(self) -> str:
        return self.settings()["mode"]

    # ---- requests ---------------------------------------------------------------------------------
    @classmethod
    def has_content(cls, document: Document) -> bool:
        """Whether the view has a saved result to draw (`peapp render` skips it otherwise: a render never
        starts a probe of minutes — `peapp probe … -o FIGURE` runs one and draws it)."""
        view = document.view_spec(cls.view_id)
        return bool(getattr(view, kind(view.mode)))

    def make_request(self, document: Document, phase: str = "run", estimate: Any = None) -> ProbeRequest | None:
        view = self.view_spec(document)
        saved = getattr(view, kind(view.mode))
        if not saved and not document.checkpoint:
            return None
        return ProbeRequest.from_view(view, document.checkpoint or "", device=preferences.compute_device(),
                                      phase=phase, estimate=estimate, dtype=preferences.compute_dtype(view.dtype))

    def on_document_changed(self, document: Document) -> None:
        """Settings redraw; a saved result named by the Document (a session, undo) is read; nothing else runs
        (a probe takes minutes: only Run starts one)."""
        self._sync_controls(document)
        view = self.view_spec(document)
        if self.controller.needs_reading(view.mode, getattr(view, kind(view.mode))):
            self.refresh()
        self.view.draw()

    def run_probe(self) -> None:
        """Run: the shown tab's probe on the open checkpoint — its time first, then (asked if long) the probe."""
        if self.controller.state != "idle":
            return
        if not self.ctx.document.checkpoint:
            self._say(translate("Run", "no checkpoint is open: open one (File > Open, or File > Open Sample) first."))
            return
        mode = self.settings()["mode"]
        values: dict[str, Any] = {kind(mode): ""}  # a new run replaces the saved result
        if mode in TEXT_MODES:
            try:
                text_values, _ = self.text_source.resolved()
                self.ctx.document.with_view(self.view_id, **text_values)
            except PeappError as exc:
                self._say(str(exc))
                return
            values.update(text_values)
        self._say("")
        self.controller.start(mode)
        self.set_view(**values)
        self._set_state("estimating")
        self._set_status(lambda: translate("Probe", "Measuring how long it takes (two short prefixes)…"))
        request = self.make_request(self.ctx.document, phase="estimate")
        assert request is not None  # a checkpoint is open (checked above)
        self.submit_side("estimate", request)

    def show_side_result(self, name: str, result: Any) -> None:
        if name != "estimate" or self.controller.state != "estimating":
            return
        self.controller.estimate = result
        if result is not None and result.seconds > CONFIRM_SECONDS:
            answer = QMessageBox.question(
                self, shown(self.title), translate("Probe", "This probe is estimated to take {minutes} minutes on this "
                                                            "machine now ({estimate}). Run it anyway? (A shorter probe "
                                                            "length, fewer variants or fewer depths make it "
                                                            "shorter.)").format(
                    minutes=f"{result.seconds / 60:,.0f}", estimate=result.text()))
            if answer != QMessageBox.StandardButton.Yes:
                self._set_state("idle")
                self._set_status(lambda: translate("Probe", "Not started."))
                return
        self._set_status(lambda: translate("Probe", "Estimated: {estimate}.").format(estimate=result.text())
                         if result is not None else translate("Probe", "Short probe: no estimate needed."))
        self._set_state("running")
        self.refresh(self.make_request(self.ctx.document, estimate=result))

    def on_side_failed(self, name: str, message: str) -> None:
        self._set_state("idle")
        self._say(message)
        self._set_status(None)

    def refresh(self, request=None):
        """Submit ``request``; without one (the window's first refresh, a session) only a saved result is
        read — a probe of minutes runs from Run alone."""
        if request is None:
            view = self.view_spec()
            if not getattr(view, kind(view.mode)):
                return None
            request = self.make_request(self.ctx.document)
        if request is None:
            return None
        if self.controller.state == "idle":
            self._set_state("running")
            self.controller.running_mode = request.mode
        return super().refresh(request)

    def compute_now(self) -> Any:
        """Draw the view's saved result synchronously (`peapp render`, the self-test); None when there is none
        (see :meth:`has_content`) or it is another probe's."""
        mode = self.settings()["mode"]
        if not self.has_content(self.ctx.document):
            return None
        self._set_state("idle")
        outcome = super().compute_now()
        if outcome is None or mode_of(outcome.result) != mode:
            return None
        return outcome

    def unfinished_work(self) -> str | None:
        if self.controller.state == "idle":
            return None
        return translate("Probe", "The {probe} probe is running; its result is lost.").format(
            probe=shown(MODES[self.controller.running_mode or "probe-perplexity"]))

    def cancel(self) -> None:
        self.worker.cancel(self.object_name)
        self.worker.cancel(f"{self.object_name}:estimate")  # nor its results or partials: the worker drops them
        self._stopped()

    def _stopped(self) -> None:
        mode = self.controller.stopped()
        self._set_state("idle")
        self._set_status(None)
        self._say(translate("Probe", "Probe cancelled; the previous result stays.") if mode in self.controller.outcomes
                  else translate("Probe", "Probe cancelled."))
        self.view.draw()

    def _set_state(self, state: str) -> None:
        self.controller.state = state
        busy = state != "idle"
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.run_button.setEnabled(not busy)
        if state == "estimating":
            self.progress.setValue(0)

    def _on_progress(self, channel: str, generation: int, fraction: float) -> None:
        if channel == self.object_name and generation == self._generation:
            self.progress.setValue(int(fraction * 1000))
        elif channel == f"{self.object_name}:estimate" and generation == self._side_generations.get("estimate"):
            self.progress.setValue(int(fraction * 100))  # loading the model and timing: the first tenth

    def _on_busy(self, busy: bool) -> None:
        # Esc (the window's cancel) stops the work without a result or a failure: tidy up
        if self.controller.state == "running" and not self.worker.is_current(self.object_name, self._generation):
            self._stopped()
        elif self.controller.state == "estimating" and not self.worker.is_current(f"{self.object_name}:estimate",
                                                                        self._side_generations.get("estimate", -1)):
            self._stopped()

    def on_failed(self, message: str) -> None:
        mode = self.controller.stopped()
        self._set_state("idle")
        self._set_status(None)
        self._say(message + (translate("Run", " The previous result stays.") if mode in self.controller.outcomes else ""))
        self.view.draw()

    def _on_partial(self, channel: str, generation: int, result: Any) -> None:
        # (the worker drops partials of a superseded or cancelled job)
        if channel.startswith(self.object_name) and self.controller.partial_arrived(result):
            self.view.draw()

    def show_result(self, outcome: ProbeOutcome) -> None:
        ran = not outcome.from_file
        mode = self.controller.finished(outcome)
        self._set_state("idle")
        self._say(" ".join(outcome.notes))  # e.g. the GGUF cache was rebuilt, or could not be written
        if outcome.from_file:
            self._set_status(lambda: translate("Probe", "Drawn from the saved result {file}.").format(
                file=outcome.from_file))
        else:
            self._set_status(lambda: translate("Probe", "Measured in {seconds} s on {device} in {dtype}.").format(
                seconds=f"{outcome.result.seconds:,.0f}", device=outcome.result.device, dtype=outcome.result.dtype))
        self.view.draw()
        if ran:
            self._save(mode, outcome)

    def _save(self, mode: str, outcome: ProbeOutcome) -> None:
        """Keep the finished result in the cache folder and record it in the view (sessions reopen it)."""
        from peapp.model_run.loading import default_cache_dir

        doc = outcome.result.to_json()
        doc.update({"path": outcome.checkpoint, "text": {"source": outcome.text_label, "sha256": outcome.text_sha256}})
        data = json.dumps(doc, allow_nan=False)
        folder = os.path.join(default_cache_dir(), "probes")
        path = os.path.join(folder, f"{mode}-{hashlib.sha256(data.encode()).hexdigest()[:16]}.json")
        try:
            os.makedirs(folder, exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(data)
        except OSError as exc:
            self.ctx.status(translate("Probe", "{panel}: the result could not be kept in {folder} ({problem}); "
                                               "sessions will not reopen it.").format(
                panel=shown(self.title), folder=folder, problem=exc.strerror or exc))
            return
        self.controller.saved(mode, path)
        self.set_view(**{kind(mode): path})

    def _set_status(self, text_now) -> None:
        """The status line from ``text_now()`` (None: empty), said again in a new language after a switch."""
        self._status_text = text_now
        self.status.setText(text_now() if text_now is not None else "")

    def retranslate(self, language: str = "") -> None:
        """After a language switch: redraw the results held (a probe takes minutes: never run again for it)."""
        self._set_status(getattr(self, "_status_text", None))
        self._sync_controls(self.ctx.document)
        self.readout.setText(i18n.text_of(HOVER_HINT))
        self.view.draw()

    # ---- probes (tests, scripts) ------------------------------------------------------------------
    def shown_result(self, mode: str | None = None) -> Any:
        """The result drawn in ``mode``'s tab (default: the shown one): the run under way's partial one, else the last."""
        return self.controller.shown_result(mode or self.settings()["mode"])

    def readout_at(self, x: float, y: float, plot: Any = None) -> str:
        return self.view.readout_at(x, y, plot)

    def describe_position(self, position: float) -> str:
        return self.view.describe_position(position)

    def describe_depth(self, depth: float) -> str:
        return self.view.describe_depth(depth)

    def describe_streaming(self, position: float) -> str:
        return self.view.describe_streaming(position)

    def verdict(self, result: Any) -> str:
        return self.view.verdict(result)

    # ---- export -----------------------------------------------------------------------------------
    def export_arrays(self) -> dict[str, np.ndarray]:
        return self.view.export_arrays()

    def export_widget(self) -> QWidget:
        mode = self.settings()["mode"]
        return {"probe-perplexity": self.view.ppl_layout, "probe-streaming": self.view.st_layout}.get(
            mode, self.view.pk_layout)

    def export_title(self) -> str:
        mode = self.settings()["mode"]
        result = self.shown_result(mode)
        if result is None:
            return shown(self.title)
        if mode == "probe-perplexity":
            return _perplexity_title(result)
        if mode == "probe-streaming":
            return _streaming_title(result)
        return translate("Probe", "Passkey by depth — {family}, {lengths} tokens").format(
            family=result.family, lengths=", ".join(f"{n:,}" for n in result.lengths))


DOCK = ProbeDock
