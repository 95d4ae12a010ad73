"""What a trained position table looks like: its PCA curve, spectrum, norms, and the sinusoidal
table of the same size for comparison; plus the worker requests the checkpoint dock uses.

Trained learned tables are known to form smooth low-dimensional curves (the first principal
components trace a helix-like path as position grows) and to concentrate their variation in
low frequencies along the position axis; these views let one check that on any checkpoint.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from peapp.jobs import ProgressFn, Request


@dataclass(frozen=True)
class TableAnalysis:
    name: str
    table: np.ndarray  # [n, d] float32, positions from 0 (offset rows removed)
    pca: np.ndarray  # [n, 2] coordinates on the first two principal components
    explained: np.ndarray  # [2] share of the variance each explains
    frequencies: np.ndarray  # [n//2 + 1] cycles per position
    spectrum: np.ndarray  # [n//2 + 1, d] |FFT| along positions, per dimension (mean removed)
    mean_spectrum: np.ndarray  # [n//2 + 1] mean over dimensions, normalised to sum 1
    norms: np.ndarray  # [n] L2 norm per position
    sinusoidal: np.ndarray  # [n, d] sinusoidal table (interleaved, base 1e4) of the same size
    sinusoidal_mean_spectrum: np.ndarray  # the same spectrum summary for the sinusoidal table
    prefix: np.ndarray | None = None  # [offset, d] rows before position 0 (CLS …), as stored


def analyse(table: np.ndarray, name: str = "table", max_positions: int = 8192) -> TableAnalysis:
    """Analyse a [positions, dim] table (at most ``max_positions`` rows are used)."""
    from peapp.encodings import sinusoidal
    from peapp.errors import ParameterError
    from peapp.memory import ensure_fits

    x = np.asarray(table, dtype=np.float32)
    if x.ndim != 2 or x.shape[0] < 3:
        raise ParameterError(f"{name}: need a [positions, dim] table with at least 3 positions; got {x.shape}")
    x = x[:max_positions]
    n, d = x.shape
    ensure_fits((n, d), 4 * 6, what=f"the analysis of {name}", suggestion="choose a smaller table")
    centred = x - x.mean(axis=0, keepdims=True)
    # PCA by SVD of the centred table: rows of vt are the principal directions
    u, s, _ = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    var = s**2
    explained = (var[:2] / var.sum()) if var.sum() > 0 else np.zeros(2)
    pca = (u[:, :2] * s[:2]).astype(np.float32)
    if pca.shape[1] < 2:
        pca = np.pad(pca, ((0, 0), (0, 2 - pca.shape[1])))
        explained = np.pad(explained, (0, 2 - len(explained)))
    spectrum = np.abs(np.fft.rfft(centred, axis=0)).astype(np.float32)
    sin_table = sinusoidal.table(n, d if d % 2 == 0 else d + 1).numpy()[:, :d]
    return TableAnalysis(name=name, table=x, pca=pca, explained=np.asarray(explained, dtype=np.float64),
                         frequencies=np.fft.rfftfreq(n), spectrum=spectrum,
                         mean_spectrum=_mean_spectrum(spectrum), norms=np.linalg.norm(x, axis=1),
                         sinusoidal=sin_table,
                         sinusoidal_mean_spectrum=_mean_spectrum(
                             np.abs(np.fft.rfft(sin_table - sin_table.mean(0), axis=0))))


def _mean_spectrum(spectrum: np.ndarray) -> np.ndarray:
    power = spectrum.astype(np.float64) ** 2
    mean = power.mean(axis=1)
    return (mean / mean.sum()) if mean.sum() > 0 else mean


@dataclass(frozen=True)
class OpenCheckpointRequest(Request):
    """Open a checkpoint and detect its position scheme (reads headers and configs only)."""

    channel: ClassVar[str] = "checkpoint"
    path: str

    def compute(self, progress: ProgressFn) -> Any:
        from peapp.checkpoints import inspect

        progress(0.0)
        report = inspect(self.path, remember=True, progress=progress)  # per shard; may cancel
        progress(1.0)
        return report


@dataclass(frozen=True)
class TableAnalysisRequest(Request):
    """Load one table (``PATH::TENSOR``) and analyse it, positions from ``offset``."""

    channel: ClassVar[str] = "checkpoint:analysis"
    source: str
    offset: int = 0

    def compute(self, progress: ProgressFn) -> TableAnalysis:
        from peapp.encodings.learned import checkpoint_table

        progress(0.0)
        table = checkpoint_table(self.source, self.offset)
        progress(0.5)
        weight = table.weight.numpy()
        result = analyse(weight[table.offset:], name=self.source.rpartition("::")[2])
        return dataclasses.replace(result, prefix=weight[:table.offset].copy())


@dataclass(frozen=True)
class DistanceView:
    """Per-head (or per-table) curves against relative distance key − query."""

    title: str
    distances: np.ndarray  # [n] key − query
    curves: np.ndarray  # [heads, n]
    value_label: str
    caption: str


def t5_by_distance(table: np.ndarray, bidirectional: bool, max_distance: int, span: int) -> DistanceView:
    """Each head's trained T5 bias for key − query in [−span, span] (causal: [−span, 0])."""
    import torch

    from peapp.encodings.relative import t5_bucket

    d = np.arange(-span, (span if bidirectional else 0) + 1)
    buckets = t5_bucket(torch.from_numpy(d), bidirectional, table.shape[0], max_distance).numpy()
    curves = np.asarray(table, dtype=np.float32)[buckets].T  # [heads, n]
    return DistanceView("T5 bias per head by distance", d, curves, "bias added to the logit",
                        f"{table.shape[1]} heads × {table.shape[0]} buckets, "
                        f"{'bidirectional' if bidirectional else 'causal'}, max distance {max_distance}: "
                        f"steps are bucket edges; beyond ±{max_distance} the bias is flat.")


