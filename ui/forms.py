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

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGridLayout, QLabel, QLineEdit,
                               QSpinBox, QWidget)
from superqt import QLabeledDoubleSlider, QLabeledSlider
from superqt.utils import qthrottled, signals_blocked

from peapp.params import ParamInfo, Spec

THROTTLE_MS = 40
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
    """A combo box of the field's choices; ``chars`` lets it be narrower than its longest item (it elides)."""

    chars: int | None = None


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
    """The help text, and the range when there is one."""
    if info.minimum is not None and info.maximum is not None and not info.choices:
        return info.help + f"  Range {info.minimum:g} … {info.maximum:g}."
    return info.help


def compact(combo: QComboBox, chars: int = 10) -> QComboBox:
    """Let a combo be narrower than its longest item (it elides), so docks fit a 1000 px window."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
    return combo


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
        hints = dict(hints or {})
        object_names = dict(object_names or {})
        for name, info in self.infos.items():
            widget, setter = self._make(info, hints.get(name) or default_hint(info))
            widget.setObjectName(object_names.get(name, f"{prefix}{name}"))
            tip = tooltip(info)
            widget.setToolTip(tip)
            label = QLabel(info.label)
            label.setToolTip(tip)
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

    def set_range(self, name: str, minimum: float, maximum: float) -> None:
        """Narrow a numeric control's range (e.g. to the pairs a RoPE spec has), quietly."""
        widget = self.widgets[name]
        with signals_blocked(widget):
            widget.setRange(minimum, maximum)

    def set_row_visible(self, name: str, visible: bool) -> None:
        self.widgets[name].setVisible(visible)
        self.labels[name].setVisible(visible)

    def set_row_enabled(self, name: str, enabled: bool) -> None:
        self.widgets[name].setEnabled(enabled)
        self.labels[name].setEnabled(enabled)

    # ---- layout helpers ------------------------------------------------------------------------
    def add_rows(self, layout: QFormLayout, names: Iterable[str] | None = None) -> None:
        """One labelled row per field."""
        for name in self.infos if names is None else names:
            layout.addRow(self.labels[name], self.widgets[name])

    def add_to_grid(self, grid: QGridLayout, rows: Iterable[Iterable[str]], first_row: int = 0) -> None:
        """Label/control pairs in a grid: each inner list is one row of fields."""
        for r, row in enumerate(rows):
            for c, name in enumerate(row):
                grid.addWidget(self.labels[name], first_row + r, 2 * c)
                grid.addWidget(self.widgets[name], first_row + r, 2 * c + 1)

    # ---- building ------------------------------------------------------------------------------
    def _emit(self, name: str, value: Any) -> None:
        self._on_edit(name, value)

    def _throttled(self, name: str, convert: Callable[[Any], Any]) -> Callable[[Any], None]:
        return qthrottled(lambda value: self._emit(name, convert(value)), timeout=self._throttle_ms, leading=True,
                          parent=self)

    def _make(self, info: ParamInfo, hint: Hint) -> tuple[QWidget, Callable[[Any], None]]:
        name = info.name
        if isinstance(hint, Check):
            box = QCheckBox()
            box.toggled.connect(lambda checked: self._emit(name, bool(checked)))
            return box, lambda v: box.setChecked(bool(v))
        if isinstance(hint, Combo):
            combo = QComboBox()
            for choice in info.choices:
                combo.addItem(info.label_of(choice), choice)
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
                field.setPlaceholderText("(none)")
                return field, lambda v: (field.setText(str(v)), field.setCursorPosition(0))
            field.editingFinished.connect(lambda: self._emit(name, field.text()))

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
            slider.valueChanged.connect(self._throttled(name, convert))
            return slider, lambda v: slider.setValue(convert(v))
        if info.kind is int:
            spin: QSpinBox | QDoubleSpinBox = QSpinBox()
            spin.setRange(int(lo), int(min(hi, 2**31 - 1)))
            spin.setSingleStep(int(hint.step or info.step or 1))
        else:
            spin = QDoubleSpinBox()
            spin.setDecimals(4 if hint.decimals is None else hint.decimals)
            spin.setRange(lo, hi)
            if hint.step is not None:
                spin.setSingleStep(hint.step)
        spin.setKeyboardTracking(hint.tracking)  # by default typed entry commits on Enter / focus-out
        if hint.adaptive:
            spin.setStepType(QSpinBox.StepType.AdaptiveDecimalStepType)
        spin.setGroupSeparatorShown(hint.separators)
        if hint.special:
            spin.setSpecialValueText(hint.special)
        spin.valueChanged.connect(self._throttled(name, convert))
        return spin, lambda v: spin.setValue(convert(v))
