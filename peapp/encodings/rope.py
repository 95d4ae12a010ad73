"""Rotary position embedding (RoPE; Su et al., RoFormer).

Pairs of dimensions of q and k are rotated by pos·θ_i with θ_i = base^(−2i/dim), so the dot
product of a query at m and a key at n depends on m − n only, and rotation keeps norms.

Pair layouts (say which one is shown):
* ``half`` — dimension i pairs with i + dim/2 (``rotate_half``; HF Llama, GPT-NeoX);
* ``interleaved`` — dimension 2i pairs with 2i+1 (GPT-J, Meta's original Llama).

Partial rotary: only the first ``dim = head_dim · partial_rotary_factor`` dimensions rotate.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import torch

from peapp.encodings.base import Family
from peapp.errors import ParameterError
from peapp.params import Spec, param

LAYOUTS = ("half", "interleaved")


@dataclass(frozen=True)
class RopeSpec(Spec):
    family = "rope"
    n_positions: int = param(50, "Positions", minimum=1, maximum=1_048_576, step=1,
                             help="How many positions (rows) of the cos/sin tables to show.")
    head_dim: int = param(128, "head_dim", minimum=2, maximum=1024, step=2, even=True,
                          help="Per-head width of q and k.")
    base: float = param(10000.0, "Base (rope_theta)", minimum=2.0, maximum=1e9, log=True,
                        help="θ_i = base^(−2i/dim); Llama-3 uses 500000.")
    partial_rotary_factor: float = param(1.0, "Rotary fraction", minimum=0.0625, maximum=1.0, step=0.0625,
                                         help="Share of head_dim that rotates (GPT-NeoX rotary_pct).")
    layout: str = param("half", "Pair layout", choices=LAYOUTS,
                        help="half: i pairs with i+dim/2 (HF Llama); interleaved: 2i with 2i+1 (GPT-J).")

    def check(self) -> None:
        dim = self.rotary_dim
        if dim < 2 or dim % 2:
            raise ParameterError(
                f"head_dim {self.head_dim} × rotary fraction {self.partial_rotary_factor:g} = {dim}: the "
                f"rotary part must be an even number of dimensions ≥ 2; change either value.")

    @property
    def rotary_dim(self) -> int:
        return int(self.head_dim * self.partial_rotary_factor)

    def inv_freq(self, seq_len: int | None = None) -> tuple[torch.Tensor, float]:
        """(inv_freq [dim/2] float32, attention_factor) — default RoPE frequencies."""
        return default_inv_freq(self.rotary_dim, self.base), 1.0

    def cos_sin(self, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """cos and sin tables [len(positions), dim] in the half-split layout, attention factor applied."""
        positions = torch.as_tensor(positions)
        seq_len = int(positions.max()) + 1 if positions.numel() else 0
        inv, factor = self.inv_freq(seq_len)
        return cos_sin(positions, inv, factor)


def default_inv_freq(dim: int, base: float = 10000.0) -> torch.Tensor:
    """θ_i = base^(−2i/dim), i = 0 … dim/2 − 1, computed as transformers does (int64 arange → float)."""
    exponent = torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float32) / dim
    return 1.0 / (float(base) ** exponent)


def cos_sin(positions: torch.Tensor, inv_freq: torch.Tensor,
            attention_factor: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """Half-split cos/sin tables [len(positions), 2·len(inv_freq)], float32, times attention_factor."""
    freqs = positions.to(torch.float32).reshape(-1, 1) * inv_freq.to(torch.float32).reshape(1, -1)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos() * attention_factor, emb.sin() * attention_factor


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply(x: torch.Tensor, positions: torch.Tensor, inv_freq: torch.Tensor,
          layout: str = "half", attention_factor: float = 1.0) -> torch.Tensor:
    """Rotate x [..., seq, head_dim] by position; dimensions past 2·len(inv_freq) pass through.

    ``positions`` has shape [seq].  Works for q and k alike; norms are kept (times the
    attention factor, which is 1 for unscaled RoPE).
    """
    if layout not in LAYOUTS:
        raise ParameterError(f"RoPE pair layout must be one of {LAYOUTS}; got {layout!r}")
    dim = 2 * inv_freq.shape[-1]
    if dim > x.shape[-1]:
        raise ParameterError(f"rotary dim {dim} exceeds the vector width {x.shape[-1]}")
    rot, rest = x[..., :dim].to(torch.float32), x[..., dim:]
    angles = positions.to(torch.float32).reshape(-1, 1) * inv_freq.to(torch.float32).reshape(1, -1)
    cos, sin = angles.cos() * attention_factor, angles.sin() * attention_factor
    if layout == "half":
        cos2, sin2 = torch.cat((cos, cos), -1), torch.cat((sin, sin), -1)
        out = rot * cos2 + _rotate_half(rot) * sin2
    else:
        even, odd = rot[..., 0::2], rot[..., 1::2]
        out = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)
    return torch.cat((out.to(x.dtype), rest), dim=-1)


def wavelengths(inv_freq: torch.Tensor) -> np.ndarray:
    """Positions per full turn of each pair: 2π/θ_i."""
    return (2 * np.pi / inv_freq.to(torch.float64)).numpy()


def _rows_at(spec: RopeSpec, positions: torch.Tensor) -> torch.Tensor:
    # [cos θ_0 … cos θ_{dim/2−1} | sin θ_0 … sin θ_{dim/2−1}]: one column per pair in each half.
    inv, factor = spec.inv_freq(spec.n_positions)
    cos, sin = cos_sin(positions, inv, factor)
    half = inv.shape[0]
    return torch.cat((cos[:, :half], sin[:, :half]), dim=-1)


def _caption(spec: RopeSpec) -> str:
    inv, _ = spec.inv_freq(spec.n_positions)
    w = wavelengths(inv)
    part = "" if spec.rotary_dim == spec.head_dim else f" (only {spec.rotary_dim} of {spec.head_dim} dims rotate)"
    return (f"RoPE cos | sin tables: {spec.n_positions:,} positions × {spec.rotary_dim // 2} pairs each{part}, "
            f"base {spec.base:g}. Pair i turns by θ_i per position: from one turn every {w[0]:.1f} "
            f"positions (left) to one every {w[-1]:,.0f} (right). Nothing is added to the embedding; "
            f"q and k are rotated inside attention.")


FAMILY = Family(
    name="rope",
    label="RoPE (rotary)",
    spec=RopeSpec,
    summary="Rotates q/k pairs by position; q·k depends only on the distance m − n.",
    rows=lambda s: s.n_positions,
    cols=lambda s: s.rotary_dim,
    rows_at=_rows_at,
    caption=_caption,
    col_axis="cos pairs | sin pairs",
    column_wavelengths=lambda s: np.tile(wavelengths(s.inv_freq(s.n_positions)[0]), 2),
    order=30,
)


def _pooled(spec: RopeSpec, starts: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
    from peapp.encodings.sinusoidal import pooled_sin_cos

    inv, factor = spec.inv_freq(spec.n_positions)
    sin, cos = pooled_sin_cos(starts, counts, inv)
    return torch.cat((cos, sin), dim=-1) * factor


FAMILY = dataclasses.replace(FAMILY, pooled_rows_at=_pooled)
