"""Level-of-detail views of a family's table: never hold more than a screenful.

The heatmap asks for rows ``[start, stop)`` reduced to at most ``max_rows`` drawn rows, in one
of two ways (``reduce``):

* ``"sample"`` (what the app draws) — every drawn row is the exact row at the first position
  of its stride, columns likewise: the values and their range are the table's own.  A mean
  would mislead: the bin mean of a dimension that turns many times within a bin is ~0 (a
  100k × 1,024 sinusoid's dimensions 0–450 drew empty, with moiré beyond), and a learned
  table's ±0.06 noise averaged to ±0.003 and took the colour bar with it.  Sampling aliases
  instead — a dimension whose wavelength is under two strides shows a slower false pattern —
  which the caption names (the dimensions it concerns) rather than hides.
* ``"mean"`` — each drawn cell is the mean of its block, computed chunk by chunk (the
  library's pooled view; exact block means, or means of evenly spaced samples where exact
  pooling would touch too many values, and the result says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar

import numpy as np

from peapp.analysis import levels as levels_policy
from peapp.analysis.levels import LEVEL_SHARE, OUTLIER_RATIO  # noqa: F401 - the heatmap's caption says them
from peapp.analysis.similarity import similarity
from peapp.encodings.base import Family
from peapp.errors import ParameterError
from peapp.i18n import translate
from peapp.jobs import Request
from peapp.params import Spec

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

ProgressFn = Callable[[float], None]

# Values evaluated for one pooled view before switching from exact means to sampled means.
EXACT_POOL_BUDGET = 160_000_000
# Rows evaluated per chunk (bounded memory; a cancellation point between chunks).
CHUNK_ELEMENTS = 8_000_000
# Positions sampled for a similarity matrix (it is n × n).
MAX_SIMILARITY_POSITIONS = 2048


@dataclass(frozen=True)
class TableView:
    values: np.ndarray  # [bins, col_bins] float32
    row_start: int
    row_stop: int
    bin_size: float  # positions per displayed row (1 = full resolution)
    total_rows: int
    reduction: str  # what was done, for the caption: "full", "mean of N …", "every Nth position …"
    # Columns [col_start, col_stop) pooled col_bin_size to a drawn column (1 = every column);
    # col_stop None: up to the last column (values.shape[1] columns when not pooled).
    col_start: int = 0
    col_stop: int | None = None
    col_bin_size: float = 1.0
    # "full" (every cell drawn), "sample" (exact values at each drawn row's/column's first
    # position) or "mean" (block means)
    method: str = "full"

    @property
    def row_positions(self) -> np.ndarray:
        """First position of each displayed row."""
        return self.row_start + np.floor(np.arange(self.values.shape[0]) * self.bin_size).astype(np.int64)

    @property
    def column_stop(self) -> int:
        return self.col_start + self.values.shape[1] if self.col_stop is None else self.col_stop

    @property
    def col_positions(self) -> np.ndarray:
        """First column of each displayed column."""
        return self.col_start + np.floor(np.arange(self.values.shape[1]) * self.col_bin_size).astype(np.int64)

    def col_index(self, column: int) -> int:
        """The displayed column holding table column ``column`` (clamped to the drawn ones)."""
        return min(max(0, int((column - self.col_start) / self.col_bin_size)), self.values.shape[1] - 1)


def _check_range(family: Family, spec: Spec, start: int, stop: int | None) -> tuple[int, int, int]:
    total = family.rows(spec)
    stop = total if stop is None else min(int(stop), total)
    start = max(0, int(start))
    if stop <= start:
        raise ParameterError(f"empty row range [{start}, {stop}) of {total} rows")
    return total, start, stop


def _bin_bounds(start: int, stop: int, bins: int) -> np.ndarray:
    """bins + 1 boundaries splitting [start, stop) into bins of ⌊n/bins⌋ or ⌈n/bins⌉ entries."""
    return start + np.ceil(np.linspace(0, stop - start, bins + 1)).astype(np.int64)


REDUCTIONS = ("sample", "mean")


def table_view(family: Family, spec: Spec, start: int = 0, stop: int | None = None,
               max_rows: int = 2048, progress: ProgressFn | None = None, *,
               col_start: int = 0, col_stop: int | None = None, max_cols: int | None = None,
               reduce: str = "mean") -> TableView:
    """Rows [start, stop) of the family's table, reduced to at most ``max_rows`` drawn rows, and
    its columns [col_start, col_stop) to at most ``max_cols`` (None: every column, unreduced).

    ``reduce="mean"``: each drawn cell is the mean of its block of the table (or of evenly
    spaced samples of it where exact means would touch too many values, said in ``reduction``);
    a block holding a masked (NaN) entry stays masked.  ``reduce="sample"``: each drawn cell is
    the exact entry at its block's first row and column (see the module docstring).
    """
    if reduce not in REDUCTIONS:
        raise ParameterError(f"unknown reduction {reduce!r}; choose one of {', '.join(REDUCTIONS)}")
    if reduce == "sample":
        return _sampled_view(family, spec, start, stop, max_rows, progress, col_start, col_stop, max_cols)
    import torch
    total, start, stop = _check_range(family, spec, start, stop)
    n_cols = family.cols(spec)
    col_stop = n_cols if col_stop is None else min(int(col_stop), n_cols)
    col_start = max(0, int(col_start))
    if col_stop <= col_start:
        raise ParameterError(f"empty column range [{col_start}, {col_stop}) of {n_cols} columns")
    width = col_stop - col_start
    col_bins = width if max_cols is None else min(width, max(1, int(max_cols)))
    n = stop - start
    bins = min(n, max(1, int(max_rows)))
    per_bin, per_col = n / bins, width / col_bins
    # "full" is the marker of a table drawn whole (never shown); the other labels are shown
    pooled_label = translate("HeatmapView", "mean of {n:,.1f} positions per row").format(n=per_bin) \
        if bins < n else "full"
    if per_col > 1:
        pooled_label = translate("HeatmapView", "mean of {rows:,.1f} × {cols:,.1f} cells per drawn cell").format(
            rows=per_bin, cols=per_col)
    if family.toeplitz is not None:
        # entry (i, j) depends on j − i only: every block mean is exact from prefix sums of one
        # distance profile, in time linear in the cells drawn
        values = _toeplitz_view(family, spec, _bin_bounds(start, stop, bins), _bin_bounds(col_start, col_stop, col_bins))
        return TableView(values, start, stop, per_bin, total, pooled_label, col_start, col_stop, per_col,
                         "full" if pooled_label == "full" else "mean")
    if bins == n:
        values = _chunked_rows(family, spec, torch.arange(start, stop), n_cols, progress)
        return _pool_columns(values, start, stop, 1.0, total, "full", col_start, col_stop, col_bins)
    bounds = _bin_bounds(start, stop, bins)
    counts_np = np.diff(bounds)
    if family.pooled_rows_at is not None:
        # closed-form or direct bin means (sinusoids, learned tables, NoPE): exact at any size
        means = family.pooled_rows_at(spec, torch.from_numpy(bounds[:-1]), torch.from_numpy(counts_np))
        return _pool_columns(means.to(torch.float32).numpy(), start, stop, per_bin, total,
                             pooled_label, col_start, col_stop, col_bins)
    if n * n_cols <= EXACT_POOL_BUDGET:
        positions = torch.arange(start, stop)
        bin_index = torch.from_numpy(np.repeat(np.arange(bins), counts_np))
        reduction = pooled_label
    else:
        samples = max(1, min(int(per_bin), 8))
        offsets = (np.arange(samples) + 0.5) / samples
        pos = np.floor(bounds[:-1, None] + offsets[None, :] * counts_np[:, None]).astype(np.int64)
        positions = torch.from_numpy(np.minimum(pos, stop - 1).reshape(-1))
        bin_index = torch.arange(bins).repeat_interleave(samples)
        reduction = translate("HeatmapView", "mean of {samples} samples per {n:,.1f} positions").format(
            samples=samples, n=per_bin)
    sums = torch.zeros(bins, n_cols, dtype=torch.float64)
    counts = torch.zeros(bins, dtype=torch.float64)
    nan_seen = torch.zeros(bins, n_cols, dtype=torch.bool)
    chunk = max(1, CHUNK_ELEMENTS // max(n_cols, 1))
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
    pooled = (sums / counts.clamp_min(1).unsqueeze(1)).to(torch.float32)
    pooled[nan_seen] = float("nan")
    return _pool_columns(pooled.numpy(), start, stop, per_bin, total, reduction, col_start, col_stop, col_bins)


def _pool_columns(values: np.ndarray, start: int, stop: int, per_bin: float, total: int, reduction: str,
                  col_start: int, col_stop: int, col_bins: int) -> TableView:
    """Columns [col_start, col_stop) of row-pooled ``values`` [bins, all columns], pooled to
    ``col_bins`` (equal row weights per column, so a cell is its block's mean; NaN spreads)."""
    values = values[:, col_start:col_stop]
    width = col_stop - col_start
    method = "full" if reduction == "full" else "mean"
    if col_bins >= width:
        return TableView(np.ascontiguousarray(values), start, stop, per_bin, total, reduction, col_start, col_stop,
                         method=method)
    bounds = _bin_bounds(0, width, col_bins)
    sums = np.add.reduceat(values, bounds[:-1], axis=1, dtype=np.float64)
    pooled = (sums / np.diff(bounds)[None, :]).astype(np.float32)
    return TableView(pooled, start, stop, per_bin, total, reduction, col_start, col_stop, width / col_bins, "mean")


def _strided(start: int, stop: int, count: int) -> np.ndarray:
    """``count`` positions of [start, stop), the first of each of ``count`` equal strides."""
    return start + np.floor(np.arange(count) * ((stop - start) / count)).astype(np.int64)


def _sampled_view(family: Family, spec: Spec, start: int, stop: int | None, max_rows: int,
                  progress: ProgressFn | None, col_start: int, col_stop: int | None,
                  max_cols: int | None) -> TableView:
    """The exact entries at evenly strided rows and columns (``reduce="sample"``)."""
    import torch
    total, start, stop = _check_range(family, spec, start, stop)
    n_cols = family.cols(spec)
    col_stop = n_cols if col_stop is None else min(int(col_stop), n_cols)
    col_start = max(0, int(col_start))
    if col_stop <= col_start:
        raise ParameterError(f"empty column range [{col_start}, {col_stop}) of {n_cols} columns")
    n, width = stop - start, col_stop - col_start
    bins = min(n, max(1, int(max_rows)))
    col_bins = width if max_cols is None else min(width, max(1, int(max_cols)))
    per_bin, per_col = n / bins, width / col_bins
    rows, cols = _strided(start, stop, bins), _strided(col_start, col_stop, col_bins)
    if family.toeplitz is not None:
        # entry (i, j) = f(j − i): one profile over the distances the strided cells span
        lowest = int(cols[0] - rows[-1])
        profile, factor = family.toeplitz(spec, torch.arange(lowest, int(cols[-1] - rows[0]) + 1, dtype=torch.long))
        index = cols[None, :] - rows[:, None] - lowest
        values = (profile.to(torch.float64).numpy()[index] * float(factor)).astype(np.float32)
    else:
        values = _chunked_rows(family, spec, torch.from_numpy(rows), n_cols, progress)
        values = np.ascontiguousarray(values[:, cols]) if col_bins < n_cols or col_start else values
    if bins == n and col_bins == width:
        return TableView(values, start, stop, 1.0, total, "full", col_start, col_stop, 1.0, "full")
    parts = []
    if bins < n:
        parts.append(translate("HeatmapView", "every {nth} position").format(nth=stride_text(per_bin)))
    if col_bins < width:
        parts.append(translate("HeatmapView", "every {nth} column").format(nth=stride_text(per_col)))
    reduction = translate("HeatmapView", "{strides}, exact values at those").format(strides=" × ".join(parts))
    return TableView(values, start, stop, per_bin, total, reduction, col_start, col_stop, per_col, "sample")


def stride_text(stride: float) -> str:
    """'216th' for a whole stride, '~339th' (or '~6.7th' below 10) otherwise: strides then vary
    by one position between rows."""
    whole = int(round(stride))
    if math.isclose(stride, whole, abs_tol=1e-9) or stride >= 10:
        suffix = "th" if 10 <= whole % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(whole % 10, "th")
        ordinal = {"st": translate("HeatmapView", "{n:,}st"), "nd": translate("HeatmapView", "{n:,}nd"),
                   "rd": translate("HeatmapView", "{n:,}rd"), "th": translate("HeatmapView", "{n:,}th")}[suffix]
        return ("" if math.isclose(stride, whole, abs_tol=1e-9) else "~") + ordinal.format(n=whole)
    return "~" + translate("HeatmapView", "{n:,.1f}th").format(n=stride)


# Largest magnitude the fixed-point prefix sums of a Toeplitz view may reach (int64 headroom).
_PREFIX_LIMIT = 2.0 ** 62


def _toeplitz_view(family: Family, spec: Spec, row_bounds: np.ndarray, col_bounds: np.ndarray) -> np.ndarray:
    """Means of f(j − i) over every block [row_bounds[a], row_bounds[a+1]) × [col_bounds[b], …).

    With F the prefix sum of f over distances and G the prefix sum of F, a block's sum is
    H(r₀, c₁) − H(r₁, c₁) − H(r₀, c₀) + H(r₁, c₀) where H(r, c) = G(c − r + 1): one gather per
    bin boundary pair.  The sums are taken in int64 fixed point, exact for integer profiles
    (T5 buckets, Shaw distances, ALiBi distances before the slope) and within 2^−24 of the
    largest |f| otherwise (T5 bias values); masked (NaN) entries are counted the same way.
    """
    import torch
    r_start, r_stop = int(row_bounds[0]), int(row_bounds[-1])
    c_start, c_stop = int(col_bounds[0]), int(col_bounds[-1])
    lowest = c_start - (r_stop - 1)  # smallest j − i in the region
    distances = torch.arange(lowest, c_stop - r_start, dtype=torch.long)
    assert family.toeplitz is not None  # the caller checked
    profile, factor = family.toeplitz(spec, distances)
    profile = profile.to(torch.float64)
    rows_full = len(row_bounds) - 1 == r_stop - r_start
    cols_full = len(col_bounds) - 1 == c_stop - c_start
    if rows_full and cols_full:  # every entry drawn: a plain gather
        index = torch.arange(c_start, c_stop).reshape(1, -1) - torch.arange(r_start, r_stop).reshape(-1, 1) - lowest
        return (profile[index] * factor).to(torch.float32).numpy()
    masked = torch.isnan(profile)
    profile = torch.nan_to_num(profile, nan=0.0)
    length = len(distances)
    largest = float(profile.abs().max()) if length else 0.0
    # a power-of-two scale: integer profiles stay exact, and |G| ≤ length² · max|f| · scale < 2^62
    scale = 2.0 ** math.floor(math.log2(_PREFIX_LIMIT / (length + 2) ** 2 / largest)) if largest > 0 else 1.0
    second = torch.zeros(length + 2, dtype=torch.long)
    second[2:] = torch.cumsum(torch.cumsum(torch.round(profile * scale).to(torch.long), 0), 0)
    rows = torch.from_numpy(row_bounds).reshape(-1, 1)
    cols = torch.from_numpy(col_bounds).reshape(1, -1)
    h = second[cols - rows + 1 - lowest]  # H(r, c) = G[c − r + 1 − lowest] at every boundary pair
    down = h[:-1] - h[1:]  # Σ over the rows of a bin of F(c − i), at every column boundary c
    sums = (down[:, 1:] - down[:, :-1]).to(torch.float64)
    sums *= torch.from_numpy(1.0 / np.diff(row_bounds)).reshape(-1, 1)
    sums *= torch.from_numpy(factor / scale / np.diff(col_bounds)).reshape(1, -1)
    values = sums.to(torch.float32)
    if bool(masked.any()):
        # a block spans every distance from c₀ − (r₁ − 1) to (c₁ − 1) − r₀: masked iff one of them is
        masked_before = torch.zeros(length + 1, dtype=torch.int32)
        masked_before[1:] = torch.cumsum(masked.to(torch.int32), 0)
        smallest = cols[:, :-1] - rows[1:] + 1 - lowest
        biggest = cols[:, 1:] - 1 - rows[:-1] - lowest
        values[masked_before[biggest + 1] > masked_before[smallest]] = float("nan")
    return values.numpy()


def _chunked_rows(family: Family, spec: Spec, positions: torch.Tensor, cols: int,
                  progress: ProgressFn | None) -> np.ndarray:
    import torch
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
    import torch
    total, start, stop = _check_range(family, spec, start, stop)
    n = stop - start
    count = min(n, max_positions)
    step = n / count
    positions = torch.from_numpy(np.floor(start + np.arange(count) * step).astype(np.int64))
    rows = torch.from_numpy(_chunked_rows(family, spec, positions, family.cols(spec), progress))
    sim = similarity(torch.nan_to_num(rows, nan=0.0), kind).numpy()
    reduction = "full" if count == n else translate("HeatmapView", "every {n:,.1f}th position").format(n=step)
    return TableView(sim, start, stop, step, total, reduction)


def _similarity_name(kind: str) -> str:
    """The similarity view's colour-bar label in the current language."""
    return translate("HeatmapView", "dot similarity") if kind == "dot" else translate("HeatmapView", "cosine similarity")


def default_levels(values: np.ndarray, symmetric: bool) -> tuple[float, float]:
    """Colour levels: symmetric about 0 for diverging data, else the finite min/max (no clipping)."""
    return levels_policy.colour_levels(values, "symmetric" if symmetric else "range", robust=False).levels


def colour_levels(values: np.ndarray, symmetric: bool) -> tuple[tuple[float, float], bool]:
    """``(levels, saturated)`` of a table or similarity view: the one policy,
    :func:`peapp.analysis.levels.colour_levels` (robust: a few outliers take the end colours)."""
    result = levels_policy.colour_levels(values, "symmetric" if symmetric else "range")
    return result.levels, result.saturated


# ---- the heatmap's request and result (run on the compute worker) ---------------------------

@dataclass(frozen=True)
class TableRequest(Request):
    """The heatmap's table (or similarity) view of one family, level-of-detail reduced."""

    channel: ClassVar[str] = "heatmap"
    family: str
    params: tuple[tuple[str, Any], ...]
    mode: str = "encoding"  # "encoding" | "similarity"
    row_start: int = 0
    row_stop: int | None = None
    max_rows: int = 2048
    similarity: str = "cosine"
    # columns [col_start, col_stop) pooled to at most max_cols (None: every column, unpooled);
    # the dock pools only tables wider than it draws whole (bias matrices of long sequences)
    col_start: int = 0
    col_stop: int | None = None
    max_cols: int | None = None
    # the exact row at this position comes back too (the heatmap's cross-section), so the
    # view and its cross-section are drawn in one paint
    selected_row: int | None = None
    # how a table larger than the plot is reduced (table_view): exact entries at a stated
    # stride, so colours and colour bar show the table's own values
    reduce: str = "sample"

    def compute(self, progress: ProgressFn) -> "TableResult":
        import torch
        from peapp import encodings

        fam = encodings.get(self.family)
        spec = fam.make_spec(dict(self.params))
        if self.mode == "similarity":
            view = similarity_view(fam, spec, self.row_start, self.row_stop, self.similarity,
                                           progress=progress)
        else:
            view = table_view(fam, spec, self.row_start, self.row_stop, self.max_rows, progress,
                                      col_start=self.col_start, col_stop=self.col_stop, max_cols=self.max_cols,
                              reduce=self.reduce)
        wavelengths = fam.column_wavelengths(spec) if self.mode == "encoding" else None
        selected = None
        if self.mode == "encoding" and self.selected_row is not None and 0 <= self.selected_row < fam.rows(spec):
            selected = fam.rows_at(spec, torch.tensor([self.selected_row]))[0].numpy()
        symmetric = fam.symmetric_levels if self.mode == "encoding" else True
        # here, on the worker: a quantile is not free
        shown = levels_policy.colour_levels(view.values, "symmetric" if symmetric else "range")
        finite = np.isfinite(view.values)
        value_range = (float(view.values[finite].min()), float(view.values[finite].max())) if finite.any() else (0.0, 0.0)
        return TableResult(request=self, view=view, caption=fam.caption(spec), row_axis=fam.row_axis,
                           col_axis=fam.col_axis if self.mode == "encoding" else fam.row_axis,
                           value_label=fam.value_name(spec) if self.mode == "encoding" else _similarity_name(self.similarity),
                           symmetric=symmetric, wavelengths=wavelengths, selected_row=selected,
                           levels=shown.levels, saturated=shown.saturated, value_range=value_range)


@dataclass(frozen=True)
class TableResult:
    request: TableRequest
    view: TableView
    caption: str
    row_axis: str
    col_axis: str
    value_label: str
    symmetric: bool
    wavelengths: Any = None  # np.ndarray per column, or None
    selected_row: Any = None  # np.ndarray: the exact row at request.selected_row, or None
    levels: tuple[float, float] = (-1.0, 1.0)  # colour levels (peapp.analysis.levels)
    saturated: bool = False  # True: a few outliers lie beyond the levels
    value_range: tuple[float, float] = (0.0, 0.0)  # (min, max) of the finite values drawn


# ---- cross-sections: one exact row or column (the heatmap's clicked position) ----------------

@dataclass(frozen=True)
class RowRequest(Request):
    """One exact row of a family's table (the heatmap's cross-section of a clicked position)."""

    family: str
    params: tuple[tuple[str, Any], ...]
    position: int

    def compute(self, progress: ProgressFn) -> Any:
        import torch

        from peapp import encodings

        fam = encodings.get(self.family)
        spec = fam.make_spec(dict(self.params))
        return fam.rows_at(spec, torch.tensor([self.position]))[0].numpy()


@dataclass(frozen=True)
class AnsweredRowRequest(RowRequest):
    """A :class:`RowRequest` whose result says which request it answers: ``(request, row)``
    (the heatmap's clicked row: the click may have moved on when the row arrives)."""

    def compute(self, progress: ProgressFn) -> Any:
        return self, super().compute(progress)


@dataclass(frozen=True)
class ColumnRequest(Request):
    """One exact column of a family's table over rows [row_start, row_stop): the heatmap's
    column cross-section when the table itself is drawn pooled (bin means of a fast column
    shrink towards 0, so they would misstate its amplitude).  Only for families with a cheap
    ``column_at`` (sinusoidal, RoPE, learned); for the others a column costs as much as the
    table, and the result is ``None``."""

    family: str
    params: tuple[tuple[str, Any], ...]
    column: int
    row_start: int = 0
    row_stop: int | None = None

    def compute(self, progress: ProgressFn) -> "ColumnResult | None":
        import numpy as np
        import torch

        from peapp import encodings
        from peapp.memory import ensure_fits

        fam = encodings.get(self.family)
        if fam.column_at is None:
            return None
        spec = fam.make_spec(dict(self.params))
        stop = fam.rows(spec) if self.row_stop is None else min(self.row_stop, fam.rows(spec))
        start = max(0, self.row_start)
        n = max(0, stop - start)
        ensure_fits((n,), 4 + 8, what="a column of the table", suggestion="ask for fewer positions")
        values = np.empty(n, dtype=np.float32)
        chunk = 1 << 20
        for lo in range(0, n, chunk):
            positions = torch.arange(start + lo, start + min(n, lo + chunk))
            values[lo:lo + len(positions)] = fam.column_at(spec, positions, self.column).numpy()
            progress(min(1.0, (lo + chunk) / max(n, 1)))
        return ColumnResult(request=self, positions=np.arange(start, stop), values=values)


@dataclass(frozen=True)
class ColumnResult:
    request: ColumnRequest
    positions: Any  # np.ndarray
    values: Any  # np.ndarray, float32
