"""The compiled translation catalogues, and the core's strings translated without a QApplication.

Light on purpose (Qt is imported only when a language other than English is asked for): the
second process of ``peapp render`` (peapp.request_process) imports this to build the captions
and labels its results carry in the render's language; it has no QApplication and loads no GUI
module.  ``ui.i18n`` installs the same catalogues for the GUI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ui.resources import resources_dir


def translations_dir() -> Path:
    return resources_dir() / "i18n"


def catalogues(code: str) -> list[Path]:
    """The compiled catalogues of ``code``: ``resources/i18n/*_<code>.qm``."""
    return sorted(translations_dir().glob(f"*_{code}.qm"))


def core_translator(code: str) -> Callable[[str, str], str] | None:
    """A translator for ``peapp.i18n.set_translator`` in ``code`` (None for English), looking
    strings up as ``QCoreApplication.translate`` does with these catalogues installed in order:
    the last installed first."""
    if code == "en":
        return None
    from PySide6.QtCore import QTranslator

    translators = []
    for path in catalogues(code):
        translator = QTranslator()
        if translator.load(str(path)):
            translators.append(translator)

    def translate(context: str, text: str) -> str:
        for translator in reversed(translators):
            found = translator.translate(context, text)
            if found:
                return found
        return text

    return translate
