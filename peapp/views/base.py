"""The base of every panel's view spec: its settings, typed and checked, without Qt.

A view spec is a frozen :class:`peapp.params.Spec` whose fields are a panel's settings, declared
with :func:`peapp.params.param` (default, label, range, choices, help).  It is registered under a
neutral view id ("heatmap", "rotation" …), which is also its key in ``Document.views``; the
Document validates every stored setting against it, so a session file or the CLI is checked
without a GUI, and the defaults live here rather than in a widget class.

    @register
    @dataclass(frozen=True)
    class HeatmapView(ViewSpec):
        view_id: ClassVar[str] = "heatmap"
        title: ClassVar[str] = "Encoding heatmap"
        mode: str = param("encoding", "Show", choices={"encoding": "Encoding table", ...}, help="...")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from peapp.errors import ParameterError
from peapp.i18n import shown, translate
from peapp.params import Spec


class ViewSpec(Spec):
    """One panel's settings.  Subclasses are frozen dataclasses registered with :func:`register`."""

    #: the key of this panel's settings in ``Document.views`` (no GUI names: "heatmap", not a widget's)
    view_id: ClassVar[str] = ""
    #: the panel's title, for messages
    title: ClassVar[str] = ""
    #: keys this panel's settings had in older session files (format 1 used the dock's objectName)
    legacy_ids: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def setting_names(cls) -> tuple[str, ...]:
        return tuple(info.name for info in cls.param_infos())

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> "ViewSpec":
        """The spec for (possibly partial) stored settings; unknown names are an error naming the allowed ones."""
        unknown = sorted(set(values) - set(cls.setting_names()))
        if unknown:
            allowed = ", ".join(cls.setting_names()) or translate("Views", "none (this view has no settings of its own)")
            raise ParameterError(translate("Views", "{view}: unknown setting(s) {names}; allowed: {allowed}")
                                 .format(view=shown(cls.title) or cls.view_id, names=", ".join(unknown), allowed=allowed))
        try:
            return cls(**dict(values))
        except ParameterError as exc:
            raise ParameterError(f"{shown(cls.title) or cls.view_id}: {exc}") from None

    def coerced(self, names: Any) -> dict[str, Any]:
        """The validated values of ``names`` (what the Document stores: only the settings that were set)."""
        return {name: getattr(self, name) for name in names}


_REGISTRY: dict[str, type[ViewSpec]] = {}
_LEGACY: dict[str, str] = {}


def register(cls: type[ViewSpec]) -> type[ViewSpec]:
    """Class decorator: make ``cls`` the spec of its ``view_id`` (one spec per id)."""
    if not cls.view_id:
        raise TypeError(f"{cls.__name__} has no view_id")
    other = _REGISTRY.get(cls.view_id)
    if other is not None and other.__qualname__ != cls.__qualname__:
        raise TypeError(f"view id {cls.view_id!r} is taken by {other.__name__}")
    _REGISTRY[cls.view_id] = cls
    for legacy in cls.legacy_ids:
        _LEGACY[legacy] = cls.view_id
    return cls


def registry() -> Mapping[str, type[ViewSpec]]:
    return dict(_REGISTRY)


def get(view_id: str) -> type[ViewSpec] | None:
    """The spec registered for ``view_id``, or None (the Document refuses settings for an unknown view)."""
    return _REGISTRY.get(view_id)


def current_id(view_id: str) -> str:
    """``view_id`` as this format names it (an older file's dock objectName maps to its view id)."""
    return _LEGACY.get(view_id, view_id)


@dataclass(frozen=True)
class Viewport:
    """The size on screen, in device pixels, that a request is computed for (a level-of-detail
    table needs no more rows than the plot has pixels).  Requests take it as an argument, so the
    core never asks a widget; ``Viewport()`` means "unknown": the builder's own default."""

    width: int = 0
    height: int = 0
