"""M-RoPE position ids and cos/sin against transformers' own Qwen2-VL, Qwen2.5-VL, Qwen3-VL and GLM-4V."""

import numpy as np
import pytest
import torch
import transformers

from peapp.encodings import multimodal as mm
from peapp.errors import ParameterError

transformers.logging.set_verbosity_error()
TEXT = dict(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37, vocab_size=99)
ROPE = {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 3, 3]}
VISION = dict(depth=1, hidden_size=32, num_heads=2, out_hidden_size=32, intermediate_size=37)
CLASSES = {
    "qwen2_vl": (transformers.Qwen2VLConfig, transformers.Qwen2VLModel,
                 dict(depth=1, embed_dim=32, num_heads=2, hidden_size=32)),
    "qwen2_5_vl": (transformers.Qwen2_5_VLConfig, transformers.Qwen2_5_VLModel, {**VISION, "tokens_per_second": 3}),
    "qwen3_vl": (transformers.Qwen3VLConfig, transformers.Qwen3VLModel, VISION),
    "glm4v": (transformers.Glm4vConfig, transformers.Glm4vModel, VISION),
}


@pytest.fixture(scope="module")
def models():
    torch.manual_seed(0)
    out = {}
    for name, (config_cls, model_cls, vision) in CLASSES.items():
        rope = {**ROPE, "partial_rotary_factor": 0.5, "mrope_section": [1, 1, 2]} if name == "glm4v" else ROPE
        config = config_cls(text_config=dict(TEXT, head_dim=16, rope_parameters=rope), vision_config=vision)
        out[name] = (config, model_cls(config).eval())
    return out


def inputs(model_type, blocks, seconds=None, pad_left=0):
    """Token types and grids for blocks (kind, size) laid out as the processor does."""
    mcfg = mm.read_config(mm.PRESETS[model_type])
    seq = mm.build_sequence(mm.parse_blocks(blocks), mcfg, timestamp_tokens=3)
    types = torch.from_numpy(seq.token_types).view(1, -1)
    mask = None
    if pad_left:
        types = torch.cat([torch.zeros(1, pad_left, dtype=types.dtype), types], dim=1)
        mask = torch.ones_like(types)
        mask[:, :pad_left] = 0
    grid = lambda a: torch.from_numpy(a) if len(a) else None  # noqa: E731
    return dict(input_ids=torch.ones_like(types), mm_token_type_ids=types, image_grid_thw=grid(seq.image_grid_thw),
                video_grid_thw=grid(seq.video_grid_thw), attention_mask=mask), seq


CASES = {
    "text only": "text 7",
    "image": "text 3, image 2x3, text 4",
    "video": "text 2, video 3x2x2 @0.5s, text 3",
    "images and videos": "image 2x2, text 2, video 2x3x2 @2s, image 1x4, text 1, video 4x1x2 @1.5s, text 2",
    "a long video": "text 1, video 9x2x2 @1s, text 5",
}


@pytest.mark.parametrize("model_type", list(CLASSES))
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("pad", [0, 3])
def test_ids_equal_transformers(models, model_type, case, pad):
    config, model = models[model_type]
    kwargs, seq = inputs(model_type, CASES[case], pad_left=pad)
    extra = {}
    if model_type == "qwen2_5_vl" and len(seq.second_per_grid_ts):
        extra["second_per_grid_ts"] = torch.from_numpy(seq.second_per_grid_ts)
    with torch.no_grad():
        want_ids, want_deltas = model.get_rope_index(**{k: (v.clone() if v is not None else v) for k, v in kwargs.items()},
                                                     **extra)
    ids, deltas = mm.rope_index(config.to_dict(), **kwargs, **extra)
    torch.testing.assert_close(ids, want_ids, rtol=0, atol=0)
    torch.testing.assert_close(deltas.to(want_deltas), want_deltas, rtol=0, atol=0)


def test_batch_of_two_with_padding(models):
    config, model = models["qwen2_5_vl"]
    a, seq_a = inputs("qwen2_5_vl", "text 2, image 2x2, text 1, video 2x1x1 @2s, text 1")
    b, seq_b = inputs("qwen2_5_vl", "text 1, video 3x2x1 @0.7s, text 3, image 1x1", pad_left=0)
    na, nb = a["mm_token_type_ids"].shape[1], b["mm_token_type_ids"].shape[1]
    n = max(na, nb)
    types = torch.zeros(2, n, dtype=torch.long)
    mask = torch.zeros(2, n, dtype=torch.long)
    types[0, n - na:], mask[0, n - na:] = a["mm_token_type_ids"][0], 1
    types[1, n - nb:], mask[1, n - nb:] = b["mm_token_type_ids"][0], 1
    kwargs = dict(input_ids=torch.ones_like(types), mm_token_type_ids=types,
                  image_grid_thw=torch.cat([a["image_grid_thw"], b["image_grid_thw"]]),
                  video_grid_thw=torch.cat([a["video_grid_thw"], b["video_grid_thw"]]),
                  second_per_grid_ts=torch.tensor([*seq_a.second_per_grid_ts, *seq_b.second_per_grid_ts]),
                  attention_mask=mask)
    want = model.get_rope_index(**kwargs)
    got = mm.rope_index(config.to_dict(), **kwargs)
    for g, w in zip(got, want):
        torch.testing.assert_close(g.to(w), w, rtol=0, atol=0)


