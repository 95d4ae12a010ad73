"""RoPE parameters from a Hugging Face config or GGUF metadata, as plain dicts.

The extraction here is torch-free so that ``peapp inspect`` stays fast.  Turning it into the
RoPE family's parameters is ``rope_family_values``, the one place that knows the family: it
prefers ``RopeSpec.from_hf_config`` (the family's own reading of a config) when it exists.
"""

from __future__ import annotations

from typing import Any, Mapping

# Models whose q/k pairs are (2i, 2i+1) rather than (i, i + dim/2).
INTERLEAVED_MODEL_TYPES = {"gptj", "codegen", "cohere", "cohere2"}
# llama.cpp's rope type per GGUF architecture: NORM rotates adjacent pairs (its converter
# permutes HF Llama's q/k weights to match), NEOX rotates halves.
GGUF_NORM_ARCHS = {"llama", "llama4", "deci", "baichuan", "starcoder", "internlm2", "minicpm", "xverse",
                   "command-r", "cohere2", "olmo", "arctic", "deepseek", "deepseek2", "granite",
                   "granitemoe", "chameleon", "bitnet", "plm", "chatglm", "gptj"}
GGUF_NEOX_ARCHS = {"falcon", "grok", "dbrx", "stablelm", "qwen", "qwen2", "qwen2moe", "qwen3", "qwen3moe",
                   "phi2", "phi3", "phimoe", "gemma", "gemma2", "gemma3", "starcoder2", "openelm",
                   "gptneox", "codeshell", "orion", "exaone", "minicpm3", "nemotron", "olmo2", "smollm3"}
_SCALING_META = {"rope_type", "type", "rope_theta"}


