"""NoPE: explicitly no position information, so every view can compare against it.

Without a causal mask, self-attention is then permutation-equivariant; a causal mask alone
still leaks order (Kazemnejad et al. 2023).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from peapp.i18n import msg, translate
from peapp.encodings.base import Family
from peapp.params import Spec, param

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch


@dataclass(frozen=True)
class NopeSpec(Spec):
    family = "nope"
    n_positions: int = param(50, msg("Params", "Positions"), minimum=1, maximum=1_048_576, step=1, help=msg("Params", "Positions shown."))
    d_model: int = param(128, "d_model", minimum=1, maximum=8192, step=1, help=msg("Params", "Embedding width."))


def _zeros(n: int, d_model: int) -> torch.Tensor:
    import torch
    return torch.zeros(n, d_model)


FAMILY = Family(
    name="nope",
    label=msg("Encodings", "NoPE (no position)"),
    spec=NopeSpec,
    summary=msg("Encodings", "Nothing added anywhere: every position looks the same to attention."),
    rows=lambda s: s.n_positions,
    cols=lambda s: s.d_model,
    rows_at=lambda s, pos: _zeros(len(pos), s.d_model),
    pooled_rows_at=lambda s, starts, counts: _zeros(len(starts), s.d_model),
    caption=lambda s: translate("Encodings", "NoPE: {n:,} positions × {d} dims of zeros. Every position is "
                                "identical, so without a causal mask the model sees a bag of words; a causal "
                                "mask alone still leaks order.").format(n=s.n_positions, d=s.d_model),
    order=90,
)
