"""The inspector's views of the seeded attention: pooled maps with profile, entropy and received attention.

Views never hold an L × L matrix: :func:`attention_view` plans the region's bins and rows
(:func:`peapp.analysis.attention.blocks.plan_blocks`), checks the memory estimate before
anything large is allocated, and runs the block machinery over the cached seeded model.  Where a
view would touch more than ``entry_budget`` logits, each row bin uses evenly spaced sample rows
(still exact over all keys) and the view says so.  ``progress`` is called between tasks and may
raise :class:`peapp.jobs.Cancelled`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import torch

from peapp.analysis.attention import blocks
from peapp.analysis.attention.blocks import (
    ENTRY_BUDGET,
    KINDS,
    POOLINGS,
    SINK_KEYS,
    compute_blocks,
    plan_blocks,
)
from peapp.analysis.attention.device import resolve_device
from peapp.analysis.attention.model import (
    KEY_CHUNK,
    AttentionModel,
    get_model,
    model_bytes,
)
from peapp.analysis.attention.schemes import checkpoint_name, scheme_spec, scheme_type
from peapp.analysis.attention.spec import SCHEME_LABELS, AttentionSpec
from peapp.analysis.attention.threads import ProgressFn, worker_count
from peapp.errors import ParameterError
from peapp.i18n import shown, translate
from peapp.jobs import Request
from peapp.memory import ensure_fits


@dataclass(frozen=True)
class AttentionView:
    """A pooled (or full-resolution) view of one region of all heads' matrices."""

    spec: AttentionSpec
    kind: str
    pooling: str
    values: np.ndarray  # [H, row bins, col bins] float32; NaN where every entry is masked
    row_start: int
    row_stop: int
    col_start: int
    col_stop: int
    row_bin: int  # query positions per displayed row (1 = full resolution)
    col_bin: int
    rows_per_bin: int  # query rows actually evaluated per row bin (row_bin unless sampled)
    distances: np.ndarray  # [D] query − key distance of the profile
    profile: np.ndarray  # [H, D] mean attention weight at each distance
    entropy_positions: np.ndarray  # [R] the query rows evaluated
    entropy: np.ndarray  # [H, R] attention entropy (nats) of those rows
    estimated_bytes: int
    # Attention each key receives ("lost in the middle" mechanism), empty without the profile:
    received: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))  # [H, L] mean over the R rows of the weight on key j
    last_query: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))  # [H, L] row L − 1's weights
    slopes: np.ndarray | None = None  # ALiBi slope per head
    t5_relative: np.ndarray | None = None  # relative positions for the bucket staircase
    t5_buckets: np.ndarray | None = None  # bucket of each relative position
    t5_table: np.ndarray | None = None  # [num_buckets, H] bias table
    words: tuple[str, ...] = ()
    embedded: tuple[str, ...] = ()  # distinct words whose vectors came from the checkpoint's embeddings
    scheme_note: str = ""  # the scheme's settings, e.g. RoPE's pair layout and base
    # Attention sink: mean share of a query's attention on key 0 / on keys 0 … sink_keys − 1, [H]
    sink_keys: int = SINK_KEYS
    sink: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    sink_first: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))

    @property
    def sampled(self) -> bool:
        return self.rows_per_bin < self.row_bin

    @property
    def full_resolution(self) -> bool:
        return self.row_bin == 1 and self.col_bin == 1

    @property
    def reduction(self) -> str:
        if self.full_resolution:
            return translate("AttentionView", "full resolution")
        pooled = {"mean": translate("AttentionView", "mean of {rows} × {cols} entries"),
                  "max": translate("AttentionView", "max of {rows} × {cols} entries")}[self.pooling]
        text = pooled.format(rows=f"{self.row_bin:,}", cols=f"{self.col_bin:,}")
        if self.sampled:
            sampled = (translate("AttentionView", " ({n} query row of every {every}, each exact over all keys)")
                       if self.rows_per_bin == 1 else
                       translate("AttentionView", " ({n} evenly spaced query rows of every {every}, each exact over all keys)"))
            text += sampled.format(n=self.rows_per_bin, every=f"{self.row_bin:,}")
        return text

    def cell_ranges(self, row_cell: int, col_cell: int) -> tuple[range, range]:
        """Query and key positions covered by one displayed cell."""
        r = self.row_start + row_cell * self.row_bin
        c = self.col_start + col_cell * self.col_bin
        return range(r, min(r + self.row_bin, self.row_stop)), range(c, min(c + self.col_bin, self.col_stop))

    def masked_cells(self) -> np.ndarray:
        """[row bins, col bins] True where the causal mask hides every entry of a cell (all its
        keys lie after all its queries): no weight at all, which is not a weight of 0."""
        rows, cols = self.values.shape[1:]
        if not self.spec.causal:
            return np.zeros((rows, cols), bool)
        last_query = np.minimum(self.row_start + (np.arange(rows) + 1) * self.row_bin, self.row_stop) - 1
        first_key = self.col_start + np.arange(cols) * self.col_bin
        return first_key[None, :] > last_query[:, None]

    def partly_masked(self, row_cell: int, col_cell: int) -> bool:
        """Whether some (not all) entries of a pooled cell are masked (their weight counts as 0 in a mean)."""
        rows, cols = self.cell_ranges(row_cell, col_cell)
        return self.spec.causal and cols.stop - 1 > rows.start and not cols.start > rows.stop - 1

    def token(self, position: int) -> str:
        """The word at a position (sentence tokens), else ''."""
        return self.words[position % len(self.words)] if self.words else ""

    def token_source(self, position: int) -> str:
        """Where the word at a position got its vector: 'model' (checkpoint embeddings) or 'hash'."""
        return "model" if self.token(position) in self.embedded else "hash"


