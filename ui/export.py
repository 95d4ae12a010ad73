"""Figure and data export of any ViewDock: PNG, SVG, PDF, CSV, NPY/NPZ.

One code path serves the GUI (File > Export…, each dock's Export button) and the headless
``peapp render`` command, so both produce the same pictures.

What gets drawn is the dock's ``export_widget()``: for a pyqtgraph ``GraphicsView`` (e.g. a
``GraphicsLayoutWidget``) its scene is rendered directly at the figure size — no scroll bars,
combo boxes or other chrome — with pyqtgraph's export mode on (which hides the auto-range
button); any other widget is rendered with ``QWidget.render``.  If the figure does not already
show the dock's ``export_title()``, a title line is drawn above it.  The export theme recolours
default-coloured axes and labels for a light (paper) or dark (slides) background and restores
them afterwards.

Why SVG is written with ``QSvgGenerator`` rather than pyqtgraph's ``SVGExporter``: pyqtgraph
0.14.0's exporter rewrites the coordinates of every ``<path d="…">`` Qt generates and expects
only "x,y" pairs; Qt >= 6.11 ends closed sub-paths with a bare ``Z``, so ``x, y = c.split(',')``
raises (pyqtgraph issue #3495) — every plot with a closed shape (image outlines, colour bars,
fills) fails.  Patching pyqtgraph's private module would tie us to its internals; Qt's own
generator is the same painter path as the PNG and PDF output (one ``paint_figure`` for all
three), keeps text as ``<text>`` (searchable, editable), embeds images as base64 PNG, and since
Qt 6.7 writes real ``<clipPath>`` elements (the reason pyqtgraph wrote its own exporter).
``tests/gui/test_export.py`` checks the SVG parses, has axis text and clips.  Two things Qt
writes are rewritten so that readers which follow SVG 1.1 only (librsvg: GNOME viewers,
``rsvg-convert``, pandoc/LaTeX) draw what the PNG shows: cosmetic strokes are mapped to the
figure's coordinates (``_device_strokes``), and each item is painted with its own clip
(``_render_items_with_own_clips``); ``tests/gui/test_svg_in_librsvg.py`` compares the two.

Hindi figures: the SVG's ``<text>`` names the font family only, and a machine without a
Devanagari font draws boxes for it, so every Devanagari run is also written as its outline
(``_outline_text``: a ``<path>`` from ``QPainterPath.addText`` with the font Qt drew it in, the
bundled Noto Sans Devanagari) and the text itself stays, transparent, for search and copy.
PDF needs nothing: Qt's writer embeds the subset of every font it draws with (TrueType).

Docks take part through the hooks of :class:`ui.docks.base.ViewDock` (``export_widget``,
``export_arrays``, ``export_title``), ``exportable = False`` (nothing to export), and
``view_names``: the first is the dock's main view; another name ``N`` selects it with the
dock setting ``mode=N`` unless the dock class defines ``document_for_view(document, name)``
(and, for the reverse, ``current_view_name()``).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
from dataclasses import dataclass, replace
from typing import Any, Iterator

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QByteArray, QEvent, QIODevice, QMarginsF, QPoint, QRectF, QSizeF, Qt
from PySide6.QtGui import (QColor, QFont, QFontMetricsF, QImage, QPageLayout, QPageSize, QPainter, QPainterPath,
                           QPalette, QPdfWriter, QRegion, QTransform)
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (QApplication, QGraphicsItem, QGraphicsWidget, QLabel, QStyleOptionGraphicsItem,
                               QWidget)

from peapp import __version__
from peapp import export_data
from peapp.document import Document
from peapp.fileio import ExportError

THEMES = {
    # background, foreground (axes, ticks, labels, titles)
    "light": ("#ffffff", "#202020"),
    "dark": ("#101010", "#e0e0e0"),
}
DEFAULT_THEME = "light"
DEFAULT_SCALE = 2.0
# Figure size when the widget has no on-screen size (hidden tab, headless): logical pixels.
DEFAULT_SIZE = (800, 600)
MIN_SIZE = 64
MIN_DATA_SIDE = 48.0  # logical pixels each plot's data area keeps in a figure, however small
MAX_PIXELS = 20_000 * 20_000  # refuse absurd PNG sizes before allocating them
SCREEN_DPI = 96.0  # logical pixels per inch: a 2× PNG is 192 dpi, the on-screen size on paper


@dataclass(frozen=True)
class FigureOptions:
    """How a figure is drawn.  ``size`` is in logical (on-screen) pixels; None = the widget's
    current size.  ``scale`` multiplies it for PNG (its DPI is ``96·scale``); SVG and PDF are
    vector and use ``size`` as their page size (at 96 dpi)."""

    scale: float = DEFAULT_SCALE
    size: tuple[int, int] | None = None
    theme: str = DEFAULT_THEME

    def __post_init__(self):
        if self.theme not in THEMES:
            raise ExportError(f"unknown export theme {self.theme!r}; choose one of {', '.join(THEMES)}")
        if not (0.1 <= self.scale <= 16) or not math.isfinite(self.scale):
            raise ExportError(f"scale must be between 0.1 and 16; got {self.scale:g}")
        if self.size is not None and (min(self.size) < MIN_SIZE or max(self.size) > 20_000):
            raise ExportError(f"figure size must be between {MIN_SIZE} and 20000 pixels per side; got "
                              f"{self.size[0]}×{self.size[1]}")

    @classmethod
    def from_dpi(cls, dpi: float, **kwargs) -> "FigureOptions":
        return cls(scale=dpi / SCREEN_DPI, **kwargs)

    @property
    def dpi(self) -> float:
        return SCREEN_DPI * self.scale


# ---- which docks, which views ------------------------------------------------------------------
def is_exportable(dock: Any) -> bool:
    return getattr(dock, "exportable", True) is not False


def _camel_name(dock_class: type) -> str:
    return re.sub(r"Dock$", "", dock_class.object_name) or dock_class.object_name


def view_names(dock_class: type) -> tuple[str, ...]:
    """The dock's view names as ``peapp render`` and Export All know them: its ``view_names``,
    else its object name in command-line style (patchGridDock → ``patch-grid``)."""
    names = tuple(getattr(dock_class, "view_names", ()) or ())
    if names:
        return names
    return (re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", _camel_name(dock_class)).lower(),)


def view_aliases(dock_class: type) -> dict[str, str]:
    """Other names accepted for the dock's views: ``{alias: view name}`` — the camel-case names
    of earlier versions (``patchGrid``) and the dock's own ``view_aliases`` ({alias: view})."""
    names = view_names(dock_class)
    aliases = {_camel_name(dock_class): names[0]} if not getattr(dock_class, "view_names", ()) else {}
    aliases.update(getattr(dock_class, "view_aliases", {}) or {})
    return {alias: view for alias, view in aliases.items() if alias not in names}


