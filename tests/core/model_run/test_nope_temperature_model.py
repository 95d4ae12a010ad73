"""A Llama 4 NoPE layer's attention entropy with and without its temperature, from its own q and k,
against transformers' eager attention weights (output_attentions) with tuning on and off."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.model_run.conftest import VOCAB, _save

N = 40


@pytest.fixture(scope="module")
def tiny_llama4(tmp_path_factory):
    import torch
    from transformers import Llama4ForCausalLM, Llama4TextConfig

    torch.manual_seed(0)
    cfg = Llama4TextConfig(hidden_size=32, intermediate_size=64, intermediate_size_mlp=64, num_hidden_layers=2,
                           num_attention_heads=4, num_key_value_heads=2, head_dim=8, no_rope_layers=[1, 0],
                           attn_temperature_tuning=True, floor_scale=6, attn_scale=0.5, vocab_size=VOCAB,
                           num_local_experts=1, interleave_moe_layer_step=1, moe_layers=[],
                           max_position_embeddings=128)
    return _save(Llama4ForCausalLM(cfg).eval(), tmp_path_factory.mktemp("llama4"))


def _eager_entropy(folder, ids, tuning):
    import torch
    from transformers import AutoConfig, Llama4ForCausalLM

    config = AutoConfig.from_pretrained(folder)
    config.attn_temperature_tuning = tuning
    model = Llama4ForCausalLM.from_pretrained(folder, config=config, attn_implementation="eager").eval()
    with torch.no_grad():
        weights = model(torch.tensor([ids]), output_attentions=True).attentions[1][0]  # layer 1: NoPE
    logw = torch.log(weights.clamp_min(1e-30))
    return (-(weights * logw).sum(-1)).mean(0).double().numpy()


def test_entropy_with_and_without_equals_transformers(tiny_llama4):
    from peapp.model_run.temperature import nope_entropy

    ids = np.random.default_rng(0).integers(1, VOCAB, N).tolist()
    result = nope_entropy(tiny_llama4, ids)
    assert result.layer == 1 and result.settings.tuning and result.settings.floor_scale == 6
    np.testing.assert_allclose(result.with_scale, _eager_entropy(tiny_llama4, ids, True), atol=2e-5)
    np.testing.assert_allclose(result.without_scale, _eager_entropy(tiny_llama4, ids, False), atol=2e-5)
    assert np.all(result.with_scale[:5] == pytest.approx(result.without_scale[:5]))  # scale 1 before position 5
    assert result.with_scale[-1] < result.without_scale[-1]  # sharper once the scale rises


def test_not_llama4_and_bad_layer_are_refused(tiny_llama4, tiny_llama):
    from peapp.errors import ParameterError
    from peapp.model_run.temperature import nope_entropy

    with pytest.raises(ParameterError, match="not a model with NoPE layers"):
        nope_entropy(tiny_llama, [1, 2, 3])
    with pytest.raises(ParameterError, match="not a NoPE layer"):
        nope_entropy(tiny_llama4, [1, 2, 3], layer=0)


def test_scale_curve_steps_and_config():
    from peapp.analysis.temperature import read_config, scale_curve, seeded_entropy

    curve = scale_curve(40, attn_scale=0.1, floor_scale=8)
    assert curve.steps.tolist() == [7, 15, 23, 31, 39]
    assert curve.llama4[6] == 1.0 and curve.llama4[7] == pytest.approx(1 + 0.1 * np.log(2))
    settings = read_config({"model_type": "llama4", "text_config": {"model_type": "llama4_text",
                            "attn_temperature_tuning": True, "attn_scale": 0.1, "floor_scale": 8192,
                            "no_rope_layers": [1, 1, 1, 0]}})
    assert settings.nope_layers == (3,) and settings.tuning and settings.floor_scale == 8192
    seeded = seeded_entropy(64, read_config({"floor_scale": 4, "attn_scale": 1.0}))
    assert seeded.with_scale[-1] < seeded.without_scale[-1] <= np.log(64) + 1e-9
