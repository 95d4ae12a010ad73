"""The patch-grid view's computation: validated settings, the request, and its result.

One request computes, for the chosen grid, every patch's similarity to every other for one
encoding (panel A) and, optionally, a second panel: another encoding for comparison, or A
resampled to another grid size the way timm/transformers do.  Selecting a patch needs no new
computation: its map is a row of the similarity matrix already in the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from peapp.i18n import msg, translate
from peapp.errors import ParameterError
from peapp.jobs import ProgressFn, Request
from peapp.params import Spec, param

GRID_ENCODINGS = ("sincos_2d", "learned_2d", "rope_2d", "flat_1d", "table", "relative_bias")
SECOND = ("none", "resampled") + GRID_ENCODINGS
# what the forms show for each choice (the vision module's names, marked for translation)
_ENCODING_CHOICES = {"sincos_2d": msg("PatchGrid", "2D sin-cos (MAE)"),
                     "learned_2d": msg("PatchGrid", "Learned 2D (random init)"),
                     "rope_2d": msg("PatchGrid", "Axial 2D RoPE"), "flat_1d": msg("PatchGrid", "Flattened 1D sinusoid"),
                     "table": msg("PatchGrid", "Learned table (given)"),
                     "relative_bias": msg("PatchGrid", "Relative bias table (given)")}
_SECOND_CHOICES = {"none": msg("PatchGrid", "— none —"), "resampled": msg("PatchGrid", "A resampled to…"),
                   **_ENCODING_CHOICES}
assert tuple(_ENCODING_CHOICES) == GRID_ENCODINGS and tuple(_SECOND_CHOICES) == SECOND


@dataclass(frozen=True)
class PatchGridSettings(Spec):
    """What the patch-grid dock shows; stored in ``Document.views["patchGridDock"]``."""

    family: ClassVar[str] = "patch grid"
    image_height: int = param(224, msg("Params", "Image height"), minimum=1, maximum=8192, step=1, help=msg("Params", "Input height in pixels."))
    image_width: int = param(224, msg("Params", "Image width"), minimum=1, maximum=8192, step=1, help=msg("Params", "Input width in pixels."))
    patch_height: int = param(16, msg("Params", "Patch height"), minimum=1, maximum=1024, step=1, help=msg("Params", "Patch height in pixels."))
    patch_width: int = param(16, msg("Params", "Patch width"), minimum=1, maximum=1024, step=1, help=msg("Params", "Patch width in pixels."))
    prefix_tokens: int = param(1, msg("Params", "Prefix tokens"), minimum=0, maximum=64, step=1,
                               help=msg("Params", "CLS / distillation / register tokens before the patches; kept out of the grid."))
    encoding: str = param("sincos_2d", msg("Params", "Encoding"), choices=_ENCODING_CHOICES,
                          help=msg("Params", "Encoding of panel A."))
    second: str = param("flat_1d", msg("Params", "Panel B"), choices=_SECOND_CHOICES,
                        help=msg("Params", "Second panel: another encoding to compare, A resampled to another grid, or none."))
    resample_height: int = param(24, msg("Params", "Resample to rows"), minimum=1, maximum=64, step=1,
                                 help=msg("Params", "Grid rows after resampling (panel B = resampled)."))
    resample_width: int = param(24, msg("Params", "Resample to columns"), minimum=1, maximum=64, step=1,
                                help=msg("Params", "Grid columns after resampling."))
    dim: int = param(256, msg("Params", "dim"), minimum=4, maximum=4096, step=4,
                     help=msg("Params", "Embedding width (head_dim for RoPE); 2D sin-cos and RoPE need a multiple of 4."))
    base: float = param(10000.0, msg("Params", "Base"), minimum=2.0, maximum=1e9, log=True,
                        help=msg("Params", "Frequency base of the sinusoids and RoPE (MAE: 10000)."))
    seed: int = param(0, msg("Params", "Seed"), minimum=0, maximum=2**31 - 1, step=1,
                      help=msg("Params", "Seed of the random learned table (and of a random RoPE vector)."))
    rope_vector: str = param("ones", msg("Params", "RoPE vector"), choices={"ones": msg("PatchGrid", "ones"), "random": msg("PatchGrid", "random")},
                             help=msg("Params", "The fixed q = k vector whose rotated dot products RoPE's map shows."))
    color_range: str = param("data", msg("Params", "Colour range"), choices={"data": msg("PatchGrid", "data range"), "full": "−1 … 1"},
                             help=msg("Params", "data: the colour bar spans the values shown; full: the whole −1 … 1 cosine range."))
    selected: int = param(0, msg("Params", "Selected patch"), minimum=0, maximum=64 * 64 - 1, step=1,
                          help=msg("Params", "Row-major index of the selected patch."))
    table_source: str = param("", msg("Params", "Learned table"),
                              help=msg("Params", "PATH::TENSOR of a checkpoint's ViT position table [1, P + H·W, d] or "
                                   "[P + H·W, d] (P = Prefix tokens), shown when a panel's encoding is 'table'."))
    bias_source: str = param("", msg("Params", "Bias table"),
                             help=msg("Params", "PATH::TENSOR of a checkpoint's 2-D relative_position_bias_table (BEiT, Swin) "
                                  "[(2H−1)(2W−1) (+3), heads], shown when a panel's encoding is 'relative_bias'; "
                                  "the grid is its window."))
    bias_head: int = param(0, msg("Params", "Bias head"), minimum=0, maximum=4095, step=1,
                           help=msg("Params", "Head of the relative position bias table shown."))

    def check(self) -> None:
        from peapp.encodings.vision import MAX_GRID_SIDE

        grid = self.grid()
        if max(grid.shape) > MAX_GRID_SIDE:
            raise ParameterError(
                f"{grid.grid_h}×{grid.grid_w} patches is more than the tile view's {MAX_GRID_SIDE} per side "
                f"(a {grid.num_patches:,}² similarity matrix); use larger patches or a smaller image")
        if self.dim % 4:
            raise ParameterError(f"dim must be a multiple of 4 (sin and cos for two axes); got {self.dim}")
        if self.table_source:
            from peapp.analysis.checkpoint_tables import split_source

            split_source(self.table_source, "the patch grid's learned table")
        if self.bias_source:
            from peapp.analysis.checkpoint_tables import split_source

            split_source(self.bias_source, "the patch grid's relative position bias table")

    def grid(self):
        from peapp.encodings.vision import PatchGrid

        return PatchGrid(self.image_height, self.image_width, self.patch_height, self.patch_width, self.prefix_tokens)

    def selected_index(self) -> int:
        """The selected patch, clamped into the grid (a smaller grid keeps a valid selection)."""
        return min(int(self.selected), self.grid().num_patches - 1)


@dataclass(frozen=True)
class GivenTable:
    """A learned table: [1, P + H·W, d] or [P + H·W, d] (numpy), e.g. a checkpoint's, read from
    ``PatchGridSettings.table_source`` (:func:`table_from_source`), or given to a request directly."""

    values: np.ndarray = field(compare=False, repr=False)
    num_prefix_tokens: int
    grid: tuple[int, int]
    name: str
    key: Any  # identity for comparisons: the source it was read from, or any key of the caller's


def _read_table(source: str) -> np.ndarray:
    """The float32 rows of ``"PATH::TENSOR"`` ([1, N, d] → [N, d]), through ``peapp.checkpoints``
    (not kept: a request runs only when the settings change, and reading is cheaper than its maths)."""
    from peapp.encodings.learned import checkpoint_table

    return checkpoint_table(source, 0).weight.numpy()


def _read_bias_table(source: str) -> np.ndarray:
    """The [rows, heads] float32 values of ``"PATH::TENSOR"`` (only that tensor's bytes are read)."""
    import torch

    from peapp.analysis.checkpoint_tables import split_source
    from peapp.checkpoints import open_cached

    path, tensor = split_source(source, "the patch grid's relative position bias table")
    return open_cached(path).load(tensor).to(torch.float32).numpy()


def table_from_source(source: str, num_prefix_tokens: int, grid: tuple[int, int] | None = None) -> GivenTable:
    """The checkpoint table ``source`` split into ``num_prefix_tokens`` prefix rows and a grid
    (``grid``, or inferred when square); raises ParameterError if the shape does not fit."""
    import torch

    from peapp.encodings import vision

    values = _read_table(source)
    parts = vision.split_table(torch.from_numpy(values), int(num_prefix_tokens), grid)
    return GivenTable(values=values, num_prefix_tokens=int(num_prefix_tokens), grid=parts.grid,
                      name=source.rpartition("::")[2], key=source)


def view_for_table(settings: PatchGridSettings, source: str, shape: tuple[int, ...], num_prefix_tokens: int,
                   grid: tuple[int, int] | None = None) -> dict[str, Any]:
    """The settings that show the table ``source`` of ``shape`` in panel A: its prefix rows kept
    apart, the image sized to its grid at the current patch size, panel B's encodings at its width.
    Needs only the shape (no tensor is read); raises ParameterError if the table does not fit."""
    import torch

    from peapp.encodings import vision

    rows = tuple(int(n) for n in shape)
    parts = vision.split_table(torch.empty(rows, device="meta"), int(num_prefix_tokens), grid)
    gh, gw = parts.grid
    if max(gh, gw) > vision.MAX_GRID_SIDE:
        raise ParameterError(f"a {gh}×{gw} grid is more than the tile view's {vision.MAX_GRID_SIDE} per side")
    values = dict(encoding="table", table_source=source, prefix_tokens=int(num_prefix_tokens),
                  image_height=gh * settings.patch_height, image_width=gw * settings.patch_width,
                  dim=min(4096, max(4, parts.dim - parts.dim % 4)),  # panel B's encodings at the table's width
                  selected=min(settings.selected, gh * gw - 1))
    PatchGridSettings.from_dict({**settings.to_dict(), **values})  # validates the whole view
    return values


@dataclass(frozen=True)
class Panel:
    """One encoding on one grid: its similarity matrix, tile mosaic and per-patch checks."""

    label: str
    encoding: str
    grid: tuple[int, int]
    sim: np.ndarray  # [n, n] float32
    mosaic: np.ndarray  # the tile grid as one image (NaN in the gaps)
    nearest_ok: np.ndarray  # [n] bool: the most similar patches are the grid neighbours
    value_label: str
    note: str = ""
    # [prefix, n] cosine of each prefix row (CLS, …) with every patch row; None when there are none
    prefix_sim: np.ndarray | None = None

    def map_of(self, index: int) -> np.ndarray:
        """Similarity of patch ``index`` to every patch, shaped as the grid."""
        return self.sim[index].reshape(self.grid)


@dataclass(frozen=True)
class PatchGridResult:
    request: "PatchGridRequest"
    patch_grid: Any  # peapp.encodings.vision.PatchGrid
    a: Panel
    b: Panel | None
    resample_report: Any = None  # peapp.encodings.vision.ResampleReport when B is a resampled table
    gap: int = 1
    table: GivenTable | None = None  # the learned table a panel shows (encoding "table"), else None


@dataclass(frozen=True)
class PatchGridRequest(Request):
    channel: ClassVar[str] = "patch_grid"
    settings: PatchGridSettings
    table: GivenTable | None = None
    gap: int = 1

    def compute(self, progress: ProgressFn) -> PatchGridResult:
        s = self.settings
        grid = s.grid()
        table = self.given_table()
        a = self._bias_panel(grid.shape) if s.encoding == "relative_bias" else \
            _panel(self._spec(s.encoding, table), grid.shape, self.gap)
        progress(0.5)
        b, report = None, None
        if s.second == "resampled":
            if s.encoding == "relative_bias":
                raise ParameterError("a relative position bias table has no positions to resample; choose another "
                                     "panel B")
            b, report = self._resampled(s, grid, a, table)
        elif s.second == "relative_bias":
            b = self._bias_panel(grid.shape)
        elif s.second != "none":
            b = _panel(self._spec(s.second, table), grid.shape, self.gap)
        progress(1.0)
        return PatchGridResult(request=self, patch_grid=grid, a=a, b=b, resample_report=report, gap=self.gap,
                               table=table)

    def given_table(self) -> GivenTable | None:
        """The learned table a panel shows: the one given, or the settings' ``table_source`` read now."""
        s = self.settings
        if "table" not in (s.encoding, s.second):
            return None
        if self.table is None and s.table_source:
            return table_from_source(s.table_source, s.prefix_tokens, s.grid().shape)
        return self.table

    def _bias_panel(self, grid: tuple[int, int]) -> Panel:
        """The relative position bias of ``bias_source`` for head ``bias_head``: row i is the bias query
        patch i adds to every key patch's logit.  The grid must be the table's window."""
        from peapp.analysis.patch_grid_bias import bias_view
        from peapp.encodings import vision

        s = self.settings
        if not s.bias_source:
            raise ParameterError(translate("PatchGrid", "no relative position bias table is loaded; open a BEiT or "
                                           "Swin checkpoint and choose its relative_bias_2d component, or "
                                           "choose another encoding"))
        view = bias_view(_read_bias_table(s.bias_source), s.bias_head, grid)
        window = (view.window.height, view.window.width)
        if window != tuple(grid):
            raise ParameterError(f"the bias table covers a {window[0]}×{window[1]} window, but the grid is "
                                 f"{grid[0]}×{grid[1]}; set the image to {window[0]}×{window[1]} patches")
        name = s.bias_source.rpartition("::")[2]
        return Panel(label=translate("PatchGrid", "relative bias, head {head} of {heads}").format(
                         head=view.head, heads=view.heads), encoding="relative_bias", grid=window,
                     sim=view.patches, mosaic=vision.tile_mosaic(view.patches, *window, gap=self.gap),
                     nearest_ok=vision.nearest_are_grid_neighbours(view.patches, *window),
                     value_label=translate("PatchGrid", "bias added to the logit"),
                     note=f"{name}. {view.note()}".rstrip(". ") + ".")

    def _spec(self, name: str, table: GivenTable | None):
        from peapp.encodings import vision

        s = self.settings
        if name == "table":
            if table is None:
                raise ParameterError("no learned table is loaded; open a ViT checkpoint, or choose another encoding")
            return vision.EncodingSpec(name="table", dim=int(table.values.shape[-1]), table=table.values,
                                       num_prefix_tokens=table.num_prefix_tokens)
        return vision.EncodingSpec(name=name, dim=s.dim, base=s.base, seed=s.seed, rope_vector=s.rope_vector,
                                   num_prefix_tokens=s.prefix_tokens)

    def _resampled(self, s: PatchGridSettings, grid, a: Panel, table: GivenTable | None):
        """Panel A's encoding moved to the resample grid: tables are resampled (bicubic, float32);
        RoPE has no table, it is evaluated at the new positions directly."""
        from peapp.encodings import vision

        new = (s.resample_height, s.resample_width)
        spec = self._spec(s.encoding, table)
        if spec.name == "rope_2d":
            panel = _panel(spec, new, self.gap)
            note = translate("PatchGrid", "RoPE has no table to resample: its rotations are evaluated on the "
                                          "{rows}×{cols} grid directly (the same relative offsets give the same "
                                          "scores).").format(rows=new[0], cols=new[1])
            return _with(panel, label=f"{panel.label}, {new[0]}×{new[1]}", note=note), None
        built = vision.full_table(spec, *grid.shape)
        assert built is not None  # only RoPE has no table, and it returned above
        full, prefix = built
        out, report = vision.resample_with_report(full, new, grid.shape, prefix)
        resampled = vision.split_table(out, prefix, new).patches
        sim = vision.cosine_similarity(resampled).numpy()
        panel = Panel(label=translate("PatchGrid", "{encoding} resampled to {rows}×{cols}").format(
                          encoding=spec.label(), rows=new[0], cols=new[1]), encoding=spec.name, grid=new, sim=sim,
                      mosaic=vision.tile_mosaic(sim, *new, gap=self.gap),
                      nearest_ok=vision.nearest_are_grid_neighbours(sim, *new),
                      value_label=translate("PatchGrid", "cosine similarity"), note=report.text())
        return panel, report


def _with(panel: Panel, **changes) -> Panel:
    from dataclasses import replace

    return replace(panel, **changes)


def _panel(spec, grid: tuple[int, int], gap: int) -> Panel:
    from peapp.encodings import vision

    sim = vision.patch_similarity(spec, *grid)
    value_label = translate("PatchGrid", "rotated dot product / |v|²") if spec.name == "rope_2d" else \
        translate("PatchGrid", "cosine similarity")
    return Panel(label=spec.label(), encoding=spec.name, grid=grid, sim=sim,
                 mosaic=vision.tile_mosaic(sim, *grid, gap=gap),
                 nearest_ok=vision.nearest_are_grid_neighbours(sim, *grid), value_label=value_label,
                 prefix_sim=_prefix_similarity(spec, grid) if spec.name == "table" else None)


def _prefix_similarity(spec, grid: tuple[int, int]) -> np.ndarray | None:
    """Cosine of a given table's prefix rows (CLS, distillation, registers) with its patch rows."""
    import torch

    from peapp.encodings import vision

    built = vision.full_table(spec, *grid)
    if built is None or built[1] == 0:
        return None
    table, prefix = built
    if prefix == 0:
        return None
    rows = torch.nn.functional.normalize(table.to(torch.float32), dim=1)
    return (rows[:prefix] @ rows[prefix:].T).numpy()


def map_index(index: int, old: tuple[int, int], new: tuple[int, int]) -> int:
    """The patch of grid ``new`` under the centre of patch ``index`` of grid ``old``."""
    r, c = divmod(int(index), old[1])
    nr = min(new[0] - 1, int((r + 0.5) * new[0] / old[0]))
    nc = min(new[1] - 1, int((c + 0.5) * new[1] / old[1]))
    return nr * new[1] + nc
