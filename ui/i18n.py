"""The interface's language, switched at run time.

- Translations are Qt's own: ``.ts`` sources in ``resources/i18n`` (written by
  ``pyside6-lupdate``, see ``tools/translations.py``) compiled to ``.qm`` files that
  :func:`set_language` installs as ``QTranslator``s.  Qt has no Hindi catalogue of its own,
  so the standard dialog buttons' strings are in our ``qt`` catalogue.
- The core's strings (``peapp.i18n``) are translated through ``QCoreApplication.translate``
  once a language is set.
- Texts set once when a widget is built are registered with :func:`keep` and set again on
  every switch; a panel whose texts come from a computed view redraws on ``notifier.changed``.
- Devanagari needs a font a bare machine does not have: the bundled Noto Sans Devanagari is
  registered at start (:func:`register_fonts`); Qt falls back to it for Devanagari text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QLocale, QObject, QTranslator, Signal
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics
from PySide6.QtWidgets import QProxyStyle, QStyle, QTabBar

from peapp import i18n as core_i18n
from ui.catalogues import catalogues
from ui.resources import resources_dir

#: code → the language's own name (as the Language menu shows it, untranslated)
LANGUAGES = {"en": "English", "hi": "हिन्दी"}


def fonts_dir() -> Path:
    return resources_dir() / "fonts"


_fonts_registered: list[str] | None = None


def register_fonts() -> list[str]:
    """Register the bundled fonts once per process; the families they add."""
    global _fonts_registered
    if _fonts_registered is None:
        families: list[str] = []
        for path in sorted(fonts_dir().glob("*.ttf")):
            font_id = QFontDatabase.addApplicationFont(str(path))
            if font_id >= 0:
                families += QFontDatabase.applicationFontFamilies(font_id)
        _fonts_registered = sorted(set(families))
    return list(_fonts_registered)


def system_language() -> str:
    """'hi' when the desktop's locale is Hindi, else 'en' (the language at first start)."""
    return "hi" if QLocale.system().language() == QLocale.Language.Hindi else "en"


class LanguageNotifier(QObject):
    """Emits ``changed(code)`` after every switch (translators installed, bound texts set)."""

    changed = Signal(str)


notifier = LanguageNotifier()
_installed: list[QTranslator] = []
_language = "en"


def language() -> str:
    return _language


def set_language(code: str) -> None:
    """Make ``code`` the interface's language now: menus, panels, dialogs, the core's strings."""
    global _language
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; choose one of {', '.join(LANGUAGES)}")
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("set_language needs a QApplication")
    if code != "en":
        register_fonts()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    for path in catalogues(code):
        translator = QTranslator(app)
        if translator.load(str(path)):
            app.installTranslator(translator)
            _installed.append(translator)
    _language = code
    _follow_font(app, code)
    core_i18n.set_translator(None if code == "en" else QCoreApplication.translate, code)
    retranslate_kept()
    notifier.changed.emit(code)


_latin_font: QFont | None = None


def _follow_font(app: Any, code: str) -> None:
    """In Hindi the application font is Noto Sans Devanagari first (it has Latin letters too),
    then the desktop's: every widget then takes its line height from a font that has room for
    the vowel signs Devanagari draws above its headline.  With the desktop's font first, Qt sized
    lines by the Latin font and drew the fallback's taller glyphs clipped: "हेड" read "हड"."""
    global _latin_font
    if not hasattr(app, "setFont"):
        return  # a QCoreApplication (no widgets)
    if _latin_font is None:
        _latin_font = QFont(app.font())
    font = QFont(_latin_font)
    if code != "en":
        font.setFamilies([*register_fonts(), *_latin_font.families()])
    app.setFont(font)


def translate(context: str, text: str) -> str:
    """``text`` translated in ``context`` now (format afterwards: ``translate(c, "{n} x").format(n=…)``)."""
    return QCoreApplication.translate(context, text)


def as_message(text: str, context: str) -> core_i18n.Message:
    """``text`` as a marked message (a plain string gets ``context``: it is looked up there)."""
    return text if isinstance(text, core_i18n.Message) else core_i18n.Message(context, text)


def shown(text: str) -> str:
    """A marked ``peapp.i18n.Message`` in the current language; any other string unchanged."""
    return core_i18n.shown(text)


msg = core_i18n.msg  # the marker, for ui code: keep_text(QLabel(), msg("Context", "text"))


@dataclass
class _Kept:
    owner: Any
    update: Callable[[], None]


