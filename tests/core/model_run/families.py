"""Tiny seeded checkpoints of every text family the run is tested on, and what each family's
transformers code does with position per layer (written from the family's modeling code, not
from peapp)."""

from __future__ import annotations

import os

VOCAB = 64
HEAD_DIM = 8
COMMON = dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
              intermediate_size=64, max_position_embeddings=128, pad_token_id=0, bos_token_id=1, eos_token_id=2,
              tie_word_embeddings=False)
SLIDE = 4  # a window shorter than the test text, so it shows
ENCODERS = ("modernbert", "bert", "roberta", "xlm-roberta", "distilbert", "electra")

# family → (config overrides, expected per-layer scheme)
# expected per layer: position, sliding window, learned sinks, temperature tuning, (rotary dims, pair layout)
FAMILIES: dict[str, dict] = {
    "llama": {},
    "mistral": {"sliding_window": SLIDE},
    "mixtral": {"num_local_experts": 2, "num_experts_per_tok": 1, "sliding_window": None},
    "qwen2": {},
    "qwen2_moe": {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16,
                  "shared_expert_intermediate_size": 16},
    "qwen3": {"head_dim": HEAD_DIM},
    "qwen3_moe": {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16, "head_dim": HEAD_DIM},
    "gemma": {"head_dim": HEAD_DIM},
    "gemma2": {"head_dim": HEAD_DIM, "sliding_window": SLIDE, "query_pre_attn_scalar": HEAD_DIM,
               "layer_types": ["sliding_attention", "full_attention"]},
    "gemma3_text": {"head_dim": HEAD_DIM, "sliding_window": SLIDE, "query_pre_attn_scalar": HEAD_DIM,
                    "layer_types": ["sliding_attention", "full_attention"]},
    "gemma4_text": {"head_dim": HEAD_DIM, "global_head_dim": HEAD_DIM, "sliding_window": SLIDE,
                    "hidden_size_per_layer_input": 8, "vocab_size_per_layer_input": VOCAB,
                    "layer_types": ["sliding_attention", "full_attention"], "num_kv_shared_layers": 0},
    "phi": {"partial_rotary_factor": 0.5},
    "phi3": {"rope_parameters": {"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1.0, 1.1, 1.3, 1.7],
                                 "long_factor": [1.5, 2.0, 3.0, 4.0], "original_max_position_embeddings": 64}},
    "gpt2": {},
    "gpt_neox": {"rotary_pct": 0.5},
    "gptj": {"rotary_dim": 4},
    "opt": {"ffn_dim": 64, "word_embed_proj_dim": 32},
    "bloom": {},
    "falcon": {"new_decoder_architecture": True, "num_kv_heads": 2},
    "falcon_alibi": {"alibi": True, "multi_query": False},
    "mpt": {},
    "starcoder2": {"sliding_window": SLIDE},
    "stablelm": {"partial_rotary_factor": 0.5},
    "olmo": {},
    "olmo2": {},
    "cohere": {"logit_scale": 0.5},
    "cohere2": {"sliding_window": SLIDE, "layer_types": ["sliding_attention", "full_attention"], "logit_scale": 0.5},
    "smollm3": {"no_rope_layers": [1, 0], "use_sliding_window": False},
    "llama4_text": {"no_rope_layers": [1, 0], "head_dim": HEAD_DIM, "num_local_experts": 2, "intermediate_size_mlp": 64,
                    "attn_temperature_tuning": True, "floor_scale": 4, "attn_scale": 0.5, "use_qk_norm": False,
                    "attention_chunk_size": 8, "interleave_moe_layer_step": 1, "rope_parameters": {
                        "rope_type": "default", "rope_theta": 500000.0}},
    "gpt_oss": {"num_local_experts": 2, "num_experts_per_tok": 1, "head_dim": HEAD_DIM, "sliding_window": SLIDE,
                "layer_types": ["sliding_attention", "full_attention"]},
    "granite": {"logits_scaling": 4.0, "attention_multiplier": 0.3},
    "glm4": {"head_dim": HEAD_DIM, "partial_rotary_factor": 0.5},
    "deepseek_v3": {"n_routed_experts": 4, "num_experts_per_tok": 2, "n_group": 1, "topk_group": 1,
                    "moe_intermediate_size": 16, "kv_lora_rank": 16, "q_lora_rank": 16, "qk_rope_head_dim": 4,
                    "qk_nope_head_dim": 4, "v_head_dim": HEAD_DIM, "first_k_dense_replace": 1, "num_key_value_heads": 4},
    "modernbert": {"global_attn_every_n_layers": 2, "local_attention": 2 * SLIDE, "cls_token_id": 1,
                   "sep_token_id": 2},
    "bert": {},
    "roberta": {"pad_token_id": 1},
    "xlm-roberta": {"pad_token_id": 1},
    "distilbert": {"dim": 32, "n_layers": 2, "n_heads": 4, "hidden_dim": 64},
    "electra": {"embedding_size": 32},
}


