"""Level-of-detail views of a family's table: never hold more than a screenful.

The heatmap asks for rows ``[start, stop)`` reduced to at most ``max_rows`` bins.  Each bin
is the mean of its rows, computed chunk by chunk, so 100k positions × 1,024 dims costs a few
MB of memory.  Where exact pooling would touch too many values, each bin averages evenly
spaced samples instead, and the result says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch

from peapp.analysis import levels as levels_policy
from peapp.analysis.levels import LEVEL_SHARE, OUTLIER_RATIO  # noqa: F401 - the heatmap's caption says them
from peapp.analysis.similarity import similarity
from peapp.encodings.base import Family
from peapp.errors import ParameterError
from peapp.params import Spec

ProgressFn = Callable[[float], None]

# Values evaluated for one pooled view before switching from exact means to sampled means.
EXACT_POOL_BUDGET = 160_000_000
# Rows evaluated per chunk (bounded memory; a cancellation point between chunks).
CHUNK_ELEMENTS = 8_000_000
# Positions sampled for a similarity matrix (it is n × n).
MAX_SIMILARITY_POSITIONS = 2048


@dataclass(frozen=True)
class TableView:
    values: np.ndarray  # [bins, cols] float32
    row_start: int
    row_stop: int
    bin_size: float  # positions per displayed row (1 = full resolution)
    total_rows: int
    reduction: str  # "full", "mean of N", "sampled mean of N", "every Nth"

    @property
    def row_positions(self) -> np.ndarray:
        """First position of each displayed row."""
        return self.row_start + np.floor(np.arange(self.values.shape[0]) * self.bin_size).astype(np.int64)


def _check_range(family: Family, spec: Spec, start: int, stop: int | None) -> tuple[int, int, int]:
    total = family.rows(spec)
    stop = total if stop is None else min(int(stop), total)
    start = max(0, int(start))
    if stop <= start:
        raise ParameterError(f"empty row range [{start}, {stop}) of {total} rows")
    return total, start, stop


def table_view(family: Family, spec: Spec, start: int = 0, stop: int | None = None,
               max_rows: int = 2048, progress: ProgressFn | None = None) -> TableView:
    """Rows [start, stop) of the family's table, pooled to at most ``max_rows`` bins."""
    total, start, stop = _check_range(family, spec, start, stop)
    n, cols = stop - start, family.cols(spec)
    bins = min(n, max(1, int(max_rows)))
    if bins == n:
        values = _chunked_rows(family, spec, torch.arange(start, stop), cols, progress)
        return TableView(values, start, stop, 1.0, total, "full")
    per_bin = n / bins
    bounds = start + np.ceil(np.linspace(0, n, bins + 1)).astype(np.int64)
    counts_np = np.diff(bounds)
    if family.pooled_rows_at is not None:
        # closed-form bin means (sinusoids): exact at any size, O(bins × cols)
        values = family.pooled_rows_at(spec, torch.from_numpy(bounds[:-1]), torch.from_numpy(counts_np))
        return TableView(values.to(torch.float32).numpy(), start, stop, per_bin, total,
                         f"mean of {per_bin:,.1f} positions per row")
    if n * cols <= EXACT_POOL_BUDGET:
        positions = torch.arange(start, stop)
        bin_index = torch.from_numpy(np.repeat(np.arange(bins), counts_np))
        reduction = f"mean of {per_bin:,.1f} positions per row"
    else:
        samples = max(1, min(int(per_bin), 8))
        offsets = (np.arange(samples) + 0.5) / samples
        pos = np.floor(bounds[:-1, None] + offsets[None, :] * counts_np[:, None]).astype(np.int64)
        positions = torch.from_numpy(np.minimum(pos, stop - 1).reshape(-1))
        bin_index = torch.arange(bins).repeat_interleave(samples)
        reduction = f"mean of {samples} samples per {per_bin:,.1f} positions"
    sums = torch.zeros(bins, cols, dtype=torch.float64)
    counts = torch.zeros(bins, dtype=torch.float64)
    nan_seen = torch.zeros(bins, cols, dtype=torch.bool)
    chunk = max(1, CHUNK_ELEMENTS // max(cols, 1))
    for lo in range(0, len(positions), chunk):
        part = family.rows_at(spec, positions[lo:lo + chunk]).to(torch.float64)
        idx = bin_index[lo:lo + chunk]
        nan = torch.isnan(part)
        if nan.any():  # masked entries (causal bias) stay masked in the pooled view
            nan_seen.index_put_((idx,), nan, accumulate=True)
            part = torch.nan_to_num(part, nan=0.0)
        sums.index_add_(0, idx, part)
        counts.index_add_(0, idx, torch.ones(len(idx), dtype=torch.float64))
        if progress is not None:
            progress(min(1.0, (lo + chunk) / len(positions)))
    values = (sums / counts.clamp_min(1).unsqueeze(1)).to(torch.float32)
    values[nan_seen] = float("nan")
    return TableView(values.numpy(), start, stop, per_bin, total, reduction)


def _chunked_rows(family: Family, spec: Spec, positions: torch.Tensor, cols: int,
                  progress: ProgressFn | None) -> np.ndarray:
    out = np.empty((len(positions), cols), dtype=np.float32)
    chunk = max(1, CHUNK_ELEMENTS // max(cols, 1))
    for lo in range(0, len(positions), chunk):
        out[lo:lo + chunk] = family.rows_at(spec, positions[lo:lo + chunk]).to(torch.float32).numpy()
        if progress is not None:
            progress(min(1.0, (lo + chunk) / len(positions)))
    return out


def similarity_view(family: Family, spec: Spec, start: int = 0, stop: int | None = None,
                    kind: str = "cosine", max_positions: int = MAX_SIMILARITY_POSITIONS,
                    progress: ProgressFn | None = None) -> TableView:
    """Position × position similarity of rows [start, stop), sampling evenly spaced positions
    when there are more than ``max_positions`` (exact values at the sampled positions)."""
    total, start, stop = _check_range(family, spec, start, stop)
    n = stop - start
    count = min(n, max_positions)
    step = n / count
    positions = torch.from_numpy(np.floor(start + np.arange(count) * step).astype(np.int64))
    rows = torch.from_numpy(_chunked_rows(family, spec, positions, family.cols(spec), progress))
    sim = similarity(torch.nan_to_num(rows, nan=0.0), kind).numpy()
    reduction = "full" if count == n else f"every {step:,.1f}th position"
    return TableView(sim, start, stop, step, total, reduction)


def default_levels(values: np.ndarray, symmetric: bool) -> tuple[float, float]:
    """Colour levels: symmetric about 0 for diverging data, else the finite min/max (no clipping)."""
    return levels_policy.colour_levels(values, "symmetric" if symmetric else "range", robust=False).levels


def colour_levels(values: np.ndarray, symmetric: bool) -> tuple[tuple[float, float], bool]:
    """``(levels, saturated)`` of a table or similarity view: the one policy,
    :func:`peapp.analysis.levels.colour_levels` (robust: a few outliers take the end colours)."""
    result = levels_policy.colour_levels(values, "symmetric" if symmetric else "range")
    return result.levels, result.saturated