_kept: list[_Kept] = []
_alive_at_last_prune = 0


def keep_updated(owner: Any, update: Callable[[], None]) -> None:
    """Call ``update()`` now and after every language switch while ``owner`` (a QObject) lives:
    for texts put together from several translated pieces (a tooltip with its range)."""
    global _alive_at_last_prune
    _kept.append(_Kept(owner, update))
    if len(_kept) > 2 * _alive_at_last_prune + 256:  # panels that rebuild rows would grow the list
        _kept[:] = [e for e in _kept if shiboken6.isValid(e.owner)]
        _alive_at_last_prune = len(_kept)
    update()


def text_of(message: core_i18n.Message, **fields: Any) -> str:
    """``message`` in the current language, formatted with ``fields`` after translating."""
    value = translate(message.context, message)
    return value.format(**fields) if fields else value


def keep(apply: Callable[[str], None], message: core_i18n.Message, owner: Any = None, **fields: Any) -> str:
    """Call ``apply(message in the current language)`` now and after every switch.

    ``message`` is ``msg("Context", "text {n}")`` (formatted with ``fields`` after translating).
    ``owner`` is the widget the text belongs to, by default the object ``apply`` is a method of;
    once it is deleted the entry is dropped.  Returns the text it set.
    """
    if not isinstance(message, core_i18n.Message):
        raise TypeError("keep() needs msg('Context', 'text'), not a plain string")
    owner = owner if owner is not None else getattr(apply, "__self__", None)
    if owner is None:
        raise TypeError("keep() needs the widget the text belongs to (owner=...)")
    keep_updated(owner, lambda: apply(text_of(message, **fields)))
    return text_of(message, **fields)


def keep_text(widget: Any, message: core_i18n.Message, **fields: Any) -> Any:
    """``widget.setText(message)``, kept translated; returns ``widget`` (to build inline)."""
    keep(widget.setText, message, widget, **fields)
    return widget


def keep_tooltip(widget: Any, message: core_i18n.Message, **fields: Any) -> Any:
    keep(widget.setToolTip, message, widget, **fields)
    return widget


def retranslate_kept() -> None:
    alive = []
    for entry in _kept:
        if not shiboken6.isValid(entry.owner):
            continue
        try:
            entry.update()
        except RuntimeError as exc:  # a widget the update touches besides its owner was deleted
            if "already deleted" not in str(exc):
                raise
            continue
        alive.append(entry)
    _kept[:] = alive


def kept_count() -> int:
    """How many live texts are kept translated (for tests)."""
    return sum(1 for entry in _kept if shiboken6.isValid(entry.owner))
# ---- room for Devanagari in tab bars ------------------------------------------------------------------
_DEVANAGARI = re.compile("[\u0900-\u097f\ua8e0-\ua8ff]")
_HORIZONTAL_TABS = {QTabBar.Shape.RoundedNorth, QTabBar.Shape.RoundedSouth, QTabBar.Shape.TriangularNorth,
                    QTabBar.Shape.TriangularSouth}


class _DevanagariTabs(QProxyStyle):
    """The application's style, with tabs a little taller when their text is Devanagari.

    A tab is as tall as its font's Latin line; the vowel signs and reph Devanagari draws above
    its headline (े ॉ र्) then fell outside the tab's text rectangle and were cut off — नॉर्म
    read नाम (measured on the Checkpoint panel's tabs at 1600×1000).  Latin tabs keep their size."""

    def sizeFromContents(self, kind, option, size, widget=None):  # Qt override
        hint = super().sizeFromContents(kind, option, size, widget)
        if (kind == QStyle.ContentsType.CT_TabBarTab and getattr(option, "shape", None) in _HORIZONTAL_TABS
                and _DEVANAGARI.search(getattr(option, "text", "") or "")):
            font = widget.font() if widget is not None else option.fontMetrics
            metrics = QFontMetrics(font) if widget is not None else font
            hint.setHeight(hint.height() + round(0.4 * metrics.height()))
        return hint


_tab_style: _DevanagariTabs | None = None


def make_room_in_tabs(root: Any) -> None:
    """Give every tab bar under ``root`` room for Devanagari (once a language other than English
    has been chosen; called after each language switch and tab change)."""
    global _tab_style
    if _language == "en" and _tab_style is None:
        return
    if _tab_style is None:
        _tab_style = _DevanagariTabs()  # no base: a copy of the application's style
    for bar in root.findChildren(QTabBar):
        if bar.style() is not _tab_style:
            bar.setStyle(_tab_style)