def model_type(family: str) -> str:
    return "falcon" if family == "falcon_alibi" else family


def build(family: str, folder: str, seed: int) -> str:
    """Write a seeded tiny ``family`` model and a word-level tokenizer.json into ``folder``."""
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    kwargs = dict(COMMON) | FAMILIES[family]
    config = transformers.AutoConfig.for_model(model_type(family), **kwargs)
    torch.manual_seed(seed)
    auto = transformers.AutoModelForMaskedLM if family in ENCODERS else transformers.AutoModelForCausalLM
    model = auto.from_config(config, attn_implementation="eager").eval()
    with torch.no_grad():  # weights large enough that positions and sinks matter
        for name, param in model.named_parameters():
            if name.endswith("sinks") or "position" in name or name.endswith("wpe.weight"):
                param.normal_(0, 1.0)
    model.save_pretrained(folder)
    tok = Tokenizer(models.WordLevel({"[UNK]": 0} | {f"w{i}": i for i in range(1, VOCAB)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(os.path.join(folder, "tokenizer.json"))
    return folder


def expected_layers(family: str, config) -> list[dict]:
    """What the family's transformers code does with position in each layer."""
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    n = config.num_hidden_layers
    window = [None] * n
    types = getattr(config, "layer_types", None)
    if family in ("mistral", "starcoder2"):
        window = [SLIDE] * n
    elif types:
        window = [SLIDE if t == "sliding_attention" else None for t in types]
    if family == "modernbert":
        window = [SLIDE + 1 if t == "sliding_attention" else None for t in types]  # half window + 1, both sides
    position = ["rope"] * n
    if family in ("gpt2", "opt", "bert", "roberta", "xlm-roberta", "distilbert", "electra"):
        position = ["learned_absolute (input)"] * n
    elif family in ("bloom", "mpt", "falcon_alibi"):
        position = ["alibi"] * n
    elif family in ("smollm3", "llama4_text"):  # no_rope_layers[i] == 0: NoPE
        position = ["rope" if flag else "nope" for flag in config.no_rope_layers]
    elif family == "cohere2":  # rotary only on the sliding-window layers
        position = ["rope" if t == "sliding_attention" else "nope" for t in types]
    rotary = {"phi": head_dim // 2, "gpt_neox": head_dim // 2, "gptj": 4, "stablelm": head_dim // 2,
              "glm4": head_dim // 2, "deepseek_v3": 4}.get(family, head_dim)
    layout = "interleaved" if family in ("cohere", "cohere2", "glm4", "gptj", "deepseek_v3", "llama4_text") else "half"
    out = []
    for i in range(n):
        layer = {"position": position[i], "sliding_window": window[i], "learned_sinks": family == "gpt_oss",
                 "temperature_tuning": family == "llama4_text" and position[i] == "nope"}
        if position[i] == "rope":
            layer["rotary_dims"], layer["pair_layout"] = rotary, layout
        out.append(layer)
    return out


# attention inside their own modules (transformers 5.24); StableLM's class does not declare backend
# support but its attention does call the registry, so it takes the attention-function route
HOOK_ROUTE = ("bloom", "falcon", "falcon_alibi", "mpt")


# ---- GGUF, as llama.cpp's convert_hf_to_gguf.py writes it ----------------------------------------

GGUF_FAMILIES = {"llama": "LLAMA", "qwen2": "QWEN2", "gemma3_text": "GEMMA3", "phi3": "PHI3"}
GGUF_OVERRIDES = {"phi3": {"rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}},
                  # a GGUF has no layer_types: transformers rebuilds Gemma 3's from its pattern (5 local, 1 global)
                  "gemma3_text": {"num_hidden_layers": 6, "layer_types": None}}


def _llama_cpp_permute(w, n_head: int):
    """llama.cpp's q/k row order for LLAMA (convert_hf_to_gguf.py LlamaModel.permute)."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def write_gguf(family: str, hf_folder: str, path: str) -> str:
    """The tiny ``family`` model in ``hf_folder`` as a float32 GGUF: llama.cpp's tensor names
    (gguf's own name map), its LLAMA q/k permutation and Gemma's norm + 1, its metadata keys and a
    tokenizer inside (byte-level BPE for llama/qwen2, SentencePiece for gemma3/phi3)."""
    import json

    import gguf
    import numpy as np
    from safetensors.numpy import load_file

    cfg = json.load(open(os.path.join(hf_folder, "config.json")))
    weights = load_file(os.path.join(hf_folder, "model.safetensors"))
    arch_name = {"gemma3_text": "gemma3"}.get(family, family)
    arch = getattr(gguf.MODEL_ARCH, GGUF_FAMILIES[family])
    names = gguf.get_tensor_name_map(arch, cfg["num_hidden_layers"])
    heads, kv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    head_dim = cfg.get("head_dim") or cfg["hidden_size"] // heads
    writer = gguf.GGUFWriter(path, arch_name)
    writer.add_name(f"tiny {family}")
    writer.add_context_length(cfg["max_position_embeddings"])
    writer.add_embedding_length(cfg["hidden_size"])
    writer.add_block_count(cfg["num_hidden_layers"])
    writer.add_feed_forward_length(cfg["intermediate_size"])
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv)
    writer.add_layer_norm_rms_eps(cfg.get("rms_norm_eps", 1e-6))
    writer.add_vocab_size(VOCAB)
    rope = cfg.get("rope_parameters") or {}
    if family == "gemma3_text":
        writer.add_key_length(head_dim)
        writer.add_value_length(head_dim)
        writer.add_sliding_window(cfg["sliding_window"])
        writer.add_rope_freq_base(rope["full_attention"]["rope_theta"])
        writer.add_rope_dimension_count(head_dim)
    else:
        writer.add_rope_freq_base(rope.get("rope_theta", 10000.0))
        writer.add_rope_dimension_count(head_dim)
    letters = [chr(c) for c in range(ord("a"), ord("a") + VOCAB - 4)]
    if family in ("llama", "qwen2"):
        writer.add_tokenizer_model("gpt2")
        writer.add_tokenizer_pre("qwen2" if family == "qwen2" else "default")
        tokens = ["<unk>", "<s>", "</s>"] + letters + ["ab"]
        writer.add_token_merges(["a b"])
    else:
        writer.add_tokenizer_model("llama")
        tokens = ["<unk>", "<s>", "</s>", "\u2581"] + letters[:-1] + ["\u2581a"]
        writer.add_token_scores([0.0] * 3 + [-float(i) for i in range(VOCAB - 3)])
    writer.add_token_list(tokens)
    writer.add_token_types([3, 3, 3] + [1] * (VOCAB - 3))
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    writer.add_pad_token_id(0)
    for hf, w in weights.items():
        base, suffix = hf.rsplit(".", 1)
        name = names.get_name(base)
        assert name is not None, hf
        w = w.astype(np.float32)
        if family == "llama" and name.endswith("attn_q"):
            w = _llama_cpp_permute(w, heads)
        elif family == "llama" and name.endswith("attn_k"):
            w = _llama_cpp_permute(w, kv)
        if family == "gemma3_text" and base.endswith("norm"):
            w = w + 1  # llama.cpp stores Gemma's (1 + w) norm weights
        writer.add_tensor(f"{name}.{suffix}", w)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
