"""The article docks inside the real main window: registered, toggled from the View menu, typed into."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.conftest import wait_idle


@pytest.mark.all_docks
def test_docks_are_registered_and_drawn(main_window):
    for name in ("exampleDock", "extrapolationDock", "timeSeriesDock"):
        dock = main_window.docks[name]
        assert dock.objectName() == name
        assert dock.toggleViewAction() in main_window.view_menu.actions()
        assert dock.last_result is not None and dock.caption.text()


def test_typing_a_word_with_t_is_not_taken_by_the_heatmap_shortcut(main_window, qtbot):
    dock = main_window.docks["exampleDock"]
    dock.raise_()
    dock.word_edit.setFocus()
    dock.word_edit.selectAll()
    mode = main_window.document_model.document.view("heatmap", "mode", "encoding")
    qtbot.keyClicks(dock.word_edit, "Token")
    qtbot.keyClick(dock.word_edit, Qt.Key.Key_Return)
    wait_idle(qtbot, main_window)
    doc = main_window.document_model.document
    assert dock.word_edit.text() == "Token" and doc.view("example", "word") == "Token"
    assert doc.view("heatmap", "mode", "encoding") == mode
    assert dock.last_result.word == "Token"


def test_each_article_dock_fits_a_1000px_window_beside_the_parameters(main_window):
    params = main_window.docks["parametersDock"].minimumSizeHint().width()
    for name in ("exampleDock", "extrapolationDock", "timeSeriesDock"):
        assert params + main_window.docks[name].minimumSizeHint().width() <= 1000, name


def test_article_dock_shortcuts_are_unique(main_window):
    mine = {main_window.docks[n].shortcut for n in ("exampleDock", "extrapolationDock", "timeSeriesDock")}
    others = {d.shortcut for name, d in main_window.docks.items()
              if name not in ("exampleDock", "extrapolationDock", "timeSeriesDock")}
    assert len(mine) == 3 and not mine & others