def estimate_view_bytes(spec: AttentionSpec, row_bins: int, col_bins: int, kind: str = "softmax",
                        rows: int | None = None, device: str | torch.device = "cpu") -> int:
    """Memory a view needs: cached model (content keys only for the position term of RoPE and
    the additive schemes), a chunk of key-building temporaries, each worker's block buffers and
    accumulators, the queries of the evaluated rows, outputs and profile."""
    h, n, d = spec.n_heads, spec.seq_len, spec.head_dim
    rows = n if rows is None else rows
    workers = worker_count(device)
    block = max(blocks.BLOCK_ENTRIES, blocks.MIN_BLOCK_ROWS * n, blocks.LSE_BLOCK_ENTRIES)
    per_worker = block * 4 * blocks.BLOCK_TENSORS + (h * row_bins * col_bins + 3 * h * n) * 4
    content_scheme = scheme_type(spec.scheme).content_term
    content = kind == "position" and content_scheme
    model = model_bytes(spec) - (0 if content else 4 * h * n * d * content_scheme)
    building = 6 * h * min(n, KEY_CHUNK) * d * 4
    queries = h * rows * d * 4 * (2 if content else 1)
    outputs = h * row_bins * col_bins * 8 * 2 + row_bins * col_bins * 4
    profile = h * (2 * n) * 8 * 2 + h * rows * 4 * 2
    return model + building + workers * per_worker + queries + outputs + profile


