"""The multimodal RoPE (M-RoPE) settings of a model config: sections, layout, base, merge sizes.

Torch-free, so that checkpoint detection (``peapp inspect``) and the multimodal positions
panel (:mod:`peapp.encodings.multimodal`, which re-exports these names) read a config the
same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from peapp.errors import ParameterError

#: model types whose get_rope_index peapp.encodings.multimodal reproduces
MODEL_TYPES = ("qwen2_vl", "qwen2_5_vl", "qwen3_vl", "glm4v")
#: transformers' defaults when a config leaves ``mrope_section`` out (each rotary class's own)
DEFAULT_SECTIONS = {"qwen2_vl": (16, 24, 24), "qwen2_5_vl": (16, 24, 24), "qwen3_vl": (24, 20, 20),
                    "glm4v": (8, 12, 12)}


@dataclass(frozen=True)
class MRopeConfig:
    """What a multimodal config says about positions (from ``config.json`` or a preset)."""

    model_type: str
    sections: tuple[int, int, int]  # rotary pairs per axis (t, h, w)
    interleaved: bool  # Qwen3-VL: axes interleaved over the pairs; else contiguous sections
    rope_theta: float
    head_dim: int
    partial_rotary_factor: float = 1.0
    adjacent_pairs: bool = False  # GLM-4V: pairs (2i, 2i+1) (repeat_interleave); else half-split
    spatial_merge_size: int = 2
    patch_size: int = 14
    temporal_patch_size: int = 2
    tokens_per_second: float | None = None  # Qwen2.5-VL: t ids per second of video
    vision_rope_theta: float | None = None  # the vision tower's own 2-D RoPE
    vision_learned_grid: int | None = None  # Qwen3-VL / GLM-4V towers: a learned position table too
    notes: tuple[str, ...] = ()

    @property
    def rotary_dim(self) -> int:
        return int(self.head_dim * self.partial_rotary_factor)

    @property
    def pairs(self) -> int:
        return self.rotary_dim // 2

    @property
    def layout(self) -> str:
        return "interleaved" if self.interleaved else "sectioned"

    def inv_freq(self) -> np.ndarray:
        """θ_i = base^(−2i/d), float32 as the models compute it, in float64."""
        i = np.arange(0, self.rotary_dim, 2, dtype=np.float32)
        return (1.0 / (np.float32(self.rope_theta) ** (i / np.float32(self.rotary_dim)))).astype(np.float64)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _number(value: Any, what: str, *, integer: bool = False, low: float = 0.0) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= low:
        raise ParameterError(f"{what} must be a number above {low:g}; got {value!r}")
    if integer:
        if int(value) != value:
            raise ParameterError(f"{what} must be a whole number; got {value!r}")
        return int(value)
    return float(value)


def read_config(config: Any) -> MRopeConfig:
    """The M-RoPE settings of a multimodal model config (a ``config.json`` dict or a
    transformers config).  Raises ParameterError, saying what is missing, when it has none."""
    if hasattr(config, "to_dict"):
        config = config.to_dict()
    cfg = _mapping(config)
    model_type = str(cfg.get("model_type") or "")
    text = _mapping(cfg.get("text_config")) or cfg
    vision = _mapping(cfg.get("vision_config"))
    rope = dict(_mapping(cfg.get("rope_scaling")))
    rope.update(_mapping(text.get("rope_scaling")))
    rope.update(_mapping(cfg.get("rope_parameters")))
    rope.update(_mapping(text.get("rope_parameters")))
    if model_type not in MODEL_TYPES and "mrope_section" not in rope:
        raise ParameterError(f"model_type {model_type or 'missing'!r} has no multimodal RoPE (M-RoPE): peapp "
                             f"knows {', '.join(MODEL_TYPES)} or a config with mrope_section")
    sections = rope.get("mrope_section") or DEFAULT_SECTIONS.get(model_type)
    if not isinstance(sections, (list, tuple)) or len(sections) != 3:
        raise ParameterError(f"mrope_section must be three pair counts (t, h, w); got {sections!r}")
    sections = tuple(_number(s, "mrope_section", integer=True, low=-1) for s in sections)
    theta = rope.get("rope_theta", text.get("rope_theta", cfg.get("rope_theta", 10000.0)))
    theta = _number(theta, "rope_theta", low=1.0)
    heads = text.get("num_attention_heads")
    hidden = text.get("hidden_size")
    head_dim = text.get("head_dim") or (hidden // heads if isinstance(hidden, int) and isinstance(heads, int)
                                        and heads > 0 else None)
    head_dim = _number(head_dim, "head_dim", integer=True)
    partial = _number(rope.get("partial_rotary_factor", text.get("partial_rotary_factor", 1.0)),
                      "partial_rotary_factor")
    if partial > 1:
        raise ParameterError(f"partial_rotary_factor must be at most 1; got {partial}")
    interleaved = model_type.startswith("qwen3_vl") or (model_type not in MODEL_TYPES
                                                       and bool(rope.get("mrope_interleaved")))
    notes = []
    if "mrope_interleaved" in rope and bool(rope["mrope_interleaved"]) != interleaved:
        notes.append(f"mrope_interleaved is {rope['mrope_interleaved']!r}, but transformers' {model_type} "
                     f"rotary embedding is {'interleaved' if interleaved else 'sectioned'} whatever it says")
    result = MRopeConfig(
        model_type=model_type, sections=sections, interleaved=interleaved, rope_theta=theta, head_dim=head_dim,
        partial_rotary_factor=partial, adjacent_pairs=model_type == "glm4v",
        spatial_merge_size=_number(vision.get("spatial_merge_size", 2), "spatial_merge_size", integer=True),
        patch_size=_number(vision.get("patch_size", 14), "patch_size", integer=True),
        temporal_patch_size=_number(vision.get("temporal_patch_size", 2), "temporal_patch_size", integer=True),
        tokens_per_second=(_number(vision.get("tokens_per_second", 2), "tokens_per_second")
                           if model_type == "qwen2_5_vl" else None),
        vision_rope_theta=(float(_mapping(vision.get("rope_parameters")).get("rope_theta", vision.get("rope_theta", 10000.0)))
                           if vision else None),
        vision_learned_grid=(int(vision["num_position_embeddings"]) if isinstance(vision.get("num_position_embeddings"), int)
                             else (int(vision["image_size"]) // int(vision.get("patch_size", 14))) ** 2
                             if model_type == "glm4v" and isinstance(vision.get("image_size"), int) else None),
        notes=tuple(notes))
    if sum(sections) != result.pairs:
        raise ParameterError(f"mrope_section {list(sections)} covers {sum(sections)} rotary pairs, but the model "
                             f"rotates {result.pairs} (head_dim {head_dim} × partial_rotary_factor {partial:g} / 2)")
    return result


def _vision(model_type: str, **extra: Any) -> dict[str, Any]:
    return {"spatial_merge_size": 2, "temporal_patch_size": 2, "rope_parameters": {"rope_theta": 10000.0},
            **extra}


#: the released models' settings (their hub config.json), for the builder's "model style"
PRESETS: dict[str, dict[str, Any]] = {
    "qwen2_vl": {"model_type": "qwen2_vl", "vision_config": _vision("qwen2_vl", patch_size=14),
                 "text_config": {"head_dim": 128, "rope_parameters": {
                     "rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24, 24]}}},
    "qwen2_5_vl": {"model_type": "qwen2_5_vl", "vision_config": _vision("qwen2_5_vl", patch_size=14, tokens_per_second=2),
                   "text_config": {"head_dim": 128, "rope_parameters": {
                       "rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24, 24]}}},
    "qwen3_vl": {"model_type": "qwen3_vl", "vision_config": _vision("qwen3_vl", patch_size=16, num_position_embeddings=2304),
                 "text_config": {"head_dim": 128, "rope_parameters": {
                     "rope_type": "default", "rope_theta": 5e6, "mrope_section": [24, 20, 20],
                     "mrope_interleaved": True}}},
    "glm4v": {"model_type": "glm4v", "vision_config": _vision("glm4v", patch_size=14, image_size=336),
              "text_config": {"head_dim": 128, "rope_parameters": {
                  "rope_type": "default", "rope_theta": 10000.0, "mrope_section": [8, 12, 12],
                  "partial_rotary_factor": 0.5}}},
}


