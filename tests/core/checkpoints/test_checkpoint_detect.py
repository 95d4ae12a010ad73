"""Scheme detection on tiny transformers checkpoints, checked against transformers itself."""

import json
import os
import math

import pytest
import torch
import transformers

from tests import samples
from peapp.checkpoints import inspect, open_checkpoint
from peapp.checkpoints.detect import alibi_slopes
from peapp.encodings import alibi as alibi_family
from peapp.encodings.rope import default_inv_freq

transformers.logging.set_verbosity_error()


def kinds(report):
    return sorted(c.kind for c in report.components)


def component(report, kind, contains=""):
    found = [c for c in report.components if c.kind == kind and contains in (c.tensor or "")]
    assert len(found) == 1, report.components
    return found[0]


@pytest.mark.parametrize("name, expected", [
    ("gpt2", ["learned_absolute"]), ("gpt2_sharded", ["learned_absolute"]), ("gpt2_bin", ["learned_absolute"]),
    ("gpt2_bin_folder", ["learned_absolute"]), ("bert", ["learned_absolute"]), ("roberta", ["learned_absolute"]),
    ("opt", ["learned_absolute"]), ("bart", ["learned_absolute", "learned_absolute"]), ("marian", ["sinusoidal"]),
    ("t5", ["t5_relative_bias", "t5_relative_bias"]), ("vit", ["vision_learned_2d"]),
    ("deit", ["vision_learned_2d"]), ("clip", ["learned_absolute", "vision_learned_2d"]),
    ("siglip", ["learned_absolute", "vision_learned_2d"]), ("llama", ["rope"]), ("gpt_neox", ["rope"]),
    ("gptj", ["rope"]), ("bloom", ["alibi"]), ("mpt", ["alibi"]), ("falcon", ["alibi"]),
    ("smollm3", ["nope", "rope"]), ("bert_shaw", ["shaw_relative"]), ("timm_reg", ["vision_learned_2d"]),
    ("timm_noembed", ["vision_learned_2d"]), ("llama31_config", ["rope"]), ("phi3_config", ["rope"]),
    ("gguf_llama", ["rope"]), ("gguf_gpt2", ["learned_absolute"]), ("gguf_bloom", ["alibi"]),
])
def test_every_family_is_detected(tiny, name, expected):
    report = inspect(tiny[name])
    assert kinds(report) == expected
    data = report.to_json()
    assert list(data) == ["path", "format", "architecture", "model", "components", "layers", "warnings"]
    for comp in data["components"]:
        assert list(comp) == ["kind", "tensor", "shape", "params"]
        if comp["tensor"] is not None:  # the shape reported is the stored tensor's
            assert tuple(comp["shape"]) == report.checkpoint.tensors[comp["tensor"]].shape


def _model(path):
    return transformers.AutoModel.from_pretrained(path).eval()


@pytest.mark.parametrize("name, attr", [
    ("gpt2", "transformer.wpe.weight"), ("gpt2_sharded", "transformer.wpe.weight"),
    ("gpt2_bin", "transformer.wpe.weight"), ("bert", "embeddings.position_embeddings.weight"),
    ("opt", "model.decoder.embed_positions.weight"),
])
def test_learned_table_loads_exactly_what_transformers_loads(tiny, name, attr):
    report = inspect(tiny[name])
    comp = component(report, "learned_absolute")
    table = report.checkpoint.load(comp.tensor)
    source = tiny["gpt2"] if name.startswith("gpt2") else tiny[name]
    model = transformers.AutoModelForCausalLM.from_pretrained(source) if name in ("gpt2", "gpt2_sharded", "gpt2_bin", "opt") \
        else _model(source)
    expected = model.get_parameter(attr).detach()
    torch.testing.assert_close(table, expected, rtol=0, atol=0)


def test_offsets_match_transformers(tiny):
    roberta = _model(tiny["roberta"])
    comp = component(inspect(tiny["roberta"]), "learned_absolute")
    assert comp.params["offset"] == roberta.embeddings.padding_idx + 1 == 2
    assert comp.params["positions"] == roberta.config.max_position_embeddings - 2
    opt = _model(tiny["opt"])
    comp = component(inspect(tiny["opt"]), "learned_absolute")
    assert comp.params["offset"] == opt.decoder.embed_positions.offset == 2
    assert comp.params["positions"] == opt.config.max_position_embeddings
    for comp in inspect(tiny["bart"]).components:
        assert comp.params["offset"] == 2 and comp.params["positions"] == 64
    assert component(inspect(tiny["bert"]), "learned_absolute").params["offset"] == 0


