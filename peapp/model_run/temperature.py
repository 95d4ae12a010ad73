"""A real model's NoPE layer with and without its attention temperature, from its own q and k.

Llama 4 (``llama4_text``, or a Llama4ForConditionalGeneration's text model) multiplies the query of
its NoPE layers by :func:`peapp.encodings.nope.temperature_scale` when ``attn_temperature_tuning``
is on.  One forward pass runs with peapp's attention function and a strategy (:class:`Capture`, passed
through the forward) that keeps every NoPE layer's q and k and otherwise computes exactly what SDPA does;
the entropy per query position is then computed from the q the model used ("with") and from that
q divided by the scale ("without").  A model whose tuning is off gets the scale applied here, said so.

Llama 4 does not run through peapp's general loader yet (``peapp.model_run.loading``): this module
opens a local folder with ``model.safetensors`` weights (never a pickle) through transformers itself.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import torch

from peapp.analysis.temperature import EntropyResult, entropy_by_position, read_config
from peapp.errors import CheckpointError, ParameterError

class Capture:
    """A strategy for peapp's attention function (:mod:`peapp.model_run.attention_hook`): keeps
    every NoPE layer's q and k (and scaling) in ``kept`` and computes exactly what SDPA does."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[torch.Tensor, torch.Tensor, float]] = {}

    def attend(self, call) -> tuple[torch.Tensor, None]:
        from transformers.integrations.sdpa_attention import sdpa_attention_forward

        module, query = call.module, call.query
        if not getattr(module, "use_rope", True):
            self.kept[int(module.layer_idx)] = (query[0].detach(), call.key[0].detach(), call.scale)
        if call.window:  # peapp's mask function leaves a sliding window to attend(), not to SDPA
            return call.exact(), None
        return sdpa_attention_forward(module, query, call.key, call.value, call.raw_mask, dropout=0.0,
                                      scaling=call.scaling, **call.kwargs)


def load_llama4(path: str):
    """(model, config dict) of a local Llama 4 text checkpoint folder (safetensors only)."""
    import json

    from peapp.safe_open import read_text

    config_path = os.path.join(path, "config.json")
    if not os.path.isdir(path) or not os.path.isfile(config_path):
        raise CheckpointError(f"{path}: the NoPE temperature needs a model folder with config.json.")
    config = json.loads(read_text(config_path, "config", CheckpointError))
    if not isinstance(config, dict) or config.get("model_type") not in ("llama4_text", "llama4"):
        raise ParameterError(f"{path} is not a Llama 4 model (model_type {config.get('model_type')!r}); only Llama 4 "
                             f"has NoPE layers with attn_temperature_tuning.")
    if not any(name.endswith(".safetensors") for name in os.listdir(path)):
        raise CheckpointError(f"{path}: no .safetensors weights (pickled weights are not opened here).")
    from transformers import AutoModelForCausalLM

    from peapp.model_run.attention_hook import ATTENTION_NAME, install

    install()
    try:
        model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32, use_safetensors=True,
                                                     attn_implementation=ATTENTION_NAME).eval()
    except Exception as exc:  # transformers' own message, in one line
        raise CheckpointError(f"{path}: transformers could not build the model ({type(exc).__name__}: "
                              f"{str(exc).splitlines()[0][:160] if str(exc) else ''}).") from None
    return model, config


def nope_entropy(path: str, token_ids: Sequence[int], layer: int | None = None) -> EntropyResult:
    """Entropy per query position of NoPE layer ``layer`` (default: the first), with and without
    the temperature, from the model's own q and k on ``token_ids``."""
    from peapp.encodings.nope import temperature_scale

    model, config = load_llama4(path)
    settings = read_config(config)
    if not settings.nope_layers:
        raise ParameterError(f"{path}: this model has no NoPE layers (no_rope_layers has no 0).")
    layer = settings.nope_layers[0] if layer is None else layer
    if layer not in settings.nope_layers:
        raise ParameterError(f"layer {layer} is not a NoPE layer; NoPE layers: "
                             f"{', '.join(map(str, settings.nope_layers))}.")
    n = len(token_ids)
    if n < 2:
        raise ParameterError("give at least two tokens.")
    vocab = int(getattr(model.config, "vocab_size", 0) or 0)
    if vocab and max(token_ids) >= vocab:
        raise ParameterError(f"token id {max(token_ids)} is past the vocabulary ({vocab}).")
    from peapp.model_run.attention_hook import STRATEGY

    capture = Capture()
    with torch.no_grad():
        model(torch.tensor([list(token_ids)]), **{STRATEGY: capture})
    q, k, scaling = capture.kept[layer]
    scale = temperature_scale(torch.arange(n), settings.attn_scale, settings.floor_scale)
    notes: list[str] = []
    if settings.tuning:  # the model scaled q itself: "without" divides it back out
        with_scale = entropy_by_position(q, k, scaling)
        without = entropy_by_position(q, k, scaling, row_scale=1.0 / scale)
    else:
        notes.append("attn_temperature_tuning is off in this config: the scale is applied here")
        with_scale = entropy_by_position(q, k, scaling, row_scale=scale)
        without = entropy_by_position(q, k, scaling)
    from peapp.i18n import translate

    return EntropyResult(layer=layer, source=translate("Temperature", "{name}: its own q and k").format(
                             name=os.path.basename(os.path.normpath(path))),
                         with_scale=with_scale, without_scale=without, settings=settings, n_tokens=n, notes=notes)


def token_ids(path: str, n: int) -> list[int]:
    """The bundled sample text through the folder's tokenizer.json (the tokenizers library)."""
    from peapp.model_run.text_run import resolve_text

    file = os.path.join(path, "tokenizer.json")
    if not os.path.isfile(file):
        raise ParameterError(f"{path} has no tokenizer.json to read the sample text with.")
    from tokenizers import Tokenizer

    text, _ = resolve_text("sample")
    ids = Tokenizer.from_file(file).encode(text[: n * 16]).ids
    if len(ids) < n:
        raise ParameterError(f"the sample text gives {len(ids):,} tokens, fewer than --length {n:,}.")
    return list(ids[:n])


def summary_json(result: EntropyResult) -> dict[str, Any]:
    return result.to_json()
