"""The cost measurement (peapp cost): each scheme's decoder is the model its paper describes
(Shaw's keys-and-values formula written out by hand as the reference), one generated token with a
cache gives the full forward's last logits, and Shaw's n × n × head_dim tensors show in memory."""

from __future__ import annotations

import math

import pytest
import torch

from peapp.analysis.cost import SCHEMES, SHAW_CLIP, ModelShape, _Decoder, measure_cost

SHAPE = ModelShape("test", 2, 16, 2, 11)


def test_shaw_is_the_papers_formula_on_keys_and_values():
    """Shaw et al. 2018 eq. (3)-(4): e_ij = q_i·(k_j + a^K_ij)/√d, z_i = Σ_j α_ij (v_j + a^V_ij),
    a_ij = w_clip(j − i, k); one layer's attention, written as loops, against the decoder's."""
    model = _Decoder("shaw", ModelShape("one", 1, 16, 2, 11), 12)
    tokens = torch.randint(0, 11, (12,), generator=torch.Generator().manual_seed(1))
    kept = []
    model.forward(tokens, keep_cache=kept)
    layer = model.layers[0]
    x = torch.nn.functional.layer_norm(model._input(tokens, torch.arange(12)), (16,))
    q = (x @ layer["qkv"])[:, :16].reshape(12, 2, 8).transpose(0, 1)
    k, v = kept[0]
    table_k, table_v = model.shaw[0]
    z = torch.zeros(2, 12, 8)
    for h in range(2):
        for i in range(12):
            e = torch.stack([q[h, i] @ (k[h, j] + table_k[max(-SHAW_CLIP, min(SHAW_CLIP, j - i)) + SHAW_CLIP])
                             / math.sqrt(8) for j in range(i + 1)])
            a = e.softmax(0)
            z[h, i] = sum(a[j] * (v[h, j] + table_v[max(-SHAW_CLIP, min(SHAW_CLIP, j - i)) + SHAW_CLIP])
                          for j in range(i + 1))
    mixed = z.transpose(0, 1).reshape(12, 16)
    want = model._mlp(model._input(tokens, torch.arange(12)), mixed, layer)
    want = torch.nn.functional.layer_norm(want[-1:], (16,)) @ model.head
    torch.testing.assert_close(model.forward(tokens), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_one_generated_token_with_a_cache_is_the_full_forward(scheme):
    n = 40  # past Shaw's clip (16) and T5's exact buckets
    model = _Decoder(scheme, SHAPE, n)
    tokens = torch.randint(0, 11, (n,), generator=torch.Generator().manual_seed(2))
    cache = []
    model.forward(tokens[:-1], keep_cache=cache)
    step = model.decode_step(int(tokens[-1]), cache, n - 1)
    torch.testing.assert_close(step, model.forward(tokens), rtol=1e-4, atol=1e-5)


def test_shaw_takes_memory_that_rope_does_not_and_big_cases_are_not_run():
    result = measure_cost(("lab",), ("shaw", "rope"), {"lab": (1024,)}, ("forward",), max_bytes=1 << 30)
    shaw, rope = result.find("lab", "shaw", 1024, "forward"), result.find("lab", "rope", 1024, "forward")
    assert shaw.run and rope.run and shaw.seconds > 0
    if result.memory_measured:
        # two [n, n, head_dim] float32 tensors: 2 · 1024² · 16 · 4 B = 128 MiB, one at a time
        assert shaw.peak_bytes > 50 * 2 ** 20 > 4 * rope.peak_bytes
        assert result.verdict().startswith("Agrees")
    small = measure_cost(("lab",), ("shaw",), {"lab": (65_536,)}, ("forward",), max_bytes=1 << 30)
    case = small.cases[0]
    assert not case.run and case.peak_bytes is None and "not run" in case.note
    assert case.predicted_bytes > 2 * 65_536 ** 2 * 16 * 4
