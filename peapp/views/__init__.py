"""Every panel's view state as a typed, validated spec (see :mod:`peapp.views.base`).

One module per panel, discovered automatically (as ``peapp.encodings`` discovers families):
importing this package imports each module here, which registers its spec with
:func:`~peapp.views.base.register`; ``Document.views`` is validated against them.
"""

from __future__ import annotations

import importlib
import pkgutil

from peapp.views.base import ViewSpec, Viewport, current_id, get, register, registry


def _discover() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_") and info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")


_discover()

__all__ = ["ViewSpec", "Viewport", "current_id", "get", "register", "registry"]
