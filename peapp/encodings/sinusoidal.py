"""Sinusoidal encoding (Vaswani et al. 2017): fixed sines and cosines, zero parameters.

PE(pos, 2i) = sin(pos / base^(2i/d)),  PE(pos, 2i+1) = cos(pos / base^(2i/d)).

Two layouts exist in the wild and both are offered, labelled:
* ``interleaved`` — sin, cos, sin, cos, … (the paper; the seed article's PyTorch module);
* ``concatenated`` — [sin(all frequencies) | cos(all frequencies)] (HF Marian / time-series).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
import torch

from peapp.encodings.base import Family
from peapp.memory import ensure_fits
from peapp.params import Spec, param

LAYOUTS = ("interleaved", "concatenated")
MAX_POSITIONS = 1_048_576


@dataclass(frozen=True)
class SinusoidalSpec(Spec):
    family = "sinusoidal"
    n_positions: int = param(50, "Positions", minimum=1, maximum=MAX_POSITIONS, step=1,
                             help="How many positions (rows) to show.")
    d_model: int = param(128, "d_model", minimum=2, maximum=8192, step=2, even=True,
                         help="Embedding width; dimensions come in sin/cos pairs.")
    base: float = param(10000.0, "Base", minimum=2.0, maximum=1e9, log=True,
                        help="Longest wavelength is base·2π positions (10000 in the paper).")
    layout: str = param("interleaved", "Layout", choices=LAYOUTS,
                        help="interleaved: sin,cos,sin,cos… (paper); concatenated: [sin… | cos…].")


def inv_freq(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Angular frequency of each sin/cos pair: base^(−2i/d), i = 0 … d/2−1 (float64)."""
    return torch.pow(float(base), -torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)


def rows(positions: torch.Tensor, d_model: int, base: float = 10000.0,
         layout: str = "interleaved") -> torch.Tensor:
    """Encoding rows for arbitrary (even real-valued) positions, float32 [len(positions), d]."""
    if d_model % 2:
        raise ValueError("d_model must be even")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}")
    # Angles in float64: at 10^5 positions a float32 product loses the fast dimensions' phase.
    angles = reduced_angles(positions.to(torch.float64).reshape(-1, 1) * inv_freq(d_model, base).reshape(1, -1))
    sin, cos = torch.sin(angles), torch.cos(angles)
    if layout == "interleaved":
        out = torch.stack((sin, cos), dim=-1).reshape(len(angles), d_model)
    else:
        out = torch.cat((sin, cos), dim=-1)
    return out


def reduced_angles(angles: torch.Tensor) -> torch.Tensor:
    """float64 angles reduced to [0, 2π), as float32.

    The product pos·ω needs float64 (at 10^5 positions float32 loses the fast dimensions'
    phase), but sin/cos are several times faster in float32; after the reduction float32 is
    accurate to ~1e-7.
    """
    turns = angles * (1 / (2 * math.pi))
    return ((turns - torch.floor(turns)) * (2 * math.pi)).to(torch.float32)  # faster than torch.remainder


def table(n_positions: int, d_model: int, base: float = 10000.0,
          layout: str = "interleaved") -> torch.Tensor:
    """The full [n_positions, d_model] table (refused before allocation if it cannot fit)."""
    ensure_fits((n_positions, d_model), 4 * 3, what="a sinusoidal table",
                suggestion="ask for fewer positions or dimensions, or use the heatmap, "
                           "which draws a level-of-detail reduction instead")
    return rows(torch.arange(n_positions), d_model, base, layout)


def wavelengths(d_model: int, base: float = 10000.0, layout: str = "interleaved") -> np.ndarray:
    """Period in positions of every column: a geometric progression from 2π to ~base·2π."""
    per_pair = (2 * math.pi / inv_freq(d_model, base)).numpy()
    if layout == "interleaved":
        return np.repeat(per_pair, 2)
    return np.concatenate([per_pair, per_pair])


def _caption(spec: SinusoidalSpec) -> str:
    return (f"Sinusoidal ({spec.layout}): {spec.n_positions:,} positions × {spec.d_model} dimensions, "
            f"base {spec.base:g}. Left columns oscillate fast (wavelength 2π); right ones barely move "
            f"(up to {wavelengths(spec.d_model, spec.base)[-1]:,.0f} positions), so nearby and distant "
            f"positions are told apart at many scales. Values stay in [−1, 1].")


FAMILY = Family(
    name="sinusoidal",
    label="Sinusoidal (fixed)",
    spec=SinusoidalSpec,
    summary="Fixed sines and cosines of geometric frequencies, added to token embeddings.",
    rows=lambda s: s.n_positions,
    cols=lambda s: s.d_model,
    rows_at=lambda s, pos: rows(pos, s.d_model, s.base, s.layout),
    caption=_caption,
    column_wavelengths=lambda s: wavelengths(s.d_model, s.base, s.layout),
    order=10,
)


def pooled_sin_cos(starts: torch.Tensor, counts: torch.Tensor,
                   inv_freq: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Exact means of sin(ωp) and cos(ωp) over p ∈ [start, start + count), per bin and ω.

    Σ_{p=a}^{a+n−1} e^{iωp} = e^{iω(a+(n−1)/2)} · sin(nω/2)/sin(ω/2)  (a Dirichlet kernel), so
    each mean is the value at the bin centre times sin(nω/2) / (n·sin(ω/2)).
    """
    w = inv_freq.to(torch.float64).reshape(1, -1)
    # The kernel depends on the bin size only, and bins have one or two sizes: compute it per
    # distinct size and gather (the per-bin work is then just the phase at the bin centre).
    sizes, which = torch.unique(counts, return_inverse=True)
    n = sizes.to(torch.float64).reshape(-1, 1)
    half_sin = torch.sin(w / 2)
    safe = half_sin.abs() > 1e-12
    numerator = torch.sin(reduced_angles(n * w / 2)).to(torch.float64)
    kernel = torch.where(safe, numerator / (n * torch.where(safe, half_sin, 1.0)), torch.ones_like(n * w))
    kernel = kernel.to(torch.float32)[which]
    centre = starts.to(torch.float64).reshape(-1, 1) + (counts.to(torch.float64).reshape(-1, 1) - 1) / 2
    turns = centre * (w / (2 * math.pi))
    phase = (turns - torch.floor(turns)).to(torch.float32) * (2 * math.pi)
    return torch.sin(phase) * kernel, torch.cos(phase) * kernel


def _pooled(spec: SinusoidalSpec, starts: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
    sin, cos = pooled_sin_cos(starts, counts, inv_freq(spec.d_model, spec.base))
    if spec.layout == "interleaved":
        return torch.stack((sin, cos), dim=-1).reshape(len(starts), spec.d_model)
    return torch.cat((sin, cos), dim=-1)


def _column_at(spec: SinusoidalSpec, positions: torch.Tensor, column: int) -> torch.Tensor:
    """Column ``column`` of the table at ``positions``: one sine or cosine, not d of them."""
    half = spec.d_model // 2
    if spec.layout == "interleaved":
        pair, is_cos = column // 2, column % 2 == 1
    else:
        pair, is_cos = column % half, column >= half
    omega = inv_freq(spec.d_model, spec.base)[pair]
    angles = reduced_angles(positions.to(torch.float64) * omega)
    return torch.cos(angles) if is_cos else torch.sin(angles)


FAMILY = dataclasses.replace(FAMILY, pooled_rows_at=_pooled, column_at=_column_at)
