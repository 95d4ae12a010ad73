"""Every text family in the pinned transformers runs and equals transformers' eager attention.

For each family (tests/core/model_run/families.py): ``peapp run --json`` exits 0; every head's
weights (thumbnails at one token per cell), every statistic, the map layer's pooled map, the
final logits and the perplexity equal transformers' eager forward with ``output_attentions``;
the per-layer scheme the run reports equals what the family's code does; on RoPE layers, the
"rotation removed" term equals the layer's logits with the rotation turned into the identity in
transformers itself, and RoPE usage is computed on the layer's own pairs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys

import numpy as np
import pytest
import torch

from peapp.model_run.runner import tokenize
from tests.core.model_run.families import (
    ENCODERS,
    FAMILIES,
    GGUF_FAMILIES,
    GGUF_OVERRIDES,
    HOOK_ROUTE,
    build,
    expected_layers,
    write_gguf,
)
from tests.core.model_run.test_model_run import _full_maps, _stats_from_maps

TEXT_IDS = [5, 9, 2, 33, 17, 8, 41, 3, 12, 60, 7, 7, 21, 44, 1, 30, 11, 19, 25, 6, 50, 13]
TEXT = " ".join(f"w{i}" for i in TEXT_IDS)


def _check_against_maps(result, A, causal):
    """Thumbnails (one token per cell) are every head's weights, NaN exactly where the layer masks."""
    thumbs = result.thumbnails
    np.testing.assert_allclose(np.nan_to_num(thumbs, nan=0.0), A, atol=1e-5)
    assert (A[np.isnan(thumbs)] == 0).all()
    ref = _stats_from_maps(A, causal)
    np.testing.assert_allclose(result.entropy, ref["entropy"], atol=1e-5)
    for ours, key in ((result.received, "received"), (result.distance_profile, "profile"),
                      (result.previous_token, "previous"), (result.local, "local"),
                      (result.sink_first, "sink_first"), (result.sink_span, "sink_span")):
        np.testing.assert_allclose(ours, ref[key], atol=1e-6)


@pytest.fixture(scope="session")
def family_root(tmp_path_factory):
    return tmp_path_factory.mktemp("families")


def _folder(root, family: str) -> str:
    folder = os.path.join(str(root), family)
    if not os.path.exists(os.path.join(folder, "tokenizer.json")):
        build(family, folder, seed=list(FAMILIES).index(family))
    return folder


def _reference(folder: str, family: str, ids):
    import transformers

    auto = transformers.AutoModelForMaskedLM if family in ENCODERS else transformers.AutoModelForCausalLM
    model = auto.from_pretrained(folder, attn_implementation="eager").eval()
    with torch.no_grad():
        kw = {} if family in ENCODERS else {"labels": torch.tensor([ids])}
        out = model(torch.tensor([ids]), output_attentions=True, **kw)
    return model, out


def _attention_module(model, layer: int):
    from peapp.model_run.hook_route import attention_modules

    return attention_modules(model)[layer]


def _identity_rotation(pair):
    """(cos, sin) or GPT-J's (sin, cos) as the identity rotation: ones where cos(0) = 1 stands."""
    if isinstance(pair, torch.Tensor):  # Llama 4: e^{iθp}, complex
        return torch.ones_like(pair)
    a, b = pair
    a_is_cos = bool(torch.all(a[..., 0, :] != 0))
    return (torch.ones_like(a), torch.zeros_like(b)) if a_is_cos else (torch.zeros_like(a), torch.ones_like(b))


