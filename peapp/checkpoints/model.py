"""Plain data for an opened checkpoint: its tensor inventory, config and found components."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from peapp.errors import CheckpointError

KINDS = ("learned_absolute", "vision_learned_2d", "t5_relative_bias", "shaw_relative", "relative_bias_2d", "rope",
         "alibi", "sinusoidal", "nope")


@dataclass(frozen=True)
class TensorInfo:
    """One tensor as the file describes it; no data is read.

    ``shape`` is in PyTorch order (outermost first) for every format, GGUF included.
    ``offset``/``nbytes`` locate the raw bytes in ``file`` for formats that store them
    contiguously (safetensors, GGUF); they are -1 for pickled state dicts.
    """

    name: str
    shape: tuple[int, ...]
    dtype: str
    file: str
    offset: int = -1
    nbytes: int = -1

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


@dataclass(frozen=True)
class Component:
    """One position component found in a checkpoint (see ``KINDS``)."""

    kind: str
    tensor: str | None
    shape: tuple[int, ...] | None
    params: Mapping[str, Any] = field(default_factory=dict)
    summary: str = ""  # one readable line for tables and the dock

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tensor": self.tensor,
                "shape": list(self.shape) if self.shape is not None else None,
                "params": _plain(self.params)}


@dataclass(frozen=True)
class Checkpoint:
    """An opened checkpoint: what it holds, not its data.

    ``load(name)`` reads one tensor on demand (only its bytes; for pickled state dicts through
    the safe, memory-mapped ``torch.load``).  Nothing keeps the file open in between.
    """

    path: str
    format: str
    tensors: Mapping[str, TensorInfo]
    config: Mapping[str, Any] | None = None
    gguf_metadata: Mapping[str, Any] | None = None
    warnings: tuple[str, ...] = ()
    loader: Callable[[TensorInfo], Any] | None = field(default=None, repr=False, compare=False)

    @property
    def architecture(self) -> str | None:
        cfg = self.config or {}
        archs = cfg.get("architectures")
        if isinstance(archs, list) and archs and isinstance(archs[0], str):
            return archs[0]
        if isinstance(cfg.get("model_type"), str) and cfg["model_type"]:
            return cfg["model_type"]
        arch = (self.gguf_metadata or {}).get("general.architecture")
        return arch if isinstance(arch, str) else None

    def load(self, name: str, max_bytes: int | None = None):
        """One tensor as a torch tensor (its stored dtype, or float32 for quantized GGUF data)."""
        from peapp.memory import ensure_fits

        info = self.tensors.get(name)
        if info is None:
            raise CheckpointError(f"{self.path} has no tensor named {name!r}")
        if self.loader is None:
            raise CheckpointError(f"{self.path} holds no tensor data (it is a config only)")
        # a quantized tensor is expanded to float32, so budget for that
        ensure_fits(info.shape, 4, what=f"tensor {name}", suggestion="choose a smaller tensor",
                    budget=max_bytes)
        return self.loader(info)


def read_range(info: TensorInfo) -> bytearray:
    """Exactly the ``nbytes`` at ``offset`` of ``info.file``, read straight into one writable
    buffer (torch.frombuffer can wrap it without a second copy); the file is closed afterwards."""
    data = bytearray(info.nbytes)
    got = 0
    try:
        with open(info.file, "rb") as fh:
            fh.seek(info.offset)
            view = memoryview(data)
            while got < info.nbytes:
                n = fh.readinto(view[got:])
                if not n:
                    break
                got += n
    except OSError as exc:
        raise CheckpointError(f"cannot read {info.file}: {exc.strerror or exc}") from None
    if got != info.nbytes:
        raise CheckpointError(f"{info.file} is truncated: tensor {info.name!r} needs {info.nbytes:,} bytes "
                              f"at offset {info.offset:,}, only {got:,} are there.")
    return data


def _plain(value: Any) -> Any:
    """JSON-safe copy (tuples → lists, numpy scalars → Python numbers)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    return value
