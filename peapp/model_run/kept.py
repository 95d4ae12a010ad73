"""What one run keeps so that its heads can be browsed without running the model again.

Browsing heads (Run on text: Layer, Head, a click on the head grid) used to repeat the whole
forward pass for every layer (96 s at 8,192 tokens of SmolLM2).  A run with
``RunOptions(keep_all=True)`` keeps instead, for every layer:

- the **pooled map of every head** at the panel's resolution (``map_bins`` cells per axis,
  float32 means): 8,192 tokens of SmolLM2 (30 layers × 9 heads × 256²) is 71 MB, and serving a
  head is an index (no computation);
- the layer's **q and k in the run's dtype** (after rotation), so a zoom into any layer's map
  is recomputed exactly for the visible rows (rows × n, not n²): 755 MB in float32 at the same
  size.  Recomputing a head's whole pooled map from them instead would cost n² per head
  (0.2–0.3 s at 8,192 tokens on two cores, measured by ``tests/bench/bench_browse_heads.py``),
  which is why the pooled maps are kept as well.

Each part has a cap (``keep_budget``, default a quarter of the memory the machine can spare):
what does not fit is not kept, and :attr:`KeptRun.missing` says so in one line; the panel then
runs the model again for a layer it cannot serve (the behaviour before), or zooms only into the
layer it ran.  Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from peapp.errors import ParameterError
from peapp.i18n import translate
from peapp.model_run.blocks import MapRequest, region_sums, valid_counts


def pooled_bytes(layers: int, heads: int, rows: int, cols: int) -> int:
    """Memory of every head's pooled map, float32 (float64 sums while the run collects them)."""
    return layers * heads * rows * cols * 8


def qk_bytes(layers: int, heads: int, kv_heads: int, n: int, head_dim: int, itemsize: int) -> int:
    """Memory of every layer's q [H, n, d] and k [Hkv, n, d] in the run's dtype."""
    return layers * (heads + kv_heads) * n * head_dim * itemsize


def human(nbytes: int) -> str:
    from peapp.memory import human_bytes

    return human_bytes(nbytes)


@dataclass
class KeptQK:
    """One layer's real q [H, n, d] and k [Hkv, n, d] (after rotation, the run's dtype), and how
    its attention masks and scales them."""

    q: Any  # torch.Tensor
    k: Any
    scaling: float
    causal: bool
    window: int | None
    softcap: float | None


@dataclass
class KeptRun:
    """Every layer × head's pooled map (and, within the cap, every layer's q and k) of one run.

    :meth:`head_map` serves a head's map, pooled (``window=None``: an index into :attr:`maps`) or
    a region recomputed exactly at ``bins`` cells per axis from the layer's kept q and k."""

    n: int
    heads: tuple[int, ...]  # the heads of the maps' second axis (every head unless a run chose some)
    maps: np.ndarray | None  # [L, h, rows, cols] float32 mean weight per cell, NaN where every cell is masked
    map_region: tuple[int, int, int, int]
    map_bin: tuple[int, int]
    qk: dict[int, KeptQK] = field(default_factory=dict)
    missing: str = ""  # what was not kept (over the cap), in one line; "" when everything was
    budget: int = 0

    @property
    def layers(self) -> int:
        return 0 if self.maps is None else int(self.maps.shape[0])

    @property
    def pooled_nbytes(self) -> int:
        return 0 if self.maps is None else int(self.maps.nbytes)

    @property
    def qk_nbytes(self) -> int:
        return sum(int(kept.q.numel() * kept.q.element_size() + kept.k.numel() * kept.k.element_size())
                   for kept in self.qk.values())

    @property
    def nbytes(self) -> int:
        return self.pooled_nbytes + self.qk_nbytes

    def can_browse(self, layer: int) -> bool:
        """Whether ``layer``'s pooled maps are kept (then no run is needed to show any of its heads)."""
        return self.maps is not None and 0 <= layer < self.maps.shape[0]

    def can_zoom(self, layer: int) -> bool:
        return layer in self.qk

    def head_map(self, layer: int, head: int,
                 window: tuple[tuple[int, int], tuple[int, int]] | None = None,
                 bins: int = 512) -> tuple[np.ndarray, tuple[int, int, int, int], tuple[int, int]]:
        """(values [rows, cols], region (r0, r1, c0, c1), cell size in tokens) of ``layer`` ×
        ``head``: the run's pooled map, or with ``window = ((r0, r1), (c0, c1))`` that region
        recomputed exactly from the layer's kept q and k in at most ``bins`` cells per axis."""
        if window is None:
            if not self.can_browse(layer):
                raise ParameterError(self.missing or translate("TextRun", "layer {layer} was not kept by this run.").format(
                    layer=layer))
            assert self.maps is not None
            if head not in self.heads:
                raise ParameterError(f"head {head} was not kept: the run kept heads {list(self.heads)}.")
            return self.maps[layer, self.heads.index(head)], self.map_region, self.map_bin
        values, region, cell = self.region(layer, window[0], window[1], bins, (head,))
        return values[0], region, cell

    def region(self, layer: int, rows: tuple[int, int], cols: tuple[int, int], bins: int,
               heads: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, int, int, int], tuple[int, int]]:
        """``heads``' exact mean weights over ``rows`` × ``cols`` of ``layer`` (values [h, rows, cols])."""
        kept = self.qk.get(layer)
        if kept is None:
            raise ParameterError(translate("TextRun", "zoom detail of layer {layer} needs its q and k, which this run did "
                                                    "not keep ({why}): press Run to run this layer.").format(
                layer=layer, why=self.missing or translate("TextRun", "not asked for")))
        return exact_region(kept, self.n, rows, cols, bins, heads)


def exact_region(kept: Any, n: int, rows: tuple[int, int], cols: tuple[int, int], bins: int,
                 heads: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, int, int, int], tuple[int, int]]:
    """Exact mean weights of ``heads`` over a region, recomputed from one layer's kept q and k
    (a :class:`KeptQK` or a ``runner.MapQK``): the rows of the region only, each over every key
    its softmax needs."""
    r0, r1 = max(0, int(rows[0])), min(n, int(rows[1]))
    c0, c1 = max(0, int(cols[0])), min(n, int(cols[1]))
    if r1 <= r0 or c1 <= c0:
        raise ParameterError(f"the region {rows} × {cols} is outside the {n} × {n} map.")
    bins = max(1, int(bins))
    req = MapRequest(tuple(heads), min(bins, r1 - r0), min(bins, c1 - c0), (r0, r1), (c0, c1))
    sums = region_sums(kept.q, kept.k, req, scaling=kept.scaling, causal=kept.causal, window=kept.window,
                       softcap=kept.softcap).numpy()
    counts = valid_counts(req, n, kept.causal, kept.window)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan), (r0, r1, c0, c1), req.bin_sizes()
