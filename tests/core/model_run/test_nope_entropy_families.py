"""A NoPE layer's attention entropy with and without a temperature, from a real model's own q and k,
for every family with NoPE layers (Llama 4's no-rope layers, SmolLM3's, Command R7B's global
layers), against transformers' own eager attention weights."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.model_run.families import VOCAB, build

N = 24
NOPE_LAYER = 1  # families.py: no_rope_layers [1, 0]; cohere2 layer_types [sliding, full]


@pytest.fixture(scope="module", params=["llama4_text", "smollm3", "cohere2"])
def family_folder(request, tmp_path_factory):
    """The family's tiny model with q and k weights × 6: at the default init its attention is nearly
    uniform, and a temperature would change its entropy by less than float noise."""
    import os

    from safetensors.torch import load_file, save_file

    folder = build(request.param, str(tmp_path_factory.mktemp(request.param)), seed=0)
    path = os.path.join(folder, "model.safetensors")
    weights = load_file(path)
    for name in weights:
        if name.endswith(("q_proj.weight", "k_proj.weight")):
            weights[name] = weights[name] * 6.0
    save_file(weights, path, metadata={"format": "pt"})
    return request.param, folder


def _eager_weights(folder, ids, **config_changes):
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.from_pretrained(folder)
    for key, value in config_changes.items():
        setattr(config, key, value)
    model = AutoModelForCausalLM.from_pretrained(folder, config=config, attn_implementation="eager").eval()
    with torch.no_grad():
        return model(torch.tensor([ids]), output_attentions=True).attentions[NOPE_LAYER][0].double()


def _entropy(weights):
    logw = np.log(np.clip(weights, 1e-300, None))
    return (-(weights * logw).sum(-1)).mean(0)


def _rescaled(weights, scale):
    """softmax(s_p · logits_p) from softmax(logits_p): log w differs from the logits by a constant per row."""
    import torch

    logw = torch.log(weights.clamp_min(1e-300))
    causal = torch.ones(weights.shape[-2:], dtype=torch.bool).tril()
    logits = (logw * scale.reshape(1, -1, 1)).masked_fill(~causal, float("-inf"))
    return torch.softmax(logits, dim=-1).numpy()


def test_without_and_with_equal_transformers_eager_attention(family_folder):
    import torch

    from peapp.encodings.nope import temperature_scale
    from peapp.model_run.temperature import nope_entropy

    family, folder = family_folder
    ids = np.random.default_rng(1).integers(1, VOCAB, N).tolist()
    result = nope_entropy(folder, ids, floor_scale=None if family == "llama4_text" else 4.0,
                          attn_scale=None if family == "llama4_text" else 0.5)
    assert result.layer == NOPE_LAYER and result.settings.nope_layers == (NOPE_LAYER,)
    plain = _eager_weights(folder, ids, **({"attn_temperature_tuning": False} if family == "llama4_text" else {}))
    np.testing.assert_allclose(result.without_scale, _entropy(plain.numpy()), atol=1e-4)
    scale = temperature_scale(torch.arange(N), 0.5, 4.0).double()  # families.py's Llama 4: 0.5, 4
    np.testing.assert_allclose(result.with_scale, _entropy(_rescaled(plain, scale)), atol=1e-4)
    if family == "llama4_text":  # the model applies the scale itself: "with" is its own attention
        assert result.settings.tuning and not result.notes
        np.testing.assert_allclose(result.with_scale, _entropy(_eager_weights(folder, ids).numpy()), atol=1e-4)
    else:
        assert not result.settings.tuning and result.notes
    assert np.allclose(result.with_scale[:3], result.without_scale[:3])  # the scale is 1 before position 3
    assert np.abs(result.with_scale[3:] - result.without_scale[3:]).max() > 0.05  # far above the tolerance


def test_a_model_without_the_scale_in_its_config_gets_llama4s_defaults_said(family_folder):
    from peapp.model_run.temperature import nope_entropy

    family, folder = family_folder
    result = nope_entropy(folder, list(range(1, 12)))
    if family == "llama4_text":  # its config has its own attn_scale and floor_scale: no defaults said
        assert not any("Llama 4's defaults" in note for note in result.notes)
        return
    assert (result.settings.attn_scale, result.settings.floor_scale) == (0.1, 8192)
    assert "Llama 4's defaults" in result.notes[0]
    np.testing.assert_allclose(result.with_scale, result.without_scale)  # no step below position 8,191


def test_a_rotated_layer_is_refused_and_the_nope_layers_named(family_folder):
    from peapp.errors import ParameterError
    from peapp.model_run.temperature import nope_entropy

    _family, folder = family_folder
    with pytest.raises(ParameterError, match="not a NoPE layer; NoPE layers: 1"):
        nope_entropy(folder, [1, 2, 3], layer=0)
