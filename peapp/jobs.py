"""Immutable compute requests: what a view asks the worker to compute.

A request is a frozen dataclass with a ``channel`` (the view it feeds; a newer request on the
same channel supersedes an older one) and a ``run(progress)`` method that calls the pure
``peapp`` functions.  ``progress(fraction)`` is the worker's hook: it may raise
:class:`Cancelled` between chunks, which is how long jobs stop promptly.  Requests know
nothing of threads or widgets, so the CLI runs them directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

ProgressFn = Callable[[float], None]


class Cancelled(Exception):
    """Raised from a progress callback to stop a job that is no longer wanted."""


def _no_progress(fraction: float) -> None:
    return None


@dataclass(frozen=True)
class Request:
    """Base of all requests.  Subclasses are frozen dataclasses that implement ``compute``."""

    channel: ClassVar[str] = "default"

    def compute(self, progress: ProgressFn) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, progress: ProgressFn | None = None) -> Any:
        return self.compute(progress or _no_progress)


def frozen_params(values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable, ordered form of a parameter dict for use inside frozen requests."""
    return tuple(sorted(values.items()))


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
    # the exact row at this position comes back too (the heatmap's cross-section), so the
    # view and its cross-section are drawn in one paint
    selected_row: int | None = None

    def compute(self, progress: ProgressFn) -> "TableResult":
        from peapp import encodings
        from peapp.analysis import heatmap
        from peapp.analysis.levels import colour_levels

        import numpy as np

        fam = encodings.get(self.family)
        spec = fam.make_spec(dict(self.params))
        if self.mode == "similarity":
            view = heatmap.similarity_view(fam, spec, self.row_start, self.row_stop, self.similarity,
                                           progress=progress)
        else:
            view = heatmap.table_view(fam, spec, self.row_start, self.row_stop, self.max_rows, progress)
        wavelengths = fam.column_wavelengths(spec) if self.mode == "encoding" else None
        selected = None
        if self.mode == "encoding" and self.selected_row is not None and 0 <= self.selected_row < fam.rows(spec):
            import torch

            selected = fam.rows_at(spec, torch.tensor([self.selected_row]))[0].numpy()
        symmetric = fam.symmetric_levels if self.mode == "encoding" else True
        # here, on the worker: a quantile is not free
        shown = colour_levels(view.values, "symmetric" if symmetric else "range")
        finite = np.isfinite(view.values)
        value_range = (float(view.values[finite].min()), float(view.values[finite].max())) if finite.any() else (0.0, 0.0)
        return TableResult(request=self, view=view, caption=fam.caption(spec), row_axis=fam.row_axis,
                           col_axis=fam.col_axis if self.mode == "encoding" else fam.row_axis,
                           value_label=fam.value_label if self.mode == "encoding" else f"{self.similarity} similarity",
                           symmetric=symmetric, wavelengths=wavelengths, selected_row=selected,
                           levels=shown.levels, saturated=shown.saturated, value_range=value_range)


@dataclass(frozen=True)
class TableResult:
    request: TableRequest
    view: Any  # peapp.analysis.heatmap.TableView
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
