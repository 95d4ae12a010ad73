"""The RoPE rotation view's settings: which pair, the animation speed, the positions m and n."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.i18n import msg
from peapp.params import param
from peapp.views.base import ViewSpec, register

SPEEDS = (1, 2, 4, 16, 64, 256)  # positions per animation frame
_SPEED_LABELS = {1: msg("Params", "1 pos/frame"), 2: msg("Params", "2 pos/frame"), 4: msg("Params", "4 pos/frame"),
                 16: msg("Params", "16 pos/frame"), 64: msg("Params", "64 pos/frame"),
                 256: msg("Params", "256 pos/frame")}
assert tuple(_SPEED_LABELS) == SPEEDS
DEFAULT_POSITION = 20  # a first picture where the fast pairs have visibly turned


@register
@dataclass(frozen=True)
class RotationView(ViewSpec):
    view_id: ClassVar[str] = "rotation"
    title: ClassVar[str] = msg("Panels", "RoPE rotations")
    legacy_ids: ClassVar[tuple[str, ...]] = ("rotationDock",)

    # a pair past the RoPE spec's last is shown as the last one (the spec may change under it)
    pair: int = param(0, msg("Params", "Pair"), minimum=0, maximum=511, step=1,
                      help=msg("Params", "The dimension pair shown in the lower plots (0 = fastest)"))
    speed: int = param(1, msg("Params", "Speed"), choices=_SPEED_LABELS,
                       help=msg("Params", "How many positions each animation frame advances"))
    position: int = param(DEFAULT_POSITION, msg("Params", "Position"), minimum=0, step=1,
                          help=msg("Params", "Position of the token (the shift applied to both q and k below)"))
    m: int = param(5, msg("Params", "q at m"), minimum=0, maximum=1_000_000, step=1,
                   help=msg("Params", "The query position m (before the shared shift)"))
    n: int = param(2, msg("Params", "k at n"), minimum=0, maximum=1_000_000, step=1,
                   help=msg("Params", "The key position n (before the shared shift)"))
