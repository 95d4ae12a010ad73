"""Parameter specs with metadata: the single source the GUI builds its forms from.

A family's spec is a frozen dataclass whose fields are declared with :func:`param`.  The
metadata (label, range, step, help, choices) drives both validation here and the widgets in
``ui/``; adding a parameter therefore touches one module only.

    @dataclass(frozen=True)
    class SinusoidalSpec(Spec):
        d_model: int = param(128, "d_model", minimum=2, maximum=8192, step=2, help="...")
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Self

from peapp.errors import ParameterError
from peapp.i18n import shown, translate


@dataclass(frozen=True)
class ParamInfo:
    """What a form needs to know to show and check one parameter."""

    name: str
    label: str
    kind: type  # int, float, str (a choice) or bool
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    choices: tuple[Any, ...] = ()  # the allowed values (names, or numbers such as an animation speed)
    help: str = ""
    log: bool = False  # a log-scaled quantity (base, factor): sliders move in log space
    even: bool = False  # must be an even integer (pairs of dimensions)
    choice_labels: tuple[str, ...] = ()  # what a form shows for each choice (default: the value itself)
    readonly: bool = False  # set by another panel or an action (a checkpoint table), not typed in

    def label_of(self, choice: Any) -> str:
        """The text a form shows for one of the choices."""
        if self.choice_labels and choice in self.choices:
            return self.choice_labels[self.choices.index(choice)]
        return str(choice)


def param(
    default: Any,
    label: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    step: float | None = None,
    choices: tuple[Any, ...] | Mapping[Any, str] = (),
    help: str = "",
    log: bool = False,
    even: bool = False,
    readonly: bool = False,
) -> Any:
    """Declare a spec field with its metadata (the name and kind are filled in by :class:`Spec`).

    ``choices`` is a tuple of allowed values, or a mapping value -> the label a form shows.
    """
    labels: tuple[str, ...] = ()
    if isinstance(choices, Mapping):
        labels, choices = tuple(choices.values()), tuple(choices)
    meta = dict(label=label, minimum=minimum, maximum=maximum, step=step, choices=tuple(choices),
                help=help, log=log, even=even, choice_labels=labels, readonly=readonly)
    return field(default=default, metadata={"param": meta})


class Spec:
    """Base for frozen parameter specs: validates every field against its metadata.

    Subclasses may add ``check()`` for constraints that involve several fields; it raises
    :class:`ParameterError` with a message that says what to change.
    """

    family: ClassVar[str] = ""
    if TYPE_CHECKING:  # every subclass is a dataclass: say so to the type checker (fields(), replace())
        __dataclass_fields__: ClassVar[dict[str, Any]]

    def __post_init__(self) -> None:
        for info in self.param_infos():
            value = getattr(self, info.name)
            object.__setattr__(self, info.name, _coerce(info, value))
        self.check()

    def check(self) -> None:  # pragma: no cover - default has nothing to check
        return None

    def inactive_fields(self) -> dict[str, str]:
        """Fields that have no effect with the current values, each with a reason a form can show
        (it disables them: YaRN settings while RoPE is unscaled).  Default: none."""
        return {}

    @classmethod
    def param_infos(cls) -> tuple[ParamInfo, ...]:
        cached = cls.__dict__.get("_param_infos_cache")
        if cached is None:  # per class, not inherited: built once (a spec is built on every edit)
            cached = cls._build_param_infos()
            cls._param_infos_cache = cached  # type: ignore[attr-defined]
        return cached

    @classmethod
    def info(cls, name: str) -> ParamInfo:
        """The metadata of field ``name``."""
        for info in cls.param_infos():
            if info.name == name:
                return info
        raise KeyError(f"{cls.__name__} has no parameter {name!r}")

    @classmethod
    def _build_param_infos(cls) -> tuple[ParamInfo, ...]:
        infos = []
        for f in dataclasses.fields(cls):
            meta = f.metadata.get("param")
            if meta is None:
                continue
            kind = f.type if isinstance(f.type, type) else {"int": int, "float": float, "str": str,
                                                              "bool": bool}[str(f.type)]
            infos.append(ParamInfo(name=f.name, kind=kind, default=f.default, **meta))
        return tuple(infos)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Self:
        """Build a spec from (possibly partial) values; unknown keys are an error."""
        names = {i.name for i in cls.param_infos()}
        unknown = set(values) - names
        if unknown:
            raise ParameterError(translate("Params", "unknown parameter(s) for {family}: {names}")
                                 .format(family=cls.family, names=", ".join(sorted(unknown))))
        return cls(**dict(values))

    def to_dict(self) -> dict[str, Any]:
        return {i.name: getattr(self, i.name) for i in self.param_infos()}

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


def check_value(info: ParamInfo, value: Any) -> Any:
    """``value`` converted for field ``info``, or ParameterError with the message a spec gives
    (a form checks typed values with it, so it says exactly what the Document would)."""
    return _coerce(info, value)


def message_label(info: ParamInfo) -> str:
    """How a message names a field: its label, with the field's name when the label does not
    already show it ("Positions (n_positions)", but "Base (rope_theta)", never "… (base)")."""
    label = shown(info.label)
    if info.label == info.name or "(" in info.label:
        return label
    return f"{label} ({info.name})"


def _coerce(info: ParamInfo, value: Any) -> Any:
    """Convert and range-check one value; the message names the parameter and the valid range."""
    label = message_label(info)
    if info.kind is bool:
        if isinstance(value, bool):
            return value
        raise ParameterError(translate("Params", "{label} must be true or false, not {value}").format(label=label, value=repr(value)))
    if info.kind is str:
        if not isinstance(value, str):
            raise ParameterError(translate("Params", "{label} must be text, not {value}").format(label=label, value=repr(value)))
        if info.choices and value not in info.choices:
            raise ParameterError(translate("Params", "{label} must be one of {choices}; got {value}")
                                 .format(label=label, choices=", ".join(info.choices), value=repr(value)))
        return value
    if isinstance(value, bool):  # True is an int to Python, never a count or a length to a user
        raise ParameterError(_not_a_number(info, label, value))
    try:
        if info.kind is int:
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            number: float = int(value)
        else:
            number = float(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: a 400-digit number as a float
        raise ParameterError(_not_a_number(info, label, value)) from None
    if isinstance(number, float) and not math.isfinite(number):
        raise ParameterError(translate("Params", "{label} must be finite; got {value}").format(label=label, value=repr(value)))
    if info.minimum is not None and number < info.minimum:
        raise ParameterError(translate("Params", "{label} must be at least {minimum}; got {value}")
                             .format(label=label, minimum=_fmt(info.minimum), value=_fmt(number)))
    if info.maximum is not None and number > info.maximum:
        raise ParameterError(translate("Params", "{label} must be at most {maximum}; got {value}")
                             .format(label=label, maximum=_fmt(info.maximum), value=_fmt(number)))
    if info.even and int(number) % 2:
        raise ParameterError(translate("Params", "{label} must be even (dimensions come in pairs); got {value}")
                             .format(label=label, value=number))
    if info.choices and number not in info.choices:
        raise ParameterError(translate("Params", "{label} must be one of {choices}; got {value}")
                             .format(label=label, choices=", ".join(_fmt(c) for c in info.choices), value=_fmt(number)))
    return number


def _not_a_number(info: ParamInfo, label: str, value: Any) -> str:
    text = (translate("Params", "{label} must be a whole number; got {value}") if info.kind is int
            else translate("Params", "{label} must be a number; got {value}"))
    return text.format(label=label, value=repr(value))


def _fmt(x: float) -> str:
    if isinstance(x, int) and abs(x) >= 10**18:  # too long to print, and too large for a float
        return translate("Params", "a {digits}-digit number").format(digits=len(str(abs(x))))
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"
