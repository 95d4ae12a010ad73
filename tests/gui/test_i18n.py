"""The interface in Hindi: catalogues, fonts, switching at run time, and no English left behind."""

from __future__ import annotations

import ast
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import wait_idle
from tests.gui.i18n_walk import english_in

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402  (tools/translations.py: the catalogue tool)

#: the calls whose text argument lupdate extracts: (function name, index of the text argument)
_TRANSLATION_CALLS = {"translate": 1, "msg": 1, "QT_TRANSLATE_NOOP": 1, "tr": 0}

#: panels whose every text is translated (the walk below fails on English left in them), by area
SHELL_PANELS: tuple[str, ...] = ("checkpointDock",)
PANELS_PANELS: tuple[str, ...] = ("parametersDock", "heatmapDock", "rotationDock", "spectrumDock", "exampleDock",
                                  "extrapolationDock", "timeSeriesDock", "patchGridDock", "multimodalDock")
MODEL_PANELS: tuple[str, ...] = ("attentionDock", "runDock", "probeDock", "labDock")
TRANSLATED_PANELS = SHELL_PANELS + PANELS_PANELS + MODEL_PANELS


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _non_literal_translation_calls(source: str) -> list[str]:
    """The translation calls in ``source`` whose text is built in the call, not a literal."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        index = _TRANSLATION_CALLS.get(name or "")
        if index is None or len(node.args) <= index:
            continue
        if name == "tr" and not isinstance(node.func, ast.Attribute):
            continue  # only self.tr(...) is Qt's
        if name == "translate" and len(node.args) != 2:
            continue  # not a translate(context, text) call
        # a variable (the translation helpers passing a marked message on) is a lookup, not
        # a source string; a string built in the call (f-string, +, %, .format) never matches
        built = (ast.JoinedStr, ast.BinOp, ast.Call)
        if any(isinstance(arg, built) for arg in node.args[: index + 1]):
            bad.append(f"{node.lineno}: {ast.unparse(node)[:100]}")
    return bad


def test_translation_calls_take_a_literal_text_never_an_f_string():
    """lupdate extracts an f-string with its placeholders filled in, and the string is then never
    found at run time: the text must be a plain literal, formatted after translating."""
    bad = [f"{path.relative_to(ROOT)}:{line}" for path in translations.sources()
           for line in _non_literal_translation_calls(path.read_text(encoding="utf-8"))]
    assert not bad, "translation calls whose text is not a literal:\n" + "\n".join(bad)


@pytest.mark.parametrize("call", ["translate('C', f'{n} positions')", "msg('C', 'a ' + b)",
                                  "self.tr('{n} rows'.format(n=n))", "translate('C', '%d rows' % n)"])
def test_the_literal_check_refuses_a_text_built_in_the_call(call):
    assert _non_literal_translation_calls(f"x = {call}\ny = translate('C', 'fine {{n}}').format(n=1)") == \
        [f"1: {call}"]


def test_every_source_file_is_in_one_translation_area():
    for path in translations.sources():
        translations.area_of(path)  # raises for a file no area covers


def test_catalogues_hold_every_string_of_the_code_and_the_qm_files_are_fresh():
    assert translations.problems() == []


def _all_messages():
    for ts in sorted(translations.I18N.glob("*_hi.ts")):
        for context in ET.parse(ts).getroot().iter("context"):
            for message in context.iter("message"):
                translation = message.find("translation")
                text = (translation.text or "") if translation is not None else ""
                yield ts.name, context.findtext("name"), message.findtext("source") or "", text


_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}")


def test_every_translation_keeps_the_placeholders_of_its_source():
    bad = [f"{name} [{context}] {source!r} → {text!r}" for name, context, source, text in _all_messages()
           if text and sorted(_PLACEHOLDER.findall(source)) != sorted(_PLACEHOLDER.findall(text))]
    assert not bad, "\n".join(bad)


def test_every_translated_character_has_a_glyph_in_the_bundled_fonts(qapp):
    """A bare machine has no Devanagari font: what Hindi text shows must be drawable from the
    bundled Noto Sans Devanagari or the default font."""
    from PySide6.QtGui import QFont, QFontMetrics, QRawFont

    from ui import i18n

    i18n.register_fonts()
    raw_fonts = [QRawFont(str(path), 12) for path in sorted(i18n.fonts_dir().glob("*.ttf"))]
    assert raw_fonts and all(font.isValid() for font in raw_fonts)
    default = QFontMetrics(QFont())
    missing = {}
    for name, context, source, text in _all_messages():
        for char in text:
            if char.isspace() or char in "\u200c\u200d":  # joiners shape, they have no glyph
                continue
            # by code point: PySide6's str → QChar conversion makes inFont('×') and supportsCharacter('क') False
            code = ord(char)
            if not any(font.supportsCharacter(code) for font in raw_fonts) and not default.inFontUcs4(code):
                missing.setdefault(char, f"{name} [{context}] {source!r}")
    assert not missing, "characters without a glyph: " + ", ".join(f"{c!r} (U+{ord(c):04X}) in {w}"
                                                                    for c, w in missing.items())


def test_bundled_fonts_cover_devanagari_and_ship_their_licence():
    from ui import i18n

    names = {p.name for p in i18n.fonts_dir().iterdir()}
    assert {"NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf", "OFL.txt"} <= names
    assert "SIL Open Font License" in (i18n.fonts_dir() / "OFL.txt").read_text()


def test_the_core_stays_english_until_a_translator_is_set():
    from peapp import i18n as core

    assert core.translate("Panels", "Heatmap") == "Heatmap"
    marked = core.msg("Panels", "Heatmap")
    assert marked == "Heatmap" and marked.context == "Panels" and core.shown(marked) == "Heatmap"
    import pickle

    again = pickle.loads(pickle.dumps(marked))
    assert again == "Heatmap" and again.context == "Panels"


def _switch(qtbot, window, code):
    from ui import i18n

    i18n.set_language(code)
    wait_idle(qtbot, window)


def test_preferences_switch_the_language_at_once_and_back(main_window, qtbot, settings):
    from ui import i18n
    from ui import settings as preferences

    heatmap = main_window.docks["heatmapDock"]
    assert heatmap.windowTitle() == "Heatmap"
    dialog = preferences.open_dialog(main_window, settings)
    dialog.language.setCurrentIndex(dialog.language.findData("hi"))
    dialog.apply()
    wait_idle(qtbot, main_window)
    assert i18n.language() == "hi"
    assert heatmap.windowTitle() == "हीटमैप"
    assert settings.value("appearance/language") == "hi"
    dialog.language.setCurrentIndex(dialog.language.findData("en"))
    dialog.accept()
    wait_idle(qtbot, main_window)
    assert heatmap.windowTitle() == "Heatmap"


def test_the_first_start_follows_a_hindi_desktop(monkeypatch, settings, qapp):
    from PySide6.QtCore import QLocale

    from ui import settings as preferences

    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale(QLocale.Language.Hindi,
                                                                         QLocale.Country.India)))
    prefs, problems = preferences.load_preferences(settings)
    assert prefs.language == "hi" and not problems
    settings.setValue("appearance/language", "en")  # once chosen, the choice wins
    prefs, _ = preferences.load_preferences(settings)
    assert prefs.language == "en"


def _differing_share(a, b) -> float:
    """The share of pixels that differ between two images (1.0 when their sizes differ)."""
    import numpy as np

    if a.size() != b.size():
        return 1.0
    def pixels(image):
        image = image.convertToFormat(image.Format.Format_RGB32)
        # a copy: the converted image is freed on return, and a view of its bits read freed memory
        return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine()).copy()
    return float(np.mean(np.any((pixels(a) != pixels(b)).reshape(a.height(), -1, 4), axis=2)))


def _pictures(qtbot, window) -> dict:
    """Each panel as the user sees it: brought to the front of its tab group, then grabbed."""
    pictures = {}
    for name, dock in window.docks.items():
        if dock.isHidden():
            continue  # closed in this layout (the Checkpoint panel until a model is opened)
        dock.raise_()
        wait_idle(qtbot, window)
        qtbot.wait(50)
        pictures[name] = dock.grab().toImage()
    return pictures


@pytest.mark.all_docks
def test_a_switch_round_trips_every_panel_and_the_document(main_window, qtbot):
    """Switching retranslates every kept text at once; panels recompute their views in the
    background.  Back in English, every panel's picture and the Document are as they were."""
    main_window.resize(1600, 1000)
    wait_idle(qtbot, main_window)
    # the baseline has been through switches too: a panel's first picture can differ from its
    # redraws (pyqtgraph axes keep the widest tick text they have seen until it is 10 px too
    # wide; the time-series panel settles after two redraws) — not a matter of language
    _switch(qtbot, main_window, "en")
    _switch(qtbot, main_window, "en")
    before_doc = main_window.ctx.document
    before = _pictures(qtbot, main_window)
    _switch(qtbot, main_window, "hi")
    _switch(qtbot, main_window, "en")
    assert main_window.ctx.document == before_doc
    after = _pictures(qtbot, main_window)
    # a pixel column of a heatmap may move by one (pyqtgraph's axis width hysteresis above);
    # a panel whose layout or text changed differs in far more than 0.5 % of its pixels
    changed = {name: share for name, image in before.items()
               if (share := _differing_share(image, after[name])) > 0.005}
    assert not changed, f"panels that look different after a round trip: {changed}"


