"""RoPE as rotations: the numbers behind the 2D rotation view.

Pair i of a vector is a point in the plane; RoPE turns it by pos·θ_i.  These helpers work on
per-pair 2D coordinates ``[pairs, 2]`` (pair i = (x_i, y_i), whatever the memory layout) in
float64 numpy, so the view can redraw every animation frame on the GUI thread cheaply, while
the frequencies themselves come from :class:`~peapp.encodings.rope.RopeSpec` on the worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from peapp.encodings import rope
from peapp.encodings.rope import RopeSpec
from peapp.jobs import ProgressFn, Request


def rotate(pairs: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Rotate each 2D pair ``[..., pairs, 2]`` by its angle ``[..., pairs]`` (radians)."""
    c, s = np.cos(angles), np.sin(angles)
    x, y = pairs[..., 0], pairs[..., 1]
    return np.stack((x * c - y * s, x * s + y * c), axis=-1)


def rope_pairs(pairs: np.ndarray, inv_freq: np.ndarray, position: float, attention_factor: float = 1.0) -> np.ndarray:
    """RoPE at one position on per-pair coordinates (pair i turned by position·θ_i)."""
    return rotate(pairs, position * inv_freq) * attention_factor


def trail(pair: np.ndarray, theta: float, positions: np.ndarray, attention_factor: float = 1.0) -> np.ndarray:
    """Where one pair's point sits at each of ``positions``: [len(positions), 2]."""
    return rotate(np.broadcast_to(pair, (len(positions), 2)), positions * theta) * attention_factor


def sinusoid_pairs(inv_freq: np.ndarray, position: float) -> np.ndarray:
    """The additive sinusoidal encoding at ``position`` as pairs (sin pos·θ_i, cos pos·θ_i) (Vaswani et al.)."""
    angle = position * inv_freq
    return np.stack((np.sin(angle), np.cos(angle)), axis=-1)


def wrapped_degrees(radians: float | np.ndarray) -> float | np.ndarray:
    """An angle in degrees folded into (−180, 180]."""
    deg = np.degrees(radians)
    return 180.0 - np.mod(180.0 - deg, 360.0)


@dataclass(frozen=True)
class RelativeReading:
    """q at m and k at n: the angle between them in one pair and q·k before and after a common shift."""

    pair: int
    angle: float  # (m − n)·θ_pair in radians, folded into (−π, π]
    pair_dot: float  # q·k of this pair's 2D parts at (m, n)
    dot: float  # the full q·k at (m, n)
    dot_shifted: float  # the full q·k at (m + shift, n + shift): the same, up to rounding


def relative(q: np.ndarray, k: np.ndarray, inv_freq: np.ndarray, m: float, n: float, shift: float, pair: int,
             attention_factor: float = 1.0) -> RelativeReading:
    qm, kn = rope_pairs(q, inv_freq, m, attention_factor), rope_pairs(k, inv_freq, n, attention_factor)
    qs, ks = (rope_pairs(q, inv_freq, m + shift, attention_factor),
              rope_pairs(k, inv_freq, n + shift, attention_factor))
    angle = float(np.radians(wrapped_degrees((m - n) * inv_freq[pair])))
    return RelativeReading(pair=pair, angle=angle, pair_dot=float((qm[pair] * kn[pair]).sum()),
                           dot=float((qm * kn).sum()), dot_shifted=float((qs * ks).sum()))


@dataclass(frozen=True)
class AdditiveReading:
    """The same token vector with the sinusoid added vs rotated by RoPE, at one position."""

    added: np.ndarray  # x + PE(pos), per pair
    rotated: np.ndarray  # R(pos)·x, per pair
    norm: float  # |x|
    norm_added: float  # |x + PE|
    norm_rotated: float  # |R x| (= |x| times the attention factor)
    turn_added: float  # degrees the chosen pair's direction changed by adding PE
    turn_rotated: float  # degrees it turned under RoPE (= pos·θ_i, folded)


def additive_vs_rotary(x: np.ndarray, inv_freq: np.ndarray, position: float, pair: int,
                       attention_factor: float = 1.0) -> AdditiveReading:
    added = x + sinusoid_pairs(inv_freq, position)
    rotated = rope_pairs(x, inv_freq, position, attention_factor)

    def heading(p: np.ndarray) -> float:
        return float(np.arctan2(p[1], p[0]))

    return AdditiveReading(
        added=added, rotated=rotated, norm=float(np.linalg.norm(x)), norm_added=float(np.linalg.norm(added)),
        norm_rotated=float(np.linalg.norm(rotated)),
        turn_added=float(wrapped_degrees(heading(added[pair]) - heading(x[pair]))),
        turn_rotated=float(wrapped_degrees(heading(rotated[pair]) - heading(x[pair]))))


def fast_to_slow(n_pairs: int, count: int) -> np.ndarray:
    """``count`` pair indices spread evenly from the fastest (0) to the slowest (n_pairs − 1)."""
    return np.unique(np.round(np.linspace(0, n_pairs - 1, min(count, n_pairs))).astype(int))


@dataclass(frozen=True)
class RotationFacts:
    spec: RopeSpec
    inv_freq: np.ndarray  # float64 copy of the float32 frequencies the model uses
    attention_factor: float
    wavelengths: np.ndarray
    q: np.ndarray  # [pairs, 2] example query (seeded, unit-variance entries)
    k: np.ndarray  # [pairs, 2] example key
    x: np.ndarray  # [pairs, 2] example token vector for the additive comparison


@dataclass(frozen=True)
class RotationRequest(Request):
    """Frequencies for the rotation view at the spec's sequence length (n_positions)."""

    channel: ClassVar[str] = "rotation"
    params: tuple[tuple[str, Any], ...]
    seed: int = 0

    def compute(self, progress: ProgressFn) -> RotationFacts:
        spec = RopeSpec.from_dict(dict(self.params))
        inv, attn = spec.inv_freq(spec.n_positions)
        rng = np.random.default_rng(self.seed)
        q, k, x = (rng.standard_normal((spec.n_pairs, 2)) for _ in range(3))
        return RotationFacts(spec=spec, inv_freq=inv.double().numpy(), attention_factor=float(attn),
                             wavelengths=rope.wavelengths(inv), q=q, k=k, x=x)
