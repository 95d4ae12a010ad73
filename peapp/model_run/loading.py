"""Load a checkpoint into a runnable transformers model and its own tokenizer.

transformers is imported here, lazily, inside the functions: importing :mod:`peapp.model_run`
(and everything else in peapp) never pays for it.  A Hugging Face folder is read by transformers
(safetensors, sharded, or ``pytorch_model.bin`` through its ``torch.load(weights_only=True)``);
a GGUF file is converted once by transformers' own GGUF code (its key and tensor-name mappings,
the llama q/k permutation, ``gguf``'s dequantisation) reading peapp's checked header walk instead
of ``gguf.GGUFReader`` (:mod:`peapp.model_run.gguf_fields`), and cached as safetensors in the user
cache folder, keyed by the file's SHA-256, so later opens read the cache.
:func:`preload_runtime` imports torch and transformers ahead of time (most of a cached open).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from peapp import model_types
from peapp.i18n import Message, msg, shown, translate
from peapp.device import resolve_device
from peapp.errors import CheckpointError, PeappError, SizeError
from peapp.jobs import Cancelled
from peapp.libraries import GGUF_LIBRARIES, RUN_LIBRARIES, missing_library, require
from peapp.memory import available_bytes, human_bytes

# Dequantised float32 is this many times a quantised GGUF file at most (4-bit types: ≈ 7.1×);
# conversion holds the dequantised tensors and the model at once.
_GGUF_EXPANSION = 8
_CONVERT_COPIES = 2
_HASH_CHUNK = 8 * 1024 * 1024
_CACHE_FORMAT = 1

ProgressFn = Callable[[float], None]


@dataclass
class LoadedModel:
    """A model ready to run: the transformers module, its tokenizer and what peapp knows of it."""

    model: Any  # transformers PreTrainedModel, eval mode, in ``dtype``
    tokenizer: Any  # tokenizers.Tokenizer
    path: str
    family: str  # config.model_type
    architecture: str
    device: str
    causal: bool
    scheme: str  # "rope" (some or all layers) | "alibi" | "learned_absolute" | "none"
    trained_context: int | None
    source: str  # "folder" | "gguf (converted now)" | "gguf (cache)"
    cache_folder: str | None = None
    load_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    route: str = "attention function"  # or "hooks" (peapp.model_run.hook_route)
    dtype: str = "float32"  # the weights' dtype (peapp.model_run.placement)
    placement: str = ""  # accelerate's device map in words, when --device auto spread the model
    choices: list[str] = field(default_factory=list)  # what dtype / device auto chose, and why (information)

    @property
    def config(self):
        return self.model.config


def default_cache_dir() -> str:
    """The user cache folder for converted models: XDG_CACHE_HOME (Linux), Library/Caches
    (macOS), LOCALAPPDATA (Windows); PEAPP_CACHE_DIR overrides."""
    if os.environ.get("PEAPP_CACHE_DIR"):
        return os.environ["PEAPP_CACHE_DIR"]
    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    elif os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "peapp", "models")


def preload_runtime() -> None:
    """Import torch, transformers and its model-loading code now (4–7 s of CPU here, most of a
    cached open), e.g. on a worker thread when the run panel first shows; later opens skip it."""
    import transformers
    import transformers.modeling_utils  # noqa: F401  # from_pretrained's machinery

    from peapp.model_run.attention_hook import install

    install()


def _models_folder() -> str | None:
    import importlib.util

    spec = importlib.util.find_spec("transformers")
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.join(next(iter(spec.submodule_search_locations)), "models")


@functools.lru_cache(maxsize=1)
def registry_families() -> tuple[str, ...]:
    """Every transformers model folder whose model class supports attention backends (uses
    the attention-function registry), found by reading the installed sources, not importing."""
    import importlib.util

    spec = importlib.util.find_spec("transformers")
    if spec is None or not spec.submodule_search_locations:
        return ()
    models = os.path.join(next(iter(spec.submodule_search_locations)), "models")
    found = []
    for name in sorted(os.listdir(models)):
        source = os.path.join(models, name, f"modeling_{name}.py")
        try:
            with open(source, encoding="utf-8") as fh:
                if "_supports_attention_backend = True" in fh.read():
                    found.append(name)
        except OSError:
            continue
    return tuple(found)


def supported_message(family: str, why: str) -> str:
    """The one line a model that cannot run gets: what it is, why, and what to do."""
    return translate("ModelLoading", "cannot run this {family} model: {why}.").format(family=family, why=why)


def _check(progress: ProgressFn | None, cancelled: Callable[[], bool] | None, fraction: float) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled()
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)))


def file_sha256(path: str, progress=None, cancelled=None, start: float = 0.0, stop: float = 0.1) -> str:
    """SHA-256 of a regular file (a FIFO or a device is refused, not read for ever)."""
    from peapp.safe_open import open_regular

    digest, done = hashlib.sha256(), 0
    with open_regular(path, "weights", CheckpointError) as fh:
        size = max(1, os.fstat(fh.fileno()).st_size)
        while chunk := fh.read(_HASH_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            _check(progress, cancelled, start + (stop - start) * done / size)
    return digest.hexdigest()


def _refuse_if_too_big(nbytes: int, what: str, budget: int | None, parameters: int | None = None,
                       dtype: str = "float32") -> None:
    """SizeError when ``nbytes`` exceed the budget; for a model's weights (``parameters`` in
    ``dtype``), it says which narrower dtype would fit."""
    from peapp.model_run.placement import fitting_dtype

    limit = budget if budget is not None else available_bytes() // 2
    if nbytes > limit:
        narrower = fitting_dtype(parameters, limit, dtype) if parameters else None
        advice = (f"run it in {narrower} (--dtype {narrower}, {human_bytes(parameters * 2)}), " if narrower and parameters
                  else "")
        raise SizeError(f"{what} needs about {human_bytes(nbytes)}, more than the {human_bytes(limit)} this "
                        f"machine can spare: {advice}close other programs, or use a smaller model.")


def load_model(path: str | os.PathLike, device: str = "cpu", cache_dir: str | None = None,
               progress: ProgressFn | None = None, cancelled: Callable[[], bool] | None = None,
               memory_budget: int | None = None, verify: bool = True, dtype: str = "float32",
               max_memory: str | dict | None = None) -> LoadedModel:
    """Load a Hugging Face folder or a ``.gguf`` file for running (see the module docstring).

    ``dtype`` (auto, float32, bfloat16, float16) and ``device`` (cpu, cuda, cuda:N, mps, auto with
    accelerate's ``max_memory``) are resolved by :func:`peapp.model_run.placement.resolve`.
    Refuses, before loading, a model whose weights in that dtype exceed ``memory_budget`` (default
    half the available memory; not checked where ``device="auto"`` lets accelerate offload), an
    encoder-decoder, and any file ``peapp inspect`` refuses.  The model is placed first, then its
    route is decided on that device (peapp's attention function, or the hooks route).  ``verify``: run 12 tokens through peapp's attention and
    transformers' eager one and refuse if they differ (a family that passes position through
    the attention mask would).  A library it needs that is missing raises
    :class:`peapp.libraries.MissingLibraryError` (which one, and how to get it)."""
    from peapp.model_run import placement as placing
    from peapp.model_run.malloc import fix_mmap_threshold

    fix_mmap_threshold()  # long runs' block buffers would fragment glibc's heap (see peapp.model_run.malloc)
    started = time.perf_counter()
    path = os.fspath(path)
    placing.check_dtype(dtype)
    if device != "auto":
        resolve_device(device)  # an unknown device is refused before anything is read
    require(*RUN_LIBRARIES)  # before the class check: without transformers it would call llama unsupported
    if not os.path.exists(path):
        raise CheckpointError(translate("ModelLoading", "{path} does not exist: give a model folder or a .gguf file.").format(
            path=path))
    if os.path.isdir(path):
        _check_folder_files(path)
        ggufs = [f for f in os.listdir(path) if f.lower().endswith(".gguf")]
        has_weights = any(os.path.exists(os.path.join(path, f)) for f in (
            "model.safetensors", "model.safetensors.index.json", "pytorch_model.bin", "pytorch_model.bin.index.json"))
        if not has_weights and len(ggufs) == 1:
            path = os.path.join(path, ggufs[0])
    try:
        if path.lower().endswith(".gguf"):
            require(*GGUF_LIBRARIES)  # transformers says only "accelerate is required" (a ValueError)
            where = placing.resolve(dtype, device, None, max_memory)
            loaded = _load_gguf(path, where, cache_dir, progress, cancelled, memory_budget)
        elif os.path.isdir(path):
            where = placing.resolve(dtype, device, _own_dtype_of(path), max_memory)
            loaded = _load_folder(path, where, progress, cancelled, memory_budget, source="folder")
        else:
            raise CheckpointError(f"{path}: running needs a Hugging Face model folder (config.json with its "
                                  f"weights and tokenizer) or a .gguf file.")
    except ImportError as exc:  # a module a library of these needs (transformers re-raises it as its own)
        missing = missing_library(exc)
        if missing is None:
            raise
        raise missing from exc
    if verify and loaded.route != "hooks" and not (loaded.source == "gguf (cache)"
                                                   and _cache_verified(loaded.cache_folder)):
        _verify(loaded)
        if loaded.source == "gguf (converted now)":
            _mark_verified(loaded.cache_folder)
    _check(progress, cancelled, 1.0)
    loaded.load_seconds = time.perf_counter() - started
    loaded.choices = list(where.notes)
    return loaded


def _own_dtype_of(folder: str) -> dict[str, Any] | None:
    """config.json's dtype entries (for ``dtype="auto"`` on a GPU); None if it cannot be read."""
    try:
        cfg = _config_of_folder(folder)
    except CheckpointError:
        return None  # _load_folder's own refusal says what is wrong
    return {k: cfg.get(k) for k in ("torch_dtype", "dtype")}


#: The files transformers and tokenizers may open in a model folder (by suffix): each must be a
#: regular file, or a FIFO would block the load and /dev/zero would be read until memory runs out.
_FOLDER_SUFFIXES = (".json", ".txt", ".model", ".safetensors", ".bin", ".gguf", ".jinja")


def _check_folder_files(folder: str) -> None:
    import stat

    from peapp.safe_open import _describe_mode

    try:
        names = os.listdir(folder)
    except OSError as exc:
        raise CheckpointError(f"cannot list {folder}: {exc.strerror or exc}.") from None
    for name in names:
        if not name.lower().endswith(_FOLDER_SUFFIXES):
            continue
        full = os.path.join(folder, name)
        try:
            mode = os.stat(full).st_mode  # a symlink is followed: what it points at counts
        except OSError:
            continue  # a dangling link: transformers' own error names it if it needs the file
        if not stat.S_ISREG(mode):
            raise CheckpointError(translate("ModelLoading", "{path} is {what}, not a file: peapp reads regular files "
                                            "only; replace it with the real file.").format(
                path=full, what=_describe_mode(mode)))


def _is_panic(exc: BaseException) -> bool:
    """The tokenizers / safetensors libraries' Rust panics (pyo3's PanicException derives from
    BaseException, so ``except Exception`` lets it through)."""
    return type(exc).__name__ == "PanicException"


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200] + ("…" if len(text) > 200 else "")


