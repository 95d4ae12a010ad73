"""The Checkpoint panel's per-layer map: a strip with one cell per layer, coloured by its scheme,
over a table with one row per kind of layer (which layers, position scheme, RoPE base, window or
chunks, sinks and temperature tuning, and the K/V memory those layers hold at the model's context
length).  Hovering a cell names that layer's scheme; clicking it selects its row in the table.
Reads a ``peapp.checkpoints.layer_schemes.LayerMap``; it changes nothing in the Document.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QSizePolicy, QTableWidget, QTableWidgetItem,
                               QToolTip, QVBoxLayout, QWidget)

from peapp.i18n import msg, translate
from peapp.memory import human_bytes
from ui import i18n

# Okabe–Ito: told apart with the common colour-vision deficiencies
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999")
COLUMNS = (msg("LayerMap", "layers"), msg("LayerMap", "count"), msg("LayerMap", "position"),
           msg("LayerMap", "RoPE base"), msg("LayerMap", "attention span"), msg("LayerMap", "sinks / temperature"),
           msg("LayerMap", "K/V cache"))
TIPS = (msg("LayerMap", "The layers of this kind (runs of consecutive layers)"),
        msg("LayerMap", "How many layers are of this kind"),
        msg("LayerMap", "The position scheme inside these layers' attention: RoPE, NoPE (none), or the model's "
                        "scheme at the input"),
        msg("LayerMap", "The RoPE base (θ) these layers rotate with, and its scaling"),
        msg("LayerMap", "Global: every earlier key; a sliding window: only the last keys; chunks: only keys in the "
                        "query's chunk"),
        msg("LayerMap", "Learned sinks: one learned logit per head joins the softmax. Temperature tuning: the "
                        "query grows with position (Llama 4, NoPE layers)"),
        msg("LayerMap", "Keys and values these layers hold at the model's context length, before loading (a "
                        "window bounds it)"))


class LayerStrip(QWidget):
    """One cell per layer, coloured by its kind; hover says the layer's scheme, a click picks it."""

    layerClicked = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("layerStrip")
        self.setMouseTracking(True)
        self.setMinimumHeight(18)
        self.setMaximumHeight(22)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.colours: list[str] = []
        self.texts: list[str] = []
        self.selected: int | None = None

    def set_layers(self, colours: list[str], texts: list[str]) -> None:
        self.colours, self.texts, self.selected = colours, texts, None
        self.update()

    def cell_rect(self, i: int) -> QRectF:
        w = self.width() / max(1, len(self.colours))
        return QRectF(i * w, 0, w, self.height())

    def layer_at(self, x: float) -> int | None:
        n = len(self.colours)
        if not n or not 0 <= x < self.width():
            return None
        return min(n - 1, int(x * n / self.width()))

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        n = len(self.colours)
        gap = 1.0 if self.width() / max(1, n) > 4 else 0.0
        for i, colour in enumerate(self.colours):
            r = self.cell_rect(i).adjusted(0, 0, -gap, 0)
            p.fillRect(r, QColor(colour))
        if self.selected is not None and self.selected < n:
            p.setPen(QPen(QColor("black"), 2))
            p.drawRect(self.cell_rect(self.selected).adjusted(1, 1, -1, -1))
        p.end()

    def event(self, e) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            i = self.layer_at(e.pos().x())
            if i is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(e.globalPos(), translate("LayerMap", "layer {i}: {scheme}")
                                  .format(i=i, scheme=self.texts[i]), self)
            return True
        return super().event(e)

    def mousePressEvent(self, e) -> None:
        i = self.layer_at(e.position().x())
        if i is not None and e.button() == Qt.MouseButton.LeftButton:
            self.selected = i
            self.update()
            self.layerClicked.emit(i)


