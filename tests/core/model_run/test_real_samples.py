"""The real sample checkpoints (installed by `make app` / `make test`), on the bundled text."""

from __future__ import annotations

import math

import numpy as np
import pytest

from peapp.model_run import RunOptions, load_model, run_model, tokenize
from peapp.model_run.sample_text import sample_text
from tests import samples


@pytest.fixture(scope="session")
def smollm2_cache(tmp_path_factory):
    """One conversion of the SmolLM2 GGUF per test session, in pytest's temporary folder."""
    return str(tmp_path_factory.mktemp("smollm2-cache"))


@pytest.fixture(scope="session")
def smollm2(smollm2_cache):
    return load_model(samples.smollm2(), cache_dir=smollm2_cache)


def test_smollm2_perplexity_on_the_bundled_text(smollm2):
    loaded = smollm2
    assert loaded.family == "llama" and loaded.scheme == "rope" and loaded.trained_context == 8192
    ids, tokens, truncated = tokenize(loaded, sample_text(), max_tokens=1024)
    assert len(ids) == 1024 and truncated
    result = run_model(loaded, ids, RunOptions(layer=5, head=1, thumb_bins=16), tokens=tokens)
    assert math.isfinite(result.perplexity) and result.perplexity < 40, result.perplexity
    assert result.rope_usage.shape == (30, 9, 32) and (result.rope_usage > 0).all()
    assert np.allclose(result.received.sum(-1), 1.0, atol=1e-5)


def test_smollm2_cached_open_runs_the_same_model(smollm2, smollm2_cache):
    """The cached open runs exactly the model the conversion built.  (The sample's header as
    gguf.GGUFReader reads it, and logits against transformers' own GGUF load of the sample:
    tests/bench/bench_model_run.py, which pays for the real reader; of a tiny GGUF: test_model_run.py.)"""
    again = load_model(samples.smollm2(), cache_dir=smollm2_cache)
    assert smollm2.source == "gguf (converted now)" and again.source == "gguf (cache)"
    ids = tokenize(again, sample_text(), max_tokens=24)[0]
    first, cached = (run_model(m, ids, RunOptions(return_logits=True, thumb_bins=0)).logits for m in (smollm2, again))
    np.testing.assert_array_equal(first, cached)


def test_minilm_rows_sum_to_one():
    loaded = load_model(samples.minilm())
    assert loaded.family == "bert" and not loaded.causal and loaded.trained_context == 512
    ids, tokens, truncated = tokenize(loaded, sample_text(), max_tokens=128)
    assert len(ids) == 128 and truncated
    assert len(tokenize(loaded, sample_text(), max_tokens=512)[0]) == 512  # not its tokenizer.json's 128
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"  # the tokenizer's own post-processor
    result = run_model(loaded, ids, RunOptions(map_bins=128, thumb_bins=128), tokens=tokens)
    maps = result.thumbnails  # every layer × head at full resolution
    assert maps.shape == (6, 12, 128, 128) and not np.isnan(maps).any()
    np.testing.assert_allclose(maps.sum(-1), 1.0, atol=1e-5)
    assert result.term_kind == "position table"
