"""Every layer's own position scheme, read from a config or GGUF metadata: the per-layer map.

Models of 2025–26 mix layer types: Gemma 2/3/4, ModernBERT, gpt-oss and Cohere2 alternate
sliding-window and global layers (Gemma 3 and ModernBERT with a RoPE base per type), SmolLM3 and
Llama 4 leave every fourth layer without RoPE (Llama 4 then tunes those layers' query
temperature), gpt-oss adds a learned sink logit per head.  One :class:`LayerMap` says, per
layer: the position scheme (RoPE with its base, scaling, rotary dims and pair layout; NoPE; or
the model-wide scheme of the input), the attention span (global, a sliding window, chunks),
learned sinks and temperature tuning.  ``peapp inspect``, the Checkpoint panel and the memory
estimate read it; the run code can too::

    lm = layer_map_from_config(config_dict)          # a config.json dict (4.x or 5.x spellings)
    lm = layer_map_from_gguf(metadata)              # GGUF metadata keys
    lm.layers[5].rope.theta, lm.layers[0].window    # 1e6, 512 for Gemma 3
    [g.indices for g in lm.groups()]                # layers with identical schemes, together
    lm.lines()                                      # "layers 0–4, 6–10, 12–16: RoPE base 10,000 …"
    lm.attention_memory(length=8192, kv_heads=1, head_dim=256, dtype_bytes=2)

Key spellings read (transformers 5.x and 4.x): ``layer_types``; ``sliding_window``,
``sliding_window_pattern`` / ``_sliding_window_pattern`` (Gemma 3, Cohere2), Gemma 2's every
other layer, ModernBERT's ``global_attn_every_n_layers`` / ``local_attention``, Qwen2's
``use_sliding_window`` / ``max_window_layers``; ``rope_parameters`` per layer type (5.x) and
``rope_local_base_freq`` / ``global_rope_theta`` / ``local_rope_theta`` (4.x, through
:func:`peapp.checkpoints.hf_config.modernised`); ``no_rope_layers`` / ``no_rope_layer_interval``;
``attention_chunk_size``; ``attn_temperature_tuning`` / ``attn_scale`` / ``floor_scale``;
``partial_rotary_factor`` / ``rotary_dim`` / ``rotary_pct``; the interleaved pair layout.
From GGUF: ``{arch}.attention.sliding_window``, ``{arch}.attention.sliding_window_pattern``
(a number, or one bool per layer: true = sliding), ``{arch}.rope.freq_base_swa`` and, when a
file leaves them out, the values llama.cpp builds the architecture with (:data:`GGUF_SWA`).
Torch-free and Qt-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Sequence

from peapp import model_types
from peapp.checkpoints import hf_config, rope_config
from peapp.errors import CheckpointError
from peapp.file_values import MAX_LENGTH, number
from peapp.i18n import msg, shown, translate

# Layer types that carry no position encoding of their own (linear attention, state-space, conv).
POSITIONLESS_LAYER_TYPES = {"linear_attention", "mamba", "mamba2", "conv", "recurrent", "ssm", "deltanet"}
# GGUF architectures with sliding-window layers, as llama.cpp builds them when the file leaves
# the keys out: (period of the pattern, the sliding layers' RoPE base or None for the same base,
# are the full-attention layers NoPE).  Layer i is sliding when i % period < period − 1.
GGUF_SWA = {"gemma2": (2, None, False), "gemma3": (6, 10_000.0, False), "gemma3n": (5, 10_000.0, False),
            "cohere2": (4, None, True), "gpt-oss": (2, None, False)}
GGUF_SINK_ARCHS = {"gpt-oss"}
# Model-wide schemes as a layer shows them
_SCHEME_TEXT = {"learned_absolute": msg("LayerMap", "learned absolute (added at the input)"),
                "sinusoidal": msg("LayerMap", "fixed sinusoids (added at the input)"),
                "alibi": msg("LayerMap", "ALiBi (distance bias per head)"),
                "t5_relative_bias": msg("LayerMap", "T5 relative bias"),
                "shaw_relative": msg("LayerMap", "Shaw relative positions"),
                "vision_learned_2d": msg("LayerMap", "2-D patch table (added at the input)"),
                "relative_bias_2d": msg("LayerMap", "2-D relative bias over the patch grid")}
_LAYER_KEYS = ("num_hidden_layers", "n_layer", "num_layers", "n_layers")
_MAX_LAYERS = 1 << 16


@dataclass(frozen=True)
class RopeLayer:
    """A RoPE layer's frequencies as the model computes them."""

    theta: float
    rope_type: str  # "default", "linear", "yarn", "llama3", "longrope", "dynamic", "proportional" …
    head_dim: int | None
    rotary_dim: int | None
    layout: str  # "half" (i, i + d/2) | "interleaved" (2i, 2i + 1) | "unknown"
    scaling: Mapping[str, Any] = field(default_factory=dict)  # factor, beta_fast, … (not the type)
    scaling_problem: str | None = None  # why the scaling cannot be used as written (hf_config.scaling_problem)

    def to_json(self) -> dict[str, Any]:
        out = {"rope_theta": self.theta, "rope_type": self.rope_type, "head_dim": self.head_dim,
               "rotary_dim": self.rotary_dim, "layout": self.layout, "scaling": _plain(self.scaling)}
        if self.scaling_problem:
            out["scaling_problem"] = self.scaling_problem
        return out


