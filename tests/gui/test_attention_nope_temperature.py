"""The attention inspector's NoPE temperature curve (issue 37): with the NoPE scheme and the option
on, a dashed curve of the chosen head's entropy with Llama 4's scale of the query, equal to the
same entropy computed independently from the full logit matrix; the option round-trips through a
session, and is hidden for the other schemes."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from peapp.document import Document
from tests.conftest import wait_idle


def _entropy(logits: np.ndarray) -> np.ndarray:
    """Entropy of each row's softmax, NaN entries masked (numpy, float64)."""
    logits = np.where(np.isnan(logits), -np.inf, logits.astype(np.float64))
    w = np.exp(logits - logits.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return -(w * np.log(np.where(w > 0, w, 1.0))).sum(-1)


def test_the_view_spec_round_trips_the_option_and_its_parameters():
    doc = Document().with_view("attention", scheme="nope", nope_temperature=True, attn_scale=0.3, floor_scale=16.0)
    again = Document.from_json(doc.to_json())
    assert again == doc
    spec = again.view_spec("attention")
    assert (spec.nope_temperature, spec.attn_scale, spec.floor_scale) == (True, 0.3, 16.0)
    assert spec.temperature() == (0.3, 16.0)
    assert again.with_view("attention", scheme="rope").view_spec("attention").temperature() == ()


def test_the_dashed_curve_equals_an_independent_computation(main_window, qtbot):
    from peapp.analysis.attention.view import full_matrices

    dock = main_window.docks["attentionDock"]
    dock.show()
    dock.raise_()
    dock.set_settings(scheme="nope")
    dock.set_settings(seq_len=48, n_heads=4, head_dim=16, seed=2, floor_scale=6.0, attn_scale=0.5, head=1)
    wait_idle(qtbot, main_window)
    box = dock.controls["nope_temperature"]
    qtbot.waitUntil(box.isVisible)  # shown with the NoPE scheme
    assert not dock.controls["attn_scale"].isEnabled()
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())  # a real click on the check box
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document.view("attention", "nope_temperature") is True
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.temperature == (0.5, 6.0),
                    timeout=60_000)
    view = dock.last_result
    logits = full_matrices(view.spec)["logits"]  # [H, L, L], NaN where masked
    p = np.arange(48)
    scale = 1 + 0.5 * np.log1p(np.floor((p + 1) / 6.0))
    want = _entropy(logits * scale[None, :, None])
    np.testing.assert_allclose(view.temperature_entropy, want, atol=1e-5)
    shown = dock.shown_arrays()
    np.testing.assert_allclose(shown["temperature_entropy"], want[1], atol=1e-5)  # the chosen head, dashed
    np.testing.assert_allclose(shown["entropy"][1], _entropy(logits)[1], atol=1e-5)  # beside the plain one
    assert np.all(want[1, 5:] < _entropy(logits)[1, 5:])  # sharper wherever the scale is above 1
    assert [item.text for _, item in dock.entropy_legend.items] == ["head 1", "with temperature", "uniform"]
    caption = dock.caption.text()
    assert "dashed red = head 1's entropy with each query multiplied by 1 + 0.5·ln(1 + ⌊(p + 1)/6⌋)" in caption
    assert "From position 5 on it lowers the entropy at 43 of 43 query positions shown" in caption
    np.testing.assert_allclose(dock.export_arrays()["temperature_entropy"], want, atol=1e-5)


def test_other_schemes_hide_the_option_and_draw_no_dashed_curve(main_window, qtbot):
    dock = main_window.docks["attentionDock"]
    dock.show()
    dock.raise_()
    dock.set_settings(scheme="nope", nope_temperature=True)
    wait_idle(qtbot, main_window)
    qtbot.waitUntil(lambda: dock.last_result is not None and dock.last_result.temperature_entropy is not None,
                    timeout=60_000)
    assert dock.entropy_legend.isVisible()
    dock.set_settings(scheme="rope")
    wait_idle(qtbot, main_window)
    qtbot.waitUntil(lambda: dock.last_result.spec.scheme == "rope", timeout=60_000)
    assert dock.controls["nope_temperature"].isHidden()
    assert dock.last_result.temperature_entropy is None
    assert "temperature_entropy" not in dock.shown_arrays() and not dock.entropy_legend.isVisible()
    assert "NoPE temperature: for the NoPE scheme only" in dock.caption.text()


@pytest.mark.parametrize("bad, message", [({"floor_scale": 0.5}, "floor_scale must be at least 1; got 0.5"),
                                          ({"attn_scale": -1.0}, "attn_scale must be at least 0; got -1")])
def test_out_of_range_parameters_are_refused(bad, message):
    from peapp.errors import ParameterError

    with pytest.raises(ParameterError, match=message):
        Document().with_view("attention", **bad)
