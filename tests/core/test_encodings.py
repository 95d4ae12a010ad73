"""The encoding families against closed forms, the reference check values and transformers."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from peapp.encodings import alibi, families, get, learned, relative, rope, sinusoidal
from peapp.errors import ParameterError, PositionOutOfRangeError, SizeError


# ---- sinusoidal ---------------------------------------------------------------------------------
def test_sinusoidal_check_value_d8_pos1():
    expected = [0.841471, 0.540302, 0.099833, 0.995004, 0.01, 0.99995, 0.001, 1.0]
    np.testing.assert_allclose(sinusoidal.table(2, 8)[1].numpy(), expected, atol=1e-6)


def test_sinusoidal_matches_the_seed_articles_module():
    # the PyTorch module in the article: div_term = exp(arange(0, d, 2) * -ln(10000)/d)
    d, n = 128, 50
    position = torch.arange(n, dtype=torch.float64).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, d, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(position * div_term), torch.cos(position * div_term)
    np.testing.assert_allclose(sinusoidal.table(n, d).numpy(), pe.numpy(), atol=1e-6)


def _float64_sinusoid(positions: torch.Tensor, d: int, base: float = 10000.0,
                      layout: str = "interleaved") -> torch.Tensor:
    angles = positions.to(torch.float64).reshape(-1, 1) * sinusoidal.inv_freq(d, base).reshape(1, -1)
    if layout == "interleaved":
        return torch.stack((torch.sin(angles), torch.cos(angles)), dim=-1).reshape(len(positions), d)
    return torch.cat((torch.sin(angles), torch.cos(angles)), dim=-1)


# table() rotates exact block phases by angle addition in float32; its error must stay below
# the bound of float32 angles (1e-5 + 5e-7·angle) everywhere, and in fact below 5e-7 at any angle.
TABLE_ERROR = 5e-7


def test_sinusoidal_table_at_100k_positions_is_within_float32_rounding_of_float64():
    n, d = 100_000, 1024
    t = sinusoidal.table(n, d)
    assert t.shape == (n, d) and t.dtype == torch.float32
    # every 7th row (7 is prime to the 64-row blocks: every offset inside a block is checked) and
    # the last block's rows, against a float64 reference
    rows = torch.cat((torch.arange(0, n, 7), torch.arange(n - 64, n)))
    err = (t[rows].to(torch.float64) - _float64_sinusoid(rows, d)).abs().max()
    assert float(err) <= TABLE_ERROR, float(err)


@pytest.mark.parametrize("layout", sinusoidal.LAYOUTS)
@pytest.mark.parametrize("n, d, base", [(1, 2, 10000.0), (63, 8, 10000.0), (65, 6, 500.0), (4099, 34, 1e6)])
def test_sinusoidal_table_odd_sizes_and_layouts_match_float64(layout, n, d, base):
    t = sinusoidal.table(n, d, base, layout).to(torch.float64)
    err = (t - _float64_sinusoid(torch.arange(n), d, base, layout)).abs().max()
    assert float(err) <= TABLE_ERROR


def test_sinusoidal_table_at_the_largest_angles():
    # the last rows of the longest table the app allows: angles up to ~10^6 rad in pair 0
    n = sinusoidal.MAX_POSITIONS
    t = sinusoidal.table(n, 4)
    angles = torch.arange(n - 4096, n, dtype=torch.float64).reshape(-1, 1) * sinusoidal.inv_freq(4).reshape(1, -1)
    err = (t[-4096:].to(torch.float64) - _float64_sinusoid(torch.arange(n - 4096, n), 4)).abs()
    assert float(err.max()) <= TABLE_ERROR
    # float32 angles would be allowed 1e-5 + 5e-7·angle (≈ 0.5 here); this is the bound asked for
    bound = 1e-5 + 5e-7 * torch.repeat_interleave(angles, 2, dim=1)
    assert bool((err <= bound).all())


def test_concatenated_layout_is_a_permutation_of_interleaved():
    a = sinusoidal.table(30, 16, layout="interleaved")
    b = sinusoidal.table(30, 16, layout="concatenated")
    order = list(range(0, 16, 2)) + list(range(1, 16, 2))
    torch.testing.assert_close(a[:, order], b)


def test_sinusoidal_bounded_and_wavelengths_geometric():
    t = sinusoidal.table(1000, 64, base=500.0)
    assert float(t.abs().max()) <= 1.0
    w = sinusoidal.wavelengths(64, 500.0)[0::2]
    assert w[0] == pytest.approx(2 * math.pi)
    ratios = w[1:] / w[:-1]
    np.testing.assert_allclose(ratios, ratios[0], rtol=1e-9)
    assert w[-1] < 500.0 * 2 * math.pi


def test_sinusoidal_position_zero_is_the_articles_vector():
    np.testing.assert_allclose(sinusoidal.table(1, 4)[0].numpy(), [0, 1, 0, 1], atol=1e-7)


def test_too_large_table_is_refused_before_allocating():
    with pytest.raises(SizeError, match="GiB"):
        sinusoidal.table(10**7, 4096)


# ---- learned --------------------------------------------------------------------------------------
def test_learned_table_refuses_position_past_its_end():
    table = learned.LearnedTable.random(2048, 8)
    assert table.lookup(torch.tensor([2047])).shape == (1, 8)
    with pytest.raises(PositionOutOfRangeError, match="2,049 tokens"):
        table.lookup(torch.arange(2049))


def test_learned_table_offset_and_seed():
    weight = torch.arange(12.0).reshape(6, 2)
    table = learned.LearnedTable(weight, offset=2)
    assert table.max_positions == 4
    torch.testing.assert_close(table.lookup(torch.tensor([0])), weight[2:3])
    a = learned.LearnedTable.random(10, 4, seed=1).weight
    b = learned.LearnedTable.random(10, 4, seed=1).weight
    torch.testing.assert_close(a, b)
    assert float(a.std()) == pytest.approx(0.02, rel=0.5)


def test_learned_spec_rejects_more_positions_than_rows():
    with pytest.raises(ParameterError, match="does not exist"):
        get("learned").make_spec({"n_positions": 2049, "max_positions": 2048})


# ---- RoPE -----------------------------------------------------------------------------------------
def test_rope_inv_freq_check_values():
    inv = rope.default_inv_freq(128, 1e4)
    np.testing.assert_allclose(inv[:3].numpy(), [1.0, 0.865964, 0.749894], rtol=1e-5)
    assert float(inv[-1]) == pytest.approx(1.1548e-4, rel=1e-3)


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_rope_keeps_norms_and_depends_only_on_distance(layout):
    gen = torch.Generator().manual_seed(0)
    q, k = torch.randn(64, generator=gen), torch.randn(64, generator=gen)
    inv = rope.default_inv_freq(64)

    def rotated(x, pos):
        return rope.apply(x.reshape(1, -1), torch.tensor([pos]), inv, layout)[0]

    for pos in (0, 7, 1000):
        assert float(rotated(q, pos).norm()) == pytest.approx(float(q.norm()), rel=1e-5)
    base = float(rotated(q, 10) @ rotated(k, 3))
    for shift in (1, 50, 5000):
        assert float(rotated(q, 10 + shift) @ rotated(k, 3 + shift)) == pytest.approx(base, rel=1e-3, abs=1e-3)


def test_rope_layouts_agree_after_permuting_pairs():
    x = torch.randn(5, 8, generator=torch.Generator().manual_seed(1))
    inv = rope.default_inv_freq(8)
    pos = torch.arange(5)
    half = rope.apply(x, pos, inv, "half")
    perm = [0, 4, 1, 5, 2, 6, 3, 7]  # half-split pair (i, i+4) -> interleaved pair (2i, 2i+1)
    inter = rope.apply(x[:, perm], pos, inv, "interleaved")
    torch.testing.assert_close(half[:, perm], inter, rtol=1e-5, atol=1e-5)


def test_partial_rotary_passes_the_rest_through():
    spec = rope.RopeSpec(head_dim=16, partial_rotary_factor=0.5)
    inv, _ = spec.inv_freq()
    x = torch.randn(3, 16)
    out = rope.apply(x, torch.arange(3), inv)
    torch.testing.assert_close(out[:, 8:], x[:, 8:])
    assert not torch.allclose(out[1:, :8], x[1:, :8])


def test_rope_cos_sin_match_transformers_llama():
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = LlamaConfig(hidden_size=256, num_attention_heads=4, rope_theta=10000.0, max_position_embeddings=512)
    module = LlamaRotaryEmbedding(config)
    positions = torch.arange(300)
    x = torch.zeros(1, 300, 64)
    cos_ref, sin_ref = module(x, positions.unsqueeze(0))
    cos, sin = rope.RopeSpec(head_dim=64, base=10000.0).cos_sin(positions)
    torch.testing.assert_close(cos, cos_ref[0], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(sin, sin_ref[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("head_dim, n", [(2, 5000), (6, 5000), (34, 5000), (80, 5000), (200, 5000), (128, 131_072)])
def test_rope_cos_sin_are_transformers_bit_for_bit(head_dim, n):
    # cos/sin are written half by half into fresh tables (strided out=): every width, any length
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = LlamaConfig(hidden_size=4 * head_dim, num_attention_heads=4, head_dim=head_dim, rope_theta=10000.0,
                         max_position_embeddings=n)
    positions = torch.arange(n)
    cos_ref, sin_ref = LlamaRotaryEmbedding(config)(torch.zeros(1), positions[None])
    cos, sin = rope.RopeSpec(head_dim=head_dim, base=10000.0).cos_sin(positions)
    assert torch.equal(cos, cos_ref[0]) and torch.equal(sin, sin_ref[0])


# ---- ALiBi ---------------------------------------------------------------------------------------
def test_alibi_slopes_check_and_geometric():
    np.testing.assert_allclose(alibi.slopes(8).numpy(), [2.0 ** -(i + 1) for i in range(8)])
    s = alibi.slopes(16).numpy()
    np.testing.assert_allclose(s[1:] / s[:-1], s[1] / s[0], rtol=1e-6)


@pytest.mark.parametrize("n_heads", [1, 2, 3, 5, 6, 8, 12, 16, 20, 24, 32, 40, 64, 112])
def test_alibi_slopes_match_bloom(n_heads):
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    mask = torch.ones(1, 4)
    # BLOOM's alibi is slope * key_index; at key index 1 it is the slope itself
    bloom = build_alibi_tensor(mask, n_heads, torch.float32).reshape(n_heads, 4)[:, 1]
    np.testing.assert_allclose(alibi.slopes(n_heads).numpy(), bloom.numpy(), rtol=1e-6)


def test_alibi_bias_canonical_form():
    b = alibi.bias(4, 6, causal=True)
    s = alibi.slopes(4)
    for i in range(6):
        for j in range(6):
            if j > i:
                assert torch.isinf(b[:, i, j]).all()
            else:
                torch.testing.assert_close(b[:, i, j], -s * (i - j))
    sym = alibi.bias(4, 6, causal=False)
    torch.testing.assert_close(sym, sym.transpose(1, 2))


# ---- relative -------------------------------------------------------------------------------------
def test_t5_bucket_check_values():
    rel = torch.tensor([-200, -64, -8, -1, 0, 1, 8, 64, 200])
    expected = [15, 14, 8, 1, 0, 17, 24, 30, 31]
    assert relative.t5_bucket(rel, True, 32, 128).tolist() == expected


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize("num_buckets,max_distance", [(32, 128), (16, 64), (64, 256)])
def test_t5_bucket_matches_transformers(bidirectional, num_buckets, max_distance):
    from transformers.models.t5.modeling_t5 import T5Attention

    rel = torch.arange(-600, 601)
    ref = T5Attention._relative_position_bucket(rel, bidirectional=bidirectional, num_buckets=num_buckets,
                                                max_distance=max_distance)
    assert torch.equal(relative.t5_bucket(rel, bidirectional, num_buckets, max_distance), ref)


def test_t5_bucket_monotonic_in_distance():
    for sign in (1, -1):
        distances = torch.arange(0, 1000) * sign
        buckets = relative.t5_bucket(distances, True, 32, 128)
        assert bool((buckets[1:] >= buckets[:-1]).all() if sign > 0 else (buckets[1:] >= buckets[:-1]).all())
    causal = relative.t5_bucket(-torch.arange(0, 1000), False)
    assert bool((causal[1:] >= causal[:-1]).all())
    assert relative.t5_bucket(torch.tensor([5]), False).item() == 0  # future keys -> bucket 0


def test_t5_bias_gathers_bucket_per_pair():
    table = torch.randn(32, 3, generator=torch.Generator().manual_seed(0))
    b = relative.t5_bias(table, 20, 25)
    for i in range(20):
        for j in range(25):
            bucket = relative.t5_bucket(torch.tensor(j - i)).item()
            torch.testing.assert_close(b[:, i, j], table[bucket])


def test_shaw_distance_is_clipped_and_relative():
    d = relative.shaw_distance(10, max_distance=3)
    assert int(d.max()) == 3 and int(d.min()) == -3
    assert d[2, 4].item() == 2 and d[4, 2].item() == -2


# ---- registry and specs ----------------------------------------------------------------------------
def test_every_family_computes_its_default_view():
    for fam in families():
        spec = fam.default_spec()
        rows = fam.rows_at(spec, torch.arange(min(5, fam.rows(spec))))
        assert rows.shape == (min(5, fam.rows(spec)), fam.cols(spec)), fam.name
        assert fam.caption(spec)
        for info in fam.spec.param_infos():
            assert info.label and info.help, (fam.name, info.name)


@pytest.mark.parametrize("values,match", [
    ({"d_model": 7}, "even"),
    ({"d_model": 0}, "at least 2"),
    ({"base": float("nan")}, "finite"),
    ({"layout": "diagonal"}, "one of"),
    ({"n_positions": "many"}, "whole number"),
    ({"bogus": 1}, "unknown parameter"),
])
def test_invalid_parameters_say_what_to_do(values, match):
    with pytest.raises(ParameterError, match=match):
        get("sinusoidal").make_spec(values)


def test_learned_tables_are_shared_while_two_panels_alternate(monkeypatch):
    a = learned.LearnedSpec(n_positions=10, max_positions=64, d_model=16, seed=1)
    b = learned.LearnedSpec(n_positions=10, max_positions=64, d_model=16, seed=2)
    first_a, first_b = learned.table_for(a), learned.table_for(b)
    assert learned.table_for(a) is first_a and learned.table_for(b) is first_b  # no re-creation in turn
    # over the byte budget the least recently used table goes; the newest always stays
    monkeypatch.setattr(learned, "CACHE_BYTES", 64 * 16 * 4)
    c = learned.LearnedSpec(n_positions=10, max_positions=64, d_model=16, seed=3)
    newest = learned.table_for(c)
    assert learned.table_for(c) is newest and learned.table_for(a) is not first_a
    torch.testing.assert_close(learned.table_for(a).weight, first_a.weight)  # same seed, same numbers


@pytest.mark.parametrize("family, values", [
    ("sinusoidal", dict(n_positions=300, d_model=16, layout="interleaved")),
    ("sinusoidal", dict(n_positions=300, d_model=16, layout="concatenated", base=500.0)),
    ("rope", dict(n_positions=300, head_dim=16)),
    ("rope", dict(n_positions=300, head_dim=16, rope_type="yarn", factor=4.0, original_max_position_embeddings=64)),
])
def test_a_columns_closed_form_equals_that_column_of_the_table(family, values):
    fam = get(family)
    spec = fam.make_spec({**fam.default_spec().to_dict(), **values})
    positions = torch.arange(fam.rows(spec))
    table = fam.rows_at(spec, positions)
    for column in range(fam.cols(spec)):
        torch.testing.assert_close(fam.column_at(spec, positions, column), table[:, column], atol=2e-6, rtol=0)
