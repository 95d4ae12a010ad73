"""The attention inspector's settings: the sandbox layer (``AttentionSpec``) and how it is shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.analysis.attention import AttentionSpec
from peapp.analysis.levels import LOG_DECADES
from peapp.params import param
from peapp.views.base import ViewSpec, register

TOKEN_LABELS = {"repeated": "One repeated token", "random": "Random tokens", "sentence": "A sentence"}
KIND_LABELS = {"softmax": "Softmax (attention weights)", "logits": "Logits q·k/√d + bias",
               "position": "Position term only"}
POOLING_LABELS = {"mean": "Pool: mean", "max": "Pool: max"}


@register
@dataclass(frozen=True)
class AttentionView(AttentionSpec, ViewSpec):
    """Every field of :class:`peapp.analysis.attention.AttentionSpec` (what is computed; its
    ``t5_source`` and ``embedding_source`` are checkpoint table references, "PATH::TENSOR"), and
    the view's own choices (what is drawn)."""

    view_id: ClassVar[str] = "attention"
    title: ClassVar[str] = "Attention inspector"
    legacy_ids: ClassVar[tuple[str, ...]] = ("attentionDock",)

    kind: str = param("softmax", "Show", choices=KIND_LABELS,
                      help="What the matrices show: attention weights, raw logits, or only the part of the "
                           "logits that position contributes.")
    pooling: str = param("mean", "Pooling", choices=POOLING_LABELS,
                         help="Long sequences are drawn pooled: each cell is the mean or the max of its block.")
    head: int = param(0, "Head", minimum=0, maximum=63, step=1,
                      help="The head shown large (or click a small matrix).")
    unit_scale: bool = param(False, "0–1 colours",
                             help="Attention weights: colours from 0 to 1 (on) or from 0 to the largest weight "
                                  "shown (off; long sequences spread their weight thin).")
    log_scale: bool = param(False, "Log colours",
                            help=f"Attention weights on a log scale, {LOG_DECADES} decades below the top: how small "
                                 f"weights fall off with distance, invisible on a linear scale at thousands of "
                                 f"keys. Read-outs and exports keep the weights themselves.")

    def attention_spec(self) -> AttentionSpec:
        """What is computed (the view's own choices left out)."""
        return AttentionSpec(**{i.name: getattr(self, i.name) for i in AttentionSpec.param_infos()})
