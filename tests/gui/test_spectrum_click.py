"""A mouse click on a pair in the RoPE spectrum selects it in Rotations and brings that panel
to the front (it stayed behind its tab)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from tests.conftest import wait_idle


def test_a_click_on_a_pair_brings_the_rotation_panel_forward(main_window, qtbot):
    spectrum, rotation = main_window.docks["spectrumDock"], main_window.docks["rotationDock"]
    main_window.show_panel("spectrumDock")
    wait_idle(qtbot, main_window)
    qtbot.waitUntil(lambda: spectrum.last_result is not None, timeout=5000)
    assert rotation.visibleRegion().isEmpty()  # behind the spectrum's tab
    box = spectrum.wave_plot.getViewBox()
    qtbot.waitUntil(lambda: box.viewRange()[0][1] > 50, timeout=5000)  # drawn: the pairs' range
    (x0, x1), (y0, y1) = box.viewRange()
    pos = spectrum.graphics.mapFromScene(box.mapViewToScene(QPointF(40, (y0 + y1) / 2)))
    viewport = spectrum.graphics.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: main_window.document_model.document.view("rotation", "pair") == 40, timeout=3000)
    qtbot.waitUntil(lambda: not rotation.visibleRegion().isEmpty(), timeout=3000)
    assert spectrum.visibleRegion().isEmpty()
    wait_idle(qtbot, main_window)
    assert rotation.pair_spin.value() == 40


def test_the_spectrum_legends_sit_above_the_data(main_window, qtbot):
    """The legends were anchored inside the plots, over the context line and the decay curves."""
    import pyqtgraph as pg

    spectrum = main_window.docks["spectrumDock"]
    main_window.show_panel("spectrumDock")
    wait_idle(qtbot, main_window)
    legends = [i for i in spectrum.graphics.scene().items() if isinstance(i, pg.LegendItem)]
    boxes = [p.getViewBox().sceneBoundingRect() for p in (spectrum.wave_plot, spectrum.ratio_plot, spectrum.decay_plot)]
    assert len(legends) == 3
    for legend in legends:
        assert legend.isVisible() and legend.sceneBoundingRect().height() > 5
        assert not any(legend.sceneBoundingRect().intersects(box) for box in boxes), legend.sceneBoundingRect()
