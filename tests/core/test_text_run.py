"""The "Run on text" panel's Qt-free half: its settings, the text it resolves, its request and helpers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from peapp.model_run import text_run as T
from peapp.document import Document
from peapp.errors import ParameterError
from peapp.views.run import MAX_TYPED_CHARS, RunView


def test_spec_refuses_bad_settings():
    with pytest.raises(ParameterError, match="at most 8,192"):
        RunView(max_tokens=9000)
    with pytest.raises(ParameterError, match="needs a file"):
        RunView(text_source="file")
    with pytest.raises(ParameterError, match="save it as a .txt"):
        RunView(text_source="typed", text="x" * (MAX_TYPED_CHARS + 1))
    with pytest.raises(ParameterError, match="must be one of"):
        Document().with_view("run", mode="run-nothing")


def test_resolve_text(tmp_path):
    text, label = T.resolve_text("sample")
    assert "Alice" in text and "public domain" in label
    path = tmp_path / "a.txt"
    path.write_text("\ufeffhello there", encoding="utf-8")
    assert T.resolve_text("file", text_file=str(path)) == ("hello there", "a.txt")
    assert T.resolve_text("typed", "typed words") == ("typed words", "typed text")
    with pytest.raises(ParameterError, match="no text chosen"):
        T.resolve_text("none")
    with pytest.raises(ParameterError, match="no such file"):
        T.resolve_text("file", text_file=str(tmp_path / "missing.txt"))
    with pytest.raises(ParameterError, match="is a folder"):
        T.resolve_text("file", text_file=str(tmp_path))
    (tmp_path / "bad.txt").write_bytes(b"caf\xe9")
    with pytest.raises(ParameterError, match="not UTF-8"):
        T.resolve_text("file", text_file=str(tmp_path / "bad.txt"))


def test_mean_distance_matches_the_full_maps():
    class Run:  # two heads over 5 tokens: every weight on the previous token (d = 1), or on token 0
        causal = True
        n = 5

    prev = np.zeros((5, 5))
    prev[0, 0] = 1
    prev[np.arange(1, 5), np.arange(4)] = 1
    sink = np.zeros((5, 5))
    sink[:, 0] = 1
    maps = np.stack([prev, sink])[None]  # [L, H, n, n]
    profile = np.zeros((1, 2, 5))
    for d in range(5):
        rows = np.arange(d, 5)
        profile[0, :, d] = maps[0][:, rows, rows - d].mean(-1)
    Run.distance_profile = profile
    got = T.mean_distance(Run)
    expected = [(maps[0, h] * (np.arange(5)[:, None] - np.arange(5)[None, :])).sum() / 5 for h in range(2)]
    np.testing.assert_allclose(got[0], expected)


def test_grid_order_and_token_display():
    values = np.array([[0.1, 0.9, 0.5], [np.nan, 0.2, 0.3]])
    np.testing.assert_array_equal(T.grid_order(values, True), [[1, 2, 0], [2, 1, 0]])
    np.testing.assert_array_equal(T.grid_order(values, False), [[0, 1, 2], [0, 1, 2]])
    assert T.display_token("Ġthe") == "␣the" and T.display_token("Ċ") == "⏎"


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory):
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=32, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
    folder = str(tmp_path_factory.mktemp("llama"))
    LlamaForCausalLM(cfg).eval().save_pretrained(folder)
    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1, "b": 2, "c": 3}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(os.path.join(folder, "tokenizer.json"))
    return folder


def test_request_equals_the_library_call_and_reuses_the_model(tiny_llama):
    from peapp.model_run import RunOptions, run_on_text

    T.MODEL_CACHE.clear()
    request = T.TextRunRequest(checkpoint=tiny_llama, text_source="typed", text="a b c a b c a", layer=1, head=2,
                                dtype="float32")  # the library call below runs float32
    first = request.run()
    assert not first.reused_model and first.text_sha256 == T.text_sha256("a b c a b c a")
    again = request.run()
    assert again.reused_model
    ref = run_on_text(tiny_llama, "a b c a b c a", options=RunOptions(layer=1, head=2))
    for name in ("sink_first", "previous_token", "local", "entropy", "distance_profile", "attention_map",
                 "logit_map", "term_map", "rope_usage"):
        np.testing.assert_allclose(getattr(first.run, name), getattr(ref, name), atol=1e-6, equal_nan=True)
    doc = first.to_json()
    json.dumps(doc, allow_nan=False)
    assert doc["text"]["sha256"] == first.text_sha256 and doc["path"] == tiny_llama
    with pytest.raises(ParameterError, match="empty"):
        T.TextRunRequest(checkpoint=tiny_llama, text_source="typed", text="  ").run()


def test_the_model_cache_is_kept_per_dtype_and_serves_auto_once_resolved(tiny_llama):
    """A model is cached per dtype; one loaded with dtype auto also answers an explicit request for the
    dtype auto resolved to (the panel's auto, then that dtype chosen), and no other."""
    T.MODEL_CACHE.clear()
    base = dict(checkpoint=tiny_llama, text_source="typed", text="a b c a b c a")
    auto = T.TextRunRequest(**base, dtype="auto").run()
    assert not auto.reused_model and auto.run.dtype in ("float32", "bfloat16")
    same = T.TextRunRequest(**base, dtype=auto.run.dtype).run()
    assert same.reused_model and same.run.dtype == auto.run.dtype
    other = "float16" if auto.run.dtype == "bfloat16" else "bfloat16"
    changed = T.TextRunRequest(**base, dtype=other).run()
    assert not changed.reused_model and changed.run.dtype == other
    assert T.TextRunRequest(**base, dtype=other).run().reused_model
    assert not T.TextRunRequest(**base, dtype="auto").run().reused_model  # the cached one is another dtype's
    T.MODEL_CACHE.clear()


def test_cli_view_writes_a_figure_that_reopens(tiny_llama, tmp_path):
    text = tmp_path / "t.txt"
    text.write_text("a b c a b c a b", encoding="utf-8")
    out = tmp_path / "grid.npz"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-m", "peapp", "run", tiny_llama, "--text-file", str(text),
                           "--layer", "1", "--head", "3", "--view", "run-sinks", "-o", str(out)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    data = np.load(out)
    assert data["sink_first_token"].shape == (2, 4)
    from peapp.export_data import document_from_file

    doc = document_from_file(str(tmp_path / "grid.json"))  # the data's JSON sidecar
    assert doc.checkpoint == tiny_llama and doc.views["run"]["text_file"] == str(text)
    assert doc.views["run"]["text_sha256"] == T.text_sha256("a b c a b c a b")
    bad = subprocess.run([sys.executable, "-m", "peapp", "run", tiny_llama, "--view", "run-sinks"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert bad.returncode == 2 and "give both --view VIEW and -o FILE" in bad.stderr


def test_the_cli_names_the_panels_figures():
    from peapp.commands import run as run_command
    from peapp.views.run import MODES

    assert run_command.VIEW_NAMES == tuple(MODES)
