"""The per-layer scheme map (peapp.checkpoints.layer_schemes) against what transformers' own
modeling code does per layer: each tiny model is built from its config, and its attention modules
say which layers slide (and how far), which skip RoPE, and which base each layer type's rotary
embedding uses."""

import json
import subprocess
import sys

import numpy as np
import pytest
import torch
import transformers

from peapp.checkpoints import inspect
from peapp.checkpoints.layer_schemes import layer_map_from_config, layer_map_from_gguf, layer_ranges

transformers.logging.set_verbosity_error()
SMALL = dict(hidden_size=16, num_attention_heads=2, num_key_value_heads=1, head_dim=8, intermediate_size=32,
             vocab_size=99)


def gemma3_config(**extra):
    return transformers.Gemma3TextConfig(**SMALL, num_hidden_layers=18, sliding_window=512,
                                         max_position_embeddings=32768, **extra)


@pytest.fixture(scope="module")
def gemma3(tmp_path_factory):
    """The issue's done-when model: Gemma 3 with 18 layers (15 local, 3 global), saved with weights."""
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("gemma3") / "gemma3"
    model = transformers.Gemma3ForCausalLM(gemma3_config())
    model.save_pretrained(path)
    return path, model


def reference(model):
    """Per layer, from transformers' modules: (sliding window or None, uses RoPE, layer type)."""
    layers = model.model.layers
    out = []
    for i, layer in enumerate(layers):
        attn = layer.self_attn if hasattr(layer, "self_attn") else layer.attn
        # Mistral keeps no attribute: its attention passes config.sliding_window on every layer
        window = getattr(attn, "sliding_window", getattr(model.config, "sliding_window", None))
        use_rope = bool(getattr(attn, "use_rope", True))
        kind = model.config.layer_types[i] if getattr(model.config, "layer_types", None) else None
        if model.config.model_type == "cohere2":  # its attention rotates only when it slides
            use_rope = window is not None
        out.append((window, use_rope, kind))
    return out


def test_gemma3_shows_15_local_and_3_global_layers(gemma3):
    path, model = gemma3
    lm = inspect(path).layers
    groups = lm.groups()
    assert [(g.indices, g.scheme.window, g.scheme.rope.theta) for g in groups] == [
        ((0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16), 512, 10_000.0), ((5, 11, 17), None, 1_000_000.0)]
    for layer, (window, use_rope, kind) in zip(lm.layers, reference(model)):
        assert (layer.window, layer.position == "rope", layer.layer_type) == (window, use_rope, kind)
        # the base each layer type's rotary embedding really computes with
        inv_freq = getattr(model.model.rotary_emb, f"{kind}_inv_freq").numpy()
        d = layer.rope.rotary_dim
        expected = 1.0 / layer.rope.theta ** (np.arange(0, d, 2) / d)
        np.testing.assert_allclose(inv_freq, expected, rtol=1e-6)
    assert lm.lines() == ["layers 0–4, 6–10, 12–16 (15): RoPE base 10,000, sliding window 512",
                          "layers 5, 11, 17 (3): RoPE base 1,000,000, global"]


def test_gemma3_4x_spelling_reads_the_same_map():
    """A 4.x-era file: sliding_window_pattern, rope_theta and rope_local_base_freq, no layer_types."""
    cfg = {"model_type": "gemma3_text", "num_hidden_layers": 18, "hidden_size": 16, "num_attention_heads": 2,
           "head_dim": 8, "sliding_window": 512, "sliding_window_pattern": 6, "rope_theta": 1_000_000.0,
           "rope_local_base_freq": 10_000.0, "rope_scaling": {"rope_type": "linear", "factor": 8.0}}
    lm = layer_map_from_config(cfg)
    hf = transformers.Gemma3TextConfig(**{k: v for k, v in cfg.items() if k != "model_type"})
    assert [layer.layer_type for layer in lm.layers] == hf.layer_types
    assert {layer.rope.theta for layer in lm.layers if layer.window} == {10_000.0}
    full = [layer.rope for layer in lm.layers if not layer.window]
    # 4.x files: linear ×8 applies to the global layers only (transformers' conversion)
    assert {(r.theta, r.rope_type, r.scaling.get("factor")) for r in full} == {(1_000_000.0, "linear", 8.0)}
    assert hf.rope_parameters["full_attention"]["rope_type"] == "linear"
    assert hf.rope_parameters["sliding_attention"]["rope_type"] == "default"


@pytest.mark.parametrize("family", ["smollm3", "llama4_text", "cohere2", "gpt_oss", "gemma2", "mistral",
                                    "modernbert", "qwen2"])
