"""Immutable compute requests: what a view asks the worker to compute.

A request is a frozen dataclass with a ``channel`` (a neutral name of the view it feeds, never
a widget's name; the GUI's worker queues each panel's requests on that panel's own channel,
where a newer request supersedes an older one) and a ``run(progress)`` method that calls the pure
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
    # False: computed only in the process that asks, never sent to another
    # (peapp.request_process): a model run, long and cancellable, whose result holds tensors
    travels: ClassVar[bool] = True

    def compute(self, progress: ProgressFn) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, progress: ProgressFn | None = None) -> Any:
        return self.compute(progress or _no_progress)


def frozen_params(values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable, ordered form of a parameter dict for use inside frozen requests."""
    return tuple(sorted(values.items()))


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
