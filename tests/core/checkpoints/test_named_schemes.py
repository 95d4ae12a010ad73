"""Schemes from the issue's list, each on a tiny model saved by transformers (built per test module)."""

import math

import numpy as np
import pytest
import torch
import transformers

from peapp.checkpoints import inspect
from peapp.encodings import sinusoidal

transformers.logging.set_verbosity_error()
TINY = dict(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37, vocab_size=99)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("named")
    torch.manual_seed(0)
    models = {
        "distilbert": transformers.DistilBertModel(transformers.DistilBertConfig(
            dim=32, n_layers=1, n_heads=2, hidden_dim=37, vocab_size=99, max_position_embeddings=40,
            sinusoidal_pos_embds=True)),
        "deberta": transformers.DebertaV2Model(transformers.DebertaV2Config(
            **TINY, relative_attention=True, position_buckets=16, max_relative_positions=32)),
        "esm": transformers.EsmModel(transformers.EsmConfig(**TINY, position_embedding_type="rotary", pad_token_id=1,
                                                            max_position_embeddings=40)),
    }
    paths = {}
    for name, model in models.items():
        model.save_pretrained(root / name, safe_serialization=True)
        paths[name] = root / name
    cohere2 = transformers.Cohere2Config(**{**TINY, "num_hidden_layers": 2}, layer_types=["sliding_attention", "full_attention"])
    cohere2.save_pretrained(root / "cohere2")
    paths["cohere2"] = root / "cohere2"
    qwen2vl = transformers.Qwen2VLTextConfig(**TINY, rope_parameters={"rope_type": "default", "rope_theta": 1e6,
                                                                     "mrope_section": [2, 3, 3]})
    qwen2vl.save_pretrained(root / "qwen2vl")
    paths["qwen2vl"] = root / "qwen2vl"
    return paths, models


def test_distilbert_sinusoidal_table_is_fixed(saved):
    paths, models = saved
    comp = next(c for c in inspect(paths["distilbert"]).components if c.kind == "sinusoidal")
    assert comp.params["layout"] == "interleaved" and comp.tensor.endswith("position_embeddings.weight")
    stored = models["distilbert"].embeddings.position_embeddings.weight.detach().numpy()
    np.testing.assert_allclose(sinusoidal.table(40, 32, layout="interleaved").numpy(), stored, atol=1e-5)


def test_deberta_relative_positions_are_named(saved):
    report = inspect(saved[0]["deberta"])
    assert any("rel_embeddings" in w and "DeBERTa disentangled" in w for w in report.warnings), report.warnings
    assert not any("not one peapp knows, and no tensor name" in w for w in report.warnings)


def test_esm_inv_freq_is_part_of_its_rope(saved):
    report = inspect(saved[0]["esm"])
    assert any(c.kind == "rope" for c in report.components)
    assert not any("inv_freq" in w for w in report.warnings), report.warnings


def test_cohere2_full_attention_layers_have_no_rope(saved):
    report = inspect(saved[0]["cohere2"])
    nope = next(c for c in report.components if c.kind == "nope")
    assert nope.params["layers"] == [1] and nope.params["layer_types"] == ["full_attention"]
    rope = next(c for c in report.components if c.kind == "rope")
    assert rope.params["layout"] == "interleaved"


def test_mrope_sections_in_the_summary(saved):
    rope = next(c for c in inspect(saved[0]["qwen2vl"]).components if c.kind == "rope")
    assert "M-RoPE sections [2, 3, 3]" in rope.summary


def test_a_wrong_typed_rope_theta_is_one_clear_warning(tmp_path):
    import json

    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 64,
                                                      "num_attention_heads": 2, "rope_theta": "abc"}))
    report = inspect(tmp_path)
    assert report.components == ()
    assert any("rope_theta must be a number, got 'abc'" in w for w in report.warnings)
    assert "could not be read" in report.warnings[-1] and "live in its weights" not in report.warnings[-1]


V = dict(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37, image_size=32, patch_size=8)


