"""Help menu (ui/help_menu.py): tour from the discovered docks, shortcut list, encoding guide."""

from __future__ import annotations

import ui.docks
from ui import help_menu, i18n


def test_help_menu_has_tour_shortcuts_guide_and_about(main_window):
    texts = [a.text() for a in main_window.help_menu.actions() if not a.isSeparator()]
    assert texts[:3] == ["&Tour of the panels", "&Keyboard shortcuts", "&Which encoding should I use?"]
    assert any("About" in t for t in texts)


def test_tour_lists_every_discovered_dock_with_a_description(main_window):
    entries = help_menu.tour_entries(main_window)
    assert [e[1] for e in entries] == [cls.title for cls in ui.docks.dock_classes()]
    for name, _title, _shortcut, text in entries:
        assert len(text) > 20, f"{name} has no docstring to describe it"
    heatmap = next(e for e in entries if e[0] == "heatmapDock")
    assert "heatmap" in heatmap[3].lower() and heatmap[2] == "Ctrl+1"


def test_tour_walks_through_the_panels_raising_each(qtbot, main_window):
    from PySide6.QtCore import Qt

    def on_screen(dock) -> bool:
        return dock.isVisible() and not dock.visibleRegion().isEmpty()

    main_window.docks["heatmapDock"].hide()
    dialog = help_menu._open(main_window, help_menu.TourDialog)
    qtbot.addWidget(dialog)
    names = [e[0] for e in help_menu.tour_entries(main_window)]
    assert dialog.findChildren(help_menu.QGroupBox) == []  # a walkthrough, not a list of Show buttons
    assert dialog.current_panel() == names[0] and not dialog.back_button.isEnabled()
    seen = []
    for step, name in enumerate(names):
        dock = main_window.docks[name]
        assert dialog.current_panel() == name and on_screen(dock), name  # raised, even from behind a tab
        assert dialog.heading.text().startswith(f"<b>{step + 1} of {len(names)}: {dock.title}</b>")
        sentence = dialog.text.text()
        assert sentence.endswith(".") and sentence.count(". ") == 0 and len(sentence) > 20, sentence
        seen.append(sentence)
        if step < len(names) - 1:
            dialog.next_button.click()
    assert len(set(seen)) == len(names)  # a sentence of its own for each panel
    assert "Finish" in dialog.next_button.text()
    dialog.back_button.click()
    assert dialog.current_panel() == names[-2] and on_screen(main_window.docks[names[-2]])
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_shortcut_list_is_collected_from_the_window(main_window):
    entries = dict((what, key) for key, what in help_menu.shortcut_entries(main_window))
    assert entries["Undo the last edit of a parameter or panel setting (also inside a field)"] == "Ctrl+Z"
    assert entries["Open Preferences: theme, colour maps, export defaults, compute device and precision, window layout"] == "Ctrl+,"
    assert entries["Bring the Encoding heatmap panel to the front"] == "Ctrl+1"
    assert any(key == "Esc" for key in entries.values())  # the Cancel button


def test_every_shortcut_says_what_it_does(main_window):
    entries = help_menu.shortcut_entries(main_window)
    described = dict(entries)
    assert described["Ctrl+Down"] == "Show the next encoding family (Parameters panel)"
    assert described["Ctrl+Up"] == "Show the previous encoding family (Parameters panel)"
    assert "similarity" in described["T"]
    for key, what in entries:
        assert not what.startswith("(") and "a shortcut of" not in what, (key, what)
        assert len(what.split()) >= 2, (key, what)  # a description, not a bare command name


def test_dark_theme_check_boxes_stand_out(qtbot):
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QApplication, QCheckBox, QRadioButton, QStyle, QStyleOptionButton

    from ui import settings as preferences

    app = QApplication.instance()
    style_name, palette = app.style().name(), app.palette()
    try:
        preferences.apply_theme("dark")
        window_colour = app.palette().color(app.palette().ColorRole.Window)
        for cls, element in ((QCheckBox, QStyle.SubElement.SE_CheckBoxIndicator),
                             (QRadioButton, QStyle.SubElement.SE_RadioButtonIndicator)):
            box = cls("an option")
            qtbot.addWidget(box)
            box.show()
            image = box.grab().toImage()
            option = QStyleOptionButton()
            option.initFrom(box)
            indicator = box.style().subElementRect(element, option, box)
            ratio = box.devicePixelRatioF()
            lightest = max(QColor(image.pixel(int(x * ratio), int(y * ratio))).lightness()
                           for x in range(indicator.left(), indicator.right() + 1)
                           for y in range(indicator.top(), indicator.bottom() + 1))
            # the unticked box's outline, against the dark panel around it
            assert lightest - window_colour.lightness() >= 60, (cls.__name__, lightest, window_colour.lightness())
    finally:
        app.setStyle(style_name)
        app.setPalette(palette)


def test_shortcuts_dialog_shows_the_table(qtbot, main_window):
    dialog = help_menu.ShortcutsDialog(main_window)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == len(help_menu.shortcut_entries(main_window)) >= 5


def test_guide_updates_as_needs_are_ticked_and_shows_the_family(qtbot, main_window):
    dialog = help_menu.GuideDialog(main_window)
    qtbot.addWidget(dialog)
    assert dialog.findChild(help_menu.QLabel, "guideHint") is not None
    dialog.boxes["extrapolation"].setChecked(True)
    dialog.boxes["simplest"].setChecked(True)
    assert set(dialog.show_buttons) == {"alibi"}
    dialog.boxes["modern_llm"].setChecked(True)
    assert set(dialog.show_buttons) == {"alibi", "rope"}
    dialog.show_buttons["rope"].click()
    assert main_window.document_model.document.family == "rope"
    main_window.document_model.undo_stack.undo()  # selecting from the guide is an ordinary edit
    assert main_window.document_model.document.family == "sinusoidal"


