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
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from peapp.i18n import translate
from peapp.device import resolve_device
from peapp.errors import CheckpointError, SizeError
from peapp.jobs import Cancelled
from peapp.libraries import GGUF_LIBRARIES, RUN_LIBRARIES, missing_library, require
from peapp.memory import available_bytes, human_bytes

# Families this module is tested on or written for (their transformers classes call the attention
# registry); any other text model whose class supports attention backends runs too.
NAMED_FAMILIES = ("llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi", "phi3", "gpt2",
                  "gpt_neox", "opt", "bert", "roberta", "distilbert")
LEARNED_POSITION_TABLES = {  # model_type → (the table under model.base_model, its row for position 0)
    "gpt2": ("wpe", 0), "bert": ("embeddings.position_embeddings", 0),
    "roberta": ("embeddings.position_embeddings", None),  # offset padding_idx + 1
    "distilbert": ("embeddings.position_embeddings", 0), "opt": ("decoder.embed_positions", 2),
}
ATTENTION_NAME = "peapp_blocks"
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

    model: Any  # transformers PreTrainedModel, eval mode, float32
    tokenizer: Any  # tokenizers.Tokenizer
    path: str
    family: str  # config.model_type
    architecture: str
    device: str
    causal: bool
    scheme: str  # "rope" | "learned_absolute" | "none"
    trained_context: int | None
    source: str  # "folder" | "gguf (converted now)" | "gguf (cache)"
    cache_folder: str | None = None
    load_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

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


@functools.lru_cache(maxsize=64)
def uses_registry(family: str) -> bool:
    """Does transformers' model folder for ``family`` declare attention-backend support (one file
    read; the whole list costs reading every modeling file)."""
    folder, name = _models_folder(), family.replace("-", "_")
    if folder is None or not name.replace("_", "").isalnum():
        return False
    try:
        with open(os.path.join(folder, name, f"modeling_{name}.py"), encoding="utf-8") as fh:
            return "_supports_attention_backend = True" in fh.read()
    except OSError:
        return False


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
    others = len(set(registry_families()) - set(NAMED_FAMILIES))
    return (f"cannot run a {family!r} model: {why}. Supported: {', '.join(NAMED_FAMILIES)}, and {others} more "
            f"transformers text families whose model class uses the attention-function registry "
            f"(peapp.model_run.registry_families() lists them). The other panels still read this checkpoint.")


def _check(progress: ProgressFn | None, cancelled: Callable[[], bool] | None, fraction: float) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled()
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)))


