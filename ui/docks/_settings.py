"""A ViewDock whose controls live in ``doc.views[objectName]`` (the article docks use it).

Controls write through the document model (so they are undoable and saved with the session);
``sync_controls`` puts the Document's values back into the widgets without re-emitting; a
Document change that leaves this dock's request unchanged costs nothing.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

import numpy as np
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget
from superqt.utils import qthrottled

from peapp.document import Document
from peapp.jobs import Request
from ui.docks.base import ViewDock

THROTTLE_MS = 40


class SettingsDock(ViewDock):

    def __init__(self, ctx, parent=None):
        super().__init__(ctx, parent)
        self._syncers: list[Callable[[Document], None]] = []
        self._result: Any = None  # what the dock shows (set by show_result); the exports read it

    # ---- export: the figure is self.graphics; its data and title come from the result shown ------
    def export_widget(self) -> QWidget:
        return self.graphics

    def export_arrays(self) -> dict[str, np.ndarray]:
        return {} if self._result is None else self.result_arrays(self._result)

    def export_title(self) -> str:
        return self.title if self._result is None else self.result_title(self._result)

    def result_arrays(self, result: Any) -> dict[str, np.ndarray]:
        return {}

    def result_title(self, result: Any) -> str:
        return self.title

    # ---- settings -------------------------------------------------------------------------------
    def setting(self, key: str, document: Document | None = None) -> Any:
        """One of this dock's settings (its default from the view spec when not set)."""
        return getattr(self.view_spec(document), key)

    def set_setting(self, **values: Any) -> None:
        self.set_view(**values)

    # ---- control helpers: each keeps one widget and one setting in step -----------------------------
    def bind_spin(self, spin: QSpinBox | QDoubleSpinBox, key: str, convert: Callable = int) -> None:
        emit = qthrottled(lambda v: self.set_setting(**{key: convert(v)}), timeout=THROTTLE_MS, leading=True, parent=self)
        spin.valueChanged.connect(emit)
        self._syncers.append(lambda doc: set_quietly(spin, spin.setValue, convert(self.setting(key, doc))))

    def bind_slider(self, slider: QWidget, key: str) -> None:
        emit = qthrottled(lambda v: self.set_setting(**{key: int(v)}), timeout=THROTTLE_MS, leading=True, parent=self)
        slider.valueChanged.connect(emit)
        self._syncers.append(lambda doc: set_quietly(slider, slider.setValue, int(self.setting(key, doc))))

    def bind_combo(self, combo: QComboBox, key: str) -> None:
        """A combo whose items carry their setting value as item data."""
        combo.currentIndexChanged.connect(lambda i: self.set_setting(**{key: combo.itemData(i)}))

        def sync(doc: Document) -> None:
            index = combo.findData(self.setting(key, doc))
            set_quietly(combo, combo.setCurrentIndex, max(index, 0))
        self._syncers.append(sync)

    def bind_line(self, line: QLineEdit, key: str) -> None:
        line.editingFinished.connect(lambda: self.set_setting(**{key: line.text()}))

        def sync(doc: Document) -> None:
            if line.text() != self.setting(key, doc):
                set_quietly(line, line.setText, str(self.setting(key, doc)))
        self._syncers.append(sync)

    def sync_controls(self, document: Document) -> None:
        for sync in self._syncers:
            sync(document)

    # ---- requests ------------------------------------------------------------------------------
    def on_document_changed(self, document: Document) -> None:
        self.sync_controls(document)
        try:
            request = self.make_request(document)
        except Exception as exc:  # noqa: BLE001 - bad view settings: say so, keep the last picture
            self.ctx.status(f"{self.title}: {exc}")
            self.on_failed(str(exc))
            return
        if request is not None and request == self._last_request:
            return  # a change elsewhere in the Document: this view is unaffected
        self.refresh(request)

    def refresh(self, request: Request | None = None) -> int | None:
        if request is None:
            try:
                request = self.make_request(self.ctx.document)
            except Exception as exc:  # noqa: BLE001
                self.ctx.status(f"{self.title}: {exc}")
                self.on_failed(str(exc))
                return None
        return super().refresh(request)


def spin_box(name: str, lo: float, hi: float, tip: str, *, decimals: int | None = None, step: float | None = None,
             adaptive: bool = False, separators: bool = False) -> QSpinBox | QDoubleSpinBox:
    """A spin box that commits on Enter / focus-out (not on every typed digit): a QSpinBox, or
    a QDoubleSpinBox when ``decimals`` is given.  ``adaptive`` steps by a tenth of the value's
    magnitude (bases, lengths); ``separators`` shows 1,000,000 for long numbers."""
    spin = QSpinBox() if decimals is None else QDoubleSpinBox()
    spin.setObjectName(name)
    if decimals is not None:
        spin.setDecimals(decimals)
    spin.setRange(lo, hi)
    if step is not None:
        spin.setSingleStep(step)
    spin.setKeyboardTracking(False)
    if adaptive:
        spin.setStepType(QSpinBox.StepType.AdaptiveDecimalStepType)
    spin.setGroupSeparatorShown(separators)
    spin.setToolTip(tip)
    return spin


def compact(combo: QComboBox, chars: int = 10) -> QComboBox:
    """Let a combo be narrower than its longest item (it elides), so docks fit a 1000 px window."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
    return combo


def set_quietly(widget: QWidget, setter: Callable[[Any], None], value: Any) -> None:
    """``setter(value)`` with the widget's signals blocked: showing a Document value is not an edit."""
    widget.blockSignals(True)
    try:
        setter(value)
    finally:
        widget.blockSignals(False)
