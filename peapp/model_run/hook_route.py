"""The second route: families whose transformers attention does not go through the registry.

BLOOM, MPT and Falcon compute attention inside their own modules (ALiBi added to the logits there)
and their classes do not support attention backends (StableLM's class does not declare it either,
but its layers call the registry, so it runs through peapp's attention function).
Their eager attention modules return the softmax weights of the whole layer, [1, H, n, n]; a
forward hook on each of them takes those weights, adds them to the same statistics, pooled maps
and thumbnails as :func:`peapp.model_run.blocks.attend` (row block by row block, with the same
functions) and hands the layer on without them, so one layer's weights are held at a time.
What the route costs is said before running (:func:`route_bytes`) and counted in the run's memory
check; the run's JSON names the route.  The position-vs-content term needs q and k, which this
route does not see (the run says so).
"""

from __future__ import annotations

from typing import Any

import torch

from peapp.errors import ParameterError
from peapp.i18n import translate
from peapp.model_run.blocks import LayerPlan, LayerStats, _add_stats, _add_to, _pool
from peapp.model_run.layers import pair_usage, rotation_from_calls, trunk

_ATTENTION_NAMES = ("self_attention", "self_attn", "attn", "attention")
_ROWS = 256


def decoder_layers(model) -> torch.nn.ModuleList:
    """The model's decoder (or encoder) layers, in order."""
    base = trunk(model)
    for name in ("h", "blocks", "layers"):
        layers = getattr(base, name, None)
        if isinstance(layers, torch.nn.ModuleList):
            return layers
    raise ParameterError(translate("ModelRun", "cannot find the layers of {model}; it cannot be run here.").format(
        model=type(base).__name__))


def attention_modules(model) -> list:
    """Each decoder layer's attention module, in layer order."""
    layers = decoder_layers(model)
    found = []
    for layer in layers:
        for name in _ATTENTION_NAMES:
            module = getattr(layer, name, None)
            if isinstance(module, torch.nn.Module):
                found.append(module)
                break
        else:
            raise ParameterError(translate("ModelRun", "cannot find the attention of {layer}; it cannot be run "
                                                       "here.").format(layer=type(layer).__name__))
    return found


def route_bytes(config, n: int) -> int:
    """What the hooks route holds beyond a plain forward pass: one layer's logits and weights
    (the model's own, float32) and a block of them while the statistics are added."""
    heads = int(getattr(config, "num_attention_heads", None) or getattr(config, "n_head", None)
                or getattr(config, "n_heads", None) or 1)
    return 3 * heads * n * n * 4


class HookRoute:
    """Forward hooks on every attention module of ``loaded`` feeding ``session`` (see the module)."""

    def __init__(self, loaded, session):
        self.session = session
        self.handles: list[Any] = []
        session.route_memory = route_bytes(loaded.config, session.n)
        for index, module in enumerate(attention_modules(loaded.model)):
            self.handles.append(module.register_forward_pre_hook(self._ask_weights, with_kwargs=True))
            self.handles.append(module.register_forward_hook(self._make_hook(index)))

    @staticmethod
    def _ask_weights(module, args, kwargs):
        if "output_attentions" in kwargs:  # BLOOM, Falcon: the weights come back only when asked
            kwargs = dict(kwargs, output_attentions=True)
            return args, kwargs
        return None

    def _make_hook(self, layer: int):
        def hook(module, args, output):
            weights = output[1] if isinstance(output, tuple) and len(output) > 1 else None
            if not isinstance(weights, torch.Tensor) or weights.dim() != 4:
                raise ParameterError(translate("ModelRun", "layer {layer}'s attention returned no weights; this "
                                                           "model cannot be run here.").format(layer=layer))
            self.add_layer(layer, module, weights[0])
            return (output[0], None, *output[2:])

        return hook

    def add_layer(self, layer: int, module, weights: torch.Tensor) -> None:
        """The statistics of one layer's weights [H, n, n] (rows: queries)."""
        session = self.session
        heads, n, _ = weights.shape
        causal = bool(getattr(module, "is_causal", True))
        calls = session.rope_calls or []
        rotation = rotation_from_calls(calls, n) if calls else None
        session.describe_layer(layer, module, causal, None, rotation=rotation, rotated=bool(calls))
        if rotation is not None:
            session.rope_usage[layer] = pair_usage(*rotation.outputs, rotation.layout).cpu().numpy()
        if session.rope_calls is not None:
            session.rope_calls.clear()
        session.causal_of[layer] = (causal, None)
        stats = session.stats[layer] = LayerStats(n, heads)
        plan = LayerPlan()
        if session.thumb_req is not None:
            plan.maps.append(session.thumb_req)
        if layer == session.options.layer:
            plan.maps.append(session.map_req)
        for r0 in range(0, n, _ROWS):
            probs = weights[:, r0:r0 + _ROWS].float().contiguous()
            entropy = -torch.where(probs > 0, probs * probs.log(), torch.zeros((), dtype=probs.dtype)).sum(-1)
            _add_stats(stats, probs, entropy, r0, 0, n)
            for req in plan.maps:
                pooled = _pool(probs if req.heads == tuple(range(heads)) else probs[list(req.heads)], r0, 0, req)
                if pooled is not None:
                    _add_to(stats.maps, req, pooled)
            session.check(layer, min(1.0, (r0 + _ROWS) / n))

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()
        self.handles.clear()


class WeightShares:
    """For the probes on the hooks route: each layer's weight on ``span`` from the chosen query
    ``rows``, taken from the weights the model's own attention returns (into ``shares``)."""

    def __init__(self, model, rows, span: tuple[int, int], shares: dict):
        self.rows, self.span, self.shares = list(rows), span, shares
        self.handles: list[Any] = []
        for index, module in enumerate(attention_modules(model)):
            self.handles.append(module.register_forward_pre_hook(HookRoute._ask_weights, with_kwargs=True))
            self.handles.append(module.register_forward_hook(self._make_hook(index)))

    def _make_hook(self, layer: int):
        def hook(module, args, output):
            weights = output[1] if isinstance(output, tuple) and len(output) > 1 else None
            if not isinstance(weights, torch.Tensor) or weights.dim() != 4:
                raise ParameterError(translate("ModelRun", "layer {layer}'s attention returned no weights; this "
                                                           "model cannot be run here.").format(layer=layer))
            self.shares[layer] = weights[0][:, self.rows, self.span[0]:self.span[1]].float().sum(-1).cpu()
            return (output[0], None, *output[2:])

        return hook

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
