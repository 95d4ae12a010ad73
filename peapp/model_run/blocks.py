"""Exact attention of one layer, computed block by block with its statistics (torch only).

``attend`` takes a layer's real q [heads, n, d] and k/v [kv heads, n, d] (after rotation) and
returns the attention output exactly as transformers' eager path computes it, while it adds to a
:class:`LayerStats` the numbers the views need — never holding more than one block of query rows
× keys.  The diagonal sums behind the distance profile are the attention analysis' strided-view
method (:mod:`peapp.analysis.attention`), here over every head at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from peapp.analysis.attention.softmax import MASKED, softmax_into

# One block: heads × query rows × keys of float32 logits (and as many weights), ≤ 4 MB each, so
# the passes over it (scale, mask, softmax, entropy, profile, pooling, weights · v) mostly hit
# the cache; the two buffers are reused block after block (fresh multi-MB tensors cost page faults).
BLOCK_ENTRIES = 1 << 20
MAX_BLOCK_ROWS = 256  # causal blocks compute the triangle of future keys of their rows: b²/2 wasted
MIN_BLOCK_ROWS = 16  # each block re-reads the layer's keys
_DIAGONAL_ROWS = 64  # rows per diagonal-sum group: the skewed corners cost rows² per group
# A half-precision weights · v product runs on keys padded (with zero weights) to a multiple of
# HALF_PRODUCT_KEYS, or of an eighth of the power of two below the width where that is more
# (≤ 12.5 % padding): oneDNN, which runs torch's bf16/fp16 products on a CPU, keeps a JIT-compiled
# kernel of about 550 KB for every product shape it has seen (up to 1,024), and unpadded every
# block of a causal layer has its own width: 369 shapes at 8,192 tokens, 290 MB more in bfloat16
# than in float32, with the content term's product as many again (measured with glibc's
# mallinfo2); padded, a run has a few dozen widths, growing with log n.
HALF_PRODUCT_KEYS = 128
HALF_PRODUCT_STEPS = 8  # padded widths per doubling of the width, past 8 × HALF_PRODUCT_KEYS
_MASKED = MASKED

@dataclass
class MapRequest:
    """A pooled map of some heads of one layer over a region of the full map."""

    heads: tuple[int, ...]
    row_bins: int
    col_bins: int
    rows: tuple[int, int]  # [start, stop) query rows
    cols: tuple[int, int]  # [start, stop) keys

    def bin_sizes(self) -> tuple[int, int]:
        return (math.ceil((self.rows[1] - self.rows[0]) / self.row_bins),
                math.ceil((self.cols[1] - self.cols[0]) / self.col_bins))

    def shape(self) -> tuple[int, int]:
        rb, cb = self.bin_sizes()
        return (math.ceil((self.rows[1] - self.rows[0]) / rb), math.ceil((self.cols[1] - self.cols[0]) / cb))


@dataclass
class LayerStats:
    """Sums over every query row of one layer, per head; filled block by block by ``attend``."""

    n: int
    heads: int
    diagonal: torch.Tensor = field(init=False)  # [heads, 2n−1]: Σ weight at key − query + n − 1
    received: torch.Tensor = field(init=False)  # [heads, n]: Σ over queries of the weight each key gets
    entropy: torch.Tensor = field(init=False)  # [heads]: Σ over queries of the row's entropy (nats)
    maps: list = field(default_factory=list)  # (MapRequest, weight sums [h, rb, cb])
    logit_maps: list = field(default_factory=list)  # (MapRequest, head, "real" | "term", logit sums)
    logit_moments: dict = field(default_factory=dict)  # head → [Σx, Σx², Σy, Σy², Σxy, count] (x real logits, y the other term)

    def __post_init__(self):
        self.diagonal = torch.zeros(self.heads, 2 * self.n - 1, dtype=torch.float64)
        self.received = torch.zeros(self.heads, self.n, dtype=torch.float64)
        self.entropy = torch.zeros(self.heads, dtype=torch.float64)


def _row_blocks(n: int, heads: int, causal: bool, window: int | None = None) -> list[tuple[int, int]]:
    """Query-row blocks [r0, r1) whose heads × rows × keys fit BLOCK_ENTRIES: powers of two
    between MIN_BLOCK_ROWS and MAX_BLOCK_ROWS rows (so they start on the pooled maps' bin edges
    more often), taller near the top of a causal map where rows see fewer keys; only the last
    block is cut short (halving what was left instead gave the last 256 rows blocks of 15, 14,
    13 … rows, each product one more shape for oneDNN to compile, see HALF_PRODUCT_KEYS)."""
    blocks, start = [], 0
    while start < n:
        rows = MAX_BLOCK_ROWS
        while rows > MIN_BLOCK_ROWS:
            lo, hi = valid_key_range(start, min(n, start + rows), n, causal, window)
            if heads * min(rows, n - start) * (hi - lo) <= BLOCK_ENTRIES:
                break
            rows //= 2
        blocks.append((start, min(n, start + rows)))
        start += rows
    return blocks


def valid_key_range(r0: int, r1: int, n: int, causal: bool, window: int | None) -> tuple[int, int]:
    """Keys [lo, hi) that any of the rows r0 … r1 − 1 may see."""
    hi = r1 if causal else n
    lo = max(0, r0 - window + 1) if window else 0
    return lo, hi


def block_mask(r0: int, r1: int, lo: int, hi: int, causal: bool, window: int | None) -> torch.Tensor | None:
    """True where row i may see key j (i in r0…r1−1, j in lo…hi−1); None when every cell may."""
    rows = torch.arange(r0, r1).unsqueeze(1)
    cols = torch.arange(lo, hi).unsqueeze(0)
    ok = None
    if causal:
        ok = cols <= rows
    if window:
        near = (cols > rows - window) if causal else ((cols - rows).abs() < window)
        ok = near if ok is None else ok & near
    if ok is not None and bool(ok.all()):
        return None
    return ok


def valid_counts(req: MapRequest, n: int, causal: bool, window: int | None) -> np.ndarray:
    """How many unmasked cells each pooled cell of ``req`` holds (0: drawn as masked, not 0)."""
    rb, cb = req.bin_sizes()
    nr, nc = req.shape()
    out = np.zeros((nr, nc), dtype=np.float64)
    rows = np.arange(req.rows[0], req.rows[1])
    edges = req.cols[0] + np.arange(nc + 1) * cb
    edges[-1] = req.cols[1]
    lo_cols, hi_cols = edges[:-1][None, :], edges[1:][None, :]
    hi = np.full((len(rows), 1), n) if not causal else rows[:, None] + 1
    lo = np.zeros((len(rows), 1), dtype=np.int64)
    if window:
        lo = np.maximum(lo, rows[:, None] - window + 1)
        if not causal:
            hi = np.minimum(np.full((len(rows), 1), n), rows[:, None] + window)
    per_row = np.clip(np.minimum(hi, hi_cols) - np.maximum(lo, lo_cols), 0, None)  # [rows, nc]
    padded = np.zeros((nr * rb, nc))
    padded[:len(rows)] = per_row
    out += padded.reshape(nr, rb, nc).sum(1)  # row bins are consecutive groups of rb rows
    return out


def _group_sums(x: torch.Tensor, dim: int, skip: int, size: int) -> torch.Tensor:
    """Sums of ``x`` along ``dim`` over consecutive groups of ``size``, where the first group
    already lost its first ``skip`` members (they lie before x) and the last may be cut short."""
    length = x.shape[dim]
    first = min(length, size - skip) if skip else 0
    full = (length - first) // size
    rest = length - first - full * size
    parts = []
    if first:
        parts.append(x.narrow(dim, 0, first).sum(dim, keepdim=True))
    if full:  # splitting an axis is always a view, so this reads x once
        parts.append(x.narrow(dim, first, full * size).unflatten(dim, (full, size)).sum(dim + 1))
    if rest:
        parts.append(x.narrow(dim, length - rest, rest).sum(dim, keepdim=True))
    return parts[0] if len(parts) == 1 else torch.cat(parts, dim)


def _pool(values: torch.Tensor, r0: int, lo: int, req: MapRequest) -> tuple[torch.Tensor, int, int] | None:
    """Sums of ``values`` [h, b, w] (rows r0…, keys lo…) over the cells of ``req`` it touches:
    (sums [h, row bins, col bins], first row bin, first col bin); None if the block misses it."""
    rb, cb = req.bin_sizes()
    b, w = values.shape[1], values.shape[2]
    a0, a1 = max(r0, req.rows[0]), min(r0 + b, req.rows[1])
    c0, c1 = max(lo, req.cols[0]), min(lo + w, req.cols[1])
    if a0 >= a1 or c0 >= c1:
        return None
    part = values[:, a0 - r0:a1 - r0, c0 - lo:c1 - lo]
    first_row, row_skip = divmod(a0 - req.rows[0], rb)
    first_col, col_skip = divmod(c0 - req.cols[0], cb)
    by_row = _group_sums(part, 1, row_skip, rb)  # rows first: the larger reduction, one read of the block
    return _group_sums(by_row, 2, col_skip, cb), first_row, first_col


@dataclass
class LayerPlan:
    """What ``attend`` collects for one layer besides the always-on statistics."""

    maps: list = field(default_factory=list)  # MapRequest of weights
    logit_maps: list = field(default_factory=list)  # (MapRequest, head) of logits (real and content)
    content: Callable | None = None  # (q, k) → (q, k) with position removed, for logit_maps' content
    workspace: dict = field(default_factory=dict)  # block buffers, reused across blocks (and layers)


def _buffer(workspace: dict, name: str, shape: tuple[int, ...], like: torch.Tensor) -> torch.Tensor:
    """A view of the workspace's buffer ``name`` with ``shape`` (grown when too small)."""
    size = math.prod(shape)
    held = workspace.get(name)
    if held is None or held.numel() < size or held.dtype != like.dtype or held.device != like.device:
        held = workspace[name] = torch.empty(max(size, BLOCK_ENTRIES), dtype=like.dtype, device=like.device)
    return held[:size].view(shape)