@pytest.mark.parametrize("name, prefix, grid", [("vit", 1, [4, 4]), ("deit", 2, [4, 4]), ("clip", 1, [4, 4]),
                                                ("siglip", 0, [4, 4]), ("timm_reg", 5, [4, 4]),
                                                ("timm_noembed", 0, [3, 3])])
def test_vision_prefix_tokens_and_grid(tiny, name, prefix, grid):
    comp = component(inspect(tiny[name]), "vision_learned_2d")
    assert comp.params["prefix_tokens"] == prefix
    assert comp.params["grid"] == grid
    n = comp.shape[-2]
    assert n == prefix + math.prod(grid)


def test_vision_counts_match_transformers(tiny):
    deit = _model(tiny["deit"])
    comp = component(inspect(tiny["deit"]), "vision_learned_2d")
    # DeiT prepends CLS and distillation tokens to the patches
    assert comp.shape == tuple(deit.embeddings.position_embeddings.shape)
    assert comp.params["grid"][0] * comp.params["grid"][1] == deit.embeddings.patch_embeddings.num_patches


def test_t5_tables(tiny):
    report = inspect(tiny["t5"])
    model = _model(tiny["t5"])
    enc = component(report, "t5_relative_bias", "encoder")
    dec = component(report, "t5_relative_bias", "decoder")
    assert enc.params["bidirectional"] is True and dec.params["bidirectional"] is False
    assert enc.params["num_buckets"] == model.config.relative_attention_num_buckets == 8
    assert enc.params["heads"] == model.config.num_heads
    assert enc.params["max_distance"] == 20
    assert enc.params["layers_with_table"] == 1  # only block 0 has the table
    weight = model.encoder.block[0].layer[0].SelfAttention.relative_attention_bias.weight.detach()
    torch.testing.assert_close(report.checkpoint.load(enc.tensor), weight, rtol=0, atol=0)


def test_shaw_relative(tiny):
    report = inspect(tiny["bert_shaw"])
    comp = component(report, "shaw_relative")
    assert comp.params == {"max_distance": 31, "dim": 8, "layers": 2, "variant": "relative_key"}
    assert any("unused" in w for w in report.warnings)  # the absolute table is not used by relative_key


def _hf_inv_freq(path):
    config = transformers.AutoConfig.from_pretrained(path)
    model = transformers.AutoModelForCausalLM.from_config(config)
    rotary = next((m for m in model.modules() if hasattr(m, "inv_freq")), None)
    if rotary is not None:
        return rotary.inv_freq.detach(), config
    # GPT-J keeps a [positions, sin | cos] table instead; row 1 holds sin θ_i | cos θ_i
    table = next(m for m in model.modules() if hasattr(m, "embed_positions")).embed_positions
    half = table.shape[1] // 2
    return torch.atan2(table[1, :half], table[1, half:]), config


@pytest.mark.parametrize("name, rotary_dim, layout", [("gpt_neox", 4, "half"), ("gptj", 8, "interleaved"),
                                                      ("smollm3", 16, "half")])
def test_rope_params_reproduce_transformers_frequencies(tiny, name, rotary_dim, layout):
    comp = component(inspect(tiny[name]), "rope")
    assert comp.params["rotary_dim"] == rotary_dim and comp.params["layout"] == layout
    expected, _ = _hf_inv_freq(tiny[name])
    ours = default_inv_freq(comp.params["rotary_dim"], comp.params["rope_theta"])
    torch.testing.assert_close(ours, expected.to(torch.float32))


