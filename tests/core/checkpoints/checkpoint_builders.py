"""Tiny checkpoints for the checkpoint tests, built with transformers, torch, safetensors and gguf.

Every model is 1–4 layers wide 16–32, so the whole set saves in a few seconds.  Imported by
this folder's conftest only (transformers is a test dependency, never imported by peapp).
"""

from __future__ import annotations

import json
import os
from pathlib import Path


LLAMA3_SCALING = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                  "original_max_position_embeddings": 32}


def _configs():
    import transformers as T

    small = dict(vocab_size=50)
    bert_like = dict(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32, **small)
    vision = dict(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                  image_size=32, patch_size=8)
    text = dict(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                max_position_embeddings=20, **small)
    decoder = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
                   num_key_value_heads=1, max_position_embeddings=256, **small)
    seq2seq = dict(d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                   decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32,
                   max_position_embeddings=64, **small)
    return {
        "gpt2": (T.GPT2Config(n_embd=16, n_layer=1, n_head=2, n_positions=64, **small), T.GPT2LMHeadModel),
        "bert": (T.BertConfig(max_position_embeddings=64, **bert_like), T.BertModel),
        "roberta": (T.RobertaConfig(max_position_embeddings=66, pad_token_id=1, **bert_like), T.RobertaModel),
        "opt": (T.OPTConfig(hidden_size=16, num_hidden_layers=1, ffn_dim=32, num_attention_heads=2,
                            max_position_embeddings=64, word_embed_proj_dim=16, **small), T.OPTForCausalLM),
        "bart": (T.BartConfig(**seq2seq), T.BartModel),
        "marian": (T.MarianConfig(decoder_vocab_size=50, pad_token_id=0, **seq2seq), T.MarianMTModel),
        "t5": (T.T5Config(d_model=16, d_kv=8, d_ff=32, num_layers=2, num_decoder_layers=2, num_heads=2,
                          relative_attention_num_buckets=8, relative_attention_max_distance=20, **small),
               T.T5Model),
        "vit": (T.ViTConfig(**vision), T.ViTModel),
        "deit": (T.DeiTConfig(**vision), T.DeiTModel),
        "clip": (T.CLIPConfig(text_config=text, vision_config=vision, projection_dim=8), T.CLIPModel),
        "siglip": (T.SiglipConfig(text_config={**text, "max_position_embeddings": 16}, vision_config=vision),
                   T.SiglipModel),
        "llama": (T.LlamaConfig(rope_scaling=dict(LLAMA3_SCALING), rope_theta=500000.0, **decoder),
                  T.LlamaForCausalLM),
        "gpt_neox": (T.GPTNeoXConfig(hidden_size=32, num_attention_heads=2, num_hidden_layers=1,
                                     intermediate_size=64, rotary_pct=0.25, max_position_embeddings=64, **small),
                     T.GPTNeoXForCausalLM),
        "gptj": (T.GPTJConfig(n_embd=32, n_layer=1, n_head=2, rotary_dim=8, n_positions=64, **small),
                 T.GPTJForCausalLM),
        "bloom": (T.BloomConfig(hidden_size=16, n_layer=1, n_head=4, **small), T.BloomForCausalLM),
        "mpt": (T.MptConfig(d_model=16, n_heads=4, n_layers=1, expansion_ratio=2, max_seq_len=64, **small),
                T.MptForCausalLM),
        "falcon": (T.FalconConfig(hidden_size=16, num_hidden_layers=1, num_attention_heads=4, alibi=True,
                                  new_decoder_architecture=False, multi_query=False, **small), T.FalconForCausalLM),
        "smollm3": (T.SmolLM3Config(**{**decoder, "num_hidden_layers": 4}, no_rope_layer_interval=4, pad_token_id=0),
                    T.SmolLM3ForCausalLM),
    }


def build_all(root: Path) -> dict[str, Path]:
    """Save every tiny model (and the hand-made files) under ``root``; name → path."""
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    torch.manual_seed(0)
    paths: dict[str, Path] = {}
    for name, (config, cls) in _configs().items():
        model = cls(config).eval()
        paths[name] = root / name
        model.save_pretrained(paths[name])
        if name == "gpt2":
            paths["gpt2_sharded"] = root / "gpt2_sharded"
            model.save_pretrained(paths["gpt2_sharded"], max_shard_size="20KB")
            paths["gpt2_bin"] = root / "gpt2.bin"
            torch.save(model.state_dict(), paths["gpt2_bin"])
            paths["gpt2_bin_folder"] = root / "gpt2_bin_folder"
            paths["gpt2_bin_folder"].mkdir()
            torch.save(model.state_dict(), paths["gpt2_bin_folder"] / "pytorch_model.bin")
            config.save_pretrained(paths["gpt2_bin_folder"])
    paths.update(build_handmade(root))
    return paths