@pytest.mark.parametrize("model_type", list(CLASSES))
def test_cos_sin_equal_the_models_rotary_embedding(models, model_type):
    config, model = models[model_type]
    kwargs, _ = inputs(model_type, CASES["images and videos"])
    ids, _ = mm.rope_index(config.to_dict(), **kwargs)
    rotary = model.language_model.rotary_emb
    x = torch.zeros(1, dtype=torch.float32)
    want_cos, want_sin = rotary(x, ids)
    cos, sin = mm.model_cos_sin(mm.read_config(config.to_dict()), ids)
    torch.testing.assert_close(cos, want_cos, rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(sin, want_sin, rtol=1e-6, atol=1e-6)


def test_layouts_differ_where_the_sections_do():
    sectioned = mm.pair_axes((2, 3, 3), False)
    interleaved = mm.pair_axes((2, 3, 3), True)
    assert sectioned.tolist() == [0, 0, 1, 1, 1, 2, 2, 2]
    assert interleaved.tolist() == [0, 1, 2, 0, 1, 2, 0, 1]  # w stops below 3·3, h below 3·3
    # Qwen3-VL's real split: 24/20/20 of 64 pairs, interleaved while all three run, then time
    axes = mm.pair_axes((24, 20, 20), True)
    assert np.bincount(axes).tolist() == [24, 20, 20] and axes[60:].tolist() == [0, 0, 0, 0]


def test_read_config_of_presets_and_bad_configs():
    q3 = mm.read_config(mm.PRESETS["qwen3_vl"])
    assert q3.interleaved and q3.sections == (24, 20, 20) and q3.pairs == 64
    glm = mm.read_config(mm.PRESETS["glm4v"])
    assert glm.adjacent_pairs and glm.rotary_dim == 64 and sum(glm.sections) == 32
    with pytest.raises(ParameterError, match="covers 10 rotary pairs"):
        mm.read_config({**mm.PRESETS["qwen2_vl"], "text_config": {"head_dim": 128, "rope_parameters": {
            "rope_theta": 1e6, "mrope_section": [2, 4, 4]}}})
    with pytest.raises(ParameterError, match="no multimodal RoPE"):
        mm.read_config({"model_type": "llama"})
    # an older hub config: rope_scaling with type mrope, theta at the top
    old = mm.read_config({"model_type": "qwen2_vl", "hidden_size": 256, "num_attention_heads": 2, "rope_theta": 1e6,
                          "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
                          "vision_config": {"spatial_merge_size": 2}})
    assert old.sections == (16, 24, 24) and old.rope_theta == 1e6 and not old.interleaved


@pytest.mark.parametrize("text, message", [("", "empty"), ("picture 3", "cannot read"), ("image 3", "2 size"),
                                           ("text 2 @3s", "1 size"), ("video 2x2x2 @0s", "seconds")])
def test_bad_blocks_say_what_to_write(text, message):
    with pytest.raises(ParameterError, match=message):
        mm.parse_blocks(text)


def test_text_after_a_visual_block_continues_from_the_grid_side():
    mcfg = mm.read_config(mm.PRESETS["qwen2_vl"])
    seq = mm.build_sequence(mm.parse_blocks("text 2, image 3x5, text 2"), mcfg)
    ids = mm.model_positions(seq, mm.PRESETS["qwen2_vl"])
    assert ids[:, 17].tolist() == [2 + 5] * 3  # 15 image tokens used 5 ids


def test_videorope_diagonal_layout_and_spacing():
    mcfg = mm.read_config(mm.PRESETS["qwen2_vl"])
    seq = mm.build_sequence(mm.parse_blocks("text 2, video 3x2x4, text 1"), mcfg)
    ids = mm.videorope_positions(seq, spacing=2.0)
    # frame 1, row 0, column 3: t = 2 + 2·1, h = t + 0 − 1, w = t + 3 − 2
    k = 2 + 8 + 3
    assert ids[:, k].tolist() == [4.0, 3.0, 5.0]
    assert ids[:, -1].tolist() == [float(ids[:, :-1].max() + 1)] * 3


def test_v2pe_steps_and_hope_scaling():
    mcfg = mm.read_config(mm.PRESETS["qwen2_5_vl"])
    seq = mm.build_sequence(mm.parse_blocks("text 2, image 2x2, text 2"), mcfg)
    assert mm.v2pe_positions(seq, 0.25)[0].tolist() == [0, 1, 2, 2.25, 2.5, 2.75, 3, 4]
    seq = mm.build_sequence(mm.parse_blocks("text 1, video 3x1x1 @1s"), mcfg)
    ids = mm.model_positions(seq, mm.PRESETS["qwen2_5_vl"])
    assert ids[0].tolist() == [0, 1, 3, 5]  # 2 tokens per second
    assert mm.scaled_time_positions(ids, seq, 0.5)[0].tolist() == [0, 1, 2, 3]


def test_scores_are_one_at_the_query_and_follow_the_axes():
    inv = np.array([1.0, 0.5, 0.25, 0.125])
    positions = np.array([[0, 0, 5], [0, 3, 0], [0, 0, 0]], dtype=float)
    axes = np.array([0, 0, 1, 1])
    s = mm.rope_scores(positions, axes, inv, 0)
    assert s[0] == pytest.approx(1.0)
    assert s[1] == pytest.approx(np.mean([1, 1, np.cos(0.75), np.cos(0.375)]))
    assert s[2] == pytest.approx(np.mean([np.cos(5), np.cos(2.5), 1, 1]))


# ---- the panel's computation ------------------------------------------------------------------
from peapp.analysis.multimodal import MultimodalRequest  # noqa: E402
from peapp.document import Document  # noqa: E402
from peapp.views.multimodal import MultimodalView  # noqa: E402


def test_request_lays_out_text_image_video_text():
    result = MultimodalRequest(MultimodalView()).run()
    seq = result.seq
    assert seq.n == 6 + 24 + 48 + 6
    np.testing.assert_array_equal(result.model_ids, mm.model_positions(seq, mm.PRESETS["qwen2_5_vl"]))
    assert result.pair_axes.shape == (3, 64) and result.model_row == 1
    q = result.query
    assert seq.token_types[q] == mm.VIDEO and tuple(seq.grid_pos[q]) == (1, 2, 2)
    assert result.scores.shape == (3, seq.n) and np.allclose(result.scores[:, q], 1.0)
    # every visual token is on the mosaic once
    shown = result.mosaic[result.mosaic >= 0]
    assert sorted(shown.tolist()) == np.flatnonzero(seq.token_types != 0).tolist()
    # Qwen2.5-VL spaces 3 frames 2 s apart at 2 ids a second: t reaches start + 8, past the text after
    assert result.overlap > 0


@pytest.mark.parametrize("design, rows", [("videorope", 4), ("hope", 4), ("v2pe", 4), ("mrope", 3)])
def test_designs_switch_ids_pairs_and_maps(design, rows):
    result = MultimodalRequest(MultimodalView(design=design, style="qwen2_vl")).run()
    assert result.pair_axes.shape[0] == rows and result.scores.shape[0] == rows
    if design == "hope":
        assert (result.pair_axes[-1] == 4).sum() == 16 and result.pair_axes[-1][-1] == 4
    if design == "v2pe":
        assert result.ids[0, 7] == pytest.approx(6.25)
    if design == "mrope":
        np.testing.assert_array_equal(result.ids, result.model_ids)


def test_bad_sequence_is_refused_by_the_document():
    with pytest.raises(ParameterError, match="cannot read block"):
        Document().with_view("multimodal", blocks="text 3, sound 4")


def test_open_checkpoint_config_sets_the_model(tmp_path):
    config = transformers.Qwen3VLConfig(text_config=dict(TEXT, head_dim=16, rope_parameters=ROPE),
                                        vision_config=VISION)
    config.save_pretrained(tmp_path)
    result = MultimodalRequest(MultimodalView(style="qwen2_vl"), checkpoint=str(tmp_path)).run()
    assert result.mcfg.model_type == "qwen3_vl" and result.mcfg.interleaved and result.mcfg.pairs == 8
    assert result.model_row == 2 and result.from_checkpoint
    # a checkpoint without M-RoPE: the preset, and a note why
    transformers.LlamaConfig(**TEXT).save_pretrained(tmp_path / "llama")
    result = MultimodalRequest(MultimodalView(style="qwen2_vl"), checkpoint=str(tmp_path / "llama")).run()
    assert result.mcfg.model_type == "qwen2_vl" and "not used" in result.notes[0]
