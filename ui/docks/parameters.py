"""The parameters dock: choose the family, then edit its parameters.

Each family's form is built by ``ui.forms`` from its spec metadata (``peapp.params``), so a
new family needs no code here.  Edits are throttled (a drag never queues hundreds of jobs; superqt's throttler
always delivers the final value), validated by the Document, and undoable.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget
from superqt.utils import signals_blocked

from peapp import encodings
from peapp.document import Document
from ui.docks.base import ViewDock
from ui.forms import Form


class _FamilyPage(QWidget):
    """One family's page: its summary, then its form (``ui.forms``), kept in sync with the Document."""

    def __init__(self, family: encodings.Family, on_edit: Callable[[str, Any], None]):
        super().__init__()
        self.family = family
        layout = QFormLayout(self)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        summary = QLabel(family.summary)
        summary.setWordWrap(True)
        layout.addRow(summary)
        self.form = Form(family.spec, on_edit, parent=self, prefix="param_")
        self.form.add_rows(layout)
        self.widgets = self.form.widgets

    def sync(self, values: dict[str, Any]) -> None:
        self.form.sync(values)


class ParametersDock(ViewDock):
    object_name = "parametersDock"
    title = "Parameters"
    order = 0
    default_area = Qt.DockWidgetArea.LeftDockWidgetArea
    tab_group = "controls"
    shortcut = "Ctrl+0"
    exportable = False

    def __init__(self, ctx, parent=None):
        super().__init__(ctx, parent)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        self.family_combo = QComboBox()
        self.family_combo.setObjectName("familyCombo")
        self.family_combo.setToolTip("Encoding family shown by the heatmap (Ctrl+Up/Down to switch)")
        self._families = encodings.families()
        for fam in self._families:
            self.family_combo.addItem(fam.label, fam.name)
            self.family_combo.setItemData(self.family_combo.count() - 1, fam.summary, Qt.ItemDataRole.ToolTipRole)
        self.family_combo.currentIndexChanged.connect(self._family_chosen)
        layout.addWidget(self.family_combo)
        self.stack = QStackedWidget()
        self.forms: dict[str, _FamilyPage] = {}
        for fam in self._families:
            form = _FamilyPage(fam, lambda name, value, f=fam.name: self._edit(f, name, value))
            self.forms[fam.name] = form
            self.stack.addWidget(form)
        layout.addWidget(self.stack)
        self.message = QLabel()
        self.message.setObjectName("paramMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c0392b;")
        layout.addWidget(self.message)
        layout.addStretch(1)
        self.set_body(body)
        self.set_caption("Every value is checked before it is used; Ctrl+Z undoes an edit.")
        ctx.document_model.error.connect(self._show_error)
        for key, step in (("Ctrl+Down", 1), ("Ctrl+Up", -1)):
            shortcut = QShortcut(QKeySequence(key), self, context=Qt.ShortcutContext.ApplicationShortcut)
            shortcut.activated.connect(lambda s=step: self.step_family(s))
        self.on_document_changed(ctx.document)

    def make_request(self, document: Document):
        return None

    def show_result(self, result) -> None:  # pragma: no cover - never requested
        return None

    def on_document_changed(self, document: Document) -> None:
        with signals_blocked(self.family_combo):
            self.family_combo.setCurrentIndex(self.family_combo.findData(document.family))
        self.stack.setCurrentWidget(self.forms[document.family])
        for name, form in self.forms.items():
            try:
                form.sync(document.spec(name).to_dict())
            except Exception:
                continue
        self.message.clear()

    def step_family(self, step: int) -> None:
        """Show the next (or previous) family: Ctrl+Down / Ctrl+Up."""
        count = self.family_combo.count()
        self.family_combo.setCurrentIndex((self.family_combo.currentIndex() + step) % count)

    def _family_chosen(self, index: int) -> None:
        self.ctx.document_model.try_set_family(self.family_combo.itemData(index))

    def _edit(self, family: str, name: str, value: Any) -> None:
        if self.ctx.document_model.try_set_params(family, **{name: value}):
            self.message.clear()

    def _show_error(self, message: str) -> None:
        self.message.setText(message)
        self.ctx.status(message)


DOCK = ParametersDock
