"""The parameters dock: choose the family, then edit its parameters.

The form is generated from the spec metadata (``peapp.params``), so a new family needs no
code here.  Edits are throttled (a drag never queues hundreds of jobs; superqt's throttler
always delivers the final value), validated by the Document, and undoable.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QLabel, QLineEdit, QSpinBox,
                               QStackedWidget, QVBoxLayout, QWidget)
from superqt import QLabeledDoubleSlider, QLabeledSlider
from superqt.utils import qthrottled

from peapp import encodings
from peapp.document import Document
from peapp.params import ParamInfo
from ui.docks.base import ViewDock

# Integer ranges up to this size get a labelled slider; wider ones (positions up to 2^20) a
# spin box, where typing the number is the useful gesture.
_SLIDER_MAX_SPAN = 4096
THROTTLE_MS = 40


class _Form(QWidget):
    """One family's form: a widget per parameter, kept in sync with the Document."""

    def __init__(self, family: encodings.Family, on_edit: Callable[[str, Any], None]):
        super().__init__()
        self.family = family
        self._on_edit = on_edit
        self._setters: dict[str, Callable[[Any], None]] = {}
        self.widgets: dict[str, QWidget] = {}
        layout = QFormLayout(self)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        summary = QLabel(family.summary)
        summary.setWordWrap(True)
        layout.addRow(summary)
        for info in family.spec.param_infos():
            widget, setter = self._make_widget(info)
            widget.setObjectName(f"param_{info.name}")
            tip = info.help + (f"  Range {info.minimum:g} … {info.maximum:g}." if info.minimum is not None
                               and info.maximum is not None else "")
            widget.setToolTip(tip)
            label = QLabel(info.label)
            label.setToolTip(tip)
            layout.addRow(label, widget)
            self.widgets[info.name] = widget
            self._setters[info.name] = setter

    def _make_widget(self, info: ParamInfo) -> tuple[QWidget, Callable[[Any], None]]:
        name = info.name
        emit = qthrottled(lambda value, n=name: self._on_edit(n, value), timeout=THROTTLE_MS, leading=True, parent=self)
        if info.kind is bool:
            box = QCheckBox()
            box.toggled.connect(lambda checked, n=name: self._on_edit(n, bool(checked)))
            return box, lambda v: box.setChecked(bool(v))
        if info.kind is str and not info.choices:  # free text set by another panel (a checkpoint table)
            field = QLineEdit()
            field.setReadOnly(True)
            field.setPlaceholderText("(none)")
            return field, lambda v: (field.setText(str(v)), field.setCursorPosition(0))
        if info.kind is str:
            combo = QComboBox()
            combo.addItems(list(info.choices))
            combo.currentTextChanged.connect(lambda text, n=name: self._on_edit(n, text))
            return combo, lambda v: combo.setCurrentText(str(v))
        lo = info.minimum if info.minimum is not None else -1e12
        hi = info.maximum if info.maximum is not None else 1e12
        if info.kind is int and hi - lo <= _SLIDER_MAX_SPAN:
            slider = QLabeledSlider(Qt.Orientation.Horizontal)
            slider.setRange(int(lo), int(hi))
            slider.setSingleStep(int(info.step or 1))
            slider.setPageStep(max(int(info.step or 1), int((hi - lo) // 16) or 1))
            slider.valueChanged.connect(emit)
            return slider, lambda v: slider.setValue(int(v))
        if info.kind is int:
            spin = QSpinBox()
            spin.setRange(int(lo), int(hi))
            spin.setSingleStep(int(info.step or 1))
            spin.setGroupSeparatorShown(True)
            spin.setKeyboardTracking(False)  # typed entry commits on Enter / focus-out
            spin.setStepType(QSpinBox.StepType.AdaptiveDecimalStepType)
            spin.valueChanged.connect(emit)
            return spin, lambda v: spin.setValue(int(v))
        if info.log or info.step is None:
            spin = QDoubleSpinBox()
            spin.setDecimals(4)
            spin.setRange(lo, hi)
            spin.setKeyboardTracking(False)
            spin.setStepType(QDoubleSpinBox.StepType.AdaptiveDecimalStepType)
            spin.valueChanged.connect(emit)
            return spin, lambda v: spin.setValue(float(v))
        slider = QLabeledDoubleSlider(Qt.Orientation.Horizontal)
        slider.setRange(lo, hi)
        slider.setSingleStep(info.step)
        slider.valueChanged.connect(emit)
        return slider, lambda v: slider.setValue(float(v))

    def sync(self, values: dict[str, Any]) -> None:
        for name, value in values.items():
            widget = self.widgets.get(name)
            if widget is None:
                continue
            widget.blockSignals(True)
            try:
                self._setters[name](value)
            finally:
                widget.blockSignals(False)


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
        self.forms: dict[str, _Form] = {}
        for fam in self._families:
            form = _Form(fam, lambda name, value, f=fam.name: self._edit(f, name, value))
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
        index = self.family_combo.findData(document.family)
        self.family_combo.blockSignals(True)
        self.family_combo.setCurrentIndex(index)
        self.family_combo.blockSignals(False)
        self.stack.setCurrentWidget(self.forms[document.family])
        for name, form in self.forms.items():
            try:
                form.sync(document.spec(name).to_dict())
            except Exception:  # noqa: BLE001 - an invalid stored family never blocks the others
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
