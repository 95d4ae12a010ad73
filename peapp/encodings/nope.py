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


# ---- temperature: how NoPE layers are helped at long context ---------------------------------

def temperature_scale(positions: torch.Tensor, attn_scale: float = 0.1, floor_scale: float = 8192.0) -> torch.Tensor:
    """Llama 4's attention-temperature tuning (Llama4TextAttention with ``attn_temperature_tuning``,
    on its NoPE layers): the query at position ``p`` (0-based) is multiplied by
    ``1 + attn_scale · log(1 + floor((p + 1) / floor_scale))``.  It steps at every multiple of
    ``floor_scale`` and grows like a logarithm, sharpening attention that would flatten as the
    number of keys grows.  Defaults are Llama4TextConfig's."""
    import torch

    from peapp.errors import ParameterError

    if not floor_scale > 0:
        raise ParameterError(translate("Encodings", "floor_scale must be positive (Llama 4 uses 8192)."))
    return torch.log1p(torch.floor((positions.to(torch.float32) + 1.0) / floor_scale)) * attn_scale + 1.0


def log_n_scale(n_keys: torch.Tensor, s: float = 1.0) -> torch.Tensor:
    """Scalable-Softmax (Nakanishi 2025): a query that sees ``n`` keys has its logits multiplied by
    ``s · log n``, so its attention does not flatten as ``n`` grows (causal: ``n = p + 1``)."""
    import torch

    return s * torch.log(n_keys.to(torch.float32))
