"""The multimodal positions panel's settings: a block sequence (text, images, video), the model
whose M-RoPE lays it out (a preset, or the open checkpoint's config) and the design drawn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.analysis.multimodal import MultimodalSettings
from peapp.i18n import msg
from peapp.views.base import ViewSpec, register


@register
@dataclass(frozen=True)
class MultimodalView(MultimodalSettings, ViewSpec):
    view_id: ClassVar[str] = "multimodal"
    title: ClassVar[str] = msg("Panels", "Multimodal positions (M-RoPE)")

    def settings(self) -> MultimodalSettings:
        """What the request computes (the settings without the view's identity)."""
        return MultimodalSettings(**{i.name: getattr(self, i.name) for i in MultimodalSettings.param_infos()})
