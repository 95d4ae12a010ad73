"""RoPE scaling against transformers itself, the reference file's check values, and RoPE's properties.

transformers is a test dependency only: it is imported here, never by peapp.
"""

from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peapp.document import Document
from peapp.encodings import rope
from peapp.encodings.rope import ROPE_TYPES, RopeSpec
from peapp.errors import CheckpointError, ParameterError

import transformers  # a test dependency (pyproject [test]); never imported by peapp
from transformers import AutoConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

# Per-pair LongRoPE factors with Phi-3-mini-128k's shape (head_dim 96 → 48 pairs): short ones near 1,
# long ones rising from 1 to ~60.  Synthetic values: what matters is that both sides read the same list.
PHI3_SHORT = [round(1.0 + 0.0025 * i ** 1.2, 6) for i in range(48)]
PHI3_LONG = [round(1.0 + 59.0 * (i / 47) ** 2.5, 6) for i in range(48)]

# (model_type, config.json dict).  Shapes and RoPE settings follow the published configs.
CONFIGS = {
    "llama-3.1-8b": ("llama", dict(
        hidden_size=4096, num_attention_heads=32, num_key_value_heads=8, max_position_embeddings=131072,
        rope_theta=500000.0, rope_scaling=dict(factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                                               original_max_position_embeddings=8192, rope_type="llama3"))),
    "llama-3.2-1b": ("llama", dict(
        hidden_size=2048, num_attention_heads=32, head_dim=64, max_position_embeddings=131072,
        rope_theta=500000.0, rope_scaling=dict(factor=32.0, low_freq_factor=1.0, high_freq_factor=4.0,
                                               original_max_position_embeddings=8192, rope_type="llama3"))),
    "llama-2-linear": ("llama", dict(
        hidden_size=4096, num_attention_heads=32, max_position_embeddings=4096, rope_theta=10000.0,
        rope_scaling=dict(type="linear", factor=4.0))),
    "qwen2.5-7b-yarn": ("qwen2", dict(
        hidden_size=3584, num_attention_heads=28, num_key_value_heads=4, max_position_embeddings=131072,
        rope_theta=1000000.0, rope_scaling=dict(factor=4.0, original_max_position_embeddings=32768, type="yarn"))),
    "deepseek-yarn-mscale": ("deepseek_v3", dict(
        hidden_size=7168, num_attention_heads=128, qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128,
        kv_lora_rank=512, q_lora_rank=1536, max_position_embeddings=163840, rope_theta=10000.0,
        rope_scaling=dict(beta_fast=32, beta_slow=1, factor=40, mscale=1.0, mscale_all_dim=0.707,
                          original_max_position_embeddings=4096, type="yarn"))),
    "yarn-explicit-attention": ("llama", dict(
        hidden_size=2048, num_attention_heads=16, max_position_embeddings=65536, rope_theta=10000.0,
        rope_parameters=dict(rope_type="yarn", factor=16.0, original_max_position_embeddings=4096,
                             attention_factor=1.5, beta_fast=16.0, beta_slow=2.0, truncate=False))),
    "phi-3-mini-128k": ("phi3", dict(
        hidden_size=3072, num_attention_heads=32, max_position_embeddings=131072,
        original_max_position_embeddings=4096, rope_theta=10000.0,
        rope_scaling=dict(type="longrope", short_factor=PHI3_SHORT, long_factor=PHI3_LONG))),
    "dynamic": ("llama", dict(
        hidden_size=2048, num_attention_heads=16, max_position_embeddings=2048, rope_theta=10000.0,
        rope_scaling=dict(type="dynamic", factor=2.0))),
    "gpt-neox-partial": ("gpt_neox", dict(
        hidden_size=2048, num_attention_heads=8, max_position_embeddings=2048, rotary_pct=0.25,
        rotary_emb_base=10000, rope_theta=10000.0)),
    "gemma-7b": ("gemma", dict(
        hidden_size=3072, num_attention_heads=16, head_dim=256, max_position_embeddings=8192,
        rope_theta=10000.0)),
    "rope-parameters-theta-inside": ("llama", dict(
        hidden_size=1024, num_attention_heads=8, max_position_embeddings=8192,
        rope_parameters=dict(rope_type="linear", factor=2.0, rope_theta=250000.0))),
}


