"""The block machinery on plain q/k tensors (attention_statistics), against the full matrices
computed in one piece with torch; and the seeded views' sink shares."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from peapp.analysis import attention as A
from peapp.analysis.attention import blocks
from peapp.analysis.attention import threads as attention_threads
from peapp.errors import ParameterError
from peapp.jobs import Cancelled


def _reference(q, k, scale, causal, bias=None):
    """Full weights [H, n, n] in float64: softmax(q·kᵀ·scale + bias) with the causal mask."""
    h, n, _ = q.shape
    group = h // k.shape[0]
    kk = k.repeat_interleave(group, 0).double()
    logits = torch.matmul(q.double(), kk.transpose(1, 2)) * scale
    if bias is not None:
        rows = torch.arange(n)
        logits = logits + torch.stack([bias(hh, rows, rows).double() for hh in range(h)])
    if causal:
        logits = logits.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(logits, -1).numpy()


def _profile(p, causal):
    h, n, _ = p.shape
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    allowed = (j <= i) if causal else np.ones_like(i, bool)
    d = (i - j)[allowed]
    counts = np.bincount(d + n - 1, minlength=2 * n - 1)
    distances = np.unique(d)
    profile = np.stack([np.bincount(d + n - 1, weights=p[hh][allowed], minlength=2 * n - 1) / np.maximum(counts, 1)
                        for hh in range(h)])[:, distances + n - 1]
    return distances, profile


def _entropy(p):
    return -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0), -1)


def _alibi_like(h, rows, cols):
    return -(0.5 ** (h + 1)) * (rows.reshape(-1, 1) - cols.reshape(1, -1)).abs().to(torch.float32)


@pytest.fixture(params=["whole-rows", "key-blocks"])
def layout(request, monkeypatch):
    """Whole rows with many small row blocks on two workers, or long rows in two passes over key blocks."""
    monkeypatch.setattr(attention_threads, "WORKERS", 2)
    if request.param == "whole-rows":
        monkeypatch.setattr(blocks, "BLOCK_ENTRIES", 150)
        monkeypatch.setattr(blocks, "MIN_BLOCK_ROWS", 2)
        monkeypatch.setattr(blocks, "MAX_BLOCK_ROWS", 7)
    else:
        for name, value in {"WHOLE_ROW_KEYS": 8, "KEY_BLOCK": 9, "LSE_ROWS": 5, "LSE_BLOCK_ENTRIES": 45,
                            "MIN_KEY_BLOCK": 9}.items():
            monkeypatch.setattr(blocks, name, value)
    return request.param


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("kv_heads", [4, 2, 1])
@pytest.mark.parametrize("with_bias", [False, True])
def test_statistics_of_real_q_and_k_equal_the_full_matrices(layout, causal, kv_heads, with_bias):
    n, h, d = 45, 4, 8
    gen = torch.Generator().manual_seed(5)
    q = torch.randn(h, n, d, generator=gen) * 2
    k = torch.randn(kv_heads, n, d, generator=gen) * 2
    bias = _alibi_like if with_bias else None
    scale = 0.3
    p = _reference(q, k, scale, causal, bias)
    stats = A.attention_statistics(q, k, scale=scale, causal=causal, bias=bias, max_bins=n, sink_keys=3)
    assert stats.row_bin == stats.col_bin == 1
    np.testing.assert_allclose(stats.values, p, rtol=1e-5, atol=1e-6)  # float32 against float64
    distances, profile = _profile(p, causal)
    np.testing.assert_array_equal(stats.distances, distances)
    np.testing.assert_allclose(stats.profile, profile, atol=1e-6)
    np.testing.assert_array_equal(stats.entropy_positions, np.arange(n))
    np.testing.assert_allclose(stats.entropy, _entropy(p), atol=3e-5)
    np.testing.assert_allclose(stats.received, p.mean(1), atol=1e-6)
    np.testing.assert_allclose(stats.sink, p[:, :, 0].mean(1), atol=1e-6)
    np.testing.assert_allclose(stats.sink_first, p[:, :, :3].sum(-1).mean(1), atol=1e-6)


@pytest.mark.parametrize("pooling", ["mean", "max"])
def test_pooled_map_and_a_zoom_of_real_q_and_k(pooling):
    n, h, d = 60, 2, 8
    gen = torch.Generator().manual_seed(1)
    q, k = torch.randn(h, n, d, generator=gen), torch.randn(h, n, d, generator=gen)
    p = _reference(q, k, d ** -0.5, True)
    stats = A.attention_statistics(q, k, causal=True, pooling=pooling, max_bins=20)
    assert (stats.row_bin, stats.col_bin) == (3, 3)
    cells = p.reshape(h, 20, 3, 20, 3)
    expected = cells.max((2, 4)) if pooling == "max" else cells.mean((2, 4))
    np.testing.assert_allclose(stats.values, expected, atol=1e-6)
    # a zoom reuses the source's cached row normalisers and computes only the region's columns
    source = A.TensorSource(q, k, causal=True)
    A.attention_statistics(q, k, source=source, max_bins=n)
    zoom = A.attention_statistics(q, k, source=source, rows=(30, 50), cols=(10, 40), max_bins=64, with_profile=False)
    np.testing.assert_allclose(zoom.values, p[:, 30:50, 10:40], atol=1e-6)
    assert zoom.received.shape == (h, 0) and zoom.sink.shape == (h,) and not zoom.sink.any()


def test_the_seeded_model_through_tensor_source_gives_the_view_statistics():
    """The same machinery from either side: the sandbox's own q and k fed as plain tensors."""
    spec = A.AttentionSpec(scheme="rope", seq_len=200, n_heads=3, head_dim=16, causal=True, seed=2)
    view = A.attention_view(spec, max_bins=50)
    model = A.AttentionModel(spec)
    stats = A.attention_statistics(model.queries(torch.arange(200)), model.k, causal=True, max_bins=50)
    np.testing.assert_allclose(stats.values, view.values, atol=1e-7)
    np.testing.assert_allclose(stats.profile, view.profile, atol=1e-7)
    np.testing.assert_allclose(stats.entropy, view.entropy, atol=1e-5)
    np.testing.assert_allclose(stats.received, view.received, atol=1e-7)
    np.testing.assert_allclose(view.sink, view.received[:, 0])
    np.testing.assert_allclose(view.sink_first, view.received[:, :A.SINK_KEYS].sum(-1), rtol=1e-6)


