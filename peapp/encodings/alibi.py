"""ALiBi (Press et al. 2022): no position in the embeddings; each head subtracts
slope_h · distance from its attention logits.

Canonical form shown here: bias[h, i, j] = −slope_h · (i − j) for keys j ≤ i (causal).
BLOOM adds +slope·j and MPT +slope·(j − last); both differ from this by a per-row constant,
which softmax removes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from peapp.i18n import msg, translate
from peapp.encodings.base import Family
from peapp.errors import ParameterError
from peapp.file_values import head_count
from peapp.memory import ensure_fits
from peapp.params import Spec, param

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch


@dataclass(frozen=True)
class AlibiSpec(Spec):
    family = "alibi"
    n_positions: int = param(50, msg("Params", "Sequence length"), minimum=1, maximum=131_072, step=1,
                             help=msg("Params", "Queries and keys shown (rows × columns)."))
    n_heads: int = param(8, msg("Params", "Heads"), minimum=1, maximum=256, step=1,
                         help=msg("Params", "Number of heads; slopes are geometric (2^(−8/n) for powers of two)."))
    head: int = param(0, msg("Params", "Head shown"), minimum=0, maximum=255, step=1,
                      help=msg("Params", "Which head's bias matrix the heatmap shows (0 = steepest slope)."))
    causal: bool = param(True, msg("Params", "Causal"), help=msg("Params", "Mask future keys (decoder); off: −slope·|i−j| both ways."))

    def check(self) -> None:
        if self.head >= self.n_heads:
            raise ParameterError(translate("Encodings", "head {head} does not exist with {heads} heads; choose 0–{last}.").format(
                head=self.head, heads=self.n_heads, last=self.n_heads - 1))


def _power_of_two_slopes(n: int) -> list[float]:
    start = 2.0 ** (-8.0 / n)
    return [start ** (i + 1) for i in range(n)]


def slopes(n_heads: int) -> torch.Tensor:
    """Per-head slopes [n_heads] (float32); non-powers of two interleave the next power's slopes."""
    # the head count may come from a file (a session, a checkpoint's config): checked before the list is built
    import torch
    n_heads = head_count(n_heads, "n_heads", where="ALiBi", error=ParameterError)
    lower = 2 ** int(math.floor(math.log2(n_heads)))
    values = _power_of_two_slopes(lower)
    if lower != n_heads:
        values += _power_of_two_slopes(2 * lower)[0::2][: n_heads - lower]
    return torch.tensor(values, dtype=torch.float32)


def bias(n_heads: int, q_len: int, k_len: int | None = None, causal: bool = True,
         query_positions: torch.Tensor | None = None) -> torch.Tensor:
    """Bias [n_heads, q, k]: −slope·(i − j); masked (future) keys are −inf when causal.

    Queries are the last ``q_len`` of ``k_len`` positions (as in decoding with a cache) unless
    ``query_positions`` gives them explicitly.
    """
    import torch
    k_len = q_len if k_len is None else k_len
    if query_positions is not None:
        q_len = len(query_positions)
    # distance [q, k] float32, then out and the mask [heads, q, k]: about 3 such arrays at once
    ensure_fits((max(1, n_heads) * 3 + 2, q_len, k_len), 4, what="the ALiBi bias",
                suggestion="show fewer positions or heads")
    if query_positions is None:
        query_positions = torch.arange(k_len - q_len, k_len)
    i = query_positions.to(torch.float32).reshape(-1, 1)
    j = torch.arange(k_len, dtype=torch.float32).reshape(1, -1)
    distance = i - j
    s = slopes(n_heads).reshape(-1, 1, 1)
    if causal:
        out = -s * distance
        return out.masked_fill((distance < 0).unsqueeze(0), float("-inf"))
    return -s * distance.abs()


def _rows_at(spec: AlibiSpec, positions: torch.Tensor) -> torch.Tensor:
    """The shown head's bias rows (masked keys NaN); the other heads are not computed."""
    import torch
    i = positions.to(torch.float32).reshape(-1, 1)
    distance = i - torch.arange(spec.n_positions, dtype=torch.float32).reshape(1, -1)
    slope = slopes(spec.n_heads)[spec.head]
    if spec.causal:
        return (-slope * distance).masked_fill(distance < 0, float("nan"))
    return -slope * distance.abs()


def _toeplitz(spec: AlibiSpec, distances: torch.Tensor) -> tuple[torch.Tensor, float]:
    """bias(i, j) = slope · profile[j − i]: the integer distance, the slope applied after pooling."""
    import torch
    d = distances.to(torch.float64)
    if spec.causal:
        return d.masked_fill(distances > 0, float("nan")), float(slopes(spec.n_heads)[spec.head])
    return -d.abs(), float(slopes(spec.n_heads)[spec.head])


def _caption(spec: AlibiSpec) -> str:
    s = float(slopes(spec.n_heads)[spec.head])
    mask = (translate("Encodings", "future keys are masked (blank)") if spec.causal
            else translate("Encodings", "no mask: the penalty grows both ways"))
    return translate("Encodings", "ALiBi bias, head {head} of {heads} (slope {slope:.4g} = 1/{inverse:.4g}): "
                     "query i × key j, value −slope·(i−j); {mask}. Nothing is added to embeddings: the farther "
                     "a key, the larger the penalty before softmax, at any length.").format(
        head=spec.head, heads=spec.n_heads, slope=s, inverse=1 / s, mask=mask)


FAMILY = Family(
    name="alibi",
    label=msg("Encodings", "ALiBi (linear bias)"),
    spec=AlibiSpec,
    summary=msg("Encodings", "Subtracts slope·distance from attention logits, a different slope per head."),
    rows=lambda s: s.n_positions,
    cols=lambda s: s.n_positions,
    rows_at=_rows_at,
    caption=_caption,
    row_axis=msg("Encodings", "query position"),
    col_axis=msg("Encodings", "key position"),
    value_label=msg("Encodings", "bias"),
    row_title_of=lambda s, p: translate("Encodings", "query position {n:,}: its bias on every key").format(n=p),
    toeplitz=_toeplitz,
    symmetric_levels=False,
    order=50,
)
