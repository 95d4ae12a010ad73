"""Exports as the user named and saw them (issue 18): light figures from a dark UI have dark
titles, SVG heatmaps are sharp cells, ``-o heatmap.csv`` writes heatmap.csv, and view names
follow the command line's convention."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest
from PySide6.QtGui import QImage

from peapp import export_data
from tests.conftest import wait_idle


def _svg_images(svg: str) -> list[QImage]:
    images = []
    for data in re.findall(r'xlink:href="data:image/png;base64,([^"]+)"', svg):
        images.append(QImage.fromData(base64.b64decode(data), "PNG"))
    return images


def test_light_figure_from_the_dark_ui_has_dark_titles(main_window, qtbot, tmp_path):
    from ui import export
    from ui.settings import apply_theme

    heat = main_window.docks["heatmapDock"]
    apply_theme("dark", main_window)
    try:
        wait_idle(qtbot, main_window)
        title = heat.plot.titleLabel.text
        on_screen = heat.plot.titleLabel.opts.get("color")
        svg = export.figure_bytes(heat, "svg", export.FigureOptions(theme="light")).decode()
        # the fill of the title's text element
        match = re.search(r'<text fill="(#[0-9a-fA-F]{6})"[^>]*>\s*' + re.escape(title), svg)
        assert match is not None, "the title is not in the SVG"
        assert match[1].lower() == export.THEMES["light"][1], match[1]
        assert heat.plot.titleLabel.opts.get("color") == on_screen  # the screen keeps its dark-theme colour
    finally:
        apply_theme("light", main_window)


def test_svg_heatmap_is_sharp_cells_not_a_small_bitmap(main_window, qtbot, tmp_path):
    from ui import export

    heat = main_window.docks["heatmapDock"]
    values = heat.image.image
    assert values.shape == (50, 128)
    svg = export.figure_bytes(heat, "svg", export.FigureOptions()).decode()
    images = _svg_images(svg)
    big = [im for im in images if im.width() >= 128 and im.height() >= 50]
    assert big, [(im.width(), im.height()) for im in images]
    heatmap = max(big, key=lambda im: im.width() * im.height())
    assert heatmap.width() >= 1024 and heatmap.height() >= 1024  # each cell repeated, not smoothed
    # nearest neighbour: within one cell every pixel has the same colour
    fy, fx = heatmap.height() // 50, heatmap.width() // 128
    cell = {heatmap.pixel(x, y) for x in range(fx) for y in range(fy)}
    assert len(cell) == 1
    assert heat.image.image.shape == (50, 128)  # the screen's image is put back


def test_data_export_writes_the_file_named_with_the_main_array(qapp, tmp_path, capsys):
    from peapp import cli

    out = tmp_path / "heatmap.csv"
    assert cli.main(["render", "heatmap", "--set", "n_positions=20", "-o", str(out)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert "heatmap.csv" in written and "heatmap.json" in written, written
    values = export_data.read_csv(out)
    assert values.shape == (20, 128)
    from peapp.encodings import sinusoidal

    np.testing.assert_allclose(values, sinusoidal.table(20, 128).numpy(), atol=1e-6)


@pytest.mark.parametrize("name", ["patch-grid", "patches", "patchGrid"])
def test_cli_view_names_follow_command_line_convention(qapp, tmp_path, capsys, name):
    from peapp import cli
    from ui import export

    assert "patch-grid" in export.all_views() and "patchGrid" not in export.all_views()
    out = tmp_path / "grid.svg"
    assert cli.main(["render", name, "-o", str(out)]) == 0
    assert export_data.read_parameters(out)["view"] == "patch-grid"


def test_figure_images_do_not_depend_on_the_window_size(main_window, qtbot):
    """`peapp render patch-grid` and the GUI's export differed on 54k pixels (up to 117 levels):
    the images' nearest-neighbour repeat followed the plots' size on screen, not in the figure,
    and the photo and tile mosaics were then block-averaged across different cell edges."""
    from PySide6.QtWidgets import QApplication

    from ui import export

    dock = main_window.docks["patchGridDock"]
    options = export.FigureOptions(scale=1.5, size=(640, 480))
    pictures = []
    for width, height in ((1600, 1000), (1000, 700)):
        main_window.setGeometry(0, 0, width, height)
        main_window.show_panel("patchGridDock")
        wait_idle(qtbot, main_window)
        QApplication.processEvents()
        image = export.render_image(dock, options).convertToFormat(QImage.Format.Format_RGBA8888)
        pictures.append(np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes()).copy())
    assert dock.tiles_a.image.image is not None
    assert np.count_nonzero(pictures[0] != pictures[1]) == 0


def _boxes_at_figure_size(monkeypatch) -> list:
    """Record the view boxes as the export lays them out at the figure's size: (box, width, height)
    for each, filled by the next ``export.render_image``."""
    import contextlib

    import pyqtgraph as pg

    from ui import export

    boxes: list = []
    at_size = export._scene_at_size

    @contextlib.contextmanager
    def measured(view, width, height, ratio):
        with at_size(view, width, height, ratio) as source:
            boxes.extend((item, item.width(), item.height()) for item in view.scene().items()
                         if isinstance(item, pg.ViewBox) and item.isVisible())
            yield source

    monkeypatch.setattr(export, "_scene_at_size", measured)
    return boxes


def test_a_small_figure_keeps_room_for_its_data_and_scales_its_legends(main_window, qtbot, monkeypatch):
    """At 420×300 the spectrum's three plots drew as three lines under their titles and legends,
    and the legends (which ignore transforms on screen) ran past the figure's right edge."""
    from ui import export

    dock = main_window.docks["spectrumDock"]
    main_window.show_panel("spectrumDock")
    wait_idle(qtbot, main_window)
    boxes = _boxes_at_figure_size(monkeypatch)
    image = export.render_image(dock, export.FigureOptions(size=(420, 300), scale=1.0))
    heights = [height for _box, _width, height in boxes]
    assert len(heights) == 3 and min(heights) >= export.MIN_DATA_SIDE, heights
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    background = image.pixel(image.width() - 1, image.height() - 1)
    strip = {image.pixel(x, y) for x in range(int(image.width() * 0.92), image.width())
             for y in range(int(image.height() * 0.15), image.height())}
    assert strip == {background}  # nothing (no legend) drawn past the scaled figure


def test_a_colour_bar_keeps_its_width_in_a_figure(main_window, qtbot, monkeypatch):
    """The 80 px every plot's data keeps in a figure is not given to a colour bar: the heatmap's
    14 px bar was exported about 80 px wide, taking the width from the map."""
    import pyqtgraph as pg

    from ui import export

    dock = main_window.docks["heatmapDock"]
    main_window.show_panel("heatmapDock")
    wait_idle(qtbot, main_window)
    on_screen = dock.colorbar.vb.width()
    boxes = _boxes_at_figure_size(monkeypatch)
    export.render_image(dock, export.FigureOptions(size=(800, 600), scale=1.0))
    widths = [width for box, width, _height in boxes if isinstance(box.parentItem(), pg.ColorBarItem)]
    assert widths and max(widths) <= max(2 * on_screen, 30), (widths, on_screen)
