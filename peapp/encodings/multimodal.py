"""Multimodal rotary positions: (t, h, w) ids for text, images and video in one sequence (M-RoPE).

Qwen2-VL, Qwen2.5-VL, Qwen3-VL and GLM-4V give every token three position ids — time, height,
width — and split the rotary pairs between the three axes.  Text tokens have t = h = w (1-D
RoPE); a visual block of merged grid (T, H, W) gets t ∈ [0, T), h ∈ [0, H), w ∈ [0, W) offset by
the current position, and the text after it continues from ``start + max(H, W)`` (as transformers
5.24 computes it).  :func:`rope_index` returns the same ids and deltas as each model's own
``get_rope_index`` (tested against transformers); :func:`pair_axes` says which axis each rotary
pair carries (contiguous sections or Qwen3-VL's interleaving) and :func:`model_cos_sin` is the
cos/sin the model's rotary embedding applies to those ids.

The designs that followed are drawn from their papers' formulas (no library implements them):

* **VideoRoPE** (Wei et al., 2025): low frequencies for time (LTA), spatial pairs interleaved on
  the high ones, a diagonal layout (DL: a frame's h, w ids centred on its t id) and adjustable
  temporal spacing δ (ATS: t advances by δ per frame).
* **HoPE** (Li et al., 2025): hybrid frequency allocation — spatial pairs interleaved on the high
  frequencies, the lowest ones set to zero (unrotated) for time — and dynamic temporal scaling γ.
* **V2PE** (Ge et al., 2024): one 1-D position where a visual token advances it by δ < 1 and a
  text token by 1.

This module is view-only (no ``FAMILY``): its pictures are over a block sequence, not a
position × dimension table.  torch is imported inside the functions that compute.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from peapp.checkpoints.mrope_config import (DEFAULT_SECTIONS, MODEL_TYPES, PRESETS, MRopeConfig, _mapping,
                                           read_config)
from peapp.errors import ParameterError
from peapp.i18n import msg

__all__ = ["DEFAULT_SECTIONS", "MODEL_TYPES", "PRESETS", "MRopeConfig", "build_sequence", "model_cos_sin",
           "pair_axes", "parse_blocks", "read_config", "rope_index", "rope_scores", "v2pe_positions",
           "videorope_positions"]

if TYPE_CHECKING:
    import torch

TEXT, IMAGE, VIDEO = 0, 1, 2  # mm_token_type_ids, as transformers numbers them
AXES = ("t", "h", "w")
#: frame-split models: each video frame is its own grid, separated by timestamp text
FRAME_SPLIT = ("qwen3_vl", "glm4v")
DESIGNS = ("mrope", "videorope", "hope", "v2pe")
DESIGN_LABELS = {"mrope": msg("Multimodal", "the model's M-RoPE"),
                 "videorope": msg("Multimodal", "VideoRoPE (Wei et al. 2025, from the paper)"),
                 "hope": msg("Multimodal", "HoPE (Li et al. 2025, from the paper)"),
                 "v2pe": msg("Multimodal", "V2PE (Ge et al. 2024, from the paper)")}
MAX_TOKENS = 8192
MAX_BLOCKS = 32


# ---- position ids, as the models compute them -------------------------------------------------------
def _vision_ids(start: int, grid: Sequence[int], merge: int, interval: float = 1.0) -> "torch.Tensor":
    import torch

    t, h, w = int(grid[0]), int(grid[1]) // merge, int(grid[2]) // merge
    pt = (torch.arange(t) * interval).long()  # truncated, as transformers does, before the offset
    tt, hh, ww = torch.meshgrid(pt, torch.arange(h) + start, torch.arange(w) + start, indexing="ij")
    ids = torch.stack([tt, hh, ww]).reshape(3, -1)
    ids[0] += start
    return ids


def rope_index(config: Any, input_ids: "torch.Tensor", mm_token_type_ids: "torch.Tensor",
               image_grid_thw: "torch.Tensor | None" = None, video_grid_thw: "torch.Tensor | None" = None,
               second_per_grid_ts: "torch.Tensor | None" = None,
               attention_mask: "torch.Tensor | None" = None) -> "tuple[torch.Tensor, torch.Tensor]":
    """The (3, B, n) position ids and the (B, 1) deltas of ``config["model_type"]``'s
    ``get_rope_index`` in transformers 5.24 (qwen2_vl, qwen2_5_vl, qwen3_vl, glm4v).

    ``mm_token_type_ids``: 0 text, 1 image, 2 video; grids are (T, H, W) before the spatial merge;
    ``second_per_grid_ts`` (Qwen2.5-VL): seconds per temporal grid step of each video; padded
    positions (``attention_mask`` 0) get id 0.  The delta is the largest id + 1 − the tokens."""
    import torch

    cfg = config.to_dict() if hasattr(config, "to_dict") else _mapping(config)
    model_type = str(cfg.get("model_type") or "")
    if model_type not in MODEL_TYPES:
        raise ParameterError(f"rope_index knows {', '.join(MODEL_TYPES)}; got model_type {model_type!r}")
    vision = _mapping(cfg.get("vision_config"))
    merge = int(vision.get("spatial_merge_size", 2))
    per_second = float(vision.get("tokens_per_second", 2)) if model_type == "qwen2_5_vl" else None
    if video_grid_thw is not None and model_type in FRAME_SPLIT:
        # one grid per frame: these models separate frames by timestamp text
        video_grid_thw = torch.repeat_interleave(video_grid_thw, video_grid_thw[:, 0], dim=0)
        video_grid_thw[:, 0] = 1
    grids = {IMAGE: iter(image_grid_thw) if image_grid_thw is not None else iter(()),
             VIDEO: iter(video_grid_thw) if video_grid_thw is not None else iter(())}
    seconds = iter(second_per_grid_ts.tolist()) if second_per_grid_ts is not None else itertools.repeat(1)
    position_ids = torch.zeros(3, *input_ids.shape, dtype=input_ids.dtype, device=input_ids.device)
    deltas = []
    for b in range(input_ids.shape[0]):
        kinds = mm_token_type_ids[b]
        keep = attention_mask[b].bool() if attention_mask is not None else None
        if keep is not None:
            kinds = kinds[keep]
        pos, parts = 0, []
        for kind, group in itertools.groupby(kinds.tolist()):
            length = len(list(group))
            if kind == TEXT:
                parts.append(torch.arange(length).view(1, -1).expand(3, -1) + pos)
                pos += length
                continue
            try:
                grid = next(grids[kind])
            except (StopIteration, KeyError):
                raise ParameterError(f"more {'image' if kind == IMAGE else 'video'} blocks in the token types "
                                     f"than grids given") from None
            interval = per_second * float(next(seconds)) if per_second is not None and kind == VIDEO else 1.0
            ids = _vision_ids(pos, grid.tolist(), merge, interval)
            if ids.shape[1] != length:
                raise ParameterError(f"a block of {length} visual tokens does not match its grid {grid.tolist()} "
                                     f"({ids.shape[1]} tokens after a {merge}×{merge} merge)")
            parts.append(ids)
            pos += max(int(grid[1]), int(grid[2])) // merge
        ids = torch.cat(parts, dim=1) if parts else torch.zeros(3, 0, dtype=torch.long)
        if keep is not None:
            position_ids[:, b, keep] = ids.to(position_ids)
        else:
            position_ids[:, b] = ids.to(position_ids)
        deltas.append(int(ids.max()) + 1 - ids.shape[1] if ids.numel() else 0)
    return position_ids, torch.tensor(deltas, device=input_ids.device).unsqueeze(1)


# ---- which pair carries which axis ---------------------------------------------------------------
def pair_axes(sections: Sequence[int], interleaved: bool) -> np.ndarray:
    """The axis (0 t, 1 h, 2 w) of each rotary pair: contiguous sections (Qwen2/2.5-VL, GLM-4V:
    time on the highest frequencies) or Qwen3-VL's interleaving (h on pairs 1, 4, … below 3·s_h,
    w on 2, 5, … below 3·s_w, t on the rest)."""
    st, sh, sw = (int(s) for s in sections)
    n = st + sh + sw
    if not interleaved:
        return np.repeat(np.arange(3), [st, sh, sw])
    axes = np.zeros(n, dtype=np.int64)
    axes[1:3 * sh:3] = 1
    axes[2:3 * sw:3] = 2
    return axes


def spatial_first_axes(pairs: int, temporal: int) -> np.ndarray:
    """VideoRoPE's and HoPE's allocation: h and w interleaved over the high frequencies, time on
    the ``temporal`` lowest (the last pairs)."""
    axes = np.where(np.arange(pairs) % 2 == 0, 1, 2)
    if temporal:
        axes[pairs - temporal:] = 0
    return axes


def model_cos_sin(mcfg: MRopeConfig, position_ids: "torch.Tensor") -> "tuple[torch.Tensor, torch.Tensor]":
    """The cos and sin the model's rotary embedding applies for ``position_ids`` (3, B, n):
    [B, n, rotary_dim], half-split (Qwen) or adjacent pairs (GLM-4V), float32."""
    import torch

    inv = torch.from_numpy(mcfg.inv_freq()).float()
    axes = torch.from_numpy(pair_axes(mcfg.sections, mcfg.interleaved))
    freqs = position_ids[..., None].float() * inv  # [3, B, n, pairs]
    angle = torch.gather(freqs, 0, axes.view(1, 1, 1, -1).expand(1, *freqs.shape[1:])).squeeze(0)
    cos, sin = angle.cos(), angle.sin()
    if mcfg.adjacent_pairs:
        return cos.repeat_interleave(2, dim=-1), sin.repeat_interleave(2, dim=-1)
    return torch.cat((cos, cos), dim=-1), torch.cat((sin, sin), dim=-1)


# ---- a sequence of blocks ---------------------------------------------------------------------
@dataclass(frozen=True)
class Block:
    kind: str  # "text", "image", "video"
    tokens: int = 0  # text
    frames: int = 1  # video: temporal grid steps (after temporal patching)
    height: int = 1  # merged token rows
    width: int = 1  # merged token columns
    seconds: float = 1.0  # video: seconds between token frames (second_per_grid_ts)

    def describe(self) -> str:
        if self.kind == "text":
            return f"text {self.tokens}"
        if self.kind == "image":
            return f"image {self.height}×{self.width}"
        return f"video {self.frames}×{self.height}×{self.width} @{self.seconds:g}s"


_BLOCK = re.compile(r"^\s*(text|image|video)\s+([0-9x×\s]+?)\s*(?:@\s*([0-9.]+)\s*s?)?\s*$", re.IGNORECASE)


def parse_blocks(text: str) -> tuple[Block, ...]:
    """``"text 6, image 4x6, video 3x4x4 @2s, text 6"`` → blocks (sizes after the merge)."""
    blocks = []
    for part in (p for p in re.split(r"[,;\n]", text) if p.strip()):
        m = _BLOCK.match(part)
        if not m:
            raise ParameterError(f"cannot read block {part.strip()!r}: write e.g. text 6, image 4x6, "
                                 f"video 3x4x4 @2s (frames × rows × columns after merging, seconds between frames)")
        kind, sizes, seconds = m.group(1).lower(), [int(s) for s in re.split(r"[x×\s]+", m.group(2).strip()) if s], m.group(3)
        want = {"text": 1, "image": 2, "video": 3}[kind]
        if len(sizes) != want or min(sizes) < 1 or (seconds is not None and kind != "video"):
            raise ParameterError(f"block {part.strip()!r}: {kind} takes {want} size(s) of at least 1"
                                 + (" and @seconds" if kind == "video" else ""))
        if kind == "text":
            blocks.append(Block("text", tokens=sizes[0]))
        elif kind == "image":
            blocks.append(Block("image", height=sizes[0], width=sizes[1]))
        else:
            sec = float(seconds) if seconds is not None else 1.0
            if not 0 < sec <= 3600:
                raise ParameterError(f"block {part.strip()!r}: seconds between frames must be in (0, 3600]")
            blocks.append(Block("video", frames=sizes[0], height=sizes[1], width=sizes[2], seconds=sec))
    if not blocks:
        raise ParameterError("the sequence is empty: give blocks such as text 6, image 4x6")
    if len(blocks) > MAX_BLOCKS:
        raise ParameterError(f"{len(blocks)} blocks is more than {MAX_BLOCKS}")
    return tuple(blocks)


@dataclass(frozen=True)
class Span:
    """One block's tokens [start, stop) in the sequence; a frame-split video has one span per
    frame's tokens and one per timestamp."""

    block: int
    kind: str
    start: int
    stop: int
    grid: tuple[int, int, int] = (0, 0, 0)  # (frames, rows, columns) of the visual tokens
    frame: int = -1  # frame index of a frame-split video's part


