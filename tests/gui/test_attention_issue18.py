"""Issue 18, attention inspector: tokens on the axes, masked cells, one value per shared parameter,
a layout that fits 1366 × 768 with the Checkpoint panel open; issue 17: the inspector follows the
model opened last."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QWidget
from safetensors.torch import save_file

from peapp.views import Viewport
from peapp.views.attention import attention_request, attention_settings
from tests.conftest import wait_idle
from tests.gui.test_checkpoint_dock import _open
from tests import samples


@pytest.fixture
def dock(main_window, qtbot):
    d = main_window.docks["attentionDock"]
    d.raise_()
    wait_idle(qtbot, main_window)
    return d


def _ticks(axis, plot):
    """(values, labels) the axis draws for the plot's current range and size."""
    box = plot.getViewBox()
    (x0, x1), (y0, y1) = box.viewRange()
    vertical = axis.orientation == "left"
    low, high = (y1, y0) if vertical else (x0, x1)  # the query axis is inverted: pyqtgraph passes it reversed
    size = box.height() if vertical else box.width()
    levels = axis.tickValues(low, high, size)
    values = [v for _, level in levels for v in level]
    return values, axis.tickStrings(values, 1.0, levels[0][0])


def test_tokens_label_both_axes_at_cell_centres_and_thin_out(main_window, dock, qtbot):
    dock.set_settings(scheme="alibi", tokens="sentence", sentence="the cat sat on the mat", seq_len=12,
                      n_heads=2)
    wait_idle(qtbot, main_window)
    words = ["the", "cat", "sat", "on", "the", "mat"] * 2
    for name in ("bottom", "left"):
        values, labels = _ticks(dock.token_axes[name], dock.plot)
        assert values and all(v % 1 == 0.5 for v in values), values  # centred on cells [p, p + 1)
        step = int(round(values[1] - values[0])) if len(values) > 1 else 1
        for value, label in zip(values, labels):
            word = words[int(value)]
            assert label == word if step == 1 else label == f"{int(value):,} {word}"
    assert dock.plot.getAxis("bottom").labelText == "key token"

    dock.set_settings(seq_len=2000)  # far more tokens than fit: every 50th or so, with its position
    wait_idle(qtbot, main_window, timeout_ms=60_000)
    values, labels = _ticks(dock.token_axes["bottom"], dock.plot)
    spacing = np.diff(values)
    assert 3 <= len(values) <= 30 and np.all(spacing == spacing[0]) and spacing[0] >= 50
    first = int(values[1])
    assert labels[1] == f"{first:,} {words[first % 6]}"


def test_masked_cells_are_grey_not_a_weight_of_zero_and_hover_says_masked(main_window, dock, qtbot):
    dock.set_settings(scheme="alibi", seq_len=40, n_heads=8, causal=True)
    wait_idle(qtbot, main_window)
    view = dock.last_result
    head = view.values[0]
    assert head[2, 30] == 0.0  # a future key: the softmax stores 0 there …
    mask = np.asarray(dock.mask_image.image)
    assert dock.mask_image.isVisible() and mask.shape == (40, 40, 4)
    assert tuple(mask[2, 30]) == (128, 128, 128, 255) and mask[30, 2, 3] == 0  # … drawn grey, the past clear
    assert "masked" in dock.readout_at(30.5, 2.5) and "masked" not in dock.readout_at(2.5, 30.5)
    assert "Grey: masked" in dock.caption.text()
    dock.set_settings(causal=False)  # no mask: nothing grey
    wait_idle(qtbot, main_window)
    assert not dock.mask_image.isVisible() and "masked" not in dock.readout_at(30.5, 2.5)


def _parameters_widget(window, name):
    shown = [w for w in window.findChildren(QWidget, f"param_{name}") if w.isVisible()]
    assert len(shown) == 1, shown
    return shown[0]


def test_a_parameter_shared_with_the_parameters_panel_has_one_value(main_window, dock, qtbot):
    model = main_window.document_model
    assert model.try_set_family("alibi")
    dock.set_settings(scheme="alibi")
    wait_idle(qtbot, main_window)
    # the case: both on ALiBi, the inspector said 64 tokens and 4 heads, the Parameters panel 50 and 8
    assert _parameters_widget(main_window, "n_positions").value() == dock.controls["seq_len"].value() == 50
    assert _parameters_widget(main_window, "n_heads").value() == dock.controls["n_heads"].value() == 8
    assert dock.last_result.values.shape == (8, 50, 50)
    assert "Shared with the Parameters panel's ALiBi" in dock.link_label.text()

    dock.controls["n_heads"].setValue(6)  # edited here: the family's value changes
    wait_idle(qtbot, main_window)
    assert model.document.spec("alibi").n_heads == 6 and _parameters_widget(main_window, "n_heads").value() == 6
    assert model.try_set_params("alibi", n_positions=30)  # edited there: the inspector follows
    wait_idle(qtbot, main_window)
    assert dock.controls["seq_len"].value() == 30 and dock.last_result.values.shape == (6, 30, 30)
    model.undo_stack.undo()
    wait_idle(qtbot, main_window)
    assert dock.controls["seq_len"].value() == 50

    # its own scheme, different from the panel's family: said, and the shared ones still linked
    dock.set_settings(scheme="rope")
    wait_idle(qtbot, main_window)
    assert "this panel's own scheme" in dock.link_label.text() and "RoPE" in dock.link_label.text()
    assert dock.controls["head_dim"].value() == model.document.spec("rope").head_dim
    assert "Shared with the RoPE (rotary) parameters (head_dim)" in dock.controls["head_dim"].toolTip()
    assert "Shared" not in dock.controls["n_heads"].toolTip()  # RoPE has no heads of its own


