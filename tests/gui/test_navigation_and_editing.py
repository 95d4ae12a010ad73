"""Issue 18, "Navigation, editing": panel keys show and raise, Export (Ctrl+E) acts on the panel in
use on screen, the restored layout, Ctrl+Z inside a field, one undo step per committed value, and
the Parameters panel's fields (disabled when irrelevant, refusals said under the field, typed
values past the range refused with the validator's words)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QTabBar

from tests.conftest import wait_idle


def _on_screen(dock) -> bool:
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def _press(qtbot, window, key, modifier=Qt.KeyboardModifier.ControlModifier):
    widget = window.focusWidget() or window
    qtbot.keyClick(widget, key, modifier)
    qtbot.wait(20)


def test_a_panel_key_shows_and_raises_and_never_hides(qtbot, main_window):
    heat, rotation = main_window.docks["heatmapDock"], main_window.docks["rotationDock"]
    main_window.activateWindow()
    assert _on_screen(heat) and not _on_screen(rotation)  # rotation is a background tab
    _press(qtbot, main_window, Qt.Key.Key_2)
    assert _on_screen(rotation) and not _on_screen(heat)
    _press(qtbot, main_window, Qt.Key.Key_2)  # a toggle would hide it now
    assert _on_screen(rotation)
    rotation.toggleViewAction().trigger()  # the View menu still toggles
    assert not rotation.isVisible()
    _press(qtbot, main_window, Qt.Key.Key_2)
    assert _on_screen(rotation)
    _press(qtbot, main_window, Qt.Key.Key_1)
    assert _on_screen(heat)


def test_view_menu_and_tour_list_the_panels_in_key_order(main_window):
    from ui import help_menu

    by_title = {dock.title: type(dock).shortcut for dock in main_window.docks.values()}
    menu_keys = [by_title[a.text()] for a in main_window.view_menu.actions() if a.text() in by_title]
    assert menu_keys == sorted(menu_keys), menu_keys  # Ctrl+0, Ctrl+1 … Ctrl+9, not …2, 4, 3
    assert [a.shortcut().toString() for a in main_window.go_to_menu.actions()] == sorted(menu_keys)
    assert [e[2] for e in help_menu.tour_entries(main_window)] == sorted(menu_keys)


def test_export_acts_on_the_panel_last_used_that_is_on_screen(qtbot, main_window):
    actions = main_window.export_actions
    heat, rotation, series = (main_window.docks[n] for n in ("heatmapDock", "rotationDock", "timeSeriesDock"))
    asked = []
    actions.ask_figure = lambda dock: asked.append(dock)  # answers "cancel" after noting the panel
    heat.graphics.setFocus()
    qtbot.wait(20)
    assert actions.current_dock() is heat
    rotation.raise_()  # its tab clicked: the heatmap is now behind it
    qtbot.wait(20)
    assert not _on_screen(heat) and actions.current_dock() is rotation
    actions.export_figure_action.trigger()
    assert asked == [rotation]
    series.setFloating(True)  # torn off: on screen beside the rotations
    qtbot.waitUntil(lambda: _on_screen(series), timeout=2000)
    series.widget().setFocus(Qt.FocusReason.MouseFocusReason)  # the user clicks into it
    qtbot.wait(20)
    assert actions.current_dock() is series
    series.hide()
    assert actions.current_dock() is rotation  # the panel used before it, on screen
    for dock in main_window.docks.values():
        dock.hide()
    assert actions.current_dock() is None  # nothing on screen: nothing exported, said instead


def _rect_in(window, widget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def test_restored_layout_keeps_an_empty_checkpoint_panel_closed(qtbot, settings):
    from ui.main_window import MainWindow

    first = MainWindow(load_backend="now", settings=settings)
    qtbot.addWidget(first)
    first.resize(1229, 691)
    first.show()
    qtbot.waitExposed(first)
    wait_idle(qtbot, first)
    checkpoint = first.docks["checkpointDock"]
    checkpoint.show()  # a model was open when the app was closed, the strip at 40 % of the height
    qtbot.wait(50)
    first.resizeDocks([checkpoint], [int(first.height() * 0.4)], Qt.Orientation.Vertical)
    first.docks["patchGridDock"].raise_()
    qtbot.wait(50)
    first.close()
    assert settings.value("window/state") is not None

    window = MainWindow(load_backend="now", settings=settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: not window.docks["checkpointDock"].isVisible(), timeout=3000)
    wait_idle(qtbot, window)
    # as a window manager holds it on a 768-px screen: the views keep their tab bar clear of the
    # caption and Export button of the panel in front
    window.setFixedHeight(691)
    qtbot.wait(100)
    grid = window.docks["patchGridDock"]
    assert _on_screen(grid)
    bars = [b for b in window.findChildren(QTabBar) if b.isVisible() and b.count() > 3]
    assert bars
    for widget in (grid.caption, window.export_actions.buttons["patchGridDock"]):
        assert widget.isVisible()
        for bar in bars:
            assert not _rect_in(window, widget).intersects(_rect_in(window, bar)), widget.objectName()
    window.close()


def test_ctrl_z_in_a_focused_spin_box_undoes_each_committed_value(qtbot, main_window):
    model = main_window.document_model
    spin = main_window.docks["parametersDock"].forms["sinusoidal"].widgets["n_positions"]
    main_window.activateWindow()
    spin.setFocus()

    def commit(text: str) -> None:
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin, text)
        qtbot.keyClick(spin, Qt.Key.Key_Return)
        wait_idle(qtbot, main_window)

    commit("300")
    commit("2000")
    assert model.document.spec().n_positions == 2000
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the focus stays in the field
    assert model.document.spec().n_positions == 300  # not 50: two commits, two steps
    assert spin.value() == 300
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert model.document.spec().n_positions == 50 and spin.value() == 50
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert model.document.spec().n_positions == 300
    wait_idle(qtbot, main_window)


def test_one_slider_drag_is_one_undo_step_and_two_drags_are_two(qtbot, main_window):
    model = main_window.document_model
    model.try_set_family("rope")
    slider = main_window.docks["parametersDock"].forms["rope"].widgets["head_dim"]
    steps = model.undo_stack.count()
    for target in (64, 32):
        slider.setSliderDown(True)
        for value in range(128, target - 2, -2):
            slider.setValue(value)
        qtbot.waitUntil(lambda t=target: model.document.spec("rope").head_dim == t, timeout=2000)
        slider.setSliderDown(False)
    assert model.undo_stack.count() - steps == 2
    model.undo_stack.undo()
    assert model.document.spec("rope").head_dim == 64
    wait_idle(qtbot, main_window)


def test_fields_that_do_not_apply_are_disabled(qtbot, main_window):
    model = main_window.document_model
    form = main_window.docks["parametersDock"].forms["rope"].form
    model.try_set_family("rope")
    yarn, llama3 = ("beta_fast", "beta_slow", "mscale", "truncate"), ("low_freq_factor", "high_freq_factor")
    assert not any(form.widgets[n].isEnabled() for n in yarn + llama3 + ("factor",))  # scaling "default"
    assert "Not used with scaling 'default'" in form.widgets["beta_fast"].toolTip()
    assert form.widgets["n_positions"].isEnabled() and form.widgets["base"].isEnabled()
    model.try_set_params("rope", rope_type="yarn")
    assert all(form.widgets[n].isEnabled() for n in yarn + ("factor",))
    assert not any(form.widgets[n].isEnabled() for n in llama3)
    model.try_set_params("rope", rope_type="llama3")
    assert all(form.widgets[n].isEnabled() for n in llama3) and not form.widgets["beta_fast"].isEnabled()
    model.undo_stack.undo()
    assert form.widgets["beta_fast"].isEnabled()  # the Document decides, after an undo too
    wait_idle(qtbot, main_window)


def test_a_refused_value_is_said_under_its_field(qtbot, main_window):
    params = main_window.docks["parametersDock"]
    main_window.document_model.try_set_family("rope")
    form = params.forms["rope"].form
    base = form.widgets["base"]
    base.setValue(1.0)  # below the minimum of 2
    error = form.errors["base"]
    assert error.isVisibleTo(params)
    assert error.text() == "Base (rope_theta) must be at least 2; got 1"  # the label once, not "… (base)"
    gap = error.mapTo(params, QPoint(0, 0)).y() - (base.mapTo(params, QPoint(0, 0)).y() + base.height())
    assert 0 <= gap <= 8, gap  # right under the field
    assert main_window.document_model.document.spec("rope").base == 10000.0
    base.setValue(20000.0)
    assert not error.isVisibleTo(params) and form.invalid_fields() == {}
    wait_idle(qtbot, main_window)


def test_a_spin_box_types_past_its_range_and_says_the_validators_limit(qtbot, main_window):
    from peapp.encodings.rope import RopeSpec

    main_window.document_model.try_set_family("rope")
    form = main_window.docks["parametersDock"].forms["rope"].form
    spin = form.widgets["n_positions"]
    limit = RopeSpec.info("n_positions").maximum
    main_window.activateWindow()
    spin.setFocus()
    for typed, shown, message in (("99999999", "99,999,999", f"must be at most {int(limit):,}; got 99,999,999"),
                                  ("-5", "-5", "must be at least 1; got -5")):
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin, typed)
        assert spin.text() == typed  # nothing cut, no sign dropped
        qtbot.keyClick(spin, Qt.Key.Key_Return)
        assert spin.text() == shown and message in form.errors["n_positions"].text()
        qtbot.wait(50)
        error = form.errors["n_positions"]
        assert error.height() >= error.heightForWidth(error.width())  # the whole message, not two lines of it
        assert main_window.document_model.document.spec("rope").n_positions == 50
    spin.setValue(int(limit) - 1)
    spin.stepBy(5)  # arrows stop at the field's own limit
    assert spin.value() == limit and not form.invalid_fields()
    wait_idle(qtbot, main_window)


def test_the_family_summary_is_never_clipped(qtbot, main_window):
    params = main_window.docks["parametersDock"]
    main_window.document_model.try_set_family("rope")
    main_window.setFixedHeight(560)  # a short screen: the form scrolls instead of squeezing
    qtbot.wait(100)
    summary = params.forms["rope"].summary
    assert summary.height() >= summary.heightForWidth(summary.width())
    assert params.scroll.verticalScrollBar().maximum() > 0
    wait_idle(qtbot, main_window)


@pytest.mark.parametrize("size", [(1600, 1000), (1366, 768)])
def test_every_panel_tab_reads_whole_and_names_its_panel_in_full(qtbot, main_window, size):
    """Issue 18: at 1600 px the panels' tabs were elided ("Length extrapol…", "Encoding hea…").
    Tabs carry short names; the tab's tooltip, the View menu and the panel's keys say the full one."""
    main_window.setGeometry(0, 0, *size)
    qtbot.waitUntil(lambda: main_window.width() == size[0], timeout=3000)
    main_window._apply_default_sizes()  # the panels' widths a window of this size starts with
    wait_idle(qtbot, main_window)
    qtbot.wait(50)
    bars = [b for b in main_window.findChildren(QTabBar) if b.parent() is main_window and b.isVisible()]
    assert bars
    docks = {dock.windowTitle(): dock for dock in main_window.docks.values()}
    assert len(docks) == len(main_window.docks)  # the short names are distinct
    seen = 0
    for bar in bars:
        needed = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
        if size[0] >= 1600:
            assert needed <= bar.width(), ([bar.tabText(i) for i in range(bar.count())], needed, bar.width())
        else:  # fourteen panels do not fit 1366 px side by side: the bar scrolls, never elides
            assert needed <= bar.width() or bar.usesScrollButtons()
            assert bar.elideMode() == Qt.TextElideMode.ElideNone
        for i in range(bar.count()):
            dock = docks[bar.tabText(i)]
            assert bar.tabRect(i).width() >= bar.tabSizeHint(i).width(), bar.tabText(i)  # not elided
            assert bar.tabToolTip(i).startswith(type(dock).title)
            seen += 1
    assert seen >= 10
    menu = {action.text() for action in main_window.view_menu.actions()}
    assert {"Length extrapolation", "Encoding heatmap", "Vision patch grid"} <= menu
