"""The derived RoPE facts: scaling classification, decay bound, rotation-view numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from peapp.analysis import rope_scaling, rotation
from peapp.encodings import rope
from peapp.encodings.rope import RopeSpec
from peapp.jobs import frozen_params

LLAMA31 = RopeSpec(head_dim=128, base=5e5, rope_type="llama3", factor=8, low_freq_factor=1, high_freq_factor=4,
                   original_max_position_embeddings=8192, max_position_embeddings=131072)


def test_decay_bound_closed_form_at_zero_and_brute_force():
    inv = rope.default_inv_freq(64, 1e4).double().numpy()
    # at distance 0 every term is 1, so |S_j| = j and the mean over j = 1..32 is 33/2
    assert rope_scaling.decay_bound(inv, np.array([0.0]))[0] == pytest.approx(16.5)
    distances = np.array([1.0, 7.0, 123.0, 4000.0])
    brute = [np.mean([abs(sum(complex(math.cos(r * t), math.sin(r * t)) for t in inv[:j]))
                      for j in range(1, 33)]) for r in distances]
    np.testing.assert_allclose(rope_scaling.decay_bound(inv, distances), brute, rtol=1e-9)


def test_decay_bound_decays_and_scaling_slows_it():
    spec = RopeSpec(head_dim=128, rope_type="linear", factor=4, original_max_position_embeddings=2048)
    facts = rope_scaling.scaling_facts(spec)
    d = facts.distances
    near, far = facts.decay_before[(d >= 1) & (d <= 20)].mean(), facts.decay_before[d > 1000].mean()
    assert far < near / 3
    # position interpolation stretches distances by the factor: the bound at 4r after = at r before
    r = np.array([10.0, 100.0, 1000.0])
    after = rope_scaling.decay_bound(spec.inv_freq()[0].numpy(), 4 * r)
    before = rope_scaling.decay_bound(rope.default_inv_freq(128, 1e4).numpy(), r)
    np.testing.assert_allclose(after, before, rtol=1e-4)


def test_llama31_facts():
    facts = rope_scaling.scaling_facts(LLAMA31)
    assert facts.counts() == {"keep": 29, "blend": 6, "divide": 29}
    assert facts.llama3_band == (2048.0, 8192.0)
    assert facts.trained_context == 8192 and facts.extended_context == 131072
    assert facts.rotations_original[0] == pytest.approx(8192 / (2 * math.pi))
    # divided pairs have 8× the wavelength, kept pairs the same
    np.testing.assert_allclose(facts.ratio[facts.kinds == "divide"], 8.0, rtol=1e-5)
    np.testing.assert_allclose(facts.ratio[facts.kinds == "keep"], 1.0, rtol=1e-6)
    assert "factor 8 disagrees" in facts.mismatch
    text = facts.summary()
    assert "29 pairs kept, 6 blended, 29 divided by 8" in text


def test_yarn_facts_and_request():
    spec = RopeSpec(head_dim=128, rope_type="yarn", factor=16, original_max_position_embeddings=4096)
    facts = rope_scaling.SpectrumRequest(frozen_params(spec.to_dict())).run()
    assert facts.yarn_ramp == (20, 46)
    assert facts.attention_factor == pytest.approx(1.2773, abs=5e-5)
    assert "logits × 1.63" in facts.summary()
    assert facts.extended_context == 65536


def test_longrope_facts_use_long_factors_at_the_extended_length():
    short, long = [1.0] * 32, list(np.linspace(1, 16, 32))
    spec = RopeSpec(head_dim=64, rope_type="longrope", factor=16, original_max_position_embeddings=4096,
                    short_factor=short, long_factor=long)
    facts = rope_scaling.scaling_facts(spec)
    np.testing.assert_allclose(facts.ratio, long, rtol=1e-5)
    np.testing.assert_allclose(facts.longrope_short, short)
    assert facts.kinds[0] == "keep" and facts.kinds[-1] == "divide"


def test_rotate_pairs_is_ropes_half_layout():
    spec = RopeSpec(head_dim=16, rope_type="yarn", factor=4, original_max_position_embeddings=64)
    inv, attn = spec.inv_freq()
    gen = torch.Generator().manual_seed(3)
    x = torch.randn(1, 16, generator=gen, dtype=torch.float64)
    out = rope.apply(x, torch.tensor([37]), inv, layout="half", attention_factor=attn)[0].numpy()
    pairs = np.stack((x[0, :8].numpy(), x[0, 8:].numpy()), axis=-1)
    mine = rotation.rope_pairs(pairs, inv.double().numpy(), 37, attn)
    np.testing.assert_allclose(mine[:, 0], out[:8], rtol=1e-5)
    np.testing.assert_allclose(mine[:, 1], out[8:], rtol=1e-5)


def test_relative_reading():
    facts = rotation.RotationRequest(frozen_params(RopeSpec(head_dim=32).to_dict()), seed=5).run()
    r = rotation.relative(facts.q, facts.k, facts.inv_freq, m=40, n=12, shift=1000, pair=2)
    assert r.dot_shifted == pytest.approx(r.dot, rel=1e-9, abs=1e-9)
    assert math.degrees(r.angle) == pytest.approx(rotation.wrapped_degrees(28 * facts.inv_freq[2]))
    assert -math.pi < r.angle <= math.pi
    # the pair's dot is |q_i||k_i| cos(angle between them after rotation)
    q, k = facts.q[2], facts.k[2]
    between = 28 * facts.inv_freq[2] + math.atan2(q[1], q[0]) - math.atan2(k[1], k[0])
    assert r.pair_dot == pytest.approx(np.linalg.norm(q) * np.linalg.norm(k) * math.cos(between))


def test_additive_changes_length_rotary_keeps_it():
    facts = rotation.RotationRequest(frozen_params(RopeSpec(head_dim=64).to_dict()), seed=1).run()
    a = rotation.additive_vs_rotary(facts.x, facts.inv_freq, position=9, pair=0)
    pe = rotation.sinusoid_pairs(facts.inv_freq, 9)
    assert a.norm_rotated == pytest.approx(a.norm, rel=1e-12)
    assert a.norm_added == pytest.approx(math.sqrt(a.norm ** 2 + 2 * (facts.x * pe).sum() + 32), rel=1e-12)
    assert abs(a.norm_added - a.norm) > 0.1
    assert a.turn_rotated == pytest.approx(rotation.wrapped_degrees(9 * facts.inv_freq[0]))


def test_fast_to_slow_and_wrapping():
    assert list(rotation.fast_to_slow(64, 4)) == [0, 21, 42, 63]
    assert list(rotation.fast_to_slow(2, 6)) == [0, 1]
    assert rotation.wrapped_degrees(np.radians(190)) == pytest.approx(-170)
    assert rotation.wrapped_degrees(np.radians(180)) == pytest.approx(180)
