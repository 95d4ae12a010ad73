"""The multimodal positions panel's computation: a block sequence, its (t, h, w) ids under the
model's M-RoPE or a later design, which rotary pair carries which axis in each layout, and the
RoPE score from a query token to every key (positions only) for each layout.

The model's settings come from a preset (the released models' config.json values) or from the
open checkpoint's config (``checkpoint``, read lazily on the worker), never from a widget.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from peapp.encodings import multimodal as mm
from peapp.errors import ParameterError, PeappError
from peapp.i18n import msg, translate
from peapp.jobs import ProgressFn, Request
from peapp.params import Spec, param

STYLE_CHOICES = {"qwen2_vl": msg("Multimodal", "Qwen2-VL (sectioned)"),
                 "qwen2_5_vl": msg("Multimodal", "Qwen2.5-VL (sectioned, seconds)"),
                 "qwen3_vl": msg("Multimodal", "Qwen3-VL (interleaved)"),
                 "glm4v": msg("Multimodal", "GLM-4V (sectioned, partial)")}
CONFIG_CHOICES = {"auto": msg("Multimodal", "open checkpoint, else the style"),
                  "style": msg("Multimodal", "the style's preset")}
DEFAULT_BLOCKS = "text 6, image 4x6, video 3x4x4 @2s, text 6"
#: the rows of the pair chart besides the design's: (key, label)
LAYOUT_ROWS = (("1d", msg("Multimodal", "1D RoPE")), ("sectioned", msg("Multimodal", "sectioned (Qwen2/2.5-VL)")),
               ("interleaved", msg("Multimodal", "interleaved (Qwen3-VL)")))
AXIS_1D, AXIS_ZERO = 3, 4  # pair-chart codes beside 0 t, 1 h, 2 w: one 1-D position; unrotated


@dataclass(frozen=True)
class MultimodalSettings(Spec):
    """What the multimodal positions panel shows; stored in ``Document.views["multimodal"]``."""

    family: ClassVar[str] = "multimodal positions"
    config_from: str = param("auto", msg("Params", "Settings from"), choices=CONFIG_CHOICES,
                             help=msg("Params", "auto: the open checkpoint's config when it has M-RoPE, else the "
                                                "model style's preset; style: always the preset."))
    style: str = param("qwen2_5_vl", msg("Params", "Model style"), choices=STYLE_CHOICES,
                       help=msg("Params", "A released model's settings (head_dim 128, its base, sections and "
                                          "merge size) when no checkpoint gives them."))
    blocks: str = param(DEFAULT_BLOCKS, msg("Params", "Sequence"),
                        help=msg("Params", "Blocks separated by commas: text N, image HxW, video FxHxW @Ss (rows "
                                           "and columns after merging; F token frames, S seconds between them)."))
    timestamp_tokens: int = param(4, msg("Params", "Timestamp tokens"), minimum=0, maximum=16, step=1,
                                  help=msg("Params", "Qwen3-VL and GLM-4V: text tokens of the timestamp before each "
                                                     "video frame (they separate frames by text, not by t ids)."))
    design: str = param("mrope", msg("Params", "Design"), choices=mm.DESIGN_LABELS,
                        help=msg("Params", "The model's M-RoPE, or a later design drawn from its paper's formulas "
                                           "on the same sequence."))
    temporal_spacing: float = param(2.0, msg("Params", "Temporal spacing"), minimum=0.0625, maximum=16.0, log=True,
                                    help=msg("Params", "VideoRoPE: δ, the t step per frame; HoPE: γ, the scale of "
                                                       "the video's t ids."))
    v2pe_step: float = param(0.25, msg("Params", "V2PE step"), minimum=1 / 256, maximum=1.0, log=True,
                             help=msg("Params", "V2PE: how far one visual token advances the position (text: 1)."))
    query: int = param(-1, msg("Params", "Query token"), minimum=-1, maximum=mm.MAX_TOKENS - 1, step=1,
                       help=msg("Params", "The token whose RoPE scores to every key are drawn; −1: the middle "
                                          "patch of the last visual block."))

    def check(self) -> None:
        mm.parse_blocks(self.blocks)


@dataclass(frozen=True)
class MultimodalResult:
    request: "MultimodalRequest"
    source: str  # where the settings came from (preset name or checkpoint path)
    mcfg: mm.MRopeConfig
    seq: mm.Sequence3D
    model_ids: np.ndarray  # [3, n] the model's own (rope_index)
    ids: np.ndarray  # [3, n] the design's (= model_ids for M-RoPE), float
    deltas: int
    design: str
    pair_rows: tuple[str, ...]  # labels of the pair chart's rows (translated)
    pair_axes: np.ndarray  # [rows, pairs] 0 t, 1 h, 2 w, AXIS_1D, AXIS_ZERO
    model_row: int  # the row of the model's own layout
    wavelengths: np.ndarray  # [pairs] 2π/θ_i
    map_labels: tuple[str, ...]
    scores: np.ndarray  # [maps, n]
    query: int
    mosaic: np.ndarray  # [rows, cols] token index of each visual key (−1 gaps)
    mosaic_frames: tuple[tuple[int, int, str], ...]  # (x of the frame's first column, width, label)
    overlap: int  # text tokens after a video whose ids fall below its largest t id
    notes: tuple[str, ...]
    from_checkpoint: bool = False  # the open checkpoint's config set the model (the style is not used)

    def block_label(self, b: int) -> str:
        blk = self.seq.blocks[b]
        if blk.kind == "text":
            return translate("Multimodal", "text ({n})").format(n=blk.tokens)
        if blk.kind == "image":
            return translate("Multimodal", "image {h}×{w}").format(h=blk.height, w=blk.width)
        return translate("Multimodal", "video {f}×{h}×{w}, {s:g} s apart").format(
            f=blk.frames, h=blk.height, w=blk.width, s=blk.seconds)


def _config_of(path: str) -> dict[str, Any] | None:
    from peapp.checkpoints import open_cached

    config = open_cached(path).config
    return dict(config) if config else None


@dataclass(frozen=True)
class MultimodalRequest(Request):
    channel: ClassVar[str] = "multimodal"
    settings: MultimodalSettings
    checkpoint: str | None = None  # the open checkpoint, when config_from is auto

    def compute(self, progress: ProgressFn) -> MultimodalResult:
        s = self.settings
        config: dict[str, Any] = mm.PRESETS[s.style]
        from_checkpoint = False
        source = translate("Multimodal", "{style} preset").format(style=s.style)
        notes: list[str] = []
        if self.checkpoint and s.config_from == "auto":
            try:
                given = _config_of(self.checkpoint)
                if given is None:
                    raise ParameterError("it has no config.json")
                mm.read_config(given)
                config, source = given, os.path.basename(self.checkpoint.rstrip("/\\")) or self.checkpoint
                from_checkpoint = True
            except PeappError as exc:
                notes.append(translate("Multimodal", "The open checkpoint is not used ({reason}); showing the "
                                                     "{style} preset.").format(reason=exc, style=s.style))
        mcfg = mm.read_config(config)
        notes.extend(mcfg.notes)
        if mcfg.model_type not in mm.MODEL_TYPES:
            # M-RoPE settings of a model whose ids peapp does not compute: lay them out as the closest style
            notes.append(translate("Multimodal", "{kind}: ids laid out as {style}").format(kind=mcfg.model_type,
                                                                                        style=s.style))
            config = {**config, "model_type": "qwen3_vl" if mcfg.interleaved else "qwen2_vl"}
        seq = mm.build_sequence(mm.parse_blocks(s.blocks), mcfg, s.timestamp_tokens)
        progress(0.2)
        model_ids = mm.model_positions(seq, config)
        deltas = int(model_ids.max()) + 1 - seq.n if seq.n else 0
        if s.design == "videorope":
            ids = mm.videorope_positions(seq, s.temporal_spacing)
        elif s.design == "hope":
            ids = mm.scaled_time_positions(model_ids, seq, s.temporal_spacing)
        elif s.design == "v2pe":
            ids = mm.v2pe_positions(seq, s.v2pe_step)
        else:
            ids = model_ids.astype(np.float64)

        pairs = mcfg.pairs
        inv = mcfg.inv_freq()
        sectioned = mm.pair_axes(mcfg.sections, False)
        interleaved = mm.pair_axes(mcfg.sections, True)
        rows = [np.full(pairs, AXIS_1D), sectioned, interleaved]
        labels = [translate("Multimodal", text) for _, text in LAYOUT_ROWS]
        spatial = mm.spatial_first_axes(pairs, mcfg.sections[0])
        design_axes = {"videorope": spatial, "hope": np.where(spatial == 0, AXIS_ZERO, spatial),
                       "v2pe": np.full(pairs, AXIS_1D)}.get(s.design)
        if design_axes is not None:
            rows.append(design_axes)
            labels.append(translate("Multimodal", mm.DESIGN_LABELS[s.design]))

        flat = np.broadcast_to(np.arange(seq.n, dtype=np.float64), (3, seq.n))
        visual = np.flatnonzero(seq.token_types != mm.TEXT)
        query = s.query if 0 <= s.query < seq.n else self._default_query(seq)
        zero_t = np.where(spatial == 0, 0.0, inv)
        maps = [(translate("Multimodal", "1D RoPE on the flattened order"), flat, np.zeros(pairs, np.int64), inv),
                (translate("Multimodal", "sectioned M-RoPE"), model_ids, sectioned, inv),
                (translate("Multimodal", "interleaved M-RoPE"), model_ids, interleaved, inv)]
        if s.design == "videorope":
            maps.append((translate("Multimodal", "VideoRoPE"), ids, spatial, inv))
        elif s.design == "hope":
            maps.append((translate("Multimodal", "HoPE"), ids, spatial, zero_t))
        elif s.design == "v2pe":
            maps.append((translate("Multimodal", "V2PE"), ids, np.zeros(pairs, np.int64), inv))
        scores = np.stack([mm.rope_scores(np.asarray(p, np.float64), a, f, query) for _, p, a, f in maps]) \
            if seq.n else np.zeros((len(maps), 0))
        progress(0.8)
        mosaic, frames = _mosaic(seq)
        overlap = _overlap(seq, model_ids)
        return MultimodalResult(
            request=self, source=source, mcfg=mcfg, seq=seq, model_ids=model_ids, ids=ids, deltas=deltas,
            design=s.design, pair_rows=tuple(labels), pair_axes=np.stack(rows),
            model_row=2 if mcfg.interleaved else 1, wavelengths=2 * np.pi / inv,
            map_labels=tuple(m[0] for m in maps), scores=scores, query=int(query), mosaic=mosaic,
            mosaic_frames=frames, overlap=overlap, from_checkpoint=from_checkpoint, notes=tuple(notes) + (() if len(visual) else (
                translate("Multimodal", "The sequence has no image or video: every token's t, h and w are equal "
                                        "(1D RoPE)."),)))

    @staticmethod
    def _default_query(seq: mm.Sequence3D) -> int:
        visual = [sp for sp in seq.spans if sp.kind in ("image", "video")]
        if not visual:
            return max(0, seq.n - 1)
        block = visual[-1].block
        spans = [sp for sp in visual if sp.block == block]
        tokens = np.concatenate([np.arange(sp.start, sp.stop) for sp in spans])
        frames, h, w = spans[0].grid
        want = (frames // 2, h // 2, w // 2)
        hit = np.flatnonzero((seq.grid_pos[tokens] == want).all(axis=1))
        return int(tokens[hit[0]]) if len(hit) else int(tokens[len(tokens) // 2])


def _mosaic(seq: mm.Sequence3D) -> tuple[np.ndarray, tuple[tuple[int, int, str], ...]]:
    """Every visual token on one canvas: each block's frames side by side (one column apart,
    two between blocks), rows downwards; the canvas holds token indices, −1 in the gaps."""
    tiles: list[tuple[int, np.ndarray]] = []  # (block, [rows, cols] token indices)
    for b, blk in enumerate(seq.blocks):
        if blk.kind == "text":
            continue
        tokens = np.flatnonzero((seq.block_of == b) & (seq.token_types != mm.TEXT))
        pos = seq.grid_pos[tokens]
        for f in range(blk.frames if blk.kind == "video" else 1):
            tile = np.full((blk.height, blk.width), -1, dtype=np.int64)
            sel = pos[:, 0] == f
            tile[pos[sel, 1], pos[sel, 2]] = tokens[sel]
            tiles.append((b, tile))
    if not tiles:
        return np.full((1, 1), -1, dtype=np.int64), ()
    height = max(t.shape[0] for _, t in tiles)
    x, placed, frames = 0, [], []
    for k, (b, tile) in enumerate(tiles):
        if k and tiles[k - 1][0] != b:
            x += 1  # a wider gap between blocks
        placed.append((x, tile))
        blk = seq.blocks[b]
        f = sum(1 for bb, _ in tiles[:k] if bb == b)
        label = (translate("Multimodal", "image") if blk.kind == "image"
                 else translate("Multimodal", "f{frame}").format(frame=f))
        frames.append((x, tile.shape[1], label))
        x += tile.shape[1] + 1
    canvas = np.full((height, x - 1), -1, dtype=np.int64)
    for x0, tile in placed:
        canvas[:tile.shape[0], x0:x0 + tile.shape[1]] = tile
    return canvas, tuple(frames)


def _overlap(seq: mm.Sequence3D, ids: np.ndarray) -> int:
    """Text tokens after a visual block whose id is at most that block's largest id (the next
    text continues from start + max(h, w), so a long or widely spaced video's t ids run past it)."""
    count = 0
    for b, blk in enumerate(seq.blocks):
        if blk.kind == "text":
            continue
        tokens = np.flatnonzero(seq.block_of == b)
        later = np.flatnonzero((seq.token_types == mm.TEXT) & (np.arange(seq.n) > tokens.max()))
        count = max(count, int((ids[0, later] <= ids[:, tokens].max()).sum()))
    return count
