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
from peapp.params import param
from peapp.views.base import ViewSpec, register

TEXT_SOURCES = {"none": "No text chosen", "sample": "Bundled sample text", "file": "A .txt file",
                "typed": "Typed or pasted text"}
# The panel's figures, as `peapp render` / File > Export name them (the first is the default)
MODES = {"run-attention": "Attention, layer × head", "run-grid": "Head grid", "run-distance": "By distance",
         "run-sinks": "Sink shares", "run-rope": "RoPE frequencies", "run-terms": "Position vs content"}
MAX_TYPED_CHARS = 1_000_000  # a session file holds at most 4 MiB
MAX_RUN_TOKENS = 8192


@register
@dataclass(frozen=True)
class RunView(ViewSpec):
    view_id: ClassVar[str] = "run"
    title: ClassVar[str] = "Run on text"

    mode: str = param("run-attention", "Show", choices=MODES, help="Which figure of the run the panel shows.")
    text_source: str = param("none", "Text", choices=TEXT_SOURCES,
                             help="What the checkpoint runs on: the bundled sample, a .txt file, or typed text.")
    text: str = param("", "Typed text", help="The typed or pasted text (with Text = typed).")
    text_file: str = param("", "Text file", help="The .txt file (UTF-8) to run on (with Text = file).")
    text_sha256: str = param("", "Text SHA-256", readonly=True,
                             help="SHA-256 of the text that was run, recorded so a reopened session notices "
                                  "a file that changed since.")
    max_tokens: int = param(512, "Max tokens", minimum=2, maximum=MAX_RUN_TOKENS, step=1,
                            help="Tokens of the text to run (its start; learned position tables cap it at their "
                                 "length).")
    layer: int = param(0, "Layer", minimum=0, maximum=1023, step=1,
                       help="The layer shown large (its map is pooled for every head).")
    head: int = param(0, "Head", minimum=0, maximum=1023, step=1,
                      help="The head shown large, and the one whose position and content terms are compared.")
    grid_statistic: str = param("sink_first", "Colour by", choices=GRID_STATISTICS,
                                help="The positional statistic that colours (and with Sort, orders) the head grid.")
    sort_grid: bool = param(False, "Sort", help="Order each layer's heads by the statistic (highest first).")
    log_colours: bool = param(True, "Log colours",
                              help="Attention weights on a log scale (small weights far from the diagonal "
                                   "are invisible on a linear one). Read-outs keep the weights.")

    def check(self) -> None:
        if len(self.text) > MAX_TYPED_CHARS:
            raise ParameterError(f"the typed text has {len(self.text):,} characters; at most {MAX_TYPED_CHARS:,} "
                                 f"fit in a session: save it as a .txt file and open that instead.")
        if self.text_source == "file" and not self.text_file:
            raise ParameterError("Text = file needs a file: open a .txt file.")
