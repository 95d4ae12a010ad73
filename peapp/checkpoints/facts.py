"""The model's size and shape at a glance: layers, heads, widths, context, vocabulary, storage.

Read from what :func:`peapp.checkpoints.open_checkpoint` already holds — config.json, GGUF
metadata and the tensor headers — never from tensor data.  Each fact says where it came from
(the key, or "tensor shapes"), so a reader can check it against the file.  Torch-free.

The parameter count is the number of elements of the stored weight tensors: what
``save_pretrained`` writes is the model's parameters with tied weights stored once, so this
equals transformers' ``model.num_parameters()``.  Integer and boolean tensors (position_ids
buffers, packed quantized weights) and saved frequency buffers (inv_freq, rope_freqs) are not
parameters and are left out; GGUF block-quantized tensors count their elements, not their bytes.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from peapp.checkpoints.model import Checkpoint, TensorInfo
from peapp.errors import CheckpointError
from peapp.i18n import msg, translate
from peapp.file_values import MAX_HEADS, MAX_LENGTH, number
from peapp.memory import human_bytes

# (label, JSON key) in the order the panel and `peapp inspect` show them
FIELDS = ((msg("Facts", "layers"), "layers"), (msg("Facts", "heads"), "heads"), (msg("Facts", "KV heads"), "kv_heads"),
          ("head_dim", "head_dim"), (msg("Facts", "hidden size"), "hidden_size"),
          (msg("Facts", "context length"), "context_length"), (msg("Facts", "vocabulary"), "vocab_size"),
          (msg("Facts", "dtype / quantization"), "dtype"), (msg("Facts", "parameters"), "parameters"),
          (msg("Facts", "file size"), "file_size"))

# dtypes whose tensors are weights (safetensors / torch names, and GGUF float types)
_FLOAT_DTYPES = {"F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2", "F8_E4M3FN", "F8_E5M2FNUZ", "F8_E4M3FNUZ",
                 "F4", "F6_E2M3", "F6_E3M2",
                 "float64", "float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"}
_INTEGER_DTYPES = {"I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64", "BOOL", "int8", "int16", "int32", "int64",
                   "uint8", "bool"}
# saved buffers that are not parameters (frequency tables, causal masks of old GPT-2 files)
_BUFFERS = re.compile(r"(?:^|\.)(?:inv_freq|rope_freqs\.weight|position_ids|masked_bias)$|(?:^|\.)attn\.bias$")
_WORD_EMBEDDINGS = re.compile(r"(?:^|\.)(?:word_embeddings|wte|embed_tokens|shared|embed_in|token_embd)\.weight$")

_LAYER_KEYS = ("num_hidden_layers", "n_layer", "num_layers", "n_layers")
_HEAD_KEYS = ("num_attention_heads", "n_head", "n_heads", "num_heads", "encoder_attention_heads")
_KV_KEYS = ("num_key_value_heads", "n_head_kv", "num_kv_heads", "multi_query_group_num")
_HIDDEN_KEYS = ("hidden_size", "n_embd", "d_model", "dim")
_CONTEXT_KEYS = ("max_position_embeddings", "n_positions", "max_seq_len", "max_sequence_length", "seq_length",
                 "n_ctx")


@dataclass(frozen=True)
class Fact:
    """One value, as shown, and where it came from."""

    value: Any  # a plain number or string (None when the file does not say)
    text: str  # how it is shown ("—" when unknown)
    source: str  # "config.json num_hidden_layers", "GGUF llama.block_count", "tensor shapes" …


@dataclass(frozen=True)
class ModelFacts:
    """The metadata block of an opened checkpoint (see ``FIELDS``)."""

    facts: Mapping[str, Fact] = field(default_factory=dict)

    def get(self, key: str) -> Any:
        fact = self.facts.get(key)
        return None if fact is None else fact.value

    def rows(self) -> list[tuple[str, str, str]]:
        """(label, text, source) for every field, in display order."""
        out = []
        for label, key in FIELDS:
            fact = self.facts.get(key) or Fact(None, "—", translate("Facts", "not in the file"))
            out.append((label, fact.text, fact.source))
        return out

    def to_json(self) -> dict[str, Any]:
        return {key: {"value": fact.value, "text": fact.text, "source": fact.source}
                for _, key in FIELDS if (fact := self.facts.get(key)) is not None}


def model_facts(ckpt: Checkpoint) -> ModelFacts:
    """The metadata block of ``ckpt`` from its config, GGUF metadata and tensor headers."""
    facts: dict[str, Fact] = {}
    if ckpt.gguf_metadata:
        facts.update(_from_gguf(ckpt.gguf_metadata, ckpt.tensors))
    elif ckpt.config:
        facts.update(_from_config(ckpt.config))
    if "vocab_size" not in facts:
        name = next((n for n in sorted(ckpt.tensors) if _WORD_EMBEDDINGS.search(n)
                     and len(ckpt.tensors[n].shape) == 2), None)
        if name is not None:
            rows = ckpt.tensors[name].shape[0]
            facts["vocab_size"] = Fact(rows, f"{rows:,}", translate("Facts", "rows of {tensor}").format(tensor=name))
    storage = _storage(ckpt)
    if storage is not None:
        facts["dtype"] = storage
    if ckpt.tensors:
        facts["parameters"] = _parameters(ckpt.tensors, ckpt.format)
        facts["file_size"] = _file_size(ckpt.tensors)
    return ModelFacts(facts)


# ---- config.json --------------------------------------------------------------------------------

def _from_config(cfg: Mapping[str, Any]) -> dict[str, Fact]:
    """Facts of a Hugging Face config; a composite model's language model (text_config) when the
    top level has no sizes of its own."""
    where = "config.json"
    text = cfg.get("text_config")
    if isinstance(text, Mapping) and not any(cfg.get(k) is not None for k in _LAYER_KEYS + _HIDDEN_KEYS):
        cfg, where = text, "config.json text_config"
    out: dict[str, Fact] = {}
    problems: dict[str, str] = {}  # key → why its value was not used

    def whole(key: str, maximum: float = MAX_LENGTH) -> int | None:
        try:
            return number(cfg[key], key, where=where, integer=True, minimum=1, maximum=maximum)
        except CheckpointError as exc:
            problems[key] = str(exc)
            return None

    def first(keys: tuple[str, ...], maximum: float = MAX_LENGTH) -> tuple[int, str] | None:
        for key in keys:
            if cfg.get(key) is not None:
                value = whole(key, maximum)
                return None if value is None else (value, f"{where} {key}")
        return None

    layers = first(_LAYER_KEYS)
    if layers is None and cfg.get("encoder_layers") is not None:  # BART-style encoder-decoders
        enc = whole("encoder_layers")
        dec = whole("decoder_layers") if cfg.get("decoder_layers") is not None else None
        if enc is not None:
            out["layers"] = Fact(enc + (dec or 0), _encoder_decoder(enc, dec) if dec is not None else str(enc),
                                 f"{where} encoder_layers, decoder_layers")
    elif layers is not None:
        value, source = layers
        dec = whole("num_decoder_layers") if cfg.get("num_decoder_layers") is not None else None
        if dec is not None and cfg.get("is_encoder_decoder", True):  # T5: num_layers is the encoder's
            out["layers"] = Fact(value + dec, _encoder_decoder(value, dec), f"{source}, num_decoder_layers")
        else:
            out["layers"] = Fact(value, f"{value:,}", source)
    heads = first(_HEAD_KEYS, MAX_HEADS)
    if heads is not None:
        out["heads"] = Fact(heads[0], f"{heads[0]:,}", heads[1])
    kv = first(_KV_KEYS, MAX_HEADS)
    if kv is not None:
        out["kv_heads"] = Fact(kv[0], f"{kv[0]:,}", kv[1])
    elif cfg.get("multi_query") is True:  # Falcon-7B: one K/V head shared by all
        out["kv_heads"] = Fact(1, "1", f"{where} multi_query")
    elif heads is not None:
        out["kv_heads"] = Fact(heads[0], f"{heads[0]:,}", translate("Facts", "= heads ({file} gives no num_key_value_heads)")
                               .format(file=where))
    hidden = first(_HIDDEN_KEYS, 1 << 24)
    if hidden is not None:
        out["hidden_size"] = Fact(hidden[0], f"{hidden[0]:,}", hidden[1])
    head_dim = first(("head_dim", "d_kv", "attention_head_dim", "kv_channels"), 1 << 20)
    if head_dim is not None:
        out["head_dim"] = Fact(head_dim[0], f"{head_dim[0]:,}", head_dim[1])
    elif hidden is not None and heads is not None and hidden[0] % heads[0] == 0:
        out["head_dim"] = Fact(hidden[0] // heads[0], f"{hidden[0] // heads[0]:,}", translate("Facts", "hidden size ÷ heads"))
    context = first(_CONTEXT_KEYS)
    if context is not None:
        value, source = context
        original = _original_context(cfg, where)
        if original is not None and original[0] != value:
            out["context_length"] = Fact(value, _trained_at(value, original[0]), f"{source}; {original[1]}")
        else:
            out["context_length"] = Fact(value, f"{value:,}", source)
    elif isinstance(cfg.get("image_size"), int) and isinstance(cfg.get("patch_size"), int) and cfg["patch_size"] > 0:
        side = cfg["image_size"] // cfg["patch_size"]
        out["context_length"] = Fact(side * side, translate("Facts", "{n} patches ({side}×{side})")
                                     .format(n=f"{side * side:,}", side=side),
                                     f"{where} image_size ÷ patch_size")
    vocab = first(("vocab_size", "n_vocab", "padded_vocab_size"))
    if vocab is not None:
        out["vocab_size"] = Fact(vocab[0], f"{vocab[0]:,}", vocab[1])
    for name, keys in (("layers", _LAYER_KEYS), ("heads", _HEAD_KEYS), ("hidden_size", _HIDDEN_KEYS),
                       ("context_length", _CONTEXT_KEYS), ("vocab_size", ("vocab_size",))):
        bad = next((problems[k] for k in keys if k in problems), None)
        if name not in out and bad:
            out[name] = Fact(None, translate("Facts", "— (unreadable)"), bad)
    return out


def _original_context(cfg: Mapping[str, Any], where: str) -> tuple[int, str] | None:
    """The trained length a RoPE-scaled config keeps (top level, or in rope_parameters / rope_scaling)."""
    for section in (None, "rope_parameters", "rope_scaling"):
        holder = cfg if section is None else cfg.get(section)
        if isinstance(holder, Mapping) and holder.get("original_max_position_embeddings") is not None:
            try:
                value = number(holder["original_max_position_embeddings"], "original_max_position_embeddings",
                               where=where, integer=True, minimum=1, maximum=MAX_LENGTH)
            except CheckpointError:
                return None
            return value, f"{where} {section + '.' if section else ''}original_max_position_embeddings"
    return None


# ---- GGUF metadata --------------------------------------------------------------------------------

def _from_gguf(md: Mapping[str, Any], tensors: Mapping[str, TensorInfo]) -> dict[str, Fact]:
    arch = md.get("general.architecture")
    if not isinstance(arch, str) or not arch:
        return {}
    out: dict[str, Fact] = {}

    def fact(name: str, key: str, maximum: float = MAX_LENGTH) -> int | None:
        value = md.get(f"{arch}.{key}")
        if isinstance(value, list):  # per-layer lists (OpenELM): show the range
            try:
                values = [number(v, key, where="GGUF metadata", integer=True, minimum=0, maximum=maximum)
                          for v in value]
            except CheckpointError:
                return None
            if values:
                lo, hi = min(values), max(values)
                out[name] = Fact(values, f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,} (per layer)",
                                 f"GGUF {arch}.{key}")
            return None
        if value is None:
            return None
        try:
            got = number(value, key, where="GGUF metadata", integer=True, minimum=1, maximum=maximum)
        except CheckpointError:
            return None
        out[name] = Fact(got, f"{got:,}", f"GGUF {arch}.{key}")
        return got

    fact("layers", "block_count")
    heads = fact("heads", "attention.head_count", MAX_HEADS)
    kv = fact("kv_heads", "attention.head_count_kv", MAX_HEADS)
    if kv is None and heads is not None and "kv_heads" not in out:
        out["kv_heads"] = Fact(heads, f"{heads:,}", f"= heads (no {arch}.attention.head_count_kv)")
    hidden = fact("hidden_size", "embedding_length", 1 << 24)
    head_dim = fact("head_dim", "attention.key_length", 1 << 20)
    if head_dim is None and hidden and heads and hidden % heads == 0:
        out["head_dim"] = Fact(hidden // heads, f"{hidden // heads:,}", translate("Facts", "hidden size ÷ heads"))
    context = fact("context_length", "context_length")
    original = md.get(f"{arch}.rope.scaling.original_context_length")
    if context is not None and isinstance(original, int) and 0 < original != context:
        out["context_length"] = Fact(context, _trained_at(context, original),
                                     f"GGUF {arch}.context_length; {arch}.rope.scaling.original_context_length")
    fact("vocab_size", "vocab_size")
    return out


# ---- storage --------------------------------------------------------------------------------------

def _storage(ckpt: Checkpoint) -> Fact | None:
    """dtype / quantization: the file type of a GGUF, the config's quantization or dtype, and the
    tensors' own types by share of elements."""
    weights = {n: t for n, t in ckpt.tensors.items() if _is_weight(n, t, ckpt.format)}
    share = _dtype_shares(weights or ckpt.tensors)
    md = ckpt.gguf_metadata or {}
    if ckpt.format == "gguf":
        file_type = md.get("general.file_type")
        name = _gguf_file_type(file_type)
        counts = Counter(t.dtype for t in ckpt.tensors.values())
        listed = ", ".join(f"{dtype} ×{n}" for dtype, n in counts.most_common())
        head = (translate("Facts", "{name} (GGUF file type {number})").format(name=name, number=file_type) if name
                else (share or "GGUF"))
        return Fact(name or share, translate("Facts", "{type}; tensors {listed}").format(type=head, listed=listed)
                    if listed else head, translate("Facts", "GGUF general.file_type and the tensor types"))
    cfg = ckpt.config or {}
    quant = cfg.get("quantization_config")
    if isinstance(quant, Mapping):
        method = quant.get("quant_method")
        bits = quant.get("bits") or ("4" if quant.get("load_in_4bit") else "8" if quant.get("load_in_8bit") else None)
        text = f"{method or 'quantized'}{f' {bits}-bit' if bits else ''}"
        return Fact(text, f"{text}; stored {share}" if share else text, "config.json quantization_config")
    declared = cfg.get("dtype", cfg.get("torch_dtype"))
    if share:
        source = translate("Facts", "tensor headers")
        if isinstance(declared, str):
            source += f" (config.json says {'dtype' if 'dtype' in cfg else 'torch_dtype'} {declared})"
        return Fact(share.split(" ")[0], share, source)
    if isinstance(declared, str):
        return Fact(declared, declared, f"config.json {'dtype' if 'dtype' in cfg else 'torch_dtype'}")
    return None


