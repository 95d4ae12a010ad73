"""The encoding heatmap's settings, and its table request for a given viewport."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.i18n import msg
from peapp.params import param
from peapp.views.base import ViewSpec, Viewport, register

# Tables up to this many rows are always drawn whole: every position is its own row.
FULL_ROWS = 2048
# A larger table is reduced to the plot's height in device pixels, within these bounds: more rows
# would not show, and the image paint costs grow with every row drawn.
MIN_PIXEL_ROWS, MAX_PIXEL_ROWS = 256, 4096
# … and up to this many columns (every encoding's dimensions; bias matrices of longer sequences
# have a key per column and are drawn pooled to the plot's width, like rows to its height).
FULL_COLS = 4096


@register
@dataclass(frozen=True)
class HeatmapView(ViewSpec):
    view_id: ClassVar[str] = "heatmap"
    title: ClassVar[str] = msg("Panels", "Encoding heatmap")
    legacy_ids: ClassVar[tuple[str, ...]] = ("heatmapDock",)

    mode: str = param("encoding", msg("Params", "Show"), choices={"encoding": msg("Params", "Encoding table"), "similarity": msg("Params", "Position similarity")},
                      help=msg("Params", "Show the table itself, or how similar every position is to every other (T)"))
    similarity: str = param("cosine", msg("Params", "Similarity"), choices={"cosine": msg("Params", "cosine"), "dot": msg("Params", "dot")},
                            help=msg("Params", "Cosine: direction only; dot: what attention would compute from PE alone"))


def pixel_rows(viewport: Viewport) -> int:
    """Rows worth computing for a table larger than FULL_ROWS drawn in ``viewport``."""
    return int(min(MAX_PIXEL_ROWS, max(MIN_PIXEL_ROWS, viewport.height)))


def pixel_cols(viewport: Viewport) -> int:
    """Columns worth computing for a table wider than FULL_COLS drawn in ``viewport``."""
    return int(min(MAX_PIXEL_ROWS, max(MIN_PIXEL_ROWS, viewport.width)))


def table_request(document, viewport: Viewport, selected_row: int | None = None):
    """The heatmap's request for ``document`` drawn in ``viewport`` (pixels on screen), with the
    exact row at ``selected_row`` (the cross-section) computed alongside in the table view."""
    from peapp import encodings
    from peapp.analysis.heatmap import TableRequest
    from peapp.jobs import frozen_params

    spec = document.spec()
    view = document.view_spec(HeatmapView.view_id)
    family = encodings.get(document.family)
    total, cols = family.rows(spec), family.cols(spec)
    max_rows = total if total <= FULL_ROWS else pixel_rows(viewport)
    max_cols = None if cols <= FULL_COLS else pixel_cols(viewport)
    if selected_row is not None:  # a shrunk table: the selection moves to its last row (the dock does too)
        selected_row = min(max(0, int(selected_row)), total - 1)
    return TableRequest(family=document.family, params=frozen_params(spec.to_dict()), mode=view.mode,
                        max_rows=max_rows, max_cols=max_cols, similarity=view.similarity,
                        selected_row=selected_row if view.mode == "encoding" else None)