@pytest.mark.parametrize("panel", TRANSLATED_PANELS)
def test_no_english_is_left_in_a_translated_panel(main_window, qtbot, panel):
    _switch(qtbot, main_window, "hi")
    left = english_in(main_window.docks[panel])
    assert not left, f"{len(left)} English texts in {panel}:\n" + "\n".join(left)


def _english_in_texts(texts) -> list[str]:
    from tests.gui.i18n_walk import english_words

    return [f"{words} — {text[:100]!r}" for text in texts if (words := english_words(text))]


def test_no_english_in_the_menus_preferences_about_shortcuts_tour_and_guide(main_window, qtbot, settings):
    """The shell in Hindi: every menu and action, the Preferences dialog, the About box, the
    shortcut list of the window's own actions, each step of the tour, and the decision guide
    with every need ticked."""
    from PySide6.QtGui import QAction

    from ui import help_menu
    from ui import settings as preferences

    _switch(qtbot, main_window, "hi")
    left = english_in(main_window.menuBar())
    dialog = preferences.open_dialog(main_window, settings)
    left += english_in(dialog)
    left += _english_in_texts([main_window.about_text(), main_window.windowTitle()])
    shortcuts = help_menu.ShortcutsDialog(main_window)
    left += english_in(shortcuts)
    # rows for the menus' actions (a panel's own keys are said by the panel, in its area's catalogue)
    menus = [a.menu() for a in main_window.menuBar().actions() if a.menu() is not None]
    menu_actions: list[QAction] = []
    while menus:
        menu = menus.pop()
        menu_actions += menu.actions()
        menus += [a.menu() for a in menu.actions() if a.menu() is not None]
    menu_tips = {action.statusTip() or action.toolTip() for action in menu_actions if action.shortcuts()}
    rows = [shortcuts.table.item(row, 1).text() for row in range(shortcuts.table.rowCount())]
    assert menu_tips & set(rows)  # the list has the menus' actions, in Hindi
    left += _english_in_texts([row for row in rows if row in menu_tips] + [shortcuts.windowTitle()])
    tour = help_menu.TourDialog(main_window)
    for step in range(len(tour.entries)):
        tour.go(step)
        left += english_in(tour)
    left += _english_in_texts([tour.windowTitle()])
    guide = help_menu.GuideDialog(main_window)
    for box in guide.boxes.values():
        box.setChecked(True)
    left += english_in(guide) + _english_in_texts([guide.windowTitle()])
    for widget in (dialog, shortcuts, tour, guide):
        widget.close()
    assert not left, f"{len(left)} English texts:\n" + "\n".join(left)