def test_rope_scaling_is_recorded(tiny):
    comp = component(inspect(tiny["llama"]), "rope")
    assert comp.params["rope_type"] == "llama3" and comp.params["rope_theta"] == 500000.0
    assert comp.params["scaling"] == {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0}
    assert comp.params["original_max_position_embeddings"] == 32
    assert comp.params["head_dim"] == 16 and comp.params["rotary_dim"] == 16
    # the legacy Hub form of the same thing (rope_scaling + top-level rope_theta)
    report = inspect(tiny["llama31_config"])
    comp = component(report, "rope")
    assert (comp.params["rope_type"], comp.params["rope_theta"], comp.params["head_dim"]) == ("llama3", 500000.0, 128)
    assert comp.params["original_max_position_embeddings"] == 8192
    # factor × original ≠ max is normal for Llama-3 scaling (8 × 8,192 ≠ 131,072): no warning
    assert not any("131,072" in w for w in report.warnings), report.warnings
    phi3 = component(inspect(tiny["phi3_config"]), "rope")
    assert phi3.params["rope_type"] == "longrope"  # legacy "su"
    assert phi3.params["original_max_position_embeddings"] == 4096
    assert len(phi3.params["scaling"]["long_factor"]) == 48


def test_nope_layers_match_config(tiny):
    report = inspect(tiny["smollm3"])
    config = transformers.AutoConfig.from_pretrained(tiny["smollm3"])
    comp = component(report, "nope")
    assert comp.params["layers"] == [i for i, f in enumerate(config.no_rope_layers) if not f] == [3]


@pytest.mark.parametrize("heads", [4, 6, 12])
def test_alibi_slopes_match_bloom(heads):
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    alibi = build_alibi_tensor(torch.ones(1, 3), heads, torch.float32)  # [heads, 1, 3] = slope · position
    torch.testing.assert_close(torch.tensor(alibi_slopes(heads)), alibi[:, 0, 1])
    torch.testing.assert_close(torch.tensor(alibi_slopes(heads)), alibi_family.slopes(heads))


def test_alibi_heads_from_config(tiny):
    for name in ("bloom", "mpt", "falcon", "gguf_bloom"):
        comp = component(inspect(tiny[name]), "alibi")
        assert comp.params["heads"] == 4 and len(comp.params["slopes"]) == 4


def test_gguf_metadata(tiny):
    comp = component(inspect(tiny["gguf_llama"]), "rope")
    p = comp.params
    assert (p["rope_theta"], p["rotary_dim"], p["head_dim"], p["max_position_embeddings"]) == (50000.0, 16, 16, 4096)
    assert p["rope_type"] == "yarn" and p["scaling"]["factor"] == 4.0
    assert p["original_max_position_embeddings"] == 1024
    report = inspect(tiny["gguf_gpt2"])
    comp = component(report, "learned_absolute")
    assert comp.shape == (12, 8)  # PyTorch order, not GGUF's innermost-first
    table = report.checkpoint.load(comp.tensor)
    torch.testing.assert_close(table, torch.arange(96, dtype=torch.float32).reshape(12, 8))


def test_no_component_says_why(tiny, tmp_path):
    from safetensors.torch import save_file

    save_file({"layers.0.q_proj.weight": torch.zeros(4, 4)}, tmp_path / "bare.safetensors")
    report = inspect(tmp_path / "bare.safetensors")
    assert report.components == ()
    assert any("config.json" in w and "no position component" in w for w in report.warnings)


def test_tensor_inventory_and_single_tensor_load(tiny):
    ckpt = open_checkpoint(tiny["gpt2_sharded"])
    assert ckpt.format == "safetensors-sharded"
    shards = {t.file for t in ckpt.tensors.values()}
    assert len(shards) >= 2  # really sharded
    model = transformers.AutoModelForCausalLM.from_pretrained(tiny["gpt2"])
    for name, info in ckpt.tensors.items():
        assert info.shape == tuple(model.get_parameter(name).shape)
        assert info.dtype == "F32"


def test_minilm_sample():
    from safetensors import safe_open

    minilm = samples.minilm()
    report = inspect(minilm)
    comp = component(report, "learned_absolute")
    assert comp.shape == (512, 384) and comp.params["offset"] == 0
    table = report.checkpoint.load(comp.tensor)
    with safe_open(f"{minilm}/model.safetensors", framework="pt") as fh:  # an independent reader
        torch.testing.assert_close(table, fh.get_tensor(comp.tensor), rtol=0, atol=0)


