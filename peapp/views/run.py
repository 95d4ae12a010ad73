"""The "Run on text" panel's settings: which text the opened checkpoint runs on, and what is shown.

The text is recorded in the Document so a session or an exported figure reopens the same run:
the bundled sample (by name), a ``.txt`` file (its path), or typed text (the text itself), each
with the SHA-256 of the text that was run (``text_sha256``), so a file changed since is noticed.
The checkpoint is ``Document.checkpoint``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.model_run.text_run import GRID_STATISTICS_LABELS as GRID_STATISTICS
from peapp.errors import ParameterError
from peapp.i18n import msg, translate
from peapp.params import param
from peapp.views.base import ViewSpec, register

TEXT_SOURCES = {"none": msg("RunPanel", "No text chosen"), "sample": msg("RunPanel", "Bundled sample text"),
                "file": msg("RunPanel", "A .txt file"), "typed": msg("RunPanel", "Typed or pasted text")}
# The panel's figures, as `peapp render` / File > Export name them (the first is the default)
MODES = {"run-attention": msg("RunPanel", "Attention, layer × head"), "run-grid": msg("RunPanel", "Head grid"),
         "run-distance": msg("RunPanel", "By distance"), "run-sinks": msg("RunPanel", "Sink shares"),
         "run-rope": msg("RunPanel", "RoPE frequencies"), "run-terms": msg("RunPanel", "Position vs content"),
         "run-nope": msg("RunPanel", "NoPE temperature")}
# The precision a model runs in (peapp.model_run.placement.DTYPES; a test keeps the two equal). "auto" is
# the app's Preferences > Precision, whose own auto is the core's (placement.resolve). The combo is kept
# narrow (the panels fit a 1000 px window), so "auto" is shown alone and PRECISION_TIPS says what it means.
PRECISIONS = {"auto": msg("RunPanel", "auto"), "float32": "float32", "bfloat16": "bfloat16",
              "float16": "float16"}
PRECISION_TIPS = {"auto": msg("RunPanel", "auto: the Precision chosen in Edit > Preferences")}
PRECISION_HELP = msg("RunPanel", "Precision of the model's weights and activations; every statistic is still "
                                 "accumulated in float32 / float64. auto: the Precision in Preferences (whose auto is "
                                 "the checkpoint's own dtype on a GPU, and on a CPU bfloat16 where its bf16 matrix "
                                 "product measures fast, else float32). Recorded in sessions and exports.")
MAX_TYPED_CHARS = 1_000_000  # a session file holds at most 4 MiB
MAX_RUN_TOKENS = 8192


@register
@dataclass(frozen=True)
class RunView(ViewSpec):
    view_id: ClassVar[str] = "run"
    title: ClassVar[str] = msg("Panels", "Run on text")

    mode: str = param("run-attention", msg("RunPanel", "Show"), choices=MODES, help=msg("RunPanel", "Which figure of the run the panel shows."))
    text_source: str = param("none", msg("RunPanel", "Text"), choices=TEXT_SOURCES,
                             help=msg("RunPanel", "What the checkpoint runs on: the bundled sample, a .txt file, or typed text."))
    text: str = param("", msg("RunPanel", "Typed text"), help=msg("RunPanel", "The typed or pasted text (with Text = typed)."))
    text_file: str = param("", msg("RunPanel", "Text file"), help=msg("RunPanel", "The .txt file (UTF-8) to run on (with Text = file)."))
    text_sha256: str = param("", msg("RunPanel", "Text SHA-256"), readonly=True,
                             help=msg("RunPanel", "SHA-256 of the text that was run, recorded so a reopened session notices "
                                  "a file that changed since."))
    max_tokens: int = param(512, msg("RunPanel", "Max tokens"), minimum=2, maximum=MAX_RUN_TOKENS, step=1,
                            help=msg("RunPanel", "Tokens of the text to run (its start; learned position tables cap it at their "
                                 "length)."))
    dtype: str = param("auto", msg("RunPanel", "Precision"), choices=PRECISIONS, help=PRECISION_HELP)
    layer: int = param(0, msg("RunPanel", "Layer"), minimum=0, maximum=1023, step=1,
                       help=msg("RunPanel", "The layer shown large (its map is pooled for every head); in NoPE "
                                                "temperature, the NoPE layer drawn (the first NoPE layer when this "
                                                "one is rotated)."))
    head: int = param(0, msg("RunPanel", "Head"), minimum=0, maximum=1023, step=1,
                      help=msg("RunPanel", "The head shown large, and the one whose position and content terms are compared."))
    grid_statistic: str = param("sink_first", msg("RunPanel", "Colour by"), choices=GRID_STATISTICS,
                                help=msg("RunPanel", "The positional statistic that colours (and with Sort, orders) the head grid."))
    sort_grid: bool = param(False, msg("RunPanel", "Sort"), help=msg("RunPanel", "Order each layer's heads by the statistic (highest first)."))
    log_colours: bool = param(True, msg("RunPanel", "Log colours"),
                              help=msg("RunPanel", "Attention weights on a log scale (small weights far from the diagonal "
                                   "are invisible on a linear one). Read-outs keep the weights."))

    def check(self) -> None:
        if len(self.text) > MAX_TYPED_CHARS:
            raise ParameterError(translate("RunPanel", "the typed text has {n} characters; at most {limit} fit in a session: "
                                                "save it as a .txt file and open that instead.").format(
                n=f"{len(self.text):,}", limit=f"{MAX_TYPED_CHARS:,}"))
        if self.text_source == "file" and not self.text_file:
            raise ParameterError(translate("RunPanel", "Text = file needs a file: open a .txt file."))
