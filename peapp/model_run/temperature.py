"""A real model's NoPE layer with and without an attention temperature, from its own q and k.

The models with NoPE layers: Llama 4 (``llama4_text``, or a Llama4ForConditionalGeneration's text
model; ``no_rope_layers``), SmolLM3 (``no_rope_layers``) and Command R7B (``cohere2``: its
``full_attention`` layers have no rotation).  Llama 4 multiplies the query of its NoPE layers by
:func:`peapp.encodings.nope.temperature_scale` when ``attn_temperature_tuning`` is on; the others
apply no temperature, and the scale is applied here with the config's ``attn_scale`` and
``floor_scale`` where it has them, else Llama 4's defaults (0.1, 8192), said so in the notes.

One forward pass runs with peapp's attention function and a strategy (:class:`Capture`, passed
through the forward) that keeps the chosen layer's q and k and otherwise computes exactly what SDPA does; the
entropy per query position is then computed from the q the model used, without the model's own
scale ("without") and with the scale asked for ("with").

These models do not all run through peapp's general loader (``peapp.model_run.loading``): this
module opens a local folder with ``.safetensors`` weights (never a pickle) through transformers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from peapp.analysis.temperature import EntropyResult, entropy_by_position, read_config
from peapp.errors import CheckpointError, ParameterError

# model types whose configs say which layers are NoPE (no_rope_layers, or Cohere2's layer_types)
NOPE_MODEL_TYPES = ("llama4_text", "llama4", "smollm3", "cohere2")


class Capture:
    """A strategy for peapp's attention function (:mod:`peapp.model_run.attention_hook`): keeps
    the q and k (and scaling) of the ``layers`` asked for in ``kept`` (one layer: a real model's
    q and k of every layer are large) and computes exactly what SDPA does."""

    def __init__(self, layers: set[int]) -> None:
        self.layers = layers
        self.kept: dict[int, tuple[torch.Tensor, torch.Tensor, float]] = {}

    def attend(self, call) -> tuple[torch.Tensor, None]:
        from transformers.integrations.sdpa_attention import sdpa_attention_forward

        module, query = call.module, call.query
        if int(getattr(module, "layer_idx", -1)) in self.layers:
            self.kept[int(module.layer_idx)] = (query[0].detach(), call.key[0].detach(), call.scale)
        if call.window:  # peapp's mask function leaves a sliding window to attend(), not to SDPA
            return call.exact(), None
        return sdpa_attention_forward(module, query, call.key, call.value, call.raw_mask, dropout=0.0,
                                      scaling=call.scaling, **call.kwargs)


def load_nope_model(path: str):
    """(model, config dict) of a local checkpoint folder of a model with NoPE layers (Llama 4,
    SmolLM3, Cohere2; safetensors only)."""
    import json

    from peapp.safe_open import read_text

    config_path = os.path.join(path, "config.json")
    if not os.path.isdir(path) or not os.path.isfile(config_path):
        raise CheckpointError(f"{path}: the NoPE temperature needs a model folder with config.json.")
    config = json.loads(read_text(config_path, "config", CheckpointError))
    if not isinstance(config, dict) or config.get("model_type") not in NOPE_MODEL_TYPES:
        raise ParameterError(f"{path} is not a model with NoPE layers (model_type "
                             f"{config.get('model_type') if isinstance(config, dict) else None!r}); those are Llama 4, "
                             f"SmolLM3 and Command R7B (cohere2).")
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


load_llama4 = load_nope_model  # the name it had when only Llama 4 was read


def nope_layers_of(config: Any) -> tuple[int, ...]:
    """The NoPE layers of a transformers config: ``no_rope_layers[i] == 0`` (Llama 4, SmolLM3), or
    Cohere2's ``full_attention`` layers (its rotation is applied on the sliding-window layers only)."""
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    flags = getattr(text, "no_rope_layers", None)
    if flags:
        return tuple(i for i, use_rope in enumerate(flags) if not use_rope)
    if getattr(text, "model_type", "") == "cohere2":
        return tuple(i for i, kind in enumerate(getattr(text, "layer_types", None) or []) if kind == "full_attention")
    return ()


