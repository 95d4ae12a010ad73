"""The worked example: a word's embedding, its positional vector, and what the model sees.

Starts at the article's own case ("DataCamp", d_model 4, position 0: [0.51, −0.22, 0.88, 0.14]
+ [0, 1, 0, 1] = [0.51, 0.78, 0.88, 1.14]).  Bars and a table show the numbers; the pair view
shows one pair of dimensions as arrows: added schemes move the tip (length and direction
change), RoPE turns it on its circle (length kept).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QGridLayout, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)
from superqt.utils import signals_blocked

from peapp.i18n import msg
from peapp.analysis import worked_example as we
from peapp.document import Document
from ui import i18n
from ui.docks.base import error_label, readout_label
from peapp.views.example import ExampleView
from ui.docks._settings import SettingsDock
from ui.forms import Combo, Line, Slider, Spin, compact
from ui.plotting import draw_as_path, plot_at, relax_title_width

COLORS = {"embedding": "#2e86de", "positional": "#e67e22", "combined": "#27ae60", "other": "#8e44ad"}


class ExampleDock(SettingsDock):
    object_name = "exampleDock"
    view_id = "example"
    title = msg("Panels", "Worked example")
    tab_title = msg("Panels", "Example")
    order = 70
    shortcut = "Ctrl+7"
    view_names = ("example",)

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._result: we.WorkedExample | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)

        controls = QGridLayout()
        form = self.make_form(
            ("word", "source", "d_model", "scheme", "position", "other_position", "max_positions"),
            hints={"word": Line(min_width=80), "source": Combo(chars=12), "d_model": Spin(), "scheme": Combo(chars=12),
                   "position": Slider(), "other_position": Spin(tracking=True), "max_positions": Spin(separators=True)},
            object_names={"word": "exampleWord", "source": "exampleSource", "d_model": "exampleDModel",
                          "scheme": "exampleScheme", "position": "examplePosition",
                          "other_position": "exampleOtherPosition", "max_positions": "exampleTableRows"})
        self.word_edit, self.source_combo, self.d_spin = (form.widgets[k] for k in ("word", "source", "d_model"))
        self.scheme_combo, self.position_slider = form.widgets["scheme"], form.widgets["position"]
        self.other_spin, self.rows_spin = form.widgets["other_position"], form.widgets["max_positions"]
        self.rows_label = form.labels["max_positions"]
        preset = i18n.keep_text(QPushButton(), msg("Example", "Article's example"))
        preset.setObjectName("examplePreset")
        i18n.keep_tooltip(preset, msg("Example", "\"DataCamp\", d_model 4, position 0, sinusoidal, compared with "
                                                 "position 5"))
        preset.clicked.connect(self.load_article_example)
        # the pairs depend on the result (d_model, the scheme's pairing): filled by show_result
        self.pair_combo = compact(QComboBox(), 12)
        self.pair_combo.setObjectName("examplePair")
        i18n.keep_updated(self.pair_combo, lambda: self.pair_combo.setToolTip(i18n.shown(ExampleView.info("pair").help)))
        self.pair_combo.currentIndexChanged.connect(self._pair_chosen)
        # three compact rows, so the dock fits a 1000 px window next to the parameters
        form.add_to_grid(controls, [("word", "source", "d_model"), ("scheme", "position", "other_position")])
        controls.addWidget(preset, 2, 0, 1, 2)
        rows_box = QHBoxLayout()
        rows_box.addWidget(self.rows_label)
        rows_box.addWidget(self.rows_spin)
        rows_box.addStretch(1)
        pair_label = QLabel()
        i18n.keep_updated(pair_label, lambda: pair_label.setText(i18n.shown(ExampleView.info("pair").label)))
        rows_box.addWidget(pair_label)
        rows_box.addWidget(self.pair_combo)
        controls.addLayout(rows_box, 2, 2, 1, 4)
        controls.setColumnStretch(1, 1)
        controls.setColumnStretch(3, 2)
        layout.addLayout(controls)

        self.table = QTableWidget()
        self.table.setObjectName("exampleTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("exampleGraphics")
        self.bars_plot = self.graphics.addPlot(enableMenu=False, row=0, col=0)
        relax_title_width(self.bars_plot)
        self.bars_plot.showGrid(y=True, alpha=0.25)
        i18n.keep_updated(self.bars_plot, lambda: (
            self.bars_plot.setLabel("bottom", i18n.translate("Example", "dimension")),
            self.bars_plot.setLabel("left", i18n.translate("Example", "value"))))
        self.bars_plot.addLegend(offset=(5, 5))
        self.bars: dict[str, pg.BarGraphItem] = {}
        for key in ("embedding", "positional", "combined"):
            item = pg.BarGraphItem(x=[], height=[], width=0.26, brush=COLORS[key], pen=pg.mkPen(None))
            self.bars[key] = item
            self.bars_plot.addItem(item)
        self.other_points = self.bars_plot.plot([], [], pen=None, symbol="d", symbolSize=8,
                                                symbolBrush=COLORS["other"])
        self.bars_plot.addLine(y=0, pen=pg.mkPen("#888", width=1))

        self.pair_plot = self.graphics.addPlot(enableMenu=False, row=0, col=1)
        relax_title_width(self.pair_plot)
        self.pair_plot.setAspectLocked(True)
        self.pair_plot.showGrid(x=True, y=True, alpha=0.25)
        self.pair_circle = draw_as_path(self.pair_plot.plot([], [], pen=pg.mkPen("#aaa", width=1,
                                                                             style=Qt.PenStyle.DashLine)))
        self.pair_items = {key: self.pair_plot.plot([], [], pen=pg.mkPen(COLORS[key], width=2.5),
                                                   symbol="o", symbolSize=7, symbolBrush=COLORS[key],
                                                   symbolPen=None) for key in COLORS}
        self.graphics.ci.layout.setColumnStretchFactor(0, 3)
        self.graphics.ci.layout.setColumnStretchFactor(1, 2)


        layout.addWidget(self.table)
        layout.addWidget(self.graphics, 1)
        self.error_label = error_label("exampleError")
        layout.addWidget(self.error_label)
        self.readout = readout_label("exampleReadout")
        i18n.keep(self.readout.setText, msg("Example", "Hover over the bars for the numbers of a dimension."), self.readout)
        layout.addWidget(self.readout)
        self.set_body(body)
        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.sync_controls(self.ctx.document)

    # ---- settings and requests -------------------------------------------------------------------
    def load_article_example(self) -> None:
        article = ExampleView.article()
        self.set_setting(**{name: getattr(article, name) for name in ("word", "source", "d_model", "scheme", "position",
                                                                       "other_position", "pair")})

    def on_setting_edited(self, name: str, value) -> None:
        if name in ("word", "source", "d_model"):
            self._set_consistent(**{name: value})
        else:
            self.set_setting(**{name: value})

    def _set_consistent(self, **change) -> None:
        """Keep the article's vector tied to its case: it is "DataCamp" in 4 dimensions.

        Choosing it sets that word and width; changing the word or the width away from it
        switches to the hashed embedding (which exists for any word and width).
        """
        current = {key: self.setting(key) for key in ("word", "source", "d_model")}
        if change.get("source") == "article":
            change.update(word=we.ARTICLE_WORD, d_model=len(we.ARTICLE_EMBEDDING))
        elif current["source"] == "article" and "source" not in change and (
                change.get("word", we.ARTICLE_WORD).strip() != we.ARTICLE_WORD
                or change.get("d_model", len(we.ARTICLE_EMBEDDING)) != len(we.ARTICLE_EMBEDDING)):
            change["source"] = "hashed"
        if any(current.get(k) != v for k, v in change.items()):
            self.set_setting(**change)

    def sync_controls(self, document: Document) -> None:
        super().sync_controls(document)
        self.form.set_row_visible("max_positions", self.setting("scheme", document) == "learned")

    def make_request(self, document: Document) -> we.WorkedExampleRequest:
        return self.view_spec(document).request()

    def on_failed(self, message: str) -> None:
        # e.g. a learned table asked for a row it does not have: that error *is* the lesson
        self.error_label.setText(message)
        self.error_label.setVisible(True)

    def _pair_chosen(self, index: int) -> None:
        if index >= 0:
            self.set_setting(pair=index)
            self._draw_pair()

    # ---- drawing -----------------------------------------------------------------------------------
    def show_result(self, result: we.WorkedExample) -> None:
        self._result = result
        self.error_label.setVisible(False)
        d = len(result.embedding)
        x = np.arange(d, dtype=float)
        rope = result.scheme == "rope"
        self.bars["embedding"].setOpts(x=x - 0.28, height=result.embedding, width=0.26)
        self.bars["positional"].setOpts(x=x, height=np.zeros(d) if rope else result.positional,
                                        width=0.26)
        self.bars["positional"].setVisible(not rope and result.scheme != "none")
        self.bars["combined"].setOpts(x=x + 0.28, height=result.combined, width=0.26)
        if result.other_position != result.position:
            self.other_points.setData(x + 0.28, result.other_combined)
        else:
            self.other_points.setData([], [])
        legend = self.bars_plot.legend
        legend.clear()
        legend.addItem(self.bars["embedding"], i18n.translate("Example", "embedding"))
        if not rope and result.scheme != "none":
            legend.addItem(self.bars["positional"], f"PE({result.position})")
        legend.addItem(self.bars["combined"], self._at(rope, result.position))
        if result.other_position != result.position:
            legend.addItem(self.other_points, self._at(rope, result.other_position))
        self.bars_plot.setTitle(f"\"{result.word}\" — {i18n.shown(we.SCHEME_LABELS[result.scheme])}")
        self.bars_plot.getAxis("bottom").setTicks([[(i, str(i)) for i in range(d)]] if d <= 16 else None)
        self._fill_table(result)
        self._fill_pair_combo(result)
        self._draw_pair()
        self.set_caption(result.caption)

    @staticmethod
    def _at(rotated: bool, position: int) -> str:
        """"rotated at 5" / "input at 5" in the current language."""
        if rotated:
            return i18n.translate("Example", "rotated at {position}").format(position=position)
        return i18n.translate("Example", "input at {position}").format(position=position)

    def _rows(self, result: we.WorkedExample) -> list[tuple[str, np.ndarray, str]]:
        rows = [(i18n.translate("Example", "embedding"), result.embedding, f"{result.embedding_norm:.4f}")]
        if result.scheme == "rope":
            rows.append((i18n.translate("Example", "angle at {position} (rad)").format(position=result.position),
                         result.positional, ""))
            rows.append((self._at(True, result.position), result.combined, f"{result.combined_norm:.4f}"))
            label = self._at(True, result.other_position)
        else:
            if result.scheme != "none":
                rows.append((f"+ PE({result.position})", result.positional,
                             f"{np.linalg.norm(result.positional):.4f}"))
            rows.append(("= " + self._at(False, result.position), result.combined, f"{result.combined_norm:.4f}"))
            label = self._at(False, result.other_position)
        if result.other_position != result.position:
            rows.append((label, result.other_combined, f"{np.linalg.norm(result.other_combined):.4f}"))
        return rows

    def _fill_table(self, result: we.WorkedExample) -> None:
        rows = self._rows(result)
        d = len(result.embedding)
        self.table.clear()
        self.table.setRowCount(len(rows))
        self.table.setColumnCount(d + 1)
        self.table.setHorizontalHeaderLabels([i18n.translate("Example", "dim {i}").format(i=i) for i in range(d)]
                                             + [i18n.translate("Example", "length")])
        self.table.setVerticalHeaderLabels([r[0] for r in rows])
        for r, (_, values, norm) in enumerate(rows):
            for c, v in enumerate(values):
                item = QTableWidgetItem(f"{v:+.2f}" if abs(v) >= 0.005 or v == 0 else f"{v:+.4f}")
                item.setToolTip(f"{v:+.6f}")
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
            self.table.setItem(r, d, QTableWidgetItem(norm))
        # as tall as its rows (plus a horizontal scroll bar when the dimensions do not fit)
        self.table.resizeRowsToContents()
        self.table.resizeColumnsToContents()
        columns = self.table.verticalHeader().sizeHint().width() + sum(
            self.table.columnWidth(c) for c in range(self.table.columnCount()))
        scroll = self.table.horizontalScrollBar().sizeHint().height() if columns > self.table.width() else 0
        # the header's size hint, not its height: that is still the previous labels' until the next layout
        height = (self.table.horizontalHeader().sizeHint().height() + sum(self.table.rowHeight(i) for i in range(len(rows)))
                  + 2 * self.table.frameWidth() + scroll)
        self.table.setFixedHeight(height)

    def _fill_pair_combo(self, result: we.WorkedExample) -> None:
        d = len(result.embedding)
        pairs = result.pairs or tuple((2 * i, 2 * i + 1) for i in range(d // 2))
        template = i18n.translate("Example", "pair {k}: dims {a}, {b}")
        labels = [template.format(k=k, a=a, b=b) for k, (a, b) in enumerate(pairs)]
        if [self.pair_combo.itemText(i) for i in range(self.pair_combo.count())] != labels:
            with signals_blocked(self.pair_combo):
                self.pair_combo.clear()
                self.pair_combo.addItems(labels)
        index = min(int(self.setting("pair")), max(0, len(labels) - 1))
        with signals_blocked(self.pair_combo):
            self.pair_combo.setCurrentIndex(index)
        self._pairs = pairs

    def _draw_pair(self) -> None:
        r = self._result
        if r is None or not getattr(self, "_pairs", None):
            return
        k = min(max(self.pair_combo.currentIndex(), 0), len(self._pairs) - 1)
        a, b = self._pairs[k]
        emb = np.array([r.embedding[a], r.embedding[b]])
        out = np.array([r.combined[a], r.combined[b]])
        other = np.array([r.other_combined[a], r.other_combined[b]])
        origin = np.zeros(2)
        self.pair_items["embedding"].setData(*np.stack([origin, emb]).T)
        if r.scheme == "rope":
            radius = float(np.linalg.norm(emb))
            t = np.linspace(0, 2 * math.pi, 181)
            self.pair_circle.setData(radius * np.cos(t), radius * np.sin(t))
            self.pair_items["positional"].setData([], [])
            angle = float(r.angles[k]) if r.angles is not None else 0.0
            title = i18n.translate("Example", "pair {k}: turned {degrees:.1f}°, length {length:.3f} kept").format(
                k=k, degrees=math.degrees(angle) % 360, length=radius)
        else:
            self.pair_circle.setData([], [])
            self.pair_items["positional"].setData(*np.stack([emb, out]).T)  # PE drawn from the embedding's tip
            title = (i18n.translate("Example", "pair {k}: length {before:.3f} → {after:.3f}").format(
                k=k, before=np.linalg.norm(emb), after=np.linalg.norm(out))
                if r.scheme != "none" else i18n.translate("Example", "pair {k}: unchanged").format(k=k))
        self.pair_items["combined"].setData(*np.stack([origin, out]).T)
        if r.other_position != r.position:
            self.pair_items["other"].setData(*np.stack([origin, other]).T)
        else:
            self.pair_items["other"].setData([], [])
        self.pair_plot.setTitle(title)
        pts = np.stack([origin, emb, out, other])
        span = float(np.abs(pts).max()) * 1.15 or 1.0
        self.pair_plot.setRange(xRange=(-span, span), yRange=(-span, span), padding=0)

    # ---- hover -------------------------------------------------------------------------------------
    def _hover(self, scene_pos) -> None:
        r = self._result
        if r is None:
            return
        hit = plot_at(scene_pos, (("bars", self.bars_plot), ("pair", self.pair_plot)))
        if hit is None:
            return
        where, p = hit
        if where == "bars":
            dim = int(round(p.x()))
            if 0 <= dim < len(r.embedding):
                self.readout.setText(self.describe_dimension(dim))
        else:
            self.readout.setText(i18n.translate(
                "Example", "pair view: ({x:+.3f}, {y:+.3f}), length {length:.3f}, angle {angle:.1f}°").format(
                x=p.x(), y=p.y(), length=math.hypot(p.x(), p.y()), angle=math.degrees(math.atan2(p.y(), p.x()))))

    def describe_dimension(self, dim: int) -> str:
        r = self._result
        if r.scheme == "rope":
            return i18n.translate(
                "Example", "dim {dim}: embedding {embedding:+.4f}, turned by {angle:.4f} rad → {combined:+.4f} (at "
                "{other}: {other_value:+.4f})").format(dim=dim, embedding=r.embedding[dim], angle=r.positional[dim],
                                                     combined=r.combined[dim], other=r.other_position,
                                                     other_value=r.other_combined[dim])
        return i18n.translate(
            "Example", "dim {dim}: embedding {embedding:+.4f} + PE {pe:+.4f} = {combined:+.4f} (at {other}: "
            "{other_value:+.4f})").format(dim=dim, embedding=r.embedding[dim], pe=r.positional[dim],
                                          combined=r.combined[dim], other=r.other_position,
                                          other_value=r.other_combined[dim])

    # ---- export (SettingsDock) --------------------------------------------------------------------------
    def result_arrays(self, r: we.WorkedExample) -> dict[str, np.ndarray]:
        out = {"embedding": r.embedding, "positional": r.positional, "combined": r.combined,
               "other_combined": r.other_combined}
        if r.angles is not None:
            out["angles"] = r.angles
        return out

    def result_title(self, r: we.WorkedExample) -> str:
        return i18n.translate("Example", "Worked example — \"{word}\" at position {position}, {scheme}").format(
            word=r.word, position=r.position, scheme=i18n.shown(we.SCHEME_LABELS[r.scheme]))


DOCK = ExampleDock