def test_smollm2_sample():
    smollm2 = samples.smollm2()
    report = inspect(smollm2)
    comp = component(report, "rope")
    assert report.checkpoint.architecture == "llama"
    p = comp.params
    assert (p["rope_theta"], p["head_dim"], p["rotary_dim"], p["max_position_embeddings"]) == (100000.0, 64, 64, 8192)
    # unscaled: 8,192 is the context it was trained at, not an extension of a default 4,096
    from peapp.document import Document
    from peapp.encodings.rope import rope_family_values

    spec = Document().with_params("rope", **rope_family_values(p, report.checkpoint.config)).spec("rope")
    assert spec.original_max_position_embeddings == 8192 and spec.max_position_embeddings == 0


def test_rope_family_values_fit_the_rope_family(tiny, tmp_path):
    from peapp.encodings.rope import rope_family_values
    from peapp.document import Document

    for name in ("llama", "gpt_neox", "gptj", "gguf_llama", "llama31_config"):
        report = inspect(tiny[name])
        comp = component(report, "rope")
        values = rope_family_values(comp.params, report.checkpoint.config)
        spec = Document().with_params("rope", **values).spec("rope")  # validates
        assert spec.base == comp.params["rope_theta"] and spec.head_dim == comp.params["head_dim"]
        assert spec.rotary_dim == comp.params["rotary_dim"] and spec.layout == comp.params["layout"]
    # a composite config (Gemma 3 style): the language model's settings live in text_config
    (tmp_path / "config.json").write_text(json.dumps({
        "model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
        "text_config": {"model_type": "gemma3_text", "hidden_size": 64, "num_attention_heads": 2, "head_dim": 32,
                        "rope_theta": 1e6, "max_position_embeddings": 1024}}))
    report = inspect(tmp_path / "config.json")
    # a 4.x-era Gemma 3 file: rope_theta is the full-attention base, sliding layers keep transformers'
    # default 10,000 (rope_local_base_freq not given)
    ropes = {c.params["layer_type"]: c for c in report.components if c.kind == "rope"}
    comp = ropes["full_attention"]
    assert comp.params["config_section"] == "text_config" and comp.params["head_dim"] == 32
    values = rope_family_values(comp.params, report.checkpoint.config)
    assert values["base"] == 1e6 and values["head_dim"] == 32
    assert rope_family_values(ropes["sliding_attention"].params, report.checkpoint.config)["base"] == 10000.0


def test_config_alone_of_a_table_model_says_where_the_table_is(tiny):
    report = inspect(tiny["bert"] / "config.json")
    assert report.checkpoint.format == "config" and report.components == ()
    assert "live in its weights" in report.warnings[-1]


