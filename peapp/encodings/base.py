"""What every encoding family provides to the views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Generic, TypeVar

import numpy as np

from peapp.i18n import msg, shown, translate
from peapp.params import Spec

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

#: the names of the tables' axes in the plural ("across dimensions"), by their singular
_AXIS_PLURALS = {"position": msg("Encodings", "positions"), "dimension": msg("Encodings", "dimensions"),
                 "query position": msg("Encodings", "query positions"),
                 "key position": msg("Encodings", "key positions")}


def axis_plural(axis: str) -> str:
    """An axis name in the plural, in the current language ("positions" for "position")."""
    plural = _AXIS_PLURALS.get(str(axis))
    return shown(plural) if plural is not None else shown(axis)


S = TypeVar("S", bound=Spec)


@dataclass(frozen=True)
class Family(Generic[S]):
    """A family as the app sees it.

    The heatmap view is a table of ``rows(spec) × cols(spec)``; ``rows_at(spec, positions)``
    computes any subset of its rows (the heatmap asks for chunks and pools them, so a table
    of 100k positions is never held whole).  ``column_wavelengths`` gives, per column, the
    period in positions where that is meaningful (sinusoids, RoPE), else ``None``.
    """

    name: str
    label: str
    spec: type[S]
    summary: str
    rows: Callable[[S], int]
    cols: Callable[[S], int]
    rows_at: Callable[[S, torch.Tensor], torch.Tensor]
    caption: Callable[[S], str]
    row_axis: str = msg("Encodings", "position")  # marked: shown with peapp.i18n.shown
    col_axis: str = msg("Encodings", "dimension")
    value_label: str = msg("Encodings", "value")
    column_wavelengths: Callable[[S], np.ndarray | None] = lambda spec: None
    # Optional closed form for the mean of rows [start, start + count) per bin; lets the
    # level-of-detail view stay exact and fast at any number of positions.
    pooled_rows_at: Callable[[S, torch.Tensor, torch.Tensor], torch.Tensor] | None = None
    # Optional closed form for one column at many positions (the heatmap's exact column
    # cross-section of a pooled table) when it is much cheaper than whole rows.
    column_at: Callable[[S, torch.Tensor, int], torch.Tensor] | None = None
    # Optional for matrices whose entry (i, j) depends on j − i only (relative biases):
    # ``toeplitz(spec, distances)`` → (profile, factor) with entry (i, j) = factor ·
    # profile[j − i] (float64; NaN where masked).  The heatmap's pooled views then come from
    # prefix sums of one profile, exact and linear in the cells drawn, at any length.
    toeplitz: Callable[[S, torch.Tensor], tuple[torch.Tensor, float]] | None = None
    symmetric_levels: bool = True  # diverging colour map centred on zero
    order: int = 100
    # Optional words for the heatmap's cross-section titles and colour bar, where the generic
    # "dimension 3" / "position 10: its vector across dimensions" / ``value_label`` would be
    # wrong: a RoPE column is the cos or sin of one pair, a bias matrix's row is not a vector,
    # T5 shows buckets or biases by its settings.
    column_name_of: Callable[[S, int], str] | None = None
    row_title_of: Callable[[S, int], str] | None = None
    value_label_of: Callable[[S], str] | None = None

    def column_name(self, spec: S, column: int) -> str:
        """What table column ``column`` is, e.g. "dimension 3", "sin of pair 5", "key position 80,000"."""
        if self.column_name_of is not None:
            return self.column_name_of(spec, column)
        return translate("Encodings", "{axis} {n:,}").format(axis=shown(self.col_axis), n=column)

    def row_title(self, spec: S, position: int) -> str:
        """The title of the cross-section along row ``position``."""
        if self.row_title_of is not None:
            return self.row_title_of(spec, position)
        return translate("Encodings", "{axis} {n:,}: its vector across {columns}").format(
            axis=shown(self.row_axis), n=position, columns=axis_plural(self.col_axis))

    def value_name(self, spec: S) -> str:
        """What the table's entries are (the colour bar's label)."""
        return self.value_label_of(spec) if self.value_label_of is not None else shown(self.value_label)

    def default_spec(self) -> S:
        return self.spec()

    def make_spec(self, values: dict) -> S:
        return self.spec.from_dict(values)
