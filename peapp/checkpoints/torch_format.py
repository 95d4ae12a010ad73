"""Pickled PyTorch state dicts (.bin/.pt/.pth), read only through ``torch.load(weights_only=True)``.

The weights-only unpickler admits tensors, containers and plain numbers and refuses every
other global, so a file that would run code when unpickled is rejected before that code runs.
Files in the zip format (everything ``torch.save`` wrote since 1.6) are memory-mapped, so
listing a multi-GB file reads little more than its pickle; the old format cannot be mapped
and is read whole, after checking it fits.
"""

from __future__ import annotations

import os
import pickle
import warnings
import zipfile
from typing import Any, Iterator

from peapp.checkpoints.model import TensorInfo
from peapp.errors import CheckpointError


def read(path: str) -> dict[str, TensorInfo]:
    """Tensor name → TensorInfo; the loaded (mapped) data is released before returning."""
    state = _safe_load(path)
    tensors = {name: TensorInfo(name=name, shape=tuple(t.shape), dtype=str(t.dtype).removeprefix("torch."),
                                file=path) for name, t in _flatten(state)}
    kind = type(state).__name__
    del state  # unmaps the file
    if not tensors:
        raise CheckpointError(f"{path} holds no tensors (a {kind}); it is not a state dict.")
    return tensors


def load_tensor(info: TensorInfo):
    """One tensor, copied out of the mapped file so nothing stays mapped."""
    for name, tensor in _flatten(_safe_load(info.file)):
        if name == info.name:
            return tensor.clone()
    raise CheckpointError(f"{info.file} no longer holds tensor {info.name!r}; reopen the checkpoint.")


def _safe_load(path: str) -> Any:
    import torch

    from peapp.memory import ensure_fits

    try:
        mappable = zipfile.is_zipfile(path)
        if not mappable:  # legacy format: read whole, so refuse what cannot fit
            ensure_fits((os.path.getsize(path),), 1, what=f"legacy-format file {os.path.basename(path)}",
                        suggestion="re-save it with a current torch.save or as safetensors")
        with warnings.catch_warnings():  # torch warns about pickle protocols; the outcome is what counts
            warnings.simplefilter("ignore")
            return torch.load(path, map_location="cpu", weights_only=True, mmap=mappable)
    except pickle.UnpicklingError as exc:
        text = str(exc)
        if "Weights only load failed" in text or "weights_only" in text:
            detail = next((ln.strip() for ln in text.splitlines() if "Unsupported" in ln), "")
            raise CheckpointError(
                f"refused to load {path}: it contains Python objects that could run code when unpickled"
                f"{' (' + detail[:160] + ')' if detail else ''}. peapp only reads plain tensors; convert the "
                f"file to safetensors where you trust it, or open another file.") from None
        raise CheckpointError(f"{path} is damaged or not a PyTorch file ({_first_line(exc)}).") from None
    except CheckpointError:
        raise
    except MemoryError:
        raise CheckpointError(f"{path} asks for more memory than exists; it is damaged.") from None
    except Exception as exc:  # zip, EOF, storage and type errors all mean "not a usable state dict"
        raise CheckpointError(f"{path} is damaged or not a PyTorch state dict "
                              f"({type(exc).__name__}: {_first_line(exc)}).") from None


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:160] if text else "no detail"


def _flatten(obj: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted name, tensor) for every tensor in nested dicts/lists (Lightning's "state_dict" etc.)."""
    import torch

    if isinstance(obj, torch.Tensor):
        yield prefix, obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from _flatten(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(obj, (list, tuple)):
        for i, value in enumerate(obj):
            yield from _flatten(value, f"{prefix}.{i}" if prefix else str(i))