def test_the_tour_marks_every_panel_sentence_for_translation(main_window):
    """The tour says the first sentence of each panel's docstring, looked up in the "Tour"
    context: each must be in help_menu.TOUR_SENTENCES (a changed docstring must be marked again)."""
    from ui import help_menu

    sentences = {help_menu.first_sentence(description) for *_, description in help_menu.tour_entries(main_window)}
    assert sentences <= set(help_menu.TOUR_SENTENCES), sentences - set(help_menu.TOUR_SENTENCES)


def test_parameter_errors_are_said_in_hindi(main_window, qtbot):
    from peapp.errors import ParameterError
    from peapp.params import check_value

    _switch(qtbot, main_window, "hi")
    spec = main_window.ctx.document.spec("rope")
    info = next(i for i in spec.param_infos() if i.name == "base")

    with pytest.raises(ParameterError) as raised:
        check_value(info, 1)
    message = str(raised.value)  # the parameter's label is the encodings' catalogue's to translate
    assert "कम से कम 2 होना चाहिए; मिला 1" in message and "must be" not in message


class _HindiFigure:
    """The export hooks of a dock, over a plot titled and labelled in Hindi (the exporter's input)."""

    def __init__(self):
        import pyqtgraph as pg

        from ui import i18n

        i18n.register_fonts()  # as the app does at start (a bare machine has no Devanagari font)
        self.plot = pg.PlotWidget(title="पोज़िशन्स के साथ स्पेक्ट्रम")
        self.plot.setLabel("bottom", "फ़्रीक्वेंसी (प्रति पोज़िशन चक्र)")
        self.plot.plot([0, 1, 2], [0, 1, 0])
        self.plot.resize(400, 300)

    def export_widget(self):
        return self.plot

    def export_title(self):
        return "हीटमैप — एनकोडिंग"


