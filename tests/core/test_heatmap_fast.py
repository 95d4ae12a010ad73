"""The heatmap's fast pooled views equal the generic computation (rows computed and pooled).

Relative biases (ALiBi, T5, Shaw) are drawn from prefix sums of one distance profile, learned
tables are pooled by a sparse matmul, NoPE is zeros: each is checked here against the same
family with those shortcuts removed, i.e. every row computed by ``rows_at`` and averaged in
float64, at 4k positions (the view the app draws at that size) and with columns pooled too.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from peapp.analysis import heatmap
from peapp.encodings import get, learned

TOEPLITZ_CASES = [
    ("alibi", {"n_heads": 8, "head": 0, "causal": True}),
    ("alibi", {"n_heads": 12, "head": 7, "causal": True}),  # a slope that is not a power of two
    ("alibi", {"n_heads": 8, "head": 5, "causal": False}),
    ("t5", {"show": "bucket", "bidirectional": True}),
    ("t5", {"show": "bucket", "bidirectional": False}),
    ("t5", {"show": "bias", "bidirectional": True, "head": 3, "seed": 4}),
    ("t5", {"show": "bias", "bidirectional": False, "num_buckets": 64, "max_distance": 1000}),
    ("shaw", {"max_distance": 16}),
    ("shaw", {"max_distance": 700}),
]


def _generic(family):
    """The family without its shortcuts: the heatmap then computes and pools every row."""
    return dataclasses.replace(family, toeplitz=None, pooled_rows_at=None)


def _assert_same_view(fast, slow, scale: float) -> None:
    assert fast.values.shape == slow.values.shape
    assert (fast.bin_size, fast.col_bin_size, fast.col_start, fast.column_stop) == \
        (slow.bin_size, slow.col_bin_size, slow.col_start, slow.column_stop)
    np.testing.assert_array_equal(np.isnan(fast.values), np.isnan(slow.values))
    # float32 rounding of values up to `scale` (the generic path rounds rows to float32 first)
    np.testing.assert_allclose(fast.values, slow.values, rtol=2e-6, atol=2e-7 * scale)


@pytest.mark.parametrize("name, values", TOEPLITZ_CASES)
def test_toeplitz_view_at_4k_equals_pooling_every_row(name, values):
    family = get(name)
    spec = family.make_spec({"n_positions": 4096, **values})
    scale = float(np.nanmax(np.abs(family.rows_at(spec, torch.tensor([0, 4095])).numpy())))
    fast = heatmap.table_view(family, spec, max_rows=1000)  # the dock's request at 4k: columns whole
    slow = heatmap.table_view(_generic(family), spec, max_rows=1000)
    assert fast.values.shape == (1000, 4096)
    _assert_same_view(fast, slow, scale)


@pytest.mark.parametrize("name, values", TOEPLITZ_CASES)
def test_toeplitz_view_pooled_both_ways_and_zoomed(name, values):
    family = get(name)
    spec = family.make_spec({"n_positions": 3001, **values})
    scale = float(np.nanmax(np.abs(family.rows_at(spec, torch.tensor([0, 3000])).numpy())))
    for region in ({"max_rows": 211, "max_cols": 173},
                   {"start": 1200, "stop": 1900, "col_start": 1000, "col_stop": 2900, "max_rows": 97, "max_cols": 301},
                   {"start": 10, "stop": 40, "col_start": 5, "col_stop": 3001, "max_rows": 1000, "max_cols": 64},
                   {"start": 500, "stop": 800, "col_start": 600, "col_stop": 700, "max_rows": 1000}):
        fast = heatmap.table_view(family, spec, **region)
        slow = heatmap.table_view(_generic(family), spec, **region)
        _assert_same_view(fast, slow, scale)


def test_toeplitz_full_resolution_is_the_rows_themselves():
    family = get("alibi")
    spec = family.make_spec({"n_positions": 300, "n_heads": 8, "head": 2})
    view = heatmap.table_view(family, spec, max_rows=300)
    np.testing.assert_array_equal(view.values, family.rows_at(spec, torch.arange(300)).numpy())


def test_alibi_rows_are_the_shown_head_of_the_bias():
    from peapp.encodings import alibi

    family = get("alibi")
    for causal in (True, False):
        spec = family.make_spec({"n_positions": 200, "n_heads": 12, "head": 9, "causal": causal})
        bias = alibi.bias(12, 200, causal=causal)[9]
        np.testing.assert_array_equal(family.rows_at(spec, torch.arange(200)).numpy(),
                                      bias.masked_fill(torch.isinf(bias), float("nan")).numpy())


def test_bias_views_at_100k_positions_are_small_and_exact_where_checkable():
    family = get("alibi")
    spec = family.make_spec({"n_positions": 100_000, "n_heads": 64, "head": 63, "causal": False})
    view = heatmap.table_view(family, spec, max_rows=1000, max_cols=1500)
    assert view.values.shape == (1000, 1500)
    slope = float(family.toeplitz(spec, torch.tensor([0]))[1])
    # block (0, 0): rows 0–99, columns 0–66: mean of −slope·|i − j| in closed form
    i, j = np.arange(100)[:, None], np.arange(67)[None, :]
    assert view.values[0, 0] == pytest.approx(-slope * np.abs(i - j).mean(), rel=1e-6)
    # far from the diagonal the mean is −slope·(mean i − mean j)
    rows, cols = view.row_positions, view.col_positions
    assert view.values[999, 0] == pytest.approx(-slope * ((rows[999] + 49.5) - (cols[0] + 33)), rel=1e-6)


@pytest.mark.parametrize("rows, bins", [(4096, 1000), (100_003, 977), (1003, 97)])
def test_learned_pooled_rows_match_float64_means(rows, bins):
    family = get("learned")
    spec = family.make_spec({"n_positions": rows, "max_positions": rows + 5, "d_model": 64, "seed": 3})
    view = heatmap.table_view(family, spec, max_rows=bins)
    weight = learned.table_for(spec).weight.to(torch.float64).numpy()
    bounds = np.ceil(np.linspace(0, rows, bins + 1)).astype(int)
    expected = np.add.reduceat(weight[:rows], bounds[:-1], axis=0) / np.diff(bounds)[:, None]
    count = int(np.diff(bounds).max())
    # float32 sums: within count · 2^-24 of the largest |value|, far below what the colours show
    assert float(np.abs(view.values - expected).max()) <= count * 2.0 ** -24 * float(np.abs(weight).max())
    slow = heatmap.table_view(_generic(family), spec, max_rows=bins) if rows <= 4096 else None
    if slow is not None:
        np.testing.assert_allclose(view.values, slow.values, rtol=1e-5, atol=1e-7)


def test_learned_pooled_rows_honour_the_offset():
    weight = torch.randn(50, 4)
    table = learned.LearnedTable(weight, offset=2)
    means = table.pooled(torch.tensor([0, 10]), torch.tensor([10, 38]))
    torch.testing.assert_close(means, torch.stack((weight[2:12].mean(0), weight[12:50].mean(0))))


def test_nope_pooled_view_is_zeros():
    family = get("nope")
    spec = family.make_spec({"n_positions": 100_000, "d_model": 1024})
    view = heatmap.table_view(family, spec, max_rows=1000)
    assert view.values.shape == (1000, 1024) and not view.values.any()


def test_generic_column_pooling_is_the_block_mean():
    family = get("sinusoidal")
    spec = family.make_spec({"n_positions": 300, "d_model": 64})
    full = heatmap.table_view(family, spec, max_rows=300).values.astype(np.float64)
    view = heatmap.table_view(family, spec, max_rows=300, col_start=4, col_stop=64, max_cols=12)
    assert view.col_bin_size == 5 and list(view.col_positions[:3]) == [4, 9, 14]
    np.testing.assert_allclose(view.values, full[:, 4:].reshape(300, 12, 5).mean(2), atol=1e-6)
    assert view.col_index(4) == 0 and view.col_index(63) == 11 and view.col_index(10) == 1
