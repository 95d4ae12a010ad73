"""The fixed linear map that takes PE(pos) to PE(pos + k) for sinusoidal encodings.

For each frequency ω the pair (sin ωp, cos ωp) becomes (sin ω(p+k), cos ω(p+k)) by a 2×2
rotation that depends on k only, never on p.  Stacked, these blocks form one matrix M_k with
PE(pos + k) = M_k · PE(pos) for every pos — the property that lets attention learn offsets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from peapp.encodings import sinusoidal

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch


def shift_matrix(d_model: int, k: float, base: float = 10000.0, layout: str = "interleaved") -> torch.Tensor:
    """M_k [d, d] (float64) with rows(p + k) = rows(p) @ M_k.T for the given layout."""
    import torch
    w = sinusoidal.inv_freq(d_model, base)
    c, s = torch.cos(w * k), torch.sin(w * k)
    half = d_model // 2
    m = torch.zeros(d_model, d_model, dtype=torch.float64)
    for i in range(half):
        si, ci = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, half + i)
        # sin(a+b) = sin a cos b + cos a sin b;  cos(a+b) = cos a cos b − sin a sin b
        m[si, si], m[si, ci] = c[i], s[i]
        m[ci, si], m[ci, ci] = -s[i], c[i]
    return m


def shift_error(table: torch.Tensor, k: int, matrix: torch.Tensor | None = None) -> float:
    """Largest |PE(p+k) − M·PE(p)| over the table.

    With ``matrix`` None, M is the least-squares best linear map for this table — small for
    sinusoids (a fixed map exists), large for a learned table (none does).
    """
    import torch
    x = table[:-k].to(torch.float64)
    y = table[k:].to(torch.float64)
    if matrix is None:
        matrix = torch.linalg.lstsq(x, y).solution.T
    return float((y - x @ matrix.T).abs().max())
