"""2-D relative position bias tables (BEiT, Data2Vec-Vision, Swin): the bias between patch pairs.

A table holds one learned bias per head for every (row offset, column offset) a window's patch
pairs can have: (2·Wh − 1)·(2·Ww − 1) rows, plus 3 in BEiT for the class token (class → patch,
patch → class, class → class).  ``relative_position_index`` is transformers' construction
(``BeitRelativePositionBias.generate_relative_position_index``, ``SwinRelativePositionBias``):
the row of the table that patch pair (i, j) reads.  The bias is added to the attention logits of
query i and key j, so it is what the patch grid draws for the selected (query) patch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from peapp.checkpoints.bias_window import BiasWindow, window_of_table
from peapp.errors import ParameterError
from peapp.i18n import translate

__all__ = ["BiasView", "BiasWindow", "bias_view", "relative_position_index", "window_of_table"]


def relative_position_index(window: BiasWindow) -> np.ndarray:
    """[N, N] (N = Wh·Ww) or, with the class token first, [N + 1, N + 1]: the table row of each
    (query, key) pair, as transformers builds it."""
    wh, ww = window.height, window.width
    coords = np.stack(np.meshgrid(np.arange(wh), np.arange(ww), indexing="ij")).reshape(2, -1)  # 2, N
    relative = (coords[:, :, None] - coords[:, None, :]).transpose(1, 2, 0).copy()  # N, N, 2
    relative[:, :, 0] += wh - 1
    relative[:, :, 1] += ww - 1
    relative[:, :, 0] *= 2 * ww - 1
    patches = relative.sum(-1)
    if not window.class_token:
        return patches
    n = wh * ww
    distances = window.rows
    index = np.zeros((n + 1, n + 1), dtype=patches.dtype)
    index[1:, 1:] = patches
    index[0, 0:] = distances - 3  # class → patch
    index[0:, 0] = distances - 2  # patch → class
    index[0, 0] = distances - 1  # class → class
    return index


@dataclass(frozen=True)
class BiasView:
    """One head's bias over a window: patch → patch, and the class-token entries when present."""

    window: BiasWindow
    head: int
    heads: int
    patches: np.ndarray  # [N, N] float32: bias added to query i's logit for key j
    class_to_patch: float | None = None  # BEiT: one value each, shared by every patch
    patch_to_class: float | None = None
    class_to_class: float | None = None

    def note(self) -> str:
        if not self.window.class_token:
            return ""
        return translate("PatchGrid", "class token (kept out of the grid): class → patch {to_patch:+.4f}, patch → "
                                      "class {to_class:+.4f}, class → class {class_class:+.4f}").format(
            to_patch=self.class_to_patch, to_class=self.patch_to_class, class_class=self.class_to_class)


def bias_view(table: np.ndarray, head: int, window: tuple[int, int] | None = None) -> BiasView:
    """Head ``head``'s bias between every pair of a window's patches from ``table`` [rows, heads]."""
    values = np.asarray(table, dtype=np.float32)
    if values.ndim != 2:
        raise ParameterError(f"a relative position bias table is [rows, heads]; this one has shape {values.shape}")
    rows, heads = values.shape
    if not 0 <= int(head) < heads:
        raise ParameterError(f"head {head} is not one of the table's {heads} heads (0 … {heads - 1})")
    shape = window_of_table(rows, window)
    index = relative_position_index(shape)
    full = values[:, int(head)][index]
    if not shape.class_token:
        return BiasView(shape, int(head), heads, full)
    return BiasView(shape, int(head), heads, full[1:, 1:].copy(), class_to_patch=float(full[0, 1]),
                    patch_to_class=float(full[1, 0]), class_to_class=float(full[0, 0]))
