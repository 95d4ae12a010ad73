"""BEiT / Swin 2-D relative position bias: detected, and drawn in the patch grid exactly as
transformers' own BeitRelativePositionBias / SwinRelativePositionBias add it to the logits."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from peapp import checkpoint_links as cv
from peapp.analysis.patch_grid import PatchGridRequest
from peapp.analysis.patch_grid_bias import bias_view, relative_position_index, window_of_table
from peapp.checkpoints import inspect
from peapp.document import Document
from peapp.errors import ParameterError


def _randomise_bias_tables(model) -> None:
    g = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("relative_position_bias_table"):
                p.copy_(torch.randn(p.shape, generator=g))


@pytest.fixture(scope="module")
def beit(tmp_path_factory):
    import transformers as T

    config = T.BeitConfig(hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
                          image_size=32, patch_size=8, use_relative_position_bias=True,
                          use_absolute_position_embeddings=False, vocab_size=10)
    model = T.BeitModel(config).eval()
    _randomise_bias_tables(model)
    folder = tmp_path_factory.mktemp("beit")
    model.save_pretrained(folder)
    return folder, model


@pytest.fixture(scope="module")
def swin(tmp_path_factory):
    import transformers as T

    config = T.SwinConfig(image_size=32, patch_size=2, embed_dim=8, depths=[1, 1], num_heads=[2, 4], window_size=4)
    model = T.SwinModel(config).eval()
    _randomise_bias_tables(model)
    folder = tmp_path_factory.mktemp("swin")
    model.save_pretrained(folder)
    return folder, model


def test_window_from_the_row_count():
    assert window_of_table(7 * 7 + 3) == window_of_table(52)
    assert (window_of_table(52).height, window_of_table(52).class_token) == (4, True)
    assert (window_of_table(169).height, window_of_table(169).class_token) == (7, False)  # Swin's 7×7
    assert window_of_table(5 * 9, (3, 5)).width == 5  # a non-square window the config gives
    with pytest.raises(ParameterError, match="fits no square window"):
        window_of_table(50)


def test_index_is_transformers_construction():
    from transformers.models.beit.modeling_beit import BeitRelativePositionBias
    from transformers.models.swin.modeling_swin import SwinRelativePositionBias

    for window in ((4, 4), (3, 5)):
        ours = relative_position_index(window_of_table((2 * window[0] - 1) * (2 * window[1] - 1) + 3, window))
        theirs = BeitRelativePositionBias.generate_relative_position_index(window)
        np.testing.assert_array_equal(ours, theirs.numpy())
        swin = SwinRelativePositionBias(2, window)
        ours = relative_position_index(window_of_table((2 * window[0] - 1) * (2 * window[1] - 1), window))
        np.testing.assert_array_equal(ours.reshape(-1), swin.relative_position_index.numpy())


def test_beit_is_detected_and_its_bias_is_transformers(beit):
    folder, model = beit
    report = inspect(folder)
    comps = [c for c in report.components if c.kind == "relative_bias_2d"]
    assert len(comps) == 1 and report.warnings == ()
    p = comps[0].params
    assert (p["window"], p["class_token"], p["heads"], p["tables"]) == ([4, 4], True, 2, 2)
    bias = model.layers[0].relative_position_bias  # transformers 5's module layout; saved in the Hub's names
    assert comps[0].tensor == "encoder.layer.0.attention.attention.relative_position_bias.relative_position_bias_table"
    table = report.checkpoint.load(comps[0].tensor).numpy()
    with torch.no_grad():
        theirs = bias(window_size=(4, 4))[0].numpy()  # [heads, N + 1, N + 1]
    for head in range(2):
        view = bias_view(table, head, (4, 4))
        np.testing.assert_allclose(view.patches, theirs[head, 1:, 1:], rtol=0, atol=1e-7)
        assert (view.class_to_patch, view.patch_to_class, view.class_to_class) == pytest.approx(
            (theirs[head, 0, 1], theirs[head, 1, 0], theirs[head, 0, 0]))


def test_swin_stages_and_the_patch_grid_draws_transformers_bias(swin):
    folder, model = swin
    report = inspect(folder)
    comps = [c for c in report.components if c.kind == "relative_bias_2d"]
    assert [c.params["heads"] for c in comps] == [2, 4]  # one per stage (their heads differ)
    assert all(c.params["window"] == [4, 4] and not c.params["class_token"] for c in comps)
    block = model.encoder.layers[1].blocks[0].attention
    with torch.no_grad():
        theirs = block.relative_position_bias()[0].numpy()  # [heads, 16, 16]
    doc, notes = cv.document_for_component(Document(), report.checkpoint, comps[1])
    assert notes == [] and doc.family == Document().family  # no 1-D family changes
    view = doc.view_spec("patch_grid")
    assert (view.encoding, view.image_height // view.patch_height, view.selected) == ("relative_bias", 4, 2 * 4 + 2)
    assert (view.second, view.prefix_tokens) == ("none", 0)  # Swin has no class token
    for head in (0, 3):
        settings = doc.with_view("patch_grid", bias_head=head).view_spec("patch_grid").settings()
        result = PatchGridRequest(settings=settings).run()
        np.testing.assert_allclose(result.a.sim, theirs[head], rtol=0, atol=1e-7)
        np.testing.assert_allclose(result.a.map_of(5), theirs[head, 5].reshape(4, 4), rtol=0, atol=1e-7)
        assert result.a.value_label == "bias added to the logit"


def test_bad_bias_settings_are_said(beit):
    folder, _ = beit
    report = inspect(folder)
    comp = next(c for c in report.components if c.kind == "relative_bias_2d")
    doc, _ = cv.document_for_component(Document(), report.checkpoint, comp)
    with pytest.raises(ParameterError, match="not one of the table's 2 heads"):
        PatchGridRequest(settings=doc.with_view("patch_grid", bias_head=5).view_spec("patch_grid").settings()).run()
    wrong = doc.with_view("patch_grid", image_height=128).view_spec("patch_grid").settings()
    with pytest.raises(ParameterError, match="4×4 window, but the grid is 8×4"):
        PatchGridRequest(settings=wrong).run()
    with pytest.raises(ParameterError, match="no relative position bias table is loaded"):
        PatchGridRequest(settings=Document().with_view("patch_grid", encoding="relative_bias")
                         .view_spec("patch_grid").settings()).run()
