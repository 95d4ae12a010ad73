"""Preferences (ui/settings.py): round-trip, corrupt stores, recent files, applying a theme."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from ui import settings as prefs_mod
from ui.settings import Preferences, load_preferences, save_preferences


@pytest.fixture(autouse=True)
def light_theme_after(qapp):
    """Preferences are app-wide: every test leaves the defaults behind."""
    yield
    prefs_mod.apply_preferences(Preferences())


def test_round_trip(settings, tmp_path):
    chosen = Preferences(theme="dark", sequential_colormap="magma", diverging_colormap="CET-D4",
                         export_format="svg", export_scale=3.5, compute_device="cuda:1", restore_layout=False)
    save_preferences(settings, chosen)
    reopened = QSettings(settings.fileName(), QSettings.Format.IniFormat)
    assert load_preferences(reopened) == (chosen, [])


def test_empty_store_gives_defaults_silently(settings):
    assert load_preferences(settings) == (Preferences(), [])


def test_wrong_types_fall_back_per_value_with_a_message(tmp_path):
    path = tmp_path / "bad.ini"
    path.write_text("[appearance]\ntheme=purple\nsequential_colormap=magma\n"
                    "[export]\nscale=huge\nformat=png\n[window]\nrestore_layout=perhaps\n"
                    "[compute]\ndevice=tpu\n")
    prefs, problems = load_preferences(QSettings(str(path), QSettings.Format.IniFormat))
    # the good values are kept, each bad one is reset to its default
    assert prefs == Preferences(sequential_colormap="magma")
    assert len(problems) == 4
    assert any("appearance/theme" in p and "'system'" in p for p in problems)
    assert any("export/scale" in p for p in problems)


def test_out_of_range_scale_is_rejected(tmp_path):
    path = tmp_path / "s.ini"
    path.write_text("[export]\nscale=100\n")
    prefs, problems = load_preferences(QSettings(str(path), QSettings.Format.IniFormat))
    assert prefs.export_scale == Preferences().export_scale and "between 1 and 8" in problems[0]


def test_garbage_file_falls_back_to_defaults(tmp_path):
    path = tmp_path / "garbage.ini"
    path.write_bytes(b"\x00\xff\xfe[[[not an ini\n=\n\x89PNG\r\n")
    store = QSettings(str(path), QSettings.Format.IniFormat)
    prefs, problems = load_preferences(store)
    assert prefs == Preferences()
    if store.status() != QSettings.Status.NoError:  # Qt refuses the file: one message for it
        assert "could not be read" in problems[0]
    else:  # Qt read what it could: nothing usable, and nothing invented
        assert problems == [] or all("using" in p for p in problems)


def test_corrupt_store_message_reaches_the_status_bar(qtbot, tmp_path):
    from ui.main_window import MainWindow

    path = tmp_path / "corrupt.ini"
    path.write_text("[appearance]\ntheme=7\n[export]\nscale=[1,2]\n")
    window = MainWindow(load_backend="now", settings=QSettings(str(path), QSettings.Format.IniFormat),
                        restore_layout=False)
    qtbot.addWidget(window)
    try:
        assert len(window.settings_problems) == 2
        qtbot.waitUntil(lambda: "appearance/theme" in window.statusBar().currentMessage())
    finally:
        window.close()


def test_recent_files(settings, tmp_path):
    files = []
    for i in range(prefs_mod.MAX_RECENT + 3):
        f = tmp_path / f"model{i}.safetensors"
        f.write_bytes(b"")
        files.append(str(f))
        prefs_mod.add_recent(f, settings)
    recent = prefs_mod.recent_files(settings)
    assert recent == list(reversed(files))[:prefs_mod.MAX_RECENT]  # newest first, capped
    prefs_mod.add_recent(files[-5], settings)  # re-opening moves it to the front, no duplicate
    recent = prefs_mod.recent_files(settings)
    assert recent[0] == files[-5] and recent.count(files[-5]) == 1
    (tmp_path / "model12.safetensors").unlink()  # a deleted file disappears from the list
    assert files[-1] not in prefs_mod.recent_files(settings)
    prefs_mod.clear_recent(settings)
    assert prefs_mod.recent_files(settings) == []


def test_recent_files_survive_a_single_entry_and_bad_types(settings, tmp_path):
    f = tmp_path / "one"
    f.mkdir()
    prefs_mod.add_recent(f, settings)
    reopened = QSettings(settings.fileName(), QSettings.Format.IniFormat)
    assert prefs_mod.recent_files(reopened) == [str(f)]
    settings.setValue(prefs_mod.RECENT_KEY, 42)
    assert prefs_mod.recent_files(settings) == []


def test_dark_theme_changes_palette_and_plot_background(main_window):
    import pyqtgraph as pg

    view = main_window.findChild(pg.GraphicsLayoutWidget, "heatmapGraphics")
    prefs_mod.apply_preferences(Preferences(theme="dark"), main_window)
    window_color = QApplication.instance().palette().color(QPalette.ColorRole.Window)
    assert window_color.lightness() < 80
    assert view.backgroundBrush().color().name() == prefs_mod.PLOT_COLORS["dark"][0]
    prefs_mod.apply_preferences(Preferences(theme="light"), main_window)
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).lightness() > 180
    assert view.backgroundBrush().color().name() == prefs_mod.PLOT_COLORS["light"][0]
    prefs_mod.apply_preferences(Preferences(theme="dark"), main_window)
    prefs_mod.apply_preferences(Preferences(theme="system"), main_window)  # back to the platform's
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).lightness() > 180
    assert view.backgroundBrush().color().name() == prefs_mod.PLOT_COLORS["light"][0]


def test_colormap_choice_redraws_the_heatmap(main_window):
    dock = main_window.docks["heatmapDock"]
    dock.compute_now()
    before = dock.colorbar.colorMap().name
    prefs_mod.apply_preferences(Preferences(diverging_colormap="CET-D4"), main_window)
    assert dock.colorbar.colorMap().name != before and "D4" in dock.colorbar.colorMap().name


def test_dialog_saves_and_applies(qtbot, main_window):
    dialog = prefs_mod.open_dialog(main_window)
    qtbot.addWidget(dialog)
    assert dialog.device.itemData(0) == "cpu"
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.export_format.setCurrentIndex(dialog.export_format.findData("pdf"))
    dialog.export_scale.setValue(4)
    dialog.accept()
    assert prefs_mod.export_defaults(main_window.settings) == ("pdf", 4.0)
    assert load_preferences(main_window.settings)[0].theme == "dark"
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).lightness() < 80


def test_preferences_action_is_in_the_edit_menu(main_window):
    assert main_window.preferences_action in main_window.edit_menu.actions()
    assert main_window.preferences_action.shortcut().toString() == "Ctrl+,"


def test_export_formats_match_the_exporter():
    from peapp import export_data

    assert prefs_mod.EXPORT_FORMATS == export_data.FORMATS


def test_export_dialog_starts_from_the_preferences(qtbot, main_window, monkeypatch):
    from ui import export_actions

    save_preferences(main_window.settings, Preferences(export_format="svg", export_scale=3.0))
    seen = {}

    def fake_exec(dialog):
        seen["path"], seen["scale"] = dialog.path(), dialog.options().scale
        return export_actions.QDialog.DialogCode.Rejected

    monkeypatch.setattr(export_actions.FigureDialog, "exec", fake_exec)
    actions = export_actions.install(main_window)
    actions.ask_figure(main_window.docks["heatmapDock"])
    assert seen["path"].endswith(".svg") and seen["scale"] == 3.0


def test_opened_checkpoints_share_the_recent_list_with_preferences(qtbot, main_window, tmp_path):
    from ui import checkpoint_actions

    model = tmp_path / "model.safetensors"
    model.write_bytes(b"")
    checkpoint_actions.add_recent(main_window, str(model))  # what File > Open does
    assert prefs_mod.recent_files(main_window.settings) == [str(model)]
    dialog = prefs_mod.open_dialog(main_window)
    qtbot.addWidget(dialog)
    assert dialog.recent.item(0).text() == str(model)
    dialog._clear_recent()
    assert checkpoint_actions.recent_paths(main_window) == []
