"""NoPE's temperature: Llama 4's tuning equals what transformers' Llama4TextAttention does to
the query on a NoPE layer; Scalable-Softmax's s·log n."""

from __future__ import annotations

import math

import pytest
import torch

from peapp.encodings.nope import log_n_scale, temperature_scale
from peapp.errors import ParameterError


def _queries(tuning: bool, floor_scale: int, n: int) -> torch.Tensor:
    """The query a Llama 4 NoPE layer hands the attention function, captured there."""
    from transformers import AttentionInterface, Llama4TextConfig
    from transformers.models.llama4.modeling_llama4 import Llama4TextAttention

    seen = []

    def capture(module, query, key, value, attention_mask, **kwargs):
        seen.append(query.detach().clone())
        return torch.zeros_like(query).transpose(1, 2), None

    AttentionInterface.register("peapp_test_capture", capture)
    cfg = Llama4TextConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                           num_key_value_heads=2, head_dim=8, no_rope_layers=[1, 0], attn_temperature_tuning=tuning,
                           floor_scale=floor_scale, attn_scale=0.25, vocab_size=16)
    cfg._attn_implementation = "peapp_test_capture"
    torch.manual_seed(0)
    layer = Llama4TextAttention(cfg, layer_idx=1).eval()  # no_rope_layers[1] == 0: a NoPE layer
    assert not layer.use_rope
    with torch.no_grad():
        layer(torch.randn(1, n, 32), position_embeddings=None, attention_mask=None)
    return seen[0]  # (batch, heads, n, head_dim)


def test_llama4_temperature_equals_transformers_on_a_nope_layer():
    n, floor_scale = 40, 6
    plain, tuned = _queries(False, floor_scale, n), _queries(True, floor_scale, n)
    scale = temperature_scale(torch.arange(n), attn_scale=0.25, floor_scale=floor_scale)
    torch.testing.assert_close(tuned, plain * scale.view(1, 1, n, 1), rtol=0, atol=1e-6)
    # the steps: constant 1 below floor_scale − 1, then up at each multiple
    assert torch.all(scale[: floor_scale - 1] == 1.0) and scale[floor_scale - 1] > 1.0
    assert scale[floor_scale - 1] == pytest.approx(1 + 0.25 * math.log(2))


def test_log_n_scale_and_bad_floor():
    torch.testing.assert_close(log_n_scale(torch.tensor([1, 10, 100]), s=0.5),
                               torch.tensor([0.0, 0.5 * math.log(10), 0.5 * math.log(100)]))
    with pytest.raises(ParameterError, match="floor_scale"):
        temperature_scale(torch.arange(3), floor_scale=0)
