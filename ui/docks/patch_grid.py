"""The vision-patch grid: how 2D position encodings see an image cut into patches.

* Tiles (ViT paper, Fig. 7): one small tile per patch, laid out like the patches; each tile is
  that patch's similarity to every patch.  All tiles are ONE image (a mosaic) under one curve
  of separator lines, so a 32×32 grid is one texture upload, not a thousand plot items; the
  separators are cosmetic 1-pixel lines, so every tile boundary shows at any zoom.
* Under each tile grid, the selected patch's map drawn large.  Click any tile, cell or image
  patch to select it.
* The image (the built-in landscape, or a PNG/JPEG of the user's) resized to the model's input
  size, with the patch grid drawn over it and the selected patch's map as an overlay.
* Panel B: a second encoding side by side (e.g. flattened 1D vs 2D sin-cos), or panel A's table
  resampled to another grid size (split prefix, reshape, bicubic float32, restore prefix).
* A neighbours read-out: the 4 grid neighbours of the selected patch vs the patches adjacent
  only in the flattened order.

Settings live in ``Document.views["patch_grid"]`` (spec: ``peapp.views.patch_grid``).  A
checkpoint's learned table is a reference there, ``table_source = "PATH::TENSOR"`` (written by the checkpoint panel when a ViT
table is chosen, or by :meth:`PatchGridDock.show_table`), read by this panel's own request on
the worker — so a saved session shows the same table again.  A BEiT / Swin
``relative_position_bias_table`` is shown the same way (``bias_source``, encoding
``relative_bias``): each tile is one query patch's bias to every key patch of the window, for
the head ``bias_head`` (``peapp.analysis.patch_grid_bias``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QImageReader, QPen
from PySide6.QtWidgets import (QComboBox, QFileDialog, QGraphicsRectItem, QHBoxLayout,
                               QLabel, QPushButton, QVBoxLayout, QWidget)

from peapp.i18n import msg
from peapp.analysis.patch_grid import (Panel, PatchGridRequest, PatchGridResult, PatchGridSettings, map_index,
                                       view_for_table)
from peapp.document import Document
from peapp.encodings import vision
from peapp.errors import ParameterError, PeappError
from peapp.views.patch_grid import PatchGridView
from ui import i18n
from ui.docks.base import ViewDock, readout_label
from ui.forms import Form, Spin
from ui.plotting import draw_as_path, fit_plots_to_aspect, relax_title_width, span_title

COLORMAP = "viridis"  # the ViT paper's Fig. 7 look: dark = dissimilar, yellow = similar
LEVELS = (-1.0, 1.0)  # cosine similarity's full range, shared by every image in the dock
SELECT_PEN = QColor("#ff4757")
MAX_IMAGE_PIXELS = 50_000_000  # a 50-megapixel photo is 200 MB decoded; a larger header is refused unread

#: the plots' names in hover read-outs (the keys are the dock's own)
_WHERE = {"tiles A": msg("PatchGrid", "tiles A"), "tiles B": msg("PatchGrid", "tiles B"),
          "map A": msg("PatchGrid", "map A"), "map B": msg("PatchGrid", "map B"), "image": msg("PatchGrid", "image")}
# Settings that change only how the result is drawn, not what is computed.
_DRAW_ONLY = {"selected": 0, "color_range": "data"}


def sample_image_path() -> Path:
    """The built-in sample image (``resources/sample_landscape.png``; inside a bundle, next to it)."""
    root = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[2]))
    return root / "resources" / "sample_landscape.png"


def load_rgb(path: str | Path, size: tuple[int, int]) -> np.ndarray:
    """An image file as RGB uint8 [h, w, 3], resized (smoothly, ignoring aspect) to ``size`` = (h, w),
    the way ViT preprocessors resize to the model's input size.  Qt-side but thread-safe (QImage,
    not QPixmap): the dock calls it off the GUI thread; the bytes come through ``peapp.safe_open``
    (regular files only, size-capped), and Qt's decoder refuses images past its allocation limit."""
    from peapp import safe_open

    data = QByteArray(safe_open.read_bytes(path, "image"))
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    declared = reader.size()  # from the header, before any pixel is decoded
    if declared.isValid() and declared.width() * declared.height() > MAX_IMAGE_PIXELS:
        raise PeappError(f"{path} is {declared.width():,} × {declared.height():,} pixels, more than an image here can "
                         f"be ({MAX_IMAGE_PIXELS // 10**6} megapixels); choose a smaller picture")
    image = reader.read()
    if image.isNull():
        raise PeappError(f"cannot read {path} as an image; choose a PNG or JPEG file")
    h, w = size
    image = image.convertToFormat(QImage.Format.Format_RGB888).scaled(
        w, h, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation)
    ptr = image.constBits()
    rows = np.frombuffer(ptr, dtype=np.uint8, count=image.sizeInBytes()).reshape(h, image.bytesPerLine())
    return rows[:, : w * 3].reshape(h, w, 3).copy()


