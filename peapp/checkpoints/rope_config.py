"""RoPE parameters of a checkpoint component, from a Hugging Face config or GGUF metadata, as plain dicts.

The HF config is read by :mod:`peapp.checkpoints.hf_config` (the one reader, shared with the
RoPE family); this module lays its result out as a component's ``params``.  Turning those into
the RoPE family's parameters is ``peapp.encodings.rope.rope_family_values``.  Torch-free.
"""

from __future__ import annotations

from typing import Any, Mapping

from peapp.checkpoints import hf_config
from peapp.checkpoints.hf_config import head_dim_of  # noqa: F401 - re-exported
from peapp.file_values import MAX_LENGTH, number, optional_number

# llama.cpp's rope type per GGUF architecture: NORM rotates adjacent pairs (its converter
# permutes HF Llama's q/k weights to match), NEOX rotates halves.
GGUF_NORM_ARCHS = {"llama", "llama4", "deci", "baichuan", "starcoder", "internlm2", "minicpm", "xverse",
                   "command-r", "cohere2", "olmo", "arctic", "deepseek", "deepseek2", "granite",
                   "granitemoe", "chameleon", "bitnet", "plm", "chatglm", "gptj"}
GGUF_NEOX_ARCHS = {"falcon", "grok", "dbrx", "stablelm", "qwen", "qwen2", "qwen2moe", "qwen3", "qwen3moe",
                   "phi2", "phi3", "phimoe", "gemma", "gemma2", "gemma3", "starcoder2", "openelm",
                   "gptneox", "codeshell", "orion", "exaone", "minicpm3", "nemotron", "olmo2", "smollm3"}


def hf_rope_params(cfg: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One dict per RoPE setting in ``cfg`` (several when ``rope_parameters`` is per layer type).

    Raises CheckpointError when a value has the wrong type or is out of range.
    """
    out = []
    for rope in hf_config.read_all_rope(cfg):
        params: dict[str, Any] = {
            "rope_theta": rope.rope_theta,
            "rope_type": rope.rope_type,
            "head_dim": rope.head_dim,
            "rotary_dim": rope.rotary_dim,
            "partial_rotary_factor": rope.partial_rotary_factor,
            "layout": rope.layout,
            "max_position_embeddings": rope.max_position_embeddings,
            "original_max_position_embeddings": rope.original_max_position_embeddings,
            "scaling": dict(rope.scaling),
        }
        if rope.layer_type is not None:
            params["layer_type"] = rope.layer_type
        problem = hf_config.scaling_problem(rope)
        if problem is not None:  # said as a warning; never drawn as if it were plain RoPE
            params["scaling_problem"] = problem
        out.append(params)
    return out


def gguf_rope_params(md: Mapping[str, Any], arch: str) -> dict[str, Any]:
    """RoPE parameters from GGUF metadata keys ``{arch}.rope.*`` (llama.cpp defaults otherwise).

    Raises CheckpointError when a value has the wrong type or is out of range.
    """
    def whole(key: str, minimum: int = 1) -> int | None:
        return optional_number(md.get(key), key, where="GGUF metadata", integer=True, minimum=minimum,
                               maximum=MAX_LENGTH)

    n_embd, n_head = whole(f"{arch}.embedding_length"), whole(f"{arch}.attention.head_count")
    head_dim = whole(f"{arch}.attention.key_length")
    if head_dim is None and n_embd and n_head:
        head_dim = n_embd // n_head or None
    rot = whole(f"{arch}.rope.dimension_count")
    rot = head_dim if rot is None else rot
    prefix = f"{arch}.rope.scaling."
    scaling = {k[len(prefix):]: v for k, v in md.items() if k.startswith(prefix)}
    if f"{arch}.rope.scale_linear" in md:  # older files
        scaling.setdefault("type", "linear")
        scaling.setdefault("factor", md[f"{arch}.rope.scale_linear"])
    rope_type = str(scaling.pop("type", "none"))
    layout = "interleaved" if arch in GGUF_NORM_ARCHS else "half" if arch in GGUF_NEOX_ARCHS else "unknown"
    base = md.get(f"{arch}.rope.freq_base", 10000.0)
    return {
        "rope_theta": number(base, f"{arch}.rope.freq_base", where="GGUF metadata", above=1.0, maximum=1e30),
        "rope_type": "default" if rope_type == "none" else rope_type,
        "head_dim": head_dim,
        "rotary_dim": rot,
        "partial_rotary_factor": (rot / head_dim) if rot and head_dim else 1.0,
        "layout": layout,
        "max_position_embeddings": whole(f"{arch}.context_length"),
        "original_max_position_embeddings": whole(f"{prefix}original_context_length")
        if scaling.pop("original_context_length", None) is not None else None,
        "scaling": scaling,
    }
