"""Attention views computed in (head, row block) tasks on several threads, and in two passes over
key blocks for long rows, against the full matrices computed in one piece.

The block sizes are shrunk so that a 50-token sequence crosses every boundary the real sizes
cross at 4,096 and 65,536 tokens: many row blocks per head, row blocks that do and do not line up
with row bins, key blocks that cut column bins, blocks narrower than their row count, sampled rows.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import torch

from peapp.analysis import attention as A
from peapp.analysis.attention import blocks
from peapp.analysis.attention import model as attention_model
from peapp.analysis.attention import threads as attention_threads
from peapp.jobs import Cancelled
from tests.core.test_attention import _pool, spec

LAYOUTS = {
    # whole rows, row blocks of 2–7 rows (budget 150 logits), two workers
    "row-blocks": dict(BLOCK_ENTRIES=150, MIN_BLOCK_ROWS=2, MAX_BLOCK_ROWS=7, WORKERS=2),
    # long rows: normalisers of 5 rows against key blocks of 9 keys, then weights per (head, key block of 9) in runs of 5 rows
    "key-blocks": dict(WHOLE_ROW_KEYS=8, KEY_BLOCK=9, LSE_ROWS=5, LSE_BLOCK_ENTRIES=45, MIN_KEY_BLOCK=9, WORKERS=2),
    # one worker, default sizes (one block per head)
    "one-worker": dict(WORKERS=1),
}


@pytest.fixture(params=list(LAYOUTS))
def layout(request, monkeypatch):
    for name, value in LAYOUTS[request.param].items():
        monkeypatch.setattr(attention_threads if name == "WORKERS" else blocks, name, value)
    attention_model._cache.clear()
    yield request.param
    attention_model._cache.clear()


def _profile_and_entropy(p: np.ndarray, rows: np.ndarray, causal: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reference distance profile (mean weight per query − key distance) and entropy of ``rows``."""
    h, n, _ = p.shape
    i, j = np.meshgrid(rows, np.arange(n), indexing="ij")
    allowed = (j <= i) if causal else np.ones_like(i, bool)
    d = (i - j)[allowed]
    distances = np.unique(d)
    counts = np.bincount(d + n - 1, minlength=2 * n - 1)
    profile = np.stack([np.bincount(d + n - 1, weights=p[hh][rows][allowed], minlength=2 * n - 1)
                        / np.maximum(counts, 1) for hh in range(h)])[:, distances + n - 1]
    q = p[:, rows].astype(np.float64)
    entropy = -np.sum(np.where(q > 0, q * np.log(np.where(q > 0, q, 1)), 0), -1)
    return distances, profile, entropy


@pytest.mark.parametrize("scheme", A.SCHEMES)
@pytest.mark.parametrize("causal", [True, False])
def test_blocked_views_equal_the_full_matrices(layout, scheme, causal):
    n = 50
    s = spec(scheme=scheme, seq_len=n, n_heads=3, head_dim=8, causal=causal)
    full = A.full_matrices(s)
    distances, profile, entropy = _profile_and_entropy(full["softmax"], np.arange(n), causal)
    for kind in A.KINDS:
        for how in A.POOLINGS:
            # row bins of 7 (blocks of 2–7 rows: some line up, some do not), column bins of 7
            view = A.attention_view(s, kind=kind, pooling=how, max_bins=8)
            expected = _pool(full[kind], np.arange(n), 0, 7, 0, n, 7, how)
            np.testing.assert_allclose(view.values, expected, atol=1e-5, equal_nan=True, err_msg=f"{kind} {how}")
            np.testing.assert_allclose(view.entropy, entropy, atol=3e-5, err_msg=f"entropy {kind} {how}")
            # a region that starts inside a key block and a column bin
            region = A.attention_view(s, kind=kind, pooling=how, rows=(3, 47), cols=(11, 44), max_bins=9)
            expected = _pool(full[kind], np.arange(3, 47), 3, region.row_bin, 11, 44, region.col_bin, how)
            np.testing.assert_allclose(region.values, expected, atol=1e-5, equal_nan=True, err_msg=f"region {kind} {how}")
            zoom = A.attention_view(s, kind=kind, pooling=how, rows=(3, 47), cols=(11, 44), max_bins=9,
                                    with_profile=False)
            np.testing.assert_allclose(zoom.values, region.values, atol=1e-5, equal_nan=True, err_msg=f"zoom {kind} {how}")
    np.testing.assert_array_equal(view.distances, distances)
    np.testing.assert_allclose(view.profile, profile, atol=1e-6)
    np.testing.assert_allclose(view.entropy, entropy, atol=3e-5)
    np.testing.assert_allclose(view.received, full["softmax"].mean(1), atol=1e-6)
    np.testing.assert_allclose(view.last_query, full["softmax"][:, -1], atol=1e-6)