@contextlib.contextmanager
def checkpoint_faults(path: str, what: Message):
    """An error transformers, torch, safetensors or tokenizers raise on a broken checkpoint
    becomes one CheckpointError line naming the file and the fault.  peapp's own errors, a
    cancel, running out of memory and Ctrl-C pass unchanged."""
    try:
        yield
    except (PeappError, Cancelled, MemoryError, KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except ImportError as exc:  # e.g. a quantization_config whose library is not installed
        raise CheckpointError(translate("ModelLoading", "{path}: {what} needs a library that is not installed "
                                        "({problem}); install it, or use an unquantised checkpoint.").format(
            path=path, what=shown(what), problem=_first_line(exc))) from None
    except BaseException as exc:
        if not (isinstance(exc, Exception) or _is_panic(exc)):
            raise
        raise CheckpointError(translate("ModelLoading", "{path}: {what} failed ({problem}); the checkpoint is "
                                        "damaged or its files do not belong together.").format(
            path=path, what=shown(what), problem=f"{type(exc).__name__}: {_first_line(exc)}")) from None


_LAYER_INDEX = re.compile(r"(?:^|\.)(?:layers|layer|h|blocks|block|blk)\.(\d+)\.")


def _layers_in_tensors(names) -> int | None:
    """How many numbered layers (``layers.N.``, ``h.N.``, ``layer.N.``, ``blk.N.``) the weights hold."""
    found = [int(m.group(1)) for m in map(_LAYER_INDEX.search, names) if m]
    return max(found) + 1 if found else None


def _config_int(cfg: dict[str, Any], *keys: str) -> int | None:
    for key in keys:
        value = cfg.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _check_config_claims(cfg_path: str, cfg: dict[str, Any], tensor_names) -> None:
    """What config.json claims against the tensors that exist, before transformers builds anything:
    200,000 layers over 2 stored ones would be built (and allocated) layer by layer."""
    layers = _config_int(cfg, "num_hidden_layers", "n_layer", "num_layers", "n_layers")
    found = _layers_in_tensors(tensor_names)
    if layers is not None and found is not None and layers > found:
        raise CheckpointError(translate("ModelLoading", "{path} says {claimed} layers but the weights hold {found}: "
                                        "the config does not belong to these weights; fix num_hidden_layers.").format(
            path=cfg_path, claimed=f"{layers:,}", found=f"{found:,}"))
    width = _config_int(cfg, "hidden_size", "n_embd", "d_model", "dim")
    heads = _config_int(cfg, "num_attention_heads", "n_head", "num_heads", "n_heads")
    if width and heads is not None and heads < 1:
        raise CheckpointError(translate("ModelLoading", "{path} says {heads} attention heads; fix "
                                        "num_attention_heads.").format(path=cfg_path, heads=heads))
    if width and heads and cfg.get("head_dim") is None and width % heads:
        raise CheckpointError(translate("ModelLoading", "{path}: {heads} attention heads do not divide the width "
                                        "{width}; fix num_attention_heads or hidden_size.").format(
            path=cfg_path, heads=heads, width=width))


def _check_built_shapes(folder: str, cls, config, ckpt, budget, where) -> None:
    """Build the model on torch's meta device (no memory) and compare each parameter with the
    stored tensor of that name; refuse a config whose model would not fit, with the estimate."""
    import torch

    with checkpoint_faults(os.path.join(folder, "config.json"), msg("ModelLoading", "building the model from config.json")), \
            torch.device("meta"), _quiet_transformers():
        model = cls._from_config(config)
    stored = ckpt.tensors
    prefix = getattr(model, "base_model_prefix", "") or ""
    total = 0
    for name, param in model.state_dict().items():
        total += param.numel()
        info = stored.get(name)
        if info is None and prefix and name.startswith(prefix + "."):
            info = stored.get(name[len(prefix) + 1:])
        if info is None and prefix:
            info = stored.get(f"{prefix}.{name}")
        if info is not None and tuple(info.shape) != tuple(param.shape):
            raise CheckpointError(translate("ModelLoading", "{folder}: tensor {name} is {stored} in the weights but "
                                            "config.json makes it {built}: the config does not belong to these "
                                            "weights.").format(
                folder=folder, name=name, stored="×".join(map(str, info.shape)) or "a scalar",
                built="×".join(map(str, param.shape)) or "a scalar"))
    if where.device_map is None:  # accelerate offloads what does not fit
        _refuse_if_too_big(total * where.bytes_per_parameter, f"the model config.json describes ({total:,} "
                           f"parameters in {where.dtype})", budget, total, where.dtype)


def _config_of_folder(folder: str) -> dict[str, Any]:
    from peapp.checkpoints.reader import read_json

    cfg_path = os.path.join(folder, "config.json")
    if not os.path.exists(cfg_path):
        raise CheckpointError(translate("ModelLoading", "{folder} has no config.json: transformers needs it to build the "
                                           "model.").format(folder=folder))
    return read_json(cfg_path, "config")


def _load_folder(folder: str, where, progress, cancelled, budget, source: str,
                 tokenizer: Any = None, gguf_path: str | None = None) -> LoadedModel:
    from peapp.checkpoints.reader import open_checkpoint

    _check_folder_files(folder)
    cfg = _config_of_folder(folder)
    family = str(cfg.get("model_type") or "unknown")
    _check_family_by_name(family, cfg)
    ckpt = open_checkpoint(folder)  # the same refusals as `peapp inspect` (safe loading only)
    parameters = sum(t.numel for t in ckpt.tensors.values())
    if where.device_map is None:  # accelerate offloads what does not fit
        _refuse_if_too_big(parameters * where.bytes_per_parameter, f"{family} with {parameters:,} parameters in "
                           f"{where.dtype}", budget, parameters, where.dtype)
    cfg_path = os.path.join(folder, "config.json")
    _check_config_claims(cfg_path, cfg, ckpt.tensors)
    _check(progress, cancelled, 0.3)
    import transformers

    with checkpoint_faults(cfg_path, msg("ModelLoading", "reading config.json")):
        config = transformers.AutoConfig.from_pretrained(folder)
    cls = _model_class(config, cfg_path)
    _check_built_shapes(folder, cls, config, ckpt, budget, where)
    from peapp.model_run.placement import placement_arguments

    with checkpoint_faults(folder, msg("ModelLoading", "loading the weights")), _quiet_transformers():
        model = cls.from_pretrained(folder, dtype=where.torch_dtype(), attn_implementation="eager",
                                    **placement_arguments(where))
    _check(progress, cancelled, 0.8)
    if tokenizer is None:
        tokenizer = _folder_tokenizer(folder)
    return _finish(model, tokenizer, gguf_path or folder, where, source)


def _check_family_by_name(family: str, cfg: dict[str, Any]) -> None:
    if cfg.get("is_encoder_decoder"):
        raise CheckpointError(supported_message(family, translate(
            "ModelLoading", "encoder-decoder models (cross-attention) are not run; open a decoder-only or "
                            "encoder-only checkpoint")))


def _model_class(config, cfg_path: str = "config.json"):
    import transformers

    cls: Any = None
    for name in getattr(config, "architectures", None) or ():
        cls = getattr(transformers, str(name), None) if str(name).isidentifier() else None
        if cls is None:
            continue  # a class this transformers lacks: the family's own class below
        if not (isinstance(cls, type) and issubclass(cls, transformers.PreTrainedModel)):
            raise CheckpointError(translate("ModelLoading", "{path}: architectures names {name}, which is not a "
                                            "transformers model class; fix the entry (e.g. LlamaForCausalLM) or "
                                            "remove it.").format(path=cfg_path, name=repr(name)))
        break
    else:
        cls = (transformers.AutoModelForCausalLM if config.model_type in transformers.models.auto.modeling_auto
               .MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and not _is_encoder(config) else transformers.AutoModel)
        cls = cls._model_mapping[type(config)] if hasattr(cls, "_model_mapping") else cls
    return cls


def _is_encoder(config) -> bool:
    return model_types.get(config.model_type).encoder


def _folder_tokenizer(folder: str):
    import tokenizers

    from peapp.safe_open import read_text

    tok_json = os.path.join(folder, "tokenizer.json")
    if os.path.exists(tok_json):
        text = read_text(tok_json, "tokenizer", CheckpointError)  # a FIFO or /dev/zero: refused, not read
        with checkpoint_faults(tok_json, msg("ModelLoading", "reading the tokenizer")):
            return tokenizers.Tokenizer.from_str(text)
    import transformers

    try:  # vocab.txt / vocab.json + merges.txt: transformers converts them to a fast tokenizer
        with _quiet_transformers():
            fast = transformers.AutoTokenizer.from_pretrained(folder)
    except BaseException as exc:
        if not (isinstance(exc, Exception) or _is_panic(exc)) or isinstance(exc, (PeappError, Cancelled)):
            raise
        raise CheckpointError(f"{folder} has no tokenizer transformers can read ({type(exc).__name__}: "
                              f"{_first_line(exc)[:160]}); add its tokenizer.json.") from None
    backend = getattr(fast, "backend_tokenizer", None) or getattr(fast, "_tokenizer", None)
    if backend is None:
        raise CheckpointError(translate("ModelLoading", "{folder}: its tokenizer has no fast (tokenizers) form; add a "
                                           "tokenizer.json.").format(folder=folder))
    return backend


def _finish(model, tokenizer, path: str, where, source: str) -> LoadedModel:
    from peapp.model_run.attention_hook import ATTENTION_NAME, install
    from peapp.model_run.layers import rotary_modules, uses_alibi
    from peapp.model_run.placement import describe_map

    install()
    model.eval()
    spread = describe_map(model)
    if getattr(model, "hf_device_map", None) is None:
        model.to(where.device)  # (not .to(dtype): buffers such as RoPE's inv_freq stay float32)
        device = where.device
    else:  # accelerate placed each module (and moves the activations between them)
        device = str(model.get_input_embeddings().weight.device)
        device = "cpu" if device == "meta" else device
    # the class says whether its attention goes through transformers' attention-function registry;
    # a class that does not declare it may still call it (StableLM): every layer calling it decides
    model.set_attn_implementation(ATTENTION_NAME)
    route = "attention function"
    if not type(model).is_backend_compatible() and not _every_layer_calls_registry(model, device):
        from peapp.model_run.hook_route import attention_modules

        model.set_attn_implementation("eager")
        route = "hooks"
        attention_modules(model)  # refuses, now, a model whose layers the hooks cannot find
    cfg = model.config
    family = cfg.model_type
    causal = _is_causal(model)
    if uses_alibi(cfg):
        scheme = "alibi"
    elif rotary_modules(model):
        scheme = "rope"
    else:
        scheme = "learned_absolute" if model_types.get(family).position_table else "none"
    trained = getattr(cfg, "max_position_embeddings", None) or getattr(cfg, "n_positions", None)
    rope_params = getattr(cfg, "rope_parameters", None) or {}
    if isinstance(rope_params, dict) and rope_params.get("original_max_position_embeddings"):
        trained = rope_params["original_max_position_embeddings"]
    tokenizer = CheckedTokenizer(tokenizer, path, int(getattr(cfg, "vocab_size", 0) or 0))
    return LoadedModel(model=model, tokenizer=tokenizer, path=path, family=family,
                       architecture=type(model).__name__, device=device, causal=causal, scheme=scheme,
                       trained_context=int(trained) if trained else None, source=source, route=route,
                       dtype=where.dtype, placement=spread)


def _every_layer_calls_registry(model, device: str) -> bool:
    """Does a 4-token forward pass call peapp's attention function once per layer?"""
    import torch

    from peapp.model_run.attention_hook import STRATEGY, Counting, relay_strategy
    from peapp.model_run.hook_route import decoder_layers

    layers = int(getattr(model.config, "num_hidden_layers", None) or getattr(model.config, "n_layer", 0) or 0)
    vocab = max(2, int(getattr(model.config, "vocab_size", 2) or 2))
    ids = (torch.arange(4, device=device) % (vocab - 1) + 1).unsqueeze(0)

    def every_layer() -> bool:
        counting = Counting()
        with torch.no_grad():
            model(input_ids=ids, **{STRATEGY: counting})
        calls = counting.calls
        return layers > 0 and len(calls) == layers and len({id(m) for m in calls}) == layers

    relays: list = []
    try:
        if every_layer():
            return True
        # layers that drop the forward's keyword arguments (StableLM) relay the strategy themselves
        relays = relay_strategy(decoder_layers(model))
        if every_layer():
            relays = []  # kept
            return True
    except MemoryError:
        raise
    except Exception:  # a class that cannot run this way takes the hooks route
        pass
    finally:
        for handle in relays:
            handle.remove()
    return False


def _is_causal(model) -> bool:
    """Causal unless the model's attention modules say they are not (``is_causal = False``:
    BERT and its family, ModernBERT); modules without the attribute (BLOOM, MPT) are causal."""
    flags = [bool(m.is_causal) for name, m in model.named_modules()
             if type(m).__name__.endswith("Attention") and isinstance(getattr(m, "is_causal", None), bool)]
    return all(flags) if flags else not _is_encoder(model.config)


class CheckedTokenizer:
    """A ``tokenizers.Tokenizer`` whose ``encode`` turns the library's failures on a broken
    tokenizer into one CheckpointError naming the checkpoint: a catastrophic regex makes it panic
    (pyo3's PanicException derives from BaseException), and ids past the model's vocabulary would
    index past its embedding table.  Everything else is the tokenizer's own."""

    def __init__(self, tokenizer, path: str, vocab_size: int):
        self._tokenizer, self._path, self._vocab_size = tokenizer, path, vocab_size

    def __getattr__(self, name: str):
        return getattr(self._tokenizer, name)

    def encode(self, *args, **kwargs):
        try:
            encoding = self._tokenizer.encode(*args, **kwargs)
        except BaseException as exc:
            if not (_is_panic(exc) or isinstance(exc, Exception)) or isinstance(exc, (PeappError, Cancelled)):
                raise
            raise CheckpointError(translate("ModelLoading", "{path}: its tokenizer failed on this text ({problem}); "
                                            "its tokenizer is broken: replace it with the model's own "
                                            "tokenizer.json.").format(
                path=self._path, problem=f"{type(exc).__name__}: {_first_line(exc)}")) from None
        ids = encoding.ids
        if self._vocab_size and ids and max(ids) >= self._vocab_size:
            raise CheckpointError(translate("ModelLoading", "{path}: its tokenizer gives token id {id} but the model "
                                            "has only {vocab} embeddings; the tokenizer does not belong to this "
                                            "model.").format(path=self._path, id=f"{max(ids):,}",
                                                             vocab=f"{self._vocab_size:,}"))
        return encoding


@contextlib.contextmanager
def _quiet_transformers():
    """transformers' progress bars and info logs off while loading (they go to the terminal)."""
    from transformers.utils import logging as hf_logging

    before = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    tqdm_before = os.environ.get("TQDM_DISABLE")
    os.environ["TQDM_DISABLE"] = "1"  # the GGUF converter's own tqdm bar
    try:
        yield
    finally:
        if tqdm_before is None:
            os.environ.pop("TQDM_DISABLE", None)
        else:
            os.environ["TQDM_DISABLE"] = tqdm_before
        hf_logging.set_verbosity(before)
        if bars:
            hf_logging.enable_progress_bar()


# --- GGUF -------------------------------------------------------------------------------------

def _load_gguf(path, where, cache_dir, progress, cancelled, budget) -> LoadedModel:
    from peapp.checkpoints import gguf_format
    from peapp.safe_open import open_regular

    from peapp.model_run.gguf_fields import Fields

    with open_regular(path, "weights", CheckpointError) as fh:  # a FIFO or a device: refused, not read
        if fh.read(4) != gguf_format.MAGIC:
            raise CheckpointError(translate("ModelLoading", "{path} is not a GGUF file.").format(path=path))
        size = os.fstat(fh.fileno()).st_size
    digest = file_sha256(path, progress, cancelled, 0.0, 0.1)
    root = cache_dir or default_cache_dir()
    _remove_stale_partials(root)
    # keyed by dtype too: float32 keeps the name it always had, so existing caches still open
    folder = os.path.join(root, f"gguf-{digest[:40]}" + ("" if where.dtype == "float32" else f"-{where.dtype}"))
    notes: list[str] = []
    problem = _cache_problem(folder, digest, progress, cancelled, where.dtype)
    if problem is None:  # written after these very bytes passed the checks below, and unchanged since
        try:
            loaded = _load_folder(folder, where, progress, cancelled, budget, source="gguf (cache)", gguf_path=path)
        except CheckpointError as exc:
            problem = str(exc)
        else:
            loaded.cache_folder = folder
            return loaded
    if problem != _NO_CACHE:
        notes.append(translate("ModelLoading", "the cached conversion in {folder} was unusable ({problem}); "
                               "converted {path} again.").format(folder=folder, problem=problem, path=path))
    fields = Fields(path)  # the same header walk and refusals as `peapp inspect`
    _check_gguf_claims(path, fields)
    # the float32 expansion, scaled to the chosen dtype
    _refuse_if_too_big(size * _GGUF_EXPANSION * _CONVERT_COPIES * where.bytes_per_parameter // 4,
                       f"dequantising this {human_bytes(size)} GGUF file to {where.dtype}", budget)
    model, tokenizer = _convert_gguf(path, fields, progress, cancelled, where)
    # transformers' GGUF reading leaves reference cycles behind (SmolLM2: 95 MB in either dtype, no
    # weights among them, measured): freed now rather than at some later collection
    gc.collect()
    written = _write_cache(folder, digest, path, model, tokenizer, where.dtype)
    if written is not None:
        notes.append(written)
    loaded = _finish(model, tokenizer, path, where, "gguf (converted now)")
    loaded.cache_folder = folder if written is None else None
    loaded.notes.extend(notes)
    return loaded


def _check_gguf_claims(path: str, fields) -> None:
    """The widths and layer count a GGUF header claims against the tensors it holds (transformers
    builds the model from the header: 65,536 wide over 16-wide tensors would allocate gigabytes)."""
    meta = fields.metadata
    arch = meta.get("general.architecture")
    if not isinstance(arch, str):
        return  # transformers' own refusal names the missing architecture
    shapes = {t.name: tuple(int(d) for d in reversed(t.shape)) for t in fields.tensors}  # numpy order
    embed = shapes.get("token_embd.weight")
    width = meta.get(f"{arch}.embedding_length")
    if isinstance(width, int) and embed and embed[-1] != width:
        raise CheckpointError(translate("ModelLoading", "{path}: its header says {claimed} wide but token_embd.weight "
                                        "is {found} wide; the file is damaged or wrongly converted.").format(
            path=path, claimed=f"{width:,}", found=f"{embed[-1]:,}"))
    layers = meta.get(f"{arch}.block_count")
    found = _layers_in_tensors(shapes)
    if isinstance(layers, int) and found is not None and layers > found:
        raise CheckpointError(translate("ModelLoading", "{path}: its header says {claimed} layers but the file holds "
                                        "{found}; the file is damaged or wrongly converted.").format(
            path=path, claimed=f"{layers:,}", found=f"{found:,}"))
    heads = meta.get(f"{arch}.attention.head_count")
    if isinstance(width, int) and isinstance(heads, int) and (heads < 1 or width % heads):
        raise CheckpointError(translate("ModelLoading", "{path}: {heads} attention heads do not divide the width "
                                        "{width}; the file is damaged or wrongly converted.").format(
            path=path, heads=heads, width=width))


# --- the conversion cache ------------------------------------------------------------------------
# A cache entry: config.json, model.safetensors, tokenizer.json and peapp-cache.json, which records
# the SHA-256 of each of the three (verified on every open: weights replaced by other valid weights
# would otherwise run silently).  Entries are written into "<entry>.partial-<pid>" and renamed.
_CACHE_FILES = ("config.json", "model.safetensors", "tokenizer.json")
_NO_CACHE = "no cache entry"
_PARTIAL = ".partial-"
_STALE_PARTIAL_SECONDS = 24 * 3600


def _cache_problem(folder: str, digest: str, progress=None, cancelled=None, dtype: str = "float32") -> str | None:
    """None if ``folder`` is a complete, unchanged cache entry for ``digest``; else what is wrong."""
    if not os.path.lexists(folder):
        return _NO_CACHE
    info = _cache_info(folder)
    if not info:
        return "peapp-cache.json is missing or damaged"
    hashes = info.get("files")
    if info.get("sha256") != digest or info.get("format") != _CACHE_FORMAT or not isinstance(hashes, dict):
        return "peapp-cache.json is from another file or another peapp"
    if info.get("dtype", "float32") != dtype:
        return f"it holds {info.get('dtype')} weights, not {dtype}"
    for i, name in enumerate(_CACHE_FILES):
        full = os.path.join(folder, name)
        expected = hashes.get(name)
        try:
            actual = file_sha256(full, progress, cancelled, 0.1 + 0.1 * i / 3, 0.1 + 0.1 * (i + 1) / 3)
        except CheckpointError as exc:
            return str(exc).rstrip(".")
        if actual != expected:
            return f"{name} changed since it was written"
    return None


def _cache_info(folder: str | None) -> dict[str, Any]:
    from peapp.safe_open import load_json, read_bytes

    try:
        info = load_json(read_bytes(os.path.join(folder or "", "peapp-cache.json"), "config", CheckpointError),
                         "peapp-cache.json", CheckpointError)
    except CheckpointError:
        return {}
    return info if isinstance(info, dict) else {}


def _remove_stale_partials(root: str) -> None:
    """Remove what an interrupted conversion (a kill, a power cut) left: partial folders whose
    process is gone, or older than a day."""
    import shutil

    try:
        names = os.listdir(root)
    except OSError:
        return
    now = time.time()
    for name in names:
        if not (name.startswith("gguf-") and _PARTIAL in name):
            continue
        pid_text = name.rsplit(_PARTIAL, 1)[1]
        full = os.path.join(root, name)
        try:
            old = now - os.lstat(full).st_mtime > _STALE_PARTIAL_SECONDS
        except OSError:
            continue
        if pid_text.isdigit() and int(pid_text) != os.getpid() and not old and _process_alive(int(pid_text)):
            continue  # another peapp is converting into it right now
        shutil.rmtree(full, ignore_errors=True)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _cache_verified(folder: str | None) -> bool:
    """Did these weights pass :func:`_verify` when converted, under this transformers version
    (the check is about the family's attention code, which only a new version could change)?"""
    import transformers

    return _cache_info(folder).get("verified_with") == transformers.__version__


def _mark_verified(folder: str | None) -> None:
    import transformers

    from peapp.fileio import ExportError, atomic_write_text

    info = _cache_info(folder)
    if not info or folder is None:
        return
    info["verified_with"] = transformers.__version__
    try:
        atomic_write_text(os.path.join(folder, "peapp-cache.json"), json.dumps(info, indent=1))
    except (OSError, ExportError):
        pass  # the next open verifies again


@contextlib.contextmanager
def _one_tensor_name_map():
    """transformers 5.24 asks gguf for the same tensor-name map once per submodule (397 times
    for SmolLM2, 0.05 s each); it depends only on (architecture, layers), so compute it once."""
    import gguf

    original = gguf.get_tensor_name_map
    gguf.get_tensor_name_map = functools.lru_cache(maxsize=8)(original)
    try:
        yield
    finally:
        gguf.get_tensor_name_map = original


@contextlib.contextmanager
def _tensor_progress(progress, cancelled, start: float, stop: float):
    """transformers' GGUF converter walks the tensors through its own tqdm bar (on stderr, and
    TQDM_DISABLE is read when tqdm is imported, not later): replaced here by peapp's progress."""
    import transformers.modeling_gguf_pytorch_utils as gguf_utils

    original = gguf_utils.tqdm

    def walk(items, *args, **kwargs):
        items = list(items)
        for i, item in enumerate(items):
            _check(progress, cancelled, start + (stop - start) * i / max(1, len(items)))
            yield item

    with _patch_lock:
        gguf_utils.tqdm = walk
        try:
            yield
        finally:
            gguf_utils.tqdm = original


_patch_lock = threading.RLock()


def _convert_gguf(path: str, fields, progress, cancelled, where):
    """transformers' own GGUF loading (config, dequantised weights, tokenizer), with every
    ``gguf.GGUFReader`` it opens replaced by ``fields`` (peapp's header walk, read once)."""
    from peapp.model_run.gguf_fields import fast_gguf_reader

    with fast_gguf_reader(fields):
        return _convert_gguf_with_transformers(path, progress, cancelled, where)


def _convert_gguf_with_transformers(path: str, progress, cancelled, where):
    import transformers

    folder, name = os.path.split(os.path.abspath(path))
    _check(progress, cancelled, 0.22)
    try:
        with _quiet_transformers():
            config = transformers.AutoConfig.from_pretrained(folder, gguf_file=name)
    except (ValueError, KeyError, NotImplementedError) as exc:
        raise CheckpointError(supported_message(_gguf_arch(exc), f"transformers cannot read this GGUF "
                                                                 f"architecture ({str(exc)[:120]})")) from None
    _check_family_by_name(config.model_type, {"is_encoder_decoder": getattr(config, "is_encoder_decoder", False)})
    cls = _model_class(config, path)
    _check(progress, cancelled, 0.3)
    with checkpoint_faults(path, msg("ModelLoading", "converting the GGUF weights")), _quiet_transformers(), _one_tensor_name_map(), \
            _tensor_progress(progress, cancelled, 0.3, 0.75):
        model = cls.from_pretrained(folder, gguf_file=name, config=config, dtype=where.torch_dtype(),
                                    attn_implementation="eager")  # dequantised straight to the chosen dtype
    _check(progress, cancelled, 0.75)
    with checkpoint_faults(path, msg("ModelLoading", "reading the GGUF tokenizer")), _quiet_transformers():
        fast = transformers.AutoTokenizer.from_pretrained(folder, gguf_file=name)
    _check(progress, cancelled, 0.9)
    return model, fast.backend_tokenizer


def _gguf_arch(exc: Exception) -> str:
    text = str(exc)
    return text.split("architecture")[-1].split()[0] if "architecture" in text else "GGUF"


def _write_cache(folder: str, digest: str, source: str, model, tokenizer, dtype: str = "float32") -> str | None:
    """config.json + model.safetensors + tokenizer.json (+ their SHA-256 in peapp-cache.json),
    written to a temporary folder and renamed, so an interrupted write never looks complete and
    leaves nothing behind.  Every file gets the mode a plain write gives (0666 minus the umask).
    Returns None when cached, else the one-line notice that it was not (a read-only or full
    cache folder: the model still runs, from memory)."""
    import shutil

    from safetensors.torch import save_model

    from peapp.fileio import _umask

    tmp = folder + f"{_PARTIAL}{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        config = model.config.to_dict()
        config.pop("quantization_config", None)
        config.pop("_attn_implementation", None)
        with open(os.path.join(tmp, "config.json"), "w", encoding="utf-8") as fh:
            json.dump(config, fh, indent=1)
        save_model(model, os.path.join(tmp, "model.safetensors"))  # shared (tied) tensors stored once
        tokenizer.save(os.path.join(tmp, "tokenizer.json"))
        hashes = {name: file_sha256(os.path.join(tmp, name)) for name in _CACHE_FILES}
        with open(os.path.join(tmp, "peapp-cache.json"), "w", encoding="utf-8") as fh:
            json.dump({"format": _CACHE_FORMAT, "sha256": digest, "dtype": dtype, "source": os.path.abspath(source),
                       "transformers": __import__("transformers").__version__, "files": hashes}, fh, indent=1)
        mode = 0o666 & ~_umask()
        for name in os.listdir(tmp):  # safetensors writes its file 0600: one mode for the entry
            os.chmod(os.path.join(tmp, name), mode)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(tmp, folder)
    except (OSError, CheckpointError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        reason = getattr(exc, "strerror", None) or str(exc)
        return translate("ModelLoading", "could not cache the converted model in {folder} ({problem}); it runs "
                         "from memory this time (free disk space or set PEAPP_CACHE_DIR to cache it).").format(
            folder=os.path.dirname(folder), problem=reason)
    except BaseException:  # Ctrl-C, a cancel: nothing half-written stays
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return None


def _verify(loaded: LoadedModel) -> None:
    """peapp's attention against transformers' eager attention on 12 tokens (same weights).  In
    float32 the model's outputs are compared; in half precision the first attention layer's
    output (after 30 layers bf16 rounding alone moves SmolLM2's logits 87 % between eager and
    sdpa, measured, while one layer differs by rounding, and a family passing position through
    the mask by O(1))."""
    import torch

    from peapp.model_run.attention_hook import ATTENTION_NAME

    model = loaded.model
    ids = torch.arange(12, dtype=torch.long).remainder(max(2, model.config.vocab_size - 1)).unsqueeze(0) + 1
    ids = ids.to(loaded.device)
    half = loaded.dtype != "float32"
    with torch.no_grad():
        ours = _first_attention_output(model, ids) if half else _main_output(model(input_ids=ids))
        model.set_attn_implementation("eager")
        try:
            theirs = _first_attention_output(model, ids) if half else _main_output(model(input_ids=ids))
        finally:
            model.set_attn_implementation(ATTENTION_NAME)
    scale = float(theirs.abs().max()) or 1.0
    if half:
        ours, theirs = ours.float(), theirs.float()
        close = float((ours - theirs).norm() / (theirs.norm() + 1e-12)) < 0.05
    else:
        close = torch.allclose(ours, theirs, rtol=1e-3, atol=1e-4 * scale)
    if not close:
        raise CheckpointError(supported_message(loaded.family, translate(
            "ModelLoading", "its attention depends on more than q, k and the causal mask (peapp's exact attention "
                            "and transformers' eager one disagree); open it in the other panels")))


def _first_attention_output(model, ids):
    """The output of the first attention module that runs (a forward hook; the model runs on)."""
    seen: list = []

    def keep(module, args, output):
        if not seen:
            seen.append((output[0] if isinstance(output, tuple) else output).detach())

    handles = [m.register_forward_hook(keep) for name, m in model.named_modules()
               if type(m).__name__.endswith("Attention") and hasattr(m, "config")]
    try:
        model(input_ids=ids)
    finally:
        for handle in handles:
            handle.remove()
    if not seen:
        return _main_output(model(input_ids=ids))
    return seen[0]


def _main_output(out):
    logits = getattr(out, "logits", None)
    return logits if logits is not None else out[0]
