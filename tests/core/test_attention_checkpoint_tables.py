"""Trained tables in the attention sandbox: a checkpoint's T5 bias table and word embeddings,
against transformers' own computations."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from peapp.analysis import attention as A
from peapp.analysis import checkpoint_tables as C
from peapp.errors import ParameterError

VOCAB = ["[PAD]", "[UNK]", "the", "cat", "sat", "on", "mat", "."] + [f"tok{i}" for i in range(42)]  # 50 rows


@pytest.fixture(scope="module")
def tiny_t5(tmp_path_factory):
    import transformers as T

    torch.manual_seed(1)
    config = T.T5Config(d_model=16, d_kv=8, d_ff=32, num_layers=1, num_decoder_layers=1, num_heads=2,
                        relative_attention_num_buckets=8, relative_attention_max_distance=20, vocab_size=50)
    model = T.T5Model(config).eval()
    path = tmp_path_factory.mktemp("t5") / "t5"
    model.save_pretrained(path)
    return path, model


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    import transformers as T

    torch.manual_seed(2)
    config = T.BertConfig(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                          vocab_size=50, max_position_embeddings=64)
    model = T.BertModel(config).eval()
    path = tmp_path_factory.mktemp("bert") / "bert"
    model.save_pretrained(path)
    (path / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    return path, model.embeddings.word_embeddings.weight.detach()


def test_trained_t5_table_gives_transformers_position_bias(tiny_t5):
    from peapp.checkpoints import inspect

    path, model = tiny_t5
    report = inspect(path)
    comp = next(c for c in report.components if c.kind == "t5_relative_bias" and c.params["bidirectional"])
    n = 30
    s = A.AttentionSpec(scheme="t5", seq_len=n, n_heads=2, head_dim=8, causal=False, tokens="random",
                        t5_source=f"{path}::{comp.tensor}")
    params = (("num_buckets", 8), ("max_distance", 20))
    got = A.attention_view(s, params, kind="position", max_bins=n).values
    expected = model.encoder.block[0].layer[0].SelfAttention.compute_bias(n, n)[0].detach().numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
    assert "trained bias table" in A.attention_view(s, params, max_bins=n).scheme_note
    seeded = A.attention_view(s.replace(t5_source=""), params, kind="position", max_bins=n).values
    assert not np.allclose(seeded, expected)

    with pytest.raises(ParameterError, match="set T5 buckets to 8 and Heads to 2"):
        A.attention_view(s.replace(n_heads=4), params)


def test_sentence_words_use_the_checkpoints_embeddings_where_the_vocabulary_has_them(tiny_bert):
    from peapp.checkpoints import open_checkpoint

    path, weight = tiny_bert
    tensor = C.find_word_embeddings(open_checkpoint(path).tensors)
    assert tensor == "embeddings.word_embeddings.weight"
    s = A.AttentionSpec(scheme="nope", seq_len=6, n_heads=1, head_dim=16, tokens="sentence",
                        sentence="the cat sat on zebra .", embedding_source=f"{path}::{tensor}")
    model = A.AttentionModel(s)
    scaled = weight / weight.std()
    for pos, word in enumerate(model.words):
        expected = scaled[VOCAB.index(word)] if word in VOCAB else A.word_vector(word, 16)
        torch.testing.assert_close(model.x[pos], expected, msg=word)
    assert model.embedded == (".", "cat", "on", "sat", "the")
    view = A.attention_view(s)
    assert view.token_source(3) == "model" and view.token_source(4) == "hash"
    text = A.caption(view)
    assert "5 of 6 distinct words from embeddings.word_embeddings.weight" in text and "zebra" in text

    # another width: a fixed random projection of the same vectors
    narrow = A.AttentionModel(s.replace(head_dim=8))
    proj = C.projection(16, 8)
    torch.testing.assert_close(narrow.x[1], scaled[VOCAB.index("cat")] @ proj)
    assert "projected to 8 dims" in A.caption(A.attention_view(s.replace(head_dim=8)))


def test_tokenizer_json_vocabularies_with_word_start_marks(tmp_path, tiny_bert):
    path, weight = tiny_bert
    folder = tmp_path / "bpe"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes((path / "model.safetensors").read_bytes())
    (folder / "config.json").write_text((path / "config.json").read_text())
    vocab = {("Ġ" + w if w.isalpha() else w): i for i, w in enumerate(VOCAB)}
    (folder / "tokenizer.json").write_text(json.dumps({"model": {"type": "BPE", "vocab": vocab}}))
    table = C.embedding_table(f"{folder}::embeddings.word_embeddings.weight")
    assert table.row("cat") == 3 and table.row("zebra") is None and table.vocab_file.endswith("tokenizer.json")


def test_missing_vocabulary_is_a_clear_error(tmp_path, tiny_bert):
    path, _ = tiny_bert
    folder = tmp_path / "novocab"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes((path / "model.safetensors").read_bytes())
    s = A.AttentionSpec(tokens="sentence", head_dim=16, embedding_source=f"{folder}::embeddings.word_embeddings.weight")
    with pytest.raises(ParameterError, match="no vocab.txt or tokenizer.json"):
        A.AttentionModel(s)


def test_minilm_sample_embeddings_match_its_tokenizer():
    """The installed MiniLM sample (make installs it for the tests): whole words by its own tokenizer."""
    from safetensors.torch import load_file
    from transformers import AutoTokenizer

    from peapp.checkpoints import open_checkpoint
    from tests import samples

    path = samples.minilm()
    tensor = C.find_word_embeddings(open_checkpoint(path).tensors)
    s = A.AttentionSpec(scheme="nope", seq_len=8, n_heads=1, head_dim=384, tokens="sentence",
                        sentence="the cat sat on the mat xqzvw", embedding_source=f"{path}::{tensor}")
    model = A.AttentionModel(s)
    tokenizer = AutoTokenizer.from_pretrained(path)
    weight = load_file(f"{path}/model.safetensors")[tensor].float()
    weight = weight / weight.std()
    for pos, word in enumerate(model.words):
        pieces = tokenizer.tokenize(word)
        if len(pieces) == 1 and pieces[0] == word:
            torch.testing.assert_close(model.x[pos], weight[tokenizer.convert_tokens_to_ids(word)])
            assert word in model.embedded
        else:
            assert word not in model.embedded
            torch.testing.assert_close(model.x[pos], A.word_vector(word, 384))
    assert set(model.embedded) == {"the", "cat", "sat", "on", "mat"}
