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

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import (QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QSplitter, QVBoxLayout, QWidget)
from superqt.utils import qthrottled

from peapp.i18n import msg, shown, translate
from peapp import encodings
from peapp.analysis import attention as A
from peapp.analysis.levels import LOG_DECADES
from peapp.document import Document
from peapp.errors import PeappError
from peapp.views.attention import (KIND_LABELS, TOKEN_LABELS, AttentionView, attention_request, attention_settings,
                                   link_note, linked_settings, with_attention_settings, zoom_request)
from ui import i18n
from ui import settings as preferences
from ui.docks._attention.views import (STRIP_PLOT_HEIGHT, STRIP_PLOT_WIDTH, CompactGraphics, DecadeAxis, ReflowStrip, TokenAxis,  # noqa: F401
                                       _levels, _nice_step, _shown, _superscript, received_caption,
                                       _VIEW_KINDS, received_short_caption)  # (received_caption: tests)
from ui.docks.base import ViewDock, cancel_button, progress_bar, viewport_of
from ui.forms import Form, Spin, tooltip
from ui.plotting import draw_as_path, legend_above

DIVERGING = "CET-D1A"
SEQUENTIAL = "viridis"
VALUE_LABELS = {"softmax": msg("Attention", "attention weight"), "logits": msg("Attention", "logit"),
                "position": msg("Attention", "position term")}
# the controls, in the order of their rows
CONTROLS = ("scheme", "seq_len", "n_heads", "head_dim", "tokens", "sentence", "seed", "kind", "pooling", "head",
            "causal", "unit_scale", "log_scale", "nope_temperature", "attn_scale", "floor_scale")
