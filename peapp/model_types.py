"""What peapp knows of each transformers ``model_type``: one table.

The checkpoint reader (:mod:`peapp.checkpoints.detect`, :mod:`peapp.checkpoints.hf_config`,
:mod:`peapp.checkpoints.layer_schemes`) and
the model loader (:mod:`peapp.model_run.loading`, :mod:`peapp.model_run.layers`) read a model's
family facts here — the position scheme its type implies, where a learned table starts, whether
its RoPE pairs are interleaved, whether it is an encoder, which 4.x-era config keys it may carry —
so a new family is one row group below, not an edit in each of them.  A type that is not listed
is :func:`get`'s empty row: everything is then read from its config and tensors.  Scheme ids are
:mod:`peapp.schemes`'s.  GGUF architecture names are another namespace (``peapp.checkpoints.rope_config``).
"""

from __future__ import annotations

from dataclasses import dataclass

from peapp import schemes


@dataclass(frozen=True)
class LegacyBases:
    """4.x-era per-layer-type RoPE bases: the keys of the full-attention and sliding-window bases,
    transformers' defaults when a key is missing, and whether rope_scaling applies to sliding layers."""

    full_key: str
    local_key: str
    full_default: float
    local_default: float
    scaling_everywhere: bool


@dataclass(frozen=True)
class ModelType:
    name: str
    #: the scheme (peapp.schemes id) the type implies: "rope", "alibi", "learned", "sinusoidal";
    #: None: the config and the tensors decide (Falcon's ``alibi``, ESM's ``position_embedding_type``
    #: can override a type's scheme)
    scheme: str | None = None
    #: a learned or sinusoidal table's row for position 0; None: padding_idx + 1 (RoBERTa)
    position_offset: int | None = 0
    #: the learned table's module under ``model.base_model`` (runs read its rows)
    position_table: str | None = None
    interleaved: bool = False  # RoPE pairs (2i, 2i + 1), not (i, i + d/2)
    encoder: bool = False  # bidirectional (masked-LM) model
    recurrent: bool = False  # state-space / recurrent: order comes from the recurrence
    relative_sinusoid: bool = False  # Transformer-XL relative sinusoids, computed inside attention
    detr: bool = False  # DETR-style detector: 2-D position embedding of the feature map
    rope_not_modelled: str | None = None  # rotary code the 1-D RoPE reading does not capture, in words
    legacy_bases: LegacyBases | None = None
    # per layer (peapp.checkpoints.layer_schemes):
    nope_full_attention: bool = False  # full-attention layers skip RoPE, sliding ones use it (Command R7B)
    nope_interval: bool = False  # every no_rope_layer_interval-th layer is NoPE when no_rope_layers is missing
    temperature: bool = False  # attn_temperature_tuning (default on) scales the NoPE layers' queries
    learned_sinks: bool = False  # one learned sink logit per head in every layer
    window_everywhere: bool = False  # sliding_window on every layer when the config has no layer_types
    sliding_period: int | None = None  # 4.x-era files: layer i slides unless (i + 1) % period == 0


#: Model types of 4.x-era files that transformers now reads as another.
ALIASES = {"refinedwebmodel": "falcon", "refinedweb": "falcon"}

_ROPE = {"llama", "llama4", "llama4_text", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
         "gemma", "gemma2", "gemma3", "gemma3_text", "phi", "phi3", "phimoe", "gpt_neox", "gpt_neox_japanese",
         "gptj", "codegen", "stablelm", "olmo", "olmo2", "cohere", "cohere2", "deepseek_v2", "deepseek_v3",
         "smollm3", "starcoder2", "granite", "granitemoe", "persimmon", "roformer", "internlm2",
         "falcon", "glm", "glm4", "exaone4", "helium", "nemotron", "jetmoe", "dbrx", "minicpm",
         "modernbert", "modernbert-decoder", "esm"}
_ALIBI = {"bloom", "mpt"}
# Fixed sinusoids ([sin | cos] halves, the fairseq/Marian layout).
_SINUSOIDAL = {"marian", "pegasus", "pegasus_x", "fsmt", "speech_to_text", "m2m_100", "nllb-moe", "xglm",
               "time_series_transformer", "informer", "autoformer", "blenderbot-small"}
# Learned tables whose rows start at padding_idx + 1 (RoBERTa-style).
_PADDING_OFFSET = {"roberta", "xlm-roberta", "xlm-roberta-xl", "camembert", "longformer", "data2vec-text",
                   "roberta-prelayernorm", "xmod", "bros", "luke", "mluke", "markuplm", "layoutlmv3",
                   "ibert", "mpnet", "esm"}
# fairseq-style learned tables with 2 extra leading rows.
_OFFSET_2 = {"opt", "bart", "mbart", "plbart", "biogpt", "galactica", "led", "mvp", "trocr", "xglm"}
# Learned tables a run reads (model_type → the table under model.base_model).
_TABLES = {"gpt2": "wpe", "bert": "embeddings.position_embeddings", "roberta": "embeddings.position_embeddings",
           "distilbert": "embeddings.position_embeddings", "opt": "decoder.embed_positions",
           "xlm-roberta": "embeddings.position_embeddings", "electra": "embeddings.position_embeddings"}
#: Models whose q/k pairs are (2i, 2i+1) rather than (i, i + dim/2): their modeling code rotates
#: with x[..., ::2] / repeat_interleave / complex numbers.  The battery (tests/core/checkpoints/
#: rope_battery.py) reads each model's apply_rotary_pos_emb and fails when this list is wrong.
#: A config's own ``rope_interleave`` (DeepSeek-V2/V3, Mistral 4) overrides it.
_INTERLEAVED = {"gptj", "codegen", "cohere", "cohere2", "cohere2_moe", "llama4", "llama4_text",
                "deepseek_v2", "deepseek_v3", "deepseek_v4", "glm", "glm4", "glm4_moe_lite",
                "roformer", "helium", "ernie4_5", "ernie4_5_moe", "axk1", "blt", "blt_global_transformer",
                "blt_local_decoder", "blt_local_encoder", "blt_patcher", "hy_v4_vl_text",
                "moonshine", "moonshine_streaming", "youtu", "mistral4", "chatglm"}
