"""One form builder: a spec's fields (``peapp.params`` metadata) → labelled widgets, bound both ways.

A :class:`Form` makes one control and one label per field of a :class:`peapp.params.Spec` class
(a family's parameters or a panel's view spec), with the range, step, choices and help text of
its metadata.  Edits go to ``on_edit(name, value)``; numeric controls are throttled (a drag never
queues hundreds of jobs, and superqt's throttler always delivers the final value).  ``sync``
shows a Document's values (after an undo, a session load, an edit elsewhere) with the widgets'
signals blocked, so showing a value is never taken for an edit.

    form = Form(ExtrapolationView, lambda name, value: dock.set_setting(**{name: value}), parent=dock,
                hints={"factor": Spin(decimals=2, special="auto")}, object_names={"factor": "extrapFactor"})
    grid.addWidget(form.labels["factor"], 0, 0); grid.addWidget(form.widgets["factor"], 0, 1)
    form.sync(document.view_spec("extrapolation").to_dict())

Which control a field gets: a check box (bool), a line edit (free text; read-only when the
metadata says ``readonly``), a combo (choices, labelled by ``choice_labels``), a labelled slider
(an int range up to 4096 wide, or a float with a step), otherwise a spin box.  A dock can ask for
another control with a hint (:class:`Spin`, :class:`Slider`, :class:`Combo`, :class:`Line`,
:class:`Check`), e.g. a spin box with an "auto" text at its minimum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Union

import dataclasses
import itertools

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (QAbstractSpinBox, QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGridLayout,
                               QLabel, QLineEdit, QSpinBox, QToolTip, QVBoxLayout, QWidget)
from superqt import QLabeledDoubleSlider, QLabeledSlider
from superqt.utils import qthrottled, signals_blocked

from peapp.errors import ParameterError
from peapp.params import ParamInfo, Spec, check_value
from ui import i18n
from ui.document_model import continuing_gesture

THROTTLE_MS = 40
# What a spin box lets the user type, wider than any spec's range: a value outside the field's
# range is typed in full and refused with the validator's message, never cut or dropped silently.
TYPING_INT_LIMIT = 2**31 - 1
TYPING_FLOAT_LIMIT = 1e15
# Integer ranges up to this size get a labelled slider; wider ones (positions up to 2^20) a
# spin box, where typing the number is the useful gesture.
SLIDER_MAX_SPAN = 4096


# ---- hints: which control a field gets, when the default is not the one ------------------------------
@dataclass(frozen=True)
class Spin:
    """A spin box that commits on Enter / focus-out (unless ``tracking``): a QSpinBox for an int, a
    QDoubleSpinBox with ``decimals`` for a float.  ``adaptive`` steps by a tenth of the value's
    magnitude (bases, lengths); ``separators`` shows 1,000,000; ``special`` is the text shown at the
    minimum (e.g. "auto" for 0); ``minimum``/``maximum`` narrow the spec's range for this control."""

    decimals: int | None = None
    adaptive: bool = False
    separators: bool = False
    special: str = ""
    step: float | None = None
    minimum: float | None = None
    maximum: float | None = None
    tracking: bool = False


@dataclass(frozen=True)
class Slider:
    """A superqt labelled slider (QLabeledSlider for an int, QLabeledDoubleSlider for a float)."""

    minimum: float | None = None
    maximum: float | None = None


@dataclass(frozen=True)
class Combo:
    """A combo box of the field's choices; ``chars`` lets it be narrower than its longest item (it elides).

    ``tips`` maps a choice to its item's tooltip (a ``msg``, shown in the current language): where a
    short item text needs its explanation beside it, as Precision's "auto"."""

    chars: int | None = None
    tips: Mapping[str, str] | None = None


@dataclass(frozen=True)
class Line:
    """A line edit: committed on Enter / focus-out; read-only if the field's metadata says so."""

    min_width: int | None = None


@dataclass(frozen=True)
class Check:
    """A check box."""


Hint = Union[Spin, Slider, Combo, Line, Check]


