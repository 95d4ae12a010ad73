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
    choices: tuple[str, ...] = ()
    help: str = ""
    log: bool = False  # a log-scaled quantity (base, factor): sliders move in log space
    even: bool = False  # must be an even integer (pairs of dimensions)


def param(
    default: Any,
    label: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    step: float | None = None,
    choices: tuple[str, ...] = (),
    help: str = "",
    log: bool = False,
    even: bool = False,
) -> Any:
    """Declare a spec field with its metadata (the name and kind are filled in by :class:`Spec`)."""
    meta = dict(label=label, minimum=minimum, maximum=maximum, step=step, choices=tuple(choices),
                help=help, log=log, even=even)
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

    @classmethod
    def param_infos(cls) -> tuple[ParamInfo, ...]:
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
            raise ParameterError(f"unknown parameter(s) for {cls.family}: {', '.join(sorted(unknown))}")
        return cls(**dict(values))

    def to_dict(self) -> dict[str, Any]:
        return {i.name: getattr(self, i.name) for i in self.param_infos()}

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


def _coerce(info: ParamInfo, value: Any) -> Any:
    """Convert and range-check one value; the message names the parameter and the valid range."""
    label = info.label if info.label == info.name else f"{info.label} ({info.name})"
    if info.kind is bool:
        if isinstance(value, bool):
            return value
        raise ParameterError(f"{label} must be true or false, not {value!r}")
    if info.kind is str:
        if info.choices and value not in info.choices:
            raise ParameterError(f"{label} must be one of {', '.join(info.choices)}; got {value!r}")
        return str(value)
    try:
        if info.kind is int:
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            number: float = int(value)
        else:
            number = float(value)
    except (TypeError, ValueError):
        raise ParameterError(f"{label} must be a {'whole number' if info.kind is int else 'number'}; "
                             f"got {value!r}") from None
    if isinstance(number, float) and not math.isfinite(number):
        raise ParameterError(f"{label} must be finite; got {value!r}")
    if info.minimum is not None and number < info.minimum:
        raise ParameterError(f"{label} must be at least {_fmt(info.minimum)}; got {_fmt(number)}")
    if info.maximum is not None and number > info.maximum:
        raise ParameterError(f"{label} must be at most {_fmt(info.maximum)}; got {_fmt(number)}")
    if info.even and int(number) % 2:
        raise ParameterError(f"{label} must be even (dimensions come in pairs); got {number}")
    return number


def _fmt(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"