def file_sha256(path: str, progress=None, cancelled=None, start: float = 0.0, stop: float = 0.1) -> str:
    size = max(1, os.path.getsize(path))
    digest, done = hashlib.sha256(), 0
    with open(path, "rb") as fh:
        while chunk := fh.read(_HASH_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            _check(progress, cancelled, start + (stop - start) * done / size)
    return digest.hexdigest()


def _refuse_if_too_big(nbytes: int, what: str, budget: int | None) -> None:
    limit = budget if budget is not None else available_bytes() // 2
    if nbytes > limit:
        raise SizeError(f"{what} needs about {human_bytes(nbytes)}, more than the {human_bytes(limit)} this "
                        f"machine can spare: close other programs, or use a smaller model.")


def load_model(path: str | os.PathLike, device: str = "cpu", cache_dir: str | None = None,
               progress: ProgressFn | None = None, cancelled: Callable[[], bool] | None = None,
               memory_budget: int | None = None, verify: bool = True) -> LoadedModel:
    """Load a Hugging Face folder or a ``.gguf`` file for running (see the module docstring).

    Refuses, before loading, a model whose float32 weights exceed ``memory_budget`` (default half
    the available memory), a family that does not use the attention registry, and any file
    ``peapp inspect`` refuses.  ``verify``: run 12 tokens through peapp's attention and
    transformers' eager one and refuse if they differ (a family that passes position through
    the attention mask would).  A library it needs that is missing raises
    :class:`peapp.libraries.MissingLibraryError` (which one, and how to get it)."""
    started = time.perf_counter()
    path = os.fspath(path)
    device = str(resolve_device(device))  # 'cpu', 'cuda', 'cuda:1', 'mps'
    require(*RUN_LIBRARIES)  # before uses_registry: without transformers it would call llama unsupported
    if not os.path.exists(path):
        raise CheckpointError(translate("ModelLoading", "{path} does not exist: give a model folder or a .gguf file.").format(
            path=path))
    if os.path.isdir(path):
        ggufs = [f for f in os.listdir(path) if f.lower().endswith(".gguf")]
        has_weights = any(os.path.exists(os.path.join(path, f)) for f in (
            "model.safetensors", "model.safetensors.index.json", "pytorch_model.bin", "pytorch_model.bin.index.json"))
        if not has_weights and len(ggufs) == 1:
            path = os.path.join(path, ggufs[0])
    try:
        if path.lower().endswith(".gguf"):
            require(*GGUF_LIBRARIES)  # transformers says only "accelerate is required" (a ValueError)
            loaded = _load_gguf(path, device, cache_dir, progress, cancelled, memory_budget)
        elif os.path.isdir(path):
            loaded = _load_folder(path, device, progress, cancelled, memory_budget, source="folder")
        else:
            raise CheckpointError(f"{path}: running needs a Hugging Face model folder (config.json with its "
                                  f"weights and tokenizer) or a .gguf file.")
    except ImportError as exc:  # a module a library of these needs (transformers re-raises it as its own)
        missing = missing_library(exc)
        if missing is None:
            raise
        raise missing from exc
    if verify and not (loaded.source == "gguf (cache)" and _cache_verified(loaded.cache_folder)):
        _verify(loaded)
        if loaded.source == "gguf (converted now)":
            _mark_verified(loaded.cache_folder)
    _check(progress, cancelled, 1.0)
    loaded.load_seconds = time.perf_counter() - started
    return loaded


def _config_of_folder(folder: str) -> dict[str, Any]:
    from peapp.checkpoints.reader import read_json

    cfg_path = os.path.join(folder, "config.json")
    if not os.path.exists(cfg_path):
        raise CheckpointError(translate("ModelLoading", "{folder} has no config.json: transformers needs it to build the "
                                           "model.").format(folder=folder))
    return read_json(cfg_path, "config")


def _load_folder(folder: str, device: str, progress, cancelled, budget, source: str,
                 tokenizer: Any = None, gguf_path: str | None = None) -> LoadedModel:
    from peapp.checkpoints.reader import open_checkpoint

    cfg = _config_of_folder(folder)
    family = str(cfg.get("model_type") or "unknown")
    _check_family_by_name(family, cfg)
    ckpt = open_checkpoint(folder)  # the same refusals as `peapp inspect` (safe loading only)
    nbytes = sum(t.numel for t in ckpt.tensors.values()) * 4
    _refuse_if_too_big(nbytes, f"{family} with {nbytes // 4:,} parameters in float32", budget)
    _check(progress, cancelled, 0.3)
    import torch
    import transformers

    config = transformers.AutoConfig.from_pretrained(folder)
    cls = _model_class(config)
    with _quiet_transformers():
        model = cls.from_pretrained(folder, dtype=torch.float32, attn_implementation="eager")
    _check(progress, cancelled, 0.8)
    if tokenizer is None:
        tokenizer = _folder_tokenizer(folder)
    return _finish(model, tokenizer, gguf_path or folder, device, source)


def _check_family_by_name(family: str, cfg: dict[str, Any]) -> None:
    if cfg.get("is_encoder_decoder"):
        raise CheckpointError(supported_message(family, "encoder-decoder models (cross-attention) are not run"))
    if not uses_registry(family):
        raise CheckpointError(supported_message(family, "its transformers model does not use the "
                                                        "attention-function registry"))


def _model_class(config):
    import transformers

    for name in getattr(config, "architectures", None) or ():
        cls = getattr(transformers, name, None)
        if cls is not None and hasattr(cls, "from_pretrained"):
            break
    else:
        cls = (transformers.AutoModelForCausalLM if config.model_type in transformers.models.auto.modeling_auto
               .MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and not _is_encoder(config) else transformers.AutoModel)
        cls = cls._model_mapping[type(config)] if hasattr(cls, "_model_mapping") else cls
    if not cls.is_backend_compatible():
        raise CheckpointError(supported_message(config.model_type, f"{cls.__name__} does not support "
                                                                   f"attention backends"))
    return cls


def _is_encoder(config) -> bool:
    return config.model_type in ("bert", "roberta", "distilbert", "xlm-roberta", "electra", "deberta")


def _folder_tokenizer(folder: str):
    import tokenizers

    tok_json = os.path.join(folder, "tokenizer.json")
    if os.path.exists(tok_json):
        try:
            return tokenizers.Tokenizer.from_file(tok_json)
        except Exception as exc:
            raise CheckpointError(f"{tok_json} cannot be read by the tokenizers library: {exc}") from None
    import transformers

    try:  # vocab.txt / vocab.json + merges.txt: transformers converts them to a fast tokenizer
        with _quiet_transformers():
            fast = transformers.AutoTokenizer.from_pretrained(folder)
    except Exception as exc:
        raise CheckpointError(f"{folder} has no tokenizer transformers can read ({type(exc).__name__}: "
                              f"{str(exc)[:160]}); add its tokenizer.json.") from None
    backend = getattr(fast, "backend_tokenizer", None) or getattr(fast, "_tokenizer", None)
    if backend is None:
        raise CheckpointError(translate("ModelLoading", "{folder}: its tokenizer has no fast (tokenizers) form; add a "
                                           "tokenizer.json.").format(folder=folder))
    return backend


def _finish(model, tokenizer, path: str, device: str, source: str) -> LoadedModel:
    from peapp.model_run.attention_hook import install

    install()
    model.set_attn_implementation(ATTENTION_NAME)
    model.eval()
    model.to(device)
    cfg = model.config
    family = cfg.model_type
    causal = not _is_encoder(cfg)
    rotary = _rotary_module(model)
    scheme = "rope" if rotary is not None else ("learned_absolute" if family in LEARNED_POSITION_TABLES else "none")
    trained = getattr(cfg, "max_position_embeddings", None) or getattr(cfg, "n_positions", None)
    rope_params = getattr(cfg, "rope_parameters", None) or {}
    if isinstance(rope_params, dict) and rope_params.get("original_max_position_embeddings"):
        trained = rope_params["original_max_position_embeddings"]
    return LoadedModel(model=model, tokenizer=tokenizer, path=path, family=family,
                       architecture=type(model).__name__, device=device, causal=causal, scheme=scheme,
                       trained_context=int(trained) if trained else None, source=source)


def _rotary_module(model):
    for name, module in model.named_modules():
        if name.endswith("rotary_emb") and hasattr(module, "inv_freq"):
            return module
    return None


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

def _load_gguf(path, device, cache_dir, progress, cancelled, budget) -> LoadedModel:
    from peapp.checkpoints import gguf_format

    from peapp.model_run.gguf_fields import Fields

    size = os.path.getsize(path)
    with open(path, "rb") as fh:
        if fh.read(4) != gguf_format.MAGIC:
            raise CheckpointError(translate("ModelLoading", "{path} is not a GGUF file.").format(path=path))
    digest = file_sha256(path, progress, cancelled, 0.0, 0.1)
    folder = os.path.join(cache_dir or default_cache_dir(), f"gguf-{digest[:40]}")
    if _cache_complete(folder, digest):  # written after these very bytes passed the checks below
        loaded = _load_folder(folder, device, progress, cancelled, budget, source="gguf (cache)", gguf_path=path)
        loaded.cache_folder = folder
        return loaded
    fields = Fields(path)  # the same header walk and refusals as `peapp inspect`
    _refuse_if_too_big(size * _GGUF_EXPANSION * _CONVERT_COPIES,
                       f"dequantising this {human_bytes(size)} GGUF file to float32", budget)
    model, tokenizer = _convert_gguf(path, fields, progress, cancelled)
    _write_cache(folder, digest, path, model, tokenizer)
    loaded = _finish(model, tokenizer, path, device, "gguf (converted now)")
    loaded.cache_folder = folder
    return loaded


def _cache_complete(folder: str, digest: str) -> bool:
    try:
        with open(os.path.join(folder, "peapp-cache.json"), encoding="utf-8") as fh:
            info = json.load(fh)
    except (OSError, ValueError):
        return False
    return (info.get("sha256") == digest and info.get("format") == _CACHE_FORMAT
            and all(os.path.exists(os.path.join(folder, f)) for f in ("config.json", "model.safetensors",
                                                                        "tokenizer.json")))


def _cache_info(folder: str | None) -> dict[str, Any]:
    try:
        with open(os.path.join(folder or "", "peapp-cache.json"), encoding="utf-8") as fh:
            info = json.load(fh)
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def _cache_verified(folder: str | None) -> bool:
    """Did these weights pass :func:`_verify` when converted, under this transformers version
    (the check is about the family's attention code, which only a new version could change)?"""
    import transformers

    return _cache_info(folder).get("verified_with") == transformers.__version__


def _mark_verified(folder: str | None) -> None:
    import transformers

    info = _cache_info(folder)
    if not info or folder is None:
        return
    info["verified_with"] = transformers.__version__
    tmp = os.path.join(folder, f"peapp-cache.json.partial-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(info, fh, indent=1)
        os.replace(tmp, os.path.join(folder, "peapp-cache.json"))
    except OSError:
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


def _convert_gguf(path: str, fields, progress, cancelled):
    """transformers' own GGUF loading (config, dequantised weights, tokenizer), with every
    ``gguf.GGUFReader`` it opens replaced by ``fields`` (peapp's header walk, read once)."""
    from peapp.model_run.gguf_fields import fast_gguf_reader

    with fast_gguf_reader(fields):
        return _convert_gguf_with_transformers(path, progress, cancelled)


def _convert_gguf_with_transformers(path: str, progress, cancelled):
    import torch
    import transformers

    folder, name = os.path.split(os.path.abspath(path))
    _check(progress, cancelled, 0.12)
    try:
        with _quiet_transformers():
            config = transformers.AutoConfig.from_pretrained(folder, gguf_file=name)
    except (ValueError, KeyError, NotImplementedError) as exc:
        raise CheckpointError(supported_message(_gguf_arch(exc), f"transformers cannot read this GGUF "
                                                                 f"architecture ({str(exc)[:120]})")) from None
    _check_family_by_name(config.model_type, {"is_encoder_decoder": getattr(config, "is_encoder_decoder", False)})
    cls = _model_class(config)
    _check(progress, cancelled, 0.3)
    with _quiet_transformers(), _one_tensor_name_map():
        model = cls.from_pretrained(folder, gguf_file=name, config=config, dtype=torch.float32,
                                    attn_implementation="eager")
    _check(progress, cancelled, 0.75)
    with _quiet_transformers():
        fast = transformers.AutoTokenizer.from_pretrained(folder, gguf_file=name)
    _check(progress, cancelled, 0.9)
    return model, fast.backend_tokenizer


def _gguf_arch(exc: Exception) -> str:
    text = str(exc)
    return text.split("architecture")[-1].split()[0] if "architecture" in text else "GGUF"


def _write_cache(folder: str, digest: str, source: str, model, tokenizer) -> None:
    """config.json + model.safetensors + tokenizer.json, written to a temporary folder and renamed,
    so an interrupted write never looks complete."""
    import shutil

    from safetensors.torch import save_model

    parent = os.path.dirname(folder)
    os.makedirs(parent, exist_ok=True)
    tmp = folder + f".partial-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        config = model.config.to_dict()
        config.pop("quantization_config", None)
        config["_attn_implementation"] = None
        config.pop("_attn_implementation", None)
        with open(os.path.join(tmp, "config.json"), "w", encoding="utf-8") as fh:
            json.dump(config, fh, indent=1)
        save_model(model, os.path.join(tmp, "model.safetensors"))  # shared (tied) tensors stored once
        tokenizer.save(os.path.join(tmp, "tokenizer.json"))
        with open(os.path.join(tmp, "peapp-cache.json"), "w", encoding="utf-8") as fh:
            json.dump({"format": _CACHE_FORMAT, "sha256": digest, "source": os.path.abspath(source),
                       "transformers": __import__("transformers").__version__}, fh, indent=1)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(tmp, folder)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        # the model still runs; only the next open is slower
        raise CheckpointError(f"cannot write the converted model to {folder}: {exc.strerror or exc}; "
                              f"free disk space or set PEAPP_CACHE_DIR.") from None


def _verify(loaded: LoadedModel) -> None:
    """peapp's attention against transformers' eager attention on 12 tokens (same weights)."""
    import torch

    model = loaded.model
    ids = torch.arange(12, dtype=torch.long).remainder(max(2, model.config.vocab_size - 1)).unsqueeze(0) + 1
    ids = ids.to(loaded.device)
    with torch.no_grad():
        ours = _main_output(model(input_ids=ids))
        model.set_attn_implementation("eager")
        try:
            theirs = _main_output(model(input_ids=ids))
        finally:
            model.set_attn_implementation(ATTENTION_NAME)
    scale = float(theirs.abs().max()) or 1.0
    if not torch.allclose(ours, theirs, rtol=1e-3, atol=1e-4 * scale):
        raise CheckpointError(supported_message(loaded.family, "its attention depends on more than q, k and "
                                                               "the causal mask (peapp's exact attention and "
                                                               "transformers' eager one disagree)"))


def _main_output(out):
    logits = getattr(out, "logits", None)
    return logits if logits is not None else out[0]