def canonical_view(name: str) -> str:
    """``name``, or the view it is an alias of (``patches``, ``patchGrid`` → ``patch-grid``)."""
    import ui.docks

    for cls in ui.docks.dock_classes():
        if getattr(cls, "exportable", True) is not False and name in view_aliases(cls):
            return view_aliases(cls)[name]
    return name


def current_view_name(dock: Any) -> str:
    """The view name (as ``peapp render`` knows it) of what the dock shows now."""
    if hasattr(dock, "current_view_name"):
        return dock.current_view_name()
    names = view_names(type(dock))
    mode = dock.ctx.document.view(dock.view_id, "mode")
    return mode if mode in names[1:] else names[0]


def document_for_view(dock_class: type, document: Document, name: str) -> Document:
    """The Document with ``dock_class`` switched to view ``name`` (see the module docstring)."""
    names = view_names(dock_class)
    name = view_aliases(dock_class).get(name, name)
    if name not in names:
        raise ExportError(f"{dock_class.title} has no view {name!r}; it has {', '.join(names)}")
    if hasattr(dock_class, "document_for_view"):
        return dock_class.document_for_view(document, name)
    settings = dict(document.views.get(dock_class.view_id, {}))
    if name == names[0]:
        settings.pop("mode", None)  # the dock's default view
    else:
        settings["mode"] = name
    views = dict(document.views)
    views[dock_class.view_id] = settings
    return replace(document, views=views)


def all_views() -> dict[str, type]:
    """Every view name of every exportable dock class: ``{name: dock class}``."""
    import ui.docks

    out: dict[str, type] = {}
    for cls in ui.docks.dock_classes():
        if getattr(cls, "exportable", True) is False:
            continue
        for name in view_names(cls):
            out.setdefault(name, cls)
    return out


def dock_metadata(dock: Any, **extra: Any) -> dict[str, Any]:
    return export_data.export_metadata(dock.ctx.document, dock.object_name, view=current_view_name(dock),
                                       title=dock.export_title(), **extra)


# ---- painting --------------------------------------------------------------------------------------
def figure_size(dock: Any, options: FigureOptions) -> tuple[int, int]:
    """The logical figure size: the options' size, else the widget's on-screen size."""
    if options.size is not None:
        return int(options.size[0]), int(options.size[1])
    widget = dock.export_widget()
    if widget.isVisible() and widget.width() >= MIN_SIZE and widget.height() >= MIN_SIZE:
        return widget.width(), widget.height()
    return DEFAULT_SIZE


def _title_shown(widget: QWidget, title: str) -> bool:
    """Does the figure already show this title (a plot title or a label)?"""
    wanted = _plain(title)
    if not wanted:
        return True
    texts: list[str] = []
    for scene in _scenes(widget):
        texts += [_plain(item.text) for item in scene.items() if isinstance(item, pg.LabelItem)]
    if not isinstance(widget, pg.GraphicsView):
        texts += [_plain(label.text()) for label in widget.findChildren(QLabel) if label.isVisibleTo(widget)]
    return any(wanted in text for text in texts)


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", str(text or "")).replace("&nbsp;", " ").strip()


def _scenes(widget: QWidget) -> list:
    views = [widget] if isinstance(widget, pg.GraphicsView) else widget.findChildren(pg.GraphicsView)
    return [view.scene() for view in views if view.scene() is not None]


_IGNORES_TRANSFORMS = QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations


