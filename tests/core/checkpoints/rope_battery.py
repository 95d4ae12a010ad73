"""The systematic RoPE battery: every model type of the installed transformers whose config
carries RoPE settings, saved with ``save_pretrained`` and read back by ``peapp inspect``.

The truth for each type comes from that model's own code: its ``…RotaryEmbedding`` class
(``inv_freq`` and ``attention_scaling``, per layer type where the class takes one) and its
``apply_rotary_pos_emb`` (which pairs it rotates).  Nothing is hand-picked: the list is
``CONFIG_MAPPING`` filtered by "the default config has RoPE keys".
"""

from __future__ import annotations

import importlib
import inspect as pyinspect
import json
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

ROPE_CONFIG_KEYS = ("rope_parameters", "rope_scaling", "rope_theta", "rotary_emb_base", "partial_rotary_factor",
                    "rotary_pct", "rotary_dim")


@dataclass
class Case:
    model_type: str
    path: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    truth: dict[str | None, tuple[Any, float]] = field(default_factory=dict)  # layer type → (inv_freq, scaling)
    adjacent: bool | None = None  # True: (2i, 2i+1) pairs; False: (i, i + d/2); None: not read
    skip: str | None = None


def rope_model_types() -> list[str]:
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING, CONFIG_MAPPING_NAMES

    out = []
    for model_type in CONFIG_MAPPING_NAMES:
        try:
            cfg = CONFIG_MAPPING[model_type]()
        except Exception:  # a config class that cannot be built with defaults
            continue
        data = cfg.to_dict()
        if any(data.get(k) is not None for k in ROPE_CONFIG_KEYS):
            out.append(model_type)
    return out


def _modeling_module(config_cls: type):
    name = config_cls.__module__.replace(".configuration_", ".modeling_")
    return importlib.import_module(name)


def _rotary_class(module, config_cls: type):
    prefix = config_cls.__name__[: -len("Config")]
    candidates = [obj for name, obj in vars(module).items()
                  if isinstance(obj, type) and name.endswith("RotaryEmbedding") and obj.__module__ == module.__name__]
    exact = [c for c in candidates if c.__name__ == f"{prefix}RotaryEmbedding"]
    text = [c for c in candidates if "Vision" not in c.__name__ and "Audio" not in c.__name__]
    return (exact or text or candidates or [None])[0]


_ADJACENT = re.compile(r"::2\]|repeat_interleave|view_as_complex|torch\.polar|rope_interleave|interleave")


def _adjacent_from_code(module, config) -> bool | None:
    fn = getattr(module, "apply_rotary_pos_emb", None) or getattr(module, "apply_rotary_emb", None)
    if fn is None:
        return None
    source = pyinspect.getsource(fn)
    rotate = getattr(module, "rotate_half", None)
    rotate_src = pyinspect.getsource(rotate) if rotate is not None else ""
    if "rope_interleave" in pyinspect.getsource(module) and hasattr(config, "rope_interleave"):
        return bool(config.rope_interleave)
    return bool(_ADJACENT.search(source) or "::2" in rotate_src)


def build_case(model_type: str, root: str) -> Case:
    import torch
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    case = Case(model_type)
    try:
        config = CONFIG_MAPPING[model_type]()
        module = _modeling_module(type(config))
    except Exception as exc:
        case.skip = f"modeling code cannot be imported offline ({type(exc).__name__})"
        return case
    cls = _rotary_class(module, type(config))
    if cls is None:
        case.skip = "no RotaryEmbedding class in its modeling code"
        return case
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        try:
            rotary = cls(config=config)
        except Exception as exc:
            case.skip = f"{cls.__name__}(config) fails with the default config ({type(exc).__name__}: {exc})"[:200]
            return case
        # one buffer per layer type (Gemma 3 & co.: "<layer type>_inv_freq"), else one inv_freq
        per_layer = {name[: -len("_inv_freq")]: buf for name, buf in rotary.named_buffers()
                     if name.endswith("_inv_freq") and not name.endswith("original_inv_freq")}
        if per_layer:
            for layer_type, inv in per_layer.items():
                scaling = getattr(rotary, f"{layer_type}_attention_scaling", 1.0)
                case.truth[layer_type] = (inv.detach().float().clone(), float(scaling))
        elif getattr(rotary, "inv_freq", None) is not None:
            case.truth[None] = (rotary.inv_freq.detach().float().clone(), float(getattr(rotary, "attention_scaling", 1.0)))
        elif getattr(rotary, "embed_positions", None) is not None:  # GPT-J: a [positions, sin | cos] table
            table = rotary.embed_positions.double()
            half = table.shape[-1] // 2
            case.truth[None] = (torch.atan2(table[1, :half], table[1, half:]).float(), 1.0)
        else:
            case.skip = f"{cls.__name__} keeps no inv_freq buffer"
            return case
    case.adjacent = _adjacent_from_code(module, config)
    path = os.path.join(root, model_type)
    config.save_pretrained(path)
    case.path = path
    with open(os.path.join(path, "config.json")) as fh:
        case.config = json.load(fh)
    return case


