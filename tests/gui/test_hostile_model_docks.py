"""Broken checkpoints in the Run on text and Probes panels (issue 32): one line naming the file and
the fault, the previous state kept; a tokenizer's Rust panic (a BaseException) included."""

from __future__ import annotations

import json
import os

import pytest

from tests.conftest import wait_idle


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=32, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
    folder = tmp_path_factory.mktemp("llama")
    LlamaForCausalLM(cfg).eval().save_pretrained(folder)
    tok = Tokenizer(models.WordLevel({"[UNK]": 0, **{f"w{i}": i for i in range(1, 32)}}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(str(folder / "tokenizer.json"))
    return str(folder)


def _variant(llama, tmp_path, name):
    import shutil

    folder = tmp_path / name
    shutil.copytree(llama, folder)
    return str(folder)


def _open(window, path) -> None:
    model = window.document_model
    model.set_document(model.document.with_checkpoint(str(path)))


def test_run_panel_says_one_line_when_the_tokenizer_panics(main_window, qtbot, llama, tmp_path):
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers

    folder = _variant(llama, tmp_path, "panicking-tokenizer")
    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Split(Regex("(a|aa)+$"), "isolated")  # catastrophic backtracking
    tok.save(os.path.join(folder, "tokenizer.json"))
    dock = main_window.docks["runDock"]
    dock.show()
    dock.raise_()
    _open(main_window, folder)
    dock.type_text("a" * 60 + "!")
    dock.run_text()
    qtbot.waitUntil(lambda: dock.message.text() != "", timeout=120_000)
    wait_idle(qtbot, main_window, 120_000)
    message = dock.message.text()
    assert folder in message and "tokenizer" in message and "retry-limit-in-match" in message, message
    assert "internal error" not in message and dock.result is None


def test_probes_panel_names_the_tensor_a_config_does_not_fit(main_window, qtbot, llama, tmp_path):
    folder = _variant(llama, tmp_path, "mismatched-config")
    path = os.path.join(folder, "config.json")
    cfg = json.load(open(path, encoding="utf-8"))
    cfg["intermediate_size"] = 48
    json.dump(cfg, open(path, "w", encoding="utf-8"))
    dock = main_window.docks["probeDock"]
    dock.show()
    dock.raise_()
    _open(main_window, folder)
    dock.set_settings(length=40, window=10, variants="none")
    dock.run_probe()
    qtbot.waitUntil(lambda: dock.controller.state == "idle" and dock.message.text() != "", timeout=120_000)
    wait_idle(qtbot, main_window, 120_000)
    message = dock.message.text()
    assert "mlp.gate_proj.weight is 64×32 in the weights but config.json makes it 48×32" in message, message
    assert "internal error" not in message
