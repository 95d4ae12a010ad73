"""Files shipped with the app (``resources/`` at the repository root, or inside a PyInstaller bundle)."""

from __future__ import annotations

import sys
from pathlib import Path


def resource_dir() -> Path:
    bundle = getattr(sys, "_MEIPASS", None)  # set by PyInstaller when frozen
    if bundle is not None:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource_path(name: str) -> Path:
    return resource_dir() / name
