"""2D position encodings for vision transformers: patch grids, tables, similarity, resampling.

An image of ``H_img × W_img`` pixels cut into ``p_h × p_w`` patches gives a grid of
``grid_h × grid_w`` patches, numbered row-major (index = row · grid_w + col), the order a ViT's
patch embedding (a strided convolution, then ``flatten(2)``) produces.  Prefix tokens (CLS,
DeiT's distillation token, register tokens) come first in a table and are kept apart from the
grid: they have no place in it.

Encodings of the grid offered here:

* ``sincos_2d`` — fixed 2D sin-cos as MAE builds it: the first half of the channels encodes the
  column (x) coordinate, the second half the row (y) coordinate, each half ``[sin | cos]`` with
  ω_k = 1 / base^(k / (dim/4)), k = 0 … dim/4 − 1.
* ``learned_2d`` — a learned table: a seeded random init (std 0.02, like ViT/timm), or a given
  table (a checkpoint's, with its prefix tokens).
* ``rope_2d`` — axial 2D RoPE: nothing is added; q and k are rotated, the first half of the
  head dimensions by the column index, the second half by the row index (each half its own
  1D RoPE with θ_i = base^(−2i/(dim/2)), half-split pairs).
* ``flat_1d`` — the 1D sinusoid of the flattened patch index, for contrast: it knows only the
  raster order, so the patch after the end of a row is "next" to the start of the next row.

Similarity of every patch with every other (cosine; for RoPE the dot product of a fixed vector
rotated to the two positions, divided by its squared norm) gives the ViT paper's Fig. 7 when each
patch's row is laid out as the grid (:func:`tile_mosaic`).

This module exports no ``FAMILY``: its views are 2D (the patch-grid dock), not position × dim.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from peapp.encodings import rope as rope1d
from peapp.encodings import sinusoidal
from peapp.errors import ParameterError
from peapp.i18n import msg, shown, translate
from peapp.memory import ensure_fits

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

ENCODINGS = ("sincos_2d", "learned_2d", "rope_2d", "flat_1d")
LABELS = {  # marked messages: English here, translated where shown
    "sincos_2d": msg("PatchGrid", "2D sin-cos (MAE)"),
    "learned_2d": msg("PatchGrid", "Learned 2D (random init)"),
    "rope_2d": msg("PatchGrid", "Axial 2D RoPE"),
    "flat_1d": msg("PatchGrid", "Flattened 1D sinusoid"),
    "table": msg("PatchGrid", "Learned table (given)"),
}
# Largest grid side the tile view accepts: 64×64 patches give a 4,096² similarity matrix.
MAX_GRID_SIDE = 64


def _pair(value: int | tuple[int, int] | list[int], what: str) -> tuple[int, int]:
    """An int or an (h, w) pair as a tuple of two positive ints."""
    if isinstance(value, (int, np.integer)):
        h = w = int(value)
    else:
        try:
            h, w = (int(v) for v in value)
        except (TypeError, ValueError):
            raise ParameterError(f"{what} must be a number or a (height, width) pair; got {value!r}") from None
    if h < 1 or w < 1:
        raise ParameterError(f"{what} must be at least 1 × 1; got {h} × {w}")
    return h, w


# --------------------------------------------------------------------------------------------
# The grid
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PatchGrid:
    """Patches of an image, and the prefix tokens that precede them in a ViT's sequence.

    The patch embedding is a convolution with stride = patch size, so pixels past the last
    whole patch are dropped (``cropped`` says how many rows/columns of pixels).
    """

    image_height: int
    image_width: int
    patch_height: int
    patch_width: int
    num_prefix_tokens: int = 1

    def __post_init__(self) -> None:
        if self.patch_height < 1 or self.patch_width < 1:
            raise ParameterError(f"patch size must be at least 1 × 1 pixel; got "
                                 f"{self.patch_height} × {self.patch_width}")
        if self.image_height < self.patch_height or self.image_width < self.patch_width:
            raise ParameterError(
                f"an image of {self.image_height} × {self.image_width} pixels holds no whole "
                f"{self.patch_height} × {self.patch_width} patch; use a larger image or smaller patches")
        if self.num_prefix_tokens < 0:
            raise ParameterError(f"prefix tokens must be 0 or more; got {self.num_prefix_tokens}")

    @classmethod
    def from_sizes(cls, image_size: int | tuple[int, int], patch_size: int | tuple[int, int],
                   num_prefix_tokens: int = 1) -> "PatchGrid":
        """``image_size`` and ``patch_size`` as an int (square) or (height, width)."""
        ih, iw = _pair(image_size, "image size")
        ph, pw = _pair(patch_size, "patch size")
        return cls(ih, iw, ph, pw, int(num_prefix_tokens))

    @property
    def grid_h(self) -> int:
        return self.image_height // self.patch_height

    @property
    def grid_w(self) -> int:
        return self.image_width // self.patch_width

    @property
    def shape(self) -> tuple[int, int]:
        return self.grid_h, self.grid_w

    @property
    def num_patches(self) -> int:
        return self.grid_h * self.grid_w

    @property
    def num_tokens(self) -> int:
        """Rows of a position table for this grid: prefix tokens + patches."""
        return self.num_prefix_tokens + self.num_patches

    @property
    def cropped(self) -> tuple[int, int]:
        """Pixel rows and columns past the last whole patch (dropped by the patch embedding)."""
        return self.image_height - self.grid_h * self.patch_height, self.image_width - self.grid_w * self.patch_width

    def row_col(self, index: int) -> tuple[int, int]:
        return divmod(int(index), self.grid_w)

    def patch_rect(self, index: int) -> tuple[int, int, int, int]:
        """(x, y, width, height) in pixels of patch ``index``."""
        r, c = self.row_col(index)
        return c * self.patch_width, r * self.patch_height, self.patch_width, self.patch_height

    def describe(self) -> str:
        h, w = self.cropped
        crop = translate("PatchGrid", "; {rows} px rows and {cols} px columns past the last patch are dropped").format(
            rows=h, cols=w) if h or w else ""
        if not self.num_prefix_tokens:
            prefix = translate("PatchGrid", " (no prefix tokens)")
        elif self.num_prefix_tokens == 1:
            prefix = translate("PatchGrid", " + 1 prefix token")
        else:
            prefix = translate("PatchGrid", " + {n} prefix tokens").format(n=self.num_prefix_tokens)
        return translate("PatchGrid", "{ih}×{iw} px image, {ph}×{pw} px patches → {gh}×{gw} = {n:,} "
                                      "patches{prefix}{crop}").format(
            ih=self.image_height, iw=self.image_width, ph=self.patch_height, pw=self.patch_width, gh=self.grid_h,
            gw=self.grid_w, n=self.num_patches, prefix=prefix, crop=crop)


def grid_neighbours(grid_h: int, grid_w: int, index: int) -> list[int]:
    """Indices of the up/down/left/right neighbours of patch ``index`` that exist."""
    r, c = divmod(int(index), grid_w)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < grid_h and 0 <= cc < grid_w:
            out.append(rr * grid_w + cc)
    return out


def flat_neighbours(grid_h: int, grid_w: int, index: int) -> list[int]:
    """Indices adjacent to ``index`` in the flattened (raster) order: index − 1 and index + 1."""
    n = grid_h * grid_w
    return [i for i in (int(index) - 1, int(index) + 1) if 0 <= i < n]


def _grid_coords(grid_h: int, grid_w: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Row and column index of every patch, row-major, float64."""
    import torch
    rows = torch.arange(grid_h, dtype=torch.float64).repeat_interleave(grid_w)
    cols = torch.arange(grid_w, dtype=torch.float64).repeat(grid_h)
    return rows, cols


