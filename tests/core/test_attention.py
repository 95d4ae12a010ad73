"""Attention inspector core: schemes against independent references, pooling, shuffle test."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import torch

from peapp.analysis import attention as A
from peapp.errors import ParameterError, SizeError
from peapp.jobs import Cancelled


def spec(**values) -> A.AttentionSpec:
    base = dict(seq_len=24, n_heads=4, head_dim=16, seed=3, tokens="random", causal=False)
    base.update(values)
    return A.AttentionSpec(**base)


def full_res(s: A.AttentionSpec, kind: str, params: tuple = ()) -> np.ndarray:
    view = A.attention_view(s, params, kind=kind, max_bins=s.seq_len)
    assert view.full_resolution
    return view.values


def softmax_rows(x: np.ndarray) -> np.ndarray:
    x = x - np.nanmax(x, axis=-1, keepdims=True)
    e = np.where(np.isnan(x), 0.0, np.exp(x))
    return e / e.sum(-1, keepdims=True)


# ---- ALiBi -----------------------------------------------------------------------------------

@pytest.mark.parametrize("causal", [True, False])
def test_alibi_position_term_is_minus_slope_times_distance(causal):
    s = spec(scheme="alibi", n_heads=8, causal=causal)
    bias = full_res(s, "position")
    slopes = 2.0 ** (-8.0 * np.arange(1, 9) / 8)  # n = 8: 1/2 … 1/256 (Press et al.)
    i, j = np.meshgrid(np.arange(24), np.arange(24), indexing="ij")
    distance = (i - j) if causal else np.abs(i - j)
    expected = -slopes[:, None, None] * distance[None]
    if causal:
        expected = np.where(j > i, np.nan, expected)
    np.testing.assert_allclose(bias, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("n_heads", [8, 6])
def test_alibi_attention_equals_bloom_form(n_heads):
    """BLOOM adds +slope·key; it differs from ours by a per-row constant, so softmax agrees."""
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    L = 24
    ours = spec(scheme="alibi", n_heads=n_heads, causal=True)
    content = A.full_matrices(spec(scheme="nope", n_heads=n_heads, causal=True))["logits"].astype(np.float64)
    bloom = build_alibi_tensor(torch.ones(1, L), n_heads, torch.float64).reshape(n_heads, 1, L).numpy()
    expected = softmax_rows(content + bloom)  # masked entries are NaN in content
    got = A.full_matrices(ours)["softmax"]
    np.testing.assert_allclose(got, expected, atol=2e-6)
    # and the position terms differ by a constant along each row
    diff = full_res(ours, "position") - np.broadcast_to(bloom, (n_heads, L, L))
    spread = np.nanmax(diff, axis=-1) - np.nanmin(diff, axis=-1)
    assert np.nanmax(spread) < 1e-5


def test_alibi_attention_equals_mpt_form():
    """MPT adds slope·(key − last); its slopes for 8 heads are the same geometric series."""
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    L, H = 24, 8
    content = A.full_matrices(spec(scheme="nope", n_heads=H, causal=True))["logits"].astype(np.float64)
    mpt = build_mpt_alibi_tensor(H, L).to(torch.float64).numpy()  # [H, 1, L]
    expected = softmax_rows(content + mpt)
    np.testing.assert_allclose(A.full_matrices(spec(scheme="alibi", n_heads=H, causal=True))["softmax"],
                               expected, atol=2e-6)


# ---- T5 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("causal", [False, True])
def test_t5_bias_gathers_the_bucket_of_every_pair(causal):
    from transformers.models.t5.modeling_t5 import T5Attention

    from peapp.encodings.relative import random_t5_table

    L, H = 160, 3  # past max_distance 128, so the log buckets and the last bucket all occur
    s = spec(scheme="t5", seq_len=L, n_heads=H, head_dim=8, causal=causal)
    params = (("num_buckets", 32), ("max_distance", 128))
    bias = full_res(s, "position", params)
    i, j = np.meshgrid(np.arange(L), np.arange(L), indexing="ij")
    buckets = T5Attention._relative_position_bucket(torch.from_numpy(j - i), bidirectional=not causal,
                                                    num_buckets=32, max_distance=128).numpy()
    table = random_t5_table(32, H, s.seed).numpy()
    expected = np.transpose(table[buckets], (2, 0, 1))
    if causal:
        expected = np.where(j > i, np.nan, expected)
    np.testing.assert_allclose(bias, expected, rtol=1e-6, atol=1e-6)
    assert len(np.unique(buckets)) == (32 if causal else 31)  # bidirectional: bucket 16 (rel 0, "after") never occurs


def test_t5_staircase_matches_reference_checks():
    view = A.attention_view(spec(scheme="t5", seq_len=8), (("num_buckets", 32), ("max_distance", 128)))
    lookup = dict(zip(view.t5_relative.tolist(), view.t5_buckets.tolist()))
    # reference file check values (bidirectional, 32, 128)
    for rel, bucket in {-200: 15, -64: 14, -8: 8, -1: 1, 0: 0, 1: 17, 8: 24, 64: 30, 200: 31}.items():
        assert lookup[rel] == bucket


# ---- RoPE ------------------------------------------------------------------------------------

@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_rope_logits_match_transformers_rotation(base):
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    L, H, d = 20, 2, 16
    s = spec(scheme="rope", seq_len=L, n_heads=H, head_dim=d)
    params = (("base", base),)
    model = A.AttentionModel(s, params)
    pos = torch.arange(L)
    q0, k0 = model.content_queries(pos), model.k0
    inv = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    freqs = pos[:, None].float() * inv[None]
    emb = torch.cat((freqs, freqs), -1)
    q, k = apply_rotary_pos_emb(q0.unsqueeze(0), k0.unsqueeze(0), emb.cos().unsqueeze(0), emb.sin().unsqueeze(0))
    expected = (q[0] @ k[0].transpose(1, 2) / math.sqrt(d)).numpy()
    np.testing.assert_allclose(full_res(s, "logits", params), expected, atol=2e-5)
    content = (q0 @ k0.transpose(1, 2) / math.sqrt(d)).numpy()
    np.testing.assert_allclose(full_res(s, "position", params), expected - content, atol=2e-5)


@pytest.mark.parametrize("rope_type", ["linear", "yarn"])
def test_rope_scaling_from_the_rope_family_reaches_the_logits(rope_type):
    """Linear PI divides every frequency by the factor (closed form); YaRN's frequencies and
    attention factor come from the RoPE family (so any variant it adds applies here too)."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    from peapp.document import Document
    from peapp.encodings.rope import RopeSpec

    L, H, d = 24, 2, 32
    doc = Document().with_params("rope", rope_type=rope_type, factor=4.0, original_max_position_embeddings=16)
    s = spec(scheme="rope", seq_len=L, n_heads=H, head_dim=d)
    params = A.scheme_params_from_document(doc, "rope")
    model = A.AttentionModel(s, params)
    pos = torch.arange(L)
    if rope_type == "linear":
        inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=torch.float32) / d)) / 4.0
        factor = 1.0
    else:
        inv, factor = RopeSpec.from_dict(dict(params)).replace(head_dim=d, n_positions=L).inv_freq(L)
        assert factor > 1.0
    emb = torch.cat((pos[:, None].float() * inv[None],) * 2, -1)
    q, k = apply_rotary_pos_emb(model.content_queries(pos).unsqueeze(0), model.k0.unsqueeze(0),
                                (emb.cos() * factor).unsqueeze(0), (emb.sin() * factor).unsqueeze(0))
    expected = (q[0] @ k[0].transpose(1, 2) / math.sqrt(d)).numpy()
    np.testing.assert_allclose(full_res(s, "logits", params), expected, atol=5e-5)
    view = A.attention_view(s, params)
    assert f"{rope_type} scaling" in A.caption(view)
    # a session read back from JSON has lists where the spec had tuples; requests stay hashable
    reread = Document.from_json(doc.to_json())
    hash(A.AttentionRequest(spec=s, scheme_params=A.scheme_params_from_document(reread, "rope")))