def attention_view(spec: AttentionSpec, scheme_params: tuple = (), kind: str = "softmax",
                   pooling: str = "mean", rows: tuple[int, int | None] = (0, None),
                   cols: tuple[int, int | None] = (0, None), max_bins: int = 512,
                   progress: ProgressFn | None = None, entry_budget: int = ENTRY_BUDGET,
                   memory_budget: int | None = None, with_profile: bool = True,
                   device: str | torch.device = "cpu") -> AttentionView:
    """All heads' ``kind`` matrix over a region, pooled to at most ``max_bins`` per side.

    ``with_profile`` False skips the distance profile and entropy (a zoom needs only the region).
    The work is split into (head, block of query rows) tasks run on every core; see
    :mod:`peapp.analysis.attention.blocks`.  ``device``: the torch device to compute on ("cpu",
    "cuda", "mps"; ParameterError when this machine has none); results are numpy on the CPU.
    """
    if kind not in KINDS:
        raise ParameterError(f"view must be one of {', '.join(KINDS)}; got {kind!r}")
    if pooling not in POOLINGS:
        raise ParameterError(f"pooling must be mean or max; got {pooling!r}")
    resolved = resolve_device(device)
    plan = plan_blocks(spec.seq_len, spec.n_heads, spec.causal, rows, cols, max_bins, entry_budget)
    estimated = estimate_view_bytes(spec, plan.n_row_bins, plan.n_col_bins, kind, len(plan.eval_rows), resolved)
    ensure_fits((estimated,), 1, what="the attention view", budget=memory_budget,
                suggestion="use fewer tokens, heads or a smaller head_dim")
    progress = progress or (lambda fraction: None)
    scheme_spec(spec, scheme_params)  # validate the scheme's settings before the expensive part
    progress(0.0)
    model = get_model(spec, scheme_params, resolved)
    progress(0.02)
    stats = compute_blocks(model, plan, kind, pooling, with_profile, progress, start=0.02)
    last_query = last_query_weights(model) if with_profile else torch.zeros(spec.n_heads, 0)
    extras: dict[str, Any] = dict(model.scheme.view_extras())
    extras["scheme_note"] = scheme_note(model)
    return AttentionView(
        spec=spec, kind=kind, pooling=pooling, values=stats.values,
        row_start=stats.row_start, row_stop=stats.row_stop, col_start=stats.col_start, col_stop=stats.col_stop,
        row_bin=stats.row_bin, col_bin=stats.col_bin, rows_per_bin=stats.rows_per_bin,
        distances=stats.distances, profile=stats.profile, entropy_positions=stats.entropy_positions,
        entropy=stats.entropy, estimated_bytes=estimated, received=stats.received,
        last_query=last_query.cpu().numpy(), words=model.words, embedded=model.embedded,
        sink_keys=stats.sink_keys, sink=stats.sink, sink_first=stats.sink_first, **extras)


def last_query_weights(model: AttentionModel) -> torch.Tensor:
    """The last query's attention weights over all keys [H, L] (it sees every key, mask or not)."""
    logits, _, _ = model.logits(torch.tensor([model.n - 1], device=model.device), model.n)
    return torch.softmax(logits, dim=-1)[:, 0]


def uniform_causal_received(n: int) -> np.ndarray:
    """Mean over the n queries of the weight on key j when every query attends uniformly to the
    keys it may see (a causal mask and no other preference): (1/n)·Σ_{i≥j} 1/(i+1).

    The mask alone makes early keys collect more: key 0 is seen by every query."""
    tail = np.cumsum((1.0 / np.arange(1, n + 1))[::-1])[::-1]  # Σ_{i≥j} 1/(i+1)
    return tail / n


