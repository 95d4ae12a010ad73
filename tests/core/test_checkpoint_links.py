"""Choosing a checkpoint component: one Document edit with table references the views resolve."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from safetensors.torch import save_file

from peapp import checkpoint_links as cv
from peapp.analysis.patch_grid import PatchGridRequest, PatchGridSettings, view_for_table
from peapp.document import Document
from peapp.encodings import vision
from peapp.errors import ParameterError


def _report(folder):
    from peapp.analysis.position_table import OpenCheckpointRequest

    return OpenCheckpointRequest(str(folder)).run()


@pytest.fixture
def vit(tmp_path):
    folder = tmp_path / "vit"
    folder.mkdir()
    table = torch.randn(1, 1 + 16, 8, generator=torch.Generator().manual_seed(0))
    save_file({"vit.embeddings.position_embeddings": table, "vit.embeddings.cls_token": torch.zeros(1, 1, 8)},
              str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"model_type": "vit", "image_size": 32, "patch_size": 8}))
    return folder, table


def test_a_vision_table_becomes_a_patch_grid_reference_that_its_request_resolves(vit):
    folder, table = vit
    report = _report(folder)
    comp = next(c for c in report.components if c.kind == "vision_learned_2d")
    doc, notes = cv.document_for_component(Document(), report.checkpoint, comp)
    assert not notes and doc.family == "learned"
    view = doc.views[cv.PATCH_GRID_VIEW]
    source = f"{folder}::vit.embeddings.position_embeddings"
    assert view["table_source"] == source and view["encoding"] == "table" and view["prefix_tokens"] == 1
    json.dumps(doc.to_dict())  # only the reference is stored
    # the request reads the table itself: the same numbers as from the tensor in hand
    result = PatchGridRequest(PatchGridSettings.from_dict(view)).run()
    assert result.table.grid == (4, 4) and result.table.name == "vit.embeddings.position_embeddings"
    np.testing.assert_allclose(result.a.sim, vision.cosine_similarity(table[0, 1:]).numpy(), atol=1e-6)
    # a session round trip keeps everything
    again = Document.from_json(doc.to_json())
    assert PatchGridRequest(PatchGridSettings.from_dict(again.views[cv.PATCH_GRID_VIEW])).run().a.sim.tobytes() \
        == result.a.sim.tobytes()


def test_view_for_table_refuses_what_does_not_fit():
    with pytest.raises(ParameterError, match="give the grid"):
        view_for_table(PatchGridSettings(), "x::t", (1 + 10, 8), 1)
    with pytest.raises(ParameterError, match="per side"):
        view_for_table(PatchGridSettings(), "x::t", (1 + 80 * 80, 8), 1)
    with pytest.raises(ParameterError, match="PATH::TENSOR"):
        PatchGridSettings(table_source="no separator")


def test_t5_alibi_and_embeddings_become_attention_references(tmp_path):
    from peapp.checkpoints import Component

    t5 = tmp_path / "t5"
    t5.mkdir()
    bias = "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
    save_file({bias: torch.zeros(16, 4), "shared.weight": torch.zeros(30, 12)}, str(t5 / "model.safetensors"))
    (t5 / "config.json").write_text(json.dumps({"model_type": "t5", "num_heads": 4,
                                                "relative_attention_num_buckets": 16,
                                                "relative_attention_max_distance": 64}))
    (t5 / "vocab.txt").write_text("\n".join(f"w{i}" for i in range(30)))
    report = _report(t5)
    comp = next(c for c in report.components if c.kind == "t5_relative_bias")
    doc, notes = cv.document_for_component(Document(), report.checkpoint, comp)
    assert not notes and doc.family == "t5"
    assert doc.views[cv.ATTENTION_VIEW] == {"scheme": "t5", "t5_source": f"{t5}::{bias}"}
    # heads and the mask are the T5 family's parameters, which the inspector reads: one value each
    shown = cv.attention_settings(doc)
    assert (shown.n_heads, shown.causal) == (4, False) and doc.spec("t5").n_heads == 4
    doc, message = cv.document_with_embeddings(doc, report.checkpoint)
    assert doc.views[cv.ATTENTION_VIEW]["embedding_source"] == f"{t5}::shared.weight"
    assert doc.views[cv.ATTENTION_VIEW]["head_dim"] == 12 and "shared.weight (12 dims)" in message
    # a view that refuses its part keeps its own settings and says why; the family still changes
    from types import SimpleNamespace

    huge = SimpleNamespace(path="/models/big_vit", tensors={"pos": SimpleNamespace(shape=(1, 1 + 80 * 80, 8))})
    comp = Component("vision_learned_2d", "pos", (1, 1 + 80 * 80, 8), {"prefix_tokens": 1})
    before = Document().with_view(cv.PATCH_GRID_VIEW, selected=5)
    doc, notes = cv.document_for_component(before, huge, comp)
    assert doc.family == "learned" and doc.views[cv.PATCH_GRID_VIEW] == {"selected": 5}
    assert notes == [notes[0]] and notes[0].startswith("Vision patch grid:") and "per side" in notes[0]
    alibi = Component("alibi", None, None, {"heads": 8, "slopes": [0.5] * 8})
    doc, notes = cv.document_for_component(Document(), huge, alibi)
    assert not notes and cv.attention_settings(doc).n_heads == 8


def test_opening_a_learned_model_leaves_the_rope_parameters_alone(tmp_path):
    """The inspector shows RoPE (its head_dim is the RoPE family's); opening a BERT-style model
    with a 24-wide word-embedding table must not write 24 into RoPE's head_dim (the RoPE spectrum
    then drew a BERT's hidden size as rotary pairs); with the learned scheme shown, it does."""
    bert = tmp_path / "bert"
    bert.mkdir()
    save_file({"embeddings.word_embeddings.weight": torch.zeros(30, 24),
               "embeddings.position_embeddings.weight": torch.zeros(40, 24)}, str(bert / "model.safetensors"))
    (bert / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_size": 24, "num_attention_heads": 2,
                                                  "max_position_embeddings": 40}))
    (bert / "vocab.txt").write_text("\n".join(f"w{i}" for i in range(30)))
    report = _report(bert)
    start = cv.with_attention_settings(Document(), scheme="rope")
    rope_before = start.spec("rope").head_dim
    doc, message = cv.document_with_embeddings(start, report.checkpoint, report.components)
    assert doc.views[cv.ATTENTION_VIEW]["embedding_source"].endswith("::embeddings.word_embeddings.weight")
    assert doc.spec("rope").head_dim == rope_before and cv.attention_settings(doc).head_dim == rope_before
    assert f"projected to head_dim {rope_before}" in message
    learned = cv.with_attention_settings(Document(), scheme="learned")
    doc, _ = cv.document_with_embeddings(learned, report.checkpoint, report.components)
    assert cv.attention_settings(doc).head_dim == 24 and doc.spec("learned").d_model == 24


