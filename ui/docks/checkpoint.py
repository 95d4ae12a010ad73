"""The checkpoint panel: what an opened model holds and how it encodes position.

Top: the metadata block (layers, heads, KV heads, head_dim, hidden size, context, vocabulary,
dtype / quantization, parameter count, file size: ``peapp.checkpoints.facts``, from the config,
GGUF metadata and tensor headers; each value's tooltip names its key), then the per-layer map
(``ui.docks._layer_map``: a strip with a cell per layer and a row per kind of layer — RoPE base,
window, NoPE, sinks, temperature tuning, K/V memory at the context length), then the position
components found (choose one to show it), then a searchable tree of every
tensor (name, shape, dtype).  Choosing a component sets the matching family in the Document,
so the heatmap (and its similarity view) shows it: a learned table as the trained table itself,
RoPE/ALiBi/T5/Shaw/sinusoidal with the checkpoint's parameters.  Other views get table
references in the same Document edit (``peapp.checkpoint_links``): a ViT table for the
patch grid, a T5 bias table or word embeddings for the attention inspector; each resolves its
reference in its own request.  This panel never calls another.  For tables, the tabs below
show the analysis: the PCA curve of positions, the spectrum along positions against the
sinusoidal table's, the norm per position, and the table beside a sinusoidal table of the
same size.

Opening runs on the compute worker (``OpenCheckpointRequest``); a file that cannot be read
leaves the previous checkpoint shown and says why in the status bar and here.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QGridLayout, QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QSplitter, QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)
from superqt.utils import qthrottled, signals_blocked

from peapp.i18n import msg, translate
from peapp import checkpoint_links
from peapp.analysis.levels import colour_levels
from peapp.analysis.position_table import (DistanceRequest, DistanceView, OpenCheckpointRequest, TableAnalysis,
                                          TableAnalysisRequest)
from peapp.document import Document
from peapp.views.checkpoint import CheckpointView
from ui import i18n
from ui.docks.base import ViewDock, scrolling
from ui.plotting import draw_as_path

TABLE_KINDS = checkpoint_links.TABLE_KINDS
MAX_TREE_ITEMS = 20_000  # beyond this the tree lists the first ones and says so


class _ExportableWhenShown:
    """``exportable``: False on the class — not a view ``peapp render --all`` can draw for any
    session (it needs an open checkpoint) — and, on a dock, whether it has a figure now (a
    table's analysis, or a relative scheme by distance), so File > Export offers it then."""

    def __get__(self, dock, owner=None) -> bool:
        return False if dock is None else not dock.tabs.isHidden()


class CheckpointDock(ViewDock):
    object_name = "checkpointDock"
    view_id = CheckpointView.view_id  # no settings of its own (peapp.views.checkpoint)
    title = msg("Panels", "Checkpoint")
    order = 50
    # a tab beside the views (ViewDock's area and group): the full height for the tensor list and
    # its plots (a strip along the bottom was 151 px, and added its minimum height to the window's:
    # 798 px in Hindi, taller than a 1366 × 768 screen)
    starts_closed = True  # until something is opened (ui.checkpoint_actions)
    shortcut = "Ctrl+6"
    exportable = _ExportableWhenShown()

    def __init__(self, ctx, parent=None, *, build_later: bool = False, build_on_show: bool = True):
        super().__init__(ctx, parent, build_later=build_later, build_on_show=build_on_show)
        self.report = None  # peapp.checkpoints.Report of the checkpoint shown
        self.analysis: TableAnalysis | None = None
        self._opening: str | None = None
        self._showing: str | None = None  # kind of the component chosen last
        self._explicit = False  # the open in flight was asked for by the user (not a session/undo)
        self._pending_side: dict[str, Any] = {}  # side requests submitted and not yet drawn

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later: it starts closed)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        self.path_label = QLabel(translate("Checkpoint", "No checkpoint open. File > Open (Ctrl+O), drop a model "
                                                         "folder or file on the window, or try File > Open Sample."))
        self.path_label.setObjectName("checkpointPath")
        self.path_label.setWordWrap(True)
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.path_label)
        layout.addWidget(self._build_facts())
        from ui.docks._layer_map import LayerMapBox

        self.layer_box = LayerMapBox()  # every layer's scheme (peapp.checkpoints.layer_schemes)
        layout.addWidget(self.layer_box)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._build_lists())
        splitter.addWidget(self._build_analysis())
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        layout.addWidget(splitter, 1)

        self.readout = QLabel("")
        self.readout.setObjectName("checkpointReadout")
        self.readout.setWordWrap(True)
        layout.addWidget(self.readout)
        # Short of room (1366 × 768 under the other panels) the content scrolls instead of pushing
        # the window past the bottom of the screen (its minimum height had made the window 874 px tall).
        self.set_body(scrolling(body, "checkpointScroll"))
        for plot in (self.pca_plot, self.spectrum_plot, self.norm_plot, self.distance_plot):
            plot.scene().sigMouseMoved.connect(lambda pos, p=plot: self._hover(p, pos))
        self._show_tabs(False)

    def _build_facts(self) -> QWidget:
        """The metadata block: one label and value per fact (peapp.checkpoints.facts.FIELDS), five to a
        row; each value's tooltip says where in the file it was read."""
        from peapp.checkpoints.facts import FIELDS

        self.facts_box = QWidget()
        self.facts_box.setObjectName("checkpointFacts")
        grid = QGridLayout(self.facts_box)
        grid.setContentsMargins(0, 2, 0, 2)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(1)
        self.fact_values: dict[str, QLabel] = {}
        per_row = 5
        for i, (label, key) in enumerate(FIELDS):
            row, col = divmod(i, per_row)
            name = QLabel()
            i18n.keep_updated(name, lambda n=name, t=label: n.setText(i18n.shown(t) + ":"))
            name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            value = QLabel("—")
            value.setObjectName(f"checkpointFact_{key}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(name, row, 2 * col)
            grid.addWidget(value, row, 2 * col + 1)
            grid.setColumnStretch(2 * col + 1, 1)
            self.fact_values[key] = value
        self.facts_box.hide()
        return self.facts_box

    def _fill_facts(self, report) -> None:
        from peapp.checkpoints.facts import FIELDS

        for (_, key), (_, text, source) in zip(FIELDS, report.facts.rows()):
            label = self.fact_values[key]
            # the storage line lists every tensor type: the value keeps the first part, the tooltip all
            label.setText(text.split(";")[0])
            where = translate("Checkpoint", "from {source}").format(source=source)
            label.setToolTip(f"{text}\n{where}" if ";" in text else where)
        self.facts_box.show()

    def fact_texts(self) -> dict[str, str]:
        """What the metadata block shows, by key (tests, and the status line)."""
        return {key: label.text() for key, label in self.fact_values.items()} if self.facts_box.isVisibleTo(self) \
            else {}

    def _build_lists(self) -> QWidget:
        """The components found, over the searchable tree of every tensor."""
        lists = QSplitter(Qt.Orientation.Vertical)
        self.components = QListWidget()
        self.components.setObjectName("checkpointComponents")
        i18n.keep_tooltip(self.components, msg("Checkpoint", "Position components found; choose one to show it in the views"))
        self.components.setWordWrap(True)
        self.components.currentRowChanged.connect(self._component_chosen)
        lists.addWidget(self.components)

        tree_box = QWidget()
        tree_layout = QVBoxLayout(tree_box)
        tree_layout.setContentsMargins(0, 0, 0, 0)
        self.search = QLineEdit()
        self.search.setObjectName("tensorSearch")
        i18n.keep(self.search.setPlaceholderText, msg("Checkpoint", "Search tensors (e.g. position_embeddings, layers.0)"))
        self.search.setClearButtonEnabled(True)
        i18n.keep_tooltip(self.search, msg("Checkpoint", "Show only the tensors whose name contains this text"))
        self._filter_later = qthrottled(self._apply_filter, timeout=150, parent=self)
        self.search.textChanged.connect(lambda _: self._filter_later())
        self.tree = QTreeWidget()
        self.tree.setObjectName("tensorTree")
        i18n.keep_updated(self.tree, lambda: self.tree.setHeaderLabels(
            [translate("Checkpoint", "tensor"), translate("Checkpoint", "shape"), "dtype"]))
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        i18n.keep_tooltip(self.tree, msg("Checkpoint", "Every tensor in the file, without its data; double-click a 2-D table to show it"))
        self.tree.itemDoubleClicked.connect(self._tensor_double_clicked)
        tree_layout.addWidget(self.search)
        tree_layout.addWidget(self.tree)
        lists.addWidget(tree_box)
        lists.setSizes([90, 200])
        return lists


    def _build_analysis(self) -> QWidget:
        """The tabs of a table's analysis (PCA, spectrum, norms, vs sinusoidal) and of a relative
        scheme's curves by distance."""
        self.tabs = QTabWidget()
        self.tabs.setObjectName("checkpointAnalysis")
        self.pca_plot = pg.PlotWidget(enableMenu=False)
        _keep_title(self.pca_plot.getPlotItem(), msg("Checkpoint", "Positions on the first two principal components "
                                                                   "(colour: position, dark = first)"))
        self.pca_line = draw_as_path(self.pca_plot.plot(pen=pg.mkPen((150, 150, 150, 70), width=1)))
        self.pca_points = pg.ScatterPlotItem(size=5, pen=None)
        self.pca_plot.addItem(self.pca_points)
        self.spectrum_plot = pg.PlotWidget(enableMenu=False)
        _keep_title(self.spectrum_plot.getPlotItem(), msg("Checkpoint", "Spectrum along positions (mean over dimensions)"))
        self.spectrum_plot.setLogMode(y=True)
        self.spectrum_plot.addLegend(offset=(-10, 10))
        self.spectrum_table = self.spectrum_plot.plot(pen=pg.mkPen("#2e86de", width=1.5), name="checkpoint table")
        self.spectrum_sin = draw_as_path(self.spectrum_plot.plot(
            pen=pg.mkPen("#e67e22", width=1.2, style=Qt.PenStyle.DashLine), name="sinusoidal, same size"))
        _keep_legend(self.spectrum_plot.getPlotItem(), [msg("Checkpoint", "checkpoint table"),
                                                        msg("Checkpoint", "sinusoidal, same size")])
        _keep_label(self.spectrum_plot, "bottom", msg("Checkpoint", "frequency (cycles per position)"))
        _keep_label(self.spectrum_plot, "left", msg("Checkpoint", "share of power"))
        self.norm_plot = pg.PlotWidget(enableMenu=False)
        _keep_title(self.norm_plot.getPlotItem(), msg("Checkpoint", "L2 norm per position"))
        self.norm_curve = self.norm_plot.plot(pen=pg.mkPen("#27ae60", width=1.5))
        _keep_label(self.norm_plot, "bottom", msg("Checkpoint", "position"))
        self.compare = pg.GraphicsLayoutWidget()
        self.compare_table = self._image_panel(0, msg("Checkpoint", "checkpoint table"))
        self.compare_sin = self._image_panel(1, msg("Checkpoint", "sinusoidal, same size"))
        for plot in (self.pca_plot, self.spectrum_plot, self.norm_plot):
            plot.showGrid(x=True, y=True, alpha=0.2)
        self.distance: DistanceView | None = None
        self.distance_plot = pg.PlotWidget(enableMenu=False)
        i18n.keep_updated(self.distance_plot, lambda: self.distance_plot.setTitle(
            self.distance.title if self.distance is not None else translate("Checkpoint", "By distance")))
        _keep_label(self.distance_plot, "bottom", msg("Checkpoint", "key − query (positions)"))
        self.distance_plot.showGrid(x=True, y=True, alpha=0.2)
        self.distance_curves: list[pg.PlotDataItem] = []
        self.distance: DistanceView | None = None
        tab_names = (msg("Checkpoint", "PCA curve"), msg("Checkpoint", "Spectrum"), msg("Checkpoint", "Norms"),
                     msg("Checkpoint", "vs sinusoidal"), msg("Checkpoint", "By distance"))
        for widget, name in zip((self.pca_plot, self.spectrum_plot, self.norm_plot, self.compare, self.distance_plot),
                                tab_names):
            self.tabs.addTab(widget, str(name))
        i18n.keep_updated(self.tabs, lambda: [self.tabs.setTabText(i, i18n.shown(name))
                                              for i, name in enumerate(tab_names)])
        return self.tabs

    def _image_panel(self, col: int, title) -> pg.ImageItem:
        plot = self.compare.addPlot(enableMenu=False, row=0, col=col)
        _keep_title(plot, title, owner=self.compare)
        plot.invertY(True)
        _keep_label(plot, "left", msg("Checkpoint", "position"), owner=self.compare)
        _keep_label(plot, "bottom", msg("Checkpoint", "dimension"), owner=self.compare)
        image = pg.ImageItem(axisOrder="row-major")
        image.setColorMap(pg.colormap.get("CET-D1A"))
        plot.addItem(image)
        return image

    # ---- opening ----------------------------------------------------------------------------------
    @property
    def opening(self) -> str | None:
        """The path being read on the worker, or None."""
        return self._opening

    def open_path(self, path: str) -> None:
        """Read ``path`` on the worker; the Document changes only once it has been read."""
        self.ensure_built()  # it starts closed, unbuilt; what it reads is shown in it
        self._opening = os.path.abspath(path)
        self._explicit = True
        self.ctx.status(translate("Checkpoint", "Opening {path} …").format(path=self._opening), 0)
        self.refresh(OpenCheckpointRequest(self._opening))

    def make_request(self, document: Document):
        path = document.checkpoint
        if not path or (self.report is not None and self.report.checkpoint.path == path) or path == self._opening:
            return None
        self._opening = path
        return OpenCheckpointRequest(path)

    def on_document_changed(self, document: Document) -> None:
        if document.checkpoint is None and self.report is not None:
            self._clear()  # undo of the first open
        elif document.checkpoint and (self.report is None or document.checkpoint != self.report.checkpoint.path):
            self.refresh()

    def on_failed(self, message: str) -> None:
        self._opening = None
        self._explicit = False
        shown = (" " + translate("Checkpoint", "Still showing {path}.").format(path=self.report.checkpoint.path)
                 if self.report is not None else "")
        self.set_caption(translate("Checkpoint", "Could not open: {message}").format(message=message) + shown)

    def show_result(self, report) -> None:
        self._opening = None
        self.report = report
        if self.isHidden():  # closed, or not yet shown this session: a checkpoint is open now
            self.show()
            self.raise_()  # its tab to the front
        ckpt = report.checkpoint
        found = self._describe(report)
        self._fill_components(report)
        self._fill_tree(ckpt)
        self.ctx.status(translate("Checkpoint", "Opened {path}: {found}").format(path=ckpt.path, found=found), 6000)
        doc = self.ctx.document
        new = doc.with_checkpoint(ckpt.path)
        if self._explicit:
            # opened by the user: a word-embedding table goes to the attention inspector's words
            new, message = checkpoint_links.document_with_embeddings(new, ckpt, report.components)
            if message:
                self.ctx.status(message, 6000)
        if new != doc:
            self.ctx.document_model.set_document(new, "Open checkpoint")
        if self._explicit and report.components:
            self.components.setCurrentRow(0)  # opened by the user: show the first component
        elif report.components:
            self._restore_selection(report)  # a session or undo: keep what the Document shows
        self._explicit = False

    def _describe(self, report) -> str:
        """The texts about the open checkpoint that follow the language: its line, facts and caption."""
        ckpt = report.checkpoint
        architecture = ckpt.architecture or translate("Checkpoint", "unknown architecture")
        self.path_label.setText(translate("Checkpoint", "<b>{name}</b> — {format}, {count} tensors, {architecture}")
                                .format(name=os.path.basename(ckpt.path.rstrip('/')) or ckpt.path, format=ckpt.format,
                                        count=f"{len(ckpt.tensors):,}", architecture=architecture))
        self.path_label.setToolTip(ckpt.path)
        self._fill_facts(report)
        self.layer_box.show_map(report.layers, report.facts)
        found = ", ".join(sorted({c.kind for c in report.components})) or \
            translate("Checkpoint", "no position component")
        warn = (" " + translate("Checkpoint", "Warnings:") + " " + " ".join(report.warnings)) if report.warnings else ""
        self.set_caption(f"{ckpt.path}: {found}.{warn}")
        return found

    def retranslate(self, language: str = "") -> None:
        """After a language switch: the checkpoint's texts again, from what was read (never reread)."""
        if self.report is None:
            self.path_label.setText(translate("Checkpoint", "No checkpoint open. File > Open (Ctrl+O), drop a model "
                                                            "folder or file on the window, or try File > Open Sample."))
            return
        self._describe(self.report)
        if self.analysis is not None and self._showing in TABLE_KINDS:
            self._label_pca(self.analysis)

    def _clear(self) -> None:
        self.report = None
        self.components.clear()
        self.tree.clear()
        self.facts_box.hide()
        self.layer_box.show_map(None, None)
        self.path_label.setText(translate("Checkpoint", "No checkpoint open."))
        self.set_caption("")
        self._show_tabs(False)

    # ---- lists ----------------------------------------------------------------------------------
    def _fill_components(self, report) -> None:
        with signals_blocked(self.components):  # filling the list is not choosing a component
            self.components.clear()
            for comp in report.components:
                item = QListWidgetItem(f"{comp.kind}: {comp.summary}")
                item.setToolTip(f"{comp.tensor or translate('Checkpoint', '(computed, no tensor)')}\n" +
                                "\n".join(f"{k} = {v}" for k, v in comp.params.items() if k != "slopes"))
                self.components.addItem(item)
            if not report.components:
                item = QListWidgetItem(report.warnings[-1] if report.warnings else
                                       translate("Checkpoint", "no position component found"))
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                self.components.addItem(item)

    def _fill_tree(self, ckpt) -> None:
        self.tree.clear()
        self.tree.setUpdatesEnabled(False)
        groups: dict[str, QTreeWidgetItem] = {}
        names = sorted(ckpt.tensors)
        for name in names[:MAX_TREE_ITEMS]:
            info = ckpt.tensors[name]
            parts = name.split(".")
            parent = self.tree.invisibleRootItem()
            # group by dotted prefix (transformer › h › 0 › attn …); leaves keep the full name
            for depth in range(1, len(parts)):
                key = ".".join(parts[:depth])
                if key not in groups:
                    groups[key] = QTreeWidgetItem(parent, [parts[depth - 1], "", ""])
                parent = groups[key]
            leaf = QTreeWidgetItem(parent, [parts[-1], " × ".join(map(str, info.shape)) or
                                            translate("Checkpoint", "scalar"), info.dtype])
            leaf.setData(0, Qt.ItemDataRole.UserRole, name)
            leaf.setToolTip(0, name)
        if len(names) > MAX_TREE_ITEMS:
            QTreeWidgetItem(self.tree.invisibleRootItem(), [translate("Checkpoint", "… {count} more (search to find them)")
                                                            .format(count=f"{len(names) - MAX_TREE_ITEMS:,}")])
        self.tree.setUpdatesEnabled(True)
        self._apply_filter()

    def _apply_filter(self) -> None:
        text = self.search.text().strip().lower()

        def visit(item: QTreeWidgetItem) -> bool:
            name = item.data(0, Qt.ItemDataRole.UserRole)
            if name is not None:
                visible = not text or text in name.lower()
            else:
                visible = False
                for i in range(item.childCount()):
                    visible = visit(item.child(i)) or visible
            item.setHidden(not visible)
            if text and visible and name is None:
                item.setExpanded(True)
            return visible

        root = self.tree.invisibleRootItem()
        for i in range(root.childCount()):
            visit(root.child(i))

    def visible_tensors(self) -> list[str]:
        """Full names of the tensors the search leaves visible (tests, and the status line)."""
        out = []

        def visit(item):
            for i in range(item.childCount()):
                child = item.child(i)
                if child.isHidden():
                    continue
                name = child.data(0, Qt.ItemDataRole.UserRole)
                if name is not None:
                    out.append(name)
                visit(child)

        visit(self.tree.invisibleRootItem())
        return out

    # ---- showing a component --------------------------------------------------------------------
    def _component_chosen(self, row: int) -> None:
        if self.report is None or not 0 <= row < len(self.report.components):
            return
        self.show_component(self.report.components[row])

    def show_component(self, comp) -> None:
        """Put ``comp`` into the Document so the views show it, and show its own views here."""
        if comp.params.get("scaling_problem"):  # never drawn as if it were plain RoPE
            self.ctx.status(translate("Checkpoint", "Cannot show {what}: {problem}").format(
                what=comp.kind, problem=comp.params["scaling_problem"]))
            return
        try:
            new = self._document_for(comp)
        except Exception as exc:
            self.ctx.status(translate("Checkpoint", "Cannot show {what}: {problem}").format(what=comp.kind, problem=exc))
            return
        if new is None:
            self.ctx.status(translate("Checkpoint", "{kind}: nothing to show for this component").format(kind=comp.kind))
            return
        self.ctx.document_model.set_document(new, translate("Checkpoint", "Show checkpoint {kind}").format(kind=comp.kind))
        self.readout.setText(comp.summary)
        self._own_views(comp)

    def _document_for(self, comp) -> Document | None:
        """The Document that shows ``comp`` in the views (raises ParameterError if it cannot); a
        view that refuses its part (e.g. a grid too large for the patch grid) is said in the status bar."""
        new, notes = checkpoint_links.document_for_component(self.ctx.document, self.report.checkpoint, comp)
        for note in notes:
            self.ctx.status(note)
        return new

    def _own_views(self, comp) -> None:
        """This dock's figures for ``comp``: table analysis, or bias/norm by distance."""
        self._showing = comp.kind
        self._show_tabs(False)
        p, path = comp.params, self.report.checkpoint.path
        if comp.kind in TABLE_KINDS:
            self.readout.setText(translate("Checkpoint", "Analysing {tensor} …").format(tensor=comp.tensor))
            self.submit_side("analysis", TableAnalysisRequest(f"{path}::{comp.tensor}", _offset(comp)))
        elif comp.kind == "alibi" and p.get("slopes"):
            self.submit_side("distance", DistanceRequest("alibi", slopes=tuple(p["slopes"])))
        elif comp.kind == "t5_relative_bias":
            self.submit_side("distance", DistanceRequest(
                "t5_relative_bias", f"{path}::{comp.tensor}", bool(p["bidirectional"]), int(p["max_distance"]),
                span=int(p["max_distance"]) + 32))
        elif comp.kind == "shaw_relative":
            self.submit_side("distance", DistanceRequest("shaw_relative", f"{path}::{comp.tensor}"))

    def _restore_selection(self, report) -> None:
        """After a session or undo reopened the checkpoint: select (without changing the Document)
        the component the Document already shows, and draw this dock's views of it."""
        doc = self.ctx.document
        wanted = {"learned": TABLE_KINDS, "rope": ("rope",), "alibi": ("alibi",), "t5": ("t5_relative_bias",),
                  "shaw": ("shaw_relative",), "sinusoidal": ("sinusoidal",), "nope": ("nope",)}.get(doc.family, ())
        source = doc.spec("learned").source if doc.family == "learned" else ""
        for row, comp in enumerate(report.components):
            if comp.kind in wanted and (not source or source == f"{report.checkpoint.path}::{comp.tensor}"):
                with signals_blocked(self.components):
                    self.components.setCurrentRow(row)
                self._own_views(comp)
                return

    def _show_table(self, tensor: str, offset: int) -> None:
        """Show any 2-D (or [1, N, d]) tensor as a learned table (double-click in the tree)."""
        from peapp.checkpoints import Component

        info = self.report.checkpoint.tensors[tensor]
        comp = Component("learned_absolute", tensor, info.shape, {"offset": offset}, summary=tensor)
        try:
            new = self._document_for(comp)
        except Exception as exc:
            self.ctx.status(translate("Checkpoint", "Cannot show {what}: {problem}").format(what=tensor, problem=exc))
            return
        if new is None:
            self.ctx.status(translate("Checkpoint", "{tensor} has shape {shape}: not a [positions, dim] table")
                            .format(tensor=tensor, shape=info.shape))
            return
        with signals_blocked(self.components):
            self.components.clearSelection()
            self.components.setCurrentRow(-1)
        self.ctx.document_model.set_document(new, translate("Checkpoint", "Show {tensor}").format(tensor=tensor))
        self._own_views(comp)

    def _tensor_double_clicked(self, item: QTreeWidgetItem, column: int) -> None:
        name = item.data(0, Qt.ItemDataRole.UserRole)
        if name is not None and self.report is not None:
            self._show_table(name, 0)

    # ---- analysis -------------------------------------------------------------------------------
    def show_side_result(self, name: str, result: Any) -> None:
        if name == "distance":
            self._pending_side.pop(name, None)
            if self._showing in ("t5_relative_bias", "alibi", "shaw_relative"):  # not after a newer choice
                self._show_distance(result)
            return
        self._pending_side.pop(name, None)
        if name != "analysis" or self._showing not in TABLE_KINDS:  # not after a newer choice
            return
        a: TableAnalysis = result
        self.analysis = a
        n = a.table.shape[0]
        colors = pg.colormap.get("viridis").map(np.linspace(0, 1, n), mode="qcolor")
        self.pca_line.setData(a.pca[:, 0], a.pca[:, 1])
        self.pca_points.setData(x=a.pca[:, 0], y=a.pca[:, 1], brush=colors, data=np.arange(n))
        self._label_pca(a)
        f = a.frequencies[1:]
        self.spectrum_table.setData(f, np.maximum(a.mean_spectrum[1:], 1e-12))
        self.spectrum_sin.setData(f, np.maximum(a.sinusoidal_mean_spectrum[1:], 1e-12))
        self.norm_curve.setData(np.arange(n), a.norms)
        for image, values in ((self.compare_table, a.table), (self.compare_sin, a.sinusoidal)):
            image.setImage(values, autoLevels=False, levels=colour_levels(values, "symmetric").levels)
        for plot in (self.pca_plot, self.spectrum_plot, self.norm_plot):
            plot.autoRange()
        self._show_tabs(True)
        low = a.mean_spectrum[1:max(2, len(a.mean_spectrum) // 16)].sum()
        self.readout.setText(translate(
            "Checkpoint", "{name}: {n} positions × {d} dims. PC1+PC2 explain {explained}; "
            "{low} of its power lies in the lowest 1/16 of frequencies (sinusoidal: {sinusoidal}); norms {lo}–{hi}.")
            .format(name=a.name, n=f"{n:,}", d=a.table.shape[1], explained=f"{a.explained.sum():.0%}", low=f"{low:.0%}",
                    sinusoidal=f"{a.sinusoidal_mean_spectrum[1:max(2, len(a.mean_spectrum) // 16)].sum():.0%}",
                    lo=f"{a.norms.min():.3g}", hi=f"{a.norms.max():.3g}"))

    def _label_pca(self, a: TableAnalysis) -> None:
        self.pca_plot.setLabel("bottom", translate("Checkpoint", "PC1 ({share} of variance)")
                               .format(share=f"{a.explained[0]:.0%}"))
        self.pca_plot.setLabel("left", f"PC2 ({a.explained[1]:.0%})")

    def on_side_failed(self, name: str, message: str) -> None:
        # e.g. the table could not be read: say so instead of "Analysing …" for ever
        self._pending_side.pop(name, None)
        self.readout.setText((translate("Checkpoint", "Could not analyse the table: {message}") if name == "analysis"
                              else translate("Checkpoint", "Could not compute the curves: {message}"))
                             .format(message=message))

    def _show_distance(self, view: DistanceView) -> None:
        self.distance = view
        for curve in self.distance_curves:
            self.distance_plot.removeItem(curve)
        n = len(view.curves)
        colors = pg.colormap.get("viridis").map(np.linspace(0, 0.9, max(n, 2)), mode="qcolor")
        self.distance_curves = [self.distance_plot.plot(view.distances, values, pen=pg.mkPen(colors[i], width=1.5))
                                for i, values in enumerate(view.curves)]
        self.distance_plot.setTitle(view.title)
        self.distance_plot.setLabel("left", view.value_label)
        self.distance_plot.autoRange()
        self._show_tabs(True, only_distance=True)
        self.readout.setText(view.caption)

    def _show_tabs(self, visible: bool, only_distance: bool = False) -> None:
        """Tables use the first four tabs; relative schemes the distance tab only."""
        self.tabs.setVisible(visible)
        last = self.tabs.count() - 1
        for i in range(self.tabs.count()):
            self.tabs.setTabVisible(i, (i == last) if only_distance else (i != last))
        if visible:
            self.tabs.setCurrentIndex(last if only_distance else min(self.tabs.currentIndex(), last - 1))

    def _hover(self, plot: pg.PlotWidget, scene_pos) -> None:
        if plot is self.distance_plot:
            v = self.distance
            if v is None or not plot.sceneBoundingRect().contains(scene_pos):
                return
            x = plot.getPlotItem().vb.mapSceneToView(scene_pos).x()
            i = int(np.clip(np.searchsorted(v.distances, round(x)), 0, len(v.distances) - 1))
            values = ", ".join(f"{c[i]:+.3f}" for c in v.curves[:8]) + (" …" if len(v.curves) > 8 else "")
            self.readout.setText(translate("Checkpoint", "key − query = {distance}: {what} per head {values}")
                                 .format(distance=f"{v.distances[i]:+d}", what=v.value_label, values=values))
            return
        a = self.analysis
        if a is None or not plot.sceneBoundingRect().contains(scene_pos):
            return
        point = plot.getPlotItem().vb.mapSceneToView(scene_pos)
        if plot is self.pca_plot:
            d = (a.pca[:, 0] - point.x()) ** 2 + (a.pca[:, 1] - point.y()) ** 2
            i = int(np.argmin(d))
            self.readout.setText(translate("Checkpoint", "position {i}: PC1 {x}, PC2 {y}")
                                 .format(i=f"{i:,}", x=f"{a.pca[i, 0]:+.4f}", y=f"{a.pca[i, 1]:+.4f}"))
        elif plot is self.norm_plot:
            i = int(np.clip(round(point.x()), 0, len(a.norms) - 1))
            self.readout.setText(translate("Checkpoint", "position {i}: norm {norm}").format(i=f"{i:,}", norm=f"{a.norms[i]:.4f}"))
        else:
            i = int(np.clip(np.searchsorted(a.frequencies, point.x()), 1, len(a.frequencies) - 1))
            self.readout.setText(translate("Checkpoint", "frequency {f} cycles/position (period {period}): table {table}, "
                                                         "sinusoidal {sinusoidal} of the power")
                                 .format(f=f"{a.frequencies[i]:.4f}", period=f"{1 / a.frequencies[i]:,.1f}",
                                         table=f"{a.mean_spectrum[i]:.3g}", sinusoidal=f"{a.sinusoidal_mean_spectrum[i]:.3g}"))

    # ---- synchronous use (export, `peapp render`, tests) ------------------------------------------
    @property
    def pending_views(self) -> tuple[str, ...]:
        """This panel's side views submitted and not yet drawn ("analysis", "distance"):
        ``compute_now`` runs them."""
        return tuple(self._pending_side)

    def submit_side(self, name: str, request) -> int:
        self._pending_side[name] = request
        return super().submit_side(name, request)

    def compute_now(self) -> Any:
        """Open the Document's checkpoint and compute this dock's figure on the calling thread."""
        path = self.ctx.document.checkpoint
        if path and (self.report is None or self.report.checkpoint.path != path):
            self.ctx.worker.cancel(self.object_name)  # the same open may be queued; this one wins
            self._opening = None
            self._last_result = OpenCheckpointRequest(path).run()
            self.show_result(self._last_result)
        for name, request in list(self._pending_side.items()):
            self.show_side_result(name, request.run())
        return self._last_result


    # ---- export -----------------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.tabs.currentWidget() if not self.tabs.isHidden() else self._body

    def export_arrays(self) -> dict[str, np.ndarray]:
        if not self.tabs.isHidden() and self.tabs.currentWidget() is self.distance_plot and self.distance is not None:
            return {"distance": self.distance.distances, "values": self.distance.curves}
        a = self.analysis
        if a is None:
            return {}
        return {"table": a.table, "pca": a.pca, "norms": a.norms, "frequencies": a.frequencies,
                "mean_spectrum": a.mean_spectrum, "sinusoidal_mean_spectrum": a.sinusoidal_mean_spectrum}

    def export_title(self) -> str:
        if self.analysis is not None:
            return f"{self.analysis.name} — {self.tabs.tabText(self.tabs.currentIndex())}"
        return i18n.shown(self.title)


_offset = checkpoint_links.component_offset


def _keep_title(plot: pg.PlotItem, title, owner=None) -> None:
    i18n.keep_updated(owner or plot, lambda: plot.setTitle(i18n.shown(title)))


def _keep_label(plot, axis: str, text, owner=None) -> None:
    i18n.keep_updated(owner or plot, lambda: plot.setLabel(axis, i18n.shown(text)))


def _keep_legend(plot: pg.PlotItem, names) -> None:
    """The legend's entries (in the order the curves were added) in the current language."""
    def name() -> None:
        for (_sample, label), text in zip(plot.legend.items, names):
            label.setText(i18n.shown(text))
    i18n.keep_updated(plot, name)


DOCK = CheckpointDock