def test_rope_with_one_repeated_token_depends_only_on_distance():
    s = spec(scheme="rope", tokens="repeated", seq_len=32)
    logits = full_res(s, "logits")
    for offset in range(-31, 32):
        diag = np.diagonal(logits, offset=offset, axis1=1, axis2=2)
        assert np.ptp(diag, axis=-1).max() < 1e-4  # Toeplitz: q_m·k_n = f(m − n)


# ---- other schemes and inputs -----------------------------------------------------------------

def test_nope_with_a_repeated_token_attends_uniformly():
    weights = full_res(spec(scheme="nope", tokens="repeated", causal=True), "softmax")
    i = np.arange(24)
    expected = np.where(i[None, :] <= i[:, None], 1.0 / (i[:, None] + 1), 0.0)
    np.testing.assert_allclose(weights, np.broadcast_to(expected, weights.shape), atol=1e-6)


def test_shaw_position_term_uses_clipped_distance():
    s = spec(scheme="shaw", seq_len=20, head_dim=8)
    term = full_res(s, "position", (("max_distance", 3),))
    # beyond ±k every distance shares one vector: columns far to the left of a row are equal
    row = term[:, 15]
    np.testing.assert_allclose(row[:, :12], np.broadcast_to(row[:, :1], row[:, :12].shape), atol=1e-6)
    assert np.ptp(row[:, 12:19], axis=-1).min() > 1e-3  # inside the window they differ