def alibi_by_distance(slopes: list[float], span: int) -> DistanceView:
    """Each head's ALiBi bias −slope·(query − key) for keys up to ``span`` back."""
    d = np.arange(-span, 1)
    curves = np.asarray(slopes, dtype=np.float64)[:, None] * d[None, :]
    return DistanceView("ALiBi bias per head by distance", d, curves.astype(np.float32), "bias added to the logit",
                        f"{len(slopes)} heads, slopes {slopes[0]:.4g} … {slopes[-1]:.4g}: a straight line per "
                        f"head, steepest first; no position is stored anywhere.")


def shaw_by_distance(table: np.ndarray) -> DistanceView:
    """Norm of each Shaw distance vector, for clipped distances −k … k."""
    k = (table.shape[0] - 1) // 2
    d = np.arange(-k, k + 1)
    norms = np.linalg.norm(np.asarray(table, dtype=np.float32), axis=1)[None, : len(d)]
    return DistanceView("Shaw distance vectors: norm by distance", d, norms, "L2 norm",
                        f"{table.shape[0]} learned vectors of {table.shape[1]} dims, one per clipped distance "
                        f"−{k} … {k}; all distances beyond share the end vectors.")


@dataclass(frozen=True)
class DistanceRequest(Request):
    """Load a relative table (or take ALiBi slopes) and lay it out by distance."""

    channel: ClassVar[str] = "checkpoint:distance"
    kind: str  # "t5_relative_bias" | "alibi" | "shaw_relative"
    source: str = ""  # PATH::TENSOR for tables
    bidirectional: bool = True
    max_distance: int = 128
    slopes: tuple[float, ...] = ()
    span: int = 160

    def compute(self, progress: ProgressFn) -> DistanceView:
        if self.kind == "alibi":
            return alibi_by_distance(list(self.slopes), self.span)
        from peapp.checkpoints import open_cached

        path, _, tensor = self.source.rpartition("::")
        progress(0.0)
        table = open_cached(path).load(tensor).to(dtype=__import__("torch").float32).numpy()
        if self.kind == "t5_relative_bias":
            return t5_by_distance(table, self.bidirectional, self.max_distance, self.span)
        return shaw_by_distance(table)
