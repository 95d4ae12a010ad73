"""Regenerate ``sample_landscape.png``, the patch-grid dock's built-in image (procedural, no assets).

    python resources/make_sample_image.py

A 224 × 224 landscape — sky gradient, sun, two mountain ridges, a lake with the sun's
reflection, a meadow — chosen because its regions line up with patches differently in
every row, which makes the patch grid easy to read over it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

SIZE = 224


def landscape(size: int = SIZE) -> np.ndarray:
    """RGB uint8 [size, size, 3]."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float64) / size
    img = np.zeros((size, size, 3))
    # sky: deep blue at the top to warm peach at the horizon
    t = np.clip(y / 0.62, 0, 1)[..., None]
    img[:] = (1 - t) * np.array([0.16, 0.32, 0.62]) + t * np.array([0.98, 0.78, 0.60])
    # sun with a soft glow
    d = np.hypot(x - 0.70, y - 0.36)
    img += (np.exp(-(d / 0.16) ** 2) * 0.35)[..., None] * np.array([1.0, 0.75, 0.4])
    img[d < 0.075] = [1.0, 0.93, 0.70]
    # far ridge (blue-grey) and near ridge (green), each a sum of sines
    far = 0.50 - 0.07 * np.sin(7.0 * x + 0.5) - 0.04 * np.sin(17.0 * x + 1.3)
    near = 0.60 - 0.05 * np.sin(4.0 * x + 2.0) - 0.025 * np.sin(23.0 * x)
    img[y > far] = np.array([0.38, 0.43, 0.58]) * (1 - 0.3 * (y[y > far] - 0.45))[..., None]
    shade = 0.75 + 0.25 * np.sin(40.0 * x + 9.0 * y)
    near_mask = y > near
    img[near_mask] = (np.array([0.22, 0.45, 0.25]) * shade[near_mask][..., None])
    # lake mirroring the sky, with a rippled sun reflection
    lake = ((x - 0.55) / 0.40) ** 2 + ((y - 0.775) / 0.07) ** 2 < 1
    mirror = np.clip((y - 0.70) / 0.15, 0, 1)[..., None]
    water = (1 - mirror) * np.array([0.55, 0.55, 0.72]) + mirror * np.array([0.14, 0.28, 0.52])
    glint = (np.abs(x - 0.70) < 0.035 * (1 + np.sin(120 * y))) * 0.45
    img[lake] = (water + glint[..., None] * np.array([1.0, 0.85, 0.5]))[lake]
    # meadow in the foreground with a few flowers
    meadow = y > 0.86
    img[meadow] = np.array([0.35, 0.62, 0.28]) * (0.85 + 0.15 * np.sin(60 * x[meadow]))[..., None]
    rng = np.random.default_rng(7)
    for fx, fy in rng.uniform([0.02, 0.88], [0.98, 0.99], size=(40, 2)):
        ff = np.hypot(x - fx, y - fy) < 0.008
        img[ff & meadow] = rng.choice([[0.95, 0.85, 0.2], [0.95, 0.4, 0.5], [1.0, 1.0, 1.0]])
    return (np.clip(img, 0, 1) * 255).round().astype(np.uint8)


def main() -> int:
    from PySide6.QtGui import QImage

    rgb = np.ascontiguousarray(landscape())
    image = QImage(rgb.data, rgb.shape[1], rgb.shape[0], rgb.strides[0], QImage.Format.Format_RGB888)
    out = Path(__file__).with_name("sample_landscape.png")
    if not image.save(str(out)):
        print(f"could not write {out}", file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
