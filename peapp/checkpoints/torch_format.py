"""Pickled PyTorch state dicts (.bin/.pt/.pth), read only through ``torch.load(weights_only=True)``.

The weights-only unpickler admits tensors, containers and plain numbers and refuses every
other global, so a file that would run code when unpickled is rejected before that code runs.
Files in the zip format (everything ``torch.save`` wrote since 1.6) are memory-mapped, so
listing a multi-GB file reads little more than its pickle; the old format cannot be mapped
and is read whole, after checking it fits.
"""

from __future__ import annotations

import io
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
                                file=path) for name, t in _flatten(state, path)}
    kind = type(state).__name__
    del state  # unmaps the file
    if not tensors:
        raise CheckpointError(f"{path} holds no tensors (a {kind}); it is not a state dict.")
    return tensors


def load_tensor(info: TensorInfo):
    """One tensor, copied out of the mapped file so nothing stays mapped."""
    for name, tensor in _flatten(_safe_load(info.file), info.file):
        if name == info.name:
            return tensor.clone()
    raise CheckpointError(f"{info.file} no longer holds tensor {info.name!r}; reopen the checkpoint.")


def _safe_load(path: str) -> Any:
    import torch

    from peapp.memory import ensure_fits

    try:
        mappable = zipfile.is_zipfile(path)
        if mappable:
            _check_zip(path)
        else:  # legacy format: read whole, so refuse what cannot fit
            ensure_fits((os.path.getsize(path),), 1, what=f"legacy-format file {os.path.basename(path)}",
                        suggestion="re-save it with a current torch.save or as safetensors")
        with warnings.catch_warnings():  # torch warns about pickle protocols; the outcome is what counts
            warnings.simplefilter("ignore")
            if mappable:
                return torch.load(path, map_location="cpu", weights_only=True, mmap=True)
            with _ClampedReader(path) as fh:
                return torch.load(fh, map_location="cpu", weights_only=True)
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


class _ClampedReader(io.BufferedReader):
    """A file whose ``read(n)`` never asks for more than the bytes left in it.

    The legacy-format unpickler reads a string by its declared length, and a file read of n
    bytes reserves n bytes first: one damaged length field made a 500-byte file ask for 800 MB
    (an 8-byte length field: any amount).
    """

    def __init__(self, path: str):
        super().__init__(io.FileIO(path, "rb"))
        self._size = os.fstat(self.fileno()).st_size

    def read(self, size: int | None = -1) -> bytes:
        if size is not None and size > 65536:  # small reads cannot hurt; skip the tell() for them
            size = min(size, max(0, self._size - self.tell()))
        return super().read(size)


def _check_zip(path: str) -> None:
    """Refuse a zip whose members would expand beyond the file, before torch inflates them.

    ``torch.save`` stores every member uncompressed, but torch's reader also inflates
    compressed ones, whole, into memory: a 2 MB file can declare a 2 GB pickle.
    """
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()
    size = os.path.getsize(path)
    expanded = sum(m.file_size for m in members)
    if expanded > size:
        raise CheckpointError(f"refused to load {path}: its zip members would expand to {expanded:,} bytes from a "
                              f"{size:,}-byte file (torch.save never compresses); it is damaged or hostile.")
    for m in members:
        if m.filename.endswith("data.pkl") and m.file_size > _MAX_PICKLE_BYTES:
            raise CheckpointError(f"refused to load {path}: its pickle {m.filename} is {m.file_size:,} bytes, "
                                  f"far more than a state dict needs (limit {_MAX_PICKLE_BYTES:,}); it is not "
                                  f"a plain state dict.")


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:160] if text else "no detail"


# A state dict nests a few levels (Lightning: "state_dict" → name → tensor) and its names are
# at most a few hundred characters.
_MAX_DEPTH = 32
_MAX_NAME_CHARS = 4096
# data.pkl of a real state dict is kilobytes to a few MB (one small record per tensor).
_MAX_PICKLE_BYTES = 64 * 1024 * 1024


def _flatten(obj: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(dotted name, tensor) for every tensor in nested dicts/lists (Lightning's "state_dict" etc.).

    A pickle can make containers share children: 40 levels of ``x = [x, x]`` take a few hundred
    bytes on disk but have 2**40 paths, and a list can even contain itself.  Each container is
    therefore walked once (later references to it are skipped), and depth and name length are
    bounded, so the work is proportional to the file, not to the number of paths.
    """
    import torch

    seen: set[int] = set()
    stack: list[tuple[str, Any, int]] = [("", obj, 0)]
    while stack:
        prefix, node, depth = stack.pop()
        if isinstance(node, torch.Tensor):
            yield prefix, node
            continue
        if not isinstance(node, (dict, list, tuple)) or id(node) in seen:
            continue  # numbers, strings, settings; a container already walked
        if depth >= _MAX_DEPTH:
            raise CheckpointError(f"{path}: containers nest more than {_MAX_DEPTH} deep (at {prefix[:60]!r}…); "
                                  f"this is not a state dict.")
        seen.add(id(node))
        children = ([(str(k), v) for k, v in node.items()] if isinstance(node, dict)
                    else [(str(i), v) for i, v in enumerate(node)])
        for key, value in reversed(children):  # the stack pops them back in file order
            name = f"{prefix}.{key}" if prefix else key
            if len(name) > _MAX_NAME_CHARS:
                raise CheckpointError(f"{path}: a tensor name of more than {_MAX_NAME_CHARS:,} characters "
                                      f"({name[:60]!r}…); this is not a state dict.")
            stack.append((name, value, depth + 1))
