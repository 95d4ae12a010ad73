"""NoPE's attention temperature: the scale curve and what it does to a NoPE layer's attention.

The article says a causal decoder can learn position from the mask alone, "with strategic
temperature tuning".  Llama 4 does exactly this on its NoPE layers (``attn_temperature_tuning``):
the query at position p is multiplied by ``1 + attn_scale · log(1 + floor((p + 1) / floor_scale))``
(:func:`peapp.encodings.nope.temperature_scale`, tested equal to transformers' Llama 4).
Scalable-Softmax (Nakanishi 2025) multiplies a query's logits by ``s · log n`` (n keys seen).
Without either, a query that sees n keys spreads its attention more as n grows: its entropy
rises like log n; the temperature sharpens it back.

This module is torch-free at import: the settings from a config, the curve and the steps, and the
entropy per query position of given q and k.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from peapp.errors import ParameterError
from peapp.i18n import translate

FORMULA = "q_p ← q_p · (1 + attn_scale · ln(1 + ⌊(p + 1) / floor_scale⌋))"
LOGN_FORMULA = "logits_p ← logits_p · s · ln(p + 1)"
LLAMA4_DEFAULTS = {"attn_scale": 0.1, "floor_scale": 8192}  # Llama4TextConfig's


@dataclass(frozen=True)
class TemperatureSettings:
    """What a config says about the temperature: Llama 4's keys, and which layers are NoPE."""

    tuning: bool
    attn_scale: float
    floor_scale: float
    nope_layers: tuple[int, ...] = ()
    source: str = "defaults"  # "defaults" or the config's model_type


def read_config(config: Mapping[str, Any]) -> TemperatureSettings:
    """Llama 4's ``attn_temperature_tuning``, ``attn_scale``, ``floor_scale`` and ``no_rope_layers``
    (1 = RoPE, 0 = NoPE, per layer) from a config (a Llama4ForConditionalGeneration's ``text_config``
    too); a config without them gives Llama 4's defaults with tuning off."""
    nested = config.get("text_config")
    text: Mapping[str, Any] = nested if isinstance(nested, Mapping) else config
    def number(key: str) -> float:
        value = text.get(key, LLAMA4_DEFAULTS[key])
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ParameterError(translate("Temperature", "{key} in the config is {value}, not a number.").format(
                key=key, value=repr(value)[:40]))
        return float(value)

    scale, floor = number("attn_scale"), number("floor_scale")
    if floor <= 0 or not 0 <= scale <= 100:
        raise ParameterError(translate("Temperature", "the config's floor_scale must be positive and attn_scale "
                                                      "between 0 and 100."))
    flags = text.get("no_rope_layers") or []
    if not isinstance(flags, list) or not all(isinstance(f, (int, bool)) for f in flags):
        raise ParameterError(translate("Temperature", "no_rope_layers in the config is not a list of 0 and 1."))
    nope = tuple(i for i, use_rope in enumerate(flags) if not use_rope)
    return TemperatureSettings(tuning=bool(text.get("attn_temperature_tuning", False)), attn_scale=scale,
                               floor_scale=floor, nope_layers=nope,
                               source=str(text.get("model_type") or config.get("model_type")
                                          or translate("Temperature", "Llama 4's defaults")))


@dataclass
class TemperatureCurve:
    positions: np.ndarray  # 0 … n − 1
    llama4: np.ndarray  # the query's multiplier at each position
    logn: np.ndarray  # s · ln(p + 1)
    steps: np.ndarray  # positions where the Llama 4 multiplier rises: m · floor_scale − 1
    attn_scale: float
    floor_scale: float
    logn_s: float


