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

    result = streaming_probe(load_model(tiny_llama), _ids(40, 4), window=8, sinks=2, bin=8)
    doc = json.loads(json.dumps(result.to_json()))
    again = streaming_from_json(doc)
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
