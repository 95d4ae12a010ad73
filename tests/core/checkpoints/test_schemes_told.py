"""Schemes peapp names without drawing them, and RoPE scalings it cannot use: each told truthfully,
on a tiny model saved by transformers 5.24 (or its config)."""

import json

import pytest
import torch
import transformers

from peapp.checkpoints import inspect

transformers.logging.set_verbosity_error()


def _save(model_or_config, path):
    torch.manual_seed(0)
    model_or_config.save_pretrained(path)
    return path


def test_xlnet_relative_sinusoids_are_named(tmp_path):
    path = _save(transformers.XLNetModel(transformers.XLNetConfig(d_model=16, n_layer=1, n_head=2, d_inner=32,
                                                                  vocab_size=99, clamp_len=64)), tmp_path / "x")
    report = inspect(path)
    assert report.components == () and report.layers is None  # no layer said to be NoPE on no evidence
    assert any("Transformer-XL relative positions" in w and "clamp_len 64" in w for w in report.warnings)
    assert "not one peapp knows" not in report.warnings[-1] and "does not draw" in report.warnings[-1]


def test_detr_sine_embedding_and_learned_queries_are_named(tmp_path):
    backbone = transformers.ResNetConfig(num_channels=3, embedding_size=8, hidden_sizes=[8, 8], depths=[1, 1],
                                         out_features=["stage2"])
    config = transformers.DetrConfig(use_timm_backbone=False, backbone_config=backbone, d_model=16, encoder_layers=1,
                                     decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2,
                                     encoder_ffn_dim=16, decoder_ffn_dim=16, num_queries=5,
                                     use_pretrained_backbone=False)
    model = transformers.DetrModel(config)
    report = inspect(_save(model, tmp_path / "detr"))
    assert any("2-D sine position embedding" in w and "8 dims for y" in w for w in report.warnings)
    assert any("query_position_embeddings.weight: 5 learned object queries × 16" in w for w in report.warnings)
    assert not any("looks position-related" in w for w in report.warnings)
    assert model.query_position_embeddings.weight.shape == (5, 16)


def test_wav2vec2_conv_embedding_is_one_warning(tmp_path):
    config = transformers.Wav2Vec2Config(hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                                         intermediate_size=32, conv_dim=(8, 8), conv_stride=(5, 2), conv_kernel=(10, 3),
                                         num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=2)
    report = inspect(_save(transformers.Wav2Vec2Model(config), tmp_path / "w"))
    conv = [w for w in report.warnings if "convolutional position embedding" in w and "does not draw" in w
            and "named in the warnings" not in w]
    assert len(conv) == 1 and "2 more of its tensors" in conv[0]
    assert "not one peapp knows" not in report.warnings[-1]


@pytest.mark.parametrize("scaling, key", [
    ({"rope_type": "linear"}, "linear scaling needs factor"),
    ({"rope_type": "linear", "factor": "2"}, "rope_scaling.factor must be a positive number, got '2'"),
    ({"rope_type": "weird", "factor": 2.0}, "rope_scaling.rope_type 'weird' is not a RoPE scaling"),
    ({"rope_type": "llama3", "factor": 8.0}, "llama3 scaling needs low_freq_factor"),
])
def test_unusable_scaling_is_a_warning_naming_the_key(tmp_path, scaling, key):
    cfg = {"model_type": "llama", "hidden_size": 32, "num_attention_heads": 2, "num_hidden_layers": 2,
           "rope_theta": 10000.0, "rope_scaling": scaling}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    report = inspect(tmp_path)
    rope = next(c for c in report.components if c.kind == "rope")
    assert "unusable" in rope.summary and "default scaling" not in rope.summary
    assert any(w.startswith("RoPE scaling unusable") and key in w for w in report.warnings), report.warnings
    assert all(layer.rope.scaling_problem for layer in report.layers.layers)
    assert "unusable" in report.layers.lines()[0]


def test_usable_scaling_is_not_flagged(tmp_path):
    transformers.LlamaConfig(hidden_size=32, num_attention_heads=2, num_hidden_layers=2, rope_parameters={
        "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 512, "rope_theta": 10000.0},
        max_position_embeddings=2048).save_pretrained(tmp_path)
    report = inspect(tmp_path)
    assert not any("unusable" in w for w in report.warnings)
    assert report.layers.lines() == ["layers 0–1 (2): RoPE base 10,000 yarn ×4, global"]


def test_gemma4_proportional_rope_on_its_global_layers(tmp_path):
    config = transformers.Gemma4TextConfig(hidden_size=16, num_hidden_layers=6, num_attention_heads=2,
                                           num_key_value_heads=1, head_dim=8, intermediate_size=32, vocab_size=99)
    report = inspect(_save(config, tmp_path / "g4"))
    assert any("'proportional'" in w and "Gemma 4 proportional RoPE" in w for w in report.warnings)
    layers = report.layers.layers
    assert [layer.layer_type for layer in layers] == config.layer_types
    full = [layer for layer in layers if layer.layer_type == "full_attention"]
    assert full and all(layer.rope.rope_type == "proportional" and layer.window is None for layer in full)
    params = config.rope_parameters["full_attention"]
    assert all(layer.rope.theta == params["rope_theta"] for layer in full)
    assert all(layer.rope.rotary_dim == int(layer.rope.head_dim * params["partial_rotary_factor"]) for layer in full)
    assert all(layer.rope.rope_type == "default" and layer.window == config.sliding_window
               for layer in layers if layer.layer_type == "sliding_attention")


def test_a_sin_cos_table_stored_as_a_learned_one_is_told_fixed(tmp_path):
    from peapp.encodings import sinusoidal

    model = transformers.GPT2Model(transformers.GPT2Config(n_embd=16, n_layer=1, n_head=2, n_positions=32,
                                                           vocab_size=99))
    with torch.no_grad():
        model.wpe.weight.copy_(sinusoidal.table(32, 16, layout="interleaved"))
    report = inspect(_save(model, tmp_path / "g"))
    comp = next(c for c in report.components if c.kind == "learned_absolute")
    assert comp.params["fixed"] is True and comp.params["sincos_residual"] < 1e-5
    assert "fixed 1-D interleaved sin-cos table" in comp.summary


def test_patchtst_sincos_values_fit_after_its_normalisation(tmp_path):
    config = transformers.PatchTSTConfig(num_input_channels=2, context_length=32, patch_length=8, patch_stride=8,
                                         d_model=16, num_hidden_layers=1, num_attention_heads=2, ffn_dim=20)
    model = transformers.PatchTSTModel(config)
    report = inspect(_save(model, tmp_path / "p"))
    comp = next(c for c in report.components if c.kind == "learned_absolute")
    assert comp.params["fixed"] is True and comp.params["sincos_residual"] < 1e-5
