"""The metadata block (peapp.checkpoints.facts): every value against the file it came from and,
for the parameter count, against transformers' own count of the model that wrote the file."""

from __future__ import annotations

import json
import os

import pytest

from peapp.checkpoints import inspect
from tests import samples


def _save(tmp_path, config, cls):
    import torch

    torch.manual_seed(0)
    model = cls(config).eval()
    folder = tmp_path / type(config).__name__
    model.save_pretrained(folder)
    return folder, model


def _values(report) -> dict:
    return {key: report.facts.get(key) for key in ("layers", "heads", "kv_heads", "head_dim", "hidden_size",
                                                  "context_length", "vocab_size", "dtype", "parameters")}


def test_llama_with_grouped_kv_heads(tmp_path):
    import transformers as T

    config = T.LlamaConfig(hidden_size=48, intermediate_size=64, num_hidden_layers=3, num_attention_heads=6,
                           num_key_value_heads=2, max_position_embeddings=320, vocab_size=77)
    folder, model = _save(tmp_path, config, T.LlamaForCausalLM)
    report = inspect(folder)
    assert _values(report) == {"layers": 3, "heads": 6, "kv_heads": 2, "head_dim": 8, "hidden_size": 48,
                               "context_length": 320, "vocab_size": 77, "dtype": "F32",
                               "parameters": model.num_parameters()}
    size = os.path.getsize(folder / "model.safetensors")
    assert report.facts.get("file_size") == size
    assert report.facts.facts["layers"].source == "config.json num_hidden_layers"
    assert report.to_json()["model"]["kv_heads"] == {"value": 2, "text": "2", "source": "config.json num_key_value_heads"}


def test_tied_gpt2_counts_its_embedding_once(tmp_path):
    import transformers as T

    config = T.GPT2Config(n_embd=16, n_layer=2, n_head=4, n_positions=40, vocab_size=33)
    folder, model = _save(tmp_path, config, T.GPT2LMHeadModel)
    report = inspect(folder)
    assert model.config.tie_word_embeddings
    assert _values(report) == {"layers": 2, "heads": 4, "kv_heads": 4, "head_dim": 4, "hidden_size": 16,
                               "context_length": 40, "vocab_size": 33, "dtype": "F32",
                               "parameters": model.num_parameters()}


def test_bert_bf16_and_t5_encoder_decoder(tmp_path):
    import torch
    import transformers as T

    bert = T.BertConfig(hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
                        max_position_embeddings=24, vocab_size=40)
    folder, model = _save(tmp_path, bert, T.BertModel)
    model.to(torch.bfloat16).save_pretrained(folder)
    report = inspect(folder)
    assert report.facts.get("dtype") == "BF16" and report.facts.get("parameters") == model.num_parameters()
    t5 = T.T5Config(d_model=16, d_kv=6, d_ff=32, num_layers=2, num_decoder_layers=3, num_heads=2, vocab_size=30)
    folder, model = _save(tmp_path, t5, T.T5Model)
    report = inspect(folder)
    facts = report.facts
    assert (facts.get("layers"), facts.facts["layers"].text) == (5, "2 encoder + 3 decoder")
    assert (facts.get("head_dim"), facts.facts["head_dim"].source) == (6, "config.json d_kv")
    assert facts.get("parameters") == model.num_parameters()
    assert facts.get("context_length") is None  # T5 has no length limit of its own: said as "—"
    assert dict((label, text) for label, text, _ in facts.rows())["context length"] == "—"


def test_rope_scaled_config_gives_both_lengths(tiny):
    report = inspect(tiny["llama31_config"])  # a config alone: sizes, no tensors
    facts = report.facts
    assert facts.get("context_length") == 131072
    assert facts.facts["context_length"].text == "131,072 (trained at 8,192)"
    assert (facts.get("heads"), facts.get("kv_heads"), facts.get("head_dim")) == (32, 8, 128)
    assert facts.get("parameters") is None and facts.get("file_size") is None


