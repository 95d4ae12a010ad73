"""The one checker for numbers that come from files (config.json, GGUF metadata, sessions).

A file can say anything: ``"abc"`` where a number belongs, ``1e999`` (infinity after parsing),
a list, a negative head count, ``1e12`` heads.  Every number read from a file passes through
:func:`number` before arithmetic or an allocation uses it: the type, finiteness and range are
checked, and the message names the key, the file and what to fix.
"""

from __future__ import annotations

import math
from typing import Any

from peapp.errors import CheckpointError, PeappError

#: Head counts above this are refused: the largest models have a few hundred heads, and a
#: per-head list (ALiBi slopes, T5 bias tables) is allocated from it.
MAX_HEADS = 4096
#: Any length (positions, context, buckets) a file gives above this is refused.
MAX_LENGTH = 1 << 40


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def number(value: Any, key: str, *, where: str = "config.json", integer: bool = False,
           minimum: float | None = None, maximum: float | None = None, above: float | None = None,
           error: type[PeappError] = CheckpointError) -> Any:
    """``value`` as an int (``integer=True``; 4.0 is accepted as 4) or a finite float.

    ``minimum``/``maximum`` are inclusive bounds, ``above`` an exclusive lower bound.  Raises
    ``error`` saying which key in ``where`` is wrong and what it must be.
    """
    kind = "a whole number" if integer else "a number"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error(f"{where}: {key} must be {kind}, got {_shown(value)}; fix the value in the file.")
    if isinstance(value, int):
        if value.bit_length() > 1023:  # float() of it would overflow; no setting is that large
            raise error(f"{where}: {key} has {len(str(abs(value)))} digits, far too large for any setting; "
                        f"fix the value in the file.")
    elif not math.isfinite(value):
        raise error(f"{where}: {key} must be a finite number, got {value!r}; fix the value in the file.")
    if integer:
        if isinstance(value, float):
            if not value.is_integer():
                raise error(f"{where}: {key} must be a whole number, got {value!r}; fix the value in the file.")
            value = int(value)
    else:
        value = float(value)
    if minimum is not None and value < minimum:
        raise error(f"{where}: {key} must be at least {minimum:g}, got {_shown(value)}; fix the value in the file.")
    if above is not None and value <= above:
        raise error(f"{where}: {key} must be greater than {above:g}, got {_shown(value)}; fix the value in "
                    f"the file.")
    if maximum is not None and value > maximum:
        raise error(f"{where}: {key} must be at most {maximum:g}, got {_shown(value)}; fix the value in the file.")
    return value


def optional_number(value: Any, key: str, **kwargs: Any) -> Any:
    """Like :func:`number`, but None stays None (the key is absent)."""
    return None if value is None else number(value, key, **kwargs)


def head_count(value: Any, key: str = "number of heads", **kwargs: Any) -> int:
    """A head count from a file: a whole number from 1 to :data:`MAX_HEADS`."""
    return number(value, key, integer=True, minimum=1, maximum=MAX_HEADS, **kwargs)
