"""The attention-matrix inspector: what each positional scheme does to attention.

One large heatmap of the chosen head (queries × keys) with a colour bar and hover read-out, a
grid of small heatmaps of every head (click one to enlarge it), the mean attention by
distance, the entropy of each query's attention, ALiBi's slopes or T5's bucket staircase, and
the shuffle-tokens test.  The matrices come from ``peapp.analysis.attention``: long sequences
arrive pooled, and zooming asks for the visible region again at full resolution.  The dock's
own settings live in ``document.views["attention"]`` (spec: ``peapp.views.attention``, built into
controls by ``ui.forms``); scheme settings (RoPE base and scaling, T5 buckets, …) are the
parameters of that family in the parameters dock, and so are the settings both have (length,
heads, head_dim, mask …: ``peapp.views.attention.LINKS``) — one value each, read and written
there, with the shared controls underlined and named under the controls.  Its request is built
by ``peapp.views.attention.attention_request`` from the matrix plot's Viewport.  Tokens label
both axes at cell centres; masked cells are grey.  With little room the panel scrolls (the
matrix keeps a minimum size) and the plot strip wraps.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QGridLayout, QHBoxLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget)
from superqt.utils import qthrottled

from peapp.i18n import msg, shown, translate
from peapp import encodings
from peapp.analysis import attention as A
from peapp.document import Document
from peapp.errors import PeappError
from peapp.views.attention import (TOKEN_LABELS, AttentionView, attention_settings,
                                   link_note, linked_settings, with_attention_settings)
from ui import i18n
from ui import settings as preferences
from ui.docks._attention.controller import AttentionController
from ui.docks._attention.figures import VALUE_LABELS, AttentionFigures
from ui.docks._attention.views import STRIP_PLOT_HEIGHT, STRIP_PLOT_WIDTH, _VIEW_KINDS  # noqa: F401 (the sizes: tests)
from ui.docks.base import ViewDock, cancel_button, progress_bar, scrolling, viewport_of
from ui.forms import Form, Spin, tooltip

# the controls, in the order of their rows
CONTROLS = ("scheme", "seq_len", "n_heads", "head_dim", "tokens", "sentence", "seed", "kind", "pooling", "head",
            "causal", "unit_scale", "log_scale", "nope_temperature", "attn_scale", "floor_scale")
TEMPERATURE_CONTROLS = ("nope_temperature", "attn_scale", "floor_scale")  # shown with the NoPE scheme only
THROTTLE_MS = 60
# The matrix never shrinks below this (logical pixels): with less room the panel scrolls instead
# (at 1366 × 768 with the Checkpoint panel open it had collapsed to 10–45 px).
MATRIX_MIN_WIDTH, MATRIX_MIN_HEIGHT = 400, 205


class _Message(QLabel):
    """The panel's red message line, shown only while it says something (empty, a wrapping label
    still took a line of the panel's height)."""

    def __init__(self, object_name: str) -> None:
        super().__init__()
        self.setObjectName(object_name)
        self.setStyleSheet("color: #c0392b;")
        self.setWordWrap(True)
        self.setVisible(False)

    def setText(self, text: str) -> None:  # Qt override (called from Python here)
        super().setText(text)
        self.setVisible(bool(text))

    def clear(self) -> None:  # Qt override (called from Python here)
        super().clear()
        self.setVisible(False)