def test_hindi_svg_text_is_drawn_as_outlines_and_kept_as_transparent_text(qapp):
    """A viewer without a Devanagari font draws boxes for Hindi <text> (rsvg-convert, measured):
    each Hindi run is also its outline, a <path> filled in the text's colour; Latin runs (tick
    numbers) stay plain text unless drawn in the bundled font (then they are outlined too: a
    reader without it drew "RoPE" in a wider font, over the Hindi run after it)."""
    from ui import export

    svg = export.svg_bytes(_HindiFigure(), export.FigureOptions(size=(400, 300)), {"title": "t"})
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    children = [e for e in root.iter() if e.tag in (f"{ns}text", f"{ns}path")]
    hindi = [i for i, e in enumerate(children) if e.tag == f"{ns}text" and re.search("[\u0900-\u097f]", "".join(e.itertext()))]
    assert len(hindi) >= 3  # the title line, the plot title, the axis label
    for i in hindi:
        text, outline = children[i], children[i - 1]
        assert text.get("fill-opacity") == "0", "the Hindi text stays, for search and copy, but unseen"
        assert outline.tag == f"{ns}path" and outline.get("stroke") == "none" and outline.get("fill-opacity") == "1"
        assert outline.get("d", "").count("Z") >= len("".join(text.itertext()).strip()) // 2  # glyph contours
    latin = [e for e in children if e.tag == f"{ns}text" and re.fullmatch(r"[\d.−-]+", "".join(e.itertext()).strip())]
    assert latin
    for e in latin:
        outlined = e.get("font-family", "").startswith("Noto Sans Devanagari")
        assert (e.get("fill-opacity") == "0") == outlined, e.attrib


def test_hindi_pdf_embeds_the_bundled_devanagari_font(qapp):
    from ui import export

    pdf = export.pdf_bytes(_HindiFigure(), export.FigureOptions(size=(400, 300)), {"title": "t"})
    fonts = set(re.findall(rb"/BaseFont\s*/(?:[A-Z]{6}\+)?([^\s/]+)", pdf))
    assert {b"NotoSansDevanagari-Regular", b"NotoSansDevanagari-Bold"} <= fonts
    assert len(re.findall(rb"/FontFile2", pdf)) == len(fonts)  # each font's glyphs are in the file


def test_render_takes_the_language_of_the_figures(qapp, tmp_path, capsys):
    from peapp import cli
    from ui import i18n

    out = tmp_path / "heat.svg"
    assert cli.main(["render", "heatmap", "--lang", "hi", "-o", str(out)]) == 0
    assert i18n.language() == "hi" and out.is_file()
    with pytest.raises(SystemExit):
        cli.main(["render", "heatmap", "--lang", "fr", "-o", str(tmp_path / "x.svg")])
    assert "invalid choice: 'fr'" in capsys.readouterr().err


def test_devanagari_tabs_get_room_for_the_marks_above_the_headline(main_window, qtbot):
    """A Latin-height tab cut off े ॉ र् (नॉर्म read नाम): in Hindi a tab with Devanagari text is
    taller than the same tab in English, and back in English the tabs are as they were."""
    tabs = main_window.docks["checkpointDock"].tabs
    english = tabs.tabBar().tabSizeHint(2).height()
    _switch(qtbot, main_window, "hi")
    assert tabs.tabText(2) == "नॉर्म"
    assert tabs.tabBar().tabSizeHint(2).height() >= english + 4
    _switch(qtbot, main_window, "en")
    assert tabs.tabBar().tabSizeHint(2).height() == english


def test_the_export_dialog_and_qts_file_dialog_speak_hindi(main_window, qtbot, tmp_path):
    """File > Export Figure's dialog, and Qt's own file dialog (used where the desktop has no
    native one): its strings are in the hand-kept qt catalogue."""
    from PySide6.QtWidgets import QFileDialog

    from ui.export_actions import FigureDialog

    _switch(qtbot, main_window, "hi")
    figure = FigureDialog(main_window.docks["heatmapDock"], str(tmp_path / "heatmap.png"), main_window)
    left = english_in(figure) + _english_in_texts([figure.windowTitle()])
    figure.close()
    for mode in (QFileDialog.FileMode.ExistingFile, QFileDialog.FileMode.Directory):
        dialog = QFileDialog(main_window, "", str(tmp_path))
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setFileMode(mode)
        dialog.show()
        left += [line for line in english_in(dialog) if not line.startswith("lookInCombo")]  # the folder's path
        dialog.close()
    assert not left, "\n".join(left)
