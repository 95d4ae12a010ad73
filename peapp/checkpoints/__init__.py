"""Trained checkpoints: open any model read-only and lazily, and find how it encodes position.

>>> report = inspect("path/to/model")          # doctest: +SKIP
>>> [c.kind for c in report.components]         # doctest: +SKIP
['learned_absolute']
>>> table = report.checkpoint.load(report.components[0].tensor)   # one tensor, on demand

``open_checkpoint`` reads headers and configs only (names, shapes, dtypes); ``Checkpoint.load``
reads one tensor's bytes when a view needs it.  Pickled files go through
``torch.load(weights_only=True)`` only, so nothing a file contains is ever executed.
Torch is imported only for pickled files and for loading tensor data.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from peapp.checkpoints.facts import ModelFacts, model_facts
from peapp.checkpoints.layer_schemes import LayerMap
from peapp.checkpoints.model import KINDS, Checkpoint, Component, TensorInfo
from peapp.checkpoints.reader import open_cached, open_checkpoint

__all__ = ["KINDS", "Checkpoint", "Component", "LayerMap", "ModelFacts", "Report", "TensorInfo", "inspect", "open_cached",
           "open_checkpoint"]


@dataclass(frozen=True)
class Report:
    """A checkpoint with the position components found in it, and its metadata block."""

    checkpoint: Checkpoint
    components: tuple[Component, ...]
    warnings: tuple[str, ...]
    facts: ModelFacts = ModelFacts()  # layers, heads, widths, context, vocabulary, storage
    layers: LayerMap | None = None  # every layer's scheme (peapp.checkpoints.layer_schemes)

    def to_json(self) -> dict[str, Any]:
        """The stable shape ``peapp inspect --json`` prints."""
        return {"path": self.checkpoint.path, "format": self.checkpoint.format,
                "architecture": self.checkpoint.architecture,
                "model": self.facts.to_json(),
                "components": [c.to_json() for c in self.components],
                "layers": None if self.layers is None else self.layers.to_json(),
                "warnings": list(self.warnings)}


def inspect(path: str | os.PathLike, remember: bool = False, progress=None) -> Report:
    """Open ``path`` and detect its position scheme; raises CheckpointError if it cannot be read.

    ``remember``: keep this opening for ``open_cached``, which the views that then load tables
    from it use (the file is always read afresh here).  ``progress(fraction)`` is called between
    shards and may raise to cancel.
    """
    from peapp.checkpoints.detect import detect
    from peapp.checkpoints.layer_schemes import layer_map

    ckpt = open_cached(path, refresh=True, progress=progress) if remember else open_checkpoint(path, progress)
    components, warnings = detect(ckpt)
    layers, more = layer_map(ckpt, components)
    return Report(ckpt, tuple(components), tuple(ckpt.warnings) + tuple(warnings) + tuple(more), model_facts(ckpt),
                  layers)
