"""A ViewDock whose settings are a view spec in ``doc.views[view_id]`` (the article docks use it).

Its controls are one ``ui.forms.Form`` over the dock's view spec (``make_form``): edits write
through the document model (so they are undoable and saved with the session), ``sync_controls``
puts the Document's values back into the widgets without re-emitting, and a Document change that
leaves this dock's request unchanged costs nothing.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import numpy as np
from PySide6.QtWidgets import QWidget

from peapp.document import Document
from peapp.jobs import Request
from peapp.views import get as view_spec_class
from ui import i18n
from ui.docks.base import ViewDock
from ui.forms import Form, Hint


class SettingsDock(ViewDock):
    # class defaults, not set in __init__: build() (called from ViewDock.__init__) sets them
    form: Form | None = None  # made by make_form()
    _result: Any = None  # what the dock shows (set by show_result); the exports read it

    # ---- export: the figure is self.graphics; its data and title come from the result shown ------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        return {} if self._result is None else self.result_arrays(self._result)

    def export_title(self) -> str:
        return i18n.shown(self.title) if self._result is None else self.result_title(self._result)

    def result_arrays(self, result: Any) -> dict[str, np.ndarray]:
        return {}

    def result_title(self, result: Any) -> str:
        return i18n.shown(self.title)

    # ---- settings -------------------------------------------------------------------------------
    def setting(self, key: str, document: Document | None = None) -> Any:
        """One of this dock's settings (its default from the view spec when not set)."""
        return getattr(self.view_spec(document), key)

    def set_setting(self, **values: Any) -> None:
        self.set_view(**values)

    # ---- controls --------------------------------------------------------------------------------
    def make_form(self, names: Iterable[str] | None = None, hints: Mapping[str, Hint] | None = None,
                  object_names: Mapping[str, str] | None = None) -> Form:
        """The dock's controls for the fields ``names`` of its view spec (see ``ui.forms.Form``)."""
        self.form = Form(view_spec_class(self.view_id), self.on_setting_edited, parent=self, names=names,
                         hints=hints, object_names=object_names)
        return self.form

    def on_setting_edited(self, name: str, value: Any) -> None:
        """A control changed a setting.  Override to keep settings consistent with each other."""
        self.set_setting(**{name: value})

    def sync_controls(self, document: Document) -> None:
        """Show ``document``'s settings in the controls (extend for controls outside the form)."""
        if self.form is not None:
            self.form.sync(self.view_spec(document))

    # ---- requests ------------------------------------------------------------------------------
    def on_document_changed(self, document: Document) -> None:
        self.sync_controls(document)
        try:
            request = self.make_request(document)
        except Exception as exc:
            self.ctx.status(f"{i18n.shown(self.title)}: {exc}")
            self.on_failed(str(exc))
            return
        if request is not None and request == self._last_request:
            return  # a change elsewhere in the Document: this view is unaffected
        self.refresh(request)

    def refresh(self, request: Request | None = None) -> int | None:
        if not self.can_compute():
            return None
        if request is None:
            try:
                request = self.make_request(self.ctx.document)
            except Exception as exc:
                self.ctx.status(f"{i18n.shown(self.title)}: {exc}")
                self.on_failed(str(exc))
                return None
        return super().refresh(request)
