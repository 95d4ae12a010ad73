"""A checkpoint's trained T5 table and word embeddings reach the real attention inspector."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from safetensors.torch import save_file

from tests.conftest import wait_idle
from tests.gui.test_checkpoint_dock import _open
from tests import samples

T5_BIAS = "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"


@pytest.mark.all_docks
def test_trained_t5_table_reaches_the_inspector_and_seeded_tables_undo_it(main_window, qtbot, tmp_path):
    folder = tmp_path / "t5"
    folder.mkdir()
    table = torch.randn(16, 4, generator=torch.Generator().manual_seed(5))
    save_file({T5_BIAS: table}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"model_type": "t5", "num_heads": 4,
                                                    "relative_attention_num_buckets": 16,
                                                    "relative_attention_max_distance": 64}))
    attention = main_window.docks["attentionDock"]
    attention.set_settings(seq_len=40, head_dim=16)
    _open(qtbot, main_window, folder)
    wait_idle(qtbot, main_window)
    assert attention.settings()["t5_source"] == f"{folder}::{T5_BIAS}"
    assert attention.seeded_button.isVisible()
    view = attention.last_result
    assert "trained bias table" in view.scheme_note and "trained bias table" in attention.caption.text()
    np.testing.assert_allclose(view.t5_table, table.numpy())
    json.dumps(main_window.document_model.document.to_json())  # only the name is stored

    attention.seeded_button.click()
    wait_idle(qtbot, main_window)
    assert attention.settings()["t5_source"] == "" and not attention.seeded_button.isVisible()
    assert "seeded bias table" in attention.last_result.scheme_note


@pytest.mark.all_docks
def test_minilm_embeddings_reach_sentence_tokens(main_window, qtbot):
    path = samples.minilm()
    attention = main_window.docks["attentionDock"]
    attention.set_settings(seq_len=16, n_heads=2, tokens="sentence", sentence="the cat sat on the qzxv mat")
    head_dim = attention.settings()["head_dim"]
    _open(qtbot, main_window, path)
    wait_idle(qtbot, main_window)
    settings = attention.settings()
    assert settings["embedding_source"] == f"{path}::embeddings.word_embeddings.weight"
    # the inspector shows RoPE, whose head_dim is the RoPE family's: MiniLM (learned) leaves it alone and
    # its 384-wide table is projected (with the learned scheme it would become 384: test_checkpoint_links)
    assert settings["head_dim"] == head_dim == main_window.document_model.document.spec("rope").head_dim
    view = attention.last_result
    assert set(view.embedded) == {"the", "cat", "sat", "on", "mat"}
    assert "5 of 6 distinct words from embeddings.word_embeddings.weight" in attention.caption.text()
    assert "qzxv" in attention.caption.text()
    text = attention.describe(view, 5, 1)  # query 5 'qzxv' → key 1 'cat'
    assert "'qzxv' [hash]" in text and "'cat' [model]" in text


def test_minilm_position_table_is_not_washed_out_by_its_outliers(main_window, qtbot):
    """MiniLM's learned positions mostly lie within ±0.1, with a few entries near ±2: coloured
    over the full range the heatmap was one flat colour.  The levels hold 99.5% of the values and
    the caption says where the rest are."""
    path = samples.minilm()
    _open(qtbot, main_window, path)
    wait_idle(qtbot, main_window)
    heat = main_window.docks["heatmapDock"]
    values = heat.image.image
    assert values.shape == (512, 384)
    low, high = heat.colorbar.levels()
    assert np.abs(values).max() > 3 * high and low == -high
    assert np.mean(np.abs(values) <= high) == pytest.approx(0.995, abs=0.003)
    assert "take the end colours" in heat.caption.text()
