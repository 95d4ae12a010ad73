"""Is a stored position table a fixed sin-cos table or a learned one?  Told from its values.

ViT-MAE stores its 2-D sin-cos tables as weights (frozen), PatchTST its 1-D one (centred and
divided by 10·std), DistilBERT optionally its sinusoids; a config's word for it can be wrong (a
table fine-tuned after all, a converted file).  :func:`fit` compares the stored values with the
sin-cos tables of the same size — 1-D with [sin | cos] halves or interleaved pairs, 2-D as
ViT-MAE lays it out (row and column halves, in either order) — up to one global scale and offset
(PatchTST's normalisation), and returns the best relative residual.  A trained table stays far
from every one of them (residual near 1); a fixed table fits to its storage precision.

Only small tables are read (:data:`MAX_BYTES`), straight from their byte range with numpy:
no torch, nothing unpickled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from peapp.checkpoints.model import TensorInfo, read_range

MAX_BYTES = 32 << 20  # tables larger than this are not read for the check
FIXED_BELOW = 5e-3  # relative residual of a fixed table (float16 storage rounds to ~5e-4)
_DTYPES = {"F32": np.float32, "F16": np.float16, "float32": np.float32, "float16": np.float16}


@dataclass(frozen=True)
class SinCosFit:
    residual: float  # ‖table − (a·S + b)‖ / ‖table − mean‖ for the best sin-cos table S
    layout: str  # "1-D [sin | cos]", "1-D interleaved", "2-D (rows, columns)" …

    @property
    def fixed(self) -> bool:
        return self.residual < FIXED_BELOW

    @property
    def constant(self) -> bool:
        """Every row the same (e.g. zeros never initialised): the values say nothing either way."""
        return self.layout == "constant"


def read_table(info: TensorInfo) -> np.ndarray | None:
    """A float table's values as float64 [rows, dim] (a leading 1 dropped), or None when it is not a
    plain float tensor with a byte range (pickled files, quantized GGUF) or is too large to check."""
    if info.offset < 0 or info.nbytes <= 0 or info.nbytes > MAX_BYTES:
        return None
    shape = info.shape[1:] if len(info.shape) == 3 and info.shape[0] == 1 else info.shape
    if len(shape) != 2:
        return None
    raw = bytes(read_range(info))
    if info.dtype in ("BF16", "bfloat16"):
        values = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
    elif info.dtype in _DTYPES:
        values = np.frombuffer(raw, dtype=np.dtype(_DTYPES[info.dtype]).newbyteorder("<"))
    else:
        return None
    if values.size != shape[0] * shape[1]:
        return None
    return values.astype(np.float64).reshape(shape)


def sincos_1d(positions: np.ndarray, dim: int, interleaved: bool, base: float = 10000.0) -> np.ndarray:
    """Sinusoids of ``positions`` in ``dim`` columns (ω_i = base^(−2i/dim))."""
    half = dim // 2
    omega = base ** (-np.arange(half) * 2.0 / dim)
    angle = np.outer(positions, omega)
    if interleaved:
        out = np.zeros((len(positions), dim))
        out[:, 0:2 * half:2], out[:, 1:2 * half:2] = np.sin(angle), np.cos(angle)
        return out
    out = np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
    return np.pad(out, ((0, 0), (0, dim - 2 * half)))


def sincos_2d(rows: int, cols: int, dim: int, rows_first: bool) -> np.ndarray:
    """ViT-MAE's 2-D table: half the dims a 1-D [sin | cos] table of the row, half of the column."""
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    a = sincos_1d(r.ravel().astype(float), dim // 2, interleaved=False)
    b = sincos_1d(c.ravel().astype(float), dim // 2, interleaved=False)
    return np.concatenate([a, b] if rows_first else [b, a], axis=1)


def _residual(table: np.ndarray, reference: np.ndarray) -> float:
    x, s = table.ravel(), reference.ravel()
    design = np.stack([s, np.ones_like(s)], axis=1)
    coef, *_ = np.linalg.lstsq(design, x, rcond=None)
    spread = np.linalg.norm(x - x.mean())
    return float(np.linalg.norm(x - design @ coef) / spread) if spread > 0 else 1.0


def fit(table: np.ndarray, prefix: int = 0, grid: tuple[int, int] | None = None) -> SinCosFit:
    """The best sin-cos fit of ``table``'s rows after ``prefix`` (class-token rows), 1-D and, with
    ``grid``, 2-D; positions counted from 0 and from ``prefix``."""
    body = table[prefix:]
    n, dim = body.shape
    if np.ptp(body, axis=0).max() == 0:
        return SinCosFit(1.0, "constant")
    tries: list[SinCosFit] = []
    for start in dict.fromkeys((0, prefix)):
        positions = np.arange(start, start + n, dtype=float)
        for interleaved in (False, True):
            tries.append(SinCosFit(_residual(body, sincos_1d(positions, dim, interleaved)),
                                   "1-D interleaved" if interleaved else "1-D [sin | cos]"))
    if grid is not None and grid[0] * grid[1] == n and dim % 4 == 0:
        for rows_first in (True, False):
            tries.append(SinCosFit(_residual(body, sincos_2d(grid[0], grid[1], dim, rows_first)),
                                   "2-D (rows, columns)" if rows_first else "2-D (columns, rows)"))
    return min(tries, key=lambda f: f.residual)
