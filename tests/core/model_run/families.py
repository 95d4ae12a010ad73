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


HOOK_ROUTE = ("bloom", "falcon", "falcon_alibi", "mpt", "stablelm")
