"""The text a model reads, chosen the same way in Run on text and Probes: typed or pasted text,
a ``.txt`` file (read through :mod:`peapp.safe_open`), or the bundled sample.

One control: a row (``Text``, the source, **Open .txt…**; a panel adds its own buttons to
:attr:`TextSource.row`) and an editor under it that shows the text (a preview for a file or the
sample; editing either makes it typed text).  The Document records the choice when the panel
runs (:meth:`values`), so a session reopens the same text.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget
from superqt.utils import signals_blocked

from peapp.errors import PeappError
from peapp.i18n import msg, shown, translate
from peapp.model_run import text_run as T
from peapp.views.run import TEXT_SOURCES
from ui import i18n

PREVIEW_CHARS = 4000  # a file or the sample is shown up to here (what runs is the whole text)
SOURCES = ("typed", "file", "sample")


class TextSource(QWidget):
    """``prefix`` names the widgets (``{prefix}TextSource``, ``{prefix}OpenText``, ``{prefix}Text``);
    ``say(text)`` shows a refusal in the panel (one line; "" clears it); ``preview`` False: the
    editor shows only while typed text is chosen (a panel short of height)."""

    def __init__(self, prefix: str, say: Callable[[str], None], tooltip: Any, parent: QWidget | None = None,
                 preview: bool = True):
        super().__init__(parent)
        self._say = say
        self._preview = preview
        self._file = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.row = QHBoxLayout()
        self.row.addWidget(i18n.keep_text(QLabel(), msg("Run", "Text")))
        self.source_combo = QComboBox()
        self.source_combo.setObjectName(f"{prefix}TextSource")
        for key in SOURCES:
            self.source_combo.addItem(shown(TEXT_SOURCES[key]), key)
        i18n.keep_updated(self.source_combo, lambda: [
            self.source_combo.setItemText(i, shown(TEXT_SOURCES[self.source_combo.itemData(i)]))
            for i in range(self.source_combo.count())])
        i18n.keep_tooltip(self.source_combo, tooltip)
        self.source_combo.currentIndexChanged.connect(self._source_chosen)
        self.row.addWidget(self.source_combo)
        self.open_button = i18n.keep_text(QPushButton(), msg("Run", "Open .txt…"))
        self.open_button.setObjectName(f"{prefix}OpenText")
        i18n.keep_tooltip(self.open_button, msg("Run", "Open a UTF-8 .txt file to run on (its path is recorded in "
                                                     "sessions)"))
        self.open_button.clicked.connect(self.choose_file)
        self.row.addWidget(self.open_button)
        layout.addLayout(self.row)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName(f"{prefix}Text")
        i18n.keep(self.editor.setPlaceholderText, msg("Run", "Type or paste a text here, open a .txt file, or pick "
                                                         "the bundled sample; then press Run."))
        self.editor.setMaximumHeight(64)
        self.editor.textChanged.connect(self._typed)
        layout.addWidget(self.editor)
        self._recorded: tuple | None = None
        self.source_combo.currentIndexChanged.connect(self._show_editor)
        self._show_editor()

    def _show_editor(self, *_: Any) -> None:
        self.editor.setVisible(self._preview or self.source() == "typed")

    # ---- what is chosen -------------------------------------------------------------------------------
    def source(self) -> str:
        return self.source_combo.currentData()

    def values(self) -> dict[str, str]:
        """The Document's text settings for the text chosen now (``text_source``, ``text``, ``text_file``)."""
        source = self.source()
        return {"text_source": source, "text": self.editor.toPlainText() if source == "typed" else "",
                "text_file": self._file if source == "file" else ""}

    def resolved(self) -> tuple[dict[str, str], str]:
        """(:meth:`values` with ``text_sha256``, the text); raises PeappError when it cannot be read or is empty."""
        values = self.values()
        text, _ = T.resolve_text(values["text_source"], values["text"], values["text_file"])
        if not text.strip():
            raise PeappError(translate("Run", "the text is empty: type or paste some, open a .txt file, or pick the "
                                            "sample."))
        return {**values, "text_sha256": T.text_sha256(text)}, text

    # ---- shown from the Document ----------------------------------------------------------------------
    def show_values(self, source: str, text: str, text_file: str) -> None:
        """Show the text the Document names when that changed (undo, a session); a text being chosen or
        typed is left alone otherwise."""
        recorded = (source, text, text_file)
        if source == "none" or recorded == self._recorded:
            return
        self._recorded = recorded
        with signals_blocked(self.source_combo):
            self.source_combo.setCurrentIndex(max(0, self.source_combo.findData(source)))
        self._show_editor()
        self._file = text_file
        try:
            shown_text, _ = T.resolve_text(source, text, text_file)
        except PeappError as exc:
            shown_text = ""
            self._say(str(exc))
        if source == "typed" or self._preview:  # a hidden editor keeps the typed text
            self._show_text(shown_text if source == "typed" else shown_text[:PREVIEW_CHARS])

    def _show_text(self, text: str) -> None:
        if self.editor.toPlainText() != text:
            with signals_blocked(self.editor):
                self.editor.setPlainText(text)

    # ---- the user's choices ---------------------------------------------------------------------------
    def _source_chosen(self, index: int) -> None:
        source = self.source_combo.itemData(index)
        if source == "file":
            self.choose_file()
        elif source == "sample" and self._preview:
            self._show_text(T.resolve_text("sample")[0][:PREVIEW_CHARS])

    def _typed(self) -> None:
        if self.source() != "typed":  # editing the sample or a file makes it typed text
            with signals_blocked(self.source_combo):
                self.source_combo.setCurrentIndex(self.source_combo.findData("typed"))
            self._show_editor()

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, translate("Run", "Open a text"), "",
                                              translate("Run", "Text (*.txt);;All files (*)"))
        if path:
            self.use_file(path)
        elif self.source() == "file" and not self._file:
            with signals_blocked(self.source_combo):
                self.source_combo.setCurrentIndex(self.source_combo.findData("typed"))

    def use_file(self, path: str) -> bool:
        """Show a .txt file in the editor (read through peapp.safe_open); False (and said) if it cannot be read."""
        try:
            text, _ = T.resolve_text("file", text_file=path)
        except PeappError as exc:
            self._say(str(exc))
            return False
        self._say("")
        self._file = os.path.abspath(path)
        with signals_blocked(self.source_combo):
            self.source_combo.setCurrentIndex(self.source_combo.findData("file"))
        self._show_editor()
        if self._preview:
            self._show_text(text[:PREVIEW_CHARS])
        return True

    def use_sample(self) -> None:
        self.source_combo.setCurrentIndex(self.source_combo.findData("sample"))

    def type_text(self, text: str) -> None:
        """Put ``text`` in the editor as typed text (as typing or pasting does)."""
        self.editor.setPlainText(text)
        self.source_combo.setCurrentIndex(self.source_combo.findData("typed"))
