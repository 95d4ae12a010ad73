"""Estimate memory before allocating, and refuse sizes that will not fit.

What "fits" is the least of three limits: the memory the OS says is available
(``MemAvailable``), the room left in this process's cgroup (``memory.max`` under cgroup v2,
``memory.limit_in_bytes`` under v1: containers, systemd slices, CI runners), and the room left
under the address-space rlimit (``ulimit -v``).  An allocation past any of them kills the
process or raises MemoryError deep inside torch, so each is checked.
"""

from __future__ import annotations

import math
import os

try:
    import resource
except ImportError:  # Windows: no rlimits
    resource = None  # type: ignore[assignment]

from peapp.errors import SizeError

# Never plan to use more than this share of the memory that is available.
_BUDGET_SHARE = 0.5
_FALLBACK = 4 * 1024**3  # when nothing can be read
_UNLIMITED = 1 << 60  # cgroup v1 writes "no limit" as a number near 2^63


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as fh:
            text = fh.read(64).strip()
    except (OSError, UnicodeDecodeError):
        return None
    if text == "max":
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _meminfo_available(meminfo: str = "/proc/meminfo") -> int | None:
    try:
        with open(meminfo, encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _inactive_file(stat_path: str) -> int:
    """Page cache the kernel reclaims before it kills anything (counted in memory.current)."""
    try:
        with open(stat_path, encoding="ascii") as fh:
            for line in fh:
                key, _, value = line.partition(" ")
                if key in ("inactive_file", "total_inactive_file"):
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def cgroup_room(proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> int | None:
    """Bytes this process's cgroup (and its ancestors) can still take; None without a limit."""
    try:
        with open(proc_cgroup, encoding="utf-8") as fh:
            entries = [line.rstrip("\n").split(":", 2) for line in fh if line.count(":") >= 2]
    except OSError:
        return None
    rooms: list[int] = []
    for _, controllers, rel in entries:
        if controllers == "":  # cgroup v2 (unified; under unified/ on hybrid systems)
            base = root if os.path.exists(os.path.join(root, "cgroup.controllers")) else os.path.join(root, "unified")
            limit_name, usage_name, stat_name = "memory.max", "memory.current", "memory.stat"
        elif "memory" in controllers.split(","):  # cgroup v1
            base = os.path.join(root, "memory")
            limit_name, usage_name, stat_name = "memory.limit_in_bytes", "memory.usage_in_bytes", "memory.stat"
        else:
            continue
        # the process's own group and every ancestor up to the mount (a container sees its group at the root)
        parts = [p for p in rel.split("/") if p]
        for depth in range(len(parts), -1, -1):
            folder = os.path.join(base, *parts[:depth])
            limit = _read_int(os.path.join(folder, limit_name))
            if limit is None or limit >= _UNLIMITED:
                continue
            usage = _read_int(os.path.join(folder, usage_name)) or 0
            rooms.append(max(0, limit - usage + _inactive_file(os.path.join(folder, stat_name))))
    return min(rooms) if rooms else None


def _vm_size() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def rlimit_room() -> int | None:
    """Address space left under RLIMIT_AS (``ulimit -v``); None when unlimited."""
    if resource is None:
        return None
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ValueError, OSError):
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    used = _vm_size()
    return max(0, soft - used) if used is not None else soft


def available_bytes() -> int:
    """The least of MemAvailable, the cgroup's room and the rlimit's room (4 GiB if none is readable)."""
    limits = [v for v in (_meminfo_available(), cgroup_room(), rlimit_room()) if v is not None]
    return min(limits) if limits else _FALLBACK


def budget_bytes() -> int:
    """What one computation may plan to use: a share of :func:`available_bytes`."""
    return int(available_bytes() * _BUDGET_SHARE)


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
    limit = budget if budget is not None else budget_bytes()
    if nbytes > limit:
        dims = " × ".join(f"{int(s):,}" for s in shape)
        raise SizeError(
            f"{what} of {dims} would need {human_bytes(nbytes)}, more than the "
            f"{human_bytes(limit)} this machine can spare: {suggestion}."
        )
    return nbytes