def set_title(plot: pg.PlotItem, text: str, size: str = "9pt") -> None:
    plot.setTitle(text, size=size)
    plot.titleLabel.item.setToolTip(text)


class _GridPlot:
    """A plot that shows one float image (mosaic or map) with a selection rectangle."""

    def __init__(self, name: str, aspect: bool = True, axes: bool = True):
        self.plot = pg.PlotItem(name=name, enableMenu=False)
        relax_title_width(self.plot, justify="left")  # when clipped, keep the panel letter readable
        span_title(self.plot)  # a narrow map's title over the axes too, rather than clipped
        self.plot.invertY(True)
        self.plot.setAspectLocked(aspect)
        self.plot.hideButtons()
        if not axes:
            self.plot.hideAxis("left")
            self.plot.hideAxis("bottom")
        self.image = pg.ImageItem(axisOrder="row-major")
        # A 32×32 mosaic is ~1,000 px wide in a ~300 px plot: average blocks on the way down
        # rather than skip pixels.
        self.image.setAutoDownsample(True)
        self.plot.addItem(self.image)
        self.separators = pg.PlotCurveItem(connect="pairs", pen=pg.mkPen("k", width=1, cosmetic=True))
        self.separators.setZValue(5)
        self.plot.addItem(self.separators, ignoreBounds=True)
        self.marker = QGraphicsRectItem()
        pen = QPen(SELECT_PEN)
        pen.setWidthF(2.0)
        pen.setCosmetic(True)
        self.marker.setPen(pen)
        self.marker.setZValue(10)
        self.marker.setVisible(False)
        self.plot.addItem(self.marker, ignoreBounds=True)

    @property
    def view(self) -> pg.ViewBox:
        return self.plot.getViewBox()

    def contains(self, scene_pos) -> bool:
        return self.plot.isVisible() and self.plot.scene() is not None and \
            self.view.sceneBoundingRect().contains(scene_pos)

    def to_view(self, scene_pos) -> QPointF:
        return self.view.mapSceneToView(scene_pos)

    def mark(self, x: float, y: float, w: float, h: float) -> None:
        self.marker.setRect(QRectF(x, y, w, h))
        self.marker.setVisible(True)