def _hf(name):
    model_type, cfg = CONFIGS[name]
    return AutoConfig.for_model(model_type, **copy.deepcopy(cfg))


def _hf_rotary(config):
    """transformers' own rotary-embedding module for this config."""
    module = transformers.models
    cls = {
        "llama": module.llama.modeling_llama.LlamaRotaryEmbedding,
        "qwen2": module.qwen2.modeling_qwen2.Qwen2RotaryEmbedding,
        "deepseek_v3": module.deepseek_v3.modeling_deepseek_v3.DeepseekV3RotaryEmbedding,
        "phi3": module.phi3.modeling_phi3.Phi3RotaryEmbedding,
        "gpt_neox": module.gpt_neox.modeling_gpt_neox.GPTNeoXRotaryEmbedding,
        "gemma": module.gemma.modeling_gemma.GemmaRotaryEmbedding,
    }[config.model_type]
    return cls(config)


def _ours(name):
    return RopeSpec.from_hf_config(copy.deepcopy(CONFIGS[name][1]))


def _hf_inv_freq(config, seq_len=None):
    kind = config.rope_parameters["rope_type"]
    if kind == "default":
        return _hf_rotary(config).inv_freq, 1.0
    return ROPE_INIT_FUNCTIONS[kind](config, None, seq_len=seq_len)


# ---- equality with transformers ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_inv_freq_equals_transformers(name):
    config = _hf(name)
    spec = _ours(name)
    lengths = [None]
    if spec.rope_type in ("dynamic", "longrope"):
        o = spec.original_max_position_embeddings
        lengths += [1, o - 1, o, o + 1, 2 * o, 5 * o + 7]
    for seq_len in lengths:
        inv_hf, attn_hf = _hf_inv_freq(config, seq_len)
        inv, attn = spec.inv_freq(seq_len)
        assert inv.dtype == torch.float32
        assert torch.equal(inv, inv_hf.to(torch.float32)), (name, seq_len)
        assert attn == pytest.approx(attn_hf, rel=1e-12), (name, seq_len)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_cos_sin_equals_transformers_module(name):
    config = _hf(name)
    spec = _ours(name)
    o = spec.original_max_position_embeddings
    lengths = [64]
    if spec.rope_type in ("dynamic", "longrope"):
        lengths += [o, o + 1, 3 * o]  # short factors / original base up to o, long / grown past it
    for length in lengths:
        module = _hf_rotary(config)  # fresh each time: transformers caches dynamic frequencies
        positions = torch.arange(length)
        cos_hf, sin_hf = module(torch.zeros(1, dtype=torch.float32), positions[None])
        cos, sin = spec.cos_sin(positions)
        assert cos.shape == (length, spec.rotary_dim)
        assert torch.equal(cos, cos_hf[0]), (name, length)
        assert torch.equal(sin, sin_hf[0]), (name, length)


def test_cos_sin_uses_max_position_plus_one_as_length():
    spec = _ours("phi-3-mini-128k")
    # Only the last position decides: one position past the original length switches to long factors.
    few = torch.tensor([0, 5, 4096])
    cos_long, _ = spec.cos_sin(few)
    inv_long, attn = spec.inv_freq(4097)
    assert torch.equal(cos_long, rope.cos_sin(few, inv_long, attn)[0])
    cos_short, _ = spec.cos_sin(few[:2])
    assert torch.equal(cos_short, rope.cos_sin(few[:2], spec.inv_freq(6)[0], attn)[0])


def test_static_ntk_matches_dynamic_at_the_equivalent_length():
    # Dynamic NTK at length L uses base·(f·L/M − (f − 1))^(dim/(dim−2)); static NTK with factor s uses
    # base·s^(dim/(dim−2)).  With f = 2 and L = M·(s + 1)/2 the two bases are the same.
    config = _hf("dynamic")
    m, s = 2048, 4.0
    inv_hf, _ = ROPE_INIT_FUNCTIONS["dynamic"](config, None, seq_len=int(m * (s + 1) / 2))
    ntk = RopeSpec(head_dim=128, rope_type="ntk", factor=s, original_max_position_embeddings=m)
    inv, attn = ntk.inv_freq()
    assert attn == 1.0
    torch.testing.assert_close(inv, inv_hf, rtol=1e-6, atol=0)
    # and the closed form: the last pair is divided by exactly the factor, the first is untouched
    plain = rope.default_inv_freq(128, 10000.0)
    assert inv[0] == plain[0]
    assert float(plain[-1] / inv[-1]) == pytest.approx(s, rel=1e-5)


