"""The length-extrapolation view's settings: the two lengths, the RoPE factor, each scheme's own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.i18n import msg
from peapp.analysis import extrapolation as ex
from peapp.params import param
from peapp.views.base import ViewSpec, register


@register
@dataclass(frozen=True)
class ExtrapolationView(ViewSpec):
    view_id: ClassVar[str] = "extrapolation"
    title: ClassVar[str] = msg("Panels", "Length extrapolation")
    legacy_ids: ClassVar[tuple[str, ...]] = ("extrapolationDock",)

    train_len: int = param(2048, msg("Params", "training length"), minimum=2, maximum=ex.MAX_TRAIN_LENGTH, step=1,
                           help=msg("Params", "Longest sequence seen in training (tokens)"))
    eval_len: int = param(8192, msg("Params", "evaluation length"), minimum=2, maximum=ex.MAX_LENGTH, step=1,
                          help=msg("Params", "Length the model is asked to read (tokens)"))
    factor: float = param(0.0, msg("Params", "RoPE factor"), minimum=0.0, maximum=1024.0,
                          help=msg("Params", "RoPE scaling factor; 0 = evaluation length / training length"))
    d_model: int = param(128, msg("Params", "sinusoid d_model"), minimum=2, maximum=8192, step=2, help=msg("Params", "Sinusoidal d_model (even)"))
    head_dim: int = param(128, msg("Params", "RoPE head_dim"), minimum=4, maximum=1024, step=2, help=msg("Params", "RoPE head_dim (even)"))
    rope_base: float = param(10000.0, msg("Params", "RoPE base"), minimum=2.0, maximum=1e9, log=True,
                             help=msg("Params", "RoPE base (rope_theta): 10,000 in Llama 2, 500,000 in Llama 3"))
    n_heads: int = param(8, msg("Params", "ALiBi heads"), minimum=1, maximum=256, step=1, help=msg("Params", "ALiBi heads"))
    threshold: float = param(10.0, msg("Params", "ALiBi threshold"), minimum=0.1, maximum=1000.0,
                             help=msg("Params", "ALiBi reach: the distance where a head's bias falls below −threshold "
                                  "(−10 scales attention by e^−10 ≈ 0.00005)"))
    t5_buckets: int = param(32, msg("Params", "T5 buckets"), minimum=4, maximum=1024, step=2,
                            help=msg("Params", "T5 buckets (even; half exact, half log-spaced)"))
    t5_max_distance: int = param(128, msg("Params", "T5 max distance"), minimum=2, maximum=65_536, step=1,
                                 help=msg("Params", "T5 max_distance: every farther distance shares the last bucket"))

    def request(self) -> "ex.ExtrapolationRequest":
        return ex.ExtrapolationRequest(train_len=self.train_len, eval_len=self.eval_len, d_model=self.d_model,
                                       head_dim=self.head_dim, rope_base=self.rope_base,
                                       factor=self.factor if self.factor > 0 else None, n_heads=self.n_heads,
                                       threshold=self.threshold, t5_buckets=self.t5_buckets,
                                       t5_max_distance=self.t5_max_distance)
