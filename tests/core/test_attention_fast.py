"""Attention inspector fast paths against the straightforward computation, and the attention
each key receives (the "lost in the middle" mechanism) against closed forms."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from peapp.analysis import attention as A
from peapp.analysis.attention import blocks
from peapp.analysis.attention import model as attention_model
from tests.core.test_attention import _pool, spec

# ---- zoom fast path: region columns only, cached per-row normalisers ----------------------------

@pytest.mark.parametrize("scheme", A.SCHEMES)
@pytest.mark.parametrize("causal", [True, False])
def test_lean_zoom_equals_pooling_the_full_matrix(scheme, causal):
    s = spec(scheme=scheme, seq_len=45, n_heads=3, head_dim=8, causal=causal)
    full = A.full_matrices(s)
    for warm in (False, True):
        attention_model._cache.clear()  # cold: no normaliser known yet
        if warm:  # the whole view first, as the dock does: its rows' normalisers are reused
            A.attention_view(s, max_bins=8)
        for kind in A.KINDS:
            for how in A.POOLINGS:
                # a region crossing the diagonal, at full resolution and pooled
                for max_bins in (64, 4):
                    view = A.attention_view(s, kind=kind, pooling=how, rows=(5, 38), cols=(10, 41),
                                            max_bins=max_bins, with_profile=False)
                    expected = _pool(full[kind], np.arange(5, 38), 5, view.row_bin, 10, 41, view.col_bin, how)
                    np.testing.assert_allclose(view.values, expected, atol=1e-5, equal_nan=True,
                                               err_msg=f"{kind} {how} bins {max_bins} warm {warm}")


@pytest.mark.parametrize("scheme", ["rope", "alibi", "t5", "shaw"])
@pytest.mark.parametrize("causal", [True, False])
def test_row_normalisers_stream_over_key_blocks(monkeypatch, scheme, causal):
    monkeypatch.setattr(blocks, "LSE_BLOCK_ENTRIES", 2048)  # key blocks of 256: three blocks over 700 keys
    s = spec(scheme=scheme, seq_len=700, n_heads=2, head_dim=8, causal=causal)
    model = A.AttentionModel(s)
    rows = np.array([0, 1, 255, 256, 257, 400, 699])
    got = model.row_lse(rows)
    logits = torch.from_numpy(A.full_matrices(s)["logits"]).double()[:, rows]
    expected = torch.logsumexp(torch.nan_to_num(logits, nan=float("-inf")), dim=-1)
    torch.testing.assert_close(got.double(), expected, rtol=1e-5, atol=1e-5)


def test_zoom_reuses_normalisers_and_computes_only_its_columns(monkeypatch):
    s = spec(scheme="rope", seq_len=300, n_heads=2, head_dim=8, causal=False)
    attention_model._cache.clear()
    A.attention_view(s, max_bins=300)  # every row evaluated: every normaliser known
    widths = []
    original = A.AttentionModel.head_logits

    def spy(self, h, rows, q, key_start, n_keys, out, bias_out):
        widths.append(n_keys - key_start)
        return original(self, h, rows, q, key_start, n_keys, out, bias_out)

    monkeypatch.setattr(A.AttentionModel, "head_logits", spy)
    zoom = A.attention_view(s, rows=(100, 140), cols=(200, 230), max_bins=64, with_profile=False)
    assert widths and max(widths) == 30  # the region's 30 keys, never all 300
    full = A.full_matrices(s)["softmax"][:, 100:140, 200:230]
    np.testing.assert_allclose(zoom.values, full, atol=1e-6)


@pytest.mark.parametrize("scheme", A.SCHEMES)
def test_logits_of_a_key_range_equal_the_slice_of_all_keys(scheme):
    s = spec(scheme=scheme, seq_len=40, n_heads=2, head_dim=8, causal=True)
    model = A.AttentionModel(s)
    rows = torch.tensor([3, 17, 30, 39])
    whole, extra, future = model.logits(rows, 40)
    part, part_extra, part_future = model.logits(rows, 33, key_start=12)
    torch.testing.assert_close(part, whole[..., 12:33])
    assert torch.equal(part_future, future[:, 12:33])
    if extra is not None:
        torch.testing.assert_close(part_extra, extra[..., 12:33])
        torch.testing.assert_close(model.position_term(rows, part, part_extra, 15, 30, key_start=12),
                                   model.position_term(rows, whole, extra, 15, 30))


# ---- attention each key receives -------------------------------------------------------------

def test_uniform_causal_attention_received_closed_form():
    """One repeated token, no position, causal mask: p_ij = 1/(i+1) for j ≤ i."""
    n = 50
    view = A.attention_view(spec(scheme="nope", tokens="repeated", causal=True, seq_len=n, n_heads=2))
    expected = np.array([sum(1.0 / (i + 1) for i in range(j, n)) for j in range(n)]) / n
    np.testing.assert_allclose(view.received, np.broadcast_to(expected, (2, n)), rtol=1e-5)
    np.testing.assert_allclose(A.uniform_causal_received(n), expected, rtol=1e-12)
    np.testing.assert_allclose(view.last_query, np.full((2, n), 1.0 / n), rtol=1e-5)
    assert np.all(np.diff(view.received) < 0)  # the mask alone: primacy
    assert view.received.sum(-1) == pytest.approx(1.0, rel=1e-5)  # a distribution over keys
    first, last = expected[:5].sum(), expected[-5:].sum()
    assert A.received_summary(view.received[0]) == (f"first 10% of keys {first:.0%}, middle 80% "
                                                    f"{1 - first - last:.0%}, last 10% {last:.0%}")


@pytest.mark.parametrize("scheme,causal", [("alibi", True), ("rope", False), ("t5", True), ("learned", True)])
def test_received_is_the_column_mean_of_the_full_matrix(scheme, causal):
    s = spec(scheme=scheme, seq_len=37, n_heads=3, head_dim=8, causal=causal)
    full = A.full_matrices(s)["softmax"]
    view = A.attention_view(s)
    np.testing.assert_allclose(view.received, full.mean(1), atol=1e-6)
    np.testing.assert_allclose(view.last_query, full[:, -1], atol=1e-6)


def test_received_over_sampled_rows_is_their_mean():
    s = spec(scheme="rope", seq_len=60, n_heads=2, causal=True)
    full = A.full_matrices(s)["softmax"]
    view = A.attention_view(s, max_bins=6, entry_budget=2 * 60 * 12)
    assert view.sampled
    np.testing.assert_allclose(view.received, full[:, view.entropy_positions].mean(1), atol=1e-6)


def test_alibi_last_query_favours_recent_keys_and_the_mask_favours_early_ones():
    view = A.attention_view(spec(scheme="alibi", tokens="repeated", causal=True, seq_len=64, n_heads=4))
    assert np.all(np.diff(view.last_query, axis=-1) > 0)  # recency: weight grows toward the query
    # primacy: averaged over queries, key 0 (seen by all 64) gets more than key 32 (seen by 32)
    assert np.all(view.received[:, 0] > view.received[:, 32])