# ---- reading config.json ---------------------------------------------------------------------------

def test_hf_config_readings():
    spec = _ours("llama-3.1-8b")
    assert (spec.rope_type, spec.factor, spec.base, spec.head_dim) == ("llama3", 8.0, 500000.0, 128)
    assert (spec.original_max_position_embeddings, spec.max_position_embeddings) == (8192, 131072)
    assert spec.extended_context == 131072 and spec.trained_context == 8192
    assert _ours("gemma-7b").head_dim == 256
    assert _ours("gpt-neox-partial").rotary_dim == 64  # 256 × 0.25
    assert _ours("deepseek-yarn-mscale").head_dim == 64  # qk_rope_head_dim
    assert _ours("rope-parameters-theta-inside").base == 250000.0
    phi = _ours("phi-3-mini-128k")
    assert phi.rope_type == "longrope" and phi.long_factor == tuple(PHI3_LONG)
    assert phi.factor == 32.0  # derived as 131072 / 4096, as transformers does
    gptj = RopeSpec.from_hf_config(dict(n_embd=4096, n_head=16, rotary_dim=64, n_positions=2048))
    assert (gptj.head_dim, gptj.rotary_dim) == (256, 64)


def test_hf_config_aliases_su_and_type():
    cfg = copy.deepcopy(CONFIGS["phi-3-mini-128k"][1])
    cfg["rope_scaling"]["type"] = "su"
    reading = rope.read_hf_config(cfg)
    assert reading.spec.rope_type == "longrope"
    assert any("old name" in n for n in reading.notes)


def test_hf_config_mrope_is_plain_rope_frequencies():
    cfg = dict(hidden_size=3584, num_attention_heads=28, max_position_embeddings=32768, rope_theta=1e6,
               rope_scaling=dict(type="mrope", mrope_section=[16, 24, 24]))
    reading = rope.read_hf_config(cfg)
    assert reading.spec.rope_type == "default" and "mrope_section [16, 24, 24]" in reading.notes[0]
    hf = AutoConfig.for_model("qwen2_vl", text_config=copy.deepcopy(cfg), **copy.deepcopy(cfg))
    module = transformers.models.qwen2_vl.modeling_qwen2_vl.Qwen2VLRotaryEmbedding(hf.get_text_config())
    assert torch.equal(reading.spec.inv_freq()[0], module.inv_freq)


def test_hf_config_top_level_original_wins():
    cfg = copy.deepcopy(CONFIGS["phi-3-mini-128k"][1])
    cfg["rope_scaling"]["original_max_position_embeddings"] = 2048
    assert _ours_from(cfg).original_max_position_embeddings == 4096


def _ours_from(cfg):
    return RopeSpec.from_hf_config(cfg)


def test_hf_config_per_layer_type():
    cfg = dict(hidden_size=2560, num_attention_heads=8, head_dim=256, max_position_embeddings=131072,
               num_hidden_layers=2, layer_types=["sliding_attention", "full_attention"],
               rope_parameters=dict(full_attention=dict(rope_type="linear", factor=8.0, rope_theta=1e6),
                                    sliding_attention=dict(rope_type="default", rope_theta=1e4)))
    reading = rope.read_hf_config(cfg)
    assert reading.layer_type == "full_attention" and reading.other_layer_types == ("sliding_attention",)
    assert (reading.spec.rope_type, reading.spec.base) == ("linear", 1e6)
    assert any("sliding_attention" in n for n in reading.notes)
    sliding = rope.read_hf_config(cfg, layer_type="sliding_attention").spec
    assert (sliding.rope_type, sliding.base) == ("default", 1e4)
    # and transformers agrees for the layer type we picked
    hf = AutoConfig.for_model("gemma3_text", **copy.deepcopy(cfg))
    inv_hf, _ = ROPE_INIT_FUNCTIONS["linear"](hf, None, layer_type="full_attention")
    assert torch.equal(reading.spec.inv_freq()[0], inv_hf)
    with pytest.raises(CheckpointError, match="chunked"):
        rope.read_hf_config(cfg, layer_type="chunked")


