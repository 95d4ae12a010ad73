"""The inspector's views of the seeded attention: pooled maps with profile, entropy and received attention.

Views never hold an L × L matrix: :func:`attention_view` plans the region's bins and rows
(:func:`peapp.analysis.attention.blocks.plan_blocks`), checks the memory estimate before
anything large is allocated, and runs the block machinery over the cached seeded model.  Where a
view would touch more than ``entry_budget`` logits, each row bin uses evenly spaced sample rows
(still exact over all keys) and the view says so.  ``progress`` is called between tasks and may
raise :class:`peapp.jobs.Cancelled`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from peapp.analysis.attention import blocks
from peapp.analysis.attention.blocks import (
    ENTRY_BUDGET,
    KINDS,
    POOLINGS,
    compute_blocks,
    plan_blocks,
)
from peapp.device import resolve_device
from peapp.analysis.attention.model import (
    KEY_CHUNK,
    AttentionModel,
    get_model,
    model_bytes,
)
from peapp.analysis.attention.schemes import scheme_spec, scheme_type
from peapp.analysis.attention.result import AttentionView, caption, received_summary, uniform_causal_received
from peapp.analysis.attention.spec import AttentionSpec
from peapp.analysis.attention.threads import ProgressFn, worker_count
from peapp.errors import ParameterError
from peapp.memory import ensure_fits


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
                   device: str | torch.device = "cpu", temperature: tuple = ()) -> AttentionView:
    """All heads' ``kind`` matrix over a region, pooled to at most ``max_bins`` per side.

    ``with_profile`` False skips the distance profile and entropy (a zoom needs only the region).
    The work is split into (head, block of query rows) tasks run on every core; see
    :mod:`peapp.analysis.attention.blocks`.  ``device``: the torch device to compute on ("cpu",
    "cuda", "mps"; ParameterError when this machine has none); results are numpy on the CPU.
    ``temperature`` (attn_scale, floor_scale), NoPE only: also the entropy of the same query rows
    with each query multiplied by Llama 4's scale (:func:`temperature_entropy`).
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
    if temperature and with_profile and spec.scheme == "nope":
        extras["temperature"] = tuple(float(v) for v in temperature)
        extras["temperature_entropy"] = temperature_entropy(model, stats.entropy_positions, *temperature)
    return AttentionView(
        spec=spec, kind=kind, pooling=pooling, values=stats.values,
        row_start=stats.row_start, row_stop=stats.row_stop, col_start=stats.col_start, col_stop=stats.col_stop,
        row_bin=stats.row_bin, col_bin=stats.col_bin, rows_per_bin=stats.rows_per_bin,
        distances=stats.distances, profile=stats.profile, entropy_positions=stats.entropy_positions,
        entropy=stats.entropy, estimated_bytes=estimated, received=stats.received,
        last_query=last_query.cpu().numpy(), words=model.words, embedded=model.embedded,
        sink_keys=stats.sink_keys, sink=stats.sink, sink_first=stats.sink_first, **extras)


def temperature_entropy(model: AttentionModel, positions: np.ndarray, attn_scale: float,
                        floor_scale: float) -> np.ndarray:
    """[H, len(positions)]: each head's attention entropy at the query ``positions`` with the query
    multiplied by Llama 4's scale, 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋) — the NoPE layer's
    temperature (:func:`peapp.encodings.nope.temperature_scale`), through the one entropy function
    Run on text and ``peapp temperature`` use."""
    from peapp.analysis.temperature import entropy_by_position
    from peapp.encodings.nope import temperature_scale

    if model.spec.scheme != "nope":
        raise ParameterError("the temperature curve is for the NoPE scheme only.")
    rows = torch.as_tensor(np.asarray(positions, dtype=np.int64), device=model.device)
    scale = temperature_scale(rows.cpu(), attn_scale, floor_scale)
    return entropy_by_position(model.queries(rows), model.k, model.scale, row_scale=scale, positions=rows,
                               causal=model.causal, per_head=True)


def last_query_weights(model: AttentionModel) -> torch.Tensor:
    """The last query's attention weights over all keys [H, L] (it sees every key, mask or not)."""
    logits, _, _ = model.logits(torch.tensor([model.n - 1], device=model.device), model.n)
    return torch.softmax(logits, dim=-1)[:, 0]


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


__all__ = ["AttentionView", "attention_view", "caption", "estimate_view_bytes", "full_matrices",
           "last_query_weights", "received_summary", "scheme_note", "temperature_entropy", "uniform_causal_received"]
