"""Length extrapolation: verdicts are computed, and RoPE scalings match transformers."""

import math

import numpy as np
import pytest
import torch

from peapp.analysis import extrapolation as ex
from peapp.errors import ParameterError


def test_learned_2048_rows_at_2049_cannot():
    r = ex.analyse(2048, 2049)
    s = r.summary("learned")
    assert s.verdict == "cannot"
    assert "position 2,048 does not exist" in s.reason
    assert r.learned.missing == 1


def test_learned_within_table_fits():
    assert ex.analyse(2048, 2048).summary("learned").verdict == "fits"


@pytest.mark.parametrize("train,evaluate", [(1024, 2048), (2048, 2049), (512, 100_000)])
def test_alibi_extrapolates(train, evaluate):
    r = ex.analyse(train, evaluate, n_heads=8, threshold=10)
    assert r.summary("alibi").verdict == "extrapolates"
    np.testing.assert_allclose(r.alibi.slopes, [2.0 ** -(i + 1) for i in range(8)])
    np.testing.assert_allclose(r.alibi.reach, 10 * 2.0 ** np.arange(1, 9))
    local = int((r.alibi.reach < train).sum())
    assert f"{local} of 8 heads" in r.summary("alibi").reason


def test_linear_interpolation_by_the_length_ratio_brings_every_pair_in_range():
    r = ex.analyse(2048, 8192)
    assert r.summary("rope:linear").verdict == "interpolates"
    pi = r.rope.variants["linear"]
    assert pi.in_range.all()
    np.testing.assert_allclose(pi.needed, pi.inv_freq / 4 * 8191)


def test_linear_with_too_small_factor_leaves_slow_pairs_out():
    r = ex.analyse(2048, 8192, factor=2)
    assert r.summary("rope:linear").verdict == "extrapolates"
    assert r.rope.variants["linear"].out_of_range > 0


def test_unscaled_rope_slow_pairs_exceed_training_angles():
    r = ex.analyse(2048, 8192, head_dim=128, rope_base=10000)
    none = r.rope.variants["none"]
    # closed form: pair i never completed a turn in training when θ_i·2047 < 2π
    theta = 10000.0 ** (-np.arange(0, 128, 2) / 128)
    expected_out = int((theta * 2047 < 2 * math.pi).sum())
    assert none.out_of_range == expected_out > 0
    assert f"{expected_out} of 64 pairs" in r.summary("rope").reason


def test_one_extra_position_is_already_out_of_range_for_unscaled_rope():
    r = ex.analyse(2048, 2049)
    assert r.rope.variants["none"].out_of_range > 0


def test_sinusoidal_unseen_phases_are_the_pairs_that_never_wrapped():
    r = ex.analyse(100, 200, d_model=16, sin_base=10000)
    w = 10000.0 ** (-np.arange(0, 16, 2) / 16)
    never_wrapped = w * 99 < 2 * math.pi
    assert np.array_equal(r.sinusoidal.unseen_fraction > 0, never_wrapped)
    # a pair too slow to wrap even at 199 sees only new phases at every new position
    assert np.all(r.sinusoidal.unseen_fraction[w * 199 < 2 * math.pi] == 1.0)
    assert r.summary("sinusoidal").verdict == "extrapolates"


def test_every_scheme_fits_when_evaluation_is_not_longer():
    r = ex.analyse(4096, 1000)
    assert {s.verdict for s in r.summaries} == {"fits"}


def test_one_summary_per_scheme_and_scaling():
    r = ex.analyse(2048, 8192)
    names = [s.scheme for s in r.summaries]
    assert names == ["learned", "sinusoidal", "t5", "rope", "rope:linear", "rope:ntk", "rope:dynamic",
                     "rope:yarn", "rope:llama3", "alibi"]
    assert all(s.verdict in ex.VERDICTS and s.reason for s in r.summaries)


def test_yarn_and_llama3_check_values_from_the_reference():
    # Llama-3: base 5e5, dim 128, factor 8, L_orig 8192 → 29 kept, 6 blended, 29 divided
    inv0, _ = ex.scaled_inv_freq("none", 128, 5e5, 8, 8192, 8192)
    inv, _ = ex.scaled_inv_freq("llama3", 128, 5e5, 8, 8192, 8192)
    kept, divided = np.isclose(inv, inv0).sum(), np.isclose(inv, inv0 / 8).sum()
    assert (kept, 64 - kept - divided, divided) == (29, 6, 29)
    # YaRN: dim 128, base 1e4, L_orig 4096, factor 16 → attention factor 1.2773
    _, attention = ex.scaled_inv_freq("yarn", 128, 1e4, 16, 4096, 4096)
    assert attention == pytest.approx(1.2773, abs=1e-4)


