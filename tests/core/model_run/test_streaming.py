"""The streaming (attention sinks) probe against transformers itself, on tiny save_pretrained models.

References: with a window at least as long as the text, all three curves are the plain
perplexity probe's "as trained" curve; on a one-layer model (where a token's keys and values do
not depend on its context) the window + sinks loss at every evicting position equals
transformers' own forward over exactly the cache's tokens at positions 0 … K + W − 1
(StreamingLLM's positions inside the cache).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.core.model_run.conftest import VOCAB, _save


@pytest.fixture(scope="module")
def one_layer(tmp_path_factory):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(5)
    cfg = LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64, rope_theta=100.0)
    return _save(LlamaForCausalLM(cfg).eval(), tmp_path_factory.mktemp("one-layer"))


def _ids(n: int, seed: int = 0) -> list[int]:
    return np.random.default_rng(seed).integers(1, VOCAB, n).tolist()


def test_window_longer_than_text_gives_the_plain_probe(tiny_llama):
    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe
    from peapp.model_run.streaming import streaming_probe

    loaded = load_model(tiny_llama)
    ids = _ids(50, 1)
    plain = perplexity_probe(loaded, ids, variants=("none",)).curve("none")
    result = streaming_probe(loaded, ids, window=50, sinks=4, bin=10)
    assert [c.variant for c in result.curves] == ["full", "window", "window+sinks"]
    for curve in result.curves:
        np.testing.assert_allclose(curve.nll, plain.nll, rtol=0, atol=2e-5)
    doc = result.to_json()
    assert doc["variants"][2]["perplexity"] == pytest.approx(plain.perplexity, rel=1e-5)
    assert doc["variants"][0]["windows"]["perplexity"] == pytest.approx(
        [float(x) for x in plain.windowed(10)[2]], rel=1e-5)


@pytest.mark.parametrize("sinks", [0, 3])
def test_each_position_equals_transformers_on_its_own_cache(one_layer, sinks):
    import torch
    from transformers import LlamaForCausalLM

    from peapp.model_run import load_model
    from peapp.model_run.streaming import streaming_nll

    window, n = 6, 30
    ids = _ids(n, 2)
    nll = streaming_nll(load_model(one_layer), ids, window, sinks)
    reference = LlamaForCausalLM.from_pretrained(one_layer, dtype=torch.float32, attn_implementation="eager").eval()
    checked = 0
    for i in range(sinks + window, n - 1):  # the cache is full and token 0 … has left the window
        cache = ids[:sinks] + ids[i - window + 1:i + 1]  # at positions 0 … K + W − 1
        with torch.no_grad():
            logits = reference(torch.tensor([cache])).logits[0, -1]
        want = float(torch.nn.functional.cross_entropy(logits[None], torch.tensor([ids[i + 1]])))
        assert nll[i] == pytest.approx(want, abs=2e-5), i
        checked += 1
    assert checked >= 15


def test_sinks_change_the_curve_and_the_text_positions_differ(one_layer):
    """The cache positions matter: with the text's own positions the sinks' logits would differ."""
    from peapp.model_run import load_model
    from peapp.model_run.streaming import streaming_nll

    loaded = load_model(one_layer)
    ids = _ids(40, 3)
    window = streaming_nll(loaded, ids, 5, 0)
    sinks = streaming_nll(loaded, ids, 5, 2)
    np.testing.assert_allclose(window[:5], sinks[:5], atol=1e-6)  # nothing evicted yet: the same
    assert np.abs(window[10:] - sinks[10:]).max() > 1e-3


def test_saved_result_reopens_and_a_damaged_one_is_refused(tiny_llama):
    from peapp.errors import ParameterError
    from peapp.model_run import load_model
    from peapp.model_run.streaming import streaming_from_json, streaming_probe

    result = streaming_probe(load_model(tiny_llama, dtype="bfloat16"), _ids(40, 4), window=8, sinks=2, bin=8)
    doc = json.loads(json.dumps(result.to_json()))
    again = streaming_from_json(doc)
    assert result.dtype == doc["dtype"] == again.dtype == "bfloat16"  # where it ran travels with the numbers
    np.testing.assert_allclose(again.curve("window").nll, result.curve("window").nll, atol=1e-5)
    assert again.verdict() == result.verdict()
    doc["variants"][0]["nll"] = ["x"]
    with pytest.raises(ParameterError, match="damaged"):
        streaming_from_json(doc)
    with pytest.raises(ParameterError, match="not a saved streaming"):
        streaming_from_json({"probe": "perplexity"})


def test_a_learned_table_model_is_refused(tiny_gpt2):
    from peapp.errors import ParameterError
    from peapp.model_run import load_model
    from peapp.model_run.streaming import streaming_probe

    with pytest.raises(ParameterError, match="RoPE models"):
        streaming_probe(load_model(tiny_gpt2), _ids(20), window=4)


# ---- the Probes panel's mode (issue 37): its request, its view settings ----------------------------

def _words(n: int, seed: int) -> str:
    return " ".join(f"w{i}" for i in _ids(n, seed))


def test_the_panel_request_measures_what_streaming_probe_does(tiny_llama, tmp_path):
    """Probes > Attention sinks runs :func:`streaming_probe` on the view's text, length, W, K and
    positions per point; its saved result reads back as the same numbers."""
    from peapp.jobs import run_job
    from peapp.model_run import load_model
    from peapp.model_run.probe_run import ProbeRequest
    from peapp.model_run.probes import tokenize_all
    from peapp.model_run.streaming import streaming_probe
    from peapp.views.probe import ProbeView

    words = _words(80, 6)
    view = ProbeView(mode="probe-streaming", text_source="typed", text=words, stream_length=64, kv_window=12,
                     sinks=3, stream_bin=8, dtype="float32")  # auto would be bf16 on a fast-bf16 CPU
    arrived = []
    outcome = run_job(ProbeRequest.from_view(view, tiny_llama), on_partial=lambda r: arrived.append(len(r.curves)))
    loaded = load_model(tiny_llama)
    expected = streaming_probe(loaded, tokenize_all(loaded, words)[:64], window=12, sinks=3, bin=8)
    result = outcome.result
    assert (result.n_tokens, result.window, result.sinks, result.bin) == (64, 12, 3, 8)
    assert arrived == [1, 2, 3] and outcome.text_label == "typed text"
    for got, want in zip(result.curves, expected.curves, strict=True):
        assert got.variant == want.variant
        np.testing.assert_allclose(got.nll, want.nll, rtol=0, atol=1e-6)
    assert result.verdict() == expected.verdict()
    saved = tmp_path / "streaming.json"
    saved.write_text(json.dumps(result.to_json()), encoding="utf-8")
    again = ProbeRequest.from_view(view.replace(streaming_results_file=str(saved)), "").run()
    assert again.from_file == str(saved)
    np.testing.assert_allclose(again.result.curve("window+sinks").nll, expected.curve("window+sinks").nll, atol=1e-5)


def test_the_panel_with_the_window_over_the_text_draws_the_plain_probe(tiny_llama):
    """W ≥ N: nothing is evicted, so the panel's three curves are the perplexity tab's "as trained"."""
    from peapp.model_run.probe_run import ProbeRequest
    from peapp.views.probe import ProbeView

    words = _words(70, 7)
    plain = ProbeRequest.from_view(ProbeView(text_source="typed", text=words, length=48, variants="none", window=8,
                                             dtype="float32"),
                                   tiny_llama).run().result.curve("none")
    for window in (48, 200):
        view = ProbeView(mode="probe-streaming", text_source="typed", text=words, stream_length=48,
                         kv_window=window, sinks=4, stream_bin=8, dtype="float32")
        result = ProbeRequest.from_view(view, tiny_llama).run().result
        assert [c.variant for c in result.curves] == ["full", "window", "window+sinks"]
        for curve in result.curves:
            np.testing.assert_allclose(curve.nll, plain.nll, rtol=0, atol=2e-5)
            np.testing.assert_allclose(curve.windowed(8)[2], plain.windowed(8)[2], rtol=2e-5)
        assert "nothing is evicted" in result.verdict()


def test_a_long_panel_run_is_estimated_from_the_streaming_passes(tiny_llama, monkeypatch):
    from peapp.model_run import probes
    from peapp.model_run.probe_run import ProbeRequest
    from peapp.views.probe import ProbeView

    monkeypatch.setattr(probes, "ESTIMATE_FROM", 40)
    view = ProbeView(mode="probe-streaming", text_source="typed", text=_words(80, 8), stream_length=60, kv_window=10)
    estimate = ProbeRequest.from_view(view, tiny_llama, phase="estimate").run()
    assert estimate.n == 60 and estimate.runs == 3 and estimate.seconds > 0
    assert len(estimate.measured) == 2


def test_the_view_settings_round_trip_and_bad_values_are_refused(tmp_path):
    from peapp.document import Document
    from peapp.errors import ParameterError
    from peapp.model_run import probe_run, streaming
    from peapp.views.probe import MODES, ProbeView

    assert "probe-streaming" in MODES
    assert probe_run.MAX_STREAMING_TOKENS == streaming.MAX_STREAMING_TOKENS and probe_run.MAX_SINKS == streaming.MAX_SINKS
    doc = Document().with_view("probe", mode="probe-streaming", stream_length=4096, kv_window=512, sinks=8,
                               stream_bin=64, streaming_results_file="/tmp/x.json")
    path = tmp_path / "session.json"
    doc.save(path)
    again = Document.load(path).view_spec("probe")
    assert isinstance(again, ProbeView)
    assert (again.mode, again.stream_length, again.kv_window, again.sinks, again.stream_bin,
            again.streaming_results_file) == ("probe-streaming", 4096, 512, 8, 64, "/tmp/x.json")
    for bad in ({"sinks": 65}, {"sinks": -1}, {"kv_window": 0}, {"stream_length": 1}, {"stream_length": 40_000},
                {"stream_bin": 0}):
        with pytest.raises(ParameterError):
            Document().with_view("probe", **bad)
