"""Learned absolute positions: a [max_positions, d] table trained with the model.

Here the table is either a tensor from a checkpoint (``source`` = ``"PATH::TENSOR"``, set by the
checkpoint dock, rows before position 0 skipped by ``offset``) or a seeded random init with the
std GPT-2 and BERT use (0.02).  The defining limitation is that row ``max_positions`` does not
exist: looking it up is an error, never a silent clamp (the seed's 2,048 → 2,049 example).
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from peapp.i18n import msg, shown, translate
from peapp.encodings.base import Family
from peapp.errors import ParameterError, PositionOutOfRangeError
from peapp.memory import ensure_fits
from peapp.params import Spec, param

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch


@dataclass(frozen=True)
class LearnedSpec(Spec):
    family = "learned"
    n_positions: int = param(50, msg("Params", "Positions"), minimum=1, maximum=131_072, step=1,
                             help=msg("Params", "How many positions (rows) to show; must not exceed the table."))
    max_positions: int = param(2048, msg("Params", "Table rows"), minimum=1, maximum=131_072, step=1,
                               help=msg("Params", "Rows in the learned table: the longest input the model can read."))
    d_model: int = param(128, "d_model", minimum=1, maximum=16384, step=1,
                         help=msg("Params", "Embedding width."))
    seed: int = param(0, msg("Params", "Seed"), minimum=0, maximum=2**31 - 1, step=1,
                      help=msg("Params", "Seed of the random initialisation (std 0.02, as GPT-2/BERT)."))
    source: str = param("", msg("Params", "Checkpoint table"),
                        help=msg("Params", "Empty: a random initialisation. Otherwise PATH::TENSOR of a checkpoint's "
                             "table; choose one in the Checkpoint panel."), readonly=True)
    offset: int = param(0, msg("Params", "Row offset"), minimum=0, maximum=64, step=1,
                        help=msg("Params", "Table rows before position 0: 2 for RoBERTa (padding_idx + 1) and OPT/BART; "
                             "the prefix tokens (CLS …) of a vision table."))

    def check(self) -> None:
        if self.n_positions > self.max_positions:
            raise ParameterError(translate(
                "Encodings", "position {n:,} does not exist: the learned table has {n:,} rows (positions 0–{last:,}). "
                "Show at most {n:,} positions, or use an encoding that extrapolates (RoPE, ALiBi).").format(
                n=self.max_positions, last=self.max_positions - 1))


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
        import torch
        ensure_fits((max_positions, d_model), 4, what="a learned table",
                    suggestion="use fewer rows or a smaller d_model")
        gen = torch.Generator().manual_seed(int(seed))
        # scaled in place: `randn(...) * std` held two tables at once (a 4 GiB table peaked at 8.6 GB)
        return cls(torch.randn(max_positions, d_model, generator=gen).mul_(std), name=msg("Encodings", "random init"))

    @property
    def max_positions(self) -> int:
        return self.weight.shape[0] - self.offset

    def lookup(self, positions: torch.Tensor) -> torch.Tensor:
        import torch
        positions = self._checked(positions)
        return self.weight[positions + self.offset].to(torch.float32)

    def lookup_column(self, positions: torch.Tensor, column: int) -> torch.Tensor:
        """Column ``column`` of ``lookup(positions)``, without gathering whole rows."""
        import torch
        positions = self._checked(positions)
        return self.weight[:, column][positions + self.offset].to(torch.float32)

    def pooled(self, starts: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
        """Means of the rows of each bin [start, start + count) (bins contiguous and in order),
        read straight from the table in one pass: a sparse 0/1 pooling matrix times the rows.
        float32 sums, accurate to count·2^−24 of the largest |value| (tested against float64)."""
        import torch
        if not len(starts):
            return torch.zeros(0, self.weight.shape[1])
        first, last = int(starts[0]), int(starts[-1] + counts[-1]) - 1
        self._checked(torch.tensor([first, last]))
        rows = self.weight[first + self.offset:last + 1 + self.offset].to(torch.float32)
        n = last + 1 - first
        row_offsets = torch.cat((starts - first, (starts[-1:] + counts[-1:] - first))).to(torch.long)
        with warnings.catch_warnings():  # "sparse CSR support is in beta": matmul is all it does here
            warnings.simplefilter("ignore", UserWarning)
            pool = torch.sparse_csr_tensor(row_offsets, torch.arange(n), torch.ones(n), size=(len(starts), n),
                                           check_invariants=False)
            sums = pool @ rows
        return sums / counts.to(torch.float32).reshape(-1, 1)

    def _checked(self, positions: torch.Tensor) -> torch.Tensor:
        import torch
        positions = torch.as_tensor(positions, dtype=torch.long)
        if positions.numel() and (int(positions.min()) < 0 or int(positions.max()) >= self.max_positions):
            bad = int(positions.max()) if int(positions.max()) >= self.max_positions else int(positions.min())
            raise PositionOutOfRangeError(translate(
                "Encodings", "position {bad:,} does not exist in the {table}: it has {n:,} positions (0–{last:,}), "
                "so a sequence of {length:,} tokens cannot be encoded. Truncate the input, or use an encoding that "
                "extrapolates (RoPE, ALiBi).").format(bad=bad, table=shown(self.name), n=self.max_positions,
                                                      last=self.max_positions - 1, length=bad + 1))
        return positions


# Recently used tables, most recent last, within a byte budget: the heatmap asks for a table
# chunk by chunk and the other panels share it (the same seed gives the same numbers
# everywhere), while two panels on two different tables must not re-read them in turn.
_cache: OrderedDict[tuple, LearnedTable] = OrderedDict()
CACHE_BYTES = 512 * 2**20


def table_for(spec: LearnedSpec) -> LearnedTable:
    """The table ``spec`` describes: a checkpoint's (``source``) or the seeded random init."""
    key = (spec.source, spec.offset) if spec.source else (spec.max_positions, spec.d_model, spec.seed)
    table = _cache.get(key)
    if table is None:
        # Make room first: evicting only after building held the previous (possibly huge) table
        # and the new one at once.
        need = 0 if spec.source else spec.max_positions * spec.d_model * 4
        while _cache and sum(_nbytes(t) for t in _cache.values()) + need > CACHE_BYTES:
            _cache.popitem(last=False)
        table = checkpoint_table(spec.source, spec.offset) if spec.source else \
            LearnedTable.random(spec.max_positions, spec.d_model, spec.seed)
        _cache[key] = table
        while len(_cache) > 1 and sum(_nbytes(t) for t in _cache.values()) > CACHE_BYTES:
            _cache.popitem(last=False)  # the least recently used goes first; the newest always stays
    _cache.move_to_end(key)
    if spec.source and (table.max_positions, table.weight.shape[1]) != (spec.max_positions, spec.d_model):
        raise ParameterError(
            f"{table.name} has {table.max_positions:,} positions × {table.weight.shape[1]} dims after an offset "
            f"of {spec.offset}, but the parameters say {spec.max_positions:,} × {spec.d_model}; choose the "
            f"table again in the Checkpoint panel.")
    return table