def test_additive_schemes_change_logits_and_learned_table_length_is_enforced():
    nope = full_res(spec(scheme="nope"), "logits")
    for scheme in ("sinusoidal", "learned"):
        assert np.abs(full_res(spec(scheme=scheme), "logits") - nope).max() > 0.1
    with pytest.raises(ParameterError, match="does not exist"):
        A.attention_view(spec(scheme="learned", seq_len=100), (("max_positions", 64),))


def test_sentence_tokens_are_deterministic_per_word():
    torch.testing.assert_close(A.word_vector("cat", 16), A.word_vector("cat", 16))
    assert not torch.allclose(A.word_vector("cat", 16), A.word_vector("mat", 16))
    s = spec(scheme="nope", tokens="sentence", sentence="the cat saw the cat", seq_len=5)
    model = A.AttentionModel(s)
    assert model.words == ("the", "cat", "saw", "the", "cat")
    torch.testing.assert_close(model.x[1], model.x[4])
    torch.testing.assert_close(model.x[1], A.word_vector("cat", 16))
    with pytest.raises(ParameterError, match="at least one word"):
        spec(tokens="sentence", sentence="   ")


# ---- pooling, profile, entropy ----------------------------------------------------------------

def _pool(full: np.ndarray, rows: np.ndarray, r0: int, rb: int, c0: int, c1: int, cb: int, how: str) -> np.ndarray:
    h = full.shape[0]
    nr, nc = math.ceil((rows.max() - r0 + 1) / rb), math.ceil((c1 - c0) / cb)
    out = np.full((h, nr, nc), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN cells stay NaN
        for a in range(nr):
            sel = rows[(rows >= r0 + a * rb) & (rows < r0 + (a + 1) * rb)]
            for b in range(nc):
                block = full[:, sel][:, :, c0 + b * cb: min(c1, c0 + (b + 1) * cb)].reshape(h, -1)
                out[:, a, b] = np.nanmean(block, -1) if how == "mean" else np.nanmax(block, -1)
    return out


@pytest.mark.parametrize("scheme", A.SCHEMES)
@pytest.mark.parametrize("causal", [True, False])
def test_pooled_view_equals_pooling_the_full_matrix(scheme, causal):
    s = spec(scheme=scheme, seq_len=45, n_heads=3, head_dim=8, causal=causal)
    full = A.full_matrices(s)
    for kind in A.KINDS:
        for how in A.POOLINGS:
            view = A.attention_view(s, kind=kind, pooling=how, max_bins=8)  # bins of 6, the last of 3
            assert (view.row_bin, view.col_bin) == (6, 6) and not view.sampled
            expected = _pool(full[kind], np.arange(45), 0, 6, 0, 45, 6, how)
            np.testing.assert_allclose(view.values, expected, atol=1e-5, equal_nan=True, err_msg=f"{kind} {how}")
            region = A.attention_view(s, kind=kind, pooling=how, rows=(5, 38), cols=(10, 41), max_bins=4)
            expected = _pool(full[kind], np.arange(5, 38), 5, region.row_bin, 10, 41, region.col_bin, how)
            np.testing.assert_allclose(region.values, expected, atol=1e-5, equal_nan=True)


@pytest.mark.parametrize("kind", A.KINDS)
def test_zoom_without_profile_gives_the_same_values(kind):
    s = spec(scheme="rope", seq_len=90, n_heads=2, causal=True)
    region = dict(kind=kind, rows=(30, 62), cols=(20, 70), max_bins=64)
    lean = A.attention_view(s, with_profile=False, **region)
    np.testing.assert_allclose(lean.values, A.attention_view(s, **region).values, atol=1e-6, equal_nan=True)
    assert lean.profile.shape == (2, 0) and lean.entropy.shape == (2, 0)


def test_sampled_rows_are_exact_over_all_keys():
    s = spec(scheme="rope", seq_len=60, n_heads=2, causal=True)
    full = A.full_matrices(s)["softmax"]
    view = A.attention_view(s, kind="softmax", max_bins=6, entry_budget=2 * 60 * 12)
    assert view.sampled and view.rows_per_bin < view.row_bin
    assert "each exact over all keys" in view.reduction
    expected = _pool(full, view.entropy_positions, 0, view.row_bin, 0, 60, view.col_bin, "mean")
    np.testing.assert_allclose(view.values, expected, atol=1e-6)


@pytest.mark.parametrize("causal", [True, False])
def test_distance_profile_and_entropy(causal):
    n = 50
    s = spec(scheme="alibi", seq_len=n, n_heads=2, causal=causal)
    p = A.full_matrices(s)["softmax"].astype(np.float64)
    view = A.attention_view(s, max_bins=7)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    allowed = (j <= i) if causal else np.ones_like(i, bool)
    d = (i - j)[allowed]
    expected_d = np.unique(d)
    np.testing.assert_array_equal(view.distances, expected_d)
    for h in range(2):
        sums = np.bincount(d + n - 1, weights=p[h][allowed], minlength=2 * n - 1)
        counts = np.bincount(d + n - 1, minlength=2 * n - 1)
        np.testing.assert_allclose(view.profile[h], (sums / np.maximum(counts, 1))[expected_d + n - 1], atol=1e-6)
    entropy = -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0), -1)
    np.testing.assert_allclose(view.entropy, entropy, atol=2e-5)
    # ALiBi's steepest head concentrates on the nearest keys: its profile falls with distance
    near, far = view.profile[0][view.distances == 0][0], view.profile[0][view.distances == n - 1][0]
    assert near > 3 * far