def build_handmade(root: Path) -> dict[str, Path]:
    """Checkpoints transformers no longer writes: Shaw relative BERT, timm ViTs, legacy configs, GGUF."""
    import torch
    from safetensors.torch import save_file

    paths: dict[str, Path] = {}
    g = torch.Generator().manual_seed(1)
    # BERT with position_embedding_type relative_key (transformers 4.x): per-layer distance tables
    shaw = root / "bert_shaw"
    shaw.mkdir()
    save_file({"bert.embeddings.position_embeddings.weight": torch.randn(32, 16, generator=g),
               **{f"bert.encoder.layer.{i}.attention.self.distance_embedding.weight": torch.randn(63, 8, generator=g)
                  for i in range(2)}}, shaw / "model.safetensors")
    _write_json(shaw / "config.json", {"model_type": "bert", "architectures": ["BertModel"], "hidden_size": 16,
                                        "num_attention_heads": 2, "max_position_embeddings": 32,
                                        "position_embedding_type": "relative_key"})
    paths["bert_shaw"] = shaw
    # timm ViT with a class token and 4 register tokens that all have positions (4×4 patches)
    paths["timm_reg"] = root / "timm_reg.safetensors"
    save_file({"pos_embed": torch.randn(1, 1 + 4 + 16, 16, generator=g), "cls_token": torch.zeros(1, 1, 16),
               "reg_token": torch.zeros(1, 4, 16), "patch_embed.proj.weight": torch.zeros(16, 3, 8, 8)},
              paths["timm_reg"])
    # timm no_embed_class: the class token has no position
    paths["timm_noembed"] = root / "timm_noembed.safetensors"
    save_file({"pos_embed": torch.randn(1, 9, 16, generator=g), "cls_token": torch.zeros(1, 1, 16)},
              paths["timm_noembed"])
    # Llama-3.1-style config.json as found on the Hub (legacy rope_scaling + top-level rope_theta)
    paths["llama31_config"] = root / "llama31" / "config.json"
    paths["llama31_config"].parent.mkdir()
    _write_json(paths["llama31_config"], {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "num_attention_heads": 32, "num_key_value_heads": 8, "max_position_embeddings": 131072,
        "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                 "original_max_position_embeddings": 8192, "rope_type": "llama3"}})
    # Phi-3-style: legacy "type": "su" (= longrope) and a top-level original length
    paths["phi3_config"] = root / "phi3" / "config.json"
    paths["phi3_config"].parent.mkdir()
    _write_json(paths["phi3_config"], {
        "architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
        "rope_scaling": {"type": "su", "short_factor": [1.0] * 48, "long_factor": [2.0] * 48}})
    paths.update(build_gguf(root))
    return paths


def build_gguf(root: Path) -> dict[str, Path]:
    import numpy as np
    from gguf import GGUFWriter

    paths = {}
    # Llama with YaRN scaling: RoPE entirely from metadata
    p = root / "tiny-llama.gguf"
    w = GGUFWriter(str(p), "llama")
    w.add_context_length(4096)
    w.add_embedding_length(64)
    w.add_block_count(1)
    w.add_head_count(4)
    w.add_rope_freq_base(50000.0)
    w.add_rope_dimension_count(16)
    w.add_string("llama.rope.scaling.type", "yarn")
    w.add_float32("llama.rope.scaling.factor", 4.0)
    w.add_uint32("llama.rope.scaling.original_context_length", 1024)
    w.add_tensor("token_embd.weight", np.arange(10 * 64, dtype=np.float32).reshape(10, 64))
    _finish(w)
    paths["gguf_llama"] = p
    # GPT-2: a learned table stored as position_embd (numpy shape [n_ctx, n_embd])
    p = root / "tiny-gpt2.gguf"
    w = GGUFWriter(str(p), "gpt2")
    w.add_context_length(12)
    w.add_embedding_length(8)
    w.add_head_count(2)
    w.add_tensor("position_embd.weight", np.arange(12 * 8, dtype=np.float32).reshape(12, 8))
    w.add_tensor("token_embd.weight", np.ones((5, 8), dtype=np.float16))
    _finish(w)
    paths["gguf_gpt2"] = p
    # BLOOM: ALiBi
    p = root / "tiny-bloom.gguf"
    w = GGUFWriter(str(p), "bloom")
    w.add_context_length(64)
    w.add_embedding_length(16)
    w.add_head_count(4)
    w.add_tensor("token_embd.weight", np.zeros((5, 16), dtype=np.float32))
    _finish(w)
    paths["gguf_bloom"] = p
    return paths


def _finish(w) -> None:
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def _write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def folder_listing(root: Path) -> dict[str, tuple[int, float]]:
    """(size, mtime) of every file under root: to prove nothing was written or touched."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            st = os.stat(os.path.join(dirpath, f))
            out[os.path.join(dirpath, f)] = (st.st_size, st.st_mtime_ns)
    return out

