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
from typing import TYPE_CHECKING

import numpy as np

from peapp.i18n import msg, shown, translate
from peapp.encodings.base import Family
from peapp.memory import ensure_fits
from peapp.params import Spec, param

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

LAYOUTS = ("interleaved", "concatenated")
MAX_POSITIONS = 1_048_576


@dataclass(frozen=True)
class SinusoidalSpec(Spec):
    family = "sinusoidal"
    n_positions: int = param(50, msg("Params", "Positions"), minimum=1, maximum=MAX_POSITIONS, step=1,
                             help=msg("Params", "How many positions (rows) to show."))
    d_model: int = param(128, "d_model", minimum=2, maximum=8192, step=2, even=True,
                         help=msg("Params", "Embedding width; dimensions come in sin/cos pairs."))
    base: float = param(10000.0, msg("Params", "Base"), minimum=2.0, maximum=1e9, log=True,
                        help=msg("Params", "Longest wavelength is base·2π positions (10000 in the paper)."))
    layout: str = param("interleaved", msg("Params", "Layout"), choices={"interleaved": msg("Params", "interleaved"), "concatenated": msg("Params", "concatenated")},
                        help=msg("Params", "interleaved: sin,cos,sin,cos… (paper); concatenated: [sin… | cos…]."))


def inv_freq(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Angular frequency of each sin/cos pair: base^(−2i/d), i = 0 … d/2−1 (float64)."""
    import torch
    return torch.pow(float(base), -torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)


def rows(positions: torch.Tensor, d_model: int, base: float = 10000.0,
         layout: str = "interleaved") -> torch.Tensor:
    """Encoding rows for arbitrary (even real-valued) positions, float32 [len(positions), d]."""
    import torch
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
    import torch
    turns = angles * (1 / (2 * math.pi))
    return ((turns - torch.floor(turns)) * (2 * math.pi)).to(torch.float32)  # faster than torch.remainder


# Rows per block of the table: each block starts from exact phases and rotates them by the
# offsets 0 … BLOCK_ROWS−1 (a [BLOCK_ROWS, d/2] complex table that stays in cache).
BLOCK_ROWS = 64
# Rows per pass of the concatenated layout (its halves are copied out of a small complex buffer).
_CONCAT_CHUNK_ROWS = 2048


def table(n_positions: int, d_model: int, base: float = 10000.0,
          layout: str = "interleaved") -> torch.Tensor:
    """The full [n_positions, d_model] float32 table (refused before allocation if it cannot fit).

    Written in one pass by angle addition instead of a sine and a cosine per entry: with
    w(p) = sin(ωp) + i·cos(ωp) (an interleaved sin/cos pair read as one complex64 number),
    w(p₀ + k) = w(p₀)·e^{−iωk}.  The block starts p₀ = 0, 64, 128, … get their phases exactly
    (float64 angles, reduced, then sin/cos in float64) and the offsets k < 64 likewise, so the
    only error is three float32 roundings: ≤ ~2e-7 at every entry, at any position — better
    than float32 angles (whose phase error grows with the position) and as good as ``rows``.
    """
    import torch
    if d_model % 2:
        raise ValueError("d_model must be even")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}")
    ensure_fits((n_positions, d_model), 4, what="a sinusoidal table",
                suggestion="ask for fewer positions or dimensions, or use the heatmap, "
                           "which draws a level-of-detail reduction instead")
    half = d_model // 2
    omega = inv_freq(d_model, base)
    # numpy's allocator asks for transparent huge pages (torch's does not by default): writing a
    # fresh 400 MB table then costs about half as much in page faults
    out = torch.from_numpy(np.empty((n_positions, d_model), dtype=np.float32))
    offsets = _unit_phases(torch.arange(BLOCK_ROWS, dtype=torch.float64), omega)
    offsets = torch.complex(offsets.imag, -offsets.real)  # cos(ωk) − i·sin(ωk) = e^{−iωk}
    if layout == "interleaved":
        _rotate_blocks(torch.view_as_complex(out.view(n_positions, half, 2)), 0, n_positions, omega, offsets)
        return out
    buffer = torch.empty(min(n_positions, _CONCAT_CHUNK_ROWS), half, dtype=torch.complex64)
    for lo in range(0, n_positions, _CONCAT_CHUNK_ROWS):
        hi = min(n_positions, lo + _CONCAT_CHUNK_ROWS)
        part = buffer[:hi - lo]
        _rotate_blocks(part, lo, hi, omega, offsets)
        pairs = torch.view_as_real(part)
        out[lo:hi, :half], out[lo:hi, half:] = pairs[..., 0], pairs[..., 1]
    return out


def _unit_phases(positions: torch.Tensor, omega: torch.Tensor) -> torch.Tensor:
    """sin(ωp) + i·cos(ωp) as complex64 [len(positions), len(ω)], from float64 reduced angles."""
    import torch
    angles = positions.to(torch.float64).reshape(-1, 1) * omega.reshape(1, -1)
    turns = angles * (1 / (2 * math.pi))
    angles = (turns - torch.floor(turns)) * (2 * math.pi)
    return torch.complex(torch.sin(angles), torch.cos(angles)).to(torch.complex64)


def _rotate_blocks(out: torch.Tensor, start: int, stop: int, omega: torch.Tensor,
                   offsets: torch.Tensor) -> None:
    """Rows [start, stop) of the complex table into ``out`` [stop − start, d/2]."""
    import torch
    block = offsets.shape[0]
    n = stop - start
    full = n // block
    if full:
        starts = _unit_phases(start + torch.arange(full, dtype=torch.float64) * block, omega)
        torch.mul(starts[:, None, :], offsets[None, :, :], out=out[:full * block].view(full, block, -1))
    if n > full * block:
        tail = n - full * block
        torch.mul(_unit_phases(torch.tensor([float(start + full * block)]), omega), offsets[:tail],
                  out=out[full * block:])


def wavelengths(d_model: int, base: float = 10000.0, layout: str = "interleaved") -> np.ndarray:
    """Period in positions of every column: a geometric progression from 2π to ~base·2π."""
    per_pair = (2 * math.pi / inv_freq(d_model, base)).numpy()
    if layout == "interleaved":
        return np.repeat(per_pair, 2)
    return np.concatenate([per_pair, per_pair])


def _caption(spec: SinusoidalSpec) -> str:
    layout = shown(SinusoidalSpec.info("layout").label_of(spec.layout))
    return translate("Encodings", "Sinusoidal ({layout}): {n:,} positions × {d} dimensions, "
                     "base {base:g}. Left columns oscillate fast (wavelength 2π); right ones barely move "
                     "(up to {longest:,.0f} positions), so nearby and distant "
                     "positions are told apart at many scales. Values stay in [−1, 1].").format(
        layout=layout, n=spec.n_positions, d=spec.d_model, base=spec.base,
        longest=wavelengths(spec.d_model, spec.base)[-1])


FAMILY = Family(
    name="sinusoidal",
    label=msg("Encodings", "Sinusoidal (fixed)"),
    spec=SinusoidalSpec,
    summary=msg("Encodings", "Fixed sines and cosines of geometric frequencies, added to token embeddings."),
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
    import torch
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
    import torch
    sin, cos = pooled_sin_cos(starts, counts, inv_freq(spec.d_model, spec.base))
    if spec.layout == "interleaved":
        return torch.stack((sin, cos), dim=-1).reshape(len(starts), spec.d_model)
    return torch.cat((sin, cos), dim=-1)


def _column_at(spec: SinusoidalSpec, positions: torch.Tensor, column: int) -> torch.Tensor:
    """Column ``column`` of the table at ``positions``: one sine or cosine, not d of them."""
    import torch
    half = spec.d_model // 2
    if spec.layout == "interleaved":
        pair, is_cos = column // 2, column % 2 == 1
    else:
        pair, is_cos = column % half, column >= half
    omega = inv_freq(spec.d_model, spec.base)[pair]
    angles = reduced_angles(positions.to(torch.float64) * omega)
    return torch.cos(angles) if is_cos else torch.sin(angles)


FAMILY = dataclasses.replace(FAMILY, pooled_rows_at=_pooled, column_at=_column_at)
