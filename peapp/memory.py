"""Estimate memory before allocating, and refuse sizes that will not fit."""

from __future__ import annotations

import math

from peapp.errors import SizeError

# Never plan to use more than this share of the memory the OS says is available.
_BUDGET_SHARE = 0.5


def available_bytes() -> int:
    """MemAvailable from /proc/meminfo; a conservative 4 GiB where that is not readable."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 * 1024**3


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} PiB"  # pragma: no cover


def ensure_fits(shape: tuple[int, ...], itemsize: int = 4, *, what: str = "array",
                suggestion: str = "reduce the size", budget: int | None = None) -> int:
    """Raise :class:`SizeError` if an array of ``shape`` would exceed the memory budget.

    Returns the estimated number of bytes.  Called before anything is allocated.
    """
    nbytes = math.prod(int(s) for s in shape) * itemsize
    limit = budget if budget is not None else int(available_bytes() * _BUDGET_SHARE)
    if nbytes > limit:
        dims = " × ".join(f"{int(s):,}" for s in shape)
        raise SizeError(
            f"{what} of {dims} would need {human_bytes(nbytes)}, more than the "
            f"{human_bytes(limit)} this machine can spare: {suggestion}."
        )
    return nbytes