# ---- shuffle test (permutation equivariance; the causal mask leaks order) ----------------------

def test_nope_without_mask_is_permutation_equivariant():
    result = A.shuffle_test(spec(scheme="nope", causal=False, seq_len=40))
    assert result.equivariant and result.max_abs < 1e-6
    assert "Equivariant" in result.summary and result.change.max() < 1e-6


@pytest.mark.parametrize("scheme", [s for s in A.SCHEMES if s != "nope"])
def test_every_position_scheme_breaks_equivariance(scheme):
    result = A.shuffle_test(spec(scheme=scheme, causal=False, seq_len=40))
    assert not result.equivariant and result.max_abs > 1e-2, scheme
    assert "Not equivariant" in result.summary


def test_causal_mask_alone_leaks_order_per_position():
    s = spec(scheme="nope", causal=True, seq_len=40)
    result = A.shuffle_test(s)
    assert not result.equivariant and "causal mask alone leaks order" in result.summary
    assert result.change.shape == (40,)
    # Position i's output is unchanged only if the same token is there and it sees the same set
    # of tokens before it; everywhere else the mask alone makes the output differ.
    perm = result.permutation
    unchanged = [i for i in range(40) if perm[i] == i and set(perm[: i + 1].tolist()) == set(range(i + 1))]
    changed = [i for i in range(40) if i not in unchanged]
    assert len(changed) > 30 and result.change[changed].min() > 1e-3
    assert all(result.change[i] < 1e-6 for i in unchanged)