@dataclass(frozen=True)
class Sequence3D:
    """The model inputs a processor would give for the blocks, and where each block lies."""

    blocks: tuple[Block, ...]
    token_types: np.ndarray  # [n] 0/1/2
    image_grid_thw: np.ndarray  # [images, 3], before the merge
    video_grid_thw: np.ndarray  # [videos, 3]
    second_per_grid_ts: np.ndarray  # [videos]
    spans: tuple[Span, ...]
    block_of: np.ndarray  # [n] block index of each token
    # [n, 3] (frame, row, column) of each visual token, −1 for text
    grid_pos: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 3), np.int64))

    @property
    def n(self) -> int:
        return len(self.token_types)


def build_sequence(blocks: Sequence[Block], mcfg: MRopeConfig, timestamp_tokens: int = 4) -> Sequence3D:
    """The token types, grids and seconds for ``blocks`` as the model's processor lays them out:
    grids in patches before the merge (rows × merge), and for Qwen3-VL / GLM-4V each video frame
    after ``timestamp_tokens`` text tokens (its "<t seconds>" timestamp)."""
    m = mcfg.spatial_merge_size
    types: list[int] = []
    spans: list[Span] = []
    block_of: list[int] = []
    grid_pos: list[tuple[int, int, int]] = []
    images, videos, seconds = [], [], []
    split = mcfg.model_type in FRAME_SPLIT
    for b, blk in enumerate(blocks):
        def add(kind: str, count: int, grid=(0, 0, 0), frame=-1, pos=None, b: int = b) -> None:
            start = len(types)
            types.extend([{"text": TEXT, "timestamp": TEXT, "image": IMAGE, "video": VIDEO}[kind]] * count)
            block_of.extend([b] * count)
            grid_pos.extend(pos if pos is not None else [(-1, -1, -1)] * count)
            spans.append(Span(b, kind, start, len(types), grid, frame))

        def cells(frames: Sequence[int], h: int, w: int) -> list[tuple[int, int, int]]:
            return [(f, r, c) for f in frames for r in range(h) for c in range(w)]

        if blk.kind == "text":
            add("text", blk.tokens)
        elif blk.kind == "image":
            images.append((1, blk.height * m, blk.width * m))
            add("image", blk.height * blk.width, (1, blk.height, blk.width), pos=cells([0], blk.height, blk.width))
        else:
            videos.append((blk.frames, blk.height * m, blk.width * m))
            seconds.append(blk.seconds)
            if split:
                for f in range(blk.frames):
                    if timestamp_tokens:
                        add("timestamp", timestamp_tokens, frame=f)
                    add("video", blk.height * blk.width, (blk.frames, blk.height, blk.width), f,
                        pos=cells([f], blk.height, blk.width))
            else:
                add("video", blk.frames * blk.height * blk.width, (blk.frames, blk.height, blk.width),
                    pos=cells(range(blk.frames), blk.height, blk.width))
        if len(types) > MAX_TOKENS:
            raise ParameterError(f"the sequence has more than {MAX_TOKENS:,} tokens; use smaller blocks")
    return Sequence3D(blocks=tuple(blocks), token_types=np.array(types, dtype=np.int64),
                      image_grid_thw=np.array(images, dtype=np.int64).reshape(-1, 3),
                      video_grid_thw=np.array(videos, dtype=np.int64).reshape(-1, 3),
                      second_per_grid_ts=np.array(seconds, dtype=np.float64), spans=tuple(spans),
                      block_of=np.array(block_of, dtype=np.int64),
                      grid_pos=np.array(grid_pos, dtype=np.int64).reshape(-1, 3))