def has_nope_layers(path: str) -> bool:
    """Whether ``path`` is a model folder of a type with NoPE layers (config.json only, no weights read)."""
    import json

    from peapp.safe_open import read_text

    config_path = os.path.join(path, "config.json")
    if not os.path.isdir(path) or not os.path.isfile(config_path):
        return False
    try:
        doc = json.loads(read_text(config_path, "config", CheckpointError))
    except (CheckpointError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("model_type") in NOPE_MODEL_TYPES


def nope_entropy(path: str, token_ids: Sequence[int], layer: int | None = None, attn_scale: float | None = None,
                 floor_scale: float | None = None) -> EntropyResult:
    """Entropy per query position of NoPE layer ``layer`` (default: the first), with and without
    the temperature, from the model's own q and k on ``token_ids`` (a forward pass of its own; Run
    on text computes the same from the q and k its run kept, :func:`kept_entropy`).  ``attn_scale``
    and ``floor_scale`` replace the config's (or the defaults) for the "with" curve; "without" is
    always the layer with no temperature at all."""
    from peapp.i18n import translate

    model, config = load_nope_model(path)
    nope = nope_layers_of(model.config)
    layer = choose_layer(nope, layer, path)
    n = len(token_ids)
    if n < 2:
        raise ParameterError("give at least two tokens.")
    vocab = int(getattr(model.config, "vocab_size", 0) or 0)
    if vocab and max(token_ids) >= vocab:
        raise ParameterError(f"token id {max(token_ids)} is past the vocabulary ({vocab}).")
    from peapp.model_run.attention_hook import STRATEGY

    capture = Capture({layer})
    with torch.no_grad():
        model(torch.tensor([list(token_ids)]), **{STRATEGY: capture})
    q, k, scaling = capture.kept[layer]
    source = translate("Temperature", "{name}: its own q and k").format(name=os.path.basename(os.path.normpath(path)))
    return layer_entropy(q, k, scaling, config, nope, layer, source, attn_scale, floor_scale)


def choose_layer(nope_layers: Sequence[int], layer: int | None, what: str = "") -> int:
    """``layer`` if it is one of ``nope_layers`` (default: the first of them); ParameterError otherwise."""
    if not nope_layers:
        raise ParameterError(f"{what + ': ' if what else ''}this model has no NoPE layers (every layer is rotated).")
    layer = nope_layers[0] if layer is None else layer
    if layer not in nope_layers:
        raise ParameterError(f"layer {layer} is not a NoPE layer; NoPE layers: {', '.join(map(str, nope_layers))}.")
    return layer


def layer_entropy(q, k, scaling: float | None, config: Mapping[str, Any], nope_layers: Sequence[int], layer: int,
                  source: str, attn_scale: float | None = None, floor_scale: float | None = None) -> EntropyResult:
    """A NoPE layer's attention entropy per query position with and without the temperature, from
    the q [heads, n, d] and k [kv heads, n, d] its attention was given (q already multiplied by
    the model's own scale where its config tunes the temperature, as Llama 4 does), ``config``
    the model's config as a dict.  The one place this is computed: ``peapp temperature`` (q and
    k from a forward pass of its own) and Run on text's NoPE figure (the q and k its run kept)."""
    from dataclasses import replace

    from peapp.encodings.nope import temperature_scale
    from peapp.i18n import translate

    settings = replace(read_config(config), nope_layers=tuple(nope_layers))
    n = int(q.shape[1])
    if n < 2:
        raise ParameterError("give at least two tokens.")
    positions = torch.arange(n)
    own = temperature_scale(positions, settings.attn_scale, settings.floor_scale)  # what the model applied, if tuned
    overrides = {key: float(v) for key, v in (("attn_scale", attn_scale), ("floor_scale", floor_scale)) if v is not None}
    notes: list[str] = []
    if settings.tuning and not overrides:  # the model scaled q itself: "with" is its own, "without" divides it out
        with_scale = entropy_by_position(q, k, scaling)
        without = entropy_by_position(q, k, scaling, row_scale=1.0 / own)
    else:
        raw = 1.0 / own if settings.tuning else None  # q as it was before the model's own scale
        nested = config.get("text_config")
        text = nested if isinstance(nested, Mapping) else config
        from_config = any(key in text for key in ("attn_scale", "floor_scale"))
        if overrides:
            settings = replace(settings, attn_scale=overrides.get("attn_scale", settings.attn_scale),
                               floor_scale=overrides.get("floor_scale", settings.floor_scale))
        if not settings.tuning and from_config:
            notes.append(translate("Temperature", "attn_temperature_tuning is off in this config: the scale is "
                                                  "applied here."))
        elif not settings.tuning and overrides:
            notes.append(translate("Temperature", "this model applies no temperature: Llama 4's scale is applied here "
                                                  "with attn_scale {a:g}, floor_scale {f:g}.").format(
                a=settings.attn_scale, f=settings.floor_scale))
        elif not settings.tuning:
            notes.append(translate("Temperature", "this model applies no temperature: Llama 4's scale is applied here "
                                                  "with attn_scale {a:g}, floor_scale {f:g} (Llama 4's defaults; "
                                                  "other values: --attn-scale, --floor-scale).").format(
                a=settings.attn_scale, f=settings.floor_scale))
        scale = temperature_scale(positions, settings.attn_scale, settings.floor_scale)
        with_scale = entropy_by_position(q, k, scaling, row_scale=scale if raw is None else scale * raw)
        without = entropy_by_position(q, k, scaling, row_scale=raw)
    return EntropyResult(layer=layer, source=source, with_scale=with_scale, without_scale=without, settings=settings,
                         n_tokens=n, notes=notes)


def config_fields(config: Any) -> dict[str, Any]:
    """What the temperature needs of a transformers config (its text config's): model_type,
    attn_temperature_tuning, attn_scale, floor_scale, no_rope_layers, where it has them — a small
    dict a run result carries, so that its NoPE figure needs no config file."""
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    out: dict[str, Any] = {}
    for key in ("model_type", "attn_temperature_tuning", "attn_scale", "floor_scale", "no_rope_layers"):
        value = getattr(text, key, None)
        if value is not None:
            out[key] = list(value) if isinstance(value, (list, tuple)) else value
    return out


def run_nope_layers(run: Any) -> tuple[int, ...]:
    """The layers of a run (:class:`peapp.model_run.runner.RunResult`) whose code applied no position
    encoding of their own in a model that rotates others: NoPE layers, as the run saw them."""
    return tuple(int(info.get("layer", i)) for i, info in enumerate(getattr(run, "layer_schemes", None) or ())
                 if info.get("position") == "nope")


def kept_entropy(run: Any, config: Mapping[str, Any], layer: int | None = None, source: str = "") -> EntropyResult:
    """:func:`layer_entropy` of a NoPE layer from the q and k a Run on text run kept (every layer's,
    :class:`peapp.model_run.kept.KeptRun`, or the map layer's): no second forward pass."""
    from peapp.i18n import translate

    layer = choose_layer(run_nope_layers(run), layer)
    kept = run.kept.qk.get(layer) if run.kept is not None else None
    if kept is None and run.map_qk is not None and run.options.layer == layer:
        kept = run.map_qk
    if kept is None:
        why = run.kept.missing if run.kept is not None and run.kept.missing else translate("TextRun", "not asked for")
        raise ParameterError(translate("Temperature", "this run did not keep layer {layer}'s q and k ({why}): set "
                                                      "Layer to {layer} and press Run.").format(layer=layer, why=why))
    if not kept.causal or kept.window:
        raise ParameterError(translate("Temperature", "layer {layer} is not plain causal attention over every earlier "
                                                      "token (a window or no mask): its entropy is not drawn.").format(
            layer=layer))
    return layer_entropy(kept.q, kept.k, kept.scaling, config, run_nope_layers(run), layer, source)


def token_ids(path: str, n: int) -> list[int]:
    """The bundled sample text through the folder's tokenizer.json (the tokenizers library)."""
    from peapp.model_run.sample_text import sample_text

    file = os.path.join(path, "tokenizer.json")
    if not os.path.isfile(file):
        raise ParameterError(f"{path} has no tokenizer.json to read the sample text with.")
    from tokenizers import Tokenizer

    text = sample_text()
    ids = Tokenizer.from_file(file).encode(text[: n * 16]).ids
    if len(ids) < n:
        raise ParameterError(f"the sample text gives {len(ids):,} tokens, fewer than --length {n:,}.")
    return list(ids[:n])


def summary_json(result: EntropyResult) -> dict[str, Any]:
    return result.to_json()