@contextlib.contextmanager
def _export_style(widget: QWidget, theme: str) -> Iterator[None]:
    """Export mode and theme colours on every pyqtgraph item; everything restored afterwards.

    Only items that use the default foreground are recoloured: a dock that coloured an axis on
    purpose (to match its curve) keeps that colour.
    """
    background, foreground = THEMES[theme]
    undo: list = []
    try:
        for view in ([widget] if isinstance(widget, pg.GraphicsView) else widget.findChildren(pg.GraphicsView)):
            brush = view.backgroundBrush()
            view.setBackgroundBrush(QColor(background))
            undo.append(lambda v=view, b=brush: v.setBackgroundBrush(b))
            for item in view.scene().items():
                if item.cacheMode() != QGraphicsItem.CacheMode.NoCache:
                    # cached items (the axes, ui.plotting.configure_axes) would land in an
                    # SVG/PDF as pictures of text; painted directly they stay text and lines
                    cache = item.cacheMode()
                    item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
                    undo.append(lambda i=item, c=cache: i.setCacheMode(c))
                if isinstance(item, pg.LegendItem) and item.flags() & _IGNORES_TRANSFORMS:
                    # pyqtgraph's legends keep their on-screen size under any transform, so in a
                    # figure scaled down to fit they stayed large and ran past its edge
                    item.setFlag(_IGNORES_TRANSFORMS, False)
                    undo.append(lambda i=item: i.setFlag(_IGNORES_TRANSFORMS, True))
                if hasattr(item, "setExportMode"):
                    item.setExportMode(True, {"antialias": True, "background": QColor(background)})
                    undo.append(lambda i=item: i.setExportMode(False))
                if isinstance(item, pg.AxisItem):
                    pen, text_pen, style = item._pen, item._textPen, dict(item.labelStyle)
                    if _is_default(pen):
                        item._pen = pg.mkPen(foreground)
                    if _is_default(text_pen):
                        item._textPen = pg.mkPen(foreground)
                    if _is_default_color(style.get("color")):
                        item.labelStyle["color"] = foreground
                    item.picture = None
                    item._updateLabel()
                    undo.append(lambda i=item, p=pen, t=text_pen, s=style: _restore_axis(i, p, t, s))
                if isinstance(item, pg.PlotCurveItem) and _is_default_curve(item.opts.get("pen")):
                    pen = pg.mkPen(item.opts["pen"])
                    themed = pg.mkPen(pen)
                    themed.setColor(QColor(foreground))
                    item.setPen(themed)
                    undo.append(lambda i=item, p=pen: i.setPen(p))
                elif isinstance(item, pg.LabelItem) and _is_default_color(item.opts.get("color")):
                    # default-coloured: none, or the UI theme's foreground (Preferences > theme sets
                    # it on every title: light grey from a dark UI, unreadable on a light figure)
                    color = item.opts.get("color")
                    item.setText(item.text, color=foreground)
                    undo.append(lambda i=item, c=color: _restore_label(i, c))
        yield
    finally:
        for action in reversed(undo):
            action()


# Images are upsampled (nearest neighbour) before they are painted into a figure, to
# IMAGE_PER_PIXEL bitmap pixels per on-screen pixel (at most IMAGE_MAX_SIDE a side), within
# IMAGE_MAX_PIXELS for all images of a figure together; see _crisp_images.
IMAGE_PER_PIXEL = 4
IMAGE_MAX_SIDE = 2048
IMAGE_MAX_PIXELS = 24_000_000