def model_positions(seq: Sequence3D, config: Mapping[str, Any]) -> np.ndarray:
    """[3, n] int64: the model's own ids for the sequence (through :func:`rope_index`)."""
    import torch

    types = torch.from_numpy(seq.token_types).view(1, -1)
    ids, _ = rope_index(config, torch.zeros_like(types), types,
                        torch.from_numpy(seq.image_grid_thw) if len(seq.image_grid_thw) else None,
                        torch.from_numpy(seq.video_grid_thw) if len(seq.video_grid_thw) else None,
                        torch.from_numpy(seq.second_per_grid_ts) if len(seq.second_per_grid_ts) else None)
    return ids[:, 0].numpy()


# ---- the designs that followed (from the papers' formulas) ----------------------------------------
def videorope_positions(seq: Sequence3D, spacing: float = 2.0) -> np.ndarray:
    """VideoRoPE's diagonal layout with adjustable temporal spacing δ (Wei et al. 2025, §3):
    a visual token at frame f, row r, column c after text ending at s gets
    t = s + δ·f, h = t + r − H/2, w = t + c − W/2; text continues from the largest id + 1."""
    out = np.zeros((3, seq.n), dtype=np.float64)
    pos = 0.0
    for span in seq.spans:
        if span.kind in ("text", "timestamp"):
            count = span.stop - span.start
            out[:, span.start:span.stop] = pos + np.arange(count)
            pos += count
            continue
        # a visual block (a frame-split video's frame is one: its timestamp text advanced pos)
        idx = np.arange(span.start, span.stop)
        fr, r, c = seq.grid_pos[idx].T
        _, h, w = span.grid
        t = pos + spacing * (fr - fr.min())
        out[0, idx], out[1, idx], out[2, idx] = t, t + r - h / 2, t + c - w / 2
        pos = float(out[:, idx].max()) + 1
    return out