class PatchGridDock(ViewDock):
    object_name = "patchGridDock"
    view_id = PatchGridView.view_id
    title = msg("Panels", "Vision patch grid")
    tab_title = msg("Panels", "Patch grid")
    view_aliases = {"patches": "patch-grid"}  # for `peapp render` (issue 18's name)
    shortcut = "Ctrl+5"
    order = 50

    def build(self) -> None:  # ViewDock.__init__ calls it, or on first show (build_later)
        self._result: PatchGridResult | None = None
        self._request_key: Any = None
        self._image_key: Any = None  # (path, height, width) of the picture shown
        self._image_wanted: Any = None  # … and of the one being read
        self._rgb: np.ndarray | None = None
        self._levels = LEVELS
        self._last_view: dict | None = None
        self._map_aspect: float | None = None  # rows / columns of the large maps

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._build_controls())

        layout.addWidget(self._build_graphics(), 1)

        self.readout = readout_label("patchGridReadout", wrap=True)
        i18n.keep(self.readout.setText, msg("PatchGrid", "Hover over a tile, map or the image for values; click to "
                                                         "select a patch."), self.readout)
        self.neighbours = QLabel()
        self.neighbours.setObjectName("patchGridNeighbours")
        self.neighbours.setWordWrap(True)
        self.neighbours.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.neighbours)
        layout.addWidget(self.readout)
        self.set_body(body)

        self.graphics.scene().sigMouseMoved.connect(self._hover)
        self.graphics.scene().sigMouseClicked.connect(self._click)
        self._sync_controls(self.ctx.document)

    def _build_graphics(self) -> QWidget:
        """Tiles and large maps of panels A and B, the image with the grid and overlay, one colour bar."""
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("patchGridGraphics")
        self.graphics.setMinimumSize(480, 320)
        self.tiles_a = _GridPlot("tilesA", axes=False)
        self.tiles_b = _GridPlot("tilesB", axes=False)
        self.large_a = _GridPlot("mapA")
        self.large_b = _GridPlot("mapB")
        self.photo = _GridPlot("image")
        self.overlay = pg.ImageItem(axisOrder="row-major")
        self.overlay.setOpacity(0.55)
        self.overlay.setZValue(2)
        self.photo.plot.addItem(self.overlay)
        self.grid_lines = draw_as_path(pg.PlotCurveItem(connect="pairs", pen=pg.mkPen((255, 255, 255, 120), width=1)))
        self.grid_lines.setZValue(3)
        self.photo.plot.addItem(self.grid_lines, ignoreBounds=True)
        def name_axes() -> None:
            for plot in (self.large_a, self.large_b):
                plot.plot.setLabel("bottom", i18n.translate("PatchGrid", "column"))
                plot.plot.setLabel("left", i18n.translate("PatchGrid", "row"))
            self.photo.plot.setLabel("bottom", i18n.translate("PatchGrid", "x (pixels)"))
            self.photo.plot.setLabel("left", i18n.translate("PatchGrid", "y (pixels)"))

        i18n.keep_updated(self.graphics, name_axes)
        self.colorbar = pg.ColorBarItem(values=LEVELS, colorMap=pg.colormap.get(COLORMAP), interactive=False,
                                        width=14, label=i18n.translate("PatchGrid", "similarity"))
        self.colorbar.setImageItem([self.tiles_a.image, self.tiles_b.image, self.large_a.image,
                                    self.large_b.image, self.overlay])
        self._two_panels: bool | None = None
        self._arrange(two=True)
        # the axes of the maps and of the picture span the data and no more
        self._fit_plots = fit_plots_to_aspect(self.graphics.ci, [
            (self.large_a.plot, lambda: self._map_aspect), (self.large_b.plot, lambda: self._map_aspect),
            (self.photo.plot, self._photo_aspect)])
        return self.graphics

    def _photo_aspect(self) -> float | None:
        """The picture's height / width."""
        return None if self._rgb is None else self._rgb.shape[0] / self._rgb.shape[1]

    # ---- controls ----------------------------------------------------------------------------
    # Control rows: (short label, settings shown side by side joined by "×"); full labels and help
    # are the tooltips.  Three short rows keep the dock narrow enough to share the window.
    _ROWS = (
        (("A", ("encoding",)), ("B", ("second",))),
        ((msg("PatchGrid", "image px"), ("image_height", "image_width")),
         (msg("PatchGrid", "patch px"), ("patch_height", "patch_width")),
         (msg("PatchGrid", "prefix"), ("prefix_tokens",)), (msg("PatchGrid", "colours"), ("color_range",))),
        ((msg("PatchGrid", "dim"), ("dim",)), (msg("PatchGrid", "base"), ("base",)), (msg("PatchGrid", "seed"), ("seed",)),
         (msg("PatchGrid", "RoPE v"), ("rope_vector",)),
         (msg("PatchGrid", "resample to"), ("resample_height", "resample_width")),
         (msg("PatchGrid", "bias head"), ("bias_head",))),
    )

    def _build_controls(self) -> QWidget:
        """The settings' controls, built by the one form builder from PatchGridView's metadata
        (ranges, choices, help), in three short rows."""
        names = [n for row in self._ROWS for _, group in row for n in group]
        spins = {n: Spin() for n in names if PatchGridView.info(n).kind is int}
        self.form = Form(PatchGridView, self._edit, parent=self, names=names,
                         hints={**spins, "base": Spin(decimals=1, adaptive=True)},
                         object_names={n: f"patchGrid_{n}" for n in names})
        self.controls: dict[str, QWidget] = self.form.widgets
        for name, widget in self.controls.items():
            if isinstance(widget, QComboBox):  # its items are labelled by the settings' choices
                widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            else:
                # sized for the values people type, not for the range's widest number (seed 2³¹−1)
                widget.setMaximumWidth(96 if name in ("seed", "base") else 64)
        box = QWidget()
        rows = QVBoxLayout(box)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(2)
        for spec in self._ROWS:
            line = QHBoxLayout()
            line.setSpacing(4)
            for label_text, group in spec:
                label = QLabel()
                i18n.keep_updated(label, lambda label=label, text=label_text, group=group: (
                    label.setText(i18n.shown(text)),
                    label.setToolTip(" / ".join(i18n.shown(PatchGridView.info(n).label) for n in group))))
                line.addWidget(label)
                for k, name in enumerate(group):
                    if k:
                        line.addWidget(QLabel("×"))
                    line.addWidget(self.controls[name])
                line.addSpacing(8)
            rows.addLayout(line)
            line.addStretch(1)
        line = rows.itemAt(0).layout()
        self.open_button = i18n.keep_text(QPushButton(), msg("PatchGrid", "Open image…"))
        i18n.keep_tooltip(self.open_button, msg("PatchGrid", "Show a PNG or JPEG of your own under the patch grid"))
        self.open_button.clicked.connect(self._choose_image)
        self.sample_button = i18n.keep_text(QPushButton(), msg("PatchGrid", "Sample image"))
        i18n.keep_tooltip(self.sample_button, msg("PatchGrid", "Back to the built-in landscape"))
        self.sample_button.clicked.connect(lambda: self.set_view(image_path=""))
        line.addWidget(self.open_button)
        line.addWidget(self.sample_button)
        return box

    def _edit(self, name: str, value: Any) -> None:
        """Validate the edited setting with the others; invalid values never reach the Document."""
        try:
            self.ctx.document.with_view(self.view_id, **{name: value})
        except PeappError as exc:
            self.ctx.status(str(exc))
            self.readout.setText(str(exc))
            return
        self.set_view(**{name: value})

    def settings_for(self, document: Document) -> PatchGridSettings:
        """What this panel computes for ``document`` (its view spec without the image)."""
        return document.view_spec(self.view_id).settings()

    def _sync_controls(self, document: Document) -> None:
        try:
            view = document.view_spec(self.view_id)
        except PeappError:
            return
        self.form.sync(view)  # signals blocked: showing the Document is not an edit
        second = view.second == "resampled"
        for name in ("resample_height", "resample_width"):
            self.controls[name].setEnabled(second)
        self.controls["bias_head"].setEnabled("relative_bias" in (view.encoding, view.second))
        # "Relative bias table (given)" is offered only with a table loaded (a checkpoint's)
        loaded = bool(view.bias_source)
        for name in ("encoding", "second"):
            combo = self.controls[name]
            index = combo.findData("relative_bias")
            if index >= 0:
                combo.model().item(index).setEnabled(loaded or combo.currentIndex() == index)
                combo.view().setRowHidden(index, not loaded and combo.currentIndex() != index)

    def _choose_image(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, i18n.translate("PatchGrid", "Image under the patch grid"), "",
                                              i18n.translate("PatchGrid", "Images (*.png *.jpg *.jpeg *.bmp)"))
        if path:
            self.set_image(path)

    def set_image(self, path: str) -> None:
        """Show ``path`` under the grid (stored in the Document) once it has been read (off the GUI
        thread); a file Qt cannot read is refused and the picture stays."""
        path = str(path)
        self.ctx.reader.read(f"{self.object_name}:choose", lambda: load_rgb(path, (8, 8)),
                             lambda _rgb: self.set_view(image_path=path),
                             lambda message: self._image_refused(message), what=f"image {path}")

    def _image_refused(self, message: str) -> None:
        self.ctx.status(f"{i18n.shown(self.title)}: {message}")
        self.readout.setText(message)

    # ---- checkpoint tables -------------------------------------------------------------------
    def show_table(self, source: str, num_prefix_tokens: int = 1, grid: tuple[int, int] | None = None,
                   shape: tuple[int, ...] | None = None) -> tuple[int, int]:
        """Show a checkpoint's learned ViT position table ``source`` = ``"PATH::TENSOR"`` (e.g.
        ``…::embeddings.position_embeddings``) in panel A, by reference in the Document.

        The table is [1, P + H·W, d] or [P + H·W, d] with the ``num_prefix_tokens`` P rows first;
        ``grid`` (H, W) is inferred when square.  The image size follows the grid at the current
        patch size.  ``shape`` saves reading the file's header when the caller knows it.  Returns
        the grid; raises ParameterError (and changes nothing) if the shape does not fit.
        """
        if shape is None:
            from peapp.checkpoints import open_cached

            path, _, tensor = source.rpartition("::")
            info = open_cached(path).tensors.get(tensor)
            if info is None:
                raise ParameterError(f"{path} has no tensor {tensor!r}; choose one from the Checkpoint panel's list")
            shape = tuple(info.shape)
        values = view_for_table(self.settings_for(self.ctx.document), source, shape, num_prefix_tokens, grid)
        self.set_view(**values)
        s = self.settings_for(self.ctx.document)
        return s.grid().shape

    # ---- requests ----------------------------------------------------------------------------
    def make_request(self, document: Document) -> PatchGridRequest:
        # a checkpoint table is named in the settings (table_source) and read by the request itself
        return PatchGridRequest(settings=self.settings_for(document).replace(**_DRAW_ONLY),
                                gap=0)  # tile boundaries are drawn as lines instead

    def on_document_changed(self, document: Document) -> None:
        view = dict(document.views.get(self.view_id, {}))
        if view == self._last_view and self._request_key is not None:
            return  # another panel's setting or a parameter this view does not use
        self._last_view = view
        self._sync_controls(document)
        self._update_image(document)
        try:
            request = self.make_request(document)
        except PeappError as exc:
            self.ctx.status(f"{i18n.shown(self.title)}: {exc}")
            return
        key = request.settings
        if key == self._request_key:
            # only the selection, colour range or image changed: nothing to compute
            self._apply_levels()
            self._update_selection()
            return
        self._request_key = key
        self.refresh(request)

    def refresh(self, request=None):
        if not self.can_compute():  # the backend loads: drawn when it is ready
            return None
        if request is None:
            try:
                request = self.make_request(self.ctx.document)
            except PeappError as exc:
                self.ctx.status(f"{i18n.shown(self.title)}: {exc}")
                return None
            self._request_key = request.settings
        return super().refresh(request)

    def on_failed(self, message: str) -> None:
        # the picture (and its titles) are the previous settings': dimmed under the stale banner,
        # as Run on text and Probes do, until a picture for the current settings comes
        self.mark_stale()
        self.readout.setText(message + i18n.translate("PatchGrid", " (the previous picture is kept)"))

    # ---- drawing -----------------------------------------------------------------------------
    def _arrange(self, two: bool) -> None:
        """Lay out the plots: tiles over large maps, one column per panel, the image, the colour bar."""
        if self._two_panels == two:
            return
        self._two_panels = two
        ci = self.graphics.ci
        for item in list(ci.items.keys()):
            ci.removeItem(item)
        ci.addItem(self.tiles_a.plot, row=0, col=0)
        ci.addItem(self.large_a.plot, row=1, col=0)
        col = 1
        for p in (self.tiles_b, self.large_b):
            p.plot.setVisible(two)
        if two:
            ci.addItem(self.tiles_b.plot, row=0, col=1)
            ci.addItem(self.large_b.plot, row=1, col=1)
            col = 2
        ci.addItem(self.photo.plot, row=0, col=col, rowspan=2)
        ci.addItem(self.colorbar, row=0, col=col + 1, rowspan=2)
        ci.layout.setRowStretchFactor(0, 3)
        ci.layout.setRowStretchFactor(1, 2)
        for c in range(col + 1):
            ci.layout.setColumnStretchFactor(c, 3 if c < col else 4)
        ci.layout.setColumnStretchFactor(col + 1, 0)
        # other columns' stretch must not squeeze the colour bar's axis and label away
        self.colorbar.setMinimumWidth(72)

    def show_result(self, result: PatchGridResult) -> None:
        self._result = result
        self._arrange(result.b is not None)
        self._apply_levels()
        self._draw_tiles(self.tiles_a, result.a, "A")
        if result.b is not None:
            self._draw_tiles(self.tiles_b, result.b, "B")
        self._update_image(self.ctx.document, force=True)
        self._update_selection()
        self.set_caption(self._caption(result))

    def _apply_levels(self) -> None:
        """One colour scale for every image in the dock: −1 … 1, or the range of the values shown."""
        result = self._result
        levels = LEVELS
        try:
            full = self.settings_for(self.ctx.document).color_range == "full"
        except PeappError:
            full = False
        biased = result is not None and "relative_bias" in (result.a.encoding, result.b and result.b.encoding)
        self.colorbar.getAxis("left").setLabel(i18n.translate("PatchGrid", "bias") if biased else
                                               i18n.translate("PatchGrid", "similarity"))  # where ColorBarItem puts its label
        if result is not None and (biased or not full):  # a bias has no fixed −1 … 1 range
            lo = min(float(p.sim.min()) for p in (result.a, result.b) if p is not None)
            hi = max(float(p.sim.max()) for p in (result.a, result.b) if p is not None)
            levels = (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)
        self._levels = levels
        self.colorbar.setLevels(levels)

    def _draw_tiles(self, target: _GridPlot, panel: Panel, letter: str) -> None:
        h, w = panel.mosaic.shape
        target.image.setImage(panel.mosaic, autoLevels=False, levels=self._levels)
        target.image.setRect(QRectF(0, 0, w, h))
        target.view.setRange(QRectF(0, 0, w, h), padding=0.01)
        gh, gw = panel.grid
        set_title(target.plot, f"{letter}: {panel.label}" + ("" if "×" in panel.label else f", {gh}×{gw}"))
        if self._result is not None and self._result.gap == 0:
            xs = np.arange(1, gw) * gw  # vertical lines between tile columns
            ys = np.arange(1, gh) * gh
            x = np.concatenate([np.repeat(xs, 2), np.tile([0.0, w], len(ys))]).astype(float)
            y = np.concatenate([np.tile([0.0, h], len(xs)), np.repeat(ys, 2)]).astype(float)
            target.separators.setData(x, y)
        else:
            target.separators.setData([], [])

    def _update_image(self, document: Document, force: bool = False) -> None:
        """(Re)load the picture when its path or the input size changed (read off the GUI thread;
        the grid is drawn over the picture shown until then)."""
        try:
            settings = self.settings_for(document)
        except PeappError:
            return
        path = document.view_spec(self.view_id).image_path or str(sample_image_path())
        size = (settings.image_height, settings.image_width)
        key = (path, *size)
        if key != self._image_key and key != self._image_wanted:
            self._image_wanted = key
            self.ctx.reader.read(f"{self.object_name}:image", lambda: load_rgb(path, size),
                                 lambda rgb: self._image_read(key, rgb),
                                 lambda message: self._image_read(key, None, message), what=f"image {path}")
        if force:
            self._draw_grid_lines()

    def _image_read(self, key: tuple, rgb: np.ndarray | None, failure: str | None = None) -> None:
        if failure is not None:
            self.ctx.status(f"{i18n.shown(self.title)}: {failure}")
            if self._rgb is not None:  # the previous picture stays
                self._image_key, self._image_wanted = key, None
                return
            rgb = np.full((key[1], key[2], 3), 96, np.uint8)
        self._image_key, self._image_wanted, self._rgb = key, None, rgb
        self.photo.image.setImage(rgb, autoLevels=False, levels=(0, 255))
        self.photo.image.setRect(QRectF(0, 0, rgb.shape[1], rgb.shape[0]))
        self._fit_plots()
        self.photo.view.setRange(QRectF(0, 0, rgb.shape[1], rgb.shape[0]), padding=0.01)
        self._draw_grid_lines()

    def _draw_grid_lines(self) -> None:
        if self._result is not None:
            g = self._result.patch_grid
            xs = np.arange(g.grid_w + 1) * g.patch_width
            ys = np.arange(g.grid_h + 1) * g.patch_height
            right, bottom = xs[-1], ys[-1]
            vx = np.repeat(xs, 2).astype(float)
            vy = np.tile([0.0, bottom], len(xs))
            hx = np.tile([0.0, right], len(ys)).astype(float)
            hy = np.repeat(ys, 2).astype(float)
            self.grid_lines.setData(np.concatenate([vx, hx]), np.concatenate([vy, hy]))
            # short: a plot title's width is a minimum width of its column (the caption has the details)
            set_title(self.photo.plot, i18n.translate("PatchGrid", "image, {h}×{w} px patches").format(
                h=g.patch_height, w=g.patch_width))

    def selected_index(self) -> int:
        """Selected patch in panel A's grid."""
        try:
            return self.settings_for(self.ctx.document).selected_index()
        except PeappError:
            return 0

    def _b_index(self, index: int) -> int:
        result = self._result
        if result is None or result.b is None:
            return index
        return index if result.b.grid == result.a.grid else map_index(index, result.a.grid, result.b.grid)

    def _update_selection(self) -> None:
        result = self._result
        if result is None:
            return
        index = min(self.selected_index(), result.a.sim.shape[0] - 1)
        self._draw_large(self.large_a, self.tiles_a, result.a, index, "A", result.gap)
        if result.b is not None:
            self._draw_large(self.large_b, self.tiles_b, result.b, self._b_index(index), "B", result.gap)
        g = result.patch_grid
        self.overlay.setImage(result.a.map_of(index), autoLevels=False, levels=self._levels)
        self.overlay.setRect(QRectF(0, 0, g.grid_w * g.patch_width, g.grid_h * g.patch_height))
        self.photo.mark(*g.patch_rect(index))
        self.neighbours.setText(self._neighbour_text(index))

    def _draw_large(self, target: _GridPlot, tiles: _GridPlot, panel: Panel, index: int, letter: str,
                    gap: int) -> None:
        gh, gw = panel.grid
        r, c = divmod(index, gw)
        target.image.setImage(panel.map_of(index), autoLevels=False, levels=self._levels)
        target.image.setRect(QRectF(0, 0, gw, gh))
        if self._map_aspect != gh / gw:
            self._map_aspect = gh / gw
            self._fit_plots()
        target.view.setRange(QRectF(0, 0, gw, gh), padding=0.02)
        target.mark(c, r, 1, 1)
        set_title(target.plot, i18n.translate("PatchGrid", "{letter}: patch ({r},{c}) vs all").format(
            letter=letter, r=r, c=c))
        tiles.mark(c * (gw + gap) - 0.5 * gap, r * (gh + gap) - 0.5 * gap, gw + gap, gh + gap)

    def _neighbour_text(self, index: int) -> str:
        result = self._result
        lines = []
        for letter, panel, i in (("A", result.a, index), ("B", result.b, self._b_index(index))):
            if panel is None:
                continue
            gh, gw = panel.grid
            report = vision.neighbour_report(panel.sim, gh, gw, i)
            ends = vision.row_end_patches(gh, gw)
            ok_ends = int(panel.nearest_ok[ends].sum()) if len(ends) else 0
            lines.append(f"<b>{letter}</b> " + i18n.translate(
                "PatchGrid", "{report}. Over the grid: the most similar patches are the grid neighbours for {ok:,} of "
                "{n:,} patches ({ok_ends} of {ends} row ends).").format(
                report=report.text(gw), ok=int(panel.nearest_ok.sum()), n=len(panel.nearest_ok), ok_ends=ok_ends,
                ends=len(ends)))
            if panel.prefix_sim is not None:
                parts = []
                for k, row in enumerate(panel.prefix_sim):
                    best = int(np.argmax(row))
                    parts.append(i18n.translate("PatchGrid", "prefix row {k}: mean cosine with the patches "
                                                             "{mean:+.3f}, highest {best:+.3f} at ({r},{c})").format(
                        k=k, mean=row.mean(), best=row[best], r=best // gw, c=best % gw))
                lines.append(f"<b>{letter}</b> " + i18n.translate("PatchGrid", "(kept out of the grid) ")
                             + "; ".join(parts[:4])
                             + ("; …" if len(parts) > 4 else ""))
        return "<br>".join(lines)

    def _caption(self, result: PatchGridResult) -> str:
        a, b = result.a, result.b
        text = i18n.translate(
            "PatchGrid", "{grid}. Each small tile is one patch; its pixels show how similar that patch's position "
            "encoding is to every patch's ({what}; one colour bar for every image), as in the ViT paper's Fig. 7. A 2D "
            "encoding gives each tile a bright blob around its own patch; a flattened 1D one gives horizontal stripes "
            "that wrap from one row end to the next row start.").format(grid=result.patch_grid.describe(),
                                                                          what=a.value_label)
        if a.encoding == "table" and result.table is not None:
            text += i18n.translate("PatchGrid", " Panel A is {table} ({n} prefix row(s) left out).").format(
                table=result.table.name, n=result.table.num_prefix_tokens)
        for letter, panel in (("A", a), ("B", b)):
            if panel is not None and panel.encoding == "relative_bias":
                text += i18n.translate(
                    "PatchGrid", " Panel {letter} is not a similarity: each tile is one query patch's learned bias to "
                    "every key patch of the window (added to the attention logits; {label}), {note}").format(
                    letter=letter, label=panel.label, note=panel.note)
        if b is not None and b.note:
            text += f" B: {b.note}"
        return text

    # ---- interaction ---------------------------------------------------------------------------
    def _locate(self, scene_pos) -> tuple[str, int, Panel] | None:
        """(where, patch index in that panel's grid, panel) under a scene point."""
        result = self._result
        if result is None:
            return None
        panels = [("A", self.tiles_a, self.large_a, result.a)]
        if result.b is not None:
            panels.append(("B", self.tiles_b, self.large_b, result.b))
        for letter, tiles, large, panel in panels:
            gh, gw = panel.grid
            if tiles.contains(scene_pos):
                p = tiles.to_view(scene_pos)
                hit = vision.mosaic_tile_at(p.y(), p.x(), gh, gw, result.gap)
                if hit is None:
                    return None
                tr, tc, r, c = hit
                return f"tiles {letter}", tr * gw + tc, panel
            if large.contains(scene_pos):
                p = large.to_view(scene_pos)
                r, c = int(np.floor(p.y())), int(np.floor(p.x()))
                if 0 <= r < gh and 0 <= c < gw:
                    return f"map {letter}", r * gw + c, panel
                return None
        if self.photo.contains(scene_pos):
            g = result.patch_grid
            p = self.photo.to_view(scene_pos)
            r, c = int(np.floor(p.y() / g.patch_height)), int(np.floor(p.x() / g.patch_width))
            if 0 <= r < g.grid_h and 0 <= c < g.grid_w:
                return "image", r * g.grid_w + c, result.a
        return None

    def _hover(self, scene_pos) -> None:
        hit = self._locate(scene_pos)
        result = self._result
        if hit is None or result is None:
            return
        where, index, panel = hit
        gh, gw = panel.grid
        if where.startswith("tiles"):
            p = (self.tiles_a if where.endswith("A") else self.tiles_b).to_view(scene_pos)
            _, _, r, c = vision.mosaic_tile_at(p.y(), p.x(), gh, gw, result.gap)
            tr, tc = divmod(index, gw)
            value = panel.sim[index, r * gw + c]
            self.readout.setText(i18n.translate(
                "PatchGrid", "{where}: tile of patch ({tr},{tc}), cell ({r},{c}) — {what} {value:+.4f} (offset "
                "{dr:+d} rows, {dc:+d} columns)").format(where=i18n.shown(_WHERE.get(where, where)), tr=tr, tc=tc,
                                                        r=r, c=c, what=panel.value_label, value=value, dr=r - tr,
                                                        dc=c - tc))
            return
        letter = "B" if where.endswith("B") else "A"
        sel = self.selected_index() if letter == "A" else self._b_index(self.selected_index())
        sr, sc = divmod(sel, gw)
        r, c = divmod(index, gw)
        text = i18n.translate("PatchGrid", "{where}: patch ({r},{c}) vs selected ({sr},{sc}) — {what} "
                                           "{value:+.4f}").format(
            where=i18n.shown(_WHERE.get(where, where)), r=r, c=c, sr=sr, sc=sc, what=panel.value_label,
            value=panel.sim[sel, index])
        if where == "image":
            x, y, w, h = result.patch_grid.patch_rect(index)
            text += i18n.translate("PatchGrid", "; pixels x {x0}–{x1}, y {y0}–{y1}").format(
                x0=x, x1=x + w - 1, y0=y, y1=y + h - 1)
        self.readout.setText(text)

    def _click(self, event) -> None:
        hit = self._locate(event.scenePos())
        if hit is None or self._result is None:
            return
        where, index, panel = hit
        if panel is self._result.b and panel.grid != self._result.a.grid:
            index = map_index(index, panel.grid, self._result.a.grid)
        self.select_patch(index)

    def readout_at(self, plot: str, x: float, y: float) -> str:
        """The hover read-out at view point (x, y) of ``plot`` — "tiles A", "tiles B", "map A",
        "map B" or "image" — as the mouse there would give it."""
        targets = {"tiles A": self.tiles_a, "tiles B": self.tiles_b, "map A": self.large_a, "map B": self.large_b,
                   "image": self.photo}
        self._hover(targets[plot].view.mapViewToScene(QPointF(x, y)))
        return self.readout.text()

    def select_patch(self, index: int) -> None:
        """Select patch ``index`` (row-major, panel A's grid); undoable, saved with the session."""
        self.set_view(selected=int(index))

    def tile_center(self, index: int, panel: str = "A") -> QPoint:
        """Widget coordinates (in ``self.graphics``) of the centre of patch ``index``'s tile."""
        result = self._result
        p = result.a if panel == "A" else result.b
        gh, gw = p.grid
        r, c = divmod(index, gw)
        target = self.tiles_a if panel == "A" else self.tiles_b
        scene = target.view.mapViewToScene(QPointF(c * (gw + result.gap) + gw / 2, r * (gh + result.gap) + gh / 2))
        return self.graphics.mapFromScene(scene)

    # ---- export hooks ------------------------------------------------------------------------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        result = self._result
        if result is None:
            return {}
        index = min(self.selected_index(), result.a.sim.shape[0] - 1)
        out = {"similarity_a": result.a.sim, "tiles_a": result.a.mosaic, "selected_map_a": result.a.map_of(index)}
        if result.b is not None:
            out.update(similarity_b=result.b.sim, tiles_b=result.b.mosaic,
                       selected_map_b=result.b.map_of(self._b_index(index)))
        return out

    def export_title(self) -> str:
        result = self._result
        if result is None:
            return self.title
        if result.b is None:
            return i18n.translate("PatchGrid", "Patch position similarity — {a}").format(a=result.a.label)
        return i18n.translate("PatchGrid", "Patch position similarity — {a} vs {b}").format(a=result.a.label,
                                                                                          b=result.b.label)


DOCK = PatchGridDock