class AttentionDock(ViewDock):
    object_name = "attentionDock"
    view_id = AttentionView.view_id
    title = msg("Panels", "Attention inspector")
    tab_title = msg("Panels", "Attention")
    order = 40
    shortcut = "Ctrl+4"
    uses_compute_device = True  # Preferences > Device: its attention maps are computed there
    view_names = tuple(_VIEW_KINDS)  # for `peapp render` and File > Export

    @classmethod
    def document_for_view(cls, document: Document, name: str) -> Document:
        return document.with_view(cls.view_id, kind=_VIEW_KINDS[name])

    def current_view_name(self) -> str:
        kind = self.settings()["kind"]
        return next(name for name, k in _VIEW_KINDS.items() if k == kind)

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self.controller = AttentionController(self.object_name)  # the request cycle and what is shown

        body = QWidget()
        outer = QVBoxLayout(body)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self._build_controls())
        self.readout = i18n.keep_text(QLabel(), msg("Attention", "Hover over a matrix for query, key, distance and "
                                                    "value; click a small one to enlarge it."))
        self.readout.setObjectName("attentionReadout")
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the plots and their drawing (they draw what the controller holds)
        self.figures = f = AttentionFigures(self.controller, self.settings, self.readout, self.set_caption,
                                            self.select_head, self.reset_zoom)
        # its widgets, by the names scripts and tests read (``small``, remade with the head count, is a property)
        self.graphics, self.plot, self.token_axes, self.image, self.mask_image, self.colorbar = (
            f.graphics, f.plot, f.token_axes, f.image, f.mask_image, f.colorbar)
        self.strip, self.scheme_plot, self.entropy_legend, self.shuffle_curve, self.shuffle_label = (
            f.strip, f.scheme_plot, f.entropy_legend, f.shuffle_curve, f.shuffle_label)
        self.received_plot, self.received_mean, self.received_last, self.received_uniform, self.received_label = (
            f.received_plot, f.received_mean, f.received_last, f.received_uniform, f.received_label)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        f.matrices.setMinimumSize(MATRIX_MIN_WIDTH, MATRIX_MIN_HEIGHT)
        self.splitter.addWidget(f.matrices)
        self.splitter.addWidget(f.plots)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        outer.addWidget(self.splitter, 1)
        outer.addWidget(self.received_label)
        outer.addWidget(self.shuffle_label)
        outer.addWidget(self.readout)
        # Short of room (a small screen, the Checkpoint panel open) the panel scrolls: the matrix
        # and the plots keep their minimum sizes instead of collapsing.
        self.scroll = scrolling(body, "attentionScroll")
        self.set_body(self.scroll)

        self.ctx.worker.progressed.connect(self._on_progress)
        self.ctx.worker.failed.connect(self._on_any_failed)
        self.ctx.worker.cancelled.connect(self._on_any_cancelled)
        self._zoom_changed = qthrottled(self._request_zoom, timeout=200, parent=self)
        self.plot.getViewBox().sigRangeChangedManually.connect(lambda *_: self._zoom_changed())
        self._sync_controls(self.ctx.document)

    # ---- construction ---------------------------------------------------------------------------
    def _build_controls(self) -> QWidget:
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        # the one form builder, from AttentionView's metadata; spin boxes where a number is typed
        count = Spin(adaptive=True, separators=True)
        self.form = Form(AttentionView, self._edit, parent=self, names=CONTROLS,
                         hints={"seq_len": count, "n_heads": count, "seed": count, "head": count,
                                "head_dim": Spin(separators=True, step=2), "floor_scale": Spin(separators=True)},
                         object_names={n: f"attention_{n}" for n in CONTROLS}, throttle_ms=THROTTLE_MS)
        self.controls: dict[str, QWidget] = self.form.widgets
        for name, labels in (("scheme", A.SCHEME_LABELS), ("tokens", TOKEN_LABELS)):
            combo = self.controls[name]

            def name_items(combo=combo, labels=labels) -> None:
                for i in range(combo.count()):
                    combo.setItemText(i, shown(labels.get(combo.itemData(i), combo.itemText(i))))

            i18n.keep_updated(combo, name_items)
        for name in ("causal", "unit_scale", "log_scale", "nope_temperature"):  # a check box says what it is itself
            i18n.keep(self.controls[name].setText, AttentionView.info(name).label)
        sentence = self.controls["sentence"]

        # Three short rows, so the dock fits beside the parameters on a 1366-pixel screen.
        rows = [
            [(msg("Attention", "Scheme"), "scheme"), (msg("Attention", "Tokens"), "seq_len"),
             (msg("Attention", "Heads"), "n_heads"), (msg("Attention", "head_dim"), "head_dim")],
            [(msg("Attention", "From"), "tokens"), (msg("Attention", "Sentence"), "sentence"),
             (msg("Attention", "Seed"), "seed"), (None, "nope_temperature"), ("attn_scale", "attn_scale"),
             ("floor_scale", "floor_scale")],
            [(msg("Attention", "Show"), "kind"), (None, "pooling"), (msg("Attention", "Head"), "head"), (None, "causal"),
             (None, "unit_scale"), (None, "log_scale")],
        ]
        for r, items in enumerate(rows):
            line = QHBoxLayout()
            for text, name in items:
                if text:
                    label = self.form.labels[name]
                    if text != name:  # a parameter's own name (attn_scale) is not translated
                        i18n.keep(label.setText, text)  # short: the full label and help are the tooltip
                    line.addWidget(label)
                line.addWidget(self.controls[name], 2 if name in ("sentence", "scheme") else 0)
            grid.addLayout(line, r, 0, 1, 12)
        sentence.setMinimumWidth(120)
        i18n.keep(sentence.setPlaceholderText, msg("Attention", "type a sentence; each word becomes a token"))

        row = QHBoxLayout()
        self.shuffle_button = i18n.keep_text(QPushButton(), msg("Attention", "Shuffle tokens"))
        self.shuffle_button.setObjectName("attentionShuffle")
        i18n.keep_tooltip(self.shuffle_button, msg("Attention", "Shuffle the input tokens (positions stay) and compare "
                                                   "the outputs with the shuffled originals: equal only without "
                                                   "position information and mask."))
        self.shuffle_button.clicked.connect(self.run_shuffle)
        reset = i18n.keep_text(QPushButton(), msg("Attention", "Reset zoom"))
        i18n.keep_tooltip(reset, msg("Attention", "Show the whole matrix again (double-click does the same)"))
        reset.clicked.connect(self.reset_zoom)
        self.progress = progress_bar("attentionProgress", max_width=180)
        self.cancel_button = cancel_button("attentionCancel", msg("Attention", "Cancel"), msg(
            "Attention", "Stop this panel's computation; the previous picture stays"), self.cancel)
        self.message = _Message("attentionMessage")
        self.seeded_button = i18n.keep_text(QPushButton(), msg("Attention", "Seeded tables"))
        self.seeded_button.setObjectName("attentionSeededTables")
        i18n.keep_tooltip(self.seeded_button, msg("Attention", "Stop using the checkpoint's trained T5 table and word "
                                                               "embeddings: back to the seeded T5 table and hashed "
                                                               "word vectors."))
        self.seeded_button.clicked.connect(self.use_seeded_tables)
        self.seeded_button.setVisible(False)
        # the buttons end the Show row (a row of their own pushed the panel's notes out of view at
        # 1366 × 768); a message, empty and no taller than nothing until there is one, below
        for widget in (self.shuffle_button, reset, self.seeded_button, self.progress, self.cancel_button):
            line.addWidget(widget)
        line.addStretch(0)
        row.addWidget(self.message, 1)
        grid.addLayout(row, 3, 0, 1, 12)
        # which settings are the scheme family's parameters (one value, shared with the Parameters panel)
        self.link_label = QLabel()
        self.link_label.setObjectName("attentionLinks")
        self.link_label.setWordWrap(True)
        self.link_label.setStyleSheet("color: palette(window-text);")  # palette(mid) grey read at ~2:1 contrast
        grid.addWidget(self.link_label, 4, 0, 1, 12)
        return box

    # ---- settings ---------------------------------------------------------------------------------
    def settings(self, document: Document | None = None) -> dict[str, Any]:
        """This panel's settings in ``document`` (default: the current one), defaults filled in;
        the ones it shares with its scheme's family read from that family (one value each)."""
        return self.view_spec(document).to_dict()

    def view_spec(self, document: Document | None = None) -> AttentionView:
        document = document or self.ctx.document
        try:
            return attention_settings(document)
        except PeappError:  # a family value this panel cannot show: said by the request; its own values meanwhile
            return document.view_spec(self.view_id)

    def spec(self, document: Document | None = None) -> A.AttentionSpec:
        """What is computed: the sandbox layer's spec (the view's drawing choices left out)."""
        return self.view_spec(document).attention_spec()

    def _edit(self, name: str, value: Any) -> None:
        """A control changed: validate the whole view first; only valid settings reach the Document."""
        try:
            new = with_attention_settings(self.ctx.document, **{name: value})
        except PeappError as exc:
            self.message.setText(str(exc))
            self.ctx.status(str(exc))
            self._sync_controls(self.ctx.document)  # back to the last good values
            return
        self.message.clear()
        self._set_document(new, {name: value})

    def _set_document(self, new: Document, values: dict[str, Any]) -> None:
        names = ", ".join(values)
        self.ctx.document_model.set_document(new, f"Change {names}", merge_key=f"view/{self.view_id}/{names}")

    def set_settings(self, **values: Any) -> None:
        """Change several settings at once (scripts, tests); raises ParameterError if invalid.
        Settings shared with the scheme's family change that family's parameters."""
        self._set_document(with_attention_settings(self.ctx.document, **values), values)

    def use_seeded_tables(self) -> None:
        """Forget the checkpoint's T5 table and embeddings (seeded table, hashed words again)."""
        self.set_settings(t5_source="", embedding_source="")

    def _sync_controls(self, document: Document) -> None:
        values = self.settings(document)
        self.form.set_range("head", 0, max(0, int(values["n_heads"]) - 1))
        self.form.sync(values)  # signals blocked: showing the Document is not an edit
        t5, words = values["t5_source"], values["embedding_source"]
        self.seeded_button.setVisible(bool(t5 or words))
        if t5 or words:
            using = (translate("Attention", "Using the checkpoint's T5 bias table and word embeddings") if t5 and words
                     else translate("Attention", "Using the checkpoint's T5 bias table") if t5
                     else translate("Attention", "Using the checkpoint's word embeddings"))
            self.seeded_button.setToolTip(using + ": " + "; ".join(v for v in (t5, words) if v) + ". " + translate(
                "Attention", "Press to go back to the seeded T5 table and hashed word vectors."))
        self.controls["sentence"].setEnabled(values["tokens"] == "sentence")
        for name in ("unit_scale", "log_scale"):  # colour scales of attention weights
            self.controls[name].setEnabled(values["kind"] == "softmax")
        nope = values["scheme"] == "nope"
        for name in TEMPERATURE_CONTROLS:
            self.controls[name].setVisible(nope)
            if name != "nope_temperature":  # (a check box has no label of its own in the rows)
                self.form.labels[name].setVisible(nope)
            if name != "nope_temperature":
                self.controls[name].setEnabled(bool(values["nope_temperature"]))
        self._show_links(document, values["scheme"])

    def _show_links(self, document: Document, scheme: str) -> None:
        """Say which controls are the family's parameters, on the note and on each linked label."""
        self.link_label.setText(link_note(document))
        linked = linked_settings(scheme)
        family = shown(encodings.get(scheme).label)
        for name in CONTROLS:
            label = self.form.labels.get(name)
            widget = self.controls[name]
            shared = name in linked
            for target in (label, widget):
                if target is None:
                    continue
                base = tooltip(AttentionView.info(name))  # the form's own, in the current language
                target.setToolTip(base + ("\n\n" + translate("Attention", "Shared with the {scheme} parameters "
                                                             "({parameter}): one value, also shown in the Parameters "
                                                             "panel.").format(scheme=family, parameter=linked[name])
                                          if shared else ""))
            if label is not None:
                label.setStyleSheet("text-decoration: underline;" if shared else "")

    def retranslate(self, language: str = "") -> None:
        """After a language switch: the notes and tooltips made from settings, the shuffle verdict (not
        run again), then the matrices' captions and labels (recomputed, as every panel's view)."""
        self._sync_controls(self.ctx.document)
        self.figures.draw_shuffle()
        super().retranslate(language)

    def select_head(self, head: int) -> None:
        self._edit("head", int(head))

    def reset_zoom(self) -> None:
        self.plot.getViewBox().autoRange(padding=0)
        if self.controller.reset_zoom():
            self.figures.draw()

    def zoom_to(self, rows: tuple[int, int], cols: tuple[int, int]) -> None:
        """Show a region (as a mouse zoom would) and ask for it at full resolution."""
        self.plot.getViewBox().setRange(xRange=cols, yRange=rows, padding=0)
        self._request_zoom()

    # ---- requests: the controller decides; the dock reads its widgets and shows what came back -------
    def viewport(self):
        """The large matrix's size on screen: the overview is computed at about this many cells."""
        return viewport_of(self.plot.getViewBox())

    def make_request(self, document: Document) -> A.AttentionRequest:
        return self.controller.make_request(document, self.viewport(), preferences.compute_device())

    def _request_or_message(self, document: Document) -> A.AttentionRequest | None:
        try:
            request = self.make_request(document)
        except PeappError as exc:  # shown; the previous picture stays
            self.message.setText(str(exc))
            self.ctx.status(f"{shown(self.title)}: {exc}")
            return None
        self.message.clear()
        return request

    def on_document_changed(self, document: Document) -> None:
        self._sync_controls(document)
        request = self._request_or_message(document)
        if request is None:
            return
        # the same computation is redrawn only if this dock's own display settings (head shown,
        # colour scale) changed — not for edits elsewhere in the Document
        need = self.controller.document_changed(request, self.settings(document))
        if need == "redraw":
            self.figures.draw()
        elif need == "compute":
            self.refresh(request)

    def refresh(self, request=None):
        if not self.can_compute():  # the backend loads: drawn when it is ready
            return None
        if request is None:
            request = self._request_or_message(self.ctx.document)
            if request is None:
                return None
        if self.controller.asking(request):
            self.figures.draw_shuffle()  # the test was for other inputs
        generation = super().refresh(request)
        if generation is not None:
            self._submitted(self.object_name, generation)
        return generation

    def submit_side(self, name: str, request) -> int:
        generation = super().submit_side(name, request)
        self._submitted(self.controller.side_channel(name), generation)
        return generation

    def run_shuffle(self) -> None:
        try:
            request = self.controller.shuffle_request(self.ctx.document, self.spec(), preferences.compute_device())
        except PeappError as exc:
            self.message.setText(str(exc))
            return
        self.shuffle_label.setText(translate("Attention", "Shuffling the tokens and recomputing the outputs…"))
        self.submit_side("shuffle", request)

    def _request_zoom(self) -> None:
        """After a zoom or pan: recompute the visible region at full resolution if the overview is pooled."""
        (x0, x1), (y0, y1) = self.plot.getViewBox().viewRange()
        request = self.controller.zoom_request(self._last_request, self.viewport(), (y0, y1), (x0, x1))
        if request is None:
            self.figures.draw_zoom()  # none shown any more, or none yet
            return
        self.submit_side("zoom", request)

    def cancel(self) -> None:
        """Stop this dock's running and pending computations; the last picture stays."""
        for channel in self.controller.cancel():
            self.ctx.worker.cancel(channel)
        self._update_busy()
        self.ctx.status(translate("Attention", "{panel}: cancelled; the previous picture is kept.").format(
            panel=shown(self.title)))

    # ---- progress ---------------------------------------------------------------------------------
    def _submitted(self, channel: str, generation: int) -> None:
        self.controller.submitted(channel, generation)
        self.progress.setValue(0)
        self._update_busy()

    def _update_busy(self) -> None:
        busy = self.controller.busy
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)

    @property
    def busy(self) -> bool:
        return self.controller.busy

    def _on_progress(self, channel: str, generation: int, fraction: float) -> None:
        if self.controller.shows_progress(channel):
            self.progress.setValue(int(fraction * 1000))

    def _on_any_failed(self, channel: str, generation: int, message: str) -> None:
        if not self.controller.failed(channel, generation):
            return  # another dock's, or a superseded request (the newer one is still running)
        self._update_busy()
        if channel == self.controller.side_channel("shuffle"):
            self.shuffle_label.setText(translate("Attention", "Shuffle test failed: {message}").format(message=message))
        else:
            self.message.setText(message)

    def _on_any_cancelled(self, channel: str) -> None:
        """Work of this dock stopped (Esc, the window's Cancel): no longer shown as running."""
        if self.controller.owns(channel):
            self.controller.ended(channel)
            self._update_busy()

    # ---- results ----------------------------------------------------------------------------------
    def show_result(self, result: A.AttentionView) -> None:
        first = self.controller.finished(result)
        self._update_busy()
        self.figures.draw()
        self.figures.draw_plots()
        if first:
            self.reset_zoom()
        else:
            self._request_zoom()

    def show_side_result(self, name: str, result: Any) -> None:
        shuffle = name == "shuffle"
        drawn = self.controller.side_finished(name, result, self.spec() if shuffle else None)
        self._update_busy()
        if drawn and shuffle:
            self.figures.draw_shuffle()
        elif drawn:
            self.figures.draw_zoom()

    # ---- what is shown (scripts, tests, the self-test) -------------------------------------------------
    @property
    def small(self) -> list:
        """The small matrices of the heads: (view box, image, label) each."""
        return self.figures.small

    def describe(self, view: A.AttentionView, row: int, col: int) -> str:
        """Read-out text for one displayed cell of the chosen head."""
        return self.figures.describe(view, row, col)

    def readout_at(self, key: float, query: float) -> str:
        """The hover read-out at (key, query) of the large matrix, as the mouse there would give it."""
        return self.figures.readout_at(key, query)

    @property
    def shuffle_result(self) -> A.ShuffleResult | None:
        """The shuffle test shown, or None (not run, or run for other inputs)."""
        return self.controller.shuffle

    @property
    def zoom_view(self) -> A.AttentionView | None:
        """The zoomed region drawn over the overview at finer resolution, or None."""
        return self.figures.zoom_view

    def shown_arrays(self) -> dict[str, np.ndarray]:
        """What the plots draw now: see :meth:`AttentionFigures.shown_arrays`."""
        return self.figures.shown_arrays()

    # ---- export hooks -----------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        view = self.controller.view
        if view is None:
            return {}
        out = {"values": view.values, "distances": view.distances, "profile": view.profile,
               "entropy_positions": view.entropy_positions, "entropy": view.entropy}
        if view.slopes is not None:
            out["alibi_slopes"] = view.slopes
        if view.t5_buckets is not None:
            out["t5_relative"], out["t5_buckets"] = view.t5_relative, view.t5_buckets
        if view.received.size:
            out["received_mean_over_queries"] = view.received
            out["received_last_query"] = view.last_query
            if view.spec.causal:
                out["received_mask_alone"] = A.uniform_causal_received(view.spec.seq_len)
        if self.controller.shuffle is not None:
            out["shuffle_change"] = self.controller.shuffle.change
        if view.temperature_entropy is not None:
            out["temperature_entropy"] = view.temperature_entropy
        return out

    def export_title(self) -> str:
        view = self.controller.view
        if view is None:
            return shown(self.title)
        return translate("Attention", "Attention — {scheme}, {value}, head {head}").format(
            scheme=shown(A.SCHEME_LABELS[view.spec.scheme]), value=shown(VALUE_LABELS[view.kind]), head=self.figures.head())


DOCK = AttentionDock