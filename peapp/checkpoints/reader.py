"""Open a checkpoint of any supported kind, read-only and lazily (headers and configs only).

Formats: a Hugging Face folder (``config.json`` with ``model.safetensors``, a sharded
``model.safetensors.index.json``, ``pytorch_model.bin`` or its index, or a ``.gguf``), a bare
``.safetensors``, ``.bin``/``.pt``/``.pth`` state dicts (safe ``torch.load`` only), ``.gguf``, a
shard index ``*.index.json`` and a lone ``config.json``.  Nothing is ever written.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any, Callable

from peapp import safe_open
from peapp.checkpoints import gguf_format, safetensors_format
from peapp.checkpoints.model import Checkpoint, TensorInfo
from peapp.errors import CheckpointError

ProgressFn = Callable[[float], None]

TORCH_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt")


def open_checkpoint(path: str | os.PathLike, progress: ProgressFn | None = None) -> Checkpoint:
    """Read what a checkpoint holds (names, shapes, dtypes, config), not its data.

    ``progress(fraction)`` is called between shards (it may raise to cancel).
    """
    path = os.path.abspath(os.fspath(path))
    if os.path.isdir(path):
        return _open_folder(path, progress)
    if not os.path.exists(path):
        raise CheckpointError(f"{path} does not exist; choose a model file or folder.")
    if not os.path.isfile(path):
        raise CheckpointError(f"{path} is not a regular file or folder.")
    name = os.path.basename(path).lower()
    if name.endswith(".index.json"):
        return _open_index(path, progress=progress)
    if name.endswith(".json"):
        return Checkpoint(path=path, format="config", tensors={}, config=read_json(path, "config"))
    kind = _sniff(path)
    if kind == "gguf":
        metadata, tensors = gguf_format.read(path)
        return Checkpoint(path, "gguf", tensors, None, metadata, loader=gguf_format.load_tensor)
    config, warnings = _sibling_config(path)
    if kind == "safetensors":
        tensors, _ = safetensors_format.read_header(path)
        return Checkpoint(path, "safetensors", tensors, config, warnings=warnings,
                          loader=safetensors_format.load_tensor)
    if kind == "pytorch":
        from peapp.checkpoints import torch_format

        return Checkpoint(path, "pytorch", torch_format.read(path), config, warnings=warnings,
                          loader=torch_format.load_tensor)
    raise CheckpointError(f"{path}: unknown file type; peapp opens .safetensors, .bin/.pt/.pth, .gguf, "
                          f"config.json or a model folder.")


_recent: "OrderedDict[tuple, Checkpoint]" = OrderedDict()
_recent_lock = threading.Lock()
_RECENT_MAX = 4


def open_cached(path: str | os.PathLike, refresh: bool = False, progress: ProgressFn | None = None) -> Checkpoint:
    """``open_checkpoint``, remembering the last few opened so that the views which load tables
    from one checkpoint do not re-read its headers (a GGUF header takes seconds).  A file or
    folder that changed on disk (mtime or size) is read again, and always with ``refresh``."""
    path = os.path.abspath(os.fspath(path))
    try:
        st = os.stat(path)
    except OSError:
        return open_checkpoint(path, progress)  # raises the proper message
    key = (path, st.st_mtime_ns, st.st_size)
    with _recent_lock:
        hit = None if refresh else _recent.get(key)
        if hit is not None:
            _recent.move_to_end(key)
            return hit
    ckpt = open_checkpoint(path, progress)
    with _recent_lock:
        _recent[key] = ckpt
        while len(_recent) > _RECENT_MAX:
            _recent.popitem(last=False)
    return ckpt


def _sniff(path: str) -> str | None:
    """Format from the first bytes, falling back to the extension."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(9)
    except OSError as exc:
        raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}") from None
    name = path.lower()
    if head[:4] == gguf_format.MAGIC or name.endswith(".gguf"):
        return "gguf"
    if name.endswith(".safetensors") or (len(head) == 9 and head[8:9] == b"{"):
        return "safetensors"
    if name.endswith(TORCH_SUFFIXES) or head[:2] == b"PK" or head[:1] == b"\x80":
        return "pytorch"
    return None


def _sibling_config(path: str) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """A ``config.json`` beside a weights file (a folder opened through one of its files).

    A broken one does not stop the weights from opening; it becomes a warning.
    """
    candidate = os.path.join(os.path.dirname(path), "config.json")
    if not os.path.isfile(candidate):
        return None, ()
    try:
        return read_json(candidate, "config"), ()
    except CheckpointError as exc:
        return None, (f"config.json beside the weights was ignored: {exc}",)


