"""Where a model runs and in which precision: ``--dtype`` and ``--device`` for model runs.

- **dtype** — ``auto | float32 | bfloat16 | float16``.  ``auto`` is the checkpoint's own dtype on a
  GPU (``torch_dtype`` in config.json; a quantised GGUF: bfloat16 where the GPU has it, else
  float16); on a CPU, bfloat16 when torch reports fast bf16 there *and* a bf16 matrix product
  measured now is faster than a float32 one, else float32.  The weights and activations run in
  the chosen dtype; peapp's attention computes its logits and softmax in float32 and accumulates
  every statistic in float64 (:mod:`peapp.model_run.blocks`), whatever the model's dtype.
- **device** — ``cpu | cuda | cuda:N | mps | auto``.  ``auto`` loads with accelerate's
  ``device_map="auto"`` (``max_memory`` as accelerate spells it: ``0=20GiB,cpu=60GiB``): a model
  larger than one GPU is spread over every GPU, then CPU memory, then disk.  Without a GPU it
  runs on the CPU, and says so.

torch is imported inside the functions: the CLI's parser stays torch-free.
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass, field
from typing import Any

from peapp.errors import ParameterError

DTYPES = ("auto", "float32", "bfloat16", "float16")
DEVICES = ("cpu", "cuda", "mps", "auto")  # and cuda:N
BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$", re.IGNORECASE)
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


@dataclass(frozen=True)
class Placement:
    """The resolved choice: ``dtype`` (a name in ``BYTES``), ``device`` (where inputs go),
    ``device_map`` ("auto" or None) with its ``max_memory``, and why (``notes``, shown to the user)."""

    dtype: str
    device: str
    device_map: str | None = None
    max_memory: dict[Any, str] | None = None
    requested_device: str = "cpu"
    requested_dtype: str = "auto"
    notes: tuple[str, ...] = field(default=())

    @property
    def bytes_per_parameter(self) -> int:
        return BYTES[self.dtype]

    def torch_dtype(self):
        import torch

        return getattr(torch, self.dtype)


def check_dtype(dtype: str) -> str:
    if dtype not in DTYPES:
        raise ParameterError(f"unknown --dtype {dtype!r}; use one of {', '.join(DTYPES)}.")
    return dtype


def parse_max_memory(text: str | dict | None) -> dict[Any, str] | None:
    """accelerate's ``max_memory`` from ``"0=20GiB,cpu=60GiB"`` (GPU indices as ints; cpu, mps, disk
    as names); ``None``/"" gives None.  Each size is checked here (a typo would otherwise surface
    as accelerate's own error after seconds of loading)."""
    if not text:
        return None
    if isinstance(text, dict):
        items = list(text.items())
    else:
        items = []
        for part in str(text).split(","):
            if not part.strip():
                continue
            name, sep, size = part.partition("=")
            if not sep:
                raise ParameterError(f"--max-memory: {part.strip()!r} is not DEVICE=SIZE; write it as accelerate "
                                     f"does, e.g. 0=20GiB,cpu=60GiB.")
            items.append((name.strip(), size.strip()))
    out: dict[Any, str] = {}
    for name, size in items:
        key: Any = int(name) if str(name).isdigit() else str(name).lower()
        if not isinstance(key, int) and key not in ("cpu", "mps", "disk"):
            raise ParameterError(f"--max-memory: unknown device {name!r}; use GPU numbers (0, 1, …), cpu or mps.")
        if _SIZE.match(str(size)) is None:
            raise ParameterError(f"--max-memory: {size!r} is not a size; write e.g. 20GiB, 500MB or 1073741824.")
        out[key] = str(size).replace(" ", "")
    return out or None


def size_bytes(size: str) -> int:
    m = _SIZE.match(size)
    if m is None:
        raise ParameterError(f"{size!r} is not a size.")
    return int(float(m.group(1)) * _UNITS[(m.group(2) or "B").lower()])


@functools.lru_cache(maxsize=1)
def cpu_bf16_speedup() -> float | None:
    """How many times faster a 512×512 bfloat16 matrix product runs than a float32 one on this
    CPU, measured once per process (about 0.1 s); None when torch reports no fast bf16 here
    (oneDNN's check for AVX-512 BF16 / AMX)."""
    import torch

    try:
        supported = bool(torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        supported = False
    if not supported:
        return None
    a = torch.randn(512, 512)
    times = {}
    for dtype in (torch.float32, torch.bfloat16):
        x = a.to(dtype)
        torch.mm(x, x)  # warm-up
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(4):
                torch.mm(x, x)
            best = min(best, time.perf_counter() - start)
        times[dtype] = best
    return times[torch.float32] / max(times[torch.bfloat16], 1e-9)


def checkpoint_dtype(config: dict[str, Any] | None) -> str | None:
    """The dtype a config.json says its weights are stored in (``torch_dtype``/``dtype``)."""
    if not config:
        return None
    value = config.get("torch_dtype") or config.get("dtype")
    value = str(value).replace("torch.", "") if value else None
    return value if value in BYTES else None


def resolve(dtype: str = "auto", device: str = "cpu", config: dict[str, Any] | None = None,
            max_memory: str | dict | None = None) -> Placement:
    """The :class:`Placement` for a requested dtype and device (see the module docstring)."""
    import torch

    from peapp.device import resolve_device

    check_dtype(dtype)
    notes: list[str] = []
    requested_device = str(device)
    device_map = None
    limits = parse_max_memory(max_memory)
    if requested_device == "auto":
        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if gpus:
            device_map, target = "auto", "cuda:0"
            notes.append(f"device auto: accelerate spreads the layers over {gpus} GPU(s), then CPU memory "
                         f"and disk")
        else:
            target = "cpu"
            device_map = "auto" if limits else None  # accelerate still offloads past max_memory
            notes.append("device auto: no GPU here, running on the CPU"
                         + (" (accelerate offloads past --max-memory to disk)" if limits else ""))
    else:
        if limits:
            raise ParameterError("--max-memory goes with --device auto (accelerate's device map); "
                                 "drop it or use --device auto.")
        target = str(resolve_device(requested_device))
    on_gpu = target.startswith(("cuda", "mps"))
    chosen = dtype
    if dtype == "auto":
        own = checkpoint_dtype(config)
        if on_gpu:
            if own is not None:
                chosen = own
                notes.append(f"dtype auto: {own}, the checkpoint's own, on the GPU")
            else:
                bf16 = target.startswith("cuda") and torch.cuda.is_bf16_supported()
                chosen = "bfloat16" if bf16 else "float16"
                notes.append(f"dtype auto: {chosen} on the GPU (the checkpoint names no dtype)")
        else:
            speedup = cpu_bf16_speedup()
            if speedup is not None and speedup > 1.2:
                chosen = "bfloat16"
                notes.append(f"dtype auto: bfloat16 (this CPU has fast bf16: a matrix product ran "
                             f"{speedup:.1f}× faster than in float32)")
            else:
                chosen = "float32"
                why = "torch reports no fast bf16 on this CPU" if speedup is None else \
                    f"bf16 measured only {speedup:.1f}× float32's speed here"
                notes.append(f"dtype auto: float32 ({why})")
    if chosen == "float16" and not on_gpu:
        notes.append("float16 on a CPU: many kernels are slow or missing there; bfloat16 is the CPU's half type")
    return Placement(dtype=chosen, device=target, device_map=device_map, max_memory=limits,
                     requested_device=requested_device, requested_dtype=dtype, notes=tuple(notes))


def fitting_dtype(parameters: int, budget: int, current: str) -> str | None:
    """The widest dtype narrower than ``current`` whose weights fit ``budget`` bytes, or None."""
    for name in ("bfloat16",):
        if BYTES[name] < BYTES[current] and parameters * BYTES[name] <= budget:
            return name
    return None


def describe_map(model) -> str:
    """accelerate's device map of a loaded model in words: 'cuda:0 ×20 modules, cpu ×10, disk ×2'."""
    mapping = getattr(model, "hf_device_map", None)
    if not mapping:
        return ""
    counts: dict[str, int] = {}
    for where in mapping.values():
        name = f"cuda:{where}" if isinstance(where, int) else str(where)
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{name} ×{count}" for name, count in counts.items())




def placement_arguments(where: Placement) -> dict[str, Any]:
    """``from_pretrained``'s placement keywords for ``where``: accelerate's device map (and a
    private offload folder for what goes to disk, removed with the process) or nothing."""
    if where.device_map is None:
        return {}
    return {"device_map": where.device_map, "max_memory": where.max_memory, "offload_folder": _offload_folder()}


@functools.lru_cache(maxsize=1)
def _offload_folder() -> str:
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="peapp-offload-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


__all__ = ["BYTES", "DEVICES", "DTYPES", "Placement", "check_dtype", "checkpoint_dtype", "cpu_bf16_speedup",
           "describe_map", "fitting_dtype", "parse_max_memory", "placement_arguments", "resolve", "size_bytes"]
