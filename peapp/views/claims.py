"""The Measured claims panel's settings: which claim (``mode``) and what it is measured on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.model_run.claims import MODES, ClaimsRequest
from peapp.i18n import msg
from peapp.params import param
from peapp.views.base import ViewSpec, register


@register
@dataclass(frozen=True)
class ClaimsView(ViewSpec):
    view_id: ClassVar[str] = "claims"
    title: ClassVar[str] = msg("Panels", "Measured claims")

    mode: str = param("claims-temperature", msg("Claims", "Claim"), choices=MODES,
                      help=msg("Claims", "Which of the article's claims the panel shows beside its measurement."))
    length: int = param(4096, msg("Claims", "Positions"), minimum=2, maximum=1_000_000, step=1,
                        help=msg("Claims", "Temperature: positions of the scale curve (the entropy uses at most 2,048)."))
    attn_scale: float = param(0.1, "attn_scale", minimum=0.0, maximum=10.0,
                              help=msg("Claims", "Llama 4's attn_scale (an opened Llama 4 config's value replaces it)."))
    floor_scale: float = param(512.0, "floor_scale", minimum=1.0, maximum=1e7, log=True,
                               help=msg("Claims", "Llama 4's floor_scale: the scale steps at every multiple "
                                                  "(8,192 in Llama 4; smaller here to see steps within 2,048)."))
    logn_s: float = param(0.15, msg("Claims", "log-n s"), minimum=0.0, maximum=10.0,
                          help=msg("Claims", "Scalable-Softmax's s in s·log n."))
    cost_file: str = param("", msg("Claims", "Cost file"),
                           help=msg("Claims", "A saved `peapp cost --json` result."))
    sinks_file: str = param("", msg("Claims", "Sinks file"),
                            help=msg("Claims", "A saved `peapp probe streaming --json` result."))
    ranking_folder: str = param("", msg("Claims", "Ranking folder"),
                                help=msg("Claims", "The folder of `peapp lab --preset ranking -o FOLDER`."))

    def request(self, checkpoint: str | None = None) -> ClaimsRequest:
        return ClaimsRequest(mode=self.mode, length=self.length, attn_scale=self.attn_scale,
                             floor_scale=self.floor_scale, logn_s=self.logn_s,
                             checkpoint=checkpoint if self.mode == "claims-temperature" else None,
                             cost_file=self.cost_file, sinks_file=self.sinks_file, ranking_folder=self.ranking_folder)
