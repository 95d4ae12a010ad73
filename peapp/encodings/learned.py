"""Learned absolute positions: a [max_positions, d] table trained with the model.

Here the table is either given (a tensor from a checkpoint) or a seeded random init with the
std GPT-2 and BERT use (0.02).  The defining limitation is that row ``max_positions`` does not
exist: looking it up is an error, never a silent clamp (the seed's 2,048 → 2,049 example).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from peapp.encodings.base import Family
from peapp.errors import ParameterError, PositionOutOfRangeError
from peapp.memory import ensure_fits
from peapp.params import Spec, param


@dataclass(frozen=True)
class LearnedSpec(Spec):
    family = "learned"
    n_positions: int = param(50, "Positions", minimum=1, maximum=131_072, step=1,
                             help="How many positions (rows) to show; must not exceed the table.")
    max_positions: int = param(2048, "Table rows", minimum=1, maximum=131_072, step=1,
                               help="Rows in the learned table: the longest input the model can read.")
    d_model: int = param(128, "d_model", minimum=1, maximum=4096, step=1,
                         help="Embedding width.")
    seed: int = param(0, "Seed", minimum=0, maximum=2**31 - 1, step=1,
                      help="Seed of the random initialisation (std 0.02, as GPT-2/BERT).")

    def check(self) -> None:
        if self.n_positions > self.max_positions:
            raise ParameterError(
                f"position {self.max_positions:,} does not exist: the learned table has "
                f"{self.max_positions:,} rows (positions 0–{self.max_positions - 1:,}). Show at most "
                f"{self.max_positions:,} positions, or use an encoding that extrapolates (RoPE, ALiBi).")


class LearnedTable:
    """A learned position table with bounds-checked lookup."""

    def __init__(self, weight: torch.Tensor, *, offset: int = 0, name: str = "learned table"):
        if weight.ndim != 2:
            raise ParameterError(f"a learned table must be 2-D [positions, dim]; got shape {tuple(weight.shape)}")
        self.weight = weight
        self.offset = offset  # RoBERTa (padding_idx + 1 = 2) and OPT/BART (2) start positions here
        self.name = name

    @classmethod
    def random(cls, max_positions: int, d_model: int, seed: int = 0, std: float = 0.02) -> "LearnedTable":
        ensure_fits((max_positions, d_model), 4, what="a learned table",
                    suggestion="use fewer rows or a smaller d_model")
        gen = torch.Generator().manual_seed(int(seed))
        return cls(torch.randn(max_positions, d_model, generator=gen) * std, name="random init")

    @property
    def max_positions(self) -> int:
        return self.weight.shape[0] - self.offset

    def lookup(self, positions: torch.Tensor) -> torch.Tensor:
        positions = torch.as_tensor(positions, dtype=torch.long)
        if positions.numel() and (int(positions.min()) < 0 or int(positions.max()) >= self.max_positions):
            bad = int(positions.max()) if int(positions.max()) >= self.max_positions else int(positions.min())
            raise PositionOutOfRangeError(
                f"position {bad:,} does not exist in the {self.name}: it has {self.max_positions:,} "
                f"positions (0–{self.max_positions - 1:,}), so a sequence of {bad + 1:,} tokens cannot be "
                f"encoded. Truncate the input, or use an encoding that extrapolates (RoPE, ALiBi).")
        return self.weight[positions + self.offset].to(torch.float32)


_cache: dict[tuple, LearnedTable] = {}


def _table_for(spec: LearnedSpec) -> LearnedTable:
    key = (spec.max_positions, spec.d_model, spec.seed)
    if key not in _cache:
        _cache.clear()  # one table at a time: they can be large
        _cache[key] = LearnedTable.random(spec.max_positions, spec.d_model, spec.seed)
    return _cache[key]


FAMILY = Family(
    name="learned",
    label="Learned absolute",
    spec=LearnedSpec,
    summary="A trained [max_positions, d] table; positions past its end do not exist.",
    rows=lambda s: s.n_positions,
    cols=lambda s: s.d_model,
    rows_at=lambda s, pos: _table_for(s).lookup(pos),
    caption=lambda s: (f"Learned absolute table ({_table_for(s).name}, seed {s.seed}): {s.n_positions:,} of "
                       f"{s.max_positions:,} rows × {s.d_model} dims. Untrained rows are noise with no "
                       f"structure; position {s.max_positions:,} does not exist."),
    order=20,
)
