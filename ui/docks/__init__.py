"""Dock discovery: every module here that defines ``DOCK`` (a ViewDock subclass) is a panel.

Only working docks are modules here, so only working docks are registered.  PyInstaller
collects this package's submodules explicitly (packaging/peapp.spec) because they are
imported by name at run time.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil


@functools.cache  # the panels do not change while the process runs; start-up asks several times
def dock_classes() -> tuple[type, ...]:
    classes = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "DOCK"):
            classes.append(module.DOCK)
    # Ties in ``order`` go by shortcut, so the View menu and the tour read Ctrl+2, Ctrl+3, Ctrl+4 …
    return tuple(sorted(classes, key=lambda c: (c.order, c.shortcut or "~", c.object_name)))