def test_minus_infinity_in_the_bias_masks_without_nan():
    n, h, d = 20, 2, 4
    q, k = torch.randn(h, n, d), torch.randn(h, n, d)

    def padding(head, rows, cols):  # keys 15… are padding
        return torch.where(cols.reshape(1, -1) >= 15, float("-inf"), 0.0).expand(len(rows), -1)

    stats = A.attention_statistics(q, k, causal=False, bias=padding, max_bins=n)
    assert np.isfinite(stats.entropy).all() and np.isfinite(stats.values).all()
    np.testing.assert_allclose(stats.values[..., 15:], 0, atol=0)
    np.testing.assert_allclose(stats.values.sum(-1), 1, rtol=1e-5)


def test_cancel_from_progress_stops_the_statistics(monkeypatch):
    monkeypatch.setattr(attention_threads, "WORKERS", 2)
    monkeypatch.setattr(blocks, "BLOCK_ENTRIES", 64)
    monkeypatch.setattr(blocks, "MIN_BLOCK_ROWS", 1)
    q, k = torch.randn(2, 200, 8), torch.randn(2, 200, 8)
    fractions = []

    def progress(fraction):
        fractions.append(fraction)
        if fraction > 0.3:
            raise Cancelled

    with pytest.raises(Cancelled):
        A.attention_statistics(q, k, progress=progress)
    assert max(fractions) < 0.6


@pytest.mark.parametrize("q_shape,k_shape,match", [
    ((2, 10, 4), (2, 11, 4), "same number of tokens"),
    ((2, 10, 4), (2, 10, 6), "same number of tokens and the same head_dim"),
    ((3, 10, 4), (2, 10, 4), "cannot share"),
    ((10, 4), (10, 4), r"\[heads, tokens, head_dim\]"),
])
def test_bad_shapes_are_refused_with_a_message(q_shape, k_shape, match):
    with pytest.raises(ParameterError, match=match):
        A.attention_statistics(torch.zeros(q_shape), torch.zeros(k_shape))


def test_statistics_on_a_missing_device_are_refused(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # a machine without CUDA, on any machine
    with pytest.raises(ParameterError, match="not available"):
        A.attention_statistics(torch.zeros(1, 4, 2), torch.zeros(1, 4, 2), device="cuda")