class LayerMapBox(QWidget):
    """Title, strip and table of an opened checkpoint's layer map (hidden without one)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("checkpointLayers")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(2)
        self.title = QLabel()
        self.title.setObjectName("layerMapTitle")
        self.title.setWordWrap(True)
        self.strip = LayerStrip()
        self.strip.layerClicked.connect(self._layer_clicked)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("layerMapTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        i18n.keep_updated(self.table, self._headers)
        self.readout = QLabel()
        self.readout.setObjectName("layerMapReadout")
        self.readout.setWordWrap(True)
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for w in (self.title, self.strip, self.table, self.readout):
            layout.addWidget(w)
        self.layer_map = None
        self.groups: list = []
        self.hide()

    def _headers(self) -> None:
        for col, (name, tip) in enumerate(zip(COLUMNS, TIPS)):
            item = QTableWidgetItem(i18n.shown(name))
            item.setToolTip(i18n.shown(tip))
            self.table.setHorizontalHeaderItem(col, item)

    def show_map(self, layer_map, facts) -> None:
        """Fill from ``layer_map`` (None: hide) and the model's facts (for the memory column)."""
        from peapp.checkpoints.layer_schemes import memory_at

        self.layer_map = layer_map
        if layer_map is None:
            self.hide()
            return
        self.groups = layer_map.groups()
        length = facts.get("context_length")
        memory = None
        if isinstance(length, int) and facts.get("head_dim"):
            memory, _size, why = memory_at(layer_map, facts, length)
        self.title.setText(translate("LayerMap", "<b>Layers</b>: {n}, {kinds} kind(s), read from {source} ({keys})")
                           .format(n=len(layer_map), kinds=len(self.groups), source=layer_map.source,
                                   keys=", ".join(layer_map.keys) or translate("LayerMap", "the layer count")))
        self.title.setToolTip("\n".join(layer_map.notes))
        colour_of = {g.indices: PALETTE[i % len(PALETTE)] for i, g in enumerate(self.groups)}
        colours, texts = [""] * len(layer_map), [""] * len(layer_map)
        for g in self.groups:
            text = g.scheme.describe()
            for i in g.indices:
                colours[i], texts[i] = colour_of[g.indices], text
        self.strip.set_layers(colours, texts)
        self.table.setRowCount(len(self.groups))
        for row, g in enumerate(self.groups):
            s = g.scheme
            extras = [translate("LayerMap", "learned sinks")] if s.sinks else []
            if s.temperature is not None:
                extras.append(translate("LayerMap", "temperature ×{scale} per {floor} tokens")
                              .format(scale=f"{s.temperature.attn_scale:g}", floor=f"{s.temperature.floor_scale:,}"))
            cells = [g.ranges, str(len(g.indices)), _position(s), _base(s), _span(s), ", ".join(extras) or "—",
                     "—" if memory is None else translate("LayerMap", "{bytes} ({keys} keys held)")
                     .format(bytes=human_bytes(memory[row].kv_bytes), keys=f"{memory[row].keys_held:,}")]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(translate("LayerMap", "layers {ranges}: {scheme}").format(ranges=g.ranges,
                                                                                        scheme=s.describe()))
                if col == 0:
                    item.setBackground(QColor(colour_of[g.indices]))
                    c = QColor(colour_of[g.indices])  # black text on light cells (luma), white on dark
                    item.setForeground(QColor("black") if 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue()
                                       > 140 else QColor("white"))
                self.table.setItem(row, col, item)
        if memory is not None:
            self.table.horizontalHeaderItem(len(COLUMNS) - 1).setText(
                translate("LayerMap", "K/V cache at {n} tokens").format(n=f"{length:,}"))
        rows_height = sum(self.table.rowHeight(r) for r in range(len(self.groups)))
        self.table.setFixedHeight(rows_height + self.table.horizontalHeader().sizeHint().height() + 4)
        self.readout.setText(translate("LayerMap", "Hover the strip for each layer's scheme; click a layer to "
                                                   "find its kind in the table."))
        self.show()

    def _layer_clicked(self, i: int) -> None:
        row = next((r for r, g in enumerate(self.groups) if i in g.indices), None)
        if row is None:
            return
        self.table.selectRow(row)
        self.readout.setText(translate("LayerMap", "layer {i}: {scheme}").format(
            i=i, scheme=self.groups[row].scheme.describe()))

    def selected_row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None


def _position(s) -> str:
    if s.position == "rope":
        return "RoPE"
    if s.position == "nope":
        return translate("LayerMap", "NoPE")
    return s.describe().split(",")[0]


def _base(s) -> str:
    if s.rope is None:
        return "—"
    from peapp.checkpoints.layer_schemes import base_text

    text = base_text(s.rope.theta)
    if s.rope.scaling_problem:
        return text + " " + translate("LayerMap", "(unusable {kind} scaling)").format(kind=s.rope.rope_type)
    if s.rope.rope_type != "default":
        factor = s.rope.scaling.get("factor")
        text += f", {s.rope.rope_type}" + (f" ×{factor:g}" if isinstance(factor, (int, float)) else "")
    if s.rope.rotary_dim and s.rope.head_dim and s.rope.rotary_dim != s.rope.head_dim:
        text += ", " + translate("LayerMap", "{rotated} of {dims} dims rotate").format(rotated=s.rope.rotary_dim,
                                                                                   dims=s.rope.head_dim)
    return text


def _span(s) -> str:
    if s.position == "none":
        return "—"
    if s.window:
        return (translate("LayerMap", "sliding window ±{n}") if s.both_sides else
                translate("LayerMap", "sliding window {n}")).format(n=f"{s.window:,}")
    if s.chunk:
        return translate("LayerMap", "chunks of {n}").format(n=f"{s.chunk:,}")
    return translate("LayerMap", "global")
