"""One small transformer whose position scheme is a parameter.

Every model is identical except for how it encodes position, and each scheme calls the
project's own functions — the ones the panels draw — rather than a second copy:

* ``nope`` — nothing (order only from the causal mask);
* ``sinusoidal`` — :func:`peapp.encodings.sinusoidal.table` added to the token embeddings;
* ``learned`` — a trained table read through :class:`peapp.encodings.learned.LearnedTable`,
  whose bounds check makes a position past the table an error, never a silent clamp;
* ``t5`` — one learned bias per (bucket, head), buckets from
  :func:`peapp.encodings.relative.t5_bias` (causal), shared by all layers as in T5;
* ``rope`` — q and k rotated by :func:`peapp.encodings.rope.apply` with frequencies from
  :meth:`peapp.encodings.rope.RopeSpec.inv_freq`, which also gives position interpolation
  (``linear``), NTK-aware (``ntk``) and YaRN frequencies for evaluation without retraining;
* ``alibi`` — :func:`peapp.encodings.alibi.bias` added to the attention logits;
* ``nope-temp`` — NoPE whose query at position p is multiplied by Llama 4's temperature
  :func:`peapp.encodings.nope.temperature_scale` (``attn_scale`` 0.1 as Llama 4; ``floor_scale``
  a quarter of the training positions here, where Llama 4 uses 8,192 for contexts of 256k);
* ``nope-logn`` — NoPE with Scalable-Softmax (Nakanishi 2025): query i's logits multiplied by
  s_h · log(i + 1) (:func:`peapp.encodings.nope.log_n_scale`, i + 1 keys seen), s learned per head.

``randomized_max`` > 0 gives Ruoss et al. 2023's randomised positions to any scheme: every
forward pass draws its positions as a sorted random subset of 0 … randomized_max − 1 (one subset
per batch), in training and in evaluation, so positions past the training length have been seen.

Pre-LayerNorm blocks, no dropout, untied output layer; logits are scaled by 1/√head_dim for
every scheme (T5 itself does not scale; here the schemes differ in position only).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

from peapp.encodings import alibi, nope, relative, rope, sinusoidal
from peapp.encodings.learned import LearnedTable
from peapp.errors import ParameterError, PositionOutOfRangeError
# the names live with the torch-free choices: the panel and --help read them without torch
from peapp.lab.options import ENCODINGS, EXTRA_ENCODINGS, LABELS, ROPE_SCALINGS  # noqa: F401  (re-exported)


@dataclass(frozen=True)
class ModelConfig:
    encoding: str
    vocab_size: int
    max_positions: int  # positions seen in training: the learned table's rows, RoPE's "original" length
    n_layers: int = 2
    d_model: int = 64
    n_heads: int = 4
    d_ff: int = 256
    causal: bool = True
    rope_base: float = 10000.0
    sinusoidal_base: float = 10000.0
    t5_buckets: int = 32
    t5_max_distance: int = 128
    randomized_max: int = 0  # > 0: Ruoss et al.'s randomised positions drawn from 0 … this − 1
    temperature_attn_scale: float = 0.1  # nope-temp: Llama 4's attn_scale
    temperature_floor_scale: int = 0  # nope-temp: Llama 4's floor_scale; 0: max(1, max_positions // 4)

    def __post_init__(self) -> None:
        if self.encoding not in ENCODINGS + EXTRA_ENCODINGS:
            raise ParameterError(f"unknown position encoding {self.encoding!r}; choose one of "
                                 f"{', '.join(ENCODINGS + EXTRA_ENCODINGS)}.")
        if self.randomized_max and self.randomized_max < self.max_positions:
            raise ParameterError(f"randomised positions must be drawn from at least the {self.max_positions} "
                                 f"training positions (got {self.randomized_max}).")
        if self.d_model % self.n_heads:
            raise ParameterError(f"d_model {self.d_model} is not divisible by {self.n_heads} heads; "
                                 f"choose a d_model that is a multiple of the head count.")
        if self.head_dim % 2:
            raise ParameterError(f"head width {self.head_dim} (d_model / heads) must be even for RoPE and "
                                 f"sinusoids; change d_model or the head count.")
        for name in ("vocab_size", "max_positions", "n_layers", "d_model", "n_heads", "d_ff"):
            if getattr(self, name) < 1:
                raise ParameterError(f"{name} must be at least 1 (got {getattr(self, name)}).")

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads

    @property
    def floor_scale(self) -> int:
        return self.temperature_floor_scale or max(1, self.max_positions // 4)

    @property
    def position_rows(self) -> int:
        """Positions a learned table holds: the training positions, or the randomised range."""
        return self.randomized_max or self.max_positions

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> ModelConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise ParameterError(f"unknown model settings {', '.join(sorted(unknown))}.")
        return cls(**values)

    def rope_spec(self, scaling: str | None = None, seq_len: int | None = None) -> rope.RopeSpec:
        """The RopeSpec of this model, optionally with an evaluation-time scaling for ``seq_len``.

        The factor is seq_len / trained positions (at least 1): PI, NTK and YaRN stretch the
        trained range exactly over the evaluated one.
        """
        spec = rope.RopeSpec(head_dim=self.head_dim, base=self.rope_base, n_positions=max(seq_len or 1, 1),
                             original_max_position_embeddings=self.max_positions)
        if scaling is None:
            return spec
        if scaling not in ROPE_SCALINGS:
            raise ParameterError(f"unknown RoPE scaling {scaling!r}; choose one of {', '.join(ROPE_SCALINGS)}.")
        factor = max(1.0, (seq_len or self.max_positions) / self.max_positions)
        return spec.replace(rope_type=ROPE_SCALINGS[scaling], factor=factor)


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.ln_attn = nn.LayerNorm(cfg.d_model)
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.out = nn.Linear(cfg.d_model, cfg.d_model)
        self.ln_mlp = nn.LayerNorm(cfg.d_model)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, cfg.d_ff), nn.GELU(), nn.Linear(cfg.d_ff, cfg.d_model))

    def forward(self, x: torch.Tensor, positions: torch.Tensor, bias: torch.Tensor,
                rotary: tuple[torch.Tensor, float] | None, keep: list | None,
                row_scale: torch.Tensor | None = None) -> torch.Tensor:
        b, t, _ = x.shape
        h, hd = self.cfg.n_heads, self.cfg.head_dim
        q, k, v = self.qkv(self.ln_attn(x)).reshape(b, t, 3, h, hd).permute(2, 0, 3, 1, 4)
        if rotary is not None:
            inv_freq, factor = rotary
            q = rope.apply(q, positions, inv_freq, attention_factor=factor)
            k = rope.apply(k, positions, inv_freq, attention_factor=factor)
        scores = q @ k.transpose(-1, -2) / math.sqrt(hd)  # [b, h, t, t]
        if row_scale is not None:  # a temperature per query row ([t] or [h, t])
            scores = scores * row_scale.reshape(1, -1 if row_scale.ndim == 2 else 1, t, 1)
        scores = scores + bias
        weights = scores.softmax(dim=-1)
        if keep is not None:
            keep.append((scores.detach(), weights.detach()))
        mixed = (weights @ v).transpose(1, 2).reshape(b, t, self.cfg.d_model)
        x = x + self.out(mixed)
        return x + self.mlp(self.ln_mlp(x))


class LabModel(nn.Module):
    """A decoder (or, with ``causal=False``, an encoder) with a pluggable position scheme."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.token_embedding = nn.Embedding(cfg.vocab_size, cfg.d_model)
        if cfg.encoding == "learned":
            self.wpe = nn.Embedding(cfg.position_rows, cfg.d_model)  # GPT-2's name: checkpoint readers know it
        if cfg.encoding == "nope-logn":  # s per head, so that s·log n is 1 at the training length
            self.logn_scale = nn.Parameter(torch.full((cfg.n_heads,), 1.0 / math.log(max(2, cfg.max_positions))))
        if cfg.encoding == "t5":
            self.relative_attention_bias = nn.Embedding(cfg.t5_buckets, cfg.n_heads)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.ln_final = nn.LayerNorm(cfg.d_model)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size)

    def longest_input(self) -> int | None:
        """The most positions this model can read (None: any number)."""
        return self.cfg.position_rows if self.cfg.encoding == "learned" else None

    def attention_bias(self, t: int, offset: int = 0, positions: torch.Tensor | None = None) -> torch.Tensor:
        """What is added to every layer's logits [heads or 1, t, t]: position bias and mask.
        ``positions``: randomised positions (ALiBi and T5 then take their distances)."""
        cfg = self.cfg
        if positions is not None and cfg.encoding in ("alibi", "t5"):
            distance = positions.reshape(1, -1) - positions.reshape(-1, 1)  # key − query [t, t]
            future = torch.ones(t, t, dtype=torch.bool).triu(1) if cfg.causal else torch.zeros(t, t, dtype=torch.bool)
            if cfg.encoding == "alibi":
                out = -alibi.slopes(cfg.n_heads).reshape(-1, 1, 1) * distance.abs().to(torch.float32)
            else:
                buckets = relative.t5_bucket(distance, bidirectional=not cfg.causal, num_buckets=cfg.t5_buckets,
                                             max_distance=cfg.t5_max_distance)
                out = self.relative_attention_bias.weight[buckets].permute(2, 0, 1)
            return out.masked_fill(future.unsqueeze(0), float("-inf"))
        if cfg.encoding == "alibi":  # the mask (−inf for future keys) is part of alibi.bias
            return alibi.bias(cfg.n_heads, t, causal=cfg.causal)
        mask = torch.zeros(1, t, t)
        if cfg.causal:
            mask = mask.masked_fill(torch.ones(t, t, dtype=torch.bool).triu(1), float("-inf"))
        if cfg.encoding == "t5":
            # key − query, causal buckets; shifting all positions does not change them
            table = self.relative_attention_bias.weight
            mask = mask + relative.t5_bias(table, t, t, bidirectional=not cfg.causal,
                                           max_distance=cfg.t5_max_distance)
        return mask

    def forward(self, tokens: torch.Tensor, offset: int = 0, rope_scaling: str | None = None,
                keep_attention: list | None = None, positions: torch.Tensor | None = None) -> torch.Tensor:
        """Logits [B, T, vocab] for ``tokens`` [B, T] at positions offset … offset + T − 1.

        ``rope_scaling`` (pi / ntk / yarn): RoPE frequencies stretched from the trained length to
        offset + T.  ``keep_attention``: a list that receives (scores, weights) per layer.
        Raises PositionOutOfRangeError when a learned table has no row for a position.
        """
        cfg = self.cfg
        t = tokens.shape[1]
        drawn = None
        if positions is None and cfg.randomized_max:
            if t > cfg.randomized_max:
                raise PositionOutOfRangeError(f"{t} positions do not fit in the {cfg.randomized_max} randomised "
                                              f"positions this model was trained with.")
            drawn = positions = torch.randperm(cfg.randomized_max)[:t].sort().values
        elif positions is not None:
            drawn = positions
        if positions is None:
            positions = torch.arange(offset, offset + t)
        x = self.token_embedding(tokens)
        if cfg.encoding == "learned":
            table = LearnedTable(self.wpe.weight, name="lab model's learned table")
            x = x + table.lookup(positions)
        elif cfg.encoding == "sinusoidal":
            x = x + sinusoidal.rows(positions, cfg.d_model, cfg.sinusoidal_base)
        rotary = None
        if cfg.encoding == "rope":
            inv_freq, factor = cfg.rope_spec(rope_scaling, offset + t).inv_freq(offset + t)
            rotary = (inv_freq, factor)
        elif rope_scaling is not None:
            raise ParameterError(f"RoPE scaling {rope_scaling!r} applies to RoPE models only, not {cfg.encoding}.")
        bias = self.attention_bias(t, offset, drawn)
        row_scale = None
        if cfg.encoding == "nope-temp":
            row_scale = nope.temperature_scale(positions, cfg.temperature_attn_scale, cfg.floor_scale)
        elif cfg.encoding == "nope-logn":  # keys seen by query i: i + 1
            row_scale = self.logn_scale.reshape(-1, 1) * nope.log_n_scale(torch.arange(1, t + 1)).reshape(1, -1)
        for block in self.blocks:
            x = block(x, positions, bias, rotary, keep_attention, row_scale)
        return self.lm_head(self.ln_final(x))


def check_fits(model: LabModel, positions: int) -> str | None:
    """None if the model can read ``positions`` positions, else the reason it cannot."""
    longest = model.longest_input()
    if longest is not None and positions > longest:
        try:
            LearnedTable(model.wpe.weight, name="learned table").lookup(torch.tensor([positions - 1]))
        except PositionOutOfRangeError as exc:
            return str(exc)
    return None


def loss_of(model: LabModel, inputs: torch.Tensor, targets: torch.Tensor, **kwargs: Any) -> torch.Tensor:
    logits = model(inputs, **kwargs)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