@pytest.fixture(scope="module")
def towers(tmp_path_factory):
    root = tmp_path_factory.mktemp("towers")
    torch.manual_seed(0)
    models = {
        "clip_vision": transformers.CLIPVisionModel(transformers.CLIPVisionConfig(**V)),
        "siglip_vision": transformers.SiglipVisionModel(transformers.SiglipVisionConfig(**V)),
        "vit_mae": transformers.ViTMAEForPreTraining(transformers.ViTMAEConfig(
            **V, decoder_hidden_size=16, decoder_num_hidden_layers=1, decoder_num_attention_heads=2,
            decoder_intermediate_size=20)),
        "whisper": transformers.WhisperModel(transformers.WhisperConfig(
            d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2,
            encoder_ffn_dim=37, decoder_ffn_dim=37, vocab_size=99, pad_token_id=0, bos_token_id=1, eos_token_id=2,
            decoder_start_token_id=1, max_source_positions=30, max_target_positions=20, num_mel_bins=8)),
    }
    # the tables as pretrained ViT-MAE checkpoints hold them (a fresh model in transformers 5.24 saves
    # zeros): transformers' own builder, h/w halves swapped as its initialize_weights does
    from transformers.models.vit_mae.modeling_vit_mae import build_2d_sinusoidal_position_embedding

    mae = models["vit_mae"]
    models["vit_mae_trained"] = trained = transformers.ViTMAEForPreTraining(mae.config)
    with torch.no_grad():
        for model, noise in ((mae, 0.0), (trained, 0.05)):
            for param in (model.vit.embeddings.position_embeddings, model.decoder.decoder_pos_embed):
                table = build_2d_sinusoidal_position_embedding(4, 4, param.shape[-1], cls_token=True)
                half = table.shape[-1] // 2
                table = torch.cat([table[..., half:], table[..., :half]], dim=-1).float()
                param.copy_((table + noise * torch.randn_like(table)).unsqueeze(0))
    for name, model in models.items():
        model.save_pretrained(root / name)
    return {name: root / name for name in models}


@pytest.mark.parametrize("name, prefix", [("clip_vision", 1), ("siglip_vision", 0)])
def test_vision_tower_saved_alone_is_a_patch_table(towers, name, prefix):
    report = inspect(towers[name])
    comp = next(c for c in report.components)
    assert [c.kind for c in report.components] == ["vision_learned_2d"]
    assert comp.params["grid"] == [4, 4] and comp.params["prefix_tokens"] == prefix


def test_vit_mae_tables_are_fixed_sin_cos(towers):
    report = inspect(towers["vit_mae"])
    tables = {c.tensor: c for c in report.components if c.kind == "vision_learned_2d"}
    assert set(tables) == {"vit.embeddings.position_embeddings", "decoder.decoder_pos_embed"}
    for comp in tables.values():
        assert comp.params["fixed"] is True and "sin-cos" in comp.summary and comp.params["grid"] == [4, 4]
    assert not any("decoder_pos_embed" in w for w in report.warnings)


def test_a_trained_mae_table_is_told_from_its_values(towers):
    """Same model type, values moved off the sin-cos table: shown as trained, with a warning."""
    report = inspect(towers["vit_mae_trained"])
    tables = [c for c in report.components if c.kind == "vision_learned_2d"]
    assert len(tables) == 2 and not any(c.params.get("fixed") for c in tables)
    assert all("trained" in c.summary and c.params["sincos_residual"] > 0.01 for c in tables)
    assert sum("stored values do not fit" in w for w in report.warnings) == 2


def test_whisper_encoder_table_says_its_formula(towers):
    report = inspect(towers["whisper"])
    comp = next(c for c in report.components if c.kind == "sinusoidal")
    assert comp.tensor == "encoder.embed_positions.weight" and comp.params["formula"] == "whisper"
    # the formula named is the one the model computed: ω_i = 10000^(−i/(d/2 − 1)), [sin | cos]
    model = transformers.WhisperModel.from_pretrained(towers["whisper"])
    stored = model.encoder.embed_positions.weight.detach().double()
    half = 16
    omega = torch.exp(-math.log(10000) / (half - 1) * torch.arange(half, dtype=torch.float64))
    angles = torch.arange(30, dtype=torch.float64)[:, None] * omega[None]
    torch.testing.assert_close(stored, torch.cat([angles.sin(), angles.cos()], 1), atol=1e-6, rtol=0)