def received_summary(received: np.ndarray) -> str:
    """Share of the attention that lands on the first 10 %, the middle 80 % and the last 10 % of keys."""
    n = received.shape[-1]
    if n < 10:
        return ""
    edge = max(1, n // 10)
    total = float(received.sum())
    first, last = float(received[:edge].sum()), float(received[n - edge:].sum())
    middle = total - first - last
    return translate("AttentionView", "first 10% of keys {first}, middle 80% {middle}, last 10% {last}").format(
        first=f"{first / total:.0%}", middle=f"{middle / total:.0%}", last=f"{last / total:.0%}")


def scheme_note(model: AttentionModel) -> str:
    """The scheme's settings in a few words (shown in captions)."""
    return model.note()


def full_matrices(spec: AttentionSpec, scheme_params: tuple = (), device: str | torch.device = "cpu") -> dict[str, np.ndarray]:
    """Every head's full logits, position term and softmax [H, L, L] (small sizes only).

    Computed in one piece from the same model, with NaN logits / position where masked and 0
    probability there; the pooled views must agree with pooling these.
    """
    n, h = spec.seq_len, spec.n_heads
    ensure_fits((h, n, n), 4 * 5, what="the full attention matrices",
                suggestion="use attention_view, which pools in blocks, or fewer tokens")
    model = AttentionModel(spec, scheme_params, device=device)
    rows = torch.arange(n, device=model.device)
    logits, extra, future = model.logits(rows, n)
    position = model.position_term(rows, logits, extra, 0, n)
    probs = torch.softmax(logits, dim=-1)
    if future is not None:
        position = position.masked_fill(future.unsqueeze(0), float("nan"))
    return {"logits": logits.masked_fill(torch.isinf(logits), float("nan")).cpu().numpy(),
            "position": position.cpu().numpy(), "softmax": probs.cpu().numpy()}


# ---- captions and requests ------------------------------------------------------------------

def _embedding_note(view: AttentionView) -> str:
    if not view.spec.embedding_source:
        return translate("AttentionView", " (each word's vector seeded by its hash)")
    path, _, tensor = view.spec.embedding_source.rpartition("::")
    distinct = sorted(set(view.words))
    hashed = [w for w in distinct if w not in view.embedded]
    text = translate("AttentionView", " ({found} of {distinct} distinct words from {tensor} of {checkpoint}, scaled to unit "
                     "std").format(found=len(view.embedded), distinct=len(distinct), tensor=tensor,
                                   checkpoint=checkpoint_name(path))
    if view.spec.head_dim != _embedding_width(view.spec.embedding_source):
        text += translate("AttentionView", " and projected to {dims} dims by a fixed random map").format(dims=view.spec.head_dim)
    text += (translate("AttentionView", "; hashed, not whole words in its vocabulary: {words})").format(words=", ".join(hashed))
             if hashed else ")")
    return text


def _embedding_width(source: str) -> int:
    from peapp.analysis.checkpoint_tables import embedding_table
    return int(embedding_table(source).weight.shape[1])


def caption(view: AttentionView) -> str:
    spec = view.spec
    what = {"logits": translate("AttentionView", "attention logits q·k/√d (+ bias)"),
            "position": translate("AttentionView", "the position term of the logits"),
            "softmax": translate("AttentionView", "attention weights (softmax; each row sums to 1)")}[view.kind]
    if spec.tokens == "sentence":
        tokens = translate("AttentionView", "the sentence's {n} tokens repeated{note}").format(n=len(view.words),
                                                                                   note=_embedding_note(view))
    else:
        tokens = {"repeated": translate("AttentionView", "one repeated token (only position can matter)"),
                  "random": translate("AttentionView", "seeded random tokens")}[spec.tokens]
    mask = translate("AttentionView", "causal mask (future keys get no weight)") if spec.causal else translate("AttentionView", "no mask")
    note = f" — {view.scheme_note}" if view.scheme_note else ""
    text = translate("AttentionView", "{scheme}{note}: {what}, {heads} heads × {n} tokens, {tokens}, {mask}. Rows are "
                     "queries, columns keys; ").format(scheme=shown(SCHEME_LABELS[spec.scheme]), note=note, what=what,
                                                       heads=spec.n_heads, n=f"{spec.seq_len:,}", tokens=tokens,
                                                       mask=mask)
    text += (translate("AttentionView", "full resolution.") if view.full_resolution else
             translate("AttentionView", "each cell is the {reduction}; zoom in for full resolution.").format(
                 reduction=view.reduction))
    return text


@dataclass(frozen=True)
class AttentionRequest(Request):
    """The inspector's matrices for one region (pooled), with profile and entropy."""

    channel: ClassVar[str] = "attention"
    spec: AttentionSpec
    scheme_params: tuple = ()
    kind: str = "softmax"
    pooling: str = "mean"
    rows: tuple = (0, None)
    cols: tuple = (0, None)
    max_bins: int = 512
    with_profile: bool = True  # False for a zoomed region: the profile and entropy come from the overview
    device: str = "cpu"  # torch device (the Preferences compute device)

    def compute(self, progress: ProgressFn) -> AttentionView:
        return attention_view(self.spec, self.scheme_params, self.kind, self.pooling, self.rows, self.cols,
                              self.max_bins, progress, with_profile=self.with_profile, device=self.device)


__all__ = ["AttentionRequest", "AttentionView", "attention_view", "caption", "estimate_view_bytes", "full_matrices",
           "last_query_weights", "received_summary", "scheme_note", "uniform_causal_received"]
