"""The encoding heatmap's settings, and its table request for a given viewport."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.params import param
from peapp.views.base import ViewSpec, Viewport, register

# Tables up to this many rows are always drawn whole: every position is its own row.
FULL_ROWS = 2048
# A larger table is reduced to the plot's height in device pixels, within these bounds: more rows
# would not show, and the image paint costs grow with every row drawn.
MIN_PIXEL_ROWS, MAX_PIXEL_ROWS = 256, 4096


@register
@dataclass(frozen=True)
class HeatmapView(ViewSpec):
    view_id: ClassVar[str] = "heatmap"
    title: ClassVar[str] = "Encoding heatmap"
    legacy_ids: ClassVar[tuple[str, ...]] = ("heatmapDock",)

    mode: str = param("encoding", "Show", choices={"encoding": "Encoding table", "similarity": "Position similarity"},
                      help="Show the table itself, or how similar every position is to every other (T)")
    similarity: str = param("cosine", "Similarity", choices=("cosine", "dot"),
                            help="Cosine: direction only; dot: what attention would compute from PE alone")


def pixel_rows(viewport: Viewport) -> int:
    """Rows worth computing for a table larger than FULL_ROWS drawn in ``viewport``."""
    return int(min(MAX_PIXEL_ROWS, max(MIN_PIXEL_ROWS, viewport.height)))


def table_request(document, viewport: Viewport, selected_row: int | None = None):
    """The heatmap's request for ``document`` drawn in ``viewport`` (pixels on screen), with the
    exact row at ``selected_row`` (the cross-section) computed alongside in the table view."""
    from peapp import encodings
    from peapp.jobs import TableRequest, frozen_params

    spec = document.spec()
    view = document.view_spec(HeatmapView.view_id)
    total = encodings.get(document.family).rows(spec)
    max_rows = total if total <= FULL_ROWS else pixel_rows(viewport)
    return TableRequest(family=document.family, params=frozen_params(spec.to_dict()), mode=view.mode,
                        max_rows=max_rows, similarity=view.similarity,
                        selected_row=selected_row if view.mode == "encoding" else None)
