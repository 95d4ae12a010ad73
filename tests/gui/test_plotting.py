"""Presentation helpers of ui/plotting.py that need no window."""

from __future__ import annotations

import numpy as np

from ui.plotting import tick_indices


def test_tick_indices_thin_labels_evenly_keeping_the_first():
    assert list(tick_indices(5, 10)) == [0, 1, 2, 3, 4] and list(tick_indices(0, 10)) == []
    ticks = tick_indices(1000, 40)
    assert len(ticks) <= 40 and ticks[0] == 0 and np.all(np.diff(ticks) == ticks[1])