TEMPERATURE_CONTROLS = ("nope_temperature", "attn_scale", "floor_scale")  # shown with the NoPE scheme only
TEMPERATURE_COLOUR = "#c0392b"  # the chosen head (orange) with the temperature: dashed red beside it
MAX_SMALL_HEADS = 16  # small multiples drawn; more heads are reachable with the head box
THROTTLE_MS = 60
# The matrix never shrinks below this (logical pixels): with less room the panel scrolls instead
# (at 1366 × 768 with the Checkpoint panel open it had collapsed to 10–45 px).
MATRIX_MIN_WIDTH, MATRIX_MIN_HEIGHT = 400, 205
MASKED_RGBA = (128, 128, 128, 255)  # a neutral grey: in neither colour map, so never read as a weight of 0
STRIP_TITLE_SIZE = "9pt"  # the strip's plots are narrow: short titles, small type
RECEIVED_DECADES = 12  # the received-attention plot spans at most this many decades below its top


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
        self._view: A.AttentionView | None = None
        self._zoom: A.AttentionView | None = None
        self._shuffle: A.ShuffleResult | None = None
        self._request_key = None
        self._busy_channels: set[str] = set()
        self._drawn_settings: dict | None = None

        body = QWidget()
        outer = QVBoxLayout(body)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self._build_controls())
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        matrices = self._build_matrices()
        matrices.setMinimumSize(MATRIX_MIN_WIDTH, MATRIX_MIN_HEIGHT)
        self.splitter.addWidget(matrices)
        self.splitter.addWidget(self._build_plots())
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        outer.addWidget(self.splitter, 1)
        outer.addWidget(self.received_label)
        outer.addWidget(self.shuffle_label)
        self.readout = i18n.keep_text(QLabel(), msg("Attention", "Hover over a matrix for query, key, distance and "
                                                    "value; click a small one to enlarge it."))
        self.readout.setObjectName("attentionReadout")
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.readout)
        # Short of room (a small screen, the Checkpoint panel open) the panel scrolls: the matrix
        # and the plots keep their minimum sizes instead of collapsing.
        self.scroll = QScrollArea()
        self.scroll.setObjectName("attentionScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(body)
        self.set_body(self.scroll)

        self.ctx.worker.progressed.connect(self._on_progress)
        self.ctx.worker.failed.connect(self._on_any_failed)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.graphics.scene().sigMouseClicked.connect(self._click)
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

    def _build_matrices(self) -> QWidget:
        self.graphics = CompactGraphics()
        self.graphics.setObjectName("attentionGraphics")
        self.token_axes = {"left": TokenAxis("left"), "bottom": TokenAxis("bottom")}
        self.plot = self.graphics.addPlot(enableMenu=False, row=0, col=0, axisItems=self.token_axes)
        self.plot.invertY(True)
        self.plot.setAspectLocked(False)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.zoom_image = pg.ImageItem(axisOrder="row-major")
        self.zoom_image.setZValue(1)
        # masked cells (all their keys in the future) in grey over each image: no weight is not a weight of 0
        self.mask_image = pg.ImageItem(axisOrder="row-major")
        self.mask_image.setZValue(0.5)
        self.zoom_mask_image = pg.ImageItem(axisOrder="row-major")
        self.zoom_mask_image.setZValue(1.5)
        for item in (self.image, self.mask_image, self.zoom_image, self.zoom_mask_image):
            self.plot.addItem(item)
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get(SEQUENTIAL), interactive=False, width=14)
        self.colorbar.setImageItem([self.image, self.zoom_image], insert_in=self.plot)
        self.grid = self.graphics.addLayout(row=0, col=1)
        self.small: list[tuple[pg.ViewBox, pg.ImageItem, pg.LabelItem]] = []
        self.graphics.ci.layout.setColumnStretchFactor(0, 3)
        self.graphics.ci.layout.setColumnStretchFactor(1, 2)
        return self.graphics

    def _strip_plot(self, name: str, title: str | None = None, axis_items: dict | None = None) -> pg.PlotItem:
        widget = pg.PlotWidget(enableMenu=False, axisItems=axis_items)
        widget.setObjectName(name)
        self._strip_widgets.append(widget)
        plot = widget.getPlotItem()
        if title:
            i18n.keep(lambda text: plot.setTitle(text, size=STRIP_TITLE_SIZE), title, owner=widget)
        return plot

    @staticmethod
    def _axis_label(plot: pg.PlotItem, side: str, text: Any) -> None:
        """An axis label of a strip plot, kept in the interface's language."""
        i18n.keep(lambda shown_text: plot.setLabel(side, shown_text), text, owner=plot.getViewWidget())

    def _build_plots(self) -> QWidget:
        self._strip_widgets: list[pg.PlotWidget] = []
        self._profile_curves: list[pg.PlotDataItem] = []  # one per head (_draw_plots)
        self._entropy_curves: list[pg.PlotDataItem] = []
        self.profile_plot = self._strip_plot("attentionProfilePlot", msg("Attention", "Mean weight by distance"))
        self._axis_label(self.profile_plot, "bottom", msg("Attention", "distance (query − key)"))
        self._axis_label(self.profile_plot, "left", msg("Attention", "mean weight"))
        self.entropy_plot = self._strip_plot("attentionEntropyPlot", msg("Attention", "Entropy of each query"))
        self._axis_label(self.entropy_plot, "bottom", msg("Attention", "query position"))
        self._axis_label(self.entropy_plot, "left", msg("Attention", "nats"))
        self.entropy_legend = legend_above(self.entropy_plot, 2)  # above the data, never over it
        self.entropy_legend.setVisible(False)
        self._temperature_curve: pg.PlotDataItem | None = None  # NoPE: the chosen head with the temperature
        self.received_plot = self._strip_plot("attentionReceivedPlot", msg("Attention", "Weight each key receives"),
                                              {"left": DecadeAxis("left")})
        self._axis_label(self.received_plot, "bottom", msg("Attention", "key position"))
        self._axis_label(self.received_plot, "left", msg("Attention", "weight (log)"))
        # log scale: the last query's weights span many decades under distance decay
        self.received_plot.setLogMode(y=True)
        self.received_mean = self.received_plot.plot(pen=pg.mkPen("#e67e22", width=2))
        self.received_last = self.received_plot.plot(pen=pg.mkPen("#2e86de", width=1))
        self.received_uniform = draw_as_path(self.received_plot.plot(pen=pg.mkPen("#aaa", style=Qt.PenStyle.DashLine)))
        for curve in (self.received_mean, self.received_last, self.received_uniform):
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
        self.scheme_plot = self._strip_plot("attentionSchemePlot")
        self.shuffle_plot = self._strip_plot("attentionShufflePlot", msg("Attention", "Shuffle: change per token"))
        self._axis_label(self.shuffle_plot, "bottom", msg("Attention", "position"))
        self._axis_label(self.shuffle_plot, "left", msg("Attention", "relative change"))
        for p in (self.profile_plot, self.entropy_plot, self.received_plot, self.scheme_plot, self.shuffle_plot):
            p.showGrid(x=True, y=True, alpha=0.2)
        self.shuffle_curve = self.shuffle_plot.plot(pen=None, symbol="o", symbolSize=4, symbolBrush="#c0392b")
        self.shuffle_label = QLabel(translate("Attention", "Shuffle tokens: press the button to test whether order "
                                              "reaches the outputs."))
        self.shuffle_label.setObjectName("attentionShuffleResult")
        self.shuffle_label.setWordWrap(True)
        self.strip = ReflowStrip(self._strip_widgets)
        self.strip.setObjectName("attentionPlots")
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.strip, 1)
        # the notes go below the splitter (see __init__): inside it they were drawn over the plots' axes
        self.received_label = QLabel()
        self.received_label.setObjectName("attentionReceivedNote")
        self.received_label.setWordWrap(True)
        return box

    def _show_scheme_plot(self, shown: bool) -> None:
        self.scheme_plot.setVisible(shown)
        self.strip.set_shown(self._strip_widgets[3], shown)

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
        self._set_shuffle(self._shuffle)
        super().retranslate(language)

    # ---- requests ---------------------------------------------------------------------------------
    def viewport(self):
        """The large matrix's size on screen: the overview is computed at about this many cells."""
        return viewport_of(self.plot.getViewBox())

    def make_request(self, document: Document) -> A.AttentionRequest:
        return attention_request(document, self.viewport(), preferences.compute_device())

    @staticmethod
    def _key(request: A.AttentionRequest) -> tuple:
        return (request.spec, request.scheme_params, request.kind, request.pooling, request.device,
                request.temperature)

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
        if self._key(request) == self._request_key:
            # Same computation: redraw only if this dock's own display settings (head shown,
            # colour scale) changed — not for edits elsewhere in the Document.
            settings = self.settings(document)
            if settings != self._drawn_settings:
                self._drawn_settings = settings
                self._draw()
            return
        self._drawn_settings = self.settings(document)
        self.refresh(request)

    def refresh(self, request=None):
        if not self.can_compute():  # the backend loads: drawn when it is ready
            return None
        if request is None:
            request = self._request_or_message(self.ctx.document)
            if request is None:
                return None
        key = self._key(request)
        if self._request_key is not None and key[:2] != self._request_key[:2]:
            self._set_shuffle(None)  # the test was for other inputs
        self._request_key = key
        self._zoom = None
        generation = super().refresh(request)
        if generation is not None:
            self._set_busy(self.object_name, True)
        return generation

    def submit_side(self, name: str, request) -> int:
        generation = super().submit_side(name, request)
        self._set_busy(f"{self.object_name}:{name}", True)
        return generation

    def run_shuffle(self) -> None:
        try:
            spec = self.spec()
            params = A.scheme_params_from_document(self.ctx.document, spec.scheme)
        except PeappError as exc:
            self.message.setText(str(exc))
            return
        self.shuffle_label.setText(translate("Attention", "Shuffling the tokens and recomputing the outputs…"))
        self.submit_side("shuffle", A.ShuffleRequest(spec=spec, scheme_params=params,
                                                     device=preferences.compute_device()))

    def _request_zoom(self) -> None:
        """After a zoom or pan: recompute the visible region at full resolution if the overview is pooled."""
        view = self._view
        if view is None or self._last_request is None:
            return
        (x0, x1), (y0, y1) = self.plot.getViewBox().viewRange()
        request = zoom_request(self._last_request, max(view.row_bin, view.col_bin), self.viewport(),
                               (int(np.floor(y0)), int(np.ceil(y1))), (int(np.floor(x0)), int(np.ceil(x1))))
        if request is None:
            self._zoom = None
            self.zoom_image.setVisible(False)
            self.zoom_mask_image.setVisible(False)
            return
        self.submit_side("zoom", request)

    def cancel(self) -> None:
        """Stop this dock's running and pending computations; the last picture stays."""
        for channel in (self.object_name, f"{self.object_name}:zoom", f"{self.object_name}:shuffle"):
            self.ctx.worker.cancel(channel)
        self._busy_channels.clear()
        self._update_busy()
        self.ctx.status(translate("Attention", "{panel}: cancelled; the previous picture is kept.").format(
            panel=shown(self.title)))

    # ---- progress ---------------------------------------------------------------------------------
    def _set_busy(self, channel: str, busy: bool) -> None:
        if busy:
            self._busy_channels.add(channel)
            self.progress.setValue(0)
        else:
            self._busy_channels.discard(channel)
        self._update_busy()

    def _update_busy(self) -> None:
        busy = bool(self._busy_channels)
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)

    @property
    def busy(self) -> bool:
        return bool(self._busy_channels)

    def _on_progress(self, channel: str, generation: int, fraction: float) -> None:
        if channel in self._busy_channels:
            self.progress.setValue(int(fraction * 1000))

    def _on_any_failed(self, channel: str, generation: int, message: str) -> None:
        if channel == self.object_name and generation != self._generation:
            return  # a superseded request; the newer one is still running
        if channel == self.object_name or channel.startswith(self.object_name + ":"):
            self._set_busy(channel, False)
            if channel.endswith(":shuffle"):
                self.shuffle_label.setText(translate("Attention", "Shuffle test failed: {message}").format(message=message))
            else:
                self.message.setText(message)

    # ---- results ----------------------------------------------------------------------------------
    def show_result(self, result: A.AttentionView) -> None:
        self._set_busy(self.object_name, False)
        first = self._view is None or self._view.spec.seq_len != result.spec.seq_len
        self._view = result
        self._zoom = None
        self.zoom_image.setVisible(False)
        self.zoom_mask_image.setVisible(False)
        self._draw()
        self._draw_plots()
        if first:
            self.reset_zoom()
        else:
            self._request_zoom()

    def show_side_result(self, name: str, result: Any) -> None:
        self._set_busy(f"{self.object_name}:{name}", False)
        if name == "shuffle":
            self._set_shuffle(result if result.spec == self.spec() else None)
        elif name == "zoom" and self._view is not None and self._request_key is not None \
                and (result.spec, result.kind, result.pooling) == (self._request_key[0], *self._request_key[2:4]):
            self._zoom = result
            self._draw_zoom()

    def _log(self) -> bool:
        return bool(self.settings()["log_scale"])

    def _head(self) -> int:
        n = self._view.spec.n_heads if self._view is not None else 1
        return min(int(self.settings()["head"]), n - 1)

    def _draw(self) -> None:
        view = self._view
        if view is None:
            return
        head = self._head()
        values = view.values[head]
        unit, log = bool(self.settings()["unit_scale"]), self._log()
        levels, diverging = _levels(view.values if view.kind == "softmax" else values, view.kind, unit, log)
        self.colorbar.setColorMap(pg.colormap.get(DIVERGING if diverging else SEQUENTIAL))
        self.image.setImage(_shown(values, view.kind, log), autoLevels=False)
        self.colorbar.setLevels(levels)
        self.image.setRect(QRectF(view.col_start, view.row_start, view.col_stop - view.col_start,
                                  view.row_stop - view.row_start))
        self._set_mask(self.mask_image, view)
        for axis in self.token_axes.values():
            axis.set_view(view)
        self.plot.setLabel("left", translate("Attention", "query token") if view.words
                           else translate("Attention", "query position"))
        self.plot.setLabel("bottom", translate("Attention", "key token") if view.words
                           else translate("Attention", "key position"))
        label = ("log₁₀ " if log else "") + shown(VALUE_LABELS[view.kind])
        if not view.full_resolution:
            label += (translate("Attention", " (mean per cell)") if view.pooling == "mean"
                      else translate("Attention", " (max per cell)"))
        self.colorbar.axis.setLabel(label)
        self.plot.setTitle(translate("Attention", "head {head}: {kind}").format(
            head=head, kind=shown(KIND_LABELS[view.kind]).lower()))
        self.set_caption(self._caption(view, head))
        self._draw_small(view, head)
        self._draw_zoom()
        self._highlight_plots(head)

    @staticmethod
    def _set_mask(item: pg.ImageItem, view: A.AttentionView) -> None:
        """Grey where the causal mask hides a whole cell, transparent elsewhere, over ``view``'s cells."""
        masked = view.masked_cells()
        if not masked.any():
            item.setVisible(False)
            return
        rgba = np.zeros(masked.shape + (4,), np.uint8)
        rgba[masked] = MASKED_RGBA
        item.setImage(rgba, autoLevels=False, levels=(0, 255))
        item.setRect(QRectF(view.col_start, view.row_start, view.col_stop - view.col_start,
                            view.row_stop - view.row_start))
        item.setVisible(True)

    def _caption(self, view: A.AttentionView, head: int) -> str:
        text = A.caption(view)
        if view.spec.causal:
            text += translate("Attention", " Grey: masked (future keys get no weight at all — not a weight of 0).")
        if view.slopes is not None:
            slope = float(view.slopes[head])
            text += translate("Attention", " Head {head} subtracts {slope}·distance (1/{inverse}).").format(
                head=head, slope=f"{slope:.4g}", inverse=f"{1 / slope:.4g}")
        if view.spec.n_heads > MAX_SMALL_HEADS:
            text += translate("Attention", " The grid shows heads 0–{last}; choose any head with the Head box.").format(
                last=MAX_SMALL_HEADS - 1)
        text += self._temperature_caption(view, head)
        if view.kind == "softmax":
            top = "1" if self.settings()["unit_scale"] else translate("Attention", "the largest weight shown")
            text += (translate("Attention", " Colours: log₁₀ of the weight, from {decades} decades below {top} up to "
                               "it.").format(decades=LOG_DECADES, top=top) if self._log()
                     else translate("Attention", " Colours run from 0 to {top}.").format(top=top))
        return text

    def _temperature_caption(self, view: A.AttentionView, head: int) -> str:
        """What the dashed entropy curve is, and whether the temperature lowers the entropy (NoPE)."""
        settings = self.settings()
        if not settings["nope_temperature"]:
            return ""
        if view.spec.scheme != "nope":
            return translate("Attention", " NoPE temperature: for the NoPE scheme only (choose NoPE to draw it).")
        if view.temperature_entropy is None:
            return ""
        a, f = view.temperature
        text = translate("Attention", " NoPE with temperature (entropy plot): dashed red = head {head}'s entropy with each "
                                      "query multiplied by 1 + {a}·ln(1 + ⌊(p + 1)/{f}⌋), Llama 4's "
                                      "attn_temperature_tuning; solid orange = plain NoPE.").format(
            head=head, a=f"{a:g}", f=f"{f:g}")
        step = max(0, math.ceil(f) - 1)
        past = view.entropy_positions >= step
        if a <= 0 or not past.any():
            return text + " " + translate("Attention", "The multiplier is 1 at every position shown (it first rises "
                                                       "at position {step}): both curves are the same.").format(
                step=f"{step:,}")
        drop = view.entropy[head][past] - view.temperature_entropy[head][past]
        return text + " " + translate("Attention", "From position {step} on it lowers the entropy at {lowered} of "
                                                   "{total} query positions shown, by {mean} nats on average.").format(
            step=f"{step:,}", lowered=f"{int((drop > 1e-9).sum()):,}", total=f"{int(past.sum()):,}",
            mean=f"{float(drop.mean()):.4f}")

    def _draw_small(self, view: A.AttentionView, head: int) -> None:
        n = min(view.spec.n_heads, MAX_SMALL_HEADS)
        if len(self.small) != n:
            self.grid.clear()
            self.small = []
            cols = math.ceil(math.sqrt(n))
            for h in range(n):
                label = self.grid.addLabel(translate("Attention", "head {head}").format(head=h), row=2 * (h // cols), col=h % cols, size="8pt")
                box = self.grid.addViewBox(row=2 * (h // cols) + 1, col=h % cols, lockAspect=False,
                                           enableMouse=False, enableMenu=False, invertY=True)
                image = pg.ImageItem(axisOrder="row-major")
                box.addItem(image)
                self.small.append((box, image, label))
        log = self._log()
        levels, diverging = _levels(view.values, view.kind, bool(self.settings()["unit_scale"]), log)
        lut = pg.colormap.get(DIVERGING if diverging else SEQUENTIAL).getLookupTable(nPts=256)
        for h, (box, image, label) in enumerate(self.small):
            image.setImage(_shown(view.values[h], view.kind, log), autoLevels=False, levels=levels, lut=lut)
            box.autoRange(padding=0)
            bold = h == head
            name = translate("Attention", "head {head}").format(head=h)
            label.setText(f"<b>{name} ◀</b>" if bold else name, size="8pt")

    def _draw_zoom(self) -> None:
        zoom, view = self._zoom, self._view
        if zoom is None or view is None:
            self.zoom_image.setVisible(False)
            self.zoom_mask_image.setVisible(False)
            return
        values = zoom.values[self._head()]
        self.zoom_image.setImage(_shown(values, zoom.kind, self._log()), autoLevels=False)
        # the zoomed region is finer than the overview (pooled means are smaller): rescale the colours to it
        levels, _ = _levels(values, zoom.kind, bool(self.settings()["unit_scale"]), self._log())
        self.colorbar.setLevels(levels)
        self.zoom_image.setRect(QRectF(zoom.col_start, zoom.row_start, zoom.col_stop - zoom.col_start,
                                       zoom.row_stop - zoom.row_start))
        self.zoom_image.setVisible(True)
        self._set_mask(self.zoom_mask_image, zoom)
        self.set_caption(self._caption(view, self._head()) + translate(
            "Attention", " Zoomed: queries {first_query}–{last_query} × keys {first_key}–{last_key} recomputed at "
            "{detail}; colours rescaled to this region.").format(
            first_query=f"{zoom.row_start:,}", last_query=f"{zoom.row_stop - 1:,}", first_key=f"{zoom.col_start:,}",
            last_key=f"{zoom.col_stop - 1:,}", detail=zoom.reduction))

    def _draw_plots(self) -> None:
        view = self._view
        self.scheme_plot.clear()
        if len(self._profile_curves) != view.spec.n_heads:
            # one curve per head, made when the head count changes and reused after: making
            # pyqtgraph items costs more than drawing them (60 ms a redraw at 8 heads)
            self.profile_plot.clear()
            self.entropy_plot.clear()
            self._profile_curves = [self._head_curve(self.profile_plot) for _ in range(view.spec.n_heads)]
            self._entropy_curves = [self._head_curve(self.entropy_plot) for _ in range(view.spec.n_heads)]
            self._entropy_uniform = draw_as_path(self.entropy_plot.plot(pen=pg.mkPen("#888", style=Qt.PenStyle.DashLine)))
            self._temperature_curve = self._head_curve(self.entropy_plot)
            self._temperature_curve.setPen(pg.mkPen(TEMPERATURE_COLOUR, width=2, style=Qt.PenStyle.DashLine))
            self._temperature_curve.setZValue(3)
        for h in range(view.spec.n_heads):
            self._profile_curves[h].setData(view.distances, view.profile[h])
            self._entropy_curves[h].setData(view.entropy_positions, view.entropy[h])
        # the most spread-out attention possible: uniform over the keys a query may see
        keys = (view.entropy_positions + 1) if view.spec.causal else np.full(len(view.entropy_positions), view.spec.seq_len)
        self._entropy_uniform.setData(view.entropy_positions, np.log(keys))
        if view.slopes is not None:
            self._show_scheme_plot(True)
            self.scheme_plot.setTitle(translate("Attention", "ALiBi slope per head (2^y)"), size=STRIP_TITLE_SIZE)
            self.scheme_plot.setLabel("bottom", translate("Attention", "head"))
            self.scheme_plot.setLabel("left", translate("Attention", "log₂ slope"))
            self._slope_bars = self.scheme_plot.plot(np.arange(len(view.slopes)), np.log2(view.slopes),
                                                     pen=pg.mkPen("#999"), symbol="o", symbolSize=8,
                                                     symbolBrush="#2e86de")
            self._slope_mark = self.scheme_plot.plot([], [], pen=None, symbol="o", symbolSize=11,
                                                     symbolBrush="#e67e22")
        elif view.t5_buckets is not None:
            self._slope_bars = None
            self._show_scheme_plot(True)
            self.scheme_plot.setTitle(translate("Attention", "T5 bucket of key − query"), size=STRIP_TITLE_SIZE)
            self.scheme_plot.setLabel("bottom", translate("Attention", "key − query"))
            self.scheme_plot.setLabel("left", translate("Attention", "bucket"))
            rel, buckets = view.t5_relative, view.t5_buckets
            self.scheme_plot.plot(np.append(rel, rel[-1] + 1), buckets, stepMode="center",
                                  pen=pg.mkPen("#2e86de", width=1.5))
        else:
            self._slope_bars = None
            self._show_scheme_plot(False)
        self._highlight_plots(self._head())

    @staticmethod
    def _head_curve(plot: pg.PlotItem) -> pg.PlotDataItem:
        curve = plot.plot()
        curve.setDownsampling(auto=True, method="peak")
        curve.setClipToView(True)
        return curve

    def _draw_received(self, head: int) -> None:
        """The attention each key receives, for the chosen head, and its careful caption."""
        view = self._view
        if view is None or view.received.size == 0:
            return
        keys = np.arange(view.spec.seq_len)
        # weights that underflowed to 0 are drawn at 1e-30 (log axis); exported arrays keep the 0
        self.received_mean.setData(keys, np.maximum(view.received[head], 1e-30))
        self.received_last.setData(keys, np.maximum(view.last_query[head], 1e-30))
        if view.spec.causal:
            self.received_uniform.setData(keys, A.uniform_causal_received(view.spec.seq_len))
        else:
            self.received_uniform.setData([], [])
        # at most RECEIVED_DECADES decades below the top: a 1e-30 floor would squeeze every label together
        shown = np.concatenate([view.received[head], view.last_query[head]])
        positive = shown[shown > 0]
        if positive.size:
            top = math.log10(float(positive.max()))
            bottom = max(math.log10(float(positive.min())), top - RECEIVED_DECADES)
            self.received_plot.setYRange(bottom - 0.1, top + 0.1, padding=0)
        self.received_label.setText(received_short_caption(view, head))
        self.received_label.setToolTip(received_caption(view, head))
        self.received_plot.setToolTip(received_caption(view, head))

    def _draw_temperature(self, head: int) -> None:
        """NoPE with the temperature: the chosen head's entropy with the scale, dashed beside its plain
        curve, and the legend naming the three curves (hidden otherwise)."""
        view, curve = self._view, self._temperature_curve
        self.entropy_legend.clear()
        shown_curve = view is not None and view.temperature_entropy is not None and curve is not None
        self.entropy_legend.setVisible(shown_curve)
        if curve is None:
            return
        if not shown_curve:
            curve.setData([], [])
            return
        curve.setData(view.entropy_positions, view.temperature_entropy[head])
        self.entropy_legend.addItem(self._entropy_curves[head], translate("Attention", "head {head}").format(head=head))
        self.entropy_legend.addItem(curve, translate("Attention", "with temperature"))
        self.entropy_legend.addItem(self._entropy_uniform, translate("Attention", "uniform"))

    def _highlight_plots(self, head: int) -> None:
        self._draw_received(head)
        self._draw_temperature(head)
        for curves in (self._profile_curves, self._entropy_curves):
            for h, curve in enumerate(curves):
                chosen = h == head
                curve.setPen(pg.mkPen("#e67e22", width=2) if chosen else pg.mkPen((150, 150, 150, 90), width=1))
                curve.curve.setSegmentedLineMode("on" if chosen else "off")  # translucent: one path
                curve.setZValue(2 if chosen else 1)
        view = self._view
        if view is not None and view.slopes is not None and getattr(self, "_slope_bars", None) is not None:
            self._slope_mark.setData([head], [float(np.log2(view.slopes[head]))])

    def _set_shuffle(self, result: A.ShuffleResult | None) -> None:
        self._shuffle = result
        if result is None:
            self.shuffle_curve.setData([], [])
            self.shuffle_label.setText(translate("Attention", "Shuffle tokens: press the button to test whether order "
                                                 "reaches the outputs."))
            return
        self.shuffle_curve.setData(np.arange(result.n_tokens), result.change)
        colour = "#27ae60" if result.equivariant else "#c0392b"
        self.shuffle_label.setText(f"<span style='color:{colour}'>{result.summary}</span>")

    # ---- interaction ------------------------------------------------------------------------------
    def _cell_at(self, scene_pos) -> tuple[A.AttentionView, int, int, float] | None:
        if self._view is None or not self.plot.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.plot.getViewBox().mapSceneToView(scene_pos)
        x, y = point.x(), point.y()
        for view in (self._zoom if self.zoom_image.isVisible() else None, self._view):
            if view is None or not (view.row_start <= y < view.row_stop and view.col_start <= x < view.col_stop):
                continue
            row = min(int((y - view.row_start) // view.row_bin), view.values.shape[1] - 1)
            col = min(int((x - view.col_start) // view.col_bin), view.values.shape[2] - 1)
            return view, row, col, float(view.values[self._head(), row, col])
        return None

    def describe(self, view: A.AttentionView, row: int, col: int) -> str:
        """Read-out text for one displayed cell of the chosen head."""
        rows, cols = view.cell_ranges(row, col)
        value = float(view.values[self._head(), row, col])
        name = shown(VALUE_LABELS[view.kind])
        if view.row_bin == 1 and view.col_bin == 1:
            q, k = rows.start, cols.start
            words = ""
            if view.words:
                words = f" ('{view.token(q)}' → '{view.token(k)}')"
                if view.spec.embedding_source:  # which vectors came from the checkpoint
                    words = f" ('{view.token(q)}' [{view.token_source(q)}] → '{view.token(k)}' [{view.token_source(k)}])"
            masked = (view.spec.causal and k > q) or not np.isfinite(value)
            said = (translate("Attention", "masked (a future key: no weight at all, not a weight of 0)") if masked
                    else f"{name} {value:.4g}")
            return translate("Attention", "head {head}: query {query}, key {key}{words}, distance {distance}: "
                             "{value}").format(head=self._head(), query=f"{q:,}", key=f"{k:,}", words=words,
                                               distance=f"{q - k:,}", value=said)
        dmin, dmax = rows.start - (cols.stop - 1), (rows.stop - 1) - cols.start
        if view.masked_cells()[row, col] or not np.isfinite(value):
            said = translate("Attention", "all masked (future keys: no weight at all)")
        else:
            said = f"{value:.4g}"
            if view.partly_masked(row, col):
                said += (translate("Attention", " (partly masked: the masked entries count as 0 in the mean)")
                         if view.pooling == "mean" else translate("Attention", " (partly masked)"))
            pooled = (translate("Attention", "mean {value}") if view.pooling == "mean"
                      else translate("Attention", "max {value}"))
            said = pooled.format(value=f"{name} {said}")
        return translate("Attention", "head {head}: queries {first_query}–{last_query}, keys {first_key}–{last_key}, "
                         "distance {nearest} … {farthest}: {value}").format(
            head=self._head(), first_query=f"{rows.start:,}", last_query=f"{rows.stop - 1:,}",
            first_key=f"{cols.start:,}", last_key=f"{cols.stop - 1:,}", nearest=f"{dmin:,}", farthest=f"{dmax:,}",
            value=said)

    def _hover(self, scene_pos) -> None:
        cell = self._cell_at(scene_pos)
        if cell is not None:
            view, row, col, _ = cell
            self.readout.setText(self.describe(view, row, col))

    def _click(self, event) -> None:
        for h, (box, _, _) in enumerate(self.small):
            if box.sceneBoundingRect().contains(event.scenePos()):
                self.select_head(h)
                return
        if event.double() and self.plot.sceneBoundingRect().contains(event.scenePos()):
            self.reset_zoom()

    def readout_at(self, key: float, query: float) -> str:
        """The hover read-out at (key, query) of the large matrix, as the mouse there would give it."""
        self._hover(self.plot.getViewBox().mapViewToScene(QPointF(key, query)))
        return self.readout.text()

    @property
    def shuffle_result(self) -> A.ShuffleResult | None:
        """The shuffle test shown, or None (not run, or run for other inputs)."""
        return self._shuffle

    @property
    def zoom_view(self) -> A.AttentionView | None:
        """The zoomed region drawn over the overview at finer resolution, or None."""
        return self._zoom if self.zoom_image.isVisible() else None

    def shown_arrays(self) -> dict[str, np.ndarray]:
        """What the plots draw now (tests, scripts): the large matrix as drawn, each head's distance
        profile and entropy curve (rows = heads) with their x values, and ALiBi's log₂ slopes."""
        out: dict[str, np.ndarray] = {}
        if self.image.image is not None:
            out["matrix"] = np.asarray(self.image.image)
        if self._profile_curves:
            out["profile_distances"] = np.asarray(self._profile_curves[0].xData)
            out["profile"] = np.stack([np.asarray(c.yData) for c in self._profile_curves])
            out["entropy_positions"] = np.asarray(self._entropy_curves[0].xData)
            out["entropy"] = np.stack([np.asarray(c.yData) for c in self._entropy_curves])
        curve = self._temperature_curve
        if curve is not None and curve.yData is not None and len(curve.yData):
            out["temperature_entropy"] = np.asarray(curve.yData)
        if getattr(self, "_slope_bars", None) is not None and self.scheme_plot.isVisible():
            out["alibi_log2_slopes"] = np.asarray(self._slope_bars.yData)
        return out

    def select_head(self, head: int) -> None:
        self._edit("head", int(head))

    def reset_zoom(self) -> None:
        self.plot.getViewBox().autoRange(padding=0)
        if self._zoom is not None:
            self._zoom = None
            self._draw()

    def zoom_to(self, rows: tuple[int, int], cols: tuple[int, int]) -> None:
        """Show a region (as a mouse zoom would) and ask for it at full resolution."""
        self.plot.getViewBox().setRange(xRange=cols, yRange=rows, padding=0)
        self._request_zoom()

    # ---- export hooks -----------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        view = self._view
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
        if self._shuffle is not None:
            out["shuffle_change"] = self._shuffle.change
        if view.temperature_entropy is not None:
            out["temperature_entropy"] = view.temperature_entropy
        return out

    def export_title(self) -> str:
        view = self._view
        if view is None:
            return shown(self.title)
        return translate("Attention", "Attention — {scheme}, {value}, head {head}").format(
            scheme=shown(A.SCHEME_LABELS[view.spec.scheme]), value=shown(VALUE_LABELS[view.kind]), head=self._head())


DOCK = AttentionDock