@dataclass(frozen=True)
class Temperature:
    """Llama 4's query temperature on NoPE layers: q × (log1p(floor((pos + 1) / floor_scale)) · attn_scale + 1)."""

    attn_scale: float
    floor_scale: int

    def at(self, position: int) -> float:
        import math
        return math.log1p((position + 1) // self.floor_scale) * self.attn_scale + 1.0


@dataclass(frozen=True)
class LayerScheme:
    """One layer: its position scheme and what its attention sees.

    ``position``: "rope", "nope" (attention without a position term), "none" (no attention:
    a state-space, convolution or linear-attention layer) or the model-wide scheme given at the
    input or in every layer ("learned_absolute", "sinusoidal", "alibi", "t5_relative_bias" …).
    ``window``: a sliding window (a causal query sees its last ``window`` keys, itself included;
    ``both_sides``: a bidirectional layer sees ``window`` keys on each side); None = global.
    """

    index: int
    position: str
    layer_type: str | None = None  # as the config names it ("sliding_attention", "full_attention" …)
    rope: RopeLayer | None = None
    window: int | None = None
    both_sides: bool = False
    chunk: int | None = None  # chunked attention (Llama 4): keys only within the query's chunk
    sinks: bool = False  # one learned sink logit per head in the softmax denominator
    temperature: Temperature | None = None

    @property
    def span(self) -> str:
        """"sliding", "chunked", "global" or "none"."""
        if self.position == "none":
            return "none"
        return "sliding" if self.window else "chunked" if self.chunk else "global"

    def keys_held(self, length: int) -> int:
        """How many keys (and values) a query of this layer can see at most, at ``length`` tokens."""
        if self.position == "none":
            return 0
        if self.window:
            return min(length, self.window * (2 if self.both_sides else 1) + (1 if self.both_sides else 0))
        if self.chunk:
            return min(length, self.chunk)
        return length

    def key(self) -> tuple:
        rope = None if self.rope is None else (self.rope.theta, self.rope.rope_type, self.rope.head_dim,
                                               self.rope.rotary_dim, self.rope.layout, repr(sorted(
                                                   self.rope.scaling.items())))
        return (self.position, self.layer_type, rope, self.window, self.both_sides, self.chunk, self.sinks,
                self.temperature)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"layer": self.index, "layer_type": self.layer_type, "position": self.position,
                               "attention": self.span, "window": self.window, "chunk": self.chunk,
                               "sinks": self.sinks,
                               "rope": self.rope.to_json() if self.rope else None,
                               "temperature": None if self.temperature is None else
                               {"attn_scale": self.temperature.attn_scale,
                                "floor_scale": self.temperature.floor_scale}}
        if self.window and self.both_sides:
            out["window_each_side"] = True
        return out

    def describe(self) -> str:
        """One readable phrase: "RoPE base 10,000, sliding window 512"."""
        parts = []
        if self.position == "rope" and self.rope is not None:
            r = self.rope
            text = translate("LayerMap", "RoPE base {base}").format(base=_num(r.theta))
            if r.scaling_problem:
                text += " " + translate("LayerMap", "(unusable {kind} scaling)").format(kind=r.rope_type)
            elif r.rope_type != "default":
                factor = r.scaling.get("factor")
                text += " " + (translate("LayerMap", "{kind} ×{factor}").format(kind=r.rope_type, factor=f"{factor:g}")
                               if isinstance(factor, (int, float)) and not isinstance(factor, bool) else r.rope_type)
            if r.rotary_dim and r.head_dim and r.rotary_dim != r.head_dim:
                text += ", " + translate("LayerMap", "{rotated} of {dims} dims rotate").format(
                    rotated=r.rotary_dim, dims=r.head_dim)
            if r.layout == "interleaved":
                text += ", " + translate("LayerMap", "interleaved pairs")
            parts.append(text)
        elif self.position == "nope":
            parts.append(translate("LayerMap", "NoPE (no position term)"))
        elif self.position == "none":
            parts.append(translate("LayerMap", "no attention ({kind})").format(kind=self.layer_type))
        else:
            parts.append(shown(_SCHEME_TEXT[self.position]) if self.position in _SCHEME_TEXT else self.position)
        if self.position != "none":
            if self.window:
                parts.append((translate("LayerMap", "sliding window ±{n}") if self.both_sides else
                              translate("LayerMap", "sliding window {n}")).format(n=f"{self.window:,}"))
            elif self.chunk:
                parts.append(translate("LayerMap", "chunks of {n}").format(n=f"{self.chunk:,}"))
            else:
                parts.append(translate("LayerMap", "global"))
        if self.sinks:
            parts.append(translate("LayerMap", "learned sinks"))
        if self.temperature is not None:
            parts.append(translate("LayerMap", "temperature tuning (×{scale} per {floor} tokens)").format(
                scale=f"{self.temperature.attn_scale:g}", floor=f"{self.temperature.floor_scale:,}"))
        return ", ".join(parts)