def _dtype_shares(tensors: Mapping[str, TensorInfo]) -> str:
    """"F32", or "BF16 (97%), F32 (3%)" by share of elements."""
    by_type: Counter[str] = Counter()
    for t in tensors.values():
        by_type[t.dtype] += t.numel
    total = sum(by_type.values())
    if not total:
        return ""
    if len(by_type) == 1:
        return next(iter(by_type))
    return ", ".join(f"{dtype} ({n / total:.0%})" for dtype, n in by_type.most_common(3))


def _gguf_file_type(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    from gguf.constants import LlamaFileType

    try:
        return LlamaFileType(value).name.removeprefix("MOSTLY_").removeprefix("ALL_")
    except ValueError:
        return None


def _is_weight(name: str, t: TensorInfo, fmt: str) -> bool:
    """A trained weight: a float tensor (any GGUF type but integers) that is not a saved buffer."""
    if _BUFFERS.search(name) or t.dtype in _INTEGER_DTYPES:
        return False
    return fmt == "gguf" or t.dtype in _FLOAT_DTYPES


def _parameters(tensors: Mapping[str, TensorInfo], fmt: str) -> Fact:
    counted = skipped = 0
    for name, t in tensors.items():
        if _is_weight(name, t, fmt):
            counted += t.numel
        else:
            skipped += 1
    note = ("; " + translate("Facts", "{n} buffer/integer tensor(s) not counted").format(n=skipped)) if skipped else ""
    return Fact(counted, f"{counted:,} ({_short(counted)})",
                translate("Facts", "elements of the stored weight tensors (tied weights stored once)") + note)


def _file_size(tensors: Mapping[str, TensorInfo]) -> Fact:
    files = sorted({t.file for t in tensors.values() if t.file})
    total = 0
    for f in files:
        try:
            total += os.path.getsize(f)
        except OSError:
            pass
    where = os.path.basename(files[0]) if len(files) == 1 else \
        translate("Facts", "{n} weight files").format(n=len(files))
    return Fact(total, translate("Facts", "{size} ({n} bytes)").format(size=human_bytes(total), n=f"{total:,}"), where)


def _encoder_decoder(encoder: int, decoder: int) -> str:
    return translate("Facts", "{encoder} encoder + {decoder} decoder").format(encoder=encoder, decoder=decoder)


def _trained_at(context: int, original: int) -> str:
    return translate("Facts", "{context} (trained at {original})").format(context=f"{context:,}", original=f"{original:,}")


def _short(n: int) -> str:
    for unit, size in (("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return str(n)
