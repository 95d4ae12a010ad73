"""Draw the app icon with QPainter and write it to resources/icons/ at every size the app ships.

    python packaging/make_icon.py

The motif is the app's first view: a sinusoidal position-encoding heatmap (each column a sine
of lower frequency than the one before), with one sine curve drawn over it.  Each size is drawn
from scratch (not scaled from a big one), so the small sizes stay crisp.  Also writes
``peapp.ico`` (Windows) when Qt's ICO writer is available.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.resources import ICON_SIZES  # noqa: E402


def _diverging(value: float):
    """Blue (-1) → near white (0) → orange-red (+1)."""
    from PySide6.QtGui import QColor

    t = max(-1.0, min(1.0, value))
    if t < 0:
        a = -t
        return QColor.fromRgbF(0.93 - 0.80 * a, 0.95 - 0.55 * a, 0.97 - 0.25 * a)
    return QColor.fromRgbF(0.97 - 0.10 * t, 0.95 - 0.55 * t, 0.93 - 0.80 * t)


def draw_icon(size: int):
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen

    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        margin = size * 0.04
        tile = QRectF(margin, margin, size - 2 * margin, size - 2 * margin)
        radius = size * 0.18
        clip = QPainterPath()
        clip.addRoundedRect(tile, radius, radius)
        painter.setClipPath(clip)
        painter.fillRect(tile, QColor("#1d2a3a"))
        # The heatmap: fewer, bigger cells at small sizes so it never turns to mush.
        cols = 6 if size <= 32 else 8 if size <= 64 else 12
        rows = cols
        inner = tile.adjusted(size * 0.10, size * 0.10, -size * 0.10, -size * 0.10)
        cw, ch = inner.width() / cols, inner.height() / rows
        for c in range(cols):
            wavelength = rows * 0.45 * (1.8 ** (c // 2))
            for r in range(rows):
                angle = 2 * math.pi * r / wavelength
                value = math.sin(angle) if c % 2 == 0 else math.cos(angle)
                painter.fillRect(QRectF(inner.left() + c * cw, inner.top() + r * ch, cw + 0.5, ch + 0.5),
                                 _diverging(value))
        # One sine drawn across, as if the first column were read out.
        pen = QPen(QColor("#ffffff"), max(1.5, size * 0.04))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        path = QPainterPath()
        steps = 64
        for i in range(steps + 1):
            x = inner.left() + inner.width() * i / steps
            y = inner.center().y() - inner.height() * 0.30 * math.sin(2 * math.pi * 1.25 * i / steps)
            path.moveTo(QPointF(x, y)) if i == 0 else path.lineTo(QPointF(x, y))
        painter.drawPath(path)
        painter.setClipping(False)
        painter.setPen(QPen(QColor(255, 255, 255, 60), max(1.0, size * 0.012)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(tile, radius, radius)
    finally:
        painter.end()
    return image


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication, QImageWriter

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 - needed for fonts/images
    out = ROOT / "resources" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for size in ICON_SIZES:
        path = out / f"peapp-{size}.png"
        if not draw_icon(size).save(str(path), "PNG"):
            print(f"could not write {path}", file=sys.stderr)
            return 1
        print(path.relative_to(ROOT))
    if b"ico" in [bytes(f) for f in QImageWriter.supportedImageFormats()]:
        draw_icon(256).save(str(out / "peapp.ico"), "ICO")
        print((out / "peapp.ico").relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