_ENCODERS = {"bert", "roberta", "distilbert", "xlm-roberta", "electra", "deberta", "modernbert"}
_RECURRENT = {"mamba", "mamba2", "falcon_mamba", "rwkv", "xlstm"}
_RELATIVE_SINUSOID = {"xlnet", "transfo-xl", "transfo_xl"}
_DETR = {"detr", "conditional_detr", "table-transformer", "table_transformer", "deformable_detr", "dab-detr",
         "dab_detr"}
# Model types whose rotary code does something the 1-D RoPE reading does not capture: the RoPE
# component is still shown (its base and pairs are the model's), with this said as a warning.
_ROPE_NOT_MODELLED = {
    "efficientloftr": "EfficientLoFTR rotates 2-D keypoint positions (partial_rotary_factor is a "
                      "multiplier there, not a share of head_dim)",
    "eomt_dinov3": "DINOv3 patch RoPE is 2-D (head_dim / 4 frequencies per image axis)",
    "ernie4_5_vl_moe_text": "ERNIE-4.5-VL uses 3-D M-RoPE with its own interleaved split of the frequencies "
                            "over time, height and width",
    "minimax_m3_vl_text": "MiniMax-M3-VL's rotary class turns the whole head_dim although rotary_dim is set",
}
_NOPE_FULL_ATTENTION = {"cohere2", "cohere2_moe"}
_NOPE_INTERVAL = {"smollm3", "llama4", "llama4_text"}
_TEMPERATURE = {"llama4", "llama4_text"}
_LEARNED_SINKS = {"gpt_oss"}
_WINDOW_EVERYWHERE = {"mistral", "mixtral", "ministral3", "phi3", "phimoe", "starcoder2", "qwen3_moe", "olmoe",
                      "minimax", "doge", "qwen2_moe"}
# transformers' own rule in each config class, for files without layer_types
_SLIDING_PERIOD = {**dict.fromkeys(("gemma3", "gemma3_text", "gemma4", "gemma4_text"), 6),
                   **dict.fromkeys(("cohere2", "cohere2_moe"), 4), **dict.fromkeys(("gemma2", "gpt_oss"), 2)}
_GEMMA3_BASES = LegacyBases("rope_theta", "rope_local_base_freq", 1_000_000.0, 10_000.0, False)
_MODERNBERT_BASES = LegacyBases("global_rope_theta", "local_rope_theta", 160_000.0, 10_000.0, True)
_LEGACY_BASES = {**{t: _GEMMA3_BASES for t in ("gemma3", "gemma3_text", "gemma3n", "gemma3n_text", "t5gemma2")},
                 **{t: _MODERNBERT_BASES for t in ("modernbert", "modernbert-decoder")}}


def _scheme(name: str) -> str | None:
    for scheme, members in (("sinusoidal", _SINUSOIDAL), ("alibi", _ALIBI), ("rope", _ROPE)):
        if name in members:
            return scheme
    return "learned" if name in _PADDING_OFFSET | _OFFSET_2 | set(_TABLES) else None


def _offset(name: str) -> int | None:
    return None if name in _PADDING_OFFSET else 2 if name in _OFFSET_2 else 0


MODEL_TYPES: dict[str, ModelType] = {
    name: ModelType(name, scheme=_scheme(name), position_offset=_offset(name), position_table=_TABLES.get(name),
                    interleaved=name in _INTERLEAVED, encoder=name in _ENCODERS, recurrent=name in _RECURRENT,
                    relative_sinusoid=name in _RELATIVE_SINUSOID, detr=name in _DETR,
                    rope_not_modelled=_ROPE_NOT_MODELLED.get(name), legacy_bases=_LEGACY_BASES.get(name),
                    nope_full_attention=name in _NOPE_FULL_ATTENTION, nope_interval=name in _NOPE_INTERVAL,
                    temperature=name in _TEMPERATURE, learned_sinks=name in _LEARNED_SINKS,
                    window_everywhere=name in _WINDOW_EVERYWHERE, sliding_period=_SLIDING_PERIOD.get(name))
    for name in sorted(_ROPE | _ALIBI | _SINUSOIDAL | _PADDING_OFFSET | _OFFSET_2 | set(_TABLES) | _INTERLEAVED
                       | _ENCODERS | _RECURRENT | _RELATIVE_SINUSOID | _DETR | set(_ROPE_NOT_MODELLED)
                       | set(_LEGACY_BASES) | _NOPE_FULL_ATTENTION | _NOPE_INTERVAL | _TEMPERATURE | _LEARNED_SINKS
                       | _WINDOW_EVERYWHERE | set(_SLIDING_PERIOD))
}
for _row in MODEL_TYPES.values():  # the scheme ids are the scheme table's
    if _row.scheme is not None:
        schemes.get(_row.scheme)


def canonical(model_type: str | None) -> str:
    """``model_type`` lower-cased, with 4.x-era names (Falcon's RefinedWebModel) mapped to today's."""
    name = str(model_type or "").lower()
    return ALIASES.get(name, name)


def get(model_type: str | None) -> ModelType:
    """The row of ``model_type`` (its alias resolved); an unlisted type gets an empty row."""
    name = canonical(model_type)
    return MODEL_TYPES.get(name) or ModelType(name)
