"""The attention package's runtime pieces: the softmax helper, the thread-count guard, the device."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import torch

from peapp.analysis import attention as A
from peapp.analysis.attention import model as attention_model
from peapp.analysis.attention import softmax
from peapp.analysis.attention import threads as attention_threads
from peapp.device import available_devices, resolve_device
from peapp.errors import ParameterError
from peapp.jobs import Cancelled

# ---- softmax ----


def _logits() -> torch.Tensor:
    gen = torch.Generator().manual_seed(0)
    block = torch.randn(6, 40, generator=gen) * 30
    block[1, 5:] = softmax.MASKED  # a causal row
    block[2] = softmax.MASKED  # a fully masked row
    block[3, ::2] = -600.0  # weights in the denormal range
    return block


@pytest.mark.parametrize("layout", ["contiguous", "column-slice", "transposed"])
def test_private_and_public_softmax_into_agree(layout):
    block = _logits()
    logits = {"contiguous": block, "column-slice": block[:, 3:31],
              "transposed": block.T.contiguous().T}[layout]
    assert layout == "contiguous" or not logits.is_contiguous()
    private = softmax._private_softmax_into(logits, torch.empty(logits.shape))
    public = softmax._public_softmax_into(logits, torch.empty(logits.shape))
    torch.testing.assert_close(private, public, rtol=0, atol=1e-7)
    torch.testing.assert_close(public, torch.softmax(logits.double(), -1).float(), rtol=0, atol=1e-6)


def test_the_private_softmax_is_used_where_it_works():
    assert softmax.USE_PRIVATE_SOFTMAX == softmax._private_softmax_works()
    assert softmax._private_softmax_works()  # torch of the pinned version has it: the fast path is the one tested


def test_views_with_the_public_fallback_equal_those_with_the_private_softmax(monkeypatch):
    spec = A.AttentionSpec(scheme="alibi", seq_len=120, n_heads=2, head_dim=8)
    fast = A.attention_view(spec, max_bins=40)
    zoom_fast = A.attention_view(spec, rows=(50, 90), cols=(10, 60), with_profile=False)
    monkeypatch.setattr(softmax, "USE_PRIVATE_SOFTMAX", False)
    attention_model._cache.clear()
    slow = A.attention_view(spec, max_bins=40)
    zoom_slow = A.attention_view(spec, rows=(50, 90), cols=(10, 60), with_profile=False)
    for a, b in ((fast, slow), (zoom_fast, zoom_slow)):
        np.testing.assert_allclose(a.values, b.values, atol=1e-7, equal_nan=True)
    np.testing.assert_allclose(fast.entropy, slow.entropy, atol=1e-6)
    np.testing.assert_allclose(fast.profile, slow.profile, atol=1e-7)


def test_row_lse_and_weights_of_a_block():
    logits = _logits()
    lse = softmax.row_lse(logits, torch.empty(logits.shape))
    expected = torch.logsumexp(logits.double(), -1)
    torch.testing.assert_close(lse.double()[[0, 1, 3, 4, 5]], expected[[0, 1, 3, 4, 5]], rtol=1e-6, atol=1e-4)
    part = logits[:, 10:30]  # a key block of the rows, weights against the whole rows' normalisers
    got = softmax.weights(part, lse, torch.empty(part.shape))
    exact = torch.exp(part.double() - expected.unsqueeze(-1))
    torch.testing.assert_close(got.double()[[0, 1, 3, 4, 5]], exact[[0, 1, 3, 4, 5]], rtol=1e-5, atol=1e-9)


# ---- torch's thread count ----


@pytest.fixture
def two_threads():
    """torch on two intra-op threads for the test (the suite runs with OMP_NUM_THREADS=1, where a
    restored count could not be told from a lowered one)."""
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    yield 2
    torch.set_num_threads(before)


def test_the_thread_count_is_restored_after_an_error(two_threads):
    with pytest.raises(ValueError), attention_threads.torch_threads(1):
        assert torch.get_num_threads() == 1 and attention_threads.threads_changed()
        raise ValueError("boom")
    assert torch.get_num_threads() == 2 and not attention_threads.threads_changed()


@pytest.mark.parametrize("workers", [1, 2])
def test_the_thread_count_is_restored_after_cancel_and_worker_errors(two_threads, monkeypatch, workers):
    monkeypatch.setattr(attention_threads, "WORKERS", workers)
    seen_counts = set()

    def work(task, ws):
        seen_counts.add(torch.get_num_threads())
        time.sleep(0.002)  # the calling thread gets tasks too, so it reports progress
        if task == 30:
            raise RuntimeError("a worker failed")

    def cancel(fraction):
        if fraction > 0.1:
            raise Cancelled

    with pytest.raises(Cancelled):
        attention_threads.run_tasks(list(range(25)), work, cancel, 0.0, 1.0)
    assert torch.get_num_threads() == 2
    with pytest.raises(RuntimeError, match="a worker failed"):
        attention_threads.run_tasks(list(range(60)), work, lambda f: None, 0.0, 1.0)
    assert torch.get_num_threads() == 2 and not attention_threads.threads_changed()
    assert seen_counts == {1}  # one-thread ops while the tasks ran


def test_a_cancelled_view_restores_the_thread_count(two_threads):
    spec = A.AttentionSpec(seq_len=3000, n_heads=2, head_dim=8)

    def cancel(fraction):
        if fraction > 0.3:
            raise Cancelled

    with pytest.raises(Cancelled):
        A.attention_view(spec, progress=cancel)
    assert torch.get_num_threads() == 2 and not attention_threads.threads_changed()


def test_overlapping_users_restore_once_when_the_last_ends(two_threads):
    """Two computations on two threads, the first ending while the second runs: the count stays
    lowered for the second, and is the original after both (a plain save/restore per user would
    leave it lowered for good)."""
    first_in, second_in, first_out, second_may_end = (threading.Event() for _ in range(4))
    during_second: list[int] = []

    def second() -> None:
        first_in.wait()
        with attention_threads.torch_threads(1):
            second_in.set()
            first_out.wait()
            during_second.append(torch.get_num_threads())  # this thread's count: still lowered
            during_second.append(int(attention_threads.threads_changed()))
            second_may_end.wait()

    thread = threading.Thread(target=second)
    thread.start()
    with attention_threads.torch_threads(1):
        first_in.set()
        second_in.wait()
    first_out.set()
    assert attention_threads.threads_changed()  # the second still runs
    second_may_end.set()
    thread.join()
    assert during_second == [1, 1]
    assert torch.get_num_threads() == 2 and not attention_threads.threads_changed()
    later: list[int] = []
    fresh = threading.Thread(target=lambda: later.append(torch.get_num_threads()))
    fresh.start()
    fresh.join()
    assert later == [2]  # a thread started afterwards gets the original count


def test_work_on_one_worker_is_on_the_calling_thread(monkeypatch):
    monkeypatch.setattr(attention_threads, "WORKERS", 1)
    names = set()
    attention_threads.run_tasks(list(range(5)), lambda task, ws: names.add(threading.current_thread().name),
                                lambda f: None, 0.0, 1.0)
    assert names == {threading.current_thread().name}


# ---- device ----


def test_cpu_is_a_device_and_results_are_numpy():
    assert resolve_device("cpu") == torch.device("cpu")
    assert "cpu" in available_devices()
    spec = A.AttentionSpec(scheme="t5", seq_len=30, n_heads=2, head_dim=8)
    view = A.attention_view(spec, device="cpu")
    assert isinstance(view.values, np.ndarray) and isinstance(view.t5_table, np.ndarray)
    full = A.full_matrices(spec, device="cpu")
    np.testing.assert_allclose(view.values, full["softmax"], atol=1e-6)
    request = A.AttentionRequest(spec=spec, device="cpu")
    np.testing.assert_array_equal(request.compute(lambda f: None).values, view.values)
    assert A.shuffle_test(spec, device="cpu").n_tokens == 30


@pytest.mark.parametrize("device", ["cuda", "cuda:3", "mps"])
def test_a_device_this_machine_lacks_is_refused_with_a_message(device, monkeypatch):
    # a machine without the device, on any machine (a GPU runner too)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    spec = A.AttentionSpec(seq_len=16, n_heads=1, head_dim=4)
    for call in (lambda: A.attention_view(spec, device=device), lambda: A.full_matrices(spec, device=device),
                 lambda: A.shuffle_test(spec, device=device), lambda: A.AttentionModel(spec, device=device),
                 lambda: A.AttentionRequest(spec=spec, device=device).compute(lambda f: None)):
        with pytest.raises(ParameterError, match="not available"):
            call()


@pytest.mark.parametrize("device", ["gpu", "tpu:0", ""])
def test_an_unknown_device_name_is_refused_with_a_message(device):
    with pytest.raises(ParameterError, match="cpu"):
        resolve_device(device)
