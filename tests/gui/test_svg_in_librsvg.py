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


class _CurveFigure:
    """The export hooks of a dock over one plot whose curve is drawn as the docks draw theirs."""

    def __init__(self):
        import pyqtgraph as pg

        self.plot = pg.PlotWidget(title="a zigzag")
        item = self.plot.plot(np.arange(3000), np.tile([-1.0, 1.0], 1500), pen=pg.mkPen("#e67e22", width=1.5))
        item.curve.setSegmentedLineMode("on")  # as ui.docks.base sets every curve for the screen
        self.plot.resize(400, 300)

    def export_widget(self):
        return self.plot

    def export_title(self):
        return "a zigzag"


def test_a_png_strokes_curves_as_segments_and_an_svg_as_one_path(qapp, monkeypatch):
    """One antialiased path per curve made a PNG of the heatmap at 100,000 positions take ~2 s a
    paint (the exact column's min/max zigzag); a PNG keeps the screen's segments, an SVG/PDF
    gets one path per curve (a reader sees a curve, not 1,000 lines)."""
    import pyqtgraph as pg

    from ui import export

    seen: list[tuple[bool, str]] = []
    paint = pg.PlotCurveItem.paint

    def recording(item, painter, *args):
        seen.append((isinstance(painter.device(), QImage), item.opts["segmentedLineMode"]))
        return paint(item, painter, *args)

    monkeypatch.setattr(pg.PlotCurveItem, "paint", recording)  # before the items are made
    figure = _CurveFigure()
    export.png_bytes(figure, export.FigureOptions(size=(400, 300)), {"title": "t"})
    assert seen and all(raster and mode == "on" for raster, mode in seen), seen
    seen.clear()
    export.svg_bytes(figure, export.FigureOptions(size=(400, 300)), {"title": "t"})
    assert any(not raster for raster, _ in seen), seen
    assert all(mode == "off" for raster, mode in seen if not raster), seen
