"""The Qt view-model around the immutable :class:`peapp.document.Document`.

Every edit replaces the Document and goes through a QUndoStack, so Ctrl+Z / Ctrl+Shift+Z work
for parameters and view settings alike.  Each committed value is its own undo step (typing
100,000 then 999,999 is two steps); only the values of one continuing gesture — a slider drag,
marked with :func:`continuing_gesture` — merge into one step.  Invalid edits never reach the
Document: they emit ``error`` and the previous state stays.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from peapp.document import Document
from peapp.errors import PeappError
from peapp.i18n import translate

_merge_ids: dict[str, int] = {}
_gesture: int | None = None  # the gesture whose edits are being made now (see continuing_gesture)


@contextlib.contextmanager
def continuing_gesture(gesture: int | None) -> Iterator[None]:
    """Edits made inside belong to ``gesture`` (e.g. one slider drag): consecutive edits of one
    setting within the same gesture merge into one undo step.  ``None``: a step of its own."""
    global _gesture
    previous, _gesture = _gesture, gesture
    try:
        yield
    finally:
        _gesture = previous


def _merge_id(key: str | None) -> int:
    if key is None:
        return -1
    return _merge_ids.setdefault(key, len(_merge_ids) + 1)


class _ReplaceDocument(QUndoCommand):
    def __init__(self, model: "DocumentModel", old: Document, new: Document, text: str, merge_key: str | None):
        super().__init__(text)
        self._model, self.old, self.new, self._id = model, old, new, _merge_id(merge_key)

    def id(self) -> int:  # Qt override
        return self._id

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _ReplaceDocument) or other.id() != self._id or self._id < 0:
            return False
        self.new = other.new
        return True

    def redo(self) -> None:
        self._model._apply(self.new)

    def undo(self) -> None:
        self._model._apply(self.old)


class DocumentModel(QObject):
    changed = Signal(object)  # the new Document
    error = Signal(str)  # a message for the user; the Document did not change

    def __init__(self, document: Document | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._document = document or Document()
        self.undo_stack = QUndoStack(self)

    @property
    def document(self) -> Document:
        return self._document

    def _apply(self, document: Document) -> None:
        if document != self._document:
            self._document = document
            self.changed.emit(document)

    def set_document(self, document: Document, text: str = "Edit", merge_key: str | None = None) -> None:
        """Push ``document`` as one undo step; ``merge_key`` names the setting, and it merges with
        the previous step only inside the same :func:`continuing_gesture`."""
        merge_key = f"{merge_key}@{_gesture}" if merge_key is not None and _gesture is not None else None
        if document != self._document:
            self.undo_stack.push(_ReplaceDocument(self, self._document, document, text, merge_key))

    def replace_without_undo(self, document: Document) -> None:
        """Load a whole new Document and clear the undo history (scripts, tests; File > Open Session
        is an undoable set_document instead)."""
        self.undo_stack.clear()
        self._apply(document)

    def try_set_params(self, family: str, **values: Any) -> bool:
        try:
            new = self._document.with_params(family, **values)
        except PeappError as exc:
            self.error.emit(str(exc))
            return False
        names = ", ".join(values)
        self.set_document(new, translate("DocumentModel", "Set {names}").format(names=names), merge_key=f"params/{family}/{names}")
        return True

    def try_set_family(self, family: str) -> bool:
        try:
            new = self._document.with_family(family)
            new.spec()  # the family's current values must be valid
        except PeappError as exc:
            self.error.emit(str(exc))
            return False
        self.set_document(new, translate("DocumentModel", "Show {family}").format(family=family))
        return True

    def set_view(self, view_id: str, **values: Any) -> bool:
        """Change settings of panel ``view_id``; an invalid value emits ``error`` and changes nothing."""
        try:
            new = self._document.with_view(view_id, **values)
        except PeappError as exc:
            self.error.emit(str(exc))
            return False
        names = ", ".join(values)
        self.set_document(new, translate("DocumentModel", "Change {names}").format(names=names), merge_key=f"view/{view_id}/{names}")
        return True
