"""The attention inspector dock: settings drive every view, hover, heads, shuffle, zoom, cancel."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from PySide6.QtCore import Qt

from peapp.analysis import attention as A
from peapp.analysis.attention import view as attention_view_module
from tests.conftest import wait_idle


@pytest.fixture
def dock(main_window, qtbot):
    d = main_window.docks["attentionDock"]
    d.raise_()
    d.set_settings(seq_len=48, n_heads=4, head_dim=16)
    wait_idle(qtbot, main_window)
    return d


def test_dock_is_registered_and_draws_the_default_setup(main_window, dock):
    assert dock.objectName() == "attentionDock"
    assert dock.toggleViewAction() in main_window.view_menu.actions()
    view = dock.last_result
    assert isinstance(view, A.AttentionView) and view.values.shape == (4, 48, 48)
    np.testing.assert_allclose(dock.image.image, view.values[0])
    assert len(dock.small) == 4
    # softmax colours run from 0 to the largest weight, or 0–1; rows at full resolution sum to 1
    assert dock.colorbar.levels() == pytest.approx((0.0, float(view.values.max())))
    np.testing.assert_allclose(view.values[0].sum(-1), 1.0, atol=1e-5)
    dock.controls["unit_scale"].setChecked(True)
    assert dock.colorbar.levels() == pytest.approx((0.0, 1.0))
    assert "from 0 to 1" in dock.caption.text()
    assert "RoPE" in dock.caption.text() and "full resolution" in dock.caption.text()


def test_switching_scheme_heads_and_length_updates_every_view(main_window, dock, qtbot):
    dock.controls["scheme"].setCurrentIndex(dock.controls["scheme"].findData("alibi"))
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document.view("attention", "scheme") == "alibi"
    assert dock.last_result.spec.scheme == "alibi" and "ALiBi" in dock.caption.text()
    assert dock.scheme_plot.isVisible() and "slope" in dock.scheme_plot.titleLabel.text
    shown = dock.shown_arrays()
    # heads and length are the ALiBi family's parameters (8 heads, 50 positions by default): one value each
    assert shown["profile"].shape[0] == 8 and shown["entropy"].shape[0] == 8
    assert dock.last_result.values.shape == (8, 50, 50)
    np.testing.assert_allclose(shown["profile"], dock.last_result.profile)

    dock.controls["n_heads"].setValue(6)
    wait_idle(qtbot, main_window)
    assert dock.last_result.values.shape[0] == 6 and len(dock.small) == 6
    assert main_window.document_model.document.spec("alibi").n_heads == 6
    dock.controls["n_heads"].setValue(8)
    wait_idle(qtbot, main_window)
    assert dock.last_result.values.shape[0] == 8 and len(dock.small) == 8
    shown = dock.shown_arrays()
    np.testing.assert_allclose(shown["alibi_log2_slopes"], np.log2(A.AttentionModel(dock.spec()).slopes.numpy()))
    assert shown["profile"].shape[0] == 8

    dock.controls["seq_len"].setValue(100)
    wait_idle(qtbot, main_window)
    assert dock.image.image.shape == (100, 100)
    shown = dock.shown_arrays()
    assert shown["profile_distances"].max() == 99  # causal: distances 0 … 99
    assert len(shown["entropy_positions"]) == 100
    np.testing.assert_allclose(shown["entropy"], dock.last_result.entropy)

    dock.controls["scheme"].setCurrentIndex(dock.controls["scheme"].findData("t5"))
    wait_idle(qtbot, main_window)
    assert "T5" in dock.scheme_plot.titleLabel.text
    dock.controls["scheme"].setCurrentIndex(dock.controls["scheme"].findData("rope"))
    wait_idle(qtbot, main_window)
    assert not dock.scheme_plot.isVisible()

    before = dock.image.image.copy()
    dock.controls["kind"].setCurrentIndex(dock.controls["kind"].findData("position"))
    wait_idle(qtbot, main_window)
    assert dock.last_result.kind == "position" and not np.allclose(dock.image.image, before, equal_nan=True)
    assert np.isnan(dock.image.image[0, 1])  # a masked (future) key has no position term
    main_window.document_model.undo_stack.undo()
    wait_idle(qtbot, main_window)
    assert dock.last_result.kind == "softmax"
    assert dock.controls["kind"].currentData() == "softmax"


def test_hover_reads_query_key_distance_and_value(dock, qtbot):
    text = dock.readout_at(3.5, 10.5)  # key 3, query 10
    value = dock.last_result.values[0, 10, 3]
    assert "query 10, key 3" in text and "distance 7" in text and f"{value:.4g}" in text


def test_clicking_a_small_matrix_enlarges_that_head(main_window, dock, qtbot):
    box = dock.small[2][0]
    centre = box.sceneBoundingRect().center()
    pos = dock.graphics.mapFromScene(centre)
    qtbot.mouseClick(dock.graphics.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: dock.settings()["head"] == 2, timeout=3000)
    np.testing.assert_allclose(dock.image.image, dock.last_result.values[2])
    assert "head 2" in dock.plot.titleLabel.text
    assert dock.controls["head"].value() == 2


def test_shuffle_reports_equivariance_and_the_causal_leak(main_window, dock, qtbot):
    dock.set_settings(scheme="nope", causal=False, seq_len=48)  # the length is NoPE's own parameter
    wait_idle(qtbot, main_window)
    qtbot.mouseClick(dock.shuffle_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, main_window)
    assert dock.shuffle_result is not None and dock.shuffle_result.equivariant
    assert "Equivariant" in dock.shuffle_label.text()
    assert dock.shuffle_result.max_abs < 1e-6

    dock.set_settings(causal=True)
    wait_idle(qtbot, main_window)
    assert dock.shuffle_result is None  # the old answer was for other inputs
    dock.run_shuffle()
    wait_idle(qtbot, main_window)
    assert "causal mask alone leaks order" in dock.shuffle_label.text()
    x, y = dock.shuffle_curve.getData()
    assert len(x) == 48 and np.nanmax(y) > 1e-3
    assert "shuffle_change" in dock.export_arrays()


def test_invalid_settings_keep_the_last_picture(main_window, dock, qtbot):
    before = dock.image.image.copy()
    dock.controls["head_dim"].setValue(15)  # odd: rejected before it reaches the Document
    qtbot.waitUntil(lambda: "even" in dock.message.text(), timeout=3000)
    assert dock.settings()["head_dim"] == 16 and dock.controls["head_dim"].value() == 16
    assert main_window.document_model.try_set_params("learned", n_positions=20, max_positions=32)
    dock.set_settings(scheme="learned")
    wait_idle(qtbot, main_window)
    assert dock.last_result.spec.seq_len == 20  # the learned family's length: one value
    before = dock.image.image.copy()
    dock.controls["seq_len"].setValue(48)  # 48 tokens but a 32-row table: the family's own refusal
    qtbot.waitUntil(lambda: "does not exist" in dock.message.text(), timeout=3000)
    assert main_window.document_model.document.spec("learned").n_positions == 20
    assert dock.controls["seq_len"].value() == 20
    wait_idle(qtbot, main_window)
    np.testing.assert_array_equal(dock.image.image, before)
    # a family value the inspector cannot show is said, and the picture stays
    dock.set_settings(scheme="rope")
    wait_idle(qtbot, main_window)
    before = dock.image.image.copy()
    assert main_window.document_model.try_set_params("rope", n_positions=500_000)
    wait_idle(qtbot, main_window)
    assert "parameters hold a value this panel cannot show: Positions = 500000" in dock.message.text()
    np.testing.assert_array_equal(dock.image.image, before)


def test_long_sequence_is_pooled_and_zoom_is_full_resolution(main_window, dock, qtbot):
    dock.set_settings(seq_len=3000, n_heads=2, head_dim=8, scheme="alibi")
    wait_idle(qtbot, main_window, timeout_ms=60_000)
    view = dock.last_result
    assert not view.full_resolution and view.values.shape[1] < 3000
    assert "zoom in for full resolution" in dock.caption.text()
    dock.zoom_to((1000, 1064), (950, 1064))
    wait_idle(qtbot, main_window, timeout_ms=60_000)
    assert dock.zoom_view is not None and dock.zoom_view.full_resolution
    assert dock.zoom_view.values.shape == (2, 64, 114)
    text = dock.readout_at(1000.5, 1010.5)
    assert "query 1,010, key 1,000" in text and "distance 10" in text
    dock.reset_zoom()
    assert dock.zoom_view is None


def test_a_new_result_is_not_computed_again_unless_zoomed(main_window, dock, qtbot, monkeypatch):
    """The whole matrix, pooled to about the plot's size, is not refined a second time; a zoomed
    view is (its region at full resolution)."""
    from peapp.views import Viewport

    monkeypatch.setattr(dock, "viewport", lambda: Viewport(900, 900))  # a plot wider than the 512-bin overview
    dock.set_settings(seq_len=3000, n_heads=2, head_dim=8, scheme="alibi")
    wait_idle(qtbot, main_window, timeout_ms=60_000)
    channels: list[str] = []
    submit = main_window.worker.submit
    monkeypatch.setattr(main_window.worker, "submit", lambda channel, request, **kw: channels.append(channel) or
                        submit(channel, request, **kw))
    dock.set_settings(seed=7)
    wait_idle(qtbot, main_window, timeout_ms=60_000)
    assert channels == ["attentionDock"] and dock.last_result.spec.seed == 7
    dock.zoom_to((1000, 1064), (950, 1064))
    dock.set_settings(seed=8)
    wait_idle(qtbot, main_window, timeout_ms=60_000)
    assert channels[-1] == "attentionDock:zoom" and dock.zoom_view.spec.seed == 8 and dock.zoom_view.full_resolution


def test_cancelling_a_65536_token_computation_stops_promptly(main_window, dock, qtbot, monkeypatch):
    """Cancel stops the running computation part-way (it raises Cancelled at its next progress
    point instead of finishing), rather than letting it run out and dropping the result."""
    from peapp.jobs import Cancelled

    outcomes: list[str] = []
    fractions: list[float] = []
    compute = A.attention_view

    def recorded(*args, **kwargs):
        bound = inspect.signature(compute).bind(*args, **kwargs)
        progress = bound.arguments.get("progress")

        def watched(fraction):
            fractions.append(fraction)
            if progress is not None:
                progress(fraction)

        bound.arguments["progress"] = watched
        try:
            view = compute(*bound.args, **bound.kwargs)
        except Cancelled:
            outcomes.append("cancelled")
            raise
        outcomes.append("finished")
        return view

    monkeypatch.setattr(attention_view_module, "attention_view", recorded)
    before = dock.image.image.copy()
    dock.set_settings(seq_len=65_536, n_heads=8, head_dim=64)
    qtbot.waitUntil(lambda: dock.progress.isVisible() and dock.progress.value() > 20, timeout=60_000)
    assert dock.cancel_button.isVisible()
    qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    at_cancel = max(fractions)
    qtbot.waitUntil(lambda: not main_window.worker.is_busy(), timeout=30_000)
    assert outcomes == ["cancelled"], outcomes
    assert max(fractions) < min(1.0, at_cancel + 0.25)  # it stopped soon after, far from the end
    assert not dock.progress.isVisible() and not dock.cancel_button.isVisible()
    np.testing.assert_array_equal(dock.image.image, before)  # the previous picture stays
    assert dock.last_result.spec.seq_len == 48


def test_esc_in_the_window_ends_the_panels_own_progress_and_cancel(main_window, dock, qtbot):
    """Esc (the window's Cancel) stops this panel's work too: its own progress bar and Cancel
    button go with it, as after its own Cancel (they stayed, for work that no longer ran)."""
    from tests.gui.test_cancelled_is_stale import _Slow

    dock.submit_side("shuffle", _Slow())  # a test that runs until cancelled
    qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=10_000)
    assert dock.progress.isVisible() and dock.cancel_button.isVisible() and dock.busy
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not main_window.worker.is_busy(), timeout=10_000)
    assert not dock.progress.isVisible() and not dock.cancel_button.isVisible() and not dock.busy


def test_sentence_tokens_show_words_and_settings_round_trip_through_a_session(main_window, dock, qtbot):
    from peapp.document import Document

    dock.controls["tokens"].setCurrentIndex(dock.controls["tokens"].findData("sentence"))
    dock.controls["sentence"].setText("Attention is all you need")
    dock.controls["sentence"].editingFinished.emit()
    wait_idle(qtbot, main_window)
    assert dock.last_result.words == ("attention", "is", "all", "you", "need")
    assert "query 7, key 1 ('all' → 'is')" in dock.readout_at(1.5, 7.5)  # words repeat: 7 mod 5 = 2
    restored = Document.from_json(main_window.document_model.document.to_json())
    assert restored.views["attention"]["sentence"] == "Attention is all you need"
    assert restored.views["attention"]["tokens"] == "sentence"


def test_log_colours_show_small_weights_and_keep_the_read_out(main_window, dock, qtbot):
    dock.set_settings(seq_len=120, n_heads=2, head_dim=16, scheme="alibi")
    wait_idle(qtbot, main_window)
    weights = dock.last_result.values[0]
    dock.controls["log_scale"].setChecked(True)
    wait_idle(qtbot, main_window)
    top = np.log10(dock.last_result.values.max())
    np.testing.assert_allclose(dock.image.image, np.log10(np.maximum(weights, 1e-30)), rtol=1e-6)
    assert dock.colorbar.levels() == pytest.approx((top - 6, top))
    assert dock.colorbar.axis.label.toPlainText().startswith("log₁₀ attention weight")
    assert "log₁₀" in dock.caption.text()
    small = dock.small[1][1].image
    np.testing.assert_allclose(small, np.log10(np.maximum(dock.last_result.values[1], 1e-30)), rtol=1e-6)
    dock.controls["unit_scale"].setChecked(True)  # log of 0–1: the top is 10⁰
    wait_idle(qtbot, main_window)
    assert dock.colorbar.levels() == pytest.approx((-6.0, 0.0))
    # the read-out gives the weight itself, not its log
    view = dock.last_result
    assert view.full_resolution
    assert dock.readout_at(40.5, 100.5).endswith(f"attention weight {view.values[0, 100, 40]:.4g}")
    assert 0 < view.values[0, 100, 40] < 1
    dock.controls["kind"].setCurrentIndex(dock.controls["kind"].findData("logits"))  # log applies to weights only
    wait_idle(qtbot, main_window)
    assert not dock.controls["log_scale"].isEnabled()
    np.testing.assert_allclose(dock.image.image, dock.last_result.values[0])


def test_preferences_device_is_where_the_inspector_computes(main_window, dock, qtbot, monkeypatch):
    """Preferences > Device is honoured: a device torch does not have here is refused with a
    message naming the usable ones, the previous picture stays, and the CPU computes again."""
    import torch

    from ui import settings as prefs_mod

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # a machine without CUDA, on any machine
    before = dock.last_result
    prefs_mod.apply_preferences(prefs_mod.Preferences(compute_device="cuda:0"), main_window)
    wait_idle(qtbot, main_window)
    assert "not available" in dock.message.text() and "cpu" in dock.message.text()
    assert dock.last_result is before  # the previous picture stays
    prefs_mod.apply_preferences(prefs_mod.Preferences(compute_device="cpu"), main_window)
    wait_idle(qtbot, main_window)
    assert dock.message.text() == ""
    assert dock.last_result is not before and dock.last_result.values.shape == (4, 48, 48)