def scaled_time_positions(ids: np.ndarray, seq: Sequence3D, scale: float) -> np.ndarray:
    """HoPE's dynamic temporal scaling: a video's t ids stretched by γ from the block's first
    frame (the rest of the layout is the model's)."""
    out = ids.astype(np.float64).copy()
    for span in seq.spans:
        if span.kind == "video":
            first = out[0, [s.start for s in seq.spans if s.block == span.block and s.kind == "video"][0]]
            out[0, span.start:span.stop] = first + (out[0, span.start:span.stop] - first) * scale
    return out


def v2pe_positions(seq: Sequence3D, step: float = 0.25) -> np.ndarray:
    """V2PE (Ge et al. 2024): one 1-D position; a text token advances it by 1, a visual token by
    δ (the paper samples δ from 1, 1/2, 1/4 … 1/256)."""
    advance = np.where(seq.token_types == TEXT, 1.0, float(step))
    pos = np.concatenate([[0.0], np.cumsum(advance)[:-1]])
    return np.broadcast_to(pos, (3, seq.n)).copy()


# ---- the score a query gets from every key, positions only ----------------------------------------
def rope_scores(positions: np.ndarray, axes: np.ndarray, inv_freq: np.ndarray, query: int) -> np.ndarray:
    """[n]: mean over rotary pairs of cos(θ_i (p_q − p_k) on pair i's axis): q·k / |q|² for one
    content vector q = k whose pairs have equal norms, the positions the only difference."""
    pos = positions[axes]  # [pairs, n]: each pair's axis ids
    delta = pos[:, query:query + 1] - pos
    return np.cos(inv_freq[:, None] * delta).mean(axis=0)
