"""SVG figures drawn by librsvg (GNOME viewers, ``rsvg-convert``, pandoc/LaTeX pipelines) look
like the PNG of the same figure.

Qt writes a curve in data coordinates under the plot's non-uniform transform with
``vector-effect="non-scaling-stroke"``, which librsvg ignores: cross-sections became bands tens
of pixels thick, and Qt's SVG engine kept a stale clip that cut axis lines away.  Each figure
is exported as PNG (scale 1) and as SVG, the SVG is rasterised by ``rsvg-convert`` at the same
size, and the two are compared in 8 × 8 pixel blocks of grey level.

``rsvg-convert`` (Debian/Ubuntu: ``librsvg2-bin``) is a test dependency; ``.ci/run`` installs it.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from PySide6.QtGui import QImage

from peapp import cli
from ui import i18n

BLOCK = 8


def _grey(path) -> np.ndarray:
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_Grayscale8)
    assert not image.isNull(), path
    rows = np.frombuffer(image.constBits(), np.uint8, image.bytesPerLine() * image.height())
    return rows.reshape(image.height(), image.bytesPerLine())[:, :image.width()].astype(float)


def _blocks(grey: np.ndarray) -> np.ndarray:
    h, w = grey.shape[0] // BLOCK * BLOCK, grey.shape[1] // BLOCK * BLOCK
    return grey[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK).mean(axis=(1, 3))


@pytest.fixture(scope="module")
def rsvg_convert() -> str:
    path = shutil.which("rsvg-convert")
    assert path, "rsvg-convert is a test dependency: install librsvg2-bin (apt-get install librsvg2-bin)"
    return path


@pytest.mark.parametrize("view, lang", [("heatmap", "en"), ("spectrum", "en"), ("rotation", "en"),
                                        ("extrapolation", "en"), ("heatmap", "hi"), ("spectrum", "hi")])
def test_librsvg_draws_the_svg_as_the_png_shows(qapp, tmp_path, rsvg_convert, view, lang):
    png, svg, drawn = tmp_path / "f.png", tmp_path / "f.svg", tmp_path / "rsvg.png"
    try:
        for out in (png, svg):
            assert cli.main(["render", view, "--lang", lang, "--scale", "1", "--size", "800x600",
                             "-o", str(out)]) == 0
    finally:
        i18n.set_language("en")
    reference = _grey(png)
    height, width = reference.shape
    subprocess.run([rsvg_convert, "-w", str(width), "-h", str(height), "-b", "white", str(svg), "-o", str(drawn)],
                   check=True, capture_output=True)
    difference = np.abs(_blocks(reference) - _blocks(_grey(drawn)))
    # anti-aliasing and text hinting differ by a few grey levels; a stroke scaled with the data
    # (a band) or a clipped-away axis differs by far more over many blocks
    assert difference.mean() < 5, difference.mean()
    assert np.mean(difference > 48) < 0.002, np.mean(difference > 48)