def build_battery(root: str) -> list[Case]:
    import transformers

    transformers.logging.set_verbosity_error()
    return [build_case(mt, root) for mt in rope_model_types()]


#: The battery's model types that peapp names but does not draw (a warning says so): pass when named.
UNDRAWN = {"axial", "proportional"}

#: Cases still read wrong, each with why: the test fails if one of them starts passing (so the list
#: shrinks) or if any other case fails.
KNOWN_WRONG = {
    "glm4_moe": "the default config's hidden_size/heads = 42.67: head_dim × 0.5 is odd (no real file has it)",
    "glm4v_moe_text": "the default config's hidden_size/heads = 42.67: head_dim × 0.5 is odd (no real file has it)",
    "qwen3_omni_moe_text": "the default config's hidden_size/heads = 73 is odd (no real file has it)",
    "efficientloftr": "2-D RoPE of a keypoint matcher with partial_rotary_factor 4 (not a share of head_dim)",
    "eomt_dinov3": "DINOv3's 2-D patch RoPE (head_dim/4 per axis) read as 1-D",
    "ernie4_5_vl_moe_text": "3-D M-RoPE with its own interleaved frequency split read as plain RoPE",
    "minimax_m3_vl_text": "rotary_dim is given but its rotary class uses the whole head_dim",
}

#: 4.x-era config.json spellings: (name, model type, keys written the old way).  Their truth is
#: transformers loading the very same file.
LEGACY = [
    ("gpt_neox_rotary_emb_base", "gpt_neox", {"rotary_emb_base": 25000, "rotary_pct": 0.25, "hidden_size": 64,
                                             "num_attention_heads": 4}),
    ("gemma3_rope_local_base_freq", "gemma3_text", {"rope_theta": 1_000_000.0, "rope_local_base_freq": 10_000.0,
                                                    "rope_scaling": {"rope_type": "linear", "factor": 8.0},
                                                    "head_dim": 32}),
    ("modernbert_global_local_theta", "modernbert", {"global_rope_theta": 160_000.0, "local_rope_theta": 10_000.0,
                                                     "hidden_size": 64, "num_attention_heads": 4}),
    ("llama_rope_scaling_type", "llama", {"rope_theta": 10000.0, "rope_scaling": {"type": "linear", "factor": 4.0},
                                          "hidden_size": 64, "num_attention_heads": 4}),
    ("llama31_rope_scaling", "llama", {"rope_theta": 500000.0, "max_position_embeddings": 131072,
                                       "hidden_size": 64, "num_attention_heads": 2,
                                       "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                                        "high_freq_factor": 4.0,
                                                        "original_max_position_embeddings": 8192}}),
    ("llama4_equal_freq_factors", "llama4_text", {"rope_theta": 500000.0, "head_dim": 32, "hidden_size": 64,
                                                  "num_attention_heads": 2, "max_position_embeddings": 131072,
                                                  "rope_scaling": {"rope_type": "llama3", "factor": 16.0,
                                                                   "low_freq_factor": 1.0, "high_freq_factor": 1.0,
                                                                   "original_max_position_embeddings": 8192}}),
    ("falcon_refinedwebmodel", "RefinedWebModel", {"hidden_size": 64, "n_head": 4, "alibi": False,
                                                    "new_decoder_architecture": False, "multi_query": True}),
    ("falcon_refinedweb", "RefinedWeb", {"hidden_size": 64, "n_head": 4, "alibi": False,
                                          "new_decoder_architecture": True}),
]


