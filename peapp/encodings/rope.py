"""Rotary position embedding (RoPE; Su et al., RoFormer) and its context-extension variants.

Pairs of dimensions of q and k are rotated by pos·θ_i with θ_i = base^(−2i/dim), so the dot
product of a query at m and a key at n depends on m − n only, and rotation keeps norms.

Pair layouts (say which one is shown):
* ``half`` — dimension i pairs with i + dim/2 (``rotate_half``; HF Llama, GPT-NeoX);
* ``interleaved`` — dimension 2i pairs with 2i+1 (GPT-J, Meta's original Llama).

Partial rotary: only the first ``dim = head_dim · partial_rotary_factor`` dimensions rotate.

Scaling (``rope_type``), with Hugging Face config semantics — every variant yields
``(inv_freq, attention_factor)``; cos and sin are multiplied by the attention factor:

* ``default`` — plain RoPE;
* ``linear`` — position interpolation: every θ_i divided by ``factor``;
* ``ntk`` — static NTK-aware: base' = base · factor^(dim/(dim−2)) (not a transformers type);
* ``dynamic`` — dynamic NTK: the NTK base grows with the sequence length once it exceeds
  the trained length;
* ``yarn`` — fast pairs kept, slow pairs divided by ``factor``, a linear ramp between, and an
  attention factor;
* ``llama3`` — keep / smooth blend / divide by wavelength bands;
* ``longrope`` — per-pair factors (short ones up to the trained length, long ones past it).

The arithmetic follows transformers' ``ROPE_INIT_FUNCTIONS`` operation by operation in
float32, so the tables equal the ones a transformers model computes for the same config.
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from peapp.i18n import msg, shown, translate
from peapp.checkpoints import hf_config
from peapp.encodings.base import Family
from peapp.errors import CheckpointError, ParameterError
from peapp.params import Spec, param

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

LAYOUTS = ("half", "interleaved")
ROPE_TYPES = ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope")
# what the forms show for each type: its config name (another language writes the method's name)
_ROPE_TYPE_LABELS = {"default": msg("Params", "default"), "linear": msg("Params", "linear"), "ntk": msg("Params", "ntk"),
                     "dynamic": msg("Params", "dynamic"), "yarn": msg("Params", "yarn"),
                     "llama3": msg("Params", "llama3"), "longrope": msg("Params", "longrope")}
assert tuple(_ROPE_TYPE_LABELS) == ROPE_TYPES
# Types whose original (pre-training) length is a separate number from max_position_embeddings.
_ORIGINAL_LENGTH_TYPES = ("yarn", "llama3", "longrope")
_MAX_POSITIONS = 1_048_576


# Which scaling fields each rope_type reads (inv_freq and its helpers).  The context lengths come
# with every scaling: they state the extension (original × factor) that the views report.
_CONTEXT = ("factor", "original_max_position_embeddings", "max_position_embeddings")
_YARN = ("beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate")
_LLAMA3 = ("low_freq_factor", "high_freq_factor")
_SCALING_FIELDS = _CONTEXT + _YARN + _LLAMA3
_SCALING_FIELDS_USED: dict[str, tuple[str, ...]] = {
    "default": (), "linear": _CONTEXT, "ntk": _CONTEXT, "dynamic": _CONTEXT, "yarn": _CONTEXT + _YARN,
    "llama3": _CONTEXT + _LLAMA3, "longrope": _CONTEXT + ("attention_factor",)}


@dataclass(frozen=True)
class RopeSpec(Spec):
    family = "rope"
    n_positions: int = param(50, msg("Params", "Positions"), minimum=1, maximum=_MAX_POSITIONS, step=1,
                             help=msg("Params", "How many positions (rows) of the cos/sin tables to show. For dynamic "
                                  "and LongRoPE scaling this is also the sequence length the frequencies "
                                  "are chosen for."))
    head_dim: int = param(128, "head_dim", minimum=2, maximum=4096, step=2, even=True,
                          help=msg("Params", "Per-head width of q and k."))
    base: float = param(10000.0, msg("Params", "Base (rope_theta)"), minimum=2.0, maximum=1e9, log=True,
                        help=msg("Params", "θ_i = base^(−2i/dim); Llama-3 uses 500000."))
    partial_rotary_factor: float = param(1.0, msg("Params", "Rotary fraction"), minimum=0.0625, maximum=1.0, step=0.0625,
                                         help=msg("Params", "Share of head_dim that rotates (GPT-NeoX rotary_pct)."))
    layout: str = param("half", msg("Params", "Pair layout"), choices={"half": msg("Params", "half"), "interleaved": msg("Params", "interleaved")},
                        help=msg("Params", "half: i pairs with i+dim/2 (HF Llama); interleaved: 2i with 2i+1 (GPT-J)."))
    rope_type: str = param("default", msg("Params", "Scaling (rope_type)"), choices=_ROPE_TYPE_LABELS,
                           help=msg("Params", "default: none; linear: position interpolation; ntk: static NTK-aware base; "
                                "dynamic: NTK base grown with the sequence length; yarn: ramp + attention "
                                "factor; llama3: keep/blend/divide bands; longrope: per-pair factors."))
    factor: float = param(8.0, msg("Params", "Scaling factor"), minimum=1.0, maximum=4096.0, log=True,
                          help=msg("Params", "How many times longer the extended context is than the trained one "
                               "(all scaling types)."))
    original_max_position_embeddings: int = param(
        4096, msg("Params", "Original context"), minimum=1, maximum=_MAX_POSITIONS, step=1,
        help=msg("Params", "Trained (pre-extension) context length. For dynamic this is config max_position_embeddings."))
    max_position_embeddings: int = param(
        0, msg("Params", "Extended context"), minimum=0, maximum=_MAX_POSITIONS * 16, step=1,
        help=msg("Params", "Context length the config claims (config max_position_embeddings). 0: not given, taken "
             "as original × factor. A value that disagrees with the factor is reported."))
    beta_fast: float = param(32.0, msg("Params", "YaRN beta_fast"), minimum=0.01, maximum=1024.0, log=True,
                             help=msg("Params", "yarn: pairs turning more than beta_fast times within the original "
                                  "context keep their frequency."))
    beta_slow: float = param(1.0, msg("Params", "YaRN beta_slow"), minimum=0.01, maximum=1024.0, log=True,
                             help=msg("Params", "yarn: pairs turning fewer than beta_slow times are divided by factor."))
    mscale: float = param(0.0, msg("Params", "YaRN mscale"), minimum=0.0, maximum=10.0, step=0.01,
                          help=msg("Params", "yarn (DeepSeek): with mscale_all_dim, attention factor = "
                               "mscale(factor, mscale) / mscale(factor, mscale_all_dim). 0: not set."))
    mscale_all_dim: float = param(0.0, msg("Params", "YaRN mscale_all_dim"), minimum=0.0, maximum=10.0, step=0.01,
                                  help=msg("Params", "yarn (DeepSeek): see mscale. 0: not set."))
    attention_factor: float = param(0.0, msg("Params", "Attention factor"), minimum=0.0, maximum=10.0, step=0.01,
                                    help=msg("Params", "yarn, longrope: multiplies cos and sin (logits scale by its "
                                         "square). 0: the method's default formula."))
    truncate: bool = param(True, msg("Params", "YaRN truncate"), help=msg("Params", "yarn: floor/ceil the ramp bounds to whole pairs."))
    low_freq_factor: float = param(1.0, msg("Params", "Llama-3 low_freq_factor"), minimum=0.01, maximum=1024.0, log=True,
                                   help=msg("Params", "llama3: wavelengths above original/low_freq_factor are divided by factor."))
    high_freq_factor: float = param(4.0, msg("Params", "Llama-3 high_freq_factor"), minimum=0.01, maximum=1024.0, log=True,
                                    help=msg("Params", "llama3: wavelengths below original/high_freq_factor are kept."))
    # LongRoPE per-pair factors (length dim/2).  Not form fields (a form cannot edit a list);
    # they come from a config.json.  Empty means uniform: short 1 (unchanged) and long = factor.
    short_factor: tuple[float, ...] = field(default=())
    long_factor: tuple[float, ...] = field(default=())

    # ---- validation ------------------------------------------------------------------------
    def __post_init__(self) -> None:
        for name in ("short_factor", "long_factor"):
            object.__setattr__(self, name, _factor_tuple(name, getattr(self, name)))
        super().__post_init__()

    def check(self) -> None:
        dim = self.rotary_dim
        if dim < 2 or dim % 2:
            raise ParameterError(translate(
                "Encodings", "head_dim {head_dim} × rotary fraction {fraction:g} = {dim}: the rotary part must be an "
                "even number of dimensions ≥ 2; change either value.").format(
                head_dim=self.head_dim, fraction=self.partial_rotary_factor, dim=dim))
        if self.rope_type in ("ntk", "dynamic") and dim < 4:
            raise ParameterError(translate(
                "Encodings", "NTK scaling raises the base to the power dim/(dim − 2), which needs a rotary part of at "
                "least 4 dimensions (now {dim}); raise head_dim or the rotary fraction.").format(dim=dim))
        # equal factors are valid (Llama 4 ships them): no blended band, a hard cut-over, as in transformers
        if self.rope_type == "llama3" and self.high_freq_factor < self.low_freq_factor:
            raise ParameterError(translate(
                "Encodings", "Llama-3 high_freq_factor ({high:g}) must be at least low_freq_factor ({low:g}); raise "
                "the first or lower the second.").format(high=self.high_freq_factor, low=self.low_freq_factor))
        if self.rope_type == "yarn" and self.beta_fast <= self.beta_slow:
            raise ParameterError(translate(
                "Encodings", "YaRN beta_fast ({fast:g}) must be greater than beta_slow ({slow:g}); raise beta_fast or "
                "lower beta_slow.").format(fast=self.beta_fast, slow=self.beta_slow))
        for name in ("short_factor", "long_factor"):
            values = getattr(self, name)
            if values and len(values) != dim // 2:
                raise ParameterError(
                    f"LongRoPE {name} has {len(values)} values but the rotary part has {dim // 2} pairs "
                    f"(head_dim {self.head_dim} × {self.partial_rotary_factor:g} / 2); give one per pair.")

    def inactive_fields(self) -> dict[str, str]:
        """The scaling fields the chosen rope_type does not read (see ``inv_freq``), with why."""
        used = _SCALING_FIELDS_USED[self.rope_type]
        return {name: translate("Encodings", "Not used with scaling '{kind}'; used by {users}.").format(
                    kind=shown(_ROPE_TYPE_LABELS[self.rope_type]),
                    users=", ".join(shown(_ROPE_TYPE_LABELS[t]) for t, names in _SCALING_FIELDS_USED.items()
                                    if name in names))
                for name in _SCALING_FIELDS if name not in used}

    # ---- serialisation: the tuple fields travel with the form fields -------------------------
    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> "RopeSpec":
        values = dict(values)
        extra = {k: values.pop(k) for k in ("short_factor", "long_factor") if k in values}
        spec = super().from_dict(values)  # rejects unknown keys
        return dataclasses.replace(spec, **extra) if extra else spec

    def to_dict(self) -> dict[str, Any]:
        values = super().to_dict()
        # Always present, so merging a new spec's values over old ones (Document.with_params)
        # clears factors the new spec does not have.  Tuples keep requests hashable; JSON
        # writes them as lists.
        values["short_factor"] = self.short_factor
        values["long_factor"] = self.long_factor
        return values

    @classmethod
    def from_hf_config(cls, config: Mapping[str, Any], layer_type: str | None = None) -> "RopeSpec":
        """Read a Hugging Face config.json dict.

        ``rope_theta`` at the top level or inside ``rope_parameters``; ``rope_scaling`` or
        ``rope_parameters`` (legacy key ``type``; ``su`` = ``longrope``); ``head_dim`` else
        hidden_size / num_attention_heads; ``partial_rotary_factor`` / ``rotary_pct`` /
        ``rotary_dim``; top-level ``original_max_position_embeddings`` (Phi-3); per-layer-type
        dicts (``layer_type`` picks one, default full_attention; :func:`read_hf_config` also
        lists the others).  Raises CheckpointError naming a missing or unsupported key.
        """
        return read_hf_config(config, layer_type).spec

    # ---- derived numbers --------------------------------------------------------------------
    @property
    def rotary_dim(self) -> int:
        return int(self.head_dim * self.partial_rotary_factor)

    @property
    def n_pairs(self) -> int:
        return self.rotary_dim // 2

    @property
    def trained_context(self) -> int:
        """The context length the model was trained with (before any extension)."""
        return self.original_max_position_embeddings

    @property
    def extended_context(self) -> int:
        """The context the scaling targets: max_position_embeddings if given, else original × factor."""
        if self.rope_type == "default":
            return self.max_position_embeddings or self.original_max_position_embeddings
        if self.max_position_embeddings:
            return self.max_position_embeddings
        return int(round(self.original_max_position_embeddings * self.factor))

    def effective_factor(self) -> float:
        """The factor the arithmetic uses (1 for unscaled RoPE)."""
        return 1.0 if self.rope_type == "default" else self.factor

    def longrope_factors(self, seq_len: int | None = None) -> tuple[float, ...]:
        """Per-pair divisors LongRoPE applies at ``seq_len`` (long ones past the original length)."""
        long = seq_len is not None and seq_len > self.original_max_position_embeddings
        chosen = self.long_factor if long else self.short_factor
        if chosen:
            return chosen
        return (self.factor if long else 1.0,) * self.n_pairs

    def inv_freq(self, seq_len: int | None = None) -> tuple[torch.Tensor, float]:
        """(inv_freq [dim/2] float32, attention_factor) for this scaling at sequence length ``seq_len``.

        Only ``dynamic`` and ``longrope`` depend on ``seq_len``; ``None`` means "no longer than
        the trained context", as in transformers.
        """
        import torch
        dim, base, kind = self.rotary_dim, self.base, self.rope_type
        if kind == "default":
            return default_inv_freq(dim, base), 1.0
        if kind == "linear":
            inv = default_inv_freq(dim, base)
            inv /= self.factor
            return inv, 1.0
        if kind == "ntk":
            return default_inv_freq(dim, base * self.factor ** (dim / (dim - 2))), 1.0
        if kind == "dynamic":
            trained = self.original_max_position_embeddings
            length = trained if seq_len is None else max(int(seq_len), trained)
            grown = base * ((self.factor * length / trained) - (self.factor - 1)) ** (dim / (dim - 2))
            return default_inv_freq(dim, grown), 1.0
        if kind == "yarn":
            return _yarn_inv_freq(self), self.yarn_attention_factor()
        if kind == "llama3":
            return _llama3_inv_freq(self), 1.0
        if kind == "longrope":
            ext = torch.tensor(self.longrope_factors(seq_len), dtype=torch.float32)
            shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
            return 1.0 / (ext * base ** shape), self.longrope_attention_factor()
        raise ParameterError(f"unknown rope_type {kind!r}; choose one of {', '.join(ROPE_TYPES)}")

    def yarn_attention_factor(self) -> float:
        if self.attention_factor:
            return float(self.attention_factor)
        if self.mscale and self.mscale_all_dim:
            return float(_yarn_mscale(self.factor, self.mscale) / _yarn_mscale(self.factor, self.mscale_all_dim))
        return _yarn_mscale(self.factor)

    def longrope_attention_factor(self) -> float:
        if self.attention_factor:
            return float(self.attention_factor)
        if self.factor <= 1.0:
            return 1.0
        return math.sqrt(1 + math.log(self.factor) / math.log(self.original_max_position_embeddings))

    def yarn_ramp(self) -> tuple[float, float]:
        """(low, high): pairs below ``low`` keep their frequency, above ``high`` are divided by factor."""
        dim, base, length = self.rotary_dim, self.base, self.original_max_position_embeddings

        def pair_at(rotations: float) -> float:
            # the (fractional) pair index that turns `rotations` times within the original context
            return (dim * math.log(length / (rotations * 2 * math.pi))) / (2 * math.log(base))

        low, high = pair_at(self.beta_fast), pair_at(self.beta_slow)
        if self.truncate:
            low, high = math.floor(low), math.ceil(high)
        return max(low, 0), min(high, dim - 1)

    def cos_sin(self, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """cos and sin tables [len(positions), dim] in the half-split layout, attention factor applied.

        The sequence length (for dynamic and LongRoPE) is max(positions) + 1, as in transformers.
        """
        import torch
        positions = torch.as_tensor(positions)
        seq_len = int(positions.max()) + 1 if positions.numel() else 0
        inv, factor = self.inv_freq(seq_len)
        return cos_sin(positions, inv, factor)


def _factor_tuple(name: str, values: Any) -> tuple[float, ...]:
    if values is None:
        return ()
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ParameterError(f"LongRoPE {name} must be a list of numbers, not {values!r}")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise ParameterError(f"LongRoPE {name} must hold positive finite numbers; found {v!r}")
        out.append(float(v))
    return tuple(out)


def _yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def _yarn_inv_freq(spec: RopeSpec) -> torch.Tensor:
    import torch
    dim, base, factor = spec.rotary_dim, spec.base, spec.factor
    pos_freqs = base ** (torch.arange(0, dim, 2).to(dtype=torch.float) / dim)
    extrapolation = 1.0 / pos_freqs
    interpolation = 1.0 / (factor * pos_freqs)
    low, high = spec.yarn_ramp()
    if low == high:
        high += 0.001  # a zero-width ramp would divide by zero
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    keep = 1 - ramp  # share of the original (extrapolated) frequency each pair keeps
    return interpolation * (1 - keep) + extrapolation * keep


def _llama3_inv_freq(spec: RopeSpec) -> torch.Tensor:
    import torch
    inv = default_inv_freq(spec.rotary_dim, spec.base)
    factor, low_f, high_f = spec.factor, spec.low_freq_factor, spec.high_freq_factor
    length = spec.original_max_position_embeddings
    low_wavelen, high_wavelen = length / low_f, length / high_f
    wavelen = 2 * math.pi / inv
    scaled = torch.where(wavelen > low_wavelen, inv / factor, inv)
    middle = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
    if high_f == low_f:  # no band to blend over (Llama 4): only the wavelength exactly at the cut is "middle"
        return scaled
    smooth = (length / wavelen - low_f) / (high_f - low_f)
    blended = (1 - smooth) * scaled / factor + smooth * scaled
    return torch.where(middle, blended, scaled)


def default_inv_freq(dim: int, base: float = 10000.0) -> torch.Tensor:
    """θ_i = base^(−2i/dim), i = 0 … dim/2 − 1, computed as transformers does (int64 arange → float)."""
    import torch
    exponent = torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float32) / dim
    return 1.0 / (float(base) ** exponent)


def cos_sin(positions: torch.Tensor, inv_freq: torch.Tensor,
            attention_factor: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """Half-split cos/sin tables [len(positions), 2·len(inv_freq)], float32, times attention_factor.

    The transcendental functions run on the [n, dim/2] angles only, straight into the first
    half of each table, and that half is copied into the second: the same numbers as
    transformers' cos(cat(angles, angles)) (float32 angles, bit for bit) at half the work.  The
    tables are allocated by numpy, which asks for transparent huge pages (fewer page faults).
    """
    import torch
    freqs = positions.to(torch.float32).reshape(-1, 1) * inv_freq.to(torch.float32).reshape(1, -1)
    n, half = freqs.shape
    tables = []
    for fn in (torch.cos, torch.sin):
        out = torch.from_numpy(np.empty((n, 2 * half), dtype=np.float32))
        fn(freqs, out=out[:, :half])
        if attention_factor != 1.0:
            out[:, :half].mul_(attention_factor)
        out[:, half:] = out[:, :half]
        tables.append(out)
    return tables[0], tables[1]


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    import torch
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply(x: torch.Tensor, positions: torch.Tensor, inv_freq: torch.Tensor,
          layout: str = "half", attention_factor: float = 1.0) -> torch.Tensor:
    """Rotate x [..., seq, head_dim] by position; dimensions past 2·len(inv_freq) pass through.

    ``positions`` has shape [seq].  Works for q and k alike; norms are kept (times the
    attention factor, which is 1 for unscaled RoPE).
    """
    import torch
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
    import torch
    return (2 * np.pi / inv_freq.to(torch.float64)).numpy()


# ---- Hugging Face config.json ------------------------------------------------------------------
# Reading the file and its keys is peapp.checkpoints.hf_config's job (one reader for detection and
# for this family); here its neutral HfRope becomes a RopeSpec.

@dataclass(frozen=True)
class HfRopeReading:
    """What :func:`read_hf_config` understood: the spec plus what the user should know."""

    spec: RopeSpec
    layer_type: str | None = None  # the per-layer-type entry that was used, if the config has several
    other_layer_types: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


# Model types that encode position some other way: reading RoPE settings from them would mislead.
_NOT_ROPE = {
    "gpt2": "learned absolute positions", "bert": "learned absolute positions",
    "roberta": "learned absolute positions", "xlm-roberta": "learned absolute positions",
    "distilbert": "learned absolute positions", "albert": "learned absolute positions",
    "electra": "learned absolute positions", "opt": "learned absolute positions",
    "bart": "learned absolute positions", "mbart": "learned absolute positions",
    "whisper": "sinusoidal / learned absolute positions", "marian": "sinusoidal positions",
    "vit": "learned patch positions", "clip": "learned absolute positions", "siglip": "learned patch positions",
    "t5": "T5 relative-position buckets", "mt5": "T5 relative-position buckets",
    "deberta": "disentangled relative positions", "deberta-v2": "disentangled relative positions",
    "bloom": "ALiBi", "mpt": "ALiBi",
}


def read_hf_config(config: Mapping[str, Any], layer_type: str | None = None) -> HfRopeReading:
    """Read the RoPE settings of a Hugging Face ``config.json`` dict (see :meth:`RopeSpec.from_hf_config`)."""
    if not isinstance(config, Mapping):
        raise CheckpointError("config.json must hold a JSON object (a dict of settings) at the top level.")
    notes: list[str] = []
    if not any(k in config for k in hf_config.ROPE_KEYS):
        model_type = str(config.get("model_type", ""))
        if model_type in _NOT_ROPE:
            raise CheckpointError(f"config.json is a {model_type!r} model, which uses {_NOT_ROPE[model_type]}, "
                                  f"not RoPE; open it as a checkpoint to see its position scheme.")
        notes.append("config.json names no RoPE setting (rope_theta, rope_scaling, …): showing plain RoPE "
                     "with base 10000, the transformers default.")
    hf = hf_config.read_rope(config, layer_type)
    notes.extend(hf.notes)
    rope_type, source = hf.rope_type, hf.source
    if rope_type not in ROPE_TYPES or rope_type == "ntk":  # "ntk" is our name, not a config value
        supported = ", ".join(t for t in ROPE_TYPES if t != "ntk")
        raise CheckpointError(f"config.json: {source}.rope_type {hf.raw_type!r} is not supported; "
                              f"peapp reads {supported}.")
    if hf.head_dim is None:
        raise CheckpointError("config.json has no head_dim and no hidden_size + num_attention_heads to "
                              "derive it from; add \"head_dim\" to the file.")
    max_pos = hf.max_position_embeddings

    def need(key: str, **bounds: Any) -> float:
        value = hf_config.scaling_number(hf, key, **bounds)
        if value is None:
            raise CheckpointError(f"config.json: rope_type {rope_type!r} needs {source}.{key}, which is "
                                  f"missing; add it to the file.")
        return value

    values: dict[str, Any] = dict(head_dim=hf.head_dim, base=hf.rope_theta,
                                  partial_rotary_factor=hf.partial_rotary_factor, rope_type=rope_type)
    if hf.layout == "interleaved":  # GPT-J & co. rotate (2i, 2i+1) pairs
        values["layout"] = "interleaved"
    if rope_type in _ORIGINAL_LENGTH_TYPES:
        original = hf.original_max_position_embeddings
        if original is None:
            original = max_pos
            if original is not None:
                notes.append("no original_max_position_embeddings: the trained length is taken as "
                             "max_position_embeddings, as transformers does.")
        if original is None:
            raise CheckpointError(f"config.json: rope_type {rope_type!r} needs original_max_position_embeddings "
                                  f"(or max_position_embeddings); add it.")
        values["original_max_position_embeddings"] = original
        if max_pos is not None:
            values["max_position_embeddings"] = max_pos
    elif rope_type == "default":
        if max_pos is not None:
            values["original_max_position_embeddings"] = max_pos
    else:
        # linear / dynamic: the config's max_position_embeddings is the trained length.
        if max_pos is None and rope_type == "linear":
            # 4.x-era files often leave it to the class default; linear frequencies do not depend on it
            notes.append("no max_position_embeddings: the trained length is unknown (linear scaling's "
                         "frequencies do not depend on it); set Original context by hand.")
        elif max_pos is None:
            raise CheckpointError(f"config.json: rope_type {rope_type!r} needs max_position_embeddings; add it.")
        else:
            values["original_max_position_embeddings"] = max_pos

    positive = {"above": 0.0}
    if rope_type in ("linear", "dynamic", "llama3"):
        values["factor"] = need("factor", **positive)
    elif rope_type in ("yarn", "longrope"):
        factor = hf_config.scaling_number(hf, "factor", **positive)
        if factor is None:
            if max_pos is None:
                raise CheckpointError(f"config.json: rope_type {rope_type!r} needs {source}.factor or "
                                      f"max_position_embeddings to derive it; add one.")
            factor = max_pos / values["original_max_position_embeddings"]
            notes.append(translate("Encodings", "no factor given: derived as max_position_embeddings / original = "
                                   "{factor:g}, as transformers does.").format(factor=factor))
        values["factor"] = float(factor)
    if rope_type == "yarn":
        for key in ("beta_fast", "beta_slow", "mscale", "mscale_all_dim"):
            if hf.scaling.get(key):  # transformers treats 0/None as "use the default"
                values[key] = hf_config.scaling_number(hf, key)
        if hf.scaling.get("truncate") is not None:
            values["truncate"] = bool(hf.scaling["truncate"])
    if rope_type in ("yarn", "longrope") and hf.scaling.get("attention_factor") is not None:
        values["attention_factor"] = hf_config.scaling_number(hf, "attention_factor")
    if rope_type == "llama3":
        values["low_freq_factor"] = need("low_freq_factor", **positive)
        values["high_freq_factor"] = need("high_freq_factor", **positive)
    if rope_type == "longrope":
        for key in ("short_factor", "long_factor"):
            if hf.scaling.get(key) is None:
                raise CheckpointError(f"config.json: rope_type 'longrope' needs {source}.{key}, which is "
                                      f"missing; add it to the file.")
            values[key] = hf.scaling[key]

    extended = values.get("max_position_embeddings") or values.get("original_max_position_embeddings")
    if extended is not None:
        values["n_positions"] = min(int(extended), _MAX_POSITIONS)
    try:
        spec = RopeSpec.from_dict(values)
    except ParameterError as exc:
        raise ParameterError(f"config.json: {exc}") from None
    warning = context_mismatch(spec)
    if warning:
        notes.append(warning)
    return HfRopeReading(spec=spec, layer_type=hf.layer_type, other_layer_types=hf.other_layer_types,
                         notes=tuple(notes))


def context_mismatch(spec: RopeSpec) -> str | None:
    """A warning when the explicit factor and max/original lengths disagree (else None)."""
    if spec.rope_type in ("default", "dynamic", "linear", "ntk") or not spec.max_position_embeddings:
        return None
    implied = spec.max_position_embeddings / spec.original_max_position_embeddings
    if implied == 1 or math.isclose(implied, spec.factor, rel_tol=1e-9):
        return None
    return translate("Encodings", "factor {factor:g} disagrees with max_position_embeddings / original = "
                     "{extended:,} / {original:,} = {implied:g}; the frequencies use the explicit factor, as "
                     "transformers does.").format(factor=spec.factor, extended=spec.max_position_embeddings,
                                                  original=spec.original_max_position_embeddings, implied=implied)


def from_hf_config(config: Mapping[str, Any], layer_type: str | None = None) -> RopeSpec:
    return read_hf_config(config, layer_type).spec


def spec_from_config_file(path: str | os.PathLike, layer_type: str | None = None) -> RopeSpec:
    """The RoPE spec of a ``config.json`` file (or a model folder holding one).

    Raises CheckpointError (unreadable, not a regular file, too large, not JSON, missing or
    unsupported keys) or ParameterError (a value out of range) with a message that says what to fix.
    """
    return read_config_file(path, layer_type).spec


def read_config_file(path: str | os.PathLike, layer_type: str | None = None) -> HfRopeReading:
    """Like :func:`spec_from_config_file`, with the notes and layer types the reading found."""
    config = hf_config.read_config_file(path)
    if not any(k in config for k in (
            "rope_theta", "rope_scaling", "rope_parameters", "head_dim", "num_attention_heads", "n_head")):
        name = os.path.basename(os.path.join(os.fspath(path), "config.json") if os.path.isdir(path) else path)
        raise CheckpointError(f"{name} has no RoPE or attention settings "
                              f"(rope_theta, rope_scaling, rope_parameters, num_attention_heads); "
                              f"is it a model's config.json?")
    return read_hf_config(config, layer_type)


def rope_family_values(params: Mapping[str, Any], config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Values for this family's spec from a checkpoint's ``rope`` component (see peapp.checkpoints.detect).

    With the model's config, the family reads it itself (it knows every scaling variant);
    otherwise (GGUF metadata, a saved inv_freq buffer) the fields the component has are used.
    Only fields the spec declares are returned, and never ``n_positions`` (how much of the table
    to show is the view's choice), so the result fits the current family.
    """
    fields = {f.name for f in dataclasses.fields(RopeSpec)} - {"n_positions"}
    section = params.get("config_section")
    if config and section and isinstance(config.get(section), Mapping):
        config = config[section]
    if config:
        kwargs = {"layer_type": params["layer_type"]} if params.get("layer_type") else {}
        values = {k: v for k, v in read_hf_config(dict(config), **kwargs).spec.to_dict().items() if k in fields}
        # the pair layout depends on the model's code, not on config keys: detection knows model_type
        if params.get("layout") in LAYOUTS:
            values["layout"] = params["layout"]
        return values
    scaling = params.get("scaling") or {}
    if params.get("freq_factors"):
        # GGUF rope_freqs.weight: θ_i / factor_i at every length — LongRoPE's arithmetic with the same
        # factors short and long and no attention factor
        factors = tuple(float(f) for f in params["freq_factors"])
        values = {"head_dim": params.get("head_dim"), "base": params.get("rope_theta"),
                  "partial_rotary_factor": params.get("partial_rotary_factor"),
                  "layout": params.get("layout") if params.get("layout") in LAYOUTS else None,
                  "rope_type": "longrope", "factor": 1.0, "short_factor": factors, "long_factor": factors,
                  "attention_factor": 1.0,
                  "original_max_position_embeddings": params.get("max_position_embeddings")}
        return {k: v for k, v in values.items() if v is not None and k in fields}
    values = {
        "head_dim": params.get("head_dim"), "base": params.get("rope_theta"),
        "partial_rotary_factor": params.get("partial_rotary_factor"),
        "layout": params.get("layout") if params.get("layout") in LAYOUTS else None,
        "rope_type": params.get("rope_type"), "factor": scaling.get("factor"),
        "original_max_position_embeddings": params.get("original_max_position_embeddings"),
        "max_position_embeddings": params.get("max_position_embeddings"),
    }
    if params.get("rope_type") in (None, "default") and values["original_max_position_embeddings"] is None \
            and values["max_position_embeddings"]:
        # unscaled (e.g. a GGUF's context_length): the model's context is the one it was trained at,
        # and nothing extends it: read as the HF config path reads it
        values["original_max_position_embeddings"] = values["max_position_embeddings"]
        values["max_position_embeddings"] = 0
    choices = {i.name: i.choices for i in RopeSpec.param_infos()}
    return {k: v for k, v in values.items()
            if v is not None and k in fields and (not choices.get(k) or v in choices[k])}


