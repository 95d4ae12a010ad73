"""The one reader of a Hugging Face ``config.json``'s RoPE settings, as neutral data.

Checkpoint detection (``peapp inspect``) and the RoPE family (its "Load config.json") both read
config files someone else made; this module is what they share.  It knows the keys and their
spellings across transformers versions, checks every number with
:func:`peapp.file_values.number`, and returns a :class:`HfRope` of plain values.  It knows no
maths and imports nothing of the encodings: turning an :class:`HfRope` into frequencies is
``peapp.encodings.rope``'s job.  Torch-free, so ``peapp inspect`` stays fast.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from peapp import model_types, safe_open
from peapp.errors import CheckpointError
from peapp.file_values import MAX_HEADS, MAX_LENGTH, number, optional_number

#: Older or other spellings of ``rope_type`` found in config.json files → the name peapp uses.
ROPE_TYPE_ALIASES = {"su": "longrope", "mrope": "default"}
#: Scaling keys that are not scaling parameters (they are read into fields of their own).
_SCALING_META = {"rope_type", "type", "rope_theta", "partial_rotary_factor", "original_max_position_embeddings"}
#: Keys that say a config has RoPE settings at all.
ROPE_KEYS = ("rope_theta", "rope_scaling", "rope_parameters", "rotary_pct", "rotary_dim", "rotary_emb_base",
             "partial_rotary_factor", "qk_rope_head_dim", "rope_local_base_freq", "global_rope_theta",
             "local_rope_theta")
# (Conformer-style speech models carry rotary_embedding_base whatever their position_embeddings_type:
# it is read as the base, but says nothing about whether RoPE is used.)
_MAX_BASE = 1e30  # rope_theta above this underflows every frequency but the first to 0


@dataclass(frozen=True)
class HfRope:
    """One RoPE setting of a config (configs with per-layer-type settings have several)."""

    rope_theta: float
    rope_type: str  # the canonical name (aliases resolved)
    raw_type: str  # as written in the file
    head_dim: int | None  # the rotating head width (qk_rope_head_dim for multi-head latent attention)
    partial_rotary_factor: float
    layout: str  # "half" | "interleaved"
    max_position_embeddings: int | None
    original_max_position_embeddings: int | None  # only when the file gives it
    scaling: dict[str, Any] = field(default_factory=dict)  # factor, beta_fast, short_factor, …
    source: str = "rope_parameters"  # which key the scaling came from (for messages)
    layer_type: str | None = None
    other_layer_types: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def rotary_dim(self) -> int | None:
        return int(self.head_dim * self.partial_rotary_factor) if self.head_dim else None


def read_config_file(path: str | os.PathLike) -> dict[str, Any]:
    """The JSON object in a config file (or a model folder's ``config.json``), read safely."""
    path = os.fspath(path)
    if os.path.isdir(path):
        path = os.path.join(path, "config.json")
    name = os.path.basename(path)
    config = safe_open.load_json(safe_open.read_bytes(path, "config", CheckpointError), name, CheckpointError)
    if not isinstance(config, dict):
        raise CheckpointError(f"{name} must hold a JSON object (a dict of settings) at the top level.")
    return config


def _first(cfg: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if cfg.get(key) is not None:
            return cfg[key]
    return None


def head_dim_of(cfg: Mapping[str, Any]) -> int | None:
    """``head_dim`` if given, else hidden size / number of heads; None if neither is usable."""
    if isinstance(cfg.get("head_dim"), int) and not isinstance(cfg["head_dim"], bool) and cfg["head_dim"] > 0:
        return cfg["head_dim"]
    hidden = _first(cfg, "hidden_size", "n_embd", "d_model", "dim")
    heads = _first(cfg, "num_attention_heads", "n_head", "n_heads", "num_heads")
    if isinstance(hidden, int) and isinstance(heads, int) and heads > 0 and hidden % heads == 0:
        return hidden // heads
    return None


def canonical_model_type(config: Mapping[str, Any]) -> str:
    """``model_type`` lower-cased, with 4.x-era names (Falcon's RefinedWebModel) mapped to today's."""
    return model_types.canonical(config.get("model_type"))


def modernised(config: Mapping[str, Any]) -> tuple[Mapping[str, Any], tuple[str, ...]]:
    """``config`` with its 4.x-era per-layer bases rewritten as today's per-layer ``rope_parameters``
    (as transformers converts them on load), and a note saying so; other configs unchanged."""
    model_type = canonical_model_type(config)
    if config.get("rope_parameters") is not None:
        return config, ()
    legacy = model_types.get(model_type).legacy_bases
    if legacy is not None:
        full_key, local_key = legacy.full_key, legacy.local_key
        if config.get(local_key) is None and config.get(full_key) is None and full_key != "rope_theta":
            return config, ()
        full_default, local_default, scaling_everywhere = (legacy.full_default, legacy.local_default,
                                                           legacy.scaling_everywhere)
        scaling = config.get("rope_scaling")
        scaling = dict(scaling) if isinstance(scaling, Mapping) else {}
        full = {"rope_type": "default", **scaling,
                "rope_theta": config[full_key] if config.get(full_key) is not None else full_default}
        local = {"rope_type": "default", **(scaling if scaling_everywhere else {}),
                 "rope_theta": config[local_key] if config.get(local_key) is not None else local_default}
        out = {k: v for k, v in config.items() if k not in (full_key, local_key, "rope_scaling")}
        out["rope_parameters"] = {"full_attention": full, "sliding_attention": local}
        note = (f"4.x-era keys {full_key} / {local_key} read as per-layer bases (full attention / sliding "
                f"window), as transformers does.")
        return out, (note,)
    return config, ()


def _is_rope_dict(d: Any) -> bool:
    return isinstance(d, Mapping) and any(k in d for k in ("rope_type", "type", "rope_theta", "factor"))


def _scaling_sections(config: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    """(the scaling dict, the key it came from): rope_parameters (newer) over rope_scaling (older)."""
    rp, legacy = config.get("rope_parameters"), config.get("rope_scaling")
    for key, value in (("rope_parameters", rp), ("rope_scaling", legacy)):
        if value is not None and not isinstance(value, Mapping):
            raise CheckpointError(f"config.json: {key} must be an object, got {type(value).__name__}; "
                                  f"fix the value in the file.")
    if rp is not None:
        if isinstance(legacy, Mapping) and _is_rope_dict(rp) and not _per_layer(rp):
            return {**legacy, **rp}, "rope_parameters"
        return rp, "rope_parameters"
    return (legacy or {}), "rope_scaling"


def _per_layer(scaling: Mapping[str, Any]) -> list[str]:
    """The per-layer-type keys (e.g. full_attention, sliding_attention) when there are such entries."""
    nested = [k for k, v in scaling.items() if isinstance(v, Mapping) or (v is None and str(k).endswith("attention"))]
    return nested if nested and not _is_rope_dict(scaling) else []


def layer_types(config: Mapping[str, Any]) -> list[str | None]:
    """The layer types with RoPE entries of their own, or ``[None]`` for one setting."""
    config, _ = modernised(config)
    scaling, _ = _scaling_sections(config)
    nested = _per_layer(scaling)
    usable = [str(k) for k in nested if isinstance(scaling[k], Mapping)]
    return list(usable) if usable else [None]


def read_rope(config: Mapping[str, Any], layer_type: str | None = None) -> HfRope:
    """The RoPE setting of ``config`` (``layer_type`` picks one of several; default full_attention).

    Absent keys become None (or the transformers default); a present value of the wrong type or
    out of range raises :class:`CheckpointError` naming the key.
    """
    if not isinstance(config, Mapping):
        raise CheckpointError("config.json must hold a JSON object (a dict of settings) at the top level.")
    config, legacy_notes = modernised(config)
    notes: list[str] = list(legacy_notes)
    scaling, source = _scaling_sections(config)
    chosen_layer: str | None = None
    others: tuple[str, ...] = ()
    nested = _per_layer(scaling)
    if nested:
        usable = [k for k in nested if isinstance(scaling[k], Mapping)]
        if not usable:
            raise CheckpointError(f"config.json: {source} has per-layer entries ({', '.join(map(str, nested))}) "
                                  f"but none holds RoPE settings.")
        if layer_type is not None:
            if layer_type not in usable:
                raise CheckpointError(f"config.json: no RoPE entry for layer type {layer_type!r}; "
                                      f"choose one of {', '.join(map(str, usable))}.")
            chosen_layer = layer_type
        else:
            chosen_layer = "full_attention" if "full_attention" in usable else usable[0]
        others = tuple(str(k) for k in nested if k != chosen_layer)
        notes.append(f"{source} has one entry per layer type; showing {chosen_layer!r} "
                     f"(others: {', '.join(others)}).")
        scaling = scaling[chosen_layer]
    scaling = dict(scaling)

    theta = scaling.get("rope_theta")
    if theta is None:
        theta = _first(config, "rope_theta", "rotary_emb_base", "rope_base", "rotary_embedding_base")
    theta = number(theta, "rope_theta", above=1.0, maximum=_MAX_BASE) if theta is not None else 10000.0

    raw_type = scaling.get("rope_type", scaling.get("type")) or "default"
    if not isinstance(raw_type, str):
        raise CheckpointError(f"config.json: {source}.rope_type must be a name such as \"yarn\", got "
                              f"{type(raw_type).__name__}; fix the value in the file.")
    rope_type = ROPE_TYPE_ALIASES.get(raw_type, raw_type)
    if raw_type == "mrope" or "mrope_section" in scaling:
        notes.append(f"multimodal RoPE (mrope_section {scaling.get('mrope_section')}): the frequencies are plain "
                     f"RoPE; its sections of pairs turn with the temporal, height and width positions.")
    elif raw_type in ROPE_TYPE_ALIASES:
        notes.append(f"rope type {raw_type!r} is an old name of {rope_type!r}.")

    # head_dim, else hidden_size / num_attention_heads.  Multi-head latent attention (DeepSeek-V2/V3)
    # rotates only a separate qk_rope_head_dim part of each head.
    head_dim = config.get("head_dim")
    if config.get("qk_rope_head_dim") is not None:
        head_dim = config["qk_rope_head_dim"]
        notes.append(f"multi-head latent attention: only the qk_rope_head_dim = {head_dim} part of each "
                     f"head rotates; that is the head_dim shown.")
        head_dim = number(head_dim, "qk_rope_head_dim", integer=True, minimum=1, maximum=1 << 20)
    elif head_dim is not None:
        head_dim = number(head_dim, "head_dim", integer=True, minimum=1, maximum=1 << 20)
    elif _first(config, "attention_head_dim", "kv_channels") is not None:  # Zamba2; JetMoE
        key = "attention_head_dim" if config.get("attention_head_dim") is not None else "kv_channels"
        head_dim = number(config[key], key, integer=True, minimum=1, maximum=1 << 20)
    else:
        hidden = _first(config, "hidden_size", "n_embd")
        heads = _first(config, "num_attention_heads", "n_head", "encoder_num_attention_heads")
        if hidden is not None and heads is not None:
            hidden = number(hidden, "hidden_size", integer=True, minimum=1, maximum=1 << 24)
            heads = number(heads, "num_attention_heads", integer=True, minimum=1, maximum=MAX_HEADS)
            head_dim = hidden // heads or None
    if head_dim is None:
        head_dim = head_dim_of(config)  # d_model / dim spellings of other model families
    # Gemma 4 & co.: per_layer_config overrides head_dim for the layers of one type (global layers 512)
    layer_dims = _per_layer_head_dims(config, chosen_layer)
    if len(layer_dims) == 1:
        override = number(layer_dims.pop(), "per_layer_config.head_dim", integer=True, minimum=1, maximum=1 << 20)
        if override != head_dim:
            notes.append(f"{chosen_layer} layers have head_dim {override} (per_layer_config), not {head_dim}.")
        head_dim = override

    # Partial rotary: partial_rotary_factor (also inside rope_parameters), rotary_pct (GPT-NeoX), rotary_dim (GPT-J).
    if config.get("qk_rope_head_dim") is not None:
        fraction = 1.0  # the rotating part is already qk_rope_head_dim (transformers ignores the factor there)
    elif scaling.get("partial_rotary_factor") is not None:
        fraction = number(scaling["partial_rotary_factor"], "partial_rotary_factor", above=0, maximum=1)
    elif config.get("partial_rotary_factor") is not None:
        fraction = number(config["partial_rotary_factor"], "partial_rotary_factor", above=0, maximum=1)
    elif config.get("rotary_pct") is not None:
        fraction = number(config["rotary_pct"], "rotary_pct", above=0, maximum=1)
    elif config.get("rotary_dim") is not None and head_dim:
        rotary = number(config["rotary_dim"], "rotary_dim", integer=True, minimum=1, maximum=head_dim)
        fraction = rotary / head_dim
    else:
        fraction = 1.0

    max_pos = optional_number(_first(config, "max_position_embeddings", "n_positions", "seq_length"),
                              "max_position_embeddings", integer=True, minimum=1, maximum=MAX_LENGTH)
    # Phi-3 keeps the trained length at the top level, and transformers prefers it there.
    original = config.get("original_max_position_embeddings")
    if original is None:
        original = scaling.get("original_max_position_embeddings")
    original = optional_number(original, "original_max_position_embeddings", integer=True, minimum=1,
                               maximum=MAX_LENGTH)
    interleave = config.get("rope_interleave")
    if isinstance(interleave, bool):
        layout = "interleaved" if interleave else "half"
    else:
        layout = "interleaved" if model_types.get(canonical_model_type(config)).interleaved else "half"
    return HfRope(rope_theta=theta, rope_type=rope_type, raw_type=raw_type, head_dim=head_dim,
                  partial_rotary_factor=fraction, layout=layout, max_position_embeddings=max_pos,
                  original_max_position_embeddings=original,
                  scaling={k: v for k, v in scaling.items() if k not in _SCALING_META},
                  source=source, layer_type=chosen_layer, other_layer_types=others, notes=tuple(notes))


def _per_layer_head_dims(config: Mapping[str, Any], layer_type: str | None) -> set[Any]:
    """The head_dim overrides per_layer_config gives the layers of ``layer_type`` (empty if none)."""
    overrides, kinds = config.get("per_layer_config"), config.get("layer_types")
    if layer_type is None or not isinstance(overrides, Mapping) or not isinstance(kinds, list):
        return set()
    found = set()
    for key, override in overrides.items():
        index = int(key) if isinstance(key, str) and key.isdigit() else key
        if isinstance(index, int) and 0 <= index < len(kinds) and kinds[index] == layer_type \
                and isinstance(override, Mapping) and override.get("head_dim") is not None:
            found.add(override["head_dim"])
    return found


#: RoPE types transformers 5.x computes (ROPE_INIT_FUNCTIONS, plus "default" and vision towers' "axial"),
#: and the scaling keys each needs (transformers' _validate_*_rope_parameters).
KNOWN_ROPE_TYPES = {"default": (), "linear": ("factor",), "dynamic": ("factor",), "yarn": ("factor",),
                    "longrope": ("short_factor", "long_factor"), "llama3": ("factor", "low_freq_factor",
                                                                            "high_freq_factor"),
                    "proportional": (), "axial": ()}


def scaling_problem(rope: HfRope) -> str | None:
    """Why ``rope``'s scaling cannot be used as written (naming the key), or None when it can:
    an unknown type, a missing factor, a factor that is not a number."""
    where = f"{rope.source}{'.' + rope.layer_type if rope.layer_type else ''}"
    if rope.rope_type not in KNOWN_ROPE_TYPES:
        return (f"{where}.rope_type {rope.raw_type!r} is not a RoPE scaling transformers knows "
                f"({', '.join(sorted(KNOWN_ROPE_TYPES))}); fix the value in the file.")
    for key in KNOWN_ROPE_TYPES[rope.rope_type]:
        value = rope.scaling.get(key)
        if value is None:
            return f"{where}: {rope.raw_type} scaling needs {key}, and the file gives none; add it to the file."
        if key.endswith("_factor") and key in ("short_factor", "long_factor"):
            if not isinstance(value, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                      for v in value):
                return f"{where}.{key} must be a list of numbers, got {type(value).__name__}; fix the value in the file."
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            return (f"{where}.{key} must be a positive number, got {value!r} ({type(value).__name__}); fix the "
                    f"value in the file.")
    return None


def read_all_rope(config: Mapping[str, Any]) -> list[HfRope]:
    """Every RoPE setting of ``config`` (one per layer type when it has several)."""
    return [read_rope(config, lt) for lt in layer_types(config)]


def scaling_number(rope: HfRope, key: str, **bounds: Any) -> float | None:
    """A number from the scaling section (None when absent), checked like every value from a file."""
    return optional_number(rope.scaling.get(key), f"{rope.source}.{key}", **bounds)