def _nbytes(table: LearnedTable) -> int:
    return table.weight.numel() * table.weight.element_size()


def checkpoint_table(source: str, offset: int = 0) -> LearnedTable:
    """The table ``"PATH::TENSOR"`` of a checkpoint, read on demand (vision [1, N, d] → [N, d])."""
    import torch
    from peapp.checkpoints import open_cached

    path, sep, tensor = source.rpartition("::")
    if not sep or not path or not tensor:
        raise ParameterError(f"checkpoint table must be given as PATH::TENSOR; got {source!r}")
    weight = open_cached(path).load(tensor)
    if weight.ndim == 3 and weight.shape[0] == 1:
        weight = weight[0]
    if weight.ndim != 2 or weight.shape[0] <= offset:
        raise ParameterError(f"{tensor} has shape {tuple(weight.shape)}; a learned table is [positions, dim] "
                             f"with more than {offset} rows.")
    return LearnedTable(weight.to(torch.float32), offset=offset, name=f"table {tensor}")


def _caption(s: LearnedSpec) -> str:
    if s.source:
        path = s.source.rpartition("::")[0]
        skipped = translate("Encodings", ", first {n} row(s) skipped").format(n=s.offset) if s.offset else ""
        return translate("Encodings", "Trained learned table {tensor} of {file}: {n:,} of {total:,} positions × "
                         "{d} dims{skipped}. Position {total:,} does not exist.").format(
            tensor=s.source.rpartition("::")[2], file=path.rsplit("/", 1)[-1], n=s.n_positions,
            total=s.max_positions, d=s.d_model, skipped=skipped)
    return translate("Encodings", "Learned absolute table ({name}, seed {seed}): {n:,} of {total:,} rows × {d} "
                     "dims. Untrained rows are noise with no structure; position {total:,} does not "
                     "exist.").format(name=shown(table_for(s).name), seed=s.seed, n=s.n_positions, total=s.max_positions,
                                      d=s.d_model)


FAMILY = Family(
    name="learned",
    label=msg("Encodings", "Learned absolute"),
    spec=LearnedSpec,
    summary=msg("Encodings", "A trained [max_positions, d] table; positions past its end do not exist."),
    rows=lambda s: s.n_positions,
    cols=lambda s: s.d_model,
    rows_at=lambda s, pos: table_for(s).lookup(pos),
    column_at=lambda s, pos, column: table_for(s).lookup_column(pos, column),
    pooled_rows_at=lambda s, starts, counts: table_for(s).pooled(starts, counts),
    caption=lambda s: _caption(s),
    order=20,
)