@dataclass(frozen=True)
class LayerGroup:
    """Layers whose schemes are the same (the scheme of the first stands for all)."""

    indices: tuple[int, ...]
    scheme: LayerScheme

    @property
    def ranges(self) -> str:
        return layer_ranges(self.indices)


@dataclass(frozen=True)
class LayerMemory:
    """Attention memory of one group of layers at one length (see :meth:`LayerMap.attention_memory`)."""

    group: LayerGroup
    keys_held: int  # keys a query sees at most
    kv_bytes: int  # K and V cache of all layers in the group
    scores_bytes: int  # one layer's float32 attention weights for every head (eager attention)


@dataclass(frozen=True)
class LayerMap:
    """Every layer's scheme, where it was read, and notes on how."""

    layers: tuple[LayerScheme, ...]
    source: str  # "config.json" / "GGUF metadata"
    keys: tuple[str, ...] = ()  # the keys it was read from
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.layers)

    @property
    def mixed(self) -> bool:
        """More than one kind of layer."""
        return len(self.groups()) > 1

    def groups(self) -> list[LayerGroup]:
        """Layers with identical schemes together, in the order each first appears."""
        found: dict[tuple, list[int]] = {}
        first: dict[tuple, LayerScheme] = {}
        for layer in self.layers:
            k = layer.key()
            found.setdefault(k, []).append(layer.index)
            first.setdefault(k, layer)
        return [LayerGroup(tuple(ix), first[k]) for k, ix in found.items()]

    def lines(self) -> list[str]:
        """One line per group: "layers 0–4, 6–10, 12–16 (15): RoPE base 10,000, sliding window 512"."""
        return [translate("LayerMap", "layers {ranges} ({n}): {scheme}").format(
            ranges=g.ranges, n=len(g.indices), scheme=g.scheme.describe()) for g in self.groups()]

    def attention_memory(self, length: int, kv_heads: int, head_dim: int | None, heads: int | None = None,
                         dtype_bytes: int = 2) -> list[LayerMemory]:
        """Per group: the K/V cache at ``length`` tokens (a sliding window or chunk bounds what a
        layer holds) and one layer's eager attention weights (``heads`` × length × keys, float32)."""
        out = []
        for g in self.groups():
            held = g.scheme.keys_held(length)
            dim = (g.scheme.rope.head_dim if g.scheme.rope and g.scheme.rope.head_dim else head_dim) or 0
            kv = len(g.indices) * 2 * kv_heads * dim * held * dtype_bytes
            scores = (heads or kv_heads) * length * held * 4
            out.append(LayerMemory(g, held, kv, scores))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "keys": list(self.keys), "notes": list(self.notes),
                "groups": [{"layers": list(g.indices), "text": g.scheme.describe()} for g in self.groups()],
                "layers": [layer.to_json() for layer in self.layers]}