def _extrapolation_after(config: dict, tmp_path, name="config.json"):
    path = tmp_path / name
    path.write_text(json.dumps(config))
    report = _report(path)
    comp = next(c for c in report.components if c.kind == "rope")
    doc, notes = cv.document_for_component(Document(), report.checkpoint, comp)
    assert notes == []
    return doc.view_spec("extrapolation"), doc.spec("rope")


def test_the_extrapolation_view_takes_a_rope_models_head_dim_base_and_context(tmp_path):
    # Llama 3.1 as on the Hub: trained 8,192, claims 131,072 with llama3 scaling ×8
    view, rope = _extrapolation_after({
        "model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
        "rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                                 "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}},
        tmp_path)
    assert (view.head_dim, view.rope_base, view.train_len, view.eval_len, view.factor) == (128, 500000.0, 8192,
                                                                                           131072, 8.0)
    # the request the view makes computes with these numbers
    request = view.request()
    assert (request.head_dim, request.rope_base, request.train_len, request.factor) == (128, 500000.0, 8192, 8.0)


def test_unscaled_and_partial_rotary_rope_in_the_extrapolation_view(tmp_path):
    # GPT-NeoX: 16-wide heads of which rotary_pct 0.25 rotate; unscaled, so read at 4 × its context
    view, _ = _extrapolation_after({"model_type": "gpt_neox", "hidden_size": 64, "num_attention_heads": 4,
                                    "rotary_pct": 0.25, "rotary_emb_base": 20000, "max_position_embeddings": 2048},
                                   tmp_path)
    assert (view.head_dim, view.rope_base, view.train_len, view.eval_len, view.factor) == (4, 20000.0, 2048,
                                                                                           2048 * cv.UNSCALED_READ_FACTOR,
                                                                                           0.0)


def test_tables_alibi_and_t5_set_their_extrapolation_settings(tmp_path):
    table = tmp_path / "gpt2"
    table.mkdir()
    save_file({"transformer.wpe.weight": torch.zeros(40, 12)}, str(table / "model.safetensors"))
    (table / "config.json").write_text(json.dumps({"model_type": "gpt2", "n_positions": 40}))
    report = _report(table)
    doc, _ = cv.document_for_component(Document().with_view("extrapolation", factor=3.0), report.checkpoint,
                                       report.components[0])
    view = doc.view_spec("extrapolation")
    assert (view.train_len, view.eval_len, view.factor) == (40, 160, 0.0)
    from peapp.checkpoints import Component

    alibi = Component("alibi", None, None, {"heads": 12, "slopes": [0.5] * 12})
    assert cv.extrapolation_values(Document(), alibi) == {"n_heads": 12}
    t5 = Component("t5_relative_bias", "x", (32, 8), {"num_buckets": 32, "max_distance": 128, "stack": "encoder",
                                                       "bidirectional": True, "heads": 8})
    assert cv.extrapolation_values(Document(), t5) == {"t5_buckets": 32, "t5_max_distance": 128}
    odd = Component("t5_relative_bias", "x", (33, 8), {"num_buckets": 33, "max_distance": 128, "stack": "encoder",
                                                        "bidirectional": True, "heads": 8})
    assert cv.extrapolation_values(Document(), odd) == {"t5_max_distance": 128}  # the view takes even counts only


def test_smollm2_gguf_sets_spectrum_and_extrapolation():
    from tests import samples

    report = _report(samples.smollm2())
    comp = next(c for c in report.components if c.kind == "rope")
    doc, _ = cv.document_for_component(Document(), report.checkpoint, comp)
    rope, view = doc.spec("rope"), doc.view_spec("extrapolation")
    assert (rope.original_max_position_embeddings, rope.max_position_embeddings) == (8192, 0)  # not "extended"
    assert (view.head_dim, view.rope_base, view.train_len, view.eval_len) == (64, 100000.0, 8192, 32768)
