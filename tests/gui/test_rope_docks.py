"""The RoPE rotation and spectrum docks, in the real main window."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QTimer

from peapp.analysis import rotation
from peapp.encodings.rope import RopeSpec
from tests.conftest import wait_idle

LLAMA31 = dict(hidden_size=4096, num_attention_heads=32, max_position_embeddings=131072, rope_theta=500000.0,
               rope_scaling=dict(factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                                 original_max_position_embeddings=8192, rope_type="llama3"))


def _centre(plot):
    return plot.sceneBoundingRect().center()


class _Click:
    """Stands in for pyqtgraph's MouseClickEvent: what the docks read from a click."""

    def __init__(self, pos):
        self._pos = pos

    def scenePos(self):  # pyqtgraph's name
        return self._pos

    def double(self):
        return False


@pytest.mark.all_docks
def test_docks_registered_and_drawn(main_window):
    rot, spec = main_window.docks["rotationDock"], main_window.docks["spectrumDock"]
    assert rot.objectName() == "rotationDock" and spec.objectName() == "spectrumDock"
    assert rot.last_result is not None and spec.last_result is not None
    assert "fastest to slowest" in rot.caption.text()
    assert "Unscaled RoPE: 64 pairs" in spec.caption.text()
    assert set(spec.export_arrays()) >= {"wavelength_before", "wavelength_after", "decay_with_scaling"}
    assert rot.export_arrays()["x_rotated"].shape == (64, 2)


@pytest.mark.all_docks
def test_rotation_animation_never_piles_up(main_window, qtbot, monkeypatch):
    dock = main_window.docks["rotationDock"]
    dock.raise_()
    submitted = []
    original_submit = main_window.worker.submit
    monkeypatch.setattr(main_window.worker, "submit", lambda *a, **kw: (submitted.append(a), original_submit(*a, **kw))[1])
    frames = 5000 // dock.frame_interval_ms  # 5 s worth at the normal 25 frames/s …
    dock.frame_interval_ms = 1  # … played fast
    dock.speed_combo.setCurrentIndex(dock.speed_combo.findData(4))
    undo_steps = main_window.document_model.undo_stack.count()
    start = dock.position
    dock.play()
    assert dock.has_pending_frame()
    qtbot.waitUntil(lambda: dock.frames_drawn >= frames, timeout=30_000)
    dock.pause()
    drawn, position = dock.frames_drawn, dock.position
    # stopped: no tick pending, no timer of this dock running, nothing drawn afterwards
    assert not dock.has_pending_frame()
    assert not [t for t in dock.findChildren(QTimer) if t.isActive() and t.parent() is dock]
    qtbot.wait(150)
    assert (dock.frames_drawn, dock.position) == (drawn, position)
    # every tick drew exactly one frame of 4 positions: nothing skipped, nothing queued
    assert position == (start + 4 * drawn) % (dock.position_slider.maximum() + 1)
    assert dock.position_slider.value() == position
    # the animation asked the worker for nothing and wrote the Document once (on pause)
    assert [a for a in submitted if a[0].startswith("rotationDock")] == []
    assert main_window.document_model.undo_stack.count() - undo_steps == 1
    assert main_window.document_model.document.view("rotation", "position") == position
    assert not main_window.worker.is_busy()


@pytest.mark.all_docks
def test_rotation_numbers_and_hover(main_window, qtbot):
    dock = main_window.docks["rotationDock"]
    dock.raise_()
    main_window.document_model.set_view("rotation", pair=3, m=9, n=4)
    dock.set_position(100)
    text = dock.relative_label.text()
    facts = dock.last_result
    angle = rotation.wrapped_degrees(5 * facts.inv_freq[3])
    rel = rotation.relative(facts.q, facts.k, facts.inv_freq, 9, 4, 100, 3)
    # q·k at (m, n) and at (m + 100, n + 100) agree: the relative property, shown in numbers
    assert f"{angle:+.1f}° between k and q" in text
    assert f"({9}, {4}) = {rel.dot:+.5f}" in text and f"(9+100, 4+100) = {rel.dot_shifted:+.5f}" in text
    assert f"{rel.dot:+.5f}" == f"{rel.dot_shifted:+.5f}"
    assert "(unchanged)" in dock.additive_label.text()
    cell = dock.multiples[0]
    dock.graphics.scene().sigMouseMoved.emit(_centre(cell["plot"]))
    assert dock.readout.text().startswith(f"pair {cell['pair']}: θ")
    dock.graphics.scene().sigMouseMoved.emit(_centre(dock.add_plot))
    assert "|x + PE|" in dock.readout.text()


