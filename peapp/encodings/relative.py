"""Relative position schemes that live inside attention: T5 buckets and Shaw et al. distances.

T5: a learned scalar per (bucket, head); relative_position = key − query.  Bidirectional
splits the buckets between directions; small distances get exact buckets, larger ones
log-spaced buckets up to ``max_distance``, beyond that the last bucket.  Causal maps future
keys to bucket 0.  Only block 0 holds the table; T5 does not scale logits by 1/√d.

Shaw et al. 2018: a learned vector per clipped distance clip(j − i, −k, k), added inside
attention (BERT's ``relative_key`` keeps ``distance_embedding`` of 2·max_positions − 1 rows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from peapp.i18n import msg, translate
from peapp.encodings.base import Family
from peapp.errors import ParameterError
from peapp.memory import ensure_fits
from peapp.params import Spec, param

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch


def t5_bucket(relative_position: torch.Tensor, bidirectional: bool = True, num_buckets: int = 32,
              max_distance: int = 128) -> torch.Tensor:
    """T5 bucket index for each relative position (key − query), int64, same shape."""
    import torch
    n = torch.as_tensor(relative_position, dtype=torch.long)
    buckets = torch.zeros_like(n)
    if bidirectional:
        num_buckets //= 2
        buckets += (n > 0).to(torch.long) * num_buckets
        n = n.abs()
    else:
        n = -torch.clamp(n, max=0)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    # log-spaced buckets for max_exact ≤ n < max_distance; clamp to avoid log(0) on the small side
    scaled = torch.log(n.clamp(min=1).to(torch.float32) / max_exact) / math.log(max_distance / max_exact)
    large = max_exact + (scaled * (num_buckets - max_exact)).to(torch.long)
    large = torch.clamp(large, max=num_buckets - 1)
    return buckets + torch.where(is_small, n, large)


def relative_positions(query_positions: torch.Tensor, k_len: int) -> torch.Tensor:
    """key − query for every (query, key): [len(query_positions), k_len]."""
    import torch
    return torch.arange(k_len).reshape(1, -1) - query_positions.to(torch.long).reshape(-1, 1)


def t5_bias(table: torch.Tensor, q_len: int, k_len: int | None = None, bidirectional: bool = True,
            max_distance: int = 128, query_positions: torch.Tensor | None = None) -> torch.Tensor:
    """Bias [n_heads, q, k] gathered from a bucket table [num_buckets, n_heads]."""
    import torch
    k_len = q_len if k_len is None else k_len
    if query_positions is None:
        query_positions = torch.arange(q_len)
    # relative positions and buckets (int64) [q, k], then the gathered [q, k, heads] float32 and its permute
    ensure_fits((len(query_positions), k_len, 2 * 8 + 2 * 4 * int(table.shape[1])), 1, what="the T5 bias",
                suggestion="show fewer positions")
    b = t5_bucket(relative_positions(query_positions, k_len), bidirectional, table.shape[0], max_distance)
    return table[b].permute(2, 0, 1)


def shaw_distance(q_len: int, k_len: int | None = None, max_distance: int = 16,
                  query_positions: torch.Tensor | None = None) -> torch.Tensor:
    """Clipped relative distance clip(j − i, −k, k) [q, k]; add k to index a (2k+1)-row table."""
    import torch
    k_len = q_len if k_len is None else k_len
    if query_positions is None:
        query_positions = torch.arange(q_len)
    return relative_positions(query_positions, k_len).clamp(-max_distance, max_distance)


@dataclass(frozen=True)
class T5Spec(Spec):
    family = "t5"
    n_positions: int = param(50, msg("Params", "Sequence length"), minimum=1, maximum=131_072, step=1,
                             help=msg("Params", "Queries and keys shown (rows × columns)."))
    num_buckets: int = param(32, msg("Params", "Buckets"), minimum=2, maximum=1024, step=2, even=True,
                             help=msg("Params", "relative_attention_num_buckets (32 in T5)."))
    max_distance: int = param(128, msg("Params", "Max distance"), minimum=2, maximum=65_536, step=1,
                              help=msg("Params", "relative_attention_max_distance: beyond it, the last bucket (128 in T5)."))
    bidirectional: bool = param(True, msg("Params", "Bidirectional"), help=msg("Params", "Encoder (both directions) vs decoder (causal)."))
    show: str = param("bucket", msg("Params", "Show"), choices={"bucket": msg("Params", "bucket"), "bias": msg("Params", "bias")},
                      help=msg("Params", "bucket: the bucket index; bias: one head of a seeded random bucket table."))
    n_heads: int = param(8, msg("Params", "Heads"), minimum=1, maximum=256, step=1, help=msg("Params", "Heads of the bias table."))
    head: int = param(0, msg("Params", "Head shown"), minimum=0, maximum=255, step=1, help=msg("Params", "Which head's bias to show."))
    seed: int = param(0, msg("Params", "Seed"), minimum=0, maximum=2**31 - 1, step=1, help=msg("Params", "Seed of the random bias table."))

    def check(self) -> None:
        half = self.num_buckets // 2 if self.bidirectional else self.num_buckets
        if self.max_distance <= half // 2:
            raise ParameterError(translate("Encodings", "max distance must exceed the {exact} exact buckets; raise it "
                                                        "above {exact}.").format(exact=half // 2))
        if self.head >= self.n_heads:
            raise ParameterError(translate("Encodings", "head {head} does not exist with {heads} heads; choose 0–{last}.").format(
                head=self.head, heads=self.n_heads, last=self.n_heads - 1))


def random_t5_table(num_buckets: int, n_heads: int, seed: int = 0) -> torch.Tensor:
    import torch
    return torch.randn(num_buckets, n_heads, generator=torch.Generator().manual_seed(int(seed)))


def _t5_rows(spec: T5Spec, positions: torch.Tensor) -> torch.Tensor:
    import torch
    rel = relative_positions(positions, spec.n_positions)
    buckets = t5_bucket(rel, spec.bidirectional, spec.num_buckets, spec.max_distance)
    if spec.show == "bucket":
        return buckets.to(torch.float32)
    return random_t5_table(spec.num_buckets, spec.n_heads, spec.seed)[buckets, spec.head]


def _t5_toeplitz(spec: T5Spec, distances: torch.Tensor) -> tuple[torch.Tensor, float]:
    """The value at relative position key − query = ``distances`` (bucket index or bias)."""
    import torch
    buckets = t5_bucket(distances, spec.bidirectional, spec.num_buckets, spec.max_distance)
    if spec.show == "bucket":
        return buckets.to(torch.float64), 1.0
    return random_t5_table(spec.num_buckets, spec.n_heads, spec.seed)[buckets, spec.head].to(torch.float64), 1.0



def _shaw_rows(spec: ShawSpec, positions: torch.Tensor) -> torch.Tensor:
    import torch
    return shaw_distance(len(positions), spec.n_positions, spec.max_distance, positions).to(torch.float32)


def _shaw_toeplitz(spec: ShawSpec, distances: torch.Tensor) -> tuple[torch.Tensor, float]:
    import torch
    return distances.clamp(-spec.max_distance, spec.max_distance).to(torch.float64), 1.0


@dataclass(frozen=True)
class ShawSpec(Spec):
    family = "shaw"
    n_positions: int = param(50, msg("Params", "Sequence length"), minimum=1, maximum=131_072, step=1,
                             help=msg("Params", "Queries and keys shown (rows × columns)."))
    max_distance: int = param(16, msg("Params", "Clip distance k"), minimum=1, maximum=65_536, step=1,
                              help=msg("Params", "Distances beyond ±k share one learned vector (Shaw et al. use small k)."))


def _t5_caption(s: T5Spec) -> str:
    shown_what = (translate("Encodings", "bucket index") if s.show == "bucket"
                  else translate("Encodings", "bias, head {head}").format(head=s.head))
    direction = (translate("Encodings", "bidirectional (keys after the query use the upper half)") if s.bidirectional
                 else translate("Encodings", "causal (future keys → bucket 0)"))
    return translate("Encodings", "T5 relative {what}: query i × key j, {buckets} buckets, max distance {far}, "
                     "{direction}. Near distances get their own bucket; far ones share log-spaced buckets. Same "
                     "value on every diagonal.").format(what=shown_what, buckets=s.num_buckets, far=s.max_distance,
                                                         direction=direction)


FAMILIES = (
    Family(
        name="t5",
        label=msg("Encodings", "Relative: T5 buckets"),
        spec=T5Spec,
        summary=msg("Encodings", "A learned scalar per log-spaced distance bucket and head, added to logits."),
        rows=lambda s: s.n_positions,
        cols=lambda s: s.n_positions,
        rows_at=_t5_rows,
        toeplitz=_t5_toeplitz,
        caption=_t5_caption,
        row_axis=msg("Encodings", "query position"),
        col_axis=msg("Encodings", "key position"),
        value_label=msg("Encodings", "bucket"),
        value_label_of=lambda s: translate("Encodings", "bucket") if s.show == "bucket" else translate("Encodings", "bias"),
        row_title_of=lambda s, p: (translate("Encodings", "query position {n:,}: the bucket of every key")
                                   if s.show == "bucket" else
                                   translate("Encodings", "query position {n:,}: its bias on every key")).format(n=p),
        symmetric_levels=False,
        order=60,
    ),
    Family(
        name="shaw",
        label=msg("Encodings", "Relative: Shaw (clipped)"),
        spec=ShawSpec,
        summary=msg("Encodings", "A learned vector per clipped distance clip(j−i, −k, k), used inside attention."),
        rows=lambda s: s.n_positions,
        cols=lambda s: s.n_positions,
        rows_at=_shaw_rows,
        toeplitz=_shaw_toeplitz,
        caption=lambda s: translate(
            "Encodings", "Shaw relative distance clip(j − i, −{k}, {k}): query i × key j. Each value indexes one "
            "of {vectors} learned vectors; beyond ±{k} all distances look alike. Depends only on j − i, never on "
            "absolute position.").format(k=s.max_distance, vectors=2 * s.max_distance + 1),
        row_axis=msg("Encodings", "query position"),
        col_axis=msg("Encodings", "key position"),
        value_label=msg("Encodings", "clipped distance"),
        row_title_of=lambda s, p: translate("Encodings", "query position {n:,}: the clipped distance to every "
                                            "key").format(n=p),
        order=70,
    ),
)
