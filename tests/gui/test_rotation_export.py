"""Small Rotations exports show each circle's "N turns" whole (issue 35, cosmetic: a text item
placed in the view box under the circle, with no room kept for it by the layout, was cut by
the figure's edge in small exports: 640×480 and smaller)."""

from __future__ import annotations

import contextlib

import pytest
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QGraphicsTextItem

from tests.conftest import wait_idle
from ui import export

CLIPS = QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape


def _turns_items(scene) -> list:
    return [item for item in scene.items() if isinstance(item, (QGraphicsSimpleTextItem, QGraphicsTextItem))
            and item.isVisible() and (item.toPlainText() if isinstance(item, QGraphicsTextItem)
                                      else item.text()).endswith("turns")]


@pytest.mark.parametrize("size", [(64, 64), (400, 300), (640, 480), (1600, 1000)])
def test_every_turns_label_is_inside_the_exported_figure(main_window, qtbot, monkeypatch, size):
    dock = main_window.docks["rotationDock"]
    dock.show()
    dock.raise_()
    main_window.document_model.set_view("rotation", pair=0, m=5, n=2)
    wait_idle(qtbot, main_window)
    dock.set_position(20)
    # the circles' picture itself, not an idle window: under load the panel's request can still be on
    # its way (throttled) when the window first looks idle, and no label is drawn yet
    qtbot.waitUntil(lambda: len(_turns_items(dock.graphics.scene())) == 5, timeout=60_000)
    seen: list = []
    crisp = export._crisp_images

    @contextlib.contextmanager
    def looking(widget):  # inside paint_figure: the scene is laid out at the figure's size
        scene = dock.graphics.scene()
        figure = dock.graphics.centralWidget.geometry()
        for item in _turns_items(scene):
            rect = item.sceneBoundingRect()
            clips = [figure]
            parent = item.parentItem()
            while parent is not None:
                if parent.flags() & CLIPS:
                    clips.append(parent.sceneBoundingRect())
                parent = parent.parentItem()
            seen.append((item, rect, clips))
        with crisp(widget):
            yield

    monkeypatch.setattr(export, "_crisp_images", looking)
    export.render_image(dock, export.FigureOptions(scale=1, size=size))
    assert len(seen) == 5, seen  # one under each circle
    for _item, rect, clips in seen:
        for clip in clips:  # drawn whole: inside the figure and every clipping parent (the view box)
            assert clip.adjusted(-0.5, -0.5, 0.5, 0.5).contains(rect), (size, rect, clip)


def test_the_title_line_fits_a_narrow_figure(qapp):
    from PySide6.QtGui import QFont, QFontMetricsF

    title = "RoPE rotations — position 20"
    wide = export.title_font(QFont(), title, 800)
    assert wide.bold() and wide.pointSizeF() >= 11
    for width in (160, 240, 320):
        font = export.title_font(QFont(), title, width)
        assert QFontMetricsF(font).horizontalAdvance(title) <= width * 0.96 + 0.5, width
