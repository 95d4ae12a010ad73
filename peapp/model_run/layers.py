"""Each layer's own position scheme, read from what the model's code does during a run.

**RoPE, as the family's code rotates.**  Every transformers family rotates q and k with a function
of its modeling module named ``apply_rotary…`` (rotate-half or interleaved pairs, partial rotary,
the rotary part first or last, YaRN's attention factor on cos/sin, complex ``freqs_cis``).  peapp
wraps those functions (once, per module; a wrapper only records while a run is active) and, when
a layer's q and k reach the attention function, finds the call whose output they contain: the
rotation's input is then q and k *before* rotation, exactly as the code had them; the slice of
the head dimension that was rotated and its pair layout (half: pairs j, j + r/2; interleaved:
2j, 2j + 1, found by which pairing keeps each pair's length) follow from the same pair.  A layer
whose q and k went through no rotation is NoPE (SmolLM3's and Llama 4's no-rope layers, Command
R7B's global layers).  The frequencies of a layer come from the model's rotary module for the
layer's type (Gemma 3 and ModernBERT keep one ``<type>_inv_freq`` per layer type) or, with none,
from the angle the rotation turned each pair by at position 1.

**Everything else per layer** is read from the layer's attention module and the config: its
``layer_types`` entry, sliding window (as the attention function received it), learned sinks
(gpt-oss ``s_aux``), Llama 4's attention-temperature tuning on NoPE layers, ALiBi (BLOOM, MPT,
Falcon with ``alibi``) and a learned absolute table at the input.
"""

from __future__ import annotations

import contextvars
import functools
import math
import sys
from dataclasses import dataclass
from typing import Any

import torch

_calls: contextvars.ContextVar[list | None] = contextvars.ContextVar("peapp_rotary_calls", default=None)
_WRAPPED = "__peapp_records__"


