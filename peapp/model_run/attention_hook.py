"""peapp's one attention function in transformers' registry (``attn_implementation="peapp_blocks"``).

Every layer of a registry-using model calls it with its real q, k (after rotation) and v.  What it
does with them is decided per call by a *strategy* passed through the model's forward as the
keyword argument ``peapp_strategy`` (transformers hands a forward's extra keyword arguments down
to the attention function of every layer), never by state on the model or in a module global,
so two jobs using the same cached model cannot see each other's strategy (a family whose layers
drop those arguments, StableLM, has each layer relay its own, see :func:`relay_strategy`):

- none given (plain use of the model, the load-time check against eager): the exact output of
  :func:`peapp.model_run.blocks.attend`;
- a Run on text collects its statistics (:class:`peapp.model_run.runner._Session`);
- a probe computes SDPA's output and a needle's weights (:class:`peapp.model_run.probes.ProbeStrategy`);
- the streaming probe gives each query row its own cache (:class:`peapp.model_run.streaming.StreamingStrategy`);
- the NoPE temperature keeps the q and k of NoPE layers (:class:`peapp.model_run.temperature.Capture`);
- loading counts the calls (:class:`Counting`), and the LM head applied alone forbids them (:data:`FORBIDDEN`).

A strategy is any object with ``attend(call: AttentionCall) -> (output [1, n, H, d], None)``.
Its mask function (:func:`peapp_mask`) is registered with it, under the same name.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field
from typing import Any, Protocol

import torch

from peapp.errors import CheckpointError
from peapp.i18n import translate
from peapp.model_run.blocks import attend

ATTENTION_NAME = "peapp_blocks"
# the keyword argument of the model's forward that carries the strategy to every layer
STRATEGY = "peapp_strategy"
_installed = False


def install() -> None:
    """Register the function and its mask function (once); imports transformers, so only called
    when a model loads."""
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


@dataclass
class AttentionCall:
    """One layer's call of the attention function, read once for every strategy: the tensors as
    transformers passed them ([1, H, n, d]) and what the layer said about masking and scaling."""

    module: torch.nn.Module
    query: torch.Tensor
    key: torch.Tensor
    value: torch.Tensor
    mask: torch.Tensor | None  # the model's own mask (boolean), where peapp_mask kept one
    raw_mask: torch.Tensor | None  # as transformers passed it
    scaling: float | None  # as the layer passed it
    scale: float  # scaling, or 1/√d where the layer passed none
    causal: bool
    window: int | None  # the layer's sliding window, as passed
    softcap: float | None
    sinks: torch.Tensor | None  # gpt-oss: a learned sink logit per head (float32, detached)
    kwargs: dict[str, Any] = field(default_factory=dict)  # the rest, as passed (without the strategy)

    def exact(self, **extra: Any) -> torch.Tensor:
        """The exact output [1, n, H, d] of peapp's block attention (``extra``: attend()'s statistics)."""
        out = attend(self.query[0], self.key[0], self.value[0], scaling=self.scale, causal=self.causal,
                     window=self.window, softcap=self.softcap, extra_mask=self.mask, sinks=self.sinks, **extra)
        return out.unsqueeze(0)


class Strategy(Protocol):
    def attend(self, call: AttentionCall) -> tuple[torch.Tensor, None]: ...


class Exact:
    """The exact output, nothing else (no strategy given)."""

    def attend(self, call: AttentionCall) -> tuple[torch.Tensor, None]:
        return call.exact(), None


class Counting(Exact):
    """The exact output, each call's module appended to ``calls`` (which layers call the registry)."""

    def __init__(self) -> None:
        self.calls: list[torch.nn.Module] = []

    def attend(self, call: AttentionCall) -> tuple[torch.Tensor, None]:
        self.calls.append(call.module)
        return super().attend(call)


class _Forbidden:
    def attend(self, call: AttentionCall) -> tuple[torch.Tensor, None]:
        raise CheckpointError(translate("ModelRun", "this model's language-model class runs its layers again "
                                                    "after they ran; it cannot be run here."))


EXACT = Exact()
# a layer's attention call is an error (the LM head is being applied on its own)
FORBIDDEN = _Forbidden()


# StableLM's decoder layers drop the keyword arguments they get instead of passing them to their
# attention: for such a model (found when it loads) each layer hands the strategy it received on,
# for the length of its own call on this thread (contextvars are per thread), to the function.
_relayed: contextvars.ContextVar[Any] = contextvars.ContextVar("peapp_relayed_strategy", default=None)


def _relay_in(module, args, kwargs):
    _relayed.set(kwargs.get(STRATEGY))


def _relay_out(module, args, output):
    _relayed.set(None)


def relay_strategy(layers) -> list:
    """Hooks on each decoder layer of ``layers`` that hand the strategy of the layer's own call on
    to its attention (see above); returns the handles."""
    handles = []
    for layer in layers:
        handles.append(layer.register_forward_pre_hook(_relay_in, with_kwargs=True))
        handles.append(layer.register_forward_hook(_relay_out, always_call=True))
    return handles


def strategy_kwargs(loaded, strategy: Strategy) -> dict[str, Any]:
    """The forward keyword arguments that hand ``strategy`` to every layer of ``loaded``; none on
    the hooks route, whose attention modules do not call the registry."""
    return {} if getattr(loaded, "route", "") == "hooks" else {STRATEGY: strategy}


def peapp_attention(module: torch.nn.Module, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                    attention_mask: torch.Tensor | None, scaling: float | None = None, dropout: float = 0.0,
                    **kwargs: Any) -> tuple[torch.Tensor, None]:
    strategy = kwargs.pop(STRATEGY, None)
    if strategy is None:
        strategy = _relayed.get()
    if strategy is None:
        strategy = EXACT
    if query.shape[0] != 1:
        raise CheckpointError("peapp runs one sequence at a time (batch size 1).")
    sinks = kwargs.get("s_aux")
    if sinks is not None:
        sinks = sinks.detach().float()
    mask = attention_mask
    if mask is not None and mask.dtype != torch.bool and not mask.is_floating_point():
        mask = mask.bool()
    causal = kwargs.get("is_causal")
    if causal is None:
        causal = bool(getattr(module, "is_causal", True))
    if query.shape[2] == 1 and key.shape[2] == 1:
        causal = False
    call = AttentionCall(module=module, query=query, key=key, value=value, mask=mask, raw_mask=attention_mask,
                         scaling=scaling, scale=float(scaling) if scaling is not None else query.shape[-1] ** -0.5,
                         causal=bool(causal), window=kwargs.get("sliding_window"), softcap=kwargs.get("softcap"),
                         sinks=sinks, kwargs=kwargs)
    return strategy.attend(call)
