"""Position–position similarity of an encoding table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from peapp.errors import ParameterError
from peapp.memory import ensure_fits

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

KINDS = ("cosine", "dot")


def similarity(table: torch.Tensor, kind: str = "cosine", eps: float = 1e-12) -> torch.Tensor:
    """[n, n] similarity of the rows of ``table`` [n, d].

    Cosine of an all-zero row (NoPE) is defined as 0: such a position carries no direction.
    """
    import torch
    if kind not in KINDS:
        raise ParameterError(f"similarity must be one of {KINDS}; got {kind!r}")
    n = table.shape[0]
    ensure_fits((n, n), 4, what="a similarity matrix",
                suggestion="show fewer positions; the heatmap samples positions for large tables")
    x = table.to(torch.float32)
    if kind == "cosine":
        norms = x.norm(dim=-1, keepdim=True)
        x = torch.where(norms > eps, x / norms.clamp_min(eps), torch.zeros_like(x))
    return x @ x.T