def _content_logits(model, layer: int, ids, head: int):
    """The layer's logits for ``head`` with its rotation made the identity inside transformers
    (every earlier layer as it is): q·kᵀ·scaling of the unrotated q and k."""
    import transformers

    attn = _attention_module(model, layer)
    family_module = sys.modules[type(attn).__module__]
    eager = family_module.eager_attention_forward
    seen: dict = {}

    def capture(module, query, key, value, mask, scaling=None, **kw):
        if module is attn:
            seen.update(q=query[0], k=key[0], scaling=scaling)
        return eager(module, query, key, value, mask, scaling=scaling, **kw)

    def identity(module, args, kwargs):
        if kwargs.get("position_embeddings") is None:
            return None
        return args, dict(kwargs, position_embeddings=_identity_rotation(kwargs["position_embeddings"]))

    from transformers.masking_utils import AttentionMaskInterface, eager_mask

    transformers.AttentionInterface.register("test_capture", capture)
    AttentionMaskInterface.register("test_capture", eager_mask)  # every layer keeps its eager mask
    handle = attn.register_forward_pre_hook(identity, with_kwargs=True)
    model.set_attn_implementation("test_capture")
    try:
        with torch.no_grad():
            model(torch.tensor([ids]))
    finally:
        handle.remove()
        model.set_attn_implementation("eager")
    q, k = seen["q"], seen["k"]
    k = k.repeat_interleave(q.shape[0] // k.shape[0], dim=0)
    return (q[head] @ k[head].T * seen["scaling"]).numpy()


def _first_rope_layer(expected):
    return next((i for i, e in enumerate(expected) if e["position"] == "rope"), None)


def _run_cli(folder: str, tmp_path, layer: int) -> dict:
    from peapp.cli import main

    text = tmp_path / "text.txt"
    text.write_text(TEXT)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(["run", folder, "--text-file", str(text), "--json", "--layer", str(layer), "--all-heads",
                     "--bins", "64", "--dtype", "float32"])  # compared with float32 library calls
    assert code in (0, None)
    return json.loads(buffer.getvalue())


@pytest.mark.parametrize("family", list(FAMILIES))
def test_family_runs_and_equals_eager(family, family_root, tmp_path):
    from peapp.model_run import RunOptions, load_model, run_model

    folder = _folder(family_root, family)
    loaded = load_model(folder)
    model, out = _reference(folder, family, TEXT_IDS)
    expected = expected_layers(family, model.config)
    layer = _first_rope_layer(expected)
    layer = 0 if layer is None else layer
    n = len(TEXT_IDS)
    result = run_model(loaded, TEXT_IDS, RunOptions(layer=layer, head=1, map_bins=n, thumb_bins=n,
                                                    return_logits=True))
    assert result.route == ("hooks" if family in HOOK_ROUTE else "attention function")
    assert loaded.causal is (family not in ENCODERS)
    # every head's weights and every statistic
    A = _full_maps(out)
    _check_against_maps(result, A, causal=loaded.causal)
    np.testing.assert_allclose(np.nan_to_num(result.attention_map), A[layer], atol=1e-5)
    # the final logits as transformers' forward gives them (Cohere's logit_scale, Granite's logits_scaling)
    np.testing.assert_allclose(result.logits, out.logits[0].numpy(), rtol=1e-4, atol=1e-5)
    if not loaded.causal:
        assert result.perplexity is None
    else:
        assert result.perplexity == pytest.approx(float(torch.exp(out.loss)), rel=1e-4)
    # each layer's scheme, as its code does it
    reported = [{key: info.get(key) for key in ("position", "sliding_window", "learned_sinks", "temperature_tuning")}
                | ({"rotary_dims": info["rope"]["rotary_dims"], "pair_layout": info["rope"]["pair_layout"]}
                   if info.get("rope") else {}) for info in result.layer_schemes]
    assert reported == expected
    # RoPE: the rotation removed, as transformers computes the layer with an identity rotation
    if expected[layer]["position"] == "rope" and result.route == "attention function":
        content = _content_logits(model, layer, TEXT_IDS, 1)
        valid = ~np.isnan(result.term_map)
        np.testing.assert_allclose(result.term_map[valid], content[valid], atol=1e-5)
        assert result.rope_usage.shape[-1] == expected[layer]["rotary_dims"] // 2
        for i, e in enumerate(expected):
            assert np.isnan(result.rope_usage[i]).all() == (e["position"] != "rope")
    # the command line gives the same, and exits 0
    doc = _run_cli(folder, tmp_path, layer)
    assert doc["route"] == result.route
    assert doc["layer_schemes"] == json.loads(json.dumps(result.layer_schemes))
    np.testing.assert_allclose(np.array(doc["per_head"]["entropy"], dtype=float), result.entropy, atol=1e-6)


@pytest.mark.parametrize("family", list(GGUF_FAMILIES))
def test_gguf_family_runs_and_equals_transformers(family, family_root, tmp_path, monkeypatch):
    """A GGUF laid out as llama.cpp writes it (tokenizer inside) runs and equals transformers'
    own GGUF load run eagerly: weights, statistics, logits, per-layer scheme (Gemma 3: a
    sliding-window layer at base 10,000 and a global one at 1,000,000)."""
    from peapp.model_run import RunOptions, load_model, run_model
    from tests.core.model_run.gguf_reference import transformers_gguf_load

    monkeypatch.setitem(FAMILIES, family, FAMILIES[family] | GGUF_OVERRIDES.get(family, {}))
    folder = build(family, str(tmp_path / family), seed=7)
    path = write_gguf(family, folder, str(tmp_path / f"{family}.gguf"))
    loaded = load_model(path, cache_dir=str(tmp_path / "cache"))
    assert loaded.source == "gguf (converted now)" and loaded.family == family
    ids, tokens, _ = tokenize(loaded, "ab c d ab b a c")
    config, model, tokenizer = transformers_gguf_load(path)
    assert ids == tokenizer.backend_tokenizer.encode("ab c d ab b a c").ids
    n = len(ids)
    expected = expected_layers(family, config)
    layer = config.num_hidden_layers - 1
    result = run_model(loaded, ids, RunOptions(layer=layer, head=1, map_bins=n, thumb_bins=n, return_logits=True))
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True, labels=torch.tensor([ids]))
    _check_against_maps(result, _full_maps(out), causal=True)
    np.testing.assert_allclose(result.logits, out.logits[0].numpy(), rtol=1e-4, atol=1e-5)
    assert result.perplexity == pytest.approx(float(torch.exp(out.loss)), rel=1e-4)
    reported = [{key: info.get(key) for key in ("position", "sliding_window", "learned_sinks", "temperature_tuning")}
                | {"rotary_dims": info["rope"]["rotary_dims"], "pair_layout": info["rope"]["pair_layout"]}
                for info in result.layer_schemes]
    assert reported == expected
    content = _content_logits(model, layer, ids, 1)
    valid = ~np.isnan(result.term_map)
    np.testing.assert_allclose(result.term_map[valid], content[valid], atol=1e-5)
    if family == "gemma3_text":
        assert [info["rope"]["theta"] for info in result.layer_schemes] == [10000.0] * 5 + [1000000.0]
        assert [info["layer_type"] for info in result.layer_schemes] == ["sliding_attention"] * 5 + ["full_attention"]
        assert [info["sliding_window"] for info in result.layer_schemes] == [4] * 5 + [None]
        waves = result.layer_wavelengths
        assert waves[0][-1] < waves[5][-1]  # the global layer's slowest pair turns far slower