def _check_grid(grid_h: int, grid_w: int) -> None:
    if grid_h < 1 or grid_w < 1:
        raise ParameterError(f"a patch grid needs at least 1 × 1 patches; got {grid_h} × {grid_w}")


# --------------------------------------------------------------------------------------------
# Encodings
# --------------------------------------------------------------------------------------------
def sincos_1d(positions: torch.Tensor, dim: int, base: float = 10000.0) -> torch.Tensor:
    """MAE's 1D block: ``[sin(p·ω) | cos(p·ω)]`` with ω_k = 1/base^(k/(dim/2)), float64 [n, dim]."""
    import torch
    if dim % 2:
        raise ParameterError(f"a sin-cos block needs an even width; got {dim}")
    omega = 1.0 / float(base) ** (torch.arange(dim // 2, dtype=torch.float64) / (dim / 2))
    angles = positions.to(torch.float64).reshape(-1, 1) * omega.reshape(1, -1)
    return torch.cat((angles.sin(), angles.cos()), dim=1)


def sincos_2d(grid_h: int, grid_w: int, dim: int, base: float = 10000.0) -> torch.Tensor:
    """MAE's fixed 2D sin-cos table, float32 [grid_h·grid_w, dim], row-major over the grid.

    Channels ``[0, dim/2)`` encode the column coordinate and ``[dim/2, dim)`` the row coordinate,
    each as ``[sin | cos]`` with ω_k = 1/base^(k/(dim/4)) — equal to MAE's
    ``get_2d_sincos_pos_embed`` (whose meshgrid puts the width coordinate first).  Prefix tokens
    are not included (MAE gives CLS a zero row).
    """
    import torch
    _check_grid(grid_h, grid_w)
    if dim < 4 or dim % 4:
        raise ParameterError(f"2D sin-cos needs dim divisible by 4 (sin and cos for each of two axes); got {dim}")
    # Each half depends on one coordinate only: evaluate it per distinct row/column, then expand.
    col_part = sincos_1d(torch.arange(grid_w), dim // 2, base).to(torch.float32)
    row_part = sincos_1d(torch.arange(grid_h), dim // 2, base).to(torch.float32)
    return torch.cat((col_part.repeat(grid_h, 1), row_part.repeat_interleave(grid_w, dim=0)), dim=1)


def flat_1d(grid_h: int, grid_w: int, dim: int, base: float = 10000.0) -> torch.Tensor:
    """The 1D sinusoid (Vaswani, interleaved) of the flattened patch index, float32 [n, dim]."""
    import torch
    _check_grid(grid_h, grid_w)
    if dim < 2 or dim % 2:
        raise ParameterError(f"the 1D sinusoid needs an even dim; got {dim}")
    return sinusoidal.rows(torch.arange(grid_h * grid_w), dim, base, "interleaved")


def learned_2d(grid_h: int, grid_w: int, dim: int, seed: int = 0, num_prefix_tokens: int = 1,
               std: float = 0.02) -> torch.Tensor:
    """A seeded random learned table [prefix + grid_h·grid_w, dim] (ViT/timm init, std 0.02).

    Prefix rows come first, as in a checkpoint.  Untrained, it has no spatial structure at all:
    the contrast to a trained ViT's table, whose rows learn the grid.
    """
    import torch
    _check_grid(grid_h, grid_w)
    if dim < 1:
        raise ParameterError(f"dim must be at least 1; got {dim}")
    n = num_prefix_tokens + grid_h * grid_w
    ensure_fits((n, dim), 4, what="a learned position table", suggestion="use a smaller grid or dim")
    gen = torch.Generator().manual_seed(int(seed))
    return torch.randn(n, dim, generator=gen) * std


def rope_2d_inv_freq(dim: int, base: float = 10000.0) -> torch.Tensor:
    """Per-axis RoPE frequencies for axial 2D RoPE: each axis owns dim/2 dims = dim/4 pairs."""
    if dim < 4 or dim % 4:
        raise ParameterError(f"axial 2D RoPE needs head_dim divisible by 4 (pairs for each of two axes); got {dim}")
    return rope1d.default_inv_freq(dim // 2, base)


def rope_2d_apply(x: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """Rotate x [..., n, dim]: dims [0, dim/2) by the column index, [dim/2, dim) by the row index."""
    import torch
    dim = x.shape[-1]
    inv = rope_2d_inv_freq(dim, base)
    half = dim // 2
    x_part = rope1d.apply(x[..., :half], cols, inv, "half")
    y_part = rope1d.apply(x[..., half:], rows, inv, "half")
    return torch.cat((x_part, y_part), dim=-1)


def rope_vector(dim: int, kind: str = "ones", seed: int = 0) -> torch.Tensor:
    """The fixed q = k vector whose rotated dot products define RoPE's similarity.

    ``ones`` weighs every frequency pair equally; ``random`` is a seeded Gaussian draw.
    """
    import torch
    if kind == "ones":
        return torch.ones(dim)
    if kind == "random":
        return torch.randn(dim, generator=torch.Generator().manual_seed(int(seed)))
    raise ParameterError(f"RoPE vector must be 'ones' or 'random'; got {kind!r}")


def rope_2d_similarity(grid_h: int, grid_w: int, dim: int, base: float = 10000.0,
                       vector: torch.Tensor | None = None) -> torch.Tensor:
    """[n, n] ⟨R_p v, R_q v⟩ / |v|² for every pair of patches (R_p: rotation to patch p)."""
    import torch
    _check_grid(grid_h, grid_w)
    v = rope_vector(dim) if vector is None else vector.to(torch.float32).reshape(-1)
    if v.shape[0] != dim:
        raise ParameterError(f"the RoPE vector has {v.shape[0]} entries; head_dim is {dim}")
    rows, cols = _grid_coords(grid_h, grid_w)
    n = grid_h * grid_w
    ensure_fits((n, n), 4, what="a patch similarity matrix", suggestion="use a smaller grid")
    rotated = rope_2d_apply(v.expand(n, dim), rows, cols, base).to(torch.float64)
    norm2 = float((v.to(torch.float64) ** 2).sum())
    if norm2 == 0.0:
        raise ParameterError("the RoPE vector is all zeros; it has no direction to rotate")
    return (rotated @ rotated.T / norm2).to(torch.float32)


# --------------------------------------------------------------------------------------------
# Tables with prefix tokens
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GridTable:
    """A position table split into its prefix rows and its grid rows."""

    prefix: torch.Tensor  # [num_prefix_tokens, dim]
    patches: torch.Tensor  # [grid_h · grid_w, dim], row-major
    grid: tuple[int, int]

    @property
    def num_prefix_tokens(self) -> int:
        return self.prefix.shape[0]

    @property
    def dim(self) -> int:
        return self.patches.shape[1]


def infer_grid(num_patches: int) -> tuple[int, int]:
    """The square grid of ``num_patches`` patches, or an error asking for the grid."""
    side = math.isqrt(num_patches)
    if side * side != num_patches:
        raise ParameterError(
            f"{num_patches:,} patch rows do not form a square grid; give the grid as (height, width)")
    return side, side


def split_table(pos_embed: torch.Tensor, num_prefix_tokens: int = 1,
                grid: tuple[int, int] | None = None) -> GridTable:
    """Split a table shaped [1, prefix + H·W, d] or [prefix + H·W, d] into prefix and grid rows."""
    import torch
    t = torch.as_tensor(pos_embed)
    if t.ndim == 3:
        if t.shape[0] != 1:
            raise ParameterError(f"a position table with a batch axis must have batch 1; got shape {tuple(t.shape)}")
        t = t[0]
    if t.ndim != 2:
        raise ParameterError(f"a position table must be [tokens, dim] or [1, tokens, dim]; got shape {tuple(t.shape)}")
    if num_prefix_tokens < 0 or num_prefix_tokens >= t.shape[0]:
        raise ParameterError(f"{num_prefix_tokens} prefix tokens leave no patch rows in a table of "
                             f"{t.shape[0]:,} rows; give the number of CLS/distillation/register tokens")
    n = t.shape[0] - num_prefix_tokens
    if grid is None:
        grid = infer_grid(n)
    else:
        grid = _pair(grid, "grid")
        if grid[0] * grid[1] != n:
            raise ParameterError(
                f"a {grid[0]}×{grid[1]} grid has {grid[0] * grid[1]:,} patches, but the table has {n:,} rows "
                f"after {num_prefix_tokens} prefix token(s); check the grid or the number of prefix tokens")
    return GridTable(prefix=t[:num_prefix_tokens], patches=t[num_prefix_tokens:], grid=grid)


# --------------------------------------------------------------------------------------------
# Similarity and the tile mosaic
# --------------------------------------------------------------------------------------------
def cosine_similarity(table: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    """[n, n] cosine similarity of the rows of ``table`` [n, d]; an all-zero row scores 0."""
    import torch
    n = table.shape[0]
    ensure_fits((n, n), 4, what="a patch similarity matrix", suggestion="use a smaller grid")
    # Norms in float64 (a checkpoint's float16 rows stay exact); the product in float32, whose
    # ~1e-7 relative error is far below what a colour map shows, at half the cost.
    norms = table.to(torch.float64).norm(dim=-1, keepdim=True)
    x = torch.where(norms > eps, table.to(torch.float64) / norms.clamp_min(eps), 0.0).to(torch.float32)
    return (x @ x.T).clamp_(-1.0, 1.0)


@dataclass(frozen=True)
class EncodingSpec:
    """Which grid encoding and its parameters.

    ``table`` is a given learned table (any shape :func:`split_table` accepts) used when
    ``name`` is ``"table"``; ``num_prefix_tokens`` is how many rows precede its grid (and how
    many prefix rows the random ``learned_2d`` table draws before its grid rows).
    """

    name: str = "sincos_2d"
    dim: int = 64
    base: float = 10000.0
    seed: int = 0
    rope_vector: str = "ones"
    table: object = field(default=None, compare=False)
    num_prefix_tokens: int = 1

    def label(self) -> str:
        """The encoding's name in the current language."""
        return shown(LABELS.get(self.name, self.name))


def full_table(spec: EncodingSpec, grid_h: int, grid_w: int) -> tuple[torch.Tensor, int] | None:
    """(table [prefix + H·W, dim], prefix) of an additive encoding — prefix rows first, as a
    checkpoint stores it — or None for RoPE, which adds nothing.  Fixed sin-cos tables have no
    prefix rows."""
    import torch
    if spec.name == "sincos_2d":
        return sincos_2d(grid_h, grid_w, spec.dim, spec.base), 0
    if spec.name == "flat_1d":
        return flat_1d(grid_h, grid_w, spec.dim, spec.base), 0
    if spec.name == "learned_2d":
        return learned_2d(grid_h, grid_w, spec.dim, spec.seed, spec.num_prefix_tokens), spec.num_prefix_tokens
    if spec.name == "table":
        if spec.table is None:
            raise ParameterError("no learned table is loaded; open a ViT checkpoint or choose another encoding")
        table = torch.as_tensor(spec.table)
        split_table(table, spec.num_prefix_tokens, (grid_h, grid_w))  # checks the shape fits the grid
        return (table[0] if table.ndim == 3 else table), spec.num_prefix_tokens
    if spec.name == "rope_2d":
        return None
    raise ParameterError(f"unknown grid encoding {spec.name!r}; choose one of: {', '.join(ENCODINGS)}, table")


def patch_table(spec: EncodingSpec, grid_h: int, grid_w: int) -> torch.Tensor | None:
    """The [H·W, dim] grid rows of an additive encoding (prefix rows left out); None for RoPE."""
    import torch
    full = full_table(spec, grid_h, grid_w)
    if full is None:
        return None
    table, prefix = full
    return split_table(table, prefix, (grid_h, grid_w)).patches.to(torch.float32)


def _mean_cos(offsets: np.ndarray, omega: torch.Tensor) -> np.ndarray:
    """mean_k cos(Δ·ω_k) for every offset Δ (float64)."""
    import torch
    angles = torch.from_numpy(offsets).to(torch.float64).reshape(-1, 1) * omega.reshape(1, -1)
    return angles.cos().mean(dim=1).numpy()


def sinusoid_similarity(name: str, grid_h: int, grid_w: int, dim: int, base: float = 10000.0) -> np.ndarray:
    """Closed-form cosine similarity of the fixed sinusoidal encodings, float32 [n, n].

    sin(aω)sin(bω) + cos(aω)cos(bω) = cos((a − b)ω), and every sin/cos pair has norm 1, so the
    cosine of two rows is a mean of cos(Δ·ω) over the frequencies: for 2D sin-cos
    (C(Δcol) + C(Δrow)) / 2 with C over MAE's dim/4 frequencies; for the flattened 1D sinusoid
    C(Δindex) over its dim/2 frequencies.  O(n²) instead of the O(n²·dim) matrix product.
    """
    import torch
    _check_grid(grid_h, grid_w)
    n = grid_h * grid_w
    ensure_fits((n, n), 4, what="a patch similarity matrix", suggestion="use a smaller grid")
    index = np.arange(n)
    if name == "sincos_2d":
        if dim < 4 or dim % 4:
            raise ParameterError(f"2D sin-cos needs dim divisible by 4; got {dim}")
        k = dim // 4
        omega = 1.0 / float(base) ** (torch.arange(k, dtype=torch.float64) / k)
        cx, cy = _mean_cos(np.arange(grid_w), omega), _mean_cos(np.arange(grid_h), omega)
        span_w, span_h = np.arange(grid_w), np.arange(grid_h)
        by_col = cx[np.abs(span_w[:, None] - span_w[None, :])].astype(np.float32) / 2  # [W, W]
        by_row = cy[np.abs(span_h[:, None] - span_h[None, :])].astype(np.float32) / 2  # [H, H]
        # [r, c, r', c'] = by_row[r, r'] + by_col[c, c'], flattened row-major on both sides
        return (by_row[:, None, :, None] + by_col[None, :, None, :]).reshape(n, n)
    if name == "flat_1d":
        if dim < 2 or dim % 2:
            raise ParameterError(f"the 1D sinusoid needs an even dim; got {dim}")
        c1 = _mean_cos(index, sinusoidal.inv_freq(dim, base)).astype(np.float32)
        # Toeplitz: sim[i, j] = c1[|i − j|] = v[n − 1 − i + j] with v = [c1 reversed, c1[1:]]
        v = np.concatenate((c1[::-1], c1[1:]))
        return np.lib.stride_tricks.sliding_window_view(v, n)[::-1].copy()
    raise ParameterError(f"no closed form for {name!r}; use cosine_similarity of its table")


def patch_similarity(spec: EncodingSpec, grid_h: int, grid_w: int) -> np.ndarray:
    """[H·W, H·W] similarity of every patch with every other, float32 (cosine; RoPE: rotated dot)."""
    _check_grid(grid_h, grid_w)
    if spec.name in ("sincos_2d", "flat_1d"):
        return sinusoid_similarity(spec.name, grid_h, grid_w, spec.dim, spec.base)
    if spec.name == "rope_2d":
        vec = rope_vector(spec.dim, spec.rope_vector, spec.seed)
        return rope_2d_similarity(grid_h, grid_w, spec.dim, spec.base, vec).numpy()
    table = patch_table(spec, grid_h, grid_w)
    assert table is not None  # only rope_2d has no table, and it is handled above
    return cosine_similarity(table).numpy()


def tile_mosaic(sim: np.ndarray, grid_h: int, grid_w: int, gap: int = 1,
                fill: float = float("nan")) -> np.ndarray:
    """Lay out every patch's similarity map as one image (the ViT Fig. 7 grid of tiles).

    Tile (i, j) — the map of patch i·W + j, itself shaped H × W — sits at rows
    ``i·(H + gap) …`` and columns ``j·(W + gap) …``; gaps hold ``fill``.  Shape
    ``(H·(H+gap) − gap, W·(W+gap) − gap)``.
    """
    n = grid_h * grid_w
    if sim.shape != (n, n):
        raise ParameterError(f"similarity matrix {sim.shape} does not match a {grid_h}×{grid_w} grid")
    # [tile_r, tile_c, r, c] → [tile_r, r, tile_c, c], then pad r and c by the gap.
    tiles = sim.reshape(grid_h, grid_w, grid_h, grid_w).transpose(0, 2, 1, 3)
    padded = np.full((grid_h, grid_h + gap, grid_w, grid_w + gap), fill, dtype=np.float32)
    padded[:, :grid_h, :, :grid_w] = tiles
    out = padded.reshape(grid_h * (grid_h + gap), grid_w * (grid_w + gap))
    return out[: out.shape[0] - gap, : out.shape[1] - gap] if gap else out


def mosaic_tile_at(row: float, col: float, grid_h: int, grid_w: int, gap: int = 1) -> tuple[int, int, int, int] | None:
    """Which tile and which cell a mosaic pixel (row, col) falls on: (tile_r, tile_c, r, c), or None in a gap."""
    tr, r = divmod(int(math.floor(row)), grid_h + gap)
    tc, c = divmod(int(math.floor(col)), grid_w + gap)
    if not (0 <= tr < grid_h and 0 <= tc < grid_w and r < grid_h and c < grid_w) or row < 0 or col < 0:
        return None
    return tr, tc, r, c


# --------------------------------------------------------------------------------------------
# Neighbours
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NeighbourReport:
    """How similar patch ``index`` is to its 4 grid neighbours vs its raster-order neighbours."""

    index: int
    row_col: tuple[int, int]
    grid: list[tuple[int, float]]  # (index, similarity) of up/down/left/right that exist
    flat: list[tuple[int, float, bool]]  # (index, similarity, is also a grid neighbour)
    nearest: list[tuple[int, float]]  # the most similar other patches, as many as grid neighbours

    @property
    def grid_mean(self) -> float:
        return float(np.mean([s for _, s in self.grid])) if self.grid else float("nan")

    @property
    def flat_only(self) -> list[tuple[int, float]]:
        """Raster neighbours that are not grid neighbours (the row wrap-around)."""
        return [(i, s) for i, s, both in self.flat if not both]

    @property
    def nearest_are_grid_neighbours(self) -> bool:
        return {i for i, _ in self.nearest} == {i for i, _ in self.grid}

    def text(self, grid_w: int) -> str:
        def rc(i: int) -> str:
            r, c = divmod(i, grid_w)
            return f"({r},{c})"

        r, c = self.row_col
        parts = [translate("PatchGrid", "patch ({r},{c}): grid neighbours {listed} (mean {mean:+.3f})").format(
            r=r, c=c, listed=", ".join(f"{rc(i)} {s:+.3f}" for i, s in self.grid), mean=self.grid_mean)]
        only = self.flat_only
        if only:
            parts.append(translate("PatchGrid", "adjacent only in the flattened order {listed}").format(
                listed=", ".join(f"{rc(i)} {s:+.3f}" for i, s in only)))
        else:
            parts.append(translate("PatchGrid", "its flattened-order neighbours are grid neighbours too (not at a row "
                                                "end)"))
        parts.append(self._nearest_text(rc))
        return "; ".join(parts)

    def _nearest_text(self, rc) -> str:
        """Which of the most similar patches are grid neighbours, each named (a set comparison
        said "(0,1), (0,2) are NOT its grid neighbours" though (0,1) is one)."""
        neighbours = {i for i, _ in self.grid}
        near = [i for i, _ in self.nearest]
        listed = ", ".join(rc(i) for i in near)
        inside = [rc(i) for i in near if i in neighbours]
        outside = [rc(i) for i in near if i not in neighbours]
        k = len(near)
        if not outside:
            return translate("PatchGrid", "the {k} most similar patches {listed} are all its grid neighbours").format(
                k=k, listed=listed)
        if not inside:
            return translate("PatchGrid", "none of the {k} most similar patches {listed} is a grid neighbour").format(
                k=k, listed=listed)
        if len(inside) == 1:
            first = translate("PatchGrid", "of the {k} most similar patches, {inside} is a grid neighbour")
        else:
            first = translate("PatchGrid", "of the {k} most similar patches, {inside} are grid neighbours")
        second = translate("PatchGrid", " and {outside} is not") if len(outside) == 1 else \
            translate("PatchGrid", " and {outside} are not")
        return first.format(k=k, inside=", ".join(inside)) + second.format(outside=", ".join(outside))


def neighbour_report(sim: np.ndarray, grid_h: int, grid_w: int, index: int) -> NeighbourReport:
    index = int(index)
    n = grid_h * grid_w
    if not 0 <= index < n:
        raise ParameterError(f"patch {index} is outside the {grid_h}×{grid_w} grid (0–{n - 1})")
    row = sim[index]
    gn = grid_neighbours(grid_h, grid_w, index)
    fn = flat_neighbours(grid_h, grid_w, index)
    others = np.delete(np.arange(n), index)
    order = others[np.argsort(-row[others], kind="stable")][: len(gn)]
    return NeighbourReport(
        index=index, row_col=divmod(index, grid_w),
        grid=[(i, float(row[i])) for i in gn],
        flat=[(i, float(row[i]), i in gn) for i in fn],
        nearest=[(int(i), float(row[i])) for i in order],
    )


def nearest_are_grid_neighbours(sim: np.ndarray, grid_h: int, grid_w: int, margin: float = 0.0) -> np.ndarray:
    """Per patch: are its grid neighbours strictly more similar than every other patch?

    True means the k most similar other patches (k = its number of grid neighbours, 2–4) are
    exactly its grid neighbours, with at least ``margin`` to spare — ties do not count.
    """
    n = grid_h * grid_w
    if n == 1:
        return np.ones(1, dtype=bool)
    index = np.arange(n)
    rows, cols = np.divmod(index, grid_w)
    # up to 4 neighbours per patch as an [n, 4] index table; a missing one points at the patch itself
    nb = np.stack([np.where(ok, index + step, index) for ok, step in
                   ((rows > 0, -grid_w), (rows < grid_h - 1, grid_w), (cols > 0, -1), (cols < grid_w - 1, 1))], 1)
    real = nb != index[:, None]
    s = np.array(sim, dtype=np.float32)  # a copy: entries are overwritten below
    nb_min = np.where(real, s[index[:, None], nb], np.inf).min(axis=1)
    s[index[:, None], nb] = -np.inf  # neighbours, and (through the padding) the patch itself
    s[index, index] = -np.inf
    other_max = s.max(axis=1)
    return nb_min > other_max + margin


def row_end_patches(grid_h: int, grid_w: int) -> np.ndarray:
    """Indices of patches at the end of a row that are followed in raster order by the next row."""
    return np.arange(grid_h - 1) * grid_w + (grid_w - 1)


# --------------------------------------------------------------------------------------------
# Resampling a learned grid to another size (timm / transformers)
# --------------------------------------------------------------------------------------------
def resample(pos_embed: torch.Tensor, new_grid: int | tuple[int, int], old_grid: tuple[int, int] | None = None,
             num_prefix_tokens: int = 1, *, mode: str = "bicubic", antialias: bool = False) -> torch.Tensor:
    """Resample a position table to another grid size, as timm and transformers do.

    Splits off the ``num_prefix_tokens`` rows (unchanged), reshapes the rest to the old grid
    (inferred as square when ``old_grid`` is None), interpolates in float32 with
    ``align_corners=False`` and puts the prefix back.  Returns the input's rank ([1, T, d] or
    [T, d]) and dtype.  transformers' ViT ``interpolate_pos_encoding`` uses no antialiasing;
    timm's ``resample_abs_pos_embed`` passes ``antialias=True``, which differs only when
    shrinking the grid.
    """
    import torch
    t = torch.as_tensor(pos_embed)
    batched = t.ndim == 3
    parts = split_table(t, num_prefix_tokens, old_grid)
    new_h, new_w = _pair(new_grid, "new grid")
    old_h, old_w = parts.grid
    dim = parts.dim
    ensure_fits((new_h * new_w, dim), 4 * 3, what="a resampled position table", suggestion="choose a smaller grid")
    if mode not in ("bicubic", "bilinear", "nearest"):
        raise ParameterError(f"interpolation must be bicubic, bilinear or nearest; got {mode!r}")
    grid = parts.patches.to(torch.float32).reshape(1, old_h, old_w, dim).permute(0, 3, 1, 2)
    if (new_h, new_w) == (old_h, old_w):
        out = grid
    else:
        kwargs = {} if mode == "nearest" else {"align_corners": False, "antialias": antialias}
        out = torch.nn.functional.interpolate(grid, size=(new_h, new_w), mode=mode, **kwargs)
    out = out.permute(0, 2, 3, 1).reshape(new_h * new_w, dim).to(t.dtype)
    out = torch.cat((parts.prefix, out), dim=0)
    return out.unsqueeze(0) if batched else out


@dataclass(frozen=True)
class ResampleReport:
    """What resampling changed, in numbers."""

    old_grid: tuple[int, int]
    new_grid: tuple[int, int]
    num_prefix_tokens: int
    dim: int
    old_tokens: int
    new_tokens: int
    prefix_unchanged: bool
    mean_norm_before: float
    mean_norm_after: float
    range_before: tuple[float, float]
    range_after: tuple[float, float]
    # Resample back to the old grid and compare: how much of the table the round trip loses.
    round_trip_rel_error: float
    mode: str = "bicubic"

    def text(self) -> str:
        oh, ow = self.old_grid
        nh, nw = self.new_grid
        verb = translate("PatchGrid", "upsampled") if nh * nw > oh * ow else \
            translate("PatchGrid", "downsampled") if nh * nw < oh * ow else translate("PatchGrid", "kept")
        prefix = translate("PatchGrid", "copied unchanged") if self.prefix_unchanged else \
            translate("PatchGrid", "CHANGED")
        return translate(
            "PatchGrid", "{oh}×{ow} → {nh}×{nw} patches ({verb}; {old:,} → {new:,} rows with {prefix_n} prefix "
            "token(s) {prefix}), {mode} in float32. Mean row norm {norm_before:.4g} → {norm_after:.4g}; values "
            "[{low_before:.3g}, {high_before:.3g}] → [{low_after:.3g}, {high_after:.3g}]; resampling back to "
            "{oh}×{ow} differs by {error:.2f}% (relative RMS).").format(
            oh=oh, ow=ow, nh=nh, nw=nw, verb=verb, old=self.old_tokens, new=self.new_tokens,
            prefix_n=self.num_prefix_tokens, prefix=prefix, mode=self.mode, norm_before=self.mean_norm_before,
            norm_after=self.mean_norm_after, low_before=self.range_before[0], high_before=self.range_before[1],
            low_after=self.range_after[0], high_after=self.range_after[1], error=100 * self.round_trip_rel_error)


def resample_with_report(pos_embed: torch.Tensor, new_grid: int | tuple[int, int],
                         old_grid: tuple[int, int] | None = None, num_prefix_tokens: int = 1,
                         **kwargs) -> tuple[torch.Tensor, ResampleReport]:
    """:func:`resample` and a :class:`ResampleReport` of what changed."""
    import torch
    before = split_table(pos_embed, num_prefix_tokens, old_grid)
    out = resample(pos_embed, new_grid, before.grid, num_prefix_tokens, **kwargs)
    after = split_table(out, num_prefix_tokens, _pair(new_grid, "new grid"))
    back = split_table(resample(out, before.grid, after.grid, num_prefix_tokens, **kwargs),
                       num_prefix_tokens, before.grid).patches.to(torch.float32)
    b, a = before.patches.to(torch.float32), after.patches.to(torch.float32)
    denom = float(b.pow(2).mean().sqrt()) or 1.0
    report = ResampleReport(
        old_grid=before.grid, new_grid=after.grid, num_prefix_tokens=num_prefix_tokens, dim=before.dim,
        old_tokens=num_prefix_tokens + b.shape[0], new_tokens=num_prefix_tokens + a.shape[0],
        prefix_unchanged=bool(torch.equal(before.prefix, after.prefix)),
        mean_norm_before=float(b.norm(dim=1).mean()), mean_norm_after=float(a.norm(dim=1).mean()),
        range_before=(float(b.min()), float(b.max())), range_after=(float(a.min()), float(a.max())),
        round_trip_rel_error=float((back - b).pow(2).mean().sqrt()) / denom,
        mode=kwargs.get("mode", "bicubic"),
    )
    return out, report
