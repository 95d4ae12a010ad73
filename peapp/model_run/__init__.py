"""Run a trained checkpoint on text and measure what its attention does with position.

A library call, Qt-free; transformers is imported only when a model is loaded::

    from peapp.model_run import load_model, tokenize, run_model, RunOptions
    loaded = load_model("SmolLM2-135M-Instruct.Q4_1.gguf")
    ids, tokens, _ = tokenize(loaded, open("text.txt").read(), max_tokens=1024)
    result = run_model(loaded, ids, RunOptions(layer=3, head=0), tokens=tokens)
    result.distance_profile, result.sink_first, result.rope_usage, result.perplexity

Each layer's real q and k pass through peapp's own attention function (registered in
transformers' attention registry), which computes the output exactly and the statistics block by
block (:mod:`peapp.model_run.runner` lists them); ``output_attentions`` is never used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from peapp.model_run.loading import (
    LoadedModel,
    default_cache_dir,
    load_model,
    preload_runtime,
    registry_families,
)
from peapp.device import resolve_device
from peapp.model_run.thresholds import CLASS_THRESHOLDS, LOCAL_WINDOW, SINK_SPAN

# The runner's names are imported on first use (PEP 562): importing the package for its
# thresholds (the Run on text panel is built before torch has loaded) does not import torch.
if TYPE_CHECKING:
    from peapp.model_run.runner import RunOptions, RunResult, run_model, tokenize

_FROM_RUNNER = ("RunOptions", "RunResult", "run_model", "tokenize")


def __getattr__(name: str) -> Any:
    if name not in _FROM_RUNNER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("peapp.model_run.runner"), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_FROM_RUNNER])


__all__ = [
    "CLASS_THRESHOLDS",
    "LOCAL_WINDOW",
    "SINK_SPAN",
    "LoadedModel",
    "RunOptions",
    "RunResult",
    "default_cache_dir",
    "load_model",
    "preload_runtime",
    "registry_families",
    "resolve_device",
    "run_model",
    "run_on_text",
    "tokenize",
]


def run_on_text(path: str, text: str, *, max_tokens: int | None = 1024, options: RunOptions | None = None,
                device: str = "cpu", progress=None, cancelled=None) -> RunResult:
    """Load ``path``, tokenise ``text`` with its own tokenizer, run it: the one-call form."""
    from peapp.model_run.runner import run_model, tokenize

    loaded = load_model(path, device=device, cancelled=cancelled)
    ids, tokens, _ = tokenize(loaded, text, max_tokens)
    return run_model(loaded, ids, options, tokens=tokens, progress=progress, cancelled=cancelled)