def read_json(path: str, what: str) -> dict[str, Any]:
    """A JSON object from ``path`` (a regular file within the size cap; depth and numbers checked),
    with a message that says which file and line is wrong."""
    kind = "index" if what == "shard index" else "config"
    data = safe_open.load_json(safe_open.read_bytes(path, kind, CheckpointError), f"{path} ({what} file)",
                               CheckpointError)
    if not isinstance(data, dict):
        raise CheckpointError(f"{path} must hold a JSON object, not a {type(data).__name__}.")
    return data


def _open_folder(folder: str, progress: ProgressFn | None = None) -> Checkpoint:
    try:
        names = set(os.listdir(folder))
    except OSError as exc:
        raise CheckpointError(f"cannot list {folder}: {exc.strerror or exc}") from None
    config = read_json(os.path.join(folder, "config.json"), "config") if "config.json" in names else None
    for index in ("model.safetensors.index.json", "pytorch_model.bin.index.json"):
        if index in names:
            ckpt = _open_index(os.path.join(folder, index), config, progress)
            return _replace_path(ckpt, folder)
    singles = ["model.safetensors", "pytorch_model.bin"]
    singles += sorted(n for n in names if n.endswith((".safetensors", ".gguf")) and n not in singles)
    singles += sorted(n for n in names if n.endswith((".pt", ".pth")))
    for name in singles:
        if name in names and os.path.isfile(os.path.join(folder, name)):
            ckpt = open_checkpoint(os.path.join(folder, name))
            if config is not None and ckpt.format != "gguf":
                ckpt = Checkpoint(ckpt.path, ckpt.format, ckpt.tensors, config, ckpt.gguf_metadata,
                                  ckpt.warnings, ckpt.loader)
            return _replace_path(ckpt, folder)
    if config is not None:
        return Checkpoint(folder, "config", {}, config,
                          warnings=("the folder has config.json but no weights; only computed schemes "
                                    "(RoPE, ALiBi, NoPE) and table sizes can be shown.",))
    raise CheckpointError(f"{folder} holds no config.json, .safetensors, .bin/.pt or .gguf file; "
                          f"choose a model folder or file.")


def _replace_path(ckpt: Checkpoint, path: str) -> Checkpoint:
    return Checkpoint(path, ckpt.format, ckpt.tensors, ckpt.config, ckpt.gguf_metadata, ckpt.warnings, ckpt.loader)


def _open_index(index_path: str, config: dict[str, Any] | None = None,
                progress: ProgressFn | None = None) -> Checkpoint:
    """A sharded checkpoint: every shard's header is read, every mapped name checked."""
    folder = os.path.dirname(index_path)
    index = read_json(index_path, "shard index")
    weight_map = index.get("weight_map")
    if not isinstance(weight_map, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                   for k, v in weight_map.items()):
        raise CheckpointError(f"{index_path} has no valid \"weight_map\" (tensor name → shard file).")
    warnings: list[str] = []
    if config is None:
        config, sibling_warnings = _sibling_config(index_path)
        warnings += sibling_warnings
    shards = sorted(set(weight_map.values()))
    for shard in shards:
        # a shard is a plain file name beside the index; never follow a path elsewhere
        if os.path.basename(shard) != shard or shard in ("", ".", ".."):
            raise CheckpointError(f"{index_path} names shard {shard!r}, which is not a file beside the index.")
        if not os.path.isfile(os.path.join(folder, shard)):
            raise CheckpointError(f"{index_path} points at {shard}, which is missing from {folder}; "
                                  f"download the missing shard(s).")
    torch_shards = index_path.endswith("pytorch_model.bin.index.json") or all(
        s.endswith(TORCH_SUFFIXES) for s in shards)
    tensors: dict[str, TensorInfo] = {}
    for i, shard in enumerate(shards):
        if progress is not None:
            progress(i / len(shards))
        shard_path = os.path.join(folder, shard)
        if torch_shards:
            from peapp.checkpoints import torch_format

            found = torch_format.read(shard_path)
        else:
            found, _ = safetensors_format.read_header(shard_path)
        for name, info in found.items():
            owner = weight_map.get(name)
            if owner is None:
                warnings.append(f"{shard} holds {name!r}, which the index does not list.")
            elif owner != shard:
                continue  # the index says another shard holds it
            tensors[name] = info
    missing = [n for n in weight_map if n not in tensors]
    if missing:
        raise CheckpointError(f"{index_path} lists {len(missing)} tensor(s) its shards do not hold "
                              f"(first: {missing[0]!r}); the download is incomplete.")
    if torch_shards:
        from peapp.checkpoints import torch_format

        return Checkpoint(index_path, "pytorch-sharded", tensors, config, warnings=tuple(warnings[:5]),
                          loader=torch_format.load_tensor)
    return Checkpoint(index_path, "safetensors-sharded", tensors, config, warnings=tuple(warnings[:5]),
                      loader=safetensors_format.load_tensor)
