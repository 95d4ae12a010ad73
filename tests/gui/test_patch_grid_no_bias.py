"""The patch grid without a relative position bias table: the choice is not offered, and a
session that asks for it says why in the interface's language, under the stale banner."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.conftest import wait_idle


def _dock(main_window, qtbot):
    dock = main_window.docks["patchGridDock"]
    main_window.show_panel("patchGridDock")
    wait_idle(qtbot, main_window)
    qtbot.waitUntil(lambda: dock.last_result is not None, timeout=10_000)
    return dock


def test_relative_bias_is_not_offered_without_a_table(main_window, qtbot):
    dock = _dock(main_window, qtbot)
    for name in ("encoding", "second"):
        combo = dock.controls[name]
        index = combo.findData("relative_bias")
        assert index >= 0
        assert not combo.model().item(index).isEnabled() and combo.view().isRowHidden(index)
        # stepping through the choices with the keyboard never lands on it
        combo.setFocus()
        qtbot.waitUntil(combo.hasFocus, timeout=2000)
        for _ in range(combo.count() + 1):
            QTest.keyClick(combo, Qt.Key.Key_Down)
            assert combo.currentData() != "relative_bias"


def test_an_undrawable_choice_is_stale_and_said_in_hindi(main_window, qtbot):
    from ui import i18n

    dock = _dock(main_window, qtbot)
    assert not dock.is_stale
    try:
        i18n.set_language("hi")
        wait_idle(qtbot, main_window)
        main_window.document_model.set_view("patch_grid", encoding="relative_bias")  # as an old session would
        wait_idle(qtbot, main_window)
        qtbot.waitUntil(lambda: dock.is_stale, timeout=5000)
        text = dock.readout.text()
        assert "रिलेटिव पोज़िशन बायस टेबल" in text and "no relative" not in text
        main_window.document_model.set_view("patch_grid", encoding="sincos_2d")
        wait_idle(qtbot, main_window)
        qtbot.waitUntil(lambda: not dock.is_stale, timeout=5000)
    finally:
        i18n.set_language("en")
