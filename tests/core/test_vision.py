"""Vision-patch grid core: grid shapes, MAE 2D sin-cos, axial RoPE, similarity, resampling."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from peapp.encodings import vision
from peapp.errors import ParameterError


# ---- grid shapes and prefix handling ----------------------------------------------------------
def test_square_grid_from_sizes():
    g = vision.PatchGrid.from_sizes(224, 16)
    assert (g.grid_h, g.grid_w, g.num_patches, g.num_tokens) == (14, 14, 196, 197)
    assert g.cropped == (0, 0)
    assert g.patch_rect(15) == (16, 16, 16, 16)  # row 1, column 1


def test_rectangular_grid_and_cropping():
    g = vision.PatchGrid.from_sizes((200, 330), (16, 32), num_prefix_tokens=2)
    assert g.shape == (12, 10)
    assert g.cropped == (200 - 192, 330 - 320)
    assert g.num_tokens == 2 + 120
    assert g.row_col(37) == (3, 7)
    assert "12×10" in g.describe() and "2 prefix tokens" in g.describe()


def test_grid_rejects_impossible_sizes():
    with pytest.raises(ParameterError, match="no whole"):
        vision.PatchGrid.from_sizes(8, 16)
    with pytest.raises(ParameterError, match="at least 1"):
        vision.PatchGrid.from_sizes(224, 0)


def test_split_table_keeps_prefix_apart():
    table = torch.arange(3 + 4 * 6, dtype=torch.float32).reshape(1, -1, 1).expand(1, -1, 5).contiguous()
    parts = vision.split_table(table, num_prefix_tokens=3, grid=(4, 6))
    assert parts.prefix.shape == (3, 5) and parts.patches.shape == (24, 5)
    assert parts.prefix[:, 0].tolist() == [0, 1, 2]
    assert parts.patches[0, 0] == 3 and parts.grid == (4, 6)
    # square grids are inferred; a non-square count asks for the grid
    assert vision.split_table(torch.zeros(1 + 196, 8)).grid == (14, 14)
    with pytest.raises(ParameterError, match="give the grid"):
        vision.split_table(torch.zeros(1 + 24, 8))
    with pytest.raises(ParameterError, match="check the grid"):
        vision.split_table(torch.zeros(1 + 24, 8), grid=(5, 5))
    with pytest.raises(ParameterError, match="batch 1"):
        vision.split_table(torch.zeros(2, 10, 8), num_prefix_tokens=1, grid=(3, 3))


def test_learned_2d_has_prefix_rows_first_and_is_seeded():
    a = vision.learned_2d(3, 5, 16, seed=4, num_prefix_tokens=2)
    assert a.shape == (2 + 15, 16)
    assert torch.equal(a, vision.learned_2d(3, 5, 16, seed=4, num_prefix_tokens=2))
    assert not torch.equal(a, vision.learned_2d(3, 5, 16, seed=5, num_prefix_tokens=2))
    assert abs(float(a.std()) - 0.02) < 0.005


def test_neighbour_lists():
    assert sorted(vision.grid_neighbours(3, 4, 0)) == [1, 4]
    assert sorted(vision.grid_neighbours(3, 4, 5)) == [1, 4, 6, 9]
    assert vision.flat_neighbours(3, 4, 3) == [2, 4]  # 4 starts the next row: not a grid neighbour
    assert vision.row_end_patches(3, 4).tolist() == [3, 7]


# ---- 2D sin-cos against an independent derivation of MAE's formula ----------------------------
def _mae_reference(grid_h: int, grid_w: int, dim: int, base: float) -> np.ndarray:
    """Element by element, from the formula in MAE's paper/code description:
    row-major patch (r, c); channel block 0 = column coordinate, block 1 = row coordinate;
    inside a block of width D = dim/2: [sin(x·ω_k) for k < D/2 | cos(x·ω_k)], ω_k = base^(−k/(D/2))."""
    out = np.zeros((grid_h * grid_w, dim))
    d_axis = dim // 2
    for r in range(grid_h):
        for c in range(grid_w):
            p = r * grid_w + c
            for block, coord in ((0, c), (1, r)):
                for k in range(d_axis // 2):
                    omega = base ** (-k / (d_axis / 2))
                    out[p, block * d_axis + k] = math.sin(coord * omega)
                    out[p, block * d_axis + d_axis // 2 + k] = math.cos(coord * omega)
    return out


@pytest.mark.parametrize("grid_h,grid_w,dim,base", [(14, 14, 32, 10000.0), (3, 5, 8, 100.0), (6, 4, 64, 10000.0)])
def test_sincos_2d_matches_mae_formula(grid_h, grid_w, dim, base):
    ours = vision.sincos_2d(grid_h, grid_w, dim, base)
    assert ours.shape == (grid_h * grid_w, dim) and ours.dtype == torch.float32
    np.testing.assert_allclose(ours.numpy(), _mae_reference(grid_h, grid_w, dim, base), atol=1e-6)


def test_sincos_2d_matches_transformers_vit_mae():
    # transformers builds [sin_h|cos_h|sin_w|cos_w] and swaps the halves to reproduce MAE's
    # released layout (column coordinate first); its ViTMAE position table is the reference.
    from transformers import ViTMAEConfig
    from transformers.models.vit_mae.modeling_vit_mae import ViTMAEEmbeddings, build_2d_sinusoidal_position_embedding

    config = ViTMAEConfig(hidden_size=48, image_size=56, patch_size=8, num_channels=3)
    emb = ViTMAEEmbeddings(config)
    emb.initialize_weights()
    table = emb.position_embeddings.detach()[0]
    assert torch.all(table[0] == 0)  # MAE gives CLS a zero row; our grid table starts after it
    torch.testing.assert_close(vision.sincos_2d(7, 7, 48), table[1:], atol=1e-6, rtol=0)
    # rectangular grids: the layout swap applied to transformers' builder
    hf = build_2d_sinusoidal_position_embedding(5, 9, 32)
    torch.testing.assert_close(vision.sincos_2d(5, 9, 32), torch.cat((hf[:, 16:], hf[:, :16]), 1), atol=1e-6, rtol=0)


def test_sincos_2d_rejects_dim_not_divisible_by_4():
    with pytest.raises(ParameterError, match="divisible by 4"):
        vision.sincos_2d(4, 4, 30)


# ---- axial 2D RoPE -----------------------------------------------------------------------------
def test_rope_2d_rotates_each_half_by_its_own_axis():
    dim = 16
    x = torch.randn(1, dim, generator=torch.Generator().manual_seed(0))
    inv = vision.rope_2d_inv_freq(dim, 100.0)
    out = vision.rope_2d_apply(x, torch.tensor([3.0]), torch.tensor([5.0]), 100.0)
    # independent: rotate pair (i, i + 4) of each 8-dim half by coord·θ_i
    expect = x.clone()
    for half, coord in ((0, 5.0), (1, 3.0)):
        base = half * 8
        for i in range(4):
            a, b = x[0, base + i], x[0, base + i + 4]
            ang = coord * float(inv[i])
            expect[0, base + i] = a * math.cos(ang) - b * math.sin(ang)
            expect[0, base + i + 4] = b * math.cos(ang) + a * math.sin(ang)
    torch.testing.assert_close(out, expect, atol=1e-5, rtol=0)
    torch.testing.assert_close(out.norm(), x.norm())  # rotations keep length


def test_rope_2d_similarity_depends_on_offset_only_and_equals_sincos_cosine_for_ones():
    sim = vision.rope_2d_similarity(5, 6, 32)
    s = sim.reshape(5, 6, 5, 6)
    # same (Δr, Δc) → same score wherever the pair sits
    torch.testing.assert_close(s[0, 0, 1, 2], s[3, 2, 4, 4])
    assert torch.allclose(torch.diagonal(sim), torch.ones(30))
    # with v = ones every pair weighs equally and the frequencies are MAE's: the rotated dot
    # product equals the cosine similarity of the 2D sin-cos table
    cos = vision.cosine_similarity(vision.sincos_2d(5, 6, 32))
    torch.testing.assert_close(sim, cos, atol=1e-5, rtol=0)


# ---- similarity as a grid, and the nearest-neighbour property ------------------------------------
@pytest.mark.parametrize("name", ["sincos_2d", "rope_2d"])
@pytest.mark.parametrize("grid", [(14, 14), (7, 10)])
def test_2d_encodings_nearest_patches_are_grid_neighbours(name, grid):
    sim = vision.patch_similarity(vision.EncodingSpec(name=name, dim=64), *grid)
    ok = vision.nearest_are_grid_neighbours(sim, *grid)
    assert ok.all(), f"{name}: patches {np.flatnonzero(~ok)} have a non-neighbour at least as similar"


def test_flattened_1d_fails_at_row_boundaries():
    grid_h, grid_w = 14, 14
    sim = vision.patch_similarity(vision.EncodingSpec(name="flat_1d", dim=64), grid_h, grid_w)
    ok = vision.nearest_are_grid_neighbours(sim, grid_h, grid_w)
    ends = vision.row_end_patches(grid_h, grid_w)
    assert not ok[ends].any()
    for i in ends:
        report = vision.neighbour_report(sim, grid_h, grid_w, int(i))
        wrap = i + 1  # first patch of the next row: far away on the image
        assert report.flat_only == [(wrap, pytest.approx(float(sim[i, wrap])))]
        below = i + grid_w
        assert sim[i, wrap] > sim[i, below]  # the raster neighbour beats the real one below
        assert not report.nearest_are_grid_neighbours
    # the same patches are fine under the 2D encoding
    sim2 = vision.patch_similarity(vision.EncodingSpec(name="sincos_2d", dim=64), grid_h, grid_w)
    assert vision.nearest_are_grid_neighbours(sim2, grid_h, grid_w)[ends].all()


def test_tile_mosaic_layout():
    grid_h, grid_w = 3, 4
    sim = np.arange(144, dtype=np.float32).reshape(12, 12)
    m = vision.tile_mosaic(sim, grid_h, grid_w, gap=1)
    assert m.shape == (3 * 4 - 1, 4 * 5 - 1)
    # tile (1, 2) = patch 6, its map laid out as the grid
    np.testing.assert_array_equal(m[4:7, 10:14], sim[6].reshape(3, 4))
    assert np.isnan(m[3, 0]) and np.isnan(m[0, 4])
    assert vision.mosaic_tile_at(5.5, 11.2, grid_h, grid_w) == (1, 2, 1, 1)
    assert vision.mosaic_tile_at(3.0, 0.0, grid_h, grid_w) is None


def test_given_table_similarity_ignores_prefix():
    table = vision.learned_2d(4, 4, 16, seed=1, num_prefix_tokens=1)
    table[0] = 100.0  # a CLS row must not leak into the grid
    spec = vision.EncodingSpec(name="table", dim=16, table=table.unsqueeze(0), num_prefix_tokens=1)
    sim = vision.patch_similarity(spec, 4, 4)
    expect = vision.cosine_similarity(table[1:]).numpy()
    np.testing.assert_allclose(sim, expect, atol=1e-6)
    with pytest.raises(ParameterError, match="check the grid"):
        vision.patch_similarity(spec, 5, 4)


# ---- resampling --------------------------------------------------------------------------------
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("prefix,old,new", [(1, (14, 14), (20, 20)), (2, (6, 8), (9, 5)), (0, (7, 7), (4, 4))])
def test_resample_equals_interpolate_on_grid_with_prefix_kept(batched, prefix, old, new):
    dim = 12
    table = torch.randn(prefix + old[0] * old[1], dim, generator=torch.Generator().manual_seed(3))
    inp = table.unsqueeze(0) if batched else table
    out = vision.resample(inp, new, old_grid=old, num_prefix_tokens=prefix)
    assert out.shape == ((1,) if batched else ()) + (prefix + new[0] * new[1], dim)
    flat = out[0] if batched else out
    torch.testing.assert_close(flat[:prefix], table[:prefix], rtol=0, atol=0)
    grid = table[prefix:].reshape(1, *old, dim).permute(0, 3, 1, 2)
    ref = torch.nn.functional.interpolate(grid, size=new, mode="bicubic", align_corners=False)
    torch.testing.assert_close(flat[prefix:], ref.permute(0, 2, 3, 1).reshape(-1, dim), rtol=0, atol=1e-6)


def test_resample_matches_transformers_vit_interpolate_pos_encoding():
    from transformers import ViTConfig
    from transformers.models.vit.modeling_vit import ViTEmbeddings

    config = ViTConfig(hidden_size=24, image_size=112, patch_size=16, num_channels=3)
    emb = ViTEmbeddings(config)
    with torch.no_grad():
        emb.position_embeddings.copy_(torch.randn(1, 1 + 49, 24, generator=torch.Generator().manual_seed(9)))
    height, width = 160, 208  # → 10 × 13 patches
    tokens = torch.zeros(1, 1 + 10 * 13, 24)
    with torch.no_grad():
        ref = emb.interpolate_pos_encoding(tokens, height, width)
    ours = vision.resample(emb.position_embeddings.detach(), (10, 13), num_prefix_tokens=1)
    torch.testing.assert_close(ours, ref, rtol=0, atol=1e-6)


def test_resample_keeps_dtype_and_reports_changes():
    table = vision.learned_2d(8, 8, 16, seed=0, num_prefix_tokens=1).to(torch.float16)
    out, report = vision.resample_with_report(table, (16, 16), num_prefix_tokens=1)
    assert out.dtype == torch.float16 and out.shape == (1 + 256, 16)
    assert report.old_grid == (8, 8) and report.new_grid == (16, 16)
    assert (report.old_tokens, report.new_tokens) == (65, 257)
    assert report.prefix_unchanged
    assert 0 < report.round_trip_rel_error < 1
    assert "8×8 → 16×16" in report.text() and "upsampled" in report.text()
    # a smooth table survives the round trip far better than noise does
    _, smooth = vision.resample_with_report(vision.sincos_2d(8, 8, 16), (16, 16), num_prefix_tokens=0)
    assert smooth.round_trip_rel_error < report.round_trip_rel_error


def test_resample_same_size_is_identity_and_bad_input_is_explained():
    table = torch.randn(1 + 16, 4)
    torch.testing.assert_close(vision.resample(table, 4), table, rtol=0, atol=0)
    with pytest.raises(ParameterError, match="give the grid"):
        vision.resample(torch.randn(1 + 12, 4), (4, 4))
    with pytest.raises(ParameterError, match="interpolation"):
        vision.resample(table, 5, mode="area")


# ---- the patch-grid request (what the dock computes) -----------------------------------------------
def test_patch_grid_request_panels_and_resample_with_prefix():
    from peapp.analysis.patch_grid import PatchGridRequest, PatchGridSettings, map_index

    settings = PatchGridSettings(image_height=96, image_width=128, patch_height=16, patch_width=16, prefix_tokens=2,
                                 encoding="learned_2d", second="resampled", resample_height=9, resample_width=4,
                                 dim=32)
    result = PatchGridRequest(settings).run()
    assert result.a.grid == (6, 8) and result.a.sim.shape == (48, 48)
    assert result.a.mosaic.shape == (6 * 7 - 1, 8 * 9 - 1)
    assert result.b.grid == (9, 4) and result.b.sim.shape == (36, 36)
    report = result.resample_report
    assert report.num_prefix_tokens == 2 and report.prefix_unchanged
    assert (report.old_tokens, report.new_tokens) == (2 + 48, 2 + 36)
    # panel A is the grid part of the seeded table with its 2 prefix rows drawn first
    table = vision.learned_2d(6, 8, 32, seed=0, num_prefix_tokens=2)
    np.testing.assert_allclose(result.a.sim, vision.cosine_similarity(table[2:]).numpy(), atol=1e-6)
    resampled = vision.resample(table, (9, 4), (6, 8), num_prefix_tokens=2)[2:]
    np.testing.assert_allclose(result.b.sim, vision.cosine_similarity(resampled).numpy(), atol=1e-6)
    assert map_index(0, (6, 8), (9, 4)) == 0 and map_index(47, (6, 8), (9, 4)) == 35


def test_patch_grid_request_compare_and_rope_resample_and_errors():
    from peapp.analysis.patch_grid import GivenTable, PatchGridRequest, PatchGridSettings

    result = PatchGridRequest(PatchGridSettings(encoding="sincos_2d", second="flat_1d", dim=64)).run()
    assert result.a.nearest_ok.all() and not result.b.nearest_ok.any()
    rope = PatchGridRequest(PatchGridSettings(encoding="rope_2d", second="resampled", resample_height=5,
                                              resample_width=7)).run()
    assert rope.resample_report is None and "no table" in rope.b.note and rope.b.grid == (5, 7)
    with pytest.raises(ParameterError, match="no learned table"):
        PatchGridRequest(PatchGridSettings(encoding="table")).run()
    with pytest.raises(ParameterError, match="per side"):
        PatchGridSettings(image_height=2048, patch_height=16)
    table = GivenTable(values=np.random.default_rng(0).normal(size=(1, 1 + 25, 8)).astype(np.float32),
                       num_prefix_tokens=1, grid=(5, 5), name="test", key=1)
    with pytest.raises(ParameterError, match="check the grid"):  # the table is 5×5, the settings 14×14
        PatchGridRequest(PatchGridSettings(encoding="table"), table=table).run()
    ok = PatchGridRequest(PatchGridSettings(image_height=80, image_width=80, encoding="table"), table=table).run()
    assert ok.a.grid == (5, 5)


@pytest.mark.parametrize("name,grid,dim,base", [("sincos_2d", (14, 14), 64, 10000.0), ("sincos_2d", (5, 9), 768, 100.0),
                                                ("flat_1d", (6, 7), 32, 10000.0), ("flat_1d", (3, 3), 6, 50.0)])
def test_closed_form_similarity_equals_cosine_of_the_table(name, grid, dim, base):
    table = vision.sincos_2d(*grid, dim, base) if name == "sincos_2d" else vision.flat_1d(*grid, dim, base)
    np.testing.assert_allclose(vision.sinusoid_similarity(name, *grid, dim, base),
                               vision.cosine_similarity(table).numpy(), atol=2e-6)


def test_nearest_check_matches_a_brute_force_argsort():
    sim = vision.patch_similarity(vision.EncodingSpec(name="learned_2d", dim=4, seed=3), 4, 5)
    ok = vision.nearest_are_grid_neighbours(sim, 4, 5)
    for i in range(20):
        nb = set(vision.grid_neighbours(4, 5, i))
        order = [j for j in np.argsort(-sim[i]) if j != i][: len(nb)]
        assert ok[i] == (set(order) == nb)


def test_resample_matches_transformers_deit_with_two_prefix_tokens():
    # DeiT keeps CLS and the distillation token in front of the grid: both must survive unchanged
    from transformers import DeiTConfig
    from transformers.models.deit.modeling_deit import DeiTEmbeddings

    config = DeiTConfig(hidden_size=16, image_size=96, patch_size=16, num_channels=3)
    emb = DeiTEmbeddings(config)
    with torch.no_grad():
        emb.position_embeddings.copy_(torch.randn(1, 2 + 36, 16, generator=torch.Generator().manual_seed(4)))
    table = emb.position_embeddings.detach()
    parts = vision.split_table(table, num_prefix_tokens=2)
    assert parts.grid == (6, 6) and parts.num_prefix_tokens == 2
    with torch.no_grad():
        ref = emb.interpolate_pos_encoding(torch.zeros(1, 2 + 4 * 9, 16), 64, 144)  # → 4 × 9 patches
    torch.testing.assert_close(vision.resample(table, (4, 9), num_prefix_tokens=2), ref, rtol=0, atol=1e-6)


def test_neighbour_read_out_names_each_nearest_patch_rightly():
    """Patch (0,0) of a 3×3 grid, most similar to (0,1) and (0,2): (0,1) is a grid neighbour and
    (0,2) is not (it used to read "(0,1), (0,2) are NOT its grid neighbours")."""
    sim = np.zeros((9, 9))
    sim[0, 1], sim[0, 2], sim[0, 3] = 0.9, 0.8, 0.1
    text = vision.neighbour_report(sim, 3, 3, 0).text(3)
    assert "of the 2 most similar patches, (0,1) is a grid neighbour and (0,2) is not" in text
    assert "NOT" not in text
    sim[0, 2], sim[0, 3] = 0.1, 0.8
    assert "the 2 most similar patches (0,1), (1,0) are all its grid neighbours" in \
        vision.neighbour_report(sim, 3, 3, 0).text(3)
    sim[0, 1], sim[0, 3], sim[0, 4], sim[0, 8] = 0.0, 0.0, 0.9, 0.8
    assert "none of the 2 most similar patches (1,1), (2,2) is a grid neighbour" in \
        vision.neighbour_report(sim, 3, 3, 0).text(3)