def scale_curve(n: int, attn_scale: float = 0.1, floor_scale: float = 8192, logn_s: float = 1.0) -> TemperatureCurve:
    """Both multipliers at positions 0 … n − 1 (closed forms: numpy, no torch)."""
    if not 1 <= n <= 10_000_000:
        raise ParameterError(translate("Temperature", "positions must be between 1 and 10,000,000."))
    if not floor_scale > 0:
        raise ParameterError(translate("Encodings", "floor_scale must be positive (Llama 4 uses 8192)."))
    p = np.arange(n, dtype=np.float64)
    llama4 = 1.0 + attn_scale * np.log1p(np.floor((p + 1.0) / floor_scale))
    steps = np.arange(1, int(n // floor_scale) + 2) * floor_scale - 1
    steps = steps[(steps < n) & (steps == np.floor(steps))]
    return TemperatureCurve(positions=p, llama4=llama4, logn=logn_s * np.log(p + 1.0), steps=steps,
                            attn_scale=float(attn_scale), floor_scale=float(floor_scale), logn_s=float(logn_s))


def entropy_by_position(q, k, scaling: float | None = None, row_scale=None, block: int = 256, *,
                        positions=None, causal: bool = True, per_head: bool = False) -> np.ndarray:
    """Entropy (nats) of each query row's softmax over the keys it sees: q [heads, rows, d] at query
    ``positions`` (default 0 … rows − 1, every row), k [kv heads, n, d] (torch tensors, any device);
    ``row_scale`` [rows] multiplies query row r's logits (a temperature: Llama 4's scale of q).
    ``causal``: a row at position p sees keys 0 … p, else all n.  Mean over heads [rows], or with
    ``per_head`` [heads, rows].  The one implementation: Run on text's NoPE figure, ``peapp
    temperature`` (a second forward) and the attention inspector's NoPE curve all call it."""
    import torch

    heads, rows, d = q.shape
    n = k.shape[1]
    group = heads // k.shape[0]
    keys = (k.repeat_interleave(group, dim=0) if group > 1 else k).float()  # once, not per block
    scale = scaling if scaling is not None else d ** -0.5
    device = q.device
    where = (torch.arange(rows, device=device) if positions is None
             else torch.as_tensor(positions, device=device).reshape(-1).long())
    if row_scale is not None:
        row_scale = torch.as_tensor(row_scale).to(device=device, dtype=torch.float32).reshape(-1)
    block = max(1, min(block, (1 << 24) // max(1, heads * n)))  # a block's logits: at most 16 M entries
    out = np.empty((heads, rows), dtype=np.float64)
    with torch.no_grad():
        for r0 in range(0, rows, block):
            r1 = min(rows, r0 + block)
            pos = where[r0:r1]
            stop = int(pos.max()) + 1 if causal else n  # the keys these rows may see
            logits = torch.matmul(q[:, r0:r1].float(), keys[:, :stop].transpose(1, 2)) * scale
            if row_scale is not None:
                logits = logits * row_scale[r0:r1].reshape(1, -1, 1)
            if causal:
                future = torch.arange(stop, device=device)[None, :] > pos[:, None]
                logp = torch.log_softmax(logits.masked_fill(future, float("-inf")), dim=-1)
                h = -(logp.exp() * logp.masked_fill(future, 0.0)).sum(-1)
            else:
                logp = torch.log_softmax(logits, dim=-1)
                h = -(logp.exp() * logp).sum(-1)  # [heads, rows]
            out[:, r0:r1] = h.double().cpu().numpy()
    return out if per_head else out.mean(0)


@dataclass
class EntropyResult:
    """A NoPE layer's attention entropy per query position, with and without the temperature."""

    layer: int
    source: str  # what q and k are: a model's own, or seeded random ones
    with_scale: np.ndarray
    without_scale: np.ndarray
    settings: TemperatureSettings
    n_tokens: int
    notes: list[str] = field(default_factory=list)

    def summary(self, train: int | None = None) -> str:
        """One sentence: how much the temperature lowers the entropy at the far end."""
        n = self.n_tokens
        tail = slice(max(0, n - max(1, n // 8)), n)
        w, wo = float(self.with_scale[tail].mean()), float(self.without_scale[tail].mean())
        return translate("Temperature", "Over the last eighth of the {n} positions the temperature lowers this layer's "
                                        "attention entropy from {without:.2f} to {with_:.2f} nats (uniform over all "
                                        "keys: {uniform:.2f}).").format(n=f"{n:,}", without=wo, with_=w,
                                                                        uniform=math.log(n))

    def first_step(self) -> int | None:
        """The first query position where the scale exceeds 1 (⌈floor_scale⌉ − 1), or None when
        attn_scale is 0 (the scale is 1 everywhere)."""
        if self.settings.attn_scale <= 0:
            return None
        return max(0, math.ceil(self.settings.floor_scale) - 1)

    def lowering(self, start: int) -> tuple[int, int, float, float]:
        """Over query positions ``start`` … n − 1: (positions where the scale lowers the entropy,
        positions, mean and largest lowering in nats)."""
        drop = self.without_scale[start:] - self.with_scale[start:]
        if drop.size == 0:
            return 0, 0, 0.0, 0.0
        return int((drop > 1e-9).sum()), int(drop.size), float(drop.mean()), float(drop.max())

    def verdict(self, trained: int | None = None) -> str:
        """Whether the scale lowers this layer's entropy, and from which position; and past the
        training length ``trained`` (tokens) where the run reaches past it."""
        n = self.n_tokens
        step = self.first_step()
        if step is None or step >= n:
            return translate("Temperature", "The scale is 1 at all {n} positions here (it first rises at position "
                                            "{step} = floor_scale − 1), so both curves are the same: the temperature "
                                            "does not act on a text this short.").format(
                n=f"{n:,}", step="∞" if step is None else f"{step:,}")
        lowered, total, mean, top = self.lowering(step)
        numbers = dict(step=f"{step:,}", lowered=f"{lowered:,}", total=f"{total:,}", mean=f"{mean:.4f}", top=f"{top:.4f}")
        if step > 0:
            text = translate("Temperature", "Up to position {before} the scale is 1 and both curves are the same; "
                                            "from position {step} on (floor_scale − 1) the scale lowers the entropy at "
                                            "{lowered} of {total} positions, by {mean} nats on average (at most "
                                            "{top}).").format(before=f"{step - 1:,}", **numbers)
        else:
            text = translate("Temperature", "The scale is above 1 from position 0 on: it lowers the entropy at "
                                            "{lowered} of {total} positions, by {mean} nats on average (at most "
                                            "{top}).").format(**numbers)
        if trained:
            if trained < n:
                lowered, total, mean, _ = self.lowering(trained)
                text += " " + translate("Temperature", "Past the training length ({trained} tokens): lowered at "
                                                       "{lowered} of {total} positions, by {mean} nats on "
                                                       "average.").format(trained=f"{trained:,}", lowered=f"{lowered:,}",
                                                                          total=f"{total:,}", mean=f"{mean:.4f}")
            else:
                text += " " + translate("Temperature", "This run's {n} tokens stay within the training length "
                                                       "({trained}): nothing here is past it.").format(
                    n=f"{n:,}", trained=f"{trained:,}")
        return text

    def to_json(self) -> dict[str, Any]:
        return {"layer": self.layer, "source": self.source, "n_tokens": self.n_tokens,
                "settings": {"tuning": self.settings.tuning, "attn_scale": self.settings.attn_scale,
                             "floor_scale": self.settings.floor_scale, "nope_layers": list(self.settings.nope_layers),
                             "source": self.settings.source},
                "entropy_with_scale": [round(float(x), 6) for x in self.with_scale],
                "entropy_without_scale": [round(float(x), 6) for x in self.without_scale],
                "summary": self.summary(), "notes": self.notes, "formula": FORMULA}


def seeded_entropy(n: int, settings: TemperatureSettings, heads: int = 4, head_dim: int = 64,
                   seed: int = 0) -> EntropyResult:
    """The entropy curves for seeded random q and k (no model): what the scale does by itself."""
    import torch

    from peapp.encodings.nope import temperature_scale

    g = torch.Generator().manual_seed(seed)
    q = torch.randn(heads, n, head_dim, generator=g)
    k = torch.randn(heads, n, head_dim, generator=g)
    scale = temperature_scale(torch.arange(n), settings.attn_scale, settings.floor_scale)
    return EntropyResult(layer=-1, source=translate("Temperature", "seeded random q, k"), with_scale=entropy_by_position(q, k, row_scale=scale),
                         without_scale=entropy_by_position(q, k), settings=settings, n_tokens=n)
