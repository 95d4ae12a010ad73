"""peapp's attention function in transformers' registry (``attn_implementation="peapp_blocks"``).

Every layer of a registry-using model calls it with its real q, k (after rotation) and v; it
hands them to :func:`peapp.model_run.blocks.attend` and to the active run's collector.  With no
run active (plain use of the model) it only computes the exact output.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

import torch

from peapp.errors import CheckpointError
from peapp.i18n import translate
from peapp.model_run.blocks import attend

ATTENTION_NAME = "peapp_blocks"
_active: contextvars.ContextVar[Any] = contextvars.ContextVar("peapp_model_run", default=None)
_installed = False


@contextlib.contextmanager
def attention_function_on(model: Any, name: str, active: contextvars.ContextVar[Any],
                          value: Any) -> Iterator[None]:
    """Inside, ``model`` (a transformers PreTrainedModel) runs with the registered attention function ``name`` and ``active`` holds
    ``value`` (what that function reads); both are restored after, whatever happens."""
    before = model.config._attn_implementation
    model.set_attn_implementation(name)
    token = active.set(value)
    try:
        yield
    finally:
        active.reset(token)
        model.set_attn_implementation(before)


def install() -> None:
    """Register the function (once); imports transformers, so only called when a model loads."""
    global _installed
    if _installed:
        return
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface

    AttentionInterface.register(ATTENTION_NAME, peapp_attention)
    AttentionMaskInterface.register(ATTENTION_NAME, peapp_mask)
    _installed = True


# The mask functions whose masks attend() applies itself, from is_causal and sliding_window
_OWN_MASKS = {"causal_mask_function", "sliding_window_overlay", "sliding_window_causal_mask_function",
              "bidirectional_mask_function", "sliding_window_bidirectional_overlay",
              "sliding_window_bidirectional_mask_function", "and_masks", "and_mask", "inner_mask"}


def _mask_parts(fn, seen=None) -> set[str]:
    """The names of a transformers mask function and of the functions it combines."""
    seen = set() if seen is None else seen
    if id(fn) in seen:
        return set()
    seen.add(id(fn))
    names = {getattr(fn, "__qualname__", "").split(".")[0]}
    names |= {getattr(fn, "__name__", "")}
    for cell in getattr(fn, "__closure__", None) or ():
        value = cell.cell_contents
        for item in value if isinstance(value, tuple) else (value,):
            if callable(item):
                names |= _mask_parts(item, seen)
    return names


def peapp_mask(*args, **kwargs):
    """transformers' mask for peapp's attention: none where attend() builds the same mask from
    is_causal and sliding_window (so no n × n mask is held), the model's own boolean mask where it
    is something else (Llama 4's chunked attention, an image's bidirectional block)."""
    from transformers.masking_utils import sdpa_mask

    if _mask_parts(kwargs.get("mask_function")) <= _OWN_MASKS:
        return None
    kwargs["allow_is_causal_skip"] = False
    return sdpa_mask(*args, **kwargs)


_forbidden: contextvars.ContextVar[bool] = contextvars.ContextVar("peapp_no_attention", default=False)


@contextlib.contextmanager
def no_attention():
    """Inside, a layer's attention call is an error (the LM head is being applied on its own)."""
    token = _forbidden.set(True)
    try:
        yield
    finally:
        _forbidden.reset(token)


_counted: contextvars.ContextVar[list | None] = contextvars.ContextVar("peapp_count_calls", default=None)


@contextlib.contextmanager
def counting_calls():
    """Inside, every call of peapp's attention function appends its module to the yielded list."""
    calls: list = []
    token = _counted.set(calls)
    try:
        yield calls
    finally:
        _counted.reset(token)


def activate(session):
    """Make ``session`` receive the layers' q/k until the returned token is reset."""
    return _active.set(session)


def deactivate(token) -> None:
    _active.reset(token)


def peapp_attention(module: torch.nn.Module, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                    attention_mask: torch.Tensor | None, scaling: float | None = None, dropout: float = 0.0,
                    **kwargs: Any) -> tuple[torch.Tensor, None]:
    if _forbidden.get():
        raise CheckpointError(translate("ModelRun", "this model's language-model class runs its layers again "
                                                    "after they ran; it cannot be run here."))
    counted = _counted.get()
    if counted is not None:
        counted.append(module)
    sinks = kwargs.get("s_aux")  # gpt-oss: a learned sink logit per head, one more softmax column
    if sinks is not None:
        sinks = sinks.detach().float()
    if query.shape[0] != 1:
        raise CheckpointError("peapp runs one sequence at a time (batch size 1).")
    if attention_mask is not None and attention_mask.dtype != torch.bool and not attention_mask.is_floating_point():
        attention_mask = attention_mask.bool()
    causal = kwargs.get("is_causal")
    if causal is None:
        causal = bool(getattr(module, "is_causal", True))
    if query.shape[2] == 1 and key.shape[2] == 1:
        causal = False
    scale = float(scaling) if scaling is not None else query.shape[-1] ** -0.5
    window = kwargs.get("sliding_window")
    softcap = kwargs.get("softcap")
    q, k, v = query[0], key[0], value[0]
    session = _active.get()
    if session is None:
        out = attend(q, k, v, scaling=scale, causal=causal, window=window, softcap=softcap,
                     extra_mask=attention_mask, sinks=sinks)
    else:
        layer = session.layer_index(module)
        stats, plan = session.begin_layer(layer, module, q, k, causal, window, scaling=scale, softcap=softcap,
                                          own_mask=attention_mask is not None, sinks=sinks)
        out = attend(q, k, v, scaling=scale, causal=causal, window=window, softcap=softcap, stats=stats,
                     plan=plan, check=lambda f: session.check(layer, f), extra_mask=attention_mask, sinks=sinks)
    return out.unsqueeze(0), None