def _first(cfg: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if cfg.get(key) is not None:
            return cfg[key]
    return None


def head_dim_of(cfg: Mapping[str, Any]) -> int | None:
    """``head_dim`` if given, else hidden size / number of heads."""
    if isinstance(cfg.get("head_dim"), int) and cfg["head_dim"] > 0:
        return cfg["head_dim"]
    hidden = _first(cfg, "hidden_size", "n_embd", "d_model", "dim")
    heads = _first(cfg, "num_attention_heads", "n_head", "n_heads", "num_heads")
    if isinstance(hidden, int) and isinstance(heads, int) and heads > 0 and hidden % heads == 0:
        return hidden // heads
    return None


def hf_rope_params(cfg: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One dict per RoPE setting in ``cfg`` (several when ``rope_parameters`` is per layer type).

    Understands ``rope_parameters`` (newer; holds ``rope_theta`` too), ``rope_scaling`` (older;
    legacy ``type``, ``su`` = ``longrope``), ``rope_theta``/``rotary_emb_base``,
    ``partial_rotary_factor``/``rotary_pct``/``rotary_dim`` and ``head_dim``.
    """
    rp = cfg.get("rope_parameters")
    if isinstance(rp, Mapping) and rp and all(isinstance(v, Mapping) for v in rp.values()):
        return [{**_one(cfg, dict(v)), "layer_type": str(k)} for k, v in rp.items()]
    scaling = dict(rp) if isinstance(rp, Mapping) else {}
    legacy = cfg.get("rope_scaling")
    if isinstance(legacy, Mapping):
        scaling = {**dict(legacy), **scaling}
    return [_one(cfg, scaling)]


def _one(cfg: Mapping[str, Any], scaling: dict[str, Any]) -> dict[str, Any]:
    head_dim = head_dim_of(cfg)
    theta = _first(scaling, "rope_theta")
    if theta is None:
        theta = _first(cfg, "rope_theta", "rotary_emb_base", "rope_base")
    partial = _first(scaling, "partial_rotary_factor")
    if partial is None:
        partial = _first(cfg, "partial_rotary_factor", "rotary_pct")
    if partial is None and isinstance(cfg.get("rotary_dim"), int) and head_dim:
        partial = cfg["rotary_dim"] / head_dim
    partial = float(partial) if partial is not None else 1.0
    rope_type = scaling.get("rope_type") or scaling.get("type") or "default"
    rope_type = {"su": "longrope", "mrope": "default"}.get(rope_type, rope_type)
    original = _first(scaling, "original_max_position_embeddings")
    if original is None:
        original = cfg.get("original_max_position_embeddings")
    params: dict[str, Any] = {
        "rope_theta": float(theta) if theta is not None else 10000.0,
        "rope_type": rope_type,
        "head_dim": head_dim,
        "rotary_dim": int(head_dim * partial) if head_dim else None,
        "partial_rotary_factor": partial,
        "layout": "interleaved" if cfg.get("model_type") in INTERLEAVED_MODEL_TYPES else "half",
        "max_position_embeddings": _first(cfg, "max_position_embeddings", "n_positions", "seq_length"),
        "original_max_position_embeddings": original,
        "scaling": {k: v for k, v in scaling.items()
                    if k not in _SCALING_META and k not in ("partial_rotary_factor", "original_max_position_embeddings")},
    }
    return params


def rope_family_values(params: Mapping[str, Any], config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Values for the ``rope`` family's spec from one component's params (imports torch).

    With a HF config and ``RopeSpec.from_hf_config`` available, the family reads the config
    itself (it knows every scaling variant); otherwise the fields it has are filled from
    ``params``.  Only fields the spec declares are returned, and never ``n_positions`` (how
    much of the table to show is the view's choice), so the result fits the current family.
    """
    import dataclasses

    from peapp.encodings.rope import RopeSpec

    fields = {f.name for f in dataclasses.fields(RopeSpec)} - {"n_positions"}
    section = params.get("config_section")
    if config and section and isinstance(config.get(section), Mapping):
        config = config[section]
    build = getattr(RopeSpec, "from_hf_config", None)
    if build is not None and config:
        kwargs = {"layer_type": params["layer_type"]} if params.get("layer_type") else {}
        values = {k: v for k, v in build(dict(config), **kwargs).to_dict().items() if k in fields}
        # the pair layout depends on the model's code, not on config keys: ours knows model_type
        if params.get("layout") in ("half", "interleaved") and "layout" in fields:
            values["layout"] = params["layout"]
        return values
    scaling = params.get("scaling") or {}
    values: dict[str, Any] = {
        "head_dim": params.get("head_dim"), "base": params.get("rope_theta"),
        "partial_rotary_factor": params.get("partial_rotary_factor"),
        "layout": params.get("layout") if params.get("layout") in ("half", "interleaved") else None,
        "rope_type": params.get("rope_type"), "factor": scaling.get("factor"),
        "original_max_position_embeddings": params.get("original_max_position_embeddings"),
        "max_position_embeddings": params.get("max_position_embeddings"),
    }
    choices = {i.name: i.choices for i in RopeSpec.param_infos()}
    return {k: v for k, v in values.items()
            if v is not None and k in fields and (not choices.get(k) or v in choices[k])}


def gguf_rope_params(md: Mapping[str, Any], arch: str) -> dict[str, Any]:
    """RoPE parameters from GGUF metadata keys ``{arch}.rope.*`` (llama.cpp defaults otherwise)."""
    n_embd, n_head = md.get(f"{arch}.embedding_length"), md.get(f"{arch}.attention.head_count")
    head_dim = md.get(f"{arch}.attention.key_length")
    if head_dim is None and isinstance(n_embd, int) and isinstance(n_head, int) and n_head:
        head_dim = n_embd // n_head
    rot = md.get(f"{arch}.rope.dimension_count", head_dim)
    prefix = f"{arch}.rope.scaling."
    scaling = {k[len(prefix):]: v for k, v in md.items() if k.startswith(prefix)}
    if f"{arch}.rope.scale_linear" in md:  # older files
        scaling.setdefault("type", "linear")
        scaling.setdefault("factor", md[f"{arch}.rope.scale_linear"])
    rope_type = str(scaling.pop("type", "none"))
    layout = "interleaved" if arch in GGUF_NORM_ARCHS else "half" if arch in GGUF_NEOX_ARCHS else "unknown"
    return {
        "rope_theta": float(md.get(f"{arch}.rope.freq_base", 10000.0)),
        "rope_type": "default" if rope_type == "none" else rope_type,
        "head_dim": head_dim,
        "rotary_dim": rot,
        "partial_rotary_factor": (rot / head_dim) if isinstance(rot, int) and head_dim else 1.0,
        "layout": layout,
        "max_position_embeddings": md.get(f"{arch}.context_length"),
        "original_max_position_embeddings": scaling.pop("original_context_length", None),
        "scaling": scaling,
    }