def test_gguf_t5_relative_bias(tmp_path):
    from gguf import GGUFWriter
    import numpy as np

    p = tmp_path / "t5.gguf"
    w = GGUFWriter(str(p), "t5")
    w.add_uint32("t5.attention.relative_buckets_count", 32)
    # llama.cpp's converter writes HF's [num_buckets, n_heads] array as is
    w.add_tensor("enc.blk.0.attn_rel_b.weight", np.zeros((32, 6), dtype=np.float32))
    w.add_tensor("dec.blk.0.attn_rel_b.weight", np.zeros((32, 6), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    report = inspect(p)
    enc = component(report, "t5_relative_bias", "enc.")
    assert (enc.params["num_buckets"], enc.params["heads"], enc.params["bidirectional"]) == (32, 6, True)
    assert component(report, "t5_relative_bias", "dec.").params["bidirectional"] is False


def test_open_cached_reuses_until_the_file_changes(tmp_path):
    from safetensors.torch import save_file

    from peapp.checkpoints import open_cached

    p = tmp_path / "t.safetensors"
    save_file({"wpe.weight": torch.zeros(4, 2)}, p)
    first = open_cached(p)
    assert open_cached(p) is first
    assert inspect(p, remember=True).checkpoint is not first  # an explicit open reads afresh
    save_file({"wpe.weight": torch.ones(6, 2)}, p)
    os.utime(p, ns=(1, 1))
    assert open_cached(p).tensors["wpe.weight"].shape == (6, 2)


def test_sharded_pytorch_bin_with_index(tiny, tmp_path):
    state = transformers.AutoModelForCausalLM.from_pretrained(tiny["gpt2"]).state_dict()
    names = sorted(state)
    halves = {"pytorch_model-00001-of-00002.bin": names[: len(names) // 2],
              "pytorch_model-00002-of-00002.bin": names[len(names) // 2:]}
    weight_map = {}
    for shard, keys in halves.items():
        torch.save({k: state[k].clone() for k in keys}, tmp_path / shard)
        weight_map.update({k: shard for k in keys})
    (tmp_path / "pytorch_model.bin.index.json").write_text(json.dumps({"weight_map": weight_map}))
    (tmp_path / "config.json").write_text((tiny["gpt2"] / "config.json").read_text())
    report = inspect(tmp_path)
    assert report.checkpoint.format == "pytorch-sharded"
    comp = component(report, "learned_absolute")
    torch.testing.assert_close(report.checkpoint.load(comp.tensor), state["transformer.wpe.weight"])


def test_saved_rotary_buffers_are_claimed_or_used(tmp_path):
    from safetensors.torch import save_file

    inv = default_inv_freq(8, 10000.0)
    save_file({"model.layers.0.self_attn.rotary_emb.inv_freq": inv, "model.layers.0.self_attn.q_proj.weight":
               torch.zeros(16, 16)}, tmp_path / "model.safetensors")
    report = inspect(tmp_path / "model.safetensors")  # no config: the buffer is the evidence
    comp = component(report, "rope")
    assert comp.params["rotary_dim"] == 8 and comp.tensor.endswith("inv_freq")
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 16,
                                                      "num_attention_heads": 2, "rope_theta": 10000.0}))
    report = inspect(tmp_path)
    assert kinds(report) == ["rope"] and report.warnings == ()  # the buffer is not a leftover


def test_unknown_position_tensors_are_reported(tmp_path):
    from safetensors.torch import save_file

    save_file({"blocks.0.attn.relative_position_bias_table": torch.zeros(49, 4)}, tmp_path / "swin.safetensors")
    report = inspect(tmp_path / "swin.safetensors")
    # named (BEiT / Swin 2-D relative bias), not "unknown"; and the closing line does not deny it
    assert kinds(report) == ["relative_bias_2d"] and report.warnings == ()
    assert component(report, "relative_bias_2d").params["window"] == [4, 4]  # (2·4 − 1)² = 49 rows, no class rows
    save_file({"blocks.0.attn.relative_position_bias_table": torch.zeros(50, 4)}, tmp_path / "odd.safetensors")
    assert any("relative_position_bias_table: 2-D relative position bias" in w and "fits no window" in w
               for w in inspect(tmp_path / "odd.safetensors").warnings)
    save_file({"blocks.0.attn.rel_pos_h": torch.zeros(13, 4)}, tmp_path / "other.safetensors")
    assert any("rel_pos_h looks position-related" in w for w in inspect(tmp_path / "other.safetensors").warnings)


def test_sharded_open_reports_progress_and_can_be_cancelled(tiny):
    from peapp.analysis.position_table import OpenCheckpointRequest
    from peapp.jobs import Cancelled

    seen = []
    OpenCheckpointRequest(str(tiny["gpt2_sharded"])).run(seen.append)
    assert seen[0] == 0.0 and seen[-1] == 1.0 and len(seen) >= 3 and seen == sorted(seen)

    def cancel(fraction):
        if fraction > 0:
            raise Cancelled

    with pytest.raises(Cancelled):
        OpenCheckpointRequest(str(tiny["gpt2_sharded"])).run(cancel)


def test_scaled_rope_from_a_checkpoint_matches_transformers(tiny):
    """llama3 scaling read from the checkpoint → the RoPE family's frequencies = transformers'."""
    from peapp.encodings.rope import rope_family_values
    from peapp.document import Document

    report = inspect(tiny["llama"])
    values = rope_family_values(component(report, "rope").params, report.checkpoint.config)
    spec = Document().with_params("rope", **values).spec("rope")
    expected, _ = _hf_inv_freq(tiny["llama"])
    ours, _ = spec.inv_freq()
    torch.testing.assert_close(ours.to(torch.float32), expected.to(torch.float32))
    assert not torch.allclose(expected, default_inv_freq(16, 500000.0))  # the scaling really changed them