def layer_ranges(indices: Sequence[int], most: int = 8) -> str:
    """"0–4, 6–10, 12–16" (runs of consecutive layers; more than ``most`` runs end in "…")."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and i == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    text = [f"{a}" if a == b else f"{a}–{b}" for a, b in runs]
    return ", ".join(text[:most]) + (", …" if len(text) > most else "")


# ---- config.json -----------------------------------------------------------------------------

def language_config(cfg: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    """(the language model's settings, where): a composite model's text_config when its top level
    has no layer count of its own."""
    text = cfg.get("text_config")
    if isinstance(text, Mapping) and not any(cfg.get(k) is not None for k in _LAYER_KEYS):
        merged = {**text}
        if not merged.get("model_type"):
            merged["model_type"] = cfg.get("model_type")
        return merged, "config.json text_config"
    return cfg, "config.json"


def uses_rope(cfg: Mapping[str, Any]) -> bool:
    """Does the config say RoPE at all (its keys or a rotary position type)?"""
    return (any(cfg.get(k) is not None for k in hf_config.ROPE_KEYS)
            or "rotary" in (cfg.get("position_embedding_type"), cfg.get("position_embeddings_type")))


def layer_map_from_config(cfg: Mapping[str, Any], rope_params: Sequence[Mapping[str, Any]] | None = None,
                          model_scheme: str | None = None, tensor_names: Iterable[str] = ()) -> LayerMap | None:
    """The per-layer map of a Hugging Face config (None when it gives no layer count).

    ``rope_params``: the RoPE settings already read (``rope_config.hf_rope_params``, one per layer
    type); read here when None and the config names RoPE.  ``model_scheme``: the model-wide scheme
    of a model without RoPE ("alibi", "learned_absolute" …), shown on every attention layer.
    ``tensor_names``: to find learned sinks by name (``…self_attn.sinks``).  Raises
    :class:`CheckpointError` when a value read here is unusable.
    """
    cfg, where = language_config(cfg)
    model_type = hf_config.canonical_model_type(cfg)
    cfg, notes_ = hf_config.modernised(cfg)
    notes = list(notes_)
    keys: list[str] = []
    n, kinds = _layer_count_and_types(cfg, model_type, where, keys, notes)
    if n is None:
        return None
    if rope_params is None:
        rope_params = rope_config.hf_rope_params({**cfg, "model_type": model_type}) if uses_rope(cfg) else []
    by_type = {p.get("layer_type"): _rope_layer(p) for p in rope_params}
    given = cfg.get("rope_parameters")
    per_type_rope: Mapping[str, Any] = given if isinstance(given, Mapping) else {}

    if per_type_rope:
        keys.append("rope_parameters")
    rope_flags = _rope_flags(cfg, model_type, n, keys)
    window = _window(cfg, model_type, where, keys)
    both_sides = model_type in ("modernbert",) or "local_attention" in keys
    chunk = None
    if cfg.get("attention_chunk_size") is not None and any(k == "chunked_attention" for k in kinds if k):
        chunk = number(cfg["attention_chunk_size"], "attention_chunk_size", where=where, integer=True, minimum=1,
                       maximum=MAX_LENGTH)
        keys.append("attention_chunk_size")
    temperature = _temperature(cfg, model_type, where, keys)
    sink_layers = _sink_layers(model_type, tensor_names, n, keys)

    layers = []
    for i in range(n):
        kind = kinds[i] if kinds else None
        rope = by_type[None] if None in by_type else by_type.get(kind)  # one setting, or the type's own
        if kind in POSITIONLESS_LAYER_TYPES:
            position = "none"
        elif rope is not None and (rope_flags[i] and not (kind is not None and kind in per_type_rope
                                                             and per_type_rope[kind] is None)
                                   and not (model_types.get(model_type).nope_full_attention
                                            and kind == "full_attention")):
            position = "rope"
        elif by_type:
            position = "nope"
        else:
            position = model_scheme or "nope"
        sliding = window is not None and (kind == "sliding_attention" if kinds else True)
        layers.append(LayerScheme(
            index=i, position=position, layer_type=kind, rope=rope if position == "rope" else None,
            window=window if sliding and position != "none" else None, both_sides=both_sides and sliding,
            chunk=chunk if kind == "chunked_attention" else None, sinks=i in sink_layers,
            temperature=temperature if position == "nope" else None))
    if kinds and any(k == "sliding_attention" for k in kinds) and window is None:
        notes.append("layer_types names sliding_attention layers but the config gives no sliding_window; "
                     "they are shown as global.")
    return LayerMap(tuple(layers), where, tuple(dict.fromkeys(keys)), tuple(notes))


def _layer_count_and_types(cfg, model_type, where, keys, notes) -> tuple[int | None, list[str | None]]:
    count = next((cfg[k] for k in _LAYER_KEYS if cfg.get(k) is not None), None)
    n = None
    if count is not None:
        count_key = next(k for k in _LAYER_KEYS if cfg.get(k) is not None)
        n = number(count, count_key, where=where, integer=True, minimum=1, maximum=_MAX_LAYERS)
    given = cfg.get("layer_types")
    if isinstance(given, list) and given and all(isinstance(k, str) for k in given):
        keys.append("layer_types")
        if n is not None and len(given) != n:
            notes.append(f"layer_types lists {len(given)} layers but the model has {n}; the first "
                         f"{min(n, len(given))} are shown.")
            given = given[:n]
        return (n or len(given)), list(given)
    if given is not None:
        raise CheckpointError(f"{where}: layer_types must be a list of names such as \"sliding_attention\", got "
                              f"{type(given).__name__}; fix the value in the file.")
    if n is None:
        return None, []
    # 4.x-era files: each family's own rule (transformers' config classes)
    period = model_types.get(model_type).sliding_period
    if period is not None:
        pattern_key = next((k for k in ("sliding_window_pattern", "_sliding_window_pattern")
                            if cfg.get(k) is not None), None)
        if pattern_key is not None:
            period = number(cfg[pattern_key], pattern_key, where=where, integer=True, minimum=1, maximum=_MAX_LAYERS)
            keys.append(pattern_key)
        kinds: list[str | None] = ["sliding_attention" if (i + 1) % period else "full_attention" for i in range(n)]
        if model_type.startswith("gemma4"):
            kinds[-1] = "full_attention"  # transformers makes the last layer global
        return n, kinds
    if model_type in ("modernbert", "modernbert-decoder"):
        every = 3
        if cfg.get("global_attn_every_n_layers") is not None:
            every = number(cfg["global_attn_every_n_layers"], "global_attn_every_n_layers", where=where,
                           integer=True, minimum=1, maximum=_MAX_LAYERS)
            keys.append("global_attn_every_n_layers")
        return n, ["sliding_attention" if i % every else "full_attention" for i in range(n)]
    if model_type in ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe") and cfg.get("use_sliding_window") is True \
            and cfg.get("sliding_window") is not None:
        first = cfg.get("max_window_layers")
        first = 0 if first is None else number(first, "max_window_layers", where=where, integer=True, minimum=0,
                                                maximum=_MAX_LAYERS)
        keys += ["use_sliding_window", "max_window_layers"]
        return n, ["sliding_attention" if i >= first else "full_attention" for i in range(n)]
    if model_type in ("llama4", "llama4_text"):
        flags = _rope_flags(cfg, model_type, n, [])
        chunked = cfg.get("attention_chunk_size", 8192) is not None
        return n, ["chunked_attention" if f and chunked else "full_attention" for f in flags]
    return n, []


def _rope_flags(cfg, model_type, n, keys) -> list[bool]:
    """Per layer: does it apply RoPE (no_rope_layers: 1 = RoPE, 0 = NoPE; or the interval rule)."""
    flags = cfg.get("no_rope_layers")
    if isinstance(flags, list) and flags:
        keys.append("no_rope_layers")
        out = [bool(f) for f in flags[:n]]
        return out + [True] * (n - len(out))
    if model_types.get(model_type).nope_interval:
        interval = cfg.get("no_rope_layer_interval", 4)
        interval = number(interval, "no_rope_layer_interval", integer=True, minimum=1, maximum=_MAX_LAYERS)
        keys.append("no_rope_layer_interval")
        return [bool((i + 1) % interval) for i in range(n)]
    return [True] * n


def _window(cfg, model_type, where, keys) -> int | None:
    if model_type in ("modernbert", "modernbert-decoder"):
        span = cfg.get("local_attention", 128)
        span = number(span, "local_attention", where=where, integer=True, minimum=2, maximum=MAX_LENGTH)
        keys.append("local_attention")
        return span // 2  # transformers: a half window on each side
    if cfg.get("use_sliding_window") is False or cfg.get("sliding_window") is None:
        return None
    known = model_types.get(model_type)
    if cfg.get("layer_types") is None and not known.window_everywhere and known.sliding_period is None \
            and model_type not in ("qwen2", "qwen3"):
        return None  # a sliding_window key this family's attention does not use
    keys.append("sliding_window")
    return number(cfg["sliding_window"], "sliding_window", where=where, integer=True, minimum=1, maximum=MAX_LENGTH)


def _temperature(cfg, model_type, where, keys) -> Temperature | None:
    if not model_types.get(model_type).temperature or cfg.get("attn_temperature_tuning", True) is False:
        return None
    keys += ["attn_temperature_tuning", "attn_scale", "floor_scale"]
    scale = number(cfg.get("attn_scale", 0.1), "attn_scale", where=where, minimum=0, maximum=1e6)
    floor = number(cfg.get("floor_scale", 8192), "floor_scale", where=where, integer=True, minimum=1,
                   maximum=MAX_LENGTH)
    return Temperature(scale, floor)


_SINK_NAME = re.compile(r"(?:^|\.)(?:layers|h|blk)\.(\d+)\.(?:self_attn\.sinks|attn_sinks(?:\.weight)?)$")


def _sink_layers(model_type, tensor_names, n, keys) -> set[int]:
    found = {int(m.group(1)) for name in tensor_names if (m := _SINK_NAME.search(name))}
    if found:
        return found
    if model_types.get(model_type).learned_sinks:
        return set(range(n))
    return set()


def _rope_layer(p: Mapping[str, Any]) -> RopeLayer:
    return RopeLayer(theta=float(p["rope_theta"]), rope_type=str(p.get("rope_type") or "default"),
                     head_dim=p.get("head_dim"), rotary_dim=p.get("rotary_dim"), layout=str(p.get("layout")),
                     scaling=dict(p.get("scaling") or {}), scaling_problem=p.get("scaling_problem"))


# ---- GGUF metadata --------------------------------------------------------------------------

def layer_map_from_gguf(md: Mapping[str, Any], rope_params: Mapping[str, Any] | None = None,
                        model_scheme: str | None = None, tensor_names: Iterable[str] = ()) -> LayerMap | None:
    """The per-layer map of GGUF metadata (None without ``general.architecture`` / a block count).

    ``rope_params``: the full-attention layers' RoPE (``rope_config.gguf_rope_params``), read here
    when None and the architecture is a RoPE one.  Raises :class:`CheckpointError` on unusable values.
    """
    arch = md.get("general.architecture")
    if not isinstance(arch, str) or md.get(f"{arch}.block_count") is None:
        return None
    where = "GGUF metadata"
    n = number(md[f"{arch}.block_count"], f"{arch}.block_count", where=where, integer=True, minimum=1,
               maximum=_MAX_LAYERS)
    keys = [f"{arch}.block_count"]
    notes: list[str] = []
    if rope_params is None and (arch in rope_config.GGUF_NORM_ARCHS | rope_config.GGUF_NEOX_ARCHS
                                or any(str(k).startswith(f"{arch}.rope.") for k in md)):
        rope_params = rope_config.gguf_rope_params(md, arch)
    full = _rope_layer(rope_params) if rope_params else None
    period, local_base, nope_full = GGUF_SWA.get(arch, (None, None, False))
    window = md.get(f"{arch}.attention.sliding_window")
    if window is not None:
        window = number(window, f"{arch}.attention.sliding_window", where=where, integer=True, minimum=1,
                        maximum=MAX_LENGTH)
        keys.append(f"{arch}.attention.sliding_window")
    pattern = md.get(f"{arch}.attention.sliding_window_pattern")
    sliding: list[bool]
    if isinstance(pattern, list):
        keys.append(f"{arch}.attention.sliding_window_pattern")
        sliding = [bool(x) for x in pattern[:n]] + [False] * max(0, n - len(pattern))
    else:
        if pattern is not None:
            period = number(pattern, f"{arch}.attention.sliding_window_pattern", where=where, integer=True,
                            minimum=0, maximum=_MAX_LAYERS)
            keys.append(f"{arch}.attention.sliding_window_pattern")
        elif period is not None and window is not None:
            notes.append(f"{arch}: every {period}th layer global, as llama.cpp builds this architecture (the file "
                         f"gives no sliding_window_pattern).")
        # llama.cpp's set_swa_pattern: period 0 = every layer sliding
        sliding = [window is not None and period is not None and (period == 0 or i % period < period - 1)
                   for i in range(n)] if period is not None else [window is not None] * n
    local = full
    base_key = f"{arch}.rope.freq_base_swa"
    if full is not None and md.get(base_key) is not None:
        local = replace(full, theta=number(md[base_key], base_key, where=where, above=1.0, maximum=1e30))
        keys.append(base_key)
    elif full is not None and local_base is not None and any(sliding):
        local = replace(full, theta=local_base, rope_type="default", scaling={})
        notes.append(f"{arch}: sliding layers use RoPE base {_num(local_base)}, the value llama.cpp builds this "
                     f"architecture with (the file gives no {base_key}).")
    dim_key = f"{arch}.rope.dimension_count_swa"
    if local is not None and md.get(dim_key) is not None:
        local = replace(local, rotary_dim=number(md[dim_key], dim_key, where=where, integer=True, minimum=1,
                                                 maximum=1 << 20))
        keys.append(dim_key)
    sink_layers = _sink_layers("gpt_oss" if arch in GGUF_SINK_ARCHS else arch, tensor_names, n, keys)
    layers = []
    for i in range(n):
        rope = local if sliding[i] else full
        nope = nope_full and not sliding[i]
        position = "rope" if rope is not None and not nope else ("nope" if full is not None else
                                                                  model_scheme or "nope")
        layers.append(LayerScheme(
            index=i, position=position,
            layer_type=("sliding_attention" if sliding[i] else "full_attention") if window else None,
            rope=rope if position == "rope" else None, window=window if sliding[i] else None, sinks=i in sink_layers))
    return LayerMap(tuple(layers), where, tuple(dict.fromkeys(keys)), tuple(notes))


def base_text(x: float) -> str:
    """A RoPE base as shown: 10,000 or 1e+06-style only when it is not whole."""
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:g}"


_num = base_text


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def layer_map(ckpt, components: Sequence[Any]) -> tuple[LayerMap | None, list[str]]:
    """(the per-layer map of an opened checkpoint, warnings): from its config, else its GGUF
    metadata, with the RoPE settings detection found (``components``)."""
    if not components:
        return None, []  # nothing found: no layer is said to be NoPE on no evidence
    ropes = [c.params for c in components if c.kind == "rope" and "rope_theta" in c.params]
    others = [c.kind for c in components if c.kind not in ("rope", "nope")]
    scheme = others[0] if others else None
    try:
        if ckpt.config:
            config_ropes = [p for p in ropes if str(p.get("source", "")).startswith("config")]
            return layer_map_from_config(ckpt.config, config_ropes, scheme, ckpt.tensors), []
        if ckpt.gguf_metadata:
            gguf_ropes = [p for p in ropes if p.get("source") == "gguf metadata"]
            return layer_map_from_gguf(ckpt.gguf_metadata, gguf_ropes[0] if gguf_ropes else {}, scheme,
                                       ckpt.tensors), []
    except CheckpointError as exc:
        return None, [f"per-layer map not shown: {exc}"]
    return None, []


#: bytes per K/V element by the stored dtype (a quantized GGUF's cache is F16 in llama.cpp by default)
_DTYPE_BYTES = {"F32": 4, "float32": 4, "F64": 8, "float64": 8, "F16": 2, "BF16": 2, "float16": 2, "bfloat16": 2}


def memory_at(lm: LayerMap, facts, length: int) -> tuple[list[LayerMemory], int, str]:
    """(per group memory at ``length`` tokens, bytes per K/V element, its reason) from the model's facts
    (``peapp.checkpoints.facts.ModelFacts``: KV heads, head_dim, heads, dtype)."""
    kv_heads = facts.get("kv_heads") or facts.get("heads") or 1
    head_dim = facts.get("head_dim")
    dtype = str(facts.get("dtype") or "")
    size = _DTYPE_BYTES.get(dtype.split(" ")[0], 2)
    why = dtype if dtype in _DTYPE_BYTES else "F16 (" + (dtype or "dtype unknown") + ")"
    if isinstance(kv_heads, list):  # per-layer lists (OpenELM): the largest bounds it
        kv_heads = max(kv_heads)
    return lm.attention_memory(length, int(kv_heads), head_dim, facts.get("heads"), size), size, why