@pytest.mark.parametrize("mutate, pattern", [
    (lambda c: c["rope_scaling"].update(rope_type="wobbly"), "'wobbly' is not supported"),
    (lambda c: c["rope_scaling"].pop("low_freq_factor"), "low_freq_factor"),
    (lambda c: c["rope_scaling"].pop("factor"), "factor"),
    (lambda c: c["rope_scaling"].update(factor="eight"), "factor must be a number"),
    (lambda c: [c.pop("hidden_size")], "head_dim"),
    (lambda c: c.update(rope_scaling=[1, 2]), "must be an object"),
])
def test_hf_config_errors_name_the_key(mutate, pattern):
    cfg = copy.deepcopy(CONFIGS["llama-3.1-8b"][1])
    mutate(cfg)
    with pytest.raises(CheckpointError, match=pattern):
        RopeSpec.from_hf_config(cfg)


def test_hf_config_of_a_model_without_rope():
    with pytest.raises(CheckpointError, match="'gpt2' model, which uses learned absolute positions"):
        RopeSpec.from_hf_config(dict(model_type="gpt2", n_embd=768, n_head=12, n_positions=1024))
    reading = rope.read_hf_config(dict(model_type="newthing", hidden_size=512, num_attention_heads=8))
    assert reading.spec.base == 10000.0 and "names no RoPE setting" in reading.notes[0]


def test_hf_config_bad_values_are_parameter_errors():
    cfg = copy.deepcopy(CONFIGS["phi-3-mini-128k"][1])
    cfg["rope_scaling"]["long_factor"] = PHI3_LONG[:10]
    with pytest.raises(ParameterError, match="long_factor has 10 values .* 48 pairs"):
        RopeSpec.from_hf_config(cfg)


def test_spec_from_config_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(CONFIGS["llama-3.1-8b"][1]))
    assert rope.spec_from_config_file(path) == _ours("llama-3.1-8b")
    assert rope.read_config_file(tmp_path).spec.rope_type == "llama3"  # a model folder
    path.write_text("{ not json")
    with pytest.raises(CheckpointError, match="not valid JSON"):
        rope.spec_from_config_file(path)
    path.write_text(json.dumps({"architectures": ["Foo"]}))
    with pytest.raises(CheckpointError, match="no RoPE or attention settings"):
        rope.spec_from_config_file(path)
    with pytest.raises(CheckpointError, match="no such file"):
        rope.spec_from_config_file(tmp_path / "missing.json")


def test_factor_disagreement_is_reported():
    cfg = copy.deepcopy(CONFIGS["qwen2.5-7b-yarn"][1])
    cfg["max_position_embeddings"] = 65536  # 65536 / 32768 = 2, but factor says 4
    reading = rope.read_hf_config(cfg)
    assert any("factor 4 disagrees" in n and "= 2" in n for n in reading.notes)
    assert rope.context_mismatch(_ours("qwen2.5-7b-yarn")) is None  # 131072 / 32768 = 4 = factor
    # Llama-3.1 really does this: factor 8, but 131072 / 8192 = 16
    assert "factor 8 disagrees" in rope.context_mismatch(_ours("llama-3.1-8b"))


# ---- reference check values -----------------------------------------------------------------------

def test_reference_default_inv_freq():
    inv, attn = RopeSpec(head_dim=128, base=1e4).inv_freq()
    assert attn == 1.0
    np.testing.assert_allclose(inv[:3].numpy(), [1, 0.865964, 0.749894], rtol=1e-6)
    assert float(inv[-1]) == pytest.approx(1.1548e-4, rel=1e-4)


def test_reference_yarn_ramp_and_attention_factor():
    spec = RopeSpec(head_dim=128, base=1e4, rope_type="yarn", factor=16, original_max_position_embeddings=4096)
    assert spec.yarn_ramp() == (20, 46)
    assert spec.inv_freq()[1] == pytest.approx(1.2773, abs=5e-5)
    # the ramp is 0 up to pair 20 (kept) and 1 from pair 46 (divided by the factor)
    kinds = _analysis().classify(spec)
    assert (kinds[:21] == "keep").all() and (kinds[21:46] == "blend").all() and (kinds[46:] == "divide").all()


