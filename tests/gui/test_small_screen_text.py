"""At 1366 × 768 (a window 1366 × 728 under a title bar) the panels' texts and tables show whole,
in English and Hindi (issue 35, cosmetic: the attention panel's notes were cut at the bottom of
its scroll area, the probes table showed 3 of its 6 rows)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint

from tests.conftest import wait_idle

WINDOW = (1366, 728)


def _at_small_screen(main_window, qtbot, lang: str) -> None:
    from ui import i18n

    i18n.set_language(lang)
    main_window.resize(*WINDOW)
    qtbot.waitUntil(lambda: (main_window.width(), main_window.height()) == WINDOW, timeout=3000)


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_the_attention_panel_shows_its_notes_without_scrolling(main_window, qtbot, lang):
    from ui import i18n

    dock = main_window.docks["attentionDock"]
    try:
        _at_small_screen(main_window, qtbot, lang)
        main_window.show_panel("attentionDock")
        wait_idle(qtbot, main_window)
        qtbot.wait(100)
        view = dock.scroll.viewport()
        for label in (dock.received_label, dock.shuffle_label, dock.readout):
            assert label.text()
            top = label.mapTo(view, QPoint(0, 0)).y()
            # the whole text: as tall as its width needs, and inside the scroll area's view
            assert label.height() >= label.heightForWidth(label.width()), (lang, label.objectName())
            assert 0 <= top and top + label.height() <= view.height(), (lang, label.objectName(), top, view.height())
        assert not dock.scroll.verticalScrollBar().isVisible()
        assert dock.graphics.height() >= 200 and min(p.height() for p in dock.strip.visible_widgets()) >= 150
    finally:
        i18n.set_language("en")