# ---- the heatmap family -----------------------------------------------------------------------

def _rows_at(spec: RopeSpec, positions: torch.Tensor) -> torch.Tensor:
    # [cos θ_0 … cos θ_{dim/2−1} | sin θ_0 … sin θ_{dim/2−1}]: one column per pair in each half.
    import torch
    inv, factor = spec.inv_freq(spec.n_positions)
    cos, sin = cos_sin(positions, inv, factor)
    half = inv.shape[0]
    return torch.cat((cos[:, :half], sin[:, :half]), dim=-1)


def _caption(spec: RopeSpec) -> str:
    inv, attn = spec.inv_freq(spec.n_positions)
    w = wavelengths(inv)
    part = "" if spec.rotary_dim == spec.head_dim else translate(
        "Encodings", " (only {rotary} of {dim} dims rotate)").format(rotary=spec.rotary_dim, dim=spec.head_dim)
    scaling = ""
    if spec.rope_type != "default":
        scaling = translate("Encodings", ", {kind} scaling ×{factor:g}").format(
            kind=shown(_ROPE_TYPE_LABELS[spec.rope_type]), factor=spec.factor)
        if attn != 1.0:
            scaling += translate("Encodings", " (cos/sin × attention factor {factor:.4g})").format(factor=attn)
    return translate("Encodings", "RoPE cos | sin tables: {n:,} positions × {pairs} pairs each{part}, base "
                     "{base:g}{scaling}. Pair i turns by θ_i per position: from one turn every {fastest:.1f} "
                     "positions (left) to one every {slowest:,.0f} (right). Nothing is added to the embedding; "
                     "q and k are rotated inside attention.").format(
        n=spec.n_positions, pairs=spec.rotary_dim // 2, part=part, base=spec.base, scaling=scaling,
        fastest=w[0], slowest=w[-1])


