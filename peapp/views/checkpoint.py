"""The checkpoint panel's settings: none of its own.  What it shows follows ``Document.checkpoint``
and the family the Document shows; choosing a component is a Document edit of the family and of
the other views' table references (:mod:`peapp.checkpoint_links`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.views.base import ViewSpec, register


@register
@dataclass(frozen=True)
class CheckpointView(ViewSpec):
    view_id: ClassVar[str] = "checkpoint"
    title: ClassVar[str] = "Checkpoint"
    legacy_ids: ClassVar[tuple[str, ...]] = ("checkpointDock",)
