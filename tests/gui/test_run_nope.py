"""Run on text's NoPE temperature tab (issue 37), chosen with a real click after a run: a tiny Llama 4
(save_pretrained into tmp_path) has its NoPE layer's entropies drawn from what the run kept, equal
to ``peapp temperature``'s second forward pass; a model without NoPE layers says so."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.conftest import wait_idle
from tests.core.model_run.families import build

TEXT = " ".join(f"w{(7 * i) % 60 + 1}" for i in range(40))


@pytest.fixture(scope="module")
def tiny_llama4(tmp_path_factory):
    return build("llama4_text", str(tmp_path_factory.mktemp("llama4")), seed=0)


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory):
    return build("llama", str(tmp_path_factory.mktemp("llama")), seed=0)


def _run(qtbot, window, path):
    model = window.document_model
    model.set_document(model.document.with_checkpoint(str(path)))
    dock = window.docks["runDock"]
    dock.show()
    dock.raise_()
    dock.type_text(TEXT)
    dock.run_text()
    wait_idle(qtbot, window, 120_000)
    assert dock.result is not None and not dock.message.text()
    return dock


def _click_tab(qtbot, window, dock, mode):
    bar = dock.tabs.tabBar()
    index = list(dock.figures).index(mode)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    wait_idle(qtbot, window, 60_000)
    assert window.document_model.document.view("run", "mode") == mode


def test_the_nope_tab_draws_the_kept_entropies_of_a_llama4(main_window, qtbot, tiny_llama4):
    from peapp.model_run.temperature import nope_entropy

    dock = _run(qtbot, main_window, tiny_llama4)
    assert bar_text(dock, "run-nope") == "NoPE temperature"
    _click_tab(qtbot, main_window, dock, "run-nope")
    qtbot.waitUntil(lambda: "nope_with_scale" in dock.shown_arrays(), timeout=60_000)  # the panel's worker
    shown = dock.shown_arrays()
    reference = nope_entropy(tiny_llama4, dock.result.run.token_ids, layer=1)
    np.testing.assert_allclose(shown["nope_with_scale"], reference.with_scale, atol=1e-5)
    np.testing.assert_allclose(shown["nope_without_scale"], reference.without_scale, atol=1e-5)
    caption = dock.caption.text()
    # Layer is 0, a rotated layer: the figure draws the NoPE layer and says why
    assert "Layer 0 has a position encoding of its own; showing NoPE layer 1 (NoPE layers: 1)." in caption
    assert "no second forward pass" in caption
    assert "attn_scale 0.5, floor_scale 4 (from its config)" in caption
    assert "from position 3 on (floor_scale − 1)" in caption
    assert [item.text for _, item in dock.view.nope_legend.items] == ["without the scale", "with the scale",
                                                                      "uniform: ln(p + 1)"]
    # the hover read-out at query 10, and the exported arrays
    text = dock.view.readout_at(10, float(reference.with_scale[10]), dock.view.nope_plot)
    assert text.startswith("layer 1, query 10") and f"{reference.without_scale[10]:.4f}" in text
    arrays = dock.export_arrays()
    np.testing.assert_allclose(arrays["entropy_with_scale"], reference.with_scale, atol=1e-5)
    assert "NoPE layer 1" in dock.export_title()
    # Layer 1 typed: the same layer, no run and no new computation
    spin = dock.controls["layer"]
    spin.setFocus()
    QTest.keyClick(spin, Qt.Key.Key_Up)
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document.view("run", "layer") == 1
    assert "NoPE layers: 1." in dock.caption.text() and "showing NoPE layer" not in dock.caption.text()
    np.testing.assert_allclose(dock.shown_arrays()["nope_with_scale"], reference.with_scale, atol=1e-5)


def test_a_model_without_nope_layers_says_so(main_window, qtbot, tiny_llama):
    dock = _run(qtbot, main_window, tiny_llama)
    _click_tab(qtbot, main_window, dock, "run-nope")
    assert "NoPE layers: none here" in dock.caption.text()
    assert "0 rope, 1 rope" in dock.caption.text()
    assert "No NoPE layer in this model" in dock.view.nope_plot.titleLabel.text
    assert "nope_with_scale" not in dock.shown_arrays() and dock.export_arrays() == {}


def bar_text(dock, mode):
    return dock.tabs.tabText(list(dock.figures).index(mode))
