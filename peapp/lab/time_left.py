"""How long a training grid has left, from its measured estimate and its progress so far.

Extrapolating from the start (elapsed × (1 − f) / f) swung from 7 min to 42 s on a 19 s grid:
the first seconds go to spawning the worker processes and importing torch, during which no
step is done, so the early rate is far too slow, and the first steps after it far too fast.
Here the rate is measured from the first progress report onwards (start-up excluded), and it
takes over from the grid's measured estimate gradually, as the steps it rests on grow.
"""

from __future__ import annotations

import math

# Share of the grid's steps after which the measured rate alone decides.
_TRUST_RATE_AFTER = 0.25


class TimeLeft:
    """Seconds left of a job, from ``estimate`` (seconds, measured before it started; NaN if
    unknown) and ``update(elapsed, fraction)`` calls as it progresses."""

    def __init__(self, estimate: float = math.nan):
        self.estimate = estimate
        self._first: tuple[float, float] | None = None  # (elapsed, fraction) of the first report

    def update(self, elapsed: float, fraction: float) -> float:
        """Seconds left after ``elapsed`` seconds with ``fraction`` (0…1) of the work done;
        NaN while nothing can be said yet."""
        fraction = min(max(fraction, 0.0), 1.0)
        if fraction >= 1.0:
            return 0.0
        by_estimate = max(0.0, self.estimate - elapsed) if math.isfinite(self.estimate) else math.nan
        if self._first is None and fraction > 0:
            self._first = (elapsed, fraction)
        if self._first is None:
            return by_estimate
        t0, f0 = self._first
        done = fraction - f0
        if done <= 0 or elapsed <= t0:
            return by_estimate
        by_rate = (elapsed - t0) * (1.0 - fraction) / done
        if not math.isfinite(by_estimate):
            return by_rate if done >= 0.02 else math.nan
        weight = min(1.0, done / _TRUST_RATE_AFTER)
        return (1.0 - weight) * by_estimate + weight * by_rate
