"""Where the app's bundled files (icons, …) are: ``resources/`` beside the code, or inside a
PyInstaller bundle (``sys._MEIPASS``), where packaging/peapp.spec puts the same folder."""

from __future__ import annotations

import sys
from pathlib import Path

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def resources_dir() -> Path:
    bundle_root = getattr(sys, "_MEIPASS", None)
    if bundle_root:
        return Path(bundle_root) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def icon_paths() -> list[Path]:
    """The app icon's PNGs that exist, smallest first."""
    folder = resources_dir() / "icons"
    return [p for p in (folder / f"peapp-{size}.png" for size in ICON_SIZES) if p.is_file()]


def app_icon():
    """The app icon with every size we ship, so each platform picks the sharpest one."""
    from PySide6.QtGui import QIcon

    icon = QIcon()
    for path in icon_paths():
        icon.addFile(str(path))
    return icon
