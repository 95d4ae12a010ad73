"""Translatable text in the Qt-free core.

The core builds captions, verdicts, the decision guide and error messages; the GUI shows them
in the user's language.  ``peapp`` may not import Qt, so it marks its strings in spellings Qt's
own extractor (``pyside6-lupdate``, run by ``tools/translations.py``) recognises, and the GUI
plugs Qt's translator in at start (``ui.i18n.set_language``):

- ``translate("Context", "text {n}").format(n=…)`` translates now (identity until a translator
  is set, as in the CLI, tests and scripts).  Format *after* translating: an f-string inside the
  call is extracted with its placeholders filled and is never translated (a test fails on it).
- ``msg("Context", "text")`` only marks (lupdate is told it is ``QT_TRANSLATE_NOOP``): it returns
  a :class:`Message`, a ``str`` that remembers its context, so a label kept in a table or a
  spec stays English there and is translated where it is shown, with :func:`shown`.

Qt's ``QCoreApplication.translate`` is thread-safe, so the compute thread may build strings too.
"""

from __future__ import annotations

from typing import Callable

Translator = Callable[[str, str], str]

_translator: Translator | None = None
_language = "en"


class Message(str):
    """A marked string: equal to its English text, and knowing its translation context."""

    context: str

    def __new__(cls, context: str, text: str) -> "Message":
        message = super().__new__(cls, text)
        message.context = context
        return message

    def __reduce__(self):  # pickles (the lab's worker processes) as itself, context included
        return (Message, (self.context, str(self)))


def set_translator(translator: Translator | None, language: str) -> None:
    """Use ``translator(context, text)`` for :func:`translate` from now on (None: English)."""
    global _translator, _language
    _translator, _language = translator, language


def language() -> str:
    """The code of the language strings are translated to now ("en", "hi")."""
    return _language


def translate(context: str, text: str) -> str:
    """``text`` in the current language (``text`` itself when there is no translation)."""
    if _translator is None:
        return str(text)
    return _translator(context, str(text)) or str(text)


def msg(context: str, text: str) -> Message:
    """Mark ``text`` for translation in ``context``; it is translated where shown (:func:`shown`)."""
    return Message(context, text)


def shown(text: str) -> str:
    """A marked :class:`Message` in the current language; any other string unchanged."""
    if isinstance(text, Message):
        return translate(text.context, text)
    return text