def test_nope_layer_says_it_has_no_rotation_to_remove(family_root):
    """SmolLM3's layer 1 is NoPE (no_rope_layers[1] = 0): no "rotation removed" term there, and
    the run says why; layer 0 has one; RoPE usage is empty on the NoPE layer."""
    from peapp.model_run import RunOptions, load_model, run_model

    loaded = load_model(_folder(family_root, "smollm3"))
    nope = run_model(loaded, TEXT_IDS, RunOptions(layer=1, head=0))
    assert nope.term_map is None and nope.term_kind is None and nope.logit_map is not None
    doc = nope.to_json()["position_vs_content"]
    assert "NoPE" in doc["note"] and "term_logits" in doc and doc["term_logits"] is None
    rope = run_model(loaded, TEXT_IDS, RunOptions(layer=0, head=0))
    assert rope.term_kind == "content (rotation removed)" and rope.term_map is not None
    assert np.isnan(rope.rope_usage[1]).all() and np.isfinite(rope.rope_usage[0]).all()


def test_hooks_route_states_and_bounds_its_memory(family_root):
    """BLOOM's attention is not in the registry: the run takes the hooks route, says so and how
    much one layer's weights hold, and refuses up front when that does not fit."""
    from peapp.errors import SizeError
    from peapp.model_run import RunOptions, load_model, run_model
    from peapp.model_run.hook_route import route_bytes
    from peapp.model_run.runner import estimate_run_bytes

    loaded = load_model(_folder(family_root, "bloom"))
    n = len(TEXT_IDS)
    result = run_model(loaded, TEXT_IDS, RunOptions(layer=0))
    doc = result.to_json()
    assert doc["route"] == "hooks" and doc["route_memory_bytes"] == route_bytes(loaded.config, n) == 3 * 4 * n * n * 4
    assert doc["position_vs_content"]["note"].startswith("the hooks route")
    assert estimate_run_bytes(loaded, 4096) > route_bytes(loaded.config, 4096)
    with pytest.raises(SizeError, match="running 22 tokens"):
        run_model(loaded, TEXT_IDS, memory_budget=route_bytes(loaded.config, n))


