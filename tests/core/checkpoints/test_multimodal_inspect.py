"""`peapp inspect` on multimodal checkpoints: M-RoPE sections and layout, the vision tower's own positions."""

import json

import pytest
import torch
import transformers

from peapp.checkpoints import inspect
from peapp.cli import main

transformers.logging.set_verbosity_error()
TEXT = dict(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37, vocab_size=99,
            head_dim=16)
ROPE = {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 3, 3]}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("mm")
    torch.manual_seed(0)
    q2 = transformers.Qwen2VLForConditionalGeneration(transformers.Qwen2VLConfig(
        text_config=dict(TEXT, rope_parameters=ROPE), vision_config=dict(depth=1, embed_dim=32, num_heads=2,
                                                                         hidden_size=32)))
    q2.save_pretrained(root / "qwen2vl")
    q3 = transformers.Qwen3VLForConditionalGeneration(transformers.Qwen3VLConfig(
        text_config=dict(TEXT, rope_parameters=ROPE),
        vision_config=dict(depth=1, hidden_size=32, num_heads=2, out_hidden_size=32, intermediate_size=37)))
    q3.save_pretrained(root / "qwen3vl")
    return root


def test_qwen2_vl_sections_layout_and_vision_rope(saved, capsys):
    report = inspect(saved / "qwen2vl")
    rope = next(c for c in report.components if c.kind == "rope")
    assert rope.params["mrope"]["sections"] == [2, 3, 3] and rope.params["mrope"]["layout"] == "sectioned"
    assert "M-RoPE sections [2, 3, 3] (temporal, height, width), contiguous sections, time on the highest" in rope.summary
    vision = [w for w in report.warnings if w.startswith("vision_config: the vision tower uses 2-D RoPE")]
    assert vision and "patch 14, merged 2×2" in vision[0] and "learned" not in vision[0]
    assert main(["inspect", str(saved / "qwen2vl")]) == 0
    out = capsys.readouterr().out
    assert "M-RoPE sections [2, 3, 3]" in out and "2-D RoPE over the patch grid" in out


def test_qwen3_vl_is_interleaved_with_a_learned_vision_grid(saved, capsys):
    report = inspect(saved / "qwen3vl")
    rope = next(c for c in report.components if c.kind == "rope")
    assert rope.params["mrope"]["layout"] == "interleaved" and "interleaved over the pairs" in rope.summary
    assert any("learned position table of 2,304 positions, a 48×48 grid (model.visual.pos_embed.weight)" in w
               for w in report.warnings), report.warnings
    assert not any("looks position-related" in w for w in report.warnings)
    assert main(["inspect", "--json", str(saved / "qwen3vl")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any(c.get("params", {}).get("mrope", {}).get("layout") == "interleaved" for c in data["components"])
