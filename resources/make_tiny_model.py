"""Regenerate ``models/tiny-llama/`` and ``models/tiny-llama.gguf``: a tiny random Llama made for
the app's self-test and for trying Run on text and Probes without downloading anything.

    python resources/make_tiny_model.py

A ``LlamaForCausalLM`` (4 layers × 4 heads of 8 dimensions, 2 key/value heads, RoPE θ 10,000,
256 trained positions, tied embeddings) with seeded random weights, written with transformers'
``save_pretrained`` (safetensors), and a 512-token byte-level BPE ``tokenizer.json`` trained with
the ``tokenizers`` library on the bundled sample text (resources/texts/alice-chapters-1-6.txt).
The same weights and vocabulary are also written as a float32 GGUF file (llama.cpp's layout), so
the self-test exercises GGUF loading too.  Its attention is random: it shows what the panels
draw, not what a trained model does.  Running the script again writes byte-identical files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "models" / "tiny-llama"
GGUF = HERE / "models" / "tiny-llama.gguf"
TEXT = HERE / "texts" / "alice-chapters-1-6.txt"
VOCAB = 512
LAYERS, HEADS, KV_HEADS, HIDDEN, FFN = 4, 4, 2, 32, 64
CONTEXT, THETA, EPS = 256, 10_000.0, 1e-6
INIT = 0.4  # std of the random weights: 0.02 (transformers' default) gives near-uniform attention in every head
SPECIAL = "<|endoftext|>"  # id 0: begin and end of text


def train_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=[SPECIAL], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator([TEXT.read_text(encoding="utf-8")], trainer)
    return tok


def build_model(vocab_size: int):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=vocab_size, hidden_size=HIDDEN, intermediate_size=FFN, num_hidden_layers=LAYERS,
                         num_attention_heads=HEADS, num_key_value_heads=KV_HEADS, max_position_embeddings=CONTEXT,
                         rope_theta=THETA, rms_norm_eps=EPS, tie_word_embeddings=True, bos_token_id=0,
                         eos_token_id=0, initializer_range=INIT, architectures=["LlamaForCausalLM"])
    return LlamaForCausalLM(config).eval()


def _llama_cpp_permute(w: np.ndarray, n_head: int) -> np.ndarray:
    """llama.cpp's q/k row order (its convert_hf_to_gguf.py); transformers undoes it on load."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def write_gguf(path: Path, weights: dict[str, np.ndarray], tokenizer) -> None:
    import gguf

    doc = json.loads(tokenizer.to_str())
    vocab = doc["model"]["vocab"]
    tokens = sorted(vocab, key=vocab.get)
    merges = [m if isinstance(m, str) else " ".join(m) for m in doc["model"]["merges"]]
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("peapp tiny llama")
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(HIDDEN)
    writer.add_block_count(LAYERS)
    writer.add_feed_forward_length(FFN)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(KV_HEADS)
    writer.add_rope_dimension_count(HIDDEN // HEADS)
    writer.add_rope_freq_base(THETA)
    writer.add_layer_norm_rms_eps(EPS)
    writer.add_vocab_size(len(tokens))
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types([3] + [1] * (len(tokens) - 1))  # 3: control (the special token)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(0)
    writer.add_eos_token_id(0)
    names = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight"}
    for i in range(LAYERS):
        for hf, gg in (("input_layernorm", "attn_norm"), ("post_attention_layernorm", "ffn_norm"),
                       ("self_attn.q_proj", "attn_q"), ("self_attn.k_proj", "attn_k"),
                       ("self_attn.v_proj", "attn_v"), ("self_attn.o_proj", "attn_output"),
                       ("mlp.gate_proj", "ffn_gate"), ("mlp.up_proj", "ffn_up"), ("mlp.down_proj", "ffn_down")):
            names[f"model.layers.{i}.{hf}.weight"] = f"blk.{i}.{gg}.weight"
    for hf, gg in names.items():
        w = weights[hf].astype(np.float32)
        if gg.endswith("attn_q.weight"):
            w = _llama_cpp_permute(w, HEADS)
        elif gg.endswith("attn_k.weight"):
            w = _llama_cpp_permute(w, KV_HEADS)
        writer.add_tensor(gg, w)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def main(folder: Path = FOLDER, gguf_path: Path = GGUF) -> None:
    from safetensors.numpy import load_file

    tokenizer = train_tokenizer()
    model = build_model(tokenizer.get_vocab_size())
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save(str(folder / "tokenizer.json"))
    write_gguf(gguf_path, load_file(str(folder / "model.safetensors")), tokenizer)
    for path in sorted([*folder.iterdir(), gguf_path]):
        print(f"{path}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    sys.exit(main())