@pytest.mark.parametrize("causal", [True, False])
def test_blocked_sampled_rows_equal_pooling_those_rows(layout, causal):
    n = 60
    s = spec(scheme="alibi", seq_len=n, n_heads=2, head_dim=8, causal=causal)
    full = A.full_matrices(s)["softmax"]
    view = A.attention_view(s, max_bins=6, entry_budget=2 * n * 12)
    assert view.sampled
    rows = view.entropy_positions
    np.testing.assert_allclose(view.values, _pool(full, rows, 0, view.row_bin, 0, n, view.col_bin, "mean"), atol=1e-6)
    distances, profile, entropy = _profile_and_entropy(full, rows, causal)
    np.testing.assert_array_equal(view.distances, distances)
    np.testing.assert_allclose(view.profile, profile, atol=1e-6)
    np.testing.assert_allclose(view.entropy, entropy, atol=3e-5)
    np.testing.assert_allclose(view.received, full[:, rows].mean(1), atol=1e-6)


@pytest.mark.parametrize("b,w", [(1, 5), (2, 2), (4, 4), (5, 9), (7, 30)])
def test_diagonal_sums_equal_a_loop_over_rows(b, w):
    block = torch.rand(b, w)
    got, expected = torch.zeros(60), torch.zeros(60)
    blocks.add_diagonal_sums(got, block, 20)
    for i in range(b):
        for j in range(w):
            expected[20 + j - i] += block[i, j]
    torch.testing.assert_close(got, expected)


def test_head_logits_equal_the_all_heads_logits():
    for scheme in A.SCHEMES:
        for causal in (True, False):
            s = spec(scheme=scheme, seq_len=40, n_heads=3, head_dim=8, causal=causal)
            model = A.AttentionModel(s)
            rows = torch.tensor([4, 5, 6, 30])
            whole, _, _ = model.logits(rows, 40, mask_value=A.MASKED)
            q = model.queries(rows)
            for h in range(3):
                got, _ = model.head_logits(h, rows, q[h], 7, 35, torch.empty(4, 28), torch.empty(4, 28))
                torch.testing.assert_close(got, whole[h, :, 7:35], msg=f"{scheme} {causal} head {h}")


def test_cancelling_stops_every_worker(monkeypatch):
    monkeypatch.setattr(attention_threads, "WORKERS", 2)
    threads = torch.get_num_threads()
    before = set(threading.enumerate())
    seen = []

    def work(task, ws):
        seen.append(task)
        time.sleep(0.001)

    def progress(fraction):
        if fraction > 0.2:
            raise Cancelled

    with pytest.raises(Cancelled):
        attention_threads.run_tasks(list(range(1000)), work, progress, 0.0, 1.0)
    assert len(seen) < 1000 and set(threading.enumerate()) == before
    assert torch.get_num_threads() == threads  # one-thread ops only while the workers ran


def test_a_worker_error_reaches_the_caller(monkeypatch):
    monkeypatch.setattr(attention_threads, "WORKERS", 2)
    threads = torch.get_num_threads()

    def work(task, ws):
        if task == 7:
            raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        attention_threads.run_tasks(list(range(50)), work, lambda f: None, 0.0, 1.0)
    assert torch.get_num_threads() == threads
