"""A fixed glibc mmap threshold for model runs (Linux).

glibc serves an allocation of at least ``M_MMAP_THRESHOLD`` bytes with its own ``mmap`` (returned
to the OS when freed), but raises that threshold each time such a block is freed, up to 32 MiB;
after that, the per-block buffers of a long run (a few MB each, sizes varying block to block) come
from the heap, which fragments and keeps growing.  Measured on SmolLM2 in bfloat16 at 8,192
tokens: the forward added 2,372 MB with glibc's default and 552 MB with the threshold fixed at
1 MiB (float32: 1,055 MB).  Setting the threshold once switches the dynamic adjustment off.
"""

from __future__ import annotations

import functools
import sys

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number
THRESHOLD = 1 << 20


@functools.lru_cache(maxsize=1)
def fix_mmap_threshold() -> bool:
    """Set glibc's mmap threshold to 1 MiB once per process; False where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(M_MMAP_THRESHOLD, THRESHOLD))
    except (OSError, AttributeError):  # musl and other C libraries: nothing to set
        return False
