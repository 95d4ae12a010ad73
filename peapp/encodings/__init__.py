"""Encoding families: one module each, discovered automatically.

A family module defines ``FAMILY`` (or ``FAMILIES``): an :class:`~peapp.encodings.base.Family`
that couples a frozen parameter spec with the pure functions the views need.  Adding a family
means adding one module here; nothing in ``ui/`` changes, because the GUI builds its forms
from the spec metadata and its views from the family's functions.

Modules import torch inside the functions that compute (``if TYPE_CHECKING`` for the
annotations), so the registry and every spec load without it: the GUI builds its forms before
torch has loaded on its compute thread.
"""

from __future__ import annotations

import importlib
import pkgutil

from peapp.encodings.base import Family
from peapp.errors import ParameterError

_REGISTRY: dict[str, Family] = {}


def _discover() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for family in getattr(module, "FAMILIES", ()) or ((module.FAMILY,) if hasattr(module, "FAMILY") else ()):
            _REGISTRY[family.name] = family


def families() -> list[Family]:
    """All registered families, in menu order."""
    if not _REGISTRY:
        _discover()
    return sorted(_REGISTRY.values(), key=lambda f: (f.order, f.name))


def get(name: str) -> Family:
    if not _REGISTRY:
        _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(f.name for f in families())
        raise ParameterError(f"unknown encoding family {name!r}; choose one of: {known}") from None
