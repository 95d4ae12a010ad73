"""Attention statistics block by block, from queries and keys, never holding the n × n matrix.

Two kinds of caller use this machinery:

* the seeded sandbox (:class:`peapp.analysis.attention.model.AttentionModel`, one scheme strategy
  per positional scheme), through :func:`peapp.analysis.attention.attention_view`;
* anything holding REAL per-head queries and keys — e.g. a transformers attention function that
  sees each layer's q and k after rotation — through :func:`attention_statistics`::

      stats = attention_statistics(q, k, scale=head_dim ** -0.5, causal=True)
      stats.values      # [H, row bins, col bins] pooled weights (mean over each cell)
      stats.profile     # [H, D] mean weight at each query − key distance stats.distances [D]
      stats.entropy     # [H, R] entropy (nats) of each evaluated query row stats.entropy_positions [R]
      stats.received    # [H, n] mean over the R rows of the weight each key receives
      stats.sink        # [H] share of attention on key 0; stats.sink_first [H]: on keys 0 … sink_keys − 1

Inputs of :func:`attention_statistics`:

* ``q`` [heads, n_q, d] and ``k`` [kv_heads, n_k, d] (any float dtype; computed in float32;
  ``kv_heads`` may divide ``heads`` — grouped-query attention, head h reads kv head
  h // (heads / kv_heads)); n_q = n_k = n, query i at position i;
* ``scale``: logits are (q·k)·scale (+ bias); default 1/√d;
* ``causal``: key j > query i gets no weight;
* ``bias``: optional callback ``bias(head, rows, cols) -> Tensor [len(rows), len(cols)]``, the
  additive term of head ``head`` for query positions ``rows`` and key positions ``cols`` (1-D
  int64 tensors on the computation's device).  Use a large finite negative (:data:`MASKED`)
  rather than −inf for extra masked keys; −inf is clamped to it;
* ``progress(fraction)``: called between blocks (0 … 1); raising from it (e.g.
  :class:`peapp.jobs.Cancelled`) stops every worker and propagates — the hook for cancel;
* ``rows`` / ``cols`` / ``max_bins`` / ``pooling`` / ``kind``: the region of the map and its
  pooling (the statistics always cover every evaluated row over all its keys);
  ``with_profile`` False computes the map of the region only (a zoom);
* ``entry_budget``: logits one call may evaluate before row bins switch to evenly spaced sample
  rows (each still exact over all its keys; ``rows_per_bin < row_bin`` says so).

How: the work is split into tasks of one head and a block of query rows (each row against all
its keys, so its softmax is exact), run on every core by worker threads while each torch op uses
one thread (:mod:`peapp.analysis.attention.threads`), with each worker's block buffers reused.
Each block is pooled (mean or max) into at most ``max_bins`` × ``max_bins`` cells of the
requested region, and adds to the distance profile (along its diagonals), the entropy of its
rows and the attention each key receives.  Rows longer than WHOLE_ROW_KEYS take two passes:
their normalisers (log-sum-exp, cached on the source for later zooms) over key blocks, then the
weights key block by key block.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from peapp.analysis.attention import threads
from peapp.device import resolve_device
from peapp.analysis.attention.softmax import MASKED, row_lse, softmax_into, weights
from peapp.analysis.attention.spec import SINK_KEYS  # the sink share's "first few" keys
from peapp.analysis.attention.threads import ProgressFn, Workspace, run_tasks
from peapp.errors import ParameterError
from peapp.memory import ensure_fits

BiasFn = Callable[[int, torch.Tensor, torch.Tensor], torch.Tensor]

KINDS = ("logits", "position", "softmax")
POOLINGS = ("mean", "max")

# Logits evaluated for one view before row bins switch from every row to sample rows.
ENTRY_BUDGET = 200_000_000
# Fewest row bins a pooled view may fall back to when the budget is tight.
MIN_ROW_BINS = 128
# Views work on one head and a block of query rows at a time: BLOCK_ENTRIES logits (rows × keys,
# 2 MB), so the block and the weights computed from it stay in cache across the passes over them
# (softmax, entropy, profile, pooling), and the worker's buffers are reused block after block.
BLOCK_ENTRIES = 1 << 19
# Long rows: at least this many rows per block, because each block re-reads the head's keys
# (16 rows of 65,536 keys: 4 MB).
MIN_BLOCK_ROWS = 16
# At most this many rows per block: with a causal mask a block computes the triangle of future keys
# of its rows too (b²/2 wasted logits), so short early rows do not make tall blocks.
MAX_BLOCK_ROWS = 256
# Buffers of block size per worker (logits, weights, bias, position term) plus slack.
BLOCK_TENSORS = 5
# Rows with more keys than this are computed in two passes over key blocks of KEY_BLOCK keys.
WHOLE_ROW_KEYS = 8192
KEY_BLOCK = 8192
# Row normalisers (log-sum-exp over all keys) of rows not seen before are computed for up to
# LSE_ROWS rows at a time against key blocks of LSE_BLOCK_ENTRIES / rows keys (one head), combined
# by log-add-exp; measured fastest with blocks of ~1M logits and 256–512 rows.
LSE_ROWS = 256
LSE_BLOCK_ENTRIES = 1 << 20
MIN_KEY_BLOCK = 256  # narrowest key block


# ---- where the logits come from ---------------------------------------------------------------

class BlockSource:
    """Queries, transposed keys and an optional additive term, with cached row normalisers.

    Subclasses set ``h`` (heads), ``n`` (tokens), ``d``, ``dtype``, ``device``, ``scale``,
    ``causal`` and ``kt`` (keys [kv heads, d, n], contiguous: q·kᵀ reads them in the layout the
    matrix product wants, and one head's keys are one contiguous block), and implement
    :meth:`queries`.  :meth:`head_bias` and :meth:`content_queries` / ``k0t`` are optional."""

    h: int
    n: int
    d: int
    dtype: torch.dtype
    device: torch.device
    scale: float
    causal: bool
    kt: torch.Tensor
    _lse: torch.Tensor | None = None  # [H, n] row normalisers, filled as views compute them
    _lse_known: np.ndarray | None = None

    def queries(self, rows: torch.Tensor) -> torch.Tensor:
        """Queries of ``rows`` [H, len(rows), d] (unscaled)."""
        raise NotImplementedError

    def content_queries(self, rows: torch.Tensor) -> torch.Tensor | None:
        """Content-only queries (no position) for the position term, or None."""
        return None

    @property
    def k0t(self) -> torch.Tensor | None:
        """Content-only keys [H, d, n] for the position term, or None."""
        return None

    def kv_head(self, h: int) -> int:
        """The key head query head ``h`` reads."""
        return h

    def head_bias(self, h: int, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor,
                  out: torch.Tensor) -> torch.Tensor | None:
        """Head ``h``'s additive term [len(rows), n_keys − key_start] written into ``out``, else None."""
        return None

    def head_logits(self, h: int, rows: torch.Tensor, q: torch.Tensor, key_start: int, n_keys: int,
                    out: torch.Tensor, bias_out: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Head ``h``'s logits of ascending query ``rows`` against keys [key_start, n_keys), written
        into ``out``: q·k·scale (+ bias), future keys MASKED.  ``q``: the rows' queries of this head.

        Returns (logits, bias or None), without temporaries the size of the block (the caller
        reuses ``out`` and ``bias_out``)."""
        torch.mm(q * self.scale, self.kt[self.kv_head(h), :, key_start:n_keys], out=out)
        bias = self.head_bias(h, rows, key_start, n_keys, q, bias_out)
        if bias is not None:
            out.add_(bias)
        if self.causal and len(rows):
            lo = max(0, int(rows[0]) + 1 - key_start)  # only keys after the first row can be masked
            # and only rows before the last key: the others see every key of the block
            last = int(torch.searchsorted(rows, n_keys - 1))
            if lo < out.shape[1] and last:
                future = torch.arange(key_start + lo, n_keys, device=self.device).reshape(1, -1) > rows[:last].reshape(-1, 1)
                out[:last, lo:].masked_fill_(future, MASKED)
        return out, bias

    def head_position(self, h: int, cq: torch.Tensor | None, logits: torch.Tensor, bias: torch.Tensor | None,
                      k0: int, k1: int, key_start: int, out: torch.Tensor) -> torch.Tensor:
        """Head ``h``'s position term for keys [k0, k1) (``logits``/``bias`` start at key_start):
        logits minus content-only logits where there are content keys (``cq``: the rows' content
        queries), else the bias, else zero."""
        region = logits[:, k0 - key_start:k1 - key_start]
        k0t = self.k0t
        if k0t is not None and cq is not None:
            content = torch.mm(cq, k0t[h, :, k0:k1], out=out).mul_(self.scale)
            return torch.sub(region, content, out=content)
        if bias is not None:
            return bias[:, k0 - key_start:k1 - key_start]
        return out.zero_()

    # ---- per-row softmax normalisers, cached ----
    def _init_lse(self) -> None:
        if self._lse is None:
            self._lse = torch.zeros(self.h, self.n, device=self.device)
            self._lse_known = np.zeros(self.n, dtype=bool)

    def row_lse(self, rows: np.ndarray, progress: ProgressFn | None = None) -> torch.Tensor:
        """log Σ_j exp(logit_ij) over every key row i may see, [H, len(rows)].

        Rows computed before (by any view of this source) are reused.  The others are computed per
        head in blocks of rows, each row against all its keys (in key blocks of LSE_BLOCK_ENTRIES
        combined by log-add-exp if a row is longer), on all workers: a zoom into a long sequence
        needs O(rows × L × head_dim) work but only a block of memory per worker."""
        self._init_lse()
        assert self._lse is not None and self._lse_known is not None
        lse, known = self._lse, self._lse_known
        missing = np.unique(rows[~known[rows]])
        if len(missing):
            rows_t = torch.from_numpy(missing.astype(np.int64)).to(self.device)
            q = self.queries(rows_t)
            keys = missing + 1 if self.causal else np.full(len(missing), self.n)
            # Many rows per block, keys in blocks: each key block is read once for LSE_ROWS rows
            # (16 rows against all 65,536 keys re-read a head's 16 MB of keys per block: 2.5× slower).
            blocks = [(a, min(len(missing), a + LSE_ROWS)) for a in range(0, len(missing), LSE_ROWS)]
            tasks = [(h, a, b) for h in range(self.h) for a, b in blocks]

            def work(task: tuple[int, int, int], ws: Workspace) -> None:
                h, a, b = task
                n_keys = int(keys[b - 1])
                step = max(MIN_KEY_BLOCK, LSE_BLOCK_ENTRIES // (b - a))
                total = torch.full((b - a,), float("-inf"), device=self.device)
                for k0 in range(0, n_keys, step):
                    k1 = min(n_keys, k0 + step)
                    # causal: rows before the key block see none of it (sampled rows of a long
                    # sequence spread over many key blocks: half the block would be masked)
                    first = a + (int(np.searchsorted(missing[a:b], k0)) if self.causal else 0)
                    logits, _ = self.head_logits(h, rows_t[first:b], q[h, first:b], k0, k1,
                                                 ws.take("logits", b - first, k1 - k0), ws.take("bias", b - first, k1 - k0))
                    block = row_lse(logits, ws.take("probs", b - first, k1 - k0))
                    total[first - a:] = torch.logaddexp(total[first - a:], block)
                lse[h, as_index(rows_t[a:b])] = total

            run_tasks(tasks, work, progress or _ignore, 0.0, 1.0, device=self.device)
            known[missing] = True
        return lse[:, rows]


class TensorSource(BlockSource):
    """Given queries [H, n, d] and keys [kv heads, n, d] (real ones, e.g. from a model layer)."""

    def __init__(self, q: torch.Tensor, k: torch.Tensor, *, scale: float | None = None, causal: bool = True,
                 bias: BiasFn | None = None, device: str | torch.device | None = None):
        if q.dim() != 3 or k.dim() != 3:
            raise ParameterError(f"queries and keys must be [heads, tokens, head_dim]; got {tuple(q.shape)} "
                                 f"and {tuple(k.shape)}")
        if q.shape[1] != k.shape[1] or q.shape[2] != k.shape[2]:
            raise ParameterError(f"queries {tuple(q.shape)} and keys {tuple(k.shape)} must have the same number "
                                 f"of tokens and the same head_dim")
        if not q.shape[1]:
            raise ParameterError("queries and keys hold no tokens; give at least one")
        if k.shape[0] < 1 or q.shape[0] % k.shape[0]:
            raise ParameterError(f"{q.shape[0]} query heads cannot share {k.shape[0]} key heads evenly")
        self.device = resolve_device(q.device if device is None else device)
        self.dtype = torch.float32
        self.h, self.n, self.d = int(q.shape[0]), int(q.shape[1]), int(q.shape[2])
        self.scale = 1.0 / math.sqrt(self.d) if scale is None else float(scale)
        self.causal = bool(causal)
        self.q = q.to(device=self.device, dtype=torch.float32)
        self.kt = k.to(device=self.device, dtype=torch.float32).transpose(1, 2).contiguous()
        self._group = self.h // int(k.shape[0])
        self._bias = bias

    def queries(self, rows: torch.Tensor) -> torch.Tensor:
        return self.q[:, rows]

    def kv_head(self, h: int) -> int:
        return h // self._group

    def head_bias(self, h: int, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor,
                  out: torch.Tensor) -> torch.Tensor | None:
        if self._bias is None:
            return None
        cols = torch.arange(key_start, n_keys, device=self.device)
        out.copy_(self._bias(h, rows, cols))
        return out.clamp_(min=MASKED)  # −inf would make 0·logit NaN in the entropy


def _ignore(fraction: float) -> None:
    """A progress callback that ignores progress."""


def as_index(rows: torch.Tensor) -> slice | torch.Tensor:
    """A slice for ascending consecutive positions (a view, no index tensor), else the positions."""
    first, last = int(rows[0]), int(rows[-1])
    return slice(first, last + 1) if last - first + 1 == len(rows) else rows


# ---- which rows and bins ---------------------------------------------------------------------

@dataclass(frozen=True)
class BlockPlan:
    """The region, its bins and the query rows to evaluate (all rows, or samples per row bin)."""

    n: int
    n_heads: int
    causal: bool
    row_start: int
    row_stop: int
    col_start: int
    col_stop: int
    row_bin: int
    n_row_bins: int
    col_bin: int
    n_col_bins: int
    eval_rows: np.ndarray
    rows_per_bin: int


def region(total: int, start: int, stop: int | None, what: str) -> tuple[int, int]:
    """[start, stop) checked against 0 … total (stop None: total)."""
    stop = total if stop is None else int(stop)
    start = int(start)
    if not 0 <= start < stop <= total:
        raise ParameterError(f"{what} range [{start:,}, {stop:,}) is not inside 0–{total:,}; zoom out or reset the view.")
    return start, stop


def bins(start: int, stop: int, max_bins: int) -> tuple[int, int]:
    """(positions per bin, bins) covering [start, stop) with at most ``max_bins`` bins."""
    n = stop - start
    size = math.ceil(n / max_bins)
    return size, math.ceil(n / size)


def rows_to_evaluate(r0: int, r1: int, row_bin: int, keys_per_row: float, n_heads: int,
                     entry_budget: int) -> tuple[np.ndarray, int]:
    """All rows of [r0, r1) if the budget allows, else evenly spaced samples in each row bin."""
    n = r1 - r0
    if n * keys_per_row * n_heads <= entry_budget:
        return np.arange(r0, r1), row_bin
    n_bins = math.ceil(n / row_bin)
    per_bin = int(max(1, min(row_bin, entry_budget // max(1.0, n_bins * keys_per_row * n_heads))))
    starts = r0 + np.arange(n_bins) * row_bin
    counts = np.minimum(row_bin, r1 - starts)
    offsets = (np.arange(per_bin) + 0.5) / per_bin
    rows = starts[:, None] + np.floor(offsets[None, :] * counts[:, None]).astype(np.int64)
    return np.unique(rows.reshape(-1)), per_bin


def plan_blocks(n: int, n_heads: int, causal: bool, rows: tuple[int, int | None] = (0, None),
                cols: tuple[int, int | None] = (0, None), max_bins: int = 512,
                entry_budget: int = ENTRY_BUDGET) -> BlockPlan:
    """Bins and evaluated rows of a view of region ``rows`` × ``cols`` of an n × n attention."""
    if max_bins < 1:
        raise ParameterError("max_bins must be at least 1")
    r0, r1 = region(n, *rows, what="query")
    c0, c1 = region(n, *cols, what="key")
    # Even one sample row per bin costs heads × keys logits; where the budget cannot pay for
    # max_bins rows, use fewer (taller) row bins — never fewer than MIN_ROW_BINS.  A region small
    # enough for full resolution (a zoom) is always computed whole, whatever it costs.
    keys_per_row = ((r0 + r1) / 2 + 1) if causal else n
    if r1 - r0 <= max_bins and c1 - c0 <= max_bins:
        entry_budget = max(entry_budget, int((r1 - r0) * keys_per_row * n_heads))  # full resolution: every row
    affordable = int(entry_budget // max(1.0, n_heads * keys_per_row))
    row_bin, n_row_bins = bins(r0, r1, max(1, min(max_bins, max(MIN_ROW_BINS, affordable))))
    col_bin, n_col_bins = bins(c0, c1, max_bins)
    eval_rows, rows_per_bin = rows_to_evaluate(r0, r1, row_bin, keys_per_row, n_heads, entry_budget)
    return BlockPlan(n=n, n_heads=n_heads, causal=causal, row_start=r0, row_stop=r1, col_start=c0, col_stop=c1,
                     row_bin=row_bin, n_row_bins=n_row_bins, col_bin=col_bin, n_col_bins=n_col_bins,
                     eval_rows=eval_rows, rows_per_bin=rows_per_bin)


def row_blocks(keys: np.ndarray, align: int = 1) -> list[tuple[int, int]]:
    """Split rows into index ranges [a, b) of one head's work: rows × keys (``keys[i]``: the keys
    row i needs, non-decreasing) within BLOCK_ENTRIES, at least MIN_BLOCK_ROWS rows, and a
    multiple of ``align`` rows where that fits (blocks then start on row-bin boundaries)."""
    out, a, total = [], 0, len(keys)
    while a < total:
        longest = min(total - a, MAX_BLOCK_ROWS, max(1, BLOCK_ENTRIES // max(1, int(keys[a]))))
        sizes = np.arange(1, longest + 1)
        fits = int(np.count_nonzero(sizes * keys[a:a + longest] <= BLOCK_ENTRIES))
        b = max(fits, min(MIN_BLOCK_ROWS, total - a))
        if align > 1 and b >= align and a + b < total:
            b -= b % align
        out.append((a, a + b))
        a += b
    return out


# ---- the result -----------------------------------------------------------------------------

@dataclass(frozen=True)
class BlockStatistics:
    """What one pass over the blocks gives, every array numpy on the CPU (float32 unless said)."""

    values: np.ndarray  # [H, row bins, col bins]; NaN where every entry of a cell is masked
    row_start: int
    row_stop: int
    col_start: int
    col_stop: int
    row_bin: int  # query positions per row bin (1 = full resolution)
    col_bin: int
    rows_per_bin: int  # query rows actually evaluated per row bin (row_bin unless sampled)
    distances: np.ndarray  # [D] int64 query − key distances of the profile
    profile: np.ndarray  # [H, D] mean attention weight at each distance
    entropy_positions: np.ndarray  # [R] int64 the query rows evaluated
    entropy: np.ndarray  # [H, R] attention entropy (nats) of those rows
    received: np.ndarray  # [H, n] mean over the R rows of the weight on key j ([H, 0] without the profile)
    sink_keys: int = SINK_KEYS
    sink: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))  # [H] mean share on key 0
    sink_first: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))  # [H] on keys < sink_keys


def sink_shares(received: np.ndarray, sink_keys: int = SINK_KEYS) -> tuple[np.ndarray, np.ndarray]:
    """Per head, the mean share of a query's attention on key 0 and on keys 0 … sink_keys − 1,
    from ``received`` [H, n] (the mean weight each key receives: each row's weights sum to 1)."""
    if not received.shape[-1]:
        return np.zeros(received.shape[:-1], np.float32), np.zeros(received.shape[:-1], np.float32)
    return (received[..., 0].astype(np.float32),
            received[..., :max(1, sink_keys)].sum(-1).astype(np.float32))


# ---- the engine -----------------------------------------------------------------------------

def compute_blocks(source: BlockSource, plan: BlockPlan, kind: str = "softmax", pooling: str = "mean",
                   with_profile: bool = True, progress: ProgressFn | None = None, start: float = 0.0,
                   sink_keys: int = SINK_KEYS) -> BlockStatistics:
    """Run ``plan`` over ``source``: the pooled ``kind`` map of the region and, with the profile,
    the distance profile, entropy, received attention and sink shares of the evaluated rows.

    ``progress`` goes from ``start`` to 1."""
    if kind not in KINDS:
        raise ParameterError(f"view must be one of {', '.join(KINDS)}; got {kind!r}")
    if pooling not in POOLINGS:
        raise ParameterError(f"pooling must be mean or max; got {pooling!r}")
    report: ProgressFn = progress or _ignore
    dev = source.device
    n, h, causal = source.n, source.h, source.causal
    r0, c0, c1 = plan.row_start, plan.col_start, plan.col_stop
    row_bin, col_bin, n_row_bins, n_col_bins = plan.row_bin, plan.col_bin, plan.n_row_bins, plan.n_col_bins
    eval_rows = plan.eval_rows

    use_max = pooling == "max"
    nonnegative = kind == "softmax"
    fill = float("-inf") if use_max else 0.0  # what a masked entry contributes to a cell
    rows_t = torch.from_numpy(eval_rows.astype(np.int64)).to(dev)
    row_cells = (rows_t - r0) // row_bin
    dense = len(eval_rows) == plan.row_stop - r0  # every row of the region (not sampled)
    aligned_bin = row_bin if dense and not use_max and row_bin > 1 else 0
    q = source.queries(rows_t)
    cq = source.content_queries(rows_t) if kind == "position" and source.k0t is not None else None
    col_starts = torch.arange(c0, c1, col_bin, device=dev)
    col_widths = (torch.clamp(col_starts + col_bin, max=c1) - col_starts).to(torch.float32)

    # Per worker (slot): cells, distance-profile sums and received weights; summed at the end.
    sums: dict[int, dict[str, torch.Tensor]] = {}

    def accumulators(slot: int) -> dict[str, torch.Tensor]:
        if slot not in sums:
            # weights ≥ 0 and a masked weight (0) counts as an entry: a max of weights starts at 0
            acc = {"cells": torch.full((h, n_row_bins, n_col_bins), 0.0 if nonnegative else fill, device=dev)}
            if with_profile:
                acc["profile"] = torch.zeros(h, 2 * n - 1, device=dev)
                acc["received"] = torch.zeros(h, n, device=dev)
            sums[slot] = acc
        return sums[slot]

    entropy = torch.zeros(h, len(eval_rows) if with_profile else 0, device=dev)

    def pool(task_h: int, a: int, b: int, ws: Workspace, logits: torch.Tensor, bias: torch.Tensor | None,
             probs: torch.Tensor | None, key_start: int, k0: int, k1: int) -> torch.Tensor | None:
        """Pool the block's region columns [k0, k1) into the worker's cells (returns the row-group
        sums of the region when it pooled them, see accumulate)."""
        if kind == "softmax":
            assert probs is not None
            part = probs[:, k0 - key_start:k1 - key_start]
        elif kind == "logits":
            part = logits[:, k0 - key_start:k1 - key_start]
        else:
            part = source.head_position(task_h, None if cq is None else cq[task_h, a:b], logits, bias, k0, k1,
                                        key_start, ws.take("position", b - a, k1 - k0))
        if causal and kind != "softmax" and k1 > k0:  # masked entries do not count (see counts)
            lo = max(0, int(eval_rows[a]) + 1 - k0)
            if lo < k1 - k0:
                future = torch.arange(k0 + lo, k1, device=dev).reshape(1, -1) > rows_t[a:b].reshape(-1, 1)
                part[:, lo:].masked_fill_(future, fill)
        block_aligned = (aligned_bin if (b - a) % max(1, aligned_bin) == 0
                         and int(eval_rows[a] - r0) % max(1, aligned_bin) == 0 else 0)
        return accumulate(accumulators(ws.slot)["cells"][task_h], part, row_cells[a:b], block_aligned,
                          col_bin, n_col_bins, use_max, nonnegative, offset=k0 - c0)

    keys = eval_rows + 1 if causal else np.full(len(eval_rows), n)  # keys each row sees
    if with_profile and int(keys[-1]) > WHOLE_ROW_KEYS:
        # Long rows, two passes: each row's normaliser first (cached; many rows against key blocks),
        # then the weights exp(logit − lse) key block by key block.  Whole rows of 65,536 keys fit
        # only 16-row blocks that re-read the head's 16 MB of keys per block: the matrix product
        # measured 2–3× slower that way than in both passes together.
        lse_all = source.row_lse(eval_rows, lambda f: report(start + (0.4 - start) * f))
        # Tasks are (head, key block): the block's keys stay in cache while every row that sees
        # them passes, a run of rows at a time (causal: only rows at or after the block's first key).
        spans = [(k0, min(int(keys[-1]), k0 + KEY_BLOCK)) for k0 in range(0, int(keys[-1]), KEY_BLOCK)]
        run = max(1, LSE_BLOCK_ENTRIES // KEY_BLOCK)
        weighted = torch.zeros(h, len(eval_rows), device=dev)  # Σ_j p·logit per row, summed over the workers' parts

        def work_key_block(task: tuple[int, int, int], ws: Workspace) -> None:
            task_h, k0, k1 = task
            acc = accumulators(ws.slot)
            if "weighted" not in acc:
                acc["weighted"] = torch.zeros(h, len(eval_rows), device=dev)
            first = int(np.searchsorted(eval_rows, k0)) if causal else 0
            for a in range(first, len(eval_rows), run):
                b = min(len(eval_rows), a + run)
                end = min(k1, int(keys[b - 1]))  # causal: no row of the run sees keys past its last row
                logits, bias = source.head_logits(task_h, rows_t[a:b], q[task_h, a:b], k0, end,
                                                  ws.take("logits", b - a, end - k0), ws.take("bias", b - a, end - k0))
                probs = weights(logits, lse_all[task_h, a:b], ws.take("probs", b - a, end - k0))
                acc["weighted"][task_h, a:b] += torch.mul(probs, logits, out=ws.take("product", b - a, end - k0)).sum(-1)
                add_profile(acc["profile"][task_h], probs, eval_rows[a:b], n, key_start=k0)
                acc["received"][task_h, k0:end] += probs.sum(0)
                if max(c0, k0) < min(c1, end):
                    pool(task_h, a, b, ws, logits, bias, probs, k0, max(c0, k0), min(c1, end))

        run_tasks([(hh, k0, k1) for hh in range(h) for k0, k1 in spans], work_key_block, report, 0.4, 1.0,
                  device=dev)
        for part in sums.values():
            if "weighted" in part:
                weighted += part["weighted"]
        entropy = lse_all - weighted
    elif with_profile:  # every row against all its keys: the profile and entropy need whole rows
        blocks = row_blocks(keys, align=aligned_bin or 1)
        source._init_lse()
        assert source._lse is not None and source._lse_known is not None
        lse_cache = source._lse

        def work_rows(task: tuple[int, int, int], ws: Workspace) -> None:
            task_h, a, b = task
            n_keys = int(keys[b - 1])
            part = rows_t[a:b]
            logits, bias = source.head_logits(task_h, part, q[task_h, a:b], 0, n_keys,
                                              ws.take("logits", b - a, n_keys), ws.take("bias", b - a, n_keys))
            probs = softmax_into(logits, ws.take("probs", b - a, n_keys))
            # log-sum-exp without another exp pass: at the largest logit, p = exp(top − lse)
            lse = logits.amax(-1).sub_(probs.amax(-1).log_())
            lse_cache[task_h, as_index(part)] = lse
            # −Σ p log p with log p = logit − lse; masked logits are −1e30 with p = 0 (0·−1e30 = 0).
            # For weights the products overwrite the logits (not needed after this; one buffer less
            # in cache).  torch.linalg.vecdot measured 10× slower than this product and row sum.
            product = logits if kind == "softmax" else ws.take("product", b - a, n_keys)
            entropy[task_h, a:b] = lse - torch.mul(probs, logits, out=product).sum(-1)
            acc = accumulators(ws.slot)
            add_profile(acc["profile"][task_h], probs, eval_rows[a:b], n)
            k1 = max(c0, min(c1, n_keys))  # causal: the region's columns after the block's last row are masked
            k0 = c0
            grouped = pool(task_h, a, b, ws, logits, bias, probs, 0, k0, k1)
            if grouped is not None and kind == "softmax" and (k0, k1) == (0, n_keys):
                acc["received"][task_h, :n_keys] += grouped.sum(0)  # the row groups of the weights already summed
            else:
                acc["received"][task_h, :n_keys] += probs.sum(0)

        run_tasks([(hh, a, b) for hh in range(h) for a, b in blocks], work_rows, report, start, 1.0, device=dev)
        source._lse_known[eval_rows] = True
    else:  # a region only: its columns, plus (for weights) each row's normaliser over all keys, cached
        lse_rows = source.row_lse(eval_rows, lambda f: report(start + (0.8 - start) * f)) if kind == "softmax" else None
        keys = np.clip(eval_rows + 1, c0, c1) - c0 if causal else np.full(len(eval_rows), c1 - c0)
        blocks = row_blocks(np.maximum(keys, 1), align=aligned_bin or 1)

        def work_region(task: tuple[int, int, int], ws: Workspace) -> None:
            task_h, a, b = task
            k1 = c0 + int(keys[b - 1])
            logits, bias, probs = torch.empty(b - a, 0, device=dev), None, None
            if k1 > c0:
                logits, bias = source.head_logits(task_h, rows_t[a:b], q[task_h, a:b], c0, k1,
                                                  ws.take("logits", b - a, k1 - c0), ws.take("bias", b - a, k1 - c0))
            if lse_rows is not None:  # weights; masked logits are −1e30: weight 0
                probs = weights(logits, lse_rows[task_h, a:b], ws.take("probs", b - a, logits.shape[1]))
            pool(task_h, a, b, ws, logits, bias, probs, c0, c0, k1)

        base = 0.8 if kind == "softmax" else start
        run_tasks([(hh, a, b) for hh in range(h) for a, b in blocks], work_region, report, base, 1.0, device=dev)

    parts = list(sums.values())
    acc = parts[0]["cells"]
    for part in parts[1:]:
        acc = torch.maximum(acc, part["cells"]) if use_max else acc.add_(part["cells"])
    if use_max:
        values = acc.masked_fill(torch.isneginf(acc), float("nan"))
    else:
        # entries per cell: every column of the cell, or for masked logits / position only keys ≤ the query
        if causal and kind != "softmax":
            width = torch.clamp(rows_t.reshape(-1, 1) + 1 - col_starts.reshape(1, -1), min=0)
            row_counts = torch.minimum(width.to(torch.float32), col_widths.reshape(1, -1))
        else:
            row_counts = col_widths.reshape(1, -1).expand(len(eval_rows), -1)
        counts = torch.zeros(n_row_bins, n_col_bins, device=dev).index_add_(0, row_cells, row_counts.contiguous())
        values = acc / counts.unsqueeze(0)  # 0/0 → NaN: every entry of the cell masked

    distances, profile = np.zeros(0, dtype=np.int64), np.zeros((h, 0), dtype=np.float32)
    received = np.zeros((h, 0), np.float32)
    if with_profile:
        prof_sum = _total(parts, "profile").flip(-1)  # key − query + n − 1 → query − key + n − 1
        # rows evaluated per distance d = row − j: the allowed keys j of each row, as a difference array
        last_key = eval_rows if causal else np.full(len(eval_rows), n - 1)
        prof_count = np.zeros(2 * n, dtype=np.int64)
        np.add.at(prof_count, n - 1 + eval_rows - last_key, 1)
        np.add.at(prof_count, n + eval_rows, -1)
        counts_per_index = np.cumsum(prof_count)[: 2 * n - 1]
        seen = counts_per_index > 0
        profile = (prof_sum.cpu().numpy()[:, seen] / counts_per_index[seen]).astype(np.float32)
        distances = np.arange(-(n - 1), n)[seen]
        received = (_total(parts, "received") / len(eval_rows)).cpu().numpy()
    sink, sink_first = sink_shares(received, sink_keys)
    return BlockStatistics(
        values=values.to(torch.float32).cpu().numpy(), row_start=r0, row_stop=plan.row_stop, col_start=c0,
        col_stop=c1, row_bin=row_bin, col_bin=col_bin, rows_per_bin=plan.rows_per_bin, distances=distances,
        profile=profile, entropy_positions=eval_rows if with_profile else eval_rows[:0],
        entropy=entropy.cpu().numpy(), received=received, sink_keys=sink_keys, sink=sink, sink_first=sink_first)


def _total(parts: list[dict[str, torch.Tensor]], name: str) -> torch.Tensor:
    """The sum of the workers' accumulators ``name``, in slot order of creation."""
    total = parts[0][name] + 0  # a new tensor (0 + x is exact), as the built-in sum gave
    for part in parts[1:]:
        total = total + part[name]
    return total


def estimate_block_bytes(n_heads: int, n: int, head_dim: int, plan: BlockPlan, device: str | torch.device = "cpu") -> int:
    """Memory :func:`attention_statistics` needs beyond its inputs: a float32 copy of the keys and
    queries, each worker's block buffers and accumulators, the row normalisers, outputs and profile."""
    workers = threads.worker_count(device)
    rows = len(plan.eval_rows)
    block = max(BLOCK_ENTRIES, MIN_BLOCK_ROWS * n, LSE_BLOCK_ENTRIES)
    cells = n_heads * plan.n_row_bins * plan.n_col_bins
    per_worker = block * 4 * BLOCK_TENSORS + (cells + 3 * n_heads * n) * 4
    copies = 2 * n_heads * n * head_dim * 4 + n_heads * n * 4
    return copies + workers * per_worker + n_heads * rows * head_dim * 4 + cells * 16 + n_heads * 2 * n * 16


def attention_statistics(q: torch.Tensor, k: torch.Tensor, *, scale: float | None = None, causal: bool = True,
                         bias: BiasFn | None = None, kind: str = "softmax", pooling: str = "mean",
                         rows: tuple[int, int | None] = (0, None), cols: tuple[int, int | None] = (0, None),
                         max_bins: int = 512, with_profile: bool = True, sink_keys: int = SINK_KEYS,
                         entry_budget: int = ENTRY_BUDGET, memory_budget: int | None = None,
                         progress: ProgressFn | None = None, device: str | torch.device | None = None,
                         source: TensorSource | None = None) -> BlockStatistics:
    """Pooled map, distance profile, entropy, received attention and sink shares per head from
    queries ``q`` [heads, n, d] and keys ``k`` [kv heads, n, d], block by block (see the module
    docstring for every argument).

    ``device``: where to compute (default: q's device); results are numpy on the CPU.
    ``source``: a :class:`TensorSource` made before from the same q and k, to reuse its cached
    row normalisers (a zoom after the whole view); q, k, scale, causal, bias, device are then ignored."""
    if source is None:
        source = TensorSource(q, k, scale=scale, causal=causal, bias=bias, device=device)
    plan = plan_blocks(source.n, source.h, source.causal, rows, cols, max_bins, entry_budget)
    ensure_fits((estimate_block_bytes(source.h, source.n, source.d, plan, source.device),), 1,
                what="the attention statistics", budget=memory_budget,
                suggestion="use fewer tokens or heads at a time")
    return compute_blocks(source, plan, kind, pooling, with_profile, progress, 0.0, sink_keys)


# ---- pooling --------------------------------------------------------------------------------

def accumulate(acc: torch.Tensor, part: torch.Tensor, row_cells: torch.Tensor, aligned_bin: int,
               col_bin: int, n_col_bins: int, use_max: bool, nonnegative: bool, offset: int = 0) -> torch.Tensor | None:
    """Pool one head's block ``part`` [B, w] (the region's columns offset … offset + w − 1) into
    its cells ``acc`` [row bins, col bins]: sum (mean) or max.  ``row_cells``: each row's row bin.

    ``aligned_bin`` > 0: the rows are whole consecutive row bins of that height starting at a bin
    boundary, so rows are summed in groups first (one pass, then the small result is pooled by
    columns; the row-group sums are returned).  Otherwise each row is pooled by columns and added
    to its row bin (returns None)."""
    if aligned_bin and not use_max:
        grouped = group_rows(part, aligned_bin)
        first = int(row_cells[0])
        acc[first:first + len(grouped)] += pool_span(grouped, offset, col_bin, n_col_bins, False, nonnegative)
        return grouped
    cells = pool_span(part, offset, col_bin, n_col_bins, use_max, nonnegative)
    if use_max:
        acc.scatter_reduce_(0, row_cells.reshape(-1, 1).expand(-1, cells.shape[1]), cells, "amax")
    else:
        acc.index_add_(0, row_cells, cells)
    return None


def group_rows(block: torch.Tensor, size: int) -> torch.Tensor:
    """Sums of consecutive groups of ``size`` rows of a block [B, w] (B a multiple of size).

    For small groups, ``size`` slice additions: measured 2× faster than a reduction over the
    middle axis of a [B/size, size, w] view."""
    groups = block.view(block.shape[0] // size, size, block.shape[1])
    if size > 16:
        return groups.sum(1)
    out = groups[:, 0].clone()
    for i in range(1, size):
        out += groups[:, i]
    return out


def pool_columns(part: torch.Tensor, size: int, use_max: bool) -> torch.Tensor:
    """Max or sum over consecutive groups of ``size`` columns (the last axis; a multiple of size)."""
    if size == 1:
        return part
    h, b, k = part.shape
    if use_max:  # max_pool1d is several times faster than a reshape + amax with small groups
        return torch.nn.functional.max_pool1d(part.reshape(h * b, 1, k), size).reshape(h, b, k // size)
    # a matrix-vector product is the fastest sum over small groups on CPU
    ones = torch.ones(size, dtype=part.dtype, device=part.device)
    return torch.matmul(part.reshape(-1, size), ones).reshape(h, b, k // size)


def pool_span(part: torch.Tensor, offset: int, size: int, n_bins: int, use_max: bool,
              nonnegative: bool) -> torch.Tensor:
    """:func:`pool_region` for one block [B, w] whose first column is column ``offset`` of the
    region (a key block of long rows): [B, n_bins]; a bin cut by the block's start gets the block's part."""
    first, skip = divmod(offset, size)
    if not first and not skip:
        return pool_region(part.unsqueeze(0), size, n_bins, use_max, nonnegative)[0]
    b, w = part.shape
    out = torch.full((b, n_bins), 0.0 if not use_max or nonnegative else float("-inf"), device=part.device)
    if skip:
        head = part[:, :min(w, size - skip)]
        out[:, first] = head.amax(-1) if use_max else head.sum(-1)
        part, first = part[:, head.shape[1]:], first + 1
    if part.shape[1]:
        out[:, first:] = pool_region(part.unsqueeze(0), size, n_bins - first, use_max, nonnegative)[0]
    return out


def pool_region(part: torch.Tensor, size: int, n_bins: int, use_max: bool, nonnegative: bool) -> torch.Tensor:
    """Pool the computed columns of a region into ``n_bins`` groups of ``size`` columns.

    ``part`` holds the first columns of the region; the columns after it (future keys of a
    causal stripe) and the padding after the region's end do not count: they contribute 0 to
    sums and nothing to maxima (weights are ≥ 0, so a masked weight of 0 never changes a max).
    Avoids padding the stripe to the region's width, which would copy all of it."""
    h, b, w = part.shape
    out = torch.full((h, b, n_bins), 0.0 if not use_max or nonnegative else float("-inf"), device=part.device)
    full = w // size
    if full:
        main = part[..., :full * size]
        if main.is_contiguous():
            out[..., :full] = pool_columns(main, size, use_max)
        else:  # a view of groups (splitting the last axis never copies)
            groups = main.unflatten(-1, (full, size))
            out[..., :full] = groups.amax(-1) if use_max else groups.sum(-1)
    if w > full * size:
        tail = part[..., full * size:]
        out[..., full] = tail.amax(-1) if use_max else tail.sum(-1)
    return out


# ---- distance profile along diagonals ---------------------------------------------------------

def skewed_sums(part: torch.Tensor) -> torch.Tensor:
    """Σ_i part[i, j] grouped by j − i, for a small block [b, m]: index j − i + b − 1 (m + b − 1 sums).

    The block is copied into the middle of rows padded with b − 1 zeros on each side; read with a
    row stride one longer, each diagonal of the block becomes a column."""
    b, m = part.shape
    width = m + 2 * (b - 1)
    padded = torch.zeros(b, width, dtype=part.dtype, device=part.device)
    padded[:, b - 1:b - 1 + m] = part
    return padded.as_strided((b, m + b - 1), (width + 1, 1)).sum(0)


def add_diagonal_sums(out: torch.Tensor, block: torch.Tensor, start: int) -> None:
    """out[start + j − i] += block[i, j] for a contiguous block [b, w] (w ≥ b): the distance
    profile of consecutive query rows, without a loop over rows or a copy of the block.

    A view with row stride w + 1 lines up block[i, i + c] in column c, covering the offsets
    0 … w − b that every row has; the two b × (b − 1) corners (offsets below 0 and above w − b)
    are summed through a small padded copy."""
    b, w = block.shape
    out[start:start + w - b + 1] += block.as_strided((b, w - b + 1), (w + 1, 1)).sum(0)
    if b > 1:
        out[start - (b - 1):start] += skewed_sums(block[:, :b - 1])[:b - 1]  # offsets −(b−1) … −1
        out[start + w - b + 1:start + w] += skewed_sums(block[:, w - b + 1:])[b - 1:]  # w−b+1 … w−1


def add_profile(out: torch.Tensor, probs: torch.Tensor, rows: np.ndarray, n: int, key_start: int = 0) -> None:
    """Add each row's weights (keys key_start … key_start + k − 1) to ``out`` indexed by
    key − query + n − 1."""
    b, k = probs.shape
    if int(rows[-1]) - int(rows[0]) == b - 1 and k >= b:  # consecutive rows: along the diagonals
        add_diagonal_sums(out, probs, n - 1 - int(rows[0]) + key_start)
        return
    for i, row in enumerate(rows):  # sampled rows: one slice per row
        lo = n - 1 - int(row) + key_start
        out[lo:lo + k] += probs[i]


__all__ = ["BLOCK_ENTRIES", "ENTRY_BUDGET", "KEY_BLOCK", "KINDS", "LSE_BLOCK_ENTRIES", "LSE_ROWS", "MASKED",
           "MAX_BLOCK_ROWS", "MIN_BLOCK_ROWS", "MIN_KEY_BLOCK", "MIN_ROW_BINS", "POOLINGS", "SINK_KEYS",
           "WHOLE_ROW_KEYS", "BiasFn", "BlockPlan", "BlockSource", "BlockStatistics", "TensorSource",
           "add_diagonal_sums", "attention_statistics", "compute_blocks", "estimate_block_bytes", "plan_blocks",
           "sink_shares"]
