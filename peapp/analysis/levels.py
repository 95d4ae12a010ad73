"""Colour levels: the one policy every image in the app is coloured by.

:func:`colour_levels` says which values take the two end colours of a colour map, and whether
the map should be diverging (centred on 0).  The scales:

* ``"symmetric"`` — centred on 0, ±the largest magnitude (encodings whose sign matters, similarity);
* ``"range"`` — the finite min … max;
* ``"signed"`` — centred on 0 when both signs matter (the smaller side is more than 5% of the
  larger), else the range (logits, bias terms);
* ``"weights"`` — attention weights: 0 … 1 (``unit``) or 0 … the largest weight, or on a log₁₀
  scale LOG_DECADES decades below that top (``log``; the levels are then log₁₀ values).

``robust`` (the default for the data-driven scales) keeps a few outliers from washing the
picture out: when they stretch the full range more than OUTLIER_RATIO times, the levels hold
the central LEVEL_SHARE of the values and ``saturated`` says so (the outliers take the end
colours; read-outs keep the exact values).  Weights are never clipped: a probability of 1 is
what the colour bar's top means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

SCALES = ("symmetric", "range", "signed", "weights")
# Colour levels that a few outliers cannot wash out: a trained table (MiniLM's positions) has
# most values within ±0.1 and a handful near ±2, and scaled to those it draws as one flat colour.
LEVEL_SHARE = 0.995  # the levels hold this share of the values …
OUTLIER_RATIO = 1.5  # … when the full range is this much wider; otherwise the full range
_LEVEL_SAMPLE = 1 << 16  # values looked at for the quantile (a strided sample of larger views:
#                          the 99.5% quantile of 65k values is within ~0.05% of the share)
# Log colours of attention weights span this many decades below the top weight: at 4,096 keys a
# typical weight is ~2·10⁻⁴, and what position does to attention is in how those small weights fall off.
LOG_DECADES = 6
_BOTH_SIGNS = 0.05  # "signed": both signs matter when the smaller side reaches this share of the larger


@dataclass(frozen=True)
class ColourLevels:
    levels: tuple[float, float]
    diverging: bool = False  # centred on 0: draw with a diverging colour map
    saturated: bool = False  # a few outliers lie beyond the levels (robust clipping)


def colour_levels(values: np.ndarray, scale: str = "range", *, robust: bool = True, unit: bool = False,
                  log: bool = False) -> ColourLevels:
    """The colour levels of ``values`` on ``scale`` (see the module docstring); NaN and ±inf
    (gaps, masked cells) are left out."""
    values = np.asarray(values)
    if scale == "weights":
        return _weight_levels(values, unit, log)
    if scale not in SCALES:
        raise ValueError(f"unknown colour scale {scale!r}; choose one of {', '.join(SCALES)}")
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return ColourLevels((0.0, 1.0) if scale == "signed" else (-1.0, 1.0))
    lo, hi = float(finite.min()), float(finite.max())
    symmetric = scale == "symmetric" or (scale == "signed" and lo < 0 < hi
                                         and min(-lo, hi) > _BOTH_SIGNS * max(-lo, hi))
    if symmetric:
        m = max(abs(lo), abs(hi)) or 1.0
        full = (-m, m)
    elif math.isclose(lo, hi):
        full = (lo - 0.5, hi + 0.5)
    else:
        full = (lo, hi)
    if robust:
        clipped = _central(values, symmetric, full)
        if clipped is not None:
            return ColourLevels(clipped, symmetric, True)
    return ColourLevels(full, symmetric)


def _central(values: np.ndarray, symmetric: bool, full: tuple[float, float]) -> tuple[float, float] | None:
    """The range of the central LEVEL_SHARE of the values when outliers stretch ``full`` more
    than OUTLIER_RATIO times that, else None."""
    flat = values.reshape(-1)
    sample = flat[::max(1, flat.size // _LEVEL_SAMPLE) | 1]  # an odd stride: not every other column
    sample = sample[np.isfinite(sample)]
    if sample.size < 100:
        return None
    if symmetric:
        m = float(np.quantile(np.abs(sample), LEVEL_SHARE))
        return (-m, m) if m > 0 and full[1] > OUTLIER_RATIO * m else None
    lo, hi = (float(v) for v in np.quantile(sample, [1 - LEVEL_SHARE, LEVEL_SHARE]))
    return (lo, hi) if hi > lo and full[1] - full[0] > OUTLIER_RATIO * (hi - lo) else None


def _weight_levels(values: np.ndarray, unit: bool, log: bool) -> ColourLevels:
    if log:
        top = 0.0 if unit else math.log10(max(float(np.nanmax(values)) if values.size else 1.0, 1e-30))
        return ColourLevels((top - LOG_DECADES, top))
    if unit:
        return ColourLevels((0.0, 1.0))
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return ColourLevels((0.0, 1.0))
    return ColourLevels((0.0, max(float(finite.max()), 1e-12)))  # 0 … the largest weight shown (≤ 1)
