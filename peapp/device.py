"""Which torch device a computation runs on: checked once, with a message that says what to do.

The one place a device name is resolved: the attention inspector and the model runs both use it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from peapp.errors import ParameterError

if TYPE_CHECKING:  # torch is imported when a device is resolved: importing this module stays cheap
    import torch


def resolve_device(device: str | torch.device = "cpu") -> torch.device:
    """``device`` ("cpu", "cuda", "cuda:1", "mps", or a torch.device) as a torch.device this
    process can use; ParameterError naming the devices that are available when it cannot."""
    import torch

    try:
        resolved = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ParameterError(f"unknown compute device {device!r} ({exc}); use one of {', '.join(available_devices())}.") from None
    kind = resolved.type
    if kind == "cpu":
        return resolved
    if kind == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise ParameterError(f"compute device {device!r} is not available: this torch build sees no CUDA GPU; "
                                 f"choose one of {', '.join(available_devices())} in Preferences.")
        if resolved.index is not None and resolved.index >= count:
            raise ParameterError(f"compute device {device!r} is not available: there are {count} CUDA device(s) "
                                 f"(cuda:0 … cuda:{count - 1}).")
        return resolved
    if kind == "mps":
        backend = getattr(torch.backends, "mps", None)
        if backend is None or not backend.is_available():
            raise ParameterError(f"compute device {device!r} is not available: this torch build has no Apple MPS "
                                 f"device; choose one of {', '.join(available_devices())} in Preferences.")
        return resolved
    raise ParameterError(f"compute device {device!r} is not supported; use one of {', '.join(available_devices())}.")


def available_devices() -> list[str]:
    """The device names :func:`resolve_device` accepts here."""
    import torch

    names = ["cpu"]
    if torch.cuda.is_available():
        names += ["cuda"] + [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    backend = getattr(torch.backends, "mps", None)
    if backend is not None and backend.is_available():
        names.append("mps")
    return names


__all__ = ["available_devices", "resolve_device"]