def test_guide_shows_conflict_note(qtbot, main_window):
    dialog = help_menu.GuideDialog(main_window)
    qtbot.addWidget(dialog)
    dialog.boxes["fixed_length"].setChecked(True)
    dialog.boxes["extrapolation"].setChecked(True)
    assert dialog.findChild(help_menu.QLabel, "guideNote") is not None


def test_guide_sets_the_scheme_of_a_dock_that_picks_its_own(qtbot, main_window, monkeypatch):
    """e.g. the attention inspector chooses its scheme in views["attention"]["scheme"]; here a
    stand-in setting (a free-text one: view settings are validated by the view's spec)."""
    from peapp import guide

    monkeypatch.setitem(guide.FAMILY_VIEWS, "alibi", ("attention",))
    monkeypatch.setattr(guide, "VIEW_FAMILY_SETTING", {"attention": "sentence"})
    dialog = help_menu.GuideDialog(main_window)
    qtbot.addWidget(dialog)
    dialog.boxes["extrapolation"].setChecked(True)
    dialog.boxes["simplest"].setChecked(True)
    dialog.show_buttons["alibi"].click()
    document = main_window.document_model.document
    assert document.family == "alibi" and document.view("attention", "sentence") == "alibi"
    assert document.view("attention", "scheme") != "alibi"  # the stand-in, not the real setting, was set
    main_window.document_model.undo_stack.undo()  # one edit, one undo
    assert main_window.document_model.document.family == "sinusoidal"


def test_guide_opens_the_attention_inspector_on_alibi_and_the_rotation_view_on_rope(qtbot, main_window):
    dialog = help_menu.GuideDialog(main_window)
    qtbot.addWidget(dialog)
    dialog.boxes["extrapolation"].setChecked(True)
    dialog.boxes["simplest"].setChecked(True)
    dialog.boxes["modern_llm"].setChecked(True)
    assert "Attention" in dialog.show_buttons["alibi"].text()
    dialog.show_buttons["alibi"].click()
    document = main_window.document_model.document
    assert document.family == "alibi" and document.view("attention", "scheme") == "alibi"
    assert main_window.docks["attentionDock"].isVisible()
    dialog.show_buttons["rope"].click()
    assert main_window.document_model.document.family == "rope"
    assert main_window.docks["rotationDock"].isVisible()


def test_no_two_commands_share_a_key(main_window):
    """An ambiguous key triggers neither command (Qt only warns), so every key must be unique."""
    keys = [key for key, _ in help_menu.shortcut_entries(main_window)]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    assert not duplicates, {key: [w for k, w in help_menu.shortcut_entries(main_window) if k == key]
                            for key in duplicates}


def test_the_shortcuts_are_listed_by_key(main_window, qtbot):
    """Sorted by key (the panels' Ctrl+0 … Ctrl+9 together, in order), not by description."""
    keys = [key for key, _ in help_menu.shortcut_entries(main_window)]
    digits = [k for k in keys if k.startswith("Ctrl+") and k[5:].isdigit()]
    assert digits == sorted(digits) and len(digits) == 10
    first, last = keys.index(digits[0]), keys.index(digits[-1])
    assert keys[first:last + 1] == digits
    dialog = help_menu.ShortcutsDialog(main_window)
    shown = [dialog.table.item(row, 0).text() for row in range(dialog.table.rowCount())]
    dialog.deleteLater()
    assert shown == keys


def test_the_tour_frames_each_panel_and_leaves_an_empty_checkpoint_closed(qtbot, main_window):
    from PySide6.QtCore import QPoint, QRect, Qt

    checkpoint = main_window.docks["checkpointDock"]
    assert checkpoint.isHidden() and not main_window.ctx.document.checkpoint
    dialog = help_menu._open(main_window, help_menu.TourDialog)
    qtbot.addWidget(dialog)
    names = [e[0] for e in help_menu.tour_entries(main_window)]
    for step, name in enumerate(names):
        dock = main_window.docks[name]
        frame = main_window.findChild(help_menu.QFrame, "tourHighlight")
        qtbot.waitUntil(lambda d=dock, f=frame: f.isVisible() and f.geometry() == QRect(
            d.mapTo(main_window, QPoint(0, 0)), d.size()), timeout=3000)
        if name == "checkpointDock":
            assert checkpoint.isVisible()  # shown while the tour describes it
        if step < len(names) - 1:
            qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=3000)
    assert checkpoint.isHidden()  # empty: not left open
    assert main_window.findChild(help_menu.QFrame, "tourHighlight") is None or \
        not main_window.findChild(help_menu.QFrame, "tourHighlight").isVisible()


def test_the_guide_opens_each_measured_claim_with_one_click(qtbot, main_window):
    """Issue 37: each of the four claims is one click from the guide (a real mouse click on its
    button), the Measured claims panel raised in that claim's mode; the caption is the button's tip."""
    from PySide6.QtCore import Qt

    from peapp.model_run.claims import CAPTIONS, MODES

    dialog = help_menu.GuideDialog(main_window)
    qtbot.addWidget(dialog)
    dialog.show()
    assert list(dialog.claim_buttons) == list(MODES)
    for mode, button in dialog.claim_buttons.items():
        assert button.toolTip() == i18n.shown(CAPTIONS[mode])
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert main_window.document_model.document.view("claims", "mode") == mode
        assert main_window.docks["claimsDock"].isVisible()