FAMILY = Family(
    name="rope",
    label=msg("Encodings", "RoPE (rotary)"),
    spec=RopeSpec,
    summary=msg("Encodings", "Rotates q/k pairs by position; q·k depends only on the distance m − n. "
                "Scaling variants stretch the context (PI, NTK, YaRN, Llama-3, LongRoPE)."),
    rows=lambda s: s.n_positions,
    cols=lambda s: s.rotary_dim,
    rows_at=_rows_at,
    caption=_caption,
    col_axis=msg("Encodings", "cos pairs | sin pairs"),
    column_wavelengths=lambda s: np.tile(wavelengths(s.inv_freq(s.n_positions)[0]), 2),
    order=30,
)


def _pooled(spec: RopeSpec, starts: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
    import torch
    from peapp.encodings.sinusoidal import pooled_sin_cos

    inv, factor = spec.inv_freq(spec.n_positions)
    sin, cos = pooled_sin_cos(starts, counts, inv)
    return torch.cat((cos, sin), dim=-1) * factor


def _column_at(spec: RopeSpec, positions: torch.Tensor, column: int) -> torch.Tensor:
    """Column ``column`` of the [cos | sin] table at ``positions``: one pair's angle only."""
    inv, factor = spec.inv_freq(spec.n_positions)
    half = inv.shape[0]
    pair = column % half
    cos, sin = cos_sin(positions, inv[pair:pair + 1], factor)
    return (cos if column < half else sin)[:, 0]


def _column_name(spec: RopeSpec, column: int) -> str:
    half = spec.rotary_dim // 2
    if column < half:
        return translate("Encodings", "cos of pair {pair:,}").format(pair=column % half)
    return translate("Encodings", "sin of pair {pair:,}").format(pair=column % half)


FAMILY = dataclasses.replace(
    FAMILY, pooled_rows_at=_pooled, column_at=_column_at, column_name_of=_column_name,
    row_title_of=lambda s, p: translate("Encodings", "position {n:,}: cos and sin of every pair's angle").format(n=p))