def test_the_request_is_built_in_the_core_from_a_viewport(main_window, dock):
    document = main_window.document_model.document
    request = dock.make_request(document)
    assert request == attention_request(document, dock.viewport(), request.device)
    assert attention_request(document, Viewport(300, 200)).max_bins == 300
    assert attention_request(document, Viewport()).max_bins == 128  # unknown size: the smallest overview
    assert attention_request(document, Viewport(4000, 4000)).max_bins == 512


def _lay_out(qtbot, window, width, height):
    window.setGeometry(0, 0, width, height)
    qtbot.waitUntil(lambda: window.width() == width, timeout=3000)
    qtbot.wait(50)


@pytest.mark.parametrize("width", [1366, 1440])
def test_every_plot_of_the_strip_shows_whole_and_the_matrix_keeps_its_size(main_window, dock, qtbot, width):
    from ui.docks.attention import MATRIX_MIN_HEIGHT, STRIP_PLOT_HEIGHT, STRIP_PLOT_WIDTH

    main_window.docks["checkpointDock"].show()  # the Checkpoint panel open too
    dock.set_settings(scheme="alibi")  # five plots: profile, entropy, received, slopes, shuffle
    _lay_out(qtbot, main_window, width, 768)
    wait_idle(qtbot, main_window)
    assert main_window.minimumSizeHint().height() <= 768 and main_window.height() <= 768
    strip = dock.strip
    shown = strip.visible_widgets()
    assert len(shown) == 5
    area = QRectF(strip.rect())
    for widget in shown:
        rect = QRectF(widget.geometry())
        assert area.contains(rect), (widget.objectName(), rect, area)  # not cut off at the right
        assert rect.width() >= STRIP_PLOT_WIDTH
    assert dock.graphics.height() >= MATRIX_MIN_HEIGHT and dock.plot.getViewBox().height() > 150
    # narrower than five plots: they wrap onto another row instead of being cut
    assert strip.columns_for(2 * STRIP_PLOT_WIDTH + 50) == 2 and strip.columns_for(5 * STRIP_PLOT_WIDTH + 10) == 5
    columns = strip.columns_for(strip.width())
    assert strip.rows == -(-5 // columns) and strip.minimumHeight() >= strip.rows * STRIP_PLOT_HEIGHT


def test_received_axis_labels_whole_decades_that_do_not_overlap(main_window, dock, qtbot):
    dock.set_settings(scheme="alibi", seq_len=2000, n_heads=8, head=7)  # the last query's weights span decades
    wait_idle(qtbot, main_window, timeout_ms=60_000)
    plot = dock.received_plot
    axis = plot.getAxis("left")
    (_, _), (low, high) = plot.getViewBox().viewRange()
    assert high - low <= 12.5  # not down to a 1e-30 floor
    levels = axis.tickValues(low, high, plot.getViewBox().height())
    values = [v for _, level in levels for v in level]
    assert values and all(float(v).is_integer() for v in values)  # decades only, no 2 … 9 in between
    from PySide6.QtGui import QFontMetricsF

    line = QFontMetricsF(axis.style.get("tickFont") or axis.font()).height()
    if len(values) > 1:  # labels at least a line and a half apart: no blob
        assert plot.getViewBox().height() / (high - low) * min(np.diff(values)) >= 1.5 * line


def _tiny_bert(folder, hidden, heads, words):
    folder.mkdir()
    save_file({"embeddings.word_embeddings.weight": torch.randn(len(words), hidden),
               "embeddings.position_embeddings.weight": torch.randn(32, hidden)}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"model_type": "bert", "architectures": ["BertModel"],
                                                    "hidden_size": hidden, "num_attention_heads": heads,
                                                    "max_position_embeddings": 32}))
    (folder / "vocab.txt").write_text("\n".join(words) + "\n")


def test_the_inspector_switches_to_the_model_opened_last(main_window, dock, qtbot, tmp_path):
    """Issue 17: opening a second checkpoint replaces the first one's embeddings and head_dim."""
    minilm = samples.minilm()
    dock.set_settings(scheme="alibi", tokens="sentence", sentence="the cat sat", seq_len=12, n_heads=2)
    _open(qtbot, main_window, minilm)
    shown = attention_settings(main_window.document_model.document)
    assert shown.embedding_source.startswith(f"{minilm}::") and shown.head_dim == 384

    other = tmp_path / "tiny_bert"
    _tiny_bert(other, 48, 4, ["[PAD]", "the", "cat", "sat"])
    _open(qtbot, main_window, other)
    shown = attention_settings(main_window.document_model.document)
    assert shown.embedding_source == f"{other}::embeddings.word_embeddings.weight" and shown.head_dim == 48
    view = dock.last_result
    assert view.spec.head_dim == 48 and set(view.embedded) == {"the", "cat", "sat"}

    # a model without a vocabulary beside it: hashed words again, and its own head_dim (hidden / heads)
    bare = tmp_path / "no_vocab"
    bare.mkdir()
    save_file({"embeddings.word_embeddings.weight": torch.randn(10, 40)}, str(bare / "model.safetensors"))
    (bare / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_size": 40,
                                                  "num_attention_heads": 2}))
    _open(qtbot, main_window, bare)
    shown = attention_settings(main_window.document_model.document)
    assert shown.embedding_source == "" and shown.head_dim == 20
    assert dock.last_result.spec.head_dim == 20 and not dock.seeded_button.isVisible()