@pytest.mark.parametrize("rope_type", ["linear", "dynamic", "yarn", "llama3"])
def test_scalings_match_transformers(rope_type):
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    head_dim, base, factor, original, seq_len = 128, 10000.0, 4.0, 2048, 8192
    params = {"rope_type": rope_type, "rope_theta": base, "factor": factor}
    if rope_type in ("yarn", "llama3"):
        params["original_max_position_embeddings"] = original
    if rope_type == "llama3":
        params.update(low_freq_factor=1.0, high_freq_factor=4.0)
    config = LlamaConfig(hidden_size=head_dim * 8, num_attention_heads=8, rope_parameters=params,
                         max_position_embeddings=original if rope_type == "dynamic" else seq_len)
    expected, expected_attention = ROPE_INIT_FUNCTIONS[rope_type](config, "cpu", seq_len=seq_len)
    ours, attention = ex.scaled_inv_freq(rope_type, head_dim, base, factor, original, seq_len)
    np.testing.assert_allclose(ours, expected.numpy(), rtol=2e-6)
    assert attention == pytest.approx(expected_attention)


def test_static_ntk_divides_the_slowest_frequency_by_the_factor():
    inv0, _ = ex.scaled_inv_freq("none", 64, 1e4, 4, 2048, 8192)
    inv, _ = ex.scaled_inv_freq("ntk", 64, 1e4, 4, 2048, 8192)
    assert inv[0] == pytest.approx(inv0[0])
    assert inv[-1] == pytest.approx(inv0[-1] / 4)


def test_bad_settings_raise_with_a_message():
    with pytest.raises(ParameterError, match="training length"):
        ex.analyse(1, 10)
    with pytest.raises(ParameterError, match="factor"):
        ex.analyse(10, 20, factor=0.5)
    with pytest.raises(ParameterError, match="threshold"):
        ex.analyse(10, 20, threshold=0)


def test_cli_prints_the_same_summaries(capsys):
    from peapp.cli import main

    assert main(["extrapolate", "--train", "2048", "--eval", "2049"]) == 0
    out = capsys.readouterr().out
    assert "Learned absolute: cannot" in out and "ALiBi: extrapolates" in out
    assert main(["extrapolate", "--train", "1"]) == 2
    assert "training length must be between 2" in capsys.readouterr().err


def test_t5_buckets_past_max_distance_are_shared():
    from peapp.encodings.relative import t5_bucket

    # trained past max_distance: the last bucket was already used, nothing new at any length
    r = ex.analyse(2048, 100_000)
    assert r.t5.train_bucket == r.t5.eval_bucket == 31
    assert r.summary("t5").verdict == "extrapolates" and "no bias is new" in r.summary("t5").reason
    # trained on 64 tokens: distances 64 … 127 reach buckets training never saw
    r = ex.analyse(64, 512)
    expected = [int(t5_bucket(torch.tensor([-d]), bidirectional=False)[0]) for d in (63, 511)]
    assert [r.t5.train_bucket, r.t5.eval_bucket] == expected and expected[0] < expected[1] == 31
    first = next(d for d in range(63, 512) if int(t5_bucket(torch.tensor([-d]), bidirectional=False)[0]) > expected[0])
    assert f"buckets {expected[0] + 1}–31 are first reached" in r.summary("t5").reason
    assert f"distances ≥ {first}" in r.summary("t5").reason
    np.testing.assert_array_equal(r.t5.buckets, t5_bucket(-torch.from_numpy(r.t5.distances), bidirectional=False))


def test_when_every_pair_wrapped_in_training_scaling_is_not_needed():
    r = ex.analyse(1_048_576, 16_777_216)  # slowest wavelength ≈ 54,410 < the training length
    assert r.rope.variants["none"].wrapped.all()
    for s in r.summaries:
        if s.scheme.startswith("rope"):
            assert "nan" not in s.reason and "full circle" in s.reason


def test_training_length_and_factor_limits_are_ropespecs():
    with pytest.raises(ParameterError, match="1,048,576"):
        ex.analyse(2_000_000, 4_000_000)
    from peapp.encodings.rope import RopeSpec

    largest = {i.name: i for i in RopeSpec.param_infos()}["factor"].maximum  # the spec's own bound
    assert ex.analyse(2, 16_777_216).rope.factor == ex.MAX_FACTOR == largest
