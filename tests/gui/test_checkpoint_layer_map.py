"""The Checkpoint panel's per-layer map on a Gemma 3 checkpoint (18 layers: 15 local, 3 global),
with real mouse events on the strip."""

from __future__ import annotations

import pytest
import torch
import transformers
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.conftest import wait_idle
from ui import checkpoint_actions

transformers.logging.set_verbosity_error()


@pytest.fixture(scope="module")
def gemma3(tmp_path_factory):
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("gemma3") / "gemma3"
    config = transformers.Gemma3TextConfig(hidden_size=16, num_hidden_layers=18, num_attention_heads=2,
                                           num_key_value_heads=1, head_dim=8, intermediate_size=32, vocab_size=99,
                                           sliding_window=512, max_position_embeddings=32768)
    transformers.Gemma3ForCausalLM(config).save_pretrained(path)
    return path


def test_gemma3_layers_in_the_checkpoint_panel(main_window, qtbot, gemma3):
    dock = main_window.docks["checkpointDock"]
    checkpoint_actions.open_path(main_window, str(gemma3))
    qtbot.waitUntil(lambda: not main_window.worker.is_busy() and dock.opening is None, timeout=30_000)
    wait_idle(qtbot, main_window)
    box = dock.layer_box
    assert box.isVisibleTo(dock)
    table = box.table
    assert table.rowCount() == 2
    rows = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(2)]
    assert rows[0][:6] == ["0–4, 6–10, 12–16", "15", "RoPE", "10,000", "sliding window 512", "—"]
    assert rows[1][:6] == ["5, 11, 17", "3", "RoPE", "1,000,000", "global", "—"]
    # K/V held at the context length: the window bounds the local layers (F32, 1 KV head × 8 dims)
    assert rows[0][6] == "480.0 KiB (512 keys held)" and rows[1][6] == "6.0 MiB (32,768 keys held)"
    assert table.horizontalHeaderItem(6).text() == "K/V cache at 32,768 tokens"
    strip = box.strip
    assert len(strip.colours) == 18 and strip.colours[5] == strip.colours[11] != strip.colours[0]
    # a real click on layer 11's cell selects the global row and names the layer
    dock.raise_()
    qtbot.waitUntil(lambda: strip.isVisible() and strip.width() > 18, timeout=10_000)
    x = int(strip.cell_rect(11).center().x())
    QTest.mouseClick(strip, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(x, strip.height() // 2))
    qtbot.waitUntil(lambda: box.selected_row() == 1, timeout=5_000)
    assert box.readout.text() == "layer 11: RoPE base 1,000,000, global"
    x = int(strip.cell_rect(3).center().x())
    QTest.mouseClick(strip, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(x, strip.height() // 2))
    qtbot.waitUntil(lambda: box.selected_row() == 0, timeout=5_000)
    assert box.readout.text() == "layer 3: RoPE base 10,000, sliding window 512"