def _future(workspace: dict, b: int, device) -> torch.Tensor:
    """[b, b − 1] True where row i of a causal block (keys up to its last row) meets key
    w − b + 1 + j > its own position, i.e. j ≥ i."""
    key = ("future", b, str(device))
    if key not in workspace:
        workspace[key] = torch.ones(b, b - 1, dtype=torch.bool, device=device).triu()
    return workspace[key]


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, scaling: float, causal: bool,
           window: int | None = None, softcap: float | None = None, stats: LayerStats | None = None,
           plan: LayerPlan | None = None, check: Callable[[float], None] | None = None,
           extra_mask: torch.Tensor | None = None, sinks: torch.Tensor | None = None) -> torch.Tensor:
    """Softmax attention of q [H, n, d] over k/v [Hkv, n, d] (grouped heads share k/v), exactly
    as eager attention: float32 logits · scaling (q and k of a half-precision model are widened), optional tanh soft-cap, the causal and sliding
    window masks, a float32 softmax, weights · v.  Returns [n, H, dv].  ``check(fraction)`` is
    called after every block (it may raise to cancel).  ``extra_mask`` [1, 1|H, n, n]: a mask the
    model built itself (bool: True may attend; float: added to the logits), applied on top.
    ``sinks`` [H]: learned sink logits (gpt-oss): one extra column per row in the softmax that
    takes weight and gives no value; the weights over the real keys then sum to less than 1.

    Each block of query rows (all heads at once) is one matrix product for the logits, one fused
    softmax into a reused buffer (exp on masked −1e30 logits takes a slow path; the softmax
    kernel does not), the weights · v product, and, with ``stats``, one read of the weights per
    statistic."""
    heads, n, d = q.shape
    kv = k.shape[0]
    group = heads // kv
    # [Hkv, d, n] float32 (a bf16/fp16 model: logits, softmax and statistics stay float32): the
    # group of query heads sharing a k/v head is one batch entry of each block's products, so
    # neither k nor v is repeated per head, and q is widened a block of rows at a time
    kt = torch.empty(kv, d, n, dtype=torch.float32, device=k.device)
    kt.copy_(k.transpose(1, 2))
    out = torch.empty(n, heads, v.shape[-1], dtype=v.dtype, device=v.device)
    plan = plan or LayerPlan()
    content_qk = None
    if plan.logit_maps and plan.content is not None:
        wanted = sorted({h for _, h in plan.logit_maps})
        content_qk = (wanted, *plan.content(q[wanted], k[[h // group for h in wanted]], wanted))
    logit_heads = [h for _, h in plan.logit_maps]
    blocks = _row_blocks(n, heads, causal, window)
    for index, (r0, r1) in enumerate(blocks):
        lo, hi = valid_key_range(r0, r1, n, causal, window)
        b, w = r1 - r0, hi - lo
        rows = q[:, r0:r1]
        if group > 1 or rows.dtype != torch.float32:  # [H, b, d] as [Hkv, group · b, d], float32
            rows = _buffer(plan.workspace, "rows", (heads, b, d), kt).copy_(rows).view(kv, group * b, d)
        logits = torch.bmm(rows, kt[:, :, lo:hi],
                           out=_buffer(plan.workspace, "logits", (kv, group * b, w), kt)).view(heads, b, w)
        logits.mul_(scaling)
        if softcap:
            logits.div_(softcap).tanh_().mul_(softcap)
        if causal and not window and extra_mask is None:
            # only the last b − 1 keys can be in a row's future: fill that strip, not the block
            logits[:, :, w - b + 1:].masked_fill_(_future(plan.workspace, b, logits.device), _MASKED)
            mask = block_mask(r0, r1, lo, hi, causal, window) if plan.logit_maps else None
        else:
            mask = block_mask(r0, r1, lo, hi, causal, window)
            if mask is not None:  # a finite fill: the weight is exactly 0 and 0 · fill stays 0 in the entropy
                logits.masked_fill_(~mask.to(logits.device), _MASKED)
        if extra_mask is not None:
            extra = extra_mask[0, :, r0:r1, lo:hi]
            if extra.dtype == torch.bool:
                logits.masked_fill_(~extra, _MASKED)
                mask = extra.all(0) if mask is None else mask & extra.all(0).to(mask.device)
            else:
                logits.add_(extra)
        real_logits = logits[logit_heads].clone() if plan.logit_maps else None
        keep = None
        if sinks is not None:  # the share of each row the real keys keep: 1 / (1 + exp(sink − logsumexp))
            keep = torch.sigmoid(torch.logsumexp(logits, -1) - sinks.to(logits)[:, None])
        # Shifted so each row's largest logit is 0 (the softmax is unchanged: it subtracts the
        # same maximum itself); then that entry's weight is 1/Σexp, so the row's entropy is
        # H = log Σexp − Σ p·x = −log(max p) − Σ p·x, with no second exp pass.
        logits.sub_(logits.amax(-1, keepdim=True))
        probs = softmax_into(logits, _buffer(plan.workspace, "probs", (heads, b, w), kt))
        entropy = None
        if stats is not None:
            entropy = probs.amax(-1).log_().neg_().sub_(torch.mul(probs, logits, out=logits).sum(-1))
        if keep is not None:  # p' = keep · p over the real keys: H' = keep · H − keep · log keep
            probs.mul_(keep.unsqueeze(-1))
            if entropy is not None:
                entropy = entropy * keep - keep * keep.log()
        grouped = probs.view(kv, group * b, w)
        if v.dtype in (torch.bfloat16, torch.float16):  # eager's product: the weights rounded to v's dtype
            values = _half_product(plan.workspace, grouped, v, lo)
        else:
            values = torch.bmm(grouped.to(v.dtype), v[:, lo:hi])
        out[r0:r1] = values.view(heads, b, -1).transpose(0, 1)
        if stats is not None:
            assert entropy is not None
            _add_stats(stats, probs, entropy, r0, lo, n)
            for req in plan.maps:
                pooled = _pool(probs if req.heads == tuple(range(heads)) else probs[list(req.heads)], r0, lo, req)
                if pooled is not None:
                    _add_to(stats.maps, req, pooled)
            for index_, (req, head) in enumerate(plan.logit_maps):
                assert real_logits is not None  # taken above whenever logit maps are asked for
                _add_logit_maps(stats, req, head, real_logits[index_], r0, lo, mask, content_qk, scaling, softcap,
                                n, window, causal, own_mask=extra_mask is not None)
        if check is not None:
            check((index + 1) / len(blocks))
    return out


def _half_product(workspace: dict, probs: torch.Tensor, v: torch.Tensor, lo: int) -> torch.Tensor:
    """probs [Hkv, rows, w] (float32, keys lo … lo + w − 1) · v [Hkv, n, dv] in v's (half) dtype, over
    keys padded (see ``HALF_PRODUCT_KEYS``) whose weights are 0 (exactly what eager's product adds
    for masked keys), so a run's blocks share a few product shapes."""
    heads, b, w = probs.shape
    n = v.shape[1]
    step = max(HALF_PRODUCT_KEYS, (1 << (w.bit_length() - 1)) // HALF_PRODUCT_STEPS)
    width = min(n, -(-w // step) * step)
    start = min(lo, n - width)  # the padding goes before the keys where they end at n
    at = lo - start
    weights = _buffer(workspace, "half_weights", (heads, b, width), v)
    weights[:, :, :at].zero_()
    weights[:, :, at:at + w].copy_(probs)
    weights[:, :, at + w:].zero_()
    return torch.bmm(weights, v[:, start:start + width])


def _add_stats(stats: LayerStats, probs: torch.Tensor, entropy: torch.Tensor, r0: int, lo: int, n: int) -> None:
    p = probs if probs.device.type == "cpu" else probs.cpu()
    stats.received[:, lo:lo + p.shape[2]] += p.sum(1)
    stats.entropy += entropy.sum(-1).cpu()
    start = n - 1 - r0 + lo  # index of (row r0, key lo) in key − query + n − 1
    for s0 in range(0, p.shape[1], _DIAGONAL_ROWS):  # small row groups keep the skewed corners small
        part = p[:, s0:s0 + _DIAGONAL_ROWS]
        if part.shape[2] >= part.shape[1]:
            _add_diagonals(stats.diagonal, part, start - s0)
        else:  # a window narrower than the rows (sliding-window layers): row by row
            for i in range(part.shape[1]):
                stats.diagonal[:, start - s0 - i:start - s0 - i + part.shape[2]] += part[:, i]


def _skewed(part: torch.Tensor) -> torch.Tensor:
    """Σ_i part[h, i, j] grouped by j − i for a small [H, b, m]: index j − i + b − 1 (m + b − 1 sums)."""
    h, b, m = part.shape
    width = m + 2 * (b - 1)
    padded = torch.zeros(h, b, width, dtype=part.dtype)
    padded[:, :, b - 1:b - 1 + m] = part
    return padded.as_strided((h, b, m + b - 1), (b * width, width + 1, 1)).sum(1)


def _add_diagonals(out: torch.Tensor, block: torch.Tensor, start: int) -> None:
    """out[:, start + j − i] += block[:, i, j] for a contiguous [H, b, w] (w ≥ b), every head at
    once: the 3-D form of the attention analysis' diagonal sums (a view with row stride w + 1 for
    the offsets every row has, two small padded corners for the rest)."""
    h, b, w = block.shape
    hs, rs, cs = block.stride()
    assert cs == 1 and rs == w, "rows of a contiguous block"
    out[:, start:start + w - b + 1] += block.as_strided((h, b, w - b + 1), (hs, w + 1, 1)).sum(1)
    if b > 1:
        out[:, start - (b - 1):start] += _skewed(block[:, :, :b - 1])[:, :b - 1]
        out[:, start + w - b + 1:start + w] += _skewed(block[:, :, w - b + 1:])[:, b - 1:]


def _add_to(store: list, req: MapRequest, pooled: tuple[torch.Tensor, int, int], *extra) -> None:
    """Add a block's cell sums (from :func:`_pool`) into ``store``'s float64 sums of ``req``."""
    sums, row, col = pooled
    for entry in store:
        if entry[0] is req and tuple(entry[1:-1]) == extra:
            total = entry[-1]
            break
    else:
        total = torch.zeros(sums.shape[0], *req.shape(), dtype=torch.float64)
        store.append([req, *extra, total])
    total[:, row:row + sums.shape[1], col:col + sums.shape[2]] += sums.cpu()


def _add_logit_maps(stats, req, head, real, r0, lo, mask, content_qk, scaling, softcap, n, window, causal,
                    own_mask: bool = False):
    real = real.unsqueeze(0)
    keep = None if mask is None else mask.unsqueeze(0).to(real.device)
    if own_mask:  # the model's own mask (Llama 4's chunks): count its cells, not the causal ones
        cells = torch.ones_like(real) if keep is None else keep.to(real.dtype)
        pooled = _pool(cells.cpu(), r0, lo, req)
        if pooled is not None:
            _add_to(stats.logit_maps, req, (pooled[0][0:1], *pooled[1:]), head, "count")
    real_z = real if keep is None else real.masked_fill(~keep, 0.0)
    pooled = _pool(real_z.cpu(), r0, lo, req)
    if pooled is not None:
        _add_to(stats.logit_maps, req, (pooled[0][0:1], *pooled[1:]), head, "real")
    if content_qk is None:
        return
    wanted, cq, ck = content_qk
    i = wanted.index(head)
    b, w = real.shape[1], real.shape[2]
    content = torch.matmul(cq[i, r0:r0 + b], ck[i, lo:lo + w].T).unsqueeze(0) * scaling
    if softcap:
        content = torch.tanh(content / softcap) * softcap
    content_z = content if keep is None else content.masked_fill(~keep, 0.0)
    pooled = _pool(content_z.cpu(), r0, lo, req)
    if pooled is not None:
        _add_to(stats.logit_maps, req, (pooled[0][0:1], *pooled[1:]), head, "term")
    x, y = real_z.double(), content_z.double()
    count = float(b * w) if keep is None else float(keep.sum())
    moments = torch.stack([x.sum(), (x * x).sum(), y.sum(), (y * y).sum(), (x * y).sum(),
                           torch.tensor(count, dtype=torch.float64)]).cpu()
    if head in stats.logit_moments:
        stats.logit_moments[head] += moments
    else:
        stats.logit_moments[head] = moments


def region_sums(q: torch.Tensor, k: torch.Tensor, req: MapRequest, *, scaling: float, causal: bool,
                window: int | None = None, softcap: float | None = None) -> torch.Tensor:
    """Sums of the exact attention weights of ``req``'s heads over its pooled cells, computed again
    from one layer's kept q [H, n, d] and k [Hkv, n, d] (after rotation): only the rows of the
    region are recomputed, each over every key it may see (its softmax needs them all), so a zoom
    into an 8,192-token map costs rows × n, not n².  Same arithmetic as :func:`attend`."""
    heads = list(req.heads)
    group = q.shape[0] // k.shape[0]
    # float32 logits from the chosen heads' q and k, widened as attend() widens a half-precision
    # model's (a bf16 product would round them, and leave a oneDNN kernel per region shape)
    qh = q[heads].float()
    kh = (k[[h // group for h in heads]] if group > 1 else k[heads]).float()
    n = q.shape[1]
    total = torch.zeros(len(heads), *req.shape(), dtype=torch.float64)
    store = [[req, total]]
    r_start, r_stop = req.rows
    rb = req.bin_sizes()[0]
    span = max(1, valid_key_range(r_start, r_stop, n, causal, window)[1])
    step = max(rb, (BLOCK_ENTRIES // max(1, len(heads) * span)) // rb * rb)  # whole row bins per block
    for r0 in range(r_start, r_stop, step):
        r1 = min(r_stop, r0 + step)
        lo, hi = valid_key_range(r0, r1, n, causal, window)
        logits = torch.matmul(qh[:, r0:r1], kh[:, lo:hi].transpose(1, 2)).float().mul_(scaling)
        if softcap:
            logits.div_(softcap).tanh_().mul_(softcap)
        mask = block_mask(r0, r1, lo, hi, causal, window)
        if mask is not None:
            logits.masked_fill_(~mask.to(logits.device), _MASKED)
        logits.sub_(logits.amax(-1, keepdim=True))
        probs = softmax_into(logits, torch.empty_like(logits))
        pooled = _pool(probs, r0, lo, req)
        if pooled is not None:
            _add_to(store, req, pooled)
    return total
