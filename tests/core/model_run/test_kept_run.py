"""Browsing heads after one run (issue 35, item 2): what ``RunOptions(keep_all=True)`` keeps
serves every layer × head's map, pooled and zoomed, equal to a full run of that layer."""

from __future__ import annotations

import numpy as np
import pytest

from peapp.errors import ParameterError
from peapp.model_run import RunOptions, load_model, run_model
from peapp.model_run.kept import pooled_bytes, qk_bytes
from peapp.model_run.runner import zoom_map

IDS = [(7 * i + 3) % 60 + 1 for i in range(90)]


@pytest.mark.parametrize("fixture", ["tiny_llama", "tiny_bert", "tiny_gpt2"])
def test_every_head_is_served_equal_to_a_run_of_its_layer(fixture, request):
    loaded = load_model(request.getfixturevalue(fixture))
    ids = IDS[:60]
    kept_run = run_model(loaded, ids, RunOptions(layer=0, head=0, map_bins=16, keep_all=True, keep_map_qk=True))
    kept = kept_run.kept
    assert kept is not None and not kept.missing
    assert kept.maps.shape == (2, 4, 15, 15) and kept.map_bin == (4, 4)  # 60 tokens in 4-token cells
    for layer in range(2):
        full = run_model(loaded, ids, RunOptions(layer=layer, map_bins=16, keep_map_qk=True))
        for head in range(4):
            values, region, cell = kept.head_map(layer, head)
            assert region == full.map_region and cell == full.map_bin
            np.testing.assert_array_equal(values, full.attention_map[head].astype(np.float32))
            window = ((13, 41), (5, 37))
            zoomed, zregion, zcell = kept.head_map(layer, head, window, bins=64)
            want, wregion, wcell = zoom_map(full, *window, 64, heads=(head,))
            assert (zregion, zcell) == (wregion, wcell) == ((13, 41, 5, 37), (1, 1))
            np.testing.assert_array_equal(zoomed, want[0])
    # the map layer's own result is untouched by keeping the others
    np.testing.assert_array_equal(kept_run.attention_map, run_model(loaded, ids, RunOptions(layer=0, map_bins=16))
                                  .attention_map)


def test_what_is_kept_costs_what_it_says_and_the_cap_falls_back(tiny_llama):
    loaded = load_model(tiny_llama)
    ids = IDS[:60]
    run = run_model(loaded, ids, RunOptions(map_bins=16, keep_all=True))
    kept = run.kept
    assert kept.pooled_nbytes == 2 * 4 * 15 * 15 * 4  # float32 means
    assert kept.qk_nbytes == qk_bytes(2, 4, 2, 60, 8, 4)  # q [4, 60, 8] and k [2, 60, 8] per layer, float32
    maps_need, qk_need = pooled_bytes(2, 4, 15, 15), qk_bytes(2, 4, 2, 60, 8, 4)
    # room for the maps, not for every layer's q and k: heads browse, zoom only into the layer run
    run = run_model(loaded, ids, RunOptions(layer=1, map_bins=16, keep_all=True, keep_map_qk=True,
                                            keep_budget=maps_need + qk_need - 1))
    kept = run.kept
    assert kept.maps is not None and not kept.qk and "q and k would need" in kept.missing
    np.testing.assert_array_equal(kept.head_map(0, 2)[0], run_model(loaded, ids, RunOptions(layer=0, map_bins=16))
                                  .attention_map[2].astype(np.float32))
    with pytest.raises(ParameterError, match="press Run to run this layer"):
        kept.head_map(0, 2, ((0, 10), (0, 10)))
    assert run.map_qk is not None  # the run's own layer still zooms
    # no room even for the maps: nothing is kept, and the message says how much it would take
    run = run_model(loaded, ids, RunOptions(map_bins=16, keep_all=True, keep_budget=maps_need - 1))
    assert run.kept.maps is None and not run.kept.can_browse(0) and "pooled map would need" in run.kept.missing
    with pytest.raises(ParameterError, match="pooled map would need"):
        run.kept.head_map(1, 0)


def test_a_text_cut_at_a_learned_tables_rows_says_it_is_the_models_context(tiny_bert, tiny_llama):
    """Issue 35, item 6: the cut is the model's context (its table's rows), not the Tokens setting."""
    from peapp.model_run.text_run import TextRunRequest, learned_context

    text = " ".join(f"w{i % 60 + 1}" for i in range(100))
    result = TextRunRequest(checkpoint=tiny_bert, text_source="typed", text=text, max_tokens=100).compute(lambda f: None)
    assert result.run.n_tokens == 64 and result.truncated and result.context_cut == 64
    assert learned_context(tiny_bert) == 64 and learned_context(tiny_llama) is None
    result = TextRunRequest(checkpoint=tiny_bert, text_source="typed", text=text, max_tokens=40).compute(lambda f: None)
    assert result.run.n_tokens == 40 and result.truncated and result.context_cut is None