def build_legacy_case(name: str, model_type: str, keys: dict[str, Any], root: str) -> Case:
    """Write ``keys`` as a 4.x-era config.json, and take the truth from transformers reading that file."""
    import torch
    import transformers

    case = Case(name)
    path = os.path.join(root, name)
    os.makedirs(path, exist_ok=True)
    case.config = {"model_type": model_type, **keys}
    with open(os.path.join(path, "config.json"), "w") as fh:
        json.dump(case.config, fh)
    case.path = path
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        if model_type in ("RefinedWebModel", "RefinedWeb"):  # Falcon before it joined transformers; read as Falcon
            # its remote code called the head count n_head; FalconConfig calls it num_attention_heads
            config = transformers.FalconConfig(**{k: v for k, v in keys.items() if k != "n_head"},
                                               num_attention_heads=keys["n_head"])
        else:
            config = transformers.AutoConfig.from_pretrained(path)
        module = _modeling_module(type(config))
        rotary = _rotary_class(module, type(config))(config=config)
        per_layer = {n[: -len("_inv_freq")]: b for n, b in rotary.named_buffers()
                     if n.endswith("_inv_freq") and not n.endswith("original_inv_freq")}
        if per_layer:
            for layer_type, inv in per_layer.items():
                case.truth[layer_type] = (inv.float().clone(), float(getattr(rotary, f"{layer_type}_attention_scaling")))
        else:
            case.truth[None] = (rotary.inv_freq.float().clone(), float(rotary.attention_scaling))
        case.adjacent = _adjacent_from_code(module, config)
    return case


def build_legacy(root: str) -> list[Case]:
    return [build_legacy_case(name, mt, keys, root) for name, mt, keys in LEGACY]


def judge(case: Case) -> str | None:
    """None when peapp reads ``case`` as the model's own code does, else what differs."""
    import torch

    from peapp.checkpoints import inspect
    from peapp.encodings.rope import RopeSpec, rope_family_values

    try:
        report = inspect(case.path)
    except Exception as exc:  # any failure is a wrong reading
        return f"inspect raised {exc!r}"
    ropes = [c for c in report.components if c.kind == "rope"]
    if not ropes:
        return f"no RoPE component ({'; '.join(report.warnings)[:200]})"
    problems = []
    for layer_type, (inv, scaling) in case.truth.items():
        matching = [c for c in ropes if c.params.get("layer_type") == layer_type] or ropes[:1]
        comp = matching[0]
        if comp.params.get("rope_type") in UNDRAWN:
            if not any(repr(comp.params["rope_type"]) in w and "not drawn" in w for w in report.warnings):
                problems.append(f"{layer_type}: {comp.params['rope_type']} RoPE not named in the warnings")
            continue
        try:
            mine, factor = RopeSpec.from_dict(rope_family_values(comp.params, case.config)).inv_freq()
        except Exception as exc:
            problems.append(f"{layer_type}: {exc}")
            continue
        if mine.shape != inv.shape or not torch.allclose(mine, inv, rtol=1e-6, atol=0):
            problems.append(f"{layer_type}: inv_freq {tuple(mine.shape)} {mine[:3].tolist()} vs the model's "
                            f"{tuple(inv.shape)} {inv[:3].tolist()}")
        elif abs(factor - scaling) > 1e-6 * max(1.0, abs(scaling)):
            problems.append(f"{layer_type}: attention scaling {factor} vs the model's {scaling}")
        if case.adjacent is not None and (comp.params.get("layout") == "interleaved") != case.adjacent:
            problems.append(f"layout {comp.params.get('layout')} but the model's code rotates "
                            f"{'adjacent' if case.adjacent else 'half-split'} pairs")
    return "; ".join(problems) or None
