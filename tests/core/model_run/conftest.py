"""Tiny checkpoints written with transformers' own save_pretrained (and one GGUF)."""

from __future__ import annotations

import os

import numpy as np
import pytest

VOCAB = 64


def _word_tokenizer(folder: str) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel({"[UNK]": 0} | {f"w{i}": i for i in range(1, VOCAB)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(os.path.join(folder, "tokenizer.json"))


def _save(model, folder) -> str:
    model.save_pretrained(folder)
    _word_tokenizer(str(folder))
    return str(folder)


@pytest.fixture(scope="session")
def tiny_llama(tmp_path_factory):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                      rope_theta=100.0)
    return _save(LlamaForCausalLM(cfg).eval(), tmp_path_factory.mktemp("llama"))


@pytest.fixture(scope="session")
def tiny_gpt2(tmp_path_factory):
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(1)
    cfg = GPT2Config(vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=4, n_positions=64, bos_token_id=1, eos_token_id=2)
    model = GPT2LMHeadModel(cfg).eval()
    with torch.no_grad():  # a position table large enough to matter
        model.transformer.wpe.weight.normal_(0, 0.5)
    return _save(model, tmp_path_factory.mktemp("gpt2"))


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(2)
    cfg = BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=64)
    return _save(BertModel(cfg).eval(), tmp_path_factory.mktemp("bert"))


def _llama_cpp_permute(w: np.ndarray, n_head: int) -> np.ndarray:
    """llama.cpp's q/k row order (convert_hf_to_gguf.py); transformers undoes it on load."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory, tiny_llama):
    """The tiny Llama written as a float32 GGUF with a byte-level BPE vocabulary."""
    folder = tmp_path_factory.mktemp("gguf")
    return write_tiny_gguf(str(folder / "tiny-llama.gguf"), tiny_llama)


def write_tiny_gguf(path: str, tiny_llama: str, width: int = 32, blocks: int = 2) -> str:
    """The tiny Llama as a float32 GGUF; ``width`` and ``blocks``: what its header claims (the
    tensors stay 32 wide, 2 layers)."""
    import gguf
    from safetensors.numpy import load_file

    weights = load_file(os.path.join(tiny_llama, "model.safetensors"))
    heads, kv_heads, layers = 4, 2, 2
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_name("tiny llama")
    writer.add_context_length(128)
    writer.add_embedding_length(width)
    writer.add_block_count(blocks)
    writer.add_feed_forward_length(64)
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv_heads)
    writer.add_rope_dimension_count(8)
    writer.add_rope_freq_base(100.0)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_vocab_size(VOCAB)
    tokens = ["<unk>", "<s>", "</s>"] + [chr(c) for c in range(ord("a"), ord("a") + VOCAB - 4)] + ["ab"]
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list(tokens)
    writer.add_token_types([3, 3, 3] + [1] * (VOCAB - 3))
    writer.add_token_merges(["a b"])
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    names = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight"}
    if "lm_head.weight" in weights:
        names["lm_head.weight"] = "output.weight"
    for i in range(layers):
        for hf, gg in (("input_layernorm", "attn_norm"), ("post_attention_layernorm", "ffn_norm"),
                       ("self_attn.q_proj", "attn_q"), ("self_attn.k_proj", "attn_k"),
                       ("self_attn.v_proj", "attn_v"), ("self_attn.o_proj", "attn_output"),
                       ("mlp.gate_proj", "ffn_gate"), ("mlp.up_proj", "ffn_up"), ("mlp.down_proj", "ffn_down")):
            names[f"model.layers.{i}.{hf}.weight"] = f"blk.{i}.{gg}.weight"
    for hf, gg in names.items():
        w = weights[hf].astype(np.float32)
        if gg.endswith("attn_q.weight"):
            w = _llama_cpp_permute(w, heads)
        elif gg.endswith("attn_k.weight"):
            w = _llama_cpp_permute(w, kv_heads)
        writer.add_tensor(gg, w)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
