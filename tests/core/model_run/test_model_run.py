"""peapp.model_run against transformers itself: outputs, every head's weights, every statistic."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch

from peapp.errors import CheckpointError, ParameterError
from peapp.jobs import Cancelled
from tests.core.model_run.gguf_reference import assert_same_as_gguf_reader, transformers_gguf_load
from peapp.model_run import (
    LOCAL_WINDOW,
    SINK_SPAN,
    RunOptions,
    load_model,
    run_model,
    tokenize,
)

IDS = [5, 9, 2, 33, 17, 8, 41, 3, 12, 60, 7, 7, 21, 44, 1, 30, 11, 19, 25, 6, 50, 13]


def _reference(folder, cls_name, ids, **kw):
    import transformers

    cls = getattr(transformers, cls_name)
    model = cls.from_pretrained(folder, attn_implementation="eager").eval()
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True, **kw)
    return model, out


def _full_maps(out) -> np.ndarray:
    return np.stack([a[0].numpy() for a in out.attentions]).astype(np.float64)  # [L, H, n, n]


def _stats_from_maps(A: np.ndarray, causal: bool) -> dict[str, np.ndarray]:
    L, H, n, _ = A.shape
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    dist = np.abs(i - j)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(A > 0, np.log(A), 0.0)
    profile = np.zeros((L, H, n))
    for d in range(n):
        cells = dist == d if not causal else (i - j) == d
        profile[:, :, d] = A[:, :, cells].sum(-1) / cells.sum()
    prev = np.stack([A[:, :, k, k - 1] for k in range(1, n)], -1).mean(-1)
    return {"entropy": -(A * logs).sum(-1).mean(-1), "received": A.mean(2), "profile": profile,
            "previous": prev, "local": (A * (dist <= LOCAL_WINDOW)).sum(-1).mean(-1),
            "sink_first": A[:, :, :, 0].mean(-1), "sink_span": A[:, :, :, :SINK_SPAN].sum(-1).mean(-1)}


def _check_against_maps(result, A, causal):
    n = A.shape[-1]
    thumbs = result.thumbnails
    masked = np.isnan(thumbs)
    np.testing.assert_allclose(np.nan_to_num(thumbs, nan=0.0), A, atol=1e-5)
    if causal:
        assert masked.any() and (A[masked] == 0).all()
        assert masked.sum() == A.shape[0] * A.shape[1] * n * (n - 1) // 2
    ref = _stats_from_maps(A, causal)
    np.testing.assert_allclose(result.entropy, ref["entropy"], atol=1e-5)
    np.testing.assert_allclose(result.received, ref["received"], atol=1e-6)
    np.testing.assert_allclose(result.distance_profile, ref["profile"], atol=1e-6)
    np.testing.assert_allclose(result.previous_token, ref["previous"], atol=1e-6)
    np.testing.assert_allclose(result.local, ref["local"], atol=1e-6)
    np.testing.assert_allclose(result.sink_first, ref["sink_first"], atol=1e-6)
    np.testing.assert_allclose(result.sink_span, ref["sink_span"], atol=1e-6)


def _exact(n):
    return RunOptions(layer=1, head=2, map_bins=n, thumb_bins=n, return_logits=True)


def test_llama_logits_weights_and_statistics(tiny_llama):
    loaded = load_model(tiny_llama)
    assert loaded.scheme == "rope" and loaded.causal
    result = run_model(loaded, IDS, _exact(len(IDS)))
    model, out = _reference(tiny_llama, "LlamaForCausalLM", IDS, labels=torch.tensor([IDS]))
    np.testing.assert_allclose(result.logits, out.logits[0].numpy(), rtol=1e-4, atol=1e-6)
    assert result.perplexity == pytest.approx(float(torch.exp(out.loss)), rel=1e-5)
    A = _full_maps(out)
    _check_against_maps(result, A, causal=True)
    np.testing.assert_allclose(np.nan_to_num(result.attention_map), A[1], atol=1e-5)
    # RoPE: q and k of layer 1 recomputed from transformers' own modules
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    attn = model.model.layers[1].self_attn
    h = model.model.layers[1].input_layernorm(out.hidden_states[1])
    n = len(IDS)
    with torch.no_grad():
        q = attn.q_proj(h).view(1, n, 4, 8).transpose(1, 2)
        k = attn.k_proj(h).view(1, n, 2, 8).transpose(1, 2).repeat_interleave(2, dim=1)
        cos, sin = model.model.rotary_emb(h, torch.arange(n)[None])
        qr, kr = apply_rotary_pos_emb(q, k, cos, sin)
    scale = 8 ** -0.5
    real = (qr[0, 2] @ kr[0, 2].T * scale).numpy()
    content = (q[0, 2] @ k[0, 2].T * scale).numpy()
    lower = np.tril(np.ones((n, n), bool))
    np.testing.assert_allclose(result.logit_map[lower], real[lower], atol=1e-5)
    np.testing.assert_allclose(result.term_map[lower], content[lower], atol=1e-5)
    assert np.isnan(result.logit_map[~lower]).all()
    usage = (torch.sqrt(qr[0, :, :, :4] ** 2 + qr[0, :, :, 4:] ** 2).mean(1)
             * torch.sqrt(kr[0, :, :, :4] ** 2 + kr[0, :, :, 4:] ** 2).mean(1)).numpy()
    np.testing.assert_allclose(result.rope_usage[1], usage, rtol=1e-5)
    inv = model.model.rotary_emb.inv_freq.numpy()
    np.testing.assert_allclose(result.rope_wavelengths, 2 * np.pi / inv, rtol=1e-6)
    # the attention analysis' block machinery, given the same real q and k, agrees
    from peapp.analysis.attention.blocks import attention_statistics

    theirs = attention_statistics(qr[0], kr[0], scale=scale, causal=True, max_bins=n)
    np.testing.assert_allclose(np.nan_to_num(result.thumbnails[1]), np.nan_to_num(theirs.values), atol=1e-5)
    np.testing.assert_allclose(result.distance_profile[1][:, theirs.distances], theirs.profile, atol=1e-5)
    np.testing.assert_allclose(result.entropy[1], theirs.entropy.mean(-1), atol=1e-5)
    np.testing.assert_allclose(result.received[1], theirs.received, atol=1e-5)
    np.testing.assert_allclose(result.sink_first[1], theirs.sink, atol=1e-5)
    np.testing.assert_allclose(result.sink_span[1], theirs.sink_first, atol=1e-5)
    x, y = real[lower], content[lower]
    assert result.term_summary["correlation"] == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-5)


def test_gpt2_learned_positions(tiny_gpt2):
    loaded = load_model(tiny_gpt2)
    assert loaded.scheme == "learned_absolute" and loaded.trained_context == 64
    result = run_model(loaded, IDS, _exact(len(IDS)))
    model, out = _reference(tiny_gpt2, "GPT2LMHeadModel", IDS)
    np.testing.assert_allclose(result.logits, out.logits[0].numpy(), rtol=1e-4, atol=1e-6)
    _check_against_maps(result, _full_maps(out), causal=True)
    n = len(IDS)
    P = model.transformer.wpe.weight[:n].detach()
    W = model.transformer.h[1].attn.c_attn.weight.detach()
    qp = (P @ W[:, :32]).view(n, 4, 8)[:, 2]
    kp = (P @ W[:, 32:64]).view(n, 4, 8)[:, 2]
    term = (qp @ kp.T * 8 ** -0.5).numpy()
    lower = np.tril(np.ones((n, n), bool))
    np.testing.assert_allclose(result.term_map[lower], term[lower], atol=1e-5)
    with pytest.raises(ParameterError, match="position table"):
        run_model(loaded, list(range(1, 60)) * 2)


def test_bert_bidirectional(tiny_bert):
    loaded = load_model(tiny_bert)
    assert not loaded.causal and loaded.scheme == "learned_absolute"
    result = run_model(loaded, IDS, _exact(len(IDS)))
    _, out = _reference(tiny_bert, "BertModel", IDS)
    np.testing.assert_allclose(result.output, out.last_hidden_state[0].numpy(), rtol=1e-4, atol=1e-5)
    A = _full_maps(out)
    assert not np.isnan(result.thumbnails).any()
    _check_against_maps(result, A, causal=False)


def test_gguf_converted_then_cached(tiny_gguf, tiny_llama, tmp_path):
    first = load_model(tiny_gguf, cache_dir=str(tmp_path))
    assert first.source == "gguf (converted now)" and first.family == "llama"
    again = load_model(tiny_gguf, cache_dir=str(tmp_path))
    assert again.source == "gguf (cache)"
    _, out = _reference(tiny_llama, "LlamaForCausalLM", IDS)
    for loaded in (first, again):
        result = run_model(loaded, IDS, _exact(len(IDS)))
        np.testing.assert_allclose(result.logits, out.logits[0].numpy(), rtol=1e-4, atol=1e-5)
        _check_against_maps(result, _full_maps(out), causal=True)
    ids, tokens, _ = tokenize(again, "abcab")
    assert tokens == ["ab", "c", "ab"] and ids == [63, 5, 63]


def test_pooled_map_is_the_mean_of_its_cells(tiny_llama):
    loaded = load_model(tiny_llama)
    ids = (IDS * 3)[:60]
    region = (10, 50, 0, 40)
    result = run_model(loaded, ids, RunOptions(layer=0, heads=(1, 3), map_bins=7, region=region, thumb_bins=0))
    _, out = _reference(tiny_llama, "LlamaForCausalLM", ids)
    A = out.attentions[0][0].numpy()[[1, 3], 10:50, 0:40]
    mask = np.tril(np.ones((60, 60), bool))[10:50, 0:40]
    rb, cb = result.map_bin
    for r in range(result.attention_map.shape[1]):
        for c in range(result.attention_map.shape[2]):
            cells = mask[r * rb:(r + 1) * rb, c * cb:(c + 1) * cb]
            got = result.attention_map[:, r, c]
            if not cells.any():
                assert np.isnan(got).all()
            else:
                want = A[:, r * rb:(r + 1) * rb, c * cb:(c + 1) * cb][:, cells].mean(-1)
                np.testing.assert_allclose(got, want, atol=1e-6)


@pytest.mark.parametrize("fixture,cls_name,causal", [("tiny_llama", "LlamaForCausalLM", True),
                                                      ("tiny_bert", "BertModel", False)])
def test_zoom_recomputes_a_region_exactly(fixture, cls_name, causal, request, monkeypatch):
    """zoom_map from the kept q/k equals transformers' eager maps pooled over the region, for
    pooled and single-token cells, also when the rows span several recompute blocks."""
    from peapp.model_run import blocks
    from peapp.model_run.runner import zoom_map

    folder = request.getfixturevalue(fixture)
    loaded = load_model(folder)
    ids = (IDS * 3)[:60]
    result = run_model(loaded, ids, RunOptions(layer=1, map_bins=8, thumb_bins=0, keep_map_qk=True))
    assert result.map_qk is not None and result.map_qk.q.shape[1] == 60
    _, out = _reference(folder, cls_name, ids)
    A = out.attentions[1][0].numpy()
    mask = np.tril(np.ones((60, 60), bool)) if causal else np.ones((60, 60), bool)
    monkeypatch.setattr(blocks, "BLOCK_ENTRIES", 64)  # several row blocks inside the region
    for rows, cols, bins in (((12, 44), (3, 41), 5), ((20, 30), (15, 25), 64)):
        values, region, (rb, cb) = zoom_map(result, rows, cols, bins, heads=(0, 2))
        assert region == (*rows, *cols)
        sub, sub_mask = A[[0, 2], rows[0]:rows[1], cols[0]:cols[1]], mask[rows[0]:rows[1], cols[0]:cols[1]]
        for r in range(values.shape[1]):
            for c in range(values.shape[2]):
                cells = sub_mask[r * rb:(r + 1) * rb, c * cb:(c + 1) * cb]
                if not cells.any():
                    assert np.isnan(values[:, r, c]).all()
                else:
                    want = sub[:, r * rb:(r + 1) * rb, c * cb:(c + 1) * cb][:, cells].mean(-1)
                    np.testing.assert_allclose(values[:, r, c], want, atol=1e-6)
    with pytest.raises(ParameterError):
        zoom_map(result, (70, 80), (0, 10), 4)
    plain = run_model(loaded, ids, RunOptions(layer=1, thumb_bins=0))
    with pytest.raises(ParameterError, match="kept no q and k"):
        zoom_map(plain, (0, 10), (0, 10), 4)


def test_cancel_and_progress(tiny_llama):
    loaded = load_model(tiny_llama)
    seen = []
    run_model(loaded, IDS, progress=seen.append)
    assert seen and seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
    with pytest.raises(Cancelled):
        run_model(loaded, IDS, cancelled=lambda: len(seen) > 0, progress=seen.append)


def test_bad_input(tiny_llama, tmp_path):
    loaded = load_model(tiny_llama)
    with pytest.raises(ParameterError, match="layer 9"):
        run_model(loaded, IDS, RunOptions(layer=9))
    with pytest.raises(ParameterError, match="empty"):
        tokenize(loaded, "  ")
    with pytest.raises(ParameterError, match="device 'cuda:7' is not available"):  # on a machine with GPUs too
        load_model(tiny_llama, device="cuda:7")
    (tmp_path / "config.json").write_text('{"model_type": "t5", "is_encoder_decoder": true}')
    with pytest.raises(CheckpointError, match="^cannot run this t5 model: encoder-decoder") as refused:
        load_model(tmp_path)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 160  # one line
    from peapp.errors import SizeError

    with pytest.raises(SizeError, match="close other programs"):
        load_model(tiny_llama, memory_budget=1000)


def test_import_does_not_load_transformers():
    code = ("import sys, peapp.model_run, peapp.commands.run\n"
            "from peapp.cli import main\n"
            "import contextlib, io\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['inspect', sys.argv[1]])\n"
            "assert 'transformers' not in sys.modules, 'transformers imported'\n")
    from tests import samples

    target = samples.minilm()
    proc = subprocess.run([sys.executable, "-c", code, target], check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("fixture,cls_name,causal", [("tiny_llama", "LlamaForCausalLM", True),
                                                     ("tiny_bert", "BertModel", False)])
def test_many_small_blocks_give_the_same_statistics(fixture, cls_name, causal, request, monkeypatch):
    """Blocks of 4–16 rows (not aligned to the 7-row and 9-row bins) against the full maps."""
    from peapp.model_run import blocks

    monkeypatch.setattr(blocks, "BLOCK_ENTRIES", 600)
    monkeypatch.setattr(blocks, "MIN_BLOCK_ROWS", 4)
    monkeypatch.setattr(blocks, "MAX_BLOCK_ROWS", 16)
    assert len(blocks._row_blocks(60, 4, causal)) > 5
    folder = request.getfixturevalue(fixture)
    loaded = load_model(folder)
    ids = (IDS * 3)[:60]
    result = run_model(loaded, ids, RunOptions(layer=1, map_bins=60, thumb_bins=60))
    coarse = run_model(loaded, ids, RunOptions(layer=1, map_bins=9, thumb_bins=7))
    _, out = _reference(folder, cls_name, ids)
    A = _full_maps(out)
    _check_against_maps(result, A, causal=causal)
    rb, cb = coarse.map_bin
    mask = np.tril(np.ones((60, 60), bool)) if causal else np.ones((60, 60), bool)
    for r in range(coarse.attention_map.shape[1]):
        for c in range(coarse.attention_map.shape[2]):
            cells = mask[r * rb:(r + 1) * rb, c * cb:(c + 1) * cb]
            want = A[1][:, r * rb:(r + 1) * rb, c * cb:(c + 1) * cb][:, cells].mean(-1) if cells.any() else np.nan
            np.testing.assert_allclose(coarse.attention_map[:, r, c], want, atol=1e-6)
    np.testing.assert_allclose(coarse.entropy, result.entropy, atol=1e-6)


def test_gguf_open_equals_transformers_own_gguf_load(tiny_gguf, tmp_path):
    assert_same_as_gguf_reader(tiny_gguf)
    config, model, tokenizer = transformers_gguf_load(tiny_gguf)
    assert config.model_type == "llama" and config.num_key_value_heads == 2
    for source in ("gguf (converted now)", "gguf (cache)"):
        loaded = load_model(tiny_gguf, cache_dir=str(tmp_path))
        assert loaded.source == source
        ours = loaded.config.to_dict()
        for key, value in model.config.to_dict().items():
            if key not in ("_attn_implementation", "quantization_config", "_name_or_path", "transformers_version"):
                assert ours.get(key) == value, key
        with torch.no_grad():
            want = model(torch.tensor([IDS])).logits[0].numpy()
        np.testing.assert_allclose(run_model(loaded, IDS, RunOptions(return_logits=True)).logits, want,
                                   rtol=1e-4, atol=1e-6)
        assert tokenize(loaded, "abcab bca")[0] == tokenizer("abcab bca")["input_ids"]


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_a_long_layers_pair_layout_is_told_from_its_first_positions(layout, dtype):
    """The pairing a rotation turned is judged on the first positions only (on all of a long
    run's it took a third of SmolLM2's run): over 1,000 positions, with YaRN's attention factor,
    in float32 and in bf16, it is still the right one."""
    import torch

    from peapp.encodings.rope import apply
    from peapp.model_run.layers import _LAYOUT_ROWS, _span_and_layout

    n, dims = 1000, 32
    assert n > _LAYOUT_ROWS
    before = torch.randn(4, n, dims, generator=torch.Generator().manual_seed(5)).to(getattr(torch, dtype))
    inv_freq = 10_000.0 ** (-torch.arange(0, dims, 2, dtype=torch.float32) / dims)
    after = apply(before.float(), torch.arange(n, dtype=torch.float32), inv_freq, layout=layout,
                  attention_factor=1.1).to(before.dtype)
    assert _span_and_layout(before.float(), after.float()) == (0, dims, layout)