@pytest.mark.parametrize("variant", ["linear", "yarn"])
def test_gemma3_probe_scales_each_layer_type_as_transformers_does(family_root, variant):
    """Gemma 3 keeps one set of frequencies per layer type: the probe scales both, each from its
    own base (10,000 local, 1,000,000 global), and equals transformers' model whose config gives
    that scaling to each type."""
    import transformers

    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe

    folder = _folder(family_root, "gemma3_text")
    loaded = load_model(folder)
    ids = (TEXT_IDS * 12)[:200]  # longer than the trained 128 positions
    result = perplexity_probe(loaded, ids, variants=("none", variant), factor=2.0, return_logits=True)
    assert not result.not_applied
    plain, scaled = result.curves
    assert set(scaled.rope["per_layer_type"]) == {"sliding_attention", "full_attention"}
    config = transformers.AutoConfig.from_pretrained(folder)
    extra = {"original_max_position_embeddings": config.max_position_embeddings} if variant == "yarn" else {}
    config.rope_parameters = {t: {"rope_type": variant, "factor": 2.0, "rope_theta": p["rope_theta"], **extra}
                              for t, p in config.rope_parameters.items()}
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, config=config,
                                                              attn_implementation="eager").eval()
    with torch.no_grad():
        want = model(torch.tensor([ids])).logits[0].numpy()
    np.testing.assert_allclose(scaled.logits, want, rtol=1e-4, atol=1e-5)
    assert not np.allclose(plain.logits, want, rtol=1e-3, atol=1e-3)  # scaling changed the model


def test_passkey_on_the_hooks_route_equals_eager(family_root):
    """BLOOM's attention never calls the registry: the passkey probe takes the needle's weight from
    the weights BLOOM's own attention returns, equal to eager output_attentions."""
    import transformers

    from peapp.model_run import load_model
    from peapp.model_run.passkey import PromptBuilder, passkey_probe

    folder = _folder(family_root, "bloom")
    loaded = load_model(folder)
    cell = passkey_probe(loaded, lengths=(64,), depths=(0.5,), trials=1).cells[0]
    prompt = PromptBuilder(loaded.tokenizer, None).build(64, 0.5, cell.key)
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager").eval()
    with torch.no_grad():
        out = model(torch.tensor([prompt.ids]), output_attentions=True)
    want = np.stack([a[0][:, prompt.rows, prompt.needle[0]:prompt.needle[1]].sum(-1).mean(-1).numpy()
                     for a in out.attentions])
    np.testing.assert_allclose(cell.needle_attention, want, atol=1e-6)


def test_layer_labels_name_each_kind_of_layer(family_root):
    """The head grid's rows: Gemma 3's local layer (base 10k, window 4) and global one (1M) told
    apart; SmolLM3's NoPE layer named; a model whose layers are alike gets plain numbers."""
    from peapp.model_run import RunOptions, load_model, run_model
    from peapp.model_run.text_run import layer_labels

    def labels(family):
        return layer_labels(run_model(load_model(_folder(family_root, family)), TEXT_IDS, RunOptions(thumb_bins=0)))

    assert labels("gemma3_text") == ["RoPE 10k, window 4", "RoPE 1M"]
    assert labels("smollm3") == ["RoPE 2M", "NoPE"]
    assert labels("llama") is None


def test_falcon_on_the_hooks_route_scales_per_call_and_refuses_streaming(family_root):
    """Falcon's attention never calls the registry, so no strategy reaches it: a probe's scaled
    frequencies still reach its rotary module for the probe's calls (equal to transformers' model
    with that scaling), and the streaming probe, whose cache is a strategy, says it cannot run
    (it used to give full attention for all three curves)."""
    import transformers

    from peapp.errors import CheckpointError
    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe
    from peapp.model_run.streaming import streaming_nll

    folder = _folder(family_root, "falcon")
    loaded = load_model(folder)
    assert (loaded.route, loaded.scheme) == ("hooks", "rope")
    ids = (TEXT_IDS * 12)[:200]
    plain, scaled = perplexity_probe(loaded, ids, variants=("none", "linear"), factor=16.0, return_logits=True).curves
    config = transformers.AutoConfig.from_pretrained(folder)
    config.rope_parameters = {**config.rope_parameters, "rope_type": "linear", "factor": 16.0}
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, config=config,
                                                              attn_implementation="eager").eval()
    with torch.no_grad():
        want = model(torch.tensor([ids])).logits[0].numpy()
    np.testing.assert_allclose(scaled.logits, want, rtol=1e-4, atol=1e-5)
    assert np.abs(plain.logits - want).max() > 1e-4  # the scaling changed the model (here by 1.2e-3)
    with pytest.raises(CheckpointError, match="went through peapp's attention"):
        streaming_nll(loaded, ids[:40], 8, 2)
