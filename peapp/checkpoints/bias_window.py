"""The window a 2-D relative position bias table covers (BEiT, Data2Vec-Vision, Swin), from its row
count: shared by detection and by the patch grid's bias view (``peapp.analysis.patch_grid_bias``).
Torch- and numpy-free."""

from __future__ import annotations

import math
from dataclasses import dataclass

from peapp.errors import ParameterError

BEIT_EXTRA_ROWS = 3  # class → patch, patch → class, class → class


@dataclass(frozen=True)
class BiasWindow:
    """The window a table covers and whether it has BEiT's three class-token rows."""

    height: int
    width: int
    class_token: bool

    @property
    def rows(self) -> int:
        return (2 * self.height - 1) * (2 * self.width - 1) + (BEIT_EXTRA_ROWS if self.class_token else 0)


def window_of_table(rows: int, window: tuple[int, int] | None = None) -> BiasWindow:
    """The window of a table with ``rows`` rows: ``window`` when given (from the config: BEiT's
    image_size / patch_size, Swin's window_size) and consistent, else the square one the row count
    implies.  (2w − 1)² + 3 and (2v − 1)² are never both squares of odd numbers, so the class rows are
    told apart by the count alone.  Raises ParameterError when no window fits."""
    if window is not None:
        for class_token in (True, False):
            candidate = BiasWindow(int(window[0]), int(window[1]), class_token)
            if candidate.rows == rows:
                return candidate
    for class_token, extra in ((True, BEIT_EXTRA_ROWS), (False, 0)):
        side = math.isqrt(max(rows - extra, 0))
        if rows - extra > 0 and side * side == rows - extra and side % 2 == 1:
            return BiasWindow((side + 1) // 2, (side + 1) // 2, class_token)
    given = f" nor the {window[0]}×{window[1]} window the config gives" if window is not None else ""
    raise ParameterError(f"a relative position bias table of {rows:,} rows fits no square window{given} "
                         f"((2w−1)² rows, or (2w−1)² + 3 with BEiT's class-token rows)")
