"""What a RoPE scaling does, pair by pair: the facts behind the spectrum and rotation views.

Everything is derived from :class:`peapp.encodings.rope.RopeSpec` (the same numbers a
transformers model uses):

* the wavelength 2π/θ_i of every pair before and after scaling, and their ratio;
* which pairs a scaling keeps, blends or divides (by the full factor);
* how many full turns each pair completes within the original and the extended context;
* the explicit factor against max/original, with a warning when they disagree;
* the RoFormer long-term-decay bound as a function of distance (Su et al., §3.4.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from peapp.encodings import rope
from peapp.encodings.rope import RopeSpec
from peapp.i18n import shown, translate
from peapp.jobs import ProgressFn, Request

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

KINDS = ("keep", "blend", "divide")
_REL_TOL = 1e-4  # float32 frequencies: a pair counts as "kept" / "divided" within this tolerance


def plain_spec(spec: RopeSpec) -> RopeSpec:
    """The same RoPE without any scaling (the 'before' of every comparison)."""
    return spec.replace(rope_type="default")


def scaled_seq_len(spec: RopeSpec) -> int:
    """The sequence length the 'after' frequencies are shown for: the extended context.

    Dynamic NTK and LongRoPE change with the length; at the extended context they show
    what the scaling does when it matters (past the trained length).
    """
    return max(spec.extended_context, 1)


def frequency_ratio(spec: RopeSpec, seq_len: int | None = None) -> np.ndarray:
    """θ_i(before) / θ_i(after) per pair: 1 = kept, factor = divided by the full factor."""
    import torch
    before = plain_spec(spec).inv_freq()[0].to(torch.float64)
    after = spec.inv_freq(scaled_seq_len(spec) if seq_len is None else seq_len)[0].to(torch.float64)
    return (before / after).numpy()


def classify(spec: RopeSpec, seq_len: int | None = None) -> np.ndarray:
    """Per pair: 'keep' (frequency unchanged), 'divide' (divided by the factor) or 'blend' (in between).

    For LongRoPE, 'divide' means divided by the nominal factor; its per-pair factors are
    usually all different, so most pairs show as 'blend' — the ratio itself is the detail.
    """
    ratio = frequency_ratio(spec, seq_len)
    kinds = np.full(ratio.shape, "blend", dtype=object)
    kinds[np.isclose(ratio, 1.0, rtol=_REL_TOL, atol=0)] = "keep"
    factor = spec.effective_factor()
    if factor != 1.0:
        kinds[np.isclose(ratio, factor, rtol=_REL_TOL, atol=0)] = "divide"
    return kinds.astype(str)


def decay_bound(inv_freq: np.ndarray | torch.Tensor, distances: np.ndarray) -> np.ndarray:
    """RoFormer's relative upper bound on |q·k| at each distance: (1/(d/2)) Σ_j |S_j|.

    S_j = Σ_{k<j} e^{i·r·θ_k} (Abel summation of the rotated products); the bound shrinks as the
    distance r grows, which is RoPE's long-term decay.  Computed in float64, in chunks of distances.
    """
    theta = np.asarray(inv_freq, dtype=np.float64)
    out = np.empty(len(distances), dtype=np.float64)
    for start in range(0, len(distances), 512):
        r = np.asarray(distances[start:start + 512], dtype=np.float64)[:, None]
        partial = np.cumsum(np.exp(1j * r * theta[None, :]), axis=1)
        out[start:start + 512] = np.abs(partial).mean(axis=1)
    return out


def decay_distances(spec: RopeSpec, n: int = 600) -> np.ndarray:
    """0 plus log-spaced distances up to twice the extended context."""
    top = max(2 * spec.extended_context, 16)
    return np.concatenate(([0.0], np.unique(np.round(np.geomspace(1, top, n)))))


@dataclass(frozen=True)
class ScalingFacts:
    """Everything the spectrum view draws, as plain numbers and arrays."""

    spec: RopeSpec
    seq_len: int  # the length the 'after' frequencies are computed for
    wavelength_before: np.ndarray  # [pairs]
    wavelength_after: np.ndarray  # [pairs]
    ratio: np.ndarray  # θ before / θ after
    kinds: np.ndarray  # 'keep' / 'blend' / 'divide'
    rotations_original: np.ndarray  # turns of each (unscaled) pair within the original context
    rotations_extended: np.ndarray  # turns of each scaled pair within the extended context
    trained_context: int
    extended_context: int
    attention_factor: float
    yarn_ramp: tuple[float, float] | None  # pair indices (low, high)
    llama3_band: tuple[float, float] | None  # wavelengths (keep below, divide above)
    longrope_short: np.ndarray | None
    longrope_long: np.ndarray | None
    mismatch: str | None
    distances: np.ndarray
    decay_before: np.ndarray
    decay_after: np.ndarray

    def counts(self) -> dict[str, int]:
        return {k: int((self.kinds == k).sum()) for k in KINDS}

    def summary(self) -> str:
        """One line in words: what the scaling does."""
        s = self.spec
        c = self.counts()
        if s.rope_type == "default":
            head = translate("Spectrum", "Unscaled RoPE: {pairs} pairs, base {base:g}").format(
                pairs=len(self.kinds), base=s.base)
        else:
            head = translate("Spectrum", "{kind} ×{factor:g}: {kept} kept, {blended} blended, {divided} divided by "
                                         "{factor:g}").format(
                kind=shown(RopeSpec.info("rope_type").label_of(s.rope_type)), factor=s.factor,
                kept=_pairs(c["keep"]), blended=c["blend"], divided=c["divide"])
        fast_turns = self.rotations_original[0]
        slow = int((self.rotations_original < 1).sum())
        if slow == 1:
            tail = translate("Spectrum", "; within the original {n:,} positions the fastest pair turns {turns:,.0f} "
                                         "times and 1 pair never completes a turn")
        else:
            tail = translate("Spectrum", "; within the original {n:,} positions the fastest pair turns {turns:,.0f} "
                                         "times and {slow} pairs never complete a turn")
        tail = tail.format(n=self.trained_context, turns=fast_turns, slow=slow)
        if self.attention_factor != 1.0:
            tail += translate("Spectrum", "; cos/sin × {factor:.4g} (logits × {square:.4g})").format(
                factor=self.attention_factor, square=self.attention_factor ** 2)
        return head + tail + translate("Spectrum", ".")


def _pairs(n: int) -> str:
    return translate("Spectrum", "1 pair") if n == 1 else translate("Spectrum", "{n} pairs").format(n=n)


def scaling_facts(spec: RopeSpec, progress: ProgressFn | None = None) -> ScalingFacts:
    seq_len = scaled_seq_len(spec)
    before, _ = plain_spec(spec).inv_freq()
    after, attn = spec.inv_freq(seq_len)
    w_before, w_after = rope.wavelengths(before), rope.wavelengths(after)
    if progress:
        progress(0.2)
    distances = decay_distances(spec)
    decay_before = decay_bound(before.numpy(), distances)
    if progress:
        progress(0.6)
    decay_after = decay_bound(after.numpy(), distances)
    ramp = spec.yarn_ramp() if spec.rope_type == "yarn" else None
    band = None
    if spec.rope_type == "llama3":
        length = spec.original_max_position_embeddings
        band = (length / spec.high_freq_factor, length / spec.low_freq_factor)
    short = long = None
    if spec.rope_type == "longrope":
        short = np.asarray(spec.longrope_factors(None), dtype=np.float64)
        long = np.asarray(spec.longrope_factors(spec.original_max_position_embeddings + 1), dtype=np.float64)
    return ScalingFacts(
        spec=spec, seq_len=seq_len, wavelength_before=w_before, wavelength_after=w_after,
        ratio=w_after / w_before, kinds=classify(spec, seq_len),
        rotations_original=spec.trained_context / w_before,
        rotations_extended=spec.extended_context / w_after,
        trained_context=spec.trained_context, extended_context=spec.extended_context,
        attention_factor=float(attn), yarn_ramp=ramp, llama3_band=band, longrope_short=short,
        longrope_long=long, mismatch=rope.context_mismatch(spec), distances=distances,
        decay_before=decay_before, decay_after=decay_after)


@dataclass(frozen=True)
class SpectrumRequest(Request):
    """The spectrum dock's data: a RoPE spec's scaling facts."""

    channel: ClassVar[str] = "spectrum"
    params: tuple[tuple[str, Any], ...]

    def compute(self, progress: ProgressFn) -> ScalingFacts:
        spec = RopeSpec.from_dict(dict(self.params))
        return scaling_facts(spec, progress)
