"""Every panel fits a 1366 × 768 screen with the status bar in view, in English and Hindi, and
the Checkpoint panel shows its content (issue: a new user at 1366 × 768)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.conftest import wait_idle

SCREEN = (1366, 768)
TITLE_BAR = 40  # a window manager's title bar, above the window's own minimum height


@pytest.mark.all_docks
@pytest.mark.parametrize("lang", ["en", "hi"])
def test_every_panel_fits_1366_by_768_with_the_status_bar(main_window, qtbot, lang):
    from ui import i18n

    try:
        i18n.set_language(lang)
        wait_idle(qtbot, main_window)
        for name in main_window.docks:  # the Checkpoint panel too (a model open)
            main_window.show_panel(name)
            qtbot.waitUntil(lambda n=name: main_window.docks[n].isVisible(), timeout=3000)
            main_window.layout().activate()
            least = main_window.minimumSizeHint()
            assert least.width() <= SCREEN[0], (lang, name, least)
            assert least.height() + TITLE_BAR <= SCREEN[1], (lang, name, least)
        main_window.resize(SCREEN[0], SCREEN[1] - TITLE_BAR)
        qtbot.waitUntil(lambda: main_window.height() <= SCREEN[1] - TITLE_BAR, timeout=3000)
        bar = main_window.statusBar()
        assert bar.isVisible() and bar.geometry().bottom() < main_window.height()
    finally:
        i18n.set_language("en")


def test_the_checkpoint_panel_has_the_views_room_and_ctrl_6_brings_it_forward(main_window, qtbot):
    """It was a 151-px strip under everything (its tensor list out of view); it is a tab beside
    the views, as tall as they are, and Ctrl+6 (a key event to the window) brings it to the front."""
    main_window.resize(1366, 728)
    checkpoint, heatmap = main_window.docks["checkpointDock"], main_window.docks["heatmapDock"]
    checkpoint.show()
    wait_idle(qtbot, main_window)
    assert main_window.dockWidgetArea(checkpoint) == main_window.dockWidgetArea(heatmap)
    main_window.show_panel("heatmapDock")
    qtbot.waitUntil(lambda: heatmap.visibleRegion().isEmpty() is False, timeout=3000)
    QTest.keyClick(main_window, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not checkpoint.visibleRegion().isEmpty(), timeout=3000)
    assert heatmap.visibleRegion().isEmpty()
    assert checkpoint.height() >= 0.6 * main_window.height()
    assert checkpoint.width() >= 0.6 * main_window.width()


def test_widening_the_window_gives_the_width_to_the_plots(main_window, qtbot):
    """Qt shared a new width between the dock areas (Parameters 340 → 690 px); the column keeps its
    width, also one the user set (as by dragging its edge)."""
    parameters, heatmap = main_window.docks["parametersDock"], main_window.docks["heatmapDock"]
    main_window.resize(1238, 700)
    qtbot.waitUntil(lambda: main_window.width() == 1238, timeout=3000)
    wait_idle(qtbot, main_window)
    column = parameters.width()
    main_window.resize(1600, 700)
    qtbot.waitUntil(lambda: heatmap.width() > 1600 - column - 40, timeout=3000)
    assert abs(parameters.width() - column) <= 4
    # the user sets another width (what dragging the column's edge does; the window keeps its size)
    main_window.resizeDocks([parameters, heatmap], [column + 60, 1600 - column - 60], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: parameters.width() >= column + 40, timeout=3000)
    dragged = parameters.width()
    main_window.resize(1366, 700)
    qtbot.waitUntil(lambda: main_window.width() == 1366, timeout=3000)
    qtbot.waitUntil(lambda: abs(parameters.width() - dragged) <= 4, timeout=3000)
    for width in (1500, 1300, 1600, 1400):  # and it does not creep
        main_window.resize(width, 700)
        qtbot.waitUntil(lambda w=width: main_window.width() == w, timeout=3000)
        qtbot.waitUntil(lambda: abs(parameters.width() - dragged) <= 4, timeout=3000)


@pytest.mark.parametrize("width", [1238, 1366, 1600])
def test_panel_tabs_show_their_short_names_whole(main_window, qtbot, width):
    from PySide6.QtWidgets import QTabBar

    main_window.resize(width, 728)
    qtbot.waitUntil(lambda: main_window.width() == width, timeout=3000)
    main_window.name_tabs()
    wait_idle(qtbot, main_window)
    bars = [b for b in main_window.findChildren(QTabBar) if b.parent() is main_window and b.isVisible() and b.count() > 3]
    assert bars
    for bar in bars:
        for i in range(bar.count()):
            # never squeezed below the room its whole name needs (squeezed, Qt elides: "Heatm…")
            assert bar.tabRect(i).width() >= bar.tabSizeHint(i).width(), (width, bar.tabText(i), bar.tabRect(i))
        assert bar.elideMode() == Qt.TextElideMode.ElideNone and bar.usesScrollButtons()


def _luminance(color) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())


def test_panel_captions_are_readable(main_window, qtbot):
    """The one-line captions were grey italic (palette(mid)): about 2:1 against the window.  Read as
    a rendered pixel would: the label's text colour after its style sheet, against the window."""
    from PySide6.QtGui import QPalette

    heat = main_window.docks["heatmapDock"]
    caption = heat.caption
    caption.ensurePolished()
    text = caption.palette().color(QPalette.ColorRole.WindowText)
    background = main_window.palette().color(QPalette.ColorRole.Window)
    light, dark = sorted((_luminance(text), _luminance(background)), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5  # WCAG AA for body text