def test_reference_llama3_bands():
    spec = RopeSpec(head_dim=128, base=5e5, rope_type="llama3", factor=8, low_freq_factor=1,
                    high_freq_factor=4, original_max_position_embeddings=8192)
    kinds = _analysis().classify(spec)
    assert [(kinds == k).sum() for k in ("keep", "blend", "divide")] == [29, 6, 29]


def _analysis():
    from peapp.analysis import rope_scaling

    return rope_scaling


# ---- RoPE properties under every scaling ----------------------------------------------------------

def _spec_for(kind):
    extra = {}
    if kind == "longrope":
        extra = dict(short_factor=PHI3_SHORT[:32], long_factor=PHI3_LONG[:32])
    return RopeSpec(head_dim=64, rope_type=kind, factor=8.0, original_max_position_embeddings=512,
                    attention_factor=0.0, **extra)


@pytest.mark.parametrize("kind", ROPE_TYPES)
@pytest.mark.parametrize("layout", rope.LAYOUTS)
def test_norms_kept_up_to_attention_factor(kind, layout):
    spec = _spec_for(kind)
    inv, attn = spec.inv_freq(3000)  # past the original length: long factors / grown base
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(40, 64, generator=gen, dtype=torch.float64)
    positions = torch.arange(0, 4000, 100)
    out = rope.apply(x, positions, inv, layout=layout, attention_factor=attn)
    torch.testing.assert_close(out.norm(dim=-1), x.norm(dim=-1) * attn, rtol=1e-5, atol=0)


@pytest.mark.parametrize("kind", ROPE_TYPES)
def test_dot_product_depends_only_on_distance(kind):
    spec = _spec_for(kind)
    inv, attn = spec.inv_freq(3000)
    gen = torch.Generator().manual_seed(2)
    q, k = torch.randn(2, 1, 64, generator=gen, dtype=torch.float64)
    for m, n in [(7, 3), (200, 50), (1000, 999)]:
        base = (rope.apply(q, torch.tensor([m]), inv, attention_factor=attn)
                * rope.apply(k, torch.tensor([n]), inv, attention_factor=attn)).sum()
        for shift in (1, 37, 1500):
            shifted = (rope.apply(q, torch.tensor([m + shift]), inv, attention_factor=attn)
                       * rope.apply(k, torch.tensor([n + shift]), inv, attention_factor=attn)).sum()
            assert float(shifted) == pytest.approx(float(base), rel=2e-4, abs=2e-4)


# ---- spec plumbing ---------------------------------------------------------------------------------

def test_spec_round_trips_through_dict_and_document_json():
    spec = _ours("phi-3-mini-128k")
    assert RopeSpec.from_dict(spec.to_dict()) == spec
    hash(tuple(sorted(spec.to_dict().items())))  # requests hold the values; they must be hashable
    doc = Document(family="rope").with_params("rope", **spec.to_dict())
    again = Document.from_json(doc.to_json())
    assert again.spec("rope") == spec
    assert Document.from_json(Document(family="rope").to_json()).spec("rope") == RopeSpec()
    # loading another config over it replaces everything, LongRoPE factors included
    llama = _ours("llama-3.1-8b")
    assert doc.with_params("rope", **llama.to_dict()).spec("rope") == llama


def test_family_still_registered_and_heatmap_rows_follow_scaling():
    from peapp import encodings

    fam = encodings.get("rope")
    spec = fam.make_spec({"rope_type": "linear", "factor": 4.0, "n_positions": 10})
    rows = fam.rows_at(spec, torch.arange(10))
    inv = rope.default_inv_freq(128, 1e4) / 4
    torch.testing.assert_close(rows[:, :64], torch.cos(torch.arange(10.0)[:, None] * inv))
    assert "linear scaling ×4" in fam.caption(spec)