@pytest.fixture(scope="module")
def speech_and_long(tmp_path_factory):
    root = tmp_path_factory.mktemp("speech")
    models = {
        "w2vbert": transformers.Wav2Vec2BertModel(transformers.Wav2Vec2BertConfig(
            hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37, output_hidden_size=32,
            position_embeddings_type="relative_key", left_max_position_embeddings=8, right_max_position_embeddings=3,
            feature_projection_input_dim=16)),
        "longt5": transformers.LongT5Model(transformers.LongT5Config(
            d_model=32, d_kv=16, d_ff=37, num_layers=1, num_heads=2, vocab_size=99,
            encoder_attention_type="transient-global")),
    }
    for name, model in models.items():
        model.save_pretrained(root / name)
    return {name: root / name for name in models}


def test_asymmetric_shaw_window_is_read_and_no_rope_invented(speech_and_long):
    report = inspect(speech_and_long["w2vbert"])
    assert [c.kind for c in report.components] == ["shaw_relative"]  # rotary_embedding_base alone is not RoPE
    comp = report.components[0]
    assert (comp.params["left"], comp.params["right"]) == (8, 3) and "−8 … +3" in comp.summary
    assert any("asymmetric Shaw window" in w for w in report.warnings)


def test_longt5_global_bias_is_named(speech_and_long):
    report = inspect(speech_and_long["longt5"])
    assert sorted(c.kind for c in report.components) == ["t5_relative_bias", "t5_relative_bias"]
    assert any("global_relative_attention_bias" in w and "LongT5 transient-global" in w for w in report.warnings)


@pytest.fixture(scope="module")
def series_and_roformer(tmp_path_factory):
    root = tmp_path_factory.mktemp("series")
    torch.manual_seed(0)
    small = dict(num_input_channels=2, context_length=32, patch_length=8, patch_stride=8, d_model=16,
                 num_hidden_layers=1, num_attention_heads=2, ffn_dim=20)
    models = {
        "patchtst": transformers.PatchTSTModel(transformers.PatchTSTConfig(**small)),
        "patchtst_random": transformers.PatchTSTModel(transformers.PatchTSTConfig(**small,
                                                                                  positional_encoding_type="random")),
        "roformer": transformers.RoFormerModel(transformers.RoFormerConfig(**TINY, max_position_embeddings=40,
                                                                           embedding_size=32)),
    }
    for name, model in models.items():
        model.save_pretrained(root / name)
    return {name: root / name for name in models}, models


@pytest.mark.parametrize("name, word", [("patchtst", "fixed sin-cos"), ("patchtst_random", "random (learned)")])
def test_patchtst_table_says_fixed_or_learned(series_and_roformer, name, word):
    comp = next(c for c in inspect(series_and_roformer[0][name]).components)
    assert comp.kind == "learned_absolute" and word in comp.summary and comp.params["positions"] == 4


def test_roformer_sinusoid_table_is_its_rope(series_and_roformer):
    from peapp.encodings.rope import RopeSpec, rope_family_values

    paths, models = series_and_roformer
    report = inspect(paths["roformer"])
    assert [c.kind for c in report.components] == ["rope"] and report.warnings == ()
    rope = report.components[0]
    assert rope.params["layout"] == "interleaved"
    inv, _ = RopeSpec.from_dict(rope_family_values(rope.params, report.checkpoint.config)).inv_freq()
    table = models["roformer"].encoder.embed_positions.weight.detach().double()  # [sin | cos] of pos·ω_i
    half = table.shape[1] // 2
    angles = torch.atan2(table[1, :half], table[1, half:])
    torch.testing.assert_close(inv.double(), angles, rtol=1e-6, atol=1e-7)


def test_qwen2_vl_vision_rope_is_named(tmp_path):
    config = transformers.Qwen2VLConfig(text_config=dict(**TINY, rope_parameters={
        "rope_type": "default", "rope_theta": 1e6, "mrope_section": [2, 3, 3]}),
        vision_config=dict(depth=1, embed_dim=32, num_heads=2, hidden_size=32))
    config.save_pretrained(tmp_path)
    report = inspect(tmp_path)
    rope = next(c for c in report.components if c.kind == "rope")
    assert "M-RoPE sections [2, 3, 3]" in rope.summary
    assert any(w.startswith("vision_config: the vision tower uses 2-D RoPE") for w in report.warnings), report.warnings
