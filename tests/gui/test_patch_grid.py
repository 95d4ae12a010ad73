"""The vision-patch grid dock: renders 14×14 and 32×32 tile grids, clicks, resampling, tables."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6.QtCore import Qt

from peapp.analysis.patch_grid import map_index
from peapp.encodings import vision
from tests.conftest import wait_idle

DOCK = "patch_grid"  # the view id of the patch grid's settings
DOCK_NAME = "patchGridDock"  # the dock (objectName; also its worker channel)


@pytest.fixture
def dock(main_window, qtbot):
    d = main_window.docks[DOCK_NAME]
    d.show()
    d.raise_()
    main_window.resize(1500, 950)
    qtbot.wait(20)
    wait_idle(qtbot, main_window)
    return d


def _set(window, qtbot, **values):
    window.document_model.set_view(DOCK, **values)
    wait_idle(qtbot, window)


def _shown(image_item) -> np.ndarray:
    return np.asarray(image_item.image)


@pytest.mark.parametrize("image,grid", [(224, 14), (512, 32)])
def test_tile_grid_renders(dock, main_window, qtbot, image, grid):
    _set(main_window, qtbot, image_height=image, image_width=image, patch_height=16, patch_width=16,
         encoding="sincos_2d", second="flat_1d", dim=64)
    result = dock.last_result
    assert result.a.grid == (grid, grid)
    mosaic = _shown(dock.tiles_a.image)
    assert mosaic.shape == (grid * grid,) * 2
    # the drawn mosaic is the tile layout of the similarity matrix computed independently here
    expect = vision.tile_mosaic(vision.cosine_similarity(vision.sincos_2d(grid, grid, 64)).numpy(), grid, grid, gap=0)
    np.testing.assert_allclose(mosaic, expect, atol=1e-6, equal_nan=True)
    assert _shown(dock.tiles_b.image).shape == mosaic.shape
    assert _shown(dock.large_a.image).shape == (grid, grid)
    assert dock.tiles_b.plot.isVisible()
    assert len(dock.tiles_a.separators.xData) == 4 * (grid - 1)  # 2 points per line, both directions
    assert f"{grid}×{grid}" in dock.caption.text()
    pixmap = dock.graphics.grab()
    assert not pixmap.isNull() and pixmap.width() > 300
    # the painted tile area is not uniform (the similarity structure reaches the screen)
    img = pixmap.toImage()
    centre = dock.tile_center((grid // 2) * grid + grid // 2)
    colours = {img.pixelColor(centre.x() + dx, centre.y() + dy).name() for dx in range(-20, 21, 5)
               for dy in range(-20, 21, 5)}
    assert len(colours) > 3


def test_clicking_a_tile_updates_the_large_map(dock, main_window, qtbot):
    _set(main_window, qtbot, image_height=224, image_width=224, encoding="sincos_2d", second="none", dim=64,
         selected=0)
    assert not dock.tiles_b.plot.isVisible()
    before = _shown(dock.large_a.image).copy()
    target = 5 * 14 + 9  # patch (5, 9)
    qtbot.mouseClick(dock.graphics.viewport(), Qt.MouseButton.LeftButton, pos=dock.tile_center(target))
    qtbot.waitUntil(lambda: dock.selected_index() == target, timeout=3000)
    after = _shown(dock.large_a.image)
    sim = dock.last_result.a.sim
    np.testing.assert_allclose(after, sim[target].reshape(14, 14))
    assert not np.allclose(before, after)
    assert np.unravel_index(np.argmax(after), after.shape) == (5, 9)  # the map peaks at the patch itself
    np.testing.assert_allclose(_shown(dock.overlay), sim[target].reshape(14, 14))
    assert "patch (5,9)" in dock.neighbours.text()
    # hover read-out over the same tile
    assert "tile of patch (5,9)" in dock.readout_at("tiles A", 9 * 14 + 7.5, 5 * 14 + 7.5)
    # undo brings the previous selection back
    main_window.document_model.undo_stack.undo()
    qtbot.waitUntil(lambda: dock.selected_index() == 0, timeout=3000)


def test_resampling_updates_tiles_and_map(dock, main_window, qtbot):
    _set(main_window, qtbot, image_height=224, image_width=224, encoding="learned_2d", second="resampled",
         resample_height=20, resample_width=20, dim=32, selected=14 * 7 + 7)
    result = dock.last_result
    assert result.b.grid == (20, 20)
    assert _shown(dock.tiles_b.image).shape == (20 * 20,) * 2
    assert _shown(dock.large_b.image).shape == (20, 20)
    table = vision.learned_2d(14, 14, 32, seed=0, num_prefix_tokens=1)
    resampled = vision.resample(table, (20, 20), num_prefix_tokens=1)[1:]
    sim = vision.cosine_similarity(resampled).numpy()
    b_index = map_index(14 * 7 + 7, (14, 14), (20, 20))
    np.testing.assert_allclose(_shown(dock.large_b.image), sim[b_index].reshape(20, 20), atol=1e-6)
    assert "14×14 → 20×20" in dock.caption.text()
    # through the dock's own controls, two edits in quick succession: neither is lost
    dock.controls["resample_height"].setValue(8)
    dock.controls["resample_width"].setValue(10)
    qtbot.waitUntil(lambda: dock.last_result.b.grid == (8, 10), timeout=5000)
    assert _shown(dock.tiles_b.image).shape == (8 * 8, 10 * 10)
    assert _shown(dock.large_b.image).shape == (8, 10)
    assert "14×14 → 8×10" in dock.caption.text()


def test_show_table_from_a_checkpoint_keeps_prefix_apart(dock, main_window, qtbot, tmp_path):
    from safetensors.torch import save_file

    # a ViT-shaped table [1, 1 + 7·7, d] whose CLS row is huge: it must not reach the grid
    grid = torch.randn(49, 24, generator=torch.Generator().manual_seed(2))
    table = torch.cat([torch.full((1, 24), 50.0), grid]).unsqueeze(0)
    save_file({"test_vit.pos_embed": table, "small": torch.zeros(1 + 10, 8)}, str(tmp_path / "vit.safetensors"))
    source = f"{tmp_path / 'vit.safetensors'}::test_vit.pos_embed"
    assert dock.show_table(source, num_prefix_tokens=1) == (7, 7)
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document.view(DOCK, "table_source") == source  # a reference, not the data
    result = dock.last_result
    assert result.a.grid == (7, 7)
    np.testing.assert_allclose(result.a.sim, vision.cosine_similarity(grid).numpy(), atol=1e-6)
    assert "test_vit.pos_embed" in dock.caption.text()
    # the CLS row is reported apart: its cosine with each patch row
    cls = torch.nn.functional.normalize(table[0, :1], dim=1) @ torch.nn.functional.normalize(grid, dim=1).T
    np.testing.assert_allclose(result.a.prefix_sim, cls.numpy(), atol=1e-6)
    assert f"prefix row 0: mean cosine with the patches {float(cls.mean()):+.3f}" in dock.neighbours.text()
    with pytest.raises(Exception, match="give the grid"):
        dock.show_table(f"{tmp_path / 'vit.safetensors'}::small", num_prefix_tokens=1)
    assert dock.last_result.a.grid == (7, 7)  # the bad table changed nothing


def test_bad_image_and_bad_settings_keep_last_state(dock, main_window, qtbot, tmp_path):
    bad = tmp_path / "not_an_image.png"
    bad.write_text("hello")
    dock.set_image(str(bad))  # read off the GUI thread
    wait_idle(qtbot, main_window)
    assert "cannot read" in dock.readout.text()
    good = tmp_path / "red.png"
    from PySide6.QtGui import QColor, QImage

    img = QImage(40, 30, QImage.Format.Format_RGB888)
    img.fill(QColor(200, 10, 10))
    assert img.save(str(good))
    dock.set_image(str(good))
    wait_idle(qtbot, main_window)
    rgb = _shown(dock.photo.image)
    assert rgb.shape == (224, 224, 3) and tuple(rgb[5, 5]) == (200, 10, 10)
    before = dock.last_result
    dock.controls["patch_height"].setValue(1)  # 224 rows of 1-pixel patches: over the tile limit
    qtbot.waitUntil(lambda: "per side" in dock.readout.text(), timeout=3000)
    assert dock.settings_for(main_window.document_model.document).patch_height == 16
    assert dock.last_result is before


def test_export_hooks(dock, main_window, qtbot):
    _set(main_window, qtbot, encoding="rope_2d", second="sincos_2d", dim=64, selected=3)
    arrays = dock.export_arrays()
    assert set(arrays) == {"similarity_a", "tiles_a", "selected_map_a", "similarity_b", "tiles_b", "selected_map_b"}
    np.testing.assert_allclose(arrays["selected_map_a"], arrays["similarity_a"][3].reshape(14, 14))
    assert "Axial 2D RoPE" in dock.export_title() and "2D sin-cos" in dock.export_title()
    assert dock.export_widget() is dock.graphics


def test_draw_only_and_unrelated_changes_do_not_recompute(dock, main_window, qtbot):
    _set(main_window, qtbot, encoding="sincos_2d", second="none", dim=64, color_range="data")
    result = dock.last_result
    lo, hi = dock.colorbar.levels()
    assert lo == pytest.approx(float(result.a.sim.min()), abs=1e-5) and hi == pytest.approx(1.0, abs=1e-5)
    calls = []
    original = dock.ctx.worker.submit
    dock.ctx.worker.submit = lambda channel, request, **kw: calls.append(channel) or original(channel, request, **kw)
    try:
        _set(main_window, qtbot, color_range="full", selected=7)
        assert dock.colorbar.levels() == pytest.approx((-1.0, 1.0))
        main_window.document_model.try_set_params("sinusoidal", d_model=64)  # the heatmap's business
        wait_idle(qtbot, main_window)
    finally:
        dock.ctx.worker.submit = original
    assert DOCK_NAME not in calls
    assert dock.last_result is result
    np.testing.assert_allclose(_shown(dock.large_a.image), result.a.sim[7].reshape(14, 14))


def test_hover_readouts_on_map_and_image(dock, main_window, qtbot):
    _set(main_window, qtbot, image_height=224, image_width=224, encoding="sincos_2d", second="none", dim=64,
         selected=0)
    sim = dock.last_result.a.sim
    # the large map: cell (2, 3) against the selected patch (0, 0)
    text = dock.readout_at("map A", 3.5, 2.5)
    assert "patch (2,3) vs selected (0,0)" in text and f"{sim[0, 2 * 14 + 3]:+.4f}" in text
    # the image: pixel (x=100, y=40) lies in patch (2, 6)
    text = dock.readout_at("image", 100, 40)
    assert "image: patch (2,6)" in text and "pixels x 96–111, y 32–47" in text


def test_settings_round_trip_through_a_session_file(dock, main_window, qtbot, tmp_path):
    from peapp.document import Document

    _set(main_window, qtbot, image_height=192, image_width=256, patch_height=32, patch_width=32,
         encoding="rope_2d", second="resampled", resample_height=4, resample_width=5, selected=9)
    path = tmp_path / "session.json"
    main_window.document_model.document.save(path)
    _set(main_window, qtbot, encoding="sincos_2d", second="none", selected=0)
    main_window.document_model.replace_without_undo(Document.load(path))
    wait_idle(qtbot, main_window)
    result = dock.last_result
    assert result.a.encoding == "rope_2d" and result.a.grid == (6, 8) and result.b.grid == (4, 5)
    assert dock.selected_index() == 9
    assert dock.controls["encoding"].currentData() == "rope_2d"
    assert dock.controls["image_width"].value() == 256


def test_a_swin_bias_table_from_the_checkpoint_panel(dock, main_window, qtbot, tmp_path):
    import transformers as T

    from ui import checkpoint_actions

    config = T.SwinConfig(image_size=32, patch_size=2, embed_dim=8, depths=[1], num_heads=[3], window_size=4)
    model = T.SwinModel(config).eval()
    with torch.no_grad():
        table = model.encoder.layers[0].blocks[0].attention.relative_position_bias.relative_position_bias_table
        table.copy_(torch.randn(table.shape, generator=torch.Generator().manual_seed(5)))
        theirs = model.encoder.layers[0].blocks[0].attention.relative_position_bias()[0].numpy()
    model.save_pretrained(tmp_path / "swin")
    ckpt = main_window.docks["checkpointDock"]
    checkpoint_actions.open_path(main_window, str(tmp_path / "swin"))
    qtbot.waitUntil(lambda: not main_window.worker.is_busy() and ckpt.opening is None, timeout=20_000)
    row = next(i for i, c in enumerate(ckpt.report.components) if c.kind == "relative_bias_2d")
    ckpt.components.setCurrentRow(row)
    wait_idle(qtbot, main_window)
    _set(main_window, qtbot, bias_head=2)
    result = dock._result
    assert result.a.encoding == "relative_bias" and result.a.grid == (4, 4)
    np.testing.assert_allclose(result.a.sim, theirs[2], rtol=0, atol=1e-7)
    np.testing.assert_allclose(_shown(dock.tiles_a.image), vision.tile_mosaic(theirs[2], 4, 4, gap=0), atol=1e-7)
    np.testing.assert_allclose(_shown(dock.large_a.image), theirs[2, 2 * 4 + 2].reshape(4, 4), atol=1e-7)
    assert dock.colorbar.getAxis("left").labelText == "bias" and dock.controls["bias_head"].isEnabled()
    assert not dock.colorbar.axis.labelText  # one label, not two
    assert result.b is None  # no cosine panel on the same colour scale
    assert "not a similarity" in dock.caption.text()


@pytest.mark.parametrize("size", [(1500, 950), (1500, 560), (900, 950)])
def test_the_axes_span_the_picture_and_the_maps_not_the_cell(dock, main_window, qtbot, size):
    """An aspect-locked plot in a cell of another shape widened its other axis: a 224 px
    picture was labelled −150 … 350 px.  The plot now shrinks to the data's shape."""
    main_window.resize(*size)
    _set(main_window, qtbot, image_height=224, image_width=224, patch_height=16, patch_width=16)

    def spans(plot, width, height):
        (x0, x1), (y0, y1) = plot.view.viewRange()
        return -0.05 * width <= x0 and x1 <= 1.05 * width and -0.05 * height <= y0 and y1 <= 1.05 * height

    qtbot.waitUntil(lambda: dock._rgb is not None and spans(dock.photo, 224, 224)
                    and spans(dock.large_a, 14, 14) and spans(dock.large_b, 14, 14))


def test_the_layout_settles_at_every_width(dock, main_window, qtbot):
    """Resizing the panel through a range of widths, the plots' layout settles after each: a map
    title whose height followed its width (wrapped onto two lines) fed back into the aspect fit,
    and the event loop resized the view boxes forever at some widths (a make test hung there)."""
    from PySide6.QtWidgets import QApplication

    resized = []
    for grid_plot in (dock.tiles_a, dock.tiles_b, dock.large_a, dock.large_b, dock.photo):
        grid_plot.plot.getViewBox().sigResized.connect(lambda *_: resized.append(1))
    for width in range(700, 1700, 23):
        main_window.resize(width, 760)
        for _ in range(60):
            before = len(resized)
            QApplication.processEvents()
            if len(resized) == before:
                break
        else:
            raise AssertionError(f"the layout is still resizing its plots after 60 passes at width {width}")