@contextlib.contextmanager
def _crisp_images(widget: QWidget) -> Iterator[None]:
    """Every image drawn as sharp cells: a 128 × 50 heatmap went into an SVG as a 128 × 50
    bitmap that viewers enlarge with smoothing (blurred cells).  Each cell is repeated (nearest
    neighbour) so the embedded bitmap is large enough that smoothing no longer shows; colours
    and levels are unchanged, and the image is put back afterwards."""
    undo: list = []
    budget = IMAGE_MAX_PIXELS
    try:
        for scene in _scenes(widget):
            for item in scene.items():
                if not isinstance(item, pg.ImageItem) or item.image is None or not item.isVisible():
                    continue
                image = item.image
                rows, cols = image.shape[:2]
                shown = item.sceneBoundingRect()
                fy = max(1, -(-min(IMAGE_MAX_SIDE, int(IMAGE_PER_PIXEL * shown.height())) // rows))
                fx = max(1, -(-min(IMAGE_MAX_SIDE, int(IMAGE_PER_PIXEL * shown.width())) // cols))
                while (fy > 1 or fx > 1) and rows * fy * cols * fx > budget:
                    fy, fx = max(1, fy // 2), max(1, fx // 2)
                if fy == 1 and fx == 1:
                    continue
                budget -= rows * fy * cols * fx
                rect = item.mapRectToParent(item.boundingRect())
                item.setImage(np.repeat(np.repeat(image, fy, axis=0), fx, axis=1), autoLevels=False)
                item.setRect(rect)
                undo.append(lambda i=item, im=image, r=rect: (i.setImage(im, autoLevels=False), i.setRect(r)))
        yield
    finally:
        for action in reversed(undo):
            action()


def _is_default_color(color) -> bool:
    # pyqtgraph stores its default foreground as a concrete colour, so compare against it
    return color is None or pg.mkColor(color).rgba() == pg.mkColor(pg.getConfigOption("foreground")).rgba()


def _is_default_curve(pen) -> bool:
    # pyqtgraph's default curve pen is light grey (200, 200, 200): invisible on paper
    return pen is not None and pg.mkPen(pen).color().getRgb()[:3] == (200, 200, 200)


def _is_default(pen) -> bool:
    return pen is None or _is_default_color(pen.color())


def _restore_axis(axis: pg.AxisItem, pen, text_pen, style) -> None:
    axis._pen, axis._textPen = pen, text_pen
    axis.labelStyle = style
    axis.picture = None
    axis._updateLabel()


def _restore_label(label: pg.LabelItem, color=None) -> None:
    label.opts["color"] = color
    label.setText(label.text, **({} if color is None else {"color": color}))


# pyqtgraph's starting tick-text space (AxisItem.__init__): exports start from it so that the
# space the axes settle on does not depend on what they showed before.
_AXIS_TEXT_START = (30, 18)


@contextlib.contextmanager
def _scene_at_size(view: pg.GraphicsView, width: float, height: float, ratio: float) -> Iterator[QRectF]:
    """Lay the view's central item out at the figure size (not the window's) while painting.

    pyqtgraph axes size themselves to the tick labels they last painted (with a 10 px
    hysteresis), so a figure would otherwise depend on what was on screen before, and a hidden
    dock would export differently from a shown one.  The axes are reset to their starting text
    space and the scene is painted into a scratch image until the layout stops changing: the
    export is then a function of the Document and the options only.  Everything is restored
    afterwards.

    Yields the laid-out rectangle: larger than asked when the layout's minimum size (long
    titles) does not fit, and the caller scales it down uniformly.
    """
    central = view.centralWidget
    if central is None:
        yield view.sceneRect()
        return
    scene = view.scene()
    axes = [item for item in scene.items() if isinstance(item, pg.AxisItem)]
    # a colour bar's box is a fixed-width strip by design: given 80 px of "data" it widened three times
    boxes = [item for item in scene.items() if isinstance(item, pg.ViewBox) and item.isVisible()
             and not isinstance(item.parentItem(), pg.ColorBarItem)]
    old_geometry = central.geometry()
    old_text = [(axis.textWidth, axis.textHeight) for axis in axes]
    old_minimum = [box.minimumSize() for box in boxes]

    def state():
        return [central.geometry()] + [(a.textWidth, a.textHeight, a.geometry()) for a in axes]

    try:
        for axis in axes:
            axis.textWidth, axis.textHeight = _AXIS_TEXT_START
            axis._adjustSize()
        # Every plot keeps room for its data: in a small figure the titles, legends and axes
        # took all of it (three spectrum plots 420×300 drew as three lines); the layout is
        # then larger than asked and the caller scales the whole figure down.
        for box, minimum in zip(boxes, old_minimum):
            box.setMinimumSize(max(minimum.width(), MIN_DATA_SIDE), max(minimum.height(), MIN_DATA_SIDE))
        for _ in range(4):
            central.setGeometry(QRectF(0, 0, width, height))
            _activate(central)
            _redo_width_dependent_curves(scene)
            before = state()
            laid_out = central.geometry()
            scratch = QImage(max(1, round(laid_out.width() * ratio)), max(1, round(laid_out.height() * ratio)),
                             QImage.Format.Format_ARGB32_Premultiplied)
            scratch.setDevicePixelRatio(ratio)
            painter = QPainter(scratch)
            try:
                scene.render(painter, QRectF(0, 0, laid_out.width(), laid_out.height()),
                             QRectF(0, 0, laid_out.width(), laid_out.height()))
            finally:
                painter.end()
            central.setGeometry(QRectF(0, 0, width, height))
            _activate(central)
            if state() == before:
                break
        yield QRectF(0, 0, central.geometry().width(), central.geometry().height())
    finally:
        for axis, (text_width, text_height) in zip(axes, old_text):
            axis.textWidth, axis.textHeight = text_width, text_height
            axis._adjustSize()
        for box, minimum in zip(boxes, old_minimum):
            box.setMinimumSize(minimum)
        central.setGeometry(old_geometry)
        _activate(central)
        _redo_width_dependent_curves(scene)  # back to the screen's width


def _redo_width_dependent_curves(scene) -> None:
    """Recompute what the curves that thin themselves to their plot's width draw, at the width
    the plot has now.

    pyqtgraph caches a downsampled (``setDownsampling(auto=True)``) or clipped curve as it was
    for the view box's width when its data was last set, and a resize that keeps the range does
    not refresh it; so a figure drew the heatmap's exact column at whatever width the plot had
    when that result arrived (5,000 or 5,714 points for the same 20,000-position RoPE column,
    varying run to run with the event timing).  Refreshed here, the figure depends on its size only.
    """
    for item in scene.items():
        if isinstance(item, pg.PlotDataItem) and (item.opts["autoDownsample"] or item.opts["clipToView"]):
            item.viewRangeChanged()


def _activate(item) -> None:
    """Apply a geometry change to every nested layout now; Qt would wait for the event loop.

    Parents before children, a few rounds, since a child's new size can change its parent's.
    (``QGraphicsWidget.layout`` is called unbound: pyqtgraph's GraphicsLayout shadows it.)
    """
    if item is None:
        return
    for _ in range(3):
        pending, widgets = [item], []
        while pending:
            current = pending.pop(0)
            if isinstance(current, QGraphicsWidget):
                widgets.append(current)
            pending.extend(current.childItems())
        for widget in widgets:
            layout = QGraphicsWidget.layout(widget)
            if layout is not None:
                layout.activate()
            # only these items' requests: a window-level relayout could resize the view itself
            QApplication.sendPostedEvents(widget, QEvent.Type.LayoutRequest)


TITLE_MIN_POINTS = 6.0


def title_font(base: QFont, title: str, width: float) -> QFont:
    """The figure's title line: bold, 1.25× the text (at least 11 pt), smaller when the title
    would not fit the figure's width (a 160 px wide export cut "RoPE rotations — position 20"
    at both ends), down to TITLE_MIN_POINTS; past that it is elided."""
    font = QFont(base)
    font.setPointSizeF(max(11.0, font.pointSizeF() * 1.25))
    font.setBold(True)
    wide = QFontMetricsF(font).horizontalAdvance(title)
    if wide > width * 0.96:
        font.setPointSizeF(max(TITLE_MIN_POINTS, font.pointSizeF() * width * 0.96 / wide))
    return font


def paint_figure(dock: Any, painter: QPainter, size: tuple[int, int], theme: str) -> None:
    """Paint the dock's figure into ``painter`` over the logical rectangle (0, 0, *size)."""
    width, height = size
    background, foreground = THEMES[theme]
    painter.fillRect(QRectF(0, 0, width, height), QColor(background))
    widget = dock.export_widget()
    title = dock.export_title()
    top = 0.0
    if not _title_shown(widget, title):
        font = title_font(painter.font(), _plain(title), width)
        top = QFontMetricsF(font).height() * 1.6
        painter.save()
        painter.setFont(font)
        painter.setPen(QColor(foreground))
        text = QFontMetricsF(font).elidedText(_plain(title), Qt.TextElideMode.ElideRight, width * 0.96)
        painter.drawText(QRectF(0, 0, width, top), Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()
    area = QRectF(0, top, width, height - top)
    # the images are made crisp once laid out at the figure size: their repeat factor follows
    # the size they are drawn at in the figure, never the window's (a shown and a hidden dock, or
    # the GUI and `peapp render`, then draw the same pixels)
    with _export_style(widget, theme):
        if isinstance(widget, pg.GraphicsView):
            ratio = painter.device().devicePixelRatioF()
            vector = not isinstance(painter.device(), QImage)
            with _scene_at_size(widget, area.width(), area.height(), ratio) as source, _crisp_images(widget), \
                    _curves_as_paths(widget, vector):
                if isinstance(painter.device(), QSvgGenerator):
                    _render_items_with_own_clips(widget.scene(), painter, area, source)
                else:
                    widget.scene().render(painter, area, source, Qt.AspectRatioMode.KeepAspectRatio)
        else:
            with _widget_at_size(widget, area.size(), theme) as laid_out, _crisp_images(widget):
                # Laid out at the figure size; if its minimum size is larger, shrink it uniformly.
                factor = min(1.0, area.width() / laid_out.width(), area.height() / laid_out.height())
                painter.save()
                try:
                    painter.translate(area.topLeft())
                    painter.scale(factor, factor)
                    widget.render(painter, QPoint(), QRegion(widget.rect()), QWidget.RenderFlag.DrawChildren)
                finally:
                    painter.restore()


@contextlib.contextmanager
def _curves_as_paths(widget: QWidget, vector: bool) -> Iterator[None]:
    """In an SVG or PDF, one path per curve (an SVG/PDF reader then sees a curve, not 1,000 lines);
    a PNG keeps the segments the screen draws.

    Stroking one path is what made ``peapp render heatmap`` at 100,000 positions slow: the exact
    column of a fast RoPE or sinusoid pair, drawn as per-pixel min/max, is a zigzag of ~3,000
    points over itself, and Qt's antialiased stroker took ~2 s a paint for it as one 1.5 px path
    (0.02 s as segments), three paints a figure.  The pixels are the same lines either way.
    """
    undo: list = []
    try:
        if vector:
            for scene in _scenes(widget):
                for item in scene.items():
                    if isinstance(item, pg.PlotCurveItem):
                        mode = item.opts["segmentedLineMode"]
                        item.setSegmentedLineMode("off")
                        undo.append(lambda i=item, m=mode: i.setSegmentedLineMode(m))
        yield
    finally:
        for action in reversed(undo):
            action()


def _render_items_with_own_clips(scene, painter: QPainter, target: QRectF, source: QRectF) -> None:
    """What ``scene.render(painter, target, source, KeepAspectRatio)`` paints, item by item, each
    with its clip set explicitly.

    Qt's SVG engine (6.11) keeps an item's clip after ``QPainter.restore`` returns to an outer
    clip (``QGraphicsScene.render`` clips to the target first), so every later item was written
    under the clip of the last clipped one: an SVG reader then cut the axis lines and ticks away
    (the PNG, from the raster engine, has them).  pyqtgraph's SVGExporter paints item by item
    for the same kind of reason.  Here each item gets the clip the scene would give it (its
    clipping ancestors' shapes and the figure's source rectangle) set on its own.
    """
    scale = min(target.width() / source.width(), target.height() / source.height())
    # scene → figure: the source's corner to the origin, scaled, centred in the target (Qt's
    # row-vector order: the left factor applies first)
    view = QTransform.fromTranslate(-source.x(), -source.y()) * QTransform.fromScale(scale, scale) * \
        QTransform.fromTranslate(target.x() + (target.width() - source.width() * scale) / 2,
                                 target.y() + (target.height() - source.height() * scale) / 2)
    base = painter.transform()
    figure = QPainterPath()
    figure.addRect(source)
    clips_children = QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape
    for item in scene.items(Qt.SortOrder.AscendingOrder):
        if not item.isVisible() or item.effectiveOpacity() <= 0 or \
                item.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents:
            continue
        clip = item.mapFromScene(figure)
        ancestor = item.parentItem()
        while ancestor is not None:
            if ancestor.flags() & clips_children:
                clip = clip.intersected(item.mapFromItem(ancestor, ancestor.shape()))
            ancestor = ancestor.parentItem()
        if item.flags() & QGraphicsItem.GraphicsItemFlag.ItemClipsToShape:
            clip = clip.intersected(item.shape())
        if clip.isEmpty():
            continue
        painter.save()
        try:
            painter.setTransform(item.deviceTransform(view) * base)
            painter.setClipPath(clip)
            painter.setOpacity(item.effectiveOpacity())
            option = QStyleOptionGraphicsItem()
            option.exposedRect = item.boundingRect()
            item.paint(painter, option, None)
        finally:
            painter.restore()


@contextlib.contextmanager
def _widget_at_size(widget: QWidget, size: QSizeF, theme: str) -> Iterator[QSizeF]:
    """An ordinary widget resized (and re-laid-out) to the figure size, in the theme's colours."""
    background, foreground = THEMES[theme]
    old_size = widget.size()
    had_palette = widget.testAttribute(Qt.WidgetAttribute.WA_SetPalette)
    old_palette = QPalette(widget.palette())
    palette = QPalette(widget.palette())
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        palette.setColor(role, QColor(background))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText,
                 QPalette.ColorRole.Mid):
        palette.setColor(role, QColor(foreground))
    try:
        widget.setPalette(palette)
        widget.resize(round(size.width()), round(size.height()))
        _activate_widget(widget)
        yield QSizeF(max(1, widget.width()), max(1, widget.height()))
    finally:
        widget.setPalette(old_palette if had_palette else QPalette())
        widget.setAttribute(Qt.WidgetAttribute.WA_SetPalette, had_palette)
        widget.resize(old_size)
        _activate_widget(widget)


def _activate_widget(widget: QWidget) -> None:
    """Apply a resize to the children now (layouts otherwise wait for the event loop)."""
    for w in [widget, *widget.findChildren(QWidget)]:
        layout = w.layout()
        if layout is not None:
            layout.activate()
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def _painting(device) -> QPainter:
    painter = QPainter()
    if not painter.begin(device):
        raise ExportError("the figure could not be painted (the paint device refused to open)")
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    return painter


def render_image(dock: Any, options: FigureOptions = FigureOptions(), meta: dict | None = None) -> QImage:
    """The figure as a QImage of ``size · scale`` pixels (high-DPI: text and lines stay sharp)."""
    width, height = figure_size(dock, options)
    pixels = (round(width * options.scale), round(height * options.scale))
    if pixels[0] * pixels[1] > MAX_PIXELS:
        raise ExportError(f"a {pixels[0]}×{pixels[1]} pixel image is too large; lower the scale or size")
    # Opaque (every theme fills its background): without an alpha channel the PNG encoder has a
    # quarter less to compress, 80 ms instead of 130 for a default 1600×1200 figure, same pixels
    image = QImage(pixels[0], pixels[1], QImage.Format.Format_RGB32)
    if image.isNull():
        raise ExportError(f"not enough memory for a {pixels[0]}×{pixels[1]} pixel image; lower the scale")
    # Paint in logical coordinates on a high-DPI image: fonts and images scale, cosmetic pens
    # stay one device pixel wide, as on a high-DPI screen.
    # While painting, the image claims screen DPI (fonts in points convert to pixels by the
    # device's DPI, and the device pixel ratio already does the scaling); the file then records
    # the real print resolution.
    image.setDevicePixelRatio(pixels[0] / width)
    _set_dpi(image, SCREEN_DPI)
    image.fill(QColor(THEMES[options.theme][0]))
    painter = _painting(image)
    try:
        paint_figure(dock, painter, (width, height), options.theme)
    finally:
        painter.end()
    image.setDevicePixelRatio(1.0)
    _set_dpi(image, options.dpi)
    if meta is not None:
        image.setText("Title", dock.export_title())
        image.setText("Software", f"peapp {__version__}")
        image.setText(export_data.METADATA_KEY, export_data.metadata_json(meta))
    return image


def _set_dpi(image: QImage, dpi: float) -> None:
    dots_per_meter = round(dpi / 0.0254)
    image.setDotsPerMeterX(dots_per_meter)
    image.setDotsPerMeterY(dots_per_meter)


def png_bytes(dock: Any, options: FigureOptions, meta: dict) -> bytes:
    image = render_image(dock, options, meta)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ExportError("the PNG encoder failed")
    buffer.close()
    return bytes(data.data())


def svg_bytes(dock: Any, options: FigureOptions, meta: dict) -> bytes:
    width, height = figure_size(dock, options)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator(QSvgGenerator.SvgVersion.Svg11)  # 1.1: clip paths are written
    generator.setOutputDevice(buffer)
    generator.setSize(QSizeF(width, height).toSize())
    generator.setViewBox(QRectF(0, 0, width, height))
    generator.setResolution(round(SCREEN_DPI))
    generator.setTitle(_plain(dock.export_title()))
    generator.setDescription(f"Exported by peapp {__version__}; the parameters are in <metadata>.")
    painter = _painting(generator)
    try:
        paint_figure(dock, painter, (width, height), options.theme)
    finally:
        painter.end()
    buffer.close()
    return _svg_with_metadata(_device_strokes(_outline_text(bytes(data.data()))), meta)


# Qt writes each painter state as <g transform="matrix(a,b,c,d,e,f)" …> holding the items drawn
# in it (never another <g>); a cosmetic pen's items carry vector-effect="non-scaling-stroke".
_STATE_GROUP = re.compile(r'(<g\b[^>]*?)\s+transform="matrix\(([^)]*)\)"([^>]*>)(.*?)(</g>)', re.S)
_ELEMENT = re.compile(r"<(\w+)\b([^>]*?)(/?)>", re.S)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _device_strokes(svg: bytes) -> bytes:
    """Cosmetic strokes written in the figure's own coordinates, so every SVG reader draws the
    lines the PNG shows.

    A curve in a plot is painted in data coordinates under the view's (non-uniform) transform
    with a cosmetic pen, which Qt writes as ``vector-effect="non-scaling-stroke"`` inside a
    ``<g transform=…>``.  librsvg (GNOME viewers, ``rsvg-convert``, pandoc/LaTeX pipelines),
    Inkscape's export and others ignore that attribute and scale the 1 px stroke with the data:
    cross-sections came out as bands tens of pixels thick.  pyqtgraph's own SVGExporter maps
    such paths to device coordinates for the same reason.  Here every group holding a cosmetic
    stroke loses its transform: the stroked shapes get their points mapped through it (their
    stroke is then as wide as asked, in figure units, in any reader), and the other items of the
    group (text, images, glyph outlines) carry the transform themselves.
    """
    def group(match: re.Match) -> str:
        head, values, tail, body, close = match.groups()
        if "non-scaling-stroke" not in body:
            return match.group(0)
        m = [float(v) for v in _NUMBER.findall(values)]
        if len(m) != 6:
            return match.group(0)
        return f"{head}{tail}{_ELEMENT.sub(lambda e: _element_in_device(e, m), body)}{close}"

    return _STATE_GROUP.sub(group, svg.decode("utf-8")).encode("utf-8")


def _element_in_device(match: re.Match, m: list[float]) -> str:
    """One item of a state group with the group's matrix ``m`` applied (see _device_strokes)."""
    tag, attributes, empty = match.groups()
    a, b, c, d, e, f = m

    def point(x: float, y: float) -> str:
        return f"{a * x + c * y + e:.6g},{b * x + d * y + f:.6g}"

    def pairs(text: str) -> str:
        numbers = [float(v) for v in _NUMBER.findall(text)]
        return " ".join(point(x, y) for x, y in zip(numbers[0::2], numbers[1::2]))

    if "non-scaling-stroke" in attributes:
        values = dict(_ATTRIBUTE.findall(attributes))
        rest = re.sub(r'\s(?:vector-effect|d|points|x|y|width|height)="[^"]*"', "", attributes)
        if tag == "path":  # Qt writes absolute M, L, C and Z only
            data = re.sub(r"([-+\d.eE]+),([-+\d.eE]+)", lambda p: point(float(p.group(1)), float(p.group(2))),
                          values.get("d", ""))
            return f'<path{rest} d="{data}"{" /" if empty else ""}>'
        if tag in ("polyline", "polygon"):
            return f'<{tag}{rest} points="{pairs(values.get("points", ""))}"{" /" if empty else ""}>'
        if tag == "rect":  # under a rotation or a flip a rectangle is a path
            x, y = float(values.get("x", 0)), float(values.get("y", 0))
            w, h = float(values.get("width", 0)), float(values.get("height", 0))
            corners = " L".join(point(px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
            return f'<path{rest} d="M{corners} Z"{" /" if empty else ""}>'
    if tag in ("path", "polyline", "polygon", "rect", "ellipse", "circle", "line", "image", "text", "use"):
        return f'<{tag} transform="matrix({a:.6g},{b:.6g},{c:.6g},{d:.6g},{e:.6g},{f:.6g})"{attributes}{empty}>'
    return match.group(0)  # tspan and the like: inside an element that carries the transform


# Scripts a machine may have no font for (Devanagari, Vedic extensions, Devanagari extended):
# their <text> runs are drawn as outlines too, so the SVG shows them anywhere.
_NEEDS_OUTLINES = re.compile("[\u0900-\u097f\u1cd0-\u1cff\ua8e0-\ua8ff]")
_BUNDLED_FAMILY = "Noto Sans Devanagari"  # resources/fonts: a reader's machine may not have it
_SVG_TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.S)
_ATTRIBUTE = re.compile(r'([\w:-]+)="([^"]*)"')


def _outline_text(svg: bytes) -> bytes:
    """Each ``<text>`` run in a script a bare machine has no font for (Hindi) gets its outline
    drawn as a ``<path>`` from the font Qt drew it with (the bundled Noto Sans Devanagari), and
    the text itself is kept, transparent, for search and copy; so is every other run drawn in
    that font (a Hindi figure's Latin words and numbers), which Qt placed by its widths.

    Qt's SVG generator writes text as ``<text font-family="Sans Serif">``: a viewer without a
    Devanagari font draws boxes for it (measured: ImageMagick's renderer on this machine).  Runs
    in Latin script drawn in another font stay text only (every machine has a font for them).
    """
    from xml.sax.saxutils import escape, unescape

    from PySide6.QtGui import QPainterPath

    def outline(match: re.Match) -> str:
        attributes, content = match.group(1), match.group(2)
        text = unescape(content)
        values = dict(_ATTRIBUTE.findall(attributes))
        # a Latin run drawn in the bundled font (a Hindi figure's "RoPE", its numbers) is placed
        # by that font's widths: a reader without the font draws it in a wider one, over the
        # run that follows, so it is outlined too
        bundled = values.get("font-family", "").startswith(_BUNDLED_FAMILY)
        if not text.strip() or not (_NEEDS_OUTLINES.search(text) or bundled):
            return match.group(0)
        font = QFont(values.get("font-family", ""))
        size = float(values.get("font-size", "12"))  # pixels (at the generator's 96 dpi)
        if size.is_integer():
            font.setPixelSize(max(1, int(size)))
        else:
            font.setPointSizeF(size * 72 / SCREEN_DPI)
        font.setWeight(QFont.Weight(int(values.get("font-weight", "400"))))
        font.setItalic(values.get("font-style") == "italic")
        path = QPainterPath()
        path.addText(float(values.get("x", 0)), float(values.get("y", 0)), font, text)
        fill = escape(values.get("fill", "#000000"), {'"': "&quot;"})
        opacity = values.get("fill-opacity", "1")
        hidden = re.sub(r'fill-opacity="[^"]*"', 'fill-opacity="0"', attributes) if "fill-opacity" in attributes \
            else attributes + ' fill-opacity="0"'
        return (f'<path fill="{fill}" fill-opacity="{opacity}" stroke="none" fill-rule="nonzero" '
                f'd="{_path_data(path)}"/>\n<text{hidden}>{content}</text>')

    return _SVG_TEXT.sub(outline, svg.decode("utf-8")).encode("utf-8")


def _path_data(path) -> str:
    """A QPainterPath as SVG path data (glyph contours are closed: each ends in Z)."""
    from PySide6.QtGui import QPainterPath

    parts: list[str] = []
    i, count = 0, path.elementCount()
    while i < count:
        e = path.elementAt(i)
        if e.type == QPainterPath.ElementType.MoveToElement:
            if parts:
                parts.append("Z")
            parts.append(f"M{e.x:.2f} {e.y:.2f}")
            i += 1
        elif e.type == QPainterPath.ElementType.LineToElement:
            parts.append(f"L{e.x:.2f} {e.y:.2f}")
            i += 1
        else:  # CurveToElement and its two CurveToDataElements
            c1, c2 = e, path.elementAt(i + 1)
            end = path.elementAt(i + 2)
            parts.append(f"C{c1.x:.2f} {c1.y:.2f} {c2.x:.2f} {c2.y:.2f} {end.x:.2f} {end.y:.2f}")
            i += 3
    if parts:
        parts.append("Z")
    return "".join(parts)


def _svg_with_metadata(svg: bytes, meta: dict) -> bytes:
    """Insert the parameters as <metadata> and keep embedded images crisp when enlarged."""
    from xml.sax.saxutils import escape

    text = svg.decode("utf-8")
    payload = (f'<metadata><peapp:parameters xmlns:peapp="{export_data.SVG_METADATA_NS}">'
               f"{escape(export_data.metadata_json(meta))}</peapp:parameters></metadata>\n"
               "<style>image { image-rendering: pixelated; image-rendering: crisp-edges; }</style>\n")
    match = re.search(r"<svg\b[^>]*>\s*", text)
    if match is None:
        raise ExportError("the SVG generator produced no <svg> element")
    return (text[:match.end()] + payload + text[match.end():]).encode("utf-8")


def pdf_bytes(dock: Any, options: FigureOptions, meta: dict) -> bytes:
    width, height = figure_size(dock, options)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(round(SCREEN_DPI))  # painter units = logical pixels
    page = QPageSize(QSizeF(width * 72 / SCREEN_DPI, height * 72 / SCREEN_DPI), QPageSize.Unit.Point,
                     "figure", QPageSize.SizeMatchPolicy.ExactMatch)
    writer.setPageLayout(QPageLayout(page, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    writer.setTitle(_plain(dock.export_title()))
    writer.setCreator(f"peapp {__version__}")
    writer.setDocumentXmpMetadata(_xmp(meta))
    painter = _painting(writer)
    try:
        paint_figure(dock, painter, (width, height), options.theme)
    finally:
        painter.end()
    buffer.close()
    return bytes(data.data())


def _xmp(meta: dict) -> QByteArray:
    """An XMP packet with the parameters as dc:description (PDF viewers show it as metadata)."""
    from xml.sax.saxutils import escape

    body = escape(export_data.metadata_json(meta))
    packet = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
              '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
              'xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">'
              f'<xmp:CreatorTool>peapp {__version__}</xmp:CreatorTool><pdf:Producer>peapp {__version__}</pdf:Producer>'
              f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(_plain(meta.get("title", "")))}</rdf:li></rdf:Alt></dc:title>'
              f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{body}</rdf:li></rdf:Alt></dc:description>'
              '</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>')
    return QByteArray(packet.encode("utf-8"))


_FIGURE_WRITERS = {"png": png_bytes, "svg": svg_bytes, "pdf": pdf_bytes}


# ---- files ------------------------------------------------------------------------------------------
def figure_bytes(dock: Any, fmt: str, options: FigureOptions = FigureOptions()) -> bytes:
    if fmt not in _FIGURE_WRITERS:
        raise ExportError(f"{fmt!r} is not a figure format; use one of {', '.join(_FIGURE_WRITERS)}")
    width, height = figure_size(dock, options)
    meta = dock_metadata(dock, figure={"format": fmt, "size": [width, height], "scale": options.scale,
                                       "theme": options.theme})
    return _FIGURE_WRITERS[fmt](dock, options, meta)


def export_figure(dock: Any, path: str | os.PathLike, options: FigureOptions = FigureOptions(), *,
                  overwrite: bool = False) -> str:
    """Write the dock's figure to ``path`` (format from the extension), atomically."""
    path = os.fspath(path)
    fmt = export_data.format_of(path)
    export_data.check_targets([path], overwrite)  # before the (possibly slow) painting
    return export_data.write_bytes(path, figure_bytes(dock, fmt, options), overwrite=overwrite)


def export_data_files(dock: Any, path: str | os.PathLike, *, overwrite: bool = False) -> list[str]:
    """Write the dock's arrays (CSV/NPY/NPZ by the extension) and the JSON of its parameters."""
    arrays = {k: np.asarray(v) for k, v in dock.export_arrays().items()}
    return export_data.write_data(path, arrays, dock_metadata(dock), overwrite=overwrite)


def export(dock: Any, path: str | os.PathLike, options: FigureOptions = FigureOptions(), *,
           overwrite: bool = False) -> list[str]:
    """Figure or data, whichever the file name asks for; returns the files written."""
    fmt = export_data.format_of(path)
    if fmt in export_data.FIGURE_FORMATS:
        return [export_figure(dock, path, options, overwrite=overwrite)]
    return export_data_files(dock, path, overwrite=overwrite)


def export_all_files(docks: list, folder: str | os.PathLike, formats: tuple[str, ...],
                     options: FigureOptions = FigureOptions()) -> dict[str, bytes]:
    """Everything Export All would write: ``{path: bytes}`` for every dock and format, named
    after the view (``heatmap.png``, ``heatmap.csv``, ``heatmap.json``…).  Nothing is written."""
    folder = os.fspath(folder)
    if not os.path.isdir(folder):
        raise ExportError(f"folder {folder} does not exist; choose an existing folder")
    files: dict[str, bytes] = {}
    used: set[str] = set()
    for dock in docks:
        stem = current_view_name(dock)
        base, n = stem, 2
        while base in used:  # two docks showing the same view name
            base, n = f"{stem}-{n}", n + 1
        used.add(base)
        for fmt in formats:
            path = os.path.join(folder, f"{base}.{fmt}")
            if fmt in export_data.FIGURE_FORMATS:
                files[path] = figure_bytes(dock, fmt, options)
            else:
                arrays = {k: np.asarray(v) for k, v in dock.export_arrays().items()}
                if arrays:
                    files.update(export_data.data_files(path, arrays, dock_metadata(dock), fmt))
    return files


def export_all(docks: list, folder: str | os.PathLike, formats: tuple[str, ...] = ("png", "svg", "pdf", "csv"),
               options: FigureOptions = FigureOptions(), *, overwrite: bool = False) -> list[str]:
    """Write every given dock's figure and data into ``folder``; all names are checked first."""
    files = export_all_files(docks, folder, formats, options)
    return export_data.write_files(files, overwrite=overwrite)


def parse_size(text: str) -> tuple[int, int]:
    """'800x600' (or '800×600') -> (800, 600)."""
    match = re.fullmatch(r"\s*(\d+)\s*[x×X]\s*(\d+)\s*", text or "")
    if match is None:
        raise ExportError(f"size must look like 800x600 (width x height in pixels); got {text!r}")
    return int(match[1]), int(match[2])