@pytest.mark.all_docks
def test_changing_the_scaling_type_updates_the_spectrum(main_window, qtbot):
    dock = main_window.docks["spectrumDock"]
    dock.raise_()
    before = dock.after_curve.getData()[1].copy()
    dock.type_combo.setCurrentText("yarn")
    wait_idle(qtbot, main_window)
    facts = dock.last_result
    assert facts.spec.rope_type == "yarn" and dock.ramp.isVisible() and not dock.band.isVisible()
    assert "attention factor" in dock.wave_plot.titleLabel.text
    assert not np.allclose(dock.after_curve.getData()[1], before)
    # the parameters dock edits the same spec: the spectrum follows it too
    main_window.document_model.try_set_family("rope")
    form = main_window.docks["parametersDock"].forms["rope"]
    form.widgets["rope_type"].setCurrentText("llama3")
    wait_idle(qtbot, main_window)
    assert dock.type_combo.currentText() == "llama3"
    assert dock.band.isVisible() and not dock.ramp.isVisible()
    assert dock.last_result.counts()["divide"] > 0
    dock.graphics.scene().sigMouseMoved.emit(_centre(dock.wave_plot))
    assert dock.readout.text().startswith("pair ")
    dock.graphics.scene().sigMouseMoved.emit(_centre(dock.decay_plot))
    assert dock.readout.text().startswith("distance ")


def test_loading_a_config_fills_the_spec_and_a_bad_one_keeps_it(main_window, qtbot, tmp_path):
    dock = main_window.docks["spectrumDock"]
    good = tmp_path / "config.json"
    good.write_text(json.dumps(LLAMA31))
    dock.load_config(str(good))  # read off the GUI thread
    wait_idle(qtbot, main_window)
    document = main_window.document_model.document
    assert document.family == "rope" and document.spec("rope") == RopeSpec.from_hf_config(LLAMA31)
    assert dock.last_result.counts() == {"keep": 29, "blend": 6, "divide": 29}
    assert "factor 8 disagrees" in dock.caption.text()
    assert "Llama-3 blend band" in dock.shade_label.textItem.toPlainText()
    steps = main_window.document_model.undo_stack.count()

    for text, expected in (("{ not json", "not valid JSON"),
                           (json.dumps({**LLAMA31, "rope_scaling": {"rope_type": "wobbly", "factor": 2}}), "wobbly"),
                           (json.dumps({**LLAMA31, "rope_scaling": {"rope_type": "llama3", "factor": 8}}),
                            "low_freq_factor")):
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        dock.load_config(str(bad))
        wait_idle(qtbot, main_window)
        assert dock.error_label.isVisible() and expected in dock.error_label.text()
        assert expected in main_window.statusBar().currentMessage()
        assert main_window.document_model.document == document  # previous state kept
        assert main_window.document_model.undo_stack.count() == steps
        assert dock.last_result.spec == document.spec("rope")
    main_window.document_model.undo_stack.undo()  # one undo step brings the old spec back
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document.spec("rope").rope_type == "default"
    assert dock.last_result.spec.rope_type == "default"


@pytest.mark.all_docks
def test_every_scaling_draws(main_window, qtbot):
    dock, rot = main_window.docks["spectrumDock"], main_window.docks["rotationDock"]
    for kind in ("linear", "ntk", "dynamic", "longrope"):
        dock.type_combo.setCurrentText(kind)
        wait_idle(qtbot, main_window)
        assert dock.last_result.spec.rope_type == kind and rot.last_result.spec.rope_type == kind
        assert kind in rot.caption.text() and kind in dock.caption.text()
        xs = dock.long_curve.getData()[0]
        assert (0 if xs is None else len(xs)) == (64 if kind == "longrope" else 0)


@pytest.mark.all_docks
def test_clicking_a_pair_shows_it_in_the_rotation_view(main_window, qtbot):
    spectrum, rot = main_window.docks["spectrumDock"], main_window.docks["rotationDock"]
    spectrum.raise_()
    qtbot.wait(20)  # laid out
    view = spectrum.wave_plot.getViewBox()
    scene_point = view.mapViewToScene(QPointF(40, view.viewRange()[1][0] * 0.5 + view.viewRange()[1][1] * 0.5))
    spectrum.graphics.scene().sigMouseClicked.emit(_Click(scene_point))
    assert main_window.document_model.document.view("rotation", "pair") == 40
    assert rot.pair_spin.value() == 40
    rot.raise_()
    qtbot.wait(10)
    last = rot.multiples[-1]
    rot.graphics.scene().sigMouseClicked.emit(_Click(_centre(last["plot"])))
    assert rot.pair_spin.value() == last["pair"] == 63
    assert rot.rel_plot.titleLabel.text.startswith("Relative, pair 63")
