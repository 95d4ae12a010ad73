"""The attention inspector's requests, without torch: each imports what computes it (torch)
only in ``compute``, so the panel makes them, and a render's second process answers them,
before torch is loaded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.analysis.attention.result import AttentionView, ShuffleResult
from peapp.analysis.attention.spec import AttentionSpec
from peapp.jobs import ProgressFn, Request


@dataclass(frozen=True)
class AttentionRequest(Request):
    """The inspector's matrices for one region (pooled), with profile and entropy."""

    channel: ClassVar[str] = "attention"
    spec: AttentionSpec
    scheme_params: tuple = ()
    kind: str = "softmax"
    pooling: str = "mean"
    rows: tuple = (0, None)
    cols: tuple = (0, None)
    max_bins: int = 512
    with_profile: bool = True  # False for a zoomed region: the profile and entropy come from the overview
    device: str = "cpu"  # torch device (the Preferences compute device)
    temperature: tuple = ()  # NoPE: (attn_scale, floor_scale) of the entropy with Llama 4's temperature; () none

    def compute(self, progress: ProgressFn) -> AttentionView:
        from peapp.analysis.attention.view import attention_view  # torch: only where it computes

        return attention_view(self.spec, self.scheme_params, self.kind, self.pooling, self.rows, self.cols,
                              self.max_bins, progress, with_profile=self.with_profile, device=self.device,
                              temperature=self.temperature)


@dataclass(frozen=True)
class ShuffleRequest(Request):
    """The shuffle-tokens test for the inspector's current setup."""

    channel: ClassVar[str] = "attention-shuffle"
    spec: AttentionSpec
    scheme_params: tuple = ()
    device: str = "cpu"  # torch device (the Preferences compute device)

    def compute(self, progress: ProgressFn) -> ShuffleResult:
        from peapp.analysis.attention.shuffle import shuffle_test  # torch: only where it computes

        return shuffle_test(self.spec, self.scheme_params, progress, device=self.device)


__all__ = ["AttentionRequest", "ShuffleRequest"]