def test_outputs_match_a_direct_computation():
    s = spec(scheme="nope", causal=True, seq_len=12, n_heads=2, head_dim=8)
    model = A.AttentionModel(s, dtype=torch.float64, with_values=True)
    q, k, v = model.queries(torch.arange(12)), model.k, model.v
    logits = q @ k.transpose(1, 2) / math.sqrt(8)
    logits = logits.masked_fill(torch.triu(torch.ones(12, 12, dtype=torch.bool), 1), float("-inf"))
    expected = torch.softmax(logits, -1) @ v
    torch.testing.assert_close(A.attention_outputs(s), expected)


# ---- long sequences: memory bound and cancellation ---------------------------------------------

def test_memory_is_checked_before_allocating():
    s = spec(scheme="rope", seq_len=65_536, n_heads=8, head_dim=64)
    with pytest.raises(SizeError, match="fewer tokens"):
        A.attention_view(s, memory_budget=64 * 2**20)
    assert A.estimate_view_bytes(s, 512, 512) < 2 * 2**30


def test_long_view_stops_at_a_progress_point():
    s = spec(scheme="alibi", seq_len=65_536, n_heads=1, head_dim=8, causal=True)
    calls: list[float] = []

    def progress(fraction):
        calls.append(fraction)
        if len(calls) == 4:
            raise Cancelled

    with pytest.raises(Cancelled):
        A.attention_view(s, progress=progress)
    assert len(calls) == 4


def test_long_view_is_pooled_and_zoom_is_full_resolution():
    s = spec(scheme="alibi", seq_len=65_536, n_heads=1, head_dim=8, causal=True)
    whole = A.attention_view(s, max_bins=256, entry_budget=20_000_000)
    assert whole.values.shape == (1, 256, 256) and whole.row_bin == 256 and whole.sampled
    # causal: cells above the diagonal hold no weight, the diagonal does
    assert np.nanmax(whole.values[0][np.triu_indices(256, 1)]) == 0.0
    assert np.all(np.diagonal(whole.values[0]) > 0)
    zoom = A.attention_view(s, rows=(40_000, 40_064), cols=(39_990, 40_064), max_bins=256,
                            entry_budget=1_000_000)  # full resolution even beyond the budget
    assert zoom.full_resolution and zoom.values.shape == (1, 64, 74) and not zoom.sampled
    # row 40,000 is exact over all its 40,001 keys: recompute it directly
    model = A.AttentionModel(s)
    r = 40_000
    q = model.queries(torch.tensor([r]))[0, 0].double()
    keys = model.k[0, : r + 1].double()
    logits = keys @ q / math.sqrt(8) - 2.0 ** -8 * (r - torch.arange(r + 1, dtype=torch.float64))
    weights = torch.softmax(logits, 0).numpy()
    np.testing.assert_allclose(zoom.values[0, 0, :11], weights[39_990:], rtol=1e-4, atol=1e-9)
    assert np.all(zoom.values[0, 0, 11:] == 0)  # future keys


def test_request_is_frozen_and_runs():
    req = A.AttentionRequest(spec=spec(scheme="t5", seq_len=16), kind="position", pooling="max")
    hash(req)
    view = req.run()
    assert view.values.shape == (4, 16, 16) and "T5" in A.caption(view)
    result = A.ShuffleRequest(spec=spec(scheme="nope", seq_len=16)).run()
    assert result.equivariant


@pytest.mark.parametrize("scheme", A.SCHEMES)
def test_each_scheme_is_configured_by_the_family_it_names(scheme):
    """Requests are made (and checked) without torch, from spec.SCHEME_FAMILIES and scheme_spec:
    the family named is the one whose spec configures the scheme, and every scheme has a class."""
    from peapp import encodings
    from peapp.analysis.attention.schemes import SCHEME_TYPES
    from peapp.analysis.attention.spec import SCHEME_FAMILIES

    assert set(SCHEME_FAMILIES) == set(SCHEME_TYPES) == set(A.SCHEMES)
    family_spec = A.scheme_spec(A.AttentionSpec(scheme=scheme, seq_len=64, head_dim=16))
    family = SCHEME_FAMILIES[scheme]
    if family is None:
        assert family_spec is None
    else:
        assert type(family_spec) is encodings.get(family).spec