def test_each_family_map_matches_its_transformers_modules(family, tmp_path):
    torch.manual_seed(0)
    common = dict(hidden_size=16, num_attention_heads=2, num_key_value_heads=1, intermediate_size=32,
                  vocab_size=99, num_hidden_layers=8, pad_token_id=0)
    if family == "smollm3":
        config = transformers.SmolLM3Config(**common)
        model = transformers.SmolLM3ForCausalLM(config)
    elif family == "llama4_text":
        config = transformers.Llama4TextConfig(**common, head_dim=8, intermediate_size_mlp=32, num_local_experts=2,
                                               attention_chunk_size=64)
        model = transformers.Llama4ForCausalLM(config)
    elif family == "cohere2":
        config = transformers.Cohere2Config(**common, sliding_window=32)
        model = transformers.Cohere2ForCausalLM(config)
    elif family == "gpt_oss":
        config = transformers.GptOssConfig(**common, head_dim=8, num_local_experts=2, num_experts_per_tok=1,
                                           sliding_window=16)
        model = transformers.GptOssForCausalLM(config)
    elif family == "gemma2":
        config = transformers.Gemma2Config(**common, head_dim=8, sliding_window=32)
        model = transformers.Gemma2ForCausalLM(config)
    elif family == "mistral":
        config = transformers.MistralConfig(**common, sliding_window=24)
        model = transformers.MistralForCausalLM(config)
    elif family == "modernbert":
        config = transformers.ModernBertConfig(**{k: v for k, v in common.items() if k != "num_key_value_heads"},
                                               global_attn_every_n_layers=3, local_attention=16)
        model = transformers.ModernBertModel(config)
    else:
        config = transformers.Qwen2Config(**common, use_sliding_window=True, sliding_window=32, max_window_layers=3)
        model = transformers.Qwen2ForCausalLM(config)
    model.save_pretrained(tmp_path / family)
    report = inspect(tmp_path / family)
    lm = report.layers
    assert len(lm) == 8
    if family == "modernbert":  # its own layer list and a bidirectional window (transformers passes half + 1)
        for i, layer in enumerate(model.layers):
            window = layer.attn.sliding_window
            assert lm.layers[i].window == (None if window is None else window - 1)
            assert lm.layers[i].both_sides == (window is not None)
        assert {layer.rope.theta for layer in lm.layers if layer.window} == {config.rope_parameters[
            "sliding_attention"]["rope_theta"]}
        return
    for i, (layer, (window, use_rope, kind)) in enumerate(zip(lm.layers, reference(model))):
        if family != "llama4_text":  # Llama 4 bounds its RoPE layers by chunks, not a window
            assert layer.window == window, i
        assert (layer.position == "rope") == use_rope, i
        assert layer.layer_type == kind, i
    if family == "llama4_text":
        attn = [layer.self_attn for layer in model.model.layers]
        assert [layer.temperature is not None for layer in lm.layers] == [
            a.attn_temperature_tuning and not a.use_rope for a in attn]
        assert [layer.chunk for layer in lm.layers] == [64 if k == "chunked_attention" else None
                                                        for k in config.layer_types]
        assert lm.layers[3].temperature.at(8190) == 1.0 and lm.layers[3].temperature.at(8191) > 1.06
    if family == "gpt_oss":  # learned sinks: a parameter of every layer's attention
        assert all(layer.sinks for layer in lm.layers)
        assert all(hasattr(layer.self_attn, "sinks") for layer in model.model.layers)
    else:
        assert not any(layer.sinks for layer in lm.layers)


def test_partial_and_interleaved_rotary_per_layer(tmp_path):
    config = transformers.GPTJConfig(n_embd=32, n_layer=2, n_head=2, rotary_dim=8, vocab_size=99, n_positions=64)
    config.save_pretrained(tmp_path / "gptj")
    layer = inspect(tmp_path / "gptj").layers.layers[0]
    assert (layer.rope.rotary_dim, layer.rope.head_dim, layer.rope.layout) == (8, 16, "interleaved")
    assert "8 of 16 dims rotate" in layer.describe() and "interleaved pairs" in layer.describe()


def test_a_model_without_rope_has_its_scheme_on_every_layer(tmp_path):
    transformers.BloomConfig(hidden_size=16, n_layer=3, n_head=2, vocab_size=99).save_pretrained(tmp_path / "b")
    lm = inspect(tmp_path / "b").layers
    assert [layer.position for layer in lm.layers] == ["alibi"] * 3 and not lm.mixed


