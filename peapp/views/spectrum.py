"""The RoPE spectrum's settings: none of its own.  Its controls (scaling type and factor) edit
the RoPE family's parameters, so they are checked by ``RopeSpec``; a session that stores
settings under "spectrum" is refused, naming the view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.i18n import msg
from peapp.views.base import ViewSpec, register

#: the RoPE parameters the spectrum panel shows as controls
ROPE_CONTROLS = ("rope_type", "factor")


@register
@dataclass(frozen=True)
class SpectrumView(ViewSpec):
    view_id: ClassVar[str] = "spectrum"
    title: ClassVar[str] = msg("Panels", "RoPE spectrum")
    legacy_ids: ClassVar[tuple[str, ...]] = ("spectrumDock",)