def default_hint(info: ParamInfo) -> Hint:
    """The control a field gets unless a dock asks for another."""
    if info.kind is bool:
        return Check()
    if info.choices:
        return Combo()
    if info.kind is str:
        return Line()
    lo = info.minimum if info.minimum is not None else -1e12
    hi = info.maximum if info.maximum is not None else 1e12
    if info.kind is int:
        return Slider() if hi - lo <= SLIDER_MAX_SPAN else Spin(adaptive=True, separators=True)
    if info.log or info.step is None:
        return Spin(decimals=4, adaptive=True)
    return Slider()


def tooltip(info: ParamInfo) -> str:
    """The help text, and the range when there is one (in the current language)."""
    if info.minimum is not None and info.maximum is not None and not info.choices:
        return i18n.shown(info.help) + "  " + i18n.translate("Forms", "Range {low} … {high}.").format(
            low=f"{info.minimum:g}", high=f"{info.maximum:g}")
    return i18n.shown(info.help)


def compact(combo: QComboBox, chars: int = 10) -> QComboBox:
    """Let a combo be narrower than its longest item (it elides), so docks fit a 1000 px window."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
    return combo


class _FieldLimits:
    """A spin box whose arrows and wheel stop at the field's range while typing accepts any number.

    The typed value is checked on commit against the same range with the spec's own message
    (:func:`peapp.params.check_value`), so 99,999,999 or −5 is said to be out of range instead of
    being cut to 999,999 or losing its sign.  Mixed into QSpinBox / QDoubleSpinBox below."""

    field_minimum: float
    field_maximum: float
    _hints: tuple[QSize, QSize] | None

    def set_field_range(self, minimum: float, maximum: float) -> None:
        self.field_minimum, self.field_maximum = minimum, maximum
        self._hints = None
        self.updateGeometry()  # type: ignore[attr-defined]

    def in_field_range(self, value: float) -> bool:
        return self.field_minimum <= value <= self.field_maximum

    def stepBy(self, steps: int) -> None:  # Qt override
        old = self.value()  # type: ignore[attr-defined]
        with signals_blocked(self):
            super().stepBy(steps)  # type: ignore[misc]
            new = min(max(self.value(), self.field_minimum), self.field_maximum)  # type: ignore[attr-defined]
            self.setValue(new)  # type: ignore[attr-defined]
        if new != old:
            self.valueChanged.emit(new)  # type: ignore[attr-defined]

    def stepEnabled(self):  # Qt override
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if self.isReadOnly():  # type: ignore[attr-defined]
            return flags
        value = self.value()  # type: ignore[attr-defined]
        if value < self.field_maximum:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if value > self.field_minimum:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    def _size_hints(self) -> tuple[QSize, QSize]:
        # as wide as the field's range needs, not the typing range's 16 digits
        if self._hints is None:
            twin = QSpinBox() if isinstance(self, QSpinBox) else QDoubleSpinBox()
            if isinstance(twin, QDoubleSpinBox):
                twin.setDecimals(self.decimals())  # type: ignore[attr-defined]
            twin.setFont(self.font())  # type: ignore[attr-defined]
            twin.setRange(self.field_minimum, self.field_maximum)  # type: ignore[arg-type]
            twin.setGroupSeparatorShown(self.isGroupSeparatorShown())  # type: ignore[attr-defined]
            twin.setSpecialValueText(self.specialValueText())  # type: ignore[attr-defined]
            self._hints = (twin.sizeHint(), twin.minimumSizeHint())
            twin.deleteLater()
        return self._hints

    def sizeHint(self) -> QSize:  # Qt override
        return self._size_hints()[0]

    def minimumSizeHint(self) -> QSize:  # Qt override
        return self._size_hints()[1]


class FieldSpinBox(_FieldLimits, QSpinBox):
    pass


class FieldDoubleSpinBox(_FieldLimits, QDoubleSpinBox):
    pass


def _is_undo_key(event: QKeyEvent) -> bool:
    return (event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo)
            or event.keyCombination().toCombined() == QKeySequence("Ctrl+Y")[0].toCombined())


class Form(QObject):
    """Labelled controls for fields of ``spec``, kept in step with a source of values.

    ``names``: the fields to show (default: all, in declaration order).  ``hints``: a control other
    than the default for some fields.  ``object_names``: the widgets' objectNames (default
    ``{prefix}{name}``), which tests and the self-test find them by.
    """

    def __init__(self, spec: type[Spec], on_edit: Callable[[str, Any], None], *, parent: QWidget,
                 names: Iterable[str] | None = None, hints: Mapping[str, Hint] | None = None,
                 object_names: Mapping[str, str] | None = None, prefix: str = "",
                 throttle_ms: int = THROTTLE_MS):
        super().__init__(parent)
        infos = {info.name: info for info in spec.param_infos()}
        chosen = tuple(infos) if names is None else tuple(names)
        unknown = [n for n in chosen if n not in infos]
        if unknown:
            raise KeyError(f"{spec.__name__} has no field(s) {', '.join(unknown)}")
        self.spec = spec
        self.infos: dict[str, ParamInfo] = {n: infos[n] for n in chosen}
        self._on_edit = on_edit
        self._throttle_ms = throttle_ms
        self._setters: dict[str, Callable[[Any], None]] = {}
        self.widgets: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}
        # one per field, hidden until its value is refused: the message sits under the field
        self.errors: dict[str, QLabel] = {}
        self._range_reasons: dict[str, Callable[[Any], str] | None] = {}  # set_range's why, per field
        self._gestures = itertools.count(1)
        self._drag_gesture: dict[str, int] = {}
        hints = dict(hints or {})
        object_names = dict(object_names or {})
        for name, info in self.infos.items():
            widget, setter = self._make(info, hints.get(name) or default_hint(info))
            widget.setObjectName(object_names.get(name, f"{prefix}{name}"))
            label = QLabel()

            def retitle(info=info, widget=widget, label=label) -> None:
                tip = tooltip(info)
                widget.setToolTip(tip)
                label.setText(i18n.shown(info.label))
                label.setToolTip(tip)

            i18n.keep_updated(label, retitle)
            error = QLabel()
            error.setObjectName(f"{widget.objectName()}Error")
            error.setWordWrap(True)
            error.setStyleSheet("color: #c0392b;")
            error.setVisible(False)
            self.errors[name] = error
            self.widgets[name] = widget
            self.labels[name] = label
            self._setters[name] = setter

    # ---- showing values ------------------------------------------------------------------------
    def sync(self, values: Mapping[str, Any] | Spec) -> None:
        """Show ``values`` (a mapping or a spec) without emitting edits: a Document's state is not an edit."""
        if isinstance(values, Spec):
            values = values.to_dict()
        for name, value in values.items():
            setter = self._setters.get(name)
            if setter is None:
                continue
            with signals_blocked(self.widgets[name]):
                setter(value)
            self.clear_invalid(name)  # the field shows the Document's value again

    def set_range(self, name: str, minimum: float, maximum: float,
                  reason: Callable[[Any], str] | None = None) -> None:
        """Narrow a numeric control's range (e.g. to the pairs a RoPE spec has), quietly; ``reason(value)``:
        what a refused value is told instead of the validator's range message (why the range is narrower)."""
        self._range_reasons[name] = reason
        widget = self.widgets[name]
        with signals_blocked(widget):
            if isinstance(widget, _FieldLimits):
                widget.set_field_range(minimum, maximum)
                if not self._types_freely(widget):
                    widget.setRange(minimum, maximum)
            else:
                widget.setRange(minimum, maximum)

    # ---- refused values, said beside the field ----------------------------------------------------
    def mark_invalid(self, name: str, message: str) -> None:
        """Say under field ``name`` why its value was refused (the field keeps what was typed)."""
        error = self.errors[name]
        error.setText(message)
        if error.parentWidget() is None:  # the dock placed the control itself, without the error line
            widget = self.widgets[name]
            QToolTip.showText(widget.mapToGlobal(widget.rect().bottomLeft()), message, widget)
            self.labels[name].setStyleSheet("color: #c0392b;")
            return
        error.setVisible(True)
        # as tall as the wrapped message at the field's width: a scroll area or form layout that
        # sizes by minimum height (not height-for-width) would otherwise squeeze it to two lines
        width = max(self.widgets[name].width(), error.width(), 120)
        error.setMinimumHeight(error.heightForWidth(width))
        self.labels[name].setStyleSheet("color: #c0392b;")

    def clear_invalid(self, name: str | None = None) -> None:
        for key in self.errors if name is None else (name,):
            if self.errors[key].text():
                self.errors[key].clear()
                self.errors[key].setMinimumHeight(0)
                self.errors[key].setVisible(False)
                self.labels[key].setStyleSheet("")

    def invalid_fields(self) -> dict[str, str]:
        """Fields marked invalid now, with their messages."""
        return {name: label.text() for name, label in self.errors.items() if label.text()}

    def set_row_visible(self, name: str, visible: bool) -> None:
        self.widgets[name].setVisible(visible)
        self.labels[name].setVisible(visible)

    def set_row_enabled(self, name: str, enabled: bool) -> None:
        self.widgets[name].setEnabled(enabled)
        self.labels[name].setEnabled(enabled)

    # ---- layout helpers ------------------------------------------------------------------------
    def add_rows(self, layout: QFormLayout, names: Iterable[str] | None = None) -> None:
        """One labelled row per field, its refusal message (when there is one) right under it."""
        for name in self.infos if names is None else names:
            layout.addRow(self.labels[name], self.field_cell(name))

    def field_cell(self, name: str) -> QWidget:
        """The control of ``name`` with its (hidden) error line beneath, as one widget."""
        cell = QWidget()
        column = QVBoxLayout(cell)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(1)
        column.addWidget(self.widgets[name])
        column.addWidget(self.errors[name])
        return cell

    def add_to_grid(self, grid: QGridLayout, rows: Iterable[Iterable[str]], first_row: int = 0) -> None:
        """Label/control pairs in a grid: each inner list is one row of fields."""
        for r, row in enumerate(rows):
            for c, name in enumerate(row):
                grid.addWidget(self.labels[name], first_row + r, 2 * c)
                grid.addWidget(self.widgets[name], first_row + r, 2 * c + 1)

    # ---- building ------------------------------------------------------------------------------
    def _emit(self, name: str, value: Any, gesture: int | None = None) -> None:
        # each emitted value is its own undo step unless it continues a gesture (a slider drag)
        with continuing_gesture(gesture):
            self._on_edit(name, value)

    def _throttled(self, name: str, convert: Callable[[Any], Any]) -> Callable[..., None]:
        return qthrottled(lambda value, gesture=None: self._emit(name, convert(value), gesture),
                          timeout=self._throttle_ms, leading=True, parent=self)

    def _slider_value(self, name: str, slider: QWidget, emit: Callable[..., None]) -> Callable[[Any], None]:
        """valueChanged of a slider: values of one drag share a gesture (one undo step); a key
        press or a click on the groove is a step of its own."""
        def changed(value: Any) -> None:
            if slider.isSliderDown():  # type: ignore[attr-defined]
                gesture = self._drag_gesture.setdefault(name, next(self._gestures))
            else:
                gesture = None
            self.clear_invalid(name)
            emit(value, gesture)
        slider.sliderPressed.connect(lambda: self._drag_gesture.__setitem__(name, next(self._gestures)))  # type: ignore[attr-defined]
        return changed

    def _spin_value(self, name: str, info: ParamInfo, spin: "FieldSpinBox | FieldDoubleSpinBox",
                    convert: Callable[[Any], Any], emit: Callable[..., None]) -> Callable[[Any], None]:
        """valueChanged of a spin box: a value outside the field's range is refused beside the
        field with the validator's own words; others go on as edits."""
        def changed(value: Any) -> None:
            if not spin.in_field_range(value):
                reason = self._range_reasons.get(name)
                if reason is not None and (info.minimum is None or value >= info.minimum) and (
                        info.maximum is None or value <= info.maximum):
                    self.mark_invalid(name, reason(value))
                    return
                limited = dataclasses.replace(info, minimum=spin.field_minimum, maximum=spin.field_maximum)
                try:
                    check_value(limited, convert(value))
                except ParameterError as exc:
                    self.mark_invalid(name, str(exc))
                    return
            self.clear_invalid(name)
            emit(value)
        return changed

    @staticmethod
    def _types_freely(spin: QAbstractSpinBox) -> bool:
        # with a special text shown at the minimum, the minimum must stay the box's own
        return not spin.specialValueText()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        # A spin box or line edit takes Ctrl+Z / Ctrl+Shift+Z for its own text; here they undo
        # the Document, as everywhere else in the window (the edit shows the restored value).
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and _is_undo_key(event):
            return True  # not accepted: the window's Undo / Redo action gets the key
        return super().eventFilter(watched, event)

    def _make(self, info: ParamInfo, hint: Hint) -> tuple[QWidget, Callable[[Any], None]]:
        name = info.name
        if isinstance(hint, Check):
            box = QCheckBox()
            box.toggled.connect(lambda checked: self._emit(name, bool(checked)))
            return box, lambda v: box.setChecked(bool(v))
        if isinstance(hint, Combo):
            combo = QComboBox()
            for choice in info.choices:
                combo.addItem("", choice)

            def name_choices(info=info, combo=combo, tips=hint.tips or {}) -> None:
                for index, choice in enumerate(info.choices):
                    combo.setItemText(index, i18n.shown(info.label_of(choice)))
                    if choice in tips:
                        combo.setItemData(index, i18n.shown(tips[choice]), Qt.ItemDataRole.ToolTipRole)

            i18n.keep_updated(combo, name_choices)
            if hint.chars is not None:
                compact(combo, hint.chars)
            combo.currentIndexChanged.connect(lambda i: i >= 0 and self._emit(name, combo.itemData(i)))
            return combo, lambda v: combo.setCurrentIndex(max(combo.findData(v), 0))
        if isinstance(hint, Line):
            field = QLineEdit()
            if hint.min_width is not None:
                field.setMinimumWidth(hint.min_width)
            if info.readonly:  # set by another panel or an action
                field.setReadOnly(True)
                i18n.keep(field.setPlaceholderText, i18n.msg("Forms", "(none)"), field)
                return field, lambda v: (field.setText(str(v)), field.setCursorPosition(0))
            field.editingFinished.connect(lambda: self._emit(name, field.text()))
            field.installEventFilter(self)

            def show_text(value: Any) -> None:
                if field.text() != str(value):  # leave the cursor alone when nothing changed
                    field.setText(str(value))
            return field, show_text
        convert = int if info.kind is int else float
        lo = hint.minimum if hint.minimum is not None else info.minimum if info.minimum is not None else -1e12
        hi = hint.maximum if hint.maximum is not None else info.maximum if info.maximum is not None else 1e12
        if isinstance(hint, Slider):
            if info.kind is int:
                slider = QLabeledSlider(Qt.Orientation.Horizontal)
                slider.setRange(int(lo), int(hi))
                step = int(info.step or 1)
                slider.setSingleStep(step)
                slider.setPageStep(max(step, int((hi - lo) // 16) or 1))
            else:
                slider = QLabeledDoubleSlider(Qt.Orientation.Horizontal)
                slider.setRange(lo, hi)
                if info.step is not None:
                    slider.setSingleStep(info.step)
            slider.valueChanged.connect(self._slider_value(name, slider, self._throttled(name, convert)))
            return slider, lambda v: slider.setValue(convert(v))
        spin: FieldSpinBox | FieldDoubleSpinBox
        if info.kind is int:
            spin = FieldSpinBox()
            lo, hi = int(max(lo, -TYPING_INT_LIMIT)), int(min(hi, TYPING_INT_LIMIT))
            wide: tuple[float, float] = (-TYPING_INT_LIMIT, TYPING_INT_LIMIT)
            spin.setSingleStep(int(hint.step or info.step or 1))
        else:
            spin = FieldDoubleSpinBox()
            spin.setDecimals(4 if hint.decimals is None else hint.decimals)
            wide = (-max(TYPING_FLOAT_LIMIT, abs(lo)), max(TYPING_FLOAT_LIMIT, abs(hi)))
            if hint.step is not None:
                spin.setSingleStep(hint.step)
        spin.set_field_range(lo, hi)
        spin.setKeyboardTracking(hint.tracking)  # by default typed entry commits on Enter / focus-out
        if hint.adaptive:
            spin.setStepType(QSpinBox.StepType.AdaptiveDecimalStepType)
        spin.setGroupSeparatorShown(hint.separators)
        if hint.special:
            spin.setSpecialValueText(hint.special)
        spin.setRange(wide[0] if self._types_freely(spin) else lo, wide[1])  # type: ignore[arg-type]
        spin.installEventFilter(self)
        spin.valueChanged.connect(self._spin_value(name, info, spin, convert, self._throttled(name, convert)))
        return spin, lambda v: spin.setValue(convert(v))