def test_window_bounds_the_memory_per_layer_type(gemma3):
    lm = inspect(gemma3[0]).layers
    local, full = lm.attention_memory(length=32768, kv_heads=1, head_dim=8, heads=2, dtype_bytes=4)
    assert (local.keys_held, full.keys_held) == (512, 32768)
    assert local.kv_bytes == 15 * 2 * 1 * 8 * 512 * 4 and full.kv_bytes == 3 * 2 * 8 * 32768 * 4
    short = lm.attention_memory(length=100, kv_heads=1, head_dim=8)
    assert [m.keys_held for m in short] == [100, 100]


def test_inspect_prints_the_map_and_json_per_layer(gemma3):
    path = str(gemma3[0])

    def run(*args):
        return subprocess.run([sys.executable, "-m", "peapp", "inspect", path, *args], capture_output=True,
                              text=True, timeout=120)
    text = run("--length", "4096")
    assert text.returncode == 0, text.stderr
    assert "  0–4, 6–10, 12–16 (15)  RoPE base 10,000, sliding window 512" in text.stdout
    assert "  5, 11, 17 (3)          RoPE base 1,000,000, global" in text.stdout
    assert "attention memory at 4,096 tokens" in text.stdout and "keys held 512;" in text.stdout
    data = json.loads(run("--json").stdout)
    layers = data["layers"]["layers"]
    assert len(layers) == 18 and layers[5]["rope"]["rope_theta"] == 1e6 and layers[5]["window"] is None
    assert layers[0]["rope"]["rope_theta"] == 1e4 and layers[0]["window"] == 512
    assert data["memory"]["length"] == 32768
    assert [g["keys_held"] for g in data["memory"]["groups"]] == [512, 32768]


def _gemma3_gguf(path, swa_base=None):
    from gguf import GGUFWriter

    w = GGUFWriter(str(path), "gemma3")
    w.add_context_length(32768)
    w.add_embedding_length(16)
    w.add_block_count(18)
    w.add_head_count(2)
    w.add_head_count_kv(1)
    w.add_key_length(8)
    w.add_value_length(8)
    w.add_rope_freq_base(1_000_000.0)
    w.add_sliding_window(512)
    if swa_base is not None:
        w.add_rope_freq_base_swa(swa_base)
    w.add_tensor("token_embd.weight", np.zeros((5, 16), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def test_gguf_gemma3_map_uses_llama_cpp_defaults_and_the_swa_base(tmp_path):
    _gemma3_gguf(tmp_path / "a.gguf")
    lm = inspect(tmp_path / "a.gguf").layers
    assert [(g.indices, g.scheme.window, g.scheme.rope.theta) for g in lm.groups()] == [
        ((0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16), 512, 10_000.0), ((5, 11, 17), None, 1_000_000.0)]
    assert any("llama.cpp builds" in n for n in lm.notes)
    _gemma3_gguf(tmp_path / "b.gguf", swa_base=20_000.0)
    lm = inspect(tmp_path / "b.gguf").layers
    assert {layer.rope.theta for layer in lm.layers if layer.window} == {20_000.0}
    assert "gemma3.rope.freq_base_swa" in lm.keys


def test_gguf_pattern_as_a_list_of_flags():
    md = {"general.architecture": "gpt-oss", "gpt-oss.block_count": 4, "gpt-oss.attention.sliding_window": 128,
          "gpt-oss.attention.sliding_window_pattern": [True, False, False, True], "gpt-oss.rope.freq_base": 150000.0,
          "gpt-oss.embedding_length": 16, "gpt-oss.attention.head_count": 2}
    lm = layer_map_from_gguf(md, tensor_names=["blk.0.attn_sinks.weight", "blk.3.attn_sinks.weight"])
    assert [layer.window for layer in lm.layers] == [128, None, None, 128]
    assert [layer.sinks for layer in lm.layers] == [True, False, False, True]


def test_layer_ranges_are_compact():
    assert layer_ranges([0, 1, 2, 4, 6, 7]) == "0–2, 4, 6–7"
    assert layer_ranges(list(range(0, 40, 2)), most=3) == "0, 2, 4, …"


@pytest.mark.parametrize("bad, said", [
    ({"layer_types": "sliding_attention"}, "layer_types must be a list"),
    ({"sliding_window": "512"}, "sliding_window must be a whole number"),
    ({"sliding_window": -4}, "sliding_window must be at least 1"),
    ({"num_hidden_layers": 10**9}, "num_hidden_layers must be at most"),
])
def test_a_bad_value_is_one_warning_and_the_rest_is_shown(tmp_path, bad, said):
    cfg = {**gemma3_config().to_dict(), **bad}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    report = inspect(tmp_path)
    assert report.layers is None and any(c.kind == "rope" for c in report.components)
    assert sum(w.startswith("per-layer map not shown:") and said in w for w in report.warnings) == 1, report.warnings