@pytest.mark.parametrize("values, pattern", [
    ({"rope_type": "llama3", "low_freq_factor": 4.0, "high_freq_factor": 2.0}, "high_freq_factor"),
    ({"rope_type": "yarn", "beta_fast": 1.0, "beta_slow": 2.0}, "beta_fast"),
    ({"rope_type": "stretchy"}, "must be one of"),
    ({"short_factor": [1.0, "x"]}, "positive finite numbers"),
    ({"factor": 0.5}, "at least 1"),
    ({"rope_type": "ntk", "head_dim": 2}, "at least 4 dimensions"),
])
def test_bad_spec_values(values, pattern):
    with pytest.raises(ParameterError, match=pattern):
        RopeSpec.from_dict(values)


def test_uniform_longrope_without_factors():
    spec = RopeSpec(head_dim=64, rope_type="longrope", factor=4.0, original_max_position_embeddings=100)
    plain = rope.default_inv_freq(64, 1e4)
    assert torch.equal(spec.inv_freq(100)[0], 1.0 / (torch.ones(32) * 1e4 ** (torch.arange(0, 64, 2).float() / 64)))
    torch.testing.assert_close(spec.inv_freq(101)[0], plain / 4)
    assert spec.inv_freq(101)[1] == pytest.approx(math.sqrt(1 + math.log(4) / math.log(100)))


# ---- random configs: equal to transformers across the parameter space ------------------------------

@st.composite
def _random_config(draw):
    heads = draw(st.sampled_from([4, 8, 16]))
    head_dim = draw(st.sampled_from([16, 32, 64, 96, 128, 256]))
    original = draw(st.sampled_from([512, 2048, 4096, 8192, 32768]))
    kind = draw(st.sampled_from(["linear", "dynamic", "yarn", "llama3"]))
    factor = draw(st.floats(1.0, 64.0).map(lambda f: round(f, 3)))
    scaling = dict(rope_type=kind, factor=factor)
    max_pos = original
    if kind == "yarn":
        max_pos = int(original * draw(st.sampled_from([1, 2, 4])))
        scaling.update(original_max_position_embeddings=original,
                       beta_fast=draw(st.sampled_from([8.0, 16.0, 32.0, 64.0])),
                       beta_slow=draw(st.sampled_from([0.5, 1.0, 2.0])), truncate=draw(st.booleans()))
        if draw(st.booleans()):
            scaling.update(mscale=draw(st.sampled_from([0.707, 1.0])), mscale_all_dim=draw(st.sampled_from([0.707, 1.0, 0.5])))
    if kind == "llama3":
        max_pos = original * 16
        low = draw(st.sampled_from([0.5, 1.0, 2.0]))
        scaling.update(original_max_position_embeddings=original, low_freq_factor=low,
                       high_freq_factor=low * draw(st.sampled_from([2.0, 4.0, 8.0])))
    cfg = dict(hidden_size=heads * head_dim, num_attention_heads=heads, head_dim=head_dim,
               max_position_embeddings=max_pos, rope_theta=draw(st.sampled_from([1e4, 5e5, 1e6, 2.5e4])),
               rope_scaling=scaling)
    seq_len = draw(st.sampled_from([None, original // 2, original, original + 1, 3 * original]))
    return cfg, seq_len


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_random_config())
def test_random_configs_equal_transformers(case):
    cfg, seq_len = case
    hf = AutoConfig.for_model("llama", **copy.deepcopy(cfg))
    inv_hf, attn_hf = ROPE_INIT_FUNCTIONS[hf.rope_parameters["rope_type"]](hf, None, seq_len=seq_len)
    inv, attn = RopeSpec.from_hf_config(copy.deepcopy(cfg)).inv_freq(seq_len)
    assert torch.equal(inv, inv_hf)
    assert attn == pytest.approx(attn_hf, rel=1e-12)


def test_gptj_config_reads_as_interleaved_pairs():
    from peapp.encodings.rope import RopeSpec

    spec = RopeSpec.from_hf_config({"model_type": "gptj", "n_embd": 256, "n_head": 4, "rotary_dim": 32,
                                    "n_positions": 2048})
    assert spec.layout == "interleaved" and spec.rotary_dim == 32
    llama = RopeSpec.from_hf_config({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4,
                                     "max_position_embeddings": 2048})
    assert llama.layout == "half"
