"""The attention-matrix inspector: what each positional scheme does to attention.

One large heatmap of the chosen head (queries × keys) with a colour bar and hover read-out, a
grid of small heatmaps of every head (click one to enlarge it), the mean attention by
distance, the entropy of each query's attention, ALiBi's slopes or T5's bucket staircase, and
the shuffle-tokens test.  The matrices come from ``peapp.analysis.attention``: long sequences
arrive pooled, and zooming asks for the visible region again at full resolution.  The dock's
own settings live in ``document.views["attention"]`` (spec: ``peapp.views.attention``, built into
controls by ``ui.forms``); scheme settings (RoPE base and
scaling, T5 buckets, …) are the parameters of that family in the parameters dock.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import (QGridLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSplitter, QVBoxLayout,
                               QWidget)
from superqt.utils import qthrottled

from peapp.analysis import attention as A
from peapp.analysis.levels import LOG_DECADES, colour_levels
from peapp.document import Document
from peapp.errors import PeappError
from peapp.views.attention import KIND_LABELS, TOKEN_LABELS, AttentionView
from ui import settings as preferences
from ui.docks.base import ViewDock
from ui.forms import Form, Spin
from ui.plotting import draw_as_path

DIVERGING = "CET-D1A"
SEQUENTIAL = "viridis"
VALUE_LABELS = {"softmax": "attention weight", "logits": "logit", "position": "position term"}
# the controls, in the order of their rows
CONTROLS = ("scheme", "seq_len", "n_heads", "head_dim", "tokens", "sentence", "seed", "kind", "pooling", "head",
            "causal", "unit_scale", "log_scale")
MAX_SMALL_HEADS = 16  # small multiples drawn; more heads are reachable with the head box
THROTTLE_MS = 60


def _shown(values: np.ndarray, kind: str, log: bool) -> np.ndarray:
    """What the image draws: the values, or log₁₀ of attention weights (0 drawn at the floor)."""
    if kind == "softmax" and log:
        return np.log10(np.maximum(values, 1e-30))
    return values


def _levels(values: np.ndarray, kind: str, unit: bool = False, log: bool = False) -> tuple[tuple[float, float], bool]:
    """Colour levels and whether they are diverging, by the app's one policy
    (``peapp.analysis.levels``): weights on the "weights" scale (0 … 1 or 0 … the largest, or
    LOG_DECADES decades on a log scale), logits and position terms "signed" — exact ranges, not
    clipped: the extremes of a matrix are what it is read for.  ``values`` are the data, not the log."""
    shown = colour_levels(values, "weights" if kind == "softmax" else "signed", robust=False, unit=unit, log=log)
    return shown.levels, shown.diverging


def _pixels(view: pg.ViewBox) -> int:
    size = max(view.width(), view.height()) * (view.devicePixelRatioF() if hasattr(view, "devicePixelRatioF") else 1)
    return int(min(1024, max(128, size)))


_VIEW_KINDS = {"attention": "softmax", "attention-logits": "logits", "attention-position": "position"}


def received_caption(view: A.AttentionView, head: int) -> str:
    """What the "attention each key receives" plot shows, and what it does not."""
    rows = len(view.entropy_positions)
    over = f"all {rows:,} queries" if rows == view.spec.seq_len else f"{rows:,} evenly spaced queries"
    summary = A.received_summary(view.received[head])
    text = (f"Attention each key receives, head {head} (log scale): orange = mean over {over}"
            + (f" ({summary})" if summary else "") + "; blue = the last query")
    if view.spec.causal:
        text += ("; dashed = the causal mask alone, uniform attention: (1/L)·Σ_{i≥j} 1/(i+1). The mask lets early keys "
                 "collect weight from every later query (primacy)")
    text += ("; distance decay (ALiBi, RoPE's long-range decay) favours recent keys (recency): a mechanism for a U "
             "shape, computed from the encoding alone in one seeded, untrained layer. The U-shaped accuracy curve "
             "itself (a passage is used best at the start or end of a long prompt, worst in the middle) is an "
             "empirical result of Liu et al. 2023 (\"Lost in the Middle\") on trained models, not reproduced here.")
    return text


def received_short_caption(view: A.AttentionView, head: int) -> str:
    """Two lines under the plots; the full caption is the tooltip."""
    summary = A.received_summary(view.received[head])
    cause = ("primacy from the causal mask and recency from distance decay are" if view.spec.causal
             else "recency from distance decay is")
    return (f"Attention each key receives, head {head}" + (f": {summary}" if summary else "")
            + f". Orange: mean over queries; blue: last query. The {cause} computed from the encoding alone; "
            "the U-shaped accuracy curve is an empirical result of Liu et al. 2023 (\"Lost in the Middle\") on "
            "trained models, not shown here. Hover for details.")


class AttentionDock(ViewDock):
    object_name = "attentionDock"
    view_id = AttentionView.view_id
    title = "Attention inspector"
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
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self._build_matrices())
        plots = self._build_plots()
        # the profile/entropy/received/shuffle plots stay readable on a 768-pixel screen, notes below them
        plots.setMinimumHeight(210)
        splitter.addWidget(plots)
        splitter.setChildrenCollapsible(False)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        outer.addWidget(splitter, 1)
        self.readout = QLabel("Hover over a matrix for query, key, distance and value; click a small one to enlarge it.")
        self.readout.setObjectName("attentionReadout")
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.readout)
        self.set_body(body)

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
                                "head_dim": Spin(separators=True, step=2)},
                         object_names={n: f"attention_{n}" for n in CONTROLS}, throttle_ms=THROTTLE_MS)
        self.controls: dict[str, QWidget] = self.form.widgets
        for name, labels in (("scheme", A.SCHEME_LABELS), ("tokens", TOKEN_LABELS)):
            combo = self.controls[name]
            for i in range(combo.count()):
                combo.setItemText(i, labels.get(combo.itemData(i), combo.itemText(i)))
        for name in ("causal", "unit_scale", "log_scale"):  # a check box says what it is itself
            self.controls[name].setText(AttentionView.info(name).label)
        sentence = self.controls["sentence"]

        # Three short rows, so the dock fits beside the parameters on a 1366-pixel screen.
        rows = [
            [("Scheme", "scheme"), ("Tokens", "seq_len"), ("Heads", "n_heads"), ("head_dim", "head_dim")],
            [("From", "tokens"), ("Sentence", "sentence"), ("Seed", "seed")],
            [("Show", "kind"), (None, "pooling"), ("Head", "head"), (None, "causal"), (None, "unit_scale"),
             (None, "log_scale")],
        ]
        for r, items in enumerate(rows):
            line = QHBoxLayout()
            for text, name in items:
                if text:
                    label = self.form.labels[name]
                    label.setText(text)  # short: the full label and help are the tooltip
                    line.addWidget(label)
                line.addWidget(self.controls[name], 2 if name in ("sentence", "scheme") else 0)
            line.addStretch(0)
            grid.addLayout(line, r, 0, 1, 12)
        sentence.setMinimumWidth(120)
        sentence.setPlaceholderText(sentence.placeholderText() or "type a sentence; each word becomes a token")

        row = QHBoxLayout()
        self.shuffle_button = QPushButton("Shuffle tokens")
        self.shuffle_button.setObjectName("attentionShuffle")
        self.shuffle_button.setToolTip("Shuffle the input tokens (positions stay) and compare the outputs with the "
                                       "shuffled originals: equal only without position information and mask.")
        self.shuffle_button.clicked.connect(self.run_shuffle)
        reset = QPushButton("Reset zoom")
        reset.setToolTip("Show the whole matrix again (double-click does the same)")
        reset.clicked.connect(self.reset_zoom)
        self.progress = QProgressBar()
        self.progress.setObjectName("attentionProgress")
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(180)
        self.progress.setVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("attentionCancel")
        self.cancel_button.setToolTip("Stop this panel's computation; the previous picture stays")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setVisible(False)
        self.message = QLabel()
        self.message.setObjectName("attentionMessage")
        self.message.setStyleSheet("color: #c0392b;")
        self.message.setWordWrap(True)
        self.seeded_button = QPushButton("Seeded tables")
        self.seeded_button.setObjectName("attentionSeededTables")
        self.seeded_button.setToolTip("Stop using the checkpoint's trained T5 table and word embeddings: back to the "
                                      "seeded T5 table and hashed word vectors.")
        self.seeded_button.clicked.connect(self.use_seeded_tables)
        self.seeded_button.setVisible(False)
        row.addWidget(self.shuffle_button)
        row.addWidget(reset)
        row.addWidget(self.seeded_button)
        row.addWidget(self.progress)
        row.addWidget(self.cancel_button)
        row.addWidget(self.message, 1)
        grid.addLayout(row, 3, 0, 1, 12)
        return box

    def _build_matrices(self) -> QWidget:
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("attentionGraphics")
        self.plot = self.graphics.addPlot(row=0, col=0)
        self.plot.invertY(True)
        self.plot.setMenuEnabled(False)
        self.plot.setAspectLocked(False)
        self.plot.setLabel("left", "query position")
        self.plot.setLabel("bottom", "key position")
        self.image = pg.ImageItem(axisOrder="row-major")
        self.zoom_image = pg.ImageItem(axisOrder="row-major")
        self.zoom_image.setZValue(1)
        self.plot.addItem(self.image)
        self.plot.addItem(self.zoom_image)
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get(SEQUENTIAL), interactive=False, width=14)
        self.colorbar.setImageItem([self.image, self.zoom_image], insert_in=self.plot)
        self.grid = self.graphics.addLayout(row=0, col=1)
        self.small: list[tuple[pg.ViewBox, pg.ImageItem, pg.LabelItem]] = []
        self.graphics.ci.layout.setColumnStretchFactor(0, 3)
        self.graphics.ci.layout.setColumnStretchFactor(1, 2)
        return self.graphics

    def _build_plots(self) -> QWidget:
        self.plots = pg.GraphicsLayoutWidget()
        self.plots.setObjectName("attentionPlots")
        self._profile_curves: list[pg.PlotDataItem] = []  # one per head (_draw_plots)
        self._entropy_curves: list[pg.PlotDataItem] = []
        self.profile_plot = self.plots.addPlot(row=0, col=0, title="Mean attention by distance")
        self.profile_plot.setLabel("bottom", "distance (query − key)")
        self.profile_plot.setLabel("left", "mean weight")
        self.entropy_plot = self.plots.addPlot(row=0, col=1, title="Entropy of each query's attention")
        self.entropy_plot.setLabel("bottom", "query position")
        self.entropy_plot.setLabel("left", "nats")
        self.received_plot = self.plots.addPlot(row=0, col=2, title="Attention each key receives")
        self.received_plot.setLabel("bottom", "key position")
        self.received_plot.setLabel("left", "weight (log)")
        # log scale: the last query's weights span many decades under distance decay
        self.received_plot.setLogMode(y=True)
        self.received_mean = self.received_plot.plot(pen=pg.mkPen("#e67e22", width=2))
        self.received_last = self.received_plot.plot(pen=pg.mkPen("#2e86de", width=1))
        self.received_uniform = draw_as_path(self.received_plot.plot(pen=pg.mkPen("#aaa", style=Qt.PenStyle.DashLine)))
        for curve in (self.received_mean, self.received_last, self.received_uniform):
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
        self.scheme_plot = self.plots.addPlot(row=0, col=3)
        self.shuffle_plot = self.plots.addPlot(row=0, col=4, title="Shuffle tokens: change per position")
        self.shuffle_plot.setLabel("bottom", "position")
        self.shuffle_plot.setLabel("left", "relative change")
        for p in (self.profile_plot, self.entropy_plot, self.received_plot, self.scheme_plot, self.shuffle_plot):
            p.setMenuEnabled(False)
            p.showGrid(x=True, y=True, alpha=0.2)
        self.shuffle_curve = self.shuffle_plot.plot(pen=None, symbol="o", symbolSize=4, symbolBrush="#c0392b")
        self.shuffle_label = QLabel("Shuffle tokens: press the button to test whether order reaches the outputs.")
        self.shuffle_label.setObjectName("attentionShuffleResult")
        self.shuffle_label.setWordWrap(True)
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plots, 1)
        self.received_label = QLabel()
        self.received_label.setObjectName("attentionReceivedNote")
        self.received_label.setWordWrap(True)
        layout.addWidget(self.received_label)
        layout.addWidget(self.shuffle_label)
        return box

    # ---- settings ---------------------------------------------------------------------------------
    def settings(self, document: Document | None = None) -> dict[str, Any]:
        """This panel's settings in ``document`` (default: the current one), defaults filled in."""
        return self.view_spec(document).to_dict()

    def spec(self, document: Document | None = None) -> A.AttentionSpec:
        """What is computed: the sandbox layer's spec (the view's drawing choices left out)."""
        return self.view_spec(document).attention_spec()

    def _edit(self, name: str, value: Any) -> None:
        """A control changed: validate the whole view first; only valid settings reach the Document."""
        try:
            self.ctx.document.with_view(self.view_id, **{name: value})
        except PeappError as exc:
            self.message.setText(str(exc))
            self.ctx.status(str(exc))
            self._sync_controls(self.ctx.document)  # back to the last good values
            return
        self.message.clear()
        self.set_view(**{name: value})

    def set_settings(self, **values: Any) -> None:
        """Change several settings at once (scripts, tests); raises ParameterError if invalid."""
        self.ctx.document.with_view(self.view_id, **values)
        self.set_view(**values)

    def use_seeded_tables(self) -> None:
        """Forget the checkpoint's T5 table and embeddings (seeded table, hashed words again)."""
        self.set_view(t5_source="", embedding_source="")

    def _sync_controls(self, document: Document) -> None:
        values = self.settings(document)
        self.form.set_range("head", 0, max(0, int(values["n_heads"]) - 1))
        self.form.sync(values)  # signals blocked: showing the Document is not an edit
        sources = [text for key, text in (("t5_source", "T5 bias table"), ("embedding_source", "word embeddings"))
                   if values[key]]
        self.seeded_button.setVisible(bool(sources))
        if sources:
            self.seeded_button.setToolTip("Using the checkpoint's " + " and ".join(sources) + ": "
                                          + "; ".join(values[k] for k in ("t5_source", "embedding_source") if values[k])
                                          + ". Press to go back to the seeded T5 table and hashed word vectors.")
        self.controls["sentence"].setEnabled(values["tokens"] == "sentence")
        for name in ("unit_scale", "log_scale"):  # colour scales of attention weights
            self.controls[name].setEnabled(values["kind"] == "softmax")

    # ---- requests ---------------------------------------------------------------------------------
    def make_request(self, document: Document) -> A.AttentionRequest:
        values = self.settings(document)
        spec = self.spec(document)
        params = A.scheme_params_from_document(document, spec.scheme)
        A.scheme_spec(spec, params)  # the scheme's family settings must fit (e.g. learned table length)
        return A.AttentionRequest(spec=spec, scheme_params=params, kind=values["kind"], pooling=values["pooling"],
                                  max_bins=min(512, _pixels(self.plot.getViewBox())),
                                  device=preferences.compute_device())

    @staticmethod
    def _key(request: A.AttentionRequest) -> tuple:
        return (request.spec, request.scheme_params, request.kind, request.pooling, request.device)

    def _request_or_message(self, document: Document) -> A.AttentionRequest | None:
        try:
            request = self.make_request(document)
        except PeappError as exc:  # shown; the previous picture stays
            self.message.setText(str(exc))
            self.ctx.status(f"{self.title}: {exc}")
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
            settings = dict(document.views.get(self.view_id, {}))
            if settings != self._drawn_settings:
                self._drawn_settings = settings
                self._draw()
            return
        self._drawn_settings = dict(document.views.get(self.view_id, {}))
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
        self.shuffle_label.setText("Shuffling the tokens and recomputing the outputs…")
        self.submit_side("shuffle", A.ShuffleRequest(spec=spec, scheme_params=params,
                                                     device=preferences.compute_device()))

    def _request_zoom(self) -> None:
        """After a zoom or pan: recompute the visible region at full resolution if the overview is pooled."""
        view = self._view
        if view is None or self._request_key is None:
            return
        (x0, x1), (y0, y1) = self.plot.getViewBox().viewRange()
        r0, r1 = max(0, int(np.floor(y0))), min(view.spec.seq_len, int(np.ceil(y1)))
        c0, c1 = max(0, int(np.floor(x0))), min(view.spec.seq_len, int(np.ceil(x1)))
        pixels = _pixels(self.plot.getViewBox())
        # Refine only when the overview is clearly coarser than the screen: the whole matrix drawn
        # at 512 bins on a 700-pixel plot is not worth computing a second time (it was, after
        # every result, and held the worker for as long as the view itself).
        needed = max(1, math.ceil(max(r1 - r0, c1 - c0) / pixels))
        coarse = max(view.row_bin, view.col_bin) > 1.5 * needed
        if r1 <= r0 or c1 <= c0 or not coarse:
            self._zoom = None
            self.zoom_image.setVisible(False)
            return
        req = self._request_key
        self.submit_side("zoom", A.AttentionRequest(spec=req[0], scheme_params=req[1], kind=req[2], pooling=req[3],
                                                    rows=(r0, r1), cols=(c0, c1), max_bins=pixels,
                                                    with_profile=False, device=req[4]))

    def cancel(self) -> None:
        """Stop this dock's running and pending computations; the last picture stays."""
        for channel in (self.object_name, f"{self.object_name}:zoom", f"{self.object_name}:shuffle"):
            self.ctx.worker.cancel(channel)
        self._busy_channels.clear()
        self._update_busy()
        self.ctx.status(f"{self.title}: cancelled; the previous picture is kept.")

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
                self.shuffle_label.setText(f"Shuffle test failed: {message}")
            else:
                self.message.setText(message)

    # ---- results ----------------------------------------------------------------------------------
    def show_result(self, result: A.AttentionView) -> None:
        self._set_busy(self.object_name, False)
        first = self._view is None or self._view.spec.seq_len != result.spec.seq_len
        self._view = result
        self._zoom = None
        self.zoom_image.setVisible(False)
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
        label = ("log₁₀ " if log else "") + VALUE_LABELS[view.kind] + \
            ("" if view.full_resolution else f" ({view.pooling} per cell)")
        self.colorbar.axis.setLabel(label)
        self.plot.setTitle(f"head {head}: {KIND_LABELS[view.kind].lower()}")
        self.set_caption(self._caption(view, head))
        self._draw_small(view, head)
        self._draw_zoom()
        self._highlight_plots(head)

    def _caption(self, view: A.AttentionView, head: int) -> str:
        text = A.caption(view)
        if view.slopes is not None:
            slope = float(view.slopes[head])
            text += f" Head {head} subtracts {slope:.4g}·distance (1/{1 / slope:.4g})."
        if view.spec.n_heads > MAX_SMALL_HEADS:
            text += f" The grid shows heads 0–{MAX_SMALL_HEADS - 1}; choose any head with the Head box."
        if view.kind == "softmax":
            top = "1" if self.settings()["unit_scale"] else "the largest weight shown"
            text += (f" Colours: log₁₀ of the weight, from {LOG_DECADES} decades below {top} up to it." if self._log()
                     else f" Colours run from 0 to {top}.")
        return text

    def _draw_small(self, view: A.AttentionView, head: int) -> None:
        n = min(view.spec.n_heads, MAX_SMALL_HEADS)
        if len(self.small) != n:
            self.grid.clear()
            self.small = []
            cols = math.ceil(math.sqrt(n))
            for h in range(n):
                label = self.grid.addLabel(f"head {h}", row=2 * (h // cols), col=h % cols, size="8pt")
                box = self.grid.addViewBox(row=2 * (h // cols) + 1, col=h % cols, lockAspect=False,
                                           enableMouse=False, invertY=True)
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
            label.setText(f"<b>head {h} ◀</b>" if bold else f"head {h}", size="8pt")

    def _draw_zoom(self) -> None:
        zoom, view = self._zoom, self._view
        if zoom is None or view is None:
            self.zoom_image.setVisible(False)
            return
        values = zoom.values[self._head()]
        self.zoom_image.setImage(_shown(values, zoom.kind, self._log()), autoLevels=False)
        # the zoomed region is finer than the overview (pooled means are smaller): rescale the colours to it
        levels, _ = _levels(values, zoom.kind, bool(self.settings()["unit_scale"]), self._log())
        self.colorbar.setLevels(levels)
        self.zoom_image.setRect(QRectF(zoom.col_start, zoom.row_start, zoom.col_stop - zoom.col_start,
                                       zoom.row_stop - zoom.row_start))
        self.zoom_image.setVisible(True)
        detail = "full resolution" if zoom.full_resolution else zoom.reduction
        self.set_caption(self._caption(view, self._head()) +
                         f" Zoomed: queries {zoom.row_start:,}–{zoom.row_stop - 1:,} × keys {zoom.col_start:,}–"
                         f"{zoom.col_stop - 1:,} recomputed at {detail}; colours rescaled to this region.")

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
            self._entropy_uniform = draw_as_path(self.entropy_plot.plot(
                pen=pg.mkPen("#888", style=Qt.PenStyle.DashLine), name="uniform"))
        for h in range(view.spec.n_heads):
            self._profile_curves[h].setData(view.distances, view.profile[h])
            self._entropy_curves[h].setData(view.entropy_positions, view.entropy[h])
        # the most spread-out attention possible: uniform over the keys a query may see
        keys = (view.entropy_positions + 1) if view.spec.causal else np.full(len(view.entropy_positions), view.spec.seq_len)
        self._entropy_uniform.setData(view.entropy_positions, np.log(keys))
        if view.slopes is not None:
            self.scheme_plot.setVisible(True)
            self.scheme_plot.setTitle("ALiBi slope per head (slope = 2^y)")
            self.scheme_plot.setLabel("bottom", "head")
            self.scheme_plot.setLabel("left", "log₂ slope")
            self._slope_bars = self.scheme_plot.plot(np.arange(len(view.slopes)), np.log2(view.slopes),
                                                     pen=pg.mkPen("#999"), symbol="o", symbolSize=8,
                                                     symbolBrush="#2e86de")
            self._slope_mark = self.scheme_plot.plot([], [], pen=None, symbol="o", symbolSize=11,
                                                     symbolBrush="#e67e22")
        elif view.t5_buckets is not None:
            self._slope_bars = None
            self.scheme_plot.setVisible(True)
            self.scheme_plot.setTitle("T5 buckets: relative position → bucket")
            self.scheme_plot.setLabel("bottom", "key − query")
            self.scheme_plot.setLabel("left", "bucket")
            rel, buckets = view.t5_relative, view.t5_buckets
            self.scheme_plot.plot(np.append(rel, rel[-1] + 1), buckets, stepMode="center",
                                  pen=pg.mkPen("#2e86de", width=1.5))
        else:
            self._slope_bars = None
            self.scheme_plot.setVisible(False)
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
        self.received_label.setText(received_short_caption(view, head))
        self.received_label.setToolTip(received_caption(view, head))
        self.received_plot.setToolTip(received_caption(view, head))

    def _highlight_plots(self, head: int) -> None:
        self._draw_received(head)
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
            self.shuffle_label.setText("Shuffle tokens: press the button to test whether order reaches the outputs.")
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
        name = VALUE_LABELS[view.kind]
        if view.row_bin == 1 and view.col_bin == 1:
            q, k = rows.start, cols.start
            words = ""
            if view.words:
                words = f" ('{view.token(q)}' → '{view.token(k)}')"
                if view.spec.embedding_source:  # which vectors came from the checkpoint
                    words = f" ('{view.token(q)}' [{view.token_source(q)}] → '{view.token(k)}' [{view.token_source(k)}])"
            shown = "masked (future key)" if not np.isfinite(value) else f"{value:.4g}"
            return f"head {self._head()}: query {q:,}, key {k:,}{words}, distance {q - k:,}: {name} {shown}"
        dmin, dmax = rows.start - (cols.stop - 1), (rows.stop - 1) - cols.start
        shown = "all masked" if not np.isfinite(value) else f"{value:.4g}"
        return (f"head {self._head()}: queries {rows.start:,}–{rows.stop - 1:,}, keys {cols.start:,}–{cols.stop - 1:,}, "
                f"distance {dmin:,} … {dmax:,}: {view.pooling} {name} {shown}")

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
        return out

    def export_title(self) -> str:
        view = self._view
        if view is None:
            return self.title
        return f"Attention — {A.SCHEME_LABELS[view.spec.scheme]}, {VALUE_LABELS[view.kind]}, head {self._head()}"


DOCK = AttentionDock
