"""The probes' settings (issue 15): perplexity vs position under each RoPE scaling, the
passkey "lost in the middle" probe and (issue 37) attention sinks — perplexity with a sliding KV
window, with and without the first tokens kept — measured on ``Document.checkpoint``.

The computation is :mod:`peapp.model_run.probes` / :mod:`peapp.model_run.passkey`; these are the
settings a session (or ``peapp probe … -o FIGURE``) records so a figure reopens: the checkpoint is
the Document's, the text as the Run on text panel records it (sample, file or typed, with its
SHA-256), and ``results_file`` / ``passkey_results_file``, a saved result (``peapp probe … --json``) drawn without running
again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.errors import ParameterError
from peapp.i18n import msg, translate
from peapp.model_run.probe_run import (MAX_PROBE_TOKENS, MAX_SINKS, MAX_STREAMING_TOKENS, VARIANTS, parse_numbers,
                                       parse_variants)
from peapp.params import param
from peapp.views.base import ViewSpec, register
from peapp.views.run import MAX_TYPED_CHARS, PRECISION_HELP, PRECISIONS, TEXT_SOURCES

MODES = {"probe-perplexity": msg("ProbePanel", "Perplexity vs position"), "probe-passkey": msg("ProbePanel", "Passkey by depth"),
         "probe-streaming": msg("ProbePanel", "Attention sinks (streaming)")}
__all__ = ["MAX_PROBE_TOKENS", "MODES", "VARIANTS", "ProbeView", "parse_numbers", "parse_variants"]

@register
@dataclass(frozen=True)
class ProbeView(ViewSpec):
    view_id: ClassVar[str] = "probe"
    title: ClassVar[str] = msg("Panels", "Probes")

    mode: str = param("probe-perplexity", msg("ProbePanel", "Show"), choices=MODES, help=msg("ProbePanel", "Which probe the panel shows."))
    text_source: str = param("sample", msg("ProbePanel", "Text"), choices=TEXT_SOURCES,
                             help=msg("ProbePanel", "What the perplexity probe reads: the bundled sample, a .txt file, or typed text."))
    text: str = param("", msg("ProbePanel", "Typed text"), help=msg("ProbePanel", "The typed or pasted text (with Text = typed)."))
    text_file: str = param("", msg("ProbePanel", "Text file"), help=msg("ProbePanel", "The .txt file (UTF-8) to read (with Text = file)."))
    text_sha256: str = param("", msg("ProbePanel", "Text SHA-256"), readonly=True,
                             help=msg("ProbePanel", "SHA-256 of the text that was measured (a changed file is noticed)."))
    length: int = param(4096, msg("ProbePanel", "Probe length"), minimum=2, maximum=MAX_PROBE_TOKENS, step=1,
                        help=msg("ProbePanel", "Tokens of the text to measure (its start). Past the trained context the "
                             "unscaled model is expected to degrade; long lengths take minutes on a CPU."))
    variants: str = param(",".join(VARIANTS), msg("ProbePanel", "Variants"),
                          help=msg("ProbePanel", "Comma-separated: none (as trained), linear, ntk, dynamic, yarn, llama3."))
    factor: float = param(2.0, msg("ProbePanel", "Scaling factor"), minimum=1.0, maximum=4096.0, log=True,
                          help=msg("ProbePanel", "The factor of every scaling variant (how many times the trained context)."))
    window: int = param(256, msg("ProbePanel", "Window"), minimum=1, maximum=MAX_PROBE_TOKENS, step=1,
                        help=msg("ProbePanel", "Positions per point of the perplexity curve (exp of the window's mean loss)."))
    lengths: str = param("1024,2048", msg("ProbePanel", "Passkey lengths"), help=msg("ProbePanel", "Comma-separated context lengths of the passkey probe."))
    depths: str = param("0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1", msg("ProbePanel", "Depths"),
                        help=msg("ProbePanel", "Comma-separated needle depths, 0 (first) … 1 (last) of the filler."))
    trials: int = param(1, msg("ProbePanel", "Trials"), minimum=1, maximum=100, step=1, help=msg("ProbePanel", "Pass keys per (length, depth)."))
    seed: int = param(0, msg("ProbePanel", "Seed"), minimum=0, maximum=2**31 - 1, step=1, help=msg("ProbePanel", "Seed of the pass keys."))
    variant: str = param("none", msg("ProbePanel", "Passkey RoPE"), choices=VARIANTS,
                         help=msg("ProbePanel", "The RoPE frequencies the passkey probe runs with (none: as trained)."))
    dtype: str = param("auto", msg("ProbePanel", "Precision"), choices=PRECISIONS, help=PRECISION_HELP)
    results_file: str = param("", msg("ProbePanel", "Results file"),
                              help=msg("ProbePanel", "A saved perplexity result (peapp probe perplexity … --json) to draw instead of "
                                   "running again."))
    passkey_results_file: str = param("", msg("ProbePanel", "Passkey results file"),
                                      help=msg("ProbePanel", "A saved passkey result (peapp probe passkey … --json) to draw instead "
                                           "of running again."))
    stream_length: int = param(2048, msg("ProbePanel", "Length"), minimum=2, maximum=MAX_STREAMING_TOKENS, step=1,
                               help=msg("ProbePanel", "Tokens of the text the attention-sinks probe measures (its start); "
                                        "choose more than Window W, or nothing leaves the window."))
    kv_window: int = param(256, msg("ProbePanel", "Window W"), minimum=1, maximum=MAX_STREAMING_TOKENS, step=1,
                           help=msg("ProbePanel", "W: tokens the sliding KV cache keeps (query i sees keys i − W + 1 … i). "
                                    "Past position W the first tokens have left it."))
    sinks: int = param(4, msg("ProbePanel", "Sinks K"), minimum=0, maximum=MAX_SINKS, step=1,
                       help=msg("ProbePanel", "K: first tokens kept in the cache beside the window (StreamingLLM keeps "
                                "4); 0 makes the third curve the window alone."))
    stream_bin: int = param(128, msg("ProbePanel", "Positions per point"), minimum=1, maximum=MAX_STREAMING_TOKENS,
                            step=1, help=msg("ProbePanel", "Positions per point of the attention-sinks curves (exp of "
                                             "their mean loss); redrawn without running again."))
    streaming_results_file: str = param("", msg("ProbePanel", "Streaming results file"),
                                        help=msg("ProbePanel", "A saved attention-sinks result (peapp probe streaming … "
                                                 "--json) to draw instead of running again."))
    attention_layer: int = param(-1, msg("ProbePanel", "Attention layer"), minimum=-1, maximum=1023, step=1,
                                 help=msg("ProbePanel", "The layer whose attention on the needle is drawn (mean over its heads); "
                                      "-1: the mean over every layer."))

    def check(self) -> None:
        if len(self.text) > MAX_TYPED_CHARS:
            raise ParameterError(translate("RunPanel", "the typed text has {n} characters; at most {limit} fit in a "
                                                       "session: save it as a .txt file and open that instead.").format(
                n=f"{len(self.text):,}", limit=f"{MAX_TYPED_CHARS:,}"))
        parse_variants(self.variants)
        lengths = parse_numbers(self.lengths, msg("ProbePanel", "passkey lengths"), int)
        if min(lengths) < 2 or max(lengths) > MAX_PROBE_TOKENS:
            raise ParameterError(translate("ProbePanel", "passkey lengths must be between 2 and {limit} tokens.").format(
                limit=f"{MAX_PROBE_TOKENS:,}"))
        depths = parse_numbers(self.depths, msg("ProbePanel", "depths"))
        if min(depths) < 0 or max(depths) > 1:
            raise ParameterError(translate("ProbePanel", "depths must be between 0 and 1 (0 % … 100 % of the filler)."))
