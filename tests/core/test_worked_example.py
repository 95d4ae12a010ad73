"""The article's worked example: embedding + positional vector, and RoPE's rotation."""

import math

import numpy as np
import pytest

from peapp.analysis import worked_example as we
from peapp.errors import ParameterError, PositionOutOfRangeError


def test_article_case_d4_position0_is_0101_and_sum_matches_article():
    r = we.compute()  # the defaults are the article's case: "DataCamp", d_model 4, position 0
    np.testing.assert_allclose(r.positional, [0.0, 1.0, 0.0, 1.0], atol=1e-7)
    np.testing.assert_allclose(r.embedding, [0.51, -0.22, 0.88, 0.14])
    np.testing.assert_allclose(r.combined, [0.51, 0.78, 0.88, 1.14], atol=1e-7)


@pytest.mark.parametrize("scheme", ["sinusoidal", "learned", "none"])
@pytest.mark.parametrize("position", [0, 5, 37])
def test_sum_is_embedding_plus_pe(scheme, position):
    r = we.compute("transformer", scheme=scheme, position=position, d_model=16, embedding_source="hashed")
    pe = we.positional_vector(scheme, position, 16)
    np.testing.assert_allclose(r.positional, pe)
    np.testing.assert_allclose(r.combined, r.embedding + pe)


def test_sinusoid_matches_closed_form_at_position_5():
    r = we.compute(position=5)
    expected = [math.sin(5), math.cos(5), math.sin(5 / 100), math.cos(5 / 100)]  # 10000^(2/4) = 100
    np.testing.assert_allclose(r.positional, expected, atol=1e-6)


def test_same_word_at_position_5_gives_a_different_input():
    r = we.compute(position=0, other_position=5)
    assert r.other_difference > 0.5
    np.testing.assert_allclose(r.other_combined, r.embedding + we.positional_vector("sinusoidal", 5, 4))


def test_hashed_embedding_is_deterministic_and_word_dependent():
    a = we.semantic_embedding("DataCamp", 8)
    np.testing.assert_array_equal(a, we.semantic_embedding("DataCamp", 8))
    assert not np.allclose(a, we.semantic_embedding("datacamp", 8))
    assert not np.allclose(a, we.semantic_embedding("DataCamp", 8, seed=1))
    # fixed across processes and machines (BLAKE2b, not Python's salted hash)
    np.testing.assert_allclose(a[:2], we.semantic_embedding("DataCamp", 8)[:2])


def test_hashed_embedding_is_stable_across_processes():
    import subprocess
    import sys

    import os

    code = "from peapp.analysis.worked_example import semantic_embedding as s; print(repr(s('cat', 3).tolist()))"
    # a different string-hash salt than this process: Python's hash() would differ, BLAKE2b does not
    env = {**os.environ, "PYTHONHASHSEED": "12345" if os.environ.get("PYTHONHASHSEED") != "12345" else "54321"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == repr(we.semantic_embedding("cat", 3).tolist())


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_rope_rotates_and_keeps_length(layout):
    r = we.compute("DataCamp", scheme="rope", position=5, rope_layout=layout)
    assert r.combined_norm == pytest.approx(r.embedding_norm, rel=1e-6)
    assert not np.allclose(r.combined, r.embedding)
    # each pair is rotated by position·θ_i: check the angle of every pair directly
    for k, (a, b) in enumerate(r.pairs):
        before = math.atan2(r.embedding[b], r.embedding[a])
        after = math.atan2(r.combined[b], r.combined[a])
        turned = (after - before) % (2 * math.pi)
        assert turned == pytest.approx((5 * 10000 ** (-2 * k / 4)) % (2 * math.pi), abs=1e-5)


def test_rope_at_position_0_is_identity():
    r = we.compute(scheme="rope", position=0)
    np.testing.assert_allclose(r.combined, r.embedding, atol=1e-7)


def test_learned_table_end_is_an_error_not_a_clamp():
    with pytest.raises(PositionOutOfRangeError, match="2,048"):
        we.compute(scheme="learned", position=2048, max_positions=2048)


def test_bad_input_says_what_to_do():
    with pytest.raises(ParameterError, match="type a word"):
        we.compute("   ")
    with pytest.raises(ParameterError, match="set d_model to 4"):
        we.compute(d_model=8, embedding_source="article")
    with pytest.raises(ParameterError, match="even"):
        we.compute("x", scheme="rope", d_model=5, embedding_source="hashed")


def test_request_runs_the_same_computation():
    r = we.WorkedExampleRequest(position=3).run()
    np.testing.assert_allclose(r.combined, we.compute(position=3).combined)
    assert "DataCamp" in r.caption and "position 3" in r.caption


def test_learned_row_is_the_heatmaps_row_for_the_same_seed():
    import torch

    from peapp import encodings
    from peapp.encodings.learned import LearnedSpec

    spec = LearnedSpec(n_positions=10, max_positions=2048, d_model=16, seed=7)
    row = encodings.get("learned").rows_at(spec, torch.tensor([3]))[0].numpy()
    np.testing.assert_allclose(we.positional_vector("learned", 3, 16, seed=7), row)