def test_bad_and_missing_values_are_said_not_raised(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "llama", "num_hidden_layers": "abc", "hidden_size": 64,
                                "num_attention_heads": 4}), encoding="utf-8")
    facts = inspect(path).facts
    assert facts.get("layers") is None
    assert "num_hidden_layers must be a whole number" in facts.facts["layers"].source
    assert facts.get("head_dim") == 16 and facts.facts["head_dim"].source == "hidden size ÷ heads"


def test_gguf_tiny(tiny):
    facts = inspect(tiny["gguf_llama"]).facts
    assert (facts.get("layers"), facts.get("heads"), facts.get("kv_heads"), facts.get("hidden_size"),
            facts.get("head_dim")) == (1, 4, 4, 64, 16)
    assert facts.facts["context_length"].text == "4,096 (trained at 1,024)"
    assert facts.get("vocab_size") == 10 and facts.facts["vocab_size"].source == "rows of token_embd.weight"
    assert facts.get("parameters") == 10 * 64


def test_inspect_prints_the_block(tiny, capsys):
    from peapp import cli

    assert cli.main(["inspect", str(tiny["gguf_llama"])]) == 0
    out = capsys.readouterr().out
    assert "model:\n" in out and "  layers " in out and "  context length        4,096 (trained at 1,024)" in out
    assert cli.main(["inspect", "--json", str(tiny["gguf_llama"])]) == 0
    assert json.loads(capsys.readouterr().out)["model"]["layers"]["value"] == 1


def test_minilm_sample_facts():
    import torch
    import transformers as T
    from safetensors import safe_open

    minilm = samples.minilm()
    report = inspect(minilm)
    with open(os.path.join(minilm, "config.json"), encoding="utf-8") as fh:
        config = json.load(fh)
    with torch.device("meta"):  # the model's shape, without weights
        model = T.BertModel(T.BertConfig(**config))
    with safe_open(os.path.join(minilm, "model.safetensors"), framework="pt") as fh:
        words = fh.get_slice("embeddings.word_embeddings.weight").get_shape()
    assert _values(report) == {"layers": 6, "heads": 12, "kv_heads": 12, "head_dim": 32, "hidden_size": 384,
                               "context_length": 512, "vocab_size": words[0], "dtype": "F32",
                               "parameters": model.num_parameters()}
    assert report.facts.get("file_size") == os.path.getsize(os.path.join(minilm, "model.safetensors"))


def test_smollm2_sample_facts():
    import torch
    import transformers as T

    smollm2 = samples.smollm2()
    report = inspect(smollm2)
    md = report.checkpoint.gguf_metadata
    assert _values(report) == {"layers": 30, "heads": 9, "kv_heads": 3, "head_dim": 64, "hidden_size": 576,
                               "context_length": 8192, "vocab_size": 49152, "dtype": "Q4_1",
                               "parameters": 134_515_008}
    # against the file: its own keys, and the token table's rows
    assert (md["llama.block_count"], md["llama.attention.head_count_kv"], md["llama.rope.dimension_count"]) \
        == (30, 3, 64)
    assert report.checkpoint.tensors["token_embd.weight"].shape == (49152, 576)
    # and against transformers: the same model built from these numbers (tied embeddings, as SmolLM2)
    config = T.LlamaConfig(hidden_size=576, intermediate_size=md["llama.feed_forward_length"],
                           num_hidden_layers=30, num_attention_heads=9, num_key_value_heads=3,
                           vocab_size=49152, tie_word_embeddings=True)
    with torch.device("meta"):
        model = T.LlamaForCausalLM(config)
    assert report.facts.get("parameters") == model.num_parameters()
    assert report.facts.get("file_size") == os.path.getsize(smollm2)
    assert report.facts.facts["dtype"].text.startswith("Q4_1 (GGUF file type 3); tensors Q4_1 ×")


@pytest.mark.parametrize("junk", [[], {"a": 1}, -3, 1e999, True])
def test_gguf_facts_skip_bad_metadata(junk):
    from peapp.checkpoints.facts import _from_gguf

    facts = _from_gguf({"general.architecture": "llama", "llama.block_count": junk,
                        "llama.embedding_length": 64, "llama.attention.head_count": 8}, {})
    assert "layers" not in facts or facts["layers"].value == []
    assert facts["head_dim"].value == 8
