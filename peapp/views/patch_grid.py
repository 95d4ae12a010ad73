"""The vision patch grid's settings: what is computed (:class:`PatchGridSettings`, including a
checkpoint table's reference ``table_source = "PATH::TENSOR"``) and the image drawn under it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.i18n import msg
from peapp.analysis.patch_grid import PatchGridSettings
from peapp.params import param
from peapp.views.base import ViewSpec, register


@register
@dataclass(frozen=True)
class PatchGridView(PatchGridSettings, ViewSpec):
    view_id: ClassVar[str] = "patch_grid"
    title: ClassVar[str] = msg("Panels", "Vision patch grid")
    legacy_ids: ClassVar[tuple[str, ...]] = ("patchGridDock",)

    image_path: str = param("", msg("Params", "Image"), help=msg("Params", "A PNG or JPEG drawn under the patch grid, resized to the image "
                                             "size; empty: the built-in landscape."))

    def settings(self) -> PatchGridSettings:
        """What the request computes (the image is only drawn)."""
        return PatchGridSettings(**{i.name: getattr(self, i.name) for i in PatchGridSettings.param_infos()})