def _recording(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        calls = _calls.get()
        if calls is not None:
            calls.append((args, out))
        return out

    setattr(wrapper, _WRAPPED, True)
    return wrapper


def install_rotary_recording(model) -> None:
    """Wrap the ``apply_rotary…`` functions of every transformers modeling module ``model`` uses."""
    names = {type(m).__module__ for m in model.modules()}
    for name in names:
        if not name.startswith("transformers.models."):
            continue
        module = sys.modules.get(name)
        for attr in list(vars(module)) if module is not None else ():
            fn = getattr(module, attr)
            if attr.startswith("apply_rotary") and callable(fn) and not getattr(fn, _WRAPPED, False):
                setattr(module, attr, _recording(fn))


def start_recording():
    """Record rotations from now until :func:`stop_recording` (returns the token and the list)."""
    calls: list = []
    return _calls.set(calls), calls


def stop_recording(token) -> None:
    _calls.reset(token)


@dataclass
class Rotation:
    """How one layer's q and k were rotated: the unrotated q [H, n, d] and k [Hkv, n, d], the
    rotated slice [start, start + dims) of the head dimension, and its pair layout."""

    q0: torch.Tensor
    k0: torch.Tensor
    start: int
    dims: int
    layout: str  # "half" | "interleaved"
    inputs: tuple[torch.Tensor, torch.Tensor]  # the rotated slice before rotation: q part, k part
    outputs: tuple[torch.Tensor, torch.Tensor]  # and after


def _as_heads(t: torch.Tensor, heads: int, n: int) -> list[torch.Tensor]:
    """[1, h, n, r] or [1, n, h, r] (GPT-J, Llama 4 rotate before transposing) as [h, n, r]
    candidates; one head shared by every query head (DeepSeek's k_rot) is expanded."""
    if t.dim() != 4 or t.shape[0] != 1:
        return []
    out = []
    for x in (t[0], t[0].transpose(0, 1)):
        if x.shape[1] == n and x.shape[0] in (heads, 1):
            out.append(x.expand(heads, *x.shape[1:]))
    return out


def _find(x: torch.Tensor, pairs) -> tuple[torch.Tensor, int, int, torch.Tensor] | None:
    """The recorded (input, output) whose output is a leading or trailing slice of x [h, n, d]."""
    h, n, d = x.shape
    for inp, out in pairs:
        if not isinstance(inp, torch.Tensor) or not isinstance(out, torch.Tensor):
            continue
        for o, i in zip(_as_heads(out, h, n), _as_heads(inp, h, n)):
            r = o.shape[-1]
            if r > d or i.shape != o.shape:
                continue
            for start in {0, d - r}:
                if torch.equal(x[..., start:start + r], o.to(x.dtype)):
                    return i.to(x.dtype), start, r, o.to(x.dtype)
    return None


def _rotated_span(before: torch.Tensor, after: torch.Tensor) -> tuple[int, int]:
    """[first, stop) of the dims the rotation changed (GPT-NeoX and GLM pass the whole head to
    their rotation, which leaves the dims past rotary_ndims as they are)."""
    changed = (before != after).flatten(0, -2).any(0).nonzero().flatten()
    if changed.numel() == 0:
        return 0, 0
    first, stop = int(changed[0]), int(changed[-1]) + 1
    first -= first % 2
    stop += (stop - first) % 2
    return first, min(stop, before.shape[-1])


def _pairs_of(calls: list) -> list[tuple[Any, Any]]:
    pairs: list[tuple[Any, Any]] = []
    for args, out in calls:
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        outs = out if isinstance(out, tuple) else (out,)
        pairs.extend((tensors[j] if j < len(tensors) else None, o) for j, o in enumerate(outs))
    return pairs


def match_rotation(calls: list, q: torch.Tensor, k: torch.Tensor) -> Rotation | None:
    """The rotation that produced this layer's q and k (None: they were not rotated: NoPE)."""
    pairs = _pairs_of(calls)
    found_q, found_k = _find(q, pairs), _find(k, pairs)
    if found_q is None or found_k is None or found_q[1:3] != found_k[1:3]:
        return None
    (qi, start, r, qo), (ki, _, _, ko) = found_q, found_k
    q0, k0 = q.clone(), k.clone()
    q0[..., start:start + r] = qi
    k0[..., start:start + r] = ki
    a, b, layout = _span_and_layout(qi, qo)
    if b <= a:
        return None
    qi, qo, ki, ko = qi[..., a:b], qo[..., a:b], ki[..., a:b], ko[..., a:b]
    return Rotation(q0, k0, start + a, b - a, layout, (qi, ki), (qo, ko))


def _span_and_layout(before: torch.Tensor, after: torch.Tensor) -> tuple[int, int, str]:
    """The rotated dims and their pairing: the dims the rotation changed (GPT-NeoX and GLM pass
    the whole head and leave the dims past rotary_ndims alone) or the whole slice (Gemma 4's
    proportional RoPE turns some rotate-half pairs by a zero angle), whichever keeps each pair's
    length."""
    a, b = _rotated_span(before, after)
    if b <= a:
        return 0, 0, "half"
    layout, spread = _layout(before[..., a:b], after[..., a:b])
    whole = before.shape[-1]
    if spread > 1e-4 and (a, b) != (0, whole):
        other, other_spread = _layout(before, after)
        if other_spread < spread:
            return 0, whole, other
    return a, b, layout


def rotation_from_calls(calls: list, n: int) -> Rotation | None:
    """A layer's rotation from its recorded call alone (the hooks route sees no q and k): the
    first call's first two outputs are its q and k."""
    for args, out in calls:
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        if not (isinstance(out, tuple) and len(out) >= 2 and len(tensors) >= 2):
            continue
        qo, ko, qi, ki = out[0], out[1], tensors[0], tensors[1]
        if qo.dim() != 4 or qi.shape != qo.shape or ki.shape != ko.shape:
            continue
        if qo.shape[2] != n:  # [1, n, h, r]
            qo, qi, ko, ki = (t.transpose(1, 2) for t in (qo, qi, ko, ki))
        qi, qo, ki, ko = qi[0].float(), qo[0].float(), ki[0].float(), ko[0].float()
        a, b, layout = _span_and_layout(qi, qo)
        if b <= a:
            return None
        qi, qo, ki, ko = qi[..., a:b], qo[..., a:b], ki[..., a:b], ko[..., a:b]
        return Rotation(qi, ki, a, b - a, layout, (qi, ki), (qo, ko))
    return None


def _pair_norms(x: torch.Tensor, layout: str) -> torch.Tensor:
    x = x.double()
    if layout == "half":
        half = x.shape[-1] // 2
        a, b = x[..., :half], x[..., half:]
    else:
        a, b = x[..., 0::2], x[..., 1::2]
    return a * a + b * b


_LAYOUT_ROWS = 128  # positions the pairing is judged on (every rotated position keeps its pairs' lengths)


def _layout(before: torch.Tensor, after: torch.Tensor) -> tuple[str, float]:
    """Which pairing the rotation turned, and how far from exact: each rotated pair keeps its
    length (up to one common factor, YaRN's attention factor).  Judged on the first
    ``_LAYOUT_ROWS`` positions of [heads, n, dims]: on all of them this took a third of SmolLM2's
    run at 1,024 tokens (measured), and each position answers alike."""
    if before.dim() == 3 and before.shape[1] > _LAYOUT_ROWS:
        before, after = before[:, :_LAYOUT_ROWS], after[:, :_LAYOUT_ROWS]
    best, spread = "half", math.inf
    for layout in ("half", "interleaved"):
        nb, na = _pair_norms(before, layout), _pair_norms(after, layout)
        ok = nb > 1e-12 * float(nb.max().clamp_min(1e-30))
        ratio = na[ok] / nb[ok]
        value = float(ratio.std() / ratio.mean()) if ratio.numel() > 1 else math.inf
        if value < spread:
            best, spread = layout, value
    return best, spread


_USAGE_ROWS = 512  # tokens per float64 pass of pair_usage: the whole of 8,192 was 95 MB per layer


def _mean_pair_norm(x: torch.Tensor, layout: str) -> torch.Tensor:
    """[h, r/2]: mean over the tokens of x [h, n, r] of each pair's length, in float64, a few
    hundred tokens at a time."""
    total = torch.zeros(x.shape[0], x.shape[-1] // 2, dtype=torch.float64, device=x.device)
    for start in range(0, x.shape[1], _USAGE_ROWS):
        total += _pair_norms(x[:, start:start + _USAGE_ROWS], layout).sqrt_().sum(1)
    return total / max(1, x.shape[1])


def pair_usage(x_q: torch.Tensor, x_k: torch.Tensor, layout: str) -> torch.Tensor:
    """[H, r/2]: mean over tokens of ‖q pair‖ × mean over tokens of ‖k pair‖ of the rotated slices."""
    qn = _mean_pair_norm(x_q, layout)
    kn = _mean_pair_norm(x_k, layout)
    if kn.shape[0] != qn.shape[0]:
        kn = kn.repeat_interleave(qn.shape[0] // kn.shape[0], dim=0)
    return (qn * kn).float()


def measured_frequencies(rotation: Rotation) -> torch.Tensor:
    """Each pair's angle per position, from how far the rotation turned it at position 1."""
    qi, qo = rotation.inputs[0], rotation.outputs[0]
    if qi.shape[1] < 2:
        return torch.zeros(qi.shape[-1] // 2)

    def pairs(x):
        x = x[:, 1].double()
        if rotation.layout == "half":
            half = x.shape[-1] // 2
            return torch.complex(x[..., :half], x[..., half:])
        return torch.complex(x[..., 0::2], x[..., 1::2])

    turn = pairs(qo) * pairs(qi).conj()  # angle of each head's pair turn; the heads agree
    return torch.angle(turn.sum(0)).abs().float()


def no_cache(module) -> dict[str, Any]:
    """``use_cache=False`` where ``module``'s forward takes it: a run reads every layer's k and v
    once, and a KV cache would keep them all to its end (SmolLM2 at 8,192 tokens: 377 MB in float32)."""
    import inspect

    try:  # the class's forward: a run may have wrapped the instance's (runner.head_logits)
        parameters = inspect.signature(type(module).forward).parameters
    except (TypeError, ValueError):
        return {}
    return {"use_cache": False} if "use_cache" in parameters else {}


def rotary_modules(model) -> list:
    """Modules holding RoPE frequencies (``inv_freq`` or one ``<layer type>_inv_freq`` per type)."""
    found = []
    for _name, module in model.named_modules():
        own = list(module._buffers)
        if "inv_freq" in own or any(b.endswith("_inv_freq") and not b.endswith("original_inv_freq") for b in own):
            found.append(module)
    return found


def frequencies_for(model, layer_type: str | None) -> torch.Tensor | None:
    """The model's own inverse frequencies for a layer of ``layer_type`` (None: none found)."""
    for module in rotary_modules(model):
        if layer_type is not None and f"{layer_type}_inv_freq" in module._buffers:
            return module._buffers[f"{layer_type}_inv_freq"].detach().float().cpu()
    for module in rotary_modules(model):
        if "inv_freq" in module._buffers:
            return module._buffers["inv_freq"].detach().float().cpu()
    return None


def layer_types(config) -> list[str] | None:
    types = getattr(config, "layer_types", None)
    return [str(t) for t in types] if isinstance(types, (list, tuple)) else None


def rope_parameters_for(config, layer_type: str | None) -> dict[str, Any]:
    """rope_parameters of a layer type (5.x: one dict per type, or one for all)."""
    params = getattr(config, "rope_parameters", None)
    if not isinstance(params, dict):
        return {}
    if layer_type is not None and isinstance(params.get(layer_type), dict):
        return dict(params[layer_type])
    if all(isinstance(v, dict) for v in params.values()) and params:
        return {}
    return dict(params)


def uses_alibi(config) -> bool:
    from peapp import model_types

    return model_types.get(config.model_type).scheme == "alibi" or bool(getattr(config, "alibi", False))


def temperature_tuned(module) -> bool:
    """Llama 4: q scaled by a log-position factor on its NoPE layers."""
    return bool(getattr(module, "attn_temperature_tuning", False)) and not bool(getattr(module, "use_rope", True))


def trunk(model):
    """The model under the LM head (``model.model``, ``model.transformer``, …): ``base_model``,
    or the decoder where base_model_prefix names no attribute (Llama 4's language_model)."""
    base = model.base_model
    if base is model:
        for name in ("model", "transformer", "language_model", "decoder"):
            child = getattr(model, name, None)
            if isinstance(child, torch.nn.Module) and child is not model:
                return child
    return base
